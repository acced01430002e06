//! The structural index of JSON text: each 64-byte run classified at once
//! (quotes, backslashes, brackets: [`Classes`]), strings found by the
//! prefix-xor carry trick ([`Carry::block`]: the in-string mask and the
//! brackets outside strings), and [`skip`], which steps over one whole value
//! as serde_json's `IgnoredAny` would, without building it: a container over
//! the index ([`skip_indexed`]: runs lexed at once by [`Lexes`], only the
//! tokens looked at), as strictly as the byte-by-byte [`skip_bytes`]. The framing walk
//! ([`crate::scan::Walk`]: depth, document ends) and the streaming walker's
//! skips (`read::walk`) are built on it.
//!
//! SSE2 classifies a run on x86-64 (part of its baseline, so no detection is
//! needed; `safe_arch` wraps the intrinsics, so there is no `unsafe` here),
//! `u64` words elsewhere; a byte-by-byte reference checks both (proptest here,
//! and the `index` fuzz target, which compiles this file as it is). UTF-8 is
//! validated the same way, run by run, in [`crate::utf8`].

/// JSON's whitespace (RFC 8259): space, tab, newline, carriage return. Not
/// form feed or vertical tab, which `u8::is_ascii_whitespace` counts.
pub(crate) fn is_json_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// How many of `bytes`' first bytes are JSON's whitespace. A plain loop: the
/// test profile builds the crate at opt-level 0, where an iterator adaptor
/// costs a few calls a byte (the 64 MB blank inputs of the error-contract
/// tests are read through here).
pub(crate) fn json_ws_len(bytes: &[u8]) -> usize {
    let mut n = 0;
    while n < bytes.len() {
        match bytes[n] {
            b' ' | b'\t' | b'\n' | b'\r' => n += 1,
            _ => break,
        }
    }
    n
}

/// Deepest nesting of arrays and objects planview reads. serde_json refuses
/// more than 127 levels when it builds values; with this limit checked over
/// the whole text, every value planview parses later (on demand) parses.
pub(crate) const MAX_DEPTH: usize = 127;
/// Where a scan of document text stands between two bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Text {
    /// Outside strings.
    Value,
    /// Inside a string.
    Str,
    /// Just after a backslash in a string.
    Escape,
}

/// Bit `k` set where byte `k` of a 64-byte run is a quote, a backslash, an
/// opening or a closing bracket: the structural index of one run. Three ways
/// give the same bits ([`tests`], and the `index` fuzz target): SSE2 on
/// x86-64 (part of its baseline: no detection needed, and `safe_arch` wraps
/// the intrinsics, so no `unsafe` here), eight bytes at a time in a `u64`
/// elsewhere, and byte by byte (the reference).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Classes {
    pub(crate) quote: u64,
    pub(crate) backslash: u64,
    pub(crate) open: u64,
    pub(crate) close: u64,
}

impl Classes {
    /// The classes of `run`, the fastest way this machine has.
    #[inline]
    pub(crate) fn of(run: &[u8; 64]) -> Classes {
        #[cfg(target_arch = "x86_64")]
        {
            Classes::sse2(run)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Classes::words(run)
        }
    }

    /// Byte by byte: the reference the others are held to.
    #[allow(dead_code)] // the yardstick of the tests and of the `index` fuzz target
    pub(crate) fn bytes(run: &[u8; 64]) -> Classes {
        let mut m = Classes::default();
        for (k, &b) in run.iter().enumerate() {
            let bit = 1u64 << k;
            match b {
                b'"' => m.quote |= bit,
                b'\\' => m.backslash |= bit,
                b'[' | b'{' => m.open |= bit,
                b']' | b'}' => m.close |= bit,
                _ => {}
            }
        }
        m
    }

