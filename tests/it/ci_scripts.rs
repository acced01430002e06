//! The CI scripts (`ci/github/post-comment.sh`, `ci/gitlab/post-note.sh`, the
//! review steps `ci/*/review.sh`, and docs/ci.md's apply-time read-back) against a
//! small HTTP server on 127.0.0.1 that mimics the REST endpoints they call
//! (who am I, list, create, update), with the faults a hostile or flaky API
//! has: another user's comment carrying the marker, 403, an error body full of
//! runner commands and control sequences, endless pages, 429/503 with
//! Retry-After. The server answers at most `MAX_REQUESTS` requests and every
//! script is killed after `SCRIPT_TIMEOUT`.
//!
//! The tests that run a script need bash, curl and jq, so they are
//! `#[ignore]`d: `.ci/run` installs the tools and runs them
//! (`cargo test --locked -- --ignored`); run there, a missing tool fails them,
//! saying so, rather than letting them pass without running.

use crate::common::*;
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The server stops answering after this many requests (a script that loops fails).
const MAX_REQUESTS: usize = 400;
/// A script still running after this is killed and the test fails.
const SCRIPT_TIMEOUT: Duration = Duration::from_secs(90);

/// Which API the server mimics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Api {
    Github,
    Gitlab,
}

/// One comment (GitHub) or note (GitLab): its id, author (GitHub's `user`, GitLab's `author`) and body.
#[derive(Debug, Clone, PartialEq)]
struct Comment {
    id: u64,
    author: Value,
    body: String,
}

/// One request the server saw.
#[derive(Debug, Clone)]
struct Request {
    method: String,
    target: String,
    /// The auth header, as `Name: value`.
    auth: String,
}

/// One answer given before any other (consumed in order): code, Retry-After, body.
type Fault = (u16, Option<&'static str>, String);

/// What the server holds, how it behaves, and what it saw.
#[derive(Debug)]
struct State {
    api: Api,
    comments: Vec<Comment>,
    requests: Vec<Request>,
    /// `GET /user`'s answer; None: 403, as GitHub answers an integration's token (GITHUB_TOKEN).
    me: Option<Value>,
    /// Who writes a new comment (the token's user as the comments show it).
    writer: Value,
    /// Writes are refused with 403.
    read_only: bool,
    /// Answers given, whatever the request, once `faults_after` requests were answered.
    faults: VecDeque<Fault>,
    faults_after: usize,
    /// Every list page is full (100 comments by someone else), however far one reads.
    endless: bool,
    /// Process ids whose command line held `secret` while a request was served.
    leaked: Vec<String>,
    /// The token, looked for in every process's command line on every request.
    secret: String,
}

struct Server {
    url: String,
    state: Arc<Mutex<State>>,
}

impl Server {
    fn start(api: Api, secret: &str) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let url = format!("http://{}", listener.local_addr().unwrap());
        let (me, writer) = match api {
            Api::Github => {
                (Some(json!({"login": "planview-bot", "id": 9, "type": "User"})), json!({"login": "planview-bot", "id": 9, "type": "User"}))
            }
            Api::Gitlab => (Some(json!({"id": 9, "username": "project_42_bot"})), json!({"id": 9, "username": "project_42_bot"})),
        };
        let state = Arc::new(Mutex::new(State {
            api,
            comments: Vec::new(),
            requests: Vec::new(),
            me,
            writer,
            read_only: false,
            faults: VecDeque::new(),
            faults_after: 0,
            endless: false,
            leaked: Vec::new(),
            secret: secret.to_string(),
        }));
        let shared = Arc::clone(&state);
        std::thread::spawn(move || {
            for stream in listener.incoming().take(MAX_REQUESTS).flatten() {
                let _ = handle(stream, &shared);
            }
        });
        Server { url, state }
    }

    fn with(self, f: impl FnOnce(&mut State)) -> Server {
        f(&mut self.state.lock().unwrap());
        self
    }

    fn comments(&self) -> Vec<Comment> {
        self.state.lock().unwrap().comments.clone()
    }

    fn planview_comments(&self) -> Vec<Comment> {
        self.comments().into_iter().filter(|c| c.body.starts_with("<!-- planview:")).collect()
    }

    fn requests(&self) -> Vec<Request> {
        self.state.lock().unwrap().requests.clone()
    }

    /// `METHOD path` of every request (no query).
    fn calls(&self) -> Vec<String> {
        self.requests().iter().map(|r| format!("{} {}", r.method, r.target.split('?').next().unwrap_or_default())).collect()
    }

    fn leaked(&self) -> Vec<String> {
        self.state.lock().unwrap().leaked.clone()
    }
}

/// Process ids (other than this one) whose command line holds `secret`.
fn processes_holding(secret: &str) -> Vec<String> {
    let me = std::process::id().to_string();
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    dir.flatten()
        .filter_map(|e| {
            let pid = e.file_name().to_string_lossy().to_string();
            if !pid.bytes().all(|b| b.is_ascii_digit()) || pid == me {
                return None;
            }
            let cmdline = std::fs::read(e.path().join("cmdline")).ok()?;
            let hit = cmdline.windows(secret.len()).any(|w| w == secret.as_bytes());
            hit.then(|| format!("{pid}: {}", String::from_utf8_lossy(&cmdline).replace('\0', " ")))
        })
        .collect()
}

