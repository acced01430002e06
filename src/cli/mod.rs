//! Command-line definitions (clap types stay here) and their conversion into a
//! plain [`Config`], once.

use crate::config::{CommandKind, CommentOptions, Config, GateOptions, Locations, MovesConfig, ShowConfig};
use crate::read::{ReadOptions, Source};
use crate::render::comment::Platform;
use crate::render::{Format, Offer};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

mod env;
mod help;
mod locations;
use env::default_id;
pub use env::Env;
use help::*;
pub use locations::{LocationArgs, NoLocationArgs};

/// Answers what a Terraform/OpenTofu plan or state (from `show -json`) will do.
#[derive(Debug, Parser)]
#[command(name = "planview", version, about, after_help = EXIT_CODES, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,

    /// Draw no progress bar on stderr (one is drawn while an input of 50 MB or
    /// more is read, only when stderr is a terminal and CI is not set).
    #[arg(long, short = 'q', global = true)]
    pub quiet: bool,
}

/// `--help` lists the commands in README's order (`display_order`): the
/// questions about one plan or state, then CI (`gate`, `comment`, `diff`,
/// `fingerprint`), then the shell's (`completions`, `man`).
#[derive(Debug, Subcommand)]
pub enum Command {
    /// What a plan will do, counted as the CLI counts it; or what a state holds.
    #[command(after_help = format!("Reads: a plan or a state.\n\n{EXAMPLES}\n\n{SUMMARY_EXIT_CODES}"))]
    #[command(display_order = 1)]
    Summary(SummaryArgs),
    /// Objects changed outside Terraform/OpenTofu, and the attributes that changed
    /// (by default only the drift relevant to this plan, as the CLI shows it).
    #[command(
        after_help = format!("Reads: a plan (a state has no drift: exit 2).\n\n{DRIFT_EXAMPLES}\n\n{PLAN_EXIT_CODES}"),
        mut_arg("files", |a| a.help(PLAN_FILES))
    )]
    #[command(display_order = 3)]
    Drift(DriftArgs),
    /// Every resource the plan replaces: order, reason, and the attribute paths that force it.
    #[command(
        after_help = format!("Reads: a plan (a state replaces nothing: exit 2).\n\n{REPLACE_EXAMPLES}\n\n{PLAN_EXIT_CODES}"),
        mut_arg("files", |a| a.help(PLAN_FILES))
    )]
    #[command(display_order = 4)]
    Replace(ReplaceArgs),
    /// Check results (conditions, check blocks, validations); exits 1 when one failed.
    #[command(after_help = format!("Reads: a plan or a state.\n\n{CHECKS_EXAMPLES}\n\n{CHECKS_EXIT_CODES}"))]
    #[command(display_order = 5)]
    Checks(ChecksArgs),
    /// A plan's output changes (before -> after), or a state's outputs with their types.
    #[command(after_help = format!("Reads: a plan or a state.\n\n{OUTPUTS_EXAMPLES}\n\n{READ_EXIT_CODES}"))]
    #[command(display_order = 6)]
    Outputs(OutputsArgs),
    /// The resources of a state (or of a plan's prior state, with --prior).
    #[command(
        after_help = format!("Reads: a state; a plan only with --prior (else exit 2).\n\n{STATE_EXAMPLES}\n\n{STATE_EXIT_CODES}"),
        mut_arg("files", |a| a.help("State JSON files, or plans with --prior (`-` for stdin; stdin when none is given and it is piped)"))
    )]
    #[command(display_order = 7)]
    State(StateArgs),
    /// The attribute-level changes of each resource and output, as a structural diff.
    #[command(
        after_help = format!("Reads: a plan (a state changes nothing: exit 2).\n\n{SHOW_EXAMPLES}\n\n{PLAN_EXIT_CODES}"),
        mut_arg("files", |a| a.help(PLAN_FILES))
    )]
    #[command(display_order = 2)]
    Show(ShowArgs),

    /// Judge plans against a policy: exit 0 when every plan passes, 1 when one
    /// breaks a rule, 2 when an input cannot be read.
    ///
    /// With no policy, the gate denies destruction: a managed resource that would
    /// be deleted, replaced (either order) or a deposed object destroyed. Data
    /// sources never count. An action list planview does not recognise always
    /// fails the gate, and so does an errored plan unless --allow-errored.
    #[command(after_help = format!("Reads: plans (a state is an unreadable input: exit 2, never a pass).\n\n{GATE_EXAMPLES}\n\n{GATE_EXIT_CODES}"))]
    #[command(display_order = 9)]
    Gate(GateArgs),

    /// Print a shell completion script (bash, zsh, fish, powershell).
    #[command(after_help = COMPLETION_HELP)]
    #[command(display_order = 13)]
    Completions {
        #[arg(value_enum)]
        shell: Shell,
    },

    /// Print the man page (roff): `planview man | man -l -`, or one command's page.
    #[command(display_order = 14)]
    Man {
        /// The command whose page to print (`planview-gate.1`); the main page when absent.
        #[arg(value_name = "COMMAND")]
        command: Option<String>,
    },
    /// Delete + create pairs that are one object moving: writes the `moved` blocks
    /// (or `state mv` commands) that keep it instead of destroying it.
    #[command(after_help = format!("Reads: one plan (a state has nothing to move: exit 2).\n\n{MOVES_EXAMPLES}\n\n{MOVES_EXIT_CODES}"))]
    #[command(display_order = 8)]
    Moves(MovesArgs),
    /// What the second plan would do differently from the first (by meaning, not
    /// bytes): exit 0 when both would do the same, 1 when they differ.
    #[command(after_help = format!("Reads: two plans (a state is an input error: exit 2).\n\n{DIFF_EXAMPLES}\n\n{DIFF_EXIT_CODES}"))]
    #[command(display_order = 11)]
    Diff(DiffArgs),
    /// The fingerprint (`sha256:...`) of what a plan would do: equal for two plans
    /// exactly when `planview diff` finds no difference.
    #[command(after_help = format!("Reads: one plan (a state is an input error: exit 2).\n\n{FINGERPRINT_EXAMPLES}\n\n{FINGERPRINT_EXIT_CODES}"))]
    #[command(display_order = 12)]
    Fingerprint(FingerprintArgs),
    /// One pull-request comment: the gate's verdict, the Plan: line(s), the changes
    /// destructive-first with their diffs, within the platform's limit; the job
    /// summary and CI outputs too. Exit codes as `gate`.
    #[command(after_help = format!("Reads: plans (a state is an unreadable input: exit 2).\n\n{}\n\n{}", COMMENT_EXAMPLES, COMMENT_EXIT_CODES))]
    #[command(display_order = 10)]
    Comment(CommentArgs),
}

