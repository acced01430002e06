//! THE markdown size fitter (a pull-request comment: GitHub takes at most
//! 65,536 characters), used by `summary`, `gate`, `comment` and `show`. A
//! report is a list of blocks; when the whole does not fit, table rows are
//! left out, the least important first ([`fit_ranked`]; from the end for
//! `summary` and `gate`), and a note in the caller's words says how many.
//! `show`, which streams, keeps the longest prefix that fits ([`Stream`]).

/// The default cap: GitHub's limit on a comment body (characters; bytes are
/// never fewer, so a byte cap is safe).
pub(crate) const DEFAULT_MAX_BYTES: usize = 65_536;

/// The smallest cap accepted by every `--max-bytes` (`summary`, `gate`,
/// `show`, `comment`): room for a verdict line and the trim note.
pub(crate) const MIN_MAX_BYTES: usize = 1_000;

/// One piece of a markdown report.
#[derive(Debug, Clone)]
pub(crate) enum Block {
    /// Always kept (verdict lines, headings, counts).
    Keep(String),
    /// A table (usually inside `<details>`) whose rows may be left out. A block
    /// none of whose rows fit is left out whole, `open` and `close` too.
    Rows {
        open: String,
        rows: Vec<String>,
        close: String,
        /// What a row is, for the note (`resource changes of plan.json`).
        what: String,
    },
}

/// How soon a table's rows go when the whole does not fit: the lowest rank
/// first (`Rank(kind, importance)`: by kind, then by importance), and among
/// tables of one rank the last table's last row first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Rank(pub u8, pub usize);

/// What a fitted report says when it left something out: the caller's words.
pub(crate) trait Notes {
    /// The closing note when rows were left out: `left_out[i]` of `totals[i]`
    /// rows of block `i` (0 for a block that is no table).
    fn trimmed(&self, left_out: &[usize], totals: &[usize]) -> String;
    /// The closing note when even what is always kept did not fit: cut at
    /// byte `end` of `len`.
    fn cut(&self, end: usize, len: usize) -> String;
}

/// `summary`'s and `gate`'s notes: rows of which table, and where the rest is.
struct TableNotes<'a> {
    blocks: &'a [Block],
    max: usize,
}

impl Notes for TableNotes<'_> {
    fn trimmed(&self, left_out: &[usize], totals: &[usize]) -> String {
        note(self.blocks, left_out, totals, self.max)
    }
    fn cut(&self, end: usize, len: usize) -> String {
        format!("\n> [!NOTE]\n> Cut at {end} of {len} bytes to fit {}. The full report: `--format json`.\n", self.max)
    }
}

/// Join the blocks, leaving out rows from the end if the whole is longer than
/// `max` bytes (`summary` and `gate`: every table of one rank; see
/// [`fit_ranked`]).
pub(crate) fn fit(blocks: &[Block], max: usize) -> String {
    fit_ranked("", blocks, &vec![Rank::default(); blocks.len()], max, &TableNotes { blocks, max })
}

/// THE markdown size fitter (`summary`, `gate`, `comment`; `show`, which
/// streams, keeps to the same rule through [`Stream`]): `head`, then the
/// blocks, within `max` bytes. When the whole is longer, table rows are left
/// out one at a time, the lowest [`Rank`] first (`ranks[i]` is block `i`'s),
/// a table none of whose rows is kept is left out whole (`open` and `close`
/// too), and the caller's note says what was left out. When even `head` and
/// the kept blocks do not fit, they are cut at a line end (`head` is always
/// kept), any `<details>` left open is closed, and the cut note says so. The
/// pieces are final (secrets were masked where their values were rendered),
/// so what is measured is what is written; the result is never longer than
/// `max` (for `max` at least [`MIN_MAX_BYTES`]).
pub(crate) fn fit_ranked(head: &str, blocks: &[Block], ranks: &[Rank], max: usize, notes: &dyn Notes) -> String {
    let weights: Vec<Weight> = blocks.iter().map(Weight::of).collect();
    let decision = decide(head.len(), &weights, ranks, max, notes);
    write(head, blocks, &decision, max, notes)
}

