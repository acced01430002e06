//! Tests of the tree differ ([`super`]): the `pic()` pictures of its trees, masking, lists, sets and strings.

use super::*;
use crate::secrets::Masker;
use serde_json::json;

/// A compact picture of a tree: `~{a:1->2 +b:3 #1}`, lists `[..]`,
/// `S` sensitive, `?` unknown, `!` forces replacement, `L(..)` lines, `J(..)` JSON.
fn pic(n: &Node) -> String {
    let side = |s: &Option<Shown>| match s {
        None => "_".to_string(),
        Some(Shown::Value(v)) => v.clone(),
        Some(Shown::Null) => "null".into(),
        Some(Shown::Sensitive) => "S".into(),
        Some(Shown::Unknown) => "?".into(),
    };
    let sym = match n.op {
        Op::Add => "+",
        Op::Remove => "-",
        Op::Update => "~",
        Op::Same => "=",
    };
    let bang = match n.sensitivity {
        Some(SensitivityNote { change: SensitivityChange::Marked, .. }) => "S+",
        Some(SensitivityNote { change: SensitivityChange::Unmarked, .. }) => "S-",
        None => "",
    };
    let bang = if n.forces_replacement { format!("!{bang}") } else { bang.to_string() };
    let body = match &n.kind {
        Kind::Leaf { before, after } => match n.op {
            Op::Add => side(after),
            Op::Remove => side(before),
            Op::Same => side(after),
            Op::Update => format!("{}->{}", side(before), side(after)),
        },
        Kind::Collection { brackets, entries, hidden, before, after, .. } => {
            let mut parts: Vec<String> = entries
                .iter()
                .map(|e| match (&e.key, &e.before_key) {
                    (Key::Attr(k), _) => format!("{k}:{}", pic(&e.node)),
                    (Key::Index(_), Some(Key::Index(i))) if e.moved => format!("@{i}{}", pic(&e.node)),
                    (Key::Index(_), _) => pic(&e.node),
                })
                .collect();
            if *hidden > 0 {
                parts.push(format!("#{hidden}"));
            }
            let (o, c) = if *brackets == Brackets::Object { ("{", "}") } else { ("[", "]") };
            let pre = before.as_ref().map(|b| format!("{}->", side(&Some(b.clone())))).unwrap_or_default();
            let post = after.as_ref().map(|a| format!("->{}", side(&Some(a.clone())))).unwrap_or_default();
            format!("{pre}{o}{}{c}{post}", parts.join(" "))
        }
        Kind::Block(b) => {
            let mut parts: Vec<String> = b.attributes.iter().map(|e| format!("{}:{}", path_text(&[e.key.step()]), pic(&e.node))).collect();
            parts.extend(b.blocks.iter().map(|e| format!("{} {}", e.name, pic(&e.node))));
            format!("block{{{} #{}/{}}}", parts.join(" "), b.hidden_attributes, b.hidden_blocks)
        }
        Kind::WriteOnly { sensitive } => format!("wo{}", if *sensitive { "S" } else { "" }),
        Kind::Swap(b, a) => format!("{}=>{}", pic(b), pic(a)),
        Kind::Lines(items) => {
            let parts: Vec<String> = items
                .iter()
                .map(|i| match i {
                    LineItem::Line(op, l) => format!("{}{l}", op.symbol()),
                    LineItem::EndNewline(op) => format!("{}NL", op.symbol()),
                })
                .collect();
            format!("L({})", parts.join("|"))
        }
        Kind::Json(inner) => format!("J({})", pic(inner)),
        Kind::ToUnknown(inner) => format!("{}->?", pic(inner)),
    };
    format!("{sym}{bang}{body}")
}

fn d(before: Value, after: Value) -> String {
    dm(before, after, Marks::default())
}

/// As a provider's resource without its schema: lists of objects aligned by content.
fn dc(before: Value, after: Value) -> String {
    let vis = Visibility::default();
    let opts = DiffOptions { vis: &vis, full: false, replace_paths: &[], block_root: true, objects_by_content: true, legacy: false };
    pic(&diff(Some(&before), Some(&after), Marks::default(), &opts))
}

fn dm(before: Value, after: Value, m: Marks<'_>) -> String {
    let vis = Visibility::default();
    let opts = DiffOptions { vis: &vis, full: false, replace_paths: &[], block_root: true, objects_by_content: false, legacy: false };
    pic(&diff(Some(&before), Some(&after), m, &opts))
}

fn shown_paths(b: &Value, a: &Value) -> Vec<String> {
    changed_paths(Some(b), Some(a), None, Compare::AsShown, &|_| false).iter().map(|p| path_text(p)).collect()
}

