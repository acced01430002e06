//! The facts about the process that the config depends on ([`Env`]), and
//! the defaults made of them (`comment`'s marker names each input from the
//! checkout's root).

use crate::read::Source;
use std::io::IsTerminal;
use std::path::{Component, Path, PathBuf};

/// The facts about the process that the config depends on.
#[derive(Debug, Clone, Default)]
pub struct Env {
    pub stdin_is_terminal: bool,
    pub stdout_is_terminal: bool,
    pub stderr_is_terminal: bool,
    /// CI set to a non-empty value (a CI runner's log is no place for a progress bar).
    pub ci: bool,
    /// NO_COLOR set to a non-empty value.
    pub no_color: bool,
    /// PLANVIEW_TF_BIN, when set and non-empty.
    pub tf_bin: Option<PathBuf>,
    /// The width of the terminal on stdout, when it is one and says.
    pub terminal_width: Option<usize>,
    /// COLUMNS, when set to a whole number above 0.
    pub columns: Option<usize>,
    /// $GITHUB_STEP_SUMMARY and $GITHUB_OUTPUT (`comment`'s default files), when set.
    pub step_summary: Option<PathBuf>,
    pub github_output: Option<PathBuf>,
    /// The current directory, and the root of the checkout it is in (`comment`'s
    /// default marker names each input from there: [`checkout_root`]).
    pub cwd: Option<PathBuf>,
    pub checkout: Option<PathBuf>,
    /// Where `comment` links a source location to (GitHub's or GitLab's
    /// variables: [`crate::render::link::Forge::from_env`]).
    pub forge: Option<crate::render::link::Forge>,
}

impl Env {
    pub fn detect() -> Env {
        Env {
            stdin_is_terminal: std::io::stdin().is_terminal(),
            stdout_is_terminal: std::io::stdout().is_terminal(),
            stderr_is_terminal: std::io::stderr().is_terminal(),
            ci: std::env::var_os("CI").is_some_and(|v| !v.is_empty()),
            no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
            tf_bin: crate::read::tf_bin_from_env(),
            terminal_width: terminal_size::terminal_size_of(std::io::stdout()).map(|(w, _)| usize::from(w.0)).filter(|w| *w > 0),
            columns: std::env::var("COLUMNS").ok().and_then(|c| c.trim().parse::<usize>().ok()).filter(|c| *c > 0),
            step_summary: std::env::var_os("GITHUB_STEP_SUMMARY").filter(|v| !v.is_empty()).map(PathBuf::from),
            github_output: std::env::var_os("GITHUB_OUTPUT").filter(|v| !v.is_empty()).map(PathBuf::from),
            cwd: std::env::current_dir().ok(),
            checkout: checkout_root(|k| std::env::var_os(k), std::env::current_dir().ok().as_deref()),
            forge: None,
        }
        .with_forge()
    }

    /// [`Env::forge`] from the environment, the cwd and the checkout.
    fn with_forge(self) -> Env {
        let get = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let forge = crate::render::link::Forge::from_env(&get, self.cwd.as_deref(), self.checkout.as_deref());
        Env { forge, ..self }
    }
}

/// The CI variables that name the checkout's root, in the order they are tried.
const CHECKOUT_VARS: [&str; 4] = ["GITHUB_WORKSPACE", "CI_PROJECT_DIR", "BITBUCKET_CLONE_DIR", "BUILD_SOURCESDIRECTORY"];

/// The root of the checkout `cwd` is in: the first of [`CHECKOUT_VARS`] that
/// is set (made canonical), else the nearest directory from `cwd` up that holds
/// `.git`; None when neither is found.
pub(super) fn checkout_root(var: impl Fn(&str) -> Option<std::ffi::OsString>, cwd: Option<&Path>) -> Option<PathBuf> {
    let from_ci = CHECKOUT_VARS.iter().filter_map(|k| var(k)).find(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = from_ci {
        return Some(std::fs::canonicalize(&dir).unwrap_or(dir));
    }
    cwd?.ancestors().find(|d| d.join(".git").exists()).map(Path::to_path_buf)
}

/// `path` with `.` and `..` resolved by their names (no file system access).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push(c);
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// `path` relative to `root`, `/`-separated, when it is under it.
fn under(path: &Path, root: &Path) -> Option<String> {
    let rel = lexical(path).strip_prefix(lexical(root)).ok()?.to_path_buf();
    Some(rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/"))
}

/// One input's name in the default marker: its path from the checkout's root
/// (`plan.json` read in `prod/` is `prod/plan.json`; stdin read in `prod/` is
/// `prod/<stdin>`), so the jobs of a matrix, each in its own root, get
/// different markers and one job's comment never replaces another's; the
/// name as given when there is no checkout or the input is outside it.
fn marker_name(input: &Source, env: &Env) -> String {
    let (Some(cwd), Some(root)) = (env.cwd.as_deref(), env.checkout.as_deref()) else { return input.name() };
    let named = match input {
        Source::Stdin => under(cwd, root).filter(|d| !d.is_empty()).map(|d| format!("{d}/{}", input.name())),
        Source::File(p) => under(&cwd.join(p), root).filter(|r| !r.is_empty()),
    };
    named.unwrap_or_else(|| input.name())
}

/// The marker's ID when `--id` is not given: the inputs' names from the checkout's root, comma-separated.
pub(super) fn default_id(inputs: &[Source], env: &Env) -> String {
    inputs.iter().map(|s| marker_name(s, env)).collect::<Vec<_>>().join(",")
}
