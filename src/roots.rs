//! Many roots at once: directories of plans and inputs holding several documents
//! (Terragrunt's `run --all show -json`), turned into one named document per root
//! before the per-input pipeline runs.
//!
//! - [`expand`] turns the command line's inputs into [`Root`]s: a directory
//!   becomes the plan JSON files and saved plans found below it, each named by
//!   its directory relative to the one given, in a stable sorted order.
//! - [`Splitter`] finds the documents of one input in one pass: each starts on
//!   a line of its own (after blanks); the text between two of them is an error
//!   unless `--lenient`, which warns about each skipped piece. A line before a
//!   document that names a working directory (Terragrunt's log prefixes)
//!   names the document.
//! - [`stream_roots`] streams every document of every root through a query on a
//!   few worker threads (bounded memory: a few documents in flight), and
//!   [`split_whole`] splits an input read whole.
//!
//! Each document is handed to the parser preceded by as many newlines as lines
//! come before it in the input, so every error and warning names the line of
//! the whole input.

use crate::error::InputError;
use crate::input::{key_step, ReadOptions, Source, KEY_FOUND};
use crate::mask::Masker;
use crate::outcome::PerFile;
use crate::stream::{End, Fed, Feeder, Piece, ReadAhead};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::mpsc::SyncSender;

/// One root: a document source and the name it is reported under.
#[derive(Debug, Clone)]
pub struct Root {
    pub name: String,
    pub source: Source,
    /// Where `show -json` runs on a saved plan found in a directory (its own
    /// directory, unless `--chdir` says otherwise).
    pub chdir: Option<PathBuf>,
    /// Why this root cannot be read at all (a directory with no plans).
    pub problem: Option<InputError>,
}

impl Root {
    /// A root for an input given as it is.
    pub fn plain(source: &Source) -> Root {
        Root { name: source.name(), source: source.clone(), chdir: None, problem: None }
    }

    /// The read options for this root: its own `--chdir` for a saved plan
    /// found in a directory, unless one was given.
    pub fn options(&self, read: &ReadOptions) -> ReadOptions {
        match (&self.chdir, &read.chdir) {
            (Some(dir), None) => ReadOptions { chdir: Some(dir.clone()), ..read.clone() },
            _ => read.clone(),
        }
    }
}

/// How directories are searched.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FindOptions {
    /// `--plan-glob`: file names (or paths relative to the directory, when a
    /// pattern holds `/`) of saved plans; empty: `tfplan`, `*.tfplan`, `plan.out`.
    pub plan_globs: Vec<String>,
    /// Which documents of a directory are its root (one directory = one root: [`crate::tree`]).
    pub prefer: crate::tree::Prefer,
}

/// Directories never searched: providers and modules, Terragrunt's copies.
pub const SKIPPED_DIRS: &[&str] = &[".terraform", ".terragrunt-cache", ".git"];

/// How much of a `*.json` file is looked at to tell a `show -json` document.
const SNIFF: usize = 64 << 10;

/// The inputs as roots: files and stdin as they are, each directory as the
/// plans found below it. A `*.json` file found that is a JSON object but no
/// `show -json` document is skipped with a warning in `notes`, never silently;
/// so is what each directory's root left out ([`crate::tree`]).
pub fn expand(inputs: &[Source], find: &FindOptions, notes: &crate::input::Notes) -> Vec<Root> {
    let mut out = Vec::new();
    for src in inputs {
        match src {
            Source::File(dir) if std::fs::metadata(dir).is_ok_and(|m| m.is_dir()) => {
                let (candidates, problems) = walk_all(dir, find);
                let sniffed = sniff_all(&candidates);
                let mut found = Vec::with_capacity(candidates.len());
                for ((rel, path, json), sniffed) in candidates.iter().zip(sniffed) {
                    match sniffed {
                        Sniffed::Plan => found.push((rel.clone(), path.clone(), *json)),
                        Sniffed::Object => notes.push(
                            &path.display().to_string(),
                            "skipped: a JSON object with no `format_version` key, so not `show -json` output (pass the file itself to have it read)",
                        ),
                        Sniffed::Other => {}
                    }
                }
                let (mut found, left_out) = crate::tree::settle(found, find.prefer);
                left_out.iter().for_each(|n| notes.push(&src.name(), n));
                if found.is_empty() && problems.is_empty() {
                    let what = if left_out.is_empty() {
                        "no plan below it"
                    } else {
                        "nothing below it that this command reads (see the warning above)"
                    };
                    let e = InputError::new(&src.name(), format!("is a directory with {what}"))
                        .hint("planview looks for `show -json` output (`*.json`) and saved plans (`tfplan`, `*.tfplan`, `plan.out`, or --plan-glob PATTERN), skipping .terraform/ and .terragrunt-cache/");
                    out.push(Root { problem: Some(e), ..Root::plain(src) });
                }
                found.sort_by(|a: &(String, PathBuf), b| a.0.cmp(&b.0));
                out.extend(name_found(dir, found));
                out.extend(problems.into_iter().map(|(path, e)| Root {
                    name: path.display().to_string(),
                    source: Source::File(path),
                    chdir: None,
                    problem: Some(e),
                }));
            }
            _ => out.push(Root::plain(src)),
        }
    }
    out
}

