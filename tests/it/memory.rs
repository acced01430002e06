//! Issue 31's memory half: `comment`, `fingerprint`, `gate --expect-fingerprint`
//! and `diff` never hold a whole document. `comment` streamed writes the same
//! bytes as `comment` read whole (`run_comment_whole`, the road of a run with
//! Rego policies) on every real plan and on a plan whose secret is marked
//! only after it was printed, from a file and from stdin; a piped plan far
//! bigger than the address space the process is allowed is fingerprinted,
//! gated against another fingerprint (naming its own) and commented on. `summary` of 240,000
//! tiny changes spools its list under an address-space limit its list held
//! whole would exceed.

use crate::common::big::{late_secret_plan, piped_under_limit, scratch, Feed};
use crate::common::*;
use std::path::PathBuf;

/// `comment ARGS` in-process, read whole (the oracle) or as the CLI runs it: body and outcome.
fn comment_in_process(args: &[&str], whole: bool) -> (String, String) {
    use clap::Parser;
    let argv: Vec<String> = ["planview", "comment"].iter().chain(args).map(|s| s.to_string()).collect();
    let cli = planview::cli::Cli::try_parse_from(&argv).unwrap();
    let config = cli.into_config(&planview::cli::Env::default()).unwrap();
    let mut out = Vec::new();
    let status = if whole {
        planview::testkit::run::comment::run_comment_whole(&config, &mut out)
    } else {
        planview::run(&config, &mut out, &mut Vec::new())
    };
    (String::from_utf8_lossy(&out).into_owned(), format!("{status:?}"))
}

#[test]
fn streamed_comment_writes_what_comment_read_whole_wrote() {
    let dir = scratch("oracle");
    let late = dir.join("late.json");
    let secret = "s3cr3t-Marked-Late-41";
    std::fs::write(&late, late_secret_plan(300, secret, 0, true)).unwrap();
    let mut plans: Vec<PathBuf> = real_plans();
    plans.push(late.clone());
    assert!(plans.len() > 5);
    let mut compared = 0;
    for plan in &plans {
        let p = plan.to_str().unwrap();
        for extra in [&[][..], &["--max-bytes", "2000"][..], &["--expect-fingerprint", &format!("sha256:{}", "0".repeat(64))][..]] {
            let args = [&[p][..], extra].concat();
            let whole = comment_in_process(&args, true);
            let streamed = comment_in_process(&args, false);
            assert_eq!(streamed, whole, "{p} {extra:?}");
            assert!(whole.0.contains("planview-fingerprint sha256:"), "{p}: the fingerprint line");
            compared += 1;
        }
    }
    assert_eq!(compared, plans.len() * 3);
    // From stdin, the binary writes the same body as from the file.
    let text = std::fs::read(&late).unwrap();
    let from_file = planview(&["comment", late.to_str().unwrap()]);
    let from_stdin = planview_with_stdin(&["comment", "-"], Some(&text));
    let (a, b) = (String::from_utf8_lossy(&from_file.stdout), String::from_utf8_lossy(&from_stdin.stdout));
    assert!(a.contains("aws_x.r299") && !a.contains(secret), "{a}");
    // Below the marker line (whose ID is made of the input's name).
    let below = |s: &str| s.split_once('\n').map(|(_, rest)| rest.to_string()).unwrap_or_default();
    assert_eq!(below(&a.replace(late.to_str().unwrap(), "<stdin>")), below(&b), "stdin");
    assert_eq!(from_file.status.code(), from_stdin.status.code());
    std::fs::remove_dir_all(&dir).ok();
}

