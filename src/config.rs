//! What to do, as plain data: the [`Config`] that `cli` makes of the
//! arguments, and the [`CommandKind`] carrying each command's own options.
//! No clap here: the runners ([`crate::run`]) read this, never the arguments.

use crate::read::{ReadOptions, Source};
use crate::render::Format;
use std::path::PathBuf;

/// What `moves` needs besides the common settings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MovesConfig {
    pub options: crate::query::moves::MovesOptions,
    pub format: crate::render::moves::MovesFormat,
}

/// What to do, as plain data.
#[derive(Debug, Clone)]
pub struct Config {
    pub command: CommandKind,
    pub inputs: Vec<Source>,
    pub format: Format,
    pub color: bool,
    pub show_sensitive: bool,
    /// The width terminal tables are fitted to (see [`crate::cli::decide_width`]).
    pub width: Option<usize>,
    /// Cap on markdown output (`--max-bytes`).
    pub max_bytes: usize,
    /// The common filters (empty for commands without them).
    pub filter: crate::filter::Filter,
    /// How to read saved binary plans (every command).
    pub read: ReadOptions,
    /// Draw reading progress on stderr ([`crate::progress::wanted`]): `main`
    /// then hands a [`crate::progress::Progress`] in through `read`.
    pub progress: bool,
    /// How directories given as inputs are searched (`--plan-glob`).
    pub find: crate::read::FindOptions,
    /// Whether the configuration (each root's directory, else `read.chdir`,
    /// else `.`) is read to locate what the run lists.
    pub locations: Locations,
    /// Where markdown links a source location to (the CI's environment says;
    /// [`crate::render::link::Forge::from_env`]).
    pub forge: Option<crate::render::link::Forge>,
}

/// When the configuration is read to say where each change and finding is
/// declared (`--locations`, `--no-locations`; docs/source-locations.md).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Locations {
    /// Not read (`--no-locations`, or an output that shows no location).
    #[default]
    Off,
    /// Read by default (JSON, the PR comment): where there is no
    /// configuration, locations are simply absent, without a note.
    Quiet,
    /// Asked for (`--locations`, or a format that puts findings on source
    /// lines): a directory without configuration is a warning.
    Asked,
}

/// `show`'s own options, as plain data.
#[derive(Debug, Clone, Default)]
pub struct ShowConfig {
    pub options: crate::query::show::ShowOptions,
    pub max_bytes: usize,
}

/// The command to run, with the options only it takes (the ones every
/// command shares are fields of [`Config`]).
#[derive(Debug, Clone)]
pub enum CommandKind {
    Summary {
        /// `--skip-unchanged`: roots without changes left out of the table of roots.
        skip_unchanged: bool,
        /// `--ignore-attr`: updates that only change these attributes are noise.
        ignore_attr: Vec<String>,
    },
    Drift {
        /// `--all`: every drifted object, not only the relevant ones.
        all: bool,
    },
    Replace,
    Checks {
        /// `--all`: checks that passed or are unknown too.
        all: bool,
        /// `--no-fail`: exit 0 even when a check failed.
        no_fail: bool,
    },
    Outputs,
    State {
        /// `--prior`: a plan's prior state.
        prior: bool,
    },
    Show(ShowConfig),
    Moves(MovesConfig),
    Gate(Box<GateOptions>),
    Diff,
    Fingerprint(crate::render::diff::FingerprintFormat),
    Comment(Box<CommentOptions>),
    /// `completions` and `man`: a text the command line made from its own
    /// definition (a shell's completion script, a roff page), printed as it is.
    Text(Vec<u8>),
}

/// `gate`'s own options.
#[derive(Debug, Clone)]
pub struct GateOptions {
    /// The rules given as flags (the policy file, if any, is added when read).
    pub policy: crate::query::gate::Policy,
    pub policy_files: Vec<std::path::PathBuf>,
    /// `--skip-unchanged`: roots without changes left out of the table of roots.
    pub skip_unchanged: bool,
    /// `--verify`: run the Rego policies' tests, judge no plan.
    pub verify: bool,
}

/// `comment`'s own settings, as plain data.
#[derive(Debug, Clone)]
pub struct CommentOptions {
    pub policy: crate::query::gate::Policy,
    pub policy_files: Vec<PathBuf>,
    pub max_bytes: usize,
    /// The marker's ID, as given or made of the input names (made safe when rendered).
    pub id: String,
    pub skip_unchanged: bool,
    pub summary_file: Option<PathBuf>,
    pub outputs_file: Option<PathBuf>,
    /// Where a source location links to on the forge (from the CI's environment).
    pub forge: Option<crate::render::link::Forge>,
    /// `--schemas FILE`: the provider schemas each change's diff is shown with.
    pub schemas_file: Option<PathBuf>,
    /// `--html FILE`: the review as one HTML page too.
    pub html: Option<PathBuf>,
}