fn handle(stream: TcpStream, state: &Mutex<State>) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(5)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut stream = stream;
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or_default().to_string(), parts.next().unwrap_or_default().to_string());
    let (mut length, mut auth, mut expect) = (0usize, String::new(), false);
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
            "expect" => expect = true,
            _ => {}
        }
    }
    if expect {
        write!(stream, "HTTP/1.1 100 Continue\r\n\r\n")?;
    }
    let mut body = vec![0; length.min(10_000_000)];
    reader.read_exact(&mut body)?;
    let mut s = state.lock().unwrap();
    // The client is waiting for this answer: it is alive, its command line readable.
    let mut leaked = processes_holding(&s.secret);
    s.leaked.append(&mut leaked);
    s.requests.push(Request { method: method.clone(), target: target.clone(), auth });
    let fault = if s.requests.len() > s.faults_after { s.faults.pop_front() } else { None };
    let (code, retry_after, reply) = match fault {
        Some(f) => f,
        None => {
            let (code, v) = answer(&mut s, &method, &target, &body);
            (code, None, v.to_string())
        }
    };
    drop(s);
    let retry = retry_after.map(|r| format!("Retry-After: {r}\r\n")).unwrap_or_default();
    write!(
        stream,
        "HTTP/1.1 {code} X\r\nContent-Type: application/json\r\n{retry}Content-Length: {}\r\nConnection: close\r\n\r\n{reply}",
        reply.len()
    )?;
    stream.flush()
}

/// The API's answer to one request.
fn answer(s: &mut State, method: &str, target: &str, body: &[u8]) -> (u16, Value) {
    let path = target.split('?').next().unwrap_or_default();
    let (list, one, update, author_key) = match s.api {
        Api::Github => ("/repos/acme/infra/issues/12/comments", "/repos/acme/infra/issues/comments/", "PATCH", "user"),
        Api::Gitlab => ("/projects/42/merge_requests/12/notes", "/projects/42/merge_requests/12/notes/", "PUT", "author"),
    };
    let text = |b: &[u8]| serde_json::from_slice::<Value>(b).ok().and_then(|v| v["body"].as_str().map(str::to_string));
    let as_json = |c: &Comment| json!({"id": c.id, author_key: c.author, "body": c.body, "system": false});
    if method == "GET" && path == "/user" {
        return match &s.me {
            Some(me) => (200, me.clone()),
            None => (403, json!({"message": "Resource not accessible by integration"})),
        };
    }
    if method == "GET" && path == list {
        let query = target.split_once('?').map_or("", |(_, q)| q);
        let page: usize = query.split('&').find_map(|kv| kv.strip_prefix("page=")).and_then(|p| p.parse().ok()).unwrap_or(1);
        if s.endless {
            let other = json!({"login": "someone", "id": 3, "type": "User", "username": "someone"});
            let full: Vec<Value> = (0..100).map(|i| json!({"id": page * 1000 + i, author_key: other, "body": "hi"})).collect();
            return (200, Value::Array(full));
        }
        // Pages of 100, as the real APIs give them.
        return (200, Value::Array(s.comments.iter().skip((page.max(1) - 1) * 100).take(100).map(as_json).collect()));
    }
    if s.read_only && method != "GET" {
        return (403, json!({"message": "Resource not accessible by integration"}));
    }
    if method == "POST" && path == list {
        return match text(body) {
            Some(b) => {
                let c = Comment { id: 1000 + s.comments.len() as u64, author: s.writer.clone(), body: b };
                s.comments.push(c.clone());
                (201, as_json(&c))
            }
            None => (400, json!({"message": "no body"})),
        };
    }
    if method == update && path.starts_with(one) {
        let id: u64 = path[one.len()..].parse().unwrap_or(0);
        return match (s.comments.iter_mut().find(|c| c.id == id), text(body)) {
            // The real APIs let an admin edit anyone's comment: this one lets anyone, to see who tries.
            (Some(c), Some(b)) => {
                c.body = b;
                (200, json!({"id": id, "body": c.body}))
            }
            _ => (404, json!({"message": "Not Found"})),
        };
    }
    (404, json!({"message": "Not Found"}))
}

/// Fails the test (never passes it silently) when bash, curl or jq is missing.
fn require_tools() {
    let missing: Vec<&str> = ["bash", "curl", "jq"]
        .into_iter()
        .filter(|t| Command::new(t).arg("--version").output().map_or(true, |o| !o.status.success()))
        .collect();
    assert!(missing.is_empty(), "the CI script tests need {} (install them; .ci/run does)", missing.join(", "));
}

/// A token no other process holds.
fn fresh_token(tag: &str) -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
    format!("{tag}-{}-{nanos}", std::process::id())
}

/// A fresh directory under the system's temporary directory.
fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(fresh_token(&format!("planview-ci-{tag}")));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What a script did: exit code, stdout then stderr, and how long it took.
struct Run {
    code: Option<i32>,
    log: String,
    took: Duration,
}

/// Run `bash SCRIPT ARGS...` in `dir` with only `env` of the CI variables set; killed after SCRIPT_TIMEOUT.
fn run_bash(script: &Path, args: &[&str], dir: &Path, env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new("bash");
    cmd.arg(script).args(args).current_dir(dir).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    for (k, _) in std::env::vars() {
        let ci = ["GITHUB_", "CI_", "PLANVIEW_", "RUNNER_"].iter().any(|p| k.starts_with(p));
        if ci || k == "CI" || k == "GH_TOKEN" {
            cmd.env_remove(&k);
        }
    }
    // planview itself, as the CI job has it on PATH.
    let bin = Path::new(env!("CARGO_BIN_EXE_planview")).parent().unwrap().to_path_buf();
    let path =
        std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()))).unwrap();
    cmd.env("PATH", path);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let start = Instant::now();
    let mut child = cmd.spawn().expect("run bash");
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let t_out = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = out.read_to_end(&mut s);
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = err.read_to_end(&mut s);
        s
    });
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if start.elapsed() > SCRIPT_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{} did not end within {SCRIPT_TIMEOUT:?}", script.display());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = start.elapsed();
    let log = format!("{}{}", String::from_utf8_lossy(&t_out.join().unwrap()), String::from_utf8_lossy(&t_err.join().unwrap()));
    Run { code: status.code(), log, took }
}

/// Run a poster on `body` with `env`.
fn post(script: &str, body: &str, env: &[(&str, &str)]) -> Run {
    let dir = scratch("post");
    let file = dir.join("comment.md");
    std::fs::write(&file, body).unwrap();
    let run = run_bash(&root().join(script), &[file.to_str().unwrap()], &root(), env);
    std::fs::remove_dir_all(&dir).ok();
    run
}

