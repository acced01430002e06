//! Renders `summary` reports as a terminal table, markdown or JSON.

use super::fit::Block;
use super::{action_tone, counts_line, md_cell, md_code, plain, write_json, JsonInputError, Style, Tone};
use crate::query::summary::{sum, InvocationEntry, PlanSummary, ResourceEntry, StateSummary, Summary, SummaryTotal};
use crate::query::values::truncate;
use crate::sanitize::line;
use crate::PerFile;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// Display order of the action groups.
const GROUPS: &[&str] = &["replace", "delete", "create", "update", "forget+create", "create+forget", "forget", "read", "no-op"];

fn group_rank(action: &str) -> usize {
    GROUPS.iter().position(|g| *g == action).unwrap_or(GROUPS.len())
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

// ---------------------------------------------------------------- table

/// The terminal report, lines wider than the style's width wrapped (tables fit already).
pub(crate) fn table_out(w: &mut dyn Write, items: &[PerFile<Summary>], style: &Style) -> io::Result<()> {
    let mut buf = Vec::new();
    table_unfitted(&mut buf, items, style)?;
    w.write_all(style.fit_lines(&String::from_utf8_lossy(&buf)).as_bytes())
}

fn table_unfitted(w: &mut dyn Write, items: &[PerFile<Summary>], style: &Style) -> io::Result<()> {
    let many = items.len() > 1;
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            writeln!(w)?;
        }
        match &item.result {
            Ok(Summary::Plan(p)) => plan_table(w, &item.file, p, style)?,
            Ok(Summary::State(s)) => state_table(w, &item.file, s, style)?,
            Err(e) => {
                writeln!(w, "{}", style.paint(&format!("== {} ==", line(&item.file)), Tone::Bold))?;
                writeln!(w, "{} {}: {}", style.paint("error:", Tone::Bad), line(&e.location()), line(&e.message))?;
                if let Some(hint) = &e.hint {
                    writeln!(w, "  hint: {}", line(hint))?;
                }
            }
        }
    }
    if many {
        let ok: Vec<&Summary> = items.iter().filter_map(|i| i.result.as_ref().ok()).collect();
        let failed = items.iter().filter(|i| i.result.is_err()).count() as u64;
        let t = sum(&ok, failed);
        writeln!(w)?;
        writeln!(w, "{}", style.paint(&format!("== total over {} files ==", t.files), Tone::Bold))?;
        total_lines(w, &t, style)?;
    }
    Ok(())
}

fn total_lines(w: &mut dyn Write, t: &SummaryTotal, style: &Style) -> io::Result<()> {
    if t.plans > 0 {
        writeln!(w, "{}", style.paint(&t.totals.plan_line(), Tone::Bold))?;
        writeln!(
            w,
            "{} plans: moved {} · forgotten {} · read {} · deposed {} · drifted {} · checks: {}",
            t.plans,
            t.moved,
            t.forgotten,
            t.read,
            t.deposed,
            t.drift,
            counts_line(&t.checks, plain)
        )?;
    }
    if t.states > 0 {
        writeln!(w, "{} states: {} resources", t.states, t.state_resources)?;
    }
    if t.errored > 0 {
        writeln!(w, "{}", style.paint(&format!("{} plan(s) ERRORED", t.errored), Tone::Bad))?;
    }
    if t.incomplete > 0 {
        writeln!(w, "{}", style.paint(&format!("{} plan(s) INCOMPLETE", t.incomplete), Tone::Bad))?;
    }
    if t.deferred + t.invocations > 0 {
        writeln!(w, "deferred changes {} · actions to invoke {}", t.deferred, t.invocations)?;
    }
    if t.failed > 0 {
        writeln!(w, "{}", style.paint(&format!("{} file(s) could not be read: totals are incomplete", t.failed), Tone::Bad))?;
    }
    if t.unrecognised > 0 {
        writeln!(
            w,
            "{}",
            style.paint(&format!("{} change(s) with unrecognised actions are not in the totals", t.unrecognised), Tone::Warn)
        )?;
    }
    Ok(())
}

fn header(w: &mut dyn Write, file: &str, kind: &str, tf: Option<&str>, fv: &str, style: &Style) -> io::Result<()> {
    let tf = tf.map(|v| format!(" · terraform {}", line(v))).unwrap_or_default();
    writeln!(w, "{}", style.paint(&format!("== {} ({kind}{tf} · format {}) ==", line(file), line(fv)), Tone::Bold))
}

