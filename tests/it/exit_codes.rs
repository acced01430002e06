//! Exit codes and process behaviour: broken pipes, stdin handling, usage errors.

use crate::common::*;
use std::io::Read;
use std::process::{Command, Stdio};

#[test]
fn broken_pipe_ends_quietly_with_zero() {
    // Enough output to overflow any pipe buffer, then the reader goes away.
    let mut args: Vec<String> = vec!["summary".into()];
    for _ in 0..300 {
        args.push("testdata/real/import/plan.json".into());
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_planview"))
        .args(&args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "stderr: {}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "a broken pipe must end quietly: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn piped_stdin_and_dash_read_the_same_document() {
    let data = std::fs::read(root().join("testdata/real/replace/plan.json")).unwrap();
    let piped = planview_with_stdin(&["summary", "-f", "json"], Some(&data));
    let dash = planview_with_stdin(&["summary", "-f", "json", "-"], Some(&data));
    assert_eq!(piped.status.code(), Some(0));
    assert_eq!(piped.stdout, dash.stdout);
    let v: serde_json::Value = serde_json::from_slice(&piped.stdout).unwrap();
    assert_eq!(v["file"], "<stdin>");
    assert_eq!(v["totals"]["destroy"], 5);
}

#[test]
fn stdin_given_twice_is_a_usage_error() {
    let out = planview_with_stdin(&["summary", "-", "-"], Some(b"{}"));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("only once"));
}

#[test]
fn unreadable_input_never_passes_and_prints_no_partial_answer() {
    let out = planview(&["summary", "testdata/edge/truncated.json"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "no partial answer on stdout");
}

#[test]
fn no_color_env_and_never_flag_emit_no_escape_bytes() {
    let out = Command::new(env!("CARGO_BIN_EXE_planview"))
        .args(["summary", "--color", "auto", "testdata/real/replace/plan.json"])
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(!out.stdout.contains(&0x1b));
    let out = planview(&["summary", "--color", "never", "testdata/real/replace/plan.json"]);
    assert!(!out.stdout.contains(&0x1b));
    let out = planview(&["summary", "--color", "always", "testdata/real/replace/plan.json"]);
    assert!(out.stdout.contains(&0x1b), "--color always colours even into a pipe");
}

/// Every fixture a command can be given: real plans and states, edge cases
/// (broken ones included) and hostile documents.
fn every_fixture() -> Vec<String> {
    let mut v = Vec::new();
    for dir in ["testdata/real", "testdata/edge", "testdata/hostile"] {
        let mut stack = vec![root().join(dir)];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap().filter_map(Result::ok) {
                let p = e.path();
                let name = p.file_name().unwrap().to_string_lossy().to_string();
                if p.is_dir() {
                    stack.push(p);
                } else if name.ends_with(".json") && !name.contains("policy") {
                    v.push(rel(&p));
                }
            }
        }
    }
    v.sort();
    assert!(v.len() > 50, "fixtures not found: {v:?}");
    v
}

/// Run with stdout the write end of a pipe whose read end is already closed:
/// every write fails with a broken pipe, whatever the timing.
// `std::io::pipe` is newer than the crate's MSRV (1.85), but the test suite
// needs 1.89 anyway (its dev-dependencies; see README).
#[allow(clippy::incompatible_msrv)]
fn run_with_stdout_closed(args: &[String]) -> std::process::Output {
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    Command::new(env!("CARGO_BIN_EXE_planview"))
        .args(args)
        .current_dir(root())
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("run planview")
}

#[test]
fn a_closed_stdout_never_changes_the_exit_code_of_any_command_format_or_fixture() {
    use crate::common::commands::{commands, run_raw};
    let fixtures = every_fixture();
    // Pairwise, not the whole product (which was 8,500 runs, the suite's
    // slowest test): what the exit code depends on is the verdict (command ×
    // fixture) and how the renderer meets the closed pipe (command × format).
    // So the fixtures run in each command's first format, and every format
    // over a sample holding each verdict: a plain plan, a failing gate, a
    // state, broken input, failing checks, drift, an errored plan, hostile
    // strings, an empty document.
    const SAMPLE: &[&str] = &[
        "testdata/real/basic/plan.json",
        "testdata/real/replace/plan.json",
        "testdata/real/state/state.json",
        "testdata/edge/truncated.json",
        "testdata/edge/condition-results.json",
        "testdata/edge/drift.json",
        "testdata/real/errored/plan.json",
        "testdata/hostile/hostile-plan.json",
        "testdata/edge/empty.json",
    ];
    // Which fixtures reach distinct paths: every one of `testdata/edge` and
    // `testdata/hostile`, whose shapes differ where a run meets its first
    // write (broken at different places, several documents, text around
    // one, old and future formats, states, hostile strings). The real
    // fixtures are each one well-formed document that terraform wrote: every
    // command decides its verdict on one before it writes (compute, then
    // render; streamed `show` and `summary` write once the input is read), so
    // the closed pipe meets them only in the renderer, and what tells them
    // apart is the verdict. Their verdicts over the commands fall in a few
    // classes (all pass; the gate fails; checks fail; an errored plan fails
    // both; a state, refused by the plan-only commands; a state whose checks
    // failed): one of each runs, with the plans of the sample (the other 35
    // real fixtures ran here until 2026-11: about 850 runs more, the same
    // paths).
    const REAL: &[&str] = &[
        "testdata/real/noop/plan.json",
        "testdata/real/basic/plan.json",
        "testdata/real/replace/plan.json",
        "testdata/real/checks/plan.json",
        "testdata/real/errored/plan.json",
        "testdata/real/state/state.json",
        "testdata/real/deposed/state.json",
        "testdata/real/sensitive/plan.json",
        "testdata/real/refresh-only-drift/plan.json",
        "testdata/real/moved/plan.json",
    ];
    // Several inputs: passing plans first, then failing ones, so that a
    // verdict read after the pipe closed must still decide the exit code.
    const MANY: &[&str] = &[
        "testdata/real/noop/plan.json",
        "testdata/real/sensitive/plan.json",
        "testdata/real/basic/plan.json",
        "testdata/real/checks/plan.json",
        "testdata/real/errored/plan.json",
    ];
    for f in SAMPLE.iter().chain(REAL).chain(MANY) {
        assert!(fixtures.iter().any(|x| x == f), "{f} is no fixture");
    }
    let first: Vec<&str> = fixtures
        .iter()
        .map(String::as_str)
        .filter(|f| !f.starts_with("testdata/real/") || REAL.contains(f) || SAMPLE.contains(f))
        .collect();
    assert!(first.len() > 60 && first.iter().filter(|f| f.starts_with("testdata/edge/")).count() > 40, "{first:?}");
    let plans: Vec<String> = MANY.iter().map(|p| p.to_string()).collect();
    let mut runs: Vec<Vec<String>> = Vec::new();
    for c in commands() {
        for (i, format) in c.formats.iter().enumerate() {
            let mut base = vec![c.name.clone()];
            if !format.is_empty() {
                base.extend(["--format".to_string(), format.clone()]);
            }
            let these: Vec<&str> = if i == 0 { first.clone() } else { SAMPLE.to_vec() };
            for f in these {
                runs.push(base.iter().cloned().chain(c.files(&[f])).collect());
            }
            if c.many_files {
                runs.push(base.iter().cloned().chain(plans.iter().cloned()).collect());
            }
            if c.takes("--fail-on-checks") {
                runs.push(base.iter().cloned().chain(["--fail-on-checks".into(), "testdata/edge/condition-results.json".into()]).collect());
            }
        }
    }
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(2, 8);
    let chunk = runs.len().div_ceil(workers).max(1);
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = runs
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut bad = Vec::new();
                    for args in part {
                        let whole = run_raw(args, &[]);
                        let closed = run_with_stdout_closed(args);
                        if whole.status.code() != closed.status.code() {
                            bad.push(format!(
                                "planview {}: exit {:?} with stdout read, {:?} with stdout closed (stderr: {})",
                                args.join(" "),
                                whole.status.code(),
                                closed.status.code(),
                                String::from_utf8_lossy(&closed.stderr).lines().next().unwrap_or_default()
                            ));
                        }
                    }
                    (part.len(), bad)
                })
            })
            .collect();
        let mut all = Vec::new();
        let mut n = 0;
        for h in handles {
            let (count, bad) = h.join().expect("worker");
            n += count;
            all.extend(bad);
        }
        assert_eq!(n, runs.len());
        all
    });
    // The sweep covers failing verdicts (else it proves nothing).
    let failing = run_raw(&["gate".into(), "testdata/real/replace/plan.json".into()], &[]);
    assert_eq!(failing.status.code(), Some(1));
    assert!(failures.is_empty(), "{} runs changed their exit code:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn a_failing_gate_exits_one_when_its_reader_takes_one_line_and_goes() {
    // `planview gate plan.json | head -1` under `set -o pipefail`: the reader
    // reads the first line and closes; the verdict still decides the exit code.
    // Each plan is given 300 times, so the output overflows the pipe's buffer
    // and the write after the reader went away always fails.
    for (args, want) in [
        (vec!["gate", "testdata/real/replace/plan.json"], 1),
        (vec!["gate", "--format", "json", "testdata/real/replace/plan.json"], 1),
        (vec!["checks", "testdata/real/checks/plan.json"], 1),
        (vec!["gate", "testdata/real/noop/plan.json"], 0),
    ] {
        let (file, flags) = args.split_last().unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_planview"))
            .args(flags)
            .args(std::iter::repeat_n(file, 300))
            .current_dir(root())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 1];
        stdout.read_exact(&mut first).unwrap();
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(want), "planview {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr));
    }
}

