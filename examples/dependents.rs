//! The blast-radius benchmark's timer (`bench/dependents.sh`): read one plan,
//! collect its changes once, then time, RUNS times each, building the graph of
//! its `configuration` alone (parse included) and building it and answering
//! every change (`Dependents::compute`); print min/median/max milliseconds.
//! Not part of planview.

use planview::testkit::model::Plan;
use planview::testkit::query::dependents::{Builder, Changes, Dependents};
use std::time::Instant;

fn stats(mut v: Vec<f64>) -> String {
    v.sort_by(|a, b| a.total_cmp(b));
    format!("min {:.1} ms, median {:.1} ms, max {:.1} ms", v[0], v[v.len() / 2], v[v.len() - 1])
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: dependents PLAN.json [RUNS]");
    let runs: usize = args.next().map_or(5, |r| r.parse().expect("RUNS is a number"));
    let text = std::fs::read_to_string(&path).expect("readable UTF-8");
    let plan: Plan = serde_json::from_str(&text).expect("a plan");
    let changes = Changes::of_plan(&plan);
    let (mut graph, mut all) = (Vec::new(), Vec::new());
    let mut answered = (0usize, 0usize);
    for _ in 0..runs {
        let t = Instant::now();
        let config = plan.configuration().expect("a readable configuration");
        let b = Builder::new(config.as_ref(), None);
        graph.push(t.elapsed().as_secs_f64() * 1e3);
        drop(b);
        let t = Instant::now();
        let config = plan.configuration().expect("a readable configuration");
        let d = Dependents::compute(config.as_ref(), None, &changes);
        all.push(t.elapsed().as_secs_f64() * 1e3);
        answered = (d.changes.len(), d.changes.values().map(|b| b.dependents.len()).sum());
    }
    println!("graph of the configuration (parse + build), {runs} runs: {}", stats(graph));
    println!("graph + every change answered ({} changes, {} dependents in all), {runs} runs: {}", answered.0, answered.1, stats(all));
}
