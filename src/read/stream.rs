//! Streaming one document: the read-ahead thread ([`read_ahead`]) or the
//! pieces another thread cut ([`Fed`], [`Feeder`]), handed to the walker
//! ([`super::walk`]); [`Keep`] keeps the elements a query answers from at the end.

use super::source::{Chunk, Chunks, Framed};
use super::walk::parse_document;
use super::window::{complete_prefix, Reader};
use super::{sniff_encoding, ReadOptions};
use crate::error::InputError;
use crate::model::visit::PlanVisitor;
use crate::model::{Plan, ResourceChange};
use std::io::Read;

/// Keeps the text of the streamed elements that `keep` chooses (given whether
/// it is drift, its position in its list, how many of that list are kept
/// already, and its parse), so that a query that
/// needs whole changes answers at the end, over the skeleton with just those
/// changes ([`Keep::fill`]), with every secret of the document known. Memory
/// is what the query keeps, not the document.
pub(crate) struct Keep<P> {
    keep: P,
    changes: Vec<String>,
    drift: Vec<String>,
    seen: [usize; 2],
    /// Changes (not drift) kept bare ([`Keep::bare_changes`]).
    bare: bool,
    /// Changes (not drift) spooled instead of held ([`Keep::spooled_changes`]),
    /// and the first error spooling one (the answer then fails).
    spool: Option<(crate::spool::Records<String>, Option<std::io::Error>)>,
}

impl<P: FnMut(bool, usize, usize, &ResourceChange<'_>) -> bool> Keep<P> {
    pub(crate) fn new(keep: P) -> Self {
        Keep { keep, changes: Vec::new(), drift: Vec::new(), seen: [0, 0], bare: false, spool: None }
    }

    /// Keep each chosen change (not drift) bare: its address, previous
    /// address and actions only (what tells its kind and whether it moves),
    /// for a query that needs no more of the changes. A change carrying one
    /// huge value then costs its address, not the value.
    pub(crate) fn bare_changes(mut self) -> Self {
        self.bare = true;
        self
    }

    /// Spool each chosen change (not drift) to a temporary file
    /// ([`crate::spool`]) instead of holding its text: [`Keep::fill`] leaves
    /// `resource_changes` empty, and the query reads them one at a time at
    /// the end ([`Keep::each_change`]). Memory is one spool block and one
    /// change, however many are kept.
    pub(crate) fn spooled_changes(mut self) -> Self {
        self.spool = Some((crate::spool::Records::default(), None));
        self
    }
}

/// A change reduced to what [`Keep::bare_changes`] keeps.
#[derive(serde::Serialize)]
struct Bare<'a> {
    address: &'a str,
    previous_address: Option<&'a str>,
    change: BareChange<'a>,
}

#[derive(serde::Serialize)]
struct BareChange<'a> {
    actions: &'a [crate::model::Action],
}

impl<'a> Bare<'a> {
    fn of(rc: &'a ResourceChange<'_>) -> Self {
        Bare { address: &rc.address, previous_address: rc.previous_address.as_deref(), change: BareChange { actions: &rc.change.actions } }
    }
}

impl<P> Keep<P> {
    /// Put the kept elements into `plan` (a streamed skeleton) as its
    /// `resource_changes` and `resource_drift`, in document order.
    pub(crate) fn fill<'a>(&'a self, plan: &mut Plan<'a>) -> Result<(), String> {
        let parse = |texts: &'a [String]| -> Result<Vec<ResourceChange<'a>>, String> {
            texts.iter().map(|t| serde_json::from_str(t).map_err(|e| e.to_string())).collect()
        };
        plan.resource_changes = parse(&self.changes)?;
        plan.resource_drift = parse(&self.drift)?;
        Ok(())
    }

    /// Each spooled change ([`Keep::spooled_changes`]), in document order,
    /// parsed and given to `f`; nothing when the changes are not spooled (they
    /// are in the plan [`Keep::fill`] filled). A change that could not be
    /// spooled or read back fails the answer: it is never shorter.
    pub(crate) fn each_change(&self, f: &mut dyn FnMut(&ResourceChange<'_>)) -> Result<(), String> {
        let Some((spool, failed)) = &self.spool else { return Ok(()) };
        let cannot = |e: &dyn std::fmt::Display| format!("cannot spool the changes to a temporary file: {e}");
        if let Some(e) = failed {
            return Err(cannot(e));
        }
        let mut bad = None;
        spool
            .each(|text| {
                match serde_json::from_str::<ResourceChange<'_>>(&text) {
                    Ok(rc) => f(&rc),
                    Err(e) => bad = Some(e.to_string()),
                }
                Ok(())
            })
            .map_err(|e| cannot(&e))?;
        bad.map_or(Ok(()), Err)
    }
}

