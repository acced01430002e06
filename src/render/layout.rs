//! Table layout for terminal output: every table of every command is drawn
//! here, fitted to a width by wrapping its cells (never by cutting them).
//!
//! A cell is split into units that are never cut: one character, a visible
//! escape written by [`crate::sanitize`] (`\x1B`, `\u{009B}`), a mask
//! (`(sensitive value)`, `(known after apply)`), or a colour sequence (no
//! width). Lines break where a reader expects them: addresses after a `.` or
//! before a `[`, other text at a space, then at punctuation, and only as a last
//! resort between any two units. A colour that runs over a break is closed at
//! the end of the line and opened again on the next.
//!
//! Columns keep their natural width when the table fits. Otherwise the
//! columns of least importance give way first: free text (details, reasons,
//! values), then addresses, then the short key columns (action, status).

use unicode_width::UnicodeWidthChar;

/// The masks a line never breaks inside.
const ATOMS: &[&str] = &[crate::secrets::MASK, "(known after apply)"];

/// How a column's text breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A resource address: after `.`, before `[`, then anywhere.
    Address,
    /// Words: at spaces, then punctuation, then anywhere.
    Text,
}

/// The kind and importance (0 kept longest) of a column, by its heading.
fn column_of(heading: &str) -> (Kind, u8) {
    match heading {
        "address" => (Kind::Address, 1),
        "attribute" | "forced by" => (Kind::Address, 2),
        "action" | "status" | "drift" | "order" | "rule" | "count" | "mode" => (Kind::Text, 0),
        "output" | "name" | "module" => (Kind::Text, 1),
        _ => (Kind::Text, 2),
    }
}

/// One piece of a line that is never cut.
#[derive(Debug, Clone, Copy)]
struct Unit<'a> {
    text: &'a str,
    width: usize,
    /// A colour (SGR) sequence: no width.
    sgr: bool,
}

fn units(s: &str) -> Vec<Unit<'_>> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < s.len() {
        let rest = &s[i..];
        let len = if let Some(csi) = rest.strip_prefix("\u{1b}[") {
            // CSI: parameters, then one final byte in 0x40..=0x7E.
            let end = csi.bytes().position(|c| (0x40..=0x7E).contains(&c)).map_or(rest.len(), |p| p + 3);
            out.push(Unit { text: &rest[..end], width: 0, sgr: true });
            i += end;
            continue;
        } else if let Some(a) = ATOMS.iter().find(|a| rest.starts_with(**a)) {
            a.len()
        } else if let Some(n) = number_at(s, i) {
            n
        } else if rest.starts_with("\\x") && rest.len() >= 4 && b[i + 2..i + 4].iter().all(u8::is_ascii_hexdigit) {
            4
        } else if rest.starts_with("\\u{") {
            rest.find('}').filter(|&e| e > 3 && e <= 10 && rest[3..e].bytes().all(|c| c.is_ascii_hexdigit())).map_or(1, |e| e + 1)
        } else {
            rest.chars().next().map_or(1, char::len_utf8)
        };
        let text = &rest[..len];
        out.push(Unit { text, width: text.chars().map(|c| c.width().unwrap_or(0)).sum(), sgr: false });
        i += len;
    }
    out
}

