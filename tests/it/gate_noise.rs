//! Noise (`--ignore-attr`, the policy's `ignore_attributes`) on a real plan
//! (`testdata/noise/`, made by its `make.sh` with terraform_data): of its five
//! in-place updates, three change only `input.tags_all` (a default tag) and
//! the `output` terraform_data recomputes from `input` (unknown until apply),
//! one changes its own `input.tags` too, one its `input.size`. The CLI's
//! `Plan:` line (`plan-line.txt`) stays as it is; the noise is counted apart,
//! never judged as an update, one line in the table, markdown and comment,
//! and marked `"noise": true` in JSON.

use crate::common::*;
use serde_json::Value;

const PLAN: &str = "testdata/noise/plan.json";
const IGNORE: [&str; 4] = ["--ignore-attr", "input.tags_all", "--ignore-attr", "output"];

fn run(args: &[&str]) -> (i32, String) {
    let out = planview(args);
    (out.status.code().expect("exit code"), String::from_utf8(out.stdout).unwrap())
}

fn json(args: &[&str], schema: &str) -> (i32, Value) {
    let (code, out) = run(args);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {out}"));
    assert_valid(schema, &v, &format!("{args:?}"));
    (code, v)
}

fn with(base: &[&str], extra: &[&str]) -> Vec<String> {
    base.iter().chain(extra).map(|s| s.to_string()).collect()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// The addresses that broke `rule`.
fn broke(v: &Value, rule: &str) -> Vec<String> {
    let list = v["files"][0]["violations"].as_array().unwrap();
    list.iter().filter(|x| x["rule"] == rule).map(|x| x["address"].as_str().unwrap_or("-").to_string()).collect()
}

#[test]
fn the_plan_line_stays_the_clis_and_a_second_line_counts_the_noise() {
    let cli = std::fs::read_to_string(root().join("testdata/noise/plan-line.txt")).unwrap();
    let (code, t) = run(&strs(&with(&["summary", "--color", "never", PLAN], &IGNORE)));
    assert_eq!(code, 0);
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(lines[1], cli.trim_end(), "{t}");
    assert_eq!(lines[2], "3 of them only change input.tags_all or output", "{t}");
    // One row for the three; the others listed one by one.
    assert!(t.contains("(3 resources)") && t.contains("noise: only change input.tags_all or output"), "{t}");
    assert!(!t.contains(r#"terraform_data.tagged["a"]"#) && t.contains(r#"terraform_data.tagged["d"]"#), "{t}");
    assert!(t.contains("terraform_data.renamed") && t.contains("terraform_data.rotated"), "{t}");
    // Without the flag no second line, and no noise row: the four `tagged`
    // instances are only alike (one resource block, one action), one row with their keys.
    let (_, plain) = run(&["summary", "--color", "never", PLAN]);
    assert!(!plain.contains("of them only change") && !plain.contains("noise:"), "{plain}");
    assert!(plain.contains("terraform_data.tagged[*]") && plain.contains(r#"4 alike: ["a"], ["b"], ["c"], ["d"]"#), "{plain}");
    // The markdown says the same.
    let (_, md) = run(&strs(&with(&["summary", "--format", "markdown", PLAN], &IGNORE)));
    assert!(md.contains("3 of them only change input.tags_all or output.") && md.contains("(3 resources)"), "{md}");
    assert!(md.contains("<summary>6 resource change(s)</summary>"), "the row of three counts three: {md}");
    assert!(!md.contains(r#"terraform_data.tagged["a"]"#), "{md}");
}

#[test]
fn json_marks_each_noise_entry_and_counts_them() {
    let (_, v) = json(&strs(&with(&["summary", "--format", "json", PLAN], &IGNORE)), "summary.schema.json");
    assert_eq!(v["noise"]["count"], 3);
    assert_eq!(v["noise"]["ignore_attributes"], serde_json::json!(["input.tags_all", "output"]));
    assert_eq!(v["totals"]["change"], 5, "the totals stay the CLI's");
    let noise: Vec<&str> =
        v["resources"].as_array().unwrap().iter().filter(|r| r["noise"] == true).map(|r| r["address"].as_str().unwrap()).collect();
    assert_eq!(noise, [r#"terraform_data.tagged["a"]"#, r#"terraform_data.tagged["b"]"#, r#"terraform_data.tagged["c"]"#]);
    assert_eq!(v["resources"].as_array().unwrap().len(), 6, "noise is still listed");
    // Its own tags too: `renamed` joins; `tagged["d"]` changes its size.
    let (_, v) = json(&strs(&with(&["summary", "--format", "json", "--ignore-attr", "input.tags", PLAN], &IGNORE)), "summary.schema.json");
    assert_eq!(v["noise"]["count"], 4);
    let (_, v) = json(&["summary", "--format", "json", PLAN], "summary.schema.json");
    assert!(v.get("noise").is_none() && !v["resources"].as_array().unwrap().iter().any(|r| r.get("noise").is_some()));
}

#[test]
fn deny_and_max_update_never_count_noise() {
    let base = ["gate", "--format", "json", "--allow", "terraform_data.rotated", "--deny", "update", PLAN];
    let (code, v) = json(&base, "gate.schema.json");
    assert_eq!((code, broke(&v, "deny update").len()), (1, 5), "without --ignore-attr every update is one");
    let (code, v) = json(&strs(&with(&base, &IGNORE)), "gate.schema.json");
    assert_eq!(code, 1);
    assert_eq!(broke(&v, "deny update"), ["terraform_data.renamed", r#"terraform_data.tagged["d"]"#]);
    assert_eq!(v["files"][0]["counts"]["update"], 2);
    assert_eq!(v["files"][0]["noise"]["count"], 3);
    let (code, v) = json(
        &strs(&with(&base, &["--ignore-attr", "input.tags", "--ignore-attr", "input.tags_all", "--ignore-attr", "output"])),
        "gate.schema.json",
    );
    assert_eq!((code, broke(&v, "deny update")), (1, vec![r#"terraform_data.tagged["d"]"#.to_string()]));
    // --max update=2: the two real updates pass, five would not.
    let max = ["gate", "--format", "json", "--allow", "terraform_data.rotated", "--max", "update=2", PLAN];
    assert_eq!(json(&max, "gate.schema.json").0, 1);
    let (code, v) = json(&strs(&with(&max, &IGNORE)), "gate.schema.json");
    assert_eq!(code, 0, "{v}");
    // Warnings do not count it either.
    let (_, v) = json(
        &strs(&with(&["gate", "--format", "json", "--allow", "terraform_data.rotated", "--warn", "update", PLAN], &IGNORE)),
        "gate.schema.json",
    );
    assert_eq!(broke(&v, "warn update").len(), 2);
    // The table says it under the Plan: line.
    let (_, t) = run(&strs(&with(&["gate", "--color", "never", "--deny", "update", PLAN], &IGNORE)));
    assert!(t.contains("Plan: 1 to add, 5 to change, 1 to destroy.\n3 of them only change input.tags_all or output\n"), "{t}");
}

#[test]
fn the_policy_file_ignores_attributes_too() {
    let (code, v) = json(
        &["gate", "--format", "json", "--allow", "terraform_data.rotated", "--policy", "testdata/policy/ignore-tags.json", PLAN],
        "gate.schema.json",
    );
    assert_eq!(code, 1);
    assert_eq!(broke(&v, "deny update"), ["terraform_data.renamed", r#"terraform_data.tagged["d"]"#]);
    assert_eq!(v["files"][0]["noise"]["ignore_attributes"], serde_json::json!(["input.tags_all", "output"]));
    let policy: Value = serde_json::from_str(&std::fs::read_to_string(root().join("testdata/policy/ignore-tags.json")).unwrap()).unwrap();
    assert_valid("gate-policy.schema.json", &policy, "ignore-tags.json");
}

#[test]
fn the_comment_collapses_noise_into_one_line() {
    let (code, body) = run(&strs(&with(&["comment", "--deny", "update", "--allow", "terraform_data.rotated", PLAN], &IGNORE)));
    assert_eq!(code, 1);
    assert!(body.contains("**Plan: 1 to add, 5 to change, 1 to destroy.**\n3 of them only change input.tags_all or output.\n"), "{body}");
    assert!(body.contains("**Noise** (3): in-place updates that only change input.tags_all or output"), "{body}");
    assert!(!body.contains(r#"tagged["a"]"#), "neither a row nor a diff: {body}");
    assert!(body.contains(r#"tagged["d"]"#) && body.contains("**Update in-place** (2)"), "{body}");
}

#[test]
fn the_total_over_several_plans_sums_the_noise() {
    // The same plan under two names: two inputs, each with three noise updates.
    let dir = std::env::temp_dir().join(format!("planview-noise-total-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("a.json"), dir.join("b.json"));
    std::fs::copy(root().join(PLAN), &a).unwrap();
    std::fs::copy(root().join(PLAN), &b).unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let (_, t) = run(&strs(&with(&["summary", "--color", "never", a, b], &IGNORE)));
    let total = &t[t.find("== total over 2 files ==").unwrap_or_else(|| panic!("{t}"))..];
    assert!(total.contains("\n6 of them only change input.tags_all or output\n"), "{total}");
    let (_, md) = run(&strs(&with(&["summary", "--format", "markdown", a, b], &IGNORE)));
    assert!(md.contains("6 of them only change input.tags_all or output."), "{md}");
    let (_, v) = json(&strs(&with(&["summary", "--format", "json", a, b], &IGNORE)), "summary.schema.json");
    assert_eq!(v["total"]["noise"]["count"], 6, "{v}");
    // Without the flag the total says nothing of noise.
    let (_, v) = json(&["summary", "--format", "json", a, b], "summary.schema.json");
    assert!(v["total"].get("noise").is_none(), "{v}");
    let _ = std::fs::remove_dir_all(&dir);
}
