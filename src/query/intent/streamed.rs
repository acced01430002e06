//! The model of [`super`] computed while streaming, in memory that does not grow with the plan's values.
//!
//! An entry's canonical form can only be written once every secret of the
//! plan is known (a value equal to a secret marked later in the document is
//! hashed as a secret), and the fingerprint hashes the entries in key order,
//! not document order. So a plan read from a regular file is streamed more
//! than once ([`crate::run::compare`] drives the passes):
//!
//! `fingerprint` (and `gate --expect-fingerprint`, `comment`) keeps no index
//! of keys: pass 1 tallies the entries and pass 2 hashes them as they come or
//! sorts them outside memory ([`super::sorted`]); the index below is `diff`'s,
//! and `fingerprint`'s for a plan that repeats a key.
//!
//! 1. [`Collect::keyed`] (beside the secret collector): each entry's key, where its
//!    address ends in the key, and its previous address. Keys are made unique
//!    and sorted as [`super::Intent`] does ([`SectionIndex`]).
//! 2. [`Hasher`], every secret known: each entry's canonical form is written,
//!    its SHA-256 kept (32 bytes, for `diff`), and it is fed to the
//!    fingerprint in key order by [`Ordered`]. Terraform writes changes sorted
//!    by address, so entries arrive in order and nothing waits; entries that
//!    arrive early wait in memory up to a budget, beyond which they are
//!    dropped and hashed by another pass.
//! 3. `diff` only, when the plans differ: [`Fetch`] keeps the canonical form of
//!    the entries whose hashes differ, for the detailed comparison
//!    ([`compare_indexed`]).
//!
//! The fingerprint and the comparison are the same, byte for byte, as those of
//! the plan read whole ([`super::Intent::fingerprint`], [`super::compare`]).
//! Memory: about 100 bytes plus the key per entry, the differences a `diff`
//! reports, and the budget.

use super::sha256::Sha256;
use super::sorted::Tally;
use super::{canonical_bytes, change_entry, counts, entry_diff, key_of, Comparison, Intent, Keyed, Section, CANONICAL_VERSION};
use crate::model::visit::PlanVisitor;
use crate::model::ResourceChange;
use crate::secrets::Masker;
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};

/// The visitor of a later pass over a plan (`fingerprint`'s, `diff`'s): each
/// change and drift entry goes to the type's `entry(drift, rc)`; the values'
/// secrets were found by pass 1, so values are not read again.
macro_rules! later_pass_visitor {
    ($t:ty) => {
        impl crate::model::visit::PlanVisitor for $t {
            fn reads_values(&self) -> bool {
                false
            }
            fn on_resource_change(&mut self, rc: &crate::model::ResourceChange<'_>) {
                self.entry(false, rc);
            }
            fn on_drift(&mut self, rc: &crate::model::ResourceChange<'_>) {
                self.entry(true, rc);
            }
        }
    };
}
pub(crate) use later_pass_visitor;

/// How many bytes of canonical entries wait for their turn, at most, before
/// the furthest ones are left to another pass.
pub const ORDER_BUDGET: usize = 64 << 20;

/// One entry of a section: where its unique key is in the section's text
/// (its previous address, if any, right after it), how long its address (a
/// prefix of the key) is. 24 bytes; the keys are one string for the section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Light {
    start: usize,
    key_len: u32,
    address_len: u32,
    /// `u32::MAX`: no previous address.
    prev_len: u32,
}

/// The entries of one section (resource changes or drift): sorted by key,
/// and where the n-th counted element of the document went. Memory: the
/// keys' bytes and about 30 bytes per entry (64 more with `digests`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct SectionIndex {
    /// Every key, each followed by its previous address.
    text: String,
    entries: Vec<Light>,
    /// The SHA-256 of each entry's canonical form, by position in `entries`
    /// (empty when not kept: `fingerprint` needs none).
    digests: Vec<[u8; 32]>,
    rank: Vec<u32>,
}

