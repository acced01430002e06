//! Splitting and streaming many roots against a whole read of each: the same
//! documents, names, errors and line numbers.

use super::*;
use crate::read::dirs::{sniff, Sniffed, NEEDLE, SNIFF};
use crate::read::{expand, name_in, split_whole, terragrunt_stdout, wildcard, FindOptions};
use std::path::Path;

fn cuts_of(text: &str, lenient: bool, piece: usize) -> Vec<Cut> {
    let mut sp = Splitter::new(lenient);
    let mut cuts = Vec::new();
    for p in text.as_bytes().chunks(piece) {
        sp.feed(p, &mut cuts);
    }
    cuts
}

#[test]
fn documents_start_on_lines_of_their_own_in_pieces_of_any_size() {
    let text = "{\"a\":\"}{\\\"\"}\n  {\"b\":[{}]}\nlog [live/vpc] line\n{\"c\":1} {\"d\":2}\n";
    for piece in [1, 2, 3, 7, 1000] {
        let cuts = cuts_of(text, true, piece);
        assert_eq!(
            cuts,
            vec![
                Cut::First { name: None },
                Cut::End { at: 12 },
                Cut::Start { at: 13, line: 2, name: None, text: None, n: 2, pad: 0, hidden: None },
                Cut::End { at: 25 },
                Cut::Start { at: 46, line: 4, name: Some("live/vpc".into()), text: Some((3, 3)), n: 3, pad: 0, hidden: None },
                Cut::End { at: 53 },
            ],
            "piece {piece}"
        );
    }
}

