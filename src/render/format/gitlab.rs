//! `--format gitlab`: GitLab's `artifacts:reports:terraform` file (`summary`).

use super::{not_offered, Answer, Ctx, Renderer};
use crate::render::summary;
use std::io::{self, Write};

pub(super) struct Gitlab;

impl Renderer for Gitlab {
    fn render(&self, answer: &Answer<'_, '_>, _: &Ctx, w: &mut dyn Write) -> io::Result<()> {
        match answer {
            Answer::Summary { items, .. } => summary::gitlab_out(w, items),
            _ => Err(not_offered("gitlab")),
        }
    }
}
