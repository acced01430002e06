//! Renders `show` reports: terminal text, markdown (diff blocks for PR
//! comments, within a size cap) and JSON.

use super::{action_tone, md_cell, md_code, write_json, JsonInputError, Style, Tone};
use crate::error::InputError;
use crate::mask::Masker;
use crate::model::ChangeKind;
use crate::query::diff::{
    is_ident, path_text, Brackets, Entry, FlatChange, Key, Kind, LineItem, Node, Op, SensitivityChange, SensitivityNote,
};
use crate::query::show::actions::{InvocationDiff, Trigger};
use crate::query::show::{OutputDiff, ResourceDiff, ShowReport, TERRAFORM_DATA};
use crate::query::values::Shown;
use crate::sanitize::line as clean;
use crate::PerFile;
use serde::Serialize;
use serde_json::value::RawValue;
use std::cell::RefCell;
use std::io::{self, Write};

/// GitHub's limit on a comment body, in characters (we count bytes, which is stricter).
pub(crate) const MARKDOWN_CAP: usize = 65_536;

/// One printed line of a diff: a symbol (or none), a depth, the text.
#[derive(Debug, Clone)]
struct Line {
    op: Option<Op>,
    depth: usize,
    text: String,
    /// A trailing comment (`# forces replacement`).
    note: Option<&'static str>,
    comment: bool,
    /// A warning above a value: in the symbols' column, as the CLI prints it.
    warning: bool,
}

impl Line {
    fn new(op: Option<Op>, depth: usize, text: String) -> Line {
        Line { op, depth, text, note: None, comment: false, warning: false }
    }
    fn comment(depth: usize, text: String) -> Line {
        Line { op: None, depth, text, note: None, comment: true, warning: false }
    }
}

fn op_tone(op: Op) -> Tone {
    match op {
        Op::Add => Tone::Create,
        Op::Remove => Tone::Delete,
        Op::Update => Tone::Update,
        Op::Same => Tone::Muted,
    }
}

/// The tone of a change kind's header.
fn kind_tone(k: &ChangeKind) -> Tone {
    action_tone(&k.key())
}

fn shown(s: &Shown) -> String {
    clean(s.text()).into_owned()
}

/// `before -> after`, or the one side an add/remove has.
fn leaf_text(op: Op, before: &Option<Shown>, after: &Option<Shown>) -> String {
    match (op, before, after) {
        (Op::Remove, Some(b), _) => shown(b),
        (Op::Add, _, Some(a)) => shown(a),
        (Op::Same, _, Some(a)) => shown(a),
        // Equal sides (both masked, or only the sensitivity changes): once.
        (_, Some(b), Some(a)) if b == a => shown(a),
        (_, Some(b), Some(a)) => format!("{} -> {}", shown(b), shown(a)),
        (_, None, Some(a)) => shown(a),
        (_, Some(b), None) => shown(b),
        (_, None, None) => "null".into(),
    }
}

fn key_text(k: &str) -> String {
    if is_ident(k) {
        k.to_string()
    } else {
        clean(&super::json_string(k)).into_owned()
    }
}

fn hidden_line(n: usize, what: &str) -> String {
    format!("# ({n} unchanged {what}{} hidden)", if n == 1 { "" } else { "s" })
}

/// The CLI's warning above a value whose sensitivity changes, word for word.
fn sensitivity_warning(s: SensitivityNote) -> [&'static str; 2] {
    match (s.change, s.value_unchanged) {
        (SensitivityChange::Marked, false) => [
            "# Warning: this attribute value will be marked as sensitive and will not",
            "# display in UI output after applying this change.",
        ],
        (SensitivityChange::Marked, true) => [
            "# Warning: this attribute value will be marked as sensitive and will not",
            "# display in UI output after applying this change. The value is unchanged.",
        ],
        (SensitivityChange::Unmarked, false) => {
            ["# Warning: this attribute value will no longer be marked as sensitive", "# after applying this change."]
        }
        (SensitivityChange::Unmarked, true) => [
            "# Warning: this attribute value will no longer be marked as sensitive",
            "# after applying this change. The value is unchanged.",
        ],
    }
}

/// Lines for the entries of an object-like level (attributes, map keys,
/// outputs), keys aligned to `width` (or the widest shown key). `null_suffix`:
/// a removed entry ends with ` -> null`, as the CLI writes it for a
/// resource's attributes and outputs (not inside a value).
fn object_entries(out: &mut Vec<Line>, entries: &[(String, &Node)], hidden: usize, width: usize, depth: usize, null_suffix: bool) {
    let width = entries.iter().map(|(k, _)| k.chars().count()).max().unwrap_or(0).max(width);
    for (k, n) in entries {
        node_lines(out, Some(&format!("{k:<width$}")), n, depth, "", null_suffix);
    }
    if hidden > 0 {
        out.push(Line::comment(depth, hidden_line(hidden, "attribute")));
    }
}

