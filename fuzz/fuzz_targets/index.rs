//! The structural index (`src/index.rs` and `src/utf8.rs`, compiled here as they are) against its
//! references, on arbitrary bytes: every way of classifying a 64-byte run
//! (SSE2, `u64` words, byte by byte) gives the same bits; the in-string mask
//! and the brackets outside strings, carried from run to run, are what a
//! byte-by-byte scan sees; every way of lexing a run (`Lexes`) agrees; the
//! skip over the index answers as the byte-by-byte skip on any text; and the
//! skip accepts only what serde_json accepts, ending where serde_json ends;
//! and UTF-8 validated over the index (ASCII runs told at once) is std's verdict.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../src/index.rs"]
#[allow(dead_code)]
mod index;

#[path = "../../src/utf8.rs"]
#[allow(dead_code)]
mod utf8;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = index::index_agrees(data) {
        panic!("{e}");
    }
    for run in data.chunks_exact(64) {
        let Ok(run) = <&[u8; 64]>::try_from(run) else { break };
        let want = index::Lexes::bytes(run);
        assert_eq!(index::Lexes::of(run), want);
        assert_eq!(index::Lexes::words(run), want);
    }
    // UTF-8 over the index (ASCII runs at once, the rest by std's check) is std's verdict.
    assert_eq!(utf8::utf8(data), std::str::from_utf8(data).map(|_| ()).map_err(|e| e.valid_up_to()));
    assert_eq!(utf8::as_text_indexed(data).ok(), std::str::from_utf8(data).ok());
    assert_eq!(utf8::into_text_indexed(data.to_vec()).ok().as_deref(), std::str::from_utf8(data).ok());
    for run in data.chunks_exact(64) {
        let Ok(run) = <&[u8; 64]>::try_from(run) else { break };
        let want = utf8::ascii_bytes(run);
        assert_eq!((utf8::ascii(run), utf8::ascii_words(run)), (want, want));
    }
    let start = index::blanks(data, 0);
    if matches!(data.get(start), Some(b'{' | b'[')) {
        assert_eq!(index::skip_indexed(data, start), index::skip_bytes(data), "{:?}", String::from_utf8_lossy(data));
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
