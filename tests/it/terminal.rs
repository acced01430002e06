//! The real binary in a pseudo-terminal (util-linux `script`) of 100 columns:
//! tables fit the terminal's width without `--width` or COLUMNS, in colour;
//! a progress bar on stderr while a big input is read, only there.
//! They need `script` and `stty` and a pseudo-terminal, so they are
//! `#[ignore]`d: `.ci/run` runs them (`cargo test --locked -- --ignored`),
//! where a missing tool or terminal fails them, never passes them unrun.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_planview");

/// Run `args` in a pseudo-terminal of `cols` columns (fails when no terminal can be made here).
fn in_terminal(cols: u16, args: &[&str]) -> String {
    let quoted: Vec<String> = std::iter::once(BIN).chain(args.iter().copied()).map(|a| format!("'{}'", a.replace('\'', "'\\''"))).collect();
    let inner = format!("stty cols {cols} rows 60 && {}", quoted.join(" "));
    let out = Command::new("script")
        .args(["-q", "-e", "-c", &inner, "/dev/null"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("COLUMNS")
        .env_remove("NO_COLOR")
        .env("TERM", "xterm")
        .output();
    let out = out.unwrap_or_else(|e| panic!("no `script` here to make a pseudo-terminal (util-linux; .ci/run installs it): {e}"));
    // `gate` exits 1 on a failing plan: only no output at all means no terminal.
    assert!(!out.stdout.is_empty(), "`script` could not run {args:?} in a pseudo-terminal: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n")
}

/// The columns a line takes on screen: colour sequences take none; every
/// other character planview draws here (ASCII, box drawing, `·`) one.
fn screen_width(line: &str) -> usize {
    let mut n = 0;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            for d in chars.by_ref() {
                if ('\u{40}'..='\u{7e}').contains(&d) && d != '[' {
                    break;
                }
            }
        } else {
            n += 1;
        }
    }
    n
}

#[test]
#[ignore = "needs util-linux `script` and a pseudo-terminal: run by .ci/run (`cargo test --locked -- --ignored`)"]
fn tables_fit_a_100_column_terminal() {
    let cases: &[&[&str]] = &[
        &["summary", "testdata/real/modules/plan.json"],
        &["summary", "testdata/real/errored/plan.json", "testdata/real/replace/plan.json"],
        &["gate", "testdata/real/modules/plan.json"],
        &["drift", "testdata/edge/drift.json"],
        &["replace", "testdata/real/replace/plan.json"],
        &["checks", "testdata/real/checks/plan.json"],
        &["outputs", "testdata/real/modules/plan.json"],
        &["state", "testdata/real/state/state.json"],
    ];
    for args in cases {
        let screen = in_terminal(100, args);
        // Unlimited, the same tables are wider than the terminal: the terminal made the difference.
        let wide = Command::new(BIN).args(*args).arg("--width=0").current_dir(env!("CARGO_MANIFEST_DIR")).output().unwrap();
        let widest = String::from_utf8_lossy(&wide.stdout).lines().map(screen_width).max().unwrap_or(0);
        assert!(screen.contains('╭'), "{args:?}: no table\n{screen}");
        for line in screen.lines() {
            assert!(screen_width(line) <= 100, "{args:?}: a line of {} columns\n{screen}", screen_width(line));
        }
        if args[0] != "checks" && args[0] != "state" {
            assert!(widest > 100, "{args:?}: the case is not wide enough to test anything ({widest})");
        }
    }
}

#[test]
#[ignore = "needs util-linux `script` and a pseudo-terminal: run by .ci/run (`cargo test --locked -- --ignored`)"]
fn colour_and_width_come_from_the_terminal() {
    let screen = in_terminal(80, &["summary", "testdata/real/replace/plan.json"]);
    assert!(screen.contains("\u{1b}["), "colour on a terminal:\n{screen}");
    assert!(screen.lines().all(|l| screen_width(l) <= 80), "{screen}");
    // A colour that runs over a wrapped line is closed at its end, so the border stays uncoloured.
    for line in screen.lines().filter(|l| l.starts_with('│')) {
        assert_eq!(line.matches("\u{1b}[0m").count(), line.matches("\u{1b}[3").count(), "{line:?}");
    }
}