/// Every command's help says what it reads and what its exit codes mean for
/// it: the commands that refuse a state do not claim to read one, and only
/// `checks`, `gate` and `diff` speak of exit 1.
#[test]
fn each_command_help_says_what_it_reads_and_its_own_exit_codes() {
    let cmds: Vec<String> = crate::common::commands::commands().into_iter().map(|c| c.name).collect();
    assert!(cmds.len() >= 9, "{cmds:?}");
    for cmd in &cmds {
        let help = String::from_utf8(planview(&[cmd, "--help"]).stdout).unwrap();
        let reads = help.lines().find(|l| l.starts_with("Reads: ")).unwrap_or_else(|| panic!("{cmd}: no `Reads:` line\n{help}"));
        let exit_codes = help.split("Exit codes:").nth(1).unwrap_or_else(|| panic!("{cmd}: no exit codes\n{help}"));
        let has_exit_1 = exit_codes.lines().any(|l| l.trim_start().starts_with("1 "));
        assert_eq!(has_exit_1, ["checks", "gate", "diff", "comment"].contains(&cmd.as_str()), "{cmd}: exit 1\n{exit_codes}");
        let plan_only = ["show", "drift", "replace", "gate", "moves", "diff", "fingerprint", "comment"].contains(&cmd.as_str());
        if plan_only {
            assert!(!reads.contains("or a state"), "{cmd}: {reads}");
            let files = help.lines().find(|l| l.trim_start().starts_with("[FILE]")).unwrap_or_default();
            assert!(!files.contains("or state"), "{cmd}: {files}");
        } else if cmd != "state" {
            assert!(reads.contains("a plan or a state"), "{cmd}: {reads}");
        }
    }
    let summary = String::from_utf8(planview(&["summary", "--help"]).stdout).unwrap();
    assert!(summary.contains("`summary` never exits 1"), "{summary}");
    let checks = String::from_utf8(planview(&["checks", "--help"]).stdout).unwrap();
    assert!(checks.contains("unless --no-fail"), "{checks}");
}
