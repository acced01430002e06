//! Renders `comment`: one markdown body for a pull-request (or merge-request)
//! review within one byte budget: the verdict first, then the `Plan:` line(s),
//! the changes grouped destructive-first with `show`'s diffs in `<details>`,
//! failing checks, relevant drift and outputs. When the whole does not fit,
//! the least important parts go first (diffs of changes that change nothing,
//! then the other diffs, then list rows), and a closing note says what was
//! left out and where the whole is.

use super::{md_cell, md_code};
use crate::outcome::PerFile;
use crate::query::collapse::{changed_attributes, member_key, Collapser};
use crate::query::gate::{total, GateTotal, PolicyReport, Severity};
use crate::query::review::Review;
use crate::query::show::{OutputDiff, ResourceDiff, ShowReport};
use crate::query::summary::{PlanSummary, ResourceEntry, Totals};
use crate::render::gate::{rule_name, verdict_head};
use crate::render::link::{md_address, Forge};
use crate::render::summary::{action_words, details, INCOMPLETE_BANNER};
use crate::secrets::Masker;

/// The job summary's limit (GitHub: 1 MiB per step).
pub(crate) const SUMMARY_MAX_BYTES: usize = 1_048_576;

/// Where the comment is posted: each platform's limit on a comment body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Platform {
    #[default]
    Github,
    Gitlab,
    Azure,
    Bitbucket,
}

impl Platform {
    /// The largest body the platform takes, in bytes (its limits are in
    /// characters; bytes are never fewer).
    pub fn max_bytes(self) -> usize {
        match self {
            Platform::Github => 65_536,
            Platform::Gitlab => 1_000_000,
            Platform::Azure => 150_000,
            // Bitbucket: "less than 32768" characters.
            Platform::Bitbucket => 32_767,
        }
    }
}

/// How one body is made.
#[derive(Debug, Clone)]
pub(crate) struct BodyOptions {
    pub max_bytes: usize,
    /// The hidden marker's ID (`<!-- planview:ID -->` first), if any.
    pub marker: Option<String>,
    /// Where the whole review is, for the closing note when parts are left out.
    pub whole: String,
    /// Where addresses link to (their source lines on the forge), from the CI's environment.
    pub forge: Option<Forge>,
}

/// The marker ID made of `raw` (an `--id`, or the input names): letters,
/// digits and `._/,:=+-` kept, anything else `_`, never `--` (which would end
/// the HTML comment), at most 128 bytes.
pub(crate) fn marker_id(raw: &str) -> String {
    let mut id: String = raw.chars().map(|c| if c.is_ascii_alphanumeric() || "._/,:=+-".contains(c) { c } else { '_' }).take(128).collect();
    while id.contains("--") {
        id = id.replace("--", "-");
    }
    let id = id.trim_matches('-').to_string();
    if id.is_empty() {
        "default".into()
    } else {
        id
    }
}

/// The marker line a poster looks for.
pub(crate) fn marker_line(id: &str) -> String {
    format!("<!-- planview:{} -->\n", marker_id(id))
}

// ---------------------------------------------------------------- parts

/// What a list holds, by how soon it is left out (earliest first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// Diffs of changes that change nothing (moves, imports, reads).
    Unchanged,
    Diff,
    Row,
}

/// A list of items that may be left out one by one (from its end); a list
/// none of whose items is kept is left out whole, `open` and `close` too.
#[derive(Debug, Clone)]
struct List {
    open: String,
    items: Vec<String>,
    close: String,
    kind: Kind,
    /// Lists of the same kind go least important first.
    importance: usize,
}

#[derive(Debug, Clone)]
enum Part {
    /// Always kept (the marker, verdict, `Plan:` lines, headings, errors).
    Keep(String),
    List(List),
}

/// Action groups, most destructive first (an unrecognised action list comes before them all).
const GROUPS: &[(&str, &str)] = &[
    ("replace", "Replace"),
    ("delete", "Destroy"),
    ("forget+create", "Replace, old object forgotten (not destroyed)"),
    ("create+forget", "Replace, old object forgotten (not destroyed)"),
    ("forget", "Forget (removed from the state, not destroyed)"),
    ("update", "Update in-place"),
    ("create", "Create"),
    ("read", "Read"),
    ("no-op", "Move or import only (no change)"),
];

