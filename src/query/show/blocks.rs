//! A resource's change diffed by its provider schema, as the CLI diffs one
//! (internal/command/jsonformat/differ/block.go, `ComputeDiffForBlock`):
//! attributes by their types (sets as sets, maps with quoted keys, the legacy
//! SDK's `""` as null), nested blocks by their nesting mode (single, group,
//! list, set, map), blocks known only after apply, write-only attributes, and
//! the counts of unchanged attributes and blocks it hides.

use crate::model::markers::{self, child};
use crate::model::PathStep;
use crate::query::diff::{
    self, BlockEntry, BlockNode, DiffOptions, Entry, Key, Kind, Marks, Node, Op, SensitivityChange, SensitivityNote, IDENTIFYING,
};
use crate::query::schema::{Block, Nesting};
use crate::query::values::Shown;
use serde_json::{Map, Value};

/// The CLI's `CompareActions`: a no-op child keeps the action; another
/// action than the current one makes an update.
fn combine(current: Op, next: Op) -> Op {
    if next == Op::Same || current == next {
        current
    } else {
        Op::Update
    }
}

/// The CLI's `GetDefaultActionForIteration`.
fn default_action(before: Option<&Value>, after: Option<&Value>) -> Op {
    match (before, after) {
        (None, Some(_)) => Op::Add,
        (Some(_), None) => Op::Remove,
        _ => Op::Same,
    }
}

fn leaf(op: Op, before: Option<Shown>, after: Option<Shown>) -> Node {
    Node { op, forces_replacement: false, sensitivity: None, kind: Kind::Leaf { before, after } }
}

fn marks_at<'v>(m: Marks<'v>, bstep: Option<&PathStep>, astep: Option<&PathStep>) -> Marks<'v> {
    Marks {
        before_sensitive: bstep.and_then(|s| child(m.before_sensitive, s)),
        after_sensitive: astep.and_then(|s| child(m.after_sensitive, s)),
        after_unknown: astep.and_then(|s| child(m.after_unknown, s)),
    }
}

