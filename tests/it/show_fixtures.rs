//! `show` against every real fixture: the resources shown and their actions
//! match the CLI's own rendering in `plan.txt`, JSON output matches its schema,
//! markdown stays within its cap, and no sensitive value is printed.

use crate::common::*;
use std::collections::BTreeSet;

/// One resource as the CLI's text rendering announces it:
/// (address, deposed key, action key, symbol).
type Shown = (String, Option<String>, String, String);

/// The `# ADDRESS will be ...` headers of `terraform show` text, with the
/// symbol on the line that opens the block (`-/+ resource ...`, `<= data ...`).
/// Only the "will perform the following actions" section is read (drift
/// sections use other headers).
fn parse_plan_txt(text: &str) -> BTreeSet<Shown> {
    const PHRASES: &[(&str, &str)] = &[
        (" will be created", "create"),
        (" will be destroyed", "delete"),
        (" will be updated in-place", "update"),
        (" will be read during apply", "read"),
        (" will be imported", "no-op"),
        (" must be replaced", "replace"),
        (" is tainted, so must be replaced", "replace"),
        (" will be replaced, as requested", "replace"),
        (" will be replaced due to changes in replace_triggered_by", "replace"),
        (" will no longer be managed by Terraform, but will not be destroyed", "forget"),
    ];
    let mut out = BTreeSet::new();
    let lines: Vec<&str> = text.lines().collect();
    let Some(start) = lines.iter().position(|l| {
        l.contains("will perform the following actions:") || l.contains("planned the following actions, but then encountered a problem:")
    }) else {
        return out;
    };
    for (i, raw) in lines.iter().enumerate().skip(start + 1) {
        let l = raw.trim_start();
        if l.starts_with("Plan:") || l.starts_with("Changes to Outputs:") {
            break;
        }
        let Some(h) = l.strip_prefix("# ") else { continue };
        if h.starts_with('(') {
            continue;
        }
        let (addr, action) = if let Some((_, to)) = h.split_once(" has moved to ") {
            (to.to_string(), "no-op")
        } else {
            // Longest phrase first: "is tainted, so must be replaced" before "must be replaced".
            let mut phrases = PHRASES.to_vec();
            phrases.sort_by_key(|(p, _)| std::cmp::Reverse(p.len()));
            match phrases.into_iter().find(|(p, _)| h.ends_with(p)) {
                Some((p, a)) => (h[..h.len() - p.len()].to_string(), a),
                None => continue,
            }
        };
        let (addr, deposed) = match addr.split_once(" (deposed object ") {
            Some((a, k)) => (a.to_string(), Some(k.trim_end_matches(')').to_string())),
            None => (addr, None),
        };
        // The symbol: the first following line that is not a comment.
        let opener = lines[i + 1..].iter().map(|x| x.trim_start()).find(|x| !x.starts_with('#')).unwrap_or("");
        let symbol = opener.split_once("resource ").or_else(|| opener.split_once("data ")).map(|(s, _)| s.trim()).unwrap_or("");
        out.insert((addr, deposed, action.to_string(), symbol.to_string()));
    }
    out
}

#[test]
fn plan_txt_parser_reads_every_header_form() {
    let text = "Terraform will perform the following actions:\n\n  # a.b will be created\n  + resource \"a\" \"b\" {\n\
        \n  # a.c (deposed object 1234abcd) will be destroyed\n  # (left over)\n  - resource \"a\" \"c\" {\n\
        \n  # a.d[0] has moved to a.d[\"x\"]\n    resource \"a\" \"d\" {\n\
        \n  # a.e is tainted, so must be replaced\n+/- resource \"a\" \"e\" {\n\
        \n  # data.x.y will be read during apply\n  # (config refers to values not yet known)\n <= data \"x\" \"y\" {\n\
        \n # a.f will no longer be managed by Terraform, but will not be destroyed\n . resource \"a\" \"f\" {\n\
        \nTerraform planned the following actions, but then encountered a problem:\n  # a.g will be created\n  + resource \"a\" \"g\" {\n\
        \nPlan: 1 to add, 0 to change, 1 to destroy.\n  # a.z will be created\n";
    let got = parse_plan_txt(text);
    let want: BTreeSet<Shown> = [
        ("a.b", None, "create", "+"),
        ("a.c", Some("1234abcd"), "delete", "-"),
        ("a.d[\"x\"]", None, "no-op", ""),
        ("a.e", None, "replace", "+/-"),
        ("a.g", None, "create", "+"),
        ("data.x.y", None, "read", "<="),
        ("a.f", None, "forget", "."),
    ]
    .into_iter()
    .map(|(a, d, x, s)| (a.to_string(), d.map(str::to_string), x.to_string(), s.to_string()))
    .collect();
    assert_eq!(got, want);
}

