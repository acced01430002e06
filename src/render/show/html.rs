//! `show --format html` and `comment --html FILE`: issue 30's page. One
//! self-contained file (inline style and one inline script, nothing fetched:
//! a strict Content-Security-Policy lets only that script run), readable
//! without JavaScript and better with it: the verdict (`comment --html`) and
//! `Plan:` line on top, an SVG graph of the changes by module with their
//! dependents, the module tree with per-module counts by action (alike
//! changes collapsed into one row, [`crate::query::collapse`]), then each
//! change with the same attribute diff as `show` (sensitive values masked),
//! filters by action, type and module and a search box (also driven by the
//! URL fragment). Every string from the plan is escaped for where it goes.
//!
//! Streamed: the resources are walked once, each change written as it comes
//! (a streamed report holds one at a time); the summary, graph and tree are
//! written after the changes, from what the walk kept of each (its address,
//! action, group and dependents), and shown above them by the style's flex
//! `order`.

use super::*;
use crate::model::Mode;
use crate::query::address::Address;
use crate::query::collapse::{changed_attributes, member_key, Collapser, Group};
use crate::query::summary::Totals;
use crate::render::html::graph::{self, Graph, MAX_NODES};
use crate::render::html::{csp, esc, SCRIPT, STYLE};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// The CSS class of an op's symbol.
fn op_class(op: Op) -> &'static str {
    match op {
        Op::Add => "add",
        Op::Remove => "remove",
        Op::Update => "update",
        Op::Same => "muted",
    }
}

/// The CSS class of a change kind (its colour, as `show` paints it).
fn kind_class(k: &ChangeKind) -> &'static str {
    match kind_tone(k) {
        Tone::Create => "create",
        Tone::Update => "update",
        Tone::Delete => "delete",
        Tone::Replace => "replace",
        Tone::Read => "read",
        _ => "muted",
    }
}

/// One diff line, laid out as `show` prints it (same indentation, symbols
/// and text), the symbol coloured.
fn html_line(l: &Line) -> String {
    if l.comment && l.text.is_empty() {
        return String::new();
    }
    let mut s = "    ".repeat(l.depth + 1);
    if l.comment {
        if !l.warning {
            s.push_str("  ");
        }
        s.push_str(&format!("<span class=\"muted\">{}</span>", esc(&l.text)));
    } else {
        match l.op {
            Some(op) => s.push_str(&format!("<span class=\"{}\">{}</span>", op_class(op), esc(op.symbol()))),
            None => s.push(' '),
        }
        s.push(' ');
        s.push_str(&esc(&l.text));
    }
    if let Some(n) = l.note {
        s.push_str(&format!(" <span class=\"replace\">{}</span>", esc(n)));
    }
    s
}

/// What the walk keeps of a change: where it sits and what it does.
struct Seen {
    module: Vec<String>,
    address: String,
    kind: ChangeKind,
    /// The changes that depend on it, when the plan's configuration tells.
    dependents: Vec<String>,
}

/// A node of the module tree: its own groups of changes (indices into the
/// groups) and child modules, with counts by action over the whole subtree.
#[derive(Default)]
struct Module {
    own: Vec<usize>,
    children: BTreeMap<String, Module>,
    counts: BTreeMap<String, usize>,
}

/// The module path of an address (`module.a.module.b`), empty for the root
/// module or an address that cannot be read.
fn module_of(address: &str) -> Vec<String> {
    match Address::parse(address) {
        Ok(a) => a.steps[..a.steps.len().saturating_sub(1)].iter().map(|s| Address { steps: vec![s.clone()] }.to_string()).collect(),
        Err(_) => Vec::new(),
    }
}

/// A module path as one name, `(root)` for the root module.
fn module_name(module: &[String]) -> String {
    if module.is_empty() {
        "(root)".to_string()
    } else {
        module.join(".")
    }
}

fn counts_text(counts: &BTreeMap<String, usize>) -> String {
    counts.iter().map(|(k, n)| format!("<span class=\"{}\">{n} {}</span>", kind_word_class(k), esc(k))).collect::<Vec<_>>().join(", ")
}

