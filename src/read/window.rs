//! The window a streamed document is read through ([`Reader`]): validated
//! text from a position on, refilled from the reading thread's pieces on
//! demand, the consumed front dropped, and every offset told as the line and
//! column of the whole input.

use super::stream::Piece;
use super::{
    check_start_at, json_error_at, second_document, skipped_prefix, sniff_encoding, too_blank, too_deep, too_long_trailer, two_documents,
    ReadOptions, MAX_BLANKS, MAX_TRAILER,
};
use crate::error::InputError;

/// A window on the input: validated text from `pos` on, refilled on demand.
pub(super) struct Reader<'n> {
    pub(super) name: &'n str,
    pub(super) src: std::sync::mpsc::Receiver<Piece>,
    /// Validated text; `buf[..pos]` is consumed.
    pub(super) buf: String,
    pub(super) pos: usize,
    pub(super) eof: bool,
    /// Lines (`\n`) in the text dropped from the front of `buf`.
    pub(super) base_lines: usize,
    /// Characters since the last newline in the dropped text.
    pub(super) base_col: usize,
    /// Bytes dropped from the front of `buf`.
    pub(super) dropped: usize,
    /// Nothing but leading blanks read yet: what the input starts with is
    /// still to be judged ([`Reader::start`]).
    pub(super) starting: bool,
}

impl<'n> Reader<'n> {
    pub(super) fn new(name: &'n str, src: std::sync::mpsc::Receiver<Piece>) -> Self {
        Reader { name, src, buf: String::new(), pos: 0, eof: false, base_lines: 0, base_col: 0, dropped: 0, starting: true }
    }

