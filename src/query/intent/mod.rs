//! What a plan would do, as one canonical model: the ground of `planview
//! diff` (two models compared) and `planview fingerprint` (the SHA-256 of one
//! model's canonical serialisation), so "same fingerprint" and "`diff` finds
//! nothing" are the same statement by construction.
//!
//! The model keeps, per resource change (every change but a plain no-op):
//! address, previous address, deposed key, mode, type, provider, actions,
//! reason, replace paths, import, and the before and after values; every
//! `resource_drift` entry; every action invocation (Terraform 1.14+, deferred
//! ones too, by address: every field, its configuration canonical like a value); every output change but no-ops; the status of every
//! check instance; and whether the plan errored or is incomplete. Values are
//! normalised: a position unknown until apply is `{"$unknown": true}` whatever
//! the JSON holds there; a position marked sensitive, or holding a secret known
//! from elsewhere in the plan, is `{"$sensitive": "hmac-sha256:..."}` when the
//! CI gives a key ([`FINGERPRINT_KEY_ENV`]: a keyed hash of the value, so a
//! changed secret still counts and nobody without the key can test a guess),
//! else `{"$sensitive": true}` (no per-secret material at all: the fingerprint
//! then covers where the secrets are, not their values; `diff` still compares
//! them, with a key of its own run that is never printed); numbers are written by
//! their exact decimal value (`1.0` is `1`); object keys sorted; a key of the
//! value that starts with `$` gets another `$`, so nothing in a value can pass
//! for a marker. `timestamp`, `terraform_version`, `format_version`, the
//! configuration, planned values, prior state and key order never count.

mod sha256;
pub(crate) mod sorted;
pub(crate) mod streamed;
mod write;

use crate::model::markers;
use crate::model::Document;
use crate::model::{PathStep, Plan, ResourceChange};
use crate::query::diff::{align, Slot};
use crate::query::values::Shown;
use crate::secrets::Masker;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The version of the canonical form: part of every fingerprint, so a change
/// of the rules can never make two different plans compare equal.
pub(crate) const CANONICAL_VERSION: &str = "planview-intent/2";

/// The environment variable holding the key of secrets' hashes (a CI secret,
/// the same in the plan job and the apply job).
pub(crate) const FINGERPRINT_KEY_ENV: &str = "PLANVIEW_FINGERPRINT_KEY";

/// Salt of the hashes of sensitive values (inside the keyed hash).
const SECRET_SALT: &str = "planview-secret/2\n";

/// The key secrets are hashed with: the CI's ([`FINGERPRINT_KEY_ENV`]), whose
/// hashes are printed, or one made up for this run, whose hashes are never
/// printed (only compared, by `diff`).
struct SecretKey {
    key: Vec<u8>,
    configured: bool,
}

static SECRET_KEY: std::sync::OnceLock<SecretKey> = std::sync::OnceLock::new();

fn secret_key() -> &'static SecretKey {
    SECRET_KEY.get_or_init(|| match std::env::var_os(FINGERPRINT_KEY_ENV) {
        Some(k) if !k.is_empty() => SecretKey { key: k.into_encoded_bytes(), configured: true },
        _ => SecretKey { key: run_key(), configured: false },
    })
}

/// 32 bytes nobody outside this process can know: SipHash outputs under
/// `RandomState`'s per-process random keys, with the time and process id.
fn run_key() -> Vec<u8> {
    use std::hash::{BuildHasher, Hasher};
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or_default();
    (0..4u64)
        .flat_map(|i| {
            let mut h = std::collections::hash_map::RandomState::new().build_hasher();
            h.write_u64(i);
            h.write_u128(now);
            h.write_u32(std::process::id());
            h.finish().to_le_bytes()
        })
        .collect()
}

/// True when secrets' hashes are keyed by the CI's key (and printed).
pub(crate) fn keyed() -> bool {
    secret_key().configured
}

/// HMAC-SHA256 (RFC 2104) of the concatenated `parts`.
fn hmac(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let mut k = [0u8; 64];
    if key.len() > 64 {
        let mut h = sha256::Sha256::default();
        h.update(key);
        k[..32].copy_from_slice(&h.finish());
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let mut inner = sha256::Sha256::default();
    inner.update(&k.map(|b| b ^ 0x36));
    parts.iter().for_each(|p| inner.update(p));
    let mut outer = sha256::Sha256::default();
    outer.update(&k.map(|b| b ^ 0x5c));
    outer.update(&inner.finish());
    outer.finish()
}

/// The keyed hash of a secret, as the canonical form writes it.
fn secret_digest(parts: &[&[u8]]) -> String {
    let key = secret_key();
    let mut hex = String::with_capacity(64);
    for b in hmac(&key.key, parts) {
        hex.push(char::from_digit(u32::from(b >> 4), 16).unwrap_or('0'));
        hex.push(char::from_digit(u32::from(b & 15), 16).unwrap_or('0'));
    }
    if key.configured {
        format!("hmac-sha256:{hex}")
    } else {
        format!("run:{hex}")
    }
}

const UNKNOWN_KEY: &str = "$unknown";
const SENSITIVE_KEY: &str = "$sensitive";

/// What one plan would do (see the module documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct Intent {
    pub errored: bool,
    pub complete: bool,
    /// Resource changes by address (` (deposed KEY)` appended for deposed objects).
    pub resources: BTreeMap<String, Value>,
    /// `resource_drift` entries, keyed the same way.
    pub drift: BTreeMap<String, Value>,
    /// Output changes (no-ops left out) by name.
    pub outputs: BTreeMap<String, Value>,
    /// Check instances by address: their status.
    pub checks: BTreeMap<String, Value>,
    /// Action invocations (Terraform 1.14+) by address.
    pub actions: BTreeMap<String, Value>,
}

