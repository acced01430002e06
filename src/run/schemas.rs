//! The provider schemas `show` renders with: `--schemas FILE` (the JSON of
//! `terraform providers schema -json`), or, without it, fetched by running
//! `BIN providers schema -json` where each saved plan given is shown (its
//! `--chdir`, or the directory it was found in), with the binary that shows
//! saved plans. A fetch that fails is a warning: `show` goes on without them.

use crate::config::ShowConfig;
use crate::error::Error;
use crate::query::schema::Schemas;
use crate::read::{self, ReadOptions, Root, Source};
use crate::sanitize::line as clean;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;

/// `show`'s configuration with its schemas read (or fetched), when there are any.
pub(super) fn with_schemas(show: &ShowConfig, read: &ReadOptions, roots: &[Root]) -> Result<Option<ShowConfig>, Error> {
    if let Some(path) = &show.options.schemas_file {
        let name = clean(&path.display().to_string()).into_owned();
        let bytes = std::fs::read(path).map_err(|e| Error::Usage(format!("--schemas {name}: cannot read it: {e}")))?;
        let schemas = Schemas::parse(&bytes).map_err(|e| Error::Usage(format!("--schemas {name} {e}")))?;
        return Ok(Some(with(show, schemas)));
    }
    let dirs = saved_plan_dirs(read, roots);
    if dirs.is_empty() {
        return Ok(None);
    }
    let bin = read.tf_bin.clone().or_else(|| read::find_tf_bin(std::env::var_os("PATH").as_deref()));
    let Some(bin) = bin else { return Ok(None) };
    let mut all: Option<Schemas> = None;
    for dir in dirs {
        match fetch(&bin, &dir) {
            Ok(s) => match &mut all {
                Some(a) => a.merge(s),
                None => all = Some(s),
            },
            Err(e) => {
                read.notes.push("show", format!("could not fetch the provider schemas in {}: {e}", clean(&dir.display().to_string())))
            }
        }
    }
    Ok(all.map(|s| with(show, s)))
}

fn with(show: &ShowConfig, schemas: Schemas) -> ShowConfig {
    let mut s = show.clone();
    s.options.schemas = Some(Arc::new(schemas));
    s
}

/// The working directories of the saved plans among `roots`: each root's
/// own (a directory's plan), else `--chdir`. A saved plan read from stdin
/// or without a directory fetches nothing.
fn saved_plan_dirs(read: &ReadOptions, roots: &[Root]) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    for r in roots {
        let Source::File(path) = &r.source else { continue };
        let Some(dir) = r.chdir.clone().or_else(|| read.chdir.clone()) else { continue };
        if is_saved_plan_file(path) && !dirs.contains(&dir) {
            dirs.push(dir);
        }
    }
    dirs
}

fn is_saved_plan_file(path: &Path) -> bool {
    let mut head = [0u8; 4];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok() && read::is_saved_plan(&head)
}

/// `BIN providers schema -json` in `dir`.
fn fetch(bin: &Path, dir: &Path) -> Result<Schemas, String> {
    let out = Command::new(bin)
        .args(["providers", "schema", "-json"])
        .current_dir(dir)
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("running `{} providers schema -json` failed: {e}", clean(&bin.display().to_string())))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        let last = err.lines().map(|l| l.trim_start_matches(['│', ' '])).find(|l| l.starts_with("Error:"));
        return Err(format!(
            "`{} providers schema -json` failed{}",
            clean(&bin.display().to_string()),
            last.map(|l| format!(": {}", clean(l))).unwrap_or_default()
        ));
    }
    Schemas::parse(&out.stdout).map_err(|e| format!("its output {e}"))
}
