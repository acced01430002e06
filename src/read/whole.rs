//! Reading input: files and stdin, saved binary plans (through `tofu show -json`
//! or `terraform show -json`), encoding checks, plan/state detection and the
//! `format_version` gate.

use super::diagnostics::{
    after_document, check_start, json_error_at, skipped_prefix, sniff_encoding, too_blank, too_deep, too_long_trailer, two_documents,
};
use super::frame::{second_document, too_deep_in, TrailerScan};
use super::{serde_message, ReadOptions, MAX_BLANKS, MAX_PREFIX, MAX_TRAILER};
use crate::error::line_col;
use crate::error::InputError;
use crate::model::document::{Document, StateDoc};
use crate::model::{RawDocument, Values};
use crate::scan::is_json_ws;

/// The range of `format_version` this version reads.
pub(crate) const SUPPORTED: &str = ">= 0.1, < 2.0 (every 0.x and 1.x)";

/// Check encoding and framing, parse, tell plan from state and check the version.
pub fn parse<'a>(name: &str, bytes: &'a [u8]) -> Result<Document<'a>, InputError> {
    parse_with(name, bytes, &ReadOptions::default())
}

/// [`parse`] as `opts` says: with `--lenient`, a wrapper's text before the first
/// `{` (a UTF-8 byte-order mark included) and a trailer after the document are
/// skipped, with a warning in `opts.notes`. Errors are located in the whole input.
pub fn parse_with<'a>(name: &str, bytes: &'a [u8], opts: &ReadOptions) -> Result<Document<'a>, InputError> {
    sniff_encoding(name, bytes, opts.lenient)?;
    // --lenient: the document starts at the first `{` (when there is none, the
    // input is read as it is, and refused as strictly).
    let skip = if opts.lenient && !crate::read::wrong::starts_human(bytes) {
        memchr::memchr(b'{', &bytes[..bytes.len().min(MAX_PREFIX + 1)]).unwrap_or(0)
    } else {
        0
    };
    if skip > 0 && !bytes[..skip].iter().all(|&b| is_json_ws(b)) {
        let (l, c) = line_col(bytes, skip);
        opts.notes.push(name, skipped_prefix(skip, l, c));
    }
    // Validate the whole input (a skipped prefix too): parts that queries skip
    // are otherwise never checked. Over the index: ASCII runs proven at once.
    let all = crate::utf8::as_text(bytes).map_err(|valid| {
        let (l, c) = line_col(bytes, valid);
        InputError::new(name, "input is not valid UTF-8").at(l, c).hint("re-encode as UTF-8")
    })?;
    let text = &all[skip..];
    if text.bytes().take(MAX_BLANKS + 1).all(is_json_ws) && text.len() > MAX_BLANKS {
        return Err(too_blank(name));
    }
    check_start(name, text)?;
    // The depth scan and the parse are independent: on a big input they run
    // side by side. The scan's verdict comes first.
    let (deep, parsed) = concurrently(text.len() >= PARALLEL_SCAN, || too_deep_in(text.as_bytes()), || parse_first(text));
    if let Some(at) = deep {
        let (l, c) = line_col(bytes, skip + at);
        return Err(too_deep(name, l, c));
    }
    // serde_json counts from the skipped prefix's end.
    let (raw, end) = parsed.map_err(|e| json_error_at(name, &e, if skip > 0 { line_col(bytes, skip) } else { (1, 1) }))?;
    let rest = &text.as_bytes()[end..];
    match rest.iter().position(|&b| !is_json_ws(b)) {
        None if rest.len() > MAX_TRAILER => return Err(too_long_trailer(name)),
        None => {}
        Some(r) if r > MAX_TRAILER => return Err(too_long_trailer(name)),
        Some(r) => {
            if opts.lenient && !matches!(rest[r], b'{' | b'[') {
                // A trailer may be skipped, unless a document hides in it.
                if let Some(k) = second_document(&rest[r..rest.len().min(MAX_TRAILER + 1)], &mut TrailerScan::new(false)) {
                    let (l, c) = line_col(bytes, skip + end + r + k);
                    return Err(two_documents(name, l, c, true));
                }
                if rest.len() > MAX_TRAILER {
                    return Err(too_long_trailer(name));
                }
            }
            if crate::read::wrong::is_log_message(&raw.other_keys) {
                return Err(crate::read::wrong::log_stream(name));
            }
            let (l, c) = line_col(bytes, skip + end + r);
            after_document(name, rest[r], l, c, opts)?;
        }
    }
    classify(name, raw)
}

