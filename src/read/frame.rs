//! Framing: where a document ends and what may follow it. The text after a
//! document is a trailer `--lenient` may skip, unless a second document
//! starts there ([`second_document`]).

/// The key that names a document's format (`"format_version"`, HCP's
/// `"plan_format_version"`), without its quotes: text that `--lenient` would
/// skip is never skipped when it holds it followed by a quote, plain or
/// escaped (`\"`, a document inside a quoted log message): a document
/// planview did not read, such as a plan behind a log prefix.
pub(crate) const HIDDEN_KEY: &[u8] = b"format_version";

/// [`key_step`]'s state once the key and its closing quote are matched.
pub(crate) const KEY_FOUND: usize = HIDDEN_KEY.len() + 1;

/// How much of [`HIDDEN_KEY`] and its closing quote is matched after byte
/// `b`, given `matched` before it ([`KEY_FOUND`]: all). No proper suffix of a
/// match is a prefix of the key but the empty one, so a mismatch restarts
/// from nothing, or from `b`.
pub(crate) fn key_step(matched: usize, b: u8) -> usize {
    match HIDDEN_KEY.get(matched) {
        Some(&want) if want == b => matched + 1,
        None if matched == HIDDEN_KEY.len() && (b == b'"' || b == b'\\') => KEY_FOUND,
        _ => usize::from(b == HIDDEN_KEY[0]),
    }
}

/// Where a trailer's scan is at the end of a piece ([`second_document`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct TrailerScan {
    /// Only blanks since the line began.
    pub line_start: bool,
    /// How much of [`HIDDEN_KEY`] the last bytes match.
    key: usize,
}

impl TrailerScan {
    /// At the start of a line, or not.
    pub(crate) fn new(line_start: bool) -> Self {
        TrailerScan { line_start, key: 0 }
    }
}

/// The offset in `rest` (text after a document) of a second document, which
/// `--lenient` must not skip as a trailer: a `{` that starts a line (after
/// blanks), or the end of a `format_version` key anywhere (a document behind
/// a prefix, `::debug::{"format_version":...}`). `scan` says where the scan
/// of the text before `rest` was, and is left where it is at its end (to go
/// on with the next piece).
pub(crate) fn second_document(rest: &[u8], scan: &mut TrailerScan) -> Option<usize> {
    for (i, &b) in rest.iter().enumerate() {
        match b {
            b'\n' => {
                scan.line_start = true;
                scan.key = 0;
            }
            b' ' | b'\t' | b'\r' => scan.key = 0,
            b'{' if scan.line_start => return Some(i),
            _ => {
                scan.line_start = false;
                scan.key = key_step(scan.key, b);
                if scan.key == KEY_FOUND {
                    return Some(i);
                }
            }
        }
    }
    None
}
