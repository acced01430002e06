//! Where input comes from: files, stdin, FIFOs and devices ([`Source`]),
//! opened for streaming ([`open`]) or read whole ([`read_with`]), with
//! memory reserved fallibly and endless pipes cut short.

use super::diagnostics::{sniff_encoding, too_blank, MAX_BLANKS, MAX_TRAILER};
use super::saved_plan::{show_json, TempFile};
use super::{is_saved_plan, Cut, ReadOptions, Splitter};
use crate::error::InputError;
use crate::scan::is_json_ws;
use std::io::Read;
use std::path::PathBuf;

/// Where one document comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Stdin,
    File(PathBuf),
}

impl Source {
    /// `-` means stdin; anything else is a path.
    pub fn from_arg(arg: &str) -> Source {
        if arg == "-" {
            Source::Stdin
        } else {
            Source::File(PathBuf::from(arg))
        }
    }

    /// The name used in messages and reports.
    pub fn name(&self) -> String {
        match self {
            Source::Stdin => "<stdin>".to_string(),
            Source::File(p) => p.display().to_string(),
        }
    }
}

/// Read the whole input, as JSON: a saved binary plan is turned into JSON by
/// `show -json` with the options from the environment ([`ReadOptions::from_env`]).
pub(crate) fn read(source: &Source) -> Result<Vec<u8>, InputError> {
    read_with(source, &ReadOptions::from_env())
}

/// Read the whole input, as JSON: a saved binary plan (a zip archive) is turned
/// into JSON by running `show -json` on it as `show` says.
pub(crate) fn read_with(source: &Source, show: &ReadOptions) -> Result<Vec<u8>, InputError> {
    json_of(source, read_raw_counted(source, show.lenient, &show.progress)?, show)
}

/// The input's bytes as JSON: unchanged, or, for a saved plan, what `show -json` prints.
pub(crate) fn json_of(source: &Source, bytes: Vec<u8>, show: &ReadOptions) -> Result<Vec<u8>, InputError> {
    if !is_saved_plan(&bytes) {
        return Ok(bytes);
    }
    let name = source.name();
    match source {
        Source::File(path) => show_json(&name, path, show),
        Source::Stdin => {
            // `show` needs a file: keep the piped plan in a private temp file.
            let tmp = TempFile::create(&bytes)
                .map_err(|e| InputError::new(&name, format!("is a saved plan, and it could not be written to a temporary file: {e}")))?;
            show_json(&name, &tmp.0, show)
        }
    }
}

/// Read the bytes of the input as they are. Regular files are read in one go
/// (serde_json is several times faster on a slice than on a reader); stdin and
/// pipes (FIFOs, `<(...)`) stop early on input that can only be refused (see
/// `hopeless` and [`read_piped`]), so `planview gate < /dev/zero` ends instead
/// of filling memory. Memory for the input is reserved fallibly: an input too
/// big for the memory planview may use is an input error, not an abort.
///
/// Its progress is drawn as `progress` says
/// (a big regular file is read through the counting reader only when it is on).
fn read_raw_counted(source: &Source, lenient: bool, progress: &crate::progress::Progress) -> Result<Vec<u8>, InputError> {
    let name = source.name();
    match source {
        Source::Stdin => read_piped(&name, progress.reader(&name, None, std::io::stdin().lock()), lenient),
        Source::File(path) => {
            check_not_dir(&name, path)?;
            let file = std::fs::File::open(path).map_err(|e| vanished_or(&name, &e))?;
            let meta = file.metadata().map_err(|e| open_error(&name, &e))?;
            if !meta.is_file() {
                return read_piped(&name, progress.reader(&name, None, file), lenient);
            }
            if progress.is_on() && meta.len() >= crate::progress::THRESHOLD {
                return read_sized(&name, progress.reader(&name, Some(meta.len()), file), meta.len());
            }
            read_sized(&name, file, meta.len())
        }
    }
}

/// Read all of `src`, whose size is said to be `size` bytes, into memory
/// reserved up front without aborting when it cannot be had.
pub(crate) fn read_sized(name: &str, mut src: impl Read, size: u64) -> Result<Vec<u8>, InputError> {
    let mut buf = Vec::new();
    reserve(name, &mut buf, usize::try_from(size).unwrap_or(usize::MAX), true)?;
    src.read_to_end(&mut buf).map_err(|e| read_error(name, &e))?;
    Ok(buf)
}

