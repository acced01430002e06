//! `gate --format github`: GitHub Actions workflow commands, escaped as the runner reads them.

use super::*;

/// Escape the message of a workflow command (GitHub's rules: `%`, CR, LF),
/// after making the text terminal-safe.
pub(crate) fn gh_data(s: &str) -> String {
    line(s).replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Escape a property value of a workflow command: as data, plus `:` and `,`.
pub(crate) fn gh_property(s: &str) -> String {
    gh_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// The `file=…,line=…,endLine=…,` properties that put an annotation on its
/// source lines (nothing when the location is not known).
pub(crate) fn gh_location(source: Option<&crate::locate::Location>) -> String {
    match source {
        Some(s) => format!("file={},line={},endLine={},", gh_property(&s.file), s.line, s.end_line.max(s.line)),
        None => String::new(),
    }
}

/// GitHub shows at most 10 error annotations per step: the verdict takes one,
/// violations (and unreadable inputs) at most this many.
pub(crate) const GITHUB_ANNOTATIONS: usize = 9;

/// The verdict first, as `::notice` (passed) or `::error`; then one `::error`
/// per violation and per unreadable input, at most [`GITHUB_ANNOTATIONS`] of
/// them; the rest as one `::notice` saying how many more, each of them then
/// listed as a plain log line (not an annotation). Warnings follow the same
/// way as `::warning` annotations (GitHub counts those apart).
pub(crate) fn github_out(w: &mut dyn Write, items: &[PerFile<PlanVerdict>]) -> io::Result<()> {
    let t = gate_total(items);
    let level = if overall(&t) == "pass" { "notice" } else { "error" };
    writeln!(w, "::{level} title={}::{}", gh_property("planview gate"), gh_data(&verdict_line(&t)))?;
    annotate(w, items, Severity::Error)?;
    annotate(w, items, Severity::Warning)
}

/// The annotations of one severity (errors: with the unreadable inputs).
fn annotate(w: &mut dyn Write, items: &[PerFile<PlanVerdict>], severity: Severity) -> io::Result<()> {
    let (level, what) = match severity {
        Severity::Error => ("error", "violation(s)"),
        Severity::Warning => ("warning", "warning(s)"),
    };
    let mut annotations: Vec<(u8, String, String, Option<&crate::locate::Location>)> = Vec::new();
    for i in items {
        match &i.result {
            Ok(v) => {
                for x in v.violations.iter().filter(|x| x.severity == severity) {
                    let title = format!("planview gate: {} ({})", rule_name(&x.rule), i.file);
                    let msg = match &x.address {
                        Some(a) => format!("{a}: {} — {}", x.action, x.reason),
                        None => format!("{} — {}", x.action, x.reason),
                    };
                    annotations.push((importance(&x.rule), title, msg, x.location.as_ref()));
                }
            }
            Err(e) if severity == Severity::Error => {
                annotations.push((0, format!("planview gate: cannot read {}", i.file), e.to_string(), None))
            }
            Err(_) => {}
        }
    }
    // Most important first (stable: inputs and rules keep their order within a rank).
    annotations.sort_by_key(|(rank, _, _, _)| *rank);
    let annotations: Vec<(String, String, Option<&crate::locate::Location>)> =
        annotations.into_iter().map(|(_, t, m, l)| (t, m, l)).collect();
    for (title, msg, source) in annotations.iter().take(GITHUB_ANNOTATIONS) {
        writeln!(w, "::{level} {}title={}::{}", gh_location(*source), gh_property(title), gh_data(msg))?;
    }
    let rest = &annotations[annotations.len().min(GITHUB_ANNOTATIONS)..];
    if !rest.is_empty() {
        let msg = format!("{} more {what}: see the job log, or --format json", rest.len());
        writeln!(w, "::notice title={}::{}", gh_property("planview gate"), gh_data(&msg))?;
        writeln!(w, "::group::{}", gh_data(&format!("planview gate: {} more {what}", rest.len())))?;
        for (title, msg, _) in rest {
            // Plain log lines after a fixed prefix ("planview gate: "): no
            // input starts a line, so none is a command.
            writeln!(w, "{}: {}", line(title), line(msg))?;
        }
        writeln!(w, "::endgroup::")?;
    }
    Ok(())
}

/// How important a violation of rule `id` is for the annotations (GitHub
/// drops those past its cap silently, so the most important go first):
/// destruction of what is protected, then destruction, then what the gate
/// could not judge (unknown action lists, errored or incomplete plans, a
/// fingerprint that does not match), then the rest. An unreadable input
/// ranks with the first.
fn importance(rule: &str) -> u8 {
    match rule.split(' ').next().unwrap_or("") {
        "protect" | "protect-type" => 0,
        "deny" | "max" if rule.ends_with(" delete") || rule.starts_with("max delete=") || rule == "deny any" => 1,
        "recognised-actions" | "not-errored" | "complete" | "fingerprint" => 2,
        _ => 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destruction_of_what_is_protected_ranks_first_then_destruction_then_what_cannot_be_judged() {
        let ranks: Vec<u8> = [
            "protect db.*",
            "protect-type aws_db_*",
            "deny delete",
            "max delete=2",
            "deny any",
            "recognised-actions",
            "complete",
            "deny create",
            "max create=1",
            "deny-on-failure continue",
        ]
        .iter()
        .map(|r| importance(r))
        .collect();
        assert_eq!(ranks, [0, 0, 1, 1, 1, 2, 2, 3, 3, 3]);
    }

    #[test]
    fn github_escaping_follows_the_runner_rules() {
        assert_eq!(gh_data("100% done"), "100%25 done");
        assert_eq!(gh_property("a: b, c%"), "a%3A b%2C c%25");
        // Newlines never reach the runner: the line is made safe first, so a
        // value cannot start a command of its own.
        let s = gh_data("x\n::set-env name=A::b");
        assert!(!s.contains('\n'));
    }
}