/// The body planview prints for `plan` with `--id ID`.
fn body_of(plan: &str, id: &str) -> String {
    let out = planview(&["comment", "--id", id, plan]);
    String::from_utf8(out.stdout).unwrap()
}

fn github_env<'a>(server: &'a Server, token: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![
        ("GITHUB_API_URL", server.url.as_str()),
        ("GITHUB_REPOSITORY", "acme/infra"),
        ("PLANVIEW_PR_NUMBER", "12"),
        ("GITHUB_TOKEN", token),
    ]
}

fn gitlab_env<'a>(server: &'a Server, token: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![("CI_API_V4_URL", server.url.as_str()), ("CI_PROJECT_ID", "42"), ("CI_MERGE_REQUEST_IID", "12"), ("PLANVIEW_GITLAB_TOKEN", token)]
}

fn with<'a>(env: &[(&'a str, &'a str)], more: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    [env, more].concat()
}

/// No line of `log` is a runner command other than planview's own `::error::planview:`
/// annotations; no control character but newline; no `##vso[` / `##[`.
fn assert_inert(log: &str) {
    for l in log.lines() {
        assert!(!l.trim_start().starts_with("::") || l.starts_with("::error::planview: "), "a runner command in the log: {l:?}\n{log}");
    }
    assert!(!log.contains("##vso[") && !log.contains("##["), "{log}");
    assert!(
        log.chars().all(|c| c == '\n' || !(c.is_control() || ('\u{202a}'..='\u{202e}').contains(&c))),
        "a control character in the log: {log:?}"
    );
}

/// Mallory's comment: it carries the marker planview's would, and a fingerprint of her choosing.
fn mallory(api: Api, id: u64, body: &str) -> Comment {
    let author = match api {
        Api::Github => json!({"login": "mallory", "id": 66, "type": "User"}),
        Api::Gitlab => json!({"id": 66, "username": "mallory"}),
    };
    Comment { id, author, body: body.to_string() }
}

#[test]
fn the_token_scan_sees_a_token_in_argv() {
    // The check the posters' tests rely on can fail: a process holding the token in its argv is seen.
    if !Path::new("/proc/self/cmdline").exists() {
        panic!("no /proc: the argv check cannot run here");
    }
    let token = fresh_token("canary");
    let mut child = Command::new("sh").args(["-c", "sleep 5", &token]).spawn().unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let seen = processes_holding(&token);
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(seen.len(), 1, "{seen:?}");
}

#[test]
#[ignore = "needs bash, curl and jq: run by .ci/run (`cargo test --locked -- --ignored`)"]
fn github_edits_only_its_own_comment_and_never_shows_the_token() {
    require_tools();
    let token = fresh_token("ghp");
    let first = body_of("testdata/real/replace/plan.json", "prod");
    // Mallory posted first, with the very marker and a body of her own: never a candidate.
    let planted = first.replacen("FAILED", "PASSED", 1);
    let server = Server::start(Api::Github, &token).with(|s| s.comments.push(mallory(Api::Github, 7, &planted)));
    let env = github_env(&server, &token);
    let script = "ci/github/post-comment.sh";
    let run = post(script, &first, &env);
    assert_eq!(run.code, Some(0), "{}", run.log);
    assert!(run.log.contains("created comment 1001"), "{}", run.log);
    let second = body_of("testdata/real/basic/plan.json", "prod");
    let run = post(script, &second, &env);
    assert_eq!(run.code, Some(0), "{}", run.log);
    assert!(run.log.contains("updated comment 1001"), "{}", run.log);
    let all = server.comments();
    assert_eq!(all.len(), 2, "{all:?}");
    assert_eq!(all[0], mallory(Api::Github, 7, &planted), "another user's comment is left alone");
    assert_eq!((all[1].id, all[1].body.as_str()), (1001, second.as_str()), "its own comment, edited");
    assert_eq!(
        server.calls(),
        [
            "GET /user",
            "GET /repos/acme/infra/issues/12/comments",
            "POST /repos/acme/infra/issues/12/comments",
            "GET /user",
            "GET /repos/acme/infra/issues/12/comments",
            "PATCH /repos/acme/infra/issues/comments/1001",
        ]
    );
    assert!(server.requests().iter().all(|r| r.auth == format!("Authorization: Bearer {token}")), "{:?}", server.requests());
    assert_eq!(server.leaked(), Vec::<String>::new(), "the token was in a process's argv");
    assert!(!run.log.contains(&token));
    // `new` always creates; `off` and an empty body post nothing.
    let run = post(script, &second, &with(&env, &[("PLANVIEW_COMMENT_MODE", "new")]));
    assert_eq!(run.code, Some(0), "{}", run.log);
    assert_eq!(server.planview_comments().len(), 3);
    let before = server.requests().len();
    assert_eq!(post(script, &second, &with(&env, &[("PLANVIEW_COMMENT_MODE", "off")])).code, Some(0));
    assert_eq!(post(script, "", &env).code, Some(0));
    assert_eq!(server.requests().len(), before, "nothing posted");
    assert_eq!(server.leaked(), Vec::<String>::new());
}

