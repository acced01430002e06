//! The run of `planview comment`: read each plan once ([`crate::query::review`];
//! streamed, no whole document held, unless Rego policies are loaded),
//! judge it with the gate's policy, and print one markdown body within the
//! platform's budget ([`crate::render::comment`]); write the job summary (the
//! whole review, within 1 MiB) and the CI outputs (`name=value` lines).
//!
//! Secrets are masked by meaning where the review takes values from each
//! input (as every command masks them); the body's own syntax (the hidden
//! marker, `<details>`, code fences) is never touched.

use super::show::{Differ, Shared, Spill, Spool, Spooling};
use super::tail::Sink;
use crate::config::{CommentOptions, Config};
use crate::error::{Error, InputError};
use crate::filter::Filter;
use crate::model::{ChangeKind, Document, ResourceChange};
use crate::outcome::{PerFile, Status};
use crate::query::drift::{drift_plan, DriftOptions};
use crate::query::gate::{GateJudge, Policy};
use crate::query::intent::streamed::Collect;
use crate::query::noise::Noise;
use crate::query::review::{review, CiOutputs, DiffWalk, Held, Review, NOT_A_PLAN};
use crate::query::show::collect::{Collected, Collector};
use crate::query::show::ResourceDiff;
use crate::query::show::ShowOptions;
use crate::query::summary::PlanAccumulator;
use crate::query::values::Visibility;
use crate::read::pool::stream_one;
use crate::read::{self, Root};
use crate::render::comment::{body, diff_cap, BodyOptions, Weigher, SUMMARY_MAX_BYTES};
use crate::secrets;
use std::io::Write;

/// Append `text` to `path` (the job summary and `$GITHUB_OUTPUT` are appended to by every step).
fn append(path: &std::path::Path, text: &str, what: &str) -> Result<(), Error> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| Error::Usage(format!("cannot write the {what} {}: {e}", crate::sanitize::line(&path.display().to_string()))))?;
    f.write_all(text.as_bytes())
        .map_err(|e| Error::Usage(format!("cannot write the {what} {}: {e}", crate::sanitize::line(&path.display().to_string()))))
}

/// Each plan read whole and reviewed ([`review`]): the road of a run with
/// Rego policies, whose input is the whole document (memory grows with the
/// plan: its text, its parse and its model are held together).
fn reviews_whole(roots: &[Root], config: &Config, policy: &Policy, show: &ShowOptions) -> Vec<PerFile<Review>> {
    let vis = Visibility { show_sensitive: false, masker: None };
    crate::read::pool::each_root_raw_with(roots, &config.read, |raw, doc, m| {
        // Every plan's fingerprint: judged by `--expect-fingerprint`, and shown
        // in the comment's hidden lines for a later job to read back.
        let fingerprint = match doc {
            Document::Plan(p) => Some(crate::query::intent::Intent::of(p, m).fingerprint()),
            _ => None,
        };
        let mut r = review(doc, policy, show, &vis.with(m), fingerprint.as_deref())?;
        if let Document::Plan(p) = doc {
            super::gate::judge_rego(policy, raw, p, &mut r.verdict, m)?;
        }
        Ok(r)
    })
}

/// A review streamed but for its diffs: the changes it shows, spooled.
struct Streamed {
    review: Review,
    spool: Spool,
}

/// The diffs of the reviews [`reviews_streamed`] spooled, made again from
/// the spool for each walk (only those wanted are parsed and diffed).
struct Walk<'a> {
    /// Each input's spool (`None`: it could not be read).
    spools: Vec<Option<Spool>>,
    spill: Option<Spill>,
    show: &'a ShowOptions,
}

impl DiffWalk for Walk<'_> {
    fn each(
        &self,
        item: usize,
        masker: &secrets::Masker,
        wanted: &mut dyn FnMut(usize) -> bool,
        f: &mut dyn FnMut(usize, &ResourceDiff) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let Some(Some(spool)) = self.spools.get(item) else { return Ok(()) };
        let differ = Differ { opts: self.show, vis: Visibility { show_sensitive: false, masker: None }.with(masker) };
        let mut k = 0;
        spool.each_text(self.spill.as_ref(), &mut |text| {
            let i = k;
            k += 1;
            if wanted(i) {
                f(i, &differ.build(text)?)?;
            }
            Ok(true)
        })
    }
}

