//! The show-fidelity figure: over every real plan of `testdata/` that has the
//! CLI's own human rendering beside it (`plan.txt`, `terraform show -no-color
//! plan.out`, made by the fixtures' scripts), how many change blocks
//! `planview show` prints with the very body the CLI prints, line for line.
//!
//! A block is one resource change (its body: the lines between
//! `resource "T" "N" {` and its closing `}`) or one output change. Only
//! documented differences are forgiven (see [`cosmetic`]): the header (planview
//! writes its own), the indentation of the body, and values planview masks on
//! purpose (a copy of a secret the CLI does not know is one).
//!
//! The figure is taken twice: without provider schemas, and with them
//! (`--schemas schemas.json` where a plan has its provider's schemas beside
//! it, `testdata/real-aws/*/schemas.json`): nested blocks, sets, maps and
//! write-only attributes are only known from the schema.
//!
//! `PLANVIEW_FIDELITY=1 cargo test --test it show_fidelity -- --nocapture`
//! prints every block that differs, side by side.

use crate::common::*;
use std::collections::BTreeMap;

/// The figure must not fall under this (identical blocks, in percent).
const THRESHOLD_NO_SCHEMA: f64 = 95.0;
/// With the provider schemas, every block is the CLI's.
const THRESHOLD_WITH_SCHEMAS: f64 = 100.0;

/// One change block: its body lines, indentation made relative.
#[derive(Debug, Clone, PartialEq)]
struct Block {
    key: String,
    lines: Vec<String>,
}

fn indent_of(l: &str) -> usize {
    l.len() - l.trim_start_matches(' ').len()
}

/// Drop `n` leading columns (only spaces).
fn dedent(l: &str, n: usize) -> String {
    let k = indent_of(l).min(n);
    l[k..].trim_end().to_string()
}

/// The CLI's blocks: each `# ADDR ...` header of the actions section opens a
/// resource block whose body ends at its closing `    }`; each entry of
/// `Changes to Outputs:` is an output block.
fn cli_blocks(text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let Some(start) = lines.iter().position(|l| {
        l.contains("will perform the following actions:") || l.contains("planned the following actions, but then encountered a problem:")
    }) else {
        return outputs_of(&lines, "Changes to Outputs:", 2, "cli");
    };
    let mut i = start + 1;
    while i < lines.len() {
        let l = lines[i];
        if l.starts_with("Plan:") || l.starts_with("Changes to Outputs:") {
            break;
        }
        let t = l.trim_start();
        let header = t.strip_prefix("# ").filter(|h| indent_of(l) == 2 && !h.starts_with('('));
        let Some(h) = header else {
            i += 1;
            continue;
        };
        // The address: everything before the phrase.
        let addr = cli_address(h);
        // Skip comment lines to the opener.
        let mut j = i + 1;
        while j < lines.len() && lines[j].trim_start().starts_with('#') {
            j += 1;
        }
        let opener = lines.get(j).copied().unwrap_or("");
        let mut body = Vec::new();
        if opener.trim_end().ends_with('{') {
            j += 1;
            while j < lines.len() && lines[j] != "    }" {
                body.push(dedent(lines[j], 4));
                j += 1;
            }
        }
        out.push(Block { key: addr, lines: body });
        i = j + 1;
    }
    out.extend(outputs_of(&lines, "Changes to Outputs:", 2, "cli"));
    out
}

fn cli_address(h: &str) -> String {
    const PHRASES: &[&str] = &[
        " will be created",
        " will be destroyed",
        " will be updated in-place",
        " will be read during apply",
        " will be imported",
        " is tainted, so must be replaced",
        " must be replaced",
        " will be replaced, as requested",
        " will be replaced due to changes in replace_triggered_by",
        " will no longer be managed by Terraform, but will not be destroyed",
    ];
    if let Some((_, to)) = h.split_once(" has moved to ") {
        return to.to_string();
    }
    let mut p: Vec<&str> = PHRASES.to_vec();
    p.sort_by_key(|x| std::cmp::Reverse(x.len()));
    for ph in p {
        if let Some(a) = h.strip_suffix(ph) {
            return a.to_string();
        }
    }
    h.to_string()
}

