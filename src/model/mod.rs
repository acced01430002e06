//! Serde models of every representation in the `show -json` format, lenient on input.
//!
//! Unknown fields are ignored and absent ones take defaults. Values that queries
//! rarely need (before/after, sensitivity markers, configuration expressions) are
//! kept as borrowed [`RawValue`]s pointing into the input buffer, so reading a
//! 100 MB plan never builds a `serde_json::Value` tree of it.

pub mod action;
pub mod checks;
pub mod config;
pub mod document;
pub mod plan;
pub mod values;
pub mod visit;

pub use action::{Action, ActionReason, ChangeKind, Mode, ReplaceOrder};
pub use checks::{CheckInstance, CheckKind, CheckObject, CheckStatus};
pub use config::{BlockExpressions, Configuration, Expression, ModuleCall, ModuleConfig};
pub use document::{Document, RawDocument, StateDoc};
pub use plan::{
    ActionInvocation, Change, DeferredChange, Importing, InvokeActionTrigger, LifecycleActionTrigger, OnFailure, PathStep, Plan,
    RelevantAttribute, ResourceChange, TriggerEvent, Unreadable,
};
pub use values::{Module, OutputValue, ResourceValue, State, Values};

pub use serde_json::value::RawValue;

/// A sensitivity or unknown-ness marker: `true`/`false` for the whole value, or a
/// structure mirroring the value (REALITY: both forms occur).
pub fn marker_is_all(raw: Option<&RawValue>) -> bool {
    matches!(raw.map(|r| r.get().trim()), Some("true"))
}

/// True when a marker marks anything at all (the whole value or some part).
pub fn marker_marks_any(raw: Option<&RawValue>) -> bool {
    let Some(r) = raw else { return false };
    let s = r.get().trim();
    // A structural marker marks something iff it contains a `true` leaf; a
    // structure of only `{}`/`[]`/`false` marks nothing. Keys can contain the
    // text "true", so parse rather than search.
    match serde_json::from_str::<serde_json::Value>(s) {
        Ok(v) => marks_anything(&v),
        Err(_) => true, // unreadable marker: fail closed (treat as sensitive)
    }
}

/// Whether a marker (or part of one) could mark anything: a `true` inside, or
/// a leaf that is no marker at all (a string or number: unreadable, so it
/// marks, fail closed).
pub fn marks_anything(m: &serde_json::Value) -> bool {
    use serde_json::Value;
    match m {
        Value::Bool(b) => *b,
        Value::Null => false,
        Value::Array(a) => a.iter().any(marks_anything),
        Value::Object(o) => o.values().any(marks_anything),
        Value::String(_) | Value::Number(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(s: &str) -> Box<RawValue> {
        RawValue::from_string(s.to_string()).unwrap()
    }

    #[test]
    fn markers_in_bool_and_structural_form() {
        assert!(marker_is_all(Some(&raw("true"))));
        assert!(!marker_is_all(Some(&raw("false"))));
        assert!(!marker_is_all(None));
        assert!(marker_marks_any(Some(&raw(r#"{"a":[false,{"b":true}]}"#))));
        assert!(!marker_marks_any(Some(&raw(r#"{"true":[false,{}]}"#))));
        assert!(!marker_marks_any(Some(&raw("false"))));
    }
}
