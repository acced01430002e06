//! `fingerprint`'s later pass in memory that does not grow with the plan:
//! no index of keys. Pass 1 ([`super::streamed::Collect`]) keeps only a
//! [`Tally`] per section (how many entries, a sum of their keys' hashes,
//! whether they came in key order). Pass 2 ([`Feed`]) writes each entry's
//! canonical bytes, every secret known, and:
//!
//! - when pass 1 saw every entry in key order (terraform sorts changes by
//!   address), hashes them as they come: nothing is held;
//! - else sorts them by key outside memory ([`Runs`]): entries gather in a
//!   buffer of at most [`RUN_BUDGET`] bytes (4 MB), which is sorted and appended to
//!   an anonymous temporary file as one run when full; the runs are merged
//!   at the end, a block of each at a time, into the hash.
//!
//! A plan that repeats a key (named `key#2`, `key#3`... by document order)
//! is left to [`super::streamed`]'s index ([`Outcome::Repeated`]); so is a
//! plan whose entries pass 2 does not find as pass 1 counted them
//! ([`Outcome::Changed`]: the file changed between the reads). The bytes
//! hashed are those of [`super::streamed::Ordered`], byte for byte.

use super::sha256::Sha256;
use super::streamed::frame;
use super::{counts, key_of, Intent};
use crate::model::ResourceChange;
use crate::secrets::Masker;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fs::File;
use std::hash::Hasher as _;
use std::io::{self, Read, Seek, SeekFrom, Write};

/// How many bytes of entries are sorted in memory at most before they are
/// spilled as a run.
pub(crate) const RUN_BUDGET: usize = 4 << 20;

/// Bytes of the merge's read blocks, all runs together.
const MERGE_BUFFERS: usize = 4 << 20;

/// What pass 1 learnt of a plan's entries (index 0: resource changes, 1:
/// drift), for pass 2 to find the same document and to choose its road.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Tally {
    count: [usize; 2],
    /// Wrapping sum of each key's hash (order does not matter).
    sum: [u64; 2],
    /// An entry came before one it sorts before, in its section, or drift
    /// came after a resource change (whose section is hashed after drift's).
    unsorted: bool,
    last: [Option<String>; 2],
}

impl Tally {
    pub(crate) fn add(&mut self, drift: bool, key: &str) {
        let s = usize::from(drift);
        self.count[s] += 1;
        let mut h = std::hash::DefaultHasher::new();
        h.write(key.as_bytes());
        self.sum[s] = self.sum[s].wrapping_add(h.finish());
        if drift && self.count[0] > 0 {
            self.unsorted = true;
        }
        match &mut self.last[s] {
            Some(last) if last.as_str() >= key => self.unsorted = true,
            Some(last) => {
                last.clear();
                last.push_str(key);
            }
            none => *none = Some(key.to_string()),
        }
    }

    /// The same entries (and the same order, when that mattered).
    fn same(&self, other: &Tally) -> bool {
        self.count == other.count && self.sum == other.sum && self.unsorted == other.unsorted
    }
}

/// How a pass of [`Feed`] ended.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// `sha256:<hex>`.
    Fingerprint(String),
    /// The plan repeats a key: the index must rename them.
    Repeated,
    /// Not the document pass 1 read.
    Changed,
}

/// The fingerprint's stream of bytes around the entries: `rest`'s parts,
/// drift, then resource changes ([`super::streamed::Ordered`]'s order).
struct Emit {
    sha: Sha256,
    middle: Vec<u8>,
    in_changes: bool,
    first: bool,
}

impl Emit {
    fn new(rest: &Intent) -> Emit {
        let (head, middle) = frame(rest);
        let mut sha = Sha256::default();
        sha.update(&head);
        Emit { sha, middle, in_changes: false, first: true }
    }

    /// One entry, `"key":` and its canonical bytes: every drift entry comes
    /// before every resource change.
    fn entry(&mut self, drift: bool, bytes: &[u8]) {
        if !drift && !self.in_changes {
            self.sha.update(&self.middle);
            self.in_changes = true;
        } else if !self.first {
            self.sha.update(b",");
        }
        self.first = false;
        self.sha.update(bytes);
    }

    fn finish(mut self) -> String {
        if !self.in_changes {
            self.sha.update(&self.middle);
        }
        self.sha.update(b"}}");
        format!("sha256:{}", self.sha.hex())
    }
}

/// Records sorted by key outside memory: a buffer of at most `budget` bytes
/// sorted and spilled as a run of a temporary file, the runs merged.
/// A record: its key's length (4 bytes), its key, its body's length, its body.
pub(crate) struct Runs {
    buf: Vec<u8>,
    starts: Vec<usize>,
    budget: usize,
    file: Option<File>,
    /// Each spilled run's start and end in `file`.
    runs: Vec<(u64, u64)>,
}