fn plan_table(w: &mut dyn Write, file: &str, p: &PlanSummary, style: &Style) -> io::Result<()> {
    header(w, file, "plan", p.terraform_version.as_deref(), &p.format_version, style)?;
    if p.errored {
        writeln!(
            w,
            "{}",
            style.paint(
                "!! PLAN ERRORED: planning failed and this plan cannot be applied; only the changes planned before the error are listed",
                Tone::Bad
            )
        )?;
    }
    if p.incomplete && !p.errored {
        writeln!(w, "{}", style.paint(INCOMPLETE_BANNER, Tone::Bad))?;
    }
    for u in &p.unreadable {
        writeln!(w, "{}", style.paint(&format!("!! planview could not read {}", line(u)), Tone::Bad))?;
    }
    // `plan_line` ends with the CLI's `Actions: N to invoke.` already.
    writeln!(w, "{}", style.paint(&p.plan_line, if p.has_changes { Tone::Bold } else { Tone::Good }))?;
    if p.deferred > 0 {
        writeln!(w, "{}", style.paint(&format!("{} change(s) deferred to a later plan (not in the Plan line)", p.deferred), Tone::Warn))?;
    }
    writeln!(
        w,
        "moved {} · imported {} · forgotten {} · read {} · deposed {} · drifted {}",
        p.moved, p.imported, p.forgotten, p.read, p.deposed, p.drift
    )?;
    let checks_total: u64 = p.checks.values().sum();
    if checks_total > 0 {
        let fails = p.checks.get("fail").copied().unwrap_or(0) + p.checks.get("error").copied().unwrap_or(0);
        let tone = if fails > 0 { Tone::Bad } else { Tone::Good };
        writeln!(w, "checks: {}", style.paint(&counts_line(&p.checks, plain), tone))?;
        for c in p.failing_checks.iter().take(FAILING_CHECKS_LISTED) {
            writeln!(w, "  {} {}: {}", style.paint(&line(&c.status), Tone::Bad), line(&c.address), line(&c.problem))?;
        }
        if let Some(more) = more_failing(p) {
            writeln!(w, "  {more}")?;
        }
    }
    let imported_then_destroyed = imported_then_destroyed(p);
    if !imported_then_destroyed.is_empty() {
        writeln!(
            w,
            "{}",
            style.paint(
                &format!(
                    "warning: this will destroy the imported resource(s) (the CLI's warning): {}",
                    line(&imported_then_destroyed.join(", "))
                ),
                Tone::Warn
            )
        )?;
    }
    if !p.output_changes.is_empty() {
        writeln!(w, "outputs: {}", counts_line(&p.output_changes, plain))?;
    }
    for (o, msg) in deprecated_changes(p) {
        let text = format!("output {} changes ({}) and is deprecated: {}", line(&o.name), line(&o.action), line(msg));
        writeln!(w, "{}", style.paint(&text, Tone::Warn))?;
    }
    if p.unrecognised > 0 {
        writeln!(
            w,
            "{}",
            style.paint(
                &format!(
                    "warning: {} change(s) have action lists planview does not recognise; they are listed but not in the totals",
                    p.unrecognised
                ),
                Tone::Warn
            )
        )?;
    }
    if !p.resources.is_empty() {
        writeln!(w)?;
        resource_table(w, &p.resources, style)?;
    }
    if !p.deferred_changes.is_empty() {
        writeln!(w)?;
        writeln!(w, "{}", style.paint("Deferred to a later plan:", Tone::Bold))?;
        resource_table(w, &p.deferred_changes, style)?;
    }
    if !p.action_invocations.is_empty() {
        writeln!(w)?;
        let rows = p
            .action_invocations
            .iter()
            .map(|a| vec![style.paint("invoke", Tone::Warn), line(&a.address).into_owned(), line(&invocation_details(a)).into_owned()])
            .collect();
        writeln!(w, "{}", style.table(&["action", "address", "details"], rows))?;
    }
    if p.refresh_only && !p.drifted.is_empty() {
        writeln!(w)?;
        writeln!(w, "{}", style.paint("Changed outside of Terraform/OpenTofu (refresh-only):", Tone::Bold))?;
        resource_table(w, &p.drifted, style)?;
    }
    Ok(())
}

