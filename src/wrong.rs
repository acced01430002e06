//! The two likeliest wrong inputs, each told in one sentence:
//!
//! - the CLI's human rendering of a plan or state (`terraform show plan.out`,
//!   `tofu plan` output), which is not JSON: add `-json`;
//! - `terraform plan -json` / `tofu plan -json`, the machine-readable UI log
//!   stream (one message per line, each with `@level`, `@message` and `type`),
//!   which is not a plan: save the plan and `show -json` it. Its lines are read
//!   as many documents; [`collapse`] makes their errors one error for the input.

use crate::error::InputError;
use crate::outcome::PerFile;

/// What the log stream's error says (also how [`collapse`] recognises it).
const LOG_STREAM: &str = "this is the log stream of `plan -json` (one UI message per line), not the plan from `show -json`";

/// Lines the CLI's human rendering starts with, or holds near its start.
const HUMAN_MARKERS: &[&str] = &[
    "Terraform used the selected providers to generate the following execution",
    "OpenTofu used the selected providers to generate the following execution",
    "Terraform will perform the following actions:",
    "OpenTofu will perform the following actions:",
    "Resource actions are indicated with the following symbols:",
    "No changes. Your infrastructure matches the configuration.",
    "No changes. Your infrastructure still matches the configuration.",
    "Terraform detected the following changes made outside of Terraform",
    "OpenTofu detected the following changes made outside of OpenTofu",
    "Changes to Outputs:",
    "The state file is empty. No resources are represented.",
    "Planning failed. Terraform encountered an error while generating this plan.",
    "Planning failed. OpenTofu encountered an error while generating this plan.",
];

/// Whether `text` (the start of an input that does not open a JSON object)
/// is the CLI's human rendering of a plan or a state.
pub(crate) fn is_human_rendering(text: &str) -> bool {
    let head = &text[..floor_char_boundary(text, 64 << 10)];
    if HUMAN_MARKERS.iter().any(|m| head.contains(m)) {
        return true;
    }
    // A state's rendering: `# terraform_data.x:` blocks, then `resource "..." "..." {`.
    let mut lines = head.lines().map(str::trim_start).filter(|l| !l.is_empty());
    matches!((lines.next(), lines.next()), (Some(a), Some(b)) if a.starts_with("# ") && a.ends_with(':') && (b.starts_with("resource \"") || b.starts_with("data \"")))
        || head.lines().any(|l| l.starts_with("Plan: ") && l.contains(" to add, ") && l.contains(" to destroy."))
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The error for the human rendering, at line `l`, column `c`.
pub(crate) fn human_rendering(name: &str, l: usize, c: usize) -> InputError {
    InputError::new(
        name,
        "this is the CLI's human rendering (`terraform show plan.out` or `tofu show plan.out`), not JSON: add `-json` (`terraform show -json plan.out`)",
    )
    .at(l, c)
}

/// Whether `e` is [`human_rendering`]'s error (`--lenient` does not skip that text).
pub(crate) fn is_human_error(e: &InputError) -> bool {
    e.message.starts_with("this is the CLI's human rendering")
}

/// [`is_human_rendering`] on the first bytes of an input, for `--lenient`:
/// false when a line there starts with `{` (a `show -json` document after a
/// log that quotes the CLI's text, which `--lenient` may skip).
pub(crate) fn starts_human(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(64 << 10)];
    let start = head.iter().position(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n')).unwrap_or(head.len());
    head.get(start) != Some(&b'{') && !json_line_in(head) && is_human_rendering(&String::from_utf8_lossy(head))
}

/// Whether a line of `head` starts with `{` (where a `show -json` document starts).
pub(crate) fn json_line_in(head: &[u8]) -> bool {
    head.first() == Some(&b'{') || memchr::memmem::find(head, b"\n{").is_some()
}

/// Whether a JSON document's top-level keys are those of a log stream message.
pub(crate) fn is_log_message(keys: &[String]) -> bool {
    ["@level", "@message", "type"].iter().all(|k| keys.iter().any(|have| have == k))
}

/// The error for a message of the log stream.
pub(crate) fn log_stream(name: &str) -> InputError {
    InputError::new(name, LOG_STREAM)
        .hint("save the plan and show it: `terraform plan -out plan.out && terraform show -json plan.out > plan.json`")
}

/// An input whose documents are all messages of the log stream (`NAME#1`,
/// `NAME#2`, ... from one root) is one error, for `NAME`: said once, not once per line.
pub(crate) fn collapse<T>(items: Vec<PerFile<T>>) -> Vec<PerFile<T>> {
    let is_log = |i: &PerFile<T>| matches!(&i.result, Err(e) if e.message == LOG_STREAM);
    if items.iter().filter(|i| is_log(i)).count() < 2 {
        return items;
    }
    let base = |name: &str| -> Option<String> {
        let (b, k) = name.rsplit_once('#')?;
        (!k.is_empty() && k.bytes().all(|c| c.is_ascii_digit())).then(|| b.to_string())
    };
    let mut out: Vec<PerFile<T>> = Vec::with_capacity(items.len());
    let mut items = items.into_iter().peekable();
    while let Some(first) = items.next() {
        let Some(b) = base(&first.file) else {
            out.push(first);
            continue;
        };
        let mut group = vec![first];
        while items.peek().is_some_and(|n| base(&n.file).as_deref() == Some(b.as_str())) {
            group.extend(items.next());
        }
        if group.len() > 1 && group.iter().all(is_log) {
            out.push(PerFile { file: b.clone(), result: Err(log_stream(&b)), masker: crate::mask::Masker::default() });
        } else {
            out.extend(group);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_human_rendering_is_told_from_a_wrappers_text() {
        assert!(is_human_rendering("\nTerraform used the selected providers to generate the following execution\nplan."));
        assert!(is_human_rendering("# terraform_data.a:\nresource \"terraform_data\" \"a\" {\n"));
        assert!(is_human_rendering("No changes. Your infrastructure matches the configuration.\n"));
        assert!(!is_human_rendering("::group::Run terraform show\n{\"format_version\":\"1.2\"}"));
        assert!(!is_human_rendering("Plan file is 3 MB\n"));
        // With --lenient, a log quoting the CLI's text before a document is skipped as any log.
        let human = "Terraform will perform the following actions:\n  + create\n";
        assert!(starts_human(human.as_bytes()));
        assert!(!starts_human(format!("{human}{{\"format_version\":\"1.2\"}}").as_bytes()));
    }

    fn item(file: &str, log: bool) -> PerFile<()> {
        let result = if log { Err(log_stream(file)) } else { Ok(()) };
        PerFile { file: file.into(), result, masker: crate::mask::Masker::default() }
    }

    #[test]
    fn a_log_stream_is_one_error() {
        let items = vec![item("a.json", false), item("log#1", true), item("log#2", true), item("log#3", true), item("b#1", false)];
        let got: Vec<(String, bool)> = collapse(items).into_iter().map(|i| (i.file, i.result.is_err())).collect();
        assert_eq!(got, [("a.json".into(), false), ("log".into(), true), ("b#1".into(), false)]);
        // A plan among the messages: each message stays its own error.
        let mixed = vec![item("m#1", true), item("m#2", false), item("m#3", true)];
        assert_eq!(collapse(mixed).len(), 3);
        assert_eq!(collapse(vec![item("one", true)])[0].file, "one");
    }
}