/// The group of an action key: 0 for unrecognised, then GROUPS in order.
fn group_of(action: &str) -> usize {
    GROUPS.iter().position(|(k, _)| *k == action).map_or(0, |i| i + 1)
}

fn group_title(g: usize) -> &'static str {
    if g == 0 {
        "Unrecognised actions"
    } else {
        GROUPS[g - 1].1
    }
}

/// Changes that change nothing: their diffs are the first to go.
fn unchanged_group(g: usize) -> bool {
    g > 0 && matches!(GROUPS[g - 1].0, "read" | "no-op")
}

/// Higher is kept longer: the more destructive, the more important.
fn importance(g: usize) -> usize {
    GROUPS.len() + 1 - g
}

/// The keys a collapsed row lists (the job summary, `summary` and JSON list every change).
const KEYS_LISTED: usize = 40;

fn resource_row(r: &ResourceEntry, forge: Option<&Forge>) -> String {
    let address = md_address(md_code(&r.address), r.location.as_ref(), forge);
    format!("| {} | {address} | {} |\n", md_cell(&action_words(r)), md_cell(&details(r).join("; ")))
}

/// `show`'s markdown of one resource (or of the output changes), without
/// `show`'s own heading; a single diff longer than `cap` is cut short by `show`.
/// What is rendered is lent to `show` and put back.
fn show_md(resource: &mut Option<ResourceDiff>, outputs: &mut Vec<OutputDiff>, cap: usize) -> String {
    let report = ShowReport {
        file: String::new(),
        format_version: String::new(),
        terraform_version: None,
        errored: false,
        resources: resource.take().into_iter().collect(),
        outputs: std::mem::take(outputs),
        hidden_noop: 0,
        filtered_out: 0,
        invocations: Vec::new(),
        without_schema: Default::default(),
        dependents: Default::default(),
    };
    let mut buf = Vec::new();
    let items = [PerFile { file: String::new(), result: Ok(report), masker: Masker::default() }];
    let written = crate::render::show::markdown_out(&mut buf, &items, cap, None);
    let [PerFile { result: Ok(mut report), .. }] = items else { return String::new() };
    *resource = report.resources.pop();
    *outputs = report.outputs;
    if written.is_err() {
        return String::new();
    }
    let s = String::from_utf8_lossy(&buf).into_owned();
    match s.split_once("\n\n") {
        Some((head, rest)) if head.starts_with("### ") => rest.to_string(),
        _ => s,
    }
}

fn banners(p: &PlanSummary) -> String {
    let mut s = String::new();
    if let Some(n) = crate::query::noise::NoiseCount::line_of(p.noise.as_ref()) {
        s.push_str(&format!("{}.\n", md_cell(&n)));
    }
    if p.errored {
        s.push_str(
            "\n> [!CAUTION]\n> **This plan errored** and cannot be applied. Only the changes planned before the error are listed.\n",
        );
    }
    if p.incomplete && !p.errored {
        s.push_str(&format!("\n> [!CAUTION]\n> {}\n", md_cell(INCOMPLETE_BANNER.trim_start_matches("!! "))));
    }
    for u in &p.unreadable {
        s.push_str(&format!("\n> [!CAUTION]\n> planview could not read {}\n", md_cell(u)));
    }
    if p.unrecognised > 0 {
        s.push_str(&format!(
            "\n> [!WARNING]\n> {} change(s) have action lists planview does not recognise; they are not in the totals.\n",
            p.unrecognised
        ));
    }
    s
}