/// A section's entries in document order, as pass 1 finds them.
#[derive(Debug, Default)]
struct Raw {
    text: String,
    entries: Vec<Light>,
}

impl Raw {
    fn push(&mut self, key: &str, address_len: usize, prev: Option<&str>) {
        let start = self.text.len();
        self.text.push_str(key);
        self.text.push_str(prev.unwrap_or_default());
        let len = |n: usize| u32::try_from(n).unwrap_or(u32::MAX - 1);
        self.entries.push(Light {
            start,
            key_len: len(key.len()),
            address_len: len(address_len.min(key.len())),
            prev_len: prev.map_or(u32::MAX, |p| len(p.len())),
        });
    }
}

impl SectionIndex {
    /// From the entries in document order: keys repeated by the plan get
    /// `#2`, `#3`... as [`super::Intent`] names them.
    fn new(raw: Raw) -> Self {
        let Raw { mut text, mut entries } = raw;
        let key = |l: &Light| l.start..l.start + l.key_len as usize;
        let sorted = |text: &str, entries: &[Light]| {
            let mut order: Vec<u32> = (0..entries.len() as u32).collect();
            order.sort_unstable_by(|a, b| text[key(&entries[*a as usize])].cmp(&text[key(&entries[*b as usize])]));
            order
        };
        let mut order = sorted(&text, &entries);
        let repeated = order.windows(2).any(|w| text[key(&entries[w[0] as usize])] == text[key(&entries[w[1] as usize])]);
        if repeated {
            // Rare (a plan that repeats an address): renamed as a whole read names them.
            drop(order);
            let mut taken: HashSet<String> = HashSet::with_capacity(entries.len());
            let mut renamed = Vec::new();
            for (doc, l) in entries.iter().enumerate() {
                let k = &text[key(l)];
                let k = if taken.contains(k) {
                    let n = (2..).find(|n| !taken.contains(&format!("{k}#{n}"))).unwrap_or_default();
                    let new = format!("{k}#{n}");
                    renamed.push((doc, new.clone()));
                    new
                } else {
                    k.to_string()
                };
                taken.insert(k);
            }
            drop(taken);
            for (doc, new) in renamed {
                let l = &mut entries[doc];
                let prev = (l.prev_len != u32::MAX).then(|| {
                    let at = l.start + l.key_len as usize;
                    text[at..at + l.prev_len as usize].to_string()
                });
                l.start = text.len();
                l.key_len = u32::try_from(new.len()).unwrap_or(u32::MAX - 1);
                text.push_str(&new);
                text.push_str(prev.as_deref().unwrap_or_default());
            }
            order = sorted(&text, &entries);
        }
        // Where each entry of the document goes, and the entries put there in place.
        let mut rank = vec![0u32; entries.len()];
        for (r, doc) in order.iter().enumerate() {
            rank[*doc as usize] = r as u32;
        }
        drop(order);
        let mut to = rank.clone();
        for i in 0..entries.len() {
            while to[i] as usize != i {
                let j = to[i] as usize;
                entries.swap(i, j);
                to.swap(i, j);
            }
        }
        drop(to);
        text.shrink_to_fit();
        entries.shrink_to_fit();
        SectionIndex { text, entries, digests: Vec::new(), rank }
    }

    /// From a model read whole.
    fn of_map(map: &BTreeMap<String, Value>) -> Self {
        let mut raw = Raw::default();
        let mut digests = Vec::with_capacity(map.len());
        for (k, v) in map {
            let (address, prev) = map.links(k).unwrap_or_default();
            raw.push(k, address.len(), prev);
            digests.push(digest(&canonical_bytes(v)));
        }
        SectionIndex { rank: (0..raw.entries.len() as u32).collect(), text: raw.text, entries: raw.entries, digests }
    }

    /// The key of the entry at `i` (in key order).
    pub(crate) fn key(&self, i: usize) -> &str {
        let l = &self.entries[i];
        &self.text[l.start..l.start + l.key_len as usize]
    }

