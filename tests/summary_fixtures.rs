//! `summary` against every real fixture: totals equal the CLI's own `Plan:`
//! line, JSON output matches its schema, and no sensitive value is printed.

mod common;
use common::*;

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
    use common::commands::{commands, run_raw};
    let files = ["testdata/real/secret-forms/plan.json", "testdata/real/secret-forms/state.json"];
    // The fixture holds what the test is about (else it proves nothing).
    let plan = std::fs::read_to_string(root().join(files[0])).unwrap();
    assert!(plan.contains(r#"S3cret\\u0026Pass\\u003cword\\u003e!"#) && plan.contains("987654321"));
    let mut runs = 0;
    for c in commands() {
        for format in &c.formats {
            for file in files {
                let mut args = vec![c.name.clone()];
                if !format.is_empty() {
                    args.extend(["--format".into(), format.clone()]);
                }
                args.extend(c.options.iter().filter(|o| ["--all", "--full", "--prior"].contains(&o.as_str())).cloned());
                args.push(file.into());
                let out = run_raw(&args, &[]);
                runs += 1;
                let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
                for form in ["S3cret", "Pass<word", r"Pass\u003c", "987654321"] {
                    assert!(!text.contains(form), "planview {} prints {form}:\n{text}", args.join(" "));
                }
            }
        }
    }
    assert!(runs > 20);
    // With --show-sensitive the copies are shown: the masking above is by value, not by accident.
    let out = run_raw(&["outputs".into(), "--show-sensitive".into(), files[1].into()], &[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("987654321") && text.contains(r"S3cret\\u0026Pass"), "{text}");
}
