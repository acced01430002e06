//! Tests of the blast radius: the real fixture made by terraform, then hand-written configurations
//! for what terraform will not write (cycles) or what one fixture cannot hold at once.

use super::*;

fn plan_of(json: &str) -> Dependents {
    let plan: Plan = serde_json::from_str(json).unwrap();
    of_plan(&plan, None).unwrap()
}

fn addresses(d: &Dependents, of: &str) -> Vec<String> {
    d.of(of).iter().map(|d| d.address.clone()).collect()
}

/// A plan whose configuration is `root_module` and whose changes are `changes`
/// (address, module_address, type, name, index, actions, after_unknown keys).
fn plan(root_module: &str, changes: &[(&str, &str, &str)]) -> String {
    let rcs: Vec<String> = changes
        .iter()
        .map(|(addr, action, unknown)| {
            let a = crate::query::address::Address::parse(addr).unwrap();
            let r = a.resource();
            let modules: Vec<String> = a.steps[..a.steps.len() - 1].iter().map(|s| format!("module.{}", s.name)).collect();
            let (mode, type_) = match r.kind.strip_prefix("data.") {
                Some(t) => ("data", t.to_string()),
                None => ("managed", r.kind.clone()),
            };
            let index = match &r.key {
                None => "null".to_string(),
                Some(crate::query::address::Key::Int(n)) => n.clone(),
                Some(crate::query::address::Key::Str(s)) => serde_json::to_string(s).unwrap(),
            };
            let module = if modules.is_empty() { String::new() } else { format!(r#""module_address":{},"#, serde_json::to_string(&modules.join(".")).unwrap()) };
            let actions = match *action {
                "replace" => r#"["delete","create"]"#.to_string(),
                a => format!(r#"["{a}"]"#),
            };
            let unknown: Vec<String> = unknown.split(',').filter(|u| !u.is_empty()).map(|u| format!(r#""{u}":true"#)).collect();
            format!(
                r#"{{"address":{},{module}"mode":"{mode}","type":"{type_}","name":"{}","index":{index},"change":{{"actions":{actions},"after_unknown":{{{}}}}}}}"#,
                serde_json::to_string(addr).unwrap(),
                r.name,
                unknown.join(",")
            )
        })
        .collect();
    format!(r#"{{"format_version":"1.2","resource_changes":[{}],"configuration":{{"root_module":{root_module}}}}}"#, rcs.join(","))
}

#[test]
fn the_real_fixture_follows_module_inputs_nested_outputs_count_and_guesses_locals() {
    // testdata/dependents: made by terraform 1.11 (make.sh). terraform_data.db is
    // replaced; the plan's own text says which objects change with it.
    let json = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/dependents/plan.json")).unwrap();
    let d = plan_of(&json);
    assert!(d.configured);
    // No source was given: the locals are guessed, and that is said once.
    assert_eq!(d.notes, vec![LOCALS_GUESSED.to_string()]);
    let db = &d.changes["terraform_data.db"];
    let got: Vec<(&str, bool)> = db.dependents.iter().map(|d| (d.address.as_str(), d.through_locals)).collect();
    assert_eq!(
        got,
        vec![
            ("module.app.module.edge.terraform_data.lb", false),
            ("module.app.terraform_data.server[0]", false),
            ("module.app.terraform_data.server[1]", false),
            ("terraform_data.audit", true),
            ("terraform_data.dns", false),
        ],
        "audit reads local.db_addr, which the plan leaves out; after_db (depends_on, unchanged) and unrelated do not change"
    );
    for dep in &db.dependents {
        assert_eq!(dep.unknown, vec!["input".to_string()], "{}: the plan says input becomes unknown", dep.address);
    }
    assert_eq!(db.outputs, vec!["db_address".to_string()]);
    let certain = |of: &str| -> Vec<String> { d.of(of).iter().filter(|x| !x.through_locals).map(|x| x.address.clone()).collect() };
    assert_eq!(certain("module.app.terraform_data.server[0]"), vec!["module.app.module.edge.terraform_data.lb", "terraform_data.dns"]);
    assert!(d.of("module.app.terraform_data.server[1]").is_empty(), "the edge module reads server[0] only");
    // Guessed locals over-approximate: dns is declared in the root, so a local
    // of the root may read it: audit, through local.db_addr, is a guess.
    assert_eq!(addresses(&d, "terraform_data.dns"), vec!["terraform_data.audit"]);
    assert!(certain("terraform_data.dns").is_empty());
    // Every change but no-ops has an entry.
    assert_eq!(d.changes.len(), 6);
    let edges: Vec<(&str, &str)> = d.edges().collect();
    assert!(edges.contains(&("terraform_data.db", "terraform_data.dns")));
}

#[test]
fn exact_locals_from_the_source_drop_the_guess() {
    let json = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/dependents/plan.json")).unwrap();
    let plan: Plan = serde_json::from_str(&json).unwrap();
    let mut refs = LocalRefs::new();
    refs.insert((String::new(), "db_addr".into()), vec!["terraform_data.db.output".into(), "terraform_data.db".into()]);
    refs.insert((String::new(), "static".into()), vec![]);
    let locals = Locals::known(refs);
    let d = of_plan(&plan, Some(&locals)).unwrap();
    assert!(d.notes.is_empty(), "{:?}", d.notes);
    assert_eq!(d.of("terraform_data.db").len(), 5);
    assert!(d.of("terraform_data.db").iter().all(|x| !x.through_locals));
    assert!(d.of("terraform_data.dns").is_empty(), "with the locals known, nothing reads dns");
    assert!(d.of("module.app.terraform_data.server[1]").is_empty());
}

#[test]
fn a_guessed_local_over_approximates_never_under() {
    // `b` names local.x; without the source, local.x may name anything of the module.
    let root = r#"{"resources":[
        {"address":"t.a","mode":"managed","type":"t","name":"a"},
        {"address":"t.b","mode":"managed","type":"t","name":"b","expressions":{"v":{"references":["local.x"]}}}]}"#;
    let d = plan_of(&plan(root, &[("t.a", "replace", ""), ("t.b", "update", "v")]));
    assert_eq!(addresses(&d, "t.a"), vec!["t.b"]);
    assert_eq!(d.of("t.a")[0].unknown, vec!["v".to_string()]);
    assert!(d.of("t.a")[0].through_locals, "a guess, told apart");
    assert_eq!(d.notes, vec![LOCALS_GUESSED.to_string()]);
}

#[test]
fn no_configuration_is_said_once_and_is_not_an_error() {
    let json = r#"{"format_version":"1.2","resource_changes":[{"address":"t.a","mode":"managed","type":"t","name":"a","change":{"actions":["delete"]}}]}"#;
    let d = plan_of(json);
    assert!(!d.configured);
    assert_eq!(d.notes, vec![NO_CONFIGURATION.to_string()]);
    assert!(d.of("t.a").is_empty());
    assert!(d.changes.contains_key("t.a"));
}

#[test]
fn cycles_do_not_loop_and_the_change_is_not_its_own_dependent() {
    let root = r#"{"resources":[
        {"address":"t.a","mode":"managed","type":"t","name":"a","expressions":{"v":{"references":["t.c.id","t.c"]}}},
        {"address":"t.b","mode":"managed","type":"t","name":"b","expressions":{"v":{"references":["t.a.id","t.a"]}}},
        {"address":"t.c","mode":"managed","type":"t","name":"c","expressions":{"v":{"references":["t.b.id","t.b"]}}}]}"#;
    let d = plan_of(&plan(root, &[("t.a", "replace", ""), ("t.b", "update", ""), ("t.c", "update", "")]));
    assert_eq!(addresses(&d, "t.a"), vec!["t.b", "t.c"]);
    assert_eq!(addresses(&d, "t.b"), vec!["t.a", "t.c"]);
}

#[test]
fn an_unchanged_resource_passes_nothing_on() {
    // a -> b -> c, but b does not change: c is not in a's blast radius.
    let root = r#"{"resources":[
        {"address":"t.a","mode":"managed","type":"t","name":"a"},
        {"address":"t.b","mode":"managed","type":"t","name":"b","expressions":{"v":{"references":["t.a.name","t.a"]}}},
        {"address":"t.c","mode":"managed","type":"t","name":"c","expressions":{"v":{"references":["t.b.id","t.b"]}}}]}"#;
    let d = plan_of(&plan(root, &[("t.a", "replace", ""), ("t.b", "no-op", ""), ("t.c", "update", "")]));
    assert!(d.of("t.a").is_empty());
    assert!(!d.changes.contains_key("t.b"), "no-ops have no entry");
}

