//! Renders `replace` reports as a terminal table, markdown or JSON.

use super::report::{cell_lines, Head, Named, Report};
use super::{md_cell, md_code, Shortened, Style, Tone};
use crate::model::ReplaceOrder;
use crate::query::dependents::Dependent;
use crate::query::replace::{ReplaceReport, Replacement};
use crate::query::values::truncate;
use crate::sanitize::line;
use std::io::{self, Write};

const TABLE_WIDTH: usize = 40;
const MD_WIDTH: usize = 120;
/// Where a value cut short in the table is whole.
const WHOLE: &str = "`planview show --address ADDR` (or `--format json`)";

/// `5 resources replaced (4 destroy then create, 1 create before destroy).`
pub(crate) fn verdict(r: &ReplaceReport) -> String {
    match r.count {
        0 => "Nothing is replaced.".into(),
        n => format!(
            "{} replaced ({} destroy then create, {} create before destroy).",
            if n == 1 { "1 resource".to_string() } else { format!("{n} resources") },
            r.delete_before_create,
            r.create_before_destroy
        ),
    }
}

fn order_cell(r: &Replacement) -> String {
    match r.order {
        ReplaceOrder::DeleteBeforeCreate => "-/+ destroy then create".into(),
        ReplaceOrder::CreateBeforeDestroy => "+/- create before destroy".into(),
    }
}

/// `also changes 1 object` / `also changes 7 objects`; with `maybe`
/// dependents reached only through locals, `..., and maybe 2 more through
/// locals` (`may change 2 objects through locals` when none is certain).
pub(crate) fn also_changes(n: usize, maybe: usize) -> String {
    let objects = |n: usize| format!("{n} {}", if n == 1 { "object" } else { "objects" });
    match (n, maybe) {
        (n, 0) => format!("also changes {}", objects(n)),
        (0, m) => format!("may change {} through locals", objects(m)),
        (n, m) => format!("also changes {}, and maybe {m} more through locals", objects(n)),
    }
}

/// One dependent in words: its address, and the attributes the plan says
/// become unknown because of the replacement (or that it is a guess).
pub(crate) fn dependent_words(d: &Dependent) -> String {
    let mut notes = Vec::new();
    if !d.unknown.is_empty() {
        notes.push(format!("{} known after apply", d.unknown.join(", ")));
    }
    if d.through_locals {
        notes.push("maybe: only through a local".to_string());
    }
    if notes.is_empty() {
        d.address.clone()
    } else {
        format!("{} ({})", d.address, notes.join("; "))
    }
}

fn counts(x: &Replacement) -> (usize, usize) {
    let maybe = x.dependents.iter().filter(|d| d.through_locals).count();
    (x.dependents.len() - maybe, maybe)
}

/// What each replacement drags along, after the table (nothing when no
/// replacement has dependents), and the note said once.
fn blast_lines(r: &ReplaceReport, w: &mut dyn Write, style: &Style) -> io::Result<()> {
    for x in r.replacements.iter().filter(|x| !x.dependents.is_empty()) {
        writeln!(w)?;
        let (n, maybe) = counts(x);
        writeln!(w, "{} {}:", style.paint(&line(&x.address), Tone::Bold), also_changes(n, maybe))?;
        for d in &x.dependents {
            writeln!(w, "  {}", line(&dependent_words(d)))?;
        }
    }
    if let Some(note) = &r.dependents_note {
        writeln!(w)?;
        writeln!(w, "{}", style.paint(&format!("note: {note}"), Tone::Muted))?;
    }
    Ok(())
}

fn details(r: &Replacement) -> Vec<String> {
    let mut d = vec![r.reason_words.clone()];
    if let Some(p) = &r.previous_address {
        d.push(format!("moved from {p}"));
    }
    if let Some(k) = &r.deposed {
        d.push(format!("deposed object {k}"));
    }
    if r.importing {
        d.push("imported, then replaced: the imported object will be destroyed".into());
    }
    d
}

impl Named for ReplaceReport {
    fn set_file(&mut self, file: &str) {
        self.file = file.to_string();
    }
}

impl Report for ReplaceReport {
    fn head(&self) -> Head<'_> {
        Head::new(&self.file, "plan", &self.terraform_version, &self.format_version, self.errored)
    }

    fn verdict(&self) -> String {
        verdict(self)
    }

    fn is_empty(&self) -> bool {
        self.replacements.is_empty()
    }

    fn table_rows(&self, w: &mut dyn Write, style: &Style) -> io::Result<()> {
        let short = Shortened::default();
        let rows = self
            .replacements
            .iter()
            .map(|r| {
                let paths: Vec<&str> = r.paths.iter().map(|p| p.path.as_str()).collect();
                let values: Vec<String> = r
                    .paths
                    .iter()
                    .map(|p| format!("{} -> {}", short.cell(p.before.text(), TABLE_WIDTH), short.cell(p.after.text(), TABLE_WIDTH)))
                    .collect();
                vec![
                    style.paint(&order_cell(r), Tone::Replace),
                    cell_lines(&[&r.address]),
                    cell_lines(&details(r)),
                    cell_lines(&paths),
                    values.join("\n"),
                ]
            })
            .collect();
        writeln!(w, "{}", style.value_table(&["order", "address", "reason", "forced by", "before -> after"], rows, &short, WHOLE))?;
        blast_lines(self, w, style)
    }

    fn markdown_rows(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "| order | address | reason | forced by | before | after |")?;
        writeln!(w, "|---|---|---|---|---|---|")?;
        for r in &self.replacements {
            let head = format!("| {} | {} | {} |", md_cell(&order_cell(r)), md_code(&r.address), md_cell(&details(r).join("; ")));
            if r.paths.is_empty() {
                writeln!(w, "{head} | | |")?;
                continue;
            }
            for (i, p) in r.paths.iter().enumerate() {
                let lead = if i == 0 { head.as_str() } else { "| | | |" };
                writeln!(
                    w,
                    "{lead} {} | {} | {} |",
                    md_code(&p.path),
                    md_code(&truncate(p.before.text(), MD_WIDTH)),
                    md_code(&truncate(p.after.text(), MD_WIDTH))
                )?;
            }
        }
        for x in self.replacements.iter().filter(|x| !x.dependents.is_empty()) {
            writeln!(w)?;
            let (n, maybe) = counts(x);
            writeln!(w, "{} {}:", md_code(&x.address), also_changes(n, maybe))?;
            writeln!(w)?;
            for d in &x.dependents {
                let words = dependent_words(d);
                let notes = words.strip_prefix(d.address.as_str()).unwrap_or("");
                writeln!(w, "- {}{}", md_code(&d.address), md_cell(notes))?;
            }
        }
        if let Some(note) = &self.dependents_note {
            writeln!(w)?;
            writeln!(w, "_Note: {}_", md_cell(note))?;
        }
        Ok(())
    }
}
