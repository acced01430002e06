//! Renders `gate` verdicts: table, JSON, markdown (a PR comment), GitHub
//! Actions workflow commands, and JUnit XML.

use super::fit::{fit, Block};
use super::{md_cell, md_code, write_json, JsonErrorBody, JsonInputError, Style, Tone};
use crate::query::gate::{overall, total, GateTotal, PlanVerdict, PolicyReport, Violation};
use crate::sanitize::{line, text};
use crate::PerFile;
use serde::Serialize;
use std::io::{self, Write};

/// `gate`'s output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GateFormat {
    #[default]
    Table,
    Json,
    Markdown,
    /// GitHub Actions workflow commands (`::error title=...::...`).
    Github,
    /// JUnit XML.
    Junit,
}

fn gate_total(items: &[PerFile<PlanVerdict>]) -> GateTotal {
    total(items.iter().map(|i| i.result.as_ref().ok()))
}

/// The verdict in one line, for people.
pub fn verdict_line(t: &GateTotal) -> String {
    let plans = t.passed + t.failed;
    match overall(t) {
        "error" => format!(
            "ERROR: {} of {} input(s) could not be read, so the gate cannot pass ({} violation(s) in the rest)",
            t.errors, t.files, t.violations
        ),
        "fail" => format!("FAILED: {} violation(s) in {} of {} plan(s)", t.violations, t.failed, plans),
        _ => format!("passed: {plans} plan(s), no violations"),
    }
}

/// A rule's name in the human formats (table, markdown, GitHub, JUnit): its
/// id, except `fail-on-checks`, named `checks-must-pass` there so that a
/// passing gate prints no "fail" (Atlantis' policy check fails any output
/// that does). The JSON report keeps the id.
pub fn rule_name(id: &str) -> &str {
    if id == "fail-on-checks" {
        "checks-must-pass"
    } else {
        id
    }
}

fn address_or_dash(v: &Violation) -> &str {
    v.address.as_deref().unwrap_or("-")
}

// ---------------------------------------------------------------- table

/// The terminal report, lines wider than the style's width wrapped (tables fit already).
pub fn table_out(w: &mut dyn Write, items: &[PerFile<PlanVerdict>], policy: &PolicyReport, style: &Style) -> io::Result<()> {
    let mut buf = Vec::new();
    table_unfitted(&mut buf, items, policy, style)?;
    w.write_all(style.fit_lines(&String::from_utf8_lossy(&buf)).as_bytes())
}

fn table_unfitted(w: &mut dyn Write, items: &[PerFile<PlanVerdict>], policy: &PolicyReport, style: &Style) -> io::Result<()> {
    for item in items {
        match &item.result {
            Ok(v) => {
                let (word, tone) = if v.passed() { ("pass", Tone::Good) } else { ("FAIL", Tone::Bad) };
                let n = if v.passed() { String::new() } else { format!(" ({} violation(s))", v.violations.len()) };
                writeln!(
                    w,
                    "{} {}",
                    style.paint(&format!("== {} ==", line(&item.file)), Tone::Bold),
                    style.paint(&format!("{word}{n}"), tone)
                )?;
                writeln!(w, "{}", v.plan_line)?;
                if !v.violations.is_empty() {
                    let rows = v
                        .violations
                        .iter()
                        .map(|x| {
                            vec![
                                line(rule_name(&x.rule)).into_owned(),
                                line(address_or_dash(x)).into_owned(),
                                style.paint(&line(&x.action), super::action_tone(&x.action)),
                                line(&x.reason).into_owned(),
                            ]
                        })
                        .collect();
                    writeln!(w, "{}", style.table(&["rule", "address", "action", "reason"], rows))?;
                }
            }
            Err(e) => {
                writeln!(w, "{} {}", style.paint(&format!("== {} ==", line(&item.file)), Tone::Bold), style.paint("ERROR", Tone::Bad))?;
                writeln!(w, "{} {}: {}", style.paint("error:", Tone::Bad), line(&e.location()), line(&e.message))?;
                if let Some(h) = &e.hint {
                    writeln!(w, "  hint: {}", line(h))?;
                }
            }
        }
        writeln!(w)?;
    }
    let t = gate_total(items);
    let mut rules = policy.rules.iter().map(|r| line(rule_name(r)).into_owned()).collect::<Vec<_>>().join(", ");
    if policy.default_rule {
        rules = rules.replacen("deny delete", "deny delete (default)", 1);
    }
    writeln!(w, "policy: {rules}")?;
    if !policy.allow.is_empty() {
        writeln!(
            w,
            "may be destroyed or replaced (--allow): {}",
            policy.allow.iter().map(|a| line(a).into_owned()).collect::<Vec<_>>().join(", ")
        )?;
    }
    let tone = match overall(&t) {
        "pass" => Tone::Good,
        _ => Tone::Bad,
    };
    writeln!(w, "{}", style.paint(&verdict_line(&t), tone))
}

