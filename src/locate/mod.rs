//! Source locations: where each object of a plan is declared in the
//! configuration it was made from (`--chdir DIR`, default `.`), read once:
//! `.tf` (hcl-edit) and `.tf.json` files, override files after the others as
//! Terraform reads them, module calls followed through local sources and
//! `.terraform/modules/modules.json` at any depth. A leaf: it imports nothing
//! from the commands or the renderers.
//!
//! An object is located at its block for every instance (a count index beyond
//! a shrunk count included); one whose block is gone at the `removed` block
//! that removes it, else nowhere: a location is never guessed.

mod config;
mod fast;
mod json;
mod locals;

use config::{Declared, Module, Span};
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

pub use crate::model::Location;

/// Module calls nested deeper than this are not followed (a module that calls
/// itself through a local path would never end).
const MAX_DEPTH: usize = 64;

/// The configuration of a root module and of every module below it.
#[derive(Debug, Default)]
pub struct SourceMap {
    /// Display paths of the files read, by index.
    files: Vec<String>,
    /// By module key: call names joined with `.` (`net.sub`), `` for the root.
    modules: HashMap<String, Module>,
    /// What the reader could not do (unparsable files, modules not installed),
    /// one sentence each, for stderr.
    pub notes: Vec<String>,
    /// Said when the directory holds no configuration at all: a warning when
    /// locations were asked for, nothing when they are read by default.
    pub absent: Option<String>,
}

/// Is `name` a configuration file, and an override file? (Terraform skips
/// names starting with `.` or `#` and ending in `~`, editors' files.)
fn config_file(name: &str) -> Option<bool> {
    if name.starts_with('.') || name.starts_with('#') || name.ends_with('~') {
        return None;
    }
    let stem = name.strip_suffix(".tf").or_else(|| name.strip_suffix(".tf.json"))?;
    Some(stem == "override" || stem.ends_with("_override"))
}

/// `path` without `.` and with `..` folded where it can be (lexically: a
/// symlinked directory is not resolved).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                } else {
                    out.push("..");
                }
            }
            c => out.push(c.as_os_str()),
        }
    }
    out
}

/// How `path` is shown: relative to `cwd` when below it, `/`-separated.
fn display(path: &Path, cwd: Option<&Path>) -> String {
    let path = normalize(path);
    let shown = match cwd {
        Some(cwd) if path.is_absolute() => path.strip_prefix(cwd).map(Path::to_path_buf).unwrap_or(path),
        _ => path,
    };
    let s = shown.to_string_lossy().replace('\\', "/");
    if s.is_empty() {
        ".".into()
    } else {
        s
    }
}

/// A file's text: a BOM dropped, bytes that are not UTF-8 replaced (lines are kept).
pub(crate) fn text_of(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    String::from_utf8_lossy(bytes).into_owned()
}

/// One file to read: its path, display name, whether it overrides, its module.
struct Job {
    path: PathBuf,
    shown: String,
    json: bool,
    overriding: bool,
}

/// One parsed file.
type Parsed = Result<Module, String>;

fn parse_file(job: &Job, index: u32) -> Parsed {
    let bytes = std::fs::read(&job.path).map_err(|e| format!("{}: cannot read: {e}", job.shown))?;
    let text = text_of(&bytes);
    let mut m = Module::default();
    let r = if job.json {
        config::read_json(&text, index, job.overriding, &mut m)
    } else if fast::read_fast(&text, index, job.overriding, &mut m).is_some() {
        Ok(())
    } else {
        // What the fast reading does not model: a full parse (and its error, if any).
        config::read_hcl(&text, index, job.overriding, &mut m)
    };
    r.map(|()| m).map_err(|(line, col, msg)| {
        let msg = msg.lines().next().unwrap_or("").trim().to_string();
        format!("{}:{line}:{col}: cannot parse ({msg}): its blocks have no location", job.shown)
    })
}

/// The files of one module directory, primary files first (in name order),
/// then override files (in name order), as Terraform reads them.
fn jobs_of(dir: &Path, cwd: Option<&Path>) -> std::io::Result<Vec<Job>> {
    let mut names: Vec<(bool, String)> = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(overriding) = config_file(&name) else { continue };
        // Symlinks are followed; directories named `*.tf` are not files.
        if std::fs::metadata(entry.path()).is_ok_and(|m| m.is_file()) {
            names.push((overriding, name));
        }
    }
    names.sort();
    Ok(names
        .into_iter()
        .map(|(overriding, name)| {
            let path = dir.join(&name);
            Job { shown: display(&path, cwd), json: name.ends_with(".json"), overriding, path }
        })
        .collect())
}