#[test]
#[ignore = "needs bash, curl and jq: run by .ci/run (`cargo test --locked -- --ignored`)"]
fn github_job_token_edits_only_github_actions_bot_comments() {
    require_tools();
    let token = fresh_token("ghs");
    let body = body_of("testdata/real/basic/plan.json", "prod");
    let old = body_of("testdata/real/replace/plan.json", "prod");
    let bot = json!({"login": "github-actions[bot]", "id": 41898282, "type": "Bot"});
    // GET /user is refused to the job's token: its comments are github-actions[bot]'s.
    let server = Server::start(Api::Github, &token).with(|s| {
        s.me = None;
        s.writer = bot.clone();
        s.comments.push(mallory(Api::Github, 5, &old));
        // A user cannot be a Bot: a `[bot]` login on a User is not the bot.
        s.comments.push(Comment { id: 6, author: json!({"login": "github-actions[bot]", "id": 1, "type": "User"}), body: old.clone() });
        s.comments.push(Comment { id: 8, author: bot.clone(), body: old.clone() });
    });
    let env = github_env(&server, &token);
    let run = post("ci/github/post-comment.sh", &body, &env);
    assert_eq!(run.code, Some(0), "{}", run.log);
    let all = server.comments();
    assert_eq!(all.iter().map(|c| (c.id, c.body == body)).collect::<Vec<_>>(), [(5, false), (6, false), (8, true)], "{}", run.log);
    // Another GitHub App's token: its login is given.
    let app = json!({"login": "acme-planview[bot]", "id": 77, "type": "Bot"});
    let server = Server::start(Api::Github, &token).with(|s| {
        s.me = None;
        s.writer = app.clone();
        s.comments.push(Comment { id: 8, author: bot.clone(), body: old.clone() });
        s.comments.push(Comment { id: 9, author: app.clone(), body: old.clone() });
    });
    let env = github_env(&server, &token);
    let run = post("ci/github/post-comment.sh", &body, &with(&env, &[("PLANVIEW_COMMENT_AUTHOR", "acme-planview[bot]")]));
    assert_eq!(run.code, Some(0), "{}", run.log);
    assert_eq!(server.comments().iter().map(|c| (c.id, c.body == body)).collect::<Vec<_>>(), [(8, false), (9, true)], "{}", run.log);
    assert!(!server.calls().contains(&"GET /user".to_string()), "the login was given: {:?}", server.calls());
}

