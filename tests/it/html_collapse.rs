//! Collapsed repetition (issue 30): alike changes are one row with a count
//! and their keys in the page's module tree and in summary's table and
//! markdown; JSON keeps every change.

use crate::common::planview;
use serde_json::{json, Value};

/// Six instances of one block created alike, two of another type, and one
/// instance moved (never grouped).
fn plan() -> Value {
    let mut changes = Vec::new();
    for i in 0..6 {
        changes.push(json!({
            "address": format!("module.dns.aws_route53_record.this[{i}]"), "module_address": "module.dns",
            "mode": "managed", "type": "aws_route53_record", "name": "this", "index": i,
            "change": {"actions": ["create"], "before": null, "after": {"name": format!("r{i}"), "ttl": 60}, "after_unknown": {"id": true}}
        }));
    }
    for name in ["a", "b"] {
        changes.push(json!({
            "address": format!("aws_s3_bucket.{name}"), "mode": "managed", "type": "aws_s3_bucket", "name": name,
            "change": {"actions": ["update"], "before": {"tags": {}}, "after": {"tags": {"x": "1"}}, "after_unknown": {}}
        }));
    }
    changes.push(json!({
        "address": "module.dns.aws_route53_record.this[6]", "previous_address": "module.dns.aws_route53_record.old",
        "module_address": "module.dns", "mode": "managed", "type": "aws_route53_record", "name": "this", "index": 6,
        "change": {"actions": ["create"], "before": null, "after": {"name": "r6", "ttl": 60}, "after_unknown": {"id": true}}
    }));
    json!({"format_version": "1.2", "terraform_version": "1.11.0", "resource_changes": changes})
}