/// `planview comment`: inputs, the policy flags (as `gate` takes them), and where the review goes.
#[derive(Debug, Args)]
pub struct CommentArgs {
    /// Plan JSON files, saved plans, or directories of them (`-` for stdin; stdin when none is given and it is piped).
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,

    #[command(flatten)]
    pub read: ReadArgs,

    #[command(flatten)]
    pub roots: RootArgs,

    /// Where the comment is posted: sets the budget to its limit on a comment
    /// (github 65,536; gitlab 1,000,000; azure 150,000; bitbucket 32,768 bytes).
    #[arg(long, value_enum, default_value_t = Platform::Github)]
    pub platform: Platform,

    /// The budget in bytes, whatever --platform says (at least 1000).
    #[arg(long, value_name = "N", value_parser = parse_max_bytes)]
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

    /// The provider schemas (`terraform providers schema -json` saved to FILE):
    /// each change's diff shows nested blocks, sets, maps and write-only
    /// attributes as the CLI shows them. Without it, a saved plan given with
    /// --chdir has them fetched there.
    #[arg(long, value_name = "FILE")]
    pub schemas: Option<PathBuf>,

    /// Also write the review as one self-contained HTML page to FILE (a CI
    /// artifact: `show --format html` with the gate's verdict; never cut to the budget).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,

    #[command(flatten)]
    pub rules: PolicyArgs,

    #[command(flatten)]
    pub locations: NoLocationArgs,
}

/// `planview diff OLD NEW`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The plan reviewed: plan JSON, or a saved plan (`-` for stdin).
    #[arg(value_name = "OLD")]
    pub old: String,

    /// The plan to compare with it (the one to be applied).
    #[arg(value_name = "NEW")]
    pub new: String,

    /// Output format.
    #[arg(long, short = 'f', value_parser = formats(Offer::Diff), default_value = "table")]
    pub format: Format,

    #[command(flatten)]
    pub locations: NoLocationArgs,

    /// When to colour the table output (`auto`: if stdout is a terminal and NO_COLOR is unset).
    #[arg(long, value_enum, default_value_t = ColorArg::Auto, value_name = "WHEN")]
    pub color: ColorArg,

    #[command(flatten)]
    pub read: ReadArgs,
}

/// `planview fingerprint PLAN`.
#[derive(Debug, Args)]
pub struct FingerprintArgs {
    /// Plan JSON, or a saved plan (`-` or none: stdin when piped).
    #[arg(value_name = "FILE")]
    pub file: Option<String>,

    /// Output format: `text` prints `sha256:<hex>`; `json` adds the canonical form
    /// it hashes (schemas/fingerprint.schema.json; secrets as hashes).
    #[arg(long, short = 'f', value_enum, default_value_t = crate::render::diff::FingerprintFormat::Text)]
    pub format: crate::render::diff::FingerprintFormat,

    #[command(flatten)]
    pub read: ReadArgs,
}

/// `--expect-fingerprint sha256:<64 hex digits>`.
fn parse_fingerprint(s: &str) -> Result<String, String> {
    let hex = s.strip_prefix("sha256:").unwrap_or_default();
    if hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(format!("sha256:{}", hex.to_ascii_lowercase()))
    } else {
        Err("expected sha256:<64 hex digits>, as `planview fingerprint` prints it".into())
    }
}

/// `planview moves FILE`.
#[derive(Debug, Args)]
pub struct MovesArgs {
    /// Plan JSON, or a saved plan (`-` or none: stdin when piped).
    #[arg(value_name = "FILE")]
    pub file: Option<String>,

    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = crate::render::moves::MovesFormat::TfJson)]
    pub format: crate::render::moves::MovesFormat,

    /// Leave this attribute out of the comparison (repeatable): a top-level name such
    /// as `tags`, or a dotted path into nested values such as `tags.updated_at`
    /// (`*` matches any one key or index).
    #[arg(long = "ignore", value_name = "ATTR")]
    pub ignore: Vec<String>,

    #[command(flatten)]
    pub read: ReadArgs,
}

impl MovesArgs {
    fn split(self) -> (CommonArgs, MovesConfig) {
        use crate::render::moves::MovesFormat;
        let format = self.format;
        let common = CommonArgs {
            files: self.file.into_iter().collect(),
            format: if format == MovesFormat::Json { Format::Json } else { Format::Table },
            view: ViewArgs::plain(),
            read: self.read,
            roots: RootArgs::default(),
        };
        (common, MovesConfig { options: crate::query::moves::MovesOptions { ignore: self.ignore }, format })
    }
}

#[derive(Debug, Args)]
#[command(mut_arg("format", |a| a.value_parser(formats(Offer::Show))))]
pub struct ShowArgs {
    #[command(flatten)]
    pub common: CommonArgs,

    #[command(flatten)]
    pub filter: FilterArgs,

    /// Also show changes whose action is no-op.
    #[arg(long)]
    pub all: bool,

    /// Also show unchanged attributes, elements and lines (hidden and counted by default).
    #[arg(long)]
    pub full: bool,

    /// Markdown only: keep the output within N bytes (at least 1000; GitHub's
    /// comment limit by default); changes that do not fit are left out and counted.
    #[arg(long, value_name = "N", default_value_t = crate::render::fit::DEFAULT_MAX_BYTES, value_parser = parse_max_bytes)]
    pub max_bytes: usize,

