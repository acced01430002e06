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
    plan["configuration"]["root_module"]["variables"] = serde_json::json!({"notes": {"description": "x".repeat(200 << 10)}});
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

/// `gate --format json` on `args`: exit code, report, stderr.
fn gate_json(args: &[&str], stdin: Option<&[u8]>) -> (Option<i32>, Value, String) {
    let mut a = vec!["gate", "--format", "json"];
    a.extend_from_slice(args);
    let out = planview_with_stdin(&a, stdin);
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{a:?}: {e}: {}", text(&out.stdout)));
    (out.status.code(), v, text(&out.stderr))
}

/// Each file's name, verdict and deletes.
fn verdicts(v: &Value) -> Vec<(String, String, Value)> {
    v["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["file"].as_str().unwrap().to_string(), f["verdict"].as_str().unwrap().to_string(), f["counts"]["delete"].clone()))
        .collect()
}

#[test]
fn terragrunt_prefixed_plans_are_read_as_roots_named_by_their_units() {
    let log = "testdata/roots/terragrunt-stdout.log";
    let body = std::fs::read(root().join(log)).unwrap();
    for stdin in [None, Some(&body[..])] {
        let input = if stdin.is_some() { "-" } else { log };
        let (code, v, err) = gate_json(&["--lenient", input], stdin);
        assert_eq!(code, Some(1), "{err}");
        assert_eq!(
            verdicts(&v),
            [("live/app".into(), "pass".into(), 0.into()), ("live/db".into(), "fail".into(), 4.into())],
            "{input}: {err}"
        );
        assert!(!err.contains("ignored the text after the JSON document"), "{err}");
    }
    // Between two clean documents: the middle one is read, its deletes denied.
    let (code, v, err) = gate_json(&["--lenient", "testdata/roots/prefixed-between.ndjson"], None);
    assert_eq!(code, Some(1), "{err}");
    let got = verdicts(&v);
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!(got[1], ("live/db".into(), "fail".into(), 4.into()));
    assert!(err.is_empty(), "nothing skipped: {err}");
    // A whole read (`comment`) finds the same three plans and fails as the gate does.
    let out = planview(&["comment", "--lenient", "testdata/roots/prefixed-between.ndjson"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("live/db"), "{}", text(&out.stdout));
    // Without --lenient the prefixed text is an error, never a pass.
    for input in ["testdata/roots/terragrunt-stdout.log", "testdata/roots/prefixed-between.ndjson"] {
        let out = planview(&["gate", input]);
        assert_eq!(out.status.code(), Some(2), "{input}: {}", text(&out.stderr));
    }
}

#[test]
fn a_plan_hidden_in_text_that_lenient_would_skip_fails_the_run() {
    // Between documents, after the last one, and after the only one, for the
    // commands that split an input and for those that read one document.
    let dir = scratch("hidden");
    let plan = |p: &str| std::fs::read_to_string(root().join(p)).unwrap();
    let (noop, destroy) = (plan("testdata/real/noop/plan.json"), plan(DESTROY));
    let trailing = dir.join("trailing.json");
    std::fs::write(&trailing, format!("{noop}live/db stdout | {destroy}")).unwrap();
    let debug = dir.join("debug.json");
    std::fs::write(&debug, format!("{noop}::debug::stdout: {destroy}::debug::exitcode: 0\n")).unwrap();
    let quoted = dir.join("quoted.json");
    let escaped = serde_json::to_string(&destroy).unwrap();
    std::fs::write(&quoted, format!("{noop}time=x level=info msg={escaped}\n")).unwrap();
    let t = trailing.to_str().unwrap();
    let inputs = ["testdata/roots/hidden-between.ndjson", t, debug.to_str().unwrap(), quoted.to_str().unwrap()];
    for input in inputs {
        let body = std::fs::read(root().join(input)).unwrap();
        for cmd in ["gate", "summary", "show", "comment", "fingerprint", "moves"] {
            for stdin in [None, Some(&body[..])] {
                let arg = if stdin.is_some() { "-" } else { input };
                let out = planview_with_stdin(&[cmd, "--lenient", arg], stdin);
                let err = text(&out.stderr);
                assert_eq!(out.status.code(), Some(2), "{cmd} {input} (stdin: {}): {err}", stdin.is_some());
                assert!(
                    err.contains("holds a document planview does not read") || err.contains("there are two JSON documents"),
                    "{cmd} {input}: {err}"
                );
            }
        }
    }
    // Located at the key's closing quote.
    let out = planview(&["gate", "--lenient", t]);
    let col = "live/db stdout | {\"format_version\"".chars().count();
    assert!(text(&out.stderr).contains(&format!("{t}:2:{col}: ")), "{}", text(&out.stderr));
    let out = planview(&["gate", "--lenient", "testdata/roots/hidden-between.ndjson"]);
    let col = "[live/db] stdout | {\"format_version\"".chars().count();
    assert!(
        text(&out.stderr).contains(&format!(":2:{col}: the text between JSON documents 1 and 2 (line 2) holds")),
        "{}",
        text(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}
