//! The checks representation; unknown kinds and statuses are kept verbatim.
//!
//! [`check_results`] is the one reading of a document's check results that
//! every command uses (`checks`, `summary`, `gate`): `checks`, or else
//! Terraform 1.2-1.4's `condition_results`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use serde_json::Value;

/// A checkable object (resource, output value, check block, variable, ...).
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
pub struct CheckObject {
    pub address: CheckAddress,
    pub status: CheckStatus,
    pub instances: Vec<CheckInstance>,
}

/// Address of a checkable object or, merged, of one of its instances.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
pub struct CheckAddress {
    pub kind: CheckKind,
    pub to_display: String,
    pub mode: Option<String>,
    #[serde(rename = "type")]
    pub type_: Option<String>,
    pub name: Option<String>,
    pub module: Option<String>,
    pub instance_key: Option<serde_json::Value>,
}

/// One instance of a checkable object.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
pub struct CheckInstance {
    pub address: CheckAddress,
    pub status: CheckStatus,
    pub problems: Vec<CheckProblem>,
}

/// A failed condition's message.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(default)]
pub struct CheckProblem {
    pub message: String,
}

macro_rules! string_enum {
    ($(#[$m:meta])* $name:ident { $($variant:ident = $text:literal),* $(,)? } default $def:ident) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($variant,)*
            /// A value this version does not know, kept as written.
            Other(String),
        }
        impl $name {
            pub fn as_str(&self) -> &str {
                match self { $($name::$variant => $text,)* $name::Other(s) => s }
            }
            pub fn parse(s: &str) -> Self {
                match s { $($text => $name::$variant,)* other => $name::Other(other.to_string()) }
            }
        }
        impl Default for $name {
            fn default() -> Self { $name::$def }
        }
        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
                Ok($name::parse(&s))
            }
        }
        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

string_enum!(
    /// Status of a check: `pass`, `fail`, `error`, `unknown`, or a new one.
    /// A missing status reads as `missing` (not `unknown`): what the check
    /// found cannot be known, so it counts as a failure (fail closed).
    CheckStatus { Pass = "pass", Fail = "fail", Error = "error", Unknown = "unknown", Missing = "missing" } default Missing
);

string_enum!(
    /// Kind of checkable object.
    CheckKind { Resource = "resource", OutputValue = "output_value", Check = "check", Var = "var" } default Resource
);

impl CheckObject {
    /// The instances to list, per the format document's advice: the instances
    /// themselves, or the object as a placeholder when it has none. Instance
    /// addresses are merged over the object's.
    pub fn display_instances(&self) -> Vec<CheckInstance> {
        if self.instances.is_empty() {
            return vec![CheckInstance { address: self.address.clone(), status: self.status.clone(), problems: Vec::new() }];
        }
        self.instances
            .iter()
            .map(|i| {
                let mut a = self.address.clone();
                if !i.address.to_display.is_empty() {
                    a.to_display = i.address.to_display.clone();
                }
                if i.address.module.is_some() {
                    a.module = i.address.module.clone();
                }
                if i.address.instance_key.is_some() {
                    a.instance_key = i.address.instance_key.clone();
                }
                CheckInstance { address: a, status: i.status.clone(), problems: i.problems.clone() }
            })
            .collect()
    }
}

/// Where the results came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ChecksSource {
    Checks,
    /// Terraform 1.2-1.4's `condition_results`.
    ConditionResults,
    /// The document has neither.
    None,
}

/// One check instance, or an object without instances standing in as a placeholder.
#[derive(Debug, Clone, Serialize)]
pub struct CheckItem {
    /// The instance's `to_display` address.
    pub address: String,
    /// The object's `to_display` address (the same for single-instance objects).
    pub object: String,
    /// `resource`, `output_value`, `check`, `var`, or a kind kept as written.
    pub kind: String,
    /// `pass`, `fail`, `error`, `unknown`, or a status kept as written.
    pub status: String,
    /// Every problem message.
    pub problems: Vec<String>,
    /// True when the object has no instances and is listed in their place.
    pub placeholder: bool,
    pub module: Option<String>,
    pub instance_key: Option<Value>,
    #[serde(rename = "type")]
    pub type_: Option<String>,
    /// Where the check is declared (`check`, `precondition`, `postcondition`,
    /// `validation` block), when the configuration was read and has it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<crate::model::Location>,
}

/// Status of a `condition_results` element that could not be read.
pub(crate) const UNREADABLE: &str = "unreadable";