/// The parts of one input's review (after the verdict): its changes by
/// group with their diffs, failing checks, relevant drift, outputs.
fn review_parts(parts: &mut Vec<Part>, r: &mut Review, diff_cap: usize, forge: Option<&Forge>) {
    let Review { summary: p, diffs, outputs, drift, drift_hidden, verdict, .. } = r;
    let drift_hidden = *drift_hidden;
    if p.deferred > 0 {
        parts.push(Part::Keep(format!("\n{} change(s) deferred to a later plan (not in the Plan line).\n", p.deferred)));
    }
    // Failing checks, right after the verdict: they may be why it failed.
    let checks: Vec<String> = p
        .failing_checks
        .iter()
        .map(|c| {
            format!(
                "- **{}** {}: {}\n",
                md_cell(&c.status),
                md_address(md_code(&c.address), c.location.as_ref(), forge),
                md_cell(&c.problem)
            )
        })
        .collect();
    if !checks.is_empty() {
        parts.push(Part::List(List {
            open: format!("\n**Failing checks ({})**\n\n", checks.len()),
            items: checks,
            close: String::new(),
            kind: Kind::Row,
            importance: GROUPS.len() + 2,
        }));
    }
    // Changes, grouped destructive-first; each group's diffs in `<details>`.
    type Member<'r> = (&'r ResourceEntry, &'r mut Option<ResourceDiff>);
    let mut groups: Vec<(usize, Vec<Member>)> = Vec::new();
    // Noise (`--ignore-attr`) is one line after the groups, not rows and diffs.
    let mut entries: Vec<Member> = p.resources.iter().zip(diffs.iter_mut()).filter(|(e, _)| !e.noise).collect();
    entries.sort_by_key(|(e, _)| group_of(&e.action));
    for (e, d) in entries {
        let g = group_of(&e.action);
        match groups.last_mut() {
            Some((last, v)) if *last == g => v.push((e, d)),
            _ => groups.push((g, vec![(e, d)])),
        }
    }
    for (g, members) in groups {
        let title = group_title(g);
        let count = members.len();
        // Alike changes (`query::collapse`): one row with their keys, one diff.
        let mut c = Collapser::default();
        let of: Vec<usize> = members
            .iter()
            .map(|(e, d)| {
                let alone = e.moved || e.importing || e.deposed.is_some() || !e.recognised || d.is_none();
                let action = format!("{} {:?} {}", e.action, e.replace_order, e.reason.as_deref().unwrap_or(""));
                c.push(&e.address, &action, d.as_ref().map(changed_attributes), alone)
            })
            .collect();
        let alike = c.finish();
        let addresses: Vec<String> = members.iter().map(|(e, _)| e.address.clone()).collect();
        let mut rows = Vec::new();
        let mut diffs = Vec::new();
        for (i, (e, d)) in members.into_iter().enumerate() {
            let group = &alike[of[i]];
            if !group.collapsed() {
                rows.push(resource_row(e, forge));
                if d.is_some() {
                    diffs.push(show_md(d, &mut Vec::new(), diff_cap));
                }
            } else if group.members[0] == i {
                // The first keys: a row is never longer than a few lines.
                let n = group.members.len();
                let mut keys: Vec<String> = group.members.iter().take(KEYS_LISTED).map(|&m| md_code(&member_key(&addresses[m]))).collect();
                if n > KEYS_LISTED {
                    keys.push(format!("and {} more", n - KEYS_LISTED));
                }
                rows.push(format!(
                    "| {} | {} | <details><summary>{n} alike</summary>{}</details> |\n",
                    md_cell(&action_words(e)),
                    md_code(&group.label),
                    keys.join(", ")
                ));
                let first = show_md(d, &mut Vec::new(), diff_cap);
                diffs.push(format!("{n} changes alike ({}), the first one's diff:\n\n{first}", md_code(&group.label)));
            }
        }
        parts.push(Part::List(List {
            open: format!("\n**{title}** ({count})\n\n| action | address | details |\n|---|---|---|\n"),
            items: rows,
            close: String::new(),
            kind: Kind::Row,
            importance: importance(g),
        }));
        if !diffs.is_empty() {
            parts.push(Part::List(List {
                open: format!("\n<details><summary>Diffs: {} ({})</summary>\n\n", title.to_lowercase(), diffs.len()),
                items: diffs,
                close: "</details>\n".into(),
                kind: if unchanged_group(g) { Kind::Unchanged } else { Kind::Diff },
                importance: importance(g),
            }));
        }
    }
    blast_part(parts, &verdict.blast);
    if let Some(n) = p.noise.as_ref().filter(|n| n.count > 0) {
        parts.push(Part::Keep(format!(
            "\n**Noise** ({}): in-place updates that {}, not listed (`planview summary --format json` with the same `--ignore-attr` lists them).\n",
            n.count,
            md_cell(&n.what())
        )));
    }
    // Action invocations (Terraform 1.14+), with what triggers them and their on_failure.
    if !p.action_invocations.is_empty() {
        let rows: Vec<String> = p
            .action_invocations
            .iter()
            .map(|a| format!("| invoke | {} | {} |\n", md_code(&a.address), md_cell(&crate::render::summary::invocation_details(a))))
            .collect();
        parts.push(Part::List(List {
            open: format!("\n**Actions to invoke** ({})\n\n| action | address | details |\n|---|---|---|\n", rows.len()),
            items: rows,
            close: String::new(),
            kind: Kind::Row,
            // As important as in-place updates: an action runs, nothing is destroyed by it.
            importance: importance(group_of("update")),
        }));
    }
    if !drift.is_empty() || drift_hidden > 0 {
        let rows: Vec<String> = drift.iter().map(|d| format!("| {} | {} |\n", md_code(&d.address), md_cell(&d.words))).collect();
        let hidden = if drift_hidden > 0 {
            format!("\n{drift_hidden} more drifted object(s) not relevant to this plan (`planview drift --all` lists them).\n")
        } else {
            String::new()
        };
        if rows.is_empty() {
            parts.push(Part::Keep(hidden));
        } else {
            parts.push(Part::List(List {
                open: format!(
                    "\n**Changed outside of Terraform/OpenTofu, relevant to this plan** ({})\n\n| address | what |\n|---|---|\n",
                    rows.len()
                ),
                items: rows,
                close: hidden,
                kind: Kind::Row,
                importance: 0,
            }));
        }
    }
    if !outputs.is_empty() {
        let n = outputs.len();
        parts.push(Part::List(List {
            open: format!("\n<details><summary>Output changes ({n})</summary>\n\n"),
            items: vec![show_md(&mut None, outputs, diff_cap)],
            close: "</details>\n".into(),
            kind: Kind::Diff,
            importance: 0,
        }));
    }
}