    fn address_and_prev(&self, i: usize) -> (&str, Option<&str>) {
        let l = &self.entries[i];
        let key = self.key(i);
        let at = l.start + l.key_len as usize;
        let prev = (l.prev_len != u32::MAX).then(|| &self.text[at..at + l.prev_len as usize]);
        (&key[..(l.address_len as usize).min(key.len())], prev)
    }

    /// The SHA-256 of the entry at `i`, if kept.
    fn digest(&self, i: usize) -> Option<&[u8; 32]> {
        self.digests.get(i)
    }

    fn position(&self, key: &str) -> Option<usize> {
        let mut lo = 0;
        let mut hi = self.entries.len();
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.key(mid).cmp(key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }
}

impl Keyed for SectionIndex {
    fn keys(&self) -> Box<dyn Iterator<Item = &str> + '_> {
        Box::new((0..self.entries.len()).map(|i| self.key(i)))
    }
    fn get_key(&self, key: &str) -> Option<&str> {
        self.position(key).map(|i| self.key(i))
    }
    fn links(&self, key: &str) -> Option<(&str, Option<&str>)> {
        self.position(key).map(|i| self.address_and_prev(i))
    }
}

fn digest(bytes: &[u8]) -> [u8; 32] {
    let mut h = Sha256::default();
    h.update(bytes);
    h.finish()
}

/// A plan as `diff` and `fingerprint` need it, without the values of its
/// resource changes: its flags, outputs and checks (a model with no resource
/// changes or drift), each section's entries, and its fingerprint.
#[derive(Debug, Clone)]
pub(crate) struct Index {
    pub rest: Intent,
    pub changes: SectionIndex,
    pub drift: SectionIndex,
    pub fingerprint: String,
}

impl Index {
    /// The index of a model read whole (its entries' hashes computed here).
    pub(crate) fn of(intent: &Intent) -> Index {
        let rest = Intent { resources: BTreeMap::new(), drift: BTreeMap::new(), ..intent.clone() };
        Index {
            rest,
            changes: SectionIndex::of_map(&intent.resources),
            drift: SectionIndex::of_map(&intent.drift),
            fingerprint: intent.fingerprint(),
        }
    }
}

/// Pass 1: a [`Tally`] of each section's entries (`fingerprint`: enough
/// for [`super::sorted::Feed`]) and, when `keyed` (`diff`, or a plan that
/// repeats a key), the key, address and previous address of every entry.
#[derive(Debug, Default)]
pub(crate) struct Collect {
    changes: Raw,
    drift: Raw,
    keyed: bool,
    /// A pass over a document whose secrets are known: `planned_values` and `prior_state` skipped.
    again: bool,
    tally: Tally,
}

fn raw_entry(raw: &mut Raw, rc: &ResourceChange<'_>) {
    let prev = rc.previous_address.as_deref().filter(|p| *p != rc.address);
    match &rc.deposed {
        Some(_) => raw.push(&key_of(rc), rc.address.len(), prev),
        None => raw.push(&rc.address, rc.address.len(), prev),
    }
}

impl PlanVisitor for Collect {
    fn on_resource_change(&mut self, rc: &ResourceChange<'_>) {
        if counts(rc) {
            self.entry(false, rc);
        }
    }
    fn on_drift(&mut self, rc: &ResourceChange<'_>) {
        self.entry(true, rc);
    }
    fn reads_values(&self) -> bool {
        !self.again
    }
}

impl Collect {
    /// Every entry's key kept (`diff`): [`Collect::finish`] sorts them.
    pub(crate) fn keyed() -> Self {
        Collect { keyed: true, ..Collect::default() }
    }

    /// [`Collect::keyed`] for a pass after the secrets are known.
    pub(crate) fn keyed_again() -> Self {
        Collect { keyed: true, again: true, ..Collect::default() }
    }

    fn entry(&mut self, drift: bool, rc: &ResourceChange<'_>) {
        if self.keyed {
            raw_entry(if drift { &mut self.drift } else { &mut self.changes }, rc);
        } else {
            self.tally.add(drift, &key_of(rc));
        }
    }

