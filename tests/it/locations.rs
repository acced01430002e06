//! Source locations (issue 29): the objects and findings of real plans
//! (testdata/locate, made by its make.sh with terraform 1.11) located in the
//! configuration they were made from, and shown in SARIF (validated against
//! the SARIF 2.1.0 schema), GitHub annotations, GitLab Code Quality and JSON.
//! The expected lines are found by searching the files' text, not by the
//! parser under test.

use crate::common::{assert_valid, planview, root};
use planview::locate::{Location, SourceMap};
use serde_json::Value;
use std::path::{Path, PathBuf};

const ROOT: &str = "testdata/locate/root";
const PLAN: &str = "testdata/locate/plan.json";
const ERRORED: &str = "testdata/locate/errored.json";

/// The 1-based line of the first line of `file` containing `needle`, and the
/// line of the first `}` at the start of a line from there (a top-level
/// block's end), or of the first line holding only blanks and `}` at the
/// needle's indentation (a nested block's end).
fn block(file: &str, needle: &str) -> Location {
    let text = std::fs::read_to_string(root().join(file)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| l.contains(needle)).unwrap_or_else(|| panic!("{needle} not in {file}"));
    let indent = lines[start].len() - lines[start].trim_start().len();
    let end = (start..lines.len())
        .find(|&i| {
            let l = lines[i].trim_end_matches('\r');
            l.trim() == "}" && l.len() - l.trim_start().len() == indent
        })
        .unwrap_or(start);
    Location { file: file.to_string(), line: start as u32 + 1, end_line: end as u32 + 1 }
}

fn map() -> SourceMap {
    let map = SourceMap::load(Path::new(ROOT));
    assert!(map.notes.is_empty(), "{:?}", map.notes);
    map
}

#[test]
fn every_object_of_the_plan_is_located_at_its_block_in_every_syntax_and_module() {
    let map = map();
    let main = |needle| block("testdata/locate/root/main.tf", needle);
    let cases: Vec<(&str, Option<Location>)> = vec![
        // count: every instance, one beyond the shrunk count included.
        ("terraform_data.count[0]", Some(main("resource \"terraform_data\" \"count\""))),
        ("terraform_data.count[2]", Some(main("resource \"terraform_data\" \"count\""))),
        // for_each, whose block an override file merges into: the primary block.
        ("terraform_data.each[\"c\"]", Some(main("resource \"terraform_data\" \"each\""))),
        ("terraform_data.new_name", Some(main("resource \"terraform_data\" \"new_name\""))),
        ("terraform_data.imported", Some(main("resource \"terraform_data\" \"imported\""))),
        // Gone from the configuration: at its removed block, or nowhere.
        ("terraform_data.legacy", Some(removed_legacy())),
        ("terraform_data.gone", None),
        ("module.old.terraform_data.subnet", Some(removed_old())),
        ("module.old.module.sub.terraform_data.leaf", Some(removed_old())),
        ("terraform_data.guarded", Some(block("testdata/locate/root/checks.tf", "resource \"terraform_data\" \"guarded\""))),
        // JSON syntax: the key that declares the block.
        ("terraform_data.from_json", Some(json_block("\"from_json\"", "      }"))),
        ("data.terraform_remote_state.json_state", Some(json_block("\"json_state\"", "        }"))),
        ("output.json_out", Some(json_block("\"json_out\"", "    }"))),
        // CRLF line endings.
        ("output.crlf", Some(block("testdata/locate/root/crlf.tf", "output \"crlf\""))),
        // Nested local modules, for_each on the call.
        (
            "module.net.terraform_data.subnet[1]",
            Some(block("testdata/locate/root/modules/net/main.tf", "resource \"terraform_data\" \"subnet\"")),
        ),
        (
            "module.net.module.sub[\"b\"].terraform_data.leaf",
            Some(block("testdata/locate/root/modules/net/sub/main.tf", "resource \"terraform_data\" \"leaf\"")),
        ),
        // The instance of the call before it had for_each, by its address
        // alone: the same block (its change, destroyed because that instance
        // is gone, has none: below).
        (
            "module.net.module.sub.terraform_data.leaf",
            Some(block("testdata/locate/root/modules/net/sub/main.tf", "resource \"terraform_data\" \"leaf\"")),
        ),
        // A module `init` fetched (modules.json), and one nested in it.
        (
            "module.fetched.terraform_data.pkg",
            Some(block("testdata/locate/root/.terraform/modules/fetched/main.tf", "resource \"terraform_data\" \"pkg\"")),
        ),
        (
            "module.fetched.module.inner.terraform_data.deep[1]",
            Some(block("testdata/locate/root/.terraform/modules/fetched/inner/main.tf", "resource \"terraform_data\" \"deep\"")),
        ),
        // Module calls, checks, variables.
        ("module.net", Some(main("module \"net\""))),
        ("module.fetched.module.inner", Some(block("testdata/locate/root/.terraform/modules/fetched/main.tf", "module \"inner\""))),
        ("check.failing", Some(block("testdata/locate/root/checks.tf", "check \"failing\""))),
        ("var.environment", Some(block("testdata/locate/root/variables.tf", "variable \"environment\""))),
    ];
    for (address, want) in &cases {
        assert_eq!(&map.locate(address), want, "{address}");
    }
    // Every resource change of the real plan: located, except the one whose block is gone.
    let plan: Value = serde_json::from_str(&std::fs::read_to_string(root().join(PLAN)).unwrap()).unwrap();
    for rc in plan["resource_changes"].as_array().unwrap() {
        let address = rc["address"].as_str().unwrap();
        assert_eq!(map.locate(address).is_none(), address == "terraform_data.gone", "{address}");
    }
    // The CLI says `(because module.net.module.sub is not in configuration)`:
    // the leaf block declares the resource for sub["a"] and sub["b"] only.
    assert_eq!(map.locate_change("module.net.module.sub.terraform_data.leaf", Some("delete_because_no_module")), None);
    assert_eq!(
        map.locate_change("module.net.module.sub[\"b\"].terraform_data.leaf", None),
        map.locate("module.net.module.sub[\"b\"].terraform_data.leaf")
    );
    assert_eq!(map.locate_import("terraform_data.imported"), Some(main("import {")));
    assert_eq!(map.locate_moved("terraform_data.new_name", "terraform_data.old_name"), Some(main("moved {")));
}

