//! `summary`: what a plan will do (counted as the CLI counts), or what a state holds.

use crate::model::visit::PlanVisitor;
use crate::model::{ActionInvocation, Change, ChangeKind, CheckObject, Mode, Plan, ReplaceOrder, ResourceChange};
use crate::model::{Document, StateDoc};
use crate::query::noise::{Noise, NoiseCount};
use crate::query::values::{OutputReport, Visibility};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The summary of one document.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Summary {
    Plan(Box<PlanSummary>),
    State(Box<StateSummary>),
}

/// Totals as the CLI's `Plan:` line counts them (managed resources only).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Totals {
    pub import: u64,
    pub add: u64,
    pub change: u64,
    pub destroy: u64,
    pub forget: u64,
}

impl Totals {
    /// The CLI's line, word for word as Terraform prints it (`to import` only
    /// when non-zero). Terraform 1.11 leaves forgets out of this line (seen in
    /// `testdata/real/removed`), so `forget` is reported beside it, not in it.
    pub fn plan_line(&self) -> String {
        let mut s = String::from("Plan: ");
        if self.import > 0 {
            s.push_str(&format!("{} to import, ", self.import));
        }
        s.push_str(&format!("{} to add, {} to change, {} to destroy.", self.add, self.change, self.destroy));
        s
    }

    /// OpenTofu's line (internal/command/jsonformat/plan.go, opentofu/opentofu
    /// f831fa1aa4b9): Terraform's, with `, N to forget` before the full stop
    /// when it forgets anything (`["forget"]` and `["forget","create"]`).
    pub fn plan_line_opentofu(&self) -> String {
        let line = self.plan_line();
        match self.forget {
            0 => line,
            n => format!("{}, {n} to forget.", line.trim_end_matches('.')),
        }
    }

    pub fn is_empty(&self) -> bool {
        *self == Totals::default()
    }

    pub fn add_assign(&mut self, o: &Totals) {
        self.import += o.import;
        self.add += o.add;
        self.change += o.change;
        self.destroy += o.destroy;
        self.forget += o.forget;
    }
}

/// One resource change as the summary lists it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ResourceEntry {
    pub address: String,
    pub previous_address: Option<String>,
    pub module_address: Option<String>,
    pub mode: String,
    #[serde(rename = "type")]
    pub type_: String,
    pub name: String,
    pub index: Option<serde_json::Value>,
    pub provider_name: Option<String>,
    /// `create`, `update`, `delete`, `replace`, `read`, `no-op`, `forget`,
    /// `forget+create`, or an unknown list joined with `+`.
    pub action: String,
    /// The action list exactly as in the plan.
    pub actions: Vec<String>,
    pub replace_order: Option<ReplaceOrder>,
    /// The raw `action_reason` code.
    pub reason: Option<String>,
    /// The reason in words (the raw code when unknown).
    pub reason_words: Option<String>,
    pub deposed: Option<String>,
    pub moved: bool,
    pub importing: bool,
    pub import_id: Option<String>,
    /// Import by identity (Terraform 1.12+): `change.importing.identity` as written.
    pub import_identity: Option<serde_json::Value>,
    /// `change.importing.unknown` (Terraform 1.9+, deferred changes): the
    /// import's id is not known yet.
    pub import_unknown: bool,
    /// False for action lists this version does not recognise.
    pub recognised: bool,
    /// Terraform 1.10+: the instance key is not known yet (`index_unknown`:
    /// a deferred change of a resource whose `count`/`for_each` is unknown).
    pub index_unknown: bool,
    /// Entries of `deferred_changes` only: why Terraform deferred the change.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deferred_reason: Option<String>,
    /// With `--ignore-attr`: an update that only changes ignored attributes
    /// (present only when true).
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub noise: bool,
    /// Where the object is declared in the configuration, when it was read
    /// and holds it (set by the run: `crate::locate`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<crate::model::Location>,
}

pub(crate) use super::listed::Listed;
pub(crate) use super::listed::{group_rank, GROUPS};

/// One action invocation (Terraform 1.14+), deferred or not.
#[derive(Debug, Clone, Serialize)]
pub struct InvocationEntry {
    /// `action.aws_lambda_invoke.notify`
    pub address: String,
    #[serde(rename = "type")]
    pub type_: String,
    pub name: String,
    pub provider_name: Option<String>,
    /// What invokes it: `AfterCreate of aws_instance.web`, `apply -invoke`,
    /// `apply -invoke (called from aws_instance.web)`, or null.
    pub trigger: Option<String>,
    /// A lifecycle trigger's event as the plan names it (`BeforeCreate`,
    /// `AfterUpdate`, ..., or a name planview does not know, verbatim).
    pub event: Option<String>,
    /// The resource whose lifecycle triggers it.
    pub triggering_resource_address: Option<String>,
    /// `apply -invoke` (Terraform 1.16+): the resource it was called from.
    pub calling_resource_address: Option<String>,
    /// A lifecycle trigger's `on_failure` as written (`ActionOnFailureHalt`,
    /// `ActionOnFailureTaint`, `ActionOnFailureContinue`; Terraform 1.16+).
    pub on_failure: Option<String>,
    /// From `deferred_action_invocations`: why it was deferred (else null).
    pub deferred_reason: Option<String>,
}

