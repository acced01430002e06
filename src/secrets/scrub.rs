//! Scrubbing: every long secret, in each form it can take in planview's
//! output (quoted, escaped, cut short), replaced by the mask in the finished
//! text of every command and format ([`Scrubber::scrub`]).

use super::collect::{Masker, MASK};
use std::borrow::Cow;

impl Masker {
    /// A scrubber of these secrets; its matchers are made when first used
    /// ([`Scrubber::scrub`]).
    pub(super) fn build_scrubber(&self) -> Scrubber {
        if self.is_empty() {
            return Scrubber { of: None };
        }
        // Made before the copy, so that the copy shares them.
        self.make_derived();
        let lazy = Lazy { masker: self.clone(), plain: std::sync::OnceLock::new(), full: std::sync::OnceLock::new() };
        Scrubber { of: Some(std::sync::Arc::new(lazy)) }
    }

    /// The scrubber's matcher: every form of every long secret, the digests'
    /// forms only when `digests` (each of them is a run of 22 or more base64
    /// characters: [`crate::derive::Digest::shortest`]).
    fn scrub_patterns(&self, digests: bool) -> Option<Many> {
        let mut patterns: Vec<Cow<'_, str>> = Vec::new();
        let sources: Box<dyn Iterator<Item = &str>> =
            if digests { Box::new(self.long_sources()) } else { Box::new(self.plain_long_sources()) };
        for s in sources {
            if s.bytes().all(|b| b.is_ascii_alphanumeric() || b"-./+=@^()!?;".contains(&b)) {
                // No escaper below changes these characters: every form is `s`.
                patterns.push(Cow::Borrowed(s));
                continue;
            }
            let (hcl, json) = (crate::escape::hcl_quote(s), crate::escape::json_string(s));
            // Quoted inside text first (a key, an import id shown as JSON, a
            // JSON-encoded string as Terraform's `jsonencode` writes it, a word
            // of a shell command), then escaped for the output format.
            let go = go_json_inner(s);
            let bases = [
                s.to_string(),
                terraform_key_form(s),
                hcl[1..hcl.len() - 1].to_string(),
                json[1..json.len() - 1].to_string(),
                crate::escape::json_string(&go).trim_matches('"').to_string(),
                go,
            ];
            let bases = bases.into_iter().flat_map(|b| [shell_inner(&b), b]);
            for b in bases {
                let json = crate::escape::json_string(&b);
                patterns.push(Cow::Owned(json[1..json.len() - 1].to_string()));
                patterns.push(Cow::Owned(crate::sanitize::line(&b).into_owned()));
                patterns.push(Cow::Owned(crate::sanitize::text(&b).into_owned()));
                patterns.push(Cow::Owned(b));
            }
        }
        let patterns = sorted_distinct(patterns);
        (!patterns.is_empty()).then(|| Many::new(patterns))
    }
}

/// A scrubber's secrets and its matchers, made when first needed.
#[derive(Debug)]
struct Lazy {
    masker: Masker,
    /// Every form but the digests' ([`Masker::scrub_patterns`]; none: nothing to scrub).
    plain: std::sync::OnceLock<Option<Many>>,
    /// Every form.
    full: std::sync::OnceLock<Option<Many>>,
}

impl Lazy {
    /// The matcher that scrubs `text` as the matcher of every form would: the
    /// one without the digests' forms when `text` holds none (no run of base64
    /// characters as long as the shortest) and no `…` (the start of any form,
    /// a digest's too, is masked before one: [`Scrubber::mask_cut_starts`]).
    fn for_text(&self, text: &[u8]) -> Option<&Many> {
        if let Some(full) = self.full.get() {
            return full.as_ref();
        }
        let shortest = crate::derive::Digest::ALL.iter().map(|d| d.shortest()).min().unwrap_or_default();
        if crate::derive::longest_base64_run(text, shortest) >= shortest || memchr::memmem::find(text, "…".as_bytes()).is_some() {
            self.full.get_or_init(|| self.masker.scrub_patterns(true)).as_ref()
        } else {
            self.plain.get_or_init(|| self.masker.scrub_patterns(false)).as_ref()
        }
    }
}