/// The elements of a list: with `context`, an unchanged element is shown
/// only next to a change (one each side), the others counted in place
/// (`# (N unchanged elements hidden)`), as the CLI shows lists.
fn list_entries(out: &mut Vec<Line>, entries: &[Entry], context: bool, depth: usize) {
    let mut unchanged: Vec<&Entry> = Vec::new();
    let mut render_next = false;
    for e in entries {
        if context && e.node.op == Op::Same && !render_next {
            unchanged.push(e);
            continue;
        }
        render_next = false;
        if context {
            if unchanged.len() > 1 {
                out.push(Line::comment(depth, hidden_line(unchanged.len() - 1, "element")));
            }
            if let Some(last) = unchanged.last() {
                node_lines(out, None, &last.node, depth, ",", false);
            }
            unchanged.clear();
            render_next = e.node.op != Op::Same;
        }
        if let (true, Some(Key::Index(i))) = (e.moved, &e.before_key) {
            out.push(Line::comment(depth, format!("# (moved from [{i}])")));
        }
        node_lines(out, None, &e.node, depth, ",", false);
    }
    if !unchanged.is_empty() {
        out.push(Line::comment(depth, hidden_line(unchanged.len(), "element")));
    }
}

/// Lines for one node: `key = value`, or an opening line, children and a
/// closing line. `null_suffix`: see [`object_entries`].
fn node_lines(out: &mut Vec<Line>, key: Option<&str>, n: &Node, depth: usize, trail: &str, null_suffix: bool) {
    if let Some(s) = n.sensitivity {
        for w in sensitivity_warning(s) {
            out.push(Line { warning: true, ..Line::comment(depth, w.to_string()) });
        }
    }
    let lead = key.map(|k| format!("{k} = ")).unwrap_or_default();
    let note = n.forces_replacement.then_some("# forces replacement");
    let op = Some(n.op);
    let to_null = if null_suffix && n.op == Op::Remove { " -> null" } else { "" };
    match &n.kind {
        Kind::Leaf { before, after } => {
            // `null -> null` would read oddly: the CLI leaves the suffix out.
            let to_null = if matches!(before, Some(Shown::Null)) { "" } else { to_null };
            let mut l = Line::new(op, depth, format!("{lead}{}{to_null}{trail}", leaf_text(n.op, before, after)));
            l.note = note;
            out.push(l);
        }
        Kind::Collection { brackets, entries, hidden, before: before_whole, after: after_whole, width, context } => {
            let (open, close) = match brackets {
                Brackets::Object => ("{", "}"),
                Brackets::List => ("[", "]"),
            };
            let tail = after_whole.as_ref().filter(|_| n.op == Op::Update).map(|a| format!(" -> {}", shown(a))).unwrap_or_default();
            if entries.is_empty() {
                let what = if *brackets == Brackets::Object { "attribute" } else { "element" };
                let inner = if *hidden > 0 { format!(" {} ", hidden_line(*hidden, what)) } else { String::new() };
                let mut l = Line::new(op, depth, format!("{lead}{open}{inner}{close}{tail}{to_null}{trail}"));
                l.note = note;
                out.push(l);
                return;
            }
            // A type change from a value shown whole: `"*" -> [`.
            let from = before_whole.as_ref().filter(|_| n.op == Op::Update).map(|b| format!("{} -> ", shown(b))).unwrap_or_default();
            let mut l = Line::new(op, depth, format!("{lead}{from}{open}"));
            l.note = note;
            out.push(l);
            match brackets {
                Brackets::Object => {
                    let list: Vec<(String, &Node)> = entries
                        .iter()
                        .map(|e| {
                            let k = match &e.key {
                                Key::Attr(a) => key_text(a),
                                Key::Index(i) => format!("[{i}]"),
                            };
                            (k, &e.node)
                        })
                        .collect();
                    object_entries(out, &list, *hidden, *width, depth + 1, false);
                }
                Brackets::List => {
                    list_entries(out, entries, *context, depth + 1);
                    if *hidden > 0 {
                        out.push(Line::comment(depth + 1, hidden_line(*hidden, "element")));
                    }
                }
            }
            out.push(Line::new(None, depth, format!("{close}{tail}{to_null}{trail}")));
        }
        Kind::Lines(items) => {
            let mut l = Line::new(op, depth, format!("{lead}<<-EOT"));
            l.note = note;
            out.push(l);
            for it in items {
                match it {
                    LineItem::Line(lop, text) => out.push(Line::new(Some(*lop), depth + 1, clean(text).into_owned())),
                    LineItem::Hidden(k) => out.push(Line::comment(depth + 1, hidden_line(*k, "line"))),
                    LineItem::EndNewline(eop) => {
                        let what = if *eop == Op::Add { "added" } else { "removed" };
                        out.push(Line::new(Some(*eop), depth + 1, format!("# (newline at the end of the text {what})")));
                    }
                }
            }
            out.push(Line::new(None, depth, format!("EOT{to_null}{trail}")));
        }
        Kind::ToUnknown(inner) => {
            // The block as it is now, then what it becomes.
            let mut sub = Vec::new();
            let shown_inner = Node { op: n.op, forces_replacement: n.forces_replacement, sensitivity: None, kind: inner.kind.clone() };
            node_lines(&mut sub, key, &shown_inner, depth, "", false);
            if let Some(last) = sub.last_mut() {
                last.text.push_str(" -> (known after apply)");
                last.text.push_str(trail);
            }
            out.extend(sub);
        }
        Kind::Json(inner) => {
            // The CLI's layout: `jsonencode(`, the decoded value one level
            // deeper (its symbol `~` for an update, none for an addition or
            // removal of the whole string), then `)` on its own line.
            let mut sub = Vec::new();
            let inner_op = if matches!(n.op, Op::Add | Op::Remove) { Op::Same } else { inner.op };
            let shown_inner = Node { op: inner_op, ..(**inner).clone() };
            node_lines(&mut sub, None, &shown_inner, depth + 1, "", false);
            if sub.len() == 1 {
                // A value on one line: `jsonencode([])`.
                let mut l = Line::new(op, depth, format!("{lead}jsonencode({}){to_null}{trail}", sub[0].text));
                l.note = note;
                out.push(l);
                return;
            }
            let mut l = Line::new(op, depth, format!("{lead}jsonencode("));
            l.note = note;
            out.push(l);
            out.extend(sub);
            out.push(Line::new(None, depth, format!("){to_null}{trail}")));
        }
    }
}

