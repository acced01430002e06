//! Big inputs for the memory tests (`memory`, `show_stream`): plans whose
//! secret is marked sensitive only at their end, and a child planview fed
//! such a plan through its stdin as it is made (never held by the test),
//! under an address-space limit.

use super::root;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// A plan of `n` changes whose first prints `secret` in plain text (an
/// attribute not marked sensitive) and whose last marks it sensitive.
/// `pad` bytes of filler in every change's values (to make the plan bigger
/// than what a streamed command keeps in memory); with `extras`, every 7th
/// change a replacement, plus one drifted resource, a relevant attribute and
/// an output printing the secret; else only updates, the second change
/// printing the secret without its first byte.
pub fn late_secret_plan(n: usize, secret: &str, pad: usize, extras: bool) -> String {
    let filler = if pad > 0 { format!(r#","pad":"{}""#, "f".repeat(pad)) } else { String::new() };
    let mut rcs = Vec::new();
    for i in 0..n {
        let (copy, marks) = match i {
            0 => (format!(r#","copy":"{secret}""#), "{}".to_string()),
            1 if !extras => (format!(r#","copy":"{}""#, &secret[1..]), "{}".to_string()),
            _ if i == n - 1 => (format!(r#","password":"{secret}""#), r#"{"password":true}"#.to_string()),
            _ => (String::new(), "{}".to_string()),
        };
        let actions = if extras && i % 7 == 3 { r#"["delete","create"]"# } else { r#"["update"]"# };
        rcs.push(format!(
            r#"{{"address":"aws_x.r{i}","mode":"managed","type":"aws_x","name":"r{i}","change":{{"actions":{actions},
            "before":{{"n":{i}{filler}}},"after":{{"n":{}{filler}{copy}}},"before_sensitive":{marks},"after_sensitive":{marks}}}}}"#,
            i + 1
        ));
    }
    let (before, after) = if extras {
        (
            r#""resource_drift":[{"address":"aws_x.r1","mode":"managed","type":"aws_x","name":"r1","change":{"actions":["update"],"before":{"n":0},"after":{"n":9}}}],"#
                .to_string(),
            format!(
                r#""output_changes":{{"o":{{"actions":["create"],"before":null,"after":"{secret}","after_unknown":false}}}},
        "relevant_attributes":[{{"resource":"aws_x.r1","attribute":["n"]}}],"#
            ),
        )
    } else {
        (String::new(), String::new())
    };
    format!(
        r#"{{"format_version":"1.2","terraform_version":"1.9.0",{before}
        "resource_changes":[{}],
        {after}"errored":false}}"#,
        rcs.join(",\n")
    )
}

/// The address space (KB) a streamed run is given by the big-plan tests:
/// `base_kb` on two cores, and 4 MB more for each further thread planview
/// starts (one per core, at most 8), each with its stack and the pieces in
/// flight to it. (Measured: on one thread and on two, `comment` and `gate`
/// need the same address space within 4 MB.)
pub fn limit_kb(base_kb: u64) -> u64 {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).clamp(2, 8) as u64;
    base_kb + (threads - 2) * 4_000
}

/// A scratch directory of the test run, named by `tag`.
pub fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("planview-big-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes a plan piece by piece into a child's stdin, counting the bytes.
pub struct Feed {
    stdin: std::process::ChildStdin,
    /// Bytes written so far.
    pub sent: usize,
}

impl Feed {
    pub fn put(&mut self, s: &str) -> std::io::Result<()> {
        self.sent += s.len();
        self.stdin.write_all(s.as_bytes())
    }
}

/// Run `planview ARGS` (one shell word list) with at most `limit_kb` KB of
/// address space (`ulimit -v`; two malloc arenas, since one per thread would
/// reserve more on its own) and its stdin fed by `write` on another thread
/// as it makes the input: the output, and how many bytes were fed.
#[cfg(unix)]
pub fn piped_under_limit(
    args: &str,
    limit_kb: u64,
    write: impl FnOnce(&mut Feed) -> std::io::Result<()> + Send + 'static,
) -> (Output, usize) {
    let bin = env!("CARGO_BIN_EXE_planview");
    let mut child = Command::new("/bin/sh")
        .arg("-c")
        .arg(format!("ulimit -v {limit_kb} && exec '{bin}' {args}"))
        .env("MALLOC_ARENA_MAX", "2")
        .current_dir(root())
        .env_remove("GITHUB_STEP_SUMMARY")
        .env_remove("GITHUB_OUTPUT")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || -> std::io::Result<usize> {
        let mut feed = Feed { stdin, sent: 0 };
        write(&mut feed)?;
        Ok(feed.sent)
    });
    let o = child.wait_with_output().unwrap();
    let sent = writer
        .join()
        .unwrap()
        .unwrap_or_else(|e| panic!("feeding planview's stdin: {e}; planview ended {:?}: {}", o.status, String::from_utf8_lossy(&o.stderr)));
    (o, sent)
}