    /// The provider schemas (`terraform providers schema -json` saved to FILE):
    /// nested blocks, sets, maps and write-only attributes shown as the CLI shows
    /// them. Without it, a saved plan given with --chdir has them fetched there.
    #[arg(long, value_name = "FILE")]
    pub schemas: Option<PathBuf>,
    #[command(flatten)]
    pub locations: NoLocationArgs,
}

/// How the commands that print tables show their output: colour, secrets, width
/// (one declaration, flattened where they are taken).
#[derive(Debug, Args)]
pub struct ViewArgs {
    /// When to colour the table output (`auto`: if stdout is a terminal and NO_COLOR is unset).
    #[arg(long, value_enum, default_value_t = ColorArg::Auto, value_name = "WHEN")]
    pub color: ColorArg,

    /// Print values marked sensitive instead of masking them.
    #[arg(long)]
    pub show_sensitive: bool,

    /// Fit tables to N columns, wrapping long cells (0: no limit). By default the
    /// terminal's width when stdout is a terminal, else COLUMNS when set, else no
    /// limit. Markdown and JSON are never fitted.
    #[arg(long, value_name = "N")]
    pub width: Option<u16>,
}

impl ViewArgs {
    /// No colour, secrets masked, no width: for the commands that take none of these flags.
    pub(crate) fn plain() -> Self {
        ViewArgs { color: ColorArg::Never, show_sensitive: false, width: None }
    }
}

/// Options every command that reads documents shares.
#[derive(Debug, Args)]
pub struct CommonArgs {
    /// Plan or state JSON files, or directories of them (`-` for stdin; stdin when none is given and it is piped).
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,

    /// Output format.
    #[arg(long, short = 'f', value_parser = formats(Offer::Question), default_value = "table")]
    pub format: Format,

    #[command(flatten)]
    pub view: ViewArgs,

    #[command(flatten)]
    pub read: ReadArgs,

    #[command(flatten)]
    pub roots: RootArgs,
}

/// How directories given as inputs are searched for plans (commands that read several).
#[derive(Debug, Args, Default, Clone)]
pub struct RootArgs {
    /// In a directory given as FILE, take files whose name (or path below the
    /// directory, when PATTERN holds `/`) matches PATTERN for saved plans,
    /// instead of `tfplan`, `*.tfplan` and `plan.out` (`*` any text, `?` one
    /// character; repeatable).
    #[arg(long, value_name = "PATTERN")]
    pub plan_glob: Vec<String>,
}

impl RootArgs {
    pub fn to_options(&self) -> crate::read::FindOptions {
        crate::read::FindOptions { plan_globs: self.plan_glob.clone(), ..Default::default() }
    }
}

/// How inputs are read (every command that reads documents): saved binary
/// plans, and `--lenient`.
#[derive(Debug, Args, Default)]
pub struct ReadArgs {
    /// Binary that runs `show -json` on a saved binary plan (else the environment
    /// variable PLANVIEW_TF_BIN; else `tofu`, then `terraform`, from PATH).
    #[arg(long, value_name = "PATH")]
    pub tf_bin: Option<PathBuf>,

    /// Working directory for `show -json` on a saved plan (where `init` was run).
    #[arg(long, value_name = "DIR")]
    pub chdir: Option<PathBuf>,

    /// Skip text a CI wrapper printed before the JSON (and a trailer after it,
    /// unless a line of it starts another document), saying so on stderr.
    /// Without it such input is refused (exit 2).
    #[arg(long)]
    pub lenient: bool,
}

impl ReadArgs {
    /// `--tf-bin` wins over PLANVIEW_TF_BIN.
    pub fn to_options(&self, env: &Env) -> ReadOptions {
        ReadOptions {
            tf_bin: self.tf_bin.clone().or_else(|| env.tf_bin.clone()),
            chdir: self.chdir.clone(),
            lenient: self.lenient,
            ..Default::default()
        }
    }
}

/// The common filters (`--address`, `--type`, `--module`, `--action`), for
/// commands that list resources. Flatten into a command's args and turn into a
/// [`crate::filter::Filter`] with [`FilterArgs::to_filter`].
#[derive(Debug, Args, Default)]
pub struct FilterArgs {
    /// Only addresses matching GLOB (`*` any text, `?` one character, `[*]` any index;
    /// a pattern also matches everything below it: `module.net`, `aws_instance.web`).
    /// Repeatable. Examples: `module.net.*`, `aws_instance.web[*]`.
    #[arg(long = "address", value_name = "GLOB")]
    pub address: Vec<String>,

    /// Only resources of this type (repeatable), e.g. `aws_instance`.
    #[arg(long = "type", value_name = "TYPE")]
    pub type_: Vec<String>,

    /// Only resources in this module or below it (glob; `root` for the root module; repeatable).
    #[arg(long = "module", value_name = "MODULE")]
    pub module: Vec<String>,

    /// Only changes with this action (repeatable): create, update, delete, replace,
    /// read, no-op, forget, move (has a previous address), import (imports).
    #[arg(long = "action", value_name = "ACTION", value_parser = clap::builder::PossibleValuesParser::new(crate::filter::ACTIONS))]
    pub action: Vec<String>,
}

impl FilterArgs {
    pub fn to_filter(&self) -> crate::filter::Filter {
        use crate::glob::Glob;
        crate::filter::Filter {
            addresses: self.address.iter().map(|a| Glob::new(a)).collect(),
            types: self.type_.clone(),
            modules: self.module.iter().map(|m| Glob::new(m)).collect(),
            actions: self.action.clone(),
        }
    }
}

/// `summary` takes the common options, with one more format (`gitlab`).
#[derive(Debug, Args)]
pub struct SummaryArgs {
    /// Plan or state JSON files, or directories of them (`-` for stdin; stdin when none is given and it is piped).
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,

    /// Output format: `gitlab` writes GitLab's `artifacts:reports:terraform` file
    /// (`{"create": N, "update": N, "delete": N}`, summed over the inputs).
    #[arg(long, short = 'f', value_parser = formats(Offer::Summary), default_value = "table")]
    pub format: Format,

    #[command(flatten)]
    pub view: ViewArgs,

    #[command(flatten)]
    pub read: ReadArgs,

