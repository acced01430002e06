//! `show`'s action invocations (Terraform 1.14+): each with its configuration
//! as a diff tree, placed as the CLI places them (internal/command/jsonformat
//! plan.go and diff.go, hashicorp/terraform 883c7221ee2e): a lifecycle
//! trigger's invocations inside its resource's block, before or after the
//! change; `apply -invoke`'s after the resources.

use crate::model::{ActionInvocation, Plan, TriggerEvent};
use crate::query::diff::{self, DiffOptions, FlatChange, Marks, Node};
use crate::query::values::{parse_raw, Visibility};

/// When an invocation runs, relative to its trigger.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Trigger {
    /// A lifecycle `action_trigger` of `resource`: `before` or after its change
    /// (`None`: an event planview does not know, shown apart).
    Lifecycle { resource: String, event: String, before: Option<bool> },
    /// `apply -invoke`, called from a resource (Terraform 1.16+) or not.
    Invoke { calling: Option<String> },
    /// Neither trigger is given.
    Unknown,
}

/// One action invocation as `show` renders it.
#[derive(Debug)]
pub(crate) struct InvocationDiff {
    pub address: String,
    pub type_: String,
    pub name: String,
    pub trigger: Trigger,
    /// `on_failure` as written (Terraform 1.16+).
    pub on_failure: Option<String>,
    /// The configuration (unknown values known after apply, sensitive ones
    /// masked); `None` when the plan has no `config_values`.
    pub config: Option<Node>,
    /// The configuration's leaves with their paths (for JSON).
    pub config_leaves: Vec<FlatChange>,
}

impl InvocationDiff {
    /// The lifecycle invocations of `address` that run before (`Some(true)`),
    /// after (`Some(false)`) its change, or on an event planview does not
    /// know (`None`), in the CLI's order (action_trigger block, then list index:
    /// the plan's order, which Terraform writes sorted).
    pub(crate) fn of_resource<'r>(all: &'r [InvocationDiff], address: &str, before: Option<bool>) -> Vec<&'r InvocationDiff> {
        all.iter()
            .filter(|i| matches!(&i.trigger, Trigger::Lifecycle { resource, before: b, .. } if resource == address && *b == before))
            .collect()
    }

    /// Invocations not tied to a resource's block: `apply -invoke`, and
    /// those without a trigger.
    pub(crate) fn invoked(all: &[InvocationDiff]) -> Vec<&InvocationDiff> {
        all.iter().filter(|i| matches!(i.trigger, Trigger::Invoke { .. } | Trigger::Unknown)).collect()
    }
}

/// The invocations `show` renders: `action_invocations` (deferred ones are
/// not invoked by this plan, as the CLI leaves them out), unreadable ones
/// left to `summary` and `gate`.
pub(crate) fn invocations(plan: &Plan<'_>, vis: &Visibility) -> Vec<InvocationDiff> {
    let (all, _) = plan.action_invocations();
    all.iter().filter(|a| a.deferred_reason.is_none()).map(|a| invocation(a, vis)).collect()
}

fn invocation(a: &ActionInvocation<'_>, vis: &Visibility) -> InvocationDiff {
    let trigger = if let Some(t) = &a.lifecycle_action_trigger {
        let event = t.action_trigger_event.clone().unwrap_or_default();
        let parsed = TriggerEvent::parse(&event);
        let before = if parsed.is_before() {
            Some(true)
        } else if parsed.is_after() {
            Some(false)
        } else {
            None
        };
        Trigger::Lifecycle { resource: t.triggering_resource_address.clone().unwrap_or_default(), event, before }
    } else if let Some(t) = &a.invoke_action_trigger {
        Trigger::Invoke { calling: t.calling_resource_address.clone().filter(|c| !c.is_empty()) }
    } else {
        Trigger::Unknown
    };
    let values = parse_raw(a.config_values);
    // An unreadable marker fails closed: everything is treated as sensitive.
    let sensitive = match (a.config_sensitive, parse_raw(a.config_sensitive)) {
        (Some(_), None) => Some(serde_json::Value::Bool(true)),
        (_, s) => s,
    };
    let unknown = parse_raw(a.config_unknown);
    let (config, config_leaves) = match &values {
        Some(v) if !v.is_null() => {
            let marks = Marks { before_sensitive: None, after_sensitive: sensitive.as_ref(), after_unknown: unknown.as_ref() };
            let dopts = DiffOptions { vis, full: true, replace_paths: &[], block_root: true, objects_by_content: false, legacy: false };
            // The configuration as a create: every value shown, none hidden.
            let mut root = diff::diff(None, Some(v), marks, &dopts);
            let mut leaves = diff::flatten(&root, None, Some(v), vis);
            diff::mask_keys(&mut root, &mut leaves, vis);
            (Some(root), leaves)
        }
        _ => (None, Vec::new()),
    };
    InvocationDiff {
        address: a.address.clone(),
        type_: a.type_.clone(),
        name: a.name.clone(),
        trigger,
        on_failure: a.on_failure().map(str::to_string),
        config,
        config_leaves,
    }
}
