//! `gate`: judge a plan against a policy (deny actions, cap counts, protect
//! addresses and types, checks, errored plans, drift) and list each violation.
//!
//! Counting reuses the summary's: a change's gate actions come from
//! [`count_totals`] (managed resources only, a replace both creates and
//! destroys, an import counts besides its action) and [`ChangeKind::destroys`].

use crate::glob::Glob;
use crate::model::visit::PlanVisitor;
use crate::model::{ChangeKind, CheckKind, CheckStatus, Mode, OnFailure, Plan, ResourceChange, TriggerEvent};
use crate::query::summary::{count_totals, mode_of, PlanAccumulator, Totals};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// An action class a policy can deny or cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GateAction {
    /// A new object: creates, both replace orders, OpenTofu's forget-then-create.
    Create,
    /// An in-place update.
    Update,
    /// Destruction: deletes, both replace orders, deposed objects.
    Delete,
    /// A replace, either order, and the replacements whose old object is
    /// forgotten (`["create","forget"]`, `["forget","create"]`).
    Replace,
    /// Removed from state, object kept (`removed` with `destroy = false`).
    Forget,
    /// An import.
    Import,
    /// A move (`previous_address` differs from `address`).
    Move,
    /// An action invocation (Terraform 1.14+ `action_invocations`).
    Invoke,
    /// Any of the above.
    Any,
}

impl GateAction {
    /// Every action, in the order `--deny` lists them.
    pub const ALL: [GateAction; 9] = [
        GateAction::Create,
        GateAction::Update,
        GateAction::Delete,
        GateAction::Replace,
        GateAction::Forget,
        GateAction::Import,
        GateAction::Move,
        GateAction::Invoke,
        GateAction::Any,
    ];

    /// The names `--deny` and `--max` accept.
    pub const NAMES: [&'static str; 9] = ["create", "update", "delete", "replace", "forget", "import", "move", "invoke", "any"];

    pub fn as_str(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    pub fn parse(s: &str) -> Option<GateAction> {
        Self::NAMES.iter().position(|n| *n == s).map(|i| Self::ALL[i])
    }

    /// Verb for sentences: "3 changes would destroy".
    fn verb(self) -> &'static str {
        match self {
            GateAction::Create => "create",
            GateAction::Update => "update in place",
            GateAction::Delete => "destroy",
            GateAction::Replace => "replace",
            GateAction::Forget => "forget",
            GateAction::Import => "import",
            GateAction::Move => "move",
            GateAction::Invoke => "invoke an action",
            GateAction::Any => "change",
        }
    }
}

impl fmt::Display for GateAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which gate actions one resource change performs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Classes {
    pub create: bool,
    pub update: bool,
    pub delete: bool,
    pub replace: bool,
    pub forget: bool,
    pub import: bool,
    pub moves: bool,
}

impl Classes {
    /// The classes of a change. Data sources perform none: reading, or
    /// dropping, a data source never creates or destroys anything. Whether
    /// it is one, its address decides ([`mode_of`]).
    pub fn of(rc: &ResourceChange<'_>) -> Classes {
        if mode_of(rc) == Mode::Data {
            return Classes::default();
        }
        let mut t = Totals::default();
        count_totals(&mut t, rc);
        let kind = rc.kind();
        Classes {
            create: t.add > 0,
            update: t.change > 0,
            delete: kind.destroys(),
            // Both CLIs say a forget-replacement "must be replaced"
            // (Terraform's `Action.IsReplace`), though nothing is destroyed.
            replace: matches!(kind, ChangeKind::Replace(_)) || kind.replaces_forgetting(),
            forget: t.forget > 0,
            import: t.import > 0,
            moves: rc.is_move(),
        }
    }