/// The attribute lines of a resource.
fn resource_lines(r: &ResourceDiff) -> Vec<Line> {
    let mut lines = body_lines(&r.root);
    if r.type_ == TERRAFORM_DATA && r.mode == "managed" {
        // Its attributes are values of any type: the CLI never notes that
        // one of them forces the replacement (the reason above says so).
        for l in &mut lines {
            l.note = None;
        }
    }
    lines
}

/// The attribute lines of a resource's root node.
fn body_lines(root: &Node) -> Vec<Line> {
    let mut out = Vec::new();
    match &root.kind {
        Kind::Collection { brackets: Brackets::Object, entries, hidden, width, .. } => {
            let list: Vec<(String, &Node)> = entries
                .iter()
                .map(|e| {
                    let k = match &e.key {
                        Key::Attr(a) => key_text(a),
                        Key::Index(i) => format!("[{i}]"),
                    };
                    (k, &e.node)
                })
                .collect();
            object_entries(&mut out, &list, *hidden, *width, 0, true);
        }
        Kind::Leaf { before: None, after: None } => {}
        _ => node_lines(&mut out, None, root, 0, "", true),
    }
    out
}

/// The header words: the action, then move, import and deposed facts.
pub(crate) fn header_words(r: &ResourceDiff) -> String {
    let mut parts = Vec::new();
    if r.kind != ChangeKind::NoOp {
        parts.push(r.kind.words());
    }
    if r.moved() {
        parts.push(format!("moved from {}", r.previous_address.as_deref().unwrap_or_default()));
    }
    if r.importing {
        match &r.import_id {
            Some(id) => parts.push(format!("imported from {}", super::json_string(id))),
            None => parts.push(r.import_identity.as_ref().map_or("imported".into(), |i| format!("imported by {i}"))),
        }
    }
    if r.kind == ChangeKind::NoOp && parts.is_empty() {
        parts.push(r.kind.words());
    }
    parts.join(", ")
}

fn header_address(r: &ResourceDiff) -> String {
    match &r.deposed {
        Some(k) => format!("{} (deposed object {k})", r.address),
        None => r.address.clone(),
    }
}

/// Notes under the header: the reason, generated configuration.
fn notes(r: &ResourceDiff) -> Vec<String> {
    let mut v = Vec::new();
    if let Some(w) = &r.reason_words {
        v.push(format!("because: {w}"));
    }
    if matches!(r.kind, ChangeKind::Unknown(_)) {
        v.push("planview does not know this action list (a newer CLI?); the change is shown as written".into());
    }
    if r.deposed.is_some() && r.reason_words.is_none() {
        v.push("a deposed object, left over from a partially-failed replacement".into());
    }
    if r.generated_config {
        v.push("configuration will be generated".into());
    }
    v
}

// ---------------------------------------------------------------- text

fn terminal_line(l: &Line, style: &Style) -> String {
    if l.comment && l.text.is_empty() {
        return String::new();
    }
    let indent = "    ".repeat(l.depth + 1);
    let mut s = String::new();
    s.push_str(&indent);
    if l.comment {
        if !l.warning {
            s.push_str("  ");
        }
        s.push_str(&style.paint(&l.text, Tone::Muted));
    } else {
        match l.op {
            Some(op) => s.push_str(&style.paint(op.symbol(), op_tone(op))),
            None => s.push(' '),
        }
        s.push(' ');
        s.push_str(&l.text);
    }
    if let Some(n) = l.note {
        s.push(' ');
        s.push_str(&style.paint(n, Tone::Replace));
    }
    s
}

