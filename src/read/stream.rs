//! Streaming a plan from a pipe in bounded memory.
//!
//! A whole-document read holds the input (and the model) in memory: fine for a
//! file, but a pipe of several GB should not need several GB. [`stream`] reads the
//! input in chunks, validates their UTF-8 once, and hands every element of
//! `resource_changes` and `resource_drift` to a [`PlanVisitor`] as the same
//! borrowed [`ResourceChange`] a whole-document read produces, then drops it.
//! The resources of `planned_values` and `prior_state` go, one at a time, to
//! [`PlanVisitor::on_values_resource`] (their secrets are collected there);
//! their outputs stay in the skeleton. The parts no query needs
//! (`proposed_unknown`, unknown keys) are checked and skipped piece by piece. Everything else (version, outputs, checks, flags, and a
//! state's `values`, `configuration`) is kept in a small *skeleton* document, which the caller
//! parses with [`crate::read::parse`] so detection, the version gate and every
//! error message stay the same as for files.
//!
//! Each element is parsed by serde_json from the in-memory chunk (`from_str`, as
//! fast as a whole-file parse); when it does not fit yet, more input is read
//! (as much again as is buffered, so that an element spanning many pieces is
//! parsed a few times, not once per piece) and the element is parsed again.
//! Memory is bounded by about twice the largest single element plus
//! [`SKIP_WINDOW`], whatever the input size.

use crate::error::InputError;
use crate::model::visit::{PlanVisitor, Prior};
use crate::model::{CheckObject, Plan, ResourceChange, ResourceValue};
use crate::read::{
    after_document, check_start_at, json_error_at, second_document, skipped_prefix, sniff_encoding, too_blank, too_deep, too_long_trailer,
    two_documents, ReadOptions, MAX_BLANKS, MAX_TRAILER,
};
use serde::de::IgnoredAny;
use serde_json::value::RawValue;
use std::io::Read;

/// Keeps the text of the streamed elements that `keep` chooses (given whether
/// it is drift, its position in its list, how many of that list are kept
/// already, and its parse), so that a query that
/// needs whole changes answers at the end, over the skeleton with just those
/// changes ([`Keep::fill`]), with every secret of the document known. Memory
/// is what the query keeps, not the document.
pub struct Keep<P> {
    keep: P,
    changes: Vec<String>,
    drift: Vec<String>,
    seen: [usize; 2],
}

impl<P: FnMut(bool, usize, usize, &ResourceChange<'_>) -> bool> Keep<P> {
    pub fn new(keep: P) -> Self {
        Keep { keep, changes: Vec::new(), drift: Vec::new(), seen: [0, 0] }
    }
}

impl<P> Keep<P> {
    /// Put the kept elements into `plan` (a streamed skeleton) as its
    /// `resource_changes` and `resource_drift`, in document order.
    pub fn fill<'a>(&'a self, plan: &mut Plan<'a>) -> Result<(), String> {
        let parse = |texts: &'a [String]| -> Result<Vec<ResourceChange<'a>>, String> {
            texts.iter().map(|t| serde_json::from_str(t).map_err(|e| e.to_string())).collect()
        };
        plan.resource_changes = parse(&self.changes)?;
        plan.resource_drift = parse(&self.drift)?;
        Ok(())
    }
}

impl<P: FnMut(bool, usize, usize, &ResourceChange<'_>) -> bool> PlanVisitor for Keep<P> {
    fn on_element(&mut self, drift: bool, rc: &ResourceChange<'_>, text: &str) {
        let seen = &mut self.seen[usize::from(drift)];
        let index = *seen;
        *seen += 1;
        let list = if drift { &mut self.drift } else { &mut self.changes };
        if (self.keep)(drift, index, list.len(), rc) {
            list.push(text.to_string());
        }
    }
}

/// Top-level keys whose arrays are streamed element by element.
const STREAMED: &[&str] = &["resource_changes", "resource_drift"];
/// Top-level keys kept (verbatim) in the skeleton. `configuration` stays: it
/// says which variables are sensitive (for masking), and it grows with the
/// configuration, not with the number of instances.
const KEPT: &[&str] = &[
    "configuration",
    "format_version",
    "plan_format_version",
    "terraform_version",
    "variables",
    "output_changes",
    "relevant_attributes",
    "checks",
    "condition_results",
    "deferred_changes",
    "action_invocations",
    "deferred_action_invocations",
    "timestamp",
    "applyable",
    "complete",
    "errored",
    "values",
];

/// A top-level key holding a values representation (`planned_values`, or
/// `prior_state`'s `values`): its resources are streamed to
/// [`PlanVisitor::on_values_resource`], its `outputs` kept in the skeleton.
struct ValuesHolder {
    key: &'static str,
    /// The member that holds the values representation (`None`: the key itself).
    inner: Option<&'static str>,
}

const VALUES_HOLDERS: &[ValuesHolder] =
    &[ValuesHolder { key: "planned_values", inner: None }, ValuesHolder { key: "prior_state", inner: Some("values") }];

/// A value bigger than this that is being skipped is walked member by member
/// instead of parsed whole, so skipping never needs more memory than this.
pub const SKIP_WINDOW: usize = 1 << 20;
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
    // [`crate::read::roots::stream_roots`]): parsed as it comes, no thread of its own.
    if let Some(fed) = (&mut src as &mut dyn std::any::Any).downcast_mut::<Fed>() {
        if let Some(rx) = fed.rx.take() {
            return parse_document(Reader::new(name, rx), opts, visitor);
        }
    }
    stream_chunked(name, src, ahead, opts, visitor, CHUNK)
}

/// A document's text as another thread reads and checks it ([`Feeder`]):
/// [`stream`] parses it as it comes, without a read-ahead thread of its own.
/// (As a plain reader it gives the text, and an error for a piece that is not text.)
pub struct Fed {
    rx: Option<std::sync::mpsc::Receiver<Piece>>,
    cur: Vec<u8>,
    pos: usize,
}

impl Fed {
    pub(crate) fn new(rx: std::sync::mpsc::Receiver<Piece>) -> Self {
        Fed { rx: Some(rx), cur: Vec::new(), pos: 0 }
    }
}

