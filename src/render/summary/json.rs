//! `summary --format json` (schemas/summary.schema.json).

use super::*;

#[derive(Serialize)]
#[serde(untagged)]
pub(super) enum JsonItem<'a> {
    Ok(&'a Summary),
    Err(JsonInputError<'a>),
}

#[derive(Serialize)]
pub(super) struct JsonMany<'a> {
    files: Vec<JsonItem<'a>>,
    total: SummaryTotal,
    /// One row per root (input document), in order.
    roots: Vec<crate::query::roots::RootRow>,
}

pub(crate) fn json_out(w: &mut dyn Write, items: &[PerFile<Summary>]) -> io::Result<()> {
    let list: Vec<JsonItem> = items
        .iter()
        .map(|i| match &i.result {
            Ok(s) => JsonItem::Ok(s),
            Err(e) => JsonItem::Err(JsonInputError::new(e)),
        })
        .collect();
    if items.len() == 1 {
        return write_json(w, &list[0]);
    }
    let ok: Vec<&Summary> = items.iter().filter_map(|i| i.result.as_ref().ok()).collect();
    let failed = items.iter().filter(|i| i.result.is_err()).count() as u64;
    write_json(w, &JsonMany { files: list, total: sum(&ok, failed), roots: crate::query::roots::of_summaries(items) })
}
