//! `state`'s rows sorted with bounded memory: [`Sorter`] holds rows up to a
//! budget, sorts them and spools each full chunk as a sorted run
//! ([`crate::spool::Records`]); [`Rows`] is the answer, in memory when it
//! fits in one chunk, else the runs merged as they are read
//! ([`Rows::each`]). Each row carries a tie-break (its place in the walk of
//! the module tree), so that the merged order is the stable sort's.

use crate::query::summary::StateResource;
use crate::spool::Records;
use serde::Serialize;
use std::cmp::Ordering;

/// Bytes of rows (estimated) held before a chunk is sorted and spooled.
pub(crate) const ROWS_BUDGET: usize = 8 << 20;

/// Rows sorted by `order`, then by their tie-breaks.
pub(crate) struct Sorter {
    order: fn(&StateResource, &StateResource) -> Ordering,
    chunk: Vec<(u64, StateResource)>,
    bytes: usize,
    budget: usize,
    runs: Vec<Records<(u64, StateResource)>>,
    failed: Option<String>,
}

/// About the memory a row holds.
fn weight(r: &StateResource) -> usize {
    let s = |o: &Option<String>| o.as_ref().map_or(0, String::len);
    160 + r.address.len() + s(&r.module) + r.mode.len() + r.type_.len() + r.name.len() + s(&r.provider_name) + s(&r.deposed)
}

impl Sorter {
    pub(crate) fn new(order: fn(&StateResource, &StateResource) -> Ordering, budget: usize) -> Self {
        Sorter { order, chunk: Vec::new(), bytes: 0, budget, runs: Vec::new(), failed: None }
    }

    /// Add `row`, with its tie-break (unique, in the stable order).
    pub(crate) fn push(&mut self, tie: u64, row: StateResource) {
        self.bytes += weight(&row);
        self.chunk.push((tie, row));
        if self.bytes >= self.budget {
            self.spill();
        }
    }

    fn sort_chunk(&mut self) {
        let order = self.order;
        self.chunk.sort_unstable_by(|a, b| order(&a.1, &b.1).then(a.0.cmp(&b.0)));
    }

    fn spill(&mut self) {
        self.sort_chunk();
        let mut run = Records::default();
        let written = self.chunk.drain(..).try_for_each(|r| run.push(&r));
        if let Err(e) = written {
            self.failed.get_or_insert_with(|| format!("cannot spool the rows to a temporary file: {e}"));
        }
        self.chunk = Vec::new();
        self.bytes = 0;
        self.runs.push(run);
    }

    /// The rows in order.
    pub(crate) fn finish(mut self) -> Result<Rows, String> {
        if self.runs.is_empty() {
            self.sort_chunk();
            return Ok(Rows { kept: self.chunk.into_iter().map(|(_, r)| r).collect(), runs: Vec::new(), order: self.order, len: 0 });
        }
        if !self.chunk.is_empty() {
            self.spill();
        }
        if let Some(why) = self.failed {
            return Err(why);
        }
        let len = self.runs.iter().map(Records::len).sum();
        Ok(Rows { kept: Vec::new(), runs: self.runs, order: self.order, len })
    }
}

/// A state report's rows, sorted: in memory, or sorted runs on disk merged
/// as they are read. It reads as the `Vec` of those in memory
/// ([`std::ops::Deref`]), which is every row unless spooled; `len`,
/// `is_empty` and [`Rows::each`] see every row.
pub(crate) struct Rows {
    kept: Vec<StateResource>,
    runs: Vec<Records<(u64, StateResource)>>,
    order: fn(&StateResource, &StateResource) -> Ordering,
    /// Rows in the runs.
    len: usize,
}

impl std::fmt::Debug for Rows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rows").field("kept", &self.kept.len()).field("runs", &self.runs.len()).field("len", &self.len).finish()
    }
}

impl std::ops::Deref for Rows {
    type Target = Vec<StateResource>;
    fn deref(&self) -> &Vec<StateResource> {
        &self.kept
    }
}

impl Rows {
    pub(crate) fn len(&self) -> usize {
        self.kept.len() + self.len
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Each row in order, given to `f` (the runs merged as they are read).
    pub(crate) fn each(&self, mut f: impl FnMut(&StateResource) -> std::io::Result<()>) -> std::io::Result<()> {
        if self.runs.is_empty() {
            return self.kept.iter().try_for_each(f);
        }
        let mut its = self.runs.iter().map(|r| r.iter(64 << 10)).collect::<std::io::Result<Vec<_>>>()?;
        // The runs' heads, least first.
        let mut heads = std::collections::BinaryHeap::with_capacity(its.len());
        for (run, it) in its.iter_mut().enumerate() {
            if let Some((tie, row)) = it.next_record()? {
                heads.push(Head { tie, row, run, order: self.order });
            }
        }
        while let Some(Head { tie: _, row, run, order }) = heads.pop() {
            f(&row)?;
            if let Some((tie, row)) = its[run].next_record()? {
                heads.push(Head { tie, row, run, order });
            }
        }
        Ok(())
    }
}

/// A run's next row in the merge ([`Rows::each`]): ordered so that the
/// heap's greatest is the least row.
struct Head {
    tie: u64,
    row: StateResource,
    run: usize,
    order: fn(&StateResource, &StateResource) -> Ordering,
}

impl Ord for Head {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.order)(&other.row, &self.row).then(other.tie.cmp(&self.tie))
    }
}

impl PartialOrd for Head {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Head {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Head {}

impl Serialize for Rows {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        if self.runs.is_empty() {
            return self.kept.serialize(ser);
        }
        crate::spool::serialize_each(ser, self.len(), |push| self.each(|r| push(r)))
    }
}
