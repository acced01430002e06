//! `gate`'s unit tests: the rules over hand-written plans.

use super::*;

fn plan(changes: &str) -> Plan<'_> {
    serde_json::from_str(changes).unwrap()
}

const MIX: &str = r#"{"format_version":"1.2","resource_changes":[
    {"address":"a.create","type":"a","mode":"managed","change":{"actions":["create"]}},
    {"address":"a.upd","type":"a","mode":"managed","change":{"actions":["update"]}},
    {"address":"a.r1","type":"a","mode":"managed","change":{"actions":["delete","create"]},"action_reason":"replace_because_tainted"},
    {"address":"db.r2","type":"db","mode":"managed","change":{"actions":["create","delete"]}},
    {"address":"a.dep","type":"a","mode":"managed","deposed":"abcd","change":{"actions":["delete"]}},
    {"address":"data.x.gone","type":"x","mode":"data","change":{"actions":["delete"]}},
    {"address":"data.x.y","type":"x","mode":"data","change":{"actions":["read"]}},
    {"address":"a.fg","type":"a","mode":"managed","change":{"actions":["forget"]}},
    {"address":"a.mv","previous_address":"a.old","type":"a","mode":"managed","change":{"actions":["no-op"]}},
    {"address":"a.imp","type":"a","mode":"managed","change":{"actions":["no-op"],"importing":{"id":"i-1"}}}]}"#;

fn addresses(v: &PlanVerdict, rule: &str) -> Vec<String> {
    v.violations.iter().filter(|x| x.rule == rule).filter_map(|x| x.address.clone()).collect()
}

#[test]
fn default_denies_replaces_and_deposed_but_not_data_or_forget() {
    let v = evaluate(&plan(MIX), &Policy::default());
    assert_eq!(addresses(&v, "deny delete"), ["a.r1", "db.r2", "a.dep"]);
    assert_eq!(v.verdict, "fail");
    assert_eq!(v.counts.delete, 3);
    assert_eq!(v.counts.create, 3);
    assert_eq!(v.counts.forget, 1);
    assert!(v.violations[2].reason.contains("deposed object abcd"), "{:?}", v.violations[2]);
    assert!(v.violations[0].reason.contains("tainted"));
}

#[test]
fn a_data_mode_on_a_managed_address_is_judged_as_managed() {
    // `mode` says data, the address says managed: the address decides.
    let p = plan(
        r#"{"format_version":"1.2","resource_changes":[
        {"address":"aws_db_instance.main","type":"aws_db_instance","mode":"data","change":{"actions":["delete"]}},
        {"address":"module.m[\"data.x\"].aws_s3_bucket.b","type":"aws_s3_bucket","mode":"data","change":{"actions":["delete","create"]}},
        {"address":"not an address","type":"x","mode":"data","change":{"actions":["delete"]}},
        {"address":"module.m.data.x.y","type":"x","mode":"data","change":{"actions":["delete"]}}]}"#,
    );
    let v = evaluate(&p, &Policy::default());
    assert_eq!(addresses(&v, "deny delete"), ["aws_db_instance.main", "module.m[\"data.x\"].aws_s3_bucket.b", "not an address"]);
    assert_eq!(v.counts.delete, 3);
    let policy = Policy { max: vec![(GateAction::Delete, 0)], ..Default::default() };
    assert!(!evaluate(&p, &policy).passed());
}

#[test]
fn allow_exempts_but_protect_wins() {
    let policy = Policy { allow: vec![Glob::new("*")], protect_types: vec![Glob::new("db")], ..Default::default() };
    let v = evaluate(&plan(MIX), &policy);
    assert!(addresses(&v, "deny delete").is_empty());
    assert_eq!(addresses(&v, "protect-type db"), ["db.r2"]);
}