impl InvocationEntry {
    pub fn of(a: &ActionInvocation<'_>) -> InvocationEntry {
        InvocationEntry {
            address: a.address.clone(),
            type_: a.type_.clone(),
            name: a.name.clone(),
            provider_name: a.provider_name.clone(),
            trigger: a.trigger_words(),
            event: a.lifecycle_action_trigger.as_ref().and_then(|t| t.action_trigger_event.clone()),
            triggering_resource_address: a.lifecycle_action_trigger.as_ref().and_then(|t| t.triggering_resource_address.clone()),
            calling_resource_address: a
                .invoke_action_trigger
                .as_ref()
                .and_then(|t| t.calling_resource_address.clone())
                .filter(|c| !c.is_empty()),
            on_failure: a.on_failure().map(str::to_string),
            deferred_reason: a.deferred_reason.clone(),
        }
    }
}

/// An output's change, without its value.
#[derive(Debug, Clone, Serialize)]
pub struct OutputChangeEntry {
    pub name: String,
    pub action: String,
    pub sensitive: bool,
    /// OpenTofu: the output's deprecation message, from the configuration
    /// (absent when none): a deprecated output that changes is worth a line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<String>,
    /// Its `output` block, when the configuration was read (set by the run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<crate::model::Location>,
}

/// Summary of a plan.
#[derive(Debug, Serialize)]
pub struct PlanSummary {
    pub kind: &'static str,
    /// The input as named on the command line, or `<stdin>`.
    pub file: String,
    pub format_version: String,
    pub terraform_version: Option<String>,
    pub errored: bool,
    pub applyable: Option<bool>,
    pub complete: Option<bool>,
    /// False when the plan changes nothing (the CLI's "No changes.").
    pub has_changes: bool,
    /// What the CLI prints for this plan, recomputed: its `Plan:` line, or the
    /// sentence it prints instead (`No changes. ...`, the output-only and
    /// refresh-only texts, `Planning failed. ...`).
    pub plan_line: String,
    /// The CLI's `Actions: N to invoke.` (null without invocations to run
    /// now); the CLI writes it at the end of its `Plan:` line, and so does
    /// `plan_line`.
    pub actions_line: Option<String>,
    /// True when the plan is incomplete: `complete` is false (`-target`, an
    /// errored plan) or something is deferred to a later plan.
    pub incomplete: bool,
    /// True when the plan reads as refresh-only (no `resource_changes` at all
    /// while the configuration declares resources, or drift).
    pub refresh_only: bool,
    pub totals: Totals,
    /// With `--ignore-attr`: how many of `totals.change` only change ignored
    /// attributes (each such entry of `resources` has `"noise": true`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub noise: Option<NoiseCount>,
    /// Every `resource_changes` entry (all modes) counted by kind.
    pub actions: BTreeMap<String, u64>,
    pub moved: u64,
    pub imported: u64,
    pub forgotten: u64,
    pub read: u64,
    pub deposed: u64,
    pub drift: u64,
    /// Entries whose action list this version does not recognise (not in `totals`).
    pub unrecognised: u64,
    /// `deferred_changes` entries (not in `totals`, as the CLI's line leaves them out).
    pub deferred: u64,
    /// Action invocations, deferred ones included.
    pub invocations: u64,
    /// Parts of the plan planview could not read (`deferred_changes[2]: why`).
    pub unreadable: Vec<String>,
    /// Check instances by status (zero-instance objects count as one), from
    /// `checks` or else `condition_results` (Terraform 1.2-1.4).
    pub checks: BTreeMap<String, u64>,
    /// The check instances that did not pass (any status but pass and
    /// unknown), each with its first problem line: named in the table and
    /// markdown (JSON has the counts; `checks --format json` the rest).
    #[serde(skip)]
    pub failing_checks: Vec<FailingCheck>,
    /// Output changes by action.
    pub output_changes: BTreeMap<String, u64>,
    pub outputs: Vec<OutputChangeEntry>,
    /// Every entry that is not a plain no-op (moves and imports stay listed).
    pub resources: Listed,
    /// Every `deferred_changes` entry, with its `deferred_reason`.
    pub deferred_changes: Vec<ResourceEntry>,
    /// Every `action_invocations` and `deferred_action_invocations` entry.
    pub action_invocations: Vec<InvocationEntry>,
    /// Every `resource_drift` entry (changes made outside of Terraform/OpenTofu).
    pub drifted: Listed,
}

/// One resource of a state.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StateResource {
    pub address: String,
    pub module: Option<String>,
    pub mode: String,
    #[serde(rename = "type")]
    pub type_: String,
    pub name: String,
    pub index: Option<serde_json::Value>,
    pub provider_name: Option<String>,
    pub tainted: bool,
    pub deposed: Option<String>,
}

impl StateResource {
    /// `r` as a state lists it, with the address of the module holding it.
    pub(crate) fn of(module: Option<&str>, r: &crate::model::ResourceValue<'_>) -> StateResource {
        StateResource {
            address: r.address.clone(),
            module: module.map(str::to_string),
            mode: r.mode.as_str().to_string(),
            type_: r.type_.clone(),
            name: r.name.clone(),
            index: r.index.clone(),
            provider_name: r.provider_name.clone(),
            tainted: r.tainted,
            deposed: r.deposed_key.clone(),
        }
    }
}

/// Counts over a state's resources.
#[derive(Debug, Default, Serialize)]
pub struct StateCounts {
    pub resources: u64,
    pub managed: u64,
    pub data: u64,
    pub tainted: u64,
    pub by_type: BTreeMap<String, u64>,
    /// `(root)` for the root module.
    pub by_module: BTreeMap<String, u64>,
}