#[test]
fn an_unkeyed_reference_covers_every_instance_and_a_keyed_one_only_its_own() {
    let root = r#"{"resources":[
        {"address":"t.a","mode":"managed","type":"t","name":"a","count_expression":{"constant_value":2}},
        {"address":"t.all","mode":"managed","type":"t","name":"all","expressions":{"v":{"references":["t.a"]}}},
        {"address":"t.one","mode":"managed","type":"t","name":"one","expressions":{"v":{"references":["t.a[1].id","t.a[1]","t.a"]}}},
        {"address":"t.k","mode":"managed","type":"t","name":"k","for_each_expression":{"constant_value":{"x":1}}},
        {"address":"t.kx","mode":"managed","type":"t","name":"kx","expressions":{"v":{"references":["t.k[\"x\"].id","t.k[\"x\"]","t.k"]}}}]}"#;
    let d = plan_of(&plan(
        root,
        &[
            ("t.a[0]", "replace", ""),
            ("t.a[1]", "replace", ""),
            ("t.all", "update", ""),
            ("t.one", "update", ""),
            ("t.k[\"x\"]", "replace", ""),
            ("t.k[\"y\"]", "replace", ""),
            ("t.kx", "update", ""),
        ],
    ));
    assert_eq!(addresses(&d, "t.a[0]"), vec!["t.all"]);
    assert_eq!(addresses(&d, "t.a[1]"), vec!["t.all", "t.one"]);
    assert_eq!(addresses(&d, "t.k[\"x\"]"), vec!["t.kx"]);
    assert!(d.of("t.k[\"y\"]").is_empty());
}

