//! `gate --format markdown`: a PR comment, verdict first, within `--max-bytes`.

use super::*;

/// The policy in one markdown line.
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

/// The head of a verdict in markdown, shared with `comment`: the heading
/// (`## ICON planview TITLE: verdict line`) with the policy, and a warning for
/// each input that could not be read (empty when there is none).
pub(crate) fn verdict_head<'a>(
    title: &str,
    t: &GateTotal,
    policy: &PolicyReport,
    unreadable: impl Iterator<Item = (&'a str, &'a crate::error::InputError)>,
) -> (String, String) {
    let icon = match overall(t) {
        "pass" => ":white_check_mark:",
        "fail" => ":x:",
        _ => ":warning:",
    };
    let heading = format!("## {icon} {title}: {}\n\n{}", verdict_line(t), policy_md(policy));
    let mut errors = String::new();
    for (file, e) in unreadable {
        let hint = e.hint.as_deref().map(|h| format!(" (hint: {})", md_cell(h))).unwrap_or_default();
        errors.push_str(&format!(
            "\n> [!WARNING]\n> {} could not be read: {}: {}{hint}\n",
            md_code(file),
            md_cell(&e.location()),
            md_cell(&e.message)
        ));
    }
    (heading, errors)
}

/// The markdown report as blocks: the verdict line first, the per-plan table,
/// then the violations in `<details>`.
pub(crate) fn markdown_blocks(items: &[PerFile<PlanVerdict>], policy: &PolicyReport) -> Vec<Block> {
    let t = gate_total(items);
    let unreadable = items.iter().filter_map(|i| i.result.as_ref().err().map(|e| (i.file.as_str(), e)));
    let (heading, errors) = verdict_head("planview gate", &t, policy, unreadable);
    let mut blocks = vec![Block::Keep(heading)];
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
                    match crate::query::noise::NoiseCount::line_of(v.noise.as_ref()) {
                        Some(n) => md_cell(&format!("{} ({n})", v.plan_line)),
                        None => md_cell(&v.plan_line),
                    },
                    match v.warnings {
                        0 => v.errors().to_string(),
                        w => format!("{} (+{w} warning(s))", v.errors()),
                    }
                ),
                Err(_) => format!("| {} | :warning: error | could not be read | - |\n", md_code(&i.file)),
            })
            .collect(),
        close: String::new(),
        what: "plans".into(),
    });
    for severity in [Severity::Error, Severity::Warning] {
        violation_rows(&mut blocks, items, severity);
    }
    blocks
}

/// The violations of one severity in `<details>`: errors, then warnings
/// (below the verdict and the errors, never in their place).
fn violation_rows(blocks: &mut Vec<Block>, items: &[PerFile<PlanVerdict>], severity: Severity) {
    let rows: Vec<String> = items
        .iter()
        .filter_map(|i| i.result.as_ref().ok().map(|v| (&i.file, v)))
        .flat_map(|(file, v)| {
            v.violations.iter().filter(move |x| x.severity == severity).map(move |x| {
                format!(
                    "| {} | {} | {} | {} | {} |\n",
                    md_code(file),
                    md_code(rule_name(&x.rule)),
                    x.address.as_deref().map(|a| with_location(md_code(a), x.location.as_ref())).unwrap_or_else(|| "-".into()),
                    md_cell(&x.action),
                    md_cell(&x.reason)
                )
            })
        })
        .collect();
    let what = match severity {
        Severity::Error => "violations",
        Severity::Warning => "warnings",
    };
    if !rows.is_empty() {
        blocks.push(Block::Rows {
            open: format!(
                "\n<details><summary>{} {}(s)</summary>\n\n| plan | rule | address | action | reason |\n|---|---|---|---|---|\n",
                rows.len(),
                what.trim_end_matches('s')
            ),
            rows,
            close: "\n</details>\n".into(),
            what: what.into(),
        });
    }
}

/// A markdown address cell, followed by where it is declared when known (`main.tf:12`).
pub(crate) fn with_location(cell: String, location: Option<&crate::locate::Location>) -> String {
    match location {
        Some(l) => format!("{cell} at {}", md_code(&l.to_string())),
        None => cell,
    }
}
