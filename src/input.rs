//! Reading input: files and stdin, encoding checks, plan/state detection and
//! the `format_version` gate.

use crate::error::InputError;
use crate::model::{Plan, RawDocument, State, Values};
use std::io::Read;
use std::path::PathBuf;

/// Where one document comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Stdin,
    File(PathBuf),
}

impl Source {
    /// `-` means stdin; anything else is a path.
    pub fn from_arg(arg: &str) -> Source {
        if arg == "-" {
            Source::Stdin
        } else {
            Source::File(PathBuf::from(arg))
        }
    }

    /// The name used in messages and reports.
    pub fn name(&self) -> String {
        match self {
            Source::Stdin => "<stdin>".to_string(),
            Source::File(p) => p.display().to_string(),
        }
    }
}

/// Read the whole input. Files are read in one go (serde_json is several times
/// faster on a slice than on a reader).
pub fn read(source: &Source) -> Result<Vec<u8>, InputError> {
    let name = source.name();
    match source {
        Source::Stdin => {
            let mut buf = Vec::new();
            std::io::stdin()
                .lock()
                .read_to_end(&mut buf)
                .map_err(|e| InputError::new(&name, format!("cannot read standard input: {e}")))?;
            Ok(buf)
        }
        Source::File(path) => {
            check_not_dir(&name, path)?;
            std::fs::read(path).map_err(|e| open_error(&name, &e))
        }
    }
}

/// Open the input for streaming ([`crate::stream`]), with the same errors as [`read`].
pub fn open(source: &Source) -> Result<Box<dyn Read + Send>, InputError> {
    let name = source.name();
    match source {
        Source::Stdin => Ok(Box::new(std::io::stdin())),
        Source::File(path) => {
            check_not_dir(&name, path)?;
            let f = std::fs::File::open(path).map_err(|e| open_error(&name, &e))?;
            Ok(Box::new(f))
        }
    }
}

fn check_not_dir(name: &str, path: &std::path::Path) -> Result<(), InputError> {
    if path.is_dir() {
        return Err(InputError::new(name, "is a directory, not a JSON file"));
    }
    Ok(())
}

fn open_error(name: &str, e: &std::io::Error) -> InputError {
    let what = match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => e.to_string(),
    };
    InputError::new(name, format!("cannot read: {what}"))
}

/// A parsed document.
#[derive(Debug)]
pub enum Document<'a> {
    Plan(Box<Plan<'a>>),
    State(StateDoc<'a>),
}

/// A state document (`show -json` without a plan file).
#[derive(Debug, Default)]
pub struct StateDoc<'a> {
    pub format_version: String,
    pub terraform_version: Option<String>,
    pub values: Option<Values<'a>>,
    pub checks: Option<Vec<crate::model::CheckObject>>,
}

impl<'a> StateDoc<'a> {
    pub fn from_state(s: State<'a>) -> Self {
        StateDoc {
            format_version: s.format_version.unwrap_or_default(),
            terraform_version: s.terraform_version,
            values: s.values,
            checks: s.checks,
        }
    }
}

impl Document<'_> {
    pub fn kind(&self) -> &'static str {
        match self {
            Document::Plan(_) => "plan",
            Document::State(_) => "state",
        }
    }
}

/// The range of `format_version` this version reads.
pub const SUPPORTED: &str = ">= 0.1, < 2.0 (every 0.x and 1.x)";

/// 1-based line and column of a byte offset.
pub fn line_col(bytes: &[u8], offset: usize) -> (usize, usize) {
    let upto = &bytes[..offset.min(bytes.len())];
    let line = upto.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = upto.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let column = String::from_utf8_lossy(&upto[line_start..]).chars().count() + 1;
    (line, column)
}

/// Check encoding and framing, parse, tell plan from state and check the version.
pub fn parse<'a>(name: &str, bytes: &'a [u8]) -> Result<Document<'a>, InputError> {
    sniff_encoding(name, bytes)?;
    // Validate the whole input: parts that queries skip are otherwise never checked.
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let (l, c) = line_col(bytes, e.valid_up_to());
        InputError::new(name, "input is not valid UTF-8").at(l, c).hint("re-encode as UTF-8")
    })?;
    check_start(name, text)?;
    let raw: RawDocument<'a> = serde_json::from_str(text).map_err(|e| json_error(name, &e))?;
    classify(name, raw)
}

