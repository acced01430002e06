//! The one tree differ. For `show`, a value before, a value after and their
//! markers (sensitivity, unknown-ness, replace paths) become a tree of changes
//! that renderers print (nested maps, lists and sets, multi-line strings as
//! line diffs, JSON-encoded strings as structured diffs); for `drift` and
//! `moves`, [`changed_paths`] lists where two values differ.
//!
//! Masking happens here, once: a node that `before_sensitive` or
//! `after_sensitive` marks (itself, an ancestor, or any part inside it) is a
//! leaf showing `(sensitive value)` on both sides, and every leaf holding a
//! secret known from elsewhere in the document is masked too ([`Shown::of`]).

mod align;

use crate::model::markers::{self, child};
use crate::model::PathStep;
use crate::query::schema::Ty;
use crate::query::values::{numbers_equal, value_at, Shown, Visibility};
use align::cli_lcs;
pub(crate) use align::{align, Slot};
mod pairs;
pub(crate) use pairs::{cli_slice, set_pairs};
use pairs::{content_pairs, list_of_objects, list_pairs, object_pairs};
use serde::Serialize;
use serde_json::Value;

/// What happened to one node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Op {
    /// Only after: added.
    Add,
    /// Only before: removed.
    Remove,
    /// Both sides, different.
    Update,
    /// Both sides, equal.
    Same,
}

impl Op {
    /// The symbol printed before a line.
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            Op::Add => "+",
            Op::Remove => "-",
            Op::Update => "~",
            Op::Same => " ",
        }
    }
}

/// The key of a child: an attribute/map key or a list position (the after
/// position, or the before position for a removed element).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Key {
    Attr(String),
    Index(usize),
}

impl Key {
    pub(crate) fn step(&self) -> PathStep {
        match self {
            Key::Attr(k) => PathStep::Key(k.clone()),
            Key::Index(i) => PathStep::Index(*i as u64),
        }
    }
}

/// Brackets of a collection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Brackets {
    /// An object, or a map without its type: `{ key = value }`.
    Object,
    /// A map, by its type (the provider schema): `{ "key" = value }`, every key quoted.
    Map,
    /// A list, set or tuple: `[ value, ]`.
    List,
}

/// One line of a multi-line string diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LineItem {
    Line(Op, String),
    /// The newline at the end of the text was added (`Op::Add`) or removed
    /// (`Op::Remove`); the lines themselves may all be unchanged.
    EndNewline(Op),
}

/// A sensitivity change on a node, and whether the value itself is unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SensitivityNote {
    pub change: SensitivityChange,
    pub value_unchanged: bool,
}

/// A value whose sensitivity changes in an update (the value itself may be
/// unchanged): the CLI warns about it above the attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum SensitivityChange {
    /// Not sensitive before, sensitive after.
    Marked,
    /// Sensitive before, not after.
    Unmarked,
}

/// A child of a collection.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Entry {
    /// The after key (the before key for a removed element).
    pub key: Key,
    /// Where the element was before (lists align, so it can differ from `key`).
    pub before_key: Option<Key>,
    /// An equal list element found out of order: it moved (from `before_key`).
    pub moved: bool,
    pub node: Node,
}

/// A node of the diff tree.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Node {
    pub op: Op,
    /// The node's path is one of the change's `replace_paths`.
    pub forces_replacement: bool,
    /// Set where the value becomes, or stops being, sensitive (the topmost
    /// such node only).
    pub sensitivity: Option<SensitivityNote>,
    pub kind: Kind,
}

/// The shape of a node.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Kind {
    /// A value shown whole: `before -> after` (`None`: that side is absent).
    Leaf { before: Option<Shown>, after: Option<Shown> },
    /// A collection expanded entry by entry. `before`/`after` are set when that
    /// side is not this collection but a value shown whole (null, unknown):
    /// `{ - a = 1 } -> (known after apply)`.
    Collection {
        brackets: Brackets,
        entries: Vec<Entry>,
        /// Unchanged entries left out (0 with `full`; lists keep theirs in
        /// `entries`, for the renderer to show one each side of a change).
        hidden: usize,
        before: Option<Shown>,
        after: Option<Shown>,
        /// The widest key, in characters, over every key of an object level,
        /// hidden ones too (the CLI aligns `=` over all of them).
        width: usize,
        /// A list whose unchanged elements are in `entries`, to be shown
        /// only as context around a change (one each side, the rest
        /// counted in place); false with `full` and inside a value shown
        /// whole, where every element is shown.
        context: bool,
    },
    /// A multi-line string as a line diff.
    Lines(Vec<LineItem>),
    /// A block, by the provider schema: a resource's own, or a nested one.
    Block(Box<BlockNode>),
    /// A value changing type, shown as the CLI's type change: the before as
    /// it would be removed, `->`, the after as it would be added (a JSON
    /// string becoming text, or text becoming JSON).
    Swap(Box<Node>, Box<Node>),
    /// A write-only attribute (its value is never in the plan), by the
    /// provider schema: `(write-only attribute)`.
    WriteOnly { sensitive: bool },
    /// A JSON-encoded string, decoded and diffed structurally.
    Json(Box<Node>),
    /// A multi-line or JSON-encoded string that becomes unknown, shown as
    /// its block (the inner `Lines` with every line, or `Json` with every
    /// member removed), then `-> (known after apply)`, as the CLI shows it.
    ToUnknown(Box<Node>),
}

