//! The glue of the streamed commands: each command's query run over a
//! document streamed from its input ([`stream_one`]), the visitor or the
//! changes kept chosen by the command.

use crate::error::InputError;
use crate::outcome::PerFile;
use crate::query::values::Visibility;
use crate::read::pool::stream_one;
use crate::secrets;
use crate::{model, query, read};

/// `summary` of a document streamed from `src` ([`stream_one`]): a plan is
/// counted as it streams by; a state is summarised from the skeleton, which
/// holds its `values`.
#[cfg(any(test, feature = "testkit"))]
pub fn summary_streamed(
    name: &str,
    src: impl std::io::Read + Send + 'static,
    ahead: read::ReadAhead,
    opts: &read::ReadOptions,
    vis: &Visibility,
) -> Result<(query::summary::Summary, secrets::Masker), InputError> {
    summary_streamed_with(name, src, ahead, opts, vis, &query::noise::Noise::default(), None)
}

/// [`summary_streamed`], the updates that only change what `noise` ignores
/// marked, the lists of changes and drift spooled from `spill_at` entries on
/// ([`query::summary::Listed`]; `None`: kept in memory).
pub(crate) fn summary_streamed_with(
    name: &str,
    src: impl std::io::Read + Send + 'static,
    ahead: read::ReadAhead,
    opts: &read::ReadOptions,
    vis: &Visibility,
    noise: &query::noise::Noise,
    spill_at: Option<usize>,
) -> Result<(query::summary::Summary, secrets::Masker), InputError> {
    let acc = query::summary::PlanAccumulator::with_noise(noise.clone()).spooling(spill_at);
    stream_one(name, src, ahead, opts, acc, |acc, doc, masker| match doc {
        read::Document::Plan(p) => {
            let mut s = acc.finish(&p);
            s.mask_inputs(&vis.with(masker));
            // A list that could not be spooled whole is no answer.
            if let Some(why) = s.resources.failed().or(s.drifted.failed()) {
                return Err(why.to_string());
            }
            Ok(query::summary::Summary::Plan(Box::new(s)))
        }
        read::Document::State(_) => query::summary::summarize(&doc, &vis.with(masker)),
    })
}

/// The gate's verdict on a document streamed from `src` ([`stream_one`]).
pub fn gate_streamed(
    name: &str,
    src: impl std::io::Read + Send + 'static,
    ahead: read::ReadAhead,
    opts: &read::ReadOptions,
    policy: &query::gate::Policy,
    show_sensitive: bool,
) -> Result<(query::gate::PlanVerdict, secrets::Masker), InputError> {
    stream_one(name, src, ahead, opts, query::gate::GateJudge::new(policy), |judge, doc, masker| match doc {
        read::Document::Plan(_) => {
            let none = secrets::Masker::default();
            Ok(judge.finish(if show_sensitive { &none } else { masker }))
        }
        read::Document::State(_) => Err(NOT_A_PLAN.to_string()),
    })
}

/// [`gate_streamed`] for `--expect-fingerprint`: the plan's fingerprint
/// computed while it streams (pass 1 beside the judge, the later passes over
/// a copy of the document written as it was read: [`super::tee`],
/// [`super::compare::fingerprint_of_copy`]), so that no whole document is
/// held. A fingerprint that cannot be computed is the input's error: the
/// gate fails.
pub(crate) fn gate_fingerprinted(
    name: &str,
    src: read::Fed,
    ahead: read::ReadAhead,
    opts: &read::ReadOptions,
    policy: &query::gate::Policy,
    show_sensitive: bool,
) -> Result<(query::gate::PlanVerdict, secrets::Masker), InputError> {
    let (tee, copy) = super::tee::tee_fed(src).map_err(|e| InputError::new(name, format!("cannot make a temporary file: {e}")))?;
    let visitor = (query::gate::GateJudge::new(policy), query::intent::streamed::Collect::default());
    stream_one(name, tee, ahead, opts, visitor, |(mut judge, collect), doc, masker| match doc {
        read::Document::Plan(p) => {
            let rest = query::intent::Intent::of(&p, masker);
            let fingerprint = super::compare::fingerprint_of_copy(name, &copy, collect, rest, masker, opts).map_err(|e| e.message)?;
            judge.set_fingerprint(Some(fingerprint));
            let none = secrets::Masker::default();
            Ok(judge.finish(if show_sensitive { &none } else { masker }))
        }
        read::Document::State(_) => Err(NOT_A_PLAN.to_string()),
    })
}

