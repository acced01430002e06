//! The plan representation, resource changes and the change representation.

use super::action::{Action, ActionReason, ChangeKind, Mode};
use super::checks::CheckObject;
use super::config::Configuration;
use super::values::{State, Values};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::collections::BTreeMap;
use std::fmt;

/// `show -json` of a saved plan. Parts that few queries need are kept raw and
/// parsed on demand ([`Plan::planned_values`], [`Plan::prior_state`],
/// [`Plan::configuration`]).
#[derive(Debug, Default)]
pub struct Plan<'a> {
    pub format_version: String,
    pub terraform_version: Option<String>,
    pub variables: BTreeMap<String, PlanVariable<'a>>,
    pub planned_values: Option<&'a RawValue>,
    pub proposed_unknown: Option<&'a RawValue>,
    pub resource_drift: Vec<ResourceChange<'a>>,
    pub resource_changes: Vec<ResourceChange<'a>>,
    pub relevant_attributes: Vec<RelevantAttribute>,
    pub output_changes: BTreeMap<String, Change<'a>>,
    pub prior_state: Option<&'a RawValue>,
    pub configuration: Option<&'a RawValue>,
    /// `None` when the document has no `checks` key (older plans).
    pub checks: Option<Vec<CheckObject>>,
    /// Terraform 1.2-1.4's predecessor of `checks`, kept raw.
    pub condition_results: Option<&'a RawValue>,
    pub deferred_changes: Option<&'a RawValue>,
    pub action_invocations: Option<&'a RawValue>,
    pub timestamp: Option<String>,
    pub applyable: Option<bool>,
    pub complete: Option<bool>,
    pub errored: bool,
}

impl<'a> Plan<'a> {
    /// The planned values, parsed now.
    pub fn planned_values(&self) -> serde_json::Result<Option<Values<'a>>> {
        self.planned_values.map(|r| serde_json::from_str(r.get())).transpose()
    }

    /// The prior state (a state representation), parsed now.
    pub fn prior_state(&self) -> serde_json::Result<Option<State<'a>>> {
        self.prior_state.map(|r| serde_json::from_str(r.get())).transpose()
    }

    /// The check results: `checks`, else `condition_results` (see
    /// [`super::checks::check_results`]).
    pub fn check_results(&self) -> (super::checks::ChecksSource, Vec<super::checks::CheckItem>) {
        super::checks::check_results(self.checks.as_deref(), self.condition_results)
    }

    /// The configuration, parsed now.
    pub fn configuration(&self) -> serde_json::Result<Option<Configuration<'a>>> {
        self.configuration.map(|r| serde_json::from_str(r.get())).transpose()
    }
}

/// One entry of the plan's `variables` map.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct PlanVariable<'a> {
    #[serde(borrow)]
    pub value: Option<&'a RawValue>,
}

/// One element of `resource_changes` or `resource_drift`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ResourceChange<'a> {
    pub address: String,
    pub previous_address: Option<String>,
    pub module_address: Option<String>,
    pub mode: Mode,
    #[serde(rename = "type")]
    pub type_: String,
    pub name: String,
    /// Instance key: a number (count) or a string (for_each).
    pub index: Option<serde_json::Value>,
    pub provider_name: Option<String>,
    pub deposed: Option<String>,
    #[serde(borrow)]
    pub change: Change<'a>,
    pub action_reason: Option<ActionReason>,
}

impl ResourceChange<'_> {
    pub fn kind(&self) -> ChangeKind {
        self.change.kind()
    }

    /// True when the change moves the object from another address.
    pub fn is_move(&self) -> bool {
        matches!(&self.previous_address, Some(p) if *p != self.address)
    }
}

/// The change representation.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Change<'a> {
    pub actions: Vec<Action>,
    #[serde(borrow)]
    pub before: Option<&'a RawValue>,
    #[serde(borrow)]
    pub after: Option<&'a RawValue>,
    #[serde(borrow)]
    pub after_unknown: Option<&'a RawValue>,
    #[serde(borrow)]
    pub before_sensitive: Option<&'a RawValue>,
    #[serde(borrow)]
    pub after_sensitive: Option<&'a RawValue>,
    pub replace_paths: Vec<Vec<PathStep>>,
    pub importing: Option<Importing<'a>>,
    pub generated_config: Option<String>,
    #[serde(borrow)]
    pub before_identity: Option<&'a RawValue>,
    #[serde(borrow)]
    pub after_identity: Option<&'a RawValue>,
}

impl Change<'_> {
    pub fn kind(&self) -> ChangeKind {
        ChangeKind::from_actions(&self.actions)
    }
}

/// `importing` on a change that imports an object.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Importing<'a> {
    pub id: Option<String>,
    #[serde(borrow)]
    pub identity: Option<&'a RawValue>,
    pub unknown: Option<bool>,
}

/// One step of an attribute path: a key or an index.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum PathStep {
    Index(u64),
    Key(String),
    /// Anything else (negative or fractional numbers, nested structures), kept.
    Other(serde_json::Value),
}

impl<'de> Deserialize<'de> for PathStep {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match serde_json::Value::deserialize(d)? {
            serde_json::Value::String(s) => PathStep::Key(s),
            serde_json::Value::Number(n) if n.as_u64().is_some() => PathStep::Index(n.as_u64().unwrap_or_default()),
            other => PathStep::Other(other),
        })
    }
}

