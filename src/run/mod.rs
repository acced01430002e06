//! The answer half of the one pipeline: each command is one query over the
//! documents [`crate::pipeline`] reads, giving one [`Answer`], which the
//! format's renderer ([`render::format`]) writes to the output as it renders.

use crate::config::{self, CommandKind, Config};
use crate::error::{Error, InputError};
use crate::input::{self, Source};
use crate::outcome::{PerFile, Status};
use crate::pipeline::{self, each_root_with};
use crate::query::values::Visibility;
use crate::render::format::{Answer, Ctx, Roots};
use crate::render::report::Named;
use crate::{cli, mask, model, query, render, roots, sanitize, stream};
use std::io::Write;

pub(crate) mod comment;
pub mod compare;
pub mod show;
pub(crate) mod streamed;
mod tail;

use streamed::{gate_streamed, streamed, summary_streamed, NOT_A_PLAN};
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
    let mut masker = mask::Masker::default();
    let mut sink = Sink::new(out);
    let status = execute(config, &mut sink, &mut masker);
    let written = match sink.take_error() {
        Some(e) => Err(e),
        None => Ok(()),
    };
    let scrubber = (!config.show_sensitive).then(|| masker.scrubber());
    let files: Vec<String> = config.inputs.iter().map(Source::name).collect();
    for note in config.read.notes.take_ordered(&files) {
        let text = format!("planview: warning: {}\n", sanitize::line(&note));
        let bytes = match &scrubber {
            Some(s) => s.scrub(text.as_bytes()).into_owned(),
            None => text.into_bytes(),
        };
        // A closed stderr changes nothing: the verdict is on stdout and the exit code.
        let _ = diag.write_all(&bytes);
    }
    // Errors quote the input (keys of a document that is not a plan, a failing
    // `show -json`'s stderr): they are scrubbed of the other inputs' secrets too.
    let status = status.map_err(|e| match &scrubber {
        Some(s) => scrub_error(e, s),
        None => e,
    });
    verdict_over_output(status, written)
}

