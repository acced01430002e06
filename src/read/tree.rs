//! One directory = one root: which of the documents found in one directory of
//! a tree ([`crate::read::expand`]) are read, and the note saying what was left out.
//!
//! README's recipe leaves `plan.out` and `plan.json` side by side, and an
//! applied root may keep a `state.json` beside its plan. Read naively, each
//! root counts twice and a state stops `gate DIR`. Here, per directory:
//!
//! - a `show -json` plan and a saved plan: the JSON is read, the saved plan
//!   left out (reading it would need the CLI, and the providers and `init` of
//!   that directory, to print what the JSON beside it already holds;
//!   `planview diff DIR/plan.json DIR/plan.out` checks that they agree);
//! - a plan and a state: the plan (`summary`, `checks`, `outputs`); the
//!   commands that judge or show plans only leave states out everywhere
//!   ([`Prefer::PlansOnly`]): a tree of plans is not unreadable because an
//!   applied root kept its state; `state` leaves plans out ([`Prefer::StatesOnly`]);
//! - a directory holding only a state stays a root for `summary`, `checks`,
//!   `outputs` and `state`.
//!
//! A `*.json` document is told a plan or a state by its first top-level keys
//! ([`kind_of`]); when they do not tell, it counts as a plan, so a gate reads
//! it (and refuses it if it is a state: never a pass on a document left out).

use std::io::Read;
use std::path::{Path, PathBuf};

/// Which documents a command wants from a directory of roots.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Prefer {
    /// Plans, and a state where a directory holds no plan (`summary`, `checks`, `outputs`).
    #[default]
    Plans,
    /// Plans only: states are left out (`gate`, `comment`, `show`, `drift`,
    /// `replace`, `state --prior`, which refuse states).
    PlansOnly,
    /// States only: plans are left out (`state` without `--prior`, which refuses plans).
    StatesOnly,
}

/// What a file found in a directory is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A saved plan (`plan.out`, `tfplan`, `*.tfplan`, `--plan-glob`): found by its name.
    Saved,
    /// `show -json` of a plan.
    Plan,
    /// `show -json` of a state.
    State,
    /// `show -json` output whose first keys do not tell (read as a plan).
    Unknown,
}

/// One file found: its path relative to the top (with `/`), its path, what it is.
pub(crate) type Found = (String, PathBuf, Kind);

/// How far into a `*.json` file its top-level keys are looked for.
const KEYS_WITHIN: u64 = 1 << 20;

/// Keys only a plan has at its top level.
const PLAN_KEYS: &[&[u8]] = &[
    b"planned_values",
    b"resource_changes",
    b"resource_drift",
    b"output_changes",
    b"prior_state",
    b"configuration",
    b"relevant_attributes",
    b"deferred_changes",
    b"action_invocations",
    b"applyable",
    b"complete",
    b"errored",
    b"timestamp",
    b"plan_format_version",
];

/// Keys a state may have (besides `values`): `{"format_version":"1.0"}` alone is the empty state.
const STATE_ONLY_KEYS: &[&[u8]] = &[b"format_version", b"terraform_version", b"checks"];

/// Whether a `show -json` file is a plan or a state, by its top-level keys
/// (`values` is a state's; [`PLAN_KEYS`] a plan's), read from the first
/// [`KEYS_WITHIN`] bytes. `Unknown` when they do not tell.
pub(crate) fn kind_of(path: &Path) -> Kind {
    let Ok(file) = std::fs::File::open(path) else { return Kind::Unknown };
    let mut keys = Keys::default();
    let mut chunks = super::source::Chunks::new(file.take(KEYS_WITHIN), 16 << 10, None);
    while let Some(chunk) = chunks.next() {
        if let Some(kind) = keys.feed(&chunk.bytes) {
            return kind;
        }
        chunks.recycle(chunk.bytes);
    }
    keys.at_end()
}

/// The top-level keys of a JSON object, fed in pieces.
#[derive(Debug, Default)]
struct Keys {
    started: bool,
    depth: u32,
    in_string: bool,
    escaped: bool,
    /// At depth 1, the next string is a key.
    want_key: bool,
    /// The key being read (top level only).
    key: Option<Vec<u8>>,
    /// A key seen that neither a plan nor a state alone has (`variables`, an unknown one).
    other: bool,
    /// A state's `values` seen: a state, unless a plan's (or an unknown) key
    /// follows, which makes the document ambiguous (read, so that reading it
    /// refuses it: a gate never leaves it out as a state).
    values: bool,
    closed: bool,
}