#[test]
fn module_inputs_outputs_depends_on_and_count_cross_module_boundaries() {
    // root: t.src; module "m" (count from t.src) gets in = t.src.id; its out = t.inner.id;
    // t.user reads module.m.out; t.dep depends_on module.m; module "w" for_each t.src.
    let root = r#"{
      "resources":[
        {"address":"t.src","mode":"managed","type":"t","name":"src"},
        {"address":"t.user","mode":"managed","type":"t","name":"user","expressions":{"v":{"references":["module.m.out","module.m"]}}},
        {"address":"t.dep","mode":"managed","type":"t","name":"dep","depends_on":["module.m"]},
        {"address":"t.alone","mode":"managed","type":"t","name":"alone","expressions":{"v":{"references":["module.m.other","module.m"]}}}],
      "module_calls":{
        "m":{"expressions":{"in":{"references":["t.src.id","t.src"]}},"module":{
          "variables":{"in":{}},
          "resources":[{"address":"t.inner","mode":"managed","type":"t","name":"inner","expressions":{"nested":{"deep":{"references":["var.in"]}}}}],
          "outputs":{"out":{"expression":{"references":["t.inner.id","t.inner"]}},"other":{"expression":{"constant_value":1}}}}},
        "w":{"for_each_expression":{"references":["t.src"]},"module":{
          "resources":[{"address":"t.x","mode":"managed","type":"t","name":"x"}],
          "module_calls":{"g":{"module":{"resources":[{"address":"t.y","mode":"managed","type":"t","name":"y"}]}}}}}}}"#;
    let d = plan_of(&plan(
        root,
        &[
            ("t.src", "replace", ""),
            ("module.m.t.inner", "update", "nested"),
            ("t.user", "update", "v"),
            ("t.dep", "update", ""),
            ("t.alone", "update", ""),
            ("module.w[\"a\"].t.x", "update", ""),
            ("module.w[\"a\"].module.g.t.y", "update", ""),
        ],
    ));
    assert_eq!(addresses(&d, "t.src"), vec!["module.m.t.inner", "module.w[\"a\"].module.g.t.y", "module.w[\"a\"].t.x", "t.dep", "t.user"]);
    let inner = &d.of("t.src")[0];
    assert_eq!(inner.unknown, vec!["nested".to_string()], "the nested block's expression leads to t.src");
    assert_eq!(addresses(&d, "module.m.t.inner"), vec!["t.dep", "t.user"]);
    assert!(!addresses(&d, "t.src").contains(&"t.alone".to_string()), "module.m.other is a constant");
}

#[test]
fn references_are_parsed_as_the_format_writes_them() {
    assert_eq!(parse_reference("var.x[0]"), Some(Ref::Var("x")));
    assert_eq!(parse_reference("local.y"), Some(Ref::Local("y")));
    assert_eq!(parse_reference("module.m[\"k\"].out"), Some(Ref::ModuleOutput("m", "out")));
    assert_eq!(parse_reference("module.m"), Some(Ref::Module("m")));
    assert_eq!(parse_reference("data.t.n[3].a"), Some(Ref::Resource("data.t.n", Some(Key::Int(3)))));
    assert_eq!(parse_reference("t.n[\"a]b\"]"), Some(Ref::Resource("t.n", Some(Key::Str("a]b".into())))));
    assert_eq!(parse_reference("t.n[each.key]"), Some(Ref::Resource("t.n", None)));
    assert_eq!(parse_reference("count.index"), None);
    assert_eq!(parse_reference("each.value"), None);
    assert_eq!(parse_reference("path.module"), None);
    assert_eq!(parse_reference(""), None);
    assert_eq!(parse_reference("t"), None);
    assert_eq!(module_of("module.a[\"x.y\"].module.b[0].t.n", None), "module.a.module.b");
    assert_eq!(module_of("not an address", Some("module.a[\"]\"].module.b")), "module.a.module.b");
}

