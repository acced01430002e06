//! The question commands (`drift`, `replace`, `checks`, `outputs`, `state`):
//! each a query over documents streamed with only the changes it needs kept,
//! then its reports rendered.

use super::streamed::{self, streamed, streamed_keeping};
use super::tail::{finish, Sink};
use super::{across, keep_none, locating, named, question};
use crate::config::Config;
use crate::error::Error;
use crate::outcome::Status;
use crate::query::values::Visibility;
use crate::read::pool::each_root_with;
use crate::read::{self, Root};
use crate::secrets::Masker;
use crate::{model, query, render};

/// `drift`: the drifted objects, and as much of the changes as tells whether the plan changes anything.
pub(super) fn drift(config: &Config, roots: &[Root], all: bool, out: &mut Sink<'_>, masker: &mut Masker) -> Result<Status, Error> {
    let read = &config.read;
    let vis = Visibility { show_sensitive: config.show_sensitive, masker: None };
    let opts = query::drift::DriftOptions { filter: &config.filter, all };
    // Every drift entry; of the changes, the first (a plan without any
    // reads as refresh-only) and one that is not a plain no-op (the
    // CLI shows drift only when the plan changes something): at most two.
    // The changes are kept bare (their kind and move only: all the query reads
    // of them), so a change holding one huge value is not copied.
    let keep = |drift: bool, i: usize, kept: usize, rc: &model::ResourceChange<'_>| {
        drift || i == 0 || (kept < 2 && (rc.kind() != model::ChangeKind::NoOp || rc.is_move()))
    };
    let sources = locating::start(config, roots);
    let mut items = named(across(config, roots, read, |read| {
        streamed_keeping(roots, read, &vis, true, keep, |doc, vis| query::drift::drift(doc, &opts, vis))
    }));
    if let Some(located) = locating::finish(sources, config, &items) {
        for i in &mut items {
            let map = located.of(&i.file);
            for e in i.result.iter_mut().flat_map(|r| r.entries.iter_mut()) {
                e.location = map.locate(&e.address);
            }
        }
    }
    question(config, out, masker, items).map(|_| Status::Success)
}

/// `replace`: the replaced objects and the paths that force each replacement.
pub(super) fn replace(config: &Config, roots: &[Root], out: &mut Sink<'_>, masker: &mut Masker) -> Result<Status, Error> {
    let read = &config.read;
    let vis = Visibility { show_sensitive: config.show_sensitive, masker: None };
    let keep = |drift: bool, _: usize, _: usize, rc: &model::ResourceChange<'_>| {
        !drift && matches!(rc.kind(), model::ChangeKind::Replace(_)) && config.filter.matches_change(rc)
    };
    let sources = locating::start(config, roots);
    // The dependents through a local are exact when the configuration's source is read.
    let locals = locating::locals(config, roots, &sources);
    let mut items = named(across(config, roots, read, |read| {
        streamed::streamed_with_changes(roots, read, &vis, keep, |doc, vis, changes, more| {
            query::replace::replace_with_changes(doc, &config.filter, vis, changes, locals.as_deref(), more)
        })
    }));
    if let Some(located) = locating::finish(sources, config, &items) {
        for i in &mut items {
            let map = located.of(&i.file);
            for r in i.result.iter_mut().flat_map(|r| r.replacements.iter_mut()) {
                r.location = map.locate(&r.address);
            }
        }
    }
    question(config, out, masker, items).map(|_| Status::Success)
}

/// `checks`: the check results (failing checks fail the run unless `--no-fail`).
pub(super) fn checks(
    config: &Config,
    roots: &[Root],
    all: bool,
    no_fail: bool,
    out: &mut Sink<'_>,
    masker: &mut Masker,
) -> Result<Status, Error> {
    let read = &config.read;
    let vis = Visibility { show_sensitive: config.show_sensitive, masker: None };
    let opts = query::checks::ChecksOptions { filter: &config.filter, all };
    let sources = locating::start(config, roots);
    let mut items = named(across(config, roots, read, |read| {
        streamed(roots, read, &vis, keep_none, |doc, vis| Ok(query::checks::checks(doc, &opts, vis)))
    }));
    if let Some(located) = locating::finish(sources, config, &items) {
        for i in &mut items {
            let map = located.of(&i.file);
            for c in i.result.iter_mut().flat_map(|r| r.checks.iter_mut()) {
                c.location = map.locate_check(&c.address, &c.problems);
            }
        }
    }
    let items = if matches!(config.format, render::Format::Sarif | render::Format::GitlabCodequality | render::Format::Github) {
        items.iter().for_each(|i| masker.merge(&i.masker));
        let rendered = render::findings::write_checks(config.format, &items, out);
        out.written(rendered)?;
        finish(&items)?;
        items
    } else {
        question(config, out, masker, items)?
    };
    let failed = items.iter().any(|i| matches!(&i.result, Ok(r) if r.failed));
    Ok(if failed && !no_fail { Status::Failed } else { Status::Success })
}

/// `outputs`: the output changes.
pub(super) fn outputs(config: &Config, roots: &[Root], out: &mut Sink<'_>, masker: &mut Masker) -> Result<Status, Error> {
    let read = &config.read;
    let vis = Visibility { show_sensitive: config.show_sensitive, masker: None };
    let sources = locating::start(config, roots);
    let mut items = named(across(config, roots, read, |read| streamed(roots, read, &vis, keep_none, query::outputs::outputs)));
    if let Some(located) = locating::finish(sources, config, &items) {
        for i in &mut items {
            let map = located.of(&i.file);
            if let Ok(query::outputs::OutputsReport::Plan(p)) = &mut i.result {
                for o in &mut p.outputs {
                    o.location = map.locate(&format!("output.{}", o.name));
                }
            }
        }
    }
    question(config, out, masker, items).map(|_| Status::Success)
}

/// `state`: a state's resources, or a plan's prior state (`--prior`, streamed).
pub(super) fn state(config: &Config, roots: &[Root], prior: bool, out: &mut Sink<'_>, masker: &mut Masker) -> Result<Status, Error> {
    let read = &config.read;
    let opts = query::state::StateOptions { filter: &config.filter, prior };
    let items = if prior {
        // Streamed: a plan's `prior_state` is collected as it passes, never held whole.
        let items = read::stream_roots(roots, read, &|name, r, ahead, read| streamed::state_of_stream(name, r, ahead, read, &opts));
        named(query::state::settle(items))
    } else {
        named(each_root_with(roots, read, |doc, _| query::state::state(doc, &opts)))
    };
    question(config, out, masker, items).map(|_| Status::Success)
}
