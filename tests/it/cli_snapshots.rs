//! Whole-CLI snapshot tests: one case file per command, format and error case
//! in `tests/cmd/`, holding arguments, stdout, stderr and exit code.
//! Tables at widths 80, 100 and 160, by `--width` (`width-*.toml`) and by
//! COLUMNS (`columns/`).
//! Refresh snapshots with `TRYCMD=overwrite cargo test --test it cli_snapshots`.

#[test]
fn cli_snapshots() {
    // COLUMNS empty counts as unset: tables are as wide as they need unless a
    // case gives --width (a default set here wins over a case's own).
    // `comment` writes the job summary and outputs only when these are non-empty.
    trycmd::TestCases::new()
        .env("NO_COLOR", "")
        .env("COLUMNS", "")
        .env("GITHUB_STEP_SUMMARY", "")
        .env("GITHUB_OUTPUT", "")
        .env("PLANVIEW_FINGERPRINT_KEY", "")
        .case("tests/cmd/*.toml");
}

/// Cases that set COLUMNS themselves (`env.add.COLUMNS`).
#[test]
fn cli_snapshots_columns() {
    trycmd::TestCases::new().env("NO_COLOR", "").case("tests/cmd/columns/*.toml");
}