#[test]
fn explicit_delete_rule_replaces_the_default() {
    let policy = Policy { max: vec![(GateAction::Delete, 3)], ..Default::default() };
    assert!(!policy.default_in_force());
    assert!(evaluate(&plan(MIX), &policy).passed());
    let policy = Policy { max: vec![(GateAction::Delete, 2)], ..Default::default() };
    let v = evaluate(&plan(MIX), &policy);
    assert_eq!(v.violations.len(), 1);
    assert!(v.violations[0].reason.starts_with("3 change(s) would destroy, more than the 2 allowed"));
    // Other action rules keep the default.
    let policy = Policy { deny: vec![GateAction::Create], ..Default::default() };
    assert!(policy.default_in_force());
}

#[test]
fn forget_move_import_are_their_own_actions() {
    for (a, addr) in [(GateAction::Forget, "a.fg"), (GateAction::Move, "a.mv"), (GateAction::Import, "a.imp")] {
        let policy = Policy { deny: vec![a], ..Default::default() };
        let v = evaluate(&plan(MIX), &policy);
        assert_eq!(addresses(&v, &format!("deny {a}")), [addr], "{a}");
    }
}

#[test]
fn allow_exempts_only_from_rules_on_destruction() {
    let policy = Policy { deny: vec![GateAction::Forget, GateAction::Replace], allow: vec![Glob::new("a.*")], ..Default::default() };
    let v = evaluate(&plan(MIX), &policy);
    assert_eq!(addresses(&v, "deny forget"), ["a.fg"]);
    assert_eq!(addresses(&v, "deny replace"), ["db.r2"]);
    assert_eq!(addresses(&v, "deny delete"), ["db.r2"]);
}

#[test]
fn a_move_does_not_carry_an_object_out_of_protection_or_into_allowance() {
    let p = plan(
        r#"{"format_version":"1.2","resource_changes":[
        {"address":"scratch.x","previous_address":"prod.db","type":"t","mode":"managed","change":{"actions":["delete","create"]}}]}"#,
    );
    let policy = Policy { protect: vec![Glob::new("prod.*")], allow: vec![Glob::new("scratch.*")], ..Default::default() };
    let v = evaluate(&p, &policy);
    assert_eq!(addresses(&v, "protect prod.*"), ["scratch.x"]);
    assert_eq!(addresses(&v, "deny delete"), ["scratch.x"], "allowed only if both addresses are");
    let policy = Policy { max: vec![(GateAction::Replace, 0)], allow: vec![Glob::new("scratch.*")], ..Default::default() };
    assert_eq!(evaluate(&p, &policy).violations.iter().filter(|x| x.rule == "max replace=0").count(), 1);
    let policy = Policy { allow: vec![Glob::new("scratch.*"), Glob::new("prod.*")], ..Default::default() };
    assert!(evaluate(&p, &policy).passed(), "both addresses allowed");
}

