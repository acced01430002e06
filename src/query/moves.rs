//! `moves`: delete + create pairs that are really one object moving (a rename,
//! `count` -> `for_each`, a move into a module), found by comparing the deleted
//! object's `before` with the created object's `after`.
//!
//! A delete and a create are a candidate pair when both are managed, of the same
//! type and provider, and every attribute known in the created object's `after`
//! equals the deleted object's `before` (values known only after apply, and
//! `--ignore`d attributes, are left out), and at least one of those compared
//! is not null (equal nulls alone prove nothing: a create whose configured
//! attributes are all unknown matches nothing). Only one-to-one pairs are suggested.
//! Values are compared structurally; numbers by their exact decimal value
//! (`1` = `1.0` = `1e0`). Sensitive values take part in matching, but nothing
//! here ever carries a value: only addresses and attribute paths.

use crate::model::markers::{self, child, whole};
use crate::model::Document;
use crate::model::{ChangeKind, Mode, PathStep, ResourceChange};
use crate::query::address::Address;
use crate::query::attr::ParsedChange;
use crate::query::diff::{changed_paths, Compare};
use crate::query::path::{traversal_or, THE_WHOLE_OBJECT};
use crate::query::values::decimal;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// How to match.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MovesOptions {
    /// Attribute paths left out of the comparison: `tags`, or dotted into
    /// nested objects, `tags.updated`; `*` matches any one key or index.
    pub ignore: Vec<String>,
}

/// The answer for one plan.
#[derive(Debug, Default, Serialize)]
pub struct MovesReport {
    /// Always `moves`.
    pub kind: &'static str,
    pub file: String,
    /// Suggested moves, one-to-one, in the order of the deletes in the plan.
    pub pairs: Vec<MovePair>,
    /// Objects that match more than one object on the other side (or whose only
    /// match matches others too): nothing is suggested for them.
    pub ambiguous: Vec<Ambiguous>,
    /// Deletes and creates that match nothing (spooled past
    /// [`UNMATCHED_IN_MEMORY`] when the plan is streamed).
    pub unmatched: UnmatchedList,
    /// The `--ignore` paths, as given.
    pub ignored: Vec<String>,
}

/// One suggested move.
#[derive(Debug, Clone, Serialize)]
pub struct MovePair {
    /// The deleted object's address, canonical (a `moved` block's `from`).
    pub from: String,
    /// The created object's address, canonical (a `moved` block's `to`).
    pub to: String,
    #[serde(rename = "type")]
    pub type_: String,
    pub provider_name: Option<String>,
    /// Top-level attributes compared (known in `after`, not ignored).
    pub compared: Vec<String>,
    /// Top-level attributes left out because they are known only after apply.
    pub unknown: Vec<String>,
}

/// An object with several matches.
#[derive(Debug, Clone, Serialize)]
pub struct Ambiguous {
    pub address: String,
    /// `delete` or `create`.
    pub action: &'static str,
    #[serde(rename = "type")]
    pub type_: String,
    /// The objects on the other side it matches.
    pub candidates: Vec<String>,
}

/// An object that matches nothing.
#[derive(Debug, Clone, Serialize)]
pub struct Unmatched {
    pub address: String,
    /// `delete` or `create`.
    pub action: &'static str,
    #[serde(rename = "type")]
    pub type_: String,
    /// Why, in words.
    pub reason: String,
    /// The candidate that differs in the fewest attributes, if any.
    pub closest: Option<String>,
    /// Where `closest` differs (at most [`MAX_DIFFS`] paths; inside a sensitive
    /// value the path stops at the sensitive attribute).
    pub differs: Vec<String>,
    /// How many differing paths there are in all.
    pub differ_count: usize,
}

/// Unmatched objects kept in memory before the list is spooled
/// ([`UnmatchedList::spilling`]).
pub(crate) const UNMATCHED_IN_MEMORY: usize = 16_384;

/// The unmatched objects of a report: in memory, or spooled to a temporary
/// file ([`crate::spool::Records`]) once they reach a limit, so that a plan
/// of a million lone creates holds a block of them, not a million. It reads
/// as the `Vec` of those in memory ([`std::ops::Deref`]), which is the whole
/// list unless spooled; [`UnmatchedList::each`] and `len` see the whole list.
#[derive(Debug, Default)]
pub struct UnmatchedList {
    kept: Vec<Unmatched>,
    spooled: Option<crate::spool::Records<Spooled>>,
    /// Spool from this many entries on (`None`: never).
    spill_at: Option<usize>,
    /// Why the spool failed: the list is not whole.
    failed: Option<String>,
}

/// An [`Unmatched`] as spooled (its action as a flag).
#[derive(Serialize, serde::Deserialize)]
pub(crate) struct Spooled {
    address: String,
    delete: bool,
    type_: String,
    reason: String,
    closest: Option<String>,
    differs: Vec<String>,
    differ_count: usize,
}

impl Spooled {
    fn of(u: Unmatched) -> Spooled {
        let Unmatched { address, action, type_, reason, closest, differs, differ_count } = u;
        Spooled { address, delete: action == "delete", type_, reason, closest, differs, differ_count }
    }

    fn back(self) -> Unmatched {
        let Spooled { address, delete, type_, reason, closest, differs, differ_count } = self;
        Unmatched { address, action: if delete { "delete" } else { "create" }, type_, reason, closest, differs, differ_count }
    }
}