/// Room for `more` bytes in `buf` (`exact`, or growing geometrically, for
/// reads in pieces), or an input error: never an abort.
pub(super) fn reserve(name: &str, buf: &mut Vec<u8>, more: usize, exact: bool) -> Result<(), InputError> {
    let reserved = crate::oom::fallibly(|| if exact { buf.try_reserve_exact(more) } else { buf.try_reserve(more) });
    reserved.map_err(|_| {
        let mb = |n: usize| n.div_ceil(1 << 20);
        InputError::new(name, format!("is too big to read into memory: {} MB could not be allocated", mb(buf.len().saturating_add(more))))
            .hint("planview holds the whole input in memory for this command (`summary` streams it); raise the memory limit (`ulimit -v`, the container's limit) or run `summary`")
    })
}

pub(super) fn read_error(name: &str, e: &std::io::Error) -> InputError {
    if e.kind() == std::io::ErrorKind::OutOfMemory {
        return InputError::new(name, "is too big to read: memory could not be allocated");
    }
    InputError::new(name, format!("cannot read: {e}"))
}

/// THE chunked read loop, for every reader of an input in pieces: the
/// read-ahead thread of one document ([`crate::read::stream`]), the framer
/// of many roots ([`crate::read::stream_roots`]), a pipe read whole, a
/// saved plan's `show -json` output, a file's head. Files, pipes, FIFOs and
/// a child's stdout alike: each piece is read until it is full, the input
/// ends or a read fails (a pipe gives 64 KB at a time, and bigger pieces cost
/// less down the line), into room that is not zeroed first; a regular file's pieces are no bigger than what is
/// left of it (so no room is reserved for nothing).
pub(crate) struct Chunks<R> {
    src: R,
    /// How much is read per piece (at most).
    piece: usize,
    /// The input's size, when known (a regular file).
    size: Option<usize>,
    /// Bytes read so far.
    offset: usize,
    ended: bool,
    /// A buffer handed back to be filled again ([`Chunks::recycle`]).
    spare: Vec<u8>,
}

/// One piece of [`Chunks`]: its bytes, whether the input ended after them,
/// or the read that failed after them.
pub(crate) struct Chunk {
    pub(crate) bytes: Vec<u8>,
    pub(crate) eof: bool,
    pub(crate) failed: Option<std::io::Error>,
}

impl<R: Read> Chunks<R> {
    /// `src` in pieces of `piece` bytes; `size`, a regular file's.
    pub(crate) fn new(src: R, piece: usize, size: Option<usize>) -> Self {
        Chunks { src, piece: piece.max(1), size, offset: 0, ended: false, spare: Vec::new() }
    }

    /// From now on, pieces of `piece` bytes.
    pub(crate) fn set_piece(&mut self, piece: usize) {
        self.piece = piece.max(1);
    }

    /// A piece's buffer handed back, to be filled again without a new allocation.
    pub(crate) fn recycle(&mut self, mut buf: Vec<u8>) {
        buf.clear();
        self.spare = buf;
    }
}

impl<R: Read> Iterator for Chunks<R> {
    type Item = Chunk;

    fn next(&mut self) -> Option<Chunk> {
        if self.ended {
            return None;
        }
        let want = match self.size {
            // One more than is left: the end is seen in the same piece.
            Some(size) if self.offset < size => (size - self.offset + 1).min(self.piece),
            // The end, if the size was right.
            Some(size) if self.offset == size => 16.min(self.piece),
            _ => self.piece,
        };
        let mut buf = std::mem::take(&mut self.spare);
        buf.clear();
        buf.reserve_exact(want);
        // Into the buffer's spare room, never zeroed first (a file reads into
        // it as it is); interrupted reads are retried, and the bytes read
        // before a failing read are kept.
        let failed = (&mut self.src).take(want as u64).read_to_end(&mut buf).err();
        let n = buf.len();
        self.offset += n;
        let eof = failed.is_none() && n < want;
        self.ended = eof || failed.is_some();
        Some(Chunk { bytes: buf, eof, failed })
    }
}