    pub fn has(&self, a: GateAction) -> bool {
        match a {
            GateAction::Create => self.create,
            GateAction::Update => self.update,
            GateAction::Delete => self.delete,
            GateAction::Replace => self.replace,
            GateAction::Forget => self.forget,
            GateAction::Import => self.import,
            GateAction::Move => self.moves,
            // Invocations are not resource changes: counted and judged apart.
            GateAction::Invoke => false,
            GateAction::Any => self.create || self.update || self.delete || self.replace || self.forget || self.import || self.moves,
        }
    }
}

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
    fn covers(&self, event: &TriggerEvent) -> Option<bool> {
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
}

impl PolicyFile {
    /// Parse a policy file's text; the error says what is wrong and where.
    /// A policy is an object (an array would read as an empty policy), and no
    /// key appears twice in one object (`{"max":{"delete":0,"delete":100}}`
    /// would take the last): both are errors, located.
    pub fn parse(text: &str) -> Result<PolicyFile, (String, Option<(usize, usize)>)> {
        let start = text.bytes().position(|b| !crate::scan::is_json_ws(b));
        if let Some(at) = start.filter(|&at| text.as_bytes()[at] != b'{') {
            let (l, c) = crate::read::line_col(text.as_bytes(), at);
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
    fn allowed(&self, action: GateAction, rc: &ResourceChange<'_>) -> bool {
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

/// One broken rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Violation {
    /// The rule's id.
    pub rule: String,
    /// The resource, check or drift address; `null` for plan-wide rules.
    pub address: Option<String>,
    /// What the change does (`delete`, `replace`, `create+teleport`, ...), the
    /// check status, `errored`, or the capped action.
    pub action: String,
    /// Why it breaks the rule, in words.
    pub reason: String,
    /// `error` fails the gate, `warning` does not (unless `--fail-on-warn`).
    pub severity: Severity,
    /// A Rego result's keys besides `msg` (masked).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<serde_json::Value>,
    /// Where the object is declared, when the configuration was read and has it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<crate::locate::Location>,
}

/// One rule's outcome on one plan.
#[derive(Debug, Clone, Serialize)]
pub struct RuleOutcome {
    pub rule: String,
    pub description: String,
    /// True for the default rule.
    pub default: bool,
    /// `error` or `warning`: what a violation of it does.
    pub severity: Severity,
    pub passed: bool,
    pub violations: u64,
}

/// Managed changes counted per gate action (before `--allow`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct ActionCounts {
    pub create: u64,
    pub update: u64,
    pub delete: u64,
    pub replace: u64,
    pub forget: u64,
    pub import: u64,
    #[serde(rename = "move")]
    pub moves: u64,
    /// Action invocations, deferred ones included.
    pub invoke: u64,
    /// Changes that do anything at all, and invocations (`any`).
    pub any: u64,
}

impl ActionCounts {
    fn add(&mut self, c: &Classes) {
        for a in GateAction::ALL {
            if c.has(a) {
                *self.get_mut(a) += 1;
            }
        }
    }

    fn get_mut(&mut self, a: GateAction) -> &mut u64 {
        match a {
            GateAction::Create => &mut self.create,
            GateAction::Update => &mut self.update,
            GateAction::Delete => &mut self.delete,
            GateAction::Replace => &mut self.replace,
            GateAction::Forget => &mut self.forget,
            GateAction::Import => &mut self.import,
            GateAction::Move => &mut self.moves,
            GateAction::Invoke => &mut self.invoke,
            GateAction::Any => &mut self.any,
        }
    }

    pub fn get(&self, a: GateAction) -> u64 {
        let mut c = *self;
        *c.get_mut(a)
    }

    pub fn add_assign(&mut self, o: &ActionCounts) {
        for a in GateAction::ALL {
            *self.get_mut(a) += o.get(a);
        }
    }
}

/// The gate's judgement of one plan.
#[derive(Debug, Clone, Serialize)]
pub struct PlanVerdict {
    /// The input as named on the command line, or `<stdin>`.
    pub file: String,
    /// `pass` or `fail`.
    pub verdict: &'static str,
    pub terraform_version: Option<String>,
    pub errored: bool,
    /// What the CLI prints for the plan, recomputed: its `Plan:` line or the
    /// sentence it prints instead (see [`crate::query::summary::PlanSummary::plan_line`]).
    pub plan_line: String,
    pub counts: ActionCounts,
    pub drift: u64,
    pub rules: Vec<RuleOutcome>,
    /// Errors and warnings, in rule order.
    pub violations: Vec<Violation>,
    /// How many of `violations` are warnings.
    pub warnings: u64,
    /// True when warnings fail this plan (`--fail-on-warn`).
    #[serde(skip)]
    pub warnings_fail: bool,
    /// Check instances that did not pass, whatever the policy (the table of roots).
    #[serde(skip)]
    pub checks_not_passed: u64,
}

impl PlanVerdict {
    pub fn passed(&self) -> bool {
        self.verdict == "pass"
    }

    /// The violations that are errors.
    pub fn errors(&self) -> u64 {
        self.violations.len() as u64 - self.warnings
    }

    /// Recount warnings and set the verdict: `fail` with an error, or with a
    /// warning under `--fail-on-warn`.
    fn settle(&mut self, fail_on_warn: bool) {
        self.warnings = self.violations.iter().filter(|v| v.severity == Severity::Warning).count() as u64;
        self.warnings_fail = fail_on_warn;
        let fails = self.errors() > 0 || (fail_on_warn && self.warnings > 0);
        self.verdict = if fails { "fail" } else { "pass" };
    }

    /// Add the results of the Rego rules (one outcome per rule, in the
    /// policy's order), every message and detail masked with `masker`.
    pub fn add_rego(
        &mut self,
        policy: &crate::rego::RegoPolicy,
        findings: &[crate::rego::Finding],
        masker: &crate::secrets::Masker,
        fail_on_warn: bool,
    ) {
        for (i, rule) in policy.rules.iter().enumerate() {
            let severity = match rule.kind {
                crate::rego::Kind::Failure => Severity::Error,
                crate::rego::Kind::Warning => Severity::Warning,
            };
            let id = rule.id();
            let found: Vec<Violation> = findings
                .iter()
                .filter(|f| f.rule == i)
                .map(|f| {
                    let details =
                        f.details.as_ref().filter(|d| !d.is_empty()).map(|d| masker.mask_json(&serde_json::Value::Object(d.clone())));
                    // A string `address` among the details names the resource.
                    let address = details.as_ref().and_then(|d| d.get("address")).and_then(|a| a.as_str()).map(str::to_string);
                    Violation {
                        rule: id.clone(),
                        address,
                        // The rule's kind, as conftest names it: deny, violation or warn.
                        action: rule.name.split('_').next().unwrap_or("deny").to_string(),
                        reason: masker.mask_text(&f.msg).into_owned(),
                        severity,
                        details,
                        location: None,
                    }
                })
                .collect();
            let n = found.len() as u64;
            self.rules.push(RuleOutcome {
                rule: id,
                description: format!("Rego rule data.{}.{} ({})", rule.namespace, rule.name, rule.location()),
                default: false,
                severity,
                passed: n == 0,
                violations: n,
            });
            self.violations.extend(found);
        }
        self.settle(fail_on_warn);
    }
}

/// A change in words, kept apart from its import id or identity (text from
/// the input: masked when the words are written, once every secret is known).
#[derive(Debug, Clone)]
struct ChangeWords {
    /// `would be destroyed`, `deposed object 1 would be destroyed`.
    what: String,
    /// The reason, the move.
    extra: Vec<String>,
    import: Option<ImportName>,
}

#[derive(Debug, Clone)]
enum ImportName {
    Id(String),
    Identity(serde_json::Value),
    Unnamed,
    /// `importing.unknown`: the id is not known yet.
    Unknown,
}

impl ChangeWords {
    fn of(rc: &ResourceChange<'_>) -> ChangeWords {
        use crate::model::ReplaceOrder::*;
        let kind = rc.kind();
        let mut what = match &kind {
            ChangeKind::NoOp if rc.is_move() => "would be moved".to_string(),
            ChangeKind::NoOp if rc.change.importing.is_some() => "would be imported".to_string(),
            ChangeKind::NoOp => "would not change".to_string(),
            ChangeKind::Create => "would be created".to_string(),
            ChangeKind::Read => "would be read".to_string(),
            ChangeKind::Update => "would be updated in place".to_string(),
            ChangeKind::Delete => "would be destroyed".to_string(),
            ChangeKind::Replace(DeleteBeforeCreate) => "would be replaced (destroy then create)".to_string(),
            ChangeKind::Replace(CreateBeforeDestroy) => "would be replaced (create before destroy)".to_string(),
            ChangeKind::Forget => "would be forgotten (removed from state, object kept)".to_string(),
            ChangeKind::ForgetThenCreate => "would be replaced (forget then create: the old object is not destroyed)".to_string(),
            ChangeKind::CreateThenForget => "would be replaced (create then forget: the old object is not destroyed)".to_string(),
            ChangeKind::Unknown(_) => format!("has the unrecognised action list [{}]", kind.key().replace('+', ", ")),
        };
        if let Some(k) = &rc.deposed {
            what = format!("deposed object {k} {what}");
        }
        let mut extra = Vec::new();
        if let Some(r) = &rc.action_reason {
            extra.push(r.words());
        }
        if let Some(p) = rc.previous_address.as_ref().filter(|_| rc.is_move()) {
            extra.push(format!("moved from {p}"));
        }
        let import = rc.change.importing.as_ref().map(|i| match (&i.id, i.identity_value()) {
            (Some(id), _) => ImportName::Id(id.clone()),
            (None, Some(v)) => ImportName::Identity(v),
            (None, None) if i.unknown == Some(true) => ImportName::Unknown,
            (None, None) => ImportName::Unnamed,
        });
        ChangeWords { what, extra, import }
    }

    /// The words, the import id or identity masked by `masker` (when given).
    fn render(&self, masker: Option<&crate::secrets::Masker>) -> String {
        let mut extra = self.extra.clone();
        match &self.import {
            Some(ImportName::Id(id)) => extra.push(format!("import id {}", masker.map_or(id.into(), |m| m.mask_text(id)))),
            Some(ImportName::Identity(v)) => {
                let v = masker.map_or_else(|| v.clone(), |m| m.mask_json(v));
                extra.push(format!("import {}", crate::model::plan::identity_words(&v)));
            }
            Some(ImportName::Unnamed) => extra.push("imported".into()),
            Some(ImportName::Unknown) => extra.push("imported (import id not known yet)".into()),
            None => {}
        }
        if extra.is_empty() {
            self.what.clone()
        } else {
            format!("{}: {}", self.what, extra.join("; "))
        }
    }
}

/// A failed check in words: `check block failed`, `variable validation errored`,
/// `resource condition has status "flaky", which planview does not know`.
fn check_words(kind: &str, status: &str) -> String {
    let what = match CheckKind::parse(kind) {
        CheckKind::Resource => "resource condition".to_string(),
        CheckKind::OutputValue => "output condition".to_string(),
        CheckKind::Check => "check block".to_string(),
        CheckKind::Var => "variable validation".to_string(),
        CheckKind::Other(k) => format!("{k} check"),
    };
    match CheckStatus::parse(status) {
        CheckStatus::Fail => format!("{what} failed"),
        CheckStatus::Error => format!("{what} errored"),
        CheckStatus::Missing => format!("{what} has no status: the gate fails closed"),
        _ => format!("{what} has status \"{status}\", which planview does not know: the gate fails closed"),
    }
}

/// What an action invocation would do, in words: `would be invoked,
/// triggered by after_create of aws_instance.web`.
pub fn invocation_words(a: &crate::model::ActionInvocation<'_>) -> String {
    let mut s = "would be invoked".to_string();
    if let Some(t) = a.trigger_words() {
        s.push_str(&format!(", triggered by {t}"));
    }
    if let Some(r) = &a.deferred_reason {
        s = format!("deferred to a later plan ({r}): {s}");
    }
    s
}

/// Why invocation `a` breaks `--deny-on-failure` rule `r`, or `None`. An
/// `apply -invoke` has no `on_failure` and is not judged. A lifecycle
/// invocation whose `on_failure` is absent (before Terraform 1.16) or one
/// planview does not know, or whose event it cannot place, fails closed.
fn on_failure_violation(r: &OnFailureRule, a: &crate::model::ActionInvocation<'_>) -> Option<String> {
    let t = a.lifecycle_action_trigger.as_ref()?;
    let event = TriggerEvent::parse(t.action_trigger_event.as_deref().unwrap_or(""));
    let written = t.action_trigger_event.as_deref().unwrap_or("(no event)");
    let by = format!("{} of {}", written, t.triggering_resource_address.as_deref().unwrap_or("(no resource)"));
    let covered = r.covers(&event);
    if covered == Some(false) {
        return None;
    }
    let mut why = match (t.on_failure.as_deref(), t.on_failure.as_deref().and_then(OnFailure::parse)) {
        (_, Some(m)) if m == r.mode => format!("would be invoked with on_failure {} ({by})", m.plan_name()),
        (_, Some(_)) => return None,
        (None, _) => format!("would be invoked ({by}) with no on_failure in the plan: the gate fails closed"),
        (Some(o), None) => format!("would be invoked ({by}) with on_failure {o}, which planview does not know: the gate fails closed"),
    };
    if covered.is_none() {
        why.push_str(&format!(
            "; planview does not know the event {written}, so it cannot tell it is not a {} trigger",
            r.events.as_deref().unwrap_or("")
        ));
    }
    if let Some(d) = &a.deferred_reason {
        why = format!("deferred to a later plan ({d}): {why}");
    }
    Some(why)
}

/// The action key of a change for a violation (`move`/`import` for no-ops that do those).
fn action_key(rc: &ResourceChange<'_>) -> String {
    match rc.kind() {
        ChangeKind::NoOp if rc.is_move() => "move".into(),
        ChangeKind::NoOp if rc.change.importing.is_some() => "import".into(),
        k => k.key(),
    }
}

/// The change's address and, for a move, its previous address.
fn addresses_of<'r>(rc: &'r ResourceChange<'_>) -> impl Iterator<Item = &'r str> {
    std::iter::once(rc.address.as_str()).chain(rc.previous_address.as_deref().filter(|p| *p != rc.address))
}

/// How many addresses a `max` violation names before "and N more".
const MAX_NAMED: usize = 5;

/// Judge one plan read whole: a [`GateJudge`] fed in the streaming order
/// (the same code judges a plan streamed from a pipe).
pub fn evaluate(p: &Plan<'_>, policy: &Policy) -> PlanVerdict {
    evaluate_with(p, policy, None, &crate::secrets::Masker::default())
}

/// [`evaluate`], given the plan's fingerprint ([`crate::query::intent`]) for
/// `--expect-fingerprint` (without one that rule fails closed), the text it
/// quotes from the plan masked with the plan's secrets.
pub fn evaluate_with(p: &Plan<'_>, policy: &Policy, fingerprint: Option<&str>, masker: &crate::secrets::Masker) -> PlanVerdict {
    let mut judge = GateJudge::new(policy);
    judge.fingerprint = fingerprint.map(str::to_string);
    crate::model::visit::visit_plan(p, &mut judge);
    judge.finish(masker)
}

/// A violation as found while the plan streams by: its reason is written at
/// [`GateJudge::finish`], once every secret of the plan is known (an import
/// id or a check message can hold one).
#[derive(Debug)]
struct Pending {
    address: Option<String>,
    action: String,
    reason: Reason,
}

#[derive(Debug)]
enum Reason {
    /// planview's own words.
    Words(String),
    /// Words that quote the input (why an entry is unreadable): masked whole.
    Quoting(String),
    /// A change in words; deferred for a reason; `(type T)` after it.
    Change { words: ChangeWords, deferred: Option<String>, type_: Option<String> },
    /// A check that did not pass, and its problem messages.
    Check { what: String, problems: Vec<String> },
}

impl Reason {
    fn render(&self, m: &crate::secrets::Masker) -> String {
        match self {
            Reason::Words(w) => w.clone(),
            Reason::Quoting(q) => m.mask_text(q).into_owned(),
            Reason::Change { words, deferred, type_ } => {
                let mut w = words.render(Some(m));
                if let Some(r) = deferred {
                    w = format!("deferred to a later plan ({r}): {w}");
                }
                if let Some(t) = type_ {
                    w = format!("{w} (type {t})");
                }
                w
            }
            Reason::Check { what, problems } if problems.is_empty() => what.clone(),
            Reason::Check { what, problems } => {
                format!("{what}: {}", problems.iter().map(|p| m.mask_text(p)).collect::<Vec<_>>().join("; "))
            }
        }
    }
}

/// The gate over one plan, one piece at a time (a [`PlanVisitor`]): each
/// change is judged by every rule as it passes and dropped; what only the end
/// of the document says (deferred changes, action invocations, checks, flags)
/// is judged in `on_header`. Violations are kept per rule, so they come out
/// in rule order, each rule's in document order, as the policy lists them.
#[derive(Debug)]
pub struct GateJudge<'p> {
    policy: &'p Policy,
    rules: Vec<Rule>,
    /// The compiled glob of each `protect`/`protect-type` rule (by rule index).
    globs: Vec<Option<Glob>>,
    /// Violations found so far, per rule.
    found: Vec<Vec<Pending>>,
    /// Per `max` rule: how many changes count against it, and the first few addresses.
    hits: Vec<(u64, Vec<String>)>,
    /// `recognised-actions` violations for entries planview cannot read (listed first).
    unreadable: Vec<Pending>,
    counts: ActionCounts,
    summary: PlanAccumulator,
    drift: u64,
    /// Known once the header has been seen.
    terraform_version: Option<String>,
    errored: bool,
    plan_line: String,
    /// The plan's fingerprint, for `--expect-fingerprint` (computed from the whole plan).
    fingerprint: Option<String>,
    /// Check instances that did not pass.
    checks_not_passed: u64,
}

impl<'p> GateJudge<'p> {
    pub fn new(policy: &'p Policy) -> Self {
        let rules = policy.rules();
        let globs = rules
            .iter()
            .map(|r| match r {
                Rule::Protect(g) | Rule::ProtectType(g) => Some(Glob::new(g)),
                _ => None,
            })
            .collect();
        let n = rules.len();
        GateJudge {
            policy,
            rules,
            globs,
            found: (0..n).map(|_| Vec::new()).collect(),
            hits: vec![(0, Vec::new()); n],
            unreadable: Vec::new(),
            counts: ActionCounts::default(),
            summary: PlanAccumulator::counting(),
            drift: 0,
            terraform_version: None,
            errored: false,
            plan_line: String::new(),
            fingerprint: None,
            checks_not_passed: 0,
        }
    }

