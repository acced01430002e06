//! Findings for code review: each gate violation and each listed check
//! instance as one finding (its rule, level, message, address and source
//! location), what the SARIF, GitLab Code Quality and GitHub annotation
//! renderers write.

use crate::locate::Location;
use crate::outcome::PerFile;
use crate::query::checks::ChecksReport;
use crate::query::gate::PlanVerdict;
use std::io::{self, Write};

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Level {
    Error,
    Warning,
    /// A check that passed (listed with `checks --all`).
    Pass,
}

/// One rule: a gate rule, or one checked object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RuleDef {
    /// Stable id (`gate/deny-delete`, `check/check.health`).
    pub(crate) id: String,
    pub(crate) text: String,
}

/// One finding.
#[derive(Debug, Clone)]
pub(crate) struct Finding<'a> {
    /// Index into [`Findings::rules`].
    pub(crate) rule: usize,
    pub(crate) level: Level,
    /// The rule's name for people (`deny delete`, `check check.health`).
    pub(crate) title: String,
    pub(crate) message: String,
    /// The object's address (`None` for plan-wide rules).
    pub(crate) address: Option<&'a str>,
    pub(crate) source: Option<&'a Location>,
    /// The plan it was found in, as named on the command line.
    pub(crate) input: &'a str,
}

/// What a command found, ready for the review formats.
#[derive(Debug, Default)]
pub(crate) struct Findings<'a> {
    /// `gate` or `checks`.
    pub(crate) command: &'static str,
    pub(crate) rules: Vec<RuleDef>,
    pub(crate) findings: Vec<Finding<'a>>,
    /// Inputs that could not be read: file, message.
    pub(crate) unreadable: Vec<(&'a str, String)>,
}

impl Findings<'_> {
    fn rule(&mut self, id: String, text: String) -> usize {
        if let Some(i) = self.rules.iter().position(|r| r.id == id) {
            return i;
        }
        self.rules.push(RuleDef { id, text });
        self.rules.len() - 1
    }

    /// Stable across runs for the same finding: the rule, the address and
    /// the input (never the message, which quotes values that change).
    pub(crate) fn fingerprint(&self, f: &Finding<'_>) -> String {
        let key = format!("{}\u{0}{}\u{0}{}", self.rules[f.rule].id, f.address.unwrap_or(""), f.input);
        fnv128_hex(key.as_bytes())
    }
}

/// 128 bits of FNV-1a (two 64-bit hashes with different offsets), as hex: an
/// identity, not a secret (it hashes addresses and rule names only).
fn fnv128_hex(data: &[u8]) -> String {
    let hash = |offset: u64| data.iter().fold(offset, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3));
    format!("{:016x}{:016x}", hash(0xcbf2_9ce4_8422_2325), hash(0x8422_2325_cbf2_9ce4))
}

/// A gate's findings: one per violation (rules in force that were broken).
pub(crate) fn of_gate(items: &[PerFile<PlanVerdict>]) -> Findings<'_> {
    let mut out = Findings { command: "gate", ..Default::default() };
    for item in items {
        match &item.result {
            Ok(v) => {
                for x in &v.violations {
                    let text = v.rules.iter().find(|r| r.rule == x.rule).map_or_else(|| x.rule.clone(), |r| r.description.clone());
                    let rule = out.rule(format!("gate/{}", x.rule.replace(' ', "-")), text);
                    let message = match &x.address {
                        Some(a) => format!("{a}: {} — {}", x.action, x.reason),
                        None => format!("{} — {}", x.action, x.reason),
                    };
                    out.findings.push(Finding {
                        rule,
                        level: Level::Error,
                        title: format!("planview gate: {}", super::gate::rule_name(&x.rule)),
                        message,
                        address: x.address.as_deref(),
                        source: x.location.as_ref(),
                        input: &item.file,
                    });
                }
            }
            Err(e) => out.unreadable.push((&item.file, e.to_string())),
        }
    }
    out
}

/// What a check of this kind is, in words.
fn check_text(kind: &str, object: &str) -> String {
    match kind {
        "check" => format!("the assertions of {object}"),
        "resource" => format!("the preconditions and postconditions of {object}"),
        "output_value" => format!("the preconditions of {object}"),
        "var" => format!("the validations of {object}"),
        _ => format!("the conditions of {object}"),
    }
}