/// Read a pipe: the start decides (read it, judge it, then read the rest,
/// depth-checked as it comes). Never more than [`MAX_BLANKS`] of blank space
/// before the document or [`MAX_TRAILER`] after it: an endless pipe ends.
fn read_piped(name: &str, src: impl Read, lenient: bool) -> Result<Vec<u8>, InputError> {
    let mut buf = Vec::new();
    let mut chunks = Chunks::new(src, HEAD, None);
    // Read up to `want` more bytes; the number read.
    let mut more = |buf: &mut Vec<u8>, want: usize| -> Result<usize, InputError> {
        reserve(name, buf, want, false)?;
        chunks.set_piece(want);
        let Some(chunk) = chunks.next() else { return Ok(0) };
        buf.extend_from_slice(&chunk.bytes);
        let n = chunk.bytes.len();
        chunks.recycle(chunk.bytes);
        match chunk.failed {
            Some(e) => Err(read_error(name, &e)),
            None => Ok(n),
        }
    };
    let mut limit = HEAD;
    loop {
        let want = limit - buf.len();
        let n = more(&mut buf, want)?;
        if n < want {
            return Ok(buf); // the end of the input
        }
        if hopeless(&buf, lenient) {
            return Ok(buf); // parsing what was read gives the error
        }
        if !lenient || memchr::memchr(b'{', &buf).is_some() {
            break;
        }
        limit = (limit * 4).min(MAX_PREFIX + 1);
    }
    // The rest, framed as it comes ([`Splitter`], the one framer): an
    // endless `[[[[...` stops at the depth limit instead of filling memory,
    // and an endless trailer after the document's end stops.
    let mut framer = Framed::new(lenient);
    framer.feed(&buf);
    loop {
        if framer.too_deep {
            return Ok(buf); // parsing what was read gives the error
        }
        if !framer.started && buf.len() > MAX_BLANKS {
            return Err(too_blank(name));
        }
        if framer.end.is_some_and(|end| buf.len() - end > MAX_TRAILER) || framer.through {
            return Ok(buf); // parsing what was read gives the error (see `after_document`)
        }
        let from = buf.len();
        if more(&mut buf, 1 << 20)? == 0 {
            return Ok(buf);
        }
        framer.feed(&buf[from..]);
    }
}

/// The first document of an input as the framer ([`Splitter`]) finds it,
/// fed in pieces: whether it started, where it ended, and whether it nests
/// deeper than [`crate::index::MAX_DEPTH`]. Nothing after its end is looked at.
pub(crate) struct Framed {
    splitter: Splitter,
    cuts: Vec<Cut>,
    /// The document started (its `{`: strict, after blanks; lenient, the first).
    pub(crate) started: bool,
    /// No document the framer follows: text before it (strict), too long a prefix.
    pub(crate) through: bool,
    /// Just after it closed.
    pub(crate) end: Option<usize>,
    /// It nests too deep; `at` is the first bracket past the limit.
    pub(crate) too_deep: bool,
    pub(crate) deep_at: usize,
}

impl Framed {
    pub(crate) fn new(lenient: bool) -> Self {
        Framed {
            splitter: Splitter::new(lenient),
            cuts: Vec::new(),
            started: false,
            through: false,
            end: None,
            too_deep: false,
            deep_at: 0,
        }
    }

    /// Nothing more to learn: the document ended, nests too deep, or is no document the framer follows.
    pub(crate) fn done(&self) -> bool {
        self.end.is_some() || self.too_deep || self.through
    }

    /// Frame the next piece.
    pub(crate) fn feed(&mut self, piece: &[u8]) {
        if self.done() {
            return;
        }
        self.splitter.feed(piece, &mut self.cuts);
        for cut in self.cuts.drain(..) {
            match cut {
                Cut::First { .. } => self.started = true,
                Cut::Through => {
                    self.through = true;
                    break;
                }
                Cut::TooDeep { at } => {
                    self.too_deep = true;
                    self.deep_at = at;
                    break;
                }
                Cut::End { at } => {
                    self.end = Some(at);
                    break;
                }
                Cut::Start { .. } => break,
            }
        }
    }
}

/// Open the input for streaming ([`crate::read::stream`]), with the same errors as
/// [`read`]. A saved plan (a zip archive) is read whole and turned into JSON by
/// `show -json` first, as [`read_with`] does.
pub(crate) fn open(source: &Source, show: &ReadOptions) -> Result<Box<dyn Read + Send>, InputError> {
    open_as(source, show).map(|(src, _)| src)
}