/// What each destructive change drags along (docs/dependents.md), one line
/// each: "replacing `X` also changes 7 objects: ...", the first few named.
fn blast_part(parts: &mut Vec<Part>, blast: &[crate::query::dependents::BlastLine]) {
    const NAMED: usize = 10;
    let lines: Vec<String> = blast
        .iter()
        .filter(|b| !b.dependents.is_empty() || !b.through_locals.is_empty())
        .map(|b| {
            let verb = if b.action == "delete" { "destroying" } else { "replacing" };
            let (n, maybe) = (b.dependents.len(), b.through_locals.len());
            let words = crate::render::replace::also_changes(n, maybe);
            // Only the certain ones are named: a guess is counted, not named.
            let mut named: Vec<String> = b.dependents.iter().take(NAMED).map(|d| md_code(d)).collect();
            if n > NAMED {
                named.push(format!("and {} more", n - NAMED));
            }
            match n {
                0 => format!("- {verb} {} {words} (the plan leaves locals out)\n", md_code(&b.address)),
                _ => format!("- {verb} {} {words}: {}\n", md_code(&b.address), named.join(", ")),
            }
        })
        .collect();
    if !lines.is_empty() {
        parts.push(Part::List(List {
            open: format!("\n**Blast radius** ({})\n\n", lines.len()),
            items: lines,
            close: String::new(),
            kind: Kind::Row,
            importance: importance(group_of("replace")),
        }));
    }
}