impl Intent {
    /// The model of `plan`; `masker` holds the plan's secrets (for values that
    /// hold one without a marker).
    pub fn of(plan: &Plan<'_>, masker: &Masker) -> Intent {
        let mut resources = BTreeMap::new();
        for rc in plan.resource_changes.iter().filter(|rc| counts(rc)) {
            insert(&mut resources, key_of(rc), change_entry(rc, masker));
        }
        let mut drift = BTreeMap::new();
        for rc in &plan.resource_drift {
            insert(&mut drift, key_of(rc), change_entry(rc, masker));
        }
        let mut outputs = BTreeMap::new();
        for (name, ch) in &plan.output_changes {
            if ch.kind() == crate::model::ChangeKind::NoOp {
                continue;
            }
            let mut o = Map::new();
            o.insert("actions".into(), Value::Array(ch.actions.iter().map(|a| Value::String(a.as_str().into())).collect()));
            o.insert("before".into(), side(ch.before, ch.before_sensitive, None, masker));
            o.insert("after".into(), side(ch.after, ch.after_sensitive, ch.after_unknown, masker));
            outputs.insert(name.clone(), Value::Object(o));
        }
        let mut checks = BTreeMap::new();
        for item in plan.check_results().1 {
            insert(&mut checks, item.address.clone(), Value::String(item.status.clone()));
        }
        let actions = action_entries(plan, masker);
        Intent { errored: plan.errored, complete: plan.complete != Some(false), resources, drift, outputs, checks, actions }
    }

    /// The canonical form as one JSON object, as it is printed and hashed
    /// ([`public`]: without a key, no per-secret material).
    pub fn canonical(&self) -> Value {
        let map = |m: &BTreeMap<String, Value>| Value::Object(m.iter().map(|(k, v)| (k.clone(), v.clone())).collect());
        let mut o = Map::new();
        o.insert("canonical_version".into(), Value::String(CANONICAL_VERSION.into()));
        o.insert("errored".into(), Value::Bool(self.errored));
        o.insert("complete".into(), Value::Bool(self.complete));
        o.insert("resources".into(), map(&self.resources));
        o.insert("drift".into(), map(&self.drift));
        o.insert("outputs".into(), map(&self.outputs));
        o.insert("checks".into(), map(&self.checks));
        o.insert("actions".into(), map(&self.actions));
        public(&Value::Object(o))
    }

    /// The model as its fingerprint sees it: every value in its [`public`]
    /// form (the same model with the CI's key). Two plans have the same
    /// fingerprint exactly when these compare the same.
    #[cfg(any(test, feature = "testkit"))]
    pub fn public(&self) -> Intent {
        let map = |m: &BTreeMap<String, Value>| m.iter().map(|(k, v)| (k.clone(), public(v))).collect();
        Intent {
            resources: map(&self.resources),
            drift: map(&self.drift),
            outputs: map(&self.outputs),
            checks: map(&self.checks),
            actions: map(&self.actions),
            ..*self
        }
    }

    /// `sha256:<hex>` of the canonical serialisation ([`canonical_bytes`]).
    pub fn fingerprint(&self) -> String {
        format!("sha256:{}", sha256::hex(&canonical_bytes(&self.canonical())))
    }
}

/// The model and fingerprint of a document; a state is refused.
pub fn intent_of(doc: &Document<'_>, masker: &Masker) -> Result<Intent, String> {
    match doc {
        Document::Plan(p) => Ok(Intent::of(p, masker)),
        Document::State(_) => Err("this is a state, not a plan: only plans are compared (`tofu show -json PLANFILE`)".into()),
    }
}

/// Only changes that do something count: a plain no-op (no move, no import) does nothing.
pub(crate) fn counts(rc: &ResourceChange<'_>) -> bool {
    rc.kind() != crate::model::ChangeKind::NoOp || rc.is_move() || rc.change.importing.is_some()
}

fn key_of(rc: &ResourceChange<'_>) -> String {
    match &rc.deposed {
        Some(d) => format!("{} (deposed {d})", rc.address),
        None => rc.address.clone(),
    }
}

/// Insert under `key`, or `key#2`, `key#3`... when the plan repeats it (never drop one).
fn insert(map: &mut BTreeMap<String, Value>, key: String, v: Value) {
    if let std::collections::btree_map::Entry::Vacant(e) = map.entry(key.clone()) {
        e.insert(v);
        return;
    }
    let mut n = 2;
    while map.contains_key(&format!("{key}#{n}")) {
        n += 1;
    }
    map.insert(format!("{key}#{n}"), v);
}

fn opt_string(s: Option<&str>) -> Value {
    s.map_or(Value::Null, |s| Value::String(s.into()))
}

fn change_entry(rc: &ResourceChange<'_>, masker: &Masker) -> Value {
    let ch = &rc.change;
    let mut o = change_head(rc, masker);
    o.insert("before".into(), side(ch.before, ch.before_sensitive, None, masker));
    o.insert("after".into(), side(ch.after, ch.after_sensitive, ch.after_unknown, masker));
    Value::Object(o)
}

