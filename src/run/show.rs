//! `show` streamed: memory bounded by the largest resource change, not by the
//! input or the output.
//!
//! Secrets are masked by value too: a value printed anywhere must be masked
//! when the input marks it sensitive anywhere, and the set of secrets is only
//! complete at the end of the input. So a change cannot be rendered as it
//! streams by. Instead:
//!
//! 1. Every input is streamed once ([`crate::read::stream_roots`],
//!    [`crate::read::pool::stream_one`]): the secret collector sees every part of it, and
//!    [`Collector`] counts the changes `show` leaves out ([`show::pick`]) and
//!    *spools* the text of each change it shows, in document order: in memory
//!    while a small budget shared by all inputs lasts ([`MEMORY`]), then in
//!    blocks appended to one anonymous temporary file (unlinked as soon as it
//!    is created; [`std::env::temp_dir`]; where none can be written, they are
//!    kept in memory after all). The header and the output changes come from
//!    the skeleton, when every secret is known.
//! 2. Each report is rendered in input order straight to the writer: each
//!    spooled change is parsed again, diffed ([`show::resource_diff`]) with
//!    all of its input's secrets known, written, and dropped
//!    ([`render::show::Resources`]). Changes are diffed in batches (at most
//!    [`BATCH_BYTES`] of text), each batch split over the cores; the first
//!    batches are small ([`FIRST_BATCH_LEN`]), so that `show | head` writes
//!    its first changes as soon as the input was read, and stops there (the
//!    next write fails), never diffing the rest.
//!
//! One exception: a single regular file (not a saved plan) whose changes
//! shown outgrow the memory budget is read twice ([`Reread`]): the first
//! pass collects its secrets and keeps only a keyed hash of each change
//! shown (8 bytes); the second diffs and writes each change as it is read
//! again, held to its hash (a file changed in between is an error before any
//! change of the new text is written), and stops reading once the writer
//! wants no more. So `show FILE | head -20` costs the first pass and a few
//! changes, and nothing is written to a temporary file.
//!
//! Otherwise the input is read once, whether it is a file, a pipe, stdin or a saved plan
//! (whose `show -json` output [`crate::read::open`] holds, as for every
//! streamed command), and only the changes shown are spooled: `show
//! --address X` keeps one change in memory and writes no file. Every format
//! streams: the terminal text and JSON (serialized lazily, the same bytes) as
//! they go, markdown within its `--max-bytes` cap (the changes after the first
//! that does not fit are counted, not built).

use super::tail::{self, Sink};
use crate::config::ShowConfig;
use crate::error::Error;
use crate::model::ResourceChange;
use crate::outcome::{PerFile, Status};
use crate::query::show::collect::{Collected, Collector, Keep};
use crate::query::show::{self, ShowOptions};
use crate::query::values::Visibility;
use crate::read::pool::stream_one;
use crate::read::Root;
use crate::read::{self, ReadOptions};
use crate::render::format::{Answer, Ctx};
use crate::render::show::{Item, Resources};
use crate::render::{Format, Style};
use crate::secrets::Masker;
use std::borrow::Cow;
use std::cell::RefCell;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Spooled change text kept in memory, at most, over all inputs of a run.
pub const MEMORY: usize = 8 << 20;
/// Spooled text is written to the temporary file in blocks of about this size.
const BLOCK: usize = 256 << 10;

/// What a run of `show` is asked: its roots, how to read them, what to show,
/// in which format and style, and whether sensitive values are shown.
pub struct ShowRun<'a> {
    pub roots: &'a [Root],
    pub read: &'a ReadOptions,
    pub show: &'a ShowConfig,
    pub format: Format,
    pub style: &'a Style,
    pub show_sensitive: bool,
}

