//! Collecting secrets: every string marked sensitive anywhere in a document.
//!
//! The JSON holds sensitive values in clear text; markers say which, but
//! producers forget markers (Terraform 1.11's `terraform_data` copies a
//! sensitive `input` into an unmarked `output`). So every string that is
//! sensitive anywhere in the document is collected once ([`Masker::collect`]),
//! then masked wherever else it appears: as a whole value ([`Masker::is_secret`],
//! used by value renderers), and, when 8 characters or longer, as a substring of
//! anything printed ([`Masker::scrubber`], applied by `run` to the whole output of
//! every command and format).

use super::scrub::{go_json_inner, Many};
use super::{Scrubber, Seed};
use crate::model::{Change, Plan, RawValue, ResourceChange, Values};
use crate::model::{Document, StateDoc};
use serde_json::Value;
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::Arc;

/// What replaces a secret.
pub(crate) const MASK: &str = "(sensitive value)";

/// Secrets shorter than this are masked only as whole values.
pub(crate) const MIN_SUBSTRING: usize = 8;

/// The set of secrets of one or more documents.
#[derive(Debug, Default, Clone)]
pub struct Masker {
    /// Shared, not copied, by clones and by a merge into an empty set (the
    /// secrets of a run are held once, however many maskers hold them).
    secrets: Arc<BTreeSet<String>>,
    /// Sensitive numbers, as JSON writes them: masked where a whole value (a
    /// number, or a string such as `tostring(pin)`) equals one, never looked
    /// for inside text (digits occur everywhere). Booleans cannot be masked by
    /// value (`true` is everywhere); they are masked by their markers only.
    numbers: Arc<BTreeSet<String>>,
    /// A matcher for the secrets of 8+ characters, built on first use (and
    /// dropped when secrets are added): finding one inside a string costs one
    /// pass over the string, however many secrets there are.
    long: std::sync::OnceLock<Long>,
    /// The output scrubber, built on first use (and dropped with `long`).
    scrub: std::sync::OnceLock<Scrubber>,
    /// The forms derived from the secrets ([`crate::derive`]), built on first
    /// use (and dropped with `long`).
    derived: std::sync::OnceLock<Arc<Derived>>,
    /// Markers read lately, by their text ([`Marks`]).
    marks: Marks,
}

/// The markers parsed lately, by their text, with whether each marks
/// anything: the resources of one type repeat one marker thousands of times,
/// so it is parsed once (a few of them, first come; the rest parsed each time).
#[derive(Debug, Default, Clone)]
struct Marks(Vec<(Box<str>, Option<Arc<Value>>)>);

impl Marks {
    /// At most this many markers are kept.
    const KEPT: usize = 32;

    /// The marker `text` parsed, `None` when it marks nothing; `Err` when it is
    /// no JSON (a parse of the model checked it, so never in practice).
    fn get(&mut self, text: &str) -> Result<Option<Arc<Value>>, ()> {
        if let Some((_, m)) = self.0.iter().find(|(t, _)| t.len() == text.len() && **t == *text) {
            return Ok(m.clone());
        }
        let marker = serde_json::from_str::<Value>(text).map_err(|_| ())?;
        let marker = crate::model::markers::any(Some(&marker)).then(|| Arc::new(marker));
        if self.0.len() < Self::KEPT {
            self.0.push((text.into(), marker.clone()));
        }
        Ok(marker)
    }
}

/// The derived forms of a set of secrets.
#[derive(Debug, Default)]
struct Derived {
    /// The hash ([`form_hash`]) of every derived form of every secret of 4+
    /// characters (string or number) but the digests' ([`crate::derive::each_plain_form`]),
    /// sorted: a whole value whose hash is here is masked (8 bytes a form,
    /// where the strings took ten times that; two strings of one hash mask
    /// each other, which only over-masks).
    whole: Vec<u64>,
    /// Those of 8+ characters, and the long lines of multi-line secrets:
    /// looked for inside text as the long secrets are (sorted, distinct, in
    /// one arena: a form costs its bytes and 4, not a `String`).
    long: Many,
    /// The forms of each digest ([`crate::derive::Digest::ALL`]'s order),
    /// made only when a value could be one: a whole value of a digest form's
    /// length made of its characters, or a string holding a run of base64
    /// characters as long as the digest's shortest form looked for inside
    /// text (most plans have neither, and the four digests of every secret
    /// were most of the cost of deriving).
    digests: [std::sync::OnceLock<DigestForms>; 4],
}

