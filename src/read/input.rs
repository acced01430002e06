//! Reading input: files and stdin, saved binary plans (through `tofu show -json`
//! or `terraform show -json`), encoding checks, plan/state detection and the
//! `format_version` gate.

use crate::error::InputError;
use crate::model::document::{Document, StateDoc};
use crate::model::{RawDocument, Values};
use crate::scan::is_json_ws;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

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
pub fn read(source: &Source) -> Result<Vec<u8>, InputError> {
    read_with(source, &ReadOptions::from_env())
}

/// Read the whole input, as JSON: a saved binary plan (a zip archive) is turned
/// into JSON by running `show -json` on it as `show` says.
pub fn read_with(source: &Source, show: &ReadOptions) -> Result<Vec<u8>, InputError> {
    json_of(source, read_raw_counted(source, show.lenient, &show.progress)?, show)
}

/// The input's bytes as JSON: unchanged, or, for a saved plan, what `show -json` prints.
pub fn json_of(source: &Source, bytes: Vec<u8>, show: &ReadOptions) -> Result<Vec<u8>, InputError> {
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
fn reserve(name: &str, buf: &mut Vec<u8>, more: usize, exact: bool) -> Result<(), InputError> {
    let reserved = crate::oom::fallibly(|| if exact { buf.try_reserve_exact(more) } else { buf.try_reserve(more) });
    reserved.map_err(|_| {
        let mb = |n: usize| n.div_ceil(1 << 20);
        InputError::new(name, format!("is too big to read into memory: {} MB could not be allocated", mb(buf.len().saturating_add(more))))
            .hint("planview holds the whole input in memory for this command (`summary` streams it); raise the memory limit (`ulimit -v`, the container's limit) or run `summary`")
    })
}

fn read_error(name: &str, e: &std::io::Error) -> InputError {
    if e.kind() == std::io::ErrorKind::OutOfMemory {
        return InputError::new(name, "is too big to read: memory could not be allocated");
    }
    InputError::new(name, format!("cannot read: {e}"))
}

/// Read a pipe: the start decides (read it, judge it, then read the rest,
/// depth-checked as it comes). Never more than [`MAX_BLANKS`] of blank space
/// before the document or [`MAX_TRAILER`] after it: an endless pipe ends.
fn read_piped(name: &str, mut src: impl Read, lenient: bool) -> Result<Vec<u8>, InputError> {
    let mut buf = Vec::new();
    // Read up to `want` more bytes; the number read.
    let mut more = |buf: &mut Vec<u8>, want: usize| -> Result<usize, InputError> {
        reserve(name, buf, want, false)?;
        (&mut src).take(want as u64).read_to_end(buf).map_err(|e| read_error(name, &e))
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
    // The rest, depth-checked as it comes: an endless `[[[[...` stops
    // at the limit instead of filling memory.
    let mut scanner = crate::scan::Scanner::new(lenient);
    scanner.feed(&buf);
    loop {
        let found = scanner.found();
        if found.too_deep.is_some() {
            return Ok(buf); // parsing what was read gives the error
        }
        if found.start.is_none() && buf.len() > MAX_BLANKS {
            return Err(too_blank(name));
        }
        if found.end.is_some_and(|end| buf.len() - end > MAX_TRAILER) {
            return Ok(buf); // parsing what was read gives the error (see `after_document`)
        }
        let from = buf.len();
        if more(&mut buf, 1 << 20)? == 0 {
            return Ok(buf);
        }
        if !scanner.done() {
            scanner.feed(&buf[from..]);
        }
    }
}

/// The most blank space read before the document.
pub const MAX_BLANKS: usize = 64 << 20;

/// The most text read after the document (blank, or with `--lenient` a trailer).
pub const MAX_TRAILER: usize = 64 << 20;

/// More than [`MAX_BLANKS`] of blank space and no document yet.
pub(crate) fn too_blank(name: &str) -> InputError {
    InputError::new(name, format!("input starts with more than {} MB of blank space and no JSON", MAX_BLANKS >> 20))
        .hint("is it the right file or pipe? `show -json` prints its JSON at once")
}

/// More than [`MAX_TRAILER`] after the document.
pub(crate) fn too_long_trailer(name: &str) -> InputError {
    InputError::new(name, format!("the input goes on for more than {} MB after the JSON document", MAX_TRAILER >> 20))
        .hint("planview reads one document per input; is it the right file or pipe?")
}

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
pub(crate) fn second_document(rest: &[u8], scan: &mut TrailerScan) -> Option<usize> {
    for (i, &b) in rest.iter().enumerate() {
        match b {
            b'\n' => {
                scan.line_start = true;
                scan.key = 0;
            }
            b' ' | b'\t' | b'\r' => scan.key = 0,
            b'{' if scan.line_start => return Some(i),
            _ => {
                scan.line_start = false;
                scan.key = key_step(scan.key, b);
                if scan.key == KEY_FOUND {
                    return Some(i);
                }
            }
        }
    }
    None
}

/// Open the input for streaming ([`crate::read::stream`]), with the same errors as
/// [`read`]. A saved plan (a zip archive) is read whole and turned into JSON by
/// `show -json` first, as [`read_with`] does.
pub fn open(source: &Source, show: &ReadOptions) -> Result<Box<dyn Read + Send>, InputError> {
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
pub const MAX_PREFIX: usize = 64 << 20;

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

// ------------------------------------------------------------------ saved plans

/// A saved plan (`plan -out FILE`) is a zip archive.
pub fn is_saved_plan(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04")
}

/// How inputs are read: how to turn a saved plan into JSON (which binary, in
/// which directory), `--lenient`, and where reading leaves its warnings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// `--tf-bin` or `PLANVIEW_TF_BIN`; `None`: `tofu`, then `terraform`, from PATH.
    pub tf_bin: Option<PathBuf>,
    /// `--chdir`: the working directory of `show` (where `init` was run).
    pub chdir: Option<PathBuf>,
    /// `--lenient`: skip a wrapper's text before the JSON (and a trailer after
    /// it that is not another document), with a warning in `notes`.
    pub lenient: bool,
    /// Warnings from reading (what `--lenient` skipped), printed on stderr by
    /// [`crate::run`]. Shared by the clones handed to reading threads.
    pub notes: Notes,
    /// Which binary turned each saved plan into JSON (`moves --format commands`
    /// writes `state mv` commands for it). Shared like `notes`.
    pub shown_by: ShownBy,
    /// Where reading big inputs draws its progress (off unless `main` turns it on).
    pub progress: crate::progress::Progress,
    /// A second read of a regular file whose first read checked it whole
    /// (`diff`, `fingerprint`): its nesting depth is not scanned again (UTF-8
    /// still is; serde_json's own limits still hold).
    pub rescan_depth_skipped: bool,
    /// The secrets of every input of the run, when a first pass collected
    /// them ([`crate::secrets::Masker::seeded`]): each document's secrets start
    /// from these, so a value marked sensitive in one input is masked where
    /// another holds it unmarked.
    pub seed: Seed,
}

pub use crate::secrets::Seed;

/// The binary that ran `show -json` on each saved plan read, by input name.
/// Shared between threads; not part of the options' value (any two compare equal).
#[derive(Debug, Clone, Default)]
pub struct ShownBy(std::sync::Arc<std::sync::Mutex<Vec<(String, PathBuf)>>>);

impl ShownBy {
    fn push(&self, file: &str, bin: &Path) {
        if let Ok(mut v) = self.0.lock() {
            v.push((file.to_string(), bin.to_path_buf()));
        }
    }

    /// The binary that showed `file`, if it was a saved plan.
    pub fn get(&self, file: &str) -> Option<PathBuf> {
        self.0.lock().ok()?.iter().rev().find(|(f, _)| f == file).map(|(_, b)| b.clone())
    }
}

impl PartialEq for ShownBy {
    fn eq(&self, _: &ShownBy) -> bool {
        true
    }
}

impl Eq for ShownBy {}

/// A sink of warnings, shared between threads. Not part of the options'
/// value: any two sinks compare equal.
#[derive(Debug, Clone, Default)]
pub struct Notes(std::sync::Arc<std::sync::Mutex<Vec<(String, String)>>>);

impl Notes {
    /// Add one warning about `file`.
    pub fn push(&self, file: &str, message: impl std::fmt::Display) {
        if let Ok(mut v) = self.0.lock() {
            v.push((file.to_string(), message.to_string()));
        }
    }

    /// Take the warnings so far (`FILE: message`), in the order they came.
    pub fn take(&self) -> Vec<String> {
        self.take_ordered(&[])
    }

    /// Take the warnings so far (`FILE: message`), those of each file in
    /// `files` in that order (inputs are read in parallel, so they come in
    /// any order), then the others as they came; each file's own in the order
    /// they came.
    pub fn take_ordered(&self, files: &[String]) -> Vec<String> {
        let mut notes = self.0.lock().map(|mut v| std::mem::take(&mut *v)).unwrap_or_default();
        notes.sort_by_key(|(file, _)| files.iter().position(|f| f == file).unwrap_or(files.len()));
        notes.into_iter().map(|(file, message)| format!("{file}: {message}")).collect()
    }
}

impl PartialEq for Notes {
    fn eq(&self, _: &Notes) -> bool {
        true
    }
}

impl Eq for Notes {}

/// The environment variable naming the binary to run on saved plans.
pub const TF_BIN_ENV: &str = "PLANVIEW_TF_BIN";

impl ReadOptions {
    /// The binary from `PLANVIEW_TF_BIN` (when set and non-empty), no directory.
    pub fn from_env() -> ReadOptions {
        ReadOptions { tf_bin: tf_bin_from_env(), ..Default::default() }
    }
}

/// `PLANVIEW_TF_BIN`, when set and non-empty.
pub fn tf_bin_from_env() -> Option<PathBuf> {
    std::env::var_os(TF_BIN_ENV).filter(|v| !v.is_empty()).map(PathBuf::from)
}

/// The first of `tofu`, then `terraform`, found as an executable file on PATH.
pub fn find_tf_bin(path_var: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    let dirs: Vec<PathBuf> = path_var.map(|p| std::env::split_paths(p).collect()).unwrap_or_default();
    for name in ["tofu", "terraform"] {
        let file = format!("{name}{}", std::env::consts::EXE_SUFFIX);
        for dir in &dirs {
            let candidate = dir.join(&file);
            if is_executable(&candidate) {
                return Some(candidate);
            }
        }
    }
    None
}

fn is_executable(p: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(p) else { return false };
    if !meta.is_file() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        true
    }
}

const SHOW_HINT: &str = "convert it yourself where `init` was run: `tofu show -json plan.out > plan.json` (or `terraform show -json`), or choose the binary with --tf-bin PATH or PLANVIEW_TF_BIN and the directory with --chdir DIR";

/// Run `BIN show -json -no-color PATH` and return its stdout. `-no-color`:
/// its errors (quoted in ours) come without the CLI's colour codes.
fn show_json(name: &str, path: &Path, show: &ReadOptions) -> Result<Vec<u8>, InputError> {
    let bin = match &show.tf_bin {
        Some(b) => b.clone(),
        None => find_tf_bin(std::env::var_os("PATH").as_deref()).ok_or_else(|| {
            InputError::new(name, "is a saved plan (a zip archive), not JSON, and neither `tofu` nor `terraform` is on PATH to read it")
                .hint(SHOW_HINT)
        })?,
    };
    // The plan path is relative to our directory, not to `--chdir`.
    let plan = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let shown = bin.display().to_string();
    let mut cmd = Command::new(&bin);
    cmd.arg("show").arg("-json").arg("-no-color").arg(&plan).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    if let Some(dir) = &show.chdir {
        cmd.current_dir(dir);
    }
    let out = run_fallibly(name, &mut cmd).map_err(|e| {
        let what = match e.kind() {
            std::io::ErrorKind::NotFound => "not found".to_string(),
            std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
            _ => e.to_string(),
        };
        let mut msg = format!("is a saved plan (a zip archive); running `{shown} show -json` on it failed: {what}");
        if let Some(dir) = &show.chdir {
            if !dir.is_dir() {
                msg = format!("is a saved plan (a zip archive); --chdir {} is not a directory", dir.display());
            }
        }
        InputError::new(name, msg).hint(SHOW_HINT)
    })??;
    if !out.status.success() {
        let status = match out.status.code() {
            Some(c) => format!("exit status {c}"),
            None => "killed by a signal".to_string(),
        };
        let stderr = tail(&String::from_utf8_lossy(&out.stderr), 20);
        let mut msg = format!("is a saved plan (a zip archive); `{shown} show -json` failed on it ({status})");
        if !stderr.trim().is_empty() {
            msg.push_str(":\n");
            msg.push_str(stderr.trim_end());
        }
        return Err(InputError::new(name, msg).hint(
            "a saved plan can only be shown in the directory where it was planned (after `init`, with the same providers): use --chdir DIR, or choose the binary with --tf-bin PATH / PLANVIEW_TF_BIN",
        ));
    }
    show.shown_by.push(name, &bin);
    Ok(out.stdout)
}

/// [`Command::output`], with the child's stdout (a plan's JSON, as big as
/// the plan) read into memory reserved fallibly: too big is an input error.
fn run_fallibly(name: &str, cmd: &mut Command) -> std::io::Result<Result<std::process::Output, InputError>> {
    let mut child = cmd.spawn()?;
    let stderr = child.stderr.take().map(|mut e| {
        std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = e.read_to_end(&mut v);
            v
        })
    });
    let mut stdout = Vec::new();
    let read = child.stdout.take().map_or(Ok(()), |mut o| loop {
        if let Err(e) = reserve(name, &mut stdout, 1 << 20, false) {
            break Err(e);
        }
        match (&mut o).take(1 << 20).read_to_end(&mut stdout) {
            Ok(0) => break Ok(()),
            Ok(_) => {}
            Err(e) => break Err(read_error(name, &e)),
        }
    });
    if let Err(e) = read {
        let _ = child.kill();
        let _ = child.wait();
        return Ok(Err(e));
    }
    let status = child.wait()?;
    let stderr = stderr.and_then(|h| h.join().ok()).unwrap_or_default();
    Ok(Ok(std::process::Output { status, stdout, stderr }))
}

