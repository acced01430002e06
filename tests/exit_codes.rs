//! Exit codes and process behaviour: broken pipes, stdin handling, usage errors.

mod common;
use common::*;
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

/// Every command's help says what it reads and what its exit codes mean for
/// it: the commands that refuse a state do not claim to read one, and only
/// `checks` and `gate` speak of exit 1.
#[test]
fn each_command_help_says_what_it_reads_and_its_own_exit_codes() {
    let top = String::from_utf8(planview(&["--help"]).stdout).unwrap();
    let cmds: Vec<String> = top
        .lines()
        .skip_while(|l| l.trim_end() != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| !["help", "completions", "man"].contains(n))
        .map(str::to_string)
        .collect();
    assert!(cmds.len() >= 9, "{cmds:?}");
    for cmd in &cmds {
        let help = String::from_utf8(planview(&[cmd, "--help"]).stdout).unwrap();
        let reads = help.lines().find(|l| l.starts_with("Reads: ")).unwrap_or_else(|| panic!("{cmd}: no `Reads:` line\n{help}"));
        let exit_codes = help.split("Exit codes:").nth(1).unwrap_or_else(|| panic!("{cmd}: no exit codes\n{help}"));
        let has_exit_1 = exit_codes.lines().any(|l| l.trim_start().starts_with("1 "));
        assert_eq!(has_exit_1, ["checks", "gate"].contains(&cmd.as_str()), "{cmd}: exit 1\n{exit_codes}");
        let plan_only = ["show", "drift", "replace", "gate", "moves"].contains(&cmd.as_str());
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
