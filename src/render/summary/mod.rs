//! Renders `summary` reports as a terminal table, markdown or JSON.

mod gitlab;
mod json;
mod markdown;
mod stream;
mod table;

pub(crate) use gitlab::*;
pub(crate) use json::*;
pub(crate) use markdown::*;
pub(crate) use table::*;

use super::fit::Block;
use super::{action_tone, counts_line, md_cell, md_code, plain, write_json, JsonInputError, Style, Tone};
use crate::outcome::PerFile;
use crate::query::noise::NoiseCount;
use crate::query::summary::{sum, InvocationEntry, PlanSummary, ResourceEntry, StateSummary, Summary, SummaryTotal};
use crate::query::values::truncate;
use crate::sanitize::line;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, Write};

use crate::query::summary::{group_rank, GROUPS};

/// A row of a change list: one change, or alike changes collapsed
/// ([`crate::query::collapse`]): the first of them, the group's label and
/// every member's key.
pub(super) enum Row<'a> {
    One(&'a ResourceEntry),
    Alike { first: &'a ResourceEntry, label: String, keys: Vec<String> },
}

/// The rows of a change list in display order (noise left out): from
/// [`crate::query::collapse::MIN_GROUP`] instances of one resource block
/// with the same action (and reason) and nothing of their own (moved,
/// imported, deposed, deferred, unrecognised), one row. Summary reads no
/// values: changes alike here are instances of one block.
pub(super) fn rows(resources: &[ResourceEntry]) -> Vec<Row<'_>> {
    use crate::query::collapse::{member_key, Collapser};
    let list: Vec<&ResourceEntry> = grouped(resources).into_iter().filter(|r| !r.noise).collect();
    let mut c = Collapser::default();
    let of: Vec<usize> = list
        .iter()
        .map(|r| {
            let alone = r.moved
                || r.importing
                || r.deposed.is_some()
                || !r.recognised
                || r.index_unknown
                || r.deferred_reason.is_some()
                || r.import_unknown;
            let action = format!("{} {:?} {}", r.action, r.replace_order, r.reason.as_deref().unwrap_or(""));
            c.push(&r.address, &action, None, alone)
        })
        .collect();
    let groups = c.finish();
    let mut out = Vec::new();
    for (i, r) in list.iter().enumerate() {
        let g = &groups[of[i]];
        if !g.collapsed() {
            out.push(Row::One(r));
        } else if g.members[0] == i {
            let keys = g.members.iter().map(|&m| member_key(&list[m].address)).collect();
            out.push(Row::Alike { first: r, label: g.label.clone(), keys });
        }
    }
    out
}

/// How many changes the rows of `resources` stand for beyond one each.
pub(super) fn collapsed_away(resources: &[ResourceEntry]) -> usize {
    rows(resources)
        .iter()
        .map(|r| match r {
            Row::Alike { keys, .. } => keys.len() - 1,
            Row::One(_) => 0,
        })
        .sum()
}

/// Resources in display order: grouped by action, document order within a group.
fn grouped(resources: &[ResourceEntry]) -> Vec<&ResourceEntry> {
    let mut v: Vec<&ResourceEntry> = resources.iter().collect();
    v.sort_by_key(|r| group_rank(&r.action));
    v
}

/// The words for an entry's action (`replace (destroy then create)`, ...).
pub(crate) fn action_words(r: &ResourceEntry) -> String {
    use crate::model::ReplaceOrder::*;
    match (r.action.as_str(), r.replace_order) {
        ("replace", Some(DeleteBeforeCreate)) => "replace (destroy then create)".into(),
        ("replace", Some(CreateBeforeDestroy)) => "replace (create before destroy)".into(),
        ("delete", _) => "destroy".into(),
        ("update", _) => "update in-place".into(),
        ("no-op", _) if r.moved && r.importing => "move + import".into(),
        ("no-op", _) if r.moved => "move".into(),
        ("no-op", _) if r.importing => "import".into(),
        // The CLIs' words: OpenTofu's "must be replaced - older instance will
        // not be destroyed", Terraform's "must be replaced, but the existing
        // object will not be destroyed".
        ("forget+create", _) => "replace (forget then create, not destroyed)".into(),
        ("create+forget", _) => "replace (create then forget, not destroyed)".into(),
        (a, _) if !r.recognised => format!("UNRECOGNISED [{}]", a.replace('+', ", ")),
        (a, _) => a.to_string(),
    }
}

