//! `--format json`: one JSON document (schemas in `schemas/`).

use super::{Answer, Ctx, Renderer};
use crate::render::{diff, gate, show, summary};
use std::io::{self, Write};

pub(super) struct Json;

impl Renderer for Json {
    fn render(&self, answer: &Answer<'_, '_>, _: &Ctx, w: &mut dyn Write) -> io::Result<()> {
        match answer {
            Answer::Summary { items, .. } => summary::json_out(w, items),
            Answer::Gate { items, policy, .. } => gate::json_out(w, items, policy),
            Answer::Show(items) => show::json_items(w, items),
            Answer::Question(reports) => reports.json(w),
            Answer::Diff(report) => diff::json(w, report),
        }
    }
}
