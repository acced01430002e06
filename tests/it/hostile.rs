//! Hostile input over every command, in every format: terminal safety and secrets.
//!
//! Subcommands are discovered from `planview --help`, and each command's formats
//! and switches from `planview CMD -h`, so commands and formats added later are
//! covered without touching this file. Fixtures: `testdata/hostile/` (written by
//! `make.py` there): terminal attacks in every string the format carries, and
//! unique secret markers in every place the format can hold a secret.
//!
//! Every run is the real binary, checked on stdout and stderr with
//! [`planview::sanitize::terminal_hazard`] (the same check the fuzz and property
//! tests use): with colour off (`--color never`, or NO_COLOR with the default)
//! no ESC byte and no hazard at all; with `--color always` only SGR colour.

use crate::common::commands::{commands, help, run_raw, Cmd};
use crate::common::root;
use planview::sanitize::terminal_hazard;
use std::collections::{BTreeMap, BTreeSet};
use std::process::Output;

const HOSTILE: &[&str] = &[
    "testdata/hostile/hostile-plan.json",
    "testdata/hostile/hostile-state.json",
    "testdata/hostile/hostile-wrapped.json",
    "testdata/hostile/hostile-types.json",
];
const SECRETS: &[&str] =
    &["testdata/hostile/secrets-plan.json", "testdata/hostile/secrets-state.json", "testdata/hostile/secrets-wrapped.json"];
/// Switches that show more of the input (or cut markdown short): each command
/// also runs with those it takes.
const MORE: &[&str] = &["--all", "--full", "--prior", "--fail-on-checks", "--lenient", "--max-bytes=2000"];
/// Commands that never print an attribute or output value (so no marker, even
/// with --show-sensitive).
const NO_VALUES: &[&str] = &["state"];

/// The switches of `MORE` a command takes.
fn more(c: &Cmd) -> Vec<&'static str> {
    MORE.iter().copied().filter(|f| c.takes(f.split('=').next().unwrap_or(f))).collect()
}

/// How colour is asked for, and whether SGR colour is allowed in the output.
#[derive(Debug, Clone, Copy)]
enum Colour {
    Never,
    NoColorEnv,
    Always,
}

/// One invocation: the arguments and environment, described for failure messages.
#[derive(Debug, Clone)]
struct Run {
    cmd: String,
    format: String,
    fixture: String,
    colour: Colour,
    args: Vec<String>,
}

impl Run {
    fn env(&self) -> Vec<(&'static str, &'static str)> {
        match self.colour {
            Colour::NoColorEnv => vec![("NO_COLOR", "1")],
            _ => vec![],
        }
    }

    fn describe(&self) -> String {
        let env = if matches!(self.colour, Colour::NoColorEnv) { "NO_COLOR=1 " } else { "" };
        let line = |s: &str| planview::sanitize::line(s).into_owned();
        format!("{} --format {} on {} [{env}planview {}]", self.cmd, self.format, line(&self.fixture), line(&self.args.join(" ")))
    }
}

/// Every run of every command in every format over `files` (each alone, and all
/// together when the command reads several), with and without its `MORE` switches.
fn runs(files: &[&str], colours: &[Colour], extra: &[&str]) -> Vec<Run> {
    let mut v = Vec::new();
    for c in commands() {
        let mut sets: Vec<Vec<&str>> = files.iter().map(|f| vec![*f]).collect();
        // All together too (one file alone is the run above already).
        if c.many_files && files.len() > 1 {
            sets.push(files.to_vec());
        }
        let mut variants: Vec<Vec<&str>> = vec![vec![]];
        let more = more(&c);
        if !more.is_empty() {
            variants.push(more);
        }
        for format in &c.formats {
            for set in &sets {
                for variant in &variants {
                    for &colour in colours {
                        let mut args: Vec<String> = vec![c.name.clone()];
                        if !format.is_empty() {
                            args.extend(["--format".into(), format.clone()]);
                        }
                        match colour {
                            Colour::Never if c.takes("--color") => args.extend(["--color".into(), "never".into()]),
                            Colour::Always if c.takes("--color") => args.extend(["--color".into(), "always".into()]),
                            Colour::Always => continue,
                            _ => {}
                        }
                        args.extend(variant.iter().chain(extra).map(|s| s.to_string()));
                        args.extend(c.files(set));
                        let fixture = set.iter().map(|f| f.rsplit('/').next().unwrap_or(f)).collect::<Vec<_>>().join("+");
                        v.push(Run { cmd: c.name.clone(), format: format.clone(), fixture, colour, args });
                    }
                }
            }
        }
    }
    v
}

