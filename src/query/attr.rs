//! Attribute paths inside a resource value: keeping the changed ones
//! ([`crate::query::diff::changed_paths`]) that `relevant_attributes` lists,
//! and the before/after of a change at one path, masked as needed.

use crate::model::markers;
use crate::model::{PathStep, RawValue};
use crate::query::path::{traversal_or, WHOLE_OBJECT};
use crate::query::values::{parse_raw, value_at, Shown, Visibility};
use serde::{Serialize, Serializer};
use serde_json::Value;

/// Which of the `changed` paths to show, given the relevant paths, as
/// Terraform's renderer does (`attribute_path.Matcher` with propagation):
///
/// - a changed path equal to or below a relevant path is kept whole;
/// - a changed path above a relevant path (a list that changed length, an
///   object that appeared) is narrowed to the relevant path, kept only when
///   the values there still differ (`differs`);
/// - anything else is hidden.
///
/// The result keeps the order of `changed`, without duplicates.
pub(crate) fn relevant_changes(
    changed: &[Vec<PathStep>],
    relevant: &[Vec<PathStep>],
    mut differs: impl FnMut(&[PathStep]) -> bool,
) -> Vec<Vec<PathStep>> {
    let mut out: Vec<Vec<PathStep>> = Vec::new();
    for p in changed {
        if relevant.iter().any(|r| p.starts_with(r)) {
            if !out.contains(p) {
                out.push(p.clone());
            }
            continue;
        }
        for r in relevant.iter().filter(|r| r.len() > p.len() && r.starts_with(p)) {
            if !out.contains(r) && differs(r) {
                out.push(r.clone());
            }
        }
    }
    out
}

/// One side of a change at a path, for JSON: `{"state": "value", "value": ...}`
/// with the value as exact JSON, or `{"state": "null" | "sensitive" | "unknown"}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Side(pub Shown);

impl Side {
    pub fn text(&self) -> &str {
        self.0.text()
    }
}

impl Serialize for Side {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        match &self.0 {
            Shown::Value(text) => {
                m.serialize_entry("state", "value")?;
                match RawValue::from_string(text.clone()) {
                    Ok(raw) => m.serialize_entry("value", &raw)?,
                    Err(_) => m.serialize_entry("value", text)?,
                }
            }
            Shown::Null => m.serialize_entry("state", "null")?,
            Shown::Sensitive => m.serialize_entry("state", "sensitive")?,
            Shown::Unknown => m.serialize_entry("state", "unknown")?,
        }
        m.end()
    }
}

/// A change's before, after and markers, parsed once, to read at paths.
#[derive(Debug, Default)]
pub struct ParsedChange {
    pub before: Option<Value>,
    pub after: Option<Value>,
    pub after_unknown: Option<Value>,
    pub before_sensitive: Option<Value>,
    pub after_sensitive: Option<Value>,
}

impl ParsedChange {
    pub fn of(ch: &crate::model::Change<'_>) -> ParsedChange {
        ParsedChange {
            before: parse_raw(ch.before),
            after: parse_raw(ch.after),
            after_unknown: parse_raw(ch.after_unknown),
            before_sensitive: parse_raw(ch.before_sensitive),
            after_sensitive: parse_raw(ch.after_sensitive),
        }
    }

    fn at<'v>(v: &'v Option<Value>, path: &[PathStep]) -> Option<&'v Value> {
        v.as_ref().and_then(|v| value_at(v, path))
    }

    /// The value before, at `path` (masked when anything in it is sensitive).
    pub fn before_at(&self, path: &[PathStep], vis: &Visibility) -> Side {
        let v = Self::at(&self.before, path);
        side(v, markers::within(self.before_sensitive.as_ref(), path), false, vis)
    }

    /// The value after, at `path` (`(known after apply)` when anything in it is unknown).
    pub fn after_at(&self, path: &[PathStep], vis: &Visibility) -> Side {
        let v = Self::at(&self.after, path);
        let unknown = markers::within(self.after_unknown.as_ref(), path);
        side(v, markers::within(self.after_sensitive.as_ref(), path), unknown, vis)
    }

    /// True when the values at `path` differ (absent and null are the same),
    /// or the after value is unknown there.
    pub fn differs_at(&self, path: &[PathStep]) -> bool {
        let norm = |v: Option<&Value>| v.filter(|x| !x.is_null()).cloned();
        norm(Self::at(&self.before, path)) != norm(Self::at(&self.after, path)) || markers::within(self.after_unknown.as_ref(), path)
    }
}

/// A side: unknown wins, then masking; a null or absent value is shown as null
/// (it cannot hold a secret).
fn side(v: Option<&Value>, sensitive: bool, unknown: bool, vis: &Visibility) -> Side {
    if !unknown && v.is_none_or(Value::is_null) {
        return Side(Shown::Null);
    }
    Side(Shown::of(v, sensitive, unknown, vis))
}

