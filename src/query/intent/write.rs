//! A resource change's canonical bytes written straight from its parsed
//! values, without building the canonical tree ([`super::canon`]), writing it
//! ([`super::canonical_bytes`]) and rebuilding its public form
//! ([`super::public`]) on the way: what the streamed fingerprint and `diff`'s
//! hashes ([`super::streamed::Hasher`]) spend their time on. The bytes are the
//! same as the tree's, byte for byte (tests hold the two to each other).
//!
//! A value or map key is looked up among the plan's secrets once: map keys
//! repeat from one change to the next (kept, up to [`KEYS_KEPT`]), and the
//! values of a change's two sides mostly repeat each other (kept per change).

use super::{
    change_head, escape_key, joined, markers, misplaced, number, parse, public_of, secret_digest, write_canonical, SECRET_SALT,
    SENSITIVE_KEY, UNKNOWN_KEY,
};
use crate::model::ResourceChange;
use crate::secrets::Masker;
use serde_json::Value;
use std::collections::HashMap;

/// How many map keys' answers (secret or not) are kept for later changes.
const KEYS_KEPT: usize = 1 << 16;

/// Which form to write: `hashes`, every secret as its keyed hash (the full
/// form, which `diff` hashes; also the public form when the CI gives a key);
/// else as the public form without a key prints it (`{"$sensitive":true}`,
/// secret map keys numbered).
#[derive(Clone, Copy)]
struct Form {
    hashes: bool,
    /// No secret to look for (inside a secret's own hash: [`super::plain`]).
    plain: bool,
}

/// Writes the canonical bytes of resource changes, with the plan's secrets.
pub(crate) struct Writer<'m> {
    masker: &'m Masker,
    keys: HashMap<String, bool>,
}

impl<'m> Writer<'m> {
    pub(crate) fn new(masker: &'m Masker) -> Self {
        Writer { masker, keys: HashMap::new() }
    }

    /// The canonical bytes of `rc`'s entry ([`super::change_entry`]): with
    /// `hashes`, those of its full form ([`super::canonical_bytes`]); else
    /// those of its public form without a key ([`super::public`]).
    pub(crate) fn change(&mut self, rc: &ResourceChange<'_>, hashes: bool, out: &mut Vec<u8>) {
        let ch = &rc.change;
        let marker = |r: Option<&crate::model::RawValue>| r.map(|r| serde_json::from_str::<Value>(r.get()).unwrap_or(Value::Bool(true)));
        let (before, after) = (parse(ch.before), parse(ch.after));
        let (bs, aas, au) = (marker(ch.before_sensitive), marker(ch.after_sensitive), marker(ch.after_unknown));
        let sides = [(before.as_ref(), bs.as_ref(), None), (after.as_ref(), aas.as_ref(), au.as_ref())];
        self.entry(rc, sides, hashes, &mut HashMap::new(), out);
    }

    /// [`Writer::change`] twice from one parse: the full form's bytes into
    /// `full`, the public form's (without a key) into `public`.
    pub(crate) fn change_both(&mut self, rc: &ResourceChange<'_>, full: &mut Vec<u8>, public: &mut Vec<u8>) {
        let ch = &rc.change;
        let marker = |r: Option<&crate::model::RawValue>| r.map(|r| serde_json::from_str::<Value>(r.get()).unwrap_or(Value::Bool(true)));
        let (before, after) = (parse(ch.before), parse(ch.after));
        let (bs, aas, au) = (marker(ch.before_sensitive), marker(ch.after_sensitive), marker(ch.after_unknown));
        let sides = [(before.as_ref(), bs.as_ref(), None), (after.as_ref(), aas.as_ref(), au.as_ref())];
        let mut leaves = HashMap::new();
        self.entry(rc, sides, true, &mut leaves, full);
        self.entry(rc, sides, false, &mut leaves, public);
    }

