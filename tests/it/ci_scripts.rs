//! The CI posters (`ci/github/post-comment.sh`, `ci/gitlab/post-note.sh`)
//! against a small HTTP server on 127.0.0.1 that mimics the REST endpoints
//! they call (list, create, update; 403 for a read-only token): the first run
//! creates one comment, the second edits that same comment. Skipped (with a
//! message) where bash, curl or jq is missing.

use crate::common::*;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// What the server holds and saw.
#[derive(Debug, Default)]
struct State {
    /// (id, body) of every comment, oldest first.
    comments: Vec<(u64, String)>,
    /// `METHOD path` of every request, and its auth header.
    requests: Vec<(String, String)>,
    /// Writes (and lists) are refused with 403.
    read_only: bool,
}

/// Which API the server mimics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Api {
    Github,
    Gitlab,
}

struct Server {
    url: String,
    state: Arc<Mutex<State>>,
}

impl Server {
    fn start(api: Api, read_only: bool) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let url = format!("http://{}", listener.local_addr().unwrap());
        let state = Arc::new(Mutex::new(State { read_only, ..Default::default() }));
        // Someone else's comment is there first: it must be left alone.
        state.lock().unwrap().comments.push((7, "LGTM <!-- planview:other -->".into()));
        let shared = Arc::clone(&state);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let _ = handle(stream, api, &shared);
            }
        });
        Server { url, state }
    }

    fn planview_comments(&self) -> Vec<(u64, String)> {
        self.state.lock().unwrap().comments.iter().filter(|(_, b)| b.starts_with("<!-- planview:")).cloned().collect()
    }

    fn methods(&self) -> Vec<String> {
        self.state.lock().unwrap().requests.iter().map(|(r, _)| r.split(' ').next().unwrap_or_default().to_string()).collect()
    }
}