/// The last `n` lines of `s`.
fn tail(s: &str, n: usize) -> String {
    let lines: Vec<&str> = s.lines().collect();
    let skip = lines.len().saturating_sub(n);
    lines[skip..].join("\n")
}

/// A temporary file, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn create(bytes: &[u8]) -> std::io::Result<TempFile> {
        use std::io::Write;
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        let path = std::env::temp_dir().join(format!("planview-stdin-{}-{nanos}.tfplan", std::process::id()));
        let mut opts = std::fs::OpenOptions::new();
        opts.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            opts.mode(0o600);
        }
        let mut f = opts.open(&path)?;
        let tmp = TempFile(path);
        f.write_all(bytes)?;
        Ok(tmp)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The range of `format_version` this version reads.
pub const SUPPORTED: &str = ">= 0.1, < 2.0 (every 0.x and 1.x)";

/// 1-based line and column of a byte offset.
pub fn line_col(bytes: &[u8], offset: usize) -> (usize, usize) {
    let upto = &bytes[..offset.min(bytes.len())];
    let line = upto.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = upto.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let column = String::from_utf8_lossy(&upto[line_start..]).chars().count() + 1;
    (line, column)
}

/// Check encoding and framing, parse, tell plan from state and check the version.
pub fn parse<'a>(name: &str, bytes: &'a [u8]) -> Result<Document<'a>, InputError> {
    parse_with(name, bytes, &ReadOptions::default())
}