/// Run them all, a few at a time; results in order.
fn execute(runs: Vec<Run>) -> Vec<(Run, Output)> {
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(2, 8);
    let chunk = runs.len().div_ceil(workers).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = runs
            .chunks(chunk)
            .map(|part| s.spawn(move || part.iter().map(|r| (r.clone(), run_raw(&r.args, &r.env()))).collect::<Vec<_>>()))
            .collect();
        let all: Vec<(Run, Output)> = handles.into_iter().flat_map(|h| h.join().expect("worker")).collect();
        eprintln!("{} planview runs", all.len());
        all
    })
}

/// Panic with every failure, one line each: the same finding in several colour
/// modes or variants is shown once (the first 60 distinct ones).
fn report(what: &str, failures: Vec<String>) {
    if failures.is_empty() {
        return;
    }
    let n = failures.len();
    let mut seen = BTreeSet::new();
    let distinct: Vec<&String> = failures
        .iter()
        .filter(|f| {
            // Key: the message without the invocation and byte offsets.
            let key: String = f.split(" [").next().unwrap_or(f).to_string()
                + f.rsplit("]: ").next().unwrap_or(f).split(" at byte").next().unwrap_or_default();
            seen.insert(key)
        })
        .collect();
    let shown: Vec<&str> = distinct.iter().take(60).map(|s| s.as_str()).collect();
    panic!("{n} {what} ({} distinct):\n{}", distinct.len(), shown.join("\n"));
}

/// Common checks of any run: it ended (0, 1 or 2), without a panic.
fn ended_cleanly(r: &Run, out: &Output, failures: &mut Vec<String>) {
    if !matches!(out.status.code(), Some(0..=2)) {
        failures.push(format!("{}: exit status {:?}", r.describe(), out.status));
    }
    if String::from_utf8_lossy(&out.stderr).contains("panicked") {
        failures.push(format!("{}: panicked: {}", r.describe(), String::from_utf8_lossy(&out.stderr)));
    }
}

fn attacks() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(root().join("testdata/hostile/attacks.json")).expect("attacks.json");
    serde_json::from_str(&text).expect("attacks.json parses")
}

/// Every string (keys and values) of a JSON value, but error objects (their
/// messages are prose, quoting input as the parser does).
fn strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        serde_json::Value::Object(o) => o.iter().filter(|(k, _)| *k != "error").for_each(|(k, x)| {
            out.push(k.clone());
            strings(x, out)
        }),
        _ => {}
    }
}

fn is_json(format: &str) -> bool {
    format == "json" || format.ends_with("-json")
}