impl CheckItem {
    /// True unless the check passed or will only be known after apply
    /// (`unknown`): `fail`, `error`, and any status planview does not know
    /// (a new one, `missing`, `unreadable`) are failures, so a gate on checks
    /// fails closed.
    pub fn is_failure(&self) -> bool {
        !is_quiet_status(&self.status)
    }
}

/// `pass` and `unknown`: the statuses that are not failures.
pub(crate) fn is_quiet_status(status: &str) -> bool {
    status == CheckStatus::Pass.as_str() || status == CheckStatus::Unknown.as_str()
}

/// The check results of a document: from `checks`, else from
/// `condition_results` (Terraform 1.2-1.4), else none.
pub(crate) fn check_results(checks: Option<&[CheckObject]>, condition_results: Option<&RawValue>) -> (ChecksSource, Vec<CheckItem>) {
    match (checks, condition_results) {
        (Some(c), _) => (ChecksSource::Checks, items_from_checks(c)),
        (None, Some(raw)) if raw.get().trim() != "null" => (ChecksSource::ConditionResults, items_from_condition_results(raw)),
        _ => (ChecksSource::None, Vec::new()),
    }
}

/// Check instances counted by status, the four usual keys always present.
pub(crate) fn count_by_status(items: &[CheckItem]) -> std::collections::BTreeMap<String, u64> {
    let mut m: std::collections::BTreeMap<String, u64> = ["pass", "fail", "error", "unknown"].iter().map(|k| (k.to_string(), 0)).collect();
    for i in items {
        *m.entry(i.status.clone()).or_default() += 1;
    }
    m
}

pub(crate) fn rank(status: &str) -> u8 {
    match status {
        "error" => 0,
        "fail" => 1,
        "unknown" => 3,
        "pass" => 4,
        _ => 2,
    }
}

/// The listed items of a checks array: each instance, or the object as a
/// placeholder when it has none.
pub(crate) fn items_from_checks(objects: &[CheckObject]) -> Vec<CheckItem> {
    let mut out = Vec::new();
    for obj in objects {
        let placeholder = obj.instances.is_empty();
        for inst in obj.display_instances() {
            let a = &inst.address;
            out.push(CheckItem {
                address: a.to_display.clone(),
                object: obj.address.to_display.clone(),
                kind: a.kind.as_str().to_string(),
                status: inst.status.as_str().to_string(),
                problems: inst.problems.iter().map(|p| p.message.clone()).collect(),
                placeholder,
                module: a.module.clone(),
                instance_key: a.instance_key.clone(),
                type_: a.type_.clone(),
                location: None,
            });
        }
    }
    out
}

/// One element of Terraform 1.2-1.4's `condition_results`.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
struct ConditionResult {
    address: String,
    condition_type: String,
    /// `None` when absent: the condition's outcome cannot be known.
    result: Option<bool>,
    unknown: Option<bool>,
    error_message: Option<String>,
}

/// The module part and the resource type of a resource instance address
/// (`module.a["x"].aws_instance.web[0]` gives `module.a["x"]` and `aws_instance`).
fn split_address(address: &str) -> (Option<String>, Option<String>) {
    let mut rest = address;
    let mut module_end = 0;
    while let Some(after) = rest.strip_prefix("module.") {
        let name_len = after.find(['.', '[']).unwrap_or(after.len());
        let mut len = "module.".len() + name_len;
        if rest[len..].starts_with('[') {
            len += index_len(&rest[len..]);
        }
        module_end += len;
        rest = &rest[len..];
        match rest.strip_prefix('.') {
            Some(r) => {
                rest = r;
                module_end += 1;
            }
            None => break,
        }
    }
    let module = (module_end > 0).then(|| address[..module_end].trim_end_matches('.').to_string());
    let rest = rest.strip_prefix("data.").unwrap_or(rest);
    let type_ = rest.split('.').next().filter(|t| !t.is_empty() && rest.contains('.')).map(str::to_string);
    (module, type_)
}

/// Length of a bracketed instance key at the start of `s`.
fn index_len(s: &str) -> usize {
    let mut in_str = false;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_str => escaped = true,
            '"' => in_str = !in_str,
            ']' if !in_str => return i + 1,
            _ => {}
        }
    }
    s.len()
}

