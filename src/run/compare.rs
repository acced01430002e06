//! The runs of `planview diff OLD NEW` and `planview fingerprint PLAN`: read
//! the plans, build each one's model ([`crate::query::intent`]), render.

use super::tail::Sink;
use crate::config::Config;
use crate::error::{Error, InputError};
use crate::outcome::{PerFile, Status};
use crate::query::intent::sorted::{self, Feed, Outcome};
use crate::query::intent::streamed::{self, compare_indexed, Collect, Details, Fetch, Hasher, Index, Ordered, Wanted};
use crate::query::intent::{intent_of, DiffReport, FingerprintReport, Intent, PlanRef};
use crate::read::{self, Document, ReadOptions, Source};
use crate::render::{Format, JsonInputError};
use crate::{render, secrets};

/// A plan read for `diff` or `fingerprint`: its index, the CLI version that
/// made it, and how to get its entries again.
struct Indexed {
    index: Index,
    version: Option<String>,
    again: Again,
}

enum Again {
    /// A regular file of JSON: streamed again (bounded memory).
    File,
    /// Stdin, a pipe or a saved plan, copied to a temporary file as it was
    /// read once ([`super::tee`]): the copy streamed again (bounded memory).
    Copy(super::tee::Copy),
    /// `fingerprint --format json`, which prints the whole canonical form:
    /// the model, kept whole from the one read.
    Whole(Intent),
}

const NOT_A_PLAN: &str = "this is a state, not a plan: only plans are compared (`tofu show -json PLANFILE`)";

/// Whether `src` can be streamed more than once: a regular file holding JSON
/// (not a saved plan, which `show -json` would have to turn into JSON again).
pub(crate) fn rereadable(src: &Source) -> bool {
    let Source::File(path) = src else { return false };
    let Ok(mut f) = std::fs::File::open(path) else { return false };
    if !f.metadata().is_ok_and(|m| m.is_file()) {
        return false;
    }
    let mut head = Vec::with_capacity(4);
    std::io::Read::read_to_end(&mut std::io::Read::take(&mut f, 4), &mut head).is_ok() && !read::is_saved_plan(&head)
}

/// Read one plan for `diff` (`digests`: each entry's hash kept) or
/// `fingerprint`. It is streamed (see [`crate::query::intent::streamed`]):
/// once for its keys and secrets, then for its entries' canonical forms,
/// memory bounded whatever its size: a regular file is read again, any other
/// input (stdin, a pipe, a saved plan) is copied to a temporary file as it
/// is read and the copy read again ([`super::tee`]). `whole`: keep the model
/// (`fingerprint --format json` prints it all; memory grows with the plan).
fn read_indexed(src: &Source, read: &ReadOptions, digests: bool, whole: bool) -> PerFile<Indexed> {
    let file = src.name();
    let result = if whole {
        read_once(&file, src, read)
    } else if rereadable(src) {
        read_file(&file, src, read, digests, streamed::ORDER_BUDGET)
    } else {
        read_copy(&file, src, read, digests)
    };
    match result {
        Ok((indexed, masker)) => PerFile { file, result: Ok(indexed), masker },
        Err(e) => PerFile { file, result: Err(e), masker: secrets::Masker::default() },
    }
}

/// The fingerprint of a plan in a regular file, streamed with at most
/// `budget` bytes of entries waiting for their turn (tests use 0: every
/// entry that comes early is left to another pass). A test oracle's
/// entry: the `testkit` feature.
#[cfg(feature = "testkit")]
pub fn fingerprint_streamed(path: &std::path::Path, read: &ReadOptions, budget: usize) -> Result<String, InputError> {
    let src = Source::File(path.to_path_buf());
    read_file(&src.name(), &src, read, false, budget).map(|(ix, _)| ix.index.fingerprint)
}

fn read_file(name: &str, src: &Source, read: &ReadOptions, digests: bool, budget: usize) -> Result<(Indexed, secrets::Masker), InputError> {
    let ahead = read::ReadAhead::Joined;
    let ((collect, rest, version), masker) =
        crate::read::pool::stream_one(name, read::open(src, read)?, ahead, read, collect_for(digests), |c, doc, m| match doc {
            // The skeleton's model: flags, outputs and checks (no changes, no drift).
            Document::Plan(p) => Ok((c, Intent::of(&p, m), p.terraform_version.clone())),
            Document::State(_) => Err(NOT_A_PLAN.to_string()),
        })?;
    let again = read_again(read);
    let index = fingerprint_passes(name, collect, rest, &masker, &again, digests, budget, || read::open(src, &again))?;
    Ok((Indexed { index, version, again: Again::File }, masker))
}