    /// One change (of `resource_changes`, or deferred for `deferred` reason) by every rule.
    fn judge(&mut self, rc: &ResourceChange<'_>, deferred: Option<&str>) {
        let c = Classes::of(rc);
        self.counts.add(&c);
        let reason = |type_: Option<&str>| Reason::Change {
            words: ChangeWords::of(rc),
            deferred: deferred.map(str::to_string),
            type_: type_.map(str::to_string),
        };
        let hit = |reason: Reason| Pending { address: Some(rc.address.clone()), action: action_key(rc), reason };
        for (i, rule) in self.rules.iter().enumerate() {
            match (rule, &self.globs[i]) {
                (Rule::Deny { action, .. } | Rule::Warn { action }, _) if c.has(*action) && !self.policy.allowed(*action, rc) => {
                    self.found[i].push(hit(reason(None)))
                }
                (Rule::Max { action, .. } | Rule::WarnMax { action, .. }, _) if c.has(*action) && !self.policy.allowed(*action, rc) => {
                    let (n, named) = &mut self.hits[i];
                    *n += 1;
                    if named.len() < MAX_NAMED {
                        named.push(rc.address.clone());
                    }
                }
                // Protected under either address: moving an object does not take it out of protection.
                (Rule::Protect(_), Some(glob)) if c.delete && addresses_of(rc).any(|a| glob.matches(a)) => {
                    self.found[i].push(hit(reason(None)))
                }
                (Rule::ProtectType(_), Some(glob)) if c.delete && glob.matches_exactly(&rc.type_) => {
                    self.found[i].push(hit(reason(Some(&rc.type_))))
                }
                (Rule::RecognisedActions, _) => {
                    let kind = rc.kind();
                    if let ChangeKind::Unknown(list) = &kind {
                        let list: Vec<&str> = list.iter().map(|a| a.as_str()).collect();
                        let words = format!("action list [{}] is not one planview recognises: the gate fails closed", list.join(", "));
                        self.found[i].push(Pending { address: Some(rc.address.clone()), action: kind.key(), reason: Reason::Words(words) });
                    }
                }
                _ => {}
            }
        }
    }

