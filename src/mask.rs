//! Secrets: masking by marker and by value, in one place.
//!
//! The JSON holds sensitive values in clear text; markers say which, but
//! producers forget markers (Terraform 1.11's `terraform_data` copies a
//! sensitive `input` into an unmarked `output`). So every string that is
//! sensitive anywhere in the document is collected once ([`Masker::collect`]),
//! then masked wherever else it appears: as a whole value ([`Masker::is_secret`],
//! used by value renderers), and, when 8 characters or longer, as a substring of
//! anything printed ([`Masker::scrubber`], applied by `run` to the whole output of
//! every command and format).

use crate::input::{Document, StateDoc};
use crate::model::{Change, Plan, RawValue, ResourceChange, Values};
use aho_corasick::{AhoCorasick, MatchKind};
use serde_json::Value;
use std::borrow::Cow;
use std::collections::BTreeSet;

/// What replaces a secret.
pub const MASK: &str = "(sensitive value)";

/// Secrets shorter than this are masked only as whole values.
pub const MIN_SUBSTRING: usize = 8;

/// The set of secrets of one or more documents.
#[derive(Debug, Default, Clone)]
pub struct Masker {
    secrets: BTreeSet<String>,
    /// A matcher for the secrets of 8+ characters, built on first use (and
    /// dropped when secrets are added): finding one inside a string costs one
    /// pass over the string, however many secrets there are.
    long: std::sync::OnceLock<Long>,
    /// The output scrubber, built on first use (and dropped with `long`).
    scrub: std::sync::OnceLock<Scrubber>,
}

/// The substring matcher of a [`Masker`].
#[derive(Debug, Clone)]
enum Long {
    /// No secret is long enough to be looked for inside strings.
    NoSecrets,
    Matcher(AhoCorasick),
    /// The matcher could not be built: look for each secret in turn.
    Unbuilt,
}

impl Masker {
    /// Collect every sensitive string of a document: resource values under
    /// `before_sensitive`/`after_sensitive` (changes and drift), `sensitive_values`
    /// in planned values and prior state, sensitive outputs and output changes,
    /// and the values of variables declared `sensitive` in the configuration.
    pub fn collect(doc: &Document<'_>) -> Masker {
        let mut m = Masker::default();
        match doc {
            Document::Plan(p) => m.collect_plan(p),
            Document::State(s) => m.collect_state(s),
        }
        m
    }

    fn collect_plan(&mut self, p: &Plan<'_>) {
        for rc in p.resource_changes.iter().chain(p.resource_drift.iter()) {
            self.collect_change_of(rc);
        }
        for ch in p.output_changes.values() {
            self.collect_change(ch);
        }
        if let Some(raw) = p.deferred_changes {
            self.collect_deferred(raw);
        }
        if let Ok(Some(v)) = p.planned_values() {
            self.collect_values(&v);
        }
        if let Ok(Some(s)) = p.prior_state() {
            if let Some(v) = &s.values {
                self.collect_values(v);
            }
        }
        if let Ok(Some(c)) = p.configuration() {
            for name in c.root_module.sensitive_variables() {
                if let Some(v) = p.variables.get(name).and_then(|v| v.value) {
                    self.collect_marked(Some(v), Some(&Value::Bool(true)));
                }
            }
        }
    }

