//! `state`: the resources of a state (or of the prior state inside a plan,
//! with `--prior`) by module, type and name, with mode, provider and
//! tainted/deposed marks, filtered, and counted per type.

use crate::error::InputError;
use crate::filter::Filter;
use crate::model::Document;
use crate::model::Values;
use crate::query::state_rows::{Rows, Sorter, ROWS_BUDGET};
use crate::query::summary::StateResource;
use crate::spool::Records;
use serde::Serialize;
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// What the user asked for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct StateOptions<'f> {
    pub filter: &'f Filter,
    /// `--prior`: read a plan's prior state.
    pub prior: bool,
}

/// Counts over the listed resources.
#[derive(Debug, Default, Serialize)]
pub(crate) struct StateListCounts {
    pub resources: u64,
    pub managed: u64,
    pub data: u64,
    pub tainted: u64,
    pub deposed: u64,
    pub by_type: BTreeMap<String, u64>,
    /// `(root)` for the root module.
    pub by_module: BTreeMap<String, u64>,
}

/// The resources of one state.
#[derive(Debug, Serialize)]
pub(crate) struct StateReport {
    pub kind: &'static str,
    pub file: String,
    /// `state`, or `plan` when the prior state of a plan was read.
    pub document: &'static str,
    pub format_version: String,
    pub terraform_version: Option<String>,
    /// Resource instances in the state, before the filters.
    pub total: u64,
    pub counts: StateListCounts,
    /// Sorted by module, mode, type and name; instances in state order.
    pub resources: Rows,
}

pub(crate) fn state(doc: &Document<'_>, opts: &StateOptions<'_>) -> Result<StateReport, String> {
    match doc {
        Document::State(s) => report("state", &s.format_version, s.terraform_version.clone(), s.values.as_ref(), opts.filter),
        Document::Plan(p) if opts.prior => {
            let prior = p.prior_state().map_err(|e| format!("invalid `prior_state`: {}", crate::error::serde_message(&e)))?;
            let values = prior.as_ref().and_then(|s| s.values.as_ref());
            report("plan", &p.format_version, p.terraform_version.clone(), values, opts.filter)
        }
        Document::Plan(_) => Err("this is a plan: add --prior to list the state it was planned against".into()),
    }
}

/// The resources of `prior_state`, collected as a plan streams by
/// ([`crate::model::visit::PlanVisitor::on_prior`]): what each resource of the
/// report needs (no values), spooled as it comes with the module it is in
/// (whose address terraform writes after its resources), and sorted at the
/// end in the order a whole read gives; and why `prior_state` would not
/// read, if so.
#[derive(Debug, Default)]
pub(crate) struct PriorResources {
    /// The modules being read (their places in `modules`).
    open: Vec<u32>,
    /// Each module in the order it began (the whole read's walk order): its
    /// parent, and its address once it ended.
    modules: Vec<(Option<u32>, Option<Option<String>>)>,
    /// Each resource, with its module, in the order it came.
    rows: Records<(u32, StateResource)>,
    refused: Option<String>,
    failed: Option<String>,
}

impl crate::model::visit::PlanVisitor for PriorResources {
    fn needs_every_values_resource(&self) -> bool {
        true
    }
    fn on_prior(&mut self, event: crate::model::visit::Prior<'_>) {
        use crate::model::visit::Prior;
        match event {
            Prior::Module => {
                let rank = self.modules.len() as u32;
                self.modules.push((self.open.last().copied(), None));
                self.open.push(rank);
            }
            Prior::Resource(r) => {
                if let Some(&rank) = self.open.last() {
                    if let Err(e) = self.rows.push(&(rank, StateResource::of(None, r))) {
                        self.failed.get_or_insert_with(|| format!("cannot spool the resources to a temporary file: {e}"));
                    }
                }
            }
            Prior::EndModule(address) => {
                let Some(rank) = self.open.pop() else { return };
                self.modules[rank as usize].1 = Some(address.map(str::to_string));
            }
            Prior::Refused(why) => {
                self.refused.get_or_insert(why);
            }
        }
    }
}

