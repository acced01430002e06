//! UTF-8 validity the structural index's way ([`utf8`]): each 64-byte run
//! proven ASCII by one mask test ([`ascii`]: SSE2's four lanes ORed and one
//! movemask on x86-64, eight `u64` words ORed elsewhere, byte by byte as the
//! reference), only the stretches between ASCII runs given to std's check.
//! The reading thread's pieces ([`into_text`]) and an input read whole
//! ([`as_text`]) are validated here, once.
//!
//! The second audited `unsafe` module (with `oom.rs`): [`into_text_indexed`]
//! and [`as_text_indexed`] make text of bytes that [`utf8`] accepted without
//! std checking them again. Their invariant: [`utf8`] returns `Ok` only when
//! every byte is in a run [`ascii`] proved ASCII or in a stretch that
//! `std::str::from_utf8` accepted, each stretch bounded by ASCII bytes or the
//! text's ends. Held by proptest (any bytes; faults at every offset of a
//! text: std's verdict and `valid_up_to`) and the `index` fuzz target, which
//! compiles this file as it is. Builds with debug assertions (the tests')
//! check with std instead ([`into_text`] says why).

/// UTF-8 validity of `text` over the structural index's runs: each 64-byte run proven ASCII
/// at once ([`ascii`]: one mask test), and only the stretches between ASCII
/// runs validated, by std's own check (`core::str::from_utf8`). An ASCII
/// byte is a character boundary whatever surrounds it, so each stretch is
/// valid or not on its own, and the first invalid one holds the first fault.
/// `Err(n)`: the first `n` bytes are valid and no more, as std's
/// `valid_up_to` says (held equal to std's check on any bytes by proptest and
/// the `index` fuzz target). The reading thread calls it on each piece
/// (a character cut at a piece's end is held back for the next, its carry).
pub(crate) fn utf8(text: &[u8]) -> Result<(), usize> {
    let check = |from: usize, to: usize| match std::str::from_utf8(&text[from..to]) {
        Ok(_) => Ok(()),
        Err(e) => Err(from + e.valid_up_to()),
    };
    // Where the current stretch of runs holding non-ASCII bytes began.
    let mut stretch = None;
    let mut pos = 0;
    while let Some(run) = text.get(pos..pos + 64).and_then(|r| <&[u8; 64]>::try_from(r).ok()) {
        if ascii(run) {
            if let Some(from) = stretch.take() {
                check(from, pos)?;
            }
        } else if stretch.is_none() {
            stretch = Some(pos);
        }
        pos += 64;
    }
    // The last stretch with the tail (fewer than 64 bytes).
    check(stretch.unwrap_or(pos), text.len())
}

/// `bytes` as text, its UTF-8 checked once, by [`utf8`]; else the bytes back
/// with the length of their valid prefix.
///
/// Builds with debug assertions (`cargo build`, `cargo test`: the crate at
/// opt-level 1 or 0) check with std's `String::from_utf8` instead, the same
/// verdict ([`utf8`] is held to it by proptest and the `index` fuzz target):
/// std is precompiled and optimised, so there it costs 0.45 instructions a
/// byte where any loop compiled at opt-level 0 costs 13 to 40 (callgrind, a
/// 2 MB plan), and the integration tests run that build over inputs up to
/// 130 MB. Release builds take the index's way (0.28 a byte against std's 0.44).
pub(crate) fn into_text(bytes: Vec<u8>) -> Result<String, (Vec<u8>, usize)> {
    if cfg!(debug_assertions) {
        return String::from_utf8(bytes).map_err(|e| {
            let valid = e.utf8_error().valid_up_to();
            (e.into_bytes(), valid)
        });
    }
    into_text_indexed(bytes)
}

/// [`into_text`] the index's way, in every build (the tests' and fuzzing's).
#[allow(unsafe_code)]
pub(crate) fn into_text_indexed(bytes: Vec<u8>) -> Result<String, (Vec<u8>, usize)> {
    match utf8(&bytes) {
        Ok(()) => {
            // SAFETY: `utf8` accepted all of `bytes`: every 64-byte run it did not
            // hand to `std::str::from_utf8` is ASCII (a byte below 0x80 is a whole
            // character and a boundary), and every other byte was in a stretch
            // that std's check accepted, each stretch starting and ending on a
            // boundary. So `bytes` is UTF-8, which `String` requires.
            Ok(unsafe { String::from_utf8_unchecked(bytes) })
        }
        Err(valid) => Err((bytes, valid)),
    }
}

/// [`into_text`] on borrowed bytes: `Err` is the length of their valid prefix
/// (std's check in builds with debug assertions, as there).
pub(crate) fn as_text(bytes: &[u8]) -> Result<&str, usize> {
    if cfg!(debug_assertions) {
        return std::str::from_utf8(bytes).map_err(|e| e.valid_up_to());
    }
    as_text_indexed(bytes)
}

/// [`as_text`] the index's way, in every build (the tests' and fuzzing's).
#[allow(unsafe_code)]
pub(crate) fn as_text_indexed(bytes: &[u8]) -> Result<&str, usize> {
    utf8(bytes)?;
    // SAFETY: as in `into_text`: `utf8` accepted all of `bytes`.
    Ok(unsafe { std::str::from_utf8_unchecked(bytes) })
}

