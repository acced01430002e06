//! Command-line definitions (clap types stay here) and their conversion into a
//! plain [`Config`], once.

use crate::input::Source;
use crate::render::Format;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::IsTerminal;

const EXIT_CODES: &str = "\
Exit codes:
  0  success (also when the reader of the output goes away, e.g. `| head`)
  1  a gate or check failed (reserved for `gate` and `checks`)
  2  usage error, unreadable or invalid input, unsupported format_version";

const EXAMPLES: &str = "\
Examples:
  planview summary plan.json
  tofu show -json plan.out | planview summary
  planview summary --format json plan.json | jq .totals
  planview summary --format markdown */plan.json > comment.md";

/// Answers what a Terraform/OpenTofu plan or state (from `show -json`) will do.
#[derive(Debug, Parser)]
#[command(name = "planview", version, about, after_help = EXIT_CODES, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// What a plan will do, counted as the CLI counts it; or what a state holds.
    #[command(after_help = format!("{EXAMPLES}\n\n{EXIT_CODES}"))]
    Summary(SummaryArgs),
    /// The attribute-level changes of each resource and output, as a structural diff.
    #[command(after_help = format!("{SHOW_EXAMPLES}\n\n{EXIT_CODES}"))]
    Show(ShowArgs),
}

const SHOW_EXAMPLES: &str = "\
Examples:
  planview show plan.json
  planview show --address 'module.net.*' --action replace plan.json
  planview show --format markdown plan.json > comment.md
  planview show --format json plan.json | jq '.resources[].changes[].path_text'";

#[derive(Debug, Args)]
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
    #[arg(long, value_name = "N", default_value_t = crate::render::show::MARKDOWN_CAP as u64,
          value_parser = clap::value_parser!(u64).range(1000..))]
    pub max_bytes: u64,
}

/// Options every command that reads documents shares.
#[derive(Debug, Args)]
pub struct CommonArgs {
    /// Plan or state JSON files (`-` for stdin; stdin when none is given and it is piped).
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,

    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = FormatArg::Table)]
    pub format: FormatArg,

    /// When to colour the table output (`auto`: if stdout is a terminal and NO_COLOR is unset).
    #[arg(long, value_enum, default_value_t = ColorArg::Auto, value_name = "WHEN")]
    pub color: ColorArg,

    /// Print values marked sensitive instead of masking them.
    #[arg(long)]
    pub show_sensitive: bool,
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

#[derive(Debug, Args)]
pub struct SummaryArgs {
    #[command(flatten)]
    pub common: CommonArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    Table,
    Json,
    Markdown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    Auto,
    Always,
    Never,
}

/// What to do, as plain data.
#[derive(Debug, Clone)]
pub struct Config {
    pub command: CommandKind,
    pub inputs: Vec<Source>,
    pub format: Format,
    pub color: bool,
    pub show_sensitive: bool,
    /// Options of `show` (defaults for other commands).
    pub show: ShowConfig,
}

/// `show`'s own options, as plain data.
#[derive(Debug, Clone, Default)]
pub struct ShowConfig {
    pub options: crate::query::show::ShowOptions,
    pub max_bytes: usize,
}

/// The command to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommandKind {
    Summary,
    Show,
}

/// The facts about the process that the config depends on.
#[derive(Debug, Clone, Default)]
pub struct Env {
    pub stdin_is_terminal: bool,
    pub stdout_is_terminal: bool,
    /// NO_COLOR set to a non-empty value.
    pub no_color: bool,
}

impl Env {
    pub fn detect() -> Env {
        Env {
            stdin_is_terminal: std::io::stdin().is_terminal(),
            stdout_is_terminal: std::io::stdout().is_terminal(),
            no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
        }
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

impl Cli {
    pub fn into_config(self, env: &Env) -> Result<Config, String> {
        let (kind, common, show) = match self.command {
            Command::Summary(a) => (CommandKind::Summary, a.common, ShowConfig::default()),
            Command::Show(a) => {
                let options = crate::query::show::ShowOptions { filter: a.filter.to_filter(), all: a.all, full: a.full };
                (CommandKind::Show, a.common, ShowConfig { options, max_bytes: usize::try_from(a.max_bytes).unwrap_or(usize::MAX) })
            }
        };
        let inputs: Vec<Source> = if common.files.is_empty() {
            if env.stdin_is_terminal {
                return Err("no input: give a plan or state JSON file, or pipe one in (e.g. `tofu show -json plan.out | planview summary`)".into());
            }
            vec![Source::Stdin]
        } else {
            common.files.iter().map(|f| Source::from_arg(f)).collect()
        };
        if inputs.iter().filter(|s| **s == Source::Stdin).count() > 1 {
            return Err("`-` (stdin) can be given only once".into());
        }
        Ok(Config {
            command: kind,
            inputs,
            format: match common.format {
                FormatArg::Table => Format::Table,
                FormatArg::Json => Format::Json,
                FormatArg::Markdown => Format::Markdown,
            },
            color: decide_color(common.color, env) && common.format == FormatArg::Table,
            show_sensitive: common.show_sensitive,
            show,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn terminal_stdin_without_files_is_a_usage_error() {
        let cli = Cli::parse_from(["planview", "summary"]);
        let env = Env { stdin_is_terminal: true, ..Default::default() };
        assert!(cli.into_config(&env).unwrap_err().contains("no input"));
        let cli = Cli::parse_from(["planview", "summary"]);
        assert_eq!(cli.into_config(&Env::default()).unwrap().inputs, vec![Source::Stdin]);
    }

    #[test]
    fn clap_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
