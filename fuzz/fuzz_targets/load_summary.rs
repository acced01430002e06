//! Arbitrary bytes through reading (strict and `--lenient`), `summary` in
//! every format and `show --format json` (`plan_gen::check_raw_bytes`). Never
//! panics; with colour off no terminal hazard on stdout or diagnostics; an
//! error exits 2; JSON parses; the streamed summary equals the summary of the
//! document read whole.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/support/plan_gen.rs"]
#[allow(dead_code)]
mod plan_gen;

fuzz_target!(|data: &[u8]| {
    let scratch = plan_gen::fuzz_scratch_file("load_summary");
    if let Err(e) = plan_gen::check_raw_bytes(data, &scratch) {
        panic!("{e}");
    }
});