    /// Eight bytes at a time in a `u64` (any architecture).
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))] // held to the others by tests and fuzzing
    pub(crate) fn words(run: &[u8; 64]) -> Classes {
        let mut m = Classes::default();
        for (k, word) in run.chunks_exact(8).enumerate() {
            let w = u64::from_le_bytes(word.try_into().unwrap_or_default());
            // `[` | 0x20 is `{` and `]` | 0x20 is `}`: one comparison for both kinds.
            let folded = w | 0x2020_2020_2020_2020;
            let shift = 8 * k;
            m.quote |= gather(equal(w, b'"')) << shift;
            m.backslash |= gather(equal(w, b'\\')) << shift;
            m.open |= gather(equal(folded, b'{')) << shift;
            m.close |= gather(equal(folded, b'}')) << shift;
        }
        m
    }

    #[cfg(target_arch = "x86_64")]
    fn sse2(run: &[u8; 64]) -> Classes {
        use safe_arch::{bitor_m128i, cmp_eq_mask_i8_m128i, load_unaligned_m128i, m128i, move_mask_i8_m128i, set_splat_i8_m128i};
        let splat = |b: u8| set_splat_i8_m128i(i8::from_ne_bytes([b]));
        let (quote, backslash, open, close, case) = (splat(b'"'), splat(b'\\'), splat(b'{'), splat(b'}'), splat(0x20));
        let bits = |v: m128i, c: m128i, k: usize| u64::from(move_mask_i8_m128i(cmp_eq_mask_i8_m128i(v, c)) as u16) << (16 * k);
        let mut m = Classes::default();
        for (k, lane) in run.chunks_exact(16).enumerate() {
            let Ok(lane) = <&[u8; 16]>::try_from(lane) else { continue };
            let v = load_unaligned_m128i(lane);
            let folded = bitor_m128i(v, case);
            m.quote |= bits(v, quote, k);
            m.backslash |= bits(v, backslash, k);
            m.open |= bits(folded, open, k);
            m.close |= bits(folded, close, k);
        }
        m
    }
}

/// The high bit of exactly the bytes of `w` equal to `b`.
#[inline]
fn equal(w: u64, b: u8) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let x = w ^ (0x0101_0101_0101_0101 * u64::from(b));
    // A byte is zero when neither its low seven bits carry into the high one nor it is set.
    !(((x & LOW7).wrapping_add(LOW7)) | x | LOW7)
}

#[cfg_attr(target_arch = "x86_64", allow(dead_code))] // used by `Classes::words`
/// The high bits of the eight bytes of `hi` (each 0x80 or 0) as eight bits, byte `k` to bit `k`.
#[inline]
fn gather(hi: u64) -> u64 {
    ((hi >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// Where a scan of text stands at the start of a 64-byte run, and what the
/// run holds once the quotes and escapes before it are known: the in-string
/// mask by the prefix-xor carry trick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Carry {
    /// All ones when the run starts inside a string.
    pub(crate) inside: u64,
    /// 1 when the run's first byte is escaped by a backslash before it.
    pub(crate) escape: u64,
}

/// One run's index: its classes, the bytes inside strings (opening quotes
/// included, closing ones not), and the brackets outside strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Block {
    pub(crate) classes: Classes,
    pub(crate) inside: u64,
    pub(crate) open: u64,
    pub(crate) close: u64,
}

impl Carry {
    /// Index the next run and move past it.
    #[inline]
    pub(crate) fn block(&mut self, m: Classes) -> Block {
        let (escaped, escape_after) = if m.backslash | self.escape == 0 { (0, 0) } else { escaped(m.backslash, self.escape) };
        let inside = prefix_xor(m.quote & !escaped) ^ self.inside;
        self.inside = if inside >> 63 == 1 { !0 } else { 0 };
        self.escape = escape_after;
        Block { classes: m, inside, open: m.open & !inside, close: m.close & !inside }
    }
}

/// [`Carry::block`] byte by byte, as a parser sees the run: escapes only
/// inside strings. `text` is where the scan stands before the run, and after.
#[allow(dead_code)] // the yardstick of the tests and of the `index` fuzz target
pub(crate) fn block_bytes(text: &mut Text, run: &[u8; 64]) -> Block {
    let (mut inside, mut open, mut close) = (0u64, 0u64, 0u64);
    for (k, &b) in run.iter().enumerate() {
        let bit = 1u64 << k;
        match *text {
            Text::Escape => {
                inside |= bit;
                *text = Text::Str;
            }
            Text::Str => match b {
                b'"' => *text = Text::Value,
                b'\\' => {
                    inside |= bit;
                    *text = Text::Escape;
                }
                _ => inside |= bit,
            },
            Text::Value => match b {
                b'"' => {
                    inside |= bit;
                    *text = Text::Str;
                }
                b'[' | b'{' => open |= bit,
                b']' | b'}' => close |= bit,
                _ => {}
            },
        }
    }
    Block { classes: Classes::bytes(run), inside, open, close }
}

impl Carry {
    /// Where a byte-by-byte scan stands, as a carry.
    pub(crate) fn of_text(text: Text) -> Carry {
        Carry { inside: if text == Text::Value { 0 } else { !0 }, escape: u64::from(text == Text::Escape) }
    }
}

/// The index of `text` run by run, against [`block_bytes`]: `Err` names the
/// first run where they differ. Compared up to the first run holding a
/// backslash outside strings (not JSON: the walk goes byte by byte there).
#[allow(dead_code)] // the tests' and the `index` fuzz target's
pub(crate) fn index_agrees(text: &[u8]) -> Result<(), String> {
    let (mut carry, mut state) = (Carry::default(), Text::Value);
    for (k, run) in text.chunks_exact(64).enumerate() {
        let Ok(run) = <&[u8; 64]>::try_from(run) else { break };
        let (of, words, bytes) = (Classes::of(run), Classes::words(run), Classes::bytes(run));
        if of != bytes || words != bytes {
            return Err(format!("run {k}: classes {of:?} / {words:?}, byte by byte {bytes:?}"));
        }
        let fast = carry.block(of);
        if fast.classes.backslash & !fast.inside != 0 {
            return Ok(());
        }
        let slow = block_bytes(&mut state, run);
        if fast != slow || carry != Carry::of_text(state) {
            return Err(format!("run {k}: index {fast:?} {carry:?}, byte by byte {slow:?} {state:?}"));
        }
    }
    Ok(())
}

/// The bytes of a 64-byte run escaped by a backslash, given its backslashes
/// and whether its first byte is escaped (1 or 0); and whether the next run's
/// first byte is. A byte is escaped when an odd run of backslashes precedes it.
fn escaped(backslash: u64, escape_before: u64) -> (u64, u64) {
    const EVEN: u64 = 0x5555_5555_5555_5555;
    // An escaped backslash escapes nothing.
    let escapers = backslash & !escape_before;
    let starts = escapers & !(escapers << 1);
    // Adding a run's start carries past its end: the byte after the run.
    // A run that starts on an even bit and ends before an odd one is odd, and
    // the other way round.
    let after_even = escapers.wrapping_add(starts & EVEN) & !escapers & !EVEN;
    let (sum, carry) = escapers.overflowing_add(starts & !EVEN);
    let after_odd = sum & !escapers & EVEN;
    (after_even | after_odd | escape_before, u64::from(carry))
}

/// Bit `k` of the result: the parity of the bits `0..=k` of `x`.
fn prefix_xor(mut x: u64) -> u64 {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    x
}

/// What [`skip`] found at the start of a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Skip {
    /// One whole, valid JSON value ends just before this offset (blanks before it skipped).
    End(usize),
    /// The text ends before the value can be known whole (more may follow).
    Incomplete,
    /// Not what serde_json reads without complaint, or not sure: the caller
    /// asks serde_json, which says exactly what is wrong and where.
    Refused,
}

