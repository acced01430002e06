//! Properties over generated plans and states (`tests/support/plan_gen.rs`,
//! the generator the structure-aware fuzz target uses), through every
//! subcommand and format in-process: `summary` totals equal a direct count;
//! the default gate decides as counted; with colour off no output holds a
//! terminal hazard; no secret appears; JSON parses. Arbitrary bytes through
//! the readers, strict and `--lenient`. Also replays every input the fuzzers
//! ever failed on (`fuzz/regressions/<target>/`), after the bug was fixed.
//! A few dozen cases each: the long runs are the fuzz targets (fuzz/README.md).

use crate::plan_gen;

use proptest::prelude::*;

/// A scratch file for this test thread, in the target directory (overwritten
/// by the next run, so nothing piles up in the system's temp directory).
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("properties");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{name}-{:?}.json", std::thread::current().id()).replace(['(', ')'], ""))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn generated_documents_are_safe_and_counted_right(bytes in proptest::collection::vec(any::<u8>(), 64..6000)) {
        let r = plan_gen::check_generated_bytes(&bytes, &scratch("prop"));
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    #[test]
    fn arbitrary_bytes_never_panic_or_print_raw_controls(bytes in proptest::collection::vec(any::<u8>(), 0..2000)) {
        let r = plan_gen::check_raw_bytes(&bytes, &scratch("raw"));
        prop_assert!(r.is_ok(), "{}", r.unwrap_err());
    }

    #[test]
    fn generated_documents_read_streamed_and_whole_agree(bytes in proptest::collection::vec(any::<u8>(), 64..6000)) {
        let mut u = arbitrary::Unstructured::new(&bytes);
        if let Ok(g) = plan_gen::generate(&mut u) {
            let r = plan_gen::streamed_equals_whole(g.json.as_bytes());
            prop_assert!(r.is_ok(), "{}", r.unwrap_err());
            let r = plan_gen::streamed_reports_equal_whole(g.json.as_bytes(), &scratch("reports"));
            prop_assert!(r.is_ok(), "{}", r.unwrap_err());
        }
    }
}

#[test]
fn the_harness_reaches_every_document_command_and_format() {
    let cmds = plan_gen::commands();
    let names: Vec<&str> = cmds.iter().map(|c| c.name.as_str()).collect();
    for want in ["summary", "gate", "moves", "show"] {
        assert!(names.contains(&want), "{names:?}");
    }
    assert!(!names.contains(&"completions") && !names.contains(&"help"));
    let gate = cmds.iter().find(|c| c.name == "gate").unwrap();
    assert!(gate.formats.iter().any(|f| f == "junit") && gate.formats.iter().any(|f| f == "github"), "{:?}", gate.formats);
    let moves = cmds.iter().find(|c| c.name == "moves").unwrap();
    assert!(moves.formats.iter().any(|f| f == "hcl"), "{:?}", moves.formats);
}

#[test]
fn the_harness_catches_a_secret_and_a_raw_escape() {
    // The checks must be able to fail: a document whose secret is printed
    // with --show-sensitive is caught by the leak check, an ESC byte by the hazard check.
    let mut u = arbitrary::Unstructured::new(&[7u8; 4096]);
    let g = plan_gen::generate(&mut u).unwrap();
    assert!(!g.secrets.is_empty());
    assert_eq!(plan_gen::leaked(format!("x{}y", g.secrets[0]).as_bytes(), &g.secrets), Some(g.secrets[0].as_str()));
    assert!(planview::sanitize::terminal_hazard(b"ok \x1b]52;c;eA==\x07", false).is_some());
}

fn regressions(target: &str) -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions").join(target);
    let mut v: Vec<_> = std::fs::read_dir(dir).map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).collect()).unwrap_or_default();
    v.sort();
    v
}

#[test]
fn fuzz_failures_of_every_command_stay_fixed() {
    let files = regressions("every_command");
    assert!(!files.is_empty(), "fuzz/regressions/every_command holds the inputs fuzzing found bugs with");
    for f in files {
        let data = std::fs::read(&f).unwrap();
        if let Err(e) = plan_gen::check_generated_bytes(&data, &scratch("regression")) {
            panic!("{}: {e}", f.display());
        }
    }
}

#[test]
fn fuzz_failures_of_load_summary_stay_fixed() {
    for f in regressions("load_summary") {
        let data = std::fs::read(&f).unwrap();
        if let Err(e) = plan_gen::check_raw_bytes(&data, &scratch("regression-raw")) {
            panic!("{}: {e}", f.display());
        }
    }
}
