//! Terminal safety: strings from the input are escaped before they are printed.
//!
//! C0 controls (except newline and tab in multi-line text), DEL, C1 controls,
//! the Unicode bidirectional overrides/isolates and the characters that show
//! nothing ([`is_invisible`]: zero-width spaces and joiners, the BOM, line and
//! paragraph separators, Hangul fillers, tags, variation selectors) are shown
//! as `\xHH` / `\u{HHHH}`, so no input can move the cursor, set a title, write
//! the clipboard, make a link, reorder the text on screen or pass for other
//! text (`x["k\u{200B}"]` never reads as `x["k"]`). CI runners' log commands (`##[...]`,
//! `##vso[...]`, `::cmd::` at a line's start) are broken the same way (`\x23`,
//! `\x3A`), so no input can drive the runner that prints planview's output.

use std::borrow::Cow;

fn is_bidi(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Characters that show nothing, or nothing of their own, so text holding
/// them can pass for other text: the bidi controls, the soft hyphen, the
/// combining grapheme joiner, Hangul fillers (U+115F, U+1160, U+3164, U+FFA0),
/// Khmer inherent vowels, Mongolian free variation selectors and vowel
/// separator, zero-width space, non-joiner and joiner (U+200B-U+200D), line
/// and paragraph separators, word joiner and invisible operators
/// (U+2060-U+2064), the deprecated format characters (U+206A-U+206F),
/// variation selectors, the BOM (U+FEFF), interlinear annotation controls,
/// shorthand format controls, musical symbol format controls, and tags
/// (U+E0000-U+E007F).
pub fn is_invisible(c: char) -> bool {
    is_bidi(c)
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200D}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{2060}'..='\u{2064}'
                | '\u{206A}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{1BCA0}'..='\u{1BCA3}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E007F}'
                | '\u{E0100}'..='\u{E01EF}'
        )
}

/// Characters JSON allows raw in a string that could still act on a terminal
/// or pass for other text: DEL, C1 controls, bidi overrides/isolates and
/// invisible characters ([`is_invisible`]). `render::write_json` writes them
/// as `\uXXXX` (JSON itself already escapes the C0 controls).
pub fn is_unsafe_in_json(c: char) -> bool {
    c as u32 == 0x7F || (0x80..=0x9F).contains(&(c as u32)) || is_invisible(c)
}

fn needs_escape(c: char, keep_newlines: bool) -> bool {
    match c {
        '\n' | '\t' => !keep_newlines,
        c if (c as u32) < 0x20 || c as u32 == 0x7F => true,
        c if (0x80..=0x9F).contains(&(c as u32)) => true,
        c => is_invisible(c),
    }
}

fn escape(s: &str, keep_newlines: bool) -> Cow<'_, str> {
    match escape_chars(s, keep_newlines) {
        Cow::Borrowed(b) => ci_commands(b, keep_newlines).map_or(Cow::Borrowed(b), Cow::Owned),
        Cow::Owned(o) => Cow::Owned(ci_commands(&o, keep_newlines).unwrap_or(o)),
    }
}

/// CI runners read commands from log lines: GitHub's `::cmd::` at a line's
/// start (after blanks) and its legacy `##[cmd]` anywhere in a line; Azure
/// DevOps's `##vso[...]` anywhere. In text from the input they are broken the
/// way control characters are escaped: the first `#` of `##[` / `##vso[` is
/// written `\x23`, the first `:` of a leading `::` is written `\x3A`. `None`
/// when there is nothing to break.
fn ci_commands(s: &str, keep_newlines: bool) -> Option<String> {
    // Every command holds a `#` or a `:` (memchr's search, not a scan per line).
    memchr::memchr2(b'#', b':', s.as_bytes())?;
    let leading = |line: &str| line.trim_start_matches([' ', '\t']).starts_with("::");
    let any_leading = if keep_newlines { s.split('\n').any(leading) } else { leading(s) };
    if !any_leading && !s.contains("##[") && !s.contains("##vso[") {
        return None;
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut line_start = true;
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if line_start && leading(rest) {
            let blanks = rest.len() - rest.trim_start_matches([' ', '\t']).len();
            out.push_str(&rest[..blanks]);
            out.push_str("\\x3A");
            rest = &rest[blanks + 1..];
            line_start = false;
            continue;
        }
        if rest.starts_with("##[") || rest.starts_with("##vso[") {
            out.push_str("\\x23");
            rest = &rest[1..];
            line_start = false;
            continue;
        }
        line_start = keep_newlines && c == '\n';
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    Some(out)
}

/// True when `s` holds a CI runner command that [`line`] and [`text`] break:
/// `##[` or `##vso[` anywhere, `::` at the start of a line (after blanks).
pub fn ci_hazard(s: &str) -> Option<String> {
    for bad in ["##[", "##vso["] {
        if let Some(i) = s.find(bad) {
            return Some(format!("{bad:?} at byte {i}"));
        }
    }
    s.lines().find(|l| l.trim_start_matches([' ', '\t']).starts_with("::")).map(|l| format!("a line starting a workflow command: {l:?}"))
}

/// Where the first character of `s` that [`needs_escape`] is (`s.len()`:
/// none). Printable ASCII, most text, is passed over a byte at a time in a
/// plain loop (cheap unoptimised too); only the bytes of other characters
/// are decoded and asked about.
fn first_to_escape(s: &str, keep_newlines: bool) -> usize {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        // Printable ASCII (0x20 to 0x7E) in one comparison.
        if c.wrapping_sub(0x20) < 0x5F || (keep_newlines && (c == b'\n' || c == b'\t')) {
            i += 1;
            continue;
        }
        let Some(ch) = s[i..].chars().next() else { break };
        if needs_escape(ch, keep_newlines) {
            return i;
        }
        i += ch.len_utf8();
    }
    b.len()
}