/// Skip one JSON value at the start of `t` (after blanks) without building
/// it: what serde_json's `IgnoredAny` accepts, and no more. An object or an
/// array is skipped over the index ([`skip_indexed`], 64 bytes at a time);
/// a string or a scalar byte by byte ([`skip_bytes`]). Both give the same
/// answer on any text (proptest and the `index` fuzz target), and accept
/// only what serde_json accepts, ending where it ends; anything refused (and
/// containers nested deeper than [`MAX_DEPTH`]) is left to serde_json,
/// whose message names the fault. `t` is valid UTF-8 (checked once by the
/// reading thread), so only ASCII is looked at.
pub(crate) fn skip(t: &[u8]) -> Skip {
    let start = blanks(t, 0);
    match t.get(start) {
        Some(b'{' | b'[') => skip_indexed(t, start),
        _ => skip_bytes(t),
    }
}

/// [`skip`] one byte at a time (strings eight at a time): the reference
/// [`skip_indexed`] is held to, and the skip of strings and scalars.
pub(crate) fn skip_bytes(t: &[u8]) -> Skip {
    let n = t.len();
    let mut i = 0;
    // One bit per open container, 1 for an object; `depth` of them.
    let mut stack: u128 = 0;
    let mut depth = 0usize;
    macro_rules! need {
        ($cond:expr) => {
            if !$cond {
                return if i >= n { Skip::Incomplete } else { Skip::Refused };
            }
        };
    }
    // An object's key, its colon, and the blanks up to its value; `i` on the key's quote.
    macro_rules! key {
        () => {
            need!(i < n && t[i] == b'"');
            i = match string(t, i + 1) {
                Ok(e) => e,
                Err(s) => return s,
            };
            i = blanks(t, i);
            need!(i < n && t[i] == b':');
            i += 1;
        };
    }
    let start = blanks(t, 0);
    'value: loop {
        i = blanks(t, i);
        need!(i < n);
        match t[i] {
            c @ (b'{' | b'[') => {
                if depth == MAX_DEPTH {
                    return Skip::Refused;
                }
                stack = stack << 1 | u128::from(c == b'{');
                depth += 1;
                i = blanks(t, i + 1);
                need!(i < n);
                if t[i] == c + 2 {
                    // `{}` or `[]`: closed below.
                } else {
                    if c == b'{' {
                        key!();
                    }
                    continue 'value;
                }
            }
            b'"' => {
                i = match string(t, i + 1) {
                    Ok(e) => e,
                    Err(s) => return s,
                };
            }
            b't' => {
                i = match literal(t, i, b"true") {
                    Ok(e) => e,
                    Err(s) => return s,
                }
            }
            b'f' => {
                i = match literal(t, i, b"false") {
                    Ok(e) => e,
                    Err(s) => return s,
                }
            }
            b'n' => {
                i = match literal(t, i, b"null") {
                    Ok(e) => e,
                    Err(s) => return s,
                }
            }
            b'-' | b'0'..=b'9' => {
                i = match number(t, i) {
                    Ok(e) => e,
                    Err(s) => return s,
                };
            }
            _ => return Skip::Refused,
        }
        if depth == 0 && !matches!(t.get(start), Some(b'"' | b'{' | b'[')) {
            // A bare number or literal: serde_json's stream reads on to see it
            // end (more digits may follow), and wants a delimiter after it.
            return match t.get(i) {
                None => Skip::Incomplete,
                Some(b' ' | b'\n' | b'\t' | b'\r' | b'"' | b'[' | b']' | b'{' | b'}' | b',' | b':') => Skip::End(i),
                Some(_) => Skip::Refused,
            };
        }
        // After a value (or on the closing bracket of an empty container).
        loop {
            if depth == 0 {
                return Skip::End(i);
            }
            i = blanks(t, i);
            need!(i < n);
            let object = stack & 1 == 1;
            match t[i] {
                b',' => {
                    i = blanks(t, i + 1);
                    if object {
                        key!();
                    }
                    continue 'value;
                }
                b'}' if object => {}
                b']' if !object => {}
                _ => return Skip::Refused,
            }
            i += 1;
            stack >>= 1;
            depth -= 1;
        }
    }
}

