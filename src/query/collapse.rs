//! Collapse repetition: the changes of one module instance that share their
//! resource type, action and set of changed attributes (200 ×
//! `aws_route53_record.this[*]` created alike) are one group, shown as one row
//! with a count and the members' addresses behind a toggle (the HTML page,
//! the PR comment, summary's table). JSON keeps every change.

use crate::query::address::Address;
use std::collections::HashMap;

/// A group shows as one row from this many members on; fewer are listed one
/// by one (two or three rows read faster than a toggle).
pub(crate) const MIN_GROUP: usize = 4;

/// What makes changes alike.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct GroupKey {
    /// The module instance (`module.a["k"]`), empty for the root module.
    pub module: String,
    /// The resource type, `data.` before a data source's.
    pub type_: String,
    /// The action ([`crate::model::ChangeKind::key`]).
    pub action: String,
    /// The changed attributes (top-level names, sorted, unique); `None`
    /// where they are not known (summary reads no values): then the
    /// resource block must be the same too.
    pub attrs: Option<Vec<String>>,
}

/// Changes alike, in the order their first member came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Group {
    pub key: GroupKey,
    /// `module.a.aws_route53_record.this[*]` when every member is an
    /// instance of one resource block, `module.a.aws_route53_record.*` otherwise.
    pub label: String,
    /// The members' indices, in the order they were pushed.
    pub members: Vec<usize>,
}

impl Group {
    /// True when the group is shown as one row.
    pub(crate) fn collapsed(&self) -> bool {
        self.members.len() >= MIN_GROUP
    }
}

/// Groups changes as they come, one at a time (a streamed report holds one
/// change at a time: only the key of each is kept).
#[derive(Debug, Default)]
pub(crate) struct Collapser {
    index: HashMap<GroupKey, usize>,
    groups: Vec<Group>,
    /// The resource block (`module.a.aws_x.name`) of each group's members
    /// while they all share one; `None` once they differ.
    blocks: Vec<Option<String>>,
    pushed: usize,
}

/// The parts of an address the grouping reads: module instance, type, and
/// the resource block without its key. An address planview cannot read is
/// its own block (never grouped with others but its twins).
pub(crate) fn parts(address: &str) -> (String, String, String) {
    match Address::parse(address) {
        Ok(mut a) => {
            let mut resource = a.steps.pop().expect("an address has a resource step");
            let module = Address { steps: a.steps.clone() }.to_string();
            let type_ = resource.kind.clone();
            resource.key = None;
            a.steps.push(resource);
            (module, type_, a.to_string())
        }
        Err(_) => (String::new(), address.to_string(), address.to_string()),
    }
}

impl Collapser {
    /// Add the next change (its index is the number pushed before it); the
    /// index of its group. `attrs`: its changed attributes, when known.
    /// `alone`: a change with facts of its own (moved, imported, deposed, a
    /// reason) that is never grouped.
    pub(crate) fn push(&mut self, address: &str, action: &str, attrs: Option<Vec<String>>, alone: bool) -> usize {
        let i = self.pushed;
        self.pushed += 1;
        let (module, type_, block) = parts(address);
        let attrs = attrs.map(|mut a| {
            a.sort();
            a.dedup();
            a
        });
        // Without the attributes, only instances of one block group.
        let type_key = if attrs.is_none() { block.clone() } else { type_ };
        let key = GroupKey { module, type_: type_key, action: action.to_string(), attrs };
        let found = if alone { None } else { self.index.get(&key).copied() };
        match found {
            Some(g) => {
                self.groups[g].members.push(i);
                if self.blocks[g].as_deref() != Some(block.as_str()) {
                    self.blocks[g] = None;
                }
                g
            }
            None => {
                let g = self.groups.len();
                if !alone {
                    self.index.insert(key.clone(), g);
                }
                self.groups.push(Group { key, label: String::new(), members: vec![i] });
                self.blocks.push(Some(block));
                g
            }
        }
    }

