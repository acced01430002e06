//! A fast reading of native syntax (`.tf`) for locating: the structure only
//! (blocks, their labels and spans, attributes and the bytes of their values),
//! skipping over expressions by their brackets, strings, templates, heredocs
//! and comments, about ten times faster than a full parse. It never guesses:
//! whatever it does not model (an empty or unbalanced expression, a token out
//! of place, an escape it does not decode, a non-ASCII name) makes it give up
//! on the file, which is then parsed in full by hcl-edit ([`super::config::read_hcl`]),
//! whose answer (or error, with its line and column) stands. A test holds its
//! answers to hcl-edit's on every configuration of the test corpus.

use super::config::{squeeze, template_message, Condition, Declared, Message, Module, Span};

/// A block: its name, labels, bytes (name to closing brace), attributes and blocks.
struct Blk<'t> {
    ident: &'t str,
    labels: Vec<&'t str>,
    range: std::ops::Range<usize>,
    attrs: Vec<(&'t str, std::ops::Range<usize>)>,
    blocks: Vec<Blk<'t>>,
}

struct Scan<'t> {
    text: &'t str,
    b: &'t [u8],
    pos: usize,
}

/// Not modelled: the file is parsed in full instead.
type R<T> = Option<T>;

impl<'t> Scan<'t> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    fn at(&self, k: usize) -> Option<u8> {
        self.b.get(self.pos + k).copied()
    }

    /// Blanks on the line (spaces, tabs, `\r`) and `/* */` comments that end on it.
    fn inline(&mut self) -> R<()> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\r') => self.pos += 1,
                Some(b'/') if self.at(1) == Some(b'*') => {
                    let end = memchr::memmem::find(&self.b[self.pos + 2..], b"*/")?;
                    if self.b[self.pos..self.pos + 2 + end].contains(&b'\n') {
                        return None;
                    }
                    self.pos += end + 4;
                }
                _ => return Some(()),
            }
        }
    }

    /// A `#` or `//` comment (to the line's end, the newline left), if one starts here.
    fn line_comment(&mut self) -> bool {
        let starts = self.peek() == Some(b'#') || (self.peek() == Some(b'/') && self.at(1) == Some(b'/'));
        if starts {
            self.pos = memchr::memchr(b'\n', &self.b[self.pos..]).map_or(self.b.len(), |i| self.pos + i);
        }
        starts
    }

    /// Blanks, newlines and comments of every kind.
    fn space(&mut self) -> R<()> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\r' | b'\n') => self.pos += 1,
                Some(b'/') if self.at(1) == Some(b'*') => {
                    let end = memchr::memmem::find(&self.b[self.pos + 2..], b"*/")?;
                    self.pos += end + 4;
                }
                _ => {
                    if !self.line_comment() {
                        return Some(());
                    }
                }
            }
        }
    }

    /// The end of the line: a comment, then a newline or the end of the text.
    fn end_of_line(&mut self) -> R<()> {
        self.inline()?;
        self.line_comment();
        match self.peek() {
            None => Some(()),
            Some(b'\n') => {
                self.pos += 1;
                Some(())
            }
            _ => None,
        }
    }

    /// An identifier (ASCII letters, digits, `_`, `-`; starting with a letter or `_`).
    fn ident(&mut self) -> R<&'t str> {
        let start = self.pos;
        if !self.peek().is_some_and(|c| c.is_ascii_alphabetic() || c == b'_') {
            return None;
        }
        while self.peek().is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-') {
            self.pos += 1;
        }
        Some(&self.text[start..self.pos])
    }

    /// A quoted string (its templates skipped), from its opening quote.
    fn string(&mut self) -> R<()> {
        self.pos += 1;
        loop {
            match self.peek()? {
                b'\n' => return None,
                b'\\' => self.pos += 2,
                b'"' => {
                    self.pos += 1;
                    return Some(());
                }
                c @ (b'$' | b'%') if self.at(1) == Some(c) && self.at(2) == Some(b'{') => self.pos += 3,
                b'$' | b'%' if self.at(1) == Some(b'{') => {
                    self.pos += 2;
                    self.nested(b'}')?;
                }
                _ => self.pos += 1,
            }
        }
    }

    /// A heredoc from its `<<`: to the end of its closing marker's line (the newline left).
    fn heredoc(&mut self) -> R<()> {
        self.pos += 2;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        let marker = self.ident()?;
        if self.peek() == Some(b'\r') {
            self.pos += 1;
        }
        if self.peek() != Some(b'\n') {
            return None;
        }
        self.pos += 1;
        loop {
            let end = memchr::memchr(b'\n', &self.b[self.pos..]).map(|i| self.pos + i)?;
            let line = &self.text[self.pos..end];
            if line.trim() == marker {
                self.pos = end;
                return Some(());
            }
            self.pos = end + 1;
        }
    }

    /// Inside brackets, until `close` (newlines allowed), the closer passed.
    fn nested(&mut self, close: u8) -> R<()> {
        loop {
            self.space()?;
            match self.peek()? {
                c if c == close => {
                    self.pos += 1;
                    return Some(());
                }
                b')' | b']' | b'}' => return None,
                _ => self.token()?,
            }
        }
    }

    /// One piece of an expression (not a blank or a comment).
    fn token(&mut self) -> R<()> {
        match self.peek()? {
            b'"' => self.string(),
            b'<' if self.at(1) == Some(b'<') => self.heredoc(),
            b'(' => {
                self.pos += 1;
                self.nested(b')')
            }
            b'[' => {
                self.pos += 1;
                self.nested(b']')
            }
            b'{' => {
                self.pos += 1;
                self.nested(b'}')
            }
            _ => {
                self.pos += 1;
                Some(())
            }
        }
    }

    /// An attribute's value: to the end of its line (or a `}` closing a
    /// one-line block, when `in_line`); its bytes, trailing blanks left out.
    fn expression(&mut self, in_line: bool) -> R<std::ops::Range<usize>> {
        self.inline()?;
        let start = self.pos;
        let mut end = start;
        loop {
            match self.peek() {
                None | Some(b'\n' | b'#') => break,
                Some(b'/') if matches!(self.at(1), Some(b'/' | b'*')) => break,
                Some(b' ' | b'\t' | b'\r') => self.pos += 1,
                Some(b'}') if in_line => break,
                Some(b')' | b']' | b'}') => return None,
                Some(_) => {
                    self.token()?;
                    end = self.pos;
                }
            }
        }
        (end > start).then_some(start..end)
    }

    /// A quoted label without escapes or templates, or a name.
    fn label(&mut self) -> R<&'t str> {
        if self.peek() == Some(b'"') {
            let start = self.pos + 1;
            let end = memchr::memchr(b'"', &self.b[start..]).map(|i| start + i)?;
            let inner = &self.text[start..end];
            if inner.contains(['\\', '\n', '$', '%']) {
                return None;
            }
            self.pos = end + 1;
            Some(inner)
        } else {
            self.ident()
        }
    }

    /// A body's items until its `}` (`closing`) or the end of the text.
    fn body(&mut self, closing: bool, attrs: &mut Vec<(&'t str, std::ops::Range<usize>)>, blocks: &mut Vec<Blk<'t>>) -> R<()> {
        loop {
            self.space()?;
            match self.peek() {
                None if closing => return None,
                None => return Some(()),
                Some(b'}') if closing => {
                    self.pos += 1;
                    return Some(());
                }
                _ => {}
            }
            let start = self.pos;
            let ident = self.ident()?;
            self.inline()?;
            if self.peek() == Some(b'=') {
                if self.at(1) == Some(b'=') {
                    return None;
                }
                self.pos += 1;
                let value = self.expression(false)?;
                attrs.push((ident, value));
                self.end_of_line()?;
                continue;
            }
            let mut labels = Vec::new();
            while self.peek() != Some(b'{') {
                labels.push(self.label()?);
                self.inline()?;
            }
            self.pos += 1;
            let mut blk = Blk { ident, labels, range: start..start, attrs: Vec::new(), blocks: Vec::new() };
            self.inline()?;
            let multi_line = matches!(self.peek(), None | Some(b'\n' | b'#')) || (self.peek() == Some(b'/') && self.at(1) == Some(b'/'));
            if multi_line {
                self.body(true, &mut blk.attrs, &mut blk.blocks)?;
            } else if self.peek() == Some(b'}') {
                self.pos += 1;
            } else {
                // A one-line block: at most one attribute.
                let name = self.ident()?;
                self.inline()?;
                if self.peek() != Some(b'=') || self.at(1) == Some(b'=') {
                    return None;
                }
                self.pos += 1;
                let value = self.expression(true)?;
                blk.attrs.push((name, value));
                self.inline()?;
                if self.peek() != Some(b'}') {
                    return None;
                }
                self.pos += 1;
            }
            blk.range = start..self.pos;
            blocks.push(blk);
            self.end_of_line()?;
        }
    }
}

