//! The framing walk over the structural index: strings skipped, brackets
//! counted, stopping where a document closes or first nests deeper than
//! [`MAX_DEPTH`] anywhere, including the parts queries skip or keep raw
//! (serde_json checks depth only where it builds values). The one framer
//! ([`crate::read::Splitter`]) runs it on the reading thread, in pieces of
//! any size, and over a slice read whole.

pub(crate) use crate::index::{is_json_ws, Text, MAX_DEPTH};
use crate::index::{Carry, Classes};

/// What [`Walk::run`] stopped at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Met {
    /// The end of the piece (the offset returned is its length).
    PieceEnd,
    /// The bracket that closes the document (the offset returned is just past it).
    Close,
    /// The first bracket nested deeper than [`MAX_DEPTH`] (the offset returned is the bracket's).
    TooDeep,
}

/// The one walk over a document's text, the framer's
/// ([`crate::read::Splitter`]): strings skipped, brackets counted, stopping
/// where the document closes or first nests too deep. Runs of 64 bytes
/// without a backslash are classified at once (SSE2 on x86-64), the rest
/// byte by byte; both give the same answer ([`tests`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Walk {
    pub(crate) text: Text,
    /// Open brackets (at least 1 inside a document).
    pub(crate) depth: usize,
}

impl Walk {
    /// Walk `piece` from `i` to the first of: the end of the piece, the
    /// bracket closing the document, or (unless `deep`: already reported)
    /// the first bracket past [`MAX_DEPTH`]. Returns where it stopped and why.
    pub(crate) fn run(&mut self, piece: &[u8], i: usize, deep: bool) -> (usize, Met) {
        self.run_with(piece, i, deep, true)
    }

    /// [`Walk::run`], with or without the 64-byte runs (tests compare both).
    fn run_with(&mut self, piece: &[u8], mut i: usize, deep: bool, blocks: bool) -> (usize, Met) {
        let n = piece.len();
        loop {
            if blocks {
                let (at, met) = self.blocks(piece, i, deep);
                if met != Met::PieceEnd {
                    return (at, met);
                }
                i = at;
            }
            if i >= n {
                return (n, Met::PieceEnd);
            }
            // Byte by byte up to the next run (or the end).
            let lim = if blocks { n.min(i + 64) } else { n };
            let (at, met) = self.bytes(&piece[..lim], i, deep);
            if met != Met::PieceEnd {
                return (at, met);
            }
            i = at;
        }
    }

    /// Byte by byte over all of `piece` from `i`.
    fn bytes(&mut self, piece: &[u8], mut i: usize, deep: bool) -> (usize, Met) {
        let n = piece.len();
        // Locals, written back: the hot loop touches no memory but the input.
        let mut depth = self.depth;
        let mut text = self.text;
        let stop = 'run: {
            if text == Text::Escape {
                if i >= n {
                    break 'run (n, Met::PieceEnd);
                }
                i += 1;
                text = Text::Str;
            }
            if text == Text::Str {
                i = string_end(piece, i);
                if i >= n {
                    // A backslash ending the piece escapes what comes next.
                    text = if i > n { Text::Escape } else { Text::Str };
                    break 'run (n, Met::PieceEnd);
                }
                i += 1; // the closing quote
                text = Text::Value;
            }
            while i < n {
                let b = piece[i];
                i += 1;
                match CLASS[usize::from(b)] {
                    PLAIN => {}
                    QUOTE => {
                        i = string_end(piece, i);
                        if i >= n {
                            text = if i > n { Text::Escape } else { Text::Str };
                            break 'run (n, Met::PieceEnd);
                        }
                        i += 1;
                    }
                    OPEN => {
                        depth += 1;
                        if depth > MAX_DEPTH && !deep {
                            break 'run (i - 1, Met::TooDeep);
                        }
                    }
                    _ => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            break 'run (i, Met::Close);
                        }
                    }
                }
            }
            (n, Met::PieceEnd)
        };
        self.depth = depth;
        self.text = text;
        stop
    }

    /// 64 bytes at a time from `i` over the structural index ([`Carry::block`]),
    /// while no run holds a backslash outside strings; stops (`PieceEnd`) at
    /// the first run that does, or fewer than 64 bytes before the end.
    fn blocks(&mut self, piece: &[u8], mut i: usize, deep: bool) -> (usize, Met) {
        let mut carry = Carry::of_text(self.text);
        let mut depth = self.depth;
        let mut stop = None;
        while let Some(run) = piece.get(i..i + 64).and_then(|r| <&[u8; 64]>::try_from(r).ok()) {
            let mut next = carry;
            let b = next.block(Classes::of(run));
            if b.classes.backslash & !b.inside != 0 {
                // A backslash outside strings (not JSON): byte by byte, as the parser will see it.
                break;
            }
            let (open, close) = (b.open, b.close);
            let (opens, closes) = match (open, close) {
                (0, 0) => (0, 0),
                _ => (open.count_ones() as usize, close.count_ones() as usize),
            };
            if depth > closes && (deep || depth + opens <= MAX_DEPTH) {
                // Neither the close nor the limit can be in this run.
                depth = depth + opens - closes;
            } else {
                let mut brackets = open | close;
                while brackets != 0 {
                    let at = brackets.trailing_zeros() as usize;
                    brackets &= brackets - 1;
                    if open >> at & 1 == 1 {
                        depth += 1;
                        if depth > MAX_DEPTH && !deep {
                            stop = Some((i + at, Met::TooDeep));
                            break;
                        }
                    } else {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            stop = Some((i + at + 1, Met::Close));
                            break;
                        }
                    }
                }
                if stop.is_some() {
                    break;
                }
            }
            carry = next;
            i += 64;
        }
        self.depth = depth;
        match stop {
            Some((at, met)) => {
                self.text = Text::Value;
                (at, met)
            }
            None => {
                self.text = match (carry.escape, carry.inside) {
                    (1, _) => Text::Escape,
                    (_, 0) => Text::Value,
                    _ => Text::Str,
                };
                (i, Met::PieceEnd)
            }
        }
    }
}