    /// Whether every entry's key was kept.
    pub(crate) fn is_keyed(&self) -> bool {
        self.keyed
    }

    /// The tally of the entries (not kept when keyed).
    pub(crate) fn tally(&self) -> &Tally {
        &self.tally
    }

    /// The sections, keyed and sorted (hashes not yet known).
    pub(crate) fn finish(self) -> (SectionIndex, SectionIndex) {
        (SectionIndex::new(self.changes), SectionIndex::new(self.drift))
    }
}

/// The canonical serialisation of a model around its entries: the bytes
/// before the first drift entry, and those between drift and the resource
/// changes (`rest`'s parts: actions, checks, flags, outputs).
pub(super) fn frame(rest: &Intent) -> (Vec<u8>, Vec<u8>) {
    let map = |m: &BTreeMap<String, Value>| {
        canonical_bytes(&super::public(&Value::Object(m.iter().map(|(k, v)| (k.clone(), v.clone())).collect())))
    };
    let text = |s: &str| serde_json::to_string(s).unwrap_or_default().into_bytes();
    let mut head = b"{\"actions\":".to_vec();
    head.extend(map(&rest.actions));
    head.extend(b",\"canonical_version\":");
    head.extend(text(CANONICAL_VERSION));
    head.extend(b",\"checks\":");
    head.extend(map(&rest.checks));
    head.extend(format!(",\"complete\":{},\"drift\":{{", rest.complete).into_bytes());
    let mut middle = format!("}},\"errored\":{},\"outputs\":", rest.errored).into_bytes();
    middle.extend(map(&rest.outputs));
    middle.extend(b",\"resources\":{");
    (head, middle)
}

/// Feeds the canonical serialisation of a model to SHA-256 in key order,
/// whatever order its entries arrive in: `rest`'s parts around the entries,
/// drift (ranks `0..drift`) then resource changes. Entries that arrive
/// before their turn wait, up to [`ORDER_BUDGET`] bytes; beyond, the furthest
/// are dropped ([`Ordered::wants`] then refuses them) and another pass
/// ([`Ordered::end_pass`]) brings them again.
pub(crate) struct Ordered {
    sha: Sha256,
    next: usize,
    total: usize,
    drift: usize,
    middle: Vec<u8>,
    pending: BTreeMap<usize, Vec<u8>>,
    pending_bytes: usize,
    budget: usize,
    limit: usize,
}

impl Ordered {
    pub(crate) fn new(rest: &Intent, drift: usize, changes: usize, budget: usize) -> Ordered {
        let (head, middle) = frame(rest);
        let mut sha = Sha256::default();
        sha.update(&head);
        let total = drift + changes;
        Ordered { sha, next: 0, total, drift, middle, pending: BTreeMap::new(), pending_bytes: 0, budget, limit: total }
    }

    /// Whether the entry of this rank is still to be fed, in this pass.
    pub(crate) fn wants(&self, rank: usize) -> bool {
        rank >= self.next && rank < self.limit
    }

    /// The entry of `rank`: `"key":` then its canonical form.
    pub(crate) fn push(&mut self, rank: usize, mut bytes: Vec<u8>) {
        if !self.wants(rank) {
            return;
        }
        if rank != self.next {
            // Held: no spare capacity beyond the bytes the budget counts.
            bytes.shrink_to_fit();
            self.pending_bytes += bytes.len();
            self.pending.insert(rank, bytes);
            while self.pending_bytes > self.budget {
                let Some((r, b)) = self.pending.pop_last() else { break };
                self.pending_bytes -= b.len();
                self.limit = r;
            }
            return;
        }
        self.emit(rank, &bytes);
        self.next += 1;
        while let Some(b) = self.pending.remove(&self.next) {
            self.pending_bytes -= b.len();
            self.emit(self.next, &b);
            self.next += 1;
        }
    }

