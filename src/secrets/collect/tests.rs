//! The secret collector's and masker's tests.

use super::*;
use crate::read::parse;
use crate::secrets::scrub::terraform_key_form;

const PLAN: &str = r#"{"format_version":"1.2",
  "variables":{"pw":{"value":"var-secret-123456"},"name":{"value":"public"}},
  "configuration":{"root_module":{"variables":{"pw":{"sensitive":true},"name":{}}}},
  "resource_changes":[{"address":"terraform_data.x","mode":"managed","change":{"actions":["update"],
     "before":{"input":"old-secret-abcdef","output":"old-secret-abcdef","tags":{"a":"visible"}},
     "after":{"input":{"user":"admin","password":"nested-pw-999999"},"output":null},
     "before_sensitive":{"input":true},"after_sensitive":{"input":{"password":true}}}}],
  "output_changes":{"o":{"actions":["create"],"after":"out-secret-zzzzzz","after_sensitive":true}},
  "prior_state":{"values":{"outputs":{"s":{"value":"short","sensitive":true}},
     "root_module":{"resources":[{"address":"a.b","values":{"k":"prior-secret-1"},"sensitive_values":{"k":true}}]}}}}"#;

#[test]
fn raw_items_finds_what_serde_finds() {
    let objects = [
        r#"{}"#,
        r#" { "a" : 1 , "b":[1,{"c":"}"}],"d":"x\"y","e":{"f":[]},"g":null,"h":-1.5e3 } "#,
        r#"{"a":"é€😀","b":{"c":"]"},"a":true}"#,
        r#"{"k\u0041":1}"#,
        r#"[1,2]"#,
        r#""text""#,
    ];
    for text in objects {
        let mut got = Vec::new();
        let walked = raw_items(text, b'{', |k, v| got.push((k.to_string(), v.to_string())));
        match serde_json::from_str::<RawMembers<'_>>(text) {
            Ok(m) => {
                let want: Vec<(String, String)> = m.0.iter().map(|(k, v)| (k.to_string(), v.get().to_string())).collect();
                assert!(walked.is_none() || (walked == Some(true) && got == want), "{text}: {got:?} vs {want:?}");
            }
            Err(_) => assert_ne!(walked, Some(true), "{text}"),
        }
    }
    for text in [r#"[]"#, r#"[ 1 , "a,]" , [ [ ] ] , {"x":[1]} , true ]"#, r#"{"a":1}"#] {
        let mut got = Vec::new();
        let walked = raw_items(text, b'[', |_, v| got.push(v.to_string()));
        match serde_json::from_str::<Vec<&RawValue>>(text) {
            Ok(items) => {
                let want: Vec<String> = items.iter().map(|v| v.get().to_string()).collect();
                assert_eq!((walked, got), (Some(true), want), "{text}");
            }
            Err(_) => assert_eq!(walked, Some(false), "{text}"),
        }
    }
}

#[test]
fn secrets_are_collected_from_every_place() {
    let doc = parse("p", PLAN.as_bytes()).unwrap();
    let m = Masker::collect(&doc);
    for s in ["var-secret-123456", "old-secret-abcdef", "nested-pw-999999", "out-secret-zzzzzz", "short", "prior-secret-1"] {
        assert!(m.is_secret(s), "{s} not collected");
    }
    assert!(!m.is_secret("admin"), "unmarked sibling collected");
    assert!(!m.is_secret("visible"));
    assert!(!m.is_secret("public"));
}

#[test]
fn secrets_marked_in_deferred_changes_are_collected() {
    let plan = r#"{"format_version":"1.2","resource_changes":[],"deferred_changes":[{"reason":"provider_config_unknown",
        "resource_change":{"address":"a.b","change":{"actions":["create"],"after":{"pw":"deferred-secret"},"after_sensitive":{"pw":true}}}}]}"#;
    let m = Masker::collect(&parse("p", plan.as_bytes()).unwrap());
    assert!(m.is_secret("deferred-secret"));
}