/// A change's entry but for its values (`before`, `after`).
fn change_head(rc: &ResourceChange<'_>, masker: &Masker) -> Map<String, Value> {
    let ch = &rc.change;
    let mut o = Map::new();
    o.insert("address".into(), Value::String(rc.address.clone()));
    o.insert("previous_address".into(), opt_string(rc.previous_address.as_deref().filter(|p| *p != rc.address)));
    o.insert("deposed".into(), opt_string(rc.deposed.as_deref()));
    o.insert("mode".into(), Value::String(rc.mode.as_str().into()));
    o.insert("type".into(), Value::String(rc.type_.clone()));
    o.insert("provider_name".into(), opt_string(rc.provider_name.as_deref()));
    o.insert("actions".into(), Value::Array(ch.actions.iter().map(|a| Value::String(a.as_str().into())).collect()));
    o.insert("reason".into(), opt_string(rc.action_reason.as_ref().map(|r| r.code())));
    let mut paths: Vec<Value> = ch.replace_paths.iter().map(|p| path_value(p)).collect();
    paths.sort_by_key(canonical_bytes);
    paths.dedup();
    o.insert("replace_paths".into(), Value::Array(paths));
    let importing = ch.importing.as_ref().map(|i| {
        let mut m = Map::new();
        m.insert("id".into(), canon(i.id.as_ref().map(|s| Value::String(s.clone())).as_ref(), None, None, masker));
        m.insert("identity".into(), canon(i.identity_value().as_ref(), None, None, masker));
        Value::Object(m)
    });
    o.insert("importing".into(), importing.unwrap_or(Value::Null));
    o
}

fn path_value(p: &[PathStep]) -> Value {
    Value::Array(
        p.iter()
            .map(|s| match s {
                PathStep::Index(i) => Value::Number((*i).into()),
                PathStep::Key(k) => Value::String(k.clone()),
                PathStep::Other(v) => v.clone(),
            })
            .collect(),
    )
}

fn parse(raw: Option<&crate::model::RawValue>) -> Option<Value> {
    raw.and_then(|r| serde_json::from_str(r.get()).ok())
}

/// One side of a change, canonical. An unreadable marker is parsed as `true`
/// (it masks the whole value, failing closed).
fn side(
    value: Option<&crate::model::RawValue>,
    sensitive: Option<&crate::model::RawValue>,
    unknown: Option<&crate::model::RawValue>,
    masker: &Masker,
) -> Value {
    let marker = |r: Option<&crate::model::RawValue>| r.map(|r| serde_json::from_str::<Value>(r.get()).unwrap_or(Value::Bool(true)));
    canon(parse(value).as_ref(), marker(sensitive).as_ref(), marker(unknown).as_ref(), masker)
}

/// A marker that cannot be placed on the value below it (a string, a number,
/// an object over a list) but marks something: it marks the whole value.
fn misplaced(m: Option<&Value>, v: Option<&Value>) -> bool {
    match (m, v) {
        (Some(Value::Object(_)), Some(Value::Object(_))) | (Some(Value::Array(_)), Some(Value::Array(_))) => false,
        (Some(Value::Bool(_)) | Some(Value::Null) | None, _) => false,
        (Some(m), _) => markers::any(Some(m)),
    }
}

/// The canonical form of a value with its sensitivity and unknown markers.
pub(crate) fn canon(v: Option<&Value>, sensitive: Option<&Value>, unknown: Option<&Value>, masker: &Masker) -> Value {
    if markers::whole(unknown) {
        return marker(UNKNOWN_KEY, Value::Bool(true));
    }
    let absent = matches!(v, None | Some(Value::Null));
    if absent && !markers::any(unknown) {
        // Nothing to hide in a value that is not there.
        return Value::Null;
    }
    if markers::whole(sensitive) || misplaced(sensitive, v) {
        return secret(&plain(v));
    }
    let unknown_obj = unknown.and_then(Value::as_object);
    let unknown_arr = unknown.and_then(Value::as_array);
    let sens_child = |k: &str| sensitive.and_then(Value::as_object).and_then(|o| o.get(k));
    match v {
        Some(Value::Object(o)) => {
            let mut keys: Vec<&String> = o.keys().collect();
            if let Some(u) = unknown_obj {
                keys.extend(u.iter().filter(|(_, m)| markers::any(Some(m))).map(|(k, _)| k));
            }
            keys.sort();
            keys.dedup();
            let mut out = Map::new();
            for k in keys {
                let child = canon(o.get(k), sens_child(k), unknown_obj.and_then(|u| u.get(k)), masker);
                out.insert(canon_key(k, masker), child);
            }
            Value::Object(out)
        }
        Some(Value::Array(a)) => {
            let len = a.len().max(unknown_arr.map_or(0, Vec::len));
            let sens = sensitive.and_then(Value::as_array);
            Value::Array(
                (0..len).map(|i| canon(a.get(i), sens.and_then(|s| s.get(i)), unknown_arr.and_then(|u| u.get(i)), masker)).collect(),
            )
        }
        // Absent, with parts unknown: the known-after-apply parts of a new object.
        None | Some(Value::Null) if unknown_obj.is_some_and(|u| !u.is_empty()) || unknown_arr.is_some_and(|u| !u.is_empty()) => {
            let empty = if unknown_obj.is_some() { Value::Object(Map::new()) } else { Value::Array(Vec::new()) };
            canon(Some(&empty), sensitive, unknown, masker)
        }
        None | Some(Value::Null) => Value::Null,
        Some(leaf) if masker.value_holds_secret(leaf) => secret(&plain(Some(leaf))),
        Some(Value::Number(n)) => number(&n.to_string()),
        Some(leaf) => leaf.clone(),
    }
}

/// A value with no markers (what a secret's hash covers).
fn plain(v: Option<&Value>) -> Value {
    canon(v, None, None, &Masker::default())
}

fn marker(key: &str, v: Value) -> Value {
    let mut m = Map::new();
    m.insert(key.into(), v);
    Value::Object(m)
}