#[test]
fn changed_paths_descend_objects_and_same_length_lists() {
    let b = json!({"a": 1, "tags": {"Name": "x", "Env": "dev"}, "disks": [{"size": 8}, {"size": 16}], "ports": [80], "same": "s", "gone": null});
    let a = json!({"a": 1, "tags": {"Name": "y", "Env": "dev", "New": "n"}, "disks": [{"size": 8}, {"size": 32}], "ports": [80, 443], "same": "s"});
    let got: Vec<String> = shown_paths(&b, &a);
    assert_eq!(got, vec!["disks[1].size", "ports", "tags.Name", "tags.New"]);
    assert_eq!(changed_paths(Some(&b), None, None, Compare::AsShown, &|_| false), vec![Vec::<PathStep>::new()]);
    assert!(shown_paths(&b, &b).is_empty());
}

#[test]
fn changed_paths_never_pair_set_elements_by_position() {
    let rule = |port: u16, cidr: &str, desc: &str| json!({"from_port": port, "to_port": port, "cidr_blocks": [cidr], "description": desc});
    // Rule 443 kept (description edited), 22 gone, 80 new: the elements moved,
    // so the whole list is the change, never `ingress[0].from_port` 443 -> 80.
    let b = json!({"ingress": [rule(443, "0.0.0.0/0", "HTTPS"), rule(22, "10.0.0.0/8", "ssh")]});
    let a = json!({"ingress": [rule(80, "0.0.0.0/0", "http"), rule(443, "0.0.0.0/0", "https")]});
    let got: Vec<String> = shown_paths(&b, &a);
    assert_eq!(got, vec!["ingress"]);
    // In place: a near-equal element is followed into, a different one reported whole.
    let b = json!({"ingress": [rule(443, "0.0.0.0/0", "HTTPS"), rule(22, "10.0.0.0/8", "ssh"), rule(25, "10.1.0.0/16", "smtp")]});
    let a = json!({"ingress": [rule(443, "0.0.0.0/0", "https"), rule(80, "192.168.0.0/16", "http"), rule(53, "10.2.0.0/16", "dns")]});
    let got: Vec<String> = shown_paths(&b, &a);
    assert_eq!(got, vec!["ingress[0].description", "ingress[1]", "ingress[2]"]);
}

