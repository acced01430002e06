//! Terminal safety: strings from the input are escaped before they are printed.
//!
//! C0 controls (except newline and tab in multi-line text), DEL, C1 controls and
//! the Unicode bidirectional overrides/isolates are shown as `\xHH` / `\u{HHHH}`,
//! so no input can move the cursor, set a title, write the clipboard, make a
//! link or reorder the text on screen.

use std::borrow::Cow;

fn is_bidi(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

fn needs_escape(c: char, keep_newlines: bool) -> bool {
    match c {
        '\n' | '\t' => !keep_newlines,
        c if (c as u32) < 0x20 || c as u32 == 0x7F => true,
        c if (0x80..=0x9F).contains(&(c as u32)) => true,
        c => is_bidi(c),
    }
}

fn escape(s: &str, keep_newlines: bool) -> Cow<'_, str> {
    if !s.chars().any(|c| needs_escape(c, keep_newlines)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if !needs_escape(c, keep_newlines) {
            out.push(c);
            continue;
        }
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02X}", c as u32)),
            c => out.push_str(&format!("\\u{{{:04X}}}", c as u32)),
        }
    }
    Cow::Owned(out)
}

/// For one-line contexts (table cells, headers): newlines and tabs escaped too.
pub fn line(s: &str) -> Cow<'_, str> {
    escape(s, false)
}

/// For multi-line text (messages): newline and tab kept.
pub fn text(s: &str) -> Cow<'_, str> {
    escape(s, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_are_neutralised() {
        assert_eq!(line("a\x1b[31mred\x1b]8;;http://x\x07"), "a\\x1B[31mred\\x1B]8;;http://x\\x07");
        assert_eq!(line("x\u{9b}y\u{202E}z\x7f"), "x\\u{009B}y\\u{202E}z\\x7F");
        assert_eq!(line("a\r\nb\tc"), "a\\r\\nb\\tc");
        assert_eq!(text("a\r\nb\tc"), "a\\r\nb\tc");
        assert!(matches!(line("plain ünïcode"), Cow::Borrowed(_)));
    }
}
