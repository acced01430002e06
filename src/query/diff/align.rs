//! List alignment for the differ: which element of one list is which of the
//! other (equal in order, moved, paired near-equal collections, removed,
//! added), as the CLI aligns lists and sets.

use crate::model::markers;
use serde_json::Value;

/// How an element of one list corresponds to the other list's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    /// Equal elements, in order (before index, after index).
    Same(usize, usize),
    /// Equal elements out of order: moved (before index, after index).
    Moved(usize, usize),
    /// Near-equal collections, diffed in place (before index, after index).
    Paired(usize, usize),
    /// Only before.
    Removed(usize),
    /// Only after.
    Added(usize),
}

/// Leftover pairs to score before giving up on pairing (each score walks two elements).
const PAIRING_BUDGET: usize = 10_000;

/// Align two lists by content, in display order.
///
/// First a longest common subsequence of whole-element equality (an after
/// element with unknown parts equals nothing); then an equal element left over
/// on both sides (out of order) is matched as moved, nearest first; then,
/// among the elements still left over anywhere in the lists (sets come in any
/// order), a removed and an added collection are paired when they share most of their content ([`similarity`]),
/// best pairs first; a single element left over on each side, at the same
/// position and of the same shape, is paired too (a nested block edited in
/// place); every other leftover is a removal plus an addition, as the CLI
/// shows set elements. Within each run between equal elements, removals
/// come first, then additions and paired updates in after order (a paired
/// update sits at its after position).
///
/// `alen` may exceed `after.len()` when the unknown marker is longer (elements
/// unknown until apply). Also used by [`changed_paths`] (which follows
/// only elements that keep their position) and `planview diff`.
pub(crate) fn align(before: &[Value], after: &[Value], alen: usize, unknown: Option<&[Value]>) -> Vec<Slot> {
    let unknown_at = |j: usize| unknown.and_then(|u| u.get(j));
    let partly_unknown = |j: usize| markers::any(unknown_at(j));
    let same = |i: usize, j: usize| !partly_unknown(j) && after.get(j).is_some_and(|x| *x == before[i]);
    let n = before.len();
    let matches = if n.saturating_mul(alen) > 4_000_000 {
        // Too big to align: compare position by position.
        (0..n.min(alen)).filter(|&k| same(k, k)).map(|k| (k, k)).collect()
    } else {
        lcs(n, alen, same)
    };

    // Leftovers on each side.
    let mut matched_b = vec![false; n];
    let mut matched_a = vec![false; alen];
    for &(i, j) in &matches {
        matched_b[i] = true;
        matched_a[j] = true;
    }
    let left_b: Vec<usize> = (0..n).filter(|&i| !matched_b[i]).collect();
    let left_a: Vec<usize> = (0..alen).filter(|&j| !matched_a[j]).collect();

    // Equal elements out of order (nearest first), then near-equal leftovers
    // (best first, then nearest in position).
    let mut partner_of_a: Vec<Option<(usize, bool)>> = vec![None; alen];
    let mut paired_b = vec![false; n];
    if left_b.len().saturating_mul(left_a.len()) <= PAIRING_BUDGET {
        let mut equal: Vec<(usize, usize, usize)> =
            left_b.iter().flat_map(|&i| left_a.iter().filter(move |&&j| same(i, j)).map(move |&j| (i.abs_diff(j), i, j))).collect();
        equal.sort_unstable();
        for (_, i, j) in equal {
            if !paired_b[i] && partner_of_a[j].is_none() {
                paired_b[i] = true;
                partner_of_a[j] = Some((i, true));
            }
        }
        let mut cands: Vec<(u64, usize, usize, usize)> = Vec::new();
        for &i in left_b.iter().filter(|&&i| !paired_b[i]) {
            for &j in left_a.iter().filter(|&&j| partner_of_a[j].is_none()) {
                // A wholly unknown element has nothing to compare.
                let Some(x) = after.get(j).filter(|_| !markers::whole(unknown_at(j))) else { continue };
                if let Some(score) = similarity(&before[i], x, unknown_at(j)) {
                    cands.push((score, i.abs_diff(j), i, j));
                }
            }
        }
        cands.sort_by(|x, y| y.0.cmp(&x.0).then(x.1.cmp(&y.1)).then(x.2.cmp(&y.2)).then(x.3.cmp(&y.3)));
        for (_, _, i, j) in cands {
            if !paired_b[i] && partner_of_a[j].is_none() {
                paired_b[i] = true;
                partner_of_a[j] = Some((i, false));
            }
        }
        // One element left on each side, at the same position, of the same
        // shape (a nested block edited in place): an update.
        let rest_b: Vec<usize> = left_b.iter().copied().filter(|&i| !paired_b[i]).collect();
        let rest_a: Vec<usize> = left_a.iter().copied().filter(|&j| partner_of_a[j].is_none()).collect();
        if let ([i], [j]) = (rest_b.as_slice(), rest_a.as_slice()) {
            let same_shape = match (&before[*i], after.get(*j)) {
                (Value::Object(x), Some(Value::Object(y))) => x.len() == y.len() && x.keys().all(|k| y.contains_key(k)),
                (Value::Array(_), Some(Value::Array(_))) => true,
                _ => false,
            };
            if i == j && same_shape && !markers::whole(unknown_at(*j)) {
                paired_b[*i] = true;
                partner_of_a[*j] = Some((*i, false));
            }
        }
    }

    let mut out = Vec::with_capacity(n.max(alen));
    let (mut i, mut j) = (0, 0);
    let gap = |i0: usize, i1: usize, j0: usize, j1: usize, out: &mut Vec<Slot>| {
        out.extend((i0..i1).filter(|&k| !paired_b[k]).map(Slot::Removed));
        out.extend((j0..j1).map(|k| match partner_of_a[k] {
            Some((p, true)) => Slot::Moved(p, k),
            Some((p, false)) => Slot::Paired(p, k),
            None => Slot::Added(k),
        }));
    };
    for (mi, mj) in matches {
        gap(i, mi, j, mj, &mut out);
        out.push(Slot::Same(mi, mj));
        i = mi + 1;
        j = mj + 1;
    }
    gap(i, n, j, alen, &mut out);
    out
}

