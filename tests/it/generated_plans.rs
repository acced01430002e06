//! `summary` on a plan from the benchmark generator (`examples/gen_plan.rs`):
//! its totals equal both the generator's own counts and an independent count
//! made by walking the document as a `serde_json::Value`, read from a file and
//! streamed from a pipe.

use crate::common::*;
use serde_json::Value;

#[allow(dead_code)]
use crate::gen_plan;

/// Counts made without planview's models: the CLI's rules applied to a Value.
#[derive(Debug, Default, PartialEq, Eq)]
struct Independent {
    import: u64,
    add: u64,
    change: u64,
    destroy: u64,
    forget: u64,
    delete_first: u64,
    create_first: u64,
    moved: u64,
    deposed: u64,
    reads: u64,
    with_delete: u64,
}

fn count(doc: &Value) -> Independent {
    let mut c = Independent::default();
    for rc in doc["resource_changes"].as_array().expect("resource_changes") {
        let actions: Vec<&str> = rc["change"]["actions"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
        if actions.contains(&"delete") {
            c.with_delete += 1; // what the CI jq one-liner counts
        }
        if rc["previous_address"].as_str().is_some_and(|p| Some(p) != rc["address"].as_str()) {
            c.moved += 1;
        }
        if rc["deposed"].is_string() {
            c.deposed += 1;
        }
        if rc["mode"] == "data" {
            c.reads += u64::from(actions == ["read"]);
            continue;
        }
        if rc["change"]["importing"].is_object() {
            c.import += 1;
        }
        match actions.as_slice() {
            ["create"] => c.add += 1,
            ["update"] => c.change += 1,
            ["delete"] => c.destroy += 1,
            ["delete", "create"] => {
                c.delete_first += 1;
                c.add += 1;
                c.destroy += 1;
            }
            ["create", "delete"] => {
                c.create_first += 1;
                c.add += 1;
                c.destroy += 1;
            }
            ["forget"] => c.forget += 1,
            _ => {}
        }
    }
    c
}

#[test]
fn generated_plan_totals_equal_an_independent_count() {
    let mut plan = Vec::new();
    let expect = gen_plan::generate(&mut plan, 3 << 20, 3).unwrap();
    let doc: Value = serde_json::from_slice(&plan).expect("the generator writes valid JSON");
    let ind = count(&doc);
    // The plan exercises every kind this test is about.
    for (what, n) in [
        ("import", ind.import),
        ("forget", ind.forget),
        ("delete-then-create", ind.delete_first),
        ("create-before-destroy", ind.create_first),
        ("move", ind.moved),
        ("deposed", ind.deposed),
        ("data read", ind.reads),
        ("drift", expect.drift),
    ] {
        assert!(n > 0, "the generated plan has no {what}");
    }

    let dir = std::env::temp_dir().join(format!("planview-gen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("plan.json");
    std::fs::write(&file, &plan).unwrap();
    let from_file = planview(&["summary", "--format", "json", file.to_str().unwrap()]);
    let from_pipe = planview_with_stdin(&["summary", "--format", "json"], Some(&plan));
    let _ = std::fs::remove_dir_all(&dir);

    for out in [from_file, from_pipe] {
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let s: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_valid("summary.schema.json", &s, "generated plan");
        let t = &s["totals"];
        let got = [&t["import"], &t["add"], &t["change"], &t["destroy"], &t["forget"]].map(|v| v.as_u64().unwrap());
        assert_eq!(got, [ind.import, ind.add, ind.change, ind.destroy, ind.forget], "against the Value count");
        assert_eq!(got, [expect.import, expect.add, expect.change, expect.destroy, expect.forget], "against the generator");
        let a = &s["actions"];
        assert_eq!(a["replace"].as_u64().unwrap(), ind.delete_first + ind.create_first);
        assert_eq!(a["delete"].as_u64().unwrap() + a["replace"].as_u64().unwrap(), ind.with_delete);
        assert_eq!(a["no-op"].as_u64().unwrap(), expect.no_op);
        assert_eq!(s["moved"].as_u64().unwrap(), ind.moved);
        assert_eq!(s["deposed"].as_u64().unwrap(), ind.deposed);
        assert_eq!(s["read"].as_u64().unwrap(), ind.reads);
        assert_eq!(s["drift"].as_u64().unwrap(), doc["resource_drift"].as_array().unwrap().len() as u64);
        assert_eq!(s["drift"].as_u64().unwrap(), expect.drift);
        let c = &s["checks"];
        assert_eq!(
            [&c["pass"], &c["fail"], &c["unknown"]].map(|v| v.as_u64().unwrap()),
            [expect.checks_pass, expect.checks_fail, expect.checks_unknown]
        );
        assert_eq!(s["outputs"].as_array().unwrap().len() as u64, expect.output_changes);
    }
}

#[test]
fn generator_is_deterministic_and_sized() {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    gen_plan::generate(&mut a, 1 << 20, 9).unwrap();
    gen_plan::generate(&mut b, 1 << 20, 9).unwrap();
    assert_eq!(a, b);
    let ratio = a.len() as f64 / f64::from(1 << 20);
    assert!((0.8..1.2).contains(&ratio), "asked 1 MiB, got {} bytes", a.len());
    assert_eq!(gen_plan::parse_size("20M"), Some(20 << 20));
    assert_eq!(gen_plan::parse_size("1G"), Some(1 << 30));
}