/// `show` over `roots`: every input streamed, its reports written to `out` in
/// input order as `format` says (see the module's documentation), through the
/// one renderer per format ([`render::format`]). Unreadable inputs are
/// reported in place (in JSON) and returned as errors after the others (exit
/// 2); a single unreadable input prints nothing on stdout except in JSON.
/// `masker` receives the secrets of every input (for masking warnings and
/// errors). The configuration is read as `config` says (JSON: each change at
/// its block, [`super::locating`]); without one, none is read.
pub(super) fn show_with(
    run: &ShowRun<'_>,
    config: Option<&crate::config::Config>,
    out: &mut Sink<'_>,
    masker: &mut Masker,
) -> Result<Status, Error> {
    let &ShowRun { roots, read, show, format, show_sensitive, .. } = run;
    let sources = config.and_then(|c| super::locating::start(c, roots));
    // The dependents through a local are exact when the configuration's source is read.
    let locals = match config {
        Some(c) if matches!(format, Format::Json | Format::Html) => super::locating::locals(c, roots, &sources),
        _ => None,
    };
    let opts = &show.options;
    let vis = Visibility { show_sensitive, masker: None };
    let shared = Shared::new();
    // One big regular file is read twice: this first pass collects its
    // secrets and keeps only a hash of each change shown, the second
    // ([`Reread`]) diffs and writes them as it reads them again.
    let reread = rereadable(roots).and_then(|root| {
        let hashes = Hashes::new();
        let items = first_pass(roots, read, opts, format, &vis, locals.as_deref(), &shared, Some(&hashes));
        // A file of several documents is spooled after all.
        (items.len() == 1).then_some((root, items))
    });
    let (mut items, reread) = match reread {
        Some((root, items)) => (items, Some(root)),
        None => (first_pass(roots, read, opts, format, &vis, locals.as_deref(), &shared, None), None),
    };
    let spill = shared.into_spill();
    show_items(run, config, sources, &mut items, spill.as_ref(), reread, out, masker)
}

/// The first pass over every input: each change shown spooled (`hashes`:
/// only its hash kept, for the input to be read again), the rest counted.
#[allow(clippy::too_many_arguments)]
fn first_pass(
    roots: &[Root],
    read: &ReadOptions,
    opts: &ShowOptions,
    format: Format,
    vis: &Visibility<'_>,
    locals: Option<&crate::query::dependents::Locals>,
    shared: &Shared,
    hashes: Option<&Hashes>,
) -> Vec<PerFile<Collected<Spool>>> {
    read::stream_roots(roots, read, &|name, src, ahead, read| {
        let spool = Spool { hashes: hashes.map(|h| h.empty()), ..Spool::default() };
        let spooling = Spooling { spool, shared };
        // Each change's dependents, for the formats that show them.
        let changes = crate::query::dependents::Changes::when(matches!(format, Format::Json | Format::Html));
        stream_one(name, src, ahead, read, (Collector::new(opts, spooling), changes), |(c, changes), doc, m| match doc {
            read::Document::Plan(p) => {
                let Collected { mut report, kept: Spooling { mut spool, shared }, outputs } = c.finish(&p, &vis.with(m));
                if matches!(format, Format::Json | Format::Html) {
                    report.dependents = crate::query::dependents::for_plan(&p, locals, &changes);
                }
                spool.flush(shared);
                Ok(Collected { report, kept: spool, outputs })
            }
            read::Document::State(_) => Err(show::NOT_A_PLAN.to_string()),
        })
    })
}