    #[command(flatten)]
    pub roots: RootArgs,

    /// Cap on markdown output in bytes (a PR comment); rows are left out to fit, and the output says so.
    #[arg(long, value_name = "N", default_value_t = crate::render::fit::DEFAULT_MAX_BYTES, value_parser = parse_max_bytes)]
    pub max_bytes: usize,

    /// With several roots, leave those without changes out of the table of
    /// roots (and say how many).
    #[arg(long)]
    pub skip_unchanged: bool,

    /// An in-place update whose only changed attributes match PATH is noise:
    /// counted apart and one line in the table and markdown, marked `"noise":
    /// true` in JSON (repeatable; globs like `tags`, `tags_all`, `metadata.annotations.*`).
    #[arg(long, value_name = "PATH")]
    pub ignore_attr: Vec<String>,
    #[command(flatten)]
    pub locations: NoLocationArgs,
}

/// The policy flags, shared by `gate` and `comment` (one declaration, one reading).
#[derive(Debug, Args)]
pub struct PolicyArgs {
    /// Deny every change that does ACTION (repeatable): create, update, delete (a
    /// replace and a deposed object's destruction are deletes), replace, forget,
    /// import, move, invoke (a Terraform 1.14 action invocation), any. `--deny
    /// delete` or `--deny any` replaces the default rule.
    #[arg(long, value_name = "ACTION", value_parser = clap::builder::PossibleValuesParser::new(crate::query::gate::GateAction::NAMES))]
    pub deny: Vec<String>,

    /// Allow at most N changes that do ACTION per plan (repeatable), e.g. `--max replace=2`.
    /// `--max delete=N` replaces the default rule.
    #[arg(long, value_name = "ACTION=N", value_parser = parse_max)]
    pub max: Vec<(crate::query::gate::GateAction, u64)>,

    /// Addresses matching GLOB may not be destroyed or replaced, whatever else is
    /// allowed (repeatable; `*` any text, `[*]` any index, a prefix covers what is below it).
    #[arg(long, value_name = "GLOB")]
    pub protect: Vec<String>,

    /// Addresses matching GLOB may be destroyed or replaced: exempt from the default
    /// rule and from --deny/--max on delete and replace, never from --protect,
    /// --protect-type or other rules (repeatable).
    #[arg(long, value_name = "GLOB")]
    pub allow: Vec<String>,

    /// Resources of TYPE may not be destroyed or replaced (repeatable; `*` allowed, e.g. `aws_db_*`).
    #[arg(long, value_name = "TYPE")]
    pub protect_type: Vec<String>,

    /// Failed or errored checks (conditions, check blocks, validations) fail the gate.
    #[arg(long)]
    pub fail_on_checks: bool,

    /// Let an errored plan pass (by default an errored plan fails the gate).
    #[arg(long)]
    pub allow_errored: bool,

    /// Let an incomplete plan pass (`-target`, changes deferred to a later plan;
    /// by default it fails the gate).
    #[arg(long)]
    pub allow_incomplete: bool,

    /// Drift (`resource_drift`) does not fail the gate (the default; overrides a policy file).
    #[arg(long, conflicts_with = "deny_drift")]
    pub allow_drift: bool,

    /// Any drift (`resource_drift`) fails the gate.
    #[arg(long)]
    pub deny_drift: bool,

    /// The plan must do what the reviewed plan did: its fingerprint (`planview
    /// fingerprint`) must be this one (rule `fingerprint`). The default rule
    /// (`deny delete`) is then off: the question is whether this is the reviewed
    /// plan (rules given explicitly still apply).
    #[arg(long, value_name = "SHA256", value_parser = parse_fingerprint)]
    pub expect_fingerprint: Option<String>,

    /// No action may be invoked by a lifecycle trigger with this on_failure
    /// (repeatable): halt, taint or continue, optionally @create, @update,
    /// @destroy or @EVENT (BeforeDestroy, ...), e.g. `continue@destroy`. A
    /// lifecycle invocation without on_failure (before Terraform 1.16) fails it.
    #[arg(long, value_name = "MODE[@EVENT]", value_parser = parse_on_failure)]
    pub deny_on_failure: Vec<crate::query::gate::OnFailureRule>,

    /// An in-place update whose only changed attributes match PATH is noise:
    /// counted apart, never judged as an update (`--deny update`, `--max
    /// update`), one line in the report (repeatable; globs like `tags`,
    /// `tags_all`, `metadata.annotations.*`).
    #[arg(long, value_name = "PATH")]
    pub ignore_attr: Vec<String>,

    /// A JSON policy file (schema: schemas/gate-policy.schema.json), or a Rego
    /// file or directory of them (`.rego`, recursively, `_test.rego` skipped;
    /// conftest's conventions, docs/policy.md); repeatable, rules add up.
    #[arg(long, value_name = "PATH")]
    pub policy: Vec<std::path::PathBuf>,

    /// A change that does ACTION is a warning (shown, does not fail the gate) (repeatable).
    #[arg(long, value_name = "ACTION", value_parser = clap::builder::PossibleValuesParser::new(crate::query::gate::GateAction::NAMES))]
    pub warn: Vec<String>,

    /// More than N changes that do ACTION is a warning (repeatable), e.g. `--warn-max update=50`.
    #[arg(long, value_name = "ACTION=N", value_parser = parse_max)]
    pub warn_max: Vec<(crate::query::gate::GateAction, u64)>,

    /// Warnings (`--warn`, `--warn-max`, Rego `warn` rules) fail the gate too.
    #[arg(long)]
    pub fail_on_warn: bool,

    /// Rego packages to query (repeatable; globs like `terraform.*`); `main` by default.
    #[arg(long, short = 'n', value_name = "NS")]
    pub namespace: Vec<String>,

    /// Query every Rego package loaded.
    #[arg(long, conflicts_with = "namespace")]
    pub all_namespaces: bool,

    /// A JSON or YAML data document, or a directory of them, for the Rego
    /// policies (under `data.`; repeatable).
    #[arg(long, value_name = "PATH")]
    pub data: Vec<std::path::PathBuf>,

