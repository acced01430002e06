//! A generator of arbitrary but well-formed plans and states, shared by the
//! property tests (`tests/it/properties.rs`) and the structure-aware fuzz target
//! (`fuzz/fuzz_targets/every_command.rs`).
//!
//! It draws from `arbitrary::Unstructured`, so the same bytes always give the
//! same document. Strings come from a palette of hostile text (ESC sequences,
//! OSC 8 links, OSC 52 clipboard writes, CR, C1, bidi overrides, markdown and
//! HTML) mixed with arbitrary strings. Every sensitive value is a unique
//! marker (`ZQSECRET<n>...`), put in a place the format marks, then copied
//! into unmarked places (whole, or inside a connection string), so a test can
//! check that no marker reaches the output. The generator also counts what
//! the CLI's `Plan:` line must say, and decides what the default gate must
//! say, independently of planview's code.
//!
//! The second half runs planview in-process on such documents (and on raw
//! bytes) and checks every output: [`check_generated`], [`check_raw_bytes`].
#![allow(dead_code)]

use arbitrary::{Result, Unstructured};
use serde_json::{json, Map, Value};

/// Text that must never reach a terminal raw.
pub const HOSTILE: &[&str] = &[
    "\u{1b}[31mred\u{1b}[0m",
    "\u{1b}]8;;https://evil.example/\u{7}click\u{1b}]8;;\u{7}",
    "\u{1b}]52;c;cm0gLXJmIH4=\u{7}",
    "\u{1b}]0;title\u{1b}\\",
    "line\rOVERWRITE",
    "\u{9b}31mcsi",
    "\u{202e}gpj.exe",
    "\u{2066}iso\u{2069}",
    "del\u{7f}",
    "nul\u{0}bell\u{7}bs\u{8}",
    "tab\there\nnewline",
    "a|b<script>alert(1)</script>*_`[x](y)`",
    "ünïcödé ✓",
    "",
];

/// A document the generator made, with what tests need to know about it.
#[derive(Debug, Clone)]
pub struct Generated {
    pub json: String,
    /// Every sensitive value (all 8+ characters, unique markers).
    pub secrets: Vec<String>,
    /// Every form derived from a secret that the document holds unmarked
    /// (base64, a Basic header, URL encoding, case, hex, digests): printed
    /// by no command either.
    pub forms: Vec<String>,
    pub is_plan: bool,
    /// What the CLI's `Plan:` line counts: import, add, change, destroy, forget.
    pub totals: [u64; 5],
    /// What the default gate must decide: it fails on a destroying change of
    /// anything but a data source, on an action list planview does not
    /// recognise, and on an errored plan.
    pub gate_fails: bool,
    /// resource_changes entries.
    pub changes: u64,
}

struct Gen<'u, 'a> {
    u: &'u mut Unstructured<'a>,
    secrets: Vec<String>,
    forms: Vec<String>,
}

