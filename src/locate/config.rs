//! One module's configuration as far as locating goes: the blocks that declare
//! objects (resources, data sources, module calls, outputs, checks,
//! variables), their condition blocks, and the `moved`/`removed`/`import`
//! blocks, each with its file and lines; read from native syntax (`.tf`, with
//! hcl-edit, which keeps spans) or JSON syntax (`.tf.json`).

use super::json::{self, Node, Val};
use std::collections::HashMap;

/// Where a block is: the index of its file and its first and last line (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) file: u32,
    pub(crate) line: u32,
    pub(crate) end_line: u32,
}

/// What a condition's `error_message` lets one recognise of its failure message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Message {
    /// A literal string: the message is exactly this.
    Exact(String),
    /// A template: the message starts with this literal text (non-empty).
    Prefix(String),
    Unknown,
}

impl Message {
    /// Whether `text` (a failure message, or words quoting it) holds a message of this condition.
    pub(crate) fn matches(&self, text: &str) -> bool {
        match self {
            Message::Exact(m) | Message::Prefix(m) => !m.is_empty() && text.contains(m.as_str()),
            Message::Unknown => false,
        }
    }
}

/// A `precondition`, `postcondition`, `validation` or `assert` block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Condition {
    pub(crate) span: Span,
    pub(crate) message: Message,
}

/// A block that declares an object, with its condition blocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Declared {
    pub(crate) span: Span,
    pub(crate) conditions: Vec<Condition>,
}

/// One module directory's configuration.
#[derive(Debug, Default)]
pub(crate) struct Module {
    /// By key: `TYPE.NAME` (managed resource), `data.TYPE.NAME`, `module.NAME`,
    /// `output.NAME`, `check.NAME`, `var.NAME`.
    pub(crate) objects: HashMap<String, Declared>,
    /// `moved` blocks: from, to (as written, blanks removed), where.
    pub(crate) moved: Vec<(String, String, Span)>,
    /// `removed` blocks: from, where.
    pub(crate) removed: Vec<(String, Span)>,
    /// `import` blocks: to, where.
    pub(crate) imports: Vec<(String, Span)>,
    /// Module calls in order: name, `source` when a literal string.
    pub(crate) calls: Vec<(String, Option<String>)>,
    /// `locals`: each name and the references of its expression ([`super::locals`]).
    pub(crate) locals: Vec<(String, Vec<String>)>,
}

impl Module {
    /// Add an object's block. An override file (`override`) never moves a
    /// declaration: its blocks merge into the primary file's, which stays
    /// where the object is declared.
    pub(crate) fn declare(&mut self, key: String, d: Declared, source: Option<Option<String>>, overriding: bool) {
        if self.objects.contains_key(&key) || overriding {
            return;
        }
        if let (Some(name), Some(src)) = (key.strip_prefix("module."), source) {
            self.calls.push((name.to_string(), src));
        }
        self.objects.insert(key, d);
    }
}

/// A parse error: line, column (1-based) and message.
pub(crate) type ParseError = (u32, u32, String);

/// Line numbers of byte offsets in one text.
pub(crate) struct Lines(Vec<usize>);

impl Lines {
    pub(crate) fn new(text: &str) -> Lines {
        Lines(std::iter::once(0).chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1)).collect())
    }

    /// The 1-based line of byte `offset`.
    fn of(&self, offset: usize) -> u32 {
        u32::try_from(self.0.partition_point(|&start| start <= offset)).unwrap_or(u32::MAX)
    }

    /// The span of `range` (its last byte's line ends it).
    pub(crate) fn span(&self, file: u32, range: std::ops::Range<usize>) -> Span {
        Span { file, line: self.of(range.start), end_line: self.of(range.end.saturating_sub(1).max(range.start)) }
    }
}

/// `text` without blanks outside string literals (`module.a[ "k" ]` -> `module.a["k"]`).
pub(crate) fn squeeze(text: &str) -> String {
    crate::model::text::squeeze(text, char::is_whitespace)
}

/// What a template's text (between its quotes) lets one recognise: all of it
/// when it has no `${`/`%{`, else the literal text before the first one.
pub(crate) fn template_message(raw: &str) -> Message {
    let mut out = String::new();
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '$' | '%' if chars.peek() == Some(&'{') => {
                return if out.is_empty() { Message::Unknown } else { Message::Prefix(out) };
            }
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some(other) => out.push(other),
                None => {}
            },
            c => out.push(c),
        }
    }
    Message::Exact(out)
}

