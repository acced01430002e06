//! The gate's policy: the rules given by flags and the policy file (`--policy`),
//! merged into one [`Policy`], and how each rule is named and described.

use super::{addresses_of, GateAction};
use crate::glob::Glob;
use crate::model::{OnFailure, ResourceChange, TriggerEvent};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// What drift does to the verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DriftPolicy {
    /// Drift is reported by `summary` but does not fail the gate (the default).
    #[default]
    Allow,
    /// Any `resource_drift` entry fails the gate.
    Deny,
}

/// What a violation does to the verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Fails the gate.
    #[default]
    Error,
    /// Shown, does not fail the gate (unless `--fail-on-warn`).
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// A policy: the command-line flags and the policy file, merged.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    pub deny: Vec<GateAction>,
    pub max: Vec<(GateAction, u64)>,
    pub protect: Vec<Glob>,
    pub allow: Vec<Glob>,
    /// Resource types (globs matched against the whole type).
    pub protect_types: Vec<Glob>,
    pub fail_on_checks: bool,
    pub allow_errored: bool,
    /// `--allow-incomplete`: an incomplete plan (`-target`, deferred changes) may pass.
    pub allow_incomplete: bool,
    /// `None`: not said (allow).
    pub drift: Option<DriftPolicy>,
    /// `--expect-fingerprint sha256:...`: the plan must be the one reviewed.
    pub expect_fingerprint: Option<String>,
    /// `--warn ACTION`: changes that do ACTION are warnings.
    pub warn: Vec<GateAction>,
    /// `--warn-max ACTION=N`: more than N changes that do ACTION is a warning.
    pub warn_max: Vec<(GateAction, u64)>,
    /// `--fail-on-warn`: warnings fail the gate too.
    pub fail_on_warn: bool,
    /// Rego policy files and directories (`--policy X.rego`, the policy file's `"rego"`).
    pub rego_paths: Vec<std::path::PathBuf>,
    /// How they are read and run.
    pub rego_options: crate::rego::RegoOptions,
    /// The Rego policies, once loaded ([`Policy::load_rego`]).
    pub rego: Option<std::sync::Arc<crate::rego::RegoPolicy>>,
    /// `--deny-on-failure MODE[@EVENT]`: no action may be invoked by a
    /// lifecycle trigger with this `on_failure` (on these events).
    pub deny_on_failure: Vec<OnFailureRule>,
    /// `--ignore-attr PATH`: an update that only changes these attributes is
    /// noise ([`crate::query::noise`]), never judged as an update.
    pub ignore_attributes: Vec<String>,
    /// The policy file's `max_blast`: a destructive change may drag along at
    /// most N other changes ([`crate::query::dependents`]).
    pub max_blast: Option<u64>,
    /// Work out each destructive change's dependents even without `max_blast`
    /// (the PR comment shows them).
    pub dependents: bool,
    /// The locals of the configuration's source, when the run read it: the
    /// dependents through a local are then exact, else guessed.
    pub locals: Option<std::sync::Arc<crate::query::dependents::Locals>>,
}

/// A `--deny-on-failure` rule: an `on_failure` mode, on any lifecycle event
/// or only on some (`continue@destroy`: `BeforeDestroy` and `AfterDestroy`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct OnFailureRule {
    pub mode: OnFailure,
    /// `None`: every event; else a verb (`create`, `update`, `destroy`) or
    /// an event's name (`BeforeDestroy`).
    pub events: Option<String>,
}