/// The reports of `items` rendered: each change diffed from its spool, or
/// (`reread`) from its file read again.
#[allow(clippy::too_many_arguments)]
fn show_items(
    run: &ShowRun<'_>,
    config: Option<&crate::config::Config>,
    sources: Option<super::locating::Locating>,
    items: &mut [PerFile<Collected<Spool>>],
    spill: Option<&Spill>,
    reread: Option<&Root>,
    out: &mut Sink<'_>,
    masker: &mut Masker,
) -> Result<Status, Error> {
    let &ShowRun { read, show, format, style, show_sensitive, .. } = run;
    let opts = &show.options;
    let vis = Visibility { show_sensitive, masker: None };
    notes_once(items.iter().filter_map(|i| i.result.as_ref().ok()).map(|c| &c.report), read, format);
    for i in items.iter_mut() {
        if let Ok(c) = &mut i.result {
            c.report.file = i.file.clone();
        }
    }
    // The changes are diffed once every input was read: each is masked by
    // the secrets of every input of the run (a stream of several documents).
    let mut all = Masker::default();
    items.iter().for_each(|i| all.merge(&i.masker));
    if items.len() > 1 && !show_sensitive {
        // Output changes too (they were diffed when their own input ended).
        for i in items.iter_mut() {
            if let Ok(c) = &mut i.result {
                if let Ok(read::Document::Plan(p)) = read::parse(&i.file, c.outputs.as_bytes()) {
                    c.report.outputs = show::report_head(&p, opts, &vis.with(&all)).outputs;
                }
            }
        }
    }
    let located = config.and_then(|c| super::locating::finish(sources, c, items));
    let reports: Vec<Item<'_>> = items
        .iter()
        .map(|i| {
            let differ = Differ { opts, vis: vis.with(&all) };
            let spooled: Box<dyn Resources + '_> = match (&i.result, reread) {
                (Ok(c), Some(root)) if c.kept.hashes.as_ref().is_some_and(|h| h.over) => {
                    Box::new(Reread { spool: &c.kept, root, read, differ })
                }
                (Ok(c), _) => Box::new(Spooled { spool: &c.kept, file: spill, differ }),
                (Err(_), _) => Box::new(&[][..]),
            };
            let locations = located.as_ref().map(|l| l.of(&i.file));
            Item { result: i.result.as_ref().map(|c| &c.report), resources: RefCell::new(spooled), masker: &i.masker, locations }
        })
        .collect();
    let ctx = Ctx { style: style.clone(), max_bytes: show.max_bytes };
    tail::answer(format, &ctx, items, &Answer::Show(&reports), out, masker)?;
    tail::finish(items)
}

/// Once per run, as warnings: the provider types shown without their schema
/// (nested blocks and sets shown as JSON values); and, for JSON, a plan
/// without a configuration, whose `dependents` are not known (as `replace`
/// says it; the HTML page says it on itself).
fn notes_once<'r>(reports: impl Iterator<Item = &'r show::ShowReport>, read: &ReadOptions, format: Format) {
    let mut without = std::collections::BTreeSet::new();
    let mut unconfigured = false;
    for r in reports {
        without.extend(r.without_schema.iter().cloned());
        unconfigured |= !r.dependents.configured;
    }
    if !without.is_empty() {
        read.notes.push("show", show::without_schema_note(&without));
    }
    if format == Format::Json && unconfigured {
        read.notes.push("show", crate::query::dependents::NO_CONFIGURATION.to_string());
    }
}

/// [`show_with`] (without a run's configuration) writing to `out`, as a run does ([`tail::verdict_over_output`]):
/// the entry by which the integration tests hold the streamed `show` to
/// [`run_show_whole`] (a test oracle: the `testkit` feature).
#[cfg(feature = "testkit")]
pub fn run_show(run: &ShowRun<'_>, out: &mut dyn Write, masker: &mut Masker) -> Result<Status, Error> {
    let mut sink = Sink::new(out);
    let status = show_with(run, None, &mut sink, masker);
    tail::verdict_over_output(status, sink.take_error().map_or(Ok(()), Err))
}

/// What the inputs of a run share: the memory budget left and the temporary file.
pub(super) struct Shared {
    memory: AtomicUsize,
    file: Mutex<Option<Spill>>,
    /// The temporary file could not be made or written: what does not fit
    /// the budget is kept in memory after all.
    no_file: AtomicBool,
}

impl Shared {
    /// [`MEMORY`] to spend, no file yet.
    pub(super) fn new() -> Shared {
        Shared { memory: AtomicUsize::new(MEMORY), file: Mutex::new(None), no_file: AtomicBool::new(false) }
    }

    /// The temporary file, once every input was read.
    pub(super) fn into_spill(self) -> Option<Spill> {
        self.file.into_inner().unwrap_or_else(|p| p.into_inner())
    }