    #[allow(clippy::type_complexity)]
    fn entry<'v>(
        &mut self,
        rc: &ResourceChange<'_>,
        sides: [(Option<&'v Value>, Option<&'v Value>, Option<&'v Value>); 2],
        hashes: bool,
        leaves: &mut HashMap<&'v str, bool>,
        out: &mut Vec<u8>,
    ) {
        let head = change_head(rc, self.masker);
        let form = Form { hashes, plain: false };
        let mut keys: Vec<&str> = head.keys().map(String::as_str).chain(["after", "before"]).collect();
        keys.sort_unstable();
        joined(b'{', keys, b'}', out, |k, out| {
            string(k, out);
            out.push(b':');
            match k {
                "before" => self.value(sides[0].0, sides[0].1, sides[0].2, form, leaves, out),
                "after" => self.value(sides[1].0, sides[1].1, sides[1].2, form, leaves, out),
                _ if hashes => write_canonical(&head[k], out),
                _ => write_canonical(&public_of(&head[k]), out),
            }
        });
    }

    /// Whether the map key `k` holds a secret (as [`super::canon_key`] asks).
    fn key_secret(&mut self, k: &str) -> bool {
        if let Some(&s) = self.keys.get(k) {
            return s;
        }
        let s = self.masker.value_holds_secret(&Value::String(k.to_string()));
        if self.keys.len() < KEYS_KEPT {
            self.keys.insert(k.to_string(), s);
        }
        s
    }

    /// Whether a leaf holds a secret (strings looked up once per change).
    fn leaf_secret<'v>(&self, leaf: &'v Value, leaves: &mut HashMap<&'v str, bool>) -> bool {
        match leaf {
            Value::String(s) => *leaves.entry(s.as_str()).or_insert_with(|| self.masker.value_holds_secret(leaf)),
            Value::Bool(_) | Value::Null => false,
            other => self.masker.value_holds_secret(other),
        }
    }

