//! `replace`: every resource the plan replaces, in which order, why, and the
//! attribute paths that force it (`replace_paths`) with their values.

use crate::filter::Filter;
use crate::model::Document;
use crate::model::{ChangeKind, Plan, ReplaceOrder, ResourceChange};
use crate::query::attr::{AttrChange, ParsedChange};
use crate::query::dependents::{self, Changes, Dependent, Dependents};
use crate::query::values::Visibility;
use serde::Serialize;

/// The replacements of one plan.
#[derive(Debug, Serialize)]
pub struct ReplaceReport {
    pub kind: &'static str,
    pub file: String,
    pub format_version: String,
    pub terraform_version: Option<String>,
    pub errored: bool,
    /// Replacements listed (after the filters).
    pub count: u64,
    pub delete_before_create: u64,
    pub create_before_destroy: u64,
    pub replacements: Vec<Replacement>,
    /// Said once about the replacements' dependents (no configuration; locals
    /// guessed): `null` when nothing needs saying or nothing is replaced.
    pub dependents_note: Option<String>,
}

/// One replaced resource instance.
#[derive(Debug, Serialize)]
pub struct Replacement {
    pub address: String,
    pub previous_address: Option<String>,
    pub module_address: Option<String>,
    pub mode: String,
    #[serde(rename = "type")]
    pub type_: String,
    pub name: String,
    pub index: Option<serde_json::Value>,
    pub provider_name: Option<String>,
    pub deposed: Option<String>,
    pub order: ReplaceOrder,
    /// `destroy then create` or `create before destroy`.
    pub order_words: &'static str,
    /// The raw `action_reason` code (`null` when the plan gives none).
    pub reason: Option<String>,
    /// The reason in words (the raw code when unknown).
    pub reason_words: String,
    pub importing: bool,
    /// The paths that force the replacement, with their values.
    pub paths: Vec<AttrChange>,
    /// What the replacement drags along: the other changes whose configuration
    /// refers to it ([`crate::query::dependents`]).
    pub dependents: Vec<Dependent>,
    /// Where the object is declared in the configuration, when it was read
    /// and holds it (set by the run: `crate::locate`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<crate::model::Location>,
}

pub(crate) fn order_words(o: ReplaceOrder) -> &'static str {
    match o {
        ReplaceOrder::DeleteBeforeCreate => "destroy then create",
        ReplaceOrder::CreateBeforeDestroy => "create before destroy",
    }
}

#[cfg(any(test, feature = "testkit"))]
pub fn replace(doc: &Document<'_>, filter: &Filter, vis: &Visibility) -> Result<ReplaceReport, String> {
    let changes = match doc {
        Document::Plan(p) => Changes::of_plan(p),
        Document::State(_) => Changes::default(),
    };
    replace_with_changes(doc, filter, vis, &changes, None, &mut |_| Ok(()))
}