fn len32(n: usize) -> io::Result<[u8; 4]> {
    u32::try_from(n).map(u32::to_le_bytes).map_err(|_| io::Error::other("an entry of 4 GB or more cannot be sorted"))
}

fn record_key(buf: &[u8], at: usize) -> &[u8] {
    let n = u32::from_le_bytes([buf[at], buf[at + 1], buf[at + 2], buf[at + 3]]) as usize;
    &buf[at + 4..at + 4 + n]
}

fn record_end(buf: &[u8], at: usize) -> usize {
    let k = u32::from_le_bytes([buf[at], buf[at + 1], buf[at + 2], buf[at + 3]]) as usize;
    let b = at + 4 + k;
    b + 4 + u32::from_le_bytes([buf[b], buf[b + 1], buf[b + 2], buf[b + 3]]) as usize
}

fn record_body(buf: &[u8], at: usize) -> &[u8] {
    let k = u32::from_le_bytes([buf[at], buf[at + 1], buf[at + 2], buf[at + 3]]) as usize;
    &buf[at + 8 + k..record_end(buf, at)]
}

impl Runs {
    pub(crate) fn new(budget: usize) -> Runs {
        Runs { buf: Vec::new(), starts: Vec::new(), budget, file: None, runs: Vec::new() }
    }

    pub(crate) fn push(&mut self, key: &[u8], body: &[u8]) -> io::Result<()> {
        let (k, b) = (len32(key.len())?, len32(body.len())?);
        let need = 8 + key.len() + body.len();
        // Spilled before it would grow past the budget: its room is never doubled.
        if !self.buf.is_empty() && self.buf.len() + need > self.budget {
            self.spill()?;
        }
        if self.buf.capacity() < need.min(self.budget) {
            self.buf.reserve_exact(self.budget.max(need));
        }
        self.starts.push(self.buf.len());
        self.buf.extend_from_slice(&k);
        self.buf.extend_from_slice(key);
        self.buf.extend_from_slice(&b);
        self.buf.extend_from_slice(body);
        if self.buf.len() > self.budget {
            self.spill()?;
        }
        Ok(())
    }

    fn sort(&mut self) {
        let buf = &self.buf;
        self.starts.sort_unstable_by(|a, b| record_key(buf, *a).cmp(record_key(buf, *b)));
    }

    /// The buffer, sorted, appended to the file as one run.
    fn spill(&mut self) -> io::Result<()> {
        self.sort();
        let file = match &mut self.file {
            Some(f) => f,
            none => match crate::spool::anonymous_file() {
                Ok(f) => none.insert(f),
                // No temporary file can be made: the entries stay in memory
                // (as the spool does), sorted at the end; the run goes on.
                Err(_) => {
                    self.budget = usize::MAX;
                    return Ok(());
                }
            },
        };
        let start = self.runs.last().map_or(0, |r| r.1);
        let mut w = io::BufWriter::with_capacity(1 << 16, &mut *file);
        for &at in &self.starts {
            w.write_all(&self.buf[at..record_end(&self.buf, at)])?;
        }
        w.flush()?;
        drop(w);
        let end = start + self.buf.len() as u64;
        self.runs.push((start, end));
        self.buf.clear();
        self.starts.clear();
        // A big entry's room is not kept past its run.
        if self.buf.capacity() > 2 * self.budget.max(1 << 16) {
            self.buf = Vec::new();
        }
        Ok(())
    }

    /// Every record in key order (equal keys: any order) to `f`.
    pub(crate) fn merge(mut self, mut f: impl FnMut(&[u8], &[u8])) -> io::Result<()> {
        if self.runs.is_empty() {
            // One run, still in memory.
            self.sort();
            for &at in &self.starts {
                f(record_key(&self.buf, at), record_body(&self.buf, at));
            }
            return Ok(());
        }
        if !self.starts.is_empty() {
            self.spill()?;
        }
        self.buf = Vec::new();
        self.starts = Vec::new();
        let Some(mut file) = self.file.take() else { return Ok(()) };
        let block = (MERGE_BUFFERS / self.runs.len()).clamp(4 << 10, 1 << 20);
        let mut readers: Vec<RunReader> = self.runs.iter().map(|&(start, end)| RunReader::new(start, end, block)).collect();
        let mut heap = BinaryHeap::with_capacity(readers.len());
        let mut bodies: Vec<Vec<u8>> = vec![Vec::new(); readers.len()];
        for (i, r) in readers.iter_mut().enumerate() {
            let mut key = Vec::new();
            if r.next(&mut file, &mut key, &mut bodies[i])? {
                heap.push(Head { key, run: i });
            }
        }
        while let Some(mut head) = heap.pop() {
            let run = head.run;
            f(&head.key, &bodies[run]);
            if readers[run].next(&mut file, &mut head.key, &mut bodies[run])? {
                heap.push(head);
            } else {
                bodies[run] = Vec::new();
            }
        }
        Ok(())
    }
}

