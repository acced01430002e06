//! `gate`: judge a plan against a policy (deny actions, cap counts, protect
//! addresses and types, checks, errored plans, drift) and list each violation.
//!
//! Counting reuses the summary's: a change's gate actions come from
//! [`count_totals`] (managed resources only, a replace both creates and
//! destroys, an import counts besides its action) and [`ChangeKind::destroys`].

use crate::glob::Glob;
use crate::model::visit::PlanVisitor;
use crate::model::{ChangeKind, CheckKind, CheckStatus, Mode, OnFailure, Plan, ResourceChange, TriggerEvent};
use crate::query::noise::{Noise, NoiseCount};
use crate::query::summary::{count_totals, mode_of, PlanAccumulator, Totals};
use serde::{Deserialize, Serialize};
use std::fmt;

mod helper;
mod policy;
pub use helper::{helper_document, HelperChange};
pub use policy::{DriftPolicy, OnFailureRule, Policy, PolicyFile, PolicyReport, Rule, Severity};

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
    /// With `--ignore-attr`: the updates that only change ignored attributes
    /// (left out of `counts`, never judged as updates).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub noise: Option<NoiseCount>,
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
    /// Each destructive change and its dependents, when the policy asked
    /// (`max_blast`, the PR comment): [`crate::query::dependents::Blaster`].
    #[serde(skip)]
    pub blast: Vec<crate::query::dependents::BlastLine>,
    /// Every change's dependents (the changes that have some), when the
    /// policy asked ([`crate::query::dependents::Blaster::take`]): the page's graph.
    #[serde(skip)]
    pub dependents: Option<crate::query::dependents::Dependents>,
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
    /// `--ignore-attr`, and the updates found to be noise.
    noise: Noise,
    noise_count: Option<NoiseCount>,
    /// Each destructive change's dependents (`max_blast`, the PR comment).
    blast: crate::query::dependents::Blaster,
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
            noise: Noise::new(&policy.ignore_attributes),
            noise_count: Noise::new(&policy.ignore_attributes).count(),
            blast: crate::query::dependents::Blaster::when(policy.max_blast.is_some() || policy.dependents, policy.locals.clone()),
        }
    }

    /// One change (of `resource_changes`, or deferred for `deferred` reason) by every rule.
    fn judge(&mut self, rc: &ResourceChange<'_>, deferred: Option<&str>) {
        let mut c = Classes::of(rc);
        // Noise is counted apart, as the `Plan:` line counts it (deferred
        // changes are not in that line): no rule sees it as an update.
        if let Some(n) = self.noise_count.as_mut().filter(|_| c.update && deferred.is_none() && self.noise.is_noise(rc)) {
            n.count += 1;
            c.update = false;
        }
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
    /// The plan's fingerprint, for `--expect-fingerprint`, when it is computed
    /// apart (streamed: it needs every secret of the plan, `crate::run::compare`).
    pub fn set_fingerprint(&mut self, fingerprint: Option<String>) {
        self.fingerprint = fingerprint;
    }

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
            if let Rule::MaxBlast(limit) = rule {
                let over = self.blast.over(*limit).into_iter();
                found.extend(over.map(|(address, action, reason)| Violation {
                    rule: id.clone(),
                    address,
                    action,
                    reason,
                    severity: Severity::Error,
                    details: None,
                    location: None,
                }));
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
            noise: self.noise_count,
            drift: self.drift,
            rules: outcomes,
            violations,
            warnings: 0,
            warnings_fail: false,
            checks_not_passed: self.checks_not_passed,
            blast: self.blast.lines(),
            dependents: self.blast.take(),
        };
        verdict.settle(self.policy.fail_on_warn);
        verdict
    }
}

impl PlanVisitor for GateJudge<'_> {
    fn on_resource_change(&mut self, rc: &ResourceChange<'_>) {
        self.summary.on_resource_change(rc);
        self.blast.on_resource_change(rc);
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
        self.blast.on_output_change(name, change);
    }

    fn on_checks(&mut self, checks: &[crate::model::CheckObject]) {
        self.summary.on_checks(checks);
    }

    fn on_header(&mut self, p: &Plan<'_>) {
        self.summary.on_header(p);
        self.blast.on_header(p);
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
mod tests;
