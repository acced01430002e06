//! The one reading of a sensitivity or unknown-ness marker (`before_sensitive`,
//! `after_sensitive`, `after_unknown`, `sensitive_values`): `true`/`false` for a
//! whole value, or a structure mirroring the value (REALITY: both forms occur).
//!
//! It fails closed: a leaf that is no marker at all (a string, a number: `"admin":
//! "yes"`) marks the whole value under it, and a structure of a shape the value
//! does not fit (an object where the value is a list) marks what it cannot place
//! if it could mark anything. Every command reads markers through this module.

use super::plan::PathStep;
use serde_json::value::RawValue;
use serde_json::Value;

/// The marker of a whole value.
const TRUE: Value = Value::Bool(true);

/// True when the marker marks the whole value: `true`, or a leaf that is no
/// marker (fail closed).
pub(crate) fn whole(m: Option<&Value>) -> bool {
    matches!(m, Some(Value::Bool(true) | Value::String(_) | Value::Number(_)))
}

/// True when the marker marks anything at all (the whole value or some part):
/// a `true` inside, or a leaf that is no marker.
pub(crate) fn any(m: Option<&Value>) -> bool {
    match m {
        None | Some(Value::Null | Value::Bool(false)) => false,
        Some(Value::Bool(true) | Value::String(_) | Value::Number(_)) => true,
        Some(Value::Array(a)) => a.iter().any(|x| any(Some(x))),
        Some(Value::Object(o)) => o.values().any(|x| any(Some(x))),
    }
}

/// The marker one step down: a marker of the whole value covers every child;
/// a structure the step does not fit covers it when it could mark anything
/// (fail closed); otherwise the member at the step, if any.
pub(crate) fn child<'v>(m: Option<&'v Value>, step: &PathStep) -> Option<&'v Value> {
    let m = m?;
    if whole(Some(m)) {
        return Some(&TRUE);
    }
    match (m, step) {
        (Value::Object(o), PathStep::Key(k)) => o.get(k),
        (Value::Array(a), PathStep::Index(i)) => a.get(usize::try_from(*i).ok()?),
        (Value::Object(_) | Value::Array(_), _) if any(Some(m)) => Some(&TRUE),
        _ => None,
    }
}

/// The marker at `path` (following [`child`]).
fn follow<'v>(m: Option<&'v Value>, path: &[PathStep]) -> Option<&'v Value> {
    path.iter().try_fold(m?, |cur, step| child(Some(cur), step))
}

/// Whether the marker marks the value at `path` whole: marked there or at an
/// ancestor (a whole-object mark covers everything inside), or unreadable there.
pub(crate) fn at(m: Option<&Value>, path: &[PathStep]) -> bool {
    whole(follow(m, path))
}

/// Whether the marker marks anything at or below `path` (so showing the value
/// at `path` would show something marked).
pub(crate) fn within(m: Option<&Value>, path: &[PathStep]) -> bool {
    any(follow(m, path))
}

/// [`any`] of a marker not parsed yet; an unreadable one marks (fail closed).
pub(crate) fn raw_any(raw: Option<&RawValue>) -> bool {
    let Some(r) = raw else { return false };
    // Keys can contain the text "true", so parse rather than search.
    match serde_json::from_str::<Value>(r.get()) {
        Ok(v) => any(Some(&v)),
        Err(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn p(s: &str) -> Vec<PathStep> {
        serde_json::from_str(s).unwrap()
    }

    fn raw(s: &str) -> Box<RawValue> {
        RawValue::from_string(s.to_string()).unwrap()
    }

    #[test]
    fn markers_in_bool_and_structural_form() {
        assert!(raw_any(Some(&raw(r#"{"a":[false,{"b":true}]}"#))));
        assert!(!raw_any(Some(&raw(r#"{"true":[false,{}]}"#))));
        assert!(!raw_any(Some(&raw("false"))));
    }

    #[test]
    fn a_leaf_that_is_no_marker_marks_the_whole_value() {
        for m in [json!("yes"), json!(1), json!("false")] {
            assert!(whole(Some(&m)), "{m}");
            assert!(any(Some(&m)), "{m}");
            assert_eq!(child(Some(&m), &PathStep::Key("x".into())), Some(&json!(true)), "{m} covers its children");
        }
        let admin = json!({"admin": "yes"});
        assert!(at(Some(&admin), &p(r#"["admin"]"#)));
        assert!(at(Some(&admin), &p(r#"["admin", "deeper", 0]"#)));
        assert!(!at(Some(&admin), &p(r#"["name"]"#)));
        assert!(within(Some(&admin), &p("[]")));
        assert!(!at(Some(&admin), &p("[]")), "the object is not marked whole, only its admin");
    }

    #[test]
    fn a_marker_of_an_unexpected_shape_marks_what_it_cannot_place() {
        assert!(at(Some(&json!("yes")), &p("[]")));
        assert!(at(Some(&json!({"a": "yes"})), &p(r#"["a"]"#)));
        assert!(at(Some(&json!({"a": true})), &p("[0]")), "an object marking a list");
        assert!(within(Some(&json!([{"b": 1}])), &p(r#"["x"]"#)), "a list marking an object");
        assert!(!at(Some(&json!({"a": false})), &p("[0]")), "marks nothing, whatever its shape");
        assert!(!within(Some(&json!({})), &p(r#"["a", 0]"#)));
        assert!(!within(Some(&json!(false)), &p(r#"["a"]"#)));
        assert!(!any(Some(&json!({"a": [false, null, {}]}))));
    }

    #[test]
    fn markers_one_step_down() {
        let m = json!({"a": [false, {"b": true}], "all": true});
        let k = |s: &str| PathStep::Key(s.into());
        assert_eq!(child(Some(&m), &k("a")), Some(&json!([false, {"b": true}])));
        assert_eq!(child(child(Some(&m), &k("a")), &PathStep::Index(1)), Some(&json!({"b": true})));
        assert_eq!(child(child(Some(&m), &k("all")), &k("anything")), Some(&json!(true)), "a whole mark covers every child");
        assert_eq!(child(Some(&m), &PathStep::Index(0)), Some(&json!(true)), "an index into an object that marks something");
        assert_eq!(child(Some(&json!({"a": false})), &PathStep::Index(0)), None, "an index into an object that marks nothing");
        assert_eq!(child(Some(&json!([false])), &PathStep::Other(json!(-1))), None);
        assert_eq!(child(None, &k("a")), None);
    }

    #[test]
    fn lookups_follow_paths() {
        let m = json!({"disks": [{}, {"size": true}], "tags": true});
        assert!(at(Some(&m), &p(r#"["disks", 1, "size"]"#)));
        assert!(!at(Some(&m), &p(r#"["disks", 0, "size"]"#)));
        assert!(at(Some(&m), &p(r#"["tags", "Name"]"#)), "ancestor mark covers children");
        assert!(!at(Some(&m), &p(r#"["disks"]"#)));
        assert!(within(Some(&m), &p(r#"["disks"]"#)));
        assert!(at(Some(&json!(true)), &p(r#"["anything"]"#)));
        assert!(!at(None, &p("[]")));
    }
}