/// An item standing for a `condition_results` element (or value) that could
/// not be read: status `unreadable`, a failure (fail closed).
fn unreadable_item(address: String, why: &str) -> CheckItem {
    CheckItem {
        object: address.clone(),
        address,
        kind: "condition_result".into(),
        status: UNREADABLE.into(),
        problems: vec![format!("planview could not read this condition result: {why}")],
        placeholder: false,
        module: None,
        instance_key: None,
        type_: None,
        location: None,
    }
}

/// The items of a `condition_results` value (a list, or a map keyed by the
/// condition's address): one item per containing object, its status the worst
/// of its conditions (fail, then unknown, then pass), every message kept. An
/// element that cannot be read (or a value that is neither a list nor a map)
/// is an `unreadable` item, never dropped.
pub(crate) fn items_from_condition_results(raw: &RawValue) -> Vec<CheckItem> {
    let v: Value = serde_json::from_str(raw.get()).unwrap_or(Value::Null);
    let elems: Vec<(String, Value)> = match v {
        Value::Array(a) => a.into_iter().enumerate().map(|(i, x)| (format!("condition_results[{i}]"), x)).collect(),
        Value::Object(o) => o.into_iter().collect(),
        Value::Null => Vec::new(),
        _ => return vec![unreadable_item("condition_results".into(), "neither a list nor a map")],
    };
    let mut out: Vec<CheckItem> = Vec::new();
    for (at, e) in elems {
        let c = match serde_json::from_value::<ConditionResult>(e) {
            Ok(c) if !c.address.is_empty() && (c.result.is_some() || c.unknown == Some(true)) => c,
            Ok(_) => {
                out.push(unreadable_item(at, "no `address`, or no `result`"));
                continue;
            }
            Err(e) => {
                out.push(unreadable_item(at, &crate::sanitize::line(&e.to_string())));
                continue;
            }
        };
        let status = if c.unknown == Some(true) {
            "unknown"
        } else if c.result == Some(true) {
            "pass"
        } else {
            "fail"
        };
        let kind = if c.condition_type.starts_with("Output") {
            "output_value".to_string()
        } else if c.condition_type.starts_with("Resource") || c.condition_type.is_empty() {
            "resource".to_string()
        } else {
            c.condition_type.clone()
        };
        let problems: Vec<String> = c.error_message.filter(|m| status == "fail" && !m.is_empty()).into_iter().collect();
        if let Some(item) = out.iter_mut().find(|i| i.address == c.address) {
            if rank(status) < rank(&item.status) {
                item.status = status.to_string();
            }
            item.problems.extend(problems);
            continue;
        }
        let (module, type_) = if kind == "resource" { split_address(&c.address) } else { (split_address(&c.address).0, None) };
        out.push(CheckItem {
            address: c.address.clone(),
            object: c.address,
            kind,
            status: status.to_string(),
            problems,
            placeholder: false,
            module,
            instance_key: None,
            type_,
            location: None,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_instance_object_stands_in_as_placeholder() {
        let c: CheckObject = serde_json::from_str(r#"{"address":{"kind":"resource","to_display":"a.b"},"status":"pass"}"#).unwrap();
        let i = c.display_instances();
        assert_eq!(i.len(), 1);
        assert_eq!(i[0].address.to_display, "a.b");
        assert_eq!(i[0].status, CheckStatus::Pass);
    }

    #[test]
    fn unknown_kind_and_status_are_kept() {
        let c: CheckObject = serde_json::from_str(
            r#"{"address":{"kind":"policy","to_display":"p"},"status":"flaky","instances":[{"address":{"to_display":"p[0]","instance_key":0},"status":"flaky","problems":[{"message":"m"}]}]}"#,
        ).unwrap();
        assert_eq!(c.address.kind, CheckKind::Other("policy".into()));
        let i = c.display_instances();
        assert_eq!(i[0].address.to_display, "p[0]");
        assert_eq!(i[0].address.kind.as_str(), "policy");
        assert_eq!(i[0].status.as_str(), "flaky");
        assert_eq!(i[0].problems[0].message, "m");
    }

    #[test]
    fn module_and_type_split_from_addresses() {
        assert_eq!(split_address("aws_instance.web"), (None, Some("aws_instance".into())));
        assert_eq!(split_address("data.aws_ami.x"), (None, Some("aws_ami".into())));
        assert_eq!(split_address("module.a.module.b[0].t.n"), (Some("module.a.module.b[0]".into()), Some("t".into())));
        assert_eq!(split_address("module.a[\"x.y]\"].t.n[\"k\"]"), (Some("module.a[\"x.y]\"]".into()), Some("t".into())));
    }
}
