//! `--format github`: GitHub Actions workflow commands (`gate`).

use super::{not_offered, Answer, Ctx, Renderer};
use crate::render::gate;
use std::io::{self, Write};

pub(super) struct Github;

impl Renderer for Github {
    fn render(&self, answer: &Answer<'_, '_>, _: &Ctx, w: &mut dyn Write) -> io::Result<()> {
        match answer {
            Answer::Gate { items, .. } => gate::github_out(w, items),
            _ => Err(not_offered("github")),
        }
    }
}
