//! `drift`: objects changed outside Terraform/OpenTofu (`resource_drift`), and
//! the attributes that changed, filtered by `relevant_attributes` as the CLI
//! filters them.
//!
//! The CLI's rule (Terraform's `jsonformat` renderer): for each drifted object,
//! gather the `relevant_attributes` paths whose `resource` is its address (or
//! empty); with none, the object is not shown; otherwise only the changed
//! attributes at, below or on the way to a relevant path are shown, and an
//! object left with no change to show is dropped. A refresh-only plan shows all
//! drift; a plan that changes nothing shows none.

use crate::filter::Filter;
use crate::model::Document;
use crate::model::{ChangeKind, PathStep, Plan, ResourceChange};
use crate::query::attr::{relevant_changes, AttrChange, ParsedChange};
use crate::query::diff::{changed_paths, Compare};
use crate::query::values::Visibility;
use serde::Serialize;
use std::collections::HashMap;

/// What the user asked for.
#[derive(Debug, Clone, Copy)]
pub struct DriftOptions<'f> {
    pub filter: &'f Filter,
    /// `--all`: every drifted object, every changed attribute.
    pub all: bool,
}

/// How the listed objects were chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DriftMode {
    /// Only drift relevant to this plan (the default).
    Relevant,
    /// A refresh-only plan (no resource changes): all drift, as the CLI shows it.
    RefreshOnly,
    /// `--all`.
    All,
}

/// The drift of one plan.
#[derive(Debug, Serialize)]
pub struct DriftReport {
    pub kind: &'static str,
    pub file: String,
    pub format_version: String,
    pub terraform_version: Option<String>,
    pub errored: bool,
    pub mode: DriftMode,
    /// Entries in `resource_drift`.
    pub total: u64,
    /// Entries that pass the filters (`--address`, `--type`, `--module`, `--action`).
    pub matched: u64,
    /// Entries listed.
    pub shown: u64,
    /// Entries that pass the filters but are hidden as not relevant to this plan.
    pub hidden: u64,
    /// Why nothing is relevant, when the plan itself changes nothing.
    pub note: Option<String>,
    pub entries: Vec<DriftEntry>,
}

/// One drifted object.
#[derive(Debug, Serialize)]
pub struct DriftEntry {
    pub address: String,
    pub previous_address: Option<String>,
    pub module_address: Option<String>,
    pub mode: String,
    #[serde(rename = "type")]
    pub type_: String,
    pub name: String,
    pub index: Option<serde_json::Value>,
    pub provider_name: Option<String>,
    pub deposed: Option<String>,
    /// `update`, `delete`, `create`, `no-op`, ... (the action list's kind).
    pub action: String,
    pub actions: Vec<String>,
    /// What happened, as the CLI says it (`has changed`, `has been deleted`).
    pub words: String,
    /// Whether the default view shows this object (drift relevant to the plan;
    /// all drift in a refresh-only plan).
    pub relevant: bool,
    /// The changed attributes shown.
    pub attributes: Vec<AttrChange>,
    /// Changed attributes not shown because they are not relevant.
    pub hidden_attributes: u64,
    /// Where the object is declared in the configuration, when it was read
    /// and holds it (set by the run: `crate::locate`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<crate::model::Location>,
}

/// The CLI's words for a drifted object.
fn drift_words(rc: &ResourceChange<'_>, kind: &ChangeKind) -> String {
    match kind {
        ChangeKind::Update => "has changed".into(),
        ChangeKind::Delete => "has been deleted".into(),
        ChangeKind::Create => "has been created".into(),
        ChangeKind::NoOp if rc.is_move() => {
            format!("has moved from {}", rc.previous_address.as_deref().unwrap_or_default())
        }
        ChangeKind::NoOp => "unchanged".into(),
        other => other.words(),
    }
}

/// `relevant_attributes` indexed by resource address, looked up once per
/// drifted object (plans can list tens of thousands of both).
pub(crate) struct RelevantIndex<'p> {
    by_address: HashMap<&'p str, Vec<&'p [PathStep]>>,
    /// Entries naming no resource apply to every address.
    everywhere: Vec<&'p [PathStep]>,
}

impl<'p> RelevantIndex<'p> {
    pub(crate) fn new(plan: &'p Plan<'_>) -> Self {
        let mut idx = RelevantIndex { by_address: HashMap::new(), everywhere: Vec::new() };
        for r in &plan.relevant_attributes {
            if r.resource.is_empty() {
                idx.everywhere.push(&r.attribute);
            } else {
                idx.by_address.entry(r.resource.as_str()).or_default().push(&r.attribute);
            }
        }
        idx
    }

    /// The relevant paths for `address`: entries naming it, or naming no resource.
    pub(crate) fn paths_for(&self, address: &str) -> Vec<Vec<PathStep>> {
        let named = self.by_address.get(address).map(Vec::as_slice).unwrap_or_default();
        named.iter().chain(self.everywhere.iter()).map(|p| p.to_vec()).collect()
    }
}

