//! The forms a secret takes when a configuration derives a value from it with
//! Terraform's functions (a leaf: it imports nothing of planview): upper and
//! lower case, HTML escaping, URL encoding, base64 (standard and URL-safe,
//! padded or not, and the part a secret leaves in a longer base64 string at
//! each of the three alignments), hex, and the MD5, SHA-1, SHA-256 and
//! SHA-512 digests in hex and base64 (a digest of a short secret gives the
//! secret away to anyone who tries the guesses). And the lines of a
//! multi-line secret (a PEM key's lines).

use md5::Digest as _;

/// Secrets shorter than this have no derived forms (a digest of a 3-character
/// string is a guess of a few million tries either way, and such short
/// values are everywhere).
pub(crate) const MIN_DERIVED: usize = 4;

/// The shortest line of a multi-line secret that is a secret on its own.
pub(crate) const MIN_LINE: usize = 8;

/// The shortest part of a base64 string that is looked for as a secret's
/// trace inside a longer one (shorter parts would match by chance).
const MIN_CORE: usize = 8;

const STD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Every derived form of `s` (none when it is shorter than [`MIN_DERIVED`]
/// characters), `s` itself left out; may repeat.
#[cfg(any(test, feature = "testkit"))]
pub fn forms(s: &str) -> Vec<String> {
    tagged(s).into_iter().map(|(f, _)| f).collect()
}

/// [`forms`], each with whether it is looked for inside longer text: not
/// when another form it starts with is (a padded base64 string starts with
/// the unpadded one, which starts with the part the secret leaves at
/// alignment 0), nor the upper-case and URL-safe digests no Terraform
/// function writes (those are masked as whole values only).
#[cfg(any(test, feature = "testkit"))]
pub(crate) fn tagged(s: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    each_form(s, &mut Scratch::default(), |f, searched| out.push((f.to_string(), searched)));
    out
}

/// Reused room for [`each_form`]: the forms are written into it, one at a
/// time, instead of into a new `String` each.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    form: String,
    input: Vec<u8>,
    enc: String,
}

/// Call `f` with each of [`tagged`]'s forms of `s`, in its order (none when
/// `s` is shorter than [`MIN_DERIVED`] characters; `s` itself and empty
/// forms left out), each written into `scratch` (no allocation once it has
/// grown); the second argument says whether the form is looked for inside
/// longer text. The maskers make them in two parts, [`each_plain_form`] and
/// [`each_digest_form`] (the digests' only when a value could be one).
#[cfg(any(test, feature = "testkit"))]
pub(crate) fn each_form(s: &str, scratch: &mut Scratch, mut f: impl FnMut(&str, bool)) {
    each_plain_form(s, scratch, &mut f);
    for d in Digest::ALL {
        each_digest_form(s, d, scratch, &mut f);
    }
}

/// The digests whose forms are among a secret's ([`each_digest_form`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Digest {
    Md5,
    Sha1,
    Sha256,
    Sha512,
}

impl Digest {
    pub(crate) const ALL: [Digest; 4] = [Digest::Md5, Digest::Sha1, Digest::Sha256, Digest::Sha512];

    /// The digest's length in bytes.
    pub(crate) const fn bytes(self) -> usize {
        match self {
            Digest::Md5 => 16,
            Digest::Sha1 => 20,
            Digest::Sha256 => 32,
            Digest::Sha512 => 64,
        }
    }

    /// The length of its unpadded base64 form: the shortest of its forms, and
    /// the shortest of those looked for inside text.
    pub(crate) const fn shortest(self) -> usize {
        (self.bytes() * 4).div_ceil(3)
    }

    /// The digest whose forms ([`each_digest_form`]) can be `len` bytes long:
    /// hex (`2 × bytes`), base64 unpadded or padded. Each length belongs to
    /// one digest at most.
    pub(crate) fn of_form_len(len: usize) -> Option<Digest> {
        Digest::ALL.into_iter().find(|d| len == 2 * d.bytes() || len == d.shortest() || len == d.bytes().div_ceil(3) * 4)
    }