/// One attribute that changed: its path and the value on each side.
#[derive(Debug, Clone, Serialize)]
pub struct AttrChange {
    /// The path as an HCL traversal.
    pub path: String,
    /// The path as the plan writes it (keys and indexes).
    pub steps: Vec<PathStep>,
    pub before: Side,
    pub after: Side,
}

impl AttrChange {
    pub fn at(pc: &ParsedChange, steps: &[PathStep], vis: &Visibility) -> AttrChange {
        AttrChange {
            path: traversal_or(steps, WHOLE_OBJECT),
            steps: steps.to_vec(),
            before: pc.before_at(steps, vis),
            after: pc.after_at(steps, vis),
        }
    }

    /// `before -> after` for one line of text (what the tests compare).
    #[cfg(test)]
    pub fn arrow(&self) -> String {
        format!("{} -> {}", self.before.text(), self.after.text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::path::traversal;

    fn p(s: &str) -> Vec<PathStep> {
        serde_json::from_str(s).unwrap()
    }

    #[test]
    fn relevant_filter_keeps_equal_below_and_narrows_above() {
        let changed = vec![p(r#"["tags","Name"]"#), p(r#"["tags","Env"]"#), p(r#"["disks"]"#), p(r#"["ami"]"#), p(r#"["nic",0,"ip"]"#)];
        let relevant = vec![
            p(r#"["tags"]"#),             // parent of two changes: both kept
            p(r#"["disks", 0, "size"]"#), // below a changed list: narrowed
            p(r#"["disks", 1, "size"]"#), // narrowed, but equal there: dropped
            p(r#"["nic", 0, "ip"]"#),     // exact match with an index step
            p(r#"["nic", 1]"#),           // an index that did not change
        ];
        let differs = |r: &[PathStep]| r == p(r#"["disks", 0, "size"]"#).as_slice();
        let got: Vec<String> = relevant_changes(&changed, &relevant, differs).iter().map(|x| traversal(x)).collect();
        assert_eq!(got, vec!["tags.Name", "tags.Env", "disks[0].size", "nic[0].ip"]);
        // An index step must match exactly: [0] is not [1].
        let got = relevant_changes(&[p(r#"["nic",0,"ip"]"#)], &[p(r#"["nic",1,"ip"]"#)], |_| true);
        assert!(got.is_empty());
        // A key is not an index, even when it reads the same.
        let got = relevant_changes(&[p(r#"["m","0"]"#)], &[p(r#"["m",0]"#)], |_| true);
        assert!(got.is_empty());
        // The whole value relevant (`[]`) keeps everything.
        assert_eq!(relevant_changes(&changed, &[vec![]], |_| true).len(), changed.len());
        assert!(relevant_changes(&changed, &[], |_| true).is_empty());
    }

    #[test]
    fn sides_mask_sensitive_and_mark_unknown() {
        let raw = |s: &str| RawValue::from_string(s.to_string()).unwrap();
        let (b, a, au, bs, as_) = (
            raw(r#"{"pw":"old-pw","size":8,"id":"x"}"#),
            raw(r#"{"pw":"new-pw","size":16}"#),
            raw(r#"{"id":true}"#),
            raw(r#"{"pw":true}"#),
            raw(r#"{"pw":true}"#),
        );
        let ch = crate::model::Change {
            before: Some(&b),
            after: Some(&a),
            after_unknown: Some(&au),
            before_sensitive: Some(&bs),
            after_sensitive: Some(&as_),
            ..Default::default()
        };
        let pc = ParsedChange::of(&ch);
        let vis = Visibility::default();
        assert_eq!(AttrChange::at(&pc, &p(r#"["pw"]"#), &vis).arrow(), "(sensitive value) -> (sensitive value)");
        assert_eq!(AttrChange::at(&pc, &p(r#"["size"]"#), &vis).arrow(), "8 -> 16");
        assert_eq!(AttrChange::at(&pc, &p(r#"["id"]"#), &vis).arrow(), "\"x\" -> (known after apply)");
        assert_eq!(AttrChange::at(&pc, &[], &vis).before.text(), "(sensitive value)", "the whole object holds a secret");
        assert!(pc.differs_at(&p(r#"["id"]"#)));
        assert!(!pc.differs_at(&p(r#"["nothing"]"#)));
        let open = Visibility { show_sensitive: true, masker: None };
        assert_eq!(AttrChange::at(&pc, &p(r#"["pw"]"#), &open).arrow(), "\"old-pw\" -> \"new-pw\"");
        let json = serde_json::to_string(&AttrChange::at(&pc, &p(r#"["size"]"#), &vis)).unwrap();
        assert_eq!(json, r#"{"path":"size","steps":["size"],"before":{"state":"value","value":8},"after":{"state":"value","value":16}}"#);
    }
}