/// Each plan streamed and reviewed, no whole document held: the summary,
/// the gate's judge, `show`'s collector (each change shown spooled, as
/// `show` spools it: [`super::show`]), the drift and the first pass of the
/// fingerprint see each change as it streams by; the fingerprint's later
/// passes read a copy of the document written as it was read
/// ([`super::tee`]). Once every plan was read, each one's diffs are made
/// from the spool with its plan's secrets (as [`review`] masks them) and
/// weighed at each cap in `caps` ([`Weigher`]), not held: the bodies make
/// again, through the returned [`Walk`], only the diffs they keep. The same
/// [`Review`] as [`reviews_whole`] without Rego.
fn reviews_streamed<'s>(
    roots: &[Root],
    config: &Config,
    policy: &Policy,
    show: &'s ShowOptions,
    caps: &[usize],
) -> (Vec<PerFile<Review>>, Walk<'s>) {
    let vis = Visibility { show_sensitive: false, masker: None };
    let noise = Noise::new(&policy.ignore_attributes);
    let shared = Shared::new();
    // The drift, and as much of the changes as tells whether the plan changes anything (as `drift` keeps).
    let keep = |drift: bool, i: usize, kept: usize, rc: &ResourceChange<'_>| {
        drift || i == 0 || (kept < 2 && (rc.kind() != ChangeKind::NoOp || rc.is_move()))
    };
    let items = read::stream_roots(roots, &config.read, &|name, src, ahead, read| {
        let (tee, copy) = super::tee::tee_fed(src).map_err(|e| InputError::new(name, format!("cannot make a temporary file: {e}")))?;
        let visitor = (
            // The list of changes spooled past as many entries as `summary` keeps (the body reads it twice, one entry at a time).
            PlanAccumulator::with_noise(noise.clone()).spooling(Some(super::summary::SPILL_AT)),
            (GateJudge::new(policy), (Collector::new(show, Spooling::new(&shared)), (read::Keep::new(keep), Collect::default()))),
        );
        stream_one(name, tee, ahead, read, visitor, |(acc, (mut judge, (collector, (kept, collect)))), doc, m| {
            let read::Document::Plan(p) = doc else { return Err(NOT_A_PLAN.to_string()) };
            let vis = vis.with(m);
            let rest = crate::query::intent::Intent::of(&p, m);
            let fingerprint = super::compare::fingerprint_of_copy(name, &copy, collect, rest, m, read).map_err(|e| e.message)?;
            judge.set_fingerprint(Some(fingerprint.clone()));
            let verdict = judge.finish(m);
            let mut summary = acc.finish(&p);
            summary.mask_inputs(&vis);
            // A list that could not be spooled whole is no answer.
            if let Some(why) = summary.resources.failed() {
                return Err(why.to_string());
            }
            let Collected { report, kept: Spooling { mut spool, shared }, .. } = collector.finish(&p, &vis);
            spool.flush(shared);
            let mut plan = *p;
            kept.fill(&mut plan)?;
            let drift = drift_plan(&plan, &DriftOptions { filter: &Filter::default(), all: false }, &vis);
            let review = Review {
                summary,
                verdict,
                diffs: Vec::new(),
                spooled: true,
                weighed: None,
                outputs: report.outputs,
                drift: drift.entries,
                drift_hidden: drift.hidden,
                fingerprint: Some(fingerprint),
                without_schema: report.without_schema,
            };
            Ok(Streamed { review, spool })
        })
    });
    let spill = shared.into_spill();
    let mut spools = Vec::with_capacity(items.len());
    let reviews = items
        .into_iter()
        .map(|i| {
            let mut kept = None;
            let result = i.result.and_then(|Streamed { mut review, spool }| {
                let differ = Differ { opts: show, vis: vis.with(&i.masker) };
                let read_back = |e: std::io::Error| InputError::new(&i.file, format!("cannot read the temporary file back: {e}"));
                let mut weigher = Weigher::new(&review.summary, caps).map_err(read_back)?;
                let mut k = 0;
                // One change at a time: its text read back, its diff made, weighed and dropped.
                spool
                    .each_text(spill.as_ref(), &mut |text| {
                        weigher.push(k, &differ.build(text)?);
                        k += 1;
                        Ok(true)
                    })
                    .map_err(read_back)?;
                review.weighed = Some(weigher.finish().map_err(read_back)?);
                kept = Some(spool);
                Ok(review)
            });
            spools.push(kept);
            PerFile { file: i.file, result, masker: i.masker }
        })
        .collect();
    (reviews, Walk { spools, spill, show })
}