/// The changes of a streamed plan that were spooled, not put in it: each
/// given to the function passed, in document order.
pub(crate) type MoreChanges<'s> = &'s mut dyn FnMut(&mut dyn FnMut(&ResourceChange<'_>)) -> Result<(), String>;

/// [`replace`] of a document whose `resource_changes` may hold only the
/// replacements (streamed), or none of them when they were spooled (`more`
/// gives them, one at a time): `changes` has every change, for the dependents.
pub(crate) fn replace_with_changes(
    doc: &Document<'_>,
    filter: &Filter,
    vis: &Visibility,
    changes: &Changes,
    locals: Option<&dependents::Locals>,
    more: MoreChanges<'_>,
) -> Result<ReplaceReport, String> {
    let Document::Plan(p) = doc else {
        return Err("`replace` reads a plan, and this is a state: run `show -json` on a saved plan file".into());
    };
    let mut r = replace_plan(p, filter, vis, more)?;
    // Without replacements there are no dependents to name: the graph is not built.
    if !r.replacements.is_empty() {
        // Only the replacements' blast radius: the changes are read from
        // their spool, and only the answer is held.
        let d = {
            let wanted: std::collections::HashSet<&str> = r.replacements.iter().map(|x| x.address.as_str()).collect();
            dependents::for_plan_of(p, locals, changes, Some(&wanted))
        };
        add_dependents(&mut r, &d);
    }
    Ok(r)
}

/// The replacements of `p`'s `resource_changes`, then those among the
/// changes `more` gives (spooled, when streamed).
pub(crate) fn replace_plan(p: &Plan<'_>, filter: &Filter, vis: &Visibility, more: MoreChanges<'_>) -> Result<ReplaceReport, String> {
    let mut replacements: Vec<Replacement> =
        p.resource_changes.iter().filter(|rc| filter.matches_change(rc)).filter_map(|rc| replacement(rc, vis)).collect();
    more(&mut |rc| {
        if filter.matches_change(rc) {
            replacements.extend(replacement(rc, vis));
        }
    })?;
    Ok(report(p, replacements))
}

/// The report of `p` listing `replacements`.
fn report(p: &Plan<'_>, replacements: Vec<Replacement>) -> ReplaceReport {
    let n = |o: ReplaceOrder| replacements.iter().filter(|r| r.order == o).count() as u64;
    ReplaceReport {
        kind: "replace",
        file: String::new(),
        format_version: p.format_version.clone(),
        terraform_version: p.terraform_version.clone(),
        errored: p.errored,
        count: replacements.len() as u64,
        delete_before_create: n(ReplaceOrder::DeleteBeforeCreate),
        create_before_destroy: n(ReplaceOrder::CreateBeforeDestroy),
        replacements,
        dependents_note: None,
    }
}

/// Attach each replacement's dependents (and the note said once).
pub(crate) fn add_dependents(r: &mut ReplaceReport, d: &Dependents) {
    for x in &mut r.replacements {
        x.dependents = d.of(&x.address).to_vec();
    }
    if !r.replacements.is_empty() {
        r.dependents_note = d.notes.first().cloned();
    }
}

fn replacement(rc: &ResourceChange<'_>, vis: &Visibility) -> Option<Replacement> {
    let ChangeKind::Replace(order) = rc.kind() else { return None };
    let pc = ParsedChange::of(&rc.change);
    Some(Replacement {
        address: rc.address.clone(),
        previous_address: rc.previous_address.clone().filter(|x| *x != rc.address),
        module_address: rc.module_address.clone(),
        mode: rc.mode.as_str().to_string(),
        type_: rc.type_.clone(),
        name: rc.name.clone(),
        index: rc.index.clone(),
        provider_name: rc.provider_name.clone(),
        deposed: rc.deposed.clone(),
        order,
        order_words: order_words(order),
        reason: rc.action_reason.as_ref().map(|r| r.code().to_string()),
        reason_words: rc.action_reason.as_ref().map_or_else(|| "no reason given in the plan".to_string(), |r| r.words()),
        importing: rc.change.importing.is_some(),
        paths: rc.change.replace_paths.iter().map(|path| AttrChange::at(&pc, path, vis)).collect(),
        dependents: Vec::new(),
        location: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_orders_reasons_and_paths() {
        let p: Plan = serde_json::from_str(
            r#"{"format_version":"1.2","resource_changes":[
            {"address":"aws_instance.a","mode":"managed","type":"aws_instance","name":"a","action_reason":"replace_because_cannot_update",
             "change":{"actions":["delete","create"],"replace_paths":[["root_block_device",0,"volume_size"],["tags","kubernetes.io/name"],["user_data"]],
               "before":{"root_block_device":[{"volume_size":8}],"tags":{"kubernetes.io/name":"x"},"user_data":"s3cr3t-data"},
               "after":{"root_block_device":[{"volume_size":16}],"tags":{"kubernetes.io/name":"y"}},
               "after_unknown":{"user_data":true},"before_sensitive":{"user_data":true},"after_sensitive":{}}},
            {"address":"aws_instance.b","mode":"managed","type":"aws_instance","name":"b","action_reason":"replace_because_of_the_moon",
             "change":{"actions":["create","delete"]}},
            {"address":"aws_instance.c","mode":"managed","type":"aws_instance","name":"c","change":{"actions":["update"]}}]}"#,
        )
        .unwrap();
        let r = replace_plan(&p, &Filter::default(), &Visibility::default(), &mut |_| Ok(())).unwrap();
        assert_eq!((r.count, r.delete_before_create, r.create_before_destroy), (2, 1, 1));
        let a = &r.replacements[0];
        assert_eq!(a.reason_words, "an attribute cannot be updated in place");
        let lines: Vec<String> = a.paths.iter().map(|x| format!("{}: {}", x.path, x.arrow())).collect();
        assert_eq!(
            lines,
            vec![
                "root_block_device[0].volume_size: 8 -> 16",
                r#"tags["kubernetes.io/name"]: "x" -> "y""#,
                "user_data: (sensitive value) -> (known after apply)",
            ]
        );
        let b = &r.replacements[1];
        assert_eq!((b.order, b.reason_words.as_str()), (ReplaceOrder::CreateBeforeDestroy, "replace_because_of_the_moon"));
        assert!(b.paths.is_empty());
    }
}