/// A block's attributes, then its nested blocks (the CLI's block renderer).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BlockNode {
    /// Attributes shown, in key order.
    pub attributes: Vec<Entry>,
    /// Unchanged attributes left out.
    pub hidden_attributes: usize,
    /// The widest attribute key, hidden ones too.
    pub width: usize,
    /// Nested blocks shown, by type name, then as the block type orders them.
    pub blocks: Vec<BlockEntry>,
    /// Unchanged nested blocks left out.
    pub hidden_blocks: usize,
}

/// One nested block.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct BlockEntry {
    /// The block type's name.
    pub name: String,
    /// A map block's key (`name "key" {`).
    pub map_key: Option<String>,
    /// Its position after (a removed one's before) in a list or set block, or its map key.
    pub key: Option<Key>,
    /// Its position before.
    pub before_key: Option<Key>,
    /// A [`Kind::Block`]; a leaf for a block known only after apply
    /// (`name (known after apply)`) or marked sensitive.
    pub node: Node,
}

/// The markers of one side-by-side position in the tree.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Marks<'v> {
    pub before_sensitive: Option<&'v Value>,
    pub after_sensitive: Option<&'v Value>,
    pub after_unknown: Option<&'v Value>,
}

/// Options of one diff.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DiffOptions<'a, 'm> {
    pub vis: &'a Visibility<'m>,
    /// Keep unchanged entries instead of counting them as hidden.
    pub full: bool,
    pub replace_paths: &'a [Vec<PathStep>],
    /// The root is a resource's block (its attributes: a null one is absent,
    /// as the CLI leaves it out), not a value (an output).
    pub block_root: bool,
    /// Lists of objects may be sets or nested blocks (a provider's resource
    /// without its schema): aligned by content ([`align`]), not by position.
    pub objects_by_content: bool,
    /// With a typed value (the provider schema): the legacy SDK's `""`
    /// stands for null, as the CLI reads it.
    pub legacy: bool,
}

const TRUE: Value = Value::Bool(true);

/// Diff a whole resource (or output) value. `None` is an absent side (the
/// before of a create, the after of a destroy); JSON `null` counts as absent
/// at the top.
pub(crate) fn diff(before: Option<&Value>, after: Option<&Value>, marks: Marks<'_>, opts: &DiffOptions<'_, '_>) -> Node {
    let before = before.filter(|v| !v.is_null());
    let after = after.filter(|v| !v.is_null());
    let mut path = Vec::new();
    node(before, after, marks, opts, &mut path, None)
}

/// The diff of one value of type `ty` (the provider schema's; `None`: a
/// value of any type) at `path`.
pub(crate) fn node(
    before: Option<&Value>,
    after: Option<&Value>,
    m: Marks<'_>,
    o: &DiffOptions<'_, '_>,
    path: &mut Vec<PathStep>,
    ty: Option<&Ty>,
) -> Node {
    // The legacy SDK's `""` is null (the CLI's ComputeDiffForType).
    let legacy_null = |v: Option<&Value>| !(o.legacy && ty.is_some() && v.and_then(Value::as_str) == Some(""));
    let (before, after) = (before.filter(|_| legacy_null(before)), after.filter(|_| legacy_null(after)));
    let forces_replacement = !path.is_empty() && o.replace_paths.iter().any(|p| p == path);
    let sensitivity = sensitivity_change(before, after, m);
    let mut n = match sensitivity {
        // Below, both sides count as marked: the change is noted once, here
        // (with `--show-sensitive` the children are still expanded).
        Some(_) => node_inner(before, after, Marks { before_sensitive: Some(&TRUE), after_sensitive: Some(&TRUE), ..m }, o, path, ty),
        None => node_inner(before, after, m, o, path, ty),
    };
    let value_unchanged = n.op == Op::Same;
    if sensitivity.is_some() && value_unchanged {
        // Only the sensitivity changes: still an update, as the CLI shows it.
        n.op = Op::Update;
    }
    n.forces_replacement = forces_replacement;
    n.sensitivity = sensitivity.map(|change| SensitivityNote { change, value_unchanged });
    n
}

/// Whether this node (not only part of it) becomes or stops being sensitive
/// in an update: both sides present, marked whole on one side only.
fn sensitivity_change(before: Option<&Value>, after: Option<&Value>, m: Marks<'_>) -> Option<SensitivityChange> {
    let present = |v: Option<&Value>| v.is_some_and(|v| !v.is_null());
    if !present(before) || !(present(after) || markers::whole(m.after_unknown)) {
        return None;
    }
    match (markers::whole(m.before_sensitive), markers::whole(m.after_sensitive)) {
        (false, true) => Some(SensitivityChange::Marked),
        (true, false) => Some(SensitivityChange::Unmarked),
        _ => None,
    }
}

fn op_of(before: Option<&Value>, after: Option<&Value>, unknown: bool) -> Op {
    match (before, after) {
        (None, None) if unknown => Op::Add,
        (Some(_), None) if unknown => Op::Update,
        (None, _) => Op::Add,
        (Some(_), None) => Op::Remove,
        (Some(b), Some(a)) if !unknown && b == a => Op::Same,
        _ => Op::Update,
    }
}

fn leaf(op: Op, before: Option<Shown>, after: Option<Shown>) -> Node {
    Node { op, forces_replacement: false, sensitivity: None, kind: Kind::Leaf { before, after } }
}

