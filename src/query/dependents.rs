//! Blast radius: for each change, the other changes of the plan whose configuration refers to it.
//!
//! Built from the plan's `configuration`: the `references` of every expression (nested blocks,
//! `count`/`for_each`, provisioners), `depends_on`, module call arguments mapped to the child's
//! variables, and the child's outputs to their expressions, across module boundaries and
//! transitively. The graph is one of configuration objects (module paths without instance keys,
//! as Terraform's own graph): a reference to `aws_instance.vm` covers every instance, one to
//! `aws_instance.vm[0]` only that instance (on the first step). A dependent is listed only when it
//! changes in the plan, and the walk goes on through a resource only when it changes too (a
//! resource the plan leaves alone passes nothing on). Cycles do not loop: each object is visited
//! once per change.
//!
//! `locals` are not in the plan's `configuration` (Terraform leaves them out). Their references are
//! given by the caller ([`Locals`], read from the configuration's source) when it has them;
//! otherwise a reference to a local counts as a reference to everything its module declares
//! (never fewer dependents than the truth), and the report says so once.
//!
//! Use: [`of_plan`] on a whole plan; or collect [`Changes`] as the plan streams by (it is a
//! [`PlanVisitor`]) and then [`Dependents::compute`] with the configuration; or [`Builder::new`],
//! [`Builder::change`] for every resource change (and [`Builder::output`]), [`Builder::finish`].

use crate::model::config::ModuleConfig;
use crate::model::visit::PlanVisitor;
use crate::model::{Change, ChangeKind, Configuration, Mode, Plan, ResourceChange};
use refs::{parse_reference, references_in, unknown_attributes, Ref};
use serde::Serialize;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

/// By module path (`""` for the root, `module.a.module.b` below it, no
/// instance keys) and name: the references a local's expression makes, as the
/// plan's `references` lists write them (`aws_instance.a[0].id`).
pub(crate) type LocalRefs = BTreeMap<(String, String), Vec<String>>;

/// The references of each local value, read from the configuration's source
/// (`locals` blocks: [`crate::locate::SourceMap::locals`]), known now or read
/// on first use ([`Locals::later`]: the source is read while the plan is, and
/// waited for only when a plan's dependents are computed). A local not in
/// them (its module's source was not read, or does not declare it: not the
/// plan's configuration) is guessed; none at all (nothing read): all guessed.
#[derive(Default)]
pub struct Locals {
    refs: std::sync::OnceLock<Option<LocalRefs>>,
    later: std::sync::Mutex<Option<LocalsReader>>,
}

/// What reads the locals on first use.
type LocalsReader = Box<dyn FnOnce() -> Option<LocalRefs> + Send>;

impl std::fmt::Debug for Locals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Locals").field("refs", &self.refs.get()).finish_non_exhaustive()
    }
}

impl Locals {
    /// Locals known now.
    pub fn known(refs: LocalRefs) -> Locals {
        Locals { refs: std::sync::OnceLock::from(Some(refs)), later: std::sync::Mutex::new(None) }
    }

    /// Locals read by `read` when first asked for (`None` from it: none read).
    pub fn later(read: impl FnOnce() -> Option<LocalRefs> + Send + 'static) -> Locals {
        Locals { refs: std::sync::OnceLock::new(), later: std::sync::Mutex::new(Some(Box::new(read))) }
    }

    /// The locals of the configuration read from its source (none read: `None`).
    pub fn of_source(map: &crate::locate::SourceMap) -> Option<LocalRefs> {
        (!map.is_empty()).then(|| map.locals())
    }

    /// The references of each local, reading them now if they are read later;
    /// `None` when none could be read.
    pub fn refs(&self) -> Option<&LocalRefs> {
        self.refs
            .get_or_init(|| {
                let read = self.later.lock().ok().and_then(|mut r| r.take());
                read.and_then(|read| read())
            })
            .as_ref()
    }
}

/// The blast radius of every change of a plan.
#[derive(Debug, Default, Clone, Serialize)]
pub struct Dependents {
    /// The plan has a `configuration`. Without one (a state, an HCP redacted
    /// plan) there are no dependents, and [`Dependents::notes`] says so once.
    pub configured: bool,
    /// Things to say once (no configuration; locals guessed).
    pub notes: Vec<String>,
    /// Each change but no-ops, by address: what changes with it.
    pub changes: BTreeMap<String, Blast>,
}

/// What one change drags along.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize)]
pub struct Blast {
    /// Other resource changes whose configuration refers to this one (directly
    /// or through variables, locals, module inputs and outputs), by address.
    pub dependents: Vec<Dependent>,
    /// Root module outputs that refer to it and change (names).
    pub outputs: Vec<String>,
}

/// One dependent change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Dependent {
    /// Its address.
    pub address: String,
    /// Its top-level attributes whose expressions lead to the change and that
    /// the plan says become unknown (known after apply).
    pub unknown: Vec<String>,
    /// Reached only through a local the plan's configuration leaves out (a
    /// guess: it may not depend on the change at all). Counted by the gate's
    /// `max_blast`, told apart everywhere else.
    pub through_locals: bool,
}

impl Dependents {
    /// The dependents of the change at `address` (empty when none or unknown).
    pub fn of(&self, address: &str) -> &[Dependent] {
        self.changes.get(address).map_or(&[], |b| &b.dependents)
    }

