//! `--format table`: the terminal report, coloured and fitted to the width.

use super::{Answer, Ctx, Renderer};
use crate::render::{diff, gate, roots, show, summary, Style};
use std::io::{self, Write};

pub(super) struct Table;

impl Renderer for Table {
    fn render(&self, answer: &Answer<'_, '_>, ctx: &Ctx, w: &mut dyn Write) -> io::Result<()> {
        let style = &ctx.style;
        match answer {
            Answer::Summary { items, roots: r } => {
                if r.several {
                    roots::table(w, &r.rows, r.hidden, style)?;
                }
                summary::table_out(w, items, style)
            }
            Answer::Gate { items, policy, roots: r } => {
                if r.several {
                    roots::table(w, &r.rows, r.hidden, style)?;
                }
                gate::table_out(w, items, policy, style)
            }
            // The diff of values is not fitted: its lines are the CLI's.
            Answer::Show(items) => show::table_items(w, items, &Style::new(style.color)),
            Answer::Question(reports) => reports.table(w, style),
            Answer::Diff(report) => diff::table(w, report, &Style::new(style.color)),
        }
    }
}
