//! planview: reads `tofu show -json` / `terraform show -json` output and answers
//! what a plan will do, or what a state holds.
//!
//! `main.rs` parses arguments into a [`cli::Config`] and calls [`run`]: one
//! pipeline, [`pipeline`] reading each input once and [`app`] answering with
//! one query per command, rendered by one renderer per format
//! ([`render::format`]).

#![deny(unreachable_pub)]

mod app;
pub mod cli;
mod comment;
pub mod compare;
pub mod derive;
pub mod error;
mod escape;
pub mod filter;
pub mod glob;
pub mod locate;
pub mod model;
pub mod oom;
mod par;
mod pipeline;
pub mod progress;
pub mod query;
pub mod read;
pub mod rego;
pub mod render;
pub mod sanitize;
mod scan;
pub mod secrets;

use error::InputError;

pub use app::{run, verdict_over_output};
pub use pipeline::{each_input, gate_streamed, summary_streamed};
pub(crate) use pipeline::{each_root_with, stream_one};

/// One input's result.
#[derive(Debug)]
pub struct PerFile<T> {
    pub file: String,
    pub result: Result<T, InputError>,
    /// The secrets of this input (empty when it could not be read).
    pub masker: secrets::Masker,
}

/// How a run that produced its output ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Everything read, nothing failed.
    Success,
    /// A gate or check failed (exit 1).
    Failed,
}
