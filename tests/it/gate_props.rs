//! Property test: for random mixes of actions and random policies, the gate's
//! verdict equals a verdict computed from a direct count of the action lists.

use planview::testkit::model::Plan;
use planview::testkit::query::gate::{evaluate, GateAction, Policy};
use proptest::prelude::*;

include!("../support/actions.rs");

/// An action list planview does not know; the generator draws it as list
/// `RECOGNISED.len()`.
const UNKNOWN: &[&str] = &["create", "teleport"];

/// The action list numbered `i` (the last number is `UNKNOWN`).
fn list(i: usize) -> &'static [&'static str] {
    RECOGNISED.get(i).copied().unwrap_or(UNKNOWN)
}

#[derive(Debug, Clone)]
struct Entry {
    data: bool,
    list: usize,
    deposed: bool,
    importing: bool,
    moved: bool,
}

fn entry() -> impl Strategy<Value = Entry> {
    (prop::bool::weighted(0.2), 0..=RECOGNISED.len(), any::<bool>(), prop::bool::weighted(0.2), prop::bool::weighted(0.2))
        .prop_map(|(data, list, deposed, importing, moved)| Entry { data, list, deposed, importing, moved })
}

fn action() -> impl Strategy<Value = GateAction> {
    (0..GateAction::ALL.len()).prop_map(|i| GateAction::ALL[i])
}

fn plan_json(entries: &[Entry], errored: bool) -> String {
    let changes: Vec<String> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let list = list(e.list);
            let actions = list.iter().map(|a| format!("\"{a}\"")).collect::<Vec<_>>().join(",");
            let mode = if e.data { "data" } else { "managed" };
            let prefix = if e.data { "data." } else { "" };
            // Only a delete can be of a deposed object (REALITY).
            let deposed = if e.deposed && list == ["delete"] { r#","deposed":"00abcdef""# } else { "" };
            let importing = if e.importing { r#","importing":{"id":"i-1"}"# } else { "" };
            let moved = if e.moved { format!(r#","previous_address":"{prefix}t.old{i}""#) } else { String::new() };
            format!(
                r#"{{"address":"{prefix}t.r{i}","mode":"{mode}","type":"t","name":"r{i}"{deposed}{moved},"change":{{"actions":[{actions}]{importing}}}}}"#
            )
        })
        .collect();
    format!(r#"{{"format_version":"1.2","errored":{errored},"resource_changes":[{}]}}"#, changes.join(","))
}

/// Managed entries doing `a`, counted straight from the action lists.
fn direct_count(entries: &[Entry], a: GateAction) -> u64 {
    entries
        .iter()
        .filter(|e| !e.data)
        .filter(|e| {
            let l = list(e.list);
            let known = e.list != RECOGNISED.len();
            let create = known && l.contains(&"create");
            let update = l == ["update"];
            let delete = l.contains(&"delete");
            // A replace destroys (`delete`) or forgets (`forget`) the old object.
            let replace = l.len() == 2 && l.contains(&"create") && (l.contains(&"delete") || l.contains(&"forget"));
            let forget = l.contains(&"forget");
            match a {
                GateAction::Create => create,
                GateAction::Update => update,
                GateAction::Delete => delete,
                GateAction::Replace => replace,
                GateAction::Forget => forget,
                GateAction::Import => e.importing,
                GateAction::Move => e.moved,
                // The generated plans invoke no action.
                GateAction::Invoke => false,
                GateAction::Any => create || update || delete || forget || e.importing || e.moved,
            }
        })
        .count() as u64
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn verdict_equals_a_direct_count(
        entries in prop::collection::vec(entry(), 0..24),
        deny in prop::collection::vec(action(), 0..3),
        max in prop::collection::vec((action(), 0u64..4), 0..3),
        errored in prop::bool::weighted(0.1),
        allow_errored in any::<bool>(),
    ) {
        let json = plan_json(&entries, errored);
        let plan: Plan = serde_json::from_str(&json).unwrap();
        let policy = Policy { deny: deny.clone(), max: max.clone(), allow_errored, ..Default::default() };
        let verdict = evaluate(&plan, &policy);

        let unknown = entries.iter().any(|e| e.list == RECOGNISED.len());
        let default_rule = !deny.iter().any(|a| matches!(a, GateAction::Delete | GateAction::Any))
            && !max.iter().any(|(a, _)| *a == GateAction::Delete);
        let mut expect_fail = unknown || (errored && !allow_errored);
        expect_fail |= default_rule && direct_count(&entries, GateAction::Delete) > 0;
        expect_fail |= deny.iter().any(|a| direct_count(&entries, *a) > 0);
        expect_fail |= max.iter().any(|(a, n)| direct_count(&entries, *a) > *n);
        prop_assert_eq!(verdict.passed(), !expect_fail, "{}", json);

        // Per-rule counts agree too (for every action list planview knows).
        if !unknown {
            for a in &deny {
                let n = verdict.violations.iter().filter(|v| v.rule == format!("deny {a}")).count() as u64;
                prop_assert_eq!(n, direct_count(&entries, *a), "deny {}", a);
            }
            for a in GateAction::ALL {
                prop_assert_eq!(verdict.counts.get(a), direct_count(&entries, a), "count {}", a);
            }
        }
    }
}