fn json_of(args: &[&str]) -> serde_json::Value {
    let out = planview(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

fn shown_by_planview(v: &serde_json::Value) -> BTreeSet<Shown> {
    v["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["address"].as_str().unwrap().to_string(),
                r["deposed"].as_str().map(str::to_string),
                r["action"].as_str().unwrap().to_string(),
                r["symbol"].as_str().unwrap().trim().to_string(),
            )
        })
        .collect()
}

#[test]
fn show_lists_the_resources_and_actions_the_cli_rendered_on_every_real_fixture() {
    let plans = real_plans();
    assert!(plans.len() >= 10, "expected the real fixtures in testdata/real, found {}", plans.len());
    let mut compared = 0;
    let mut headers = 0;
    for plan in &plans {
        let Ok(text) = std::fs::read_to_string(plan.with_file_name("plan.txt")) else { continue };
        let want = parse_plan_txt(&text);
        let got = shown_by_planview(&json_of(&["show", "--format", "json", &rel(plan)]));
        assert_eq!(got, want, "{}: planview show differs from the CLI's plan.txt", rel(plan));
        // The terminal text has a header per resource, symbol first.
        let out = planview(&["show", &rel(plan)]);
        let table = String::from_utf8_lossy(&out.stdout);
        for (addr, deposed, _, sym) in &want {
            let head = match deposed {
                Some(k) => format!("{addr} (deposed object {k}):"),
                None => format!("{addr}:"),
            };
            let expected = if sym.is_empty() { format!("  {head}") } else { format!("{sym} {head}") };
            assert!(table.lines().any(|l| l.starts_with(&expected)), "{}: no header `{expected}` in:\n{table}", rel(plan));
        }
        headers += want.len();
        compared += 1;
    }
    assert!(compared >= 10, "only {compared} fixtures had a plan.txt");
    assert!(headers >= 50, "only {headers} CLI headers compared");
}

