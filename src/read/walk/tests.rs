//! The walker against a whole read: the same answers, errors and secrets,
//! in pieces of any size.

use super::*;
use crate::model::Document;
use crate::read::parse;
use crate::read::stream::{stream_chunked, ReadAhead, CHUNK};
use crate::read::window::tally;
use std::io::Read;

#[derive(Default, Debug)]
struct Collect {
    changes: Vec<String>,
    drift: Vec<String>,
    befores: usize,
    values: Vec<String>,
}

impl PlanVisitor for Collect {
    fn on_resource_change(&mut self, rc: &ResourceChange<'_>) {
        self.changes.push(rc.address.clone());
        self.befores += usize::from(rc.change.before.is_some());
    }
    fn on_drift(&mut self, rc: &ResourceChange<'_>) {
        self.drift.push(rc.address.clone());
    }
    fn on_values_resource(&mut self, r: &ResourceValue<'_>) {
        self.values.push(r.address.clone());
    }
    fn needs_every_values_resource(&self) -> bool {
        true
    }
}

/// A reader that returns one byte per read: every boundary is exercised.
struct Trickle(Vec<u8>, usize);
impl Read for Trickle {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        match self.0.get(self.1) {
            Some(b) if !out.is_empty() => {
                out[0] = *b;
                self.1 += 1;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

const PLAN: &str = r#" {"format_version":"1.2","planned_values":{"root_module":{"resources":[{"address":"p.v","values":{"a":[1,2,{"b":"ü"}]}},7]}},
      "resource_drift":[{"address":"d.x","change":{"actions":["update"]}}],
      "resource_changes":[{"address":"a.b","change":{"actions":["create"],"before":null,"after":{"k":"é€😀"}}},
                          {"address":"a.c","change":{"actions":["delete"],"before":{"n":1e3}}}],
      "output_changes":{"o":{"actions":["create"]}},"brand_new":[1,2,3],
      "prior_state":{"format_version":"1.0","values":{"outputs":{"s":{"value":"x","sensitive":true}},
        "root_module":{"child_modules":[{"address":"module.m","resources":[{"address":"module.m.r.s","values":{}}]}]}}},
      "checks":[],"errored":false} "#;

fn run(json: &[u8], chunk: usize) -> Result<(Collect, String), InputError> {
    run_with(json, chunk, &ReadOptions::default())
}

fn run_with(json: &[u8], chunk: usize, opts: &ReadOptions) -> Result<(Collect, String), InputError> {
    let mut c = Collect::default();
    let skel = stream_chunked("p", Trickle(json.to_vec(), 0), ReadAhead::Joined, opts, &mut c, chunk)?;
    Ok((c, skel))
}

/// A source that says when the read-ahead thread has let go of it.
struct Flagged(std::io::Cursor<Vec<u8>>, std::sync::Arc<std::sync::atomic::AtomicBool>);
impl Read for Flagged {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(out)
    }
}
impl Drop for Flagged {
    fn drop(&mut self) {
        self.1.store(true, std::sync::atomic::Ordering::SeqCst);
    }
}

#[test]
fn a_joined_read_ahead_thread_has_ended_when_the_stream_returns() {
    // Guards the fuzzer's leak report: a file's read-ahead thread outlived
    // the call after an early error. 2 MB after the error, read 64 bytes at a time.
    for (what, json) in [("error", format!("{{\"format_version\":[}} {}", " ".repeat(2 << 20))), ("success", PLAN.to_string())] {
        let dropped = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let src = Flagged(std::io::Cursor::new(json.into_bytes()), dropped.clone());
        let r = stream_chunked("p", src, ReadAhead::Joined, &ReadOptions::default(), &mut Collect::default(), 64);
        assert_eq!(r.is_ok(), what == "success", "{what}: {r:?}");
        assert!(dropped.load(std::sync::atomic::Ordering::SeqCst), "{what}: the read-ahead thread still holds the source");
    }
}

#[test]
fn streamed_elements_and_skeleton_match_a_whole_read() {
    for chunk in [1, 2, 3, 5, 64, CHUNK] {
        let (c, skel) = run(PLAN.as_bytes(), chunk).unwrap();
        assert_eq!(c.changes, vec!["a.b", "a.c"]);
        assert_eq!(c.drift, vec!["d.x"]);
        assert_eq!(c.befores, 1);
        let doc = parse("p", skel.as_bytes()).unwrap();
        let Document::Plan(p) = doc else { panic!("not a plan") };
        assert_eq!(p.format_version, "1.2");
        // Values resources were streamed (the element that is no resource skipped);
        // only the outputs stay in the skeleton.
        assert_eq!(c.values, vec!["p.v", "module.m.r.s"]);
        assert!(p.resource_changes.is_empty());
        assert_eq!(p.planned_values.map(|r| r.get()), Some("{}"));
        assert_eq!(p.prior_state.map(|r| r.get()), Some(r#"{"values":{"outputs":{"s":{"value":"x","sensitive":true}}}}"#));
        assert_eq!(p.output_changes.len(), 1);
        assert!(skel.contains(r#""brand_new":null"#), "{skel}");
    }
}

#[test]
fn skipping_walks_values_bigger_than_the_window() {
    let big: String = (0..150_000).map(|i| format!("{{\"k{i}\":[\"v\",{i},true,null]}}")).collect::<Vec<_>>().join(",");
    let json = format!(
        r#"{{"format_version":"1.2","prior_state":{{"values":[{big}]}},"resource_changes":[{{"address":"x","change":{{"actions":["no-op"]}}}}]}}"#
    );
    assert!(json.len() > 2 * SKIP_WINDOW);
    let (c, _) = run(json.as_bytes(), CHUNK).unwrap();
    assert_eq!(c.changes, vec!["x"]);
    let broken = json.replace("\"k149999\":[\"v\",149999", "\"k149999\":[\"v\" 149999");
    let e = run(broken.as_bytes(), CHUNK).unwrap_err();
    let whole = parse("p", broken.as_bytes()).unwrap_err();
    assert!(e.message.contains("invalid JSON"), "{e}");
    assert_eq!((e.line, e.column), (whole.line, whole.column), "{e} / {whole}");
}

/// Errors name the same place, with the same hint, as a whole-document read.
#[test]
fn errors_match_a_whole_read() {
    let cases: &[&[u8]] = &[
            b"{\"format_version\":\"1.2\",\n\"resource_changes\":[\n{\"address\":\"a\",\"change\":{\"actions\":[\"create\"]}},\n{\"address\":\"b\" \"change\":{}}]}",
            b"{\"format_version\":\"1.2\",\n\"resource_changes\":[\n{\"address\":\"a\",\"change\":{\"actions\":[\"create\"]}}",
            b"{\"format_version\":\"1.0\"} {}",
            b"{\"format_version\":\n\"1.0\", \"a\":\"\xC3\x28\"}",
            b"{\"format_version\":\"1.2\",\"planned_values\":{\"x\":[1,2,,3]}}",
            b"  ",
            b"\xEF\xBB\xBF{}",
            b"[1]",
            b"$ tofu show -json\n{}",
            b"{\"format_version\":\"1.0\"}\nDone.",
            b"{\"format_version\":\"1.2\",\n\"resource_changes\":[],\"resource_changes\":[]}",
            b"{\"format_version\":\"1.2\",\"resource_changes\":[{\"address\":\"a\",\"address\":\"b\",\"change\":{\"actions\":[]}}]}",
            &[b'['; 300],
            b"\x0c{\"format_version\":\"1.0\"}",
            b"{\"format_version\":\"1.0\"}\x0c",
            b"{\"format_version\":\"1.2\",\n\"x\":\"[[[\", \"y\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
        ];
    let lenient_cases: &[&[u8]] = &[
        b"$ tofu show -json\n{\"format_version\":\"1.0\"} {}",
        b"\xEF\xBB\xBFnoise {\"format_version\":\"1.0\",\n\"x\":[1,,2]}",
        b"noise\nno json here",
        b"\xFF\xFE{\x00}\x00",
        b"\x0c\x0b noise\n\x0c{\"format_version\":\"1.0\",\"x\":[1,,2]}",
        b"{\"format_version\":\"1.0\"}\n::debug::done\n\n \t{\"format_version\":\"1.0\"}\n",
        b"{\"format_version\":\"1.0\"} Done. \xC3\xA9t\xC3\xA9\r\n{}",
    ];
    let strict = ReadOptions::default();
    let lenient = ReadOptions { lenient: true, ..Default::default() };
    for (opts, case) in cases.iter().map(|c| (&strict, c)).chain(lenient_cases.iter().map(|c| (&lenient, c))) {
        let whole = crate::read::parse_with("p", case, opts).unwrap_err();
        for chunk in [1, 3, CHUNK] {
            let e = run_with(case, chunk, opts).unwrap_err();
            assert_eq!((e.line, e.column), (whole.line, whole.column), "{e} / {whole}");
            assert_eq!(e.hint, whole.hint, "{e} / {whole}");
            assert_eq!(e.message, whole.message, "{e} / {whole}");
        }
    }
}

#[test]
fn lenient_reads_what_a_whole_read_reads_and_warns_the_same() {
    let cases: &[&[u8]] = &[
            b"$ tofu show -json plan.out\n{\"format_version\":\"1.2\",\"resource_changes\":[{\"address\":\"a\",\"mode\":\"managed\",\"change\":{\"actions\":[\"delete\"]}}]}\n::debug::done",
            b"\xEF\xBB\xBF{\"format_version\":\"1.0\"}",
            b"  {\"format_version\":\"1.0\"}  ",
            b"\x0c{\"format_version\":\"1.0\"}\x0c",
        ];
    for case in cases {
        let opts = ReadOptions { lenient: true, ..Default::default() };
        crate::read::parse_with("p", case, &opts).unwrap();
        let whole = opts.notes.take();
        for chunk in [1, 3, CHUNK] {
            let opts = ReadOptions { lenient: true, ..Default::default() };
            run_with(case, chunk, &opts).unwrap();
            assert_eq!(opts.notes.take(), whole, "chunk {chunk}");
        }
    }
}

fn run_fast(json: &str, chunk: usize, opts: &ReadOptions) -> Result<(Collect, String), InputError> {
    let mut c = Collect::default();
    let src = std::io::Cursor::new(json.as_bytes().to_vec());
    let skel = stream_chunked("p", src, ReadAhead::Joined, opts, &mut c, chunk)?;
    Ok((c, skel))
}

/// A value spanning many refills is parsed a few times, not once per refill:
/// `summary` of a big state was quadratic (a state's `values` is one value).
#[test]
fn a_value_spanning_many_refills_is_not_parsed_again_at_each_refill() {
    let resources: Vec<String> = (0..4000)
        .map(|i| {
            format!(r#"{{"address":"t.r[{i}]","mode":"managed","type":"t","name":"r","values":{{"id":"{i:08}","tags":{{"k":"v"}}}}}}"#)
        })
        .collect();
    let resources = resources.join(",");
    let state =
        format!(r#"{{"format_version":"1.0","terraform_version":"1.9.0","values":{{"root_module":{{"resources":[{resources}]}}}}}}"#);
    // One big resource change (streamed) after a big skipped value that fits the window.
    let plan = format!(
        r#"{{"format_version":"1.2","prior_state":{{"values":[{resources}]}},"resource_changes":[{{"address":"big","change":{{"actions":["create"],"after":[{resources}]}}}}]}}"#
    );
    assert!(state.len() > 300 << 10 && plan.len() < SKIP_WINDOW + (300 << 10));
    for (what, json) in [("state", &state), ("plan", &plan)] {
        tally::take();
        let (c, skel) = run_fast(json, 4 << 10, &ReadOptions::default()).unwrap();
        let (parsed, _) = tally::take();
        // Once per refill, this was about len² / (2 × 4 KB): 20 MB and more.
        assert!(parsed <= 4 * json.len(), "{what}: {parsed} bytes parsed for {} bytes of input", json.len());
        if what == "state" {
            assert!(skel.contains(r#""address":"t.r[3999]""#));
            assert!(matches!(parse("p", skel.as_bytes()).unwrap(), Document::State(_)));
        } else {
            assert_eq!(c.changes, vec!["big"]);
        }
    }
}

/// Blanks before the document are dropped as they arrive, neither kept nor
/// scanned again at each refill, and errors still name the right place.
#[test]
fn leading_blanks_are_dropped_as_they_arrive() {
    let blanks = " \n\t\r ".repeat(200 << 10); // 1 MB, 200k lines
    let json = format!("{blanks}{PLAN}");
    tally::take();
    let (c, _) = run_fast(&json, 4 << 10, &ReadOptions::default()).unwrap();
    let (_, buffered) = tally::take();
    assert_eq!(c.changes, vec!["a.b", "a.c"]);
    // Kept whole, the buffer grew to the 1 MB of blanks.
    assert!(buffered <= 3 * (4 << 10), "the buffer held {buffered} bytes");

    let strict = ReadOptions::default();
    let lenient = ReadOptions { lenient: true, ..Default::default() };
    let blanks = &blanks[..20 << 10];
    let cases = [
        format!("{blanks}[1]"),
        format!("{blanks}PK\u{3}\u{4}junk"),
        format!("{blanks}junk\n{PLAN}"),
        format!("{blanks}{{\"format_version\":\"1.2\",\n\"x\":[1,,2]}}"),
        format!("{blanks}{}", "[".repeat(300)),
        format!("{blanks}{{\"format_version\":\"1.2\",\"x\":{}", "[".repeat(300)),
        blanks.to_string(),
    ];
    for case in &cases {
        for opts in [&strict, &lenient] {
            let whole = crate::read::parse_with("p", case.as_bytes(), opts);
            let whole_notes = opts.notes.take();
            for chunk in [1, 7, 4 << 10, CHUNK] {
                let streamed = run_fast(case, chunk, opts);
                assert_eq!(opts.notes.take(), whole_notes, "chunk {chunk}");
                match (&whole, streamed) {
                    (Err(whole), Err(e)) => {
                        assert_eq!((e.line, e.column), (whole.line, whole.column), "{e} / {whole}");
                        assert_eq!((&e.message, &e.hint), (&whole.message, &whole.hint), "{e} / {whole}");
                    }
                    (Ok(_), Ok(_)) => {}
                    (whole, streamed) => panic!("chunk {chunk}: whole {:?}, streamed {:?}", whole.is_ok(), streamed.map(|_| ())),
                }
            }
        }
    }
}

/// Resources of `planned_values` and `prior_state` skipped over the index
/// when they mark nothing: the secrets found are those of a whole read, for
/// every shape of marker (nested, whole, malformed, escaped or repeated key).
#[test]
fn resources_skipped_over_the_index_hide_no_secret() {
    let resources = [
        r#"{"address":"a.plain","values":{"k":"plain-value-000001"},"sensitive_values":{"tags":{},"l":[],"f":false,"n":null}}"#,
        r#"{"address":"a.none","values":{"k":"plain-value-000002"}}"#,
        r#"{"address":"a.nested","values":{"k":{"p":"nested-secret-0001"}},"sensitive_values":{"k":{"p":true}}}"#,
        r#"{"address":"a.whole","values":{"k":"whole-secret-000001"},"sensitive_values":true}"#,
        r#"{"address":"a.bad","values":{"k":"malformed-secret-01"},"sensitive_values":{"k":"yes"}}"#,
        r#"{"address":"a.num","values":{"k":"number-secret-0001"},"sensitive_values":{"k":1}}"#,
        r#"{"address":"a.esc","values":{"k":"escaped-key-secret1"},"sensitive\u005fvalues":{"k":true}}"#,
        r#"{"address":"a.array","values":{"k":["array-secret-00001"]},"sensitive_values":{"k":[true]}}"#,
        r#"{"address":"a.key","values":{"true":"key-named-true-01"},"sensitive_values":{"true":false}}"#,
    ]
    .join(",");
    let plan = format!(
        r#"{{"format_version":"1.2","planned_values":{{"root_module":{{"resources":[{resources}]}}}},
        "prior_state":{{"values":{{"root_module":{{"resources":[{resources}]}}}}}},"resource_changes":[]}}"#
    );
    let text: String = ["plain-value-000001", "plain-value-000002", "nested-secret-0001", "whole-secret-000001", "malformed-secret-01"]
        .into_iter()
        .chain(["number-secret-0001", "escaped-key-secret1", "array-secret-00001", "key-named-true-01"])
        .collect::<Vec<_>>()
        .join(" ");
    let whole = crate::secrets::Masker::collect(&parse("p", plan.as_bytes()).unwrap());
    let want = whole.scrubber().scrub(text.as_bytes()).into_owned();
    assert!(!String::from_utf8_lossy(&want).contains("nested-secret-0001"), "the yardstick masks: {}", String::from_utf8_lossy(&want));
    assert!(String::from_utf8_lossy(&want).contains("plain-value-000001"), "the yardstick leaves plain values");
    struct Nothing;
    impl PlanVisitor for Nothing {}
    for chunk in [1, 7, 64, 200, CHUNK] {
        let opts = ReadOptions::default();
        let src = Trickle(plan.clone().into_bytes(), 0);
        let read = |_: &str, src: Trickle| -> Result<crate::secrets::Masker, InputError> {
            let mut both = (Nothing, crate::secrets::Masker::default());
            let skel = stream_chunked("p", src, ReadAhead::Joined, &opts, &mut both, chunk)?;
            let mut m = both.1;
            m.merge(&crate::secrets::Masker::collect(&parse("p", skel.as_bytes()).unwrap()));
            Ok(m)
        };
        let streamed = read("p", src).unwrap();
        assert_eq!(streamed.scrubber().scrub(text.as_bytes()).into_owned(), want, "pieces of {chunk}");
    }
}

/// [`resource_spans`]' reference: serde_json reads the object's members (no
/// key twice), and a marker marks nothing when it holds only objects,
/// arrays, `false` and `null`.
/// A resource's `values` (if any) and marking `sensitive_values`, as text.
type Marked = (Option<String>, String);

fn spans_by_serde(t: &str) -> Option<(usize, Option<Marked>)> {
    fn nothing(v: &serde_json::Value) -> bool {
        match v {
            serde_json::Value::Object(m) => m.values().all(nothing),
            serde_json::Value::Array(a) => a.iter().all(nothing),
            serde_json::Value::Bool(false) | serde_json::Value::Null => true,
            _ => false,
        }
    }
    let mut it = serde_json::Deserializer::from_str(t).into_iter::<std::collections::BTreeMap<String, Box<RawValue>>>();
    let members = it.next()?.ok()?;
    let marks = members.get("sensitive_values").filter(|m| !nothing(&serde_json::from_str(m.get()).unwrap()));
    Some((it.byte_offset(), marks.map(|m| (members.get("values").map(|v| v.get().to_string()), m.get().to_string()))))
}

fn resource_text() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let leaf = prop_oneof![
        Just("null".to_string()),
        Just("false".to_string()),
        Just("true".to_string()),
        Just("12.5e3".to_string()),
        "[a-z\"\\\\{}\\[\\] é]{0,12}".prop_map(|s| serde_json::to_string(&s).unwrap()),
    ];
    let value = leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(|v| format!("[{}]", v.join(","))),
            proptest::collection::vec(("[a-z]{1,3}", inner), 0..4).prop_map(|v| {
                let mut seen = std::collections::HashSet::new();
                let m: Vec<String> = v.into_iter().filter(|(k, _)| seen.insert(k.clone())).map(|(k, v)| format!("{k:?} : {v}")).collect();
                format!("{{ {} }}", m.join(" ,\n"))
            }),
        ]
    });
    let key = prop_oneof![Just("values"), Just("sensitive_values"), Just("address"), Just("type"), Just("x")];
    proptest::collection::vec((key, value), 0..5).prop_map(|members| {
        let mut seen = std::collections::HashSet::new();
        let m: Vec<String> = members.into_iter().filter(|(k, _)| seen.insert(*k)).map(|(k, v)| format!("\"{k}\":{v}")).collect();
        format!(" {{{}}} ,", m.join(", "))
    })
}

proptest::proptest! {
    /// Over the index, a resource's length and its `values` and marking
    /// `sensitive_values` are what serde_json reads; cut short it is never
    /// taken for whole, and broken it is never accepted.
    #[test]
    fn resource_spans_are_what_serde_reads(text in resource_text(), cut in 0usize..400, flip in 0usize..400) {
        let t = text.as_bytes();
        let (skip, spans) = resource_spans(t);
        let (n, want) = spans_by_serde(&text).unwrap();
        proptest::prop_assert_eq!(skip, Skip::End(n));
        let got = spans.map(|s| (s.values.map(|(a, b)| text[a..b].to_string()), text[s.marks.0..s.marks.1].to_string()));
        proptest::prop_assert_eq!(got, want);
        // Cut short: incomplete (or refused), never whole.
        let short = &t[..cut.min(text.trim_end_matches([' ', ',']).len() - 1)];
        proptest::prop_assert!(!matches!(resource_spans(short).0, Skip::End(_)));
        // One byte changed: accepted only when serde_json accepts it too, as long.
        let mut broken = t.to_vec();
        let at = flip % broken.len();
        broken[at] = b"{}[]\",:x"[flip % 8];
        // (UTF-8 is the reading thread's to check, not the index's.)
        if let (Ok(broken), (Skip::End(m), _)) = (std::str::from_utf8(&broken), resource_spans(&broken)) {
            proptest::prop_assert_eq!(spans_by_serde(broken).map(|(n, _)| n), Some(m), "{}", broken);
        }
    }
}

/// The changes a [`crate::read::Keep`] keeps, as the query sees them (drift
/// first, then the filled plan's changes, then those read back from its
/// spool): each one's address, previous address, actions and move, and its
/// `after` text.
type Kept = Vec<(String, Option<String>)>;

fn kept_changes(keep: crate::read::Keep<impl FnMut(bool, usize, usize, &ResourceChange<'_>) -> bool>, json: &str) -> Kept {
    let mut keep = keep;
    let src = std::io::Cursor::new(json.as_bytes().to_vec());
    let skel = stream_chunked("p", src, ReadAhead::Joined, &ReadOptions::default(), &mut keep, CHUNK).unwrap();
    let Document::Plan(p) = parse("p", skel.as_bytes()).unwrap() else { panic!("not a plan") };
    let mut plan = *p;
    keep.fill(&mut plan).unwrap();
    let show = |rc: &ResourceChange<'_>| {
        let head = format!("{} {:?} {:?} move={}", rc.address, rc.previous_address, rc.change.actions, rc.is_move());
        (head, rc.change.after.map(|a| a.get().to_string()))
    };
    let mut out: Kept = plan.resource_drift.iter().map(show).collect();
    out.extend(plan.resource_changes.iter().map(show));
    keep.each_change(&mut |rc| out.push(show(rc))).unwrap();
    out
}

#[test]
fn spooled_changes_read_back_as_the_held_ones_and_bare_ones_keep_kind_and_move() {
    // Six changes of 50 KB kept: more than the spool's block (256 KB), which then goes to its file.
    let big = "x".repeat(50 << 10);
    let changes: Vec<String> = (0..12)
        .map(|i| {
            let prev = if i % 3 == 0 { format!(r#""previous_address":"a.old{i}","#) } else { String::new() };
            let act = ["create", "no-op", "delete"][i % 3];
            format!(r#"{{"address":"a.n{i}",{prev}"change":{{"actions":["{act}"],"after":{{"v":"{big}{i}"}}}}}}"#)
        })
        .collect();
    let json = format!(
        r#"{{"format_version":"1.2","resource_drift":[{{"address":"d.x","change":{{"actions":["update"],"after":{{"k":1}}}}}}],"resource_changes":[{}]}}"#,
        changes.join(",")
    );
    let keep = |drift: bool, i: usize, _: usize, _: &ResourceChange<'_>| drift || i % 2 == 0;
    let held = kept_changes(crate::read::Keep::new(keep), &json);
    assert_eq!(held.len(), 7, "{held:?}");
    assert!(held.iter().all(|(_, after)| after.is_some()));
    assert!(held[1].0.contains("Some(\"a.old0\")") && held[1].0.ends_with("move=true"), "{:?}", held[1]);
    assert_eq!(kept_changes(crate::read::Keep::new(keep).spooled_changes(), &json), held);
    // Bare: the same addresses, actions and moves, without values; drift whole.
    let bare = kept_changes(crate::read::Keep::new(keep).bare_changes(), &json);
    assert_eq!(bare[0], held[0]);
    assert_eq!(bare.iter().map(|b| &b.0).collect::<Vec<_>>(), held.iter().map(|h| &h.0).collect::<Vec<_>>());
    assert!(bare[1..].iter().all(|(_, after)| after.is_none()), "{bare:?}");
}
