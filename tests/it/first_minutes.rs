//! The first five minutes (issue 26, part 2), on the real plans of
//! `testdata/first/` (made by its `make.sh` with terraform 1.11, README's own
//! recipe in each root): one directory is one root, the apply-time check on a
//! reviewed plan that deletes, the two likeliest wrong inputs, narrow
//! terminals, error objects, `--help`'s order, and README's recipes run as written.

use crate::common::{planview, root};
use serde_json::Value;
use std::process::{Command, Output};

const LIVE: &str = "testdata/first/live";

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// planview with `envs` set (a binary that must not be run, a width).
fn planview_env(args: &[&str], envs: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_planview"));
    cmd.args(args).current_dir(root()).env_remove("CI").env_remove("GITHUB_STEP_SUMMARY").env_remove("GITHUB_OUTPUT");
    for (k, v) in envs {
        cmd.env(k, v);
    }
    cmd.output().expect("run planview")
}

/// A binary that fails if run: a saved plan found beside its JSON must not be shown.
const NO_TF: (&str, &str) = ("PLANVIEW_TF_BIN", "/nonexistent/terraform");

#[test]
fn a_tree_made_by_the_readme_recipe_counts_each_root_once() {
    // live/{app,net}/{plan.out,plan.json}, live/net/state.json, live/shared/state.json.
    let out = planview_env(&["summary", "--format", "json", LIVE], &[NO_TF]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let roots: Vec<&str> = v["roots"].as_array().unwrap().iter().map(|r| r["root"].as_str().unwrap()).collect();
    assert_eq!(roots, ["app", "net", "shared"], "one root per directory: {v}");
    // The CLI printed `Plan: 3 to add, ...` for app and `Plan: 1 to add, 0 to change, 1 to destroy.` for net.
    assert_eq!(v["total"]["totals"]["add"], 4, "{}", v["total"]);
    assert_eq!(v["total"]["totals"]["destroy"], 1, "{}", v["total"]);
    assert_eq!(v["roots"][2]["verdict"], "state", "a directory holding only a state is a state root");
    let err = text(&out.stderr);
    assert!(
        err.contains("testdata/first/live: one root per directory: left out app/plan.out, net/plan.out")
            && err.contains("left out 1 state(s) (one root per directory, and its directory holds a plan): net/state.json"),
        "the note says what was read and what was left out: {err}"
    );
    // The table: the CLI's total.
    let out = planview_env(&["summary", LIVE], &[NO_TF]);
    let table = text(&out.stdout);
    assert!(table.starts_with("== 3 roots =="), "{table}");
    assert!(table.contains("== total over 3 files ==\nPlan: 4 to add, 0 to change, 1 to destroy.\n"), "{table}");
}

#[test]
fn a_state_beside_plans_does_not_stop_gate_or_comment() {
    let out = planview_env(&["gate", "--format", "json", LIVE], &[NO_TF]);
    // net destroys legacy_gateway: the default rule fails it (1), nothing is unreadable (not 2).
    assert_eq!(out.status.code(), Some(1), "{}\n{}", text(&out.stdout), text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let files: Vec<&str> = v["files"].as_array().unwrap().iter().map(|f| f["file"].as_str().unwrap()).collect();
    assert_eq!(files, ["app", "net"]);
    assert_eq!(v["total"]["errors"], 0, "{v}");
    let err = text(&out.stderr);
    assert!(err.contains("left out 2 state(s) (this command reads plans): net/state.json, shared/state.json"), "{err}");
    // With the destruction allowed, the tree passes.
    let out = planview_env(&["gate", "--allow", "*", LIVE], &[NO_TF]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));

    let out = planview_env(&["comment", LIVE], &[NO_TF]);
    assert_eq!(out.status.code(), Some(1), "{}\n{}", text(&out.stdout), text(&out.stderr));
    let body = text(&out.stdout);
    assert!(body.contains("Plan: 4 to add, 0 to change, 1 to destroy."), "the total, counted once: {body}");
    assert!(!body.contains("Plan: 8 to add"), "{body}");
    assert_eq!(body.matches("<!-- planview-fingerprint ").count(), 2, "one fingerprint per root: {body}");
    assert!(text(&out.stderr).contains("net/state.json, shared/state.json"), "{}", text(&out.stderr));
}

#[test]
fn states_are_read_where_states_are_wanted() {
    // `state` reads the states of the tree and leaves the plans out.
    let out = planview_env(&["state", "--format", "json", LIVE], &[NO_TF]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let files: Vec<&str> = v["files"].as_array().unwrap().iter().map(|f| f["file"].as_str().unwrap()).collect();
    assert_eq!(files, ["net", "shared"], "{v}");
    assert!(text(&out.stderr).contains("left out 4 plan(s) (this command reads states; `--prior` reads plans)"), "{}", text(&out.stderr));
    // A directory holding only a state: a state root for summary and state.
    for cmd in ["summary", "state", "outputs"] {
        let out = planview_env(&[cmd, &format!("{LIVE}/shared")], &[NO_TF]);
        assert_eq!(out.status.code(), Some(0), "{cmd}: {}", text(&out.stderr));
        assert!(text(&out.stdout).contains("state · terraform 1.11.4"), "{cmd}: {}", text(&out.stdout));
    }
    // ... and nothing the gate can judge: exit 2, never a pass, saying why.
    let out = planview_env(&["gate", &format!("{LIVE}/shared")], &[NO_TF]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("left out 1 state(s)") && err.contains("is a directory with nothing below it that this command reads"), "{err}");
}

/// README's recipe writes the JSON from the saved plan: the two agree, by
/// fingerprint and by `diff` (what the note tells a doubter to run).
#[test]
#[ignore = "needs terraform on PATH (runs it to show the saved plans): run by .ci/run (`cargo test --locked -- --ignored`)"]
fn the_saved_plan_and_its_json_agree() {
    for root in ["app", "net"] {
        let dir = format!("{LIVE}/{root}");
        let json = format!("{dir}/plan.json");
        let saved = format!("{dir}/plan.out");
        let fp = |f: &str| {
            let o = planview(&["fingerprint", "--tf-bin", "terraform", "--chdir", &dir, f]);
            assert_eq!(o.status.code(), Some(0), "{f}: {}", text(&o.stderr));
            text(&o.stdout)
        };
        assert_eq!(fp(&json), fp(&saved), "{root}");
        let o = planview(&["diff", "--tf-bin", "terraform", "--chdir", &dir, &json, &saved]);
        assert_eq!(o.status.code(), Some(0), "{root}: {}", text(&o.stdout));
    }
    // A directory holding only a saved plan is that root, shown in its own directory.
    let o = planview(&["summary", "--tf-bin", "terraform", "testdata/first/saved"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stdout).starts_with("== app (plan · terraform 1.11.4"), "{}", text(&o.stdout));
}

// ------------------------------------------------------- the apply-time check

#[test]
fn expect_fingerprint_passes_the_reviewed_plan_that_deletes() {
    let net = format!("{LIVE}/net/plan.json");
    let fp = text(&planview(&["fingerprint", &net]).stdout).trim().to_string();
    // The plan deletes: the plain gate fails it ...
    assert_eq!(planview(&["gate", &net]).status.code(), Some(1));
    // ... the apply-time check asks only "is this the reviewed plan?".
    let out = planview(&["gate", "--format", "json", "--expect-fingerprint", &fp, &net]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["policy"]["default_rule"], false, "{v}");
    assert_eq!(v["policy"]["rules"], serde_json::json!(["not-errored", "complete", "fingerprint", "recognised-actions"]));
    // Another plan fails, by its fingerprint only.
    let app = format!("{LIVE}/app/plan.json");
    let out = planview(&["gate", "--format", "json", "--expect-fingerprint", &fp, &app]);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let broken: Vec<&str> = v["files"][0]["violations"].as_array().unwrap().iter().map(|x| x["rule"].as_str().unwrap()).collect();
    assert_eq!(broken, ["fingerprint"], "{v}");
    // A rule given explicitly still applies.
    let out = planview(&["gate", "--deny", "delete", "--expect-fingerprint", &fp, &net]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let out = planview(&["gate", "--protect", "terraform_data.legacy_gateway", "--expect-fingerprint", &fp, &net]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    // So does `comment` with the same flag.
    let out = planview(&["comment", "--expect-fingerprint", &fp, &net]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
}

// README's apply-time recipe (`read-fingerprint.sh`, then `gate --expect-fingerprint`)
// is run as written on a reviewed plan that deletes by
// `ci_scripts::readme_read_back_passes_a_reviewed_plan_that_deletes`, against its fake API.

// ------------------------------------------------------- the likeliest wrong inputs

#[test]
fn the_clis_human_text_is_told_in_one_sentence() {
    // `terraform show plan.out` without -json, as a file, piped, and with --lenient (which must not skip it).
    let human = "testdata/first/wrong/human.txt";
    let piped = std::fs::read(root().join(human)).unwrap();
    for (args, stdin) in [
        (vec!["summary", human], None),
        (vec!["gate", "--lenient", human], None),
        (vec!["summary", "--lenient", human], None),
        (vec!["gate"], Some(piped.as_slice())),
        (vec!["gate", "--lenient"], Some(piped.as_slice())),
        (vec!["fingerprint", human], None),
    ] {
        let out = crate::common::planview_with_stdin(&args, stdin);
        assert_eq!(out.status.code(), Some(2), "{args:?}: exit 2, an unreadable input (README's error contract)");
        let err = text(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: one sentence: {err}");
        assert!(err.contains(":2:1: this is the CLI's human rendering") && err.contains("add `-json`"), "{args:?}: {err}");
        assert!(!err.contains("--lenient") && !err.contains("invalid JSON"), "{args:?}: {err}");
    }
}

#[test]
fn the_plan_json_log_stream_is_told_once() {
    // `terraform plan -json`: 13 messages, one per line.
    let log = "testdata/first/wrong/log.json";
    for args in [
        vec!["summary", log],
        vec!["gate", log],
        vec!["show", log],
        vec!["comment", log],
        vec!["moves", log],
        vec!["fingerprint", log],
        vec!["diff", log, "testdata/first/live/net/plan.json"],
    ] {
        let out = planview(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        let said = err.matches("this is the log stream of `plan -json`").count();
        assert_eq!(said, 1, "{args:?}: said once: {err}");
        assert!(err.starts_with(&format!("planview: error: {log}: ")), "{args:?}: named by the file: {err}");
        assert!(!text(&out.stdout).contains("#2"), "{args:?}: no row per message: {}", text(&out.stdout));
    }
    // JSON: one error object, for the file.
    let out = planview(&["summary", "--format", "json", log]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["file"], log, "{v}");
    assert!(v["error"]["message"].as_str().unwrap().contains("log stream"), "{v}");
}

// ------------------------------------------------------- narrow terminals

fn widest_line(s: &str) -> usize {
    use unicode_width::UnicodeWidthStr;
    s.lines().map(UnicodeWidthStr::width).max().unwrap_or(0)
}

#[test]
fn the_table_of_roots_fits_80_columns() {
    for args in [
        vec!["summary", "--width", "80", "testdata/roots/tree"],
        vec!["gate", "--width", "80", "testdata/roots/tree"],
        vec!["summary", "--width", "80", LIVE],
        vec!["gate", "--lenient", "--width", "80", "testdata/roots/terragrunt-run-all.log"],
    ] {
        let out = planview_env(&args, &[NO_TF]);
        let stdout = text(&out.stdout);
        let table: String = stdout.split("\n\n").next().unwrap().to_string();
        assert!(table.contains(" roots =="), "{args:?}: {stdout}");
        assert!(widest_line(&table) <= 80, "{args:?}: the table of roots is {} wide:\n{table}", widest_line(&table));
        assert!(table.contains("+ add · ~ change · - destroy · -/+ replace"), "{args:?}: the symbols explained: {table}");
    }
    // Wide enough: the words.
    let out = planview(&["summary", "--width", "120", "testdata/roots/tree"]);
    assert!(text(&out.stdout).contains("│ root         │ add │ change │ destroy │"), "{}", text(&out.stdout));
}

#[test]
fn replace_keeps_resource_types_whole_and_outputs_keep_numbers_whole() {
    let out = planview(&["replace", "--width", "80", "testdata/real/replace/plan.json"]);
    let t = text(&out.stdout);
    assert!(widest_line(&t) <= 80, "{t}");
    assert_eq!(t.matches("terraform_data.").count(), 5, "every address's type whole: {t}");
    assert!(!t.contains("terraform_ "), "{t}");
    // max_hosts = 12345678901234567890123 (a number the CLI keeps exact).
    for width in ["80", "60", "50"] {
        let out = planview(&["outputs", "--width", width, "testdata/first/live/net/plan.json"]);
        let t = text(&out.stdout);
        assert!(t.contains("12345678901234567890123"), "--width {width}: the number on one line: {t}");
    }
}

/// README's flag note: which commands take `--format`, `--color`,
/// `--show-sensitive` and `--width`, read from README and held against `--help`.
#[test]
fn the_flag_note_says_what_each_command_takes() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let note = "(every command takes `--quiet`; `summary`, `show`, `drift`, `replace`, `checks`, `outputs`, `state` and `gate` take\n`--format`, `--color`, `--show-sensitive` and `--width`; `comment` writes markdown and never a secret, so it takes none of\nthem; `moves` and `fingerprint` take `--format` and `diff` takes `--format` and `--color` (none of them prints a secret\nor a table)";
    assert!(readme.contains(note), "README's flag note changed: update this test with it");
    let flags = |cmd: &str| -> Vec<&'static str> {
        let help = text(&planview(&[cmd, "--help"]).stdout);
        let takes = |f: &str| help.lines().any(|l| l.trim_start().starts_with('-') && l.split([' ', ',']).any(|w| w == f));
        ["--format", "--color", "--show-sensitive", "--width", "--quiet"].into_iter().filter(|f| takes(f)).collect()
    };
    for cmd in ["summary", "show", "drift", "replace", "checks", "outputs", "state", "gate"] {
        assert_eq!(flags(cmd), ["--format", "--color", "--show-sensitive", "--width", "--quiet"], "{cmd}");
    }
    assert_eq!(flags("comment"), ["--quiet"]);
    assert_eq!(flags("moves"), ["--format", "--quiet"]);
    assert_eq!(flags("fingerprint"), ["--format", "--quiet"]);
    assert_eq!(flags("diff"), ["--format", "--color", "--quiet"]);
    // `comment` refuses them (a usage error, exit 2), rather than ignoring them.
    for flag in ["--format=json", "--width=80", "--color=never", "--show-sensitive"] {
        let out = planview(&["comment", flag, "testdata/first/live/net/plan.json"]);
        assert_eq!(out.status.code(), Some(2), "comment {flag}");
    }
}

#[test]
fn moves_json_and_summary_gitlab_print_their_error_object() {
    let bad = "testdata/edge/truncated.json";
    for args in [vec!["moves", "--format", "json", bad], vec!["summary", "--format", "gitlab", bad]] {
        let out = planview(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {}", text(&out.stdout)));
        assert_eq!(v["file"], bad, "{args:?}: {v}");
        assert_eq!(v["error"]["line"], 4, "{args:?}: {v}");
        let schema = if args[0] == "moves" { "moves.schema.json" } else { "summary-gitlab.schema.json" };
        crate::common::assert_valid(schema, &v, &format!("{args:?}"));
    }
    // Several inputs, one unreadable: GitLab gets the error objects, never sums that leave one out.
    let out = planview(&["summary", "--format", "gitlab", "testdata/real/basic/plan.json", bad]);
    assert_eq!(out.status.code(), Some(2));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["files"][0]["file"], bad, "{v}");
    assert!(v.get("create").is_none(), "{v}");
    crate::common::assert_valid("summary-gitlab.schema.json", &v, "several");
}

/// `--help` lists the commands in the order of README's usage block.
#[test]
fn help_lists_the_commands_as_readme_does() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let usage = readme.split("## Usage").nth(1).unwrap().split("```").nth(1).unwrap();
    let in_readme: Vec<&str> =
        usage.lines().filter_map(|l| l.strip_prefix("planview ")).filter_map(|l| l.split_whitespace().next()).collect();
    let help = text(&planview(&["--help"]).stdout);
    let commands = help.split("Commands:\n").nth(1).unwrap().split("\n\n").next().unwrap();
    let in_help: Vec<&str> = commands
        .lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert_eq!(in_help, in_readme, "{help}");
}

// ------------------------------------------------------- README's recipe, run as written

/// README's quick-start recipe, run as written (`tofu` being the terraform on
/// PATH) in each root of a fresh tree, then the tree given to planview: each
/// root is counted once, the totals are what the CLI's own `Plan:` lines add
/// up to, and the gate judges the tree (docs/usage.md's "One directory = one
/// root" names the same recipe).
#[test]
#[ignore = "needs terraform on PATH (runs README's recipe with it): run by .ci/run (`cargo test --locked -- --ignored`)"]
fn the_readme_recipe_run_as_written_gives_a_tree_counted_once() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let recipe = readme
        .lines()
        .find_map(|l| l.strip_prefix("$ ").filter(|c| c.contains("plan -out plan.out")))
        .expect("README's quick start shows the recipe")
        .to_string();
    let usage = std::fs::read_to_string(root().join("docs/usage.md")).unwrap();
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words(&usage).contains(&format!("The recipe `{recipe}` leaves both files in each root")), "docs/usage.md names another recipe");
    let dir = std::env::temp_dir().join(format!("planview-recipe-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let tofu = bin.join("tofu");
    std::fs::write(&tofu, "#!/bin/sh\nexec terraform \"$@\"\n").unwrap();
    std::fs::set_permissions(&tofu, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    std::fs::write(dir.join("terraformrc"), "").unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut adds = 0u64;
    for (name, config) in [("app", "app"), ("net", "net/v1")] {
        let wd = dir.join("live").join(name);
        std::fs::create_dir_all(&wd).unwrap();
        std::fs::copy(root().join(format!("testdata/first/config/{config}/main.tf")), wd.join("main.tf")).unwrap();
        let run = |script: &str| {
            let out = Command::new("bash")
                .args(["-c", &format!("set -eo pipefail\n{script}")])
                .current_dir(&wd)
                .env("PATH", &path)
                .env("TF_CLI_CONFIG_FILE", dir.join("terraformrc"))
                .env("TF_DATA_DIR", dir.join(format!("tfdata-{name}")))
                .env("TF_IN_AUTOMATION", "1")
                .env("CHECKPOINT_DISABLE", "1")
                .env("TF_INPUT", "0")
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(0), "{script}: {}{}", text(&out.stdout), text(&out.stderr));
            text(&out.stdout)
        };
        run("tofu init -no-color >/dev/null");
        let printed = run(&recipe);
        // The recipe asks for no `-no-color`: the line is in bold (SGR sequences left out here).
        let mut printed = printed;
        while let Some(start) = printed.find('\u{1b}') {
            let end = printed[start..].find('m').map_or(printed.len(), |e| start + e + 1);
            printed.replace_range(start..end, "");
        }
        let at = printed.find("Plan: ").unwrap_or_else(|| panic!("{printed}"));
        adds += printed[at + "Plan: ".len()..].split(' ').next().unwrap().parse::<u64>().unwrap();
        assert!(wd.join("plan.out").is_file() && wd.join("plan.json").is_file());
    }
    let live = dir.join("live");
    let live = live.to_str().unwrap();
    let out = planview_env(&["summary", "--format", "json", live], &[NO_TF]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let roots: Vec<&str> = v["roots"].as_array().unwrap().iter().map(|r| r["root"].as_str().unwrap()).collect();
    assert_eq!(roots, ["app", "net"], "one root per directory: {v}");
    assert_eq!(v["total"]["totals"]["add"], adds, "the CLI's Plan: lines add up to {adds}: {}", v["total"]);
    // Creates only: the default gate passes the tree, each root read once.
    let out = planview_env(&["gate", "--format", "json", live], &[NO_TF]);
    assert_eq!(out.status.code(), Some(0), "{}\n{}", text(&out.stdout), text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["files"].as_array().unwrap().len(), 2, "{v}");
    std::fs::remove_dir_all(&dir).ok();
}
