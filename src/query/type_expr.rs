//! Terraform's type syntax for the JSON type constraints of `show -json`
//! (`["object",{"name":"string"}]` is `object({ name = string })`), as the
//! CLI and the configuration language write them.

use serde_json::Value;

/// A type as Terraform writes it: `string`, `list(number)`, `map(string)`,
/// `set(bool)`, `tuple([string, number])`, `object({ a = string, b = list(number) })`,
/// `any` for `dynamic`, `optional(T)` for an optional object attribute. A
/// form planview does not know (a future type) is shown as its compact JSON.
pub(crate) fn type_expr(t: &Value) -> String {
    let known = match t {
        Value::String(s) => match s.as_str() {
            "string" | "number" | "bool" => Some(s.clone()),
            "dynamic" => Some("any".to_string()),
            _ => None,
        },
        Value::Array(a) => match (a.first().and_then(Value::as_str), a.len()) {
            (Some(k @ ("list" | "set" | "map")), 2) => Some(format!("{k}({})", type_expr(&a[1]))),
            (Some("tuple"), 2) => {
                a[1].as_array().map(|items| format!("tuple([{}])", items.iter().map(type_expr).collect::<Vec<_>>().join(", ")))
            }
            (Some("object"), 2 | 3) => object(&a[1], a.get(2)),
            _ => None,
        },
        _ => None,
    };
    known.unwrap_or_else(|| t.to_string())
}

/// `object({ a = string, b = optional(number) })`; attributes sorted by name
/// (as Terraform writes them), `optional` for those listed in `optional`.
fn object(attrs: &Value, optional: Option<&Value>) -> Option<String> {
    let attrs = attrs.as_object()?;
    let optional: Vec<&str> = match optional {
        None => Vec::new(),
        Some(v) => v.as_array()?.iter().map(Value::as_str).collect::<Option<_>>()?,
    };
    if attrs.is_empty() {
        return Some("object({})".to_string());
    }
    let parts: Vec<String> = attrs
        .iter()
        .map(|(k, v)| {
            let t = type_expr(v);
            let t = if optional.contains(&k.as_str()) { format!("optional({t})") } else { t };
            format!("{} = {t}", key(k))
        })
        .collect();
    Some(format!("object({{ {} }})", parts.join(", ")))
}

/// An attribute name as written in a type: bare when it is an identifier,
/// else quoted.
fn key(k: &str) -> String {
    let ident =
        k.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_') && k.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-');
    if ident {
        k.to_string()
    } else {
        serde_json::to_string(k).unwrap_or_default()
    }
}

/// [`type_expr`] of a type's JSON text (what the models keep raw); the text
/// itself when it is not JSON.
pub(crate) fn type_text(json: &str) -> String {
    serde_json::from_str::<Value>(json).map_or_else(|_| json.to_string(), |v| type_expr(&v))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(json: &str) -> String {
        type_text(json)
    }

    #[test]
    fn primitives_and_collections() {
        assert_eq!(t(r#""string""#), "string");
        assert_eq!(t(r#""dynamic""#), "any");
        assert_eq!(t(r#"["list","number"]"#), "list(number)");
        assert_eq!(t(r#"["map","string"]"#), "map(string)");
        assert_eq!(t(r#"["set",["list","bool"]]"#), "set(list(bool))");
        assert_eq!(t(r#"["tuple",["string","string"]]"#), "tuple([string, string])");
        assert_eq!(t(r#"["tuple",[]]"#), "tuple([])");
    }

    #[test]
    fn objects_nest_and_mark_optional_attributes() {
        assert_eq!(t(r#"["object",{"list":["list","number"],"name":"string"}]"#), "object({ list = list(number), name = string })");
        assert_eq!(
            t(r#"["object",{"list":["tuple",["number","number"]],"m":["map",["object",{}]]}]"#),
            "object({ list = tuple([number, number]), m = map(object({})) })"
        );
        assert_eq!(t(r#"["object",{"a":"string","b":"number"},["b"]]"#), "object({ a = string, b = optional(number) })");
        assert_eq!(t(r#"["object",{"a b":"string"}]"#), r#"object({ "a b" = string })"#);
    }

    #[test]
    fn unknown_forms_stay_json() {
        assert_eq!(t(r#""capsule""#), r#""capsule""#);
        assert_eq!(t(r#"["list"]"#), r#"["list"]"#);
        assert_eq!(t(r#"["object",{"a":"string"},[1]]"#), r#"["object",{"a":"string"},[1]]"#);
        assert_eq!(t(r#"{"x":1}"#), r#"{"x":1}"#);
        assert_eq!(t("not json"), "not json");
    }
}
