//! planview: reads `tofu show -json` / `terraform show -json` output and answers
//! what a plan will do, or what a state holds.
//!
//! `main.rs` parses arguments into a [`cli::Config`] and calls [`run`]; every
//! query is a pure function in [`query`], every format a renderer in [`render`].

pub mod cli;
pub mod comment;
pub mod compare;
pub mod error;
pub mod escape;
pub mod filter;
pub mod glob;
pub mod input;
pub mod mask;
pub mod model;
pub mod progress;
pub mod query;
pub mod render;
pub mod roots;
pub mod sanitize;
pub mod scan;
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
///
/// Inputs are read, parsed and their secrets collected in parallel, a few at a
/// time (as many as there are cores, at most [`MAX_PARALLEL`]); `f` runs on
/// each in input order. Results keep the order of `inputs`.
///
/// Saved binary plans are read with the options from the environment; commands
/// use [`each_input_with`] and `config.read` so `--tf-bin`/`--chdir` apply.
pub fn each_input<T>(inputs: &[Source], f: impl FnMut(&input::Document<'_>, &mask::Masker) -> Result<T, String>) -> Vec<PerFile<T>> {
    each_input_with(inputs, &input::ReadOptions::from_env(), f)
}

/// [`each_input`], reading saved binary plans with `show -json` as `show` says.
pub fn each_input_with<T>(
    inputs: &[Source],
    show: &input::ReadOptions,
    mut f: impl FnMut(&input::Document<'_>, &mask::Masker) -> Result<T, String>,
) -> Vec<PerFile<T>> {
    let width = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, MAX_PARALLEL);
    let mut out = Vec::with_capacity(inputs.len());
    for chunk in inputs.chunks(width) {
        let bytes: Vec<Result<Vec<u8>, InputError>> = parallel(chunk, |src| input::read_with(src, show));
        let pairs: Vec<(&Source, &Result<Vec<u8>, InputError>)> = chunk.iter().zip(&bytes).collect();
        let parsed = parallel(&pairs, |(src, bytes)| {
            let bytes = bytes.as_ref().map_err(Clone::clone)?;
            let doc = input::parse_with(&src.name(), bytes, show)?;
            let masker = mask::Masker::collect(&doc);
            Ok::<_, InputError>((doc, masker))
        });
        for (src, p) in chunk.iter().zip(parsed) {
            let name = src.name();
            out.push(match p {
                Ok((doc, masker)) => {
                    let result = f(&doc, &masker).map_err(|m| InputError::new(&name, m));
                    PerFile { file: name, result, masker }
                }
                Err(e) => PerFile { file: name, result: Err(e), masker: mask::Masker::default() },
            });
        }
    }
    out
}

/// [`each_input_with`] over roots ([`roots::expand`]): each root is read
/// whole, split into its documents ([`roots::split_whole`]: an input holding
/// several is several results, `NAME#1`, `NAME#2`, ...), and each document
/// parsed. Results keep the order of `roots`, then of documents.
pub fn each_root_with<T>(
    roots: &[roots::Root],
    show: &input::ReadOptions,
    mut f: impl FnMut(&input::Document<'_>, &mask::Masker) -> Result<T, String>,
) -> Vec<PerFile<T>> {
    let width = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(1, MAX_PARALLEL);
    let mut out = Vec::with_capacity(roots.len());
    for chunk in roots.chunks(width) {
        let bytes: Vec<Result<Vec<u8>, InputError>> = parallel(chunk, |root| match &root.problem {
            Some(e) => Err(e.clone()),
            None => input::read_with(&root.source, &root.options(show)).map_err(|e| InputError { file: root.name.clone(), ..e }),
        });
        // Every document of the chunk, with the name it is reported under.
        let mut docs: Vec<(String, DocBytes<'_>)> = Vec::new();
        for (root, bytes) in chunk.iter().zip(&bytes) {
            let parts = match bytes {
                Ok(b) => roots::split_whole(&root.name, b, show),
                Err(e) => {
                    docs.push((root.name.clone(), Err(e.clone())));
                    continue;
                }
            };
            let n = parts.len();
            let mut seen = std::collections::HashSet::new();
            for (k, part) in parts.into_iter().enumerate() {
                let mut name = match part.name {
                    _ if n == 1 => root.name.clone(),
                    Some(dir) => dir,
                    None => format!("{}#{}", root.name, k + 1),
                };
                if !seen.insert(name.clone()) {
                    name = format!("{name}#{}", k + 1);
                }
                let bytes = part.bytes.map_err(|e| InputError { file: name.clone(), ..e });
                docs.push((name, bytes));
            }
        }
        let refs: Vec<(&str, Result<&[u8], &InputError>)> =
            docs.iter().map(|(name, bytes)| (name.as_str(), bytes.as_ref().map(|b| b.as_ref()))).collect();
        for batch in refs.chunks(width) {
            let parsed = parallel(batch, |&(name, bytes)| {
                let bytes = bytes.map_err(Clone::clone)?;
                let doc = input::parse_with(name, bytes, show)?;
                let masker = mask::Masker::collect(&doc);
                Ok::<_, InputError>((doc, masker))
            });
            for ((name, _), p) in batch.iter().zip(parsed) {
                out.push(match p {
                    Ok((doc, masker)) => {
                        let result = f(&doc, &masker).map_err(|m| InputError::new(name, m));
                        PerFile { file: name.to_string(), result, masker }
                    }
                    Err(e) => PerFile { file: name.to_string(), result: Err(e), masker: mask::Masker::default() },
                });
            }
        }
    }
    out
}

/// One document's bytes, or why they cannot be read.
type DocBytes<'a> = Result<std::borrow::Cow<'a, [u8]>, InputError>;

/// How many inputs [`each_input`] reads at once, at most.
pub const MAX_PARALLEL: usize = 8;

/// `f` over `items`, one scoped thread each when there are several; results in order.
fn parallel<I: Sync, R: Send>(items: &[I], f: impl Fn(&I) -> R + Sync) -> Vec<R> {
    if items.len() < 2 {
        return items.iter().map(&f).collect();
    }
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> = items.iter().map(|i| s.spawn(move || f(i))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    })
}

/// Run one command. Output goes to `out`, warnings (what `--lenient` skipped)
/// to `diag` as `planview: warning: ...` lines; the caller maps the outcome to
/// an exit code (and prints the error, if any).
///
/// Secrets are masked by meaning: the queries mask the values and the text
/// they take from the input (import ids, check messages, map keys) with the
/// input's secrets, and the output is written as rendered: planview's own
/// text (addresses, keys, syntax) is never rewritten. Warnings and errors,
/// which quote the input, are sanitised and masked as text from the input.
pub fn run(config: &Config, out: &mut dyn Write, diag: &mut dyn Write) -> Result<Status, Error> {
    let mut buf: Vec<u8> = Vec::new();
    let mut masker = mask::Masker::default();
    let status = run_into(config, &mut buf, &mut masker);
    let scrubber = (!config.show_sensitive).then(|| masker.scrubber());
    let emit = |w: &mut dyn Write, b: &[u8]| match &scrubber {
        Some(s) => w.write_all(&s.scrub(b)),
        None => w.write_all(b),
    };
    let files: Vec<String> = config.inputs.iter().map(Source::name).collect();
    let mut written = Ok(());
    for note in config.read.notes.take_ordered(&files) {
        written = written.and_then(|_| emit(diag, format!("planview: warning: {}\n", sanitize::line(&note)).as_bytes()));
    }
    let written = written.and_then(|_| out.write_all(&buf));
    // Errors quote the input (keys of a document that is not a plan, a failing
    // `show -json`'s stderr): they are scrubbed of the other inputs' secrets too.
    let status = status.map_err(|e| match &scrubber {
        Some(s) => scrub_error(e, s),
        None => e,
    });
    verdict_over_output(status, written)
}

/// The outcome of a run whose output was written with `written`: a failure to
/// write never hides a failing verdict or an input error (a reader that went
/// away early, `planview gate plan.json | head -1`, must not turn exit 1 into
/// 0). Only a run that succeeded reports the write error, which `main` maps to
/// exit 0 for a broken pipe.
pub fn verdict_over_output(status: Result<Status, Error>, written: std::io::Result<()>) -> Result<Status, Error> {
    match (status, written) {
        (status, Ok(())) => status,
        (Ok(Status::Success), Err(e)) => Err(Error::Output(e)),
        (Ok(Status::Failed), Err(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(Status::Failed),
        // Any other write error on a failing verdict is exit 2: still not a pass.
        (Ok(Status::Failed), Err(e)) => Err(Error::Output(e)),
        (Err(e), Err(_)) => Err(e),
    }
}

/// `e` with every secret the scrubber knows masked in its messages and hints.
fn scrub_error(e: Error, s: &mask::Scrubber) -> Error {
    let text = |t: String| String::from_utf8_lossy(&s.scrub(t.as_bytes())).into_owned();
    match e {
        Error::Usage(m) => Error::Usage(text(m)),
        Error::Input(errs) => {
            Error::Input(errs.into_iter().map(|e| InputError { message: text(e.message), hint: e.hint.map(text), ..e }).collect())
        }
        other => other,
    }
}

fn run_into(config: &Config, out: &mut Vec<u8>, masker: &mut mask::Masker) -> Result<Status, Error> {
    let style = Style::new(config.color);
    let vis = Visibility { show_sensitive: config.show_sensitive, masker: None };
    // Directories become the plans below them; inputs holding several
    // documents are split when read.
    let roots = roots::expand(&config.inputs, &config.find);
    match &config.command {
        CommandKind::Summary { skip_unchanged } => {
            // Streamed, not read whole: bounded memory on plans of any size.
            let items = roots::stream_roots(&roots, &config.read, &|name, r, ahead, read| summary_streamed(name, r, ahead, read, &vis));
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
                // Several roots: a table of them first (one row per root).
                let rows = query::roots::of_summaries(&items);
                let (shown, hidden) = query::roots::shown(&rows, *skip_unchanged);
                match config.format {
                    Format::Table => {
                        if items.len() > 1 {
                            render::roots::table(out, &shown, hidden, &style_for(config))?;
                        }
                        render::summary::table_out(out, &items, &style_for(config))?
                    }
                    Format::Markdown => {
                        let mut blocks = render::summary::markdown_blocks(&items);
                        if items.len() > 1 {
                            let at = blocks.len().min(1);
                            blocks.splice(at..at, render::roots::markdown(&shown, hidden));
                        }
                        out.extend_from_slice(render::fit::fit(&blocks, config.max_bytes).as_bytes());
                    }
                    Format::Json => render::summary::json_out(out, &items)?,
                    Format::Gitlab => render::summary::gitlab_out(out, &items)?,
                }
            }
            finish(items.iter().map(|i| &i.result))
        }
        CommandKind::Moves(moves) => {
            if config.inputs.len() != 1 {
                return Err(Error::Usage("`moves` reads one plan".into()));
            }
            let opts = &moves.options;
            let mut items = each_input_with(&config.inputs, &config.read, |doc, _| {
                let version = match doc {
                    input::Document::Plan(p) => p.terraform_version.clone(),
                    input::Document::State(s) => s.terraform_version.clone(),
                };
                query::moves::find_moves(doc, opts).map(|r| (r, version))
            });
            let item = items.remove(0);
            masker.merge(&item.masker);
            match item.result {
                Ok((mut report, version)) => {
                    let shown_by = config.read.shown_by.get(&item.file);
                    let mv = render::moves::StateMv::choose(shown_by.as_deref(), version.as_deref(), &report);
                    report.file = item.file;
                    render::moves::write_with(out, &report, moves.format, &mv)?;
                    Ok(Status::Success)
                }
                Err(e) => Err(Error::Input(vec![e])),
            }
        }
        CommandKind::Drift { all } => {
            let opts = query::drift::DriftOptions { filter: &config.filter, all: *all };
            // Every drift entry; of the changes, the first (a plan without any
            // reads as refresh-only) and one that is not a plain no-op (the
            // CLI shows drift only when the plan changes something): at most two.
            let keep = |drift: bool, i: usize, kept: usize, rc: &model::ResourceChange<'_>| {
                drift || i == 0 || (kept < 2 && (rc.kind() != model::ChangeKind::NoOp || rc.is_move()))
            };
            let items = run_streamed_report(config, out, masker, keep, |doc, vis| query::drift::drift(doc, &opts, vis))?;
            finish(items.iter().map(|i| &i.result))
        }
        CommandKind::Replace => {
            let keep = |drift: bool, _: usize, _: usize, rc: &model::ResourceChange<'_>| {
                !drift && matches!(rc.kind(), model::ChangeKind::Replace(_)) && config.filter.matches_change(rc)
            };
            let items = run_streamed_report(config, out, masker, keep, |doc, vis| query::replace::replace(doc, &config.filter, vis))?;
            finish(items.iter().map(|i| &i.result))
        }
        CommandKind::Checks { all, no_fail } => {
            let opts = query::checks::ChecksOptions { filter: &config.filter, all: *all };
            let items =
                run_streamed_report(config, out, masker, |_, _, _, _| false, |doc, vis| Ok(query::checks::checks(doc, &opts, vis)))?;
            let status = finish(items.iter().map(|i| &i.result))?;
            let failed = items.iter().any(|i| matches!(&i.result, Ok(r) if r.failed));
            Ok(if failed && !*no_fail { Status::Failed } else { status })
        }
        CommandKind::Outputs => {
            let items = run_streamed_report(config, out, masker, |_, _, _, _| false, query::outputs::outputs)?;
            finish(items.iter().map(|i| &i.result))
        }
        CommandKind::State { prior } => {
            let opts = query::state::StateOptions { filter: &config.filter, prior: *prior };
            let items = if *prior {
                // Streamed: a plan's `prior_state` is collected as it passes, never held whole.
                let items = roots::stream_roots(&roots, &config.read, &|name, r, ahead, read| {
                    query::state::state_of_stream(name, r, ahead, read, &opts)
                });
                report_items(config, out, masker, query::state::settle(items))?
            } else {
                run_report(config, out, masker, |doc, _| query::state::state(doc, &opts))?
            };
            finish(items.iter().map(|i| &i.result))
        }
        CommandKind::Show(show) => {
            let opts = &show.options;
            let items = each_root_with(&roots, &config.read, |doc, masker| query::show::show(doc, opts, &vis.with(masker)));
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
                    Format::Markdown => render::show::markdown_out(out, &items, show.max_bytes)?,
                    Format::Json | Format::Gitlab => render::show::json_out(out, &items)?,
                }
            }
            finish(items.iter().map(|i| &i.result))
        }
        CommandKind::Gate(opts) => run_gate(config, opts, &roots, out, masker),
        CommandKind::Diff => compare::run_diff(config, out, masker),
        CommandKind::Fingerprint => compare::run_fingerprint(config, out, masker),
        // Masks piece by piece itself: no secrets for `run` to scrub again (see `comment`).
        CommandKind::Comment(opts) => comment::run_comment(config, opts, out),
        CommandKind::Completions(shell) => {
            cli::write_completions(*shell, out);
            Ok(Status::Success)
        }
        CommandKind::Man(page) => {
            cli::write_man(page.as_deref(), out)?;
            Ok(Status::Success)
        }
    }
}