/// Refuse UTF-16 and a UTF-8 byte-order mark (looks at the first bytes only).
pub(crate) fn sniff_encoding(name: &str, bytes: &[u8]) -> Result<(), InputError> {
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) || looks_utf16(bytes) {
        return Err(InputError::new(name, "input is UTF-16, not UTF-8")
            .hint("re-encode as UTF-8 (PowerShell's `>` writes UTF-16; use `| Out-File -Encoding utf8`)"));
    }
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Err(InputError::new(name, "input starts with a UTF-8 byte-order mark")
            .at(1, 1)
            .hint("re-encode as UTF-8 without a BOM"));
    }
    Ok(())
}

/// The first non-blank character must open an object; say what it is otherwise.
/// `text` is the input, or (when streaming) the part of it read so far.
pub(crate) fn check_start(name: &str, text: &str) -> Result<(), InputError> {
    let start = text.find(|c: char| !c.is_ascii_whitespace());
    let Some(start) = start else {
        return Err(InputError::new(name, "input is empty").hint("did `show -json` fail? check its exit code and stderr"));
    };
    match text.as_bytes()[start] {
        b'{' => {}
        b'[' => {
            let (l, c) = line_col(text.as_bytes(), start);
            return Err(InputError::new(name, "input is a JSON array, not a plan or state object").at(l, c));
        }
        _ => {
            let (l, c) = line_col(text.as_bytes(), start);
            let mut e = InputError::new(name, "input does not start with a JSON object").at(l, c);
            if let Some(brace) = text[start..].find('{') {
                let (bl, _) = line_col(text.as_bytes(), start + brace);
                e = e.hint(format!(
                    "there is text before the JSON (it starts on line {bl}); a CI wrapper may have printed it: strip it, or run `tofu show -json` / `terraform show -json` without the wrapper"
                ));
            } else {
                e = e.hint("expected the output of `tofu show -json` or `terraform show -json`");
            }
            return Err(e);
        }
    }
    Ok(())
}

pub(crate) fn json_error(name: &str, e: &serde_json::Error) -> InputError {
    let msg = e.to_string();
    // serde_json appends " at line L column C"; we print the location ourselves.
    let msg = match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg,
    };
    let mut err = InputError::new(name, format!("invalid JSON: {msg}"));
    if e.line() > 0 {
        err = err.at(e.line(), e.column());
    }
    match e.classify() {
        serde_json::error::Category::Eof => err.hint("the JSON ends too early: was the file truncated?"),
        _ if msg.starts_with("trailing characters") => {
            err.hint("there is text after the JSON document (two documents, or a wrapper's trailer?)")
        }
        _ if msg.starts_with("recursion limit exceeded") => err.hint("the document nests deeper than planview reads (128 levels)"),
        _ => err,
    }
}

/// UTF-16 without a BOM: NUL bytes in every other position at the start.
fn looks_utf16(bytes: &[u8]) -> bool {
    bytes.len() >= 4 && ((bytes[0] == 0 && bytes[2] == 0 && bytes[1] != 0) || (bytes[1] == 0 && bytes[3] == 0 && bytes[0] != 0))
}

fn classify<'a>(name: &str, raw: RawDocument<'a>) -> Result<Document<'a>, InputError> {
    let version_value = raw.format_version.clone().or_else(|| raw.plan_format_version.clone());
    let hcp = raw.format_version.is_none() && raw.plan_format_version.is_some();
    if raw.other_keys.iter().any(|k| k == "provider_schemas") && !hcp {
        return Err(InputError::new(name, "this is provider schemas output (`providers schema -json`), not a plan or state")
            .hint("run `tofu show -json PLANFILE` or `terraform show -json PLANFILE`"));
    }
    let Some(version_value) = version_value else {
        return Err(neither(name, &raw, "it has no `format_version`, so its major version cannot be known"));
    };
    let version = match &version_value {
        serde_json::Value::String(s) => s.clone(),
        other => {
            return Err(InputError::new(name, format!("`format_version` must be a string, found {other}")));
        }
    };
    check_version(name, &version)?;
    if raw.plan_keys || hcp {
        let mut plan = raw.plan;
        plan.format_version = version;
        return Ok(Document::Plan(Box::new(plan)));
    }
    if raw.values.is_some() || raw.other_keys.is_empty() {
        // A state, or the empty state `{"format_version":"1.0"}`.
        let values = match raw.values {
            Some(v) => serde_json::from_str::<Option<Values<'a>>>(v.get())
                .map_err(|e| InputError::new(name, format!("invalid state `values`: {e}")))?,
            None => None,
        };
        return Ok(Document::State(StateDoc {
            format_version: version,
            terraform_version: raw.plan.terraform_version,
            values,
            checks: raw.plan.checks,
        }));
    }
    Err(neither(name, &raw, "it has none of the keys of a plan or a state"))
}

