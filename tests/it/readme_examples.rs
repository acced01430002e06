//! README's (and docs/'s, docs/commands/ included) examples are real output: every ```console block that runs
//! `$ planview ...` on a file in testdata/ and shows what it prints is run here
//! in a 100-column terminal (`COLUMNS=100`, no colour) and must print exactly
//! that (stderr, then stdout; `> /dev/null` drops stdout).

use std::process::Command;

/// (command line, shown output) of each example that shows its output.
fn examples(readme: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = readme.lines();
    while let Some(l) = lines.next() {
        if l != "```console" {
            continue;
        }
        let block: Vec<&str> = lines.by_ref().take_while(|l| *l != "```").collect();
        let Some(cmd) = block.first().and_then(|l| l.strip_prefix("$ planview ")) else { continue };
        // A block of commands only (`$ tofu ...`, several `$ planview ...`) shows no output.
        if block.iter().skip(1).any(|l| l.starts_with("$ ")) || block.len() == 1 || !cmd.contains("testdata/") {
            continue;
        }
        out.push((cmd.to_string(), block[1..].iter().map(|l| format!("{l}\n")).collect()));
    }
    out
}

#[test]
fn readme_examples_show_what_planview_prints() {
    // README and the reference pages it links to.
    // README, the guides beside it and every page of docs/ (docs/commands/ too).
    let pages = crate::docs::pages();
    let readme: String = pages.iter().map(|p| std::fs::read_to_string(p).unwrap()).collect::<Vec<_>>().join("\n");
    let found = examples(&readme);
    assert!(found.len() >= 4, "README's examples were not found: {found:?}");
    for (cmd, shown) in found {
        let (args, quiet) = match cmd.strip_suffix("> /dev/null") {
            Some(a) => (a.trim_end(), true),
            None => (cmd.as_str(), false),
        };
        let o = Command::new(env!("CARGO_BIN_EXE_planview"))
            .args(args.split_whitespace())
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("COLUMNS", "100")
            .env("NO_COLOR", "1")
            .env_remove("CI")
            .output()
            .unwrap();
        let mut got = String::from_utf8(o.stderr).unwrap();
        if !quiet {
            got.push_str(&String::from_utf8(o.stdout).unwrap());
        }
        assert_eq!(got, shown, "README's example `planview {cmd}` is not what planview prints (regenerate it)");
    }
}