impl<P: FnMut(bool, usize, usize, &ResourceChange<'_>) -> bool> PlanVisitor for Keep<P> {
    fn on_element(&mut self, drift: bool, rc: &ResourceChange<'_>, text: &str) {
        let seen = &mut self.seen[usize::from(drift)];
        let index = *seen;
        *seen += 1;
        if let Some((spool, failed)) = self.spool.as_mut().filter(|_| !drift) {
            if (self.keep)(drift, index, spool.len(), rc) && failed.is_none() {
                if let Err(e) = spool.push(&text.to_string()) {
                    *failed = Some(e);
                }
            }
            return;
        }
        let list = if drift { &mut self.drift } else { &mut self.changes };
        if (self.keep)(drift, index, list.len(), rc) {
            let bare = (self.bare && !drift).then(|| serde_json::to_string(&Bare::of(rc)).ok()).flatten();
            list.push(bare.unwrap_or_else(|| text.to_string()));
        }
    }
}

/// A value bigger than this that is being skipped is walked member by member
/// instead of parsed whole, so skipping never needs more memory than this.
pub(crate) const SKIP_WINDOW: usize = 1 << 20;
/// Bytes read from the source per refill (at least).
pub(crate) const CHUNK: usize = 256 << 10;

/// Stream one document from `src`: changes and drift go to `visitor`; the
/// returned skeleton holds the rest (streamed and skipped keys set to `null`,
/// so they still tell a plan from a state).
///
/// The input is held to the same rules as a whole-file read ([`crate::read::parse_with`]):
/// encoding, UTF-8 everywhere, nesting depth everywhere ([`crate::scan`]), one
/// document, no duplicate top-level key, and `--lenient` as `opts` says.
pub fn stream(
    name: &str,
    src: impl Read + Send + 'static,
    ahead: ReadAhead,
    opts: &ReadOptions,
    visitor: &mut dyn PlanVisitor,
) -> Result<String, InputError> {
    let mut src = src;
    // Text already read and checked on another thread (a document of
    // [`crate::read::stream_roots`]): parsed as it comes, no thread of its own.
    if let Some(fed) = (&mut src as &mut dyn std::any::Any).downcast_mut::<Fed>() {
        if let Some(rx) = fed.rx.take() {
            return parse_document(Reader::new(name, rx), opts, visitor);
        }
        if let Some(plain) = fed.plain.take() {
            return stream_chunked(name, plain, ahead, opts, visitor, CHUNK);
        }
    }
    stream_chunked(name, src, ahead, opts, visitor, CHUNK)
}

/// A document's text as another thread reads and checks it ([`Feeder`]):
/// [`stream`] parses it as it comes, without a read-ahead thread of its own.
/// (As a plain reader it gives the text, and an error for a piece that is not text.)
pub(crate) struct Fed {
    rx: Option<std::sync::mpsc::Receiver<Piece>>,
    /// Or a plain reader, streamed as any other ([`Fed::plain`]).
    plain: Option<Box<dyn Read + Send>>,
    cur: Vec<u8>,
    pos: usize,
    /// How to read this document again from its file, when it came from a
    /// regular file of JSON ([`super::pool::Again`]).
    again: Option<super::pool::Again>,
}

