//! One pass over JSON text, before it is parsed: where the document starts
//! (past a wrapper's text with `--lenient`), where it ends, and whether it nests
//! deeper than [`MAX_DEPTH`] anywhere, including the parts queries skip or keep
//! raw (serde_json checks depth only where it builds values).
//!
//! The scanner is fed in pieces, so the streaming reader runs it on its
//! read-ahead thread and a whole-file read runs it once over the slice; both
//! find the same offsets.

/// JSON's whitespace (RFC 8259): space, tab, newline, carriage return. Not
/// form feed or vertical tab, which `u8::is_ascii_whitespace` counts.
pub(crate) fn is_json_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// Deepest nesting of arrays and objects planview reads. serde_json refuses
/// more than 127 levels when it builds values; with this limit checked over
/// the whole text, every value planview parses later (on demand) parses.
pub(crate) const MAX_DEPTH: usize = 127;

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
pub(crate) struct Found {
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
pub(crate) struct Scanner {
    lenient: bool,
    state: State,
    depth: usize,
    /// Bytes fed so far.
    seen: usize,
    found: Found,
}

impl Scanner {
    /// `lenient`: the document starts at the first `{`, whatever precedes it.
    pub(crate) fn new(lenient: bool) -> Self {
        Scanner { lenient, state: State::Prefix, depth: 0, seen: 0, found: Found::default() }
    }

    /// What was found so far.
    pub(crate) fn found(&self) -> Found {
        self.found
    }

    /// True once the end or the depth limit was found: nothing more to learn.
    pub(crate) fn done(&self) -> bool {
        self.state == State::Done
    }

    /// Scan the next piece of the input.
    pub(crate) fn feed(&mut self, piece: &[u8]) {
        let base = self.seen;
        self.seen += piece.len();
        let n = piece.len();
        let mut i = 0;
        // Locals, written back at the end: the hot loops touch no memory but the input.
        let mut state = self.state;
        let mut depth = self.depth;
        'pieces: while i < n {
            match state {
                State::Done => break,
                State::Prefix => {
                    let hit =
                        if self.lenient { memchr::memchr(b'{', &piece[i..]) } else { piece[i..].iter().position(|&b| !is_json_ws(b)) };
                    let Some(k) = hit else { break };
                    i += k;
                    self.found.start = Some(base + i);
                    state = State::Value;
                }
                State::Escape => {
                    state = State::Str;
                    i += 1;
                }
                State::Str | State::Value => {
                    if state == State::Str {
                        i = string_end(piece, i);
                        if i >= n {
                            state = if i > n { State::Escape } else { State::Str };
                            break;
                        }
                        i += 1; // the closing quote
                        state = State::Value;
                    }
                    while i < n {
                        let b = piece[i];
                        i += 1;
                        match CLASS[usize::from(b)] {
                            PLAIN => {}
                            QUOTE => {
                                i = string_end(piece, i);
                                if i >= n {
                                    // A backslash ending the piece escapes what comes next.
                                    state = if i > n { State::Escape } else { State::Str };
                                    break 'pieces;
                                }
                                i += 1;
                            }
                            OPEN => {
                                depth += 1;
                                if depth > MAX_DEPTH {
                                    self.found.too_deep = Some(base + i - 1);
                                    state = State::Done;
                                    break 'pieces;
                                }
                            }
                            _ => {
                                depth = depth.saturating_sub(1);
                                if depth == 0 {
                                    self.found.end = Some(base + i);
                                    state = State::Done;
                                    break 'pieces;
                                }
                            }
                        }
                    }
                }
            }
        }
        self.state = state;
        self.depth = depth;
    }
}