impl PriorResources {
    /// Each row given to `f` with its module (a module's address is set on
    /// its own resources) and a tie-break in the order a whole read walks them
    /// (a module's own resources, then its descendants'): the module's place
    /// in the walk, then the row's place in the input. Only the rows of
    /// modules that ended, whose ancestors ended too, as a whole read has them.
    fn each(self, f: &mut dyn FnMut(u64, StateResource)) -> Result<(), String> {
        if let Some(why) = self.failed {
            return Err(why);
        }
        let mut kept = vec![false; self.modules.len()];
        for (i, (parent, end)) in self.modules.iter().enumerate() {
            kept[i] = end.is_some() && parent.is_none_or(|p| kept[p as usize]);
        }
        let mut seq = 0u64;
        self.rows
            .each(|(rank, mut row)| {
                let place = seq;
                seq += 1;
                if kept[rank as usize] {
                    if let Some(Some(a)) = &self.modules[rank as usize].1 {
                        row.module = Some(a.clone());
                    }
                    f((u64::from(rank) << 32) | (place & 0xffff_ffff), row);
                }
                Ok(())
            })
            .map_err(|e| format!("cannot read the spooled resources back: {e}"))
    }
}

/// [`state`] over a document streamed by with [`PriorResources`] collecting
/// its `prior_state` (`doc` is the skeleton: a state keeps its `values`).
pub(crate) fn state_streamed(doc: &Document<'_>, prior: PriorResources, opts: &StateOptions<'_>) -> Result<StateReport, String> {
    match doc {
        Document::Plan(p) if opts.prior => {
            if let Some(why) = &prior.refused {
                return Err(format!("invalid `prior_state`: {why}"));
            }
            report_of("plan", &p.format_version, p.terraform_version.clone(), opts.filter, |f| prior.each(f))
        }
        _ => state(doc, opts),
    }
}

/// The results of `state` streamed (`crate::run`) as per-input results, each error
/// named after its input as reported.
pub(crate) fn settle(items: Vec<crate::outcome::PerFile<Result<StateReport, InputError>>>) -> Vec<crate::outcome::PerFile<StateReport>> {
    items
        .into_iter()
        .map(|i| {
            let file = i.file;
            let result = i.result.and_then(|r| r.map_err(|e| InputError { file: file.clone(), ..e }));
            crate::outcome::PerFile { file, result, masker: i.masker }
        })
        .collect()
}

fn module_key(m: &Option<String>) -> &str {
    m.as_deref().unwrap_or("")
}

fn mode_rank(mode: &str) -> u8 {
    match mode {
        "managed" => 0,
        "data" => 1,
        _ => 2,
    }
}

fn order(a: &StateResource, b: &StateResource) -> Ordering {
    module_key(&a.module)
        .cmp(module_key(&b.module))
        .then_with(|| mode_rank(&a.mode).cmp(&mode_rank(&b.mode)))
        .then_with(|| a.type_.cmp(&b.type_))
        .then_with(|| a.name.cmp(&b.name))
}

fn report(
    document: &'static str,
    format_version: &str,
    terraform_version: Option<String>,
    values: Option<&Values<'_>>,
    filter: &Filter,
) -> Result<StateReport, String> {
    let walked = values.map(|v| v.root_module.walk()).unwrap_or_default();
    report_of(document, format_version, terraform_version, filter, |f| {
        walked.into_iter().enumerate().for_each(|(i, (m, r))| f(i as u64, StateResource::of(m, r)));
        Ok(())
    })
}

/// The report over every resource given by `rows` (each with its
/// tie-break, unique and in [`crate::model::Module::walk`]'s order), filtered
/// as they come and sorted with bounded memory ([`Sorter`]: sorted runs
/// spooled past [`ROWS_BUDGET`] and merged as they are read).
fn report_of(
    document: &'static str,
    format_version: &str,
    terraform_version: Option<String>,
    filter: &Filter,
    rows: impl FnOnce(&mut dyn FnMut(u64, StateResource)) -> Result<(), String>,
) -> Result<StateReport, String> {
    let mut counts = StateListCounts::default();
    let mut total = 0u64;
    let mut sorter = Sorter::new(order, ROWS_BUDGET);
    rows(&mut |tie, r| {
        total += 1;
        if !filter.matches_object(&r.address, &r.type_, r.module.as_deref()) {
            return;
        }
        counts.resources += 1;
        // `Mode` reads these two words as `Managed` and `Data`, and keeps any other.
        match r.mode.as_str() {
            "managed" => counts.managed += 1,
            "data" => counts.data += 1,
            _ => {}
        }
        counts.tainted += u64::from(r.tainted);
        counts.deposed += u64::from(r.deposed.is_some());
        bump(&mut counts.by_type, &r.type_);
        bump(&mut counts.by_module, r.module.as_deref().unwrap_or("(root)"));
        sorter.push(tie, r);
    })?;
    Ok(StateReport {
        kind: "state",
        file: String::new(),
        document,
        format_version: format_version.to_string(),
        terraform_version,
        total,
        counts,
        resources: sorter.finish()?,
    })
}

