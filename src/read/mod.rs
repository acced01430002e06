//! Reading input, one layer: files, pipes and saved plans ([`Source`]), a
//! document read whole ([`parse_with`]) or streamed to a visitor
//! ([`stream()`]), the documents of many roots ([`stream_roots`]), and the
//! errors they share.

pub(crate) mod input;
pub(crate) mod roots;
pub(crate) mod stream;
pub(crate) mod tree;
pub(crate) mod wrong;

pub use crate::model::{Document, StateDoc};
pub use input::{
    check_version, find_tf_bin, is_saved_plan, json_of, line_col, open, parse, parse_with, read, read_with, redact_found_value,
    serde_message, tf_bin_from_env, Notes, ReadOptions, Seed, ShownBy, Source, MAX_BLANKS, MAX_PREFIX, MAX_TRAILER, SUPPORTED, TF_BIN_ENV,
};
pub use roots::{
    expand, name_in, split_whole, stream_roots, terragrunt_stdout, wildcard, Cut, FindOptions, Root, Splitter, StreamQuery, WholePart,
    MAX_DOCUMENTS, SKIPPED_DIRS,
};
pub use stream::{stream, Fed, Keep, ReadAhead, SKIP_WINDOW};
pub use tree::Prefer;
pub(crate) use wrong::collapse;
