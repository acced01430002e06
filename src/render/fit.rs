//! Fitting markdown into a size cap (a pull-request comment: GitHub takes at
//! most 65,536 characters). A report is a list of blocks; when the whole does
//! not fit, table rows are left out from the end, and a note says how many.

/// The default cap: GitHub's limit on a comment body (characters; bytes are
/// never fewer, so a byte cap is safe).
pub(crate) const DEFAULT_MAX_BYTES: usize = 65_536;

/// The smallest cap accepted: room for a verdict line and the trim note.
pub(crate) const MIN_MAX_BYTES: usize = 1_024;

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

/// Join the blocks, leaving out rows if the whole is longer than `max` bytes.
/// The pieces are final (secrets were masked where their values were
/// rendered), so what is measured is what is written. The result is never
/// longer than `max` (for `max` at least [`MIN_MAX_BYTES`]).
pub(crate) fn fit(blocks: &[Block], max: usize) -> String {
    let full: String = blocks.iter().map(whole).collect();
    if full.len() <= max {
        return full;
    }
    let total_rows: Vec<usize> = blocks.iter().map(|b| if let Block::Rows { rows, .. } = b { rows.len() } else { 0 }).collect();
    // The longest note possible: every row left out (fewer left out never
    // needs more digits).
    let reserve = note(blocks, &total_rows, &total_rows, max).len();
    let skeleton: usize = blocks
        .iter()
        .map(|b| match b {
            Block::Keep(s) => s.len(),
            Block::Rows { open, close, .. } => open.len() + close.len(),
        })
        .sum();
    if skeleton + reserve > max {
        return cut(&full, max);
    }
    let mut budget = max - skeleton - reserve;
    let mut kept = vec![0usize; blocks.len()];
    'outer: for (i, b) in blocks.iter().enumerate() {
        if let Block::Rows { rows, .. } = b {
            for r in rows {
                if r.len() > budget {
                    break 'outer;
                }
                budget -= r.len();
                kept[i] += 1;
            }
        }
    }
    let left_out: Vec<usize> = total_rows.iter().zip(&kept).map(|(t, k)| t - k).collect();
    let mut out = String::with_capacity(max);
    for (i, b) in blocks.iter().enumerate() {
        match b {
            Block::Keep(s) => out.push_str(s),
            Block::Rows { open, rows, close, .. } => {
                if kept[i] > 0 {
                    out.push_str(open);
                    rows[..kept[i]].iter().for_each(|r| out.push_str(r));
                    out.push_str(close);
                }
            }
        }
    }
    out.push_str(&note(blocks, &left_out, &total_rows, max));
    out
}

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

/// Last resort when even the headings do not fit: cut at a line end and close
/// any `<details>` left open.
fn cut(full: &str, max: usize) -> String {
    let tail_room = 200;
    let mut end = max.saturating_sub(tail_room).min(full.len());
    while !full.is_char_boundary(end) {
        end -= 1;
    }
    let end = full[..end].rfind('\n').map_or(0, |i| i + 1);
    let head = &full[..end];
    let open = head.matches("<details>").count().saturating_sub(head.matches("</details>").count());
    let mut out = head.to_string();
    for _ in 0..open {
        out.push_str("\n</details>\n");
    }
    out.push_str(&format!("\n> [!NOTE]\n> Cut at {end} of {} bytes to fit {max}. The full report: `--format json`.\n", full.len()));
    out
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
        for max in [1_024, 2_000, 5_000, 65_536] {
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
        let s = fit(&blocks, 1_024);
        assert!(s.len() <= 1_024);
        assert!(s.contains("</details>"));
        assert!(s.contains("Cut at"));
    }

    proptest::proptest! {
        #[test]
        fn never_longer_than_the_cap(
            keeps in proptest::collection::vec(0usize..300, 1..6),
            tables in proptest::collection::vec((0usize..400, 1usize..200), 0..6),
            max in 1_024usize..20_000,
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