impl Read for Fed {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
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
    let thread = std::thread::spawn(move || read_ahead(src, chunk, lenient, scan_depth, &tx));
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

/// Read `src` in chunks, validate UTF-8 and check nesting depth once (unless
/// `scan_depth` is false: a file checked by an earlier read), and send the text on.
fn read_ahead(mut src: impl Read, chunk: usize, lenient: bool, scan_depth: bool, tx: &std::sync::mpsc::SyncSender<Piece>) {
    let mut scratch = vec![0u8; chunk.min(CHUNK)];
    let mut feeder = Feeder::new(lenient, scan_depth);
    loop {
        let mut data = Vec::new();
        let mut eof = false;
        while data.len() < chunk {
            let room = (chunk - data.len()).min(scratch.len());
            match src.read(&mut scratch[..room]) {
                Ok(0) => {
                    eof = true;
                    break;
                }
                Ok(n) => data.extend_from_slice(&scratch[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    let _ = tx.send(Piece::Failed(e));
                    return;
                }
            }
        }
        let (piece, last) = feeder.push(data, if eof { End::Eof } else { End::More });
        if piece.is_some_and(|p| tx.send(p).is_err()) || last {
            return; // the parser stopped early (an error), or the input ended
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
/// checked when asked ([`crate::scan::Scanner`]).
pub(crate) struct Feeder {
    lenient: bool,
    scanner: Option<crate::scan::Scanner>,
    /// Text sent since the scanner started.
    sent: usize,
    /// Bytes held back: an incomplete character, or too few bytes to judge the encoding.
    pending: Vec<u8>,
    first: bool,
}

impl Feeder {
    pub(crate) fn new(lenient: bool, scan_depth: bool) -> Self {
        Feeder { lenient, scanner: scan_depth.then(|| crate::scan::Scanner::new(lenient)), sent: 0, pending: Vec::new(), first: true }
    }

    /// Check depth from the next bytes on (those so far were blanks, or a
    /// lenient prefix without a `{`).
    pub(crate) fn check_depth(&mut self) {
        if self.scanner.is_none() {
            self.scanner = Some(crate::scan::Scanner::new(self.lenient));
            self.sent = 0;
        }
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
        match String::from_utf8(data) {
            Ok(mut s) => {
                if let Some(scanner) = self.scanner.as_mut().filter(|s| !s.done()) {
                    scanner.feed(s.as_bytes());
                    if let Some(at) = scanner.found().too_deep {
                        s.truncate(at - self.sent);
                        return (Some(Piece::TooDeep(s)), true);
                    }
                }
                self.sent += s.len();
                if end == End::TooDeep {
                    return (Some(Piece::TooDeep(s)), true);
                }
                ((!s.is_empty()).then_some(Piece::Text(s)), eof)
            }
            Err(e) => {
                let valid = e.utf8_error().valid_up_to();
                let mut bytes = e.into_bytes();
                bytes.truncate(valid);
                (Some(Piece::BadUtf8(String::from_utf8(bytes).unwrap_or_default())), true)
            }
        }
    }
}

fn parse_document(mut r: Reader<'_>, opts: &ReadOptions, visitor: &mut dyn PlanVisitor) -> Result<String, InputError> {
    r.start(opts)?;
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut skel = String::from("{");
    r.skip_ws()?;
    r.expect(b'{', "expected `{`")?;
    let mut first = true;
    while r.next_item(&mut first, b'}', "expected `,` or `}` after an object member", "EOF while parsing an object")? {
        let key: String = r.parse_small::<String>()?;
        if !seen.insert(key.clone()) {
            return Err(duplicate_key(&r, &key));
        }
        r.skip_ws()?;
        r.expect(b':', "expected `:`")?;
        r.skip_ws()?;
        if seen.len() > 1 {
            skel.push(',');
        }
        skel.push_str(&serde_json::to_string(&key).unwrap_or_default());
        skel.push(':');
        if STREAMED.contains(&key.as_str()) {
            let drift = key == "resource_drift";
            r.stream_array(|rc, text| {
                if drift {
                    visitor.on_drift(rc)
                } else {
                    visitor.on_resource_change(rc)
                }
                visitor.on_element(drift, rc, text);
            })?;
            skel.push_str("null");
        } else if let Some(holder) = VALUES_HOLDERS.iter().find(|h| h.key == key) {
            skel.push_str(&r.walk_values_holder(holder, visitor)?);
        } else if KEPT.contains(&key.as_str()) {
            let raw = r.parse_small::<Box<RawValue>>()?;
            skel.push_str(raw.get());
        } else {
            r.skip_value(0)?;
            skel.push_str("null");
        }
    }
    skel.push('}');
    // Only blanks may follow (or, lenient, a trailer that is not a document),
    // and not endlessly: the same limits as a whole read.
    let end = r.dropped + r.pos;
    if !r.skip_ws_upto(end + MAX_TRAILER)? {
        return Err(too_long_trailer(r.name));
    }
    if let Some(next) = r.peek()? {
        let (l, c) = r.location(r.pos);
        if ["@level", "@message", "type"].iter().all(|k| seen.contains(*k)) {
            return Err(crate::read::wrong::log_stream(r.name));
        }
        if opts.lenient && !matches!(next, b'{' | b'[') {
            r.check_trailer(end)?;
        }
        after_document(r.name, next, l, c, opts)?;
    }
    Ok(skel)
}

/// A key repeated at the top level: which value is meant cannot be known (the
/// same error as a whole-file read, [`crate::model::RawDocument`]).
fn duplicate_key(r: &Reader<'_>, key: &str) -> InputError {
    // On the key's closing quote, where serde_json puts it.
    let (l, c) = r.location(r.pos.saturating_sub(1));
    let key = crate::sanitize::line(key);
    InputError::new(r.name, format!("invalid JSON: duplicate key `{key}` at the top level of the document")).at(l, c)
}

/// A window on the input: validated text from `pos` on, refilled on demand.
struct Reader<'n> {
    name: &'n str,
    src: std::sync::mpsc::Receiver<Piece>,
    /// Validated text; `buf[..pos]` is consumed.
    buf: String,
    pos: usize,
    eof: bool,
    /// Lines (`\n`) in the text dropped from the front of `buf`.
    base_lines: usize,
    /// Characters since the last newline in the dropped text.
    base_col: usize,
    /// Bytes dropped from the front of `buf`.
    dropped: usize,
    /// Nothing but leading blanks read yet: what the input starts with is
    /// still to be judged ([`Reader::start`]).
    starting: bool,
}

impl<'n> Reader<'n> {
    fn new(name: &'n str, src: std::sync::mpsc::Receiver<Piece>) -> Self {
        Reader { name, src, buf: String::new(), pos: 0, eof: false, base_lines: 0, base_col: 0, dropped: 0, starting: true }
    }

    /// Read until the first non-blank character (or the end), then check it
    /// opens an object. `--lenient`: skip to the first `{`, with a warning.
    fn start(&mut self, opts: &ReadOptions) -> Result<(), InputError> {
        // Blanks are consumed (and so dropped at the next refill) as they come:
        // megabytes of them are neither kept nor scanned again; endless ones end.
        if !self.skip_ws_upto(MAX_BLANKS)? {
            return Err(too_blank(self.name));
        }
        // Not an object: read a little more (up to 64 KB of input, blanks
        // included) so the message can say where the JSON starts.
        while !self.eof && !self.buf[self.pos..].starts_with('{') && self.dropped + self.buf.len() < 64 << 10 {
            self.fill()?;
        }
        let strict = self.check_start();
        self.starting = false;
        let human =
            strict.as_ref().is_err_and(crate::read::wrong::is_human_error) && !crate::read::wrong::json_line_in(self.buf.as_bytes());
        if strict.is_ok() || !opts.lenient || human {
            return strict;
        }
        // Skip to the first `{`, forgetting the text before it as it goes
        // (counted from the start of the input, blanks included).
        let mut skipped = self.dropped + self.pos;
        loop {
            if let Some(k) = self.buf[self.pos..].find('{') {
                self.pos += k;
                skipped += k;
                break;
            }
            skipped += self.buf.len() - self.pos;
            self.pos = self.buf.len();
            if skipped > crate::read::MAX_PREFIX || !self.fill()? {
                return strict; // no object (early enough): refused as strictly
            }
        }
        let (l, c) = self.location(self.pos);
        opts.notes.push(self.name, skipped_prefix(skipped, l, c));
        Ok(())
    }

    /// [`crate::read::check_start`] on the buffer, the blanks dropped before it counted in.
    fn check_start(&self) -> Result<(), InputError> {
        check_start_at(self.name, &self.buf, self.dropped == 0, &|at| self.location(at))
    }

    /// Take the next piece of text from the read-ahead thread. Returns false at the end.
    fn fill(&mut self) -> Result<bool, InputError> {
        if self.eof {
            return Ok(false);
        }
        let piece = self.src.recv();
        // Text already parsed is dropped when more comes: at the end it is
        // held anyway (and its lines need not be counted unless an error asks).
        if self.pos > 0 && piece.is_ok() {
            self.forget_consumed();
        }
        match piece {
            Ok(Piece::Text(t)) => {
                if self.buf.is_empty() {
                    self.buf = t;
                } else {
                    self.buf.push_str(&t);
                }
                #[cfg(test)]
                tally::buffered(self.buf.len());
                Ok(true)
            }
            Ok(Piece::BadUtf8(valid)) => {
                self.buf.push_str(&valid);
                let (l, c) = self.location(self.buf.len());
                Err(InputError::new(self.name, "input is not valid UTF-8").at(l, c).hint("re-encode as UTF-8"))
            }
            Ok(Piece::Encoding(bytes)) => {
                Err(sniff_encoding(self.name, &bytes, false).err().unwrap_or_else(|| InputError::new(self.name, "unreadable encoding")))
            }
            Ok(Piece::TooDeep(valid)) => {
                self.buf.push_str(&valid);
                if self.starting {
                    // Still at the start: what the input starts with is judged
                    // first, as a whole-file read does (`[[[[...` is an array).
                    self.check_start()?;
                }
                let (l, c) = self.location(self.buf.len());
                Err(too_deep(self.name, l, c))
            }
            Ok(Piece::Failed(e)) => Err(InputError::new(self.name, format!("cannot read: {e}"))),
            Err(_) => {
                self.eof = true;
                Ok(false)
            }
        }
    }

    /// Drop consumed text, keeping line/column bookkeeping for error messages.
    fn forget_consumed(&mut self) {
        let gone = &self.buf.as_bytes()[..self.pos];
        let (lines, col) = lines_and_col(gone);
        if lines > 0 {
            self.base_lines += lines;
            self.base_col = col;
        } else {
            self.base_col += col;
        }
        self.buf.drain(..self.pos);
        self.dropped += self.pos;
        self.pos = 0;
    }

    /// 1-based line and column of a position in `buf`.
    fn location(&self, at: usize) -> (usize, usize) {
        let (lines, col) = lines_and_col(&self.buf.as_bytes()[..at.min(self.buf.len())]);
        if lines > 0 {
            (self.base_lines + lines + 1, col + 1)
        } else {
            (self.base_lines + 1, self.base_col + col + 1)
        }
    }

    fn peek(&mut self) -> Result<Option<u8>, InputError> {
        loop {
            if let Some(&b) = self.buf.as_bytes().get(self.pos) {
                return Ok(Some(b));
            }
            if !self.fill()? && self.pos >= self.buf.len() {
                return Ok(None);
            }
        }
    }

    fn skip_ws(&mut self) -> Result<(), InputError> {
        loop {
            let rest = &self.buf.as_bytes()[self.pos..];
            let n = rest.iter().take_while(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t')).count();
            self.pos += n;
            if n < rest.len() || !self.fill()? {
                return Ok(());
            }
        }
    }

    /// [`Reader::skip_ws`], but false once the blanks go on past the offset
    /// `limit` of the input (the reader is left somewhere past it).
    fn skip_ws_upto(&mut self, limit: usize) -> Result<bool, InputError> {
        loop {
            let rest = &self.buf.as_bytes()[self.pos..];
            let n = rest.iter().take_while(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t')).count();
            self.pos += n;
            if self.dropped + self.pos > limit {
                return Ok(false);
            }
            if n < rest.len() || !self.fill()? {
                return Ok(true);
            }
        }
    }

    /// `--lenient`'s trailer (from `pos`; the document ended at offset `end`):
    /// read to the end, and refused if a line in it starts a second document
    /// or it goes on past [`MAX_TRAILER`] (as [`crate::read::parse_with`] does).
    fn check_trailer(&mut self, end: usize) -> Result<(), InputError> {
        let mut scan = crate::read::TrailerScan::new(false);
        loop {
            let room = (end + MAX_TRAILER + 1).saturating_sub(self.dropped + self.pos);
            let piece = &self.buf.as_bytes()[self.pos..self.buf.len().min(self.pos + room)];
            if let Some(k) = second_document(piece, &mut scan) {
                let (l, c) = self.location(self.pos + k);
                return Err(two_documents(self.name, l, c, true));
            }
            self.pos += piece.len();
            if self.dropped + self.pos > end + MAX_TRAILER {
                return Err(too_long_trailer(self.name));
            }
            if !self.fill()? {
                return Ok(());
            }
        }
    }

    fn expect(&mut self, want: u8, what: &str) -> Result<(), InputError> {
        match self.peek()? {
            Some(b) if b == want => {
                self.pos += 1;
                Ok(())
            }
            Some(_) => Err(self.syntax(what)),
            None => Err(self.eof(&format!("EOF while parsing ({what})"))),
        }
    }

    fn syntax(&self, msg: &str) -> InputError {
        let (l, c) = self.location(self.pos);
        InputError::new(self.name, format!("invalid JSON: {msg}")).at(l, c)
    }

    /// At the end of the input: placed on its last character, as serde_json does.
    fn eof(&self, msg: &str) -> InputError {
        let (l, c) = self.location(self.buf.len());
        InputError::new(self.name, format!("invalid JSON: {msg}"))
            .at(l, c.saturating_sub(1).max(1))
            .hint("the JSON ends too early: was the file truncated?")
    }

    /// A serde_json error for a value that starts at `start` in `buf`.
    fn json_error(&self, start: usize, e: &serde_json::Error) -> InputError {
        json_error_at(self.name, e, self.location(start))
    }

    /// A value that fails to parse may only be cut short by the end of the
    /// buffer (`1e` of `1e3`): read more and retry, unless the input has ended or
    /// the same error comes back with more text.
    fn retry_or_fail(&self, e: &serde_json::Error, last: &mut Option<(usize, usize)>) -> Result<(), InputError> {
        let here = (e.line(), e.column());
        if self.eof || (!e.is_eof() && *last == Some(here)) {
            return Err(self.json_error(self.pos, e));
        }
        *last = Some(here);
        Ok(())
    }

    /// After a parse of the `tried` bytes from `pos` found the value incomplete
    /// (or an error that more text may undo): read until twice as much is
    /// buffered (at least one more piece; at most `limit`, when that is more
    /// than `tried`). Parsing again after every piece would re-parse a value
    /// that spans n pieces n times (quadratic: a state's `values` is the whole
    /// state); doubling parses it O(log n) times, O(size) bytes in all.
    fn fill_more(&mut self, tried: usize, limit: usize) -> Result<(), InputError> {
        let want = tried.saturating_mul(2).min(limit).max(tried + 1);
        while self.buf.len() - self.pos < want && self.fill()? {}
        Ok(())
    }

    /// Parse one value starting at `pos` and pass it to `f`; read more and retry
    /// while it does not fit in the buffer. A value still incomplete once `limit`
    /// bytes or more are buffered is left alone: `Ok(false)`.
    fn with_value<T, F>(&mut self, mut f: F, limit: usize) -> Result<bool, InputError>
    where
        T: for<'x> serde::Deserialize<'x>,
        F: FnMut(T),
    {
        let mut last_err = None;
        loop {
            let outcome = {
                let text = &self.buf[self.pos..];
                let mut it = serde_json::Deserializer::from_str(text).into_iter::<T>();
                match it.next() {
                    Some(Ok(v)) if it.byte_offset() < text.len() || self.eof => Ok(Some((it.byte_offset(), v))),
                    Some(Err(e)) => Err(e),
                    None if self.eof => return Err(self.eof("EOF while parsing a value")),
                    _ => Ok(None),
                }
            };
            #[cfg(test)]
            tally::parsed(match &outcome {
                Ok(Some((n, _))) => *n,
                _ => self.buf.len() - self.pos,
            });
            match outcome {
                Ok(Some((n, v))) => {
                    self.pos += n;
                    f(v);
                    return Ok(true);
                }
                Err(e) => self.retry_or_fail(&e, &mut last_err)?,
                Ok(None) => {}
            }
            let tried = self.buf.len() - self.pos;
            if tried >= limit {
                return Ok(false);
            }
            self.fill_more(tried, limit)?;
        }
    }

    /// An owned value that is expected to be small (a key, a kept top-level value).
    fn parse_small<T: for<'x> serde::Deserialize<'x>>(&mut self) -> Result<T, InputError> {
        let mut out = None;
        self.with_value::<T, _>(|v| out = Some(v), usize::MAX)?;
        out.ok_or_else(|| self.eof("EOF while parsing a value"))
    }

    /// Check and skip one value, walking into containers too big for the window.
    fn skip_value(&mut self, depth: usize) -> Result<(), InputError> {
        if depth > crate::scan::MAX_DEPTH {
            // A guard for the recursion: the read-ahead scan stops deeper input first.
            let (l, c) = self.location(self.pos);
            return Err(too_deep(self.name, l, c));
        }
        let container = matches!(self.peek()?, Some(b'{' | b'['));
        if self.with_value::<IgnoredAny, _>(|_| {}, if container { SKIP_WINDOW } else { usize::MAX })? {
            return Ok(());
        }
        // Too big: walk its members.
        if self.peek()? == Some(b'{') {
            self.members(|r, _| r.skip_value(depth + 1))
        } else {
            self.elements(|r| r.skip_value(depth + 1))
        }
    }

    /// Walk the object at `pos`: for each member, `f` is called with the key,
    /// positioned on its value, and must consume the value.
    fn members(&mut self, mut f: impl FnMut(&mut Self, String) -> Result<(), InputError>) -> Result<(), InputError> {
        self.expect(b'{', "expected `{`")?;
        let mut first = true;
        while self.next_item(&mut first, b'}', "expected `,` or `}`", "EOF while parsing an object")? {
            let key = self.parse_small::<String>()?;
            self.skip_ws()?;
            self.expect(b':', "expected `:`")?;
            self.skip_ws()?;
            f(self, key)?;
        }
        Ok(())
    }

    /// Walk the array at `pos`: `f` is called on each element and must consume it.
    fn elements(&mut self, mut f: impl FnMut(&mut Self) -> Result<(), InputError>) -> Result<(), InputError> {
        self.expect(b'[', "expected `[`")?;
        let mut first = true;
        while self.next_item(&mut first, b']', "expected `,` or `]`", "EOF while parsing a list")? {
            f(self)?;
        }
        Ok(())
    }

    /// Step to a container's next item: `Ok(false)` once its `close` is passed,
    /// `Ok(true)` on an item (past the `,` before it, but for the first).
    fn next_item(&mut self, first: &mut bool, close: u8, unexpected: &str, eof: &str) -> Result<bool, InputError> {
        self.skip_ws()?;
        match self.peek()? {
            Some(b) if b == close => {
                self.pos += 1;
                return Ok(false);
            }
            Some(b',') if !*first => {
                self.pos += 1;
                self.skip_ws()?;
            }
            Some(_) if *first => {}
            Some(_) => return Err(self.syntax(unexpected)),
            None => return Err(self.eof(eof)),
        }
        *first = false;
        Ok(true)
    }

    /// `planned_values` or `prior_state`: resources to the visitor, and the
    /// skeleton's text for the key (`{"outputs":…}`, or `{"values":{"outputs":…}}`;
    /// `null` for a value that is no object, which a whole read could not use either).
    fn walk_values_holder(&mut self, holder: &ValuesHolder, visitor: &mut dyn PlanVisitor) -> Result<String, InputError> {
        let prior = holder.inner.is_some();
        if self.peek()? != Some(b'{') {
            if prior && self.peek()? != Some(b'n') {
                // `null` is no prior state; anything else but an object cannot be one.
                self.refuse_unless::<crate::model::State<'_>>(visitor)?;
                return Ok("null".into());
            }
            self.skip_value(0)?;
            return Ok("null".into());
        }
        let Some(inner) = holder.inner else { return self.walk_values(visitor, false) };
        let mut kept = None;
        let mut fields = Fields::new(&["format_version", "terraform_version", "values", "checks"]);
        self.members(|r, key| {
            fields.check(&key, visitor);
            if key == inner && r.peek()? == Some(b'{') {
                kept = Some(r.walk_values(visitor, true)?);
                Ok(())
            } else {
                match key.as_str() {
                    "format_version" | "terraform_version" => r.refuse_unless::<Option<String>>(visitor),
                    "values" => r.refuse_unless::<Option<crate::model::Values<'_>>>(visitor),
                    "checks" => r.refuse_unless::<Option<Vec<CheckObject>>>(visitor),
                    _ => r.skip_value(1),
                }
            }
        })?;
        Ok(match kept {
            Some(values) => format!("{{{}:{values}}}", serde_json::to_string(inner).unwrap_or_default()),
            None => "{}".into(),
        })
    }

    /// Read the value at `pos` as a `T` would be read by a whole read of
    /// `prior_state`; if it would not be, say why ([`Prior::Refused`]).
    fn refuse_unless<T>(&mut self, visitor: &mut dyn PlanVisitor) -> Result<(), InputError>
    where
        T: ReadAs,
    {
        let raw = self.parse_small::<Box<RawValue>>()?;
        if let Err(e) = T::read(raw.get()) {
            visitor.on_prior(Prior::Refused(crate::read::serde_message(&e)));
        }
        Ok(())
    }

    /// A values representation (an object): `root_module` walked, `outputs` kept.
    fn walk_values(&mut self, visitor: &mut dyn PlanVisitor, prior: bool) -> Result<String, InputError> {
        let mut outputs = None;
        let mut fields = Fields::new(&["outputs", "root_module"]);
        self.members(|r, key| {
            if prior {
                fields.check(&key, visitor);
            }
            match key.as_str() {
                "outputs" => {
                    let raw = r.parse_small::<Box<RawValue>>()?;
                    if prior {
                        if let Err(e) = serde_json::from_str::<std::collections::BTreeMap<String, crate::model::OutputValue<'_>>>(raw.get())
                        {
                            visitor.on_prior(Prior::Refused(crate::read::serde_message(&e)));
                        }
                    }
                    outputs = Some(raw);
                    Ok(())
                }
                "root_module" => r.walk_module(visitor, 2, prior),
                _ => r.skip_value(2),
            }
        })?;
        Ok(match outputs {
            Some(o) => format!("{{\"outputs\":{}}}", o.get()),
            None => "{}".into(),
        })
    }

    /// A module of a values representation: each resource parsed and passed on
    /// (one at a time; an element that is no resource is skipped, as a whole
    /// read skips what it cannot read there), child modules walked likewise.
    /// In `prior_state` (`prior`), the module tree is told to [`PlanVisitor::on_prior`].
    fn walk_module(&mut self, visitor: &mut dyn PlanVisitor, depth: usize, prior: bool) -> Result<(), InputError> {
        if depth > crate::scan::MAX_DEPTH {
            let (l, c) = self.location(self.pos);
            return Err(too_deep(self.name, l, c));
        }
        if self.peek()? != Some(b'{') {
            if prior {
                return self.refuse_unless::<crate::model::Module<'_>>(visitor);
            }
            return self.skip_value(depth);
        }
        if prior {
            visitor.on_prior(Prior::Module);
        }
        let mut address: Option<String> = None;
        let mut fields = Fields::new(&["address", "resources", "child_modules"]);
        self.members(|r, key| {
            if prior {
                fields.check(&key, visitor);
            }
            match key.as_str() {
                "resources" if r.peek()? == Some(b'[') => r.elements(|r| {
                    if r.values_resource(visitor, prior)? {
                        return Ok(());
                    }
                    // Not read as a resource: checked as JSON, and skipped if it is none.
                    let raw = r.parse_small::<Box<RawValue>>()?;
                    match serde_json::from_str::<ResourceValue<'_>>(raw.get()) {
                        Ok(rv) => {
                            visitor.on_values_resource(&rv);
                            if prior {
                                visitor.on_prior(Prior::Resource(&rv));
                            }
                        }
                        Err(e) if prior => visitor.on_prior(Prior::Refused(crate::read::serde_message(&e))),
                        Err(_) => {}
                    }
                    Ok(())
                }),
                "child_modules" if r.peek()? == Some(b'[') => r.elements(|r| r.walk_module(visitor, depth + 2, prior)),
                "address" if prior => {
                    let raw = r.parse_small::<Box<RawValue>>()?;
                    match serde_json::from_str::<Option<String>>(raw.get()) {
                        Ok(a) => address = a,
                        Err(e) => visitor.on_prior(Prior::Refused(crate::read::serde_message(&e))),
                    }
                    Ok(())
                }
                "resources" | "child_modules" if prior => r.refuse_unless::<Vec<IgnoredAny>>(visitor),
                _ => r.skip_value(depth + 1),
            }
        })?;
        if prior {
            visitor.on_prior(Prior::EndModule(address.as_deref()));
        }
        Ok(())
    }

    /// The resource at `pos` parsed in place (one pass over its text) and
    /// passed to the visitor: `Ok(true)`. `Ok(false)` (nothing consumed) when
    /// it does not read as a resource: the caller checks and skips it.
    fn values_resource(&mut self, visitor: &mut dyn PlanVisitor, prior: bool) -> Result<bool, InputError> {
        loop {
            let done = {
                let text = &self.buf[self.pos..];
                let mut it = serde_json::Deserializer::from_str(text).into_iter::<ResourceValue<'_>>();
                match it.next() {
                    Some(Ok(rv)) if it.byte_offset() < text.len() || self.eof => {
                        visitor.on_values_resource(&rv);
                        if prior {
                            visitor.on_prior(Prior::Resource(&rv));
                        }
                        Some(it.byte_offset())
                    }
                    Some(Err(e)) if !e.is_eof() || self.eof => return Ok(false),
                    None => return Ok(false),
                    _ => None,
                }
            };
            #[cfg(test)]
            tally::parsed(done.unwrap_or(self.buf.len() - self.pos));
            if let Some(n) = done {
                self.pos += n;
                return Ok(true);
            }
            self.fill_more(self.buf.len() - self.pos, usize::MAX)?;
        }
    }

    /// `null` or an array of resource changes, each passed to `f` and dropped.
    fn stream_array(&mut self, mut f: impl FnMut(&ResourceChange<'_>, &str)) -> Result<(), InputError> {
        match self.peek()? {
            Some(b'n') => return self.skip_value(0),
            Some(b'[') => self.pos += 1,
            Some(_) => return Err(self.syntax("expected an array of resource changes")),
            None => return Err(self.eof("EOF while parsing a value")),
        }
        let mut first = true;
        while self.next_item(&mut first, b']', "expected `,` or `]`", "EOF while parsing a list")? {
            let mut last_err = None;
            loop {
                let outcome = {
                    let text = &self.buf[self.pos..];
                    let mut it = serde_json::Deserializer::from_str(text).into_iter::<ResourceChange<'_>>();
                    match it.next() {
                        Some(Ok(rc)) if it.byte_offset() < text.len() || self.eof => {
                            f(&rc, &text[..it.byte_offset()]);
                            Ok(Some(it.byte_offset()))
                        }
                        Some(Err(e)) => Err(e),
                        None if self.eof => return Err(self.eof("EOF while parsing a list")),
                        _ => Ok(None),
                    }
                };
                #[cfg(test)]
                tally::parsed(match &outcome {
                    Ok(Some(n)) => *n,
                    _ => self.buf.len() - self.pos,
                });
                match outcome {
                    Ok(Some(n)) => {
                        self.pos += n;
                        break;
                    }
                    Err(e) => self.retry_or_fail(&e, &mut last_err)?,
                    Ok(None) => {}
                }
                self.fill_more(self.buf.len() - self.pos, usize::MAX)?;
            }
        }
        Ok(())
    }
}

/// A type of the state model a piece of `prior_state` is checked against
/// (borrowing from the text, as a whole read does).
trait ReadAs {
    fn read(text: &str) -> serde_json::Result<()>;
}

impl<T> ReadAs for T
where
    T: for<'x> Borrowing<'x>,
{
    fn read(text: &str) -> serde_json::Result<()> {
        serde_json::from_str::<<T as Borrowing<'_>>::In>(text).map(|_| ())
    }
}

/// `Self` with its lifetime set to that of the text it is read from.
trait Borrowing<'x> {
    type In: serde::Deserialize<'x>;
}

impl<'x> Borrowing<'x> for crate::model::State<'_> {
    type In = crate::model::State<'x>;
}
impl<'x> Borrowing<'x> for crate::model::Module<'_> {
    type In = crate::model::Module<'x>;
}
impl<'x> Borrowing<'x> for Option<crate::model::Values<'_>> {
    type In = Option<crate::model::Values<'x>>;
}
impl<'x> Borrowing<'x> for Option<String> {
    type In = Option<String>;
}
impl<'x> Borrowing<'x> for Option<Vec<CheckObject>> {
    type In = Option<Vec<CheckObject>>;
}
impl<'x> Borrowing<'x> for Vec<IgnoredAny> {
    type In = Vec<IgnoredAny>;
}

/// The fields of a struct of the state model seen so far in one object: a
/// second one is what serde refuses (`duplicate field`); other keys are ignored.
struct Fields {
    names: &'static [&'static str],
    seen: Vec<bool>,
}

impl Fields {
    fn new(names: &'static [&'static str]) -> Self {
        Fields { names, seen: vec![false; names.len()] }
    }

