//! `show --schemas FILE`: what only the provider schema tells, held to real
//! plans made with the hashicorp/aws provider (`testdata/real-aws/`, each with
//! the CLI's own `plan.txt` and the schemas cut to the types it uses): nested
//! blocks, blocks known only after apply, sets compared as sets, maps,
//! write-only attributes, the legacy SDK's `""` read as null and the CLI's
//! hidden counts; masking inside nested blocks; the warning without schemas;
//! a wrong file given as schemas; the schemas fetched for a saved plan; the
//! PR comment's diffs with them (`comment --schemas`).

use crate::common::*;
use serde_json::Value;

const BLOCKS: &str = "testdata/real-aws/blocks/plan.json";
const BLOCKS_SCHEMAS: &str = "testdata/real-aws/blocks/schemas.json";

/// A fresh scratch directory of this test run.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("planview-schemas-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn show(args: &[&str]) -> (String, String, Option<i32>) {
    let mut all = vec!["show", "--color", "never", "--width", "0"];
    all.extend_from_slice(args);
    let out = planview(&all);
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned(), out.status.code())
}

/// Each of `lines` is in planview's output and in the CLI's `plan.txt`, in that order.
fn in_both(text: &str, cli: &str, lines: &[&str]) {
    let (mut at_pv, mut at_cli) = (0, 0);
    for l in lines {
        let p = text[at_pv..].find(l).unwrap_or_else(|| panic!("planview shows no `{l}` (in order):\n{text}"));
        at_pv += p + l.len();
        let c = cli[at_cli..].find(l).unwrap_or_else(|| panic!("the CLI shows no `{l}` (in order)"));
        at_cli += c + l.len();
    }
}

#[test]
fn nested_blocks_sets_and_write_only_read_like_the_cli() {
    let cli = std::fs::read_to_string("testdata/real-aws/blocks/plan.txt").unwrap();
    let (text, stderr, code) = show(&[BLOCKS, "--schemas", BLOCKS_SCHEMAS]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("no provider schema"), "every type has its schema: {stderr}");
    // A list block updated in place, the unchanged ones counted; a map's keys quoted.
    in_both(
        &text,
        &cli,
        &[
            "  ~ tags                         = {",
            "        \"Name\" = \"app\"",
            "      + \"Team\" = \"platform\"",
            "    # (23 unchanged attributes hidden)",
            "\n\n",
            "  ~ metadata_options {",
            "      ~ http_tokens                 = \"optional\" -> \"required\"",
            "        # (4 unchanged attributes hidden)",
            "  ~ root_block_device {",
            "        tags                  = {}",
            "      ~ volume_size           = 10 -> 20",
            "        # (9 unchanged attributes hidden)",
            "    # (4 unchanged blocks hidden)",
        ],
    );
    // A create: blocks known only after apply, blocks of a set, no `""` shown.
    in_both(
        &text,
        &cli,
        &[
            "  + capacity_reservation_specification (known after apply)",
            "  + ebs_block_device {",
            "      + device_name           = \"/dev/sdb\"",
            "  + root_block_device {",
            "      + volume_size           = 20",
        ],
    );
    // A set of objects: the changed element removed and added whole, never paired.
    in_both(
        &text,
        &cli,
        &[
            "  ~ ingress                = [",
            "      - {",
            "          - cidr_blocks      = [",
            "              - \"10.1.0.0/16\",",
            "      + {",
            "              + \"10.2.0.0/16\",",
            "        # (1 unchanged element hidden)",
        ],
    );
    // Write-only: shown on a create, an unchanged attribute in an update; a
    // sensitive value known only after apply is sensitive first.
    in_both(&text, &cli, &["  ~ value_wo_version = 1 -> 2", "    # (9 unchanged attributes hidden)"]);
    in_both(&text, &cli, &["  + value            = (sensitive value)", "  + value_wo         = (write-only attribute)"]);
    let rotated = text.split("aws_ssm_parameter.rotated").nth(1).unwrap().split("\n\n").next().unwrap();
    let shown = |l: &str| l.trim_start_matches([' ', '+', '~', '-']).starts_with("value_wo ");
    assert!(!rotated.lines().any(shown), "an update's write-only attribute is counted, not shown:\n{rotated}");
}

#[test]
fn without_schemas_a_warning_says_so_once() {
    let (_, stderr, code) = show(&[BLOCKS, BLOCKS]);
    assert_eq!(code, Some(0));
    assert_eq!(stderr.matches("no provider schema for").count(), 1, "{stderr}");
    assert!(stderr.contains("aws_instance, aws_security_group, aws_ssm_parameter"), "{stderr}");
    assert!(stderr.contains("nested blocks and sets are shown as JSON values"), "{stderr}");
    // terraform_data's schema is built in: nothing to say.
    let (_, stderr, _) = show(&["testdata/real/show-classes/plan.json"]);
    assert!(stderr.is_empty(), "{stderr}");
    // Schemas without the types a plan uses: still said.
    let (_, stderr, _) = show(&[BLOCKS, "--schemas", "testdata/real-aws/sg-iam/schemas.json"]);
    assert!(stderr.contains("no provider schema for aws_instance, aws_ssm_parameter:"), "{stderr}");
}