#[test]
fn show_json_matches_schema_for_every_fixture_and_option() {
    for plan in real_plans() {
        for extra in [&[][..], &["--all"][..], &["--full", "--all"][..], &["--show-sensitive"][..]] {
            let mut args = vec!["show", "--format", "json"];
            args.extend_from_slice(extra);
            let p = rel(&plan);
            args.push(&p);
            let v = json_of(&args);
            assert_valid("show.schema.json", &v, &format!("{args:?}"));
        }
    }
    // Several files, one unreadable: {files: [...]} with an error object, exit 2.
    let out = planview(&["show", "--format", "json", "testdata/real/basic/plan.json", "testdata/edge/format-2.0.json"]);
    assert_eq!(out.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid("show.schema.json", &v, "multi-file");
    assert_eq!(v["files"].as_array().unwrap().len(), 2);
}

#[test]
fn no_sensitive_value_is_printed_in_any_format_unless_asked() {
    let mut plans = real_plans();
    assert!(plans.iter().any(|p| rel(p).contains("sensitive")), "the sensitive fixture is missing");
    // The hand-written plan has secrets in nested, replaced and output values.
    plans.push(root().join("testdata/edge/show-kinds.json"));
    for plan in &plans {
        for format in ["table", "json", "markdown"] {
            for extra in [&[][..], &["--all", "--full"][..]] {
                let p = rel(plan);
                let mut args = vec!["show", "--format", format, "--color", "always"];
                args.extend_from_slice(extra);
                args.push(&p);
                let out = planview(&args);
                let all = [out.stdout.as_slice(), out.stderr.as_slice()].concat();
                let text = String::from_utf8_lossy(&all);
                assert!(!text.contains("SECRET-MARKER"), "{args:?} leaked a secret:\n{text}");
            }
        }
    }
    // The check above can see a leak: with --show-sensitive the values appear.
    for p in ["testdata/real/sensitive/plan.json", "testdata/edge/show-kinds.json"] {
        let out = planview(&["show", "--show-sensitive", p]);
        assert!(String::from_utf8_lossy(&out.stdout).contains("SECRET-MARKER"), "{p}");
    }
}

#[test]
fn terraform_data_output_copying_a_sensitive_input_is_masked() {
    // `rotating.output` is unmarked in the plan but holds the old sensitive input.
    let v = json_of(&["show", "--format", "json", "--address", "terraform_data.rotating", "testdata/real/sensitive/plan.json"]);
    let changes = v["resources"][0]["changes"].as_array().unwrap();
    let output = changes.iter().find(|c| c["path_text"] == "output").expect("output change");
    assert_eq!(output["before"]["state"], "sensitive");
    assert_eq!(output["after"]["state"], "unknown");
    let input = changes.iter().find(|c| c["path_text"] == "input").expect("input change");
    assert_eq!(input["before"]["state"], "sensitive");
    assert_eq!(input["after"]["state"], "sensitive");
}

#[test]
fn markdown_stays_within_max_bytes_and_says_what_was_left_out() {
    // Every real plan but heredoc-context (its 300-line script, shown whole
    // twice as the CLI shows it, is half the default cap) and unknown-blocks
    // (a replaced aws_instance): together they pass the default cap.
    let big = ["heredoc-context", "unknown-blocks"];
    let plans: Vec<String> = real_plans().iter().map(|p| rel(p)).filter(|p| !big.iter().any(|b| p.contains(b))).collect();
    let mut args = vec!["show", "--format", "markdown", "--all", "--full"];
    args.extend(plans.iter().map(String::as_str));
    let full = planview(&args);
    assert_eq!(full.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&full.stdout).contains("left out."), "the default cap should fit every fixture");
    for cap in [2_000usize, 6_000, 20_000] {
        let cap_s = cap.to_string();
        let mut a = args.clone();
        a.extend(["--max-bytes", &cap_s]);
        let out = planview(&a);
        assert_eq!(out.status.code(), Some(0));
        assert!(out.stdout.len() <= cap, "cap {cap}: {} bytes", out.stdout.len());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(&format!("Trimmed to fit {cap} bytes")), "cap {cap}: no trim note:\n{text}");
        assert!(text.matches("```").count() % 2 == 0, "cap {cap}: an unclosed code block");
    }
}