#[test]
fn scrub_masks_long_secrets_in_every_escaped_form() {
    let mut m = Masker::default();
    m.add("pass\"word|*x1");
    m.add("tiny");
    let s = m.scrubber();
    // As is and JSON-escaped; markdown escaping comes after masking (left alone here).
    let out = s.scrub(br#"a pass"word|*x1 b "pass\"word|*x1" c pass"word\|\*x1 tiny"#);
    let out = String::from_utf8(out.into_owned()).unwrap();
    assert_eq!(out, r#"a (sensitive value) b "(sensitive value)" c pass"word\|\*x1 tiny"#);
}

#[test]
fn short_secrets_only_are_never_looked_for_inside_strings() {
    // (Shorter than 4 characters: no derived forms either.)
    let mut m = Masker::default();
    m.add("tny");
    assert!(m.long.get().is_none());
    assert!(!m.value_holds_secret(&serde_json::json!(["a tny thing", {"k": "tnytny"}])));
    assert!(matches!(m.long.get(), Some(Long::NoSecrets)));
    assert!(m.value_holds_secret(&serde_json::json!({"k": ["tny"]})));
}

#[test]
fn the_scrubber_is_built_once_per_set_of_secrets() {
    let mut m = Masker::default();
    m.add("plain-secret-123");
    let (a, b) = (m.scrubber(), m.scrubber());
    assert!(m.scrub.get().is_some());
    assert_eq!(&*a.scrub(b"x plain-secret-123 y"), b"x (sensitive value) y".as_slice());
    assert_eq!(&*b.scrub(b"plain-secret-123"), MASK.as_bytes());
    m.add("another-secret-456");
    assert!(m.scrub.get().is_none(), "adding a secret drops the old scrubber");
    assert_eq!(&*m.scrubber().scrub(b"another-secret-456"), MASK.as_bytes());
}

#[test]
fn scrub_masks_a_secret_with_bidi_or_c1_in_its_json_escaped_form() {
    let mut m = Masker::default();
    let secret = "pass\u{202e}word\u{9b}x";
    m.add(secret);
    let mut json = Vec::new();
    crate::render::write_json(&mut json, &serde_json::json!({"v": secret, "w": format!("db://u:{secret}@h")})).unwrap();
    let out = String::from_utf8(m.scrubber().scrub(&json).into_owned()).unwrap();
    assert!(!out.contains("word"), "{out}");
    assert_eq!(out.matches(MASK).count(), 2, "{out}");
}

#[test]
fn scrub_masks_a_secret_quoted_in_an_address_key_json_or_terminal_text() {
    let secret = "tok\"|*_`<>${x}%{y}\\\u{202e}\u{1b}[1m\u{9b}end";
    let mut m = Masker::default();
    m.add(secret);
    let sc = m.scrubber();
    let key = terraform_key_form(secret);
    assert_eq!(key, r#"tok\"|*_`<>$${x}%%{y}\\\u202e\u001b[1m\u009bend"#);
    let outputs = [
        format!("a.b[\"{key}\"] x"),
        crate::sanitize::line(&format!("a.b[\"{key}\"]")).into_owned(),
        crate::sanitize::line(&format!("a.b[{}]", crate::escape::hcl_quote(secret))).into_owned(),
        crate::sanitize::text(&format!("msg {secret} end")).into_owned(),
        // A JSON-quoted id inside text, as JSON and as terminal text.
        crate::escape::json_string(&format!("imported from {}", crate::escape::json_string(secret))),
        crate::sanitize::line(&format!("imported from {}", crate::escape::json_string(secret))).into_owned(),
    ];
    for o in outputs {
        let out = String::from_utf8(sc.scrub(o.as_bytes()).into_owned()).unwrap();
        assert!(!out.contains("tok") && out.contains(MASK), "{o} -> {out}");
    }
}

#[test]
fn a_secret_inside_a_jsonencoded_string_is_found_and_scrubbed_in_every_form() {
    let mut m = Masker::default();
    m.add("S3cret&Pass<word>!");
    // As Terraform's `jsonencode` writes it, decoded once (an attribute's value).
    let encoded = r#"{"password":"S3cret\u0026Pass\u003cword\u003e!","user":"svc"}"#;
    assert!(m.value_holds_secret(&Value::String(encoded.into())));
    let sc = m.scrubber();
    let json = crate::escape::json_string(encoded);
    for text in [encoded.to_string(), json.clone(), crate::sanitize::line(&json).into_owned()] {
        let out = String::from_utf8(sc.scrub(text.as_bytes()).into_owned()).unwrap();
        assert!(!out.contains("S3cret") && out.contains(MASK), "{text} -> {out}");
    }
}

#[test]
fn a_secret_with_a_quote_is_scrubbed_from_a_shell_quoted_word() {
    let mut m = Masker::default();
    m.add("it's-a-secret-1");
    let word = crate::render::moves::shell_quote(r#"a.b["it's-a-secret-1"]"#);
    let out = String::from_utf8(m.scrubber().scrub(word.as_bytes()).into_owned()).unwrap();
    assert!(!out.contains("secret-1"), "{word} -> {out}");
}

#[test]
fn sensitive_numbers_are_masked_as_whole_values_only() {
    let doc = parse(
        "p",
        br#"{"format_version":"1.2","resource_changes":[{"address":"a.b","change":{"actions":["update"],
          "before":{"pin":987654321,"flag":true},"after":{"pin":987654321},"before_sensitive":{"pin":true,"flag":true}}}]}"#,
    )
    .unwrap();
    let m = Masker::collect(&doc);
    assert!(m.value_holds_secret(&serde_json::json!({"copy": 987654321})));
    assert!(m.value_holds_secret(&serde_json::json!("987654321")), "tostring(pin)");
    assert!(!m.value_holds_secret(&serde_json::json!("order-987654321-x")), "never looked for inside text");
    assert!(!m.value_holds_secret(&serde_json::json!(98765432)));
    assert!(!m.value_holds_secret(&serde_json::json!(true)), "booleans are masked by marker only");
    assert_eq!(&*m.scrubber().scrub(b"id 987654321"), b"id 987654321".as_slice());
}