/// The diff of a block (a resource's own at the root: `o.legacy` set, the
/// block's schema decides). `None` or null: that side has no block.
pub(crate) fn block_node(
    before: Option<&Value>,
    after: Option<&Value>,
    m: Marks<'_>,
    block: &Block,
    o: &DiffOptions<'_, '_>,
    path: &mut Vec<PathStep>,
) -> Node {
    let before = before.filter(|v| !v.is_null());
    let after = after.filter(|v| !v.is_null());
    let forces_replacement = !path.is_empty() && o.replace_paths.iter().any(|p| p == path);
    // Marked sensitive whole: its contents are not shown.
    let (bs, as_) = (markers::whole(m.before_sensitive), markers::whole(m.after_sensitive));
    if !o.vis.show_sensitive && (bs || as_) {
        let inner = block_node(before, after, Marks { before_sensitive: None, after_sensitive: None, ..m }, block, o, path);
        let op = if inner.op == Op::Same && bs != as_ && (before.is_some() || after.is_some()) { Op::Update } else { inner.op };
        let side = |v: Option<&Value>| v.map(|_| Shown::Sensitive);
        let after_shown = if markers::whole(m.after_unknown) { Some(Shown::Unknown) } else { side(after) };
        // The CLI warns when a nested block becomes (or stops being) sensitive
        // in an update (`sensitiveBlockRenderer.WarningsHuman`), not in a create or delete.
        let sensitivity = (bs != as_ && !path.is_empty() && !matches!(inner.op, Op::Add | Op::Remove)).then(|| SensitivityNote {
            change: if as_ { SensitivityChange::Marked } else { SensitivityChange::Unmarked },
            value_unchanged: inner.op == Op::Same,
        });
        return Node { forces_replacement, sensitivity, ..leaf(op, side(before), after_shown) };
    }
    // Known only after apply.
    if markers::whole(m.after_unknown) {
        if before.is_none() {
            return Node { forces_replacement, ..leaf(Op::Add, None, Some(Shown::Unknown)) };
        }
        // The CLI's `CheckForUnknown` with its `childUnknown`: the block as
        // it would be deleted, every attribute of its schema known only
        // after apply (`~ x = 1 -> (known after apply)`, `+ y = (known after
        // apply)` for one that was null), its nested blocks removed.
        let every = Value::Object(block.attributes.keys().map(|k| (k.clone(), Value::Bool(true))).collect());
        let was = block_node(before, None, Marks { after_unknown: Some(&every), after_sensitive: None, ..m }, block, o, path);
        return Node { op: Op::Update, forces_replacement, sensitivity: None, kind: Kind::ToUnknown(Box::new(was)) };
    }
    let lo = DiffOptions { legacy: o.legacy && !block.non_legacy(), block_root: false, objects_by_content: false, ..*o };
    let full = DiffOptions { full: true, ..lo };
    let empty = Map::new();
    let bo = before.and_then(Value::as_object).unwrap_or(&empty);
    let ao = after.and_then(Value::as_object).unwrap_or(&empty);
    let mut current = default_action(before, after);
    // The legacy SDK's "" is null: `""` on both sides is unchanged (and
    // counted), an attribute null on both sides is not recorded at all.
    let legacy_nil = |v: Option<&Value>| v.is_none_or(|v| lo.legacy && v.as_str() == Some(""));

    let mut attributes = Vec::new();
    let (mut hidden_attributes, mut width) = (0, 0);
    for (name, attr) in &block.attributes {
        if attr.write_only {
            continue;
        }
        let step = PathStep::Key(name.clone());
        let (b, a) = (bo.get(name).filter(|v| !v.is_null()), ao.get(name).filter(|v| !v.is_null()));
        let cm = marks_at(m, Some(&step), Some(&step));
        let ty = attr.value_type();
        let important = IDENTIFYING.contains(&name.as_str());
        let known = !markers::any(cm.after_unknown);
        if b.is_none() && a.is_none() && known {
            continue;
        }
        path.push(step);
        let n = if legacy_nil(b) && legacy_nil(a) && known {
            leaf(Op::Same, None, None)
        } else {
            diff::node(b, a, cm, if important { &full } else { &lo }, path, Some(&ty))
        };
        path.pop();
        width = width.max(diff::key_width(name));
        current = combine(current, n.op);
        if n.op == Op::Same && !o.full && !important {
            hidden_attributes += 1;
        } else {
            attributes.push(Entry { key: Key::Attr(name.clone()), before_key: b.map(|_| Key::Attr(name.clone())), moved: false, node: n });
        }
    }

    let mut blocks: Vec<BlockEntry> = Vec::new();
    // Placeholders of block lists known only after apply: they take the block's final action.
    let mut unknown_at = Vec::new();
    for (name, bt) in &block.block_types {
        let step = PathStep::Key(name.clone());
        let (b, a) = (bo.get(name).filter(|v| !v.is_null()), ao.get(name).filter(|v| !v.is_null()));
        let cm = marks_at(m, Some(&step), Some(&step));
        let unknown = markers::whole(cm.after_unknown);
        path.push(step);
        let entry = |key: Option<Key>, before_key: Option<Key>, map_key: Option<String>, node: Node| BlockEntry {
            name: name.clone(),
            map_key,
            key,
            before_key,
            node,
        };
        match bt.nesting_mode {
            Nesting::Single | Nesting::Group => {
                let n = block_node(b, a, cm, &bt.block, &lo, path);
                if !(n.op == Op::Same && b.is_none() && a.is_none() && !unknown) {
                    current = combine(current, n.op);
                    blocks.push(entry(None, None, None, n));
                }
            }
            Nesting::List | Nesting::Set | Nesting::Map => {
                let mut group = default_action(b, a);
                let mut elements = Vec::new();
                // Known only after apply: the elements it had are removed
                // (after the `name (known after apply)` line), as the CLI's
                // `computeBlockDiffsAsList` shows them.
                let a = if unknown { None } else { a };
                for (bk, ak, eb, ea) in element_pairs(bt.nesting_mode, b, a, cm) {
                    let (bstep, astep) = (bk.as_ref().map(Key::step), ak.as_ref().map(Key::step));
                    let em = marks_at(cm, bstep.as_ref(), astep.as_ref());
                    let pushed = astep.clone().or(bstep.clone());
                    path.extend(pushed.clone());
                    let n = block_node(eb, ea, em, &bt.block, &lo, path);
                    if pushed.is_some() {
                        path.pop();
                    }
                    group = combine(group, n.op);
                    let map_key = match (&ak, &bk, bt.nesting_mode) {
                        (Some(Key::Attr(k)), _, Nesting::Map) | (None, Some(Key::Attr(k)), Nesting::Map) => Some(k.clone()),
                        _ => None,
                    };
                    elements.push(entry(ak.or(bk.clone()), bk, map_key, n));
                }
                // Replacement forced by the whole group: noted on each of its blocks.
                if o.replace_paths.iter().any(|p| p == path) {
                    elements.iter_mut().for_each(|e| e.node.forces_replacement = true);
                }
                if !(group == Op::Same && b.is_none() && a.is_none() && !unknown) {
                    if unknown {
                        unknown_at.push(blocks.len());
                        blocks.push(entry(None, None, None, leaf(Op::Same, None, Some(Shown::Unknown))));
                    }
                    blocks.extend(elements);
                    current = combine(current, group);
                }
            }
        }
        path.pop();
    }
    for i in unknown_at {
        blocks[i].node.op = current;
        if current == Op::Add {
            blocks[i].node.kind = Kind::Leaf { before: None, after: Some(Shown::Unknown) };
        }
    }
    let mut hidden_blocks = 0;
    if !o.full {
        blocks.retain(|b| {
            let keep = b.node.op != Op::Same;
            hidden_blocks += usize::from(!keep);
            keep
        });
    }

    // Write-only attributes take the block's action (an update's as
    // unchanged): their values are never in the plan.
    // Like the CLI, they take the block's sensitivity and replacement, not their own.
    for name in block.attributes.iter().filter(|(_, a)| a.write_only).map(|(n, _)| n) {
        let forces = forces_replacement;
        let op = if current == Op::Update { Op::Same } else { current };
        let sensitive = bs || as_;
        width = width.max(diff::key_width(name));
        if op == Op::Same && !o.full {
            hidden_attributes += 1;
            continue;
        }
        let node = Node { op, forces_replacement: forces, sensitivity: None, kind: Kind::WriteOnly { sensitive } };
        let at = attributes.partition_point(|e: &Entry| matches!(&e.key, Key::Attr(k) if k < name));
        attributes.insert(at, Entry { key: Key::Attr(name.clone()), before_key: None, moved: false, node });
    }

    Node {
        op: current,
        forces_replacement,
        sensitivity: None,
        kind: Kind::Block(Box::new(BlockNode { attributes, hidden_attributes, width, blocks, hidden_blocks })),
    }
}

