//! `summary` against every real fixture: totals equal the CLI's own `Plan:`
//! line, JSON output matches its schema, and no sensitive value is printed.

use crate::common::*;

/// Parse the CLI's line: `Plan: [I to import, ]A to add, C to change, D to destroy[, F to forget].`
/// or `No changes.` (all zero). Terraform 1.11 never prints `to forget` (OpenTofu
/// does), so the forget slot is `None` when the line does not say.
fn parse_plan_line(line: &str) -> Option<([u64; 4], Option<u64>)> {
    let line = line.trim();
    if line.starts_with("No changes.") {
        return Some(([0; 4], Some(0)));
    }
    let body = line.strip_prefix("Plan: ")?.trim_end_matches('.');
    let mut t = [0u64; 4];
    let mut forget = None;
    for part in body.split(", ") {
        let (n, what) = part.split_once(' ')?;
        let n: u64 = n.parse().ok()?;
        let i = match what {
            "to import" => 0,
            "to add" => 1,
            "to change" => 2,
            "to destroy" => 3,
            "to forget" => {
                forget = Some(n);
                continue;
            }
            _ => return None,
        };
        t[i] = n;
    }
    Some((t, forget))
}

#[test]
fn plan_line_parser_reads_every_form() {
    assert_eq!(parse_plan_line("Plan: 1 to import, 2 to add, 0 to change, 1 to destroy."), Some(([1, 2, 0, 1], None)));
    assert_eq!(parse_plan_line("Plan: 0 to add, 0 to change, 0 to destroy, 3 to forget."), Some(([0, 0, 0, 0], Some(3))));
    assert_eq!(parse_plan_line("No changes. Your infrastructure matches the configuration."), Some(([0; 4], Some(0))));
    assert_eq!(parse_plan_line("Error: boom"), None);
}