/// The forms of one digest of every secret ([`Derived::digests`]).
#[derive(Debug, Default)]
struct DigestForms {
    /// As [`Derived::whole`].
    whole: Vec<u64>,
    /// As [`Derived::long`], and their matcher: every form it holds is made
    /// of base64 characters alone, its JSON-escaped forms the same.
    long: Many,
}

/// Strings written one after another, each ending at the next of `ends`:
/// made into a [`Many`] (sorted, distinct) without a `String` each.
#[derive(Default)]
struct Arena {
    bytes: Vec<u8>,
    ends: Vec<u32>,
}

impl Arena {
    fn push(&mut self, s: &str) {
        self.bytes.extend_from_slice(s.as_bytes());
        self.ends.push(self.bytes.len() as u32);
    }

    fn many(self) -> Many {
        Many::from_arena(self.bytes, self.ends)
    }
}

/// The substring matcher of a [`Masker`].
#[derive(Debug, Clone)]
enum Long {
    /// No secret is long enough to be looked for inside strings.
    NoSecrets,
    Matcher(std::sync::Arc<Many>),
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
        // Action invocations (Terraform 1.14+): `config_values` under `config_sensitive`.
        for a in p.action_invocations().0 {
            self.collect_raw_marked(a.config_values, a.config_sensitive);
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

    /// The value is read only where the marker could mark something: the
    /// parts it marks are parsed, the rest is skipped over as raw text (no tree
    /// of the whole value is built).
    fn collect_raw_marked(&mut self, value: Option<&RawValue>, marker: Option<&RawValue>) {
        if let (Some(value), Some(marker)) = (value, marker) {
            self.collect_text_marked(value.get(), marker.get());
        }
    }

    /// [`Masker::collect_raw_marked`] over the text of a value and of its marker.
    fn collect_text_marked(&mut self, value: &str, marker: &str) {
        match self.marks.get(marker) {
            Ok(Some(marker)) => self.walk_marked_text(value, &marker),
            Ok(None) => {}
            // Unreadable marker: fail closed, everything in the value is secret.
            Err(()) => self.collect_text(value),
        }
    }

    /// [`Masker::walk_marked`] over the text of a value: objects and arrays
    /// are split into raw members, and only the members the marker marks are
    /// looked into.
    fn walk_marked_text(&mut self, text: &str, marker: &Value) {
        match marker {
            Value::Bool(false) | Value::Null => {}
            Value::Object(m) => {
                // The members the marker names, found by a quick walk over the text.
                let mut marked: Vec<(&str, &Value)> = Vec::new();
                // A marker names few keys: compared in turn (lengths first), not looked up.
                let few: Vec<(&str, &Value)> = if m.len() <= 8 { m.iter().map(|(k, v)| (k.as_str(), v)).collect() } else { Vec::new() };
                let walked = raw_items(text, b'{', |key, v| {
                    let mk = if m.len() <= 8 {
                        few.iter().find(|(k, _)| k.len() == key.len() && *k == key).map(|&(_, mk)| mk)
                    } else {
                        m.get(key)
                    };
                    if let Some(mk) = mk {
                        marked.push((v, mk));
                    }
                });
                match walked {
                    Some(true) => marked.into_iter().for_each(|(v, mk)| self.walk_marked_text(v, mk)),
                    // Not an object: the marker's shape does not fit the value.
                    Some(false) => self.collect_text(text),
                    None => match serde_json::from_str::<RawMembers<'_>>(text) {
                        Ok(members) => {
                            for (k, v) in members.0 {
                                if let Some(mk) = m.get(k.as_ref()) {
                                    self.walk_marked_text(v.get(), mk);
                                }
                            }
                        }
                        Err(_) => self.collect_text(text),
                    },
                }
            }
            Value::Array(m) => {
                let mut items: Vec<&str> = Vec::new();
                let walked = raw_items(text, b'[', |_, v| {
                    if items.len() < m.len() {
                        items.push(v);
                    }
                });
                match walked {
                    Some(true) => items.into_iter().zip(m).for_each(|(v, mk)| self.walk_marked_text(v, mk)),
                    Some(false) => self.collect_text(text),
                    None => match serde_json::from_str::<Vec<&RawValue>>(text) {
                        Ok(items) => {
                            for (v, mk) in items.iter().zip(m) {
                                self.walk_marked_text(v.get(), mk);
                            }
                        }
                        Err(_) => self.collect_text(text),
                    },
                }
            }
            // `true`, or a leaf that is no marker (fail closed): all of it.
            _ => self.collect_text(text),
        }
    }