/// How many failing checks `summary` names (the rest are counted; `checks` lists them all).
const FAILING_CHECKS_LISTED: usize = 5;

/// `... and N more: planview checks lists them`, when more checks fail than are named.
fn more_failing(p: &PlanSummary) -> Option<String> {
    let n = p.failing_checks.len().saturating_sub(FAILING_CHECKS_LISTED);
    (n > 0).then(|| format!("... and {n} more: `planview checks` lists them"))
}

/// The managed resources this plan imports and then destroys (a delete or a
/// replace of an object being imported): the import brings the object under
/// management only for it to be destroyed.
pub(crate) fn imported_then_destroyed(p: &PlanSummary) -> Vec<String> {
    p.resources
        .iter()
        .filter(|r| r.importing && r.mode == "managed" && r.actions.iter().any(|a| a == "delete"))
        .map(|r| r.address.clone())
        .collect()
}

/// The banner of an incomplete plan (not errored: that one has its own).
pub(crate) const INCOMPLETE_BANNER: &str =
    "!! PLAN INCOMPLETE: made with -target, or changes are deferred to a later plan; what it leaves out is not planned";

/// The details of an action invocation: its trigger, and why it was deferred.
/// Output changes (not no-ops) of outputs the configuration marks deprecated.
fn deprecated_changes(p: &PlanSummary) -> impl Iterator<Item = (&crate::query::summary::OutputChangeEntry, &str)> {
    p.outputs.iter().filter(|o| o.action != "no-op").filter_map(|o| o.deprecated.as_deref().map(|d| (o, d)))
}

/// State outputs marked deprecated, one line each.
fn deprecated_outputs(w: &mut dyn Write, outputs: &[crate::query::values::OutputReport], style: &Style) -> io::Result<()> {
    for o in outputs {
        if let Some(d) = &o.deprecated {
            writeln!(w, "{}", style.paint(&format!("output {} is deprecated: {}", line(&o.name), line(d)), Tone::Warn))?;
        }
    }
    Ok(())
}

pub(crate) fn invocation_details(a: &InvocationEntry) -> String {
    let mut d = Vec::new();
    if let Some(t) = &a.trigger {
        d.push(format!("triggered by {t}"));
    }
    if let Some(f) = &a.on_failure {
        d.push(format!("on failure: {}", crate::model::OnFailure::parse(f).map_or(f.as_str(), |o| o.keyword())));
    }
    if let Some(r) = &a.deferred_reason {
        d.push(format!("deferred: {r}"));
    }
    d.join("; ")
}

fn resource_table(w: &mut dyn Write, resources: &[ResourceEntry], style: &Style) -> io::Result<()> {
    let rows = grouped(resources)
        .into_iter()
        .map(|r| {
            let sym = crate::model::ChangeKind::from_actions(&r.actions.iter().map(|a| crate::model::Action::parse(a)).collect::<Vec<_>>())
                .symbol();
            let sym = if r.action == "no-op" { "" } else { sym };
            let tone = action_tone(&r.action);
            vec![
                style.paint(line(&format!("{sym} {}", action_words(r))).trim_start(), tone),
                line(&r.address).into_owned(),
                line(&details(r).join("; ")).into_owned(),
            ]
        })
        .collect();
    writeln!(w, "{}", style.table(&["action", "address", "details"], rows))
}

