//! The HTML page (`show --format html`) in a real browser: headless Chromium
//! loads it from disk, `--dump-dom` gives the DOM after the page's script ran,
//! and Chromium's network log (`--log-net-log`) every request it made.
//! Checked: every change is on the page, a filter driven by the URL fragment
//! hides the others, no request leaves the page (the check itself is proved
//! on a page that does make requests), no secret is in the file or the DOM,
//! and the hostile strings never run script. A screenshot is taken too.
//!
//! Chromium is a tool these tests need: they are `#[ignore]`d, and `.ci/run`
//! (which installs chromium) runs them with `--ignored`; there a missing
//! browser fails them. `PLANVIEW_CHROMIUM` names another binary.

use crate::common::{planview, root};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn chromium() -> PathBuf {
    if let Some(p) = std::env::var_os("PLANVIEW_CHROMIUM") {
        return PathBuf::from(p);
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser", "google-chrome", "chrome"] {
            let p = dir.join(name);
            if p.is_file() {
                return p;
            }
        }
    }
    panic!("chromium not found on PATH (apt-get install chromium; or set PLANVIEW_CHROMIUM)");
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("planview-browser-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `planview show --format html ARGS... PLAN` written to `dir/page.html`.
fn page_of(dir: &Path, args: &[&str]) -> PathBuf {
    let mut all = vec!["show", "--format", "html"];
    all.extend(args);
    let out = planview(&all);
    assert_eq!(out.status.code(), Some(0), "{all:?}: {}", String::from_utf8_lossy(&out.stderr));
    let file = dir.join("page.html");
    std::fs::write(&file, &out.stdout).unwrap();
    file
}

/// What the browser made of a page.
struct Loaded {
    dom: String,
    /// The URLs the page asked for (not the browser's own background requests).
    requests: Vec<String>,
}

/// Load `file` (with `#fragment`) in headless Chromium: the DOM after the
/// script ran, and the requests the page made. `extra`: more flags (`--screenshot=...`).
fn load(file: &Path, fragment: &str, extra: &[&str]) -> Loaded {
    let dir = file.parent().unwrap().join(format!("profile-{}", extra.len()));
    let _ = std::fs::remove_dir_all(&dir);
    let netlog = file.with_extension("netlog.json");
    let url = format!("file://{}{fragment}", file.canonicalize().unwrap().display());
    let mut cmd = Command::new(chromium());
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1280,1000",
    ])
    .arg(format!("--user-data-dir={}", dir.display()))
    .arg(format!("--log-net-log={}", netlog.display()))
    .args(extra)
    .arg("--dump-dom")
    .arg(&url)
    .stdout(Stdio::piped())
    .stderr(Stdio::null());
    let child = cmd.spawn().expect("chromium starts");
    let out = wait(child, Duration::from_secs(180));
    assert!(out.status.success(), "chromium failed on {url}: {:?}", out.status);
    let dom = String::from_utf8(out.stdout).expect("the DOM is UTF-8");
    assert!(dom.contains("</html>"), "chromium dumped no DOM for {url}");
    Loaded { dom, requests: page_requests(&netlog) }
}

fn wait(mut child: std::process::Child, limit: Duration) -> std::process::Output {
    let start = Instant::now();
    // Read stdout while waiting (a large DOM fills the pipe).
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut v).map(|_| v)
    });
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let stdout = reader.join().unwrap().unwrap();
            return std::process::Output { status, stdout, stderr: Vec::new() };
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("chromium did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The URL requests of a network log that a page started: Chromium's own
/// (its background services) have no initiator ("not an origin").
fn page_requests(netlog: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(netlog).expect("chromium wrote its network log");
    let log: Value = serde_json::from_str(&text).expect("the network log is JSON");
    let start = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"].as_u64().expect("the log names its event types");
    log["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"].as_u64() == Some(start))
        .filter(|e| e["params"]["url"].is_string() && e["params"]["initiator"].as_str() != Some("not an origin"))
        .map(|e| e["params"]["url"].as_str().unwrap_or("?").to_string())
        .collect()
}

/// The `<html ...>` start tag of a dumped DOM.
fn html_tag(dom: &str) -> &str {
    let at = dom.find("<html").expect("an html element");
    &dom[at..at + dom[at..].find('>').unwrap()]
}

/// Text as the DOM serializer writes it in a text node.
fn text_node(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('\u{a0}', "&nbsp;")
}

/// The change elements of a DOM: (start tag, hidden).
fn changes(dom: &str) -> Vec<(String, bool)> {
    dom.match_indices("<details ")
        .map(|(at, _)| &dom[at..at + dom[at..].find('>').unwrap()])
        .filter(|tag| tag.contains("class=\"change\""))
        .map(|tag| (tag.to_string(), tag.contains(" hidden")))
        .collect()
}

