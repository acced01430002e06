//! Actions, action lists and action reasons, kept verbatim when not recognised.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// One element of a change's `actions` list.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Action {
    NoOp,
    Create,
    Read,
    Update,
    Delete,
    Forget,
    /// An action this version of planview does not know, kept as written.
    Other(String),
}

impl Action {
    pub fn as_str(&self) -> &str {
        match self {
            Action::NoOp => "no-op",
            Action::Create => "create",
            Action::Read => "read",
            Action::Update => "update",
            Action::Delete => "delete",
            Action::Forget => "forget",
            Action::Other(s) => s,
        }
    }

    pub fn parse(s: &str) -> Action {
        match s {
            "no-op" => Action::NoOp,
            "create" => Action::Create,
            "read" => Action::Read,
            "update" => Action::Update,
            "delete" => Action::Delete,
            "forget" => Action::Forget,
            other => Action::Other(other.to_string()),
        }
    }
}

impl<'de> Deserialize<'de> for Action {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Ok(Action::parse(&s))
    }
}

impl Serialize for Action {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Order of the two halves of a replacement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReplaceOrder {
    /// `["delete","create"]`: the old object goes first (the default).
    DeleteBeforeCreate,
    /// `["create","delete"]`: `create_before_destroy`.
    CreateBeforeDestroy,
}

/// What an action list means as a whole.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ChangeKind {
    NoOp,
    Create,
    Read,
    Update,
    Delete,
    Replace(ReplaceOrder),
    Forget,
    /// OpenTofu's `["forget","create"]`: a replacement whose old object is
    /// forgotten, not destroyed (`lifecycle { destroy = false }`).
    ForgetThenCreate,
    /// Terraform 1.16+'s `["create","forget"]` (`plans.CreateThenForget`): a
    /// replacement whose old object is forgotten, not destroyed (a tainted
    /// object of a resource with `lifecycle { destroy = false }`).
    CreateThenForget,
    /// Any other list, kept as written.
    Unknown(Vec<Action>),
}

impl ChangeKind {
    pub fn from_actions(actions: &[Action]) -> ChangeKind {
        use Action::*;
        match actions {
            [NoOp] => ChangeKind::NoOp,
            [Create] => ChangeKind::Create,
            [Read] => ChangeKind::Read,
            [Update] => ChangeKind::Update,
            [Delete] => ChangeKind::Delete,
            [Delete, Create] => ChangeKind::Replace(ReplaceOrder::DeleteBeforeCreate),
            [Create, Delete] => ChangeKind::Replace(ReplaceOrder::CreateBeforeDestroy),
            [Forget] => ChangeKind::Forget,
            [Forget, Create] => ChangeKind::ForgetThenCreate,
            [Create, Forget] => ChangeKind::CreateThenForget,
            other => ChangeKind::Unknown(other.to_vec()),
        }
    }

    /// The key this kind is counted under in `actions` totals: the known
    /// names, or an unknown list's actions joined with `+`.
    pub fn key(&self) -> String {
        match self {
            ChangeKind::NoOp => "no-op".into(),
            ChangeKind::Create => "create".into(),
            ChangeKind::Read => "read".into(),
            ChangeKind::Update => "update".into(),
            ChangeKind::Delete => "delete".into(),
            ChangeKind::Replace(_) => "replace".into(),
            ChangeKind::Forget => "forget".into(),
            ChangeKind::ForgetThenCreate => "forget+create".into(),
            ChangeKind::CreateThenForget => "create+forget".into(),
            ChangeKind::Unknown(list) => {
                if list.is_empty() {
                    "(empty)".into()
                } else {
                    list.iter().map(Action::as_str).collect::<Vec<_>>().join("+")
                }
            }
        }
    }