/// `b` in base64 (standard alphabet, or URL-safe), padded or not.
fn base64(b: &[u8], url: bool, pad: bool) -> String {
    let alphabet: &[u8] = if url {
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    } else {
        b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    };
    let mut out = String::new();
    for c in b.chunks(3) {
        let n = (u32::from(c[0]) << 16) | (u32::from(*c.get(1).unwrap_or(&0)) << 8) | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= c.len() {
                out.push(alphabet[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

/// The forms of a secret a configuration derives with Terraform's functions,
/// each as a value would hold it (some inside a longer string).
pub fn derived_copies(s: &str) -> Vec<String> {
    let hex: String = s.bytes().map(|b| format!("{b:02x}")).collect();
    let mut v = vec![
        base64(s.as_bytes(), false, true),
        base64(s.as_bytes(), true, false),
        format!("Basic {}", base64(format!("admin:{s}").as_bytes(), false, true)),
        format!("Bearer {}", base64(format!("u{s}@h").as_bytes(), true, true)),
        s.to_lowercase(),
        format!("ID {}", s.to_uppercase()),
        hex.clone(),
        hex.to_uppercase(),
    ];
    // md5, sha1, sha256, sha512 in hex, and sha256/sha512 in base64
    // (`base64sha256`): taken from the digests planview computes, by length.
    let digests: Vec<String> = planview::testkit::derive::forms(s)
        .into_iter()
        .filter(|f| {
            [32, 40, 64, 128].contains(&f.len()) && f.bytes().all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()) && *f != hex
        })
        .collect();
    v.extend(digests);
    v
}

include!("actions.rs");

/// Action lists no version knows (drawn as often as each recognised one).
const UNRECOGNISED: &[&[&str]] =
    &[&["create", "teleport"], &["delete", "explode"], &["create", "forget"], &[], &["wipe"], &["\u{1b}[2Jwipe"]];

/// Expectations counted while generating.
#[derive(Debug, Default)]
struct Expect {
    totals: [u64; 5],
    gate_fails: bool,
}

const REASONS: &[&str] = &[
    "replace_because_tainted",
    "replace_because_cannot_update",
    "replace_by_request",
    "replace_by_triggers",
    "delete_because_no_resource_config",
    "read_because_config_unknown",
    "\u{1b}]8;;http://x\u{7}reason",
];

impl<'u, 'a> Gen<'u, 'a> {
    fn text(&mut self) -> Result<String> {
        Ok(match self.u.int_in_range(0..=3)? {
            0 => String::arbitrary_take(self.u)?,
            1 => format!("{}{}", self.u.choose(HOSTILE)?, self.u.int_in_range(0..=99u8)?),
            _ => self.u.choose(HOSTILE)?.to_string(),
        })
    }

    fn secret(&mut self) -> Result<String> {
        let n = self.secrets.len();
        let tail: u32 = self.u.arbitrary()?;
        let s = format!("ZQSECRET{n}x{tail:08x}");
        self.secrets.push(s.clone());
        Ok(s)
    }

    fn number(&mut self) -> Result<Value> {
        let text = *self.u.choose(&["1", "-0.5", "18446744073709551616", "9007199254740993", "1e400", "0"])?;
        Ok(serde_json::from_str(text).unwrap_or(Value::Null))
    }

    /// An action list, recognised or not.
    fn actions(&mut self) -> Result<&'static [&'static str]> {
        let i = self.u.choose_index(RECOGNISED.len() + UNRECOGNISED.len())?;
        Ok(RECOGNISED.get(i).copied().unwrap_or_else(|| UNRECOGNISED[i - RECOGNISED.len()]))
    }

    /// A value and its sensitivity marker. Marked parts hold fresh secrets.
    fn value(&mut self, depth: u32) -> Result<(Value, Value)> {
        let pick = if depth > 2 { self.u.int_in_range(0..=4)? } else { self.u.int_in_range(0..=7)? };
        Ok(match pick {
            0 => (Value::String(self.text()?), Value::Bool(false)),
            1 => (Value::String(self.secret()?), Value::Bool(true)),
            2 => (self.number()?, Value::Bool(false)),
            3 => (Value::Bool(self.u.arbitrary()?), Value::Bool(false)),
            // An earlier secret copied into an unmarked place (terraform_data
            // input -> output), whole or inside a connection string.
            4 => match self.secrets.is_empty() {
                true => (Value::Null, Value::Bool(false)),
                false => {
                    let s = self.u.choose(&self.secrets)?.clone();
                    match self.u.int_in_range(0..=3)? {
                        0 => (Value::String(s), Value::Bool(false)),
                        1 => (Value::String(format!("postgres://admin:{s}@db.internal:5432/app")), Value::Bool(false)),
                        // A form derived from it (issue 32).
                        _ => {
                            let copies = derived_copies(&s);
                            let c = self.u.choose(&copies)?.clone();
                            // Looked for without the text around it (`Basic `, `ID `).
                            self.forms.push(c.rsplit(' ').next().unwrap_or(&c).to_string());
                            (Value::String(c), Value::Bool(false))
                        }
                    }
                }
            },
            5 => {
                let mut o = Map::new();
                let mut m = Map::new();
                for _ in 0..self.u.int_in_range(0..=3)? {
                    let k = unique_key(&o, self.text()?);
                    let (v, mk) = self.value(depth + 1)?;
                    o.insert(k.clone(), v);
                    if mk != Value::Bool(false) {
                        m.insert(k, mk);
                    }
                }
                (Value::Object(o), Value::Object(m))
            }
            6 => {
                let mut a = Vec::new();
                let mut m = Vec::new();
                for _ in 0..self.u.int_in_range(0..=3)? {
                    let (v, mk) = self.value(depth + 1)?;
                    a.push(v);
                    m.push(mk);
                }
                (Value::Array(a), Value::Array(m))
            }
            // A whole object marked sensitive.
            _ => {
                let mut o = Map::new();
                o.insert("user".into(), Value::String(self.secret()?));
                o.insert("password".into(), Value::String(self.secret()?));
                (Value::Object(o), Value::Bool(true))
            }
        })
    }

    /// An attribute map and its marker.
    fn attrs(&mut self) -> Result<(Value, Value)> {
        let mut o = Map::new();
        let mut m = Map::new();
        for i in 0..self.u.int_in_range(0..=4)? {
            let k = if self.u.arbitrary()? { format!("attr{i}") } else { self.text()? };
            let k = unique_key(&o, k);
            let (v, mk) = self.value(0)?;
            o.insert(k.clone(), v);
            m.insert(k, mk);
        }
        Ok((Value::Object(o), Value::Object(m)))
    }

    /// An address, its type and name, and its module (if any).
    fn address(&mut self, i: usize) -> Result<(String, String, String, Option<String>)> {
        let ty = if self.u.arbitrary()? { "terraform_data".to_string() } else { self.text()? };
        let name = if self.u.arbitrary()? { format!("r{i}") } else { self.text()? };
        let module = match self.u.int_in_range(0..=5)? {
            0 => Some(format!("module.{}", self.text()?)),
            1 => Some("module.net[\"a\"].module.sub[0]".to_string()),
            _ => None,
        };
        let index = match self.u.int_in_range(0..=5)? {
            0 => format!("[{}]", self.u.int_in_range(0..=3u8)?),
            1 => format!("[{}]", serde_json::to_string(&self.text()?).unwrap_or_default()),
            _ => String::new(),
        };
        let local = format!("{ty}.{name}{index}");
        let address = match &module {
            Some(m) => format!("{m}.{local}"),
            None => local,
        };
        Ok((address, ty, name, module))
    }

    fn change(&mut self, i: usize, expect: &mut Expect) -> Result<Value> {
        let (address, ty, name, module) = self.address(i)?;
        let actions = self.actions()?;
        let mode = *self.u.choose(&["managed", "managed", "data", "\u{1b}[5mweird"])?;
        // A data source's address says so (`data.TYPE.NAME`): planview judges
        // a `"data"` mode on any other address as managed (issue 32).
        let (address, module) = match mode {
            "data" => {
                let module = module.filter(|m| m == "module.net[\"a\"].module.sub[0]");
                let local = format!("data.terraform_remote_state.d{i}");
                (module.as_ref().map_or(local.clone(), |m| format!("{m}.{local}")), module)
            }
            _ => (address, module),
        };
        let importing = self.u.ratio(1, 5)?;
        if (mode != "data" && actions.contains(&"delete")) || !RECOGNISED.contains(&actions) {
            expect.gate_fails = true;
        }
        let totals = &mut expect.totals;
        if mode == "managed" {
            if importing {
                totals[0] += 1;
            }
            match actions {
                ["create"] => totals[1] += 1,
                ["update"] => totals[2] += 1,
                ["delete"] => totals[3] += 1,
                ["delete", "create"] | ["create", "delete"] => {
                    totals[1] += 1;
                    totals[3] += 1;
                }
                ["forget"] => totals[4] += 1,
                ["forget", "create"] | ["create", "forget"] => {
                    totals[4] += 1;
                    totals[1] += 1;
                }
                _ => {}
            }
        }
        let (before, before_sensitive) = self.attrs()?;
        let (after, after_sensitive) = self.attrs()?;
        let mut change = json!({
            "actions": actions,
            "before": before, "after": after,
            "before_sensitive": before_sensitive, "after_sensitive": after_sensitive,
            "after_unknown": {},
        });
        if importing {
            change["importing"] = json!({"id": self.text()?});
        }
        let mut rc = json!({
            "address": address, "mode": mode, "type": ty, "name": name,
            "provider_name": "registry.terraform.io/hashicorp/\u{1b}[31mp",
            "change": change,
        });
        if let Some(m) = module {
            rc["module_address"] = json!(m);
        }
        if self.u.ratio(1, 4)? {
            rc["action_reason"] = json!(self.u.choose(REASONS)?);
        }
        if self.u.ratio(1, 5)? {
            rc["previous_address"] = json!(self.text()?);
        }
        if self.u.ratio(1, 8)? {
            rc["deposed"] = json!(self.text()?);
        }
        Ok(rc)
    }

    fn resource_values(&mut self, n: usize) -> Result<Value> {
        let mut rs = Vec::new();
        for i in 0..n {
            let (address, ty, name, _) = self.address(i)?;
            let (values, sensitive_values) = self.attrs()?;
            rs.push(json!({"address": address, "mode": "managed", "type": ty, "name": name,
                "provider_name": "p", "values": values, "sensitive_values": sensitive_values,
                "tainted": self.u.ratio(1, 6)?}));
        }
        Ok(Value::Array(rs))
    }

    fn outputs(&mut self) -> Result<Value> {
        let mut o = Map::new();
        for _ in 0..self.u.int_in_range(0..=3)? {
            let name = unique_key(&o, self.text()?);
            let sensitive: bool = self.u.arbitrary()?;
            // An output is marked as a whole: one holding a fresh secret is
            // sensitive. A sensitive one gets a fresh secret, drawn alone: a
            // value drawn and then dropped would leave its secrets only in
            // later unmarked copies (found by every_command).
            let (value, sensitive) = if sensitive {
                (Value::String(self.secret()?), true)
            } else {
                let (value, marker) = self.value(1)?;
                let marked = marks_any(&marker);
                (value, marked)
            };
            o.insert(name, json!({"value": value, "type": "string", "sensitive": sensitive}));
        }
        Ok(Value::Object(o))
    }

    fn checks(&mut self) -> Result<Value> {
        let mut cs = Vec::new();
        for _ in 0..self.u.int_in_range(0..=3)? {
            let status = *self.u.choose(&["pass", "fail", "error", "unknown", "flaky", "\u{1b}[31mflaky"])?;
            cs.push(json!({
                "address": {"kind": *self.u.choose(&["resource", "check", "output_value", "var", "\u{9b}x"])?,
                            "to_display": self.text()?},
                "status": status,
                "instances": [{"address": {"to_display": self.text()?}, "status": status,
                               "problems": [{"message": self.text()?}]}],
            }));
        }
        Ok(Value::Array(cs))
    }

    fn plan(&mut self) -> Result<(Value, Expect, u64)> {
        let mut expect = Expect::default();
        let n = self.u.int_in_range(0..=8)?;
        let mut changes = Vec::new();
        for i in 0..n {
            changes.push(self.change(i, &mut expect)?);
        }
        let mut drift = Vec::new();
        for i in 0..self.u.int_in_range(0..=2)? {
            drift.push(self.change(i, &mut Expect::default())?);
        }
        let errored = self.u.ratio(1, 6)?;
        expect.gate_fails |= errored;
        let mut output_changes = Map::new();
        for _ in 0..self.u.int_in_range(0..=3)? {
            let name = unique_key(&output_changes, self.text()?);
            let (after, after_sensitive) = self.value(1)?;
            let actions = self.actions()?;
            output_changes.insert(
                name,
                json!({"actions": actions, "before": null, "after": after,
                "after_unknown": false, "before_sensitive": false, "after_sensitive": after_sensitive}),
            );
        }
        let secret_var = self.secret()?;
        let plain = self.text()?;
        // A sensitive variable equal to a resource type of the plan (Terraform
        // allows it; a PR author can declare one): addresses and types are
        // public and must still be printed as they are.
        let collide = changes.first().and_then(|c| c["type"].as_str()).unwrap_or("terraform_data").to_string();
        let n_pv = self.u.int_in_range(0..=3)?;
        let pv_resources = self.resource_values(n_pv)?;
        let n_prior = self.u.int_in_range(0..=3)?;
        let prior_resources = self.resource_values(n_prior)?;
        let pv_outputs = self.outputs()?;
        let prior_outputs = self.outputs()?;
        let plan = json!({
            "format_version": "1.2",
            "terraform_version": self.text()?,
            "variables": {"db_password": {"value": secret_var}, "plain": {"value": plain}, "collide": {"value": collide}},
            "planned_values": {"outputs": pv_outputs, "root_module": {"resources": pv_resources}},
            "resource_drift": drift,
            "resource_changes": changes,
            "output_changes": output_changes,
            "prior_state": {"format_version": "1.0", "values": {"outputs": prior_outputs, "root_module": {"resources": prior_resources}}},
            "configuration": {"root_module": {"variables": {"db_password": {"sensitive": true}, "plain": {}, "collide": {"sensitive": true}}}},
            "checks": self.checks()?,
            "errored": errored,
        });
        Ok((plan, expect, n as u64))
    }

    fn state(&mut self) -> Result<Value> {
        let n = self.u.int_in_range(0..=5)?;
        let resources = self.resource_values(n)?;
        Ok(json!({
            "format_version": "1.0",
            "terraform_version": self.text()?,
            "values": {"outputs": self.outputs()?, "root_module": {"resources": resources,
                "child_modules": [{"address": self.text()?, "resources": self.resource_values(1)?}]}},
            "checks": self.checks()?,
        }))
    }
}

/// `k`, or `k` with a suffix when `m` has it already: a value replaced under
/// a duplicate key would take its secret's marker with it, leaving the secret
/// only in unmarked copies (not a secret any more).
fn unique_key(m: &Map<String, Value>, k: String) -> String {
    let mut key = k.clone();
    let mut n = 1;
    while m.contains_key(&key) {
        key = format!("{k}#{n}");
        n += 1;
    }
    key
}

fn marks_any(marker: &Value) -> bool {
    match marker {
        Value::Bool(b) => *b,
        Value::Array(a) => a.iter().any(marks_any),
        Value::Object(o) => o.values().any(marks_any),
        _ => false,
    }
}

trait TakeString {
    fn arbitrary_take(u: &mut Unstructured<'_>) -> Result<String>;
}

impl TakeString for String {
    /// A short arbitrary string (any Unicode, controls included).
    fn arbitrary_take(u: &mut Unstructured<'_>) -> Result<String> {
        let n = u.int_in_range(0..=12)?;
        let mut s = String::new();
        for _ in 0..n {
            s.push(u.arbitrary::<char>()?);
        }
        Ok(s)
    }
}

/// Build a plan or a state from `u`.
pub fn generate(u: &mut Unstructured<'_>) -> Result<Generated> {
    let mut g = Gen { u, secrets: Vec::new(), forms: Vec::new() };
    let is_plan = g.u.ratio(4, 5)?;
    let (doc, expect, changes) = if is_plan { g.plan()? } else { (g.state()?, Expect::default(), 0) };
    Ok(Generated {
        json: serde_json::to_string_pretty(&doc).unwrap_or_default(),
        secrets: g.secrets,
        forms: g.forms,
        is_plan,
        totals: expect.totals,
        gate_fails: expect.gate_fails,
        changes,
    })
}

/// The first secret found in `output`, if any.
pub fn leaked<'s>(output: &[u8], secrets: &'s [String]) -> Option<&'s str> {
    let text = String::from_utf8_lossy(output);
    secrets.iter().find(|s| text.contains(s.as_str())).map(String::as_str)
}

// ------------------------------------------------------------------ running

/// Commands that do not read documents.
const NOT_READERS: &[&str] = &["help", "completions", "man"];

/// Where saved plans would be sent: nowhere. Bytes that look like a zip
/// archive must not start a real `terraform show` in a fuzz loop.
const NO_TF_BIN: &str = "/nonexistent/planview-fuzz-no-tf";

/// One subcommand as clap defines it: its name, the values its `--format`
/// takes, and which of the shared flags it has.
#[derive(Debug, Clone)]
pub struct Command {
    pub name: String,
    pub formats: Vec<String>,
    pub color: bool,
    pub show_sensitive: bool,
    pub lenient: bool,
    pub tf_bin: bool,
    /// Compares two plans (`OLD NEW`): given the file as both.
    pub pair: bool,
}

/// The subcommands that read documents (from planview's clap definition, so
/// a new command is checked without editing this list), with their formats.
pub fn commands() -> Vec<Command> {
    use clap::CommandFactory;
    planview::cli::Cli::command()
        .get_subcommands()
        .filter(|c| !NOT_READERS.contains(&c.get_name()))
        .map(|c| {
            let has = |id: &str| c.get_arguments().any(|a| a.get_id() == id);
            let formats = c
                .get_arguments()
                .find(|a| a.get_id() == "format")
                .map(|a| a.get_possible_values().iter().map(|v| v.get_name().to_string()).collect())
                .unwrap_or_default();
            Command {
                name: c.get_name().to_string(),
                formats,
                color: has("color"),
                show_sensitive: has("show_sensitive"),
                lenient: has("lenient"),
                tf_bin: has("tf_bin"),
                pair: has("old") && has("new"),
            }
        })
        .collect()
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Exit 0.
    Success,
    /// Exit 1 (a gate or check failed).
    Failed,
    /// Exit 2, with the exit code planview maps the error to.
    Error(i32),
    /// The arguments were refused (a combination this harness should not make).
    Usage(String),
}

/// What one run printed, and how it ended.
#[derive(Debug)]
pub struct Run {
    pub args: Vec<String>,
    pub out: Vec<u8>,
    pub diag: Vec<u8>,
    pub outcome: Outcome,
}

impl Run {
    fn what(&self) -> String {
        self.args[1..].join(" ")
    }
}

/// Run planview in-process as the binary does: parse `args` with clap, make
/// the config, run; an error is printed on `diag` through `sanitize::text`,
/// as `main.rs` prints it.
pub fn run_args(args: &[String]) -> Run {
    use clap::Parser;
    let (mut out, mut diag) = (Vec::new(), Vec::new());
    let cli = match planview::cli::Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => return Run { args: args.to_vec(), out, diag, outcome: Outcome::Usage(e.to_string()) },
    };
    let config = match cli.into_config(&planview::cli::Env::default()) {
        Ok(c) => c,
        Err(m) => return Run { args: args.to_vec(), out, diag, outcome: Outcome::Usage(m) },
    };
    let outcome = match planview::run(&config, &mut out, &mut diag) {
        Ok(planview::Status::Success) => Outcome::Success,
        Ok(planview::Status::Failed) => Outcome::Failed,
        Err(e) => {
            diag.extend_from_slice(planview::sanitize::text(&e.to_string()).as_bytes());
            diag.push(b'\n');
            Outcome::Error(e.exit_code())
        }
    };
    Run { args: args.to_vec(), out, diag, outcome }
}

/// The arguments for `cmd` in `format` on `file`, colour off.
pub fn args_for(cmd: &Command, format: &str, file: &str, extra: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = vec!["planview".into(), cmd.name.clone()];
    if !format.is_empty() {
        a.extend(["--format".into(), format.into()]);
    }
    if cmd.color {
        a.extend(["--color".into(), "never".into()]);
    }
    if cmd.tf_bin {
        a.extend(["--tf-bin".into(), NO_TF_BIN.into()]);
    }
    a.extend(extra.iter().map(|s| s.to_string()));
    if cmd.pair {
        a.push(file.into());
    }
    a.push(file.into());
    a
}

/// True for the formats whose output is one JSON document.
pub fn is_json(format: &str) -> bool {
    matches!(format, "json" | "tf-json")
}

/// The checks every run passes: no panic (the caller's), the arguments were
/// accepted, no terminal hazard on stdout or diagnostics (colour is off), an
/// exit code in the contract, and JSON output that parses.
fn check_run(r: &Run, format: &str) -> std::result::Result<Option<Value>, String> {
    use planview::sanitize::terminal_hazard;
    if let Outcome::Usage(m) = &r.outcome {
        return Err(format!("{}: arguments refused: {m}", r.what()));
    }
    if let Outcome::Error(code) = r.outcome {
        if code != 2 {
            return Err(format!("{}: an error exits {code}, not 2", r.what()));
        }
    }
    for (what, bytes) in [("stdout", &r.out), ("diagnostics", &r.diag)] {
        if let Some(h) = terminal_hazard(bytes, false) {
            return Err(format!("{}: {what}: {h}", r.what()));
        }
    }
    if is_json(format) && !r.out.is_empty() {
        let v: Value = serde_json::from_slice(&r.out).map_err(|e| format!("{}: JSON output does not parse: {e}", r.what()))?;
        return Ok(Some(v));
    }
    Ok(None)
}

/// Every document-reading subcommand in every format it accepts over the
/// generated document in `file`, colour off:
/// - no terminal hazard on stdout or diagnostics, JSON outputs parse;
/// - no secret in any output (and none but with `--show-sensitive`);
/// - `summary --format json` totals equal the generator's direct count, and
///   its `actions` count every change;
/// - the default gate's verdict and exit status are what the generator
///   decided, and a plan whose totals destroy something never passes it.
pub fn check_generated(g: &Generated, file: &str) -> std::result::Result<(), String> {
    // Every failure, not just the first: one input shows every bug it hits.
    let mut errors = Vec::new();
    for cmd in commands() {
        let formats = if cmd.formats.is_empty() { vec![String::new()] } else { cmd.formats.clone() };
        for format in &formats {
            if let Err(e) = check_one(g, &cmd, format, file) {
                errors.push(e);
            }
        }
        // With --show-sensitive secrets may show; everything else still holds.
        if cmd.show_sensitive {
            let format = if cmd.formats.iter().any(|f| f == "json") { "json" } else { "" };
            if let Err(e) = check_run(&run_args(&args_for(&cmd, format, file, &["--show-sensitive"])), format) {
                errors.push(e);
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("\n"))
    }
}

/// Every string of `v`, keys included.
fn every_string(v: &Value, out: &mut std::collections::BTreeSet<String>) {
    match v {
        Value::String(s) => {
            out.insert(s.clone());
        }
        Value::Array(a) => a.iter().for_each(|x| every_string(x, out)),
        Value::Object(o) => o.iter().for_each(|(k, x)| {
            out.insert(k.clone());
            every_string(x, out)
        }),
        _ => {}
    }
}

/// The strings held under `key` anywhere in `v`.
fn strings_under(v: &Value, key: &str, out: &mut Vec<String>) {
    match v {
        Value::Array(a) => a.iter().for_each(|x| strings_under(x, key, out)),
        Value::Object(o) => o.iter().for_each(|(k, x)| match x {
            Value::String(s) if k == key => out.push(s.clone()),
            _ => strings_under(x, key, out),
        }),
        _ => {}
    }
}

/// [`check_generated`] for one command in one format.
fn check_one(g: &Generated, cmd: &Command, format: &str, file: &str) -> std::result::Result<(), String> {
    let r = run_args(&args_for(cmd, format, file, &[]));
    let json = check_run(&r, format)?;
    for (what, bytes) in [("stdout", &r.out), ("diagnostics", &r.diag)] {
        if let Some(s) = leaked(bytes, &g.secrets).or_else(|| leaked(bytes, &g.forms)) {
            return Err(format!("{}: {what} shows the secret {s}", r.what()));
        }
    }
    // Masking never rewrites an address: every `address` printed is a string
    // of the input as it is (here a sensitive variable equals a resource type).
    // `moves` prints addresses re-quoted for HCL (`\uXXXX` escapes in keys), as
    // its own tests check, so it is left out here.
    if let Some(v) = json.as_ref().filter(|_| cmd.name != "moves") {
        let input: Value = serde_json::from_str(&g.json).map_err(|e| e.to_string())?;
        let mut known = std::collections::BTreeSet::new();
        every_string(&input, &mut known);
        let mut printed = Vec::new();
        strings_under(v, "address", &mut printed);
        if let Some(a) = printed.iter().find(|a| !known.contains(*a)) {
            return Err(format!("{}: prints the address {a:?}, which is not in the input", r.what()));
        }
    }
    if !g.is_plan {
        return Ok(());
    }
    if cmd.name == "summary" && format == "json" {
        let v = json.as_ref().ok_or_else(|| format!("{}: no output for a plan", r.what()))?;
        if r.outcome != Outcome::Success {
            return Err(format!("{}: {:?} on a well-formed plan", r.what(), r.outcome));
        }
        let got = ["import", "add", "change", "destroy", "forget"].map(|k| v["totals"][k].as_u64().unwrap_or(u64::MAX));
        if got != g.totals {
            return Err(format!("summary totals {got:?} differ from a direct count {:?}", g.totals));
        }
        let listed: u64 = v["actions"].as_object().map_or(0, |o| o.values().filter_map(Value::as_u64).sum());
        if listed != g.changes {
            return Err(format!("summary `actions` counts {listed} changes, the plan has {}", g.changes));
        }
    }
    // `comment` ends as the gate does.
    if cmd.name == "gate" || cmd.name == "comment" {
        let want = if g.gate_fails { Outcome::Failed } else { Outcome::Success };
        if r.outcome != want {
            return Err(format!("{}: the default gate ended {:?}, expected {want:?}", r.what(), r.outcome));
        }
        if let Some(v) = &json {
            let verdict = v["verdict"].as_str().unwrap_or_default();
            if verdict != if g.gate_fails { "fail" } else { "pass" } {
                return Err(format!("{}: verdict {verdict:?}, expected fail={}", r.what(), g.gate_fails));
            }
            if g.totals[3] > 0 && verdict == "pass" {
                return Err(format!("the plan destroys {} but the default gate passed", g.totals[3]));
            }
        }
    }
    Ok(())
}

/// A fuzz target's per-process scratch file, in memory when /dev/shm exists.
pub fn fuzz_scratch_file(target: &str) -> std::path::PathBuf {
    let dir = if std::path::Path::new("/dev/shm").is_dir() { "/dev/shm".into() } else { std::env::temp_dir() };
    dir.join(format!("planview-fuzz-{target}-{}.json", std::process::id()))
}

/// Generate from `data`, write the document to `scratch`, check it.
pub fn check_generated_bytes(data: &[u8], scratch: &std::path::Path) -> std::result::Result<(), String> {
    let mut u = Unstructured::new(data);
    let Ok(g) = generate(&mut u) else { return Ok(()) };
    std::fs::write(scratch, &g.json).map_err(|e| e.to_string())?;
    check_generated(&g, &scratch.to_string_lossy()).map_err(|e| keep_failed(scratch, g.json.as_bytes(), e))
}

/// Keep the input of a failed check beside the scratch file, and say where.
fn keep_failed(scratch: &std::path::Path, data: &[u8], e: String) -> String {
    let kept = scratch.with_extension("failed");
    match std::fs::write(&kept, data) {
        Ok(()) => format!("{e}\n(input kept in {})", kept.display()),
        Err(_) => e,
    }
}

/// Arbitrary bytes, written to `scratch`, through `summary` in every format
/// and `show --format json` (the streamed reader and the whole-document
/// reader), strict and `--lenient`: no panic, no terminal hazard on stdout or
/// diagnostics, an error exits 2, JSON output parses. And the streamed summary
/// equals the one computed from the document read whole (same error or same
/// report).
pub fn check_raw_bytes(data: &[u8], scratch: &std::path::Path) -> std::result::Result<(), String> {
    std::fs::write(scratch, data).map_err(|e| e.to_string())?;
    let file = scratch.to_string_lossy();
    let cmds = commands();
    for name in ["summary", "show"] {
        let Some(cmd) = cmds.iter().find(|c| c.name == name) else { continue };
        let formats: &[&str] = if name == "summary" { &["table", "json", "markdown"] } else { &["json"] };
        for format in formats {
            let mut extras: Vec<&[&str]> = vec![&[]];
            if cmd.lenient {
                extras.push(&["--lenient"]);
            }
            for extra in extras {
                check_run(&run_args(&args_for(cmd, format, &file, extra)), format).map_err(|e| keep_failed(scratch, data, e))?;
            }
        }
    }
    streamed_equals_whole(data).map_err(|e| keep_failed(scratch, data, e))
}

/// `summary` and `gate` (the default policy and one with every rule) streamed
/// agree with the same command over the document read whole, strict and `--lenient`.
pub fn streamed_equals_whole(data: &[u8]) -> std::result::Result<(), String> {
    use planview::error::InputError;
    use planview::testkit::query::gate::{DriftPolicy, GateAction, Policy};
    use planview::testkit::query::values::Visibility;
    use planview::testkit::read::{Document, ReadOptions};
    let vis = Visibility { show_sensitive: false, masker: None };
    let strict = Policy {
        deny: vec![GateAction::Replace, GateAction::Import, GateAction::Invoke],
        max: vec![(GateAction::Any, 1), (GateAction::Create, 0)],
        protect: vec![planview::testkit::glob::Glob::new("*.r1*")],
        allow: vec![planview::testkit::glob::Glob::new("module.*")],
        protect_types: vec![planview::testkit::glob::Glob::new("terraform_*")],
        fail_on_checks: true,
        drift: Some(DriftPolicy::Deny),
        ..Policy::default()
    };
    let cursor = || std::io::Cursor::new(data.to_vec());
    let ahead = planview::testkit::read::ReadAhead::Joined;
    for lenient in [false, true] {
        let opts = ReadOptions { lenient, ..Default::default() };
        let how = if lenient { "--lenient" } else { "strict" };
        let whole = || planview::testkit::read::parse_with("fuzz.json", data, &opts);
        let streamed = planview::testkit::summary_streamed("fuzz.json", cursor(), ahead, &opts, &vis).map(|(s, _)| s);
        let read_whole = whole().and_then(|doc| {
            let masker = planview::testkit::secrets::Masker::collect(&doc);
            planview::testkit::query::summary::summarize(&doc, &vis.with(&masker)).map_err(|m| InputError::new("fuzz.json", m))
        });
        same(&format!("{how} summary"), streamed, read_whole)?;
        for (name, policy) in [("default", Policy::default()), ("every-rule", strict.clone())] {
            let streamed = planview::testkit::gate_streamed("fuzz.json", cursor(), ahead, &opts, &policy, false).map(|(v, _)| v);
            let read_whole = whole().and_then(|doc| match &doc {
                Document::Plan(p) => {
                    Ok(planview::testkit::query::gate::evaluate_with(p, &policy, None, &planview::testkit::secrets::Masker::collect(&doc)))
                }
                Document::State(_) => Err(InputError::new("fuzz.json", "a state")),
            });
            same(&format!("{how} gate ({name} policy)"), streamed, read_whole)?;
        }
    }
    Ok(())
}

/// `drift`, `replace`, `checks`, `outputs` and `moves` as the CLI runs them
/// (streamed, each answering over the skeleton with the changes it keeps) give the JSON
/// of the same query over the document read whole.
pub fn streamed_reports_equal_whole(data: &[u8], scratch: &std::path::Path) -> std::result::Result<(), String> {
    use planview::testkit::query::values::Visibility;
    std::fs::write(scratch, data).map_err(|e| e.to_string())?;
    let file = scratch.display().to_string();
    let Ok(doc) = planview::testkit::read::parse(&file, data) else { return Ok(()) };
    let masker = planview::testkit::secrets::Masker::collect(&doc);
    let vis = Visibility { show_sensitive: false, masker: Some(&masker) };
    let filter = planview::testkit::filter::Filter::default();
    type Query<'q> = Box<dyn Fn() -> Result<serde_json::Value, String> + 'q>;
    let json = |r: Result<serde_json::Value, String>| r;
    let cases: Vec<(&str, Option<&str>, Query)> = vec![
        (
            "drift",
            Some("--all"),
            Box::new(|| {
                json(
                    planview::testkit::query::drift::drift(
                        &doc,
                        &planview::testkit::query::drift::DriftOptions { filter: &filter, all: true },
                        &vis,
                    )
                    .map(|r| serde_json::to_value(r).unwrap()),
                )
            }),
        ),
        (
            "drift",
            None,
            Box::new(|| {
                json(
                    planview::testkit::query::drift::drift(
                        &doc,
                        &planview::testkit::query::drift::DriftOptions { filter: &filter, all: false },
                        &vis,
                    )
                    .map(|r| serde_json::to_value(r).unwrap()),
                )
            }),
        ),
        (
            "replace",
            None,
            Box::new(|| json(planview::testkit::query::replace::replace(&doc, &filter, &vis).map(|r| serde_json::to_value(r).unwrap()))),
        ),
        (
            "checks",
            Some("--all"),
            Box::new(|| {
                Ok(serde_json::to_value(planview::testkit::query::checks::checks(
                    &doc,
                    &planview::testkit::query::checks::ChecksOptions { filter: &filter, all: true },
                    &vis,
                ))
                .unwrap())
            }),
        ),
        (
            "outputs",
            None,
            Box::new(|| json(planview::testkit::query::outputs::outputs(&doc, &vis).map(|r| serde_json::to_value(r).unwrap()))),
        ),
        (
            "moves",
            None,
            Box::new(|| {
                json(
                    planview::testkit::query::moves::find_moves(&doc, &planview::testkit::query::moves::MovesOptions::default())
                        .map(|r| serde_json::to_value(r).unwrap()),
                )
            }),
        ),
    ];
    for (cmd, flag, whole) in cases {
        let mut args: Vec<String> = vec!["planview".into(), cmd.into(), "--format".into(), "json".into()];
        args.extend(flag.map(String::from));
        args.push(file.clone());
        let run = run_args(&args);
        let Ok(mut whole) = whole() else { continue };
        if let Some(o) = whole.as_object_mut() {
            o.insert("file".into(), serde_json::Value::String(file.clone()));
        }
        let streamed: serde_json::Value = match serde_json::from_slice(&run.out) {
            Ok(v) => v,
            Err(e) => return Err(format!("planview {}: not JSON ({e})", args[1..].join(" "))),
        };
        same(&format!("planview {}", args[1..].join(" ")), Ok::<_, planview::error::InputError>(streamed), Ok(whole))?;
    }
    Ok(())
}

/// Two answers to the same question, streamed and read whole, serialise the
/// same (or both fail); else the fields that differ.
fn same<T: serde::Serialize>(
    what: &str,
    streamed: Result<T, planview::error::InputError>,
    whole: Result<T, planview::error::InputError>,
) -> std::result::Result<(), String> {
    match (streamed, whole) {
        (Ok(s), Ok(w)) => {
            let s = serde_json::to_value(&s).map_err(|e| e.to_string())?;
            let w = serde_json::to_value(&w).map_err(|e| e.to_string())?;
            if s != w {
                let (so, wo) = (s.as_object().cloned().unwrap_or_default(), w.as_object().cloned().unwrap_or_default());
                let differ: Vec<String> = so
                    .keys()
                    .chain(wo.keys())
                    .filter(|k| so.get(*k) != wo.get(*k))
                    .map(|k| {
                        format!(
                            "{k}: streamed {} / whole {}",
                            so.get(k).map_or("-".into(), |v| v.to_string()),
                            wo.get(k).map_or("-".into(), |v| v.to_string())
                        )
                    })
                    .collect();
                return Err(format!("{what}: streamed differs from the whole-document answer in\n{}", differ.join("\n")));
            }
            Ok(())
        }
        (Err(_), Err(_)) => Ok(()),
        (Ok(_), Err(e)) => Err(format!("{what}: streamed accepts what the whole-document reader refuses: {e}")),
        (Err(e), Ok(_)) => Err(format!("{what}: streamed refuses what the whole-document reader accepts: {e}")),
    }
}
