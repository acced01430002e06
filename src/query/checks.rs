//! `checks`: check results (preconditions, postconditions, check blocks,
//! variable validations) per instance, from `checks` or, in Terraform 1.2-1.4
//! plans, from `condition_results`.

use crate::filter::Filter;
use crate::input::Document;
use crate::model::{CheckObject, CheckStatus, RawValue};
use crate::query::summary::CHECK_KEYS;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// What the user asked for.
#[derive(Debug, Clone, Copy)]
pub struct ChecksOptions<'f> {
    pub filter: &'f Filter,
    /// `--all`: list pass and unknown too.
    pub all: bool,
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

/// The check results of one document.
#[derive(Debug, Serialize)]
pub struct ChecksReport {
    pub kind: &'static str,
    pub file: String,
    /// `plan` or `state`.
    pub document: &'static str,
    pub format_version: String,
    pub terraform_version: Option<String>,
    pub errored: bool,
    pub source: ChecksSource,
    /// Instances (placeholders for objects without any) by status, after the filters.
    pub counts: BTreeMap<String, u64>,
    /// True when an instance failed or errored (the command then exits 1).
    pub failed: bool,
    /// Instances that passed or are unknown, not listed (without `--all`).
    pub hidden: u64,
    pub checks: Vec<CheckItem>,
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
}

impl CheckItem {
    pub fn is_failure(&self) -> bool {
        self.status == "fail" || self.status == "error"
    }
}

