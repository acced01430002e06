//! `gate --format junit`: JUnit XML, escaped for XML 1.0.

use super::*;

/// Escape for XML text (`attr`: also for an attribute value). Characters XML
/// 1.0 cannot hold at all are shown escaped, as on a terminal.
pub(crate) fn xml(s: &str, attr: bool) -> String {
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
/// `<failure>` listing its violations, an unreadable input an `<error>`. A
/// `warn` rule with results is `<skipped>` with them as its message: JUnit
/// has no warning, and every JUnit viewer shows a skipped case with its
/// message without failing the run (a `<property>` is shown by few). Under
/// `--fail-on-warn` it is a `<failure>` like the others.
pub(crate) fn junit_out(w: &mut dyn Write, items: &[PerFile<PlanVerdict>]) -> io::Result<()> {
    let t = gate_total(items);
    let tests: usize = items.iter().map(|i| i.result.as_ref().map_or(1, |v| v.rules.len())).sum();
    let failures: usize = items.iter().filter_map(|i| i.result.as_ref().ok()).map(|v| v.rules.iter().filter(|r| fails(v, r)).count()).sum();
    let skipped: usize =
        items.iter().filter_map(|i| i.result.as_ref().ok()).map(|v| v.rules.iter().filter(|r| !r.passed && !fails(v, r)).count()).sum();
    writeln!(w, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    let skipped_attr = if skipped > 0 { format!(r#" skipped="{skipped}""#) } else { String::new() };
    writeln!(w, r#"<testsuites name="planview gate" tests="{tests}" failures="{failures}" errors="{}"{skipped_attr}>"#, t.errors)?;
    for i in items {
        let file = xml(&i.file, true);
        match &i.result {
            Ok(v) => {
                let f = v.rules.iter().filter(|r| fails(v, r)).count();
                let s = v.rules.iter().filter(|r| !r.passed && !fails(v, r)).count();
                let s = if s > 0 { format!(r#" skipped="{s}""#) } else { String::new() };
                writeln!(w, r#"  <testsuite name="{file}" tests="{}" failures="{f}" errors="0"{s}>"#, v.rules.len())?;
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
                    let body: String = v
                        .violations
                        .iter()
                        .filter(|x| x.rule == r.rule)
                        .map(|x| format!("{}: {}: {}\n", address_or_dash(x), x.action, x.reason))
                        .collect();
                    if fails(v, r) {
                        let msg = format!("{} violation(s): {}", r.violations, r.description);
                        write!(w, r#"      <failure message="{}" type="{name}">"#, xml(&msg, true))?;
                        write!(w, "{}", xml(&body, false))?;
                        writeln!(w, "</failure>")?;
                    } else {
                        // `<skipped>` holds a message attribute only (JUnit's schema).
                        let msg = format!("{} warning(s): {}: {}", r.violations, r.description, body.trim_end().replace('\n', "; "));
                        writeln!(w, r#"      <skipped message="{}"/>"#, xml(&msg, true))?;
                    }
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

/// True when a rule's outcome fails the plan: it was broken, and it is an
/// error rule or warnings fail this plan (`--fail-on-warn`).
fn fails(v: &PlanVerdict, r: &crate::query::gate::RuleOutcome) -> bool {
    !r.passed && (r.severity == Severity::Error || v.warnings_fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_escaping_covers_markup_and_forbidden_characters() {
        assert_eq!(xml(r#"a<b>&"c"'"#, true), "a&lt;b&gt;&amp;&quot;c&quot;&apos;");
        assert_eq!(xml("x\u{1}y\u{FFFF}", false), "x\\x01y\\u{FFFF}");
        assert_eq!(xml("a\nb", true), "a\\nb");
        assert_eq!(xml("a\nb", false), "a\nb");
    }
}