    fn emit(&mut self, rank: usize, bytes: &[u8]) {
        if rank == self.drift {
            self.sha.update(&self.middle);
        } else if rank != 0 {
            self.sha.update(b",");
        }
        self.sha.update(bytes);
    }

    /// After a pass: true when every entry was fed; else the next pass feeds the rest.
    pub(crate) fn end_pass(&mut self) -> bool {
        self.limit = self.total;
        self.next >= self.total
    }

    /// `sha256:<hex>`, once [`Ordered::end_pass`] said every entry was fed.
    pub(crate) fn finish(mut self) -> String {
        if self.drift == self.total {
            self.sha.update(&self.middle);
        }
        self.sha.update(b"}}");
        format!("sha256:{}", self.sha.hex())
    }
}

/// What [`Hasher`] and [`Fetch`] found wrong: the document is not the one
/// pass 1 read (it changed in between).
pub(crate) const CHANGED: &str = "the file changed while it was read (it is read more than once): read it again once it is written";

/// Pass 2 (and more, when entries came out of order): every entry's
/// canonical form, with every secret known; its hash kept (`digests`), and
/// fed to the fingerprint.
pub(crate) struct Hasher<'a> {
    sections: [&'a mut SectionIndex; 2],
    writer: super::write::Writer<'a>,
    sink: &'a mut Ordered,
    seen: [usize; 2],
    digests: bool,
    pub changed: bool,
}

impl<'a> Hasher<'a> {
    /// `digests`: keep each entry's hash (the first pass; `diff` needs them).
    pub(crate) fn new(
        changes: &'a mut SectionIndex,
        drift: &'a mut SectionIndex,
        masker: &'a Masker,
        sink: &'a mut Ordered,
        digests: bool,
    ) -> Self {
        Hasher { sections: [changes, drift], writer: super::write::Writer::new(masker), sink, seen: [0, 0], digests, changed: false }
    }

    fn entry(&mut self, drift: bool, rc: &ResourceChange<'_>) {
        if !drift && !counts(rc) {
            return;
        }
        let s = usize::from(drift);
        let n = self.seen[s];
        self.seen[s] += 1;
        let section = &mut self.sections[s];
        let Some(r) = section.rank.get(n).map(|r| *r as usize) else {
            self.changed = true;
            return;
        };
        if !section.key(r).starts_with(&key_of(rc)) {
            self.changed = true;
            return;
        }
        if self.digests && section.digests.len() != section.entries.len() {
            section.digests = vec![[0; 32]; section.entries.len()];
        }
        let rank = if drift { r } else { self.sink.drift + r };
        let fingerprint = self.sink.wants(rank);
        if !fingerprint && !self.digests {
            return;
        }
        // `"key":` then the entry's canonical bytes, hashed as printed:
        // without the CI's key, no secret's hash (its public form). `diff`'s
        // hash of the entry is that of its full form (the same with a key).
        let keyed = super::keyed();
        let mut bytes = serde_json::to_string(section.key(r)).unwrap_or_default().into_bytes();
        bytes.push(b':');
        let start = bytes.len();
        if !self.digests {
            self.writer.change(rc, keyed, &mut bytes);
        } else if keyed {
            self.writer.change(rc, true, &mut bytes);
            section.digests[r] = digest(&bytes[start..]);
        } else {
            let mut full = Vec::new();
            if fingerprint {
                self.writer.change_both(rc, &mut full, &mut bytes);
            } else {
                self.writer.change(rc, true, &mut full);
            }
            section.digests[r] = digest(&full);
        }
        if fingerprint {
            self.sink.push(rank, bytes);
        }
    }

    /// Whether the pass saw the document pass 1 saw.
    pub(crate) fn saw_all(&self) -> bool {
        !self.changed && self.seen[0] == self.sections[0].len() && self.seen[1] == self.sections[1].len()
    }
}

