//! `checks`: check results (preconditions, postconditions, check blocks,
//! variable validations) per instance, from `checks` or, in Terraform 1.2-1.4
//! plans, from `condition_results`.

use crate::filter::Filter;
use crate::model::Document;
use crate::query::summary::CHECK_KEYS;
use serde::Serialize;
use std::collections::BTreeMap;

pub(crate) use crate::model::checks::{rank, CheckItem, ChecksSource};

/// What the user asked for.
#[derive(Debug, Clone, Copy)]
pub struct ChecksOptions<'f> {
    pub filter: &'f Filter,
    /// `--all`: list pass and unknown too.
    pub all: bool,
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

/// Problem messages are text from the input: masked as `vis` says.
pub fn checks(doc: &Document<'_>, opts: &ChecksOptions<'_>, vis: &crate::query::values::Visibility) -> ChecksReport {
    let (document, format_version, terraform_version, errored, source, items) = match doc {
        Document::Plan(p) => {
            let (source, items) = p.check_results();
            ("plan", p.format_version.clone(), p.terraform_version.clone(), p.errored, source, items)
        }
        Document::State(s) => {
            let (source, items) = crate::model::checks::check_results(s.checks.as_deref(), None);
            ("state", s.format_version.clone(), s.terraform_version.clone(), false, source, items)
        }
    };
    let mut counts: BTreeMap<String, u64> = CHECK_KEYS.iter().map(|k| (k.to_string(), 0)).collect();
    let mut listed = Vec::new();
    let mut hidden = 0;
    for mut item in items {
        for p in &mut item.problems {
            *p = vis.text(p).into_owned();
        }
        let f = opts.filter;
        if !f.matches_object(&item.address, item.type_.as_deref().unwrap_or(""), item.module.as_deref()) {
            continue;
        }
        *counts.entry(item.status.clone()).or_default() += 1;
        if !item.is_failure() && !opts.all {
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
        let doc = crate::read::parse("t", json.as_bytes()).unwrap();
        checks(&doc, &ChecksOptions { filter, all }, &Default::default())
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
}
