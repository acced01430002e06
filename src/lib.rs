//! planview: reads `tofu show -json` / `terraform show -json` output and answers
//! what a plan will do, or what a state holds.
//!
//! `main.rs` parses arguments into a [`cli::Config`] and calls [`run`]; every
//! query is a pure function in [`query`], every format a renderer in [`render`].

pub mod cli;
pub mod error;
pub mod input;
pub mod model;
pub mod query;
pub mod render;
pub mod sanitize;
pub mod stream;

use cli::{CommandKind, Config};
use error::{Error, InputError};
use input::Source;
use query::values::Visibility;
use render::{Format, Style};
use std::io::Write;

/// One input's result.
#[derive(Debug)]
pub struct PerFile<T> {
    pub file: String,
    pub result: Result<T, InputError>,
}

/// How a run that produced its output ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Everything read, nothing failed.
    Success,
    /// A gate or check failed (exit 1).
    Failed,
}

/// Read every input, apply `f` to each parsed document, keep per-file results.
/// Unreadable inputs are kept as errors so the others are still reported.
pub fn each_input<T>(
    inputs: &[Source],
    mut f: impl FnMut(&input::Document<'_>) -> Result<T, String>,
) -> Vec<PerFile<T>> {
    inputs
        .iter()
        .map(|src| {
            let name = src.name();
            let result = input::read(src)
                .and_then(|bytes| {
                    let doc = input::parse(&name, &bytes)?;
                    f(&doc).map_err(|m| InputError::new(&name, m))
                });
            PerFile { file: name, result }
        })
        .collect()
}

/// Run one command. Output goes to `out`; the caller maps the outcome to an exit code.
pub fn run(config: &Config, out: &mut dyn Write) -> Result<Status, Error> {
    let style = Style::new(config.color);
    let vis = Visibility { show_sensitive: config.show_sensitive };
    match config.command {
        CommandKind::Summary => {
            let items = config.inputs.iter().map(|src| summary_of(src, &vis));
            let items: Vec<PerFile<query::summary::Summary>> = items
                .into_iter()
                .map(|mut i| {
                    if let Ok(s) = &mut i.result {
                        s.set_file(&i.file);
                    }
                    i
                })
                .collect();
            let all_failed = items.iter().all(|i| i.result.is_err());
            // A single unreadable input prints nothing on stdout: no partial answer.
            if !(all_failed && config.format != Format::Json && items.len() == 1) {
                match config.format {
                    Format::Table => render::summary::table_out(out, &items, &style)?,
                    Format::Markdown => render::summary::markdown_out(out, &items)?,
                    Format::Json => render::summary::json_out(out, &items)?,
                }
            }
            finish(items.iter().map(|i| &i.result))
        }
    }
}

/// `summary` of one input, streamed (see [`stream`]): memory stays bounded
/// whatever the size, for a file as for a pipe.
fn summary_of(src: &Source, vis: &Visibility) -> PerFile<query::summary::Summary> {
    let name = src.name();
    let result = input::open(src).and_then(|r| summary_streamed(&name, r, vis));
    PerFile { file: name, result }
}

/// `summary` of a document streamed from `src` (see [`stream`]): a plan's
/// changes are counted as they arrive and dropped; a state is summarised from
/// the skeleton (which holds its `values`).
pub fn summary_streamed(name: &str, src: impl std::io::Read + Send + 'static, vis: &Visibility) -> Result<query::summary::Summary, InputError> {
    let mut acc = query::summary::PlanAccumulator::default();
    let skeleton = stream::stream(name, src, &mut acc)?;
    // Positions in the skeleton are not positions in the input: drop them.
    let doc = input::parse(name, skeleton.as_bytes()).map_err(|e| InputError { line: None, column: None, ..e })?;
    match &doc {
        input::Document::Plan(p) => {
            stream::visit_rest(p, &mut acc);
            Ok(query::summary::Summary::Plan(acc.finish(p)))
        }
        input::Document::State(_) => query::summary::summarize(&doc, vis).map_err(|m| InputError::new(name, m)),
    }
}

/// Success unless some input failed, in which case every failure is returned.
fn finish<'a, T: 'a>(results: impl Iterator<Item = &'a Result<T, InputError>>) -> Result<Status, Error> {
    let errs: Vec<InputError> = results.filter_map(|r| r.as_ref().err().cloned()).collect();
    if errs.is_empty() {
        Ok(Status::Success)
    } else {
        Err(Error::Input(errs))
    }
}
