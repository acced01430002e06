//! What a query does with a plan, one piece at a time ([`PlanVisitor`]), the
//! same whether the plan was read whole ([`visit_plan`]) or streamed
//! (`read::stream`).

use super::{Change, CheckObject, Plan, ResourceChange, ResourceValue};

/// What a query does with a plan, one piece at a time. Every method has an empty
/// default, so a query implements only what it needs.
///
/// Order: `on_drift` and `on_resource_change` for each element in document order
/// (terraform writes `resource_drift` first), then `on_output_change` for each
/// output (by name), `on_checks` once when the plan has `checks`, and `on_header`
/// last: a plan's flags (`errored`, `applyable`, ...) come at the end of the
/// document, so they are only known then.
pub trait PlanVisitor {
    fn on_resource_change(&mut self, _rc: &ResourceChange<'_>) {}
    fn on_drift(&mut self, _rc: &ResourceChange<'_>) {}
    fn on_output_change(&mut self, _name: &str, _change: &Change<'_>) {}
    fn on_checks(&mut self, _checks: &[CheckObject]) {}
    /// A resource instance of `planned_values` or `prior_state` (its values and
    /// `sensitive_values`: a data source read during planning is marked only there).
    fn on_values_resource(&mut self, _r: &ResourceValue<'_>) {}
    /// Instead of [`PlanVisitor::on_values_resource`], when no visitor
    /// [needs every one](PlanVisitor::needs_every_values_resource): a
    /// resource's `values` (`None`: absent or `null`) and `sensitive_values`
    /// (which marks something) as their text, found over the structural
    /// index without serde, for the secret collector.
    fn on_values_marked(&mut self, _values: Option<&str>, _marks: &str) {}
    /// The text of each streamed element (after `on_drift`/`on_resource_change`
    /// with its parse): a visitor that answers at the end, once every secret
    /// is known, keeps the text of the elements it needs ([`Keep`]).
    fn on_element(&mut self, _drift: bool, _rc: &ResourceChange<'_>, _text: &str) {}
    /// The rest of the plan. When streamed, its `resource_changes` and
    /// `resource_drift` are empty (they went to the methods above),
    /// `planned_values` holds only its `outputs` and `prior_state` only its
    /// `values.outputs` (their resources went to `on_values_resource`), and
    /// `proposed_unknown` is `None`.
    fn on_header(&mut self, _plan: &Plan<'_>) {}
    /// The module tree of `prior_state`, as it streams by (for `state
    /// --prior`): each module's start, its resources (also passed to
    /// `on_values_resource`), its end with its address (which terraform writes
    /// after its resources), and the first thing a whole read of `prior_state`
    /// would refuse ([`Prior::Refused`]).
    fn on_prior(&mut self, _event: Prior<'_>) {}
    /// Whether every resource of `planned_values` and `prior_state` must reach
    /// [`PlanVisitor::on_values_resource`] and [`PlanVisitor::on_prior`]. When
    /// no visitor says so, the streaming walker skips those whose
    /// `sensitive_values` mark nothing over its structural index, without
    /// serde: the secret collector, the one user of their values, finds
    /// nothing in them.
    fn needs_every_values_resource(&self) -> bool {
        false
    }
    /// Whether `planned_values` and `prior_state` are read at all. A visitor
    /// of a later pass that needs neither their secrets (the first pass found
    /// them) nor their outputs says no, and the streaming walker skips them
    /// over its structural index (the skeleton holds `null` for them).
    fn reads_values(&self) -> bool {
        true
    }
}

/// What [`PlanVisitor::on_prior`] is told.
#[derive(Debug)]
pub enum Prior<'e> {
    Module,
    Resource(&'e ResourceValue<'e>),
    EndModule(Option<&'e str>),
    /// Why `prior_state` would not read as a state (serde_json's message, as
    /// a whole read words it); said once, for the first such place.
    Refused(String),
}

/// Two visitors fed together (e.g. a query and the secret collector).
impl<A: PlanVisitor, B: PlanVisitor> PlanVisitor for (A, B) {
    fn on_resource_change(&mut self, rc: &ResourceChange<'_>) {
        self.0.on_resource_change(rc);
        self.1.on_resource_change(rc);
    }
    fn on_drift(&mut self, rc: &ResourceChange<'_>) {
        self.0.on_drift(rc);
        self.1.on_drift(rc);
    }
    fn on_output_change(&mut self, name: &str, change: &Change<'_>) {
        self.0.on_output_change(name, change);
        self.1.on_output_change(name, change);
    }
    fn on_checks(&mut self, checks: &[CheckObject]) {
        self.0.on_checks(checks);
        self.1.on_checks(checks);
    }
    fn on_values_resource(&mut self, r: &ResourceValue<'_>) {
        self.0.on_values_resource(r);
        self.1.on_values_resource(r);
    }
    fn on_values_marked(&mut self, values: Option<&str>, marks: &str) {
        self.0.on_values_marked(values, marks);
        self.1.on_values_marked(values, marks);
    }
    fn on_element(&mut self, drift: bool, rc: &ResourceChange<'_>, text: &str) {
        self.0.on_element(drift, rc, text);
        self.1.on_element(drift, rc, text);
    }
    fn on_header(&mut self, plan: &Plan<'_>) {
        self.0.on_header(plan);
        self.1.on_header(plan);
    }
    fn needs_every_values_resource(&self) -> bool {
        self.0.needs_every_values_resource() || self.1.needs_every_values_resource()
    }
    fn reads_values(&self) -> bool {
        self.0.reads_values() || self.1.reads_values()
    }
    fn on_prior(&mut self, event: Prior<'_>) {
        let again = match &event {
            Prior::Module => Prior::Module,
            Prior::Resource(r) => Prior::Resource(r),
            Prior::EndModule(a) => Prior::EndModule(*a),
            Prior::Refused(m) => Prior::Refused(m.clone()),
        };
        self.0.on_prior(event);
        self.1.on_prior(again);
    }
}

/// Feed a plan read whole to a visitor, in the streaming order.
pub(crate) fn visit_plan(plan: &Plan<'_>, v: &mut dyn PlanVisitor) {
    for rc in &plan.resource_drift {
        v.on_drift(rc);
    }
    for rc in &plan.resource_changes {
        v.on_resource_change(rc);
    }
    visit_rest(plan, v);
}

/// The non-streamed part: output changes, checks, header.
pub(crate) fn visit_rest(plan: &Plan<'_>, v: &mut dyn PlanVisitor) {
    for (name, ch) in &plan.output_changes {
        v.on_output_change(name, ch);
    }
    if let Some(c) = &plan.checks {
        v.on_checks(c);
    }
    v.on_header(plan);
}