/// The class of a [`ChangeKind::key`] in the counts.
fn kind_word_class(key: &str) -> &'static str {
    match key {
        "create" => "create",
        "update" => "update",
        "delete" | "forget" => "delete",
        "read" => "read",
        "no-op" => "muted",
        _ => "replace",
    }
}

/// The type as the address writes it (`data.` before a data source's).
fn type_of(d: &ResourceDiff) -> String {
    if d.mode == "data" {
        format!("data.{}", d.type_)
    } else {
        d.type_.clone()
    }
}

/// What the walk kept of one plan.
struct Walked {
    seen: Vec<Seen>,
    groups: Vec<Group>,
    totals: Totals,
}

/// The id of change `i` of plan `p` on the page.
fn change_id(p: usize, i: usize) -> String {
    format!("p{p}c{i}")
}

fn write_group(w: &mut dyn Write, p: usize, g: &Group, seen: &[Seen]) -> io::Result<()> {
    let first = &seen[g.members[0]];
    if !g.collapsed() {
        for &i in &g.members {
            let s = &seen[i];
            writeln!(
                w,
                "<li><a href=\"#{}\"><code>{}</code></a> <span class=\"{}\">{}</span></li>",
                change_id(p, i),
                esc(&s.address),
                kind_class(&s.kind),
                esc(&s.kind.words())
            )?;
        }
        return Ok(());
    }
    write!(
        w,
        "<li><details class=\"group\"><summary><b>{} ×</b> <code>{}</code> <span class=\"{}\">{}</span>",
        g.members.len(),
        esc(&g.label),
        kind_class(&first.kind),
        esc(&first.kind.words())
    )?;
    if let Some(attrs) = g.key.attrs.as_ref().filter(|a| !a.is_empty()) {
        write!(w, " <span class=\"muted\">({})</span>", esc(&attrs.join(", ")))?;
    }
    write!(w, "</summary><p class=\"keys\">")?;
    for (n, &i) in g.members.iter().enumerate() {
        let sep = if n == 0 { "" } else { " " };
        write!(w, "{sep}<a href=\"#{}\"><code>{}</code></a>", change_id(p, i), esc(&member_key(&seen[i].address)))?;
    }
    writeln!(w, "</p></details></li>")
}

fn write_tree(w: &mut dyn Write, p: usize, name: &str, m: &Module, walked: &Walked) -> io::Result<()> {
    writeln!(w, "<details open><summary><code>{}</code> — {}</summary>", esc(name), counts_text(&m.counts))?;
    if !m.own.is_empty() {
        writeln!(w, "<ul>")?;
        for &g in &m.own {
            write_group(w, p, &walked.groups[g], &walked.seen)?;
        }
        writeln!(w, "</ul>")?;
    }
    for (child, cm) in &m.children {
        write_tree(w, p, child, cm, walked)?;
    }
    writeln!(w, "</details>")
}

/// Each change's dependents that depend on it directly as far as the plan
/// tells (indices into `seen`): the lists are transitive, so a dependent
/// that is also a dependent of another dependent is reached through that
/// one, and the graph draws only the nearer edge.
fn direct_edges(seen: &[Seen], by_address: &HashMap<&str, usize>) -> Vec<(usize, usize)> {
    let sets: Vec<HashSet<usize>> =
        seen.iter().map(|s| s.dependents.iter().filter_map(|d| by_address.get(d.as_str()).copied()).collect()).collect();
    let mut edges = Vec::new();
    for (a, mine) in sets.iter().enumerate() {
        for &c in mine {
            let through = mine.iter().any(|&b| b != c && b != a && sets[b].contains(&c) && !sets[c].contains(&b));
            if !through && c != a {
                edges.push((a, c));
            }
        }
    }
    edges.sort_unstable();
    edges
}

