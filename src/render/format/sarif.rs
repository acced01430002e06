//! `--format sarif`: SARIF 2.1.0 for code scanning (`gate`; `checks` renders it in `app`).

use super::{not_offered, Answer, Ctx, Renderer};
use crate::render::{findings, sarif};
use std::io::{self, Write};

pub(super) struct Sarif;

impl Renderer for Sarif {
    fn render(&self, answer: &Answer<'_, '_>, _: &Ctx, w: &mut dyn Write) -> io::Result<()> {
        match answer {
            Answer::Gate { items, .. } => sarif::write(w, &findings::of_gate(items)),
            _ => Err(not_offered("sarif")),
        }
    }
}