    /// Every edge (change, dependent), in address order: for graphs.
    #[cfg(any(test, feature = "testkit"))]
    pub fn edges(&self) -> impl Iterator<Item = (&str, &str)> {
        self.changes.iter().flat_map(|(a, b)| b.dependents.iter().map(move |d| (a.as_str(), d.address.as_str())))
    }
}

/// The note said once when a plan has no configuration.
pub(crate) const NO_CONFIGURATION: &str = "the plan has no configuration (a state or a redacted plan): dependents are not known";

/// The note said once when locals had to be guessed.
pub(crate) const LOCALS_GUESSED: &str = "the plan's configuration leaves out locals: a reference to a local counts as one to everything its module declares (give the configuration's source to follow locals exactly)";

/// The dependents of every change of a whole plan. An unreadable
/// configuration is an error (the plan is broken), no configuration is not.
#[cfg(test)]
pub(crate) fn of_plan(plan: &Plan<'_>, locals: Option<&Locals>) -> serde_json::Result<Dependents> {
    let config = plan.configuration()?;
    let mut b = Builder::new(config.as_ref(), locals);
    for rc in &plan.resource_changes {
        b.change(rc);
    }
    for (name, ch) in &plan.output_changes {
        b.output(name, ch);
    }
    Ok(b.finish())
}

/// The blast radius of `changes` (collected from `plan`, or as it streamed by)
/// in `plan`'s configuration. A configuration that cannot be read gives no
/// dependents and says why once: never an error, never a partial answer.
pub(crate) fn for_plan(plan: &Plan<'_>, locals: Option<&Locals>, changes: &Changes) -> Dependents {
    for_plan_of(plan, locals, changes, None)
}

/// [`for_plan`] for the changes at `wanted` only (`None`: every change);
/// the changes are then read twice from their spool, and memory holds the
/// graph and the answer, not every change.
pub(crate) fn for_plan_of(
    plan: &Plan<'_>,
    locals: Option<&Locals>,
    changes: &Changes,
    wanted: Option<&std::collections::HashSet<&str>>,
) -> Dependents {
    for_plan_wanted(plan, locals, changes, wanted.map_or(Wanted::Every, Wanted::Only))
}

/// Which changes' blast radius [`Builder::finish_with`] works out.
#[derive(Clone, Copy)]
enum Wanted<'w, 's> {
    /// Every change's (the changes read into memory).
    Every,
    /// Those at these addresses (the changes read twice from their spool).
    Only(&'w std::collections::HashSet<&'s str>),
    /// Every change that has a dependent, the others left out (read twice:
    /// memory holds the graph and the answer, not every change).
    WithDependents,
}

/// [`for_plan`] of the changes `wanted` names.
fn for_plan_wanted(plan: &Plan<'_>, locals: Option<&Locals>, changes: &Changes, wanted: Wanted<'_, '_>) -> Dependents {
    let compute = |config: Option<&Configuration<'_>>| Builder::new(config, locals).finish_with(changes, wanted);
    match plan.configuration() {
        Ok(config) => compute(config.as_ref()),
        Err(e) => {
            let mut d = compute(None);
            d.notes = vec![format!("the plan's configuration cannot be read ({e}): dependents are not known")];
            d
        }
    }
}

impl Changes {
    /// Every change of a whole plan.
    pub fn of_plan(plan: &Plan<'_>) -> Changes {
        let mut c = Changes::default();
        plan.resource_changes.iter().for_each(|rc| c.change(rc));
        plan.output_changes.iter().for_each(|(n, ch)| c.output(n, ch));
        c
    }
}

/// A destructive change (deleted or replaced) and what it drags along.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlastLine {
    pub address: String,
    /// Its action key (`delete`, `replace`).
    pub action: String,
    /// Its certain dependents.
    pub dependents: Vec<String>,
    /// Those reached only through locals the plan leaves out ([`Dependent::through_locals`]).
    pub through_locals: Vec<String>,
}

/// The blast radius of the destructive changes, as a plan streams by (a
/// [`PlanVisitor`]: the changes, then the header with the configuration);
/// for the gate's `max_blast` and the PR comment. Off, it takes nothing.
#[derive(Debug, Default)]
pub(crate) struct Blaster {
    changes: Changes,
    /// The locals of the configuration's source, when read.
    locals: Option<std::sync::Arc<Locals>>,
    destructive: Vec<(String, String)>,
    dependents: Option<Dependents>,
}

impl Blaster {
    /// A blaster that collects when `on` (else takes nothing, costs nothing);
    /// `locals` when the configuration's source was read.
    pub(crate) fn when(on: bool, locals: Option<std::sync::Arc<Locals>>) -> Blaster {
        Blaster { changes: Changes::when(on), locals, ..Blaster::default() }
    }

    /// Every change's dependents, the changes without any left out (none
    /// before the header was seen or when off); taken: [`Blaster::lines`]
    /// and [`Blaster::over`] are empty after it.
    pub(crate) fn take(&mut self) -> Option<Dependents> {
        let mut d = self.dependents.take()?;
        d.changes.retain(|_, b| !b.dependents.is_empty());
        Some(d)
    }

    /// The destructive changes, each with its dependents (in plan order);
    /// empty before the header was seen or when off.
    pub(crate) fn lines(&self) -> Vec<BlastLine> {
        let Some(d) = &self.dependents else { return Vec::new() };
        self.destructive
            .iter()
            .map(|(address, action)| {
                let (maybe, sure): (Vec<&Dependent>, Vec<&Dependent>) = d.of(address).iter().partition(|x| x.through_locals);
                BlastLine {
                    address: address.clone(),
                    action: action.clone(),
                    dependents: sure.into_iter().map(|x| x.address.clone()).collect(),
                    through_locals: maybe.into_iter().map(|x| x.address.clone()).collect(),
                }
            })
            .collect()
    }

