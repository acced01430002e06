//! `show --format json` (schemas/show.schema.json).

use super::*;
use crate::locate::{Location, SourceMap};
use crate::query::dependents::Dependents;

/// One side of a changed attribute.
#[derive(Debug, Serialize)]
struct JsonSide {
    /// `value`, `null`, `sensitive` (masked) or `unknown` (known after apply).
    state: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<Box<RawValue>>,
}

fn json_side(s: &Option<Shown>) -> Option<JsonSide> {
    s.as_ref().map(|s| match s {
        Shown::Value(v) => JsonSide { state: "value", value: RawValue::from_string(v.clone()).ok() },
        Shown::Null => JsonSide { state: "null", value: None },
        Shown::Sensitive => JsonSide { state: "sensitive", value: None },
        Shown::Unknown => JsonSide { state: "unknown", value: None },
    })
}

#[derive(Debug, Serialize)]
struct JsonChange {
    path: Vec<crate::model::PathStep>,
    path_text: String,
    op: Op,
    before: Option<JsonSide>,
    after: Option<JsonSide>,
    forces_replacement: bool,
    /// `marked` / `unmarked` where the value becomes or stops being sensitive.
    sensitivity: Option<SensitivityChange>,
}

fn json_changes(v: &[FlatChange]) -> Vec<JsonChange> {
    v.iter()
        .map(|c| JsonChange {
            path: c.path.clone(),
            path_text: path_text(&c.path),
            op: c.op,
            before: json_side(&c.before),
            after: json_side(&c.after),
            forces_replacement: c.forces_replacement,
            sensitivity: c.sensitivity,
        })
        .collect()
}

#[derive(Debug, Serialize)]
struct JsonResource<'a> {
    address: &'a str,
    previous_address: Option<&'a str>,
    mode: &'a str,
    #[serde(rename = "type")]
    type_: &'a str,
    action: String,
    actions: &'a [String],
    symbol: &'static str,
    words: String,
    reason: Option<&'a str>,
    reason_words: Option<&'a str>,
    deposed: Option<&'a str>,
    moved: bool,
    importing: bool,
    import_id: Option<&'a str>,
    changes: Vec<JsonChange>,
    unchanged_hidden: usize,
    /// Its block in the configuration, when read and found.
    #[serde(skip_serializing_if = "Option::is_none")]
    location: Option<Location>,
    /// The other changes whose configuration refers to it (docs/dependents.md); absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    dependents: Vec<&'a str>,
    /// Those reached only through locals the plan leaves out (a guess); absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    dependents_through_locals: Vec<&'a str>,
}

#[derive(Debug, Serialize)]
struct JsonOutput<'a> {
    name: &'a str,
    action: String,
    symbol: &'static str,
    changes: Vec<JsonChange>,
    #[serde(skip_serializing_if = "Option::is_none")]
    location: Option<Location>,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    kind: &'static str,
    file: &'a str,
    format_version: &'a str,
    terraform_version: Option<&'a str>,
    errored: bool,
    resources: LazyResources<'a>,
    outputs: Vec<JsonOutput<'a>>,
    hidden_noop: usize,
    filtered_out: usize,
    action_invocations: Vec<JsonInvocation<'a>>,
}

#[derive(Debug, Serialize)]
struct JsonInvocation<'a> {
    address: &'a str,
    #[serde(rename = "type")]
    type_: &'a str,
    name: &'a str,
    trigger: &'static str,
    triggering_resource_address: Option<&'a str>,
    event: Option<&'a str>,
    calling_resource_address: Option<&'a str>,
    on_failure: Option<&'a str>,
    config: Vec<JsonChange>,
}

fn json_invocation(i: &InvocationDiff) -> JsonInvocation<'_> {
    let (trigger, resource, event, calling) = match &i.trigger {
        Trigger::Lifecycle { resource, event, before } => {
            let t = match before {
                Some(true) => "before",
                Some(false) => "after",
                None => "event",
            };
            (t, Some(resource.as_str()), Some(event.as_str()), None)
        }
        Trigger::Invoke { calling } => ("invoke", None, None, calling.as_deref()),
        Trigger::Unknown => ("unknown", None, None, None),
    };
    JsonInvocation {
        address: &i.address,
        type_: &i.type_,
        name: &i.name,
        trigger,
        triggering_resource_address: resource,
        event,
        calling_resource_address: calling,
        on_failure: i.on_failure.as_deref(),
        config: json_changes(&i.config_leaves),
    }
}

