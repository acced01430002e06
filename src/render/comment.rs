//! Renders `comment`: one markdown body for a pull-request (or merge-request)
//! review within one byte budget: the verdict first, then the `Plan:` line(s),
//! the changes grouped destructive-first with `show`'s diffs in `<details>`,
//! failing checks, relevant drift and outputs. When the whole does not fit,
//! the least important parts go first (diffs of changes that change nothing,
//! then the other diffs, then list rows), and a closing note says what was
//! left out and where the whole is.

use super::{md_cell, md_code};
use crate::outcome::PerFile;
use crate::query::collapse::{changed_attributes, member_key, Collapser, Group};
use crate::query::gate::{total, GateTotal, PolicyReport, Severity};
use crate::query::review::{each_diff, DiffWalk, Review, Weighed};
use crate::query::show::{OutputDiff, ResourceDiff, ShowReport};
use crate::query::summary::{PlanSummary, ResourceEntry, Totals};
#[cfg(test)]
use crate::render::fit::fit_ranked;
use crate::render::fit::{decide, write, Block, Rank, Weight};
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
/// none of whose items is kept is left out whole, `open` and `close` too
/// (a [`Block::Rows`] of the one fitter, ranked by `kind`, then `importance`).
struct List {
    open: String,
    items: Vec<String>,
    /// Or items made once they are known to be kept: diffs, weighed first.
    lazy: Option<Lazy>,
    close: String,
    kind: Kind,
    /// Lists of the same kind go least important first.
    importance: usize,
}

/// A list of diffs whose items are made only once they are known to be
/// kept: the input they are of, and for each item the entry whose diff it
/// shows, the words before the diff, and its length.
struct Lazy {
    item: usize,
    diffs: Vec<(usize, String, usize)>,
}

/// The body as the one fitter ([`fit_ranked`]) takes it: its blocks, and
/// how soon each one's rows go.
#[derive(Default)]
struct Parts {
    blocks: Vec<Block>,
    ranks: Vec<Rank>,
    /// Block `i`'s items when they are made later ([`Lazy`]).
    lazy: Vec<Option<Lazy>>,
}

impl Parts {
    /// Always kept (the marker, verdict, `Plan:` lines, headings, errors).
    fn keep(&mut self, s: String) {
        self.blocks.push(Block::Keep(s));
        self.ranks.push(Rank::default());
        self.lazy.push(None);
    }

    fn list(&mut self, l: List) {
        self.blocks.push(Block::Rows { open: l.open, rows: l.items, close: l.close, what: String::new() });
        self.ranks.push(Rank(l.kind as u8, l.importance));
        self.lazy.push(l.lazy);
    }