#[test]
fn a_marker_of_an_unexpected_shape_marks_the_whole_value() {
    for marker in [r#""yes""#, "1", r#"{"a":true}"#, r#"[true]"#, r#"{"x":"?"}"#] {
        let plan = format!(
            r#"{{"format_version":"1.2","resource_changes":[{{"address":"a.b","change":{{"actions":["create"],
              "after":"whole-secret-0001","after_sensitive":{marker}}}}}]}}"#
        );
        let m = Masker::collect(&parse("p", plan.as_bytes()).unwrap());
        assert!(m.is_secret("whole-secret-0001"), "marker {marker}");
    }
    for marker in ["false", "{}", "[]", r#"{"a":false}"#, "null"] {
        let plan = format!(
            r#"{{"format_version":"1.2","resource_changes":[{{"address":"a.b","change":{{"actions":["create"],
              "after":{{"a":"public-value-01"}},"after_sensitive":{marker}}}}}]}}"#
        );
        let m = Masker::collect(&parse("p", plan.as_bytes()).unwrap());
        assert!(m.is_empty(), "marker {marker} marks nothing");
    }
}

#[test]
fn the_start_of_a_secret_cut_short_is_masked() {
    let mut m = Masker::default();
    m.add("SuperSecretValue-42");
    let sc = m.scrubber();
    let scrub = |t: &str| String::from_utf8(sc.scrub(t.as_bytes()).into_owned()).unwrap();
    assert_eq!(scrub("| x | SuperSecre… |"), "| x | (sensitive value) |");
    assert_eq!(scrub("url=https://u:SuperSecretVal…"), "url=https://u:(sensitive value)");
    assert_eq!(scrub(&crate::query::values::truncate("token SuperSecretValue-42 and more", 12)), "token (sensitive value)");
    // Text that is not the start of a secret is left alone, as is a start too short to tell.
    assert_eq!(scrub("| abcdef… |"), "| abcdef… |");
    assert_eq!(scrub("| Su… | ü… |"), "| Su… | ü… |");
}

