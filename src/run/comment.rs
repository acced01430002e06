//! The run of `planview comment`: read each plan once ([`crate::query::review`]),
//! judge it with the gate's policy, and print one markdown body within the
//! platform's budget ([`crate::render::comment`]); write the job summary (the
//! whole review, within 1 MiB) and the CI outputs (`name=value` lines).
//!
//! Secrets are masked by meaning where the review takes values from each
//! input (as every command masks them); the body's own syntax (the hidden
//! marker, `<details>`, code fences) is never touched.

use crate::cli::{Config, Env, ReadArgs};
use crate::error::{Error, InputError};
use crate::input::{Document, Source};
use crate::mask;
use crate::outcome::{PerFile, Status};
use crate::query::gate::Policy;
use crate::query::review::{review, CiOutputs, Review};
use crate::query::values::Visibility;
use crate::render::comment::{body, BodyOptions, Platform, SUMMARY_MAX_BYTES};
use clap::Args;
use std::io::Write;
use std::path::{Component, Path, PathBuf};

pub(crate) const EXAMPLES: &str = "\
The body: the gate's verdict and policy first, the Plan: line(s) (a row per
input when there are several), the changes grouped destructive-first with their
reasons and `show`'s diffs in <details>, failing checks, relevant drift, output
changes. It fits the platform's limit: when it would not, diffs of changes that
change nothing go first, then the other diffs, then list rows, and a closing
line says what was left out. It starts with a hidden marker,
<!-- planview:ID -->, by which a poster finds and updates its own comment.

Examples:
  planview comment plan.json > comment.md
  planview comment --platform gitlab --protect 'module.db' */plan.json
  planview comment --skip-unchanged --outputs-file out.env --summary-file summary.md plan.json
  (GitHub Actions: --summary-file and --outputs-file default to $GITHUB_STEP_SUMMARY and $GITHUB_OUTPUT)";

pub(crate) const EXIT_CODES: &str = "\
Exit codes:
  0  every plan passed, as `gate` (also: --skip-unchanged and nothing changes)
  1  a plan broke a rule (the body says which)
  2  usage error, unreadable policy or input (the body says which; never a pass)";

/// `planview comment`: inputs, the policy flags (as `gate` takes them), and where the review goes.
#[derive(Debug, Args)]
pub struct CommentArgs {
    /// Plan JSON files, saved plans, or directories of them (`-` for stdin; stdin when none is given and it is piped).
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,

    #[command(flatten)]
    pub read: ReadArgs,

    #[command(flatten)]
    pub roots: crate::cli::RootArgs,

    /// Where the comment is posted: sets the budget to its limit on a comment
    /// (github 65,536; gitlab 1,000,000; azure 150,000; bitbucket 32,768 bytes).
    #[arg(long, value_enum, default_value_t = Platform::Github)]
    pub platform: Platform,

    /// The budget in bytes, whatever --platform says (at least 1024).
    #[arg(long, value_name = "N", value_parser = crate::cli::parse_max_bytes)]
    pub max_bytes: Option<usize>,

    /// The hidden marker's ID (`<!-- planview:ID -->`; by default made of the input names).
    #[arg(long, value_name = "ID")]
    pub id: Option<String>,

    /// Print nothing (exit 0) when no input has changes and the gate passes.
    #[arg(long)]
    pub skip_unchanged: bool,

    /// Append the whole review (without the comment's budget, within the job
    /// summary's 1 MiB) to PATH; by default to $GITHUB_STEP_SUMMARY when it is set.
    #[arg(long, value_name = "PATH")]
    pub summary_file: Option<PathBuf>,

    /// Append `name=value` lines (has_changes, has_resource_changes, destructive,
    /// verdict, to_add, to_change, to_destroy, to_replace, to_import, to_move,
    /// to_forget) to PATH; by default to $GITHUB_OUTPUT when it is set.
    #[arg(long, value_name = "PATH")]
    pub outputs_file: Option<PathBuf>,

    #[command(flatten)]
    pub rules: crate::cli::PolicyArgs,
}

