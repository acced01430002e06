//! Shared value handling for reports: masking by sensitivity, compact exact
//! JSON text (numbers are kept as written, whatever their size).

use crate::model::{OutputValue, RawValue};
pub use crate::secrets::Visibility;
use serde::Serialize;

/// The text shown in place of a sensitive value.
pub(crate) const SENSITIVE: &str = "(sensitive value)";
/// The text shown for a value known only after apply.
pub(crate) const UNKNOWN: &str = "(known after apply)";

/// An output value of a state (or planned values), masked when sensitive.
#[derive(Debug, Clone, Serialize)]
pub struct OutputReport {
    pub name: String,
    /// The type as the format writes it (`"string"`, `["map","string"]`, ...).
    #[serde(rename = "type")]
    pub type_: Option<Box<RawValue>>,
    pub sensitive: bool,
    /// True when the value was withheld because it is sensitive.
    pub masked: bool,
    /// The value, or null when masked.
    pub value: Option<Box<RawValue>>,
    /// OpenTofu: the output's deprecation message (absent when none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated: Option<String>,
}

impl OutputReport {
    pub fn from_output(name: &str, o: &OutputValue<'_>, vis: &Visibility) -> Result<Self, String> {
        let parsed: Option<serde_json::Value> = o.value.and_then(|v| serde_json::from_str(v.get()).ok());
        let masked = vis.must_mask(o.sensitive, parsed.as_ref());
        let value = match (o.value, &parsed) {
            (Some(_), _) if masked => None,
            // Duplicate keys: shown from the parsed value (the last one wins), the
            // very value checked for secrets, never the raw text holding both.
            (Some(raw), Some(v)) if key_count(raw.get()) != parsed_key_count(v) => {
                Some(RawValue::from_string(serde_json::to_string(v).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?)
            }
            (Some(raw), _) => Some(compact_raw(raw.get())?),
            (None, _) => None,
        };
        Ok(OutputReport {
            name: name.to_string(),
            type_: o.type_.map(|t| type_masked(t.get(), vis)).transpose()?,
            sensitive: o.sensitive,
            masked,
            value,
            deprecated: o.deprecated.clone(),
        })
    }

    /// The value as one line of text for tables (masked when needed).
    pub fn display_value(&self) -> String {
        if self.masked {
            return SENSITIVE.to_string();
        }
        match &self.value {
            None => "null".to_string(),
            Some(v) => v.get().to_string(),
        }
    }

    pub fn display_type(&self) -> String {
        match &self.type_ {
            None => String::new(),
            // In Terraform's syntax: `string`, `list(number)`, `object({ a = string })`.
            Some(t) => crate::query::type_expr::type_text(t.get()),
        }
    }
}

/// A type's JSON text, compact, with every object key that holds a secret
/// masked (`["object", {"S3cret…": "number"}]`: the keys of an object type are
/// the keys of its value). Keys masked alike are told apart by ` #2`, ` #3`...
pub(crate) fn type_masked(text: &str, vis: &Visibility) -> Result<Box<RawValue>, String> {
    fn walk(v: &serde_json::Value, vis: &Visibility, changed: &mut bool) -> serde_json::Value {
        use serde_json::Value;
        match v {
            Value::Object(o) => {
                let mut out = serde_json::Map::new();
                for (k, x) in o {
                    let shown = vis.text(k);
                    let mut key = shown.to_string();
                    if key != *k {
                        *changed = true;
                        let mut n = 2;
                        while out.contains_key(&key) || o.contains_key(&key) {
                            key = format!("{shown} #{n}");
                            n += 1;
                        }
                    }
                    out.insert(key, walk(x, vis, changed));
                }
                Value::Object(out)
            }
            Value::Array(a) => Value::Array(a.iter().map(|x| walk(x, vis, changed)).collect()),
            other => other.clone(),
        }
    }
    let Ok(v) = serde_json::from_str::<serde_json::Value>(text) else { return compact_raw(text) };
    let mut changed = false;
    let masked = walk(&v, vis, &mut changed);
    if !changed {
        return compact_raw(text);
    }
    RawValue::from_string(serde_json::to_string(&masked).map_err(|e| e.to_string())?).map_err(|e| e.to_string())
}

/// JSON text with insignificant whitespace removed; strings and numbers are
/// kept byte for byte.
pub(crate) fn compact(json: &str) -> String {
    crate::model::text::squeeze(json, |c| c.is_ascii_whitespace())
}

/// How many object members JSON text holds (its `:` outside strings).
fn key_count(json: &str) -> usize {
    let (mut n, mut in_string, mut escaped) = (0, false, false);
    for b in json.bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
        } else if b == b'"' {
            in_string = true;
        } else if b == b':' {
            n += 1;
        }
    }
    n
}

