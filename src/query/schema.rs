//! Provider schemas: the JSON of `terraform providers schema -json` (or
//! `tofu`'s), read once per run. `show` renders a resource's change as the CLI
//! does only with its type's schema: which attributes are nested blocks (and
//! their nesting mode), which values are sets or maps, which attributes are
//! write-only or sensitive, and whether the legacy SDK's `""` stands for null.
//! Pure: the bytes come from the runner.

use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// A value's type, as the schema writes it (`"string"`, `["list", T]`, ...).
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(from = "Value")]
pub enum Ty {
    String,
    Number,
    Bool,
    /// `"dynamic"`, or a type planview does not know: shown as a value of any type.
    #[default]
    Dynamic,
    List(Box<Ty>),
    Set(Box<Ty>),
    Map(Box<Ty>),
    Object(BTreeMap<String, Ty>),
    Tuple(Vec<Ty>),
}

impl From<Value> for Ty {
    fn from(v: Value) -> Ty {
        Ty::of(&v)
    }
}

impl Ty {
    /// The type a schema's `type` JSON names.
    pub fn of(v: &Value) -> Ty {
        match v {
            Value::String(s) => match s.as_str() {
                "string" => Ty::String,
                "number" => Ty::Number,
                "bool" => Ty::Bool,
                _ => Ty::Dynamic,
            },
            Value::Array(a) => match (a.first().and_then(Value::as_str), a.get(1)) {
                (Some("list"), Some(e)) => Ty::List(Box::new(Ty::of(e))),
                (Some("set"), Some(e)) => Ty::Set(Box::new(Ty::of(e))),
                (Some("map"), Some(e)) => Ty::Map(Box::new(Ty::of(e))),
                (Some("object"), Some(Value::Object(m))) => Ty::Object(m.iter().map(|(k, t)| (k.clone(), Ty::of(t))).collect()),
                (Some("tuple"), Some(Value::Array(ts))) => Ty::Tuple(ts.iter().map(Ty::of).collect()),
                _ => Ty::Dynamic,
            },
            _ => Ty::Dynamic,
        }
    }

    /// The type of the child at an object key (`key`) or a collection position.
    pub fn child(&self, key: Option<&str>, index: Option<usize>) -> Option<&Ty> {
        match self {
            Ty::List(e) | Ty::Set(e) | Ty::Map(e) => Some(e),
            Ty::Object(m) => key.and_then(|k| m.get(k)),
            Ty::Tuple(v) => index.and_then(|i| v.get(i)),
            _ => None,
        }
    }

    /// Types the legacy SDK could not declare (the CLI then keeps `""` as it is).
    fn non_legacy(&self) -> bool {
        match self {
            Ty::Dynamic | Ty::Object(_) | Ty::Tuple(_) => true,
            Ty::List(e) | Ty::Set(e) | Ty::Map(e) => e.has_dynamic() || e.has_non_primitive_element(),
            _ => false,
        }
    }

    fn has_dynamic(&self) -> bool {
        match self {
            Ty::Dynamic => true,
            Ty::List(e) | Ty::Set(e) | Ty::Map(e) => e.has_dynamic(),
            Ty::Object(m) => m.values().any(Ty::has_dynamic),
            Ty::Tuple(v) => v.iter().any(Ty::has_dynamic),
            _ => false,
        }
    }

    fn has_non_primitive_element(&self) -> bool {
        match self {
            Ty::List(e) | Ty::Set(e) | Ty::Map(e) => !matches!(**e, Ty::String | Ty::Number | Ty::Bool),
            _ => false,
        }
    }
}

/// How a nested block (or a nested attribute type) repeats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Nesting {
    Single,
    Group,
    List,
    Set,
    Map,
}

/// One attribute of a block.
#[derive(Debug, Clone, Deserialize)]
pub struct Attribute {
    #[serde(rename = "type", default)]
    pub ty: Ty,
    /// Nested attribute types (protocol 6): an object, or a collection of them.
    pub nested_type: Option<NestedType>,
    #[serde(default)]
    pub sensitive: bool,
    #[serde(default)]
    pub write_only: bool,
}