/// What every run over hostile input must satisfy: it ends cleanly; stdout and
/// stderr hold no terminal hazard (only SGR colour with `--color always`); JSON
/// parses, holds no terminal-escaped text, and (recorded in `carried`) which of
/// `attacks` it carries intact; markdown is not taken over.
fn check_hostile_run(
    r: &Run,
    out: &Output,
    attacks: &BTreeMap<String, String>,
    failures: &mut Vec<String>,
    carried: &mut BTreeMap<String, BTreeSet<String>>,
) {
    ended_cleanly(r, out, failures);
    let allow_sgr = matches!(r.colour, Colour::Always);
    for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        if let Some(h) = terminal_hazard(bytes, allow_sgr) {
            let mode = if allow_sgr { "colour always: more than SGR colour" } else { "colour off" };
            failures.push(format!("{}: {stream} ({mode}): {h}", r.describe()));
        }
    }
    if is_json(&r.format) && !out.stdout.is_empty() {
        match serde_json::from_slice::<serde_json::Value>(&out.stdout) {
            Err(e) => failures.push(format!("{}: stdout is not JSON: {e}", r.describe())),
            Ok(v) => {
                if r.format == "json" {
                    for e in schema_errors(&r.cmd, &v) {
                        failures.push(format!("{}: JSON does not match schemas/{}.schema.json: {e}", r.describe(), r.cmd));
                    }
                }
                let mut all = Vec::new();
                strings(&v, &mut all);
                let key = format!("{} --format {}", r.cmd, r.format);
                for (name, attack) in attacks {
                    if all.iter().any(|s| s.contains(attack.as_str())) {
                        carried.entry(key.clone()).or_default().insert(name.clone());
                    }
                }
                // Terminal escaping (`\x1B`, `\u{9B}`) is for terminals: JSON
                // carries the original text, escaped the JSON way.
                if let Some(s) = all.iter().find(|s| s.contains("\\x1B") || s.contains("\\u{")) {
                    failures.push(format!("{}: a JSON string holds terminal-escaped text instead of the original: {s:?}", r.describe()));
                }
            }
        }
    }
    if let Some(bad) = stderr_structure(&String::from_utf8_lossy(&out.stderr)) {
        failures.push(format!("{}: stderr: {bad}", r.describe()));
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    if r.format == "markdown" {
        if let Some(bad) = markdown_injection(&stdout) {
            failures.push(format!("{}: markdown: {bad}", r.describe()));
        }
    }
    if r.format == "junit" && !stdout.is_empty() {
        if let Err(e) = roxmltree::Document::parse(&stdout) {
            failures.push(format!("{}: JUnit output is not well-formed XML: {e}", r.describe()));
        }
    }
    // CI runners' log commands (`##[`, `##vso[` anywhere; `::` at a line start,
    // which only GitHub-format lines may have): none comes from the input.
    for (stream, text) in [("stdout", String::from_utf8_lossy(&out.stdout)), ("stderr", String::from_utf8_lossy(&out.stderr))] {
        let hazard = if stream == "stdout" && r.format == "github" {
            ["##[", "##vso["].iter().find(|b| text.contains(**b)).map(|b| format!("{b:?}"))
        } else {
            planview::sanitize::ci_hazard(&text)
        };
        if let Some(h) = hazard {
            failures.push(format!("{}: {stream}: a CI runner command from the input: {h}", r.describe()));
        }
    }
    // GitHub workflow commands: input cannot start a line (a command of its own).
    // Violations beyond the annotation limit are plain log lines after a fixed prefix.
    if r.format == "github" {
        if let Some(l) = stdout.lines().find(|l| !l.is_empty() && !l.starts_with("::") && !l.starts_with("planview gate: ")) {
            failures.push(format!("{}: a line that is not a workflow command: {l:?}", r.describe()));
        }
    }
}

/// What input did to stderr's shape: every line is planview's (`planview:
/// error: `, `planview: warning: `, or a `  hint: ` right after an error), and
/// none starts with text from the attacks (a line of the input's own).
fn stderr_structure(stderr: &str) -> Option<String> {
    let mut after_error = false;
    for line in stderr.lines() {
        let body = if let Some(b) = line.strip_prefix("planview: error: ") {
            after_error = true;
            b
        } else if let Some(b) = line.strip_prefix("planview: warning: ") {
            after_error = false;
            b
        } else if line.starts_with("  hint: ") && after_error {
            after_error = false;
            continue;
        } else {
            return Some(format!("a line that is not planview's: {line:?}"));
        };
        if ["# INJECTED", "<script>", "```", "'$(touch"].iter().any(|a| body.starts_with(a)) {
            return Some(format!("the input started a line of its own: {line:?}"));
        }
    }
    None
}

/// Where `v` breaks `schemas/CMD.schema.json` (none when there is no such schema).
fn schema_errors(cmd: &str, v: &serde_json::Value) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(root().join("schemas").join(format!("{cmd}.schema.json"))) else {
        return Vec::new();
    };
    let schema: serde_json::Value = serde_json::from_str(&text).expect("schema parses");
    let validator = jsonschema::validator_for(&schema).expect("schema compiles");
    validator.iter_errors(v).map(|e| format!("{e} at {}", e.instance_path)).take(3).collect()
}

