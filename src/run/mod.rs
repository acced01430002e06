//! The answer half of the one pipeline: each command is one query over the
//! documents [`crate::read::pool`] reads, giving one [`Answer`], which the
//! format's renderer ([`render::format`]) writes to the output as it renders.

use crate::config::{self, CommandKind, Config};
use crate::error::Error;
use crate::outcome::{PerFile, Status};
use crate::read::pool as pipeline;
use crate::read::{self, Source};
use crate::render::format::{Answer, Ctx, Roots};
use crate::render::report::Named;
use crate::{model, query, render, sanitize, secrets};
use std::io::Write;

pub(crate) mod comment;
pub(crate) mod compare;
mod gate;
mod locating;
mod moves;
mod questions;
mod schemas;
pub(crate) mod show;
pub(crate) mod streamed;
mod summary;
mod tail;
mod tee;

pub use tail::verdict_over_output;
use tail::{finish, scrub_error, Sink};

/// Run one command. Output goes to `out` as it is rendered, warnings (what
/// `--lenient` skipped) to `diag` as `planview: warning: ...` lines; the
/// caller maps the outcome to an exit code (and prints the error, if any).
///
/// Secrets are masked by meaning: the queries mask the values and the text
/// they take from the input (import ids, check messages, map keys) with the
/// input's secrets; planview's own text (addresses, keys, syntax) is never
/// rewritten. Warnings and errors, which quote the input, are sanitised and
/// masked as text from the input.
pub fn run(config: &Config, out: &mut dyn Write, diag: &mut dyn Write) -> Result<Status, Error> {
    let mut masker = secrets::Masker::default();
    let mut sink = Sink::new(out);
    let status = execute(config, &mut sink, &mut masker);
    let written = match sink.take_error() {
        Some(e) => Err(e),
        None => Ok(()),
    };
    // Built only when there is a warning or an error to scrub: the matcher of
    // every secret's every form costs as much as reading a plan full of them.
    let scrubber = std::cell::OnceCell::new();
    let scrubber = || scrubber.get_or_init(|| (!config.show_sensitive).then(|| masker.scrubber())).as_ref();
    let files: Vec<String> = config.inputs.iter().map(Source::name).collect();
    for note in config.read.notes.take_ordered(&files) {
        let text = format!("planview: warning: {}\n", sanitize::line(&note));
        let bytes = match scrubber() {
            Some(s) => s.scrub(text.as_bytes()).into_owned(),
            None => text.into_bytes(),
        };
        // A closed stderr changes nothing: the verdict is on stdout and the exit code.
        let _ = diag.write_all(&bytes);
    }
    // Errors quote the input (keys of a document that is not a plan, a failing
    // `show -json`'s stderr): they are scrubbed of the other inputs' secrets too.
    let status = status.map_err(|e| match scrubber() {
        Some(s) => scrub_error(e, s),
        None => e,
    });
    verdict_over_output(status, written)
}

/// The one dispatch: each command's query, then its answer rendered.
fn execute(config: &Config, out: &mut Sink<'_>, masker: &mut secrets::Masker) -> Result<Status, Error> {
    // Directories become the plans below them; inputs holding several
    // documents are split when read.
    let roots = read::expand(&config.inputs, &config.find, &config.read.notes);
    // Every input's secrets mask every output of the run: with several
    // inputs, a first pass collects them all.
    let seeded;
    let config = match first_pass(config, &roots) {
        Some(seed) => {
            seeded = config::Config { read: read::ReadOptions { seed, ..config.read.clone() }, ..config.clone() };
            &seeded
        }
        None => config,
    };
    let read = &config.read;
    match &config.command {
        CommandKind::Summary { skip_unchanged, ignore_attr } => summary::summary(config, &roots, *skip_unchanged, ignore_attr, out, masker),
        CommandKind::Gate(opts) => gate::gate(config, opts, &roots, out, masker),
        CommandKind::Drift { all } => questions::drift(config, &roots, *all, out, masker),
        CommandKind::Replace => questions::replace(config, &roots, out, masker),
        CommandKind::Checks { all, no_fail } => questions::checks(config, &roots, *all, *no_fail, out, masker),
        CommandKind::Outputs => questions::outputs(config, &roots, out, masker),
        CommandKind::State { prior } => questions::state(config, &roots, *prior, out, masker),
        CommandKind::Show(show) => {
            // With the provider schemas when given (or fetched for a saved plan).
            let with = schemas::with_schemas(show, read, &roots)?;
            let show = with.as_ref().unwrap_or(show);
            // Streamed: shown changes spooled, each diffed and written once every secret is known.
            let style = render::Style::new(config.color).with_forge(config.forge.clone());
            let run =
                show::ShowRun { roots: &roots, read, show, format: config.format, style: &style, show_sensitive: config.show_sensitive };
            show::show_with(&run, Some(config), out, masker)
        }
        CommandKind::Moves(moves) => moves::moves(config, moves, out, masker),
        CommandKind::Diff => compare::run_diff(config, out, masker, &ctx(config)),
        CommandKind::Fingerprint(format) => compare::run_fingerprint(config, *format, out, masker),
        // Masks piece by piece itself (see `comment`).
        CommandKind::Comment(opts) => comment::run_comment(config, opts, out),
        CommandKind::Text(text) => print(text, out),
    }
}