fn secret(v: &Value) -> Value {
    marker(SENSITIVE_KEY, Value::String(secret_digest(&[SECRET_SALT.as_bytes(), &canonical_bytes(v)])))
}

/// A map key, or for a key that holds a secret `$sensitive:hmac-sha256:...`
/// (a map key can be a secret: compared, never printed; without a key,
/// printed as `$sensitive:1`, `$sensitive:2`... by [`public`]).
fn canon_key(k: &str, masker: &Masker) -> String {
    if masker.value_holds_secret(&Value::String(k.to_string())) {
        return format!("{SENSITIVE_KEY}:{}", secret_digest(&[b"key\n", SECRET_SALT.as_bytes(), k.as_bytes()]));
    }
    escape_key(k)
}

/// True for a map key [`canon_key`] wrote for a secret key.
fn is_secret_key(k: &str) -> bool {
    k.strip_prefix(SENSITIVE_KEY).is_some_and(|r| r.starts_with(':'))
}

/// True when a canonical value holds a secret's hash (as a value or a key).
fn holds_digest(v: &Value) -> bool {
    match v {
        Value::Object(o) if o.len() == 1 && o.get(SENSITIVE_KEY).is_some_and(Value::is_string) => true,
        Value::Object(o) => o.iter().any(|(k, x)| is_secret_key(k) || holds_digest(x)),
        Value::Array(a) => a.iter().any(holds_digest),
        _ => false,
    }
}

/// A canonical value as it is printed and fingerprinted. With the CI's key,
/// as it is. Without, every secret's hash (made with this run's key, which
/// only `diff` compares) is dropped: `{"$sensitive": true}`, and the secret
/// keys of a map are `$sensitive:1`, `$sensitive:2`... in the order of their
/// values' public forms (an order that depends on no secret).
pub(crate) fn public(v: &Value) -> Value {
    if keyed() || !holds_digest(v) {
        return v.clone();
    }
    public_of(v)
}

fn public_of(v: &Value) -> Value {
    match v {
        Value::Object(o) if o.len() == 1 && o.get(SENSITIVE_KEY).is_some_and(Value::is_string) => marker(SENSITIVE_KEY, Value::Bool(true)),
        Value::Object(o) => {
            let mut out = Map::new();
            let mut hidden: Vec<Vec<u8>> = Vec::new();
            let mut hidden_values: Vec<Value> = Vec::new();
            for (k, x) in o {
                let x = public_of(x);
                if is_secret_key(k) {
                    hidden.push(canonical_bytes(&x));
                    hidden_values.push(x);
                } else {
                    out.insert(k.clone(), x);
                }
            }
            let mut order: Vec<usize> = (0..hidden.len()).collect();
            order.sort_by(|a, b| hidden[*a].cmp(&hidden[*b]));
            for (n, i) in order.into_iter().enumerate() {
                out.insert(format!("{SENSITIVE_KEY}:{}", n + 1), hidden_values[i].clone());
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(public_of).collect()),
        other => other.clone(),
    }
}

/// Every `action_invocations` and `deferred_action_invocations` entry
/// (Terraform 1.14+), by address: each field as a value, `config_values`
/// with its `config_sensitive` and `config_unknown` markers as `config`, a
/// deferred one's `reason` as `deferred_reason`. An entry without an address
/// is kept under where it is (`action_invocations[2]`), and a list that is no
/// list as a whole: nothing in them goes uncounted.
fn action_entries(plan: &Plan<'_>, masker: &Masker) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    for (name, raw, deferred) in
        [("action_invocations", plan.action_invocations, false), ("deferred_action_invocations", plan.deferred_action_invocations, true)]
    {
        let Some(v) = parse(raw).filter(|v| !v.is_null()) else { continue };
        let Value::Array(items) = v else {
            insert(&mut out, name.to_string(), canon(Some(&v), None, None, masker));
            continue;
        };
        for (i, item) in items.iter().enumerate() {
            let (reason, inv) = match item {
                Value::Object(o) if deferred => (o.get("reason"), o.get("action_invocation")),
                _ => (None, Some(item)),
            };
            let Some(Value::Object(a)) = inv else {
                insert(&mut out, format!("{name}[{i}]"), canon(Some(item), None, None, masker));
                continue;
            };
            let mut e = Map::new();
            for (k, x) in a.iter().filter(|(k, _)| !matches!(k.as_str(), "config_values" | "config_sensitive" | "config_unknown")) {
                e.insert(escape_key(k), canon(Some(x), None, None, masker));
            }
            let marker = |k: &str| {
                a.get(k).map(|m| if m.is_object() || m.is_array() || m.is_boolean() || m.is_null() { m.clone() } else { Value::Bool(true) })
            };
            e.insert(
                "config".into(),
                canon(a.get("config_values"), marker("config_sensitive").as_ref(), marker("config_unknown").as_ref(), masker),
            );
            if deferred {
                e.insert("deferred_reason".into(), canon(reason, None, None, masker));
            }
            let key = match a.get("address") {
                Some(Value::String(s)) if !s.is_empty() => s.clone(),
                _ => format!("{name}[{i}]"),
            };
            insert(&mut out, key, Value::Object(e));
        }
    }
    out
}

fn escape_key(k: &str) -> String {
    if k.starts_with('$') {
        format!("${k}")
    } else {
        k.to_string()
    }
}

fn unescape_key(k: &str) -> &str {
    k.strip_prefix('$').filter(|r| r.starts_with('$')).unwrap_or(k)
}

/// A number by its exact decimal value, written without an exponent when it
/// is within 40 digits of the point (`1.0` and `10e-1` are `1`).
fn number(text: &str) -> Value {
    let Some((neg, digits, exp)) = crate::query::values::decimal(text) else {
        return Value::String(text.to_string());
    };
    let sign = if neg { "-" } else { "" };
    let s = if digits.is_empty() {
        "0".to_string()
    } else if (0..=40).contains(&exp) {
        format!("{sign}{digits}{}", "0".repeat(exp as usize))
    } else if (-40..0).contains(&exp) {
        let point = digits.len() as i128 + exp;
        if point > 0 {
            let (i, f) = digits.split_at(point as usize);
            format!("{sign}{i}.{f}")
        } else {
            format!("{sign}0.{}{digits}", "0".repeat((-point) as usize))
        }
    } else {
        format!("{sign}{digits}e{exp}")
    };
    serde_json::from_str(&s).unwrap_or(Value::String(s))
}

/// The canonical serialisation: compact JSON, object keys sorted by their
/// UTF-8 bytes, strings escaped as serde_json escapes them, numbers as
/// normalised. What a fingerprint hashes.
pub fn canonical_bytes(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    write_canonical(v, &mut out);
    out
}

/// `open`, each item written by `each` with commas between, then `close`.
fn joined<T>(open: u8, items: impl IntoIterator<Item = T>, close: u8, out: &mut Vec<u8>, mut each: impl FnMut(T, &mut Vec<u8>)) {
    out.push(open);
    for (i, x) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        each(x, out);
    }
    out.push(close);
}

