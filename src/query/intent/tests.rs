//! The canonical model's unit tests: what counts, what is masked, how two models compare.

use super::*;
use serde_json::json;

fn intent(plan: &str) -> Intent {
    let doc = crate::read::parse("p", plan.as_bytes()).unwrap();
    let masker = Masker::collect(&doc);
    intent_of(&doc, &masker).unwrap()
}

fn plan(rc: &str) -> String {
    format!(r#"{{"format_version":"1.2","terraform_version":"1.11.4","timestamp":"2025-01-01T00:00:00Z","resource_changes":[{rc}]}}"#)
}

const UPDATE: &str = r#"{"address":"a.b","mode":"managed","type":"a","name":"b","change":{"actions":["update"],"before":{"x":1,"id":"i"},"after":{"x":2},"after_unknown":{"id":true}}}"#;

#[test]
fn timestamp_version_key_order_and_number_form_do_not_count() {
    let a = intent(&plan(UPDATE));
    let reordered = r#"{"terraform_version":"1.12.0","timestamp":"2030-01-01T00:00:00Z","format_version":"1.2","resource_changes":[{"change":{"after_unknown":{"id":true},"after":{"x":2.0},"before":{"id":"i","x":10e-1},"actions":["update"]},"name":"b","type":"a","mode":"managed","address":"a.b"}]}"#;
    let b = intent(reordered);
    assert_eq!(a.fingerprint(), b.fingerprint());
    assert!(compare(&a, &b).same);
    // The unknown position counts as unknown whatever the JSON holds there.
    let c = intent(&plan(&UPDATE.replace(r#""after":{"x":2}"#, r#""after":{"x":2,"id":"whatever"}"#)));
    assert_eq!(a.fingerprint(), c.fingerprint());
}

#[test]
fn a_changed_value_is_a_difference_at_its_path() {
    let a = intent(&plan(UPDATE));
    let b = intent(&plan(&UPDATE.replace(r#""after":{"x":2}"#, r#""after":{"x":3}"#)));
    assert_ne!(a.fingerprint(), b.fingerprint());
    let c = compare(&a, &b);
    assert!(!c.same);
    assert_eq!(c.counts, DiffCounts { added: 0, gone: 0, changed: 1 });
    let f = &c.entries[0].fields[0];
    assert_eq!(
        (f.path_text.as_str(), f.old.clone(), f.new.clone()),
        ("after.x", Some(Shown::Value("2".into())), Some(Shown::Value("3".into())))
    );
}

#[test]
fn secrets_are_compared_by_hash_and_never_shown() {
    let rc = |v: &str| {
        format!(
            r#"{{"address":"a.b","mode":"managed","type":"a","name":"b","change":{{"actions":["create"],"after":{{"p":"{v}"}},"after_sensitive":{{"p":true}}}}}}"#
        )
    };
    let (a, b, c) = (intent(&plan(&rc("hunter22"))), intent(&plan(&rc("hunter22"))), intent(&plan(&rc("hunter23"))));
    assert_eq!(a.fingerprint(), b.fingerprint());
    // No key in the tests' environment: no per-secret material is printed
    // or fingerprinted, so a guess cannot be tested against either.
    assert!(!keyed());
    assert_eq!(a.fingerprint(), c.fingerprint());
    let text = String::from_utf8(canonical_bytes(&a.canonical())).unwrap();
    assert_eq!(text, String::from_utf8(canonical_bytes(&c.canonical())).unwrap());
    assert!(!text.contains("hunter22") && text.contains("\"$sensitive\":true"), "{text}");
    let d = compare(&a, &c);
    let f = &d.entries[0].fields[0];
    assert_eq!((f.old.clone(), f.new.clone()), (Some(Shown::Sensitive), Some(Shown::Sensitive)));
    assert_eq!(f.note.as_deref(), Some("the sensitive value differs"));
    assert!(!format!("{d:?}").contains("hunter2"));
}

#[test]
fn hmac_sha256_is_rfc_4231() {
    let hex = |d: [u8; 32]| d.iter().map(|b| format!("{b:02x}")).collect::<String>();
    assert_eq!(
        hex(hmac(b"Jefe", &[b"what do ya want ", b"for nothing?"])),
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    );
    // A key longer than a block is hashed first (test case 6).
    assert_eq!(
        hex(hmac(&[0xaa; 131], &[b"Test Using Larger Than Block-Size Key - Hash Key First"])),
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
    );
}

#[test]
fn secret_map_keys_are_numbered_without_a_key() {
    let v: Value = serde_json::json!({"m": {"$sensitive:run:ab": {"$sensitive": "run:cd"}, "$sensitive:run:00": 2, "$$x": 1}});
    assert_eq!(public(&v), serde_json::json!({"m": {"$sensitive:1": 2, "$sensitive:2": {"$sensitive": true}, "$$x": 1}}));
}

#[test]
fn action_invocations_count() {
    let with = |inv: &str| {
        let doc = format!(r#"{{"format_version":"1.2","resource_changes":[],"action_invocations":[{inv}]}}"#);
        intent(&doc)
    };
    let none = intent(r#"{"format_version":"1.2","resource_changes":[]}"#);
    let a = with(
        r#"{"address":"action.x.y","type":"x","name":"y","config_values":{"p":"1"},"config_sensitive":{},"invoke_action_trigger":{}}"#,
    );
    let b = with(
        r#"{"address":"action.x.y","type":"x","name":"y","config_values":{"p":"2"},"config_sensitive":{},"invoke_action_trigger":{}}"#,
    );
    let c = with(r#"{"type":"x"}"#);
    let fps = [&none, &a, &b, &c].map(|i| i.fingerprint());
    for i in 0..4 {
        for j in i + 1..4 {
            assert_ne!(fps[i], fps[j], "{i} {j}");
        }
    }
    let d = compare(&none, &a);
    assert!(!d.same);
    assert_eq!((d.entries[0].section, d.entries[0].address.as_str(), d.entries[0].status), (Section::Action, "action.x.y", Status::Added));
    assert!(!compare(&a, &b).same);
    // Its sensitive configuration is hashed, never shown.
    let s = with(r#"{"address":"action.x.y","config_values":{"p":"pin-1234"},"config_sensitive":{"p":true}}"#);
    let text = String::from_utf8(canonical_bytes(&s.canonical())).unwrap();
    assert!(!text.contains("pin-1234") && text.contains("$sensitive"), "{text}");
}

#[test]
fn a_key_like_a_marker_cannot_pass_for_one() {
    let rc = |after: &str, unknown: &str| {
        format!(
            r#"{{"address":"a.b","mode":"managed","type":"a","name":"b","change":{{"actions":["create"],"after":{after},"after_unknown":{unknown}}}}}"#
        )
    };
    let real = intent(&plan(&rc(r#"{"m":{"$unknown":true}}"#, "{}")));
    let unknown = intent(&plan(&rc("{}", r#"{"m":true}"#)));
    assert_ne!(real.fingerprint(), unknown.fingerprint());
    assert!(!compare(&real, &unknown).same);
}

#[test]
fn moves_are_followed_by_previous_address() {
    let old = intent(&plan(UPDATE));
    let moved = UPDATE.replace(r#""address":"a.b""#, r#""address":"a.c","previous_address":"a.b""#);
    let new = intent(&plan(&moved));
    let c = compare(&old, &new);
    assert_eq!(c.counts, DiffCounts { added: 0, gone: 0, changed: 1 });
    assert_eq!(c.entries[0].old_address.as_deref(), Some("a.b"));
    assert_eq!(c.entries[0].fields[0].field, "address");
    // Gone and added when nothing links them.
    let other = intent(&plan(&UPDATE.replace(r#""address":"a.b""#, r#""address":"a.d""#)));
    assert_eq!(compare(&old, &other).counts, DiffCounts { added: 1, gone: 1, changed: 0 });
}

#[test]
fn numbers_are_written_by_exact_value() {
    for (a, b) in [("1.0", "1"), ("10e-1", "1"), ("0.50", "0.5"), ("-0.0", "0"), ("1e3", "1000"), ("1e400", "1e+400"), ("0.001", "0.001")] {
        assert_eq!(canonical_bytes(&number(a)), b.as_bytes(), "{a}");
    }
    assert_eq!(canonical_bytes(&json!({"b": 1, "a": [true, null, "x"]})), br#"{"a":[true,null,"x"],"b":1}"#);
}

/// A small random JSON value (`depth` levels at most) from `next`'s numbers:
/// keys and strings from a few that matter (secrets, `$` keys, a marker's
/// own key), numbers in several forms of one value.
fn random_value(next: &mut impl FnMut() -> u64, depth: u32) -> Value {
    const WORDS: [&str; 8] = ["a", "b", "$x", "$sensitive", "hunter2-long-secret", "tiny", "x hunter2-long-secret y", "zz"];
    const NUMBERS: [&str; 5] = ["1", "1.0", "10e-1", "42", "-0.5"];
    match next() % if depth == 0 { 5 } else { 8 } {
        0 => Value::Null,
        1 => Value::Bool(next() % 2 == 0),
        2 => serde_json::from_str(NUMBERS[(next() % 5) as usize]).unwrap(),
        3 | 4 => Value::String(WORDS[(next() % 8) as usize].to_string()),
        5 | 6 => {
            Value::Object((0..next() % 4).map(|_| (WORDS[(next() % 8) as usize].to_string(), random_value(next, depth - 1))).collect())
        }
        _ => Value::Array((0..next() % 4).map(|_| random_value(next, depth - 1)).collect()),
    }
}

/// A marker over `v`: mostly following its shape, sometimes not (a misplaced
/// marker, a string where a boolean belongs, an extra key).
fn random_marker(next: &mut impl FnMut() -> u64, v: &Value) -> Value {
    match (next() % 10, v) {
        (0, _) => Value::Bool(true),
        (1, _) => Value::Bool(false),
        (2, _) => json!("yes"),
        (3, _) => json!({"extra": true, "$x": [true]}),
        (4, _) => json!([false, true]),
        (_, Value::Object(o)) => {
            let mut m = serde_json::Map::new();
            for (k, x) in o {
                if next() % 3 > 0 {
                    m.insert(k.clone(), random_marker(next, x));
                }
            }
            Value::Object(m)
        }
        (_, Value::Array(a)) => Value::Array(a.iter().map(|x| random_marker(next, x)).collect()),
        _ => json!({}),
    }
}

#[test]
fn the_writer_writes_the_trees_bytes() {
    let mut masker = Masker::default();
    for s in ["hunter2-long-secret", "tiny", "$x", "42"] {
        masker.add(s);
    }
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state >> 8
    };
    let mut secret_keys = 0;
    for _ in 0..4000 {
        let v = random_value(&mut next, 4);
        let s = (next() % 3 > 0).then(|| random_marker(&mut next, &v));
        let u = (next() % 3 > 0).then(|| random_marker(&mut next, &v));
        let v = (next() % 8 > 0).then_some(v);
        for hashes in [true, false] {
            let tree = write::by_tree(v.as_ref(), s.as_ref(), u.as_ref(), &masker, hashes);
            let written = write::by_writer(v.as_ref(), s.as_ref(), u.as_ref(), &masker, hashes);
            assert_eq!(String::from_utf8_lossy(&written), String::from_utf8_lossy(&tree), "{v:?} {s:?} {u:?} hashes={hashes}");
            secret_keys += usize::from(tree.windows(13).any(|w| w == b"\"$sensitive:1"));
        }
    }
    // The cases that matter were met: map keys that are secrets.
    assert!(secret_keys > 20, "{secret_keys}");
}