impl std::ops::Deref for UnmatchedList {
    type Target = Vec<Unmatched>;
    fn deref(&self) -> &Vec<Unmatched> {
        &self.kept
    }
}

impl UnmatchedList {
    /// An empty list spooled from `spill_at` entries on.
    pub(crate) fn spilling(spill_at: usize) -> Self {
        UnmatchedList { spill_at: Some(spill_at), ..UnmatchedList::default() }
    }

    /// How many entries, in memory or spooled.
    pub fn len(&self) -> usize {
        self.spooled.as_ref().map_or(self.kept.len(), |s| s.len())
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Why the spool failed, if it did (the list is then not whole).
    pub(crate) fn failed(&self) -> Option<&str> {
        self.failed.as_deref()
    }

    /// Append `u`.
    pub(crate) fn push(&mut self, u: Unmatched) {
        if let Some(s) = &mut self.spooled {
            if let Err(err) = s.push(&Spooled::of(u)) {
                self.failed.get_or_insert_with(|| format!("cannot spool the unmatched objects to a temporary file: {err}"));
            }
            return;
        }
        self.kept.push(u);
        if self.spill_at.is_some_and(|at| self.kept.len() >= at) {
            let mut s = crate::spool::Records::default();
            let spooled = std::mem::take(&mut self.kept).into_iter().try_for_each(|u| s.push(&Spooled::of(u)));
            if let Err(err) = spooled {
                self.failed.get_or_insert_with(|| format!("cannot spool the unmatched objects to a temporary file: {err}"));
            }
            self.spooled = Some(s);
        }
    }

    /// Each entry in order, given to `f`.
    pub(crate) fn each(&self, mut f: impl FnMut(&Unmatched) -> std::io::Result<()>) -> std::io::Result<()> {
        match &self.spooled {
            Some(s) => s.each(|u| f(&u.back())),
            None => self.kept.iter().try_for_each(f),
        }
    }
}

impl From<Vec<Unmatched>> for UnmatchedList {
    fn from(kept: Vec<Unmatched>) -> Self {
        UnmatchedList { kept, ..UnmatchedList::default() }
    }
}

impl Serialize for UnmatchedList {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let Some(s) = &self.spooled else { return self.kept.serialize(ser) };
        crate::spool::serialize_each(ser, s.len(), |push| s.each(|u| push(&u.back())))
    }
}

/// Differing paths listed per unmatched object.
pub(crate) const MAX_DIFFS: usize = 5;

/// One side of a candidate pair.
pub(super) struct Obj<'r, 'a> {
    pub(super) rc: &'r ResourceChange<'a>,
    pub(super) addr: String,
    pub(super) action: &'static str,
}

/// Whether `rc` is one `moves` could pair: a managed, current object deleted,
/// or created without an import.
pub(crate) fn could_pair(rc: &ResourceChange<'_>) -> bool {
    rc.mode == Mode::Managed
        && rc.deposed.is_none()
        && match rc.kind() {
            ChangeKind::Delete => true,
            ChangeKind::Create => rc.change.importing.is_none(),
            _ => false,
        }
}

/// Find the moves in a document. A state has none to find.
pub fn find_moves(doc: &Document<'_>, opts: &MovesOptions) -> Result<MovesReport, String> {
    let Document::Plan(plan) = doc else {
        return Err("`moves` needs a plan, and this is a state".into());
    };
    let ignore: Vec<Vec<String>> = opts.ignore.iter().map(|p| p.split('.').map(str::to_string).collect()).collect();
    let mut report = MovesReport { kind: "moves", ignored: opts.ignore.clone(), ..Default::default() };

    // Eligible objects, grouped by (type, provider).
    type Group<'r, 'a> = (Vec<Obj<'r, 'a>>, Vec<Obj<'r, 'a>>);
    let mut groups: BTreeMap<(&str, Option<&str>), Group> = BTreeMap::new();
    let mut order: Vec<(&str, Option<&str>)> = Vec::new();
    for rc in &plan.resource_changes {
        if !could_pair(rc) {
            continue;
        }
        let action = if rc.kind() == ChangeKind::Delete { "delete" } else { "create" };
        let addr = match canonical(rc) {
            Ok(a) => a,
            Err(why) => {
                report.unmatched.push(not_canonical(rc, action, &why));
                continue;
            }
        };
        let key = (rc.type_.as_str(), rc.provider_name.as_deref());
        let g = groups.entry(key).or_insert_with(|| {
            order.push(key);
            (Vec::new(), Vec::new())
        });
        let obj = Obj { rc, addr, action };
        if action == "delete" {
            g.0.push(obj);
        } else {
            g.1.push(obj);
        }
    }

    for key in order {
        let (deletes, creates) = &groups[&key];
        if deletes.is_empty() || creates.is_empty() {
            let why = one_sided(deletes.is_empty());
            for o in deletes.iter().chain(creates.iter()) {
                report.unmatched.push(unmatched(o, why.to_string(), None));
            }
            continue;
        }
        match_group(deletes, creates, &ignore, &mut report);
    }
    Ok(report)
}

/// Why the objects of a type and provider that only one side has match nothing.
pub(super) fn one_sided(no_deletes: bool) -> &'static str {
    if no_deletes {
        "nothing of its type and provider is deleted"
    } else {
        "nothing of its type and provider is created"
    }
}