/// Passes 2 and more of a streamed fingerprint ([`streamed`]'s module
/// documentation), once pass 1 (`collect`, beside the secret collector that
/// found `masker`; `rest`, the skeleton's model) is done: `open` gives the
/// document again for each pass (`read` as [`read_again`] makes it). With
/// `digests`, each entry's hash is kept (`diff`). At most `budget` bytes of
/// entries wait for their turn. A `collect` that kept no keys (`fingerprint`)
/// is hashed by [`sorted::Feed`] in one more pass (sorted in runs of at most
/// `budget` or [`sorted::RUN_BUDGET`] bytes); a plan that repeats a key then
/// has its keys collected in another pass, and goes the index's way.
#[allow(clippy::too_many_arguments)]
pub(super) fn fingerprint_passes<R: std::io::Read + Send + 'static>(
    name: &str,
    collect: Collect,
    rest: Intent,
    masker: &secrets::Masker,
    read: &ReadOptions,
    digests: bool,
    budget: usize,
    mut open: impl FnMut() -> Result<R, InputError>,
) -> Result<Index, InputError> {
    let ahead = read::ReadAhead::Joined;
    let mut collect = collect;
    if !collect.is_keyed() {
        // No index of keys: hashed as the entries come, or sorted outside memory.
        let mut feed = Feed::new(&rest, collect.tally(), masker, budget.min(sorted::RUN_BUDGET));
        read::stream(name, open()?, ahead, read, &mut feed)?;
        let outcome =
            feed.finish().map_err(|e| InputError::new(name, format!("cannot sort the plan's entries for its fingerprint: {e}")))?;
        match outcome {
            Outcome::Fingerprint(fingerprint) => {
                return Ok(Index { rest, changes: Default::default(), drift: Default::default(), fingerprint })
            }
            Outcome::Changed => return Err(InputError::new(name, streamed::CHANGED)),
            // Rare: a plan that repeats a key; the index names them as a whole read does.
            Outcome::Repeated => {
                collect = Collect::keyed_again();
                read::stream(name, open()?, ahead, read, &mut collect)?;
            }
        }
    }
    let (mut changes, mut drift) = collect.finish();
    let mut sink = Ordered::new(&rest, drift.len(), changes.len(), budget);
    let mut first = true;
    loop {
        let mut hasher = Hasher::new(&mut changes, &mut drift, masker, &mut sink, digests && first);
        read::stream(name, open()?, ahead, read, &mut hasher)?;
        if !hasher.saw_all() {
            return Err(InputError::new(name, streamed::CHANGED));
        }
        first = false;
        if sink.end_pass() {
            break;
        }
    }
    Ok(Index { rest, changes, drift, fingerprint: sink.finish() })
}

/// The fingerprint of a document streamed once through a [`super::tee`]
/// (pass 1: `collect` and `rest`, as [`fingerprint_passes`] takes them), its
/// later passes over the copy: memory bounded whatever the input.
pub(super) fn fingerprint_of_copy(
    name: &str,
    copy: &super::tee::Copy,
    collect: Collect,
    rest: Intent,
    masker: &secrets::Masker,
    read: &ReadOptions,
) -> Result<String, InputError> {
    let again = read_again(read);
    let open = || copy.reader().map_err(|e| InputError::new(name, format!("cannot read the input again for its fingerprint: {e}")));
    fingerprint_passes(name, collect, rest, masker, &again, false, streamed::ORDER_BUDGET, open).map(|ix| ix.fingerprint)
}