/// Every `json` format of every command carried at least one of the attacks intact.
fn check_carried(carried: &BTreeMap<String, BTreeSet<String>>, failures: &mut Vec<String>) {
    for c in commands() {
        // `tf-json` holds HCL traversals, escaped the HCL way: checked against
        // the `json` pairs in the moves test below.
        for f in c.formats.iter().filter(|f| *f == "json") {
            let key = format!("{} --format {f}", c.name);
            if carried.get(&key).is_none_or(|s| s.is_empty()) {
                failures.push(format!("{key}: no attack string survives a JSON round trip (dropped or altered)"));
            }
        }
    }
}

#[test]
fn hostile_strings_never_reach_the_terminal_raw_in_any_command_or_format() {
    let attacks = attacks();
    // Colour off two ways: NO_COLOR with the default, and `--color never`.
    // Colour is decided once (`cli::decide_color`, unit-tested there), and
    // into a pipe both ways decide it off: the same run. So `--color never`
    // runs over one fixture, in every command, format and variant, each held
    // byte for byte to its NO_COLOR twin below; the other fixtures run with
    // NO_COLOR and with `--color always`. (`--color never` ran over every
    // fixture until 2026-11: a third of this sweep, the same bytes again.)
    let mut all = runs(HOSTILE, &[Colour::NoColorEnv, Colour::Always], &[]);
    all.extend(runs(&HOSTILE[..1], &[Colour::Never], &[]));
    let results = execute(all);
    let mut failures = Vec::new();
    let no_color: BTreeMap<&[String], &Output> =
        results.iter().filter(|(r, _)| matches!(r.colour, Colour::NoColorEnv)).map(|(r, o)| (r.args.as_slice(), o)).collect();
    let mut twins = 0;
    for (r, out) in results.iter().filter(|(r, _)| matches!(r.colour, Colour::Never)) {
        let at = r.args.windows(2).position(|w| w[0] == "--color" && w[1] == "never");
        let plain: Vec<String> = match at {
            Some(i) => r.args[..i].iter().chain(&r.args[i + 2..]).cloned().collect(),
            None => r.args.clone(),
        };
        match no_color.get(plain.as_slice()) {
            Some(twin) if twin.stdout == out.stdout && twin.stderr == out.stderr && twin.status.code() == out.status.code() => twins += 1,
            Some(_) => failures.push(format!("{}: `--color never` wrote other bytes than NO_COLOR=1", r.describe())),
            None => failures.push(format!("{}: no NO_COLOR=1 run to compare with", r.describe())),
        }
    }
    assert!(twins > 50, "{twins} `--color never` runs compared");
    let mut succeeded: BTreeSet<String> = BTreeSet::new();
    let mut carried: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (r, out) in &results {
        check_hostile_run(r, out, &attacks, &mut failures, &mut carried);
        if matches!(out.status.code(), Some(0 | 1)) {
            succeeded.insert(r.cmd.clone());
        }
    }
    for c in commands() {
        if !succeeded.contains(&c.name) {
            failures.push(format!("`{}` never succeeded on the hostile fixtures: the test does not reach it", c.name));
        }
    }
    check_carried(&carried, &mut failures);
    // Over the hostile fixtures, every attack comes through every JSON format intact.
    for (key, names) in carried.iter().filter(|(k, _)| k.ends_with("--format json")) {
        let missing: Vec<&String> = attacks.keys().filter(|a| !names.contains(*a)).collect();
        if !missing.is_empty() {
            failures.push(format!("{key}: these attacks never come through intact (dropped or altered): {missing:?}"));
        }
    }
    report("terminal-safety failures", failures);
}

/// A policy file is input too (a pull request can change it): globs and types
/// echoed in the verdict, and errors quoting an unknown key or a bad value.
#[test]
fn hostile_policy_files_are_escaped_like_any_input() {
    let attacks = attacks();
    let takes_policy: BTreeSet<String> =
        commands().into_iter().filter(|c| help(&[&c.name, "-h"]).contains("--policy <PATH>")).map(|c| c.name).collect();
    assert!(!takes_policy.is_empty(), "no command takes --policy");
    let mut all = Vec::new();
    for policy in ["hostile-policy.json", "hostile-policy-bad.json", "hostile-policy-bad-value.json"] {
        let path = format!("testdata/hostile/{policy}");
        all.extend(
            runs(&HOSTILE[..1], &[Colour::NoColorEnv, Colour::Always], &["--policy", path.as_str()])
                .into_iter()
                .filter(|r| takes_policy.contains(&r.cmd))
                .map(|mut r| {
                    r.fixture = format!("{} with {policy}", r.fixture);
                    r
                }),
        );
    }
    let (mut failures, mut carried) = (Vec::new(), BTreeMap::new());
    for (r, out) in &execute(all) {
        check_hostile_run(r, out, &attacks, &mut failures, &mut carried);
    }
    report("policy-file failures", failures);
}