    /// What the fitter weighs: lazy items by their measured lengths.
    fn weights(&self) -> Vec<Weight> {
        self.blocks
            .iter()
            .zip(&self.lazy)
            .map(|(b, lazy)| match (b, lazy) {
                (Block::Rows { open, close, .. }, Some(l)) => {
                    Weight::Rows { ends: open.len() + close.len(), rows: l.diffs.iter().map(|d| d.2).collect() }
                }
                _ => Weight::of(b),
            })
            .collect()
    }
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
/// The output changes rendered are lent to `show` and put back.
fn show_md(resource: Option<&ResourceDiff>, outputs: &mut Vec<OutputDiff>, cap: usize) -> String {
    let report = ShowReport {
        file: String::new(),
        format_version: String::new(),
        terraform_version: None,
        errored: false,
        resources: Vec::new(),
        outputs: std::mem::take(outputs),
        hidden_noop: 0,
        filtered_out: 0,
        invocations: Vec::new(),
        without_schema: Default::default(),
        dependents: Default::default(),
    };
    let mut buf = Vec::new();
    let none = Masker::default();
    let resources: &[ResourceDiff] = resource.map(std::slice::from_ref).unwrap_or_default();
    let item = crate::render::show::Item {
        result: Ok(&report),
        resources: std::cell::RefCell::new(Box::new(resources)),
        masker: &none,
        locations: None,
    };
    let written = crate::render::show::markdown_items(&mut buf, &[item], cap, None);
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

/// The cap on one diff in a body of `max_bytes`: never more than a quarter
/// of the budget (`show` cuts it short), nor less than 1,024 bytes.
pub(crate) fn diff_cap(max_bytes: usize) -> usize {
    (max_bytes / 4).clamp(1_024, 65_536)
}

/// Weighs a review's diffs as they are walked, in order ([`Weighed`]): at
/// each cap in `caps`, and whether they line up with the summary's entries
/// (read alongside, one at a time: a spooled list is read back as it goes).
pub(crate) struct Weigher<'a> {
    entries: crate::query::listed::Cursor<'a>,
    /// How many entries the summary lists.
    len: usize,
    weighed: Weighed,
    sets: std::collections::HashMap<Vec<String>, u32>,
    next: usize,
    /// The bytes of markdown kept so far (every cap's).
    kept_bytes: usize,
    /// The entries could not be read back.
    failed: Option<std::io::Error>,
}

impl<'a> Weigher<'a> {
    pub(crate) fn new(summary: &'a PlanSummary, caps: &[usize]) -> std::io::Result<Self> {
        let n = summary.resources.len();
        let weighed = Weighed {
            lined_up: true,
            attrs: vec![None; n],
            sets: Vec::new(),
            lens: caps.iter().map(|c| (*c, vec![0; n])).collect(),
            rendered: caps.iter().map(|c| (*c, Default::default())).collect(),
        };
        let entries = summary.resources.cursor()?;
        Ok(Weigher { entries, len: n, weighed, sets: Default::default(), next: 0, kept_bytes: 0, failed: None })
    }

    /// The diff of entry `i` (they come in order).
    pub(crate) fn push(&mut self, i: usize, d: &ResourceDiff) {
        let w = &mut self.weighed;
        if !w.lined_up {
            return;
        }
        // The entry at `i`, the next one read.
        let entry = if i == self.next {
            self.entries.next_entry().unwrap_or_else(|e| {
                self.failed = Some(e);
                None
            })
        } else {
            None
        };
        self.next = i + 1;
        let lined = entry.is_some_and(|e| d.address == e.address && d.deposed == e.deposed);
        if !lined {
            w.lined_up = false;
            return;
        }
        let attrs = changed_attributes(d);
        let n = self.sets.len() as u32;
        let id = *self.sets.entry(attrs).or_insert_with_key(|a| {
            w.sets.push(a.clone());
            n
        });
        w.attrs[i] = Some(id);
        for ((cap, lens), (_, rendered)) in w.lens.iter_mut().zip(&mut w.rendered) {
            let md = show_md(Some(d), &mut Vec::new(), *cap);
            lens[i] = u32::try_from(md.len()).unwrap_or(u32::MAX);
            // The first diffs' markdown is kept, up to a bound: a small plan's body makes none again.
            if self.kept_bytes + md.len() <= Weighed::KEPT_BYTES {
                self.kept_bytes += md.len();
                rendered.insert(i, md);
            }
        }
    }

    /// What was weighed: nothing shown unless every entry had its diff, in
    /// order; an error when the entries could not be read back.
    pub(crate) fn finish(self) -> std::io::Result<Weighed> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        let mut w = self.weighed;
        if !w.lined_up || self.next != self.len {
            w = Weighed { lined_up: false, attrs: vec![None; self.len], ..Weighed::default() };
        }
        Ok(w)
    }
}

