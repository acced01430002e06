//! `show`'s first pass over a streamed plan: the [`Collector`] visitor counts
//! the changes `show` leaves out ([`super::pick`]) and hands the text of each
//! change it shows to a [`Keep`] (the runner spools it: `crate::run::show`).
//! Pure: no I/O here.

use crate::model::visit::PlanVisitor;
use crate::model::{Plan, ResourceChange};
use crate::query::show::{self as show, Pick, ShowOptions, ShowReport};
use crate::query::values::Visibility;

/// Where the text of each change shown goes, in document order.
pub(crate) trait Keep {
    fn keep(&mut self, text: &str);
}

/// The first pass over one document: counts the changes left out, keeps the
/// ones shown.
pub(crate) struct Collector<'a, K> {
    opts: &'a ShowOptions,
    kept: K,
    hidden_noop: usize,
    filtered_out: usize,
    without_schema: std::collections::BTreeSet<String>,
}

impl<'a, K: Keep> Collector<'a, K> {
    pub(crate) fn new(opts: &'a ShowOptions, kept: K) -> Self {
        Collector { opts, kept, hidden_noop: 0, filtered_out: 0, without_schema: Default::default() }
    }

    /// The report of the plan (the skeleton), once every secret is known.
    pub(crate) fn finish(self, plan: &Plan<'_>, vis: &Visibility) -> Collected<K> {
        let mut report = show::report_head(plan, self.opts, vis);
        report.hidden_noop += self.hidden_noop;
        report.filtered_out += self.filtered_out;
        report.without_schema = self.without_schema;
        Collected { report, kept: self.kept, outputs: outputs_text(plan) }
    }
}

impl<K: Keep> PlanVisitor for Collector<'_, K> {
    fn on_element(&mut self, drift: bool, rc: &ResourceChange<'_>, text: &str) {
        if drift {
            return;
        }
        match show::pick(rc, self.opts) {
            Pick::FilteredOut => self.filtered_out += 1,
            Pick::HiddenNoop => self.hidden_noop += 1,
            Pick::Shown => {
                if show::lacks_schema(rc, self.opts) {
                    self.without_schema.insert(rc.type_.clone());
                }
                self.kept.keep(text)
            }
        }
    }
}

/// One document after the first pass: its report without resources, and the
/// changes kept that they are built from.
pub(crate) struct Collected<K> {
    pub(crate) report: ShowReport,
    pub(crate) kept: K,
    /// The plan's output changes as a plan of their own (JSON text): diffed
    /// again once every input's secrets are known, when the run has several.
    pub(crate) outputs: String,
}

/// `{"format_version", "output_changes"}` of `plan`, each change's parts as the plan writes them.
fn outputs_text(plan: &Plan<'_>) -> String {
    use serde_json::{Map, Value};
    let raw = |r: Option<&crate::model::RawValue>| r.and_then(|r| serde_json::from_str::<Value>(r.get()).ok()).unwrap_or(Value::Null);
    let mut changes = Map::new();
    for (name, ch) in &plan.output_changes {
        let mut c = Map::new();
        c.insert("actions".into(), Value::Array(ch.actions.iter().map(|a| Value::String(a.as_str().into())).collect()));
        c.insert("before".into(), raw(ch.before));
        c.insert("after".into(), raw(ch.after));
        c.insert("after_unknown".into(), raw(ch.after_unknown));
        c.insert("before_sensitive".into(), raw(ch.before_sensitive));
        c.insert("after_sensitive".into(), raw(ch.after_sensitive));
        changes.insert(name.clone(), Value::Object(c));
    }
    let mut doc = Map::new();
    doc.insert("format_version".into(), Value::String(plan.format_version.clone()));
    doc.insert("output_changes".into(), Value::Object(changes));
    Value::Object(doc).to_string()
}
