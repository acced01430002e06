//! The runs of `planview diff OLD NEW` and `planview fingerprint PLAN`: read
//! the plans, build each one's model ([`crate::query::intent`]), render.

use crate::cli::Config;
use crate::error::{Error, InputError};
use crate::query::intent::{intent_of, DiffReport, FingerprintReport, Intent};
use crate::render::{Format, JsonInputError, Style};
use crate::{each_input_with, mask, render, Status};

/// A plan's model and the CLI version that made it.
type Read = (Intent, Option<String>);

fn read_all(config: &Config, masker: &mut mask::Masker) -> Vec<crate::PerFile<Read>> {
    let items = each_input_with(&config.inputs, &config.read, |doc, m| {
        let version = match doc {
            crate::input::Document::Plan(p) => p.terraform_version.clone(),
            crate::input::Document::State(_) => None,
        };
        intent_of(doc, m).map(|i| (i, version))
    });
    items.iter().for_each(|i| masker.merge(&i.masker));
    items
}

/// In JSON, the inputs that could not be read: one error object, or `{"files": [...]}`.
fn json_errors(out: &mut Vec<u8>, errs: &[&InputError]) -> std::io::Result<()> {
    #[derive(serde::Serialize)]
    struct Many<'a> {
        files: Vec<JsonInputError<'a>>,
    }
    match errs {
        [one] => render::write_json(out, &JsonInputError::new(one)),
        many => render::write_json(out, &Many { files: many.iter().map(|e| JsonInputError::new(e)).collect() }),
    }
}

fn failures<T>(items: &[crate::PerFile<T>]) -> Vec<&InputError> {
    items.iter().filter_map(|i| i.result.as_ref().err()).collect()
}

/// `diff`: exit 0 (success) when both plans would do the same, 1 (failed) when they differ.
pub fn run_diff(config: &Config, out: &mut Vec<u8>, masker: &mut mask::Masker) -> Result<Status, Error> {
    if config.inputs.len() != 2 {
        return Err(Error::Usage("`diff` compares two plans: OLD NEW".into()));
    }
    let items = read_all(config, masker);
    let errs = failures(&items);
    if !errs.is_empty() {
        if config.format == Format::Json {
            json_errors(out, &errs)?;
        }
        return Err(Error::Input(errs.into_iter().cloned().collect()));
    }
    let [Ok((old, old_tf)), Ok((new, new_tf))] = [&items[0].result, &items[1].result] else {
        return Err(Error::Usage("`diff` compares two plans: OLD NEW".into()));
    };
    let report = DiffReport::new((&items[0].file, old_tf.clone(), old), (&items[1].file, new_tf.clone(), new));
    match config.format {
        Format::Table => render::diff::table(out, &report, &Style::new(config.color))?,
        Format::Markdown => render::diff::markdown(out, &report)?,
        Format::Json | Format::Gitlab => render::diff::json(out, &report)?,
    }
    Ok(if report.comparison.same { Status::Success } else { Status::Failed })
}

/// `fingerprint`: one plan's fingerprint (`--format json`: with its canonical form).
pub fn run_fingerprint(config: &Config, out: &mut Vec<u8>, masker: &mut mask::Masker) -> Result<Status, Error> {
    if config.inputs.len() != 1 {
        return Err(Error::Usage("`fingerprint` reads one plan".into()));
    }
    let items = read_all(config, masker);
    let errs = failures(&items);
    if !errs.is_empty() {
        if config.format == Format::Json {
            json_errors(out, &errs)?;
        }
        return Err(Error::Input(errs.into_iter().cloned().collect()));
    }
    if let Ok((intent, _)) = &items[0].result {
        let report = FingerprintReport::new(&items[0].file, intent);
        match config.format {
            Format::Json => render::diff::fingerprint_json(out, &report)?,
            _ => render::diff::fingerprint_text(out, &report)?,
        }
    }
    Ok(Status::Success)
}

/// `gate --expect-fingerprint`: the fingerprint of a plan, with the plan's secrets.
pub fn fingerprint_of(plan: &crate::model::Plan<'_>, masker: &mask::Masker) -> String {
    Intent::of(plan, masker).fingerprint()
}