fn node_inner(
    before: Option<&Value>,
    after: Option<&Value>,
    m: Marks<'_>,
    o: &DiffOptions<'_, '_>,
    path: &mut Vec<PathStep>,
    ty: Option<&Ty>,
) -> Node {
    let unknown = markers::whole(m.after_unknown);
    let op = op_of(before, after, unknown);
    let hide = !o.vis.show_sensitive;
    let unknown_or = |s: Option<Shown>| if unknown { Some(Shown::Unknown) } else { s };

    // Marked sensitive here or above, on either side: the whole node is masked.
    if hide && (markers::whole(m.before_sensitive) || markers::whole(m.after_sensitive)) {
        let side = |v: Option<&Value>| v.map(|v| if v.is_null() { Shown::Null } else { Shown::Sensitive });
        // Typed (by the schema), as the CLI: a sensitive value is
        // `(sensitive value)` even where it is known only after apply.
        if unknown && markers::whole(m.after_sensitive) {
            return leaf(op, side(before), Some(Shown::Sensitive));
        }
        return leaf(op, side(before), unknown_or(side(after)));
    }
    // A side shown whole: masked when anything in it is marked or holds a known secret.
    let whole = |v: Option<&Value>, marker: Option<&Value>| v.map(|v| Shown::of(Some(v), hide && markers::any(marker), false, o.vis));

    // A scalar holding a known secret is shown whole (and so masked).
    let secret_scalar = |v: Option<&Value>| v.is_some_and(|v| !v.is_object() && !v.is_array() && o.vis.must_mask(false, Some(v)));
    if secret_scalar(before) || secret_scalar(after) {
        return leaf(op, whole(before, m.before_sensitive), unknown_or(whole(after, m.after_sensitive)));
    }
    // From here a scalar side is known to hold no secret: only its marker
    // masks it (its secrets are not looked up again); a collection is.
    let unlooked = Visibility { masker: None, ..*o.vis };
    let whole = |v: Option<&Value>, marker: Option<&Value>| {
        v.map(|v| {
            let vis = if v.is_object() || v.is_array() { o.vis } else { &unlooked };
            Shown::of(Some(v), hide && markers::any(marker), false, vis)
        })
    };

    // A map by its type: its keys are quoted.
    let retype = |b: Brackets| if b == Brackets::Object && matches!(ty, Some(Ty::Map(_))) { Brackets::Map } else { b };
    let b_coll = before.and_then(brackets_of).map(retype);
    let a_coll = if unknown {
        None
    } else {
        match (after, m.after_unknown) {
            (Some(a), _) => brackets_of(a),
            // Parts unknown, the rest absent: still a collection.
            (None, Some(u)) if markers::any(Some(u)) => brackets_of(u),
            _ => None,
        }
        .map(retype)
    };
    let absent_or_null = |v: Option<&Value>| !matches!(v, Some(x) if !x.is_null());

    match (b_coll, a_coll) {
        (Some(bb), Some(ab)) if bb == ab => collection_node(op, bb, before, after, None, None, m, o, path, ty),
        (Some(bb), None) if absent_or_null(after) || unknown => {
            let after_shown = if unknown { Some(Shown::Unknown) } else { after.map(|_| Shown::Null) };
            let op = if after_shown.is_some() { Op::Update } else { op };
            collection_node(op, bb, before, None, None, after_shown, m, o, path, ty)
        }
        (None, Some(ab)) if absent_or_null(before) => {
            let before_shown = before.map(|_| Shown::Null);
            let op = if before_shown.is_some() { Op::Update } else { op };
            collection_node(op, ab, None, after, before_shown, None, m, o, path, ty)
        }
        // A type change between a scalar and a collection (`"*" -> [ + "a", ]`,
        // `[ - "a", ] -> "*"`), as the CLI shows one: the collection expanded.
        (None, Some(ab)) if !markers::any(m.before_sensitive) && !markers::any(m.after_sensitive) && !path.is_empty() => {
            collection_node(Op::Update, ab, None, after, whole(before, m.before_sensitive), None, m, o, path, ty)
        }
        (Some(bb), None)
            if after.is_some() && !unknown && !markers::any(m.before_sensitive) && !markers::any(m.after_sensitive) && !path.is_empty() =>
        {
            collection_node(Op::Update, bb, before, None, None, whole(after, m.after_sensitive), m, o, path, ty)
        }
        _ => {
            let marked_inside = hide && (markers::any(m.before_sensitive) || markers::any(m.after_sensitive));
            if !unknown && !marked_inside {
                if let Some(n) = string_node(op, before, after, o) {
                    return n;
                }
            }
            if unknown && !marked_inside && before.is_some() {
                if let Some(n) = string_to_unknown(before, o) {
                    return Node { op, forces_replacement: false, sensitivity: None, kind: Kind::ToUnknown(Box::new(n)) };
                }
            }
            leaf(op, whole(before, m.before_sensitive), unknown_or(whole(after, m.after_sensitive)))
        }
    }
}

/// The attributes the CLI shows in a resource block even when unchanged, so a
/// reader knows which object it is about (`importantAttributes` of its block
/// renderer): whole, with every unchanged child (all the tags).
pub(crate) const IDENTIFYING: [&str; 3] = ["id", "name", "tags"];