    /// [`super::canon`] of `v` with its markers, written in `form`.
    fn value<'v>(
        &mut self,
        v: Option<&'v Value>,
        sensitive: Option<&'v Value>,
        unknown: Option<&'v Value>,
        form: Form,
        leaves: &mut HashMap<&'v str, bool>,
        out: &mut Vec<u8>,
    ) {
        if markers::whole(unknown) {
            out.extend_from_slice(b"{");
            string(UNKNOWN_KEY, out);
            out.extend_from_slice(b":true}");
            return;
        }
        let absent = matches!(v, None | Some(Value::Null));
        if absent && !markers::any(unknown) {
            out.extend_from_slice(b"null");
            return;
        }
        if markers::whole(sensitive) || misplaced(sensitive, v) {
            self.secret(v, form, out);
            return;
        }
        let unknown_obj = unknown.and_then(Value::as_object);
        let unknown_arr = unknown.and_then(Value::as_array);
        match v {
            Some(Value::Object(o)) => {
                let mut keys: Vec<&'v String> = o.keys().collect();
                if let Some(u) = unknown_obj {
                    keys.extend(u.iter().filter(|(_, m)| markers::any(Some(m))).map(|(k, _)| k));
                }
                keys.sort_unstable();
                keys.dedup();
                let sens = sensitive.and_then(Value::as_object);
                let child = |k: &str| (o.get(k), sens.and_then(|s| s.get(k)), unknown_obj.and_then(|u| u.get(k)));
                if form.plain || !keys.iter().any(|k| self.key_secret(k)) {
                    // Keys in order: escaping (`$` doubled) keeps their order.
                    joined(b'{', keys, b'}', out, |k, out| {
                        key(k, out);
                        out.push(b':');
                        let (cv, cs, cu) = child(k);
                        self.value(cv, cs, cu, form, leaves, out);
                    });
                    return;
                }
                // A map key that is a secret: its hash as the key (or, in the
                // public form without a key, numbered in the order of the
                // values' bytes), the members then sorted by their keys.
                let mut members: Vec<(String, Vec<u8>)> = Vec::with_capacity(keys.len());
                let mut hidden: Vec<Vec<u8>> = Vec::new();
                for k in keys {
                    let (cv, cs, cu) = child(k);
                    let mut bytes = Vec::new();
                    self.value(cv, cs, cu, form, leaves, &mut bytes);
                    if !self.key_secret(k) {
                        members.push((escape_key(k), bytes));
                    } else if form.hashes {
                        let digest = secret_digest(&[b"key\n", SECRET_SALT.as_bytes(), k.as_bytes()]);
                        members.push((format!("{SENSITIVE_KEY}:{digest}"), bytes));
                    } else {
                        hidden.push(bytes);
                    }
                }
                hidden.sort();
                members.extend(hidden.into_iter().enumerate().map(|(n, b)| (format!("{SENSITIVE_KEY}:{}", n + 1), b)));
                members.sort_unstable_by(|a, b| a.0.cmp(&b.0));
                joined(b'{', members, b'}', out, |(k, bytes), out| {
                    string(&k, out);
                    out.push(b':');
                    out.extend_from_slice(&bytes);
                });
            }
            Some(Value::Array(a)) => {
                let len = a.len().max(unknown_arr.map_or(0, Vec::len));
                let sens = sensitive.and_then(Value::as_array);
                joined(b'[', 0..len, b']', out, |i, out| {
                    self.value(a.get(i), sens.and_then(|s| s.get(i)), unknown_arr.and_then(|u| u.get(i)), form, leaves, out)
                });
            }
            // Absent, with parts unknown: the known-after-apply parts of a new object.
            None | Some(Value::Null) if unknown_obj.is_some_and(|u| !u.is_empty()) || unknown_arr.is_some_and(|u| !u.is_empty()) => {
                let empty = if unknown_obj.is_some() { Value::Object(serde_json::Map::new()) } else { Value::Array(Vec::new()) };
                let mut none = HashMap::new();
                self.value(Some(&empty), sensitive, unknown, form, &mut none, out);
            }
            None | Some(Value::Null) => out.extend_from_slice(b"null"),
            Some(leaf) if !form.plain && self.leaf_secret(leaf, leaves) => self.secret(Some(leaf), form, out),
            Some(Value::Number(n)) => write_canonical(&number(&n.to_string()), out),
            Some(leaf) => {
                if let Some(s) = leaf.as_str().filter(|s| s.len() > 1 << 16) {
                    // A long string's room made once, with the rest of the
                    // entry's: never doubled past it (one copy of a huge value).
                    out.reserve(s.len() + 4096);
                }
                write_canonical(leaf, out)
            }
        }
    }

    /// [`super::secret`] of `v`'s plain form, written in `form`.
    fn secret(&mut self, v: Option<&Value>, form: Form, out: &mut Vec<u8>) {
        out.push(b'{');
        string(SENSITIVE_KEY, out);
        out.push(b':');
        if form.hashes {
            let mut plain = Vec::new();
            self.value(v, None, None, Form { hashes: true, plain: true }, &mut HashMap::new(), &mut plain);
            string(&secret_digest(&[SECRET_SALT.as_bytes(), &plain]), out);
        } else {
            out.extend_from_slice(b"true");
        }
        out.push(b'}');
    }
}

/// A JSON string as [`super::canonical_bytes`] writes it.
fn string(s: &str, out: &mut Vec<u8>) {
    // Writing to a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, s);
}

/// A value's map key, escaped ([`super::escape_key`]), as a JSON string.
fn key(k: &str, out: &mut Vec<u8>) {
    if k.starts_with('$') {
        string(&escape_key(k), out);
    } else {
        string(k, out);
    }
}

/// The canonical bytes of a value as [`super::canon`] then
/// [`super::canonical_bytes`] write it (`hashes`), or of its public form
/// without a key ([`super::public`]): the reference [`Writer`] is tested against.
#[cfg(test)]
pub(super) fn by_tree(v: Option<&Value>, sensitive: Option<&Value>, unknown: Option<&Value>, masker: &Masker, hashes: bool) -> Vec<u8> {
    let tree = super::canon(v, sensitive, unknown, masker);
    let full = super::canonical_bytes(&tree);
    if hashes {
        full
    } else {
        super::canonical_bytes(&public_of(&tree))
    }
}

/// [`Writer`]'s bytes of one value (tests).
#[cfg(test)]
pub(super) fn by_writer(v: Option<&Value>, sensitive: Option<&Value>, unknown: Option<&Value>, masker: &Masker, hashes: bool) -> Vec<u8> {
    let mut w = Writer::new(masker);
    let mut out = Vec::new();
    w.value(v, sensitive, unknown, Form { hashes, plain: false }, &mut HashMap::new(), &mut out);
    out
}
