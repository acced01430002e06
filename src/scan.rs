//! One pass over JSON text, before it is parsed: where the document starts
//! (past a wrapper's text with `--lenient`), where it ends, and whether it nests
//! deeper than [`MAX_DEPTH`] anywhere, including the parts queries skip or keep
//! raw (serde_json checks depth only where it builds values).
//!
//! The scanner is fed in pieces, so the streaming reader runs it on its
//! read-ahead thread and a whole-file read runs it once over the slice; both
//! find the same offsets.

/// Deepest nesting of arrays and objects planview reads. serde_json refuses
/// more than 127 levels when it builds values; with this limit checked over
/// the whole text, every value planview parses later (on demand) parses.
pub const MAX_DEPTH: usize = 127;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Before the document: blanks (or, lenient, anything up to the first `{`).
    Prefix,
    /// Inside the document, outside strings.
    Value,
    /// Inside a string.
    Str,
    /// Just after a backslash in a string.
    Escape,
    /// After the document closed (or after the depth limit was passed).
    Done,
}

/// What a scan found; offsets are in the whole input.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Found {
    /// Where the document starts: its first non-blank byte (strict), or the
    /// first `{` (lenient). `None` if there is none.
    pub start: Option<usize>,
    /// Just after the top-level value closed. `None` if it never does (truncated).
    pub end: Option<usize>,
    /// The first `[` or `{` nested deeper than [`MAX_DEPTH`].
    pub too_deep: Option<usize>,
}

/// An incremental scanner: [`Scanner::feed`] the input in order, in pieces of any size.
#[derive(Debug, Clone)]
pub struct Scanner {
    lenient: bool,
    state: State,
    depth: usize,
    /// Bytes fed so far.
    seen: usize,
    found: Found,
}

impl Scanner {
    /// `lenient`: the document starts at the first `{`, whatever precedes it.
    pub fn new(lenient: bool) -> Self {
        Scanner { lenient, state: State::Prefix, depth: 0, seen: 0, found: Found::default() }
    }

    /// What was found so far.
    pub fn found(&self) -> Found {
        self.found
    }

    /// True once the end or the depth limit was found: nothing more to learn.
    pub fn done(&self) -> bool {
        self.state == State::Done
    }

    /// Scan the next piece of the input.
    pub fn feed(&mut self, piece: &[u8]) {
        let base = self.seen;
        self.seen += piece.len();
        let mut i = 0;
        while i < piece.len() {
            match self.state {
                State::Done => return,
                State::Prefix => {
                    let hit = if self.lenient {
                        memchr::memchr(b'{', &piece[i..])
                    } else {
                        piece[i..].iter().position(|b| !b.is_ascii_whitespace())
                    };
                    match hit {
                        Some(k) => {
                            i += k;
                            self.found.start = Some(base + i);
                            self.state = State::Value;
                        }
                        None => return,
                    }
                }
                State::Str => match memchr::memchr2(b'"', b'\\', &piece[i..]) {
                    Some(k) => {
                        i += k;
                        self.state = if piece[i] == b'"' { State::Value } else { State::Escape };
                        i += 1;
                    }
                    None => return,
                },
                State::Escape => {
                    self.state = State::Str;
                    i += 1;
                }
                State::Value => {
                    match piece[i] {
                        b'"' => self.state = State::Str,
                        b'[' | b'{' => {
                            self.depth += 1;
                            if self.depth > MAX_DEPTH {
                                self.found.too_deep = Some(base + i);
                                self.state = State::Done;
                                return;
                            }
                        }
                        b']' | b'}' => {
                            self.depth = self.depth.saturating_sub(1);
                            if self.depth == 0 {
                                self.found.end = Some(base + i + 1);
                                self.state = State::Done;
                                return;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
        }
    }
}

/// Scan a whole input at once.
pub fn scan(bytes: &[u8], lenient: bool) -> Found {
    let mut s = Scanner::new(lenient);
    s.feed(bytes);
    s.found()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_in_strings_do_not_count_and_the_end_is_found() {
        let text = br#" {"a":"[[[{\"}","b":[1,{"c":"\\"}]} x"#;
        let f = scan(text, false);
        assert_eq!(f, Found { start: Some(1), end: Some(text.len() - 2), too_deep: None });
    }

    #[test]
    fn depth_beyond_the_limit_is_found_where_it_starts() {
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert_eq!(scan(ok.as_bytes(), false).too_deep, None);
        // serde_json itself reads what passes the scan.
        assert!(serde_json::from_str::<serde_json::Value>(&ok).is_ok());
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert_eq!(scan(deep.as_bytes(), false).too_deep, Some(MAX_DEPTH));
        assert!(serde_json::from_str::<serde_json::Value>(&deep).is_err());
    }

    #[test]
    fn truncated_input_has_no_end() {
        assert_eq!(scan(b"{\"a\":[1,2", false), Found { start: Some(0), end: None, too_deep: None });
        assert_eq!(scan(b"   ", false), Found::default());
    }

    #[test]
    fn lenient_starts_at_the_first_brace_whatever_precedes_it() {
        let text = b"$ tofu show -json \"plan [x]\n{\"a\":1}\nDone.";
        assert_eq!(scan(text, true), Found { start: Some(28), end: Some(35), too_deep: None });
        // Strict: the document starts at the first non-blank, whatever it is.
        assert_eq!(scan(text, false).start, Some(0));
    }

    #[test]
    fn pieces_of_any_size_find_the_same() {
        let text = br#"noise {"a":"x\"]\\","b":[[{"c":"}"}]],"d":"\u005b"} trailer"#;
        for lenient in [false, true] {
            let whole = scan(text, lenient);
            for size in 1..8 {
                let mut s = Scanner::new(lenient);
                text.chunks(size).for_each(|c| s.feed(c));
                assert_eq!(s.found(), whole, "size {size}, lenient {lenient}");
            }
        }
    }
}
