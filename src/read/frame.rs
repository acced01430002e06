//! Framing: where the documents of one input start and end, and what lies
//! between and after them. [`Splitter`] finds them in one pass, each
//! starting on a line of its own (after blanks); the text between two of
//! them is an error unless `--lenient`, which warns about each skipped piece.
//! A line before a document that names a working directory (Terragrunt's log
//! prefixes) names the document. [`split_whole`] splits an input read whole.
//! After a single document, the text is a trailer `--lenient` may skip,
//! unless a second document starts there ([`second_document`]).

use super::ReadOptions;
use crate::error::InputError;

/// The key that names a document's format (`"format_version"`, HCP's
/// `"plan_format_version"`), without its quotes: text that `--lenient` would
/// skip is never skipped when it holds it followed by a quote, plain or
/// escaped (`\"`, a document inside a quoted log message): a document
/// planview did not read, such as a plan behind a log prefix.
pub(crate) const HIDDEN_KEY: &[u8] = b"format_version";

/// [`key_step`]'s state once the key and its closing quote are matched.
pub(crate) const KEY_FOUND: usize = HIDDEN_KEY.len() + 1;

/// How much of [`HIDDEN_KEY`] and its closing quote is matched after byte
/// `b`, given `matched` before it ([`KEY_FOUND`]: all). No proper suffix of a
/// match is a prefix of the key but the empty one, so a mismatch restarts
/// from nothing, or from `b`.
pub(crate) fn key_step(matched: usize, b: u8) -> usize {
    match HIDDEN_KEY.get(matched) {
        Some(&want) if want == b => matched + 1,
        None if matched == HIDDEN_KEY.len() && (b == b'"' || b == b'\\') => KEY_FOUND,
        _ => usize::from(b == HIDDEN_KEY[0]),
    }
}

/// Where a trailer's scan is at the end of a piece ([`second_document`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct TrailerScan {
    /// Only blanks since the line began.
    pub line_start: bool,
    /// How much of [`HIDDEN_KEY`] the last bytes match.
    key: usize,
}

impl TrailerScan {
    /// One byte of the trailer: whether a second document starts at it (a
    /// `{` that starts a line, or the last byte of a `format_version` key).
    fn step(&mut self, b: u8) -> bool {
        match b {
            b'\n' => {
                self.line_start = true;
                self.key = 0;
            }
            b' ' | b'\t' | b'\r' => self.key = 0,
            b'{' if self.line_start => return true,
            _ => {
                self.line_start = false;
                self.key = key_step(self.key, b);
                return self.key == KEY_FOUND;
            }
        }
        false
    }

    /// At the start of a line, or not.
    pub(crate) fn new(line_start: bool) -> Self {
        TrailerScan { line_start, key: 0 }
    }
}