impl OnFailureRule {
    /// `continue`, `continue@destroy`, `ActionOnFailureContinue@BeforeDestroy`.
    pub fn parse(s: &str) -> Result<OnFailureRule, String> {
        let (mode, events) = match s.split_once('@') {
            Some((m, e)) => (m, Some(e)),
            None => (s, None),
        };
        let mode = OnFailure::parse(mode).ok_or_else(|| {
            format!("unknown on_failure `{mode}` (halt, taint, continue, or ActionOnFailureHalt, ActionOnFailureTaint, ActionOnFailureContinue)")
        })?;
        let events = match events {
            None => None,
            Some(e @ ("create" | "update" | "destroy")) => Some(e.to_string()),
            Some(e) => match TriggerEvent::parse(e) {
                TriggerEvent::Other(_) => {
                    return Err(format!(
                        "unknown event `{e}` (create, update, destroy, or BeforeCreate, AfterCreate, BeforeUpdate, AfterUpdate, BeforeDestroy, AfterDestroy)"
                    ))
                }
                _ => Some(e.to_string()),
            },
        };
        Ok(OnFailureRule { mode, events })
    }

    /// The rule as written in reports: `continue@destroy`.
    pub fn spec(&self) -> String {
        match &self.events {
            Some(e) => format!("{}@{e}", self.mode.keyword()),
            None => self.mode.keyword().to_string(),
        }
    }

    /// Whether the rule covers `event`: `Some(true)`/`Some(false)`, or `None`
    /// when planview cannot tell (an event it does not know, the rule naming some).
    pub(super) fn covers(&self, event: &TriggerEvent) -> Option<bool> {
        match (&self.events, event) {
            (None, _) => Some(true),
            (Some(_), TriggerEvent::Other(_)) => None,
            (Some(e), ev) if matches!(e.as_str(), "create" | "update" | "destroy") => Some(ev.verb() == Some(e.as_str())),
            (Some(e), ev) => Some(TriggerEvent::parse(e) == *ev),
        }
    }
}

impl TryFrom<String> for OnFailureRule {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        OnFailureRule::parse(&s)
    }
}

/// The policy file (`--policy FILE`): the same rules as the flags, in JSON.
/// Unknown keys and values are errors: a typo must not loosen a policy.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyFile {
    #[serde(rename = "$schema", default)]
    pub schema: Option<String>,
    #[serde(default)]
    pub deny: Vec<GateAction>,
    #[serde(default)]
    pub max: BTreeMap<GateAction, u64>,
    #[serde(default)]
    pub protect: Vec<String>,
    #[serde(default)]
    pub allow: Vec<String>,
    #[serde(default)]
    pub protect_types: Vec<String>,
    #[serde(default)]
    pub fail_on_checks: bool,
    #[serde(default)]
    pub allow_errored: bool,
    #[serde(default)]
    pub allow_incomplete: bool,
    #[serde(default)]
    pub drift: Option<DriftPolicy>,
    /// Actions that are warnings, not errors (like `--warn`).
    #[serde(default)]
    pub warn: Vec<GateAction>,
    /// Caps whose excess is a warning (like `--warn-max`).
    #[serde(default)]
    pub warn_max: BTreeMap<GateAction, u64>,
    /// Rego policy files and directories, relative to the policy file.
    #[serde(default)]
    pub rego: Vec<String>,
    /// Like `--deny-on-failure` (`continue`, `continue@destroy`, ...).
    #[serde(default)]
    pub deny_on_failure: Vec<OnFailureRule>,
    /// Like `--ignore-attr` (`tags`, `tags_all`, `metadata.annotations.*`).
    #[serde(default)]
    pub ignore_attributes: Vec<String>,
    /// A destructive change may drag along at most N other changes.
    #[serde(default)]
    pub max_blast: Option<u64>,
}