#[test]
fn without_schemas_what_the_plan_itself_tells_still_reads_like_the_cli() {
    // The plan marks `value` sensitive (known only after apply): the CLI's
    // `(sensitive value)`, schema or not. `value_wo` (null, beside its
    // `value_wo_version`) is write-only by the providers' name: shown on a
    // create, counted on an update, as the CLI does with the schema.
    let cli = std::fs::read_to_string("testdata/real-aws/blocks/plan.txt").unwrap();
    let (text, _, code) = show(&[BLOCKS, "--address", "aws_ssm_parameter.token"]);
    assert_eq!(code, Some(0));
    for line in ["+ value            = (sensitive value)", "+ value_wo         = (write-only attribute)"] {
        assert!(cli.contains(line), "the CLI shows no `{line}`");
        assert!(text.contains(line), "planview shows no `{line}`:\n{text}");
    }
    let (text, _, _) = show(&[BLOCKS, "--address", "aws_ssm_parameter.rotated"]);
    let key = |l: &str| l.trim_start().trim_start_matches(['+', '-', '~', ' ']).split(' ').next().unwrap_or("").to_string();
    assert!(!text.lines().any(|l| key(l) == "value_wo"), "{text}");
    assert!(text.contains("# (9 unchanged attributes hidden)") && cli.contains("# (9 unchanged attributes hidden)"), "{text}");
}

