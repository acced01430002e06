//! The `locals` blocks of a configuration as references: what the blast radius
//! (`dependents`) follows through a local, which the plan's `configuration`
//! leaves out. Each local's expression is read with hcl-edit (native syntax),
//! or its strings and keys as templates (JSON syntax), and each reference is
//! written as the plan's `references` lists write one (`aws_instance.a[0].id`,
//! `var.x`, `module.m.out`): whole, from its root name through its attribute
//! and literal index steps.

use super::json::{Node, Val};
use hcl_edit::expr::{Expression, TraversalOperator};
use hcl_edit::visit::{self, Visit};

/// The references of an expression's text (native syntax); `None` when it does not parse.
pub(crate) fn of_text(text: &str) -> Option<Vec<String>> {
    let e = hcl_edit::parser::parse_expr(text).ok()?;
    Some(of_expr(&e))
}

/// The references of an expression.
pub(crate) fn of_expr(e: &Expression) -> Vec<String> {
    let mut r = Refs::default();
    r.visit_expr(e);
    r.out
}

/// The references of a JSON-syntax expression: its strings and object keys are
/// templates; `None` when one does not parse.
pub(crate) fn of_json(node: &Node) -> Option<Vec<String>> {
    let mut r = Refs::default();
    r.json(node)?;
    Some(r.out)
}

#[derive(Default)]
struct Refs {
    out: Vec<String>,
    /// Names a `for` expression binds (not references).
    bound: Vec<String>,
}

impl Refs {
    fn json(&mut self, node: &Node) -> Option<()> {
        match &node.val {
            Val::Str(s) => self.template(s),
            Val::Arr(items) => items.iter().try_for_each(|n| self.json(n)),
            Val::Obj(props) => props.iter().try_for_each(|(k, _, v)| {
                self.template(k)?;
                self.json(v)
            }),
            Val::Other => Some(()),
        }
    }

    fn template(&mut self, s: &str) -> Option<()> {
        if s.contains("${") || s.contains("%{") {
            let t = hcl_edit::parser::parse_template(s).ok()?;
            self.visit_template(&t);
        }
        Some(())
    }

    /// The reference rooted at `name` through `ops`; how many of `ops` it takes.
    fn root(&mut self, name: &str, ops: &[hcl_edit::Decorated<TraversalOperator>]) -> usize {
        if self.bound.iter().any(|b| b == name) {
            return 0;
        }
        let mut r = name.to_string();
        let mut used = 0;
        for op in ops {
            match &**op {
                TraversalOperator::GetAttr(id) => r.push_str(&format!(".{}", id.as_str())),
                TraversalOperator::LegacyIndex(n) => r.push_str(&format!("[{}]", **n)),
                TraversalOperator::Index(Expression::Number(n)) if n.as_u64().is_some() => {
                    r.push_str(&format!("[{}]", n.as_u64().unwrap_or_default()));
                }
                TraversalOperator::Index(Expression::String(s)) => {
                    r.push_str(&format!("[{}]", serde_json::to_string(s.value()).unwrap_or_default()));
                }
                _ => break,
            }
            used += 1;
        }
        self.out.push(r);
        used
    }
}

impl Visit for Refs {
    fn visit_expr(&mut self, e: &Expression) {
        match e {
            Expression::Variable(v) => {
                self.root(v.as_str(), &[]);
            }
            Expression::Traversal(t) => match &t.expr {
                Expression::Variable(v) => {
                    let used = self.root(v.as_str(), &t.operators);
                    for op in &t.operators[used..] {
                        self.visit_traversal_operator(op);
                    }
                }
                _ => visit::visit_traversal(self, t),
            },
            Expression::ForExpr(f) => {
                self.visit_expr(&f.intro.collection_expr);
                let n = self.bound.len();
                self.bound.extend(f.intro.key_var.iter().map(|k| k.as_str().to_string()));
                self.bound.push(f.intro.value_var.as_str().to_string());
                if let Some(k) = &f.key_expr {
                    self.visit_expr(k);
                }
                self.visit_expr(&f.value_expr);
                if let Some(c) = &f.cond {
                    self.visit_expr(&c.expr);
                }
                self.bound.truncate(n);
            }
            _ => visit::visit_expr(self, e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_are_written_as_the_plan_writes_them() {
        let r = |t: &str| of_text(t).unwrap_or_else(|| panic!("does not parse: {t}"));
        assert_eq!(r("\"${terraform_data.db.output}:5432\""), ["terraform_data.db.output"]);
        assert_eq!(r("aws_instance.a[0].id"), ["aws_instance.a[0].id"]);
        assert_eq!(r("aws_instance.a[\"k\"].tags.x"), ["aws_instance.a[\"k\"].tags.x"]);
        assert_eq!(r("aws_instance.a[count.index].id"), ["aws_instance.a", "count.index"]);
        assert_eq!(r("aws_instance.a[*].id"), ["aws_instance.a"]);
        assert_eq!(r("module.m.out"), ["module.m.out"]);
        assert_eq!(r("var.x"), ["var.x"]);
        assert_eq!(r("local.y + 1"), ["local.y"]);
        assert_eq!(r("[for s in var.list : upper(s.name) if s.on]"), ["var.list"]);
        assert_eq!(r("{ for k, v in data.t.n.map : k => v }"), ["data.t.n.map"]);
        assert_eq!(r("cond ? a.b : join(\",\", [c.d])"), ["cond", "a.b", "c.d"]);
        assert!(r("\"literal\"").is_empty());
        assert!(of_text("(").is_none());
    }

    #[test]
    fn json_syntax_reads_strings_and_keys_as_templates() {
        let n = super::super::json::parse(r#"{"a": "${t.x.id}-${var.v}", "b": ["plain", {"${local.k}": 1}]}"#).unwrap();
        assert_eq!(of_json(&n).unwrap(), ["t.x.id", "var.v", "local.k"]);
        let bad = super::super::json::parse(r#""${""#).unwrap();
        assert!(of_json(&bad).is_none());
    }
}
