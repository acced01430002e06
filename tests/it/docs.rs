//! The documentation holds together: every relative link in README, the other
//! top-level guides and `docs/` reaches a file (and its `#anchor` a heading of
//! it), each command has its page in `docs/commands/` naming every option its
//! `--help` lists, and README stays a short guide.

use crate::common::commands::{commands, help};
use crate::common::root;
use std::path::{Path, PathBuf};

/// README, the other guides at the root, and every page below `docs/`.
pub fn pages() -> Vec<PathBuf> {
    fn below(dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                below(&p, out);
            } else if p.extension().is_some_and(|e| e == "md") {
                out.push(p);
            }
        }
    }
    let mut v: Vec<PathBuf> = ["README.md", "CONTRIBUTING.md", "BENCHMARKS.md", "CHANGELOG.md"].iter().map(|p| root().join(p)).collect();
    below(&root().join("docs"), &mut v);
    v
}

/// GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a markdown page's headings (outside code blocks), with
/// GitHub's `-1`, `-2` for repeated ones.
fn anchors(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with('#') {
            let base = slug(line.trim_start_matches('#'));
            let n =
                out.iter().filter(|a| **a == base || a.strip_prefix(&format!("{base}-")).is_some_and(|r| r.parse::<u32>().is_ok())).count();
            out.push(if n == 0 { base } else { format!("{base}-{n}") });
        }
    }
    out
}

/// The targets of the inline links `[text](target)` of a page, outside code blocks and spans.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop code spans: a `[x](y)` inside backticks is not a link.
        let plain: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        let mut rest = plain.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            out.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    out
}

#[test]
fn every_relative_link_reaches_a_file_and_a_heading() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for target in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() { page.clone() } else { page.parent().unwrap().join(file) };
            checked += 1;
            if !path.exists() {
                broken.push(format!("{}: {target}: no such file", page.strip_prefix(root()).unwrap().display()));
                continue;
            }
            if let Some(anchor) = anchor {
                let there = std::fs::read_to_string(&path).unwrap_or_default();
                if !anchors(&there).iter().any(|a| a == anchor) {
                    broken.push(format!("{}: {target}: no such heading", page.strip_prefix(root()).unwrap().display()));
                }
            }
        }
    }
    assert!(checked > 50, "the links were not found ({checked})");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn each_command_has_a_page_naming_every_option_its_help_lists() {
    let mut names: Vec<String> = commands().iter().map(|c| c.name.clone()).collect();
    names.extend(["completions".to_string(), "man".to_string()]);
    let mut missing = Vec::new();
    for name in &names {
        let page = root().join("docs/commands").join(format!("{name}.md"));
        let Ok(text) = std::fs::read_to_string(&page) else {
            missing.push(format!("docs/commands/{name}.md: no page"));
            continue;
        };
        let options: Vec<String> = help(&[name.as_str(), "-h"])
            .lines()
            .map(str::trim_start)
            .filter_map(|l| {
                if l.starts_with("--") {
                    Some(l)
                } else {
                    l.strip_prefix('-').and_then(|r| r.split_once(", ").map(|(_, long)| long))
                }
            })
            .filter_map(|l| l.split_whitespace().next())
            .map(str::to_string)
            .collect();
        assert!(options.iter().any(|o| o == "--help"), "`{name} -h` was not read: {options:?}");
        for option in options {
            if !text.contains(&format!("`{option}")) && !text.contains(&format!(", {option}")) {
                missing.push(format!("docs/commands/{name}.md: {option}"));
            }
        }
    }
    // No page for a command that is gone.
    for e in std::fs::read_dir(root().join("docs/commands")).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().trim_end_matches(".md").to_string();
        if !names.contains(&name) {
            missing.push(format!("docs/commands/{name}.md: no such command"));
        }
    }
    assert!(missing.is_empty(), "the command pages miss what --help lists:\n{}", missing.join("\n"));
}

#[test]
fn readme_stays_a_short_guide() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(lines <= 200, "README.md is {lines} lines: the reference belongs in docs/");
    for section in ["## Install", "## Quick start", "## Use in CI", "## Usage", "## Exit codes"] {
        assert!(readme.contains(&format!("\n{section}\n")), "README has no {section}");
    }
}