/// The `removed` block whose `from` line holds `needle`.
fn removed(needle: &str) -> Location {
    let file = "testdata/locate/root/main.tf";
    let text = std::fs::read_to_string(root().join(file)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let from = lines.iter().position(|l| l.contains(needle)).unwrap();
    let start = (0..from).rev().find(|&i| lines[i].starts_with("removed {")).unwrap();
    let end = (from..lines.len()).find(|&i| lines[i] == "}").unwrap();
    Location { file: file.into(), line: start as u32 + 1, end_line: end as u32 + 1 }
}

fn removed_old() -> Location {
    removed("from = module.old")
}

fn removed_legacy() -> Location {
    removed("from = terraform_data.legacy")
}

fn json_block(key: &str, end: &str) -> Location {
    let file = "testdata/locate/root/extra.tf.json";
    let text = std::fs::read_to_string(root().join(file)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| l.contains(key)).unwrap();
    let end = (start..lines.len()).find(|&i| lines[i] == end).unwrap();
    Location { file: file.into(), line: start as u32 + 1, end_line: end as u32 + 1 }
}

#[test]
fn failing_checks_and_conditions_point_at_their_check_or_condition_block() {
    let map = map();
    let checks = "testdata/locate/root/checks.tf";
    let problems = |s: &str| vec![s.to_string()];
    assert_eq!(
        map.locate_check("check.failing", &problems("CHECK-FAIL: environment is staging, expected prod.")),
        Some(block(checks, "check \"failing\""))
    );
    assert_eq!(
        map.locate_check("terraform_data.guarded", &problems("PRECONDITION-FAIL: guard is shut.")),
        Some(block(checks, "precondition {"))
    );
    assert_eq!(map.locate_check("var.environment", &[]), Some(block("testdata/locate/root/variables.tf", "validation {")));
    let json = map.locate_check("output.json_out", &[]).unwrap();
    assert_eq!((json.file.as_str(), json.line), ("testdata/locate/root/extra.tf.json", json_block("\"precondition\"", "      }").line));
    let leaf = map.locate_check("module.net.module.sub[\"a\"].terraform_data.leaf", &[]).unwrap();
    assert_eq!(leaf, block("testdata/locate/root/modules/net/sub/main.tf", "postcondition {"));
}

fn sarif(args: &[&str]) -> (Value, i32) {
    let out = planview(args);
    let v: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}\n{}", String::from_utf8_lossy(&out.stderr)));
    assert_valid("sarif-2.1.0.schema.json", &v, &format!("{args:?}"));
    (v, out.status.code().unwrap())
}

/// ruleId, uri, startLine, endLine, logical name.
type Row = (String, String, Option<u64>, Option<u64>, Option<String>);
/// uri, startLine, endLine.
type At = (String, Option<u64>, Option<u64>);

/// Each result as a [`Row`].
fn results(v: &Value) -> Vec<Row> {
    v["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let loc = &r["locations"][0];
            let phys = &loc["physicalLocation"];
            (
                r["ruleId"].as_str().unwrap().to_string(),
                phys["artifactLocation"]["uri"].as_str().unwrap().to_string(),
                phys["region"]["startLine"].as_u64(),
                phys["region"]["endLine"].as_u64(),
                loc["logicalLocations"][0]["fullyQualifiedName"].as_str().map(str::to_string),
            )
        })
        .collect()
}