/// Depth is checked by the splitter for the documents it follows (and by
/// the scan for an input it does not): the same errors, at the same places,
/// as a whole read of each document.
#[test]
fn documents_nested_too_deep_fail_as_a_whole_read_does() {
    let deep = |n: usize| format!("{{\"format_version\":\"1.2\",\"resource_changes\":[],\"a\":{}{}}}", "[".repeat(n), "]".repeat(n));
    let cases = [
        deep(200),
        deep(126),
        format!("{}\n\n  {}\n{}", deep(3), deep(130), deep(2)),
        format!("  {}", "[".repeat(300)),
        format!("\n{}{{\"format_version\":\"1.2\",\"resource_changes\":[]}}", "[".repeat(200)),
    ];
    let dir = std::env::temp_dir().join(format!("planview-roots-deep-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (k, text) in cases.iter().enumerate() {
        for lenient in [false, true] {
            let path = dir.join(format!("{k}.json"));
            std::fs::write(&path, text).unwrap();
            let read = ReadOptions { lenient, ..ReadOptions::default() };
            let roots = vec![Root::plain(&Source::File(path.clone()))];
            let streamed = stream_roots(&roots, &read, &|name, r, ahead, read| {
                crate::read::stream::stream(name, r, ahead, read, &mut Masker::default()).map(|s| (s, Masker::default()))
            });
            let whole = split_whole("f", text.as_bytes(), &read);
            assert_eq!(streamed.len(), whole.len(), "case {k}");
            assert_eq!(outcomes(&streamed), outcomes(&with_others(&path, &read)), "case {k}, lenient {lenient}: read whole by a worker");
            for (got, want) in streamed.iter().zip(&whole) {
                let want = match &want.bytes {
                    Ok(b) => crate::read::parse_with("f", b, &read).map(|_| ()),
                    Err(e) => Err(e.clone()),
                };
                let got = got.result.as_ref().map(|_| ()).map_err(|e| (e.message.clone(), e.line, e.column));
                let want = want.map_err(|e| (e.message, e.line, e.column));
                assert_eq!(got, want, "case {k}, lenient {lenient}");
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// Each document's name and outcome (its error's message and place).
type Outcome = (String, Result<(), (String, Option<usize>, Option<usize>)>);

fn outcomes<T>(items: &[PerFile<T>]) -> Vec<Outcome> {
    items.iter().map(|i| (i.file.clone(), i.result.as_ref().map(|_| ()).map_err(|e| (e.message.clone(), e.line, e.column)))).collect()
}

/// The documents of `path` when it is one of several roots (each small
/// file read, split and parsed by one worker), the other roots' left out.
fn with_others(path: &Path, read: &ReadOptions) -> Vec<PerFile<()>> {
    let other = Root { name: "other".into(), source: Source::File(path.with_extension("none")), chdir: None, problem: None };
    let roots = vec![other.clone(), Root::plain(&Source::File(path.to_path_buf())), other];
    let mut items = stream_roots(&roots, read, &|name, r, ahead, read| {
        crate::read::stream::stream(name, r, ahead, read, &mut Masker::default()).map(|_| ((), Masker::default()))
    });
    assert!(items.len() >= 3);
    items.pop();
    items.remove(0);
    items
}

#[test]
fn a_small_file_read_by_a_worker_splits_as_a_streamed_input_does() {
    let dir = std::env::temp_dir().join(format!("planview-roots-here-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plan = |n: usize| {
        format!("{{\"format_version\":\"1.2\",\"resource_changes\":[{{\"address\":\"a.b{n}\",\"change\":{{\"actions\":[\"create\"]}}}}]}}")
    };
    let texts = [
            format!("{}\n{}\n", plan(1), plan(2)),
            format!("INFO[0000] Running in ./network\n{}\nINFO[0001] Running in ./app\n{}\n", plan(1), plan(2)),
            format!("{}\n{{\"format_version\":", plan(1)),
            format!("{}\nnot json\n{}", plan(1), plan(2)),
            format!("{}\n{}", plan(1), "\n".repeat(5000)),
            std::fs::read_to_string("testdata/roots/joined.ndjson").unwrap(),
            std::fs::read_to_string("testdata/roots/terragrunt-run-all.log").unwrap(),
            std::fs::read_to_string("testdata/roots/truncated-last.ndjson").unwrap(),
            // Pretty-printed, an error on a later line, blanks after it.
            "{\n  \"format_version\": \"1.2\",\n  \"resource_changes\": [\n    {\"address\": \"a.b\", \"change\": {\"actions\": 5}}\n  ]\n}\n\n\n".to_string(),
            // Bigger than a worker reads whole: handed back to the splitting thread.
            format!("{}\n{}\n", plan(1).replacen('{', &format!("{{\"pad\":\"{}\",", "x".repeat(SMALL_FILE as usize)), 1), plan(2)),
        ];
    for (k, text) in texts.iter().enumerate() {
        let path = dir.join(format!("{k}.json"));
        std::fs::write(&path, text).unwrap();
        for lenient in [false, true] {
            let read = ReadOptions { lenient, ..ReadOptions::default() };
            let alone = stream_roots(&[Root::plain(&Source::File(path.clone()))], &read, &|name, r, ahead, read| {
                crate::read::stream::stream(name, r, ahead, read, &mut Masker::default()).map(|_| ((), Masker::default()))
            });
            assert!(!alone.is_empty());
            assert_eq!(outcomes(&alone), outcomes(&with_others(&path, &read)), "text {k}, lenient {lenient}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_tree_is_found_named_and_ordered_by_its_directories() {
    let top = std::env::temp_dir().join(format!("planview-roots-tree-{}", std::process::id()));
    let plan = br#"{"format_version":"1.2","resource_changes":[]}"#;
    let files: &[(&str, &[u8])] = &[
        ("plan.json", plan),
        ("live/b/plan.json", plan),
        ("live/a-b/plan.json", plan),
        ("live/a/plan.json", plan),
        ("live/a/other.json", plan),
        ("live/a/package.json", br#"{"name":"x"}"#),
        ("live/a/.terragrunt-cache/x/plan.json", plan),
        ("live/c/.terraform/plan.json", plan),
        ("live/c/tfplan", b"PK"),
        ("d1/d2/d3/d4/d5/plan.json", plan),
    ];
    // Directories enough for the walk to be shared among threads, and empty ones.
    for k in 0..40 {
        std::fs::create_dir_all(top.join(format!("many/{k:02}/x"))).unwrap();
    }
    for (rel, text) in files {
        let path = top.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let notes = crate::read::Notes::default();
    let roots = expand(&[Source::File(top.clone())], &FindOptions::default(), &notes);
    let names: Vec<&str> = roots.iter().map(|r| r.name.as_str()).collect();
    // In the order of their paths (`plan.json` after `live/`).
    assert_eq!(names, ["d1/d2/d3/d4/d5", "live/a-b", "live/a/other.json", "live/a/plan.json", "live/b", "live/c", "."]);
    assert!(roots.iter().all(|r| r.problem.is_none()));
    assert_eq!(roots[5].source, Source::File(top.join("live/c/tfplan")));
    let warned = notes.take();
    assert_eq!(warned.len(), 1, "{warned:?}");
    assert!(warned[0].contains("live/a/package.json: skipped: a JSON object with no `format_version`"), "{warned:?}");
    std::fs::remove_dir_all(&top).ok();
}

#[test]
fn a_json_file_is_searched_to_its_end_for_the_key() {
    let dir = std::env::temp_dir().join(format!("planview-roots-sniff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pad = |n: usize| "x".repeat(n);
    let cases: &[(&str, String, Sniffed)] = &[
        ("first.json", r#"{"format_version":"1.2"}"#.to_string(), Sniffed::Plan),
        // Keys sorted, a big `configuration` first; the key at every distance, cut by every piece boundary.
        ("late.json", format!("{{\"configuration\":\"{}\",\"format_version\":\"1.2\"}}", pad(SNIFF)), Sniffed::Plan),
        ("later.json", format!("{{\"a\":\"{}\",\"plan_format_version\":\"1.2\"}}", pad(3 << 20)), Sniffed::Plan),
        ("edge.json", format!("{{\"a\":\"{}\",\"format_version\":1}}", pad(SNIFF + (1 << 20) - 12)), Sniffed::Plan),
        ("bom.json", format!("\u{feff}\n {{\"a\":\"{}\"}}", pad(SNIFF)), Sniffed::Object),
        ("package.json", r#"{"name":"x"}"#.to_string(), Sniffed::Object),
        ("big-object.json", format!("{{\"a\":\"{}\"}}", pad(2 << 20)), Sniffed::Object),
        ("array.json", format!("[\"{}\"]", pad(SNIFF)), Sniffed::Other),
        ("empty.json", String::new(), Sniffed::Other),
    ];
    for (name, text, want) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        assert_eq!(sniff(&path), *want, "{name}");
    }
    for k in 0..NEEDLE.len() + 2 {
        let path = dir.join("cut.json");
        std::fs::write(&path, format!("{{\"a\":\"{}\",\"format_version\":1}}", pad(SNIFF + (1 << 20) - 8 - k))).unwrap();
        assert_eq!(sniff(&path), Sniffed::Plan, "cut {k}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn strict_input_that_is_not_an_object_is_left_whole() {
    assert_eq!(cuts_of("[1]\n{}", false, 3), vec![Cut::Through]);
    assert_eq!(cuts_of("text\n{\"a\":1}", true, 3)[0], Cut::First { name: None });
}

#[test]
fn whole_inputs_split_with_lines_kept() {
    let read = ReadOptions::default();
    let parts = split_whole("f", b"{\"a\":1}\n\n{\"b\":2}\n", &read);
    assert_eq!(parts.len(), 2);
    assert_eq!(parts[0].bytes.as_ref().unwrap().as_ref(), b"{\"a\":1}");
    assert_eq!(parts[1].bytes.as_ref().unwrap().as_ref(), b"\n\n{\"b\":2}\n");
    let parts = split_whole("f", b"{\"a\":1}\nlog\n{\"b\":2}\n", &read);
    let e = parts[1].bytes.as_ref().unwrap_err();
    assert!(e.message.contains("text between JSON documents 1 and 2 (line 2)"), "{e}");
    let one = split_whole("f", b"{\"a\":1}\ntrailer\n", &read);
    assert_eq!(one.len(), 1);
    assert!(matches!(one[0].bytes, Ok(std::borrow::Cow::Borrowed(_))));
}

#[test]
fn terragrunt_prefixed_documents_are_documents_of_their_own_with_lenient() {
    let text = "{\"a\":1}\n08:00:02.000 STDOUT [live/db] tofu: {\"b\":2}\n\u{1b}[36m08:00:03.000 STDOUT\u{1b}[0m [live/é] tofu: {\"c\":3}\nSTDOUT tofu: {\"d\":4}\n";
    for piece in [1, 2, 5, 1000] {
        let starts: Vec<Cut> = cuts_of(text, true, piece).into_iter().filter(|c| matches!(c, Cut::Start { .. })).collect();
        assert_eq!(
            starts,
            vec![
                Cut::Start { at: 44, line: 2, name: Some("live/db".into()), text: None, n: 2, pad: 36, hidden: None },
                Cut::Start { at: 97, line: 3, name: Some("live/é".into()), text: None, n: 3, pad: 44, hidden: None },
                Cut::Start { at: 118, line: 4, name: None, text: None, n: 4, pad: 13, hidden: None },
            ],
            "piece {piece}"
        );
    }
    // Strictly, a prefixed line is text (an error, and its `format_version` never skipped).
    assert!(!cuts_of(text, false, 7).iter().any(|c| matches!(c, Cut::Start { .. })));
    // Read whole: each document at its line and column, named by its unit.
    let read = ReadOptions { lenient: true, ..ReadOptions::default() };
    let parts = split_whole("f", text.as_bytes(), &read);
    let names: Vec<Option<&str>> = parts.iter().map(|p| p.name.as_deref()).collect();
    assert_eq!(names, [None, Some("live/db"), Some("live/é"), None]);
    assert_eq!(parts[1].bytes.as_ref().unwrap().as_ref(), format!("\n{}{{\"b\":2}}", " ".repeat(36)).as_bytes());
    assert!(read.notes.take().is_empty());
}

#[test]
fn a_document_hidden_in_text_between_documents_is_an_error_even_with_lenient() {
    let text = "{\"a\":1}\nlog\nINFO [live/db] terraform: {\"format_version\":\"1.2\"}\n{\"c\":3}\n";
    for lenient in [false, true] {
        for piece in [1, 3, 1000] {
            let cuts = cuts_of(text, lenient, piece);
            let hidden = cuts.iter().find_map(|c| match c {
                Cut::Start { hidden, text, .. } => Some((*hidden, *text)),
                _ => None,
            });
            assert_eq!(hidden, Some((Some((3, 43)), Some((2, 3)))), "lenient {lenient}, piece {piece}");
        }
        let read = ReadOptions { lenient, ..ReadOptions::default() };
        let parts = split_whole("f", text.as_bytes(), &read);
        let e = parts[1].bytes.as_ref().unwrap_err();
        assert!(e.message.contains("holds a document planview does not read"), "{e}");
        assert_eq!((e.line, e.column), (Some(3), Some(43)));
    }
    // Mentioned without a quote after it, the word is text.
    let read = ReadOptions { lenient: true, ..ReadOptions::default() };
    let parts = split_whole("f", b"{\"a\":1}\nunsupported format_version 2\n{\"b\":1}", &read);
    assert!(parts.iter().all(|p| p.bytes.is_ok()));
}

#[test]
fn terragrunt_stdout_prefixes() {
    assert_eq!(terragrunt_stdout(b"08:00:02.000 STDOUT [live/db] tofu: "), Some(Some("live/db".into())));
    assert_eq!(terragrunt_stdout(b"STDOUT [live/db] /usr/bin/terraform:"), Some(Some("live/db".into())));
    assert_eq!(terragrunt_stdout(b"14:20:38 STDOUT tofu: "), Some(None));
    assert_eq!(terragrunt_stdout(b"STDOUT "), Some(None));
    assert_eq!(terragrunt_stdout(b"08:00:02.000 INFO [live/db] tofu: "), None);
    assert_eq!(terragrunt_stdout(b"08:00:02.000 STDOUT [live/db] tofu says: "), None);
    assert_eq!(terragrunt_stdout(b"08:00:02.000 STDOUTX [live/db] tofu: "), None);
    assert_eq!(terragrunt_stdout(b"08:00:02.000 STDOUT [] tofu: "), None);
    assert_eq!(terragrunt_stdout(b"x STDOUT [a] tofu: "), None);
}

#[test]
fn log_lines_name_working_directories() {
    assert_eq!(name_in("time=2024-01-02T03:04:05Z level=info prefix=[/work/live/vpc] msg=Running"), Some("/work/live/vpc".into()));
    assert_eq!(name_in("time=2024-01-02 level=info prefix=live/db msg=x"), Some("live/db".into()));
    assert_eq!(name_in("14:20:38.431 INFO   [live/app] Running command: tofu show -json"), Some("live/app".into()));
    assert_eq!(name_in("Done."), None);
    assert_eq!(name_in("[] x"), None);
    assert_eq!(name_in("[command]/usr/bin/terraform show -json plan.out"), None);
}

#[test]
fn wildcards() {
    assert!(wildcard("*.tfplan", "prod.tfplan"));
    assert!(wildcard("plan-?.bin", "plan-1.bin"));
    assert!(!wildcard("*.tfplan", "prod.tfplan.json"));
    assert!(wildcard("*", ""));
}