    /// The digest one of whose forms `f` could be, by its length and
    /// characters alone: hex (either case), standard base64 unpadded or
    /// padded, URL-safe base64 unpadded.
    pub(crate) fn of_form(f: &[u8]) -> Option<Digest> {
        let d = Digest::of_form_len(f.len())?;
        let std = |c: &u8| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/';
        let fits = if f.len() == 2 * d.bytes() {
            f.iter().all(u8::is_ascii_hexdigit)
        } else if f.len() == d.shortest() {
            f.iter().all(std) || f.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-' || *c == b'_')
        } else {
            let body = &f[..d.shortest()];
            body.iter().all(std) && f[d.shortest()..].iter().all(|&c| c == b'=')
        };
        fits.then_some(d)
    }

    fn of(self, b: &[u8]) -> Vec<u8> {
        match self {
            Digest::Md5 => md5::Md5::digest(b).to_vec(),
            Digest::Sha1 => sha1::Sha1::digest(b).to_vec(),
            Digest::Sha256 => sha2::Sha256::digest(b).to_vec(),
            Digest::Sha512 => sha2::Sha512::digest(b).to_vec(),
        }
    }
}

/// True for the bytes of standard base64's alphabet (`A-Za-z0-9+/`): a table,
/// so that a scan asks one load per byte, optimised or not.
const IS_BASE64: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 64 {
        t[STD[i] as usize] = true;
        i += 1;
    }
    t
};

/// The length of the longest run of standard base64 characters in `b`, or
/// `enough` once a run reaches it (the scan stops there): every digest's form
/// looked for inside text is such a run, at least [`Digest::shortest`] long.
pub(crate) fn longest_base64_run(b: &[u8], enough: usize) -> usize {
    let (mut run, mut longest, mut i) = (0, 0, 0);
    while i < b.len() {
        if IS_BASE64[b[i] as usize] {
            run += 1;
            if run > longest {
                longest = run;
                if longest >= enough {
                    return longest;
                }
            }
        } else {
            run = 0;
        }
        i += 1;
    }
    longest
}

/// [`each_form`]'s forms of `s` but the digests': every form whose length
/// depends on `s` (case, HTML, URL encoding, base64, hex).
pub(crate) fn each_plain_form(s: &str, scratch: &mut Scratch, mut f: impl FnMut(&str, bool)) {
    if s.chars().count() < MIN_DERIVED {
        return;
    }
    let Scratch { form, input, enc } = scratch;
    let b = s.as_bytes();
    let mut emit = |form: &str, searched: bool| {
        if form != s && !form.is_empty() {
            f(form, searched);
        }
    };
    // Case.
    if s.is_ascii() {
        form.clear();
        form.extend(b.iter().map(|c| char::from(c.to_ascii_uppercase())));
        emit(form, true);
        form.clear();
        form.extend(b.iter().map(|c| char::from(c.to_ascii_lowercase())));
        emit(form, true);
    } else {
        emit(&s.to_uppercase(), true);
        emit(&s.to_lowercase(), true);
    }
    // HTML, then URL encoding (`%20` / `+` for a space, upper- and lower-case hex).
    for (quot, apos) in [("&#34;", "&#39;"), ("&quot;", "&#x27;")] {
        form.clear();
        html_into(s, quot, apos, form);
        emit(form, true);
    }
    for lower in [false, true] {
        for plus in [false, true] {
            form.clear();
            urlencode_into(b, lower, plus, form);
            emit(form, true);
        }
    }
    // Base64: unpadded, padded, and the cores at the three alignments.
    for alphabet in [STD, URL] {
        form.clear();
        base64_into(b, alphabet, true, form);
        emit(form.trim_end_matches('='), true);
        emit(form, false);
        for align in 0..3 {
            if let Some(core) = base64_core_into(b, align, alphabet, input, enc) {
                emit(core, true);
            }
        }
    }
    form.clear();
    hex_into(b, false, form);
    emit(form, true);
    form.clear();
    hex_into(b, true, form);
    emit(form, true);
}