    /// `deferred_changes` (Terraform 1.9+): `[{"reason", "resource_change"}]`,
    /// each change marked as any other. An unreadable list marks nothing.
    fn collect_deferred(&mut self, raw: &RawValue) {
        #[derive(serde::Deserialize)]
        struct Deferred<'a> {
            #[serde(borrow, default)]
            resource_change: Option<ResourceChange<'a>>,
        }
        if let Ok(list) = serde_json::from_str::<Vec<Deferred<'_>>>(raw.get()) {
            for rc in list.iter().filter_map(|d| d.resource_change.as_ref()) {
                self.collect_change_of(rc);
            }
        }
    }

    fn collect_state(&mut self, s: &StateDoc<'_>) {
        if let Some(v) = &s.values {
            self.collect_values(v);
        }
    }

    fn collect_change_of(&mut self, rc: &ResourceChange<'_>) {
        self.collect_change(&rc.change);
    }

    fn collect_change(&mut self, ch: &Change<'_>) {
        self.collect_raw_marked(ch.before, ch.before_sensitive);
        self.collect_raw_marked(ch.after, ch.after_sensitive);
    }

    fn collect_values(&mut self, v: &Values<'_>) {
        for (_, r) in v.root_module.walk() {
            self.collect_raw_marked(r.values, r.sensitive_values);
        }
        for o in v.outputs.values() {
            if o.sensitive {
                self.collect_marked(o.value, Some(&Value::Bool(true)));
            }
        }
    }

    /// Cheap pre-check: a marker without `true` in its text marks nothing.
    fn collect_raw_marked(&mut self, value: Option<&RawValue>, marker: Option<&RawValue>) {
        let Some(marker) = marker else { return };
        if !marker.get().contains("true") {
            return;
        }
        let Ok(marker) = serde_json::from_str::<Value>(marker.get()) else {
            // Unreadable marker: fail closed, everything in the value is secret.
            self.collect_marked(value, Some(&Value::Bool(true)));
            return;
        };
        self.collect_marked(value, Some(&marker));
    }

    fn collect_marked(&mut self, value: Option<&RawValue>, marker: Option<&Value>) {
        let (Some(value), Some(marker)) = (value, marker) else { return };
        if let Ok(v) = serde_json::from_str::<Value>(value.get()) {
            walk_marked(&v, marker, &mut self.secrets);
            self.secrets_changed();
        }
    }

    /// Add a secret by hand (tests, and values the caller knows are sensitive).
    pub fn add(&mut self, secret: &str) {
        if !secret.is_empty() {
            self.secrets.insert(secret.to_string());
            self.secrets_changed();
        }
    }

    /// Union with another document's secrets.
    pub fn merge(&mut self, other: &Masker) {
        self.secrets.extend(other.secrets.iter().cloned());
        self.secrets_changed();
    }

    /// Drop the matchers built from the old set of secrets.
    fn secrets_changed(&mut self) {
        self.long = std::sync::OnceLock::new();
        self.scrub = std::sync::OnceLock::new();
    }

    pub fn is_empty(&self) -> bool {
        self.secrets.is_empty()
    }

    pub fn len(&self) -> usize {
        self.secrets.len()
    }

    /// True when `s` is, as a whole, a sensitive value.
    pub fn is_secret(&self, s: &str) -> bool {
        self.secrets.contains(s)
    }

    /// True when a JSON value holds a secret anywhere (as a whole string leaf,
    /// or a long secret inside a string).
    pub fn value_holds_secret(&self, v: &Value) -> bool {
        match v {
            Value::String(s) => self.is_secret(s) || self.long_secret_inside(s),
            Value::Array(a) => a.iter().any(|x| self.value_holds_secret(x)),
            Value::Object(o) => o.values().any(|x| self.value_holds_secret(x)),
            _ => false,
        }
    }

    fn long_secret_inside(&self, s: &str) -> bool {
        let long = self.long.get_or_init(|| {
            let long: Vec<&str> = self.secrets.iter().filter(|k| k.chars().count() >= MIN_SUBSTRING).map(String::as_str).collect();
            if long.is_empty() {
                return Long::NoSecrets;
            }
            AhoCorasick::new(&long).map_or(Long::Unbuilt, Long::Matcher)
        });
        match long {
            Long::NoSecrets => false,
            Long::Matcher(ac) => ac.is_match(s),
            Long::Unbuilt => self.secrets.iter().any(|k| k.chars().count() >= MIN_SUBSTRING && s.contains(k.as_str())),
        }
    }

    /// Build the substring matcher: every secret of 8+ characters in each form
    /// it can take in our output: as is, or quoted as an address key (as
    /// Terraform writes it, and as planview's canonical addresses do) or as a
    /// JSON string inside text; each of those as is, JSON-, terminal-,
    /// markdown-, GitHub-command- and XML-escaped. Most secrets are plain
    /// text, and all of these forms are one pattern. Built once per set of
    /// secrets (a clone shares the matcher).
    pub fn scrubber(&self) -> Scrubber {
        self.scrub.get_or_init(|| self.build_scrubber()).clone()
    }

    fn build_scrubber(&self) -> Scrubber {
        let mut patterns: BTreeSet<String> = BTreeSet::new();
        for s in &self.secrets {
            if s.chars().count() < MIN_SUBSTRING {
                continue;
            }
            if s.bytes().all(|b| b.is_ascii_alphanumeric() || b"-./+=@^()!?;".contains(&b)) {
                // No escaper below changes these characters: every form is `s`.
                patterns.insert(s.clone());
                continue;
            }
            let (hcl, json) = (crate::query::address::hcl_quote(s), crate::render::json_string(s));
            // Quoted inside text first (a key, an import id shown as JSON), then
            // escaped for the output format.
            let bases = [s.clone(), terraform_key_form(s), hcl[1..hcl.len() - 1].to_string(), json[1..json.len() - 1].to_string()];
            for b in bases {
                let json = crate::render::json_string(&b);
                patterns.insert(json[1..json.len() - 1].to_string());
                patterns.insert(crate::sanitize::line(&b).into_owned());
                patterns.insert(crate::sanitize::text(&b).into_owned());
                patterns.insert(crate::render::md_cell(&b));
                if b.starts_with('_') || b.ends_with('_') {
                    // GFM leaves an underscore inside a word as it is, so how an
                    // edge `_` is written depends on the text around the secret.
                    let (left, right, both) = (
                        crate::render::md_cell(&format!("a{b}")),
                        crate::render::md_cell(&format!("{b}a")),
                        crate::render::md_cell(&format!("a{b}a")),
                    );
                    patterns.insert(left[1..].to_string());
                    patterns.insert(right[..right.len() - 1].to_string());
                    patterns.insert(both[1..both.len() - 1].to_string());
                }
                patterns.insert(crate::render::md_code_text(&b));
                patterns.insert(crate::render::gate::gh_data(&b));
                patterns.insert(crate::render::gate::gh_property(&b));
                patterns.insert(crate::render::gate::xml(&b, true));
                patterns.insert(crate::render::gate::xml(&b, false));
                patterns.insert(b);
            }
        }
        let patterns: Vec<String> = patterns.into_iter().filter(|p| !p.is_empty()).collect();
        let ac =
            if patterns.is_empty() { None } else { AhoCorasick::builder().match_kind(MatchKind::LeftmostLongest).build(&patterns).ok() };
        Scrubber { ac }
    }
}