impl Attribute {
    /// The attribute's value type (a nested type as the object or collection it is).
    pub fn value_type(&self) -> Ty {
        match &self.nested_type {
            None => self.ty.clone(),
            Some(n) => {
                let obj = Ty::Object(n.attributes.iter().map(|(k, a)| (k.clone(), a.value_type())).collect());
                match n.nesting_mode {
                    Nesting::Single | Nesting::Group => obj,
                    Nesting::List => Ty::List(Box::new(obj)),
                    Nesting::Set => Ty::Set(Box::new(obj)),
                    Nesting::Map => Ty::Map(Box::new(obj)),
                }
            }
        }
    }
}

/// A nested attribute type.
#[derive(Debug, Clone, Deserialize)]
pub struct NestedType {
    #[serde(default)]
    pub attributes: BTreeMap<String, Attribute>,
    pub nesting_mode: Nesting,
}

/// A block: its attributes and its nested block types.
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Block {
    #[serde(default)]
    pub attributes: BTreeMap<String, Attribute>,
    #[serde(default)]
    pub block_types: BTreeMap<String, BlockType>,
}

impl Block {
    /// The CLI's `containsNonLegacyFeatures`: a block using what the legacy
    /// SDK could not declare keeps `""` as a value; any other reads it as null.
    pub fn non_legacy(&self) -> bool {
        self.block_types.values().any(|b| matches!(b.nesting_mode, Nesting::Map | Nesting::Group))
            || self.attributes.values().any(|a| a.nested_type.is_some() || a.ty.non_legacy())
    }
}

/// A nested block type.
#[derive(Debug, Clone, Deserialize)]
pub struct BlockType {
    pub nesting_mode: Nesting,
    #[serde(default)]
    pub block: Block,
}

#[derive(Deserialize)]
struct Doc {
    format_version: Option<String>,
    provider_schemas: Option<BTreeMap<String, Provider>>,
}

#[derive(Deserialize)]
struct Provider {
    #[serde(default)]
    resource_schemas: BTreeMap<String, TypeSchema>,
    #[serde(default)]
    data_source_schemas: BTreeMap<String, TypeSchema>,
}

#[derive(Deserialize)]
struct TypeSchema {
    #[serde(default)]
    block: Block,
}

/// Every resource and data source schema of one `providers schema -json`.
#[derive(Debug, Default)]
pub struct Schemas {
    /// (provider source address, data source?, type) to its block.
    by_type: HashMap<(String, bool, String), Block>,
}

/// What `--schemas` says of a file that is not `providers schema -json` output.
pub(crate) const NOT_SCHEMAS: &str = "is not provider schemas: --schemas reads the JSON of `terraform providers schema -json` (or `tofu providers schema -json`), run where `init` was run";

impl Schemas {
    /// Read `providers schema -json` output; anything else (a plan, a state,
    /// broken JSON) is refused with the reason.
    pub fn parse(bytes: &[u8]) -> Result<Schemas, String> {
        let doc: Doc = serde_json::from_slice(bytes).map_err(|e| {
            if e.is_data() {
                NOT_SCHEMAS.to_string()
            } else {
                format!("is not valid JSON ({e}): --schemas reads the JSON of `terraform providers schema -json`")
            }
        })?;
        let (Some(_), Some(providers)) = (doc.format_version, doc.provider_schemas) else { return Err(NOT_SCHEMAS.into()) };
        let mut by_type = HashMap::new();
        for (provider, p) in providers {
            for (data, list) in [(false, p.resource_schemas), (true, p.data_source_schemas)] {
                for (t, s) in list {
                    by_type.insert((provider.clone(), data, t), s.block);
                }
            }
        }
        Ok(Schemas { by_type })
    }

    /// Add `other`'s types (fetched in another directory); ours are kept.
    pub fn merge(&mut self, other: Schemas) {
        for (k, v) in other.by_type {
            self.by_type.entry(k).or_insert(v);
        }
    }

    /// How many resource and data source types are known.
    pub fn len(&self) -> usize {
        self.by_type.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_type.is_empty()
    }