impl Fed {
    pub(crate) fn new(rx: std::sync::mpsc::Receiver<Piece>) -> Self {
        Fed { rx: Some(rx), plain: None, cur: Vec::new(), pos: 0, again: None }
    }

    /// A plain reader (a copy written earlier), streamed by [`stream`] with
    /// a read-ahead thread as any reader is.
    pub(crate) fn plain(src: impl Read + Send + 'static) -> Self {
        Fed { rx: None, plain: Some(Box::new(src)), cur: Vec::new(), pos: 0, again: None }
    }

    /// This document can be read again from its file by `again`.
    pub(crate) fn with_again(self, again: super::pool::Again) -> Self {
        Fed { again: Some(again), ..self }
    }

    /// How to read this document again from its file (a regular file of
    /// JSON, not a pipe, stdin or a saved plan): `None` when it cannot be.
    pub(crate) fn again(&self) -> Option<&super::pool::Again> {
        self.again.as_ref()
    }
}

impl Fed {
    /// This document's text also written to `copy` as it comes, by a thread
    /// between the reading thread and the parser (which gets each piece once
    /// it is written): for a caller that reads the document again
    /// (`crate::run::tee`). Only text is copied: a document with a piece
    /// that is not text fails its parse, and its copy is never read.
    pub(crate) fn copied(mut self, mut copy: impl std::io::Write + Send + 'static) -> Fed {
        let Some(rx) = self.rx.take() else { return self };
        let (tx, relayed) = std::sync::mpsc::sync_channel(1);
        crate::par::thread(move || {
            for piece in rx {
                if let Piece::Text(t) = &piece {
                    // The writer records its own failure (the copy is then refused).
                    let _ = copy.write_all(t.as_bytes());
                }
                if tx.send(piece).is_err() {
                    break;
                }
            }
        });
        Fed::new(relayed)
    }
}

impl Read for Fed {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if let Some(plain) = &mut self.plain {
            return plain.read(out);
        }
        while self.pos >= self.cur.len() {
            let Some(rx) = &self.rx else { return Ok(0) };
            match rx.recv() {
                Ok(Piece::Text(t)) => {
                    self.cur = t.into_bytes();
                    self.pos = 0;
                }
                Ok(Piece::Failed(e)) => return Err(e),
                Ok(_) => return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "the input is not valid text")),
                Err(_) => return Ok(0),
            }
        }
        let n = (self.cur.len() - self.pos).min(out.len());
        out[..n].copy_from_slice(&self.cur[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// What becomes of the read-ahead thread once the parse has ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadAhead {
    /// Joined before returning. For sources whose reads never wait on anyone
    /// (a regular file, memory): the thread's next send fails at once, so no
    /// thread outlives the call.
    Joined,
    /// Left to end by itself. For pipes and stdin: after an error we answer
    /// at once instead of waiting for the writer of the pipe; the thread ends
    /// when its next send finds the receiver gone.
    Detached,
}

/// [`stream`] with a chosen refill size (tests use tiny ones to hit every boundary).
pub(crate) fn stream_chunked(
    name: &str,
    src: impl Read + Send + 'static,
    ahead: ReadAhead,
    opts: &ReadOptions,
    visitor: &mut dyn PlanVisitor,
    chunk: usize,
) -> Result<String, InputError> {
    let chunk = chunk.max(1);
    let lenient = opts.lenient;
    // A second thread reads and validates UTF-8 while this one parses.
    let (tx, rx) = std::sync::mpsc::sync_channel::<Piece>(4);
    let scan_depth = !opts.rescan_depth_skipped;
    let thread = crate::par::thread(move || read_ahead(src, chunk, lenient, scan_depth, &tx));
    // The reader (and with it the receiver) is dropped when the parse returns.
    let parsed = parse_document(Reader::new(name, rx), opts, visitor);
    if ahead == ReadAhead::Joined {
        thread.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    }
    parsed
}

/// What the read-ahead thread sends: validated text, the end, or a failure.
pub(crate) enum Piece {
    Text(String),
    /// Valid text up to an invalid UTF-8 sequence.
    BadUtf8(String),
    /// The first bytes are UTF-16 or carry a BOM (the check's error is rebuilt by the reader).
    Encoding(Vec<u8>),
    /// Valid text up to a bracket nested deeper than [`crate::scan::MAX_DEPTH`].
    TooDeep(String),
    Failed(std::io::Error),
}

/// Read `src` in chunks, validate UTF-8 ([`crate::utf8`]) and check nesting depth once (unless
/// `scan_depth` is false: a file checked by an earlier read), and send the text on.
fn read_ahead(src: impl Read, chunk: usize, lenient: bool, scan_depth: bool, tx: &std::sync::mpsc::SyncSender<Piece>) {
    let mut feeder = Feeder::new(lenient, scan_depth);
    for Chunk { bytes, eof, failed } in Chunks::new(src, chunk, None) {
        let (piece, last) = feeder.push(bytes, if eof { End::Eof } else { End::More });
        if piece.is_some_and(|p| tx.send(p).is_err()) || last {
            return; // the parser stopped early (an error), or the input ended
        }
        if let Some(e) = failed {
            let _ = tx.send(Piece::Failed(e));
            return;
        }
    }
}

/// What follows the bytes given to [`Feeder::push`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    /// More bytes.
    More,
    /// Nothing: the input ends.
    Eof,
    /// A bracket nested deeper than [`crate::scan::MAX_DEPTH`] (found by the caller).
    TooDeep,
}