/// Name each found plan by its directory relative to `top` (`.` for `top`
/// itself), or by its path when its directory holds several.
fn name_found(top: &Path, found: Vec<(String, PathBuf)>) -> Vec<Root> {
    let dir_of = |rel: &str| rel.rsplit_once('/').map_or(".", |(d, _)| d).to_string();
    let mut plans_in: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (rel, _) in &found {
        *plans_in.entry(dir_of(rel)).or_default() += 1;
    }
    let mut roots = Vec::with_capacity(found.len());
    for (rel, path) in &found {
        let dir = dir_of(rel);
        let shared = plans_in.get(&dir).is_some_and(|&n| n > 1);
        let name = if shared { rel.clone() } else { dir };
        let chdir = path.parent().map(Path::to_path_buf).filter(|_| top.is_dir());
        roots.push(Root { name, source: Source::File(path.clone()), chdir, problem: None });
    }
    roots
}

/// A file that may be a plan: its path relative to the top with `/`, its
/// path, and whether its start must be looked at to tell ([`is_show_json`]).
type Candidate = (String, PathBuf, bool);

/// Which candidates are plans: saved plans by their names, `*.json` files by
/// their start, looked at on a few threads (each file's open and read wait on
/// the file system, and a tree holds hundreds).
fn sniff_all(candidates: &[Candidate]) -> Vec<Sniffed> {
    crate::par::map(candidates, 16, |(_, path, look)| if *look { sniff(path) } else { Sniffed::Plan })
}

/// A directory that cannot be read, and why.
type Problem = (PathBuf, InputError);

/// The files below `top` that may be plans, and the directories that cannot
/// be read (by path). A level or two is listed here, until there are
/// directories enough to share; each of those is walked on one of a few
/// threads (listing a directory waits on the file system).
fn walk_all(top: &Path, find: &FindOptions) -> (Vec<Candidate>, Vec<Problem>) {
    let threads = crate::par::threads();
    let (mut found, mut problems) = (Vec::new(), Vec::new());
    let mut frontier = vec![top.to_path_buf()];
    while !frontier.is_empty() && (threads == 1 || frontier.len() < 4 * threads) {
        let mut deeper = Vec::new();
        for dir in &frontier {
            walk(top, dir, find, &mut found, &mut problems, Some(&mut deeper));
        }
        frontier = deeper;
    }
    let walked = crate::par::map(&frontier, 2, |dir| {
        let (mut found, mut problems) = (Vec::new(), Vec::new());
        walk(top, dir, find, &mut found, &mut problems, None);
        (found, problems)
    });
    for (f, p) in walked {
        found.extend(f);
        problems.extend(p);
    }
    problems.sort_by(|a, b| a.0.cmp(&b.0));
    (found, problems)
}

/// Collect the files in `dir` that may be plans ([`Candidate`]), and those
/// below it; or, given `deeper`, leave its directories there to walk later.
fn walk(
    top: &Path,
    dir: &Path,
    find: &FindOptions,
    found: &mut Vec<Candidate>,
    problems: &mut Vec<Problem>,
    mut deeper: Option<&mut Vec<PathBuf>>,
) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            problems.push((dir.to_path_buf(), InputError::new(&dir.display().to_string(), format!("cannot read the directory: {e}"))));
            return;
        }
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        // Symbolic links are not followed into directories (no loops).
        let Ok(kind) = entry.file_type() else { continue };
        let rel = path.strip_prefix(top).unwrap_or(&path).to_string_lossy().replace('\\', "/");
        if kind.is_dir() {
            if !SKIPPED_DIRS.contains(&name.as_str()) {
                match deeper.as_deref_mut() {
                    Some(later) => later.push(path),
                    None => walk(top, &path, find, found, problems, None),
                }
            }
            continue;
        }
        // A symbolic link is followed to a file.
        if !(kind.is_file() || std::fs::metadata(&path).is_ok_and(|m| m.is_file())) {
            continue;
        }
        if is_saved_plan_name(&name, &rel, find) {
            found.push((rel, path, false));
        } else if name.ends_with(".json") {
            found.push((rel, path, true));
        }
    }
}

