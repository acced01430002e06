//! The release workflow, the GitHub Action's installer and `cargo binstall`
//! agree on the release assets: the same targets, the same archive name
//! (`planview-vX.Y.Z-<target>.tar.gz`), a `.sha256` beside each, and the binary
//! at the archive's root. (.ci/run also validates the workflow against the
//! published GitHub workflow schema.)

fn read(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap()
}

/// The values after `key` on lines of `text` (`- target: x`, `) target=x ;;`).
fn after<'t>(text: &'t str, key: &str) -> Vec<&'t str> {
    let mut v: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once(key).map(|(_, r)| r.split_whitespace().next().unwrap_or("").trim_end_matches(';')))
        .filter(|t| !t.is_empty() && !t.starts_with('"') && !t.starts_with('$'))
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn the_workflow_the_installer_and_binstall_name_the_same_assets() {
    let workflow = read(".github/workflows/release.yml");
    let install = read("ci/github/install.sh");
    let cargo = read("Cargo.toml");
    // Targets.
    let built = after(&workflow, "- target: ");
    let installed = after(&install, ") target=");
    assert_eq!(built.len(), 4, "{built:?}");
    assert_eq!(built, installed, "the release builds what the action installs");
    // Archive names: the tag is `v` + the version.
    assert!(workflow.contains(r#"archive="planview-${GITHUB_REF_NAME}-${{ matrix.target }}.tar.gz""#), "{workflow}");
    assert!(install.contains(r#"asset="planview-$version-$target.tar.gz""#), "{install}");
    assert!(cargo.contains(r#"pkg-url = "{ repo }/releases/download/v{ version }/{ name }-v{ version }-{ target }.tar.gz""#));
    assert!(workflow.contains(r#"on:"#) && workflow.contains(r#"tags: ["v*"]"#), "releases are made from v* tags");
    // A .sha256 beside each archive, in `sha256sum` form (hash first), and SHA256SUMS.
    assert!(
        workflow.contains(r#">"$archive.sha256""#) && install.contains(r#"$base/$asset.sha256"#) && install.contains("cut -d ' ' -f 1")
    );
    assert!(workflow.contains("SHA256SUMS"));
    // The binary at the archive's root, where binstall's bin-dir looks.
    assert!(workflow.contains(r#"tar -czf "$archive" -C "target/${{ matrix.target }}/release" planview"#));
    assert!(cargo.contains(r#"bin-dir = "{ bin }{ binary-ext }""#) && cargo.contains(r#"pkg-fmt = "tgz""#));
}