/// The findings of `checks`: one per listed check instance (failures, and
/// with `--all` the others too), one rule per checked object.
pub(crate) fn of_checks(items: &[PerFile<ChecksReport>]) -> Findings<'_> {
    let mut out = Findings { command: "checks", ..Default::default() };
    for item in items {
        match &item.result {
            Ok(r) => {
                for c in &r.checks {
                    let rule = out.rule(format!("check/{}", c.object), check_text(&c.kind, &c.object));
                    let level = match c.status.as_str() {
                        "pass" => Level::Pass,
                        "unknown" => Level::Warning,
                        _ => Level::Error,
                    };
                    let problems = if c.problems.is_empty() { "no message".to_string() } else { c.problems.join("; ") };
                    out.findings.push(Finding {
                        rule,
                        level,
                        title: format!("planview checks: {} {}", c.object, c.status),
                        message: format!("{}: check {}: {problems}", c.address, c.status),
                        address: Some(&c.address),
                        source: c.location.as_ref(),
                        input: &item.file,
                    });
                }
            }
            Err(e) => out.unreadable.push((&item.file, e.to_string())),
        }
    }
    out
}

/// Write the findings of `checks` in a review format: SARIF, GitLab Code
/// Quality, or GitHub annotations (failures as `::error`, unknown ones as
/// `::warning`, at most as many as GitHub shows, the rest counted).
pub(crate) fn write_checks(format: super::Format, items: &[PerFile<ChecksReport>], w: &mut dyn Write) -> io::Result<()> {
    let f = of_checks(items);
    match format {
        super::Format::Sarif => super::sarif::write(w, &f),
        super::Format::GitlabCodequality => super::codequality::write(w, &f),
        _ => github(w, &f),
    }
}

/// GitHub workflow commands for findings other than passes.
fn github(w: &mut dyn Write, f: &Findings<'_>) -> io::Result<()> {
    use super::gate::{gh_data, gh_location, gh_property, GITHUB_ANNOTATIONS};
    let shown: Vec<&Finding<'_>> = f.findings.iter().filter(|x| x.level != Level::Pass).collect();
    for x in shown.iter().take(GITHUB_ANNOTATIONS) {
        let level = if x.level == Level::Error { "error" } else { "warning" };
        writeln!(w, "::{level} {}title={}::{}", gh_location(x.source), gh_property(&x.title), gh_data(&x.message))?;
    }
    for (file, e) in &f.unreadable {
        writeln!(w, "::error title={}::{}", gh_property(&format!("planview {}: cannot read {file}", f.command)), gh_data(e))?;
    }
    let rest = shown.len().saturating_sub(GITHUB_ANNOTATIONS);
    if rest > 0 {
        let msg = format!("{rest} more finding(s): see the job log, or --format json");
        writeln!(w, "::notice title={}::{}", gh_property(&format!("planview {}", f.command)), gh_data(&msg))?;
        writeln!(w, "::group::{}", gh_data(&format!("planview {}: {rest} more finding(s)", f.command)))?;
        for x in &shown[GITHUB_ANNOTATIONS..] {
            let at = x.source.map(|s| format!("{s}: ")).unwrap_or_default();
            // A fixed prefix starts each line: no input starts a line, so none is a command.
            writeln!(w, "{}: {}{}", crate::sanitize::line(&x.title), crate::sanitize::line(&at), crate::sanitize::line(&x.message))?;
        }
        writeln!(w, "::endgroup::")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fingerprints_depend_on_rule_address_and_input_only() {
        let mut f = Findings::default();
        let r = f.rule("gate/deny-delete".into(), "x".into());
        let one = Finding {
            rule: r,
            level: Level::Error,
            title: String::new(),
            message: "a".into(),
            address: Some("t.a"),
            source: None,
            input: "p.json",
        };
        let other_message = Finding { message: "b".into(), ..one.clone() };
        let other_address = Finding { address: Some("t.b"), ..one.clone() };
        assert_eq!(f.fingerprint(&one), f.fingerprint(&other_message));
        assert_ne!(f.fingerprint(&one), f.fingerprint(&other_address));
        assert_eq!(f.fingerprint(&one).len(), 32);
        assert_eq!(f.rule("gate/deny-delete".into(), "y".into()), r, "one rule per id");
    }
}