/// Weigh the diffs of `r` (input `item`) at `cap`, unless they are already.
fn weigh(r: &mut Review, item: usize, masker: &Masker, walk: &dyn DiffWalk, cap: usize) -> std::io::Result<()> {
    let known = r.weighed.as_ref().is_some_and(|w| !w.lined_up || w.lens(cap).is_some());
    if known {
        return Ok(());
    }
    let mut weigher = Weigher::new(&r.summary, &[cap])?;
    each_diff(r, item, masker, walk, &mut |_| true, &mut |i, d| {
        weigher.push(i, d);
        Ok(())
    })?;
    let new = weigher.finish()?;
    match &mut r.weighed {
        Some(w) if w.lined_up && new.lined_up => {
            w.lens.extend(new.lens);
            w.rendered.extend(new.rendered);
        }
        _ => r.weighed = Some(new),
    }
    Ok(())
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
fn review_parts(parts: &mut Parts, r: &mut Review, item: usize, diff_cap: usize, forge: Option<&Forge>) -> std::io::Result<()> {
    let Review { summary: p, weighed, outputs, drift, drift_hidden, verdict, .. } = r;
    let drift_hidden = *drift_hidden;
    if p.deferred > 0 {
        parts.keep(format!("\n{} change(s) deferred to a later plan (not in the Plan line).\n", p.deferred));
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
        parts.list(List {
            open: format!("\n**Failing checks ({})**\n\n", checks.len()),
            items: checks,
            lazy: None,
            close: String::new(),
            kind: Kind::Row,
            importance: GROUPS.len() + 2,
        });
    }
    // Changes, grouped destructive-first; each group's diffs in `<details>`,
    // made later, once they are known to be kept (only their lengths now).
    let none = Weighed::default();
    let w = weighed.as_ref().filter(|w| w.lined_up).unwrap_or(&none);
    let lens = w.lens(diff_cap).unwrap_or_default();
    let has_diff = |k: usize| w.attrs.get(k).copied().flatten().is_some();
    let len_of = |k: usize| lens.get(k).map_or(0, |n| *n as usize);
    // Noise (`--ignore-attr`) is one line after the groups, not rows and diffs.
    // The entries are read twice, one at a time (a spooled list is read back):
    // first each one's group and alike changes in it (`query::collapse`)...
    if let Some(why) = p.resources.failed() {
        return Err(std::io::Error::other(why.to_string()));
    }
    let n_groups = GROUPS.len() + 1;
    let mut collapsers: Vec<Collapser> = (0..n_groups).map(|_| Collapser::default()).collect();
    // By group, each member's set of alike changes.
    let mut of: Vec<Vec<u32>> = vec![Vec::new(); n_groups];
    let mut k = 0;
    p.resources.each(|e| {
        let here = k;
        k += 1;
        if e.noise {
            return Ok(());
        }
        let g = group_of(&e.action);
        let alone = e.moved || e.importing || e.deposed.is_some() || !e.recognised || !has_diff(here);
        let action = format!("{} {:?} {}", e.action, e.replace_order, e.reason.as_deref().unwrap_or(""));
        let attrs = w.attrs.get(here).copied().flatten().map(|id| w.sets[id as usize].clone());
        of[g].push(collapsers[g].push(&e.address, &action, attrs, alone) as u32);
        Ok(())
    })?;
    let alike: Vec<Vec<Group>> = collapsers.into_iter().map(Collapser::finish).collect();
    // ... then the rows and diffs of each group, in plan order: a collapsed
    // group's row in its first member's place, made once its first keys are read.
    let mut rows: Vec<Vec<String>> = vec![Vec::new(); n_groups];
    let mut diffs: Vec<Vec<(usize, String, usize)>> = vec![Vec::new(); n_groups];
    let mut next = vec![0; n_groups];
    let mut collapsed: std::collections::HashMap<(usize, usize), (usize, String, Vec<String>)> = Default::default();
    let mut k = 0;
    p.resources.each(|e| {
        let here = k;
        k += 1;
        if e.noise {
            return Ok(());
        }
        let g = group_of(&e.action);
        let i = next[g];
        next[g] += 1;
        let a = of[g][i] as usize;
        let group = &alike[g][a];
        if !group.collapsed() {
            rows[g].push(resource_row(e, forge));
            if has_diff(here) {
                diffs[g].push((here, String::new(), len_of(here)));
            }
            return Ok(());
        }
        if group.members[0] == i {
            rows[g].push(String::new());
            collapsed.insert((g, a), (rows[g].len() - 1, action_words(e), Vec::new()));
            let words = format!("{} changes alike ({}), the first one's diff:\n\n", group.members.len(), md_code(&group.label));
            let len = words.len() + len_of(here);
            diffs[g].push((here, words, len));
        }
        // The first keys: a row is never longer than a few lines.
        if let Some((_, _, keys)) = collapsed.get_mut(&(g, a)).filter(|(_, _, keys)| keys.len() < KEYS_LISTED) {
            keys.push(md_code(&member_key(&e.address)));
        }
        Ok(())
    })?;
    for ((g, a), (slot, words, mut keys)) in collapsed {
        let group = &alike[g][a];
        let n = group.members.len();
        if n > KEYS_LISTED {
            keys.push(format!("and {} more", n - KEYS_LISTED));
        }
        rows[g][slot] = format!(
            "| {} | {} | <details><summary>{n} alike</summary>{}</details> |\n",
            md_cell(&words),
            md_code(&group.label),
            keys.join(", ")
        );
    }
    for (g, (rows, diffs)) in rows.into_iter().zip(diffs).enumerate() {
        if of[g].is_empty() {
            continue;
        }
        let title = group_title(g);
        let count = of[g].len();
        parts.list(List {
            open: format!("\n**{title}** ({count})\n\n| action | address | details |\n|---|---|---|\n"),
            items: rows,
            lazy: None,
            close: String::new(),
            kind: Kind::Row,
            importance: importance(g),
        });
        if !diffs.is_empty() {
            parts.list(List {
                open: format!("\n<details><summary>Diffs: {} ({})</summary>\n\n", title.to_lowercase(), diffs.len()),
                items: Vec::new(),
                lazy: Some(Lazy { item, diffs }),
                close: "</details>\n".into(),
                kind: if unchanged_group(g) { Kind::Unchanged } else { Kind::Diff },
                importance: importance(g),
            });
        }
    }
    blast_part(parts, &verdict.blast);
    if let Some(n) = p.noise.as_ref().filter(|n| n.count > 0) {
        parts.keep(format!(
            "\n**Noise** ({}): in-place updates that {}, not listed (`planview summary --format json` with the same `--ignore-attr` lists them).\n",
            n.count,
            md_cell(&n.what())
        ));
    }
    // Action invocations (Terraform 1.14+), with what triggers them and their on_failure.
    if !p.action_invocations.is_empty() {
        let rows: Vec<String> = p
            .action_invocations
            .iter()
            .map(|a| format!("| invoke | {} | {} |\n", md_code(&a.address), md_cell(&crate::render::summary::invocation_details(a))))
            .collect();
        parts.list(List {
            open: format!("\n**Actions to invoke** ({})\n\n| action | address | details |\n|---|---|---|\n", rows.len()),
            items: rows,
            lazy: None,
            close: String::new(),
            kind: Kind::Row,
            // As important as in-place updates: an action runs, nothing is destroyed by it.
            importance: importance(group_of("update")),
        });
    }
    if !drift.is_empty() || drift_hidden > 0 {
        let rows: Vec<String> = drift.iter().map(|d| format!("| {} | {} |\n", md_code(&d.address), md_cell(&d.words))).collect();
        let hidden = if drift_hidden > 0 {
            format!("\n{drift_hidden} more drifted object(s) not relevant to this plan (`planview drift --all` lists them).\n")
        } else {
            String::new()
        };
        if rows.is_empty() {
            parts.keep(hidden);
        } else {
            parts.list(List {
                open: format!(
                    "\n**Changed outside of Terraform/OpenTofu, relevant to this plan** ({})\n\n| address | what |\n|---|---|\n",
                    rows.len()
                ),
                items: rows,
                lazy: None,
                close: hidden,
                kind: Kind::Row,
                importance: 0,
            });
        }
    }
    if !outputs.is_empty() {
        let n = outputs.len();
        parts.list(List {
            open: format!("\n<details><summary>Output changes ({n})</summary>\n\n"),
            items: vec![show_md(None, outputs, diff_cap)],
            lazy: None,
            close: "</details>\n".into(),
            kind: Kind::Diff,
            importance: 0,
        });
    }
    Ok(())
}

/// What each destructive change drags along (docs/dependents.md), one line
/// each: "replacing `X` also changes 7 objects: ...", the first few named.
fn blast_part(parts: &mut Parts, blast: &[crate::query::dependents::BlastLine]) {
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
        parts.list(List {
            open: format!("\n**Blast radius** ({})\n\n", lines.len()),
            items: lines,
            lazy: None,
            close: String::new(),
            kind: Kind::Row,
            importance: importance(group_of("replace")),
        });
    }
}

