//! `show`: the attribute-level changes of each resource (and output) of a plan,
//! as a structural diff tree per change.
//!
//! Only the changes that pass the filter have their before/after values parsed.

use crate::filter::Filter;
#[cfg(any(test, feature = "testkit"))]
use crate::model::Document;
use crate::model::{Change, ChangeKind, PathStep, Plan, ResourceChange};
use crate::query::diff::{self, DiffOptions, FlatChange, Marks, Node};
use crate::query::schema::{self, Block, Schemas};
use crate::query::values::{parse_raw, Visibility};
use serde_json::Value;
use std::collections::BTreeSet;
use std::sync::Arc;

pub(crate) mod actions;
pub(crate) mod blocks;
pub(crate) mod collect;

/// What to show.
#[derive(Debug, Clone, Default)]
pub struct ShowOptions {
    pub filter: Filter,
    /// Show no-op changes too (`--all`).
    pub all: bool,
    /// Show unchanged attributes (`--full`).
    pub full: bool,
    /// The provider schemas (`--schemas`, or fetched where a saved plan was
    /// planned): with its type's schema, a change reads as the CLI shows it.
    pub schemas: Option<Arc<Schemas>>,
    /// `--schemas FILE`: read by the runner into `schemas`.
    pub schemas_file: Option<std::path::PathBuf>,
}

/// The report of one plan.
#[derive(Debug)]
pub(crate) struct ShowReport {
    pub file: String,
    pub format_version: String,
    pub terraform_version: Option<String>,
    pub errored: bool,
    pub resources: Vec<ResourceDiff>,
    pub outputs: Vec<OutputDiff>,
    /// No-op changes left out (without `--all`).
    pub hidden_noop: usize,
    /// Changes left out by the filters.
    pub filtered_out: usize,
    /// Action invocations (Terraform 1.14+) to render with the resources
    /// that trigger them, or after them (`apply -invoke`).
    pub invocations: Vec<actions::InvocationDiff>,
    /// The provider resource types shown without their schema whose values
    /// hold lists or objects (nested blocks and sets then show as JSON values).
    pub without_schema: BTreeSet<String>,
    /// Each change's blast radius (`show --format json`'s `dependents`);
    /// empty unless the run asked for it.
    pub dependents: crate::query::dependents::Dependents,
}

/// One resource change.
#[derive(Debug)]
pub(crate) struct ResourceDiff {
    pub address: String,
    pub previous_address: Option<String>,
    pub mode: String,
    pub type_: String,
    pub kind: ChangeKind,
    pub actions: Vec<String>,
    pub reason: Option<String>,
    pub reason_words: Option<String>,
    pub deposed: Option<String>,
    pub importing: bool,
    pub import_id: Option<String>,
    /// Import by identity (Terraform 1.12+), in words: `identity {name = "x"}`.
    pub import_identity: Option<String>,
    pub generated_config: bool,
    pub root: Node,
    /// Changed leaves with their paths (for JSON).
    pub changes: Vec<FlatChange>,
    /// Unchanged identifying attributes shown in `root` (`id`, `name`,
    /// `tags`), no longer counted in its hidden attributes.
    pub identifying: usize,
}

impl ResourceDiff {
    pub(crate) fn moved(&self) -> bool {
        self.previous_address.as_ref().is_some_and(|p| *p != self.address)
    }
}

/// One output change.
#[derive(Debug)]
pub(crate) struct OutputDiff {
    pub name: String,
    /// The widest output name of the plan (the CLI aligns `=` over all of them).
    pub width: usize,
    pub kind: ChangeKind,
    pub root: Node,
    pub changes: Vec<FlatChange>,
}

/// The built-in resource type whose schema the CLI ships: `input`, `output`
/// and `triggers_replace` hold values of any type.
pub(crate) const TERRAFORM_DATA: &str = "terraform_data";

/// Why `show` refuses a state.
pub(crate) const NOT_A_PLAN: &str =
    "this is a state, not a plan: `show` reads a saved plan's `show -json` (try `planview summary` for a state)";

/// Build the report of a plan; a state is refused.
#[cfg(any(test, feature = "testkit"))]
pub(crate) fn show(doc: &Document<'_>, opts: &ShowOptions, vis: &Visibility) -> Result<ShowReport, String> {
    let plan = match doc {
        Document::Plan(p) => p,
        Document::State(_) => return Err(NOT_A_PLAN.into()),
    };
    Ok(show_plan(plan, opts, vis))
}

