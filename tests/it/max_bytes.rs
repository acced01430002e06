//! The one `--max-bytes`: `summary`, `gate`, `show` and `comment` take the
//! same lower bound (1,000 bytes) with the same message, and each one's
//! markdown at that bound stays within it, every `<details>` and code fence
//! closed, and says what it left out.

use crate::common::*;

/// A plan of `n` changes, every other one a delete (which the default gate
/// refuses: a violation row each), each with a long attribute: too big for
/// 1,000 bytes in every command.
fn big(n: usize) -> std::path::PathBuf {
    let changes: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#"{{"address":"terraform_data.r{i}","mode":"managed","type":"terraform_data","name":"r{i}",
                "change":{{"actions":["{}"],"before":{{"input":"{}"}},"after":{},"after_unknown":{{}}}}}}"#,
                if i % 2 == 0 { "delete" } else { "update" },
                "a".repeat(60),
                if i % 2 == 0 { "null".to_string() } else { format!(r#"{{"input":"{}"}}"#, "b".repeat(60)) }
            )
        })
        .collect();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("max-bytes");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("big-{n}.json"));
    std::fs::write(&path, format!(r#"{{"format_version":"1.2","resource_changes":[{}]}}"#, changes.join(","))).unwrap();
    path
}

fn command(cmd: &str, max: &str, file: &str) -> Vec<String> {
    let mut args: Vec<String> = vec![cmd.into()];
    if cmd != "comment" {
        args.extend(["--format".into(), "markdown".into()]);
    }
    args.extend(["--max-bytes".into(), max.into(), file.into()]);
    args
}

#[test]
fn every_command_takes_the_same_bound_and_keeps_within_it() {
    let file = big(200);
    let file = file.to_str().unwrap();
    for cmd in ["summary", "gate", "show", "comment"] {
        // Below the bound: one usage error, one message.
        let args = command(cmd, "999", file);
        let o = planview(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("invalid value '999' for '--max-bytes <N>': expected a number of bytes, at least 1000"), "{cmd}: {err}");
        // At the bound: within it, balanced, and saying so.
        let args = command(cmd, "1000", file);
        let o = planview(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(matches!(o.status.code(), Some(0 | 1)), "{cmd}: {}", String::from_utf8_lossy(&o.stderr));
        let md = String::from_utf8(o.stdout).unwrap();
        assert!(md.len() <= 1000, "{cmd}: {} bytes", md.len());
        assert!(md.len() > 500, "{cmd}: uses its room: {md}");
        assert!(md.contains("Trimmed to fit 1000 bytes") || md.contains("to fit 1000"), "{cmd}: {md}");
        assert_eq!(md.matches("<details>").count(), md.matches("</details>").count(), "{cmd}: {md}");
        assert_eq!(md.lines().filter(|l| l.trim_start().starts_with("```")).count() % 2, 0, "{cmd}: {md}");
    }
}
