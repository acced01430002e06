//! `--format junit`: JUnit XML (`gate`).

use super::{not_offered, Answer, Ctx, Renderer};
use crate::render::gate;
use std::io::{self, Write};

pub(super) struct Junit;

impl Renderer for Junit {
    fn render(&self, answer: &Answer<'_, '_>, _: &Ctx, w: &mut dyn Write) -> io::Result<()> {
        match answer {
            Answer::Gate { items, .. } => gate::junit_out(w, items),
            _ => Err(not_offered("junit")),
        }
    }
}