/// The bytes of attribute `key`'s value in `b` (its first).
fn attr_of<'a>(text: &'a str, b: &Blk, key: &str) -> Option<&'a str> {
    b.attrs.iter().find(|(k, _)| *k == key).map(|(_, r)| &text[r.clone()])
}

/// A value that is one quoted string: its text between the quotes, and
/// whether it holds a template (`${`, `%{`); `Err` for escapes this reading
/// does not decode (`\u`, `$${`, `%%{`).
fn one_string(v: &str) -> Result<Option<(&str, bool)>, ()> {
    if !(v.len() >= 2 && v.starts_with('"') && v.ends_with('"')) {
        return Ok(None);
    }
    let inner = &v[1..v.len() - 1];
    let mut s = Scan { text: v, b: v.as_bytes(), pos: 0 };
    if s.string().is_none() || s.pos != v.len() {
        return Ok(None);
    }
    if inner.contains("\\u") || inner.contains("\\U") || inner.contains("$${") || inner.contains("%%{") {
        return Err(());
    }
    Ok(Some((inner, inner.contains("${") || inner.contains("%{"))))
}

/// Read native syntax into `m` as [`super::config::read_hcl`] does; `None`
/// when the text holds what this reading does not model (then `m` is as it was).
pub(crate) fn read_fast(text: &str, file: u32, overriding: bool, m: &mut Module) -> R<()> {
    let mut s = Scan { text, b: text.as_bytes(), pos: 0 };
    let (mut attrs, mut blocks) = (Vec::new(), Vec::new());
    s.body(false, &mut attrs, &mut blocks)?;
    let lines = super::config::Lines::new(text);
    let span_of = |b: &Blk| lines.span(file, b.range.clone());
    let attr = |b: &Blk, key: &str| attr_of(text, b, key);
    let message_of = |b: &Blk| -> R<Message> {
        Some(match attr(b, "error_message").map(one_string) {
            Some(Err(())) => return None,
            Some(Ok(Some((inner, false)))) => template_message(inner),
            Some(Ok(Some((inner, true)))) => template_message(inner),
            _ => Message::Unknown,
        })
    };
    let conditions = |b: &Blk, kinds: &[&str]| -> R<Vec<Condition>> {
        let mut out = Vec::new();
        for c in &b.blocks {
            if c.ident == "lifecycle" {
                for c in c.blocks.iter().filter(|c| kinds.contains(&c.ident)) {
                    out.push(Condition { span: span_of(c), message: message_of(c)? });
                }
            } else if kinds.contains(&c.ident) {
                out.push(Condition { span: span_of(c), message: message_of(c)? });
            }
        }
        Some(out)
    };
    let mut out = Module::default();
    for b in &blocks {
        let span: Span = span_of(b);
        let (key, conds, source) = match (b.ident, b.labels.as_slice()) {
            ("resource", [t, n]) => (format!("{t}.{n}"), conditions(b, &["precondition", "postcondition"])?, None),
            ("data", [t, n]) => (format!("data.{t}.{n}"), conditions(b, &["precondition", "postcondition"])?, None),
            ("module", [n]) => {
                let source = match attr(b, "source").map(one_string) {
                    Some(Err(())) => return None,
                    Some(Ok(Some((inner, false)))) if !inner.contains('\\') => Some(inner.to_string()),
                    Some(Ok(Some((_, false)))) => return None,
                    _ => None,
                };
                (format!("module.{n}"), Vec::new(), Some(source))
            }
            ("output", [n]) => (format!("output.{n}"), conditions(b, &["precondition"])?, None),
            ("variable", [n]) => (format!("var.{n}"), conditions(b, &["validation"])?, None),
            ("check", [n]) => (format!("check.{n}"), conditions(b, &["assert"])?, None),
            ("moved", []) if !overriding => {
                if let (Some(from), Some(to)) = (attr(b, "from"), attr(b, "to")) {
                    out.moved.push((squeeze(from), squeeze(to), span));
                }
                continue;
            }
            ("removed", []) if !overriding => {
                if let Some(from) = attr(b, "from") {
                    out.removed.push((squeeze(from), span));
                }
                continue;
            }
            ("import", []) if !overriding => {
                if let Some(to) = attr(b, "to") {
                    out.imports.push((squeeze(to), span));
                }
                continue;
            }
            ("locals", []) => {
                for (k, r) in &b.attrs {
                    out.locals.push((k.to_string(), super::locals::of_text(&text[r.clone()])?));
                }
                continue;
            }
            _ => continue,
        };
        out.declare(key, Declared { span, conditions: conds }, source, overriding);
    }
    *m = out;
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::locate::config::read_hcl;

    /// The fast reading of `text` (None: it gave up) and the full one.
    fn both(text: &str) -> (Option<Module>, Result<Module, String>) {
        let mut fast = Module::default();
        let fast = read_fast(text, 3, false, &mut fast).map(|()| fast);
        let mut full = Module::default();
        let full = read_hcl(text, 3, false, &mut full).map(|()| full).map_err(|e| format!("{e:?}"));
        (fast, full)
    }

    fn same(a: &Module, b: &Module) -> bool {
        a.objects == b.objects
            && a.moved == b.moved
            && a.removed == b.removed
            && a.imports == b.imports
            && a.calls == b.calls
            && a.locals == b.locals
    }

    /// Read fast, and the same as hcl-edit reads it.
    fn agrees(text: &str) -> Module {
        let (fast, full) = both(text);
        let fast = fast.unwrap_or_else(|| panic!("the fast reading gave up on:\n{text}"));
        let full = full.unwrap();
        assert!(same(&fast, &full), "{text}\nfast: {fast:?}\nfull: {full:?}");
        fast
    }

    #[test]
    fn what_it_reads_it_reads_as_hcl_edit_does() {
        agrees("# c\nresource \"t\" \"a\" {\n  count = 2\n\n  lifecycle {\n    precondition {\n      condition = true\n      error_message = \"lit\"\n    }\n  }\n}\n\nmodule \"m\" {\n  source = \"./m\"\n}\nmoved {\n  from = t.b\n  to   = module.m[ \"k\" ].t.b # why\n}\noutput \"o\" { value = 1 }\n");
        agrees(
            "variable \"v\" {\r\n  validation {\r\n    condition = true\r\n    error_message = \"bad ${var.v} } { \\\" x\"\r\n  }\r\n}\r\n",
        );
        agrees("resource \"t\" \"h\" {\n  input = <<-EOT\n    { not a brace }\n    }\n  EOT\n  other = jsonencode({\n    a = [for x in [1, 2] : x if x > 1]\n    b = { for k, v in {} : k => v }\n  })\n  /* a } comment\n  over lines { */\n  x = \"$${literal} %%{ nope } // not a comment\" // a comment {\n  y = 4 / 2 # }\n}\n");
        agrees("check \"c\" {\n  assert {\n    condition = true\n    error_message = <<EOT\nheredoc\nEOT\n  }\n}\nimport {\n  to = t.i\n  id = \"x\"\n}\nremoved {\n  from = module.gone\n  lifecycle { destroy = false }\n}\ndata \"t\" \"d\" {}\nlocals { a = 1 }\n");
        agrees("output \"o\" {\n  value = \"%{ if true }a%{ else }b%{ endif }\"\n  precondition {\n    condition = true\n    error_message = \"pre: ${\"nested ${1}\"}!\"\n  }\n}\n");
    }

    #[test]
    fn what_it_does_not_model_is_left_to_the_full_parse() {
        for text in [
            "resource \"terraform_data\" \"a\" {\n  input = \n}\n", // an empty value: a parse error
            "resource \"t\" \"a\" {\n  input = (1\n}\n",            // unbalanced
            "resource \"t\" \"a\" {\n  input = \"x\n}\n",           // an unterminated string
            "resource \"t\" \"a\" {\n",                             // no closing brace
            "resource \"t\" \"a\" {\n  a = 1 }\n",                  // a brace after a value
            "resource \"t\" \"\\u0061\" {\n}\n",                    // an escape in a label
            "resource \"t\" \"a\" {\n  x = [1]]\n}\n",              // a stray closer
            "résource \"t\" \"a\" {\n}\n",                          // a name that is not ASCII
            "module \"m\" {\n  source = \"./\\u0061\"\n}\n",        // an escape it does not decode
        ] {
            assert!(both(text).0.is_none(), "{text}");
        }
    }

    #[test]
    fn every_native_file_of_the_test_corpus_is_read_as_hcl_edit_reads_it() {
        let mut stack = vec![std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata")];
        let (mut files, mut fast_ones) = (0, 0);
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "tf") {
                    let text = crate::locate::text_of(&std::fs::read(&p).unwrap());
                    let (fast, full) = both(&text);
                    files += 1;
                    if let Some(fast) = fast {
                        fast_ones += 1;
                        let full = full.unwrap_or_else(|e| panic!("{}: read fast, but hcl-edit refuses it: {e}", p.display()));
                        assert!(same(&fast, &full), "{}\nfast: {fast:?}\nfull: {full:?}", p.display());
                    }
                }
            }
        }
        assert!(files > 50, "{files} .tf files");
        // The fast reading is the one used: it gives up on hardly any real file.
        assert!(fast_ones * 10 >= files * 9, "{fast_ones} of {files} read fast");
    }

    #[test]
    fn the_benchmark_root_is_read_fast() {
        let mut text = String::new();
        for b in 0..20 {
            text.push_str(&format!("# block {b}\nresource \"terraform_data\" \"r{b}\" {{\n  count = 2\n  input = {{ file = 1, block = \"{b}\" }}\n\n  lifecycle {{\n    precondition {{\n      condition     = true\n      error_message = \"never\"\n    }}\n  }}\n}}\n\n"));
        }
        let m = agrees(&text);
        assert_eq!(m.objects.len(), 20);
    }
}