fn escape_chars(s: &str, keep_newlines: bool) -> Cow<'_, str> {
    let first = first_to_escape(s, keep_newlines);
    if first == s.len() {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    out.push_str(&s[..first]);
    for c in s[first..].chars() {
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

/// The first thing in `output` that could act on a terminal, described, or
/// `None` when it is safe to print: invalid UTF-8, an ESC byte, any other C0
/// control but newline and tab (carriage return included), DEL, a C1 control,
/// a bidi override/isolate or an invisible character ([`is_invisible`]). With `allow_sgr`, colour sequences (`ESC [ digits;... m`,
/// what planview's own colouring writes) are allowed and nothing else with ESC.
///
/// This is what tests, property tests and fuzz targets check every output with.
pub fn terminal_hazard(output: &[u8], allow_sgr: bool) -> Option<String> {
    let text = match std::str::from_utf8(output) {
        Ok(t) => t,
        Err(e) => return Some(format!("invalid UTF-8 at byte {}", e.valid_up_to())),
    };
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '\x1b' && allow_sgr {
            // Accept exactly ESC [ [0-9;]* m.
            let rest = &text[i + 1..];
            let params = rest.strip_prefix('[').map(|r| r.len() - r.trim_start_matches(|c: char| c.is_ascii_digit() || c == ';').len());
            if let Some(n) = params.filter(|&n| rest.as_bytes().get(1 + n) == Some(&b'm')) {
                for _ in 0..n + 2 {
                    chars.next();
                }
                continue;
            }
        }
        if matches!(c, '\n' | '\t') || !needs_escape(c, true) {
            continue;
        }
        let context: String = text[i..].chars().skip(1).take(12).collect();
        return Some(format!("raw U+{:04X} at byte {i} (followed by {context:?})", c as u32));
    }
    None
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

    #[test]
    fn invisible_characters_are_shown() {
        assert_eq!(line("x[\"k\u{200B}\"]"), "x[\"k\\u{200B}\"]");
        for c in [
            '\u{200B}',
            '\u{200D}',
            '\u{FEFF}',
            '\u{2028}',
            '\u{2029}',
            '\u{3164}',
            '\u{E0041}',
            '\u{115F}',
            '\u{FFA0}',
            '\u{180E}',
            '\u{2061}',
            '\u{FE0F}',
        ] {
            let s = format!("a{c}b");
            assert_eq!(line(&s), format!("a\\u{{{:04X}}}b", c as u32));
            assert!(terminal_hazard(s.as_bytes(), false).is_some(), "{c:?}");
            assert_eq!(terminal_hazard(text(&s).as_bytes(), false), None);
        }
        assert!(matches!(line("plain ünïcode 日本 ❤ é"), Cow::Borrowed(_)));
    }

    #[test]
    fn ci_runner_commands_are_broken() {
        assert_eq!(
            line("x ##[error]boom ##vso[task.setvariable variable=a]1"),
            "x \\x23#[error]boom \\x23#vso[task.setvariable variable=a]1"
        );
        assert_eq!(line("  ::error::x"), "  \\x3A:error::x");
        assert_eq!(line("a ::error::x"), "a ::error::x", "not at a line start");
        assert_eq!(text("ok\n\t::warning::x\n###[y"), "ok\n\t\\x3A:warning::x\n#\\x23#[y");
        // One line: a newline is escaped, so what follows it starts no line.
        assert_eq!(line("ok\n::warning::x"), "ok\\n::warning::x");
        assert_eq!(line("\x1b##[x"), "\\x1B\\x23#[x");
        for s in ["##[group]x", "a\n ::set-output name=x::y", "##vso[x]", "::::", "#\n#[x"] {
            assert_eq!(ci_hazard(&text(s)), None, "{s:?} -> {:?}", text(s));
            assert_eq!(ci_hazard(&line(s)), None, "{s:?}");
        }
        assert!(ci_hazard("a ##[error]").is_some() && ci_hazard("x\n ::error::y").is_some());
        assert!(matches!(line("a # b :: c #[d]"), Cow::Borrowed(_)));
    }

    #[test]
    fn terminal_hazard_finds_every_kind_and_allows_only_colour() {
        assert_eq!(terminal_hazard("plain\n\tünï ✓".as_bytes(), false), None);
        for bad in ["\x1b[31m", "a\rb", "\x07", "\x7f", "\u{9b}", "\u{202e}", "\u{2066}", "\x00"] {
            assert!(terminal_hazard(bad.as_bytes(), false).is_some(), "{bad:?}");
        }
        assert_eq!(terminal_hazard(b"\x1b[1;31mred\x1b[0m", true), None);
        assert!(terminal_hazard(b"\x1b]8;;http://x\x07", true).is_some());
        assert!(terminal_hazard(b"\x1b[2J", true).is_some());
        assert!(terminal_hazard(b"\x1b[31", true).is_some());
        assert!(terminal_hazard(&[b'a', 0xff], false).unwrap().contains("UTF-8"));
        // What `line` and `text` print is never a hazard.
        let hostile = "\x1b]52;c;eA==\x07\r\u{9b}\u{202e}\x7f\x00";
        assert_eq!(terminal_hazard(line(hostile).as_bytes(), false), None);
        assert_eq!(terminal_hazard(text(hostile).as_bytes(), false), None);
    }
}
