//! One renderer per output format (hyperfine's `export/`): each file turns a
//! command's [`Answer`] into its format. Adding a format is one variant of
//! [`Format`] and one file here.

mod github;
mod gitlab;
mod json;
mod junit;
mod markdown;
mod table;
// Code review formats: findings on their source lines.
mod codequality;
mod sarif;

use super::fit::DEFAULT_MAX_BYTES;
use super::report::Reports;
use super::{Format, Style};
use crate::outcome::PerFile;
use crate::query::gate::{PlanVerdict, PolicyReport};
use crate::query::intent::DiffReport;
use crate::query::roots::RootRow;
use crate::query::summary::Summary;
use std::io::{self, Write};

/// What a command answers, one report per input (or the one comparison of
/// `diff`), ready for any format.
pub(crate) enum Answer<'a, 'r> {
    Summary {
        items: &'a [PerFile<Summary>],
        roots: Roots<'a>,
    },
    Gate {
        items: &'a [PerFile<PlanVerdict>],
        policy: &'a PolicyReport,
        roots: Roots<'a>,
    },
    /// Each input's report, its resources built as they are written.
    Show(&'a [crate::render::show::Item<'r>]),
    /// `drift`, `replace`, `checks`, `outputs`, `state`.
    Question(&'a dyn Reports),
    Diff(&'a DiffReport),
}

/// The table of roots that opens `summary` and `gate` when there are several
/// inputs: the rows shown, and how many `--skip-unchanged` hid.
#[derive(Default)]
pub(crate) struct Roots<'a> {
    pub rows: Vec<&'a RootRow>,
    pub hidden: usize,
    /// Whether there are several inputs (else no table).
    pub several: bool,
}

/// How every format is drawn: the terminal style, and the cap on markdown.
pub(crate) struct Ctx {
    pub style: Style,
    pub max_bytes: usize,
}

impl Default for Ctx {
    fn default() -> Self {
        Ctx { style: Style::default(), max_bytes: DEFAULT_MAX_BYTES }
    }
}

/// A format's renderer.
trait Renderer {
    fn render(&self, answer: &Answer<'_, '_>, ctx: &Ctx, w: &mut dyn Write) -> io::Result<()>;
}

impl Format {
    fn renderer(self) -> &'static dyn Renderer {
        match self {
            Format::Table => &table::Table,
            Format::Json => &json::Json,
            Format::Markdown => &markdown::Markdown,
            Format::Gitlab => &gitlab::Gitlab,
            Format::Github => &github::Github,
            Format::Junit => &junit::Junit,
            Format::Sarif => &sarif::Sarif,
            Format::GitlabCodequality => &codequality::Codequality,
        }
    }
}

/// Write `answer` in `format`; `single_error` says the run had one input and
/// it could not be read, when the formats meant for people print nothing (the
/// error on stderr says it all). JSON always prints (its `error` object; so does
/// GitLab's report, which is JSON too), and
/// so do the CI formats and the gate's markdown (a PR comment saying the gate
/// could not judge).
pub(crate) fn write(format: Format, answer: &Answer<'_, '_>, single_error: bool, ctx: &Ctx, w: &mut dyn Write) -> io::Result<()> {
    let prints = match format {
        Format::Json | Format::Gitlab | Format::Github | Format::Junit | Format::Sarif | Format::GitlabCodequality => true,
        Format::Markdown => matches!(answer, Answer::Gate { .. }),
        Format::Table => false,
    };
    if single_error && !prints {
        return Ok(());
    }
    format.renderer().render(answer, ctx, w)
}

/// A format a command does not offer (the command line refuses it first).
fn not_offered(format: &str) -> io::Error {
    io::Error::other(format!("--format {format} is not offered by this command"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::InputError;
    use crate::query::gate::{Policy, PolicyReport};
    use clap::ValueEnum;

    fn unreadable<T>() -> Vec<PerFile<T>> {
        vec![PerFile { file: "p.json".into(), result: Err(InputError::new("p.json", "not JSON")), masker: Default::default() }]
    }

    fn rendered(format: Format, answer: &Answer<'_, '_>, single_error: bool) -> io::Result<String> {
        let mut out = Vec::new();
        write(format, answer, single_error, &Ctx::default(), &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn one_unreadable_input_prints_nothing_for_people_but_json_and_ci_formats_say_so() {
        let summaries: Vec<PerFile<Summary>> = unreadable();
        let verdicts: Vec<PerFile<PlanVerdict>> = unreadable();
        let policy: PolicyReport = Policy::default().describe();
        let summary = Answer::Summary { items: &summaries, roots: Roots::default() };
        let gate = Answer::Gate { items: &verdicts, policy: &policy, roots: Roots::default() };
        for format in [Format::Table, Format::Markdown] {
            assert_eq!(rendered(format, &summary, true).unwrap(), "", "summary {format:?}");
        }
        assert_eq!(rendered(Format::Table, &gate, true).unwrap(), "");
        // GitLab's report is JSON: its error object, as `--format json` prints it.
        for format in [Format::Json, Format::Gitlab] {
            let json = rendered(format, &summary, true).unwrap();
            let v: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!((&v["file"], &v["error"]["message"]), (&"p.json".into(), &"not JSON".into()), "{format:?}: {json}");
        }
        for format in [Format::Json, Format::Markdown, Format::Github, Format::Junit] {
            let text = rendered(format, &gate, true).unwrap();
            assert!(text.contains("p.json"), "gate {format:?}: {text}");
        }
        // Not silenced when the inputs were several: the error is reported in place.
        let table = rendered(Format::Table, &summary, false).unwrap();
        assert!(table.contains("not JSON"), "{table}");
    }

    #[test]
    fn every_format_has_a_renderer_and_refuses_answers_it_does_not_render() {
        let summaries: Vec<PerFile<Summary>> = unreadable();
        let summary = Answer::Summary { items: &summaries, roots: Roots::default() };
        for format in Format::value_variants() {
            let r = rendered(*format, &summary, false);
            match format {
                Format::Github | Format::Junit | Format::Sarif | Format::GitlabCodequality => {
                    assert!(r.unwrap_err().to_string().contains("not offered"), "{format:?}")
                }
                _ => assert!(r.is_ok(), "{format:?}"),
            }
        }
    }
}