fn write_canonical(v: &Value, out: &mut Vec<u8>) {
    match v {
        Value::Object(o) => {
            let mut keys: Vec<&String> = o.keys().collect();
            keys.sort();
            joined(b'{', keys, b'}', out, |k, out| {
                // Writing to a Vec cannot fail.
                let _ = serde_json::to_writer(&mut *out, k);
                out.push(b':');
                write_canonical(&o[k], out);
            });
        }
        Value::Array(a) => joined(b'[', a, b']', out, write_canonical),
        // Straight into `out`: a huge string is not written twice.
        other => {
            let _ = serde_json::to_writer(&mut *out, other);
        }
    }
}

/// `planview fingerprint --format json`: the fingerprint and what went into it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct FingerprintReport {
    pub kind: &'static str,
    pub file: String,
    pub fingerprint: String,
    pub canonical_version: &'static str,
    /// The canonical form the fingerprint hashes (serialised by [`canonical_bytes`]).
    pub canonical: Value,
}

impl FingerprintReport {
    pub(crate) fn new(file: &str, intent: &Intent) -> Self {
        FingerprintReport {
            kind: "fingerprint",
            file: file.to_string(),
            fingerprint: intent.fingerprint(),
            canonical_version: CANONICAL_VERSION,
            canonical: intent.canonical(),
        }
    }
}

/// One of the two plans of a `diff`.
#[derive(Debug, Clone, Serialize)]
pub struct PlanRef {
    pub file: String,
    pub terraform_version: Option<String>,
    pub fingerprint: String,
}

/// `planview diff OLD NEW`: what the new plan would do differently.
#[derive(Debug, Clone, Serialize)]
pub struct DiffReport {
    pub kind: &'static str,
    pub old: PlanRef,
    pub new: PlanRef,
    #[serde(flatten)]
    pub comparison: Comparison,
}

impl DiffReport {
    /// Compare two plans' models; each given with its file name and CLI
    /// version (the in-memory twin of `diff`'s streamed comparison, which
    /// tests hold it to: the `testkit` feature).
    #[cfg(any(test, feature = "testkit"))]
    pub fn new(old: (&str, Option<String>, &Intent), new: (&str, Option<String>, &Intent)) -> Self {
        let plan_ref = |(file, tf, i): (&str, Option<String>, &Intent)| PlanRef {
            file: file.to_string(),
            terraform_version: tf,
            fingerprint: i.fingerprint(),
        };
        DiffReport { kind: "diff", comparison: compare(old.2, new.2), old: plan_ref(old), new: plan_ref(new) }
    }

    /// One line: `The plans would do the same.` or what differs, counted.
    pub fn verdict(&self) -> String {
        let c = &self.comparison.counts;
        if self.comparison.same {
            "The two plans would do the same.".to_string()
        } else {
            format!("The plans differ: {} added, {} gone, {} changed.", c.added, c.gone, c.changed)
        }
    }
}

// ---------------------------------------------------------------------------
// Comparing two models.

/// Which part of the plan a difference is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Section {
    Plan,
    Resource,
    Drift,
    Output,
    Check,
    Action,
}

impl Section {
    pub fn as_str(self) -> &'static str {
        match self {
            Section::Plan => "plan",
            Section::Resource => "resource",
            Section::Drift => "drift",
            Section::Output => "output",
            Section::Check => "check",
            Section::Action => "action",
        }
    }
}

/// How an entry differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Only in the new plan.
    Added,
    /// Only in the old plan.
    Gone,
    /// In both, different.
    Changed,
}

/// One field (or one value inside `before`/`after`) that differs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldDiff {
    /// `actions`, `reason`, `replace_paths`, `before`, `after`, `status`, ...
    pub field: String,
    /// The path inside the field's value (empty for the whole value).
    pub path: Vec<PathStep>,
    /// `field` then the path, as people write it: `after.tags["Name"]`.
    pub path_text: String,
    pub old: Option<Shown>,
    pub new: Option<Shown>,
    /// Set when the values shown cannot tell the difference: `the sensitive
    /// value differs`, `moved from [2]`.
    pub note: Option<String>,
}