/// What [`skip_indexed`] needs of a 64-byte run beyond [`Classes`]: commas
/// and colons, blanks, and control characters (below 0x20, blanks
/// included), with the quotes, backslashes and brackets. Three ways give the
/// same bits, as for [`Classes`]: SSE2 on x86-64, `u64` words, byte by byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Lexes {
    pub(crate) classes: Classes,
    /// `,` and `:`.
    pub(crate) punct: u64,
    /// JSON's blanks: space, tab, newline, carriage return.
    pub(crate) blank: u64,
    /// Bytes below 0x20.
    pub(crate) control: u64,
}

impl Lexes {
    /// The lexes of `run`, the fastest way this machine has.
    #[inline]
    pub(crate) fn of(run: &[u8; 64]) -> Lexes {
        #[cfg(target_arch = "x86_64")]
        {
            Lexes::sse2(run)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            Lexes::words(run)
        }
    }

    /// Byte by byte: the reference.
    #[allow(dead_code)] // the yardstick of the tests and of the `index` fuzz target
    pub(crate) fn bytes(run: &[u8; 64]) -> Lexes {
        let mut m = Lexes { classes: Classes::bytes(run), ..Lexes::default() };
        for (k, &b) in run.iter().enumerate() {
            let bit = 1u64 << k;
            if matches!(b, b',' | b':') {
                m.punct |= bit;
            }
            if is_json_ws(b) {
                m.blank |= bit;
            }
            if b < 0x20 {
                m.control |= bit;
            }
        }
        m
    }