    /// Take `n` bytes of the memory budget, if that many are left.
    fn take(&self, n: usize) -> bool {
        self.memory.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| left.checked_sub(n)).is_ok()
    }

    /// Append `block` to the temporary file (created on first use); where it starts.
    fn append(&self, block: &[u8]) -> io::Result<u64> {
        if self.no_file.load(Ordering::Relaxed) {
            return Err(io::Error::other("no temporary file"));
        }
        let written = self.append_to_file(block);
        if written.is_err() {
            self.no_file.store(true, Ordering::Relaxed);
        }
        written
    }

    fn append_to_file(&self, block: &[u8]) -> io::Result<u64> {
        let mut file = self.file.lock().map_err(|_| io::Error::other("a thread writing the temporary file panicked"))?;
        if file.is_none() {
            *file = Some(Spill { file: anonymous_file()?, len: 0 });
        }
        let Some(spill) = file.as_mut() else { return Err(io::Error::other("no temporary file")) };
        let at = spill.len;
        spill.file.write_all(block)?;
        spill.len += block.len() as u64;
        Ok(at)
    }
}

/// The temporary file and how much is written to it.
pub(super) struct Spill {
    file: File,
    len: u64,
}

pub(super) use crate::spool::anonymous_file;

/// The collector's [`Keep`]: each change shown spooled ([`Spool::push`]).
pub(super) struct Spooling<'a> {
    pub(super) spool: Spool,
    pub(super) shared: &'a Shared,
}

impl<'a> Spooling<'a> {
    pub(super) fn new(shared: &'a Shared) -> Self {
        Spooling { spool: Spool::default(), shared }
    }
}

impl Keep for Spooling<'_> {
    fn keep(&mut self, text: &str) {
        self.spool.push(text, self.shared);
    }
}

/// The text of the changes one input shows, in document order: the first in
/// memory, the rest (once the budget is spent) in blocks of the temporary
/// file, each change there written as its length (8 bytes, little-endian)
/// and its text.
#[derive(Debug, Default)]
pub(super) struct Spool {
    memory: Vec<String>,
    blocks: Vec<Block>,
    /// The block being filled.
    block: Vec<u8>,
    /// Changes spooled.
    count: usize,
    /// The input is read again ([`Reread`]): of each change, only the hash
    /// of its text is kept, to hold the second reading to the first.
    hashes: Option<Hashes>,
}

/// The hash of each change's text, in document order, under a key of the
/// run's own (not known to whoever could change the file between readings).
#[derive(Debug, Clone)]
pub(super) struct Hashes {
    key: std::collections::hash_map::RandomState,
    of: Vec<u64>,
    /// The texts outgrew the memory budget: the input must be read again.
    over: bool,
}

impl Hashes {
    fn new() -> Hashes {
        Hashes { key: std::collections::hash_map::RandomState::new(), of: Vec::new(), over: false }
    }

    /// None yet, under the same key.
    fn empty(&self) -> Hashes {
        Hashes { key: self.key.clone(), of: Vec::new(), over: false }
    }

    fn hash(&self, text: &str) -> u64 {
        use std::hash::BuildHasher;
        self.key.hash_one(text)
    }
}

/// A block of spooled changes.
#[derive(Debug)]
enum Block {
    /// Where it starts in the file, and its length.
    File(u64, usize),
    /// Kept in memory: the temporary file could not be made or written.
    Memory(Vec<u8>),
}

impl Spool {
    fn push(&mut self, text: &str, shared: &Shared) {
        self.count += 1;
        if let Some(h) = &mut self.hashes {
            let hash = h.hash(text);
            h.of.push(hash);
            // Kept in memory too while it lasts (`show --address X` reads once).
            if !h.over {
                if shared.take(text.len()) {
                    self.memory.push(text.to_string());
                } else {
                    h.over = true;
                    self.memory = Vec::new();
                }
            }
            return;
        }
        // Once a change went to the file, the ones after it do too (order is kept).
        if self.blocks.is_empty() && self.block.is_empty() && shared.take(text.len()) {
            self.memory.push(text.to_string());
            return;
        }
        self.block.extend_from_slice(&(text.len() as u64).to_le_bytes());
        self.block.extend_from_slice(text.as_bytes());
        if self.block.len() >= BLOCK {
            self.flush(shared);
        }
    }