/// [`open`], and whether the input was a saved plan, its JSON now held whole in memory.
pub(crate) fn open_as(source: &Source, show: &ReadOptions) -> Result<(Box<dyn Read + Send>, bool), InputError> {
    let name = source.name();
    let mut src: Box<dyn Read + Send> = match source {
        Source::Stdin => Box::new(show.progress.reader(&name, None, std::io::stdin())),
        Source::File(path) => {
            check_not_dir(&name, path)?;
            let file = std::fs::File::open(path).map_err(|e| vanished_or(&name, &e))?;
            if !show.progress.is_on() {
                Box::new(file)
            } else {
                // A regular file has a size (a bar with a total); a FIFO has none (a spinner).
                let size = file.metadata().ok().filter(std::fs::Metadata::is_file).map(|m| m.len());
                Box::new(show.progress.reader(&name, size, file))
            }
        }
    };
    // Look at the first bytes for the zip signature, then put them back in front.
    let mut head = Vec::with_capacity(4);
    (&mut src).take(4).read_to_end(&mut head).map_err(|e| open_error(&name, &e))?;
    if !is_saved_plan(&head) {
        return Ok((Box::new(std::io::Cursor::new(head).chain(src)), false));
    }
    src.read_to_end(&mut head).map_err(|e| open_error(&name, &e))?;
    Ok((Box::new(std::io::Cursor::new(json_of(source, head, show)?)), true))
}

/// How much of a piped input is read before judging its start.
/// (As much as the streaming reader's first piece.)
pub(crate) const HEAD: usize = 256 << 10;

/// The most text `--lenient` skips looking for the JSON's first `{`.
pub(crate) const MAX_PREFIX: usize = 64 << 20;

/// True when the start of an input already decides that it will be refused:
/// UTF-16 or a BOM (strict), not an object (strict; a saved plan's zip
/// signature aside), or no `{` in the first [`MAX_PREFIX`] bytes (lenient).
fn hopeless(head: &[u8], lenient: bool) -> bool {
    if is_saved_plan(head) {
        return false;
    }
    if sniff_encoding("", head, lenient).is_err() {
        return true;
    }
    if lenient {
        return head.len() > MAX_PREFIX && memchr::memchr(b'{', head).is_none();
    }
    let start = head.iter().position(|&b| !is_json_ws(b));
    start.is_some_and(|i| head[i] != b'{')
}

/// Refuse what cannot hold a plan before reading it: a directory, and devices
/// or sockets (`/dev/zero` or a terminal would never end). Pipes and FIFOs
/// (`<(tofu show -json plan.out)`) are read.
fn check_not_dir(name: &str, path: &std::path::Path) -> Result<(), InputError> {
    let meta = std::fs::metadata(path).map_err(|e| open_error(name, &e))?;
    if meta.is_dir() {
        return Err(InputError::new(name, "is a directory, not a JSON file"));
    }
    if let Some(kind) = special_file(&meta) {
        return Err(InputError::new(name, format!("is a {kind}, not a JSON file"))
            .hint("pass a file, `-` for stdin, or a pipe such as `<(tofu show -json plan.out)`"));
    }
    Ok(())
}

/// Device files and sockets, by kind; `None` for files and pipes.
#[cfg(unix)]
fn special_file(meta: &std::fs::Metadata) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    let t = meta.file_type();
    if t.is_char_device() {
        Some("character device")
    } else if t.is_block_device() {
        Some("block device")
    } else if t.is_socket() {
        Some("socket")
    } else {
        None
    }
}

#[cfg(not(unix))]
fn special_file(_meta: &std::fs::Metadata) -> Option<&'static str> {
    None
}

/// A file that was there when checked and is gone when opened vanished.
fn vanished_or(name: &str, e: &std::io::Error) -> InputError {
    if e.kind() == std::io::ErrorKind::NotFound {
        return InputError::new(name, "cannot read: the file vanished before it could be read");
    }
    open_error(name, e)
}

fn open_error(name: &str, e: &std::io::Error) -> InputError {
    let what = match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => e.to_string(),
    };
    InputError::new(name, format!("cannot read: {what}"))
}