    /// Eight bytes at a time in a `u64` (any architecture).
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))] // held to the others by tests and fuzzing
    pub(crate) fn words(run: &[u8; 64]) -> Lexes {
        let mut m = Lexes { classes: Classes::words(run), ..Lexes::default() };
        for (k, word) in run.chunks_exact(8).enumerate() {
            let w = u64::from_le_bytes(word.try_into().unwrap_or_default());
            let shift = 8 * k;
            m.punct |= gather(equal(w, b',') | equal(w, b':')) << shift;
            m.blank |= gather(equal(w, b' ') | equal(w, b'\t') | equal(w, b'\n') | equal(w, b'\r')) << shift;
            m.control |= gather(equal(w & 0xe0e0_e0e0_e0e0_e0e0, 0)) << shift;
        }
        m
    }

    #[cfg(target_arch = "x86_64")]
    fn sse2(run: &[u8; 64]) -> Lexes {
        use safe_arch::{
            bitand_m128i, bitor_m128i, cmp_eq_mask_i8_m128i, load_unaligned_m128i, m128i, move_mask_i8_m128i, set_splat_i8_m128i,
        };
        let splat = |b: u8| set_splat_i8_m128i(i8::from_ne_bytes([b]));
        let (quote, backslash, open, close, case) = (splat(b'"'), splat(b'\\'), splat(b'{'), splat(b'}'), splat(0x20));
        let (comma, colon, space, tab, nl, cr, high, zero) =
            (splat(b','), splat(b':'), splat(b' '), splat(b'\t'), splat(b'\n'), splat(b'\r'), splat(0xe0), splat(0));
        let eq = cmp_eq_mask_i8_m128i;
        let bits = |v: m128i, k: usize| u64::from(move_mask_i8_m128i(v) as u16) << (16 * k);
        let mut m = Lexes::default();
        for (k, lane) in run.chunks_exact(16).enumerate() {
            let Ok(lane) = <&[u8; 16]>::try_from(lane) else { continue };
            let v = load_unaligned_m128i(lane);
            let folded = bitor_m128i(v, case);
            m.classes.quote |= bits(eq(v, quote), k);
            m.classes.backslash |= bits(eq(v, backslash), k);
            m.classes.open |= bits(eq(folded, open), k);
            m.classes.close |= bits(eq(folded, close), k);
            m.punct |= bits(bitor_m128i(eq(v, comma), eq(v, colon)), k);
            m.blank |= bits(bitor_m128i(bitor_m128i(eq(v, space), eq(v, tab)), bitor_m128i(eq(v, nl), eq(v, cr))), k);
            m.control |= bits(eq(bitand_m128i(v, high), zero), k);
        }
        m
    }
}

/// What [`skip_indexed`] expects next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    /// A value.
    Value,
    /// A value, or the `]` of an empty array.
    ValueOrClose,
    /// A key, or the `}` of an empty object.
    KeyOrClose,
    /// A key (after a `,` in an object).
    Key,
    /// The `:` after a key.
    Colon,
    /// A `,` or the closing bracket, after a value.
    After,
}

/// [`skip_bytes`] for an object or an array at `t[start]`, over the index:
/// each 64-byte run classified at once ([`Lexes`]), its strings found by the
/// carry trick, and only its *tokens* looked at, in order: brackets, commas
/// and colons outside strings, the opening quote of each string, the first
/// byte of each number or literal (checked as [`skip_bytes`] checks it),
/// each escape in a string (checked where its backslash stands) and each
/// control character in a string (refused). A grammar of six states ([`Want`])
/// and a stack of one bit per open container check the tokens' order. The
/// bytes of strings are never looked at one by one; the answer is
/// [`skip_bytes`]'s on any text, errors and incomplete text included, because
/// the tokens are checked in the order that skip meets them.
pub(crate) fn skip_indexed(t: &[u8], start: usize) -> Skip {
    let n = t.len();
    let mut carry = Carry::default();
    // Whether the byte before the run is part of a number or literal.
    let mut prev_other = 0u64;
    let mut stack: u128 = 0;
    let mut depth = 0usize;
    let mut want = Want::Value;
    // Just past the last escape checked: a backslash before this is part of it.
    let mut escape_end = 0;
    let mut pos = start;
    let mut padded = [b' '; 64];
    while pos < n {
        let run: &[u8; 64] = match t.get(pos..pos + 64).and_then(|r| <&[u8; 64]>::try_from(r).ok()) {
            Some(r) => r,
            None => {
                // The last run (met once), padded with blanks (which hold no token).
                padded[..n - pos].copy_from_slice(&t[pos..]);
                &padded
            }
        };
        let l = Lexes::of(run);
        let c = l.classes;
        let (escaped, escape_after) = if c.backslash | carry.escape == 0 { (0, 0) } else { escaped(c.backslash, carry.escape) };
        let quotes = c.quote & !escaped;
        // Inside strings: opening quotes included, closing ones not.
        let inside = prefix_xor(quotes) ^ carry.inside;
        carry = Carry { inside: if inside >> 63 == 1 { !0 } else { 0 }, escape: escape_after };
        let outside = !inside & !quotes;
        let other = outside & !(l.blank | l.punct | c.open | c.close | c.backslash);
        let scalar = other & !(other << 1 | prev_other);
        prev_other = other >> 63;
        let mut tokens = (quotes & inside)
            | (c.backslash & inside)
            | (l.control & inside)
            | (outside & (l.punct | c.open | c.close | c.backslash))
            | scalar;
        while tokens != 0 {
            let k = tokens.trailing_zeros() as usize;
            tokens &= tokens - 1;
            let p = pos + k;
            let b = t[p];
            if inside >> k & 1 == 1 {
                match b {
                    b'"' => {
                        want = match want {
                            Want::Value | Want::ValueOrClose => Want::After,
                            Want::KeyOrClose | Want::Key => Want::Colon,
                            Want::Colon | Want::After => return Skip::Refused,
                        }
                    }
                    // A backslash that an escape before it holds is no escape of its own.
                    b'\\' if p < escape_end => {}
                    b'\\' => match escape(t, p) {
                        Ok(end) => escape_end = end,
                        Err(s) => return s,
                    },
                    // A control character in a string.
                    _ => return Skip::Refused,
                }
                continue;
            }
            match b {
                b'{' | b'[' => {
                    if !matches!(want, Want::Value | Want::ValueOrClose) || depth == MAX_DEPTH {
                        return Skip::Refused;
                    }
                    stack = stack << 1 | u128::from(b == b'{');
                    depth += 1;
                    want = if b == b'{' { Want::KeyOrClose } else { Want::ValueOrClose };
                }
                b'}' | b']' => {
                    let object = stack & 1 == 1;
                    let fits = match want {
                        Want::After => object == (b == b'}'),
                        Want::KeyOrClose => b == b'}',
                        Want::ValueOrClose => b == b']',
                        _ => false,
                    };
                    if !fits {
                        return Skip::Refused;
                    }
                    stack >>= 1;
                    depth -= 1;
                    if depth == 0 {
                        return Skip::End(p + 1);
                    }
                    want = Want::After;
                }
                b',' => {
                    if want != Want::After {
                        return Skip::Refused;
                    }
                    want = if stack & 1 == 1 { Want::Key } else { Want::Value };
                }
                b':' => {
                    if want != Want::Colon {
                        return Skip::Refused;
                    }
                    want = Want::Value;
                }
                _ => {
                    // A number or a literal (or a byte that starts neither).
                    if !matches!(want, Want::Value | Want::ValueOrClose) {
                        return Skip::Refused;
                    }
                    let end = match b {
                        b't' => literal(t, p, b"true"),
                        b'f' => literal(t, p, b"false"),
                        b'n' => literal(t, p, b"null"),
                        b'-' | b'0'..=b'9' => number(t, p),
                        _ => Err(Skip::Refused),
                    };
                    match end {
                        Err(s) => return s,
                        Ok(e) if e >= n => return Skip::Incomplete,
                        // It must end where its run of such bytes ends.
                        Ok(e) if !matches!(t[e], b' ' | b'\n' | b'\t' | b'\r' | b'"' | b'[' | b']' | b'{' | b'}' | b',' | b':') => {
                            return Skip::Refused
                        }
                        Ok(_) => want = Want::After,
                    }
                }
            }
        }
        pos += 64;
    }
    Skip::Incomplete
}