fn resource_text(w: &mut dyn Write, r: &ResourceDiff, invocations: &[InvocationDiff], style: &Style) -> io::Result<()> {
    let tone = kind_tone(&r.kind);
    let sym = r.kind.symbol();
    writeln!(
        w,
        "{} {}: {}",
        style.paint(sym, tone),
        style.paint(&clean(&header_address(r)), Tone::Bold),
        style.paint(&clean(&header_words(r)), tone)
    )?;
    for n in notes(r) {
        writeln!(w, "    {}", style.paint(&format!("# {}", clean(&n)), Tone::Muted))?;
    }
    for l in resource_lines(r) {
        writeln!(w, "{}", terminal_line(&l, style))?;
    }
    for l in triggered_lines(r, invocations) {
        writeln!(w, "{}", terminal_line(&l, style))?;
    }
    Ok(())
}

// ---------------------------------------------------------------- action invocations

/// The CLI's block of one invocation (internal/command/jsonformat/plan.go,
/// `renderActionInvocation`): `# action.x.y`, `action "t" "n" {`, its
/// `config` without diff symbols, `}`.
fn invocation_block(out: &mut Vec<Line>, i: &InvocationDiff) {
    out.push(Line::comment(0, format!("# {}", i.address)));
    out.push(Line::new(None, 0, format!("action {} {} {{", super::json_string(&i.type_), super::json_string(&i.name))));
    if let Some(config) = &i.config {
        out.push(Line::new(None, 1, "config {".into()));
        for mut l in body_lines(config) {
            l.depth += 2;
            if !l.comment {
                l.op = None;
            }
            out.push(l);
        }
        out.push(Line::new(None, 1, "}".into()));
    }
    out.push(Line::new(None, 0, "}".into()));
}

/// The invocations a lifecycle trigger of `r` runs, in the CLI's words
/// ("# Actions to be invoked before/after this change in order:"); those
/// on an event planview does not know follow, under the event's name.
fn triggered_lines(r: &ResourceDiff, all: &[InvocationDiff]) -> Vec<Line> {
    let mut out = Vec::new();
    if r.deposed.is_some() {
        return out;
    }
    let groups = [(Some(true), "before this change in order"), (Some(false), "after this change in order"), (None, "")];
    for (when, words) in groups {
        let list = InvocationDiff::of_resource(all, &r.address, when);
        if list.is_empty() {
            continue;
        }
        out.push(Line::comment(0, String::new()));
        let heading = match when {
            Some(_) => format!("# Actions to be invoked {words}:"),
            None => {
                let events: Vec<&str> = list
                    .iter()
                    .filter_map(|i| match &i.trigger {
                        Trigger::Lifecycle { event, .. } => Some(event.as_str()),
                        _ => None,
                    })
                    .collect();
                format!("# Actions to be invoked on {} (an event planview does not know):", clean(&events.join(", ")))
            }
        };
        out.push(Line::comment(0, heading));
        for i in list {
            invocation_block(&mut out, i);
        }
    }
    out
}

/// `apply -invoke`'s invocations, as the CLI lists them after the plan
/// ("# action.x will be invoked (called from aws_instance.web)").
fn invoked_lines(all: &[InvocationDiff]) -> Vec<Line> {
    let mut out = Vec::new();
    for (n, i) in InvocationDiff::invoked(all).into_iter().enumerate() {
        if n > 0 {
            out.push(Line::comment(0, String::new()));
        }
        let from = match &i.trigger {
            Trigger::Invoke { calling: Some(c) } => format!(" (called from {c})"),
            Trigger::Unknown => " (planview cannot tell what invokes it)".into(),
            _ => String::new(),
        };
        out.push(Line::comment(0, format!("# {} will be invoked{from}", i.address)));
        invocation_block(&mut out, i);
    }
    out
}

/// The heading the CLI prints before `apply -invoke`'s invocations.
const INVOKED_HEADING: &str = "Terraform will invoke the following action(s):";

fn output_entries(outputs: &[OutputDiff]) -> Vec<Line> {
    let list: Vec<(String, &Node)> = outputs.iter().map(|o| (key_text(&o.name), &o.root)).collect();
    let width = outputs.iter().map(|o| o.width).max().unwrap_or(0);
    let mut out = Vec::new();
    object_entries(&mut out, &list, 0, width, 0, true);
    out
}

/// The lines under a report: what was left out, or that nothing changes.
/// `shown` is the number of resources shown.
fn footer(r: &ShowReport, shown: usize) -> Vec<String> {
    let mut v = Vec::new();
    if shown == 0 && r.outputs.is_empty() && InvocationDiff::invoked(&r.invocations).is_empty() {
        v.push(if r.filtered_out > 0 { "No changes match the filters.".to_string() } else { "No changes.".to_string() });
    }
    if r.hidden_noop > 0 {
        v.push(format!(
            "{} unchanged (no-op) change{} hidden (--all shows them)",
            r.hidden_noop,
            if r.hidden_noop == 1 { "" } else { "s" }
        ));
    }
    if r.filtered_out > 0 {
        v.push(format!("{} resource change{} left out by the filters", r.filtered_out, if r.filtered_out == 1 { "" } else { "s" }));
    }
    v
}