    /// The `max_blast` rule: `(address, action, reason)` of each destructive
    /// change with more than `limit` dependents that change; without a
    /// configuration the gate cannot judge, so each destructive change fails.
    pub(crate) fn over(&self, limit: u64) -> Vec<(Option<String>, String, String)> {
        let configured = self.dependents.as_ref().is_some_and(|d| d.configured);
        let mut out = Vec::new();
        for line in self.lines() {
            // A guess counts: the gate never passes what it cannot rule out.
            let n = (line.dependents.len() + line.through_locals.len()) as u64;
            if !configured {
                let why = self.dependents.as_ref().and_then(|d| d.notes.first().cloned()).unwrap_or_else(|| NO_CONFIGURATION.into());
                out.push((Some(line.address), line.action, format!("its blast radius cannot be judged: {why}")));
            } else if n > limit {
                let named: Vec<&str> = line.dependents.iter().chain(&line.through_locals).map(String::as_str).take(5).collect();
                let more = if n > 5 { format!(" and {} more", n - 5) } else { String::new() };
                let verb = if line.action == "delete" { "destroying" } else { "replacing" };
                let guessed = match line.through_locals.len() {
                    0 => String::new(),
                    m => format!(" ({m} of them through locals the plan leaves out)"),
                };
                let reason =
                    format!("{verb} it also changes {n} objects{guessed}, more than the {limit} allowed: {}{more}", named.join(", "));
                out.push((Some(line.address), line.action, reason));
            }
        }
        out
    }
}

impl PlanVisitor for Blaster {
    fn on_resource_change(&mut self, rc: &ResourceChange<'_>) {
        if self.changes.off {
            return;
        }
        self.changes.change(rc);
        let kind = rc.kind();
        if rc.deposed.is_none() && matches!(kind, ChangeKind::Delete | ChangeKind::Replace(_)) {
            self.destructive.push((rc.address.clone(), kind.key()));
        }
    }

    fn on_output_change(&mut self, name: &str, change: &Change<'_>) {
        self.changes.output(name, change);
    }

    fn on_header(&mut self, plan: &Plan<'_>) {
        if !self.changes.off {
            // Only the changes that have dependents are kept ([`Blaster::take`] drops the others).
            let changes = std::mem::take(&mut self.changes);
            self.dependents = Some(for_plan_wanted(plan, self.locals.as_deref(), &changes, Wanted::WithDependents));
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Kind {
    Resource,
    Var,
    Local,
    Output,
    /// `module.NAME` as a whole (a reference or `depends_on` naming the call).
    ModuleAll,
    /// What every object of a module depends on (its call's `count`,
    /// `for_each`, `depends_on`).
    ModuleIn,
    /// What a guessed local depends on: everything its module declares.
    LocalsOf,
}

type Node = u32;

/// What an expression names: each node, and the instance key it names.
type Targets = Vec<(Node, Option<Key>)>;

/// A reference's instance key: a count index or a for_each key.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
enum Key {
    Int(u64),
    Str(String),
}

/// One change, reduced to what the blast radius needs.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
struct Rec {
    address: String,
    /// Module path without keys, and `[data.]TYPE.NAME`.
    module: String,
    name: String,
    key: Option<Key>,
    /// Top-level attributes the plan says become unknown.
    unknown: Vec<String>,
}

/// The changes of a plan reduced to what the blast radius needs, collected
/// as they stream by (a [`PlanVisitor`]) or from a whole plan: a few small
/// strings per change, never its values. Past [`SPOOL_AT`] changes they are
/// spooled ([`crate::spool::Records`]) so that memory does not grow with the
/// plan: [`for_plan_of`] of a few changes reads them back twice and holds
/// only the answer; [`Dependents::compute`] (every change's blast radius)
/// reads them back into memory.
#[derive(Debug, Default)]
pub struct Changes {
    recs: Vec<Rec>,
    spooled: Option<crate::spool::Records<Rec>>,
    /// Why the spool failed (the blast radius is then not known).
    failed: Option<String>,
    outputs: Vec<String>,
    /// Takes nothing (a run that does not show dependents pays nothing).
    off: bool,
}

/// Changes are spooled from this many on (a few MB in memory before).
const SPOOL_AT: usize = 16_384;

impl Changes {
    /// Take one resource change (no-ops and deposed objects are left out:
    /// nothing refers to an old object on its way out).
    pub fn change(&mut self, rc: &ResourceChange<'_>) {
        if self.off || rc.kind() == ChangeKind::NoOp || rc.deposed.is_some() {
            return;
        }
        let key = match &rc.index {
            Some(serde_json::Value::Number(n)) => n.as_u64().map(Key::Int),
            Some(serde_json::Value::String(s)) => Some(Key::Str(s.clone())),
            _ => None,
        };
        self.push(Rec {
            address: rc.address.clone(),
            module: module_of(&rc.address, rc.module_address.as_deref()),
            name: resource_name(&rc.mode, &rc.type_, &rc.name),
            key,
            unknown: rc.change.after_unknown.map(|raw| unknown_attributes(raw.get())).unwrap_or_default(),
        });
    }

    fn push(&mut self, rec: Rec) {
        let spooled = match &mut self.spooled {
            Some(s) => s.push(&rec),
            None => {
                self.recs.push(rec);
                if self.recs.len() < SPOOL_AT {
                    return;
                }
                let mut s = crate::spool::Records::default();
                let r = self.recs.drain(..).try_for_each(|r| s.push(&r));
                self.recs = Vec::new();
                self.spooled = Some(s);
                r
            }
        };
        if let Err(e) = spooled {
            self.failed.get_or_insert_with(|| format!("the changes cannot be spooled to a temporary file ({e}): dependents are not known"));
        }
    }

    /// Each change in plan order (`false` from `f` stops).
    fn each(&self, mut f: impl FnMut(&Rec)) -> std::io::Result<()> {
        match &self.spooled {
            Some(s) => s.each(|r| {
                f(&r);
                Ok(())
            }),
            None => {
                self.recs.iter().for_each(f);
                Ok(())
            }
        }
    }

    /// Every change in memory (read back from the spool).
    fn loaded(&self) -> std::io::Result<Cow<'_, [Rec]>> {
        match &self.spooled {
            None => Ok(Cow::Borrowed(&self.recs)),
            Some(s) => {
                let mut all = Vec::with_capacity(s.len());
                s.each(|r| {
                    all.push(r);
                    Ok(())
                })?;
                Ok(Cow::Owned(all))
            }
        }
    }

    /// Take one root output change.
    pub fn output(&mut self, name: &str, change: &Change<'_>) {
        if !self.off && change.kind() != ChangeKind::NoOp {
            self.outputs.push(name.to_string());
        }
    }
}

impl Changes {
    /// A collector that takes nothing, when `on` is false.
    pub fn when(on: bool) -> Changes {
        Changes { off: !on, ..Changes::default() }
    }
}

impl PlanVisitor for Changes {
    fn on_resource_change(&mut self, rc: &ResourceChange<'_>) {
        self.change(rc);
    }

    fn on_output_change(&mut self, name: &str, change: &Change<'_>) {
        self.output(name, change);
    }
}

impl Dependents {
    /// The blast radius of `changes` in `config` (none: no dependents, said once).
    #[cfg(any(test, feature = "testkit"))]
    pub fn compute(config: Option<&Configuration<'_>>, locals: Option<&Locals>, changes: &Changes) -> Dependents {
        Builder::new(config, locals).finish_with(changes, Wanted::Every)
    }
}

/// What a walk reaches ([`Builder::walk_nodes`]): each changing resource
/// with the attributes that lead there and whether only guessed locals do;
/// the root outputs.
type Reached<'g> = (Vec<(Node, Vec<&'g str>, bool)>, Vec<String>);

