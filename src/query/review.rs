//! `comment`: everything a pull-request review says about one plan, from one
//! reading of it: the summary, the gate's verdict, `show`'s diffs and the drift
//! relevant to the plan ([`review`] over a plan read whole; `crate::run::comment`
//! builds the same [`Review`] from a plan streamed, with [`line_up`]).

use crate::filter::Filter;
use crate::model::Document;
use crate::query::drift::{drift_plan, DriftEntry, DriftOptions};
use crate::query::gate::{evaluate_with, PlanVerdict, Policy};
use crate::query::show::{show_plan, OutputDiff, ResourceDiff, ShowOptions};
use crate::query::summary::{summarize_plan_with, PlanSummary};
use crate::query::values::Visibility;

/// The review of one plan.
#[derive(Debug)]
pub(crate) struct Review {
    pub summary: PlanSummary,
    pub verdict: PlanVerdict,
    /// `show`'s diff of each entry of `summary.resources`, in the same order
    /// (`None` when the two lists do not line up, which they always should),
    /// when held; empty when `spooled`.
    pub diffs: Vec<Option<ResourceDiff>>,
    /// The diffs are not held: the run spooled them, and a [`DiffWalk`]
    /// makes them again each time they are walked (memory does not grow
    /// with the plan).
    pub spooled: bool,
    /// What the diffs weigh, once measured ([`Weighed`]).
    pub weighed: Option<Weighed>,
    /// `show`'s output changes (no-ops left out).
    pub outputs: Vec<OutputDiff>,
    /// Drift relevant to this plan (as `planview drift` lists it by default).
    pub drift: Vec<DriftEntry>,
    /// Drifted objects left out as not relevant.
    pub drift_hidden: u64,
    /// The plan's fingerprint (`planview fingerprint`), when it was computed.
    pub fingerprint: Option<String>,
    /// The provider types whose diffs were shown without their schema (as `show` says).
    pub without_schema: std::collections::BTreeSet<String>,
}

impl Review {
    /// True when the plan would change a resource (output-only changes do not count).
    pub(crate) fn has_resource_changes(&self) -> bool {
        let s = &self.summary;
        !s.totals.is_empty() || s.moved > 0 || s.unrecognised > 0 || s.deferred > 0 || s.invocations > 0 || !s.unreadable.is_empty()
    }
}

/// What `comment` knows of a review's diffs before it decides which fit:
/// each one's changed attributes (for grouping alike changes) and the length
/// of its markdown at each cap a body cuts diffs to. A few bytes per change,
/// where the diffs themselves grow with the plan.
#[derive(Debug, Clone, Default)]
pub(crate) struct Weighed {
    /// Whether the diffs line up with `summary.resources` (else none is shown).
    pub lined_up: bool,
    /// Each entry's changed attributes, an index into `sets` (`None`: no diff).
    pub attrs: Vec<Option<u32>>,
    /// The sets of changed attributes, each once.
    pub sets: Vec<Vec<String>>,
    /// For each cap measured, each entry's markdown length (0 without a diff).
    pub lens: Vec<(usize, Vec<u32>)>,
    /// The markdown of the first diffs as they were weighed, by cap and
    /// entry, while they take at most [`Weighed::KEPT_BYTES`] in all: a body
    /// makes again only the diffs it keeps that are not here.
    pub rendered: Vec<(usize, std::collections::HashMap<usize, String>)>,
}

impl Weighed {
    /// The markdown kept as diffs are weighed, at most (the comment's and
    /// the job summary's budgets are 64 KiB and 1 MiB).
    pub(crate) const KEPT_BYTES: usize = 2 << 20;

    /// Each entry's markdown length at `cap`, if measured.
    pub(crate) fn lens(&self, cap: usize) -> Option<&[u32]> {
        self.lens.iter().find(|(c, _)| *c == cap).map(|(_, l)| &l[..])
    }
}

