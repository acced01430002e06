//! `gate` as a terminal report: the verdict per plan, its rules and violations.

use super::*;

/// The terminal report, lines wider than the style's width wrapped (tables fit already).
pub(crate) fn table_out(w: &mut dyn Write, items: &[PerFile<PlanVerdict>], policy: &PolicyReport, style: &Style) -> io::Result<()> {
    let mut buf = Vec::new();
    table_unfitted(&mut buf, items, policy, style)?;
    w.write_all(style.fit_lines(&String::from_utf8_lossy(&buf)).as_bytes())
}

fn table_unfitted(w: &mut dyn Write, items: &[PerFile<PlanVerdict>], policy: &PolicyReport, style: &Style) -> io::Result<()> {
    for item in items {
        match &item.result {
            Ok(v) => {
                let (word, tone) = if v.passed() { ("pass", Tone::Good) } else { ("FAIL", Tone::Bad) };
                let n = match (v.errors(), v.warnings) {
                    (0, 0) => String::new(),
                    (0, w) => format!(" ({w} warning(s))"),
                    (e, w) => format!(" ({e} violation(s){})", warnings_also(w)),
                };
                writeln!(
                    w,
                    "{} {}",
                    style.paint(&format!("== {} ==", line(&item.file)), Tone::Bold),
                    style.paint(&format!("{word}{n}"), tone)
                )?;
                writeln!(w, "{}", v.plan_line)?;
                if let Some(n) = crate::query::noise::NoiseCount::line_of(v.noise.as_ref()) {
                    writeln!(w, "{}", line(&n))?;
                }
                if !v.violations.is_empty() {
                    // A severity column only when some violation is a warning.
                    let severities = v.warnings > 0;
                    // `file:line` of each violation, when the configuration was read (--locations).
                    let located = v.violations.iter().any(|x| x.location.is_some());
                    let rows = v
                        .violations
                        .iter()
                        .map(|x| {
                            let mut row = vec![
                                line(rule_name(&x.rule)).into_owned(),
                                line(address_or_dash(x)).into_owned(),
                                style.paint(&line(&x.action), crate::render::action_tone(&x.action)),
                                line(&x.reason).into_owned(),
                            ];
                            if severities {
                                let tone = if x.severity == Severity::Error { Tone::Bad } else { Tone::Warn };
                                row.insert(0, style.paint(x.severity.as_str(), tone));
                            }
                            if located {
                                row.push(x.location.as_ref().map_or_else(|| "-".to_string(), |l| line(&l.to_string()).into_owned()));
                            }
                            row
                        })
                        .collect();
                    let head: &[&str] = match (severities, located) {
                        (true, true) => &["severity", "rule", "address", "action", "reason", "declared at"],
                        (true, false) => &["severity", "rule", "address", "action", "reason"],
                        (false, true) => &["rule", "address", "action", "reason", "declared at"],
                        (false, false) => &["rule", "address", "action", "reason"],
                    };
                    writeln!(w, "{}", style.table(head, rows))?;
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