/// `completions` and `man`: the text the command line made, as it is.
fn print(text: &[u8], out: &mut Sink<'_>) -> Result<Status, Error> {
    let written = out.write_all(text);
    out.written(written)?;
    Ok(Status::Success)
}

/// The secrets of every input, when the run has several inputs whose
/// secrets could show in each other's output ([`pipeline::secrets_of`]);
/// `None` when there is one input (its own secrets are known as it is
/// read), when sensitive values are shown anyway, for commands that read
/// one plan or compare two (`diff` masks by both plans' secrets as it
/// renders), and when an input cannot be read twice (stdin, a pipe, a saved
/// plan: each document is then masked by its own secrets).
/// `comment` reads its inputs whole anyway: one regular file holding several
/// documents gets the first pass too.
fn first_pass(config: &Config, roots: &[read::Root]) -> Option<secrets::Seed> {
    use CommandKind as C;
    let reads_several = match &config.command {
        C::Summary { .. } | C::Gate(_) | C::Drift { .. } | C::Replace | C::Checks { .. } | C::Outputs | C::State { .. } | C::Show(_) => {
            roots.len() > 1
        }
        C::Comment(_) => !roots.is_empty(),
        C::Moves(_) | C::Diff | C::Fingerprint(_) | C::Text(_) => false,
    };
    if config.show_sensitive || !reads_several || !roots.iter().all(|r| r.problem.is_none() && compare::rereadable(&r.source)) {
        return None;
    }
    let secrets = pipeline::secrets_of(roots, &config.read);
    (!secrets.is_empty()).then(|| secrets.seed())
}

/// `query` over the inputs; when it met several documents (a stream of
/// them in one input: the first pass of [`first_pass`] is for several
/// inputs) and one lacks secrets another has, it runs again with every
/// document's secrets known to each, if the inputs can be read again (a
/// regular file). One document, or documents with the same secrets, cost one run.
fn across<T>(
    config: &Config,
    roots: &[read::Root],
    read: &read::ReadOptions,
    query: impl Fn(&read::ReadOptions) -> Vec<PerFile<T>>,
) -> Vec<PerFile<T>> {
    let items = query(read);
    if config.show_sensitive || items.len() < 2 || read.seed.0.is_some() {
        return items;
    }
    let mut all = secrets::Masker::default();
    items.iter().for_each(|i| all.merge(&i.masker));
    let covered = items.iter().all(|i| i.result.is_err() || i.masker.len() == all.len());
    if covered || !roots.iter().all(|r| r.problem.is_none() && compare::rereadable(&r.source)) {
        return items;
    }
    // What reading warned of was said by the first run.
    query(&read::ReadOptions { seed: all.seed(), notes: read::Notes::default(), ..read.clone() })
}

/// Keep no change text: the query needs only the skeleton.
fn keep_none(_: bool, _: usize, _: usize, _: &model::ResourceChange<'_>) -> bool {
    false
}

/// Free `t` on a thread of its own: the answers of many roots are many small
/// allocations, and the run ends without waiting for them to be freed.
fn dispose<T: Send + 'static>(t: T) {
    // If no thread can be had, the closure, and `t` with it, is dropped here.
    let _ = std::thread::Builder::new().spawn(move || drop(t));
}

/// Name each report after its input (reports are computed before it is known).
fn named<T: Named>(mut items: Vec<PerFile<T>>) -> Vec<PerFile<T>> {
    for i in &mut items {
        if let Ok(r) = &mut i.result {
            r.set_file(&i.file);
        }
    }
    items
}

/// The drawing settings of `config`.
fn ctx(config: &Config) -> Ctx {
    Ctx { style: render::Style::new(config.color).with_width(config.width).with_forge(config.forge.clone()), max_bytes: config.max_bytes }
}

/// The table of roots, when there are several inputs.
fn roots_table(rows: &[query::roots::RootRow], inputs: usize, skip_unchanged: bool) -> Roots<'_> {
    let (rows, hidden) = query::roots::shown(rows, skip_unchanged);
    Roots { rows, hidden, several: inputs > 1 }
}

/// A question command's reports rendered, then its status.
fn question<T: crate::render::report::Report>(
    config: &Config,
    out: &mut Sink<'_>,
    masker: &mut secrets::Masker,
    items: Vec<PerFile<T>>,
) -> Result<Vec<PerFile<T>>, Error> {
    answer(config, out, masker, &items, &Answer::Question(&items))?;
    finish(&items)?;
    Ok(items)
}

/// Render `answer` in the config's format and settings ([`tail::answer`]).
fn answer<T>(
    config: &Config,
    out: &mut Sink<'_>,
    masker: &mut secrets::Masker,
    items: &[PerFile<T>],
    answer: &Answer<'_, '_>,
) -> Result<(), Error> {
    tail::answer(config.format, &ctx(config), items, answer, out, masker)
}