/// The diffs of the reviews a run spooled ([`Review::spooled`]), made again
/// from the spool each time they are walked.
pub(crate) trait DiffWalk {
    /// `f(index, diff)` for each diff of input `item` (its entry's index in
    /// `summary.resources`) that `wanted` asks for, in order; `masker`: that
    /// input's secrets.
    fn each(
        &self,
        item: usize,
        masker: &crate::secrets::Masker,
        wanted: &mut dyn FnMut(usize) -> bool,
        f: &mut dyn FnMut(usize, &ResourceDiff) -> std::io::Result<()>,
    ) -> std::io::Result<()>;
}

/// No review's diffs are spooled: each holds its own.
pub(crate) struct Held;

impl DiffWalk for Held {
    fn each(
        &self,
        _: usize,
        _: &crate::secrets::Masker,
        _: &mut dyn FnMut(usize) -> bool,
        _: &mut dyn FnMut(usize, &ResourceDiff) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        Ok(())
    }
}

/// Walk the diffs of `r` (input `item`) that `wanted` asks for, held or spooled.
pub(crate) fn each_diff(
    r: &Review,
    item: usize,
    masker: &crate::secrets::Masker,
    walk: &dyn DiffWalk,
    wanted: &mut dyn FnMut(usize) -> bool,
    f: &mut dyn FnMut(usize, &ResourceDiff) -> std::io::Result<()>,
) -> std::io::Result<()> {
    if r.spooled {
        return walk.each(item, masker, wanted, f);
    }
    for (i, d) in r.diffs.iter().enumerate() {
        if let Some(d) = d.as_ref().filter(|_| wanted(i)) {
            f(i, d)?;
        }
    }
    Ok(())
}

/// What a pipeline branches on (`--outputs-file`): over every input read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct CiOutputs {
    pub has_changes: bool,
    /// Ignores output-only changes.
    pub has_resource_changes: bool,
    /// A managed resource would be destroyed (deleted, replaced, or a deposed object destroyed).
    pub destructive: bool,
    /// `pass`, `fail` or `error` (an input could not be read), as the gate says.
    pub verdict: &'static str,
    pub to_add: u64,
    pub to_change: u64,
    pub to_destroy: u64,
    pub to_replace: u64,
    pub to_import: u64,
    pub to_move: u64,
    pub to_forget: u64,
}

impl CiOutputs {
    pub(crate) fn of(items: &[crate::outcome::PerFile<Review>]) -> CiOutputs {
        let t = crate::query::gate::total(items.iter().map(|i| i.result.as_ref().ok().map(|r| &r.verdict)));
        let mut o = CiOutputs { verdict: crate::query::gate::overall(&t), ..Default::default() };
        for r in items.iter().filter_map(|i| i.result.as_ref().ok()) {
            let (s, c) = (&r.summary, &r.verdict.counts);
            o.has_changes |= s.has_changes;
            o.has_resource_changes |= r.has_resource_changes();
            o.destructive |= c.delete > 0;
            o.to_add += s.totals.add;
            o.to_change += s.totals.change;
            o.to_destroy += s.totals.destroy;
            o.to_replace += c.replace;
            o.to_import += s.totals.import;
            o.to_move += s.moved;
            o.to_forget += s.totals.forget;
        }
        o
    }

    /// `name=value` lines, as `$GITHUB_OUTPUT` takes them.
    pub(crate) fn lines(&self) -> String {
        let pairs: [(&str, String); 11] = [
            ("has_changes", self.has_changes.to_string()),
            ("has_resource_changes", self.has_resource_changes.to_string()),
            ("destructive", self.destructive.to_string()),
            ("verdict", self.verdict.to_string()),
            ("to_add", self.to_add.to_string()),
            ("to_change", self.to_change.to_string()),
            ("to_destroy", self.to_destroy.to_string()),
            ("to_replace", self.to_replace.to_string()),
            ("to_import", self.to_import.to_string()),
            ("to_move", self.to_move.to_string()),
            ("to_forget", self.to_forget.to_string()),
        ];
        pairs.iter().map(|(k, v)| format!("{k}={v}\n")).collect()
    }
}