/// Why the gate refuses a state.
pub(crate) const NOT_A_PLAN: &str = "this is a state, not a plan: the gate judges plans (`tofu show -json PLANFILE`)";

/// Each root streamed ([`stream_one`]): `query` answers over the skeleton
/// with the changes and drift `keep` chooses ([`read::Keep`]), every secret
/// of the input known. Memory is what `keep` keeps, not the input.
pub(crate) fn streamed<T: Send>(
    roots: &[read::Root],
    read: &read::ReadOptions,
    vis: &Visibility,
    keep: impl Fn(bool, usize, usize, &model::ResourceChange<'_>) -> bool + Sync,
    query: impl Fn(&read::Document<'_>, &Visibility) -> Result<T, String> + Sync,
) -> Vec<PerFile<T>> {
    streamed_keeping(roots, read, vis, false, keep, query)
}

/// [`streamed`], the kept changes (not drift) bare when `bare`
/// ([`read::Keep::bare_changes`]: their kind and move only) for a query that
/// needs no more of them.
pub(crate) fn streamed_keeping<T: Send>(
    roots: &[read::Root],
    read: &read::ReadOptions,
    vis: &Visibility,
    bare: bool,
    keep: impl Fn(bool, usize, usize, &model::ResourceChange<'_>) -> bool + Sync,
    query: impl Fn(&read::Document<'_>, &Visibility) -> Result<T, String> + Sync,
) -> Vec<PerFile<T>> {
    read::stream_roots(roots, read, &|name, r, ahead, read| {
        let kept = read::Keep::new(&keep);
        let kept = if bare { kept.bare_changes() } else { kept };
        stream_one(name, r, ahead, read, kept, |kept, doc, m| match doc {
            read::Document::Plan(p) => {
                let mut plan = *p;
                kept.fill(&mut plan)?;
                query(&read::Document::Plan(Box::new(plan)), &vis.with(m))
            }
            state => query(&state, &vis.with(m)),
        })
    })
}

/// The kept changes of a spooled read, each given to the function passed
/// (in document order; an error when one cannot be read back).
pub(crate) type Spooled<'s> = &'s mut dyn FnMut(&mut dyn FnMut(&model::ResourceChange<'_>)) -> Result<(), String>;

/// [`streamed`], and the query is also given every change of the plan reduced
/// to what the blast radius needs ([`query::dependents::Changes`]). The
/// changes `keep` chooses are spooled ([`read::Keep::spooled_changes`]), not
/// put in the plan: the query reads them one at a time through its last
/// argument ([`Spooled`]).
pub(crate) fn streamed_with_changes<T: Send>(
    roots: &[read::Root],
    read: &read::ReadOptions,
    vis: &Visibility,
    keep: impl Fn(bool, usize, usize, &model::ResourceChange<'_>) -> bool + Sync,
    query: impl Fn(&read::Document<'_>, &Visibility, &query::dependents::Changes, Spooled<'_>) -> Result<T, String> + Sync,
) -> Vec<PerFile<T>> {
    read::stream_roots(roots, read, &|name, r, ahead, read| {
        let visitor = (read::Keep::new(&keep).spooled_changes(), query::dependents::Changes::default());
        stream_one(name, r, ahead, read, visitor, |(kept, changes), doc, m| {
            let mut each = |f: &mut dyn FnMut(&model::ResourceChange<'_>)| kept.each_change(f);
            match doc {
                read::Document::Plan(p) => {
                    let mut plan = *p;
                    kept.fill(&mut plan)?;
                    query(&read::Document::Plan(Box::new(plan)), &vis.with(m), &changes, &mut each)
                }
                state => query(&state, &vis.with(m), &changes, &mut each),
            }
        })
    })
}

/// `state` of a document streamed from `src` ([`stream_one`]): a plan's
/// `prior_state` is collected as it streams by, never held whole. The answer
/// (or why there is none) comes with the document's secrets either way, so
/// that errors quoting other inputs are masked with them ([`settle`]).
pub(crate) fn state_of_stream(
    name: &str,
    src: impl std::io::Read + Send + 'static,
    ahead: crate::read::ReadAhead,
    read: &crate::read::ReadOptions,
    opts: &query::state::StateOptions<'_>,
) -> Result<(Result<query::state::StateReport, InputError>, crate::secrets::Masker), InputError> {
    stream_one(name, src, ahead, read, query::state::PriorResources::default(), |prior, doc, _| {
        Ok(query::state::state_streamed(&doc, prior, opts).map_err(|m| InputError::new(name, m)))
    })
}