/// Summary of a state.
#[derive(Debug, Serialize)]
pub struct StateSummary {
    pub kind: &'static str,
    /// The input as named on the command line, or `<stdin>`.
    pub file: String,
    pub format_version: String,
    pub terraform_version: Option<String>,
    pub counts: StateCounts,
    pub checks: BTreeMap<String, u64>,
    pub outputs: Vec<OutputReport>,
    pub resources: Vec<StateResource>,
}

/// Fixed keys that every `actions` object carries, even at zero.
pub(crate) const ACTION_KEYS: &[&str] = &["create", "update", "delete", "replace", "read", "no-op", "forget"];
/// Fixed keys that every `checks` object carries, even at zero.
pub(crate) const CHECK_KEYS: &[&str] = &["pass", "fail", "error", "unknown"];

impl PlanSummary {
    /// Mask the text taken from the input that the summary prints (import ids
    /// and identities, check messages, what could not be read), once every
    /// secret of the document is known: a streamed plan's secrets are only
    /// all known at its end. Addresses, names and types are public (Terraform
    /// refuses sensitive values as instance keys) and never masked.
    pub fn mask_inputs(&mut self, vis: &Visibility) {
        let mask = |e: &mut ResourceEntry| {
            if let Some(id) = &mut e.import_id {
                *id = vis.text(id).into_owned();
            }
            if let Some(v) = &mut e.import_identity {
                *v = vis.json(v);
            }
        };
        // Only imports carry text to mask: a spooled list without any is not read again.
        for list in [&mut self.resources, &mut self.drifted] {
            if list.imports {
                list.map_each(mask);
            }
        }
        self.deferred_changes.iter_mut().for_each(mask);
        for c in &mut self.failing_checks {
            c.problem = vis.text(&c.problem).into_owned();
        }
        for u in &mut self.unreadable {
            *u = vis.text(u).into_owned();
        }
    }
}

impl Summary {
    pub fn set_file(&mut self, name: &str) {
        match self {
            Summary::Plan(p) => p.file = name.to_string(),
            Summary::State(s) => s.file = name.to_string(),
        }
    }
}

pub fn summarize(doc: &Document<'_>, vis: &Visibility) -> Result<Summary, String> {
    match doc {
        Document::Plan(p) => {
            let mut s = summarize_plan(p);
            s.mask_inputs(vis);
            Ok(Summary::Plan(Box::new(s)))
        }
        Document::State(s) => summarize_state(s, vis).map(|s| Summary::State(Box::new(s))),
    }
}

/// The mode a change is counted and judged by. The address decides whether
/// it is a data source (its resource step is `data.TYPE.NAME`): a `mode` of
/// `"data"` on a managed resource's address (or on one that cannot be read)
/// is taken for `managed`, so that it cannot hide a destroy from the counts
/// and the gate.
pub(crate) fn mode_of(rc: &ResourceChange<'_>) -> Mode {
    mode_at(&rc.mode, &rc.address)
}

/// [`mode_of`] a change given its `mode` and address.
pub(crate) fn mode_at(mode: &Mode, address: &str) -> Mode {
    match mode {
        Mode::Data if !is_data_address(address) => Mode::Managed,
        m => m.clone(),
    }
}

/// Whether an address names a data source instance (`data.TYPE.NAME`, in any module).
fn is_data_address(address: &str) -> bool {
    crate::query::address::Address::parse(address).is_ok_and(|a| a.resource().kind.starts_with("data."))
}

/// Count one change into the CLI's totals.
pub(crate) fn count_totals(t: &mut Totals, rc: &ResourceChange<'_>) {
    t.count(&rc.mode, &rc.address, rc.change.importing.is_some(), &rc.kind());
}

impl Totals {
    /// Count one change (its `mode`, address, whether it imports, and its
    /// kind) as the CLI's `Plan:` line counts it.
    pub(crate) fn count(&mut self, mode: &Mode, address: &str, importing: bool, kind: &ChangeKind) {
        let t = self;
        // Managed resources only, as the CLI counts: data sources, and modes this
        // version does not know, count nowhere in the `Plan:` line.
        if mode_at(mode, address) != Mode::Managed {
            return;
        }
        if importing {
            t.import += 1;
        }
        match kind {
            ChangeKind::Create => t.add += 1,
            ChangeKind::Update => t.change += 1,
            ChangeKind::Delete => t.destroy += 1,
            ChangeKind::Replace(_) => {
                t.add += 1;
                t.destroy += 1;
            }
            ChangeKind::Forget => t.forget += 1,
            // A replacement whose old object is forgotten, not destroyed: both CLIs
            // count it "to add" and never "to destroy" (Terraform's `["create",
            // "forget"]`, OpenTofu's `["forget","create"]`); the object forgotten
            // is counted in `forget`, as OpenTofu's line counts it.
            ChangeKind::ForgetThenCreate | ChangeKind::CreateThenForget => {
                t.forget += 1;
                t.add += 1;
            }
            ChangeKind::NoOp | ChangeKind::Read | ChangeKind::Unknown(_) => {}
        }
    }
}