/// The `resources` array, each built and written in turn as the serializer gets to it.
struct LazyResources<'a>(RefCell<&'a mut (dyn Resources + 'a)>, Option<&'a SourceMap>, &'a Dependents);

impl Serialize for LazyResources<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error as _, SerializeSeq};
        let mut resources = self.0.borrow_mut();
        let mut seq = s.serialize_seq(Some(resources.count()))?;
        let mut failed: Option<S::Error> = None;
        let done = resources.each(&mut |x| match seq.serialize_element(&json_resource(x, self.1, self.2)) {
            Ok(()) => Ok(true),
            Err(e) => {
                failed = Some(e);
                Err(io::Error::other("not written"))
            }
        });
        if let Some(e) = failed {
            return Err(e);
        }
        done.map_err(S::Error::custom)?;
        seq.end()
    }
}

fn hidden_at_root(n: &Node) -> usize {
    match &n.kind {
        Kind::Collection { hidden, .. } => *hidden,
        Kind::Block(b) => b.hidden_attributes,
        _ => 0,
    }
}

fn json_resource<'a>(x: &'a ResourceDiff, locations: Option<&SourceMap>, dependents: &'a Dependents) -> JsonResource<'a> {
    JsonResource {
        address: &x.address,
        previous_address: x.previous_address.as_deref(),
        mode: &x.mode,
        type_: &x.type_,
        action: x.kind.key(),
        actions: &x.actions,
        symbol: x.kind.symbol(),
        words: header_words(x),
        reason: x.reason.as_deref(),
        reason_words: x.reason_words.as_deref(),
        deposed: x.deposed.as_deref(),
        moved: x.moved(),
        importing: x.importing,
        import_id: x.import_id.as_deref(),
        changes: json_changes(&x.changes),
        // As before identifying attributes were shown: the JSON lists changes only.
        unchanged_hidden: hidden_at_root(&x.root) + x.identifying,
        location: locations.and_then(|m| m.locate_change(&x.address, x.reason.as_deref())),
        dependents: dependents.of(&x.address).iter().filter(|d| !d.through_locals).map(|d| d.address.as_str()).collect(),
        dependents_through_locals: dependents.of(&x.address).iter().filter(|d| d.through_locals).map(|d| d.address.as_str()).collect(),
    }
}

fn json_report<'a>(r: &'a ShowReport, resources: &'a mut (dyn Resources + 'a), locations: Option<&'a SourceMap>) -> JsonReport<'a> {
    JsonReport {
        kind: "show",
        file: &r.file,
        format_version: &r.format_version,
        terraform_version: r.terraform_version.as_deref(),
        errored: r.errored,
        resources: LazyResources(RefCell::new(resources), locations, &r.dependents),
        outputs: r
            .outputs
            .iter()
            .map(|o| JsonOutput {
                name: &o.name,
                action: o.kind.key(),
                symbol: o.kind.symbol(),
                changes: json_changes(&o.changes),
                location: locations.and_then(|m| m.locate(&format!("output.{}", o.name))),
            })
            .collect(),
        hidden_noop: r.hidden_noop,
        filtered_out: r.filtered_out,
        action_invocations: r.invocations.iter().map(json_invocation).collect(),
    }
}

#[derive(Serialize)]
#[serde(untagged)]
enum JsonItem<'a> {
    Ok(JsonReport<'a>),
    Err(JsonInputError<'a>),
}

#[derive(Serialize)]
struct JsonMany<'a> {
    files: Vec<JsonItem<'a>>,
}

/// One JSON document: the report of a single input, or `{"files": [...]}`;
/// each resource is built and written in turn.
pub(crate) fn json_items(w: &mut dyn Write, items: &[Item<'_>]) -> io::Result<()> {
    let mut resources: Vec<_> = items.iter().map(|i| i.resources.borrow_mut()).collect();
    let list: Vec<JsonItem> = items
        .iter()
        .zip(resources.iter_mut())
        .map(|(i, res)| match i.result {
            Ok(r) => JsonItem::Ok(json_report(r, &mut ***res, i.locations)),
            Err(e) => JsonItem::Err(JsonInputError::new(e)),
        })
        .collect();
    if list.len() == 1 {
        return write_json(w, &list[0]);
    }
    write_json(w, &JsonMany { files: list })
}
