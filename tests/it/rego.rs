//! `gate --policy` with Rego policies (testdata/policy/rego/): conftest's
//! conventions on real plans, severities in every format, masking of what a
//! policy says, and broken policies (exit 2, with a position).
//!
//! Why each expected answer is conftest's: `conftest test plan.json` parses
//! the JSON file and gives it unchanged as `input` (its JSON parser), queries
//! `data.<namespace>.<rule>` for every rule matching
//! `^(deny|violation)(_[a-zA-Z0-9]+)*$` (failures) or `^warn(_[a-zA-Z0-9]+)*$`
//! (warnings) in the namespaces asked for (`main` by default), counts each
//! string, or each object's `msg`, as one result, and drops the results of a
//! rule that `data.<namespace>.exception` names without its prefix
//! (conftest's policy/engine.go). The expected messages below are those the
//! rules' `sprintf` builds from the plan, so they are what conftest prints
//! after `FAIL - plan.json - main - `.

use crate::common::*;
use serde_json::Value;

const R: &str = "testdata/policy/rego";
const SECRET: &str = "SECRET-MARKER";

fn gate(args: &[&str]) -> (i32, String, String) {
    let mut a = vec!["gate"];
    a.extend_from_slice(args);
    let out = planview(&a);
    (
        out.status.code().expect("exit code"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn gate_json(args: &[&str]) -> (i32, Value) {
    let mut a = vec!["--format", "json"];
    a.extend_from_slice(args);
    let (code, out, err) = gate(&a);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{a:?}: not JSON ({e}): {out}{err}"));
    assert_valid("gate.schema.json", &v, &format!("{a:?}"));
    (code, v)
}

/// (rule, severity, address, reason) of every violation of the first file.
fn violations(v: &Value) -> Vec<(String, String, String, String)> {
    v["files"][0]["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["rule"].as_str().unwrap().to_string(),
                x["severity"].as_str().unwrap().to_string(),
                x["address"].as_str().unwrap_or("-").to_string(),
                x["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn of_rule(v: &Value, rule: &str) -> Vec<String> {
    violations(v).into_iter().filter(|x| x.0 == rule).map(|x| x.3).collect()
}

#[test]
fn deny_violation_and_warn_on_a_real_plan_of_replacements() {
    let (code, v) = gate_json(&["testdata/real/replace/plan.json", "--policy", &format!("{R}/main")]);
    assert_eq!(code, 1);
    // Every replace has "delete" in its actions: five deny results.
    assert_eq!(
        of_rule(&v, "rego main.deny"),
        [
            "terraform_data.create_then_delete would be destroyed",
            "terraform_data.delete_then_create would be destroyed",
            "terraform_data.requested would be destroyed",
            "terraform_data.tainted would be destroyed",
            "terraform_data.triggered would be destroyed",
        ]
    );
    // Objects with msg: the msg is the reason, the other keys details, `address` the address.
    let replaced: Vec<&Value> =
        v["files"][0]["violations"].as_array().unwrap().iter().filter(|x| x["rule"] == "rego main.violation_replace").collect();
    assert_eq!(replaced.len(), 5);
    assert_eq!(replaced[2]["address"], "terraform_data.requested");
    assert_eq!(replaced[2]["reason"], "terraform_data.requested would be replaced (replace_by_request)");
    assert_eq!(replaced[2]["details"], serde_json::json!({"address": "terraform_data.requested", "reason": "replace_by_request"}));
    assert_eq!(replaced[2]["severity"], "error");
    // Six changes (five replaces and an update) are more than three: one warning.
    assert_eq!(of_rule(&v, "rego main.warn_many_changes"), ["6 resources change (more than 3): split the change?"]);
    assert_eq!(v["files"][0]["warnings"], 1);
    assert_eq!(v["total"]["warnings"], 1);
    assert_eq!(v["total"]["violations"], 15, "5 deny delete (the default rule), 5 deny, 5 violation_replace");
    let rules: Vec<&str> = v["policy"]["rules"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
    assert!(rules.ends_with(&["rego main.deny", "rego main.violation_replace", "rego main.warn_many_changes"]), "{rules:?}");
}

#[test]
fn a_plan_without_results_passes_and_warnings_alone_do_not_fail() {
    let (code, v) = gate_json(&["testdata/real/noop/plan.json", "--policy", &format!("{R}/main")]);
    assert_eq!((code, v["verdict"].as_str()), (0, Some("pass")), "{v}");
    assert!(violations(&v).is_empty());
    // basic: 4 resource_changes (created, updated, deleted (allowed here), a no-op) > data.limits.changes.max (1) warns;
    // every type is terraform_data, in data.allowed.types: no deny_type.
    let args = [
        "testdata/real/basic/plan.json",
        "--allow",
        "terraform_data.deleted",
        "--policy",
        "testdata/policy/rego/data",
        "--data",
        "testdata/policy/rego/data-docs",
    ];
    let (code, v) = gate_json(&args);
    assert_eq!(code, 0, "{v}");
    assert_eq!(violations(&v), [("rego main.warn_too_many".into(), "warning".into(), "-".into(), "4 changes, more than 1".into())]);
    assert_eq!(v["files"][0]["verdict"], "pass");
    let mut strict = args.to_vec();
    strict.push("--fail-on-warn");
    let (code, v) = gate_json(&strict);
    assert_eq!((code, v["verdict"].as_str()), (1, Some("fail")));
    let (code, out, _) = gate(&strict);
    assert_eq!(code, 1);
    assert!(out.contains("FAILED: 1 warning(s) in 1 of 1 plan(s) (--fail-on-warn)"), "{out}");
}

#[test]
fn data_documents_and_namespace_globs() {
    // sg-iam: an aws_iam_policy (not in allowed.types) and an aws_security_group (allowed).
    let (code, v) =
        gate_json(&["testdata/real-aws/sg-iam/plan.json", "--policy", &format!("{R}/data"), "--data", &format!("{R}/data-docs")]);
    assert_eq!(code, 1);
    assert_eq!(of_rule(&v, "rego main.deny_type"), ["aws_iam_policy.reader: type aws_iam_policy is not in the allowed list"]);
    assert_eq!(of_rule(&v, "rego main.warn_too_many"), ["2 changes, more than 1"]);
    for ns in [&["--namespace", "terraform.*"][..], &["--all-namespaces"][..], &["-n", "terraform.aws"][..]] {
        let mut a = vec!["testdata/real-aws/sg-iam/plan.json", "--policy", "testdata/policy/rego/aws"];
        a.extend_from_slice(ns);
        let (code, v) = gate_json(&a);
        assert_eq!(code, 1, "{ns:?}");
        // Port 80 from 0.0.0.0/0 is added; 443 is allowed by the rule.
        assert_eq!(of_rule(&v, "rego terraform.aws.deny_world_ingress"), ["aws_security_group.web opens port 80 to 0.0.0.0/0"]);
        // The new statement grants s3:PutObject (regex.match, json.unmarshal).
        assert_eq!(of_rule(&v, "rego terraform.aws.warn_s3_write"), ["aws_iam_policy.reader grants s3:PutObject"]);
    }
    // Without a namespace, conftest queries `main`, which these files do not have:
    // conftest would pass silently; planview says so and stops.
    let (code, _, err) = gate(&["testdata/real-aws/sg-iam/plan.json", "--policy", "testdata/policy/rego/aws"]);
    assert_eq!(code, 2);
    assert!(err.contains("no policy is in package main (the packages are: terraform.aws)"), "{err}");
}

#[test]
fn v0_syntax_with_the_flag_and_exceptions() {
    let (code, _, err) = gate(&["testdata/real/basic/plan.json", "--policy", &format!("{R}/v0")]);
    assert_eq!(code, 2);
    assert!(err.contains("old.rego:4:11: invalid Rego: `if` keyword is required before rule body"), "{err}");
    assert!(err.contains("--rego-version v0"), "{err}");
    let (code, v) = gate_json(&["testdata/real/basic/plan.json", "--policy", &format!("{R}/v0"), "--rego-version", "v0"]);
    assert_eq!(code, 1);
    assert_eq!(of_rule(&v, "rego main.deny"), ["terraform_data.deleted would be destroyed"]);
    assert_eq!(of_rule(&v, "rego main.warn"), ["terraform_data.updated would be updated in place"]);
    // exception ["destroy"] drops deny_destroy's results, not deny_create's.
    let (_, v) = gate_json(&["testdata/real/basic/plan.json", "--policy", &format!("{R}/exception")]);
    assert!(of_rule(&v, "rego main.deny_destroy").is_empty());
    assert_eq!(of_rule(&v, "rego main.deny_create"), ["terraform_data.created would be created"]);
}

#[test]
fn the_json_policy_file_names_rego_and_warns() {
    let (code, v) = gate_json(&["testdata/real/basic/plan.json", "--policy", "testdata/policy/with-rego.json"]);
    assert_eq!(code, 1);
    let got: Vec<(String, String)> = violations(&v).into_iter().map(|x| (x.0, x.1)).collect();
    let want = [("deny delete", "error"), ("warn update", "warning"), ("rego main.deny", "error")];
    assert_eq!(got, want.map(|(a, b)| (a.to_string(), b.to_string())));
}

#[test]
fn a_secret_a_policy_puts_in_its_message_never_prints() {
    let plan = "testdata/real/sensitive/plan.json";
    let policy = format!("{R}/secret");
    for format in ["table", "json", "markdown", "github", "junit"] {
        let (code, out, err) = gate(&[plan, "--policy", &policy, "--format", format]);
        assert_eq!(code, 1, "{format}: {err}");
        assert!(!out.contains(SECRET) && !err.contains(SECRET), "{format} leaks:\n{out}{err}");
        assert!(out.contains("(sensitive value)"), "{format}: {out}");
    }
    let out = planview(&["comment", plan, "--policy", &policy]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains(SECRET), "{text}");
    assert!(text.contains("would be created with input (sensitive value)"), "{text}");
    // The detail holding a secret is masked too, the address beside it kept.
    let (_, v) = gate_json(&[plan, "--policy", &policy]);
    let warn = &v["files"][0]["violations"].as_array().unwrap().iter().find(|x| x["rule"] == "rego main.warn").unwrap()["details"];
    assert_eq!(warn, &serde_json::json!({"address": "terraform_data.plain_secret", "value": "(sensitive value)"}));
    // With --show-sensitive the value is shown, as everywhere else.
    let (_, out, _) = gate(&[plan, "--policy", &policy, "--show-sensitive"]);
    assert!(out.contains("SECRET-MARKER-var-0001"), "{out}");
}

#[test]
fn warnings_in_every_format() {
    let args = ["testdata/real/replace/plan.json", "--policy", "testdata/policy/rego/main"];
    let run = |f: &str| {
        let mut a = args.to_vec();
        a.extend_from_slice(&["--format", f]);
        gate(&a).1
    };
    let table = run("table");
    assert!(table.contains("FAIL (15 violation(s), 1 warning(s))"), "{table}");
    assert!(table.lines().any(|l| l.contains("warning") && l.contains("rego main.warn_many_changes")), "{table}");
    let gh = run("github");
    assert!(gh.lines().any(|l| l.starts_with("::warning title=planview gate%3A rego main.warn_many_changes")), "{gh}");
    assert!(gh.lines().next().unwrap().starts_with("::error title=planview gate::FAILED"), "{gh}");
    let md = run("markdown");
    let (errors, warnings) = (md.find("15 violation(s)</summary>").unwrap(), md.find("1 warning(s)</summary>").unwrap());
    assert!(md.find("FAILED").unwrap() < errors && errors < warnings, "{md}");
    let junit = run("junit");
    let doc = roxmltree::Document::parse(&junit).unwrap();
    let case = doc.descendants().find(|n| n.attribute("name") == Some("rego main.warn_many_changes")).unwrap();
    let skipped = case.children().find(|n| n.has_tag_name("skipped")).expect("a warning is a skipped case");
    assert!(skipped.attribute("message").unwrap().contains("6 resources change"), "{junit}");
    let out = planview(&["comment", "testdata/real/replace/plan.json", "--policy", "testdata/policy/rego/main"]);
    let c = String::from_utf8_lossy(&out.stdout);
    let (v, w) = (c.find("**Violations (15)**").unwrap(), c.find("**Warnings (1)**").unwrap());
    assert!(c.find("FAILED").unwrap() < v && v < w, "{c}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn broken_policies_exit_2_naming_file_line_and_column() {
    let cases = [
        ("broken/parse", "bad.rego:6:1: invalid Rego: expecting `)`"),
        ("broken/boolean", "bool.rego:4:1: rule data.main.deny is a boolean, not a set"),
        (
            "broken/unknown-builtin",
            "unknown.rego:5:27: rule data.main.deny could not be evaluated: could not find function no_such.builtin",
        ),
        ("broken/no-msg", "nomsg.rego:3:1: rule data.main.deny returned an object without `msg`"),
        ("broken/conflict", "conflict.rego:4:1: rule data.main.deny could not be evaluated: rules must not produce multiple outputs"),
        ("empty", "empty: no .rego file in this directory"),
    ];
    for (dir, want) in cases {
        let (code, out, err) = gate(&["testdata/real/basic/plan.json", "--policy", &format!("{R}/{dir}")]);
        assert_eq!(code, 2, "{dir}: {out}{err}");
        assert!(err.contains(want), "{dir}: {err}");
    }
    let (code, _, err) = gate(&["testdata/real/basic/plan.json", "--policy", &format!("{R}/broken/runaway"), "--rego-timeout", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("slow.rego:4:1: rule data.main.deny could not be evaluated: execution exceeded time limit"), "{err}");
    // In JSON, a policy that fails on a plan is that plan's error, never a pass.
    let (code, v) = gate_json(&["testdata/real/basic/plan.json", "--policy", &format!("{R}/broken/no-msg")]);
    assert_eq!((code, v["verdict"].as_str(), v["files"][0]["verdict"].as_str()), (2, Some("error"), Some("error")));
}

#[test]
fn verify_runs_the_policies_tests() {
    let (code, out, err) = gate(&["--verify", "--policy", "testdata/policy/rego/main"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("PASS  main.test_destroy_denied (testdata/policy/rego/main/destroy_test.rego:4:1)\n"), "{out}");
    assert!(out.ends_with("1 test(s): 1 passed, 0 failed, 0 could not be evaluated\n"), "{out}");
    let (code, out, _) = gate(&["--verify", "--policy", "testdata/policy/rego/verify"]);
    assert_eq!(code, 1, "{out}");
    let lines: Vec<&str> = out.lines().map(|l| l.split(" (").next().unwrap()).collect();
    assert_eq!(lines[..3], ["PASS  main.test_untagged_is_denied", "PASS  main.test_tagged_passes", "FAIL  main.test_fails_on_purpose"]);
    let (code, _, err) = gate(&["--verify", "--policy", "testdata/policy/rego/aws"]);
    assert_eq!(code, 2);
    assert!(err.contains("no test_ rule to run"), "{err}");
}

/// `data.planview.changes` (planview's helper document; conftest has none, so
/// the expected answers come from the plan: `testdata/noise/plan.txt` shows
/// `rotated` replaced for `triggers_replace`, and the attributes each update
/// changes; `output` is terraform_data's, unknown until apply).
#[test]
fn the_helper_document_gives_planviews_reading_of_each_change() {
    let plan = "testdata/noise/plan.json";
    let policy = format!("{R}/helper");
    let (code, v) = gate_json(&["--allow", "*", "--policy", &policy, plan]);
    assert_eq!(code, 1);
    assert_eq!(
        of_rule(&v, "rego main.deny_replace"),
        ["terraform_data.rotated would be replaced (delete_before_create), forced by triggers_replace"]
    );
    let updates = of_rule(&v, "rego main.warn_update");
    assert_eq!(updates.len(), 5, "{updates:?}");
    assert!(updates.contains(&r#"terraform_data.tagged["d"] changes input.size, input.tags_all.Owner, output"#.to_string()), "{updates:?}");
    assert!(of_rule(&v, "rego main.deny_moved_db").is_empty());
    // With --ignore-attr the helper marks noise, and the rule leaves it out.
    let (_, v) = gate_json(&["--allow", "*", "--policy", &policy, "--ignore-attr", "input.tags_all", "--ignore-attr", "output", plan]);
    let mut updates = of_rule(&v, "rego main.warn_update");
    updates.sort();
    assert_eq!(
        updates,
        [
            "terraform_data.renamed changes input.tags.Name, input.tags_all.Name, input.tags_all.Owner, output",
            r#"terraform_data.tagged["d"] changes input.size, input.tags_all.Owner, output"#
        ]
    );
}