/// `modules.json`: module key -> directory (relative to the root module).
fn manifest(root: &Path) -> HashMap<String, PathBuf> {
    #[derive(serde::Deserialize)]
    struct Manifest {
        #[serde(rename = "Modules", default)]
        modules: Vec<Entry>,
    }
    #[derive(serde::Deserialize)]
    struct Entry {
        #[serde(rename = "Key")]
        key: String,
        #[serde(rename = "Dir")]
        dir: String,
    }
    let data_dir = root.join(".terraform");
    let Ok(bytes) = std::fs::read(data_dir.join("modules").join("modules.json")) else { return HashMap::new() };
    let Ok(m) = serde_json::from_slice::<Manifest>(&bytes) else { return HashMap::new() };
    m.modules.into_iter().map(|e| (e.key, PathBuf::from(e.dir))).collect()
}

/// `source` names a directory on disk (`./x`, `../x`), not something `init` fetches.
fn is_local(source: &str) -> bool {
    source.starts_with("./") || source.starts_with("../") || source.starts_with(".\\") || source.starts_with("..\\")
}

impl SourceMap {
    /// Read the configuration whose root module is `root`. Never fails: what
    /// cannot be read is left out and said in [`SourceMap::notes`].
    pub fn load(root: &Path) -> SourceMap {
        let cwd = std::env::current_dir().ok();
        let cwd = cwd.as_deref();
        let mut map = SourceMap::default();
        let installed = manifest(root);
        // Breadth first: one level of modules at a time, its files parsed in parallel.
        let mut level: Vec<(String, PathBuf)> = vec![(String::new(), root.to_path_buf())];
        let mut depth = 0;
        while !level.is_empty() {
            let mut jobs: Vec<(usize, Job)> = Vec::new();
            for (i, (key, dir)) in level.iter().enumerate() {
                match jobs_of(dir, cwd) {
                    Ok(js) => jobs.extend(js.into_iter().map(|j| (i, j))),
                    Err(e) if key.is_empty() => {
                        map.notes.push(format!("cannot read the configuration in {}: {e}", display(dir, cwd)));
                    }
                    Err(_) => map.notes.push(format!(
                        "{}: directory {} not found (has `init` been run?): its objects have no location",
                        module_address(key),
                        display(dir, cwd)
                    )),
                }
            }
            let first = u32::try_from(map.files.len()).unwrap_or(u32::MAX);
            map.files.extend(jobs.iter().map(|(_, j)| j.shown.clone()));
            let indexed: Vec<(u32, &Job)> = jobs.iter().enumerate().map(|(n, (_, j))| (first.saturating_add(n as u32), j)).collect();
            let parsed = crate::par::map(&indexed, 16, |(index, job)| parse_file(job, *index));
            let mut modules: Vec<Module> = level.iter().map(|_| Module::default()).collect();
            for ((i, _), parsed) in jobs.iter().zip(parsed) {
                match parsed {
                    Ok(part) => merge(&mut modules[*i], part),
                    Err(note) => map.notes.push(note),
                }
            }
            let mut next = Vec::new();
            for ((key, dir), module) in level.into_iter().zip(modules) {
                if depth < MAX_DEPTH {
                    for (name, source) in &module.calls {
                        let child = if key.is_empty() { name.clone() } else { format!("{key}.{name}") };
                        let child_dir = match (installed.get(&child), source) {
                            (Some(d), _) => root.join(d),
                            (None, Some(s)) if is_local(s) => dir.join(s),
                            _ => {
                                map.notes.push(format!(
                                    "{}: not installed in .terraform/modules (has `init` been run?): its objects have no location",
                                    module_address(&child)
                                ));
                                continue;
                            }
                        };
                        next.push((child, child_dir));
                    }
                }
                map.modules.insert(key, module);
            }
            level = next;
            depth += 1;
        }
        if map.files.is_empty() && map.notes.is_empty() {
            map.absent = Some(format!(
                "no Terraform configuration (*.tf, *.tf.json) in {}: findings have no source location (give the directory where `plan` ran with --chdir)",
                display(root, cwd)
            ));
        }
        map
    }

    /// The references of each local value the configuration declares, by
    /// module path (`""`, `module.a.module.b`) and name: what the blast radius
    /// follows through a local (the plan's `configuration` leaves locals out).
    /// An override file's local replaces the primary one.
    pub fn locals(&self) -> std::collections::BTreeMap<(String, String), Vec<String>> {
        let mut out = std::collections::BTreeMap::new();
        for (key, m) in &self.modules {
            let path = if key.is_empty() { String::new() } else { module_address(key) };
            for (name, refs) in &m.locals {
                out.insert((path.clone(), name.clone()), refs.clone());
            }
        }
        out
    }

    /// True when no file was read.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// How many files were read.
    pub fn file_count(&self) -> usize {
        self.files.len()
    }

    fn location(&self, span: Span) -> Location {
        let file = self.files.get(span.file as usize).cloned().unwrap_or_default();
        Location { file, line: span.line, end_line: span.end_line }
    }