impl PolicyFile {
    /// Parse a policy file's text; the error says what is wrong and where.
    /// A policy is an object (an array would read as an empty policy), and no
    /// key appears twice in one object (`{"max":{"delete":0,"delete":100}}`
    /// would take the last): both are errors, located.
    pub fn parse(text: &str) -> Result<PolicyFile, (String, Option<(usize, usize)>)> {
        let start = text.bytes().position(|b| !crate::scan::is_json_ws(b));
        if let Some(at) = start.filter(|&at| text.as_bytes()[at] != b'{') {
            let (l, c) = crate::error::line_col(text.as_bytes(), at);
            let found = match text.as_bytes()[at] {
                b'[' => "an array",
                b'"' => "a string",
                b'n' => "null",
                b't' | b'f' => "a boolean",
                _ => "something else",
            };
            return Err((format!("invalid policy: a policy must be a JSON object (`{{...}}`), found {found}"), Some((l, c))));
        }
        serde_json::from_str::<NoDuplicateKeys>(text).and_then(|_| serde_json::from_str(text)).map_err(|e| {
            let msg = e.to_string();
            let msg = match msg.rfind(" at line ") {
                Some(i) => msg[..i].to_string(),
                None => msg,
            };
            let at = (e.line() > 0).then(|| (e.line(), e.column()));
            // The message quotes the file (an unknown key, a bad value): one line,
            // so a newline in it cannot fake an error or hint line of its own.
            (format!("invalid policy: {}", crate::sanitize::line(&msg)), at)
        })
    }
}

/// Any JSON value, refused when an object in it repeats a key (serde_json
/// locates the error just after the repeated key).
struct NoDuplicateKeys;

impl<'de> Deserialize<'de> for NoDuplicateKeys {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NoDuplicateKeys)
    }
}

impl<'de> serde::de::Visitor<'de> for NoDuplicateKeys {
    type Value = NoDuplicateKeys;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_unit<E>(self) -> Result<Self, E> {
        Ok(self)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self, A::Error> {
        while seq.next_element::<NoDuplicateKeys>()?.is_some() {}
        Ok(self)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self, A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if seen.contains(&key) {
                return Err(serde::de::Error::custom(format_args!("duplicate key `{key}`")));
            }
            map.next_value::<NoDuplicateKeys>()?;
            seen.insert(key);
        }
        Ok(self)
    }
}

impl Policy {
    /// Add a policy file's rules to these (the flags): lists and caps add up,
    /// booleans that tighten or loosen are OR-ed, and a drift flag given on the
    /// command line wins over the file's `drift`.
    pub fn merge_file(&mut self, f: &PolicyFile) {
        self.deny.extend(f.deny.iter().copied());
        self.warn.extend(f.warn.iter().copied());
        self.warn_max.extend(f.warn_max.iter().map(|(a, n)| (*a, *n)));
        self.max.extend(f.max.iter().map(|(a, n)| (*a, *n)));
        self.protect.extend(f.protect.iter().map(|g| Glob::new(g)));
        self.allow.extend(f.allow.iter().map(|g| Glob::new(g)));
        self.protect_types.extend(f.protect_types.iter().map(|g| Glob::new(g)));
        self.fail_on_checks |= f.fail_on_checks;
        self.allow_errored |= f.allow_errored;
        self.allow_incomplete |= f.allow_incomplete;
        if self.drift.is_none() {
            self.drift = f.drift;
        }
        self.deny_on_failure.extend(f.deny_on_failure.iter().cloned());
        self.ignore_attributes.extend(f.ignore_attributes.iter().cloned());
        // Two files: the tighter cap holds.
        if let Some(n) = f.max_blast {
            self.max_blast = Some(self.max_blast.map_or(n, |m| m.min(n)));
        }
    }

    /// Load the Rego policies named so far (once, before any plan is read):
    /// a policy that does not parse is an input error, never a pass.
    pub fn load_rego(&mut self) -> Result<(), crate::error::InputError> {
        if !self.rego_paths.is_empty() {
            let p = crate::rego::RegoPolicy::load(&self.rego_paths, &self.rego_options)?;
            self.rego = Some(std::sync::Arc::new(p));
        }
        Ok(())
    }

    /// The default rule (deny destruction) is in force unless the policy says
    /// something about `delete` itself (`--deny delete`, `--max delete=N`) or
    /// denies `any`, or expects a fingerprint: then the question is "is this the
    /// reviewed plan?", and a reviewed plan that deletes passes (rules given
    /// explicitly still apply).
    pub fn default_in_force(&self) -> bool {
        self.expect_fingerprint.is_none()
            && !self.deny.iter().any(|a| matches!(a, GateAction::Delete | GateAction::Any))
            && !self.max.iter().any(|(a, _)| *a == GateAction::Delete)
    }