    fn check(&mut self, key: &str, visitor: &mut dyn PlanVisitor) {
        if let Some(i) = self.names.iter().position(|n| *n == key) {
            if std::mem::replace(&mut self.seen[i], true) {
                visitor.on_prior(Prior::Refused(format!("duplicate field `{key}`")));
            }
        }
    }
}

/// Length of the longest prefix that does not end inside a UTF-8 character.
fn complete_prefix(data: &[u8]) -> usize {
    let n = data.len();
    // Look back at most 3 bytes for the lead byte of the last character.
    for back in 1..=n.min(4) {
        let b = data[n - back];
        if b & 0xC0 != 0x80 {
            let need = match b {
                0x00..=0x7F => 1,
                0xC0..=0xDF => 2,
                0xE0..=0xEF => 3,
                _ => 4,
            };
            return if need > back { n - back } else { n };
        }
    }
    n
}

/// Newlines in `bytes`, and characters after the last one.
fn lines_and_col(bytes: &[u8]) -> (usize, usize) {
    // Newlines are few in `show -json` output (none, or one per document):
    // memchr finds them faster than a count over every byte.
    let lines = memchr::memchr_iter(b'\n', bytes).count();
    let tail = match memchr::memrchr(b'\n', bytes) {
        Some(p) => &bytes[p + 1..],
        None => bytes,
    };
    // Most text is ASCII (checked a word at a time): one character per byte.
    let chars = if tail.is_ascii() { tail.len() } else { tail.len() - count_bytes(tail, |b| b & 0xC0 == 0x80) };
    (lines, chars)
}

