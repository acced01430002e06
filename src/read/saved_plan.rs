//! Saved plans (`plan -out FILE`, a zip archive): which binary turns one
//! into JSON (`tofu`, then `terraform`, or `--tf-bin`), run where `--chdir`
//! says, a piped one kept in a private temporary file.

use super::source::{read_error, reserve, Chunk, Chunks};
use super::ReadOptions;
use crate::error::InputError;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A saved plan (`plan -out FILE`) is a zip archive.
pub(crate) fn is_saved_plan(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04")
}

/// The environment variable naming the binary to run on saved plans.
pub(crate) const TF_BIN_ENV: &str = "PLANVIEW_TF_BIN";

/// `PLANVIEW_TF_BIN`, when set and non-empty.
pub(crate) fn tf_bin_from_env() -> Option<PathBuf> {
    std::env::var_os(TF_BIN_ENV).filter(|v| !v.is_empty()).map(PathBuf::from)
}

/// The first of `tofu`, then `terraform`, found as an executable file on PATH.
pub(crate) fn find_tf_bin(path_var: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
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

pub(super) const SHOW_HINT: &str = "convert it yourself where `init` was run: `tofu show -json plan.out > plan.json` (or `terraform show -json`), or choose the binary with --tf-bin PATH or PLANVIEW_TF_BIN and the directory with --chdir DIR";

/// Run `BIN show -json -no-color PATH` and return its stdout. `-no-color`:
/// its errors (quoted in ours) come without the CLI's colour codes.
pub(super) fn show_json(name: &str, path: &Path, show: &ReadOptions) -> Result<Vec<u8>, InputError> {
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
        crate::par::thread(move || {
            let mut v = Vec::new();
            let _ = e.read_to_end(&mut v);
            v
        })
    });
    let mut stdout = Vec::new();
    let read = child.stdout.take().map_or(Ok(()), |o| {
        let mut chunks = Chunks::new(o, 1 << 20, None);
        while let Some(Chunk { bytes, failed, .. }) = chunks.next() {
            reserve(name, &mut stdout, bytes.len(), false)?;
            stdout.extend_from_slice(&bytes);
            chunks.recycle(bytes);
            if let Some(e) = failed {
                return Err(read_error(name, &e));
            }
        }
        Ok(())
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
pub(super) struct TempFile(pub(super) PathBuf);

impl TempFile {
    pub(super) fn create(bytes: &[u8]) -> std::io::Result<TempFile> {
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