/// `--html FILE`: the review's page, written whole (the file is replaced).
fn write_page(path: &std::path::Path, items: &mut [PerFile<Review>], walk: &dyn DiffWalk) -> Result<(), Error> {
    let failed =
        |e: std::io::Error| Error::Usage(format!("cannot write the HTML page {}: {e}", crate::sanitize::line(&path.display().to_string())));
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).map_err(failed)?);
    crate::render::html::review::review_page(&mut f, items, walk).map_err(failed)?;
    f.flush().map_err(failed)
}

/// `comment`: exit 0 when every plan passes, 1 when one breaks a rule, 2 when
/// an input cannot be read (the body is printed in every case but a usage error).
pub(super) fn run_comment(config: &Config, opts: &CommentOptions, out: &mut Sink<'_>) -> Result<Status, Error> {
    comment_with(config, opts, out, false)
}

/// [`run_comment`] with every plan read whole ([`reviews_whole`], the road of
/// a run with Rego policies) writing to `out`: the oracle the integration
/// tests hold the streamed road to (the `testkit` feature).
#[cfg(feature = "testkit")]
pub fn run_comment_whole(config: &Config, out: &mut dyn Write) -> Result<Status, Error> {
    let crate::config::CommandKind::Comment(opts) = &config.command else {
        return Err(Error::Usage("not a `comment` run".into()));
    };
    let mut sink = Sink::new(out);
    let status = comment_with(config, opts, &mut sink, true);
    super::tail::verdict_over_output(status, sink.take_error().map_or(Ok(()), Err))
}

