//! Rego policies for `gate --policy`, evaluated in-process with the `regorus`
//! engine under conftest's conventions: package `main` unless `--namespace`
//! or `--all-namespaces` says otherwise; rules `deny`, `violation` (errors) and
//! `warn` (warnings), with or without a `_suffix`; each a set of strings or of
//! objects with `msg`; `exception` rules; `--data` JSON/YAML documents under
//! `data.`; Rego v1 syntax unless `--rego-version v0`.
//!
//! The input document is the plan JSON exactly as `show -json` wrote it: the
//! engine holds it whole, as its own values, while the rules run (see
//! docs/policy.md, "Memory"). What a rule returns is plain data here
//! ([`Finding`]): the gate masks it before anything prints it.

use crate::error::InputError;
use crate::glob::Glob;
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The default limit on one plan's evaluation (`--rego-timeout`).
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// How Rego policies are loaded and run (the flags).
#[derive(Debug, Clone)]
pub struct RegoOptions {
    /// `--namespace` patterns (globs: `*`, `?`); `main` when none is given.
    pub namespaces: Vec<String>,
    pub all_namespaces: bool,
    /// `--data` files and directories (`.json`, `.yaml`, `.yml`).
    pub data: Vec<PathBuf>,
    /// `--rego-version v0`.
    pub v0: bool,
    /// Wall-clock limit on one plan's evaluation.
    pub timeout: Duration,
}

impl Default for RegoOptions {
    fn default() -> Self {
        RegoOptions { namespaces: Vec::new(), all_namespaces: false, data: Vec::new(), v0: false, timeout: DEFAULT_TIMEOUT }
    }
}

/// What a rule's result does to the verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `deny`, `violation` (and their `_suffix`ed names): fails the gate.
    Failure,
    /// `warn` (and `warn_suffix`): shown, fails only with `--fail-on-warn`.
    Warning,
}

/// The kind of a rule, by conftest's patterns (`^(deny|violation)(_[a-zA-Z0-9]+)*$`,
/// `^warn(_[a-zA-Z0-9]+)*$`); `None` for every other name.
pub(crate) fn kind_of(name: &str) -> Option<Kind> {
    let rest = |prefix: &str| {
        name.strip_prefix(prefix)
            .filter(|r| {
                r.is_empty()
                    || (r.starts_with('_') && r[1..].split('_').all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_alphanumeric())))
            })
            .is_some()
    };
    if rest("deny") || rest("violation") {
        Some(Kind::Failure)
    } else if rest("warn") {
        Some(Kind::Warning)
    } else {
        None
    }
}

/// A rule's name without its `deny_`/`violation_`/`warn_` prefix, as an
/// `exception` names it (conftest's `removeRulePrefix`): empty for the bare names.
fn exception_name(rule: &str) -> &str {
    if matches!(rule, "deny" | "violation" | "warn") {
        return "";
    }
    ["violation_", "deny_", "warn_"].iter().fold(rule, |r, p| r.strip_prefix(p).unwrap_or(r))
}

/// One rule the gate queries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleRef {
    /// The package, without `data.` (`main`, `terraform.aws`).
    pub namespace: String,
    /// The rule's name (`deny`, `warn_tags`).
    pub name: String,
    pub kind: Kind,
    /// Where it is first declared: file, line, column.
    pub file: String,
    pub line: usize,
    pub column: usize,
}

impl RuleRef {
    /// The rule's id in reports: `rego main.deny_public_bucket`.
    pub fn id(&self) -> String {
        format!("rego {}.{}", self.namespace, self.name)
    }

    fn query(&self) -> String {
        format!("data.{}.{}", self.namespace, self.name)
    }

    /// `policy/s3.rego:4:1`.
    pub fn location(&self) -> String {
        format!("{}:{}:{}", self.file, self.line, self.column)
    }
}

/// One result of one rule on one plan, not yet masked.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// Index into [`RegoPolicy::rules`].
    pub rule: usize,
    pub msg: String,
    /// The object's other keys (`_loc` dropped, as conftest does), or `None` for a string.
    pub details: Option<serde_json::Map<String, serde_json::Value>>,
}

/// Loaded, parsed policies and data, ready to judge plans.
#[derive(Clone)]
pub struct RegoPolicy {
    engine: regorus::Engine,
    /// Every `.rego` file loaded, in load order.
    pub files: Vec<String>,
    /// The rules queried, in package then name order.
    pub rules: Vec<RuleRef>,
    /// Per namespace queried: does it declare `exception`?
    exceptions: Vec<String>,
    /// Some policy reads `data.planview` (the helper document, given per plan).
    pub uses_helper: bool,
    /// The plan's top-level keys the policies read, when every use of
    /// `input` names one ([`input_keys`]): the others are not given to the
    /// engine. `None`: the whole plan.
    input_keys: Option<Vec<String>>,
}