#[test]
fn derived_forms_of_a_secret_are_secrets() {
    let mut m = Masker::default();
    m.add("S3cret&Pass<word>!");
    m.add("4821");
    for v in [
        "UzNjcmV0JlBhc3M8d29yZD4h",                     // base64encode
        "UzNjcmV0JlBhc3M8d29yZD4h",                     // base64
        "https://u:S3cret%26Pass%3Cword%3E%21@h",       // urlencode inside a URL
        "Basic YWRtaW46UzNjcmV0JlBhc3M8d29yZD4h",       // base64 of "admin:" + secret
        "x s3cret&pass<word>! y",                       // lower, inside text
        "279152dd3ed0dd6fd96ae0fc142381fc",             // md5
        "+AXxS3lLl0OQNcKq3dlEbWC8G1z5aHLtTyZoVnDwf68=", // base64sha256
        "NDgyMQ==",                                     // base64 of the PIN
        "4821",                                         // the PIN
    ] {
        assert!(m.value_holds_secret(&Value::String(v.into())), "{v}");
    }
    // A short secret's short forms mask whole values only.
    assert!(!m.value_holds_secret(&Value::String("x NDgyMQ== y".into())) || "NDgyMQ==".len() >= MIN_SUBSTRING);
    assert!(!m.value_holds_secret(&Value::String("order 4821".into())));
    // Masked inside text taken from the input, planview's text around it kept.
    assert_eq!(m.mask_text("id=UzNjcmV0JlBhc3M8d29yZD4h;x"), "id=(sensitive value);x");
}

/// `is_secret` as it was: every form of every secret precomputed as a
/// `String` ([`crate::derive::tagged_reference`]) and its hash kept.
fn is_secret_reference(secrets: &[String], whole: &std::collections::HashSet<u64>, s: &str) -> bool {
    secrets.iter().any(|x| x == s) || whole.contains(&form_hash(s))
}

proptest::proptest! {
    #[test]
    fn is_secret_equals_the_precomputed_reference(
        secrets in proptest::collection::vec("\\PC{1,24}|[a-zA-Z0-9 &<>\"'+/=%-]{1,24}", 1..4),
        others in proptest::collection::vec("\\PC{0,30}|[0-9a-fA-F]{32}|[a-zA-Z0-9+/]{22,24}={0,2}", 0..6),
    ) {
        let mut m = Masker::default();
        secrets.iter().for_each(|s| m.add(s));
        let mut candidates: Vec<String> = others.clone();
        for s in &secrets {
            candidates.push(s.clone());
            candidates.extend(crate::derive::tagged_reference(s).into_iter().map(|(f, _)| f));
            // Near misses: a form with one character more or less.
            candidates.extend(crate::derive::tagged_reference(s).into_iter().map(|(f, _)| format!("{f}x")));
            candidates.extend(crate::derive::tagged_reference(s).into_iter().filter_map(|(f, _)| f.get(1..).map(str::to_string)));
        }
        let whole: std::collections::HashSet<u64> =
            secrets.iter().flat_map(|x| crate::derive::tagged_reference(x)).map(|(f, _)| form_hash(&f)).collect();
        for c in &candidates {
            proptest::prop_assert_eq!(m.is_secret(c), is_secret_reference(&secrets, &whole, c), "{:?} of {:?}", c, secrets);
        }
        // The substring search sees the same forms as before.
        let mut want: Vec<String> = secrets.iter().filter(|k| k.chars().count() >= MIN_SUBSTRING).cloned().collect();
        for s in &secrets {
            want.extend(crate::derive::tagged_reference(s).into_iter().filter(|(f, t)| *t && f.chars().count() >= MIN_SUBSTRING).map(|(f, _)| f));
            want.extend(crate::derive::lines(s));
        }
        want.sort();
        want.dedup();
        let mut got: Vec<String> = m.long_sources().map(str::to_string).collect();
        got.sort();
        got.dedup();
        proptest::prop_assert_eq!(got, want);
    }
}