/// A file name is input too: headings, errors, JSON `file` fields.
#[test]
fn hostile_file_names_are_escaped_like_any_input() {
    let name = "plan\x1b]0;pwned\x07\u{9b}2J\u{202e}\n# INJECTED <script>\r|x|.json";
    let dir = std::env::temp_dir().join(format!("planview-hostile-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::copy(root().join(HOSTILE[0]), &path).unwrap();
    let missing = dir.join(format!("missing-{name}"));
    let (path, missing) = (path.to_str().unwrap().to_string(), missing.to_str().unwrap().to_string());
    let attacks = BTreeMap::from([("file name".to_string(), name.to_string())]);
    let mut failures = Vec::new();
    let mut carried = BTreeMap::new();
    let mut runs = runs(&[path.as_str()], &[Colour::NoColorEnv, Colour::Always], &[]);
    // An unreadable file with that name: the error names it.
    runs.extend(self::runs(&[missing.as_str()], &[Colour::Never], &[]));
    for (r, out) in &execute(runs) {
        check_hostile_run(r, out, &attacks, &mut failures, &mut carried);
    }
    std::fs::remove_dir_all(&dir).ok();
    check_carried(&carried, &mut failures);
    report("file-name failures", failures);
}

/// Markdown the input took over: outside code (fenced blocks and code spans,
/// where text is shown as it is), a heading, raw HTML or a link from the
/// markdown attack, or an unterminated fence that swallows the rest.
fn markdown_injection(md: &str) -> Option<String> {
    let mut fence: Option<usize> = None;
    for line in md.lines() {
        let ticks = line.trim_start().len() - line.trim_start().trim_start_matches('`').len();
        match fence {
            Some(n) if ticks >= n && line.trim().chars().all(|c| c == '`') => fence = None,
            Some(_) => continue,
            None if ticks >= 3 => {
                fence = Some(ticks);
                continue;
            }
            None => {}
        }
        let prose = strip_code_spans(line);
        if prose.trim_start().starts_with("# INJECTED") {
            return Some(format!("the input started a heading: {line:?}"));
        }
        // A mention notifies someone; autolinks and e-mail links are links.
        for bad in ["@octocat", "https://evil", "http://evil", "www.evil", "@evil.example"] {
            if prose.to_lowercase().contains(bad) {
                return Some(format!("{bad:?} from the input would be a mention or a link: {line:?}"));
            }
        }
        for bad in ["<script", "<!--", "](javascript:"] {
            let unescaped = prose.match_indices(bad).any(|(i, _)| !prose[..i].ends_with('\\'));
            if unescaped {
                return Some(format!("raw {bad:?} from the input outside code: {line:?}"));
            }
        }
    }
    if md.matches("<details>").count() + md.matches("<details ").count() != md.matches("</details>").count() {
        return Some("unbalanced <details>".to_string());
    }
    fence.map(|_| "a code fence is never closed".to_string())
}

/// A line without its code spans (a run of N backticks up to the next run of N).
fn strip_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(i) = rest.find(['`', '\\']) {
        out.push_str(&rest[..i]);
        if rest[i..].starts_with('\\') {
            // An escaped character (`\``) opens nothing.
            let n = rest[i + 1..].chars().next().map_or(0, char::len_utf8);
            out.push_str(&rest[i..i + 1 + n]);
            rest = &rest[i + 1 + n..];
            continue;
        }
        let after = &rest[i..];
        let n = after.len() - after.trim_start_matches('`').len();
        let body = &after[n..];
        let close = "`".repeat(n);
        match body.find(&close) {
            Some(j) => rest = &body[j + n..],
            None => {
                out.push_str(after);
                return out;
            }
        }
    }
    out.push_str(rest);
    out
}

/// What `secrets.txt` lists, with the forms escaping gives the short one.
fn markers() -> Vec<String> {
    let text = std::fs::read_to_string(root().join("testdata/hostile/secrets.txt")).expect("secrets.txt");
    let mut v: Vec<String> = text.lines().filter(|l| !l.is_empty()).map(str::to_string).collect();
    assert!(v.len() > 20, "secrets.txt lists too few markers");
    v.push("q\\#Z7".into());
    v
}

/// What of a marker shows whatever the escaping: its leading run of letters,
/// digits, `-` and `#` (all of it but for the marker with special characters).
fn visible(marker: &str) -> &str {
    if !marker.starts_with("PVSECRET") {
        return marker;
    }
    let end = marker.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '#')).unwrap_or(marker.len());
    &marker[..end]
}