/// `comment`, its plans read whole when `whole` (or Rego policies are loaded), else streamed.
fn comment_with(config: &Config, opts: &CommentOptions, out: &mut Sink<'_>, whole: bool) -> Result<Status, Error> {
    let mut policy = super::gate::policy_with_files(&opts.policy, &opts.policy_files)?;
    // Directories become the plans below them; inputs holding several documents are split.
    let roots = crate::read::expand(&config.inputs, &config.find, &config.read.notes);
    // The configuration is read while the plans are: each change links to its lines.
    let sources = super::locating::start(config, &roots);
    // The blast radius through a local is exact when the configuration's source is read.
    policy.locals = super::locating::locals(config, &roots, &sources);
    // Each change's diff with the provider schemas when given (or fetched for a saved plan).
    let show = crate::query::show::ShowOptions {
        schemas: super::schemas::schemas_for("comment", opts.schemas_file.as_deref(), &config.read, &roots)?,
        ..Default::default()
    };
    // The caps the bodies cut each diff to: the diffs are weighed at each as they are made.
    let mut caps = vec![diff_cap(opts.max_bytes)];
    if opts.summary_file.is_some() && !caps.contains(&diff_cap(SUMMARY_MAX_BYTES)) {
        caps.push(diff_cap(SUMMARY_MAX_BYTES));
    }
    let (items, spooled) = if whole || policy.rego.is_some() {
        (reviews_whole(&roots, config, &policy, &show), None)
    } else {
        let (items, walk) = reviews_streamed(&roots, config, &policy, &show, &caps);
        (items, Some(walk))
    };
    let walk: &dyn DiffWalk = match &spooled {
        Some(w) => w,
        None => &Held,
    };
    let spooled_back = |e: std::io::Error| Error::Usage(format!("cannot read the temporary file back: {e}"));
    let mut items: Vec<PerFile<Review>> = items
        .into_iter()
        .map(|mut i| {
            if let Ok(r) = &mut i.result {
                r.summary.file = i.file.clone();
                r.verdict.file = i.file.clone();
            }
            i
        })
        .collect();
    if let Some(located) = super::locating::finish(sources, config, &items) {
        for i in &mut items {
            let map = located.of(&i.file);
            if let Ok(r) = &mut i.result {
                super::locating::summary(map, &mut r.summary);
                for v in &mut r.verdict.violations {
                    v.location = super::locating::violation(map, v);
                }
            }
        }
    }
    // Said once, as `replace` and `show --format json` say it: a blast radius is not known without a configuration.
    if items.iter().filter_map(|i| i.result.as_ref().ok()).any(|r| r.verdict.dependents.as_ref().is_some_and(|d| !d.configured)) {
        config.read.notes.push("comment", crate::query::dependents::NO_CONFIGURATION);
    }
    // Said once, as `show` says it: the diffs that lacked their provider's schema.
    let without: std::collections::BTreeSet<String> =
        items.iter().filter_map(|i| i.result.as_ref().ok()).flat_map(|r| r.without_schema.iter().cloned()).collect();
    if !without.is_empty() {
        config.read.notes.push("comment", crate::query::show::without_schema_note(&without));
    }
    // Errors quote the input: every input's secrets are masked in them (the
    // scrubber of them all is built only when there is an error to scrub).
    let failed: Vec<&InputError> = items.iter().filter_map(|i| i.result.as_ref().err()).collect();
    let errors: Vec<InputError> = if failed.is_empty() {
        Vec::new()
    } else {
        let mut masker = secrets::Masker::default();
        items.iter().for_each(|i| masker.merge(&i.masker));
        let scrubber = masker.scrubber();
        let scrub = |s: &str| String::from_utf8_lossy(&scrubber.scrub(s.as_bytes())).into_owned();
        failed.into_iter().map(|e| InputError { message: scrub(&e.message), hint: e.hint.as_deref().map(scrub), ..e.clone() }).collect()
    };
    let outputs = CiOutputs::of(&items);
    let unchanged = errors.is_empty() && !outputs.has_changes && outputs.verdict == "pass";
    let report = policy.describe();
    // The same review twice: the comment within its budget, the job summary within 1 MiB.
    let summary_body = opts.summary_file.as_ref().map(|_| {
        let o = BodyOptions {
            max_bytes: SUMMARY_MAX_BYTES,
            marker: None,
            whole: "`planview show` and `planview summary` on the plan".into(),
            forge: opts.forge.clone(),
        };
        body(&mut items, &report, &o, walk)
    });
    let summary_body = summary_body.transpose().map_err(spooled_back)?;
    let whole = if opts.summary_file.is_some() {
        "the job summary of this run".to_string()
    } else {
        "`planview comment --summary-file`, `planview show` on the plan".to_string()
    };
    let o = BodyOptions { max_bytes: opts.max_bytes, marker: Some(opts.id.clone()), whole, forge: opts.forge.clone() };
    if !(opts.skip_unchanged && unchanged) {
        // A closed output stops the body, never the job summary or the CI outputs.
        let text = body(&mut items, &report, &o, walk).map_err(spooled_back)?;
        let written = out.write_all(text.as_bytes());
        out.written(written)?;
    }
    if let (Some(path), Some(text)) = (&opts.summary_file, summary_body) {
        append(path, &text, "job summary")?;
    }
    if let Some(path) = &opts.outputs_file {
        append(path, &outputs.lines(), "outputs file")?;
    }
    if let Some(path) = &opts.html {
        write_page(path, &mut items, walk)?;
    }
    if !errors.is_empty() {
        return Err(Error::Input(errors));
    }
    Ok(if outputs.verdict == "fail" { Status::Failed } else { Status::Success })
}
