//! Renderers: one small module per report, and here the command × format
//! matrix in one place: [`Format`], which command offers which format
//! ([`Offer::formats`], from which clap's `--format` lists are made), and the
//! one dispatch table ([`write`]) from a command's [`Answer`] and a format to
//! the renderer that writes it. Shared pieces (style, colour, escaping) live
//! here too.
//!
//! A new output format touches: this file (a [`Format`] variant, its rows in
//! [`Offer::formats`], its arms in [`write`]) and the renderer's own file
//! (`show/html.rs`), plus `escape.rs` if it escapes differently.

pub(crate) mod checks;
pub(crate) mod codequality;
pub(crate) mod comment;
pub mod diff;
pub(crate) mod drift;
pub(crate) mod findings;
pub(crate) mod fit;
pub(crate) mod gate;
pub(crate) mod html;
pub(crate) mod layout;
pub(crate) mod link;
pub(crate) mod moves;
pub(crate) mod outputs;
pub(crate) mod replace;
pub(crate) mod report;
pub(crate) mod roots;
pub(crate) mod sarif;
pub(crate) mod show;
pub(crate) mod state;
pub(crate) mod summary;

use crate::error::InputError;
use crate::outcome::PerFile;
use crate::query::gate::{PlanVerdict, PolicyReport};
use crate::query::intent::DiffReport;
use crate::query::roots::RootRow;
use crate::query::summary::Summary;
use crate::sanitize;
use colored::Colorize;
use report::Reports;
use serde::Serialize;
use std::io::{self, Write};

/// Output format: the one enum `--format` parses into (each command accepts
/// the formats of its row of the matrix, [`Offer::formats`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    #[default]
    Table,
    Json,
    Markdown,
    // GitLab's `artifacts:reports:terraform` file (`summary` only).
    Gitlab,
    // GitHub Actions workflow commands (`gate` only).
    Github,
    // JUnit XML (`gate` only).
    Junit,
    // SARIF 2.1.0 (`gate`, `checks`): code scanning.
    Sarif,
    // GitLab's Code Quality report (`gate`, `checks`).
    GitlabCodequality,
    // One self-contained HTML page (`show`).
    Html,
}

/// A row of the command × format matrix: a command, or the commands that
/// answer alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Offer {
    Summary,
    Gate,
    /// `checks`: the question formats and the code review ones (written by the runner).
    Checks,
    Show,
    /// `drift`, `replace`, `outputs`, `state`.
    Question,
    Diff,
}

impl Offer {
    /// THE matrix: the formats each command offers, in the order `--help`
    /// lists them. clap's `--format` lists are made from it (`cli`), and
    /// [`write`] refuses a format a command's row lacks.
    pub(crate) const fn formats(self) -> &'static [Format] {
        use Format::*;
        match self {
            Offer::Summary => &[Table, Json, Markdown, Gitlab],
            Offer::Gate => &[Table, Json, Markdown, Github, Junit, Sarif, GitlabCodequality],
            Offer::Checks => &[Table, Json, Markdown, Github, Sarif, GitlabCodequality],
            Offer::Show => &[Table, Json, Markdown, Html],
            Offer::Question | Offer::Diff => &[Table, Json, Markdown],
        }
    }
}

/// What a command answers, one report per input (or the one comparison of
/// `diff`), ready for any format.
pub(crate) enum Answer<'a, 'r> {
    Summary {
        items: &'a [PerFile<Summary>],
        roots: Roots<'a>,
    },
    Gate {
        items: &'a [PerFile<PlanVerdict>],
        policy: &'a PolicyReport,
        roots: Roots<'a>,
    },
    /// Each input's report, its resources built as they are written.
    Show(&'a [show::Item<'r>]),
    /// `drift`, `replace`, `checks`, `outputs`, `state`.
    Question(&'a dyn Reports),
    Diff(&'a DiffReport),
}

impl Answer<'_, '_> {
    /// The answer's row of the matrix (`checks` answers as a question: its
    /// code review formats are written by its runner).
    fn offer(&self) -> Offer {
        match self {
            Answer::Summary { .. } => Offer::Summary,
            Answer::Gate { .. } => Offer::Gate,
            Answer::Show(_) => Offer::Show,
            Answer::Question(_) => Offer::Question,
            Answer::Diff(_) => Offer::Diff,
        }
    }
}

/// The table of roots that opens `summary` and `gate` when there are several
/// inputs: the rows shown, and how many `--skip-unchanged` hid.
#[derive(Default)]
pub(crate) struct Roots<'a> {
    pub rows: Vec<&'a RootRow>,
    pub hidden: usize,
    /// Whether there are several inputs (else no table).
    pub several: bool,
}