const ERRORED: &str = "PLAN ERRORED: planning failed and this plan cannot be applied; only the changes planned before the error are listed";

/// The resource diffs of one report, in order, built when asked for: a
/// streamed report ([`crate::query::show::stream`]) builds each one from its
/// change only then and drops it after, so a renderer holds one at a time.
pub(crate) trait Resources {
    /// How many there are.
    fn count(&self) -> usize;
    /// `f` on each, in order, until it returns `Ok(false)` (no more wanted) or fails.
    fn each(&mut self, f: &mut dyn FnMut(&ResourceDiff) -> io::Result<bool>) -> io::Result<()>;
}

impl Resources for &[ResourceDiff] {
    fn count(&self) -> usize {
        self.len()
    }
    fn each(&mut self, f: &mut dyn FnMut(&ResourceDiff) -> io::Result<bool>) -> io::Result<()> {
        for r in self.iter() {
            if !f(r)? {
                break;
            }
        }
        Ok(())
    }
}

/// One input's report (its `resources` left empty: they come from
/// `resources`) or why it could not be read, with its secrets.
pub(crate) struct Item<'a> {
    pub result: Result<&'a ShowReport, &'a InputError>,
    pub resources: RefCell<Box<dyn Resources + 'a>>,
    pub masker: &'a Masker,
}

impl<'a> Item<'a> {
    /// An input read whole: its resources are the report's own.
    pub(crate) fn whole(item: &'a PerFile<ShowReport>) -> Item<'a> {
        let resources: &'a [ResourceDiff] = match &item.result {
            Ok(r) => &r.resources,
            Err(_) => &[],
        };
        Item { result: item.result.as_ref(), resources: RefCell::new(Box::new(resources)), masker: &item.masker }
    }
}

fn report_text(w: &mut dyn Write, r: &ShowReport, res: &mut dyn Resources, many: bool, style: &Style) -> io::Result<()> {
    if many {
        writeln!(w, "{}", style.paint(&format!("== {} ==", clean(&r.file)), Tone::Bold))?;
    }
    if r.errored {
        writeln!(w, "{}", style.paint(&format!("!! {ERRORED}"), Tone::Bad))?;
    }
    let shown = res.count();
    let mut i = 0usize;
    res.each(&mut |res| {
        if i > 0 || r.errored {
            writeln!(w)?;
        }
        i += 1;
        resource_text(w, res, &r.invocations, style)?;
        Ok(true)
    })?;
    let invoked = invoked_lines(&r.invocations);
    if !invoked.is_empty() {
        if shown > 0 || r.errored {
            writeln!(w)?;
        }
        writeln!(w, "{}", style.paint(INVOKED_HEADING, Tone::Bold))?;
        for l in invoked {
            writeln!(w, "{}", terminal_line(&l, style))?;
        }
    }
    if !r.outputs.is_empty() {
        if shown > 0 {
            writeln!(w)?;
        }
        writeln!(w, "{}", style.paint("Changes to outputs:", Tone::Bold))?;
        for l in output_entries(&r.outputs) {
            writeln!(w, "{}", terminal_line(&l, style))?;
        }
    }
    let f = footer(r, shown);
    if !f.is_empty() {
        if shown > 0 || !r.outputs.is_empty() {
            writeln!(w)?;
        }
        for l in f {
            writeln!(w, "{}", style.paint(&l, Tone::Muted))?;
        }
    }
    Ok(())
}

/// Terminal text of every readable input, in order (a heading each when there are several).
pub(crate) fn table_items(w: &mut dyn Write, items: &[Item<'_>], style: &Style) -> io::Result<()> {
    let many = items.len() > 1;
    let mut first = true;
    for item in items {
        let Ok(r) = item.result else { continue };
        if !first {
            writeln!(w)?;
        }
        first = false;
        report_text(w, r, &mut **item.resources.borrow_mut(), many, style)?;
    }
    Ok(())
}

// ---------------------------------------------------------------- markdown

/// The diff-block symbol: `!` for in-place changes (highlighted by GitHub), `+`, `-`, space.
fn md_symbol(op: Option<Op>) -> &'static str {
    match op {
        Some(Op::Add) => "+",
        Some(Op::Remove) => "-",
        Some(Op::Update) => "!",
        Some(Op::Same) | None => " ",
    }
}

fn md_line(l: &Line) -> String {
    if l.comment && l.text.is_empty() {
        return String::new();
    }
    let indent = "    ".repeat(l.depth);
    let mut s = if l.comment { format!("  {indent}{}", l.text) } else { format!("{}{indent} {}", md_symbol(l.op), l.text) };
    if let Some(n) = l.note {
        s.push(' ');
        s.push_str(n);
    }
    s
}

/// A fenced `diff` block whose fence no line can close.
fn diff_block(lines: &[String]) -> String {
    let longest = lines.iter().flat_map(|l| l.split(|c| c != '`')).map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let mut s = format!("{fence}diff\n");
    for l in lines {
        s.push_str(l);
        s.push('\n');
    }
    s.push_str(&fence);
    s.push('\n');
    s
}

