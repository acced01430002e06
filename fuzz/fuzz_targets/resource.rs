//! A values representation's resource read over the structural index
//! (`src/read/walk/resource.rs`, compiled here as it is, with `src/index.rs`
//! and `src/scan.rs` under it) against serde_json, on arbitrary bytes: when
//! `resource_spans` takes a resource whole, serde_json reads it as an object
//! ending at the same place; its `values` and `sensitive_values` (when that
//! marks something) are serde_json's members of those names.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::value::RawValue;

#[path = "../../src/index.rs"]
#[allow(dead_code)]
mod index;

#[path = "../../src/scan.rs"]
#[allow(dead_code, unused_imports)]
mod scan;

#[path = "../../src/read/walk/resource.rs"]
#[allow(dead_code)]
mod resource;

/// Marks nothing: only objects, arrays, `false` and `null`.
fn nothing(v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::Object(m) => m.values().all(nothing),
        serde_json::Value::Array(a) => a.iter().all(nothing),
        serde_json::Value::Bool(false) | serde_json::Value::Null => true,
        _ => false,
    }
}

fuzz_target!(|data: &[u8]| {
    // The walker is given validated text (the reading thread checks UTF-8 first).
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (index::Skip::End(n), spans) = resource::resource_spans(data) else { return };
    let mut it = serde_json::Deserializer::from_str(text).into_iter::<std::collections::BTreeMap<String, Box<RawValue>>>();
    let members = match it.next() {
        Some(Ok(m)) if it.byte_offset() == n => m,
        other => panic!("taken whole to {n}, serde_json: {:?} at {}", other.map(|r| r.map(|_| ())), it.byte_offset()),
    };
    let marks = members.get("sensitive_values").filter(|m| serde_json::from_str(m.get()).map_or(true, |v| !nothing(&v)));
    let want = marks.map(|m| (members.get("values").map(|v| v.get()), m.get()));
    let got = spans.map(|s| (s.values.map(|(a, b)| &text[a..b]), &text[s.marks.0..s.marks.1]));
    assert_eq!(got, want, "{text:?}");
});