/// The offset in `rest` (text after a document) of a second document, which
/// `--lenient` must not skip as a trailer: a `{` that starts a line (after
/// blanks), or the end of a `format_version` key anywhere (a document behind
/// a prefix, `::debug::{"format_version":...}`). `scan` says where the scan
/// of the text before `rest` was, and is left where it is at its end (to go
/// on with the next piece).
///
/// Why a loop of its own, apart from the one framer ([`Splitter`], whose gap
/// state tracks the same two things: a `{` on a blank line starts the next
/// document there, and [`key_step`] finds a hidden key): it reads only what
/// follows the *last* document, only with `--lenient`, only when that text is
/// not blank and does not start with a bracket, at most [`crate::read::MAX_TRAILER`]
/// bytes, once per input, and only after serde_json has parsed the document
/// (the trailer starts where serde_json ended, which the framer does not
/// know). Where the framer ran first (`split_whole`, the pool), a `{` on a
/// line of its own was already cut as a document of its own, so the framer's
/// verdict on this text would be the same walk again; where it did not (the
/// read-ahead thread's framer stops at the document's end: what follows is
/// the parser's to judge), there is nothing to fold it into. Within a line
/// with no key begun it skips to the next newline or `f` at once (`memchr2`);
/// byte by byte it cost 18 instructions a byte (callgrind, `summary --lenient`
/// of a 2 MB plan followed by 1 MB of log lines: 19 M).
pub(crate) fn second_document(rest: &[u8], scan: &mut TrailerScan) -> Option<usize> {
    let mut i = 0;
    while i < rest.len() {
        if scan.key == 0 && !scan.line_start {
            // Within a line, no key begun: only a newline or a key's `f` can
            // change anything (every other byte leaves the scan as it is).
            i += memchr::memchr2(b'\n', b'f', &rest[i..])?;
        }
        if scan.step(rest[i]) {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// [`second_document`] byte by byte: the reference the tests hold its skips to.
#[cfg(test)]
pub(crate) fn second_document_bytes(rest: &[u8], scan: &mut TrailerScan) -> Option<usize> {
    rest.iter().position(|&b| scan.step(b))
}

/// The first bracket nested deeper than [`crate::index::MAX_DEPTH`] in the
/// value that starts `text` (after blanks), found by the framer's walk over
/// the index; nothing after the value's end is looked at.
pub(crate) fn too_deep_in(text: &[u8]) -> Option<usize> {
    let start = crate::index::blanks(text, 0);
    let mut walk = crate::scan::Walk { text: crate::scan::Text::Value, depth: 0 };
    match walk.run(text, start, false) {
        (at, crate::scan::Met::TooDeep) => Some(at),
        _ => None,
    }
}

/// The most documents read from one input.
pub(crate) const MAX_DOCUMENTS: usize = 10_000;

/// The most text between two documents (more, and what follows is taken for
/// the last document's trailer, as with one document).
const MAX_GAP: usize = crate::read::MAX_TRAILER;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum St {
    /// Before the first document.
    Prefix,
    /// In a document.
    Doc(crate::scan::Text),
    /// After a document: blanks, text, or the next document.
    Gap,
    /// Nothing more to split: the rest belongs to the current document.
    Through,
}

/// Where the documents of an input start and end, found as it is fed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Cut {
    /// The first document starts; `name` from the line before it.
    First { name: Option<String> },
    /// The current document ends just before `at`.
    End { at: usize },
    /// Another document, the `n`th, starts at `at` (the start of its line, line
    /// `line`; or, after Terragrunt's prefix, its `{`, `pad` characters into the
    /// line), after text between the documents at lines `text` (first, last) if
    /// any, in which a document that is not read may hide (`hidden`: the line
    /// and column of its `format_version` key).
    Start {
        at: usize,
        line: usize,
        name: Option<String>,
        text: Option<(usize, usize)>,
        n: usize,
        pad: usize,
        hidden: Option<(usize, usize)>,
    },
    /// No more splitting: what follows (the text after the last document
    /// included) belongs to the current document.
    Through,
    /// The current document nests deeper than planview reads at `at` (its
    /// first bracket past [`crate::scan::MAX_DEPTH`]).
    TooDeep { at: usize },
}

/// Finds documents, one byte at a time, in pieces of any size.
#[derive(Debug, Clone)]
pub(crate) struct Splitter {
    lenient: bool,
    st: St,
    depth: usize,
    /// Bytes fed so far.
    offset: usize,
    /// The 1-based line at `offset`.
    line: usize,
    /// Only blanks since the line began (in the gap or prefix).
    line_blank: bool,
    /// Where the current line began.
    line_begin: usize,
    /// Where the last document ended.
    end: usize,
    /// Lines of the text in the current gap (first, last).
    text: Option<(usize, usize)>,
    /// `text` as it was when the current line began.
    text_before_line: Option<(usize, usize)>,
    /// Characters of the current line (in the gap or prefix).
    line_chars: usize,
    /// How much of the `format_version` key the gap's last bytes match ([`key_step`]).
    key_match: usize,
    /// Where the current gap names a `format_version` key (line, column of its end).
    hidden: Option<(usize, usize)>,
    /// The current line and the last non-blank line before it (bounded), to name documents.
    cur: Vec<u8>,
    last: Vec<u8>,
    docs: usize,
    /// The current document's `TooDeep` cut was pushed.
    deep: bool,
    /// Gap lines are read a run at a time ([`Splitter::plain_run`]); off, byte
    /// by byte (the tests' reference).
    gap_runs: bool,
}

/// The most of a line kept to name a document.
const NAME_LINE: usize = 4 << 10;

impl Splitter {
    pub(crate) fn new(lenient: bool) -> Self {
        Splitter {
            lenient,
            st: St::Prefix,
            depth: 0,
            offset: 0,
            line: 1,
            line_blank: true,
            line_begin: 0,
            end: 0,
            text: None,
            text_before_line: None,
            line_chars: 0,
            key_match: 0,
            hidden: None,
            cur: Vec::new(),
            last: Vec::new(),
            docs: 0,
            deep: false,
            gap_runs: true,
        }
    }

    /// Whether the current document can no longer end well: nested deeper
    /// than planview reads, or the rest of the input is its own.
    pub(crate) fn hopeless(&self) -> bool {
        self.st == St::Through || self.depth > crate::scan::MAX_DEPTH
    }

    /// Feed the next piece; the cuts found in it go to `cuts`, in order.
    pub(crate) fn feed(&mut self, piece: &[u8], cuts: &mut Vec<Cut>) {
        let base = self.offset;
        let mut i = 0;
        while i < piece.len() {
            let b = piece[i];
            let at = base + i;
            match self.st {
                St::Through => {
                    self.offset = base + piece.len();
                    return;
                }
                St::Doc(_) => {
                    // The document's text in one run; its lines counted at once.
                    let from = i;
                    i = self.document(piece, i, base, cuts);
                    let span = &piece[from..i];
                    let lines = memchr::memchr_iter(b'\n', span).count();
                    if lines > 0 {
                        self.line += lines;
                        if let Some(k) = memchr::memrchr(b'\n', span) {
                            self.line_begin = base + from + k + 1;
                        }
                    }
                    continue;
                }
                St::Prefix | St::Gap => {
                    let prefix = self.st == St::Prefix;
                    // A line of text in a gap, past its first character: its
                    // bytes up to the next newline, `{` or `f` (where a
                    // `format_version` key may start) are only kept and counted.
                    if !prefix && self.gap_runs && self.key_match == 0 && self.text.is_some_and(|t| t.1 == self.line) {
                        let rest = &piece[i..];
                        let n = memchr::memchr3(b'\n', b'{', b'f', rest).unwrap_or(rest.len());
                        if n > 0 && at + n - 1 <= self.end + MAX_GAP {
                            self.plain_run(&rest[..n]);
                            i += n;
                            continue;
                        }
                    }
                    // Blank space (an endless run of it is refused at the
                    // limit), or in the prefix a line's text up to its next
                    // newline or `{`: what the arms below do to each byte, at
                    // once, up to the limit (the byte past it goes below).
                    if self.gap_runs {
                        let limit = if prefix { crate::read::MAX_PREFIX } else { self.end + MAX_GAP };
                        let room = (limit + 1).saturating_sub(base).min(piece.len());
                        let n = if crate::scan::is_json_ws(b) {
                            let n = crate::index::json_ws_len(&piece[i..room.max(i)]);
                            if n > 0 {
                                self.blank_run(&piece[i..i + n], base + i);
                            }
                            n
                        } else if prefix && self.lenient && b != b'{' && i < room {
                            let rest = &piece[i..room];
                            let n = memchr::memchr2(b'\n', b'{', rest).unwrap_or(rest.len());
                            self.prefix_run(&rest[..n]);
                            n
                        } else {
                            0
                        };
                        if n > 0 {
                            i += n;
                            continue;
                        }
                    }
                    match b {
                        b'\n' => {
                            if !self.cur.iter().all(|&c| crate::scan::is_json_ws(c)) {
                                self.last = std::mem::take(&mut self.cur);
                            }
                            self.cur.clear();
                            self.newline(at);
                            self.line_blank = true;
                            self.line_chars = 0;
                            self.key_match = 0;
                            self.text_before_line = self.text;
                        }
                        b'{' if !prefix && self.lenient && !self.line_blank && self.cur.len() < NAME_LINE => {
                            match terragrunt_stdout(&self.cur) {
                                // Terragrunt's prefix of a line it forwards: a document of its own.
                                Some(name) => {
                                    self.text = self.text_before_line;
                                    self.docs += 1;
                                    cuts.push(Cut::Start {
                                        at,
                                        line: self.line,
                                        name,
                                        text: self.text.take(),
                                        n: self.docs,
                                        pad: self.line_chars,
                                        hidden: self.hidden.take(),
                                    });
                                    self.cur.clear();
                                    self.st = St::Doc(crate::scan::Text::Value);
                                    self.depth = 1;
                                    self.deep = false;
                                }
                                None => self.gap_text(b),
                            }
                        }
                        b'{' if self.line_blank || (prefix && self.lenient) => {
                            // With --lenient the first document starts at the first `{`.
                            let mut named = std::mem::take(&mut self.last);
                            if !self.cur.iter().all(|&c| crate::scan::is_json_ws(c)) {
                                named = std::mem::take(&mut self.cur);
                            }
                            let name = name_in(&String::from_utf8_lossy(&named));
                            self.cur.clear();
                            self.st = St::Doc(crate::scan::Text::Value);
                            self.depth = 1;
                            self.deep = false;
                            self.docs += 1;
                            if prefix {
                                cuts.push(Cut::First { name });
                            } else {
                                cuts.push(Cut::Start {
                                    at: self.line_begin,
                                    line: self.line,
                                    name,
                                    text: self.text.take(),
                                    n: self.docs,
                                    pad: 0,
                                    hidden: self.hidden.take(),
                                });
                            }
                        }
                        b' ' | b'\t' | b'\r' => {
                            self.keep(b);
                            self.line_chars += 1;
                            self.key_match = 0;
                        }
                        _ if prefix && !self.lenient => {
                            // Not a document: the parser says why.
                            self.st = St::Through;
                            cuts.push(Cut::Through);
                            continue;
                        }
                        _ if prefix => {
                            self.line_blank = false;
                            self.keep(b);
                            self.line_chars += usize::from(b & 0xC0 != 0x80);
                        }
                        _ => self.gap_text(b),
                    }
                    let limit = if prefix { crate::read::MAX_PREFIX } else { self.end + MAX_GAP };
                    if at > limit {
                        self.st = St::Through;
                        cuts.push(Cut::Through);
                    }
                }
            }
            i += 1;
        }
        self.offset = base + piece.len();
    }

    /// Inside a document from `i` on: brackets counted, strings skipped, until
    /// the piece ends or the document closes (its `End` cut pushed). Returns
    /// where it stopped: the piece's end, or just after the closing bracket.
    /// The first bracket nested deeper than [`crate::scan::MAX_DEPTH`] is a
    /// `TooDeep` cut (counting goes on, so a whole read still splits).
    fn document(&mut self, piece: &[u8], mut i: usize, base: usize, cuts: &mut Vec<Cut>) -> usize {
        use crate::scan::{Met, Walk};
        let St::Doc(text) = self.st else { return i };
        let mut walk = Walk { text, depth: self.depth };
        loop {
            let (at, met) = walk.run(piece, i, self.deep);
            match met {
                Met::PieceEnd => {
                    self.depth = walk.depth;
                    self.st = St::Doc(walk.text);
                    return at;
                }
                Met::TooDeep => {
                    // Counting goes on past it, so a whole read still splits.
                    self.deep = true;
                    cuts.push(Cut::TooDeep { at: base + at });
                    i = at + 1;
                }
                Met::Close => {
                    self.depth = 0;
                    self.st = St::Gap;
                    self.end = base + at;
                    self.text = None;
                    self.text_before_line = None;
                    self.hidden = None;
                    self.key_match = 0;
                    // The rest of the document's last line, counted from its start.
                    let line_start = memchr::memrchr(b'\n', &piece[..at]).map_or(self.line_begin, |k| base + k + 1);
                    self.line_chars = base + at - line_start.max(self.line_begin);
                    self.line_blank = false;
                    self.cur.clear();
                    self.last.clear();
                    cuts.push(Cut::End { at: base + at });
                    return at;
                }
            }
        }
    }

    /// A byte of text in the gap between documents (not blank, not a newline):
    /// its line is text, and a `format_version` key in it is a document not read.
    fn gap_text(&mut self, b: u8) {
        self.line_blank = false;
        self.keep(b);
        self.line_chars += usize::from(b & 0xC0 != 0x80);
        let first = self.text.map_or(self.line, |t| t.0);
        self.text = Some((first, self.line));
        self.key_match = key_step(self.key_match, b);
        if self.key_match == KEY_FOUND && self.hidden.is_none() {
            self.hidden = Some((self.line, self.line_chars));
        }
    }

    fn newline(&mut self, at: usize) {
        self.line += 1;
        self.line_begin = at + 1;
    }

    fn keep(&mut self, b: u8) {
        if self.cur.len() < NAME_LINE {
            self.cur.push(b);
        }
    }

    /// A run of blank space (spaces, tabs, carriage returns, newlines) in a
    /// gap or the prefix, starting at offset `at`: what the newline's and the
    /// blanks' arms of [`Splitter::feed`] do to each byte, at once (after its
    /// first newline every line of the run is blank, so only that newline can
    /// move the current line to `last`).
    fn blank_run(&mut self, run: &[u8], at: usize) {
        let Some(first) = memchr::memchr(b'\n', run) else {
            let room = NAME_LINE.saturating_sub(self.cur.len());
            self.cur.extend_from_slice(&run[..run.len().min(room)]);
            self.line_chars += run.len();
            self.key_match = 0;
            return;
        };
        // The current line, with the blanks before the first newline, ends there.
        let room = NAME_LINE.saturating_sub(self.cur.len());
        self.cur.extend_from_slice(&run[..first.min(room)]);
        if !self.cur.iter().all(|&c| crate::scan::is_json_ws(c)) {
            self.last = std::mem::take(&mut self.cur);
        }
        let last = memchr::memrchr(b'\n', run).unwrap_or(first);
        self.line += memchr::memchr_iter(b'\n', &run[first..]).count();
        self.line_begin = at + last + 1;
        self.line_blank = true;
        self.text_before_line = self.text;
        let tail = &run[last + 1..];
        self.cur.clear();
        self.cur.extend_from_slice(&tail[..tail.len().min(NAME_LINE)]);
        self.line_chars = tail.len();
        self.key_match = 0;
    }

    /// Bytes of the prefix (`--lenient`) on one line, none of them a newline
    /// or `{`: what the blanks' arm and the prefix's text arm of
    /// [`Splitter::feed`] do to each of them, at once.
    fn prefix_run(&mut self, run: &[u8]) {
        let room = NAME_LINE.saturating_sub(self.cur.len());
        self.cur.extend_from_slice(&run[..run.len().min(room)]);
        if run.iter().any(|&b| !crate::scan::is_json_ws(b)) {
            self.line_blank = false;
        }
        if run.iter().any(|&b| crate::scan::is_json_ws(b)) {
            self.key_match = 0;
        }
        self.line_chars += if run.is_ascii() { run.len() } else { run.iter().filter(|&&b| b & 0xC0 != 0x80).count() };
    }

    /// Bytes of a gap's line that already holds text, none of them a newline,
    /// `{` or `f`, with no key partly matched before them: what [`Splitter::gap_text`]
    /// and the blanks' arm do to each of them, at once (kept and counted; the
    /// line is text already, and no key can start or go on in them).
    fn plain_run(&mut self, run: &[u8]) {
        let room = NAME_LINE.saturating_sub(self.cur.len());
        self.cur.extend_from_slice(&run[..run.len().min(room)]);
        self.line_blank = false;
        self.line_chars += if run.is_ascii() { run.len() } else { run.iter().filter(|&&b| b & 0xC0 != 0x80).count() };
    }
}

/// The working directory a log line names, if any: Terragrunt's key-value
/// logs (`prefix=[/work/live/vpc]`, `prefix=live/vpc`), its pretty and bare
/// logs and older module prefixes (`14:20:38.431 INFO   [live/vpc] ...`,
/// `[live/vpc] ...`): the first bracketed text.
pub(crate) fn name_in(line: &str) -> Option<String> {
    let line = line.trim();
    let raw = if let Some(i) = line.find("prefix=") {
        let rest = &line[i + "prefix=".len()..];
        if let Some(inner) = rest.strip_prefix('[') {
            inner.split(']').next()
        } else if let Some(inner) = rest.strip_prefix('"') {
            inner.split('"').next()
        } else {
            rest.split_whitespace().next()
        }
    } else {
        // The first `[...]` that stands as a word of its own (`[command]/usr/bin/...` does not).
        let mut found = None;
        for (start, _) in line.match_indices('[') {
            let before_ok = line[..start].chars().next_back().is_none_or(char::is_whitespace);
            let Some((inner, after)) = line[start + 1..].split_once(']') else { break };
            if before_ok && after.chars().next().is_none_or(char::is_whitespace) && !inner.contains('[') {
                found = Some(inner);
                break;
            }
        }
        found
    }?;
    let name = raw.trim();
    (!name.is_empty() && name.len() <= 1024 && !name.contains(['\n', '\r'])).then(|| name.to_string())
}

/// Terragrunt's prefix of a line it forwards from OpenTofu/Terraform's stdout
/// (its default `pretty` log format, and `bare`; colour codes skipped):
/// `[HH:MM:SS[.mmm]] STDOUT [[UNIT]] [TF-PATH:]`, all of `line` before a `{`.
/// `Some` with the unit's path, if named, when `line` is such a prefix.
pub(crate) fn terragrunt_stdout(line: &[u8]) -> Option<Option<String>> {
    // Colour: `ESC [ ... final byte`.
    let mut plain = Vec::with_capacity(line.len());
    let mut i = 0;
    while i < line.len() {
        if line[i] == 0x1b && line.get(i + 1) == Some(&b'[') {
            i += 2;
            while i < line.len() && !(0x40..=0x7e).contains(&line[i]) {
                i += 1;
            }
            i += 1;
            continue;
        }
        plain.push(line[i]);
        i += 1;
    }
    let text = std::str::from_utf8(&plain).ok()?;
    let mut rest = text.trim_start();
    let word = |s: &str| s.split(char::is_whitespace).next().unwrap_or("").to_string();
    let first = word(rest);
    let is_time = first.bytes().filter(|&b| b == b':').count() == 2 && first.bytes().all(|b| b.is_ascii_digit() || b == b':' || b == b'.');
    if is_time {
        rest = rest[first.len()..].trim_start();
    }
    rest = rest.strip_prefix("STDOUT")?;
    if !rest.starts_with(char::is_whitespace) && !rest.is_empty() {
        return None;
    }
    rest = rest.trim_start();
    let mut name = None;
    if let Some(inner) = rest.strip_prefix('[') {
        let (unit, after) = inner.split_once(']')?;
        let unit = unit.trim();
        if unit.is_empty() || unit.len() > 1024 {
            return None;
        }
        name = Some(unit.to_string());
        rest = after.trim_start();
    }
    // The binary's path and a colon (`tofu:`), or nothing.
    let tail = rest.trim_end();
    if tail.is_empty() || (tail.ends_with(':') && !tail.contains(char::is_whitespace) && !tail.contains(['{', '['])) {
        return Some(name);
    }
    None
}

/// One document of an input read whole.
#[derive(Debug)]
pub(crate) struct WholePart<'a> {
    /// The name from the line before it, if any.
    pub name: Option<String>,
    /// The document, preceded by a newline per line before it in the input;
    /// or why it is not read (text before it, without `--lenient`).
    pub bytes: Result<std::borrow::Cow<'a, [u8]>, InputError>,
}

/// The documents of `bytes`, an input named `name` read whole. One document
/// (or none: the parser says what is wrong) is `bytes` itself.
pub(crate) fn split_whole<'a>(input: &str, bytes: &'a [u8], read: &ReadOptions) -> Vec<WholePart<'a>> {
    let mut sp = Splitter::new(read.lenient);
    let mut cuts = Vec::new();
    sp.feed(bytes, &mut cuts);
    let first = match cuts.first() {
        Some(Cut::First { name }) => name.clone(),
        _ => None,
    };
    if !cuts.iter().any(|c| matches!(c, Cut::Start { .. })) {
        return vec![WholePart { name: first, bytes: Ok(std::borrow::Cow::Borrowed(bytes)) }];
    }
    let mut parts = Vec::new();
    let (mut start, mut line, mut part_name, mut gap) = (0usize, 1usize, first, Gap::default());
    let mut end = None;
    let finish = |start: usize, stop: usize, line: usize, name: Option<String>, gap: Gap, n: usize| {
        let label = name.clone().unwrap_or_else(|| format!("{input}#{n}"));
        let bytes = match gap_error(&label, &gap, n, read) {
            Some(e) => Err(e),
            None => {
                let mut v = Vec::with_capacity(line - 1 + gap.pad + stop - start);
                v.resize(line - 1, b'\n');
                v.resize(line - 1 + gap.pad, b' ');
                v.extend_from_slice(&bytes[start..stop]);
                Ok(std::borrow::Cow::Owned(v))
            }
        };
        WholePart { name, bytes }
    };
    for cut in cuts {
        match cut {
            Cut::End { at } => end = Some(at),
            Cut::Start { at, line: l, name: n, text, pad, hidden, .. } => {
                let count = parts.len() + 1;
                parts.push(finish(start, end.take().unwrap_or(at), line, part_name.take(), std::mem::take(&mut gap), count));
                (start, line, part_name, gap) = (at, l, n, Gap { text, hidden, pad });
            }
            Cut::Through => end = None,
            Cut::First { .. } | Cut::TooDeep { .. } => {}
        }
    }
    // The last document keeps what follows it (its trailer is judged by the parser).
    let count = parts.len() + 1;
    parts.push(finish(start, bytes.len(), line, part_name, gap, count));
    parts
}