/// Every part of the body, in order (not yet scrubbed or fitted).
fn parts_of(items: &mut [PerFile<Review>], policy: &PolicyReport, diff_cap: usize, forge: Option<&Forge>) -> Vec<Part> {
    let t: GateTotal = total(items.iter().map(|i| i.result.as_ref().ok().map(|r| &r.verdict)));
    let unreadable = items.iter().filter_map(|i| i.result.as_ref().err().map(|e| (i.file.as_str(), e)));
    let (heading, errors) = verdict_head("planview", &t, policy, unreadable);
    let mut parts = vec![Part::Keep(heading)];
    if !errors.is_empty() {
        parts.push(Part::Keep(errors));
    }
    let many = items.len() > 1;
    if many {
        let mut sum = Totals::default();
        items.iter().filter_map(|i| i.result.as_ref().ok()).for_each(|r| sum.add_assign(&r.summary.totals));
        parts.push(Part::Keep(format!("\n**Total over {} inputs — {}**\n", items.len(), md_cell(&sum.plan_line()))));
        // One row per plan (root): what it would do, drift, checks, verdict.
        let verdicts: Vec<PerFile<crate::query::gate::PlanVerdict>> = items
            .iter()
            .map(|i| PerFile {
                file: i.file.clone(),
                result: i.result.as_ref().map(|r| r.verdict.clone()).map_err(Clone::clone),
                masker: Masker::default(),
            })
            .collect();
        let rows = crate::query::roots::of_verdicts(&verdicts);
        for block in crate::render::roots::markdown(&rows.iter().collect::<Vec<_>>(), 0) {
            parts.push(match block {
                crate::render::fit::Block::Keep(k) => Part::Keep(k),
                crate::render::fit::Block::Rows { open, rows, close, .. } => {
                    Part::List(List { open, items: rows, close, kind: Kind::Row, importance: usize::MAX })
                }
            });
        }
    }
    if let [PerFile { result: Ok(r), .. }] = &*items {
        parts.push(Part::Keep(format!("\n**{}**\n{}", md_cell(&r.summary.plan_line), banners(&r.summary))));
    }
    // Violations of the plan as a whole first; those of one change repeat a
    // row of the changes below, so they are the first rows to go.
    for severity in [Severity::Error, Severity::Warning] {
        violation_parts(&mut parts, items, many, severity, forge);
    }
    for i in items.iter_mut() {
        let Ok(r) = &mut i.result else { continue };
        if many {
            parts.push(Part::Keep(format!("\n### {} — {}\n{}", md_code(&i.file), md_cell(&r.summary.plan_line), banners(&r.summary))));
        }
        review_parts(&mut parts, r, diff_cap, forge);
    }
    parts
}

/// The violations of one severity: errors (**Violations**), then warnings
/// (**Warnings**), below the verdict and never in its place.
fn violation_parts(parts: &mut Vec<Part>, items: &[PerFile<Review>], many: bool, severity: Severity, forge: Option<&Forge>) {
    let mut violations: Vec<(bool, String)> = items
        .iter()
        .filter_map(|i| i.result.as_ref().ok().map(|r| (&i.file, r)))
        .flat_map(|(file, r)| {
            r.verdict.violations.iter().filter(move |x| x.severity == severity).map(move |x| {
                let plan = if many { format!("{} | ", md_code(file)) } else { String::new() };
                let row = format!(
                    "| {plan}{} | {} | {} | {} |\n",
                    md_code(rule_name(&x.rule)),
                    x.address.as_deref().map(|a| md_address(md_code(a), x.location.as_ref(), forge)).unwrap_or_else(|| "-".into()),
                    md_cell(&x.action),
                    md_cell(&x.reason)
                );
                (x.address.is_some(), row)
            })
        })
        .collect();
    violations.sort_by_key(|(tied, _)| *tied);
    let violations: Vec<String> = violations.into_iter().map(|(_, row)| row).collect();
    if !violations.is_empty() {
        let (head, rule) = if many { ("| plan ", "|---") } else { ("", "") };
        let title = match severity {
            Severity::Error => "Violations",
            Severity::Warning => "Warnings",
        };
        parts.push(Part::List(List {
            open: format!("\n**{title} ({})**\n\n{head}| rule | address | action | reason |\n{rule}|---|---|---|---|\n", violations.len()),
            items: violations,
            close: String::new(),
            kind: Kind::Row,
            importance: 0,
        }));
    }
}

// ---------------------------------------------------------------- fitting

fn note(max: usize, diffs: (usize, usize), rows: (usize, usize), whole: &str) -> String {
    format!(
        "\n> [!NOTE]\n> Trimmed to fit {max} bytes: left out {} of {} diffs and {} of {} list rows (the least important first). The whole review: {whole}.\n",
        diffs.0, diffs.1, rows.0, rows.1
    )
}

