//! `moves`: one plan streamed with what could pair (managed deletes and
//! creates) spooled ([`query::moves_stream`]), the moves found, and the
//! `state mv` commands written.

use super::tail::Sink;
use crate::config::{Config, MovesConfig};
use crate::error::Error;
use crate::outcome::Status;
use crate::read::pool as pipeline;
use crate::secrets::Masker;
use crate::{query, read, render};

/// `moves`: exit 0 whether or not moves were found.
pub(super) fn moves(config: &Config, moves: &MovesConfig, out: &mut Sink<'_>, masker: &mut Masker) -> Result<Status, Error> {
    let read = &config.read;
    if config.inputs.len() != 1 {
        return Err(Error::Usage("`moves` reads one plan".into()));
    }
    // Streamed: the candidates spooled, only the groups with both deletes and creates read back.
    let item = pipeline::stream_source(&config.inputs[0], read, query::moves_stream::Candidates::default(), |cands, doc, _| {
        moves_of(cands, &doc, &moves.options)
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

/// The report over a document streamed with [`query::moves_stream::Candidates`]
/// collecting its candidates, and the plan's `terraform_version`.
fn moves_of(
    cands: query::moves_stream::Candidates,
    doc: &read::Document<'_>,
    opts: &query::moves::MovesOptions,
) -> Result<(query::moves::MovesReport, Option<String>), String> {
    let read::Document::Plan(p) = doc else { return query::moves::find_moves(doc, opts).map(|r| (r, None)) };
    cands.finish(opts).map(|r| (r, p.terraform_version.clone()))
}