/// In a string from `i` on: the offset of its closing quote; `piece.len()` if
/// the piece ends first; `piece.len() + 1` if it ends on a backslash.
/// Sixteen bytes at a time in release builds on x86-64 (SSE2, part of its
/// baseline; `safe_arch` wraps the intrinsics), eight at a time in a `u64`
/// otherwise (and in builds with debug assertions, where the intrinsics are
/// calls, not inlined): both are held to a byte loop ([`tests`]).
pub(crate) fn string_end(piece: &[u8], i: usize) -> usize {
    #[cfg(all(target_arch = "x86_64", not(debug_assertions)))]
    {
        string_end_lanes(piece, i)
    }
    #[cfg(not(all(target_arch = "x86_64", not(debug_assertions))))]
    {
        string_end_words(piece, i)
    }
}

/// [`string_end`] sixteen bytes at a time (SSE2), the last few eight at a time.
#[cfg(target_arch = "x86_64")]
#[cfg_attr(debug_assertions, allow(dead_code))] // held to the byte loop by the tests
pub(crate) fn string_end_lanes(piece: &[u8], mut i: usize) -> usize {
    use safe_arch::{bitor_m128i, cmp_eq_mask_i8_m128i, load_unaligned_m128i, move_mask_i8_m128i, set_splat_i8_m128i};
    let n = piece.len();
    let (quote, backslash) = (set_splat_i8_m128i(i8::from_ne_bytes([b'"'])), set_splat_i8_m128i(i8::from_ne_bytes([b'\\'])));
    while i < n {
        let Some(lane) = piece.get(i..i + 16).and_then(|l| <&[u8; 16]>::try_from(l).ok()) else {
            return string_end_words(piece, i);
        };
        let v = load_unaligned_m128i(lane);
        let hits = move_mask_i8_m128i(bitor_m128i(cmp_eq_mask_i8_m128i(v, quote), cmp_eq_mask_i8_m128i(v, backslash)));
        if hits == 0 {
            i += 16;
            continue;
        }
        i += hits.trailing_zeros() as usize;
        match piece[i] {
            b'"' => return i,
            _ => i += 2, // a backslash and what it escapes
        }
    }
    i
}

