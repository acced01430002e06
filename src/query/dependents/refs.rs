//! What the blast radius reads of a plan's text: the references of an
//! expression or block of the configuration (one pass, no value built), a
//! reference parsed as the format writes it, and the attributes an
//! `after_unknown` object says become unknown.

use super::Key;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// Add to `out` the `references` of every expression in one entry of a
/// block-expressions representation (an expression, a nested block, a list or
/// map of blocks), in order, in one pass over its text: no value is built.
/// An object whose keys are only `constant_value` and `references` is an
/// expression (its constant is skipped); any other object is a block.
pub(super) fn references_in<'a>(raw: &'a serde_json::value::RawValue, out: &mut Vec<Cow<'a, str>>) {
    use serde::de::DeserializeSeed;
    let mut de = serde_json::Deserializer::from_str(raw.get());
    let _ = Walk { out, refs: false }.deserialize(&mut de);
}

/// [`references_in`]'s walk: `refs` when under a `references` key.
struct Walk<'o, 'a> {
    out: &'o mut Vec<Cow<'a, str>>,
    refs: bool,
}

/// A key of an object in the walk.
enum WalkKey {
    Constant,
    References,
    Other,
}

impl<'de> serde::Deserialize<'de> for WalkKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<WalkKey, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = WalkKey;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E>(self, s: &str) -> Result<WalkKey, E> {
                Ok(match s {
                    "constant_value" => WalkKey::Constant,
                    "references" => WalkKey::References,
                    _ => WalkKey::Other,
                })
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for Walk<'_, 'de> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Walk<'_, 'de> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("block expressions")
    }
    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<(), E> {
        if self.refs {
            self.out.push(Cow::Borrowed(s));
        }
        Ok(())
    }
    fn visit_str<E>(self, s: &str) -> Result<(), E> {
        if self.refs {
            self.out.push(Cow::Owned(s.to_string()));
        }
        Ok(())
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Walk { out: &mut *self.out, refs: self.refs })?.is_some() {}
        Ok(())
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut constant: Option<&'de serde_json::value::RawValue> = None;
        let mut block = false;
        while let Some(key) = map.next_key::<WalkKey>()? {
            match key {
                WalkKey::Constant => constant = Some(map.next_value()?),
                WalkKey::References => map.next_value_seed(Walk { out: &mut *self.out, refs: true })?,
                WalkKey::Other => {
                    block = true;
                    map.next_value_seed(Walk { out: &mut *self.out, refs: false })?;
                }
            }
        }
        // A block with an argument named `constant_value`: walk it too.
        if let (true, Some(raw)) = (block, constant) {
            use serde::de::DeserializeSeed;
            let mut de = serde_json::Deserializer::from_str(raw.get());
            Walk { out: self.out, refs: false }.deserialize(&mut de).map_err(serde::de::Error::custom)?;
        }
        Ok(())
    }
}

/// The top-level attributes of an `after_unknown` object with a `true` at or below them.
pub(super) fn unknown_attributes(raw: &str) -> Vec<String> {
    let Ok(map) = serde_json::from_str::<BTreeMap<String, serde_json::Value>>(raw) else { return Vec::new() };
    fn any_true(v: &serde_json::Value) -> bool {
        match v {
            serde_json::Value::Bool(b) => *b,
            serde_json::Value::Array(a) => a.iter().any(any_true),
            serde_json::Value::Object(o) => o.values().any(any_true),
            _ => false,
        }
    }
    map.into_iter().filter(|(_, v)| any_true(v)).map(|(k, _)| k).collect()
}

/// What a reference names (borrowed from it).
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Ref<'r> {
    Var(&'r str),
    Local(&'r str),
    /// `TYPE.NAME` / `data.TYPE.NAME`, and the instance key if written.
    Resource(&'r str, Option<Key>),
    ModuleOutput(&'r str, &'r str),
    Module(&'r str),
}

/// Parse a reference as the `references` list writes it; `None` for the ones
/// that name no object (`count.index`, `each.key`, `self`, `path`, `terraform`).
pub(super) fn parse_reference(r: &str) -> Option<Ref<'_>> {
    let mut p = RefParser { s: r, i: 0 };
    let first = p.ident()?;
    match first {
        "count" | "each" | "self" | "path" | "terraform" => None,
        "var" => Some(Ref::Var(p.dot_ident()?)),
        "local" => Some(Ref::Local(p.dot_ident()?)),
        "module" => {
            let call = p.dot_ident()?;
            let _ = p.key();
            match p.dot_ident() {
                Some(out) => Some(Ref::ModuleOutput(call, out)),
                None => Some(Ref::Module(call)),
            }
        }
        "data" | "ephemeral" => {
            p.dot_ident()?;
            p.dot_ident()?;
            let name = &r[..p.i];
            Some(Ref::Resource(name, p.key()))
        }
        _ => {
            p.dot_ident()?;
            let name = &r[..p.i];
            Some(Ref::Resource(name, p.key()))
        }
    }
}

struct RefParser<'s> {
    s: &'s str,
    i: usize,
}

impl<'s> RefParser<'s> {
    fn ident(&mut self) -> Option<&'s str> {
        let b = self.s.as_bytes();
        let start = self.i;
        while self.i < b.len() && (b[self.i].is_ascii_alphanumeric() || b[self.i] == b'_' || b[self.i] == b'-') {
            self.i += 1;
        }
        (self.i > start).then(|| &self.s[start..self.i])
    }

    fn dot_ident(&mut self) -> Option<&'s str> {
        if self.s.as_bytes().get(self.i) != Some(&b'.') {
            return None;
        }
        self.i += 1;
        self.ident()
    }

    /// `[0]` or `["key"]`; anything else (or nothing) is no key.
    fn key(&mut self) -> Option<Key> {
        let rest = &self.s[self.i..];
        let inner = rest.strip_prefix('[')?;
        if let Some(end) = inner.find(']').filter(|_| inner.as_bytes().first().is_some_and(u8::is_ascii_digit)) {
            let n = inner[..end].parse().ok()?;
            self.i += end + 2;
            return Some(Key::Int(n));
        }
        if inner.starts_with('"') {
            // A JSON-compatible quoted string (the plan writes keys that way).
            let mut de = serde_json::Deserializer::from_str(inner).into_iter::<String>();
            let s = de.next()?.ok()?;
            let used = de.byte_offset();
            if inner.as_bytes().get(used) == Some(&b']') {
                self.i += used + 2;
                return Some(Key::Str(s));
            }
        }
        None
    }
}