/// A block as [`decide`] weighs it: its lengths only (a caller that makes
/// rows only once it knows they are kept weighs them first).
#[derive(Debug, Clone)]
pub(crate) enum Weight {
    Keep(usize),
    /// `ends`: the length of `open` and `close` together; each row's length.
    Rows {
        ends: usize,
        rows: Vec<usize>,
    },
}

impl Weight {
    pub(crate) fn of(b: &Block) -> Weight {
        match b {
            Block::Keep(s) => Weight::Keep(s.len()),
            Block::Rows { open, rows, close, .. } => {
                Weight::Rows { ends: open.len() + close.len(), rows: rows.iter().map(String::len).collect() }
            }
        }
    }
}

/// What [`decide`] decided: how many of each block's first rows are kept.
#[derive(Debug, Clone)]
pub(crate) struct Decision {
    pub kept: Vec<usize>,
    totals: Vec<usize>,
    /// The length of the whole, every row kept.
    whole: usize,
    /// Whether the whole was longer than the cap (rows were left out, or the text is cut).
    over: bool,
    /// Whether the kept rows fit with room for the note (else the text is cut).
    fits: bool,
}

/// [`fit_ranked`]'s decision, over the blocks' lengths: which rows are kept.
/// Rows go the lowest rank first, among blocks of one rank the last block
/// first, each block's rows from its end.
pub(crate) fn decide(head: usize, weights: &[Weight], ranks: &[Rank], max: usize, notes: &dyn Notes) -> Decision {
    let size = |w: &Weight, kept: usize| match w {
        Weight::Keep(n) => *n,
        Weight::Rows { ends, rows } if kept > 0 => ends + rows[..kept].iter().sum::<usize>(),
        Weight::Rows { .. } => 0,
    };
    let totals: Vec<usize> = weights.iter().map(|w| if let Weight::Rows { rows, .. } = w { rows.len() } else { 0 }).collect();
    let mut kept = totals.clone();
    let mut total = head + weights.iter().zip(&kept).map(|(w, k)| size(w, *k)).sum::<usize>();
    let whole = total;
    if total <= max {
        return Decision { kept, totals, whole, over: false, fits: true };
    }
    // Room for the longest note possible: every row left out, or a cut of
    // the whole (fewer never needs more digits).
    let reserve = notes.trimmed(&totals, &totals).len().max(notes.cut(whole, whole).len());
    let budget = max.saturating_sub(reserve);
    // The blocks in the order their rows go (each one's from its end).
    let mut order: Vec<(Rank, std::cmp::Reverse<usize>)> =
        (0..weights.len()).filter(|i| totals[*i] > 0).map(|i| (ranks.get(i).copied().unwrap_or_default(), std::cmp::Reverse(i))).collect();
    order.sort();
    'blocks: for (_, std::cmp::Reverse(i)) in order {
        let Weight::Rows { ends, rows } = &weights[i] else { continue };
        while kept[i] > 0 {
            if total <= budget {
                break 'blocks;
            }
            kept[i] -= 1;
            total -= rows[kept[i]];
            if kept[i] == 0 {
                total -= ends;
            }
        }
    }
    Decision { kept, totals, whole, over: true, fits: total <= budget }
}