fn cut_note(max: usize, whole: &str) -> String {
    format!("\n> [!NOTE]\n> Cut short to fit {max} bytes. The whole review: {whole}.\n")
}

/// `comment`'s notes: how many diffs and list rows were left out, and where
/// the whole review is.
struct CommentNotes<'a> {
    /// Whether block `i` is a list of diffs (else rows or no list).
    diffs: Vec<bool>,
    max: usize,
    whole: &'a str,
}

impl crate::render::fit::Notes for CommentNotes<'_> {
    fn trimmed(&self, left_out: &[usize], totals: &[usize]) -> String {
        let sum = |diffs: bool, of: &[usize]| -> usize { of.iter().zip(&self.diffs).filter(|(_, d)| **d == diffs).map(|(n, _)| n).sum() };
        note(self.max, (sum(true, left_out), sum(true, totals)), (sum(false, left_out), sum(false, totals)), self.whole)
    }
    fn cut(&self, _end: usize, _len: usize) -> String {
        cut_note(self.max, self.whole)
    }
}

/// Join the parts within `max` bytes with the one fitter
/// ([`crate::render::fit::fit_ranked`]): lists of diffs of changes that change
/// nothing go first, then the other diffs, then list rows, each kind the
/// least important first. The result is never longer than `max` (for `max`
/// of at least [`crate::render::fit::MIN_MAX_BYTES`]) and every `<details>`
/// and code fence in it is closed.
fn fit(head: &str, parts: &[Part], max: usize, whole: &str) -> String {
    use crate::render::fit::{fit_ranked, Block, Rank};
    let mut blocks = Vec::with_capacity(parts.len());
    let mut ranks = Vec::with_capacity(parts.len());
    let mut diffs = Vec::with_capacity(parts.len());
    for p in parts {
        match p {
            Part::Keep(s) => {
                blocks.push(Block::Keep(s.clone()));
                ranks.push(Rank::default());
                diffs.push(false);
            }
            Part::List(l) => {
                let what = String::new();
                blocks.push(Block::Rows { open: l.open.clone(), rows: l.items.clone(), close: l.close.clone(), what });
                ranks.push(Rank(l.kind as u8, l.importance));
                diffs.push(l.kind != Kind::Row);
            }
        }
    }
    fit_ranked(head, &blocks, &ranks, max, &CommentNotes { diffs, max, whole })
}

/// The body: the parts of every input's review (secrets were masked where the
/// review took values from the input), fitted within `opts.max_bytes`.
pub(crate) fn body(items: &mut [PerFile<Review>], policy: &PolicyReport, opts: &BodyOptions) -> String {
    // One diff never takes more than a quarter of the budget (`show` cuts it
    // short), nor less than 1,024 bytes.
    let diff_cap = (opts.max_bytes / 4).clamp(1_024, 65_536);
    let parts: Vec<Part> = parts_of(items, policy, diff_cap, opts.forge.as_ref());
    // The marker is planview's own: never masked. Below it, each plan's
    // fingerprint, hidden, for a later job to read back (`gate --expect-fingerprint`).
    let mut head = opts.marker.as_deref().map(marker_line).unwrap_or_default();
    if !head.is_empty() {
        head.push_str(&fingerprint_lines(items));
    }
    fit(&head, &parts, opts.max_bytes, &opts.whole)
}

