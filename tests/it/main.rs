//! planview's integration tests, in one binary (`autotests = false` in
//! Cargo.toml: one link, not one per file). Each module is one area; `common`
//! (running the binary, fixtures, commands found from `--help`), `plan_gen`
//! (the plan generator the fuzz targets share) and `gen_plan` (the benchmark
//! generator) are shared.
//!
//! One area: `cargo test --test it summary_fixtures::`. Snapshots:
//! `TRYCMD=overwrite cargo test --test it cli_snapshots`.

#[path = "../common/mod.rs"]
mod common;
#[allow(dead_code)]
#[path = "../../examples/gen_plan.rs"]
mod gen_plan;
#[path = "../support/plan_gen.rs"]
mod plan_gen;

mod ci_scripts;
mod cli_snapshots;
mod comment;
mod dependents;
mod docs;
mod error_contract;
mod exit_codes;
mod first_minutes;
mod gate;
mod gate_bypass;
mod gate_noise;
mod gate_props;
mod generated_plans;
mod hostile;
mod html_browser;
mod html_collapse;
mod layout;
mod locations;
mod markers;
mod max_bytes;
mod memory;
mod moves_fixtures;
mod out_of_memory;
mod plan_diff;
mod properties;
mod questions;
mod readme_examples;
mod rego;
mod release;
mod show_fidelity;
mod show_fixtures;
mod show_html;
mod show_schemas;
mod show_stream;
mod summary_fixtures;
mod terminal;
