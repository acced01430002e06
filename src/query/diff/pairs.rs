//! How the elements of two collections are paired for their diff: objects
//! by key, sets as the CLI pairs them, lists by position or along a longest
//! common subsequence (`collections.ProcessSlice`), lists of objects without
//! a schema by content.

use super::{align, cli_lcs, Key, Marks, Slot};
use crate::model::markers::{self, child};
use crate::model::PathStep;
use serde_json::Value;

/// Before key, after key, before value, after value, moved (an equal list element out of order).
pub(crate) type Pair<'v> = (Option<Key>, Option<Key>, Option<&'v Value>, Option<&'v Value>, bool);

pub(super) fn object_pairs<'v>(before: Option<&'v Value>, after: Option<&'v Value>, unknown: Option<&'v Value>) -> Vec<Pair<'v>> {
    let bo = before.and_then(Value::as_object);
    let ao = after.and_then(Value::as_object);
    let uo = unknown.and_then(Value::as_object);
    let keys_of = |m: Option<&'v serde_json::Map<String, Value>>| m.into_iter().flat_map(|m| m.keys());
    let mut keys: Vec<&String> = keys_of(bo).chain(keys_of(ao)).chain(keys_of(uo)).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .map(|k| {
            let b = bo.and_then(|m| m.get(k));
            (b.map(|_| Key::Attr(k.clone())), Some(Key::Attr(k.clone())), b, ao.and_then(|m| m.get(k)), false)
        })
        .collect()
}

/// A set's elements as the CLI pairs them (`processSet`): each before
/// element with an equal after element (unchanged), or removed; then the
/// after elements left, added. Never two different elements paired.
pub(crate) fn set_pairs<'v>(before: Option<&'v Value>, after: Option<&'v Value>, m: Marks<'v>) -> Vec<Pair<'v>> {
    static EMPTY: Vec<Value> = Vec::new();
    let b = before.and_then(Value::as_array).unwrap_or(&EMPTY);
    let a = after.and_then(Value::as_array).unwrap_or(&EMPTY);
    let ua = m.after_unknown.and_then(Value::as_array);
    let alen = a.len().max(ua.map_or(0, Vec::len));
    let partly_unknown = |j: usize| markers::any(ua.and_then(|u| u.get(j)));
    // The CLI pairs two elements only when their sensitivity is the same too
    // (`processSet`): a value that becomes sensitive is removed and added.
    let sensitive = |marker: Option<&Value>, i: usize| markers::whole(child(marker, &PathStep::Index(i as u64)));
    let mut taken = vec![false; alen];
    let mut out = Vec::with_capacity(b.len().max(alen));
    for (i, bv) in b.iter().enumerate() {
        let found = (0..a.len()).find(|&j| {
            !taken[j] && !partly_unknown(j) && a[j] == *bv && sensitive(m.before_sensitive, i) == sensitive(m.after_sensitive, j)
        });
        match found {
            Some(j) => {
                taken[j] = true;
                out.push((Some(Key::Index(i)), Some(Key::Index(j)), Some(bv), Some(&a[j]), false));
            }
            None => out.push((Some(Key::Index(i)), None, Some(bv), None, false)),
        }
    }
    for (j, t) in taken.iter().enumerate() {
        if !t {
            out.push((None, Some(Key::Index(j)), None, a.get(j), false));
        }
    }
    out
}

/// True when either side is a non-empty list of objects only.
pub(super) fn list_of_objects(before: Option<&Value>, after: Option<&Value>) -> bool {
    let objs = |v: Option<&Value>| v.and_then(Value::as_array).is_some_and(|a| !a.is_empty() && a.iter().all(Value::is_object));
    objs(before) || objs(after)
}

