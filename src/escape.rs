//! Escapers shared by rendering and secret masking (a leaf: it imports
//! nothing of planview but `sanitize`): JSON strings as planview's JSON output
//! writes them, and HCL quoted strings as addresses and `moves` write them.

use serde::Serialize;
use std::io::{self, Write};

/// A string as a JSON string literal, escaped as `render::write_json` escapes it:
/// its form in our JSON output.
pub(crate) fn json_string(s: &str) -> String {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, SafeFormatter(serde_json::ser::PrettyFormatter::new()));
    // Writing a string to a Vec cannot fail.
    let _ = s.serialize(&mut ser);
    String::from_utf8(out).unwrap_or_default()
}

/// What each byte is written as inside a JSON string by serde_json's
/// writer: 0 as itself, `u` as `\u00XX`, else the letter after a backslash.
const JSON_ESCAPE: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = b'u';
        i += 1;
    }
    t[0x08] = b'b';
    t[0x09] = b't';
    t[0x0A] = b'n';
    t[0x0C] = b'f';
    t[0x0D] = b'r';
    t[b'"' as usize] = b'"';
    t[b'\\' as usize] = b'\\';
    t
};

/// `s` as a JSON string literal appended to `out`, byte for byte what
/// `serde_json::to_writer` writes for a string (C0 controls, `"` and `\`
/// escaped; nothing else): the runs between escapes are found by a plain
/// loop over a table, not serde's generic one (a slice split per byte,
/// costly in the unoptimised test build).
pub(crate) fn push_json_str(out: &mut Vec<u8>, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let b = s.as_bytes();
    out.reserve(b.len() + 2);
    out.push(b'"');
    let (mut from, mut i) = (0, 0);
    while i < b.len() {
        let e = JSON_ESCAPE[b[i] as usize];
        if e != 0 {
            out.extend_from_slice(&b[from..i]);
            if e == b'u' {
                out.extend_from_slice(&[b'\\', b'u', b'0', b'0', HEX[(b[i] >> 4) as usize], HEX[(b[i] & 15) as usize]]);
            } else {
                out.extend_from_slice(&[b'\\', e]);
            }
            from = i + 1;
        }
        i += 1;
    }
    out.extend_from_slice(&b[from..]);
    out.push(b'"');
}

/// serde_json's pretty formatter, escaping what [`crate::sanitize::is_unsafe_in_json`]
/// names in strings and in raw JSON fragments (`RawValue`) alike.
pub(crate) struct SafeFormatter<'a>(pub serde_json::ser::PrettyFormatter<'a>);

macro_rules! delegate {
    ($($name:ident($($arg:ident: $t:ty),*)),* $(,)?) => {
        $(fn $name<W: ?Sized + Write>(&mut self, w: &mut W $(, $arg: $t)*) -> io::Result<()> {
            self.0.$name(w $(, $arg)*)
        })*
    };
}

