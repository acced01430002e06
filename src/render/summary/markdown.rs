//! `summary --format markdown`: blocks for a PR comment, fitted by `render::fit`.

use super::*;
use crate::render::link::Forge;

/// Markdown for a pull-request comment, as blocks fitted to a budget
/// ([`crate::render::fit`]): a verdict line first, resource lists in
/// `<details>` (rows are left out to fit, and the comment says so).
/// `forge`: where each address links to (its block's lines), when known.
pub(crate) fn markdown_blocks(items: &[PerFile<Summary>], forge: Option<&Forge>) -> Vec<Block> {
    let mut blocks = Vec::new();
    if items.len() > 1 {
        let ok: Vec<&Summary> = items.iter().filter_map(|i| i.result.as_ref().ok()).collect();
        let failed = items.iter().filter(|i| i.result.is_err()).count() as u64;
        let t = sum(&ok, failed);
        let mut s = String::new();
        let verdict = if t.plans > 0 { t.totals.plan_line() } else { format!("{} states", t.states) };
        s.push_str(&format!("### Total over {} files — {verdict}\n\n", t.files));
        if let Some(n) = NoiseCount::line_of(t.noise.as_ref()) {
            s.push_str(&format!("{n}.\n\n"));
        }
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
            Ok(Summary::Plan(p)) => plan_md(&mut blocks, &item.file, p, forge),
            Ok(Summary::State(s)) => state_md(&mut blocks, &item.file, s),
            Err(e) => blocks.push(Block::Keep(format!(
                "### :x: {}\n\n**Could not be read:** {}\n",
                md_code(&item.file),
                crate::render::md_error(e)
            ))),
        }
    }
    blocks
}

pub(super) fn plan_md(blocks: &mut Vec<Block>, file: &str, p: &PlanSummary, forge: Option<&Forge>) {
    let mut s = format!("### {} — {}\n\n", md_code(file), md_cell(&p.plan_line));
    if let Some(n) = NoiseCount::line_of(p.noise.as_ref()) {
        s.push_str(&format!("{}.\n\n", md_cell(&n)));
    }
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
    // Markdown's lists are never spooled: read from memory, which cannot fail.
    let imported_then_destroyed = imported_then_destroyed(p).unwrap_or_default();
    if !imported_then_destroyed.is_empty() {
        let list: Vec<String> = imported_then_destroyed.iter().take(FAILING_CHECKS_LISTED).map(|a| md_code(a)).collect();
        let more = imported_then_destroyed.len().saturating_sub(FAILING_CHECKS_LISTED);
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        s.push_str(&format!("\n> [!WARNING]\n> This will destroy the imported resource(s): {}{more}\n", list.join(", ")));
    }
    blocks.push(Block::Keep(s));
    // A `source` column where the configuration was read and locates some of the changes.
    let located = |r: &[ResourceEntry]| r.iter().any(|e| e.location.is_some() && !e.noise);
    let tables: [(&str, &str, Vec<String>, bool); 4] = [
        ("resource change(s)", "resource changes", resource_rows(&p.resources, p.noise.as_ref(), forge), located(&p.resources)),
        ("deferred change(s)", "deferred changes", resource_rows(&p.deferred_changes, None, forge), located(&p.deferred_changes)),
        (
            "action invocation(s)",
            "action invocations",
            p.action_invocations
                .iter()
                .map(|a| format!("| invoke | {} | {} |\n", md_code(&a.address), md_cell(&invocation_details(a))))
                .collect(),
            false,
        ),
        (
            "resource(s) changed outside of Terraform/OpenTofu (refresh-only)",
            "drift",
            if p.refresh_only { resource_rows(&p.drifted, None, forge) } else { Vec::new() },
            p.refresh_only && located(&p.drifted),
        ),
    ];
    // The noise row stands for that many changes.
    let collapsed = NoiseCount::line_of(p.noise.as_ref()).and(p.noise.as_ref()).map_or(0, |n| n.count as usize - 1);
    for (i, (summary, what, rows, located)) in tables.into_iter().enumerate() {
        if rows.is_empty() {
            continue;
        }
        let alike = match i {
            0 => collapsed_away(&p.resources),
            1 => collapsed_away(&p.deferred_changes),
            3 => collapsed_away(&p.drifted),
            _ => 0,
        };
        let n = rows.len() + if i == 0 { collapsed } else { 0 } + alike;
        let head = if located {
            "| action | address | source | details |\n|---|---|---|---|"
        } else {
            "| action | address | details |\n|---|---|---|"
        };
        blocks.push(Block::Rows {
            open: format!("\n<details><summary>{n} {summary}</summary>\n\n{head}\n"),
            rows,
            close: "\n</details>\n".into(),
            what: format!("{what} of {}", md_code(file)),
        });
    }
}

/// One row per change; the noise entries (with `noise`'s patterns) collapsed into one last row.
/// With a location known for any of them, a `source` cell (`` `main.tf:12` ``, `-` where unknown) after the address;
/// with the forge known too, the address links to its block's lines there.
pub(super) fn resource_rows(resources: &[ResourceEntry], noise: Option<&NoiseCount>, forge: Option<&Forge>) -> Vec<String> {
    let located = resources.iter().any(|r| r.location.is_some() && !r.noise);
    let source = |r: &ResourceEntry| match (&r.location, located) {
        (_, false) => String::new(),
        (Some(l), true) => format!(" {} |", md_code(&l.to_string())),
        (None, true) => " - |".to_string(),
    };
    // The address, linked when the forge is known (the `source` cell says `file:line`).
    let address = |code: String, r: &ResourceEntry| match forge.zip(r.location.as_ref()).and_then(|(f, l)| f.url(l)) {
        Some(url) => format!("[{code}]({url})"),
        None => code,
    };
    let mut rows: Vec<String> = super::rows(resources)
        .into_iter()
        .map(|row| match row {
            Row::One(r) => {
                format!(
                    "| {} | {} |{} {} |\n",
                    md_cell(&action_words(r)),
                    address(md_code(&r.address), r),
                    source(r),
                    md_cell(&details(r).join("; "))
                )
            }
            // Alike changes: one row, their keys behind a toggle.
            Row::Alike { first, label, keys } => {
                let keys: Vec<String> = keys.iter().map(|k| md_code(k)).collect();
                format!(
                    "| {} | {} |{} <details><summary>{} alike</summary>{}</details> |\n",
                    md_cell(&action_words(first)),
                    address(md_code(&label), first),
                    source(first),
                    keys.len(),
                    keys.join(", ")
                )
            }
        })
        .collect();
    if let Some(n) = noise.filter(|n| n.count > 0) {
        let source = if located { " - |" } else { "" };
        rows.push(format!("| update in-place | ({} resources) |{source} noise: {} |\n", n.count, md_cell(&n.what())));
    }
    rows
}

pub(super) fn state_md(blocks: &mut Vec<Block>, file: &str, s: &StateSummary) {
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
