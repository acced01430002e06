//! The plan representation, resource changes and the change representation.

use super::action::{Action, ActionReason, ChangeKind, Mode};
use super::checks::CheckObject;
use super::config::Configuration;
use super::values::{State, Values};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::collections::BTreeMap;

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
    /// The document has a `resource_changes` key (even `null`, as in a streamed
    /// skeleton). Terraform leaves it out of refresh-only plans.
    pub resource_changes_key: bool,
    pub relevant_attributes: Vec<RelevantAttribute>,
    pub output_changes: BTreeMap<String, Change<'a>>,
    pub prior_state: Option<&'a RawValue>,
    pub configuration: Option<&'a RawValue>,
    /// `None` when the document has no `checks` key (older plans).
    pub checks: Option<Vec<CheckObject>>,
    /// Terraform 1.2-1.4's predecessor of `checks`, kept raw.
    pub condition_results: Option<&'a RawValue>,
    /// Changes Terraform deferred to a later plan (kept raw; read with
    /// [`Plan::deferred_changes`]).
    pub deferred_changes: Option<&'a RawValue>,
    /// Terraform 1.14+ actions to invoke (kept raw; read with [`Plan::action_invocations`]).
    pub action_invocations: Option<&'a RawValue>,
    /// Terraform 1.14+ action invocations deferred to a later plan.
    pub deferred_action_invocations: Option<&'a RawValue>,
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

    /// Mark the output changes of outputs that `planned_values` says are
    /// sensitive as sensitive on both sides. Format 0.1 plans (Terraform
    /// 0.12-0.14) carry no markers on output changes: this is their only mark,
    /// and without it a sensitive output's value would be shown.
    pub fn mark_sensitive_outputs(&mut self) {
        #[derive(Deserialize)]
        struct Planned {
            #[serde(default)]
            outputs: BTreeMap<String, Marked>,
        }
        #[derive(Deserialize)]
        struct Marked {
            #[serde(default)]
            sensitive: bool,
        }
        let Some(raw) = self.planned_values.filter(|_| !self.output_changes.is_empty()) else { return };
        let Ok(planned) = serde_json::from_str::<Planned>(raw.get()) else { return };
        let Ok(whole) = serde_json::from_str::<&'static RawValue>("true") else { return };
        for (name, _) in planned.outputs.iter().filter(|(_, o)| o.sensitive) {
            if let Some(ch) = self.output_changes.get_mut(name) {
                ch.before_sensitive = Some(whole);
                ch.after_sensitive = Some(whole);
            }
        }
    }

    /// The check results: `checks`, else `condition_results` (see
    /// [`super::checks::check_results`]).
    pub fn check_results(&self) -> (super::checks::ChecksSource, Vec<super::checks::CheckItem>) {
        super::checks::check_results(self.checks.as_deref(), self.condition_results)
    }

    /// `deferred_changes`, parsed now. Elements that cannot be read are
    /// returned apart, never dropped (a gate must judge what it cannot read).
    pub fn deferred_changes(&self) -> (Vec<DeferredChange<'a>>, Vec<Unreadable>) {
        let mut ok = Vec::new();
        let mut bad = Vec::new();
        for (at, elem) in elements("deferred_changes", self.deferred_changes, &mut bad) {
            match serde_json::from_str::<DeferredChange<'a>>(elem.get()) {
                Ok(d) if !d.resource_change.address.is_empty() => ok.push(d),
                Ok(_) => bad.push(Unreadable { at, why: "no `resource_change` with an `address`".into() }),
                Err(e) => bad.push(Unreadable { at, why: e.to_string() }),
            }
        }
        (ok, bad)
    }

    /// `action_invocations` then `deferred_action_invocations` (each with its
    /// `reason`), parsed now; unreadable elements returned apart.
    pub fn action_invocations(&self) -> (Vec<ActionInvocation<'a>>, Vec<Unreadable>) {
        let mut ok = Vec::new();
        let mut bad = Vec::new();
        for (at, elem) in elements("action_invocations", self.action_invocations, &mut bad) {
            match serde_json::from_str::<ActionInvocation<'a>>(elem.get()) {
                Ok(a) if !a.address.is_empty() => ok.push(a),
                Ok(_) => bad.push(Unreadable { at, why: "no `address`".into() }),
                Err(e) => bad.push(Unreadable { at, why: e.to_string() }),
            }
        }
        for (at, elem) in elements("deferred_action_invocations", self.deferred_action_invocations, &mut bad) {
            #[derive(Deserialize)]
            struct Deferred<'b> {
                #[serde(default)]
                reason: Option<String>,
                #[serde(borrow)]
                action_invocation: Option<ActionInvocation<'b>>,
            }
            match serde_json::from_str::<Deferred<'a>>(elem.get()) {
                Ok(Deferred { reason, action_invocation: Some(mut a) }) if !a.address.is_empty() => {
                    a.deferred_reason = Some(reason.unwrap_or_default());
                    ok.push(a);
                }
                Ok(_) => bad.push(Unreadable { at, why: "no `action_invocation` with an `address`".into() }),
                Err(e) => bad.push(Unreadable { at, why: e.to_string() }),
            }
        }
        (ok, bad)
    }

    /// The configuration, parsed now.
    pub fn configuration(&self) -> serde_json::Result<Option<Configuration<'a>>> {
        self.configuration.map(|r| serde_json::from_str(r.get())).transpose()
    }
}

