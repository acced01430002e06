//! `gate`: the verdicts on each plan (streamed, a fingerprint too; read
//! whole for Rego policies, whose input is the whole document), with the policy files and Rego policies
//! loaded, and `gate --verify` (the Rego policies' own tests).

use super::streamed::{gate_fingerprinted, gate_streamed, NOT_A_PLAN};
use super::tail::{finish, Sink};
use super::{answer, locating, named, roots_table};
use crate::config::{self, Config};
use crate::error::{Error, InputError};
use crate::outcome::{PerFile, Status};
use crate::read::pool as pipeline;
use crate::read::{self, Source};
use crate::render::format::Answer;
use crate::{query, render, secrets};

/// Read a `--policy` file; any problem is an input error (exit 2), never a pass.
fn load_policy(path: &std::path::Path) -> Result<query::gate::PolicyFile, Error> {
    let name = path.display().to_string();
    let bytes = read::read(&Source::File(path.to_path_buf())).map_err(|e| Error::Input(vec![e]))?;
    let text = std::str::from_utf8(&bytes).map_err(|_| Error::Input(vec![InputError::new(&name, "policy is not valid UTF-8")]))?;
    query::gate::PolicyFile::parse(text).map_err(|(msg, at)| {
        let mut e = InputError::new(&name, msg).hint("see schemas/gate-policy.schema.json for the keys and values a policy takes");
        if let Some((l, c)) = at {
            e = e.at(l, c);
        }
        Error::Input(vec![e])
    })
}

/// The flags' policy with the JSON policy files' rules added (a file's
/// `"rego"` paths are relative to it) and the Rego policies loaded: any
/// problem is an input error (exit 2), never a pass.
pub(super) fn policy_with_files(flags: &query::gate::Policy, files: &[std::path::PathBuf]) -> Result<query::gate::Policy, Error> {
    let mut policy = flags.clone();
    for path in files {
        let file = load_policy(path)?;
        policy.merge_file(&file);
        let dir = path.parent().unwrap_or(std::path::Path::new(""));
        policy.rego_paths.extend(file.rego.iter().map(|r| dir.join(r)));
    }
    policy.load_rego().map_err(|e| Error::Input(vec![e]))?;
    Ok(policy)
}

/// The Rego policies' results on one plan (`plan`, its JSON text `raw`)
/// added to `verdict`, masked with `masker`; `data.planview.changes` made for
/// the policies that read it. An evaluation that fails is the plan's error:
/// the message names the policy's file, line and column.
pub(super) fn judge_rego(
    policy: &query::gate::Policy,
    raw: &[u8],
    plan: &crate::model::Plan<'_>,
    verdict: &mut query::gate::PlanVerdict,
    masker: &secrets::Masker,
) -> Result<(), String> {
    let Some(rego) = &policy.rego else { return Ok(()) };
    let text = std::str::from_utf8(raw).map_err(|_| "the plan is not UTF-8: the Rego policies cannot read it".to_string())?;
    let helper = rego.uses_helper.then(|| query::gate::helper_document(plan, &query::noise::Noise::new(&policy.ignore_attributes)));
    let findings = rego
        .evaluate_with(text, helper.as_deref())
        .map_err(|e| masker.mask_text(&format!("{}: {}", e.location(), e.message)).into_owned())?;
    verdict.add_rego(rego, &findings, masker, policy.fail_on_warn);
    Ok(())
}

/// `gate`: the verdicts, streamed (`--expect-fingerprint`: the fingerprint
/// computed while streaming, [`gate_fingerprinted`]; read whole for Rego
/// policies, whose input is the whole document).
pub(super) fn gate(
    config: &Config,
    opts: &config::GateOptions,
    roots: &[read::Root],
    out: &mut Sink<'_>,
    masker: &mut secrets::Masker,
) -> Result<Status, Error> {
    if opts.verify {
        return verify(config, opts, out);
    }
    let mut policy = policy_with_files(&opts.policy, &opts.policy_files)?;
    let show_sensitive = config.show_sensitive;
    // The configuration is read while the plans are.
    let sources = locating::start(config, roots);
    if policy.max_blast.is_some() {
        // The dependents through a local are exact when the configuration's source is read.
        policy.locals = locating::locals(config, roots, &sources);
    }
    let items: Vec<PerFile<query::gate::PlanVerdict>> = if policy.rego.is_some() {
        pipeline::each_root_raw_with(roots, &config.read, |raw, doc, m| match doc {
            read::Document::Plan(p) => {
                let none = secrets::Masker::default();
                let shown = if show_sensitive { &none } else { m };
                let fingerprint = policy.expect_fingerprint.as_ref().map(|_| query::intent::Intent::of(p, m).fingerprint());
                let mut verdict = query::gate::evaluate_with(p, &policy, fingerprint.as_deref(), shown);
                judge_rego(&policy, raw, p, &mut verdict, shown)?;
                Ok(verdict)
            }
            read::Document::State(_) => Err(NOT_A_PLAN.to_string()),
        })
    } else if policy.expect_fingerprint.is_some() {
        read::stream_roots(roots, &config.read, &|name, r, ahead, read| gate_fingerprinted(name, r, ahead, read, &policy, show_sensitive))
    } else {
        read::stream_roots(roots, &config.read, &|name, r, ahead, read| gate_streamed(name, r, ahead, read, &policy, show_sensitive))
    };
    let mut items = named(items);
    if let Some(located) = locating::finish(sources, config, &items) {
        for i in &mut items {
            let map = located.of(&i.file);
            for v in i.result.iter_mut().flat_map(|v| v.violations.iter_mut()) {
                v.location = locating::violation(map, v);
            }
        }
    }
    let report = policy.describe();
    let rows = query::roots::of_verdicts(&items);
    let roots = roots_table(&rows, items.len(), opts.skip_unchanged);
    answer(config, out, masker, &items, &Answer::Gate { items: &items, policy: &report, roots })?;
    finish(&items)?;
    if items.iter().any(|i| i.result.as_ref().is_ok_and(|v| !v.passed())) {
        Ok(Status::Failed)
    } else {
        Ok(Status::Success)
    }
}

/// `gate --verify`: the Rego policies' `test_` rules, run and listed.
fn verify(config: &Config, opts: &config::GateOptions, out: &mut Sink<'_>) -> Result<Status, Error> {
    if config.format != render::Format::Table {
        return Err(Error::Usage("`gate --verify` prints its results as text: leave out --format".into()));
    }
    let mut paths = opts.policy.rego_paths.clone();
    for path in &opts.policy_files {
        let file = load_policy(path)?;
        let dir = path.parent().unwrap_or(std::path::Path::new(""));
        paths.extend(file.rego.iter().map(|r| dir.join(r)));
    }
    if paths.is_empty() {
        return Err(Error::Usage("`gate --verify` runs the tests of Rego policies: name them with --policy DIR or FILE.rego".into()));
    }
    let results = crate::rego::verify(&paths, &opts.policy.rego_options).map_err(|e| Error::Input(vec![e]))?;
    let rendered = render::gate::verify_out(out, &results);
    out.written(rendered)?;
    let errors: Vec<InputError> = results
        .iter()
        .filter_map(|t| match &t.outcome {
            crate::rego::Outcome::Error(m) => {
                Some(InputError::new(&t.rule.file, format!("test {} could not be evaluated: {m}", t.rule.name)))
            }
            _ => None,
        })
        .collect();
    if !errors.is_empty() {
        return Err(Error::Input(errors));
    }
    if results.iter().any(|t| t.outcome == crate::rego::Outcome::Fail) {
        Ok(Status::Failed)
    } else {
        Ok(Status::Success)
    }
}