/// True when a change is listed without `--all`: every action but no-op, and
/// no-ops that move or import (the CLI lists those too).
pub(crate) fn listed_by_default(rc: &ResourceChange<'_>) -> bool {
    rc.kind() != ChangeKind::NoOp || rc.is_move() || rc.change.importing.is_some()
}

/// What `show` does with one resource change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pick {
    /// Shown ([`resource_diff`]).
    Shown,
    /// Left out by the filters (counted in `filtered_out`).
    FilteredOut,
    /// A no-op left out without `--all` (counted in `hidden_noop`).
    HiddenNoop,
}

/// Whether `rc` is shown, decided from its address, type, module and actions
/// alone (its values are not looked at).
pub(crate) fn pick(rc: &ResourceChange<'_>, opts: &ShowOptions) -> Pick {
    if !opts.filter.matches_change(rc) {
        return Pick::FilteredOut;
    }
    // `--action no-op` asks for no-ops: it implies `--all` for them.
    let noop_asked = opts.filter.actions.iter().any(|a| a == "no-op");
    if !opts.all && !noop_asked && !listed_by_default(rc) {
        return Pick::HiddenNoop;
    }
    Pick::Shown
}

/// The report of a plan without its resources: its header, its output
/// changes, and the no-op outputs left out (in `hidden_noop`). Counting and
/// adding the resources is the caller's ([`pick`], [`resource_diff`]).
pub(crate) fn report_head(plan: &Plan<'_>, opts: &ShowOptions, vis: &Visibility) -> ShowReport {
    let mut hidden_noop = 0;
    // Outputs are listed unless the filters pick resources.
    let f = &opts.filter;
    let outputs_wanted = f.addresses.is_empty() && f.types.is_empty() && f.modules.is_empty();
    let mut outputs = Vec::new();
    if outputs_wanted {
        let width = plan.output_changes.keys().map(|k| diff::key_width(k)).max().unwrap_or(0);
        for (name, ch) in &plan.output_changes {
            let kind = ch.kind();
            if !f.action_ok(&kind.key(), false, false) {
                continue;
            }
            if kind == ChangeKind::NoOp && !opts.all && !f.actions.iter().any(|a| a == "no-op") {
                hidden_noop += 1;
                continue;
            }
            let (root, changes, _) = diff_change(ch, opts, vis, None, None);
            outputs.push(OutputDiff { name: name.clone(), width, kind, root, changes });
        }
    }
    ShowReport {
        file: String::new(),
        format_version: plan.format_version.clone(),
        terraform_version: plan.terraform_version.clone(),
        errored: plan.errored,
        resources: Vec::new(),
        outputs,
        hidden_noop,
        filtered_out: 0,
        // Invocations go with their resources; `apply -invoke`'s, like
        // outputs, only when the filters pick no resources.
        invocations: actions::invocations(plan, vis)
            .into_iter()
            .filter(|i| outputs_wanted && f.actions.is_empty() || matches!(i.trigger, actions::Trigger::Lifecycle { .. }))
            .collect(),
        without_schema: BTreeSet::new(),
        dependents: Default::default(),
    }
}

/// The schema of `rc`'s type, when the schemas have it.
pub(crate) fn schema_of<'s>(rc: &ResourceChange<'_>, opts: &'s ShowOptions) -> Option<&'s Block> {
    opts.schemas.as_deref()?.block(rc.provider_name.as_deref(), rc.mode.as_str() == "data", &rc.type_)
}

/// True when `rc` (shown) is a provider's resource without its schema whose
/// values hold lists or objects: they may be nested blocks or sets, which
/// only the schema tells (the built-in provider's types, terraform_data's
/// and terraform_remote_state's, are shown as the CLI shows them anyway).
pub(crate) fn lacks_schema(rc: &ResourceChange<'_>, opts: &ShowOptions) -> bool {
    let nested = |r: Option<&crate::model::RawValue>| {
        r.is_some_and(|r| {
            let t = r.get().trim();
            t.len() > 2 && memchr::memchr2(b'[', b'{', &t.as_bytes()[1..t.len() - 1]).is_some()
        })
    };
    let builtin = rc.type_ == TERRAFORM_DATA || rc.provider_name.as_deref().is_some_and(|p| p.starts_with("terraform.io/builtin/"));
    !builtin && (nested(rc.change.before) || nested(rc.change.after)) && schema_of(rc, opts).is_none()
}