    /// The schema of a resource (`data`: a data source) of type `type_`
    /// from `provider` (its source address as the plan writes it); without
    /// a provider, the one type of that name.
    pub fn block(&self, provider: Option<&str>, data: bool, type_: &str) -> Option<&Block> {
        if let Some(p) = provider {
            if let Some(b) = self.by_type.get(&(p.to_string(), data, type_.to_string())) {
                return Some(b);
            }
        }
        let mut found = self.by_type.iter().filter(|((_, d, t), _)| *d == data && t == type_);
        match (found.next(), found.next()) {
            (Some((_, b)), None) => Some(b),
            _ => None,
        }
    }
}

/// `marks` (a `before_sensitive`/`after_sensitive` marker of `value`) with
/// every attribute the schema declares sensitive marked too, as the CLI
/// counts them: masking by meaning holds whatever the plan's markers say.
pub(crate) fn mark_sensitive(block: &Block, value: Option<&Value>, marks: Option<Value>) -> Option<Value> {
    mark_object(&block.attributes, &block.block_types, value, marks)
}

/// [`mark_sensitive`] of an object: a block's, or one of a protocol-6 nested
/// attribute type's (its attributes' sensitivity is the schema's too).
fn mark_object(
    attributes: &BTreeMap<String, Attribute>,
    block_types: &BTreeMap<String, BlockType>,
    value: Option<&Value>,
    marks: Option<Value>,
) -> Option<Value> {
    let Some(Value::Object(obj)) = value else { return marks };
    if matches!(marks, Some(Value::Bool(true))) {
        return marks;
    }
    let mut m = match marks {
        Some(Value::Object(m)) => m,
        _ => serde_json::Map::new(),
    };
    let no_blocks = BTreeMap::new();
    for (name, a) in attributes {
        let Some(v) = obj.get(name).filter(|v| !v.is_null()) else { continue };
        if a.sensitive {
            m.insert(name.clone(), Value::Bool(true));
        } else if let Some(nt) = &a.nested_type {
            let old = m.remove(name);
            let inner = |item: &Value, o: Option<Value>| mark_object(&nt.attributes, &no_blocks, Some(item), o);
            if let Some(n) = mark_nested(nt.nesting_mode, v, old, &inner) {
                m.insert(name.clone(), n);
            }
        }
    }
    for (name, bt) in block_types {
        let Some(v) = obj.get(name) else { continue };
        let old = m.remove(name);
        if let Some(n) = mark_nested(bt.nesting_mode, v, old, &|item, o| mark_sensitive(&bt.block, Some(item), o)) {
            m.insert(name.clone(), n);
        }
    }
    Some(Value::Object(m))
}

