//! Renders `checks` reports as a terminal table, markdown or JSON.

use super::report::{cell_lines, Head, Named, Report};
use super::{md_cell, md_code, Style, Tone};
use crate::query::checks::{CheckItem, ChecksReport, ChecksSource};
use crate::sanitize::line;
use std::io::{self, Write};

fn counts_text(r: &ChecksReport) -> String {
    let total: u64 = r.counts.values().sum();
    if total == 0 {
        return match r.source {
            ChecksSource::None => "no check results in this document".into(),
            _ => "no checks".into(),
        };
    }
    super::counts_line(&r.counts, super::plain)
}

/// `Checks: 1 fail, 7 pass; 7 passed or unknown not listed (--all lists them).`
pub(crate) fn verdict(r: &ChecksReport) -> String {
    let mut s = format!("Checks: {}", counts_text(r));
    if r.source == ChecksSource::ConditionResults {
        s.push_str(" (from condition_results, Terraform 1.2-1.4)");
    }
    if r.hidden > 0 {
        s.push_str(&format!("; {} passed or unknown not listed (--all lists them)", r.hidden));
    }
    s.push('.');
    s
}

fn status_tone(status: &str) -> Tone {
    match status {
        "fail" | "error" => Tone::Bad,
        "pass" => Tone::Good,
        "unknown" => Tone::Muted,
        _ => Tone::Warn,
    }
}

fn address_text(c: &CheckItem) -> String {
    if c.placeholder {
        format!("{} (no instances)", c.address)
    } else {
        c.address.clone()
    }
}

fn errored_note(r: &ChecksReport) -> Option<&'static str> {
    if !r.errored {
        return None;
    }
    Some(if r.failed {
        "the failing condition that stopped the plan is listed below"
    } else {
        "no check failed: the error is elsewhere (see the CLI's error output)"
    })
}

impl Named for ChecksReport {
    fn set_file(&mut self, file: &str) {
        self.file = file.to_string();
    }
}

impl Report for ChecksReport {
    fn head(&self) -> Head<'_> {
        Head::new(&self.file, self.document, &self.terraform_version, &self.format_version, self.errored)
    }

    fn verdict(&self) -> String {
        verdict(self)
    }

    fn tone(&self) -> Tone {
        if self.failed {
            Tone::Bad
        } else {
            Tone::Bold
        }
    }

    fn title(&self) -> String {
        let icon = if self.failed { ":x: " } else { "" };
        format!("{icon}{}", md_cell(&verdict(self)))
    }

    fn table_lead(&self, w: &mut dyn Write) -> io::Result<()> {
        match errored_note(self) {
            Some(n) => writeln!(w, "{n}"),
            None => Ok(()),
        }
    }

    fn markdown_lead(&self, w: &mut dyn Write) -> io::Result<()> {
        match errored_note(self) {
            Some(n) => writeln!(w, "_{}_\n", md_cell(n)),
            None => Ok(()),
        }
    }

    fn is_empty(&self) -> bool {
        self.checks.is_empty()
    }

    fn table_rows(&self, w: &mut dyn Write, style: &Style) -> io::Result<()> {
        // `file:line` of each check, when the configuration was read (--locations).
        let located = self.checks.iter().any(|c| c.location.is_some());
        let rows = self
            .checks
            .iter()
            .map(|c| {
                let mut row = vec![
                    style.paint(&line(&c.status), status_tone(&c.status)),
                    line(&address_text(c)).into_owned(),
                    line(&c.kind).into_owned(),
                    cell_lines(&c.problems),
                ];
                if located {
                    row.push(c.location.as_ref().map_or_else(|| "-".to_string(), |l| line(&l.to_string()).into_owned()));
                }
                row
            })
            .collect();
        let head: &[&str] =
            if located { &["status", "address", "kind", "problems", "declared at"] } else { &["status", "address", "kind", "problems"] };
        writeln!(w, "{}", style.table(head, rows))
    }

    fn markdown_rows(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "| status | address | kind | problems |")?;
        writeln!(w, "|---|---|---|---|")?;
        for c in &self.checks {
            let problems: Vec<String> = c.problems.iter().map(|p| md_cell(p)).collect();
            let address = crate::render::gate::with_location(md_code(&address_text(c)), c.location.as_ref());
            writeln!(w, "| {} | {} | {} | {} |", md_cell(&c.status), address, md_cell(&c.kind), problems.join("<br>"))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filter::Filter;
    use crate::query::checks::{checks, ChecksOptions};

    #[test]
    fn unknown_check_status_is_escaped_in_the_counts_line() {
        let plan =
            r#"{"format_version":"1.2","checks":[{"address":{"kind":"check","to_display":"check.a"},"status":"error\u001b[2J\u009b"}]}"#;
        let doc = crate::read::parse("p", plan.as_bytes()).unwrap();
        let r = checks(&doc, &ChecksOptions { filter: &Filter::default(), all: true }, &Default::default());
        let mut out = Vec::new();
        r.table(&mut out, &Style::default()).unwrap();
        assert_eq!(crate::sanitize::terminal_hazard(&out, false), None);
        assert!(String::from_utf8(out).unwrap().contains("1 error\\x1B[2J\\u{009B}"));
    }
}