/// [`parse`] as `opts` says: with `--lenient`, a wrapper's text before the first
/// `{` (a UTF-8 byte-order mark included) and a trailer after the document are
/// skipped, with a warning in `opts.notes`. Errors are located in the whole input.
pub fn parse_with<'a>(name: &str, bytes: &'a [u8], opts: &ReadOptions) -> Result<Document<'a>, InputError> {
    sniff_encoding(name, bytes, opts.lenient)?;
    // --lenient: the document starts at the first `{` (when there is none, the
    // input is read as it is, and refused as strictly).
    let skip = if opts.lenient && !crate::read::wrong::starts_human(bytes) {
        memchr::memchr(b'{', &bytes[..bytes.len().min(MAX_PREFIX + 1)]).unwrap_or(0)
    } else {
        0
    };
    if skip > 0 && !bytes[..skip].iter().all(|&b| is_json_ws(b)) {
        let (l, c) = line_col(bytes, skip);
        opts.notes.push(name, skipped_prefix(skip, l, c));
    }
    // Validate the whole input (a skipped prefix too): parts that queries skip
    // are otherwise never checked.
    let all = std::str::from_utf8(bytes).map_err(|e| {
        let (l, c) = line_col(bytes, e.valid_up_to());
        InputError::new(name, "input is not valid UTF-8").at(l, c).hint("re-encode as UTF-8")
    })?;
    let text = &all[skip..];
    if text.bytes().take(MAX_BLANKS + 1).all(is_json_ws) && text.len() > MAX_BLANKS {
        return Err(too_blank(name));
    }
    check_start(name, text)?;
    // The depth scan and the parse are independent: on a big input they run
    // side by side. The scan's verdict comes first.
    let (found, parsed) = concurrently(text.len() >= PARALLEL_SCAN, || crate::scan::scan(text.as_bytes(), false), || parse_first(text));
    if let Some(at) = found.too_deep {
        let (l, c) = line_col(bytes, skip + at);
        return Err(too_deep(name, l, c));
    }
    // serde_json counts from the skipped prefix's end.
    let (raw, end) = parsed.map_err(|e| json_error_at(name, &e, if skip > 0 { line_col(bytes, skip) } else { (1, 1) }))?;
    let rest = &text.as_bytes()[end..];
    match rest.iter().position(|&b| !is_json_ws(b)) {
        None if rest.len() > MAX_TRAILER => return Err(too_long_trailer(name)),
        None => {}
        Some(r) if r > MAX_TRAILER => return Err(too_long_trailer(name)),
        Some(r) => {
            if opts.lenient && !matches!(rest[r], b'{' | b'[') {
                // A trailer may be skipped, unless a document hides in it.
                if let Some(k) = second_document(&rest[r..rest.len().min(MAX_TRAILER + 1)], &mut TrailerScan::new(false)) {
                    let (l, c) = line_col(bytes, skip + end + r + k);
                    return Err(two_documents(name, l, c, true));
                }
                if rest.len() > MAX_TRAILER {
                    return Err(too_long_trailer(name));
                }
            }
            if crate::read::wrong::is_log_message(&raw.other_keys) {
                return Err(crate::read::wrong::log_stream(name));
            }
            let (l, c) = line_col(bytes, skip + end + r);
            after_document(name, rest[r], l, c, opts)?;
        }
    }
    classify(name, raw)
}