/// A string as Terraform and OpenTofu write it inside an instance key
/// (`aws_x.y["KEY"]`), without the quotes: `\n`, `\r`, `\t`, `\"`, `\\`,
/// `$${`/`%%{`, and what Go's `unicode.IsPrint` rejects as `\uxxxx` (controls,
/// format characters such as the bidi ones, separators, spaces but U+0020).
fn terraform_key_form(s: &str) -> String {
    crate::query::address::hcl_escape(s, |c| {
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
    ac: Option<AhoCorasick>,
}

impl Scrubber {
    pub fn scrub<'a>(&self, text: &'a [u8]) -> Cow<'a, [u8]> {
        match &self.ac {
            Some(ac) if ac.is_match(text) => Cow::Owned(ac.replace_all_bytes(text, &vec![MASK.as_bytes(); ac.patterns_len()])),
            _ => Cow::Borrowed(text),
        }
    }
}

/// Collect the string leaves of `v` under the parts `marker` marks.
fn walk_marked(v: &Value, marker: &Value, out: &mut BTreeSet<String>) {
    match marker {
        Value::Bool(true) => collect_all(v, out),
        Value::Object(m) => {
            if let Value::Object(o) = v {
                for (k, mk) in m {
                    if let Some(x) = o.get(k) {
                        walk_marked(x, mk, out);
                    }
                }
            }
        }
        Value::Array(m) => {
            if let Value::Array(a) = v {
                for (x, mk) in a.iter().zip(m.iter()) {
                    walk_marked(x, mk, out);
                }
            }
        }
        _ => {}
    }
}

