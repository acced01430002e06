//! Reading the configuration to say where what a run lists is declared
//! ([`crate::locate`]): started on a thread of its own while the plans are
//! read, one [`SourceMap`] per directory (a root found in a directory of
//! roots: its own directory; else `--chdir`; else `.`), then each input's
//! answers given their locations.

use crate::config::{Config, Locations};
use crate::locate::{Location, SourceMap};
use crate::outcome::PerFile;
use crate::query;
use crate::query::dependents::Locals;
use crate::read::Root;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;

/// The configuration being read.
pub(super) struct Locating {
    reading: Arc<Reading>,
    /// Each root's name and the index of its directory's map.
    by_root: Vec<(String, usize)>,
    /// The map of inputs named after no root (`--chdir`, else `.`).
    fallback: usize,
}

/// The thread reading the maps, waited for by the first to need them (the
/// blast radius's locals, when a plan has been read, or [`finish`]).
struct Reading {
    handle: Mutex<Option<JoinHandle<Vec<SourceMap>>>>,
    maps: OnceLock<Option<Arc<[SourceMap]>>>,
}

impl Reading {
    /// The maps, one per directory (`None`: the reading thread failed).
    fn maps(&self) -> Option<&Arc<[SourceMap]>> {
        self.maps
            .get_or_init(|| {
                let handle = self.handle.lock().ok().and_then(|mut h| h.take());
                handle.and_then(|h| h.join().ok()).map(Arc::from)
            })
            .as_ref()
    }
}

/// The configuration read, one map per directory: it holds the maps
/// themselves, so a `Located` exists only once they were read.
pub(super) struct Located {
    maps: Arc<[SourceMap]>,
    by_root: Vec<(String, usize)>,
    fallback: usize,
}

/// Start reading the configuration of every root's directory, when the run
/// shows locations ([`Config::locations`]).
pub(super) fn start(config: &Config, roots: &[Root]) -> Option<Locating> {
    if config.locations == Locations::Off {
        return None;
    }
    let default = config.read.chdir.clone().unwrap_or_else(|| PathBuf::from("."));
    let mut dirs: Vec<PathBuf> = vec![default];
    let mut by_root = Vec::with_capacity(roots.len());
    for root in roots {
        let dir = root.options(&config.read).chdir.unwrap_or_else(|| dirs[0].clone());
        let i = match dirs.iter().position(|d| *d == dir) {
            Some(i) => i,
            None => {
                dirs.push(dir);
                dirs.len() - 1
            }
        };
        by_root.push((root.name.clone(), i));
    }
    // The fallback directory is read only when an input may be named after no root (stdin).
    let handle = std::thread::Builder::new().name("locate".into()).spawn(move || dirs.iter().map(|d| SourceMap::load(d)).collect()).ok()?;
    let reading = Arc::new(Reading { handle: Mutex::new(Some(handle)), maps: OnceLock::new() });
    Some(Locating { reading, by_root, fallback: 0 })
}

/// The locals of the configuration the inputs were planned from, for the
/// blast radius: those `locating` reads ([`Locating::locals`]); when the run
/// reads no configuration for locations, read from `--chdir` if given (and
/// every input is read with it), else none (the locals are guessed). Either
/// way they are read while the plans are, and waited for only when a plan's
/// dependents are computed.
pub(super) fn locals(config: &Config, roots: &[Root], locating: &Option<Locating>) -> Option<Arc<Locals>> {
    if let Some(l) = locating {
        return l.locals();
    }
    let dir = config.read.chdir.clone()?;
    if roots.iter().any(|r| r.options(&config.read).chdir.as_ref() != Some(&dir)) {
        return None;
    }
    let handle = std::thread::Builder::new().name("locals".into()).spawn(move || Locals::of_source(&SourceMap::load(&dir))).ok()?;
    Some(Arc::new(Locals::later(move || handle.join().ok().flatten())))
}

impl Locating {
    /// The locals of the configuration the inputs were planned from, for the
    /// blast radius (the plan's `configuration` leaves locals out), read on
    /// first use. `None` when the inputs come from several directories (a
    /// directory of roots): the locals are then guessed, as they are when
    /// no map holds a configuration.
    pub(super) fn locals(&self) -> Option<Arc<Locals>> {
        let first = self.by_root.first().map_or(self.fallback, |(_, i)| *i);
        if self.by_root.iter().any(|(_, i)| *i != first) {
            return None;
        }
        let reading = Arc::clone(&self.reading);
        Some(Arc::new(Locals::later(move || Locals::of_source(reading.maps()?.get(first)?))))
    }
}

