//! `show --format markdown`: diff blocks for PR comments, within a size cap.

use super::*;
use crate::render::link::Forge;
/// The diff-block symbol: `!` for in-place changes (highlighted by GitHub), `+`, `-`, space.
fn md_symbol(op: Option<Op>) -> &'static str {
    match op {
        Some(Op::Add) => "+",
        Some(Op::Remove) => "-",
        Some(Op::Update) => "!",
        Some(Op::Same) | None => " ",
    }
}

fn md_line(l: &Line) -> String {
    if l.comment && l.text.is_empty() {
        return String::new();
    }
    let indent = "    ".repeat(l.depth);
    let mut s = if l.comment { format!("  {indent}{}", l.text) } else { format!("{}{indent} {}", md_symbol(l.op), l.text) };
    if let Some(n) = l.note {
        s.push(' ');
        s.push_str(n);
    }
    s
}

/// [`md_line`] made in the line's own text (a long value is not copied).
fn md_line_owned(l: Line) -> String {
    if l.comment && l.text.is_empty() {
        return String::new();
    }
    let indent = "    ".repeat(l.depth);
    let head = if l.comment { format!("  {indent}") } else { format!("{}{indent} ", md_symbol(l.op)) };
    let mut s = l.text;
    s.reserve_exact(head.len() + l.note.map_or(0, |n| n.len() + 1));
    s.insert_str(0, &head);
    if let Some(n) = l.note {
        s.push(' ');
        s.push_str(n);
    }
    s
}

/// The longest run of backticks in `lines` (a fence must be longer).
fn longest_backticks(lines: &[String]) -> usize {
    lines.iter().flat_map(|l| l.split(|c| c != '`')).map(str::len).max().unwrap_or(0)
}

/// A fenced `diff` block whose fence no line can close.
fn diff_block(lines: &[String]) -> String {
    let longest = longest_backticks(lines);
    let fence = "`".repeat(longest.max(2) + 1);
    let mut s = format!("{fence}diff\n");
    for l in lines {
        s.push_str(l);
        s.push('\n');
    }
    s.push_str(&fence);
    s.push('\n');
    s
}

/// A resource's markdown: the heading and notes, and the diff lines.
/// `location`: where its block is (`` `addr` at `main.tf:12` ``).
fn resource_md_parts(
    r: &ResourceDiff,
    invocations: &[InvocationDiff],
    location: Option<&crate::locate::Location>,
    forge: Option<&Forge>,
) -> (String, Vec<String>) {
    let sym = r.kind.symbol().trim();
    let sym = if sym.is_empty() { String::new() } else { format!("{} ", md_code(sym)) };
    let address = crate::render::link::md_address(md_code(&header_address(r)), location, forge);
    let mut head = format!("#### {sym}{address} — {}\n", md_cell(&header_words(r)));
    for n in notes(r) {
        head.push_str(&format!("_{}_\n", md_cell(&n)));
    }
    let mut lines = resource_lines(r);
    lines.extend(triggered_lines(r, invocations));
    (head, lines.into_iter().map(md_line_owned).collect())
}

/// The length of [`resource_md_block`]`(head, lines, keep)`, counted
/// without making it (a diff too long to fit is never written out whole).
fn resource_md_len(head: &str, lines: &[String], keep: Option<usize>) -> usize {
    let k = keep.map_or(lines.len(), |k| k.min(lines.len()));
    let shown = &lines[..k];
    let note = keep.filter(|k| *k < lines.len()).map(|k| format!("  # ... {} more lines left out to fit the size limit", lines.len() - k));
    if shown.is_empty() && note.is_none() {
        return head.len() + 1;
    }
    let note_ticks = note.as_deref().map_or(0, |n| n.split(|c| c != '`').map(str::len).max().unwrap_or(0));
    let fence = longest_backticks(shown).max(note_ticks).max(2) + 1;
    let body: usize = shown.iter().map(|l| l.len() + 1).sum::<usize>() + note.map_or(0, |n| n.len() + 1);
    // head, "\n", fence "diff\n", the lines, fence "\n", "\n"
    head.len() + 1 + fence + 5 + body + fence + 1 + 1
}

/// The block of a resource, with only its first `keep` diff lines when given.
fn resource_md_block(head: &str, lines: &[String], keep: Option<usize>) -> String {
    let mut s = head.to_string();
    let mut shown: Vec<String> = match keep {
        Some(k) => lines[..k.min(lines.len())].to_vec(),
        None => lines.to_vec(),
    };
    if let Some(k) = keep.filter(|k| *k < lines.len()) {
        shown.push(format!("  # ... {} more lines left out to fit the size limit", lines.len() - k));
    }
    if !shown.is_empty() {
        s.push('\n');
        s.push_str(&diff_block(&shown));
    }
    s.push('\n');
    s
}

fn outputs_md(outputs: &[OutputDiff]) -> String {
    let lines: Vec<String> = output_entries(outputs).iter().map(md_line).collect();
    format!("#### Changes to outputs\n\n{}\n", diff_block(&lines))
}