/// One entry (resource change, drift, output, check, the plan) that differs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntryDiff {
    pub section: Section,
    /// The entry's key in the new plan (in the old one when it is gone).
    pub address: String,
    /// The old plan's key when it is another (the entry was followed through a move).
    pub old_address: Option<String>,
    pub status: Status,
    /// What the change does in each plan (`update`, `replace`, ...; null when absent).
    pub old_action: Option<String>,
    pub new_action: Option<String>,
    pub fields: Vec<FieldDiff>,
    /// Where it is declared in the new plan's configuration, when that was
    /// read (set by the runner; `diff --format json`'s `location`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<crate::model::Location>,
}

/// The counts of a comparison.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct DiffCounts {
    pub added: u64,
    pub gone: u64,
    pub changed: u64,
}

/// Every difference between what two plans would do; empty when they would
/// do the same (exactly when their fingerprints are equal, but for a secret's
/// value when the fingerprint has no key: see [`public`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    pub same: bool,
    pub counts: DiffCounts,
    pub entries: Vec<EntryDiff>,
}

impl Comparison {
    /// The comparison as it may be printed once several plans were read
    /// (`masker` holds the secrets of both): each plan's model masked only
    /// its own secrets, so a value or map key marked sensitive in one plan
    /// and held unmarked by the other is masked here. A map key that is a
    /// secret of its own plan is a hash under this run's key, which is never
    /// printed: it shows masked too (a hash under the CI's key is printed, as
    /// `fingerprint --format json` prints it).
    pub fn masked(mut self, masker: &Masker) -> Comparison {
        let run_keyed = !keyed();
        for f in self.entries.iter_mut().flat_map(|e| e.fields.iter_mut()) {
            let mut keys = false;
            for step in &mut f.path {
                if let PathStep::Key(k) = step {
                    if (run_keyed && is_secret_key(k)) || masker.value_holds_secret(&Value::String(k.clone())) {
                        *k = crate::secrets::MASK.to_string();
                        keys = true;
                    }
                }
            }
            if keys {
                f.path_text = crate::query::path::under(&f.field, &f.path);
            }
            if masker.is_empty() {
                continue;
            }
            for side in [&mut f.old, &mut f.new] {
                if let Some(Shown::Value(text)) = side {
                    let holds = match serde_json::from_str::<Value>(text) {
                        Ok(v) => masker.value_holds_secret(&v),
                        Err(_) => masker.value_holds_secret(&Value::String(text.clone())),
                    };
                    if holds {
                        *side = Some(Shown::Sensitive);
                    }
                }
            }
        }
        self
    }
}

/// Compare what `old` and `new` would do, both models in memory (the oracle
/// the streamed comparison, [`streamed::compare_indexed`], is held to: the
/// `testkit` feature).
#[cfg(any(test, feature = "testkit"))]
pub fn compare(old: &Intent, new: &Intent) -> Comparison {
    let mut entries = compare_plan(old, new);
    compare_changes(Section::Resource, &old.resources, &new.resources, &mut entries);
    compare_changes(Section::Drift, &old.drift, &new.drift, &mut entries);
    compare_rest(old, new, entries)
}

/// The plan's flags first (`entries` starts empty); see [`compare`].
fn compare_plan(old: &Intent, new: &Intent) -> Vec<EntryDiff> {
    let plan_fields = |i: &Intent| {
        let mut m = Map::new();
        m.insert("errored".into(), Value::Bool(i.errored));
        m.insert("complete".into(), Value::Bool(i.complete));
        Value::Object(m)
    };
    entry_diff(Section::Plan, "plan", None, Some(&plan_fields(old)), Some(&plan_fields(new))).into_iter().collect()
}

/// Outputs and checks after the `entries` found so far, then the counts.
fn compare_rest(old: &Intent, new: &Intent, mut entries: Vec<EntryDiff>) -> Comparison {
    compare_map(Section::Output, &old.outputs, &new.outputs, &mut entries);
    compare_map(Section::Check, &old.checks, &new.checks, &mut entries);
    compare_map(Section::Action, &old.actions, &new.actions, &mut entries);
    let mut counts = DiffCounts::default();
    for e in &entries {
        match e.status {
            Status::Added => counts.added += 1,
            Status::Gone => counts.gone += 1,
            Status::Changed => counts.changed += 1,
        }
    }
    Comparison { same: entries.is_empty(), counts, entries }
}

/// Entries keyed alike in both plans, compared key by key.
fn compare_map(section: Section, old: &BTreeMap<String, Value>, new: &BTreeMap<String, Value>, out: &mut Vec<EntryDiff>) {
    let mut keys: Vec<&String> = old.keys().chain(new.keys()).collect();
    keys.sort();
    keys.dedup();
    for k in keys {
        out.extend(entry_diff(section, k, None, old.get(k), new.get(k)));
    }
}

/// Resource changes and drift: by address, following moves (see [`pair_changes`]).
#[cfg(any(test, feature = "testkit"))]
fn compare_changes(section: Section, old: &BTreeMap<String, Value>, new: &BTreeMap<String, Value>, out: &mut Vec<EntryDiff>) {
    for p in pair_changes(old, new) {
        let old_key = p.old.filter(|o| *o != p.key).map(str::to_string);
        let (o, n) = (p.old.and_then(|o| old.get(o)), if p.in_new { new.get(p.key) } else { None });
        out.extend(entry_diff(section, p.key, old_key, o, n));
    }
}

