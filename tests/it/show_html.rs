//! `show --format html` (issue 30): a self-contained page that fetches
//! nothing, runs only its own inline script (allowed by its hash in the
//! Content-Security-Policy), and keeps every string of the plan text. The
//! page in a real browser: `html_browser.rs`.

use crate::common::{planview, real_plans, rel};
use serde_json::json;

/// Every `src`/`href`/`action` value inside a tag, and every CSS `url(...)`
/// or `@import`: none may leave the page. (Text is escaped, so a `<` starts a tag.)
fn links(page: &str) -> Vec<String> {
    let mut v = Vec::new();
    let mut scan = |text: &str, attrs: &[&str]| {
        for attr in attrs {
            let mut rest = text;
            while let Some(i) = rest.find(attr) {
                let tail = &rest[i + attr.len()..];
                v.push(tail.chars().take(40).collect::<String>());
                rest = tail;
            }
        }
    };
    for tag in page.split('<').skip(1).filter_map(|t| t.split_once('>').map(|(tag, _)| tag)) {
        scan(tag, &[" src=", " href=", " action=", " srcset=", " style=", " xlink:href="]);
    }
    let css = page.split_once("<style>").and_then(|(_, r)| r.split_once("</style>")).map(|(c, _)| c).unwrap_or_default();
    scan(css, &["url(", "@import"]);
    v
}

fn page(args: &[&str]) -> String {
    let out = planview(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("the page is UTF-8")
}

/// Standard base64 (RFC 4648), as CSP hashes are written.
fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
        for i in 0..4 {
            out.push(if i <= chunk.len() { ABC[(n >> (18 - 6 * i) & 63) as usize] as char } else { '=' });
        }
    }
    out
}

/// The page's own markup: one CSP meta tag, one script (the one its hash
/// allows), no external resource.
fn check_self_contained(p: &str, what: &str) {
    use sha2::Digest;
    assert!(p.starts_with("<!DOCTYPE html>"), "{what}");
    assert_eq!(p.matches("http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';").count(), 1, "{what}");
    assert_eq!(p.to_ascii_lowercase().matches("<script").count(), 1, "{what}: one script");
    let script = p.split_once("<script>").and_then(|(_, r)| r.split_once("</script>")).map(|(s, _)| s).expect("the script");
    let hash = base64(&sha2::Sha256::digest(script.as_bytes()));
    assert!(p.contains(&format!("script-src 'sha256-{hash}';")), "{what}: the policy allows the page's script by its hash");
    assert!(!p.contains("script-src 'unsafe-inline'") && !p.contains("unsafe-eval"), "{what}");
    assert!(!script.contains("innerHTML") && !script.contains("eval("), "{what}: the script never parses text as markup");
    assert!(!p.to_ascii_lowercase().contains("<link"), "{what}: a linked resource");
    for l in links(p) {
        assert!(l.starts_with("\"#"), "{what}: a link that leaves the page: {l}");
    }
}

#[test]
fn every_real_plan_renders_a_self_contained_page() {
    let plans = real_plans();
    assert!(plans.len() > 10);
    for plan in plans {
        let f = rel(&plan);
        for extra in [&[][..], &["--all", "--full"][..]] {
            let mut args = vec!["show", "--format", "html"];
            args.extend(extra);
            args.push(&f);
            let p = page(&args);
            check_self_contained(&p, &f);
            assert!(p.trim_end().ends_with("</html>"), "{f}");
        }
    }
}