/// A streamed document's skeleton ([`crate::read::stream`]) parsed once: its
/// text was made by the walker from input the reading thread already framed
/// and checked (UTF-8, depth, what follows it), so only serde_json reads it
/// here. Errors carry no line or column (the skeleton's are not the input's).
pub(crate) fn parse_skeleton<'a>(name: &str, skeleton: &'a str) -> Result<Document<'a>, InputError> {
    let (raw, _) = parse_first(skeleton).map_err(|e| InputError { line: None, column: None, ..json_error_at(name, &e, (1, 1)) })?;
    classify(name, raw)
}

/// Inputs from this size on are depth-scanned on a second thread while they parse.
const PARALLEL_SCAN: usize = 1 << 20;

/// `a` and `b`, side by side on two threads when `parallel`, else one after the other.
fn concurrently<A: Send, B>(parallel: bool, a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B) -> (A, B) {
    if !parallel {
        return (a(), b());
    }
    std::thread::scope(|s| {
        let h = crate::par::spawn(s, a);
        let rb = b();
        (h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)), rb)
    })
}

/// The first JSON value of `text` as a document, and the offset just after it
/// (what follows is judged by [`after_document`]).
fn parse_first(text: &str) -> Result<(RawDocument<'_>, usize), serde_json::Error> {
    let mut it = serde_json::Deserializer::from_str(text).into_iter::<RawDocument<'_>>();
    match it.next() {
        Some(Ok(doc)) => Ok((doc, it.byte_offset())),
        Some(Err(e)) => Err(e),
        None => Err(<serde_json::Error as serde::de::Error>::custom("EOF while parsing a value")),
    }
}

fn classify<'a>(name: &str, raw: RawDocument<'a>) -> Result<Document<'a>, InputError> {
    if crate::read::wrong::is_log_message(&raw.other_keys) {
        return Err(crate::read::wrong::log_stream(name));
    }
    let version_value = raw.format_version.clone().or_else(|| raw.plan_format_version.clone());
    let hcp = raw.format_version.is_none() && raw.plan_format_version.is_some();
    // A plan can carry `provider_schemas` too (OpenTofu's cloud redacted
    // plans): keys only plans have make it a plan.
    if raw.other_keys.iter().any(|k| k == "provider_schemas") && !hcp && !raw.plan_keys {
        return Err(InputError::new(name, "this is provider schemas output (`providers schema -json`), not a plan or state")
            .hint("run `tofu show -json PLANFILE` or `terraform show -json PLANFILE`"));
    }
    let Some(version_value) = version_value else {
        return Err(neither(name, &raw, "it has no `format_version`, so its major version cannot be known"));
    };
    let version = match &version_value {
        serde_json::Value::String(s) => s.clone(),
        other => {
            let found = crate::sanitize::line(&other.to_string()).chars().take(40).collect::<String>();
            return Err(InputError::new(name, format!("`format_version` must be a string, found {found}")));
        }
    };
    check_version(name, &version)?;
    // A plan never has `values`, a state never has a plan's keys: a document
    // with both is neither, and reading it as either could pass what the
    // other holds (a state's resources judged as a plan of no changes).
    if raw.values_key && (raw.plan_keys || hcp) {
        let key = raw.first_plan_key.unwrap_or("plan_format_version");
        return Err(InputError::new(name, format!("not a plan or state from `show -json`: it has a state's `values` and a plan's `{key}`, so which it is cannot be known"))
            .hint("pass the output of `tofu show -json PLANFILE` or `terraform show -json PLANFILE` (a plan) or `terraform show -json` (a state), as the CLI wrote it"));
    }
    if raw.plan_keys || hcp {
        let mut plan = raw.plan;
        plan.format_version = version;
        plan.mark_sensitive_outputs();
        return Ok(Document::Plan(Box::new(plan)));
    }
    if raw.values.is_some() || raw.other_keys.is_empty() {
        // A state, or the empty state `{"format_version":"1.0"}`.
        let values = match raw.values {
            Some(v) => serde_json::from_str::<Option<Values<'a>>>(v.get())
                .map_err(|e| InputError::new(name, format!("invalid state `values`: {}", serde_message(&e))))?,
            None => None,
        };
        return Ok(Document::State(StateDoc {
            format_version: version,
            terraform_version: raw.plan.terraform_version,
            values,
            checks: raw.plan.checks,
        }));
    }
    Err(neither(name, &raw, "it has none of the keys of a plan or a state"))
}