    pub(super) fn flush(&mut self, shared: &Shared) {
        if self.block.is_empty() {
            return;
        }
        match shared.append(&self.block) {
            Ok(at) => {
                self.blocks.push(Block::File(at, self.block.len()));
                self.block.clear();
                if self.block.capacity() > 2 * BLOCK {
                    self.block = Vec::new(); // one big change: its room is not kept
                }
            }
            Err(_) => self.blocks.push(Block::Memory(std::mem::take(&mut self.block))),
        }
    }
}

impl Spool {
    /// Each spooled change's text, in document order (`file`: the run's
    /// temporary file), until `f` wants no more.
    pub(super) fn each_text(&self, file: Option<&Spill>, f: &mut dyn FnMut(&str) -> io::Result<bool>) -> io::Result<()> {
        for text in &self.memory {
            if !f(text)? {
                return Ok(());
            }
        }
        let mut buf = Vec::new();
        for block in &self.blocks {
            let mut rest = match block {
                Block::File(at, len) => {
                    let Some(spill) = file else { return Err(io::Error::other("the temporary file is gone")) };
                    let mut file = &spill.file;
                    file.seek(SeekFrom::Start(*at))?;
                    buf.clear();
                    // The block's own length, not a doubling past it (one change may be 100 MB).
                    buf.reserve_exact(*len);
                    file.take(*len as u64).read_to_end(&mut buf)?;
                    &buf[..]
                }
                Block::Memory(b) => &b[..],
            };
            while !rest.is_empty() {
                let (n, tail) = rest.split_at_checked(8).ok_or_else(|| io::Error::other("the temporary file is cut short"))?;
                let n = usize::try_from(u64::from_le_bytes(n.try_into().map_err(io::Error::other)?)).map_err(io::Error::other)?;
                let (text, tail) = tail.split_at_checked(n).ok_or_else(|| io::Error::other("the temporary file is cut short"))?;
                if !f(std::str::from_utf8(text).map_err(io::Error::other)?)? {
                    return Ok(());
                }
                rest = tail;
            }
        }
        Ok(())
    }
}

/// The resources of a report, built from the spool one at a time.
struct Spooled<'a> {
    spool: &'a Spool,
    file: Option<&'a Spill>,
    differ: Differ<'a>,
}

/// Builds the diffs of changes from their text, a batch at a time.
pub(super) struct Differ<'a> {
    pub(super) opts: &'a ShowOptions,
    pub(super) vis: Visibility<'a>,
}

/// Spooled changes diffed together, on several threads: at most this much text...
const BATCH_BYTES: usize = 2 << 20;
/// ...and this many changes.
const BATCH_LEN: usize = 512;
/// The first batch's length, at most.
const FIRST_BATCH_LEN: usize = 8;