/// Count under `key`, allocating only for a key not seen before.
fn bump(m: &mut BTreeMap<String, u64>, key: &str) {
    match m.get_mut(key) {
        Some(n) => *n += 1,
        None => {
            m.insert(key.to_string(), 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::glob::Glob;

    const STATE: &str = r#"{"format_version":"1.0","values":{"root_module":{"resources":[
        {"address":"b_thing.z","mode":"managed","type":"b_thing","name":"z"},
        {"address":"data.a_src.x","mode":"data","type":"a_src","name":"x"},
        {"address":"a_thing.y[1]","mode":"managed","type":"a_thing","name":"y","index":1,"tainted":true},
        {"address":"a_thing.y[0]","mode":"managed","type":"a_thing","name":"y","index":0},
        {"address":"a_thing.y[0]","mode":"managed","type":"a_thing","name":"y","index":0,"deposed_key":"abcd1234"}],
      "child_modules":[{"address":"module.m","resources":[{"address":"module.m.a_thing.q","mode":"managed","type":"a_thing","name":"q"}]}]}}}"#;

    fn run(json: &str, filter: &Filter, prior: bool) -> Result<StateReport, String> {
        let doc = crate::read::parse("t", json.as_bytes()).unwrap();
        state(&doc, &StateOptions { filter, prior })
    }

    #[test]
    fn resources_sorted_by_module_mode_type_name_with_marks_and_counts() {
        let r = run(STATE, &Filter::default(), false).unwrap();
        let addrs: Vec<&str> = r.resources.iter().map(|x| x.address.as_str()).collect();
        assert_eq!(addrs, vec!["a_thing.y[1]", "a_thing.y[0]", "a_thing.y[0]", "b_thing.z", "data.a_src.x", "module.m.a_thing.q"]);
        assert_eq!((r.counts.resources, r.counts.managed, r.counts.data, r.counts.tainted, r.counts.deposed), (6, 5, 1, 1, 1));
        assert_eq!(r.counts.by_type["a_thing"], 4);
        assert_eq!(r.counts.by_module["(root)"], 5);
    }

    /// `state --prior` streamed (the prior state collected as it passes) says
    /// what a whole read says, for prior states a whole read reads and for
    /// those it refuses (the first refusal, worded the same).
    #[test]
    fn prior_state_streamed_reads_and_refuses_as_a_whole_read() {
        let modules = r#"{"resources":[{"address":"b.z","mode":"managed","type":"b","name":"z"}],"address":"module.m",
            "child_modules":[{"address":"module.m.module.n","resources":[{"address":"module.m.module.n.a.q","type":"a","name":"q","index":"k"}]}]}"#;
        let priors = [
            STATE.to_string(),
            "null".into(),
            "{}".into(),
            "7".into(),
            r#"{"values":null}"#.into(),
            r#"{"values":"x"}"#.into(),
            r#"{"values":{}}"#.into(),
            r#"{"format_version":1,"values":{}}"#.into(),
            r#"{"values":{},"values":{}}"#.into(),
            r#"{"checks":{},"values":{}}"#.into(),
            r#"{"values":{"outputs":[],"root_module":{}}}"#.into(),
            r#"{"values":{"root_module":[]}}"#.into(),
            r#"{"values":{"root_module":{"resources":{}}}}"#.into(),
            r#"{"values":{"root_module":{"resources":[7]}}}"#.into(),
            r#"{"values":{"root_module":{"resources":[{"address":5}]}}}"#.into(),
            r#"{"values":{"root_module":{"address":3}}}"#.into(),
            r#"{"values":{"root_module":{"child_modules":[7]}}}"#.into(),
            r#"{"values":{"root_module":{"child_modules":null}}}"#.into(),
            r#"{"values":{"root_module":{"resources":[],"resources":[]}}}"#.into(),
            format!(
                r#"{{"values":{{"root_module":{{"child_modules":[{modules},{modules}],"resources":[{{"address":"r.x","type":"r","name":"x","tainted":true}}]}}}}}}"#
            ),
        ];
        for prior in priors {
            let plan = format!(r#"{{"format_version":"1.2","resource_changes":[],"prior_state":{prior}}}"#);
            for f in [Filter::default(), Filter { types: vec!["a".into()], ..Default::default() }] {
                let opts = StateOptions { filter: &f, prior: true };
                let whole = run(&plan, &f, true).map(|r| serde_json::to_string(&r).unwrap());
                let src = std::io::Cursor::new(plan.clone().into_bytes());
                let read = crate::read::ReadOptions::default();
                let streamed = crate::run::streamed::state_of_stream("t", src, crate::read::ReadAhead::Joined, &read, &opts)
                    .and_then(|(r, _)| r)
                    .map(|r| serde_json::to_string(&r).unwrap())
                    .map_err(|e| e.message);
                assert_eq!(streamed, whole, "{prior}");
            }
        }
    }

    /// The rows sorted in memory, or in sorted runs spooled and merged as
    /// they are read, are in the order a stable sort gives: ties (instances
    /// of one resource) keep their state order; on lists with and without
    /// ties, already sorted, reversed, and of 0 to 2 rows.
    #[test]
    fn rows_sorted_in_runs_are_in_a_stable_sorts_order() {
        let row = |i: usize, module: Option<&str>, mode: &str, type_: &str, name: &str| StateResource {
            address: format!("{type_}.{name}[{i}]"),
            module: module.map(str::to_string),
            mode: mode.into(),
            type_: type_.into(),
            name: name.into(),
            index: Some(i.into()),
            provider_name: None,
            tainted: false,
            deposed: None,
        };
        let mut seed = 7u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let mut lists: Vec<Vec<StateResource>> = vec![Vec::new()];
        for (n, kinds) in [(1, 1), (2, 1), (2, 2), (50, 3), (500, 4), (2_000, 50)] {
            let modules = [None, Some("module.a"), Some("module.b")];
            let list: Vec<StateResource> = (0..n)
                .map(|i| {
                    let m = modules[next(3) as usize];
                    let mode = if next(4) == 0 { "data" } else { "managed" };
                    row(i, m, mode, &format!("t{}", next(kinds)), &format!("n{}", next(kinds)))
                })
                .collect();
            let mut sorted = list.clone();
            sorted.sort_by(order);
            lists.push(sorted.clone());
            sorted.reverse();
            lists.push(sorted);
            lists.push(list);
        }
        for list in lists {
            let mut stable = list.clone();
            stable.sort_by(order);
            let addresses = |v: &[StateResource]| v.iter().map(|r| format!("{:?} {} {}", r.module, r.mode, r.address)).collect::<Vec<_>>();
            // In memory, one row a run, and runs of a few rows.
            for budget in [usize::MAX, 1, 2_000] {
                let mut sorter = Sorter::new(order, budget);
                list.iter().enumerate().for_each(|(i, r)| sorter.push(i as u64, r.clone()));
                let rows = sorter.finish().unwrap();
                assert_eq!(rows.len(), list.len());
                let mut ours = Vec::new();
                rows.each(|r| {
                    ours.push(r.clone());
                    Ok(())
                })
                .unwrap();
                assert_eq!(addresses(&ours), addresses(&stable), "{} rows, budget {budget}", list.len());
                let json = serde_json::to_string(&rows).unwrap();
                assert_eq!(json, serde_json::to_string(&stable).unwrap(), "{} rows, budget {budget}", list.len());
            }
        }
    }

    #[test]
    fn filters_and_prior_state_of_a_plan() {
        let f = Filter { modules: vec![Glob::new("root")], types: vec!["a_thing".into()], ..Default::default() };
        let r = run(STATE, &f, false).unwrap();
        assert_eq!((r.total, r.counts.resources), (6, 3));
        let plan = format!(r#"{{"format_version":"1.2","resource_changes":[],"prior_state":{}}}"#, STATE);
        assert!(run(&plan, &Filter::default(), false).unwrap_err().contains("--prior"));
        let r = run(&plan, &Filter::default(), true).unwrap();
        assert_eq!((r.document, r.counts.resources), ("plan", 6));
        let r = run(r#"{"format_version":"1.2","resource_changes":[]}"#, &Filter::default(), true).unwrap();
        assert!(r.resources.is_empty());
    }
}
