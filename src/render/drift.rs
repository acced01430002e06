//! Renders `drift` reports as a terminal table, markdown or JSON.

use super::report::{cell_lines, Head, Named, Report};
use super::{action_tone, md_cell, md_code, Shortened, Style};
use crate::query::drift::{DriftEntry, DriftMode, DriftReport};
use crate::query::values::truncate;
use crate::sanitize::line;
use std::io::{self, Write};

const TABLE_WIDTH: usize = 40;
const MD_WIDTH: usize = 120;
/// Where a value cut short in the table is whole (`show` has no drift).
const WHOLE: &str = "`--format json`";

/// The one-line verdict: how many drifted, how many shown, how many hidden.
pub(crate) fn verdict(r: &DriftReport) -> String {
    if r.total == 0 {
        return "No drift: nothing changed outside Terraform.".into();
    }
    let objects = |n: u64| if n == 1 { "1 object".to_string() } else { format!("{n} objects") };
    let filtered = if r.matched < r.total { format!(" ({} matching the filters)", r.matched) } else { String::new() };
    let head = format!("{} changed outside Terraform{filtered}", objects(r.total));
    match r.mode {
        DriftMode::All => format!("{head}; all {} shown.", r.shown),
        DriftMode::RefreshOnly => format!("{head}; refresh-only plan, so all {} shown.", r.shown),
        DriftMode::Relevant if r.hidden == 0 => format!("{head}; {} relevant to this plan, all shown.", r.shown),
        DriftMode::Relevant => {
            format!("{head}; {} relevant to this plan shown, {} hidden as not relevant (--all shows them).", r.shown, r.hidden)
        }
    }
}

fn action_cell(e: &DriftEntry) -> String {
    let sym = match e.action.as_str() {
        "update" => "~",
        "delete" => "-",
        "create" => "+",
        _ => "",
    };
    format!("{sym} {}", e.words).trim_start().to_string()
}

fn hidden_line(e: &DriftEntry) -> Option<String> {
    (e.hidden_attributes > 0).then(|| format!("(+{} not relevant)", e.hidden_attributes))
}

impl Named for DriftReport {
    fn set_file(&mut self, file: &str) {
        self.file = file.to_string();
    }
}

impl Report for DriftReport {
    fn head(&self) -> Head<'_> {
        Head::new(&self.file, "plan", &self.terraform_version, &self.format_version, self.errored)
    }

    fn verdict(&self) -> String {
        verdict(self)
    }

    fn table_lead(&self, w: &mut dyn Write) -> io::Result<()> {
        match &self.note {
            Some(n) => writeln!(w, "note: {}", line(n)),
            None => Ok(()),
        }
    }

    fn markdown_lead(&self, w: &mut dyn Write) -> io::Result<()> {
        match &self.note {
            Some(n) => writeln!(w, "_Note: {}_\n", md_cell(n)),
            None => Ok(()),
        }
    }

    fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn table_rows(&self, w: &mut dyn Write, style: &Style) -> io::Result<()> {
        let short = Shortened::default();
        let rows = self
            .entries
            .iter()
            .map(|e| {
                let mut paths: Vec<String> = e.attributes.iter().map(|a| a.path.clone()).collect();
                let mut values: Vec<String> = e
                    .attributes
                    .iter()
                    .map(|a| format!("{} -> {}", short.cell(a.before.text(), TABLE_WIDTH), short.cell(a.after.text(), TABLE_WIDTH)))
                    .collect();
                if let Some(h) = hidden_line(e) {
                    paths.push(h);
                    values.push(String::new());
                }
                let mut address = vec![e.address.clone()];
                if let Some(k) = &e.deposed {
                    address.push(format!("(deposed object {k})"));
                }
                vec![
                    style.paint(&line(&action_cell(e)), action_tone(&e.action)),
                    cell_lines(&address),
                    cell_lines(&paths),
                    values.join("\n"),
                ]
            })
            .collect();
        writeln!(w, "{}", style.value_table(&["drift", "address", "attribute", "before -> after"], rows, &short, WHOLE))
    }

    fn markdown_rows(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "| drift | address | attribute | before | after |")?;
        writeln!(w, "|---|---|---|---|---|")?;
        for e in &self.entries {
            let what = md_cell(&action_cell(e));
            let addr = md_code(&e.address);
            if e.attributes.is_empty() {
                writeln!(w, "| {what} | {addr} | {} | | |", md_cell(&hidden_line(e).unwrap_or_default()))?;
                continue;
            }
            for (i, a) in e.attributes.iter().enumerate() {
                let (what, addr) = if i == 0 { (what.as_str(), addr.as_str()) } else { ("", "") };
                writeln!(
                    w,
                    "| {what} | {addr} | {} | {} | {} |",
                    md_code(&a.path),
                    md_code(&truncate(a.before.text(), MD_WIDTH)),
                    md_code(&truncate(a.after.text(), MD_WIDTH))
                )?;
            }
            if let Some(h) = hidden_line(e) {
                writeln!(w, "| | | {} | | |", md_cell(&h))?;
            }
        }
        Ok(())
    }
}
