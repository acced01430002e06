//! The reading half of the one pipeline: inputs to roots to documents, each
//! read once. Many roots at once: every document of every root ([`super::dirs`],
//! [`super::frame`]) streamed through a query on a few worker threads
//! ([`stream_roots`]; bounded memory: a few documents in flight), or read
//! whole and parsed a few at a time ([`each_root_with`]); one input streamed
//! through a visitor and the secret collector ([`stream_one`]). The answer
//! half is [`crate::run`].
//!
//! Each document is handed to the parser preceded by as many newlines as lines
//! come before it in the input, so every error and warning names the line of
//! the whole input.

use super::frame::{gap_error, Gap};
use super::source::{Chunk, Chunks};
use super::stream::{End, Fed, Feeder, Piece, ReadAhead};
use super::{Cut, ReadOptions, Root, Source, Splitter, MAX_DOCUMENTS};
use crate::error::InputError;
use crate::outcome::PerFile;
use crate::read;
use crate::secrets::{self, Masker};
use std::io::Read;
use std::sync::mpsc::SyncSender;

/// A document being handed to a worker: its text goes through a channel,
/// validated as it is read ([`Feeder`]: encoding, UTF-8; nesting depth is the
/// splitter's). Dropped, it ends the document (what is pending goes first).
struct Part {
    tx: PartTx,
    feeder: Feeder,
    /// A piece that ends the document (an error) was sent: nothing more goes.
    ended: bool,
}

impl Part {
    /// Send `bytes` on; false once the worker is gone (its parse ended) or
    /// the document ended in an error.
    fn send(&mut self, bytes: Vec<u8>, end: End) -> bool {
        if self.ended {
            return false;
        }
        let (piece, last) = self.feeder.push(bytes, end);
        if let Some(p) = piece {
            if !self.tx.send(p) {
                self.ended = true;
                return false;
            }
        }
        self.ended = last;
        !last
    }
}

/// Where a document's text goes: a worker parsing it as it comes (a few
/// pieces in flight), or a queue the splitting thread parses afterwards (a
/// small file, whole in memory anyway).
enum PartTx {
    Bounded(SyncSender<Piece>),
    Queued(std::sync::mpsc::Sender<Piece>),
}

impl PartTx {
    /// False once the receiver is gone.
    fn send(&self, piece: Piece) -> bool {
        match self {
            PartTx::Bounded(tx) => tx.send(piece).is_ok(),
            PartTx::Queued(tx) => tx.send(piece).is_ok(),
        }
    }
}

impl Drop for Part {
    fn drop(&mut self) {
        self.send(Vec::new(), End::Eof);
    }
}

/// A query run on one streamed document: its name, its reader, what to do with
/// the read-ahead thread, and the read options; the answer and its secrets.
pub(crate) type StreamQuery<'q, T> = dyn Fn(&str, Fed, ReadAhead, &ReadOptions) -> Result<(T, Masker), InputError> + Sync + 'q;

/// One document to parse: its root and number there (from 0), its provisional name, its text.
struct Job {
    root: usize,
    k: usize,
    name: String,
    reader: Fed,
    read: ReadOptions,
}

