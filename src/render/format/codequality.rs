//! `--format gitlab-codequality`: GitLab's Code Quality report (`gate`; `checks` renders it in `app`).

use super::{not_offered, Answer, Ctx, Renderer};
use crate::render::{codequality, findings};
use std::io::{self, Write};

pub(super) struct Codequality;

impl Renderer for Codequality {
    fn render(&self, answer: &Answer<'_, '_>, _: &Ctx, w: &mut dyn Write) -> io::Result<()> {
        match answer {
            Answer::Gate { items, .. } => codequality::write(w, &findings::of_gate(items)),
            _ => Err(not_offered("gitlab-codequality")),
        }
    }
}
