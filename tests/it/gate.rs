//! `gate` on the real fixtures and hand-written edge cases: each default and
//! flag fires where it should and not where it should not; exit codes; JSON
//! against its schema; JUnit parses as XML; GitHub annotations are escaped;
//! markdown stays under `--max-bytes`.

use crate::common::*;
use serde_json::Value;

/// Run the gate with JSON output; returns (exit code, report).
fn gate_json(args: &[&str]) -> (i32, Value) {
    let mut a = vec!["gate", "--format", "json"];
    a.extend_from_slice(args);
    let out = planview(&a);
    let code = out.status.code().expect("exit code");
    let v: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{a:?}: not JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)));
    assert_valid("gate.schema.json", &v, &format!("{a:?}"));
    (code, v)
}

/// Addresses that broke `rule` in the first file.
fn broke(v: &Value, rule: &str) -> Vec<String> {
    v["files"][0]["violations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["rule"] == rule)
        .map(|x| x["address"].as_str().unwrap_or("-").to_string())
        .collect()
}

fn rules_broken(v: &Value) -> Vec<String> {
    let mut r: Vec<String> =
        v["files"][0]["violations"].as_array().unwrap().iter().map(|x| x["rule"].as_str().unwrap().to_string()).collect();
    r.dedup();
    r
}

const REPLACE: &str = "testdata/real/replace/plan.json";
const REMOVED: &str = "testdata/real/removed/plan.json";
const DEPOSED: &str = "testdata/real/deposed/plan.json";

#[test]
fn default_rule_agrees_with_the_summary_destroy_count_on_every_real_plan() {
    let plans = real_plans();
    assert!(plans.len() >= 10, "real fixtures missing: {}", plans.len());
    for plan in &plans {
        let p = rel(plan);
        let summary = planview(&["summary", "--format", "json", &p]);
        let s: Value = serde_json::from_slice(&summary.stdout).unwrap();
        let destroy = s["totals"]["destroy"].as_u64().unwrap();
        let errored = s["errored"].as_bool().unwrap();
        let incomplete = s["incomplete"].as_bool().unwrap();
        let (code, v) = gate_json(&[&p]);
        assert_eq!(broke(&v, "deny delete").len() as u64, destroy, "{p}: one violation per destroyed object");
        let should_fail = destroy > 0 || errored || incomplete;
        assert_eq!(code, if should_fail { 1 } else { 0 }, "{p}");
        assert_eq!(v["verdict"], if should_fail { "fail" } else { "pass" }, "{p}");
        assert_eq!(v["files"][0]["counts"]["delete"].as_u64().unwrap(), destroy, "{p}");
    }
}

#[test]
fn a_replace_is_a_delete_in_both_orders() {
    let (code, v) = gate_json(&[REPLACE]);
    assert_eq!(code, 1);
    let hit = broke(&v, "deny delete");
    assert!(hit.contains(&"terraform_data.create_then_delete".to_string()), "create_before_destroy: {hit:?}");
    assert!(hit.contains(&"terraform_data.delete_then_create".to_string()));
    assert!(!hit.contains(&"terraform_data.trigger_source".to_string()), "an update is not a delete");
    assert_eq!(hit.len(), 5);
    let (_, v) = gate_json(&["--deny", "replace", "--max", "delete=100", REPLACE]);
    assert_eq!(broke(&v, "deny replace").len(), 5);
}

#[test]
fn a_deposed_delete_is_a_delete() {
    let (code, v) = gate_json(&[DEPOSED]);
    assert_eq!(code, 1);
    let viol = &v["files"][0]["violations"][0];
    assert_eq!(viol["address"], "terraform_data.web");
    assert_eq!(viol["action"], "delete");
    assert!(viol["reason"].as_str().unwrap().starts_with("deposed object "), "{viol}");
}

#[test]
fn a_data_source_removal_is_not_a_delete() {
    let (code, v) = gate_json(&["testdata/edge/data-source-removal.json"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["files"][0]["counts"]["delete"], 0);
    // Not even `--deny any` sees a data source.
    let (code, _) = gate_json(&["--deny", "any", "testdata/edge/data-source-removal.json"]);
    assert_eq!(code, 0);
}

#[test]
fn a_forget_is_not_a_delete_but_deny_forget_catches_it() {
    let (_, v) = gate_json(&[REMOVED]);
    let deleted = broke(&v, "deny delete");
    assert_eq!(deleted, ["terraform_data.destroy_explicit", "terraform_data.drop_me"]);
    let (code, v) = gate_json(&["--deny", "forget", "--allow", "*", REMOVED]);
    assert_eq!(code, 1);
    assert_eq!(
        broke(&v, "deny forget"),
        [
            "terraform_data.forget_me",
            "module.legacy.terraform_data.a",
            "module.legacy.terraform_data.b[0]",
            "module.legacy.terraform_data.b[1]"
        ]
    );
    assert!(broke(&v, "deny delete").is_empty(), "--allow '*' exempts the deletes");
}

#[test]
fn each_deny_action_fires_on_its_fixture_and_not_elsewhere() {
    // (action, fixture where it fires, how many, fixture where it must not)
    let cases: &[(&str, &str, usize, &str)] = &[
        ("create", "testdata/real/basic/plan.json", 1, "testdata/real/moved/plan.json"),
        ("update", "testdata/real/basic/plan.json", 1, "testdata/real/destroy/plan.json"),
        ("delete", "testdata/real/destroy/plan.json", 4, "testdata/real/data-read/plan.json"),
        ("replace", "testdata/real/state/plan.json", 2, "testdata/real/destroy/plan.json"),
        ("forget", REMOVED, 4, "testdata/real/destroy/plan.json"),
        ("import", "testdata/real/import/plan.json", 4, "testdata/real/basic/plan.json"),
        ("move", "testdata/real/moved/plan.json", 5, "testdata/real/refactor-rename/plan.json"),
        ("any", "testdata/real/sensitive/plan.json", 3, "testdata/real/noop/plan.json"),
    ];
    for (action, fires, n, quiet) in cases {
        let rule = format!("deny {action}");
        let (code, v) = gate_json(&["--deny", action, "--allow-errored", fires]);
        assert_eq!(broke(&v, &rule).len(), *n, "{rule} on {fires}: {v}");
        assert_eq!(code, 1);
        let (_, v) = gate_json(&["--deny", action, quiet]);
        assert!(broke(&v, &rule).is_empty(), "{rule} must not fire on {quiet}");
    }
}

#[test]
fn max_caps_per_plan_and_an_explicit_delete_rule_replaces_the_default() {
    let (code, v) = gate_json(&["--max", "delete=5", REPLACE]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["policy"]["default_rule"], false);
    let (code, v) = gate_json(&["--max", "delete=4", REPLACE]);
    assert_eq!(code, 1);
    let viol = &v["files"][0]["violations"][0];
    assert_eq!(viol["rule"], "max delete=4");
    assert!(viol["address"].is_null());
    assert!(viol["reason"].as_str().unwrap().starts_with("5 change(s) would destroy, more than the 4 allowed"));
    // --max on another action keeps the default rule.
    let (code, v) = gate_json(&["--max", "replace=5", REPLACE]);
    assert_eq!(code, 1);
    assert_eq!(rules_broken(&v), ["deny delete"]);
    let (code, _) = gate_json(&["--max", "create=1", "--max", "delete=9", "testdata/real/basic/plan.json"]);
    assert_eq!(code, 0);
    let (code, _) = gate_json(&["--max", "create=0", "--max", "delete=9", "testdata/real/basic/plan.json"]);
    assert_eq!(code, 1);
}

#[test]
fn protect_wins_over_allow_and_over_max() {
    let (code, v) = gate_json(&["--allow", "*", "--protect", "terraform_data.tainted", REPLACE]);
    assert_eq!(code, 1);
    assert_eq!(rules_broken(&v), ["protect terraform_data.tainted"]);
    assert_eq!(broke(&v, "protect terraform_data.tainted"), ["terraform_data.tainted"]);
    let (_, v) = gate_json(&["--max", "delete=100", "--protect-type", "terraform_data", REPLACE]);
    assert_eq!(broke(&v, "protect-type terraform_data").len(), 5);
    // A protected address that is only updated is fine.
    let (code, _) = gate_json(&["--allow", "*", "--protect", "terraform_data.trigger_source", REPLACE]);
    assert_eq!(code, 0);
}

#[test]
fn allow_and_protect_globs_cover_modules_and_indexes() {
    let (_, v) = gate_json(&["--allow", "module.gone", "--allow", "module.multi[*]", "testdata/real/modules/plan.json"]);
    let hit = broke(&v, "deny delete");
    assert!(hit.iter().all(|a| !a.starts_with("module.gone") && !a.starts_with("module.multi")), "{hit:?}");
    assert_eq!(hit, ["module.a.terraform_data.drop", "module.a.module.b.terraform_data.inner_removed"]);
    let (_, v) = gate_json(&["--allow", "*", "--protect", "terraform_data.keyed[*]", "testdata/real/count-foreach/plan.json"]);
    assert_eq!(broke(&v, "protect terraform_data.keyed[*]"), ["terraform_data.keyed[\"b\"]", "terraform_data.keyed[\"c\"]"]);
}

#[test]
fn checks_fail_only_with_fail_on_checks() {
    let checks = "testdata/real/checks/plan.json";
    let (code, _) = gate_json(&[checks]);
    assert_eq!(code, 0, "unknown and failed checks alone do not fail the default gate");
    let (code, v) = gate_json(&["--fail-on-checks", checks]);
    assert_eq!(code, 1);
    assert_eq!(broke(&v, "fail-on-checks"), ["check.failing"]);
    let (code, _) = gate_json(&["--fail-on-checks", "testdata/real/basic/plan.json", "--max", "delete=1"]);
    assert_eq!(code, 0, "no checks, nothing fails");
}

#[test]
fn an_errored_plan_fails_unless_allowed() {
    let errored = "testdata/real/errored/plan.json";
    let (code, v) = gate_json(&[errored]);
    assert_eq!(code, 1);
    assert_eq!(rules_broken(&v), ["not-errored"]);
    let (code, _) = gate_json(&["--allow-errored", errored]);
    assert_eq!(code, 0);
    let (_, v) = gate_json(&["--allow-errored", "--fail-on-checks", errored]);
    assert_eq!(broke(&v, "fail-on-checks"), ["terraform_data.guarded"]);
}

#[test]
fn drift_fails_only_when_denied_and_the_flag_wins_over_the_file() {
    let drift = "testdata/edge/gate-drift.json";
    let (code, _) = gate_json(&[drift]);
    assert_eq!(code, 0);
    let (code, v) = gate_json(&["--deny-drift", drift]);
    assert_eq!(code, 1);
    assert_eq!(broke(&v, "deny-drift"), ["aws_instance.web", "aws_s3_bucket.logs"]);
    let (code, v) = gate_json(&["--policy", "testdata/policy/strict.json", drift]);
    assert_eq!(code, 1);
    assert!(rules_broken(&v).contains(&"deny-drift".to_string()));
    let (_, v) = gate_json(&["--policy", "testdata/policy/strict.json", "--allow-drift", drift]);
    assert!(!rules_broken(&v).contains(&"deny-drift".to_string()));
    let out = planview(&["gate", "--allow-drift", "--deny-drift", drift]);
    assert_eq!(out.status.code(), Some(2), "contradictory flags are a usage error");
}

#[test]
fn an_unrecognised_action_list_fails_closed_whatever_is_allowed() {
    let (code, v) = gate_json(&["--allow", "*", "--max", "delete=100", "--allow-errored", "testdata/edge/unknown-action.json"]);
    assert_eq!(code, 1);
    assert_eq!(broke(&v, "recognised-actions"), ["terraform_data.b"]);
    assert!(v["files"][0]["violations"][0]["reason"].as_str().unwrap().contains("fails closed"));
}

#[test]
fn policy_files_apply_and_bad_ones_stop_the_gate() {
    let (code, v) = gate_json(&["--policy", "testdata/policy/replace-budget.json", REPLACE]);
    assert_eq!(code, 1);
    assert_eq!(rules_broken(&v), ["protect terraform_data.tainted"]);
    for bad in ["typo", "unknown-action", "broken", "missing"] {
        let f = format!("testdata/policy/{bad}.json");
        let out = planview(&["gate", "--policy", &f, "testdata/real/noop/plan.json"]);
        assert_eq!(out.status.code(), Some(2), "{f} must not pass");
        assert!(out.stdout.is_empty(), "{f}: no verdict on a broken policy");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&f), "{f}: {err}");
    }
    let out = planview(&["gate", "--policy", "testdata/policy/typo.json", "testdata/real/noop/plan.json"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown field `protcet`"));
}

#[test]
fn policy_examples_match_the_policy_schema() {
    for f in ["strict", "replace-budget"] {
        let text = std::fs::read_to_string(root().join(format!("testdata/policy/{f}.json"))).unwrap();
        assert_valid("gate-policy.schema.json", &serde_json::from_str(&text).unwrap(), f);
    }
    // The schema refuses what the reader refuses.
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(root().join("schemas/gate-policy.schema.json")).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    for f in ["typo", "unknown-action"] {
        let text = std::fs::read_to_string(root().join(format!("testdata/policy/{f}.json"))).unwrap();
        assert!(!validator.is_valid(&serde_json::from_str(&text).unwrap()), "{f} should be invalid");
    }
}

#[test]
fn unreadable_input_never_passes_and_the_worst_verdict_wins() {
    // pass + unreadable = error (2)
    let (code, v) = gate_json(&["testdata/real/noop/plan.json", "testdata/edge/truncated.json"]);
    assert_eq!(code, 2);
    assert_eq!(v["verdict"], "error");
    assert_eq!(v["files"][1]["verdict"], "error");
    assert_eq!(v["total"]["errors"], 1);
    // fail + pass = fail (1)
    let (code, v) = gate_json(&["testdata/real/noop/plan.json", REPLACE]);
    assert_eq!((code, v["verdict"].as_str().unwrap()), (1, "fail"));
    assert_eq!(v["total"]["passed"], 1);
    assert_eq!(v["total"]["failed"], 1);
    // A state is not a plan: the gate cannot judge it.
    let (code, v) = gate_json(&["testdata/real/state/state.json"]);
    assert_eq!(code, 2);
    assert!(v["files"][0]["error"]["message"].as_str().unwrap().contains("not a plan"));
    for args in
        [&["gate", "testdata/edge/empty.json"][..], &["gate", "--format", "junit", "missing.json"], &["gate", "--deny", "explode", REPLACE]]
    {
        let out = planview(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    let out = planview(&["gate", "--max", "delete", REPLACE]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("ACTION=N"));
}

#[test]
fn junit_output_parses_as_xml_with_one_case_per_rule_and_plan() {
    let mut files: Vec<String> = real_plans().iter().map(|p| rel(p)).collect();
    files.push("testdata/edge/gate-escaping.json".into());
    files.push("testdata/edge/bad-json.json".into());
    let mut args = vec!["gate", "--format", "junit", "--fail-on-checks", "--deny", "forget"];
    args.extend(files.iter().map(String::as_str));
    let out = planview(&args);
    assert_eq!(out.status.code(), Some(2));
    let xml = String::from_utf8(out.stdout).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("not XML: {e}\n{xml}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "testsuites");
    let suites: Vec<_> = root.children().filter(|n| n.has_tag_name("testsuite")).collect();
    assert_eq!(suites.len(), files.len());
    // rules in force: deny delete (default), deny forget, fail-on-checks, not-errored, complete, recognised-actions
    let cases: usize = suites.iter().map(|s| s.children().filter(|n| n.has_tag_name("testcase")).count()).sum();
    assert_eq!(cases, 6 * (files.len() - 1) + 1);
    assert_eq!(root.attribute("tests").unwrap().parse::<usize>().unwrap(), cases);
    let failures = doc.descendants().filter(|n| n.has_tag_name("failure")).count();
    assert_eq!(root.attribute("failures").unwrap().parse::<usize>().unwrap(), failures);
    assert_eq!(doc.descendants().filter(|n| n.has_tag_name("error")).count(), 1);
    // Markup and control characters from the input survive as text.
    let esc = suites.iter().find(|s| s.attribute("name") == Some("testdata/edge/gate-escaping.json")).unwrap();
    let text: String = esc.descendants().filter_map(|n| n.text()).collect();
    assert!(text.contains("aws_instance.web[\"a,b: 100% <x> & 'q'\"]"), "{text}");
    assert!(text.contains("status was <503> & \"down\""));
    assert!(!text.contains('\u{1b}'));
}

#[test]
fn github_annotations_are_escaped_one_command_per_line() {
    let out = planview(&["gate", "--format", "github", "--fail-on-checks", "testdata/edge/gate-escaping.json"]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    for l in &lines {
        assert!(l.starts_with("::error title="), "{l}");
        let (props, _msg) = l["::error ".len()..].split_once("::").unwrap();
        assert!(!props["title=".len()..].contains([':', ',']), "property not escaped: {props}");
    }
    assert!(lines[0].starts_with("::error title=planview gate::FAILED"), "the verdict first: {}", lines[0]);
    assert!(lines[1].contains("100%25"), "{}", lines[1]);
    assert!(!text.contains('\r') && !text.contains('\u{1b}'));
    assert!(!lines.iter().any(|l| l.starts_with("::warning")), "no injected command");
    let out = planview(&["gate", "--format", "github", "testdata/real/noop/plan.json"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "::notice title=planview gate::passed: 1 plan(s), no violations\n");
}

/// A plan with `n` resources destroyed, each with a long address.
fn big_plan(n: usize) -> String {
    let changes: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#"{{"address":"module.very_long_module_name_{i}.aws_instance.server_with_a_long_name[{i}]","mode":"managed","type":"aws_instance","name":"x","change":{{"actions":["delete","create"]}},"action_reason":"replace_because_cannot_update"}}"#
            )
        })
        .collect();
    format!(r#"{{"format_version":"1.2","resource_changes":[{}]}}"#, changes.join(","))
}

#[test]
fn markdown_fits_max_bytes_for_summary_and_gate() {
    let dir = std::env::temp_dir().join(format!("planview-gate-md-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big.json");
    std::fs::write(&big, big_plan(3000)).unwrap();
    let big = big.to_str().unwrap();
    for (cmd, cap) in [("summary", None), ("gate", None), ("summary", Some("4096")), ("gate", Some("2000"))] {
        let mut args = vec![cmd, "--format", "markdown", big, "testdata/real/basic/plan.json"];
        if let Some(c) = cap {
            args.extend(["--max-bytes", c]);
        }
        let out = planview(&args);
        let md = String::from_utf8(out.stdout).unwrap();
        let limit: usize = cap.map_or(65_536, |c| c.parse().unwrap());
        assert!(md.len() <= limit, "{cmd}: {} > {limit}", md.len());
        assert!(md.len() > limit / 2, "{cmd}: uses its room");
        assert!(md.contains("Trimmed to fit"), "{cmd}: says it trimmed");
        assert_eq!(md.matches("<details>").count(), md.matches("</details>").count(), "{cmd}: details closed");
        let first = md.lines().next().unwrap();
        if cmd == "gate" {
            assert!(first.starts_with("## :x: planview gate: FAILED"), "{first}");
        } else {
            assert!(first.starts_with("### Total over 2 files — Plan: 3001 to add"), "{first}");
        }
    }
    // Small output is untouched.
    let out = planview(&["gate", "--format", "markdown", "testdata/real/noop/plan.json"]);
    assert!(!String::from_utf8(out.stdout).unwrap().contains("Trimmed"));
    let out = planview(&["gate", "--format", "markdown", "--max-bytes", "10", REPLACE]);
    assert_eq!(out.status.code(), Some(2), "a cap below the minimum is a usage error");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn no_sensitive_value_is_printed_by_the_gate() {
    let mut plans: Vec<String> = real_plans().iter().map(|p| rel(p)).collect();
    plans.push("testdata/edge/drift.json".into()); // secrets in drift and variables
    for fmt in ["table", "json", "markdown", "github", "junit"] {
        for plan in &plans {
            let out = planview(&["gate", "--format", fmt, "--deny", "any", "--deny-drift", "--fail-on-checks", plan]);
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(!text.contains("SECRET-MARKER-"), "{fmt} {plan}: {text}");
        }
    }
}

#[test]
fn completions_and_man_page_come_from_the_clap_definitions() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let out = planview(&["completions", shell]);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        let s = String::from_utf8(out.stdout).unwrap();
        assert!(s.contains("gate") && s.contains("protect-type") && s.contains("max-bytes"), "{shell}");
    }
    let out = planview(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    let out = planview(&["man"]);
    let man = String::from_utf8(out.stdout).unwrap();
    assert!(man.starts_with(".ie") || man.contains(".TH planview"), "{}", &man[..200.min(man.len())]);
    assert!(man.contains("gate"));
    let out = planview(&["man", "gate"]);
    let man = String::from_utf8(out.stdout).unwrap();
    assert!(man.contains(".TH planview-gate") && man.contains("protect\\-type"), "{}", &man[..400.min(man.len())]);
    assert_eq!(planview(&["man", "nope"]).status.code(), Some(2));
}

#[test]
fn fail_on_checks_agrees_with_checks_on_condition_results() {
    // Terraform 1.2-1.4 plans carry `condition_results`, not `checks`: the
    // `checks` command fails on them, so must the gate and the summary count them.
    let f = "testdata/edge/condition-results.json";
    let checks = planview(&["checks", f]);
    assert_eq!(checks.status.code(), Some(1));
    let (code, v) = gate_json(&["--fail-on-checks", f]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(broke(&v, "fail-on-checks"), ["aws_instance.web", "output.api_url"]);
    let s: Value = serde_json::from_slice(&planview(&["summary", "--format", "json", f]).stdout).unwrap();
    assert_eq!((s["checks"]["fail"].as_u64(), s["checks"]["pass"].as_u64()), (Some(2), Some(1)), "{s}");
}

#[test]
fn a_moved_and_replaced_protected_resource_fails_the_gate() {
    // Real plan: `moved { from = terraform_data.prod_db, to = terraform_data.scratch }`
    // and a triggers_replace change in the same plan.
    let f = "testdata/real/moved-replaced/plan.json";
    let (code, v) = gate_json(&["--protect", "terraform_data.prod_db", "--allow", "terraform_data.scratch", f]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(broke(&v, "protect terraform_data.prod_db"), ["terraform_data.scratch"]);
    assert_eq!(broke(&v, "deny delete"), ["terraform_data.scratch"]);
    let (code, _) = gate_json(&["--allow", "terraform_data.scratch", "--allow", "terraform_data.prod_db", f]);
    assert_eq!(code, 0, "both addresses allowed");
}

#[test]
fn an_incomplete_plan_fails_unless_allowed() {
    // Real `terraform plan -target=terraform_data.web`: "complete": false.
    let f = "testdata/real/targeted/plan.json";
    let (code, v) = gate_json(&[f]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(rules_broken(&v), ["complete"]);
    let (code, _) = gate_json(&["--allow-incomplete", f]);
    assert_eq!(code, 0);
    let (code, _) = gate_json(&["--policy", "testdata/policy/allow-incomplete.json", f]);
    assert_eq!(code, 0, "the policy file key");
}

#[test]
fn a_deferred_delete_fails_the_gate() {
    let f = "testdata/edge/deferred-changes.json";
    let (code, v) = gate_json(&["--allow-incomplete", f]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(broke(&v, "deny delete"), ["kubernetes_namespace.prod"]);
    assert_eq!(v["files"][0]["counts"]["delete"], 1);
    assert_eq!(v["files"][0]["counts"]["invoke"], 1, "the deferred action invocation");
}

#[test]
fn action_invocations_are_judged() {
    let f = "testdata/edge/action-invocations.json";
    let (code, _) = gate_json(&[f]);
    assert_eq!(code, 0, "invoking is not destroying");
    let (code, v) = gate_json(&["--deny", "any", f]);
    assert_eq!(code, 1);
    assert_eq!(broke(&v, "deny any"), ["terraform_data.app", "action.aws_lambda_invoke.notify", "action.aws_lambda_invoke.warm"]);
    let (code, v) = gate_json(&["--max", "invoke=1", f]);
    assert_eq!(code, 1);
    assert_eq!(v["files"][0]["counts"]["invoke"], 2);
    let (code, _) = gate_json(&["--deny", "invoke", "testdata/real/basic/plan.json", "--allow", "*"]);
    assert_eq!(code, 0, "--deny invoke fires only on invocations");
}

#[test]
fn the_gate_sees_on_failure() {
    // on_failure is written with configs.ActionOnFailure's stringer names
    // (internal/command/jsonplan/action_invocations.go at hashicorp/terraform 883c7221ee2e).
    let f = "testdata/edge/action-invocations.json";
    let (code, v) = gate_json(&["--deny-on-failure", "continue", f]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(broke(&v, "deny-on-failure continue"), ["action.aws_lambda_invoke.warm"]);
    let (code, v) = gate_json(&["--deny-on-failure", "ActionOnFailureContinue@AfterUpdate", f]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(broke(&v, "deny-on-failure continue@AfterUpdate"), ["action.aws_lambda_invoke.warm"]);
    let (code, v) = gate_json(&["--deny-on-failure", "continue@destroy", f]);
    assert_eq!(code, 0, "no destroy trigger: {v}");
    let (code, v) = gate_json(&["--deny-on-failure", "taint", f]);
    assert_eq!(code, 0, "{v}");
    // From a policy file too.
    let (code, v) = gate_json(&["--policy", "testdata/policy/deny-on-failure.json", f]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(broke(&v, "deny-on-failure halt@update"), ["action.aws_lambda_invoke.notify"]);
    // A bad spec is a usage error, not a looser policy.
    let dir = std::env::temp_dir().join(format!("planview-on-failure-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let policy = dir.join("p.json");
    std::fs::write(&policy, r#"{"deny_on_failure":["sometimes"]}"#).unwrap();
    let out = planview(&["gate", "--policy", policy.to_str().unwrap(), f]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown on_failure `sometimes`"), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(planview(&["gate", "--deny-on-failure", "continue@teatime", f]).status.code(), Some(2));
}

#[test]
fn a_lifecycle_invocation_without_on_failure_fails_an_on_failure_rule_closed() {
    // Terraform 1.14-1.15 wrote no on_failure (the field came with 1.16); an
    // event planview does not know alone changes nothing the gate judges.
    let f = "testdata/edge/action-invocations-1.14.json";
    let (code, v) = gate_json(&[f]);
    assert_eq!(code, 0, "an unknown trigger event alone does not fail the gate: {v}");
    let (code, v) = gate_json(&["--deny-on-failure", "continue", f]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(broke(&v, "deny-on-failure continue"), ["action.aws_lambda_invoke.x"]);
    let (code, v) = gate_json(&["--deny-on-failure", "halt@destroy", f]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(broke(&v, "deny-on-failure halt@destroy"), ["action.aws_lambda_invoke.y"], "unknown event: cannot tell it is not a destroy");
}

#[test]
fn github_puts_the_verdict_first_and_at_most_nine_violation_annotations() {
    let out = planview(&["gate", "--format", "github", "--deny", "any", "--deny", "create", REPLACE]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("::error title=planview gate::FAILED: "), "{text}");
    let (_, v) = gate_json(&["--deny", "any", "--deny", "create", REPLACE]);
    let n = v["total"]["violations"].as_u64().unwrap() as usize;
    assert!(n > 10, "the fixture must break more rules than GitHub shows: {n}");
    let errors = lines.iter().filter(|l| l.starts_with("::error")).count();
    assert_eq!(errors, 10, "the verdict and 9 violations: {text}");
    let notices: Vec<&&str> = lines.iter().filter(|l| l.starts_with("::notice")).collect();
    assert_eq!(notices.len(), 1, "{text}");
    assert!(notices[0].ends_with(&format!("::{} more violation(s): see the job log, or --format json", n - 9)), "{text}");
    // The rest are in the log, as plain lines in a group.
    assert_eq!(lines.iter().filter(|l| l.starts_with("planview gate: ")).count(), n - 9);
    assert_eq!(lines.last(), Some(&"::endgroup::"));
}

#[test]
fn a_passing_gate_prints_no_fail_in_any_format() {
    // Atlantis' custom policy check fails any output containing "fail". The only
    // exceptions are JSON contracts: the key "failed" (total) and the rule id
    // "fail-on-checks"; and JUnit's `failures="0"` attributes (its XML schema).
    let flags = ["--fail-on-checks", "--deny-drift", "--allow-errored", "--allow-incomplete", "--allow", "*", "--max", "create=1000"];
    let mut passed = 0;
    for plan in real_plans() {
        let p = rel(&plan);
        for format in ["table", "markdown", "github", "junit", "json"] {
            let mut args = vec!["gate", "--format", format];
            args.extend(flags);
            args.push(&p);
            let out = planview(&args);
            if out.status.code() != Some(0) {
                continue;
            }
            passed += 1;
            let text = String::from_utf8(out.stdout).unwrap().to_lowercase();
            let text = match format {
                "json" => text.replace("\"failed\":", "").replace("\"fail-on-checks\"", ""),
                "junit" => text.replace("failures=\"0\"", ""),
                _ => text,
            };
            assert!(!text.contains("fail"), "{p} ({format}) passed but prints \"fail\":\n{text}");
        }
    }
    assert!(passed >= 50, "too few passing runs: {passed}");
}

#[test]
fn a_replacement_that_forgets_is_gated_as_create_forget_and_replace_never_as_delete() {
    for (f, address) in
        [("testdata/edge/create-forget.json", "terraform_data.keep"), ("testdata/edge/tofu-forget.json", "terraform_data.tainted")]
    {
        let (code, v) = gate_json(&["--deny", "delete", "--allow", "terraform_data.off", f]);
        assert_eq!(code, 0, "nothing of {address} is destroyed: {v}");
        for rule in ["forget", "create", "replace"] {
            let (code, v) = gate_json(&["--deny", rule, f]);
            assert_eq!(code, 1, "{f} --deny {rule}: {v}");
            assert!(broke(&v, &format!("deny {rule}")).contains(&address.to_string()), "{f} --deny {rule}: {v}");
        }
        let (_, v) = gate_json(&["--deny", "any", f]);
        assert!(!rules_broken(&v).contains(&"recognised-actions".to_string()), "{v}");
    }
    let (code, v) = gate_json(&["testdata/edge/create-forget.json"]);
    assert_eq!(code, 0, "the default rule passes: {v}");
}

#[test]
fn an_import_whose_id_is_not_known_yet_is_still_an_import() {
    let f = "testdata/edge/deferred-unknown-keys.json";
    let (code, v) = gate_json(&["--allow-incomplete", "--deny", "import", f]);
    assert_eq!(code, 1, "{v}");
    assert_eq!(broke(&v, "deny import"), ["terraform_data.fleet[*]"]);
    assert!(v["files"][0]["violations"][0]["reason"].as_str().unwrap().contains("import id not known yet"), "{v}");
    let (code, v) = gate_json(&[f]);
    assert_eq!(code, 1, "deferred: incomplete: {v}");
    assert_eq!(rules_broken(&v), ["complete"]);
}