/// Where the documents of a root go as they are split ([`split_stream`]).
enum Sink<'s> {
    /// To the workers, as they are read.
    Workers(&'s SyncSender<Job>),
    /// Kept, their text queued whole, for the splitting thread to parse next.
    Here(&'s mut Vec<Job>),
}

/// How a root is split once open: given its reader, whether it was a saved
/// plan, its read options, and its list of documents to add to.
type Split<'s> = dyn Fn(Box<dyn Read + Send>, bool, &ReadOptions, &mut Vec<Meta>) + 's;

/// Where each document came from: its root and its number there.
struct Meta {
    root: usize,
    name: Option<String>,
}

/// A file this small is read, split and parsed by one worker when there are
/// several roots; a bigger one (or stdin) is read and split by the calling
/// thread while the workers parse it (bounded memory).
const SMALL_FILE: u64 = 4 << 20;

/// Every document of every root streamed through `query`, on a few worker
/// threads (as many as cores, at most [`crate::par::MAX_PARALLEL`]). With several
/// roots the workers take the files in turn: a small regular file is read,
/// split and parsed by the worker that took it (no text crosses threads);
/// any other file, and stdin, is read and split by this thread, each document
/// going to a worker as it is read, so a few documents are in flight at most. Results come in input order, then document order; an input with
/// several documents names them `NAME#1`, `NAME#2`, ... (or by the working
/// directory its log lines name).
pub(crate) fn stream_roots<T: Send>(roots: &[Root], read: &ReadOptions, query: &StreamQuery<'_, T>) -> Vec<PerFile<T>> {
    let workers = crate::par::threads();
    let (job_tx, job_rx) = std::sync::mpsc::sync_channel::<Job>(workers);
    let job_rx = std::sync::Mutex::new(job_rx);
    // (root, document number, answer), and each root's documents.
    let results: std::sync::Mutex<Vec<(usize, usize, PerFile<T>)>> = std::sync::Mutex::new(Vec::new());
    let metas: std::sync::Mutex<Vec<(usize, Vec<Meta>)>> = std::sync::Mutex::new(Vec::new());
    let direct = |ri: usize, k: usize, e: InputError| {
        if let Ok(mut r) = results.lock() {
            r.push((ri, k, PerFile { file: e.file.clone(), result: Err(e), masker: Masker::default() }));
        }
    };
    let parse = |job: Job| {
        let item = match query(&job.name, job.reader, ReadAhead::Joined, &job.read) {
            Ok((answer, masker)) => PerFile { file: job.name, result: Ok(answer), masker },
            Err(e) => PerFile { file: job.name, result: Err(e), masker: Masker::default() },
        };
        if let Ok(mut r) = results.lock() {
            r.push((job.root, job.k, item));
        }
    };
    let keep_metas = |ri: usize, m: Vec<Meta>| {
        if let Ok(mut all) = metas.lock() {
            all.push((ri, m));
        }
    };
    // A root opened and split by `split` (given its reader, whether it was a
    // saved plan, its documents' list); an input that cannot be opened stands
    // as one document, its error.
    let each_root = |ri: usize, split: &Split<'_>| {
        let root = &roots[ri];
        let mut mine = Vec::new();
        match &root.problem {
            Some(e) => direct(ri, 0, e.clone()),
            None => {
                let opts = root.options(read);
                match crate::read::open_as(&root.source, &opts) {
                    Ok((src, saved)) => split(src, saved, &opts, &mut mine),
                    Err(e) => direct(ri, 0, e),
                }
            }
        }
        if mine.is_empty() {
            mine.push(Meta { root: ri, name: None });
        }
        keep_metas(ri, mine);
    };
    // A whole small file, on a worker: split here, then each document parsed.
    let whole_file = |ri: usize| {
        let root = &roots[ri];
        each_root(ri, &|src, saved, opts, mine| match saved {
            false => {
                let mut jobs = Vec::new();
                split_stream(ri, root, src, false, opts, &mut Sink::Here(&mut jobs), mine, &|k, e| direct(ri, k, e));
                jobs.into_iter().for_each(parse);
            }
            true => {
                // A saved plan's JSON may be big: split on a thread of its own, parsed here as it comes.
                let (tx, rx) = std::sync::mpsc::sync_channel::<Job>(1);
                std::thread::scope(|s| {
                    crate::par::spawn(s, move || {
                        split_stream(ri, root, src, true, opts, &mut Sink::Workers(&tx), mine, &|k, e| direct(ri, k, e))
                    });
                    rx.into_iter().for_each(parse);
                });
            }
        });
    };
    // The files the workers take in turn (with several roots), and the next one to take.
    let files: Vec<usize> = match roots.len() {
        0 | 1 => Vec::new(),
        _ => (0..roots.len()).filter(|&ri| roots[ri].problem.is_none() && matches!(roots[ri].source, Source::File(_))).collect(),
    };
    let next_file = std::sync::atomic::AtomicUsize::new(0);
    let is_small = |ri: usize| match &roots[ri].source {
        Source::File(path) => std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() <= SMALL_FILE),
        Source::Stdin => false,
    };
    // The files too big for one worker, for this thread to read and split.
    let (big_tx, big_rx) = std::sync::mpsc::channel::<usize>();
    std::thread::scope(|s| {
        for _ in 0..workers {
            let big_tx = big_tx.clone();
            crate::par::spawn(s, || {
                let big_tx = big_tx;
                while let Some(&ri) = files.get(next_file.fetch_add(1, std::sync::atomic::Ordering::Relaxed)) {
                    if is_small(ri) {
                        whole_file(ri);
                    } else if big_tx.send(ri).is_err() {
                        return;
                    }
                }
                drop(big_tx);
                loop {
                    let job = match job_rx.lock() {
                        Ok(rx) => rx.recv(),
                        Err(_) => return,
                    };
                    let Ok(job) = job else { return };
                    parse(job);
                }
            });
        }
        drop(big_tx);
        let taken = |ri: &usize| files.binary_search(ri).is_ok();
        // This thread's roots: those the workers do not take, then the big files they hand back.
        for ri in (0..roots.len()).filter(|ri| !taken(ri)).chain(big_rx) {
            each_root(ri, &|src, saved, opts, mine| {
                split_stream(ri, &roots[ri], src, saved, opts, &mut Sink::Workers(&job_tx), mine, &|k, e| direct(ri, k, e));
            });
        }
        drop(job_tx);
    });
    let mut results = results.into_inner().unwrap_or_default();
    results.sort_by_key(|(ri, k, _)| (*ri, *k));
    let mut metas = metas.into_inner().unwrap_or_default();
    metas.sort_by_key(|(ri, _)| *ri);
    let metas: Vec<Meta> = metas.into_iter().flat_map(|(_, m)| m).collect();
    let mut items: Vec<PerFile<T>> = results.into_iter().map(|(_, _, item)| item).collect();
    rename(roots, &metas, &mut items);
    crate::read::wrong::collapse(items)
}