    /// The rules this policy applies to every plan, in report order.
    pub fn rules(&self) -> Vec<Rule> {
        let mut rules = Vec::new();
        let mut push = |r: Rule| {
            if !rules.contains(&r) {
                rules.push(r);
            }
        };
        if self.default_in_force() {
            push(Rule::Deny { action: GateAction::Delete, default: true });
        }
        for a in &self.deny {
            push(Rule::Deny { action: *a, default: false });
        }
        for (a, n) in &self.max {
            push(Rule::Max { action: *a, limit: *n });
        }
        for a in &self.warn {
            push(Rule::Warn { action: *a });
        }
        for (a, n) in &self.warn_max {
            push(Rule::WarnMax { action: *a, limit: *n });
        }
        for g in &self.protect {
            push(Rule::Protect(g.as_str().to_string()));
        }
        for g in &self.protect_types {
            push(Rule::ProtectType(g.as_str().to_string()));
        }
        if self.fail_on_checks {
            push(Rule::Checks);
        }
        if !self.allow_errored {
            push(Rule::NotErrored);
        }
        if !self.allow_incomplete {
            push(Rule::Complete);
        }
        if self.drift == Some(DriftPolicy::Deny) {
            push(Rule::NoDrift);
        }
        for r in &self.deny_on_failure {
            push(Rule::DenyOnFailure(r.clone()));
        }
        if let Some(n) = self.max_blast {
            push(Rule::MaxBlast(n));
        }
        if let Some(f) = &self.expect_fingerprint {
            push(Rule::Fingerprint(f.clone()));
        }
        push(Rule::RecognisedActions);
        rules
    }

    /// True when `--allow` lets the change do `action`: allowed addresses may be
    /// destroyed or replaced, so they are exempt from the rules on `delete` and
    /// `replace` (the default rule included), and from no other rule. A moved
    /// object is allowed only when both its address and its previous address
    /// are: a `moved` block must not carry an object out of protection.
    pub(super) fn allowed(&self, action: GateAction, rc: &ResourceChange<'_>) -> bool {
        matches!(action, GateAction::Delete | GateAction::Replace) && addresses_of(rc).all(|a| self.allow.iter().any(|g| g.matches(a)))
    }

    /// The policy as plain data (for the JSON report).
    pub fn describe(&self) -> PolicyReport {
        let mut rules: Vec<String> = self.rules().iter().map(Rule::id).collect();
        if let Some(r) = &self.rego {
            rules.extend(r.rules.iter().map(|r| r.id()));
        }
        PolicyReport { rules, allow: self.allow.iter().map(|g| g.as_str().to_string()).collect(), default_rule: self.default_in_force() }
    }
}

/// One rule of a policy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rule {
    /// `--deny ACTION` (and the default `deny delete`).
    Deny { action: GateAction, default: bool },
    /// `--max ACTION=N`.
    Max { action: GateAction, limit: u64 },
    /// `--warn ACTION`: a warning for each change that does ACTION.
    Warn { action: GateAction },
    /// `--warn-max ACTION=N`: a warning when more than N changes do ACTION.
    WarnMax { action: GateAction, limit: u64 },
    /// `--protect GLOB`: these addresses may not be destroyed or replaced.
    Protect(String),
    /// `--protect-type TYPE`: resources of these types may not be destroyed or replaced.
    ProtectType(String),
    /// `--fail-on-checks`: failed or errored checks fail the gate.
    Checks,
    /// An errored plan fails the gate (unless `--allow-errored`).
    NotErrored,
    /// An incomplete plan (`-target`, deferred changes) fails the gate (unless `--allow-incomplete`).
    Complete,
    /// `--deny-drift`: drift fails the gate.
    NoDrift,
    /// Always on: an action list planview does not recognise fails the gate.
    RecognisedActions,
    /// `--expect-fingerprint`: the plan must do what the reviewed plan did.
    Fingerprint(String),
    /// `--deny-on-failure MODE[@EVENT]`: no lifecycle-triggered action
    /// invocation with this `on_failure` (on these events).
    DenyOnFailure(OnFailureRule),
    /// The policy file's `max_blast`: no destructive change drags along more
    /// than N other changes.
    MaxBlast(u64),
}

