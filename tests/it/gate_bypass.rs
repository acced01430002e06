//! Ways around the gate (issue 32): each input that holds something to judge
//! is judged or fails the run, never passes unread. Real plans from
//! `testdata/real/` (made by terraform), changed here the way an attacker, or
//! a wrapper, would change them.

use crate::common::*;
use serde_json::Value;
use std::path::PathBuf;

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("planview-bypass-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn read_json(path: &str) -> Value {
    serde_json::from_slice(&std::fs::read(root().join(path)).unwrap()).unwrap()
}

const DESTROY: &str = "testdata/real/destroy/plan.json";
const STATE: &str = "testdata/real/state/state.json";

#[test]
fn a_state_with_a_plan_key_is_neither_plan_nor_state_and_fails_the_gate() {
    let dir = scratch("state-vars");
    let mut state = read_json(STATE);
    state["variables"] = serde_json::json!({"region": {"value": "eu-west-1"}});
    let path = dir.join("state.json");
    std::fs::write(&path, serde_json::to_vec(&state).unwrap()).unwrap();
    let p = path.to_str().unwrap();
    let body = std::fs::read(&path).unwrap();
    // Read whole, streamed from stdin, found in a directory: the same refusal.
    for (args, stdin) in [(vec!["gate", p], None), (vec!["gate", "-"], Some(&body[..])), (vec!["gate", dir.to_str().unwrap()], None)] {
        let out = planview_with_stdin(&args, stdin);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}{}", text(&out.stdout));
        assert!(err.contains("it has a state's `values` and a plan's `variables`"), "{args:?}: {err}");
    }
    for cmd in ["summary", "show", "state"] {
        let out = planview(&[cmd, p]);
        assert_eq!(out.status.code(), Some(2), "{cmd}: {}", text(&out.stderr));
    }
    // The state as terraform wrote it is still a state.
    let out = planview(&["summary", STATE]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_data_mode_on_deleted_managed_resources_does_not_pass() {
    let dir = scratch("data-mode");
    let mut plan = read_json(DESTROY);
    let changes = plan["resource_changes"].as_array_mut().unwrap();
    assert_eq!(changes.len(), 4);
    for rc in changes.iter_mut() {
        assert_eq!(rc["change"]["actions"], serde_json::json!(["delete"]));
        rc["mode"] = "data".into();
    }
    let path = dir.join("plan.json");
    std::fs::write(&path, serde_json::to_vec(&plan).unwrap()).unwrap();
    let p = path.to_str().unwrap();
    let out = planview(&["gate", "--format", "json", p]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["files"][0]["counts"]["delete"], 4);
    let denied = v["files"][0]["violations"].as_array().unwrap().iter().filter(|x| x["rule"] == "deny delete").count();
    assert_eq!(denied, 4);
    let out = planview(&["gate", "--max", "delete=0", p]);
    assert_eq!(out.status.code(), Some(1));
    // The summary counts them as the CLI does for what their addresses are.
    let out = planview(&["summary", "--format", "json", p]);
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["totals"]["destroy"], 4, "{s}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_policy_must_be_an_object_without_repeated_keys() {
    let dir = scratch("policy");
    let cases: &[(&str, &str, &str)] = &[
        ("array.json", "[]\n", ":1:1: invalid policy: a policy must be a JSON object"),
        ("dup.json", "{\"max\": {\"delete\": 0,\n         \"delete\": 100}}\n", ":2:17: invalid policy: duplicate key `delete`"),
        ("dup-top.json", "{\"deny\": [\"delete\"], \"deny\": []}", ":1:27: invalid policy: duplicate key `deny`"),
    ];
    for (name, body, want) in cases {
        let path = dir.join(name);
        std::fs::write(&path, body).unwrap();
        let p = path.to_str().unwrap();
        for cmd in ["gate", "comment"] {
            let out = planview(&[cmd, "--policy", p, DESTROY]);
            let err = text(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{cmd} {name}: {err}");
            assert!(err.contains(&format!("{p}{want}")), "{cmd} {name}: {err}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_plan_whose_format_version_comes_late_is_found_in_a_directory() {
    let dir = scratch("late-key");
    // `jq -S`: keys sorted, so `applyable`, `complete` and a big `configuration`
    // (a long variable description) come before `format_version`.
    let mut plan = read_json(DESTROY);
    plan["configuration"]["root_module"]["variables"] =
        serde_json::json!({"notes": {"description": "x".repeat(200 << 10)}});
    let sorted = serde_json::to_string(&plan).unwrap();
    let at = sorted.find("\"format_version\"").unwrap();
    assert!(at > 200 << 10, "the key comes after the configuration: {at}");
    std::fs::create_dir_all(dir.join("live/db")).unwrap();
    std::fs::create_dir_all(dir.join("live/app")).unwrap();
    std::fs::write(dir.join("live/db/plan.json"), &sorted).unwrap();
    std::fs::copy(root().join("testdata/real/noop/plan.json"), dir.join("live/app/plan.json")).unwrap();
    std::fs::write(dir.join("live/app/package.json"), "{\"name\": \"web\"}\n").unwrap();
    let live = dir.join("live");
    let out = planview(&["gate", "--format", "json", live.to_str().unwrap()]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let files: Vec<(&str, &str)> =
        v["files"].as_array().unwrap().iter().map(|f| (f["file"].as_str().unwrap(), f["verdict"].as_str().unwrap())).collect();
    assert_eq!(files, [("app", "pass"), ("db", "fail")], "{v}");
    assert_eq!(v["files"][1]["counts"]["delete"], 4);
    // A JSON object that is no plan is skipped, and said to be.
    assert!(err.contains("package.json: skipped: a JSON object with no `format_version` key"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