/// The markers (or a cut-off `PVSECRET` prefix) in `bytes`, colour removed.
fn leaked(bytes: &[u8], markers: &[String]) -> Vec<String> {
    let text = strip_sgr(&String::from_utf8_lossy(bytes));
    let mut found: Vec<String> = markers.iter().filter(|m| text.contains(visible(m))).cloned().collect();
    if found.is_empty() && text.contains("PVSECRET") {
        let at = text.find("PVSECRET").unwrap_or_default();
        found.push(text[at..].chars().take(30).collect());
    }
    found
}

fn strip_sgr(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("\x1b[") {
        out.push_str(&rest[..i]);
        let after = &rest[i + 2..];
        let n = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit() || c == ';').len();
        if after[n..].starts_with('m') {
            rest = &after[n + 1..];
        } else {
            out.push_str("\x1b[");
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn no_secret_marker_appears_in_any_command_or_format() {
    let markers = markers();
    let results = execute(runs(SECRETS, &[Colour::NoColorEnv, Colour::Always], &[]));
    let mut failures = Vec::new();
    for (r, out) in &results {
        ended_cleanly(r, out, &mut failures);
        for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
            let found = leaked(bytes, &markers);
            if !found.is_empty() {
                failures.push(format!("{}: {stream} shows secret(s) {found:?}", r.describe()));
            }
        }
        // Masked JSON keeps its contract.
        if r.format == "json" && !out.stdout.is_empty() {
            match serde_json::from_slice::<serde_json::Value>(&out.stdout) {
                Ok(v) => failures.extend(schema_errors(&r.cmd, &v).into_iter().map(|e| format!("{}: schema: {e}", r.describe()))),
                Err(e) => failures.push(format!("{}: stdout is not JSON: {e}", r.describe())),
            }
        }
    }
    report("secret leaks", failures);
}

/// `--show-sensitive` shows them: the markers are reachable, so the test above can fail.
#[test]
fn show_sensitive_is_the_only_way_to_see_the_secrets() {
    let markers = markers();
    let results = execute(runs(SECRETS, &[Colour::NoColorEnv], &["--show-sensitive"]));
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let mut by_command: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = Vec::new();
    let takes_flag: BTreeSet<String> =
        commands().into_iter().filter(|c| help(&[&c.name, "-h"]).contains("--show-sensitive")).map(|c| c.name).collect();
    for (r, out) in &results {
        if !takes_flag.contains(&r.cmd) {
            continue;
        }
        ended_cleanly(r, out, &mut failures);
        let found = leaked(&out.stdout, &markers);
        *by_command.entry(r.cmd.clone()).or_default() += found.len();
        seen.extend(found);
    }
    for c in takes_flag.iter().filter(|c| !NO_VALUES.contains(&c.as_str())) {
        if by_command.get(c).copied().unwrap_or_default() == 0 {
            failures.push(format!("{c} --show-sensitive: no marker visible in any format"));
        }
    }
    for m in markers.iter().filter(|m| m.as_str() != "q\\#Z7") {
        if !seen.contains(m) {
            failures.push(format!("{m}: not visible with --show-sensitive in any command or format (unreachable marker)"));
        }
    }
    report("positive-control failures", failures);
}

/// A POSIX shell's words of one line, or why it is not plain words.
fn shell_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' => words.extend(cur.take()),
            '\'' => {
                let w = cur.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(x) => w.push(x),
                        None => return Err("unterminated single quote".into()),
                    }
                }
            }
            '\\' => cur.get_or_insert_with(String::new).push(chars.next().ok_or("trailing backslash")?),
            c if "\"$`;&|<>(){}*?[]~#!\n\t\r".contains(c) => return Err(format!("unquoted {c:?}")),
            c => cur.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(cur);
    Ok(words)
}

