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
/// would invoke. The shape is Terraform's `jsonplan.ActionInvocation`
/// (internal/command/jsonplan/action_invocations.go, hashicorp/terraform
/// 883c7221ee2e0bc2fad6912fd4b3cc4b53a598a7).
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
pub struct ActionInvocation<'a> {
    pub address: String,
    #[serde(rename = "type")]
    pub type_: String,
    pub name: String,
    pub provider_name: Option<String>,
    /// The action's configuration, unknown values left out.
    #[serde(borrow)]
    pub config_values: Option<&'a RawValue>,
    /// Which parts of `config_values` are sensitive (`true` leaves).
    #[serde(borrow)]
    pub config_sensitive: Option<&'a RawValue>,
    /// Which parts of the configuration are unknown until apply (`true` leaves).
    #[serde(borrow)]
    pub config_unknown: Option<&'a RawValue>,
    /// Set when a resource's lifecycle `action_trigger` invokes it.
    pub lifecycle_action_trigger: Option<LifecycleActionTrigger>,
    /// Set (to an object) when invoked by `terraform apply -invoke`.
    pub invoke_action_trigger: Option<InvokeActionTrigger>,
    /// From `deferred_action_invocations`: why it was deferred.
    #[serde(skip)]
    pub deferred_reason: Option<String>,
}

impl ActionInvocation<'_> {
    /// What invokes it, in words: `AfterCreate of aws_instance.web`,
    /// `apply -invoke`, `apply -invoke (called from aws_instance.web)`. The
    /// event is written as the plan names it (a Go stringer name; one
    /// planview does not know is kept verbatim).
    pub fn trigger_words(&self) -> Option<String> {
        if let Some(t) = &self.lifecycle_action_trigger {
            let event = t.action_trigger_event.as_deref().unwrap_or("lifecycle event");
            return Some(match &t.triggering_resource_address {
                Some(a) => format!("{event} of {a}"),
                None => event.to_string(),
            });
        }
        self.invoke_action_trigger.as_ref().map(|t| match &t.calling_resource_address {
            Some(a) if !a.is_empty() => format!("apply -invoke (called from {a})"),
            _ => "apply -invoke".to_string(),
        })
    }

    /// The trigger's event, when a lifecycle trigger invokes it.
    pub fn event(&self) -> Option<TriggerEvent> {
        self.lifecycle_action_trigger.as_ref().and_then(|t| t.action_trigger_event.as_deref()).map(TriggerEvent::parse)
    }

    /// `on_failure` of a lifecycle trigger, as written.
    pub fn on_failure(&self) -> Option<&str> {
        self.lifecycle_action_trigger.as_ref().and_then(|t| t.on_failure.as_deref())
    }
}

/// `lifecycle_action_trigger` of an action invocation.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
pub struct LifecycleActionTrigger {
    pub triggering_resource_address: Option<String>,
    /// `BeforeCreate`, `AfterCreate`, `BeforeUpdate`, `AfterUpdate`,
    /// `BeforeDestroy`, `AfterDestroy` (`configs.ActionTriggerEvent`'s
    /// stringer names), or one planview does not know (kept verbatim).
    pub action_trigger_event: Option<String>,
    pub action_trigger_block_index: Option<serde_json::Value>,
    pub actions_list_index: Option<serde_json::Value>,
    /// Terraform 1.16+: `ActionOnFailureHalt`, `ActionOnFailureTaint`,
    /// `ActionOnFailureContinue` (`configs.ActionOnFailure`'s stringer names).
    pub on_failure: Option<String>,
}

/// `invoke_action_trigger` of an action invocation (`apply -invoke`).
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
pub struct InvokeActionTrigger {
    /// Terraform 1.16+: the resource instance the invocation was called from.
    pub calling_resource_address: Option<String>,
}

/// A lifecycle trigger's event (`configs.ActionTriggerEvent`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TriggerEvent {
    BeforeCreate,
    AfterCreate,
    BeforeUpdate,
    AfterUpdate,
    BeforeDestroy,
    AfterDestroy,
    /// A name planview does not know, kept verbatim.
    Other(String),
}