#[test]
#[ignore = "needs bash, curl and jq: run by .ci/run (`cargo test --locked -- --ignored`)"]
fn a_refusal_fails_the_job() {
    require_tools();
    let token = fresh_token("ro");
    let body = body_of("testdata/real/basic/plan.json", "prod");
    // A fork's read-only token: listing works, writing is refused.
    let server = Server::start(Api::Github, &token).with(|s| s.read_only = true);
    let run = post("ci/github/post-comment.sh", &body, &github_env(&server, &token));
    assert_eq!(run.code, Some(1), "a 403 is a failure: {}", run.log);
    assert!(run.log.contains("::error::planview: creating the comment failed: HTTP 403"), "{}", run.log);
    assert!(server.comments().is_empty());
    // 401 on who-am-I.
    let server = Server::start(Api::Github, &token).with(|s| s.faults.push_back((401, None, r#"{"message":"Bad credentials"}"#.into())));
    let run = post("ci/github/post-comment.sh", &body, &github_env(&server, &token));
    assert_eq!(run.code, Some(1), "{}", run.log);
    assert!(run.log.contains("HTTP 401") && run.log.contains("Bad credentials"), "{}", run.log);
    assert_eq!(server.calls(), ["GET /user"]);
    // GitLab: a 403 on the note, and a job token that may not ask who it is.
    let server = Server::start(Api::Gitlab, &token).with(|s| s.read_only = true);
    let run = post("ci/gitlab/post-note.sh", &body, &gitlab_env(&server, &token));
    assert_eq!(run.code, Some(1), "{}", run.log);
    assert!(run.log.contains("planview: error: creating the note failed: HTTP 403"), "{}", run.log);
    let server = Server::start(Api::Gitlab, &token).with(|s| s.me = None);
    let env =
        [("CI_API_V4_URL", server.url.as_str()), ("CI_PROJECT_ID", "42"), ("CI_MERGE_REQUEST_IID", "12"), ("CI_JOB_TOKEN", token.as_str())];
    let run = post("ci/gitlab/post-note.sh", &body, &env);
    assert_eq!(run.code, Some(1), "{}", run.log);
    assert!(run.log.contains("PLANVIEW_GITLAB_TOKEN"), "{}", run.log);
    assert_eq!(server.calls(), ["GET /user"], "nothing written when it cannot tell its own notes");
    assert!(server.requests().iter().all(|r| r.auth == format!("JOB-TOKEN: {token}")));
    assert_eq!(server.leaked(), Vec::<String>::new());
}

#[test]
#[ignore = "needs bash, curl and jq: run by .ci/run (`cargo test --locked -- --ignored`)"]
fn an_error_body_is_never_echoed_raw() {
    require_tools();
    let token = fresh_token("err");
    let body = body_of("testdata/real/basic/plan.json", "prod");
    let hostile = format!(
        "{{\"message\":\"Validation Failed\"}}\n::add-mask::{token}\n::error::pwned\n  ::warning::indented\n\u{1b}]0;title\u{7}\u{1b}[31mred\u{1b}[0m\n\
         ##vso[task.setvariable variable=x]1\n##[error]az\n\u{202e}reversed\u{85}next\r::set-output name=x::y\n{}",
        "x".repeat(1_000_000)
    );
    for (api, script) in [(Api::Github, "ci/github/post-comment.sh"), (Api::Gitlab, "ci/gitlab/post-note.sh")] {
        let h = hostile.clone();
        let server = Server::start(api, &token).with(|s| {
            // Who-am-I is answered; listing the comments is not.
            s.faults_after = 1;
            s.faults.push_back((422, None, h));
        });
        let env = if api == Api::Github { github_env(&server, &token) } else { gitlab_env(&server, &token) };
        let run = post(script, &body, &env);
        assert_eq!(run.code, Some(1), "{}", run.log);
        assert!(run.log.contains("HTTP 422") && run.log.contains("Validation Failed"), "an excerpt is shown: {}", run.log);
        assert_inert(&run.log);
        assert!(run.log.len() < 4_000, "the excerpt is bounded: {} bytes", run.log.len());
        // An input echoed in a message is one inert line too.
        let run = post(script, &body, &with(&env, &[("PLANVIEW_COMMENT_MODE", "x\n::error::pwned\u{1b}[2J")]));
        assert_eq!(run.code, Some(2), "{}", run.log);
        assert_inert(&run.log);
    }
}

#[test]
#[ignore = "needs bash, curl and jq: run by .ci/run (`cargo test --locked -- --ignored`)"]
fn pages_are_bounded() {
    require_tools();
    let token = fresh_token("pages");
    let body = body_of("testdata/real/basic/plan.json", "prod");
    // Every page is full however far one reads: 100 pages, then a clear failure.
    let server = Server::start(Api::Github, &token).with(|s| s.endless = true);
    let run = post("ci/github/post-comment.sh", &body, &github_env(&server, &token));
    assert_eq!(run.code, Some(1), "{}", run.log);
    assert!(run.log.contains("more than 100 pages of 100 comments"), "{}", run.log);
    let lists = server.calls().iter().filter(|c| c.starts_with("GET /repos")).count();
    assert_eq!(lists, 100);
    assert!(server.calls().iter().all(|c| c.starts_with("GET ")), "nothing written: {:?}", server.calls());
    let server = Server::start(Api::Gitlab, &token).with(|s| s.endless = true);
    let run = post("ci/gitlab/post-note.sh", &body, &with(&gitlab_env(&server, &token), &[("PLANVIEW_MAX_PAGES", "3")]));
    assert_eq!(run.code, Some(1), "{}", run.log);
    assert!(run.log.contains("more than 3 pages"), "{}", run.log);
    assert_eq!(server.calls().iter().filter(|c| c.starts_with("GET /projects")).count(), 3);
}

#[test]
#[ignore = "needs bash, curl and jq: run by .ci/run (`cargo test --locked -- --ignored`)"]
fn rate_limits_and_server_errors_are_retried_as_retry_after_says() {
    require_tools();
    let token = fresh_token("retry");
    let body = body_of("testdata/real/basic/plan.json", "prod");
    let busy = || r#"{"message":"busy"}"#.to_string();
    // 429 then 503, each saying Retry-After: 1; then the API answers.
    let server = Server::start(Api::Github, &token).with(|s| s.faults.extend([(429, Some("1"), busy()), (503, Some("1"), busy())]));
    let run = post("ci/github/post-comment.sh", &body, &github_env(&server, &token));
    assert_eq!(run.code, Some(0), "{}", run.log);
    assert!(run.took >= Duration::from_secs(2), "waited as Retry-After said: {:?}", run.took);
    assert_eq!(server.calls()[..3], ["GET /user", "GET /user", "GET /user"]);
    assert_eq!(server.planview_comments().len(), 1);
    assert!(run.log.contains("HTTP 429") && run.log.contains("trying again in 1s"), "{}", run.log);
    // An API that stays down: 4 tries, then a failure.
    let server = Server::start(Api::Github, &token).with(|s| s.faults.extend((0..10).map(|_| (502, Some("1"), busy()))));
    let run = post("ci/github/post-comment.sh", &body, &github_env(&server, &token));
    assert_eq!(run.code, Some(1), "{}", run.log);
    assert_eq!(server.calls().len(), 4, "{:?}", server.calls());
    assert!(run.log.contains("HTTP 502 (still failing after retries)"), "{}", run.log);
    // A Retry-After beyond the bound on waiting: no sleeping an hour, a failure now.
    let server = Server::start(Api::Gitlab, &token).with(|s| s.faults.push_back((429, Some("3600"), busy())));
    let run = post("ci/gitlab/post-note.sh", &body, &gitlab_env(&server, &token));
    assert_eq!(run.code, Some(1), "{}", run.log);
    assert!(run.took < Duration::from_secs(30), "{:?}", run.took);
    assert_eq!(server.calls().len(), 1);
}

#[test]
#[ignore = "needs bash, curl and jq: run by .ci/run (`cargo test --locked -- --ignored`)"]
fn gitlab_edits_only_its_own_note() {
    require_tools();
    let token = fresh_token("glpat");
    let first = body_of("testdata/real/replace/plan.json", "prod");
    let server = Server::start(Api::Gitlab, &token).with(|s| s.comments.push(mallory(Api::Gitlab, 7, &first)));
    let env = gitlab_env(&server, &token);
    let script = "ci/gitlab/post-note.sh";
    let run = post(script, &first, &env);
    assert_eq!(run.code, Some(0), "{}", run.log);
    let second = body_of("testdata/real/basic/plan.json", "prod");
    let run = post(script, &second, &env);
    assert_eq!(run.code, Some(0), "{}", run.log);
    let all = server.comments();
    assert_eq!(all[0], mallory(Api::Gitlab, 7, &first), "another user's note is left alone");
    assert_eq!((all.len(), all[1].id, all[1].body.as_str()), (2, 1001, second.as_str()), "its own note, edited: {}", run.log);
    assert_eq!(
        server.calls(),
        [
            "GET /user",
            "GET /projects/42/merge_requests/12/notes",
            "POST /projects/42/merge_requests/12/notes",
            "GET /user",
            "GET /projects/42/merge_requests/12/notes",
            "PUT /projects/42/merge_requests/12/notes/1001",
        ]
    );
    assert!(server.requests().iter().all(|r| r.auth == format!("PRIVATE-TOKEN: {token}")));
    assert_eq!(server.leaked(), Vec::<String>::new(), "the token was in a process's argv");
    // Outside a merge request nothing is posted.
    let outside: Vec<(&str, &str)> = env.iter().copied().filter(|(k, _)| *k != "CI_MERGE_REQUEST_IID").collect();
    assert_eq!(post(script, &first, &outside).code, Some(0));
    assert_eq!(server.requests().len(), 6);
}

#[test]
#[ignore = "needs bash, curl and jq: run by .ci/run (`cargo test --locked -- --ignored`)"]
fn a_file_named_like_a_flag_stays_a_file() {
    require_tools();
    // `plan: "*.json"` matches `--policy=.json` (a policy that allows everything) and the plan.
    let dir = scratch("flags");
    std::fs::copy(root().join("testdata/real/basic/plan.json"), dir.join("plan.json")).unwrap();
    std::fs::write(dir.join("--policy=.json"), r#"{"max": {"delete": 100}}"#).unwrap();
    std::fs::write(dir.join(".json"), r#"{"max": {"delete": 100}}"#).unwrap();
    let outputs = dir.join("outputs");
    let body = dir.join("body.md");
    let env = [("PLANVIEW_PLAN", "*.json"), ("PLANVIEW_ARGS", "--id 'my root'"), ("GITHUB_OUTPUT", outputs.to_str().unwrap())];
    let run = run_bash(&root().join("ci/github/review.sh"), &[body.to_str().unwrap()], &dir, &env);
    assert_eq!(run.code, Some(0), "{}", run.log);
    let out = std::fs::read_to_string(&outputs).unwrap();
    assert!(out.contains("exit-code=2\n") && out.contains("verdict=error\n"), "--policy=.json is an input that is no plan: {out}");
    let text = std::fs::read_to_string(&body).unwrap();
    assert!(text.starts_with("<!-- planview:my_root -->\n"), "a quoted value stays one word: {text}");
    assert!(run.log.contains("--policy=.json: not a plan"), "{}", run.log);
    // The same through the GitLab template's script.
    let env = [("PLANVIEW_PLAN", "*.json"), ("PLANVIEW_ARGS", "--max delete=5")];
    let run = run_bash(&root().join("ci/gitlab/review.sh"), &[], &dir, &env);
    assert_eq!(run.code, Some(2), "{}", run.log);
    assert!(run.log.contains("--policy=.json: not a plan") && run.log.contains("not a merge-request pipeline"), "{}", run.log);
    for f in ["planview.tfreport.json", "planview-comment.md", "planview-review.md"] {
        std::fs::remove_file(dir.join(f)).unwrap();
    }
    // Without the hostile file the plan passes with the given flags (the flags do reach planview).
    std::fs::remove_file(dir.join("--policy=.json")).unwrap();
    std::fs::remove_file(dir.join(".json")).unwrap();
    let run = run_bash(&root().join("ci/gitlab/review.sh"), &[], &dir, &env);
    assert_eq!(run.code, Some(0), "{}", run.log);
    std::fs::remove_dir_all(&dir).ok();
}

/// The apply-time read-back of docs/ci.md (README's CI guide): the ```sh block that calls `read-fingerprint.sh`.
fn readme_recipe() -> String {
    let readme = std::fs::read_to_string(root().join("docs/ci.md")).unwrap();
    let mut blocks = readme.split("```sh\n").skip(1).map(|b| b.split("\n```").next().unwrap_or_default());
    let recipe = blocks.find(|b| b.contains("read-fingerprint.sh")).expect("docs/ci.md shows the read-back recipe");
    format!("{recipe}\n")
}

/// Run README's recipe in a fresh directory where `plan.out` is `applied` (a
/// fake `tofu show -json` prints it) against `server`: its exit code and log.
fn apply_with_recipe(server: &Server, token: &str, applied: &str) -> Run {
    let dir = scratch("apply");
    std::os::unix::fs::symlink(root(), dir.join("planview")).unwrap();
    std::fs::copy(root().join(applied), dir.join("plan.out")).unwrap();
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let tofu = bin.join("tofu");
    std::fs::write(&tofu, "#!/bin/sh\n[ \"$1 $2\" = 'show -json' ] && exec cat \"$3\"\nexit 3\n").unwrap();
    std::fs::set_permissions(&tofu, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let script = dir.join("apply.sh");
    std::fs::write(&script, format!("set -eo pipefail\n{}", readme_recipe())).unwrap();
    let planview_bin = Path::new(env!("CARGO_BIN_EXE_planview")).parent().unwrap().display().to_string();
    let path = format!("{}:{planview_bin}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let env = [
        ("GITHUB_API_URL", server.url.as_str()),
        ("GITHUB_REPOSITORY", "acme/infra"),
        ("PR", "12"),
        ("GITHUB_TOKEN", token),
        ("PATH", path.as_str()),
    ];
    let run = run_bash(&script, &[], &dir, &env);
    std::fs::remove_dir_all(&dir).ok();
    run
}

#[test]
#[ignore = "needs bash, curl and jq: run by .ci/run (`cargo test --locked -- --ignored`)"]
fn readme_read_back_takes_the_fingerprint_from_the_bots_own_comment_only() {
    require_tools();
    let token = fresh_token("apply");
    // Both pass the default gate: only the fingerprint tells them apart.
    let reviewed = "testdata/real/moved/plan.json";
    let other = "testdata/real/checks/plan.json";
    let bot = json!({"login": "github-actions[bot]", "id": 41898282, "type": "Bot"});
    let ours = body_of(reviewed, "prod");
    // Mallory's comment, first on the page: the same marker, the other plan's fingerprint.
    let forged = body_of(other, "prod");
    // A plan's own text far down the bot's body cannot pose as the header.
    let fp_other = String::from_utf8(planview(&["fingerprint", other]).stdout).unwrap();
    let ours_with_text = format!("{ours}\n<!-- planview-fingerprint {} -->\n", fp_other.trim());
    let server = Server::start(Api::Github, &token).with(|s| {
        s.me = None;
        s.comments.push(mallory(Api::Github, 2, &forged));
        s.comments.push(Comment { id: 3, author: bot.clone(), body: ours_with_text.clone() });
        s.comments.push(mallory(Api::Github, 4, &forged));
    });
    // The reviewed plan is applied: the gate passes.
    let run = apply_with_recipe(&server, &token, reviewed);
    assert_eq!(run.code, Some(0), "{}", run.log);
    // Mallory's plan is applied: her comment is not read, the gate fails.
    let run = apply_with_recipe(&server, &token, other);
    assert_eq!(run.code, Some(1), "{}", run.log);
    assert!(run.log.contains("fingerprint") && run.log.contains(fp_other.trim()), "{}", run.log);
    assert_eq!(server.leaked(), Vec::<String>::new(), "the token was in a process's argv");
    // Only Mallory's comment: nothing is read back, the job stops before the gate.
    let server = Server::start(Api::Github, &token).with(|s| {
        s.me = None;
        s.comments.push(mallory(Api::Github, 4, &forged));
    });
    let run = apply_with_recipe(&server, &token, other);
    assert_eq!(run.code, Some(1), "{}", run.log);
    assert!(run.log.contains("no comment by github-actions[bot] starts with <!-- planview:prod -->"), "{}", run.log);
    // A refusal stops it too.
    let server = Server::start(Api::Github, &token).with(|s| s.faults.extend((0..2).map(|_| (403, None, "{}".to_string()))));
    let run = apply_with_recipe(&server, &token, reviewed);
    assert_eq!(run.code, Some(1), "{}", run.log);
}

#[test]
#[ignore = "needs bash, curl and jq: run by .ci/run (`cargo test --locked -- --ignored`)"]
fn read_back_of_several_plans_needs_the_name_and_gitlab_reads_its_own_note() {
    require_tools();
    let token = fresh_token("names");
    let (a, b) = ("testdata/real/basic/plan.json", "testdata/real/replace/plan.json");
    let both = String::from_utf8(planview(&["comment", "--id", "both", a, b]).stdout).unwrap();
    let fp = |p: &str| String::from_utf8(planview(&["fingerprint", p]).stdout).unwrap().trim().to_string();
    let server = Server::start(Api::Gitlab, &token).with(|s| {
        s.comments.push(Comment { id: 3, author: json!({"id": 9}), body: both.clone() });
        s.comments.push(mallory(Api::Gitlab, 4, &both.replace(&fp(b), &fp(a))));
    });
    let script = root().join("ci/gitlab/read-fingerprint.sh");
    let env = [
        ("CI_API_V4_URL", server.url.as_str()),
        ("CI_PROJECT_ID", "42"),
        ("PLANVIEW_MR_IID", "12"),
        ("PLANVIEW_GITLAB_TOKEN", token.as_str()),
    ];
    let run = run_bash(&script, &["both", b], &root(), &env);
    assert_eq!((run.code, run.log.trim()), (Some(0), fp(b).as_str()));
    let run = run_bash(&script, &["both", a], &root(), &env);
    assert_eq!((run.code, run.log.trim()), (Some(0), fp(a).as_str()));
    let run = run_bash(&script, &["both"], &root(), &env);
    assert_eq!(run.code, Some(1), "{}", run.log);
    assert!(run.log.contains("holds 2 fingerprints"), "{}", run.log);
    let run = run_bash(&script, &["both", "nope.json"], &root(), &env);
    assert_eq!(run.code, Some(1), "{}", run.log);
}

#[test]
#[ignore = "needs bash, curl and jq: run by .ci/run (`cargo test --locked -- --ignored`)"]
fn a_matrix_keeps_one_comment_per_root() {
    require_tools();
    // One checkout, two roots; each job runs in its root on its own `plan.json`.
    let token = fresh_token("matrix");
    let ws = scratch("matrix");
    for (root_dir, plan) in [("prod", "testdata/real/replace/plan.json"), ("staging", "testdata/real/basic/plan.json")] {
        std::fs::create_dir_all(ws.join(root_dir)).unwrap();
        std::fs::copy(root().join(plan), ws.join(root_dir).join("plan.json")).unwrap();
    }
    let server = Server::start(Api::Github, &token);
    let mut verdicts = Vec::new();
    for (job, args) in [("prod", ""), ("staging", "--max delete=1"), ("prod", "")] {
        let dir = ws.join(job);
        let body = dir.join("comment.md");
        let outputs = dir.join("outputs");
        let env = [
            ("PLANVIEW_PLAN", "plan.json"),
            ("PLANVIEW_ARGS", args),
            ("GITHUB_OUTPUT", outputs.to_str().unwrap()),
            ("GITHUB_WORKSPACE", ws.to_str().unwrap()),
        ];
        let run = run_bash(&root().join("ci/github/review.sh"), &[body.to_str().unwrap()], &dir, &env);
        assert_eq!(run.code, Some(0), "{}", run.log);
        verdicts.push(std::fs::read_to_string(&outputs).unwrap().lines().find(|l| l.starts_with("exit-code=")).unwrap().to_string());
        std::fs::remove_file(&outputs).unwrap();
        let run = run_bash(&root().join("ci/github/post-comment.sh"), &[body.to_str().unwrap()], &dir, &github_env(&server, &token));
        assert_eq!(run.code, Some(0), "{}", run.log);
    }
    assert_eq!(verdicts, ["exit-code=1", "exit-code=0", "exit-code=1"]);
    let all = server.planview_comments();
    let firsts: Vec<&str> = all.iter().map(|c| c.body.lines().next().unwrap()).collect();
    assert_eq!(firsts, ["<!-- planview:prod/plan.json -->", "<!-- planview:staging/plan.json -->"], "one comment per root");
    assert!(all[0].body.contains("FAILED") && all[1].body.contains("passed"), "staging's PASS did not replace prod's FAIL");
    std::fs::remove_dir_all(&ws).ok();
}

/// README's apply-time recipe, as written, passes a reviewed plan that destroys
/// something (issue 26): given a fingerprint, the gate's default rule is off.
#[test]
#[ignore = "needs bash, curl and jq: run by .ci/run (`cargo test --locked -- --ignored`)"]
fn readme_read_back_passes_a_reviewed_plan_that_deletes() {
    require_tools();
    let token = fresh_token("deletes");
    let reviewed = "testdata/first/live/net/plan.json";
    assert_eq!(planview(&["gate", reviewed]).status.code(), Some(1), "the plain gate stops it: it deletes");
    let bot = json!({"login": "github-actions[bot]", "id": 41898282, "type": "Bot"});
    let ours = body_of(reviewed, "prod");
    let server = Server::start(Api::Github, &token).with(|s| {
        s.me = None;
        s.comments.push(Comment { id: 3, author: bot.clone(), body: ours.clone() });
    });
    let run = apply_with_recipe(&server, &token, reviewed);
    assert_eq!(run.code, Some(0), "{}", run.log);
    // Another plan (app creates only) fails, by its fingerprint.
    let run = apply_with_recipe(&server, &token, "testdata/first/live/app/plan.json");
    assert_eq!(run.code, Some(1), "{}", run.log);
}

#[test]
#[ignore = "needs bash, curl and jq: run by .ci/run (`cargo test --locked -- --ignored`)"]
fn the_review_steps_write_sarif_and_code_quality_when_asked() {
    require_tools();
    // A root as a checkout holds it: the plan beside its configuration.
    let dir = scratch("upload");
    for f in ["plan.json", "main.tf"] {
        std::fs::copy(root().join("testdata/locate/roots/prod").join(f), dir.join(f)).unwrap();
    }
    let line = std::fs::read_to_string(dir.join("main.tf")).unwrap().lines().position(|l| l.starts_with("resource ")).unwrap() + 1;
    let outputs = dir.join("outputs");
    let sarif = dir.join("planview.sarif");
    // `--id` is comment's own: left out of the gate's flags; `--deny create` is the policy of both.
    let args = "--id 'my root' --deny create";
    let env = [
        ("PLANVIEW_PLAN", "plan.json"),
        ("PLANVIEW_ARGS", args),
        ("PLANVIEW_SARIF", sarif.to_str().unwrap()),
        ("GITHUB_OUTPUT", outputs.to_str().unwrap()),
    ];
    let run = run_bash(&root().join("ci/github/review.sh"), &[dir.join("body.md").to_str().unwrap()], &dir, &env);
    assert_eq!(run.code, Some(0), "{}", run.log);
    let out = std::fs::read_to_string(&outputs).unwrap();
    assert!(out.contains("exit-code=1\n"), "{out}");
    assert!(out.contains(&format!("sarif-file={}\n", sarif.display())), "{out}\n{}", run.log);
    let v: Value = serde_json::from_slice(&std::fs::read(&sarif).unwrap()).unwrap();
    assert_valid("sarif-2.1.0.schema.json", &v, "review.sh's SARIF");
    let results = v["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{v}");
    let at = &results[0]["locations"][0]["physicalLocation"];
    assert_eq!((at["artifactLocation"]["uri"].as_str(), at["region"]["startLine"].as_u64()), (Some("main.tf"), Some(line as u64)), "{v}");
    // Not asked: no report, no output.
    std::fs::remove_file(&outputs).unwrap();
    std::fs::remove_file(&sarif).unwrap();
    let env = [("PLANVIEW_PLAN", "plan.json"), ("PLANVIEW_ARGS", args), ("GITHUB_OUTPUT", outputs.to_str().unwrap())];
    let run = run_bash(&root().join("ci/github/review.sh"), &[dir.join("body.md").to_str().unwrap()], &dir, &env);
    assert_eq!(run.code, Some(0), "{}", run.log);
    assert!(!std::fs::read_to_string(&outputs).unwrap().contains("sarif-file") && !sarif.exists());

    // GitLab: PLANVIEW_CODEQUALITY=true writes the Code Quality report.
    let report = dir.join("gl-code-quality-report.json");
    let env = [("PLANVIEW_PLAN", "plan.json"), ("PLANVIEW_ARGS", args), ("PLANVIEW_CODEQUALITY", "true")];
    let run = run_bash(&root().join("ci/gitlab/review.sh"), &[], &dir, &env);
    assert_eq!(run.code, Some(1), "{}", run.log);
    let v: Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    let issues = v.as_array().unwrap();
    assert_eq!(issues.len(), 1, "{v}");
    assert_eq!(
        (issues[0]["location"]["path"].as_str(), issues[0]["location"]["lines"]["begin"].as_u64()),
        (Some("main.tf"), Some(line as u64))
    );
    std::fs::remove_file(&report).unwrap();
    let env = [("PLANVIEW_PLAN", "plan.json"), ("PLANVIEW_ARGS", args)];
    let run = run_bash(&root().join("ci/gitlab/review.sh"), &[], &dir, &env);
    assert_eq!(run.code, Some(1), "{}", run.log);
    assert!(!report.exists(), "not asked: no report");
    std::fs::remove_dir_all(&dir).ok();
}

/// action.yml uploads SARIF only when asked, and the GitLab template's
/// `.planview-codequality` uploads the Code Quality report the script writes.
#[test]
fn the_action_and_the_template_upload_reports_when_asked() {
    let action = std::fs::read_to_string(root().join("action.yml")).unwrap();
    let upload =
        action.split("\n    - name: ").find(|s| s.contains("uses: github/codeql-action/upload-sarif@")).expect("an upload-sarif step");
    assert!(upload.contains("if: inputs.upload-sarif == 'true'"), "{upload}");
    assert!(upload.contains("sarif_file: ${{ steps.review.outputs.sarif-file }}"), "{upload}");
    assert!(action.contains("  upload-sarif:\n") && action.contains("default: \"false\""));
    let template = std::fs::read_to_string(root().join("ci/gitlab/planview.gitlab-ci.yml")).unwrap();
    let job = template.split("\n.planview-codequality:\n").nth(1).expect("a .planview-codequality job");
    assert!(job.contains("PLANVIEW_CODEQUALITY: \"true\"") && job.contains("codequality: gl-code-quality-report.json"), "{job}");
    let script = std::fs::read_to_string(root().join("ci/gitlab/review.sh")).unwrap();
    assert!(script.contains(">gl-code-quality-report.json"));
}