/// Nodes of one module and kind, by name (each name stored once: a lookup allocates nothing).
type Names = HashMap<Box<str>, Node>;

/// Builds the graph from a configuration, takes the changes, then answers.
pub struct Builder {
    /// By module and kind, each node by name.
    ids: HashMap<(u32, Kind), Names>,
    modules: HashMap<Box<str>, u32>,
    /// A module's calls, by name: the child module's id.
    children: HashMap<u32, HashMap<Box<str>, u32>>,
    paths: Vec<String>,
    /// The locals each module's references name (until the module is walked).
    module_locals: HashMap<u32, Vec<String>>,
    /// The locals named anywhere, not yet resolved (by [`Builder::locals`]).
    locals_seen: Vec<(u32, String)>,
    /// target -> (referrer, instance key the reference names)
    rev: Vec<Vec<(Node, Option<Key>)>>,
    kinds: Vec<Kind>,
    /// A root output's node -> its name.
    root_outputs: HashMap<Node, String>,
    /// A resource node -> each top-level attribute and the targets it names.
    attrs: HashMap<Node, Vec<(Box<str>, Targets)>>,
    configured: bool,
    guessed_locals: bool,
    /// The changes taken one by one ([`Builder::change`]).
    #[cfg(any(test, feature = "testkit"))]
    changes: Changes,
    /// By node: indices (in plan order) of a resource's changing instances
    /// (every change's blast radius), or of its first only (some changes').
    changing: Vec<Vec<u32>>,
    changing_outputs: Vec<Node>,
}

impl Builder {
    /// The graph of `config` (none: no dependents); `locals` when the
    /// configuration's source was read.
    pub fn new(config: Option<&Configuration<'_>>, locals: Option<&Locals>) -> Builder {
        let mut b = Builder::of(config);
        b.locals(locals);
        b
    }

    /// The graph of `config` with its locals not yet resolved: then
    /// [`Builder::locals`] (the configuration's source may be read later than
    /// the plan's configuration; the graph holds no borrow of the plan).
    pub fn of(config: Option<&Configuration<'_>>) -> Builder {
        let mut b = Builder {
            ids: HashMap::new(),
            modules: HashMap::new(),
            children: HashMap::new(),
            paths: Vec::new(),
            module_locals: HashMap::new(),
            locals_seen: Vec::new(),
            rev: Vec::new(),
            kinds: Vec::new(),
            root_outputs: HashMap::new(),
            attrs: HashMap::new(),
            configured: config.is_some(),
            guessed_locals: false,
            #[cfg(any(test, feature = "testkit"))]
            changes: Changes::default(),
            changing: Vec::new(),
            changing_outputs: Vec::new(),
        };
        if let Some(c) = config {
            let mut locals_seen = Vec::new();
            b.module(String::new(), &c.root_module, &mut locals_seen);
            b.locals_seen = locals_seen;
        }
        b
    }