fn handle(stream: TcpStream, api: Api, state: &Mutex<State>) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or_default().to_string(), parts.next().unwrap_or_default().to_string());
    let (mut length, mut auth) = (0usize, String::new());
    loop {
        let mut h = String::new();
        reader.read_line(&mut h)?;
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let (k, v) = h.split_once(':').unwrap_or((h, ""));
        match k.to_ascii_lowercase().as_str() {
            "content-length" => length = v.trim().parse().unwrap_or(0),
            "authorization" | "private-token" | "job-token" => auth = format!("{k}:{v}"),
            _ => {}
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    let path = target.split('?').next().unwrap_or_default().to_string();
    let mut s = state.lock().unwrap();
    s.requests.push((format!("{method} {target}"), auth));
    let (list, one) = match api {
        Api::Github => ("/repos/acme/infra/issues/12/comments", "/repos/acme/infra/issues/comments/"),
        Api::Gitlab => ("/projects/42/merge_requests/12/notes", "/projects/42/merge_requests/12/notes/"),
    };
    let update = if api == Api::Github { "PATCH" } else { "PUT" };
    let text = |b: &[u8]| serde_json::from_slice::<Value>(b).ok().and_then(|v| v["body"].as_str().map(str::to_string));
    let (code, reply): (u16, Value) = if s.read_only {
        (403, json!({"message": "Resource not accessible by integration"}))
    } else if method == "GET" && path == list {
        let query = target.split_once('?').map_or("", |(_, q)| q);
        let page: usize = query.split('&').find_map(|kv| kv.strip_prefix("page=")).and_then(|p| p.parse().ok()).unwrap_or(1);
        let all: Vec<Value> = s.comments.iter().map(|(id, b)| json!({"id": id, "user": {"id": 1, "login": "bot"}, "body": b})).collect();
        // Pages of 100, as the real APIs give them.
        (200, Value::Array(all.into_iter().skip((page - 1) * 100).take(100).collect()))
    } else if method == "POST" && path == list {
        match text(&body) {
            Some(b) => {
                let id = 1000 + s.comments.len() as u64;
                s.comments.push((id, b.clone()));
                (201, json!({"id": id, "body": b}))
            }
            None => (400, json!({"message": "no body"})),
        }
    } else if method == update && path.starts_with(one) {
        let id: u64 = path[one.len()..].parse().unwrap_or(0);
        match (s.comments.iter_mut().find(|(i, _)| *i == id), text(&body)) {
            (Some(c), Some(b)) => {
                c.1 = b.clone();
                (200, json!({"id": id, "body": b}))
            }
            _ => (404, json!({"message": "Not Found"})),
        }
    } else {
        (404, json!({"message": "Not Found"}))
    };
    drop(s);
    let reply = reply.to_string();
    let mut stream = stream;
    write!(
        stream,
        "HTTP/1.1 {code} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{reply}",
        reply.len()
    )?;
    stream.flush()
}

/// True when the tools the scripts need are here (else the test says so and passes).
fn tools_present() -> bool {
    let missing: Vec<&str> = ["bash", "curl", "jq"]
        .into_iter()
        .filter(|t| std::process::Command::new(t).arg("--version").output().map_or(true, |o| !o.status.success()))
        .collect();
    if !missing.is_empty() {
        eprintln!("skipped: {} not found", missing.join(", "));
    }
    missing.is_empty()
}

/// Run `script` on `body` with `env`; its exit code and output.
fn post(script: &str, body: &str, env: &[(&str, &str)]) -> (Option<i32>, String) {
    let dir = std::env::temp_dir().join(format!("planview-ci-{}-{}", std::process::id(), body.len()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("comment.md");
    std::fs::write(&file, body).unwrap();
    let mut cmd = std::process::Command::new("bash");
    cmd.arg(root().join(script)).arg(&file).current_dir(root()).env_remove("GITHUB_OUTPUT");
    for v in ["GITHUB_API_URL", "GITHUB_TOKEN", "CI_JOB_TOKEN", "PLANVIEW_GITLAB_TOKEN", "PLANVIEW_COMMENT_MODE"] {
        cmd.env_remove(v);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run bash");
    std::fs::remove_dir_all(&dir).ok();
    (out.status.code(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)))
}

/// The body planview prints for `plan`.
fn body_of(plan: &str) -> String {
    let out = planview(&["comment", "--id", "prod", plan]);
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn github_creates_one_comment_then_edits_it() {
    if !tools_present() {
        return;
    }
    let server = Server::start(Api::Github, false);
    let env = [
        ("GITHUB_API_URL", server.url.as_str()),
        ("GITHUB_REPOSITORY", "acme/infra"),
        ("PLANVIEW_PR_NUMBER", "12"),
        ("GITHUB_TOKEN", "t0ken"),
    ];
    let script = "ci/github/post-comment.sh";
    let first = body_of("testdata/real/replace/plan.json");
    let (code, log) = post(script, &first, &env);
    assert_eq!(code, Some(0), "{log}");
    let created = server.planview_comments();
    assert_eq!(created.len(), 1, "one comment created: {log}");
    assert_eq!(created[0].1, first, "the body as planview printed it");
    assert!(log.contains("created comment"), "{log}");
    let second = body_of("testdata/real/basic/plan.json");
    let (code, log) = post(script, &second, &env);
    assert_eq!(code, Some(0), "{log}");
    let now = server.planview_comments();
    assert_eq!(now.len(), 1, "still one comment: {log}");
    assert_eq!(now[0], (created[0].0, second.clone()), "the same comment, edited");
    assert_eq!(server.methods(), ["GET", "POST", "GET", "PATCH"]);
    let s = server.state.lock().unwrap();
    assert!(s.requests.iter().all(|(_, auth)| auth == "Authorization: Bearer t0ken"), "{:?}", s.requests);
    assert_eq!(s.comments[0].1, "LGTM <!-- planview:other -->", "another comment is left alone");
    drop(s);
    // `new` always creates; `off` and an empty body post nothing.
    let (code, _) = post(script, &second, &[env.as_slice(), &[("PLANVIEW_COMMENT_MODE", "new")]].concat());
    assert_eq!(code, Some(0));
    assert_eq!(server.planview_comments().len(), 2);
    let before = server.methods().len();
    assert_eq!(post(script, &second, &[env.as_slice(), &[("PLANVIEW_COMMENT_MODE", "off")]].concat()).0, Some(0));
    assert_eq!(post(script, "", &env).0, Some(0));
    assert_eq!(server.methods().len(), before, "nothing posted");
}

#[test]
fn github_read_only_token_warns_and_keeps_the_job_summary() {
    if !tools_present() {
        return;
    }
    let server = Server::start(Api::Github, true);
    let env = [
        ("GITHUB_API_URL", server.url.as_str()),
        ("GITHUB_REPOSITORY", "acme/infra"),
        ("PLANVIEW_PR_NUMBER", "12"),
        ("GITHUB_TOKEN", "read-only"),
    ];
    let (code, log) = post("ci/github/post-comment.sh", &body_of("testdata/real/basic/plan.json"), &env);
    assert_eq!(code, Some(0), "a fork's token is not a failure: {log}");
    assert!(log.contains("::warning::") && log.contains("403") && log.contains("job summary"), "{log}");
    assert!(server.planview_comments().is_empty());
}

#[test]
fn gitlab_creates_one_note_then_edits_it() {
    if !tools_present() {
        return;
    }
    let server = Server::start(Api::Gitlab, false);
    let env = [
        ("CI_API_V4_URL", server.url.as_str()),
        ("CI_PROJECT_ID", "42"),
        ("CI_MERGE_REQUEST_IID", "12"),
        ("PLANVIEW_GITLAB_TOKEN", "glpat-x"),
    ];
    let script = "ci/gitlab/post-note.sh";
    let first = body_of("testdata/real/replace/plan.json");
    let (code, log) = post(script, &first, &env);
    assert_eq!(code, Some(0), "{log}");
    let created = server.planview_comments();
    assert_eq!(created.len(), 1, "{log}");
    let second = body_of("testdata/real/basic/plan.json");
    let (code, log) = post(script, &second, &env);
    assert_eq!(code, Some(0), "{log}");
    assert_eq!(server.planview_comments(), [(created[0].0, second)], "the same note, edited: {log}");
    assert_eq!(server.methods(), ["GET", "POST", "GET", "PUT"]);
    assert!(server.state.lock().unwrap().requests.iter().all(|(_, a)| a == "PRIVATE-TOKEN: glpat-x"));
    // Outside a merge request nothing is posted; a 403 is a warning.
    let outside: Vec<(&str, &str)> = env.iter().copied().filter(|(k, _)| *k != "CI_MERGE_REQUEST_IID").collect();
    assert_eq!(post(script, &first, &outside).0, Some(0));
    assert_eq!(server.methods().len(), 4);
    let refused = Server::start(Api::Gitlab, true);
    let env = [("CI_API_V4_URL", refused.url.as_str()), ("CI_PROJECT_ID", "42"), ("CI_MERGE_REQUEST_IID", "12"), ("CI_JOB_TOKEN", "job")];
    let (code, log) = post(script, &first, &env);
    assert_eq!(code, Some(0), "{log}");
    assert!(log.contains("warning") && log.contains("403"), "{log}");
    assert!(refused.state.lock().unwrap().requests.iter().all(|(_, a)| a == "JOB-TOKEN: job"));
}