impl std::fmt::Debug for RegoPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RegoPolicy").field("files", &self.files).field("rules", &self.rules).finish_non_exhaustive()
    }
}

/// [`rego_files`], with the `*_test.rego` files too when `tests`.
/// The `.rego` files a path names: the file itself, or every `.rego` file
/// below a directory (recursively, in name order), `*_test.rego` only with
/// `tests`. A directory without one is an error.
fn rego_files_with(path: &Path, tests: bool) -> Result<Vec<PathBuf>, InputError> {
    let name = path.display().to_string();
    let meta = std::fs::metadata(path).map_err(|e| InputError::new(&name, format!("cannot read the policy: {e}")))?;
    if !meta.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut out = Vec::new();
    walk(path, &mut |p| {
        let file = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if file.ends_with(".rego") && (tests || !file.ends_with("_test.rego")) {
            out.push(p.to_path_buf());
        }
    })
    .map_err(|e| InputError::new(&name, format!("cannot read the policy directory: {e}")))?;
    if out.is_empty() {
        return Err(InputError::new(&name, "no .rego file in this directory (files ending _test.rego are tests, not policies)"));
    }
    Ok(out)
}

/// Every file below `dir`, in name order, directories followed (not symlinked ones).
fn walk(dir: &Path, f: &mut dyn FnMut(&Path)) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let t = e.file_type()?;
        if t.is_dir() {
            walk(&e.path(), f)?;
        } else if t.is_file() || (t.is_symlink() && e.path().is_file()) {
            f(&e.path());
        }
    }
    Ok(())
}

/// A regorus error in planview's terms: the position it names (`--> FILE:L:C`)
/// and its last line (`error: ...`), on one line.
fn engine_error(fallback_file: &str, e: &anyhow::Error) -> InputError {
    let text = format!("{e:#}");
    let mut file = fallback_file.to_string();
    let mut at = None;
    if let Some(i) = text.rfind("--> ") {
        let rest = text[i + 4..].lines().next().unwrap_or("");
        let mut parts = rest.rsplitn(3, ':');
        let (c, l, f) = (parts.next(), parts.next(), parts.next());
        if let (Some(c), Some(l), Some(f)) = (c.and_then(|c| c.trim().parse().ok()), l.and_then(|l| l.trim().parse().ok()), f) {
            file = f.to_string();
            at = Some((l, c));
        }
    }
    let last = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    let msg = last.strip_prefix("error: ").unwrap_or(last);
    let mut err = InputError::new(&file, crate::sanitize::line(msg).into_owned());
    if let Some((l, c)) = at {
        err = err.at(l, c);
    }
    err
}

/// The identifiers in `src` that name a rule of interest (`deny...`,
/// `violation...`, `warn...`, `exception`), each with its first position,
/// preferring one at the start of a line (a rule head). Candidates only: the
/// engine confirms which are declared rules.
fn candidates(src: &str) -> Vec<(String, usize, usize)> {
    let mut found: Vec<(String, usize, usize, bool)> = Vec::new();
    for (ln, line) in src.lines().enumerate() {
        let code = line.split('#').next().unwrap_or("");
        let b = code.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
            if ident(b[i]) && (i == 0 || !ident(b[i - 1])) {
                let start = i;
                while i < b.len() && ident(b[i]) {
                    i += 1;
                }
                let word = &code[start..i];
                if kind_of(word).is_some() || word == "exception" || word.starts_with("test_") {
                    let at_start = code[..start].trim().is_empty();
                    let col = code[..start].chars().count() + 1;
                    match found.iter_mut().find(|f| f.0 == word) {
                        Some(f) if !f.3 && at_start => *f = (word.to_string(), ln + 1, col, true),
                        Some(_) => {}
                        None => found.push((word.to_string(), ln + 1, col, at_start)),
                    }
                }
            } else {
                i += 1;
            }
        }
    }
    found.into_iter().map(|(w, l, c, _)| (w, l, c)).collect()
}

/// Which namespaces to query, of the `packages` loaded (conftest: `main` by
/// default; patterns with `*`/`?` are matched against the packages; all of
/// them with `--all-namespaces`).
fn select_namespaces(packages: &[String], opts: &RegoOptions) -> Vec<String> {
    if opts.all_namespaces {
        return packages.to_vec();
    }
    let patterns: Vec<String> = if opts.namespaces.is_empty() { vec!["main".into()] } else { opts.namespaces.clone() };
    let mut out = Vec::new();
    for p in &patterns {
        if p.contains(['*', '?']) {
            let g = Glob::new(p);
            out.extend(packages.iter().filter(|ns| g.matches_exactly(ns) && !out.contains(*ns)).cloned().collect::<Vec<_>>());
        } else if !out.contains(p) {
            out.push(p.clone());
        }
    }
    out
}

