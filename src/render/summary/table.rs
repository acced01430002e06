//! `summary --format table`: the terminal report.

use super::*;

/// The terminal report, lines wider than the style's width wrapped (tables fit already).
/// Written line by line as it is made ([`super::stream::Fitted`]): a spooled
/// list of changes is never held.
pub(crate) fn table_out(w: &mut dyn Write, items: &[PerFile<Summary>], style: &Style) -> io::Result<()> {
    let mut fitted = super::stream::Fitted::new(w, style);
    table_unfitted(&mut fitted, items, style)?;
    fitted.finish()
}

pub(super) fn table_unfitted(w: &mut dyn Write, items: &[PerFile<Summary>], style: &Style) -> io::Result<()> {
    let many = items.len() > 1;
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            writeln!(w)?;
        }
        match &item.result {
            Ok(Summary::Plan(p)) => plan_table(w, &item.file, p, style)?,
            Ok(Summary::State(s)) => state_table(w, &item.file, s, style)?,
            Err(e) => {
                writeln!(w, "{}", style.paint(&format!("== {} ==", line(&item.file)), Tone::Bold))?;
                writeln!(w, "{} {}: {}", style.paint("error:", Tone::Bad), line(&e.location()), line(&e.message))?;
                if let Some(hint) = &e.hint {
                    writeln!(w, "  hint: {}", line(hint))?;
                }
            }
        }
    }
    if many {
        let ok: Vec<&Summary> = items.iter().filter_map(|i| i.result.as_ref().ok()).collect();
        let failed = items.iter().filter(|i| i.result.is_err()).count() as u64;
        let t = sum(&ok, failed);
        writeln!(w)?;
        writeln!(w, "{}", style.paint(&format!("== total over {} files ==", t.files), Tone::Bold))?;
        total_lines(w, &t, style)?;
    }
    Ok(())
}

pub(super) fn total_lines(w: &mut dyn Write, t: &SummaryTotal, style: &Style) -> io::Result<()> {
    if t.plans > 0 {
        writeln!(w, "{}", style.paint(&t.totals.plan_line(), Tone::Bold))?;
        if let Some(n) = NoiseCount::line_of(t.noise.as_ref()) {
            writeln!(w, "{n}")?;
        }
        writeln!(
            w,
            "{} plans: moved {} · forgotten {} · read {} · deposed {} · drifted {} · checks: {}",
            t.plans,
            t.moved,
            t.forgotten,
            t.read,
            t.deposed,
            t.drift,
            counts_line(&t.checks, plain)
        )?;
    }
    if t.states > 0 {
        writeln!(w, "{} states: {} resources", t.states, t.state_resources)?;
    }
    if t.errored > 0 {
        writeln!(w, "{}", style.paint(&format!("{} plan(s) ERRORED", t.errored), Tone::Bad))?;
    }
    if t.incomplete > 0 {
        writeln!(w, "{}", style.paint(&format!("{} plan(s) INCOMPLETE", t.incomplete), Tone::Bad))?;
    }
    if t.deferred + t.invocations > 0 {
        writeln!(w, "deferred changes {} · actions to invoke {}", t.deferred, t.invocations)?;
    }
    if t.failed > 0 {
        writeln!(w, "{}", style.paint(&format!("{} file(s) could not be read: totals are incomplete", t.failed), Tone::Bad))?;
    }
    if t.unrecognised > 0 {
        writeln!(
            w,
            "{}",
            style.paint(&format!("{} change(s) with unrecognised actions are not in the totals", t.unrecognised), Tone::Warn)
        )?;
    }
    Ok(())
}

pub(super) fn header(w: &mut dyn Write, file: &str, kind: &str, tf: Option<&str>, fv: &str, style: &Style) -> io::Result<()> {
    let tf = tf.map(|v| format!(" · terraform {}", line(v))).unwrap_or_default();
    writeln!(w, "{}", style.paint(&format!("== {} ({kind}{tf} · format {}) ==", line(file), line(fv)), Tone::Bold))
}

