//! `show` streamed ([`planview::testkit::run::show`]) against `show` read
//! whole (`run_show_whole`, the pipeline it replaced): the same bytes and the
//! same errors on every fixture, in every format, from a file and from stdin;
//! secrets known only after the change that prints them are still masked;
//! and the input is never held.

use crate::common::big::late_secret_plan;
use crate::common::*;
use planview::config::ShowConfig;
use planview::testkit::query::show::ShowOptions;
use planview::testkit::read::{self, FindOptions, Root};
use planview::testkit::read::{ReadOptions, Source};
use planview::testkit::render::{Format, Style};
use planview::testkit::run::show::{run_show, run_show_whole, ShowRun};
use planview::testkit::secrets::Masker;
use std::path::{Path, PathBuf};

/// Every JSON fixture (and saved plan) of the fixture directories.
fn fixtures() -> Vec<PathBuf> {
    let mut v = Vec::new();
    for dir in ["testdata/real", "testdata/real-aws", "testdata/edge", "testdata/hostile", "testdata/roots"] {
        collect(&root().join(dir), &mut v);
    }
    v.sort();
    v
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.filter_map(Result::ok) {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "json" || x == "ndjson" || x == "log" || x == "zip") {
            out.push(p);
        }
    }
}

/// Output and outcome (`Debug` of the result) of one run.
type Run = (Vec<u8>, String, Vec<String>);

fn run_with(streamed: bool, roots: &[Root], lenient: bool, show: &ShowConfig, format: Format, show_sensitive: bool) -> Run {
    let read = ReadOptions { lenient, ..Default::default() };
    let mut out = Vec::new();
    let mut masker = Masker::default();
    let style = Style::default();
    let run = ShowRun { roots, read: &read, show, format, style: &style, show_sensitive };
    let status = if streamed { run_show(&run, &mut out, &mut masker) } else { run_show_whole(&run, &mut out, &mut masker) };
    // The secrets collected matter too: they mask the warnings and errors.
    let scrubbed = String::from_utf8_lossy(&masker.scrubber().scrub(format!("{status:?}").as_bytes())).into_owned();
    (out, scrubbed, read.notes.take())
}

/// Known differences of the streamed reader ([`planview::testkit::read::stream()`], shared by
/// every streamed command) from the whole read, which are not `show`'s: the
/// wording of a JSON syntax error (at the same place), and the file
/// `--lenient`'s warnings name in an input holding several documents (the
/// input's, `NAME#k` or the directory its log names; their order too).
fn same_errors(text: &str) -> String {
    let mut parts = text.split("invalid JSON: ");
    let mut s = parts.next().unwrap_or_default().to_string();
    for part in parts {
        s.push_str("invalid JSON: ...");
        s.push_str(&part[part.find('"').unwrap_or(0)..]);
    }
    s
}

fn same_warnings(warnings: &[String]) -> Vec<String> {
    let mut v: Vec<String> = warnings.iter().map(|w| w.split_once(": --lenient: ").map_or(w.as_str(), |(_, m)| m).to_string()).collect();
    v.sort();
    v
}