/// `s` as Go's `encoding/json` writes it inside a string (what Terraform's
/// `jsonencode` and its JSON output produce), without the quotes: JSON's
/// escapes, and `&`, `<`, `>`, U+2028 and U+2029 as `\u0026`, `\u003c`,
/// `\u003e`, `\u2028`, `\u2029`.
pub(super) fn go_json_inner(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '&' | '<' | '>' | '\u{2028}' | '\u{2029}' => out.push_str(&format!("\\u{:04x}", c as u32)),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// `s` as it stands inside a single-quoted POSIX shell word (`moves --format
/// commands`): each `'` as `'\''`.
fn shell_inner(s: &str) -> String {
    s.replace('\'', "'\\''")
}

/// A string as Terraform and OpenTofu write it inside an instance key
/// (`aws_x.y["KEY"]`), without the quotes: `\n`, `\r`, `\t`, `\"`, `\\`,
/// `$${`/`%%{`, and what Go's `unicode.IsPrint` rejects as `\uxxxx` (controls,
/// format characters such as the bidi ones, separators, spaces but U+0020).
pub(super) fn terraform_key_form(s: &str) -> String {
    crate::escape::hcl_escape(s, |c| {
        let hidden = c.is_control()
            || (c.is_whitespace() && c != ' ')
            || matches!(c, '\u{00AD}' | '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{FEFF}');
        match c as u32 {
            _ if !hidden => None,
            u @ ..0x10000 => Some(format!("\\u{u:04x}")),
            u => Some(format!("\\U{u:08x}")),
        }
    })
}

/// Replaces long secrets inside any output text.
#[derive(Debug, Clone)]
pub struct Scrubber {
    /// The secrets, and the matchers of every form of every long secret,
    /// made when first needed (none: nothing to scrub).
    of: Option<std::sync::Arc<Lazy>>,
}

/// Many patterns found in text, in little memory (a set of 100,000 secrets
/// costs a few MB, where an automaton over them costs tens): the patterns,
/// sorted, in one arena; those of 8 bytes or more are found by their first 8
/// bytes (a bitset of their hashes rules out most places at once, a binary
/// search over the sorted heads finds the candidates), the few shorter ones
/// by comparison at each place. Matches are leftmost-longest, as an
/// Aho-Corasick automaton of that kind finds them.
#[derive(Debug)]
pub(super) struct Many {
    /// Every pattern, in sorted order, one after another.
    arena: Vec<u8>,
    /// Where each pattern ends in `arena` (it starts where the one before ends).
    ends: Vec<u32>,
    /// The first 8 bytes of each pattern of 8 or more, big-endian (so in
    /// pattern order), with its index: sorted.
    heads: Vec<(u64, u32)>,
    /// Bits set at the hash of each head.
    filter: Vec<u64>,
    /// log2 of the bits in `filter`.
    bits: u32,
    /// The patterns shorter than 8 bytes.
    short: Vec<u32>,
    longest: usize,
}

impl Default for Many {
    /// No pattern: matches nothing.
    fn default() -> Many {
        Many::indexed(Vec::new(), Vec::new())
    }
}

impl Many {
    /// From sorted, distinct patterns (none empty: [`sorted_distinct`]).
    pub(super) fn new<S: AsRef<str>>(patterns: Vec<S>) -> Many {
        let mut arena = Vec::with_capacity(patterns.iter().map(|p| p.as_ref().len()).sum());
        let mut ends = Vec::with_capacity(patterns.len());
        for p in &patterns {
            arena.extend_from_slice(p.as_ref().as_bytes());
            ends.push(arena.len() as u32);
        }
        drop(patterns);
        Self::indexed(arena, ends)
    }

    /// From patterns written one after another into `arena`, each ending at
    /// the next of `ends` (any order, repeats and empty ones allowed): sorted
    /// and made distinct here, without a `String` each (hundreds of thousands
    /// of derived forms cost their bytes and 4 bytes each, not a heap block).
    pub(super) fn from_arena(arena: Vec<u8>, ends: Vec<u32>) -> Many {
        let span = |i: usize| {
            let start = if i == 0 { 0 } else { ends[i - 1] as usize };
            &arena[start..ends[i] as usize]
        };
        let mut keys: Vec<(u64, u32)> =
            (0..ends.len()).filter(|&i| !span(i).is_empty()).map(|i| (Self::padded_head(span(i)), i as u32)).collect();
        keys.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| span(a.1 as usize).cmp(span(b.1 as usize))));
        keys.dedup_by(|a, b| a.0 == b.0 && span(a.1 as usize) == span(b.1 as usize));
        let mut sorted = Vec::with_capacity(keys.iter().map(|&(_, i)| span(i as usize).len()).sum());
        let mut sorted_ends = Vec::with_capacity(keys.len());
        for &(_, i) in &keys {
            sorted.extend_from_slice(span(i as usize));
            sorted_ends.push(sorted.len() as u32);
        }
        drop((keys, ends, arena));
        Self::indexed(sorted, sorted_ends)
    }

    /// The first eight bytes, big-endian, zero-padded: ordered as the text
    /// (ties, which padding can make, are broken by the whole text).
    fn padded_head(b: &[u8]) -> u64 {
        let mut h = [0u8; 8];
        let n = b.len().min(8);
        h[..n].copy_from_slice(&b[..n]);
        u64::from_be_bytes(h)
    }

    /// Every pattern, in sorted order, as text.
    pub(super) fn patterns(&self) -> impl Iterator<Item = &str> {
        (0..self.len()).filter_map(|i| self.get(i)).map(|p| std::str::from_utf8(p).unwrap_or_default())
    }

    /// From sorted, distinct, non-empty patterns in `arena`, each ending at the next of `ends`.
    fn indexed(arena: Vec<u8>, ends: Vec<u32>) -> Many {
        let (mut heads, mut short) = (Vec::new(), Vec::new());
        let mut longest = 0;
        let mut start = 0;
        for (i, &end) in ends.iter().enumerate() {
            let p = &arena[start..end as usize];
            start = end as usize;
            match Self::head(p) {
                Some(h) => heads.push((h, i as u32)),
                None => short.push(i as u32),
            }
            longest = longest.max(p.len());
        }
        // About 16 bits per head: a place that starts no pattern passes the filter rarely.
        let bits = (heads.len().max(1) * 16).next_power_of_two().trailing_zeros().max(6);
        let mut filter = vec![0u64; 1 << (bits - 6)];
        for &(h, _) in &heads {
            let (k1, k2) = Self::slots(h, 64 - bits);
            filter[k1 >> 6] |= 1 << (k1 & 63);
            filter[k2 >> 6] |= 1 << (k2 & 63);
        }
        Many { arena, ends, heads, filter, bits, short, longest }
    }

    fn head(b: &[u8]) -> Option<u64> {
        b.get(..8).map(|h| u64::from_be_bytes(h.try_into().unwrap_or_default()))
    }

    /// The two filter bits of the head `h` (`shift`: 64 less the filter's
    /// log2 bits); two bits a head let through about one place in 70 that
    /// starts no pattern, where one let through one in 16.
    fn slots(h: u64, shift: u32) -> (usize, usize) {
        ((h.wrapping_mul(Self::SEEDS.0) >> shift) as usize, (h.wrapping_mul(Self::SEEDS.1) >> shift) as usize)
    }

    /// The multipliers of [`Many::slots`]' two hashes.
    const SEEDS: (u64, u64) = (0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F);

    fn len(&self) -> usize {
        self.ends.len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The `i`th pattern in sorted order.
    fn get(&self, i: usize) -> Option<&[u8]> {
        let end = *self.ends.get(i)? as usize;
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        Some(&self.arena[start..end])
    }

    /// The index of the first pattern for which `pred` is false (`pred` true
    /// for a prefix of the sorted patterns).
    fn partition_point(&self, pred: impl Fn(&[u8]) -> bool) -> usize {
        let (mut lo, mut hi) = (0, self.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.get(mid).is_some_and(&pred) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// The leftmost-longest match in `text` that starts at `from` or after:
    /// where it starts and its length. One scan shared by [`Many::is_match`]
    /// and [`Many::replace_all`], written as plain loops over slices (no
    /// iterator adaptor or conversion per byte), so that it stays cheap in
    /// the unoptimised test build too: the big-endian head of the next 8
    /// bytes is rolled one byte at a time, tested against the filter inline,
    /// and only where the filter lets it through are the heads searched.
    fn find_from(&self, text: &[u8], from: usize) -> Option<(usize, usize)> {
        let n = text.len();
        let filter: &[u64] = &self.filter;
        let short: &[u32] = &self.short;
        let shift = 64 - self.bits;
        // Patterns of 8 bytes or more start no later than `n - 8`.
        let last_head = if self.heads.is_empty() || n < 8 { 0 } else { n - 7 };
        let mut h: u64 = 0;
        let mut at = from;
        if at < last_head {
            let mut i = at;
            while i < at + 7 {
                h = (h << 8) | text[i] as u64;
                i += 1;
            }
        }
        while at < n {
            let mut best = 0;
            if at < last_head {
                h = (h << 8) | text[at + 7] as u64;
                // The filter's first bit, then its second ([`Many::slots`], written out).
                let k = (h.wrapping_mul(Self::SEEDS.0) >> shift) as usize;
                if filter[k >> 6] & (1 << (k & 63)) != 0 {
                    let k = (h.wrapping_mul(Self::SEEDS.1) >> shift) as usize;
                    if filter[k >> 6] & (1 << (k & 63)) != 0 {
                        best = self.longest_head_at(text, at, h);
                    }
                }
            }
            if best == 0 && !short.is_empty() {
                best = self.longest_short_at(text, at);
            }
            if best > 0 {
                return Some((at, best));
            }
            at += 1;
        }
        None
    }

    /// The length of the longest pattern of 8 bytes or more that starts at
    /// `text[at..]`, whose first 8 bytes are `h` (0: none).
    fn longest_head_at(&self, text: &[u8], at: usize, h: u64) -> usize {
        let heads: &[(u64, u32)] = &self.heads;
        let (mut lo, mut hi) = (0, heads.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if heads[mid].0 < h {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let rest = &text[at..];
        let mut best = 0;
        while lo < heads.len() && heads[lo].0 == h {
            let p = self.pattern(heads[lo].1 as usize);
            if p.len() > best && rest.starts_with(p) {
                best = p.len();
            }
            lo += 1;
        }
        best
    }

    /// The length of the longest pattern shorter than 8 bytes that starts at
    /// `text[at..]` (0: none).
    fn longest_short_at(&self, text: &[u8], at: usize) -> usize {
        let rest = &text[at..];
        let mut best = 0;
        for &i in &self.short {
            let p = self.pattern(i as usize);
            if p.len() > best && rest.starts_with(p) {
                best = p.len();
            }
        }
        best
    }

    /// The `i`th pattern in sorted order (`i` below [`Many::len`]).
    fn pattern(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.arena[start..self.ends[i] as usize]
    }

    pub(super) fn is_match(&self, text: &[u8]) -> bool {
        self.find_from(text, 0).is_some()
    }

    /// True when any of `sets` matches inside `text`: what asking each in
    /// turn answers, in one scan (the head rolled once, each set's filter
    /// tested at each place; the digests' four sets of one secret are looked
    /// for in one string this way).
    pub(super) fn any_match(sets: &[&Many], text: &[u8]) -> bool {
        if sets.len() < 2 || sets.iter().any(|m| !m.short.is_empty()) {
            return sets.iter().any(|m| m.is_match(text));
        }
        // Each set's filter and shift (slices: indexed without a call per byte).
        let parts: Vec<(&[u64], u32, &Many)> =
            sets.iter().filter(|m| !m.heads.is_empty()).map(|m| (&m.filter[..], 64 - m.bits, *m)).collect();
        let parts: &[(&[u64], u32, &Many)] = &parts;
        let n = text.len();
        if parts.is_empty() || n < 8 {
            return false;
        }
        let mut h: u64 = 0;
        let mut i = 0;
        while i < 7 {
            h = (h << 8) | text[i] as u64;
            i += 1;
        }
        let mut at = 0;
        while at + 8 <= n {
            h = (h << 8) | text[at + 7] as u64;
            let mut j = 0;
            while j < parts.len() {
                let (filter, shift, many) = parts[j];
                let k = (h.wrapping_mul(Self::SEEDS.0) >> shift) as usize;
                if filter[k >> 6] & (1 << (k & 63)) != 0 {
                    let k = (h.wrapping_mul(Self::SEEDS.1) >> shift) as usize;
                    if filter[k >> 6] & (1 << (k & 63)) != 0 && many.longest_head_at(text, at, h) > 0 {
                        return true;
                    }
                }
                j += 1;
            }
            at += 1;
        }
        false
    }

    /// `text` with each match, leftmost-longest, replaced by [`MASK`].
    pub(super) fn replace_all<'a>(&self, text: &'a [u8]) -> Cow<'a, [u8]> {
        let mut out: Option<Vec<u8>> = None;
        let mut from = 0;
        while let Some((at, n)) = self.find_from(text, from) {
            let o = out.get_or_insert_with(|| Vec::with_capacity(text.len()));
            o.extend_from_slice(&text[from..at]);
            o.extend_from_slice(MASK.as_bytes());
            from = at + n;
        }
        match out {
            Some(mut o) => {
                o.extend_from_slice(&text[from..]);
                Cow::Owned(o)
            }
            None => Cow::Borrowed(text),
        }
    }
}

/// `v` sorted (byte order) without repeats or empty strings: what
/// [`Many::new`] is built from. Sorting a vector once, by each string's first
/// eight bytes before its whole text, costs a fraction of inserting the same
/// strings into a tree one by one (hundreds of thousands of derived forms on
/// a plan with ten thousand secrets).
pub(super) fn sorted_distinct<S: AsRef<str>>(v: Vec<S>) -> Vec<S> {
    /// The first eight bytes, big-endian, zero-padded: ordered as the text
    /// (ties, which padding can make, are broken by the whole text).
    fn head(s: &str) -> u64 {
        let b = s.as_bytes();
        let mut h = [0u8; 8];
        let n = b.len().min(8);
        h[..n].copy_from_slice(&b[..n]);
        u64::from_be_bytes(h)
    }
    let text = |i: u32| v[i as usize].as_ref();
    // Small keys sorted, not the strings: (head, index).
    let mut keys: Vec<(u64, u32)> =
        v.iter().enumerate().filter(|(_, s)| !s.as_ref().is_empty()).map(|(i, s)| (head(s.as_ref()), i as u32)).collect();
    keys.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| text(a.1).cmp(text(b.1))));
    keys.dedup_by(|a, b| a.0 == b.0 && text(a.1) == text(b.1));
    let mut slots: Vec<Option<S>> = v.into_iter().map(Some).collect();
    keys.iter().filter_map(|&(_, i)| slots[i as usize].take()).collect()
}