/// Inputs from this size on are depth-scanned on a second thread while they parse.
const PARALLEL_SCAN: usize = 1 << 20;

/// `a` and `b`, side by side on two threads when `parallel`, else one after the other.
fn concurrently<A: Send, B>(parallel: bool, a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B) -> (A, B) {
    if !parallel {
        return (a(), b());
    }
    std::thread::scope(|s| {
        let h = s.spawn(a);
        let rb = b();
        (h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)), rb)
    })
}

/// The first JSON value of `text` as a document, and the offset just after it
/// (what follows is judged by [`after_document`]).
fn parse_first(text: &str) -> Result<(RawDocument<'_>, usize), serde_json::Error> {
    let mut it = serde_json::Deserializer::from_str(text).into_iter::<RawDocument<'_>>();
    match it.next() {
        Some(Ok(doc)) => Ok((doc, it.byte_offset())),
        Some(Err(e)) => Err(e),
        None => Err(<serde_json::Error as serde::de::Error>::custom("EOF while parsing a value")),
    }
}

/// What follows the document (`next` is its first non-blank byte, at line `l`,
/// column `c`): another document is refused; other text is refused unless
/// `--lenient`, which ignores it with a warning.
pub(crate) fn after_document(name: &str, next: u8, l: usize, c: usize, opts: &ReadOptions) -> Result<(), InputError> {
    if matches!(next, b'{' | b'[') {
        return Err(two_documents(name, l, c, false));
    }
    if !opts.lenient {
        return Err(InputError::new(name, "there is text after the JSON document")
            .at(l, c)
            .hint("a CI wrapper may have printed it: strip it, run `show -json` without the wrapper, or pass --lenient to ignore it"));
    }
    opts.notes.push(name, format!("--lenient: ignored the text after the JSON document, from line {l}, column {c}"));
    Ok(())
}

/// A second document at line `l`, column `c` (`between`: after text that
/// `--lenient` would have skipped as a trailer). Several documents in one input
/// are refused, never read as the first one alone.
pub(crate) fn two_documents(name: &str, l: usize, c: usize, between: bool) -> InputError {
    let what = if between { " (with text between them)" } else { "" };
    InputError::new(name, format!("there are two JSON documents{what}"))
        .at(l, c)
        .hint("planview reads several documents from one input when each starts on a line of its own (`summary`, `gate`, `show`, ...); `diff`, `fingerprint` and `moves` read one document per input")
}

/// The warning for a skipped prefix of `bytes` bytes; the JSON starts at line `l`, column `c`.
pub(crate) fn skipped_prefix(bytes: usize, l: usize, c: usize) -> String {
    let what = if bytes == 3 { "3 bytes (a UTF-8 byte-order mark?)".to_string() } else { format!("{bytes} bytes of text") };
    format!("--lenient: skipped {what} before the JSON, which starts at line {l}, column {c}")
}

/// Nesting beyond [`crate::scan::MAX_DEPTH`], at line `l`, column `c`.
pub(crate) fn too_deep(name: &str, l: usize, c: usize) -> InputError {
    let max = crate::scan::MAX_DEPTH;
    InputError::new(name, format!("invalid JSON: nested deeper than {max} levels"))
        .at(l, c)
        .hint(format!("planview reads documents nested at most {max} levels deep; output of `show -json` nests far less"))
}