pub(super) fn plan_table(w: &mut dyn Write, file: &str, p: &PlanSummary, style: &Style) -> io::Result<()> {
    header(w, file, "plan", p.terraform_version.as_deref(), &p.format_version, style)?;
    if p.errored {
        writeln!(
            w,
            "{}",
            style.paint(
                "!! PLAN ERRORED: planning failed and this plan cannot be applied; only the changes planned before the error are listed",
                Tone::Bad
            )
        )?;
    }
    if p.incomplete && !p.errored {
        writeln!(w, "{}", style.paint(INCOMPLETE_BANNER, Tone::Bad))?;
    }
    for u in &p.unreadable {
        writeln!(w, "{}", style.paint(&format!("!! planview could not read {}", line(u)), Tone::Bad))?;
    }
    // `plan_line` ends with the CLI's `Actions: N to invoke.` already.
    writeln!(w, "{}", style.paint(&p.plan_line, if p.has_changes { Tone::Bold } else { Tone::Good }))?;
    if let Some(n) = NoiseCount::line_of(p.noise.as_ref()) {
        writeln!(w, "{}", line(&n))?;
    }
    if p.deferred > 0 {
        writeln!(w, "{}", style.paint(&format!("{} change(s) deferred to a later plan (not in the Plan line)", p.deferred), Tone::Warn))?;
    }
    writeln!(
        w,
        "moved {} · imported {} · forgotten {} · read {} · deposed {} · drifted {}",
        p.moved, p.imported, p.forgotten, p.read, p.deposed, p.drift
    )?;
    let checks_total: u64 = p.checks.values().sum();
    if checks_total > 0 {
        let fails = p.checks.get("fail").copied().unwrap_or(0) + p.checks.get("error").copied().unwrap_or(0);
        let tone = if fails > 0 { Tone::Bad } else { Tone::Good };
        writeln!(w, "checks: {}", style.paint(&counts_line(&p.checks, plain), tone))?;
        for c in p.failing_checks.iter().take(FAILING_CHECKS_LISTED) {
            writeln!(w, "  {} {}: {}", style.paint(&line(&c.status), Tone::Bad), line(&c.address), line(&c.problem))?;
        }
        if let Some(more) = more_failing(p) {
            writeln!(w, "  {more}")?;
        }
    }
    let imported_then_destroyed = imported_then_destroyed(p)?;
    if !imported_then_destroyed.is_empty() {
        writeln!(
            w,
            "{}",
            style.paint(
                &format!(
                    "warning: this will destroy the imported resource(s) (the CLI's warning): {}",
                    line(&imported_then_destroyed.join(", "))
                ),
                Tone::Warn
            )
        )?;
    }
    if !p.output_changes.is_empty() {
        writeln!(w, "outputs: {}", counts_line(&p.output_changes, plain))?;
    }
    for (o, msg) in deprecated_changes(p) {
        let text = format!("output {} changes ({}) and is deprecated: {}", line(&o.name), line(&o.action), line(msg));
        writeln!(w, "{}", style.paint(&text, Tone::Warn))?;
    }
    if p.unrecognised > 0 {
        writeln!(
            w,
            "{}",
            style.paint(
                &format!(
                    "warning: {} change(s) have action lists planview does not recognise; they are listed but not in the totals",
                    p.unrecognised
                ),
                Tone::Warn
            )
        )?;
    }
    if !p.resources.is_empty() {
        writeln!(w)?;
        changes_table(w, &p.resources, p.noise.as_ref(), style)?;
    }
    if !p.deferred_changes.is_empty() {
        writeln!(w)?;
        writeln!(w, "{}", style.paint("Deferred to a later plan:", Tone::Bold))?;
        resource_table(w, &p.deferred_changes, None, style)?;
    }
    if !p.action_invocations.is_empty() {
        writeln!(w)?;
        let rows = p
            .action_invocations
            .iter()
            .map(|a| vec![style.paint("invoke", Tone::Warn), line(&a.address).into_owned(), line(&invocation_details(a)).into_owned()])
            .collect();
        writeln!(w, "{}", style.table(&["action", "address", "details"], rows))?;
    }
    if p.refresh_only && !p.drifted.is_empty() {
        writeln!(w)?;
        writeln!(w, "{}", style.paint("Changed outside of Terraform/OpenTofu (refresh-only):", Tone::Bold))?;
        changes_table(w, &p.drifted, None, style)?;
    }
    Ok(())
}

/// How many failing checks `summary` names (the rest are counted; `checks` lists them all).
pub(super) const FAILING_CHECKS_LISTED: usize = 5;

/// `... and N more: planview checks lists them`, when more checks fail than are named.
pub(super) fn more_failing(p: &PlanSummary) -> Option<String> {
    let n = p.failing_checks.len().saturating_sub(FAILING_CHECKS_LISTED);
    (n > 0).then(|| format!("... and {n} more: `planview checks` lists them"))
}

/// The managed resources this plan imports and then destroys (a delete or a
/// replace of an object being imported): the import brings the object under
/// management only for it to be destroyed.
pub(crate) fn imported_then_destroyed(p: &PlanSummary) -> io::Result<Vec<String>> {
    let mut found = Vec::new();
    if p.resources.iter().any(|r| r.importing) || p.resources.spilled() {
        p.resources.each(|r| {
            if r.importing && r.mode == "managed" && r.actions.iter().any(|a| a == "delete") {
                found.push(r.address.clone());
            }
            Ok(())
        })?;
    }
    Ok(found)
}