/// Every part of the body, in order (not yet scrubbed or fitted).
fn parts_of(items: &mut [PerFile<Review>], policy: &PolicyReport, diff_cap: usize, forge: Option<&Forge>) -> std::io::Result<Parts> {
    let t: GateTotal = total(items.iter().map(|i| i.result.as_ref().ok().map(|r| &r.verdict)));
    let unreadable = items.iter().filter_map(|i| i.result.as_ref().err().map(|e| (i.file.as_str(), e)));
    let (heading, errors) = verdict_head("planview", &t, policy, unreadable);
    let mut parts = Parts::default();
    parts.keep(heading);
    if !errors.is_empty() {
        parts.keep(errors);
    }
    let many = items.len() > 1;
    if many {
        let mut sum = Totals::default();
        items.iter().filter_map(|i| i.result.as_ref().ok()).for_each(|r| sum.add_assign(&r.summary.totals));
        parts.keep(format!("\n**Total over {} inputs — {}**\n", items.len(), md_cell(&sum.plan_line())));
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
            match block {
                Block::Keep(k) => parts.keep(k),
                Block::Rows { open, rows, close, .. } => {
                    parts.list(List { open, items: rows, lazy: None, close, kind: Kind::Row, importance: usize::MAX })
                }
            }
        }
    }
    if let [PerFile { result: Ok(r), .. }] = &*items {
        parts.keep(format!("\n**{}**\n{}", md_cell(&r.summary.plan_line), banners(&r.summary)));
    }
    // Violations of the plan as a whole first; those of one change repeat a
    // row of the changes below, so they are the first rows to go.
    for severity in [Severity::Error, Severity::Warning] {
        violation_parts(&mut parts, items, many, severity, forge);
    }
    for (n, i) in items.iter_mut().enumerate() {
        let Ok(r) = &mut i.result else { continue };
        if many {
            parts.keep(format!("\n### {} — {}\n{}", md_code(&i.file), md_cell(&r.summary.plan_line), banners(&r.summary)));
        }
        review_parts(&mut parts, r, n, diff_cap, forge)?;
    }
    Ok(parts)
}