impl Keys {
    /// Feed a piece; `Some` once the keys tell (or the text is not an object).
    fn feed(&mut self, piece: &[u8]) -> Option<Kind> {
        for &b in piece {
            if self.closed {
                return Some(self.at_end());
            }
            if !self.started {
                match b {
                    b' ' | b'\t' | b'\r' | b'\n' => continue,
                    b'{' => {
                        self.started = true;
                        self.depth = 1;
                        self.want_key = true;
                        continue;
                    }
                    // A wrapper's text, a BOM, several documents' logs: not told here.
                    _ => return Some(Kind::Unknown),
                }
            }
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                    if let Some(k) = &mut self.key {
                        k.push(b);
                    }
                } else if b == b'\\' {
                    self.escaped = true;
                    if let Some(k) = &mut self.key {
                        k.push(b);
                    }
                } else if b == b'"' {
                    self.in_string = false;
                    if let Some(key) = self.key.take() {
                        if key == b"values" {
                            if self.other {
                                return Some(Kind::Unknown);
                            }
                            self.values = true;
                        } else if PLAN_KEYS.contains(&key.as_slice()) {
                            return Some(if self.values { Kind::Unknown } else { Kind::Plan });
                        } else if !STATE_ONLY_KEYS.contains(&key.as_slice()) {
                            if self.values {
                                return Some(Kind::Unknown);
                            }
                            self.other = true;
                        }
                    }
                } else if let Some(k) = &mut self.key {
                    if k.len() < 64 {
                        k.push(b);
                    }
                }
                continue;
            }
            match b {
                b'"' => {
                    self.in_string = true;
                    if self.depth == 1 && self.want_key {
                        self.key = Some(Vec::new());
                        self.want_key = false;
                    }
                }
                b'{' | b'[' => self.depth += 1,
                b'}' | b']' => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        self.closed = true;
                        return Some(self.at_end());
                    }
                }
                b',' if self.depth == 1 => self.want_key = true,
                _ => {}
            }
        }
        None
    }

    /// What the keys told by the end of the text read.
    fn at_end(&self) -> Kind {
        if (self.closed || self.values) && !self.other {
            // `{"format_version":"1.0"}`: the empty state (`show -json` with no state).
            Kind::State
        } else {
            Kind::Unknown
        }
    }
}

/// The documents to read of the files found below one directory given on the
/// command line (each: its relative path, its path, whether it is `*.json`
/// rather than a saved plan), and the notes saying what was left out.
pub(crate) fn settle(found: Vec<(String, PathBuf, bool)>, prefer: Prefer) -> (Vec<(String, PathBuf)>, Vec<String>) {
    // Each JSON file's first keys, looked at on a few threads (as the sniffing
    // is): unless every document is read anyway (`summary` on a directory
    // holding one file, whatever it is).
    let dir_of = |rel: &str| rel.rsplit_once('/').map_or(".", |(d, _)| d).to_string();
    let mut in_dir: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (rel, _, _) in &found {
        *in_dir.entry(dir_of(rel)).or_default() += 1;
    }
    let kinds = crate::par::map(&found, 16, |(rel, path, json)| match json {
        false => Kind::Saved,
        true if prefer == Prefer::Plans && in_dir[&dir_of(rel)] == 1 => Kind::Unknown,
        true => kind_of(path),
    });
    one_per_directory(found.into_iter().zip(kinds).map(|((rel, path, _), kind)| (rel, path, kind)).collect(), prefer)
}

