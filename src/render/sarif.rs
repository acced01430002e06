//! SARIF 2.1.0 (`--format sarif`, `gate` and `checks`): one run, one rule per
//! gate rule or checked object, one result per finding with its source
//! location (the declaring block's file and lines) and its address as a
//! logical location, and `partialFingerprints` that stay the same across runs
//! so code scanning tracks one alert over pushes.
//!
//! GitHub's upload limits (code scanning's "SARIF results exceed limit"):
//! 20 runs per file (planview writes one), 25,000 rules and 25,000 results per
//! run (more is rejected) of which 5,000 are kept, 10 MB gzipped. planview
//! writes at most [`MAX_RESULTS`] results, errors first, and says in the run's
//! `invocations` how many it left out; rules are only those results name.

use super::findings::{Finding, Findings, Level};
use super::write_json;
use serde::Serialize;
use std::io::{self, Write};

/// Results written per run at most: what GitHub keeps of one run.
pub(crate) const MAX_RESULTS: usize = 5_000;

const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool<'a>,
    invocations: [Invocation; 1],
    results: Vec<SarifResult<'a>>,
    column_kind: &'static str,
}

#[derive(Serialize)]
struct Tool<'a> {
    driver: Driver<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver<'a> {
    name: &'static str,
    semantic_version: &'static str,
    rules: Vec<Rule<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule<'a> {
    id: &'a str,
    short_description: Text,
    default_configuration: Configuration,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation {
    execution_successful: bool,
    tool_execution_notifications: Vec<Notification>,
}

#[derive(Serialize)]
struct Notification {
    level: &'static str,
    message: Text,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'a str,
    rule_index: usize,
    kind: &'static str,
    level: &'static str,
    message: Text,
    locations: [SarifLocation<'a>; 1],
    partial_fingerprints: Fingerprints,
}

#[derive(Serialize)]
struct Fingerprints {
    #[serde(rename = "planview/v1")]
    v1: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifLocation<'a> {
    physical_location: Physical,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    logical_locations: Vec<Logical<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Physical {
    artifact_location: Artifact,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(Serialize)]
struct Artifact {
    uri: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
    end_line: u32,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Logical<'a> {
    fully_qualified_name: &'a str,
    kind: &'static str,
}

/// A path as a URI reference: relative paths stay relative (to the directory
/// planview ran in, the repository root in CI), absolute ones become `file://`
/// URIs; every byte outside the unreserved set and `/` is percent-encoded.
pub(crate) fn uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    if path.starts_with('/') {
        out.push_str("file://");
    }
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The logical location kind of an address (SARIF's own names).
fn logical_kind(address: &str) -> &'static str {
    let last = address.rsplit('.').nth(1).unwrap_or("");
    if address.starts_with("var.") || address.contains(".var.") {
        "variable"
    } else if last == "module" || (address.starts_with("module.") && !address[7..].contains('.')) {
        "module"
    } else {
        "object"
    }
}

fn level(l: Level) -> (&'static str, &'static str) {
    match l {
        Level::Error => ("fail", "error"),
        Level::Warning => ("open", "warning"),
        Level::Pass => ("pass", "none"),
    }
}

fn result<'a>(f: &'a Findings<'a>, x: &'a Finding<'a>) -> SarifResult<'a> {
    let (kind, level) = level(x.level);
    let physical = match x.source {
        Some(s) => Physical {
            artifact_location: Artifact { uri: uri(&s.file) },
            region: Some(Region { start_line: s.line.max(1), end_line: s.end_line.max(s.line).max(1) }),
        },
        // At no line: the plan it was found in.
        None => Physical { artifact_location: Artifact { uri: uri(x.input) }, region: None },
    };
    let logical = x.address.map(|a| Logical { fully_qualified_name: a, kind: logical_kind(a) }).into_iter().collect();
    SarifResult {
        rule_id: &f.rules[x.rule].id,
        rule_index: x.rule,
        kind,
        level,
        message: Text { text: x.message.clone() },
        locations: [SarifLocation { physical_location: physical, logical_locations: logical }],
        partial_fingerprints: Fingerprints { v1: f.fingerprint(x) },
    }
}

/// Write `f` as one SARIF log.
pub(crate) fn write(w: &mut dyn Write, f: &Findings<'_>) -> io::Result<()> {
    let mut order: Vec<&Finding<'_>> = f.findings.iter().collect();
    order.sort_by_key(|x| x.level);
    let left_out = order.len().saturating_sub(MAX_RESULTS);
    order.truncate(MAX_RESULTS);
    let results: Vec<SarifResult<'_>> = order.into_iter().map(|x| result(f, x)).collect();
    let rules = f
        .rules
        .iter()
        .map(|r| Rule {
            id: &r.id,
            short_description: Text { text: r.text.clone() },
            default_configuration: Configuration { level: "error" },
        })
        .collect();
    let mut notes: Vec<Notification> = f
        .unreadable
        .iter()
        .map(|(file, e)| Notification { level: "error", message: Text { text: format!("{file}: cannot be read: {e}") } })
        .collect();
    if left_out > 0 {
        notes.push(Notification {
            level: "warning",
            message: Text {
                text: format!(
                    "{left_out} more finding(s) left out: GitHub code scanning keeps {MAX_RESULTS} results per run (see --format json for all)"
                ),
            },
        });
    }
    let log = Log {
        schema: SCHEMA,
        version: "2.1.0",
        runs: [Run {
            tool: Tool { driver: Driver { name: "planview", semantic_version: env!("CARGO_PKG_VERSION"), rules } },
            invocations: [Invocation { execution_successful: f.unreadable.is_empty(), tool_execution_notifications: notes }],
            results,
            column_kind: "unicodeCodePoints",
        }],
    };
    write_json(w, &log)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_uri_references() {
        assert_eq!(uri("infra/main.tf"), "infra/main.tf");
        assert_eq!(uri("../x y/#a.tf"), "../x%20y/%23a.tf");
        assert_eq!(uri("/abs/é.tf"), "file:///abs/%C3%A9.tf");
        assert_eq!(uri("a\u{1b}[31m.tf"), "a%1B%5B31m.tf");
    }

    #[test]
    fn results_past_what_github_keeps_are_left_out_errors_first_and_counted() {
        let mut f = Findings { command: "checks", ..Default::default() };
        f.rules.push(crate::render::findings::RuleDef { id: "check/x".into(), text: "x".into() });
        let finding = |level| Finding {
            rule: 0,
            level,
            title: String::new(),
            message: String::new(),
            address: Some("t.a"),
            source: None,
            input: "p",
        };
        f.findings.push(finding(Level::Warning));
        f.findings.extend((0..MAX_RESULTS).map(|_| finding(Level::Error)));
        let mut out = Vec::new();
        write(&mut out, &f).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        let results = v["runs"][0]["results"].as_array().unwrap();
        assert_eq!(results.len(), MAX_RESULTS);
        assert!(results.iter().all(|r| r["level"] == "error"), "the warning is the one left out");
        let note = &v["runs"][0]["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"];
        assert!(note.as_str().unwrap().starts_with("1 more finding(s) left out"), "{note}");
    }

    #[test]
    fn logical_kinds() {
        assert_eq!(logical_kind("var.x"), "variable");
        assert_eq!(logical_kind("module.net"), "module");
        assert_eq!(logical_kind("module.net.module.sub"), "module");
        assert_eq!(logical_kind("module.net.t.a[0]"), "object");
        assert_eq!(logical_kind("check.c"), "object");
    }
}