/// The table of a list of changes: [`resource_table`], or drawn from its
/// spool ([`super::stream::spooled_table`]).
fn changes_table(w: &mut dyn Write, list: &crate::query::summary::Listed, noise: Option<&NoiseCount>, style: &Style) -> io::Result<()> {
    if list.spilled() {
        super::stream::spooled_table(w, list, noise, style)
    } else {
        resource_table(w, list, noise, style)
    }
}

/// The banner of an incomplete plan (not errored: that one has its own).
pub(crate) const INCOMPLETE_BANNER: &str =
    "!! PLAN INCOMPLETE: made with -target, or changes are deferred to a later plan; what it leaves out is not planned";

/// The details of an action invocation: its trigger, and why it was deferred.
/// Output changes (not no-ops) of outputs the configuration marks deprecated.
pub(super) fn deprecated_changes(p: &PlanSummary) -> impl Iterator<Item = (&crate::query::summary::OutputChangeEntry, &str)> {
    p.outputs.iter().filter(|o| o.action != "no-op").filter_map(|o| o.deprecated.as_deref().map(|d| (o, d)))
}

/// State outputs marked deprecated, one line each.
pub(super) fn deprecated_outputs(w: &mut dyn Write, outputs: &[crate::query::values::OutputReport], style: &Style) -> io::Result<()> {
    for o in outputs {
        if let Some(d) = &o.deprecated {
            writeln!(w, "{}", style.paint(&format!("output {} is deprecated: {}", line(&o.name), line(d)), Tone::Warn))?;
        }
    }
    Ok(())
}

pub(crate) fn invocation_details(a: &InvocationEntry) -> String {
    let mut d = Vec::new();
    if let Some(t) = &a.trigger {
        d.push(format!("triggered by {t}"));
    }
    if let Some(f) = &a.on_failure {
        d.push(format!("on failure: {}", crate::model::OnFailure::parse(f).map_or(f.as_str(), |o| o.keyword())));
    }
    if let Some(r) = &a.deferred_reason {
        d.push(format!("deferred: {r}"));
    }
    d.join("; ")
}

/// The change a row shows (the first of alike ones).
fn first<'a>(row: &Row<'a>) -> &'a ResourceEntry {
    match row {
        Row::One(r) => r,
        Row::Alike { first, .. } => first,
    }
}

/// How many members' keys a collapsed row names.
pub(super) const KEYS_SHOWN: usize = 5;

/// The details of a collapsed row in the terminal: how many (`count`), the
/// first keys (`keys`: at least the first [`KEYS_SHOWN`]).
pub(super) fn alike_words(count: usize, keys: &[String]) -> String {
    let more = count.saturating_sub(KEYS_SHOWN);
    let more = if more > 0 { format!(", ... ({more} more)") } else { String::new() };
    let first = if let [one] = keys { one.clone() } else { keys.iter().take(KEYS_SHOWN).cloned().collect::<Vec<_>>().join(", ") };
    format!("{count} alike: {first}{more}")
}

/// The cells of a row of the table of changes: `r` alone, or the first of
/// alike changes (`alike`: their label, how many, the first keys).
pub(super) fn row_cells(r: &ResourceEntry, alike: Option<(&str, usize, &[String])>, style: &Style) -> Vec<String> {
    let (address, details) = match alike {
        None => (line(&r.address).into_owned(), line(&details(r).join("; ")).into_owned()),
        Some((label, count, keys)) => (line(label).into_owned(), line(&alike_words(count, keys)).into_owned()),
    };
    let sym =
        crate::model::ChangeKind::from_actions(&r.actions.iter().map(|a| crate::model::Action::parse(a)).collect::<Vec<_>>()).symbol();
    let sym = if r.action == "no-op" { "" } else { sym };
    let tone = action_tone(&r.action);
    vec![style.paint(line(&format!("{sym} {}", action_words(r))).trim_start(), tone), address, details]
}

/// The noise row of the table of changes (`noise`'s patterns), if any.
pub(super) fn noise_row(noise: Option<&NoiseCount>, style: &Style) -> Option<Vec<String>> {
    let n = noise.filter(|n| n.count > 0)?;
    let what = format!("noise: {}", n.what());
    Some(vec![style.paint("~ update in-place", Tone::Muted), format!("({} resources)", n.count), line(&what).into_owned()])
}

/// A row's `source` cell.
pub(super) fn source_cell(r: &ResourceEntry) -> String {
    r.location.as_ref().map_or_else(|| "-".to_string(), |l| line(&l.to_string()).into_owned())
}

