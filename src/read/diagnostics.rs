//! The error vocabulary of every reader (whole, streamed, split): encoding,
//! framing, depth and serde_json's messages, located by line and column.

use super::saved_plan::SHOW_HINT;
use super::{is_saved_plan, line_col, ReadOptions};
use crate::error::serde_message;
use crate::error::InputError;
use crate::scan::is_json_ws;

/// The most blank space read before the document.
pub(crate) const MAX_BLANKS: usize = 64 << 20;

/// The most text read after the document (blank, or with `--lenient` a trailer).
pub(crate) const MAX_TRAILER: usize = 64 << 20;

/// More than [`MAX_BLANKS`] of blank space and no document yet.
pub(crate) fn too_blank(name: &str) -> InputError {
    InputError::new(name, format!("input starts with more than {} MB of blank space and no JSON", MAX_BLANKS >> 20))
        .hint("is it the right file or pipe? `show -json` prints its JSON at once")
}

/// More than [`MAX_TRAILER`] after the document.
pub(crate) fn too_long_trailer(name: &str) -> InputError {
    InputError::new(name, format!("the input goes on for more than {} MB after the JSON document", MAX_TRAILER >> 20))
        .hint("planview reads one document per input; is it the right file or pipe?")
}

/// What follows the document (`next` is its first non-blank byte, at line `l`,
/// column `c`): another document is refused; other text is refused unless
/// `--lenient`, which ignores it with a warning.
pub(crate) fn after_document(name: &str, next: u8, l: usize, c: usize, opts: &ReadOptions) -> Result<(), InputError> {
    if matches!(next, b'{' | b'[') {
        return Err(two_documents(name, l, c, false));
    }
    if !opts.lenient {
        return Err(InputError::new(name, "there is text after the JSON document")
            .at(l, c)
            .hint("a CI wrapper may have printed it: strip it, run `show -json` without the wrapper, or pass --lenient to ignore it"));
    }
    opts.notes.push(name, format!("--lenient: ignored the text after the JSON document, from line {l}, column {c}"));
    Ok(())
}

/// A second document at line `l`, column `c` (`between`: after text that
/// `--lenient` would have skipped as a trailer). Several documents in one input
/// are refused, never read as the first one alone.
pub(crate) fn two_documents(name: &str, l: usize, c: usize, between: bool) -> InputError {
    let what = if between { " (with text between them)" } else { "" };
    InputError::new(name, format!("there are two JSON documents{what}"))
        .at(l, c)
        .hint("planview reads several documents from one input when each starts on a line of its own (`summary`, `gate`, `show`, ...); `diff`, `fingerprint` and `moves` read one document per input")
}

/// The warning for a skipped prefix of `bytes` bytes; the JSON starts at line `l`, column `c`.
pub(crate) fn skipped_prefix(bytes: usize, l: usize, c: usize) -> String {
    let what = if bytes == 3 { "3 bytes (a UTF-8 byte-order mark?)".to_string() } else { format!("{bytes} bytes of text") };
    format!("--lenient: skipped {what} before the JSON, which starts at line {l}, column {c}")
}

/// Nesting beyond [`crate::scan::MAX_DEPTH`], at line `l`, column `c`.
pub(crate) fn too_deep(name: &str, l: usize, c: usize) -> InputError {
    let max = crate::scan::MAX_DEPTH;
    InputError::new(name, format!("invalid JSON: nested deeper than {max} levels"))
        .at(l, c)
        .hint(format!("planview reads documents nested at most {max} levels deep; output of `show -json` nests far less"))
}

/// Refuse UTF-16, and a UTF-8 byte-order mark unless `lenient` (which skips
/// it as a wrapper's prefix). Looks at the first bytes only.
pub(crate) fn sniff_encoding(name: &str, bytes: &[u8], lenient: bool) -> Result<(), InputError> {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) || looks_utf16(bytes) {
        return Err(InputError::new(name, "input is UTF-16, not UTF-8")
            .hint("re-encode as UTF-8 (PowerShell's `>` writes UTF-16; use `| Out-File -Encoding utf8`)"));
    }
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) && !lenient {
        return Err(InputError::new(name, "input starts with a UTF-8 byte-order mark")
            .at(1, 1)
            .hint("re-encode as UTF-8 without a BOM, or pass --lenient to skip it"));
    }
    Ok(())
}