/// `fingerprint` and `diff` from stdin (copied to a temporary file as they
/// are read, then read again) say what they say of the file.
#[test]
fn fingerprint_and_diff_from_stdin_agree_with_the_file() {
    let dir = scratch("stdin");
    let a = dir.join("a.json");
    let b = dir.join("b.json");
    std::fs::write(&a, late_secret_plan(50, "pw-one-1234567", 0, true)).unwrap();
    std::fs::write(&b, late_secret_plan(51, "pw-one-1234567", 0, true)).unwrap();
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let text = std::fs::read(a).unwrap();
    let file = planview(&["fingerprint", a]);
    let piped = planview_with_stdin(&["fingerprint", "-"], Some(&text));
    assert_eq!(file.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&file.stdout).starts_with("sha256:"));
    assert_eq!(file.stdout, piped.stdout);
    for format in ["table", "json"] {
        let file = planview(&["diff", a, b, "--format", format]);
        let piped = planview_with_stdin(&["diff", "-", b, "--format", format], Some(&text));
        assert_eq!(file.status.code(), Some(1), "{format}: the plans differ");
        assert_eq!(piped.status.code(), Some(1), "{format}");
        let out = String::from_utf8_lossy(&file.stdout).into_owned();
        assert!(out.contains("aws_x.r50"), "{format}: {out}");
        assert_eq!(out.replace(a, "<stdin>"), String::from_utf8_lossy(&piped.stdout), "{format}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// At most this much address space (KB) for the piped big plans below, and
/// their size (MB): a plan bigger than the limit cannot be read whole, so a
/// run that ends well streamed it. The smallest plan that still proves it is
/// one just bigger than a limit these commands run in, with room to spare:
/// streamed, they peak at about 24 MB (RSS, test build) and run in 50 MB of
/// address space (not in 40 MB; the binary alone starts in about 31 MB, what
/// `out_of_memory`'s probe finds), on a 30 MB plan as on an 80 MB one. So
/// 80 MB leaves them 30 MB of room (threads on more cores, a loaded
/// machine; 4 MB more a thread on more than two cores: `limit_kb`), and an
/// 88 MB plan cannot be held under it. (It was 130 MB under 120 MB, before
/// that 450 MB under 400 MB: each run costs about 8 s a hundred MB at the
/// test profile's opt-level 0.)
#[cfg(target_os = "linux")]
fn big_limit_kb() -> u64 {
    crate::common::big::limit_kb(80_000)
}
#[cfg(target_os = "linux")]
fn big_mb() -> usize {
    (big_limit_kb() >> 10) as usize + 10
}

/// Run `planview ARGS` with its input piped in and at most `big_limit_kb()` of
/// address space; the input: one change printing `secret`, `mb` megabytes of
/// `prior_state` resources, and one marking `secret` sensitive at the end.
#[cfg(target_os = "linux")]
fn piped_big_plan(args: &str, mb: usize, secret: &str) -> std::process::Output {
    let secret = secret.to_string();
    let (o, sent) = piped_under_limit(args, big_limit_kb(), move |feed| {
        let pad = "p".repeat(64 << 10);
        feed.put(r#"{"format_version":"1.2","resource_changes":["#)?;
        feed.put(&format!(
            r#"{{"address":"aws_x.r0","mode":"managed","type":"aws_x","name":"r0","change":{{"actions":["update"],"before":{{"v":"{secret}","n":1}},"after":{{"v":"{secret}","n":2}}}}}}"#
        ))?;
        feed.put(r#"],"prior_state":{"format_version":"1.0","values":{"root_module":{"resources":["#)?;
        for i in 0..(mb << 20) / pad.len() {
            feed.put(&format!(
                r#"{{"address":"aws_x.p{i}","mode":"managed","type":"aws_x","name":"p{i}","values":{{"pad":"{pad}"}},"sensitive_values":{{}}}},"#
            ))?;
        }
        feed.put(&format!(
            r#"{{"address":"aws_x.last","mode":"managed","type":"aws_x","name":"last","values":{{"pw":"{secret}"}},"sensitive_values":{{"pw":true}}}}]}}}}}},"errored":false}}"#
        ))
    });
    assert!(sent > mb << 20, "{sent}");
    o
}

/// The whole read of an 88 MB plan cannot fit in 80 MB of address space:
/// these commands stream it (and mask the secret marked at its end). Three
/// runs: `fingerprint`; `gate` against another fingerprint, which fails and
/// names the fingerprint it computed, streamed (the same as `fingerprint`'s:
/// so it would pass against that one, the comparison held by `plan_diff`,
/// `comment` and `first_minutes` on plans read whole; a gate run that passes
/// proves less, since a gate ignoring the flag passes too); `comment`, whose
/// marker line carries the same fingerprint.
#[test]
#[cfg(target_os = "linux")]
fn fingerprint_gate_and_comment_of_a_plan_bigger_than_their_memory_limit_stream() {
    let secret = "pw-marked-at-the-end-88";
    let big_mb = big_mb();
    assert!((big_mb << 20) as u64 > big_limit_kb() << 10, "the plan is bigger than the limit");
    let o = piped_big_plan("fingerprint -", big_mb, secret);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let fingerprint = String::from_utf8_lossy(&o.stdout).trim().to_string();
    assert!(fingerprint.starts_with("sha256:") && fingerprint.len() == 71, "{fingerprint}");
    let wrong = format!("sha256:{}", "0".repeat(64));
    assert_ne!(fingerprint, wrong);
    let o = piped_big_plan(&format!("gate - --expect-fingerprint {wrong}"), big_mb, secret);
    assert_eq!(o.status.code(), Some(1), "another fingerprint fails: {}", String::from_utf8_lossy(&o.stderr));
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(
        report.contains(&format!("its fingerprint is {fingerprint}, the reviewed plan's {wrong}")),
        "the gate computed the fingerprint `fingerprint` printed: {report}"
    );
    assert!(!report.contains(secret), "{report}");
    let o = piped_big_plan("comment -", big_mb, secret);
    let body = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(body.contains("aws_x.r0") && body.contains(&format!("planview-fingerprint {fingerprint}")), "{body}");
    assert!(!body.contains(secret), "{body}");
}

/// `show | head -20` and `summary | head -5`: the reader takes its first lines
/// and goes; what it got never holds a secret marked only in the last change,
/// from a file or a pipe, and the run still exits 0 (the closed output is no
/// error of the run).
#[test]
fn the_first_lines_of_show_and_summary_mask_a_secret_marked_at_the_end() {
    use std::io::{BufRead, Write};
    use std::process::{Command, Stdio};
    let dir = scratch("head");
    let secret = "pw-Head-Of-Pipe-5150";
    // More than `show` keeps in memory: a file is read twice (its secrets
    // first). 1,500 changes (9.3 MB) are just more, as 3,000 (19 MB) were.
    const N: usize = 1_500;
    let plan = late_secret_plan(N, secret, 3_000, true);
    assert!(plan.len() > planview::testkit::run::show::MEMORY);
    // Every 7th change is a replacement (`late_secret_plan`).
    let replaced = (0..N).filter(|i| i % 7 == 3).count();
    let plan_line = format!("Plan: {replaced} to add, {} to change, {replaced} to destroy.", N - replaced);
    let file = dir.join("late.json");
    std::fs::write(&file, &plan).unwrap();
    let f = file.to_str().unwrap();
    for (args, lines) in [(vec!["show", f], 20), (vec!["show", "-"], 20), (vec!["summary", f], 5), (vec!["summary", "-"], 5)] {
        let piped = args[1] == "-";
        let mut child = Command::new(env!("CARGO_BIN_EXE_planview"))
            .args(&args)
            .current_dir(root())
            .stdin(if piped { Stdio::piped() } else { Stdio::null() })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        if piped {
            let mut stdin = child.stdin.take().unwrap();
            let text = plan.clone();
            std::thread::spawn(move || {
                let _ = stdin.write_all(text.as_bytes());
            });
        }
        let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut head = String::new();
        for _ in 0..lines {
            reader.read_line(&mut head).unwrap();
        }
        drop(reader);
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(head.lines().count(), lines, "{args:?}: {head}");
        if args[0] == "show" {
            assert!(head.starts_with("~ aws_x.r0: update in-place\n"), "{args:?}: the first change comes first: {head}");
            assert!(head.contains("+ copy = (sensitive value)"), "{args:?}: the copy is there, masked: {head}");
        } else {
            assert!(head.contains(&plan_line), "{args:?}: {head}");
        }
        assert!(!head.contains(secret), "{args:?}: {head}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `summary` of 240,000 tiny creates, as a table and as JSON, piped in under
/// 180 MB of address space: the list of changes (about 145 MB held whole as
/// JSON entries, as much as the JSON it prints, twice that as table rows) is
/// spooled, and the table still collapses the instances of one block and
/// lists the others. (240,000 under 180 MB proves what 400,000 under 300 MB
/// did: the process itself takes tens of MB, so the list held whole would not
/// fit beside it; streamed, the debug build peaks at about 36 MB. 150 MB left
/// too little room for the process's own address space on a loaded machine.)
#[test]
#[cfg(target_os = "linux")]
fn summary_of_many_tiny_changes_spools_its_list() {
    const N: usize = 240_000;
    const LIMIT_KB: u64 = 180_000;
    let feed = |f: &mut Feed| {
        f.put(r#"{"format_version":"1.2","terraform_version":"1.11.4","resource_changes":["#)?;
        let mut chunk = String::new();
        for i in 0..N {
            // Every other create is an instance of one block, the rest blocks of their own.
            let (address, name, index) = if i % 2 == 0 {
                (format!("terraform_data.many[{i}]"), "many".to_string(), i.to_string())
            } else {
                (format!("terraform_data.t{i}"), format!("t{i}"), "null".into())
            };
            chunk.push_str(&format!(
                r#"{}{{"address":"{address}","mode":"managed","type":"terraform_data","name":"{name}","index":{index},"change":{{"actions":["create"],"before":null,"after":{{"input":{i}}}}}}}"#,
                if i > 0 { "," } else { "" }
            ));
            if chunk.len() > 1 << 16 {
                f.put(&chunk)?;
                chunk.clear();
            }
        }
        f.put(&chunk)?;
        f.put(r#"],"errored":false,"complete":true}"#)
    };
    let (o, _) = piped_under_limit("summary -", LIMIT_KB, feed);
    let table = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(table.contains(&format!("Plan: {N} to add, 0 to change, 0 to destroy.")), "{}", &table[..table.len().min(2000)]);
    assert!(
        table.contains("terraform_data.many[*]")
            && table.contains(&format!("{} alike: [0], [2], [4], [6], [8], ... ({} more)", N / 2, N / 2 - 5))
    );
    assert!(table.contains("│ + create │ terraform_data.t1 ") && table.contains(&format!("terraform_data.t{} ", N - 1)));
    assert_eq!(table.lines().filter(|l| l.starts_with("│ + create")).count(), N / 2 + 1, "one row for the block, one for each other");
    let (o, _) = piped_under_limit("summary --format json -", LIMIT_KB, feed);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    // The JSON list alone is most of the limit: held whole beside the process, it would not fit.
    assert!(o.stdout.len() as u64 > (LIMIT_KB << 10) * 3 / 4, "{} bytes of JSON", o.stdout.len());
    // Read into only the fields checked (a `Value` of every entry costs the test more than the run).
    #[derive(serde::Deserialize)]
    struct Entry {
        address: String,
        index: Option<serde_json::Value>,
    }
    #[derive(serde::Deserialize)]
    struct Summary {
        resources: Vec<Entry>,
    }
    let json: Summary = serde_json::from_slice(&o.stdout).unwrap();
    let resources = json.resources;
    assert_eq!(resources.len(), N);
    assert_eq!(resources[N - 1].address, format!("terraform_data.t{}", N - 1));
    assert_eq!(resources[2].index, Some(serde_json::json!(2)));
}