    /// Words for people, as the CLI says them.
    pub fn words(&self) -> String {
        match self {
            ChangeKind::NoOp => "no change".into(),
            ChangeKind::Create => "create".into(),
            ChangeKind::Read => "read".into(),
            ChangeKind::Update => "update in-place".into(),
            ChangeKind::Delete => "destroy".into(),
            ChangeKind::Replace(ReplaceOrder::DeleteBeforeCreate) => "replace (destroy then create)".into(),
            ChangeKind::Replace(ReplaceOrder::CreateBeforeDestroy) => "replace (create before destroy)".into(),
            ChangeKind::Forget => "forget (remove from state, keep the object)".into(),
            // OpenTofu: "must be replaced - older instance will not be destroyed
            // (lifecycle.destroy = false)" (internal/command/jsonformat/plan.go).
            ChangeKind::ForgetThenCreate => "must be replaced, older instance will not be destroyed (lifecycle.destroy = false)".into(),
            // Terraform: "must be replaced, but the existing object will not be
            // destroyed" (internal/command/jsonformat/plan.go).
            ChangeKind::CreateThenForget => "must be replaced, but the existing object will not be destroyed".into(),
            ChangeKind::Unknown(_) => format!("unrecognised action list {}", self.key()),
        }
    }

    /// The symbol the CLI prints before an address.
    pub fn symbol(&self) -> &'static str {
        match self {
            ChangeKind::NoOp => " ",
            ChangeKind::Create => "+",
            ChangeKind::Read => "<=",
            ChangeKind::Update => "~",
            ChangeKind::Delete => "-",
            ChangeKind::Replace(ReplaceOrder::DeleteBeforeCreate) => "-/+",
            ChangeKind::Replace(ReplaceOrder::CreateBeforeDestroy) => "+/-",
            ChangeKind::Forget => ".",
            // The CLIs' symbols: OpenTofu's `./+`, Terraform's `+/.`.
            ChangeKind::ForgetThenCreate => "./+",
            ChangeKind::CreateThenForget => "+/.",
            ChangeKind::Unknown(_) => "?",
        }
    }

    /// True when the current object (or a deposed one) is destroyed.
    pub fn destroys(&self) -> bool {
        match self {
            ChangeKind::Delete | ChangeKind::Replace(_) => true,
            ChangeKind::Unknown(list) => list.contains(&Action::Delete),
            _ => false,
        }
    }

    /// True for a replacement whose old object is forgotten, not destroyed
    /// (either CLI's order).
    pub fn replaces_forgetting(&self) -> bool {
        matches!(self, ChangeKind::ForgetThenCreate | ChangeKind::CreateThenForget)
    }

    pub fn replace_order(&self) -> Option<ReplaceOrder> {
        match self {
            ChangeKind::Replace(o) => Some(*o),
            _ => None,
        }
    }
}

impl fmt::Display for ChangeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.key())
    }
}

/// `action_reason` of a resource change; unknown codes are kept verbatim.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ActionReason(pub String);

impl ActionReason {
    pub fn code(&self) -> &str {
        &self.0
    }

    /// The reason in words, or `None` for a code this version does not know.
    pub fn known_words(&self) -> Option<&'static str> {
        Some(match self.0.as_str() {
            "replace_because_tainted" => "is tainted, so it must be replaced",
            "replace_because_cannot_update" => "an attribute cannot be updated in place",
            "replace_by_request" => "replacement requested with -replace",
            "replace_by_triggers" => "replace_triggered_by fired",
            "delete_because_no_resource_config" => "its resource block is gone from the configuration",
            "delete_because_no_module" => "its module is no longer in the configuration",
            "delete_because_wrong_repetition" => "its instance key does not fit count/for_each",
            "delete_because_count_index" => "its count index is out of range",
            "delete_because_each_key" => "its for_each key is gone",
            "delete_because_no_move_target" => "its moved block has no target",
            "delete_because_enabled_false" => "enabled is false",
            "read_because_config_unknown" => "configuration known only after apply",
            "read_because_dependency_pending" => "depends on a pending change",
            "read_because_check_nested" => "read by a check block",
            // OpenTofu's words (internal/command/jsonformat/plan.go).
            "forgot_because_lifecycle_destroy_in_state" => {
                "lifecycle.destroy = false was configured before this resource was removed from the configuration"
            }
            "forgot_because_lifecycle_destroy_in_config" => "lifecycle.destroy = false is set in the configuration",
            _ => return None,
        })
    }

    /// Words when known, else the raw code.
    pub fn words(&self) -> String {
        self.known_words().map(str::to_string).unwrap_or_else(|| self.0.clone())
    }

    /// Words for this reason on a change of `kind`. Terraform 1.11 gives a
    /// forget (`removed` with `destroy = false`) the reason
    /// `delete_because_no_resource_config`; it says "destroy = false is set in
    /// the configuration" there, and so do we.
    pub fn words_for(&self, kind: &ChangeKind) -> String {
        match (kind, self.0.as_str()) {
            (ChangeKind::Forget, "delete_because_no_resource_config") => "removed from configuration with destroy = false".to_string(),
            // Terraform gives `["create","forget"]` no reason of its own; it says
            // "(destroy = false is set in the configuration)" under it.
            (ChangeKind::CreateThenForget, "replace_because_tainted") => {
                "is tainted, so it must be replaced; destroy = false is set in the configuration".to_string()
            }
            _ => self.words(),
        }
    }
}

