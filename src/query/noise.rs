//! Noise (`--ignore-attr`): an in-place update whose every changed attribute
//! path matches an ignored pattern (`tags`, `tags_all`,
//! `metadata.annotations.*`) is counted apart and never judged as an update.
//!
//! The changed paths of a change ([`changed_attribute_paths`]) are the one
//! reading `data.planview.changes` gives Rego policies too: where the values
//! differ ([`crate::query::diff::changed_paths`], by value), where the after
//! value is unknown, and where a value becomes or stops being sensitive.

use crate::glob::Glob;
use crate::model::markers;
use crate::model::{ChangeKind, PathStep, ResourceChange};
use crate::query::diff::{changed_paths, Compare};
use crate::query::values::parse_raw;
use serde::Serialize;
use serde_json::Value;

/// The compiled `--ignore-attr` patterns.
#[derive(Debug, Clone, Default)]
pub(crate) struct Noise {
    /// Each pattern as written, its glob, and for `X.*` the glob of `X`
    /// (which also covers `X` appearing, going, or changing whole).
    patterns: Vec<(String, Glob, Option<Glob>)>,
}

/// What a report says about noise: how many updates only change ignored
/// attributes, and the patterns (JSON `"noise"`, present with `--ignore-attr`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct NoiseCount {
    /// In-place updates whose only changes are to ignored attributes.
    pub count: u64,
    /// The `--ignore-attr` patterns (and the policy's `ignore_attributes`).
    pub ignore_attributes: Vec<String>,
}

impl NoiseCount {
    /// The line under the CLI's `Plan:` line: `12 of them only change tags`.
    pub fn line(&self) -> String {
        format!("{} of them only change {}", self.count, words(&self.ignore_attributes))
    }

    /// [`NoiseCount::line`] when some update is noise (reports say nothing otherwise).
    pub fn line_of(n: Option<&NoiseCount>) -> Option<String> {
        n.filter(|n| n.count > 0).map(NoiseCount::line)
    }

    /// What the updates collapsed into one row do: `only change tags`.
    pub fn what(&self) -> String {
        format!("only change {}", words(&self.ignore_attributes))
    }
}

