//! planview: reads `tofu show -json` / `terraform show -json` output and answers
//! what a plan will do, or what a state holds.
//!
//! `main.rs` parses arguments into a [`cli::Config`] and calls [`run`]; every
//! query is a pure function in [`query`], every format a renderer in [`render`].

pub mod cli;
pub mod error;
pub mod filter;
pub mod glob;
pub mod input;
pub mod mask;
pub mod model;
pub mod query;
pub mod render;
pub mod sanitize;

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
    /// The secrets of this input (empty when it could not be read).
    pub masker: mask::Masker,
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
    mut f: impl FnMut(&input::Document<'_>, &mask::Masker) -> Result<T, String>,
) -> Vec<PerFile<T>> {
    inputs
        .iter()
        .map(|src| {
            let name = src.name();
            let mut masker = mask::Masker::default();
            let result = input::read(src).and_then(|bytes| {
                let doc = input::parse(&name, &bytes)?;
                masker = mask::Masker::collect(&doc);
                f(&doc, &masker).map_err(|m| InputError::new(&name, m))
            });
            PerFile { file: name, result, masker }
        })
        .collect()
}

/// Run one command. Output goes to `out`; the caller maps the outcome to an exit code.
///
/// The output is rendered whole, then every secret of 8+ characters found in
/// the inputs is scrubbed from it (unless `--show-sensitive`), whatever the
/// command and format.
pub fn run(config: &Config, out: &mut dyn Write) -> Result<Status, Error> {
    let mut buf: Vec<u8> = Vec::new();
    let mut masker = mask::Masker::default();
    let status = run_into(config, &mut buf, &mut masker);
    if config.show_sensitive {
        out.write_all(&buf)?;
    } else {
        out.write_all(&masker.scrubber().scrub(&buf))?;
    }
    status
}

fn run_into(config: &Config, out: &mut Vec<u8>, masker: &mut mask::Masker) -> Result<Status, Error> {
    let style = Style::new(config.color);
    let vis = Visibility { show_sensitive: config.show_sensitive, masker: None };
    match config.command {
        CommandKind::Summary => {
            let items = each_input(&config.inputs, |doc, masker| {
                query::summary::summarize(doc, &vis.with(masker))
            });
            let items: Vec<PerFile<query::summary::Summary>> = items
                .into_iter()
                .map(|mut i| {
                    if let Ok(s) = &mut i.result {
                        s.set_file(&i.file);
                    }
                    i
                })
                .collect();
            items.iter().for_each(|i| masker.merge(&i.masker));
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
        CommandKind::Drift => {
            let opts = query::drift::DriftOptions { filter: &config.filter, all: config.all };
            let items = run_report(config, out, masker, |doc, vis| query::drift::drift(doc, &opts, vis))?;
            finish(items.iter().map(|i| &i.result))
        }
        CommandKind::Replace => {
            let items = run_report(config, out, masker, |doc, vis| query::replace::replace(doc, &config.filter, vis))?;
            finish(items.iter().map(|i| &i.result))
        }
        CommandKind::Checks => {
            let opts = query::checks::ChecksOptions { filter: &config.filter, all: config.all };
            let items = run_report(config, out, masker, |doc, _| Ok(query::checks::checks(doc, &opts)))?;
            let status = finish(items.iter().map(|i| &i.result))?;
            let failed = items.iter().any(|i| matches!(&i.result, Ok(r) if r.failed));
            Ok(if failed && !config.no_fail { Status::Failed } else { status })
        }
        CommandKind::Outputs => {
            let items = run_report(config, out, masker, query::outputs::outputs)?;
            finish(items.iter().map(|i| &i.result))
        }
        CommandKind::State => {
            let opts = query::state::StateOptions { filter: &config.filter, prior: config.prior };
            let items = run_report(config, out, masker, |doc, _| query::state::state(doc, &opts))?;
            finish(items.iter().map(|i| &i.result))
        }
        CommandKind::Show => {
            let opts = &config.show.options;
            let items = each_input(&config.inputs, |doc, masker| query::show::show(doc, opts, &vis.with(masker)));
            let items: Vec<PerFile<query::show::ShowReport>> = items
                .into_iter()
                .map(|mut i| {
                    if let Ok(r) = &mut i.result {
                        r.file = i.file.clone();
                    }
                    i
                })
                .collect();
            items.iter().for_each(|i| masker.merge(&i.masker));
            let all_failed = items.iter().all(|i| i.result.is_err());
            if !(all_failed && config.format != Format::Json && items.len() == 1) {
                match config.format {
                    Format::Table => render::show::table_out(out, &items, &style)?,
                    Format::Markdown => render::show::markdown_out(out, &items, config.show.max_bytes)?,
                    Format::Json => render::show::json_out(out, &items)?,
                }
            }
            finish(items.iter().map(|i| &i.result))
        }
    }
}

/// Run one question command (every command but `summary`): apply `query` to
/// each input, name each report after its input, collect the secrets, and
/// render (nothing on stdout for a single unreadable input, except in JSON).
fn run_report<T: render::report::Report>(
    config: &Config,
    out: &mut Vec<u8>,
    masker: &mut mask::Masker,
    mut query: impl FnMut(&input::Document<'_>, &Visibility) -> Result<T, String>,
) -> Result<Vec<PerFile<T>>, Error> {
    let style = Style::new(config.color);
    let vis = Visibility { show_sensitive: config.show_sensitive, masker: None };
    let mut items = each_input(&config.inputs, |doc, m| query(doc, &vis.with(m)));
    for i in &mut items {
        if let Ok(r) = &mut i.result {
            r.set_file(&i.file);
        }
    }
    items.iter().for_each(|i| masker.merge(&i.masker));
    let all_failed = items.iter().all(|i| i.result.is_err());
    if !(all_failed && config.format != Format::Json && items.len() == 1) {
        render::report::write(out, config.format, &items, &style)?;
    }
    Ok(items)
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