/// The length of the number that starts at byte `i` of `s`, when one does and
/// it is longer than one character: digits, a sign, a fraction and an exponent
/// (`-12.5e+3`, `12345678901234567890123`, `10.0.0.0` too), not touching a
/// letter, digit or `_` on either side (so not inside a name or a hex id). A
/// number is one unit: a line never breaks inside it.
fn number_at(s: &str, i: usize) -> Option<usize> {
    let b = s.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    if i > 0 && (word(b[i - 1]) || b[i - 1] == b'.') {
        return None;
    }
    let mut j = i;
    if b.get(j) == Some(&b'-') {
        j += 1;
    }
    let digits = |j: &mut usize| {
        let from = *j;
        while b.get(*j).is_some_and(u8::is_ascii_digit) {
            *j += 1;
        }
        *j > from
    };
    if !digits(&mut j) {
        return None;
    }
    while b.get(j) == Some(&b'.') && b.get(j + 1).is_some_and(u8::is_ascii_digit) {
        j += 1;
        digits(&mut j);
    }
    if matches!(b.get(j), Some(b'e' | b'E')) {
        let mut k = j + 1;
        if matches!(b.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        if digits(&mut k) {
            j = k;
        }
    }
    (j - i > 1 && !b.get(j).is_some_and(|&c| word(c))).then_some(j - i)
}

/// The widest run of `s` between the places it breaks best: an address's after
/// a `.`, before a `[` or at a space (`terraform_data.` and
/// `create_then_delete` of `terraform_data.create_then_delete`), other text's at
/// a space (a word), up to [`WHOLE_PART`] or [`WHOLE_WORD`] columns.
fn widest_part(s: &str, kind: Kind) -> usize {
    let mut widest = 0;
    for l in s.split('\n') {
        let u = units(l);
        let mut run = 0;
        for p in 0..u.len() {
            if p > 0 && break_rank(&u, p, kind) <= u8::from(kind == Kind::Address) {
                run = 0;
            }
            run += u[p].width;
            widest = widest.max(run);
        }
    }
    widest.min(if kind == Kind::Address { WHOLE_PART } else { WHOLE_WORD })
}

/// The widest part of an address a column keeps room for.
const WHOLE_PART: usize = 24;

/// The widest word a column of text keeps room for.
const WHOLE_WORD: usize = 12;

/// The width `s` takes on a terminal (colour sequences take none), over its
/// longest line.
pub(crate) fn width(s: &str) -> usize {
    // Printable ASCII only (no colour, no line feed): a column per byte.
    if s.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return s.len();
    }
    s.split('\n').map(|l| units(l).iter().map(|u| u.width).sum()).max().unwrap_or(0)
}

/// The widest unit of `s` (what a column cannot be narrower than).
fn widest_unit(s: &str) -> usize {
    s.split('\n').flat_map(|l| units(l).into_iter().map(|u| u.width)).max().unwrap_or(0)
}

/// `s` (one sanitised line) shortened to at most `max` columns, ending in
/// `…`, or `None` when it fits (or is one unit, shown whole). The cut falls between units, so never inside
/// a mask, a visible escape (`\x1B`, `\u{009B}`), a JSON escape (`\"`,
/// `\u001b`) or a colour sequence; a colour still open is closed.
pub(crate) fn cut(s: &str, max: usize) -> Option<String> {
    let u = units(s);
    if u.iter().map(|x| x.width).sum::<usize>() <= max {
        return None;
    }
    let room = max.saturating_sub(1);
    let (mut out, mut w, mut coloured, mut i) = (String::new(), 0, false, 0);
    while i < u.len() {
        // A JSON escape is one piece: `\` and the next unit, or `\u` and 4 hex digits.
        let mut n = 1;
        if u[i].text == "\\" && i + 1 < u.len() {
            let hex = u[i + 1].text == "u"
                && u.len() > i + 5
                && u[i + 2..i + 6].iter().all(|x| x.text.len() == 1 && x.text.as_bytes()[0].is_ascii_hexdigit());
            n = if hex { 6 } else { 2 };
        }
        let piece = &u[i..i + n];
        let pw: usize = piece.iter().map(|x| x.width).sum();
        // The first piece is always kept: a mask or an escape wider than
        // `max` is shown whole rather than cut away.
        if w + pw > room && w > 0 {
            break;
        }
        for x in piece {
            out.push_str(x.text);
            if x.sgr {
                coloured = !matches!(x.text, "\u{1b}[0m" | "\u{1b}[m");
            }
        }
        w += pw;
        i += n;
    }
    if i >= u.len() {
        return None;
    }
    let trimmed = out.trim_end_matches(' ').len();
    out.truncate(trimmed);
    out.push('…');
    if coloured {
        out.push_str("\u{1b}[0m");
    }
    Some(out)
}