/// A run's next key on the merge's heap (smallest first).
struct Head {
    key: Vec<u8>,
    run: usize,
}

impl PartialEq for Head {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Head {}
impl PartialOrd for Head {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Head {
    fn cmp(&self, other: &Self) -> Ordering {
        other.key.cmp(&self.key).then(other.run.cmp(&self.run))
    }
}

/// One run read back a block at a time (the runs share one file: each
/// seeks to where it stopped).
struct RunReader {
    pos: u64,
    end: u64,
    block: Vec<u8>,
    at: usize,
    size: usize,
}

impl RunReader {
    fn new(pos: u64, end: u64, size: usize) -> RunReader {
        RunReader { pos, end, block: Vec::new(), at: 0, size }
    }

    fn fill(&mut self, file: &mut File, want: usize) -> io::Result<()> {
        let left = (self.end - self.pos) as usize;
        let n = self.size.max(want).min(left);
        if n < want {
            return Err(io::Error::other("a sorted run of the temporary file ends early"));
        }
        self.block.drain(..self.at);
        self.at = 0;
        let have = self.block.len();
        self.block.resize(have + n, 0);
        file.seek(SeekFrom::Start(self.pos))?;
        file.read_exact(&mut self.block[have..])?;
        self.pos += n as u64;
        Ok(())
    }

    fn take(&mut self, file: &mut File, n: usize, out: &mut Vec<u8>) -> io::Result<()> {
        if self.block.len() - self.at < n {
            let short = n - (self.block.len() - self.at);
            self.fill(file, short)?;
        }
        out.clear();
        out.extend_from_slice(&self.block[self.at..self.at + n]);
        self.at += n;
        Ok(())
    }

    fn length(&mut self, file: &mut File, scratch: &mut Vec<u8>) -> io::Result<usize> {
        self.take(file, 4, scratch)?;
        Ok(u32::from_le_bytes([scratch[0], scratch[1], scratch[2], scratch[3]]) as usize)
    }

    /// The next record's key and body; false at the run's end.
    fn next(&mut self, file: &mut File, key: &mut Vec<u8>, body: &mut Vec<u8>) -> io::Result<bool> {
        if self.at == self.block.len() && self.pos == self.end {
            return Ok(false);
        }
        let k = self.length(file, key)?;
        self.take(file, k, key)?;
        let b = self.length(file, body)?;
        self.take(file, b, body)?;
        if self.block.capacity() > 2 * self.size && self.at == self.block.len() {
            // A big record's room is not kept.
            self.block = Vec::new();
            self.at = 0;
        }
        Ok(true)
    }
}

/// Where pass 2's entries go.
enum Sink {
    /// In key order already: hashed as they come.
    Direct(Emit),
    /// Sorted first.
    Sorted(Emit, Runs),
}

/// Pass 2: every entry's canonical form, with every secret known, fed to
/// the fingerprint ([`Outcome`]).
pub(crate) struct Feed<'a> {
    writer: super::write::Writer<'a>,
    expected: &'a Tally,
    seen: Tally,
    sink: Sink,
    error: Option<io::Error>,
    bytes: Vec<u8>,
    sort_key: Vec<u8>,
}

impl<'a> Feed<'a> {
    /// `budget`: [`RUN_BUDGET`] (tests: smaller, to merge many runs).
    pub(crate) fn new(rest: &Intent, expected: &'a Tally, masker: &'a Masker, budget: usize) -> Feed<'a> {
        let emit = Emit::new(rest);
        let sink = if expected.unsorted { Sink::Sorted(emit, Runs::new(budget)) } else { Sink::Direct(emit) };
        Feed {
            writer: super::write::Writer::new(masker),
            expected,
            seen: Tally::default(),
            sink,
            error: None,
            bytes: Vec::new(),
            sort_key: Vec::new(),
        }
    }