/// `comment`'s own settings, as plain data.
#[derive(Debug, Clone)]
pub struct CommentOptions {
    pub policy: Policy,
    pub policy_files: Vec<PathBuf>,
    pub max_bytes: usize,
    /// The marker's ID, as given or made of the input names (made safe when rendered).
    pub id: String,
    pub skip_unchanged: bool,
    pub summary_file: Option<PathBuf>,
    pub outputs_file: Option<PathBuf>,
}

/// The config of `comment` (`bare` holds the defaults).
pub(crate) fn config(a: CommentArgs, env: &Env, bare: Config) -> Result<Config, String> {
    let policy = a.rules.to_policy()?;
    let common = crate::cli::CommonArgs {
        files: a.files,
        format: crate::render::Format::Markdown,
        view: crate::cli::ViewArgs::plain(),
        read: a.read,
        roots: a.roots,
    };
    let inputs = crate::cli::inputs_of(&common.files, env, "comment")?;
    let id = a.id.clone().unwrap_or_else(|| default_id(&inputs, env));
    let non_empty = |p: &Option<PathBuf>| p.clone().filter(|p| !p.as_os_str().is_empty());
    let options = CommentOptions {
        policy,
        policy_files: a.rules.policy_files(),
        max_bytes: a.max_bytes.unwrap_or(a.platform.max_bytes()),
        id,
        skip_unchanged: a.skip_unchanged,
        summary_file: non_empty(&a.summary_file).or_else(|| non_empty(&env.step_summary)),
        outputs_file: non_empty(&a.outputs_file).or_else(|| non_empty(&env.github_output)),
    };
    Ok(Config {
        inputs,
        format: crate::render::Format::Markdown,
        read: common.read.to_options(env),
        max_bytes: options.max_bytes,
        find: crate::roots::FindOptions { prefer: crate::tree::Prefer::PlansOnly, ..common.roots.to_options() },
        command: crate::cli::CommandKind::Comment(Box::new(options)),
        ..bare
    })
}

/// The CI variables that name the checkout's root, in the order they are tried.
const CHECKOUT_VARS: [&str; 4] = ["GITHUB_WORKSPACE", "CI_PROJECT_DIR", "BITBUCKET_CLONE_DIR", "BUILD_SOURCESDIRECTORY"];

/// The root of the checkout `cwd` is in: the first of [`CHECKOUT_VARS`] that
/// is set (made canonical), else the nearest directory from `cwd` up that holds
/// `.git`; None when neither is found.
pub(crate) fn checkout_root(var: impl Fn(&str) -> Option<std::ffi::OsString>, cwd: Option<&Path>) -> Option<PathBuf> {
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
pub(crate) fn default_id(inputs: &[Source], env: &Env) -> String {
    inputs.iter().map(|s| marker_name(s, env)).collect::<Vec<_>>().join(",")
}

/// Append `text` to `path` (the job summary and `$GITHUB_OUTPUT` are appended to by every step).
fn append(path: &std::path::Path, text: &str, what: &str) -> Result<(), Error> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| Error::Usage(format!("cannot write the {what} {}: {e}", crate::sanitize::line(&path.display().to_string()))))?;
    f.write_all(text.as_bytes())
        .map_err(|e| Error::Usage(format!("cannot write the {what} {}: {e}", crate::sanitize::line(&path.display().to_string()))))
}

