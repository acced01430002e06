//! The frame the question commands (`drift`, `replace`, `checks`, `outputs`,
//! `state`) share: one report per input, unreadable inputs reported in place,
//! the same headings, and the JSON shape (one object, or `{"files": [...]}`).

use super::{md_code, write_json, JsonInputError, Style, Tone};
use crate::outcome::PerFile;
use crate::sanitize::line;
use serde::Serialize;
use std::io::{self, Write};

/// A report that can be written in every format.
pub(crate) trait Report: Serialize {
    /// Record the input's name (reports are computed before it is known).
    fn set_file(&mut self, file: &str);
    /// The terminal table, heading included.
    fn table(&self, w: &mut dyn Write, style: &Style) -> io::Result<()>;
    /// The markdown, heading included.
    fn markdown(&self, w: &mut dyn Write) -> io::Result<()>;
}

/// A report that records the name of its input (reports are computed
/// before it is known).
pub(crate) trait Named {
    fn set_file(&mut self, file: &str);
}

impl<T: Report> Named for T {
    fn set_file(&mut self, file: &str) {
        Report::set_file(self, file);
    }
}

impl Named for crate::query::summary::Summary {
    fn set_file(&mut self, file: &str) {
        crate::query::summary::Summary::set_file(self, file);
    }
}

impl Named for crate::query::gate::PlanVerdict {
    fn set_file(&mut self, file: &str) {
        self.file = file.to_string();
    }
}

impl Named for crate::query::show::ShowReport {
    fn set_file(&mut self, file: &str) {
        self.file = file.to_string();
    }
}

/// The heading line of a table report:
/// `== FILE (plan · terraform 1.11.4 · format 1.2) ==`.
pub(crate) fn heading(w: &mut dyn Write, style: &Style, file: &str, document: &str, tf: Option<&str>, fv: &str) -> io::Result<()> {
    let tf = tf.map(|v| format!(" · terraform {}", line(v))).unwrap_or_default();
    writeln!(w, "{}", style.paint(&format!("== {} ({document}{tf} · format {}) ==", line(file), line(fv)), Tone::Bold))
}

/// The markdown heading: `### `FILE` — TITLE`.
pub(crate) fn md_heading(w: &mut dyn Write, file: &str, title: &str) -> io::Result<()> {
    writeln!(w, "### {} — {title}", md_code(file))?;
    writeln!(w)
}

/// The errored-plan banner, for tables.
pub(crate) fn errored_banner(w: &mut dyn Write, style: &Style) -> io::Result<()> {
    writeln!(
        w,
        "{}",
        style.paint(
            "!! PLAN ERRORED: planning failed and this plan cannot be applied; only what was planned before the error is here",
            Tone::Bad
        )
    )
}

/// The errored-plan banner, for markdown.
pub(crate) fn md_errored_banner(w: &mut dyn Write) -> io::Result<()> {
    writeln!(w, "> [!CAUTION]\n> **This plan errored** and cannot be applied. Only what was planned before the error is here.\n")
}

/// Lines of text as one table cell: each line sanitised, joined by newlines.
pub(crate) fn cell_lines<S: AsRef<str>>(lines: &[S]) -> String {
    lines.iter().map(|l| line(l.as_ref()).into_owned()).collect::<Vec<_>>().join("\n")
}

#[derive(Serialize)]
#[serde(untagged)]
enum JsonItem<'a, T: Serialize> {
    Ok(&'a T),
    Err(JsonInputError<'a>),
}

#[derive(Serialize)]
struct JsonMany<'a, T: Serialize> {
    files: Vec<JsonItem<'a, T>>,
}

/// The reports of one question command, one per input, as the format
/// renderers ([`super::format`]) see them: object safe, so one `Answer`
/// variant holds any command's.
pub(crate) trait Reports {
    /// Every report's table, an unreadable input's error in its place.
    fn table(&self, w: &mut dyn Write, style: &Style) -> io::Result<()>;
    /// Every report's markdown, an unreadable input's error in its place.
    fn markdown(&self, w: &mut dyn Write) -> io::Result<()>;
    /// One JSON object, or `{"files": [...]}` for several inputs.
    fn json(&self, w: &mut dyn Write) -> io::Result<()>;
}

impl<T: Report> Reports for Vec<PerFile<T>> {
    fn json(&self, w: &mut dyn Write) -> io::Result<()> {
        let list: Vec<JsonItem<T>> = self
            .iter()
            .map(|i| match &i.result {
                Ok(r) => JsonItem::Ok(r),
                Err(e) => JsonItem::Err(JsonInputError::new(e)),
            })
            .collect();
        if list.len() == 1 {
            write_json(w, &list[0])
        } else {
            write_json(w, &JsonMany { files: list })
        }
    }

    fn table(&self, w: &mut dyn Write, style: &Style) -> io::Result<()> {
        for (i, item) in self.iter().enumerate() {
            if i > 0 {
                writeln!(w)?;
            }
            match &item.result {
                Ok(r) => {
                    let mut buf = Vec::new();
                    r.table(&mut buf, style)?;
                    w.write_all(style.fit_lines(&String::from_utf8_lossy(&buf)).as_bytes())?;
                }
                Err(e) => {
                    writeln!(w, "{}", style.paint(&format!("== {} ==", line(&item.file)), Tone::Bold))?;
                    writeln!(w, "{} {}: {}", style.paint("error:", Tone::Bad), line(&e.location()), line(&e.message))?;
                    if let Some(hint) = &e.hint {
                        writeln!(w, "  hint: {}", line(hint))?;
                    }
                }
            }
        }
        Ok(())
    }

    fn markdown(&self, w: &mut dyn Write) -> io::Result<()> {
        for (i, item) in self.iter().enumerate() {
            if i > 0 {
                writeln!(w)?;
            }
            match &item.result {
                Ok(r) => r.markdown(w)?,
                Err(e) => {
                    writeln!(w, "### :x: {}", md_code(&item.file))?;
                    writeln!(w)?;
                    writeln!(w, "**Could not be read:** {}", super::md_error(e))?;
                }
            }
        }
        Ok(())
    }
}
