//! Directories of roots: the command line's inputs turned into [`Root`]s
//! ([`expand`]), a directory becoming the plan JSON files and saved plans
//! found below it, each named by its directory relative to the one given, in
//! a stable sorted order (one per directory: [`super::tree`]).

use super::{ReadOptions, Source};
use crate::error::InputError;
use std::io::Read;
use std::path::{Path, PathBuf};

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
    /// Which documents of a directory are its root (one directory = one root: [`crate::read::tree`]).
    pub prefer: crate::read::tree::Prefer,
}

/// Directories never searched: providers and modules, Terragrunt's copies.
pub(crate) const SKIPPED_DIRS: &[&str] = &[".terraform", ".terragrunt-cache", ".git"];

/// How much of a `*.json` file is looked at to tell a `show -json` document.
pub(super) const SNIFF: usize = 64 << 10;

/// The inputs as roots: files and stdin as they are, each directory as the
/// plans found below it. A `*.json` file found that is a JSON object but no
/// `show -json` document is skipped with a warning in `notes`, never silently;
/// so is what each directory's root left out ([`crate::read::tree`]).
pub fn expand(inputs: &[Source], find: &FindOptions, notes: &crate::read::Notes) -> Vec<Root> {
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
                let (mut found, left_out) = crate::read::tree::settle(found, find.prefer);
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
pub(crate) fn wildcard(pattern: &str, text: &str) -> bool {
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
pub(super) enum Sniffed {
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
pub(super) fn sniff(path: &Path) -> Sniffed {
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
pub(super) const NEEDLE: &[u8] = b"format_version\"";
