//! One row per root: what each root of a many-root run (several files, a
//! directory, a Terragrunt stream) will do, for the table that opens the
//! `summary` and `gate` reports and their JSON `roots`.

use crate::outcome::PerFile;
use crate::query::gate::PlanVerdict;
use crate::query::summary::Summary;
use serde::Serialize;

/// One root's row. Counts are `None` where the root could not be read (or is a state).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct RootRow {
    pub root: String,
    pub add: Option<u64>,
    pub change: Option<u64>,
    pub destroy: Option<u64>,
    pub replace: Option<u64>,
    pub import: Option<u64>,
    pub drift: Option<u64>,
    /// Check instances that did not pass (`fail`, `error`, or a status planview does not know).
    pub checks_not_passed: Option<u64>,
    /// summary: `changes`, `no changes`, `errored`, `incomplete`, `state` or `error`;
    /// gate: `pass`, `fail` or `error`.
    pub verdict: &'static str,
    /// Whether the root changes anything (or could not be read): `--skip-unchanged` keeps it.
    pub changed: bool,
}

impl RootRow {
    fn blank(root: &str, verdict: &'static str) -> RootRow {
        RootRow {
            root: root.to_string(),
            add: None,
            change: None,
            destroy: None,
            replace: None,
            import: None,
            drift: None,
            checks_not_passed: None,
            verdict,
            changed: true,
        }
    }
}

/// The rows of `summary`'s roots.
pub(crate) fn of_summaries(items: &[PerFile<Summary>]) -> Vec<RootRow> {
    items
        .iter()
        .map(|i| match &i.result {
            Ok(Summary::Plan(p)) => {
                let not_passed = p.checks.iter().filter(|(s, _)| s.as_str() != "pass" && s.as_str() != "unknown").map(|(_, n)| n).sum();
                let verdict = if p.errored {
                    "errored"
                } else if p.incomplete {
                    "incomplete"
                } else if p.has_changes || p.drift > 0 {
                    "changes"
                } else {
                    "no changes"
                };
                RootRow {
                    root: i.file.clone(),
                    add: Some(p.totals.add),
                    change: Some(p.totals.change),
                    destroy: Some(p.totals.destroy),
                    replace: Some(p.actions.get("replace").copied().unwrap_or(0)),
                    import: Some(p.totals.import),
                    drift: Some(p.drift),
                    checks_not_passed: Some(not_passed),
                    verdict,
                    changed: verdict != "no changes" || not_passed > 0,
                }
            }
            Ok(Summary::State(_)) => RootRow { changed: false, ..RootRow::blank(&i.file, "state") },
            Err(_) => RootRow::blank(&i.file, "error"),
        })
        .collect()
}

/// The rows of `gate`'s roots.
pub(crate) fn of_verdicts(items: &[PerFile<PlanVerdict>]) -> Vec<RootRow> {
    items
        .iter()
        .map(|i| match &i.result {
            Ok(v) => RootRow {
                root: i.file.clone(),
                add: Some(v.counts.create),
                change: Some(v.counts.update),
                destroy: Some(v.counts.delete),
                replace: Some(v.counts.replace),
                import: Some(v.counts.import),
                drift: Some(v.drift),
                checks_not_passed: Some(v.checks_not_passed),
                verdict: if v.passed() { "pass" } else { "fail" },
                changed: !v.passed() || v.counts.any > 0 || v.drift > 0 || v.checks_not_passed > 0,
            },
            Err(_) => RootRow::blank(&i.file, "error"),
        })
        .collect()
}

/// The rows to show: all, or with `skip_unchanged` those that change
/// something; and how many were left out.
pub(crate) fn shown(rows: &[RootRow], skip_unchanged: bool) -> (Vec<&RootRow>, usize) {
    let shown: Vec<&RootRow> = rows.iter().filter(|r| !skip_unchanged || r.changed).collect();
    let hidden = rows.len() - shown.len();
    (shown, hidden)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unchanged_roots_are_left_out_only_when_asked() {
        let mut quiet = RootRow::blank("a", "no changes");
        quiet.changed = false;
        let rows = vec![quiet, RootRow::blank("b", "error")];
        assert_eq!(shown(&rows, false).0.len(), 2);
        let (kept, hidden) = shown(&rows, true);
        assert_eq!((kept.len(), hidden, kept[0].root.as_str()), (1, 1, "b"));
    }
}