/// The entries of an outputs section: an entry starts at a line whose key
/// column is `col`; lines are dedented so the symbol is at column 0.
fn outputs_of(lines: &[&str], title: &str, sym_col: usize, _who: &str) -> Vec<Block> {
    let Some(start) = lines.iter().position(|l| *l == title) else { return Vec::new() };
    let mut out: Vec<Block> = Vec::new();
    for l in &lines[start + 1..] {
        if l.trim().is_empty() {
            break;
        }
        // A new entry: the symbol (or blank) at sym_col, the key right after.
        let top = indent_of(l) == sym_col || (indent_of(l) == sym_col + 2 && !l.trim_start().starts_with(['}', ']', '#', ')']));
        let text = dedent(l, sym_col);
        if top {
            let key = text.trim_start_matches(['+', '-', '~', ' ']).split(" = ").next().unwrap_or("").trim().to_string();
            out.push(Block { key: format!("output.{key}"), lines: vec![text] });
        } else if let Some(b) = out.last_mut() {
            b.lines.push(text);
        }
    }
    out
}

/// planview's blocks, from `show` text and the address order of `show --format json`.
fn planview_blocks(text: &str, addresses: &[(String, Option<String>)]) -> Vec<Block> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut next = 0;
    let end = lines.iter().position(|l| *l == "Changes to outputs:").unwrap_or(lines.len());
    while i < end && next < addresses.len() {
        let l = lines[i];
        if l.is_empty() || indent_of(l) >= 4 || l.starts_with("!! ") || l.starts_with("== ") {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        let mut body = Vec::new();
        // A blank line inside a body (before nested blocks, as the CLI
        // prints them) is followed by more of the body; the one after it by
        // the next header.
        while j < end && (!lines[j].is_empty() || lines.get(j + 1).is_some_and(|n| indent_of(n) >= 4)) {
            let b = lines[j];
            // Notes under the header (`# because: ...`) are part of the header.
            const NOTES: [&str; 4] = ["# because: ", "# a deposed object", "# configuration will be generated", "# planview does not know"];
            if !(indent_of(b) == 4 && NOTES.iter().any(|n| b[4..].starts_with(n))) {
                body.push(dedent(b, 2));
            }
            j += 1;
        }
        let key = match &addresses[next] {
            (a, Some(k)) => format!("{a} (deposed object {k})"),
            (a, None) => a.clone(),
        };
        out.push(Block { key, lines: body });
        next += 1;
        i = j;
    }
    out.extend(outputs_of(&lines, "Changes to outputs:", 4, "planview"));
    out
}

/// planview's own note where only a text's final newline changes (README,
/// `show`): the CLI shows such a text as unchanged lines.
fn planview_note(l: &str) -> bool {
    let t = l.trim_start().trim_start_matches(['+', '-']).trim_start();
    t == "# (newline at the end of the text added)" || t == "# (newline at the end of the text removed)"
}

/// The key of a `key = value` line.
fn key_of(l: &str) -> &str {
    l.split(" = ").next().unwrap_or("").trim_start().trim_start_matches(['+', '-', '~', ' '])
}

/// How many lines the value opened on CLI line `i` takes (1 for a value on
/// one line; else up to its closing line at the same indentation).
fn value_extent(lines: &[String], i: usize) -> usize {
    let opens = ["{", "[", "<<-EOT", "jsonencode("].iter().any(|o| lines[i].trim_end().ends_with(o));
    if !opens {
        return 1;
    }
    let ind = indent_of(&lines[i]);
    let mut j = i + 1;
    while j < lines.len() && indent_of(&lines[j]) > ind + 2 {
        j += 1;
    }
    (j + 1 - i).min(lines.len() - i)
}