/// Markdown within `max_bytes` (measured after secrets are scrubbed), over
/// items whose resources are built when asked for: the
/// text is written as it is decided (nothing written is taken back), and
/// once something is left out the resources after it are counted, not built.
/// `forge`: where each address links to (its block's lines), when known.
pub(crate) fn markdown_items(w: &mut dyn Write, items: &[Item<'_>], max_bytes: usize, forge: Option<&Forge>) -> io::Result<()> {
    // Once something is left out or cut short, everything after it is left
    // out (order is kept): the one fitter's rule, streamed.
    let mut stream = crate::render::fit::Stream::new(max_bytes);
    let (mut left_res, mut left_out, mut cut_short) = (0usize, 0usize, 0usize);
    for item in items {
        let Ok(r) = item.result else { continue };
        let mut resources = item.resources.borrow_mut();
        let count = resources.count();
        let scrub = item.masker.scrubber();
        // Secrets are scrubbed from the output afterwards: count the longer form.
        let size = |s: &str| s.len().max(scrub.scrub(s.as_bytes()).len());
        let mut head = format!("### planview show: {}\n\n", md_code(&r.file));
        if r.errored {
            head.push_str(&format!("> **{}**\n\n", md_cell(ERRORED)));
        }
        if !stream.take(size(&head)) {
            left_res += count;
            left_out += r.outputs.len();
            continue;
        }
        w.write_all(head.as_bytes())?;
        let mut seen = 0usize;
        resources.each(&mut |res| {
            seen += 1;
            let (h, lines) = resource_md_parts(
                res,
                &r.invocations,
                item.locations.and_then(|m| m.locate_change(&res.address, res.reason.as_deref())).as_ref(),
                forge,
            );
            // A block is made (and its secrets scrubbed to count them) only
            // when its length fits: what is longer can only be longer scrubbed.
            if stream.fits(resource_md_len(&h, &lines, None)) {
                let whole = resource_md_block(&h, &lines, None);
                if stream.fits(size(&whole)) {
                    stream.take(size(&whole));
                    w.write_all(whole.as_bytes())?;
                    return Ok(true);
                }
            }
            // Too big: keep as many of its first lines as fit, if a useful part does.
            let lo = stream.longest(lines.len(), |k| match resource_md_len(&h, &lines, Some(k)) {
                n if !stream.fits(n) => n,
                _ => size(&resource_md_block(&h, &lines, Some(k))),
            });
            if lo >= 3 {
                let b = resource_md_block(&h, &lines, Some(lo));
                stream.take_if_room(size(&b));
                w.write_all(b.as_bytes())?;
                cut_short += 1;
            } else {
                left_res += 1;
            }
            stream.stop();
            Ok(false)
        })?;
        // The ones after a stop were not built: all left out.
        left_res += count - seen;
        let invoked: Vec<String> = invoked_lines(&r.invocations).iter().map(md_line).collect();
        if !invoked.is_empty() {
            let b = format!("#### {INVOKED_HEADING}\n\n{}\n", diff_block(&invoked));
            if stream.take(size(&b)) {
                w.write_all(b.as_bytes())?;
            } else {
                left_res += InvocationDiff::invoked(&r.invocations).len();
            }
        }
        if !r.outputs.is_empty() {
            let b = outputs_md(&r.outputs);
            if stream.take(size(&b)) {
                w.write_all(b.as_bytes())?;
            } else {
                left_out += r.outputs.len();
            }
        }
        let mut tail = String::new();
        for l in footer(r, count) {
            tail.push_str(&format!("_{}_\n", md_cell(&l)));
        }
        if !tail.is_empty() {
            tail.push('\n');
        }
        // The footer is dropped alone: it stops nothing.
        if stream.take_if_room(size(&tail)) {
            w.write_all(tail.as_bytes())?;
        }
    }
    if left_res + left_out + cut_short > 0 {
        let cut = if cut_short > 0 { format!("{cut_short} resource change cut short, ") } else { String::new() };
        w.write_all(
            format!(
                "> **Trimmed to fit {max_bytes} bytes:** {cut}{left_res} resource change{} and {left_out} output change{} left out. \
                 Run `planview show` locally (or raise `--max-bytes`) for the full report.\n",
                if left_res == 1 { "" } else { "s" },
                if left_out == 1 { "" } else { "s" }
            )
            .as_bytes(),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_md_len_is_the_block_length() {
        let sets: [&[&str]; 5] =
            [&[], &["+ a = 1"], &["+ a = \"```\"", "  b", ""], &["! x = \"`\" -> \"``````\"", "+ y"], &["é ünï", "- z"]];
        for lines in sets {
            let lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            for head in ["", "#### `a` — will be created\n"] {
                for keep in [None, Some(0), Some(1), Some(2), Some(9)] {
                    assert_eq!(resource_md_len(head, &lines, keep), resource_md_block(head, &lines, keep).len(), "{lines:?} {keep:?}");
                }
            }
        }
    }

    #[test]
    fn md_line_owned_is_md_line() {
        for (op, depth, text, note, comment) in [
            (Some(Op::Add), 0, "a = 1", None, false),
            (Some(Op::Update), 2, "b = \"x\" -> \"y\"", Some("# forces replacement"), false),
            (None, 1, "# (3 unchanged attributes hidden)", None, true),
            (None, 1, "", None, true),
            (Some(Op::Remove), 3, "", None, false),
        ] {
            let l = Line { op, depth, text: text.to_string(), note, comment, warning: false };
            let want = md_line(&l);
            assert_eq!(md_line_owned(l), want);
        }
    }

    #[test]
    fn diff_block_fence_outgrows_backticks_in_the_content() {
        let b = diff_block(&["+ a = \"```\"".to_string(), "+ b = \"````x\"".to_string()]);
        assert!(b.starts_with("`````diff\n"), "{b}");
        assert!(b.ends_with("\n`````\n"));
        assert!(diff_block(&["+ plain".to_string()]).starts_with("```diff\n"));
    }
}