    /// The Rego syntax of the policies: v1 (`if`, `contains`; the default) or v0.
    #[arg(long, value_name = "VERSION", value_parser = ["v0", "v1"], default_value = "v1")]
    pub rego_version: String,

    /// Stop a Rego evaluation that runs longer than SECONDS on one plan (exit 2).
    #[arg(long, value_name = "SECONDS", default_value_t = crate::rego::DEFAULT_TIMEOUT.as_secs(), value_parser = clap::value_parser!(u64).range(1..))]
    pub rego_timeout: u64,
}

/// True when `--policy PATH` names Rego (a `.rego` file or a directory), not a JSON policy file.
pub fn is_rego_path(path: &std::path::Path) -> bool {
    path.is_dir() || path.extension().is_some_and(|e| e == "rego")
}

impl PolicyArgs {
    /// The rules the flags give (a `--policy` file is added when it is read).
    pub fn to_policy(&self) -> Result<crate::query::gate::Policy, String> {
        use crate::glob::Glob;
        use crate::query::gate::{DriftPolicy, GateAction, Policy};
        Ok(Policy {
            // The parser accepted only known names; anything else fails closed.
            deny: self
                .deny
                .iter()
                .map(|d| GateAction::parse(d).ok_or_else(|| format!("unknown action `{d}`")))
                .collect::<Result<_, _>>()?,
            max: self.max.clone(),
            protect: self.protect.iter().map(|g| Glob::new(g)).collect(),
            allow: self.allow.iter().map(|g| Glob::new(g)).collect(),
            protect_types: self.protect_type.iter().map(|g| Glob::new(g)).collect(),
            fail_on_checks: self.fail_on_checks,
            allow_errored: self.allow_errored,
            allow_incomplete: self.allow_incomplete,
            drift: if self.deny_drift {
                Some(DriftPolicy::Deny)
            } else if self.allow_drift {
                Some(DriftPolicy::Allow)
            } else {
                None
            },
            expect_fingerprint: self.expect_fingerprint.clone(),
            warn: self
                .warn
                .iter()
                .map(|d| GateAction::parse(d).ok_or_else(|| format!("unknown action `{d}`")))
                .collect::<Result<_, _>>()?,
            warn_max: self.warn_max.clone(),
            fail_on_warn: self.fail_on_warn,
            rego_paths: self.policy.iter().filter(|p| is_rego_path(p)).cloned().collect(),
            rego_options: crate::rego::RegoOptions {
                namespaces: self.namespace.clone(),
                all_namespaces: self.all_namespaces,
                data: self.data.clone(),
                v0: self.rego_version == "v0",
                timeout: std::time::Duration::from_secs(self.rego_timeout),
            },
            rego: None,
            deny_on_failure: self.deny_on_failure.clone(),
            ignore_attributes: self.ignore_attr.clone(),
            max_blast: None,
            dependents: false,
            locals: None,
        })
    }

    /// The JSON policy files among `--policy` (the others are Rego).
    pub fn policy_files(&self) -> Vec<std::path::PathBuf> {
        self.policy.iter().filter(|p| !is_rego_path(p)).cloned().collect()
    }
}

fn parse_on_failure(s: &str) -> Result<crate::query::gate::OnFailureRule, String> {
    crate::query::gate::OnFailureRule::parse(s)
}

/// `planview gate`: inputs, output, and the policy flags.
#[derive(Debug, Args)]
pub struct GateArgs {
    /// Plan JSON files, or directories of them (`-` for stdin; stdin when none is given and it is piped).
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,

    #[command(flatten)]
    pub read: ReadArgs,

    #[command(flatten)]
    pub roots: RootArgs,

    /// With several roots, leave those without changes out of the table of
    /// roots (and say how many).
    #[arg(long)]
    pub skip_unchanged: bool,

    /// Output format: `github` prints workflow commands (annotations), `junit` JUnit XML,
    /// `sarif` SARIF 2.1.0 (code scanning), `gitlab-codequality` GitLab's Code Quality report.
    #[arg(long, short = 'f', value_parser = formats(Offer::Gate), default_value = "table")]
    pub format: Format,

    #[command(flatten)]
    pub view: ViewArgs,

    #[command(flatten)]
    pub rules: PolicyArgs,

    /// Cap on markdown output in bytes (a PR comment); rows are left out to fit, and the output says so.
    #[arg(long, value_name = "N", default_value_t = crate::render::fit::DEFAULT_MAX_BYTES, value_parser = parse_max_bytes)]
    pub max_bytes: usize,

    /// Run the Rego policies' `test_` rules (`*_test.rego` included), as
    /// `conftest verify` / `opa test` do, instead of judging plans: exit 0 when
    /// every test passes, 1 when one fails, 2 when one cannot be evaluated.
    #[arg(long)]
    pub verify: bool,
    #[command(flatten)]
    pub locations: LocationArgs,
}

/// `--max ACTION=N`.
fn parse_max(s: &str) -> Result<(crate::query::gate::GateAction, u64), String> {
    use crate::query::gate::GateAction;
    let names = GateAction::NAMES.join(", ");
    let (a, n) = s.split_once('=').ok_or_else(|| format!("expected ACTION=N (e.g. replace=2), got `{s}`"))?;
    let action = GateAction::parse(a.trim()).ok_or_else(|| format!("unknown action `{a}`; one of: {names}"))?;
    let n = n.trim().parse::<u64>().map_err(|_| format!("`{n}` is not a count (a whole number, 0 or more)"))?;
    Ok((action, n))
}

/// `--max-bytes N`, the one cap on markdown of `summary`, `gate`, `show` and
/// `comment`: at least [`crate::render::fit::MIN_MAX_BYTES`].
pub(crate) fn parse_max_bytes(s: &str) -> Result<usize, String> {
    let min = crate::render::fit::MIN_MAX_BYTES;
    match s.parse::<usize>() {
        Ok(n) if n >= min => Ok(n),
        _ => Err(format!("expected a number of bytes, at least {min}")),
    }
}