/// [`read_file`] for an input that cannot be read twice: teed to a temporary
/// file as it is read once ([`super::tee`]), the later passes over the copy.
fn read_copy(name: &str, src: &Source, read: &ReadOptions, digests: bool) -> Result<(Indexed, secrets::Masker), InputError> {
    let ahead = crate::read::pool::read_ahead_for(src);
    let (tee, copy) =
        super::tee::tee(read::open(src, read)?).map_err(|e| InputError::new(name, format!("cannot make a temporary file: {e}")))?;
    let ((collect, rest, version), masker) =
        crate::read::pool::stream_one(name, tee, ahead, read, collect_for(digests), |c, doc, m| match doc {
            Document::Plan(p) => Ok((c, Intent::of(&p, m), p.terraform_version.clone())),
            Document::State(_) => Err(NOT_A_PLAN.to_string()),
        })?;
    let again = read_again(read);
    let open = || copy.reader().map_err(|e| InputError::new(name, format!("cannot read the input again: {e}")));
    let index = fingerprint_passes(name, collect, rest, &masker, &again, digests, streamed::ORDER_BUDGET, open)?;
    Ok((Indexed { index, version, again: Again::Copy(copy) }, masker))
}

/// Pass 1's collector: every key kept for `diff` (`digests`), a tally for `fingerprint`.
fn collect_for(digests: bool) -> Collect {
    if digests {
        Collect::keyed()
    } else {
        Collect::default()
    }
}

/// The options of a file's second and later reads: what `--lenient` skipped
/// was said once, by the first.
fn read_again(read: &ReadOptions) -> ReadOptions {
    ReadOptions { notes: read::Notes::default(), rescan_depth_skipped: true, ..read.clone() }
}

fn read_once(name: &str, src: &Source, read: &ReadOptions) -> Result<(Indexed, secrets::Masker), InputError> {
    let ahead = crate::read::pool::read_ahead_for(src);
    let keep =
        read::Keep::new(|drift: bool, _: usize, _: usize, rc: &crate::model::ResourceChange<'_>| drift || crate::query::intent::counts(rc));
    let ((intent, version), masker) =
        crate::read::pool::stream_one(name, read::open(src, read)?, ahead, read, keep, |kept, doc, m| match doc {
            Document::Plan(p) => {
                let mut plan = *p;
                kept.fill(&mut plan)?;
                let version = plan.terraform_version.clone();
                intent_of(&Document::Plan(Box::new(plan)), m).map(|i| (i, version))
            }
            Document::State(_) => Err(NOT_A_PLAN.to_string()),
        })?;
    Ok((Indexed { index: Index::of(&intent), version, again: Again::Whole(intent) }, masker))
}

/// The canonical forms of the `wanted` entries of a plan read by [`read_indexed`].
fn details(item: &PerFile<Indexed>, src: &Source, read: &ReadOptions, wanted: &Wanted) -> Result<Details, InputError> {
    let Ok(ix) = &item.result else { return Ok(Details::default()) };
    match &ix.again {
        Again::Whole(intent) => {
            let mut out = Details::default();
            for (s, (section, map)) in [(&ix.index.changes, &intent.resources), (&ix.index.drift, &intent.drift)].into_iter().enumerate() {
                for (i, _) in wanted[s].iter().enumerate().take(section.len()).filter(|(_, w)| **w) {
                    if let Some(v) = map.get(section.key(i)) {
                        out[s].insert(section.key(i).to_string(), v.clone());
                    }
                }
            }
            Ok(out)
        }
        Again::File | Again::Copy(_) => {
            let mut fetch = Fetch::new(&ix.index, wanted, &item.masker);
            let again = read_again(read);
            let reader = match &ix.again {
                Again::Copy(copy) => copy.reader().map_err(|e| InputError::new(&item.file, format!("cannot read the input again: {e}")))?,
                _ => read::Fed::plain(read::open(src, &again)?),
            };
            read::stream(&item.file, reader, read::ReadAhead::Joined, &again, &mut fetch)?;
            if fetch.changed {
                return Err(InputError::new(&item.file, streamed::CHANGED));
            }
            Ok(fetch.details)
        }
    }
}

/// `f` over the inputs, each on its own thread.
fn each<R: Send>(inputs: &[Source], f: impl Fn(usize, &Source) -> R + Sync) -> Vec<R> {
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> = inputs.iter().enumerate().map(|(i, src)| crate::par::spawn(s, move || f(i, src))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    })
}

/// In JSON, the inputs that could not be read: one error object, or `{"files": [...]}`.
fn json_errors(out: &mut dyn std::io::Write, errs: &[&InputError]) -> std::io::Result<()> {
    #[derive(serde::Serialize)]
    struct Many<'a> {
        files: Vec<JsonInputError<'a>>,
    }
    match errs {
        [one] => render::write_json(out, &JsonInputError::new(one)),
        many => render::write_json(out, &Many { files: many.iter().map(|e| JsonInputError::new(e)).collect() }),
    }
}