/// `tags`, `tags or tags_all`, `a, b or c`.
fn words(patterns: &[String]) -> String {
    match patterns {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

impl Noise {
    pub(crate) fn new<S: AsRef<str>>(patterns: &[S]) -> Noise {
        let mut out: Vec<(String, Glob, Option<Glob>)> = Vec::new();
        for p in patterns.iter().map(|p| p.as_ref().trim()).filter(|p| !p.is_empty()) {
            if !out.iter().any(|(q, _, _)| q == p) {
                let parent = p.strip_suffix(".*").map(Glob::new);
                out.push((p.to_string(), Glob::new(p), parent));
            }
        }
        Noise { patterns: out }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.patterns.is_empty()
    }

    /// The patterns as written.
    pub(crate) fn patterns(&self) -> Vec<String> {
        self.patterns.iter().map(|(p, _, _)| p.clone()).collect()
    }

    /// A count of none yet, or `None` without patterns (the report says nothing).
    pub(crate) fn count(&self) -> Option<NoiseCount> {
        (!self.is_empty()).then(|| NoiseCount { count: 0, ignore_attributes: self.patterns() })
    }

    /// Whether an attribute path is ignored: a pattern matches its dotted
    /// form (`tags.Name`, `metadata[0].annotations.a`; keys as written,
    /// unquoted) or that form without list indexes (`metadata.annotations.a`,
    /// for single-element nested blocks). A pattern covers what is below
    /// what it matches (`tags` covers `tags.Name`); `X.*` covers `X` too.
    pub(crate) fn ignores(&self, path: &[PathStep]) -> bool {
        let (full, flat) = (dotted(path, true), dotted(path, false));
        self.patterns
            .iter()
            .any(|(_, g, parent)| [&full, &flat].iter().any(|p| g.matches(p) || parent.as_ref().is_some_and(|q| q.matches_exactly(p))))
    }

    /// True when `rc` is noise: a managed in-place update (not moved, not
    /// imported, not a deposed object) that changes something, and whose
    /// every changed attribute path is ignored.
    pub(crate) fn is_noise(&self, rc: &ResourceChange<'_>) -> bool {
        if self.is_empty()
            || rc.kind() != ChangeKind::Update
            || rc.is_move()
            || rc.change.importing.is_some()
            || rc.deposed.is_some()
            || crate::query::summary::mode_of(rc) != crate::model::Mode::Managed
        {
            return false;
        }
        let paths = changed_attribute_paths(rc);
        !paths.is_empty() && paths.iter().all(|p| self.ignores(p))
    }
}

/// A path with every key after a `.`, an index as `[N]` (or left out when
/// not `indexes`).
fn dotted(path: &[PathStep], indexes: bool) -> String {
    let mut s = String::new();
    for step in path {
        match step {
            PathStep::Key(k) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(k);
            }
            PathStep::Index(i) if indexes => s.push_str(&format!("[{i}]")),
            PathStep::Index(_) => {}
            PathStep::Other(v) => s.push_str(&format!("[{v}]")),
        }
    }
    s
}

/// The attribute paths a change changes, in a stable order without
/// duplicates: where before and after differ by value (absent and null
/// alike), where the after value is unknown, and where a value becomes or
/// stops being sensitive. An unreadable side counts as changed whole (`[]`).
pub(crate) fn changed_attribute_paths(rc: &ResourceChange<'_>) -> Vec<Vec<PathStep>> {
    let ch = &rc.change;
    let parse = |raw: Option<&serde_json::value::RawValue>| match raw {
        None => Ok(None),
        Some(r) => serde_json::from_str::<Value>(r.get()).map(Some),
    };
    let (Ok(before), Ok(after), Ok(unknown)) = (parse(ch.before), parse(ch.after), parse(ch.after_unknown)) else {
        return vec![Vec::new()];
    };
    let mut out = changed_paths(before.as_ref(), after.as_ref(), unknown.as_ref(), Compare::ByValue, &|_| false);
    let mut push = |p: Vec<PathStep>| {
        if !out.contains(&p) {
            out.push(p);
        }
    };
    let mut marked = Vec::new();
    marked_paths(unknown.as_ref(), &mut Vec::new(), &mut marked);
    marked.into_iter().for_each(&mut push);
    let (bs, as_) = (parse_raw(ch.before_sensitive), parse_raw(ch.after_sensitive));
    let (mut b, mut a) = (Vec::new(), Vec::new());
    marked_paths(bs.as_ref(), &mut Vec::new(), &mut b);
    marked_paths(as_.as_ref(), &mut Vec::new(), &mut a);
    for p in b.iter().filter(|p| !a.contains(p)).chain(a.iter().filter(|p| !b.contains(p))) {
        push(p.clone());
    }
    out
}

/// The paths a marker marks whole ([`markers::whole`]), outermost only.
fn marked_paths(m: Option<&Value>, path: &mut Vec<PathStep>, out: &mut Vec<Vec<PathStep>>) {
    if markers::whole(m) {
        out.push(path.clone());
        return;
    }
    match m {
        Some(Value::Object(o)) => {
            for (k, v) in o {
                path.push(PathStep::Key(k.clone()));
                marked_paths(Some(v), path, out);
                path.pop();
            }
        }
        Some(Value::Array(a)) => {
            for (i, v) in a.iter().enumerate() {
                path.push(PathStep::Index(i as u64));
                marked_paths(Some(v), path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Plan;

    fn plan(json: &str) -> Plan<'_> {
        serde_json::from_str(json).unwrap()
    }

    fn change(before: &str, after: &str, unknown: &str) -> String {
        format!(
            r#"{{"format_version":"1.2","resource_changes":[{{"address":"a.b","mode":"managed","type":"a","name":"b",
              "change":{{"actions":["update"],"before":{before},"after":{after},"after_unknown":{unknown},"before_sensitive":{{}},"after_sensitive":{{}}}}}}]}}"#
        )
    }

    #[test]
    fn paths_match_dotted_with_or_without_indexes() {
        let n = Noise::new(&["tags", "metadata.annotations.*"]);
        let p = |s: &str| serde_json::from_str::<Vec<PathStep>>(s).unwrap();
        assert!(n.ignores(&p(r#"["tags"]"#)));
        assert!(n.ignores(&p(r#"["tags","kubernetes.io/name"]"#)));
        assert!(!n.ignores(&p(r#"["tags_all","Name"]"#)), "tags is not tags_all");
        assert!(n.ignores(&p(r#"["metadata",0,"annotations","example.com/x"]"#)));
        assert!(n.ignores(&p(r#"["metadata",0,"annotations"]"#)), "X.* covers X");
        assert!(!n.ignores(&p(r#"["metadata",0,"labels","a"]"#)));
        assert!(!n.ignores(&p(r#"["metadata"]"#)), "the whole block is more than its annotations");
        assert!(!n.ignores(&[]));
        assert_eq!(NoiseCount { count: 3, ignore_attributes: n.patterns() }.line(), "3 of them only change tags or metadata.annotations.*");
    }

    #[test]
    fn only_updates_whose_every_change_is_ignored_are_noise() {
        let n = Noise::new(&["tags", "tags_all"]);
        let tags_only = change(r#"{"id":"1","tags":{"a":"1"}}"#, r#"{"id":"1","tags":{"a":"2"}}"#, r#"{"tags_all":true}"#);
        let p = plan(&tags_only);
        assert!(n.is_noise(&p.resource_changes[0]), "a tag and an unknown tags_all");
        let mixed = change(r#"{"id":"1","size":1,"tags":{"a":"1"}}"#, r#"{"id":"1","size":2,"tags":{"a":"2"}}"#, "{}");
        assert!(!n.is_noise(&plan(&mixed).resource_changes[0]));
        let unknown_id = change(r#"{"id":"1","tags":{}}"#, r#"{"tags":{"a":"2"}}"#, r#"{"id":true}"#);
        assert!(!n.is_noise(&plan(&unknown_id).resource_changes[0]), "an unknown attribute is a change");
        let nothing = change(r#"{"id":"1"}"#, r#"{"id":"1"}"#, "{}");
        assert!(!n.is_noise(&plan(&nothing).resource_changes[0]), "no change at all is not a tags-only change");
        assert!(!Noise::default().is_noise(&p.resource_changes[0]));
        let sensitive = r#"{"format_version":"1.2","resource_changes":[{"address":"a.b","mode":"managed","type":"a","name":"b",
            "change":{"actions":["update"],"before":{"pw":"x","tags":{"a":"1"}},"after":{"pw":"x","tags":{"a":"2"}},"after_unknown":{},
            "before_sensitive":{},"after_sensitive":{"pw":true}}}]}"#;
        assert!(!n.is_noise(&plan(sensitive).resource_changes[0]), "a value becoming sensitive is a change");
        let created = tags_only.replace(r#"["update"]"#, r#"["delete","create"]"#);
        assert!(!n.is_noise(&plan(&created).resource_changes[0]), "only updates");
    }
}