#[test]
fn a_plan_or_a_missing_file_is_refused_as_schemas() {
    let (out, stderr, code) = show(&[BLOCKS, "--schemas", BLOCKS]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(out.is_empty());
    assert!(stderr.contains("is not provider schemas") && stderr.contains("providers schema -json"), "{stderr}");
    let (_, stderr, code) = show(&[BLOCKS, "--schemas", "testdata/real-aws/blocks/no-such.json"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("cannot read it"), "{stderr}");
}

/// The blocks plan with `edit` applied to `aws_instance.app`'s change, and the schemas with `edit_schema`.
fn edited(dir: &std::path::Path, edit: impl Fn(&mut Value), edit_schema: impl Fn(&mut Value)) -> (String, String) {
    let mut plan: Value = serde_json::from_str(&std::fs::read_to_string(BLOCKS).unwrap()).unwrap();
    for rc in plan["resource_changes"].as_array_mut().unwrap() {
        if rc["address"] == "aws_instance.app" {
            edit(&mut rc["change"]);
        }
    }
    let mut schemas: Value = serde_json::from_str(&std::fs::read_to_string(BLOCKS_SCHEMAS).unwrap()).unwrap();
    edit_schema(&mut schemas["provider_schemas"]["registry.terraform.io/hashicorp/aws"]["resource_schemas"]["aws_instance"]["block"]);
    let (p, s) = (dir.join("plan.json"), dir.join("schemas.json"));
    std::fs::write(&p, plan.to_string()).unwrap();
    std::fs::write(&s, schemas.to_string()).unwrap();
    (p.display().to_string(), s.display().to_string())
}

#[test]
fn secrets_stay_masked_inside_nested_blocks() {
    let dir = scratch("masked");
    // Marked in the plan: a nested block's attribute, and a whole nested block.
    let (plan, schemas) = edited(
        &dir,
        |c| {
            for side in ["before_sensitive", "after_sensitive"] {
                c[side]["root_block_device"] = serde_json::json!([{ "volume_size": true }]);
                c[side]["metadata_options"] = Value::Bool(true);
            }
        },
        |_| {},
    );
    let (text, _, code) = show(&[&plan, "--schemas", &schemas]);
    assert_eq!(code, Some(0));
    let app = text.split("aws_instance.new").next().unwrap();
    assert!(app.contains("~ volume_size           = (sensitive value)"), "{app}");
    assert!(!app.contains("10 -> 20"), "{app}");
    assert!(app.contains("# At least one attribute in this block is (or was) sensitive,"), "{app}");
    assert!(!text.contains("\"optional\"") && !text.contains("\"required\""), "{text}");
    // Sensitive in the schema only: masked as the CLI masks it.
    let (plan, schemas) = edited(
        &dir,
        |_| {},
        |b| b["block_types"]["metadata_options"]["block"]["attributes"]["http_tokens"]["sensitive"] = Value::Bool(true),
    );
    let (text, _, code) = show(&[&plan, "--schemas", &schemas]);
    assert_eq!(code, Some(0));
    assert!(text.contains("~ http_tokens                 = (sensitive value)"), "{text}");
    assert!(!text.contains("\"optional\""), "{text}");
    // And in JSON.
    let out = planview(&["show", "--format", "json", &plan, "--schemas", &schemas]);
    let json = String::from_utf8_lossy(&out.stdout);
    assert!(json.contains("http_tokens") && !json.contains("\"optional\""), "{json}");
}

#[test]
fn json_markdown_and_html_share_the_schema_diff() {
    let out = planview(&["show", "--format", "json", BLOCKS, "--schemas", BLOCKS_SCHEMAS]);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    let app = json["resources"].as_array().unwrap().iter().find(|r| r["address"] == "aws_instance.app").unwrap();
    let paths: Vec<String> =
        app["changes"].as_array().unwrap().iter().map(|c| c["path_text"].as_str().unwrap_or_default().to_string()).collect();
    assert!(paths.iter().any(|p| p == "root_block_device[0].volume_size"), "{paths:?}");
    assert!(paths.iter().any(|p| p == "metadata_options[0].http_tokens"), "{paths:?}");
    let md = String::from_utf8_lossy(&planview(&["show", "--format", "markdown", BLOCKS, "--schemas", BLOCKS_SCHEMAS]).stdout).into_owned();
    assert!(md.contains("\n! root_block_device {\n      tags                  = {}\n!     volume_size           = 10 -> 20\n"), "{md}");
    let html = String::from_utf8_lossy(&planview(&["show", "--format", "html", BLOCKS, "--schemas", BLOCKS_SCHEMAS]).stdout).into_owned();
    assert!(html.contains("root_block_device {"), "{html}");
}

#[test]
fn the_comment_shows_each_diff_with_the_schemas() {
    let body = |extra: &[&str]| {
        let mut args = vec!["comment", "--no-locations", BLOCKS];
        args.extend_from_slice(extra);
        let out = planview(&args);
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (with, stderr) = body(&["--schemas", BLOCKS_SCHEMAS]);
    assert!(with.contains("root_block_device {") && with.contains("volume_size           = 10 -> 20"), "{stderr}\n{with}");
    assert!(!stderr.contains("no provider schema"), "{stderr}");
    // Without them the same change is a JSON value: the nested block is not
    // shown as one, and the run says so once, as `show` does.
    let (without, stderr) = body(&[]);
    assert!(!without.contains("root_block_device {"), "{without}");
    assert_eq!(stderr.matches("no provider schema for").count(), 1, "{stderr}");
    assert!(stderr.contains("comment: no provider schema for aws_instance, aws_security_group, aws_ssm_parameter:"), "{stderr}");
    // A wrong file is refused as for `show`.
    let out = planview(&["comment", BLOCKS, "--schemas", BLOCKS]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not provider schemas"));
}

#[test]
#[ignore = "needs terraform and the hashicorp/aws provider in a filesystem mirror (TF_PLUGIN_MIRROR, default /opt/tf-plugins): run by .ci/run, named as not run there without them"]
fn a_saved_plan_in_chdir_has_its_schemas_fetched() {
    let mirror = std::env::var("TF_PLUGIN_MIRROR").unwrap_or_else(|_| "/opt/tf-plugins".into());
    let dir = scratch("fetched");
    let work = dir.join("work");
    std::fs::create_dir(&work).unwrap();
    for f in ["main.tf", "terraform.tfstate"] {
        std::fs::copy(root().join("testdata/real-aws/blocks").join(f), work.join(f)).unwrap();
    }
    let rc = dir.join("terraformrc");
    std::fs::write(
        &rc,
        format!("provider_installation {{\n  filesystem_mirror {{\n    path = \"{mirror}\"\n    include = [\"registry.terraform.io/hashicorp/aws\"]\n  }}\n}}\n"),
    )
    .unwrap();
    let tf = |args: &[&str]| {
        let out = std::process::Command::new("terraform")
            .args(args)
            .current_dir(&work)
            .env("TF_CLI_CONFIG_FILE", &rc)
            .env("CHECKPOINT_DISABLE", "1")
            .env("TF_IN_AUTOMATION", "1")
            .output()
            .expect("terraform on PATH");
        assert!(out.status.success(), "terraform {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    tf(&["init", "-no-color", "-input=false"]);
    tf(&["plan", "-no-color", "-input=false", "-refresh=false", "-lock=false", "-out=plan.out"]);
    let plan = work.join("plan.out").display().to_string();
    let workdir = work.display().to_string();
    // Locations off: the committed plan is shown from the repository root, where no configuration is.
    let (fetched, stderr, code) = show(&[&plan, "--chdir", &workdir, "--no-locations"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(!stderr.contains("no provider schema"), "the schemas were fetched: {stderr}");
    let (given, _, _) = show(&[BLOCKS, "--schemas", BLOCKS_SCHEMAS]);
    assert_eq!(fetched, given, "fetched schemas show the plan as the committed ones do");
}