impl TriggerEvent {
    pub fn parse(s: &str) -> TriggerEvent {
        match s {
            "BeforeCreate" => TriggerEvent::BeforeCreate,
            "AfterCreate" => TriggerEvent::AfterCreate,
            "BeforeUpdate" => TriggerEvent::BeforeUpdate,
            "AfterUpdate" => TriggerEvent::AfterUpdate,
            "BeforeDestroy" => TriggerEvent::BeforeDestroy,
            "AfterDestroy" => TriggerEvent::AfterDestroy,
            other => TriggerEvent::Other(other.to_string()),
        }
    }

    /// True for the events that run before the change (`configs.BeforeEvents`).
    pub fn is_before(&self) -> bool {
        matches!(self, TriggerEvent::BeforeCreate | TriggerEvent::BeforeUpdate | TriggerEvent::BeforeDestroy)
    }

    /// True for the events that run after the change (`configs.AfterEvents`).
    pub fn is_after(&self) -> bool {
        matches!(self, TriggerEvent::AfterCreate | TriggerEvent::AfterUpdate | TriggerEvent::AfterDestroy)
    }

    /// True for the destroy events (`configs.DestroyEvents`).
    pub fn is_destroy(&self) -> bool {
        matches!(self, TriggerEvent::BeforeDestroy | TriggerEvent::AfterDestroy)
    }

    /// The configuration keyword's verb: `create`, `update`, `destroy`.
    pub fn verb(&self) -> Option<&'static str> {
        match self {
            TriggerEvent::BeforeCreate | TriggerEvent::AfterCreate => Some("create"),
            TriggerEvent::BeforeUpdate | TriggerEvent::AfterUpdate => Some("update"),
            TriggerEvent::BeforeDestroy | TriggerEvent::AfterDestroy => Some("destroy"),
            TriggerEvent::Other(_) => None,
        }
    }
}

/// An invocation's `on_failure` (`configs.ActionOnFailure`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OnFailure {
    Halt,
    Taint,
    Continue,
}

impl OnFailure {
    /// The plan's stringer name or the configuration's keyword.
    pub fn parse(s: &str) -> Option<OnFailure> {
        match s {
            "ActionOnFailureHalt" | "halt" => Some(OnFailure::Halt),
            "ActionOnFailureTaint" | "taint" => Some(OnFailure::Taint),
            "ActionOnFailureContinue" | "continue" => Some(OnFailure::Continue),
            _ => None,
        }
    }

    /// The configuration's keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            OnFailure::Halt => "halt",
            OnFailure::Taint => "taint",
            OnFailure::Continue => "continue",
        }
    }

    /// The plan's stringer name.
    pub fn plan_name(self) -> &'static str {
        match self {
            OnFailure::Halt => "ActionOnFailureHalt",
            OnFailure::Taint => "ActionOnFailureTaint",
            OnFailure::Continue => "ActionOnFailureContinue",
        }
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
    /// Terraform 1.10+: the instance key is not known yet (a deferred change
    /// of a resource whose `count`/`for_each` is unknown: `addrs.WildcardKey`).
    /// Anything but `true` reads as false.
    #[serde(deserialize_with = "lenient_true")]
    pub index_unknown: bool,
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
pub(crate) fn identity_words(v: &serde_json::Value) -> String {
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

/// `true` when the value is JSON `true`; anything else (absent, `null`, a
/// string) is false and never an error.
pub(crate) fn lenient_true<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(serde_json::Value::deserialize(d)? == serde_json::Value::Bool(true))
}

/// The string when the value is one (an empty one is none); anything else
/// is none and never an error.
pub(crate) fn lenient_string<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(match serde_json::Value::deserialize(d)? {
        serde_json::Value::String(s) if !s.is_empty() => Some(s),
        _ => None,
    })
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
