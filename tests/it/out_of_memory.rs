//! Memory that runs out (issue 32): exit 2 with one line on stderr, as every
//! other error, never SIGABRT, a backtrace or exit 134 (`src/oom.rs`).

use crate::common::*;

/// `comment` and `gate --expect-fingerprint` read a plan whole: under a
/// memory limit that lets them start and read a 20 MB plan but not copy its
/// one big value, they end with exit 2 and one line. (20 MB under 80 MB proves
/// what 60 MB under 300 MB did, in a third of the bytes: unlimited, the debug
/// build's `comment` peaks at about 220 MB and `gate --expect-fingerprint` at
/// 98 MB on it, while `gate` streams it in 34 MB, so the limit is met by the
/// copies of the value, never by the start of the process.)
#[test]
#[cfg(target_os = "linux")]
fn running_out_of_memory_is_exit_2_with_one_line() {
    let dir = std::env::temp_dir().join(format!("planview-oom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plan = dir.join("plan.json");
    let big = "x".repeat(20 << 20);
    let doc = format!(
        r#"{{"format_version":"1.2","resource_changes":[{{"address":"a.b","mode":"managed","type":"a","name":"b","change":{{"actions":["create"],"before":null,"after":{{"v":"{big}"}},"after_unknown":{{}},"before_sensitive":false,"after_sensitive":{{}}}}}}]}}"#
    );
    std::fs::write(&plan, doc).unwrap();
    let bin = env!("CARGO_BIN_EXE_planview");
    let fingerprint = format!("sha256:{}", "0".repeat(64));
    for cmd in ["comment", &format!("gate --expect-fingerprint {fingerprint}")] {
        let o = std::process::Command::new("/bin/sh")
            .arg("-c")
            // 80 MB of address space (the binary keeps one malloc arena: `oom::one_arena`).
            .arg(format!("ulimit -v 80000 && exec '{bin}' {cmd} '{}'", plan.display()))
            .env("RUST_BACKTRACE", "1")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{cmd}: {:?} {err}", o.status);
        assert_eq!(err.lines().count(), 1, "{cmd}: {err}");
        assert!(err.starts_with("planview: error: out of memory: an allocation of "), "{cmd}: {err}");
        assert!(err.ends_with(" bytes failed (raise the memory limit: `ulimit -v`, the container's; `summary`, `gate` and `show` stream any plan in bounded memory)\n"), "{cmd}: {err}");
        assert!(o.stdout.is_empty(), "{cmd}: no partial answer");
    }
    // The plan itself is fine: streamed, it passes the gate.
    let o = planview(&["gate", plan.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::remove_dir_all(&dir).ok();
}

/// Under any memory limit the binary can start in, every command either
/// answers or ends with exit 2 and one line saying memory ran out: an
/// allocation that fails, or a thread whose stack cannot be mapped
/// (`par::spawn`), never a panic (exit 101: "a scoped thread panicked" was
/// one) or an abort. Below the smallest limit the binary starts in, the
/// loader or the first page of stack fails (exit 127, SIGSEGV) before any of
/// planview runs: the limits tried start there, found as `--version`'s.
#[test]
#[cfg(target_os = "linux")]
fn a_thread_that_cannot_start_is_exit_2_with_one_line() {
    let bin = env!("CARGO_BIN_EXE_planview");
    let under = |limit_kb: u32, args: &str| {
        std::process::Command::new("/bin/sh")
            .arg("-c")
            .arg(format!("ulimit -v {limit_kb} && exec '{bin}' {args}"))
            .env("RUST_BACKTRACE", "1")
            .output()
            .unwrap()
    };
    let start =
        (8_000..400_000).step_by(1_000).find(|&kb| under(kb, "--version").status.success()).expect("the binary starts under 400 MB");
    let plan = root().join("testdata/real/replace/plan.json");
    let fingerprint = format!("sha256:{}", "0".repeat(64));
    let expect = format!("gate --expect-fingerprint {fingerprint}");
    let mut out_of_memory = 0;
    for cmd in ["summary", "gate", expect.as_str(), "comment", "show", "fingerprint"] {
        for limit_kb in [start, start + 2_000, start + 5_000, start + 40_000] {
            let o = under(limit_kb, &format!("{cmd} - < '{}'", plan.display()));
            let err = String::from_utf8_lossy(&o.stderr);
            let code = o.status.code();
            if code == Some(2) && err.starts_with("planview: error: out of memory: ") {
                assert_eq!(err.lines().count(), 1, "{cmd} under {limit_kb} KB: {err}");
                out_of_memory += 1;
            } else {
                assert!(matches!(code, Some(0 | 1)), "{cmd} under {limit_kb} KB: {:?} {err}", o.status);
                assert!(!err.contains("panicked"), "{cmd} under {limit_kb} KB: {err}");
            }
        }
    }
    // The smallest limits are below what a run needs: some runs did end for memory.
    assert!(out_of_memory > 0, "no limit was small enough to run out of memory");
}