pub(crate) fn entry(rc: &ResourceChange<'_>) -> ResourceEntry {
    let kind = rc.kind();
    ResourceEntry {
        address: rc.address.clone(),
        previous_address: rc.previous_address.clone().filter(|p| *p != rc.address),
        module_address: rc.module_address.clone(),
        mode: rc.mode.as_str().to_string(),
        type_: rc.type_.clone(),
        name: rc.name.clone(),
        index: rc.index.clone(),
        provider_name: rc.provider_name.clone(),
        action: kind.key(),
        actions: rc.change.actions.iter().map(|a| a.as_str().to_string()).collect(),
        replace_order: kind.replace_order(),
        reason: rc.action_reason.as_ref().map(|r| r.code().to_string()),
        reason_words: rc.action_reason.as_ref().map(|r| r.words_for(&kind)),
        deposed: rc.deposed.clone(),
        moved: rc.is_move(),
        importing: rc.change.importing.is_some(),
        import_id: rc.change.importing.as_ref().and_then(|i| i.id.clone()),
        import_identity: rc.change.importing.as_ref().and_then(|i| i.identity_value()),
        import_unknown: rc.change.importing.as_ref().is_some_and(|i| i.unknown == Some(true)),
        recognised: !matches!(kind, ChangeKind::Unknown(_)),
        index_unknown: rc.index_unknown,
        deferred_reason: None,
        noise: false,
        location: None,
    }
}

/// Check instances by status, from `checks` (a state's, or a plan's without
/// `condition_results`); see [`Plan::check_results`] for plans.
/// A check instance that did not pass, as `summary` names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FailingCheck {
    pub address: String,
    pub status: String,
    /// The first line of its first problem message (empty when it has none).
    pub problem: String,
    /// Its check or condition block, when the configuration was read (set by the run).
    pub location: Option<crate::model::Location>,
}

/// The check instances that did not pass: every status but `pass` and
/// `unknown` (as `checks` and `gate --fail-on-checks` judge them).
pub(crate) fn failing_checks(items: &[crate::model::checks::CheckItem]) -> Vec<FailingCheck> {
    items
        .iter()
        .filter(|c| c.status != "pass" && c.status != "unknown")
        .map(|c| FailingCheck {
            address: c.address.clone(),
            status: c.status.clone(),
            problem: c.problems.first().and_then(|p| p.lines().next()).unwrap_or_default().to_string(),
            location: None,
        })
        .collect()
}

pub(crate) fn check_counts(checks: Option<&Vec<CheckObject>>) -> BTreeMap<String, u64> {
    crate::model::checks::count_by_status(&crate::model::checks::check_results(checks.map(|c| c.as_slice()), None).1)
}

pub(crate) fn summarize_plan(p: &Plan<'_>) -> PlanSummary {
    summarize_plan_with(p, &Noise::default())
}

/// [`summarize_plan`], updates that only change what `noise` ignores marked.
pub(crate) fn summarize_plan_with(p: &Plan<'_>, noise: &Noise) -> PlanSummary {
    let mut acc = PlanAccumulator::with_noise(noise.clone());
    crate::model::visit::visit_plan(p, &mut acc);
    acc.finish(p)
}

/// `summary` of a plan computed one piece at a time: a [`PlanVisitor`], so the
/// same code serves a plan read whole and one streamed from a pipe.
#[derive(Debug)]
pub(crate) struct PlanAccumulator {
    totals: Totals,
    actions: BTreeMap<String, u64>,
    moved: u64,
    imported: u64,
    forgotten: u64,
    read: u64,
    deposed: u64,
    drift: u64,
    unrecognised: u64,
    /// Entries the CLI lists under its actions (so that it prints a `Plan:` line).
    listed: u64,
    output_changes: BTreeMap<String, u64>,
    output_changed: bool,
    outputs: Vec<OutputChangeEntry>,
    resources: Listed,
    drifted: Listed,
    /// Whether the changes and drift are listed (`summary`), or only counted
    /// (the gate, which needs the `Plan:` line: memory that does not grow).
    listing: bool,
    /// Something only OpenTofu writes was seen (see [`opentofu_mark`]).
    opentofu: bool,
    /// `--ignore-attr`, and the updates found to be noise.
    noise: Noise,
    noise_count: Option<NoiseCount>,
}

/// True for what only OpenTofu writes in a change: the action list
/// `["forget","create"]` and the action reasons `delete_because_enabled_false`,
/// `forgot_because_lifecycle_destroy_in_state`/`_in_config`
/// (internal/command/jsonplan/plan.go, opentofu/opentofu f831fa1aa4b9).
fn opentofu_mark(rc: &ResourceChange<'_>) -> bool {
    rc.kind() == ChangeKind::ForgetThenCreate
        || rc.action_reason.as_ref().is_some_and(|r| {
            matches!(
                r.code(),
                "delete_because_enabled_false" | "forgot_because_lifecycle_destroy_in_state" | "forgot_because_lifecycle_destroy_in_config"
            )
        })
}

/// True when `p` reads as OpenTofu's: a change only OpenTofu writes
/// (`marked`), or no `applyable`/`complete` keys while `terraform_version`
/// is 1.8 or later (Terraform writes both keys since 1.8; OpenTofu's plan
/// struct has neither).
fn reads_as_opentofu(p: &Plan<'_>, marked: bool) -> bool {
    let version_1_8_or_later = p.terraform_version.as_deref().is_some_and(|v| {
        let mut it = v.split('.').map(|n| n.trim_start_matches('v').parse::<u64>().ok());
        matches!((it.next().flatten(), it.next().flatten()), (Some(major), Some(minor)) if (major, minor) >= (1, 8))
    });
    marked || (p.applyable.is_none() && p.complete.is_none() && version_1_8_or_later)
}