/// Refuse UTF-16, and a UTF-8 byte-order mark unless `lenient` (which skips
/// it as a wrapper's prefix). Looks at the first bytes only.
pub(crate) fn sniff_encoding(name: &str, bytes: &[u8], lenient: bool) -> Result<(), InputError> {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) || looks_utf16(bytes) {
        return Err(InputError::new(name, "input is UTF-16, not UTF-8")
            .hint("re-encode as UTF-8 (PowerShell's `>` writes UTF-16; use `| Out-File -Encoding utf8`)"));
    }
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) && !lenient {
        return Err(InputError::new(name, "input starts with a UTF-8 byte-order mark")
            .at(1, 1)
            .hint("re-encode as UTF-8 without a BOM, or pass --lenient to skip it"));
    }
    Ok(())
}

/// The first non-blank character must open an object; say what it is otherwise.
/// `text` is the input, or (when streaming) the part of it read so far.
pub(crate) fn check_start(name: &str, text: &str) -> Result<(), InputError> {
    check_start_at(name, text, true, &|at| line_col(text.as_bytes(), at))
}

/// [`check_start`] on a text that may follow blanks already dropped (streaming
/// drops them as they arrive): `whole` says whether `text` is the very start of
/// the input, and `locate` turns an offset in `text` into a line and column of the input.
pub(crate) fn check_start_at(name: &str, text: &str, whole: bool, locate: &dyn Fn(usize) -> (usize, usize)) -> Result<(), InputError> {
    let start = text.bytes().position(|b| !is_json_ws(b));
    let Some(start) = start else {
        return Err(InputError::new(name, "input is empty").hint("did `show -json` fail? check its exit code and stderr"));
    };
    match text.as_bytes()[start] {
        b'{' => {}
        b'[' => {
            let (l, c) = locate(start);
            return Err(InputError::new(name, "input is a JSON array, not a plan or state object").at(l, c));
        }
        _ => {
            let (l, c) = locate(start);
            if crate::read::wrong::is_human_rendering(&text[start..]) {
                return Err(crate::read::wrong::human_rendering(name, l, c));
            }
            let mut e = InputError::new(name, "input does not start with a JSON object").at(l, c);
            if whole && is_saved_plan(text.as_bytes()) {
                return Err(InputError::new(name, "input is a saved plan (a zip archive), not JSON").hint(SHOW_HINT));
            }
            if let Some(brace) = text[start..].find('{') {
                let (bl, _) = locate(start + brace);
                e = e.hint(format!(
                    "there is text before the JSON (it starts on line {bl}); a CI wrapper may have printed it: strip it, run `tofu show -json` / `terraform show -json` without the wrapper, or pass --lenient to skip it"
                ));
            } else {
                e = e.hint("expected the output of `tofu show -json` or `terraform show -json`");
            }
            return Err(e);
        }
    }
    Ok(())
}

/// [`json_error`] for text that starts at line `l`, column `c` of the input
/// (serde_json counts from the start of the text it was given).
pub(crate) fn json_error_at(name: &str, e: &serde_json::Error, (l, c): (usize, usize)) -> InputError {
    let mut err = json_error(name, e);
    if e.line() > 0 {
        err.line = Some(l + e.line() - 1);
        err.column = Some(if e.line() == 1 { c + e.column() - 1 } else { e.column() });
    }
    err
}

pub(crate) fn json_error(name: &str, e: &serde_json::Error) -> InputError {
    let msg = serde_message(e);
    let mut err = InputError::new(name, format!("invalid JSON: {msg}"));
    if e.line() > 0 {
        err = err.at(e.line(), e.column());
    }
    match e.classify() {
        serde_json::error::Category::Eof => err.hint("the JSON ends too early: was the file truncated?"),
        _ if msg.starts_with("trailing characters") => {
            err.hint("there is text after the JSON document (two documents, or a wrapper's trailer?)")
        }
        _ if msg.starts_with("recursion limit exceeded") => {
            err.hint(format!("the document nests deeper than planview reads ({} levels)", crate::scan::MAX_DEPTH))
        }
        _ => err,
    }
}

/// serde_json's message without its " at line L column C" (we print the
/// location ourselves, in the whole input) and without the value it found.
pub fn serde_message(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    let msg = match msg.rfind(" at line ") {
        Some(i) => &msg[..i],
        None => &msg,
    };
    redact_found_value(msg)
}

/// serde's type errors quote the value they found (`invalid type: string
/// "hunter2", expected a boolean`). A document that cannot be read cannot be
/// searched for secrets, so the value is replaced by its kind.
pub fn redact_found_value(msg: &str) -> String {
    for lead in ["invalid type: ", "invalid value: "] {
        let Some(rest) = msg.strip_prefix(lead) else { continue };
        let (found, tail) = rest.split_once(", expected ").map_or((rest, None), |(f, t)| (f, Some(t)));
        let kind = if found.starts_with("string ") {
            "a string"
        } else if found.starts_with("integer ") || found.starts_with("floating point ") || found.starts_with("number") {
            "a number"
        } else {
            return msg.to_string(); // booleans, maps, sequences, null: nothing to hide
        };
        return match tail {
            Some(t) => format!("{lead}{kind}, expected {t}"),
            None => format!("{lead}{kind}"),
        };
    }
    msg.to_string()
}

/// UTF-16 without a BOM: NUL bytes in every other position at the start.
fn looks_utf16(bytes: &[u8]) -> bool {
    bytes.len() >= 4 && ((bytes[0] == 0 && bytes[2] == 0 && bytes[1] != 0) || (bytes[1] == 0 && bytes[3] == 0 && bytes[0] != 0))
}

