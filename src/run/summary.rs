//! `summary`: every input streamed and counted, then the table of roots and
//! the summaries rendered.

use super::streamed::summary_streamed_with;
use super::tail::{finish, Sink};
use super::{across, answer, dispose, locating, named, roots_table};
use crate::config::Config;
use crate::error::Error;
use crate::outcome::Status;
use crate::query;
use crate::query::values::Visibility;
use crate::read::{self, Root};
use crate::render::format::Answer;
use crate::render::Format;
use crate::secrets::Masker;

/// A plan's list of changes (or of drift) is spooled from this many entries
/// on (about 11 MB of entries in memory; the table of as many rows about 21 MB).
pub(crate) const SPILL_AT: usize = 16_384;

/// `summary`: streamed, not read whole (bounded memory on plans of any size).
pub(super) fn summary(
    config: &Config,
    roots: &[Root],
    skip_unchanged: bool,
    ignore_attr: &[String],
    out: &mut Sink<'_>,
    masker: &mut Masker,
) -> Result<Status, Error> {
    let read = &config.read;
    let vis = Visibility { show_sensitive: config.show_sensitive, masker: None };
    let noise = crate::query::noise::Noise::new(ignore_attr);
    // The configuration is read while the plans are.
    let sources = locating::start(config, roots);
    // The table and JSON read a list of changes from its spool: past
    // [`SPILL_AT`] entries it goes to a temporary file.
    let spill_at = matches!(config.format, Format::Table | Format::Json).then_some(SPILL_AT);
    // Streamed, not read whole: bounded memory on plans of any size.
    let mut items = named(across(config, roots, read, |read| {
        read::stream_roots(roots, read, &|name, r, ahead, read| summary_streamed_with(name, r, ahead, read, &vis, &noise, spill_at))
    }));
    if let Some(located) = locating::finish(sources, config, &items) {
        for i in &mut items {
            if let Ok(query::summary::Summary::Plan(p)) = &mut i.result {
                locating::summary(located.of(&i.file), p);
            }
        }
    }
    let rows = query::roots::of_summaries(&items);
    let roots = roots_table(&rows, items.len(), skip_unchanged);
    answer(config, out, masker, &items, &Answer::Summary { items: &items, roots })?;
    let status = finish(&items);
    dispose(items);
    status
}
