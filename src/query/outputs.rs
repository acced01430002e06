//! `outputs`: a plan's output changes (before -> after), or a state's outputs
//! with their values and types; sensitive values masked, unknown ones marked.

use crate::model::markers;
use crate::model::Document;
use crate::model::{Change, Plan, RawValue};
use crate::query::attr::{ParsedChange, Side};
use crate::query::values::{OutputReport, Visibility};
use serde::Serialize;
use std::collections::BTreeMap;

/// The outputs of one document.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum OutputsReport {
    Plan(PlanOutputs),
    State(StateOutputs),
}

/// A plan's output changes.
#[derive(Debug, Serialize)]
pub struct PlanOutputs {
    pub kind: &'static str,
    pub document: &'static str,
    pub file: String,
    pub format_version: String,
    pub terraform_version: Option<String>,
    pub errored: bool,
    /// Output changes by action.
    pub counts: BTreeMap<String, u64>,
    pub outputs: Vec<OutputChange>,
}

/// One output's change.
#[derive(Debug, Serialize)]
pub struct OutputChange {
    pub name: String,
    /// `create`, `update`, `delete`, `no-op`, or an unknown list joined with `+`.
    pub action: String,
    /// Marked sensitive on either side.
    pub sensitive: bool,
    /// The type from the planned values, when the plan gives one.
    #[serde(rename = "type")]
    pub type_: Option<Box<RawValue>>,
    pub before: Side,
    pub after: Side,
    /// A value partly unknown until apply (`after` says unknown), for text:
    /// its known parts and `(known after apply)` for the others, as `show`
    /// renders it (`{ fixed = "f", id = (known after apply) }`).
    #[serde(skip)]
    pub after_partly: Option<String>,
    /// Where the output is declared in the configuration, when it was read
    /// and holds it (set by the run: `crate::locate`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<crate::model::Location>,
}

/// A state's outputs.
#[derive(Debug, Serialize)]
pub struct StateOutputs {
    pub kind: &'static str,
    pub document: &'static str,
    pub file: String,
    pub format_version: String,
    pub terraform_version: Option<String>,
    pub outputs: Vec<OutputReport>,
}

impl OutputsReport {
    pub fn set_file(&mut self, name: &str) {
        match self {
            OutputsReport::Plan(p) => p.file = name.to_string(),
            OutputsReport::State(s) => s.file = name.to_string(),
        }
    }
}

pub fn outputs(doc: &Document<'_>, vis: &Visibility) -> Result<OutputsReport, String> {
    match doc {
        Document::Plan(p) => Ok(OutputsReport::Plan(plan_outputs(p, vis))),
        Document::State(s) => {
            let mut outputs = Vec::new();
            if let Some(v) = &s.values {
                for (name, o) in &v.outputs {
                    outputs.push(OutputReport::from_output(name, o, vis)?);
                }
            }
            Ok(OutputsReport::State(StateOutputs {
                kind: "outputs",
                document: "state",
                file: String::new(),
                format_version: s.format_version.clone(),
                terraform_version: s.terraform_version.clone(),
                outputs,
            }))
        }
    }
}

pub(crate) fn output_change(name: &str, ch: &Change<'_>, type_: Option<Box<RawValue>>, vis: &Visibility) -> OutputChange {
    let pc = ParsedChange::of(ch);
    OutputChange {
        name: name.to_string(),
        action: ch.kind().key(),
        sensitive: markers::raw_any(ch.before_sensitive) || markers::raw_any(ch.after_sensitive),
        type_,
        before: pc.before_at(&[], vis),
        after: pc.after_at(&[], vis),
        after_partly: partly_unknown(&pc, vis),
        location: None,
    }
}

/// The text of an after value that is unknown only in part (nothing in it
/// marked sensitive), else `None`.
fn partly_unknown(pc: &ParsedChange, vis: &Visibility) -> Option<String> {
    let u = pc.after_unknown.as_ref()?;
    if !(u.is_object() || u.is_array()) || markers::any(pc.after_sensitive.as_ref()) {
        return None;
    }
    let after = pc.after.as_ref().unwrap_or(&serde_json::Value::Null);
    if !after.is_object() && !after.is_array() {
        return None;
    }
    let text = render_partly(after, Some(u));
    // A secret known from elsewhere in the plan: the whole value is masked.
    if vis.text(&text) != text.as_str() {
        return None;
    }
    Some(text)
}

