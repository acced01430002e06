//! planview: reads `tofu show -json` / `terraform show -json` output and answers
//! what a plan will do, or what a state holds.
//!
//! `main.rs` parses arguments ([`cli`]) into a plain [`config::Config`] and
//! calls [`run()`]: [`read`] reads each input once, and [`run`] (the one
//! home of the command runners) answers with one query per command, rendered
//! by one renderer per format ([`render::format`]) through one tail.

#![deny(unreachable_pub)]

pub mod cli;
pub mod config;
pub mod derive;
pub mod error;
mod escape;
pub mod filter;
pub mod glob;
mod index;
pub mod locate;
pub mod model;
pub mod oom;
mod outcome;
mod par;
pub mod progress;
pub mod query;
pub mod read;
pub mod rego;
pub mod render;
pub mod run;
pub mod sanitize;
mod scan;
pub mod secrets;

pub use outcome::{PerFile, Status};
pub use run::streamed::{gate_streamed, summary_streamed};
pub use run::{run, verdict_over_output};