/// `<!-- planview-fingerprint sha256:... -->`, one line per plan (with its
/// name, made safe as a marker ID is, when there are several).
pub(crate) fn fingerprint_lines(items: &[PerFile<Review>]) -> String {
    let several = items.len() > 1;
    items
        .iter()
        .filter_map(|i| i.result.as_ref().ok().and_then(|r| r.fingerprint.as_deref()).map(|f| (&i.file, f)))
        .map(|(file, f)| {
            if several {
                format!("<!-- planview-fingerprint {} {f} -->\n", marker_id(file))
            } else {
                format!("<!-- planview-fingerprint {f} -->\n")
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(kind: Kind, importance: usize, n: usize, width: usize) -> Part {
        Part::List(List {
            open: "<details><summary>x</summary>\n\n```diff\n".into(),
            items: (0..n).map(|i| format!("{i:05}{}\n", "y".repeat(width))).collect(),
            close: "```\n</details>\n".into(),
            kind,
            importance,
        })
    }

    #[test]
    fn marker_ids_cannot_end_the_comment() {
        assert_eq!(marker_id("infra/prod/plan.json"), "infra/prod/plan.json");
        assert_eq!(marker_id("a --> <script>"), "a_-___script_");
        assert!(!marker_id("x---->y").contains("--"));
        assert_eq!(marker_id("<stdin>"), "_stdin_");
        assert_eq!(marker_id(""), "default");
        assert_eq!(marker_line("a b"), "<!-- planview:a_b -->\n");
    }

    #[test]
    fn the_least_important_go_first_and_the_note_says_so() {
        let parts = vec![
            Part::Keep("## verdict\n".into()),
            list(Kind::Row, 5, 40, 20),
            list(Kind::Diff, 5, 40, 20),
            list(Kind::Unchanged, 9, 40, 20),
        ];
        // Room for every row and some diffs: the unchanged ones go first.
        let s = fit("<!-- planview:x -->\n", &parts, 2_500, "the job summary");
        assert!(s.len() <= 2_500, "{}", s.len());
        assert!(s.starts_with("<!-- planview:x -->\n## verdict\n"));
        assert!(s.contains("left out 38 of 80 diffs and 0 of 40 list rows"), "{s}");
        assert!(s.contains("The whole review: the job summary."));
        assert_eq!(s.matches("<details>").count(), 3, "every list keeps some items");
        assert_eq!(s.matches("00039").count(), 2, "the rows and the diffs of changes that change something are whole");
        // Less room: every diff goes before any row.
        let s = fit("", &parts, 1_200, "w");
        assert!(s.len() <= 1_200, "{}", s.len());
        assert!(s.contains("left out 80 of 80 diffs and "), "{s}");
        assert!(!s.contains("and 0 of 40 list rows") && s.contains("<details>"), "{s}");
        assert_eq!(s.matches("<details>").count(), s.matches("</details>").count());
        let whole = fit("", &parts, 1_000_000, "w");
        assert!(!whole.contains("[!NOTE]"));
    }

    #[test]
    fn keeps_too_long_are_cut_at_a_line_end() {
        let parts = vec![Part::Keep("k\n".repeat(3_000)), list(Kind::Row, 1, 10, 10)];
        let s = fit("<!-- planview:x -->\n", &parts, crate::render::fit::MIN_MAX_BYTES, "w");
        assert!(s.len() <= crate::render::fit::MIN_MAX_BYTES && s.starts_with("<!-- planview:x -->\n") && s.contains("Cut short"), "{s}");
        assert!(!s.contains("<details>"));
    }

    proptest::proptest! {
        #[test]
        fn never_longer_than_the_budget_and_always_balanced(
            keeps in proptest::collection::vec(0usize..400, 1..5),
            lists in proptest::collection::vec((0usize..3, 0usize..10, 0usize..300, 1usize..300), 0..8),
            max in crate::render::fit::MIN_MAX_BYTES..40_000,
        ) {
            let mut parts = Vec::new();
            for (i, k) in keeps.iter().enumerate() {
                parts.push(Part::Keep(format!("{}\n", "k".repeat(*k))));
                for (kind, imp, n, w) in lists.iter().skip(i * 2).take(2) {
                    let kind = [Kind::Unchanged, Kind::Diff, Kind::Row][*kind];
                    parts.push(list(kind, *imp, *n, *w));
                }
            }
            let s = fit("<!-- planview:p -->\n", &parts, max, "the job summary");
            proptest::prop_assert!(s.len() <= max, "{} > {}", s.len(), max);
            proptest::prop_assert!(s.starts_with("<!-- planview:p -->\n"));
            proptest::prop_assert_eq!(s.matches("<details>").count(), s.matches("</details>").count());
            proptest::prop_assert_eq!(s.lines().filter(|l| l.starts_with("```")).count() % 2, 0);
        }
    }
}
