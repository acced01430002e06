//! Reading input, one layer: files, pipes and saved plans ([`Source`]), a
//! document read whole ([`parse_with`]) or streamed to a visitor
//! ([`stream()`]), the documents of many roots ([`stream_roots`]), and the
//! errors they share. It depends on `model`, `secrets` (secrets are
//! collected as documents stream by) and the leaves, never on a query.
//!
//! - `source.rs`: files, stdin, FIFOs; `Chunks`, the one chunked read loop;
//!   `saved_plan.rs`: `show -json` of a saved plan; `options.rs`: [`ReadOptions`].
//! - `whole.rs`: a document read whole (serde over the slice), told plan or
//!   state, the version gate.
//! - `stream.rs`: the read-ahead thread, [`Fed`]/`Feeder`, [`Keep`];
//!   `window.rs`: the refill buffer and line:col; `walk.rs`: the top-level
//!   grammar over it, calling the visitor.
//! - `frame.rs`: the documents of one input, the gaps between them, what may
//!   follow the last; `dirs.rs` and `tree.rs`: directories of roots;
//!   `pool.rs`: [`stream_roots`] on worker threads.
//! - `diagnostics.rs` and `wrong.rs`: the error vocabulary.

mod diagnostics;
mod dirs;
mod frame;
mod options;
pub(crate) mod pool;
mod saved_plan;
mod source;
pub(crate) mod stream;
pub(crate) mod tree;
mod walk;
mod whole;
mod window;
pub(crate) mod wrong;

pub(crate) use crate::error::{line_col, serde_message};
pub use crate::model::Document;

pub(crate) use diagnostics::{MAX_BLANKS, MAX_TRAILER};
pub(crate) use options::Notes;
pub use options::ReadOptions;
pub(crate) use saved_plan::{find_tf_bin, is_saved_plan, tf_bin_from_env};
pub use source::Source;
pub(crate) use source::{open, read, read_with, MAX_PREFIX};

pub(crate) use diagnostics::{
    after_document, check_start_at, json_error_at, skipped_prefix, sniff_encoding, too_blank, too_deep, too_long_trailer, two_documents,
};
pub use dirs::{expand, FindOptions, Root};
pub use whole::{parse, parse_with};

#[cfg(test)]
pub(crate) use crate::error::redact_found_value;
#[cfg(test)]
pub(crate) use dirs::wildcard;
#[cfg(test)]
pub(crate) use frame::{name_in, terragrunt_stdout};
pub(crate) use frame::{second_document, TrailerScan};
pub(crate) use frame::{split_whole, Cut, Splitter, MAX_DOCUMENTS};
pub(crate) use pool::stream_roots;
pub(crate) use source::open_as;
pub use stream::{stream, ReadAhead};
pub(crate) use stream::{Fed, Keep, SKIP_WINDOW};
pub(crate) use tree::Prefer;
pub(crate) use wrong::collapse;