/// An object whose address cannot go in a `moved` block (`why`).
pub(super) fn not_canonical(rc: &ResourceChange<'_>, action: &'static str, why: &str) -> Unmatched {
    Unmatched {
        // Not canonical: as written, whole (a cut could leave part of a
        // secret the output scrubber no longer recognises). Renderers
        // escape it (comments are sanitised; JSON carries the original).
        address: rc.address.clone(),
        action,
        type_: rc.type_.clone(),
        reason: format!("its address cannot be used in a moved block ({why})"),
        closest: None,
        differs: Vec::new(),
        differ_count: 0,
    }
}

pub(super) fn unmatched(o: &Obj<'_, '_>, reason: String, closest: Option<(&Obj<'_, '_>, &Diffs)>) -> Unmatched {
    Unmatched {
        address: o.addr.clone(),
        action: o.action,
        type_: o.rc.type_.clone(),
        reason,
        closest: closest.map(|(c, _)| c.addr.clone()),
        differs: closest.map(|(_, d)| d.paths.clone()).unwrap_or_default(),
        differ_count: closest.map_or(0, |(_, d)| d.count),
    }
}

/// The canonical address, checked against the change's own type, name and index.
pub(super) fn canonical(rc: &ResourceChange<'_>) -> Result<String, String> {
    let a = Address::parse(&rc.address)?;
    let r = a.resource();
    if r.kind != rc.type_ || r.name != rc.name {
        return Err("its address does not agree with its type and name".into());
    }
    Ok(a.to_string())
}

/// Detailed comparisons allowed for finding the closest candidates of
/// unmatched objects (each walks two whole objects).
pub(crate) const CLOSEST_BUDGET: usize = 100_000;

pub(super) fn match_group(deletes: &[Obj<'_, '_>], creates: &[Obj<'_, '_>], ignore: &[Vec<String>], report: &mut MovesReport) {
    let before: Vec<ParsedChange> = deletes.iter().map(|d| ParsedChange::of(&d.rc.change)).collect();
    let after: Vec<ParsedChange> = creates.iter().map(|c| ParsedChange::of(&c.rc.change)).collect();

    // Exact matches without comparing every pair: creates with the same
    // comparison shape (known top-level attributes, unknown paths) are grouped;
    // each delete is projected once per shape into the canonical text of what
    // would be compared, and looked up.
    let mut d_matches: Vec<Vec<usize>> = vec![Vec::new(); deletes.len()];
    let mut c_matches: Vec<Vec<usize>> = vec![Vec::new(); creates.len()];
    // A create with no known, non-null attribute to compare (everything
    // configured is unknown until apply) can be paired with nothing.
    let telling: Vec<bool> = after.iter().map(|a| has_known_value(a, ignore)).collect();
    let mut shapes: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (c, a) in after.iter().enumerate() {
        if telling[c] {
            shapes.entry(shape_of(a, ignore)).or_default().push(c);
        }
    }
    for members in shapes.values() {
        let rep = &after[members[0]];
        let keys = top_level(rep, ignore).0;
        let mut index: std::collections::HashMap<String, Vec<usize>> = std::collections::HashMap::new();
        for (d, b) in before.iter().enumerate() {
            index.entry(canonical_text(b.before.as_ref(), rep.after_unknown.as_ref(), &keys, ignore)).or_default().push(d);
        }
        for &c in members {
            let text = canonical_text(after[c].after.as_ref(), after[c].after_unknown.as_ref(), &keys, ignore);
            if let Some(ds) = index.get(&text) {
                for &d in ds {
                    d_matches[d].push(c);
                    c_matches[c].push(d);
                }
            }
        }
    }
    for m in &mut d_matches {
        m.sort_unstable();
    }

    // Closest candidates for the unmatched, when affordable.
    let lonely_d = d_matches.iter().filter(|m| m.is_empty()).count();
    let lonely_c = c_matches.iter().filter(|m| m.is_empty()).count();
    let affordable = (lonely_d * creates.len()).saturating_add(lonely_c * deletes.len()) <= CLOSEST_BUDGET;
    let closest = |d_side: bool, i: usize| -> Option<(usize, Diffs)> {
        if !affordable {
            return None;
        }
        if !d_side && !telling[i] {
            return None;
        }
        let n = if d_side { creates.len() } else { deletes.len() };
        (0..n)
            .filter(|&j| !d_side || telling[j])
            .map(|j| {
                let diffs = if d_side { compare(&before[i], &after[j], ignore) } else { compare(&before[j], &after[i], ignore) };
                (j, diffs)
            })
            .min_by_key(|(_, diffs)| diffs.count)
    };
    let too_many = format!("; {} deletes and {} creates of this type are too many to find the closest", deletes.len(), creates.len());

    for (d, m) in d_matches.iter().enumerate() {
        match m.as_slice() {
            [] => {
                let mut reason = format!("no created {} has the same attributes", deletes[d].rc.type_);
                let best = closest(true, d);
                if best.is_none() {
                    reason.push_str(&too_many);
                }
                let best = best.as_ref().map(|(c, diffs)| (&creates[*c], diffs));
                report.unmatched.push(unmatched(&deletes[d], reason, best));
            }
            [c] if c_matches[*c].len() == 1 => {
                let a = &after[*c];
                let (compared, unknown) = top_level(a, ignore);
                report.pairs.push(MovePair {
                    from: deletes[d].addr.clone(),
                    to: creates[*c].addr.clone(),
                    type_: deletes[d].rc.type_.clone(),
                    provider_name: deletes[d].rc.provider_name.clone(),
                    compared,
                    unknown,
                });
            }
            _ => report.ambiguous.push(ambiguous(&deletes[d], m, creates)),
        }
    }
    for (c, m) in c_matches.iter().enumerate() {
        match m.as_slice() {
            [] if !telling[c] => {
                let reason = "none of its attributes is known (and not null) before apply: there is nothing to compare".to_string();
                report.unmatched.push(unmatched(&creates[c], reason, None));
            }
            [] => {
                let mut reason = format!("no deleted {} has the same attributes", creates[c].rc.type_);
                let best = closest(false, c);
                if best.is_none() {
                    reason.push_str(&too_many);
                }
                let best = best.as_ref().map(|(d, diffs)| (&deletes[*d], diffs));
                report.unmatched.push(unmatched(&creates[c], reason, best));
            }
            [d] if d_matches[*d].len() == 1 => {}
            _ => report.ambiguous.push(ambiguous(&creates[c], m, deletes)),
        }
    }
}