/// A data document's value, nested under the directories between `root`
/// and its file (as OPA's loader places data found in a directory).
fn data_document(root: &Path, file: &Path) -> Result<regorus::Value, InputError> {
    let name = file.display().to_string();
    let text = std::fs::read_to_string(file).map_err(|e| InputError::new(&name, format!("cannot read the data document: {e}")))?;
    let yaml = matches!(file.extension().and_then(|e| e.to_str()), Some("yaml" | "yml"));
    let mut value = if yaml {
        regorus::Value::from_yaml_str(&text)
            .map_err(|e| InputError::new(&name, format!("invalid YAML data document: {}", crate::sanitize::line(&format!("{e:#}")))))?
    } else {
        let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
            let msg = e.to_string();
            let msg = msg.rfind(" at line ").map_or(msg.as_str(), |i| &msg[..i]).to_string();
            InputError::new(&name, format!("invalid JSON data document: {}", crate::sanitize::line(&msg))).at(e.line(), e.column())
        })?;
        regorus::Value::from_json_str(&v.to_string()).map_err(|e| InputError::new(&name, format!("invalid data document: {e}")))?
    };
    if !matches!(value, regorus::Value::Object(_)) {
        return Err(InputError::new(&name, "a data document must be an object (its keys go under `data.`)"));
    }
    if let Ok(rel) = file.parent().unwrap_or(root).strip_prefix(root) {
        let dirs: Vec<String> = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        for d in dirs.iter().rev() {
            let mut o = regorus::Value::new_object();
            o.as_object_mut().map_err(|e| InputError::new(&name, e.to_string()))?.insert(regorus::Value::from(d.as_str()), value);
            value = o;
        }
    }
    Ok(value)
}

/// An engine with the policies of `paths` (their `*_test.rego` files too
/// when `tests`) and the data documents loaded: the engine, the files, and
/// each file's (name, package, text).
type Loaded = (regorus::Engine, Vec<String>, Vec<(String, String, String)>);

fn engine_with(paths: &[PathBuf], opts: &RegoOptions, tests: bool) -> Result<Loaded, InputError> {
    let mut engine = regorus::Engine::new();
    engine.set_rego_v0(opts.v0);
    // OPA's behaviour: a built-in that fails makes its expression undefined.
    engine.set_strict_builtin_errors(false);
    // print() output could quote a secret: kept, never written to stderr.
    engine.set_gather_prints(true);
    engine.set_execution_timer_config(regorus::utils::limits::ExecutionTimerConfig {
        limit: opts.timeout,
        check_interval: NonZeroU32::new(64).unwrap_or(NonZeroU32::MIN),
    });
    let mut files = Vec::new();
    let mut sources: Vec<(String, String, String)> = Vec::new();
    for path in paths {
        for file in rego_files_with(path, tests)? {
            let name = file.display().to_string();
            let text = std::fs::read(&file).map_err(|e| InputError::new(&name, format!("cannot read the policy: {e}")))?;
            let text = String::from_utf8(text).map_err(|_| InputError::new(&name, "policy is not valid UTF-8"))?;
            let package = engine.add_policy(name.clone(), text.clone()).map_err(|e| {
                let mut err = engine_error(&name, &e);
                err.message = format!("invalid Rego: {}", err.message);
                if !opts.v0 {
                    err = err.hint("policies are read as Rego v1 (`if`, `contains`); `--rego-version v0` reads older ones");
                }
                err
            })?;
            let package = package.strip_prefix("data.").unwrap_or(&package).to_string();
            files.push(name.clone());
            sources.push((name, package, text));
        }
    }
    for root in &opts.data {
        let rname = root.display().to_string();
        let meta = std::fs::metadata(root).map_err(|e| InputError::new(&rname, format!("cannot read the data document: {e}")))?;
        let mut docs = Vec::new();
        if meta.is_dir() {
            walk(root, &mut |p| {
                if matches!(p.extension().and_then(|e| e.to_str()), Some("json" | "yaml" | "yml")) {
                    docs.push(p.to_path_buf());
                }
            })
            .map_err(|e| InputError::new(&rname, format!("cannot read the data directory: {e}")))?;
        } else {
            docs.push(root.clone());
        }
        for d in docs {
            let value = data_document(if meta.is_dir() { root } else { d.parent().unwrap_or(Path::new("")) }, &d)?;
            engine.add_data(value).map_err(|e| {
                InputError::new(
                    &d.display().to_string(),
                    format!("cannot merge the data document: {}", crate::sanitize::line(&format!("{e:#}"))),
                )
            })?;
        }
    }
    Ok((engine, files, sources))
}