#[test]
fn a_hostile_address_and_value_stay_text() {
    let hostile = r#""><img src=x onerror=alert(1)></pre><script>alert(2)</script>"#;
    let address = format!("aws_instance.x[{}]", serde_json::to_string(hostile).unwrap());
    let plan = json!({
        "format_version": "1.2",
        "terraform_version": "1.11.0",
        "resource_changes": [{
            "address": address,
            "module_address": null,
            "mode": "managed",
            "type": "aws_instance",
            "name": "x",
            "index": hostile,
            "provider_name": "registry.terraform.io/hashicorp/aws",
            "change": {
                "actions": ["update"],
                "before": {"id": "i-1", "user_data": "plain", "note": "a"},
                "after": {"id": "i-1", "user_data": hostile, "note": "<b>&amp;</b>"},
                "after_unknown": {},
                "before_sensitive": {},
                "after_sensitive": {}
            }
        }]
    });
    let dir = std::env::temp_dir().join(format!("planview-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("hostile.json");
    std::fs::write(&file, serde_json::to_vec(&plan).unwrap()).unwrap();
    let p = page(&["show", "--format", "html", file.to_str().unwrap()]);
    check_self_contained(&p, "hostile");
    for raw in ["<img", "</pre><", "<b>"] {
        assert!(!p.contains(raw), "{raw} is markup in the page:\n{p}");
    }
    assert_eq!(p.matches("<script").count(), 1, "only the page's own script:\n{p}");
    assert!(p.contains("&lt;img src=x onerror=alert(1)&gt;&lt;/pre&gt;&lt;script&gt;alert(2)&lt;/script&gt;"), "{p}");
    assert!(p.contains("&lt;b&gt;&amp;amp;&lt;/b&gt;"), "the value is escaped once, as text: {p}");
    // The address is in the tree and on its change, as text.
    assert!(p.matches("aws_instance.x[").count() >= 2, "{p}");
}

#[test]
fn the_page_shows_the_plan_line_the_modules_and_masks_secrets() {
    let p = page(&["show", "--format", "html", "testdata/real/modules/plan.json"]);
    let summary = String::from_utf8(planview(&["summary", "testdata/real/modules/plan.json"]).stdout).unwrap();
    let line = summary.lines().find(|l| l.starts_with("Plan: ")).expect("a Plan: line");
    assert!(p.contains(&format!("<p class=\"planline\">{line}</p>")), "{line}\n{p}");
    assert!(p.contains("<details open><summary><code>module.a</code> — "), "{p}");
    let p = page(&["show", "--format", "html", "testdata/real/sensitive/plan.json"]);
    assert!(p.contains("(sensitive value)"), "{p}");
    let shown = page(&["show", "--format", "html", "--show-sensitive", "testdata/real/sensitive/plan.json"]);
    assert_ne!(p, shown, "--show-sensitive shows what the page masks");
}

/// `comment --html FILE`: the review as a page beside the comment, with the
/// gate's verdict; the comment itself and the exit code as without it.
#[test]
fn comment_writes_the_page_with_the_verdict_beside_the_same_comment() {
    let dir = std::env::temp_dir().join(format!("planview-html-comment-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("review.html");
    let plan = "testdata/real/modules/plan.json";
    let plain = planview(&["comment", plan]);
    let with = planview(&["comment", "--html", file.to_str().unwrap(), plan]);
    assert_eq!(with.status.code(), plain.status.code());
    assert_eq!(with.status.code(), Some(1), "the default rule denies the destroys");
    assert_eq!(with.stdout, plain.stdout, "the comment is the same");
    let p = std::fs::read_to_string(&file).expect("the page is written");
    check_self_contained(&p, "comment --html");
    assert!(p.contains("<p class=\"verdict fail\">Verdict: FAIL</p>"), "{p}");
    assert!(p.contains("<li>error [deny delete] module.gone.terraform_data.one: would be destroyed"), "{p}");
    let shown = page(&["show", "--format", "html", plan]);
    assert_eq!(p.matches("class=\"change\"").count(), shown.matches("class=\"change\"").count(), "the same changes as show's page");
    // Secrets are masked in the page too.
    let secret = dir.join("secrets.html");
    planview(&["comment", "--html", secret.to_str().unwrap(), "testdata/hostile/secrets-plan.json"]);
    let p = std::fs::read_to_string(&secret).unwrap();
    assert!(p.contains("class=\"change\"") && !p.contains("PVSECRET"), "a secret marker in the page");
    // A page that cannot be written is an error (exit 2), said once.
    let out = planview(&["comment", "--html", dir.join("no/such/dir/x.html").to_str().unwrap(), plan]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write the HTML page"), "{}", String::from_utf8_lossy(&out.stderr));
}

/// The graph's node limit (docs/html.md: 300): up to it each change is a
/// node; past it each module is one node, said on the page; past 300
/// modules nothing is drawn, said on the page, and the module tree still
/// lists every change.
#[test]
fn the_graph_draws_changes_up_to_300_nodes_then_modules_then_nothing() {
    let dir = std::env::temp_dir().join(format!("planview-html-limit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page_of = |name: &str, n: usize, module: &dyn Fn(usize) -> String| {
        let changes: Vec<_> = (0..n)
            .map(|i| {
                let m = module(i);
                let address = if m.is_empty() { format!("terraform_data.d{i}") } else { format!("{m}.terraform_data.d{i}") };
                json!({"address": address, "mode": "managed", "type": "terraform_data", "name": format!("d{i}"),
                    "change": {"actions": ["create"], "before": null, "after": {"input": i}, "after_unknown": {"id": true}}})
            })
            .collect();
        let file = dir.join(name);
        let plan = json!({"format_version": "1.2", "terraform_version": "1.11.0", "resource_changes": changes});
        std::fs::write(&file, serde_json::to_vec(&plan).unwrap()).unwrap();
        page(&["show", "--format", "html", file.to_str().unwrap()])
    };
    let nodes = |p: &str| p.matches("<a class=\"n ").count();
    let in_three = |i: usize| format!("module.m{}", i % 3);

    let p = page_of("300.json", 300, &in_three);
    assert_eq!(nodes(&p), 300, "300 changes: a node each");
    assert_eq!(p.matches("<rect class=\"cl\"").count(), 3, "one cluster per module");
    assert!(!p.contains("each module is one node"));

    let p = page_of("301.json", 301, &in_three);
    assert!(p.contains("301 changes are more than the graph draws one by one (300): each module is one node."), "{p}");
    assert_eq!(nodes(&p), 3, "one node per module");
    assert!(p.contains("<title>module.m0: 101 create</title>"), "a module's node counts its changes");
    assert_eq!(p.matches("class=\"change\"").count(), 301);

    let own = |i: usize| format!("module.m{i}");
    let p = page_of("300-modules.json", 301, &own);
    assert_eq!(nodes(&p), 0);
    assert!(!p.contains("<svg"), "nothing drawn");
    assert!(p.contains("Too large to draw: more than 300 modules change. The module tree below lists every change."), "{p}");
    assert_eq!(p.matches("class=\"change\"").count(), 301);
    let p = page_of("300-modules-ok.json", 300, &own);
    assert_eq!(nodes(&p), 300, "300 modules of one change each: 300 nodes");
}
