//! Renders `outputs` reports as a terminal table, markdown or JSON.

use super::report::{Head, Named, Report};
use super::{action_tone, md_cell, md_code, Shortened, Style, Tone};
use crate::query::outputs::{OutputChange, OutputsReport, PlanOutputs, StateOutputs};
use crate::query::values::truncate;
use crate::sanitize::line;
use std::io::{self, Write};

const TABLE_WIDTH: usize = 80;
const MD_WIDTH: usize = 120;
/// Where a value cut short in the table is whole.
const WHOLE: &str = "`--format json`";

/// What to show for a change: the new value for a create, the old one for a
/// delete, `before -> after` otherwise (a no-op shows its value once), each
/// side shortened by `short`.
pub(crate) fn change_text(o: &OutputChange, short: &dyn Fn(&str) -> String) -> String {
    let (b, a) = (short(o.before.text()), short(o.after_partly.as_deref().unwrap_or(o.after.text())));
    match o.action.as_str() {
        "create" => a,
        "delete" => b,
        "no-op" if o.before == o.after => a,
        _ => format!("{b} -> {a}"),
    }
}

/// A type in Terraform's syntax (`list(string)`), empty when the plan gives none.
fn type_text(t: Option<&serde_json::value::RawValue>) -> String {
    t.map(|t| crate::query::type_expr::type_text(t.get())).unwrap_or_default()
}

fn plan_verdict(p: &PlanOutputs) -> String {
    if p.outputs.is_empty() {
        return "Outputs: none in this plan.".into();
    }
    format!("Outputs: {}.", super::counts_line(&p.counts, super::plain))
}

fn plan_rows(p: &PlanOutputs, w: &mut dyn Write, style: &Style) -> io::Result<()> {
    let short = Shortened::default();
    let rows = p
        .outputs
        .iter()
        .map(|o| {
            vec![
                line(&o.name).into_owned(),
                style.paint(&line(&o.action), action_tone(&o.action)),
                line(&type_text(o.type_.as_deref())).into_owned(),
                change_text(o, &|s| short.cell(s, TABLE_WIDTH)),
            ]
        })
        .collect();
    writeln!(w, "{}", style.value_table(&["output", "action", "type", "value"], rows, &short, WHOLE))
}

fn state_rows(s: &StateOutputs, w: &mut dyn Write, style: &Style) -> io::Result<()> {
    let short = Shortened::default();
    let rows = s
        .outputs
        .iter()
        .map(|o| {
            let v = short.cell(&o.display_value(), TABLE_WIDTH);
            let v = if o.masked { style.paint(&v, Tone::Muted) } else { v };
            vec![line(&o.name).into_owned(), line(&o.display_type()).into_owned(), v]
        })
        .collect();
    writeln!(w, "{}", style.value_table(&["output", "type", "value"], rows, &short, WHOLE))?;
    // OpenTofu's `deprecated` on state outputs.
    for o in &s.outputs {
        if let Some(d) = &o.deprecated {
            writeln!(w, "{}", style.paint(&format!("output {} is deprecated: {}", line(&o.name), line(d)), Tone::Warn))?;
        }
    }
    Ok(())
}

impl Named for OutputsReport {
    fn set_file(&mut self, file: &str) {
        OutputsReport::set_file(self, file);
    }
}

impl Report for OutputsReport {
    /// A state's outputs never errored.
    fn head(&self) -> Head<'_> {
        match self {
            OutputsReport::Plan(p) => Head::new(&p.file, "plan", &p.terraform_version, &p.format_version, p.errored),
            OutputsReport::State(s) => Head::new(&s.file, "state", &s.terraform_version, &s.format_version, false),
        }
    }

    fn verdict(&self) -> String {
        match self {
            OutputsReport::Plan(p) => plan_verdict(p),
            OutputsReport::State(s) => format!("Outputs: {} in this state.", s.outputs.len()),
        }
    }

    fn is_empty(&self) -> bool {
        match self {
            OutputsReport::Plan(p) => p.outputs.is_empty(),
            OutputsReport::State(s) => s.outputs.is_empty(),
        }
    }

    fn table_rows(&self, w: &mut dyn Write, style: &Style) -> io::Result<()> {
        match self {
            OutputsReport::Plan(p) => plan_rows(p, w, style),
            OutputsReport::State(s) => state_rows(s, w, style),
        }
    }

    fn markdown_rows(&self, w: &mut dyn Write) -> io::Result<()> {
        match self {
            OutputsReport::Plan(p) => {
                writeln!(w, "| output | action | type | value |")?;
                writeln!(w, "|---|---|---|---|")?;
                for o in &p.outputs {
                    writeln!(
                        w,
                        "| {} | {} | {} | {} |",
                        md_code(&o.name),
                        md_cell(&o.action),
                        md_cell(&truncate(&type_text(o.type_.as_deref()), 40)),
                        md_code(&change_text(o, &|s| truncate(s, MD_WIDTH)))
                    )?;
                }
                Ok(())
            }
            OutputsReport::State(s) => {
                writeln!(w, "| output | type | value |")?;
                writeln!(w, "|---|---|---|")?;
                for o in &s.outputs {
                    writeln!(
                        w,
                        "| {} | {} | {} |",
                        md_code(&o.name),
                        md_cell(&truncate(&o.display_type(), 40)),
                        md_code(&truncate(&o.display_value(), MD_WIDTH))
                    )?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::outputs::outputs;
    use crate::query::values::Visibility;

    #[test]
    fn unknown_output_action_is_escaped_in_the_counts_line() {
        let plan = r#"{"format_version":"1.2","output_changes":{"o":{"actions":["update\u001b]8;;http://x\u0007"],"before":1,"after":2}}}"#;
        let doc = crate::read::parse("p", plan.as_bytes()).unwrap();
        let r = outputs(&doc, &Visibility::default()).unwrap();
        let mut out = Vec::new();
        r.table(&mut out, &Style::default()).unwrap();
        assert_eq!(crate::sanitize::terminal_hazard(&out, false), None);
        assert!(String::from_utf8(out).unwrap().contains("1 update\\x1B]8;;http://x\\x07"));
    }
}
