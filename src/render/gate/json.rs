//! `gate --format json`: one report with the policy, each plan's verdict and the total.

use super::*;

#[derive(Serialize)]
struct JsonError<'a> {
    file: &'a str,
    verdict: &'static str,
    error: JsonErrorBody<'a>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum JsonItem<'a> {
    Ok(&'a PlanVerdict),
    Err(JsonError<'a>),
}

#[derive(Serialize)]
struct JsonReport<'a> {
    verdict: &'static str,
    policy: &'a PolicyReport,
    files: Vec<JsonItem<'a>>,
    total: GateTotal,
    /// One row per root (input document), in order.
    roots: Vec<crate::query::roots::RootRow>,
}

pub(crate) fn json_out(w: &mut dyn Write, items: &[PerFile<PlanVerdict>], policy: &PolicyReport) -> io::Result<()> {
    let t = gate_total(items);
    let files = items
        .iter()
        .map(|i| match &i.result {
            Ok(v) => JsonItem::Ok(v),
            Err(e) => JsonItem::Err(JsonError { file: &e.file, verdict: "error", error: JsonInputError::new(e).error }),
        })
        .collect();
    let roots = crate::query::roots::of_verdicts(items);
    write_json(w, &JsonReport { verdict: overall(&t), policy, files, total: t, roots })
}