fn run(args: &[&str], file: &std::path::Path) -> String {
    let mut all = args.to_vec();
    all.push(file.to_str().unwrap());
    let out = planview(&all);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn alike_changes_are_one_row_and_json_keeps_every_change() {
    let dir = std::env::temp_dir().join(format!("planview-collapse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("alike.json");
    std::fs::write(&file, serde_json::to_vec(&plan()).unwrap()).unwrap();

    let table = run(&["summary", "--color", "never"], &file);
    assert!(table.contains("module.dns.aws_route53_record.this[*]"), "{table}");
    assert!(table.contains("6 alike: [0], [1], [2], [3], [4], ... (1 more)"), "{table}");
    assert!(!table.contains("module.dns.aws_route53_record.this[3]"), "members are not rows: {table}");
    assert!(table.contains("module.dns.aws_route53_record.this[6]"), "a moved change is its own row: {table}");
    assert!(table.contains("aws_s3_bucket.a") && table.contains("aws_s3_bucket.b"), "two alike stay two rows: {table}");

    let md = run(&["summary", "--format", "markdown"], &file);
    assert!(md.contains("<summary>9 resource change(s)</summary>"), "the count is of changes, not rows: {md}");
    assert!(md.contains("| `module.dns.aws_route53_record.this[*]` | <details><summary>6 alike</summary>`[0]`, `[1]`, `[2]`, `[3]`, `[4]`, `[5]`</details> |"), "{md}");

    let json: Value = serde_json::from_str(&run(&["summary", "--format", "json"], &file)).unwrap();
    assert_eq!(json["resources"].as_array().unwrap().len(), 9, "JSON keeps every change");

    // The PR comment: one row, one diff (the first's), the count of changes.
    let out = planview(&["comment", file.to_str().unwrap()]);
    let comment = String::from_utf8(out.stdout).unwrap();
    assert!(comment.contains("**Create** (7)"), "{comment}");
    assert!(comment.contains("| create | `module.dns.aws_route53_record.this[*]` | <details><summary>6 alike</summary>`[0]`, `[1]`, `[2]`, `[3]`, `[4]`, `[5]`</details> |"), "{comment}");
    assert!(comment.contains("6 changes alike (`module.dns.aws_route53_record.this[*]`), the first one's diff:"), "{comment}");
    assert!(!comment.contains("`module.dns.aws_route53_record.this[3]`"), "{comment}");
    assert!(comment.contains("`module.dns.aws_route53_record.this[6]`"), "the moved one is its own row: {comment}");

    let page = run(&["show", "--format", "html"], &file);
    assert!(page.contains("<b>6 ×</b> <code>module.dns.aws_route53_record.this[*]</code> <span class=\"create\">create</span>"), "{page}");
    assert_eq!(page.matches("class=\"change\"").count(), 9, "every change keeps its diff on the page");
    assert!(page.contains("<a href=\"#p0c5\"><code>[5]</code></a>"), "the keys link to their changes: {page}");
}

/// Ten updates of one resource block in one module: five change `tags`,
/// five change `acl` (and one of those `tags` too). The page and the PR
/// comment read values, so they group by changed-attribute set: the five
/// `tags` updates are one row, the four `acl` ones another, the
/// `acl`+`tags` one its own. Summary reads no values: its table groups the
/// block's instances by action only, one row of ten.
#[test]
fn the_page_and_the_comment_group_by_changed_attribute_set() {
    let mut changes = Vec::new();
    for i in 0..10 {
        let (before, after) = match i {
            0..=4 => (json!({"acl": "private", "tags": {}}), json!({"acl": "private", "tags": {"n": format!("{i}")}})),
            5..=8 => (json!({"acl": "private", "tags": {}}), json!({"acl": "public-read", "tags": {}})),
            _ => (json!({"acl": "private", "tags": {}}), json!({"acl": "public-read", "tags": {"n": "9"}})),
        };
        changes.push(json!({
            "address": format!("module.s.aws_s3_bucket.b[{i}]"), "module_address": "module.s",
            "mode": "managed", "type": "aws_s3_bucket", "name": "b", "index": i,
            "change": {"actions": ["update"], "before": before, "after": after, "after_unknown": {}}
        }));
    }
    let plan = json!({"format_version": "1.2", "terraform_version": "1.11.0", "resource_changes": changes});
    let dir = std::env::temp_dir().join(format!("planview-collapse-attrs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("attrs.json");
    std::fs::write(&file, serde_json::to_vec(&plan).unwrap()).unwrap();

    let page = run(&["show", "--format", "html"], &file);
    let group = |n: usize, attrs: &str| {
        format!("<b>{n} ×</b> <code>module.s.aws_s3_bucket.b[*]</code> <span class=\"update\">update in-place</span> <span class=\"muted\">({attrs})</span>")
    };
    assert!(page.contains(&group(5, "tags")), "{page}");
    assert!(page.contains(&group(4, "acl")), "{page}");
    assert_eq!(page.matches("<details class=\"group\">").count(), 2, "two groups: {page}");
    assert!(page.contains("<li><a href=\"#p0c9\"><code>module.s.aws_s3_bucket.b[9]</code></a>"), "acl and tags: its own row: {page}");
    assert_eq!(page.matches("class=\"change\"").count(), 10, "every change keeps its diff on the page");

    let out = planview(&["comment", file.to_str().unwrap()]);
    let comment = String::from_utf8(out.stdout).unwrap();
    let row = |n: usize, keys: &str| {
        format!("| update in-place | `module.s.aws_s3_bucket.b[*]` | <details><summary>{n} alike</summary>{keys}</details> |")
    };
    assert!(comment.contains(&row(5, "`[0]`, `[1]`, `[2]`, `[3]`, `[4]`")), "{comment}");
    assert!(comment.contains(&row(4, "`[5]`, `[6]`, `[7]`, `[8]`")), "{comment}");
    assert!(comment.contains("`module.s.aws_s3_bucket.b[9]`"), "{comment}");
    assert_eq!(comment.matches("changes alike (").count(), 2, "one diff per group: {comment}");

    let table = run(&["summary", "--color", "never"], &file);
    assert!(table.contains("10 alike: [0], [1], [2], [3], [4], ... (5 more)"), "summary: by block and action: {table}");
}