#[test]
fn a_local_the_source_does_not_declare_stays_a_guess() {
    // The root's source was read but declares no `x` (not this plan's
    // configuration?), module "m"'s was not read: both are guesses, never nothing.
    let root = r#"{"resources":[
        {"address":"t.a","mode":"managed","type":"t","name":"a"},
        {"address":"t.b","mode":"managed","type":"t","name":"b","expressions":{"v":{"references":["local.x"]}}}],
      "module_calls":{"m":{"expressions":{"in":{"references":["t.a.id","t.a"]}},"module":{"variables":{"in":{}},
        "resources":[{"address":"t.c","mode":"managed","type":"t","name":"c","expressions":{"v":{"references":["local.y"]}}}]}}}}"#;
    let json = plan(root, &[("t.a", "replace", ""), ("t.b", "update", ""), ("module.m.t.c", "update", "")]);
    let p: Plan = serde_json::from_str(&json).unwrap();
    let locals = Locals::later(|| Some(LocalRefs::from([((String::new(), "other".into()), vec![])])));
    let d = of_plan(&p, Some(&locals)).unwrap();
    let got: Vec<(&str, bool)> = d.of("t.a").iter().map(|x| (x.address.as_str(), x.through_locals)).collect();
    assert_eq!(got, vec![("module.m.t.c", true), ("t.b", true)]);
    assert_eq!(d.notes, vec![LOCALS_GUESSED.to_string()]);
}

#[test]
fn each_reference_is_taken_whole_and_its_shorter_forms_dropped() {
    // `t.a[1]` and, as a reference of its own, `t.a`: every instance.
    let root = r#"{"resources":[
        {"address":"t.a","mode":"managed","type":"t","name":"a","count_expression":{"constant_value":2}},
        {"address":"t.both","mode":"managed","type":"t","name":"both","expressions":{"v":{"references":["t.a[1].id","t.a[1]","t.a","t.a"]}}},
        {"address":"t.one","mode":"managed","type":"t","name":"one","expressions":{"v":{"references":["t.a[1].id","t.a[1]","t.a"]}}}]}"#;
    let d =
        plan_of(&plan(root, &[("t.a[0]", "replace", ""), ("t.a[1]", "replace", ""), ("t.both", "update", ""), ("t.one", "update", "")]));
    assert_eq!(addresses(&d, "t.a[0]"), vec!["t.both"]);
    assert_eq!(addresses(&d, "t.a[1]"), vec!["t.both", "t.one"]);
}