/// Whether a file is taken for a saved plan by its name.
fn is_saved_plan_name(name: &str, rel: &str, find: &FindOptions) -> bool {
    if find.plan_globs.is_empty() {
        return name == "tfplan" || name == "plan.out" || (name.ends_with(".tfplan") && name.len() > ".tfplan".len());
    }
    find.plan_globs.iter().any(|g| if g.contains('/') { wildcard(g, rel) } else { wildcard(g, name) })
}

/// `*` (any text) and `?` (one character) over the whole of `text`.
pub fn wildcard(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti, mut star, mut mark) = (0, 0, None, 0);
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// What a look at a `*.json` file found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sniffed {
    /// It may be a `show -json` document: it is read (and its parse judges it).
    Plan,
    /// Not a JSON object (an array, text, an empty file): not a plan.
    Other,
    /// A JSON object with no `format_version` key anywhere: skipped with a warning.
    Object,
}

/// A `*.json` file is taken for a `show -json` document when it names a
/// `format_version` (or HCP's `plan_format_version`) key. The key comes first
/// in `show -json` output, so the first bytes mostly settle it; a file that
/// starts as an object without the key in its first [`SNIFF`] bytes (keys
/// sorted, a big `configuration` first) is searched to its end: a plan is
/// never skipped for where its key is.
fn sniff(path: &Path) -> Sniffed {
    let Ok(mut file) = std::fs::File::open(path) else { return Sniffed::Plan }; // reading it reports why
    let found = |head: &[u8]| memchr::memmem::find(head, NEEDLE).is_some();
    let mut head = Vec::with_capacity(SNIFF);
    if (&mut file).take(4 << 10).read_to_end(&mut head).is_err() {
        return Sniffed::Plan;
    }
    if found(&head) {
        return Sniffed::Plan;
    }
    if (&mut file).take((SNIFF - head.len()) as u64).read_to_end(&mut head).is_err() {
        return Sniffed::Plan;
    }
    if found(&head) {
        return Sniffed::Plan;
    }
    // Not an object (after blanks, or a byte-order mark): not a plan.
    let text = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&head);
    if text.iter().find(|&&b| !crate::scan::is_json_ws(b)) != Some(&b'{') {
        return Sniffed::Other;
    }
    // The rest, a piece at a time; the end of each piece kept for a key cut in two.
    let keep = NEEDLE.len() - 1;
    let mut tail = head.split_off(head.len().saturating_sub(keep));
    loop {
        match (&mut file).take(1 << 20).read_to_end(&mut tail) {
            Err(_) => return Sniffed::Plan,
            Ok(0) => return Sniffed::Object,
            Ok(_) if found(&tail) => return Sniffed::Plan,
            Ok(_) => {
                tail.drain(..tail.len().saturating_sub(keep));
            }
        }
    }
}

/// The key that makes a file a `show -json` document (`"format_version"`,
/// `"plan_format_version"`), without its opening quote.
const NEEDLE: &[u8] = b"format_version\"";

// ------------------------------------------------------------------ splitting

/// The most documents read from one input.
pub const MAX_DOCUMENTS: usize = 10_000;

/// The most text between two documents (more, and what follows is taken for
/// the last document's trailer, as with one document).
const MAX_GAP: usize = crate::input::MAX_TRAILER;

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
pub enum Cut {
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
pub struct Splitter {
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
}

/// The most of a line kept to name a document.
const NAME_LINE: usize = 4 << 10;

impl Splitter {
    pub fn new(lenient: bool) -> Self {
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
        }
    }

    /// Whether the current document can no longer end well: nested deeper
    /// than planview reads, or the rest of the input is its own.
    pub fn hopeless(&self) -> bool {
        self.st == St::Through || self.depth > crate::scan::MAX_DEPTH
    }

