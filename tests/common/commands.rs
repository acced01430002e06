//! The subcommands of the binary as its help describes them: names from
//! `planview --help`, each one's formats and options from `planview CMD -h`,
//! so tests that sweep every command and format cover commands added later.

use super::root;
use std::process::{Command, Output, Stdio};

/// Commands that print help or generated text, not anything from an input.
pub const SKIP: &[&str] = &["help", "completions", "man"];

/// One subcommand as its help describes it.
#[derive(Debug, Clone)]
pub struct Cmd {
    pub name: String,
    /// `--format`'s possible values; `[""]` for a command without `--format`.
    pub formats: Vec<String>,
    /// The long options it takes (`--color`, `--all`, ...).
    pub options: Vec<String>,
    /// True when it reads several files (`[FILE]...`).
    pub many_files: bool,
    /// True when it compares two plans (`<OLD> <NEW>`): harnesses that give
    /// one file give it as NEW, after [`BASE_PLAN`] as OLD ([`Cmd::files`]).
    pub pair: bool,
}

/// The OLD plan a command comparing two plans is given beside the file under test.
pub const BASE_PLAN: &str = "testdata/real/basic/plan.json";

/// The file arguments that give `files` to the command named `name`: as they
/// are, or after [`BASE_PLAN`] for a command comparing two plans given one.
pub fn file_args(name: &str, files: &[&str]) -> Vec<String> {
    let pair = commands().iter().any(|c| c.name == name && c.pair);
    let mut v: Vec<String> = Vec::new();
    if pair && files.len() == 1 {
        v.push(BASE_PLAN.to_string());
    }
    v.extend(files.iter().map(|f| f.to_string()));
    v
}

impl Cmd {
    /// [`file_args`] for this command.
    pub fn files(&self, files: &[&str]) -> Vec<String> {
        file_args(&self.name, files)
    }

    pub fn takes(&self, option: &str) -> bool {
        self.options.iter().any(|o| o == option)
    }
}

/// Run the binary with `args` and `env`, stdin closed, in the repository root.
pub fn run_raw(args: &[String], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_planview"));
    cmd.args(args).current_dir(root()).env_remove("NO_COLOR").env_remove("CLICOLOR_FORCE");
    // `comment` writes to these when set (a test run inside GitHub Actions).
    cmd.env_remove("GITHUB_STEP_SUMMARY").env_remove("GITHUB_OUTPUT");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.stdin(Stdio::null()).output().expect("run planview")
}

/// The help text of `args` (`["--help"]`, `["show", "-h"]`).
pub fn help(args: &[&str]) -> String {
    let out = run_raw(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>(), &[]);
    String::from_utf8(out.stdout).expect("help is UTF-8")
}

/// The subcommands listed under `Commands:` in `planview --help` but [`SKIP`],
/// described by their `-h` (read once per test binary).
pub fn commands() -> Vec<Cmd> {
    static COMMANDS: std::sync::OnceLock<Vec<Cmd>> = std::sync::OnceLock::new();
    COMMANDS.get_or_init(read_commands).clone()
}

fn read_commands() -> Vec<Cmd> {
    let text = help(&["--help"]);
    let mut names = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line.trim_end() == "Commands:" {
            inside = true;
        } else if inside && !line.starts_with("  ") {
            break;
        } else if inside && !line.starts_with("   ") {
            let name = line.split_whitespace().next().unwrap_or_default();
            if !name.is_empty() && !SKIP.contains(&name) {
                names.push(name.to_string());
            }
        }
    }
    assert!(names.len() >= 8 && names.iter().any(|n| n == "summary"), "could not read the commands from --help:\n{text}");
    let cmds: Vec<Cmd> = names.into_iter().map(|name| describe(&name)).collect();
    // The help is read right (else coverage would shrink silently).
    assert!(cmds.iter().any(|c| c.takes("--color")) && cmds.iter().any(|c| c.takes("--all")), "{cmds:?}");
    assert!(cmds.iter().all(|c| !c.formats.is_empty()), "{cmds:?}");
    cmds
}

fn describe(name: &str) -> Cmd {
    let h = help(&[name, "-h"]);
    let flat = h.split_whitespace().collect::<Vec<_>>().join(" ");
    // The options it takes: lines of the help that start with them.
    let options: Vec<String> = h
        .lines()
        .map(str::trim_start)
        // `-f, --format <FORMAT>  ...` or `--all  ...`: the long name.
        .filter_map(
            |l| if l.starts_with("--") { Some(l) } else { l.strip_prefix('-').and_then(|r| r.split_once(", ").map(|(_, long)| long)) },
        )
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    // `--format`'s values; a command without it runs once in its only format ("").
    let formats: Vec<String> = match flat.find("--format <FORMAT>") {
        None => vec![String::new()],
        Some(at) => {
            let rest = &flat[at..];
            let values = rest
                .find("[possible values: ")
                .map(|i| &rest[i + "[possible values: ".len()..])
                .and_then(|r| r.find(']').map(|j| &r[..j]))
                .unwrap_or_else(|| panic!("`{name} -h`: no possible values for --format:\n{h}"));
            values.split(", ").map(str::to_string).collect()
        }
    };
    let usage = h.lines().find(|l| l.starts_with("Usage:")).unwrap_or_default();
    Cmd { name: name.to_string(), formats, options, many_files: usage.contains("[FILE]..."), pair: usage.contains("<OLD> <NEW>") }
}
