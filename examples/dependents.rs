//! The blast-radius benchmark's timer (`bench/dependents.sh`): read one plan,
//! collect its changes once, then time, RUNS times each, building the graph of
//! its `configuration` alone (parse included) and building it and answering
//! every change (`Dependents::compute`); print min/median/max milliseconds of
//! wall time and of this thread's CPU time (Linux: `/proc/thread-self/schedstat`,
//! the time it ran: on a loaded machine the figure to read). Not part of planview.

use planview::model::Plan;
use planview::query::dependents::{Builder, Changes, Dependents};
use std::time::Instant;

fn stats(mut v: Vec<f64>) -> String {
    v.sort_by(|a, b| a.total_cmp(b));
    format!("min {:.1} ms, median {:.1} ms, max {:.1} ms", v[0], v[v.len() / 2], v[v.len() - 1])
}

/// This thread's CPU time so far, in milliseconds (0 where it cannot be read).
fn cpu_ms() -> f64 {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    text.split_whitespace().next().and_then(|ns| ns.parse::<f64>().ok()).map_or(0.0, |ns| ns / 1e6)
}

/// Wall and CPU milliseconds of `f`.
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64, f64) {
    let (t, c) = (Instant::now(), cpu_ms());
    let out = f();
    (out, t.elapsed().as_secs_f64() * 1e3, cpu_ms() - c)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: dependents PLAN.json [RUNS]");
    let runs: usize = args.next().map_or(5, |r| r.parse().expect("RUNS is a number"));
    let text = std::fs::read_to_string(&path).expect("readable UTF-8");
    let plan: Plan = serde_json::from_str(&text).expect("a plan");
    let changes = Changes::of_plan(&plan);
    let (mut graph, mut graph_cpu, mut all, mut all_cpu) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut answered = (0usize, 0usize);
    for _ in 0..runs {
        let (b, wall, cpu) = timed(|| {
            let config = plan.configuration().expect("a readable configuration");
            Builder::new(config.as_ref(), None)
        });
        drop(b);
        graph.push(wall);
        graph_cpu.push(cpu);
        let (d, wall, cpu) = timed(|| {
            let config = plan.configuration().expect("a readable configuration");
            Dependents::compute(config.as_ref(), None, &changes)
        });
        all.push(wall);
        all_cpu.push(cpu);
        answered = (d.changes.len(), d.changes.values().map(|b| b.dependents.len()).sum());
    }
    println!("graph of the configuration (parse + build), {runs} runs: wall {}", stats(graph));
    println!("graph of the configuration (parse + build), {runs} runs: CPU {}", stats(graph_cpu));
    let what = format!("graph + every change answered ({} changes, {} dependents in all), {runs} runs", answered.0, answered.1);
    println!("{what}: wall {}", stats(all));
    println!("{what}: CPU {}", stats(all_cpu));
}