/// Read native syntax into `m`; `file` is the file's index.
pub(crate) fn read_hcl(text: &str, file: u32, overriding: bool, m: &mut Module) -> Result<(), ParseError> {
    use hcl_edit::expr::Expression;
    use hcl_edit::structure::{Block, Body};
    use hcl_edit::Span as _;
    let body = hcl_edit::parser::parse_body(text).map_err(|e| {
        let at = e.location();
        (u32::try_from(at.line()).unwrap_or(u32::MAX), u32::try_from(at.column()).unwrap_or(u32::MAX), e.message().to_string())
    })?;
    let lines = Lines::new(text);
    let span_of = |b: &dyn hcl_edit::Span| b.span().map(|r| lines.span(file, r));
    let attr_text = |body: &Body, key: &str| body.get_attribute(key).and_then(|a| a.value.span()).and_then(|r| text.get(r)).map(squeeze);
    let message_of = |b: &Block| match b.body.get_attribute("error_message").map(|a| &a.value) {
        Some(Expression::String(s)) => Message::Exact(s.value().to_string()),
        Some(e @ Expression::StringTemplate(_)) => e
            .span()
            .and_then(|r| text.get(r))
            .and_then(|t| t.strip_prefix('"').and_then(|t| t.strip_suffix('"')))
            .map_or(Message::Unknown, template_message),
        _ => Message::Unknown,
    };
    let conditions = |body: &Body, kinds: &[&str]| -> Vec<Condition> {
        let mut out = Vec::new();
        for b in body.blocks() {
            let ident = b.ident.as_str();
            if ident == "lifecycle" {
                for c in b.body.blocks().filter(|c| kinds.contains(&c.ident.as_str())) {
                    out.extend(span_of(c).map(|span| Condition { span, message: message_of(c) }));
                }
            } else if kinds.contains(&ident) {
                out.extend(span_of(b).map(|span| Condition { span, message: message_of(b) }));
            }
        }
        out
    };
    for b in body.blocks() {
        let Some(span) = span_of(b) else { continue };
        let labels: Vec<&str> = b.labels.iter().map(|l| l.as_str()).collect();
        let (key, conds, source) = match (b.ident.as_str(), labels.as_slice()) {
            ("resource", [t, n]) => (format!("{t}.{n}"), conditions(&b.body, &["precondition", "postcondition"]), None),
            ("data", [t, n]) => (format!("data.{t}.{n}"), conditions(&b.body, &["precondition", "postcondition"]), None),
            ("module", [n]) => {
                let source = match b.body.get_attribute("source").map(|a| &a.value) {
                    Some(Expression::String(s)) => Some(s.value().to_string()),
                    _ => None,
                };
                (format!("module.{n}"), Vec::new(), Some(source))
            }
            ("output", [n]) => (format!("output.{n}"), conditions(&b.body, &["precondition"]), None),
            ("variable", [n]) => (format!("var.{n}"), conditions(&b.body, &["validation"]), None),
            ("check", [n]) => (format!("check.{n}"), conditions(&b.body, &["assert"]), None),
            ("moved", []) if !overriding => {
                if let (Some(from), Some(to)) = (attr_text(&b.body, "from"), attr_text(&b.body, "to")) {
                    m.moved.push((from, to, span));
                }
                continue;
            }
            ("removed", []) if !overriding => {
                if let Some(from) = attr_text(&b.body, "from") {
                    m.removed.push((from, span));
                }
                continue;
            }
            ("import", []) if !overriding => {
                if let Some(to) = attr_text(&b.body, "to") {
                    m.imports.push((to, span));
                }
                continue;
            }
            ("locals", []) => {
                m.locals.extend(b.body.attributes().map(|a| (a.key.as_str().to_string(), super::locals::of_expr(&a.value))));
                continue;
            }
            _ => continue,
        };
        m.declare(key, Declared { span, conditions: conds }, source, overriding);
    }
    Ok(())
}