impl PlanAccumulator {
    /// An accumulator that counts and lists nothing: its summary's
    /// `resources` and `drifted` stay empty.
    pub(crate) fn counting() -> Self {
        PlanAccumulator { listing: false, ..Default::default() }
    }

    /// An accumulator that marks the updates `noise` makes noise.
    pub(crate) fn with_noise(noise: Noise) -> Self {
        PlanAccumulator { noise_count: noise.count(), noise, ..Default::default() }
    }

    /// This accumulator, its lists of changes and drift spooled from
    /// `spill_at` entries on ([`Listed`]; `None`: kept in memory).
    pub(crate) fn spooling(self, spill_at: Option<usize>) -> Self {
        PlanAccumulator { resources: Listed::spilling_at(spill_at), drifted: Listed::spilling_at(spill_at), ..self }
    }
}

impl Default for PlanAccumulator {
    fn default() -> Self {
        PlanAccumulator {
            totals: Totals::default(),
            actions: ACTION_KEYS.iter().map(|k| (k.to_string(), 0)).collect(),
            moved: 0,
            imported: 0,
            forgotten: 0,
            read: 0,
            deposed: 0,
            drift: 0,
            unrecognised: 0,
            listed: 0,
            output_changes: BTreeMap::new(),
            output_changed: false,
            outputs: Vec::new(),
            resources: Listed::default(),
            drifted: Listed::default(),
            listing: true,
            opentofu: false,
            noise: Noise::default(),
            noise_count: None,
        }
    }
}

/// Count under a fixed key without allocating when the key is already there.
fn bump(m: &mut BTreeMap<String, u64>, key: &str) {
    match m.get_mut(key) {
        Some(n) => *n += 1,
        None => {
            m.insert(key.to_string(), 1);
        }
    }
}

impl PlanVisitor for PlanAccumulator {
    fn on_resource_change(&mut self, rc: &ResourceChange<'_>) {
        count_totals(&mut self.totals, rc);
        self.opentofu |= opentofu_mark(rc);
        let kind = rc.kind();
        match &kind {
            ChangeKind::NoOp => bump(&mut self.actions, "no-op"),
            ChangeKind::Create => bump(&mut self.actions, "create"),
            ChangeKind::Update => bump(&mut self.actions, "update"),
            ChangeKind::Delete => bump(&mut self.actions, "delete"),
            ChangeKind::Replace(_) => bump(&mut self.actions, "replace"),
            ChangeKind::Read => bump(&mut self.actions, "read"),
            ChangeKind::Forget => bump(&mut self.actions, "forget"),
            other => bump(&mut self.actions, &other.key()),
        }
        let moved = rc.is_move();
        self.moved += u64::from(moved);
        let managed = mode_of(rc) == Mode::Managed;
        if rc.change.importing.is_some() && managed {
            self.imported += 1;
        }
        self.deposed += u64::from(rc.deposed.is_some());
        match kind {
            ChangeKind::Forget | ChangeKind::ForgetThenCreate | ChangeKind::CreateThenForget => self.forgotten += 1,
            ChangeKind::Read => self.read += 1,
            ChangeKind::Unknown(_) => self.unrecognised += 1,
            _ => {}
        }
        let plain_noop = kind == ChangeKind::NoOp && !moved && rc.change.importing.is_none();
        // The CLI lists every change but plain no-ops and deleted data sources.
        if !(plain_noop || kind == ChangeKind::Delete && !managed) {
            self.listed += 1;
        }
        let noise = kind == ChangeKind::Update && self.noise_count.is_some() && self.noise.is_noise(rc);
        if let Some(n) = self.noise_count.as_mut().filter(|_| noise) {
            n.count += 1;
        }
        if !plain_noop && self.listing {
            self.resources.push(ResourceEntry { noise, ..entry(rc) });
        }
    }

    fn on_drift(&mut self, rc: &ResourceChange<'_>) {
        self.drift += 1;
        if self.listing {
            self.drifted.push(entry(rc));
        }
    }

    fn on_output_change(&mut self, name: &str, ch: &Change<'_>) {
        let kind = ch.kind();
        let key = kind.key();
        bump(&mut self.output_changes, &key);
        self.output_changed |= !matches!(kind, ChangeKind::NoOp);
        self.outputs.push(OutputChangeEntry {
            name: name.to_string(),
            action: key,
            sensitive: crate::model::markers::raw_any(ch.before_sensitive) || crate::model::markers::raw_any(ch.after_sensitive),
            deprecated: None,
            location: None,
        });
    }
}