impl serde_json::ser::Formatter for SafeFormatter<'_> {
    delegate!(
        begin_array(),
        end_array(),
        begin_array_value(first: bool),
        end_array_value(),
        begin_object(),
        end_object(),
        begin_object_key(first: bool),
        end_object_key(),
        begin_object_value(),
        end_object_value(),
    );

    /// Raw JSON (`RawValue`) bypasses string escaping. In valid JSON these
    /// characters can only be inside strings, where `\uXXXX` means the same.
    fn write_raw_fragment<W: ?Sized + Write>(&mut self, w: &mut W, fragment: &str) -> io::Result<()> {
        self.write_string_fragment(w, fragment)
    }

    /// Also breaks CI runners' log commands (`##[...]`, `##vso[...]`, read
    /// anywhere in a line): their first `#` is written `\u0023`, which decodes
    /// to the same string.
    fn write_string_fragment<W: ?Sized + Write>(&mut self, w: &mut W, fragment: &str) -> io::Result<()> {
        // Most fragments are plain ASCII without `#`: nothing to look for.
        // (A plain loop: cheap unoptimised too, and every string goes through it.)
        let b = fragment.as_bytes();
        let mut i = 0;
        while i < b.len() && b[i] < 0x7F && b[i] != b'#' {
            i += 1;
        }
        if i == b.len() {
            return w.write_all(b);
        }
        let mut rest = fragment;
        let unsafe_at = |s: &str| {
            let c = s.find(crate::sanitize::is_unsafe_in_json);
            let ci = s.match_indices("##").find(|(i, _)| s[i + 2..].starts_with('[') || s[i + 2..].starts_with("vso[")).map(|(i, _)| i);
            match (c, ci) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        };
        while let Some(i) = unsafe_at(rest) {
            w.write_all(&rest.as_bytes()[..i])?;
            let c = rest[i..].chars().next().unwrap_or_default();
            // Beyond the BMP (tags): as JSON writes it, a UTF-16 surrogate pair.
            for unit in c.encode_utf16(&mut [0; 2]) {
                write!(w, "\\u{:04x}", unit)?;
            }
            rest = &rest[i + c.len_utf8()..];
        }
        w.write_all(rest.as_bytes())
    }
}

/// `s` as an HCL quoted string literal: quotes, backslashes and template
/// introducers escaped, and every control, C1 or bidirectional character written
/// as `\uXXXX`, so the result is one safe line of plain text.
pub(crate) fn hcl_quote(s: &str) -> String {
    let inner = hcl_escape(s, |c| {
        needs_unicode_escape(c).then(|| if (c as u32) > 0xFFFF { format!("\\U{:08X}", c as u32) } else { format!("\\u{:04X}", c as u32) })
    });
    // CI runners read `##[...]` / `##vso[...]` anywhere in a log line: the
    // first `#` as `\u0023` means the same key and is no command.
    let inner = if inner.contains("##[") || inner.contains("##vso[") {
        inner.replace("##[", "\\u0023#[").replace("##vso[", "\\u0023#vso[")
    } else {
        inner
    };
    format!("\"{inner}\"")
}

/// The inside of an HCL quoted string: `\"`, `\\`, `\n`, `\r`, `\t` and
/// `$${`/`%%{` escaped, and any other character as `unicode` writes it (`None`:
/// as it is). Shared by our own quoting and by the secret scrubber's copy of
/// Terraform's.
pub(crate) fn hcl_escape(s: &str, unicode: impl Fn(char) -> Option<String>) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '$' | '%' if chars.peek() == Some(&'{') => {
                out.push(c);
                out.push(c);
            }
            c => match unicode(c) {
                Some(escaped) => out.push_str(&escaped),
                None => out.push(c),
            },
        }
    }
    out
}

fn needs_unicode_escape(c: char) -> bool {
    let u = c as u32;
    u < 0x20 || u == 0x7F || (0x80..=0x9F).contains(&u) || crate::sanitize::is_invisible(c)
}

#[cfg(test)]
mod tests {
    proptest::proptest! {
        /// Byte for byte what serde_json writes for a string.
        #[test]
        fn push_json_str_writes_what_serde_json_writes(s in "\\PC{0,20}|[\\x00-\\x7f]{0,20}|[a\"\\\\\\x00-\\x1f\\x7f\\u{80}-\\u{a0}\\u{2028}]{0,20}") {
            let mut out = Vec::new();
            super::push_json_str(&mut out, &s);
            proptest::prop_assert_eq!(String::from_utf8(out).unwrap(), serde_json::to_string(&s).unwrap());
        }
    }

    #[test]
    fn push_json_str_escapes_every_control_as_serde_json_does() {
        let all: String = (0u8..0x80).map(char::from).collect();
        let mut out = Vec::new();
        super::push_json_str(&mut out, &all);
        assert_eq!(String::from_utf8(out).unwrap(), serde_json::to_string(&all).unwrap());
    }
}