/// The first non-blank character must open an object; say what it is otherwise.
/// `text` is the input, or (when streaming) the part of it read so far.
pub(crate) fn check_start(name: &str, text: &str) -> Result<(), InputError> {
    check_start_at(name, text, true, &|at| line_col(text.as_bytes(), at))
}

/// [`check_start`] on a text that may follow blanks already dropped (streaming
/// drops them as they arrive): `whole` says whether `text` is the very start of
/// the input, and `locate` turns an offset in `text` into a line and column of the input.
pub(crate) fn check_start_at(name: &str, text: &str, whole: bool, locate: &dyn Fn(usize) -> (usize, usize)) -> Result<(), InputError> {
    let start = text.bytes().position(|b| !is_json_ws(b));
    let Some(start) = start else {
        return Err(InputError::new(name, "input is empty").hint("did `show -json` fail? check its exit code and stderr"));
    };
    match text.as_bytes()[start] {
        b'{' => {}
        b'[' => {
            let (l, c) = locate(start);
            return Err(InputError::new(name, "input is a JSON array, not a plan or state object").at(l, c));
        }
        _ => {
            let (l, c) = locate(start);
            if crate::read::wrong::is_human_rendering(&text[start..]) {
                return Err(crate::read::wrong::human_rendering(name, l, c));
            }
            let mut e = InputError::new(name, "input does not start with a JSON object").at(l, c);
            if whole && is_saved_plan(text.as_bytes()) {
                return Err(InputError::new(name, "input is a saved plan (a zip archive), not JSON").hint(SHOW_HINT));
            }
            if let Some(brace) = text[start..].find('{') {
                let (bl, _) = locate(start + brace);
                e = e.hint(format!(
                    "there is text before the JSON (it starts on line {bl}); a CI wrapper may have printed it: strip it, run `tofu show -json` / `terraform show -json` without the wrapper, or pass --lenient to skip it"
                ));
            } else {
                e = e.hint("expected the output of `tofu show -json` or `terraform show -json`");
            }
            return Err(e);
        }
    }
    Ok(())
}

/// [`json_error`] for text that starts at line `l`, column `c` of the input
/// (serde_json counts from the start of the text it was given).
pub(crate) fn json_error_at(name: &str, e: &serde_json::Error, (l, c): (usize, usize)) -> InputError {
    let mut err = json_error(name, e);
    if e.line() > 0 {
        err.line = Some(l + e.line() - 1);
        err.column = Some(if e.line() == 1 { c + e.column() - 1 } else { e.column() });
    }
    err
}

pub(crate) fn json_error(name: &str, e: &serde_json::Error) -> InputError {
    let msg = serde_message(e);
    let mut err = InputError::new(name, format!("invalid JSON: {msg}"));
    if e.line() > 0 {
        err = err.at(e.line(), e.column());
    }
    match e.classify() {
        serde_json::error::Category::Eof => err.hint("the JSON ends too early: was the file truncated?"),
        _ if msg.starts_with("trailing characters") => {
            err.hint("there is text after the JSON document (two documents, or a wrapper's trailer?)")
        }
        _ if msg.starts_with("recursion limit exceeded") => {
            err.hint(format!("the document nests deeper than planview reads ({} levels)", crate::scan::MAX_DEPTH))
        }
        _ => err,
    }
}

/// UTF-16 without a BOM: NUL bytes in every other position at the start.
fn looks_utf16(bytes: &[u8]) -> bool {
    bytes.len() >= 4 && ((bytes[0] == 0 && bytes[2] == 0 && bytes[1] != 0) || (bytes[1] == 0 && bytes[3] == 0 && bytes[0] != 0))
}