#[derive(Debug, Args)]
pub struct DriftArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    #[command(flatten)]
    pub filters: FilterArgs,
    /// Show every drifted object and every changed attribute, not only what is relevant to this plan.
    #[arg(long)]
    pub all: bool,
    #[command(flatten)]
    pub locations: NoLocationArgs,
}

#[derive(Debug, Args)]
pub struct ReplaceArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    #[command(flatten)]
    pub filters: FilterArgs,
    #[command(flatten)]
    pub locations: NoLocationArgs,
}

/// `--action` is refused here (checks are not changes), so it is hidden from the help.
#[derive(Debug, Args)]
#[command(mut_arg("action", |a| a.hide(true)))]
#[command(mut_arg("format", |a| a.value_parser(formats(Offer::Checks)).help(CHECKS_FORMAT_HELP)))]
pub struct ChecksArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    #[command(flatten)]
    pub filters: FilterArgs,
    #[command(flatten)]
    pub locations: LocationArgs,
    /// List checks that passed or are unknown too, not only failures.
    #[arg(long)]
    pub all: bool,
    /// Report only: exit 0 even when a check failed or errored.
    #[arg(long)]
    pub no_fail: bool,
}

#[derive(Debug, Args)]
pub struct OutputsArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    #[command(flatten)]
    pub locations: NoLocationArgs,
}

/// `--action` is refused here (state resources are not changes), so it is hidden from the help.
#[derive(Debug, Args)]
#[command(mut_arg("action", |a| a.hide(true)))]
pub struct StateArgs {
    #[command(flatten)]
    pub common: CommonArgs,
    #[command(flatten)]
    pub filters: FilterArgs,
    /// For a plan: list its prior state (the state it was planned against).
    #[arg(long)]
    pub prior: bool,
}

/// A `--format` parser into the one [`Format`] enum, accepting the formats of
/// `offer`'s row of the matrix ([`Offer::formats`]) only (and listing only those in the help).
fn formats(offer: Offer) -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::{PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(offer.formats().iter().filter_map(ValueEnum::to_possible_value))
        .map(|name| Format::from_str(&name, false).unwrap_or_default())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    Auto,
    Always,
    Never,
}

/// A shell to print completions for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Shell {
    Bash,
    Zsh,
    Fish,
    #[value(name = "powershell")]
    PowerShell,
}

/// The width tables are fitted to: `--width` (0: no limit), else the
/// terminal's when stdout is a terminal, else COLUMNS, else no limit.
pub fn decide_width(arg: Option<u16>, env: &Env) -> Option<usize> {
    match arg {
        Some(0) => None,
        Some(n) => Some(usize::from(n)),
        None if env.stdout_is_terminal && env.terminal_width.is_some() => env.terminal_width,
        None => env.columns,
    }
}

/// Colour decided once: `--color`, then NO_COLOR, then whether stdout is a terminal.
pub fn decide_color(arg: ColorArg, env: &Env) -> bool {
    match arg {
        ColorArg::Always => true,
        ColorArg::Never => false,
        ColorArg::Auto => !env.no_color && env.stdout_is_terminal,
    }
}

/// The inputs of a command that reads documents (stdin when none is given and it is piped).
pub fn inputs_of(files: &[String], env: &Env, command: &str) -> Result<Vec<Source>, String> {
    inputs(files, env, command)
}

fn inputs(files: &[String], env: &Env, command: &str) -> Result<Vec<Source>, String> {
    let inputs: Vec<Source> = if files.is_empty() {
        if env.stdin_is_terminal {
            return Err(format!(
                "no input: give a plan or state JSON file, or pipe one in (e.g. `tofu show -json plan.out | planview {command}`)"
            ));
        }
        vec![Source::Stdin]
    } else {
        files.iter().map(|f| Source::from_arg(f)).collect()
    };
    if inputs.iter().filter(|s| **s == Source::Stdin).count() > 1 {
        return Err("`-` (stdin) can be given only once".into());
    }
    Ok(inputs)
}

impl Cli {
    pub fn into_config(self, env: &Env) -> Result<Config, String> {
        let progress = crate::progress::wanted(self.quiet, env.stderr_is_terminal, env.ci);
        self.command_config(env).map(|c| Config { progress, forge: env.forge.clone(), ..c })
    }