/// True when a created object has a top-level attribute that is compared
/// (known, not ignored) and not null: a pair needs at least one such value
/// equal on both sides, not only nulls.
fn has_known_value(a: &ParsedChange, ignore: &[Vec<String>]) -> bool {
    let Some(Value::Object(o)) = &a.after else { return false };
    top_level(a, ignore).0.iter().any(|k| o.get(k).is_some_and(|v| !v.is_null()))
}

/// What decides how a created object is compared: its known top-level
/// attributes and the paths unknown in it (`false` leaves dropped).
fn shape_of(a: &ParsedChange, ignore: &[Vec<String>]) -> String {
    let mask = a.after_unknown.as_ref().and_then(normal_mask).unwrap_or(Value::Null);
    let top = if matches!(a.after, Some(Value::Object(_))) { "object" } else { "value" };
    format!("{top}|{}|{}", top_level(a, ignore).0.join("\u{0}"), mask)
}

/// An unknown marker with only its `true` parts (array positions kept).
fn normal_mask(m: &Value) -> Option<Value> {
    match m {
        Value::Bool(true) => Some(Value::Bool(true)),
        Value::Object(o) => {
            let kept: serde_json::Map<String, Value> = o.iter().filter_map(|(k, v)| normal_mask(v).map(|n| (k.clone(), n))).collect();
            (!kept.is_empty()).then_some(Value::Object(kept))
        }
        Value::Array(a) => {
            let kept: Vec<Option<Value>> = a.iter().map(normal_mask).collect();
            kept.iter().any(Option::is_some).then(|| Value::Array(kept.into_iter().map(|x| x.unwrap_or(Value::Bool(false))).collect()))
        }
        _ => None,
    }
}

/// The canonical text of what [`compare`] looks at: equal texts exactly when
/// `compare` finds no difference. Top level: only `keys`; below: every key,
/// with nulls and absent keys alike; unknown and ignored parts left out;
/// numbers by exact value.
fn canonical_text(v: Option<&Value>, unknown: Option<&Value>, keys: &[String], ignore: &[Vec<String>]) -> String {
    let mut out = String::new();
    match v {
        Some(Value::Object(o)) => members(o, keys.iter(), unknown, &mut Vec::new(), ignore, &mut out),
        Some(x) if !x.is_null() => canon(x, unknown, &mut Vec::new(), ignore, &mut out),
        _ => {}
    }
    out
}

fn canon(v: &Value, unknown: Option<&Value>, path: &mut Vec<PathStep>, ignore: &[Vec<String>], out: &mut String) {
    if whole(unknown) || is_ignored(path, ignore) {
        out.push('?');
        return;
    }
    match v {
        Value::Null => out.push('n'),
        Value::Bool(b) => out.push(if *b { 't' } else { 'f' }),
        Value::Number(n) => {
            let t = n.to_string();
            match decimal(&t) {
                Some((neg, digits, exp)) => out.push_str(&format!("#{}{digits}e{exp}", if neg { "-" } else { "" })),
                None => out.push_str(&format!("#?{t}")),
            }
        }
        Value::String(s) => push_json_str(out, s),
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                let step = PathStep::Index(i as u64);
                let unk = child(unknown, &step);
                path.push(step);
                canon(x, unk, path, ignore, out);
                out.push(',');
                path.pop();
            }
            out.push(']');
        }
        Value::Object(o) => {
            let mut keys: Vec<&String> = o.keys().collect();
            keys.sort();
            members(o, keys.into_iter(), unknown, path, ignore, out);
        }
    }
}

/// An object's members `keys`, leaving out the null, unknown and ignored ones.
fn members<'k>(
    o: &serde_json::Map<String, Value>,
    keys: impl Iterator<Item = &'k String>,
    unknown: Option<&Value>,
    path: &mut Vec<PathStep>,
    ignore: &[Vec<String>],
    out: &mut String,
) {
    out.push('{');
    for k in keys {
        let Some(x) = o.get(k).filter(|x| !x.is_null()) else { continue };
        let step = PathStep::Key(k.clone());
        let unk = child(unknown, &step);
        path.push(step);
        if !whole(unk) && !is_ignored(path, ignore) {
            push_json_str(out, k);
            out.push(':');
            canon(x, unk, path, ignore, out);
            out.push(',');
        }
        path.pop();
    }
    out.push('}');
}