fn neither(name: &str, raw: &RawDocument<'_>, why: &str) -> InputError {
    let mut keys = raw.other_keys.clone();
    keys.truncate(8);
    let what = if keys.is_empty() { String::new() } else { format!(" (top-level keys: {})", keys.join(", ")) };
    InputError::new(name, format!("not a plan or state from `show -json`: {why}{what}"))
        .hint("pass the output of `tofu show -json PLANFILE`, `terraform show -json PLANFILE` or `terraform show -json` (state)")
}

/// Accept every 0.x and 1.x (`"1.2"` has two parts); refuse 2.0+ and malformed.
pub fn check_version(name: &str, version: &str) -> Result<semver::Version, InputError> {
    let parts: Vec<&str> = version.split('.').collect();
    let padded = match parts.len() {
        1 => format!("{version}.0.0"),
        2 => format!("{version}.0"),
        _ => version.to_string(),
    };
    let v = semver::Version::parse(&padded).map_err(|_| {
        InputError::new(name, format!("`format_version` {version:?} is not a version number; supported: {SUPPORTED}"))
    })?;
    let req = semver::VersionReq::parse("<2.0.0").expect("static requirement");
    if !req.matches(&v) || v.major >= 2 {
        return Err(InputError::new(
            name,
            format!("unsupported format_version {version:?}: planview reads {SUPPORTED}"),
        )
        .hint("a new major version may change meanings; upgrade planview"));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> InputError {
        parse("f.json", s.as_bytes()).unwrap_err()
    }

    #[test]
    fn versions_one_two_and_three_parts() {
        assert!(check_version("f", "1.2").is_ok());
        assert!(check_version("f", "0.1").is_ok());
        assert!(check_version("f", "1.0.3").is_ok());
        assert!(check_version("f", "1").is_ok());
        let e = check_version("f", "2.0").unwrap_err();
        assert!(e.message.contains("\"2.0\"") && e.message.contains("< 2.0"), "{e}");
        assert!(check_version("f", "one.two").is_err());
        assert!(check_version("f", "1.2-beta").is_err());
    }

    #[test]
    fn empty_state_is_a_state() {
        let d = parse("f", br#"{"format_version":"1.0"}"#).unwrap();
        assert_eq!(d.kind(), "state");
    }

    #[test]
    fn missing_version_and_foreign_documents_are_refused() {
        assert!(err(r#"{"resource_changes":[]}"#).message.contains("no `format_version`"));
        assert!(err(r#"{"format_version":"1.0","provider_schemas":{}}"#).message.contains("provider schemas"));
        assert!(err(r#"{"format_version":"1.0","valid":true,"diagnostics":[]}"#).message.contains("none of the keys"));
        assert!(err(r#"[1]"#).message.contains("array"));
        assert!(err("").message.contains("empty"));
        assert!(err(r#"{"format_version":1.0}"#).message.contains("must be a string"));
    }

    #[test]
    fn json_errors_carry_line_and_column() {
        let e = err("{\n  \"format_version\": \"1.0\",\n  \"values\": {,}\n}");
        assert_eq!((e.line, e.column), (Some(3), Some(14)));
        let e = err("{\"format_version\":\"1.0\"");
        assert!(e.hint.unwrap().contains("truncated"));
        let e = err("{\"format_version\":\"1.0\"}\n{}");
        assert!(e.message.contains("trailing"), "{}", e.message);
    }

    #[test]
    fn encodings_are_refused_with_hints() {
        let e = parse("f", b"\xEF\xBB\xBF{}").unwrap_err();
        assert!(e.message.contains("byte-order mark"));
        let e = parse("f", b"\xFF\xFE{\x00}\x00").unwrap_err();
        assert!(e.message.contains("UTF-16"));
        let e = parse("f", b"{\"format_version\":\"1.0\",\n\"x\":\"\xC3\x28\"}").unwrap_err();
        assert_eq!((e.line, e.column), (Some(2), Some(6)));
    }

    #[test]
    fn text_before_the_json_gets_a_hint() {
        let e = err("$ terraform show -json plan.out\n{\"format_version\":\"1.0\"}");
        assert!(e.hint.unwrap().contains("line 2"));
    }

    #[test]
    fn hcp_redacted_plan_is_a_plan() {
        let d = parse("f", br#"{"plan_format_version":"1.2","provider_format_version":"1.0","provider_schemas":{},"resource_changes":[]}"#).unwrap();
        match d {
            Document::Plan(p) => assert_eq!(p.format_version, "1.2"),
            _ => panic!("not a plan"),
        }
    }
}
