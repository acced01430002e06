//! `--format markdown`: a pull-request comment, within `--max-bytes`.

use super::{Answer, Ctx, Renderer};
use crate::render::fit::{fit, Block};
use crate::render::{diff, gate, roots, show, summary};
use std::io::{self, Write};

pub(super) struct Markdown;

/// `blocks` with the table of roots after the first (the heading), fitted.
fn with_roots(w: &mut dyn Write, mut blocks: Vec<Block>, r: &super::Roots<'_>, max_bytes: usize) -> io::Result<()> {
    if r.several {
        let at = blocks.len().min(1);
        blocks.splice(at..at, roots::markdown(&r.rows, r.hidden));
    }
    w.write_all(fit(&blocks, max_bytes).as_bytes())
}

impl Renderer for Markdown {
    fn render(&self, answer: &Answer<'_, '_>, ctx: &Ctx, w: &mut dyn Write) -> io::Result<()> {
        match answer {
            Answer::Summary { items, roots } => with_roots(w, summary::markdown_blocks(items), roots, ctx.max_bytes),
            Answer::Gate { items, policy, roots } => with_roots(w, gate::markdown_blocks(items, policy), roots, ctx.max_bytes),
            Answer::Show(items) => show::markdown_items(w, items, ctx.max_bytes),
            Answer::Question(reports) => reports.markdown(w),
            Answer::Diff(report) => diff::markdown(w, report),
        }
    }
}