/// `comment`: exit 0 when every plan passes, 1 when one breaks a rule, 2 when
/// an input cannot be read (the body is printed in every case but a usage error).
pub(crate) fn run_comment(config: &Config, opts: &CommentOptions, out: &mut dyn std::io::Write) -> Result<Status, Error> {
    let policy = super::policy_with_files(&opts.policy, &opts.policy_files)?;
    let vis = Visibility { show_sensitive: false, masker: None };
    // Directories become the plans below them; inputs holding several documents are split.
    let roots = crate::roots::expand(&config.inputs, &config.find, &config.read.notes);
    let items: Vec<PerFile<Review>> = crate::pipeline::each_root_raw_with(&roots, &config.read, |raw, doc, m| {
        // Every plan's fingerprint: judged by `--expect-fingerprint`, and shown
        // in the comment's hidden lines for a later job to read back.
        let fingerprint = match doc {
            Document::Plan(p) => Some(super::compare::fingerprint_of(p, m)),
            _ => None,
        };
        let mut r = review(doc, &policy, &vis.with(m), fingerprint.as_deref())?;
        super::judge_rego(&policy, raw, &mut r.verdict, m)?;
        Ok(r)
    });
    let mut items: Vec<PerFile<Review>> = items
        .into_iter()
        .map(|mut i| {
            if let Ok(r) = &mut i.result {
                r.summary.file = i.file.clone();
                r.verdict.file = i.file.clone();
            }
            i
        })
        .collect();
    // Errors quote the input: every input's secrets are masked in them.
    let mut masker = mask::Masker::default();
    items.iter().for_each(|i| masker.merge(&i.masker));
    let scrubber = masker.scrubber();
    let scrub = |s: &str| String::from_utf8_lossy(&scrubber.scrub(s.as_bytes())).into_owned();
    let errors: Vec<InputError> = items
        .iter()
        .filter_map(|i| i.result.as_ref().err())
        .map(|e| InputError { message: scrub(&e.message), hint: e.hint.as_deref().map(scrub), ..e.clone() })
        .collect();
    let outputs = CiOutputs::of(&items);
    let unchanged = errors.is_empty() && !outputs.has_changes && outputs.verdict == "pass";
    let report = policy.describe();
    // The same review twice: the comment within its budget, the job summary within 1 MiB.
    let summary_body = opts.summary_file.as_ref().map(|_| {
        let o =
            BodyOptions { max_bytes: SUMMARY_MAX_BYTES, marker: None, whole: "`planview show` and `planview summary` on the plan".into() };
        body(&mut items, &report, &o)
    });
    let whole = if opts.summary_file.is_some() {
        "the job summary of this run".to_string()
    } else {
        "`planview comment --summary-file`, `planview show` on the plan".to_string()
    };
    let o = BodyOptions { max_bytes: opts.max_bytes, marker: Some(opts.id.clone()), whole };
    if !(opts.skip_unchanged && unchanged) {
        out.write_all(body(&mut items, &report, &o).as_bytes())?;
    }
    if let (Some(path), Some(text)) = (&opts.summary_file, summary_body) {
        append(path, &text, "job summary")?;
    }
    if let Some(path) = &opts.outputs_file {
        append(path, &outputs.lines(), "outputs file")?;
    }
    if !errors.is_empty() {
        return Err(Error::Input(errors));
    }
    Ok(if outputs.verdict == "fail" { Status::Failed } else { Status::Success })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `comment` options of a config (a config of another command is a test bug).
    fn comment_options(c: Config) -> CommentOptions {
        match c.command {
            crate::cli::CommandKind::Comment(o) => *o,
            other => panic!("not comment: {other:?}"),
        }
    }
    use crate::cli::Cli;
    use clap::{CommandFactory, Parser};

    /// Every policy flag of `gate` is a flag of `comment` too (the flags are
    /// declared twice: a flag added to `gate` fails here until `comment` takes it).
    #[test]
    fn comment_takes_every_policy_flag_of_gate() {
        let longs = |name: &str| -> Vec<String> {
            let root = Cli::command();
            let sub = root.find_subcommand(name).expect("subcommand");
            sub.get_arguments().filter_map(|a| a.get_long().map(str::to_string)).collect()
        };
        let comment = longs("comment");
        let not_policy = ["format", "color", "width", "show-sensitive", "max-bytes", "verify", "locations"];
        let missing: Vec<String> =
            longs("gate").into_iter().filter(|l| !not_policy.contains(&l.as_str()) && !comment.contains(l)).collect();
        assert!(missing.is_empty(), "`comment` lacks gate's {missing:?}");
    }

    #[test]
    fn the_default_marker_tells_roots_apart() {
        let id = |cwd: &str, files: &[&str]| {
            let env = Env { cwd: Some(cwd.into()), checkout: Some("/repo".into()), ..Default::default() };
            let mut args = vec!["planview", "comment"];
            args.extend(files);
            comment_options(Cli::parse_from(args).into_config(&env).unwrap()).id
        };
        // A matrix: each job in its own root, the same file name.
        assert_eq!(id("/repo/prod", &["plan.json"]), "prod/plan.json");
        assert_eq!(id("/repo/staging", &["plan.json"]), "staging/plan.json");
        assert_eq!(id("/repo/live/prod", &["-"]), "live/prod/<stdin>");
        // From the root, names are as given (markers already posted stay found).
        assert_eq!(id("/repo", &["prod/plan.json", "./staging/plan.json"]), "prod/plan.json,staging/plan.json");
        assert_eq!(id("/repo", &["-"]), "<stdin>");
        assert_eq!(id("/repo/prod", &["../staging/plan.json", "/repo/a/b.json"]), "staging/plan.json,a/b.json");
        // Outside the checkout, or with no checkout: as given; --id as given.
        assert_eq!(id("/tmp", &["plan.json", "/elsewhere/p.json"]), "plan.json,/elsewhere/p.json");
        let bare = comment_options(Cli::parse_from(["planview", "comment", "plan.json"]).into_config(&Env::default()).unwrap());
        assert_eq!(bare.id, "plan.json");
        assert_eq!(id("/repo/prod", &["--id", "prod", "plan.json"]), "prod");
        // The rendered markers differ.
        assert_ne!(
            crate::render::comment::marker_line(&id("/repo/prod", &["-"])),
            crate::render::comment::marker_line(&id("/repo/staging", &["-"]))
        );
        // The checkout: the CI's variable first, else the nearest `.git` up.
        let dir = std::env::temp_dir().join(format!("planview-checkout-{}", std::process::id()));
        std::fs::create_dir_all(dir.join(".git")).unwrap();
        std::fs::create_dir_all(dir.join("prod")).unwrap();
        let root = std::fs::canonicalize(&dir).unwrap();
        assert_eq!(checkout_root(|_| None, Some(&root.join("prod"))), Some(root.clone()));
        let ws = |k: &str| (k == "CI_PROJECT_DIR").then(|| root.join("prod").into_os_string());
        assert_eq!(checkout_root(ws, Some(&root)), Some(root.join("prod")));
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn platform_sets_the_budget_and_max_bytes_overrides_it() {
        let cfg = |args: &[&str]| {
            let c = Cli::parse_from(args).into_config(&Env::default()).unwrap();
            comment_options(c)
        };
        assert_eq!(cfg(&["planview", "comment", "p.json"]).max_bytes, 65_536);
        assert_eq!(cfg(&["planview", "comment", "--platform", "gitlab", "p.json"]).max_bytes, 1_000_000);
        assert_eq!(cfg(&["planview", "comment", "--platform", "azure", "p.json"]).max_bytes, 150_000);
        assert_eq!(cfg(&["planview", "comment", "--platform", "bitbucket", "p.json"]).max_bytes, 32_767);
        assert_eq!(cfg(&["planview", "comment", "--platform", "gitlab", "--max-bytes", "2000", "p.json"]).max_bytes, 2_000);
        let c = cfg(&["planview", "comment", "--deny", "create", "--protect", "db", "a.json", "b.json"]);
        assert_eq!(c.id, "a.json,b.json");
        assert!(c.policy.deny.contains(&crate::query::gate::GateAction::Create) && c.policy.protect.len() == 1);
        let env = Env { step_summary: Some("/s".into()), github_output: Some("/o".into()), ..Default::default() };
        let c = Cli::parse_from(["planview", "comment", "--outputs-file", "own", "p.json"]).into_config(&env).unwrap();
        let c = comment_options(c);
        assert_eq!((c.summary_file, c.outputs_file), (Some(PathBuf::from("/s")), Some(PathBuf::from("own"))));
        assert!(Cli::try_parse_from(["planview", "comment", "--max-bytes", "10", "p.json"]).is_err());
    }
}
