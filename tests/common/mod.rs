//! Helpers shared by the integration tests: run the binary, find fixtures,
//! validate JSON against our schemas.
#![allow(dead_code)]

pub mod big;
pub mod commands;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Run planview with `args` (colour off unless asked), stdin closed.
pub fn planview(args: &[&str]) -> Output {
    planview_with_stdin(args, None)
}

pub fn planview_with_stdin(args: &[&str], stdin: Option<&[u8]>) -> Output {
    use std::io::Write;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_planview"));
    cmd.args(args).current_dir(root()).env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
    // `comment` writes to these when set (a test run inside GitHub Actions).
    cmd.env_remove("GITHUB_STEP_SUMMARY").env_remove("GITHUB_OUTPUT");
    // `comment` links source locations to the forge these name (a test run in CI).
    for var in ["GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_SHA", "CI_PROJECT_URL", "CI_COMMIT_SHA"] {
        cmd.env_remove(var);
    }
    // Fingerprints without a key unless a test gives one.
    cmd.env_remove("PLANVIEW_FINGERPRINT_KEY");
    cmd.stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() });
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn planview");
    if let Some(data) = stdin {
        let mut si = child.stdin.take().unwrap();
        let data = data.to_vec();
        std::thread::spawn(move || {
            let _ = si.write_all(&data);
        });
    }
    child.wait_with_output().expect("wait for planview")
}

/// Every real plan fixture: `testdata/real/*/plan.json`.
pub fn real_plans() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = ["testdata/real", "testdata/real-aws"]
        .iter()
        .flat_map(|d| {
            std::fs::read_dir(root().join(d))
                .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path().join("plan.json")).filter(|p| p.is_file()).collect())
                .unwrap_or_else(|_| Vec::new())
        })
        .collect();
    v.sort();
    v
}

/// Every real state fixture: `testdata/real/*/state.json` and `*-state.json`.
pub fn real_states() -> Vec<PathBuf> {
    let mut v = Vec::new();
    if let Ok(rd) = std::fs::read_dir(root().join("testdata/real")) {
        for e in rd.filter_map(|e| e.ok()) {
            if let Ok(inner) = std::fs::read_dir(e.path()) {
                for f in inner.filter_map(|f| f.ok()) {
                    let name = f.file_name().to_string_lossy().to_string();
                    if name == "state.json" || name.ends_with("-state.json") {
                        v.push(f.path());
                    }
                }
            }
        }
    }
    v.sort();
    v
}

pub fn rel(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

/// Validate `instance` against `schemas/NAME`; panics with every error.
pub fn assert_valid(schema_name: &str, instance: &serde_json::Value, context: &str) {
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root().join("schemas").join(schema_name)).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("schema compiles");
    let errors: Vec<String> = validator.iter_errors(instance).map(|e| format!("{} at {}", e, e.instance_path)).collect();
    assert!(errors.is_empty(), "{context}: output does not match {schema_name}:\n{}", errors.join("\n"));
}