#[test]
fn show_on_a_state_is_an_input_error() {
    let out = planview(&["show", "testdata/real/sensitive/state.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("state, not a plan"));
}

#[test]
fn colour_only_when_asked_and_symbols_carry_the_meaning_without_it() {
    let coloured = planview(&["show", "--color", "always", "testdata/real/replace/plan.json"]);
    let plain = planview(&["show", "--color", "never", "testdata/real/replace/plan.json"]);
    let c = String::from_utf8_lossy(&coloured.stdout);
    let p = String::from_utf8_lossy(&plain.stdout);
    assert!(c.contains("\x1b["), "no colour with --color always");
    assert!(!p.contains('\x1b'), "colour with --color never");
    assert!(p.lines().any(|l| l.starts_with("-/+ terraform_data.")) && p.lines().any(|l| l.starts_with("+/- terraform_data.")));
    // JSON and markdown are never coloured.
    for f in ["json", "markdown"] {
        let out = planview(&["show", "--color", "always", "--format", f, "testdata/real/replace/plan.json"]);
        assert!(!String::from_utf8_lossy(&out.stdout).contains('\x1b'), "{f} coloured");
    }
}

/// `show --format table` of one resource of a plan.
fn show_text(plan: &str, address: &str, extra: &[&str]) -> String {
    let mut args = vec!["show", "--color", "never", "--address", address];
    args.extend_from_slice(extra);
    args.push(plan);
    let out = planview(&args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The JSON changes of one resource.
fn show_changes(plan: &str, address: &str) -> Vec<serde_json::Value> {
    let v = json_of(&["show", "--format", "json", "--address", address, plan]);
    v["resources"][0]["changes"].as_array().cloned().unwrap_or_default()
}

const SG_NEAR: &str = "testdata/real-aws/sg-iam-near/plan.json";
const SG: &str = "testdata/real-aws/sg-iam/plan.json";

#[test]
fn security_group_rules_are_aligned_by_content_not_position() {
    // Real aws provider plan: rule 22 removed, rule 80 added, rule 443 kept with
    // its description edited. Pairing by position printed 443 -> 80 and 22 -> 443.
    for format in [&["--format", "table"][..], &["--format", "markdown"][..]] {
        let text = show_text(SG_NEAR, "aws_security_group.web", format);
        for never in ["443 -> 80", "22 -> 443", "22 -> 80", "\"ssh\" -> ", "\"HTTPS\" -> \"http\""] {
            assert!(!text.contains(never), "{format:?} shows `{never}`:\n{text}");
        }
        let edit = text.lines().any(|l| l.contains("description ") && l.trim_end().ends_with("= \"HTTPS\" -> \"https\""));
        assert!(edit, "{format:?}: rule 443 is an in-place edit:\n{text}");
        // Table: `- from_port = 22` indented; markdown: the symbol in the first column.
        let line = |sym: char, port: &str| {
            text.lines().any(|l| l.trim_start().starts_with(sym) && l.contains("from_port") && l.trim_end().ends_with(&format!("= {port}")))
        };
        let (removed, added) = (line('-', "22"), line('+', "80"));
        assert!(removed && added, "{format:?}: rule 22 removed and rule 80 added:\n{text}");
    }
    // JSON: the changed paths say the same.
    let changes = show_changes(SG_NEAR, "aws_security_group.web");
    let at = |op: &str, suffix: &str, v: &str| {
        changes.iter().any(|c| {
            c["op"] == op
                && c["path_text"].as_str().unwrap().ends_with(suffix)
                && c["before"]["value"] == serde_json::from_str::<serde_json::Value>(v).unwrap()
        })
    };
    assert!(at("remove", ".from_port", "22"), "{changes:?}");
    assert!(at("update", ".description", "\"HTTPS\""), "{changes:?}");
    assert!(!changes.iter().any(|c| c["op"] == "update" && c["path_text"].as_str().unwrap().ends_with("port")), "{changes:?}");
    // The CLI's own rendering of the same plan never pairs them either.
    let cli = std::fs::read_to_string("testdata/real-aws/sg-iam-near/plan.txt").unwrap();
    assert!(!cli.contains("443 -> 80") && !cli.contains("22 -> 443"));
    // Rule 443 left exactly as it was: unchanged, hidden.
    let text = show_text(SG, "aws_security_group.web", &[]);
    assert!(text.contains("# (1 unchanged element hidden)"), "{text}");
    assert!(!text.contains("= 443"), "rule 443 is unchanged:\n{text}");
}

#[test]
fn iam_policy_lists_are_paired_as_the_cli_pairs_them() {
    // Inside a JSON string every array is a list: the CLI pairs its elements by
    // position when nothing is only reordered, else along the common elements,
    // with one unchanged element of context each side of a change.
    let text = show_text(SG, "aws_iam_policy.reader", &[]);
    let cli = std::fs::read_to_string("testdata/real-aws/sg-iam/plan.txt").unwrap();
    for line in ["- \"s3:GetObject\",", "\"s3:ListBucket\",", "+ \"s3:GetObject\",", "+ \"s3:PutObject\","] {
        assert!(text.contains(line), "no `{line}`:\n{text}");
        assert!(cli.contains(line), "the CLI prints `{line}`");
    }
    // Statements swapped and one edited: paired by position, as the CLI does.
    let text = show_text(SG_NEAR, "aws_iam_policy.reader", &[]);
    assert!(text.contains("~ Sid      = \"Objects\" -> \"Describe\""), "{text}");
    // A list becoming a string: the list expanded, then the string.
    assert!(text.contains("] -> \"*\""), "{text}");
    assert!(text.contains("~ Resource = \"*\" -> ["), "{text}");
    let changes = show_changes(SG_NEAR, "aws_iam_policy.reader");
    assert_eq!(changes.len(), 1, "the policy string is one change: {changes:?}");
}

#[test]
fn a_change_of_sensitivity_alone_is_shown_like_the_cli_shows_it() {
    let plan = "testdata/real/sensitivity-only/plan.json";
    let cli = std::fs::read_to_string("testdata/real/sensitivity-only/plan.txt").unwrap();
    for (addr, attr, line) in [
        ("terraform_data.becomes_sensitive", "input", "# display in UI output after applying this change. The value is unchanged."),
        ("terraform_data.stops_sensitive", "input", "# after applying this change. The value is unchanged."),
        ("terraform_data.nested", "password", "# display in UI output after applying this change. The value is unchanged."),
    ] {
        let text = show_text(plan, addr, &[]);
        assert!(text.contains(&format!("~ {attr}")) && text.contains("(sensitive value)"), "{addr}:\n{text}");
        assert!(text.contains(line), "{addr}: no `{line}`:\n{text}");
        assert!(cli.contains(line), "the CLI prints `{line}`");
        assert!(!text.contains("SECRET-MARKER") && !text.contains("was-secret-now-plain"), "{addr} printed a value:\n{text}");
        let md = show_text(plan, addr, &["--format", "markdown"]);
        assert!(md.contains(line) && !md.contains("SECRET-MARKER"), "{addr} markdown:\n{md}");
        let changes = show_changes(plan, addr);
        assert_eq!(changes.len(), 1, "{addr}: {changes:?}");
        let want = if addr.contains("stops") { "unmarked" } else { "marked" };
        assert_eq!(changes[0]["sensitivity"], want, "{addr}");
        assert_eq!(changes[0]["op"], "update");
        assert_eq!(changes[0]["before"]["state"], "sensitive");
        assert_eq!(changes[0]["after"]["state"], "sensitive");
    }
}

#[test]
fn a_final_newline_added_or_removed_is_shown() {
    let plan = "testdata/real/trailing-newline/plan.json";
    for (addr, want) in [
        ("terraform_data.drops_newline", "- # (newline at the end of the text removed)"),
        ("terraform_data.adds_newline", "+ # (newline at the end of the text added)"),
        ("terraform_data.nested", "- # (newline at the end of the text removed)"),
    ] {
        let text = show_text(plan, addr, &[]);
        assert!(text.contains(want), "{addr}: no `{want}`:\n{text}");
        let md = show_text(plan, addr, &["--format", "markdown"]);
        assert!(md.contains("(newline at the end of the text"), "{addr} markdown:\n{md}");
    }
    // JSON carries both whole strings, which differ.
    let changes = show_changes(plan, "terraform_data.drops_newline");
    let input = changes.iter().find(|c| c["path_text"] == "input").expect("input change");
    assert_eq!(input["before"]["value"], "line one\nline two\n");
    assert_eq!(input["after"]["value"], "line one\nline two");
}

#[test]
fn lifecycle_actions_are_shown_in_their_resources_block_as_the_cli_shows_them() {
    // Terraform's human renderer (internal/command/jsonformat/plan.go,
    // renderHumanDiff and renderActionInvocation, hashicorp/terraform
    // 883c7221ee2e; expected text in plan_test.go "before and after actions").
    let f = "testdata/edge/action-invocations.json";
    let text = show_text(f, "terraform_data.app", &[]);
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let at = |s: &str| lines.iter().position(|l| *l == s).unwrap_or_else(|| panic!("{s:?} not in:\n{text}"));
    let before = at("# Actions to be invoked before this change in order:");
    let after = at("# Actions to be invoked after this change in order:");
    assert!(before < at("# action.aws_lambda_invoke.notify") && at("# action.aws_lambda_invoke.notify") < after, "{text}");
    assert!(after < at("# action.aws_lambda_invoke.warm"), "{text}");
    assert!(text.contains("action \"aws_lambda_invoke\" \"warm\" {") && text.contains("config {"), "{text}");
    assert!(text.contains("payload       = (known after apply)"), "config_unknown: {text}");
    assert!(text.contains("qualifier     = (sensitive value)") && !text.contains("hunter2"), "config_sensitive: {text}");
    assert!(!text.contains("+ function_name"), "the CLI hides diff symbols in an action's config: {text}");
    for format in ["markdown", "json"] {
        let out = planview(&["show", "--format", format, f]);
        let out = String::from_utf8_lossy(&out.stdout);
        assert!(!out.contains("hunter2"), "{format}: {out}");
    }
    let v = json_of(&["show", "--format", "json", f]);
    assert_valid("show.schema.json", &v, f);
    let a = &v["action_invocations"];
    assert_eq!((a[0]["trigger"].as_str(), a[0]["event"].as_str()), (Some("before"), Some("BeforeUpdate")));
    assert_eq!((a[1]["trigger"].as_str(), a[1]["on_failure"].as_str()), (Some("after"), Some("ActionOnFailureContinue")));
    let shown = planview(&["show", "--show-sensitive", f]);
    assert!(String::from_utf8_lossy(&shown.stdout).contains("\"hunter2-token\""), "--show-sensitive shows it");
}

#[test]
fn an_invoked_action_is_listed_after_the_resources_with_the_resource_it_was_called_from() {
    // renderHumanActionInvocations (internal/command/jsonformat/plan.go at 883c7221ee2e).
    let f = "testdata/edge/action-invoke.json";
    let out = planview(&["show", "--color", "never", f]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Terraform will invoke the following action(s):"), "{text}");
    assert!(text.contains("# action.aws_lambda_invoke.notify will be invoked (called from aws_instance.web[0])"), "{text}");
    assert!(!text.contains("No changes."), "{text}");
    let v = json_of(&["show", "--format", "json", f]);
    assert_valid("show.schema.json", &v, f);
    assert_eq!(v["action_invocations"][0]["calling_resource_address"], "aws_instance.web[0]");
    let md = String::from_utf8_lossy(&planview(&["show", "--format", "markdown", f]).stdout).into_owned();
    assert!(md.contains("#### Terraform will invoke the following action(s)") && md.contains("(called from aws_instance.web[0])"), "{md}");
}

#[test]
fn a_replacement_that_forgets_the_old_object_is_worded_as_each_cli_words_it() {
    // Terraform 1.16 ["create","forget"] (plans.CreateThenForget,
    // internal/command/jsonformat/plan.go at 883c7221ee2e: symbol "+/.", "must
    // be replaced, but the existing object will not be destroyed"); OpenTofu's
    // ["forget","create"] (internal/command/jsonformat/plan.go at
    // opentofu/opentofu f831fa1aa4b9: symbol "./+").
    let t = show_text("testdata/edge/create-forget.json", "terraform_data.keep", &[]);
    assert!(t.starts_with("+/. terraform_data.keep: must be replaced, but the existing object will not be destroyed"), "{t}");
    assert!(t.contains("destroy = false is set in the configuration"), "{t}");
    let o = show_text("testdata/edge/tofu-forget.json", "terraform_data.tainted", &[]);
    assert!(
        o.starts_with("./+ terraform_data.tainted: must be replaced, older instance will not be destroyed (lifecycle.destroy = false)"),
        "{o}"
    );
    let g = show_text("testdata/edge/tofu-forget.json", "terraform_data.gone", &[]);
    assert!(g.contains("because: lifecycle.destroy = false was configured before this resource was removed from the configuration"), "{g}");
    let e = show_text("testdata/edge/tofu-forget.json", "terraform_data.off", &[]);
    assert!(e.contains("because: enabled is false"), "{e}");
    for f in ["testdata/edge/create-forget.json", "testdata/edge/tofu-forget.json"] {
        let v = json_of(&["show", "--format", "json", f]);
        assert_valid("show.schema.json", &v, f);
        assert!(v["resources"].as_array().unwrap().iter().all(|r| r["action"] != "unknown"), "{v}");
    }
}