    /// Every leaf of the value `text` (unreadable text: nothing to collect).
    fn collect_text(&mut self, text: &str) {
        // A string without escapes (most secrets): its text is its value.
        if let Some(inner) = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
            if !inner.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20) {
                if !inner.is_empty() {
                    self.insert_secret(inner);
                }
                return;
            }
        }
        if let Ok(v) = serde_json::from_str::<Value>(text) {
            self.collect_all(&v);
        }
    }

    fn collect_marked(&mut self, value: Option<&RawValue>, marker: Option<&Value>) {
        let (Some(value), Some(marker)) = (value, marker) else { return };
        if let Ok(v) = serde_json::from_str::<Value>(value.get()) {
            self.walk_marked(&v, marker);
        }
    }

    /// Collect the leaves of `v` under the parts `marker` marks. A marker of a
    /// shape that does not fit the value (an object marking a list, a string
    /// where a marker belongs) cannot say which parts it marks: if it could
    /// mark anything, the whole value is taken as secret (fail closed).
    fn walk_marked(&mut self, v: &Value, marker: &Value) {
        match (marker, v) {
            (Value::Bool(false) | Value::Null, _) => {}
            (Value::Bool(true), _) => self.collect_all(v),
            (Value::Object(m), Value::Object(o)) => {
                for (k, mk) in m {
                    if let Some(x) = o.get(k) {
                        self.walk_marked(x, mk);
                    }
                }
            }
            (Value::Array(m), Value::Array(a)) => {
                for (x, mk) in a.iter().zip(m.iter()) {
                    self.walk_marked(x, mk);
                }
            }
            (Value::Object(_) | Value::Array(_), _) if !crate::model::markers::any(Some(marker)) => {}
            _ => self.collect_all(v),
        }
    }

    /// Every string of a marked value `v` as a secret; `v` itself, when it is
    /// a number, as a sensitive number. Numbers inside a marked object or list
    /// are not taken: a sensitive block's port `443` or count `1` would mask
    /// every `443` and `1` of the plan, and a number is a secret in its own
    /// right (a PIN) only when it is marked itself.
    fn collect_all(&mut self, v: &Value) {
        match v {
            Value::Number(n) => {
                self.insert_number(number_text(n));
            }
            _ => self.collect_strings(v),
        }
    }

    fn collect_strings(&mut self, v: &Value) {
        match v {
            Value::String(s) if !s.is_empty() => {
                self.insert_secret(s);
            }
            Value::Array(a) => a.iter().for_each(|x| self.collect_strings(x)),
            Value::Object(o) => {
                // The keys of a marked map are secrets too (`sensitive({...})`:
                // an unmarked copy would show them), when they cannot be the
                // attribute names of a schema (`password`, `master_username`:
                // lower-case identifiers, public) and are long enough to be
                // looked for inside text.
                for k in o.keys().filter(|k| k.chars().count() >= MIN_SUBSTRING && !schema_name_like(k)) {
                    self.insert_secret(k);
                }
                o.values().for_each(|x| self.collect_strings(x))
            }
            _ => {}
        }
    }

    /// Add a secret by hand (tests, and values the caller knows are sensitive).
    pub fn add(&mut self, secret: &str) {
        if !secret.is_empty() {
            self.insert_secret(secret);
        }
    }

    /// A new secret (one already known changes nothing: the matchers built
    /// for a seeded set of secrets are kept, and the set is not copied).
    fn insert_secret(&mut self, s: &str) {
        if !self.secrets.contains(s) {
            Arc::make_mut(&mut self.secrets).insert(s.to_string());
            self.secrets_changed();
        }
    }

    fn insert_number(&mut self, n: String) {
        if !self.numbers.contains(&n) {
            Arc::make_mut(&mut self.numbers).insert(n);
            self.secrets_changed();
        }
    }

    /// Union with another document's secrets.
    pub fn merge(&mut self, other: &Masker) {
        /// True when `mine` changed.
        fn union(mine: &mut Arc<BTreeSet<String>>, theirs: &Arc<BTreeSet<String>>) -> bool {
            if Arc::ptr_eq(mine, theirs) || theirs.is_empty() {
                false
            } else if mine.is_empty() {
                *mine = Arc::clone(theirs);
                true
            } else if theirs.iter().all(|s| mine.contains(s)) {
                false
            } else {
                Arc::make_mut(mine).extend(theirs.iter().cloned());
                true
            }
        }
        let (a, b) = (union(&mut self.secrets, &other.secrets), union(&mut self.numbers, &other.numbers));
        if a || b {
            self.secrets_changed();
        }
    }

    /// The secrets of every input of the run, when a first pass collected them
    /// ([`Masker::seed`]): where each document's secrets start from.
    pub fn seeded(seed: &Seed) -> Masker {
        seed.0.as_deref().cloned().unwrap_or_default()
    }

    /// `self` as the seed of every reader of a run, its matchers built once
    /// here (a document whose secrets are all in the seed keeps them).
    pub fn seed(self) -> Seed {
        if !self.is_empty() {
            let _ = (self.derived(), self.long_secret_inside(""), self.scrubber());
        }
        Seed(Some(Arc::new(self)))
    }

    /// Drop the matchers built from the old set of secrets.
    fn secrets_changed(&mut self) {
        self.long = std::sync::OnceLock::new();
        self.scrub = std::sync::OnceLock::new();
        self.derived = std::sync::OnceLock::new();
    }

    /// The derived forms of the secrets, computed once per set of secrets.
    fn derived(&self) -> &Derived {
        self.derived.get_or_init(|| {
            let mut d = Derived::default();
            // Each form written into one reused buffer and hashed there; those
            // looked for inside text copied into one arena.
            let mut long = Arena::default();
            let mut scratch = crate::derive::Scratch::default();
            for s in self.secrets.iter().chain(self.numbers.iter()) {
                crate::derive::each_plain_form(s, &mut scratch, |f, searched| {
                    d.whole.push(form_hash(f));
                    if searched && f.chars().count() >= MIN_SUBSTRING {
                        long.push(f);
                    }
                });
            }
            d.whole.sort_unstable();
            d.whole.dedup();
            for s in self.secrets.iter() {
                crate::derive::lines(s).iter().for_each(|l| long.push(l));
            }
            d.long = long.many();
            Arc::new(d)
        })
    }

    /// The forms of the digest `which` of every secret, computed once per set
    /// of secrets, when first asked for.
    fn digest_forms(&self, which: crate::derive::Digest) -> &DigestForms {
        let i = crate::derive::Digest::ALL.iter().position(|&d| d == which).unwrap_or_default();
        self.derived().digests[i].get_or_init(|| {
            let mut d = DigestForms::default();
            let mut long = Arena::default();
            let mut scratch = crate::derive::Scratch::default();
            for s in self.secrets.iter().chain(self.numbers.iter()) {
                crate::derive::each_digest_form(s, which, &mut scratch, |f, searched| {
                    d.whole.push(form_hash(f));
                    if searched && f.chars().count() >= MIN_SUBSTRING {
                        long.push(f);
                    }
                });
            }
            d.whole.sort_unstable();
            d.whole.dedup();
            d.long = long.many();
            d
        })
    }

    /// Every string looked for inside text: the secrets of 8+ characters, the
    /// derived forms of 8+ characters and the long lines of multi-line secrets.
    pub(super) fn long_sources(&self) -> impl Iterator<Item = &str> {
        let digests = crate::derive::Digest::ALL.into_iter().flat_map(|d| self.digest_forms(d).long.patterns());
        self.plain_long_sources().chain(digests)
    }

    /// Make the derived forms (but the digests') now, if not made yet.
    pub(super) fn make_derived(&self) {
        let _ = self.derived();
    }

    /// [`Masker::long_sources`] but the digests' forms.
    pub(super) fn plain_long_sources(&self) -> impl Iterator<Item = &str> {
        let d = self.derived();
        self.secrets.iter().map(String::as_str).filter(|k| k.chars().count() >= MIN_SUBSTRING).chain(d.long.patterns())
    }

    pub fn is_empty(&self) -> bool {
        self.secrets.is_empty() && self.numbers.is_empty()
    }

    pub fn len(&self) -> usize {
        self.secrets.len() + self.numbers.len()
    }

    /// True when `s` is, as a whole, a sensitive value (a sensitive string, or
    /// the text of a sensitive number).
    pub fn is_secret(&self, s: &str) -> bool {
        use crate::derive::Digest;
        if self.secrets.contains(s) || self.numbers.contains(s) {
            return true;
        }
        if self.is_empty() {
            return false;
        }
        let h = form_hash(s);
        self.derived().whole.binary_search(&h).is_ok()
            || Digest::of_form(s.as_bytes()).is_some_and(|d| self.digest_forms(d).whole.binary_search(&h).is_ok())
    }

    /// A piece of text taken from the input (an import id, a check message, a
    /// map key) as it may be printed: `(sensitive value)` when it is a secret
    /// as a whole; else with every secret of 8+ characters inside it (as is,
    /// or as `jsonencode` or JSON escaping writes it) masked. Applied where the
    /// text enters a report, before any escaping: planview's own text around it
    /// is never touched.
    pub fn mask_text<'t>(&self, text: &'t str) -> Cow<'t, str> {
        if self.is_secret(text) {
            return Cow::Borrowed(MASK);
        }
        if !self.long_secret_inside(text) {
            return Cow::Borrowed(text);
        }
        match self.scrubber().scrub(text.as_bytes()) {
            Cow::Borrowed(_) => Cow::Borrowed(text),
            Cow::Owned(b) => Cow::Owned(String::from_utf8_lossy(&b).into_owned()),
        }
    }

    /// A JSON value taken from the input (an import identity) with every string
    /// leaf passed through [`Masker::mask_text`] and sensitive numbers masked.
    pub fn mask_json(&self, v: &Value) -> Value {
        match v {
            Value::String(s) => Value::String(self.mask_text(s).into_owned()),
            Value::Number(n) if self.numbers.contains(&number_text(n)) => Value::String(MASK.into()),
            Value::Array(a) => Value::Array(a.iter().map(|x| self.mask_json(x)).collect()),
            Value::Object(o) => Value::Object(o.iter().map(|(k, x)| (self.mask_text(k).into_owned(), self.mask_json(x))).collect()),
            other => other.clone(),
        }
    }

    /// True when a JSON value holds a secret anywhere: a whole string leaf or
    /// number equal to one, a long secret inside a string (as is, or in the
    /// form `jsonencode` writes it inside a JSON-encoded string), or a map key
    /// that is a secret.
    pub fn value_holds_secret(&self, v: &Value) -> bool {
        match v {
            Value::String(s) => self.is_secret(s) || self.long_secret_inside(s),
            Value::Number(n) => self.numbers.contains(&number_text(n)),
            Value::Array(a) => a.iter().any(|x| self.value_holds_secret(x)),
            Value::Object(o) => o.iter().any(|(k, x)| self.is_secret(k) || self.value_holds_secret(x)),
            _ => false,
        }
    }

    fn long_secret_inside(&self, s: &str) -> bool {
        let long = self.long.get_or_init(|| {
            // Each long secret as is, and as it stands inside a JSON-encoded
            // string (`jsonencode` writes `&<>` as `\u0026`, `\u003c`, `\u003e`).
            let mut long = Arena::default();
            for k in self.plain_long_sources() {
                // Plain text (most secrets) is its own escaped forms.
                if k.bytes().any(|b| !(0x20..0x7f).contains(&b) || b"\"\\&<>".contains(&b)) {
                    long.push(&go_json_inner(k));
                    let json = crate::escape::json_string(k);
                    long.push(&json[1..json.len() - 1]);
                }
                long.push(k);
            }
            let long = long.many();
            if long.is_empty() {
                return Long::NoSecrets;
            }
            Long::Matcher(std::sync::Arc::new(long))
        });
        let plain = match long {
            Long::NoSecrets => false,
            Long::Matcher(m) => m.is_match(s.as_bytes()),
        };
        plain || (!self.is_empty() && self.digest_inside(s))
    }

    /// True when a digest's form looked for inside text is inside `s`: each is
    /// a run of base64 characters (`A-Za-z0-9+/`) at least as long as the
    /// digest's unpadded base64, so only the digests that fit in the longest
    /// such run of `s` are made and looked for.
    fn digest_inside(&self, s: &str) -> bool {
        let longest = {
            let enough = crate::derive::Digest::ALL.iter().map(|d| d.shortest()).max().unwrap_or_default();
            crate::derive::longest_base64_run(s.as_bytes(), enough)
        };
        let sets: Vec<&Many> =
            crate::derive::Digest::ALL.into_iter().filter(|d| longest >= d.shortest()).map(|d| &self.digest_forms(d).long).collect();
        Many::any_match(&sets, s.as_bytes())
    }

    /// Build the substring matcher: every secret of 8+ characters in each form
    /// it can take in text from the input ([`Masker::mask_text`]) and in the
    /// warnings and errors that quote it: as is, or quoted as an address key
    /// (as Terraform writes it, and as planview's canonical addresses do) or
    /// as a JSON string inside text; each of those as is, JSON- and
    /// terminal-escaped. (Markdown, GitHub and XML escaping come after
    /// masking, in the renderers: no secret reaches them.) Most secrets are plain
    /// text, and all of these forms are one pattern. Built once per set of
    /// secrets (a clone shares the matcher).
    pub fn scrubber(&self) -> Scrubber {
        self.scrub.get_or_init(|| self.build_scrubber()).clone()
    }
}

