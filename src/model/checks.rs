//! The checks representation; unknown kinds and statuses are kept verbatim.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

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
    CheckStatus { Pass = "pass", Fail = "fail", Error = "error", Unknown = "unknown" } default Unknown
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
}