/// The entries of one section of a plan (resource changes or drift) as
/// [`pair_changes`] sees them: their keys (sorted), and of each its address
/// (a prefix of the key) and previous address. A model read whole
/// (`BTreeMap`) and one streamed ([`streamed::SectionIndex`]) pair alike.
pub(crate) trait Keyed {
    /// Every key, sorted.
    fn keys(&self) -> Box<dyn Iterator<Item = &str> + '_>;
    /// The key as stored, when there is an entry under it.
    fn get_key(&self, key: &str) -> Option<&str>;
    fn contains(&self, key: &str) -> bool {
        self.get_key(key).is_some()
    }
    /// The entry's address and previous address (`None` when not there).
    fn links(&self, key: &str) -> Option<(&str, Option<&str>)>;
}

impl Keyed for BTreeMap<String, Value> {
    fn keys(&self) -> Box<dyn Iterator<Item = &str> + '_> {
        Box::new(self.keys().map(String::as_str))
    }
    fn get_key(&self, key: &str) -> Option<&str> {
        self.get_key_value(key).map(|(k, _)| k.as_str())
    }
    fn links(&self, key: &str) -> Option<(&str, Option<&str>)> {
        let v = self.get(key)?;
        Some((v.get("address").and_then(Value::as_str).unwrap_or_default(), v.get("previous_address").and_then(Value::as_str)))
    }
}

/// Which entries of two plans are compared with which.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pair<'a> {
    /// The key reported: the new plan's, or the old one's for an entry gone.
    pub key: &'a str,
    /// The entry in the old plan it is compared with, if any.
    pub old: Option<&'a str>,
    /// Whether `key` is an entry of the new plan.
    pub in_new: bool,
}

/// Pairs by address, following moves: first every new entry (by key), then
/// the old entries no new one was paired with. A new entry without an old one
/// at its address is paired with the old entry at its previous address, or
/// with the old entry that moved from its address.
pub(crate) fn pair_changes<'a>(old: &'a dyn Keyed, new: &'a dyn Keyed) -> Vec<Pair<'a>> {
    let suffix_of = |k: &'a str, address: &str| k.strip_prefix(address).unwrap_or_default();
    let mut claimed: std::collections::BTreeSet<&str> = new.keys().filter(|k| old.contains(k)).collect();
    // The old entries that moved, by their previous address (in key order).
    let mut moved_from: std::collections::HashMap<&str, Vec<&str>> = std::collections::HashMap::new();
    for ok in old.keys() {
        if let Some((_, Some(p))) = old.links(ok) {
            moved_from.entry(p).or_default().push(ok);
        }
    }
    let mut pairs: Vec<Pair<'a>> = Vec::new();
    for k in new.keys() {
        if old.contains(k) {
            pairs.push(Pair { key: k, old: Some(k), in_new: true });
            continue;
        }
        let (address, prev) = new.links(k).unwrap_or_default();
        let suffix = suffix_of(k, address);
        // Its previous address in the old plan, or an old entry that moved from its address.
        let by_prev = prev.and_then(|p| old.get_key(&format!("{p}{suffix}")));
        let by_old_prev =
            || {
                moved_from.get(address)?.iter().copied().find(|ok| {
                    !claimed.contains(ok) && !new.contains(ok) && old.links(ok).is_some_and(|(oa, _)| suffix_of(ok, oa) == suffix)
                })
            };
        let found = by_prev.filter(|p| !claimed.contains(p) && !new.contains(p)).or_else(by_old_prev);
        if let Some(o) = found {
            claimed.insert(o);
        }
        pairs.push(Pair { key: k, old: found, in_new: true });
    }
    let gone: Vec<&str> = old.keys().filter(|k| !claimed.contains(k)).collect();
    pairs.extend(gone.into_iter().map(|k| Pair { key: k, old: Some(k), in_new: false }));
    pairs
}

fn action_of(v: Option<&Value>) -> Option<String> {
    let actions = v?.get("actions")?.as_array()?;
    let actions: Vec<crate::model::Action> = actions.iter().filter_map(Value::as_str).map(crate::model::Action::parse).collect();
    Some(crate::model::ChangeKind::from_actions(&actions).key())
}

fn entry_diff(section: Section, key: &str, old_key: Option<String>, old: Option<&Value>, new: Option<&Value>) -> Option<EntryDiff> {
    if old == new {
        return None;
    }
    let status = match (old, new) {
        (None, _) => Status::Added,
        (_, None) => Status::Gone,
        _ => Status::Changed,
    };
    let mut fields = Vec::new();
    match (old.and_then(Value::as_object), new.and_then(Value::as_object)) {
        (o, n) if o.is_some() || n.is_some() => {
            let mut names: Vec<&String> = o.into_iter().flat_map(|m| m.keys()).chain(n.into_iter().flat_map(|m| m.keys())).collect();
            names.sort_by_key(|f| field_rank(f));
            names.dedup();
            for f in names {
                let (a, b) = (o.and_then(|m| m.get(f)), n.and_then(|m| m.get(f)));
                let null = Value::Null;
                let (a, b) = (a.unwrap_or(&null), b.unwrap_or(&null));
                if a == b {
                    continue;
                }
                if matches!(f.as_str(), "before" | "after") || (section == Section::Action && f == "config") {
                    let mut path = Vec::new();
                    values(f, Some(a).filter(|v| !v.is_null()), Some(b).filter(|v| !v.is_null()), &mut path, &mut fields);
                } else {
                    fields.push(field(f, &[], o.map(|_| a), n.map(|_| b), None));
                }
            }
        }
        // A check's status (a plain value).
        _ => fields.push(field("status", &[], old, new, None)),
    }
    if status != Status::Changed {
        // Who it is is in the entry's own address.
        let empty = |s: &Option<Shown>| matches!(s, None | Some(Shown::Null)) || matches!(s, Some(Shown::Value(v)) if v == "[]");
        fields.retain(|f| {
            let identity = matches!(f.field.as_str(), "address" | "mode" | "type" | "provider_name" | "deposed");
            !(identity || empty(&f.old) && empty(&f.new))
        });
    }
    let (old_action, new_action) = match section {
        Section::Resource | Section::Drift | Section::Output => (action_of(old), action_of(new)),
        _ => (None, None),
    };
    Some(EntryDiff { section, address: key.to_string(), old_address: old_key, status, old_action, new_action, fields, location: None })
}