    /// Feed the next piece; the cuts found in it go to `cuts`, in order.
    pub fn feed(&mut self, piece: &[u8], cuts: &mut Vec<Cut>) {
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
                    let limit = if prefix { crate::input::MAX_PREFIX } else { self.end + MAX_GAP };
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
}

/// The working directory a log line names, if any: Terragrunt's key-value
/// logs (`prefix=[/work/live/vpc]`, `prefix=live/vpc`), its pretty and bare
/// logs and older module prefixes (`14:20:38.431 INFO   [live/vpc] ...`,
/// `[live/vpc] ...`): the first bracketed text.
pub fn name_in(line: &str) -> Option<String> {
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
pub fn terragrunt_stdout(line: &[u8]) -> Option<Option<String>> {
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
pub struct WholePart<'a> {
    /// The name from the line before it, if any.
    pub name: Option<String>,
    /// The document, preceded by a newline per line before it in the input;
    /// or why it is not read (text before it, without `--lenient`).
    pub bytes: Result<std::borrow::Cow<'a, [u8]>, InputError>,
}

/// The documents of `bytes`, an input named `name` read whole. One document
/// (or none: the parser says what is wrong) is `bytes` itself.
pub fn split_whole<'a>(input: &str, bytes: &'a [u8], read: &ReadOptions) -> Vec<WholePart<'a>> {
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
struct Gap {
    text: Option<(usize, usize)>,
    hidden: Option<(usize, usize)>,
    pad: usize,
}

/// Text between documents: without `--lenient` the document after it is not
/// read (its error); with it, a warning, unless the text holds a document
/// planview would not read (a `format_version` key): that is an error even
/// with `--lenient`, never skipped. `name` is the input's.
fn gap_error(name: &str, gap: &Gap, n: usize, read: &ReadOptions) -> Option<InputError> {
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

// ------------------------------------------------------------------ streaming

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
pub type StreamQuery<'q, T> = dyn Fn(&str, Fed, ReadAhead, &ReadOptions) -> Result<(T, Masker), InputError> + Sync + 'q;

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
pub fn stream_roots<T: Send>(roots: &[Root], read: &ReadOptions, query: &StreamQuery<'_, T>) -> Vec<PerFile<T>> {
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
                match crate::input::open_as(&root.source, &opts) {
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
                split_stream(ri, root, src, opts, &mut Sink::Here(&mut jobs), mine, &|k, e| direct(ri, k, e));
                jobs.into_iter().for_each(parse);
            }
            true => {
                // A saved plan's JSON may be big: split on a thread of its own, parsed here as it comes.
                let (tx, rx) = std::sync::mpsc::sync_channel::<Job>(1);
                std::thread::scope(|s| {
                    s.spawn(move || split_stream(ri, root, src, opts, &mut Sink::Workers(&tx), mine, &|k, e| direct(ri, k, e)));
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
            s.spawn(|| {
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
            each_root(ri, &|src, _, opts, mine| {
                split_stream(ri, &roots[ri], src, opts, &mut Sink::Workers(&job_tx), mine, &|k, e| direct(ri, k, e));
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
    crate::wrong::collapse(items)
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

/// Read one input, split it, and hand each document to `sink`. `metas`
/// gets one entry per document (this root's), `direct` the errors that stand
/// for a document (by its number in the root).
fn split_stream(
    ri: usize,
    root: &Root,
    mut src: Box<dyn Read + Send>,
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
        let job = |rx| Job { root: ri, k, name: provisional, reader: Fed::new(rx), read: opts.clone() };
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
            let k = lead.min(crate::stream::CHUNK);
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
    let mut first_seen = false;
    let mut in_gap = false;
    // The bytes after the current document, from offset `gap_from`.
    let mut gap: Vec<u8> = Vec::new();
    let mut gap_from = 0usize;
    let mut offset = 0usize;
    // A file's size, to read it in pieces no bigger than what is left (each
    // piece is handed on as it is read, so an unused tail would be zeroed for
    // nothing, on every small file of a directory).
    let size = match &root.source {
        crate::input::Source::File(path) => std::fs::metadata(path).ok().filter(std::fs::Metadata::is_file).map(|m| m.len() as usize),
        crate::input::Source::Stdin => None,
    };
    let mut spare: Vec<u8> = Vec::new();
    loop {
        let want = match size {
            Some(size) if offset < size => (size - offset + 1).min(crate::stream::CHUNK),
            // The end, if the size was right (a saved plan's JSON is bigger than the plan).
            Some(size) if offset == size => 16,
            _ => crate::stream::CHUNK,
        };
        let mut buf = std::mem::take(&mut spare);
        buf.resize(want, 0);
        // Read until the buffer is full, the input ends or fails: a pipe gives
        // 64 KB at a time, and bigger pieces cost less down the line.
        let (mut n, mut eof, mut failed) = (0usize, false, None);
        while n < buf.len() {
            match src.read(&mut buf[n..]) {
                Ok(0) => {
                    eof = true;
                    break;
                }
                Ok(k) => n += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
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
        sp.feed(&buf[..n], &mut cuts);
        // The common case, a file of one document: it ends in this piece and
        // nothing starts after it. The buffer itself is handed on (no copy of
        // the document); what follows its end is kept as the gap.
        let ends_here = match cuts.as_slice() {
            [Cut::End { at }] | [Cut::First { .. }, Cut::End { at }] if !in_gap && cur.is_some() => Some(*at),
            _ => None,
        };
        if let Some(at) = ends_here {
            if let Some(Cut::First { name }) = cuts.drain(..).next() {
                first_seen = true;
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
                        first_seen = true;
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
                        if !first_seen {
                            // Not a document the splitter follows: its depth is checked as it goes to the worker.
                            if let Some(part) = &mut cur {
                                part.feeder.check_depth();
                            }
                        }
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
                spare = buf;
            } else if pos == 0 && n >= buf.len() / 2 && cur.is_some() {
                // The whole piece, and most of the buffer (the common case): handed on without a copy.
                buf.truncate(n);
                if let Some(part) = &mut cur {
                    if !part.send(buf, End::More) {
                        cur = None;
                    }
                }
            } else {
                send(&mut cur, &piece[pos..]);
                spare = buf;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn cuts_of(text: &str, lenient: bool, piece: usize) -> Vec<Cut> {
        let mut sp = Splitter::new(lenient);
        let mut cuts = Vec::new();
        for p in text.as_bytes().chunks(piece) {
            sp.feed(p, &mut cuts);
        }
        cuts
    }

    #[test]
    fn documents_start_on_lines_of_their_own_in_pieces_of_any_size() {
        let text = "{\"a\":\"}{\\\"\"}\n  {\"b\":[{}]}\nlog [live/vpc] line\n{\"c\":1} {\"d\":2}\n";
        for piece in [1, 2, 3, 7, 1000] {
            let cuts = cuts_of(text, true, piece);
            assert_eq!(
                cuts,
                vec![
                    Cut::First { name: None },
                    Cut::End { at: 12 },
                    Cut::Start { at: 13, line: 2, name: None, text: None, n: 2, pad: 0, hidden: None },
                    Cut::End { at: 25 },
                    Cut::Start { at: 46, line: 4, name: Some("live/vpc".into()), text: Some((3, 3)), n: 3, pad: 0, hidden: None },
                    Cut::End { at: 53 },
                ],
                "piece {piece}"
            );
        }
    }

    /// Depth is checked by the splitter for the documents it follows (and by
    /// the scan for an input it does not): the same errors, at the same places,
    /// as a whole read of each document.
    #[test]
    fn documents_nested_too_deep_fail_as_a_whole_read_does() {
        let deep = |n: usize| format!("{{\"format_version\":\"1.2\",\"resource_changes\":[],\"a\":{}{}}}", "[".repeat(n), "]".repeat(n));
        let cases = [
            deep(200),
            deep(126),
            format!("{}\n\n  {}\n{}", deep(3), deep(130), deep(2)),
            format!("  {}", "[".repeat(300)),
            format!("\n{}{{\"format_version\":\"1.2\",\"resource_changes\":[]}}", "[".repeat(200)),
        ];
        let dir = std::env::temp_dir().join(format!("planview-roots-deep-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (k, text) in cases.iter().enumerate() {
            for lenient in [false, true] {
                let path = dir.join(format!("{k}.json"));
                std::fs::write(&path, text).unwrap();
                let read = ReadOptions { lenient, ..ReadOptions::default() };
                let roots = vec![Root::plain(&Source::File(path.clone()))];
                let streamed = stream_roots(&roots, &read, &|name, r, ahead, read| {
                    crate::stream::stream(name, r, ahead, read, &mut Masker::default()).map(|s| (s, Masker::default()))
                });
                let whole = split_whole("f", text.as_bytes(), &read);
                assert_eq!(streamed.len(), whole.len(), "case {k}");
                assert_eq!(
                    outcomes(&streamed),
                    outcomes(&with_others(&path, &read)),
                    "case {k}, lenient {lenient}: read whole by a worker"
                );
                for (got, want) in streamed.iter().zip(&whole) {
                    let want = match &want.bytes {
                        Ok(b) => crate::input::parse_with("f", b, &read).map(|_| ()),
                        Err(e) => Err(e.clone()),
                    };
                    let got = got.result.as_ref().map(|_| ()).map_err(|e| (e.message.clone(), e.line, e.column));
                    let want = want.map_err(|e| (e.message, e.line, e.column));
                    assert_eq!(got, want, "case {k}, lenient {lenient}");
                }
            }
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Each document's name and outcome (its error's message and place).
    type Outcome = (String, Result<(), (String, Option<usize>, Option<usize>)>);

    fn outcomes<T>(items: &[PerFile<T>]) -> Vec<Outcome> {
        items.iter().map(|i| (i.file.clone(), i.result.as_ref().map(|_| ()).map_err(|e| (e.message.clone(), e.line, e.column)))).collect()
    }

    /// The documents of `path` when it is one of several roots (each small
    /// file read, split and parsed by one worker), the other roots' left out.
    fn with_others(path: &Path, read: &ReadOptions) -> Vec<PerFile<()>> {
        let other = Root { name: "other".into(), source: Source::File(path.with_extension("none")), chdir: None, problem: None };
        let roots = vec![other.clone(), Root::plain(&Source::File(path.to_path_buf())), other];
        let mut items = stream_roots(&roots, read, &|name, r, ahead, read| {
            crate::stream::stream(name, r, ahead, read, &mut Masker::default()).map(|_| ((), Masker::default()))
        });
        assert!(items.len() >= 3);
        items.pop();
        items.remove(0);
        items
    }

    #[test]
    fn a_small_file_read_by_a_worker_splits_as_a_streamed_input_does() {
        let dir = std::env::temp_dir().join(format!("planview-roots-here-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let plan = |n: usize| {
            format!(
                "{{\"format_version\":\"1.2\",\"resource_changes\":[{{\"address\":\"a.b{n}\",\"change\":{{\"actions\":[\"create\"]}}}}]}}"
            )
        };
        let texts = [
            format!("{}\n{}\n", plan(1), plan(2)),
            format!("INFO[0000] Running in ./network\n{}\nINFO[0001] Running in ./app\n{}\n", plan(1), plan(2)),
            format!("{}\n{{\"format_version\":", plan(1)),
            format!("{}\nnot json\n{}", plan(1), plan(2)),
            format!("{}\n{}", plan(1), "\n".repeat(5000)),
            std::fs::read_to_string("testdata/roots/joined.ndjson").unwrap(),
            std::fs::read_to_string("testdata/roots/terragrunt-run-all.log").unwrap(),
            std::fs::read_to_string("testdata/roots/truncated-last.ndjson").unwrap(),
            // Pretty-printed, an error on a later line, blanks after it.
            "{\n  \"format_version\": \"1.2\",\n  \"resource_changes\": [\n    {\"address\": \"a.b\", \"change\": {\"actions\": 5}}\n  ]\n}\n\n\n".to_string(),
            // Bigger than a worker reads whole: handed back to the splitting thread.
            format!("{}\n{}\n", plan(1).replacen('{', &format!("{{\"pad\":\"{}\",", "x".repeat(SMALL_FILE as usize)), 1), plan(2)),
        ];
        for (k, text) in texts.iter().enumerate() {
            let path = dir.join(format!("{k}.json"));
            std::fs::write(&path, text).unwrap();
            for lenient in [false, true] {
                let read = ReadOptions { lenient, ..ReadOptions::default() };
                let alone = stream_roots(&[Root::plain(&Source::File(path.clone()))], &read, &|name, r, ahead, read| {
                    crate::stream::stream(name, r, ahead, read, &mut Masker::default()).map(|_| ((), Masker::default()))
                });
                assert!(!alone.is_empty());
                assert_eq!(outcomes(&alone), outcomes(&with_others(&path, &read)), "text {k}, lenient {lenient}");
            }
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_tree_is_found_named_and_ordered_by_its_directories() {
        let top = std::env::temp_dir().join(format!("planview-roots-tree-{}", std::process::id()));
        let plan = br#"{"format_version":"1.2","resource_changes":[]}"#;
        let files: &[(&str, &[u8])] = &[
            ("plan.json", plan),
            ("live/b/plan.json", plan),
            ("live/a-b/plan.json", plan),
            ("live/a/plan.json", plan),
            ("live/a/other.json", plan),
            ("live/a/package.json", br#"{"name":"x"}"#),
            ("live/a/.terragrunt-cache/x/plan.json", plan),
            ("live/c/.terraform/plan.json", plan),
            ("live/c/tfplan", b"PK"),
            ("d1/d2/d3/d4/d5/plan.json", plan),
        ];
        // Directories enough for the walk to be shared among threads, and empty ones.
        for k in 0..40 {
            std::fs::create_dir_all(top.join(format!("many/{k:02}/x"))).unwrap();
        }
        for (rel, text) in files {
            let path = top.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let notes = crate::input::Notes::default();
        let roots = expand(&[Source::File(top.clone())], &FindOptions::default(), &notes);
        let names: Vec<&str> = roots.iter().map(|r| r.name.as_str()).collect();
        // In the order of their paths (`plan.json` after `live/`).
        assert_eq!(names, ["d1/d2/d3/d4/d5", "live/a-b", "live/a/other.json", "live/a/plan.json", "live/b", "live/c", "."]);
        assert!(roots.iter().all(|r| r.problem.is_none()));
        assert_eq!(roots[5].source, Source::File(top.join("live/c/tfplan")));
        let warned = notes.take();
        assert_eq!(warned.len(), 1, "{warned:?}");
        assert!(warned[0].contains("live/a/package.json: skipped: a JSON object with no `format_version`"), "{warned:?}");
        std::fs::remove_dir_all(&top).ok();
    }

    #[test]
    fn a_json_file_is_searched_to_its_end_for_the_key() {
        let dir = std::env::temp_dir().join(format!("planview-roots-sniff-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pad = |n: usize| "x".repeat(n);
        let cases: &[(&str, String, Sniffed)] = &[
            ("first.json", r#"{"format_version":"1.2"}"#.to_string(), Sniffed::Plan),
            // Keys sorted, a big `configuration` first; the key at every distance, cut by every piece boundary.
            ("late.json", format!("{{\"configuration\":\"{}\",\"format_version\":\"1.2\"}}", pad(SNIFF)), Sniffed::Plan),
            ("later.json", format!("{{\"a\":\"{}\",\"plan_format_version\":\"1.2\"}}", pad(3 << 20)), Sniffed::Plan),
            ("edge.json", format!("{{\"a\":\"{}\",\"format_version\":1}}", pad(SNIFF + (1 << 20) - 12)), Sniffed::Plan),
            ("bom.json", format!("\u{feff}\n {{\"a\":\"{}\"}}", pad(SNIFF)), Sniffed::Object),
            ("package.json", r#"{"name":"x"}"#.to_string(), Sniffed::Object),
            ("big-object.json", format!("{{\"a\":\"{}\"}}", pad(2 << 20)), Sniffed::Object),
            ("array.json", format!("[\"{}\"]", pad(SNIFF)), Sniffed::Other),
            ("empty.json", String::new(), Sniffed::Other),
        ];
        for (name, text, want) in cases {
            let path = dir.join(name);
            std::fs::write(&path, text).unwrap();
            assert_eq!(sniff(&path), *want, "{name}");
        }
        for k in 0..NEEDLE.len() + 2 {
            let path = dir.join("cut.json");
            std::fs::write(&path, format!("{{\"a\":\"{}\",\"format_version\":1}}", pad(SNIFF + (1 << 20) - 8 - k))).unwrap();
            assert_eq!(sniff(&path), Sniffed::Plan, "cut {k}");
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn strict_input_that_is_not_an_object_is_left_whole() {
        assert_eq!(cuts_of("[1]\n{}", false, 3), vec![Cut::Through]);
        assert_eq!(cuts_of("text\n{\"a\":1}", true, 3)[0], Cut::First { name: None });
    }

    #[test]
    fn whole_inputs_split_with_lines_kept() {
        let read = ReadOptions::default();
        let parts = split_whole("f", b"{\"a\":1}\n\n{\"b\":2}\n", &read);
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].bytes.as_ref().unwrap().as_ref(), b"{\"a\":1}");
        assert_eq!(parts[1].bytes.as_ref().unwrap().as_ref(), b"\n\n{\"b\":2}\n");
        let parts = split_whole("f", b"{\"a\":1}\nlog\n{\"b\":2}\n", &read);
        let e = parts[1].bytes.as_ref().unwrap_err();
        assert!(e.message.contains("text between JSON documents 1 and 2 (line 2)"), "{e}");
        let one = split_whole("f", b"{\"a\":1}\ntrailer\n", &read);
        assert_eq!(one.len(), 1);
        assert!(matches!(one[0].bytes, Ok(std::borrow::Cow::Borrowed(_))));
    }

    #[test]
    fn terragrunt_prefixed_documents_are_documents_of_their_own_with_lenient() {
        let text = "{\"a\":1}\n08:00:02.000 STDOUT [live/db] tofu: {\"b\":2}\n\u{1b}[36m08:00:03.000 STDOUT\u{1b}[0m [live/é] tofu: {\"c\":3}\nSTDOUT tofu: {\"d\":4}\n";
        for piece in [1, 2, 5, 1000] {
            let starts: Vec<Cut> = cuts_of(text, true, piece).into_iter().filter(|c| matches!(c, Cut::Start { .. })).collect();
            assert_eq!(
                starts,
                vec![
                    Cut::Start { at: 44, line: 2, name: Some("live/db".into()), text: None, n: 2, pad: 36, hidden: None },
                    Cut::Start { at: 97, line: 3, name: Some("live/é".into()), text: None, n: 3, pad: 44, hidden: None },
                    Cut::Start { at: 118, line: 4, name: None, text: None, n: 4, pad: 13, hidden: None },
                ],
                "piece {piece}"
            );
        }
        // Strictly, a prefixed line is text (an error, and its `format_version` never skipped).
        assert!(!cuts_of(text, false, 7).iter().any(|c| matches!(c, Cut::Start { .. })));
        // Read whole: each document at its line and column, named by its unit.
        let read = ReadOptions { lenient: true, ..ReadOptions::default() };
        let parts = split_whole("f", text.as_bytes(), &read);
        let names: Vec<Option<&str>> = parts.iter().map(|p| p.name.as_deref()).collect();
        assert_eq!(names, [None, Some("live/db"), Some("live/é"), None]);
        assert_eq!(parts[1].bytes.as_ref().unwrap().as_ref(), format!("\n{}{{\"b\":2}}", " ".repeat(36)).as_bytes());
        assert!(read.notes.take().is_empty());
    }

    #[test]
    fn a_document_hidden_in_text_between_documents_is_an_error_even_with_lenient() {
        let text = "{\"a\":1}\nlog\nINFO [live/db] terraform: {\"format_version\":\"1.2\"}\n{\"c\":3}\n";
        for lenient in [false, true] {
            for piece in [1, 3, 1000] {
                let cuts = cuts_of(text, lenient, piece);
                let hidden = cuts.iter().find_map(|c| match c {
                    Cut::Start { hidden, text, .. } => Some((*hidden, *text)),
                    _ => None,
                });
                assert_eq!(hidden, Some((Some((3, 43)), Some((2, 3)))), "lenient {lenient}, piece {piece}");
            }
            let read = ReadOptions { lenient, ..ReadOptions::default() };
            let parts = split_whole("f", text.as_bytes(), &read);
            let e = parts[1].bytes.as_ref().unwrap_err();
            assert!(e.message.contains("holds a document planview does not read"), "{e}");
            assert_eq!((e.line, e.column), (Some(3), Some(43)));
        }
        // Mentioned without a quote after it, the word is text.
        let read = ReadOptions { lenient: true, ..ReadOptions::default() };
        let parts = split_whole("f", b"{\"a\":1}\nunsupported format_version 2\n{\"b\":1}", &read);
        assert!(parts.iter().all(|p| p.bytes.is_ok()));
    }

    #[test]
    fn terragrunt_stdout_prefixes() {
        assert_eq!(terragrunt_stdout(b"08:00:02.000 STDOUT [live/db] tofu: "), Some(Some("live/db".into())));
        assert_eq!(terragrunt_stdout(b"STDOUT [live/db] /usr/bin/terraform:"), Some(Some("live/db".into())));
        assert_eq!(terragrunt_stdout(b"14:20:38 STDOUT tofu: "), Some(None));
        assert_eq!(terragrunt_stdout(b"STDOUT "), Some(None));
        assert_eq!(terragrunt_stdout(b"08:00:02.000 INFO [live/db] tofu: "), None);
        assert_eq!(terragrunt_stdout(b"08:00:02.000 STDOUT [live/db] tofu says: "), None);
        assert_eq!(terragrunt_stdout(b"08:00:02.000 STDOUTX [live/db] tofu: "), None);
        assert_eq!(terragrunt_stdout(b"08:00:02.000 STDOUT [] tofu: "), None);
        assert_eq!(terragrunt_stdout(b"x STDOUT [a] tofu: "), None);
    }

    #[test]
    fn log_lines_name_working_directories() {
        assert_eq!(name_in("time=2024-01-02T03:04:05Z level=info prefix=[/work/live/vpc] msg=Running"), Some("/work/live/vpc".into()));
        assert_eq!(name_in("time=2024-01-02 level=info prefix=live/db msg=x"), Some("live/db".into()));
        assert_eq!(name_in("14:20:38.431 INFO   [live/app] Running command: tofu show -json"), Some("live/app".into()));
        assert_eq!(name_in("Done."), None);
        assert_eq!(name_in("[] x"), None);
        assert_eq!(name_in("[command]/usr/bin/terraform show -json plan.out"), None);
    }

    #[test]
    fn wildcards() {
        assert!(wildcard("*.tfplan", "prod.tfplan"));
        assert!(wildcard("plan-?.bin", "plan-1.bin"));
        assert!(!wildcard("*.tfplan", "prod.tfplan.json"));
        assert!(wildcard("*", ""));
    }
}