fn push_json_str(out: &mut String, s: &str) {
    out.push_str(&serde_json::to_string(s).unwrap_or_default());
}

fn ambiguous(o: &Obj<'_, '_>, matches: &[usize], others: &[Obj<'_, '_>]) -> Ambiguous {
    Ambiguous {
        address: o.addr.clone(),
        action: o.action,
        type_: o.rc.type_.clone(),
        candidates: matches.iter().map(|&i| others[i].addr.clone()).collect(),
    }
}

/// Top-level attributes of a created object: compared (present in `after`,
/// not unknown, not ignored), and unknown until apply.
fn top_level(a: &ParsedChange, ignore: &[Vec<String>]) -> (Vec<String>, Vec<String>) {
    let mut compared = Vec::new();
    let mut unknown = Vec::new();
    if let Some(Value::Object(o)) = &a.after {
        for k in o.keys() {
            let path = [PathStep::Key(k.clone())];
            if is_ignored(&path, ignore) {
                continue;
            }
            if markers::at(a.after_unknown.as_ref(), &path) {
                unknown.push(k.clone());
            } else {
                compared.push(k.clone());
            }
        }
    }
    if let Some(Value::Object(u)) = &a.after_unknown {
        for (k, v) in u {
            let absent = !matches!(&a.after, Some(Value::Object(o)) if o.contains_key(k));
            if absent && whole(Some(v)) && !is_ignored(&[PathStep::Key(k.clone())], ignore) {
                unknown.push(k.clone());
            }
        }
    }
    unknown.sort();
    (compared, unknown)
}

/// The differences between a deleted and a created object.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Diffs {
    /// How many differing paths.
    pub count: usize,
    /// The first few, as text.
    pub paths: Vec<String>,
}

impl Diffs {
    fn push(&mut self, path: String) {
        if !self.paths.contains(&path) {
            self.count += 1;
            if self.paths.len() < MAX_DIFFS {
                self.paths.push(path);
            }
        }
    }
}

/// Where a deleted and a created object differ: [`changed_paths`] by value,
/// leaving out what is unknown, ignored, or (at the top level) absent from
/// `after`. A path into a sensitive value stops at it, marked `(sensitive)`,
/// so no key inside one is shown.
fn compare(b: &ParsedChange, a: &ParsedChange, ignore: &[Vec<String>]) -> Diffs {
    let top = match (&b.before, &a.after) {
        (Some(Value::Object(_)), Some(Value::Object(ao))) => Some(ao),
        _ => None,
    };
    let skip = |p: &[PathStep]| is_ignored(p, ignore) || matches!((top, p), (Some(ao), [PathStep::Key(k)]) if !ao.contains_key(k));
    let mut diffs = Diffs::default();
    for path in changed_paths(b.before.as_ref(), a.after.as_ref(), a.after_unknown.as_ref(), Compare::ByValue, &skip) {
        let sensitive = |p: &&[PathStep]| markers::at(b.before_sensitive.as_ref(), p) || markers::at(a.after_sensitive.as_ref(), p);
        diffs.push(match (0..=path.len()).map(|n| &path[..n]).find(sensitive) {
            Some(p) => format!("{} (sensitive)", traversal_or(p, THE_WHOLE_OBJECT)),
            None => traversal_or(&path, THE_WHOLE_OBJECT),
        });
    }
    diffs
}