impl RegoPolicy {
    /// Load the `.rego` files of `paths` ([`rego_files`]) and the data
    /// documents, parse them, and find the rules to query. Every problem is an
    /// input error naming the file (and line and column where known).
    pub fn load(paths: &[PathBuf], opts: &RegoOptions) -> Result<RegoPolicy, InputError> {
        let (engine, files, sources) = engine_with(paths, opts, false)?;
        Self::with_engine(paths, opts, engine, files, sources)
    }

    fn with_engine(
        paths: &[PathBuf],
        opts: &RegoOptions,
        engine: regorus::Engine,
        files: Vec<String>,
        sources: Vec<(String, String, String)>,
    ) -> Result<RegoPolicy, InputError> {
        let mut packages: Vec<String> = Vec::new();
        for (_, p, _) in &sources {
            if !packages.contains(p) {
                packages.push(p.clone());
            }
        }
        let namespaces = select_namespaces(&packages, opts);
        let mut rules: Vec<RuleRef> = Vec::new();
        let mut exceptions = Vec::new();
        for ns in &namespaces {
            for (file, package, text) in sources.iter().filter(|s| &s.1 == ns) {
                for (word, line, column) in candidates(text) {
                    if !engine.has_declared_rule_rooted_at(file, &word).unwrap_or(false) {
                        continue;
                    }
                    match kind_of(&word) {
                        Some(kind) if !rules.iter().any(|r| &r.namespace == package && r.name == word) => {
                            rules.push(RuleRef { namespace: package.clone(), name: word, kind, file: file.clone(), line, column })
                        }
                        None if !exceptions.contains(package) => exceptions.push(package.clone()),
                        _ => {}
                    }
                }
            }
        }
        let all = paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ");
        let missing: Vec<&String> = namespaces.iter().filter(|ns| !packages.contains(ns)).collect();
        if !missing.is_empty() || namespaces.is_empty() {
            let wanted = if namespaces.is_empty() {
                opts.namespaces.join(", ")
            } else {
                missing.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
            };
            return Err(InputError::new(&all, format!("no policy is in package {wanted} (the packages are: {})", packages.join(", ")))
                .hint("name the packages to query with --namespace (globs like `terraform.*`) or --all-namespaces"));
        }
        if rules.is_empty() {
            return Err(InputError::new(&all, format!("no deny, violation or warn rule in package(s) {}", namespaces.join(", ")))
                .hint("conftest's rule names: deny, violation, warn, or those with a suffix (deny_public_bucket)"));
        }
        rules.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
        let uses_helper = sources.iter().any(|(_, _, text)| text.contains("data.planview"));
        let input_keys = input_keys(sources.iter().map(|(_, _, text)| text.as_str()));
        Ok(RegoPolicy { engine, files, rules, exceptions, uses_helper, input_keys })
    }

    /// Every rule of this policy on one plan (`plan_json`, the document as
    /// `show -json` wrote it). An evaluation error, a timeout, or a result
    /// that is not a string or an object with a string `msg` is an error
    /// naming the rule.
    pub fn evaluate(&self, plan_json: &str) -> Result<Vec<Finding>, InputError> {
        self.evaluate_with(plan_json, None)
    }