/// The escape whose backslash is at `t[p]` (in a string), as serde_json
/// checks it: just past it.
#[inline]
fn escape(t: &[u8], p: usize) -> Result<usize, Skip> {
    match t.get(p + 1) {
        None => Err(Skip::Incomplete),
        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(p + 2),
        Some(b'u') => {
            for k in p + 2..p + 6 {
                match t.get(k) {
                    None => return Err(Skip::Incomplete),
                    Some(h) if h.is_ascii_hexdigit() => {}
                    Some(_) => return Err(Skip::Refused),
                }
            }
            Ok(p + 6)
        }
        Some(_) => Err(Skip::Refused),
    }
}

/// Past JSON's blanks from `i`.
#[inline]
pub(crate) fn blanks(t: &[u8], mut i: usize) -> usize {
    while i < t.len() && is_json_ws(t[i]) {
        i += 1;
    }
    i
}

/// A string's text from `i` (just past its opening quote): just past its
/// closing quote. Control characters and bad escapes are refused.
#[inline]
fn string(t: &[u8], mut i: usize) -> Result<usize, Skip> {
    let n = t.len();
    loop {
        // Eight bytes at a time while they hold no quote, backslash or control character.
        while let Some(word) = t.get(i..i + 8) {
            let w = u64::from_le_bytes(word.try_into().unwrap_or_default());
            let hits = equal(w, b'"') | equal(w, b'\\') | equal(w & 0xe0e0_e0e0_e0e0_e0e0, 0);
            if hits != 0 {
                i += (hits.trailing_zeros() / 8) as usize;
                break;
            }
            i += 8;
        }
        let Some(&b) = t.get(i) else { return Err(Skip::Incomplete) };
        match b {
            b'"' => return Ok(i + 1),
            b'\\' => {
                let Some(&e) = t.get(i + 1) else { return Err(Skip::Incomplete) };
                match e {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
                    b'u' => {
                        for k in i + 2..i + 6 {
                            match t.get(k) {
                                None => return Err(Skip::Incomplete),
                                Some(h) if h.is_ascii_hexdigit() => {}
                                Some(_) => return Err(Skip::Refused),
                            }
                        }
                        i += 6;
                    }
                    _ => return Err(Skip::Refused),
                }
            }
            0..=0x1f => return Err(Skip::Refused),
            _ => i += 1,
        }
        if i >= n {
            return Err(Skip::Incomplete);
        }
    }
}