/// True when the plan changes something (a resource change that is not a
/// plain no-op, or an output change): the CLI shows no drift otherwise.
fn plan_changes_something(p: &Plan<'_>) -> bool {
    p.resource_changes.iter().any(|rc| rc.kind() != ChangeKind::NoOp || rc.is_move())
        || p.output_changes.values().any(|c| c.kind() != ChangeKind::NoOp)
}

pub fn drift(doc: &Document<'_>, opts: &DriftOptions<'_>, vis: &Visibility) -> Result<DriftReport, String> {
    let Document::Plan(p) = doc else {
        return Err("`drift` reads a plan, and this is a state: run `show -json` on a saved plan file".into());
    };
    Ok(drift_plan(p, opts, vis))
}

pub(crate) fn drift_plan(p: &Plan<'_>, opts: &DriftOptions<'_>, vis: &Visibility) -> DriftReport {
    let refresh_only = p.resource_changes.is_empty() && !p.resource_drift.is_empty();
    let mode = if opts.all {
        DriftMode::All
    } else if refresh_only {
        DriftMode::RefreshOnly
    } else {
        DriftMode::Relevant
    };
    let changes_something = plan_changes_something(p);
    let index = RelevantIndex::new(p);
    let view = if refresh_only {
        DefaultView::Everything
    } else if changes_something {
        DefaultView::Relevant
    } else {
        DefaultView::Nothing
    };
    let (mut matched, mut hidden) = (0, 0);
    let mut entries = Vec::new();
    for rc in &p.resource_drift {
        if !opts.filter.matches_change(rc) {
            continue;
        }
        matched += 1;
        let e = entry(&index, rc, mode, view, vis);
        if mode == DriftMode::Relevant && !e.relevant {
            hidden += 1;
            continue;
        }
        entries.push(e);
    }
    let note = (mode == DriftMode::Relevant && !changes_something && matched > 0)
        .then(|| "the plan changes nothing, so no drift is relevant to it (the CLI shows none either)".to_string());
    DriftReport {
        kind: "drift",
        file: String::new(),
        format_version: p.format_version.clone(),
        terraform_version: p.terraform_version.clone(),
        errored: p.errored,
        mode,
        total: p.resource_drift.len() as u64,
        matched,
        shown: entries.len() as u64,
        hidden,
        note,
        entries,
    }
}

/// What the CLI's own view of a plan shows of its drift.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DefaultView {
    /// A refresh-only plan: all drift.
    Everything,
    /// Drift relevant to the planned changes.
    Relevant,
    /// The plan changes nothing: no drift.
    Nothing,
}