fn render_partly(v: &serde_json::Value, u: Option<&serde_json::Value>) -> String {
    use serde_json::Value;
    if matches!(u, Some(Value::Bool(true))) {
        return crate::query::values::UNKNOWN.to_string();
    }
    match v {
        Value::Object(o) => {
            let uo = u.and_then(Value::as_object);
            let mut keys: Vec<&String> = o.keys().chain(uo.into_iter().flat_map(|m| m.keys())).collect();
            keys.sort();
            keys.dedup();
            let parts: Vec<String> = keys
                .into_iter()
                .map(|k| {
                    let key = if crate::query::path::is_identifier(k) { k.clone() } else { serde_json::to_string(k).unwrap_or_default() };
                    format!("{key} = {}", render_partly(o.get(k).unwrap_or(&Value::Null), uo.and_then(|m| m.get(k))))
                })
                .collect();
            if parts.is_empty() {
                "{}".into()
            } else {
                format!("{{ {} }}", parts.join(", "))
            }
        }
        Value::Array(a) => {
            let ua = u.and_then(Value::as_array);
            let n = a.len().max(ua.map_or(0, Vec::len));
            let parts: Vec<String> = (0..n).map(|i| render_partly(a.get(i).unwrap_or(&Value::Null), ua.and_then(|x| x.get(i)))).collect();
            format!("[{}]", parts.join(", "))
        }
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

pub(crate) fn plan_outputs(p: &Plan<'_>, vis: &Visibility) -> PlanOutputs {
    // Types, when the planned values carry them (an unreadable part is just left out).
    let planned = p.planned_values().ok().flatten();
    let type_of = |name: &str| {
        planned
            .as_ref()
            .and_then(|v| v.outputs.get(name))
            .and_then(|o| o.type_)
            .and_then(|t| crate::query::values::type_masked(t.get(), vis).ok())
    };
    let mut counts = BTreeMap::new();
    let mut outputs = Vec::new();
    for (name, ch) in &p.output_changes {
        let o = output_change(name, ch, type_of(name), vis);
        *counts.entry(o.action.clone()).or_default() += 1;
        outputs.push(o);
    }
    PlanOutputs {
        kind: "outputs",
        document: "plan",
        file: String::new(),
        format_version: p.format_version.clone(),
        terraform_version: p.terraform_version.clone(),
        errored: p.errored,
        counts,
        outputs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_format_0_1_output_marked_sensitive_only_in_planned_values_is_masked() {
        // Terraform 0.12 writes no markers on output changes.
        let doc = crate::read::parse(
            "p",
            br#"{"format_version":"0.1","output_changes":{"pin":{"actions":["create"],"before":null,"after":987654321},
                "name":{"actions":["create"],"before":null,"after":"public"}},
              "planned_values":{"outputs":{"pin":{"sensitive":true,"value":987654321},"name":{"sensitive":false,"value":"public"}}}}"#,
        )
        .unwrap();
        let crate::model::Document::Plan(p) = &doc else { panic!("a plan") };
        let r = plan_outputs(p, &Visibility::default());
        let rows: Vec<String> = r.outputs.iter().map(|o| format!("{} {} {}", o.name, o.sensitive, o.after.text())).collect();
        assert_eq!(rows, ["name false \"public\"", "pin true (sensitive value)"]);
    }

    #[test]
    fn plan_output_changes_masked_and_unknown() {
        let p: Plan = serde_json::from_str(
            r#"{"format_version":"1.2","output_changes":{
            "id":{"actions":["create"],"before":null,"after_unknown":true,"before_sensitive":false,"after_sensitive":false},
            "pw":{"actions":["update"],"before":"old-pw","after":"new-pw","before_sensitive":true,"after_sensitive":true},
            "gone":{"actions":["delete"],"before":"bye","after":null},
            "same":{"actions":["no-op"],"before":{"a":[1,2]},"after":{"a":[1,2]}}},
            "planned_values":{"outputs":{"same":{"value":{"a":[1,2]},"type":["object",{"a":["list","number"]}]}}}}"#,
        )
        .unwrap();
        let r = plan_outputs(&p, &Visibility::default());
        let rows: Vec<String> =
            r.outputs.iter().map(|o| format!("{} {} {} -> {}", o.name, o.action, o.before.text(), o.after.text())).collect();
        assert_eq!(
            rows,
            vec![
                "gone delete \"bye\" -> null",
                "id create null -> (known after apply)",
                "pw update (sensitive value) -> (sensitive value)",
                "same no-op {\"a\":[1,2]} -> {\"a\":[1,2]}",
            ]
        );
        assert!(r.outputs[2].sensitive);
        assert_eq!(r.outputs[3].type_.as_ref().unwrap().get(), r#"["object",{"a":["list","number"]}]"#);
        assert_eq!((r.counts["create"], r.counts["no-op"]), (1, 1));
    }
}
