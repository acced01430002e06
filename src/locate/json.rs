//! A JSON reader that keeps the line of every object key and the lines each
//! value spans (serde_json keeps none): what `.tf.json` files are located with.

/// A JSON value with the lines (1-based) it starts and ends on.
#[derive(Debug)]
pub(crate) struct Node {
    pub(crate) val: Val,
    pub(crate) line: u32,
    pub(crate) end_line: u32,
}

#[derive(Debug)]
pub(crate) enum Val {
    /// Properties in order, each with the line of its key.
    Obj(Vec<(String, u32, Node)>),
    Arr(Vec<Node>),
    Str(String),
    /// A number, `true`, `false` or `null`.
    Other,
}

impl Node {
    /// The first property named `key`.
    pub(crate) fn get(&self, key: &str) -> Option<(u32, &Node)> {
        match &self.val {
            Val::Obj(props) => props.iter().find(|(k, _, _)| k == key).map(|(_, l, n)| (*l, n)),
            _ => None,
        }
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match &self.val {
            Val::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// Nesting deeper than this is refused (a hostile file cannot exhaust the stack).
const MAX_DEPTH: usize = 256;

/// A parse error: line, column (1-based, in characters) and what was wrong.
pub(crate) type ParseError = (u32, u32, String);

/// Parse `text` (one JSON value, blanks around it).
pub(crate) fn parse(text: &str) -> Result<Node, ParseError> {
    let mut p = Parser { s: text.as_bytes(), text, i: 0, line: 1, line_start: 0 };
    p.blank();
    let node = p.value(0)?;
    p.blank();
    if p.i < p.s.len() {
        return Err(p.error("text after the JSON value"));
    }
    Ok(node)
}

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
    line: u32,
    line_start: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> ParseError {
        let col = self.text.get(self.line_start..self.i).map_or(1, |t| t.chars().count() + 1);
        (self.line, u32::try_from(col).unwrap_or(u32::MAX), what.to_string())
    }

    fn blank(&mut self) {
        while let Some(&b) = self.s.get(self.i) {
            match b {
                b'\n' => {
                    self.i += 1;
                    self.line += 1;
                    self.line_start = self.i;
                }
                b' ' | b'\t' | b'\r' => self.i += 1,
                _ => break,
            }
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, ParseError> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        let line = self.line;
        let val = match self.s.get(self.i) {
            Some(b'{') => {
                self.i += 1;
                let mut props = Vec::new();
                self.blank();
                if self.s.get(self.i) == Some(&b'}') {
                    self.i += 1;
                } else {
                    loop {
                        self.blank();
                        if self.s.get(self.i) != Some(&b'"') {
                            return Err(self.error("expected a string key"));
                        }
                        let key_line = self.line;
                        let key = self.string()?;
                        self.blank();
                        if self.s.get(self.i) != Some(&b':') {
                            return Err(self.error("expected `:`"));
                        }
                        self.i += 1;
                        self.blank();
                        let v = self.value(depth + 1)?;
                        props.push((key, key_line, v));
                        self.blank();
                        match self.s.get(self.i) {
                            Some(b',') => self.i += 1,
                            Some(b'}') => {
                                self.i += 1;
                                break;
                            }
                            _ => return Err(self.error("expected `,` or `}`")),
                        }
                    }
                }
                Val::Obj(props)
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.blank();
                if self.s.get(self.i) == Some(&b']') {
                    self.i += 1;
                } else {
                    loop {
                        self.blank();
                        items.push(self.value(depth + 1)?);
                        self.blank();
                        match self.s.get(self.i) {
                            Some(b',') => self.i += 1,
                            Some(b']') => {
                                self.i += 1;
                                break;
                            }
                            _ => return Err(self.error("expected `,` or `]`")),
                        }
                    }
                }
                Val::Arr(items)
            }
            Some(b'"') => Val::Str(self.string()?),
            Some(b't' | b'f' | b'n' | b'-' | b'0'..=b'9') => {
                let start = self.i;
                while self.s.get(self.i).is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.')) {
                    self.i += 1;
                }
                let word = &self.text[start..self.i];
                let number = word.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'));
                if !(matches!(word, "true" | "false" | "null") || number) {
                    self.i = start;
                    return Err(self.error("expected a JSON value"));
                }
                Val::Other
            }
            _ => return Err(self.error("expected a JSON value")),
        };
        Ok(Node { val, line, end_line: self.line })
    }

    /// A string at `"`, unescaped (invalid escapes are errors).
    fn string(&mut self) -> Result<String, ParseError> {
        self.i += 1;
        let mut out = String::new();
        loop {
            let start = self.i;
            while self.s.get(self.i).is_some_and(|&b| b != b'"' && b != b'\\' && b >= 0x20) {
                self.i += 1;
            }
            out.push_str(&self.text[start..self.i]);
            match self.s.get(self.i) {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    let c = match self.s.get(self.i + 1) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            let hex = self.text.get(self.i + 2..self.i + 6).and_then(|h| u32::from_str_radix(h, 16).ok());
                            let Some(hex) = hex else { return Err(self.error("invalid \\u escape")) };
                            self.i += 4;
                            char::from_u32(hex).unwrap_or('\u{FFFD}')
                        }
                        _ => return Err(self.error("invalid escape")),
                    };
                    out.push(c);
                    self.i += 2;
                }
                Some(_) => return Err(self.error("control character in a string")),
                None => return Err(self.error("unterminated string")),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_carry_their_lines_and_values_their_extent() {
        let text = "{\n  \"a\": {\n    \"b\": [1, true,\n null]\n  },\n  \"c\": \"x\\u0041\"\n}\n";
        let root = parse(text).unwrap();
        assert_eq!((root.line, root.end_line), (1, 7));
        let (line, a) = root.get("a").unwrap();
        assert_eq!((line, a.line, a.end_line), (2, 2, 5));
        let (line, b) = a.get("b").unwrap();
        assert_eq!((line, b.end_line), (3, 4));
        assert_eq!(root.get("c").unwrap().1.as_str(), Some("xA"));
    }

    #[test]
    fn bad_json_is_an_error_with_line_and_column() {
        assert_eq!(parse("{\n  \"a\": tru\n}").unwrap_err().0, 2);
        let (l, c, _) = parse("{\"a\" 1}").unwrap_err();
        assert_eq!((l, c), (1, 6));
        assert!(parse("[1] 2").is_err());
        assert!(parse("\"abc").is_err());
        let deep = "[".repeat(10_000);
        assert!(parse(&deep).unwrap_err().2.contains("deeply"));
    }
}
