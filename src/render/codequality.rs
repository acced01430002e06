//! GitLab's Code Quality report (`--format gitlab-codequality`, `gate` and
//! `checks`): a JSON array of findings (`description`, `check_name`,
//! `fingerprint`, `severity`, `location.path`, `location.lines.begin`), which
//! GitLab shows on the merge request's diff. A finding with no source
//! location is reported on the plan file it was found in, at line 1.

use super::findings::{Findings, Level};
use super::write_json;
use serde::Serialize;
use std::io::{self, Write};

#[derive(Serialize)]
struct Issue<'a> {
    description: String,
    check_name: &'a str,
    fingerprint: String,
    severity: &'static str,
    location: Where<'a>,
}

#[derive(Serialize)]
struct Where<'a> {
    path: &'a str,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: u32,
    end: u32,
}

/// Write `f` as a Code Quality report. Passing checks (`checks --all`) are
/// not issues and are left out; unreadable inputs are `blocker` issues on
/// the input, so the report never reads as clean when the gate could not judge.
pub(crate) fn write(w: &mut dyn Write, f: &Findings<'_>) -> io::Result<()> {
    let mut issues: Vec<Issue<'_>> = f
        .findings
        .iter()
        .filter(|x| x.level != Level::Pass)
        .map(|x| {
            let (path, begin, end) = match x.source {
                Some(s) => (s.file.as_str(), s.line.max(1), s.end_line.max(s.line).max(1)),
                None => (x.input, 1, 1),
            };
            Issue {
                description: x.message.clone(),
                check_name: &f.rules[x.rule].id,
                fingerprint: f.fingerprint(x),
                severity: if x.level == Level::Error { "major" } else { "minor" },
                location: Where { path, lines: Lines { begin, end } },
            }
        })
        .collect();
    for (file, e) in &f.unreadable {
        issues.push(Issue {
            description: format!("{file}: cannot be read, so planview {} cannot judge it: {e}", f.command),
            check_name: "unreadable-input",
            fingerprint: format!("unreadable:{file}"),
            severity: "blocker",
            location: Where { path: file, lines: Lines { begin: 1, end: 1 } },
        });
    }
    write_json(w, &issues)
}
