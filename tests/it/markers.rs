//! The sensitivity marker is read one way by every command: a malformed
//! marker (`"admin": "yes"` in `before_sensitive`/`after_sensitive`, a leaf
//! that is neither `true` nor `false`) marks the value, so no command, in any
//! format, prints it (the leak of issue 25: `show` and `comment` printed
//! `admin = false -> true` while every other command masked it).
//!
//! Commands and their formats are read from `--help`, so ones added later are
//! swept too.

use crate::common::commands::{commands, run_raw};

const FIXTURE: &str = "testdata/edge/malformed-marker.json";
/// Switches that show more: each command runs once plain and once with those it takes.
const MORE: &[&str] = &["--all", "--full", "--prior"];

/// What admin's values (`false` before, `true` after, booleans, so masked by
/// marker only, never by value) look like when printed, with whitespace removed.
const LEAKS: &[&str] = &[
    "false->true",
    "admin=false",
    "admin=true",
    "\"admin\":false",
    "\"admin\":true",
    "admin:false",
    "admin:true",
    "\"value\":false",
    "\"value\":true",
];

fn leak(out: &[u8]) -> Option<&'static str> {
    let squeezed: String = String::from_utf8_lossy(out).chars().filter(|c| !c.is_whitespace()).collect();
    LEAKS.iter().copied().find(|l| squeezed.contains(l))
}

fn run(args: &[String]) -> std::process::Output {
    run_raw(args, &[("NO_COLOR", "1")])
}

#[test]
fn a_malformed_marker_masks_the_value_in_every_command_and_format() {
    let mut runs = 0;
    for c in commands() {
        let more: Vec<String> = MORE.iter().filter(|m| c.takes(m)).map(|m| m.to_string()).collect();
        for format in &c.formats {
            for extra in [Vec::new(), more.clone()] {
                let mut args = vec![c.name.clone()];
                if !format.is_empty() {
                    args.extend(["--format".to_string(), format.clone()]);
                }
                args.extend(extra);
                args.extend(c.files(&[FIXTURE]));
                let out = run(&args);
                runs += 1;
                assert!(out.status.code().is_some_and(|c| c < 3), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
                for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
                    if let Some(l) = leak(bytes) {
                        panic!("{args:?} prints admin's value ({l}) on {stream}:\n{}", String::from_utf8_lossy(bytes));
                    }
                }
            }
        }
    }
    assert!(runs > 20, "only {runs} runs: the commands were not read from --help");
}

#[test]
fn the_leak_check_can_fail_with_show_sensitive() {
    for format in ["table", "markdown", "json"] {
        let args: Vec<String> = ["show", "--show-sensitive", "--format", format, FIXTURE].iter().map(|s| s.to_string()).collect();
        let out = run(&args);
        assert!(leak(&out.stdout).is_some(), "{args:?}: {}", String::from_utf8_lossy(&out.stdout));
    }
}

#[test]
fn the_comment_body_masks_a_malformed_marker() {
    let args: Vec<String> = ["comment", FIXTURE].iter().map(|s| s.to_string()).collect();
    let out = run(&args);
    let body = String::from_utf8_lossy(&out.stdout);
    assert!(body.contains("admin = (sensitive value)"), "{body}");
    assert_eq!(leak(&out.stdout), None, "{body}");
}
