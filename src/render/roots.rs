//! The table of roots that opens `summary` and `gate` reports over several
//! roots ([`crate::query::roots`]), as terminal text and markdown.

use super::fit::Block;
use super::{md_code, Style, Tone};
use crate::query::roots::RootRow;
use crate::sanitize::line;
use std::io::{self, Write};

const HEADER: [&str; 9] = ["root", "add", "change", "destroy", "replace", "import", "drift", "checks not passed", "verdict"];

/// The header in a terminal too narrow for [`HEADER`]'s words (nine columns
/// of them take 79 of 80 columns before a root is named): the CLI's symbols,
/// explained by [`LEGEND`] below the table.
const NARROW: [&str; 9] = ["root", "+", "~", "-", "-/+", "import", "drift", "checks not passed", "verdict"];

/// What [`NARROW`]'s symbols count.
const LEGEND: &str = "+ add · ~ change · - destroy · -/+ replace (also counted in + and -)";

fn num(n: Option<u64>) -> String {
    n.map_or_else(|| "-".to_string(), |n| n.to_string())
}

fn tone(verdict: &str) -> Tone {
    match verdict {
        "pass" | "no changes" => Tone::Good,
        "changes" | "state" => Tone::Warn,
        _ => Tone::Bad,
    }
}

/// The verdict as shown: a failing gate's in capitals, as its headings say.
fn word(verdict: &str) -> &str {
    match verdict {
        "fail" => "FAIL",
        "error" => "ERROR",
        other => other,
    }
}

fn hidden_note(hidden: usize) -> String {
    format!("{hidden} root(s) without changes not shown (--skip-unchanged)")
}

/// The terminal table, then a blank line.
pub(crate) fn table(w: &mut dyn Write, rows: &[&RootRow], hidden: usize, style: &Style) -> io::Result<()> {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                line(&r.root).into_owned(),
                num(r.add),
                num(r.change),
                num(r.destroy),
                num(r.replace),
                num(r.import),
                num(r.drift),
                num(r.checks_not_passed),
                style.paint(word(r.verdict), tone(r.verdict)),
            ]
        })
        .collect();
    writeln!(w, "{}", style.paint(&format!("== {} roots ==", rows.len() + hidden), Tone::Bold))?;
    if !rows.is_empty() {
        let wide = style.table(&HEADER, cells.clone());
        match style.width {
            Some(max) if super::layout::width(&wide) > max => {
                writeln!(w, "{}", style.table(&NARROW, cells))?;
                writeln!(w, "{}", style.paint(LEGEND, Tone::Muted))?;
            }
            _ => writeln!(w, "{wide}")?,
        }
    }
    if hidden > 0 {
        writeln!(w, "{}", hidden_note(hidden))?;
    }
    writeln!(w)
}

/// The markdown table, as blocks whose rows `--max-bytes` may leave out.
pub(crate) fn markdown(rows: &[&RootRow], hidden: usize) -> Vec<Block> {
    let mut blocks = Vec::new();
    if !rows.is_empty() {
        let open = format!("\n| {} |\n|{}\n", HEADER.join(" | "), " --- |".repeat(HEADER.len()));
        let rows = rows
            .iter()
            .map(|r| {
                format!(
                    "| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                    md_code(&r.root),
                    num(r.add),
                    num(r.change),
                    num(r.destroy),
                    num(r.replace),
                    num(r.import),
                    num(r.drift),
                    num(r.checks_not_passed),
                    word(r.verdict)
                )
            })
            .collect();
        blocks.push(Block::Rows { open, rows, close: String::new(), what: "roots".into() });
    }
    if hidden > 0 {
        blocks.push(Block::Keep(format!("\n{}\n", hidden_note(hidden))));
    }
    blocks.push(Block::Keep("\n".into()));
    blocks
}