    /// [`RegoPolicy::evaluate`], with `helper` (JSON text of an object) merged
    /// under `data.` for this plan only (`data.planview.changes`).
    pub fn evaluate_with(&self, plan_json: &str, helper: Option<&str>) -> Result<Vec<Finding>, InputError> {
        let mut engine = self.engine.clone();
        let cannot = |e: &dyn std::fmt::Display| InputError::new("<input>", format!("the plan cannot be given to the policies: {e}"));
        let input = match &self.input_keys {
            None => regorus::Value::from_json_str(plan_json).map_err(|e| cannot(&e))?,
            Some(keys) => pruned_input(plan_json, keys).map_err(|e| cannot(&e))?,
        };
        engine.set_input(input);
        if let Some(h) = helper {
            let v = regorus::Value::from_json_str(h).map_err(|e| cannot(&e))?;
            engine.add_data(v).map_err(|e| {
                InputError::new(
                    &self.files.join(", "),
                    format!("cannot give data.planview to the policies: {}", crate::sanitize::line(&format!("{e:#}"))),
                )
                .hint("a --data document defines `planview` too: rename its key")
            })?;
        }
        let mut excepted: Vec<(String, String)> = Vec::new();
        for ns in &self.exceptions {
            let v = engine.eval_rule(format!("data.{ns}.exception")).map_err(|e| engine_error(&self.files.join(", "), &e))?;
            for entry in elements(&v) {
                for name in elements(entry) {
                    if let regorus::Value::String(s) = name {
                        excepted.push((ns.clone(), s.to_string()));
                    }
                }
            }
        }
        let mut out = Vec::new();
        for (i, rule) in self.rules.iter().enumerate() {
            let v = engine.eval_rule(rule.query()).map_err(|e| {
                let mut err = engine_error(&rule.file, &e);
                err.message = format!("rule {} could not be evaluated: {}", rule.query(), err.message);
                if err.line.is_none() {
                    err = err.at(rule.line, rule.column);
                }
                err
            })?;
            if excepted.iter().any(|(ns, name)| ns == &rule.namespace && name == exception_name(&rule.name)) {
                continue;
            }
            let bad = |what: String| {
                InputError::new(
                    &rule.file,
                    format!("rule {} {what}: each result must be a string or an object with a string `msg`", rule.query()),
                )
                .at(rule.line, rule.column)
            };
            let items: Vec<&regorus::Value> = match &v {
                regorus::Value::Undefined => Vec::new(),
                regorus::Value::Set(_) | regorus::Value::Array(_) => elements(&v),
                other => return Err(bad(format!("is {}, not a set (write `{} contains msg if ...`)", type_name(other), rule.name))),
            };
            for item in items {
                match item {
                    // conftest counts an empty message as a pass.
                    regorus::Value::String(s) if s.is_empty() => {}
                    regorus::Value::String(s) => out.push(Finding { rule: i, msg: s.to_string(), details: None }),
                    regorus::Value::Object(_) => {
                        let json = serde_json::to_value(item).map_err(|e| bad(format!("returned an object that is not JSON ({e})")))?;
                        let serde_json::Value::Object(mut map) = json else {
                            return Err(bad("returned an object with non-string keys".into()));
                        };
                        let msg = match map.remove("msg") {
                            Some(serde_json::Value::String(s)) => s,
                            Some(other) => return Err(bad(format!("returned an object whose `msg` is {}", json_type(&other)))),
                            None => return Err(bad("returned an object without `msg`".into())),
                        };
                        map.remove("_loc");
                        if !msg.is_empty() {
                            out.push(Finding { rule: i, msg, details: Some(map) });
                        }
                    }
                    other => return Err(bad(format!("returned {}", type_name(other)))),
                }
            }
        }
        Ok(out)
    }
}

/// The plan's top-level keys that `sources` read, when each use of `input`
/// in them (code, strings and comments alike, word by word) names one:
/// `input.KEY`, `input["KEY"]`, or `object.get(input, "KEY", ...)`. Any other
/// use (`input[k]`, `walk(input)`, `x := input`, the word in a message) needs
/// the whole plan: `None`.
fn input_keys<'a>(sources: impl Iterator<Item = &'a str>) -> Option<Vec<String>> {
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut keys: Vec<String> = Vec::new();
    for src in sources {
        let b = src.as_bytes();
        let mut from = 0;
        while let Some(i) = src[from..].find("input").map(|i| i + from) {
            from = i + 5;
            if (i > 0 && ident(b[i - 1])) || b.get(from).is_some_and(|c| ident(*c)) {
                continue;
            }
            let rest = &src[from..];
            let key = if let Some(r) = rest.strip_prefix('.') {
                let n = r.bytes().take_while(|c| ident(*c)).count();
                Some(&r[..n]).filter(|k| !k.is_empty())
            } else if let Some(r) = rest.strip_prefix("[\"") {
                r.split_once("\"]").map(|(k, _)| k).filter(|k| k.bytes().all(ident))
            } else if src[..i].trim_end().ends_with("object.get(") {
                rest.strip_prefix(", \"").and_then(|r| r.split_once('"')).map(|(k, _)| k).filter(|k| k.bytes().all(ident))
            } else {
                None
            };
            let key = key?;
            if !keys.iter().any(|k| k == key) {
                keys.push(key.to_string());
            }
        }
    }
    Some(keys)
}

/// The plan as the engine's value, with only its top-level `keys` (each
/// converted on its own: the others are never built).
fn pruned_input(plan_json: &str, keys: &[String]) -> anyhow::Result<regorus::Value> {
    let top: std::collections::BTreeMap<String, &serde_json::value::RawValue> = serde_json::from_str(plan_json)?;
    let mut out = regorus::Value::new_object();
    let map = out.as_object_mut()?;
    for (k, raw) in top {
        if keys.contains(&k) {
            map.insert(regorus::Value::from(k.as_str()), regorus::Value::from_json_str(raw.get())?);
        }
    }
    Ok(out)
}

/// How one policy test ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The rule is true.
    Pass,
    /// The rule is false or undefined (its body failed).
    Fail,
    /// It could not be evaluated (the message).
    Error(String),
}

/// One `test_` rule and its outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TestResult {
    pub rule: RuleRef,
    pub outcome: Outcome,
}