fn is_ignored(path: &[PathStep], ignore: &[Vec<String>]) -> bool {
    ignore.iter().any(|pat| {
        pat.len() == path.len()
            && pat.iter().zip(path).all(|(p, s)| {
                p == "*"
                    || match s {
                        PathStep::Key(k) => p == k,
                        PathStep::Index(i) => p == &i.to_string(),
                        PathStep::Other(_) => false,
                    }
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::parse;

    fn change(address: &str, actions: &str, before: &str, after: &str, unknown: &str) -> String {
        let (ty, rest) = address.split_once('.').unwrap();
        let (ty, rest) = if ty == "module" {
            let parts: Vec<&str> = address.split('.').collect();
            (parts[2], parts[3..].join("."))
        } else {
            (ty, rest.to_string())
        };
        let name = rest.split('[').next().unwrap();
        format!(
            r#"{{"address":{},"mode":"managed","type":"{ty}","name":"{name}","provider_name":"registry.terraform.io/hashicorp/x",
               "change":{{"actions":{actions},"before":{before},"after":{after},"after_unknown":{unknown},"before_sensitive":false,"after_sensitive":false}}}}"#,
            serde_json::to_string(address).unwrap()
        )
    }

    fn del(addr: &str, before: &str) -> String {
        change(addr, r#"["delete"]"#, before, "null", "{}")
    }

    fn cre(addr: &str, after: &str, unknown: &str) -> String {
        change(addr, r#"["create"]"#, "null", after, unknown)
    }

    fn run_with(changes: &[String], ignore: &[&str]) -> MovesReport {
        let json = format!(r#"{{"format_version":"1.2","resource_changes":[{}]}}"#, changes.join(","));
        let doc = parse("t", json.as_bytes()).unwrap();
        let opts = MovesOptions { ignore: ignore.iter().map(|s| s.to_string()).collect() };
        let whole = find_moves(&doc, &opts).unwrap();
        // The streamed report (every unmatched object spooled) is the same.
        let streamed = crate::query::moves_stream::tests::streamed(&json, &opts, 1, 2).unwrap();
        assert_eq!(serde_json::to_string(&streamed).unwrap(), serde_json::to_string(&whole).unwrap());
        whole
    }

    fn run(changes: &[String]) -> MovesReport {
        run_with(changes, &[])
    }

    fn pairs(r: &MovesReport) -> Vec<(String, String)> {
        r.pairs.iter().map(|p| (p.from.clone(), p.to.clone())).collect()
    }

    #[test]
    fn rename_pairs_when_known_attributes_are_equal_and_unknown_ones_are_skipped() {
        let r = run(&[
            del("x_thing.old", r#"{"id":"i-1","name":"a","size":2}"#),
            cre("x_thing.new", r#"{"name":"a","size":2}"#, r#"{"id":true}"#),
        ]);
        assert_eq!(pairs(&r), vec![("x_thing.old".into(), "x_thing.new".into())]);
        assert_eq!(r.pairs[0].compared, vec!["name", "size"]);
        assert_eq!(r.pairs[0].unknown, vec!["id"]);
        assert!(r.ambiguous.is_empty() && r.unmatched.is_empty());
    }

    #[test]
    fn a_known_attribute_that_differs_prevents_the_pair_and_is_reported() {
        let r = run(&[
            del("x_thing.old", r#"{"id":"i-1","name":"a","size":2}"#),
            cre("x_thing.new", r#"{"name":"a","size":3}"#, r#"{"id":true}"#),
        ]);
        assert!(r.pairs.is_empty());
        assert_eq!(r.unmatched.len(), 2);
        assert_eq!(r.unmatched[0].closest.as_deref(), Some("x_thing.new"));
        assert_eq!(r.unmatched[0].differs, vec!["size"]);
    }

    #[test]
    fn equal_nulls_alone_make_no_pair() {
        // Everything configured in the create is unknown; only a null is left to compare.
        let r = run(&[
            del("x_thing.old", r#"{"id":"1","input":null,"extra":null}"#),
            cre("x_thing.fresh", r#"{"extra":null}"#, r#"{"id":true,"input":true}"#),
        ]);
        assert!(r.pairs.is_empty(), "{:?}", pairs(&r));
        let fresh = r.unmatched.iter().find(|u| u.address == "x_thing.fresh").expect("fresh unmatched");
        assert!(fresh.reason.contains("nothing to compare"), "{}", fresh.reason);
        assert_eq!(fresh.closest, None);
        let old = r.unmatched.iter().find(|u| u.address == "x_thing.old").expect("old unmatched");
        assert_eq!(old.closest, None, "an uncomparable create is no one's closest");
        // One known, non-null attribute equal on both sides is enough.
        let r = run(&[
            del("x_thing.old", r#"{"id":"1","input":"v","extra":null}"#),
            cre("x_thing.fresh", r#"{"input":"v","extra":null}"#, r#"{"id":true}"#),
        ]);
        assert_eq!(pairs(&r), vec![("x_thing.old".to_string(), "x_thing.fresh".to_string())]);
    }

    #[test]
    fn ties_are_ambiguous_and_suggest_nothing() {
        let same = r#"{"name":"a"}"#;
        let r = run(&[
            del("x_thing.a", same),
            del("x_thing.b", same),
            cre("x_thing.c", same, "{}"),
            del("x_thing.solo", r#"{"name":"solo"}"#),
            cre("x_thing.solo2", r#"{"name":"solo"}"#, "{}"),
        ]);
        assert_eq!(pairs(&r), vec![("x_thing.solo".into(), "x_thing.solo2".into())]);
        let amb: Vec<(&str, &str, usize)> = r.ambiguous.iter().map(|a| (a.address.as_str(), a.action, a.candidates.len())).collect();
        assert_eq!(amb, vec![("x_thing.a", "delete", 1), ("x_thing.b", "delete", 1), ("x_thing.c", "create", 2)]);
        // One delete matching two creates is ambiguous too.
        let r = run(&[del("x_thing.a", same), cre("x_thing.c", same, "{}"), cre("x_thing.d", same, "{}")]);
        assert!(r.pairs.is_empty());
        assert_eq!(r.ambiguous[0].candidates, vec!["x_thing.c", "x_thing.d"]);
    }

    #[test]
    fn nested_values_compare_structurally_with_unknown_parts_skipped() {
        let before = r#"{"id":"1","cfg":{"a":[1,{"b":"x","c":"old-computed"}],"m":{"k":"v"}},"list":["p",null]}"#;
        let after = r#"{"cfg":{"a":[1.0,{"b":"x"}],"m":{"k":"v"}},"list":["p",null]}"#;
        let unknown = r#"{"id":true,"cfg":{"a":[false,{"c":true}],"m":{}},"list":[false,true]}"#;
        let r = run(&[del("x_thing.old", before), cre("x_thing.new", after, unknown)]);
        assert_eq!(pairs(&r).len(), 1, "{r:?}");
        // An extra map key in the deleted object is a difference.
        let before2 = r#"{"id":"1","cfg":{"a":[1,{"b":"x"}],"m":{"k":"v","extra":"e"}},"list":["p",null]}"#;
        let r = run(&[del("x_thing.old", before2), cre("x_thing.new", after, unknown)]);
        assert!(r.pairs.is_empty());
        assert_eq!(r.unmatched[0].differs, vec!["cfg.m.extra"]);
        // A list of another length differs as a whole.
        let r = run(&[del("x_thing.old", r#"{"l":[1,2]}"#), cre("x_thing.new", r#"{"l":[1]}"#, "{}")]);
        assert_eq!(r.unmatched[0].differs, vec!["l"]);
    }

    #[test]
    fn sensitive_values_match_but_never_appear_in_paths() {
        let mk = |addr: &str, actions: &str, before: &str, after: &str| {
            format!(
                r#"{{"address":"{addr}","mode":"managed","type":"x_secret","name":"{}","change":{{"actions":{actions},
                "before":{before},"after":{after},"after_unknown":{{}},"before_sensitive":{{"pw":true,"m":{{"k":true}}}},"after_sensitive":{{"pw":true,"m":{{"k":true}}}}}}}}"#,
                addr.split('.').nth(1).unwrap()
            )
        };
        let r = run(&[
            mk("x_secret.a", r#"["delete"]"#, r#"{"pw":"hunter2-secret","m":{"k":{"deep-key":"v"}}}"#, "null"),
            mk("x_secret.b", r#"["create"]"#, "null", r#"{"pw":"hunter2-secret","m":{"k":{"deep-key":"v"}}}"#),
        ]);
        assert_eq!(pairs(&r).len(), 1, "equal sensitive values must match");
        let r = run(&[
            mk("x_secret.a", r#"["delete"]"#, r#"{"pw":"hunter2-secret","m":{"k":{"deep-key":"v"}}}"#, "null"),
            mk("x_secret.b", r#"["create"]"#, "null", r#"{"pw":"other-secret","m":{"k":{"deep-key":"w"}}}"#),
        ]);
        assert!(r.pairs.is_empty(), "different sensitive values must not match");
        let text = serde_json::to_string(&r).unwrap();
        assert!(text.contains("pw (sensitive)") && text.contains("m.k (sensitive)"), "{text}");
        for leak in ["hunter2", "other-secret", "deep-key"] {
            assert!(!text.contains(leak), "{leak} leaked: {text}");
        }
    }

    #[test]
    fn index_changes_pair_count_to_for_each_and_into_modules() {
        let v = |n: &str| format!(r#"{{"name":"{n}"}}"#);
        let r = run(&[
            del("x_thing.i[0]", &v("alpha")),
            del("x_thing.i[1]", &v("beta")),
            cre(r#"x_thing.i["alpha"]"#, &v("alpha"), "{}"),
            cre(r#"x_thing.i["beta"]"#, &v("beta"), "{}"),
            del("x_thing.db", &v("db")),
            cre(r#"module.m["a b"].x_thing.db"#, &v("db"), "{}"),
        ]);
        assert_eq!(
            pairs(&r),
            vec![
                ("x_thing.i[0]".into(), r#"x_thing.i["alpha"]"#.into()),
                ("x_thing.i[1]".into(), r#"x_thing.i["beta"]"#.into()),
                ("x_thing.db".into(), r#"module.m["a b"].x_thing.db"#.into()),
            ]
        );
    }

    #[test]
    fn ignore_leaves_attributes_out_at_any_depth() {
        let r = run(&[
            del("x_thing.old", r#"{"name":"a","tags":{"when":"mon","team":"x"}}"#),
            cre("x_thing.new", r#"{"name":"a","tags":{"when":"tue","team":"x"}}"#, "{}"),
        ]);
        assert!(r.pairs.is_empty());
        assert_eq!(
            run_with(
                &[
                    del("x_thing.old", r#"{"name":"a","tags":{"when":"mon","team":"x"}}"#),
                    cre("x_thing.new", r#"{"name":"a","tags":{"when":"tue","team":"x"}}"#, "{}"),
                ],
                &["tags.when"]
            )
            .pairs
            .len(),
            1
        );
        let r = run_with(
            &[
                del("x_thing.old", r#"{"name":"a","tags":{"when":"mon"}}"#),
                cre("x_thing.new", r#"{"name":"a","tags":{"when":"tue","team":"x"}}"#, "{}"),
            ],
            &["tags"],
        );
        assert_eq!(r.pairs[0].compared, vec!["name"]);
    }

    #[test]
    fn other_types_providers_replacements_deposed_imports_and_data_are_not_candidates() {
        let same = r#"{"name":"a"}"#;
        let r =
            run(&[del("x_thing.a", same), cre("x_other.b", same, "{}"), change("x_thing.r", r#"["delete","create"]"#, same, same, "{}")]);
        assert!(r.pairs.is_empty());
        let reasons: Vec<&str> = r.unmatched.iter().map(|u| u.reason.as_str()).collect();
        assert_eq!(reasons, vec!["nothing of its type and provider is created", "nothing of its type and provider is deleted"]);
        let deposed = format!(
            r#"{{"address":"x_thing.a","mode":"managed","type":"x_thing","name":"a","deposed":"00ab","change":{{"actions":["delete"],"before":{same}}}}}"#
        );
        let import = format!(
            r#"{{"address":"x_thing.b","mode":"managed","type":"x_thing","name":"b","change":{{"actions":["create"],"after":{same},"importing":{{"id":"x"}}}}}}"#
        );
        let data = format!(
            r#"{{"address":"data.x_thing.c","mode":"data","type":"x_thing","name":"c","change":{{"actions":["delete"],"before":{same}}}}}"#
        );
        let r = run(&[deposed, import, data]);
        assert!(r.pairs.is_empty() && r.unmatched.is_empty() && r.ambiguous.is_empty(), "{r:?}");
    }

    #[test]
    fn canonical_text_agrees_with_the_detailed_comparison() {
        let cases: &[(&str, &str, &str, &[&str])] = &[
            (r#"{"id":"1","a":1}"#, r#"{"a":1.0}"#, r#"{"id":true}"#, &[]),
            (r#"{"a":1}"#, r#"{"a":2}"#, "{}", &[]),
            (r#"{"a":{"x":null}}"#, r#"{"a":{}}"#, "{}", &[]),
            (r#"{"a":{"x":1}}"#, r#"{"a":{}}"#, "{}", &[]),
            (r#"{"a":{"x":1}}"#, r#"{"a":{}}"#, r#"{"a":{"x":true}}"#, &[]),
            (r#"{"a":[1,2]}"#, r#"{"a":[1,null]}"#, r#"{"a":[false,true]}"#, &[]),
            (r#"{"a":[1,2]}"#, r#"{"a":[1]}"#, "{}", &[]),
            (r#"{"a":"x","t":{"k":"v"}}"#, r#"{"a":"x","t":{"k":"w"}}"#, "{}", &["t.k"]),
            (r#"{"a":"x","t":{"k":"v"}}"#, r#"{"a":"x","t":{"k":"w"}}"#, "{}", &["t.*"]),
            (r#"{"a":"x","b":5}"#, r#"{"a":"x","b":null}"#, "{}", &[]),
            (r#"{"a":"x"}"#, r#"{"a":"x","b":null}"#, "{}", &[]),
            (r#"{"a":{}}"#, r#"{"a":null}"#, "{}", &[]),
            (r#"{"a":[]}"#, r#"{"a":{}}"#, "{}", &[]),
        ];
        for (b, a, u, ign) in cases {
            let ignore: Vec<Vec<String>> = ign.iter().map(|p| p.split('.').map(str::to_string).collect()).collect();
            let pb = ParsedChange { before: serde_json::from_str(b).ok(), ..Default::default() };
            let pa =
                ParsedChange { after: serde_json::from_str(a).ok(), after_unknown: serde_json::from_str(u).ok(), ..Default::default() };
            let keys = top_level(&pa, &ignore).0;
            let same = canonical_text(pb.before.as_ref(), pa.after_unknown.as_ref(), &keys, &ignore)
                == canonical_text(pa.after.as_ref(), pa.after_unknown.as_ref(), &keys, &ignore);
            assert_eq!(same, compare(&pb, &pa, &ignore).count == 0, "{b} vs {a} (unknown {u}, ignore {ign:?})");
        }
    }

    #[test]
    fn an_address_that_cannot_go_in_a_moved_block_is_reported_as_written_and_escaped_when_printed() {
        let bad = r#"{"address":"x_thing.a[\"${x}\u001b[2J\"]","mode":"managed","type":"x_thing","name":"a","change":{"actions":["delete"],"before":{"n":1}}}"#;
        let r = run(&[bad.to_string(), cre("x_thing.b", r#"{"n":1}"#, "{}")]);
        assert!(r.pairs.is_empty());
        let u = &r.unmatched[0];
        assert!(u.reason.contains("cannot be used in a moved block"), "{}", u.reason);
        // The report (and so JSON) keeps the original text; the comment escapes it.
        assert!(u.address.contains('\x1b'), "{}", u.address);
        let mut hcl = Vec::new();
        crate::render::moves::write(&mut hcl, &r, crate::render::moves::MovesFormat::Hcl).unwrap();
        let hcl = String::from_utf8(hcl).unwrap();
        assert_eq!(crate::sanitize::terminal_hazard(hcl.as_bytes(), false), None, "{hcl}");
        assert!(hcl.contains("\\x1B[2J"), "{hcl}");
    }

    #[test]
    fn a_long_unmatched_address_is_kept_whole_so_a_secret_in_it_is_masked_whole() {
        let address = format!("x_thing.{}_hunter2-secret_tail", "a".repeat(250));
        let bad = format!(
            r#"{{"address":"{address}","mode":"managed","type":"x_thing","name":"a","change":{{"actions":["delete"],"before":{{"n":1}}}}}}"#
        );
        let r = run(&[bad]);
        assert_eq!(r.unmatched[0].address, address);
        let mut m = crate::secrets::Masker::default();
        m.add("hunter2-secret");
        let mut out = Vec::new();
        crate::render::moves::write(&mut out, &r, crate::render::moves::MovesFormat::Hcl).unwrap();
        let out = m.scrubber().scrub(&out).into_owned();
        let text = String::from_utf8(out).unwrap();
        assert!(!text.contains("hunter2") && text.contains("(sensitive value)_tail"), "{text}");
    }

    #[test]
    fn a_state_has_no_moves() {
        let doc = parse("s", br#"{"format_version":"1.0","values":{"root_module":{}}}"#).unwrap();
        assert!(find_moves(&doc, &MovesOptions::default()).unwrap_err().contains("needs a plan"));
    }
}