#[test]
fn changed_paths_by_value_compare_numbers_exactly_and_lists_by_position() {
    let by_value = |b: Value, a: Value, u: Option<Value>| -> Vec<String> {
        changed_paths(Some(&b), Some(&a), u.as_ref(), Compare::ByValue, &|_| false).iter().map(|p| path_text(p)).collect()
    };
    // `1` and `1.0` are one number by value, two texts as shown.
    let (b, a) = (json!({"n": 1, "l": [1e2]}), serde_json::from_str::<Value>(r#"{"n": 1.0, "l": [100]}"#).unwrap());
    assert!(by_value(b.clone(), a.clone(), None).is_empty());
    assert_eq!(shown_paths(&b, &a), vec!["l[0]", "n"]);
    // Moved elements are compared where they are, not aligned.
    assert_eq!(by_value(json!({"l": ["a", "b", "c"]}), json!({"l": ["b", "a", "c"]}), None), vec!["l[0]", "l[1]"]);
    assert_eq!(shown_paths(&json!({"l": ["a", "b", "c"]}), &json!({"l": ["b", "a", "c"]})), vec!["l"]);
    // Null and absent are alike; a list of another length is one change.
    assert_eq!(by_value(json!({"x": null, "l": [1, 2]}), json!({"l": [1]}), None), vec!["l"]);
}

#[test]
fn changed_paths_leave_out_unknown_parts_and_skipped_paths() {
    let b = json!({"id": "i-1", "cfg": {"a": [1, {"b": "x", "c": "old"}], "t": {"k": "v", "when": "mon"}}});
    let a = json!({"cfg": {"a": [1, {"b": "y"}], "t": {"k": "v", "when": "tue"}}});
    let u = json!({"id": true, "cfg": {"a": [false, {"c": true}]}});
    let when = |p: &[PathStep]| p.last() == Some(&PathStep::Key("when".into()));
    let got: Vec<String> = changed_paths(Some(&b), Some(&a), Some(&u), Compare::ByValue, &when).iter().map(|p| path_text(p)).collect();
    assert_eq!(got, vec!["cfg.a[1].b"]);
    let got: Vec<String> = changed_paths(Some(&b), Some(&a), None, Compare::ByValue, &|_| false).iter().map(|p| path_text(p)).collect();
    assert_eq!(got, vec!["cfg.a[1].b", "cfg.a[1].c", "cfg.t.when", "id"]);
    // Unknown as a whole: nothing to compare.
    assert!(changed_paths(Some(&b), Some(&a), Some(&json!(true)), Compare::AsShown, &|_| false).is_empty());
    assert_eq!(changed_paths(Some(&b), Some(&a), None, Compare::AsShown, &|p| !p.is_empty()), Vec::<Vec<PathStep>>::new());
}

#[test]
fn multiline_and_json_strings_that_become_unknown_keep_their_block() {
    let u = json!({"s": true, "j": true, "one": true, "secret": true});
    let bs = json!({"secret": true});
    let m = Marks { after_unknown: Some(&u), before_sensitive: Some(&bs), after_sensitive: Some(&bs) };
    let before = json!({"s": "a\nb\n", "j": "{\"k\":1,\"l\":[2]}", "one": "x", "secret": "p\nq"});
    let got = dm(before.clone(), json!({}), m);
    // A sensitive value known only after apply is `(sensitive value)`, as the CLI shows one.
    assert_eq!(got, "~{j:~~J(-{k:-1 l:-[-2]})->? one:~\"x\"->? s:~~L( a| b)->? secret:~S->S}");
    // JSON output: one change, the whole string before, unknown after.
    let vis = Visibility::default();
    let opts = DiffOptions { vis: &vis, full: false, replace_paths: &[], block_root: true, objects_by_content: false, legacy: false };
    let after = json!({});
    let root = diff(Some(&before), Some(&after), m, &opts);
    let flat = flatten(&root, Some(&before), Some(&after), &vis);
    let s = flat.iter().find(|c| path_text(&c.path) == "s").unwrap();
    assert_eq!((s.before.clone(), s.after.clone()), (Some(Shown::Value("\"a\\nb\\n\"".into())), Some(Shown::Unknown)));
}

#[test]
fn maps_show_additions_removals_changes_and_count_the_rest() {
    assert_eq!(d(json!({"a": 1, "b": 2, "c": 3}), json!({"a": 1, "b": 5, "d": 4})), "~{b:~2->5 c:-3 d:+4 #1}");
    assert_eq!(d(json!({"a": 1}), json!({"a": 1})), "={#1}");
}

#[test]
fn nulls_count_as_absent_attributes() {
    assert_eq!(d(json!({"a": null, "b": 1}), json!({"a": "x", "b": null})), "~{a:+\"x\" b:-1}");
    assert_eq!(d(json!({"a": null}), json!({"a": null})), "={}");
    assert_eq!(d(json!([null, 1]), json!([null, 2])), "~[=null ~1->2]", "nulls inside lists are values");
    // Inside a value (not a resource's own attributes), null is a value, as the CLI shows it.
    assert_eq!(
        d(json!({"o": {"drop": "d", "c": null}}), json!({"o": {"drop": null, "c": true}})),
        "~{o:~{c:~null->true drop:~\"d\"->null}}"
    );
    assert_eq!(d(json!({"o": {"c": null, "k": 1}}), json!({})), "~{o:-{c:-null k:-1}}");
    assert_eq!(d(json!({"o": {"m": {"a": 1}}}), json!({"o": {"m": null}})), "~{o:~{m:~{a:-1}->null}}");
}

#[test]
fn lists_of_primitives_align_insertions_and_removals() {
    // The same length and not a reordering: paired by position, as the CLI pairs them.
    assert_eq!(d(json!([1, 2, 3]), json!([1, 3, 4])), "~[=1 ~2->3 ~3->4]");
    // Else along the longest common subsequence; every element kept (the renderer shows context).
    assert_eq!(d(json!(["a", "b"]), json!(["x", "a", "b"])), "~[+\"x\" =\"a\" =\"b\"]");
    assert_eq!(d(json!(["a", "b", "c", "d"]), json!(["a", "c", "d"])), "~[=\"a\" -\"b\" =\"c\" =\"d\"]");
    assert_eq!(d(json!([]), json!(["a"])), "~[+\"a\"]");
}

#[test]
fn sets_written_as_lists_show_members_added_and_removed() {
    // A set of ports reordered by the provider keeps its common members.
    // Without a schema a set is a list: the CLI's list pairing (by position).
    assert_eq!(d(json!([22, 80, 443]), json!([80, 443, 8080])), "~[~22->80 ~80->443 ~443->8080]");
    // A reordering of the same length is not paired by position.
    assert_eq!(d(json!(["a", "b"]), json!(["b", "a"])), "~[-\"a\" =\"b\" +\"a\"]");
}

#[test]
fn lists_of_objects_change_in_place() {
    let r = |port: u16, cidr: &str| json!({"port": port, "proto": "tcp", "cidr": cidr});
    let before = json!([r(80, "0.0.0.0/0"), r(443, "0.0.0.0/0")]);
    let after = json!([r(80, "0.0.0.0/0"), r(443, "10.0.0.0/8"), r(22, "10.0.0.0/8")]);
    assert_eq!(
        dc(before.clone(), after.clone()),
        "~[~{cidr:~\"0.0.0.0/0\"->\"10.0.0.0/8\" #2} +{cidr:+\"10.0.0.0/8\" port:+22 proto:+\"tcp\"} #1]"
    );
    // As the CLI pairs a list: along the common elements, an object facing an object paired.
    assert_eq!(
        d(before, after),
        "~[={cidr:=\"0.0.0.0/0\" port:=80 proto:=\"tcp\"} ~{cidr:~\"0.0.0.0/0\"->\"10.0.0.0/8\" #2} +{cidr:+\"10.0.0.0/8\" port:+22 proto:+\"tcp\"}]"
    );
    // Half the attributes changed is not near-equal: removed and added.
    let before = json!([{"port": 1, "cidr": "a"}, {"port": 2, "cidr": "b"}]);
    let after = json!([{"port": 1, "cidr": "c"}, {"port": 3, "cidr": "b"}]);
    assert_eq!(dc(before, after), "~[-{cidr:-\"a\" port:-1} -{cidr:-\"b\" port:-2} +{cidr:+\"c\" port:+1} +{cidr:+\"b\" port:+3}]");
}

#[test]
fn set_elements_pair_only_with_near_equal_elements() {
    // Security-group rules: 443 kept (its description changes), 22 gone, 80 new.
    let rule = |port: u16, cidr: &str, desc: &str| {
        json!({"from_port": port, "to_port": port, "protocol": "tcp", "cidr_blocks": [cidr], "description": desc,
               "self": false, "security_groups": [], "ipv6_cidr_blocks": [], "prefix_list_ids": []})
    };
    let before = json!([rule(443, "0.0.0.0/0", "HTTPS"), rule(22, "10.0.0.0/8", "ssh")]);
    let after = json!([rule(80, "0.0.0.0/0", "http"), rule(443, "0.0.0.0/0", "https")]);
    let got = dc(before.clone(), after.clone());
    assert!(got.contains("~{description:~\"HTTPS\"->\"https\" #8}"), "{got}");
    assert!(got.contains("-{cidr_blocks:-[-\"10.0.0.0/8\"]"), "{got}");
    assert!(got.contains("+{cidr_blocks:+[+\"0.0.0.0/0\"]"), "{got}");
    assert!(!got.contains("443->80") && !got.contains("22->443") && !got.contains("22->80"), "{got}");
    // Exactly equal elements match wherever they are.
    let after = json!([rule(80, "0.0.0.0/0", "http"), rule(443, "0.0.0.0/0", "HTTPS")]);
    let got = dc(before, after);
    assert!(got.ends_with("#1]"), "443 is unchanged: {got}");
}

#[test]
fn equal_elements_out_of_order_are_moved_not_removed_and_added() {
    // Objects without a schema (a set, nested blocks): aligned by content.
    let (a, b, c) = (json!({"k": "a"}), json!({"k": "b"}), json!({"k": "c"}));
    assert_eq!(dc(json!([a, b]), json!([b, a, c])), "~[@0={#1} +{k:+\"c\"} #1]");
    assert_eq!(dc(json!({"l": [a, b]}), json!({"l": [b, a]})), "~{l:~[@0={#1} #1]}");
    // Anything else is a list, paired as the CLI pairs it.
    assert_eq!(d(json!(["a", "b"]), json!(["b", "a", "c"])), "~[-\"a\" =\"b\" +\"a\" +\"c\"]");
}

#[test]
fn elements_with_few_shared_attributes_are_not_paired() {
    let two = |x: Value| json!([{"k": "keep"}, x]);
    assert_eq!(
        dc(json!([{"a": 1, "b": 2, "c": 3}, {"k": 0}]), json!([{"a": 1, "b": 5, "c": 6}, {"k": 1}])),
        "~[-{a:-1 b:-2 c:-3} -{k:-0} +{a:+1 b:+5 c:+6} +{k:+1}]"
    );
    // A lone element left on each side, same place and shape: edited in place.
    assert_eq!(dc(two(json!({"a": 1, "b": 2})), two(json!({"a": 3, "b": 4}))), "~[~{a:~1->3 b:~2->4} #1]");
    assert_eq!(dc(json!([{"a": 1, "b": 2, "c": 3}]), json!([{"a": 1, "b": 2, "c": 6}])), "~[~{c:~3->6 #2}]");
    // Attributes blank on both sides tell nothing apart.
    assert_eq!(
        dc(json!([{"a": 1, "x": [], "y": false}, {"b": 0}]), json!([{"a": 2, "x": [], "y": false}, {"b": 1}])),
        "~[-{a:-1 x:-[] y:-false} -{b:-0} +{a:+2 x:+[] y:+false} +{b:+1}]"
    );
    // Lists of lists are lists: paired by position, as the CLI pairs them.
    assert_eq!(dc(json!([[1, 2, 3]]), json!([[1, 2, 4]])), "~[~[=1 =2 ~3->4]]");
    assert_eq!(dc(json!([[1, 2, 3], [0]]), json!([[7, 8, 9], [5]])), "~[~[~1->7 ~2->8 ~3->9] ~[~0->5]]");
}

#[test]
fn sensitivity_only_changes_are_updates_with_a_note() {
    let as_ = json!({"pw": true});
    let m = Marks { after_sensitive: Some(&as_), ..Default::default() };
    assert_eq!(dm(json!({"pw": "same", "x": 1}), json!({"pw": "same", "x": 1}), m), "~{pw:~S+S->S #1}");
    let bs = json!({"pw": true});
    let m = Marks { before_sensitive: Some(&bs), ..Default::default() };
    assert_eq!(dm(json!({"pw": "same"}), json!({"pw": "same"}), m), "~{pw:~S-S->S}");
    // Nested: the note is on the attribute that changes, once.
    let as_ = json!({"o": {"pw": true}});
    let m = Marks { after_sensitive: Some(&as_), ..Default::default() };
    assert_eq!(dm(json!({"o": {"pw": "s", "u": "a"}}), json!({"o": {"pw": "s", "u": "a"}}), m), "~{o:~{pw:~S+S->S #1}}");
    // A create or a destroy says nothing about it.
    let vis = Visibility::default();
    let opts = DiffOptions { vis: &vis, full: false, replace_paths: &[], block_root: true, objects_by_content: false, legacy: false };
    let as_ = json!({"pw": true});
    let m = Marks { after_sensitive: Some(&as_), ..Default::default() };
    assert_eq!(pic(&diff(None, Some(&json!({"pw": "s"})), m, &opts)), "+{pw:+S}");
    // With --show-sensitive the value shows, the note stays, and it is not repeated below.
    let vis = Visibility { show_sensitive: true, masker: None };
    let opts = DiffOptions { vis: &vis, full: true, replace_paths: &[], block_root: true, objects_by_content: false, legacy: false };
    let as_ = json!({"o": true});
    let m = Marks { after_sensitive: Some(&as_), ..Default::default() };
    assert_eq!(pic(&diff(Some(&json!({"o": {"k": 1}})), Some(&json!({"o": {"k": 1}})), m, &opts)), "~{o:~S+{k:=1}}");
}

#[test]
fn type_changes_show_both_values_whole() {
    assert_eq!(d(json!({"a": "1"}), json!({"a": 1})), "~{a:~\"1\"->1}");
    assert_eq!(d(json!({"a": [1]}), json!({"a": {"x": 1}})), "~{a:~[1]->{\"x\":1}}");
    // A scalar and a collection: the collection expanded, as the CLI shows it.
    assert_eq!(d(json!({"a": "s"}), json!({"a": ["s"]})), "~{a:~\"s\"->[+\"s\"]}");
    assert_eq!(d(json!({"a": ["s"]}), json!({"a": "s"})), "~{a:~[-\"s\"]->\"s\"}");
}

#[test]
fn deeply_nested_values_are_followed_to_the_change() {
    let before = json!({"a": {"b": {"c": [{"d": {"e": 1, "f": 2}}]}}, "z": 0});
    let after = json!({"a": {"b": {"c": [{"d": {"e": 9, "f": 2}}]}}, "z": 0});
    assert_eq!(d(before, after), "~{a:~{b:~{c:~[~{d:~{e:~1->9 #1}}]}} #1}");
}

#[test]
fn create_and_destroy_expand_every_attribute() {
    let vis = Visibility::default();
    let opts = DiffOptions { vis: &vis, full: false, replace_paths: &[], block_root: true, objects_by_content: false, legacy: false };
    let v = json!({"a": 1, "m": {"k": "v"}, "n": null});
    assert_eq!(pic(&diff(None, Some(&v), Marks::default(), &opts)), "+{a:+1 m:+{k:+\"v\"}}");
    assert_eq!(pic(&diff(Some(&v), Some(&Value::Null), Marks::default(), &opts)), "-{a:-1 m:-{k:-\"v\"}}");
}

#[test]
fn unknown_values_and_collections_replaced_by_unknown() {
    let au = json!({"id": true, "out": true, "tags": {"b": true}, "l": [false, true]});
    let m = Marks { after_unknown: Some(&au), ..Default::default() };
    let got = dm(json!({"id": "x", "out": {"k": 1}, "tags": {"a": "1"}, "l": [1]}), json!({"tags": {"a": "1"}, "l": [1, null]}), m);
    assert_eq!(got, "~{id:~\"x\"->? l:~[=1 +?] out:~{k:-1}->? tags:~{b:+? #1}}");
}

#[test]
fn sensitive_marks_mask_the_whole_marked_subtree_on_both_sides() {
    let bs = json!({"pw": true, "nested": {"inner": true}});
    let as_ = json!({"pw": true, "obj": true, "nested": {"inner": true}});
    let m = Marks { before_sensitive: Some(&bs), after_sensitive: Some(&as_), ..Default::default() };
    let got = dm(
        json!({"pw": "a", "obj": {"x": "old"}, "nested": {"inner": {"deep": "s1"}, "plain": 1}}),
        json!({"pw": "b", "obj": {"x": "new"}, "nested": {"inner": {"deep": "s2"}, "plain": 2}}),
        m,
    );
    assert_eq!(got, "~{nested:~{inner:~S->S plain:~1->2} obj:~S+S->S pw:~S->S}");
    // Marked only after: the before side is masked as well.
    let as_ = json!({"k": true});
    let m = Marks { after_sensitive: Some(&as_), ..Default::default() };
    assert_eq!(dm(json!({"k": "was-visible"}), json!({"k": "now-secret"}), m), "~{k:~S+S->S}");
}

#[test]
fn sensitive_marks_are_ignored_with_show_sensitive() {
    let bs = json!({"pw": true});
    let vis = Visibility { show_sensitive: true, masker: None };
    let opts = DiffOptions { vis: &vis, full: false, replace_paths: &[], block_root: true, objects_by_content: false, legacy: false };
    let m = Marks { before_sensitive: Some(&bs), after_sensitive: Some(&bs), ..Default::default() };
    assert_eq!(pic(&diff(Some(&json!({"pw": "a"})), Some(&json!({"pw": "b"})), m, &opts)), "~{pw:~\"a\"->\"b\"}");
}

#[test]
fn a_partly_marked_value_shown_whole_is_masked() {
    // A type change shows values whole; a mark inside must not leak.
    let as_ = json!({"v": {"secret": true}});
    let m = Marks { after_sensitive: Some(&as_), ..Default::default() };
    assert_eq!(dm(json!({"v": "plain"}), json!({"v": {"secret": "x"}}), m), "~{v:~\"plain\"->S}");
}

#[test]
fn values_holding_a_secret_known_elsewhere_are_masked() {
    let mut masker = Masker::default();
    masker.add("copied-secret-1");
    let vis = Visibility { show_sensitive: false, masker: Some(&masker) };
    let opts = DiffOptions { vis: &vis, full: false, replace_paths: &[], block_root: true, objects_by_content: false, legacy: false };
    let got = pic(&diff(
        Some(&json!({"output": "copied-secret-1", "m": {"a": "copied-secret-1", "b": "ok"}})),
        Some(&json!({"output": "x", "m": {"a": "y", "b": "ok"}})),
        Marks::default(),
        &opts,
    ));
    assert_eq!(got, "~{m:~{a:~S->\"y\" #1} output:~S->\"x\"}");
}

#[test]
fn replace_paths_mark_forcing_attributes() {
    let vis = Visibility::default();
    let rp: Vec<Vec<PathStep>> = serde_json::from_str(r#"[["triggers"], ["disk", 0, "size"]]"#).unwrap();
    let opts = DiffOptions { vis: &vis, full: false, replace_paths: &rp, block_root: true, objects_by_content: false, legacy: false };
    let got = pic(&diff(
        Some(&json!({"triggers": "a", "disk": [{"size": 1}], "x": 1})),
        Some(&json!({"triggers": "b", "disk": [{"size": 2}], "x": 1})),
        Marks::default(),
        &opts,
    ));
    assert_eq!(got, "~{disk:~[~{size:~!1->2}] triggers:~!\"a\"->\"b\" #1}");
}

#[test]
fn full_keeps_unchanged_entries() {
    let vis = Visibility::default();
    let opts = DiffOptions { vis: &vis, full: true, replace_paths: &[], block_root: true, objects_by_content: false, legacy: false };
    let got = pic(&diff(Some(&json!({"a": 1, "b": [1, 2]})), Some(&json!({"a": 2, "b": [1, 2]})), Marks::default(), &opts));
    assert_eq!(got, "~{a:~1->2 b:=[=1 =2]}");
}

#[test]
fn multi_line_strings_are_line_diffs() {
    let got = d(json!({"u": "#!/bin/sh\necho a\necho b\nexit 0\n"}), json!({"u": "#!/bin/sh\necho a\necho c\nexit 0\n"}));
    // Every line, as the CLI prints it: a line that differs at its place is removed and added.
    assert_eq!(got, "~{u:~L( #!/bin/sh| echo a|-echo b|+echo c| exit 0)}");
    // Lines inserted: aligned along the common lines.
    let got = d(json!({"u": "a\nb\nc"}), json!({"u": "a\nx\nb\nc"}));
    assert_eq!(got, "~{u:~L( a|+x| b| c)}");
    // A text added whole: its lines carry no symbol (the attribute's says it).
    let vis = Visibility::default();
    let opts = DiffOptions { vis: &vis, full: false, replace_paths: &[], block_root: true, objects_by_content: false, legacy: false };
    assert_eq!(pic(&diff(None, Some(&json!({"u": "a\nb"})), Marks::default(), &opts)), "+{u:+L( a| b)}");
}

#[test]
fn a_final_newline_added_or_removed_is_shown() {
    assert_eq!(d(json!({"u": "a\nb\n"}), json!({"u": "a\nb"})), "~{u:~L( a| b|-NL)}");
    assert_eq!(d(json!({"u": "a\nb"}), json!({"u": "a\nb\n"})), "~{u:~L( a| b|+NL)}");
    assert_eq!(d(json!({"u": "a"}), json!({"u": "a\n"})), "~{u:~L( a|+NL)}");
    assert_eq!(d(json!({"u": "a\nb\n"}), json!({"u": "a\nc"})), "~{u:~L( a|-b|+c|-NL)}");
}

#[test]
fn json_encoded_strings_are_structured_diffs() {
    let before = json!({"policy": r#"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:GetObject"]}]}"#});
    let after = json!({"policy": r#"{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":["s3:GetObject","s3:PutObject"]}]}"#});
    // The unchanged element before the addition is kept for context (`=`).
    assert_eq!(d(before, after), "~{policy:~J(~{Statement:~[~{Action:~[=\"s3:GetObject\" +\"s3:PutObject\"] #1}] #1})}");
    // Not JSON, or a bare JSON scalar: an ordinary string.
    assert_eq!(d(json!({"s": "{nope"}), json!({"s": "{nah"})), "~{s:~\"{nope\"->\"{nah\"}");
    assert_eq!(d(json!({"s": "1"}), json!({"s": "2"})), "~{s:~\"1\"->\"2\"}");
}

#[test]
fn a_sensitive_json_string_is_not_decoded() {
    let m = json!({"policy": true});
    let marks = Marks { before_sensitive: Some(&m), after_sensitive: Some(&m), ..Default::default() };
    assert_eq!(dm(json!({"policy": "{\"a\":1}"}), json!({"policy": "{\"a\":2}"}), marks), "~{policy:~S->S}");
}

#[test]
fn flatten_lists_changed_leaves_with_paths() {
    let vis = Visibility::default();
    let opts = DiffOptions { vis: &vis, full: false, replace_paths: &[], block_root: true, objects_by_content: false, legacy: false };
    let au = json!({"out": true});
    let before = json!({"tags": {"a": "1", "b": "2"}, "l": [1, 2, 3], "out": {"k": 1}});
    let after = json!({"tags": {"a": "1", "b": "3"}, "l": [2, 3]});
    let m = Marks { after_unknown: Some(&au), ..Default::default() };
    let root = diff(Some(&before), Some(&after), m, &opts);
    let flat = flatten(&root, Some(&before), Some(&after), &vis);
    let got: Vec<(String, Op, Option<Shown>, Option<Shown>)> =
        flat.into_iter().map(|c| (path_text(&c.path), c.op, c.before, c.after)).collect();
    assert_eq!(
        got,
        vec![
            ("l[0]".into(), Op::Remove, Some(Shown::Value("1".into())), None),
            ("out".into(), Op::Update, Some(Shown::Value(r#"{"k":1}"#.into())), Some(Shown::Unknown)),
            ("tags.b".into(), Op::Update, Some(Shown::Value("\"2\"".into())), Some(Shown::Value("\"3\"".into()))),
        ]
    );
}

#[test]
fn flatten_masks_a_whole_side_with_a_sensitive_part() {
    let vis = Visibility::default();
    let opts = DiffOptions { vis: &vis, full: false, replace_paths: &[], block_root: true, objects_by_content: false, legacy: false };
    let bs = json!({"o": {"pw": true}});
    let au = json!({"o": true});
    let before = json!({"o": {"pw": "SECRET-MARKER-x", "u": "admin"}});
    let after = json!({});
    let m = Marks { before_sensitive: Some(&bs), after_unknown: Some(&au), ..Default::default() };
    let root = diff(Some(&before), Some(&after), m, &opts);
    let flat = flatten(&root, Some(&before), Some(&after), &vis);
    assert_eq!(flat.len(), 1);
    assert_eq!(flat[0].before, Some(Shown::Sensitive));
    assert_eq!(flat[0].after, Some(Shown::Unknown));
}

#[test]
fn set_elements_pair_only_with_the_same_sensitivity() {
    // The CLI's processSet: "b" becoming sensitive is removed and added, not kept.
    let (b, a) = (json!(["a", "b"]), json!(["a", "b"]));
    let (bs, as_) = (json!([false, false]), json!([false, true]));
    let m = Marks { before_sensitive: Some(&bs), after_sensitive: Some(&as_), after_unknown: None };
    let keys: Vec<(Option<Key>, Option<Key>)> = set_pairs(Some(&b), Some(&a), m).into_iter().map(|(bk, ak, ..)| (bk, ak)).collect();
    assert_eq!(keys, vec![(Some(Key::Index(0)), Some(Key::Index(0))), (Some(Key::Index(1)), None), (None, Some(Key::Index(1)))]);
    // The same sensitivity on both sides: paired.
    let m = Marks { before_sensitive: Some(&as_), after_sensitive: Some(&as_), after_unknown: None };
    assert!(set_pairs(Some(&b), Some(&a), m).iter().all(|(bk, ak, ..)| bk.is_some() && ak.is_some()));
}

#[test]
fn without_a_schema_a_write_only_attribute_is_known_by_its_name() {
    let vis = Visibility::default();
    let opts = DiffOptions { vis: &vis, full: false, replace_paths: &[], block_root: true, objects_by_content: true, legacy: false };
    let entry = |n: &Node, key: &str| match &n.kind {
        Kind::Collection { entries, .. } => {
            entries.iter().find(|e| e.key == Key::Attr(key.into())).map(|e| (e.node.op, e.node.kind.clone()))
        }
        _ => None,
    };
    let hidden = |n: &Node| match &n.kind {
        Kind::Collection { hidden, .. } => *hidden,
        _ => usize::MAX,
    };
    // Created: shown as the CLI shows it with the schema.
    let after = json!({"name": "p", "secret_wo": null, "secret_wo_version": 1});
    let created = diff(None, Some(&after), Marks::default(), &opts);
    assert_eq!(entry(&created, "secret_wo"), Some((Op::Add, Kind::WriteOnly { sensitive: false })));
    // Updated: unchanged, counted among the hidden.
    let before = json!({"name": "p", "secret_wo": null, "secret_wo_version": 1});
    let after = json!({"name": "p", "secret_wo": null, "secret_wo_version": 2});
    let updated = diff(Some(&before), Some(&after), Marks::default(), &opts);
    assert_eq!(entry(&updated, "secret_wo"), None);
    assert_eq!(hidden(&updated), 2, "name and secret_wo");
    // No `_version` beside it, or not at a resource's root: a null like any other.
    let after = json!({"name": "p", "secret_wo": null});
    assert_eq!(entry(&diff(None, Some(&after), Marks::default(), &opts), "secret_wo"), None);
    let nested = json!({"x": {"secret_wo": null, "secret_wo_version": 1}});
    let n = diff(None, Some(&nested), Marks::default(), &opts);
    let Some((_, Kind::Collection { entries, .. })) = entry(&n, "x") else { panic!("{n:?}") };
    assert!(entries.iter().all(|e| !matches!(e.node.kind, Kind::WriteOnly { .. })), "{entries:?}");
}

/// What [`hidden_scalar`] lets a collection count without building is what
/// [`node`] would have built and hidden: an unchanged node that does not
/// force the replacement, over scalars (secrets among them), markers,
/// unknowns, the legacy SDK's `""`, types and replace paths.
#[test]
fn hidden_scalars_are_the_nodes_a_collection_hides() {
    let mut masker = Masker::default();
    masker.add("copied-secret-1");
    let vis = Visibility { show_sensitive: false, masker: Some(&masker) };
    let values = [
        json!("x"),
        json!(""),
        json!("copied-secret-1"),
        json!(1),
        json!(1.0),
        json!(null),
        json!(true),
        json!("{\"a\":1}"),
        json!("a\nb"),
    ];
    let marks = [None, Some(json!(true)), Some(json!(false)), Some(json!({}))];
    let here: Vec<Vec<PathStep>> = serde_json::from_str(r#"[["k"]]"#).unwrap();
    let (mut hidden, mut built) = (0, 0);
    for (legacy, ty, rp) in [(false, None, &[][..]), (true, Some(Ty::String), &[][..]), (false, None, &here[..])] {
        let o = DiffOptions { vis: &vis, full: false, replace_paths: rp, block_root: true, objects_by_content: false, legacy };
        for b in &values {
            for a in &values {
                for bs in &marks {
                    for as_ in &marks {
                        for au in &marks {
                            let m = Marks { before_sensitive: bs.as_ref(), after_sensitive: as_.as_ref(), after_unknown: au.as_ref() };
                            let mut path = vec![PathStep::Key("k".into())];
                            if hidden_scalar(Some(b), Some(a), m, &o, &path, ty.as_ref()) {
                                hidden += 1;
                                let n = node(Some(b), Some(a), m, &o, &mut path, ty.as_ref());
                                assert!(n.op == Op::Same && !n.forces_replacement, "{b} {a} {m:?} legacy {legacy}: {}", pic(&n));
                            } else {
                                built += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(hidden > 100 && built > 100, "{hidden} hidden, {built} built");
    // And a resource's unchanged attributes are counted, a secret's too.
    let o = DiffOptions { vis: &vis, full: false, replace_paths: &[], block_root: true, objects_by_content: false, legacy: false };
    let got = pic(&diff(
        Some(&json!({"a": "copied-secret-1", "b": 1, "c": "x"})),
        Some(&json!({"a": "copied-secret-1", "b": 1, "c": "y"})),
        Marks::default(),
        &o,
    ));
    assert_eq!(got, "~{c:~\"x\"->\"y\" #2}");
}