/// The elements of a top-level array kept raw, each with where it is
/// (`deferred_changes[3]`). `null` or absent: none; anything but an array: one
/// [`Unreadable`].
fn elements<'a>(key: &str, raw: Option<&'a RawValue>, bad: &mut Vec<Unreadable>) -> Vec<(String, &'a RawValue)> {
    let Some(raw) = raw.filter(|r| r.get().trim() != "null") else { return Vec::new() };
    match serde_json::from_str::<Vec<&'a RawValue>>(raw.get()) {
        Ok(v) => v.into_iter().enumerate().map(|(i, e)| (format!("{key}[{i}]"), e)).collect(),
        Err(_) => {
            bad.push(Unreadable { at: key.to_string(), why: "not a list".into() });
            Vec::new()
        }
    }
}

/// A part of the plan planview could not read: where, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreadable {
    /// `deferred_changes[2]`, `action_invocations`, ...
    pub at: String,
    pub why: String,
}

/// One element of `deferred_changes`: a change Terraform could not plan yet.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct DeferredChange<'a> {
    /// Why it was deferred (`resource_config_unknown`, `provider_config_unknown`,
    /// `instance_count_unknown`, `absent_prereq`, `deferred_prereq`, or a new one).
    pub reason: String,
    #[serde(borrow)]
    pub resource_change: ResourceChange<'a>,
}

/// One element of `action_invocations` (Terraform 1.14+): an action the apply
/// would invoke.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
pub struct ActionInvocation<'a> {
    pub address: String,
    #[serde(rename = "type")]
    pub type_: String,
    pub name: String,
    pub provider_name: Option<String>,
    #[serde(borrow)]
    pub config_values: Option<&'a RawValue>,
    #[serde(borrow)]
    pub config_sensitive: Option<&'a RawValue>,
    /// Set when a resource's lifecycle `action_trigger` invokes it.
    pub lifecycle_action_trigger: Option<LifecycleActionTrigger>,
    /// Set (to an object) when invoked by `terraform apply -invoke`.
    #[serde(borrow)]
    pub invoke_action_trigger: Option<&'a RawValue>,
    /// From `deferred_action_invocations`: why it was deferred.
    #[serde(skip)]
    pub deferred_reason: Option<String>,
}

impl ActionInvocation<'_> {
    /// What invokes it, in words: `after_create of aws_instance.web`, `-invoke`.
    pub fn trigger_words(&self) -> Option<String> {
        if let Some(t) = &self.lifecycle_action_trigger {
            let event = t.action_trigger_event.as_deref().unwrap_or("lifecycle event");
            return Some(match &t.triggering_resource_address {
                Some(a) => format!("{event} of {a}"),
                None => event.to_string(),
            });
        }
        self.invoke_action_trigger.map(|_| "apply -invoke".to_string())
    }
}

/// `lifecycle_action_trigger` of an action invocation.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
pub struct LifecycleActionTrigger {
    pub triggering_resource_address: Option<String>,
    pub action_trigger_event: Option<String>,
    pub action_trigger_block_index: Option<serde_json::Value>,
    pub actions_list_index: Option<serde_json::Value>,
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

impl Importing<'_> {
    /// The identity (Terraform 1.12+ import by identity), parsed; `None`
    /// without one (or when it is `null`).
    pub fn identity_value(&self) -> Option<serde_json::Value> {
        self.identity.and_then(|r| serde_json::from_str(r.get()).ok()).filter(|v: &serde_json::Value| !v.is_null())
    }

    /// How the import is named in words: `import id i-123`, `import identity
    /// {account_id = "1", name = "x"}`, or `None` (neither is known).
    pub fn words(&self) -> Option<String> {
        match (&self.id, self.identity_value()) {
            (Some(id), _) => Some(format!("import id {id}")),
            (None, Some(v)) => Some(format!("import {}", identity_words(&v))),
            (None, None) => None,
        }
    }
}

/// An import identity in words, as HCL writes it: `identity {account_id =
/// "1", name = "x"}` (values as JSON); anything but an object as compact JSON.
pub fn identity_words(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Object(o) => {
            let parts: Vec<String> = o.iter().map(|(k, v)| format!("{k} = {v}")).collect();
            format!("identity {{{}}}", parts.join(", "))
        }
        other => format!("identity {other}"),
    }
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
}
