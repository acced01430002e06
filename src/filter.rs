//! The common filters: `--address GLOB`, `--type TYPE`, `--module MODULE`,
//! `--action ACTION`. Each is repeatable (any of its values may match); different
//! filters must all match.

use crate::glob::Glob;
use crate::model::ResourceChange;

/// Values `--action` accepts.
pub(crate) const ACTIONS: &[&str] = &["create", "update", "delete", "replace", "read", "no-op", "forget", "move", "import"];

/// A conjunction of filters; empty lists match everything.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub addresses: Vec<Glob>,
    pub types: Vec<String>,
    /// `root` for the root module; otherwise a module address glob.
    pub modules: Vec<Glob>,
    pub actions: Vec<String>,
}

impl Filter {
    pub fn is_empty(&self) -> bool {
        self.addresses.is_empty() && self.types.is_empty() && self.modules.is_empty() && self.actions.is_empty()
    }

    pub fn address_ok(&self, address: &str) -> bool {
        self.addresses.is_empty() || self.addresses.iter().any(|g| g.matches(address))
    }

    pub fn type_ok(&self, type_: &str) -> bool {
        self.types.is_empty() || self.types.iter().any(|t| t == type_)
    }

    /// `module` is the module address, `None` for the root module.
    pub fn module_ok(&self, module: Option<&str>) -> bool {
        self.modules.is_empty()
            || self.modules.iter().any(|g| match module {
                None => g.as_str() == "root",
                Some(m) => g.matches(m),
            })
    }

    /// `key` is the change kind's key; `moved`/`importing` enable the pseudo actions.
    pub fn action_ok(&self, key: &str, moved: bool, importing: bool) -> bool {
        self.actions.is_empty() || self.actions.iter().any(|a| a == key || (a == "move" && moved) || (a == "import" && importing))
    }

    /// Address, type and module (for listings without actions: state, checks).
    pub fn matches_object(&self, address: &str, type_: &str, module: Option<&str>) -> bool {
        self.address_ok(address) && self.type_ok(type_) && self.module_ok(module)
    }

    /// Every filter, against a resource change.
    pub fn matches_change(&self, rc: &ResourceChange<'_>) -> bool {
        self.matches_object(&rc.address, &rc.type_, rc.module_address.as_deref())
            && self.action_ok(&rc.kind().key(), rc.is_move(), rc.change.importing.is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rc(json: &str) -> ResourceChange<'_> {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn filters_combine_as_and_values_as_or() {
        let c = rc(
            r#"{"address":"module.net.aws_vpc.main","module_address":"module.net","type":"aws_vpc","change":{"actions":["delete","create"]}}"#,
        );
        let mut f = Filter::default();
        assert!(f.matches_change(&c));
        f.types = vec!["aws_subnet".into(), "aws_vpc".into()];
        assert!(f.matches_change(&c));
        f.modules = vec![Glob::new("module.net")];
        assert!(f.matches_change(&c));
        f.actions = vec!["replace".into()];
        assert!(f.matches_change(&c));
        f.actions = vec!["delete".into()];
        assert!(!f.matches_change(&c), "a replace is not the `delete` action key");
        let root = rc(r#"{"address":"aws_vpc.x","type":"aws_vpc","previous_address":"aws_vpc.y","change":{"actions":["no-op"]}}"#);
        let f = Filter { modules: vec![Glob::new("root")], actions: vec!["move".into()], ..Default::default() };
        assert!(f.matches_change(&root));
        assert!(!f.matches_change(&c));
    }
}