impl Differ<'_> {
    pub(super) fn build(&self, text: &str) -> io::Result<show::ResourceDiff> {
        let rc: ResourceChange<'_> = serde_json::from_str(text).map_err(io::Error::other)?;
        Ok(show::resource_diff(&rc, self.opts, &self.vis))
    }

    /// Diff a batch of changes (in parts on as many threads as there are
    /// cores, this one included), then hand them to `f` in order. False when
    /// `f` wants no more.
    fn batch(&self, batch: &mut Vec<Cow<'_, str>>, f: &mut dyn FnMut(&show::ResourceDiff) -> io::Result<bool>) -> io::Result<bool> {
        let threads = crate::par::threads();
        let diffs: Vec<io::Result<show::ResourceDiff>> = if threads < 2 || batch.len() < 2 {
            batch.iter().map(|t| self.build(t)).collect()
        } else {
            let per = batch.len().div_ceil(threads);
            let mut parts = batch.chunks(per);
            let first = parts.next().unwrap_or_default();
            std::thread::scope(|s| {
                let others: Vec<_> =
                    parts.map(|part| crate::par::spawn(s, move || part.iter().map(|t| self.build(t)).collect::<Vec<_>>())).collect();
                let mut diffs: Vec<_> = first.iter().map(|t| self.build(t)).collect();
                for h in others {
                    diffs.extend(h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
                }
                diffs
            })
        };
        batch.clear();
        for d in diffs {
            if !f(&d?)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

impl Resources for Spooled<'_> {
    fn count(&self) -> usize {
        self.spool.count
    }

    fn each(&mut self, f: &mut dyn FnMut(&show::ResourceDiff) -> io::Result<bool>) -> io::Result<()> {
        let mut batch: Vec<Cow<'_, str>> = Vec::new();
        let mut bytes = 0usize;
        let mut more = true;
        // The first batches are small, so that the first changes are written
        // at once (`show | head`); then each twice the last, up to BATCH_LEN.
        let mut len = FIRST_BATCH_LEN;
        // Each change added to the batch; the batch diffed once it is full.
        self.spool.each_text(self.file, &mut |text| {
            bytes += text.len();
            batch.push(Cow::Owned(text.to_string()));
            if bytes >= BATCH_BYTES || batch.len() >= len {
                bytes = 0;
                len = (len * 2).min(BATCH_LEN);
                more = self.differ.batch(&mut batch, f)?;
            }
            Ok(more)
        })?;
        if more && !batch.is_empty() {
            self.differ.batch(&mut batch, f)?;
        }
        Ok(())
    }
}

/// The one input of a run that [`show_with`] reads twice: a regular file
/// (not a saved plan) too big for the spool's memory, where re-reading is
/// cheaper than spooling, and lets `show | head` write its first changes
/// as soon as the secrets are known instead of after the spool is written.
fn rereadable(roots: &[Root]) -> Option<&Root> {
    let [root] = roots else { return None };
    let read::Source::File(path) = &root.source else { return None };
    let meta = std::fs::metadata(path).ok()?;
    if root.problem.is_some() || !meta.is_file() || meta.len() <= MEMORY as u64 {
        return None;
    }
    let mut head = [0u8; 4];
    File::open(path).ok()?.read_exact(&mut head).ok()?;
    (!read::is_saved_plan(&head)).then_some(root)
}

/// The resources of a report, built from its file read again: each change
/// shown is held to the hash the first reading kept of it (a file changed
/// in between is an error before any change of the new text is written),
/// diffed and handed on as it comes; once no more are wanted, the reading
/// stops.
struct Reread<'a> {
    spool: &'a Spool,
    root: &'a Root,
    read: &'a ReadOptions,
    differ: Differ<'a>,
}

/// Why the second reading of a file is refused.
fn changed(path: &str) -> io::Error {
    io::Error::other(format!("{path}: the file changed while show read it twice; run show again"))
}

/// A reader that fails once `stop` is set (the second reading no longer wanted).
struct Stopping<R> {
    src: R,
    stop: std::sync::Arc<AtomicBool>,
}

impl<R: Read> Read for Stopping<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(io::Error::other("no more wanted"));
        }
        self.src.read(out)
    }
}

/// The collector's [`Keep`] of the second reading: each change's text sent on.
struct Sending(std::sync::mpsc::SyncSender<String>);

impl Keep for Sending {
    fn keep(&mut self, text: &str) {
        // The receiver gone wants no more: the reading stops at its next read.
        let _ = self.0.send(text.to_string());
    }
}