/// Fields in the order they are reported.
fn field_rank(f: &str) -> (usize, &str) {
    const ORDER: &[&str] =
        &["address", "previous_address", "deposed", "actions", "reason", "replace_paths", "mode", "type", "provider_name", "importing"];
    (ORDER.iter().position(|o| *o == f).unwrap_or(ORDER.len() + usize::from(f == "after")), f)
}

fn special(v: &Value) -> Option<&str> {
    let o = v.as_object().filter(|o| o.len() == 1)?;
    [UNKNOWN_KEY, SENSITIVE_KEY].into_iter().find(|k| o.contains_key(*k))
}

/// What a canonical value looks like to a reader (markers in words, keys unescaped).
fn display(v: &Value) -> Value {
    match special(v) {
        Some(UNKNOWN_KEY) => return Value::String(crate::query::values::UNKNOWN.into()),
        Some(_) => return Value::String(crate::query::values::SENSITIVE.into()),
        None => {}
    }
    match v {
        Value::Object(o) => Value::Object(o.iter().map(|(k, x)| (unescape_key(k).to_string(), display(x))).collect()),
        Value::Array(a) => Value::Array(a.iter().map(display).collect()),
        other => other.clone(),
    }
}

fn shown(v: Option<&Value>) -> Option<Shown> {
    // This run's hashes of secrets are never printed.
    let v = &public(v?);
    Some(match special(v) {
        Some(UNKNOWN_KEY) => Shown::Unknown,
        Some(_) => Shown::Sensitive,
        None if v.is_null() => Shown::Null,
        None if special_inside(v) => Shown::Sensitive,
        None => Shown::Value(serde_json::to_string(&display(v)).unwrap_or_default()),
    })
}

/// A secret anywhere inside: the whole value is shown masked.
fn special_inside(v: &Value) -> bool {
    match special(v) {
        Some(SENSITIVE_KEY) => true,
        Some(_) => false,
        None => match v {
            Value::Object(o) => o.values().any(special_inside),
            Value::Array(a) => a.iter().any(special_inside),
            _ => false,
        },
    }
}

fn field(name: &str, path: &[PathStep], old: Option<&Value>, new: Option<&Value>, note: Option<String>) -> FieldDiff {
    let both_secret = old.and_then(special) == Some(SENSITIVE_KEY) && new.and_then(special) == Some(SENSITIVE_KEY);
    let note = note.or_else(|| both_secret.then(|| "the sensitive value differs".to_string()));
    FieldDiff {
        field: name.to_string(),
        path: path.to_vec(),
        path_text: crate::query::path::under(name, path),
        old: shown(old),
        new: shown(new),
        note,
    }
}

/// Every place two canonical values differ: objects key by key, lists aligned
/// by content (as `show` aligns them), anything else whole.
fn values(name: &str, old: Option<&Value>, new: Option<&Value>, path: &mut Vec<PathStep>, out: &mut Vec<FieldDiff>) {
    if old == new {
        return;
    }
    match (old.filter(|v| special(v).is_none()), new.filter(|v| special(v).is_none())) {
        (Some(Value::Object(a)), Some(Value::Object(b))) => {
            let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                path.push(PathStep::Key(unescape_key(k).to_string()));
                values(name, a.get(k), b.get(k), path, out);
                path.pop();
            }
        }
        (Some(Value::Array(a)), Some(Value::Array(b))) => {
            for slot in align(a, b, b.len(), None) {
                let (i, j, note) = match slot {
                    Slot::Same(..) => continue,
                    Slot::Moved(i, j) => (Some(i), Some(j), Some(format!("moved from [{i}]"))),
                    Slot::Paired(i, j) => (Some(i), Some(j), None),
                    Slot::Removed(i) => (Some(i), None, None),
                    Slot::Added(j) => (None, Some(j), None),
                };
                let at = j.or(i).unwrap_or_default();
                path.push(PathStep::Index(at as u64));
                match (i, j, note) {
                    (Some(i), Some(j), None) => values(name, a.get(i), b.get(j), path, out),
                    (i, j, note) => out.push(field(name, path, i.and_then(|i| a.get(i)), j.and_then(|j| b.get(j)), note)),
                }
                path.pop();
            }
        }
        // One side absent: the other one's parts one by one (as `show` lists a create).
        (None, Some(Value::Object(b))) => b.iter().for_each(|(k, x)| {
            path.push(PathStep::Key(unescape_key(k).to_string()));
            values(name, None, Some(x).filter(|x| !x.is_null()), path, out);
            path.pop();
        }),
        (Some(Value::Object(a)), None) => a.iter().for_each(|(k, x)| {
            path.push(PathStep::Key(unescape_key(k).to_string()));
            values(name, Some(x).filter(|x| !x.is_null()), None, path, out);
            path.pop();
        }),
        _ => out.push(field(name, path, old, new, None)),
    }
}

#[cfg(test)]
mod tests;