#[test]
fn unknown_action_lists_fail_closed_even_when_allowed() {
    let p = plan(r#"{"format_version":"1.2","resource_changes":[{"address":"a.b","change":{"actions":["create","teleport"]}}]}"#);
    let policy = Policy { allow: vec![Glob::new("*")], ..Default::default() };
    let v = evaluate(&p, &policy);
    assert_eq!(v.violations.len(), 1);
    assert_eq!(v.violations[0].rule, "recognised-actions");
    assert_eq!(v.violations[0].action, "create+teleport");
}

#[test]
fn policy_file_rejects_typos_and_unknown_actions() {
    assert!(PolicyFile::parse(r#"{"protct":["x"]}"#).unwrap_err().0.contains("unknown field"));
    assert!(PolicyFile::parse(r#"{"deny":["explode"]}"#).is_err());
    assert!(PolicyFile::parse(r#"{"max":{"delete":-1}}"#).is_err());
    // Not an object: never an empty policy.
    for (text, at) in [("[]", (1, 1)), ("\n  [{\"deny\":[]}]", (2, 3)), ("null", (1, 1)), ("\"x\"", (1, 1))] {
        let (msg, place) = PolicyFile::parse(text).unwrap_err();
        assert!(msg.contains("a policy must be a JSON object"), "{text}: {msg}");
        assert_eq!(place, Some(at), "{text}");
    }
    // A key twice in one object: an error where the second is, at any level.
    let (msg, at) = PolicyFile::parse("{\"max\": {\"delete\": 0,\n  \"delete\": 100}}").unwrap_err();
    assert!(msg.contains("duplicate key `delete`"), "{msg}");
    assert_eq!(at, Some((2, 10)));
    let (msg, at) = PolicyFile::parse(r#"{"deny":["create"],"deny":[]}"#).unwrap_err();
    assert!(msg.contains("duplicate") && msg.contains("deny"), "{msg}");
    assert!(at.is_some());
    // The same key in two objects is no duplicate.
    PolicyFile::parse(r#"{"max":{"delete":1},"deny":["delete"],"protect":["delete"]}"#).unwrap();
    let f = PolicyFile::parse(r#"{"$schema":"x","deny":["forget"],"max":{"replace":2},"drift":"deny"}"#).unwrap();
    let mut p = Policy { drift: Some(DriftPolicy::Allow), ..Default::default() };
    p.merge_file(&f);
    assert_eq!(p.deny, [GateAction::Forget]);
    assert_eq!(p.max, [(GateAction::Replace, 2)]);
    assert_eq!(p.drift, Some(DriftPolicy::Allow), "the flag wins over the file");
}

#[test]
fn policy_error_quoting_a_key_is_one_line_and_cannot_fake_a_hint() {
    let (msg, _) = PolicyFile::parse("{\"x\\n  hint: all fine\\u001b[2J\": 1}").unwrap_err();
    assert_eq!(msg.lines().count(), 1, "{msg}");
    assert!(msg.contains("x\\n  hint: all fine\\x1B[2J"), "{msg}");
    assert_eq!(crate::sanitize::terminal_hazard(msg.as_bytes(), false), None);
}

#[test]
fn fail_on_checks_reads_condition_results_and_fails_closed_on_unknown_statuses() {
    let policy = Policy { fail_on_checks: true, ..Default::default() };
    // Terraform 1.2-1.4: no `checks`, only `condition_results`.
    let p = plan(
        r#"{"format_version":"1.1","condition_results":[
        {"address":"a.b","condition_type":"ResourcePrecondition","result":false,"unknown":false,"error_message":"too small"},
        {"address":"a.c","condition_type":"ResourcePrecondition","result":true,"unknown":false}]}"#,
    );
    let v = evaluate(&p, &policy);
    assert_eq!(addresses(&v, "fail-on-checks"), ["a.b"]);
    assert!(v.violations[0].reason.contains("too small"));
    // A status planview does not know, a missing status, an unreadable
    // condition result: each fails the gate.
    for json in [
        r#"{"format_version":"1.2","checks":[{"address":{"kind":"resource","to_display":"a.b"},"status":"flaky"}]}"#,
        r#"{"format_version":"1.2","checks":[{"address":{"kind":"resource","to_display":"a.b"},"status":"pass","instances":[{"address":{"to_display":"a.b"}}]}]}"#,
        r#"{"format_version":"1.1","condition_results":[{"address":"a.b","condition_type":"ResourcePrecondition"}]}"#,
        r#"{"format_version":"1.1","condition_results":[7]}"#,
        r#"{"format_version":"1.1","condition_results":"x"}"#,
    ] {
        let v = evaluate(&plan(json), &policy);
        assert_eq!(v.violations.len(), 1, "{json}: {:?}", v.violations);
        assert_eq!(v.violations[0].rule, "fail-on-checks");
        assert!(v.violations[0].reason.contains("fails closed"), "{:?}", v.violations[0]);
    }
    // pass and unknown do not fail.
    let p = plan(r#"{"format_version":"1.2","checks":[{"address":{"kind":"check","to_display":"check.x"},"status":"unknown"}]}"#);
    assert!(evaluate(&p, &policy).passed());
}

#[test]
fn unreadable_deferred_changes_and_invocations_fail_closed() {
    for json in [
        r#"{"format_version":"1.2","deferred_changes":[{"reason":"x"}]}"#,
        r#"{"format_version":"1.2","deferred_changes":{"a":1}}"#,
        r#"{"format_version":"1.2","deferred_changes":[{"reason":"x","resource_change":7}]}"#,
        r#"{"format_version":"1.2","action_invocations":[{"type":"t"}]}"#,
        r#"{"format_version":"1.2","deferred_action_invocations":[{"reason":"x"}]}"#,
    ] {
        let policy = Policy { allow_incomplete: true, allow: vec![Glob::new("*")], ..Default::default() };
        let v = evaluate(&plan(json), &policy);
        assert_eq!(v.violations.len(), 1, "{json}: {:?}", v.violations);
        assert_eq!((v.violations[0].rule.as_str(), v.violations[0].action.as_str()), ("recognised-actions", "unreadable"), "{json}");
    }
}

#[test]
fn deferred_changes_are_judged_and_make_the_plan_incomplete() {
    let p = plan(
        r#"{"format_version":"1.2","complete":true,"deferred_changes":[
        {"reason":"provider_config_unknown","resource_change":{"address":"a.b","type":"a","mode":"managed","change":{"actions":["delete"]}}}]}"#,
    );
    let v = evaluate(&p, &Policy::default());
    assert_eq!(addresses(&v, "deny delete"), ["a.b"]);
    assert!(v.violations[0].reason.starts_with("deferred to a later plan (provider_config_unknown)"), "{:?}", v.violations[0]);
    assert_eq!(v.violations.iter().filter(|x| x.rule == "complete").count(), 1, "deferred means incomplete");
    assert_eq!(v.counts.delete, 1);
    let policy = Policy { allow_incomplete: true, allow: vec![Glob::new("a.*")], ..Default::default() };
    assert!(evaluate(&p, &policy).passed());
}

#[test]
fn invocations_are_their_own_action_and_part_of_any() {
    let p = plan(
        r#"{"format_version":"1.2","action_invocations":[
        {"address":"action.t.a","type":"t","name":"a","invoke_action_trigger":{}},
        {"address":"action.t.b","type":"t","name":"b","lifecycle_action_trigger":{"triggering_resource_address":"x.y","action_trigger_event":"after_create"}}]}"#,
    );
    assert!(evaluate(&p, &Policy::default()).passed());
    for a in [GateAction::Invoke, GateAction::Any] {
        let v = evaluate(&p, &Policy { deny: vec![a], ..Default::default() });
        assert_eq!(addresses(&v, &format!("deny {a}")), ["action.t.a", "action.t.b"]);
    }
    let v = evaluate(&p, &Policy { max: vec![(GateAction::Invoke, 1)], ..Default::default() });
    assert_eq!(v.violations.len(), 1);
    assert!(evaluate(&p, &Policy { max: vec![(GateAction::Invoke, 2)], ..Default::default() }).passed());
    assert_eq!((v.counts.invoke, v.counts.any), (2, 2));
    let v = evaluate(&p, &Policy { deny: vec![GateAction::Invoke], ..Default::default() });
    assert!(v.violations[1].reason.contains("triggered by after_create of x.y"), "{:?}", v.violations[1]);
}

#[test]
fn action_names_round_trip() {
    for a in GateAction::ALL {
        assert_eq!(GateAction::parse(a.as_str()), Some(a));
        let json = serde_json::to_string(&a).unwrap();
        assert_eq!(json, format!("\"{a}\""));
    }
    assert_eq!(GateAction::parse("destroy"), None);
}