/// The shortest start of a secret, cut short by a `…`, that is masked.
pub(crate) const MIN_CUT: usize = 3;

impl Scrubber {
    /// `text` with every long secret (in any form it takes in our output)
    /// masked, and the start of one cut short (`SuperSecre…`) too.
    pub fn scrub<'a>(&self, text: &'a [u8]) -> Cow<'a, [u8]> {
        let Some(many) = self.of.as_ref().and_then(|l| l.for_text(text)) else { return Cow::Borrowed(text) };
        let text = many.replace_all(text);
        Self::mask_cut_starts(many, text)
    }

    /// A cell shortened to fit ends with `…`: if what stands before it is the
    /// start of a secret (at least [`MIN_CUT`] bytes of one), it is masked, so
    /// shortening never shows part of a secret.
    fn mask_cut_starts<'a>(many: &Many, text: Cow<'a, [u8]>) -> Cow<'a, [u8]> {
        const ELLIPSIS: &[u8] = "…".as_bytes();
        let longest = many.longest;
        let mut cuts: Vec<(usize, usize)> = Vec::new();
        for end in memchr::memmem::find_iter(&text, ELLIPSIS) {
            let starts = (MIN_CUT..=longest.min(end)).rev().map(|k| end - k);
            // Only whole characters: a start inside one is not a start at all.
            for start in starts.filter(|&st| (text[st] as i8) >= -0x40) {
                let piece = &text[start..end];
                let at = many.partition_point(|p| p < piece);
                if many.get(at).is_some_and(|p| p.starts_with(piece) && p.len() > piece.len()) {
                    if cuts.last().is_none_or(|&(_, e)| e <= start) {
                        cuts.push((start, end + ELLIPSIS.len()));
                    }
                    break;
                }
            }
        }
        if cuts.is_empty() {
            return text;
        }
        let mut out = Vec::with_capacity(text.len());
        let mut from = 0;
        for (start, end) in cuts {
            out.extend_from_slice(&text[from..start]);
            out.extend_from_slice(MASK.as_bytes());
            from = end;
        }
        out.extend_from_slice(&text[from..]);
        Cow::Owned(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digests_forms_are_made_only_for_text_that_could_hold_one() {
        let mut m = Masker::default();
        m.add("S3cret&Pass<word>!");
        let sc = m.scrubber();
        let lazy = sc.of.as_deref().unwrap();
        let scrub = |t: &str| String::from_utf8(sc.scrub(t.as_bytes()).into_owned()).unwrap();
        assert_eq!(scrub("planview: warning: x S3cret&Pass<word>! y"), "planview: warning: x (sensitive value) y");
        assert!(lazy.plain.get().is_some() && lazy.full.get().is_none(), "no digest made for a warning");
        // base64sha256 of the secret: a run of 43 base64 characters.
        assert_eq!(scrub("sha +AXxS3lLl0OQNcKq3dlEbWC8G1z5aHLtTyZoVnDwf68= end"), "sha (sensitive value)= end");
        assert!(lazy.full.get().is_some());
        // The start of a digest cut short is masked as the start of any form.
        let mut m = Masker::default();
        m.add("S3cret&Pass<word>!");
        assert_eq!(&*m.scrubber().scrub("| 279152dd… |".as_bytes()), "| (sensitive value) |".as_bytes());
    }

    /// The leftmost-longest matches of `patterns` in `text`, found by
    /// comparing every pattern at every place: what [`Many`] must find.
    fn matches_reference(patterns: &[&[u8]], text: &[u8]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut at = 0;
        while at < text.len() {
            match patterns.iter().filter(|p| !p.is_empty() && text[at..].starts_with(p)).map(|p| p.len()).max() {
                Some(n) => {
                    out.push((at, n));
                    at += n;
                }
                None => at += 1,
            }
        }
        out
    }

    /// Every match [`Many::find_from`] finds, one after another.
    fn matches(many: &Many, text: &[u8]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut from = 0;
        while let Some((at, n)) = many.find_from(text, from) {
            out.push((at, n));
            from = at + n;
        }
        out
    }

    #[test]
    fn a_match_at_the_end_of_the_text_and_short_patterns_are_found() {
        let many = Many::new(sorted_distinct(vec!["abc", "abcdefgh", "abcdefghij", "xyz", "12345678"]));
        // A head pattern in the text's last 8 bytes, and the text that is only it.
        assert_eq!(matches(&many, b"..........12345678"), [(10, 8)]);
        assert_eq!(matches(&many, b"12345678"), [(0, 8)]);
        assert_eq!(matches(&many, b"1234567"), []);
        // The longest at a place wins; a short pattern where no long one starts.
        assert_eq!(matches(&many, b"abcdefghij abcdefgh abcdefg abc"), [(0, 10), (11, 8), (20, 3), (28, 3)]);
        // Short patterns in the last 7 bytes, where no head fits.
        assert_eq!(matches(&many, b"--xyz"), [(2, 3)]);
        assert_eq!(matches(&many, b"xyz"), [(0, 3)]);
        assert_eq!(&*many.replace_all(b"a xyz b 12345678"), b"a (sensitive value) b (sensitive value)".as_slice());
        assert!(many.is_match(b"__________abc") && !many.is_match(b"ab-xy-1234567"));
        // Only long patterns, only short ones, none.
        let long = Many::new(sorted_distinct(vec!["secret-long-1"]));
        assert_eq!(matches(&long, b"xsecret-long-1"), [(1, 13)]);
        assert_eq!(matches(&long, b"secret-long-"), []);
        let short = Many::new(sorted_distinct(vec!["ab"]));
        assert_eq!(matches(&short, b"aab"), [(1, 2)]);
        assert!(!Many::default().is_match(b"anything at all"));
    }

    proptest::proptest! {
        /// The scan finds what comparing every pattern at every place finds,
        /// over small alphabets (so that patterns overlap, share heads and
        /// prefixes, and meet the text's end).
        #[test]
        fn the_scan_finds_the_leftmost_longest_matches(
            patterns in proptest::collection::vec("[ab]{1,12}|[abc]{6,10}", 1..12),
            text in "[ab]{0,40}|[abc]{0,40}",
        ) {
            let many = Many::new(sorted_distinct(patterns.clone()));
            let bytes: Vec<&[u8]> = patterns.iter().map(|p| p.as_bytes()).collect();
            let want = matches_reference(&bytes, text.as_bytes());
            proptest::prop_assert_eq!(matches(&many, text.as_bytes()), want.clone());
            proptest::prop_assert_eq!(many.is_match(text.as_bytes()), !want.is_empty());
            let mut masked = Vec::new();
            let mut from = 0;
            for &(at, n) in &want {
                masked.extend_from_slice(&text.as_bytes()[from..at]);
                masked.extend_from_slice(MASK.as_bytes());
                from = at + n;
            }
            masked.extend_from_slice(&text.as_bytes()[from..]);
            proptest::prop_assert_eq!(many.replace_all(text.as_bytes()).into_owned(), masked);
        }
        /// One scan over several sets answers as asking each in turn.
        #[test]
        fn any_match_answers_as_each_set_asked_in_turn(
            sets in proptest::collection::vec(proptest::collection::vec("[ab]{8,12}|[abc]{8,10}|[ab]{1,7}", 0..4), 0..4),
            text in "[ab]{0,40}|[abc]{0,40}",
        ) {
            let sets: Vec<Many> = sets.into_iter().map(|s| Many::new(sorted_distinct(s))).collect();
            let refs: Vec<&Many> = sets.iter().collect();
            proptest::prop_assert_eq!(Many::any_match(&refs, text.as_bytes()), sets.iter().any(|m| m.is_match(text.as_bytes())));
            // Long patterns only (the one-scan road), as the digests' sets are.
            let long: Vec<Many> = sets.iter().map(|m| Many::new(m.patterns().filter(|p| p.len() >= 8).collect())).collect();
            let refs: Vec<&Many> = long.iter().collect();
            proptest::prop_assert_eq!(Many::any_match(&refs, text.as_bytes()), long.iter().any(|m| m.is_match(text.as_bytes())));
        }
    }

    proptest::proptest! {
        /// Scrubbing with the matcher chosen for the text gives the bytes the
        /// matcher of every form gives.
        #[test]
        fn the_matcher_chosen_scrubs_as_the_one_of_every_form(
            secret in "[a-zA-Z0-9 &<>\"'+/=%-]{4,20}",
            around in proptest::collection::vec("[a-zA-Z0-9+/ :=_…-]{0,12}", 2),
        ) {
            let mut m = Masker::default();
            m.add(&secret);
            let full = m.scrub_patterns(true);
            for (f, _) in crate::derive::tagged_reference(&secret) {
                for text in [format!("{}{f}{}", around[0], around[1]), format!("{}{}…", around[0], f.get(..f.len().min(5)).unwrap_or_default())] {
                    let want = match &full {
                        Some(many) => Scrubber::mask_cut_starts(many, many.replace_all(text.as_bytes())).into_owned(),
                        None => text.clone().into_bytes(),
                    };
                    proptest::prop_assert_eq!(m.scrubber().scrub(text.as_bytes()).into_owned(), want, "{:?}", text);
                }
            }
        }
    }
}
