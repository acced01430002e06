//! Text the model carries (JSON values, HCL expressions) without its blanks
//! outside string literals: one scanner for `query::values::compact` and
//! `locate`'s expression keys.

/// `text` without the characters `blank` accepts outside `"…"` literals
/// (escapes inside a literal honoured); literals are kept byte for byte.
pub(crate) fn squeeze(text: &str, blank: fn(char) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut quoted = false;
    let mut escaped = false;
    for c in text.chars() {
        if quoted {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                quoted = false;
            }
        } else if c == '"' {
            quoted = true;
            out.push(c);
        } else if !blank(c) {
            out.push(c);
        }
    }
    out
}