/// The warning a run without the schemas it needs prints once (stderr).
pub(crate) fn without_schema_note(types: &BTreeSet<String>) -> String {
    let mut names: Vec<&str> = types.iter().map(String::as_str).take(3).collect();
    if types.len() > 3 {
        names.push("...");
    }
    format!(
        "no provider schema for {}: nested blocks and sets are shown as JSON values (give `terraform providers schema -json` with --schemas FILE, or a saved plan with --chdir DIR)",
        names.join(", ")
    )
}

pub(crate) fn show_plan(plan: &Plan<'_>, opts: &ShowOptions, vis: &Visibility) -> ShowReport {
    let mut report = report_head(plan, opts, vis);
    let changes = crate::query::dependents::Changes::of_plan(plan);
    report.dependents = crate::query::dependents::for_plan(plan, None, &changes);
    for rc in &plan.resource_changes {
        match pick(rc, opts) {
            Pick::FilteredOut => report.filtered_out += 1,
            Pick::HiddenNoop => report.hidden_noop += 1,
            Pick::Shown => {
                if lacks_schema(rc, opts) {
                    report.without_schema.insert(rc.type_.clone());
                }
                report.resources.push(resource_diff(rc, opts, vis))
            }
        }
    }
    report
}

/// The diff of one resource change that [`pick`] shows.
pub(crate) fn resource_diff(rc: &ResourceChange<'_>, opts: &ShowOptions, vis: &Visibility) -> ResourceDiff {
    let (root, changes, identifying) = diff_change(&rc.change, opts, vis, Some(&rc.type_), schema_of(rc, opts));
    ResourceDiff {
        address: rc.address.clone(),
        previous_address: rc.previous_address.clone(),
        mode: rc.mode.as_str().to_string(),
        type_: rc.type_.clone(),
        kind: rc.kind(),
        actions: rc.change.actions.iter().map(|a| a.as_str().to_string()).collect(),
        reason: rc.action_reason.as_ref().map(|r| r.code().to_string()),
        reason_words: rc.action_reason.as_ref().map(|r| r.words_for(&rc.kind())),
        deposed: rc.deposed.clone(),
        importing: rc.change.importing.is_some(),
        import_id: rc.change.importing.as_ref().and_then(|i| i.id.as_deref()).map(|id| vis.text(id).into_owned()),
        import_identity: rc
            .change
            .importing
            .as_ref()
            .and_then(|i| i.identity_value())
            .map(|v| crate::model::plan::identity_words(&vis.json(&v))),
        generated_config: rc.change.generated_config.as_ref().is_some_and(|g| !g.is_empty()),
        root,
        changes,
        identifying,
    }
}

