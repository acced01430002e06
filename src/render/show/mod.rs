//! Renders `show` reports: terminal text, markdown (diff blocks for PR
//! comments, within a size cap) and JSON.

mod html;
mod json;
mod markdown;
mod text;

pub(crate) use html::{html_items, html_page, PageVerdict};
pub(crate) use json::json_items;
pub(crate) use markdown::markdown_items;
pub(crate) use text::table_items;

use super::{action_tone, md_cell, md_code, write_json, JsonInputError, Style, Tone};
use crate::error::InputError;
use crate::model::ChangeKind;
use crate::query::diff::{
    is_ident, path_text, BlockEntry, BlockNode, Brackets, Entry, FlatChange, Key, Kind, LineItem, Node, Op, SensitivityChange,
    SensitivityNote,
};
use crate::query::show::actions::{InvocationDiff, Trigger};
use crate::query::show::{OutputDiff, ResourceDiff, ShowReport, TERRAFORM_DATA};
use crate::query::values::Shown;
use crate::sanitize::line as clean;
use crate::secrets::Masker;
use serde::Serialize;
use serde_json::value::RawValue;
use std::cell::RefCell;
use std::io::{self, Write};

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
                Brackets::Object | Brackets::Map => ("{", "}"),
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
                    object_entries(out, &keyed(entries), *hidden, *width, depth + 1, false);
                }
                Brackets::Map => map_entries(out, n.op, entries, *hidden, *width, depth + 1),
                Brackets::List => {
                    list_entries(out, entries, *context, depth + 1);
                    if *hidden > 0 {
                        out.push(Line::comment(depth + 1, hidden_line(*hidden, "element")));
                    }
                }
            }
            out.push(Line::new(None, depth, format!("{close}{tail}{to_null}{trail}")));
        }
        Kind::Swap(before, after) => {
            // The before as removed, ` -> `, the after as added, on the line
            // where one ends and the other starts; the first line takes the
            // change's own symbol.
            let mut lines = Vec::new();
            node_lines(&mut lines, key, before, depth, "", false);
            let mut rest = Vec::new();
            node_lines(&mut rest, None, after, depth, trail, false);
            if let Some(first) = lines.first_mut() {
                first.op = op;
                first.note = note;
            }
            let mut rest = rest.into_iter();
            if let (Some(last), Some(next)) = (lines.last_mut(), rest.next()) {
                last.text.push_str(" -> ");
                last.text.push_str(&next.text);
            }
            out.extend(lines);
            out.extend(rest);
        }
        Kind::WriteOnly { sensitive } => {
            let what = if *sensitive { "(sensitive, write-only attribute)" } else { "(write-only attribute)" };
            let mut l = Line::new(op, depth, format!("{lead}{what}{to_null}{trail}"));
            l.note = note;
            out.push(l);
        }
        Kind::Block(b) => {
            // Only a resource's root is a block outside a block's entries.
            let mut l = Line::new(op, depth, format!("{lead}{{"));
            l.note = note;
            out.push(l);
            block_lines(out, b, depth + 1, true);
            out.push(Line::new(None, depth, format!("}}{trail}")));
        }
        Kind::Lines(items) => {
            let mut l = Line::new(op, depth, format!("{lead}<<-EOT"));
            l.note = note;
            out.push(l);
            for it in items {
                match it {
                    LineItem::Line(lop, text) => out.push(Line::new(Some(*lop), depth + 1, clean(text).into_owned())),
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

/// A map's elements, by its type: every key quoted, a removed element
/// `-> null` unless the map itself goes, an object element followed by a
/// comma (the CLI's map renderer).
fn map_entries(out: &mut Vec<Line>, op: Op, entries: &[Entry], hidden: usize, width: usize, depth: usize) {
    let keys: Vec<String> = entries
        .iter()
        .map(|e| match &e.key {
            Key::Attr(a) => clean(&super::json_string(a)).into_owned(),
            Key::Index(i) => format!("[{i}]"),
        })
        .collect();
    let width = keys.iter().map(|k| k.chars().count()).max().unwrap_or(0).max(width);
    for (k, e) in keys.iter().zip(entries) {
        let object = matches!(e.node.kind, Kind::Collection { brackets: Brackets::Object, .. });
        node_lines(out, Some(&format!("{k:<width$}")), &e.node, depth, if object { "," } else { "" }, op != Op::Remove);
    }
    if hidden > 0 {
        out.push(Line::comment(depth, hidden_line(hidden, "element")));
    }
}

/// A block's lines (the CLI's block renderer): its attributes, the unchanged
/// ones counted; then each nested block shown, a blank line before each
/// type's first; then the unchanged blocks counted. `null_suffix`: see
/// [`object_entries`] (off inside a block that becomes unknown: the CLI's
/// `OverrideNullSuffix`).
fn block_lines(out: &mut Vec<Line>, b: &BlockNode, depth: usize, null_suffix: bool) {
    object_entries(out, &keyed(&b.attributes), b.hidden_attributes, b.width, depth, null_suffix);
    let has_attributes = !b.attributes.is_empty() || b.hidden_attributes > 0;
    let mut previous: Option<&str> = None;
    for e in &b.blocks {
        if has_attributes && previous != Some(e.name.as_str()) {
            out.push(Line::comment(depth, String::new()));
        }
        previous = Some(e.name.as_str());
        block_entry_lines(out, e, depth, null_suffix);
    }
    if b.hidden_blocks > 0 {
        out.push(Line::comment(depth, String::new()));
        out.push(Line::comment(depth, hidden_line(b.hidden_blocks, "block")));
    }
}

/// One nested block: `name {` ... `}`, `name "key" {` for a map block's,
/// `name (known after apply)`, or a sensitive block's two comment lines.
fn block_entry_lines(out: &mut Vec<Line>, e: &BlockEntry, depth: usize, null_suffix: bool) {
    // The CLI's warning above a nested block whose sensitivity changes, word for word.
    let warning = match e.node.sensitivity.map(|s| s.change) {
        Some(SensitivityChange::Marked) => {
            ["# Warning: this block will be marked as sensitive and will not", "# display in UI output after applying this change."]
        }
        Some(SensitivityChange::Unmarked) => {
            ["# Warning: this block will no longer be marked as sensitive", "# after applying this change."]
        }
        None => ["", ""],
    };
    if e.node.sensitivity.is_some() {
        for w in warning {
            out.push(Line { warning: true, ..Line::comment(depth, w.to_string()) });
        }
    }
    let mut name = key_text(&e.name);
    if let Some(k) = &e.map_key {
        name.push(' ');
        name.push_str(&clean(&super::json_string(k)));
    }
    let n = &e.node;
    let note = n.forces_replacement.then_some("# forces replacement");
    let open = |out: &mut Vec<Line>, text: String| {
        let mut l = Line::new(Some(n.op), depth, text);
        l.note = note;
        out.push(l);
    };
    match &n.kind {
        Kind::Block(b) if b.attributes.is_empty() && b.hidden_attributes == 0 && b.blocks.is_empty() && b.hidden_blocks == 0 => {
            open(out, format!("{name} {{}}"));
        }
        Kind::Block(b) => {
            open(out, format!("{name} {{"));
            block_lines(out, b, depth + 1, null_suffix);
            out.push(Line::new(None, depth, "}".into()));
        }
        Kind::Leaf { before, after } if matches!(before, Some(Shown::Sensitive)) || matches!(after, Some(Shown::Sensitive)) => {
            open(out, format!("{name} {{"));
            for w in ["# At least one attribute in this block is (or was) sensitive,", "# so its contents will not be displayed."] {
                out.push(Line { warning: true, ..Line::comment(depth + 1, w.to_string()) });
            }
            out.push(Line::new(None, depth, "}".into()));
        }
        Kind::ToUnknown(inner) => {
            let mut sub = Vec::new();
            block_entry_lines(&mut sub, &BlockEntry { node: Node { op: n.op, ..(**inner).clone() }, ..e.clone() }, depth, false);
            if let Some(last) = sub.last_mut() {
                last.text.push_str(" -> (known after apply)");
            }
            out.extend(sub);
        }
        _ => open(out, format!("{name} (known after apply)")),
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

/// An object's entries with their keys as the CLI writes them (`name`, `"odd key"`, `[0]`).
fn keyed(entries: &[crate::query::diff::Entry]) -> Vec<(String, &Node)> {
    entries
        .iter()
        .map(|e| {
            let k = match &e.key {
                Key::Attr(a) => key_text(a),
                Key::Index(i) => format!("[{i}]"),
            };
            (k, &e.node)
        })
        .collect()
}

/// The attribute lines of a resource's root node.
fn body_lines(root: &Node) -> Vec<Line> {
    let mut out = Vec::new();
    match &root.kind {
        Kind::Collection { brackets: Brackets::Object, entries, hidden, width, .. } => {
            object_entries(&mut out, &keyed(entries), *hidden, *width, 0, true);
        }
        Kind::Block(b) => block_lines(&mut out, b, 0, true),
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
/// streamed report ([`crate::run::show`]) builds each one from its
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
    /// The configuration it was made from, when read: JSON gives each change its block.
    pub locations: Option<&'a crate::locate::SourceMap>,
}

impl<'a> Item<'a> {
    /// An input read whole: its resources are the report's own (the tests'
    /// oracle, `run_show_whole`).
    #[cfg(any(test, feature = "testkit"))]
    pub(crate) fn whole(item: &'a crate::outcome::PerFile<ShowReport>) -> Item<'a> {
        let resources: &'a [ResourceDiff] = match &item.result {
            Ok(r) => &r.resources,
            Err(_) => &[],
        };
        Item { result: item.result.as_ref(), resources: RefCell::new(Box::new(resources)), masker: &item.masker, locations: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let mut m = crate::secrets::Masker::default();
        m.add("sec\u{202E}ret-key");
        let shown = key_text("sec\u{202E}ret-key");
        let out = m.scrubber().scrub(shown.as_bytes()).into_owned();
        assert_eq!(String::from_utf8(out).unwrap(), "\"(sensitive value)\"");
    }
}