/// The violations of one severity: errors (**Violations**), then warnings
/// (**Warnings**), below the verdict and never in its place.
fn violation_parts(parts: &mut Parts, items: &[PerFile<Review>], many: bool, severity: Severity, forge: Option<&Forge>) {
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
        parts.list(List {
            open: format!("\n**{title} ({})**\n\n{head}| rule | address | action | reason |\n{rule}|---|---|---|---|\n", violations.len()),
            items: violations,
            lazy: None,
            close: String::new(),
            kind: Kind::Row,
            importance: 0,
        });
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
/// ([`fit_ranked`]): lists of diffs of changes that change
/// nothing go first, then the other diffs, then list rows, each kind the
/// least important first. The result is never longer than `max` (for `max`
/// of at least [`crate::render::fit::MIN_MAX_BYTES`]) and every `<details>`
/// and code fence in it is closed.
#[cfg(test)]
fn fit(head: &str, parts: &Parts, max: usize, whole: &str) -> String {
    fit_ranked(head, &parts.blocks, &parts.ranks, max, &notes_of(parts, max, whole))
}

fn notes_of<'a>(parts: &Parts, max: usize, whole: &'a str) -> CommentNotes<'a> {
    let diffs = parts.blocks.iter().zip(&parts.ranks).map(|(b, r)| matches!(b, Block::Rows { .. }) && r.0 != Kind::Row as u8).collect();
    CommentNotes { diffs, max, whole }
}