/// How every format is drawn: the terminal style, and the cap on markdown.
pub(crate) struct Ctx {
    pub style: Style,
    pub max_bytes: usize,
}

impl Default for Ctx {
    fn default() -> Self {
        Ctx { style: Style::default(), max_bytes: fit::DEFAULT_MAX_BYTES }
    }
}

/// The paths the runners know the dispatch by.
pub(crate) mod format {
    pub(crate) use super::{write, Answer, Ctx, Roots};
}

/// Write `answer` in `format`: the one dispatch table (a format's arms, one
/// per answer it renders). `single_error` says the run had one input and it
/// could not be read, when the formats meant for people print nothing (the
/// error on stderr says it all). JSON always prints (its `error` object; so
/// does GitLab's report, which is JSON too), and so do the CI formats and the
/// gate's markdown (a PR comment saying the gate could not judge).
pub(crate) fn write(format: Format, answer: &Answer<'_, '_>, single_error: bool, ctx: &Ctx, w: &mut dyn Write) -> io::Result<()> {
    use Format::*;
    let prints = match format {
        Json | Gitlab | Github | Junit | Sarif | GitlabCodequality => true,
        Markdown => matches!(answer, Answer::Gate { .. }),
        Table | Html => false,
    };
    if single_error && !prints {
        return Ok(());
    }
    if !answer.offer().formats().contains(&format) {
        return Err(not_offered(format));
    }
    let style = &ctx.style;
    match (format, answer) {
        (Table, Answer::Summary { items, roots: r }) => {
            if r.several {
                roots::table(w, &r.rows, r.hidden, style)?;
            }
            summary::table_out(w, items, style)
        }
        (Table, Answer::Gate { items, policy, roots: r }) => {
            if r.several {
                roots::table(w, &r.rows, r.hidden, style)?;
            }
            gate::table_out(w, items, policy, style)
        }
        // The diff of values is not fitted: its lines are the CLI's.
        (Table, Answer::Show(items)) => show::table_items(w, items, &Style::new(style.color)),
        (Table, Answer::Question(reports)) => reports.table(w, style),
        (Table, Answer::Diff(report)) => diff::table(w, report, &Style::new(style.color)),

        (Json, Answer::Summary { items, .. }) => summary::json_out(w, items),
        (Json, Answer::Gate { items, policy, .. }) => gate::json_out(w, items, policy),
        (Json, Answer::Show(items)) => show::json_items(w, items),
        (Json, Answer::Question(reports)) => reports.json(w),
        (Json, Answer::Diff(report)) => diff::json(w, report),

        (Markdown, Answer::Summary { items, roots }) => {
            md_with_roots(w, summary::markdown_blocks(items, style.forge.as_ref()), roots, ctx.max_bytes)
        }
        (Markdown, Answer::Gate { items, policy, roots }) => md_with_roots(w, gate::markdown_blocks(items, policy), roots, ctx.max_bytes),
        (Markdown, Answer::Show(items)) => show::markdown_items(w, items, ctx.max_bytes, style.forge.as_ref()),
        (Markdown, Answer::Question(reports)) => reports.markdown(w),
        (Markdown, Answer::Diff(report)) => diff::markdown(w, report),

        (Html, Answer::Show(items)) => show::html_items(w, items),

        (Gitlab, Answer::Summary { items, .. }) => summary::gitlab_out(w, items),
        (Github, Answer::Gate { items, .. }) => gate::github_out(w, items),
        (Junit, Answer::Gate { items, .. }) => gate::junit_out(w, items),
        (Sarif, Answer::Gate { items, .. }) => sarif::write(w, &findings::of_gate(items)),
        (GitlabCodequality, Answer::Gate { items, .. }) => codequality::write(w, &findings::of_gate(items)),
        _ => Err(not_offered(format)),
    }
}