fn rank(status: &str) -> u8 {
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
pub fn items_from_checks(objects: &[CheckObject]) -> Vec<CheckItem> {
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
    result: bool,
    unknown: bool,
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

/// The items of a `condition_results` value (a list, or a map keyed by the
/// condition's address): one item per containing object, its status the worst
/// of its conditions (fail, then unknown, then pass), every message kept.
pub fn items_from_condition_results(raw: &RawValue) -> Vec<CheckItem> {
    let v: Value = serde_json::from_str(raw.get()).unwrap_or(Value::Null);
    let elems: Vec<Value> = match v {
        Value::Array(a) => a,
        Value::Object(o) => o.into_iter().map(|(_, x)| x).collect(),
        _ => Vec::new(),
    };
    let mut out: Vec<CheckItem> = Vec::new();
    for e in elems {
        let Ok(c) = serde_json::from_value::<ConditionResult>(e) else { continue };
        let status = if c.unknown {
            "unknown"
        } else if c.result {
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
        });
    }
    out
}

pub fn checks(doc: &Document<'_>, opts: &ChecksOptions<'_>) -> ChecksReport {
    let (document, format_version, terraform_version, errored, source, items) = match doc {
        Document::Plan(p) => {
            let (source, items) = match (&p.checks, p.condition_results) {
                (Some(c), _) => (ChecksSource::Checks, items_from_checks(c)),
                (None, Some(raw)) => (ChecksSource::ConditionResults, items_from_condition_results(raw)),
                (None, None) => (ChecksSource::None, Vec::new()),
            };
            ("plan", p.format_version.clone(), p.terraform_version.clone(), p.errored, source, items)
        }
        Document::State(s) => {
            let (source, items) = match &s.checks {
                Some(c) => (ChecksSource::Checks, items_from_checks(c)),
                None => (ChecksSource::None, Vec::new()),
            };
            ("state", s.format_version.clone(), s.terraform_version.clone(), false, source, items)
        }
    };
    let mut counts: BTreeMap<String, u64> = CHECK_KEYS.iter().map(|k| (k.to_string(), 0)).collect();
    let mut listed = Vec::new();
    let mut hidden = 0;
    for item in items {
        let f = opts.filter;
        if !f.matches_object(&item.address, item.type_.as_deref().unwrap_or(""), item.module.as_deref()) {
            continue;
        }
        *counts.entry(item.status.clone()).or_default() += 1;
        let quiet = item.status == CheckStatus::Pass.as_str() || item.status == CheckStatus::Unknown.as_str();
        if quiet && !opts.all {
            hidden += 1;
        } else {
            listed.push(item);
        }
    }
    listed.sort_by_key(|i| rank(&i.status));
    ChecksReport {
        kind: "checks",
        file: String::new(),
        document,
        format_version,
        terraform_version,
        errored,
        source,
        failed: listed.iter().any(CheckItem::is_failure),
        counts,
        hidden,
        checks: listed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::glob::Glob;

    fn plan_checks(json: &str, all: bool, filter: &Filter) -> ChecksReport {
        let doc = crate::input::parse("t", json.as_bytes()).unwrap();
        checks(&doc, &ChecksOptions { filter, all })
    }

    const CHECKS: &str = r#"{"format_version":"1.2","errored":true,"checks":[
        {"address":{"kind":"resource","to_display":"module.m.aws_instance.web","module":"module.m","type":"aws_instance"},"status":"fail","instances":[
          {"address":{"to_display":"module.m.aws_instance.web[0]","instance_key":0},"status":"fail","problems":[{"message":"first"},{"message":"second"}]},
          {"address":{"to_display":"module.m.aws_instance.web[1]","instance_key":1},"status":"pass"}]},
        {"address":{"kind":"check","to_display":"check.zero"},"status":"unknown"},
        {"address":{"kind":"output_value","to_display":"output.url"},"status":"error","instances":[]},
        {"address":{"kind":"var","to_display":"var.x"},"status":"pass","instances":[{"address":{"to_display":"var.x"},"status":"pass"}]}]}"#;

    #[test]
    fn failures_listed_with_every_problem_and_quiet_ones_counted() {
        let r = plan_checks(CHECKS, false, &Filter::default());
        assert!(r.failed && r.errored);
        let listed: Vec<(&str, &str)> = r.checks.iter().map(|c| (c.address.as_str(), c.status.as_str())).collect();
        assert_eq!(listed, vec![("output.url", "error"), ("module.m.aws_instance.web[0]", "fail")]);
        assert_eq!(r.checks[1].problems, vec!["first", "second"]);
        assert_eq!(r.checks[1].object, "module.m.aws_instance.web");
        assert_eq!(r.checks[1].module.as_deref(), Some("module.m"));
        assert_eq!(r.hidden, 3);
        assert_eq!((r.counts["pass"], r.counts["fail"], r.counts["error"], r.counts["unknown"]), (2, 1, 1, 1));
    }

    #[test]
    fn zero_instance_objects_stand_in_as_placeholders() {
        let r = plan_checks(CHECKS, true, &Filter::default());
        let zero: Vec<&CheckItem> = r.checks.iter().filter(|c| c.placeholder).collect();
        let names: Vec<&str> = zero.iter().map(|c| c.address.as_str()).collect();
        assert_eq!(names, vec!["output.url", "check.zero"], "both objects without instances, nothing else");
        assert_eq!(zero[1].status, "unknown");
        assert_eq!(r.checks.len(), 5);
    }

    #[test]
    fn filters_select_checks_by_address_type_and_module() {
        let f = Filter { modules: vec![Glob::new("module.m")], ..Default::default() };
        let r = plan_checks(CHECKS, true, &f);
        assert_eq!(r.checks.len(), 2);
        let f = Filter { types: vec!["aws_instance".into()], ..Default::default() };
        assert_eq!(plan_checks(CHECKS, true, &f).checks.len(), 2);
        let f = Filter { addresses: vec![Glob::new("var.*")], ..Default::default() };
        let r = plan_checks(CHECKS, false, &f);
        assert!(!r.failed && r.checks.is_empty() && r.hidden == 1);
    }

    #[test]
    fn condition_results_list_and_map_forms_are_read() {
        let list = r#"{"format_version":"1.1","condition_results":[
            {"address":"module.n[\"a\"].aws_instance.x","condition_type":"ResourcePrecondition","result":false,"unknown":false,"error_message":"too small"},
            {"address":"module.n[\"a\"].aws_instance.x","condition_type":"ResourcePostcondition","result":true,"unknown":false},
            {"address":"output.url","condition_type":"OutputPrecondition","result":false,"unknown":true}]}"#;
        let r = plan_checks(list, true, &Filter::default());
        assert_eq!(r.source, ChecksSource::ConditionResults);
        let x = &r.checks[0];
        assert_eq!((x.address.as_str(), x.status.as_str(), x.kind.as_str()), ("module.n[\"a\"].aws_instance.x", "fail", "resource"));
        assert_eq!(x.problems, vec!["too small"]);
        assert_eq!((x.module.as_deref(), x.type_.as_deref()), (Some("module.n[\"a\"]"), Some("aws_instance")));
        assert_eq!((r.checks[1].kind.as_str(), r.checks[1].status.as_str()), ("output_value", "unknown"));
        let map = r#"{"format_version":"1.1","condition_results":{
            "aws_instance.x.precondition[0]":{"//":"deprecated","address":"aws_instance.x","condition_type":"ResourcePrecondition","result":true,"unknown":false}}}"#;
        let r = plan_checks(map, true, &Filter::default());
        assert_eq!((r.checks.len(), r.failed), (1, false));
        assert_eq!(r.checks[0].type_.as_deref(), Some("aws_instance"));
    }

    #[test]
    fn module_and_type_split_from_addresses() {
        assert_eq!(split_address("aws_instance.web"), (None, Some("aws_instance".into())));
        assert_eq!(split_address("data.aws_ami.x"), (None, Some("aws_ami".into())));
        assert_eq!(split_address("module.a.module.b[0].t.n"), (Some("module.a.module.b[0]".into()), Some("t".into())));
        assert_eq!(split_address("module.a[\"x.y]\"].t.n[\"k\"]"), (Some("module.a[\"x.y]\"]".into()), Some("t".into())));
    }
}