/// Final names: `NAME` for a root of one document, else `NAME#k` or the
/// working directory named before it (made unique within the root).
fn rename<T>(roots: &[Root], metas: &[Meta], items: &mut [PerFile<T>]) {
    let mut k = 0;
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    for (i, meta) in metas.iter().enumerate() {
        let root = &roots[meta.root];
        let count = metas.iter().filter(|m| m.root == meta.root).count();
        k = if i > 0 && metas[i - 1].root == meta.root { k + 1 } else { 1 };
        if k == 1 {
            seen.clear();
        }
        let mut name = match &meta.name {
            _ if count == 1 => root.name.clone(),
            Some(n) => n.clone(),
            None => format!("{}#{k}", root.name),
        };
        if !seen.insert(name.clone()) {
            name = format!("{name}#{k}");
            seen.insert(name.clone());
        }
        if let Some(item) = items.get_mut(i) {
            item.file = name.clone();
            if let Err(e) = &mut item.result {
                e.file = name;
            }
        }
    }
}

/// How to read one document of a regular file of JSON again, instead of
/// keeping a copy of it: the file split again ([`split_stream`]) and the
/// document's text, as the first read gave it (the newlines before it
/// included, so its lines are the same), taken by [`Again::open`].
#[derive(Debug, Clone)]
pub(crate) struct Again {
    root: Root,
    /// The document's number in its file (from 0).
    k: usize,
    read: ReadOptions,
}

