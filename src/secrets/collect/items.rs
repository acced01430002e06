//! The members of one JSON container found over the structural index
//! ([`crate::index`]): each 64-byte run classified at once, and only the
//! tokens at the container's own level (its keys' quotes, its colons and
//! commas, its brackets) looked at ([`items`]). The secret walk splits each
//! marked value into the members its marker names with it.

use crate::index::{blanks, is_json_ws, Carry, Lexes};

/// Where [`items`] stands at the container's own level.
#[derive(Clone, Copy)]
enum At {
    /// An object's key is next (or, before the first, its close).
    Key { first: bool },
    /// In a key, which starts here.
    InKey(usize),
    /// Past a key (this span), its colon next.
    Colon(usize, usize),
    /// In a value starting here (after the blanks), of this key (objects).
    Value { key: Option<(usize, usize)>, start: usize, first: bool },
}

/// The items of the container `text` holds (after blanks), opened by
/// `open` (`{` or `[`), in order, each given to `f` as its key (`""` for an
/// array's items) and its value's text: `Some(true)`. `Some(false)` when
/// `text` is no such container; `None` when the walk meets what it does not
/// expect (a key holding an escape, text that is not JSON): the caller asks
/// serde_json instead. On valid JSON the items are serde_json's (the tests
/// hold it to the byte-by-byte walk it replaced, and to serde_json).
pub(super) fn items<'t>(text: &'t str, open: u8, mut f: impl FnMut(&'t str, &'t str)) -> Option<bool> {
    let t = text.as_bytes();
    let n = t.len();
    let start = blanks(t, 0);
    if t.get(start) != Some(&open) {
        return Some(false);
    }
    let object = open == b'{';
    let mut at = At::Key { first: true };
    let mut depth = 0usize;
    let mut carry = Carry::default();
    let mut pos = start;
    let mut padded = [b' '; 64];
    // The item ending just before `end` (a comma or the close): given to `f`,
    // or `Err` when it is empty.
    let mut emit = |key: Option<(usize, usize)>, from: usize, end: usize| -> Result<(), ()> {
        let mut e = end;
        while e > from && is_json_ws(t[e - 1]) {
            e -= 1;
        }
        let key = match key {
            Some((a, b)) => text.get(a..b).ok_or(())?,
            None => "",
        };
        match text.get(from..e) {
            Some(v) if !v.is_empty() => {
                f(key, v);
                Ok(())
            }
            _ => Err(()),
        }
    };
    while pos < n {
        let run: &[u8; 64] = match t.get(pos..pos + 64).and_then(|r| <&[u8; 64]>::try_from(r).ok()) {
            Some(r) => r,
            None => {
                // The last run, padded with blanks (which hold no token).
                padded[..n - pos].copy_from_slice(&t[pos..]);
                &padded
            }
        };
        let l = Lexes::of(run);
        let was_inside = carry.inside & 1;
        let b = carry.block(l.classes);
        // Inside strings: opening quotes included, closing ones not (an
        // escaped quote is inside, as is the byte before it).
        let opening = l.classes.quote & b.inside & !(b.inside << 1 | was_inside);
        let closing = l.classes.quote & !b.inside;
        let punct = l.punct & !b.inside;
        let mut tokens = opening | closing | punct | b.open | b.close;
        while tokens != 0 {
            let k = tokens.trailing_zeros() as usize;
            tokens &= tokens - 1;
            let bit = 1u64 << k;
            let p = pos + k;
            if b.open & bit != 0 {
                depth += 1;
                match (depth, at) {
                    (1, _) if !object => at = At::Value { key: None, start: blanks(t, p + 1), first: true },
                    (1, _) => {}
                    // A container as a value of ours, or deeper.
                    (2, At::Value { .. }) | (3.., _) => {}
                    _ => return None,
                }
                continue;
            }
            if depth > 1 {
                if b.close & bit != 0 {
                    depth -= 1;
                }
                continue; // a token of a value of ours
            }
            if depth == 0 {
                return None; // before the container: not JSON
            }
            let c = t[p];
            at = match (at, c) {
                (At::Key { .. }, b'"') if opening & bit != 0 => At::InKey(p + 1),
                (At::InKey(a), b'"') => {
                    if t[a..p].contains(&b'\\') {
                        return None; // `k\u0041` is `kA`: serde_json says which key it is
                    }
                    At::Colon(a, p)
                }
                (At::Colon(a, z), b':') => At::Value { key: Some((a, z)), start: blanks(t, p + 1), first: false },
                // A string value's quotes.
                (At::Value { .. }, b'"') => at,
                (At::Value { key, start, .. }, b',') => {
                    emit(key, start, p).ok()?;
                    if object {
                        At::Key { first: false }
                    } else {
                        At::Value { key: None, start: blanks(t, p + 1), first: false }
                    }
                }
                (At::Value { key, start, first }, b']' | b'}') => {
                    // `[]` is no item; an empty item anywhere else is no JSON.
                    if !(first && !object && start == p) {
                        emit(key, start, p).ok()?;
                    }
                    return (c == open + 2).then_some(true);
                }
                (At::Key { first: true }, b'}') if object => return Some(true),
                _ => return None,
            };
        }
        pos += 64;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::raw_items;
    use super::*;

    /// What both walks and serde_json say of `text`: equal on valid JSON.
    fn agree(text: &str) -> Result<(), String> {
        for open in [b'{', b'['] {
            let (mut new, mut old) = (Vec::new(), Vec::new());
            let a = items(text, open, |k, v| new.push((k.to_string(), v.to_string())));
            let b = raw_items(text, open, |k, v| old.push((k.to_string(), v.to_string())));
            if (a, &new) != (b, &old) {
                return Err(format!("{text:?} {}: {a:?} {new:?} vs {b:?} {old:?}", open as char));
            }
            if a == Some(true) {
                let want: Vec<String> = if open == b'{' {
                    let m: serde_json::Map<String, serde_json::Value> = serde_json::from_str(text).map_err(|e| e.to_string())?;
                    m.keys().cloned().collect()
                } else {
                    let v: Vec<&serde_json::value::RawValue> = serde_json::from_str(text).map_err(|e| e.to_string())?;
                    v.iter().map(|_| String::new()).collect()
                };
                let keys: Vec<String> = new.iter().map(|(k, _)| k.clone()).collect();
                if open == b'[' && keys != want
                    || open == b'{' && keys.iter().collect::<std::collections::BTreeSet<_>>().len() != want.len()
                {
                    return Err(format!("{text:?}: {keys:?} vs serde's {want:?}"));
                }
            }
        }
        Ok(())
    }

    #[test]
    fn items_are_the_byte_walks_on_edge_cases() {
        let long = "x".repeat(70);
        for text in [
            "{}".to_string(),
            " { } ".into(),
            "[]".into(),
            " [ ] ".into(),
            r#" { "a" : 1 , "b":[1,{"c":"}"}],"d":"x\"y","e":{"f":[]},"g":null,"h":-1.5e3 } "#.into(),
            r#"{"a":"é€😀","b":{"c":"]"},"a":true}"#.into(),
            r#"{"k\u0041":1}"#.into(),
            r#"[ 1 , "a,]" , [ [ ] ] , {"x":[1]} , true ]"#.into(),
            r#""text""#.into(),
            "17".into(),
            format!(r#"{{"{long}":"{long}\\\\","q":"\"{long}\\\"","z":[{{"y":"{long}"}}]}}"#),
            format!(r#"["{long}\"", "\\\\", {{"{long}": [1, 2, 3]}}, "{long}"]"#),
        ] {
            if text.starts_with(['{', '[']) {
                serde_json::from_str::<serde_json::Value>(&text).unwrap();
            }
            agree(&text).unwrap();
        }
        // Not JSON: never a wrong split (either walk may leave it to serde_json).
        for text in ["{\"a\":}", "[1,]", "[,1]", "{\"a\" 1}", "{\"a\":1,}", "{\"a\":1", "[1 2", "{:1}", "{1:2}", "[\"a]"] {
            let mut got = Vec::new();
            let a = items(text, text.as_bytes()[0], |k, v| got.push((k, v)));
            assert_ne!(a, Some(true), "{text}: {got:?}");
        }
    }

    /// JSON values, a few levels deep, with escapes and long strings that
    /// cross the 64-byte runs.
    fn json() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::Bool),
            any::<i64>().prop_map(|n| serde_json::json!(n)),
            any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(|f| serde_json::json!(f)),
            "[a-z\"\\\\/\u{0}-\u{1f}é€😀]{0,12}".prop_map(serde_json::Value::String),
            "[ax\"\\\\]{50,90}".prop_map(serde_json::Value::String),
        ];
        leaf.prop_recursive(4, 40, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
                proptest::collection::btree_map("[a-z\"\\\\]{0,6}", inner, 0..6)
                    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        #[test]
        fn items_are_the_byte_walks_and_serde_jsons_on_any_value(v in json(), pad in 0usize..70, pretty: bool) {
            let body = if pretty { serde_json::to_string_pretty(&v).unwrap() } else { serde_json::to_string(&v).unwrap() };
            // Padding moves the value across the 64-byte runs.
            let text = format!("{}{body} ", " ".repeat(pad));
            proptest::prop_assert_eq!(agree(&text), Ok(()));
        }
    }
}