fn classify<'a>(name: &str, raw: RawDocument<'a>) -> Result<Document<'a>, InputError> {
    if crate::read::wrong::is_log_message(&raw.other_keys) {
        return Err(crate::read::wrong::log_stream(name));
    }
    let version_value = raw.format_version.clone().or_else(|| raw.plan_format_version.clone());
    let hcp = raw.format_version.is_none() && raw.plan_format_version.is_some();
    // A plan can carry `provider_schemas` too (OpenTofu's cloud redacted
    // plans): keys only plans have make it a plan.
    if raw.other_keys.iter().any(|k| k == "provider_schemas") && !hcp && !raw.plan_keys {
        return Err(InputError::new(name, "this is provider schemas output (`providers schema -json`), not a plan or state")
            .hint("run `tofu show -json PLANFILE` or `terraform show -json PLANFILE`"));
    }
    let Some(version_value) = version_value else {
        return Err(neither(name, &raw, "it has no `format_version`, so its major version cannot be known"));
    };
    let version = match &version_value {
        serde_json::Value::String(s) => s.clone(),
        other => {
            let found = crate::sanitize::line(&other.to_string()).chars().take(40).collect::<String>();
            return Err(InputError::new(name, format!("`format_version` must be a string, found {found}")));
        }
    };
    check_version(name, &version)?;
    // A plan never has `values`, a state never has a plan's keys: a document
    // with both is neither, and reading it as either could pass what the
    // other holds (a state's resources judged as a plan of no changes).
    if raw.values_key && (raw.plan_keys || hcp) {
        let key = raw.first_plan_key.unwrap_or("plan_format_version");
        return Err(InputError::new(name, format!("not a plan or state from `show -json`: it has a state's `values` and a plan's `{key}`, so which it is cannot be known"))
            .hint("pass the output of `tofu show -json PLANFILE` or `terraform show -json PLANFILE` (a plan) or `terraform show -json` (a state), as the CLI wrote it"));
    }
    if raw.plan_keys || hcp {
        let mut plan = raw.plan;
        plan.format_version = version;
        plan.mark_sensitive_outputs();
        return Ok(Document::Plan(Box::new(plan)));
    }
    if raw.values.is_some() || raw.other_keys.is_empty() {
        // A state, or the empty state `{"format_version":"1.0"}`.
        let values = match raw.values {
            Some(v) => serde_json::from_str::<Option<Values<'a>>>(v.get())
                .map_err(|e| InputError::new(name, format!("invalid state `values`: {}", serde_message(&e))))?,
            None => None,
        };
        return Ok(Document::State(StateDoc {
            format_version: version,
            terraform_version: raw.plan.terraform_version,
            values,
            checks: raw.plan.checks,
        }));
    }
    Err(neither(name, &raw, "it has none of the keys of a plan or a state"))
}

fn neither(name: &str, raw: &RawDocument<'_>, why: &str) -> InputError {
    // Keys come from the input: escaped, and only the first few, cut short.
    let keys: Vec<String> = raw.other_keys.iter().take(8).map(|k| crate::sanitize::line(k).chars().take(40).collect()).collect();
    let what = if keys.is_empty() { String::new() } else { format!(" (top-level keys: {})", keys.join(", ")) };
    InputError::new(name, format!("not a plan or state from `show -json`: {why}{what}"))
        .hint("pass the output of `tofu show -json PLANFILE`, `terraform show -json PLANFILE` or `terraform show -json` (state)")
}

