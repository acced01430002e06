//! The first five minutes (issue 26, part 2), on the real plans of
//! `testdata/first/` (made by its `make.sh` with terraform 1.11, README's own
//! recipe in each root): one directory is one root, the apply-time check on a
//! reviewed plan that deletes, the two likeliest wrong inputs, narrow
//! terminals, error objects, `--help`'s order, and README's recipes run as written.

use crate::common::{planview, root};
use serde_json::Value;
use std::path::{Path, PathBuf};
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
    assert!(err.contains("left out 1 state(s)") && err.contains("is a directory with nothing this command reads"), "{err}");
}

/// README's recipe writes the JSON from the saved plan: the two agree, by
/// fingerprint and by `diff` (what the note tells a doubter to run).
#[test]
#[ignore = "runs terraform (on PATH) to show the saved plans"]
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

// ------------------------------------------------------- README's recipes

/// The ```sh block of README that holds `needle`.
fn readme_block(needle: &str) -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut lines = readme.lines();
    while let Some(l) = lines.next() {
        if l == "```sh" {
            let block: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
            let block = block.join("\n");
            if block.contains(needle) {
                return block + "\n";
            }
        }
    }
    panic!("README has no ```sh block with {needle:?}");
}

/// A fresh directory under the target dir.
fn scratch(name: &str) -> PathBuf {
    let dir = root().join("target/tmp").join(format!("first-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn write_exe(path: &Path, body: &str) {
    std::fs::write(path, body).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// Run README's apply-time check as written, in a directory holding
/// `plan.out` and `plan.json` of `applied`, after a review comment on
/// `reviewed` (`planview comment`, served by a stand-in `gh api` that applies
/// the recipe's `--jq`), with `tofu` either the real terraform or a stand-in
/// printing the JSON beside the saved plan.
fn apply_time_check(reviewed: &str, applied: &str, real_tf: bool) -> Output {
    let dir = scratch(&format!("apply-{}-{real_tf}", applied.replace('/', "_")));
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let body = planview(&["comment", &format!("{reviewed}/plan.json")]);
    let comments = serde_json::json!([
        {"user": {"login": "someone"}, "body": "LGTM"},
        {"user": {"login": "github-actions[bot]"}, "body": text(&body.stdout)},
    ]);
    std::fs::write(dir.join("comments.json"), comments.to_string()).unwrap();
    // `gh api PATH [--jq EXPR] [...]`: the comments, through jq as gh does.
    write_exe(
        &bin.join("gh"),
        &format!(
            "#!/usr/bin/env bash\nset -e\njq_expr=.\nwhile [ $# -gt 0 ]; do case \"$1\" in --jq|-q) jq_expr=\"$2\"; shift 2;; *) shift;; esac; done\njq -r \"$jq_expr\" {}\n",
            dir.join("comments.json").display()
        ),
    );
    if real_tf {
        let tf = which("terraform").expect("terraform on PATH");
        std::os::unix::fs::symlink(tf, bin.join("tofu")).unwrap();
    } else {
        write_exe(&bin.join("tofu"), "#!/usr/bin/env bash\n[ \"$1 $2\" = 'show -json' ] || exit 3\nexec cat \"${3%.out}.json\"\n");
    }
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_planview"), bin.join("planview")).unwrap();
    for f in ["plan.out", "plan.json"] {
        std::fs::copy(root().join(applied).join(f), dir.join(f)).unwrap();
    }
    let script = readme_block("--expect-fingerprint \"$fp\"");
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let out = Command::new("bash")
        .args(["-euo", "pipefail", "-c", &script])
        .current_dir(&dir)
        .env("PATH", path)
        .env("REPO", "owner/infra")
        .env("PR", "7")
        .env_remove("CI")
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    out
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(name)).find(|p| p.is_file())
}

#[test]
fn readme_apply_time_check_works_as_written() {
    let net = format!("{LIVE}/net");
    let out = apply_time_check(&net, &net, false);
    assert_eq!(out.status.code(), Some(0), "the reviewed plan (which deletes) passes:\n{}{}", text(&out.stdout), text(&out.stderr));
    assert!(text(&out.stdout).contains("fingerprint"), "{}", text(&out.stdout));
    let out = apply_time_check(&net, &format!("{LIVE}/app"), false);
    assert_eq!(out.status.code(), Some(1), "another plan fails:\n{}{}", text(&out.stdout), text(&out.stderr));
}

#[test]
#[ignore = "runs terraform (on PATH, as `tofu`) to show the saved plan, as the recipe does"]
fn readme_apply_time_check_works_with_the_real_cli() {
    let net = format!("{LIVE}/net");
    let out = apply_time_check(&net, &net, true);
    assert_eq!(out.status.code(), Some(0), "{}{}", text(&out.stdout), text(&out.stderr));
}