fn state_table(w: &mut dyn Write, file: &str, s: &StateSummary, style: &Style) -> io::Result<()> {
    header(w, file, "state", s.terraform_version.as_deref(), &s.format_version, style)?;
    let c = &s.counts;
    let tainted = if c.tainted > 0 { style.paint(&format!(", {} tainted", c.tainted), Tone::Warn) } else { String::new() };
    writeln!(w, "State: {} resources ({} managed, {} data){tainted}, {} outputs", c.resources, c.managed, c.data, s.outputs.len())?;
    if s.checks.values().sum::<u64>() > 0 {
        writeln!(w, "checks: {}", counts_line(&s.checks, plain))?;
    }
    if !s.resources.is_empty() {
        // Counts by module and type.
        let mut by: BTreeMap<(String, String), u64> = BTreeMap::new();
        for r in &s.resources {
            *by.entry((r.module.clone().unwrap_or_else(|| "(root)".into()), r.type_.clone())).or_default() += 1;
        }
        writeln!(w)?;
        let rows = by.into_iter().map(|((m, t), n)| vec![line(&m).into_owned(), line(&t).into_owned(), n.to_string()]).collect();
        writeln!(w, "{}", style.table(&["module", "type", "count"], rows))?;
        writeln!(w)?;
        let rows = s
            .resources
            .iter()
            .map(|r| {
                let mut marks = Vec::new();
                if r.tainted {
                    marks.push(style.paint("tainted", Tone::Warn));
                }
                if let Some(k) = &r.deposed {
                    marks.push(style.paint(&format!("deposed {}", line(k)), Tone::Warn));
                }
                vec![
                    line(&r.address).into_owned(),
                    line(&r.mode).into_owned(),
                    line(r.provider_name.as_deref().unwrap_or("")).into_owned(),
                    marks.join(", "),
                ]
            })
            .collect();
        writeln!(w, "{}", style.table(&["address", "mode", "provider", "marks"], rows))?;
    }
    if !s.outputs.is_empty() {
        writeln!(w)?;
        let short = super::Shortened::default();
        let rows = s
            .outputs
            .iter()
            .map(|o| {
                let v = short.cell(&o.display_value(), 80);
                let v = if o.masked { style.paint(&v, Tone::Muted) } else { v };
                vec![line(&o.name).into_owned(), line(&o.display_type()).into_owned(), v]
            })
            .collect();
        writeln!(w, "{}", style.value_table(&["output", "type", "value"], rows, &short, "`planview outputs --format json`"))?;
        deprecated_outputs(w, &s.outputs, style)?;
    }
    Ok(())
}

// ---------------------------------------------------------------- markdown

/// Markdown for a pull-request comment, as blocks fitted to a budget
/// ([`crate::render::fit`]): a verdict line first, resource lists in
/// `<details>` (rows are left out to fit, and the comment says so).
pub(crate) fn markdown_blocks(items: &[PerFile<Summary>]) -> Vec<Block> {
    let mut blocks = Vec::new();
    if items.len() > 1 {
        let ok: Vec<&Summary> = items.iter().filter_map(|i| i.result.as_ref().ok()).collect();
        let failed = items.iter().filter(|i| i.result.is_err()).count() as u64;
        let t = sum(&ok, failed);
        let mut s = String::new();
        let verdict = if t.plans > 0 { t.totals.plan_line() } else { format!("{} states", t.states) };
        s.push_str(&format!("### Total over {} files — {verdict}\n\n", t.files));
        if t.plans > 0 {
            s.push_str(&format!(
                "{} plans · moved {} · forgotten {} · read {} · deposed {} · drifted {}\n",
                t.plans, t.moved, t.forgotten, t.read, t.deposed, t.drift
            ));
        }
        if t.errored > 0 {
            s.push_str(&format!("\n> [!CAUTION]\n> {} plan(s) errored.\n", t.errored));
        }
        if t.incomplete > 0 {
            s.push_str(&format!("\n> [!CAUTION]\n> {} plan(s) incomplete.\n", t.incomplete));
        }
        if t.failed > 0 {
            s.push_str(&format!("\n> [!WARNING]\n> {} file(s) could not be read: totals are incomplete.\n", t.failed));
        }
        blocks.push(Block::Keep(s));
    }
    for (i, item) in items.iter().enumerate() {
        if i > 0 || items.len() > 1 {
            blocks.push(Block::Keep("\n".into()));
        }
        match &item.result {
            Ok(Summary::Plan(p)) => plan_md(&mut blocks, &item.file, p),
            Ok(Summary::State(s)) => state_md(&mut blocks, &item.file, s),
            Err(e) => {
                blocks.push(Block::Keep(format!("### :x: {}\n\n**Could not be read:** {}\n", md_code(&item.file), super::md_error(e))))
            }
        }
    }
    blocks
}