    fn entry(&mut self, drift: bool, rc: &ResourceChange<'_>) {
        if !drift && !counts(rc) {
            return;
        }
        let key = key_of(rc);
        self.seen.add(drift, &key);
        if self.error.is_some() || (matches!(self.sink, Sink::Direct(_)) && self.seen.unsorted) {
            // Not the document pass 1 read (said at the end, by the tallies).
            return;
        }
        // `"key":` then the entry's canonical bytes, hashed as printed:
        // without the CI's key, no secret's hash (its public form).
        self.bytes.clear();
        let _ = serde_json::to_writer(&mut self.bytes, &key);
        self.bytes.push(b':');
        self.writer.change(rc, super::keyed(), &mut self.bytes);
        match &mut self.sink {
            Sink::Direct(emit) => emit.entry(drift, &self.bytes),
            Sink::Sorted(_, runs) => {
                self.sort_key.clear();
                self.sort_key.push(u8::from(!drift));
                self.sort_key.extend_from_slice(key.as_bytes());
                if let Err(e) = runs.push(&self.sort_key, &self.bytes) {
                    self.error = Some(e);
                }
            }
        }
    }

    /// The fingerprint, once the pass saw the whole document (an error: the
    /// temporary file of the sorted runs could not be written or read).
    pub(crate) fn finish(self) -> io::Result<Outcome> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if !self.seen.same(self.expected) {
            return Ok(Outcome::Changed);
        }
        match self.sink {
            Sink::Direct(emit) => Ok(Outcome::Fingerprint(emit.finish())),
            Sink::Sorted(mut emit, runs) => {
                let mut last: Option<Vec<u8>> = None;
                let mut repeated = false;
                runs.merge(|key, body| {
                    if repeated {
                        return;
                    }
                    match &mut last {
                        Some(l) if l.as_slice() == key => repeated = true,
                        Some(l) => {
                            l.clear();
                            l.extend_from_slice(key);
                        }
                        none => *none = Some(key.to_vec()),
                    }
                    if !repeated {
                        emit.entry(key.first() == Some(&0), body);
                    }
                })?;
                Ok(if repeated { Outcome::Repeated } else { Outcome::Fingerprint(emit.finish()) })
            }
        }
    }
}

super::streamed::later_pass_visitor!(Feed<'_>);

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted_by_runs(records: &[(Vec<u8>, Vec<u8>)], budget: usize) -> Vec<(Vec<u8>, Vec<u8>)> {
        let mut runs = Runs::new(budget);
        for (k, b) in records {
            runs.push(k, b).unwrap();
        }
        let spilled = !runs.runs.is_empty();
        let mut out = Vec::new();
        runs.merge(|k, b| out.push((k.to_vec(), b.to_vec()))).unwrap();
        assert_eq!(spilled, budget < records.iter().map(|(k, b)| k.len() + b.len() + 8).sum::<usize>(), "budget {budget}");
        out
    }

    #[test]
    fn runs_spilled_and_merged_give_every_record_in_key_order() {
        // Keys out of order (a multiplicative walk), bodies of every size
        // from empty to more than a read block, so records straddle blocks.
        let n = 3_000usize;
        let records: Vec<(Vec<u8>, Vec<u8>)> = (0..n)
            .map(|i| {
                let k = (i * 7919) % n;
                let body = vec![b'a' + (k % 26) as u8; (k * 13) % 9_000];
                (format!("t{k}").into_bytes(), body)
            })
            .collect();
        let mut want = records.clone();
        want.sort();
        for budget in [0, 1, 5_000, 100_000, 1 << 30] {
            assert_eq!(sorted_by_runs(&records, budget), want, "budget {budget}");
        }
        let mut empty = Vec::new();
        Runs::new(0).merge(|k, b| empty.push((k.to_vec(), b.to_vec()))).unwrap();
        assert!(empty.is_empty());
    }

    #[test]
    fn a_tally_tells_order_and_contents() {
        let tally = |keys: &[(bool, &str)]| {
            let mut t = Tally::default();
            keys.iter().for_each(|(d, k)| t.add(*d, k));
            t
        };
        let sorted = tally(&[(true, "d.a"), (true, "d.b"), (false, "a"), (false, "b"), (false, "b2")]);
        assert!(!sorted.unsorted);
        assert!(tally(&[(false, "b"), (false, "a")]).unsorted);
        assert!(tally(&[(false, "a"), (false, "a")]).unsorted, "a repeated key is not in order");
        assert!(tally(&[(false, "a"), (true, "d")]).unsorted, "drift after a change");
        // Another key, or one more: not the same document.
        assert!(!sorted.same(&tally(&[(true, "d.a"), (true, "d.b"), (false, "a"), (false, "b"), (false, "b3")])));
        assert!(!sorted.same(&tally(&[(true, "d.a"), (true, "d.b"), (false, "a"), (false, "b")])));
        assert!(!sorted.same(&tally(&[(true, "d.a"), (false, "d.b"), (false, "a"), (false, "b"), (false, "b2")])));
        assert!(sorted.same(&tally(&[(true, "d.a"), (true, "d.b"), (false, "a"), (false, "b"), (false, "b2")])));
    }
}