    /// Resolve the locals the configuration names: exact from `locals` (the
    /// source) for the modules it read, else guessed (everything the module
    /// declares). Called once, by [`Builder::new`] or before [`Builder::finish`].
    pub fn locals(&mut self, locals: Option<&Locals>) {
        let mut locals_seen = std::mem::take(&mut self.locals_seen);
        let mut done = std::collections::HashSet::new();
        while let Some((m, name)) = locals_seen.pop() {
            if !done.insert((m, name.clone())) {
                continue;
            }
            let local = self.node(m, Kind::Local, &name);
            let path = self.module_path(m).to_string();
            match locals.and_then(Locals::refs).and_then(|l| l.get(&(path, name))) {
                Some(refs) => {
                    for (t, k) in self.targets(m, refs) {
                        self.edge(t, local, k);
                    }
                    // A local naming another local: follow that one too.
                    for (m2, names) in self.module_locals.drain() {
                        locals_seen.extend(names.into_iter().map(|n| (m2, n)));
                    }
                }
                None => {
                    self.guessed_locals = true;
                    let all = self.node(m, Kind::LocalsOf, "");
                    self.edge(all, local, None);
                }
            }
        }
    }

    fn module_id(&mut self, path: &str) -> u32 {
        if let Some(id) = self.modules.get(path) {
            return *id;
        }
        let id = self.paths.len() as u32;
        self.paths.push(path.to_string());
        self.modules.insert(path.into(), id);
        id
    }

    fn module_path(&self, id: u32) -> &str {
        &self.paths[id as usize]
    }

    /// The module call `call` below module `m`.
    fn child(&mut self, m: u32, call: &str) -> u32 {
        if let Some(id) = self.children.get(&m).and_then(|c| c.get(call)) {
            return *id;
        }
        let path = self.module_path(m);
        let child = if path.is_empty() { format!("module.{call}") } else { format!("{path}.module.{call}") };
        let id = self.module_id(&child);
        self.children.entry(m).or_default().insert(call.into(), id);
        id
    }

    fn node(&mut self, module: u32, kind: Kind, name: &str) -> Node {
        let names = self.ids.entry((module, kind)).or_default();
        if let Some(n) = names.get(name) {
            return *n;
        }
        let n = self.rev.len() as Node;
        names.insert(name.into(), n);
        self.rev.push(Vec::new());
        self.kinds.push(kind);
        n
    }

    /// The node, if the configuration has it.
    fn lookup(&self, module: &str, kind: Kind, name: &str) -> Option<Node> {
        let m = self.modules.get(module)?;
        self.ids.get(&(*m, kind))?.get(name).copied()
    }

    /// `referrer` refers to `target` (so depends on it).
    fn edge(&mut self, target: Node, referrer: Node, key: Option<Key>) {
        if target != referrer || key.is_some() {
            self.rev[target as usize].push((referrer, key));
        }
    }

    /// Walk one module: returns the nodes it declares (for its `ModuleIn`,
    /// `ModuleAll` and guessed locals).
    fn module(&mut self, path: String, m: &ModuleConfig<'_>, locals_seen: &mut Vec<(u32, String)>) -> Vec<Node> {
        let id = self.module_id(&path);
        let inn = self.node(id, Kind::ModuleIn, "");
        let mut declared = Vec::new();
        let mut refs: Vec<Cow<'_, str>> = Vec::new();
        for r in &m.resources {
            let name = resource_name(&r.mode, &r.type_, &r.name);
            let node = self.node(id, Kind::Resource, &name);
            declared.push(node);
            let mut resolved = Vec::with_capacity(r.expressions.0.len());
            for (attr, raw) in &r.expressions.0 {
                refs.clear();
                references_in(raw, &mut refs);
                let t = self.targets(id, &refs);
                for (t, k) in &t {
                    self.edge(*t, node, k.clone());
                }
                resolved.push((attr.as_str().into(), t));
            }
            for e in [&r.count_expression, &r.for_each_expression].into_iter().flatten() {
                for (t, k) in self.targets(id, &e.references) {
                    self.edge(t, node, k);
                }
            }
            for p in &r.provisioners {
                for raw in p.expressions.0.values() {
                    refs.clear();
                    references_in(raw, &mut refs);
                    for (t, k) in self.targets(id, &refs) {
                        self.edge(t, node, k);
                    }
                }
            }
            for (t, k) in self.targets(id, &r.depends_on) {
                self.edge(t, node, k);
            }
            self.attrs.insert(node, resolved);
            self.edge(inn, node, None);
        }
        for name in m.variables.keys() {
            declared.push(self.node(id, Kind::Var, name));
        }
        for (name, o) in &m.outputs {
            let node = self.node(id, Kind::Output, name);
            if path.is_empty() {
                self.root_outputs.insert(node, name.clone());
            }
            for list in [&o.expression.references, &o.depends_on] {
                for (t, k) in self.targets(id, list) {
                    self.edge(t, node, k);
                }
            }
        }
        for (call, c) in &m.module_calls {
            let cid = self.child(id, call);
            // Arguments feed the child's variables.
            for (arg, raw) in &c.expressions.0 {
                refs.clear();
                references_in(raw, &mut refs);
                let var = self.node(cid, Kind::Var, arg);
                for (t, k) in self.targets(id, &refs) {
                    self.edge(t, var, k);
                }
            }
            // count, for_each and depends_on reach every object of the child.
            let child_in = self.node(cid, Kind::ModuleIn, "");
            for list in [
                Some(&c.depends_on),
                c.count_expression.as_ref().map(|e| &e.references),
                c.for_each_expression.as_ref().map(|e| &e.references),
            ]
            .into_iter()
            .flatten()
            {
                for (t, k) in self.targets(id, list) {
                    self.edge(t, child_in, k);
                }
            }
            let child = self.module_path(cid).to_string();
            let inner = self.module(child, &c.module, locals_seen);
            // The child's ModuleIn reaches its resources (added there); a
            // grandchild's ModuleIn hangs off the child's.
            let all = self.node(cid, Kind::ModuleAll, "");
            for n in inner {
                self.edge(n, all, None);
            }
            for name in c.module.outputs.keys() {
                let out = self.node(cid, Kind::Output, name);
                declared.push(out);
            }
            // Nested module calls: the parent's ModuleIn reaches the child's.
            self.edge(inn, child_in, None);
        }
        // Locals named anywhere in this module, and what a guessed one reaches.
        let mut local_names = self.module_locals.remove(&id).unwrap_or_default();
        local_names.sort();
        local_names.dedup();
        if !local_names.is_empty() {
            let all = self.node(id, Kind::LocalsOf, "");
            for &n in &declared {
                self.edge(n, all, None);
            }
            for name in local_names {
                locals_seen.push((id, name));
            }
        }
        // Everything this module declares, children included, for a parent's ModuleAll.
        let mut everything = declared;
        for call in m.module_calls.keys() {
            let cid = self.child(id, call);
            everything.push(self.node(cid, Kind::ModuleAll, ""));
        }
        everything
    }