/// The two bodies are the same but for what planview does on purpose: its
/// final-newline notes, and values it masks because they hold a secret (a
/// copy of a sensitive value the CLI prints in clear): such a planview line
/// `key = (sensitive value)...` stands for the CLI's whole value of `key`.
fn same_block(cli: &Block, pv: &Block) -> bool {
    let a = &cli.lines;
    let b: Vec<String> = pv.lines.iter().filter(|l| !planview_note(l)).cloned().collect();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] == b[j] {
            i += 1;
            j += 1;
            continue;
        }
        // A map key holding a secret, masked (`"(sensitive value)" = 1`): the same line otherwise.
        let symbol = |l: &str| l.trim_start().chars().next();
        let value = |l: &str| l.split_once(" = ").map(|(_, v)| v.to_string());
        if key_of(&b[j]).trim_end() == "\"(sensitive value)\""
            && symbol(&a[i]) == symbol(&b[j])
            && value(&a[i]).is_some()
            && value(&a[i]) == value(&b[j])
        {
            i += 1;
            j += 1;
            continue;
        }
        let masked = b[j].contains("(sensitive value)") && !a[i].contains("(sensitive value)") && key_of(&a[i]) == key_of(&b[j]);
        if !masked || key_of(&a[i]).is_empty() {
            return false;
        }
        i += value_extent(a, i);
        j += 1;
    }
    i == a.len() && j == b.len()
}

struct Figure {
    same: usize,
    total: usize,
    report: String,
}