impl Again {
    /// The document again, split from its file on a thread of its own
    /// (which ends by itself once the file is read or the reader dropped).
    /// What `--lenient` skips is not said again. A file that no longer holds
    /// the document is an error (a file that changed is found by the caller).
    pub(crate) fn open(&self) -> Result<Fed, InputError> {
        let read = ReadOptions { notes: crate::read::Notes::default(), ..self.read.clone() };
        let (src, saved) = crate::read::open_as(&self.root.source, &read)?;
        let (tx, rx) = std::sync::mpsc::sync_channel::<Job>(1);
        let root = self.root.clone();
        crate::par::thread(move || {
            let mut metas = Vec::new();
            split_stream(0, &root, src, saved, &read, &mut Sink::Workers(&tx), &mut metas, &|_, _| {});
        });
        // The documents before it are dropped unread (their text is then only scanned).
        rx.into_iter()
            .find(|job| job.k == self.k)
            .map(|job| job.reader)
            .ok_or_else(|| InputError::new(&self.root.name, "cannot read the input again: it no longer holds the document"))
    }
}

/// Read one input, split it, and hand each document to `sink`. `metas`
/// gets one entry per document (this root's), `direct` the errors that stand
/// for a document (by its number in the root).
#[allow(clippy::too_many_arguments)]
fn split_stream(
    ri: usize,
    root: &Root,
    src: Box<dyn Read + Send>,
    saved: bool,
    opts: &ReadOptions,
    sink: &mut Sink<'_>,
    metas: &mut Vec<Meta>,
    direct: &dyn Fn(usize, InputError),
) {
    let mut sp = Splitter::new(opts.lenient);
    let mut cuts = Vec::new();
    // The current document (None once its reader is gone, or when it is not read).
    // Its depth is checked here, by the splitter: the worker reads its text as it comes.
    let start_part = |sink: &mut Sink<'_>, metas: &mut Vec<Meta>, name: Option<String>, lead: usize, pad: usize| -> Option<Part> {
        let k = metas.len();
        let provisional = name.clone().unwrap_or_else(|| if k == 0 { root.name.clone() } else { format!("{}#{}", root.name, k + 1) });
        metas.push(Meta { root: ri, name });
        let reader = |rx| match (&root.source, saved) {
            // A regular file of JSON can be read again for this document ([`Again`]).
            (Source::File(path), false) if std::fs::metadata(path).is_ok_and(|m| m.is_file()) => {
                Fed::new(rx).with_again(Again { root: root.clone(), k, read: opts.clone() })
            }
            _ => Fed::new(rx),
        };
        let job = |rx| Job { root: ri, k, name: provisional, reader: reader(rx), read: opts.clone() };
        let tx = match sink {
            Sink::Workers(jobs) => {
                let (tx, rx) = std::sync::mpsc::sync_channel(4);
                jobs.send(job(rx)).ok()?;
                PartTx::Bounded(tx)
            }
            Sink::Here(jobs) => {
                let (tx, rx) = std::sync::mpsc::channel();
                jobs.push(job(rx));
                PartTx::Queued(tx)
            }
        };
        let mut part = Part { tx, feeder: Feeder::new(opts.lenient, false), ended: false };
        // Newlines before the document: its line in the input.
        let mut lead = lead;
        while lead > 0 {
            let k = lead.min(crate::read::stream::CHUNK);
            lead -= k;
            if !part.send(vec![b'\n'; k], End::More) {
                return None;
            }
        }
        // Spaces for Terragrunt's prefix before it on its line: its column.
        if pad > 0 && !part.send(vec![b' '; pad], End::More) {
            return None;
        }
        Some(part)
    };
    let send = |cur: &mut Option<Part>, bytes: &[u8]| {
        if let Some(part) = cur {
            if !bytes.is_empty() && !part.send(bytes.to_vec(), End::More) {
                *cur = None; // the parse ended early (an error): the rest is only scanned
            }
        }
    };
    let mut cur = start_part(sink, metas, None, 0, 0);
    let first_index = metas.len() - 1;
    let mut in_gap = false;
    // The bytes after the current document, from offset `gap_from`.
    let mut gap: Vec<u8> = Vec::new();
    let mut gap_from = 0usize;
    let mut offset = 0usize;
    // A file's size, to read it in pieces no bigger than what is left (each
    // piece is handed on as it is read, so an unused tail would be zeroed for
    // nothing, on every small file of a directory).
    let size = match &root.source {
        crate::read::Source::File(path) => std::fs::metadata(path).ok().filter(std::fs::Metadata::is_file).map(|m| m.len() as usize),
        crate::read::Source::Stdin => None,
    };
    let mut chunks = Chunks::new(src, crate::read::stream::CHUNK, size);
    while let Some(Chunk { bytes: mut buf, eof, failed }) = chunks.next() {
        let n = buf.len();
        let fail = |cur: &mut Option<Part>, metas: &mut Vec<Meta>, e: std::io::Error| match cur.take() {
            Some(mut part) => {
                let _ = part.tx.send(Piece::Failed(e));
                part.ended = true;
            }
            None => {
                direct(metas.len(), InputError::new(&root.name, format!("cannot read: {e}")));
                metas.push(Meta { root: ri, name: None });
            }
        };
        if n == 0 {
            if let Some(e) = failed {
                fail(&mut cur, metas, e);
                return;
            }
            break;
        }
        cuts.clear();
        sp.feed(&buf, &mut cuts);
        // The common case, a file of one document: it ends in this piece and
        // nothing starts after it. The buffer itself is handed on (no copy of
        // the document); what follows its end is kept as the gap.
        let ends_here = match cuts.as_slice() {
            [Cut::End { at }] | [Cut::First { .. }, Cut::End { at }] if !in_gap && cur.is_some() => Some(*at),
            _ => None,
        };
        if let Some(at) = ends_here {
            if let Some(Cut::First { name }) = cuts.drain(..).next() {
                if let Some(m) = metas.get_mut(first_index) {
                    m.name = name;
                }
            }
            let end = at - offset;
            if eof && buf[end..n].iter().all(|&b| crate::scan::is_json_ws(b)) {
                // Only blanks follow, and the input ends: they go with it, in one piece.
                buf.truncate(n);
            } else {
                gap.extend_from_slice(&buf[end..n]);
                buf.truncate(end);
            }
            if cur.as_mut().is_some_and(|part| !part.send(buf, End::More)) {
                cur = None;
            }
            in_gap = true;
            gap_from = at;
        } else {
            let piece = &buf[..n];
            let mut pos = 0usize; // in `piece`
            for cut in cuts.drain(..) {
                match cut {
                    Cut::First { name } => {
                        if let Some(m) = metas.get_mut(first_index) {
                            m.name = name;
                        }
                    }
                    Cut::End { at } => {
                        send(&mut cur, &piece[pos..at - offset]);
                        pos = at - offset;
                        in_gap = true;
                        gap_from = at;
                    }
                    Cut::TooDeep { at } => {
                        // The text before the bracket, then the error: the document ends.
                        if let Some(part) = &mut cur {
                            part.send(piece[pos..at - offset].to_vec(), End::TooDeep);
                        }
                        cur = None;
                        pos = at - offset;
                    }
                    Cut::Start { at, line, name, text, n: docs, pad, hidden } => {
                        // The blanks before the `{` on its line may have come in an earlier piece.
                        let earlier = if at < offset { gap.get(at - gap_from..).unwrap_or_default().to_vec() } else { Vec::new() };
                        pos = at.saturating_sub(offset).max(pos);
                        gap.clear();
                        in_gap = false;
                        drop(cur.take()); // the previous document ends here
                        if docs > MAX_DOCUMENTS {
                            direct(
                                metas.len(),
                                InputError::new(
                                    &root.name,
                                    format!("holds more than {MAX_DOCUMENTS} JSON documents; the rest is not read"),
                                )
                                .at(line, 1),
                            );
                            metas.push(Meta { root: ri, name: None });
                            return;
                        }
                        let label = name.clone().unwrap_or_else(|| format!("{}#{docs}", root.name));
                        match gap_error(&label, &Gap { text, hidden, pad }, docs, opts) {
                            Some(e) => {
                                direct(metas.len(), e);
                                metas.push(Meta { root: ri, name });
                                cur = None;
                            }
                            None => {
                                cur = start_part(sink, metas, name, line - 1, pad);
                                send(&mut cur, &earlier);
                            }
                        }
                    }
                    Cut::Through => {
                        // Not a document the splitter follows (text before it,
                        // strict; too long a prefix or gap): the parser refuses
                        // its start, or reads the rest as the last document's trailer.
                        if in_gap {
                            let g = std::mem::take(&mut gap);
                            send(&mut cur, &g);
                            send(&mut cur, &piece[pos..]);
                            pos = piece.len();
                            in_gap = false;
                        }
                    }
                }
            }
            if in_gap {
                gap.extend_from_slice(&piece[pos..]);
                chunks.recycle(buf);
            } else if pos == 0 && n >= buf.capacity() / 2 && cur.is_some() {
                // The whole piece, and most of the buffer (the common case): handed on without a copy.
                buf.truncate(n);
                if let Some(part) = &mut cur {
                    if !part.send(buf, End::More) {
                        cur = None;
                    }
                }
            } else {
                send(&mut cur, &piece[pos..]);
                chunks.recycle(buf);
            }
        }
        offset += n;
        if let Some(e) = failed {
            fail(&mut cur, metas, e);
            return;
        }
        if cur.is_none() && sp.hopeless() {
            return; // the document cannot end well, and its reader is gone: an endless pipe ends
        }
        if eof {
            break;
        }
    }
    // What follows the last document is its trailer (judged by the parser).
    send(&mut cur, &gap);
}