/// The body: the parts of every input's review (secrets were masked where the
/// review took values from the input), fitted within `opts.max_bytes`. The
/// diffs are weighed first (each review's at this body's cap, unless the run
/// weighed them already), the fitter decides on their lengths, and only the
/// diffs kept are made again (`walk`: those the run spooled) and rendered:
/// memory holds what the body can show, not every diff.
pub(crate) fn body(
    items: &mut [PerFile<Review>],
    policy: &PolicyReport,
    opts: &BodyOptions,
    walk: &dyn DiffWalk,
) -> std::io::Result<String> {
    let diff_cap = diff_cap(opts.max_bytes);
    for (n, i) in items.iter_mut().enumerate() {
        if let Ok(r) = &mut i.result {
            weigh(r, n, &i.masker, walk, diff_cap)?;
        }
    }
    let mut parts = parts_of(items, policy, diff_cap, opts.forge.as_ref())?;
    // The marker is planview's own: never masked. Below it, each plan's
    // fingerprint, hidden, for a later job to read back (`gate --expect-fingerprint`).
    let mut head = opts.marker.as_deref().map(marker_line).unwrap_or_default();
    if !head.is_empty() {
        head.push_str(&fingerprint_lines(items));
    }
    let notes = notes_of(&parts, opts.max_bytes, &opts.whole);
    let decision = decide(head.len(), &parts.weights(), &parts.ranks, opts.max_bytes, &notes);
    // The diffs kept, by input: made and rendered now.
    let mut wanted: Vec<std::collections::HashMap<usize, String>> = items.iter().map(|_| Default::default()).collect();
    for (lazy, kept) in parts.lazy.iter().zip(&decision.kept) {
        if let Some(l) = lazy {
            wanted[l.item].extend(l.diffs[..*kept].iter().map(|(k, _, _)| (*k, String::new())));
        }
    }
    for (n, (i, want)) in items.iter().zip(&mut wanted).enumerate() {
        let Ok(r) = &i.result else { continue };
        if want.is_empty() {
            continue;
        }
        // Those kept as they were weighed, then the others made again.
        if let Some((_, kept)) = r.weighed.as_ref().and_then(|w| w.rendered.iter().find(|(c, _)| *c == diff_cap)) {
            for (k, text) in want.iter_mut() {
                if let Some(md) = kept.get(k) {
                    text.clone_from(md);
                }
            }
        }
        let mut rendered = Vec::new();
        each_diff(r, n, &i.masker, walk, &mut |k| want.get(&k).is_some_and(String::is_empty), &mut |k, d| {
            rendered.push((k, show_md(Some(d), &mut Vec::new(), diff_cap)));
            Ok(())
        })?;
        want.extend(rendered);
    }
    for ((block, lazy), kept) in parts.blocks.iter_mut().zip(&mut parts.lazy).zip(&decision.kept) {
        if let (Block::Rows { rows, .. }, Some(l)) = (block, lazy.take()) {
            let of = &mut wanted[l.item];
            *rows = l.diffs.into_iter().take(*kept).map(|(k, words, _)| words + &of.remove(&k).unwrap_or_default()).collect();
        }
    }
    Ok(write(&head, &parts.blocks, &decision, opts.max_bytes, &notes))
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

    fn list(kind: Kind, importance: usize, n: usize, width: usize) -> List {
        List {
            open: "<details><summary>x</summary>\n\n```diff\n".into(),
            items: (0..n).map(|i| format!("{i:05}{}\n", "y".repeat(width))).collect(),
            lazy: None,
            close: "```\n</details>\n".into(),
            kind,
            importance,
        }
    }

    fn parts(keep: &str, lists: Vec<List>) -> Parts {
        let mut p = Parts::default();
        p.keep(keep.into());
        lists.into_iter().for_each(|l| p.list(l));
        p
    }

    /// A review whose list of changes is spooled (`comment` spools it past
    /// `summary`'s limit, and reads it twice, one entry at a time) makes the
    /// same bodies as one whose list is in memory: every group, alike changes
    /// collapsed (more than the keys a row lists, and fewer than a group),
    /// changes alone (moved, imported), noise, at budgets that trim and at one
    /// that does not.
    #[test]
    fn a_spooled_list_of_changes_makes_the_same_bodies() {
        let rc = |address: &str, actions: &[&str], before: serde_json::Value, after: serde_json::Value| {
            let (module, name) = address.split_once('.').unwrap();
            let name = name.split('[').next().unwrap();
            serde_json::json!({"address": address, "mode": "managed", "type": module, "name": name,
                "change": {"actions": actions, "before": before, "after": after}})
        };
        let v = |i: usize| serde_json::json!({"input": i, "tags": {"n": 1}});
        let null = serde_json::Value::Null;
        let mut changes = Vec::new();
        for i in 0..50 {
            changes.push(rc(&format!("terraform_data.a[{i}]"), &["create"], null.clone(), v(i)));
        }
        for i in 0..3 {
            changes.push(rc(&format!("terraform_data.u{i}"), &["update"], v(i), v(i + 1)));
        }
        for i in 0..6 {
            changes.push(rc(&format!("terraform_data.r[{i}]"), &["delete", "create"], v(i), v(i + 7)));
            changes.push(rc(&format!("terraform_data.d{i}"), &["delete"], v(i), null.clone()));
        }
        let mut noise = rc("terraform_data.n", &["update"], v(1), v(1));
        noise["change"]["after"]["tags"] = serde_json::json!({"n": 2});
        changes.push(noise);
        let mut moved = rc("terraform_data.m", &["no-op"], v(1), v(1));
        moved["previous_address"] = "terraform_data.old".into();
        changes.push(moved);
        let mut imported = rc("terraform_data.i", &["no-op"], v(2), v(2));
        imported["change"]["importing"] = serde_json::json!({"id": "i-1"});
        changes.push(imported);
        let plan = serde_json::json!({"format_version": "1.2", "resource_changes": changes}).to_string();
        let doc = crate::read::parse("t", plan.as_bytes()).unwrap();
        let policy = crate::query::gate::Policy { ignore_attributes: vec!["tags".into()], ..Default::default() };
        let vis = crate::query::values::Visibility { show_sensitive: false, masker: None };
        let show = crate::query::show::ShowOptions::default();
        let review = || crate::query::review::review(&doc, &policy, &show, &vis, None).unwrap();
        let held = review();
        let mut spooled = review();
        let mut list = crate::query::listed::Listed::spilling_at(Some(1));
        held.summary
            .resources
            .each(|e| {
                list.push(e.clone());
                Ok(())
            })
            .unwrap();
        assert!(list.spilled() && !held.summary.resources.spilled() && list.len() == changes.len());
        spooled.summary.resources = list;
        let item = |r| PerFile { file: "t".into(), result: Ok(r), masker: Masker::default() };
        let (mut held, mut spooled) = ([item(held)], [item(spooled)]);
        let report = policy.describe();
        for max in [1_500, 2_500, 10_000_000] {
            let o = BodyOptions { max_bytes: max, marker: Some("x".into()), whole: "w".into(), forge: None };
            let a = body(&mut held, &report, &o, &crate::query::review::Held).unwrap();
            let b = body(&mut spooled, &report, &o, &crate::query::review::Held).unwrap();
            assert_eq!(a, b, "at {max} bytes");
            if max == 10_000_000 {
                assert!(a.contains("50 alike") && a.contains("and 10 more") && a.contains("`[39]`") && !a.contains("`[40]`"), "{a}");
                assert!(a.contains("6 alike") && a.contains("terraform_data.u2") && a.contains("terraform_data.m"), "{a}");
                assert!(a.contains("**Noise** (1)") && a.contains("terraform_data.i") && !a.contains("[!NOTE]"), "{a}");
            } else {
                assert!(a.contains("[!NOTE]"), "{max}: trimmed: {a}");
            }
        }
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
        let parts = parts("## verdict\n", vec![list(Kind::Row, 5, 40, 20), list(Kind::Diff, 5, 40, 20), list(Kind::Unchanged, 9, 40, 20)]);
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
        let parts = parts(&"k\n".repeat(3_000), vec![list(Kind::Row, 1, 10, 10)]);
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
            let mut parts = Parts::default();
            for (i, k) in keeps.iter().enumerate() {
                parts.keep(format!("{}\n", "k".repeat(*k)));
                for (kind, imp, n, w) in lists.iter().skip(i * 2).take(2) {
                    let kind = [Kind::Unchanged, Kind::Diff, Kind::Row][*kind];
                    parts.list(list(kind, *imp, *n, *w));
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