/// Count bytes matching `f`, in blocks with a `u8` counter so it vectorises.
fn count_bytes(bytes: &[u8], f: impl Fn(u8) -> bool) -> usize {
    bytes.chunks(255).map(|c| usize::from(c.iter().fold(0u8, |n, &b| n + u8::from(f(b))))).sum()
}

/// What the reader did, counted on the parsing thread (tests only): regression
/// tests for costs that grow with the input assert on these, not on time.
#[cfg(test)]
mod tally {
    use std::cell::Cell;

    thread_local! {
        static PARSED: Cell<usize> = const { Cell::new(0) };
        static MAX_BUFFERED: Cell<usize> = const { Cell::new(0) };
    }

    /// serde_json read `n` bytes: a whole value, or all the text it was given for one.
    pub(super) fn parsed(n: usize) {
        PARSED.with(|c| c.set(c.get() + n));
    }

    /// The buffer holds `n` bytes after a refill.
    pub(super) fn buffered(n: usize) {
        MAX_BUFFERED.with(|c| c.set(c.get().max(n)));
    }

    /// Bytes given to serde_json and the largest buffer since the last call; resets both.
    pub(super) fn take() -> (usize, usize) {
        (PARSED.with(|c| c.replace(0)), MAX_BUFFERED.with(|c| c.replace(0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Document;
    use crate::read::parse;

    #[derive(Default, Debug)]
    struct Collect {
        changes: Vec<String>,
        drift: Vec<String>,
        befores: usize,
        values: Vec<String>,
    }

    impl PlanVisitor for Collect {
        fn on_resource_change(&mut self, rc: &ResourceChange<'_>) {
            self.changes.push(rc.address.clone());
            self.befores += usize::from(rc.change.before.is_some());
        }
        fn on_drift(&mut self, rc: &ResourceChange<'_>) {
            self.drift.push(rc.address.clone());
        }
        fn on_values_resource(&mut self, r: &ResourceValue<'_>) {
            self.values.push(r.address.clone());
        }
    }

    /// A reader that returns one byte per read: every boundary is exercised.
    struct Trickle(Vec<u8>, usize);
    impl Read for Trickle {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            match self.0.get(self.1) {
                Some(b) if !out.is_empty() => {
                    out[0] = *b;
                    self.1 += 1;
                    Ok(1)
                }
                _ => Ok(0),
            }
        }
    }

    const PLAN: &str = r#" {"format_version":"1.2","planned_values":{"root_module":{"resources":[{"address":"p.v","values":{"a":[1,2,{"b":"ü"}]}},7]}},
      "resource_drift":[{"address":"d.x","change":{"actions":["update"]}}],
      "resource_changes":[{"address":"a.b","change":{"actions":["create"],"before":null,"after":{"k":"é€😀"}}},
                          {"address":"a.c","change":{"actions":["delete"],"before":{"n":1e3}}}],
      "output_changes":{"o":{"actions":["create"]}},"brand_new":[1,2,3],
      "prior_state":{"format_version":"1.0","values":{"outputs":{"s":{"value":"x","sensitive":true}},
        "root_module":{"child_modules":[{"address":"module.m","resources":[{"address":"module.m.r.s","values":{}}]}]}}},
      "checks":[],"errored":false} "#;

    fn run(json: &[u8], chunk: usize) -> Result<(Collect, String), InputError> {
        run_with(json, chunk, &ReadOptions::default())
    }

    fn run_with(json: &[u8], chunk: usize, opts: &ReadOptions) -> Result<(Collect, String), InputError> {
        let mut c = Collect::default();
        let skel = stream_chunked("p", Trickle(json.to_vec(), 0), ReadAhead::Joined, opts, &mut c, chunk)?;
        Ok((c, skel))
    }

    /// A source that says when the read-ahead thread has let go of it.
    struct Flagged(std::io::Cursor<Vec<u8>>, std::sync::Arc<std::sync::atomic::AtomicBool>);
    impl Read for Flagged {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            self.0.read(out)
        }
    }
    impl Drop for Flagged {
        fn drop(&mut self) {
            self.1.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }

    #[test]
    fn a_joined_read_ahead_thread_has_ended_when_the_stream_returns() {
        // Guards the fuzzer's leak report: a file's read-ahead thread outlived
        // the call after an early error. 2 MB after the error, read 64 bytes at a time.
        for (what, json) in [("error", format!("{{\"format_version\":[}} {}", " ".repeat(2 << 20))), ("success", PLAN.to_string())] {
            let dropped = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            let src = Flagged(std::io::Cursor::new(json.into_bytes()), dropped.clone());
            let r = stream_chunked("p", src, ReadAhead::Joined, &ReadOptions::default(), &mut Collect::default(), 64);
            assert_eq!(r.is_ok(), what == "success", "{what}: {r:?}");
            assert!(dropped.load(std::sync::atomic::Ordering::SeqCst), "{what}: the read-ahead thread still holds the source");
        }
    }

    #[test]
    fn streamed_elements_and_skeleton_match_a_whole_read() {
        for chunk in [1, 2, 3, 5, 64, CHUNK] {
            let (c, skel) = run(PLAN.as_bytes(), chunk).unwrap();
            assert_eq!(c.changes, vec!["a.b", "a.c"]);
            assert_eq!(c.drift, vec!["d.x"]);
            assert_eq!(c.befores, 1);
            let doc = parse("p", skel.as_bytes()).unwrap();
            let Document::Plan(p) = doc else { panic!("not a plan") };
            assert_eq!(p.format_version, "1.2");
            // Values resources were streamed (the element that is no resource skipped);
            // only the outputs stay in the skeleton.
            assert_eq!(c.values, vec!["p.v", "module.m.r.s"]);
            assert!(p.resource_changes.is_empty());
            assert_eq!(p.planned_values.map(|r| r.get()), Some("{}"));
            assert_eq!(p.prior_state.map(|r| r.get()), Some(r#"{"values":{"outputs":{"s":{"value":"x","sensitive":true}}}}"#));
            assert_eq!(p.output_changes.len(), 1);
            assert!(skel.contains(r#""brand_new":null"#), "{skel}");
        }
    }

    #[test]
    fn skipping_walks_values_bigger_than_the_window() {
        let big: String = (0..150_000).map(|i| format!("{{\"k{i}\":[\"v\",{i},true,null]}}")).collect::<Vec<_>>().join(",");
        let json = format!(
            r#"{{"format_version":"1.2","prior_state":{{"values":[{big}]}},"resource_changes":[{{"address":"x","change":{{"actions":["no-op"]}}}}]}}"#
        );
        assert!(json.len() > 2 * SKIP_WINDOW);
        let (c, _) = run(json.as_bytes(), CHUNK).unwrap();
        assert_eq!(c.changes, vec!["x"]);
        let broken = json.replace("\"k149999\":[\"v\",149999", "\"k149999\":[\"v\" 149999");
        let e = run(broken.as_bytes(), CHUNK).unwrap_err();
        let whole = parse("p", broken.as_bytes()).unwrap_err();
        assert!(e.message.contains("invalid JSON"), "{e}");
        assert_eq!((e.line, e.column), (whole.line, whole.column), "{e} / {whole}");
    }

    /// Errors name the same place, with the same hint, as a whole-document read.
    #[test]
    fn errors_match_a_whole_read() {
        let cases: &[&[u8]] = &[
            b"{\"format_version\":\"1.2\",\n\"resource_changes\":[\n{\"address\":\"a\",\"change\":{\"actions\":[\"create\"]}},\n{\"address\":\"b\" \"change\":{}}]}",
            b"{\"format_version\":\"1.2\",\n\"resource_changes\":[\n{\"address\":\"a\",\"change\":{\"actions\":[\"create\"]}}",
            b"{\"format_version\":\"1.0\"} {}",
            b"{\"format_version\":\n\"1.0\", \"a\":\"\xC3\x28\"}",
            b"{\"format_version\":\"1.2\",\"planned_values\":{\"x\":[1,2,,3]}}",
            b"  ",
            b"\xEF\xBB\xBF{}",
            b"[1]",
            b"$ tofu show -json\n{}",
            b"{\"format_version\":\"1.0\"}\nDone.",
            b"{\"format_version\":\"1.2\",\n\"resource_changes\":[],\"resource_changes\":[]}",
            b"{\"format_version\":\"1.2\",\"resource_changes\":[{\"address\":\"a\",\"address\":\"b\",\"change\":{\"actions\":[]}}]}",
            &[b'['; 300],
            b"\x0c{\"format_version\":\"1.0\"}",
            b"{\"format_version\":\"1.0\"}\x0c",
            b"{\"format_version\":\"1.2\",\n\"x\":\"[[[\", \"y\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
        ];
        let lenient_cases: &[&[u8]] = &[
            b"$ tofu show -json\n{\"format_version\":\"1.0\"} {}",
            b"\xEF\xBB\xBFnoise {\"format_version\":\"1.0\",\n\"x\":[1,,2]}",
            b"noise\nno json here",
            b"\xFF\xFE{\x00}\x00",
            b"\x0c\x0b noise\n\x0c{\"format_version\":\"1.0\",\"x\":[1,,2]}",
            b"{\"format_version\":\"1.0\"}\n::debug::done\n\n \t{\"format_version\":\"1.0\"}\n",
            b"{\"format_version\":\"1.0\"} Done. \xC3\xA9t\xC3\xA9\r\n{}",
        ];
        let strict = ReadOptions::default();
        let lenient = ReadOptions { lenient: true, ..Default::default() };
        for (opts, case) in cases.iter().map(|c| (&strict, c)).chain(lenient_cases.iter().map(|c| (&lenient, c))) {
            let whole = crate::read::parse_with("p", case, opts).unwrap_err();
            for chunk in [1, 3, CHUNK] {
                let e = run_with(case, chunk, opts).unwrap_err();
                assert_eq!((e.line, e.column), (whole.line, whole.column), "{e} / {whole}");
                assert_eq!(e.hint, whole.hint, "{e} / {whole}");
                assert_eq!(e.message, whole.message, "{e} / {whole}");
            }
        }
    }

    #[test]
    fn lenient_reads_what_a_whole_read_reads_and_warns_the_same() {
        let cases: &[&[u8]] = &[
            b"$ tofu show -json plan.out\n{\"format_version\":\"1.2\",\"resource_changes\":[{\"address\":\"a\",\"mode\":\"managed\",\"change\":{\"actions\":[\"delete\"]}}]}\n::debug::done",
            b"\xEF\xBB\xBF{\"format_version\":\"1.0\"}",
            b"  {\"format_version\":\"1.0\"}  ",
            b"\x0c{\"format_version\":\"1.0\"}\x0c",
        ];
        for case in cases {
            let opts = ReadOptions { lenient: true, ..Default::default() };
            crate::read::parse_with("p", case, &opts).unwrap();
            let whole = opts.notes.take();
            for chunk in [1, 3, CHUNK] {
                let opts = ReadOptions { lenient: true, ..Default::default() };
                run_with(case, chunk, &opts).unwrap();
                assert_eq!(opts.notes.take(), whole, "chunk {chunk}");
            }
        }
    }

    fn run_fast(json: &str, chunk: usize, opts: &ReadOptions) -> Result<(Collect, String), InputError> {
        let mut c = Collect::default();
        let src = std::io::Cursor::new(json.as_bytes().to_vec());
        let skel = stream_chunked("p", src, ReadAhead::Joined, opts, &mut c, chunk)?;
        Ok((c, skel))
    }

    /// A value spanning many refills is parsed a few times, not once per refill:
    /// `summary` of a big state was quadratic (a state's `values` is one value).
    #[test]
    fn a_value_spanning_many_refills_is_not_parsed_again_at_each_refill() {
        let resources: Vec<String> = (0..4000)
            .map(|i| {
                format!(r#"{{"address":"t.r[{i}]","mode":"managed","type":"t","name":"r","values":{{"id":"{i:08}","tags":{{"k":"v"}}}}}}"#)
            })
            .collect();
        let resources = resources.join(",");
        let state =
            format!(r#"{{"format_version":"1.0","terraform_version":"1.9.0","values":{{"root_module":{{"resources":[{resources}]}}}}}}"#);
        // One big resource change (streamed) after a big skipped value that fits the window.
        let plan = format!(
            r#"{{"format_version":"1.2","prior_state":{{"values":[{resources}]}},"resource_changes":[{{"address":"big","change":{{"actions":["create"],"after":[{resources}]}}}}]}}"#
        );
        assert!(state.len() > 300 << 10 && plan.len() < SKIP_WINDOW + (300 << 10));
        for (what, json) in [("state", &state), ("plan", &plan)] {
            tally::take();
            let (c, skel) = run_fast(json, 4 << 10, &ReadOptions::default()).unwrap();
            let (parsed, _) = tally::take();
            // Once per refill, this was about len² / (2 × 4 KB): 20 MB and more.
            assert!(parsed <= 4 * json.len(), "{what}: {parsed} bytes parsed for {} bytes of input", json.len());
            if what == "state" {
                assert!(skel.contains(r#""address":"t.r[3999]""#));
                assert!(matches!(parse("p", skel.as_bytes()).unwrap(), Document::State(_)));
            } else {
                assert_eq!(c.changes, vec!["big"]);
            }
        }
    }

    /// Blanks before the document are dropped as they arrive, neither kept nor
    /// scanned again at each refill, and errors still name the right place.
    #[test]
    fn leading_blanks_are_dropped_as_they_arrive() {
        let blanks = " \n\t\r ".repeat(200 << 10); // 1 MB, 200k lines
        let json = format!("{blanks}{PLAN}");
        tally::take();
        let (c, _) = run_fast(&json, 4 << 10, &ReadOptions::default()).unwrap();
        let (_, buffered) = tally::take();
        assert_eq!(c.changes, vec!["a.b", "a.c"]);
        // Kept whole, the buffer grew to the 1 MB of blanks.
        assert!(buffered <= 3 * (4 << 10), "the buffer held {buffered} bytes");

        let strict = ReadOptions::default();
        let lenient = ReadOptions { lenient: true, ..Default::default() };
        let blanks = &blanks[..20 << 10];
        let cases = [
            format!("{blanks}[1]"),
            format!("{blanks}PK\u{3}\u{4}junk"),
            format!("{blanks}junk\n{PLAN}"),
            format!("{blanks}{{\"format_version\":\"1.2\",\n\"x\":[1,,2]}}"),
            format!("{blanks}{}", "[".repeat(300)),
            format!("{blanks}{{\"format_version\":\"1.2\",\"x\":{}", "[".repeat(300)),
            blanks.to_string(),
        ];
        for case in &cases {
            for opts in [&strict, &lenient] {
                let whole = crate::read::parse_with("p", case.as_bytes(), opts);
                let whole_notes = opts.notes.take();
                for chunk in [1, 7, 4 << 10, CHUNK] {
                    let streamed = run_fast(case, chunk, opts);
                    assert_eq!(opts.notes.take(), whole_notes, "chunk {chunk}");
                    match (&whole, streamed) {
                        (Err(whole), Err(e)) => {
                            assert_eq!((e.line, e.column), (whole.line, whole.column), "{e} / {whole}");
                            assert_eq!((&e.message, &e.hint), (&whole.message, &whole.hint), "{e} / {whole}");
                        }
                        (Ok(_), Ok(_)) => {}
                        (whole, streamed) => panic!("chunk {chunk}: whole {:?}, streamed {:?}", whole.is_ok(), streamed.map(|_| ())),
                    }
                }
            }
        }
    }
}
