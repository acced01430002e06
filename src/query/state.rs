//! `state`: the resources of a state (or of the prior state inside a plan,
//! with `--prior`) by module, type and name, with mode, provider and
//! tainted/deposed marks, filtered, and counted per type.

use crate::error::InputError;
use crate::filter::Filter;
use crate::model::Document;
use crate::model::Values;
use crate::query::summary::StateResource;
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
    pub resources: Vec<StateResource>,
}

pub(crate) fn state(doc: &Document<'_>, opts: &StateOptions<'_>) -> Result<StateReport, String> {
    match doc {
        Document::State(s) => Ok(report("state", &s.format_version, s.terraform_version.clone(), s.values.as_ref(), opts.filter)),
        Document::Plan(p) if opts.prior => {
            let prior = p.prior_state().map_err(|e| format!("invalid `prior_state`: {}", crate::error::serde_message(&e)))?;
            let values = prior.as_ref().and_then(|s| s.values.as_ref());
            Ok(report("plan", &p.format_version, p.terraform_version.clone(), values, opts.filter))
        }
        Document::Plan(_) => Err("this is a plan: add --prior to list the state it was planned against".into()),
    }
}

/// The resources of `prior_state`, collected as a plan streams by
/// ([`crate::model::visit::PlanVisitor::on_prior`]): what each resource of the
/// report needs (no values), with its module's address, in the order a whole
/// read walks the module tree; and why `prior_state` would not read, if so.
#[derive(Debug, Default)]
pub(crate) struct PriorResources {
    /// One frame per module being read: its own resources, then its
    /// descendants' (with their modules).
    frames: Vec<(Vec<StateResource>, Vec<StateResource>)>,
    walked: Vec<StateResource>,
    refused: Option<String>,
}

impl crate::model::visit::PlanVisitor for PriorResources {
    fn needs_every_values_resource(&self) -> bool {
        true
    }
    fn on_prior(&mut self, event: crate::model::visit::Prior<'_>) {
        use crate::model::visit::Prior;
        match event {
            Prior::Module => self.frames.push((Vec::new(), Vec::new())),
            Prior::Resource(r) => {
                if let Some((own, _)) = self.frames.last_mut() {
                    own.push(StateResource::of(None, r));
                }
            }
            Prior::EndModule(address) => {
                let Some((mut own, below)) = self.frames.pop() else { return };
                if let Some(a) = address {
                    own.iter_mut().for_each(|r| r.module = Some(a.to_string()));
                }
                // Moved, not copied, where the list it joins is empty (the root's resources).
                append(&mut own, below);
                match self.frames.last_mut() {
                    Some((_, parent)) => append(parent, own),
                    None => append(&mut self.walked, own),
                }
            }
            Prior::Refused(why) => {
                self.refused.get_or_insert(why);
            }
        }
    }
}

/// `more` after `to`: moved whole when `to` is empty (no second buffer of as
/// many rows while they are copied).
fn append(to: &mut Vec<StateResource>, more: Vec<StateResource>) {
    if to.is_empty() {
        *to = more;
    } else {
        to.extend(more);
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
            Ok(report_of("plan", &p.format_version, p.terraform_version.clone(), prior.walked, opts.filter))
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
) -> StateReport {
    let walked = values.map(|v| v.root_module.walk()).unwrap_or_default();
    report_of(document, format_version, terraform_version, walked.into_iter().map(|(m, r)| StateResource::of(m, r)), filter)
}

/// The report over every resource (as [`row`]s), in
/// [`crate::model::Module::walk`]'s order. The rows are filtered and sorted
/// in place: memory holds them once, and 4 bytes a row while they are sorted.
fn report_of(
    document: &'static str,
    format_version: &str,
    terraform_version: Option<String>,
    rows: impl IntoIterator<Item = StateResource>,
    filter: &Filter,
) -> StateReport {
    let mut counts = StateListCounts::default();
    let mut resources: Vec<StateResource> = rows.into_iter().collect();
    let total = resources.len() as u64;
    resources.retain(|r| {
        if !filter.matches_object(&r.address, &r.type_, r.module.as_deref()) {
            return false;
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
        true
    });
    resources.shrink_to_fit();
    sort_in_place(&mut resources);
    StateReport {
        kind: "state",
        file: String::new(),
        document,
        format_version: format_version.to_string(),
        terraform_version,
        total,
        counts,
        resources,
    }
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

/// `rows` sorted by [`order`], stable (instances keep their state order
/// within a resource): the rows' places are sorted (4 bytes each), then the
/// rows moved there by following each cycle of the permutation, where a
/// stable sort of the rows themselves would take a buffer of half of them.
fn sort_in_place(rows: &mut [StateResource]) {
    let Ok(n) = u32::try_from(rows.len()) else {
        rows.sort_by(order);
        return;
    };
    let mut place: Vec<u32> = (0..n).collect();
    // The place breaks ties: the same order as a stable sort.
    place.sort_unstable_by(|a, b| order(&rows[*a as usize], &rows[*b as usize]).then(a.cmp(b)));
    // `place[i]` is the row that goes to `i`; each cycle is walked once, and
    // a place done is marked by pointing at itself.
    for start in 0..rows.len() {
        let mut i = start;
        while place[i] as usize != start {
            let from = place[i] as usize;
            if from == i {
                break;
            }
            rows.swap(i, from);
            place[i] = i as u32;
            i = from;
        }
        place[i] = i as u32;
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

    /// The rows sorted in place (their places sorted, then each cycle
    /// followed) are in the order a stable sort gives: ties (instances of one
    /// resource) keep their state order; on lists with and without ties,
    /// already sorted, reversed, and of 0 to 2 rows.
    #[test]
    fn rows_sorted_in_place_are_in_a_stable_sorts_order() {
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
            let mut ours = list.clone();
            sort_in_place(&mut ours);
            let addresses = |v: &[StateResource]| v.iter().map(|r| format!("{:?} {} {}", r.module, r.mode, r.address)).collect::<Vec<_>>();
            assert_eq!(addresses(&ours), addresses(&stable), "{} rows", list.len());
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