/// [`each_form`]'s forms of the digest `which` of `s`, in its order: hex,
/// upper-case hex, base64 unpadded, URL-safe unpadded, padded (each of a
/// length fixed by the digest: [`Digest::of_form_len`]).
pub(crate) fn each_digest_form(s: &str, which: Digest, scratch: &mut Scratch, mut f: impl FnMut(&str, bool)) {
    if s.chars().count() < MIN_DERIVED {
        return;
    }
    let Scratch { form, enc, .. } = scratch;
    let mut emit = |form: &str, searched: bool| {
        if form != s && !form.is_empty() {
            f(form, searched);
        }
    };
    let d = &which.of(s.as_bytes());
    form.clear();
    hex_into(d, false, form);
    emit(form, true);
    form.clear();
    hex_into(d, true, form);
    emit(form, false);
    form.clear();
    base64_into(d, STD, true, form);
    emit(form.trim_end_matches('='), true);
    enc.clear();
    base64_into(d, URL, false, enc);
    emit(enc, false);
    emit(form, false);
}

/// The forms as first written, one `String` each: [`each_form`]'s reference
/// (its order and tags must stay these; proptest in the tests).
#[cfg(test)]
pub(crate) fn tagged_reference(s: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    if s.chars().count() < MIN_DERIVED {
        return out;
    }
    let whole = forms_of(s);
    for (i, f) in whole.into_iter().enumerate() {
        out.push((f, SEARCHED.get(i).copied().unwrap_or(true)));
    }
    out.retain(|(f, _)| f != s && !f.is_empty());
    out
}

/// Whether each form of [`forms_of`], in its order, is looked for inside text
/// (the digests' forms repeat for each of the four: see the end of `forms_of`).
#[cfg(test)]
const SEARCHED: &[bool] = &[
    // upper, lower, html_go, html_named, url %20, url +, url lower %20, url lower
    true, true, true, true, true, true, true, true, // standard: unpadded, padded, cores 0-2; URL-safe: the same
    true, false, true, true, true, true, false, true, true, true, // hex, HEX
    true, true, // md5: hex, HEX, base64 unpadded, URL-safe, padded; then sha1, sha256, sha512
    true, false, true, false, false, true, false, true, false, false, true, false, true, false, false, true, false, true, false, false,
];

#[cfg(test)]
fn forms_of(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let mut out = vec![s.to_uppercase(), s.to_lowercase(), html_go(s), html_named(s)];
    let url = urlencode(s, false, true);
    out.push(url.replace('+', "%20"));
    out.push(url);
    out.push(urlencode(s, true, true).replace('+', "%20"));
    out.push(urlencode(s, true, true));
    for alphabet in [STD, URL] {
        let padded = base64(b, alphabet, true);
        out.push(padded.trim_end_matches('=').to_string());
        out.push(padded);
        // Inside a longer base64 string (`base64encode("user:${pw}")`); empty
        // (dropped) when too short to tell.
        for align in 0..3 {
            out.push(base64_core(b, align, alphabet).unwrap_or_default());
        }
    }
    out.push(hex(b));
    out.push(hex(b).to_uppercase());
    let digests: [Vec<u8>; 4] =
        [md5::Md5::digest(b).to_vec(), sha1::Sha1::digest(b).to_vec(), sha2::Sha256::digest(b).to_vec(), sha2::Sha512::digest(b).to_vec()];
    for d in digests {
        out.push(hex(&d));
        out.push(hex(&d).to_uppercase());
        let b64 = base64(&d, STD, true);
        out.push(b64.trim_end_matches('=').to_string());
        out.push(base64(&d, URL, false));
        out.push(b64);
    }
    out
}