/// How good a break before unit `p` is (lower is better; 4: anywhere).
fn break_rank(u: &[Unit<'_>], p: usize, kind: Kind) -> u8 {
    let (before, at) = (u[p - 1].text, u[p].text);
    let dot = before == "." || at == "[";
    let space = before == " ";
    // Between list items and keys of a value (`, `, `": "`), before a value.
    let item = matches!(before, "," | ";" | ":" | "=") || matches!(at, "(" | "{" | "\"");
    let punct = matches!(before, "/" | "-" | "_" | ")" | "]" | "}");
    match kind {
        Kind::Address if dot => 0,
        Kind::Address if space => 1,
        Kind::Text if space => 0,
        Kind::Text if item => 1,
        Kind::Text if dot => 2,
        _ if item || punct => 3,
        _ => 4,
    }
}

/// One line of text wrapped to `max` columns (at least one unit a line, so a
/// unit wider than `max` stands alone on its line).
fn wrap_line(s: &str, max: usize, kind: Kind) -> Vec<String> {
    let u = units(s);
    let total: usize = u.iter().map(|x| x.width).sum();
    if total <= max {
        return vec![s.trim_end_matches(' ').to_string()];
    }
    let mut lines = Vec::new();
    // The colour in force where the current line starts.
    let mut colour: Vec<&str> = Vec::new();
    let mut start = 0;
    while start < u.len() {
        // Skip the blanks a break left at the start of a line.
        while start < u.len() && u[start].text == " " {
            start += 1;
        }
        if start >= u.len() {
            break;
        }
        // The furthest end that fits (at least one visible unit).
        let mut w = 0;
        let mut end = start;
        while end < u.len() && (w + u[end].width <= max || (w == 0 && u[..end].iter().skip(start).all(|x| x.sgr))) {
            w += u[end].width;
            end += 1;
        }
        let cut = if end >= u.len() {
            u.len()
        } else {
            // The best break in (start, end]: lowest rank, latest position.
            let mut best: Option<(u8, usize)> = None;
            for p in (start + 1..=end).rev() {
                let r = break_rank(&u, p, kind);
                if best.is_none_or(|(br, _)| r < br) {
                    best = Some((r, p));
                }
            }
            best.map_or(end, |(_, p)| p)
        };
        let mut line: String = colour.concat();
        for x in &u[start..cut] {
            line.push_str(x.text);
            if x.sgr {
                if matches!(x.text, "\u{1b}[0m" | "\u{1b}[m") {
                    colour.clear();
                } else {
                    colour.push(x.text);
                }
            }
        }
        let trimmed = line.trim_end_matches(' ').len();
        line.truncate(trimmed);
        if !colour.is_empty() && cut < u.len() {
            line.push_str("\u{1b}[0m");
        }
        lines.push(line);
        start = cut;
    }
    lines
}

/// `s` (which may hold several lines) wrapped to `max` columns.
pub(crate) fn wrap(s: &str, max: usize, kind: Kind) -> String {
    s.split('\n').flat_map(|l| wrap_line(l, max.max(1), kind)).collect::<Vec<_>>().join("\n")
}

/// Column widths for a table of natural widths `natural` in `avail` columns
/// of text (borders excluded). `floor` is what each column cannot go below.
fn allot(natural: &[usize], floor: &[usize], rank: &[u8], avail: usize) -> Vec<usize> {
    let mut w = natural.to_vec();
    let n = w.len().max(1);
    let fair = avail / n;
    // Lowest importance first, each down to a soft floor, then every column
    // down to its hard floor; the widest column always gives way first.
    let soft = |r: u8| match r {
        2 => (avail / (2 * n)).max(16),
        1 => avail / 2,
        _ => (fair * 2 / 3).max(12),
    };
    let soft_floor = |r: u8| -> Vec<usize> { (0..w.len()).map(|i| floor[i].max(natural[i].min(soft(r)))).collect() };
    let stages: [(Option<u8>, Vec<usize>); 4] =
        [(Some(2), soft_floor(2)), (Some(1), soft_floor(1)), (Some(0), soft_floor(0)), (None, floor.to_vec())];
    for (only, low) in &stages {
        loop {
            let sum: usize = w.iter().sum();
            if sum <= avail {
                return w;
            }
            let widest =
                (0..w.len()).filter(|&i| only.is_none_or(|r| rank[i] == r) && w[i] > low[i]).max_by_key(|&i| (w[i], std::cmp::Reverse(i)));
            match widest {
                Some(i) => w[i] -= 1,
                None => break,
            }
        }
    }
    w
}

/// A table's columns measured one row at a time ([`Columns::add`]): what
/// [`table`] fits a table to, kept for a table whose rows are not all held
/// (`summary`'s spooled list of changes) as for one whose rows are.
#[derive(Debug, Clone)]
pub(crate) struct Columns {
    kinds: Vec<(Kind, u8)>,
    /// The widest cell of each column.
    natural: Vec<usize>,
    /// The widest unit of each column's cells.
    unit: Vec<usize>,
    /// The widest part (word, address part) of each column's cells.
    part: Vec<usize>,
    /// Only the natural widths are measured (a table not fitted to a width).
    natural_only: bool,
}

impl Columns {
    /// The columns of a table headed `header` (the heading measured).
    pub(crate) fn new(header: &[&str]) -> Columns {
        let n = header.len();
        let mut c = Columns {
            kinds: header.iter().map(|h| column_of(h)).collect(),
            natural: vec![0; n],
            unit: vec![0; n],
            part: vec![0; n],
            natural_only: false,
        };
        c.add(header);
        c
    }

    /// The columns of a table headed `header` that is not fitted to a width:
    /// only their natural widths are measured ([`Columns::natural`]).
    pub(crate) fn natural_only(header: &[&str]) -> Columns {
        let n = header.len();
        let mut c = Columns {
            kinds: header.iter().map(|h| column_of(h)).collect(),
            natural: vec![0; n],
            unit: vec![],
            part: vec![],
            natural_only: true,
        };
        c.add(header);
        c
    }

    /// One more row measured (cells past the last column are not).
    pub(crate) fn add<S: AsRef<str>>(&mut self, row: &[S]) {
        for (c, cell) in row.iter().take(self.kinds.len()).enumerate() {
            let s = cell.as_ref();
            self.natural[c] = self.natural[c].max(width(s));
            if self.natural_only {
                continue;
            }
            self.unit[c] = self.unit[c].max(widest_unit(s));
            self.part[c] = self.part[c].max(widest_part(s, self.kinds[c].0));
        }
    }

    /// The widest cell of column `c`.
    pub(crate) fn natural(&self, c: usize) -> usize {
        self.natural.get(c).copied().unwrap_or(0)
    }

    /// The width each column is given to fit `max` columns in all.
    pub(crate) fn widths(&self, max: usize) -> Vec<usize> {
        let cols = self.kinds.len();
        let kinds = &self.kinds;
        let natural = &self.natural;
        // A column keeps room for its widest unit, and for 8 columns of text
        // (or its natural width, when less).
        let floor: Vec<usize> = (0..cols).map(|c| self.unit[c].max(natural[c].min(8))).collect();
        let rank: Vec<u8> = kinds.iter().map(|k| k.1).collect();
        let avail = max.saturating_sub(3 * cols + 1);
        // Where the table allows, no word and no part of an address is broken
        // (`terraform_data.` stays whole): each column keeps room for its widest.
        let whole: Vec<usize> = (0..cols).map(|c| self.part[c].max(floor[c])).collect();
        // Addresses first, then words, the most important column first, each
        // column whole or not at all, as far as the width allows.
        let mut order: Vec<usize> = (0..cols).collect();
        order.sort_by_key(|&c| (kinds[c].0 != Kind::Address, kinds[c].1));
        let mut floor = floor;
        for c in order {
            if floor.iter().sum::<usize>() + whole[c] - floor[c] <= avail {
                floor[c] = whole[c];
            }
        }
        allot(natural, &floor, &rank, avail)
    }

    /// `row`'s cells wrapped to `widths` ([`Columns::widths`]).
    pub(crate) fn wrap_row(&self, row: &mut [String], widths: &[usize]) {
        for (c, cell) in row.iter_mut().enumerate() {
            if c < widths.len() && width(cell) > widths[c] {
                *cell = wrap(cell, widths[c], self.kinds[c].0);
            }
        }
    }
}

/// A table in the house style (rounded borders), its cells wrapped so that it
/// fits `max` columns when given (as far as units that cannot be cut allow).
/// Cells are final (secrets were masked where their values were rendered), so
/// wrapping never splits anything that still needs masking.
pub(crate) fn table(header: &[&str], rows: Vec<Vec<String>>, max: Option<usize>) -> String {
    use tabled::settings::Style as TStyle;
    let mut grid: Vec<Vec<String>> = Vec::with_capacity(rows.len() + 1);
    grid.push(header.iter().map(|h| h.to_string()).collect());
    grid.extend(rows);
    if let Some(max) = max {
        let mut columns = Columns::new(header);
        grid.iter().skip(1).for_each(|r| columns.add(r));
        let widths = columns.widths(max);
        grid.iter_mut().for_each(|row| columns.wrap_row(row, &widths));
    }
    let mut b = tabled::builder::Builder::default();
    for r in grid {
        b.push_record(r);
    }
    let mut t = b.build();
    t.with(TStyle::rounded());
    t.to_string()
}

/// [`table`]'s drawing, one row at a time, for rows that are not all held:
/// the width of each column (its widest line, once wrapped) is known first.
/// The same text as [`table`] draws (a test holds it to it).
pub(crate) struct Rounded {
    widths: Vec<usize>,
}

impl Rounded {
    /// Columns this wide (their widest lines).
    pub(crate) fn new(widths: Vec<usize>) -> Rounded {
        Rounded { widths }
    }

    fn rule(&self, left: &str, mid: &str, right: &str) -> String {
        let parts: Vec<String> = self.widths.iter().map(|w| "─".repeat(w + 2)).collect();
        format!("{left}{}{right}", parts.join(mid))
    }

    /// The top border.
    pub(crate) fn top(&self) -> String {
        self.rule("╭", "┬", "╮")
    }

    /// The rule under the heading.
    pub(crate) fn under_heading(&self) -> String {
        self.rule("├", "┼", "┤")
    }

    /// The bottom border.
    pub(crate) fn bottom(&self) -> String {
        self.rule("╰", "┴", "╯")
    }

    /// One row (cells of several lines make it as tall as the tallest).
    pub(crate) fn row<S: AsRef<str>>(&self, cells: &[S]) -> String {
        let lines: Vec<Vec<&str>> =
            self.widths.iter().enumerate().map(|(c, _)| cells.get(c).map_or("", |s| s.as_ref()).split('\n').collect()).collect();
        let height = lines.iter().map(Vec::len).max().unwrap_or(1);
        let mut out = String::new();
        for i in 0..height {
            if i > 0 {
                out.push('\n');
            }
            out.push('│');
            for (c, w) in self.widths.iter().enumerate() {
                let l = lines[c].get(i).copied().unwrap_or("");
                out.push(' ');
                out.push_str(l);
                out.push_str(&" ".repeat(w.saturating_sub(width(l)) + 1));
                out.push('│');
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_fit(s: &str, max: usize) -> bool {
        s.lines().all(|l| width(l) <= max)
    }

    #[test]
    fn addresses_wrap_after_dots_and_before_brackets() {
        let a = "module.network.aws_subnet.private[\"us-east-1a\"]";
        assert_eq!(wrap(a, 20, Kind::Address), "module.network.\naws_subnet.private\n[\"us-east-1a\"]");
        assert_eq!(wrap(a, 100, Kind::Address), a);
    }

    #[test]
    fn text_wraps_at_words_and_never_inside_a_mask_or_an_escape() {
        assert_eq!(wrap("an attribute cannot be updated in place", 16, Kind::Text), "an attribute\ncannot be\nupdated in place");
        let s = "a -> (sensitive value) x \\u{009B}\\x1B[2J";
        for max in 1..40 {
            let w = wrap(s, max, Kind::Text);
            assert!(w.contains("(sensitive value)"), "{max}: {w}");
            assert!(w.contains("\\u{009B}") && w.contains("\\x1B"), "{max}: {w}");
            assert_eq!(w.replace(['\n', ' '], ""), s.replace(' ', ""), "nothing lost at {max}");
        }
    }

    #[test]
    fn cut_fits_its_width_and_never_splits_a_mask_or_an_escape() {
        assert_eq!(cut("abcdef", 6), None, "a value that fits is not cut");
        assert_eq!(cut("abcdef", 4).as_deref(), Some("abc…"));
        assert_eq!(cut("ab cdef", 4).as_deref(), Some("ab…"), "no blank before the mark");
        let s = r#"["x", "(sensitive value)", "\u001b", "\"", "\x1B\u{009B}", "(known after apply)"]"#;
        for max in 2..s.len() {
            let c = cut(s, max).expect("too long");
            assert!(width(&c) <= max, "{max}: {c}");
            let kept = c.strip_suffix('…').unwrap();
            assert!(s.starts_with(kept), "{max}: {c}");
            // What is kept ends between units: never inside a mask or an escape.
            for unit in ["(sensitive value)", "(known after apply)", "\\u001b", "\\\"", "\\x1B", "\\u{009B}"] {
                let at = s.find(unit).unwrap();
                assert!(kept.len() <= at || kept.len() >= at + unit.len(), "{max}: {c} cuts {unit}");
            }
        }
        let coloured = cut("\u{1b}[2msome long text\u{1b}[0m", 6).unwrap();
        assert_eq!(coloured, "\u{1b}[2msome…\u{1b}[0m", "an open colour is closed");
        assert_eq!(cut("(sensitive value)", 5), None, "one unit is shown whole");
    }

    /// [`Rounded`] draws what [`table`] (tabled) draws, row by row.
    #[test]
    fn rounded_rows_draw_the_table() {
        let red = |s: &str| format!("\u{1b}[31m{s}\u{1b}[0m");
        let rows = vec![
            vec![
                red("-/+ replace (destroy then create)"),
                "module.a.aws_instance.web[\"x\"]".into(),
                "is tainted, so it must be replaced".into(),
            ],
            vec!["~ update in-place".to_string(), "terraform_data.x".into(), String::new()],
            vec!["+ create".to_string(), "日本語.名前".into(), "a\nb".into()],
            vec![String::new(), String::new(), "(sensitive value) and more text to wrap".into()],
        ];
        let header = ["action", "address", "details"];
        for max in [None, Some(30), Some(40), Some(60), Some(200)] {
            let whole = table(&header, rows.clone(), max);
            let mut columns = Columns::new(&header);
            rows.iter().for_each(|r| columns.add(r));
            let mut grid: Vec<Vec<String>> = std::iter::once(header.iter().map(|h| h.to_string()).collect()).chain(rows.clone()).collect();
            if let Some(max) = max {
                let widths = columns.widths(max);
                grid.iter_mut().for_each(|r| columns.wrap_row(r, &widths));
            }
            let widths: Vec<usize> = (0..3).map(|c| grid.iter().map(|r| width(&r[c])).max().unwrap_or(0)).collect();
            let r = Rounded::new(widths);
            let mut drawn = vec![r.top(), r.row(&grid[0]), r.under_heading()];
            drawn.extend(grid[1..].iter().map(|row| r.row(row)));
            drawn.push(r.bottom());
            assert_eq!(drawn.join("\n"), whole, "at {max:?}");
        }
    }

    #[test]
    fn long_words_are_broken_rather_than_lost() {
        let s = "x".repeat(50);
        let w = wrap(&s, 20, Kind::Text);
        assert_eq!(w.lines().map(str::len).collect::<Vec<_>>(), vec![20, 20, 10]);
    }

    #[test]
    fn colour_is_closed_and_reopened_around_a_break() {
        let s = "\u{1b}[31mreplace (destroy then create)\u{1b}[0m";
        let w = wrap(s, 12, Kind::Text);
        for l in w.lines() {
            assert!(l.starts_with("\u{1b}[31m") && l.ends_with("\u{1b}[0m"), "{w:?}");
            assert!(width(l) <= 12);
        }
        assert_eq!(width(s), 29);
    }

    #[test]
    fn tables_fit_their_width_and_keep_every_word() {
        let rows = vec![
            vec![
                "-/+ replace (destroy then create)".to_string(),
                "module.a.aws_instance.web[\"x\"]".into(),
                "is tainted, so it must be replaced".into(),
            ],
            vec!["~ update in-place".to_string(), "terraform_data.x".into(), String::new()],
        ];
        for max in [40, 60, 80, 100] {
            let t = table(&["action", "address", "details"], rows.clone(), Some(max));
            assert!(lines_fit(&t, max), "{max}:\n{t}");
            for word in ["tainted,", "replaced", "module.", "[\"x\"]", "in-place"] {
                assert!(t.contains(word), "{word} at {max}:\n{t}");
            }
        }
        let wide = table(&["action", "address", "details"], rows.clone(), None);
        assert_eq!(wide, table(&["action", "address", "details"], rows, Some(1000)), "a table that fits is unchanged");
        assert_eq!(wide.lines().count(), 6);
    }

    #[test]
    fn the_key_columns_give_way_last() {
        let rows = vec![vec!["~ update in-place".to_string(), "a.b".into(), "word ".repeat(40)]];
        let t = table(&["action", "address", "details"], rows, Some(60));
        assert!(t.contains("│ ~ update in-place │ a.b     │ word"), "{t}");
    }

    proptest::proptest! {
        #[test]
        fn any_table_fits_a_width_its_units_allow(
            cells in proptest::collection::vec("[a-z .\\[\\]\"_-]{0,60}|\\(sensitive value\\) [a-z]{0,30}", 1..12),
            cols in 1usize..6,
            max in 30usize..200,
        ) {
            let header: Vec<&str> = ["action", "address", "details", "reason", "type", "value"][..cols].to_vec();
            let rows: Vec<Vec<String>> = cells.chunks(cols).map(|c| {
                let mut r = c.to_vec();
                r.resize(cols, String::new());
                r
            }).collect();
            let t = table(&header, rows.clone(), Some(max));
            let need = 3 * cols + 1 + cols * 17;
            if max >= need {
                proptest::prop_assert!(lines_fit(&t, max), "{}:\n{}", max, t);
            }
            // Nothing is lost: each column holds the same non-blank
            // characters, in order (rows are not separated by rules).
            let body: Vec<Vec<&str>> = t.lines().skip(3).filter(|l| l.starts_with('│')).map(|l| l.split('│').collect()).collect();
            for c in 0..cols {
                let want: String = rows.iter().flat_map(|r| r[c].chars()).filter(|ch| !ch.is_whitespace()).collect();
                let got: String = body.iter().flat_map(|l| l[c + 1].chars()).filter(|ch| !ch.is_whitespace()).collect();
                proptest::prop_assert_eq!(want, got, "column {}:\n{}", c, t);
            }
        }
    }
}