fn show_json(plan: &str) -> Value {
    let out = planview(&["show", "--format", "json", plan]);
    assert_eq!(out.status.code(), Some(0));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
#[ignore = "needs chromium: run by .ci/run (which installs it) with --ignored"]
fn every_change_is_on_the_page_once_its_script_ran() {
    for plan in ["testdata/real/modules/plan.json", "testdata/real/count-foreach/plan.json", "testdata/real/replace/plan.json"] {
        let dir = scratch("every");
        let file = page_of(&dir, &[plan]);
        let got = load(&file, "", &[]);
        assert!(html_tag(&got.dom).contains("class=\"js\""), "{plan}: the script did not run");
        let want = show_json(plan);
        let resources = want["resources"].as_array().unwrap();
        assert!(!resources.is_empty(), "{plan}");
        let found = changes(&got.dom);
        assert_eq!(found.len(), resources.len(), "{plan}: changes on the page");
        assert!(found.iter().all(|(_, hidden)| !hidden), "{plan}: no filter, nothing hidden");
        for r in resources {
            let address = r["address"].as_str().unwrap();
            assert!(got.dom.contains(&format!("<code>{}</code>", text_node(address))), "{plan}: {address} is not on the page");
        }
        assert!(html_tag(&got.dom).contains(&format!("data-shown=\"{}\"", resources.len())), "{plan}: {}", html_tag(&got.dom));
        assert!(got.requests.is_empty(), "{plan}: the page asked for {:?}", got.requests);
    }
}

#[test]
#[ignore = "needs chromium: run by .ci/run (which installs it) with --ignored"]
fn a_filter_in_the_url_fragment_hides_the_other_changes() {
    let plan = "testdata/real/modules/plan.json";
    let dir = scratch("filter");
    let file = page_of(&dir, &[plan]);
    let want = show_json(plan);
    let resources = want["resources"].as_array().unwrap();
    let count = |f: &dyn Fn(&Value) -> bool| resources.iter().filter(|r| f(r)).count();
    let cases: Vec<(&str, usize)> = vec![
        ("#action=delete", count(&|r| r["action"] == "delete")),
        ("#action=create,update", count(&|r| r["action"] == "create" || r["action"] == "update")),
        ("#module=module.a", count(&|r| r["address"].as_str().unwrap().starts_with("module.a."))),
        (
            "#action=delete&module=module.gone",
            count(&|r| r["action"] == "delete" && r["address"].as_str().unwrap().starts_with("module.gone.")),
        ),
        ("#q=inner_", count(&|r| r["address"].as_str().unwrap().contains("inner_"))),
        ("#type=nothing_of_the_sort", 0),
    ];
    for (fragment, n) in cases {
        let got = load(&file, fragment, &[]);
        assert!(n < resources.len(), "{fragment}: the case filters nothing");
        assert!(html_tag(&got.dom).contains(&format!("data-shown=\"{n}\"")), "{fragment}: {}", html_tag(&got.dom));
        let found = changes(&got.dom);
        assert_eq!(found.len(), resources.len(), "{fragment}: every change stays in the DOM");
        assert_eq!(found.iter().filter(|(_, hidden)| !hidden).count(), n, "{fragment}");
        if fragment == "#action=delete" {
            for (tag, hidden) in &found {
                assert_eq!(*hidden, !tag.contains("data-action=\"delete\""), "{fragment}: {tag}");
            }
            // The page says how many it shows.
            let said = format!("{n} of {} changes shown", resources.len());
            assert!(got.dom.contains(&said), "{fragment}: {said}");
        }
    }
}

/// The check that no request leaves the page is proved on a page that makes some.
#[test]
#[ignore = "needs chromium: run by .ci/run (which installs it) with --ignored"]
fn the_request_check_sees_a_page_that_makes_requests() {
    let dir = scratch("leak");
    let file = dir.join("leak.html");
    std::fs::write(
        &file,
        "<!DOCTYPE html><html><body><img src=\"http://127.0.0.1:9/x.png\"><script>fetch('http://127.0.0.1:9/y').catch(function(){})</script></body></html>",
    )
    .unwrap();
    let got = load(&file, "", &[]);
    assert!(got.requests.iter().any(|u| u.starts_with("http://127.0.0.1:9/")), "{:?}", got.requests);
}

#[test]
#[ignore = "needs chromium: run by .ci/run (which installs it) with --ignored"]
fn no_secret_is_in_the_page_or_its_dom() {
    let plan = "testdata/hostile/secrets-plan.json";
    let dir = scratch("secrets");
    let file = page_of(&dir, &[plan]);
    let text = std::fs::read_to_string(&file).unwrap();
    let got = load(&file, "", &[]);
    let markers: Vec<String> = std::fs::read_to_string(root().join("testdata/hostile/secrets.txt"))
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    assert!(markers.len() > 20);
    for (what, s) in [("file", &text), ("DOM", &got.dom)] {
        assert!(!s.contains("PVSECRET"), "a secret marker is in the page's {what}");
        for m in &markers {
            assert!(!s.contains(m.as_str()), "{m} is in the page's {what}");
        }
    }
    assert!(text.contains("(sensitive value)"), "the page masks, it does not drop");
    assert!(!changes(&got.dom).is_empty());
    assert!(got.requests.is_empty(), "{:?}", got.requests);
}

/// A plan whose addresses, module keys, values and output names carry the
/// hostile suite's strings and HTML payloads: each payload, were it markup,
/// would mark the page (`data-pwned` on `<html>`, a `<pwned>` element) or
/// fetch something.
fn hostile_plan() -> Value {
    let attacks: std::collections::BTreeMap<String, String> =
        serde_json::from_str(&std::fs::read_to_string(root().join("testdata/hostile/attacks.json")).unwrap()).unwrap();
    let mut payloads: Vec<String> = attacks.into_values().collect();
    payloads.extend(
        [
            "</script><script>document.documentElement.setAttribute('data-pwned','1')</script>",
            "\"><img src=x onerror=\"document.documentElement.setAttribute('data-pwned','2')\">",
            "'><svg onload=document.documentElement.setAttribute('data-pwned','3')><pwned></pwned>",
            "</pre></details><pwned>x</pwned><img src=\"http://127.0.0.1:9/pwned.png\">",
            "</title></style></textarea><script>document.documentElement.setAttribute('data-pwned','4')</script>",
            "</svg><script>document.documentElement.setAttribute('data-pwned','5')</script>",
            "javascript:document.documentElement.setAttribute('data-pwned','6')",
            "#action=\"><pwned>",
        ]
        .map(String::from),
    );
    let mut changes = Vec::new();
    for (i, p) in payloads.iter().enumerate() {
        let key = serde_json::to_string(p).unwrap();
        let module = format!("module.m[{key}]");
        for (address, module_address, index) in
            [(format!("aws_instance.x[{key}]"), Value::Null, json!(p)), (format!("{module}.aws_instance.y[{i}]"), json!(module), json!(i))]
        {
            changes.push(json!({
                "address": address,
                "module_address": module_address,
                "mode": "managed",
                "type": "aws_instance",
                "name": if module_address.is_null() { "x" } else { "y" },
                "index": index,
                "provider_name": "registry.terraform.io/hashicorp/aws",
                "change": {
                    "actions": if i % 2 == 0 { json!(["delete", "create"]) } else { json!(["update"]) },
                    "before": object(&[("id", json!("i-1")), ("user_data", json!("plain")), (p.as_str(), json!("before"))]),
                    "after": object(&[("id", json!("i-1")), ("user_data", json!(p)), (p.as_str(), json!(p))]),
                    "after_unknown": {},
                    "before_sensitive": {},
                    "after_sensitive": {}
                }
            }));
        }
    }
    let outputs: serde_json::Map<String, Value> =
        payloads.iter().map(|p| (p.clone(), json!({"actions": ["create"], "before": null, "after": p, "after_unknown": false}))).collect();
    json!({"format_version": "1.2", "terraform_version": "1.11.0", "resource_changes": changes, "output_changes": outputs})
}

fn object(pairs: &[(&str, Value)]) -> Value {
    Value::Object(pairs.iter().map(|(k, v)| (k.to_string(), v.clone())).collect())
}

#[test]
#[ignore = "needs chromium: run by .ci/run (which installs it) with --ignored"]
fn hostile_strings_never_run_script_or_fetch() {
    let dir = scratch("hostile");
    let plan = dir.join("hostile.json");
    std::fs::write(&plan, serde_json::to_vec(&hostile_plan()).unwrap()).unwrap();
    let file = page_of(&dir, &[plan.to_str().unwrap()]);
    let n = show_json(plan.to_str().unwrap())["resources"].as_array().unwrap().len();
    for fragment in ["", "#q=%3Cscript%3E", "#module=module.m%5B%22%3C%2Fscript%3E"] {
        let got = load(&file, fragment, &[]);
        let tag = html_tag(&got.dom);
        assert!(tag.contains("class=\"js\""), "{fragment}: the page's own script ran");
        assert!(!tag.contains("data-pwned"), "{fragment}: a payload ran: {tag}");
        assert!(!got.dom.contains("<pwned"), "{fragment}: a payload became markup");
        assert!(!got.dom.contains("<img"), "{fragment}: a payload became an image");
        assert_eq!(got.dom.matches("<script>").count(), 1, "{fragment}: only the page's own script");
        assert_eq!(changes(&got.dom).len(), n, "{fragment}: every change is there");
        assert!(got.requests.is_empty(), "{fragment}: the page asked for {:?}", got.requests);
    }
}

#[test]
#[ignore = "needs chromium: run by .ci/run (which installs it) with --ignored"]
fn a_screenshot_of_the_page_is_taken() {
    let dir = scratch("shot");
    let file = page_of(&dir, &["testdata/real/modules/plan.json"]);
    let shot = dir.join("page.png");
    let profile = dir.join("profile-shot");
    let child = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--window-size=1280,1000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", file.canonicalize().unwrap().display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromium starts");
    assert!(wait(child, Duration::from_secs(180)).status.success());
    let png = std::fs::read(&shot).expect("chromium wrote the screenshot");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    // 1280×1000 of text and graph: far more than an empty page's few KB.
    assert!(png.len() > 20_000, "the screenshot is {} bytes: an empty page?", png.len());
}