/// Accept every 0.x and 1.x (`"1.2"` has two parts); refuse 2.0+ and malformed.
pub fn check_version(name: &str, version: &str) -> Result<semver::Version, InputError> {
    let parts: Vec<&str> = version.split('.').collect();
    let padded = match parts.len() {
        1 => format!("{version}.0.0"),
        2 => format!("{version}.0"),
        _ => version.to_string(),
    };
    let v = semver::Version::parse(&padded)
        .map_err(|_| InputError::new(name, format!("`format_version` {version:?} is not a version number; supported: {SUPPORTED}")))?;
    let req = semver::VersionReq::parse("<2.0.0").expect("static requirement");
    if !req.matches(&v) || v.major >= 2 {
        return Err(InputError::new(name, format!("unsupported format_version {version:?}: planview reads {SUPPORTED}"))
            .hint("a new major version may change meanings; upgrade planview"));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scan::MAX_DEPTH;

    fn err(s: &str) -> InputError {
        parse("f.json", s.as_bytes()).unwrap_err()
    }

    #[test]
    fn warnings_of_files_read_in_parallel_come_out_in_input_order() {
        let notes = Notes::default();
        notes.push("b.json", "second file, first note");
        notes.push("c.json", "not an input of this run");
        notes.push("a.json", "first file");
        notes.push("b.json", "second file, second note");
        let files = ["a.json".to_string(), "b.json".to_string()];
        assert_eq!(
            notes.take_ordered(&files),
            [
                "a.json: first file",
                "b.json: second file, first note",
                "b.json: second file, second note",
                "c.json: not an input of this run"
            ]
        );
        assert!(notes.take().is_empty());
    }

    #[test]
    fn versions_one_two_and_three_parts() {
        assert!(check_version("f", "1.2").is_ok());
        assert!(check_version("f", "0.1").is_ok());
        assert!(check_version("f", "1.0.3").is_ok());
        assert!(check_version("f", "1").is_ok());
        let e = check_version("f", "2.0").unwrap_err();
        assert!(e.message.contains("\"2.0\"") && e.message.contains("< 2.0"), "{e}");
        assert!(check_version("f", "one.two").is_err());
        assert!(check_version("f", "1.2-beta").is_err());
    }

    #[test]
    fn empty_state_is_a_state() {
        let d = parse("f", br#"{"format_version":"1.0"}"#).unwrap();
        assert_eq!(d.kind(), "state");
    }

    #[test]
    fn missing_version_and_foreign_documents_are_refused() {
        assert!(err(r#"{"resource_changes":[]}"#).message.contains("no `format_version`"));
        assert!(err(r#"{"format_version":"1.0","provider_schemas":{}}"#).message.contains("provider schemas"));
        assert!(err(r#"{"format_version":"1.0","valid":true,"diagnostics":[]}"#).message.contains("none of the keys"));
        assert!(err(r#"[1]"#).message.contains("array"));
        assert!(err("").message.contains("empty"));
        assert!(err(r#"{"format_version":1.0}"#).message.contains("must be a string"));
        // A state with a plan's key (or a plan with `values`) is neither.
        for both in [
            r#"{"format_version":"1.0","variables":{"x":{"value":1}},"values":{"root_module":{}}}"#,
            r#"{"format_version":"1.0","values":null,"resource_changes":[]}"#,
            r#"{"plan_format_version":"1.2","values":{}}"#,
        ] {
            let e = err(both);
            assert!(e.message.contains("a state's `values` and a plan's"), "{both}: {e}");
        }
    }

    #[test]
    fn type_errors_do_not_quote_the_value_found() {
        let e = err(
            r#"{"format_version":"1.2","resource_changes":[{"address":"a.b","mode":"managed","change":{"actions":"hunter2-secret"}}]}"#,
        );
        assert!(!e.to_string().contains("hunter2"), "{e}");
        assert!(e.message.contains("invalid type: a string, expected"), "{e}");
        let e = err(r#"{"format_version":"1.2","resource_changes":[{"address":123456789,"mode":"managed","change":{"actions":[]}}]}"#);
        assert!(!e.to_string().contains("123456789"), "{e}");
        assert_eq!(
            redact_found_value("invalid type: boolean `true`, expected a string"),
            "invalid type: boolean `true`, expected a string"
        );
        assert_eq!(redact_found_value("invalid value: string \"x\""), "invalid value: a string");
    }

    #[test]
    fn json_errors_carry_line_and_column() {
        let e = err("{\n  \"format_version\": \"1.0\",\n  \"values\": {,}\n}");
        assert_eq!((e.line, e.column), (Some(3), Some(14)));
        let e = err("{\"format_version\":\"1.0\"");
        assert!(e.hint.unwrap().contains("truncated"));
        let e = err("{\"format_version\":\"1.0\"}\n{}");
        assert!(e.message.contains("two JSON documents"), "{}", e.message);
        assert_eq!((e.line, e.column), (Some(2), Some(1)));
        let e = err("{\"format_version\":\"1.0\"}Done.");
        assert!(e.message.contains("text after the JSON"), "{}", e.message);
        assert_eq!((e.line, e.column), (Some(1), Some(25)));
    }

    #[test]
    fn big_inputs_scanned_on_a_second_thread_give_the_same_errors() {
        let pad = "x".repeat(PARALLEL_SCAN);
        let deep = format!("{{\"format_version\":\"1.2\",\"pad\":\"{pad}\",\n\"x\":{}{}}}", "[".repeat(200), "]".repeat(200));
        let e = parse("f", deep.as_bytes()).unwrap_err();
        assert!(e.message.contains("nested deeper than"), "{e}");
        assert_eq!((e.line, e.column), (Some(2), Some(4 + MAX_DEPTH)), "the 128th level: root + 127 brackets");
        let bad = format!("{{\"format_version\":\"1.2\",\"pad\":\"{pad}\",\n\"x\":[1,,2]}}");
        let e = parse("f", bad.as_bytes()).unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(8)), "{e}");
        let ok = format!("{{\"format_version\":\"1.0\",\"values\":{{}},\"pad\":\"{pad}\"}}\n");
        assert_eq!(parse("f", ok.as_bytes()).unwrap().kind(), "state");
    }

    #[test]
    fn lenient_skips_a_wrapper_before_and_after_but_not_a_second_document() {
        let lenient = ReadOptions { lenient: true, ..Default::default() };
        let d = parse_with("f", b"$ tofu show -json p\n{\"format_version\":\"1.0\"}Done.\n", &lenient).unwrap();
        assert_eq!(d.kind(), "state");
        let notes = lenient.notes.take();
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].contains("skipped 20 bytes") && notes[0].contains("line 2, column 1"), "{notes:?}");
        assert!(notes[1].contains("ignored the text after") && notes[1].contains("line 2, column 25"), "{notes:?}");
        let e = parse_with("f", b"x{\"format_version\":\"1.0\"} {}", &lenient).unwrap_err();
        assert!(e.message.contains("two JSON documents"));
        // Errors after a skipped prefix are located in the whole input.
        let e = parse_with("f", b"noise\n{\"format_version\":\"1.0\",\n\"values\": {,}}", &lenient).unwrap_err();
        assert_eq!((e.line, e.column), (Some(3), Some(12)));
        let e = parse_with("f", b"noise {\"format_version\": x}", &lenient).unwrap_err();
        assert_eq!((e.line, e.column), (Some(1), Some(26)));
        lenient.notes.take();
        // Blanks before the JSON are no wrapper: no warning.
        parse_with("f", b"\n  {\"format_version\":\"1.0\"}", &lenient).unwrap();
        assert!(lenient.notes.take().is_empty());
        // Strict reading refuses both.
        assert!(parse("f", b"$ x\n{\"format_version\":\"1.0\"}").is_err());
        assert!(parse("f", b"{\"format_version\":\"1.0\"}\nDone.").is_err());
    }

    #[test]
    fn lenient_refuses_a_second_document_hidden_behind_a_trailer() {
        let lenient = ReadOptions { lenient: true, ..Default::default() };
        let two = b"{\"format_version\":\"1.0\"}\n::debug::done\nDone.\n  {\"format_version\":\"1.0\"}\n";
        let e = parse_with("f", two, &lenient).unwrap_err();
        assert_eq!((e.line, e.column), (Some(4), Some(3)), "{e}");
        assert!(e.message.contains("two JSON documents (with text between them)"), "{e}");
        assert!(e.hint.as_deref().unwrap().contains("each starts on a line of its own"), "{e}");
        assert!(lenient.notes.take().is_empty(), "no warning for an input refused");
        // A `{` inside a trailer's line is text, not a document.
        parse_with("f", b"{\"format_version\":\"1.0\"}\n::debug::{\"a\":1}\n", &lenient).unwrap();
        assert_eq!(lenient.notes.take().len(), 1);
        // Strictly, the text after the first is refused where it starts.
        let e = parse("f", two).unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(1)), "{e}");
        let find = |text: &[u8], line_start: bool| {
            let mut scan = TrailerScan::new(line_start);
            (second_document(text, &mut scan), scan.line_start)
        };
        assert_eq!(find(b"x\n {", false), (Some(3), true));
        assert_eq!(find(b"x {", false), (None, false));
        assert_eq!(find(b"{", true), (Some(0), true));
        assert_eq!(find(b"x\n ", false), (None, true));
        // A `format_version` key anywhere in the text: a document planview did not read.
        assert_eq!(find(b"::debug::{\"format_version\":\"1.2\"}", false), (Some(25), false));
        assert_eq!(find(b"x \"plan_format_version\"", false), (Some(22), false));
        assert_eq!(find(b"format_ version\"", false), (None, false));
        assert_eq!(find(b"msg=\"{\\\"format_version\\\":1}\"", false), (Some(22), false), "escaped in a quoted message");
        assert_eq!(find(b"unsupported format_version 2.0", false), (None, false));
        // Cut between two pieces.
        let mut scan = TrailerScan::new(false);
        assert_eq!(second_document(b"log: {\"form", &mut scan), None);
        assert_eq!(second_document(b"at_version\": 1}", &mut scan), Some(10));
    }

    #[test]
    fn an_input_too_big_for_memory_is_an_input_error_not_an_abort() {
        let e = read_sized("big.json", std::io::empty(), u64::MAX / 4).unwrap_err();
        assert!(e.message.starts_with("is too big to read into memory"), "{e}");
        assert!(e.hint.as_deref().unwrap().contains("summary"), "{e}");
        assert_eq!(read_sized("small.json", &b"{}"[..], 2).unwrap(), b"{}");
        // A size that was wrong (a file that grew) is read all the same.
        assert_eq!(read_sized("grew.json", &b"{\"a\":1}"[..], 2).unwrap(), b"{\"a\":1}");
        let mut buf = vec![1u8];
        let e = reserve("f", &mut buf, usize::MAX / 2, false).unwrap_err();
        assert!(e.message.contains("could not be allocated"), "{e}");
    }

    #[test]
    fn encodings_are_refused_with_hints() {
        let e = parse("f", b"\xEF\xBB\xBF{}").unwrap_err();
        assert!(e.message.contains("byte-order mark"));
        let e = parse("f", b"\xFF\xFE{\x00}\x00").unwrap_err();
        assert!(e.message.contains("UTF-16"));
        let e = parse("f", b"{\"format_version\":\"1.0\",\n\"x\":\"\xC3\x28\"}").unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(6)));
    }

    #[test]
    fn text_before_the_json_gets_a_hint() {
        let e = err("$ terraform show -json plan.out\n{\"format_version\":\"1.0\"}");
        assert!(e.hint.unwrap().contains("line 2"));
    }

    #[test]
    fn saved_plans_are_recognised_and_parse_says_so() {
        assert!(is_saved_plan(b"PK\x03\x04rest"));
        assert!(!is_saved_plan(b"PK"));
        assert!(!is_saved_plan(b"{\"format_version\":\"1.0\"}"));
        let e = parse("plan.out", b"PK\x03\x04\x14\x00").unwrap_err();
        assert!(e.message.contains("saved plan") && e.hint.unwrap().contains("show -json"), "{}", e.message);
    }

    #[cfg(unix)]
    #[test]
    fn tofu_is_preferred_to_terraform_anywhere_on_path() {
        use std::os::unix::fs::PermissionsExt;
        let base = std::env::temp_dir().join(format!("planview-find-bin-{}", std::process::id()));
        let (a, b) = (base.join("a"), base.join("b"));
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        let exe = |p: &Path| {
            std::fs::write(p, "#!/bin/sh\n").unwrap();
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
        };
        exe(&a.join("terraform"));
        let path = std::env::join_paths([&a, &b]).unwrap();
        assert_eq!(find_tf_bin(Some(&path)), Some(a.join("terraform")));
        exe(&b.join("tofu"));
        assert_eq!(find_tf_bin(Some(&path)), Some(b.join("tofu")));
        // Not executable, or a directory: not found.
        std::fs::set_permissions(b.join("tofu"), std::fs::Permissions::from_mode(0o644)).unwrap();
        std::fs::remove_file(a.join("terraform")).unwrap();
        std::fs::create_dir_all(a.join("terraform")).unwrap();
        assert_eq!(find_tf_bin(Some(&path)), None);
        assert_eq!(find_tf_bin(None), None);
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn hcp_redacted_plan_is_a_plan() {
        let d = parse("f", br#"{"plan_format_version":"1.2","provider_format_version":"1.0","provider_schemas":{},"resource_changes":[]}"#)
            .unwrap();
        match d {
            Document::Plan(p) => assert_eq!(p.format_version, "1.2"),
            _ => panic!("not a plan"),
        }
    }
}