impl<'de> Deserialize<'de> for ActionReason {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(ActionReason(String::deserialize(d)?))
    }
}

impl Serialize for ActionReason {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

/// Resource mode; anything but `managed` and `data` is kept verbatim.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum Mode {
    #[default]
    Managed,
    Data,
    Other(String),
}

impl Mode {
    pub fn as_str(&self) -> &str {
        match self {
            Mode::Managed => "managed",
            Mode::Data => "data",
            Mode::Other(s) => s,
        }
    }
}

impl<'de> Deserialize<'de> for Mode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Ok(match s.as_ref() {
            "managed" => Mode::Managed,
            "data" => Mode::Data,
            other => Mode::Other(other.to_string()),
        })
    }
}

impl Serialize for Mode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(list: &[&str]) -> ChangeKind {
        ChangeKind::from_actions(&list.iter().map(|s| Action::parse(s)).collect::<Vec<_>>())
    }

    #[test]
    fn replace_orders_are_told_apart() {
        assert_eq!(kind(&["delete", "create"]), ChangeKind::Replace(ReplaceOrder::DeleteBeforeCreate));
        assert_eq!(kind(&["create", "delete"]), ChangeKind::Replace(ReplaceOrder::CreateBeforeDestroy));
    }

    #[test]
    fn both_orders_of_a_forgetting_replacement_are_recognised_apart() {
        // plans.CreateThenForget's actionString (internal/command/jsonplan/plan.go,
        // hashicorp/terraform 883c7221ee2e) and OpenTofu's ForgetThenCreate.
        let tf = kind(&["create", "forget"]);
        let tofu = kind(&["forget", "create"]);
        assert_eq!((tf.key(), tf.symbol()), ("create+forget".to_string(), "+/."));
        assert_eq!((tofu.key(), tofu.symbol()), ("forget+create".to_string(), "./+"));
        assert!(!tf.destroys() && !tofu.destroys());
        assert!(tf.replaces_forgetting() && tofu.replaces_forgetting());
        assert_eq!(tf.words(), "must be replaced, but the existing object will not be destroyed");
        let reason = ActionReason("forgot_because_lifecycle_destroy_in_state".into());
        assert_eq!(reason.words(), "lifecycle.destroy = false was configured before this resource was removed from the configuration");
    }

    #[test]
    fn unknown_action_list_is_kept_and_keyed_with_plus() {
        let k = kind(&["create", "teleport"]);
        assert_eq!(k.key(), "create+teleport");
        assert!(!k.destroys());
        assert!(kind(&["delete", "explode"]).destroys());
        assert_eq!(kind(&[]).key(), "(empty)");
    }

    #[test]
    fn unknown_reason_is_shown_verbatim() {
        let r = ActionReason("replace_because_moon_phase".into());
        assert_eq!(r.words(), "replace_because_moon_phase");
        assert_eq!(ActionReason("replace_by_triggers".into()).words(), "replace_triggered_by fired");
    }

    #[test]
    fn action_deserializes_unknown_verbatim() {
        let a: Vec<Action> = serde_json::from_str(r#"["no-op","warp"]"#).unwrap();
        assert_eq!(a, vec![Action::NoOp, Action::Other("warp".into())]);
    }
}