    /// A violation of rule `i` not tied to one change.
    fn push(&mut self, i: usize, address: Option<&str>, action: String, reason: Reason) {
        self.found[i].push(Pending { address: address.map(str::to_string), action, reason });
    }

    /// The verdict, once the whole plan has been seen.
    /// Text quoted from the plan (import ids, check messages) is masked with
    /// `masker`, the plan's secrets.
    pub fn finish(mut self, masker: &crate::secrets::Masker) -> PlanVerdict {
        let mut violations = Vec::new();
        let mut outcomes = Vec::new();
        for (i, rule) in self.rules.iter().enumerate() {
            let id = rule.id();
            let mut found: Vec<Violation> = std::mem::take(&mut self.found[i])
                .into_iter()
                .map(|p| Violation {
                    rule: id.clone(),
                    address: p.address,
                    action: p.action,
                    reason: p.reason.render(masker),
                    severity: rule.severity(),
                    details: None,
                    location: None,
                })
                .collect();
            if let Rule::Max { action, limit } | Rule::WarnMax { action, limit } = rule {
                let (n, named) = &self.hits[i];
                if n > limit {
                    let mut named = named.join(", ");
                    if *n > MAX_NAMED as u64 {
                        named.push_str(&format!(" and {} more", n - MAX_NAMED as u64));
                    }
                    let reason = format!("{n} change(s) would {}, more than the {limit} allowed: {named}", action.verb());
                    found.push(Violation {
                        rule: id.clone(),
                        address: None,
                        action: action.as_str().to_string(),
                        reason,
                        severity: rule.severity(),
                        details: None,
                        location: None,
                    });
                }
            }
            if let Rule::Fingerprint(expected) = rule {
                let reason = match &self.fingerprint {
                    Some(actual) if actual == expected => None,
                    Some(actual) => Some(format!(
                        "this plan would not do what the reviewed plan did: its fingerprint is {actual}, the reviewed plan's {expected} (`planview diff REVIEWED NEW` lists what differs)"
                    )),
                    None => Some("the plan's fingerprint could not be computed: the gate fails closed".to_string()),
                };
                if let Some(reason) = reason {
                    found.push(Violation {
                        rule: id.clone(),
                        address: None,
                        action: "fingerprint".into(),
                        reason,
                        severity: Severity::Error,
                        details: None,
                        location: None,
                    });
                }
            }
            if matches!(rule, Rule::RecognisedActions) {
                let unreadable = std::mem::take(&mut self.unreadable).into_iter().map(|p| Violation {
                    rule: id.clone(),
                    address: p.address,
                    action: p.action,
                    reason: p.reason.render(masker),
                    severity: Severity::Error,
                    details: None,
                    location: None,
                });
                found.splice(0..0, unreadable);
            }
            let n = found.len() as u64;
            outcomes.push(RuleOutcome {
                rule: id,
                description: rule.description(),
                default: rule.is_default(),
                severity: rule.severity(),
                passed: n == 0,
                violations: n,
            });
            violations.extend(found);
        }
        let mut verdict = PlanVerdict {
            file: String::new(),
            verdict: "pass",
            terraform_version: self.terraform_version,
            errored: self.errored,
            plan_line: self.plan_line,
            counts: self.counts,
            drift: self.drift,
            rules: outcomes,
            violations,
            warnings: 0,
            warnings_fail: false,
            checks_not_passed: self.checks_not_passed,
        };
        verdict.settle(self.policy.fail_on_warn);
        verdict
    }
}

impl PlanVisitor for GateJudge<'_> {
    fn on_resource_change(&mut self, rc: &ResourceChange<'_>) {
        self.summary.on_resource_change(rc);
        self.judge(rc, None);
    }