/// Read JSON syntax into `m`: each block is located at the line of the
/// property key that declares it (its last label), to the end of its body.
pub(crate) fn read_json(text: &str, file: u32, overriding: bool, m: &mut Module) -> Result<(), ParseError> {
    let root = json::parse(text)?;
    let Val::Obj(props) = &root.val else { return Err((root.line, 1, "the root of a .tf.json file must be an object".into())) };
    for (kind, kind_line, node) in props {
        let labels = match kind.as_str() {
            "resource" | "data" => 2,
            "module" | "output" | "variable" | "check" => 1,
            "moved" | "removed" | "import" => 0,
            "locals" => {
                // One body, or a list of bodies; a local whose templates do not parse is left out.
                let bodies = match &node.val {
                    Val::Arr(items) => items.iter().collect(),
                    _ => vec![node],
                };
                for body in bodies {
                    if let Val::Obj(props) = &body.val {
                        m.locals.extend(props.iter().filter_map(|(k, _, v)| Some((k.clone(), super::locals::of_json(v)?))));
                    }
                }
                continue;
            }
            _ => continue,
        };
        let mut found = Vec::new();
        labelled(node, *kind_line, labels, &mut Vec::new(), &mut found);
        for (names, line, body) in found {
            let span = Span { file, line, end_line: body.end_line.max(line) };
            let key = match (kind.as_str(), names.as_slice()) {
                ("resource", [t, n]) => format!("{t}.{n}"),
                ("data", [t, n]) => format!("data.{t}.{n}"),
                ("module", [n]) => format!("module.{n}"),
                ("output", [n]) => format!("output.{n}"),
                ("variable", [n]) => format!("var.{n}"),
                ("check", [n]) => format!("check.{n}"),
                ("moved", []) if !overriding => {
                    let get = |k| body.get(k).and_then(|(_, n)| n.as_str()).map(squeeze);
                    if let (Some(from), Some(to)) = (get("from"), get("to")) {
                        m.moved.push((from, to, span));
                    }
                    continue;
                }
                ("removed", []) if !overriding => {
                    if let Some(from) = body.get("from").and_then(|(_, n)| n.as_str()) {
                        m.removed.push((squeeze(from), span));
                    }
                    continue;
                }
                ("import", []) if !overriding => {
                    if let Some(to) = body.get("to").and_then(|(_, n)| n.as_str()) {
                        m.imports.push((squeeze(to), span));
                    }
                    continue;
                }
                _ => continue,
            };
            let kinds: &[&str] = match kind.as_str() {
                "resource" | "data" => &["precondition", "postcondition"],
                "output" => &["precondition"],
                "variable" => &["validation"],
                "check" => &["assert"],
                _ => &[],
            };
            let mut conds = Vec::new();
            json_conditions(body, kinds, file, &mut conds);
            let source = (kind == "module").then(|| body.get("source").and_then(|(_, n)| n.as_str()).map(str::to_string));
            m.declare(key, Declared { span, conditions: conds }, source, overriding);
        }
    }
    Ok(())
}

/// The blocks under a block-type property: `depth` more levels of labels
/// (each an object keyed by label, or an array of such objects), then one
/// body (an object, or an array of objects: one block each). Each block with
/// its labels and the line that declares it.
fn labelled<'n>(node: &'n Node, line: u32, depth: usize, names: &mut Vec<String>, out: &mut Vec<(Vec<String>, u32, &'n Node)>) {
    match (&node.val, depth) {
        (Val::Arr(items), _) => {
            for item in items {
                // The body of a labelled block is declared by its last label's
                // key; an element of an array of unlabelled blocks (`moved`,
                // `precondition`) declares itself where it starts.
                let at = if depth == 0 && !names.is_empty() { line } else { item.line };
                labelled(item, at, depth, names, out);
            }
        }
        (Val::Obj(_), 0) => out.push((names.clone(), line, node)),
        (Val::Obj(props), _) => {
            for (k, l, v) in props {
                if k == "//" {
                    continue;
                }
                names.push(k.clone());
                labelled(v, *l, depth - 1, names, out);
                names.pop();
            }
        }
        _ => {}
    }
}

