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
    // Generated documents hold forms derived from secrets (base64, digests...),
    // and the leak check looks for them: over a few seeds, some are made.
    let forms: usize = (0..64u32)
        .filter_map(|seed| {
            let bytes: Vec<u8> =
                (0..4096u32).map(|i| (i.wrapping_mul(2654435761).wrapping_add(seed.wrapping_mul(97)) >> 13) as u8).collect();
            plan_gen::generate(&mut arbitrary::Unstructured::new(&bytes)).ok()
        })
        .map(|g| g.forms.len())
        .sum();
    assert!(forms > 0, "no derived form generated");
    // Every derived form of a secret, masked by every command and format.
    let mut u = arbitrary::Unstructured::new(&[7u8; 4096]);
    let g = plan_gen::generate(&mut u).unwrap();
    let s = g.secrets[0].clone();
    assert_eq!(plan_gen::leaked(format!("x {} y", s.to_lowercase()).as_bytes(), &[s.to_lowercase()]), Some(s.to_lowercase().as_str()));
}

/// Every form a secret can be derived in, each copied unmarked into a plan
/// beside the marked secret: no command, in any format (`comment`, `diff` and
/// `fingerprint` included), prints any of them (issue 32).
#[test]
fn every_derived_form_of_a_secret_is_masked_by_every_command_and_format() {
    let secret = "ZQSECRET7x1234abcd";
    let copies = plan_gen::derived_copies(secret);
    assert!(copies.len() >= 12, "{copies:?}");
    let attrs: serde_json::Map<String, serde_json::Value> =
        copies.iter().enumerate().map(|(i, c)| (format!("copy{i}"), serde_json::Value::String(c.clone()))).collect();
    let plan = serde_json::json!({"format_version": "1.2", "resource_changes": [
        {"address": "terraform_data.s", "mode": "managed", "type": "terraform_data", "name": "s",
         "change": {"actions": ["create"], "before": null, "after": {"input": secret}, "after_sensitive": {"input": true}}},
        {"address": "terraform_data.c", "mode": "managed", "type": "terraform_data", "name": "c",
         "change": {"actions": ["create"], "before": null, "after": attrs, "after_sensitive": {}}}],
        "output_changes": {"c": {"actions": ["create"], "before": null, "after": copies[2], "after_sensitive": false}}});
    let g = plan_gen::Generated {
        json: plan.to_string(),
        secrets: vec![secret.to_string()],
        forms: copies.iter().map(|c| c.rsplit(' ').next().unwrap().to_string()).collect(),
        is_plan: true,
        totals: [0, 2, 0, 0, 0],
        gate_fails: false,
        changes: 2,
    };
    let file = scratch("derived");
    std::fs::write(&file, &g.json).unwrap();
    let r = plan_gen::check_generated(&g, &file.to_string_lossy());
    assert!(r.is_ok(), "{}", r.unwrap_err());
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