later_pass_visitor!(Hasher<'_>);

/// Which entries of a plan `diff` needs in full, by section (changes, drift)
/// and rank (position in [`SectionIndex::entries`]).
pub(crate) type Wanted = [Vec<bool>; 2];

/// The canonical forms of the wanted entries, by section and key.
pub(crate) type Details = [BTreeMap<String, Value>; 2];

/// Pass 3 of `diff`: the canonical form of the wanted entries.
pub(crate) struct Fetch<'a> {
    index: &'a Index,
    wanted: &'a Wanted,
    masker: &'a Masker,
    seen: [usize; 2],
    pub details: Details,
    pub changed: bool,
}

impl<'a> Fetch<'a> {
    pub(crate) fn new(index: &'a Index, wanted: &'a Wanted, masker: &'a Masker) -> Self {
        Fetch { index, wanted, masker, seen: [0, 0], details: Default::default(), changed: false }
    }

    fn entry(&mut self, drift: bool, rc: &ResourceChange<'_>) {
        if !drift && !counts(rc) {
            return;
        }
        let s = usize::from(drift);
        let n = self.seen[s];
        self.seen[s] += 1;
        let section = if drift { &self.index.drift } else { &self.index.changes };
        let Some(r) = section.rank.get(n).map(|r| *r as usize) else {
            self.changed = true;
            return;
        };
        if !self.wanted[s].get(r).copied().unwrap_or(false) {
            return;
        }
        let v = change_entry(rc, self.masker);
        if !section.key(r).starts_with(&key_of(rc)) || section.digest(r) != Some(&digest(&canonical_bytes(&v))) {
            self.changed = true;
            return;
        }
        self.details[s].insert(section.key(r).to_string(), v);
    }
}

