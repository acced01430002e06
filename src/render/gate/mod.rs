//! Renders `gate` verdicts, one file per format (table, JSON, markdown for a
//! PR comment, GitHub Actions workflow commands, JUnit XML), each with the
//! escaping its format needs; what they share is here.

use super::fit::Block;
use super::{md_cell, md_code, write_json, JsonErrorBody, JsonInputError, Style, Tone};
use crate::outcome::PerFile;
use crate::query::gate::{overall, total, GateTotal, PlanVerdict, PolicyReport, Severity, Violation};
use crate::sanitize::{line, text};
use serde::Serialize;
use std::io::{self, Write};

fn gate_total(items: &[PerFile<PlanVerdict>]) -> GateTotal {
    total(items.iter().map(|i| i.result.as_ref().ok()))
}

/// The verdict in one line, for people.
pub(crate) fn verdict_line(t: &GateTotal) -> String {
    let plans = t.passed + t.failed;
    match overall(t) {
        "error" => format!(
            "ERROR: {} of {} input(s) could not be read, so the gate cannot pass ({} violation(s) in the rest)",
            t.errors, t.files, t.violations
        ),
        "fail" if t.violations == 0 => {
            format!("FAILED: {} warning(s) in {} of {} plan(s) (--fail-on-warn)", t.warnings, t.failed, plans)
        }
        "fail" => format!("FAILED: {} violation(s){} in {} of {} plan(s)", t.violations, warnings_also(t.warnings), t.failed, plans),
        _ => format!("passed: {plans} plan(s), no violations{}", warnings_also(t.warnings)),
    }
}

/// `, 2 warning(s)` (empty without warnings).
pub(crate) fn warnings_also(n: u64) -> String {
    if n == 0 {
        String::new()
    } else {
        format!(", {n} warning(s)")
    }
}

/// A rule's name in the human formats (table, markdown, GitHub, JUnit): its
/// id, except `fail-on-checks`, named `checks-must-pass` there so that a
/// passing gate prints no "fail" (Atlantis' policy check fails any output
/// that does). The JSON report keeps the id.
pub(crate) fn rule_name(id: &str) -> &str {
    if id == "fail-on-checks" {
        "checks-must-pass"
    } else {
        id
    }
}

fn address_or_dash(v: &Violation) -> &str {
    v.address.as_deref().unwrap_or("-")
}

mod github;
mod json;
mod junit;
mod markdown;
mod table;
mod verify;

pub(crate) use github::{gh_data, gh_location, gh_property, github_out, GITHUB_ANNOTATIONS};
pub(crate) use json::json_out;
pub(crate) use junit::junit_out;
pub(crate) use markdown::markdown_blocks;
pub(crate) use markdown::verdict_head;
pub(crate) use markdown::with_location;
pub(crate) use table::table_out;
pub(crate) use verify::verify_out;