/// A resource's markdown: the heading and notes, and the diff lines.
fn resource_md_parts(r: &ResourceDiff, invocations: &[InvocationDiff]) -> (String, Vec<String>) {
    let sym = r.kind.symbol().trim();
    let sym = if sym.is_empty() { String::new() } else { format!("{} ", md_code(sym)) };
    let mut head = format!("#### {sym}{} — {}\n", md_code(&header_address(r)), md_cell(&header_words(r)));
    for n in notes(r) {
        head.push_str(&format!("_{}_\n", md_cell(&n)));
    }
    let mut lines = resource_lines(r);
    lines.extend(triggered_lines(r, invocations));
    (head, lines.iter().map(md_line).collect())
}

/// The block of a resource, with only its first `keep` diff lines when given.
fn resource_md_block(head: &str, lines: &[String], keep: Option<usize>) -> String {
    let mut s = head.to_string();
    let mut shown: Vec<String> = match keep {
        Some(k) => lines[..k.min(lines.len())].to_vec(),
        None => lines.to_vec(),
    };
    if let Some(k) = keep.filter(|k| *k < lines.len()) {
        shown.push(format!("  # ... {} more lines left out to fit the size limit", lines.len() - k));
    }
    if !shown.is_empty() {
        s.push('\n');
        s.push_str(&diff_block(&shown));
    }
    s.push('\n');
    s
}

fn outputs_md(outputs: &[OutputDiff]) -> String {
    let lines: Vec<String> = output_entries(outputs).iter().map(md_line).collect();
    format!("#### Changes to outputs\n\n{}\n", diff_block(&lines))
}

/// Markdown within `max_bytes` (measured after secrets are scrubbed): blocks
/// that do not fit are left out and counted at the end.
pub(crate) fn markdown_out(w: &mut dyn Write, items: &[PerFile<ShowReport>], max_bytes: usize) -> io::Result<()> {
    markdown_items(w, &items.iter().map(Item::whole).collect::<Vec<_>>(), max_bytes)
}