fn json_conditions(body: &Node, kinds: &[&str], file: u32, out: &mut Vec<Condition>) {
    let Val::Obj(props) = &body.val else { return };
    for (k, l, v) in props {
        if k == "lifecycle" {
            let mut lifecycle = Vec::new();
            labelled(v, *l, 0, &mut Vec::new(), &mut lifecycle);
            for (_, _, lc) in lifecycle {
                json_conditions(lc, kinds, file, out);
            }
        } else if kinds.contains(&k.as_str()) {
            let mut blocks = Vec::new();
            labelled(v, *l, 0, &mut Vec::new(), &mut blocks);
            for (_, line, b) in blocks {
                let message = match b.get("error_message").and_then(|(_, n)| n.as_str()) {
                    Some(s) => template_message(&s.replace('\\', "\\\\")),
                    None => Message::Unknown,
                };
                out.push(Condition { span: Span { file, line, end_line: b.end_line.max(line) }, message });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hcl(text: &str) -> Module {
        let mut m = Module::default();
        read_hcl(text, 0, false, &mut m).unwrap();
        m
    }

    #[test]
    fn native_blocks_are_located_from_their_first_to_their_last_line() {
        let m = hcl(
            "# c\nresource \"t\" \"a\" {\n  count = 2\n\n  lifecycle {\n    precondition {\n      condition = true\n      error_message = \"lit\"\n    }\n  }\n}\n\nmodule \"m\" {\n  source = \"./m\"\n}\nmoved {\n  from = t.b\n  to   = module.m[ \"k\" ].t.b\n}\noutput \"o\" { value = 1 }\n",
        );
        assert_eq!(m.objects["t.a"].span, Span { file: 0, line: 2, end_line: 11 });
        assert_eq!(
            m.objects["t.a"].conditions,
            vec![Condition { span: Span { file: 0, line: 6, end_line: 9 }, message: Message::Exact("lit".into()) }]
        );
        assert_eq!(m.objects["module.m"].span.line, 13);
        assert_eq!(m.calls, vec![("m".to_string(), Some("./m".to_string()))]);
        assert_eq!(m.moved, vec![("t.b".into(), "module.m[\"k\"].t.b".into(), Span { file: 0, line: 16, end_line: 19 })]);
        assert_eq!(m.objects["output.o"].span, Span { file: 0, line: 20, end_line: 20 });
    }

    #[test]
    fn crlf_and_templates() {
        let m = hcl("variable \"v\" {\r\n  validation {\r\n    condition = true\r\n    error_message = \"bad ${var.v}\"\r\n  }\r\n}\r\n");
        let v = &m.objects["var.v"];
        assert_eq!((v.span.line, v.span.end_line), (1, 6));
        assert_eq!(v.conditions[0].message, Message::Prefix("bad ".into()));
        assert!(v.conditions[0].message.matches("bad value"));
    }

    #[test]
    fn override_files_never_move_a_declaration() {
        let mut m = hcl("resource \"t\" \"a\" {\n}\n");
        read_hcl("\n\nresource \"t\" \"a\" {\n  x = 1\n}\nresource \"t\" \"only_here\" {}\n", 1, true, &mut m).unwrap();
        assert_eq!(m.objects["t.a"].span, Span { file: 0, line: 1, end_line: 2 });
        assert!(!m.objects.contains_key("t.only_here"));
    }

    #[test]
    fn parse_errors_name_line_and_column() {
        let mut m = Module::default();
        let (line, col, _) = read_hcl("resource \"t\" \"a\" {\n  x = \n}\n", 0, false, &mut m).unwrap_err();
        assert_eq!(line, 2, "the line of the attribute missing its value");
        assert!(col >= 1);
    }

    #[test]
    fn json_blocks_are_located_at_the_key_that_declares_them() {
        let text = r#"{
  "resource": {
    "t": {
      "a": {
        "lifecycle": {"postcondition": [{"condition": "${true}", "error_message": "x ${y}"}]}
      },
      "b": [
        {"count": 1}
      ]
    }
  },
  "module": {"m": {"source": "./m"}},
  "moved": [
    {"from": "t.old", "to": "t.a"}
  ],
  "removed": {"from": "module.gone", "lifecycle": {"destroy": false}},
  "variable": {"v": {"validation": {"condition": "${true}", "error_message": "plain"}}}
}"#;
        let mut m = Module::default();
        read_json(text, 3, false, &mut m).unwrap();
        assert_eq!(m.objects["t.a"].span, Span { file: 3, line: 4, end_line: 6 });
        assert_eq!(m.objects["t.a"].conditions[0].span.line, 5);
        assert_eq!(m.objects["t.a"].conditions[0].message, Message::Prefix("x ".into()));
        assert_eq!(m.objects["t.b"].span, Span { file: 3, line: 7, end_line: 8 }, "from its key to the end of its body");
        assert_eq!(m.calls, vec![("m".to_string(), Some("./m".to_string()))]);
        assert_eq!(m.moved[0].2.line, 14);
        assert_eq!(m.removed, vec![("module.gone".to_string(), Span { file: 3, line: 16, end_line: 16 })]);
        assert_eq!(m.objects["var.v"].conditions[0].message, Message::Exact("plain".into()));
    }

    #[test]
    fn squeeze_keeps_blanks_in_strings() {
        assert_eq!(squeeze(" module.a[ \"k l\" ] .t.b\n"), "module.a[\"k l\"].t.b");
    }
}
