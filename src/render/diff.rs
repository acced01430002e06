//! Renders `diff` reports (what a second plan would do differently from a
//! first) as a terminal listing, markdown or JSON, and `fingerprint` reports
//! as text or JSON. Secrets never reach here: the model holds their hashes,
//! and a side that holds one is `(sensitive value)`.

use super::{md_cell, md_code, write_json, Style, Tone};
use crate::query::intent::{DiffReport, EntryDiff, FieldDiff, FingerprintReport, Section, Status};
use crate::query::values::Shown;
use crate::sanitize::line;
use serde::Serialize;
use serde_json::value::RawValue;
use std::io::{self, Write};

fn side_text(s: &Option<Shown>) -> String {
    s.as_ref().map_or_else(|| "(absent)".to_string(), |s| s.text().to_string())
}

fn symbol(e: &EntryDiff) -> (&'static str, Tone) {
    match e.status {
        Status::Added => ("+", Tone::Create),
        Status::Gone => ("-", Tone::Delete),
        Status::Changed => ("~", Tone::Update),
    }
}

/// `added (create)`, `changed (update -> replace)`, `gone (delete)`.
fn status_words(e: &EntryDiff) -> String {
    let word = match e.status {
        Status::Added => "added",
        Status::Gone => "gone",
        Status::Changed => "changed",
    };
    match (&e.old_action, &e.new_action, e.status) {
        (_, Some(n), Status::Added) => format!("{word} ({n})"),
        (Some(o), _, Status::Gone) => format!("{word} ({o})"),
        (Some(o), Some(n), _) if o != n => format!("{word} ({o} -> {n})"),
        (_, Some(n), _) => format!("{word} ({n})"),
        _ => word.to_string(),
    }
}

fn title(e: &EntryDiff) -> String {
    let moved = e.old_address.as_ref().map(|o| format!(" (was {o})")).unwrap_or_default();
    format!("{} {}{moved}", e.section.as_str(), e.address)
}

fn field_line(f: &FieldDiff) -> String {
    let note = f.note.as_ref().map(|n| format!("  # {n}")).unwrap_or_default();
    format!("{}: {} -> {}{note}", f.path_text, side_text(&f.old), side_text(&f.new))
}

fn heading_line(r: &DiffReport) -> String {
    format!("== diff: {} -> {} ==", r.old.file, r.new.file)
}

/// The terminal listing: a heading, both fingerprints, the verdict, then each
/// entry that differs with the fields that differ.
pub fn table(w: &mut dyn Write, r: &DiffReport, style: &Style) -> io::Result<()> {
    writeln!(w, "{}", style.paint(&line(&heading_line(r)), Tone::Bold))?;
    for (which, p) in [("old", &r.old), ("new", &r.new)] {
        let tf = p.terraform_version.as_ref().map(|v| format!(" (terraform {})", line(v))).unwrap_or_default();
        writeln!(w, "{which}: {} {}{tf}", p.fingerprint, line(&p.file))?;
    }
    let tone = if r.comparison.same { Tone::Good } else { Tone::Bad };
    writeln!(w, "{}", style.paint(&r.verdict(), tone))?;
    for e in &r.comparison.entries {
        writeln!(w)?;
        let (sym, tone) = symbol(e);
        writeln!(w, "{}", style.paint(&line(&format!("{sym} {}: {}", title(e), status_words(e))), tone))?;
        for f in &e.fields {
            writeln!(w, "    {}", line(&field_line(f)))?;
        }
    }
    Ok(())
}

/// Markdown for a pull-request comment: the verdict, the fingerprints, and a
/// table of every field that differs.
pub fn markdown(w: &mut dyn Write, r: &DiffReport) -> io::Result<()> {
    let icon = if r.comparison.same { ":white_check_mark:" } else { ":warning:" };
    writeln!(w, "### {icon} planview diff: {}", md_cell(&r.verdict()))?;
    writeln!(w)?;
    writeln!(w, "| plan | file | fingerprint |")?;
    writeln!(w, "|---|---|---|")?;
    for (which, p) in [("old", &r.old), ("new", &r.new)] {
        writeln!(w, "| {which} | {} | {} |", md_code(&p.file), md_code(&p.fingerprint))?;
    }
    if r.comparison.entries.is_empty() {
        return Ok(());
    }
    writeln!(w)?;
    writeln!(w, "| | what | difference | field | old | new |")?;
    writeln!(w, "|---|---|---|---|---|---|")?;
    for e in &r.comparison.entries {
        let (sym, _) = symbol(e);
        let what = format!("{} {}", e.section.as_str(), md_code(&e.address))
            + &e.old_address.as_ref().map(|o| format!(" (was {})", md_code(o))).unwrap_or_default();
        let status = md_cell(&status_words(e));
        if e.fields.is_empty() {
            writeln!(w, "| {sym} | {what} | {status} | | | |")?;
        }
        for f in &e.fields {
            let note = f.note.as_ref().map(|n| format!(" ({})", md_cell(n))).unwrap_or_default();
            writeln!(
                w,
                "| {sym} | {what} | {status} | {}{note} | {} | {} |",
                md_code(&f.path_text),
                md_code(&side_text(&f.old)),
                md_code(&side_text(&f.new))
            )?;
        }
    }
    Ok(())
}