    fn on_drift(&mut self, rc: &ResourceChange<'_>) {
        self.summary.on_drift(rc);
        self.drift += 1;
        for i in 0..self.rules.len() {
            if matches!(self.rules[i], Rule::NoDrift) {
                let kind = rc.kind();
                let what = match &kind {
                    ChangeKind::Delete => "deleted outside of Terraform/OpenTofu".to_string(),
                    ChangeKind::Update => "changed outside of Terraform/OpenTofu".to_string(),
                    k => format!("drifted ({})", k.key()),
                };
                self.push(i, Some(&rc.address), kind.key(), Reason::Words(what));
            }
        }
    }

    fn on_output_change(&mut self, name: &str, change: &crate::model::Change<'_>) {
        self.summary.on_output_change(name, change);
    }

    fn on_checks(&mut self, checks: &[crate::model::CheckObject]) {
        self.summary.on_checks(checks);
    }

    fn on_header(&mut self, p: &Plan<'_>) {
        self.summary.on_header(p);
        self.plan_line = std::mem::take(&mut self.summary).finish(p).plan_line;
        self.terraform_version = p.terraform_version.clone();
        self.errored = p.errored;
        // Deferred changes are judged like the others, their reason in the words.
        let (deferred, mut unreadable) = p.deferred_changes();
        let (invocations, bad) = p.action_invocations();
        unreadable.extend(bad);
        for d in &deferred {
            self.judge(&d.resource_change, Some(d.reason.as_str()));
        }
        self.counts.invoke = invocations.len() as u64;
        self.counts.any += self.counts.invoke;
        let checks = p.check_results().1;
        self.checks_not_passed = checks.iter().filter(|i| i.is_failure()).count() as u64;
        for i in 0..self.rules.len() {
            match self.rules[i] {
                Rule::Deny { action: GateAction::Invoke | GateAction::Any, .. }
                | Rule::Warn { action: GateAction::Invoke | GateAction::Any } => {
                    for a in &invocations {
                        self.push(i, Some(&a.address), "invoke".into(), Reason::Words(invocation_words(a)));
                    }
                }
                Rule::DenyOnFailure(ref r) => {
                    let r = r.clone();
                    for a in &invocations {
                        if let Some(words) = on_failure_violation(&r, a) {
                            self.push(i, Some(&a.address), "invoke".into(), Reason::Words(words));
                        }
                    }
                }
                Rule::Max { action: GateAction::Invoke | GateAction::Any, .. }
                | Rule::WarnMax { action: GateAction::Invoke | GateAction::Any, .. } => {
                    let (n, named) = &mut self.hits[i];
                    for a in &invocations {
                        *n += 1;
                        if named.len() < MAX_NAMED {
                            named.push(a.address.clone());
                        }
                    }
                }
                Rule::Checks => {
                    // The one reading of check results (`checks`, else
                    // `condition_results`); a status planview does not know fails.
                    for item in checks.iter().filter(|i| i.is_failure()) {
                        let reason = Reason::Check { what: check_words(&item.kind, &item.status), problems: item.problems.clone() };
                        self.push(i, Some(&item.address), item.status.clone(), reason);
                    }
                }
                Rule::NotErrored if p.errored => self.push(
                    i,
                    None,
                    "errored".into(),
                    Reason::Words("planning failed: the plan cannot be applied and lists only the changes planned before the error".into()),
                ),
                Rule::Complete => {
                    let deferred_invocations = invocations.iter().filter(|a| a.deferred_reason.is_some()).count();
                    if p.complete == Some(false) && !p.errored {
                        // Errored plans are always incomplete: `not-errored` judges them.
                        self.push(
                            i,
                            None,
                            "incomplete".into(),
                            Reason::Words(
                                "the plan is incomplete (made with -target, or with changes deferred to a later plan): what it leaves out is not judged"
                                    .into(),
                            ),
                        );
                    } else if !deferred.is_empty() || deferred_invocations > 0 {
                        let reason = format!(
                            "{} change(s) and {deferred_invocations} action invocation(s) are deferred to a later plan",
                            deferred.len()
                        );
                        self.push(i, None, "incomplete".into(), Reason::Words(reason));
                    }
                }
                Rule::RecognisedActions => {
                    self.unreadable.extend(unreadable.iter().map(|u| Pending {
                        address: Some(u.at.clone()),
                        action: "unreadable".into(),
                        reason: Reason::Quoting(format!(
                            "planview cannot read it ({}): the gate fails closed",
                            crate::sanitize::line(&u.why)
                        )),
                    }));
                }
                _ => {}
            }
        }
    }
}

/// The sum over several plans.
#[derive(Debug, Clone, Default, Serialize)]
pub struct GateTotal {
    pub files: u64,
    pub passed: u64,
    pub failed: u64,
    /// Inputs that could not be read (or were not plans).
    pub errors: u64,
    /// Violations that are errors.
    pub violations: u64,
    /// Violations that are warnings.
    pub warnings: u64,
    pub counts: ActionCounts,
}

/// `pass`, `fail` or `error`: the worst over every input.
pub fn overall(total: &GateTotal) -> &'static str {
    if total.errors > 0 {
        "error"
    } else if total.failed > 0 {
        "fail"
    } else {
        "pass"
    }
}

