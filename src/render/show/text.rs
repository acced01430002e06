//! `show --format table`: the terminal text, as the CLI prints a plan.

use super::*;
fn terminal_line(l: &Line, style: &Style) -> String {
    if l.comment && l.text.is_empty() {
        return String::new();
    }
    let indent = "    ".repeat(l.depth + 1);
    let mut s = String::new();
    s.push_str(&indent);
    if l.comment {
        if !l.warning {
            s.push_str("  ");
        }
        s.push_str(&style.paint(&l.text, Tone::Muted));
    } else {
        match l.op {
            Some(op) => s.push_str(&style.paint(op.symbol(), op_tone(op))),
            None => s.push(' '),
        }
        s.push(' ');
        s.push_str(&l.text);
    }
    if let Some(n) = l.note {
        s.push(' ');
        s.push_str(&style.paint(n, Tone::Replace));
    }
    s
}

/// A resource's text; `location`: where its block is (`file:line`, after the header's words).
fn resource_text(
    w: &mut dyn Write,
    r: &ResourceDiff,
    invocations: &[InvocationDiff],
    style: &Style,
    location: Option<&crate::locate::Location>,
) -> io::Result<()> {
    let tone = kind_tone(&r.kind);
    let sym = r.kind.symbol();
    let at = location.map(|l| format!(" {}", style.paint(&format!("({})", clean(&l.to_string())), Tone::Muted))).unwrap_or_default();
    writeln!(
        w,
        "{} {}: {}{at}",
        style.paint(sym, tone),
        style.paint(&clean(&header_address(r)), Tone::Bold),
        style.paint(&clean(&header_words(r)), tone)
    )?;
    for n in notes(r) {
        writeln!(w, "    {}", style.paint(&format!("# {}", clean(&n)), Tone::Muted))?;
    }
    for l in resource_lines(r) {
        writeln!(w, "{}", terminal_line(&l, style))?;
    }
    for l in triggered_lines(r, invocations) {
        writeln!(w, "{}", terminal_line(&l, style))?;
    }
    Ok(())
}

fn report_text(
    w: &mut dyn Write,
    r: &ShowReport,
    res: &mut dyn Resources,
    many: bool,
    style: &Style,
    locations: Option<&crate::locate::SourceMap>,
) -> io::Result<()> {
    if many {
        writeln!(w, "{}", style.paint(&format!("== {} ==", clean(&r.file)), Tone::Bold))?;
    }
    if r.errored {
        writeln!(w, "{}", style.paint(&format!("!! {ERRORED}"), Tone::Bad))?;
    }
    let shown = res.count();
    let mut i = 0usize;
    res.each(&mut |res| {
        if i > 0 || r.errored {
            writeln!(w)?;
        }
        i += 1;
        resource_text(
            w,
            res,
            &r.invocations,
            style,
            locations.and_then(|m| m.locate_change(&res.address, res.reason.as_deref())).as_ref(),
        )?;
        Ok(true)
    })?;
    let invoked = invoked_lines(&r.invocations);
    if !invoked.is_empty() {
        if shown > 0 || r.errored {
            writeln!(w)?;
        }
        writeln!(w, "{}", style.paint(INVOKED_HEADING, Tone::Bold))?;
        for l in invoked {
            writeln!(w, "{}", terminal_line(&l, style))?;
        }
    }
    if !r.outputs.is_empty() {
        if shown > 0 {
            writeln!(w)?;
        }
        writeln!(w, "{}", style.paint("Changes to outputs:", Tone::Bold))?;
        for l in output_entries(&r.outputs) {
            writeln!(w, "{}", terminal_line(&l, style))?;
        }
    }
    let f = footer(r, shown);
    if !f.is_empty() {
        if shown > 0 || !r.outputs.is_empty() {
            writeln!(w)?;
        }
        for l in f {
            writeln!(w, "{}", style.paint(&l, Tone::Muted))?;
        }
    }
    Ok(())
}

/// Terminal text of every readable input, in order (a heading each when there are several).
pub(crate) fn table_items(w: &mut dyn Write, items: &[Item<'_>], style: &Style) -> io::Result<()> {
    let many = items.len() > 1;
    let mut first = true;
    for item in items {
        let Ok(r) = item.result else { continue };
        if !first {
            writeln!(w)?;
        }
        first = false;
        report_text(w, r, &mut **item.resources.borrow_mut(), many, style, item.locations)?;
    }
    Ok(())
}