/// Run the shell command `cmd` in a pseudo-terminal of 100 columns (CI unset);
/// what reached the terminal (fails when no terminal can be made here).
fn sh_in_terminal(dir: &std::path::Path, cmd: &str) -> String {
    let inner = format!("stty cols 100 rows 60 && echo tty-ready && {cmd}");
    let out = Command::new("script")
        .args(["-q", "-e", "-c", &inner, "/dev/null"])
        .current_dir(dir)
        .env_remove("CI")
        .env("TERM", "xterm")
        .output();
    let out = out.unwrap_or_else(|e| panic!("no `script` here to make a pseudo-terminal (util-linux; .ci/run installs it): {e}"));
    let screen = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(screen.contains("tty-ready"), "`script` could not run {cmd:?} in a pseudo-terminal: {}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{cmd}: {:?}\n{screen}", out.status);
    screen.split_once("tty-ready").map_or(String::new(), |(_, after)| after.to_string())
}

/// A plan of about 57 MB: 26,000 resource changes of 2 KB each.
fn big_plan(path: &std::path::Path) {
    use std::fmt::Write as _;
    let pad = "x".repeat(2000);
    let mut s = String::from(r#"{"format_version":"1.2","terraform_version":"1.11.4","resource_changes":["#);
    for i in 0..26_000 {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(
            s,
            r#"{{"address":"terraform_data.r{i}","mode":"managed","type":"terraform_data","name":"r{i}","provider_name":"registry.terraform.io/hashicorp/terraform","change":{{"actions":["create"],"before":null,"after":{{"input":"{pad}"}},"after_unknown":{{"id":true,"output":true}},"before_sensitive":false,"after_sensitive":{{}}}}}}"#
        );
    }
    s.push_str(r#"],"applyable":true,"complete":true,"errored":false}"#);
    assert!(s.len() > 52 << 20, "{} bytes: not over the threshold", s.len());
    std::fs::write(path, s).unwrap();
}

/// A bar was drawn for `name`, and the last thing drawn cleared it.
fn drew_and_cleared(screen: &str, name: &str) -> bool {
    let drawn = screen.contains(&format!("reading {name}")) && screen.contains("MiB");
    let after_clear = screen.rsplit_once("\u{1b}[2K").map_or(screen, |(_, rest)| rest);
    drawn && screen.contains("\u{1b}[2K") && screen_width(after_clear.trim()) == 0
}

#[test]
#[ignore = "needs util-linux `script` and a pseudo-terminal: run by .ci/run (`cargo test --locked -- --ignored`)"]
fn progress_bar_on_a_terminal_only_and_stdout_the_same() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("planview-progress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    big_plan(&dir.join("big.json"));
    let bin = format!("'{}'", BIN.replace('\'', "'\\''"));
    let run = |cmd: &str| sh_in_terminal(&dir, &cmd.replace("BIN", &bin));
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap();

    // stderr a terminal: a bar while reading, streamed (summary) and whole (outputs), file and pipe.
    let screen = run("BIN summary big.json > bar.out");
    assert!(drew_and_cleared(&screen, "big.json"), "{screen:?}");
    assert!(screen.contains("57.") && screen.contains('['), "bytes of the total, a bar: {screen:?}");
    let screen = run("BIN outputs big.json > outputs.out");
    assert!(drew_and_cleared(&screen, "big.json"), "{screen:?}");
    let screen = run("cat big.json | BIN summary > stdin.out");
    assert!(drew_and_cleared(&screen, "<stdin>"), "a spinner for a pipe: {screen:?}");

    // No bar: stderr a pipe, CI set, --quiet.
    for (cmd, out) in [
        ("BIN summary big.json > pipe.out 2> pipe.err", "pipe.out"),
        ("CI=1 BIN summary big.json > ci.out", "ci.out"),
        ("BIN summary --quiet big.json > quiet.out", "quiet.out"),
        ("BIN -q outputs big.json > quiet-outputs.out", "quiet-outputs.out"),
    ] {
        let screen = run(cmd);
        assert!(!screen.contains("reading") && screen_width(screen.trim()) == 0, "{cmd}: {screen:?}");
        assert!(!read(out).is_empty(), "{cmd}: no output");
    }
    assert!(read("pipe.err").is_empty(), "nothing on a piped stderr: {:?}", String::from_utf8_lossy(&read("pipe.err")));

    // The output is the same, byte for byte, with and without the bar.
    let plain = Command::new(BIN).args(["summary", "big.json"]).current_dir(&dir).output().unwrap();
    assert!(plain.status.success() && plain.stdout.len() > 1000);
    for out in ["bar.out", "pipe.out", "ci.out", "quiet.out"] {
        assert!(read(out) == plain.stdout, "{out} differs from the plain run");
    }
    let stdin = String::from_utf8(read("stdin.out")).unwrap();
    assert_eq!(stdin.replace("<stdin>", "big.json"), String::from_utf8(plain.stdout).unwrap());
    assert_eq!(read("outputs.out"), read("quiet-outputs.out"));
    let _ = std::fs::remove_dir_all(&dir);
}