/// Whether a 64-byte run is all ASCII, the fastest way this machine has:
/// SSE2's four lanes ORed and one movemask of their high bits on x86-64,
/// the eight `u64` words ORed and one mask test elsewhere.
#[inline]
pub(crate) fn ascii(run: &[u8; 64]) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        ascii_sse2(run)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        ascii_words(run)
    }
}

/// [`ascii`] byte by byte: the reference.
#[allow(dead_code)] // the yardstick of the tests and of the `index` fuzz target
pub(crate) fn ascii_bytes(run: &[u8; 64]) -> bool {
    run.iter().all(|&b| b < 0x80)
}

/// [`ascii`] eight bytes at a time (any architecture).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))] // held to the others by tests and fuzzing
pub(crate) fn ascii_words(run: &[u8; 64]) -> bool {
    let mut any = 0u64;
    for word in run.chunks_exact(8) {
        any |= u64::from_le_bytes(word.try_into().unwrap_or_default());
    }
    any & 0x8080_8080_8080_8080 == 0
}

#[cfg(target_arch = "x86_64")]
fn ascii_sse2(run: &[u8; 64]) -> bool {
    use safe_arch::{bitor_m128i, load_unaligned_m128i, m128i, move_mask_i8_m128i};
    let mut any = m128i::default();
    for lane in run.chunks_exact(16) {
        // (Never fails; if it did, the run would go to std's check: safe either way.)
        let Ok(lane) = <&[u8; 16]>::try_from(lane) else { return false };
        any = bitor_m128i(any, load_unaligned_m128i(lane));
    }
    move_mask_i8_m128i(any) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes that make UTF-8 and break it: ASCII, every length of character,
    /// stray continuations, overlongs, surrogates, bytes never in UTF-8.
    const UTF8_PIECES: &[&[u8]] = &[
        b"a",
        b"{\"k\": ",
        b"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "é".as_bytes(),
        "€".as_bytes(),
        "😀".as_bytes(),
        b"\x80",
        b"\xbf",
        b"\xc3",
        b"\xe2\x82",
        b"\xf0\x9f\x98",
        b"\xc0\xaf",
        b"\xed\xa0\x80",
        b"\xf4\x90\x80\x80",
        b"\xff",
        b"\xfe",
    ];

    /// std's verdict on `t`, as [`utf8`] gives it.
    fn std_utf8(t: &[u8]) -> Result<(), usize> {
        std::str::from_utf8(t).map(|_| ()).map_err(|e| e.valid_up_to())
    }

    proptest::proptest! {
        #[test]
        fn every_way_of_telling_an_ascii_run_agrees(run in proptest::collection::vec(proptest::num::u8::ANY, 64), hi in 0usize..64) {
            let mut run: [u8; 64] = run.try_into().unwrap();
            let want = ascii_bytes(&run);
            proptest::prop_assert_eq!(ascii(&run), want);
            proptest::prop_assert_eq!(ascii_words(&run), want);
            // The same run with every byte ASCII but one.
            run.iter_mut().for_each(|b| *b &= 0x7f);
            run[hi] |= 0x80;
            proptest::prop_assert!(!ascii(&run) && !ascii_words(&run) && !ascii_bytes(&run));
            run[hi] &= 0x7f;
            proptest::prop_assert!(ascii(&run) && ascii_words(&run) && ascii_bytes(&run));
        }

        #[test]
        fn the_index_validates_utf8_as_std_does(
            pieces in proptest::collection::vec(proptest::sample::select(UTF8_PIECES), 0..120),
            pad in 0usize..70,
        ) {
            // Padding moves the faults across the 64-byte runs.
            let mut text = vec![b' '; pad];
            pieces.iter().for_each(|p| text.extend_from_slice(p));
            proptest::prop_assert_eq!(utf8(&text), std_utf8(&text));
            proptest::prop_assert_eq!(as_text_indexed(&text).map(str::len), std_utf8(&text).map(|()| text.len()));
            proptest::prop_assert_eq!(as_text(&text).map(str::len), std_utf8(&text).map(|()| text.len()));
            match into_text_indexed(text.clone()) {
                Ok(s) => proptest::prop_assert_eq!(s.as_bytes(), &text[..]),
                Err((back, n)) => proptest::prop_assert_eq!((back, Err(n)), (text.clone(), std_utf8(&text))),
            }
        }

        #[test]
        fn the_index_validates_any_bytes_as_std_does(text in proptest::collection::vec(proptest::num::u8::ANY, 0..300)) {
            proptest::prop_assert_eq!(utf8(&text), std_utf8(&text));
            proptest::prop_assert_eq!(as_text_indexed(&text).ok(), std::str::from_utf8(&text).ok());
        }
    }

    #[test]
    fn a_fault_at_each_place_of_a_long_text_is_found_where_std_finds_it() {
        let good = "{\"k\": \"é€😀\", \"plain\": \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"}".repeat(5);
        for at in 0..good.len() {
            for bad in [&b"\xff"[..], b"\x80", b"\xe2\x82", b"\xed\xa0\x80"] {
                let mut t = good.as_bytes().to_vec();
                t.splice(at..at, bad.iter().copied());
                assert_eq!(utf8(&t), std_utf8(&t), "{bad:?} at {at}");
                // Cut just after it: an incomplete character at the end too.
                let cut = &t[..(at + bad.len()).min(t.len())];
                assert_eq!(utf8(cut), std_utf8(cut), "{bad:?} at {at}, cut");
            }
        }
        assert_eq!(utf8(good.as_bytes()), Ok(()));
    }
}