/// The details column: reason, move, deposed key, import id.
pub(crate) fn details(r: &ResourceEntry) -> Vec<String> {
    let mut d = Vec::new();
    if let Some(w) = &r.reason_words {
        d.push(w.clone());
    }
    if let Some(p) = &r.previous_address {
        d.push(format!("moved from {p}"));
    }
    if let Some(k) = &r.deposed {
        d.push(format!("deposed object {k}"));
    }
    if let Some(reason) = &r.deferred_reason {
        d.push(format!("deferred: {reason}"));
    }
    if r.index_unknown {
        d.push("instance keys not known yet".into());
    }
    if r.importing {
        match (&r.import_id, &r.import_identity) {
            (Some(id), _) => d.push(format!("import id {id}")),
            (None, Some(identity)) => d.push(format!("import {}", crate::model::plan::identity_words(identity))),
            (None, None) if r.import_unknown => d.push("import id not known yet".into()),
            (None, None) => d.push("imported".into()),
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::summary::summarize;
    use crate::query::values::Visibility;

    fn table_of(json: &str) -> String {
        let doc = crate::read::parse("f", json.as_bytes()).unwrap();
        let s = summarize(&doc, &Visibility::default()).unwrap();
        let items = vec![PerFile { file: "f".into(), result: Ok(s), masker: Default::default() }];
        let mut out = Vec::new();
        table_out(&mut out, &items, &Style::default()).unwrap();
        assert_eq!(crate::sanitize::terminal_hazard(&out, false), None);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn unknown_check_status_and_output_action_are_escaped_in_count_lines() {
        let t = table_of(
            r#"{"format_version":"1.2","checks":[{"address":{"to_display":"c"},"status":"error\u001b[2J"}],
               "output_changes":{"o":{"actions":["update\u001b]52;c;eA==\u0007"],"before":1,"after":2}}}"#,
        );
        assert!(t.contains("1 error\\x1B[2J") && t.contains("1 update\\x1B]52;c;eA==\\x07"), "{t}");
        let mut md = Vec::new();
        let doc = crate::read::parse(
            "f",
            br#"{"format_version":"1.2","resource_changes":[],"checks":[{"address":{"to_display":"c"},"status":"x|<b>"}]}"#,
        )
        .unwrap();
        let s = summarize(&doc, &Visibility::default()).unwrap();
        let items = vec![PerFile { file: "f".into(), result: Ok(s), masker: Default::default() }];
        md.extend_from_slice(crate::render::fit::fit(&markdown_blocks(&items, None), 65536).as_bytes());
        let md = String::from_utf8(md).unwrap();
        assert!(md.contains("1 x\\|&lt;b&gt;"), "{md}");
    }

    #[test]
    fn failing_checks_are_named_and_imports_then_destroyed_warned_of() {
        let t = table_of(
            r#"{"format_version":"1.2","resource_changes":[
                 {"address":"a.b","mode":"managed","type":"a","name":"b","change":{"actions":["delete"],"importing":{"id":"i-1"}}},
                 {"address":"a.c","mode":"managed","type":"a","name":"c","change":{"actions":["create"],"importing":{"id":"i-2"}}}],
               "checks":[{"address":{"kind":"check","to_display":"check.ok"},"status":"pass","instances":[{"address":{"to_display":"check.ok"},"status":"pass"}]},
                         {"address":{"kind":"check","to_display":"check.bad"},"status":"fail","instances":[{"address":{"to_display":"check.bad"},"status":"fail","problems":[{"message":"too small\nsecond line"}]}]}]}"#,
        );
        assert!(t.contains("  fail check.bad: too small\n"), "{t}");
        assert!(!t.contains("second line") && !t.contains("check.ok"), "{t}");
        assert!(t.contains("warning: this will destroy the imported resource(s) (the CLI's warning): a.b\n"), "{t}");
    }

    #[test]
    fn unknown_resource_mode_is_escaped_in_the_state_table() {
        let t = table_of(
            r#"{"format_version":"1.0","values":{"root_module":{"resources":[{"address":"a.b","mode":"data\u009b2J","type":"a","name":"b"}]}}}"#,
        );
        assert!(t.contains("data\\u{009B}2J"), "{t}");
    }
}