/// Turns the bytes of one document, as they are read, into the pieces the
/// parser takes: the encoding judged on the first bytes, UTF-8 validated (a
/// character cut at the end kept for the next bytes), and nesting depth
/// checked when asked (the framer, [`Framed`]).
pub(crate) struct Feeder {
    lenient: bool,
    /// The framer, checking nesting depth as the text passes ([`Framed`]).
    framer: Option<Framed>,
    /// Text sent since the framer started.
    sent: usize,
    /// Bytes held back: an incomplete character, or too few bytes to judge the encoding.
    pending: Vec<u8>,
    first: bool,
}

impl Feeder {
    pub(crate) fn new(lenient: bool, scan_depth: bool) -> Self {
        Feeder { lenient, framer: scan_depth.then(|| Framed::new(lenient)), sent: 0, pending: Vec::new(), first: true }
    }

    /// The next bytes: the piece to send, if any, and whether it is the last
    /// (the input ended, or it is an error).
    pub(crate) fn push(&mut self, bytes: Vec<u8>, end: End) -> (Option<Piece>, bool) {
        let eof = end != End::More;
        let mut data = if self.pending.is_empty() {
            bytes
        } else {
            let mut d = std::mem::take(&mut self.pending);
            d.extend_from_slice(&bytes);
            d
        };
        if self.first {
            if data.len() < 4 && !eof {
                self.pending = data; // too little to tell the encoding yet
                return (None, false);
            }
            self.first = false;
            if sniff_encoding("", &data, self.lenient).is_err() {
                return (Some(Piece::Encoding(data)), true);
            }
        }
        // Keep an incomplete character at the end for the next round.
        let cut = if eof { data.len() } else { complete_prefix(&data) };
        self.pending = data.split_off(cut);
        // UTF-8 over the index (ASCII runs proven at once); the held-back
        // character above is the carry to the next piece.
        match crate::utf8::into_text(data) {
            Ok(mut s) => {
                if let Some(framer) = self.framer.as_mut().filter(|f| !f.done()) {
                    framer.feed(s.as_bytes());
                    if framer.too_deep {
                        s.truncate(framer.deep_at - self.sent);
                        return (Some(Piece::TooDeep(s)), true);
                    }
                }
                self.sent += s.len();
                if end == End::TooDeep {
                    return (Some(Piece::TooDeep(s)), true);
                }
                ((!s.is_empty()).then_some(Piece::Text(s)), eof)
            }
            Err((mut bytes, valid)) => {
                bytes.truncate(valid);
                (Some(Piece::BadUtf8(crate::utf8::into_text(bytes).unwrap_or_default())), true)
            }
        }
    }
}