/// The table of changes; the noise entries (with `noise`'s patterns) collapsed into one last row.
/// A `source` column (`file:line` of each change's block) when the
/// configuration was read, holds some of them, and the column fits ([`source_fits`]).
pub(super) fn resource_table(w: &mut dyn Write, resources: &[ResourceEntry], noise: Option<&NoiseCount>, style: &Style) -> io::Result<()> {
    let shown: Vec<Row<'_>> = super::rows(resources);
    let mut rows: Vec<Vec<String>> = shown
        .iter()
        .map(|row| match row {
            Row::One(r) => row_cells(r, None, style),
            Row::Alike { first, label, keys } => row_cells(first, Some((label, keys.len(), keys)), style),
        })
        .collect();
    rows.extend(noise_row(noise, style));
    if shown.iter().any(|r| first(r).location.is_some()) {
        let sources: Vec<String> = shown.iter().map(|r| source_cell(first(r))).collect();
        if source_fits(&rows, &sources, style.width) {
            for (i, row) in rows.iter_mut().enumerate() {
                row.insert(2, sources.get(i).cloned().unwrap_or_else(|| "-".to_string()));
            }
            return writeln!(w, "{}", style.table(&["action", "address", "source", "details"], rows));
        }
    }
    writeln!(w, "{}", style.table(&["action", "address", "details"], rows))
}

/// Whether a `source` column fits beside the others: the action, address and
/// source columns whole, and the details at least 20 columns wide (or whole),
/// within `width` (no limit: always).
fn source_fits(rows: &[Vec<String>], sources: &[String], width: Option<usize>) -> bool {
    let widest =
        |c: usize, heading: &str| rows.iter().map(|r| crate::render::layout::width(&r[c])).chain([heading.len()]).max().unwrap_or(0);
    let source = sources.iter().map(|s| crate::render::layout::width(s)).chain(["source".len()]).max().unwrap_or(0);
    source_fits_in([widest(0, "action"), widest(1, "address"), widest(2, "details")], source, width)
}

/// [`source_fits`] given the widest cell of the action, address and details
/// columns (headings included) and of the sources.
pub(super) fn source_fits_in(widest: [usize; 3], source: usize, width: Option<usize>) -> bool {
    let Some(max) = width else { return true };
    let needed = widest[0] + widest[1] + source + widest[2].min(20) + 3 * 4 + 1;
    needed <= max
}

pub(super) fn state_table(w: &mut dyn Write, file: &str, s: &StateSummary, style: &Style) -> io::Result<()> {
    header(w, file, "state", s.terraform_version.as_deref(), &s.format_version, style)?;
    let c = &s.counts;
    let tainted = if c.tainted > 0 { style.paint(&format!(", {} tainted", c.tainted), Tone::Warn) } else { String::new() };
    writeln!(w, "State: {} resources ({} managed, {} data){tainted}, {} outputs", c.resources, c.managed, c.data, s.outputs.len())?;
    if s.checks.values().sum::<u64>() > 0 {
        writeln!(w, "checks: {}", counts_line(&s.checks, plain))?;
    }
    if !s.resources.is_empty() {
        // Counts by module and type.
        let mut by: BTreeMap<(String, String), u64> = BTreeMap::new();
        for r in &s.resources {
            *by.entry((r.module.clone().unwrap_or_else(|| "(root)".into()), r.type_.clone())).or_default() += 1;
        }
        writeln!(w)?;
        let rows = by.into_iter().map(|((m, t), n)| vec![line(&m).into_owned(), line(&t).into_owned(), n.to_string()]).collect();
        writeln!(w, "{}", style.table(&["module", "type", "count"], rows))?;
        writeln!(w)?;
        let rows = s
            .resources
            .iter()
            .map(|r| {
                let mut marks = Vec::new();
                if r.tainted {
                    marks.push(style.paint("tainted", Tone::Warn));
                }
                if let Some(k) = &r.deposed {
                    marks.push(style.paint(&format!("deposed {}", line(k)), Tone::Warn));
                }
                vec![
                    line(&r.address).into_owned(),
                    line(&r.mode).into_owned(),
                    line(r.provider_name.as_deref().unwrap_or("")).into_owned(),
                    marks.join(", "),
                ]
            })
            .collect();
        writeln!(w, "{}", style.table(&["address", "mode", "provider", "marks"], rows))?;
    }
    if !s.outputs.is_empty() {
        writeln!(w)?;
        let short = crate::render::Shortened::default();
        let rows = s
            .outputs
            .iter()
            .map(|o| {
                let v = short.cell(&o.display_value(), 80);
                let v = if o.masked { style.paint(&v, Tone::Muted) } else { v };
                vec![line(&o.name).into_owned(), line(&o.display_type()).into_owned(), v]
            })
            .collect();
        writeln!(w, "{}", style.value_table(&["output", "type", "value"], rows, &short, "`planview outputs --format json`"))?;
        deprecated_outputs(w, &s.outputs, style)?;
    }
    Ok(())
}