fn collect_all(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::String(s) if !s.is_empty() => {
            out.insert(s.clone());
        }
        Value::Array(a) => a.iter().for_each(|x| collect_all(x, out)),
        Value::Object(o) => o.values().for_each(|x| collect_all(x, out)),
        _ => {}
    }
}

/// Secrets collected while a plan streams by ([`crate::stream`]): resource
/// changes and drift as they pass; the rest comes from the skeleton with
/// [`Masker::collect`].
impl crate::stream::PlanVisitor for Masker {
    fn on_resource_change(&mut self, rc: &ResourceChange<'_>) {
        self.collect_change_of(rc);
    }
    fn on_drift(&mut self, rc: &ResourceChange<'_>) {
        self.collect_change_of(rc);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::parse;

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
        let out = s.scrub(br#"a pass"word|*x1 b "pass\"word|*x1" c pass"word\|\*x1 tiny"#);
        let out = String::from_utf8(out.into_owned()).unwrap();
        assert_eq!(out, r#"a (sensitive value) b "(sensitive value)" c (sensitive value) tiny"#);
    }

    #[test]
    fn scrub_masks_a_secret_with_an_edge_underscore_inside_a_word_in_markdown() {
        // GFM leaves `x_y` alone but `_y` escaped: md_cell(secret) alone was not
        // what a markdown cell holding the secret inside a word shows.
        let mut m = Masker::default();
        m.add("_pass*word");
        m.add("pass*word_");
        m.add("_both*ends_");
        let sc = m.scrubber();
        for text in ["token x_pass*word rejected", "token pass*word_x rejected", "x_both*ends_y", "x_both*ends_ y", "x _both*ends_y"] {
            let cell = crate::render::md_cell(text);
            let out = String::from_utf8(sc.scrub(cell.as_bytes()).into_owned()).unwrap();
            assert!(!out.contains("word") && !out.contains("ends"), "{text} -> {cell} -> {out}");
            assert!(out.contains(MASK), "{out}");
        }
    }

    #[test]
    fn short_secrets_only_are_never_looked_for_inside_strings() {
        let mut m = Masker::default();
        m.add("tiny");
        assert!(m.long.get().is_none());
        assert!(!m.value_holds_secret(&serde_json::json!(["a tiny thing", {"k": "tinytiny"}])));
        assert!(matches!(m.long.get(), Some(Long::NoSecrets)));
        assert!(m.value_holds_secret(&serde_json::json!({"k": ["tiny"]})));
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
    fn scrub_masks_a_secret_quoted_in_an_address_key_and_in_gate_formats() {
        let secret = "tok\"|*_`<>${x}%{y}\\\u{202e}\u{1b}[1m\u{9b}end";
        let mut m = Masker::default();
        m.add(secret);
        let sc = m.scrubber();
        let key = terraform_key_form(secret);
        assert_eq!(key, r#"tok\"|*_`<>$${x}%%{y}\\\u202e\u001b[1m\u009bend"#);
        let outputs = [
            format!("a.b[\"{key}\"] x"),
            crate::sanitize::line(&format!("a.b[\"{key}\"]")).into_owned(),
            crate::render::md_code(&format!("a.b[{}]", crate::query::address::hcl_quote(secret))),
            crate::render::gate::gh_data(&format!("msg {secret} end")),
            crate::render::gate::xml(&format!("msg {secret} end"), false),
            crate::render::md_cell(&format!("msg {secret} end")),
            // A JSON-quoted id inside text, in JSON output and in markdown.
            crate::render::json_string(&format!("imported from {}", crate::render::json_string(secret))),
            crate::render::md_cell(&format!("imported from {}", crate::render::json_string(secret))),
        ];
        for o in outputs {
            let out = String::from_utf8(sc.scrub(o.as_bytes()).into_owned()).unwrap();
            assert!(!out.contains("tok") && out.contains(MASK), "{o} -> {out}");
        }
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
}