/// The marks of `v`, nested as `mode` says (one object, or a list, set or map
/// of them), each object's by `inner`; a value marked whole stays so.
fn mark_nested(mode: Nesting, v: &Value, old: Option<Value>, inner: &dyn Fn(&Value, Option<Value>) -> Option<Value>) -> Option<Value> {
    if matches!(old, Some(Value::Bool(true))) {
        return old;
    }
    match (mode, v) {
        (Nesting::Single | Nesting::Group, _) => inner(v, old),
        (Nesting::List | Nesting::Set, Value::Array(items)) => {
            let olds = match old {
                Some(Value::Array(a)) => a,
                _ => Vec::new(),
            };
            let marked = items.iter().enumerate().map(|(i, item)| inner(item, olds.get(i).cloned()).unwrap_or(Value::Bool(false)));
            Some(Value::Array(marked.collect()))
        }
        (Nesting::Map, Value::Object(items)) => {
            let olds = match old {
                Some(Value::Object(o)) => o,
                _ => serde_json::Map::new(),
            };
            let marked = items.iter().map(|(k, item)| (k.clone(), inner(item, olds.get(k).cloned()).unwrap_or(Value::Bool(false))));
            Some(Value::Object(marked.collect()))
        }
        _ => old,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = r#"{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/aws":{
      "resource_schemas":{"aws_x":{"version":0,"block":{
        "attributes":{"id":{"type":"string","computed":true},"pw":{"type":"string","sensitive":true},
          "pw_wo":{"type":"string","write_only":true},"tags":{"type":["map","string"]},
          "rules":{"type":["set",["object",{"port":"number"}]]}},
        "block_types":{"disk":{"nesting_mode":"list","block":{"attributes":{"key":{"type":"string","sensitive":true}}}}}}}},
      "data_source_schemas":{"aws_x":{"block":{}}}}}}"#;

    #[test]
    fn reads_types_blocks_and_flags() {
        let s = Schemas::parse(DOC.as_bytes()).unwrap();
        assert_eq!(s.len(), 2);
        let b = s.block(Some("registry.terraform.io/hashicorp/aws"), false, "aws_x").unwrap();
        assert_eq!(b.attributes["tags"].ty, Ty::Map(Box::new(Ty::String)));
        assert!(matches!(&b.attributes["rules"].ty, Ty::Set(e) if matches!(**e, Ty::Object(_))));
        assert!(b.attributes["pw_wo"].write_only && b.attributes["pw"].sensitive);
        assert_eq!(b.block_types["disk"].nesting_mode, Nesting::List);
        assert!(!b.non_legacy(), "an SDK-shaped block");
        // Without the provider's address: the one type of that name.
        assert!(s.block(None, true, "aws_x").is_some());
        assert!(s.block(Some("other/provider"), false, "aws_y").is_none());
    }

    #[test]
    fn a_plan_or_broken_json_is_refused() {
        assert_eq!(Schemas::parse(br#"{"format_version":"1.2","resource_changes":[]}"#).unwrap_err(), NOT_SCHEMAS);
        assert!(Schemas::parse(b"{").unwrap_err().contains("not valid JSON"));
        assert_eq!(Schemas::parse(b"[1]").unwrap_err(), NOT_SCHEMAS);
    }

    #[test]
    fn schema_sensitive_attributes_are_marked_in_blocks_too() {
        let s = Schemas::parse(DOC.as_bytes()).unwrap();
        let b = s.block(None, false, "aws_x").unwrap();
        let v: Value = serde_json::json!({"id":"i","pw":"hunter2","disk":[{"key":"k1"},{"key":null}]});
        let m = mark_sensitive(b, Some(&v), Some(serde_json::json!({}))).unwrap();
        assert_eq!(m, serde_json::json!({"pw":true,"disk":[{"key":true},{}]}));
    }
    #[test]
    fn nested_attribute_types_take_their_attributes_sensitivity_from_the_schema() {
        let doc = r#"{"format_version":"1.0","provider_schemas":{"registry.terraform.io/hashicorp/x":{
          "resource_schemas":{"x_db":{"version":0,"block":{"attributes":{
            "users":{"nested_type":{"nesting_mode":"list","attributes":{"name":{"type":"string"},"password":{"type":"string","sensitive":true}}}},
            "main":{"nested_type":{"nesting_mode":"single","attributes":{"token":{"type":"string","sensitive":true},"host":{"type":"string"}}}},
            "by_name":{"nested_type":{"nesting_mode":"map","attributes":{"key":{"type":"string","sensitive":true}}}}}}}}}}}"#;
        let s = Schemas::parse(doc.as_bytes()).unwrap();
        let b = s.block(Some("registry.terraform.io/hashicorp/x"), false, "x_db").unwrap();
        let v = serde_json::json!({"users": [{"name": "a", "password": "p1"}, {"name": "b", "password": null}],
            "main": {"token": "t", "host": "h"}, "by_name": {"k": {"key": "v"}}});
        let m = mark_sensitive(b, Some(&v), Some(serde_json::json!({"users": [{}, {}]}))).unwrap();
        assert_eq!(m, serde_json::json!({"users": [{"password": true}, {}], "main": {"token": true}, "by_name": {"k": {"key": true}}}));
        // Marked whole by the plan already: kept.
        let m = mark_sensitive(b, Some(&v), Some(serde_json::json!({"users": true}))).unwrap();
        assert_eq!(m["users"], serde_json::json!(true));
    }
}