/// Run the policies' `test_` rules, as `opa test` and `conftest verify` do:
/// every `.rego` file of `paths`, `*_test.rego` included; every package, or
/// those `--namespace` names (globs). A test passes when its rule is true.
/// Policies that do not load are an error; no test at all is an error.
pub(crate) fn verify(paths: &[PathBuf], opts: &RegoOptions) -> Result<Vec<TestResult>, InputError> {
    let (mut engine, _files, sources) = engine_with(paths, opts, true)?;
    let mut packages: Vec<String> = Vec::new();
    for (_, p, _) in &sources {
        if !packages.contains(p) {
            packages.push(p.clone());
        }
    }
    let selected = if opts.namespaces.is_empty() {
        packages.clone()
    } else {
        select_namespaces(&packages, opts).into_iter().filter(|n| packages.contains(n)).collect()
    };
    let mut tests: Vec<RuleRef> = Vec::new();
    for (file, package, text) in sources.iter().filter(|s| selected.contains(&s.1)) {
        for (word, line, column) in candidates(text) {
            if word.starts_with("test_")
                && !tests.iter().any(|t| &t.namespace == package && t.name == word)
                && engine.has_declared_rule_rooted_at(file, &word).unwrap_or(false)
            {
                tests.push(RuleRef { namespace: package.clone(), name: word, kind: Kind::Failure, file: file.clone(), line, column });
            }
        }
    }
    if tests.is_empty() {
        let all = paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ");
        return Err(InputError::new(&all, "no test_ rule to run (tests are rules named test_..., usually in *_test.rego files)"));
    }
    Ok(tests
        .into_iter()
        .map(|rule| {
            let outcome = match engine.eval_rule(rule.query()) {
                Ok(regorus::Value::Bool(true)) => Outcome::Pass,
                Ok(_) => Outcome::Fail,
                Err(e) => {
                    let err = engine_error(&rule.file, &e);
                    Outcome::Error(format!("{}: {}", err.location(), err.message))
                }
            };
            TestResult { rule, outcome }
        })
        .collect())
}

/// The members of a set or array (nothing for other values).
fn elements(v: &regorus::Value) -> Vec<&regorus::Value> {
    match v {
        regorus::Value::Set(s) => s.iter().collect(),
        regorus::Value::Array(a) => a.iter().collect(),
        _ => Vec::new(),
    }
}

fn type_name(v: &regorus::Value) -> &'static str {
    match v {
        regorus::Value::Null => "null",
        regorus::Value::Bool(_) => "a boolean",
        regorus::Value::Number(_) => "a number",
        regorus::Value::String(_) => "a string",
        regorus::Value::Array(_) => "an array",
        regorus::Value::Set(_) => "a set",
        regorus::Value::Object(_) => "an object",
        regorus::Value::Undefined => "undefined",
    }
}