// ---------------------------------------------------------------- json

#[derive(Serialize)]
struct JsonError<'a> {
    file: &'a str,
    verdict: &'static str,
    error: JsonErrorBody<'a>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum JsonItem<'a> {
    Ok(&'a PlanVerdict),
    Err(JsonError<'a>),
}

#[derive(Serialize)]
struct JsonReport<'a> {
    verdict: &'static str,
    policy: &'a PolicyReport,
    files: Vec<JsonItem<'a>>,
    total: GateTotal,
    /// One row per root (input document), in order.
    roots: Vec<crate::query::roots::RootRow>,
}

pub fn json_out(w: &mut dyn Write, items: &[PerFile<PlanVerdict>], policy: &PolicyReport) -> io::Result<()> {
    let t = gate_total(items);
    let files = items
        .iter()
        .map(|i| match &i.result {
            Ok(v) => JsonItem::Ok(v),
            Err(e) => JsonItem::Err(JsonError { file: &e.file, verdict: "error", error: JsonInputError::new(e).error }),
        })
        .collect();
    let roots = crate::query::roots::of_verdicts(items);
    write_json(w, &JsonReport { verdict: overall(&t), policy, files, total: t, roots })
}

// ---------------------------------------------------------------- markdown

fn policy_md(policy: &PolicyReport) -> String {
    let rules: Vec<String> = policy
        .rules
        .iter()
        .map(|r| if policy.default_rule && r == "deny delete" { format!("{} (default)", md_code(r)) } else { md_code(rule_name(r)) })
        .collect();
    let mut s = format!("Policy: {}", rules.join(" · "));
    if !policy.allow.is_empty() {
        s.push_str(&format!(
            "; may be destroyed or replaced (--allow): {}",
            policy.allow.iter().map(|a| md_code(a)).collect::<Vec<_>>().join(", ")
        ));
    }
    s.push('\n');
    s
}

/// The markdown report as blocks: the verdict line first, the per-plan table,
/// then the violations in `<details>`.
pub fn markdown_blocks(items: &[PerFile<PlanVerdict>], policy: &PolicyReport) -> Vec<Block> {
    let t = gate_total(items);
    let icon = match overall(&t) {
        "pass" => ":white_check_mark:",
        "fail" => ":x:",
        _ => ":warning:",
    };
    let mut blocks = vec![Block::Keep(format!("## {icon} planview gate: {}\n\n{}", verdict_line(&t), policy_md(policy)))];
    let mut errors = String::new();
    for i in items {
        if let Err(e) = &i.result {
            let hint = e.hint.as_deref().map(|h| format!(" (hint: {})", md_cell(h))).unwrap_or_default();
            errors.push_str(&format!(
                "\n> [!WARNING]\n> {} could not be read: {}: {}{hint}\n",
                md_code(&i.file),
                md_cell(&e.location()),
                md_cell(&e.message)
            ));
        }
    }
    if !errors.is_empty() {
        blocks.push(Block::Keep(errors));
    }
    blocks.push(Block::Rows {
        open: "\n| plan | verdict | plan line | violations |\n|---|---|---|---:|\n".into(),
        rows: items
            .iter()
            .map(|i| match &i.result {
                Ok(v) => format!(
                    "| {} | {} | {} | {} |\n",
                    md_code(&i.file),
                    if v.passed() { ":white_check_mark: pass" } else { ":x: fail" },
                    md_cell(&v.plan_line),
                    v.violations.len()
                ),
                Err(_) => format!("| {} | :warning: error | could not be read | - |\n", md_code(&i.file)),
            })
            .collect(),
        close: String::new(),
        what: "plans".into(),
    });
    let rows: Vec<String> = items
        .iter()
        .filter_map(|i| i.result.as_ref().ok().map(|v| (&i.file, v)))
        .flat_map(|(file, v)| {
            v.violations.iter().map(move |x| {
                format!(
                    "| {} | {} | {} | {} | {} |\n",
                    md_code(file),
                    md_code(rule_name(&x.rule)),
                    x.address.as_deref().map(md_code).unwrap_or_else(|| "-".into()),
                    md_cell(&x.action),
                    md_cell(&x.reason)
                )
            })
        })
        .collect();
    if !rows.is_empty() {
        blocks.push(Block::Rows {
            open: format!(
                "\n<details><summary>{} violation(s)</summary>\n\n| plan | rule | address | action | reason |\n|---|---|---|---|---|\n",
                rows.len()
            ),
            rows,
            close: "\n</details>\n".into(),
            what: "violations".into(),
        });
    }
    blocks
}

pub fn markdown_out(w: &mut dyn Write, items: &[PerFile<PlanVerdict>], policy: &PolicyReport, max_bytes: usize) -> io::Result<()> {
    w.write_all(fit(&markdown_blocks(items, policy), max_bytes).as_bytes())
}

// ---------------------------------------------------------------- github

/// Escape the message of a workflow command (GitHub's rules: `%`, CR, LF),
/// after making the text terminal-safe.
pub fn gh_data(s: &str) -> String {
    line(s).replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Escape a property value of a workflow command: as data, plus `:` and `,`.
pub fn gh_property(s: &str) -> String {
    gh_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// GitHub shows at most 10 error annotations per step: the verdict takes one,
/// violations (and unreadable inputs) at most this many.
pub const GITHUB_ANNOTATIONS: usize = 9;

/// The verdict first, as `::notice` (passed) or `::error`; then one `::error`
/// per violation and per unreadable input, at most [`GITHUB_ANNOTATIONS`] of
/// them; the rest as one `::notice` saying how many more, each of them then
/// listed as a plain log line (not an annotation).
pub fn github_out(w: &mut dyn Write, items: &[PerFile<PlanVerdict>]) -> io::Result<()> {
    let t = gate_total(items);
    let level = if overall(&t) == "pass" { "notice" } else { "error" };
    writeln!(w, "::{level} title={}::{}", gh_property("planview gate"), gh_data(&verdict_line(&t)))?;
    let mut annotations: Vec<(String, String)> = Vec::new();
    for i in items {
        match &i.result {
            Ok(v) => {
                for x in &v.violations {
                    let title = format!("planview gate: {} ({})", rule_name(&x.rule), i.file);
                    let msg = match &x.address {
                        Some(a) => format!("{a}: {} — {}", x.action, x.reason),
                        None => format!("{} — {}", x.action, x.reason),
                    };
                    annotations.push((title, msg));
                }
            }
            Err(e) => annotations.push((format!("planview gate: cannot read {}", i.file), e.to_string())),
        }
    }
    for (title, msg) in annotations.iter().take(GITHUB_ANNOTATIONS) {
        writeln!(w, "::error title={}::{}", gh_property(title), gh_data(msg))?;
    }
    let rest = &annotations[annotations.len().min(GITHUB_ANNOTATIONS)..];
    if !rest.is_empty() {
        let msg = format!("{} more violation(s): see the job log, or --format json", rest.len());
        writeln!(w, "::notice title={}::{}", gh_property("planview gate"), gh_data(&msg))?;
        writeln!(w, "::group::{}", gh_data(&format!("planview gate: {} more violation(s)", rest.len())))?;
        for (title, msg) in rest {
            // Plain log lines after a fixed prefix ("planview gate: "): no
            // input starts a line, so none is a command.
            writeln!(w, "{}: {}", line(title), line(msg))?;
        }
        writeln!(w, "::endgroup::")?;
    }
    Ok(())
}

// ---------------------------------------------------------------- junit

/// Escape for XML text (`attr`: also for an attribute value). Characters XML
/// 1.0 cannot hold at all are shown escaped, as on a terminal.
pub fn xml(s: &str, attr: bool) -> String {
    let safe = if attr { line(s) } else { text(s) };
    let mut out = String::with_capacity(safe.len());
    for c in safe.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\u{FFFE}' | '\u{FFFF}' => out.push_str(&format!("\\u{{{:04X}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// JUnit XML: a test suite per input, a test case per rule; a broken rule is a
/// `<failure>` listing its violations, an unreadable input an `<error>`.
pub fn junit_out(w: &mut dyn Write, items: &[PerFile<PlanVerdict>]) -> io::Result<()> {
    let t = gate_total(items);
    let tests: usize = items.iter().map(|i| i.result.as_ref().map_or(1, |v| v.rules.len())).sum();
    let failures: usize = items.iter().filter_map(|i| i.result.as_ref().ok()).map(|v| v.rules.iter().filter(|r| !r.passed).count()).sum();
    writeln!(w, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(w, r#"<testsuites name="planview gate" tests="{tests}" failures="{failures}" errors="{}">"#, t.errors)?;
    for i in items {
        let file = xml(&i.file, true);
        match &i.result {
            Ok(v) => {
                let f = v.rules.iter().filter(|r| !r.passed).count();
                writeln!(w, r#"  <testsuite name="{file}" tests="{}" failures="{f}" errors="0">"#, v.rules.len())?;
                writeln!(w, "    <properties>")?;
                writeln!(w, r#"      <property name="plan_line" value="{}"/>"#, xml(&v.plan_line, true))?;
                writeln!(w, r#"      <property name="errored" value="{}"/>"#, v.errored)?;
                writeln!(w, "    </properties>")?;
                for r in &v.rules {
                    let name = xml(rule_name(&r.rule), true);
                    if r.passed {
                        writeln!(w, r#"    <testcase name="{name}" classname="{file}"/>"#)?;
                        continue;
                    }
                    writeln!(w, r#"    <testcase name="{name}" classname="{file}">"#)?;
                    let msg = format!("{} violation(s): {}", r.violations, r.description);
                    write!(w, r#"      <failure message="{}" type="{name}">"#, xml(&msg, true))?;
                    for x in v.violations.iter().filter(|x| x.rule == r.rule) {
                        let body = format!("{}: {}: {}\n", address_or_dash(x), x.action, x.reason);
                        write!(w, "{}", xml(&body, false))?;
                    }
                    writeln!(w, "</failure>")?;
                    writeln!(w, "    </testcase>")?;
                }
            }
            Err(e) => {
                writeln!(w, r#"  <testsuite name="{file}" tests="1" failures="0" errors="1">"#)?;
                writeln!(w, r#"    <testcase name="read input" classname="{file}">"#)?;
                writeln!(w, r#"      <error message="{}" type="input">{}</error>"#, xml(&e.message, true), xml(&e.to_string(), false))?;
                writeln!(w, "    </testcase>")?;
            }
        }
        writeln!(w, "  </testsuite>")?;
    }
    writeln!(w, "</testsuites>")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn github_escaping_follows_the_runner_rules() {
        assert_eq!(gh_data("100% done"), "100%25 done");
        assert_eq!(gh_property("a: b, c%"), "a%3A b%2C c%25");
        // Newlines never reach the runner: the line is made safe first, so a
        // value cannot start a command of its own.
        let s = gh_data("x\n::set-env name=A::b");
        assert!(!s.contains('\n'));
    }

    #[test]
    fn xml_escaping_covers_markup_and_forbidden_characters() {
        assert_eq!(xml(r#"a<b>&"c"'"#, true), "a&lt;b&gt;&amp;&quot;c&quot;&apos;");
        assert_eq!(xml("x\u{1}y\u{FFFF}", false), "x\\x01y\\u{FFFF}");
        assert_eq!(xml("a\nb", true), "a\\nb");
        assert_eq!(xml("a\nb", false), "a\nb");
    }
}