impl Resources for Reread<'_> {
    fn count(&self) -> usize {
        self.spool.count
    }

    fn each(&mut self, f: &mut dyn FnMut(&show::ResourceDiff) -> io::Result<bool>) -> io::Result<()> {
        let Some(hashes) = &self.spool.hashes else { return Err(io::Error::other("no hashes of the first reading")) };
        // Notes, saved plans' binaries and progress were had by the first reading.
        let read =
            ReadOptions { notes: Default::default(), shown_by: Default::default(), progress: Default::default(), ..self.read.clone() };
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let (tx, rx) = std::sync::mpsc::sync_channel::<String>(2 * BATCH_LEN);
        let opts = self.differ.opts;
        let root = std::slice::from_ref(self.root);
        std::thread::scope(|s| {
            let reader = crate::par::spawn(s, || {
                let tx = tx;
                let stop = &stop;
                read::stream_roots(root, &read, &|name, src, ahead, read| {
                    let src = Stopping { src, stop: stop.clone() };
                    stream_one(name, src, ahead, read, Collector::new(opts, Sending(tx.clone())), |_, _, _| Ok(()))
                })
            });
            let mut batch: Vec<Cow<'_, str>> = Vec::new();
            let (mut bytes, mut len, mut seen, mut more) = (0usize, FIRST_BATCH_LEN, 0usize, true);
            let mut written = || -> io::Result<()> {
                for text in rx.iter() {
                    if hashes.of.get(seen) != Some(&hashes.hash(&text)) {
                        return Err(changed(&self.root.name));
                    }
                    seen += 1;
                    bytes += text.len();
                    batch.push(Cow::Owned(text));
                    if bytes >= BATCH_BYTES || batch.len() >= len {
                        bytes = 0;
                        len = (len * 2).min(BATCH_LEN);
                        more = self.differ.batch(&mut batch, f)?;
                        if !more {
                            return Ok(());
                        }
                    }
                }
                if seen != hashes.of.len() {
                    return Err(changed(&self.root.name));
                }
                if !batch.is_empty() {
                    self.differ.batch(&mut batch, f)?;
                }
                Ok(())
            };
            let result = written();
            stop.store(true, Ordering::Relaxed);
            drop(rx);
            let items = reader.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            // Read to its end, the input must read as it did the first time.
            match items.into_iter().next().map(|i| i.result) {
                Some(Err(e)) if result.is_ok() && more => Err(io::Error::other(e.to_string())),
                _ => result,
            }
        })
    }
}