/// The documents to read of those found below one directory given on the
/// command line, and one line per kind of document left out (for the notes).
pub(crate) fn one_per_directory(found: Vec<Found>, prefer: Prefer) -> (Vec<(String, PathBuf)>, Vec<String>) {
    let dir_of = |rel: &str| rel.rsplit_once('/').map_or(".", |(d, _)| d).to_string();
    let mut by_dir: std::collections::BTreeMap<String, (bool, bool, bool)> = std::collections::BTreeMap::new();
    for (rel, _, kind) in &found {
        let e = by_dir.entry(dir_of(rel)).or_default();
        match kind {
            Kind::Saved => e.0 = true,
            Kind::Plan | Kind::Unknown => e.1 = true,
            Kind::State => e.2 = true,
        }
    }
    let (mut kept, mut saved_left, mut states_left, mut plans_left) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (rel, path, kind) in found {
        let (saved, json_plan, _) = by_dir[&dir_of(&rel)];
        let plan_here = saved || json_plan;
        let keep = match (kind, prefer) {
            // The JSON beside a saved plan is read instead of it.
            (Kind::Saved | Kind::Plan | Kind::Unknown, Prefer::StatesOnly) => false,
            (Kind::Saved, _) => !json_plan,
            (Kind::Plan | Kind::Unknown, _) => true,
            (Kind::State, Prefer::PlansOnly) => false,
            (Kind::State, Prefer::Plans) => !plan_here,
            (Kind::State, Prefer::StatesOnly) => true,
        };
        if keep {
            kept.push((rel, path));
        } else if kind == Kind::State {
            states_left.push(rel);
        } else if prefer == Prefer::StatesOnly {
            plans_left.push(rel);
        } else {
            saved_left.push(rel);
        }
    }
    let mut notes = Vec::new();
    if !saved_left.is_empty() {
        notes.push(format!(
            "one root per directory: left out {}, the saved plan(s) beside a `show -json` file, which is read instead (`planview diff JSON SAVED` checks that they agree)",
            saved_left.join(", ")
        ));
    }
    if !states_left.is_empty() {
        let why = match prefer {
            Prefer::Plans => "one root per directory, and its directory holds a plan",
            _ => "this command reads plans",
        };
        notes.push(format!("left out {} state(s) ({why}): {}", states_left.len(), states_left.join(", ")));
    }
    if !plans_left.is_empty() {
        notes.push(format!(
            "left out {} plan(s) (this command reads states; `--prior` reads plans): {}",
            plans_left.len(),
            plans_left.join(", ")
        ));
    }
    (kept, notes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str, piece: usize) -> Kind {
        let mut k = Keys::default();
        for p in text.as_bytes().chunks(piece.max(1)) {
            if let Some(kind) = k.feed(p) {
                return kind;
            }
        }
        k.at_end()
    }

    #[test]
    fn top_level_keys_tell_a_plan_from_a_state_in_pieces_of_any_size() {
        let cases = [
            (r#"{"format_version":"1.0","terraform_version":"1.11.4","values":{"root_module":{}}}"#, Kind::State),
            (r#"{"format_version":"1.0"}"#, Kind::State),
            (r#" {"format_version":"1.2","variables":{"values":{"value":1}},"planned_values":{}}"#, Kind::Plan),
            (r#"{"format_version":"1.2","terraform_version":"1.11.4","resource_changes":[]}"#, Kind::Plan),
            (r#"{"plan_format_version":"1.2"}"#, Kind::Plan),
            // `values` inside another key's value is not the top-level key.
            (r#"{"format_version":"1.2","variables":{"values":1},"x\"values":2}"#, Kind::Unknown),
            (r#"{"format_version":"1.2","variables":{}}"#, Kind::Unknown),
            // A state's `values` beside a plan's key is neither: read, so refused.
            (r#"{"format_version":"1.0","values":{"root_module":{}},"variables":{"r":{"value":1}}}"#, Kind::Unknown),
            (r#"{"format_version":"1.0","variables":{"r":{"value":1}},"values":{}}"#, Kind::Unknown),
            (r#"{"format_version":"1.0","values":{},"resource_changes":[]}"#, Kind::Unknown),
            ("text before {\"format_version\":\"1.0\"}", Kind::Unknown),
            (r#"{"format_version":"1.2","variables":{"a":"#, Kind::Unknown),
        ];
        for (text, want) in cases {
            for piece in [1, 2, 7, 1000] {
                assert_eq!(kind(text, piece), want, "{text} in pieces of {piece}");
            }
        }
    }

    fn found(items: &[(&str, Kind)]) -> Vec<Found> {
        items.iter().map(|(r, k)| (r.to_string(), PathBuf::from(r), *k)).collect()
    }

    #[test]
    fn one_directory_is_one_root() {
        let tree = found(&[
            ("app/plan.json", Kind::Plan),
            ("app/plan.out", Kind::Saved),
            ("net/plan.json", Kind::Plan),
            ("net/plan.out", Kind::Saved),
            ("net/state.json", Kind::State),
            ("saved/tfplan", Kind::Saved),
            ("shared/state.json", Kind::State),
        ]);
        let rels = |p: Prefer| one_per_directory(tree.clone(), p).0.into_iter().map(|(r, _)| r).collect::<Vec<_>>();
        assert_eq!(rels(Prefer::Plans), ["app/plan.json", "net/plan.json", "saved/tfplan", "shared/state.json"]);
        assert_eq!(rels(Prefer::PlansOnly), ["app/plan.json", "net/plan.json", "saved/tfplan"]);
        assert_eq!(rels(Prefer::StatesOnly), ["net/state.json", "shared/state.json"]);
        let (_, notes) = one_per_directory(tree.clone(), Prefer::PlansOnly);
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].contains("app/plan.out, net/plan.out"), "{notes:?}");
        assert!(notes[1].contains("left out 2 state(s) (this command reads plans): net/state.json, shared/state.json"), "{notes:?}");
        let (_, notes) = one_per_directory(tree, Prefer::StatesOnly);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("left out 5 plan(s)") && notes[0].contains("net/plan.json, net/plan.out, saved/tfplan"), "{notes:?}");
    }
}
