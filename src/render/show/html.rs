//! `show --format html`: a first cut of issue 30's page. One self-contained
//! file (inline CSS, no script, nothing fetched: a strict
//! Content-Security-Policy forbids it), readable without JavaScript: the
//! `Plan:` line on top, the module tree with per-module counts by action
//! (collapsible `<details>`), then each change with the same attribute diff as
//! `show` (the diff tree masks sensitive values), every string from the plan
//! HTML-escaped. Resources are walked twice (counts, then changes), one at a
//! time, so a streamed report stays streamed.

use super::*;
use crate::model::Mode;
use crate::query::address::Address;
use crate::query::summary::Totals;
use std::collections::BTreeMap;

/// Nothing may be fetched, run, framed or submitted; only the inline style applies.
const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const STYLE: &str = "
:root { color-scheme: light dark; --fg: #1f2328; --bg: #fff; --muted: #59636e; --line: #d1d9e0;
  --create: #1a7f37; --update: #9a6700; --delete: #cf222e; --replace: #8250df; --read: #0969da; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --line: #3d444d;
  --create: #3fb950; --update: #d29922; --delete: #f85149; --replace: #a371f7; --read: #58a6ff; } }
body { font: 14px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); margin: 1.5em auto; max-width: 70em; padding: 0 1em; }
h1 { font-size: 1.3em; overflow-wrap: anywhere; } h2 { font-size: 1.1em; border-bottom: 1px solid var(--line); }
.meta, .note { color: var(--muted); } .plan { font-size: 1.1em; font-weight: 600; }
.errored { color: var(--delete); font-weight: 600; }
pre { background: color-mix(in srgb, var(--fg) 6%, transparent); padding: .6em .8em; overflow-x: auto; margin: .3em 0 1em; }
code, pre { font: 13px/1.4 ui-monospace, monospace; overflow-wrap: anywhere; }
details { margin: .2em 0; } details details { margin-left: 1.2em; } summary { cursor: pointer; }
ul { margin: .2em 0 .4em; padding-left: 1.6em; }
.create, .add { color: var(--create); } .update { color: var(--update); } .delete, .remove { color: var(--delete); }
.replace { color: var(--replace); } .read { color: var(--read); } .muted { color: var(--muted); }
@media print { details { display: block; } summary { list-style: none; } }
";