/// The lines of a multi-line secret that are long enough to be secrets on
/// their own (without their `\r`, and without surrounding blanks).
pub(crate) fn lines(s: &str) -> Vec<String> {
    if !s.contains('\n') {
        return Vec::new();
    }
    s.split('\n').map(|l| l.trim()).filter(|l| l.chars().count() >= MIN_LINE).map(str::to_string).collect()
}

#[cfg(test)]
/// Lower-case hex of `b`.
fn hex(b: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(b.len() * 2);
    for &x in b {
        out.push(DIGITS[usize::from(x >> 4)] as char);
        out.push(DIGITS[usize::from(x & 15)] as char);
    }
    out
}

#[cfg(test)]
/// `b` in base64 with `alphabet`, `=`-padded when `pad`.
fn base64(b: &[u8], alphabet: &[u8; 64], pad: bool) -> String {
    let mut out = String::with_capacity(b.len().div_ceil(3) * 4);
    for chunk in b.chunks(3) {
        let n = (u32::from(chunk[0]) << 16) | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8) | u32::from(*chunk.get(2).unwrap_or(&0));
        let chars = chunk.len() + 1;
        for i in 0..4 {
            if i < chars {
                out.push(alphabet[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
/// The base64 characters that depend on `b` alone when `b` starts `align`
/// bytes into a 3-byte group of a longer string: whatever comes before and
/// after it, a base64 string holding `b` at such a place holds these
/// characters. `None` when they are too few to tell.
fn base64_core(b: &[u8], align: usize, alphabet: &[u8; 64]) -> Option<String> {
    let mut padded = vec![0u8; align];
    padded.extend_from_slice(b);
    padded.extend_from_slice(&[0, 0]);
    let enc = base64(&padded, alphabet, false).into_bytes();
    // Bits of `b`: [8 align, 8 (align + len)); character i covers [6i, 6i + 6).
    let (start, end) = (8 * align, 8 * (align + b.len()));
    let first = start.div_ceil(6);
    let last = (end / 6).checked_sub(1)?;
    if last < first || last + 1 - first < MIN_CORE {
        return None;
    }
    String::from_utf8(enc.get(first..=last)?.to_vec()).ok()
}

#[cfg(test)]
/// URL encoding: every byte but the unreserved `A-Za-z0-9-_.~` as `%XX`
/// (`lower`: `%xx`), a space as `+` when `plus` (Go's `url.QueryEscape`;
/// Terraform's `urlencode` then writes `+` as `%20`).
fn urlencode(s: &str, lower: bool, plus: bool) -> String {
    let mut out = String::with_capacity(s.len() * 3);
    for &b in s.as_bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            b' ' if plus => out.push('+'),
            _ if lower => out.push_str(&format!("%{b:02x}")),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
/// HTML escaping as Go's `html.EscapeString` writes it.
fn html_go(s: &str) -> String {
    html(s, "&#34;", "&#39;")
}

#[cfg(test)]
/// HTML escaping with named entities (`&quot;`, `&#x27;`).
fn html_named(s: &str) -> String {
    html(s, "&quot;", "&#x27;")
}

#[cfg(test)]
fn html(s: &str, quot: &str, apos: &str) -> String {
    let mut out = String::new();
    html_into(s, quot, apos, &mut out);
    out
}

/// Hex of `b` (upper-case digits when `upper`) appended to `out`.
fn hex_into(b: &[u8], upper: bool, out: &mut String) {
    let digits: &[u8; 16] = if upper { b"0123456789ABCDEF" } else { b"0123456789abcdef" };
    out.reserve(b.len() * 2);
    for &x in b {
        out.push(char::from(digits[usize::from(x >> 4)]));
        out.push(char::from(digits[usize::from(x & 15)]));
    }
}

/// `b` in base64 with `alphabet`, `=`-padded when `pad`, appended to `out`.
fn base64_into(b: &[u8], alphabet: &[u8; 64], pad: bool, out: &mut String) {
    out.reserve(b.len().div_ceil(3) * 4);
    let at = |n: u32, i: u32| char::from(alphabet[((n >> (18 - 6 * i)) & 63) as usize]);
    let mut chunks = b.chunks_exact(3);
    for c in &mut chunks {
        let n = (u32::from(c[0]) << 16) | (u32::from(c[1]) << 8) | u32::from(c[2]);
        out.extend([at(n, 0), at(n, 1), at(n, 2), at(n, 3)]);
    }
    match *chunks.remainder() {
        [x] => {
            let n = u32::from(x) << 16;
            out.extend([at(n, 0), at(n, 1)]);
            if pad {
                out.push_str("==");
            }
        }
        [x, y] => {
            let n = (u32::from(x) << 16) | (u32::from(y) << 8);
            out.extend([at(n, 0), at(n, 1), at(n, 2)]);
            if pad {
                out.push('=');
            }
        }
        _ => {}
    }
}

/// The base64 characters that depend on `b` alone when `b` starts `align`
/// bytes into a 3-byte group of a longer string: whatever comes before and
/// after it, a base64 string holding `b` at such a place holds these
/// characters. `None` when they are too few to tell. Written into `enc`
/// (`input` is room for the bytes encoded).
fn base64_core_into<'e>(b: &[u8], align: usize, alphabet: &[u8; 64], input: &mut Vec<u8>, enc: &'e mut String) -> Option<&'e str> {
    // Bits of `b`: [8 align, 8 (align + len)); character i covers [6i, 6i + 6).
    let (start, end) = (8 * align, 8 * (align + b.len()));
    let first = start.div_ceil(6);
    let last = (end / 6).checked_sub(1)?;
    if last < first || last + 1 - first < MIN_CORE {
        return None;
    }
    input.clear();
    input.resize(align, 0);
    input.extend_from_slice(b);
    input.extend_from_slice(&[0, 0]);
    enc.clear();
    base64_into(input, alphabet, false, enc);
    enc.get(first..=last)
}

/// URL encoding: every byte but the unreserved `A-Za-z0-9-_.~` as `%XX`
/// (`lower`: `%xx`), a space as `+` when `plus` (Go's `url.QueryEscape`)
/// else as `%20` (Terraform's `urlencode`), appended to `out`.
fn urlencode_into(b: &[u8], lower: bool, plus: bool, out: &mut String) {
    let digits: &[u8; 16] = if lower { b"0123456789abcdef" } else { b"0123456789ABCDEF" };
    out.reserve(b.len());
    for &c in b {
        match c {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => out.push(char::from(c)),
            b' ' if plus => out.push('+'),
            _ => out.extend(['%', char::from(digits[usize::from(c >> 4)]), char::from(digits[usize::from(c & 15)])]),
        }
    }
}

/// HTML escaping (`quot` and `apos` for the quotes) appended to `out`.
fn html_into(s: &str, quot: &str, apos: &str, out: &mut String) {
    out.reserve(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str(quot),
            '\'' => out.push_str(apos),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longest_base64_run_is_measured_up_to_enough() {
        let reference =
            |b: &[u8]| b.split(|c| !(c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/')).map(<[u8]>::len).max().unwrap_or(0);
        for text in ["", "-", "abc", "a-bc+/9", "x=yyyy zz", "é🔒aB9/+é", "aaaa-aaaaaaaa=aa", "==AZaz09+/=="] {
            assert_eq!(longest_base64_run(text.as_bytes(), usize::MAX), reference(text.as_bytes()), "{text:?}");
        }
        assert_eq!(longest_base64_run(b"ab-abcdefgh-abc", 5), 5, "stops at enough");
        assert_eq!(longest_base64_run(b"ab-abcd", 5), 4);
    }

    #[test]
    fn forms_are_those_terraform_functions_give() {
        // Values from `terraform console` (1.11) for "S3cret&Pass<word>!".
        let f = forms("S3cret&Pass<word>!");
        for want in [
            "UzNjcmV0JlBhc3M8d29yZD4h",                     // base64encode
            "S3cret%26Pass%3Cword%3E%21",                   // urlencode
            "S3CRET&PASS<WORD>!",                           // upper
            "s3cret&pass<word>!",                           // lower
            "S3cret&amp;Pass&lt;word&gt;!",                 // HTML
            "279152dd3ed0dd6fd96ae0fc142381fc",             // md5
            "+AXxS3lLl0OQNcKq3dlEbWC8G1z5aHLtTyZoVnDwf68=", // base64sha256
            "53336372657426506173733c776f72643e21",         // hex
        ] {
            assert!(f.iter().any(|x| x == want), "{want} missing from {f:?}");
        }
        assert!(forms("abc").is_empty());
        assert_eq!(base64(b"abcd", STD, true), "YWJjZA==");
        assert_eq!(base64(b"\xfb\xff", URL, false), "-_8");
        assert_eq!(hex(&sha2::Sha256::digest(b"abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    #[test]
    fn a_base64_core_is_found_in_any_longer_base64_string() {
        let secret = b"S3cret-Pass-123";
        for prefix in ["", "u", "us", "user:", "admin:xx"] {
            let whole = [prefix.as_bytes(), secret, b"@host"].concat();
            for alphabet in [STD, URL] {
                let enc = base64(&whole, alphabet, true);
                let cores: Vec<String> = (0..3).filter_map(|a| base64_core(secret, a, alphabet)).collect();
                assert_eq!(cores.len(), 3);
                assert!(cores.iter().any(|c| enc.contains(c.as_str())), "{prefix}: {enc} holds none of {cores:?}");
            }
        }
        // Too short to tell: no core.
        assert!(base64_core(b"abcd", 1, STD).is_none());
    }

    #[test]
    fn each_form_gives_the_reference_forms_in_order() {
        for s in
            ["S3cret&Pass<word>!", "abcd", "abc", "pw-12-secret-abcdef", "Straße Σ ΣΑΣ", "a b+c%d'e\"f", "\u{1f600}x\u{202e}yz", "ABCD", ""]
        {
            assert_eq!(tagged(s), tagged_reference(s), "{s:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn each_form_equals_the_reference(s in "\\PC{0,40}", t in proptest::collection::vec(proptest::num::u8::ANY, 0..40)) {
            proptest::prop_assert_eq!(tagged(&s), tagged_reference(&s));
            let t = String::from_utf8_lossy(&t);
            proptest::prop_assert_eq!(tagged(&t), tagged_reference(&t));
        }
    }

    #[test]
    fn each_digest_form_has_a_length_of_its_digest_alone() {
        for s in ["abcd", "S3cret&Pass<word>!", "Straße Σ ΣΑΣ"] {
            for d in Digest::ALL {
                let mut n = 0;
                each_digest_form(s, d, &mut Scratch::default(), |f, searched| {
                    n += 1;
                    assert_eq!(Digest::of_form(f.as_bytes()), Some(d), "{f}");
                    // Those looked for inside text: lower-case hex and standard base64, unpadded.
                    assert!(!searched || f.len() >= d.shortest() && f.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'+' || c == b'/'));
                });
                assert_eq!(n, 5);
            }
        }
        for len in [0, 8, 21, 23, 33, 63, 65, 127, 129] {
            assert_eq!(Digest::of_form_len(len), None, "{len}");
        }
        // Of a digest form's length but not of its characters.
        for f in [
            "value-0-1-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "279152dd3ed0dd6fd96ae0fc142381fg",
            "abc=defghijklmnopqrstuvw",
            "a+b-cdefghijklmnopqrstu",
        ] {
            assert_eq!(Digest::of_form(f.as_bytes()), None, "{f}");
        }
    }

    #[test]
    fn lines_of_a_multi_line_secret() {
        assert_eq!(lines("-----BEGIN-----\r\nMIIEabcdefgh\nshort\n"), vec!["-----BEGIN-----", "MIIEabcdefgh"]);
        assert!(lines("one line only").is_empty());
    }
}