/// A side in JSON: `{"state": "value", "value": <exact JSON>}`, or `null`,
/// `sensitive` or `unknown` without a value (as `show` writes sides).
#[derive(Serialize)]
struct JsonSide {
    state: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<Box<RawValue>>,
}

fn json_side(s: &Option<Shown>) -> Option<JsonSide> {
    Some(match s.as_ref()? {
        Shown::Value(v) => JsonSide { state: "value", value: RawValue::from_string(v.clone()).ok() },
        Shown::Null => JsonSide { state: "null", value: None },
        Shown::Sensitive => JsonSide { state: "sensitive", value: None },
        Shown::Unknown => JsonSide { state: "unknown", value: None },
    })
}

#[derive(Serialize)]
struct JsonField<'a> {
    field: &'a str,
    path: &'a [crate::model::PathStep],
    path_text: &'a str,
    old: Option<JsonSide>,
    new: Option<JsonSide>,
    note: Option<&'a str>,
}

#[derive(Serialize)]
struct JsonEntry<'a> {
    section: Section,
    address: &'a str,
    old_address: Option<&'a str>,
    status: Status,
    old_action: Option<&'a str>,
    new_action: Option<&'a str>,
    fields: Vec<JsonField<'a>>,
    /// Where the entry is declared (the configuration read), else left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    location: Option<&'a crate::model::Location>,
}

#[derive(Serialize)]
struct JsonDiff<'a> {
    kind: &'static str,
    old: &'a crate::query::intent::PlanRef,
    new: &'a crate::query::intent::PlanRef,
    same: bool,
    counts: &'a crate::query::intent::DiffCounts,
    entries: Vec<JsonEntry<'a>>,
}

/// The JSON report (schemas/diff.schema.json).
pub fn json(w: &mut dyn Write, r: &DiffReport) -> io::Result<()> {
    let entries = r
        .comparison
        .entries
        .iter()
        .map(|e| JsonEntry {
            section: e.section,
            address: &e.address,
            old_address: e.old_address.as_deref(),
            status: e.status,
            old_action: e.old_action.as_deref(),
            new_action: e.new_action.as_deref(),
            fields: e
                .fields
                .iter()
                .map(|f| JsonField {
                    field: &f.field,
                    path: &f.path,
                    path_text: &f.path_text,
                    old: json_side(&f.old),
                    new: json_side(&f.new),
                    note: f.note.as_deref(),
                })
                .collect(),
            location: e.location.as_ref(),
        })
        .collect();
    write_json(w, &JsonDiff { kind: r.kind, old: &r.old, new: &r.new, same: r.comparison.same, counts: &r.comparison.counts, entries })
}

/// `fingerprint`: `sha256:<hex>` on one line.
/// Output format of `fingerprint`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum FingerprintFormat {
    // `sha256:<hex>`.
    #[default]
    Text,
    // With the canonical form it hashes.
    Json,
}

pub fn fingerprint_text(w: &mut dyn Write, fingerprint: &str) -> io::Result<()> {
    writeln!(w, "{fingerprint}")
}

/// `fingerprint --format json` (schemas/fingerprint.schema.json).
pub fn fingerprint_json(w: &mut dyn Write, r: &FingerprintReport) -> io::Result<()> {
    write_json(w, r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::intent::{intent_of, DiffReport};

    fn report(a: &str, b: &str) -> DiffReport {
        let read = |s: &str| {
            let doc = crate::read::parse("p", s.as_bytes()).unwrap();
            let m = crate::secrets::Masker::collect(&doc);
            intent_of(&doc, &m).unwrap()
        };
        DiffReport::new(("a.json", None, &read(a)), ("b.json", None, &read(b)))
    }

    #[test]
    fn hostile_addresses_and_values_are_escaped_in_text_and_markdown() {
        let a = r#"{"format_version":"1.2","resource_changes":[]}"#;
        let b = r#"{"format_version":"1.2","resource_changes":[{"address":"a.b[\"\u001b[2J\"]","mode":"managed","type":"a","name":"b","change":{"actions":["create"],"after":{"v":"\u001b]0;x\u0007|<script>"}}}]}"#;
        let r = report(a, b);
        let mut out = Vec::new();
        table(&mut out, &r, &Style::default()).unwrap();
        assert_eq!(crate::sanitize::terminal_hazard(&out, false), None);
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("+ resource a.b[\"\\x1B[2J\"]: added (create)"), "{text}");
        let mut md = Vec::new();
        markdown(&mut md, &r).unwrap();
        let md = String::from_utf8(md).unwrap();
        assert_eq!(crate::sanitize::terminal_hazard(md.as_bytes(), false), None, "{md}");
    }
}