#[test]
fn references_are_read_from_expressions_and_blocks_never_from_constants() {
    let refs = |json: &str| -> Vec<String> {
        let raw: &serde_json::value::RawValue = serde_json::from_str(json).unwrap();
        let mut out = Vec::new();
        references_in(raw, &mut out);
        out.into_iter().map(Cow::into_owned).collect()
    };
    assert_eq!(refs(r#"{"references":["t.a.id","t.a"]}"#), ["t.a.id", "t.a"]);
    // A constant may hold anything, a `references` key included.
    assert!(refs(r#"{"constant_value":{"references":["t.x"]}}"#).is_empty());
    assert!(refs(r#"{"constant_value":[{"references":["t.x"]}]}"#).is_empty());
    // Nested blocks, lists of blocks, an argument named `references` or `constant_value`.
    assert_eq!(refs(r#"{"inner":{"references":["var.a"]},"constant_value":{"references":["t.c"]}}"#), ["var.a", "t.c"]);
    assert_eq!(refs(r#"[{"x":{"references":["var.a"]}},{"references":{"references":["var.b"]}}]"#), ["var.a", "var.b"]);
    assert_eq!(refs(r#"{"references":["t.n[\"k\\\"\"]"]}"#), [r#"t.n["k\""]"#]);
    assert!(refs(r#""not an expression""#).is_empty());
}

/// The blast radius of some changes (`replace`'s: read twice from the
/// changes' spool, only the answer held) is, entry for entry, what the
/// blast radius of every change says of them: on the real fixture, and on a
/// plan of more changes than are kept in memory (spooled) with keyed and
/// unkeyed references, a guessed local, an unchanged link, an output and
/// instances of one resource that depend on each other's resource; and
/// the blaster's (only the changes that have dependents) is every change's
/// but those without one.
#[test]
fn the_blast_radius_of_some_changes_is_that_of_every_change_spooled_or_not() {
    let fixture = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/dependents/plan.json")).unwrap();
    let root = r#"{"resources":[
        {"address":"t.a","mode":"managed","type":"t","name":"a","count_expression":{"constant_value":3}},
        {"address":"t.many","mode":"managed","type":"t","name":"many","expressions":{"v":{"references":["t.a[1].id","t.a[1]","t.a"]},"w":{"references":["t.c"]}}},
        {"address":"t.all","mode":"managed","type":"t","name":"all","expressions":{"v":{"references":["t.a"]}}},
        {"address":"t.b","mode":"managed","type":"t","name":"b","expressions":{"v":{"references":["t.a.name","t.a"]}}},
        {"address":"t.c","mode":"managed","type":"t","name":"c","expressions":{"v":{"references":["t.b.id","t.b"]},"x":{"references":["local.l"]}}}],
      "outputs":{"o":{"expression":{"references":["t.all.id","t.all"]}}}}"#;
    let n = SPOOL_AT + 100;
    let mut changes: Vec<(String, &str, &str)> = vec![
        ("t.a[0]".into(), "replace", ""),
        ("t.a[1]".into(), "replace", ""),
        ("t.a[2]".into(), "delete", ""),
        ("t.b".into(), "no-op", ""),
        ("t.c".into(), "update", "x"),
        ("t.all".into(), "update", "v,w"),
    ];
    for i in 0..n {
        changes.push((format!("t.many[{}]", n - i), if i % 3 == 0 { "replace" } else { "update" }, "v,w"));
    }
    let refs: Vec<(&str, &str, &str)> = changes.iter().map(|(a, b, c)| (a.as_str(), *b, *c)).collect();
    let mut big = plan(root, &refs);
    big = big.replacen(r#""resource_changes""#, r#""output_changes":{"o":{"actions":["update"]}},"resource_changes""#, 1);
    for (json, spooled) in [(fixture.as_str(), false), (big.as_str(), true)] {
        let p: Plan = serde_json::from_str(json).unwrap();
        let c = Changes::of_plan(&p);
        assert_eq!(c.spooled.is_some(), spooled);
        let every = for_plan(&p, None, &c);
        assert!(every.changes.values().any(|b| !b.dependents.is_empty()));
        // The blaster's (the gate's `max_blast`, `comment`): only the changes that have dependents.
        let with = for_plan_wanted(&p, None, &c, Wanted::WithDependents);
        assert_eq!((with.configured, &with.notes), (every.configured, &every.notes));
        let expect: BTreeMap<String, Blast> =
            every.changes.iter().filter(|(_, b)| !b.dependents.is_empty()).map(|(a, b)| (a.clone(), b.clone())).collect();
        // (In the big plan every change has one: `t.c` reaches its whole module through the guessed local.)
        assert!(!expect.is_empty() && (spooled || expect.len() < every.changes.len()));
        assert_eq!(with.changes, expect, "the changes with dependents");
        let addresses: Vec<&str> = p.resource_changes.iter().map(|rc| rc.address.as_str()).collect();
        for pick in [1, 2, 7, 1000] {
            let wanted: std::collections::HashSet<&str> = addresses.iter().step_by(pick).copied().collect();
            let some = for_plan_of(&p, None, &c, Some(&wanted));
            assert_eq!((some.configured, &some.notes), (every.configured, &every.notes));
            let expect: BTreeMap<String, Blast> =
                every.changes.iter().filter(|(a, _)| wanted.contains(a.as_str())).map(|(a, b)| (a.clone(), b.clone())).collect();
            assert_eq!(some.changes, expect, "every {pick}th change");
        }
    }
    let p: Plan = serde_json::from_str(&big).unwrap();
    let d = for_plan(&p, None, &Changes::of_plan(&p));
    let a1 = &d.changes["t.a[1]"];
    assert_eq!(a1.dependents.len(), n + 2, "every t.many, t.all, and t.c through the guessed local: {:?}", &a1.dependents[..3]);
    assert_eq!(a1.outputs, vec!["o".to_string()]);
    assert!(a1.dependents.iter().filter(|x| x.address.starts_with("t.many")).all(|x| !x.through_locals), "t.many names t.a[1]");
    let a0 = &d.changes["t.a[0]"];
    assert_eq!(a0.dependents.len(), n + 2, "t.all, and t.c through the guessed local, and t.many through t.c");
    assert!(a0.dependents.iter().filter(|x| x.address.starts_with("t.many")).all(|x| x.through_locals), "t.many names t.a[1] only");
}