/// How many object members a parsed value holds (fewer than [`key_count`] of
/// its text when a key was repeated).
fn parsed_key_count(v: &serde_json::Value) -> usize {
    match v {
        serde_json::Value::Object(o) => o.len() + o.values().map(parsed_key_count).sum::<usize>(),
        serde_json::Value::Array(a) => a.iter().map(parsed_key_count).sum(),
        _ => 0,
    }
}

fn compact_raw(json: &str) -> Result<Box<RawValue>, String> {
    RawValue::from_string(compact(json)).map_err(|e| e.to_string())
}

/// Shorten `s` to at most `max` characters, marking the cut.
pub(crate) fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut t: String = s.chars().take(max.saturating_sub(1)).collect();
    t.push('…');
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secrets::Masker;

    #[test]
    fn compact_keeps_strings_and_big_numbers_exact() {
        assert_eq!(
            compact("{ \"a b\" : [ 1e400 , 18446744073709551616 ],\n \"c\":\"x \\\" y\" }"),
            r#"{"a b":[1e400,18446744073709551616],"c":"x \" y"}"#
        );
    }

    #[test]
    fn sensitive_output_is_masked_unless_asked() {
        let o: OutputValue = serde_json::from_str(r#"{"value":"hunter2","type":"string","sensitive":true}"#).unwrap();
        let r = OutputReport::from_output("pw", &o, &Visibility::default()).unwrap();
        assert!(r.masked && r.value.is_none());
        assert_eq!(r.display_value(), SENSITIVE);
        assert_eq!(r.display_type(), "string");
        let r = OutputReport::from_output("pw", &o, &Visibility { show_sensitive: true, masker: None }).unwrap();
        assert_eq!(r.display_value(), "\"hunter2\"");
    }

    #[test]
    fn unmarked_output_holding_a_known_secret_is_masked() {
        let o: OutputValue = serde_json::from_str(r#"{"value":{"copy":"hunter2"},"sensitive":false}"#).unwrap();
        let mut m = Masker::default();
        m.add("hunter2");
        let vis = Visibility::default();
        let r = OutputReport::from_output("copy", &o, &vis.with(&m)).unwrap();
        assert!(r.masked);
        let r = OutputReport::from_output("copy", &o, &vis).unwrap();
        assert!(!r.masked);
    }

    #[test]
    fn duplicate_key_in_output_value_cannot_smuggle_a_secret() {
        // The last duplicate wins (README): the earlier value is neither checked nor shown.
        let o: OutputValue = serde_json::from_str(r#"{"value":{"a":"hunter2","a":"fine"},"sensitive":false}"#).unwrap();
        let mut m = Masker::default();
        m.add("hunter2");
        let r = OutputReport::from_output("o", &o, &Visibility::default().with(&m)).unwrap();
        assert!(!r.masked);
        assert_eq!(r.display_value(), r#"{"a":"fine"}"#);
        let nested: OutputValue = serde_json::from_str(r#"{"value":[{"b":{"a":"hunter2","a":1}}]}"#).unwrap();
        let r = OutputReport::from_output("o", &nested, &Visibility::default().with(&m)).unwrap();
        assert_eq!(r.display_value(), r#"[{"b":{"a":1}}]"#);
        // Without duplicates the text is kept as written (numbers, escapes, colons in strings).
        let plain: OutputValue = serde_json::from_str(r#"{"value":{"n": 1e400, "s": "a:\"b\u00e9"}}"#).unwrap();
        let r = OutputReport::from_output("o", &plain, &Visibility::default().with(&m)).unwrap();
        assert_eq!(r.display_value(), r#"{"n":1e400,"s":"a:\"b\u00e9"}"#);
    }

    #[test]
    fn truncate_marks_the_cut() {
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abc", 4), "abc");
    }
}

// ------------------------------------------------------------------ paths and markers

use crate::model::PathStep;
use serde_json::Value;

/// Parse a borrowed raw value (absent and unreadable are `None`).
pub(crate) fn parse_raw(raw: Option<&RawValue>) -> Option<Value> {
    raw.and_then(|r| serde_json::from_str(r.get()).ok())
}

/// The value at `path` inside `v`.
pub(crate) fn value_at<'v>(v: &'v Value, path: &[PathStep]) -> Option<&'v Value> {
    let mut cur = v;
    for step in path {
        cur = match (step, cur) {
            (PathStep::Key(k), Value::Object(o)) => o.get(k)?,
            (PathStep::Index(i), Value::Array(a)) => a.get(usize::try_from(*i).ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// A JSON number's exact decimal value: (negative, significant digits without
/// leading or trailing zeros, exponent of the last digit). Zero is `(false, "", 0)`.
pub(crate) fn decimal(text: &str) -> Option<(bool, String, i128)> {
    let (neg, rest) = match text.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, text),
    };
    let (mantissa, exp) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], rest[i + 1..].parse::<i128>().ok()?),
        None => (rest, 0),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((i, f)) => (i, f),
        None => (mantissa, ""),
    };
    if int.is_empty() && frac.is_empty() || !int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = format!("{int}{frac}");
    let mut exp = exp - frac.len() as i128;
    let trimmed_start = digits.trim_start_matches('0');
    let trimmed = trimmed_start.trim_end_matches('0');
    if trimmed.is_empty() {
        return Some((false, String::new(), 0));
    }
    exp += (trimmed_start.len() - trimmed.len()) as i128;
    Some((neg, trimmed.to_string(), exp))
}

/// Two JSON numbers are equal as exact decimals (`1` = `1.0` = `10e-1`).
pub(crate) fn numbers_equal(a: &str, b: &str) -> bool {
    match (decimal(a), decimal(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// One side of a change at some path, ready to print on one line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", content = "value", rename_all = "snake_case")]
pub enum Shown {
    /// The value (compact JSON text).
    Value(String),
    /// Absent or null.
    Null,
    Sensitive,
    Unknown,
}

/// `v` as compact JSON text; a string's buffer sized once for its text (a
/// 100 MB string is not copied over and over, to twice its size, as the
/// buffer grows).
fn json_text(v: &Value) -> String {
    if let Value::String(s) = v {
        // The bytes serde_json writes, without its per-byte loop (slow unoptimised).
        let mut out = Vec::new();
        crate::escape::push_json_str(&mut out, s);
        return String::from_utf8(out).unwrap_or_default();
    }
    let mut out = Vec::with_capacity(128);
    match serde_json::to_writer(&mut out, v) {
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        Err(_) => String::new(),
    }
}

impl Shown {
    /// Decide what to show for `value`, given whether it is marked sensitive or
    /// unknown, masking values that hold a secret known from elsewhere.
    pub fn of(value: Option<&Value>, sensitive: bool, unknown: bool, vis: &Visibility) -> Shown {
        if unknown {
            return Shown::Unknown;
        }
        if vis.must_mask(sensitive, value) {
            return Shown::Sensitive;
        }
        match value {
            None | Some(Value::Null) => Shown::Null,
            Some(v) => Shown::Value(json_text(v)),
        }
    }

    /// For tables: the value, `null`, `(sensitive value)` or `(known after apply)`.
    pub fn text(&self) -> &str {
        match self {
            Shown::Value(s) => s,
            Shown::Null => "null",
            Shown::Sensitive => SENSITIVE,
            Shown::Unknown => UNKNOWN,
        }
    }
}

#[cfg(test)]
mod path_tests {
    use super::*;
    use serde_json::json;

    fn p(s: &str) -> Vec<PathStep> {
        serde_json::from_str(s).unwrap()
    }

    #[test]
    fn value_lookups_follow_paths() {
        let v = json!({"tags": {"Name": "x"}, "disks": [{"size": 8}, {"size": 16}]});
        assert_eq!(value_at(&v, &p(r#"["disks", 1, "size"]"#)), Some(&json!(16)));
        assert_eq!(value_at(&v, &p(r#"["disks", 5]"#)), None);
    }

    #[test]
    fn shown_masks_and_marks_unknown() {
        let vis = Visibility::default();
        assert_eq!(Shown::of(Some(&json!("a")), true, false, &vis), Shown::Sensitive);
        assert_eq!(Shown::of(Some(&json!("a")), false, true, &vis), Shown::Unknown);
        assert_eq!(Shown::of(None, false, false, &vis).text(), "null");
        assert_eq!(Shown::of(Some(&json!({"a": 1})), false, false, &vis).text(), r#"{"a":1}"#);
        let open = Visibility { show_sensitive: true, masker: None };
        assert_eq!(Shown::of(Some(&json!("a")), true, false, &open).text(), "\"a\"");
    }
}

#[cfg(test)]
mod number_tests {
    use super::*;

    #[test]
    fn numbers_compare_by_exact_value() {
        assert!(numbers_equal("1", "1.0"));
        assert!(numbers_equal("1e2", "100"));
        assert!(numbers_equal("0.10", "1E-1"));
        assert!(numbers_equal("-0", "0.0"));
        assert!(numbers_equal("18446744073709551617", "18446744073709551617.000"));
        assert!(!numbers_equal("18446744073709551617", "18446744073709551616"));
        assert!(!numbers_equal("1", "-1"));
        assert!(!numbers_equal("0.1", "0.10000000000000001"));
        assert!(!numbers_equal("1e400", "1e401"));
    }

    #[test]
    fn numbers_beyond_64_bits_are_shown_exactly_as_written() {
        let raw = RawValue::from_string(r#"{"a":18446744073709551616,"b":1e400,"c":9007199254740993}"#.to_string()).unwrap();
        let v = parse_raw(Some(&raw)).expect("big numbers parse");
        let shown = Shown::of(Some(&v), false, false, &Visibility::default());
        // serde_json writes an exponent with its sign (`1e400` becomes `1e+400`): same number, no rounding.
        assert_eq!(shown.text(), r#"{"a":18446744073709551616,"b":1e+400,"c":9007199254740993}"#);
    }
}