    /// The nodes `refs` (one or more expressions' references, as the plan
    /// lists them) name in module `m`. Terraform lists each reference whole,
    /// then each shorter form of it (`t.a[0].id`, `t.a[0]`, `t.a`): an entry
    /// that the one before it extends is implied by it and dropped.
    fn targets<S: AsRef<str>>(&mut self, m: u32, refs: &[S]) -> Targets {
        let mut out = Vec::new();
        let mut before: &str = "";
        for r in refs {
            let r = r.as_ref();
            let implied = before.len() > r.len() && before.starts_with(r) && matches!(before.as_bytes()[r.len()], b'.' | b'[');
            before = r;
            if implied {
                continue;
            }
            let Some(parsed) = parse_reference(r) else { continue };
            let node = match parsed {
                Ref::Var(n) => self.node(m, Kind::Var, n),
                Ref::Local(n) => {
                    self.module_locals.entry(m).or_default().push(n.to_string());
                    self.node(m, Kind::Local, n)
                }
                Ref::Resource(n, key) => {
                    let node = self.node(m, Kind::Resource, n);
                    out.push((node, key));
                    continue;
                }
                Ref::ModuleOutput(call, out_name) => {
                    let cid = self.child(m, call);
                    self.node(cid, Kind::Output, out_name)
                }
                Ref::Module(call) => {
                    let cid = self.child(m, call);
                    self.node(cid, Kind::ModuleAll, "")
                }
            };
            out.push((node, None));
        }
        out
    }

    /// Take one resource change (no-ops are left out).
    #[cfg(any(test, feature = "testkit"))]
    pub fn change(&mut self, rc: &ResourceChange<'_>) {
        self.changes.change(rc);
    }

    /// Take one root output change.
    #[cfg(any(test, feature = "testkit"))]
    pub fn output(&mut self, name: &str, change: &Change<'_>) {
        self.changes.output(name, change);
    }

    /// The report (locals not yet resolved are guessed).
    #[cfg(any(test, feature = "testkit"))]
    pub fn finish(mut self) -> Dependents {
        let changes = std::mem::take(&mut self.changes);
        self.finish_with(&changes, Wanted::Every)
    }

    /// The report on `changes`: every change's blast radius, or only those
    /// of the changes at `wanted` (the others have no entry). Changes that
    /// could not be spooled or read back make no answer: no dependents, not
    /// configured (a gate cannot judge), and the note says why.
    fn finish_with(mut self, changes: &Changes, wanted: Wanted<'_, '_>) -> Dependents {
        if !self.locals_seen.is_empty() {
            self.locals(None);
        }
        for name in &changes.outputs {
            if let Some(n) = self.lookup("", Kind::Output, name) {
                self.changing_outputs.push(n);
            }
        }
        let mut notes = Vec::new();
        if !self.configured {
            notes.push(NO_CONFIGURATION.to_string());
        } else if self.guessed_locals {
            notes.push(LOCALS_GUESSED.to_string());
        }
        let blasts = match wanted {
            Wanted::Every => self.blast_all(changes),
            Wanted::Only(_) | Wanted::WithDependents => self.blast_of(changes, wanted),
        };
        let failed = changes.failed.clone().or_else(|| {
            blasts.as_ref().err().map(|e| format!("the changes cannot be read back from their spool ({e}): dependents are not known"))
        });
        match (failed, blasts) {
            (None, Ok(changes)) => Dependents { configured: self.configured, notes, changes },
            (why, _) => Dependents { configured: false, notes: why.into_iter().collect(), changes: BTreeMap::new() },
        }
    }

