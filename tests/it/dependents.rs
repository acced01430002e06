//! Blast radius (`dependents`, docs/dependents.md) through the CLI, on a real plan
//! (`testdata/dependents/`, made by its `make.sh` with terraform_data): `terraform_data.db`
//! is replaced, and the CLI's own text (`plan.txt`) says which other objects change
//! because of it: through a module input, a nested module's output and count instances
//! (certain from the plan's configuration), and through a local (`audit`: the plan leaves
//! locals out, so that one is a guess, told apart). `after_db` (depends_on db, unchanged)
//! and `unrelated` do not change.

use crate::common::*;
use serde_json::Value;

const PLAN: &str = "testdata/dependents/plan.json";

fn run(args: &[&str]) -> (i32, String, String) {
    let out = planview(args);
    (out.status.code().expect("exit code"), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn json(args: &[&str], schema: &str) -> (i32, Value) {
    let (code, out, _) = run(args);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {out}"));
    assert_valid(schema, &v, &format!("{args:?}"));
    (code, v)
}

/// What the CLI's text says changes besides the replaced object.
fn updated_in_plan_txt() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("testdata/dependents/plan.txt")).unwrap();
    let mut v: Vec<String> =
        text.lines().filter_map(|l| l.trim().strip_prefix("# ")?.strip_suffix(" will be updated in-place").map(str::to_string)).collect();
    v.sort();
    v
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().unwrap().iter().map(|x| x.as_str().unwrap().to_string()).collect()
}

#[test]
fn replace_lists_what_the_cli_says_changes_with_the_replacement() {
    let expected = updated_in_plan_txt();
    assert_eq!(expected.len(), 5, "plan.txt: {expected:?}");
    let (code, v) = json(&["replace", "--format", "json", PLAN], "replace.schema.json");
    assert_eq!(code, 0);
    let r = &v["replacements"][0];
    assert_eq!(r["address"], "terraform_data.db");
    let got: Vec<String> = r["dependents"].as_array().unwrap().iter().map(|d| d["address"].as_str().unwrap().to_string()).collect();
    assert_eq!(got, expected, "every object the CLI updates follows from the replacement, and nothing else");
    for d in r["dependents"].as_array().unwrap() {
        assert_eq!(d["unknown"], serde_json::json!(["input"]), "plan.txt: input = ... -> (known after apply)");
        assert_eq!(d["through_locals"], d["address"] == "terraform_data.audit", "{d}");
    }
    assert!(v["dependents_note"].as_str().unwrap().contains("locals"), "the locals were guessed, said once");

    let (code, text, _) = run(&["replace", PLAN]);
    assert_eq!(code, 0);
    let head = "terraform_data.db also changes 4 objects, and maybe 1 more through locals:\n";
    assert!(text.contains(&format!("{head}  module.app.module.edge.terraform_data.lb (input known after apply)\n")), "{text}");
    assert!(text.contains("\n  terraform_data.audit (input known after apply; maybe: only through a local)\n"), "{text}");
    assert_eq!(text.matches("note: the plan's configuration leaves out locals").count(), 1, "{text}");
    let (_, md, _) = run(&["replace", "--format", "markdown", PLAN]);
    let head = "`terraform_data.db` also changes 4 objects, and maybe 1 more through locals:\n\n";
    assert!(md.contains(&format!("{head}- `module.app.module.edge.terraform_data.lb` (input known after apply)\n")), "{md}");
}

#[test]
fn show_json_gives_each_change_its_dependents() {
    let (code, v) = json(&["show", "--format", "json", PLAN], "show.schema.json");
    assert_eq!(code, 0);
    let by: std::collections::BTreeMap<String, &Value> =
        v["resources"].as_array().unwrap().iter().map(|r| (r["address"].as_str().unwrap().to_string(), r)).collect();
    let db = by["terraform_data.db"];
    assert_eq!(strings(&db["dependents_through_locals"]), ["terraform_data.audit"]);
    let mut all = strings(&db["dependents"]);
    all.extend(strings(&db["dependents_through_locals"]));
    all.sort();
    assert_eq!(all, updated_in_plan_txt());
    assert_eq!(
        strings(&by["module.app.terraform_data.server[0]"]["dependents"]),
        ["module.app.module.edge.terraform_data.lb", "terraform_data.dns"],
        "the edge module reads server[0] only"
    );
    assert!(by["module.app.terraform_data.server[1]"].get("dependents").is_none());
    assert!(by["module.app.module.edge.terraform_data.lb"].get("dependents").is_some(), "lb -> url -> endpoint -> dns");
    // The text formats are unchanged: dependents are JSON's (and replace's, the comment's).
    let (_, text, _) = run(&["show", PLAN]);
    assert!(!text.contains("dependents"));
}