/// The hash a derived form is known by ([`Derived::whole`]): SipHash with
/// `DefaultHasher::new`'s fixed keys.
fn form_hash(s: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    s.hash(&mut h);
    h.finish()
}

/// The members of the object (`open` `{`) or the items of the array (`[`)
/// `text`, in order, each as its key (`""` for items) and its value's text,
/// found by a walk over text serde_json has already checked (a value of the
/// model): `Some(false)` when `text` is no such container, `None` when the
/// walk meets what it does not expect (an escaped key, broken text) and the
/// caller should ask serde_json instead.
fn raw_items<'t>(text: &'t str, open: u8, mut f: impl FnMut(&'t str, &'t str)) -> Option<bool> {
    use crate::scan::{is_json_ws, string_end, CLASS, OPEN, PLAIN, QUOTE};
    let b = text.as_bytes();
    let n = b.len();
    let ws = |mut i: usize| {
        while i < n && is_json_ws(b[i]) {
            i += 1;
        }
        i
    };
    let mut i = ws(0);
    if b.get(i) != Some(&open) {
        return Some(false);
    }
    let close = if open == b'{' { b'}' } else { b']' };
    i = ws(i + 1);
    if b.get(i) == Some(&close) {
        return Some(true);
    }
    loop {
        let mut key = "";
        if open == b'{' {
            if b.get(i) != Some(&b'"') {
                return None;
            }
            let end = string_end(b, i + 1);
            if end >= n {
                return None;
            }
            key = text.get(i + 1..end)?;
            if key.contains('\\') {
                return None;
            }
            i = ws(end + 1);
            if b.get(i) != Some(&b':') {
                return None;
            }
            i = ws(i + 1);
        }
        // The value: a string, a container (brackets counted, strings skipped), or a scalar.
        let start = i;
        match *b.get(i)? {
            b'"' => {
                i = string_end(b, i + 1);
                if i >= n {
                    return None;
                }
                i += 1;
            }
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    let c = *b.get(i)?;
                    i += 1;
                    match CLASS[usize::from(c)] {
                        PLAIN => {}
                        QUOTE => {
                            i = string_end(b, i);
                            if i >= n {
                                return None;
                            }
                            i += 1;
                        }
                        OPEN => depth += 1,
                        _ => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                    }
                }
            }
            _ => {
                while i < n && !matches!(b[i], b',' | b'}' | b']') && !is_json_ws(b[i]) {
                    i += 1;
                }
            }
        }
        f(key, text.get(start..i)?);
        i = ws(i);
        match b.get(i) {
            Some(&c) if c == close => return Some(true),
            Some(b',') => i = ws(i + 1),
            _ => return None,
        }
    }
}

