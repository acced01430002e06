//! Attribute paths (`PathStep` slices) as text: the one printer, used by
//! `show`, `drift`, `replace`, `moves` and `diff`.
//!
//! The notation is an HCL traversal (`root_block_device[0].volume_size`,
//! `tags["kubernetes.io/role"]`); the commands differ only in how they write
//! the empty path (the whole value) and whether a root name comes first.

use crate::escape::hcl_quote;
use crate::model::PathStep;

/// The empty path as `drift` and `replace` write it.
pub(crate) const WHOLE_OBJECT: &str = "(whole object)";
/// The empty path as `moves` writes it.
pub(crate) const THE_WHOLE_OBJECT: &str = "(the whole object)";

/// True when `s` is an HCL identifier (`ID_Start | _` then `ID_Continue | -`),
/// so it can follow a `.` in a traversal.
pub(crate) fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// A path as an HCL traversal: a key that is an identifier is written as an
/// attribute (`.name`, bare when first), any other key as `["..."]` (HCL
/// escaping, see [`hcl_quote`]), an index as `[0]`. The empty path is `""`.
pub(crate) fn traversal(steps: &[PathStep]) -> String {
    let mut out = String::new();
    write(&mut out, steps, true);
    out
}

/// [`traversal`], with the empty path written `whole` ([`WHOLE_OBJECT`],
/// [`THE_WHOLE_OBJECT`]).
pub(crate) fn traversal_or(steps: &[PathStep], whole: &str) -> String {
    if steps.is_empty() {
        return whole.to_string();
    }
    traversal(steps)
}

/// A path below a named root, `root` written as it is: `before.tags`,
/// `before["a b"]`, `actions[0]`; the empty path is `root`.
pub(crate) fn under(root: &str, steps: &[PathStep]) -> String {
    let mut out = root.to_string();
    write(&mut out, steps, false);
    out
}

fn write(out: &mut String, steps: &[PathStep], bare_first: bool) {
    for (i, step) in steps.iter().enumerate() {
        match step {
            PathStep::Key(k) if is_identifier(k) => {
                if i > 0 || !bare_first {
                    out.push('.');
                }
                out.push_str(k);
            }
            PathStep::Key(k) => {
                out.push('[');
                out.push_str(&hcl_quote(k));
                out.push(']');
            }
            PathStep::Index(n) => out.push_str(&format!("[{n}]")),
            PathStep::Other(v @ serde_json::Value::Number(_)) => out.push_str(&format!("[{v}]")),
            PathStep::Other(v) => out.push_str(&format!("[{}]", hcl_quote(&v.to_string()))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Vec<PathStep> {
        serde_json::from_str(s).unwrap()
    }

    #[test]
    fn identifiers_are_written_bare_anything_else_quoted() {
        assert_eq!(traversal(&p(r#"["root_block_device", 0, "volume_size"]"#)), "root_block_device[0].volume_size");
        assert_eq!(traversal(&p(r#"["tags", "Name"]"#)), "tags.Name");
        assert_eq!(traversal(&p(r#"["tags", "kubernetes.io/role"]"#)), r#"tags["kubernetes.io/role"]"#);
        assert_eq!(traversal(&p(r#"["tags", "my-tag_2"]"#)), "tags.my-tag_2", "dashes are allowed after the first character");
        assert_eq!(traversal(&p(r#"["m", "2fast"]"#)), r#"m["2fast"]"#, "a leading digit needs quoting");
        assert_eq!(traversal(&p(r#"["m", ""]"#)), r#"m[""]"#);
        assert_eq!(traversal(&p(r#"["m", "-x"]"#)), r#"m["-x"]"#);
        assert_eq!(traversal(&p(r#"["_private"]"#)), "_private");
        assert_eq!(traversal(&p(r#"["ünï"]"#)), "ünï");
        assert_eq!(traversal(&p(r#"["a b"]"#)), r#"["a b"]"#);
        assert_eq!(traversal(&p(r#"["list", 12, 3]"#)), "list[12][3]");
        assert_eq!(traversal(&p(r#"["tags", "Name", "x y", 0, "a"]"#)), r#"tags.Name["x y"][0].a"#);
        assert!(is_identifier("a-b_1") && !is_identifier("1a") && !is_identifier("") && !is_identifier("a.b"));
    }

    #[test]
    fn other_steps_are_written_as_indexes() {
        assert_eq!(traversal(&p(r#"["x", -1]"#)), "x[-1]");
        assert_eq!(traversal(&p(r#"["x", 1.5]"#)), "x[1.5]");
        assert_eq!(traversal(&p(r#"["x", true]"#)), r#"x["true"]"#);
        assert_eq!(traversal(&p(r#"["x", {"k": "v"}]"#)), r#"x["{\"k\":\"v\"}"]"#);
    }

    #[test]
    fn the_empty_path_is_written_as_each_command_writes_it() {
        assert_eq!(traversal(&[]), "");
        assert_eq!(traversal_or(&[], WHOLE_OBJECT), "(whole object)");
        assert_eq!(traversal_or(&[], THE_WHOLE_OBJECT), "(the whole object)");
        assert_eq!(traversal_or(&p(r#"["a"]"#), WHOLE_OBJECT), "a");
        assert_eq!(under("before", &[]), "before");
    }

    #[test]
    fn paths_under_a_root_continue_it() {
        assert_eq!(under("before", &p(r#"["input", "size"]"#)), "before.input.size");
        assert_eq!(under("before", &p(r#"["a b", 0]"#)), r#"before["a b"][0]"#);
        assert_eq!(under("actions", &p("[0]")), "actions[0]");
        assert_eq!(under("", &p(r#"["k"]"#)), ".k", "the root is written as given, even empty");
    }

    #[test]
    fn hostile_keys_are_escaped_onto_one_safe_line() {
        assert_eq!(traversal(&p(r#"["m", "say \"hi\""]"#)), r#"m["say \"hi\""]"#);
        assert_eq!(traversal(&p(r#"["m", "a\\b"]"#)), r#"m["a\\b"]"#);
        assert_eq!(traversal(&p(r#"["m", "l1\nl2\t\u0007"]"#)), r#"m["l1\nl2\t\u0007"]"#);
        assert_eq!(traversal(&p(r#"["m", "${var.x} %{if}"]"#)), r#"m["$${var.x} %%{if}"]"#);
        assert_eq!(traversal(&p(r#"["m", "$ and % alone"]"#)), r#"m["$ and % alone"]"#);
        assert_eq!(traversal(&p(r#"["m", "\u001b[2J\u202e"]"#)), r#"m["\u001B[2J\u202E"]"#);
        assert_eq!(traversal(&p(r###"["m", "##[error]x"]"###)), r###"m["\u0023#[error]x"]"###);
        assert_eq!(traversal(&p(r#"["m", "a\rb"]"#)), r#"m["a\rb"]"#);
        assert_eq!(under("f", &p(r#"["\u0085"]"#)), r#"f["\u0085"]"#);
    }
}