later_pass_visitor!(Fetch<'_>);

/// Compare two indexed plans: entries paired as [`super::compare`] pairs
/// them; those whose hashes are equal are the same; `fetch` gives the
/// canonical forms of the others (old plan's, new plan's), which are compared
/// in detail. The same [`Comparison`] as [`super::compare`] over the models.
pub(crate) fn compare_indexed<E>(
    old: &Index,
    new: &Index,
    fetch: impl FnOnce(Wanted, Wanted) -> Result<(Details, Details), E>,
) -> Result<Comparison, E> {
    let sections = [(Section::Resource, &old.changes, &new.changes), (Section::Drift, &old.drift, &new.drift)];
    let pairs: Vec<Vec<super::Pair<'_>>> = sections.iter().map(|(_, o, n)| super::pair_changes(*o, *n)).collect();
    let same = |o: &SectionIndex, n: &SectionIndex, p: &super::Pair<'_>| match (p.old, p.in_new) {
        (Some(ok), true) => {
            o.position(ok).and_then(|a| o.digest(a)).zip(n.position(p.key).and_then(|b| n.digest(b))).is_some_and(|(a, b)| a == b)
        }
        _ => false,
    };
    let mut wanted_old: Wanted = [vec![false; old.changes.len()], vec![false; old.drift.len()]];
    let mut wanted_new: Wanted = [vec![false; new.changes.len()], vec![false; new.drift.len()]];
    for (s, ((_, o, n), pairs)) in sections.iter().zip(&pairs).enumerate() {
        for p in pairs.iter().filter(|p| !same(o, n, p)) {
            if let Some(i) = p.old.and_then(|k| o.position(k)) {
                wanted_old[s][i] = true;
            }
            if let Some(i) = p.in_new.then(|| n.position(p.key)).flatten() {
                wanted_new[s][i] = true;
            }
        }
    }
    let any = wanted_old.iter().chain(&wanted_new).any(|w| w.contains(&true));
    let (old_details, new_details) = if any { fetch(wanted_old, wanted_new)? } else { Default::default() };
    let mut entries = super::compare_plan(&old.rest, &new.rest);
    for (s, ((section, o, n), pairs)) in sections.iter().zip(&pairs).enumerate() {
        for p in pairs.iter().filter(|p| !same(o, n, p)) {
            let old_key = p.old.filter(|k| *k != p.key).map(str::to_string);
            let ov = p.old.and_then(|k| old_details[s].get(k));
            let nv = if p.in_new { new_details[s].get(p.key) } else { None };
            entries.extend(entry_diff(*section, p.key, old_key, ov, nv));
        }
    }
    Ok(super::compare_rest(&old.rest, &new.rest, entries))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_section_is_sorted_in_place_and_repeated_keys_are_renamed_as_a_whole_read_names_them() {
        let mut raw = Raw::default();
        // Document order; "b" twice, and "b#2" already taken by a later entry.
        for (key, prev) in [("c", None), ("b", Some("old.b")), ("a", None), ("b", None), ("b#2", Some("")), ("b", Some("x"))] {
            raw.push(key, key.len().min(1), prev);
        }
        let ix = SectionIndex::new(raw);
        let keys: Vec<&str> = ix.keys().collect();
        // As `insert` names them in document order: the first free `#n`.
        assert_eq!(keys, ["a", "b", "b#2", "b#2#2", "b#3", "c"]);
        // The n-th entry of the document went to the key a whole read gives it.
        let of_doc: Vec<&str> = ix.rank.iter().map(|r| ix.key(*r as usize)).collect();
        assert_eq!(of_doc, ["c", "b", "a", "b#2", "b#2#2", "b#3"]);
        assert_eq!(ix.links("b"), Some(("b", Some("old.b"))));
        assert_eq!(ix.links("b#2"), Some(("b", None)));
        assert_eq!(ix.links("b#2#2"), Some(("b", Some(""))), "an empty previous address is one");
        assert_eq!(ix.links("b#3"), Some(("b", Some("x"))), "a renamed key keeps its previous address");
        assert_eq!(ix.links("d"), None);
        assert!(ix.digest(0).is_none(), "no digests unless asked for");
        // Many entries out of order: every one lands at its rank.
        let mut raw = Raw::default();
        let n = 5_000;
        for i in 0..n {
            raw.push(&format!("t{}", (i * 7919) % n), 1, None);
        }
        let ix = SectionIndex::new(raw);
        assert!(ix.keys().zip(ix.keys().skip(1)).all(|(a, b)| a < b));
        for i in 0..n {
            assert_eq!(ix.key(ix.rank[i] as usize), format!("t{}", (i * 7919) % n));
        }
    }

    #[test]
    fn out_of_order_entries_wait_or_come_again_and_hash_as_in_order() {
        let rest = Intent {
            errored: false,
            complete: true,
            resources: BTreeMap::new(),
            drift: BTreeMap::new(),
            outputs: BTreeMap::new(),
            checks: BTreeMap::new(),
            actions: BTreeMap::new(),
        };
        let entries: Vec<Vec<u8>> = (0..6).map(|i| format!("\"k{i}\":{{\"x\":{i}}}").into_bytes()).collect();
        let run = |order: &[usize], budget: usize| {
            let mut o = Ordered::new(&rest, 2, 4, budget);
            let mut passes = 0;
            loop {
                passes += 1;
                for &i in order {
                    if o.wants(i) {
                        o.push(i, entries[i].clone());
                    }
                }
                if o.end_pass() {
                    break;
                }
            }
            (o.finish(), passes)
        };
        let (sorted, passes) = run(&[0, 1, 2, 3, 4, 5], 0);
        assert_eq!(passes, 1);
        assert_eq!(run(&[5, 4, 3, 2, 1, 0], 1 << 20), (sorted.clone(), 1));
        let (reversed, passes) = run(&[5, 4, 3, 2, 1, 0], 0);
        assert_eq!((reversed, passes), (sorted.clone(), 6));
        assert_eq!(run(&[1, 0, 3, 2, 5, 4], 12).0, sorted);
        // Another entry: another fingerprint.
        let mut o = Ordered::new(&rest, 2, 4, 0);
        for (i, e) in entries.iter().enumerate() {
            o.push(i, if i == 3 { b"\"k3\":{\"x\":9}".to_vec() } else { e.clone() });
        }
        assert!(o.end_pass());
        assert_ne!(o.finish(), sorted);
    }
}
