//! Structure-aware: arbitrary plans and states from the shared generator
//! (`tests/support/plan_gen.rs`: hostile strings, unique secret markers in
//! every sensitive place and unmarked copies of them) through every
//! subcommand planview has, in every format it accepts
//! (`plan_gen::check_generated`). Never panics; with colour off no terminal
//! hazard on stdout or diagnostics; JSON parses; no secret appears; `summary`
//! totals match a direct count; the default gate decides as counted.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/support/plan_gen.rs"]
#[allow(dead_code)]
mod plan_gen;

fuzz_target!(|data: &[u8]| {
    let scratch = plan_gen::fuzz_scratch_file("every_command");
    if let Err(e) = plan_gen::check_generated_bytes(data, &scratch) {
        panic!("{e}");
    }
});