/// The configuration read by [`start`]; what could not be read is a warning
/// on stderr (the answers are then given without a location), and so is a
/// directory without any configuration when locations were asked for. When
/// no input could be read there is nothing to locate: no warning.
pub(super) fn finish<T>(locating: Option<Locating>, config: &Config, items: &[PerFile<T>]) -> Option<Located> {
    let Locating { reading, by_root, fallback } = locating?;
    let maps = Arc::clone(reading.maps()?);
    if items.iter().all(|i| i.result.is_err()) {
        return None;
    }
    let located = Located { maps, by_root, fallback };
    // The maps the inputs use, each once.
    let mut used: Vec<usize> = items.iter().map(|i| located.index_of(&i.file)).collect();
    used.sort_unstable();
    used.dedup();
    for &i in &used {
        let map = located.map(i);
        for note in &map.notes {
            config.read.notes.push("source locations", note);
        }
        if let (Some(note), Locations::Asked) = (&map.absent, config.locations) {
            config.read.notes.push("source locations", note);
        }
    }
    Some(located)
}

impl Located {
    /// The index of the map of the input named `file`: its root's (a root's
    /// documents are named `NAME`, or `NAME#1`, `NAME#2`, ...).
    fn index_of(&self, file: &str) -> usize {
        let of_root = |(name, _): &&(String, usize)| file == name || file.strip_prefix(name.as_str()).is_some_and(|r| r.starts_with('#'));
        self.by_root.iter().find(of_root).map_or(self.fallback, |(_, i)| *i)
    }

    /// The configuration of the input named `file`.
    pub(super) fn of(&self, file: &str) -> &SourceMap {
        self.map(self.index_of(file))
    }

    /// The map of directory `i` (`start` read one per directory it named).
    fn map(&self, i: usize) -> &SourceMap {
        &self.maps[i]
    }
}

/// Each change of a summary (and each output change) at its block.
pub(super) fn summary(map: &SourceMap, s: &mut query::summary::PlanSummary) {
    // Nothing read locates nothing: a spooled list is not written again.
    if map.is_empty() {
        return;
    }
    let locate = |e: &mut query::summary::ResourceEntry| e.location = map.locate_change(&e.address, e.reason.as_deref());
    s.resources.map_each(locate);
    s.drifted.map_each(locate);
    s.deferred_changes.iter_mut().for_each(locate);
    for o in &mut s.outputs {
        o.location = map.locate(&format!("output.{}", o.name));
    }
    for c in &mut s.failing_checks {
        c.location = map.locate_check(&c.address, std::slice::from_ref(&c.problem));
    }
}

/// Where a violation's object is declared: an `import` block for `deny
/// import`, the check or condition block for failing checks, else the
/// object's block (or the `removed` block of an object that is gone).
pub(super) fn violation(map: &SourceMap, v: &query::gate::Violation) -> Option<Location> {
    let address = v.address.as_deref()?;
    match v.rule.as_str() {
        "fail-on-checks" => map.locate_check(address, std::slice::from_ref(&v.reason)),
        "deny import" => map.locate_import(address).or_else(|| map.locate(address)),
        // Destroyed because its module instance is gone (the reason's words say so).
        _ if v.reason.contains(crate::model::ActionReason(crate::locate::NO_MODULE.into()).words().as_str()) => {
            map.locate_change(address, Some(crate::locate::NO_MODULE))
        }
        _ => map.locate(address),
    }
}

/// Each entry of a `diff` at its block in the new plan's configuration: a
/// resource change or drift at its block (or the `removed` block of one
/// that is gone), an output and a check block at theirs; the plan's own
/// entry and actions have none.
pub(super) fn diff(map: &SourceMap, c: &mut query::intent::Comparison) {
    use query::intent::Section;
    for e in &mut c.entries {
        e.location = match e.section {
            Section::Resource | Section::Drift => map.locate(&e.address),
            Section::Output if e.address.starts_with("output.") => map.locate(&e.address),
            Section::Output => map.locate(&format!("output.{}", e.address)),
            Section::Check => map.locate_check(&e.address, &[]),
            Section::Plan | Section::Action => None,
        };
    }
}