/// An object's members as raw text, keys borrowed where they hold no escape.
struct RawMembers<'a>(Vec<(Cow<'a, str>, &'a RawValue)>);

impl<'de> serde::Deserialize<'de> for RawMembers<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Key<'a>(Cow<'a, str>);
        impl<'de> serde::Deserialize<'de> for Key<'de> {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> serde::de::Visitor<'de> for V {
                    type Value = Key<'de>;
                    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        f.write_str("a key")
                    }
                    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Key<'de>, E> {
                        Ok(Key(Cow::Borrowed(s)))
                    }
                    fn visit_str<E>(self, s: &str) -> Result<Key<'de>, E> {
                        Ok(Key(Cow::Owned(s.to_string())))
                    }
                }
                d.deserialize_str(V)
            }
        }
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = RawMembers<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<RawMembers<'de>, A::Error> {
                let mut out = Vec::new();
                while let Some(Key(k)) = map.next_key::<Key<'de>>()? {
                    out.push((k, map.next_value::<&'de RawValue>()?));
                }
                Ok(RawMembers(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// The text of a number as the format writes it (integers canonical, so a
/// copy written `1e3` and one written `1000` compare equal only as integers).
fn number_text(n: &serde_json::Number) -> String {
    match (n.as_u64(), n.as_i64()) {
        (Some(u), _) => u.to_string(),
        (_, Some(i)) => i.to_string(),
        _ => n.to_string(),
    }
}

/// True for a key that reads as a provider schema's attribute name: a
/// lower-case identifier (`password`, `master_user_secret`). Such keys of a
/// marked object are not collected as secrets (they name attributes, which are
/// public); any other key is (a hostname, an e-mail, `Prod-DB`).
fn schema_name_like(k: &str) -> bool {
    k.bytes().next().is_some_and(|b| b.is_ascii_lowercase() || b == b'_')
        && k.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// Secrets collected while a plan streams by (`read::stream`): resource
/// changes, drift and the resources of planned values and prior state as they
/// pass; the rest (outputs, variables) comes from the skeleton with [`Masker::collect`].
impl crate::model::visit::PlanVisitor for Masker {
    fn on_resource_change(&mut self, rc: &ResourceChange<'_>) {
        self.collect_change_of(rc);
    }
    fn on_drift(&mut self, rc: &ResourceChange<'_>) {
        self.collect_change_of(rc);
    }
    fn on_values_resource(&mut self, r: &crate::model::ResourceValue<'_>) {
        self.collect_raw_marked(r.values, r.sensitive_values);
    }
    fn on_values_marked(&mut self, values: Option<&str>, marks: &str) {
        if let Some(values) = values {
            self.collect_text_marked(values, marks);
        }
    }
}

#[cfg(test)]
mod tests;