/// The text [`decide`] decided on: `head`, then the blocks with their kept
/// rows (a block of rows needs only its first `decision.kept` rows), then
/// the note; cut when even that did not fit.
pub(crate) fn write(head: &str, blocks: &[Block], decision: &Decision, max: usize, notes: &dyn Notes) -> String {
    let mut text = String::with_capacity(max.min(1 << 20));
    text.push_str(head);
    for (b, k) in blocks.iter().zip(&decision.kept) {
        match b {
            Block::Keep(s) => text.push_str(s),
            Block::Rows { open, rows, close, .. } if *k > 0 => {
                text.push_str(open);
                rows[..*k].iter().for_each(|r| text.push_str(r));
                text.push_str(close);
            }
            Block::Rows { .. } => {}
        }
    }
    if !decision.over {
        return text;
    }
    if decision.fits {
        let left_out: Vec<usize> = decision.totals.iter().zip(&decision.kept).map(|(t, k)| t - k).collect();
        text.push_str(&notes.trimmed(&left_out, &decision.totals));
        return text;
    }
    let budget =
        max.saturating_sub(notes.trimmed(&decision.totals, &decision.totals).len().max(notes.cut(decision.whole, decision.whole).len()));
    cut(&text, head.len(), decision.whole, budget, max, notes)
}

/// Last resort when even what is always kept does not fit: cut `text` at a
/// line end within `budget` (its first `keep` bytes stay), close any
/// `<details>` left open, and say so (of the `whole` report's length).
fn cut(text: &str, keep: usize, whole: usize, budget: usize, max: usize, notes: &dyn Notes) -> String {
    const CLOSE: &str = "\n</details>\n";
    let mut room = budget.min(text.len());
    loop {
        let mut end = room;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let end = text[..end].rfind('\n').map_or(0, |i| i + 1).max(keep.min(end));
        let head = &text[..end];
        let open = head.matches("<details>").count().saturating_sub(head.matches("</details>").count());
        let note = notes.cut(end, whole);
        if end + open * CLOSE.len() + note.len() <= max || end <= keep {
            let mut out = head.to_string();
            (0..open).for_each(|_| out.push_str(CLOSE));
            out.push_str(&note);
            return out;
        }
        room = end - 1;
    }
}

/// The same rule for markdown written as it is decided (`show`, which streams
/// a plan's changes and never holds them all): each piece is taken if it fits
/// with room left for the closing note ([`Stream::RESERVE`]); once one does
/// not, nothing after it is (order is kept: [`fit_ranked`] with every piece
/// of one rank, deciding without looking ahead), and the caller counts what
/// was left out.
pub(crate) struct Stream {
    max: usize,
    used: usize,
    stopped: bool,
}

impl Stream {
    /// Room kept for the note saying what was left out.
    pub(crate) const RESERVE: usize = 400;

    pub(crate) fn new(max: usize) -> Stream {
        Stream { max, used: 0, stopped: false }
    }

    /// Whether `n` more bytes fit (never once stopped).
    pub(crate) fn fits(&self, n: usize) -> bool {
        !self.stopped && self.room(n)
    }

    fn room(&self, n: usize) -> bool {
        self.used + n + Self::RESERVE <= self.max
    }

    /// Take `n` bytes if they fit, else stop: true when taken.
    pub(crate) fn take(&mut self, n: usize) -> bool {
        if self.fits(n) {
            self.used += n;
            true
        } else {
            self.stopped = true;
            false
        }
    }

    /// Take `n` bytes if there is room, stopped or not, and without stopping
    /// when there is none (a footer, dropped alone).
    pub(crate) fn take_if_room(&mut self, n: usize) -> bool {
        let room = self.room(n);
        if room {
            self.used += n;
        }
        room
    }

    /// Stop: nothing more is taken.
    pub(crate) fn stop(&mut self) {
        self.stopped = true;
    }

    /// The largest `k` in `0..=most` whose piece (`size(k)` bytes, growing
    /// with `k`) fits: how many of a piece's first lines can be kept.
    pub(crate) fn longest(&self, most: usize, size: impl Fn(usize) -> usize) -> usize {
        let (mut lo, mut hi) = (0usize, most);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if self.fits(size(mid)) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        lo
    }
}

#[cfg(test)]
fn whole(b: &Block) -> String {
    match b {
        Block::Keep(s) => s.clone(),
        Block::Rows { open, rows, close, .. } => {
            if rows.is_empty() {
                String::new()
            } else {
                format!("{open}{}{close}", rows.concat())
            }
        }
    }
}

/// How many labels the note names before "and N more tables".
const NOTE_LABELS: usize = 5;

