//! Renderers: one small module per report, each writing `table`, `markdown` and
//! `json` to a `&mut dyn Write`. Shared pieces (style, colour, escaping) live here.

pub mod checks;
pub mod drift;
pub mod fit;
pub mod gate;
pub mod moves;
pub mod outputs;
pub mod replace;
pub mod report;
pub mod state;
pub mod show;
pub mod summary;

use crate::error::InputError;
use crate::sanitize;
use colored::Colorize;
use serde::Serialize;
use std::io::{self, Write};

/// Output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Table,
    Json,
    Markdown,
}

/// How to draw: colour on or off (decided once, in `cli`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Style {
    pub color: bool,
}

/// Colours by meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Create,
    Update,
    Delete,
    Replace,
    Read,
    Muted,
    Bad,
    Good,
    Warn,
    Bold,
}

impl Style {
    pub fn new(color: bool) -> Self {
        if color {
            // Only ever turned on: colour-off paths never call `colored`.
            colored::control::set_override(true);
        }
        Style { color }
    }

    /// Paint already-sanitised text.
    pub fn paint(&self, s: &str, tone: Tone) -> String {
        if !self.color {
            return s.to_string();
        }
        match tone {
            Tone::Create => s.green().to_string(),
            Tone::Update => s.yellow().to_string(),
            Tone::Delete => s.red().to_string(),
            Tone::Replace => s.magenta().to_string(),
            Tone::Read => s.cyan().to_string(),
            Tone::Muted => s.dimmed().to_string(),
            Tone::Bad => s.red().bold().to_string(),
            Tone::Good => s.green().bold().to_string(),
            Tone::Warn => s.yellow().bold().to_string(),
            Tone::Bold => s.bold().to_string(),
        }
    }
}

/// The tone of an action key (`create`, `replace`, ...).
pub fn action_tone(action: &str) -> Tone {
    match action {
        "create" => Tone::Create,
        "update" => Tone::Update,
        "delete" => Tone::Delete,
        "replace" => Tone::Replace,
        "read" => Tone::Read,
        "no-op" | "forget" => Tone::Muted,
        _ => Tone::Warn,
    }
}

/// Text for a markdown table cell: escaped for the terminal and for GFM tables.
pub fn md_cell(s: &str) -> String {
    let s = sanitize::line(s);
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '|' => out.push_str("\\|"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            // GFM never emphasises an underscore inside a word.
            '_' if i > 0
                && chars[i - 1].is_alphanumeric()
                && chars.get(i + 1).is_some_and(|n| n.is_alphanumeric()) =>
            {
                out.push(c)
            }
            '*' | '_' | '`' | '[' | ']' | '\\' | '#' | '~' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// An inline code span for markdown, safe in tables.
pub fn md_code(s: &str) -> String {
    let s = sanitize::line(s).replace('|', "\\|");
    let longest = s.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') { " " } else { "" };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// JSON with a trailing newline.
pub fn write_json<T: Serialize + ?Sized>(w: &mut dyn Write, value: &T) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *w, value).map_err(io::Error::other)?;
    writeln!(w)
}

/// A failed input as it appears in multi-file JSON output.
#[derive(Debug, Serialize)]
pub struct JsonInputError<'a> {
    pub file: &'a str,
    pub error: JsonErrorBody<'a>,
}

/// The error object of [`JsonInputError`].
#[derive(Debug, Serialize)]
pub struct JsonErrorBody<'a> {
    pub message: &'a str,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub hint: Option<&'a str>,
}

impl<'a> JsonInputError<'a> {
    pub fn new(e: &'a InputError) -> Self {
        JsonInputError {
            file: &e.file,
            error: JsonErrorBody { message: &e.message, line: e.line, column: e.column, hint: e.hint.as_deref() },
        }
    }
}

/// A table with the house style.
pub fn table(header: &[&str], rows: Vec<Vec<String>>) -> String {
    use tabled::settings::Style as TStyle;
    let mut b = tabled::builder::Builder::default();
    b.push_record(header.iter().map(|s| s.to_string()));
    for r in rows {
        b.push_record(r);
    }
    let mut t = b.build();
    t.with(TStyle::rounded());
    t.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_cells_cannot_break_tables_or_inject_html() {
        assert_eq!(md_cell("a|b<script>*x*"), "a\\|b&lt;script&gt;\\*x\\*");
        assert_eq!(md_cell("replace_triggered_by _x_"), "replace_triggered_by \\_x\\_");
        assert_eq!(md_code("a`b|c"), "``a`b\\|c``");
        assert_eq!(md_code("x\x1b"), "`x\\x1B`");
    }

    #[test]
    fn colour_off_paints_nothing() {
        assert_eq!(Style { color: false }.paint("x", Tone::Bad), "x");
    }
}