fn neither(name: &str, raw: &RawDocument<'_>, why: &str) -> InputError {
    // Keys come from the input: escaped, and only the first few, cut short.
    let keys: Vec<String> = raw.other_keys.iter().take(8).map(|k| crate::sanitize::line(k).chars().take(40).collect()).collect();
    let what = if keys.is_empty() { String::new() } else { format!(" (top-level keys: {})", keys.join(", ")) };
    InputError::new(name, format!("not a plan or state from `show -json`: {why}{what}"))
        .hint("pass the output of `tofu show -json PLANFILE`, `terraform show -json PLANFILE` or `terraform show -json` (state)")
}

/// Accept every 0.x and 1.x (`"1.2"` has two parts); refuse 2.0+ and malformed.
pub(crate) fn check_version(name: &str, version: &str) -> Result<semver::Version, InputError> {
    let parts: Vec<&str> = version.split('.').collect();
    let padded = match parts.len() {
        1 => format!("{version}.0.0"),
        2 => format!("{version}.0"),
        _ => version.to_string(),
    };
    let v = semver::Version::parse(&padded)
        .map_err(|_| InputError::new(name, format!("`format_version` {version:?} is not a version number; supported: {SUPPORTED}")))?;
    let req = semver::VersionReq::parse("<2.0.0").expect("static requirement");
    if !req.matches(&v) || v.major >= 2 {
        return Err(InputError::new(name, format!("unsupported format_version {version:?}: planview reads {SUPPORTED}"))
            .hint("a new major version may change meanings; upgrade planview"));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::saved_plan::find_tf_bin;
    use crate::read::source::{read_sized, reserve};
    use crate::read::{is_saved_plan, redact_found_value, Notes};
    use crate::scan::MAX_DEPTH;
    use std::path::Path;

    fn err(s: &str) -> InputError {
        parse("f.json", s.as_bytes()).unwrap_err()
    }

    #[test]
    fn warnings_of_files_read_in_parallel_come_out_in_input_order() {
        let notes = Notes::default();
        notes.push("b.json", "second file, first note");
        notes.push("c.json", "not an input of this run");
        notes.push("a.json", "first file");
        notes.push("b.json", "second file, second note");
        let files = ["a.json".to_string(), "b.json".to_string()];
        assert_eq!(
            notes.take_ordered(&files),
            [
                "a.json: first file",
                "b.json: second file, first note",
                "b.json: second file, second note",
                "c.json: not an input of this run"
            ]
        );
        assert!(notes.take().is_empty());
    }

    #[test]
    fn versions_one_two_and_three_parts() {
        assert!(check_version("f", "1.2").is_ok());
        assert!(check_version("f", "0.1").is_ok());
        assert!(check_version("f", "1.0.3").is_ok());
        assert!(check_version("f", "1").is_ok());
        let e = check_version("f", "2.0").unwrap_err();
        assert!(e.message.contains("\"2.0\"") && e.message.contains("< 2.0"), "{e}");
        assert!(check_version("f", "one.two").is_err());
        assert!(check_version("f", "1.2-beta").is_err());
    }

    #[test]
    fn empty_state_is_a_state() {
        let d = parse("f", br#"{"format_version":"1.0"}"#).unwrap();
        assert_eq!(d.kind(), "state");
    }

    #[test]
    fn missing_version_and_foreign_documents_are_refused() {
        assert!(err(r#"{"resource_changes":[]}"#).message.contains("no `format_version`"));
        assert!(err(r#"{"format_version":"1.0","provider_schemas":{}}"#).message.contains("provider schemas"));
        assert!(err(r#"{"format_version":"1.0","valid":true,"diagnostics":[]}"#).message.contains("none of the keys"));
        assert!(err(r#"[1]"#).message.contains("array"));
        assert!(err("").message.contains("empty"));
        assert!(err(r#"{"format_version":1.0}"#).message.contains("must be a string"));
        // A state with a plan's key (or a plan with `values`) is neither.
        for both in [
            r#"{"format_version":"1.0","variables":{"x":{"value":1}},"values":{"root_module":{}}}"#,
            r#"{"format_version":"1.0","values":null,"resource_changes":[]}"#,
            r#"{"plan_format_version":"1.2","values":{}}"#,
        ] {
            let e = err(both);
            assert!(e.message.contains("a state's `values` and a plan's"), "{both}: {e}");
        }
    }

    #[test]
    fn type_errors_do_not_quote_the_value_found() {
        let e = err(
            r#"{"format_version":"1.2","resource_changes":[{"address":"a.b","mode":"managed","change":{"actions":"hunter2-secret"}}]}"#,
        );
        assert!(!e.to_string().contains("hunter2"), "{e}");
        assert!(e.message.contains("invalid type: a string, expected"), "{e}");
        let e = err(r#"{"format_version":"1.2","resource_changes":[{"address":123456789,"mode":"managed","change":{"actions":[]}}]}"#);
        assert!(!e.to_string().contains("123456789"), "{e}");
        assert_eq!(
            redact_found_value("invalid type: boolean `true`, expected a string"),
            "invalid type: boolean `true`, expected a string"
        );
        assert_eq!(redact_found_value("invalid value: string \"x\""), "invalid value: a string");
    }

    #[test]
    fn json_errors_carry_line_and_column() {
        let e = err("{\n  \"format_version\": \"1.0\",\n  \"values\": {,}\n}");
        assert_eq!((e.line, e.column), (Some(3), Some(14)));
        let e = err("{\"format_version\":\"1.0\"");
        assert!(e.hint.unwrap().contains("truncated"));
        let e = err("{\"format_version\":\"1.0\"}\n{}");
        assert!(e.message.contains("two JSON documents"), "{}", e.message);
        assert_eq!((e.line, e.column), (Some(2), Some(1)));
        let e = err("{\"format_version\":\"1.0\"}Done.");
        assert!(e.message.contains("text after the JSON"), "{}", e.message);
        assert_eq!((e.line, e.column), (Some(1), Some(25)));
    }

    #[test]
    fn big_inputs_scanned_on_a_second_thread_give_the_same_errors() {
        let pad = "x".repeat(PARALLEL_SCAN);
        let deep = format!("{{\"format_version\":\"1.2\",\"pad\":\"{pad}\",\n\"x\":{}{}}}", "[".repeat(200), "]".repeat(200));
        let e = parse("f", deep.as_bytes()).unwrap_err();
        assert!(e.message.contains("nested deeper than"), "{e}");
        assert_eq!((e.line, e.column), (Some(2), Some(4 + MAX_DEPTH)), "the 128th level: root + 127 brackets");
        let bad = format!("{{\"format_version\":\"1.2\",\"pad\":\"{pad}\",\n\"x\":[1,,2]}}");
        let e = parse("f", bad.as_bytes()).unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(8)), "{e}");
        let ok = format!("{{\"format_version\":\"1.0\",\"values\":{{}},\"pad\":\"{pad}\"}}\n");
        assert_eq!(parse("f", ok.as_bytes()).unwrap().kind(), "state");
    }

    #[test]
    fn lenient_skips_a_wrapper_before_and_after_but_not_a_second_document() {
        let lenient = ReadOptions { lenient: true, ..Default::default() };
        let d = parse_with("f", b"$ tofu show -json p\n{\"format_version\":\"1.0\"}Done.\n", &lenient).unwrap();
        assert_eq!(d.kind(), "state");
        let notes = lenient.notes.take();
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes[0].contains("skipped 20 bytes") && notes[0].contains("line 2, column 1"), "{notes:?}");
        assert!(notes[1].contains("ignored the text after") && notes[1].contains("line 2, column 25"), "{notes:?}");
        let e = parse_with("f", b"x{\"format_version\":\"1.0\"} {}", &lenient).unwrap_err();
        assert!(e.message.contains("two JSON documents"));
        // Errors after a skipped prefix are located in the whole input.
        let e = parse_with("f", b"noise\n{\"format_version\":\"1.0\",\n\"values\": {,}}", &lenient).unwrap_err();
        assert_eq!((e.line, e.column), (Some(3), Some(12)));
        let e = parse_with("f", b"noise {\"format_version\": x}", &lenient).unwrap_err();
        assert_eq!((e.line, e.column), (Some(1), Some(26)));
        lenient.notes.take();
        // Blanks before the JSON are no wrapper: no warning.
        parse_with("f", b"\n  {\"format_version\":\"1.0\"}", &lenient).unwrap();
        assert!(lenient.notes.take().is_empty());
        // Strict reading refuses both.
        assert!(parse("f", b"$ x\n{\"format_version\":\"1.0\"}").is_err());
        assert!(parse("f", b"{\"format_version\":\"1.0\"}\nDone.").is_err());
    }

    #[test]
    fn lenient_refuses_a_second_document_hidden_behind_a_trailer() {
        let lenient = ReadOptions { lenient: true, ..Default::default() };
        let two = b"{\"format_version\":\"1.0\"}\n::debug::done\nDone.\n  {\"format_version\":\"1.0\"}\n";
        let e = parse_with("f", two, &lenient).unwrap_err();
        assert_eq!((e.line, e.column), (Some(4), Some(3)), "{e}");
        assert!(e.message.contains("two JSON documents (with text between them)"), "{e}");
        assert!(e.hint.as_deref().unwrap().contains("each starts on a line of its own"), "{e}");
        assert!(lenient.notes.take().is_empty(), "no warning for an input refused");
        // A `{` inside a trailer's line is text, not a document.
        parse_with("f", b"{\"format_version\":\"1.0\"}\n::debug::{\"a\":1}\n", &lenient).unwrap();
        assert_eq!(lenient.notes.take().len(), 1);
        // Strictly, the text after the first is refused where it starts.
        let e = parse("f", two).unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(1)), "{e}");
        let find = |text: &[u8], line_start: bool| {
            let mut scan = TrailerScan::new(line_start);
            (second_document(text, &mut scan), scan.line_start)
        };
        assert_eq!(find(b"x\n {", false), (Some(3), true));
        assert_eq!(find(b"x {", false), (None, false));
        assert_eq!(find(b"{", true), (Some(0), true));
        assert_eq!(find(b"x\n ", false), (None, true));
        // A `format_version` key anywhere in the text: a document planview did not read.
        assert_eq!(find(b"::debug::{\"format_version\":\"1.2\"}", false), (Some(25), false));
        assert_eq!(find(b"x \"plan_format_version\"", false), (Some(22), false));
        assert_eq!(find(b"format_ version\"", false), (None, false));
        assert_eq!(find(b"msg=\"{\\\"format_version\\\":1}\"", false), (Some(22), false), "escaped in a quoted message");
        assert_eq!(find(b"unsupported format_version 2.0", false), (None, false));
        // Cut between two pieces.
        let mut scan = TrailerScan::new(false);
        assert_eq!(second_document(b"log: {\"form", &mut scan), None);
        assert_eq!(second_document(b"at_version\": 1}", &mut scan), Some(10));
    }

    #[test]
    fn an_input_too_big_for_memory_is_an_input_error_not_an_abort() {
        let e = read_sized("big.json", std::io::empty(), u64::MAX / 4).unwrap_err();
        assert!(e.message.starts_with("is too big to read into memory"), "{e}");
        assert!(e.hint.as_deref().unwrap().contains("summary"), "{e}");
        assert_eq!(read_sized("small.json", &b"{}"[..], 2).unwrap(), b"{}");
        // A size that was wrong (a file that grew) is read all the same.
        assert_eq!(read_sized("grew.json", &b"{\"a\":1}"[..], 2).unwrap(), b"{\"a\":1}");
        let mut buf = vec![1u8];
        let e = reserve("f", &mut buf, usize::MAX / 2, false).unwrap_err();
        assert!(e.message.contains("could not be allocated"), "{e}");
    }

    #[test]
    fn encodings_are_refused_with_hints() {
        let e = parse("f", b"\xEF\xBB\xBF{}").unwrap_err();
        assert!(e.message.contains("byte-order mark"));
        let e = parse("f", b"\xFF\xFE{\x00}\x00").unwrap_err();
        assert!(e.message.contains("UTF-16"));
        let e = parse("f", b"{\"format_version\":\"1.0\",\n\"x\":\"\xC3\x28\"}").unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(6)));
    }

    #[test]
    fn text_before_the_json_gets_a_hint() {
        let e = err("$ terraform show -json plan.out\n{\"format_version\":\"1.0\"}");
        assert!(e.hint.unwrap().contains("line 2"));
    }

    #[test]
    fn saved_plans_are_recognised_and_parse_says_so() {
        assert!(is_saved_plan(b"PK\x03\x04rest"));
        assert!(!is_saved_plan(b"PK"));
        assert!(!is_saved_plan(b"{\"format_version\":\"1.0\"}"));
        let e = parse("plan.out", b"PK\x03\x04\x14\x00").unwrap_err();
        assert!(e.message.contains("saved plan") && e.hint.unwrap().contains("show -json"), "{}", e.message);
    }

    #[cfg(unix)]
    #[test]
    fn tofu_is_preferred_to_terraform_anywhere_on_path() {
        use std::os::unix::fs::PermissionsExt;
        let base = std::env::temp_dir().join(format!("planview-find-bin-{}", std::process::id()));
        let (a, b) = (base.join("a"), base.join("b"));
        std::fs::create_dir_all(&a).unwrap();
        std::fs::create_dir_all(&b).unwrap();
        let exe = |p: &Path| {
            std::fs::write(p, "#!/bin/sh\n").unwrap();
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
        };
        exe(&a.join("terraform"));
        let path = std::env::join_paths([&a, &b]).unwrap();
        assert_eq!(find_tf_bin(Some(&path)), Some(a.join("terraform")));
        exe(&b.join("tofu"));
        assert_eq!(find_tf_bin(Some(&path)), Some(b.join("tofu")));
        // Not executable, or a directory: not found.
        std::fs::set_permissions(b.join("tofu"), std::fs::Permissions::from_mode(0o644)).unwrap();
        std::fs::remove_file(a.join("terraform")).unwrap();
        std::fs::create_dir_all(a.join("terraform")).unwrap();
        assert_eq!(find_tf_bin(Some(&path)), None);
        assert_eq!(find_tf_bin(None), None);
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn hcp_redacted_plan_is_a_plan() {
        let d = parse("f", br#"{"plan_format_version":"1.2","provider_format_version":"1.0","provider_schemas":{},"resource_changes":[]}"#)
            .unwrap();
        match d {
            Document::Plan(p) => assert_eq!(p.format_version, "1.2"),
            _ => panic!("not a plan"),
        }
    }
}
