//! `planview comment`: the body never exceeds its budget and stays balanced
//! (every `<details>` and code fence closed) on large plans, the marker comes
//! first, `--skip-unchanged`, the job summary and the CI outputs, exit codes as
//! `gate`'s.

use crate::common::*;
use serde_json::{json, Value};

#[allow(dead_code)]
use crate::gen_plan;

/// A plan with `n` resource changes of every kind, each with a few attributes
/// (some sensitive), and drift and output changes.
fn plan_with(n: usize) -> Value {
    let actions: [&[&str]; 6] = [&["create"], &["update"], &["delete"], &["delete", "create"], &["create", "delete"], &["no-op"]];
    let changes: Vec<Value> = (0..n)
        .map(|i| {
            let a = actions[i % actions.len()];
            let before = if a == ["create"] { Value::Null } else { json!({"name": format!("r{i}"), "size": i, "tags": {"team": "core", "n": i}}) };
            let after = if a == ["delete"] {
                Value::Null
            } else {
                json!({"name": format!("r{i}-new"), "size": i + 1, "tags": {"team": "core", "n": i + 1}, "password": format!("pw-secret-{i:06}")})
            };
            let mut rc = json!({
                "address": format!("aws_instance.r{i}"), "mode": "managed", "type": "aws_instance", "name": format!("r{i}"),
                "provider_name": "registry.terraform.io/hashicorp/aws",
                "change": {"actions": a, "before": before, "after": after, "after_unknown": {}, "before_sensitive": {}, "after_sensitive": {"password": true}}
            });
            if a == ["no-op"] {
                rc["previous_address"] = json!(format!("aws_instance.old{i}"));
                rc["change"]["after"] = rc["change"]["before"].clone();
                rc["change"]["after_sensitive"] = json!({});
            }
            if a.len() == 2 {
                rc["action_reason"] = json!("replace_because_cannot_update");
                rc["change"]["replace_paths"] = json!([["name"]]);
            }
            rc
        })
        .collect();
    json!({
        "format_version": "1.2", "terraform_version": "1.11.4", "applyable": true, "complete": true, "errored": false,
        "resource_changes": changes,
        "resource_drift": [{"address": "aws_instance.r1", "mode": "managed", "type": "aws_instance", "name": "r1",
            "change": {"actions": ["update"], "before": {"size": 0}, "after": {"size": 9}}}],
        "output_changes": {"ip": {"actions": ["create"], "before": null, "after": "10.0.0.1", "after_unknown": false}}
    })
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("planview-comment-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The checks every body passes: within `max`, the marker first, every
/// `<details>` and fence closed, and a note when something was left out.
fn check_body(body: &str, max: usize, what: &str) {
    assert!(body.len() <= max, "{what}: {} bytes, over the budget of {max}", body.len());
    assert!(body.starts_with("<!-- planview:"), "{what}: the marker comes first");
    assert_eq!(body.matches("<details>").count(), body.matches("</details>").count(), "{what}: <details> balanced");
    let fences = body.lines().filter(|l| l.trim_start().starts_with("```")).count();
    assert_eq!(fences % 2, 0, "{what}: every code fence closed");
    assert!(!body.contains("pw-secret-"), "{what}: a sensitive value printed");
}

/// The body's budgets on a plan whose whole review (about 200 KB) is three
/// times the largest of them, so every budget trims; then the job summary's
/// 1 MiB on a plan whose review is over 1 MiB (11,000 changes), trimmed to it.
/// (It ran every budget on 10,000 changes, whose review, 985 KB, fits in the
/// job summary whole: 2,000 prove the budgets as well, and 11,000 the cap.)
#[test]
fn thousands_of_changes_fit_every_budget_and_stay_balanced() {
    let dir = scratch("10k");
    let file = dir.join("plan.json");
    std::fs::write(&file, serde_json::to_vec(&plan_with(2_000)).unwrap()).unwrap();
    let file = file.to_string_lossy().to_string();
    let summary = dir.join("summary.md");
    for (flags, max) in [
        (vec!["--platform", "bitbucket"], 32_767),
        (vec![], 65_536),
        (vec!["--max-bytes", "1024"], 1_024),
        (vec!["--max-bytes", "5000"], 5_000),
    ] {
        let mut args = vec!["comment", "--summary-file", summary.to_str().unwrap()];
        args.extend(flags.iter().copied());
        args.push(&file);
        let out = planview(&args);
        assert_eq!(out.status.code(), Some(1), "the default gate fails on deletes: {}", String::from_utf8_lossy(&out.stderr));
        let body = String::from_utf8(out.stdout).unwrap();
        check_body(&body, max, &format!("{flags:?}"));
        assert!(body.contains("> [!NOTE]\n> Trimmed to fit") || body.contains("Cut short"), "{flags:?}: says what was left out");
        assert!(body.contains("The whole review: the job summary of this run."), "{flags:?}");
        if max >= 5_000 {
            assert!(body.contains("Plan: 1000 to add, 334 to change, 999 to destroy."), "{flags:?}: the Plan: line is always kept");
        }
        let s = std::fs::read_to_string(&summary).unwrap();
        assert!(s.len() > 3 * 65_536 && s.len() <= 1_048_576, "the whole review, more than any body's budget: {}", s.len());
        assert!(!s.contains("Trimmed to fit"), "the whole review fits the job summary");
        assert_eq!(s.matches("<details>").count(), s.matches("</details>").count());
        assert!(!s.contains("<!-- planview:"), "no marker in the job summary");
        std::fs::remove_file(&summary).unwrap();
    }
    // Destructive first: the replacements and deletes are listed before the updates.
    let out = planview(&["comment", "--max-bytes", "100000000", &file]);
    let body = String::from_utf8(out.stdout).unwrap();
    assert!(!body.contains("[!NOTE]"), "a budget large enough leaves nothing out");
    let at = |s: &str| body.find(s).unwrap_or(usize::MAX);
    assert!(at("**Replace**") < at("**Destroy**") && at("**Destroy**") < at("**Update in-place**"), "{body}");
    // A review over 1 MiB: the job summary uses its 1 MiB and says what it left out.
    let big = dir.join("big.json");
    std::fs::write(&big, serde_json::to_vec(&plan_with(11_000)).unwrap()).unwrap();
    let out = planview(&["comment", "--summary-file", summary.to_str().unwrap(), big.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let body = String::from_utf8(out.stdout).unwrap();
    check_body(&body, 65_536, "11,000 changes");
    assert!(body.contains("Plan: 5500 to add, 1834 to change, 5499 to destroy."), "the Plan: line is always kept");
    let s = std::fs::read_to_string(&summary).unwrap();
    assert!(s.len() <= 1_048_576 && s.len() > 900_000, "the job summary uses its 1 MiB: {}", s.len());
    assert!(s.contains("> [!NOTE]\n> Trimmed to fit 1048576 bytes"), "the job summary says what it left out");
    assert_eq!(s.matches("<details>").count(), s.matches("</details>").count());
    assert!(!s.contains("<!-- planview:"), "no marker in the job summary");
    assert!(!s.contains("pw-secret-"), "a sensitive value in the job summary");
    std::fs::remove_dir_all(&dir).ok();
}

/// A plan of the benchmark generator fits each budget, trimmed. 2 MB of it
/// is trimmed at every budget as 8 MB was (its whole review is several times
/// the largest), at a quarter of the runs' time.
#[test]
fn a_benchmark_plan_fits_the_budget() {
    let dir = scratch("bench");
    let file = dir.join("plan.json");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&file).unwrap());
    gen_plan::generate(&mut f, 2 << 20, 7).unwrap();
    drop(f);
    let file = file.to_string_lossy().to_string();
    for max in ["1024", "32768", "65536"] {
        let out = planview(&["comment", "--max-bytes", max, &file]);
        assert!(matches!(out.status.code(), Some(0 | 1)), "{}", String::from_utf8_lossy(&out.stderr));
        let body = String::from_utf8(out.stdout).unwrap();
        check_body(&body, max.parse().unwrap(), max);
        assert!(body.contains("> [!NOTE]\n> Trimmed to fit") || body.contains("Cut short"), "{max}: the budget trims it");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn exit_codes_are_the_gates() {
    let code = |args: &[&str]| planview(args).status.code();
    for plan in ["testdata/real/replace/plan.json", "testdata/real/basic/plan.json", "testdata/real/noop/plan.json"] {
        assert_eq!(code(&["comment", plan]), code(&["gate", plan]), "{plan}");
    }
    assert_eq!(code(&["comment", "testdata/real/replace/plan.json"]), Some(1));
    assert_eq!(code(&["comment", "--allow", "*", "testdata/real/replace/plan.json"]), Some(0));
    let out = planview(&["comment", "testdata/real/basic/plan.json", "testdata/edge/truncated.json"]);
    assert_eq!(out.status.code(), Some(2), "an unreadable input: exit 2, never a pass");
    let body = String::from_utf8(out.stdout).unwrap();
    assert!(body.contains("could not be read") && body.contains(":warning: planview: ERROR"), "{body}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("truncated.json:4:74"), "the error contract on stderr");
    assert_eq!(code(&["comment", "testdata/real/state/state.json"]), Some(2), "a state is not a plan");
}

#[test]
fn skip_unchanged_prints_nothing_only_when_nothing_changes_and_the_gate_passes() {
    let out = planview(&["comment", "--skip-unchanged", "testdata/real/noop/plan.json"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
    let out = planview(&["comment", "testdata/real/noop/plan.json"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("No changes."));
    let out = planview(&["comment", "--skip-unchanged", "testdata/real/noop/plan.json", "testdata/real/basic/plan.json"]);
    assert!(!out.stdout.is_empty(), "one input changes something");
}

#[test]
fn the_marker_id_is_made_of_the_inputs_or_given() {
    let first = |args: &[&str]| String::from_utf8(planview(args).stdout).unwrap().lines().next().unwrap_or_default().to_string();
    assert_eq!(first(&["comment", "testdata/real/noop/plan.json"]), "<!-- planview:testdata/real/noop/plan.json -->");
    assert_eq!(first(&["comment", "--id", "prod --> <b>", "testdata/real/noop/plan.json"]), "<!-- planview:prod_-___b_ -->");
}

#[test]
fn outputs_file_and_job_summary_are_appended_to() {
    let dir = scratch("files");
    let (outputs, summary) = (dir.join("out.env"), dir.join("summary.md"));
    std::fs::write(&outputs, "earlier=1\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_planview"))
        .args(["comment", "testdata/real/replace/plan.json"])
        .current_dir(root())
        .env("GITHUB_OUTPUT", &outputs)
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = std::fs::read_to_string(&outputs).unwrap();
    assert_eq!(
        text,
        "earlier=1\nhas_changes=true\nhas_resource_changes=true\ndestructive=true\nverdict=fail\nto_add=5\nto_change=1\n\
         to_destroy=5\nto_replace=5\nto_import=0\nto_move=0\nto_forget=0\n"
    );
    let s = std::fs::read_to_string(&summary).unwrap();
    assert!(s.starts_with("## :x: planview: FAILED") && s.contains("```diff"), "{s}");
    // --outputs-file wins over $GITHUB_OUTPUT; output-only changes are not resource changes.
    let (own, only) = (dir.join("own.env"), dir.join("outputs-only.json"));
    std::fs::write(&only, r#"{"format_version":"1.2","output_changes":{"o":{"actions":["create"],"before":null,"after":"v"}}}"#).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_planview"))
        .args(["comment", "--outputs-file", own.to_str().unwrap(), only.to_str().unwrap()])
        .current_dir(root())
        .env("GITHUB_OUTPUT", &outputs)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&own).unwrap();
    assert!(text.starts_with("has_changes=true\nhas_resource_changes=false\ndestructive=false\nverdict=pass\n"), "{text}");
    assert_eq!(std::fs::read_to_string(&outputs).unwrap().lines().count(), 12, "$GITHUB_OUTPUT untouched");
    std::fs::remove_dir_all(&dir).ok();
}

/// Below the marker, each plan's fingerprint, as `planview fingerprint` prints
/// it: a later job reads it back for `gate --expect-fingerprint`, which passes
/// on the same plan and fails on another.
#[test]
fn the_hidden_fingerprint_is_the_plans_and_the_gate_takes_it_back() {
    let plan = "testdata/real/plan-pairs/reviewed.json";
    let body = String::from_utf8(planview(&["comment", plan]).stdout).unwrap();
    let fp = String::from_utf8(planview(&["fingerprint", plan]).stdout).unwrap();
    let fp = fp.trim();
    assert!(fp.starts_with("sha256:"), "{fp}");
    let line = body.lines().nth(1).unwrap();
    assert_eq!(line, format!("<!-- planview-fingerprint {fp} -->"), "{body}");
    let read_back = line.trim_start_matches("<!-- planview-fingerprint ").trim_end_matches(" -->");
    let fingerprint_rule = |file: &str| -> bool {
        let out = planview(&["gate", "--format", "json", "--expect-fingerprint", read_back, file]);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let rules = v["files"][0]["rules"].as_array().unwrap().clone();
        rules.iter().find(|r| r["rule"] == "fingerprint").unwrap()["passed"].as_bool().unwrap()
    };
    assert!(fingerprint_rule(plan), "the reviewed plan passes its own fingerprint");
    assert!(!fingerprint_rule("testdata/real/plan-pairs/changed-attribute.json"), "another plan does not");
    // Several plans: one line each, named.
    let body = String::from_utf8(planview(&["comment", plan, "testdata/real/basic/plan.json"]).stdout).unwrap();
    let lines: Vec<&str> = body.lines().skip(1).take_while(|l| l.starts_with("<!-- planview-fingerprint ")).collect();
    assert_eq!(lines.len(), 2, "{body}");
    assert!(lines[0].contains("reviewed.json sha256:") && lines[1].contains("basic/plan.json sha256:"), "{lines:?}");
}

#[test]
fn newer_cli_shapes_are_right_in_the_comment() {
    // The Plan line as Terraform 1.16 writes it (internal/command/jsonformat/plan.go
    // at hashicorp/terraform 883c7221ee2e), the invocations with their trigger and
    // on_failure, a forgetting replacement grouped and worded, never UNRECOGNISED.
    let out = planview(&["comment", "testdata/edge/action-invocations.json", "testdata/edge/create-forget.json"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let body = String::from_utf8(out.stdout).unwrap();
    assert!(body.contains("Plan: 0 to add, 1 to change, 0 to destroy. Actions: 2 to invoke."), "{body}");
    assert!(
        body.contains("**Actions to invoke** (2)") && body.contains("triggered by AfterUpdate of terraform_data.app; on failure: continue"),
        "{body}"
    );
    assert!(body.contains("Plan: 2 to add, 0 to change, 0 to destroy."), "{body}");
    assert!(body.contains("must be replaced, but the existing object will not be destroyed"), "{body}");
    assert!(!body.contains("nrecognised") && !body.contains("hunter2"), "{body}");
    check_body(&body, 65_536, "newer shapes");
}
