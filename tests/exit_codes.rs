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