impl PlanAccumulator {
    /// The summary, once every piece of `p` (its header last) was seen.
    pub(crate) fn finish(mut self, p: &Plan<'_>) -> PlanSummary {
        let t = self.totals;
        // OpenTofu's `deprecated` on the root module's outputs (configuration).
        if !self.outputs.is_empty() {
            if let Ok(Some(c)) = p.configuration() {
                for o in &mut self.outputs {
                    o.deprecated = c.root_module.outputs.get(&o.name).and_then(|d| d.deprecated.clone());
                }
            }
        }
        let (deferred, mut unreadable) = p.deferred_changes();
        let (invocations, bad) = p.action_invocations();
        unreadable.extend(bad);
        let deferred_changes: Vec<ResourceEntry> =
            deferred.iter().map(|d| ResourceEntry { deferred_reason: Some(d.reason.clone()), ..entry(&d.resource_change) }).collect();
        let action_invocations: Vec<InvocationEntry> = invocations.iter().map(InvocationEntry::of).collect();
        let deferred_invocations = action_invocations.iter().any(|a| a.deferred_reason.is_some());
        // The CLI's `Actions: N to invoke.` counts `action_invocations` only
        // (internal/command/jsonformat/plan.go): deferred ones are not invoked.
        let to_invoke = action_invocations.iter().filter(|a| a.deferred_reason.is_none()).count();
        // Nothing in the JSON says "refresh-only" (REALITY); Terraform leaves
        // `resource_changes` out of such plans, while a normal plan of a
        // configuration with resources lists them (as no-ops at least).
        let refresh_only = !p.resource_changes_key
            && (self.drift > 0 || p.configuration().ok().flatten().is_some_and(|c| c.root_module.declares_managed()));
        let kind = PlanKind {
            listed: self.listed > 0 || !deferred_changes.is_empty() || !action_invocations.is_empty() || !unreadable.is_empty(),
            outputs: self.output_changed,
            errored: p.errored,
            refresh_only,
            drift: self.drift > 0,
            to_invoke,
            opentofu: reads_as_opentofu(p, self.opentofu),
        };
        PlanSummary {
            kind: "plan",
            file: String::new(),
            format_version: p.format_version.clone(),
            terraform_version: p.terraform_version.clone(),
            errored: p.errored,
            applyable: p.applyable,
            complete: p.complete,
            has_changes: !t.is_empty()
                || self.moved > 0
                || self.unrecognised > 0
                || self.output_changed
                || !deferred_changes.is_empty()
                || !action_invocations.is_empty()
                || !unreadable.is_empty(),
            plan_line: kind.line(&t),
            actions_line: (to_invoke > 0).then(|| format!("Actions: {to_invoke} to invoke.")),
            incomplete: p.complete == Some(false) || !deferred_changes.is_empty() || deferred_invocations,
            refresh_only,
            totals: t,
            noise: self.noise_count,
            actions: self.actions,
            moved: self.moved,
            imported: self.imported,
            forgotten: self.forgotten,
            read: self.read,
            deposed: self.deposed,
            drift: self.drift,
            unrecognised: self.unrecognised,
            deferred: deferred_changes.len() as u64,
            invocations: action_invocations.len() as u64,
            unreadable: unreadable.iter().map(|u| format!("{}: {}", u.at, u.why)).collect(),
            // The one reading of check results (`checks`, else `condition_results`),
            // from the header: whole or streamed, the same.
            checks: crate::model::checks::count_by_status(&p.check_results().1),
            failing_checks: failing_checks(&p.check_results().1),
            output_changes: self.output_changes,
            outputs: self.outputs,
            resources: self.resources,
            deferred_changes,
            action_invocations,
            drifted: self.drifted,
        }
    }
}

/// What decides the CLI's line for a plan (Terraform's human plan renderer).
struct PlanKind {
    /// The CLI lists at least one change (a `Plan:` line follows), or planview
    /// has deferred changes, invocations or unreadable parts to report.
    listed: bool,
    /// Some output changes.
    outputs: bool,
    errored: bool,
    refresh_only: bool,
    drift: bool,
    /// Action invocations the apply would run (deferred ones left out).
    to_invoke: usize,
    /// The plan reads as OpenTofu's: its line counts forgets.
    opentofu: bool,
}

impl PlanKind {
    /// The CLI's line for this plan: the `Plan:` line when it lists changes;
    /// else the output-only sentence; else, errored, `Planning failed.`; else
    /// the refresh-only texts; else `No changes.`.
    fn line(&self, t: &Totals) -> String {
        if self.listed {
            // Terraform ends the line with ` Actions: N to invoke.` when it
            // invokes actions (internal/command/jsonformat/plan.go).
            let line = if self.opentofu { t.plan_line_opentofu() } else { t.plan_line() };
            match self.to_invoke {
                0 => line,
                n => format!("{line} Actions: {n} to invoke."),
            }
        } else if self.outputs && self.refresh_only && self.drift && !self.errored {
            // The CLI prints both, in this order: what the drift means, then the outputs.
            "This is a refresh-only plan, so Terraform will not take any actions to undo these. If you were expecting these changes then you can apply this plan to record the updated values in the Terraform state without changing any remote objects. You can apply this plan to save these new output values to the Terraform state, without changing any real infrastructure.".into()
        } else if self.outputs {
            "You can apply this plan to save these new output values to the Terraform state, without changing any real infrastructure."
                .into()
        } else if self.errored {
            "Planning failed. Terraform encountered an error while generating this plan.".into()
        } else if self.refresh_only && self.drift {
            "This is a refresh-only plan, so Terraform will not take any actions to undo these. If you were expecting these changes then you can apply this plan to record the updated values in the Terraform state without changing any remote objects.".into()
        } else if self.refresh_only {
            "No changes. Your infrastructure still matches the configuration.".into()
        } else {
            "No changes. Your infrastructure matches the configuration.".into()
        }
    }
}