    /// Read until the first non-blank character (or the end), then check it
    /// opens an object. `--lenient`: skip to the first `{`, with a warning.
    pub(super) fn start(&mut self, opts: &ReadOptions) -> Result<(), InputError> {
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
    pub(super) fn check_start(&self) -> Result<(), InputError> {
        check_start_at(self.name, &self.buf, self.dropped == 0, &|at| self.location(at))
    }

    /// Take the next piece of text from the read-ahead thread. Returns false at the end.
    pub(super) fn fill(&mut self) -> Result<bool, InputError> {
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
    pub(super) fn forget_consumed(&mut self) {
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
    pub(super) fn location(&self, at: usize) -> (usize, usize) {
        let (lines, col) = lines_and_col(&self.buf.as_bytes()[..at.min(self.buf.len())]);
        if lines > 0 {
            (self.base_lines + lines + 1, col + 1)
        } else {
            (self.base_lines + 1, self.base_col + col + 1)
        }
    }

    pub(super) fn peek(&mut self) -> Result<Option<u8>, InputError> {
        loop {
            if let Some(&b) = self.buf.as_bytes().get(self.pos) {
                return Ok(Some(b));
            }
            if !self.fill()? && self.pos >= self.buf.len() {
                return Ok(None);
            }
        }
    }

    pub(super) fn skip_ws(&mut self) -> Result<(), InputError> {
        loop {
            let rest = &self.buf.as_bytes()[self.pos..];
            let n = crate::index::json_ws_len(rest);
            self.pos += n;
            if n < rest.len() || !self.fill()? {
                return Ok(());
            }
        }
    }

    /// [`Reader::skip_ws`], but false once the blanks go on past the offset
    /// `limit` of the input (the reader is left somewhere past it).
    pub(super) fn skip_ws_upto(&mut self, limit: usize) -> Result<bool, InputError> {
        loop {
            let rest = &self.buf.as_bytes()[self.pos..];
            let n = crate::index::json_ws_len(rest);
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
    pub(super) fn check_trailer(&mut self, end: usize) -> Result<(), InputError> {
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

    pub(super) fn expect(&mut self, want: u8, what: &str) -> Result<(), InputError> {
        match self.peek()? {
            Some(b) if b == want => {
                self.pos += 1;
                Ok(())
            }
            Some(_) => Err(self.syntax(what)),
            None => Err(self.eof(&format!("EOF while parsing ({what})"))),
        }
    }

    pub(super) fn syntax(&self, msg: &str) -> InputError {
        let (l, c) = self.location(self.pos);
        InputError::new(self.name, format!("invalid JSON: {msg}")).at(l, c)
    }

    /// At the end of the input: placed on its last character, as serde_json does.
    pub(super) fn eof(&self, msg: &str) -> InputError {
        let (l, c) = self.location(self.buf.len());
        InputError::new(self.name, format!("invalid JSON: {msg}"))
            .at(l, c.saturating_sub(1).max(1))
            .hint("the JSON ends too early: was the file truncated?")
    }

    /// A serde_json error for a value that starts at `start` in `buf`.
    pub(super) fn json_error(&self, start: usize, e: &serde_json::Error) -> InputError {
        json_error_at(self.name, e, self.location(start))
    }

    /// A value that fails to parse may only be cut short by the end of the
    /// buffer (`1e` of `1e3`): read more and retry, unless the input has ended or
    /// the same error comes back with more text.
    pub(super) fn retry_or_fail(&self, e: &serde_json::Error, last: &mut Option<(usize, usize)>) -> Result<(), InputError> {
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
    pub(super) fn fill_more(&mut self, tried: usize, limit: usize) -> Result<(), InputError> {
        let want = tried.saturating_mul(2).min(limit).max(tried + 1);
        while self.buf.len() - self.pos < want && self.fill()? {}
        Ok(())
    }

    /// Parse one value starting at `pos` and pass it to `f`; read more and retry
    /// while it does not fit in the buffer. A value still incomplete once `limit`
    /// bytes or more are buffered is left alone: `Ok(false)`.
    pub(super) fn with_value<T, F>(&mut self, mut f: F, limit: usize) -> Result<bool, InputError>
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

    /// Check one value starting at `pos` (serde_json's checks and messages,
    /// as a `RawValue` gets them) and append its text to `out`, copied once
    /// from the window: a kept value (a state's `values`, the whole of a
    /// 70 MB state) is not held twice.
    pub(super) fn keep_value(&mut self, out: &mut String) -> Result<(), InputError> {
        // A refill may drop the consumed text before the value: count from the input's start.
        let from = self.dropped + self.pos;
        let mut checked = false;
        self.with_value::<serde::de::IgnoredAny, _>(|_| checked = true, usize::MAX)?;
        if !checked {
            return Err(self.eof("EOF while parsing a value"));
        }
        out.push_str(&self.buf[from - self.dropped..self.pos]);
        Ok(())
    }

    /// An owned value that is expected to be small (a key, a kept top-level value).
    pub(super) fn parse_small<T: for<'x> serde::Deserialize<'x>>(&mut self) -> Result<T, InputError> {
        let mut out = None;
        self.with_value::<T, _>(|v| out = Some(v), usize::MAX)?;
        out.ok_or_else(|| self.eof("EOF while parsing a value"))
    }
}

/// Length of the longest prefix that does not end inside a UTF-8 character.
pub(super) fn complete_prefix(data: &[u8]) -> usize {
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
pub(super) mod tally {
    use std::cell::Cell;

    thread_local! {
        static PARSED: Cell<usize> = const { Cell::new(0) };
        static MAX_BUFFERED: Cell<usize> = const { Cell::new(0) };
    }

    /// serde_json read `n` bytes: a whole value, or all the text it was given for one.
    pub(in crate::read) fn parsed(n: usize) {
        PARSED.with(|c| c.set(c.get() + n));
    }

    /// The buffer holds `n` bytes after a refill.
    pub(in crate::read) fn buffered(n: usize) {
        MAX_BUFFERED.with(|c| c.set(c.get().max(n)));
    }

    /// Bytes given to serde_json and the largest buffer since the last call; resets both.
    pub(in crate::read) fn take() -> (usize, usize) {
        (PARSED.with(|c| c.replace(0)), MAX_BUFFERED.with(|c| c.replace(0)))
    }
}
