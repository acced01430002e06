//! The top level of a `show -json` document, read in one pass, before we know
//! whether it is a plan or a state, and the [`Document`] it becomes once told.

use super::plan::{output_changes, Plan};
use super::values::{State, Values};
use serde::de::{IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;

/// Everything at the top level of a document. The plan fields are read into
/// [`Plan`] directly; the rest is what tells one kind of document from another.
#[derive(Debug, Default)]
pub(crate) struct RawDocument<'a> {
    pub plan: Plan<'a>,
    /// `format_version` as written (it should be a string).
    pub format_version: Option<serde_json::Value>,
    /// HCP Terraform's redacted plan JSON carries this instead.
    pub plan_format_version: Option<serde_json::Value>,
    /// A state's `values`.
    pub values: Option<&'a RawValue>,
    /// Top-level keys that only plans have were present.
    pub plan_keys: bool,
    /// The first of them, to name in messages.
    pub first_plan_key: Option<&'static str>,
    /// A `values` key was present (even `null`): only states have one.
    pub values_key: bool,
    /// Top-level keys this version does not know, in document order.
    pub other_keys: Vec<String>,
}

/// How a top-level key is read when a document streams by (`read::walk`); a
/// whole read parses every key it knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Streamed {
    /// An array whose elements (resource changes) go to the visitor one at a time.
    Elements,
    /// A values representation (`planned_values`, or its member `inner`:
    /// `prior_state`'s `values`): its resources go to the visitor, its
    /// outputs stay in the skeleton.
    Values { inner: Option<&'static str> },
    /// Kept verbatim in the skeleton (small, or needed whole: `configuration`
    /// says which variables are sensitive).
    Kept,
    /// Checked and skipped (no query reads it).
    Skipped,
}

/// THE table of the top-level keys planview knows: whether only plans have
/// it (REALITY: "Top-level plan keys seen") and how a streamed read takes it.
/// A key not here is skipped (and, read whole, named in `other_keys`).
pub(crate) const KEYS: &[(&str, bool, Streamed)] = &[
    ("format_version", false, Streamed::Kept),
    ("plan_format_version", false, Streamed::Kept),
    ("terraform_version", false, Streamed::Kept),
    ("values", false, Streamed::Kept),
    ("checks", false, Streamed::Kept),
    ("planned_values", true, Streamed::Values { inner: None }),
    ("proposed_unknown", true, Streamed::Skipped),
    ("resource_drift", true, Streamed::Elements),
    ("resource_changes", true, Streamed::Elements),
    ("relevant_attributes", true, Streamed::Kept),
    ("output_changes", true, Streamed::Kept),
    ("prior_state", true, Streamed::Values { inner: Some("values") }),
    ("configuration", true, Streamed::Kept),
    ("condition_results", true, Streamed::Kept),
    ("deferred_changes", true, Streamed::Kept),
    ("action_invocations", true, Streamed::Kept),
    ("deferred_action_invocations", true, Streamed::Kept),
    ("timestamp", true, Streamed::Kept),
    ("applyable", true, Streamed::Kept),
    ("complete", true, Streamed::Kept),
    ("errored", true, Streamed::Kept),
    ("variables", true, Streamed::Kept),
];

/// How a streamed read takes top-level `key` ([`KEYS`]).
pub(crate) fn streamed(key: &str) -> Streamed {
    KEYS.iter().find(|(k, _, _)| *k == key).map_or(Streamed::Skipped, |&(_, _, how)| how)
}

impl<'de: 'a, 'a> Deserialize<'de> for RawDocument<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(DocVisitor(std::marker::PhantomData))
    }
}

struct DocVisitor<'a>(std::marker::PhantomData<&'a ()>);