/// What came before a document after the first ([`Cut::Start`]): the lines of
/// text between it and the one before, where in them a document hides, and
/// how many characters of Terragrunt's prefix come before it on its line.
#[derive(Debug, Default)]
pub(super) struct Gap {
    pub(super) text: Option<(usize, usize)>,
    pub(super) hidden: Option<(usize, usize)>,
    pub(super) pad: usize,
}

/// Text between documents: without `--lenient` the document after it is not
/// read (its error); with it, a warning, unless the text holds a document
/// planview would not read (a `format_version` key): that is an error even
/// with `--lenient`, never skipped. `name` is the input's.
pub(super) fn gap_error(name: &str, gap: &Gap, n: usize, read: &ReadOptions) -> Option<InputError> {
    let (first, last) = gap.text?;
    let lines = if first == last { format!("line {first}") } else { format!("lines {first}-{last}") };
    if let Some((l, c)) = gap.hidden {
        return Some(
            InputError::new(name, format!("the text between JSON documents {} and {n} ({lines}) holds a document planview does not read (a `format_version` key at line {l}, column {c}); document {n} is not read either", n - 1))
                .at(l, c)
                .hint("each document must start on a line of its own, or after Terragrunt's `STDOUT [unit] tofu:` prefix (with --lenient); a plan inside other text is never skipped: strip the wrapper's text, or have Terragrunt forward the JSON as it is (--tf-forward-stdout)"),
        );
    }
    if read.lenient {
        read.notes.push(name, format!("--lenient: skipped the text between documents {} and {n} ({lines})", n - 1));
        return None;
    }
    Some(
        InputError::new(name, format!("there is text between JSON documents {} and {n} ({lines}); document {n} is not read", n - 1))
            .at(first, 1)
            .hint("several documents are read from one input when only blanks separate them: pass --lenient to skip log lines between them (Terragrunt's), with a warning for each"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::{is_json_ws, MAX_DEPTH};
    use crate::read::source::Framed;

    /// The plainest possible framing of one document, byte by byte, to hold
    /// the framer to: where it ends, and its first bracket past the limit.
    fn reference(bytes: &[u8]) -> (Option<usize>, Option<usize>) {
        let Some(start) = bytes.iter().position(|&b| !is_json_ws(b)) else { return (None, None) };
        let (mut depth, mut in_str, mut esc) = (0usize, false, false);
        for (i, &b) in bytes.iter().enumerate().skip(start) {
            if in_str {
                if esc {
                    esc = false;
                } else if b == b'\\' {
                    esc = true;
                } else if b == b'"' {
                    in_str = false;
                }
                continue;
            }
            match b {
                b'"' => in_str = true,
                b'[' | b'{' => {
                    depth += 1;
                    if depth > MAX_DEPTH {
                        return (None, Some(i));
                    }
                }
                b']' | b'}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return (Some(i + 1), None);
                    }
                }
                _ => {}
            }
        }
        (None, None)
    }

    proptest::proptest! {
        #[test]
        fn any_input_in_any_pieces_is_framed_as_the_reference_frames_it(
            text in proptest::collection::vec(proptest::sample::select(b" x\"\\[]{}:,\n".to_vec()), 0..400),
            depth in 0usize..140,
            size in 1usize..9,
            lenient: bool,
        ) {
            // Nest the noise `depth` levels deep, so the limit is crossed sometimes.
            let mut input = b" {\"a\":".to_vec();
            input.extend(std::iter::repeat_n(b'[', depth));
            input.extend(&text);
            let (end, deep) = reference(&input);
            proptest::prop_assert_eq!(too_deep_in(&input), deep);
            let mut framed = Framed::new(lenient);
            input.chunks(size).for_each(|c| framed.feed(c));
            proptest::prop_assert!(framed.started);
            proptest::prop_assert_eq!(framed.end, end);
            proptest::prop_assert_eq!(framed.too_deep.then_some(framed.deep_at), deep);
        }
    }

    /// Documents and the text between them: log lines, keys whole and cut,
    /// Terragrunt's prefixes, `{` in text, characters of every length, a line
    /// longer than what is kept of it.
    fn gap_pieces() -> Vec<String> {
        let mut p: Vec<String> = [
            "{\"a\":1}",
            "{\"format_version\":\"1.2\"}",
            "\n",
            "\n\n",
            " ",
            "\t",
            "\r",
            "     ",
            " \t\r\n  \n\t   ",
            "log line ",
            "format_version\"",
            "format_vers",
            "ion\\\"",
            "f",
            "ff",
            "{",
            "}",
            "é",
            "€x",
            "😀",
            "STDOUT [live/vpc] tofu: ",
            "12:00:01.000 ",
            "[live/app] ",
            "prefix=[/w/x] ",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        p.push("y".repeat(1500));
        p
    }

    proptest::proptest! {
        #[test]
        fn gap_lines_read_a_run_at_a_time_are_cut_as_byte_by_byte(
            parts in proptest::collection::vec(proptest::sample::select(gap_pieces()), 0..50),
            size in 1usize..50,
            lenient: bool,
        ) {
            let text = parts.concat();
            let run = |runs: bool| {
                let mut sp = Splitter::new(lenient);
                sp.gap_runs = runs;
                let mut cuts = Vec::new();
                for piece in text.as_bytes().chunks(size) {
                    sp.feed(piece, &mut cuts);
                }
                ((cuts, sp.st, sp.line, sp.line_blank, sp.line_chars, sp.key_match, sp.hidden, sp.text, sp.cur, sp.last, sp.docs), (sp.line_begin, sp.text_before_line, sp.offset))
            };
            proptest::prop_assert_eq!(run(true), run(false), "{:?}", text);
        }
    }

    proptest::proptest! {
        #[test]
        fn a_trailer_is_scanned_as_byte_by_byte(
            parts in proptest::collection::vec(proptest::sample::select(&[
                "format_version", "format_vers", "ion", "\"", "\\", "f", "ff", "\n", " ", "\t", "{", "x", "log: ", "é",
            ][..]), 0..40),
            cut in 0usize..200,
            line_start: bool,
        ) {
            let text = parts.concat();
            let t = text.as_bytes();
            let cut = cut.min(t.len());
            let scan = |f: fn(&[u8], &mut TrailerScan) -> Option<usize>| {
                let mut s = TrailerScan::new(line_start);
                let first = f(&t[..cut], &mut s);
                let second = first.is_none().then(|| f(&t[cut..], &mut s));
                (first, second, s)
            };
            proptest::prop_assert_eq!(scan(second_document), scan(second_document_bytes), "{:?} cut at {}", text, cut);
        }
    }

    #[test]
    fn a_truncated_or_blank_input_has_no_end() {
        let mut f = Framed::new(false);
        f.feed(b"{\"a\":[1,2");
        assert!(f.started && f.end.is_none() && !f.too_deep);
        let mut f = Framed::new(false);
        f.feed(b"   \n ");
        assert!(!f.started && !f.done());
        // Strict: text before the document is no document the framer follows.
        let mut f = Framed::new(false);
        f.feed(b"x {}");
        assert!(f.through && !f.started);
        // Lenient: the document starts at the first `{`, whatever precedes it.
        let mut f = Framed::new(true);
        f.feed(b"$ tofu show -json \"plan [x]\n{\"a\":1}\nDone.");
        assert_eq!((f.started, f.end), (true, Some(35)));
    }
}