impl fmt::Display for PathStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathStep::Index(i) => write!(f, "[{i}]"),
            PathStep::Key(k) => write!(f, "[{}]", serde_json::to_string(k).unwrap_or_default()),
            PathStep::Other(v) => write!(f, "[{v}]"),
        }
    }
}

/// One element of `relevant_attributes`.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
pub struct RelevantAttribute {
    pub resource: String,
    /// A path; the format document's example writes a bare string (`"attr"`),
    /// read as a one-step path. Anything else reads as the empty path.
    #[serde(deserialize_with = "lenient_path")]
    pub attribute: Vec<PathStep>,
}

fn lenient_path<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<PathStep>, D::Error> {
    Ok(match serde_json::Value::deserialize(d)? {
        serde_json::Value::Array(a) => {
            a.into_iter().map(|v| serde_json::from_value(v).map_err(serde::de::Error::custom)).collect::<Result<_, _>>()?
        }
        serde_json::Value::String(s) => vec![PathStep::Key(s)],
        _ => Vec::new(),
    })
}

/// `output_changes` values are change objects (REALITY); the document's example
/// wraps them in `{"change": ...}`. Accept both.
pub(crate) fn output_changes<'de: 'a, 'a, D>(d: D) -> Result<BTreeMap<String, Change<'a>>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    // Untagged enums buffer their input and cannot borrow RawValue, so decide
    // on the raw text instead.
    let raw: BTreeMap<String, &'a RawValue> = Deserialize::deserialize(d)?;
    let mut out = BTreeMap::new();
    for (name, value) in raw {
        #[derive(Deserialize)]
        struct Probe<'b> {
            #[serde(borrow, default)]
            actions: Option<&'b RawValue>,
            #[serde(borrow, default)]
            change: Option<&'b RawValue>,
        }
        let probe: Probe<'a> = serde_json::from_str(value.get()).map_err(serde::de::Error::custom)?;
        let text = match (probe.actions, probe.change) {
            (None, Some(inner)) => inner.get(),
            _ => value.get(),
        };
        let change: Change<'a> = serde_json::from_str(text).map_err(serde::de::Error::custom)?;
        out.insert(name, change);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_changes_direct_and_wrapped_forms() {
        let json = r#"{"format_version":"1.2","output_changes":{
            "a":{"actions":["create"],"after":"x"},
            "b":{"change":{"actions":["update"],"before":1,"after":2}}}}"#;
        let p: Plan = serde_json::from_str(json).unwrap();
        assert_eq!(p.output_changes["a"].actions, vec![Action::Create]);
        assert_eq!(p.output_changes["b"].actions, vec![Action::Update]);
        assert_eq!(p.output_changes["b"].after.unwrap().get(), "2");
    }

    #[test]
    fn unknown_fields_ignored_and_absent_fields_defaulted() {
        let json = r#"{"format_version":"1.2","brand_new_key":{"x":[1,2]},
            "resource_changes":[{"address":"a.b","mode":"quantum","type":"a","name":"b",
              "change":{"actions":["create","teleport"],"shiny":true},"action_reason":"because_why_not"}]}"#;
        let p: Plan = serde_json::from_str(json).unwrap();
        let rc = &p.resource_changes[0];
        assert_eq!(rc.mode, Mode::Other("quantum".into()));
        assert_eq!(rc.kind().key(), "create+teleport");
        assert_eq!(rc.action_reason.as_ref().unwrap().words(), "because_why_not");
        assert!(!p.errored);
        assert!(p.checks.is_none());
    }

    #[test]
    fn before_and_after_stay_raw_slices_of_the_input() {
        let json = r#"{"resource_changes":[{"address":"x","change":{"actions":["update"],"before":{"a" : 1},"after":{"a":2}}}]}"#;
        let p: Plan = serde_json::from_str(json).unwrap();
        assert_eq!(p.resource_changes[0].change.before.unwrap().get(), r#"{"a" : 1}"#);
    }

    #[test]
    fn relevant_attribute_paths_as_arrays_or_the_documents_bare_string() {
        let json = r#"{"format_version":"1.2","relevant_attributes":[
            {"resource":"a.b","attribute":["tags",0,"x"]},{"resource":"a.c","attribute":"attr"},{"resource":"a.d","attribute":null}]}"#;
        let p: Plan = serde_json::from_str(json).unwrap();
        let paths: Vec<&Vec<PathStep>> = p.relevant_attributes.iter().map(|r| &r.attribute).collect();
        assert_eq!(paths[0], &vec![PathStep::Key("tags".into()), PathStep::Index(0), PathStep::Key("x".into())]);
        assert_eq!(paths[1], &vec![PathStep::Key("attr".into())]);
        assert!(paths[2].is_empty());
    }

    #[test]
    fn path_steps_render_as_traversals() {
        let steps: Vec<PathStep> = serde_json::from_str(r#"["tags", 0, "a\"b"]"#).unwrap();
        let s: String = steps.iter().map(|s| s.to_string()).collect();
        assert_eq!(s, r#"["tags"][0]["a\"b"]"#);
    }
}
