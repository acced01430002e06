//! How inputs are read ([`ReadOptions`]) and the sinks readers share
//! between threads: warnings ([`Notes`]) and which binary showed each saved
//! plan ([`ShownBy`]).

use super::tf_bin_from_env;
use crate::secrets::Seed;
use std::path::{Path, PathBuf};

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

/// The binary that ran `show -json` on each saved plan read, by input name.
/// Shared between threads; not part of the options' value (any two compare equal).
#[derive(Debug, Clone, Default)]
pub struct ShownBy(std::sync::Arc<std::sync::Mutex<Vec<(String, PathBuf)>>>);

impl ShownBy {
    pub(super) fn push(&self, file: &str, bin: &Path) {
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

impl ReadOptions {
    /// The binary from `PLANVIEW_TF_BIN` (when set and non-empty), no directory.
    pub fn from_env() -> ReadOptions {
        ReadOptions { tf_bin: tf_bin_from_env(), ..Default::default() }
    }
}