fn note(blocks: &[Block], left_out: &[usize], totals: &[usize], max: usize) -> String {
    let mut parts = Vec::new();
    let mut sum_out = 0;
    let mut sum_all = 0;
    for (i, b) in blocks.iter().enumerate() {
        if let Block::Rows { what, .. } = b {
            sum_all += totals[i];
            if left_out[i] > 0 {
                sum_out += left_out[i];
                parts.push(format!("{} of {} {}", left_out[i], totals[i], what));
            }
        }
    }
    let more = parts.len().saturating_sub(NOTE_LABELS);
    parts.truncate(NOTE_LABELS);
    let mut listed = parts.join("; ");
    if more > 0 {
        listed.push_str(&format!("; and rows of {more} more table(s)"));
    }
    format!(
        "\n> [!NOTE]\n> Trimmed to fit {max} bytes: left out {sum_out} of {sum_all} table rows ({listed}). \
         The full report: `--format json`, or a larger `--max-bytes`.\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(rows: usize) -> Vec<Block> {
        vec![
            Block::Keep("## verdict\n".into()),
            Block::Rows {
                open: "<details>\n\n| a |\n|---|\n".into(),
                rows: (0..rows).map(|i| format!("| row {i:05} |\n")).collect(),
                close: "\n</details>\n".into(),
                what: "rows of x".into(),
            },
            Block::Keep("tail\n".into()),
        ]
    }

    #[test]
    fn short_reports_are_untouched() {
        let s = fit(&report(3), 10_000);
        assert_eq!(s, "## verdict\n<details>\n\n| a |\n|---|\n| row 00000 |\n| row 00001 |\n| row 00002 |\n\n</details>\ntail\n");
    }

    #[test]
    fn long_reports_are_trimmed_below_the_cap_and_say_so() {
        for max in [MIN_MAX_BYTES, 1_024, 2_000, 5_000, 65_536] {
            let s = fit(&report(20_000), max);
            assert!(s.len() <= max, "{} > {max}", s.len());
            assert!(s.starts_with("## verdict\n"));
            assert!(s.contains("</details>\ntail\n"), "details closed and later blocks kept");
            assert!(s.contains("of 20000 rows of x"), "{s}");
            assert!(s.len() > max - 200, "uses the room it has: {} of {max}", s.len());
        }
    }

    #[test]
    fn headings_alone_too_long_are_cut_and_closed() {
        let blocks = vec![Block::Keep("<details>\n".into()), Block::Keep("x\n".repeat(5_000))];
        let s = fit(&blocks, MIN_MAX_BYTES);
        assert!(s.len() <= MIN_MAX_BYTES);
        assert!(s.contains("</details>"));
        assert!(s.contains("Cut at"));
    }

    proptest::proptest! {
        #[test]
        fn never_longer_than_the_cap(
            keeps in proptest::collection::vec(0usize..300, 1..6),
            tables in proptest::collection::vec((0usize..400, 1usize..200), 0..6),
            max in MIN_MAX_BYTES..20_000,
        ) {
            let mut blocks = Vec::new();
            for (i, k) in keeps.iter().enumerate() {
                blocks.push(Block::Keep(format!("{}\n", "k".repeat(*k))));
                if let Some((rows, width)) = tables.get(i) {
                    blocks.push(Block::Rows {
                        open: "<details>\n".into(),
                        rows: (0..*rows).map(|_| format!("{}\n", "r".repeat(*width))).collect(),
                        close: "</details>\n".into(),
                        what: format!("table {i}"),
                    });
                }
            }
            let full: usize = blocks.iter().map(|b| whole(b).len()).sum();
            let s = fit(&blocks, max);
            proptest::prop_assert!(s.len() <= max, "{} > {}", s.len(), max);
            proptest::prop_assert_eq!(s.len() == full && !s.contains("[!NOTE]"), full <= max);
            proptest::prop_assert_eq!(s.matches("<details>").count(), s.matches("</details>").count());
        }
    }
}