    /// The module at `path` (call names) and the declared object `key` there.
    fn declared(&self, path: &[String], key: &str) -> Option<&Declared> {
        self.modules.get(&path.join("."))?.objects.get(key)
    }

    /// Where the object at `address` (a resource or data source instance, a
    /// module call, an output, a check block, a variable) is declared; for a
    /// resource whose block is gone, the `removed` block that removes it.
    pub fn locate(&self, address: &str) -> Option<Location> {
        let (path, key) = parse(address)?;
        match key {
            Some(key) => match self.declared(&path, &key) {
                Some(d) => Some(self.location(d.span)),
                None => self.removed(&path, Some(&key)),
            },
            // A module call: its block in the calling module.
            None => {
                let (name, parent) = path.split_last()?;
                match self.declared(parent, &format!("module.{name}")) {
                    Some(d) => Some(self.location(d.span)),
                    None => self.removed(&path, None),
                }
            }
        }
    }

    /// Where the object a change acts on is declared, given the change's
    /// `action_reason` code. An object whose module instance is gone
    /// (`delete_because_no_module`: the CLI says `module.svc["b"] is not in
    /// configuration`) is not declared by the block that still declares the
    /// resource for the call's other instances: it is located as an object
    /// whose block is gone (its `removed` block, else no line), never there.
    pub fn locate_change(&self, address: &str, reason: Option<&str>) -> Option<Location> {
        if reason == Some(NO_MODULE) {
            let (path, key) = parse(address)?;
            return self.removed(&path, key.as_deref());
        }
        self.locate(address)
    }

    /// The `removed` block (in the object's module or one above it) whose
    /// `from` names the object or a module containing it.
    fn removed(&self, path: &[String], key: Option<&str>) -> Option<Location> {
        // The object's address from module `depth` down, as tokens.
        let mut tokens: Vec<&str> = Vec::new();
        for name in path {
            tokens.push("module");
            tokens.push(name);
        }
        if let Some(k) = key {
            tokens.extend(k.split('.'));
        }
        for depth in (0..=path.len()).rev() {
            let Some(m) = self.modules.get(&path[..depth].join(".")) else { continue };
            let below = &tokens[depth * 2..];
            for (from, span) in &m.removed {
                let Some(from) = tokens_of(from) else { continue };
                if !from.is_empty() && from.len() <= below.len() && from.iter().zip(below).all(|(a, b)| a == b) {
                    return Some(self.location(*span));
                }
            }
        }
        None
    }

    /// Where a check of the object at `address` is declared: the `check`
    /// block; for a resource, an output or a variable, the condition block
    /// (`precondition`, `postcondition`, `validation`) whose `error_message`
    /// gave one of `problems`, or its only one, else the object's block.
    pub fn locate_check(&self, address: &str, problems: &[String]) -> Option<Location> {
        let (path, key) = parse(address)?;
        let key = key?;
        let d = self.declared(&path, &key)?;
        if key.starts_with("check.") {
            return Some(self.location(d.span));
        }
        let matching: Vec<&config::Condition> = d.conditions.iter().filter(|c| problems.iter().any(|p| c.message.matches(p))).collect();
        let span = match (matching.as_slice(), d.conditions.as_slice()) {
            ([one], _) => one.span,
            ([], [only]) => only.span,
            _ => d.span,
        };
        Some(self.location(span))
    }

    /// The `moved` block that moves `previous` to `address` (or a module or
    /// resource containing them).
    pub fn locate_moved(&self, address: &str, previous: &str) -> Option<Location> {
        let (path, _) = parse(address)?;
        let to_all = tokens_of(address)?;
        let from_all = tokens_of(previous)?;
        for depth in (0..=path.len()).rev() {
            let Some(m) = self.modules.get(&path[..depth].join(".")) else { continue };
            let (to_below, from_below) = (&to_all[(depth * 2).min(to_all.len())..], &from_all[(depth * 2).min(from_all.len())..]);
            for (from, to, span) in &m.moved {
                let (Some(f), Some(t)) = (tokens_of(from), tokens_of(to)) else { continue };
                if is_prefix(&t, to_below) && is_prefix(&f, from_below) {
                    return Some(self.location(*span));
                }
            }
        }
        None
    }

    /// The `import` block that imports `address` (in its module or above).
    pub fn locate_import(&self, address: &str) -> Option<Location> {
        let (path, _) = parse(address)?;
        let all = tokens_of(address)?;
        for depth in (0..=path.len()).rev() {
            let Some(m) = self.modules.get(&path[..depth].join(".")) else { continue };
            let below = &all[(depth * 2).min(all.len())..];
            for (to, span) in &m.imports {
                if tokens_of(to).is_some_and(|t| is_prefix(&t, below)) {
                    return Some(self.location(*span));
                }
            }
        }
        None
    }
}