#[test]
fn summary_totals_equal_the_cli_plan_line_on_every_real_fixture() {
    let plans = real_plans();
    assert!(plans.len() >= 10, "expected the real fixtures in testdata/real, found {}", plans.len());
    let mut compared = 0;
    for plan in &plans {
        let line_file = plan.with_file_name("plan-line.txt");
        let Ok(text) = std::fs::read_to_string(&line_file) else { continue };
        let Some((expected, forget)) = parse_plan_line(text.lines().next().unwrap_or("")) else { continue };
        let out = planview(&["summary", "--format", "json", &rel(plan)]);
        assert_eq!(out.status.code(), Some(0), "{}: {}", rel(plan), String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let t = &v["totals"];
        let got = [&t["import"], &t["add"], &t["change"], &t["destroy"]].map(|x| x.as_u64().unwrap());
        assert_eq!(got, expected, "{}: totals {:?} but the CLI said {:?}", rel(plan), got, text.trim());
        if let Some(f) = forget {
            assert_eq!(t["forget"].as_u64().unwrap(), f, "{}: forget", rel(plan));
        }
        if expected != [0; 4] {
            assert_eq!(v["plan_line"].as_str().unwrap(), text.lines().next().unwrap().trim(), "{}", rel(plan));
        }
        compared += 1;
    }
    assert!(compared >= 10, "only {compared} fixtures had a Plan: line to compare");
}

#[test]
fn summary_json_matches_schema_for_every_fixture_and_edge_case() {
    let mut inputs: Vec<String> = real_plans().iter().chain(real_states().iter()).map(|p| rel(p)).collect();
    for edge in ["unknown-action", "format-0.1", "empty-state", "errored-handmade"] {
        inputs.push(format!("testdata/edge/{edge}.json"));
    }
    for input in &inputs {
        let out = planview(&["summary", "--format", "json", input]);
        assert_eq!(out.status.code(), Some(0), "{input}: {}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_valid("summary.schema.json", &v, input);
    }
    // Several files, one of them unreadable: per-file objects plus a total, exit 2.
    let mut args = vec!["summary", "--format", "json"];
    args.extend(inputs.iter().map(String::as_str));
    args.push("testdata/edge/format-2.0.json");
    let out = planview(&args);
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid("summary.schema.json", &v, "multi-file");
    assert_eq!(v["total"]["failed"], 1);
    assert_eq!(v["files"].as_array().unwrap().len(), inputs.len() + 1);
}

#[test]
fn no_sensitive_value_is_printed_in_any_format() {
    let mut inputs: Vec<String> = real_plans().iter().chain(real_states().iter()).map(|p| rel(p)).collect();
    inputs.sort();
    assert!(inputs.iter().any(|i| i.contains("sensitive")), "the sensitive fixture is missing");
    for format in ["table", "json", "markdown"] {
        for input in &inputs {
            let out = planview(&["summary", "--format", format, "--color", "always", input]);
            let all = [out.stdout.as_slice(), out.stderr.as_slice()].concat();
            let text = String::from_utf8_lossy(&all);
            assert!(!text.contains("SECRET-MARKER"), "{input} ({format}) leaked a secret:\n{text}");
        }
    }
}

/// `testdata/real/secret-forms`: a sensitive password with `&<>` copied into an
/// unmarked `jsonencode` string (where Terraform writes `\u0026`, `\u003c`,
/// `\u003e`), and a sensitive number copied into unmarked attributes and
/// outputs. No command, in any format, prints either, in any form.
#[test]
fn copies_of_secrets_in_jsonencode_form_and_sensitive_numbers_are_never_printed() {
    use crate::common::commands::run_raw;
    let files = ["testdata/real/secret-forms/plan.json", "testdata/real/secret-forms/state.json"];
    // The fixture holds what the test is about (else it proves nothing).
    let plan = std::fs::read_to_string(root().join(files[0])).unwrap();
    assert!(plan.contains(r#"S3cret\\u0026Pass\\u003cword\\u003e!"#) && plan.contains("987654321"));
    no_command_prints(&files, &["S3cret", "Pass<word", r"Pass\u003c", "987654321"]);
    // With --show-sensitive the copies are shown: the masking above is by value, not by accident.
    let out = run_raw(&["outputs".into(), "--show-sensitive".into(), files[1].into()], &[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("987654321") && text.contains(r"S3cret\\u0026Pass"), "{text}");
}

/// Every command, in every format (with `--all`, `--full`, `--prior` where it
/// takes them), on each file, from the file and from stdin: none prints any of `forms`.
fn no_command_prints(files: &[&str], forms: &[&str]) {
    use crate::common::commands::{commands, run_raw};
    let mut runs = 0;
    for c in commands() {
        for format in &c.formats {
            for file in files {
                let mut args = vec![c.name.clone()];
                if !format.is_empty() {
                    args.extend(["--format".into(), format.clone()]);
                }
                args.extend(c.options.iter().filter(|o| ["--all", "--full", "--prior"].contains(&o.as_str())).cloned());
                let bytes = std::fs::read(root().join(file)).unwrap();
                let from_file = run_raw(&[args.clone(), c.files(&[file])].concat(), &[]);
                // A command of two plans (`diff`) reads both from files.
                let piped = (!c.pair).then(|| planview_with_stdin(&args.iter().map(String::as_str).collect::<Vec<_>>(), Some(&bytes)));
                for out in std::iter::once(from_file).chain(piped) {
                    runs += 1;
                    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
                    for form in forms {
                        assert!(!text.contains(form), "planview {} {file} prints {form}:\n{text}", args.join(" "));
                    }
                }
            }
        }
    }
    assert!(runs > 20);
}

/// A secret marked only in `prior_state` (a data source's `sensitive_values`;
/// the real plan of this fixture, marked as a provider with a sensitive
/// attribute marks it) and copied, through `nonsensitive()`, into an import
/// id: no command prints it, streamed (`summary`) or read whole.
#[test]
fn a_secret_marked_only_in_prior_state_is_never_printed() {
    let file = "testdata/edge/secret-in-prior-state.json";
    let plan = std::fs::read_to_string(root().join(file)).unwrap();
    assert!(plan.contains(r#""importing": {"id": "k3y-From-Remote-42"}"#) && plan.contains(r#""deploy_key": true"#));
    no_command_prints(&[file], &["k3y-From-Remote", "UNMARKED-remote"]);
    let out = planview(&["summary", "--show-sensitive", file]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("k3y-From-Remote-42"), "the secret is masked by meaning, not by accident");
}

/// `summary --format FORMAT` of a file, and of the same bytes on stdin (streamed).
fn summary_both(format: &str, file: &str) -> (String, String) {
    let out = planview(&["summary", "--format", format, file]);
    assert_eq!(out.status.code(), Some(0), "{file}: {}", String::from_utf8_lossy(&out.stderr));
    let bytes = std::fs::read(root().join(file)).unwrap();
    let piped = planview_with_stdin(&["summary", "--format", format], Some(&bytes));
    assert_eq!(piped.status.code(), Some(0), "{file} on stdin: {}", String::from_utf8_lossy(&piped.stderr));
    (String::from_utf8(out.stdout).unwrap(), String::from_utf8(piped.stdout).unwrap())
}

fn summary_value(file: &str) -> serde_json::Value {
    let (whole, piped) = summary_both("json", file);
    let v: serde_json::Value = serde_json::from_str(&whole).unwrap();
    let mut p: serde_json::Value = serde_json::from_str(&piped).unwrap();
    p["file"] = v["file"].clone();
    assert_eq!(v, p, "{file}: whole and streamed summaries differ");
    assert_valid("summary.schema.json", &v, file);
    v
}

#[test]
fn plan_line_is_what_the_cli_printed_on_every_real_fixture() {
    // plan-line.txt holds the CLI's own line (or, without one, the sentence it
    // printed instead, wrapped): compare with blanks normalised.
    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut compared = 0;
    for plan in &real_plans() {
        let Ok(text) = std::fs::read_to_string(plan.with_file_name("plan-line.txt")) else { continue };
        let v = summary_value(&rel(plan));
        assert_eq!(v["plan_line"].as_str().unwrap(), norm(&text), "{}", rel(plan));
        let gate = planview(&["gate", "--format", "json", "--allow-errored", "--allow-incomplete", &rel(plan)]);
        let g: serde_json::Value = serde_json::from_slice(&gate.stdout).unwrap();
        assert_eq!(g["files"][0]["plan_line"], v["plan_line"], "{}: the gate says the same", rel(plan));
        compared += 1;
    }
    assert!(compared >= 20, "only {compared} fixtures compared");
}

#[test]
fn errored_plan_without_changes_says_planning_failed_not_no_changes() {
    let p = br#"{"format_version":"1.2","errored":true,"complete":false,"resource_changes":[]}"#;
    let out = planview_with_stdin(&["summary", "--format", "json"], Some(p));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["plan_line"], "Planning failed. Terraform encountered an error while generating this plan.");
    let out = planview_with_stdin(&["summary"], Some(p));
    let t = String::from_utf8(out.stdout).unwrap();
    assert!(!t.contains("No changes"), "{t}");
}

#[test]
fn refresh_only_drift_is_listed() {
    let f = "testdata/edge/drift-refresh-only.json";
    let v = summary_value(f);
    let drifted = v["drifted"].as_array().unwrap();
    assert_eq!(drifted.len() as u64, v["drift"].as_u64().unwrap());
    assert!(!drifted.is_empty());
    let (table, _) = summary_both("table", f);
    let (md, _) = summary_both("markdown", f);
    for r in drifted {
        let a = r["address"].as_str().unwrap();
        assert!(table.contains(a), "{a} not in the table:\n{table}");
        assert!(md.contains(a), "{a} not in the markdown:\n{md}");
    }
}

#[test]
fn an_incomplete_plan_is_flagged_in_every_format() {
    let f = "testdata/real/targeted/plan.json";
    let v = summary_value(f);
    assert_eq!((v["complete"].as_bool(), v["incomplete"].as_bool()), (Some(false), Some(true)));
    let (table, piped) = summary_both("table", f);
    assert!(table.contains("PLAN INCOMPLETE") && piped.contains("PLAN INCOMPLETE"), "{table}");
    let (md, _) = summary_both("markdown", f);
    assert!(md.contains("This plan is incomplete"), "{md}");
}

#[test]
fn deferred_changes_are_counted_and_listed_with_their_reason() {
    let f = "testdata/edge/deferred-changes.json";
    let v = summary_value(f);
    assert_eq!(v["deferred"], 2);
    assert_eq!(v["has_changes"], true);
    assert!(!v["plan_line"].as_str().unwrap().starts_with("No changes"), "{}", v["plan_line"]);
    let d = &v["deferred_changes"][0];
    assert_eq!((d["address"].as_str(), d["action"].as_str()), (Some("kubernetes_namespace.prod"), Some("delete")));
    assert_eq!(d["deferred_reason"], "provider_config_unknown");
    assert_eq!(v["action_invocations"][0]["deferred_reason"], "resource_config_unknown");
    let (table, _) = summary_both("table", f);
    assert!(table.contains("kubernetes_namespace.prod") && table.contains("deferred: provider_config_unknown"), "{table}");
    let (md, _) = summary_both("markdown", f);
    assert!(md.contains("kubernetes_namespace.prod") && md.contains("provider_config_unknown"), "{md}");
}

#[test]
fn action_invocations_are_counted_and_listed() {
    // Shapes from Terraform's jsonplan.ActionInvocation
    // (internal/command/jsonplan/action_invocations.go at hashicorp/terraform
    // 883c7221ee2e0bc2fad6912fd4b3cc4b53a598a7): stringer names for the event
    // and on_failure; the Plan line as internal/command/jsonformat/plan.go
    // writes it ("... to destroy. Actions: N to invoke.").
    let f = "testdata/edge/action-invocations.json";
    let v = summary_value(f);
    assert_eq!(v["invocations"], 2);
    assert_eq!(v["actions_line"], "Actions: 2 to invoke.");
    assert_eq!(v["plan_line"], "Plan: 0 to add, 1 to change, 0 to destroy. Actions: 2 to invoke.");
    assert_eq!(v["has_changes"], true);
    let a = &v["action_invocations"][1];
    assert_eq!(a["trigger"], "AfterUpdate of terraform_data.app");
    assert_eq!(a["event"], "AfterUpdate");
    assert_eq!(a["triggering_resource_address"], "terraform_data.app");
    assert_eq!(a["on_failure"], "ActionOnFailureContinue");
    assert_eq!(a["calling_resource_address"], serde_json::Value::Null);
    for format in ["table", "markdown"] {
        let (out, _) = summary_both(format, f);
        assert!(out.contains("Plan: 0 to add, 1 to change, 0 to destroy. Actions: 2 to invoke."), "{format}:\n{out}");
        assert!(out.contains("action.aws_lambda_invoke.warm") && out.contains("AfterUpdate of terraform_data.app"), "{format}:\n{out}");
        assert!(out.contains("on failure: continue"), "{format}:\n{out}");
        assert!(!out.contains("No changes") && !out.contains("after_update"), "{format}:\n{out}");
        assert!(!out.contains("hunter2-token"), "a sensitive config value is never printed: {format}:\n{out}");
    }
}

#[test]
fn an_invoked_action_names_the_resource_it_was_called_from() {
    // invoke_action_trigger.calling_resource_address (Terraform 1.16,
    // internal/command/jsonplan/action_invocations.go at 883c7221ee2e).
    let f = "testdata/edge/action-invoke.json";
    let v = summary_value(f);
    assert_eq!(v["plan_line"], "Plan: 0 to add, 0 to change, 0 to destroy. Actions: 1 to invoke.");
    let a = &v["action_invocations"][0];
    assert_eq!(a["trigger"], "apply -invoke (called from aws_instance.web[0])");
    assert_eq!(a["calling_resource_address"], "aws_instance.web[0]");
    assert_eq!(a["on_failure"], serde_json::Value::Null);
}

#[test]
fn a_plan_that_also_carries_provider_schemas_is_a_plan() {
    let v = summary_value("testdata/edge/plan-with-provider-schemas.json");
    assert_eq!(v["totals"]["destroy"], 1);
    // providers schema output itself is still refused.
    assert_eq!(planview(&["summary", "testdata/edge/provider-schemas.json"]).status.code(), Some(2));
}

#[test]
fn import_by_identity_is_shown_wherever_an_import_id_is() {
    let f = "testdata/edge/import-identity.json";
    let v = summary_value(f);
    let identity = r#"identity {account_id = "123456789012", name = "deployer"}"#;
    assert_eq!(v["resources"][0]["import_identity"]["name"], "deployer", "{v}");
    let (table, _) = summary_both("table", f);
    assert!(table.contains(identity), "{table}");
    let show = String::from_utf8(planview(&["show", f]).stdout).unwrap();
    assert!(show.contains(identity), "{show}");
    let gate = String::from_utf8(planview(&["gate", "--format", "json", f]).stdout).unwrap();
    assert!(gate.contains(r#"identity {account_id = \"123456789012\", name = \"old\"}"#), "{gate}");
}

/// Sensitive values equal to public names (an instance key, a module name, a
/// resource type) and to planview's own words (`violations`): addresses,
/// types, JSON keys and colour codes are printed as they are, in every
/// command and format; only values are masked (real plan `public-names`).
#[test]
fn secrets_equal_to_public_names_never_rewrite_addresses_keys_or_syntax() {
    use crate::common::commands::{commands, run_raw};
    let file = "testdata/real/public-names/plan.json";
    let plan: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(root().join(file)).unwrap()).unwrap();
    let addresses: Vec<String> =
        plan["resource_changes"].as_array().unwrap().iter().map(|r| r["address"].as_str().unwrap().to_string()).collect();
    assert!(addresses.contains(&r#"terraform_data.bucket["us-east-1"]"#.to_string()), "{addresses:?}");
    let secret_defaults = ["us-east-1", "violations", "terraform_data"];
    for s in secret_defaults {
        assert!(plan["variables"].as_object().unwrap().values().any(|v| v["value"] == s), "the fixture declares {s} sensitive");
    }
    let mut runs = 0;
    for c in commands() {
        for format in &c.formats {
            for color in ["never", "always"] {
                let mut args = vec![c.name.clone()];
                if !format.is_empty() {
                    args.extend(["--format".into(), format.clone()]);
                }
                if c.options.iter().any(|o| o == "--color") {
                    args.extend(["--color".into(), color.into()]);
                }
                if c.name == "gate" {
                    args.extend(["--deny".into(), "create".into()]);
                }
                args.extend(c.files(&[file]));
                let out = run_raw(&args, &[]);
                runs += 1;
                let text = String::from_utf8_lossy(&out.stdout);
                for broken in [
                    "[\"(sensitive value)\"]",
                    "module.(sensitive value)",
                    "(sensitive value).",
                    "(sensitive value)_data",
                    "\u{1b}(sensitive",
                ] {
                    assert!(!text.contains(broken), "planview {}: {broken}\n{text}", args.join(" "));
                }
                if format == "json" {
                    let v: serde_json::Value =
                        serde_json::from_str(&text).unwrap_or_else(|e| panic!("planview {}: {e}\n{text}", args.join(" ")));
                    if c.name == "gate" {
                        let listed: Vec<&str> =
                            v["files"][0]["violations"].as_array().unwrap().iter().map(|x| x["address"].as_str().unwrap()).collect();
                        assert_eq!(listed.len(), addresses.len(), "{text}");
                        assert!(listed.iter().all(|a| addresses.iter().any(|b| b == a)), "{listed:?}");
                    }
                    if c.name == "summary" {
                        let one = if v.get("files").is_some() { &v["files"][0] } else { &v };
                        let listed: Vec<&str> =
                            one["resources"].as_array().unwrap().iter().map(|x| x["address"].as_str().unwrap()).collect();
                        assert_eq!(listed.len(), addresses.len(), "{text}");
                        assert!(listed.iter().all(|a| addresses.iter().any(|b| b == a)), "{listed:?}");
                    }
                }
                if c.name == "summary" && format == "table" {
                    for a in &addresses {
                        assert!(text.contains(a.as_str()), "{a} missing:\n{text}");
                    }
                }
            }
        }
    }
    assert!(runs > 20);
}

/// `--format gitlab`: GitLab's terraform report, exactly `create`, `update`
/// and `delete` as integers, equal to the CLI's add, change and destroy; over
/// several inputs, their sums.
#[test]
fn gitlab_report_equals_the_cli_plan_line_and_sums_over_inputs() {
    let mut compared = 0;
    let mut sum = [0u64; 3];
    let mut files = Vec::new();
    for plan in &real_plans() {
        let Ok(text) = std::fs::read_to_string(plan.with_file_name("plan-line.txt")) else { continue };
        let Some((t, _)) = parse_plan_line(text.lines().next().unwrap_or("")) else { continue };
        let out = planview(&["summary", "--format", "gitlab", &rel(plan)]);
        assert_eq!(out.status.code(), Some(0), "{}: {}", rel(plan), String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_valid("summary-gitlab.schema.json", &v, &rel(plan));
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["create", "delete", "update"], "{}: exactly the three keys", rel(plan));
        let got = [&v["create"], &v["update"], &v["delete"]].map(|x| x.as_u64().expect("an integer"));
        assert_eq!(got, [t[1], t[2], t[3]], "{}: the CLI said {:?}", rel(plan), text.trim());
        for (s, g) in sum.iter_mut().zip(got) {
            *s += g;
        }
        files.push(rel(plan));
        compared += 1;
    }
    assert!(compared >= 10, "only {compared} fixtures had a Plan: line to compare");
    let mut args = vec!["summary", "--format", "gitlab"];
    args.extend(files.iter().map(String::as_str));
    let out = planview(&args);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid("summary-gitlab.schema.json", &v, "several");
    assert_eq!([&v["create"], &v["update"], &v["delete"]].map(|x| x.as_u64().unwrap()), sum, "the sums over the inputs");
    assert!(sum.iter().any(|n| *n > 0), "the fixtures change something");
}

/// A short secret (under 8 characters: masked as a whole value only) used
/// whole as an import id, a map key and a check message: no command prints it.
#[test]
fn a_short_secret_used_whole_as_an_import_id_a_key_or_a_message_is_never_printed() {
    let file = "testdata/edge/short-secret-copies.json";
    let plan = std::fs::read_to_string(root().join(file)).unwrap();
    assert!(plan.contains(r#""id": "pin42""#) && plan.contains(r#""message": "pin42""#) && plan.contains(r#""pin42": "x""#));
    no_command_prints(&[file], &["pin42"]);
    let out = planview(&["summary", "--show-sensitive", "--format", "json", file]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("pin42"), "masked by meaning, not by accident");
}

#[test]
fn a_replacement_that_forgets_is_counted_as_each_cli_counts_it() {
    // Terraform 1.16 (internal/command/jsonformat/plan.go at hashicorp/terraform
    // 883c7221ee2e): CreateThenForget counts "to add", never "to destroy", and
    // its line has no "to forget".
    let v = summary_value("testdata/edge/create-forget.json");
    assert_eq!(v["plan_line"], "Plan: 2 to add, 0 to change, 0 to destroy.");
    assert_eq!(v["totals"]["add"], 2);
    assert_eq!(v["totals"]["destroy"], 0);
    assert_eq!(v["totals"]["forget"], 1);
    assert_eq!(v["unrecognised"], 0);
    assert_eq!(v["actions"]["create+forget"], 1);
    let keep = v["resources"].as_array().unwrap().iter().find(|r| r["address"] == "terraform_data.keep").unwrap().clone();
    assert_eq!((keep["action"].as_str(), keep["recognised"].as_bool()), (Some("create+forget"), Some(true)));
    let (table, _) = summary_both("table", "testdata/edge/create-forget.json");
    assert!(!table.contains("UNRECOGNISED") && table.contains("+/. replace (create then forget, not destroyed)"), "{table}");
    // OpenTofu (internal/command/jsonformat/plan.go at opentofu/opentofu
    // f831fa1aa4b9): ForgetThenCreate counts "to add" and "to forget"; its
    // line ends ", N to forget." (no applyable/complete keys: OpenTofu's plan).
    let v = summary_value("testdata/edge/tofu-forget.json");
    assert_eq!(v["plan_line"], "Plan: 1 to add, 0 to change, 1 to destroy, 3 to forget.");
    assert_eq!(v["forgotten"], 3);
    let (md, _) = summary_both("markdown", "testdata/edge/tofu-forget.json");
    assert!(md.contains("lifecycle.destroy = false is set in the configuration") && md.contains("enabled is false"), "{md}");
}

#[test]
fn opentofu_configuration_and_state_fields_are_read_and_used() {
    // OpenTofu's variable (type, required, ephemeral, deprecated) and output
    // (ephemeral, deprecated) in the configuration (internal/command/jsonconfig
    // config.go), and `deprecated` on state outputs (internal/command/jsonstate
    // state.go), opentofu/opentofu f831fa1aa4b9; Terraform 1.14's
    // `configuration.root_module.actions` (jsonconfig, 883c7221ee2e).
    let f = "testdata/edge/tofu-config.json";
    let v = summary_value(f);
    let endpoint = v["outputs"].as_array().unwrap().iter().find(|o| o["name"] == "endpoint").unwrap().clone();
    assert_eq!(endpoint["deprecated"], "use endpoints instead");
    for format in ["table", "markdown"] {
        let (out, _) = summary_both(format, f);
        assert!(out.contains("changes (update) and is deprecated: use endpoints instead"), "{format}:\n{out}");
    }
    // An ephemeral variable's value is never printed, even copied into an output.
    for args in [
        &["summary", "--format", "json"][..],
        &["show"][..],
        &["show", "--format", "json"][..],
        &["outputs"][..],
        &["outputs", "--format", "json"][..],
    ] {
        let mut a = args.to_vec();
        a.push(f);
        let out = planview(&a);
        assert_eq!(out.status.code(), Some(0), "{a:?}");
        assert!(!String::from_utf8_lossy(&out.stdout).contains("eph-Tok3n"), "{a:?}: {}", String::from_utf8_lossy(&out.stdout));
    }
    let s = "testdata/edge/tofu-state-deprecated.json";
    let v = summary_value(s);
    assert_eq!(v["outputs"][0]["deprecated"], "use endpoints instead");
    assert!(v["outputs"][1].get("deprecated").is_none(), "absent when none: {v}");
    let out = String::from_utf8_lossy(&planview(&["outputs", s]).stdout).into_owned();
    assert!(out.contains("output endpoint is deprecated: use endpoints instead"), "{out}");
    let o = planview(&["outputs", "--format", "json", s]);
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_valid("outputs.schema.json", &j, s);
}

#[test]
fn a_deferred_change_with_unknown_instance_keys_and_import_id_is_read() {
    // index_unknown (addrs.WildcardKey, address "[*]") and importing.unknown
    // (internal/command/jsonplan/plan.go, marshalResourceChange, at
    // hashicorp/terraform 883c7221ee2e).
    let f = "testdata/edge/deferred-unknown-keys.json";
    let v = summary_value(f);
    let d = &v["deferred_changes"][0];
    assert_eq!((d["index_unknown"].as_bool(), d["import_unknown"].as_bool(), d["index"].is_null()), (Some(true), Some(true), true));
    assert_eq!(v["incomplete"], true);
    let (table, _) = summary_both("table", f);
    assert!(table.contains("instance keys not known yet") && table.contains("import id not known yet"), "{table}");
}
