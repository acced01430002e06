//! The `planview` binary: parse arguments, run, map the outcome to an exit code.

use clap::{CommandFactory, FromArgMatches, Parser};
use planview::cli::{Cli, Env};
use planview::error::{exit, Error};
use planview::Status;
use std::io::Write;
use std::process::ExitCode;

/// Memory that runs out ends the run with exit code 2 and one line, as every
/// other error, never an abort ([`planview::oom`]).
#[global_allocator]
static ALLOCATOR: planview::oom::ExitOnOom = planview::oom::ExitOnOom;

fn main() -> ExitCode {
    planview::oom::one_arena();
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) if !e.use_stderr() => {
            // --help, --version: our own text, on stdout.
            let _ = e.print();
            return ExitCode::from(exit::OK as u8);
        }
        Err(_) => {
            // clap quotes the arguments it refuses (`--format $'\e[31m'`): parsed
            // again without styles, so the only escapes in its message come from
            // the arguments, and escaped like any text from outside.
            let plain = Cli::command().styles(clap::builder::Styles::plain()).try_get_matches();
            let text = match plain.and_then(|m| Cli::from_arg_matches(&m)) {
                Err(e) => e.render().ansi().to_string(),
                Ok(_) => String::from("error: invalid arguments\n"),
            };
            let _ = std::io::stderr().lock().write_all(planview::sanitize::text(&text).as_bytes());
            return ExitCode::from(exit::ERROR as u8);
        }
    };
    let mut config = match cli.into_config(&Env::detect()) {
        Ok(c) => c,
        Err(msg) => return report(&Error::Usage(msg)),
    };
    if config.progress {
        // Bars on stderr while big inputs are read, cleared when each is read.
        config.read.progress = planview::progress::Progress::on_stderr();
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = planview::run(&config, &mut out, &mut std::io::stderr());
    config.read.progress.done();
    // The last bytes are written here: a failure to write them never changes a verdict.
    let flushed = if result.is_ok() { out.flush() } else { Ok(()) };
    let result = planview::verdict_over_output(result, flushed);
    match result {
        Ok(Status::Success) => ExitCode::from(exit::OK as u8),
        Ok(Status::Failed) => ExitCode::from(exit::FAILED as u8),
        Err(e) => {
            // Flush what was rendered for readable inputs before reporting the rest.
            let _ = out.flush();
            report(&e)
        }
    }
}

fn report(e: &Error) -> ExitCode {
    if e.is_broken_pipe() {
        return ExitCode::from(exit::OK as u8);
    }
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    let text = planview::sanitize::text(&e.to_string()).into_owned();
    for line in text.lines() {
        if line.starts_with("  hint:") {
            let _ = writeln!(err, "{line}");
        } else {
            let _ = writeln!(err, "planview: error: {line}");
        }
    }
    ExitCode::from(e.exit_code() as u8)
}