fn figure(with_schemas: bool) -> Figure {
    let mut plans: Vec<_> = real_plans().into_iter().filter(|p| p.with_file_name("plan.txt").is_file()).collect();
    plans.sort();
    let (mut same, mut total) = (0, 0);
    let mut report = String::new();
    for plan in &plans {
        let cli_text = std::fs::read_to_string(plan.with_file_name("plan.txt")).unwrap();
        let cli = cli_blocks(&cli_text);
        let p = rel(plan);
        let schemas = rel(&plan.with_file_name("schemas.json"));
        let extra: Vec<&str> =
            if with_schemas && plan.with_file_name("schemas.json").is_file() { vec!["--schemas", schemas.as_str()] } else { Vec::new() };
        let mut args = vec!["show", "--color", "never", "--width", "0", p.as_str()];
        args.extend_from_slice(&extra);
        let out = planview(&args);
        assert_eq!(out.status.code(), Some(0), "{p}: {}", String::from_utf8_lossy(&out.stderr));
        let mut jargs = vec!["show", "--format", "json", p.as_str()];
        jargs.extend_from_slice(&extra);
        let json: serde_json::Value = serde_json::from_slice(&planview(&jargs).stdout).unwrap();
        let addresses: Vec<(String, Option<String>)> = json["resources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["address"].as_str().unwrap().to_string(), r["deposed"].as_str().map(str::to_string)))
            .collect();
        let pv_text = String::from_utf8_lossy(&out.stdout).to_string();
        let pv = planview_blocks(&pv_text, &addresses);
        let mut by_key: BTreeMap<&str, Vec<&Block>> = BTreeMap::new();
        for b in &pv {
            by_key.entry(b.key.as_str()).or_default().push(b);
        }
        for c in &cli {
            total += 1;
            let found = by_key.get_mut(c.key.as_str()).and_then(|v| if v.is_empty() { None } else { Some(v.remove(0)) });
            match found {
                Some(b) if same_block(c, b) => same += 1,
                Some(b) => {
                    report.push_str(&format!("--- {p}: {}\n  CLI:\n", c.key));
                    for l in &c.lines {
                        report.push_str(&format!("    |{l}\n"));
                    }
                    report.push_str("  planview:\n");
                    for l in &b.lines {
                        report.push_str(&format!("    |{l}\n"));
                    }
                }
                None => report.push_str(&format!("--- {p}: {}: not shown by planview\n", c.key)),
            }
        }
    }
    Figure { same, total, report }
}

#[test]
fn cli_block_parser_reads_resources_and_outputs() {
    let text = "Terraform will perform the following actions:\n\n  # a.b will be updated in-place\n  ~ resource \"a\" \"b\" {\n\
        \x20       id = \"x\"\n      ~ v  = 1 -> 2\n    }\n\n  # a.c (deposed object k) will be destroyed\n  # (left over)\n\
        \x20 - resource \"a\" \"c\" {\n      - v = 1 -> null\n    }\n\nPlan: 0 to add, 1 to change, 1 to destroy.\n\n\
        Changes to Outputs:\n  ~ o = {\n      ~ a = 1 -> 2\n    }\n  + p = 3\n\nmore\n";
    let got = cli_blocks(text);
    let want = vec![
        Block { key: "a.b".into(), lines: vec!["    id = \"x\"".into(), "  ~ v  = 1 -> 2".into()] },
        Block { key: "a.c (deposed object k)".into(), lines: vec!["  - v = 1 -> null".into()] },
        Block { key: "output.o".into(), lines: vec!["~ o = {".into(), "    ~ a = 1 -> 2".into(), "  }".into()] },
        Block { key: "output.p".into(), lines: vec!["+ p = 3".into()] },
    ];
    assert_eq!(got, want);
}

#[test]
fn show_fidelity_with_schemas() {
    let f = figure(true);
    if std::env::var_os("PLANVIEW_FIDELITY").is_some() {
        eprintln!("{}", f.report);
    }
    let pct = 100.0 * f.same as f64 / f.total.max(1) as f64;
    eprintln!("show fidelity with schemas: {}/{} blocks identical to the CLI's ({pct:.1}%)", f.same, f.total);
    assert!(f.total >= 80, "only {} blocks compared", f.total);
    assert!(pct >= THRESHOLD_WITH_SCHEMAS, "show fidelity with schemas {pct:.1}% is under {THRESHOLD_WITH_SCHEMAS}%:\n{}", f.report);
}

#[test]
fn show_fidelity_without_schemas() {
    // Every real plan, those made for what only the schema tells included
    // (testdata/real-aws/blocks: nested blocks, sets, write-only attributes).
    let f = figure(false);
    if std::env::var_os("PLANVIEW_FIDELITY").is_some() {
        eprintln!("{}", f.report);
    }
    let pct = 100.0 * f.same as f64 / f.total.max(1) as f64;
    eprintln!("show fidelity without schemas, every plan: {}/{} blocks identical to the CLI's ({pct:.1}%)", f.same, f.total);
    assert!(f.total >= 80, "only {} blocks compared", f.total);
    assert!(pct >= THRESHOLD_NO_SCHEMA, "show fidelity {pct:.1}% is under {THRESHOLD_NO_SCHEMA}%:\n{}", f.report);
}

#[test]
fn show_classes_fixture_reads_like_the_cli() {
    // A real plan made for the classes issue 26 lists: list context, pairing by
    // position, null transitions inside a value, heredoc lines, jsonencode layout.
    let plan = "testdata/real/show-classes/plan.json";
    let cli = std::fs::read_to_string("testdata/real/show-classes/plan.txt").unwrap();
    let out = planview(&["show", "--color", "never", plan]);
    let text = String::from_utf8_lossy(&out.stdout);
    for line in [
        "# (4 unchanged elements hidden)",
        "\"r5\",",
        "- \"r6\",",
        "+ \"R6\",",
        "+ \"k\",",
        "~ \"c\" -> \"C\",",
        "~ c    = null -> true",
        "~ drop = \"d\" -> null",
        "- b = null",
        "- echo three",
        "+ echo THREE",
        "echo four",
        "~ policy  = jsonencode(",
        // JSON becoming text that is not JSON.
        ") -> \"{not json\"",
    ] {
        assert!(text.contains(line), "planview shows no `{line}`:\n{text}");
        assert!(cli.contains(line), "the CLI shows no `{line}`");
    }
}

#[test]
fn outputs_renders_a_partly_unknown_output_as_show_does() {
    let plan = "testdata/real/show-classes/plan.json";
    let cli = std::fs::read_to_string("testdata/real/show-classes/plan.txt").unwrap();
    for part in ["fixed = \"f\"", "id    = (known after apply)", "+ (known after apply),", "+ \"k\","] {
        assert!(cli.contains(part), "the CLI shows `{part}`");
    }
    let out = planview(&["outputs", "--color", "never", "--width", "0", plan]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("{ fixed = \"f\", id = (known after apply), list = [(known after apply), \"k\"] }"), "{text}");
    // JSON keeps its shape: the value is unknown as a whole.
    let json: serde_json::Value = serde_json::from_slice(&planview(&["outputs", "--format", "json", plan]).stdout).unwrap();
    assert_eq!(json["outputs"][0]["after"]["state"], "unknown", "{json}");
}

/// Every block of one real plan is the CLI's, line for line (the figure's comparison, on one plan).
fn every_block_is_the_clis(plan: &str) -> usize {
    let cli = cli_blocks(&std::fs::read_to_string(plan.replace("plan.json", "plan.txt")).unwrap());
    let out = planview(&["show", "--color", "never", "--width", "0", plan]);
    let json: serde_json::Value = serde_json::from_slice(&planview(&["show", "--format", "json", plan]).stdout).unwrap();
    let addresses: Vec<(String, Option<String>)> =
        json["resources"].as_array().unwrap().iter().map(|r| (r["address"].as_str().unwrap().to_string(), None)).collect();
    let pv = planview_blocks(&String::from_utf8_lossy(&out.stdout), &addresses);
    for c in &cli {
        let b = pv.iter().find(|b| b.key == c.key).unwrap_or_else(|| panic!("{plan}: {} not shown", c.key));
        assert!(same_block(c, b), "{plan}: {}:\nCLI: {:#?}\nplanview: {:#?}", c.key, c.lines, b.lines);
    }
    cli.len()
}

#[test]
fn a_300_line_heredoc_reads_like_the_cli() {
    // testdata/real/heredoc-context (make-fixtures.sh heredoc-context): line
    // 150 of a 300-line script changes. Terraform 1.11 prints every line of
    // it, the change in place (`- echo line 150` / `+ echo LINE 150 changed`
    // between lines 149 and 151), and so does planview.
    let plan = "testdata/real/heredoc-context/plan.json";
    assert_eq!(every_block_is_the_clis(plan), 1);
    let text = String::from_utf8(planview(&["show", "--color", "never", plan]).stdout).unwrap();
    let at = |l: &str| text.lines().position(|x| x.trim() == l).unwrap_or_else(|| panic!("no `{l}`:\n{text}"));
    assert!(at("echo line 149") < at("- echo line 150") && at("- echo line 150") + 1 == at("+ echo LINE 150 changed"));
    assert!(at("+ echo LINE 150 changed") < at("echo line 151"));
}

#[test]
fn terraform_datas_triggers_replace_is_not_noted_as_forcing_replacement() {
    // The CLI says why above the block (`must be replaced`), never `# forces
    // replacement` on terraform_data's own attributes (testdata/real/moved-replaced).
    let plan = "testdata/real/moved-replaced/plan.json";
    let cli = std::fs::read_to_string("testdata/real/moved-replaced/plan.txt").unwrap();
    let text = String::from_utf8(planview(&["show", "--color", "never", plan]).stdout).unwrap();
    for t in [&cli, &text] {
        let l = t.lines().find(|l| l.contains("~ triggers_replace = \"v1\" -> \"v2\"")).unwrap_or_else(|| panic!("{t}"));
        assert!(!l.contains("forces replacement"), "{l}");
    }
    every_block_is_the_clis(plan);
}

#[test]
fn a_list_block_that_becomes_unknown_shows_what_it_had_as_the_cli() {
    // testdata/real-aws/unknown-blocks (make.sh unknown-blocks): an aws_instance
    // replaced; its list blocks left out of the configuration had a value and
    // are known only after apply: `~ metadata_options (known after apply)`,
    // then `- metadata_options {` with each attribute `-> null`.
    let plan = "testdata/real-aws/unknown-blocks/plan.json";
    let cli = std::fs::read_to_string("testdata/real-aws/unknown-blocks/plan.txt").unwrap();
    let out = planview(&["show", "--color", "never", "--width", "0", plan, "--schemas", "testdata/real-aws/unknown-blocks/schemas.json"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let lines = [
        "~ metadata_options (known after apply)",
        "- metadata_options {",
        "- http_tokens                 = \"required\" -> null",
        "~ enclave_options (known after apply)",
        "- credit_specification {",
        "~ volume_id             = \"vol-0fedcba9876543210\" -> (known after apply)",
    ];
    for l in lines {
        assert!(cli.contains(l), "the CLI shows no `{l}`");
        assert!(text.contains(l), "planview shows no `{l}`:\n{text}");
    }
}