pub(crate) fn summarize_state(s: &StateDoc<'_>, vis: &Visibility) -> Result<StateSummary, String> {
    let mut counts = StateCounts::default();
    let mut resources = Vec::new();
    let mut outputs = Vec::new();
    if let Some(values) = &s.values {
        for (module, r) in values.root_module.walk() {
            counts.resources += 1;
            match r.mode {
                Mode::Managed => counts.managed += 1,
                Mode::Data => counts.data += 1,
                Mode::Other(_) => {}
            }
            if r.tainted {
                counts.tainted += 1;
            }
            *counts.by_type.entry(r.type_.clone()).or_default() += 1;
            *counts.by_module.entry(module.unwrap_or("(root)").to_string()).or_default() += 1;
            resources.push(StateResource::of(module, r));
        }
        for (name, o) in &values.outputs {
            outputs.push(OutputReport::from_output(name, o, vis)?);
        }
    }
    Ok(StateSummary {
        kind: "state",
        file: String::new(),
        format_version: s.format_version.clone(),
        terraform_version: s.terraform_version.clone(),
        counts,
        checks: check_counts(s.checks.as_ref()),
        outputs,
        resources,
    })
}

/// The sum over several plans' summaries (`total` in multi-file JSON output).
#[derive(Debug, Default, Serialize)]
pub(crate) struct SummaryTotal {
    pub files: u64,
    pub plans: u64,
    pub states: u64,
    pub failed: u64,
    pub errored: u64,
    pub totals: Totals,
    pub actions: BTreeMap<String, u64>,
    pub moved: u64,
    pub imported: u64,
    pub forgotten: u64,
    pub read: u64,
    pub deposed: u64,
    pub drift: u64,
    pub unrecognised: u64,
    pub deferred: u64,
    pub invocations: u64,
    /// Plans that are incomplete (see [`PlanSummary::incomplete`]).
    pub incomplete: u64,
    pub checks: BTreeMap<String, u64>,
    pub state_resources: u64,
    /// With `--ignore-attr`: the noise of every plan summed (absent otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub noise: Option<NoiseCount>,
}