/// Parse one change's values and markers (only now) and diff them; for a
/// resource (`identifying`), its identifying attributes are shown as the CLI
/// shows them ([`diff::show_identifying`]; their number is the third value).
///
/// A forget leaves the object as it is (only the state lets go of it), so its
/// before is shown as unchanged, as the CLI does.
fn diff_change(
    ch: &Change<'_>,
    opts: &ShowOptions,
    vis: &Visibility,
    resource_type: Option<&str>,
    schema: Option<&Block>,
) -> (Node, Vec<FlatChange>, usize) {
    let identifying = resource_type.is_some();
    // terraform_data's attributes are values of any type (its schema is
    // built in): its lists are lists. Any other resource's lists of objects
    // may be sets or nested blocks.
    let objects_by_content = resource_type.is_some_and(|t| t != TERRAFORM_DATA);
    let forget = ch.kind() == ChangeKind::Forget;
    let before = parse_raw(ch.before);
    let after = if forget { before.clone() } else { parse_raw(ch.after) };
    let bs = parse_raw(ch.before_sensitive);
    let as_ = parse_raw(ch.after_sensitive);
    let au = parse_raw(ch.after_unknown);
    // An unreadable marker fails closed: everything is treated as sensitive.
    let fail_closed = |raw: Option<&crate::model::RawValue>, parsed: Option<Value>| match (raw, parsed) {
        (Some(_), None) => Some(Value::Bool(true)),
        (_, p) => p,
    };
    let bs = fail_closed(ch.before_sensitive, bs);
    let au = if forget { None } else { au };
    let as_ = if forget { bs.clone() } else { fail_closed(ch.after_sensitive, as_) };
    // What the schema declares sensitive is masked too, as the CLI masks it.
    let (bs, as_) = match schema {
        Some(b) => (schema::mark_sensitive(b, before.as_ref(), bs), schema::mark_sensitive(b, after.as_ref(), as_)),
        None => (bs, as_),
    };
    let marks = Marks { before_sensitive: bs.as_ref(), after_sensitive: as_.as_ref(), after_unknown: au.as_ref() };
    let replace_paths: &[Vec<PathStep>] = &ch.replace_paths;
    let dopts = DiffOptions { vis, full: opts.full, replace_paths, block_root: identifying, objects_by_content, legacy: false };
    if let Some(block) = schema {
        // The CLI's block differ: everything the schema tells.
        let legacy = DiffOptions { legacy: true, objects_by_content: false, ..dopts };
        let mut root = blocks::block_node(before.as_ref(), after.as_ref(), marks, block, &legacy, &mut Vec::new());
        let mut changes = diff::flatten(&root, before.as_ref(), after.as_ref(), vis);
        diff::mask_keys(&mut root, &mut changes, vis);
        // The identifying attributes shown unchanged (`id`, `name`, `tags`).
        let shown = match &root.kind {
            diff::Kind::Block(b) => b.attributes.iter().filter(|e| e.node.op == diff::Op::Same).count(),
            _ => 0,
        };
        return (root, changes, shown);
    }
    let mut root = diff::diff(before.as_ref(), after.as_ref(), marks, &dopts);
    let mut changes = diff::flatten(&root, before.as_ref(), after.as_ref(), vis);
    let shown = if identifying { diff::show_identifying(&mut root, before.as_ref(), after.as_ref(), marks, &dopts) } else { 0 };
    diff::mask_keys(&mut root, &mut changes, vis);
    (root, changes, shown)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::diff::{Kind, Op};
    use crate::query::values::Shown;
    use crate::read::parse;

    const PLAN: &str = r#"{"format_version":"1.2","resource_changes":[
      {"address":"a.create","type":"a","change":{"actions":["create"],"before":null,"after":{"x":1},"after_unknown":{"id":true}}},
      {"address":"a.same","type":"a","change":{"actions":["no-op"],"before":{"x":1},"after":{"x":1}}},
      {"address":"a.moved","previous_address":"a.old","type":"a","change":{"actions":["no-op"],"before":{"x":1},"after":{"x":1}}},
      {"address":"b.upd","type":"b","change":{"actions":["update"],"before":{"x":1,"pw":"hunter22"},"after":{"x":2,"pw":"hunter23"},
        "before_sensitive":{"pw":true},"after_sensitive":{"pw":true}}}],
      "output_changes":{"o":{"actions":["update"],"before":"a","after":"b"},"n":{"actions":["no-op"],"before":1,"after":1}}}"#;

    #[test]
    fn no_ops_hidden_unless_all_but_moves_listed() {
        let doc = parse("p", PLAN.as_bytes()).unwrap();
        let r = show(&doc, &ShowOptions::default(), &Visibility::default()).unwrap();
        let addrs: Vec<&str> = r.resources.iter().map(|r| r.address.as_str()).collect();
        assert_eq!(addrs, ["a.create", "a.moved", "b.upd"]);
        assert_eq!(r.hidden_noop, 2, "one resource and one output no-op");
        assert_eq!(r.outputs.len(), 1);
        let all = show(&doc, &ShowOptions { all: true, ..Default::default() }, &Visibility::default()).unwrap();
        assert_eq!(all.resources.len(), 4);
        assert_eq!(all.outputs.len(), 2);
        // Asking for no-ops by action shows them without --all.
        let f = Filter { actions: vec!["no-op".into()], ..Default::default() };
        let noop = show(&doc, &ShowOptions { filter: f, ..Default::default() }, &Visibility::default()).unwrap();
        let addrs: Vec<&str> = noop.resources.iter().map(|r| r.address.as_str()).collect();
        assert_eq!(addrs, ["a.same", "a.moved"]);
        assert_eq!(noop.outputs.len(), 1);
    }

    #[test]
    fn filters_pick_resources_and_drop_outputs() {
        let doc = parse("p", PLAN.as_bytes()).unwrap();
        let opts = ShowOptions { filter: Filter { types: vec!["b".into()], ..Default::default() }, ..Default::default() };
        let r = show(&doc, &opts, &Visibility::default()).unwrap();
        assert_eq!(r.resources.len(), 1);
        assert_eq!(r.filtered_out, 3);
        assert!(r.outputs.is_empty());
    }

    #[test]
    fn sensitive_update_is_masked_and_flattened_with_paths() {
        let doc = parse("p", PLAN.as_bytes()).unwrap();
        let r = show(&doc, &ShowOptions::default(), &Visibility::default()).unwrap();
        let upd = &r.resources[2];
        let paths: Vec<String> = upd.changes.iter().map(|c| diff::path_text(&c.path)).collect();
        assert_eq!(paths, ["pw", "x"]);
        assert_eq!(upd.changes[0].before, Some(Shown::Sensitive));
        assert_eq!(upd.changes[0].after, Some(Shown::Sensitive));
        assert_eq!(upd.changes[0].op, Op::Update);
        assert_eq!(upd.changes[1].after, Some(Shown::Value("2".into())));
        let create = &r.resources[0];
        assert_eq!(create.changes.iter().find(|c| diff::path_text(&c.path) == "id").unwrap().after, Some(Shown::Unknown));
    }

    #[test]
    fn identifying_attributes_are_shown_unchanged_and_masked_when_sensitive() {
        let plan = r#"{"format_version":"1.2","resource_changes":[
          {"address":"a.x","type":"a","change":{"actions":["update"],
            "before":{"id":"i-1","name":"hunter2hunter2","tags":{"Name":"web","Env":"dev"},"size":1,"other":"o","nothing":null},
            "after":{"id":"i-1","name":"hunter2hunter2","tags":{"Name":"web","Env":"dev"},"size":2,"other":"o","nothing":null},
            "before_sensitive":{"name":true},"after_sensitive":{"name":true}}}],
          "output_changes":{"o":{"actions":["update"],"before":{"id":"a","v":1},"after":{"id":"a","v":2}}}}"#;
        let doc = parse("p", plan.as_bytes()).unwrap();
        let r = show(&doc, &ShowOptions::default(), &Visibility::default()).unwrap();
        let x = &r.resources[0];
        let Kind::Collection { entries, hidden, .. } = &x.root.kind else { panic!("{:?}", x.root) };
        let keys: Vec<String> = entries.iter().map(|e| diff::path_text(&[e.key.step()])).collect();
        assert_eq!(keys, ["id", "name", "size", "tags"], "in their sorted places; a null one is not shown");
        assert_eq!((*hidden, x.identifying), (1, 3), "only `other` is still hidden");
        assert_eq!(entries[1].node.kind, Kind::Leaf { before: Some(Shown::Sensitive), after: Some(Shown::Sensitive) });
        let Kind::Collection { entries: tags, hidden: 0, .. } = &entries[3].node.kind else { panic!("{:?}", entries[3]) };
        assert_eq!(tags.len(), 2, "every tag");
        assert_eq!(x.changes.len(), 1, "the JSON lists changes only");
        // An output is a value: like any object inside a value, its `id` is
        // shown (the CLI's object renderer), and counts in no hidden total.
        let Kind::Collection { entries, hidden, .. } = &r.outputs[0].root.kind else { panic!() };
        assert_eq!((entries.len(), *hidden), (2, 0));
        // --full shows everything anyway.
        let full = show(&doc, &ShowOptions { full: true, ..Default::default() }, &Visibility::default()).unwrap();
        assert_eq!(full.resources[0].identifying, 0);
    }

    #[test]
    fn a_state_is_refused() {
        let doc = parse("s", br#"{"format_version":"1.0","values":{"root_module":{}}}"#).unwrap();
        assert!(show(&doc, &ShowOptions::default(), &Visibility::default()).unwrap_err().contains("state"));
    }
}