/// Lists of objects without a schema (sets, nested blocks): elements aligned
/// by content ([`align`]), so that one rule never turns into another's ports.
pub(super) fn content_pairs<'v>(before: Option<&'v Value>, after: Option<&'v Value>, unknown: Option<&'v Value>) -> Vec<Pair<'v>> {
    static EMPTY: Vec<Value> = Vec::new();
    let b = before.and_then(Value::as_array).unwrap_or(&EMPTY);
    let a = after.and_then(Value::as_array).unwrap_or(&EMPTY);
    let ua = unknown.and_then(Value::as_array);
    let alen = a.len().max(ua.map_or(0, Vec::len));
    align(b, a, alen, ua.map(Vec::as_slice))
        .into_iter()
        .map(|slot| match slot {
            Slot::Same(i, j) | Slot::Paired(i, j) => (Some(Key::Index(i)), Some(Key::Index(j)), Some(&b[i]), a.get(j), false),
            Slot::Moved(i, j) => (Some(Key::Index(i)), Some(Key::Index(j)), Some(&b[i]), a.get(j), true),
            Slot::Removed(i) => (Some(Key::Index(i)), None, Some(&b[i]), None, false),
            Slot::Added(j) => (None, Some(Key::Index(j)), None, a.get(j), false),
        })
        .collect()
}

/// Lists (and sets, which the JSON writes as lists), paired as the CLI
/// pairs them ([`cli_slice`]): by position when the lengths match and the
/// lists are not a reordering, else along a longest common subsequence.
pub(super) fn list_pairs<'v>(before: Option<&'v Value>, after: Option<&'v Value>, unknown: Option<&'v Value>) -> Vec<Pair<'v>> {
    static EMPTY: Vec<Value> = Vec::new();
    let b = before.and_then(Value::as_array).unwrap_or(&EMPTY);
    let a = after.and_then(Value::as_array).unwrap_or(&EMPTY);
    let ua = unknown.and_then(Value::as_array);
    let alen = a.len().max(ua.map_or(0, Vec::len));
    let partly_unknown = |j: usize| markers::any(ua.and_then(|u| u.get(j)));
    let same = |i: usize, j: usize| !partly_unknown(j) && a.get(j).is_some_and(|x| *x == b[i]);
    let is_obj_b = |i: usize| b[i].is_object();
    let is_obj_a = |j: usize| a.get(j).is_some_and(Value::is_object);
    cli_slice(b.len(), alen, same, is_obj_b, is_obj_a)
        .into_iter()
        .map(|(i, j)| match (i, j) {
            (Some(i), Some(j)) => (Some(Key::Index(i)), Some(Key::Index(j)), Some(&b[i]), a.get(j), false),
            (Some(i), None) => (Some(Key::Index(i)), None, Some(&b[i]), None, false),
            (None, j) => (None, j.map(Key::Index), None, j.and_then(|j| a.get(j)), false),
        })
        .collect()
}

/// The CLI's pairing of two sequences (`collections.ProcessSlice`): the same
/// length and not a reordering (some element of `before` has no equal in
/// `after`): by position. Else along a longest common subsequence; before
/// each common element, the before elements left are removed (an object
/// facing an after object that is not the next common element is paired
/// with it instead), then the after elements left are added.
pub(crate) fn cli_slice(
    n: usize,
    m: usize,
    eq: impl Fn(usize, usize) -> bool,
    obj_b: impl Fn(usize) -> bool,
    obj_a: impl Fn(usize) -> bool,
) -> Vec<(Option<usize>, Option<usize>)> {
    let reorder = n == m && (0..n).all(|i| (0..m).any(|j| eq(i, j)));
    if n == m && !reorder {
        return (0..n).map(|i| (Some(i), Some(i))).collect();
    }
    let common = if n.saturating_mul(m) > 4_000_000 { Vec::new() } else { cli_lcs(n, m, &eq) };
    let mut out = Vec::with_capacity(n.max(m));
    let (mut i, mut j, mut k) = (0, 0, 0);
    // Whether before[i] / after[j] equals the k-th common element (by value, as the CLI compares).
    let b_is = |i: usize, k: usize| common.get(k).is_some_and(|&(_, cj)| eq(i, cj));
    let a_is = |j: usize, k: usize| common.get(k).is_some_and(|&(ci, _)| eq(ci, j));
    while i < n || j < m || k < common.len() {
        while i < n && !b_is(i, k) {
            if obj_b(i) && j < m && obj_a(j) && !a_is(j, k) {
                out.push((Some(i), Some(j)));
                i += 1;
                j += 1;
                continue;
            }
            out.push((Some(i), None));
            i += 1;
        }
        while j < m && !a_is(j, k) {
            out.push((None, Some(j)));
            j += 1;
        }
        if k < common.len() {
            out.push((Some(i), Some(j)));
            i += 1;
            j += 1;
            k += 1;
        }
    }
    out
}