#[test]
fn the_gate_fails_a_replacement_that_drags_along_more_than_max_blast() {
    let (code, v) = json(&["gate", "--format", "json", "--policy", "testdata/dependents/max-blast-3.json", PLAN], "gate.schema.json");
    assert_eq!(code, 1, "{v}");
    let violations = v["files"][0]["violations"].as_array().unwrap();
    let blast: Vec<&Value> = violations.iter().filter(|x| x["rule"] == "max-blast 3").collect();
    assert_eq!(blast.len(), 1, "{v}");
    assert_eq!(blast[0]["address"], "terraform_data.db");
    let reason = blast[0]["reason"].as_str().unwrap();
    let want = "replacing it also changes 5 objects (1 of them through locals the plan leaves out), more than the 3 allowed";
    assert!(reason.starts_with(want), "a guess counts: {v}");
    let (code, v) = json(&["gate", "--format", "json", "--policy", "testdata/dependents/max-blast-5.json", PLAN], "gate.schema.json");
    assert_eq!(code, 0, "5 dependents, 5 allowed: {v}");
    for p in ["max-blast-3.json", "max-blast-5.json"] {
        let text = std::fs::read_to_string(root().join("testdata/dependents").join(p)).unwrap();
        let policy: Value = serde_json::from_str(&text).unwrap();
        assert_valid("gate-policy.schema.json", &policy, p);
    }
}

#[test]
fn the_comment_says_what_a_replacement_drags_along() {
    let (_, body, _) = run(&["comment", "--allow", "terraform_data.db", PLAN]);
    let line = "- replacing `terraform_data.db` also changes 4 objects, and maybe 1 more through locals: \
                `module.app.module.edge.terraform_data.lb`, `module.app.terraform_data.server[0]`, \
                `module.app.terraform_data.server[1]`, `terraform_data.dns`\n";
    assert!(body.contains(line), "{body}");
    assert!(!body.contains("`terraform_data.audit`,"), "a guess is counted, not named: {body}");
}