/// In a string from `i` on: the offset of its closing quote; `piece.len()` if
/// the piece ends first; `piece.len() + 1` if it ends on a backslash.
pub(crate) fn string_end(piece: &[u8], mut i: usize) -> usize {
    let n = piece.len();
    while i < n {
        // Eight bytes at a time while they hold no quote and no backslash.
        if let Some(word) = piece.get(i..i + 8) {
            let w = u64::from_le_bytes(word.try_into().unwrap_or_default());
            let hits = has_byte(w, b'"') | has_byte(w, b'\\');
            if hits == 0 {
                i += 8;
                continue;
            }
            // The lowest flagged byte is a real hit (false ones only follow a real one).
            i += (hits.trailing_zeros() / 8) as usize;
        }
        match piece[i] {
            b'"' => return i,
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    i
}

/// The high bit of each byte of `w` equal to `b` (and maybe of bytes after one that is).
#[inline]
fn has_byte(w: u64, b: u8) -> u64 {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let x = w ^ (LO * u64::from(b));
    x.wrapping_sub(LO) & !x & HI
}

pub(crate) const PLAIN: u8 = 0;
pub(crate) const QUOTE: u8 = 1;
pub(crate) const OPEN: u8 = 2;
pub(crate) const CLOSE: u8 = 3;

/// What each byte is to the scanner outside strings.
pub(crate) static CLASS: [u8; 256] = {
    let mut t = [PLAIN; 256];
    t[b'"' as usize] = QUOTE;
    t[b'[' as usize] = OPEN;
    t[b'{' as usize] = OPEN;
    t[b']' as usize] = CLOSE;
    t[b'}' as usize] = CLOSE;
    t
};

/// Scan a whole input at once.
pub(crate) fn scan(bytes: &[u8], lenient: bool) -> Found {
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

    /// The plainest possible scanner, byte by byte, to check the fast one against.
    fn reference(bytes: &[u8], lenient: bool) -> Found {
        let mut f = Found::default();
        let start = if lenient { bytes.iter().position(|&b| b == b'{') } else { bytes.iter().position(|&b| !is_json_ws(b)) };
        let Some(start) = start else { return f };
        f.start = Some(start);
        let (mut depth, mut in_str, mut esc) = (0usize, false, false);
        for (i, &b) in bytes.iter().enumerate().skip(start) {
            if in_str {
                if esc {
                    esc = false;
                } else if b == b'\\' {
                    esc = true;
                } else if b == b'"' {
                    in_str = false;
                }
                continue;
            }
            match b {
                b'"' => in_str = true,
                b'[' | b'{' => {
                    depth += 1;
                    if depth > MAX_DEPTH {
                        f.too_deep = Some(i);
                        return f;
                    }
                }
                b']' | b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        f.end = Some(i + 1);
                        return f;
                    }
                }
                _ => {}
            }
        }
        f
    }

    proptest::proptest! {
        #[test]
        fn any_input_in_any_pieces_scans_as_the_reference_does(
            text in proptest::collection::vec(proptest::sample::select(b" x\"\\[]{}:,".to_vec()), 0..400),
            depth in 0usize..140,
            size in 1usize..9,
            lenient: bool,
        ) {
            // Nest the noise `depth` levels deep, so the limit is crossed sometimes.
            let mut input = b"{\"a\":".to_vec();
            input.extend(std::iter::repeat_n(b'[', depth));
            input.extend(&text);
            let want = reference(&input, lenient);
            proptest::prop_assert_eq!(scan(&input, lenient), want);
            let mut s = Scanner::new(lenient);
            input.chunks(size).for_each(|c| s.feed(c));
            proptest::prop_assert_eq!(s.found(), want);
        }
    }

    proptest::proptest! {
        #[test]
        fn string_end_finds_what_a_byte_loop_finds(
            text in proptest::collection::vec(proptest::sample::select(b"xxxxxxxxxxxxxxy\"\\".to_vec()), 0..200),
            from in 0usize..20,
        ) {
            let from = from.min(text.len());
            let mut i = from;
            let want = loop {
                match text.get(i) {
                    None => break i,
                    Some(b'"') => break i,
                    Some(b'\\') => i += 2,
                    Some(_) => i += 1,
                }
            };
            proptest::prop_assert_eq!(string_end(&text, from), want);
        }
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