#[test]
fn gate_sarif_puts_each_violation_on_its_block_and_validates() {
    let (v, code) = sarif(&["gate", "--format", "sarif", "--chdir", ROOT, "--deny", "forget", "--deny", "import", PLAN]);
    assert_eq!(code, 1);
    let main = |needle| block("testdata/locate/root/main.tf", needle);
    let at = |l: &Location| (l.file.clone(), Some(u64::from(l.line)), Some(u64::from(l.end_line)));
    let got: Vec<(String, At)> =
        results(&v).into_iter().map(|(rule, uri, s, e, name)| (format!("{rule} {}", name.unwrap_or_default()), (uri, s, e))).collect();
    let find = |key: &str| got.iter().find(|(k, _)| k == key).map(|(_, w)| w.clone()).unwrap_or_else(|| panic!("no {key} in {got:?}"));
    assert_eq!(find("gate/deny-delete terraform_data.count[2]"), at(&main("resource \"terraform_data\" \"count\"")));
    assert_eq!(find("gate/deny-delete terraform_data.gone"), (PLAN.to_string(), None, None), "no block: the plan, at no line");
    // Destroyed because its module instance is gone (`module.net.module.sub` gained for_each): at no line either.
    assert_eq!(find("gate/deny-delete module.net.module.sub.terraform_data.leaf"), (PLAN.to_string(), None, None));
    assert_eq!(find("gate/deny-forget terraform_data.legacy"), at(&removed_legacy()));
    assert_eq!(find("gate/deny-forget module.old.terraform_data.subnet"), at(&removed_old()));
    assert_eq!(find("gate/deny-import terraform_data.imported"), at(&main("import {")));
    // Fingerprints: present, and the same on another run.
    let (again, _) = sarif(&["gate", "--format", "sarif", "--chdir", ROOT, "--deny", "forget", "--deny", "import", PLAN]);
    let prints = |v: &Value| -> Vec<String> {
        v["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["partialFingerprints"]["planview/v1"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(prints(&v), prints(&again));
    let mut unique = prints(&v);
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), prints(&v).len(), "one fingerprint per finding");
    let rules: Vec<&str> = v["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(rules, vec!["gate/deny-delete", "gate/deny-forget", "gate/deny-import"]);
}

#[test]
fn checks_sarif_points_at_check_and_precondition_blocks() {
    let checks = "testdata/locate/root/checks.tf";
    let (v, code) = sarif(&["checks", "--format", "sarif", "--chdir", ROOT, ERRORED]);
    assert_eq!(code, 1);
    let got = results(&v);
    let want = |rule: &str, l: Location, name: &str| {
        (rule.to_string(), l.file, Some(u64::from(l.line)), Some(u64::from(l.end_line)), Some(name.to_string()))
    };
    assert!(got.contains(&want("check/check.failing", block(checks, "check \"failing\""), "check.failing")), "{got:?}");
    assert!(got.contains(&want("check/terraform_data.guarded", block(checks, "precondition {"), "terraform_data.guarded")), "{got:?}");
    assert_eq!(got.len(), 2, "failures only: {got:?}");
    // --all: passes too, as results of kind pass.
    let (v, _) = sarif(&["checks", "--all", "--format", "sarif", "--chdir", ROOT, PLAN]);
    let kinds: Vec<&str> = v["runs"][0]["results"].as_array().unwrap().iter().map(|r| r["kind"].as_str().unwrap()).collect();
    assert!(kinds.contains(&"pass") && kinds.contains(&"fail"), "{kinds:?}");
}

#[test]
fn github_annotations_and_codequality_carry_file_and_lines() {
    let out = planview(&["gate", "--format", "github", "--chdir", ROOT, PLAN]);
    let text = String::from_utf8(out.stdout).unwrap();
    let count = block("testdata/locate/root/main.tf", "resource \"terraform_data\" \"count\"");
    let want = format!("::error file={},line={},endLine={},title=", count.file, count.line, count.end_line);
    assert!(text.lines().any(|l| l.starts_with(&want) && l.contains("terraform_data.count[2]")), "{text}");
    assert!(text.lines().any(|l| l.starts_with("::error title=") && l.contains("terraform_data.gone")), "no location, no file=: {text}");

    let out = planview(&["checks", "--format", "gitlab-codequality", "--chdir", ROOT, ERRORED]);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let issues = v.as_array().unwrap();
    assert_eq!(issues.len(), 2);
    for i in issues {
        for key in ["description", "check_name", "fingerprint", "severity"] {
            assert!(i[key].is_string(), "{key}: {i}");
        }
    }
    let pre = issues.iter().find(|i| i["check_name"] == "check/terraform_data.guarded").unwrap();
    let want = block("testdata/locate/root/checks.tf", "precondition {");
    assert_eq!(
        (pre["location"]["path"].as_str().unwrap(), pre["location"]["lines"]["begin"].as_u64().unwrap()),
        (want.file.as_str(), u64::from(want.line))
    );
}

#[test]
fn json_gains_a_location_object_where_the_configuration_has_one() {
    let out = planview(&["gate", "--format", "json", "--locations", "--chdir", ROOT, PLAN]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid("gate.schema.json", &v, "gate --locations");
    let violations = v["files"][0]["violations"].as_array().unwrap();
    let count = violations.iter().find(|x| x["address"] == "terraform_data.count[2]").unwrap();
    let want = block("testdata/locate/root/main.tf", "resource \"terraform_data\" \"count\"");
    assert_eq!(count["location"], serde_json::json!({"file": want.file, "line": want.line, "end_line": want.end_line}));
    assert!(violations.iter().find(|x| x["address"] == "terraform_data.gone").unwrap().get("location").is_none());

    let out = planview(&["checks", "--format", "json", "--locations", "--chdir", ROOT, ERRORED]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid("checks.schema.json", &v, "checks --locations");
    assert_eq!(v["checks"][0]["location"]["file"], "testdata/locate/root/checks.tf", "{v}");
    // With --no-locations, JSON is as it was: no configuration is read.
    let out = planview(&["checks", "--format", "json", "--no-locations", "--chdir", ROOT, ERRORED]);
    assert!(!String::from_utf8_lossy(&out.stdout).contains("\"location\""));
}

/// A scratch directory under target/ (removed first).
fn scratch(name: &str) -> PathBuf {
    let dir = root().join("target").join("locate-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn bad_configuration_is_a_warning_and_never_a_wrong_line() {
    let dir = scratch("bad");
    std::fs::write(dir.join("broken.tf"), "resource \"terraform_data\" \"a\" {\n  input = \n}\n").unwrap();
    std::fs::write(dir.join("good.tf"), "\u{feff}# BOM\r\nresource \"terraform_data\" \"b\" {\r\n  input = \"\u{00ff}\"\r\n}\r\n").unwrap();
    let mut bytes = b"resource \"terraform_data\" \"c\" {\n  input = \"".to_vec();
    bytes.extend_from_slice(b"\xff\xfe\"\n}\n");
    std::fs::write(dir.join("latin1.tf"), bytes).unwrap();
    std::fs::write(
        dir.join("mods.tf"),
        "module \"missing\" {\n  source = \"./nowhere\"\n}\nmodule \"remote\" {\n  source = \"hashicorp/x/y\"\n}\n",
    )
    .unwrap();
    let map = SourceMap::load(&dir);
    let shown = |f: &str| crate::common::rel(&dir.join(f));
    assert_eq!(map.locate("terraform_data.a"), None, "the unparsable file gives no location");
    assert_eq!(map.locate("terraform_data.b"), Some(Location { file: shown("good.tf"), line: 2, end_line: 4 }));
    assert_eq!(map.locate("terraform_data.c").map(|l| l.line), Some(1));
    assert_eq!(map.locate("module.missing.terraform_data.x"), None);
    let notes = map.notes.join("\n");
    assert!(notes.contains(&format!("{}:2:", shown("broken.tf"))), "{notes}");
    assert!(notes.contains("module.missing: directory") && notes.contains("init"), "{notes}");
    assert!(notes.contains("module.remote: not installed"), "{notes}");

    // The command: one warning per problem, the findings without location, the verdict unchanged.
    let plan = root().join(PLAN);
    let out = planview(&["gate", "--format", "sarif", "--chdir", dir.to_str().unwrap(), plan.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("planview: warning: source locations:") && err.contains("broken.tf:2:"), "{err}");
}

#[test]
fn no_configuration_changes_nothing_but_one_note() {
    let dir = scratch("empty");
    let plan = root().join(PLAN);
    let with = planview(&["gate", "--format", "json", "--locations", "--chdir", dir.to_str().unwrap(), plan.to_str().unwrap()]);
    let without = planview(&["gate", "--format", "json", plan.to_str().unwrap()]);
    assert_eq!(with.stdout, without.stdout);
    assert_eq!(with.status.code(), without.status.code());
    let err = String::from_utf8_lossy(&with.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no Terraform configuration"), "{err}");
}

#[cfg(unix)]
#[test]
fn symlinked_files_and_modules_outside_the_tree_are_followed() {
    let dir = scratch("links");
    std::fs::create_dir_all(dir.join("root")).unwrap();
    std::fs::create_dir_all(dir.join("shared")).unwrap();
    std::fs::write(dir.join("shared/real.tf"), "\n\nresource \"terraform_data\" \"linked\" {}\n").unwrap();
    std::os::unix::fs::symlink(dir.join("shared/real.tf"), dir.join("root/linked.tf")).unwrap();
    std::fs::write(dir.join("root/main.tf"), "module \"out\" {\n  source = \"../shared\"\n}\n").unwrap();
    let map = SourceMap::load(&dir.join("root"));
    assert!(map.notes.is_empty(), "{:?}", map.notes);
    assert_eq!(map.locate("terraform_data.linked").map(|l| (l.file.ends_with("root/linked.tf"), l.line)), Some((true, 3)));
    let out = map.locate("module.out.terraform_data.linked").unwrap();
    assert!(out.file.ends_with("shared/real.tf") && !out.file.contains("root/.."), "{out:?}");
}

#[test]
fn every_configuration_in_the_test_corpus_parses() {
    let mut dirs = Vec::new();
    let mut stack = vec![root().join("testdata")];
    while let Some(d) = stack.pop() {
        let mut has_config = false;
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            if p.is_dir() {
                stack.push(p);
            } else if name.ends_with(".tf") || name.ends_with(".tf.json") {
                has_config = true;
            }
        }
        if has_config {
            dirs.push(d);
        }
    }
    assert!(dirs.len() > 40, "{} directories", dirs.len());
    for d in &dirs {
        let map = SourceMap::load(d);
        // Modules are followed only where `init` ran; parse errors are the failures here.
        let bad: Vec<&String> = map.notes.iter().filter(|n| n.contains("cannot parse")).collect();
        assert!(bad.is_empty(), "{}: {bad:?}", d.display());
        assert!(map.file_count() > 0, "{}", d.display());
    }
}

/// `location` of the JSON entry whose `key` is `value` in `list`.
fn location_of<'a>(list: &'a Value, key: &str, value: &str) -> &'a Value {
    let entry = list.as_array().unwrap().iter().find(|x| x[key] == value).unwrap_or_else(|| panic!("{value} not in {list}"));
    &entry["location"]
}

fn json_location(l: &Location) -> Value {
    serde_json::json!({"file": l.file, "line": l.line, "end_line": l.end_line})
}

#[test]
fn show_and_summary_json_locate_every_change_by_default() {
    let count = json_location(&block("testdata/locate/root/main.tf", "resource \"terraform_data\" \"count\""));
    let leaf = json_location(&block("testdata/locate/root/modules/net/sub/main.tf", "resource \"terraform_data\" \"leaf\""));
    let each = json_location(&block("testdata/locate/root/main.tf", "resource \"terraform_data\" \"each\""));

    let out = planview(&["show", "--format", "json", "--chdir", ROOT, PLAN]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid("show.schema.json", &v, "show --format json");
    assert_eq!(location_of(&v["resources"], "address", "terraform_data.count[2]"), &count);
    assert_eq!(location_of(&v["resources"], "address", "module.net.module.sub[\"a\"].terraform_data.leaf"), &leaf);
    // Destroyed because its module instance is gone (the call gained for_each): no line.
    assert_eq!(location_of(&v["resources"], "address", "module.net.module.sub.terraform_data.leaf"), &Value::Null);
    assert_eq!(location_of(&v["resources"], "address", "terraform_data.gone"), &Value::Null, "a block that is gone: no line");
    assert!(v["outputs"].as_array().unwrap().iter().all(|o| o["location"]["file"].as_str().is_some()), "{}", v["outputs"]);

    let out = planview(&["summary", "--format", "json", "--chdir", ROOT, PLAN]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid("summary.schema.json", &v, "summary --format json");
    assert_eq!(location_of(&v["resources"], "address", "terraform_data.count[2]"), &count);
    assert_eq!(location_of(&v["resources"], "address", "terraform_data.each[\"c\"]"), &each);
    assert_eq!(location_of(&v["resources"], "address", "terraform_data.gone"), &Value::Null);
    assert!(v["outputs"].as_array().unwrap().iter().all(|o| o["location"]["line"].as_u64().is_some()), "{}", v["outputs"]);

    // The gate's and the checks' JSON too, unasked.
    let out = planview(&["gate", "--format", "json", "--chdir", ROOT, PLAN]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(location_of(&v["files"][0]["violations"], "address", "terraform_data.count[2]"), &count);

    // --no-locations: not read; where there is no configuration, the same
    // bytes, and no note (nothing was asked).
    let empty = scratch("json-default");
    for cmd in ["show", "summary", "gate", "checks"] {
        let off = planview(&[cmd, "--format", "json", "--no-locations", "--chdir", ROOT, PLAN]);
        assert!(!String::from_utf8_lossy(&off.stdout).contains("\"location\""), "{cmd} --no-locations");
        let none = planview(&[cmd, "--format", "json", "--chdir", empty.to_str().unwrap(), PLAN]);
        assert_eq!(none.stdout, off.stdout, "{cmd}: no configuration, JSON as without it");
        assert_eq!(none.status.code(), off.status.code(), "{cmd}");
        assert!(none.stderr.is_empty(), "{cmd}: {}", String::from_utf8_lossy(&none.stderr));
    }
    // Asked for, a directory without configuration is a warning.
    let asked = planview(&["gate", "--format", "json", "--locations", "--chdir", empty.to_str().unwrap(), PLAN]);
    assert!(String::from_utf8_lossy(&asked.stderr).contains("no Terraform configuration"));
    let both = planview(&["gate", "--locations", "--no-locations", PLAN]);
    assert_eq!(both.status.code(), Some(2), "--locations and --no-locations conflict");
}

#[test]
fn a_directory_of_roots_reads_each_roots_configuration_from_its_own_directory() {
    // The two roots declare terraform_data.web on different lines.
    let prod = block("testdata/locate/roots/prod/main.tf", "resource \"terraform_data\" \"web\"");
    let staging = block("testdata/locate/roots/staging/main.tf", "resource \"terraform_data\" \"web\"");
    assert_ne!(prod.line, staging.line);
    let out = planview(&["gate", "--deny", "create", "--format", "json", "testdata/locate/roots"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid("gate.schema.json", &v, "gate on a directory of roots");
    let files = v["files"].as_array().unwrap();
    let of = |name: &str| &files.iter().find(|f| f["file"] == name).unwrap_or_else(|| panic!("{name} in {v}"))["violations"];
    assert_eq!(location_of(of("prod"), "address", "terraform_data.web"), &json_location(&prod));
    assert_eq!(location_of(of("staging"), "address", "terraform_data.web"), &json_location(&staging));
    let out = planview(&["summary", "--format", "json", "testdata/locate/roots"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid("summary.schema.json", &v, "summary on a directory of roots");
    let files = v["files"].as_array().unwrap();
    let of = |name: &str| &files.iter().find(|f| f["file"] == name).unwrap()["resources"];
    assert_eq!(location_of(of("staging"), "address", "terraform_data.web"), &json_location(&staging));
    // SARIF: each on its own root's line.
    let (v, _) = sarif(&["gate", "--deny", "create", "--format", "sarif", "testdata/locate/roots"]);
    let mut at: Vec<(String, Option<u64>)> = results(&v).into_iter().map(|r| (r.1, r.2)).collect();
    at.sort();
    assert_eq!(at, vec![(prod.file.clone(), Some(u64::from(prod.line))), (staging.file.clone(), Some(u64::from(staging.line)))]);
}

/// `comment` in the environment `env` (GitHub's or GitLab's variables, or none).
fn comment(env: &[(&str, &str)]) -> String {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_planview"));
    cmd.args(["comment", "--chdir", ROOT, PLAN]).current_dir(root());
    for var in
        ["GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT", "GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_SHA", "CI_PROJECT_URL", "CI_COMMIT_SHA"]
    {
        cmd.env_remove(var);
    }
    // The checkout's root is the repository's (its `.git`), not a CI variable's.
    for var in ["GITHUB_WORKSPACE", "CI_PROJECT_DIR", "BITBUCKET_CLONE_DIR", "BUILD_SOURCESDIRECTORY"] {
        cmd.env_remove(var);
    }
    cmd.envs(env.iter().copied());
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_comment_links_each_address_to_its_lines_on_the_forge() {
    let count = block("testdata/locate/root/main.tf", "resource \"terraform_data\" \"count\"");
    let check = block("testdata/locate/root/checks.tf", "check \"failing\"");
    let sha = "0123456789abcdef0123456789abcdef01234567";
    let gh = comment(&[("GITHUB_SERVER_URL", "https://github.com"), ("GITHUB_REPOSITORY", "acme/infra"), ("GITHUB_SHA", sha)]);
    let url = |l: &Location| format!("https://github.com/acme/infra/blob/{sha}/{}#L{}-L{}", l.file, l.line, l.end_line);
    assert!(gh.contains(&format!("| destroy | [`terraform_data.count[2]`]({}) |", url(&count))), "{gh}");
    assert!(gh.contains(&format!("[`check.failing`]({})", url(&check))), "{gh}");
    let gl = comment(&[("CI_PROJECT_URL", "https://gitlab.example.com/g/infra"), ("CI_COMMIT_SHA", sha)]);
    let want = format!(
        "[`terraform_data.count[2]`](https://gitlab.example.com/g/infra/-/blob/{sha}/{}#L{}-{})",
        count.file, count.line, count.end_line
    );
    assert!(gl.contains(&want), "{gl}");
    // No forge: the address and its `file:line`; a block that is gone: the address alone.
    let plain = comment(&[]);
    assert!(plain.contains(&format!("| destroy | `terraform_data.count[2]` at `{}:{}` |", count.file, count.line)), "{plain}");
    assert!(plain.contains("| `terraform_data.gone` |"), "{plain}");
    // An environment that would inject markdown or a script: no link at all.
    let bad = comment(&[("GITHUB_SERVER_URL", "javascript:alert(1)//"), ("GITHUB_REPOSITORY", "acme/infra"), ("GITHUB_SHA", sha)]);
    assert_eq!(bad, plain);
}

#[test]
fn replace_drift_and_outputs_json_locate_their_objects_by_default() {
    // Real plans (testdata/real, made by make-fixtures.sh) with the
    // configuration they were made from (their v2/).
    let cases = [
        ("replace", "testdata/real/replace", "replacements", "address"),
        ("drift", "testdata/real/refresh-only-drift", "entries", "address"),
        ("outputs", "testdata/real/refresh-only-drift", "outputs", "name"),
    ];
    let empty = scratch("questions-json");
    for (cmd, dir, list, key) in cases {
        let (conf, plan) = (format!("{dir}/v2"), format!("{dir}/plan.json"));
        let out = planview(&[cmd, "--format", "json", "--chdir", &conf, &plan]);
        assert_eq!(out.status.code(), Some(0), "{cmd}: {}", String::from_utf8_lossy(&out.stderr));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_valid(&format!("{cmd}.schema.json"), &v, cmd);
        let entries = v[list].as_array().unwrap();
        assert!(!entries.is_empty(), "{cmd}: nothing listed: {v}");
        for e in entries {
            let name = e[key].as_str().unwrap();
            let needle = match cmd {
                "outputs" => format!("output \"{name}\""),
                _ => format!("resource \"{}\" \"{}\"", e["type"].as_str().unwrap(), e["name"].as_str().unwrap()),
            };
            let want = json_location(&block(&format!("{conf}/main.tf"), &needle));
            assert_eq!(e["location"], want, "{cmd}: {name}");
        }
        // --no-locations, or no configuration: the same bytes without them, no note.
        let off = planview(&[cmd, "--format", "json", "--no-locations", "--chdir", &conf, &plan]);
        assert!(!String::from_utf8_lossy(&off.stdout).contains("\"location\""), "{cmd} --no-locations");
        let none = planview(&[cmd, "--format", "json", "--chdir", empty.to_str().unwrap(), &plan]);
        assert_eq!(none.stdout, off.stdout, "{cmd}: no configuration, JSON as without it");
        assert!(none.stderr.is_empty(), "{cmd}: {}", String::from_utf8_lossy(&none.stderr));
    }
}

#[test]
fn summary_and_show_table_and_markdown_say_file_and_line_when_the_configuration_is_there() {
    let count = block("testdata/locate/root/main.tf", "resource \"terraform_data\" \"count\"").to_string();
    let text = |args: &[&str]| {
        let out = planview(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    // summary's table: a `source` column; its markdown: a `source` cell.
    let table = text(&["summary", "--width", "0", "--chdir", ROOT, PLAN]);
    let row = table.lines().find(|l| l.contains("terraform_data.count[2]")).unwrap();
    assert!(table.contains("│ source ") && row.contains(&format!("│ {count} ")), "{table}");
    let gone = table.lines().find(|l| l.contains("terraform_data.gone")).unwrap();
    assert!(gone.contains("│ - "), "a block that is gone: no line: {gone}");
    let md = text(&["summary", "--format", "markdown", "--chdir", ROOT, PLAN]);
    assert!(md.contains("| action | address | source | details |"), "{md}");
    assert!(md.contains(&format!("| `terraform_data.count[2]` | `{count}` |")), "{md}");
    // Too narrow for it: the column is left out, the table as without it.
    let narrow = text(&["summary", "--width", "80", "--chdir", ROOT, PLAN]);
    assert!(!narrow.contains("│ source"), "{narrow}");
    assert_eq!(narrow, text(&["summary", "--width", "80", "--no-locations", "--chdir", ROOT, PLAN]));
    // show: after the header's words (text), after the address (markdown).
    let show = text(&["show", "--color", "never", "--chdir", ROOT, PLAN]);
    assert!(show.lines().any(|l| l == format!("- terraform_data.count[2]: destroy ({count})")), "{show}");
    assert!(show.lines().any(|l| l == "- terraform_data.gone: destroy"), "{show}");
    let show_md = text(&["show", "--format", "markdown", "--chdir", ROOT, PLAN]);
    assert!(show_md.contains(&format!("#### `-` `terraform_data.count[2]` at `{count}` — destroy")), "{show_md}");
    // No configuration where the plan is read (or --no-locations): the same bytes as before, no note.
    let empty = scratch("listing");
    for args in [&["summary"][..], &["summary", "--format", "markdown"], &["show"], &["show", "--format", "markdown"]] {
        let mut with_empty = args.to_vec();
        with_empty.extend(["--chdir", empty.to_str().unwrap(), PLAN]);
        let mut off = args.to_vec();
        off.extend(["--no-locations", "--chdir", ROOT, PLAN]);
        let (a, b) = (planview(&with_empty), planview(&off));
        assert_eq!(a.stdout, b.stdout, "{args:?}");
        assert!(a.stderr.is_empty() && !String::from_utf8_lossy(&a.stdout).contains("main.tf"), "{args:?}");
    }
}

/// planview `args` in the environment `env` (GitHub's or GitLab's variables, or none), from the repository's root.
fn with_env(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_planview"));
    cmd.args(args).current_dir(root());
    for var in [
        "GITHUB_STEP_SUMMARY",
        "GITHUB_OUTPUT",
        "GITHUB_SERVER_URL",
        "GITHUB_REPOSITORY",
        "GITHUB_SHA",
        "CI_PROJECT_URL",
        "CI_COMMIT_SHA",
        "GITHUB_WORKSPACE",
        "CI_PROJECT_DIR",
        "BITBUCKET_CLONE_DIR",
        "BUILD_SOURCESDIRECTORY",
    ] {
        cmd.env_remove(var);
    }
    cmd.envs(env.iter().copied());
    let out = cmd.output().unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn summary_and_show_markdown_link_each_address_to_its_lines_on_the_forge() {
    let count = block("testdata/locate/root/main.tf", "resource \"terraform_data\" \"count\"");
    let sha = "0123456789abcdef0123456789abcdef01234567";
    let github = [("GITHUB_SERVER_URL", "https://github.com"), ("GITHUB_REPOSITORY", "acme/infra"), ("GITHUB_SHA", sha)];
    let gitlab = [("CI_PROJECT_URL", "https://gitlab.example.com/g/infra"), ("CI_COMMIT_SHA", sha)];
    let gh_url = format!("https://github.com/acme/infra/blob/{sha}/{}#L{}-L{}", count.file, count.line, count.end_line);
    let gl_url = format!("https://gitlab.example.com/g/infra/-/blob/{sha}/{}#L{}-{}", count.file, count.line, count.end_line);
    let summary = ["summary", "--format", "markdown", "--chdir", ROOT, PLAN];
    let show = ["show", "--format", "markdown", "--chdir", ROOT, PLAN];
    for (env, url) in [(&github[..], &gh_url), (&gitlab[..], &gl_url)] {
        // summary: the address links there, the `source` cell still says `file:line`.
        let (code, md) = with_env(&summary, env);
        assert_eq!(code, Some(0));
        assert!(md.contains(&format!("| [`terraform_data.count[2]`]({url}) | `{count}` |")), "{md}");
        // A change whose block is gone: no link, no line.
        assert!(md.contains("| `terraform_data.gone` | - |"), "{md}");
        // show: the heading's address links there.
        let (code, md) = with_env(&show, env);
        assert_eq!(code, Some(0));
        assert!(md.contains(&format!("#### `-` [`terraform_data.count[2]`]({url}) — destroy")), "{md}");
        assert!(md.contains("#### `-` `terraform_data.gone` — destroy"), "{md}");
    }
    // Neither forge: `main.tf:12` as before; an environment that would
    // inject markdown or a script: the same bytes, no link.
    let bad = [("GITHUB_SERVER_URL", "javascript:alert(1)//"), ("GITHUB_REPOSITORY", "acme/infra"), ("GITHUB_SHA", sha)];
    for args in [&summary, &show] {
        let (_, plain) = with_env(args, &[]);
        assert!(!plain.contains("](http"), "{plain}");
        assert!(plain.contains(&format!("`{count}`")), "{plain}");
        assert_eq!(with_env(args, &bad).1, plain, "{args:?}");
    }
}

#[test]
fn diff_json_locates_each_entry_in_the_new_plans_configuration() {
    // Real plan pairs (testdata/real/plan-pairs, made by make-fixtures.sh):
    // the new plan's configuration beside it.
    let dir = "testdata/real/plan-pairs";
    for (new, conf, want) in [
        ("new-resource.json", "new-resource", vec![("terraform_data.extra", "resource \"terraform_data\" \"extra\"")]),
        ("moved.json", "moved", vec![("terraform_data.runner", "resource \"terraform_data\" \"runner\"")]),
    ] {
        let (old, new, conf) = (format!("{dir}/reviewed.json"), format!("{dir}/{new}"), format!("{dir}/{conf}"));
        let out = planview(&["diff", "--format", "json", "--chdir", &conf, &old, &new]);
        assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_valid("diff.schema.json", &v, &new);
        let entries = v["entries"].as_array().unwrap();
        for (address, needle) in &want {
            let e = entries.iter().find(|e| e["address"] == *address).unwrap_or_else(|| panic!("{address} not in {v}"));
            assert_eq!(e["location"], json_location(&block(&format!("{conf}/main.tf"), needle)), "{new}: {address}");
        }
        // The plan's own entry has no location, and none is guessed.
        for e in entries.iter().filter(|e| e["section"] == "plan") {
            assert!(e.get("location").is_none(), "{e}");
        }
        // --no-locations, or no configuration: the same bytes without them, no note.
        let off = planview(&["diff", "--format", "json", "--no-locations", "--chdir", &conf, &old, &new]);
        assert!(!String::from_utf8_lossy(&off.stdout).contains("\"location\""), "--no-locations");
        let empty = scratch("diff-json");
        let none = planview(&["diff", "--format", "json", "--chdir", empty.to_str().unwrap(), &old, &new]);
        assert_eq!(none.stdout, off.stdout, "no configuration: JSON as without it");
        assert!(none.stderr.is_empty(), "{}", String::from_utf8_lossy(&none.stderr));
    }
}

#[test]
fn a_resource_whose_module_instance_is_gone_is_located_at_no_line() {
    // A real plan (testdata/locate/module-key, its make.sh): module "svc"
    // loses its key b and module "pool" shrinks to one instance. The CLI
    // says `module.svc["b"] is not in configuration`: the block in
    // modules/svc that still declares terraform_data.node for the remaining
    // instances does not declare these two, so they have no line (no
    // `removed` block names them), in every output; the remaining instances
    // are at that block.
    let (root_dir, plan) = ("testdata/locate/module-key/root", "testdata/locate/module-key/plan.json");
    let cli = std::fs::read_to_string(root().join("testdata/locate/module-key/plan.txt")).unwrap();
    assert!(cli.contains("# (because module.svc[\"b\"] is not in configuration)"), "{cli}");
    let gone = ["module.svc[\"b\"].terraform_data.node", "module.pool[1].terraform_data.node"];
    let map = SourceMap::load(Path::new(root_dir));
    assert!(map.notes.is_empty(), "{:?}", map.notes);
    let node = block("testdata/locate/module-key/root/modules/svc/main.tf", "resource \"terraform_data\" \"node\"");
    assert_eq!(map.locate("module.svc[\"a\"].terraform_data.node"), Some(node.clone()));
    assert_eq!(map.locate("module.pool[0].terraform_data.node"), Some(node));
    for a in gone {
        assert_eq!(map.locate_change(a, Some("delete_because_no_module")), None, "{a}");
    }
    let json = |args: &[&str]| -> Value {
        let out = planview(args);
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {}", String::from_utf8_lossy(&out.stderr)))
    };
    let summary = json(&["summary", "--format", "json", "--chdir", root_dir, plan]);
    let show = json(&["show", "--format", "json", "--chdir", root_dir, plan]);
    let (sarif, _) = sarif(&["gate", "--format", "sarif", "--chdir", root_dir, plan]);
    for a in gone {
        let s = location_of(&summary["resources"], "address", a);
        assert!(s.is_null(), "summary: {a}: {s}");
        let r = show["resources"].as_array().unwrap().iter().find(|r| r["address"] == a).unwrap();
        assert!(r.get("location").is_none(), "show: {a}: {r}");
    }
    // The gate's default rule stops both deletes, each without a line.
    let rows = results(&sarif);
    assert_eq!(rows.len(), 2, "{sarif}");
    assert!(rows.iter().all(|r| r.2.is_none()), "{rows:?}");
    let text = String::from_utf8(planview(&["show", "--color", "never", "--chdir", root_dir, plan]).stdout).unwrap();
    assert!(text.lines().any(|l| l == "- module.svc[\"b\"].terraform_data.node: destroy"), "{text}");
}
