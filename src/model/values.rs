//! The values representation (state and planned values) and the state representation.

use super::action::Mode;
use super::checks::CheckObject;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::collections::BTreeMap;

/// `show -json` of a state, and the plan's `prior_state`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct State<'a> {
    pub format_version: Option<String>,
    pub terraform_version: Option<String>,
    #[serde(borrow)]
    pub values: Option<Values<'a>>,
    pub checks: Option<Vec<CheckObject>>,
}

/// A values representation: root module outputs and the module tree.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Values<'a> {
    #[serde(borrow)]
    pub outputs: BTreeMap<String, OutputValue<'a>>,
    #[serde(borrow)]
    pub root_module: Module<'a>,
}

/// A root or child module in a values representation.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Module<'a> {
    /// Absent for the root module.
    pub address: Option<String>,
    #[serde(borrow)]
    pub resources: Vec<ResourceValue<'a>>,
    #[serde(borrow)]
    pub child_modules: Vec<Module<'a>>,
}

impl<'a> Module<'a> {
    /// Every resource of this module and its descendants, depth first, with
    /// the address of the module that holds it (`None` for the root).
    pub fn walk(&self) -> Vec<(Option<&str>, &ResourceValue<'a>)> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(m) = stack.pop() {
            for r in &m.resources {
                out.push((m.address.as_deref(), r));
            }
            for c in m.child_modules.iter().rev() {
                stack.push(c);
            }
        }
        out
    }
}

/// A resource instance in a values representation.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ResourceValue<'a> {
    pub address: String,
    pub mode: Mode,
    #[serde(rename = "type")]
    pub type_: String,
    pub name: String,
    pub index: Option<serde_json::Value>,
    pub provider_name: Option<String>,
    pub schema_version: Option<u64>,
    #[serde(borrow)]
    pub values: Option<&'a RawValue>,
    #[serde(borrow)]
    pub sensitive_values: Option<&'a RawValue>,
    /// Real state output marks tainted objects (not in the document).
    pub tainted: bool,
    /// Real state output may carry a deposed key (not in the document).
    pub deposed_key: Option<String>,
    #[serde(borrow)]
    pub identity: Option<&'a RawValue>,
}

/// An output value in a values representation.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct OutputValue<'a> {
    #[serde(borrow)]
    pub value: Option<&'a RawValue>,
    #[serde(rename = "type", borrow)]
    pub type_: Option<&'a RawValue>,
    pub sensitive: bool,
    /// OpenTofu: the output's deprecation message (internal/command/jsonstate
    /// state.go, opentofu/opentofu f831fa1aa4b9); anything but a string is none.
    #[serde(deserialize_with = "super::plan::lenient_string")]
    pub deprecated: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walk_visits_nested_modules_in_order() {
        let json = r#"{"values":{"root_module":{"resources":[{"address":"a.x"}],
          "child_modules":[{"address":"module.m","resources":[{"address":"module.m.a.y"}],
            "child_modules":[{"address":"module.m.module.n","resources":[{"address":"module.m.module.n.a.z","tainted":true}]}]}]}}}"#;
        let s: State = serde_json::from_str(json).unwrap();
        let v = s.values.unwrap();
        let addrs: Vec<_> = v.root_module.walk().iter().map(|(m, r)| (m.map(str::to_string), r.address.clone(), r.tainted)).collect();
        assert_eq!(
            addrs,
            vec![
                (None, "a.x".to_string(), false),
                (Some("module.m".to_string()), "module.m.a.y".to_string(), false),
                (Some("module.m.module.n".to_string()), "module.m.module.n.a.z".to_string(), true),
            ]
        );
    }
}