/// Text from the plan (or planview's own) made safe for HTML text and
/// attribute values alike: terminal controls made visible first, as `show`
/// prints them, then `& < > " '` escaped.
fn esc(s: &str) -> String {
    let s = clean(s);
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

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

/// What the first walk keeps of a change: where it sits and what it does.
struct Seen {
    module: Vec<String>,
    address: String,
    kind: ChangeKind,
}

/// A node of the module tree: its own changes (indices into the walk) and
/// child modules, with counts by action over the whole subtree.
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

fn write_tree(w: &mut dyn Write, name: &str, m: &Module, seen: &[Seen]) -> io::Result<()> {
    writeln!(w, "<details open><summary><code>{}</code> — {}</summary>", esc(name), counts_text(&m.counts))?;
    if !m.own.is_empty() {
        writeln!(w, "<ul>")?;
        for &i in &m.own {
            let s = &seen[i];
            writeln!(
                w,
                "<li><a href=\"#c{i}\"><code>{}</code></a> <span class=\"{}\">{}</span></li>",
                esc(&s.address),
                kind_class(&s.kind),
                esc(&s.kind.words())
            )?;
        }
        writeln!(w, "</ul>")?;
    }
    for (child, cm) in &m.children {
        write_tree(w, child, cm, seen)?;
    }
    writeln!(w, "</details>")
}

fn report_html(w: &mut dyn Write, r: &ShowReport, res: &mut dyn Resources) -> io::Result<()> {
    // First walk: the Plan: line and the module tree.
    let mut totals = Totals::default();
    let mut seen: Vec<Seen> = Vec::new();
    res.each(&mut |d| {
        let mode = match d.mode.as_str() {
            "managed" => Mode::Managed,
            "data" => Mode::Data,
            other => Mode::Other(other.to_string()),
        };
        totals.count(&mode, &d.address, d.importing, &d.kind);
        seen.push(Seen { module: module_of(&d.address), address: d.address.clone(), kind: d.kind.clone() });
        Ok(true)
    })?;
    let mut root = Module::default();
    for (i, s) in seen.iter().enumerate() {
        let mut at = &mut root;
        *at.counts.entry(s.kind.key()).or_default() += 1;
        for step in &s.module {
            at = at.children.entry(step.clone()).or_default();
            *at.counts.entry(s.kind.key()).or_default() += 1;
        }
        at.own.push(i);
    }

    writeln!(w, "<section>")?;
    writeln!(w, "<h1>{}</h1>", esc(&r.file))?;
    let tf = r.terraform_version.as_deref().map(|v| format!(" · terraform {}", esc(v))).unwrap_or_default();
    writeln!(w, "<p class=\"meta\">plan{tf} · format {}</p>", esc(&r.format_version))?;
    if r.errored {
        writeln!(w, "<p class=\"errored\">{}</p>", esc(ERRORED))?;
    }
    // Terraform's words; `planview summary` gives the CLI's exact line
    // (OpenTofu's forgets, refresh-only and output-only plans).
    if !totals.is_empty() {
        writeln!(w, "<p class=\"plan\">{}</p>", esc(&totals.plan_line()))?;
    }
    for l in footer(r, seen.len()) {
        writeln!(w, "<p class=\"note\">{}</p>", esc(&l))?;
    }

    if !seen.is_empty() {
        writeln!(w, "<h2>Modules</h2>")?;
        write_tree(w, "(root)", &root, &seen)?;
        writeln!(w, "<h2>Changes</h2>")?;
    }
    let mut i = 0usize;
    res.each(&mut |d| {
        let class = kind_class(&d.kind);
        writeln!(
            w,
            "<details open id=\"c{i}\"><summary><span class=\"{class}\">{}</span> <code>{}</code>: <span class=\"{class}\">{}</span></summary>",
            esc(d.kind.symbol()),
            esc(&header_address(d)),
            esc(&header_words(d))
        )?;
        i += 1;
        let mut lines: Vec<String> = notes(d).iter().map(|n| format!("    <span class=\"muted\"># {}</span>", esc(n))).collect();
        lines.extend(resource_lines(d).iter().map(html_line));
        lines.extend(triggered_lines(d, &r.invocations).iter().map(html_line));
        writeln!(w, "<pre>{}</pre>", lines.join("\n"))?;
        writeln!(w, "</details>")?;
        Ok(true)
    })?;
    let invoked = invoked_lines(&r.invocations);
    if !invoked.is_empty() {
        writeln!(w, "<h2>{}</h2>", esc(INVOKED_HEADING))?;
        writeln!(w, "<pre>{}</pre>", invoked.iter().map(html_line).collect::<Vec<_>>().join("\n"))?;
    }
    if !r.outputs.is_empty() {
        writeln!(w, "<h2>Changes to outputs</h2>")?;
        writeln!(w, "<pre>{}</pre>", output_entries(&r.outputs).iter().map(html_line).collect::<Vec<_>>().join("\n"))?;
    }
    writeln!(w, "</section>")
}

/// The page: every readable input, one section each.
pub(crate) fn html_items(w: &mut dyn Write, items: &[Item<'_>]) -> io::Result<()> {
    let title = match items {
        [one] => one.result.map(|r| r.file.as_str()).unwrap_or("plan"),
        _ => "plans",
    };
    writeln!(w, "<!DOCTYPE html>")?;
    writeln!(w, "<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">")?;
    writeln!(w, "<meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">")?;
    writeln!(w, "<meta name=\"referrer\" content=\"no-referrer\">")?;
    writeln!(w, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")?;
    writeln!(w, "<title>planview: {}</title>", esc(title))?;
    writeln!(w, "<style>{STYLE}</style>\n</head>\n<body>")?;
    for item in items {
        match item.result {
            Ok(r) => report_html(w, r, &mut **item.resources.borrow_mut())?,
            Err(e) => {
                writeln!(w, "<section>\n<h1>{}</h1>\n<p class=\"errored\">error: {}</p>\n</section>", esc(&e.location()), esc(&e.message))?
            }
        }
    }
    writeln!(w, "</body>\n</html>")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_html_special_character_is_escaped() {
        assert_eq!(esc(r#"<img src=x onerror="a('b')">&"#), "&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;");
        assert!(!esc("a\u{1b}[31mb").contains('\u{1b}'), "terminal controls are made visible too");
    }

    #[test]
    fn modules_are_read_from_the_address() {
        assert_eq!(module_of(r#"module.a["k"].module.b.aws_instance.x[0]"#), vec![r#"module.a["k"]"#.to_string(), "module.b".to_string()]);
        assert!(module_of("aws_instance.x").is_empty());
        assert!(module_of("not an address").is_empty());
    }
}