fn plan_md(blocks: &mut Vec<Block>, file: &str, p: &PlanSummary) {
    let mut s = format!("### {} — {}\n\n", md_code(file), md_cell(&p.plan_line));
    for (o, msg) in deprecated_changes(p) {
        s.push_str(&format!(
            "> [!WARNING]\n> Output {} changes ({}) and is deprecated: {}\n\n",
            md_code(&o.name),
            md_cell(&o.action),
            md_cell(msg)
        ));
    }
    if p.incomplete && !p.errored {
        s.push_str(
            "> [!CAUTION]\n> **This plan is incomplete**: made with `-target`, or changes are deferred to a later plan. What it leaves out is not planned.\n\n",
        );
    }
    for u in &p.unreadable {
        s.push_str(&format!("> [!CAUTION]\n> planview could not read {}\n\n", md_cell(u)));
    }
    if p.deferred > 0 {
        s.push_str(&format!("{} change(s) deferred to a later plan (not in the Plan line).\n\n", p.deferred));
    }
    if p.errored {
        s.push_str(
            "> [!CAUTION]\n> **This plan errored** and cannot be applied. Only the changes planned before the error are listed.\n\n",
        );
    }
    if p.unrecognised > 0 {
        s.push_str(&format!(
            "> [!WARNING]\n> {} change(s) have action lists planview does not recognise; they are not in the totals.\n\n",
            p.unrecognised
        ));
    }
    s.push_str("| moved | imported | forgotten | read | deposed | drifted | checks | outputs |\n");
    s.push_str("|---:|---:|---:|---:|---:|---:|---|---|\n");
    s.push_str(&format!(
        "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
        p.moved,
        p.imported,
        p.forgotten,
        p.read,
        p.deposed,
        p.drift,
        counts_line(&p.checks, md_cell),
        if p.output_changes.is_empty() { "none".into() } else { counts_line(&p.output_changes, md_cell) }
    ));
    if !p.failing_checks.is_empty() {
        s.push('\n');
    }
    for c in p.failing_checks.iter().take(FAILING_CHECKS_LISTED) {
        s.push_str(&format!("- **{}** {}: {}\n", md_cell(&c.status), md_code(&c.address), md_cell(&c.problem)));
    }
    if let Some(more) = more_failing(p) {
        s.push_str(&format!("- {}\n", md_cell(&more)));
    }
    let imported_then_destroyed = imported_then_destroyed(p);
    if !imported_then_destroyed.is_empty() {
        let list: Vec<String> = imported_then_destroyed.iter().take(FAILING_CHECKS_LISTED).map(|a| md_code(a)).collect();
        let more = imported_then_destroyed.len().saturating_sub(FAILING_CHECKS_LISTED);
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        s.push_str(&format!("\n> [!WARNING]\n> This will destroy the imported resource(s): {}{more}\n", list.join(", ")));
    }
    blocks.push(Block::Keep(s));
    let tables: [(&str, &str, Vec<String>); 4] = [
        ("resource change(s)", "resource changes", resource_rows(&p.resources)),
        ("deferred change(s)", "deferred changes", resource_rows(&p.deferred_changes)),
        (
            "action invocation(s)",
            "action invocations",
            p.action_invocations
                .iter()
                .map(|a| format!("| invoke | {} | {} |\n", md_code(&a.address), md_cell(&invocation_details(a))))
                .collect(),
        ),
        (
            "resource(s) changed outside of Terraform/OpenTofu (refresh-only)",
            "drift",
            if p.refresh_only { resource_rows(&p.drifted) } else { Vec::new() },
        ),
    ];
    for (summary, what, rows) in tables {
        if rows.is_empty() {
            continue;
        }
        blocks.push(Block::Rows {
            open: format!("\n<details><summary>{} {summary}</summary>\n\n| action | address | details |\n|---|---|---|\n", rows.len()),
            rows,
            close: "\n</details>\n".into(),
            what: format!("{what} of {}", md_code(file)),
        });
    }
}

fn resource_rows(resources: &[ResourceEntry]) -> Vec<String> {
    grouped(resources)
        .into_iter()
        .map(|r| format!("| {} | {} | {} |\n", md_cell(&action_words(r)), md_code(&r.address), md_cell(&details(r).join("; "))))
        .collect()
}

fn state_md(blocks: &mut Vec<Block>, file: &str, s: &StateSummary) {
    let c = &s.counts;
    blocks.push(Block::Keep(format!(
        "### {} — state: {} resources ({} managed, {} data), {} tainted\n\n",
        md_code(file),
        c.resources,
        c.managed,
        c.data,
        c.tainted
    )));
    if !s.resources.is_empty() {
        blocks.push(Block::Rows {
            open: "<details><summary>Resources by type</summary>\n\n| type | count |\n|---|---:|\n".into(),
            rows: c.by_type.iter().map(|(t, n)| format!("| {} | {n} |\n", md_code(t))).collect(),
            close: "\n</details>\n\n".into(),
            what: format!("resource types of {}", md_code(file)),
        });
    }
    if !s.outputs.is_empty() {
        blocks.push(Block::Rows {
            open: "| output | type | value |\n|---|---|---|\n".into(),
            rows: s
                .outputs
                .iter()
                .map(|o| {
                    format!("| {} | {} | {} |\n", md_code(&o.name), md_cell(&o.display_type()), md_code(&truncate(&o.display_value(), 120)))
                })
                .collect(),
            close: String::new(),
            what: format!("outputs of {}", md_code(file)),
        });
    }
}