type ElementPair<'v> = (Option<Key>, Option<Key>, Option<&'v Value>, Option<&'v Value>);

/// The elements of a list, set or map of blocks, paired as the CLI pairs
/// them: a list by position, a set by equality ([`diff::set_pairs`]), a map by key.
fn element_pairs<'v>(mode: Nesting, before: Option<&'v Value>, after: Option<&'v Value>, m: Marks<'v>) -> Vec<ElementPair<'v>> {
    match mode {
        Nesting::Map => {
            let b = before.and_then(Value::as_object);
            let a = after.and_then(Value::as_object);
            let mut keys: Vec<&String> = b.into_iter().flat_map(|m| m.keys()).chain(a.into_iter().flat_map(|m| m.keys())).collect();
            keys.sort();
            keys.dedup();
            keys.into_iter()
                .map(|k| {
                    let (eb, ea) = (b.and_then(|m| m.get(k)), a.and_then(|m| m.get(k)));
                    (eb.map(|_| Key::Attr(k.clone())), ea.map(|_| Key::Attr(k.clone())), eb, ea)
                })
                .collect()
        }
        Nesting::Set => diff::set_pairs(before, after, m).into_iter().map(|(bk, ak, b, a, _)| (bk, ak, b, a)).collect(),
        _ => {
            let b = before.and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
            let a = after.and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
            (0..b.len().max(a.len()))
                .map(|i| {
                    let (eb, ea) = (b.get(i), a.get(i));
                    (eb.map(|_| Key::Index(i)), ea.map(|_| Key::Index(i)), eb, ea)
                })
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::schema::Schemas;
    use crate::query::values::Visibility;
    use serde_json::json;

    const SCHEMA: &str = r#"{"format_version":"1.0","provider_schemas":{"p":{"resource_schemas":{"t":{"block":{
      "attributes":{"id":{"type":"string"},"note":{"type":"string"},"secret_wo":{"type":"string","write_only":true}},
      "block_types":{
        "one":{"nesting_mode":"single","block":{"attributes":{"x":{"type":"number"}}}},
        "rule":{"nesting_mode":"set","block":{"attributes":{"port":{"type":"number"}}}},
        "site":{"nesting_mode":"map","block":{"attributes":{"x":{"type":"number"}}}}}}}}}}}"#;

    fn diff_of(before: Value, after: Value) -> Node {
        let schemas = Schemas::parse(SCHEMA.as_bytes()).unwrap();
        let block = schemas.block(Some("p"), false, "t").unwrap();
        let vis = Visibility::default();
        let o = DiffOptions { vis: &vis, full: false, replace_paths: &[], block_root: false, objects_by_content: false, legacy: true };
        block_node(Some(&before), Some(&after), Marks::default(), block, &o, &mut Vec::new())
    }

    #[test]
    fn nesting_modes_pair_as_the_cli_pairs_them() {
        let before = json!({"id":"a","note":"","one":{"x":1},"rule":[{"port":22},{"port":443}],"site":{"eu":{"x":1},"us":{"x":2}}});
        let after = json!({"id":"a","note":"","one":{"x":2},"rule":[{"port":443},{"port":80}],"site":{"eu":{"x":1},"us":{"x":3}}});
        let n = diff_of(before, after);
        assert_eq!(n.op, Op::Update);
        let Kind::Block(b) = &n.kind else { panic!("{n:?}") };
        // `id` shown, `note` ("" both sides: null to the legacy SDK) and the write-only counted.
        assert_eq!(b.attributes.len(), 1);
        assert_eq!(b.hidden_attributes, 2);
        let seen: Vec<(String, Option<String>, Op)> = b.blocks.iter().map(|e| (e.name.clone(), e.map_key.clone(), e.node.op)).collect();
        assert_eq!(
            seen,
            [
                ("one".into(), None, Op::Update),
                ("rule".into(), None, Op::Remove),
                ("rule".into(), None, Op::Add),
                ("site".into(), Some("us".into()), Op::Update),
            ],
            "a set's elements removed and added whole, never paired"
        );
        assert_eq!(b.hidden_blocks, 2, "rule 443 and site eu");
    }

    #[test]
    fn a_nested_block_that_becomes_sensitive_carries_the_note_the_cli_warns_with() {
        let schemas = Schemas::parse(SCHEMA.as_bytes()).unwrap();
        let block = schemas.block(Some("p"), false, "t").unwrap();
        let vis = Visibility::default();
        let o = DiffOptions { vis: &vis, full: false, replace_paths: &[], block_root: false, objects_by_content: false, legacy: true };
        let (before, after) = (json!({"id":"a","one":{"x":1}}), json!({"id":"a","one":{"x":1}}));
        let (bs, as_) = (json!({}), json!({"one": true}));
        let m = Marks { before_sensitive: Some(&bs), after_sensitive: Some(&as_), after_unknown: None };
        let n = block_node(Some(&before), Some(&after), m, block, &o, &mut Vec::new());
        let Kind::Block(b) = &n.kind else { panic!("{n:?}") };
        let one = &b.blocks[0].node;
        assert_eq!(one.op, Op::Update);
        assert_eq!(one.sensitivity, Some(SensitivityNote { change: SensitivityChange::Marked, value_unchanged: true }));
        // Created: no warning, as the CLI.
        let m = Marks { before_sensitive: None, after_sensitive: Some(&as_), after_unknown: None };
        let n = block_node(None, Some(&after), m, block, &o, &mut Vec::new());
        let Kind::Block(b) = &n.kind else { panic!("{n:?}") };
        assert_eq!(b.blocks[0].node.sensitivity, None);
    }

    #[test]
    fn a_block_that_becomes_unknown_shows_its_attributes_known_after_apply_as_the_cli() {
        // A single block with a value before, unknown after (the CLI's
        // `CheckForUnknown` with `childUnknown`): `~ one { ~ x = 1 -> (known
        // after apply) } -> (known after apply)`, not its attributes removed.
        let schemas = Schemas::parse(SCHEMA.as_bytes()).unwrap();
        let block = schemas.block(Some("p"), false, "t").unwrap();
        let vis = Visibility::default();
        let o = DiffOptions { vis: &vis, full: false, replace_paths: &[], block_root: false, objects_by_content: false, legacy: true };
        let (before, after) = (json!({"id":"a","one":{"x":1},"rule":[{"port":22}]}), json!({"id":"a"}));
        let unknown = json!({"one": true, "rule": true});
        let m = Marks { after_unknown: Some(&unknown), ..Marks::default() };
        let n = block_node(Some(&before), Some(&after), m, block, &o, &mut Vec::new());
        let Kind::Block(b) = &n.kind else { panic!("{n:?}") };
        let one = &b.blocks[0];
        assert_eq!((one.name.as_str(), one.node.op), ("one", Op::Update));
        let Kind::ToUnknown(inner) = &one.node.kind else { panic!("{one:?}") };
        let Kind::Block(ib) = &inner.kind else { panic!("{inner:?}") };
        assert_eq!(ib.attributes.len(), 1);
        let x = &ib.attributes[0].node;
        assert_eq!((x.op, &x.kind), (Op::Update, &Kind::Leaf { before: Some(Shown::Value("1".into())), after: Some(Shown::Unknown) }));
        // A set (or list) of blocks: `~ rule (known after apply)`, then each
        // element it had, removed.
        let rules: Vec<(Op, bool)> =
            b.blocks.iter().filter(|e| e.name == "rule").map(|e| (e.node.op, matches!(e.node.kind, Kind::Block(_)))).collect();
        assert_eq!(rules, [(Op::Update, false), (Op::Remove, true)]);
        // An attribute null before is `+ x = (known after apply)`.
        let before = json!({"id":"a","one":{"x":null}});
        let n = block_node(Some(&before), Some(&after), m, block, &o, &mut Vec::new());
        let Kind::Block(b) = &n.kind else { panic!("{n:?}") };
        let Kind::ToUnknown(inner) = &b.blocks[0].node.kind else { panic!("{b:?}") };
        let Kind::Block(ib) = &inner.kind else { panic!("{inner:?}") };
        assert_eq!(
            (ib.attributes[0].node.op, &ib.attributes[0].node.kind),
            (Op::Add, &Kind::Leaf { before: None, after: Some(Shown::Unknown) })
        );
    }

    #[test]
    fn a_create_shows_write_only_and_a_delete_removes_blocks() {
        let n = diff_of(Value::Null, json!({"id":"a","one":{"x":1}}));
        let Kind::Block(b) = &n.kind else { panic!("{n:?}") };
        assert_eq!(n.op, Op::Add);
        let wo = b.attributes.iter().find(|e| e.key == Key::Attr("secret_wo".into())).unwrap();
        assert_eq!((wo.node.op, &wo.node.kind), (Op::Add, &Kind::WriteOnly { sensitive: false }));
        let n = diff_of(json!({"id":"a","one":{"x":1}}), Value::Null);
        let Kind::Block(b) = &n.kind else { panic!("{n:?}") };
        assert_eq!((n.op, b.blocks[0].node.op), (Op::Remove, Op::Remove));
    }
}