/// Show a resource's [`IDENTIFYING`] attributes as the CLI does: an unchanged
/// one (present, not null) is added to the root's entries in its sorted place
/// and no longer counted as hidden; a changed one is expanded with its
/// unchanged children. Masked like any other value. Returns how many
/// unchanged ones were added. Nothing to do with `full` (all are shown).
pub(crate) fn show_identifying(
    root: &mut Node,
    before: Option<&Value>,
    after: Option<&Value>,
    m: Marks<'_>,
    o: &DiffOptions<'_, '_>,
) -> usize {
    let Kind::Collection { brackets: Brackets::Object, entries, hidden, before: None, after: None, .. } = &mut root.kind else { return 0 };
    if o.full {
        return 0;
    }
    let full = DiffOptions { full: true, ..*o };
    let mut added = 0;
    for name in IDENTIFYING {
        let key = Key::Attr(name.to_string());
        let b = before.and_then(|v| v.get(name)).filter(|v| !v.is_null());
        let a = after.and_then(|v| v.get(name)).filter(|v| !v.is_null());
        let step = key.step();
        let cm = Marks {
            before_sensitive: child(m.before_sensitive, &step),
            after_sensitive: child(m.after_sensitive, &step),
            after_unknown: child(m.after_unknown, &step),
        };
        let mut path = vec![step];
        let at = entries.binary_search_by(|e| match &e.key {
            Key::Attr(k) => k.as_str().cmp(name),
            Key::Index(_) => std::cmp::Ordering::Less,
        });
        match at {
            // Shown already: a changed collection gets its unchanged children too.
            Ok(i) => {
                let e = &mut entries[i];
                if e.node.op == Op::Update && matches!(e.node.kind, Kind::Collection { before: None, after: None, .. }) {
                    let n = node(b, a, cm, &full, &mut path, None);
                    e.node = Node { forces_replacement: e.node.forces_replacement, ..n };
                }
            }
            Err(i) if *hidden > 0 && b.is_some() && a.is_some() => {
                let n = node(b, a, cm, &full, &mut path, None);
                if n.op == Op::Same {
                    entries.insert(i, Entry { key: key.clone(), before_key: Some(key), moved: false, node: n });
                    *hidden -= 1;
                    added += 1;
                }
            }
            Err(_) => {}
        }
    }
    added
}

/// The brackets of a collection value.
fn brackets_of(v: &Value) -> Option<Brackets> {
    match v {
        Value::Object(_) => Some(Brackets::Object),
        Value::Array(_) => Some(Brackets::List),
        _ => None,
    }
}

#[allow(clippy::too_many_arguments)]
fn collection_node(
    op: Op,
    brackets: Brackets,
    before: Option<&Value>,
    after: Option<&Value>,
    before_shown: Option<Shown>,
    after_shown: Option<Shown>,
    m: Marks<'_>,
    o: &DiffOptions<'_, '_>,
    path: &mut Vec<PathStep>,
    ty: Option<&Ty>,
) -> Node {
    // With the whole after unknown, the children have no after side.
    let child_unknown = if after_shown.is_some() { None } else { m.after_unknown };
    let m = Marks { after_unknown: child_unknown, ..m };
    let set = matches!(ty, Some(Ty::Set(_)));
    let by_content = brackets == Brackets::List && ty.is_none() && o.objects_by_content && list_of_objects(before, after);
    let pairs = match brackets {
        Brackets::Object | Brackets::Map => object_pairs(before, after, m.after_unknown),
        Brackets::List if set => set_pairs(before, after, m),
        Brackets::List if by_content => content_pairs(before, after, m.after_unknown),
        Brackets::List => list_pairs(before, after, m.after_unknown),
    };
    // A resource's own attributes: a null one is absent (the CLI leaves it
    // out); in a value (an object inside an attribute, an output), null is a
    // value like any other (`~ drop = "d" -> null`, `- c = null`).
    let block_level = path.is_empty() && o.block_root;
    // A typed object leaves out what is null on both sides, as a block does.
    let skip_nulls = block_level || (brackets == Brackets::Object && matches!(ty, Some(Ty::Object(_))));
    let full = DiffOptions { full: true, ..*o };
    let mut entries = Vec::new();
    let mut hidden = 0;
    let mut width = 0;
    for (bkey, akey, b, a, moved) in pairs {
        let (b, a) =
            if brackets == Brackets::Object && skip_nulls { (b.filter(|v| !v.is_null()), a.filter(|v| !v.is_null())) } else { (b, a) };
        let (bstep, astep) = (bkey.as_ref().map(Key::step), akey.as_ref().map(Key::step));
        let cm = Marks {
            before_sensitive: bstep.as_ref().and_then(|s| child(m.before_sensitive, s)),
            after_sensitive: astep.as_ref().and_then(|s| child(m.after_sensitive, s)),
            after_unknown: astep.as_ref().and_then(|s| child(m.after_unknown, s)),
        };
        if b.is_none() && a.is_none() && !markers::any(cm.after_unknown) {
            // Without a schema, a write-only attribute known by its providers'
            // name (`X_wo` beside its `X_wo_version`): shown as the CLI shows one.
            if let Some(Key::Attr(k)) = akey.as_ref().filter(|_| block_level && ty.is_none()) {
                if write_only_by_name(k, before, after) {
                    let op = match op {
                        Op::Add | Op::Remove => op,
                        _ => Op::Same,
                    };
                    width = width.max(key_width(k));
                    if op == Op::Same && !o.full {
                        hidden += 1;
                    } else {
                        let node = Node { op, forces_replacement: false, sensitivity: None, kind: Kind::WriteOnly { sensitive: false } };
                        entries.push(Entry { key: Key::Attr(k.clone()), before_key: None, moved: false, node });
                    }
                }
            }
            continue;
        }
        let (Some(key), Some(step)) = (akey.clone().or_else(|| bkey.clone()), astep.or(bstep)) else { continue };
        if let Key::Attr(k) = &key {
            width = width.max(if brackets == Brackets::Map { quoted_width(k) } else { key_width(k) });
        }
        let cty = ty.and_then(|t| match &key {
            Key::Attr(k) => t.child(Some(k), None),
            Key::Index(i) => t.child(None, Some(*i)),
        });
        path.push(step);
        // Shown unchanged: an important attribute of a nested object (`id`,
        // `name`, `tags`, as the CLI shows them), or a list element (context
        // around a change): with everything in it.
        let important = brackets == Brackets::Object && !block_level && matches!(&key, Key::Attr(k) if IDENTIFYING.contains(&k.as_str()));
        // An unchanged scalar that is not shown is only counted: not diffed,
        // nor its secrets looked up (most of a resource's attributes).
        let context = brackets == Brackets::List && !by_content && !set;
        if !o.full && !moved && !important && !context && hidden_scalar(b, a, cm, o, path, cty) {
            path.pop();
            hidden += 1;
            continue;
        }
        let mut n = node(b, a, cm, o, path, cty);
        let keep = !o.full && n.op == Op::Same && (important || (brackets == Brackets::List && !by_content && !set));
        let expand = important && !o.full && n.op == Op::Update && matches!(n.kind, Kind::Collection { before: None, after: None, .. });
        if keep || expand {
            n = Node { forces_replacement: n.forces_replacement, ..node(b, a, cm, &full, path, cty) };
        }
        path.pop();
        if n.op == Op::Same && !o.full && !n.forces_replacement && !moved && !keep {
            hidden += 1;
        } else {
            entries.push(Entry { key, before_key: bkey, moved, node: n });
        }
    }
    let op = if op == Op::Same && entries.iter().any(|e| e.node.op != Op::Same || e.moved) { Op::Update } else { op };
    Node {
        op,
        forces_replacement: false,
        sensitivity: None,
        kind: Kind::Collection {
            brackets,
            entries,
            hidden,
            before: before_shown,
            after: after_shown,
            width,
            context: !o.full && brackets == Brackets::List && !by_content && !set,
        },
    }
}

