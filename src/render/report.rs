//! The frame the question commands (`drift`, `replace`, `checks`, `outputs`,
//! `state`) share: one report per input, unreadable inputs reported in place,
//! the same headings, and the JSON shape (one object, or `{"files": [...]}`).

use super::{md_cell, md_code, write_json, JsonInputError, Style, Tone};
use crate::outcome::PerFile;
use crate::sanitize::line;
use serde::Serialize;
use std::io::{self, Write};

/// What opens every report: the input's name, what was read, and whether
/// the plan errored (the banner below the heading).
pub(crate) struct Head<'a> {
    pub(crate) file: &'a str,
    /// What was read, in the table's heading (`plan`, `state`, `plan, prior state`).
    pub(crate) document: &'a str,
    pub(crate) terraform_version: Option<&'a str>,
    pub(crate) format_version: &'a str,
    pub(crate) errored: bool,
}

impl<'a> Head<'a> {
    pub(crate) fn new(
        file: &'a str,
        document: &'a str,
        terraform_version: &'a Option<String>,
        format_version: &'a str,
        errored: bool,
    ) -> Self {
        Head { file, document, terraform_version: terraform_version.as_deref(), format_version, errored }
    }
}

/// A question command's report, written in every format: each command says
/// what is its own (its [`Head`], its verdict, its rows), and the frame is
/// written here once. The table: the heading, the errored banner, the
/// verdict, the lead lines, then (unless [`Report::is_empty`]) a blank line
/// and the rows. The markdown: the heading with the verdict as its title,
/// the banner, the lead lines, then (unless empty) the rows. The JSON is the
/// report itself ([`Reports::json`]).
pub(crate) trait Report: Serialize + Named {
    fn head(&self) -> Head<'_>;
    /// The one-line verdict (`Checks: 1 fail, 7 pass.`).
    fn verdict(&self) -> String;
    /// Whether there are no rows (the report ends after its verdict).
    fn is_empty(&self) -> bool;
    /// The rows of the terminal table (tables and what follows them).
    fn table_rows(&self, w: &mut dyn Write, style: &Style) -> io::Result<()>;
    /// The rows in markdown.
    fn markdown_rows(&self, w: &mut dyn Write) -> io::Result<()>;

    /// The verdict's colour in the table.
    fn tone(&self) -> Tone {
        Tone::Bold
    }
    /// The markdown heading's title: the verdict.
    fn title(&self) -> String {
        md_cell(&self.verdict())
    }
    /// Lines below the table's verdict (a note).
    fn table_lead(&self, _w: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
    /// Lines below the markdown's banner (a note).
    fn markdown_lead(&self, _w: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }

    /// The terminal table, heading included.
    fn table(&self, w: &mut dyn Write, style: &Style) -> io::Result<()> {
        let h = self.head();
        heading(w, style, h.file, h.document, h.terraform_version, h.format_version)?;
        if h.errored {
            errored_banner(w, style)?;
        }
        writeln!(w, "{}", style.paint(&self.verdict(), self.tone()))?;
        self.table_lead(w)?;
        if self.is_empty() {
            return Ok(());
        }
        writeln!(w)?;
        self.table_rows(w, style)
    }

    /// The markdown, heading included.
    fn markdown(&self, w: &mut dyn Write) -> io::Result<()> {
        let h = self.head();
        md_heading(w, h.file, &self.title())?;
        if h.errored {
            md_errored_banner(w)?;
        }
        self.markdown_lead(w)?;
        if self.is_empty() {
            return Ok(());
        }
        self.markdown_rows(w)
    }
}

/// A report that records the name of its input (reports are computed
/// before it is known): every answer, the question reports included.
pub(crate) trait Named {
    fn set_file(&mut self, file: &str);
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
fn heading(w: &mut dyn Write, style: &Style, file: &str, document: &str, tf: Option<&str>, fv: &str) -> io::Result<()> {
    let tf = tf.map(|v| format!(" · terraform {}", line(v))).unwrap_or_default();
    writeln!(w, "{}", style.paint(&format!("== {} ({document}{tf} · format {}) ==", line(file), line(fv)), Tone::Bold))
}

/// The markdown heading: `### `FILE` — TITLE`.
fn md_heading(w: &mut dyn Write, file: &str, title: &str) -> io::Result<()> {
    writeln!(w, "### {} — {title}", md_code(file))?;
    writeln!(w)
}

/// The errored-plan banner, for tables.
fn errored_banner(w: &mut dyn Write, style: &Style) -> io::Result<()> {
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
fn md_errored_banner(w: &mut dyn Write) -> io::Result<()> {
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