/// Where two texts part, with some context.
fn first_difference(a: &str, b: &str) -> String {
    let at = a.bytes().zip(b.bytes()).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
    let around = |s: &str| {
        let cut = |mut i: usize| {
            while !s.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        s[cut(at.saturating_sub(200))..cut((at + 200).min(s.len()))].to_string()
    };
    format!("at byte {at} (lengths {} / {}):\n--- streamed\n{}\n--- whole\n{}", a.len(), b.len(), around(a), around(b))
}

fn configs() -> Vec<(String, ShowConfig, bool)> {
    let plain = ShowOptions::default();
    let all = ShowOptions { all: true, full: true, ..Default::default() };
    let filtered = ShowOptions {
        filter: planview::testkit::filter::Filter {
            types: vec!["terraform_data".into(), "aws_security_group".into()],
            ..Default::default()
        },
        ..Default::default()
    };
    vec![
        ("default".into(), ShowConfig { options: plain.clone(), max_bytes: 65_536 }, false),
        ("--all --full --show-sensitive".into(), ShowConfig { options: all, max_bytes: 65_536 }, true),
        ("--type".into(), ShowConfig { options: filtered, max_bytes: 65_536 }, false),
        ("--max-bytes 1500".into(), ShowConfig { options: plain, max_bytes: 1500 }, false),
    ]
}

const FORMATS: [Format; 3] = [Format::Table, Format::Markdown, Format::Json];

#[test]
fn streamed_show_writes_what_show_read_whole_wrote_on_every_fixture() {
    let fixtures = fixtures();
    assert!(fixtures.len() > 80, "{} fixtures", fixtures.len());
    let mut compared = 0;
    for path in &fixtures {
        let roots = read::expand(&[Source::File(path.clone())], &FindOptions::default(), &Default::default());
        for (what, show, sensitive) in configs() {
            for format in FORMATS {
                for lenient in [false, true] {
                    let whole = run_with(false, &roots, lenient, &show, format, sensitive);
                    let streamed = run_with(true, &roots, lenient, &show, format, sensitive);
                    let ctx = format!("{} {what} {format:?} lenient={lenient}", rel(path));
                    let (s, w) = (same_errors(&String::from_utf8_lossy(&streamed.0)), same_errors(&String::from_utf8_lossy(&whole.0)));
                    assert!(s == w, "{ctx}: output\n{}", first_difference(&s, &w));
                    assert_eq!(same_errors(&streamed.1), same_errors(&whole.1), "{ctx}: outcome");
                    assert_eq!(same_warnings(&streamed.2), same_warnings(&whole.2), "{ctx}: warnings");
                    compared += 1;
                }
            }
        }
    }
    // Several inputs at once, readable or not, and a directory of plans: one report each, in order.
    let many: Vec<Source> = [
        "testdata/real/basic/plan.json",
        "testdata/edge/bad-json.json",
        "testdata/roots/tree",
        "testdata/real/replace/plan.json",
        "nope.json",
        "testdata/roots/joined.ndjson",
    ]
    .iter()
    .map(|p| Source::File(root().join(p)))
    .collect();
    let roots = read::expand(&many, &FindOptions::default(), &Default::default());
    for format in FORMATS {
        let show = ShowConfig { options: ShowOptions::default(), max_bytes: 65_536 };
        let whole = run_with(false, &roots, false, &show, format, false);
        let streamed = run_with(true, &roots, false, &show, format, false);
        assert_eq!(String::from_utf8_lossy(&streamed.0), String::from_utf8_lossy(&whole.0), "several {format:?}");
        assert_eq!(same_errors(&streamed.1), same_errors(&whole.1), "several {format:?}");
    }
    assert!(compared > 1000, "{compared}");
}

/// The binary reading stdin writes what `show` read whole wrote of the file
/// (named `<stdin>`), with the same exit code.
#[test]
fn streamed_show_from_stdin_writes_what_show_read_whole_wrote() {
    for path in fixtures() {
        if path.extension().is_some_and(|x| x == "zip") {
            continue; // a saved plan needs terraform
        }
        let Ok(bytes) = std::fs::read(&path) else { continue }; // a dangling link
        let roots = [Root { name: "<stdin>".into(), source: Source::File(path.clone()), chdir: None, problem: None }];
        for (format, flag) in FORMATS.iter().zip(["table", "markdown", "json"]) {
            let show = ShowConfig { options: ShowOptions::default(), max_bytes: 65_536 };
            let (whole, status, _) = run_with(false, &roots, false, &show, *format, false);
            let o = planview_with_stdin(&["show", "-", "--format", flag, "--color", "never"], Some(&bytes));
            let ctx = format!("{} --format {flag}", rel(&path));
            assert_eq!(String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&whole), "{ctx}: {}", stderr(&o));
            let want = if status.starts_with("Ok(") { 0 } else { 2 };
            assert_eq!(o.status.code(), Some(want), "{ctx}: {status} / {}", stderr(&o));
        }
    }
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_secret_marked_sensitive_only_after_it_was_printed_is_masked() {
    let secret = "s3cr3t-Late-Marked-9f2c";
    // 1,500 changes of about 6 KB: 9.3 MB, just more than the spool's memory
    // (8 MiB), so the spooled road writes its temporary file and a file is
    // read twice. Each run's time is the size (the scrubber per byte at the
    // test profile's opt-level 0): it was 4,000 changes, 24 MB, three times
    // what proves the same.
    const N: usize = 1_500;
    let plan = late_secret_plan(N, secret, 3000, false);
    let memory = planview::testkit::run::show::MEMORY;
    assert!(plan.len() > memory && plan.len() < memory + memory / 4, "{} bytes", plan.len());
    let dir = std::env::temp_dir().join(format!("planview-show-stream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("late.json");
    std::fs::write(&file, &plan).unwrap();
    // Every format from stdin (the spooled road), the table from the file too
    // (the file is read again, not spooled): five runs, not nine, each a few
    // seconds at the test profile's opt-level 0 (the scrubber per byte).
    let f = file.to_str().unwrap();
    for (flag, from_stdin) in [("table", true), ("markdown", true), ("json", true), ("table", false)] {
        let args = ["show", if from_stdin { "-" } else { f }, "--format", flag, "--full", "--max-bytes", "100000000"];
        let o = planview_with_stdin(&args, from_stdin.then_some(plan.as_bytes()));
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{flag}: {}", stderr(&o));
        assert!(out.contains("aws_x.r0") && out.contains(&format!("aws_x.r{}", N - 1)), "{flag} stdin={from_stdin}: every change shown");
        assert!(!out.contains(secret), "{flag} stdin={from_stdin}: the secret is printed");
    }
    // Shown, it is there (the test would pass vacuously otherwise): the same
    // bytes, from the file, with --show-sensitive.
    let o = planview(&["show", f, "--format", "json", "--full", "--max-bytes", "100000000", "--show-sensitive"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains(secret), "--show-sensitive");
    std::fs::remove_dir_all(&dir).ok();
}

/// `show` never holds the input: a plan piped in, bigger than the address
/// space it is allowed, is shown (the old whole read ran out of memory).
/// 94 MB under 80 MB proves what 470 MB under 400 MB did: streamed, `show
/// --address` peaks at about 29 MB (RSS, test build) and runs in 60 MB of
/// address space on this plan, so 80 MB leaves it room, and the plan cannot
/// be held under it (the run's time is the plan's size: 2 s, not 11).
#[test]
#[cfg(target_os = "linux")]
fn show_of_a_plan_bigger_than_its_memory_limit_streams() {
    let secret = "pw-late-and-streamed-77";
    // 80 MB of address space (more on more cores: `limit_kb`), and a plan
    // 12 MB bigger (changes of two 64 KB pads).
    let limit = crate::common::big::limit_kb(80_000);
    let changes = (((limit << 10) + (12 << 20)) / (128 << 10)) as usize + 1;
    let args = "show - --address aws_x.r0 --address aws_x.last --format json";
    let (o, sent) = crate::common::big::piped_under_limit(args, limit, move |feed| {
        // One change printing the secret, 94 MB of others, one marking it sensitive.
        let pad = "p".repeat(64 << 10);
        feed.put(r#"{"format_version":"1.2","resource_changes":["#)?;
        feed.put(&format!(
            r#"{{"address":"aws_x.r0","type":"aws_x","change":{{"actions":["update"],"before":{{"v":"{secret}","n":1}},"after":{{"v":"{secret}","n":2}}}}}}"#
        ))?;
        for i in 1..changes {
            feed.put(&format!(
                r#",{{"address":"aws_x.r{i}","type":"aws_x","change":{{"actions":["update"],"before":{{"pad":"{pad}","n":1}},"after":{{"pad":"{pad}","n":2}}}}}}"#
            ))?;
        }
        feed.put(&format!(
            r#",{{"address":"aws_x.last","type":"aws_x","change":{{"actions":["update"],"before":{{"pw":"{secret}","n":1}},"after":{{"pw":"{secret}","n":2}},"before_sensitive":{{"pw":true}},"after_sensitive":{{"pw":true}}}}}}]}}"#
        ))
    });
    assert!(sent as u64 > (limit << 10) + (8 << 20), "{sent}: the plan is bigger than the limit");
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let shown: Vec<&str> = report["resources"].as_array().unwrap().iter().map(|r| r["address"].as_str().unwrap()).collect();
    assert_eq!(shown, ["aws_x.r0", "aws_x.last"]);
    assert_eq!(report["filtered_out"], changes - 1);
    assert!(!out.contains(secret), "{out}");
}

/// A FIFO (`<(tofu show -json plan.out)`) is streamed like stdin: the same
/// bytes as the file read whole.
#[test]
#[cfg(unix)]
fn streamed_show_from_a_fifo_writes_what_show_read_whole_wrote() {
    let dir = std::env::temp_dir().join(format!("planview-show-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("plan.fifo");
    let plan = root().join("testdata/real/replace/plan.json");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let roots = [Root { name: fifo.display().to_string(), source: Source::File(plan.clone()), chdir: None, problem: None }];
    let show = ShowConfig { options: ShowOptions::default(), max_bytes: 65_536 };
    let (whole, _, _) = run_with(false, &roots, false, &show, Format::Json, false);
    let writer = {
        let (fifo, plan) = (fifo.clone(), plan.clone());
        std::thread::spawn(move || std::fs::write(&fifo, std::fs::read(&plan).unwrap()))
    };
    let o = planview(&["show", fifo.to_str().unwrap(), "--format", "json"]);
    writer.join().unwrap().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&whole));
    std::fs::remove_dir_all(&dir).ok();
}
