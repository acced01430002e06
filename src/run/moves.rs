//! `moves`: one plan streamed with only what could pair kept (managed
//! deletes and creates), the moves found, and the `state mv` commands written.

use super::tail::Sink;
use crate::config::{Config, MovesConfig};
use crate::error::Error;
use crate::outcome::Status;
use crate::read::pool as pipeline;
use crate::secrets::Masker;
use crate::{model, query, read, render};

/// `moves`: exit 0 whether or not moves were found.
pub(super) fn moves(config: &Config, moves: &MovesConfig, out: &mut Sink<'_>, masker: &mut Masker) -> Result<Status, Error> {
    let read = &config.read;
    if config.inputs.len() != 1 {
        return Err(Error::Usage("`moves` reads one plan".into()));
    }
    // Streamed: only what could pair (managed deletes and creates) is kept.
    let keep = |drift: bool, _: usize, _: usize, rc: &model::ResourceChange<'_>| !drift && query::moves::could_pair(rc);
    let keep = read::Keep::new(&keep);
    let item = pipeline::stream_source(&config.inputs[0], read, keep, |kept, doc, _| {
        let read::Document::Plan(p) = doc else { return query::moves::find_moves(&doc, &moves.options).map(|r| (r, None)) };
        let mut plan = *p;
        kept.fill(&mut plan)?;
        let version = plan.terraform_version.clone();
        query::moves::find_moves(&read::Document::Plan(Box::new(plan)), &moves.options).map(|r| (r, version))
    });
    masker.merge(&item.masker);
    if let (Err(e), render::moves::MovesFormat::Json) = (&item.result, moves.format) {
        // As every JSON output: the error object on stdout, the error on stderr.
        let rendered = render::write_json(out, &render::JsonInputError::new(e));
        out.written(rendered)?;
    }
    let (mut report, version) = item.result.map_err(|e| Error::Input(vec![e]))?;
    let shown_by = read.shown_by.get(&item.file);
    let mv = render::moves::StateMv::choose(shown_by.as_deref(), version.as_deref(), &report);
    report.file = item.file;
    let rendered = render::moves::write_with(out, &report, moves.format, &mv);
    out.written(rendered)?;
    Ok(Status::Success)
}
