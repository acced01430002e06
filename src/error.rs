//! Errors and the exit codes they map to, in one place.

use std::fmt;
use std::io;

/// Exit codes (documented in README and `--help`).
pub mod exit {
    /// Success (and a broken pipe: the reader went away).
    pub const OK: i32 = 0;
    /// A gate or check failed (the input was read fine).
    pub const FAILED: i32 = 1;
    /// Usage error, unreadable or invalid input, unsupported format version.
    pub const ERROR: i32 = 2;
}

/// A problem with one input file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// The file as named on the command line, or `<stdin>`.
    pub file: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
    pub hint: Option<String>,
}

impl InputError {
    pub fn new(file: &str, message: impl Into<String>) -> Self {
        InputError { file: file.to_string(), line: None, column: None, message: message.into(), hint: None }
    }

    pub fn at(mut self, line: usize, column: usize) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }

    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// `file:line:column` (as far as known).
    pub fn location(&self) -> String {
        match (self.line, self.column) {
            (Some(l), Some(c)) => format!("{}:{l}:{c}", self.file),
            (Some(l), None) => format!("{}:{l}", self.file),
            _ => self.file.clone(),
        }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The file name comes from the command line or a directory listing: one
        // line, escaped, so it cannot fake a line of its own (or a hint).
        write!(f, "{}: ", crate::sanitize::line(&self.location()))?;
        // A message may span lines (a failing `show -json`'s stderr); none of
        // them may pass for the hint line, which is ours.
        for (i, l) in self.message.split('\n').enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            let looks_like_hint = i > 0 && l.trim_start().starts_with("hint:");
            f.write_str(if looks_like_hint { l.trim_start() } else { l })?;
        }
        if let Some(h) = &self.hint {
            write!(f, "\n  hint: {h}")?;
        }
        Ok(())
    }
}

/// Everything `planview::run` can fail with.
#[derive(Debug)]
pub enum Error {
    /// Bad arguments or an impossible combination of them.
    Usage(String),
    /// One or more inputs could not be read; each was already reported.
    Input(Vec<InputError>),
    /// Writing the output failed (a broken pipe is a normal end: see [`Error::is_broken_pipe`]).
    Output(io::Error),
}

impl Error {
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Output(e) if e.kind() == io::ErrorKind::BrokenPipe => exit::OK,
            _ => exit::ERROR,
        }
    }

    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Output(e) if e.kind() == io::ErrorKind::BrokenPipe)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(m) => write!(f, "{m}"),
            Error::Input(errs) => {
                for (i, e) in errs.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    write!(f, "{e}")?;
                }
                Ok(())
            }
            Error::Output(e) => write!(f, "cannot write output: {e}"),
        }
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Self {
        Error::Output(e)
    }
}

/// 1-based line and column of a byte offset.
pub fn line_col(bytes: &[u8], offset: usize) -> (usize, usize) {
    let upto = &bytes[..offset.min(bytes.len())];
    let line = upto.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = upto.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let column = String::from_utf8_lossy(&upto[line_start..]).chars().count() + 1;
    (line, column)
}

/// serde_json's message without its " at line L column C" (we print the
/// location ourselves, in the whole input) and without the value it found.
pub fn serde_message(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    let msg = match msg.rfind(" at line ") {
        Some(i) => &msg[..i],
        None => &msg,
    };
    redact_found_value(msg)
}

/// serde's type errors quote the value they found (`invalid type: string
/// "hunter2", expected a boolean`). A document that cannot be read cannot be
/// searched for secrets, so the value is replaced by its kind.
pub fn redact_found_value(msg: &str) -> String {
    for lead in ["invalid type: ", "invalid value: "] {
        let Some(rest) = msg.strip_prefix(lead) else { continue };
        let (found, tail) = rest.split_once(", expected ").map_or((rest, None), |(f, t)| (f, Some(t)));
        let kind = if found.starts_with("string ") {
            "a string"
        } else if found.starts_with("integer ") || found.starts_with("floating point ") || found.starts_with("number") {
            "a number"
        } else {
            return msg.to_string(); // booleans, maps, sequences, null: nothing to hide
        };
        return match tail {
            Some(t) => format!("{lead}{kind}, expected {t}"),
            None => format!("{lead}{kind}"),
        };
    }
    msg.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn running_out_of_memory_ends_with_the_error_exit_code() {
        assert_eq!(crate::oom::EXIT, exit::ERROR);
    }

    #[test]
    fn a_line_of_the_message_cannot_pass_for_the_hint() {
        let e = InputError::new("p.zip", "`tofu show -json` failed:\nError: boom\n  hint: all is fine").hint("the real one");
        let text = e.to_string();
        let hints: Vec<&str> = text.lines().filter(|l| l.starts_with("  hint:")).collect();
        assert_eq!(hints, ["  hint: the real one"], "{text}");
        assert!(text.contains("\nhint: all is fine\n"), "{text}");
    }
}