/// Stream one document from `src` through `visitor` (and the secret
/// collector), then answer from the visitor and the skeleton document (which
/// holds everything but the streamed parts, see [`stream::stream`]). A plan's
/// changes are seen (and their secrets collected) as they arrive, then
/// dropped; the rest of the plan is fed to the visitor from the skeleton.
pub fn stream_one<V: stream::PlanVisitor, T>(
    name: &str,
    src: impl std::io::Read + Send + 'static,
    ahead: stream::ReadAhead,
    opts: &input::ReadOptions,
    visitor: V,
    answer: impl FnOnce(V, input::Document<'_>, &mask::Masker) -> Result<T, String>,
) -> Result<(T, mask::Masker), InputError> {
    let mut both = (visitor, mask::Masker::default());
    let skeleton = stream::stream(name, src, ahead, opts, &mut both)?;
    // Positions in the skeleton are not positions in the input: drop them.
    let doc = input::parse(name, skeleton.as_bytes()).map_err(|e| InputError { line: None, column: None, ..e })?;
    let (mut visitor, mut masker) = both;
    // Output changes, sensitive variables (the skeleton keeps `configuration`), a state's values.
    masker.merge(&mask::Masker::collect(&doc));
    if let input::Document::Plan(p) = &doc {
        stream::visit_rest(p, &mut visitor);
    }
    answer(visitor, doc, &masker).map(|t| (t, masker)).map_err(|m| InputError::new(name, m))
}

/// `summary` of a document streamed from `src` ([`stream_one`]): a plan is
/// counted as it streams by; a state is summarised from the skeleton, which
/// holds its `values`.
pub fn summary_streamed(
    name: &str,
    src: impl std::io::Read + Send + 'static,
    ahead: stream::ReadAhead,
    opts: &input::ReadOptions,
    vis: &Visibility,
) -> Result<(query::summary::Summary, mask::Masker), InputError> {
    stream_one(name, src, ahead, opts, query::summary::PlanAccumulator::default(), |acc, doc, masker| match doc {
        input::Document::Plan(p) => {
            let mut s = acc.finish(&p);
            s.mask_inputs(&vis.with(masker));
            Ok(query::summary::Summary::Plan(Box::new(s)))
        }
        input::Document::State(_) => query::summary::summarize(&doc, &vis.with(masker)),
    })
}

/// The gate's verdict on a document streamed from `src` ([`stream_one`]).
pub fn gate_streamed(
    name: &str,
    src: impl std::io::Read + Send + 'static,
    ahead: stream::ReadAhead,
    opts: &input::ReadOptions,
    policy: &query::gate::Policy,
    show_sensitive: bool,
) -> Result<(query::gate::PlanVerdict, mask::Masker), InputError> {
    stream_one(name, src, ahead, opts, query::gate::GateJudge::new(policy), |judge, doc, masker| match doc {
        input::Document::Plan(_) => {
            let none = mask::Masker::default();
            Ok(judge.finish(if show_sensitive { &none } else { masker }))
        }
        input::Document::State(_) => Err(NOT_A_PLAN.to_string()),
    })
}

/// Why the gate refuses a state.
const NOT_A_PLAN: &str = "this is a state, not a plan: the gate judges plans (`tofu show -json PLANFILE`)";

/// The style of terminal output: colour and the width tables fit.
fn style_for(config: &Config) -> Style {
    Style::new(config.color).with_width(config.width)
}

/// Read a `--policy` file; any problem is an input error (exit 2), never a pass.
pub fn load_policy(path: &std::path::Path) -> Result<query::gate::PolicyFile, Error> {
    let name = path.display().to_string();
    let bytes = input::read(&Source::File(path.to_path_buf())).map_err(|e| Error::Input(vec![e]))?;
    let text = std::str::from_utf8(&bytes).map_err(|_| Error::Input(vec![InputError::new(&name, "policy is not valid UTF-8")]))?;
    query::gate::PolicyFile::parse(text).map_err(|(msg, at)| {
        let mut e = InputError::new(&name, msg).hint("see schemas/gate-policy.schema.json for the keys and values a policy takes");
        if let Some((l, c)) = at {
            e = e.at(l, c);
        }
        Error::Input(vec![e])
    })
}

fn run_gate(
    config: &Config,
    opts: &cli::GateOptions,
    roots: &[roots::Root],
    out: &mut Vec<u8>,
    masker: &mut mask::Masker,
) -> Result<Status, Error> {
    use render::gate::GateFormat;
    let mut policy = opts.policy.clone();
    if let Some(path) = &opts.policy_file {
        policy.merge_file(&load_policy(path)?);
    }
    let items: Vec<PerFile<query::gate::PlanVerdict>> = if policy.expect_fingerprint.is_some() {
        // The fingerprint is computed over the plan read whole (`query::intent`).
        each_root_with(roots, &config.read, |doc, m| match doc {
            input::Document::Plan(p) => {
                let none = mask::Masker::default();
                let shown = if config.show_sensitive { &none } else { m };
                Ok(query::gate::evaluate_with(p, &policy, Some(&compare::fingerprint_of(p, m)), shown))
            }
            input::Document::State(_) => Err(NOT_A_PLAN.to_string()),
        })
    } else {
        // Streamed, not read whole: bounded memory on plans of any size.
        let show_sensitive = config.show_sensitive;
        roots::stream_roots(roots, &config.read, &|name, r, ahead, read| gate_streamed(name, r, ahead, read, &policy, show_sensitive))
    };
    let items: Vec<PerFile<query::gate::PlanVerdict>> = items
        .into_iter()
        .map(|mut i| {
            if let Ok(v) = &mut i.result {
                v.file = i.file.clone();
            }
            i
        })
        .collect();
    items.iter().for_each(|i| masker.merge(&i.masker));
    let report = policy.describe();
    let style = style_for(config);
    let single_failed = items.len() == 1 && items[0].result.is_err();
    let rows = query::roots::of_verdicts(&items);
    let (shown, hidden) = query::roots::shown(&rows, opts.skip_unchanged);
    match opts.format {
        // A single unreadable input: the error on stderr says it all.
        GateFormat::Table if single_failed => {}
        GateFormat::Table => {
            if items.len() > 1 {
                render::roots::table(out, &shown, hidden, &style)?;
            }
            render::gate::table_out(out, &items, &report, &style)?
        }
        GateFormat::Json => render::gate::json_out(out, &items, &report)?,
        GateFormat::Markdown => {
            let mut blocks = render::gate::markdown_blocks(&items, &report);
            if items.len() > 1 {
                let at = blocks.len().min(1);
                blocks.splice(at..at, render::roots::markdown(&shown, hidden));
            }
            out.extend_from_slice(render::fit::fit(&blocks, config.max_bytes).as_bytes());
        }
        GateFormat::Github => render::gate::github_out(out, &items)?,
        GateFormat::Junit => render::gate::junit_out(out, &items)?,
    }
    finish(items.iter().map(|i| &i.result))?;
    if items.iter().any(|i| i.result.as_ref().is_ok_and(|v| !v.passed())) {
        Ok(Status::Failed)
    } else {
        Ok(Status::Success)
    }
}

/// Run one question command: apply `query` to each input read whole, then
/// [`report_items`].
fn run_report<T: render::report::Report>(
    config: &Config,
    out: &mut Vec<u8>,
    masker: &mut mask::Masker,
    mut query: impl FnMut(&input::Document<'_>, &Visibility) -> Result<T, String>,
) -> Result<Vec<PerFile<T>>, Error> {
    let vis = Visibility { show_sensitive: config.show_sensitive, masker: None };
    let roots = roots::expand(&config.inputs, &config.find);
    let items = each_root_with(&roots, &config.read, |doc, m| query(doc, &vis.with(m)));
    report_items(config, out, masker, items)
}

/// Run one question command over each input streamed: `query` answers over
/// the skeleton with the changes and drift `keep` chooses ([`stream::Keep`]),
/// every secret of the input known; then [`report_items`]. Memory is what
/// `keep` keeps, not the input.
fn run_streamed_report<T: render::report::Report + Send>(
    config: &Config,
    out: &mut Vec<u8>,
    masker: &mut mask::Masker,
    keep: impl Fn(bool, usize, usize, &model::ResourceChange<'_>) -> bool + Sync,
    query: impl Fn(&input::Document<'_>, &Visibility) -> Result<T, String> + Sync,
) -> Result<Vec<PerFile<T>>, Error> {
    let vis = Visibility { show_sensitive: config.show_sensitive, masker: None };
    let roots = roots::expand(&config.inputs, &config.find);
    let items = roots::stream_roots(&roots, &config.read, &|name, r, ahead, read| {
        stream_one(name, r, ahead, read, stream::Keep::new(&keep), |kept, doc, m| match doc {
            input::Document::Plan(p) => {
                let mut plan = *p;
                kept.fill(&mut plan)?;
                query(&input::Document::Plan(Box::new(plan)), &vis.with(m))
            }
            state => query(&state, &vis.with(m)),
        })
    });
    report_items(config, out, masker, items)
}

/// Name each report after its input, collect the secrets, and render
/// (nothing on stdout for a single unreadable input, except in JSON).
fn report_items<T: render::report::Report>(
    config: &Config,
    out: &mut Vec<u8>,
    masker: &mut mask::Masker,
    mut items: Vec<PerFile<T>>,
) -> Result<Vec<PerFile<T>>, Error> {
    for i in &mut items {
        if let Ok(r) = &mut i.result {
            r.set_file(&i.file);
        }
    }
    items.iter().for_each(|i| masker.merge(&i.masker));
    let all_failed = items.iter().all(|i| i.result.is_err());
    if !(all_failed && config.format != Format::Json && items.len() == 1) {
        render::report::write(out, config.format, &items, &style_for(config))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_input_keeps_the_order_of_inputs_across_parallel_chunks() {
        let dir = std::env::temp_dir().join(format!("planview-each-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut inputs = Vec::new();
        for i in 0..(MAX_PARALLEL * 2 + 3) {
            let p = dir.join(format!("{i}.json"));
            if i % 4 != 3 {
                let plan =
                    format!(r#"{{"format_version":"1.2","resource_changes":[{{"address":"a.r{i}","change":{{"actions":["create"]}}}}]}}"#);
                std::fs::write(&p, plan).unwrap();
            }
            inputs.push(Source::File(p));
        }
        let mut calls = 0;
        let items = each_input(&inputs, |doc, _| {
            calls += 1;
            match doc {
                input::Document::Plan(p) => Ok(p.resource_changes[0].address.clone()),
                input::Document::State(_) => Err("state".to_string()),
            }
        });
        assert_eq!(items.len(), inputs.len());
        for (i, item) in items.iter().enumerate() {
            assert_eq!(item.file, inputs[i].name());
            match &item.result {
                Ok(a) => assert_eq!(a, &format!("a.r{i}")),
                Err(e) => assert!(i % 4 == 3 && e.message.contains("no such file"), "{i}: {e}"),
            }
        }
        assert_eq!(calls, inputs.len() - inputs.len() / 4);
        std::fs::remove_dir_all(&dir).ok();
    }
}