#[test]
fn a_plan_without_configuration_has_no_dependents_said_once_never_an_error() {
    let mut plan: Value = serde_json::from_str(&std::fs::read_to_string(root().join(PLAN)).unwrap()).unwrap();
    plan.as_object_mut().unwrap().remove("configuration");
    let dir = std::env::temp_dir().join(format!("planview-dependents-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("no-config.json");
    std::fs::write(&file, serde_json::to_string(&plan).unwrap()).unwrap();
    let f = file.to_str().unwrap();
    let (code, v) = json(&["replace", "--format", "json", f], "replace.schema.json");
    assert_eq!(code, 0);
    assert_eq!(v["replacements"][0]["dependents"], serde_json::json!([]));
    assert!(v["dependents_note"].as_str().unwrap().contains("no configuration"), "{v}");
    let (code, text, _) = run(&["replace", f]);
    assert_eq!(code, 0);
    assert_eq!(text.matches("no configuration").count(), 1, "{text}");
    let (code, v) = json(&["show", "--format", "json", f], "show.schema.json");
    assert_eq!(code, 0);
    assert!(v["resources"].as_array().unwrap().iter().all(|r| r.get("dependents").is_none()));
    // The gate cannot judge a blast radius without a configuration: it fails closed.
    let (code, v) = json(&["gate", "--format", "json", "--policy", "testdata/dependents/max-blast-5.json", f], "gate.schema.json");
    assert_eq!(code, 1, "{v}");
    assert!(v["files"][0]["violations"][0]["reason"].as_str().unwrap().contains("cannot be judged"), "{v}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
#[ignore = "needs terraform: run by .ci/run with --ignored"]
fn the_fixture_is_what_terraform_makes() {
    // make.sh re-creates plan.json in a copy of the directory; the changes and
    // the configuration (everything the dependents are read from) are the same.
    let dir = std::env::temp_dir().join(format!("planview-dependents-make-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("modules")).unwrap();
    let src = root().join("testdata/dependents");
    for f in ["main.tf", "make.sh", "v1.tfvars", "v2.tfvars"] {
        std::fs::copy(src.join(f), dir.join(f)).unwrap();
    }
    for m in ["app", "edge"] {
        std::fs::create_dir_all(dir.join("modules").join(m)).unwrap();
        std::fs::copy(src.join("modules").join(m).join("main.tf"), dir.join("modules").join(m).join("main.tf")).unwrap();
    }
    let status = std::process::Command::new("bash").arg(dir.join("make.sh")).status().expect("bash");
    assert!(status.success());
    let made: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("plan.json")).unwrap()).unwrap();
    let kept: Value = serde_json::from_str(&std::fs::read_to_string(src.join("plan.json")).unwrap()).unwrap();
    assert_eq!(made["configuration"], kept["configuration"]);
    let actions = |v: &Value| -> Vec<(String, Value)> {
        v["resource_changes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["address"].as_str().unwrap().to_string(), r["change"]["actions"].clone()))
            .collect()
    };
    assert_eq!(actions(&made), actions(&kept));
    std::fs::remove_dir_all(&dir).ok();
}

/// `--chdir` holds the configuration the fixture was planned from (`main.tf`,
/// `modules/`): its `locals` blocks are read, so `audit` (through
/// `local.db_addr`) is a certain dependent, and nothing is guessed.
#[test]
fn with_the_source_in_chdir_the_locals_are_exact() {
    let chdir = ["--chdir", "testdata/dependents"];
    let (code, v) = json(&["replace", "--format", "json", chdir[0], chdir[1], PLAN], "replace.schema.json");
    assert_eq!(code, 0);
    let deps = v["replacements"][0]["dependents"].as_array().unwrap();
    let got: Vec<String> = deps.iter().map(|d| d["address"].as_str().unwrap().to_string()).collect();
    assert_eq!(got, updated_in_plan_txt(), "what the CLI updates, every one certain");
    assert!(deps.iter().all(|d| d["through_locals"] == false), "{v}");
    assert!(v.get("dependents_note").is_none_or(Value::is_null), "nothing guessed, nothing said: {v}");
    let (_, text, err) = run(&["replace", chdir[0], chdir[1], PLAN]);
    assert!(text.contains("terraform_data.db also changes 5 objects:\n"), "{text}");
    assert!(!text.contains("maybe") && !err.contains("locals"), "{text}{err}");

    let (_, v) = json(&["show", "--format", "json", chdir[0], chdir[1], PLAN], "show.schema.json");
    let by: std::collections::BTreeMap<String, &Value> =
        v["resources"].as_array().unwrap().iter().map(|r| (r["address"].as_str().unwrap().to_string(), r)).collect();
    assert_eq!(strings(&by["terraform_data.db"]["dependents"]), updated_in_plan_txt());
    assert!(by["terraform_data.db"].get("dependents_through_locals").is_none());
    assert!(by["terraform_data.dns"].get("dependents").is_none(), "no local reads dns: the guess is gone");

    let (code, v) = json(
        &["gate", "--format", "json", "--policy", "testdata/dependents/max-blast-3.json", chdir[0], chdir[1], PLAN],
        "gate.schema.json",
    );
    assert_eq!(code, 1);
    let reason = v["files"][0]["violations"].as_array().unwrap().iter().find(|x| x["rule"] == "max-blast 3").unwrap()["reason"].clone();
    assert!(reason.as_str().unwrap().starts_with("replacing it also changes 5 objects, more than the 3 allowed"), "{reason}");

    let (_, body, _) = run(&["comment", "--allow", "terraform_data.db", chdir[0], chdir[1], PLAN]);
    assert!(body.contains("- replacing `terraform_data.db` also changes 5 objects: "), "{body}");
    assert!(body.contains("`terraform_data.audit`"), "{body}");
}

#[test]
fn the_comment_says_once_that_a_plan_without_configuration_has_no_known_blast_radius() {
    let mut plan: Value = serde_json::from_str(&std::fs::read_to_string(root().join(PLAN)).unwrap()).unwrap();
    plan.as_object_mut().unwrap().remove("configuration");
    let dir = std::env::temp_dir().join(format!("planview-dependents-comment-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("no-config.json");
    std::fs::write(&file, serde_json::to_string(&plan).unwrap()).unwrap();
    let f = file.to_str().unwrap();
    let (_, body, err) = run(&["comment", "--allow", "terraform_data.db", f, f]);
    assert_eq!(err.matches("no configuration").count(), 1, "said once for two plans: {err}");
    assert!(!body.contains("also changes"), "{body}");
    let (_, _, err) = run(&["comment", "--allow", "terraform_data.db", PLAN]);
    assert!(!err.contains("no configuration"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `comment --html`: the graph has the edges of every change that has
/// dependents (as `show --format html` draws them), not only the destructive ones.
#[test]
fn the_comment_page_draws_every_changes_dependents() {
    let dir = std::env::temp_dir().join(format!("planview-dependents-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (page, shown) = (dir.join("comment.html"), dir.join("show.html"));
    run(&["comment", "--allow", "terraform_data.db", "--html", page.to_str().unwrap(), PLAN]);
    let (code, show, _) = run(&["show", "--format", "html", PLAN]);
    assert_eq!(code, 0);
    std::fs::write(&shown, &show).unwrap();
    let page = std::fs::read_to_string(&page).unwrap();
    // The same edges, drawn the same: db -> server[0], server[1]; server[0] -> lb; lb -> dns
    // (each change's direct dependents), which the updates' own dependents give.
    let edges = |html: &str| -> Vec<String> { html.lines().filter(|l| l.starts_with("<path class=\"e")).map(str::to_string).collect() };
    assert_eq!(edges(&show).len(), 4, "{show}");
    assert_eq!(edges(&page), edges(&show));
    assert!(page.contains("class=\"deps\""), "an update's dependents are listed under it");
    std::fs::remove_dir_all(&dir).ok();
}