/// Markdown `blocks` with the table of roots after the first (the heading), fitted.
fn md_with_roots(w: &mut dyn Write, mut blocks: Vec<fit::Block>, r: &Roots<'_>, max_bytes: usize) -> io::Result<()> {
    if r.several {
        let at = blocks.len().min(1);
        blocks.splice(at..at, roots::markdown(&r.rows, r.hidden));
    }
    w.write_all(fit::fit(&blocks, max_bytes).as_bytes())
}

/// A format a command does not offer (the command line refuses it first).
fn not_offered(format: Format) -> io::Error {
    use clap::ValueEnum;
    let name = format.to_possible_value().map(|v| v.get_name().to_string()).unwrap_or_default();
    io::Error::other(format!("--format {name} is not offered by this command"))
}

/// How to draw terminal text: colour on or off, and the width tables fit
/// (both decided once, in `cli`).
#[derive(Debug, Clone, Default)]
pub struct Style {
    pub color: bool,
    /// The width tables are fitted to (`None`: no limit).
    pub width: Option<usize>,
    /// Where markdown links a source location to (the forge, from the CI's
    /// environment): `[`addr`](…#L12-L14)`, else `` `addr` at `main.tf:12` ``.
    pub forge: Option<link::Forge>,
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
        Style { color, width: None, forge: None }
    }

    /// This style, fitting tables to `width` (`None`: no limit).
    pub fn with_width(self, width: Option<usize>) -> Self {
        Style { width, ..self }
    }

    /// This style, linking source locations in markdown to `forge`.
    pub fn with_forge(self, forge: Option<link::Forge>) -> Self {
        Style { forge, ..self }
    }

    /// Terminal text fitted to this style's width: a line wider than the
    /// width (a heading, a banner; table rows fit already) is wrapped at word
    /// boundaries.
    pub fn fit_lines(&self, text: &str) -> String {
        let Some(max) = self.width else { return text.to_string() };
        let mut out = String::with_capacity(text.len());
        for l in text.split_inclusive('\n') {
            let (body, nl) = l.strip_suffix('\n').map_or((l, ""), |b| (b, "\n"));
            if layout::width(body) <= max || body.starts_with(['╭', '│', '├', '╰']) {
                out.push_str(l);
                continue;
            }
            out.push_str(&layout::wrap(body, max, layout::Kind::Text));
            out.push_str(nl);
        }
        out
    }

    /// A table in the house style, fitted to this style's width (see [`layout::table`]).
    pub fn table(&self, header: &[&str], rows: Vec<Vec<String>>) -> String {
        layout::table(header, rows, self.width)
    }

    /// A table whose cells hold values from the input shortened by `short`
    /// ([`Shortened::cell`]): when any was cut, a line below it says once
    /// where the values are whole (`whole`, e.g. "`--format json`").
    pub fn value_table(&self, header: &[&str], rows: Vec<Vec<String>>, short: &Shortened, whole: &str) -> String {
        let mut t = self.table(header, rows);
        if short.any() {
            t.push('\n');
            t.push_str(&self.paint(&format!("… values cut short: see {whole} for them whole"), Tone::Muted));
        }
        t
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

/// Values from the input shortened for the cells of one table, remembering
/// whether any was cut (so [`Style::value_table`] can say where they are whole).
#[derive(Debug, Default)]
pub struct Shortened {
    cut: std::cell::Cell<bool>,
}

impl Shortened {
    /// `s` (text from the input, masked already) as one sanitised line of at
    /// most `max` columns, cut between units (see [`layout::cut`]): never
    /// inside `(sensitive value)` or an escape.
    pub fn cell(&self, s: &str, max: usize) -> String {
        let s = sanitize::line(s);
        match layout::cut(&s, max) {
            Some(c) => {
                self.cut.set(true);
                c
            }
            None => s.into_owned(),
        }
    }

    /// True when a value was cut.
    pub fn any(&self) -> bool {
        self.cut.get()
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

/// An invisible zero-width space, as an HTML entity: put after `@` and inside
/// `://` and `www.`, it keeps GitHub from making a mention, an e-mail link or
/// an autolink of text from the input (the autolinker reads decoded text).
const ZWSP: &str = "&#8203;";

/// An input error in markdown: where and what, then its hint on a line of its own.
pub(crate) fn md_error(e: &InputError) -> String {
    let head = md_cell(&format!("{}: {}", e.location(), e.message));
    match &e.hint {
        Some(hint) => format!("{head}  \n*hint:* {}", md_cell(hint)),
        None => head,
    }
}

/// Text for a markdown table cell: escaped for the terminal and for GFM tables.
/// No input can make HTML, a link, an autolink (`https://...`, `www.`, e-mail)
/// or an `@mention` (which would notify someone).
pub fn md_cell(s: &str) -> String {
    let s = sanitize::line(s);
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for (i, &c) in chars.iter().enumerate() {
        let next = |k: usize, t: &str| t.chars().enumerate().all(|(j, x)| chars.get(i + k + j).is_some_and(|y| y.eq_ignore_ascii_case(&x)));
        match c {
            '@' => {
                out.push('@');
                out.push_str(ZWSP);
            }
            ':' if next(1, "//") => {
                out.push_str(ZWSP);
                out.push(':');
            }
            'w' | 'W' if next(0, "www.") => {
                out.push(c);
                out.push_str(ZWSP);
            }
            '|' => out.push_str("\\|"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            // GFM never emphasises an underscore inside a word.
            '_' if i > 0 && chars[i - 1].is_alphanumeric() && chars.get(i + 1).is_some_and(|n| n.is_alphanumeric()) => out.push(c),
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
    let s = md_code_text(s);
    let longest = s.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') { " " } else { "" };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// `3 pass, 1 fail` (`none` when every count is 0): the keys (statuses,
/// actions) come from the input, escaped with `esc` (e.g. [`plain`], [`md_cell`]).
pub fn counts_line(m: &std::collections::BTreeMap<String, u64>, esc: impl Fn(&str) -> String) -> String {
    let parts: Vec<String> = m.iter().filter(|(_, v)| **v > 0).map(|(k, v)| format!("{v} {}", esc(k))).collect();
    if parts.is_empty() {
        "none".into()
    } else {
        parts.join(", ")
    }
}

/// An input string as one line of terminal text (for [`counts_line`]).
pub fn plain(s: &str) -> String {
    sanitize::line(s).into_owned()
}

/// The text of a markdown code span (see [`md_code`]), without its fences:
/// one line, `|` escaped for tables.
pub fn md_code_text(s: &str) -> String {
    sanitize::line(s).replace('|', "\\|")
}

/// Pretty JSON with a trailing newline. Besides what JSON requires (C0
/// controls, quote, backslash), DEL, C1 controls and bidi overrides/isolates are
/// written as `\uXXXX` escapes ([`SafeFormatter`]), so JSON printed to a
/// terminal cannot drive it either (U+009B is a CSI on some terminals), and
/// still decodes to exactly the input's strings.
pub fn write_json<T: Serialize + ?Sized>(w: &mut dyn Write, value: &T) -> io::Result<()> {
    // The serializer writes token by token: buffered here, where the writes
    // are not dynamic calls, and handed on in large pieces.
    let mut buffered = io::BufWriter::with_capacity(64 << 10, w);
    let mut ser = serde_json::Serializer::with_formatter(&mut buffered, SafeFormatter(serde_json::ser::PrettyFormatter::new()));
    value.serialize(&mut ser).map_err(io::Error::other)?;
    writeln!(buffered)?;
    buffered.flush()
}

pub use crate::escape::{json_string, SafeFormatter};

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

#[cfg(test)]
mod matrix_tests {
    use super::*;
    use crate::error::InputError;
    use crate::query::gate::{Policy, PolicyReport};
    use clap::ValueEnum;

    fn unreadable<T>() -> Vec<PerFile<T>> {
        vec![PerFile { file: "p.json".into(), result: Err(InputError::new("p.json", "not JSON")), masker: Default::default() }]
    }

    fn rendered(format: Format, answer: &Answer<'_, '_>, single_error: bool) -> io::Result<String> {
        let mut out = Vec::new();
        write(format, answer, single_error, &Ctx::default(), &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn one_unreadable_input_prints_nothing_for_people_but_json_and_ci_formats_say_so() {
        let summaries: Vec<PerFile<Summary>> = unreadable();
        let verdicts: Vec<PerFile<PlanVerdict>> = unreadable();
        let policy: PolicyReport = Policy::default().describe();
        let summary = Answer::Summary { items: &summaries, roots: Roots::default() };
        let gate = Answer::Gate { items: &verdicts, policy: &policy, roots: Roots::default() };
        for format in [Format::Table, Format::Markdown] {
            assert_eq!(rendered(format, &summary, true).unwrap(), "", "summary {format:?}");
        }
        assert_eq!(rendered(Format::Table, &gate, true).unwrap(), "");
        // GitLab's report is JSON: its error object, as `--format json` prints it.
        for format in [Format::Json, Format::Gitlab] {
            let json = rendered(format, &summary, true).unwrap();
            let v: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!((&v["file"], &v["error"]["message"]), (&"p.json".into(), &"not JSON".into()), "{format:?}: {json}");
        }
        for format in [Format::Json, Format::Markdown, Format::Github, Format::Junit] {
            let text = rendered(format, &gate, true).unwrap();
            assert!(text.contains("p.json"), "gate {format:?}: {text}");
        }
        // Not silenced when the inputs were several: the error is reported in place.
        let table = rendered(Format::Table, &summary, false).unwrap();
        assert!(table.contains("not JSON"), "{table}");
    }

    /// Each answer's row of the matrix is exactly what the dispatch renders:
    /// every format of the row renders, every other is refused.
    #[test]
    fn the_dispatch_renders_exactly_the_formats_of_each_row() {
        let summaries: Vec<PerFile<Summary>> = unreadable();
        let verdicts: Vec<PerFile<PlanVerdict>> = unreadable();
        let shows: Vec<PerFile<crate::query::show::ShowReport>> = unreadable();
        let policy: PolicyReport = Policy::default().describe();
        let items: Vec<show::Item<'_>> = shows.iter().map(show::Item::whole).collect();
        let answers = [
            Answer::Summary { items: &summaries, roots: Roots::default() },
            Answer::Gate { items: &verdicts, policy: &policy, roots: Roots::default() },
            Answer::Show(&items),
        ];
        for answer in &answers {
            let row = answer.offer().formats();
            for format in Format::value_variants() {
                let r = rendered(*format, answer, false);
                match r {
                    Ok(_) => assert!(row.contains(format), "{:?} renders {format:?}, not in its row", answer.offer()),
                    Err(e) => {
                        assert!(!row.contains(format), "{:?} offers {format:?} but: {e}", answer.offer());
                        assert!(e.to_string().contains("is not offered"), "{e}");
                    }
                }
            }
        }
        assert!(Offer::Checks.formats().starts_with(Offer::Question.formats()), "checks answers as a question");
    }

    #[test]
    fn every_format_has_a_renderer_and_refuses_answers_it_does_not_render() {
        let summaries: Vec<PerFile<Summary>> = unreadable();
        let summary = Answer::Summary { items: &summaries, roots: Roots::default() };
        for format in Format::value_variants() {
            let r = rendered(*format, &summary, false);
            match format {
                Format::Github | Format::Junit | Format::Sarif | Format::GitlabCodequality | Format::Html => {
                    assert!(r.unwrap_err().to_string().contains("not offered"), "{format:?}")
                }
                _ => assert!(r.is_ok(), "{format:?}"),
            }
        }
    }
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
    fn json_escapes_del_c1_and_bidi_and_decodes_to_the_same_strings() {
        let mut out = Vec::new();
        let s = "a\u{1b}]52;c;eA==\u{7}\u{9b}31m\u{202e}\u{7f}\r\u{2066}\u{0}ü✓";
        write_json(&mut out, &serde_json::json!({"k\u{9b}": s, "n": 1})).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(sanitize::terminal_hazard(text.as_bytes(), false), None, "{text:?}");
        assert!(text.contains("\\u009b") && text.contains("\\u202e") && text.contains("\\u007f"), "{text}");
        assert!(text.contains("ü✓"), "other non-ASCII stays as it is: {text}");
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back["k\u{9b}"], s);
        // Pretty-printed as before.
        assert!(text.starts_with("{\n  \"k"), "{text}");
    }

    #[test]
    fn json_escapes_inside_raw_values_too() {
        let raw = serde_json::value::RawValue::from_string("{\"a\u{9b}\":[\"\u{202e}x\",1e400]}".to_string()).unwrap();
        let mut out = Vec::new();
        write_json(&mut out, &raw).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, "{\"a\\u009b\":[\"\\u202ex\",1e400]}\n");
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back["a\u{9b}"][0], "\u{202e}x");
    }

    #[test]
    fn markdown_cells_make_no_mention_or_autolink() {
        assert_eq!(md_cell("ping @octocat"), "ping @&#8203;octocat");
        assert_eq!(md_cell("see https://evil.example/x"), "see https&#8203;://evil.example/x");
        assert_eq!(md_cell("WWW.evil.example <http://x>"), "W&#8203;WW.evil.example &lt;http&#8203;://x&gt;");
        assert_eq!(md_cell("a@b.example"), "a@&#8203;b.example");
    }

    #[test]
    fn json_breaks_ci_commands_and_decodes_to_the_same_strings() {
        let s = "x ##[error]boom ##vso[task.complete]1 #[ok] ##";
        let text = json_string(s);
        assert!(!text.contains("##[") && !text.contains("##vso["), "{text}");
        assert!(text.contains("\\u0023#[error]") && text.contains("\\u0023#vso["), "{text}");
        assert_eq!(serde_json::from_str::<String>(&text).unwrap(), s);
    }

    #[test]
    fn a_note_below_the_table_says_where_values_are_whole_exactly_when_one_was_cut() {
        const NOTE: &str = "… values cut short: see `--format json` for them whole";
        let style = Style::default();
        let table = |values: &[&str]| {
            let short = Shortened::default();
            let rows = values.iter().map(|v| vec![short.cell(v, 20)]).collect();
            style.value_table(&["value"], rows, &short, "`--format json`")
        };
        let fits = table(&["\"short\"", "(sensitive value)", &"x".repeat(20)]);
        assert!(!fits.contains("values cut short") && !fits.contains('…'), "{fits}");
        let cut = table(&["\"short\"", &"y".repeat(21), &"z".repeat(30)]);
        assert_eq!(cut.matches(NOTE).count(), 1, "said once, for two cut cells:\n{cut}");
        assert!(cut.ends_with(NOTE) && cut.contains(&format!("{}…", "y".repeat(19))), "{cut}");
        // Masked before it is cut: a secret never shows, whole or in part.
        let short = Shortened::default();
        assert_eq!(short.cell(SENSITIVE_CELL, 10), "(sensitive value)");
        assert!(!short.any(), "a mask is never cut short");
        assert_eq!(short.cell("\u{1b}[2Jabcdef", 8), "\\x1B[2J…", "escaped first, then cut between units");
        assert!(short.any());
    }

    const SENSITIVE_CELL: &str = crate::secrets::MASK;

    #[test]
    fn colour_off_paints_nothing() {
        assert_eq!(Style::default().paint("x", Tone::Bad), "x");
    }
}
