//! Whole-CLI snapshot tests: one case file per command, format and error case
//! in `tests/cmd/`, holding arguments, stdout, stderr and exit code.
//! Refresh snapshots with `TRYCMD=overwrite cargo test --test cli_snapshots`.

#[test]
fn cli_snapshots() {
    trycmd::TestCases::new().env("NO_COLOR", "").case("tests/cmd/*.toml");
}