/// `true`, `false` or `null` at `i`: just past it.
#[inline]
fn literal(t: &[u8], i: usize, word: &[u8]) -> Result<usize, Skip> {
    let have = &t[i..t.len().min(i + word.len())];
    if have != &word[..have.len()] {
        return Err(Skip::Refused);
    }
    if have.len() < word.len() {
        return Err(Skip::Incomplete);
    }
    Ok(i + word.len())
}

/// A number at `i` (serde_json's grammar): just past it.
#[inline]
fn number(t: &[u8], mut i: usize) -> Result<usize, Skip> {
    let n = t.len();
    let digits = |mut i: usize| {
        while i < n && t[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    let at = |i: usize| t.get(i).copied();
    if at(i) == Some(b'-') {
        i += 1;
    }
    match at(i) {
        None => return Err(Skip::Incomplete),
        Some(b'0') => {
            i += 1;
            if at(i).is_some_and(|b| b.is_ascii_digit()) {
                return Err(Skip::Refused);
            }
        }
        Some(b'1'..=b'9') => i = digits(i + 1),
        Some(_) => return Err(Skip::Refused),
    }
    if at(i) == Some(b'.') {
        let from = i + 1;
        i = digits(from);
        if i == from {
            return Err(if i >= n { Skip::Incomplete } else { Skip::Refused });
        }
    }
    if matches!(at(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(at(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let from = i;
        i = digits(from);
        if i == from {
            return Err(if i >= n { Skip::Incomplete } else { Skip::Refused });
        }
    }
    Ok(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_ws_len_counts_json_whitespace_only() {
        assert_eq!(json_ws_len(b""), 0);
        assert_eq!(json_ws_len(b" \t\r\n x "), 5);
        assert_eq!(json_ws_len(b"\x0c "), 0, "form feed is not JSON whitespace");
        assert_eq!(json_ws_len(b"\n\n\n"), 3);
        for b in 0..=255u8 {
            assert_eq!(json_ws_len(&[b, b'x']), usize::from(is_json_ws(b)), "{b}");
        }
    }

    proptest::proptest! {
        #[test]
        fn every_way_of_classifying_a_run_gives_the_same_bits(run in proptest::collection::vec(proptest::num::u8::ANY, 64)) {
            let run: [u8; 64] = run.try_into().unwrap();
            let want = Classes::bytes(&run);
            proptest::prop_assert_eq!(Classes::of(&run), want);
            proptest::prop_assert_eq!(Classes::words(&run), want);
        }

        #[test]
        fn the_index_is_what_a_byte_by_byte_scan_sees(
            text in proptest::collection::vec(proptest::sample::select(b"\"\"\\{}[]aaaa:, \x7b\xc3\xa9".to_vec()), 0..700),
        ) {
            proptest::prop_assert_eq!(index_agrees(&text), Ok(()));
        }
    }

    /// serde_json's own skip (`IgnoredAny` in a stream, as the walker reads
    /// a value): the offset past the value, or whether it failed at the end.
    fn serde_skip(t: &[u8]) -> Result<usize, bool> {
        let Ok(s) = std::str::from_utf8(t) else { return Err(false) };
        let mut it = serde_json::Deserializer::from_str(s).into_iter::<serde::de::IgnoredAny>();
        match it.next() {
            Some(Ok(_)) => Ok(it.byte_offset()),
            Some(Err(e)) => Err(e.is_eof()),
            None => Err(true),
        }
    }

    /// `skip` against serde_json on `t`: what it accepts serde_json accepts, ending at the same place.
    fn skip_agrees(t: &[u8]) -> Result<Skip, String> {
        let got = skip(t);
        let want = serde_skip(t);
        let ok = match got {
            Skip::End(n) => want == Ok(n),
            // Left to serde_json (the walker reads more, or at the end of the
            // input asks serde_json): never wrong, only slower.
            Skip::Incomplete | Skip::Refused => true,
        };
        if ok {
            Ok(got)
        } else {
            Err(format!("{:?}: skip {got:?}, serde_json {want:?}", String::from_utf8_lossy(t)))
        }
    }

    const TOKENS: &[&str] = &[
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        " ",
        "\n",
        "\"ab\"",
        "\"a\\\"b\\\\\"",
        "\"\\u00e9\\/\"",
        "\"\\uZZ12\"",
        "\"\\x\"",
        "\"\u{1}\"",
        "\"é€\"",
        "1",
        "-0.5e+3",
        "0",
        "01",
        "1.",
        "2E",
        "-",
        "true",
        "tru",
        "null",
        "false",
        "nul",
        "\"x",
        "x",
        "12345678901234567890",
    ];

    proptest::proptest! {
        #[test]
        fn skip_accepts_only_what_serde_json_accepts(tokens in proptest::collection::vec(proptest::sample::select(TOKENS), 0..40)) {
            let text = tokens.concat();
            if let Err(e) = skip_agrees(text.as_bytes()) {
                return Err(proptest::test_runner::TestCaseError::fail(e));
            }
        }

        #[test]
        fn skip_reads_every_valid_value_to_its_end(v in json(), pad in 0usize..3) {
            let mut text = serde_json::to_string(&v).unwrap();
            text.push_str(&" ".repeat(pad));
            text.push(',');
            proptest::prop_assert_eq!(skip(text.as_bytes()), Skip::End(text.len() - pad - 1));
            // Cut anywhere, it is incomplete (never taken for another value).
            for cut in 0..text.len() - pad - 1 {
                if text.is_char_boundary(cut) {
                    let got = skip_agrees(&text.as_bytes()[..cut]).map_err(proptest::test_runner::TestCaseError::fail)?;
                    proptest::prop_assert!(got != Skip::Refused, "{:?} refused", &text[..cut]);
                }
            }
        }
    }

    /// Arbitrary JSON values, a few levels deep.
    fn json() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::Bool),
            any::<i64>().prop_map(|n| serde_json::json!(n)),
            any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(|f| serde_json::json!(f)),
            "[a-z\"\\\\/\u{0}-\u{1f}é€😀]{0,12}".prop_map(serde_json::Value::String),
        ];
        leaf.prop_recursive(4, 40, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
                proptest::collection::btree_map("[a-z\"]{0,6}", inner, 0..6)
                    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        #[test]
        fn every_way_of_lexing_a_run_gives_the_same_bits(run in proptest::collection::vec(proptest::num::u8::ANY, 64)) {
            let run: [u8; 64] = run.try_into().unwrap();
            let want = Lexes::bytes(&run);
            proptest::prop_assert_eq!(Lexes::of(&run), want);
            proptest::prop_assert_eq!(Lexes::words(&run), want);
        }

        #[test]
        fn the_indexed_skip_answers_as_the_byte_skip_on_any_text(
            tokens in proptest::collection::vec(proptest::sample::select(TOKENS), 0..60),
            open in proptest::sample::select(&["{", "[", " [", "[[", "{\"k\":"][..]),
        ) {
            let text = format!("{open}{}", tokens.concat());
            let t = text.as_bytes();
            proptest::prop_assert_eq!(skip_indexed(t, blanks(t, 0)), skip_bytes(t), "{:?}", text);
        }

        #[test]
        fn the_indexed_skip_answers_as_the_byte_skip_on_values_cut_anywhere(v in json(), pad in 0usize..70) {
            // Padding moves the value across the 64-byte runs.
            let text = format!("{}[{}]", " ".repeat(pad), serde_json::to_string(&v).unwrap());
            let t = text.as_bytes();
            proptest::prop_assert_eq!(skip(t), Skip::End(text.len()));
            for cut in 0..=t.len() {
                let t = &t[..cut];
                proptest::prop_assert_eq!(skip_indexed(t, pad), skip_bytes(t), "cut at {}", cut);
            }
        }
    }

    #[test]
    fn the_indexed_skip_refuses_what_the_byte_skip_refuses_in_long_strings() {
        // Escapes, controls and quotes on both sides of a run's edge.
        for at in 50..80 {
            for bad in ["\\x", "\\u12G4", "\\u", "\\\\\\\"", "\u{1}", "\t", "\\\\", "\\u00e9", "\\\""] {
                let text = format!("[\"{}{bad}{}\", 1, {{\"a\": [true, null, -1.5e3]}}]", "x".repeat(at), "y".repeat(40));
                let t = text.as_bytes();
                assert_eq!(skip_indexed(t, 0), skip_bytes(t), "{text:?}");
                assert_eq!(skip_agrees(t).map(|_| ()), Ok(()), "{text:?}");
            }
        }
    }

    #[test]
    fn skip_leaves_deep_nesting_to_serde_json() {
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert_eq!(skip(deep.as_bytes()), Skip::Refused);
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert_eq!(skip(ok.as_bytes()), Skip::End(ok.len()));
    }
}