fn is_prefix(a: &[String], b: &[String]) -> bool {
    !a.is_empty() && a.len() <= b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// Merge one file's blocks into its module's.
fn merge(into: &mut Module, part: Module) {
    for (key, d) in part.objects {
        into.objects.entry(key.clone()).or_insert(d);
    }
    // Calls in file order, each once.
    for call in part.calls {
        if !into.calls.iter().any(|(n, _)| *n == call.0) {
            into.calls.push(call);
        }
    }
    into.moved.extend(part.moved);
    into.locals.extend(part.locals);
    into.removed.extend(part.removed);
    into.imports.extend(part.imports);
}

/// `module.a.module.b` for the module key `a.b`.
fn module_address(key: &str) -> String {
    key.split('.').map(|n| format!("module.{n}")).collect::<Vec<_>>().join(".")
}

/// The names of an address with its instance keys left out
/// (`module.a["x.y"].t.b[0]` -> `module`, `a`, `t`, `b`); `None` when it is
/// not an address.
fn tokens_of(address: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = address.chars();
    while let Some(c) = chars.next() {
        match c {
            '.' => out.push(std::mem::take(&mut cur)),
            '[' => {
                // Skip the key, strings and all.
                let mut quoted = false;
                loop {
                    match chars.next()? {
                        '\\' if quoted => {
                            chars.next()?;
                        }
                        '"' => quoted = !quoted,
                        ']' if !quoted => break,
                        _ => {}
                    }
                }
            }
            c => cur.push(c),
        }
    }
    out.push(cur);
    if out.iter().any(String::is_empty) {
        return None;
    }
    Some(out)
}

/// An address as its module path (call names) and the object's key in
/// [`Module::objects`] (`None` for a module call itself).
/// The `action_reason` of an object destroyed because its module instance is
/// no longer in the configuration.
pub const NO_MODULE: &str = "delete_because_no_module";

fn parse(address: &str) -> Option<(Vec<String>, Option<String>)> {
    let tokens = tokens_of(address)?;
    let mut path = Vec::new();
    let mut i = 0;
    while i + 1 < tokens.len() && tokens[i] == "module" {
        path.push(tokens[i + 1].clone());
        i += 2;
    }
    let rest = &tokens[i..];
    let key = match rest {
        [] => None,
        [d, t, n] if d == "data" => Some(format!("data.{t}.{n}")),
        [k, n] if matches!(k.as_str(), "output" | "check" | "var") => Some(format!("{k}.{n}")),
        [t, n] => Some(format!("{t}.{n}")),
        _ => return None,
    };
    Some((path, key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_split_into_module_path_and_object() {
        let p = |a: &str| parse(a);
        assert_eq!(p("aws_instance.web[0]"), Some((vec![], Some("aws_instance.web".into()))));
        assert_eq!(p("module.a[\"x.y]\"].module.b[2].data.t.n"), Some((vec!["a".into(), "b".into()], Some("data.t.n".into()))));
        assert_eq!(p("module.a.output.o"), Some((vec!["a".into()], Some("output.o".into()))));
        assert_eq!(p("module.a[\"k\"]"), Some((vec!["a".into()], None)));
        assert_eq!(p("check.c"), Some((vec![], Some("check.c".into()))));
        assert_eq!(p("a.b.c.d"), None);
        assert_eq!(p("a..b"), None);
        assert_eq!(p("a.b[\"unterminated"), None);
    }

    #[test]
    fn file_names_as_terraform_reads_them() {
        assert_eq!(config_file("main.tf"), Some(false));
        assert_eq!(config_file("x.tf.json"), Some(false));
        assert_eq!(config_file("override.tf"), Some(true));
        assert_eq!(config_file("net_override.tf.json"), Some(true));
        assert_eq!(config_file(".hidden.tf"), None);
        assert_eq!(config_file("#main.tf#"), None);
        assert_eq!(config_file("main.tf~"), None);
        assert_eq!(config_file("main.tfvars"), None);
    }

    #[test]
    fn paths_are_shown_relative_and_normalised() {
        assert_eq!(display(Path::new("./a/../b/./c.tf"), None), "b/c.tf");
        assert_eq!(display(Path::new("../../x/main.tf"), None), "../../x/main.tf");
        assert_eq!(display(Path::new("/w/repo/infra/main.tf"), Some(Path::new("/w/repo"))), "infra/main.tf");
        assert_eq!(display(Path::new("/elsewhere/main.tf"), Some(Path::new("/w/repo"))), "/elsewhere/main.tf");
    }

    #[test]
    fn bom_and_bad_bytes_keep_lines() {
        assert_eq!(text_of(b"\xEF\xBB\xBFa\n\xFFb\n"), "a\n\u{FFFD}b\n");
    }
}