fn json_type(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str, files: &[(&str, &str)]) -> PathBuf {
        let d = std::env::temp_dir().join(format!("planview-rego-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        for (f, text) in files {
            let p = d.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        d
    }

    #[test]
    fn rule_names_follow_conftest_patterns() {
        assert_eq!(kind_of("deny"), Some(Kind::Failure));
        assert_eq!(kind_of("deny_public_bucket"), Some(Kind::Failure));
        assert_eq!(kind_of("violation_x_2"), Some(Kind::Failure));
        assert_eq!(kind_of("warn"), Some(Kind::Warning));
        assert_eq!(kind_of("warn_tags"), Some(Kind::Warning));
        for no in ["denyx", "deny_", "deny__x", "warning", "allow", "deny-x", "xdeny"] {
            assert_eq!(kind_of(no), None, "{no}");
        }
        assert_eq!(exception_name("deny_public"), "public");
        assert_eq!(exception_name("deny"), "");
    }

    #[test]
    fn strings_and_objects_with_msg_are_findings() {
        let d = dir(
            "basic",
            &[(
                "p.rego",
                "package main\n\ndeny contains msg if {\n  some rc in input.resource_changes\n  msg := sprintf(\"%s is denied\", [rc.address])\n}\n\nwarn_x contains {\"msg\": \"look\", \"address\": \"a.b\", \"_loc\": 1} if true\n",
            )],
        );
        let p = RegoPolicy::load(std::slice::from_ref(&d), &RegoOptions::default()).unwrap();
        assert_eq!(p.rules.iter().map(|r| r.name.as_str()).collect::<Vec<_>>(), ["deny", "warn_x"]);
        assert_eq!((p.rules[0].line, p.rules[0].column), (3, 1));
        let f = p.evaluate(r#"{"resource_changes":[{"address":"x.y"}]}"#).unwrap();
        assert_eq!(f.len(), 2);
        assert_eq!(f[0].msg, "x.y is denied");
        assert_eq!(f[0].details, None);
        assert_eq!(f[1].msg, "look");
        assert_eq!(f[1].details.as_ref().unwrap().get("address").unwrap(), "a.b");
        assert!(!f[1].details.as_ref().unwrap().contains_key("_loc"));
    }

    #[test]
    fn parse_errors_name_file_line_and_column() {
        let d = dir("parse", &[("bad.rego", "package main\n\ndeny contains msg if {\n  msg := \n}\n")]);
        let e = RegoPolicy::load(std::slice::from_ref(&d), &RegoOptions::default()).unwrap_err();
        assert!(e.file.ends_with("bad.rego"), "{e}");
        assert_eq!((e.line, e.column), (Some(4), Some(7)), "{e}");
        assert!(e.message.contains("expecting"), "{e}");
        assert!(e.message.starts_with("invalid Rego: "), "{e}");
    }

    #[test]
    fn v0_syntax_needs_the_flag() {
        let d = dir("v0", &[("old.rego", "package main\n\ndeny[msg] {\n  msg := \"no\"\n}\n")]);
        assert!(RegoPolicy::load(std::slice::from_ref(&d), &RegoOptions::default()).is_err());
        let p = RegoPolicy::load(std::slice::from_ref(&d), &RegoOptions { v0: true, ..Default::default() }).unwrap();
        assert_eq!(p.evaluate("{}").unwrap()[0].msg, "no");
    }

    #[test]
    fn a_boolean_deny_or_a_bad_result_is_an_error_naming_the_rule() {
        let d = dir("bool", &[("b.rego", "package main\n\ndeny if true\n")]);
        let p = RegoPolicy::load(std::slice::from_ref(&d), &RegoOptions::default()).unwrap();
        let e = p.evaluate("{}").unwrap_err();
        assert!(e.message.contains("data.main.deny") && e.message.contains("boolean"), "{e}");
        assert_eq!(e.line, Some(3));
        let d = dir("num", &[("n.rego", "package main\n\nwarn contains 7 if true\n")]);
        let e = RegoPolicy::load(std::slice::from_ref(&d), &RegoOptions::default()).unwrap().evaluate("{}").unwrap_err();
        assert!(e.message.contains("data.main.warn returned a number"), "{e}");
        let d = dir("nomsg", &[("n.rego", "package main\n\nwarn contains {\"m\": 1} if true\n")]);
        let e = RegoPolicy::load(std::slice::from_ref(&d), &RegoOptions::default()).unwrap().evaluate("{}").unwrap_err();
        assert!(e.message.contains("without `msg`"), "{e}");
    }

    #[test]
    fn namespaces_default_to_main_and_take_globs() {
        let d = dir(
            "ns",
            &[
                ("a.rego", "package terraform.aws\n\ndeny contains \"aws\" if true\n"),
                ("b.rego", "package terraform.gcp\n\ndeny contains \"gcp\" if true\n"),
                ("lib/c.rego", "package lib\n\nx := 1\n"),
                ("c_test.rego", "package main\n\ntest_x if true\n"),
            ],
        );
        let e = RegoPolicy::load(std::slice::from_ref(&d), &RegoOptions::default()).unwrap_err();
        assert!(e.message.contains("no policy is in package main"), "{e}");
        let glob = RegoOptions { namespaces: vec!["terraform.*".into()], ..Default::default() };
        let p = RegoPolicy::load(std::slice::from_ref(&d), &glob).unwrap();
        let msgs: Vec<String> = p.evaluate("{}").unwrap().into_iter().map(|f| f.msg).collect();
        assert_eq!(msgs, ["aws", "gcp"]);
        let all = RegoOptions { all_namespaces: true, ..Default::default() };
        assert_eq!(RegoPolicy::load(std::slice::from_ref(&d), &all).unwrap().rules.len(), 2);
        let only = RegoOptions { namespaces: vec!["lib".into()], ..Default::default() };
        assert!(RegoPolicy::load(std::slice::from_ref(&d), &only).unwrap_err().message.contains("no deny, violation or warn rule"));
    }

    #[test]
    fn an_empty_directory_is_an_error() {
        let d = dir("empty", &[("x_test.rego", "package main\n"), ("readme.md", "")]);
        let e = RegoPolicy::load(std::slice::from_ref(&d), &RegoOptions::default()).unwrap_err();
        assert!(e.message.contains("no .rego file"), "{e}");
    }

    #[test]
    fn data_documents_go_under_data_nested_by_directory() {
        let d = dir(
            "data",
            &[
                ("p/p.rego", "package main\n\ndeny contains data.allowed.types[0] if true\ndeny contains data.sub.limit.name if true\n"),
                ("d/allowed.yaml", "allowed:\n  types: [t2.micro]\n"),
                ("d/sub/limit.json", "{\"limit\": {\"name\": \"ten\"}}"),
            ],
        );
        let o = RegoOptions { data: vec![d.join("d")], ..Default::default() };
        let p = RegoPolicy::load(&[d.join("p")], &o).unwrap();
        let mut msgs: Vec<String> = p.evaluate("{}").unwrap().into_iter().map(|f| f.msg).collect();
        msgs.sort();
        assert_eq!(msgs, ["t2.micro", "ten"]);
    }

    #[test]
    fn exceptions_silence_the_rule_they_name() {
        let d = dir(
            "exc",
            &[("e.rego", "package main\n\ndeny_public contains \"public\" if true\ndeny_other contains \"other\" if true\nexception contains rules if {\n  rules := [\"public\"]\n}\n")],
        );
        let p = RegoPolicy::load(std::slice::from_ref(&d), &RegoOptions::default()).unwrap();
        let msgs: Vec<String> = p.evaluate("{}").unwrap().into_iter().map(|f| f.msg).collect();
        assert_eq!(msgs, ["other"]);
    }

    #[test]
    fn verify_runs_the_test_rules() {
        let d = dir(
            "verify",
            &[
                ("p.rego", "package main\n\ndeny contains \"x\" if input.x\n"),
                (
                    "p_test.rego",
                    "package main\n\ntest_denied if {\n  count(deny) == 1 with input as {\"x\": true}\n}\n\ntest_wrong if {\n  count(deny) == 2 with input as {\"x\": true}\n}\n",
                ),
            ],
        );
        let r = verify(std::slice::from_ref(&d), &RegoOptions::default()).unwrap();
        let got: Vec<(&str, &Outcome)> = r.iter().map(|t| (t.rule.name.as_str(), &t.outcome)).collect();
        assert_eq!(got, [("test_denied", &Outcome::Pass), ("test_wrong", &Outcome::Fail)]);
        let none = dir("verify-none", &[("p.rego", "package main\n\ndeny contains \"x\" if true\n")]);
        assert!(verify(std::slice::from_ref(&none), &RegoOptions::default()).unwrap_err().message.contains("no test_ rule"));
    }

    #[test]
    fn only_the_top_level_keys_policies_name_are_given() {
        let keys = |src: &str| input_keys(std::iter::once(src));
        let named = "some rc in input.resource_changes\nx := input[\"variables\"]\ny := object.get(input, \"resource_drift\", [])\nz := my_input.a\n";
        assert_eq!(keys(named), Some(vec!["resource_changes".to_string(), "variables".into(), "resource_drift".into()]));
        for whole in ["x := input", "walk(input, [p, v])", "input[k]", "msg := \"bad input\"", "import input\n", "input.\"a\""] {
            assert_eq!(keys(whole), None, "{whole}");
        }
        let d = dir(
            "pruned",
            &[("p.rego", "package main\n\ndeny contains rc.address if {\n  some rc in input.resource_changes\n}\n\ndeny contains \"prior\" if input.prior_state\n")],
        );
        let p = RegoPolicy::load(std::slice::from_ref(&d), &RegoOptions::default()).unwrap();
        assert_eq!(p.input_keys.as_deref(), Some(&["resource_changes".to_string(), "prior_state".into()][..]));
        let plan = r#"{"format_version":"1.2","planned_values":{"huge":[1,2,3]},"resource_changes":[{"address":"a.b"}],"prior_state":{}}"#;
        let msgs: Vec<String> = p.evaluate(plan).unwrap().into_iter().map(|f| f.msg).collect();
        assert_eq!(msgs, ["a.b", "prior"], "the keys named are given whole");
        let helper = r#"{"planview":{"changes":[{"address":"x.y"}]}}"#;
        let d = dir("helper", &[("h.rego", "package main\n\ndeny contains c.address if {\n  some c in data.planview.changes\n}\n")]);
        let p = RegoPolicy::load(std::slice::from_ref(&d), &RegoOptions::default()).unwrap();
        assert!(p.uses_helper);
        assert_eq!(p.input_keys.as_deref(), Some(&[][..]), "no input at all");
        assert_eq!(p.evaluate_with("{}", Some(helper)).unwrap()[0].msg, "x.y");
        assert!(p.evaluate("{}").unwrap().is_empty(), "data.planview is per plan, not kept");
    }

    #[test]
    fn a_runaway_evaluation_is_stopped() {
        let d = dir(
            "slow",
            &[("s.rego", "package main\n\ndeny contains msg if {\n  n := count([x | some a in numbers.range(1, 3000); some b in numbers.range(1, 3000); x := a * b])\n  msg := sprintf(\"%d\", [n])\n}\n")],
        );
        let o = RegoOptions { timeout: Duration::from_millis(200), ..Default::default() };
        let p = RegoPolicy::load(std::slice::from_ref(&d), &o).unwrap();
        let e = p.evaluate("{}").unwrap_err();
        assert!(e.message.contains("could not be evaluated") && e.message.contains("time"), "{e}");
    }
}