fn failures<T>(items: &[crate::outcome::PerFile<T>]) -> Vec<&InputError> {
    items.iter().filter_map(|i| i.result.as_ref().err()).collect()
}

/// `diff`: exit 0 (success) when both plans would do the same, 1 (failed) when they differ.
pub(super) fn run_diff(
    config: &Config,
    out: &mut Sink<'_>,
    masker: &mut secrets::Masker,
    ctx: &render::format::Ctx,
) -> Result<Status, Error> {
    if config.inputs.len() != 2 {
        return Err(Error::Usage("`diff` compares two plans: OLD NEW".into()));
    }
    // The new plan's configuration (--chdir), read while the plans are.
    let locating = super::locating::start(config, &[]);
    let items = each(&config.inputs, |_, src| read_indexed(src, &config.read, true, false));
    items.iter().for_each(|i| masker.merge(&i.masker));
    let errs = failures(&items);
    if !errs.is_empty() {
        if config.format == Format::Json {
            let written = json_errors(out, &errs);
            out.written(written)?;
        }
        return Err(Error::Input(errs.into_iter().cloned().collect()));
    }
    let located = super::locating::finish(locating, config, &items[1..]);
    let [Ok(old), Ok(new)] = [&items[0].result, &items[1].result] else {
        return Err(Error::Usage("`diff` compares two plans: OLD NEW".into()));
    };
    let comparison = compare_indexed(&old.index, &new.index, |wanted_old, wanted_new| {
        let wanted = [wanted_old, wanted_new];
        let mut got = each(&config.inputs, |i, src| details(&items[i], src, &config.read, &wanted[i])).into_iter();
        let (a, b) = (got.next().unwrap_or_else(|| Ok(Details::default())), got.next().unwrap_or_else(|| Ok(Details::default())));
        match (a, b) {
            (Ok(a), Ok(b)) => Ok((a, b)),
            (a, b) => Err(a.err().into_iter().chain(b.err()).collect::<Vec<_>>()),
        }
    });
    let comparison = match comparison {
        Ok(c) => {
            let mut c = c.masked(masker);
            if let Some(l) = &located {
                super::locating::diff(l.of(&items[1].file), &mut c);
            }
            c
        }
        Err(errs) => {
            if config.format == Format::Json {
                let written = json_errors(out, &errs.iter().collect::<Vec<_>>());
                out.written(written)?;
            }
            return Err(Error::Input(errs));
        }
    };
    let plan_ref = |item: &PerFile<Indexed>, ix: &Indexed| PlanRef {
        file: item.file.clone(),
        terraform_version: ix.version.clone(),
        fingerprint: ix.index.fingerprint.clone(),
    };
    let report = DiffReport { kind: "diff", old: plan_ref(&items[0], old), new: plan_ref(&items[1], new), comparison };
    let written = render::format::write(config.format, &render::format::Answer::Diff(&report), false, ctx, out);
    out.written(written)?;
    Ok(if report.comparison.same { Status::Success } else { Status::Failed })
}

/// `fingerprint`: one plan's fingerprint (`--format json`: with its canonical form).
pub(super) fn run_fingerprint(
    config: &Config,
    format: render::diff::FingerprintFormat,
    out: &mut Sink<'_>,
    masker: &mut secrets::Masker,
) -> Result<Status, Error> {
    if config.inputs.len() != 1 {
        return Err(Error::Usage("`fingerprint` reads one plan".into()));
    }
    let json = format == render::diff::FingerprintFormat::Json;
    let items = vec![read_indexed(&config.inputs[0], &config.read, false, json)];
    items.iter().for_each(|i| masker.merge(&i.masker));
    let errs = failures(&items);
    if !errs.is_empty() {
        if json {
            let written = json_errors(out, &errs);
            out.written(written)?;
        }
        return Err(Error::Input(errs.into_iter().cloned().collect()));
    }
    if let Ok(ix) = &items[0].result {
        let written = match &ix.again {
            // `--format json` prints the canonical form: the model was kept whole.
            Again::Whole(intent) if json => render::diff::fingerprint_json(out, &FingerprintReport::new(&items[0].file, intent)),
            _ => render::diff::fingerprint_text(out, &ix.index.fingerprint),
        };
        out.written(written)?;
    }
    Ok(Status::Success)
}