/// Whether [`node`] of `before` and `after` at `path` (a child's, pushed)
/// is an unchanged scalar that does not force the replacement: the same
/// scalar on both sides, known, with the same sensitivity, not the legacy
/// SDK's null. Its node's op is [`Op::Same`] whatever its value shows as, so
/// a collection that shows no unchanged child counts it without building it.
fn hidden_scalar(
    before: Option<&Value>,
    after: Option<&Value>,
    m: Marks<'_>,
    o: &DiffOptions<'_, '_>,
    path: &[PathStep],
    ty: Option<&Ty>,
) -> bool {
    let (Some(b), Some(a)) = (before, after) else { return false };
    let scalar = !matches!(b, Value::Object(_) | Value::Array(_));
    let legacy_null = o.legacy && ty.is_some() && b.as_str() == Some("");
    scalar
        && b == a
        && !legacy_null
        && !markers::whole(m.after_unknown)
        && sensitivity_change(before, after, m).is_none()
        && !o.replace_paths.iter().any(|p| p == path)
}

/// Without a schema: whether a resource's attribute `k`, null on both sides,
/// is write-only by the name the providers give one (`password_wo`, with its
/// `password_wo_version` beside it). A write-only value is never in the plan.
fn write_only_by_name(k: &str, before: Option<&Value>, after: Option<&Value>) -> bool {
    let version = format!("{k}_version");
    let has = |v: Option<&Value>| v.and_then(Value::as_object).is_some_and(|o| o.contains_key(&version));
    k.len() > 3 && k.ends_with("_wo") && (has(before) || has(after))
}

/// A key's printed width: an identifier as it is, any other key quoted.
pub(crate) fn key_width(k: &str) -> usize {
    if is_ident(k) {
        k.chars().count()
    } else {
        serde_json::to_string(k).map_or(0, |q| q.chars().count())
    }
}

/// A map key's printed width: always quoted.
pub(crate) fn quoted_width(k: &str) -> usize {
    serde_json::to_string(k).map_or(0, |q| q.chars().count())
}

/// How [`changed_paths`] compares two values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Compare {
    /// As `show` shows a change (`drift`): scalars equal as written (`1` is
    /// not `1.0`); a list of the same length is followed into only when its
    /// elements keep their places ([`align`]): an element paired with a
    /// near-equal one is followed into, any other changed element is one
    /// change, and a list whose elements moved is one change (a path cannot
    /// name two positions).
    AsShown,
    /// As values (`moves`): numbers by exact decimal value
    /// ([`numbers_equal`]), lists of the same length element by element.
    ByValue,
}

/// The paths at which `before` and `after` differ, in a stable order (object
/// keys sorted). Objects are compared key by key and lists of the same length
/// element by element ([`Compare`]); anything else that differs (a scalar, a
/// type change, a list that grew or shrank, a value that appeared or went
/// away) is one change at its own path. Absent and `null` are the same. Parts
/// that `after_unknown` marks whole, and paths `skip` names, are not compared.
pub(crate) fn changed_paths(
    before: Option<&Value>,
    after: Option<&Value>,
    after_unknown: Option<&Value>,
    how: Compare,
    skip: &dyn Fn(&[PathStep]) -> bool,
) -> Vec<Vec<PathStep>> {
    let mut out = Vec::new();
    walk(before, after, after_unknown, how, skip, &mut Vec::new(), &mut out);
    out
}