// The one pipeline's reading half: every root read whole (`each_root_with`)
// or one input streamed (`stream_one`), with the secrets of each document.

/// Every root ([`read::expand`]) read and `f` applied to each document,
/// several roots at a time (as many as there are cores, at most
/// [`crate::par::MAX_PARALLEL`]); unreadable inputs are kept as errors so the
/// others are still reported. Each root is read
/// whole, split into its documents ([`read::split_whole`]: an input holding
/// several is several results, `NAME#1`, `NAME#2`, ...), and each document
/// parsed. Results keep the order of `roots`, then of documents.
pub(crate) fn each_root_with<T>(
    roots: &[read::Root],
    show: &read::ReadOptions,
    mut f: impl FnMut(&read::Document<'_>, &secrets::Masker) -> Result<T, String>,
) -> Vec<PerFile<T>> {
    each_root_raw_with(roots, show, |_, doc, m| f(doc, m))
}

/// [`each_root_with`], `f` given the document's JSON text as well (what
/// `show -json` wrote: the input of Rego policies).
pub(crate) fn each_root_raw_with<T>(
    roots: &[read::Root],
    show: &read::ReadOptions,
    mut f: impl FnMut(&[u8], &read::Document<'_>, &secrets::Masker) -> Result<T, String>,
) -> Vec<PerFile<T>> {
    let width = crate::par::threads();
    let mut out = Vec::with_capacity(roots.len());
    for chunk in roots.chunks(width) {
        let bytes: Vec<Result<Vec<u8>, InputError>> = parallel(chunk, |root| match &root.problem {
            Some(e) => Err(e.clone()),
            None => read::read_with(&root.source, &root.options(show)).map_err(|e| InputError { file: root.name.clone(), ..e }),
        });
        // Every document of the chunk, with the name it is reported under.
        let mut docs: Vec<(String, DocBytes<'_>)> = Vec::new();
        for (root, bytes) in chunk.iter().zip(&bytes) {
            let parts = match bytes {
                Ok(b) => read::split_whole(&root.name, b, show),
                Err(e) => {
                    docs.push((root.name.clone(), Err(e.clone())));
                    continue;
                }
            };
            let n = parts.len();
            let mut seen = std::collections::HashSet::new();
            for (k, part) in parts.into_iter().enumerate() {
                let mut name = match part.name {
                    _ if n == 1 => root.name.clone(),
                    Some(dir) => dir,
                    None => format!("{}#{}", root.name, k + 1),
                };
                if !seen.insert(name.clone()) {
                    name = format!("{name}#{}", k + 1);
                }
                let bytes = part.bytes.map_err(|e| InputError { file: name.clone(), ..e });
                docs.push((name, bytes));
            }
        }
        let refs: Vec<(&str, Result<&[u8], &InputError>)> =
            docs.iter().map(|(name, bytes)| (name.as_str(), bytes.as_ref().map(|b| b.as_ref()))).collect();
        for batch in refs.chunks(width) {
            let parsed = parallel(batch, |&(name, bytes)| {
                let bytes = bytes.map_err(Clone::clone)?;
                let doc = read::parse_with(name, bytes, show)?;
                let mut masker = secrets::Masker::seeded(&show.seed);
                masker.merge(&secrets::Masker::collect(&doc));
                Ok::<_, InputError>((doc, masker))
            });
            for ((name, bytes), p) in batch.iter().zip(parsed) {
                out.push(match p {
                    Ok((doc, masker)) => {
                        let raw: &[u8] = bytes.as_ref().map_or(&[], |b| b);
                        let result = f(raw, &doc, &masker).map_err(|m| InputError::new(name, m));
                        PerFile { file: name.to_string(), result, masker }
                    }
                    Err(e) => PerFile { file: name.to_string(), result: Err(e), masker: secrets::Masker::default() },
                });
            }
        }
    }
    crate::read::collapse(out)
}

/// One document's bytes, or why they cannot be read.
type DocBytes<'a> = Result<std::borrow::Cow<'a, [u8]>, InputError>;

/// `f` over `items`, one scoped thread each when there are several; results in order.
fn parallel<I: Sync, R: Send>(items: &[I], f: impl Fn(&I) -> R + Sync) -> Vec<R> {
    if items.len() < 2 {
        return items.iter().map(&f).collect();
    }
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> = items.iter().map(|i| crate::par::spawn(s, move || f(i))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    })
}

/// Stream one document from `src` through `visitor` (and the secret
/// collector), then answer from the visitor and the skeleton document (which
/// holds everything but the streamed parts, see [`read::stream`]). A plan's
/// changes are seen (and their secrets collected) as they arrive, then
/// dropped; the rest of the plan is fed to the visitor from the skeleton.
pub(crate) fn stream_one<V: crate::model::visit::PlanVisitor, T>(
    name: &str,
    src: impl std::io::Read + Send + 'static,
    ahead: read::ReadAhead,
    opts: &read::ReadOptions,
    visitor: V,
    answer: impl FnOnce(V, read::Document<'_>, &secrets::Masker) -> Result<T, String>,
) -> Result<(T, secrets::Masker), InputError> {
    // The run's secrets, when a first pass collected them ([`secrets_of`]).
    let mut both = (visitor, secrets::Masker::seeded(&opts.seed));
    let skeleton = read::stream(name, src, ahead, opts, &mut both)?;
    // Positions in the skeleton are not positions in the input: drop them.
    let doc = super::whole::parse_skeleton(name, &skeleton)?;
    let (mut visitor, mut masker) = both;
    // Output changes, sensitive variables (the skeleton keeps `configuration`), a state's values.
    masker.merge(&secrets::Masker::collect(&doc));
    if let read::Document::Plan(p) = &doc {
        crate::model::visit::visit_rest(p, &mut visitor);
    }
    answer(visitor, doc, &masker).map(|t| (t, masker)).map_err(|m| InputError::new(name, m))
}

/// How a source's read-ahead thread ends ([`read::ReadAhead`]): joined
/// for a regular file, left to end by itself for pipes and stdin.
pub(crate) fn read_ahead_for(src: &Source) -> read::ReadAhead {
    match src {
        Source::File(path) if std::fs::metadata(path).is_ok_and(|m| m.is_file()) => read::ReadAhead::Joined,
        _ => read::ReadAhead::Detached,
    }
}

/// One input streamed as one document ([`stream_one`], the read-ahead thread
/// left to end by itself on pipes), never split into several: for the
/// commands that read one document per input.
pub(crate) fn stream_source<V: crate::model::visit::PlanVisitor, T>(
    src: &Source,
    read: &read::ReadOptions,
    visitor: V,
    answer: impl FnOnce(V, read::Document<'_>, &secrets::Masker) -> Result<T, String>,
) -> PerFile<T> {
    let file = src.name();
    match read::open(src, read).and_then(|r| stream_one(&file, r, read_ahead_for(src), read, visitor, answer)) {
        Ok((t, masker)) => PerFile { file, result: Ok(t), masker },
        Err(e) => PerFile { file, result: Err(e), masker: secrets::Masker::default() },
    }
}

/// The secrets of every document of `roots`, by a first pass that reads them
/// all and does nothing else ([`crate::read::stream_roots`]): handed to every
/// reader of the run's own pass (`ReadOptions::seed`) so that a value marked
/// sensitive in one input is masked wherever another holds it unmarked.
pub(crate) fn secrets_of(roots: &[read::Root], read: &read::ReadOptions) -> secrets::Masker {
    struct Nothing;
    impl crate::model::visit::PlanVisitor for Nothing {}
    let quiet = read::ReadOptions { notes: read::Notes::default(), ..read.clone() };
    let items = read::stream_roots(roots, &quiet, &|name, src, ahead, read| stream_one(name, src, ahead, read, Nothing, |_, _, _| Ok(())));
    let mut all = secrets::Masker::default();
    items.iter().for_each(|i| all.merge(&i.masker));
    all
}

#[cfg(test)]
mod each_root_tests {
    use super::*;

    #[test]
    fn each_root_keeps_the_order_of_inputs_across_parallel_chunks() {
        let dir = std::env::temp_dir().join(format!("planview-each-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut inputs = Vec::new();
        for i in 0..(crate::par::MAX_PARALLEL * 2 + 3) {
            let p = dir.join(format!("{i}.json"));
            if i % 4 != 3 {
                let plan =
                    format!(r#"{{"format_version":"1.2","resource_changes":[{{"address":"a.r{i}","change":{{"actions":["create"]}}}}]}}"#);
                std::fs::write(&p, plan).unwrap();
            }
            inputs.push(Source::File(p));
        }
        let mut calls = 0;
        let read = read::ReadOptions::default();
        let roots = read::expand(&inputs, &read::FindOptions::default(), &read.notes);
        let items = each_root_with(&roots, &read, |doc, _| {
            calls += 1;
            match doc {
                read::Document::Plan(p) => Ok(p.resource_changes[0].address.clone()),
                read::Document::State(_) => Err("state".to_string()),
            }
        });
        assert_eq!(items.len(), inputs.len());
        for (i, item) in items.iter().enumerate() {
            assert_eq!(item.file, inputs[i].name());
            match &item.result {
                Ok(a) => assert_eq!(a, &format!("a.r{i}")),
                Err(e) => assert!(i % 4 == 3 && e.message.contains("no such file"), "{i}: {e}"),
            }
        }
        assert_eq!(calls, inputs.len() - inputs.len() / 4);
        std::fs::remove_dir_all(&dir).ok();
    }
}

#[cfg(test)]
mod tests;