/// [`markdown_out`] over items whose resources are built when asked for: the
/// text is written as it is decided (nothing written is taken back), and
/// once something is left out the resources after it are counted, not built.
pub(crate) fn markdown_items(w: &mut dyn Write, items: &[Item<'_>], max_bytes: usize) -> io::Result<()> {
    // Room kept for the note saying what was left out.
    const RESERVE: usize = 400;
    let mut used = 0usize;
    let (mut left_res, mut left_out, mut cut_short) = (0usize, 0usize, 0usize);
    // Once something is left out or cut short, everything after it is left out (order is kept).
    let mut stopped = false;
    for item in items {
        let Ok(r) = item.result else { continue };
        let mut resources = item.resources.borrow_mut();
        let count = resources.count();
        let scrub = item.masker.scrubber();
        // Secrets are scrubbed from the output afterwards: count the longer form.
        let size = |s: &str| s.len().max(scrub.scrub(s.as_bytes()).len());
        let fits = |used: usize, n: usize| used + n + RESERVE <= max_bytes;
        let mut head = format!("### planview show: {}\n\n", md_code(&r.file));
        if r.errored {
            head.push_str(&format!("> **{}**\n\n", md_cell(ERRORED)));
        }
        if stopped || !fits(used, size(&head)) {
            stopped = true;
            left_res += count;
            left_out += r.outputs.len();
            continue;
        }
        used += size(&head);
        w.write_all(head.as_bytes())?;
        let mut seen = 0usize;
        resources.each(&mut |res| {
            seen += 1;
            let (h, lines) = resource_md_parts(res, &r.invocations);
            let whole = resource_md_block(&h, &lines, None);
            if fits(used, size(&whole)) {
                used += size(&whole);
                w.write_all(whole.as_bytes())?;
                return Ok(true);
            }
            // Too big: keep as many of its first lines as fit, if a useful part does.
            let fit_k = |k: usize| fits(used, size(&resource_md_block(&h, &lines, Some(k))));
            let (mut lo, mut hi) = (0usize, lines.len());
            while lo < hi {
                let mid = (lo + hi).div_ceil(2);
                if fit_k(mid) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            if lo >= 3 {
                let b = resource_md_block(&h, &lines, Some(lo));
                used += size(&b);
                w.write_all(b.as_bytes())?;
                cut_short += 1;
            } else {
                left_res += 1;
            }
            stopped = true;
            Ok(false)
        })?;
        // The ones after a stop were not built: all left out.
        left_res += count - seen;
        let invoked: Vec<String> = invoked_lines(&r.invocations).iter().map(md_line).collect();
        if !invoked.is_empty() {
            let b = format!("#### {INVOKED_HEADING}\n\n{}\n", diff_block(&invoked));
            if !stopped && fits(used, size(&b)) {
                used += size(&b);
                w.write_all(b.as_bytes())?;
            } else {
                stopped = true;
                left_res += InvocationDiff::invoked(&r.invocations).len();
            }
        }
        if !r.outputs.is_empty() {
            let b = outputs_md(&r.outputs);
            if !stopped && fits(used, size(&b)) {
                used += size(&b);
                w.write_all(b.as_bytes())?;
            } else {
                stopped = true;
                left_out += r.outputs.len();
            }
        }
        let mut tail = String::new();
        for l in footer(r, count) {
            tail.push_str(&format!("_{}_\n", md_cell(&l)));
        }
        if !tail.is_empty() {
            tail.push('\n');
        }
        if fits(used, size(&tail)) {
            used += size(&tail);
            w.write_all(tail.as_bytes())?;
        }
    }
    if left_res + left_out + cut_short > 0 {
        let cut = if cut_short > 0 { format!("{cut_short} resource change cut short, ") } else { String::new() };
        w.write_all(
            format!(
                "> **Trimmed to fit {max_bytes} bytes:** {cut}{left_res} resource change{} and {left_out} output change{} left out. \
                 Run `planview show` locally (or raise `--max-bytes`) for the full report.\n",
                if left_res == 1 { "" } else { "s" },
                if left_out == 1 { "" } else { "s" }
            )
            .as_bytes(),
        )?;
    }
    Ok(())
}

// ---------------------------------------------------------------- json

/// One side of a changed attribute.
#[derive(Debug, Serialize)]
struct JsonSide {
    /// `value`, `null`, `sensitive` (masked) or `unknown` (known after apply).
    state: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<Box<RawValue>>,
}

fn json_side(s: &Option<Shown>) -> Option<JsonSide> {
    s.as_ref().map(|s| match s {
        Shown::Value(v) => JsonSide { state: "value", value: RawValue::from_string(v.clone()).ok() },
        Shown::Null => JsonSide { state: "null", value: None },
        Shown::Sensitive => JsonSide { state: "sensitive", value: None },
        Shown::Unknown => JsonSide { state: "unknown", value: None },
    })
}

#[derive(Debug, Serialize)]
struct JsonChange {
    path: Vec<crate::model::PathStep>,
    path_text: String,
    op: Op,
    before: Option<JsonSide>,
    after: Option<JsonSide>,
    forces_replacement: bool,
    /// `marked` / `unmarked` where the value becomes or stops being sensitive.
    sensitivity: Option<SensitivityChange>,
}

fn json_changes(v: &[FlatChange]) -> Vec<JsonChange> {
    v.iter()
        .map(|c| JsonChange {
            path: c.path.clone(),
            path_text: path_text(&c.path),
            op: c.op,
            before: json_side(&c.before),
            after: json_side(&c.after),
            forces_replacement: c.forces_replacement,
            sensitivity: c.sensitivity,
        })
        .collect()
}

#[derive(Debug, Serialize)]
struct JsonResource<'a> {
    address: &'a str,
    previous_address: Option<&'a str>,
    mode: &'a str,
    #[serde(rename = "type")]
    type_: &'a str,
    action: String,
    actions: &'a [String],
    symbol: &'static str,
    words: String,
    reason: Option<&'a str>,
    reason_words: Option<&'a str>,
    deposed: Option<&'a str>,
    moved: bool,
    importing: bool,
    import_id: Option<&'a str>,
    changes: Vec<JsonChange>,
    unchanged_hidden: usize,
}

#[derive(Debug, Serialize)]
struct JsonOutput<'a> {
    name: &'a str,
    action: String,
    symbol: &'static str,
    changes: Vec<JsonChange>,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    kind: &'static str,
    file: &'a str,
    format_version: &'a str,
    terraform_version: Option<&'a str>,
    errored: bool,
    resources: LazyResources<'a>,
    outputs: Vec<JsonOutput<'a>>,
    hidden_noop: usize,
    filtered_out: usize,
    action_invocations: Vec<JsonInvocation<'a>>,
}

#[derive(Debug, Serialize)]
struct JsonInvocation<'a> {
    address: &'a str,
    #[serde(rename = "type")]
    type_: &'a str,
    name: &'a str,
    trigger: &'static str,
    triggering_resource_address: Option<&'a str>,
    event: Option<&'a str>,
    calling_resource_address: Option<&'a str>,
    on_failure: Option<&'a str>,
    config: Vec<JsonChange>,
}

fn json_invocation(i: &InvocationDiff) -> JsonInvocation<'_> {
    let (trigger, resource, event, calling) = match &i.trigger {
        Trigger::Lifecycle { resource, event, before } => {
            let t = match before {
                Some(true) => "before",
                Some(false) => "after",
                None => "event",
            };
            (t, Some(resource.as_str()), Some(event.as_str()), None)
        }
        Trigger::Invoke { calling } => ("invoke", None, None, calling.as_deref()),
        Trigger::Unknown => ("unknown", None, None, None),
    };
    JsonInvocation {
        address: &i.address,
        type_: &i.type_,
        name: &i.name,
        trigger,
        triggering_resource_address: resource,
        event,
        calling_resource_address: calling,
        on_failure: i.on_failure.as_deref(),
        config: json_changes(&i.config_leaves),
    }
}