fn walk(
    b: Option<&Value>,
    a: Option<&Value>,
    unknown: Option<&Value>,
    how: Compare,
    skip: &dyn Fn(&[PathStep]) -> bool,
    path: &mut Vec<PathStep>,
    out: &mut Vec<Vec<PathStep>>,
) {
    if markers::whole(unknown) || skip(path) {
        return;
    }
    let descend = |b: Option<&Value>, a: Option<&Value>, step: PathStep, path: &mut Vec<PathStep>, out: &mut Vec<Vec<PathStep>>| {
        let u = child(unknown, &step);
        path.push(step);
        walk(b, a, u, how, skip, path, out);
        path.pop();
    };
    match (b.filter(|v| !v.is_null()), a.filter(|v| !v.is_null())) {
        (Some(Value::Object(bo)), Some(Value::Object(ao))) => {
            let mut keys: Vec<&String> = bo.keys().chain(ao.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                descend(bo.get(k), ao.get(k), PathStep::Key(k.clone()), path, out);
            }
        }
        (Some(Value::Array(ba)), Some(Value::Array(aa))) if ba.len() == aa.len() => {
            // The elements to look at, and whether to follow into each.
            let elements: Option<Vec<(usize, bool)>> = match how {
                Compare::ByValue => Some((0..ba.len()).map(|i| (i, true)).collect()),
                Compare::AsShown => in_place_changes(&align(ba, aa, aa.len(), None)),
            };
            let Some(elements) = elements else { return out.push(path.clone()) };
            for (i, follow) in elements {
                if follow {
                    descend(ba.get(i), aa.get(i), PathStep::Index(i as u64), path, out);
                } else {
                    path.push(PathStep::Index(i as u64));
                    out.push(path.clone());
                    path.pop();
                }
            }
        }
        (Some(Value::Number(x)), Some(Value::Number(y))) if how == Compare::ByValue => {
            if !numbers_equal(&x.to_string(), &y.to_string()) {
                out.push(path.clone());
            }
        }
        (b, a) => {
            if b != a {
                out.push(path.clone());
            }
        }
    }
}

/// The changed elements of two aligned lists of the same length, when every
/// element keeps its place (`None` otherwise): a near-equal pair to follow
/// into (`true`), any other change whole (`false`), in order.
fn in_place_changes(slots: &[Slot]) -> Option<Vec<(usize, bool)>> {
    let mut changed = Vec::new();
    for s in slots {
        match *s {
            Slot::Same(i, j) if i == j => {}
            Slot::Paired(i, j) if i == j => changed.push((i, true)),
            Slot::Removed(i) => changed.push((i, false)),
            Slot::Added(_) => {}
            Slot::Same(..) | Slot::Paired(..) | Slot::Moved(..) => return None,
        }
    }
    changed.sort_unstable();
    Some(changed)
}

/// A JSON-encoded object or array inside a string (an IAM policy).
fn json_in(s: &str) -> Option<Value> {
    let t = s.trim_start();
    if !(t.starts_with('{') || t.starts_with('[')) {
        return None;
    }
    serde_json::from_str::<Value>(s).ok().filter(|v| v.is_object() || v.is_array())
}

/// Strings diffed specially: JSON documents structurally, multi-line text by line.
fn string_node(op: Op, before: Option<&Value>, after: Option<&Value>, o: &DiffOptions<'_, '_>) -> Option<Node> {
    fn as_str(v: Option<&Value>) -> Option<Option<&str>> {
        match v {
            None => Some(None),
            Some(Value::String(s)) => Some(Some(s.as_str())),
            _ => None,
        }
    }
    let (b, a) = (as_str(before)?, as_str(after)?);
    if b.is_none() && a.is_none() {
        return None;
    }
    let bj = b.map(json_in);
    let aj = a.map(json_in);
    let json_ok = |x: &Option<Option<Value>>| !matches!(x, Some(None));
    if json_ok(&bj) && json_ok(&aj) && op != Op::Same {
        let (bv, av) = (bj.flatten(), aj.flatten());
        let inner_opts = DiffOptions { replace_paths: &[], block_root: false, objects_by_content: false, ..*o };
        let inner = diff(bv.as_ref(), av.as_ref(), Marks::default(), &inner_opts);
        return Some(Node { op, forces_replacement: false, sensitivity: None, kind: Kind::Json(Box::new(inner)) });
    }
    // JSON on one side only: the CLI's type change, each side as it would
    // be removed or added (`jsonencode(...) -> "text"`, `"text" -> jsonencode(...)`).
    if matches!((&bj, &aj), (Some(Some(_)), Some(_)) | (Some(_), Some(Some(_)))) {
        let inner_opts = DiffOptions { replace_paths: &[], block_root: false, objects_by_content: false, ..*o };
        let side = |text: &str, json: Option<Value>, add: bool| {
            let op = if add { Op::Add } else { Op::Remove };
            match json {
                Some(v) => {
                    let inner = if add {
                        diff(None, Some(&v), Marks::default(), &inner_opts)
                    } else {
                        diff(Some(&v), None, Marks::default(), &inner_opts)
                    };
                    Node { op, forces_replacement: false, sensitivity: None, kind: Kind::Json(Box::new(inner)) }
                }
                None => {
                    let shown = Some(Shown::of(Some(&Value::String(text.to_string())), false, false, o.vis));
                    if add {
                        leaf(op, None, shown)
                    } else {
                        leaf(op, shown, None)
                    }
                }
            }
        };
        let (bt, at) = (b.unwrap_or_default(), a.unwrap_or_default());
        let before_side = side(bt, bj.clone().flatten(), false);
        let after_side = side(at, aj.clone().flatten(), true);
        return Some(Node {
            op,
            forces_replacement: false,
            sensitivity: None,
            kind: Kind::Swap(Box::new(before_side), Box::new(after_side)),
        });
    }
    let multiline = b.is_some_and(|s| s.contains('\n')) || a.is_some_and(|s| s.contains('\n'));
    if multiline && op != Op::Same {
        return Some(Node {
            op,
            forces_replacement: false,
            sensitivity: None,
            kind: Kind::Lines(line_diff(b.unwrap_or(""), a.unwrap_or(""), b.is_some(), a.is_some(), o.full)),
        });
    }
    None
}