#[test]
fn moves_commands_are_plain_shell_words_naming_exactly_the_moved_addresses() {
    let plan = HOSTILE[0];
    let json = run_raw(&["moves".into(), "--format".into(), "json".into(), plan.into()], &[]);
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).expect("moves json");
    let pairs = report["pairs"].as_array().expect("pairs");
    assert!(!pairs.is_empty(), "the hostile plan has a move with hostile keys");
    let out = run_raw(&["moves".into(), "--format".into(), "commands".into(), plan.into()], &[]);
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).collect();
    assert_eq!(lines.len(), pairs.len(), "one command per pair:\n{text}");
    for (line, pair) in lines.iter().zip(pairs) {
        let words = shell_words(line).unwrap_or_else(|e| panic!("{e} in {line:?}"));
        assert_eq!(words.len(), 5, "{line:?} -> {words:?}");
        assert!(["terraform", "tofu"].contains(&words[0].as_str()) && words[1..3] == ["state", "mv"], "{words:?}");
        assert_eq!(words[3], pair["from"].as_str().unwrap());
        assert_eq!(words[4], pair["to"].as_str().unwrap());
    }
    // The .tf.json blocks name the same addresses.
    let out = run_raw(&["moves".into(), "--format".into(), "tf-json".into(), plan.into()], &[]);
    let tf: serde_json::Value = serde_json::from_slice(&out.stdout).expect("tf-json parses");
    let moved: Vec<(&str, &str)> =
        tf["moved"].as_array().unwrap().iter().map(|m| (m["from"].as_str().unwrap(), m["to"].as_str().unwrap())).collect();
    let expected: Vec<(&str, &str)> = pairs.iter().map(|p| (p["from"].as_str().unwrap(), p["to"].as_str().unwrap())).collect();
    assert_eq!(moved, expected);
    // And the native blocks: comments and moved blocks, one line each.
    let out = run_raw(&["moves".into(), "--format".into(), "hcl".into(), plan.into()], &[]);
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let ok = line.is_empty()
            || line.starts_with("# ")
            || line == "moved {"
            || line == "}"
            || line.starts_with("  from = ")
            || line.starts_with("  to   = ");
        assert!(ok, "unexpected line in hcl output: {line:?}");
    }
}

#[test]
fn shell_words_splits_like_a_posix_shell() {
    assert_eq!(shell_words(r#"a 'b c' 'd'\''e'"#).unwrap(), ["a", "b c", "d'e"]);
    assert!(shell_words("a $(x)").is_err());
    assert!(shell_words("a 'b").is_err());
    assert_eq!(strip_sgr("\x1b[1;31mx\x1b[0m\x1b]y"), "x\x1b]y");
    assert_eq!(strip_code_spans("a `<b>` c ``x`y`` d"), "a  c  d");
    assert_eq!(strip_code_spans(r"a \`<b>\` c"), r"a \`<b>\` c");
    assert!(markdown_injection(r"\[x\](javascript:alert(1))").is_none());
    assert!(markdown_injection("| `<script>` |\n```\n<script>\n```\n").is_none());
    assert!(markdown_injection("| <script> |").is_some());
    assert!(markdown_injection("x\n# INJECTED").is_some());
    assert!(markdown_injection("```\nopen").is_some());
    assert!(stderr_structure("planview: error: f: x\n  hint: y\nplanview: warning: z\n").is_none());
    assert!(stderr_structure("planview: error: a\nplanview: error: # INJECTED\n").is_some());
    assert!(stderr_structure("planview: error: a\n  hint: b\n  hint: fake\n").is_some());
    assert!(stderr_structure("oops\n").is_some());
}