/// The `resources` array, each built and written in turn as the serializer gets to it.
struct LazyResources<'a>(RefCell<&'a mut (dyn Resources + 'a)>);

impl Serialize for LazyResources<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error as _, SerializeSeq};
        let mut resources = self.0.borrow_mut();
        let mut seq = s.serialize_seq(Some(resources.count()))?;
        let mut failed: Option<S::Error> = None;
        let done = resources.each(&mut |x| match seq.serialize_element(&json_resource(x)) {
            Ok(()) => Ok(true),
            Err(e) => {
                failed = Some(e);
                Err(io::Error::other("not written"))
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        done.map_err(S::Error::custom)?;
        seq.end()
    }
}

fn hidden_at_root(n: &Node) -> usize {
    match &n.kind {
        Kind::Collection { hidden, .. } => *hidden,
        _ => 0,
    }
}

fn json_resource(x: &ResourceDiff) -> JsonResource<'_> {
    JsonResource {
        address: &x.address,
        previous_address: x.previous_address.as_deref(),
        mode: &x.mode,
        type_: &x.type_,
        action: x.kind.key(),
        actions: &x.actions,
        symbol: x.kind.symbol(),
        words: header_words(x),
        reason: x.reason.as_deref(),
        reason_words: x.reason_words.as_deref(),
        deposed: x.deposed.as_deref(),
        moved: x.moved(),
        importing: x.importing,
        import_id: x.import_id.as_deref(),
        changes: json_changes(&x.changes),
        // As before identifying attributes were shown: the JSON lists changes only.
        unchanged_hidden: hidden_at_root(&x.root) + x.identifying,
    }
}

fn json_report<'a>(r: &'a ShowReport, resources: &'a mut (dyn Resources + 'a)) -> JsonReport<'a> {
    JsonReport {
        kind: "show",
        file: &r.file,
        format_version: &r.format_version,
        terraform_version: r.terraform_version.as_deref(),
        errored: r.errored,
        resources: LazyResources(RefCell::new(resources)),
        outputs: r
            .outputs
            .iter()
            .map(|o| JsonOutput { name: &o.name, action: o.kind.key(), symbol: o.kind.symbol(), changes: json_changes(&o.changes) })
            .collect(),
        hidden_noop: r.hidden_noop,
        filtered_out: r.filtered_out,
        action_invocations: r.invocations.iter().map(json_invocation).collect(),
    }
}

#[derive(Serialize)]
#[serde(untagged)]
enum JsonItem<'a> {
    Ok(JsonReport<'a>),
    Err(JsonInputError<'a>),
}

#[derive(Serialize)]
struct JsonMany<'a> {
    files: Vec<JsonItem<'a>>,
}

/// One JSON document: the report of a single input, or `{"files": [...]}`;
/// each resource is built and written in turn.
pub(crate) fn json_items(w: &mut dyn Write, items: &[Item<'_>]) -> io::Result<()> {
    let mut resources: Vec<_> = items.iter().map(|i| i.resources.borrow_mut()).collect();
    let list: Vec<JsonItem> = items
        .iter()
        .zip(resources.iter_mut())
        .map(|(i, res)| match i.result {
            Ok(r) => JsonItem::Ok(json_report(r, &mut ***res)),
            Err(e) => JsonItem::Err(JsonInputError::new(e)),
        })
        .collect();
    if list.len() == 1 {
        return write_json(w, &list[0]);
    }
    write_json(w, &JsonMany { files: list })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diff_block_fence_outgrows_backticks_in_the_content() {
        let b = diff_block(&["+ a = \"```\"".to_string(), "+ b = \"````x\"".to_string()]);
        assert!(b.starts_with("`````diff\n"), "{b}");
        assert!(b.ends_with("\n`````\n"));
        assert!(diff_block(&["+ plain".to_string()]).starts_with("```diff\n"));
    }

    #[test]
    fn both_sides_masked_print_once() {
        assert_eq!(leaf_text(Op::Update, &Some(Shown::Sensitive), &Some(Shown::Sensitive)), "(sensitive value)");
        assert_eq!(leaf_text(Op::Update, &Some(Shown::Sensitive), &Some(Shown::Unknown)), "(sensitive value) -> (known after apply)");
        assert_eq!(leaf_text(Op::Remove, &Some(Shown::Value("1".into())), &None), "1");
    }

    #[test]
    fn keys_that_are_not_identifiers_are_quoted_and_escaped() {
        assert_eq!(key_text("cost_center"), "cost_center");
        assert_eq!(key_text("a b"), "\"a b\"");
        // Quoted as our JSON output quotes it (the form the secret scrubber knows).
        assert_eq!(key_text("x\u{202E}y\u{1b}"), "\"x\\u202ey\\u001b\"");
    }

    #[test]
    fn a_secret_in_a_quoted_key_is_masked() {
        let mut m = crate::mask::Masker::default();
        m.add("sec\u{202E}ret-key");
        let shown = key_text("sec\u{202E}ret-key");
        let out = m.scrubber().scrub(shown.as_bytes()).into_owned();
        assert_eq!(String::from_utf8(out).unwrap(), "\"(sensitive value)\"");
    }
}
