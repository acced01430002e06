//! `data.planview.changes`, the helper document Rego policies may read: one
//! entry per resource change with planview's own reading of it, so that a
//! rule is a one-liner instead of re-deriving replace orders, moves or the
//! attribute paths that change.
//!
//! It holds no attribute value (only addresses, names, codes and paths), so
//! it cannot carry a secret that the plan itself does not put in a key.

use super::action_key;
use crate::model::{ChangeKind, Plan, ResourceChange};
use crate::query::noise::{changed_attribute_paths, Noise};
use crate::query::path::traversal;
use serde::Serialize;

/// One change as `data.planview.changes` gives it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct HelperChange {
    pub address: String,
    /// The module's address (`module.db`), or null in the root module.
    pub module: Option<String>,
    #[serde(rename = "type")]
    pub type_: String,
    pub name: String,
    /// `managed`, `data`, or the mode as written.
    pub mode: String,
    /// One word, as planview's gate names it: `create`, `update`, `delete`,
    /// `replace`, `read`, `forget`, `forget+create`, `create+forget`, `move`
    /// or `import` (a no-op that moves or imports), `no-op`, or an
    /// unrecognised list joined with `+`.
    pub action: String,
    /// `delete_before_create` or `create_before_destroy` for a replace.
    pub replace_order: Option<crate::model::ReplaceOrder>,
    /// The raw `action_reason`, and in words.
    pub reason: Option<String>,
    pub reason_words: Option<String>,
    /// The attribute paths that change (HCL traversals: `tags.Name`,
    /// `tags["kubernetes.io/role"]`, `disks[0].size`; `""` the whole object),
    /// as `--ignore-attr` reads them: values that differ, unknown after
    /// values, sensitivity that changes.
    pub changed: Vec<String>,
    /// The paths that force the replacement (`replace_paths`).
    pub replace_paths: Vec<String>,
    /// The previous address of a moved object, else null.
    pub moved_from: Option<String>,
    pub importing: bool,
    pub deposed: Option<String>,
    /// With `--ignore-attr`: an update that only changes ignored attributes.
    pub noise: bool,
}

impl HelperChange {
    pub(crate) fn of(rc: &ResourceChange<'_>, noise: &Noise) -> HelperChange {
        let kind = rc.kind();
        // No-ops change nothing: no need to read their values.
        let changed = if matches!(kind, ChangeKind::NoOp | ChangeKind::Read) {
            Vec::new()
        } else {
            changed_attribute_paths(rc).iter().map(|p| traversal(p)).collect()
        };
        HelperChange {
            address: rc.address.clone(),
            module: rc.module_address.clone(),
            type_: rc.type_.clone(),
            name: rc.name.clone(),
            mode: rc.mode.as_str().to_string(),
            action: action_key(rc),
            replace_order: kind.replace_order(),
            reason: rc.action_reason.as_ref().map(|r| r.code().to_string()),
            reason_words: rc.action_reason.as_ref().map(|r| r.words_for(&kind)),
            changed,
            replace_paths: rc.change.replace_paths.iter().map(|p| traversal(p)).collect(),
            moved_from: rc.previous_address.clone().filter(|_| rc.is_move()),
            importing: rc.change.importing.is_some(),
            deposed: rc.deposed.clone(),
            noise: noise.is_noise(rc),
        }
    }
}

/// The helper document of a plan, `{"planview": {"changes": [...]}}` as JSON
/// text, to be merged under `data.`: every `resource_changes` entry, in order.
pub(crate) fn helper_document(p: &Plan<'_>, noise: &Noise) -> String {
    let changes: Vec<HelperChange> = p.resource_changes.iter().map(|rc| HelperChange::of(rc, noise)).collect();
    serde_json::json!({ "planview": { "changes": changes } }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_entry_per_change_with_planviews_reading() {
        let p: Plan = serde_json::from_str(
            r#"{"format_version":"1.2","resource_changes":[
            {"address":"module.m.a.b","module_address":"module.m","mode":"managed","type":"a","name":"b","action_reason":"replace_because_cannot_update",
             "change":{"actions":["delete","create"],"replace_paths":[["size"]],"before":{"size":1,"tags":{"x":"1"}},"after":{"size":2,"tags":{"x":"1"}},"after_unknown":{"id":true}}},
            {"address":"a.moved","previous_address":"a.old","mode":"managed","type":"a","name":"moved","change":{"actions":["no-op"],"before":{"x":1},"after":{"x":1}}},
            {"address":"a.t","mode":"managed","type":"a","name":"t","change":{"actions":["update"],"before":{"tags":{"k.io/n":"1"}},"after":{"tags":{"k.io/n":"2"}},"after_unknown":{}}}]}"#,
        )
        .unwrap();
        let doc: serde_json::Value = serde_json::from_str(&helper_document(&p, &Noise::new(&["tags"]))).unwrap();
        let c = doc["planview"]["changes"].as_array().unwrap();
        assert_eq!(c.len(), 3);
        assert_eq!((c[0]["action"].as_str(), c[0]["module"].as_str()), (Some("replace"), Some("module.m")));
        assert_eq!(c[0]["replace_order"], "delete_before_create");
        assert_eq!(c[0]["changed"], serde_json::json!(["size", "id"]));
        assert_eq!(c[0]["replace_paths"], serde_json::json!(["size"]));
        assert_eq!((c[1]["action"].as_str(), c[1]["moved_from"].as_str()), (Some("move"), Some("a.old")));
        assert_eq!(c[2]["changed"], serde_json::json!([r#"tags["k.io/n"]"#]));
        assert_eq!((c[2]["noise"].as_bool(), c[0]["noise"].as_bool()), (Some(true), Some(false)));
    }
}