    /// Every change's blast radius (the changes read into memory).
    fn blast_all(&mut self, changes: &Changes) -> std::io::Result<BTreeMap<String, Blast>> {
        let recs = changes.loaded()?;
        let mut nodes = Vec::with_capacity(recs.len());
        self.changing = vec![Vec::new(); self.rev.len()];
        for (i, rec) in recs.iter().enumerate() {
            let node = self.lookup(&rec.module, Kind::Resource, &rec.name);
            if let Some(n) = node {
                self.changing[n as usize].push(i as u32);
            }
            nodes.push(node);
        }
        let mut changes = BTreeMap::new();
        let mut seen = vec![0u32; self.rev.len()];
        let mut stamp = 0u32;
        let mut memo: HashMap<(Node, Option<Key>), Blast> = HashMap::new();
        for (rec, node) in recs.iter().zip(nodes) {
            let blast = match node {
                None => Blast::default(),
                Some(start) => {
                    let mkey = (start, self.memo_key(start, rec.key.as_ref()));
                    let mut blast = match memo.get(&mkey) {
                        Some(b) => b.clone(),
                        None => {
                            let b = self.walk(&recs, start, rec.key.as_ref(), &mut seen, &mut stamp);
                            memo.insert(mkey, b.clone());
                            b
                        }
                    };
                    blast.dependents.retain(|d| d.address != rec.address);
                    blast
                }
            };
            changes.insert(rec.address.clone(), blast);
        }
        Ok(changes)
    }

    /// Only a first step that names an instance key depends on it: the key
    /// a walk from `start` depends on.
    fn memo_key(&self, start: Node, key: Option<&Key>) -> Option<Key> {
        let keyed = self.rev[start as usize].iter().any(|(_, k)| k.is_some());
        if keyed {
            key.cloned()
        } else {
            None
        }
    }

    /// The blast radius of the changes `wanted` names, the changes read
    /// twice: first which resources change (and the wanted changes' nodes),
    /// then, once the walks know which resources each reaches, the
    /// dependents' addresses. What is held is the graph and the answer (and
    /// a node and key per wanted change). [`Wanted::WithDependents`] leaves
    /// out the changes without a dependent.
    fn blast_of(&mut self, changes: &Changes, wanted: Wanted<'_, '_>) -> std::io::Result<BTreeMap<String, Blast>> {
        // 1. Which resources change (one instance each is enough to know),
        //    and the wanted changes, by their place in plan order.
        let mut changing = vec![Vec::new(); self.rev.len()];
        let mut starts: Vec<(u32, Option<Node>, Option<Key>)> = Vec::new();
        let mut i = 0u32;
        changes.each(|rec| {
            let node = self.lookup(&rec.module, Kind::Resource, &rec.name);
            if let Some(n) = node {
                if changing[n as usize].is_empty() {
                    changing[n as usize].push(i);
                }
            }
            let wants = match wanted {
                Wanted::Only(set) => set.contains(rec.address.as_str()),
                // A change the configuration does not have has no dependents.
                Wanted::Every | Wanted::WithDependents => node.is_some(),
            };
            if wants {
                starts.push((i, node, rec.key.clone()));
            }
            i += 1;
        })?;
        self.changing = changing;
        // 2. The walks (one per start node and key it depends on).
        let mut seen = vec![0u32; self.rev.len()];
        let mut stamp = 0u32;
        let mut memo: HashMap<(Node, Option<Key>), usize> = HashMap::new();
        let mut walks: Vec<Reached<'_>> = Vec::new();
        let mut walk_of: Vec<Option<usize>> = Vec::with_capacity(starts.len());
        for (_, node, key) in &starts {
            walk_of.push(node.map(|start| {
                *memo.entry((start, self.memo_key(start, key.as_ref()))).or_insert_with(|| {
                    walks.push(self.walk_nodes(start, key.as_ref(), &mut seen, &mut stamp));
                    walks.len() - 1
                })
            }));
        }
        // Which walks reach each resource, and where in their order.
        let mut hits: HashMap<Node, Vec<(usize, usize)>> = HashMap::new();
        for (w, (reached, _)) in walks.iter().enumerate() {
            for (pos, (n, _, _)) in reached.iter().enumerate() {
                hits.entry(*n).or_default().push((w, pos));
            }
        }
        // 3. The dependents, as [`Builder::walk`] orders them: by address,
        //    then by the walk's order of resources, then in plan order; and
        //    the address of each wanted change that has an entry (one whose
        //    walk reaches no resource has no dependent).
        let keep_empty = matches!(wanted, Wanted::Only(_));
        let mut addresses: Vec<Option<String>> = vec![None; starts.len()];
        let mut next = 0;
        let mut found: Vec<Vec<(Dependent, usize, u32)>> = vec![Vec::new(); walks.len()];
        let mut i = 0u32;
        changes.each(|rec| {
            let node = self.lookup(&rec.module, Kind::Resource, &rec.name);
            if let Some(hs) = node.and_then(|n| hits.get(&n)) {
                for &(w, pos) in hs {
                    let (_, linked, through_locals) = &walks[w].0[pos];
                    let unknown = rec.unknown.iter().filter(|u| linked.contains(&u.as_str())).cloned().collect();
                    found[w].push((Dependent { address: rec.address.clone(), unknown, through_locals: *through_locals }, pos, i));
                }
            }
            if starts.get(next).is_some_and(|s| s.0 == i) {
                if keep_empty || walk_of[next].is_some_and(|w| !walks[w].0.is_empty()) {
                    addresses[next] = Some(rec.address.clone());
                }
                next += 1;
            }
            i += 1;
        })?;
        for f in &mut found {
            f.sort_by(|a, b| a.0.address.cmp(&b.0.address).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        }
        let mut out = BTreeMap::new();
        for (w, address) in walk_of.into_iter().zip(addresses) {
            let Some(address) = address else { continue };
            let blast = match w {
                None => Blast::default(),
                Some(w) => Blast {
                    dependents: found[w].iter().filter(|(d, _, _)| d.address != address).map(|(d, _, _)| d.clone()).collect(),
                    outputs: walks[w].1.clone(),
                },
            };
            if keep_empty || !blast.dependents.is_empty() {
                out.insert(address, blast);
            }
        }
        Ok(out)
    }

    /// The changing resources reached from `start` (stamping `seen`); through
    /// guessed locals only when `guess`.
    fn reach(&self, start: Node, key: Option<&Key>, seen: &mut [u32], stamp: u32, guess: bool) -> Vec<Node> {
        let mut stack = Vec::new();
        seen[start as usize] = stamp;
        for (r, k) in &self.rev[start as usize] {
            if (k.is_none() || k.as_ref() == key) && seen[*r as usize] != stamp {
                seen[*r as usize] = stamp;
                stack.push(*r);
            }
        }
        let mut reached = Vec::new();
        while let Some(n) = stack.pop() {
            match self.kinds[n as usize] {
                Kind::Resource if self.changing[n as usize].is_empty() => continue, // unchanged: passes nothing on
                Kind::Resource => reached.push(n),
                Kind::LocalsOf if !guess => continue,
                _ => {}
            }
            for (r, _) in &self.rev[n as usize] {
                if seen[*r as usize] != stamp {
                    seen[*r as usize] = stamp;
                    stack.push(*r);
                }
            }
        }
        reached
    }

    /// The blast radius of `start` (instance `key`) among `recs`.
    fn walk(&self, recs: &[Rec], start: Node, key: Option<&Key>, seen: &mut [u32], stamp: &mut u32) -> Blast {
        let (reached, outputs) = self.walk_nodes(start, key, seen, stamp);
        let mut dependents = Vec::new();
        for (n, linked, through_locals) in reached {
            for &i in &self.changing[n as usize] {
                let rec = &recs[i as usize];
                let unknown = rec.unknown.iter().filter(|u| linked.contains(&u.as_str())).cloned().collect();
                dependents.push(Dependent { address: rec.address.clone(), unknown, through_locals });
            }
        }
        dependents.sort_by(|a, b| a.address.cmp(&b.address));
        Blast { dependents, outputs }
    }

    /// The changing resources `start` (instance `key`) reaches, other than
    /// itself, in the order reached, each with its top-level attributes that
    /// lead to the change and whether only guessed locals lead there (a first
    /// pass without them says which are certain); and the root outputs it
    /// reaches, sorted.
    fn walk_nodes(&self, start: Node, key: Option<&Key>, seen: &mut [u32], stamp: &mut u32) -> Reached<'_> {
        let certain: std::collections::HashSet<Node> = if self.guessed_locals {
            *stamp += 1;
            self.reach(start, key, seen, *stamp, false).into_iter().collect()
        } else {
            std::collections::HashSet::new()
        };
        *stamp += 1;
        let stamp = *stamp;
        let reached = self.reach(start, key, seen, stamp, true);
        let mut out = Vec::new();
        for n in reached {
            if n == start {
                continue;
            }
            let linked: Vec<&str> = self.attrs.get(&n).map_or(Vec::new(), |attrs| {
                attrs
                    .iter()
                    .filter(|(_, ts)| {
                        ts.iter().any(|(t, k)| {
                            if *t == start {
                                k.is_none() || k.as_ref() == key
                            } else {
                                seen[*t as usize] == stamp && self.passes(*t)
                            }
                        })
                    })
                    .map(|(a, _)| &**a)
                    .collect()
            });
            out.push((n, linked, self.guessed_locals && !certain.contains(&n)));
        }
        let mut outputs: Vec<String> = self
            .changing_outputs
            .iter()
            .filter(|n| seen[**n as usize] == stamp)
            .filter_map(|n| self.root_outputs.get(n).cloned())
            .collect();
        outputs.sort();
        (out, outputs)
    }