    fn command_config(self, env: &Env) -> Result<Config, String> {
        let bare = |command| Config {
            command,
            inputs: Vec::new(),
            format: Format::Table,
            color: false,
            show_sensitive: false,
            width: None,
            filter: crate::filter::Filter::default(),
            max_bytes: crate::render::fit::DEFAULT_MAX_BYTES,
            read: ReadOptions { tf_bin: env.tf_bin.clone(), ..Default::default() },
            progress: false,
            find: crate::read::FindOptions::default(),
            locations: Locations::Off,
            forge: None,
        };
        let none = FilterArgs::default();
        let default_max = crate::render::fit::DEFAULT_MAX_BYTES;
        let mut locations = Locations::Off;
        let (kind, name, common, filters, max_bytes) = match self.command {
            Command::Summary(a) => {
                locations = a.locations.decide_listing(a.format);
                let common = CommonArgs { files: a.files, format: a.format, view: a.view, read: a.read, roots: a.roots };
                (
                    CommandKind::Summary { skip_unchanged: a.skip_unchanged, ignore_attr: a.ignore_attr },
                    "summary",
                    common,
                    none,
                    a.max_bytes,
                )
            }
            Command::Drift(a) => {
                locations = a.locations.decide(a.common.format);
                (CommandKind::Drift { all: a.all }, "drift", a.common, a.filters, default_max)
            }
            Command::Replace(a) => {
                locations = a.locations.decide(a.common.format);
                (CommandKind::Replace, "replace", a.common, a.filters, default_max)
            }
            Command::Checks(a) => {
                locations = a.locations.decide(a.common.format);
                (CommandKind::Checks { all: a.all, no_fail: a.no_fail }, "checks", a.common, a.filters, default_max)
            }
            Command::Outputs(a) => {
                locations = a.locations.decide(a.common.format);
                (CommandKind::Outputs, "outputs", a.common, none, default_max)
            }
            Command::State(a) => (CommandKind::State { prior: a.prior }, "state", a.common, a.filters, default_max),
            Command::Show(a) => {
                locations = a.locations.decide_listing(a.common.format);
                let options = crate::query::show::ShowOptions {
                    filter: a.filter.to_filter(),
                    all: a.all,
                    full: a.full,
                    schemas_file: a.schemas,
                    schemas: None,
                };
                let max_bytes = a.max_bytes;
                (CommandKind::Show(ShowConfig { options, max_bytes }), "show", a.common, none, max_bytes)
            }
            Command::Gate(a) => return gate_config(a, env, bare(CommandKind::Replace)),
            Command::Comment(a) => return comment_config(a, env, bare(CommandKind::Replace)),
            Command::Completions { shell } => {
                let mut script = Vec::new();
                write_completions(shell, &mut script);
                return Ok(bare(CommandKind::Text(script)));
            }
            Command::Man { command } => {
                if let Some(c) = &command {
                    use clap::CommandFactory;
                    if Cli::command().find_subcommand(c).is_none() {
                        return Err(format!("no command `{c}`: see `planview --help`"));
                    }
                }
                let mut page = Vec::new();
                write_man(command.as_deref(), &mut page).map_err(|e| format!("cannot write the man page: {e}"))?;
                return Ok(bare(CommandKind::Text(page)));
            }
            Command::Moves(a) => {
                let (common, m) = a.split();
                (CommandKind::Moves(m), "moves", common, none, default_max)
            }
            Command::Diff(a) => {
                locations = a.locations.decide(a.format);
                let common = CommonArgs {
                    files: vec![a.old, a.new],
                    format: a.format,
                    view: ViewArgs { color: a.color, ..ViewArgs::plain() },
                    read: a.read,
                    roots: RootArgs::default(),
                };
                (CommandKind::Diff, "diff", common, none, default_max)
            }
            Command::Fingerprint(a) => {
                let common = CommonArgs {
                    files: a.file.into_iter().collect(),
                    format: Format::Table,
                    view: ViewArgs::plain(),
                    read: a.read,
                    roots: RootArgs::default(),
                };
                (CommandKind::Fingerprint(a.format), "fingerprint", common, none, default_max)
            }
        };
        if !filters.action.is_empty() && matches!(kind, CommandKind::Checks { .. } | CommandKind::State { .. }) {
            return Err(
                "--action applies to changes; `checks` and `state` list objects, not changes (use --address, --type or --module)".into()
            );
        }
        let find = crate::read::FindOptions { prefer: prefer_of(&kind), ..common.roots.to_options() };
        Ok(Config {
            command: kind,
            inputs: inputs(&common.files, env, name)?,
            format: common.format,
            color: decide_color(common.view.color, env) && common.format == Format::Table,
            show_sensitive: common.view.show_sensitive,
            width: decide_width(common.view.width, env),
            filter: filters.to_filter(),
            read: common.read.to_options(env),
            max_bytes,
            progress: false,
            find,
            locations,
            forge: None,
        })
    }
}

/// Which documents of a directory of roots a command reads (one directory =
/// one root, [`crate::read::tree`]): the commands that read plans only leave states out.
fn prefer_of(kind: &CommandKind) -> crate::read::Prefer {
    use crate::read::Prefer;
    match kind {
        CommandKind::State { prior: false } => Prefer::StatesOnly,
        CommandKind::Summary { .. } | CommandKind::Checks { .. } | CommandKind::Outputs => Prefer::Plans,
        _ => Prefer::PlansOnly,
    }
}

fn gate_config(a: GateArgs, env: &Env, bare: Config) -> Result<Config, String> {
    let policy = a.rules.to_policy()?;
    Ok(Config {
        command: CommandKind::Gate(Box::new(GateOptions {
            policy,
            policy_files: a.rules.policy_files(),
            skip_unchanged: a.skip_unchanged,
            verify: a.verify,
        })),
        inputs: if a.verify { Vec::new() } else { inputs(&a.files, env, "gate")? },
        format: a.format,
        color: decide_color(a.view.color, env) && a.format == Format::Table,
        show_sensitive: a.view.show_sensitive,
        width: decide_width(a.view.width, env),
        max_bytes: a.max_bytes,
        read: a.read.to_options(env),
        find: crate::read::FindOptions { prefer: crate::read::Prefer::PlansOnly, ..a.roots.to_options() },
        locations: a.locations.decide(a.format),
        ..bare
    })
}

/// The config of `comment` (`bare` holds the defaults).
fn comment_config(a: CommentArgs, env: &Env, bare: Config) -> Result<Config, String> {
    // The comment says what each destructive change drags along.
    let policy = crate::query::gate::Policy { dependents: true, ..a.rules.to_policy()? };
    let common =
        CommonArgs { files: a.files, format: crate::render::Format::Markdown, view: ViewArgs::plain(), read: a.read, roots: a.roots };
    let inputs = inputs_of(&common.files, env, "comment")?;
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
        forge: env.forge.clone(),
        schemas_file: a.schemas,
        html: non_empty(&a.html),
    };
    Ok(Config {
        inputs,
        format: crate::render::Format::Markdown,
        read: common.read.to_options(env),
        max_bytes: options.max_bytes,
        find: crate::read::FindOptions { prefer: crate::read::Prefer::PlansOnly, ..common.roots.to_options() },
        command: CommandKind::Comment(Box::new(options)),
        // The comment links each change to its lines: read by default, quietly.
        locations: if a.locations.no_locations { Locations::Off } else { Locations::Quiet },
        ..bare
    })
}

/// Write the completion script for `shell`, generated from the clap definitions.
pub(crate) fn write_completions(shell: Shell, w: &mut dyn std::io::Write) {
    use clap::CommandFactory;
    use clap_complete::Shell as S;
    let s = match shell {
        Shell::Bash => S::Bash,
        Shell::Zsh => S::Zsh,
        Shell::Fish => S::Fish,
        Shell::PowerShell => S::PowerShell,
    };
    clap_complete::generate(s, &mut Cli::command(), "planview", w);
}