fn entry(index: &RelevantIndex<'_>, rc: &ResourceChange<'_>, mode: DriftMode, view: DefaultView, vis: &Visibility) -> DriftEntry {
    let kind = rc.kind();
    let pc = ParsedChange::of(&rc.change);
    let absent = |v: &Option<serde_json::Value>| v.as_ref().is_none_or(serde_json::Value::is_null);
    // An object that appeared or went away is one change to the whole object.
    let whole = absent(&pc.before) || absent(&pc.after);
    let changed = if whole { Vec::new() } else { changed_paths(pc.before.as_ref(), pc.after.as_ref(), None, Compare::AsShown, &|_| false) };
    let relevant_paths = index.paths_for(&rc.address);
    let kept = relevant_changes(&changed, &relevant_paths, |path| pc.differs_at(path));
    let relevant = match view {
        DefaultView::Everything => true,
        DefaultView::Nothing => false,
        DefaultView::Relevant if whole => !relevant_paths.is_empty() && kind != ChangeKind::NoOp,
        DefaultView::Relevant => !kept.is_empty(),
    };
    let show_everything = mode != DriftMode::Relevant;
    let shown_paths = if show_everything { changed.clone() } else { kept };
    let hidden_attributes = if show_everything {
        0
    } else {
        changed.iter().filter(|c| !relevant_paths.iter().any(|r| c.starts_with(r) || r.starts_with(c))).count() as u64
    };
    DriftEntry {
        address: rc.address.clone(),
        previous_address: rc.previous_address.clone().filter(|x| *x != rc.address),
        module_address: rc.module_address.clone(),
        mode: rc.mode.as_str().to_string(),
        type_: rc.type_.clone(),
        name: rc.name.clone(),
        index: rc.index.clone(),
        provider_name: rc.provider_name.clone(),
        deposed: rc.deposed.clone(),
        action: kind.key(),
        actions: rc.change.actions.iter().map(|a| a.as_str().to_string()).collect(),
        words: drift_words(rc, &kind),
        relevant,
        attributes: shown_paths.iter().map(|path| AttrChange::at(&pc, path, vis)).collect(),
        hidden_attributes,
        location: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAN: &str = r#"{"format_version":"1.2",
      "resource_changes":[{"address":"aws_instance.web","mode":"managed","type":"aws_instance","name":"web","change":{"actions":["update"]}}],
      "resource_drift":[
        {"address":"aws_instance.web","mode":"managed","type":"aws_instance","name":"web","change":{"actions":["update"],
          "before":{"tags":{"Name":"a","Owner":"x"},"disks":[{"size":8}],"ami":"ami-1","password":"old-pass"},
          "after":{"tags":{"Name":"b","Owner":"y"},"disks":[{"size":16}],"ami":"ami-2","password":"new-pass"},
          "before_sensitive":{"password":true},"after_sensitive":{"password":true}}},
        {"address":"aws_s3_bucket.logs","mode":"managed","type":"aws_s3_bucket","name":"logs","change":{"actions":["update"],
          "before":{"acl":"private"},"after":{"acl":"public-read"}}},
        {"address":"aws_eip.gone","mode":"managed","type":"aws_eip","name":"gone","change":{"actions":["delete"],
          "before":{"ip":"1.2.3.4"},"after":null}}],
      "relevant_attributes":[
        {"resource":"aws_instance.web","attribute":["tags","Name"]},
        {"resource":"aws_instance.web","attribute":["disks",0,"size"]},
        {"resource":"aws_instance.web","attribute":["password"]},
        {"resource":"aws_eip.gone","attribute":["ip"]}]}"#;

    fn report(json: &str, all: bool) -> DriftReport {
        let p: Plan = serde_json::from_str(json).unwrap();
        drift_plan(&p, &DriftOptions { filter: &Filter::default(), all }, &Visibility::default())
    }

    #[test]
    fn only_relevant_attributes_and_objects_are_shown() {
        let r = report(PLAN, false);
        assert_eq!(r.mode, DriftMode::Relevant);
        assert_eq!((r.total, r.matched, r.shown, r.hidden), (3, 3, 2, 1));
        let web = &r.entries[0];
        let paths: Vec<&str> = web.attributes.iter().map(|a| a.path.as_str()).collect();
        assert_eq!(paths, vec!["disks[0].size", "password", "tags.Name"]);
        assert_eq!(web.hidden_attributes, 2, "ami and tags.Owner");
        assert_eq!(web.attributes[1].arrow(), "(sensitive value) -> (sensitive value)");
        assert_eq!(web.attributes[0].arrow(), "8 -> 16");
        let gone = &r.entries[1];
        assert_eq!((gone.address.as_str(), gone.words.as_str()), ("aws_eip.gone", "has been deleted"));
        assert!(gone.attributes.is_empty());
    }

    #[test]
    fn all_shows_every_object_and_attribute() {
        let r = report(PLAN, true);
        assert_eq!((r.shown, r.hidden), (3, 0));
        assert_eq!(r.entries[0].attributes.len(), 5);
        assert!(!r.entries[1].relevant, "--all still says what is relevant");
    }

    #[test]
    fn refresh_only_plan_shows_all_drift() {
        let json = PLAN.replace(r#""resource_changes":[{"address":"aws_instance.web","mode":"managed","type":"aws_instance","name":"web","change":{"actions":["update"]}}],"#, "");
        let r = report(&json, false);
        assert_eq!(r.mode, DriftMode::RefreshOnly);
        assert_eq!((r.shown, r.hidden), (3, 0));
        assert!(r.entries.iter().all(|e| e.relevant && e.hidden_attributes == 0), "the CLI shows all of it");
    }

    #[test]
    fn a_plan_that_changes_nothing_shows_no_drift() {
        let json = PLAN.replace(r#""change":{"actions":["update"]}}],"#, r#""change":{"actions":["no-op"]}}],"#);
        let r = report(&json, false);
        assert_eq!((r.shown, r.hidden), (0, 3));
        assert!(r.note.is_some());
    }

    #[test]
    fn entries_without_a_resource_apply_to_every_address() {
        let json = PLAN.replace(r#""relevant_attributes":["#, r#""relevant_attributes":[{"resource":"","attribute":["acl"]},"#);
        let r = report(&json, false);
        assert_eq!((r.shown, r.hidden), (3, 0), "the bucket's acl is now relevant");
        let logs = r.entries.iter().find(|e| e.address == "aws_s3_bucket.logs").unwrap();
        assert_eq!(logs.attributes[0].arrow(), r#""private" -> "public-read""#);
    }

    #[test]
    fn filters_apply_before_relevance() {
        let p: Plan = serde_json::from_str(PLAN).unwrap();
        let f = Filter { types: vec!["aws_s3_bucket".into()], ..Default::default() };
        let r = drift_plan(&p, &DriftOptions { filter: &f, all: false }, &Visibility::default());
        assert_eq!((r.matched, r.shown, r.hidden), (1, 0, 1));
    }
}