impl Rule {
    /// The rule as it is named in reports (`deny delete`, `max replace=2`, ...).
    pub fn id(&self) -> String {
        match self {
            Rule::Deny { action, .. } => format!("deny {action}"),
            Rule::Max { action, limit } => format!("max {action}={limit}"),
            Rule::Warn { action } => format!("warn {action}"),
            Rule::WarnMax { action, limit } => format!("warn-max {action}={limit}"),
            Rule::Protect(g) => format!("protect {g}"),
            Rule::ProtectType(t) => format!("protect-type {t}"),
            Rule::Checks => "fail-on-checks".into(),
            Rule::NotErrored => "not-errored".into(),
            Rule::Complete => "complete".into(),
            Rule::NoDrift => "deny-drift".into(),
            Rule::RecognisedActions => "recognised-actions".into(),
            Rule::Fingerprint(_) => "fingerprint".into(),
            Rule::DenyOnFailure(r) => format!("deny-on-failure {}", r.spec()),
            Rule::MaxBlast(n) => format!("max-blast {n}"),
        }
    }

    /// What breaking the rule does: the `warn` rules only warn.
    pub fn severity(&self) -> Severity {
        match self {
            Rule::Warn { .. } | Rule::WarnMax { .. } => Severity::Warning,
            _ => Severity::Error,
        }
    }

    /// True for the rule in force when the policy says nothing about destruction.
    pub fn is_default(&self) -> bool {
        matches!(self, Rule::Deny { default: true, .. })
    }

    /// What the rule means, in words.
    pub fn description(&self) -> String {
        match self {
            Rule::Deny { action: GateAction::Delete, default: true } => {
                "no managed resource may be destroyed (default rule; replaces and deposed objects count)".into()
            }
            Rule::Deny { action, .. } => format!("no change may {}", action.verb()),
            Rule::Max { action, limit } => format!("at most {limit} change(s) may {}", action.verb()),
            Rule::Warn { action } => format!("a change that would {} is a warning", action.verb()),
            Rule::WarnMax { action, limit } => format!("more than {limit} change(s) that {} is a warning", action.verb()),
            Rule::Protect(g) => format!("addresses matching {g} may not be destroyed or replaced"),
            Rule::ProtectType(t) => format!("resources of type {t} may not be destroyed or replaced"),
            Rule::Checks => "every check must pass (or be unknown until apply)".into(),
            Rule::NotErrored => "the plan must not have errored".into(),
            Rule::Complete => "the plan must be complete (not made with -target, nothing deferred to a later plan)".into(),
            Rule::NoDrift => "no resource may have drifted".into(),
            Rule::RecognisedActions => "every change must be readable, its action list one planview recognises".into(),
            Rule::Fingerprint(f) => format!("the plan must do what the reviewed plan did (fingerprint {f})"),
            Rule::DenyOnFailure(r) => {
                let on = match &r.events {
                    Some(e) => format!(" on a {e} trigger"),
                    None => String::new(),
                };
                format!("no action may be invoked with on_failure = {}{on} ({})", r.mode.keyword(), r.mode.plan_name())
            }
            Rule::MaxBlast(n) => format!("no destroyed or replaced resource may drag along more than {n} other change(s)"),
        }
    }
}

/// The policy in a report.
#[derive(Debug, Clone, Serialize)]
pub struct PolicyReport {
    /// Rule ids in force, in report order.
    pub rules: Vec<String>,
    /// `--allow` globs.
    pub allow: Vec<String>,
    /// True when the default rule (`deny delete`) is in force.
    pub default_rule: bool,
}