/// `show` as it was before it streamed: every input read whole, every report
/// built in full, then rendered. Kept to hold the streamed one to it (a test
/// oracle: the `testkit` feature).
#[cfg(feature = "testkit")]
pub fn run_show_whole(run: &ShowRun<'_>, out: &mut dyn Write, masker: &mut Masker) -> Result<Status, Error> {
    let &ShowRun { roots, read, show, format, style, show_sensitive } = run;
    let opts = &show.options;
    let vis = Visibility { show_sensitive, masker: None };
    let items = crate::read::pool::each_root_with(roots, read, |doc, m| show::show(doc, opts, &vis.with(m)));
    let items: Vec<PerFile<crate::query::show::ShowReport>> = items
        .into_iter()
        .map(|mut i| {
            if let Ok(r) = &mut i.result {
                r.file = i.file.clone();
            }
            i
        })
        .collect();
    notes_once(items.iter().filter_map(|i| i.result.as_ref().ok()), read, format);
    let reports: Vec<Item<'_>> = items.iter().map(Item::whole).collect();
    let mut sink = Sink::new(out);
    let ctx = Ctx { style: style.clone(), max_bytes: show.max_bytes };
    let status = tail::answer(format, &ctx, &items, &Answer::Show(&reports), &mut sink, masker).and_then(|()| tail::finish(&items));
    tail::verdict_over_output(status, sink.take_error().map_or(Ok(()), Err))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn changes(n: usize) -> Vec<String> {
        (0..n)
            .map(|i| {
                let pad = "x".repeat(i * 997 % 20_000);
                format!(r#"{{"address":"a.r{i}","type":"a","change":{{"actions":["create"],"before":null,"after":{{"pad":"{pad}"}}}}}}"#)
            })
            .collect()
    }

    /// Read twice, a file is held to its first reading: changes read again
    /// come back in order when it is the same, and a file changed in between
    /// is an error before any change of its new text is handed on.
    #[test]
    fn a_file_read_twice_must_read_the_same_both_times() {
        let dir = std::env::temp_dir().join(format!("planview-reread-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("plan.json");
        let plan = |texts: &[String]| format!(r#"{{"format_version":"1.2","resource_changes":[{}]}}"#, texts.join(","));
        let texts = changes(40);
        std::fs::write(&path, plan(&texts)).unwrap();
        let root = Root { name: "plan.json".into(), source: read::Source::File(path.clone()), chdir: None, problem: None };
        let roots = std::slice::from_ref(&root);
        let (read, opts, masker) = (ReadOptions::default(), ShowOptions::default(), Masker::default());
        let vis = Visibility { show_sensitive: false, masker: None };
        // No memory to spend: every change is only hashed.
        let shared = Shared { memory: AtomicUsize::new(0), file: Mutex::new(None), no_file: AtomicBool::new(false) };
        let items = first_pass(roots, &read, &opts, Format::Table, &vis, None, &shared, Some(&Hashes::new()));
        let Ok(c) = &items[0].result else { panic!("{:?}", items[0].result.as_ref().err()) };
        assert!(c.kept.memory.is_empty() && c.kept.hashes.as_ref().is_some_and(|h| h.over && h.of.len() == 40));
        let reread = || Reread {
            spool: &c.kept,
            root: &root,
            read: &read,
            differ: Differ { opts: &opts, vis: Visibility { show_sensitive: false, masker: Some(&masker) } },
        };
        let mut seen = Vec::new();
        reread()
            .each(&mut |d| {
                seen.push(d.address.clone());
                Ok(true)
            })
            .unwrap();
        assert_eq!(seen, (0..40).map(|i| format!("a.r{i}")).collect::<Vec<_>>());
        let mut k = 0;
        reread()
            .each(&mut |_| {
                k += 1;
                Ok(k < 3)
            })
            .unwrap();
        assert_eq!(k, 3, "no more wanted, no more given");
        // One change differs, one is missing, one more: each refused.
        let mut other = texts.clone();
        other[20] = other[20].replace("a.r20", "a.r20x");
        for (what, changed) in [("differs", other), ("missing", texts[..39].to_vec()), ("one more", changes(41))] {
            std::fs::write(&path, plan(&changed)).unwrap();
            let mut seen = 0;
            let e = reread()
                .each(&mut |_| {
                    seen += 1;
                    Ok(true)
                })
                .unwrap_err();
            assert!(e.to_string().contains("the file changed while show read it twice"), "{what}: {e}");
            assert!(seen <= 40, "{what}: {seen}");
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Spooled changes come back in order, whether they were kept in memory,
    /// written to the temporary file, or kept in memory after all because no
    /// file could be written; and a renderer that wants no more stops them.
    #[test]
    fn spooled_changes_come_back_in_order_wherever_they_were_kept() {
        let texts = changes(600);
        let want: Vec<String> = (0..600).map(|i| format!("a.r{i}")).collect();
        for (budget, no_file) in [(usize::MAX, false), (0, false), (1 << 20, false), (1 << 20, true), (0, true)] {
            let what = format!("budget {budget}, no file {no_file}");
            let shared = Shared { memory: AtomicUsize::new(budget), file: Mutex::new(None), no_file: AtomicBool::new(no_file) };
            let mut spool = Spool::default();
            for t in &texts {
                spool.push(t, &shared);
            }
            spool.flush(&shared);
            assert_eq!(spool.count, 600, "{what}");
            match budget {
                usize::MAX => assert!(spool.blocks.is_empty(), "{what}"),
                0 => assert!(spool.memory.is_empty(), "{what}"),
                _ => assert!(!spool.memory.is_empty() && !spool.blocks.is_empty(), "{what}"),
            }
            assert!(spool.blocks.iter().all(|b| matches!(b, Block::Memory(_)) == no_file), "{what}");
            let spill = shared.file.into_inner().unwrap();
            assert_eq!(spill.is_some(), !no_file && budget != usize::MAX, "{what}");
            let opts = ShowOptions::default();
            let masker = Masker::default();
            let mut spooled = Spooled {
                spool: &spool,
                file: spill.as_ref(),
                differ: Differ { opts: &opts, vis: Visibility { show_sensitive: false, masker: Some(&masker) } },
            };
            let mut seen = Vec::new();
            spooled
                .each(&mut |d| {
                    seen.push(d.address.clone());
                    Ok(true)
                })
                .unwrap();
            assert_eq!(seen, want, "{what}");
            let mut k = 0;
            spooled
                .each(&mut |_| {
                    k += 1;
                    Ok(k < 3)
                })
                .unwrap();
            assert_eq!(k, 3, "{what}");
        }
    }
}