/// The block of a multi-line or JSON-encoded string `before` that becomes
/// unknown: a JSON object or array with every member removed, or every line
/// of the text (unchanged, as the CLI prints them); `None` for another value
/// or a string holding a known secret (shown whole, and so masked).
fn string_to_unknown(before: Option<&Value>, o: &DiffOptions<'_, '_>) -> Option<Node> {
    let text = before?.as_str()?;
    if o.vis.must_mask(false, before) {
        return None;
    }
    if let Some(v) = json_in(text).filter(|v| v.is_object() || v.is_array()) {
        let inner =
            diff(Some(&v), None, Marks::default(), &DiffOptions { replace_paths: &[], block_root: false, objects_by_content: false, ..*o });
        return Some(Node { op: Op::Update, forces_replacement: false, sensitivity: None, kind: Kind::Json(Box::new(inner)) });
    }
    if !text.contains('\n') {
        return None;
    }
    let lines = line_diff(text, text, true, true, true);
    Some(Node { op: Op::Update, forces_replacement: false, sensitivity: None, kind: Kind::Lines(lines) })
}

/// The lines of a text as the CLI splits it: surrounding white space trimmed.
fn lines_of(s: &str) -> Vec<&str> {
    s.trim().split('\n').collect()
}

/// A line diff as the CLI prints one: every line, paired as list elements
/// are ([`cli_slice`]): a line that differs at its position is removed and
/// added; the lines of a text added or removed whole are shown unchanged
/// (the attribute's own symbol says it). `_full` is kept for callers: the
/// CLI hides no line.
pub(crate) fn line_diff(before: &str, after: &str, has_before: bool, has_after: bool, _full: bool) -> Vec<LineItem> {
    let mut out = Vec::new();
    match (has_before, has_after) {
        (true, false) | (false, true) => {
            let text = if has_before { before } else { after };
            out.extend(lines_of(text).into_iter().map(|l| LineItem::Line(Op::Same, l.to_string())));
            return out;
        }
        (false, false) => return out,
        (true, true) => {}
    }
    let b = lines_of(before);
    let a = lines_of(after);
    for (i, j) in cli_slice(b.len(), a.len(), |i, j| b[i] == a[j], |_| false, |_| false) {
        match (i, j) {
            (Some(i), Some(j)) if b[i] == a[j] => out.push(LineItem::Line(Op::Same, b[i].to_string())),
            (Some(i), Some(j)) => {
                out.push(LineItem::Line(Op::Remove, b[i].to_string()));
                out.push(LineItem::Line(Op::Add, a[j].to_string()));
            }
            (Some(i), None) => out.push(LineItem::Line(Op::Remove, b[i].to_string())),
            (None, Some(j)) => out.push(LineItem::Line(Op::Add, a[j].to_string())),
            (None, None) => {}
        }
    }
    // Only the final newline differs, or it differs too: planview says so
    // (the CLI trims it and shows the lines as unchanged).
    if before.ends_with('\n') != after.ends_with('\n') {
        out.push(LineItem::EndNewline(if after.ends_with('\n') { Op::Add } else { Op::Remove }));
    }
    out
}

/// A changed leaf of the tree, with its full path (for JSON output).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct FlatChange {
    pub path: Vec<PathStep>,
    pub op: Op,
    pub before: Option<Shown>,
    pub after: Option<Shown>,
    pub forces_replacement: bool,
    /// The value becomes (or stops being) sensitive here or above.
    pub sensitivity: Option<SensitivityChange>,
}

/// Every changed leaf. A collection with a side shown whole (`-> (known after
/// apply)`) is one change at its own path; a JSON string or multi-line string
/// is one change with both whole strings.
pub(crate) fn flatten(root: &Node, before: Option<&Value>, after: Option<&Value>, vis: &Visibility<'_>) -> Vec<FlatChange> {
    let mut out = Vec::new();
    let mut path = Vec::new();
    flat(root, before, after, vis, None, &mut path, &mut out);
    out
}