// ---------------------------------------------------------------- json

#[derive(Serialize)]
#[serde(untagged)]
enum JsonItem<'a> {
    Ok(&'a Summary),
    Err(JsonInputError<'a>),
}

#[derive(Serialize)]
struct JsonMany<'a> {
    files: Vec<JsonItem<'a>>,
    total: SummaryTotal,
    /// One row per root (input document), in order.
    roots: Vec<crate::query::roots::RootRow>,
}

pub(crate) fn json_out(w: &mut dyn Write, items: &[PerFile<Summary>]) -> io::Result<()> {
    let list: Vec<JsonItem> = items
        .iter()
        .map(|i| match &i.result {
            Ok(s) => JsonItem::Ok(s),
            Err(e) => JsonItem::Err(JsonInputError::new(e)),
        })
        .collect();
    if items.len() == 1 {
        return write_json(w, &list[0]);
    }
    let ok: Vec<&Summary> = items.iter().filter_map(|i| i.result.as_ref().ok()).collect();
    let failed = items.iter().filter(|i| i.result.is_err()).count() as u64;
    write_json(w, &JsonMany { files: list, total: sum(&ok, failed), roots: crate::query::roots::of_summaries(items) })
}

// ---------------------------------------------------------------- gitlab

/// GitLab's `artifacts:reports:terraform` file: what the merge-request widget
/// reads (schemas/summary-gitlab.schema.json).
#[derive(Debug, Default, Serialize, PartialEq, Eq)]
pub(crate) struct GitlabReport {
    pub create: u64,
    pub update: u64,
    pub delete: u64,
}

impl GitlabReport {
    /// The CLI's add, change and destroy, summed over the plans read (a state
    /// or an unreadable input adds nothing).
    pub(crate) fn of(items: &[PerFile<Summary>]) -> GitlabReport {
        let mut r = GitlabReport::default();
        for i in items {
            if let Ok(Summary::Plan(p)) = &i.result {
                r.create += p.totals.add;
                r.update += p.totals.change;
                r.delete += p.totals.destroy;
            }
        }
        r
    }
}

/// `summary --format gitlab`: `{"create": N, "update": N, "delete": N}`; when
/// an input could not be read, its error object as every JSON output prints it
/// (`{"file", "error"}`, or `{"files": [...]}` of the unreadable inputs when
/// several were given), never sums that leave an input out.
pub(crate) fn gitlab_out(w: &mut dyn Write, items: &[PerFile<Summary>]) -> io::Result<()> {
    let errors: Vec<crate::render::JsonInputError<'_>> =
        items.iter().filter_map(|i| i.result.as_ref().err()).map(crate::render::JsonInputError::new).collect();
    match errors.len() {
        0 => write_json(w, &GitlabReport::of(items)),
        1 if items.len() == 1 => write_json(w, &errors[0]),
        _ => write_json(w, &GitlabErrors { files: errors }),
    }
}

/// The unreadable inputs of `summary --format gitlab` over several inputs.
#[derive(Serialize)]
struct GitlabErrors<'a> {
    files: Vec<crate::render::JsonInputError<'a>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::summary::summarize;
    use crate::query::values::Visibility;

    fn table_of(json: &str) -> String {
        let doc = crate::input::parse("f", json.as_bytes()).unwrap();
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
        let doc = crate::input::parse(
            "f",
            br#"{"format_version":"1.2","resource_changes":[],"checks":[{"address":{"to_display":"c"},"status":"x|<b>"}]}"#,
        )
        .unwrap();
        let s = summarize(&doc, &Visibility::default()).unwrap();
        let items = vec![PerFile { file: "f".into(), result: Ok(s), masker: Default::default() }];
        md.extend_from_slice(crate::render::fit::fit(&markdown_blocks(&items), 65536).as_bytes());
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