proptest::proptest! {
    /// The substring search made digest by digest, when a string could hold
    /// one, finds what one search over every form found.
    #[test]
    fn a_form_inside_text_is_found_as_by_one_search_over_every_form(
        secrets in proptest::collection::vec("\\PC{1,24}|[a-zA-Z0-9 &<>\"'+/=%-]{4,24}", 1..4),
        around in proptest::collection::vec("[a-zA-Z0-9+/ :=_-]{0,12}", 2),
        others in proptest::collection::vec("\\PC{0,30}|[a-zA-Z0-9+/]{20,90}", 0..4),
    ) {
        let mut m = Masker::default();
        secrets.iter().for_each(|s| m.add(s));
        let mut forms: Vec<String> = secrets.iter().filter(|k| k.chars().count() >= MIN_SUBSTRING).cloned().collect();
        for s in &secrets {
            forms.extend(crate::derive::tagged_reference(s).into_iter().filter(|(f, t)| *t && f.chars().count() >= MIN_SUBSTRING).map(|(f, _)| f));
            forms.extend(crate::derive::lines(s));
        }
        let escaped: Vec<String> = forms.iter().flat_map(|f| {
            let json = crate::escape::json_string(f);
            [go_json_inner(f), json[1..json.len() - 1].to_string()]
        }).collect();
        forms.extend(escaped);
        let mut candidates = others.clone();
        for s in &secrets {
            for (f, _) in crate::derive::tagged_reference(s) {
                candidates.push(format!("{}{f}{}", around[0], around[1]));
                candidates.push(format!("{}{}", around[0], f.get(1..).unwrap_or_default()));
            }
        }
        for c in &candidates {
            let want = forms.iter().any(|f| c.contains(f.as_str()));
            proptest::prop_assert_eq!(m.long_secret_inside(c), want, "{:?} of {:?}", c, secrets);
        }
    }
}

#[test]
fn a_digest_is_made_only_for_a_value_that_could_be_one() {
    let mut m = Masker::default();
    m.add("S3cret&Pass<word>!");
    assert!(!m.value_holds_secret(&serde_json::json!({"a": "value-0-1-xxxxxxxxxx", "b": "plain text"})));
    assert!(m.derived().digests.iter().all(|d| d.get().is_none()), "no digest made");
    // A run of 30 base64 characters could hold MD5's or SHA-1's base64, no longer one.
    assert!(!m.value_holds_secret(&serde_json::json!("id-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")));
    let made: Vec<bool> = m.derived().digests.iter().map(|d| d.get().is_some()).collect();
    assert_eq!(made, [true, true, false, false]);
    // base64sha256, whole and inside text.
    assert!(m.is_secret("+AXxS3lLl0OQNcKq3dlEbWC8G1z5aHLtTyZoVnDwf68="));
    assert!(m.value_holds_secret(&serde_json::json!("sha=+AXxS3lLl0OQNcKq3dlEbWC8G1z5aHLtTyZoVnDwf68;")));
    assert!(m.is_secret("279152dd3ed0dd6fd96ae0fc142381fc"));
    assert!(m.is_secret("279152DD3ED0DD6FD96AE0FC142381FC"));
}

#[test]
fn each_long_line_of_a_multi_line_secret_is_a_secret() {
    let mut m = Masker::default();
    m.add("-----BEGIN KEY-----\nMIIEvQIBADANBgkq\nab\n-----END KEY-----\n");
    assert!(m.value_holds_secret(&Value::String("MIIEvQIBADANBgkq".into())));
    assert!(!m.value_holds_secret(&Value::String("ab".into())));
    assert_eq!(m.mask_text("line: MIIEvQIBADANBgkq"), "line: (sensitive value)");
}

#[test]
fn value_holds_secret_finds_whole_and_embedded() {
    let mut m = Masker::default();
    m.add("tiny");
    m.add("longsecret1");
    assert!(m.value_holds_secret(&serde_json::json!({"a": ["tiny"]})));
    assert!(m.value_holds_secret(&serde_json::json!("postgres://u:longsecret1@h")));
    assert!(!m.value_holds_secret(&serde_json::json!("a tiny dog")));
    // The matcher is rebuilt when a secret comes after it was first used.
    assert!(!m.value_holds_secret(&serde_json::json!("x-added-later-x")));
    m.add("added-later");
    assert!(m.value_holds_secret(&serde_json::json!("x-added-later-x")));
    let mut other = Masker::default();
    other.add("merged-secret");
    m.merge(&other);
    assert!(m.value_holds_secret(&serde_json::json!("a merged-secret b")));
}