pub fn total<'a>(items: impl Iterator<Item = Option<&'a PlanVerdict>>) -> GateTotal {
    let mut t = GateTotal::default();
    for item in items {
        t.files += 1;
        match item {
            None => t.errors += 1,
            Some(v) => {
                if v.passed() {
                    t.passed += 1;
                } else {
                    t.failed += 1;
                }
                t.violations += v.errors();
                t.warnings += v.warnings;
                t.counts.add_assign(&v.counts);
            }
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(changes: &str) -> Plan<'_> {
        serde_json::from_str(changes).unwrap()
    }

    const MIX: &str = r#"{"format_version":"1.2","resource_changes":[
        {"address":"a.create","type":"a","mode":"managed","change":{"actions":["create"]}},
        {"address":"a.upd","type":"a","mode":"managed","change":{"actions":["update"]}},
        {"address":"a.r1","type":"a","mode":"managed","change":{"actions":["delete","create"]},"action_reason":"replace_because_tainted"},
        {"address":"db.r2","type":"db","mode":"managed","change":{"actions":["create","delete"]}},
        {"address":"a.dep","type":"a","mode":"managed","deposed":"abcd","change":{"actions":["delete"]}},
        {"address":"data.x.gone","type":"x","mode":"data","change":{"actions":["delete"]}},
        {"address":"data.x.y","type":"x","mode":"data","change":{"actions":["read"]}},
        {"address":"a.fg","type":"a","mode":"managed","change":{"actions":["forget"]}},
        {"address":"a.mv","previous_address":"a.old","type":"a","mode":"managed","change":{"actions":["no-op"]}},
        {"address":"a.imp","type":"a","mode":"managed","change":{"actions":["no-op"],"importing":{"id":"i-1"}}}]}"#;

    fn addresses(v: &PlanVerdict, rule: &str) -> Vec<String> {
        v.violations.iter().filter(|x| x.rule == rule).filter_map(|x| x.address.clone()).collect()
    }

    #[test]
    fn default_denies_replaces_and_deposed_but_not_data_or_forget() {
        let v = evaluate(&plan(MIX), &Policy::default());
        assert_eq!(addresses(&v, "deny delete"), ["a.r1", "db.r2", "a.dep"]);
        assert_eq!(v.verdict, "fail");
        assert_eq!(v.counts.delete, 3);
        assert_eq!(v.counts.create, 3);
        assert_eq!(v.counts.forget, 1);
        assert!(v.violations[2].reason.contains("deposed object abcd"), "{:?}", v.violations[2]);
        assert!(v.violations[0].reason.contains("tainted"));
    }

    #[test]
    fn a_data_mode_on_a_managed_address_is_judged_as_managed() {
        // `mode` says data, the address says managed: the address decides.
        let p = plan(
            r#"{"format_version":"1.2","resource_changes":[
            {"address":"aws_db_instance.main","type":"aws_db_instance","mode":"data","change":{"actions":["delete"]}},
            {"address":"module.m[\"data.x\"].aws_s3_bucket.b","type":"aws_s3_bucket","mode":"data","change":{"actions":["delete","create"]}},
            {"address":"not an address","type":"x","mode":"data","change":{"actions":["delete"]}},
            {"address":"module.m.data.x.y","type":"x","mode":"data","change":{"actions":["delete"]}}]}"#,
        );
        let v = evaluate(&p, &Policy::default());
        assert_eq!(addresses(&v, "deny delete"), ["aws_db_instance.main", "module.m[\"data.x\"].aws_s3_bucket.b", "not an address"]);
        assert_eq!(v.counts.delete, 3);
        let policy = Policy { max: vec![(GateAction::Delete, 0)], ..Default::default() };
        assert!(!evaluate(&p, &policy).passed());
    }

    #[test]
    fn allow_exempts_but_protect_wins() {
        let policy = Policy { allow: vec![Glob::new("*")], protect_types: vec![Glob::new("db")], ..Default::default() };
        let v = evaluate(&plan(MIX), &policy);
        assert!(addresses(&v, "deny delete").is_empty());
        assert_eq!(addresses(&v, "protect-type db"), ["db.r2"]);
    }

    #[test]
    fn explicit_delete_rule_replaces_the_default() {
        let policy = Policy { max: vec![(GateAction::Delete, 3)], ..Default::default() };
        assert!(!policy.default_in_force());
        assert!(evaluate(&plan(MIX), &policy).passed());
        let policy = Policy { max: vec![(GateAction::Delete, 2)], ..Default::default() };
        let v = evaluate(&plan(MIX), &policy);
        assert_eq!(v.violations.len(), 1);
        assert!(v.violations[0].reason.starts_with("3 change(s) would destroy, more than the 2 allowed"));
        // Other action rules keep the default.
        let policy = Policy { deny: vec![GateAction::Create], ..Default::default() };
        assert!(policy.default_in_force());
    }

    #[test]
    fn forget_move_import_are_their_own_actions() {
        for (a, addr) in [(GateAction::Forget, "a.fg"), (GateAction::Move, "a.mv"), (GateAction::Import, "a.imp")] {
            let policy = Policy { deny: vec![a], ..Default::default() };
            let v = evaluate(&plan(MIX), &policy);
            assert_eq!(addresses(&v, &format!("deny {a}")), [addr], "{a}");
        }
    }

    #[test]
    fn allow_exempts_only_from_rules_on_destruction() {
        let policy = Policy { deny: vec![GateAction::Forget, GateAction::Replace], allow: vec![Glob::new("a.*")], ..Default::default() };
        let v = evaluate(&plan(MIX), &policy);
        assert_eq!(addresses(&v, "deny forget"), ["a.fg"]);
        assert_eq!(addresses(&v, "deny replace"), ["db.r2"]);
        assert_eq!(addresses(&v, "deny delete"), ["db.r2"]);
    }

    #[test]
    fn a_move_does_not_carry_an_object_out_of_protection_or_into_allowance() {
        let p = plan(
            r#"{"format_version":"1.2","resource_changes":[
            {"address":"scratch.x","previous_address":"prod.db","type":"t","mode":"managed","change":{"actions":["delete","create"]}}]}"#,
        );
        let policy = Policy { protect: vec![Glob::new("prod.*")], allow: vec![Glob::new("scratch.*")], ..Default::default() };
        let v = evaluate(&p, &policy);
        assert_eq!(addresses(&v, "protect prod.*"), ["scratch.x"]);
        assert_eq!(addresses(&v, "deny delete"), ["scratch.x"], "allowed only if both addresses are");
        let policy = Policy { max: vec![(GateAction::Replace, 0)], allow: vec![Glob::new("scratch.*")], ..Default::default() };
        assert_eq!(evaluate(&p, &policy).violations.iter().filter(|x| x.rule == "max replace=0").count(), 1);
        let policy = Policy { allow: vec![Glob::new("scratch.*"), Glob::new("prod.*")], ..Default::default() };
        assert!(evaluate(&p, &policy).passed(), "both addresses allowed");
    }

    #[test]
    fn unknown_action_lists_fail_closed_even_when_allowed() {
        let p = plan(r#"{"format_version":"1.2","resource_changes":[{"address":"a.b","change":{"actions":["create","teleport"]}}]}"#);
        let policy = Policy { allow: vec![Glob::new("*")], ..Default::default() };
        let v = evaluate(&p, &policy);
        assert_eq!(v.violations.len(), 1);
        assert_eq!(v.violations[0].rule, "recognised-actions");
        assert_eq!(v.violations[0].action, "create+teleport");
    }

    #[test]
    fn policy_file_rejects_typos_and_unknown_actions() {
        assert!(PolicyFile::parse(r#"{"protct":["x"]}"#).unwrap_err().0.contains("unknown field"));
        assert!(PolicyFile::parse(r#"{"deny":["explode"]}"#).is_err());
        assert!(PolicyFile::parse(r#"{"max":{"delete":-1}}"#).is_err());
        // Not an object: never an empty policy.
        for (text, at) in [("[]", (1, 1)), ("\n  [{\"deny\":[]}]", (2, 3)), ("null", (1, 1)), ("\"x\"", (1, 1))] {
            let (msg, place) = PolicyFile::parse(text).unwrap_err();
            assert!(msg.contains("a policy must be a JSON object"), "{text}: {msg}");
            assert_eq!(place, Some(at), "{text}");
        }
        // A key twice in one object: an error where the second is, at any level.
        let (msg, at) = PolicyFile::parse("{\"max\": {\"delete\": 0,\n  \"delete\": 100}}").unwrap_err();
        assert!(msg.contains("duplicate key `delete`"), "{msg}");
        assert_eq!(at, Some((2, 10)));
        let (msg, at) = PolicyFile::parse(r#"{"deny":["create"],"deny":[]}"#).unwrap_err();
        assert!(msg.contains("duplicate") && msg.contains("deny"), "{msg}");
        assert!(at.is_some());
        // The same key in two objects is no duplicate.
        PolicyFile::parse(r#"{"max":{"delete":1},"deny":["delete"],"protect":["delete"]}"#).unwrap();
        let f = PolicyFile::parse(r#"{"$schema":"x","deny":["forget"],"max":{"replace":2},"drift":"deny"}"#).unwrap();
        let mut p = Policy { drift: Some(DriftPolicy::Allow), ..Default::default() };
        p.merge_file(&f);
        assert_eq!(p.deny, [GateAction::Forget]);
        assert_eq!(p.max, [(GateAction::Replace, 2)]);
        assert_eq!(p.drift, Some(DriftPolicy::Allow), "the flag wins over the file");
    }

    #[test]
    fn policy_error_quoting_a_key_is_one_line_and_cannot_fake_a_hint() {
        let (msg, _) = PolicyFile::parse("{\"x\\n  hint: all fine\\u001b[2J\": 1}").unwrap_err();
        assert_eq!(msg.lines().count(), 1, "{msg}");
        assert!(msg.contains("x\\n  hint: all fine\\x1B[2J"), "{msg}");
        assert_eq!(crate::sanitize::terminal_hazard(msg.as_bytes(), false), None);
    }

    #[test]
    fn fail_on_checks_reads_condition_results_and_fails_closed_on_unknown_statuses() {
        let policy = Policy { fail_on_checks: true, ..Default::default() };
        // Terraform 1.2-1.4: no `checks`, only `condition_results`.
        let p = plan(
            r#"{"format_version":"1.1","condition_results":[
            {"address":"a.b","condition_type":"ResourcePrecondition","result":false,"unknown":false,"error_message":"too small"},
            {"address":"a.c","condition_type":"ResourcePrecondition","result":true,"unknown":false}]}"#,
        );
        let v = evaluate(&p, &policy);
        assert_eq!(addresses(&v, "fail-on-checks"), ["a.b"]);
        assert!(v.violations[0].reason.contains("too small"));
        // A status planview does not know, a missing status, an unreadable
        // condition result: each fails the gate.
        for json in [
            r#"{"format_version":"1.2","checks":[{"address":{"kind":"resource","to_display":"a.b"},"status":"flaky"}]}"#,
            r#"{"format_version":"1.2","checks":[{"address":{"kind":"resource","to_display":"a.b"},"status":"pass","instances":[{"address":{"to_display":"a.b"}}]}]}"#,
            r#"{"format_version":"1.1","condition_results":[{"address":"a.b","condition_type":"ResourcePrecondition"}]}"#,
            r#"{"format_version":"1.1","condition_results":[7]}"#,
            r#"{"format_version":"1.1","condition_results":"x"}"#,
        ] {
            let v = evaluate(&plan(json), &policy);
            assert_eq!(v.violations.len(), 1, "{json}: {:?}", v.violations);
            assert_eq!(v.violations[0].rule, "fail-on-checks");
            assert!(v.violations[0].reason.contains("fails closed"), "{:?}", v.violations[0]);
        }
        // pass and unknown do not fail.
        let p = plan(r#"{"format_version":"1.2","checks":[{"address":{"kind":"check","to_display":"check.x"},"status":"unknown"}]}"#);
        assert!(evaluate(&p, &policy).passed());
    }

    #[test]
    fn unreadable_deferred_changes_and_invocations_fail_closed() {
        for json in [
            r#"{"format_version":"1.2","deferred_changes":[{"reason":"x"}]}"#,
            r#"{"format_version":"1.2","deferred_changes":{"a":1}}"#,
            r#"{"format_version":"1.2","deferred_changes":[{"reason":"x","resource_change":7}]}"#,
            r#"{"format_version":"1.2","action_invocations":[{"type":"t"}]}"#,
            r#"{"format_version":"1.2","deferred_action_invocations":[{"reason":"x"}]}"#,
        ] {
            let policy = Policy { allow_incomplete: true, allow: vec![Glob::new("*")], ..Default::default() };
            let v = evaluate(&plan(json), &policy);
            assert_eq!(v.violations.len(), 1, "{json}: {:?}", v.violations);
            assert_eq!((v.violations[0].rule.as_str(), v.violations[0].action.as_str()), ("recognised-actions", "unreadable"), "{json}");
        }
    }

    #[test]
    fn deferred_changes_are_judged_and_make_the_plan_incomplete() {
        let p = plan(
            r#"{"format_version":"1.2","complete":true,"deferred_changes":[
            {"reason":"provider_config_unknown","resource_change":{"address":"a.b","type":"a","mode":"managed","change":{"actions":["delete"]}}}]}"#,
        );
        let v = evaluate(&p, &Policy::default());
        assert_eq!(addresses(&v, "deny delete"), ["a.b"]);
        assert!(v.violations[0].reason.starts_with("deferred to a later plan (provider_config_unknown)"), "{:?}", v.violations[0]);
        assert_eq!(v.violations.iter().filter(|x| x.rule == "complete").count(), 1, "deferred means incomplete");
        assert_eq!(v.counts.delete, 1);
        let policy = Policy { allow_incomplete: true, allow: vec![Glob::new("a.*")], ..Default::default() };
        assert!(evaluate(&p, &policy).passed());
    }

    #[test]
    fn invocations_are_their_own_action_and_part_of_any() {
        let p = plan(
            r#"{"format_version":"1.2","action_invocations":[
            {"address":"action.t.a","type":"t","name":"a","invoke_action_trigger":{}},
            {"address":"action.t.b","type":"t","name":"b","lifecycle_action_trigger":{"triggering_resource_address":"x.y","action_trigger_event":"after_create"}}]}"#,
        );
        assert!(evaluate(&p, &Policy::default()).passed());
        for a in [GateAction::Invoke, GateAction::Any] {
            let v = evaluate(&p, &Policy { deny: vec![a], ..Default::default() });
            assert_eq!(addresses(&v, &format!("deny {a}")), ["action.t.a", "action.t.b"]);
        }
        let v = evaluate(&p, &Policy { max: vec![(GateAction::Invoke, 1)], ..Default::default() });
        assert_eq!(v.violations.len(), 1);
        assert!(evaluate(&p, &Policy { max: vec![(GateAction::Invoke, 2)], ..Default::default() }).passed());
        assert_eq!((v.counts.invoke, v.counts.any), (2, 2));
        let v = evaluate(&p, &Policy { deny: vec![GateAction::Invoke], ..Default::default() });
        assert!(v.violations[1].reason.contains("triggered by after_create of x.y"), "{:?}", v.violations[1]);
    }

    #[test]
    fn action_names_round_trip() {
        for a in GateAction::ALL {
            assert_eq!(GateAction::parse(a.as_str()), Some(a));
            let json = serde_json::to_string(&a).unwrap();
            assert_eq!(json, format!("\"{a}\""));
        }
        assert_eq!(GateAction::parse("destroy"), None);
    }
}