/// Write the man page (roff) of planview, or of one of its commands.
pub(crate) fn write_man(command: Option<&str>, w: &mut dyn std::io::Write) -> std::io::Result<()> {
    use clap::CommandFactory;
    let root = Cli::command();
    let cmd = match command.and_then(|c| root.find_subcommand(c)) {
        Some(sub) => {
            let name = format!("planview-{}", sub.get_name());
            sub.clone().name(name).version(env!("CARGO_PKG_VERSION"))
        }
        None => root,
    };
    clap_mangen::Man::new(cmd).render(w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, Parser};

    #[test]
    fn colour_flag_then_no_color_then_tty() {
        let tty = Env { stdout_is_terminal: true, ..Default::default() };
        let tty_nc = Env { stdout_is_terminal: true, no_color: true, ..Default::default() };
        assert!(decide_color(ColorArg::Auto, &tty));
        assert!(!decide_color(ColorArg::Auto, &tty_nc));
        assert!(decide_color(ColorArg::Always, &tty_nc));
        assert!(!decide_color(ColorArg::Never, &tty));
        assert!(!decide_color(ColorArg::Auto, &Env::default()));
    }

    #[test]
    fn width_flag_then_terminal_then_columns() {
        let tty = Env { stdout_is_terminal: true, terminal_width: Some(100), columns: Some(70), ..Default::default() };
        let pipe = Env { terminal_width: Some(100), columns: Some(70), ..Default::default() };
        assert_eq!(decide_width(Some(80), &tty), Some(80));
        assert_eq!(decide_width(Some(0), &tty), None, "0: no limit");
        assert_eq!(decide_width(None, &tty), Some(100));
        assert_eq!(decide_width(None, &pipe), Some(70));
        assert_eq!(decide_width(None, &Env { stdout_is_terminal: true, columns: Some(70), ..Default::default() }), Some(70));
        assert_eq!(decide_width(None, &Env::default()), None);
        let cfg = |args: &[&str]| Cli::parse_from(args).into_config(&pipe).unwrap().width;
        assert_eq!(cfg(&["planview", "gate", "--width", "90", "p.json"]), Some(90));
        assert_eq!(cfg(&["planview", "state", "p.json"]), Some(70));
    }

    #[test]
    fn progress_on_a_terminal_stderr_outside_ci_without_quiet() {
        let tty = Env { stderr_is_terminal: true, ..Default::default() };
        let cfg = |args: &[&str], env: &Env| Cli::parse_from(args).into_config(env).unwrap().progress;
        assert!(cfg(&["planview", "summary", "p.json"], &tty));
        assert!(cfg(&["planview", "gate", "p.json"], &tty));
        assert!(!cfg(&["planview", "summary", "--quiet", "p.json"], &tty));
        assert!(!cfg(&["planview", "-q", "show", "p.json"], &tty), "--quiet is global");
        assert!(!cfg(&["planview", "summary", "p.json"], &Env::default()), "stderr a pipe");
        assert!(!cfg(&["planview", "summary", "p.json"], &Env { ci: true, ..tty }));
    }

    #[test]
    fn terminal_stdin_without_files_is_a_usage_error() {
        let cli = Cli::parse_from(["planview", "summary"]);
        let env = Env { stdin_is_terminal: true, ..Default::default() };
        assert!(cli.into_config(&env).unwrap_err().contains("no input"));
        let cli = Cli::parse_from(["planview", "summary"]);
        assert_eq!(cli.into_config(&Env::default()).unwrap().inputs, vec![Source::Stdin]);
    }

    #[test]
    fn tf_bin_flag_wins_over_the_environment() {
        let env = Env { tf_bin: Some("/env/tofu".into()), ..Default::default() };
        let c = Cli::parse_from(["planview", "summary", "p.json"]).into_config(&env).unwrap();
        assert_eq!(c.read.tf_bin, Some(PathBuf::from("/env/tofu")));
        let c = Cli::parse_from(["planview", "moves", "--tf-bin", "/flag/terraform", "--chdir", "d", "p.out"]).into_config(&env).unwrap();
        assert_eq!(c.read, ReadOptions { tf_bin: Some("/flag/terraform".into()), chdir: Some("d".into()), ..Default::default() });
        assert!(Cli::parse_from(["planview", "gate", "--lenient", "p.json"]).into_config(&env).unwrap().read.lenient);
        assert!(matches!(c.command, CommandKind::Moves(_)));
    }

    #[test]
    fn question_flags_reach_the_config() {
        let cfg = |args: &[&str]| Cli::parse_from(args).into_config(&Env::default());
        let c = cfg(&["planview", "checks", "--all", "--no-fail", "--address", "module.a.*", "x.json"]).unwrap();
        assert!(matches!(c.command, CommandKind::Checks { all: true, no_fail: true }), "{:?}", c.command);
        assert!(c.filter.address_ok("module.a.t.n") && !c.filter.address_ok("t.n"));
        let c = cfg(&["planview", "state", "--prior", "--type", "t", "x.json"]).unwrap();
        assert!(matches!(c.command, CommandKind::State { prior: true }) && c.filter.type_ok("t") && !c.filter.type_ok("u"));
        assert!(cfg(&["planview", "state", "--action", "create", "x.json"]).unwrap_err().contains("--action"));
        assert!(cfg(&["planview", "drift", "--action", "delete", "x.json"]).is_ok());
        assert!(Cli::try_parse_from(["planview", "outputs", "--type", "t", "x.json"]).is_err(), "outputs has no resource filters");
    }

    #[test]
    fn clap_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    // `comment`'s config (from the former comment.rs).

    /// The `comment` options of a config (a config of another command is a test bug).
    fn comment_options(c: Config) -> CommentOptions {
        match c.command {
            CommandKind::Comment(o) => *o,
            other => panic!("not comment: {other:?}"),
        }
    }

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
        assert_eq!(env::checkout_root(|_| None, Some(&root.join("prod"))), Some(root.clone()));
        let ws = |k: &str| (k == "CI_PROJECT_DIR").then(|| root.join("prod").into_os_string());
        assert_eq!(env::checkout_root(ws, Some(&root)), Some(root.join("prod")));
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