/// Why a state cannot be reviewed.
pub(crate) const NOT_A_PLAN: &str = "this is a state, not a plan: `comment` reviews plans (`tofu show -json PLANFILE`)";

/// Review `doc` against `policy`; `fingerprint` is the plan's, when the policy
/// expects one. A state is refused, as the gate refuses it.
pub(crate) fn review(
    doc: &Document<'_>,
    policy: &Policy,
    show: &ShowOptions,
    vis: &Visibility,
    fingerprint: Option<&str>,
) -> Result<Review, String> {
    let Document::Plan(p) = doc else { return Err(NOT_A_PLAN.to_string()) };
    let mut summary = summarize_plan_with(p, &crate::query::noise::Noise::new(&policy.ignore_attributes));
    summary.mask_inputs(vis);
    let none = crate::secrets::Masker::default();
    let masker = vis.masker.filter(|_| !vis.show_sensitive).unwrap_or(&none);
    let verdict = evaluate_with(p, policy, fingerprint, masker);
    let show = show_plan(p, show, vis);
    let diffs = line_up(show.resources, &summary);
    let filter = Filter::default();
    let drift = drift_plan(p, &DriftOptions { filter: &filter, all: false }, vis);
    Ok(Review {
        summary,
        verdict,
        diffs,
        spooled: false,
        weighed: None,
        outputs: show.outputs,
        drift: drift.entries,
        drift_hidden: drift.hidden,
        fingerprint: fingerprint.map(str::to_string),
        without_schema: show.without_schema,
    })
}

/// `show`'s diffs as [`Review::diffs`] holds them: one per entry of
/// `summary.resources`, or none at all when the two lists do not line up.
pub(crate) fn line_up(diffs: Vec<ResourceDiff>, summary: &PlanSummary) -> Vec<Option<ResourceDiff>> {
    let lined_up = diffs.len() == summary.resources.len()
        && diffs.iter().zip(&summary.resources).all(|(d, e)| d.address == e.address && d.deposed == e.deposed);
    if lined_up {
        diffs.into_iter().map(Some).collect()
    } else {
        summary.resources.iter().map(|_| None).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::parse;

    #[test]
    fn diffs_line_up_with_the_summary_and_states_are_refused() {
        let doc = parse(
            "p",
            br#"{"format_version":"1.2","resource_changes":[
              {"address":"a.b","mode":"managed","type":"a","name":"b","change":{"actions":["update"],"before":{"x":1},"after":{"x":2}}},
              {"address":"a.n","mode":"managed","type":"a","name":"n","change":{"actions":["no-op"],"before":{"x":1},"after":{"x":1}}},
              {"address":"a.c","mode":"managed","type":"a","name":"c","change":{"actions":["delete"],"before":{"x":1},"after":null}}],
              "output_changes":{"o":{"actions":["create"],"before":null,"after":"v"}}}"#,
        )
        .unwrap();
        let r = review(&doc, &Policy::default(), &ShowOptions::default(), &Visibility::default(), None).unwrap();
        let addrs: Vec<&str> = r.diffs.iter().map(|d| d.as_ref().unwrap().address.as_str()).collect();
        assert_eq!(addrs, ["a.b", "a.c"]);
        assert_eq!(r.verdict.verdict, "fail", "the default rule denies the delete");
        assert!(r.has_resource_changes());
        assert_eq!(r.outputs.len(), 1);
        let only_outputs =
            parse("p", br#"{"format_version":"1.2","output_changes":{"o":{"actions":["create"],"before":null,"after":"v"}}}"#).unwrap();
        let r = review(&only_outputs, &Policy::default(), &ShowOptions::default(), &Visibility::default(), None).unwrap();
        assert!(r.summary.has_changes && !r.has_resource_changes(), "output-only changes are not resource changes");
        let state = parse("s", br#"{"format_version":"1.0","values":{"root_module":{}}}"#).unwrap();
        assert!(review(&state, &Policy::default(), &ShowOptions::default(), &Visibility::default(), None).unwrap_err().contains("state"));
    }
}