/// True for a value that tells nothing apart: null, false, "", [] or {}.
fn blank(v: &Value) -> bool {
    match v {
        Value::Null | Value::Bool(false) => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    }
}

/// How much a removed and an added element share, when they share most of
/// their content (`None` otherwise, and for anything but two objects or two
/// lists). Objects: of the attributes not blank on both sides and known in
/// the after element, more than half must be equal; the score is the number
/// equal. Lists: more than half of the longer one's elements must have an
/// equal in the other.
fn similarity(before: &Value, after: &Value, unknown: Option<&Value>) -> Option<u64> {
    match (before, after) {
        (Value::Object(bo), Value::Object(ao)) => {
            let uo = unknown.and_then(Value::as_object);
            let mut keys: Vec<&String> = bo.keys().chain(ao.keys().filter(|k| !bo.contains_key(*k))).collect();
            keys.sort();
            let (mut telling, mut equal) = (0u64, 0u64);
            for k in keys {
                if uo.is_some_and(|u| markers::any(u.get(k))) {
                    continue;
                }
                let (x, y) = (bo.get(k).unwrap_or(&Value::Null), ao.get(k).unwrap_or(&Value::Null));
                if blank(x) && blank(y) {
                    continue;
                }
                telling += 1;
                equal += u64::from(x == y);
            }
            (telling == 0 || 2 * equal > telling).then_some(equal)
        }
        (Value::Array(ba), Value::Array(aa)) => {
            if ba.len().saturating_mul(aa.len()) > PAIRING_BUDGET {
                return None;
            }
            let mut used = vec![false; ba.len()];
            let mut common = 0u64;
            for y in aa {
                if let Some(k) = (0..ba.len()).find(|&k| !used[k] && ba[k] == *y) {
                    used[k] = true;
                    common += 1;
                }
            }
            let longest = ba.len().max(aa.len()) as u64;
            (longest == 0 || 2 * common > longest).then_some(common)
        }
        _ => None,
    }
}

/// The CLI's longest common subsequence (`objchange.LongestCommonSubsequence`),
/// walked back the way it walks it, so that ties resolve as they do there.
pub(super) fn cli_lcs(n: usize, m: usize, eq: impl Fn(usize, usize) -> bool) -> Vec<(usize, usize)> {
    if n == 0 || m == 0 {
        return Vec::new();
    }
    // c[y][x]: the length for before[..=x] and after[..=y].
    let w = n;
    let mut c = vec![0u32; n * m];
    let mut eqs = vec![false; n * m];
    for y in 0..m {
        for x in 0..n {
            if eq(x, y) {
                eqs[w * y + x] = true;
                c[w * y + x] = if x == 0 || y == 0 { 1 } else { c[w * (y - 1) + x - 1] + 1 };
            } else {
                let l = if x > 0 { c[w * y + x - 1] } else { 0 };
                let u = if y > 0 { c[w * (y - 1) + x] } else { 0 };
                c[w * y + x] = l.max(u);
            }
        }
    }
    let mut out = Vec::new();
    let (mut x, mut y) = (n as isize - 1, m as isize - 1);
    while x >= 0 && y >= 0 {
        let (xu, yu) = (x as usize, y as usize);
        if eqs[w * yu + xu] {
            out.push((xu, yu));
            x -= 1;
            y -= 1;
        } else {
            let l = if x > 0 { c[w * yu + xu - 1] } else { 0 };
            let u = if y > 0 { c[w * (yu - 1) + xu] } else { 0 };
            if l > u {
                x -= 1;
            } else {
                y -= 1;
            }
        }
    }
    out.reverse();
    out
}

/// Longest common subsequence of two sequences given an equality test.
fn lcs(n: usize, m: usize, eq: impl Fn(usize, usize) -> bool) -> Vec<(usize, usize)> {
    let mut t = vec![0u32; (n + 1) * (m + 1)];
    let w = m + 1;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            t[i * w + j] = if eq(i, j) { t[(i + 1) * w + j + 1] + 1 } else { t[(i + 1) * w + j].max(t[i * w + j + 1]) };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < n && j < m {
        if eq(i, j) {
            out.push((i, j));
            i += 1;
            j += 1;
        } else if t[(i + 1) * w + j] >= t[i * w + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}
