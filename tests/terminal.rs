//! The real binary in a pseudo-terminal (util-linux `script`) of 100 columns:
//! tables fit the terminal's width without `--width` or COLUMNS, in colour.
//! Skipped, saying so, where `script` or `stty` is missing (a bare CI machine).

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_planview");

/// Run `args` in a pseudo-terminal of `cols` columns; `None` when no terminal can be made here.
fn in_terminal(cols: u16, args: &[&str]) -> Option<String> {
    let quoted: Vec<String> = std::iter::once(BIN).chain(args.iter().copied()).map(|a| format!("'{}'", a.replace('\'', "'\\''"))).collect();
    let inner = format!("stty cols {cols} rows 60 && {}", quoted.join(" "));
    let out = Command::new("script")
        .args(["-q", "-e", "-c", &inner, "/dev/null"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("COLUMNS")
        .env_remove("NO_COLOR")
        .env("TERM", "xterm")
        .output();
    let out = match out {
        Ok(o) => o,
        Err(e) => {
            eprintln!("skipped: no `script` here to make a pseudo-terminal ({e})");
            return None;
        }
    };
    // `gate` exits 1 on a failing plan: only no output at all means no terminal.
    if out.stdout.is_empty() {
        eprintln!("skipped: `script` could not run {args:?} in a pseudo-terminal: {}", String::from_utf8_lossy(&out.stderr));
        return None;
    }
    Some(String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n"))
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
        let Some(screen) = in_terminal(100, args) else { return };
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
fn colour_and_width_come_from_the_terminal() {
    let Some(screen) = in_terminal(80, &["summary", "testdata/real/replace/plan.json"]) else { return };
    assert!(screen.contains("\u{1b}["), "colour on a terminal:\n{screen}");
    assert!(screen.lines().all(|l| screen_width(l) <= 80), "{screen}");
    // A colour that runs over a wrapped line is closed at its end, so the border stays uncoloured.
    for line in screen.lines().filter(|l| l.starts_with('│')) {
        assert_eq!(line.matches("\u{1b}[0m").count(), line.matches("\u{1b}[3").count(), "{line:?}");
    }
}