/// [`string_end`] eight bytes at a time in a `u64`.
pub(crate) fn string_end_words(piece: &[u8], mut i: usize) -> usize {
    let n = piece.len();
    while i < n {
        // Eight bytes at a time while they hold no quote and no backslash.
        if let Some(word) = piece.get(i..i + 8) {
            let w = u64::from_le_bytes(word.try_into().unwrap_or_default());
            let hits = has_byte(w, b'"') | has_byte(w, b'\\');
            if hits == 0 {
                i += 8;
                continue;
            }
            // The lowest flagged byte is a real hit (false ones only follow a real one).
            i += (hits.trailing_zeros() / 8) as usize;
        }
        match piece[i] {
            b'"' => return i,
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    i
}

/// The high bit of each byte of `w` equal to `b` (and maybe of bytes after one that is).
#[inline]
fn has_byte(w: u64, b: u8) -> u64 {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let x = w ^ (LO * u64::from(b));
    x.wrapping_sub(LO) & !x & HI
}

pub(crate) const PLAIN: u8 = 0;
pub(crate) const QUOTE: u8 = 1;
pub(crate) const OPEN: u8 = 2;
pub(crate) const CLOSE: u8 = 3;

/// What each byte is to the scanner outside strings.
pub(crate) static CLASS: [u8; 256] = {
    let mut t = [PLAIN; 256];
    t[b'"' as usize] = QUOTE;
    t[b'[' as usize] = OPEN;
    t[b'{' as usize] = OPEN;
    t[b']' as usize] = CLOSE;
    t[b'}' as usize] = CLOSE;
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn string_end_finds_what_a_byte_loop_finds(
            text in proptest::collection::vec(proptest::sample::select(b"xxxxxxxxxxxxxxy\"\\".to_vec()), 0..200),
            from in 0usize..20,
        ) {
            let from = from.min(text.len());
            let mut i = from;
            let want = loop {
                match text.get(i) {
                    None => break i,
                    Some(b'"') => break i,
                    Some(b'\\') => i += 2,
                    Some(_) => i += 1,
                }
            };
            proptest::prop_assert_eq!(string_end(&text, from), want);
            proptest::prop_assert_eq!(string_end_words(&text, from), want);
            #[cfg(target_arch = "x86_64")]
            proptest::prop_assert_eq!(string_end_lanes(&text, from), want);
        }
    }

    /// Every stop of a walk over `text` fed in pieces of `piece` bytes:
    /// (offset, what), with the 64-byte runs or byte by byte.
    fn stops(text: &[u8], piece: usize, blocks: bool) -> Vec<(usize, Met, usize)> {
        let mut walk = Walk { text: Text::Value, depth: 1 };
        let (mut out, mut deep) = (Vec::new(), false);
        for (p, chunk) in text.chunks(piece).enumerate() {
            let mut i = 0;
            loop {
                let (at, met) = walk.run_with(chunk, i, deep, blocks);
                if met == Met::PieceEnd {
                    break;
                }
                out.push((p * piece + at, met, walk.depth));
                if met == Met::Close {
                    walk.depth = 1; // the next document
                } else {
                    deep = true;
                }
                i = if met == Met::Close { at } else { at + 1 };
            }
        }
        out.push((text.len(), Met::PieceEnd, walk.depth));
        out
    }

    #[test]
    fn runs_of_64_bytes_stop_where_byte_by_byte_stops() {
        // Texts of quotes, backslashes, brackets of both kinds and plain bytes,
        // long enough for many runs; nested past the limit now and then.
        let (alphabet, slashed) = (&b"\"\"{}[]{}[]aaaaaa:, "[..], &b"\"\\{}[]a:, "[..]);
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for case in 0..400 {
            let len = 64 + (next() % 900) as usize;
            let letters = if case % 3 == 0 { slashed } else { alphabet };
            let mut text: Vec<u8> = (0..len).map(|_| letters[(next() % letters.len() as u64) as usize]).collect();
            if case % 5 == 0 {
                // A deep run of brackets somewhere, and runs without backslashes.
                let at = (next() % len as u64) as usize;
                let deep: Vec<u8> = (0..MAX_DEPTH + 3).map(|k| if k % 2 == 0 { b'[' } else { b'{' }).collect();
                text.splice(at..at, deep);
            }
            if case % 2 == 1 {
                // JSON-like: backslashes only in strings, where runs of them
                // escape quotes and brackets across the 64-byte runs.
                text.clear();
                while text.len() < len {
                    match next() % 6 {
                        0 => text.extend_from_slice(b"{["),
                        1 => text.extend_from_slice(b"]}"),
                        2 => text.extend_from_slice(b":1,"),
                        _ => {
                            text.push(b'"');
                            for _ in 0..next() % 40 {
                                let run = (next() % 4) as usize;
                                text.extend(std::iter::repeat_n(b'\\', run));
                                text.push(b"a\"[{]}"[(next() % 6) as usize]);
                            }
                            if text.last() == Some(&b'\\') {
                                text.push(b'a');
                            }
                            text.push(b'"');
                        }
                    }
                }
            }
            assert_eq!(crate::index::index_agrees(&text), Ok(()), "case {case}");
            for piece in [1, 7, 63, 64, 65, 128, 200, text.len()] {
                assert_eq!(stops(&text, piece, true), stops(&text, piece, false), "case {case}, pieces of {piece}");
            }
        }
    }

    #[test]
    fn a_plan_is_walked_to_its_end_in_runs() {
        let plan = std::fs::read("testdata/real/sensitive/plan.json").unwrap();
        let start = plan.iter().position(|&b| b == b'{').unwrap();
        let mut walk = Walk { text: Text::Value, depth: 1 };
        let (at, met) = walk.run(&plan, start + 1, false);
        assert_eq!((met, plan[at - 1]), (Met::Close, b'}'));
        assert!(plan[at..].iter().all(|&b| is_json_ws(b)));
    }
}
