//! The error contract, over every command: each broken input is exit 2 with
//! one message naming the file (line:column where known), the same message
//! whether the command streams its input (`summary`) or reads it whole (the
//! others), from a file or from stdin. Also the cases that need a file made
//! at run time: unreadable, a device, nesting 100,000 levels deep in every
//! kind of place.

use crate::common::*;
use std::path::PathBuf;

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("planview-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Subcommands listed in `planview --help` that read documents (commands added
/// later are covered without touching this file).
fn subcommands() -> Vec<String> {
    let out = planview(&["--help"]);
    let text = String::from_utf8(out.stdout).unwrap();
    let cmds: Vec<String> = text
        .lines()
        .skip_while(|l| l.trim_end() != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter(|l| !l.starts_with("   ")) // a wrapped description
        .filter_map(|l| l.split_whitespace().next())
        .filter(|n| !["help", "completions", "man"].contains(n))
        .map(str::to_string)
        .collect();
    assert!(cmds.len() >= 9 && cmds.iter().any(|c| c == "summary"), "{cmds:?}");
    cmds
}

/// `cmd`, then `flags`, then `file` (after a good OLD plan for a command
/// comparing two plans, so the broken input is the only one). `--format ""`
/// is left out (a command without `--format`).
fn with_file(cmd: &str, flags: &[&str], file: &str) -> std::process::Output {
    let flags: Vec<&str> =
        flags.iter().copied().filter(|f| !f.is_empty()).filter(|f| *f != "--format" || !formats(cmd).contains(&"")).collect();
    let mut args: Vec<String> = std::iter::once(cmd).chain(flags.iter().copied()).map(str::to_string).collect();
    args.extend(crate::common::commands::file_args(cmd, &[file]));
    planview(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// The output formats a command takes (`""`: it has no `--format`).
fn formats(cmd: &str) -> &'static [&'static str] {
    match cmd {
        "comment" => &[""],
        "gate" => &["table", "json", "markdown", "github", "junit"],
        "moves" => &["tf-json", "hcl", "commands", "json"],
        "fingerprint" => &["text", "json"],
        _ => &["table", "json", "markdown"],
    }
}

/// Broken inputs in testdata/edge, with a piece of the message each must give.
const BROKEN: &[(&str, &str)] = &[
    ("empty.json", "input is empty"),
    ("truncated.json", "was the file truncated?"),
    ("bad-json.json", "invalid JSON"),
    ("trailing-text.json", ":2:1: there is text after the JSON document"),
    ("wrapped-trailer.json", ":2:1: there is text after the JSON document"),
    ("two-documents-one-line.json", ":1:26: there are two JSON documents"),
    ("wrapped-before.json", ":1:1: input does not start with a JSON object"),
    ("bom.json", ":1:1: input starts with a UTF-8 byte-order mark"),
    ("utf16le.json", "re-encode as UTF-8"),
    ("utf16be-no-bom.json", "re-encode as UTF-8"),
    ("invalid-utf8-skipped.json", ":3:41: input is not valid UTF-8"),
    ("array.json", "input is a JSON array"),
    ("random-object.json", "not a plan or state"),
    ("provider-schemas.json", "provider schemas"),
    ("no-format-version.json", "no `format_version`"),
    ("format-malformed.json", "is not a version number"),
    ("format-number.json", "must be a string"),
    ("format-2.0.json", "unsupported format_version"),
    ("format-3.1.json", "unsupported format_version"),
    ("duplicate-top-level.json", ":3:18: invalid JSON: duplicate key `resource_changes`"),
    ("duplicate-field.json", ":2:26: invalid JSON: duplicate field `address`"),
    ("deep-nesting.json", ":2:141: invalid JSON: nested deeper than 127 levels"),
    ("vanished.json", "cannot read: no such file"),
];

#[test]
fn every_command_refuses_broken_input_with_exit_2_and_the_same_message() {
    for (f, expect) in BROKEN {
        let path = format!("testdata/edge/{f}");
        let reference = stderr(&planview(&["summary", &path]));
        assert!(reference.starts_with(&format!("planview: error: {path}")), "{f}: {reference}");
        assert!(reference.contains(expect), "{f}: expected {expect:?} in {reference}");
        assert_eq!(reference.lines().filter(|l| l.starts_with("planview: error:")).count(), 1, "{f}: {reference}");
        for cmd in subcommands() {
            for format in formats(&cmd) {
                let o = with_file(&cmd, &["--format", format], &path);
                let e = stderr(&o);
                assert_eq!(o.status.code(), Some(2), "{cmd} {format} {f}: {e}");
                // Streamed (summary) or read whole (the others): one message.
                assert_eq!(e, reference, "{cmd} {format} {f}");
                if *format == "json" || *format == "gitlab" {
                    // The error object (GitLab's report is JSON too; so is `moves`'), never a partial answer.
                    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{cmd} {f}: {e}"));
                    assert!(v.to_string().contains("\"error\""), "{cmd} {f}: {v}");
                } else if cmd == "gate" || cmd == "comment" {
                    // A gate report (PR comment, annotations, JUnit) says the input could not be read.
                    let text = String::from_utf8_lossy(&o.stdout).to_lowercase();
                    assert!(text.is_empty() || text.contains("error"), "{format} {f}: {text}");
                } else {
                    assert!(o.stdout.is_empty(), "{cmd} {format} {f}: partial output {}", String::from_utf8_lossy(&o.stdout));
                }
            }
        }
    }
}

#[test]
fn broken_input_on_stdin_gets_the_same_message_as_a_file() {
    for (f, _) in BROKEN {
        let path = format!("testdata/edge/{f}");
        let Ok(bytes) = std::fs::read(root().join(&path)) else { continue };
        let from_file = stderr(&planview(&["summary", &path]));
        for cmd in ["summary", "gate", "show"] {
            let o = planview_with_stdin(&[cmd], Some(&bytes));
            assert_eq!(o.status.code(), Some(2), "{cmd} {f}");
            assert_eq!(stderr(&o), from_file.replace(&path, "<stdin>"), "{cmd} {f}");
        }
    }
}

#[test]
fn lenient_skips_a_wrapper_the_same_way_in_every_command() {
    for f in ["wrapped-before.json", "wrapped-trailer.json", "wrapped-both.json", "bom.json"] {
        let path = format!("testdata/edge/{f}");
        let reference = planview(&["summary", "--lenient", &path]);
        assert_eq!(reference.status.code(), Some(0), "{f}: {}", stderr(&reference));
        let warning = stderr(&reference);
        assert!(warning.starts_with(&format!("planview: warning: {path}: --lenient: ")), "{f}: {warning}");
        for cmd in subcommands() {
            let o = with_file(&cmd, &["--lenient"], &path);
            // `state` refuses a plan (exit 2) after reading it: the warning comes all the same.
            // (A command's own notes, e.g. `comment`'s "no configuration", are not the wrapper's.)
            assert_eq!(
                stderr(&o).lines().filter(|l| l.contains("warning") && l.contains("--lenient")).collect::<Vec<_>>(),
                warning.lines().collect::<Vec<_>>(),
                "{cmd} {f}"
            );
        }
        let bytes = std::fs::read(root().join(&path)).unwrap();
        for cmd in ["summary", "gate", "drift", "replace", "checks", "outputs", "show"] {
            let o = planview_with_stdin(&[cmd, "--lenient"], Some(&bytes));
            assert_eq!(stderr(&o), warning.replace(&path, "<stdin>"), "{cmd} {f} on stdin");
        }
    }
    // Lenient never reads two documents as one.
    let o = planview(&["gate", "--lenient", "testdata/edge/two-documents-one-line.json"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn lenient_answer_equals_the_answer_on_the_clean_json() {
    let clean = planview_with_stdin(&["summary", "--format", "json"], Some(br#"{"format_version":"1.2","terraform_version":"1.11.4","resource_changes":[{"address":"terraform_data.a","mode":"managed","type":"terraform_data","name":"a","change":{"actions":["create"]}}]}"#));
    let wrapped = planview(&["summary", "--lenient", "--format", "json", "testdata/edge/wrapped-both.json"]);
    let strip = |o: &std::process::Output| {
        let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v.as_object_mut().unwrap().remove("file");
        v
    };
    assert_eq!(strip(&clean), strip(&wrapped));
}

#[test]
#[cfg(target_os = "linux")]
fn unreadable_file_is_an_input_error_naming_the_file() {
    // /proc/self/mem is a regular file that cannot be read from offset 0 (EIO),
    // whoever runs the test (mode 000 does not stop root).
    for cmd in ["summary", "gate", "show"] {
        let o = planview(&[cmd, "/proc/self/mem"]);
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        let e = stderr(&o);
        assert!(e.starts_with("planview: error: /proc/self/mem: cannot read: "), "{cmd}: {e}");
        assert!(o.stdout.is_empty());
    }
}

#[test]
#[cfg(unix)]
fn mode_000_file_is_refused_unless_this_process_may_read_it() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("unreadable");
    let f = dir.join("locked-plan.json");
    std::fs::write(&f, r#"{"format_version":"1.0"}"#).unwrap();
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o000)).unwrap();
    let o = planview(&["summary", f.to_str().unwrap()]);
    if std::fs::read(&f).is_ok() {
        // root (or CAP_DAC_OVERRIDE) reads it: then so does planview.
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    } else {
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("locked-plan.json: cannot read: permission denied"), "{}", stderr(&o));
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
#[cfg(unix)]
fn devices_are_refused_before_reading_so_nothing_hangs() {
    for cmd in ["summary", "gate", "show", "moves"] {
        let o = planview(&[cmd, "/dev/zero"]);
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        assert!(stderr(&o).contains("/dev/zero: is a character device, not a JSON file"), "{cmd}: {}", stderr(&o));
    }
}

#[test]
fn file_that_vanished_is_reported_and_the_other_inputs_still_are() {
    // A dangling symlink: the name is listed, the file is gone.
    let o = planview(&["summary", "testdata/edge/vanished.json", "testdata/edge/empty-state.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("testdata/edge/vanished.json: cannot read: no such file"), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("empty-state.json"));
}

/// 100,000 levels in each place a document can hide them: a key planview
/// skips, a value kept raw (`before`), one parsed later (a state output),
/// the typed part (`resource_changes`), and never closed.
#[test]
fn nesting_100000_levels_deep_is_an_error_in_every_place_and_command() {
    let n = 100_000;
    let deep = format!("{}{}", "[".repeat(n), "]".repeat(n));
    let deep_obj = format!("{}1{}", "{\"a\":".repeat(n), "}".repeat(n));
    let docs = [
        ("skipped-key", format!(r#"{{"format_version":"1.0","values":{{}},"x":{deep}}}"#)),
        ("planned-values", format!(r#"{{"format_version":"1.2","planned_values":{deep_obj},"resource_changes":[]}}"#)),
        (
            "raw-before",
            format!(
                r#"{{"format_version":"1.2","resource_changes":[{{"address":"a.b","mode":"managed","change":{{"actions":["update"],"before":{deep_obj},"before_sensitive":true}}}}]}}"#
            ),
        ),
        ("state-output", format!(r#"{{"format_version":"1.0","values":{{"outputs":{{"o":{{"value":{deep},"sensitive":false}}}}}}}}"#)),
        ("typed-part", format!(r#"{{"format_version":"1.2","resource_changes":{deep}}}"#)),
        ("unclosed", format!(r#"{{"format_version":"1.2","x":{}"#, "[".repeat(n))),
    ];
    let dir = temp_dir("deep");
    let cmds = subcommands();
    for (name, doc) in docs {
        let f = dir.join(format!("{name}.json"));
        std::fs::write(&f, &doc).unwrap();
        for cmd in &cmds {
            let o = with_file(cmd, &[], f.to_str().unwrap());
            let e = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{cmd} {name}: {e}");
            assert!(e.contains(&format!("{name}.json:1:")) && e.contains("nested deeper than 127 levels"), "{cmd} {name}: {e}");
        }
        let o = planview_with_stdin(&["summary"], Some(doc.as_bytes()));
        assert!(stderr(&o).contains("nested deeper than 127 levels"), "stdin {name}: {}", stderr(&o));
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn nesting_up_to_the_limit_is_read_and_one_more_level_is_not() {
    // Four levels around the output value: {, values, outputs, o.
    let doc = |inner: usize| {
        format!(
            r#"{{"format_version":"1.0","values":{{"outputs":{{"o":{{"value":{}{},"sensitive":false}}}}}}}}"#,
            "[".repeat(inner),
            "]".repeat(inner)
        )
    };
    for cmd in ["summary", "outputs"] {
        let o = planview_with_stdin(&[cmd, "--format", "json"], Some(doc(123).as_bytes()));
        assert_eq!(o.status.code(), Some(0), "{cmd}: {}", stderr(&o));
        let text = String::from_utf8(o.stdout).unwrap();
        assert!(text.contains(&format!("{}{}", "[".repeat(123), "]".repeat(123))), "{cmd}: the deep value is shown whole");
        let o = planview_with_stdin(&[cmd], Some(doc(124).as_bytes()));
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        assert!(stderr(&o).contains("nested deeper than 127 levels"), "{cmd}");
    }
}

#[test]
fn numbers_beyond_64_bits_are_shown_as_written() {
    let o = planview(&["outputs", "--format", "json", "testdata/edge/big-numbers.json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    for n in ["18446744073709551616", "9007199254740993", "0.1000000000000000055511151231257827"] {
        assert!(text.contains(n), "{n} in {text}");
    }
    // serde_json writes 1e400 in its canonical form; the value is not rounded to infinity or null.
    assert!(text.contains("1e+400") || text.contains("1e400"), "{text}");
}

#[test]
#[cfg(unix)]
fn error_messages_escape_hostile_file_names_and_keys() {
    let dir = temp_dir("hostile-names");
    // A file name that tries to clear the screen and fake a hint line.
    let f = dir.join("evil\n  hint: all is fine\x1b[2J\u{202e}.json");
    std::fs::write(
        &f,
        "{\"format_version\":\"1.0\",\"\\u001b]52;c;cm0gLXJm\\u0007\":1,\"a\\nplanview: error: fake\":2,\"x\":\"\\u001b[31m\"}",
    )
    .unwrap();
    let bad_version = dir.join("v.json");
    std::fs::write(&bad_version, "{\"format_version\":[\"\\u001b[2J\"],\"values\":{}}").unwrap();
    let dup = dir.join("d.json");
    std::fs::write(&dup, "{\"format_version\":\"1.0\",\"\\u001b[2J\":1,\"\\u001b[2J\":2}").unwrap();
    for file in [&f, &bad_version, &dup] {
        for cmd in ["summary", "gate", "show"] {
            let o = planview(&[cmd, file.to_str().unwrap()]);
            assert_eq!(o.status.code(), Some(2), "{cmd}");
            assert_eq!(planview::sanitize::terminal_hazard(&o.stderr, false), None, "{cmd}: {}", stderr(&o));
            let e = stderr(&o);
            assert!(e.lines().filter(|l| l.starts_with("  hint:")).count() <= 1, "{cmd}: one real hint at most: {e}");
            assert_eq!(e.lines().filter(|l| l.starts_with("planview: error:")).count(), 1, "{cmd}: one message: {e}");
            assert!(!e.lines().any(|l| l.starts_with("planview: error: fake")), "{cmd}: {e}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Run planview with an endless stdin repeating `unit` (after `head`); the
/// run must end by itself within a minute.
fn with_endless_stdin(args: &[&str], head: &'static [u8], unit: &'static [u8]) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_planview"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut si = child.stdin.take().unwrap();
    std::thread::spawn(move || {
        let block: Vec<u8> = unit.iter().copied().cycle().take(64 << 10).collect();
        if si.write_all(head).is_err() {
            return;
        }
        // Until planview closes its end (a write error): at most 2 GB.
        for _ in 0..32 << 10 {
            if si.write_all(&block).is_err() {
                return;
            }
        }
    });
    let started = std::time::Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if started.elapsed() > std::time::Duration::from_secs(60) {
            child.kill().ok();
            panic!("{args:?} did not end on an endless input");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn endless_input_on_stdin_ends_with_an_error_not_a_hang() {
    let cases: [(&[u8], &[u8], &str); 4] = [
        (b"", b"\0", "input does not start with a JSON object"),
        (b"", b"[", "input is a JSON array"),
        (b"", b"{", "nested deeper than 127 levels"),
        (b"{\"format_version\":\"1.2\",\"x\":", b"[\n", "nested deeper than 127 levels"),
    ];
    for (head, unit, expect) in cases {
        for cmd in ["summary", "gate", "show"] {
            for lenient in [false, true] {
                let mut args = vec![cmd];
                if lenient {
                    args.push("--lenient");
                }
                if lenient && unit == b"\0" {
                    continue; // below: 64 MB of noise without a `{` first
                }
                let o = with_endless_stdin(&args, head, unit);
                assert_eq!(o.status.code(), Some(2), "{args:?} {unit:?}");
                assert!(stderr(&o).contains(expect), "{args:?} {unit:?}: {}", stderr(&o));
            }
        }
    }
    // --lenient looks for the JSON in the first 64 MB of noise, then gives
    // up: one of the 64 MB cases of the test below.
}

#[test]
fn an_error_quoting_the_input_masks_the_secrets_of_the_other_inputs() {
    // A file that is not a plan has its top-level keys listed in the error;
    // one of them holds a secret of the plan read beside it.
    let dir = temp_dir("error-secret");
    let f = dir.join("keys.json");
    std::fs::write(&f, r#"{"pass-SECRET-MARKER-var-0001-x": 1}"#).unwrap();
    let f = f.to_str().unwrap();
    let mut checked = 0;
    for cmd in subcommands() {
        let o = planview(&[&cmd, "testdata/real/sensitive/plan.json", f]);
        let e = stderr(&o);
        if e.contains("unexpected argument") {
            continue; // a command of one input (`moves`)
        }
        checked += 1;
        assert_eq!(o.status.code(), Some(2), "{cmd}: {e}");
        assert!(e.contains("top-level keys: pass-(sensitive value)-x"), "{cmd}: {e}");
        if !String::from_utf8_lossy(&planview(&[&cmd, "--help"]).stdout).contains("--show-sensitive") {
            continue; // a command that never prints a secret (`diff`)
        }
        let o = planview(&[&cmd, "--show-sensitive", "testdata/real/sensitive/plan.json", f]);
        assert!(stderr(&o).contains("pass-SECRET-MARKER-var-0001-x"), "{cmd}: --show-sensitive shows it");
    }
    assert!(checked >= 8, "only {checked} commands take several inputs");
    std::fs::remove_dir_all(&dir).ok();
}

/// A plan, a trailer, then a second plan: `--lenient` may skip the trailer but
/// never reads the input as the first plan alone (the gate passed on it).
/// Every command and format, file and stdin, streamed and whole: the commands
/// that read several documents read both (the gate fails on the second's
/// destroy), the others refuse the input (exit 2) at the second document.
#[test]
fn lenient_never_reads_the_first_of_several_documents_alone() {
    let dir = temp_dir("two-docs");
    let plan = r#"{"format_version":"1.2","terraform_version":"1.11.4","resource_changes":[]}"#;
    let destroy = r#"{"format_version":"1.2","resource_changes":[{"address":"a.b","mode":"managed","type":"a","name":"b","change":{"actions":["delete"]}}]}"#;
    let text = format!("{plan}\n::debug::exitcode: 0\nDone.\n  {destroy}\n");
    let f = dir.join("two.json");
    std::fs::write(&f, &text).unwrap();
    let path = f.to_str().unwrap();
    let expect = format!("planview: error: {path}:4:3: there are two JSON documents (with text between them)\n  hint: planview reads several documents from one input when each starts on a line of its own (`summary`, `gate`, `show`, ...); `diff`, `fingerprint` and `moves` read one document per input\n");
    let skipped = "--lenient: skipped the text between documents 1 and 2 (lines 2-3)";
    let one_document = |cmd: &str| ["diff", "fingerprint", "moves"].contains(&cmd);
    for cmd in subcommands() {
        for format in formats(&cmd) {
            let o = with_file(&cmd, &["--lenient", "--format", format], path);
            if one_document(&cmd) {
                assert_eq!(o.status.code(), Some(2), "{cmd} {format}: {}", stderr(&o));
                assert_eq!(stderr(&o), expect, "{cmd} {format}");
                continue;
            }
            assert!(stderr(&o).contains(skipped), "{cmd} {format}: {}", stderr(&o));
            assert!(String::from_utf8_lossy(&o.stdout).contains("two.json#2"), "{cmd} {format}: {}", String::from_utf8_lossy(&o.stdout));
            if cmd == "gate" {
                assert_eq!(o.status.code(), Some(1), "{cmd} {format}: the destroy of the second plan is seen");
            }
            if cmd == "gate" && *format == "json" {
                let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
                assert_eq!(v["verdict"], "fail", "{v}");
            }
        }
        let mut args = vec![cmd.as_str(), "--lenient"];
        if cmd == "diff" {
            args.extend([crate::common::commands::BASE_PLAN, "-"]);
        }
        let o = planview_with_stdin(&args, Some(text.as_bytes()));
        if one_document(&cmd) {
            assert_eq!(o.status.code(), Some(2), "{cmd} stdin");
            assert_eq!(stderr(&o), expect.replace(path, "<stdin>"), "{cmd} stdin");
        } else {
            assert!(stderr(&o).contains(skipped), "{cmd} stdin: {}", stderr(&o));
            assert!(String::from_utf8_lossy(&o.stdout).contains("<stdin>#2"), "{cmd} stdin");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// clap quotes the arguments it refuses: they are escaped like input, and the
/// exit code stays 2.
#[test]
fn argument_errors_do_not_echo_control_characters() {
    for cmd in subcommands() {
        // A value clap refuses: of --format, or of --platform (`comment` has no --format).
        let flag = if formats(&cmd).contains(&"") { "--platform" } else { "--format" };
        for args in [vec![cmd.as_str(), flag, "\x1b[31m\x07"], vec![cmd.as_str(), "--\x1b]0;pwned\x07"]] {
            let o = planview(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}");
            assert_eq!(planview::sanitize::terminal_hazard(&o.stderr, false), None, "{args:?}: {}", stderr(&o));
            let e = stderr(&o);
            assert!(e.starts_with("error: ") && e.contains("\\x1B") && !e.contains("''"), "shown, escaped: {args:?}: {e}");
            assert!(o.stdout.is_empty());
        }
    }
}

#[test]
fn endless_blank_space_before_or_after_the_document_ends_with_an_error() {
    // Every command reads through the one framer, so each command meets one of
    // the five 64 MB cases (blank space before or after the document, strict
    // or --lenient, and --lenient's noise with no JSON) and each case is met
    // by at least one command: 7 runs of 64 MB, not 35. (Each costs about 3 s
    // of the binary's CPU at the test profile's opt-level 0, the framer per
    // byte; the feeder writes one 64 KB block over and over.)
    let cmds = ["summary", "gate", "drift", "replace", "checks", "outputs", "show"];
    let mut met = [false; 5];
    for (i, cmd) in cmds.into_iter().enumerate() {
        let case = i % 5;
        met[case] = true;
        let (before, lenient) = (case % 2 == 0, case >= 2);
        let mut args = vec![cmd];
        if lenient {
            args.push("--lenient");
        }
        let (o, expected) = if case == 4 {
            (with_endless_stdin(&args, b"", b"noise\n"), "<stdin>:1:1: input does not start with a JSON object")
        } else if before {
            (with_endless_stdin(&args, b"", b" \n"), "<stdin>: input starts with more than 64 MB of blank space and no JSON")
        } else {
            let filler: &[u8] = if lenient { b"log line\n" } else { b" \t\n" };
            (
                with_endless_stdin(&args, b"{\"format_version\":\"1.0\"}", filler),
                "<stdin>: the input goes on for more than 64 MB after the JSON document",
            )
        };
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(expected), "{args:?}: {}", stderr(&o));
    }
    assert_eq!(met, [true; 5], "every case is met by some command");
}

/// A FIFO is read like a pipe: endless blanks in one end, an error naming it.
#[test]
#[cfg(unix)]
fn a_fifo_of_endless_blanks_is_refused_by_name() {
    use std::io::Write;
    let dir = temp_dir("fifo");
    let fifo = dir.join("plan.fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo (coreutils) makes the FIFO");
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&fifo) else { return };
            let block = vec![b' '; 64 << 10];
            for _ in 0..32 << 10 {
                if f.write_all(&block).is_err() {
                    return;
                }
            }
        })
    };
    let o = planview(&["gate", fifo.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("plan.fifo: input starts with more than 64 MB of blank space"), "{}", stderr(&o));
    writer.join().unwrap();
    std::fs::remove_dir_all(&dir).ok();
}

/// Under a memory limit, an input bigger than memory is exit 2 with a message,
/// not an abort (exit 134). The file is sparse: nothing is written to disk.
#[test]
#[cfg(target_os = "linux")]
fn an_input_bigger_than_the_memory_limit_is_an_input_error() {
    let dir = temp_dir("ulimit");
    let f = dir.join("huge.json");
    std::fs::File::create(&f).unwrap().set_len(2 << 30).unwrap();
    let bin = env!("CARGO_BIN_EXE_planview");
    let under_limit = |cmd: &str| {
        std::process::Command::new("/bin/sh")
            .arg("-c")
            .arg(format!("ulimit -v 1000000 && exec '{bin}' {cmd} '{}'", f.display()))
            .output()
            .unwrap()
    };
    let o = under_limit("state");
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "state: {e}");
    assert!(e.contains("huge.json: is too big to read into memory: 2048 MB could not be allocated"), "state: {e}");
    // Streamed commands never hold the input: they judge what it is (NUL bytes, no JSON).
    for cmd in ["summary", "gate", "drift", "replace", "checks", "outputs", "show"] {
        let o = under_limit(cmd);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {e}");
        assert!(e.contains("huge.json:1:1: input does not start with a JSON object"), "{cmd}: {e}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