    /// A visited node passes the change on (an unchanged resource does not).
    fn passes(&self, n: Node) -> bool {
        self.kinds[n as usize] != Kind::Resource || !self.changing[n as usize].is_empty()
    }
}

/// `TYPE.NAME`, `data.TYPE.NAME` or `MODE.TYPE.NAME`.
fn resource_name(mode: &Mode, type_: &str, name: &str) -> String {
    match mode {
        Mode::Managed => format!("{type_}.{name}"),
        Mode::Data => format!("data.{type_}.{name}"),
        Mode::Other(m) => format!("{m}.{type_}.{name}"),
    }
}

/// The module path of a change, without instance keys (`module.a.module.b`).
fn module_of(address: &str, module_address: Option<&str>) -> String {
    if let Ok(a) = super::address::Address::parse(address) {
        let steps = &a.steps[..a.steps.len() - 1];
        return steps.iter().map(|s| format!("module.{}", s.name)).collect::<Vec<_>>().join(".");
    }
    // Unparseable: strip `[...]` from the module address as written.
    let Some(m) = module_address else { return String::new() };
    let mut out = String::new();
    let mut depth = 0usize;
    let mut in_str = false;
    let mut esc = false;
    for c in m.chars() {
        match (depth, in_str, c) {
            (_, true, '\\') if !esc => esc = true,
            (_, true, '"') if !esc => in_str = false,
            (_, true, _) => esc = false,
            (_, false, '"') => in_str = true,
            (_, false, '[') => depth += 1,
            (d, false, ']') if d > 0 => depth -= 1,
            (0, false, c) => out.push(c),
            _ => {}
        }
    }
    out
}

mod refs;
#[cfg(test)]
mod tests;