pub(crate) fn sum(items: &[&Summary], failed: u64) -> SummaryTotal {
    let mut t = SummaryTotal {
        files: items.len() as u64 + failed,
        failed,
        actions: ACTION_KEYS.iter().map(|k| (k.to_string(), 0)).collect(),
        checks: CHECK_KEYS.iter().map(|k| (k.to_string(), 0)).collect(),
        ..Default::default()
    };
    for s in items {
        match s {
            Summary::Plan(p) => {
                t.plans += 1;
                t.errored += u64::from(p.errored);
                t.totals.add_assign(&p.totals);
                for (k, v) in &p.actions {
                    *t.actions.entry(k.clone()).or_default() += v;
                }
                t.moved += p.moved;
                t.imported += p.imported;
                t.forgotten += p.forgotten;
                t.read += p.read;
                t.deposed += p.deposed;
                t.drift += p.drift;
                t.unrecognised += p.unrecognised;
                t.deferred += p.deferred;
                t.invocations += p.invocations;
                t.incomplete += u64::from(p.incomplete);
                for (k, v) in &p.checks {
                    *t.checks.entry(k.clone()).or_default() += v;
                }
                if let Some(n) = &p.noise {
                    // One run's patterns: every plan has the same.
                    let sum = t.noise.get_or_insert_with(|| NoiseCount { count: 0, ignore_attributes: n.ignore_attributes.clone() });
                    sum.count += n.count;
                }
            }
            Summary::State(st) => {
                t.states += 1;
                t.state_resources += st.counts.resources;
                for (k, v) in &st.checks {
                    *t.checks.entry(k.clone()).or_default() += v;
                }
            }
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(json: &str) -> PlanSummary {
        let p: Plan = serde_json::from_str(json).unwrap();
        summarize_plan(&p)
    }

    #[test]
    fn totals_count_like_the_cli() {
        let s = plan(
            r#"{"format_version":"1.2","resource_changes":[
            {"address":"a.create","mode":"managed","change":{"actions":["create"]}},
            {"address":"a.upd","mode":"managed","change":{"actions":["update"]}},
            {"address":"a.del","mode":"managed","change":{"actions":["delete"]}},
            {"address":"a.r1","mode":"managed","change":{"actions":["delete","create"]},"action_reason":"replace_because_tainted"},
            {"address":"a.r2","mode":"managed","change":{"actions":["create","delete"]}},
            {"address":"a.dep","mode":"managed","deposed":"abcd","change":{"actions":["delete"]}},
            {"address":"data.x.y","mode":"data","change":{"actions":["read"]}},
            {"address":"data.x.gone","mode":"data","change":{"actions":["delete"]}},
            {"address":"a.imp","mode":"managed","change":{"actions":["no-op"],"importing":{"id":"i-1"}}},
            {"address":"a.mv","previous_address":"a.old","mode":"managed","change":{"actions":["no-op"]}},
            {"address":"a.fg","mode":"managed","change":{"actions":["forget"]}},
            {"address":"a.noop","mode":"managed","change":{"actions":["no-op"]}},
            {"address":"a.new","mode":"managed","change":{"actions":["create","teleport"]}}]}"#,
        );
        assert_eq!(s.totals, Totals { import: 1, add: 3, change: 1, destroy: 4, forget: 1 });
        assert_eq!(s.plan_line, "Plan: 1 to import, 3 to add, 1 to change, 4 to destroy.");
        assert_eq!(s.actions["replace"], 2);
        assert_eq!(s.actions["delete"], 3);
        assert_eq!(s.actions["no-op"], 3);
        assert_eq!(s.actions["create+teleport"], 1);
        assert_eq!((s.moved, s.imported, s.forgotten, s.read, s.deposed, s.unrecognised), (1, 1, 1, 1, 1, 1));
        // plain no-op is not listed; move and import no-ops are
        assert!(!s.resources.iter().any(|r| r.address == "a.noop"));
        assert!(s.resources.iter().any(|r| r.address == "a.mv" && r.moved));
        assert!(s.resources.iter().any(|r| r.address == "a.imp" && r.import_id.as_deref() == Some("i-1")));
    }

    #[test]
    fn import_by_identity_keeps_the_identity() {
        let s = plan(
            r#"{"format_version":"1.2","resource_changes":[
            {"address":"a.b","mode":"managed","change":{"actions":["no-op"],"importing":{"identity":{"account_id":"1","name":"x"}}}}]}"#,
        );
        assert_eq!(s.resources[0].import_identity, Some(serde_json::json!({"account_id": "1", "name": "x"})));
        assert_eq!(s.totals.import, 1);
    }

    #[test]
    fn unknown_mode_counts_nowhere_in_the_plan_line() {
        // Found by fuzzing: an import of a resource whose mode is neither
        // managed nor data was counted in "N to import".
        let s = plan(
            r#"{"format_version":"1.2","resource_changes":[
            {"address":"a.b","mode":"ephemeral","change":{"actions":["create"],"importing":{"id":"x"}}},
            {"address":"a.c","mode":"managed","change":{"actions":["create"]}}]}"#,
        );
        assert_eq!(s.totals, Totals { add: 1, ..Default::default() });
        assert_eq!(s.imported, 0);
        assert_eq!(s.actions["create"], 2, "still listed and counted by kind");
    }

    #[test]
    fn plan_line_without_import_or_forget() {
        let t = Totals { add: 2, change: 0, destroy: 1, ..Default::default() };
        assert_eq!(t.plan_line(), "Plan: 2 to add, 0 to change, 1 to destroy.");
    }

    /// The gate's accumulator counts as `summary`'s does and lists nothing
    /// (its memory does not grow with the plan).
    #[test]
    fn a_counting_accumulator_gives_the_same_line_and_lists_nothing() {
        let json = r#"{"format_version":"1.2","resource_changes":[
            {"address":"a.b","mode":"managed","type":"a","name":"b","change":{"actions":["create"]}},
            {"address":"a.c","mode":"managed","type":"a","name":"c","change":{"actions":["delete","create"]}}],
            "resource_drift":[{"address":"a.d","mode":"managed","type":"a","name":"d","change":{"actions":["update"]}}]}"#;
        let p: Plan = serde_json::from_str(json).unwrap();
        let feed = |mut acc: PlanAccumulator| {
            p.resource_changes.iter().for_each(|rc| acc.on_resource_change(rc));
            p.resource_drift.iter().for_each(|rc| acc.on_drift(rc));
            acc.finish(&p)
        };
        let (listing, counting) = (feed(PlanAccumulator::default()), feed(PlanAccumulator::counting()));
        assert_eq!(counting.plan_line, listing.plan_line);
        assert_eq!((counting.totals.add, counting.totals.destroy, counting.drift), (2, 1, 1));
        assert_eq!((listing.resources.len(), listing.drifted.len()), (2, 1));
        assert!(counting.resources.is_empty() && counting.drifted.is_empty());
    }

    #[test]
    fn condition_results_are_counted_whole_and_streamed() {
        let json = r#"{"format_version":"1.1","condition_results":[
            {"address":"a.b","condition_type":"ResourcePrecondition","result":false,"unknown":false},
            {"address":"a.c","condition_type":"ResourcePrecondition","result":true,"unknown":false},
            {"address":"a.d","condition_type":"ResourcePrecondition","result":false,"unknown":true}]}"#;
        let whole = plan(json);
        assert_eq!((whole.checks["fail"], whole.checks["pass"], whole.checks["unknown"]), (1, 1, 1));
        let opts = crate::read::ReadOptions::default();
        let (streamed, _) = crate::run::streamed::summary_streamed(
            "t",
            std::io::Cursor::new(json.as_bytes().to_vec()),
            crate::read::ReadAhead::Joined,
            &opts,
            &crate::query::values::Visibility::default(),
        )
        .unwrap();
        let Summary::Plan(streamed) = streamed else { panic!("not a plan") };
        assert_eq!(streamed.checks, whole.checks);
    }

    #[test]
    fn checks_counted_per_instance_with_placeholders() {
        let s = plan(
            r#"{"format_version":"1.2","checks":[
            {"address":{"kind":"resource","to_display":"a.b"},"status":"fail","instances":[
              {"address":{"to_display":"a.b[0]"},"status":"fail","problems":[{"message":"x"}]},
              {"address":{"to_display":"a.b[1]"},"status":"pass"}]},
            {"address":{"kind":"check","to_display":"check.c"},"status":"unknown"}]}"#,
        );
        assert_eq!(s.checks["fail"], 1);
        assert_eq!(s.checks["pass"], 1);
        assert_eq!(s.checks["unknown"], 1);
        assert_eq!(s.checks["error"], 0);
    }
}