fn flat(
    n: &Node,
    before: Option<&Value>,
    after: Option<&Value>,
    vis: &Visibility<'_>,
    inherited: Option<SensitivityChange>,
    path: &mut Vec<PathStep>,
    out: &mut Vec<FlatChange>,
) {
    if n.op == Op::Same && !n.forces_replacement {
        return;
    }
    let whole = |v: Option<&Value>| v.filter(|v| !v.is_null()).map(|v| Shown::of(Some(v), false, false, vis));
    let sensitivity = n.sensitivity.map(|s| s.change).or(inherited);
    let push = |out: &mut Vec<FlatChange>, path: &[PathStep], b: Option<Shown>, a: Option<Shown>| {
        out.push(FlatChange { path: path.to_vec(), op: n.op, before: b, after: a, forces_replacement: n.forces_replacement, sensitivity });
    };
    match &n.kind {
        // Only the sensitivity of a collection changes (shown with
        // `--show-sensitive`): one change, whole sides.
        Kind::Collection { .. } if n.sensitivity.is_some_and(|s| s.value_unchanged) => {
            let side = |v: Option<&Value>| if has_sensitive(n) { v.map(|_| Shown::Sensitive) } else { whole(v) };
            push(out, path, side(before), side(after))
        }
        Kind::Leaf { before: b, after: a } => push(out, path, b.clone(), a.clone()),
        Kind::Lines(_) | Kind::Json(_) | Kind::Swap(..) => push(out, path, whole(before), whole(after)),
        Kind::ToUnknown(_) => push(out, path, whole(before), Some(Shown::Unknown)),
        Kind::Collection { before: bs, after: as_, .. } if bs.is_some() || as_.is_some() => {
            // A side shown whole is masked if anything inside was masked.
            let masked = has_sensitive(n);
            let side = |v: Option<&Value>| if masked { v.map(|_| Shown::Sensitive) } else { whole(v) };
            let b = bs.clone().or_else(|| side(before));
            let a = as_.clone().or_else(|| side(after));
            push(out, path, b, a)
        }
        Kind::Collection { entries, .. } => flat_entries(entries, before, after, vis, sensitivity, path, out),
        Kind::Block(b) => {
            flat_entries(&b.attributes, before, after, vis, sensitivity, path, out);
            for e in &b.blocks {
                let name = PathStep::Key(e.name.clone());
                let mut bsteps = vec![name.clone()];
                bsteps.extend(e.before_key.as_ref().map(Key::step));
                let mut asteps = vec![name];
                asteps.extend(e.key.as_ref().map(Key::step));
                let cb = if e.node.op == Op::Add { None } else { before.and_then(|v| value_at(v, &bsteps)) };
                let ca = if e.node.op == Op::Remove { None } else { after.and_then(|v| value_at(v, &asteps)) };
                let n = path.len();
                path.extend(asteps);
                flat(&e.node, cb, ca, vis, sensitivity, path, out);
                path.truncate(n);
            }
        }
        // Its value is never in the plan.
        Kind::WriteOnly { .. } => {}
    }
}

fn flat_entries(
    entries: &[Entry],
    before: Option<&Value>,
    after: Option<&Value>,
    vis: &Visibility<'_>,
    sensitivity: Option<SensitivityChange>,
    path: &mut Vec<PathStep>,
    out: &mut Vec<FlatChange>,
) {
    for e in entries {
        let cb = e.before_key.as_ref().and_then(|k| before.and_then(|v| value_at(v, &[k.step()])));
        let ca = if e.node.op == Op::Remove { None } else { after.and_then(|v| value_at(v, &[e.key.step()])) };
        path.push(e.key.step());
        flat(&e.node, cb, ca, vis, sensitivity, path, out);
        path.pop();
    }
}

fn has_sensitive(n: &Node) -> bool {
    match &n.kind {
        Kind::Leaf { before, after } => matches!(before, Some(Shown::Sensitive)) || matches!(after, Some(Shown::Sensitive)),
        Kind::Collection { entries, .. } => entries.iter().any(|e| has_sensitive(&e.node)),
        Kind::Json(inner) | Kind::ToUnknown(inner) => has_sensitive(inner),
        Kind::Swap(b, a) => has_sensitive(b) || has_sensitive(a),
        Kind::Block(b) => b.attributes.iter().any(|e| has_sensitive(&e.node)) || b.blocks.iter().any(|e| has_sensitive(&e.node)),
        Kind::WriteOnly { sensitive } => *sensitive,
        Kind::Lines(_) => false,
    }
}

/// Map keys are text from the input (a key can be a secret): once the tree
/// has been walked for values, the keys it prints are masked as `vis` says,
/// in the tree and in the flat changes' paths.
pub(crate) fn mask_keys(root: &mut Node, changes: &mut [FlatChange], vis: &Visibility<'_>) {
    fn key(k: &mut Key, vis: &Visibility<'_>) {
        if let Key::Attr(a) = k {
            mask(a, vis);
        }
    }
    fn mask(k: &mut String, vis: &Visibility<'_>) {
        let masked = vis.text(k);
        if masked != k.as_str() {
            *k = masked.into_owned();
        }
    }
    fn walk(n: &mut Node, vis: &Visibility<'_>) {
        match &mut n.kind {
            Kind::Collection { entries, .. } => {
                for e in entries {
                    key(&mut e.key, vis);
                    if let Some(b) = &mut e.before_key {
                        key(b, vis);
                    }
                    walk(&mut e.node, vis);
                }
            }
            Kind::Json(inner) | Kind::ToUnknown(inner) => walk(inner, vis),
            Kind::Swap(b, a) => {
                walk(b, vis);
                walk(a, vis);
            }
            Kind::Block(b) => {
                for e in &mut b.attributes {
                    key(&mut e.key, vis);
                    if let Some(k) = &mut e.before_key {
                        key(k, vis);
                    }
                    walk(&mut e.node, vis);
                }
                for e in &mut b.blocks {
                    if let Some(k) = &mut e.map_key {
                        mask(k, vis);
                    }
                    for k in [&mut e.key, &mut e.before_key].into_iter().flatten() {
                        key(k, vis);
                    }
                    walk(&mut e.node, vis);
                }
            }
            Kind::Leaf { .. } | Kind::Lines(_) | Kind::WriteOnly { .. } => {}
        }
    }
    walk(root, vis);
    for c in changes {
        for step in &mut c.path {
            if let PathStep::Key(k) = step {
                mask(k, vis);
            }
        }
    }
}

/// The path printer and its identifier test under the names `show` and its
/// renderer call them by ([`crate::query::path`]).
pub(crate) use crate::query::path::{is_identifier as is_ident, traversal as path_text};

#[cfg(test)]
mod tests;
