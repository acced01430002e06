//! `state`: the resources of a state (or of the prior state inside a plan,
//! with `--prior`) by module, type and name, with mode, provider and
//! tainted/deposed marks, filtered, and counted per type.

use crate::filter::Filter;
use crate::input::Document;
use crate::model::{Mode, Values};
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
            let prior = p.prior_state().map_err(|e| format!("invalid `prior_state`: {}", crate::input::serde_message(&e)))?;
            let values = prior.as_ref().and_then(|s| s.values.as_ref());
            Ok(report("plan", &p.format_version, p.terraform_version.clone(), values, opts.filter))
        }
        Document::Plan(_) => Err("this is a plan: add --prior to list the state it was planned against".into()),
    }
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
    let mut counts = StateListCounts::default();
    let mut resources = Vec::new();
    let mut total = 0;
    for (module, r) in values.map(|v| v.root_module.walk()).unwrap_or_default() {
        total += 1;
        if !filter.matches_object(&r.address, &r.type_, module) {
            continue;
        }
        counts.resources += 1;
        match r.mode {
            Mode::Managed => counts.managed += 1,
            Mode::Data => counts.data += 1,
            Mode::Other(_) => {}
        }
        counts.tainted += u64::from(r.tainted);
        counts.deposed += u64::from(r.deposed_key.is_some());
        *counts.by_type.entry(r.type_.clone()).or_default() += 1;
        *counts.by_module.entry(module.unwrap_or("(root)").to_string()).or_default() += 1;
        resources.push(StateResource {
            address: r.address.clone(),
            module: module.map(str::to_string),
            mode: r.mode.as_str().to_string(),
            type_: r.type_.clone(),
            name: r.name.clone(),
            index: r.index.clone(),
            provider_name: r.provider_name.clone(),
            tainted: r.tainted,
            deposed: r.deposed_key.clone(),
        });
    }
    // Stable: instances keep their state order within a resource.
    resources.sort_by(order);
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
        let doc = crate::input::parse("t", json.as_bytes()).unwrap();
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