/// The CSS class of the most destructive action among `counts`, for a module's node.
fn worst_class(counts: &BTreeMap<&'static str, usize>) -> &'static str {
    ["delete", "replace", "update", "create", "read"].into_iter().find(|c| counts.contains_key(c)).unwrap_or("muted")
}

/// The graph of one plan: each change a node in its module's cluster, or
/// (over [`MAX_NODES`] changes) each module a node; `None` when even the
/// modules are too many.
fn graph_of(p: usize, walked: &Walked) -> Option<Graph> {
    let seen = &walked.seen;
    let by_address: HashMap<&str, usize> = seen.iter().enumerate().map(|(i, s)| (s.address.as_str(), i)).collect();
    let mut g = Graph::default();
    if seen.len() <= MAX_NODES {
        let mut clusters: HashMap<String, usize> = HashMap::new();
        for (i, s) in seen.iter().enumerate() {
            let name = module_name(&s.module);
            let cluster = match clusters.get(&name) {
                Some(&c) => c,
                None => {
                    clusters.insert(name.clone(), g.clusters.len());
                    g.clusters.push(name);
                    g.clusters.len() - 1
                }
            };
            let label = Address::parse(&s.address)
                .map(|a| Address { steps: vec![a.resource().clone()] }.to_string())
                .unwrap_or_else(|_| s.address.clone());
            g.nodes.push(graph::Node {
                cluster,
                label,
                title: format!("{} ({})", s.address, s.kind.words()),
                target: change_id(p, i),
                class: kind_class(&s.kind),
                destroys: s.kind.destroys(),
            });
        }
        g.edges = direct_edges(seen, &by_address);
        return Some(g);
    }
    // One node per module: counts by action, the edges summed.
    let mut modules: BTreeMap<String, (usize, BTreeMap<&'static str, usize>, bool)> = BTreeMap::new();
    for s in seen {
        let m = modules.entry(module_name(&s.module)).or_default();
        m.0 += 1;
        *m.1.entry(kind_class(&s.kind)).or_default() += 1;
        m.2 |= s.kind.destroys();
    }
    if modules.len() > MAX_NODES {
        return None;
    }
    let index: HashMap<&str, usize> = modules.keys().enumerate().map(|(i, k)| (k.as_str(), i)).collect();
    g.clusters.push(format!("{} modules, {} changes", modules.len(), seen.len()));
    for (m, (name, (n, counts, destroys))) in modules.iter().enumerate() {
        let words: Vec<String> = counts.iter().map(|(k, n)| format!("{n} {k}")).collect();
        g.nodes.push(graph::Node {
            cluster: 0,
            label: format!("{name} ({n})"),
            title: format!("{name}: {}", words.join(", ")),
            target: format!("p{p}m{m}"),
            class: worst_class(counts),
            destroys: *destroys,
        });
    }
    let mut edges = BTreeSet::new();
    for s in seen {
        let a = index[module_name(&s.module).as_str()];
        for d in &s.dependents {
            if let Some(&j) = by_address.get(d.as_str()) {
                let b = index[module_name(&seen[j].module).as_str()];
                if a != b {
                    edges.insert((a, b));
                }
            }
        }
    }
    g.edges = edges.into_iter().collect();
    Some(g)
}

/// What `comment --html` shows above a plan: the gate's verdict.
pub(crate) struct PageVerdict {
    pub passed: bool,
    /// The verdict's lines (each broken rule).
    pub lines: Vec<String>,
}

/// The filters' choices, over every plan of the page.
#[derive(Default)]
struct Choices {
    actions: BTreeSet<String>,
    types: BTreeSet<String>,
    modules: BTreeSet<String>,
}

/// One change as the page writes it, `i`th of plan `p`.
fn write_change(w: &mut dyn Write, p: usize, i: usize, d: &ResourceDiff, r: &ShowReport, module: &[String]) -> io::Result<()> {
    let class = kind_class(&d.kind);
    writeln!(
        w,
        "<details open class=\"change\" id=\"{}\" data-action=\"{}\" data-type=\"{}\" data-module=\"{}\"><summary><span class=\"{class}\">{}</span> <code>{}</code>: <span class=\"{class}\">{}</span></summary>",
        change_id(p, i),
        esc(&d.kind.key()),
        esc(&type_of(d)),
        esc(&module.join(".")),
        esc(d.kind.symbol()),
        esc(&header_address(d)),
        esc(&header_words(d))
    )?;
    let mut lines: Vec<String> = notes(d).iter().map(|n| format!("    <span class=\"muted\"># {}</span>", esc(n))).collect();
    lines.extend(resource_lines(d).iter().map(html_line));
    lines.extend(triggered_lines(d, &r.invocations).iter().map(html_line));
    writeln!(w, "<pre>{}</pre>", lines.join("\n"))?;
    let dependents = r.dependents.of(&d.address);
    if !dependents.is_empty() {
        let n = dependents.len();
        let verb = match d.kind {
            ChangeKind::Delete => "destroying it",
            ChangeKind::Replace(_) => "replacing it",
            _ => "changing it",
        };
        let class = if d.kind.destroys() { "blast" } else { "deps" };
        write!(w, "<p class=\"{class}\">{verb} also changes {n} object{}:", if n == 1 { "" } else { "s" })?;
        for (k, x) in dependents.iter().enumerate() {
            let sep = if k == 0 { " " } else { ", " };
            let mut unknown = if x.unknown.is_empty() { String::new() } else { format!(" ({} known after apply)", x.unknown.join(", ")) };
            if x.through_locals {
                unknown.push_str(" (maybe: only through a local the plan leaves out)");
            }
            write!(w, "{sep}<code>{}</code>{}", esc(&x.address), esc(&unknown))?;
        }
        writeln!(w, "</p>")?;
    }
    writeln!(w, "</details>")
}

/// Walk the changes of one plan, writing each; what the walk kept.
fn walk_changes(w: &mut dyn Write, p: usize, r: &ShowReport, res: &mut dyn Resources, choices: &mut Choices) -> io::Result<Walked> {
    let mut walked = Walked { seen: Vec::new(), groups: Vec::new(), totals: Totals::default() };
    let mut collapser = Collapser::default();
    writeln!(w, "<div class=\"changes\">")?;
    if res.count() > 0 {
        writeln!(w, "<h2>Changes</h2>")?;
    }
    res.each(&mut |d| {
        let mode = match d.mode.as_str() {
            "managed" => Mode::Managed,
            "data" => Mode::Data,
            other => Mode::Other(other.to_string()),
        };
        walked.totals.count(&mode, &d.address, d.importing, &d.kind);
        let i = walked.seen.len();
        let module = module_of(&d.address);
        write_change(w, p, i, d, r, &module)?;
        let key = d.kind.key();
        // A replacement's reason is part of what makes changes alike.
        let action = match &d.reason {
            Some(reason) => format!("{key} {reason}"),
            None => key.clone(),
        };
        let alone = d.moved() || d.importing || d.deposed.is_some();
        collapser.push(&d.address, &action, Some(changed_attributes(d)), alone);
        choices.actions.insert(key);
        choices.types.insert(type_of(d));
        for n in 1..=module.len() {
            choices.modules.insert(module[..n].join("."));
        }
        // The graph draws the certain dependents (not those guessed through locals).
        let dependents = r.dependents.of(&d.address).iter().filter(|x| !x.through_locals).map(|x| x.address.clone()).collect();
        walked.seen.push(Seen { module, address: d.address.clone(), kind: d.kind.clone(), dependents });
        Ok(true)
    })?;
    writeln!(w, "</div>")?;
    walked.groups = collapser.finish();
    Ok(walked)
}

/// The head of a plan: its file, the verdict, the `Plan:` line, what destroys.
fn write_head(w: &mut dyn Write, r: &ShowReport, walked: &Walked, verdict: Option<&PageVerdict>) -> io::Result<()> {
    let seen = &walked.seen;
    writeln!(w, "<div class=\"head\">")?;
    writeln!(w, "<h1>{}</h1>", esc(&r.file))?;
    let tf = r.terraform_version.as_deref().map(|v| format!(" · terraform {}", esc(v))).unwrap_or_default();
    writeln!(w, "<p class=\"meta\">plan{tf} · format {}</p>", esc(&r.format_version))?;
    if r.errored {
        writeln!(w, "<p class=\"errored\">{}</p>", esc(ERRORED))?;
    }
    if let Some(v) = verdict {
        let (class, word) = if v.passed { ("pass", "PASS") } else { ("fail", "FAIL") };
        writeln!(w, "<p class=\"verdict {class}\">Verdict: {word}</p>")?;
        if !v.lines.is_empty() {
            writeln!(w, "<ul class=\"violations\">")?;
            for l in &v.lines {
                writeln!(w, "<li>{}</li>", esc(l))?;
            }
            writeln!(w, "</ul>")?;
        }
    }
    // Terraform's words; `planview summary` gives the CLI's exact line
    // (OpenTofu's forgets, refresh-only and output-only plans).
    if !walked.totals.is_empty() {
        writeln!(w, "<p class=\"planline\">{}</p>", esc(&walked.totals.plan_line()))?;
    }
    let destroying = seen.iter().filter(|s| s.kind.destroys()).count();
    if destroying > 0 {
        let (s, verb) = if destroying == 1 { ("", "destroys") } else { ("s", "destroy") };
        writeln!(w, "<p class=\"fail\">{destroying} change{s} {verb} an object (delete or replace)</p>")?;
    }
    for l in footer(r, seen.len()).iter().chain(&r.dependents.notes) {
        writeln!(w, "<p class=\"note\">{}</p>", esc(l))?;
    }
    writeln!(w, "</div>")
}

/// The graph of one plan, or why it is not drawn.
fn write_graph(w: &mut dyn Write, p: usize, walked: &Walked) -> io::Result<()> {
    let n = walked.seen.len();
    writeln!(w, "<div class=\"graph\">\n<h2>Graph</h2>")?;
    match graph_of(p, walked) {
        Some(g) => {
            if n > MAX_NODES {
                writeln!(
                    w,
                    "<p class=\"note\">{n} changes are more than the graph draws one by one ({MAX_NODES}): each module is one node.</p>"
                )?;
            }
            writeln!(w, "<div class=\"draw\">")?;
            graph::write_svg(w, &g, &format!("p{p}g"))?;
            writeln!(w, "</div>")?;
        }
        None => writeln!(
            w,
            "<p class=\"note\">Too large to draw: more than {MAX_NODES} modules change. The module tree below lists every change.</p>"
        )?,
    }
    writeln!(w, "</div>")
}

/// The module tree of one plan, alike changes collapsed.
fn write_modules(w: &mut dyn Write, p: usize, walked: &Walked) -> io::Result<()> {
    let seen = &walked.seen;
    let mut root = Module::default();
    for (gi, g) in walked.groups.iter().enumerate() {
        for (n, &i) in g.members.iter().enumerate() {
            let s = &seen[i];
            let mut at = &mut root;
            *at.counts.entry(s.kind.key()).or_default() += 1;
            for step in &s.module {
                at = at.children.entry(step.clone()).or_default();
                *at.counts.entry(s.kind.key()).or_default() += 1;
            }
            if n == 0 {
                at.own.push(gi);
            }
        }
    }
    writeln!(w, "<div class=\"tree\">\n<h2>Modules</h2>")?;
    if seen.len() > MAX_NODES {
        // Where a collapsed graph's module nodes lead: each module's first change.
        let mut firsts: BTreeMap<String, usize> = BTreeMap::new();
        for (i, s) in seen.iter().enumerate() {
            firsts.entry(module_name(&s.module)).or_insert(i);
        }
        let links: Vec<String> = firsts
            .iter()
            .enumerate()
            .map(|(m, (name, &i))| format!("<a id=\"p{p}m{m}\" href=\"#{}\"><code>{}</code></a>", change_id(p, i), esc(name)))
            .collect();
        writeln!(w, "<p class=\"modules\">First change of each module: {}</p>", links.join(" · "))?;
    }
    write_tree(w, p, "(root)", &root, walked)?;
    writeln!(w, "</div>")
}

fn report_html(
    w: &mut dyn Write,
    p: usize,
    r: &ShowReport,
    res: &mut dyn Resources,
    verdict: Option<&PageVerdict>,
    choices: &mut Choices,
) -> io::Result<()> {
    writeln!(w, "<section class=\"plan\">")?;
    let walked = walk_changes(w, p, r, res, choices)?;
    write_head(w, r, &walked, verdict)?;
    if !walked.seen.is_empty() {
        write_graph(w, p, &walked)?;
        write_modules(w, p, &walked)?;
    }
    // After the changes: the invocations, the outputs.
    writeln!(w, "<div class=\"after\">")?;
    let invoked = invoked_lines(&r.invocations);
    if !invoked.is_empty() {
        writeln!(w, "<h2>{}</h2>", esc(INVOKED_HEADING))?;
        writeln!(w, "<pre>{}</pre>", invoked.iter().map(html_line).collect::<Vec<_>>().join("\n"))?;
    }
    if !r.outputs.is_empty() {
        writeln!(w, "<h2>Changes to outputs</h2>")?;
        writeln!(w, "<pre>{}</pre>", output_entries(&r.outputs).iter().map(html_line).collect::<Vec<_>>().join("\n"))?;
    }
    writeln!(w, "</div>\n</section>")
}

/// The filter bar (shown by the script): the actions, types and modules of
/// the page's changes, and the search box.
fn write_filters(w: &mut dyn Write, c: &Choices) -> io::Result<()> {
    writeln!(w, "<nav class=\"filters\" aria-label=\"filters\">")?;
    for a in &c.actions {
        writeln!(
            w,
            "<label><input type=\"checkbox\" name=\"action\" value=\"{0}\"> <span class=\"{1}\">{0}</span></label>",
            esc(a),
            kind_word_class(a)
        )?;
    }
    writeln!(w, "<select name=\"type\" aria-label=\"type\"><option value=\"\">every type</option>")?;
    for t in &c.types {
        writeln!(w, "<option value=\"{0}\">{0}</option>", esc(t))?;
    }
    writeln!(w, "</select>\n<select name=\"module\" aria-label=\"module\"><option value=\"\">every module</option>")?;
    for m in &c.modules {
        writeln!(w, "<option value=\"{0}\">{0}</option>", esc(m))?;
    }
    writeln!(w, "</select>")?;
    writeln!(w, "<input type=\"search\" name=\"q\" placeholder=\"search addresses and values\" aria-label=\"search\">")?;
    writeln!(w, "<span class=\"shown muted\"></span>\n</nav>")
}

/// The page: every readable input, one section each.
pub(crate) fn html_items(w: &mut dyn Write, items: &[Item<'_>]) -> io::Result<()> {
    html_page(w, items, &[])
}

/// The page, with each input's verdict (`comment --html`) where given.
pub(crate) fn html_page(w: &mut dyn Write, items: &[Item<'_>], verdicts: &[Option<PageVerdict>]) -> io::Result<()> {
    let title = match items {
        [one] => one.result.map(|r| r.file.as_str()).unwrap_or("plan"),
        _ => "plans",
    };
    writeln!(w, "<!DOCTYPE html>")?;
    writeln!(w, "<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">")?;
    writeln!(w, "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">", csp())?;
    writeln!(w, "<meta name=\"referrer\" content=\"no-referrer\">")?;
    writeln!(w, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")?;
    writeln!(w, "<title>planview: {}</title>", esc(title))?;
    writeln!(w, "<style>{STYLE}</style>\n</head>\n<body>")?;
    let mut choices = Choices::default();
    for (p, item) in items.iter().enumerate() {
        match item.result {
            Ok(r) => {
                let verdict = verdicts.get(p).and_then(Option::as_ref);
                report_html(w, p, r, &mut **item.resources.borrow_mut(), verdict, &mut choices)?
            }
            Err(e) => {
                writeln!(w, "<section>\n<h1>{}</h1>\n<p class=\"errored\">error: {}</p>\n</section>", esc(&e.location()), esc(&e.message))?
            }
        }
    }
    write_filters(w, &choices)?;
    writeln!(w, "<script>{SCRIPT}</script>")?;
    writeln!(w, "</body>\n</html>")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modules_are_read_from_the_address() {
        assert_eq!(module_of(r#"module.a["k"].module.b.aws_instance.x[0]"#), vec![r#"module.a["k"]"#.to_string(), "module.b".to_string()]);
        assert!(module_of("aws_instance.x").is_empty());
        assert!(module_of("not an address").is_empty());
    }
}
