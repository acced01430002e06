//! `comment --html FILE`: the page of `show --format html` made from the
//! reviews `comment` already holds (each plan read once), with the gate's
//! verdict and broken rules above each plan: a CI artifact beside the PR
//! comment, which a comment's size limit never cuts.

use crate::outcome::PerFile;
use crate::query::dependents::{Blast, Dependent, Dependents};
use crate::query::gate::Severity;
use crate::query::review::{each_diff, DiffWalk, Review};
use crate::query::show::{ResourceDiff, ShowReport};
use crate::render::show::{html_page, Item, PageVerdict, Resources};
use std::cell::RefCell;
use std::io::{self, Write};

/// A review's diffs as the page walks them, held or spooled (a diff that
/// could not be lined up with its summary entry is left out, as the comment
/// leaves it out).
struct Diffs<'a> {
    review: Option<&'a Review>,
    item: usize,
    masker: &'a crate::secrets::Masker,
    walk: &'a dyn DiffWalk,
}

impl Diffs<'_> {
    /// Whether the diffs line up with the summary (if they were weighed).
    fn lined_up(&self) -> bool {
        self.review.is_some_and(|r| r.weighed.as_ref().is_none_or(|w| w.lined_up))
    }
}

impl Resources for Diffs<'_> {
    fn count(&self) -> usize {
        match self.review {
            Some(r) if r.spooled => r.weighed.as_ref().filter(|w| w.lined_up).map_or(0, |w| w.attrs.len()),
            Some(r) => r.diffs.iter().flatten().count(),
            None => 0,
        }
    }
    fn each(&mut self, f: &mut dyn FnMut(&ResourceDiff) -> io::Result<bool>) -> io::Result<()> {
        let Some(r) = self.review.filter(|_| self.lined_up()) else { return Ok(()) };
        let more = std::cell::Cell::new(true);
        each_diff(r, self.item, self.masker, self.walk, &mut |_| more.get(), &mut |_, d| {
            more.set(f(d)?);
            Ok(())
        })
    }
}

/// The verdict of a review, as the page shows it.
fn verdict(r: &Review) -> PageVerdict {
    let lines = r
        .verdict
        .violations
        .iter()
        .map(|v| {
            let severity = match v.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
            };
            let at = v.address.as_deref().map(|a| format!(" {a}")).unwrap_or_default();
            format!("{severity} [{}]{at}: {}", v.rule, v.reason)
        })
        .collect();
    PageVerdict { passed: r.verdict.passed(), lines }
}

/// The dependents the review holds: each destructive change's (the gate's
/// blast lines, made when the policy or the comment asks for them).
fn blast_of(r: &Review) -> Dependents {
    let changes = r
        .verdict
        .blast
        .iter()
        .map(|b| {
            let certain = b.dependents.iter().map(|a| Dependent { address: a.clone(), unknown: Vec::new(), through_locals: false });
            let guessed = b.through_locals.iter().map(|a| Dependent { address: a.clone(), unknown: Vec::new(), through_locals: true });
            let dependents = certain.chain(guessed).collect();
            (b.address.clone(), Blast { dependents, outputs: Vec::new() })
        })
        .collect();
    Dependents { configured: true, notes: Vec::new(), changes }
}

/// Write the page of `items` (their output changes are moved into it).
pub(crate) fn review_page(w: &mut dyn Write, items: &mut [PerFile<Review>], walk: &dyn DiffWalk) -> io::Result<()> {
    let reports: Vec<Result<ShowReport, crate::error::InputError>> = items
        .iter_mut()
        .map(|i| match &mut i.result {
            Ok(r) => Ok(ShowReport {
                file: i.file.clone(),
                format_version: r.summary.format_version.clone(),
                terraform_version: r.summary.terraform_version.clone(),
                errored: r.summary.errored,
                resources: Vec::new(),
                outputs: std::mem::take(&mut r.outputs),
                hidden_noop: 0,
                filtered_out: 0,
                invocations: Vec::new(),
                without_schema: Default::default(),
                dependents: r.verdict.dependents.clone().unwrap_or_else(|| blast_of(r)),
            }),
            Err(e) => Err(e.clone()),
        })
        .collect();
    let verdicts: Vec<Option<PageVerdict>> = items.iter().map(|i| i.result.as_ref().ok().map(verdict)).collect();
    let pages: Vec<Item<'_>> = items
        .iter()
        .zip(&reports)
        .enumerate()
        .map(|(n, (i, report))| {
            let diffs = Diffs { review: i.result.as_ref().ok(), item: n, masker: &i.masker, walk };
            Item { result: report.as_ref(), resources: RefCell::new(Box::new(diffs)), masker: &i.masker, locations: None }
        })
        .collect();
    html_page(w, &pages, &verdicts)
}