impl<'de: 'a, 'a> Visitor<'de> for DocVisitor<'a> {
    type Value = RawDocument<'a>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object (a plan or state from `show -json`)")
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Self::Value, M::Error> {
        let mut doc = RawDocument::default();
        let mut seen: std::collections::HashSet<Cow<'de, str>> = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            // A repeated top-level key is an error (which value is meant cannot
            // be known), as in the streaming reader; records planview reads
            // refuse duplicate fields too (serde's derive); inside values the
            // last one wins.
            if !seen.insert(key.clone()) {
                let key = crate::sanitize::line(&key);
                return Err(serde::de::Error::custom(format_args!("duplicate key `{key}` at the top level of the document")));
            }
            if let Some((k, _, _)) = KEYS.iter().find(|(k, plan_only, _)| *plan_only && *k == key.as_ref()) {
                doc.plan_keys = true;
                doc.first_plan_key = doc.first_plan_key.or(Some(k));
            }
            let p = &mut doc.plan;
            match key.as_ref() {
                "format_version" => doc.format_version = Some(map.next_value()?),
                "plan_format_version" => doc.plan_format_version = Some(map.next_value()?),
                "terraform_version" => p.terraform_version = map.next_value()?,
                "values" => {
                    doc.values_key = true;
                    doc.values = map.next_value()?;
                }
                "variables" => p.variables = map.next_value::<Option<_>>()?.unwrap_or_default(),
                "planned_values" => p.planned_values = map.next_value()?,
                "proposed_unknown" => p.proposed_unknown = map.next_value()?,
                "resource_drift" => p.resource_drift = map.next_value::<Option<_>>()?.unwrap_or_default(),
                "resource_changes" => {
                    p.resource_changes_key = true;
                    p.resource_changes = map.next_value::<Option<_>>()?.unwrap_or_default();
                }
                "relevant_attributes" => p.relevant_attributes = map.next_value::<Option<_>>()?.unwrap_or_default(),
                "output_changes" => p.output_changes = map.next_value::<OutputChanges<'a>>()?.0,
                "prior_state" => p.prior_state = map.next_value()?,
                "configuration" => p.configuration = map.next_value()?,
                "checks" => p.checks = map.next_value()?,
                "condition_results" => p.condition_results = map.next_value()?,
                "deferred_changes" => p.deferred_changes = map.next_value()?,
                "action_invocations" => p.action_invocations = map.next_value()?,
                "deferred_action_invocations" => p.deferred_action_invocations = map.next_value()?,
                "timestamp" => p.timestamp = map.next_value()?,
                "applyable" => p.applyable = map.next_value()?,
                "complete" => p.complete = map.next_value()?,
                "errored" => p.errored = map.next_value::<Option<bool>>()?.unwrap_or(false),
                other => {
                    doc.other_keys.push(other.to_string());
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(doc)
    }
}

struct OutputChanges<'a>(std::collections::BTreeMap<String, super::plan::Change<'a>>);

impl<'de: 'a, 'a> Deserialize<'de> for OutputChanges<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v: Option<&'a RawValue> = Deserialize::deserialize(d)?;
        match v {
            None => Ok(OutputChanges(Default::default())),
            Some(raw) => {
                let mut de = serde_json::Deserializer::from_str(raw.get());
                output_changes(&mut de).map(OutputChanges).map_err(serde::de::Error::custom)
            }
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Plan<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let doc = RawDocument::deserialize(d)?;
        let mut plan = doc.plan;
        if let Some(serde_json::Value::String(v)) = doc.format_version.or(doc.plan_format_version) {
            plan.format_version = v;
        }
        Ok(plan)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_pass_records_kind_markers_and_foreign_keys() {
        let d: RawDocument =
            serde_json::from_str(r#"{"format_version":"1.0","provider_schemas":{},"valid":true,"values":{"root_module":{}}}"#).unwrap();
        assert_eq!(d.other_keys, vec!["provider_schemas", "valid"]);
        assert!(d.values.is_some());
        assert!(!d.plan_keys);
        let d: RawDocument = serde_json::from_str(r#"{"format_version":"1.2","errored":true,"resource_changes":null}"#).unwrap();
        assert!(d.plan_keys);
        assert!(d.plan.errored);
    }

    #[test]
    fn a_repeated_key_among_a_hundred_thousand_is_found_without_comparing_every_pair() {
        // Guards the duplicate check's set: a list searched for every key
        // made 200k keys (3 MB) take a minute.
        let keys: String = (0..100_000).map(|i| format!(r#","k{i}":1"#)).collect();
        let ok = format!(r#"{{"format_version":"1.0"{keys},"values":{{"root_module":{{}}}}}}"#);
        let d: RawDocument = serde_json::from_str(&ok).unwrap();
        assert_eq!(d.other_keys.len(), 100_000);
        let repeated = format!(r#"{{"format_version":"1.0"{keys},"k0":2}}"#);
        let e = serde_json::from_str::<RawDocument>(&repeated).unwrap_err().to_string();
        assert!(e.starts_with("duplicate key `k0` at the top level"), "{e}");
    }
}

/// A parsed document.
#[derive(Debug)]
pub enum Document<'a> {
    Plan(Box<Plan<'a>>),
    State(StateDoc<'a>),
}

/// A state document (`show -json` without a plan file).
#[derive(Debug, Default)]
pub struct StateDoc<'a> {
    pub format_version: String,
    pub terraform_version: Option<String>,
    pub values: Option<Values<'a>>,
    pub checks: Option<Vec<super::checks::CheckObject>>,
}

impl<'a> StateDoc<'a> {
    pub fn from_state(s: State<'a>) -> Self {
        StateDoc {
            format_version: s.format_version.unwrap_or_default(),
            terraform_version: s.terraform_version,
            values: s.values,
            checks: s.checks,
        }
    }
}

impl Document<'_> {
    pub fn kind(&self) -> &'static str {
        match self {
            Document::Plan(_) => "plan",
            Document::State(_) => "state",
        }
    }
}
