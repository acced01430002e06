//! The structural index (`src/index.rs`, compiled here as it is) against its
//! references, on arbitrary bytes: every way of classifying a 64-byte run
//! (SSE2, `u64` words, byte by byte) gives the same bits; the in-string mask
//! and the brackets outside strings, carried from run to run, are what a
//! byte-by-byte scan sees; and the skip over the index accepts only what
//! serde_json accepts, ending where serde_json ends.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../src/index.rs"]
#[allow(dead_code)]
mod index;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = index::index_agrees(data) {
        panic!("{e}");
    }
    // The skip is given validated text (the reading thread checks UTF-8 first).
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let index::Skip::End(n) = index::skip(data) {
        let mut it = serde_json::Deserializer::from_str(text).into_iter::<serde::de::IgnoredAny>();
        match it.next() {
            Some(Ok(_)) if it.byte_offset() == n => {}
            other => panic!("skip ended at {n}, serde_json: {:?} at {}", other.map(|r| r.map(|_| ())), it.byte_offset()),
        }
    }
});