/// The one dispatch: each command's query, then its answer rendered.
fn execute(config: &Config, out: &mut Sink<'_>, masker: &mut mask::Masker) -> Result<Status, Error> {
    let vis = Visibility { show_sensitive: config.show_sensitive, masker: None };
    // Directories become the plans below them; inputs holding several
    // documents are split when read.
    let roots = roots::expand(&config.inputs, &config.find, &config.read.notes);
    // Every input's secrets mask every output of the run: with several
    // inputs, a first pass collects them all.
    let seeded;
    let config = match first_pass(config, &roots) {
        Some(seed) => {
            seeded = config::Config { read: input::ReadOptions { seed, ..config.read.clone() }, ..config.clone() };
            &seeded
        }
        None => config,
    };
    let read = &config.read;
    match &config.command {
        CommandKind::Summary { skip_unchanged } => {
            // Streamed, not read whole: bounded memory on plans of any size.
            let items = named(across(config, &roots, read, |read| {
                roots::stream_roots(&roots, read, &|name, r, ahead, read| summary_streamed(name, r, ahead, read, &vis))
            }));
            let rows = query::roots::of_summaries(&items);
            let roots = roots_table(&rows, items.len(), *skip_unchanged);
            answer(config, out, masker, &items, &Answer::Summary { items: &items, roots })?;
            let status = finish(&items);
            dispose(items);
            status
        }
        CommandKind::Gate(opts) => gate(config, opts, &roots, out, masker),
        CommandKind::Drift { all } => {
            let opts = query::drift::DriftOptions { filter: &config.filter, all: *all };
            // Every drift entry; of the changes, the first (a plan without any
            // reads as refresh-only) and one that is not a plain no-op (the
            // CLI shows drift only when the plan changes something): at most two.
            let keep = |drift: bool, i: usize, kept: usize, rc: &model::ResourceChange<'_>| {
                drift || i == 0 || (kept < 2 && (rc.kind() != model::ChangeKind::NoOp || rc.is_move()))
            };
            let items = named(across(config, &roots, read, |read| {
                streamed(&roots, read, &vis, keep, |doc, vis| query::drift::drift(doc, &opts, vis))
            }));
            question(config, out, masker, items).map(|_| Status::Success)
        }
        CommandKind::Replace => {
            let keep = |drift: bool, _: usize, _: usize, rc: &model::ResourceChange<'_>| {
                !drift && matches!(rc.kind(), model::ChangeKind::Replace(_)) && config.filter.matches_change(rc)
            };
            let items = named(across(config, &roots, read, |read| {
                streamed(&roots, read, &vis, keep, |doc, vis| query::replace::replace(doc, &config.filter, vis))
            }));
            question(config, out, masker, items).map(|_| Status::Success)
        }
        CommandKind::Checks { all, no_fail } => {
            let opts = query::checks::ChecksOptions { filter: &config.filter, all: *all };
            let sources = start_locating(config);
            let mut items = named(across(config, &roots, read, |read| {
                streamed(&roots, read, &vis, keep_none, |doc, vis| Ok(query::checks::checks(doc, &opts, vis)))
            }));
            if let Some(map) = finish_locating(sources, config, &items) {
                for c in items.iter_mut().filter_map(|i| i.result.as_mut().ok()).flat_map(|r| r.checks.iter_mut()) {
                    c.location = map.locate_check(&c.address, &c.problems);
                }
            }
            let items = if matches!(config.format, render::Format::Sarif | render::Format::GitlabCodequality | render::Format::Github) {
                items.iter().for_each(|i| masker.merge(&i.masker));
                let rendered = render::findings::write_checks(config.format, &items, out);
                out.written(rendered)?;
                finish(&items)?;
                items
            } else {
                question(config, out, masker, items)?
            };
            let failed = items.iter().any(|i| matches!(&i.result, Ok(r) if r.failed));
            Ok(if failed && !*no_fail { Status::Failed } else { Status::Success })
        }
        CommandKind::Outputs => {
            let items = named(across(config, &roots, read, |read| streamed(&roots, read, &vis, keep_none, query::outputs::outputs)));
            question(config, out, masker, items).map(|_| Status::Success)
        }
        CommandKind::State { prior } => {
            let opts = query::state::StateOptions { filter: &config.filter, prior: *prior };
            let items = if *prior {
                // Streamed: a plan's `prior_state` is collected as it passes, never held whole.
                let items =
                    roots::stream_roots(&roots, read, &|name, r, ahead, read| streamed::state_of_stream(name, r, ahead, read, &opts));
                named(query::state::settle(items))
            } else {
                named(each_root_with(&roots, read, |doc, _| query::state::state(doc, &opts)))
            };
            question(config, out, masker, items).map(|_| Status::Success)
        }
        CommandKind::Show(show) => {
            // Streamed: shown changes spooled, each diffed and written once every secret is known.
            let style = render::Style::new(config.color);
            let run =
                show::ShowRun { roots: &roots, read, show, format: config.format, style: &style, show_sensitive: config.show_sensitive };
            show::show(&run, out, masker)
        }
        CommandKind::Moves(moves) => {
            if config.inputs.len() != 1 {
                return Err(Error::Usage("`moves` reads one plan".into()));
            }
            // Streamed: only what could pair (managed deletes and creates) is kept.
            let keep = |drift: bool, _: usize, _: usize, rc: &model::ResourceChange<'_>| !drift && query::moves::could_pair(rc);
            let keep = stream::Keep::new(&keep);
            let item = pipeline::stream_source(&config.inputs[0], read, keep, |kept, doc, _| {
                let input::Document::Plan(p) = doc else { return query::moves::find_moves(&doc, &moves.options).map(|r| (r, None)) };
                let mut plan = *p;
                kept.fill(&mut plan)?;
                let version = plan.terraform_version.clone();
                query::moves::find_moves(&input::Document::Plan(Box::new(plan)), &moves.options).map(|r| (r, version))
            });
            masker.merge(&item.masker);
            if let (Err(e), render::moves::MovesFormat::Json) = (&item.result, moves.format) {
                // As every JSON output: the error object on stdout, the error on stderr.
                let rendered = render::write_json(out, &render::JsonInputError::new(e));
                out.written(rendered)?;
            }
            let (mut report, version) = item.result.map_err(|e| Error::Input(vec![e]))?;
            let shown_by = read.shown_by.get(&item.file);
            let mv = render::moves::StateMv::choose(shown_by.as_deref(), version.as_deref(), &report);
            report.file = item.file;
            let rendered = render::moves::write_with(out, &report, moves.format, &mv);
            out.written(rendered)?;
            Ok(Status::Success)
        }
        CommandKind::Diff => compare::run_diff(config, out, masker, &ctx(config)),
        CommandKind::Fingerprint(format) => compare::run_fingerprint(config, *format, out, masker),
        // Masks piece by piece itself (see `comment`).
        CommandKind::Comment(opts) => comment::run_comment(config, opts, out),
        CommandKind::Completions(shell) => {
            // clap_complete panics on a failed write: the script is written whole, then copied.
            let mut script = Vec::new();
            cli::write_completions(*shell, &mut script);
            let rendered = out.write_all(&script);
            out.written(rendered)?;
            Ok(Status::Success)
        }
        CommandKind::Man(page) => {
            let rendered = cli::write_man(page.as_deref(), out);
            out.written(rendered)?;
            Ok(Status::Success)
        }
    }
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
fn first_pass(config: &Config, roots: &[roots::Root]) -> Option<input::Seed> {
    use CommandKind as C;
    let reads_several = match &config.command {
        C::Summary { .. } | C::Gate(_) | C::Drift { .. } | C::Replace | C::Checks { .. } | C::Outputs | C::State { .. } | C::Show(_) => {
            roots.len() > 1
        }
        C::Comment(_) => !roots.is_empty(),
        C::Moves(_) | C::Diff | C::Fingerprint(_) | C::Completions(_) | C::Man(_) => false,
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
    roots: &[roots::Root],
    read: &input::ReadOptions,
    query: impl Fn(&input::ReadOptions) -> Vec<PerFile<T>>,
) -> Vec<PerFile<T>> {
    let items = query(read);
    if config.show_sensitive || items.len() < 2 || read.seed.0.is_some() {
        return items;
    }
    let mut all = mask::Masker::default();
    items.iter().for_each(|i| all.merge(&i.masker));
    let covered = items.iter().all(|i| i.result.is_err() || i.masker.len() == all.len());
    if covered || !roots.iter().all(|r| r.problem.is_none() && compare::rereadable(&r.source)) {
        return items;
    }
    // What reading warned of was said by the first run.
    query(&input::ReadOptions { seed: all.seed(), notes: input::Notes::default(), ..read.clone() })
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
    Ctx { style: render::Style::new(config.color).with_width(config.width), max_bytes: config.max_bytes }
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
    masker: &mut mask::Masker,
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
    masker: &mut mask::Masker,
    items: &[PerFile<T>],
    answer: &Answer<'_, '_>,
) -> Result<(), Error> {
    tail::answer(config.format, &ctx(config), items, answer, out, masker)
}

/// Read a `--policy` file; any problem is an input error (exit 2), never a pass.
pub(crate) fn load_policy(path: &std::path::Path) -> Result<query::gate::PolicyFile, Error> {
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

/// The flags' policy with the JSON policy files' rules added (a file's
/// `"rego"` paths are relative to it) and the Rego policies loaded: any
/// problem is an input error (exit 2), never a pass.
pub(crate) fn policy_with_files(flags: &query::gate::Policy, files: &[std::path::PathBuf]) -> Result<query::gate::Policy, Error> {
    let mut policy = flags.clone();
    for path in files {
        let file = load_policy(path)?;
        policy.merge_file(&file);
        let dir = path.parent().unwrap_or(std::path::Path::new(""));
        policy.rego_paths.extend(file.rego.iter().map(|r| dir.join(r)));
    }
    policy.load_rego().map_err(|e| Error::Input(vec![e]))?;
    Ok(policy)
}

/// The Rego policies' results on one plan (its JSON text `raw`) added to
/// `verdict`, masked with `masker`. An evaluation that fails is the plan's
/// error: the message names the policy's file, line and column.
pub(crate) fn judge_rego(
    policy: &query::gate::Policy,
    raw: &[u8],
    verdict: &mut query::gate::PlanVerdict,
    masker: &mask::Masker,
) -> Result<(), String> {
    let Some(rego) = &policy.rego else { return Ok(()) };
    let text = std::str::from_utf8(raw).map_err(|_| "the plan is not UTF-8: the Rego policies cannot read it".to_string())?;
    let findings = rego.evaluate(text).map_err(|e| masker.mask_text(&format!("{}: {}", e.location(), e.message)).into_owned())?;
    verdict.add_rego(rego, &findings, masker, policy.fail_on_warn);
    Ok(())
}

/// `gate`: the verdicts, streamed (read whole to check a fingerprint, which
/// is computed over the whole plan, `query::intent`, and for Rego policies,
/// whose input is the whole document).
fn gate(
    config: &Config,
    opts: &config::GateOptions,
    roots: &[roots::Root],
    out: &mut Sink<'_>,
    masker: &mut mask::Masker,
) -> Result<Status, Error> {
    if opts.verify {
        return verify(config, opts, out);
    }
    let policy = policy_with_files(&opts.policy, &opts.policy_files)?;
    let show_sensitive = config.show_sensitive;
    // The configuration is read while the plans are.
    let sources = start_locating(config);
    let items: Vec<PerFile<query::gate::PlanVerdict>> = if policy.expect_fingerprint.is_some() || policy.rego.is_some() {
        pipeline::each_root_raw_with(roots, &config.read, |raw, doc, m| match doc {
            input::Document::Plan(p) => {
                let none = mask::Masker::default();
                let shown = if show_sensitive { &none } else { m };
                let fingerprint = policy.expect_fingerprint.as_ref().map(|_| query::intent::Intent::of(p, m).fingerprint());
                let mut verdict = query::gate::evaluate_with(p, &policy, fingerprint.as_deref(), shown);
                judge_rego(&policy, raw, &mut verdict, shown)?;
                Ok(verdict)
            }
            input::Document::State(_) => Err(NOT_A_PLAN.to_string()),
        })
    } else {
        roots::stream_roots(roots, &config.read, &|name, r, ahead, read| gate_streamed(name, r, ahead, read, &policy, show_sensitive))
    };
    let mut items = named(items);
    if let Some(map) = finish_locating(sources, config, &items) {
        for v in items.iter_mut().filter_map(|i| i.result.as_mut().ok()).flat_map(|v| v.violations.iter_mut()) {
            v.location = locate_violation(&map, v);
        }
    }
    let report = policy.describe();
    let rows = query::roots::of_verdicts(&items);
    let roots = roots_table(&rows, items.len(), opts.skip_unchanged);
    answer(config, out, masker, &items, &Answer::Gate { items: &items, policy: &report, roots })?;
    finish(&items)?;
    if items.iter().any(|i| i.result.as_ref().is_ok_and(|v| !v.passed())) {
        Ok(Status::Failed)
    } else {
        Ok(Status::Success)
    }
}

/// `gate --verify`: the Rego policies' `test_` rules, run and listed.
fn verify(config: &Config, opts: &config::GateOptions, out: &mut Sink<'_>) -> Result<Status, Error> {
    if config.format != render::Format::Table {
        return Err(Error::Usage("`gate --verify` prints its results as text: leave out --format".into()));
    }
    let mut paths = opts.policy.rego_paths.clone();
    for path in &opts.policy_files {
        let file = load_policy(path)?;
        let dir = path.parent().unwrap_or(std::path::Path::new(""));
        paths.extend(file.rego.iter().map(|r| dir.join(r)));
    }
    if paths.is_empty() {
        return Err(Error::Usage("`gate --verify` runs the tests of Rego policies: name them with --policy DIR or FILE.rego".into()));
    }
    let results = crate::rego::verify(&paths, &opts.policy.rego_options).map_err(|e| Error::Input(vec![e]))?;
    let rendered = render::gate::verify_out(out, &results);
    out.written(rendered)?;
    let errors: Vec<InputError> = results
        .iter()
        .filter_map(|t| match &t.outcome {
            crate::rego::Outcome::Error(m) => {
                Some(InputError::new(&t.rule.file, format!("test {} could not be evaluated: {m}", t.rule.name)))
            }
            _ => None,
        })
        .collect();
    if !errors.is_empty() {
        return Err(Error::Input(errors));
    }
    if results.iter().any(|t| t.outcome == crate::rego::Outcome::Fail) {
        Ok(Status::Failed)
    } else {
        Ok(Status::Success)
    }
}

/// Start reading the configuration (`--chdir`, else `.`) on a thread of its
/// own, when the run shows where findings are declared.
fn start_locating(config: &Config) -> Option<std::thread::JoinHandle<crate::locate::SourceMap>> {
    if !config.locations {
        return None;
    }
    let dir = config.read.chdir.clone().unwrap_or_else(|| std::path::PathBuf::from("."));
    std::thread::Builder::new().name("locate".into()).spawn(move || crate::locate::SourceMap::load(&dir)).ok()
}

/// The configuration read by [`start_locating`]; what could not be read is a
/// warning on stderr (the findings are then reported without a location).
/// When no input could be read there is nothing to locate: no warning.
fn finish_locating<T>(
    handle: Option<std::thread::JoinHandle<crate::locate::SourceMap>>,
    config: &Config,
    items: &[PerFile<T>],
) -> Option<crate::locate::SourceMap> {
    let map = handle?.join().ok()?;
    if items.iter().all(|i| i.result.is_err()) {
        return None;
    }
    for note in &map.notes {
        config.read.notes.push("source locations", note);
    }
    Some(map)
}

/// Where a violation's object is declared: an `import` block for `deny
/// import`, the check or condition block for failing checks, else the
/// object's block (or the `removed` block of an object that is gone).
fn locate_violation(map: &crate::locate::SourceMap, v: &query::gate::Violation) -> Option<crate::locate::Location> {
    let address = v.address.as_deref()?;
    match v.rule.as_str() {
        "fail-on-checks" => map.locate_check(address, std::slice::from_ref(&v.reason)),
        "deny import" => map.locate_import(address).or_else(|| map.locate(address)),
        _ => map.locate(address),
    }
}