    /// The groups, labelled.
    pub(crate) fn finish(self) -> Vec<Group> {
        self.groups
            .into_iter()
            .zip(self.blocks)
            .map(|(mut g, block)| {
                g.label = match block {
                    Some(b) => format!("{b}[*]"),
                    None => {
                        let module = if g.key.module.is_empty() { String::new() } else { format!("{}.", g.key.module) };
                        format!("{module}{}.*", g.key.type_)
                    }
                };
                g
            })
            .collect()
    }
}

/// The changed attributes of a change (their top-level names), for grouping.
pub(crate) fn changed_attributes(d: &crate::query::show::ResourceDiff) -> Vec<String> {
    use crate::model::PathStep;
    d.changes
        .iter()
        .map(|c| match c.path.first() {
            Some(PathStep::Key(k)) => k.clone(),
            Some(PathStep::Index(i)) => format!("[{i}]"),
            Some(PathStep::Other(v)) => v.to_string(),
            None => String::new(),
        })
        .collect()
}

/// The instance key of an address as written (`["a"]`, `[0]`), or the
/// whole address when it has none: what a collapsed row lists of a member.
pub(crate) fn member_key(address: &str) -> String {
    use crate::query::address::Key;
    match Address::parse(address).map(|a| a.resource().key.clone()) {
        Ok(Some(Key::Int(n))) => format!("[{n}]"),
        Ok(Some(Key::Str(k))) => format!("[{}]", crate::escape::hcl_quote(&k)),
        _ => address.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attrs(a: &[&str]) -> Option<Vec<String>> {
        Some(a.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn alike_changes_of_one_module_group_and_others_do_not() {
        let mut c = Collapser::default();
        for i in 0..5 {
            c.push(&format!("aws_route53_record.this[{i}]"), "create", attrs(&["name", "ttl"]), false);
        }
        // Another attribute set, another action, another module, a change of its own.
        c.push("aws_route53_record.this[9]", "create", attrs(&["name"]), false);
        c.push("aws_route53_record.this[10]", "delete", attrs(&["name", "ttl"]), false);
        c.push("module.m.aws_route53_record.this[0]", "create", attrs(&["ttl", "name"]), false);
        c.push("aws_route53_record.this[11]", "create", attrs(&["ttl", "name"]), true);
        // Another block of the same type, alike: same group, labelled by type.
        c.push("aws_route53_record.other", "create", attrs(&["name", "ttl"]), false);
        let g = c.finish();
        assert_eq!(g.len(), 5);
        assert_eq!(g[0].members, vec![0, 1, 2, 3, 4, 9]);
        assert_eq!(g[0].label, "aws_route53_record.*");
        assert!(g[0].collapsed());
        assert_eq!(g[1].members, vec![5]);
        assert!(!g[1].collapsed());
        assert_eq!(g[2].members, vec![6]);
        assert_eq!(g[3].members, vec![7]);
        assert_eq!(g[3].label, "module.m.aws_route53_record.this[*]");
        assert_eq!(g[4].members, vec![8]);
    }

    #[test]
    fn without_attributes_only_one_blocks_instances_group() {
        let mut c = Collapser::default();
        c.push(r#"module.a["x"].aws_s3_object.o["k1"]"#, "create", None, false);
        c.push(r#"module.a["x"].aws_s3_object.o["k2"]"#, "create", None, false);
        c.push(r#"module.a["x"].aws_s3_object.p"#, "create", None, false);
        c.push(r#"module.a["y"].aws_s3_object.o["k1"]"#, "create", None, false);
        let g = c.finish();
        assert_eq!(g.iter().map(|g| g.members.clone()).collect::<Vec<_>>(), vec![vec![0, 1], vec![2], vec![3]]);
        assert_eq!(g[0].label, r#"module.a["x"].aws_s3_object.o[*]"#);
    }

    #[test]
    fn a_members_key_is_its_last_index() {
        assert_eq!(member_key(r#"module.a["x"].aws_s3_object.o["k.1"]"#), r#"["k.1"]"#);
        assert_eq!(member_key("aws_instance.web[3]"), "[3]");
        assert_eq!(member_key(r#"module.a["x"].aws_instance.web"#), r#"module.a["x"].aws_instance.web"#);
    }
}
