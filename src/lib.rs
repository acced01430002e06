//! planview: reads `tofu show -json` / `terraform show -json` output and answers
//! what a plan will do, or what a state holds.
//!
//! `main.rs` parses arguments ([`cli`]) into a plain [`config::Config`] and
//! calls [`run()`]: [`read`] reads each input once, and [`run`] (the one
//! home of the command runners) answers with one query per command, rendered
//! by one renderer per format ([`render::format`]) through one tail.

// `pub` is the front door only (what `main.rs` uses: `cli`, `config`,
// `error`, `oom`, `progress`, `sanitize`, `run`); everything else is
// `pub(crate)`, and what the tests reach is re-exported by `testkit` (the
// `testkit` feature, which only the tests, examples and fuzz targets turn
// on). The lint is denied where that feature is on (`cargo test`, `cargo
// clippy --all-targets`, so in CI); without it, `dead_code` names what only
// the tests use.
#![cfg_attr(feature = "testkit", deny(unreachable_pub))]

pub mod cli;
pub mod config;
mod derive;
pub mod error;
mod escape;
mod filter;
mod glob;
mod index;
mod locate;
mod model;
pub mod oom;
mod outcome;
mod par;
pub mod progress;
mod query;
mod read;
mod rego;
mod render;
mod run;
pub mod sanitize;
mod scan;
mod secrets;
mod spool;
mod utf8;

pub use outcome::{PerFile, Status};
pub use run::{run, verdict_over_output};

/// What the integration tests (`tests/it`), the examples and the fuzz targets
/// reach inside the crate, behind the `testkit` feature (only they turn it on:
/// Cargo.toml's dev-dependency on this crate, and `fuzz/Cargo.toml`). The
/// modules are the crate's own, `pub(crate)`; here each one the tests use is
/// mirrored by name with the items they call, so a test names
/// `planview::testkit::query::gate::evaluate` where the crate says
/// `crate::query::gate::evaluate`. The test oracles (the in-memory twins of
/// the streamed paths) are compiled only with this feature.
#[cfg(feature = "testkit")]
pub mod testkit {
    pub use crate::run::streamed::{gate_streamed, summary_streamed};

    pub mod derive {
        pub use crate::derive::forms;
    }

    pub mod filter {
        pub use crate::filter::Filter;
    }

    pub mod glob {
        pub use crate::glob::Glob;
    }

    pub mod locate {
        pub use crate::locate::{Location, SourceMap};
    }

    pub mod model {
        pub use crate::model::Plan;
    }

    pub mod read {
        pub use crate::read::{expand, parse, parse_with, stream, Document, FindOptions, ReadAhead, ReadOptions, Root, Source};
    }

    pub mod render {
        pub use crate::render::{Format, Style};

        pub mod diff {
            pub use crate::render::diff::{json, markdown};
        }
    }

    pub mod run {
        pub mod comment {
            pub use crate::run::comment::run_comment_whole;
        }

        pub mod compare {
            pub use crate::run::compare::fingerprint_streamed;
        }

        pub mod show {
            pub use crate::run::show::{run_show, run_show_whole, ShowRun, MEMORY};
        }
    }

    pub mod secrets {
        pub use crate::secrets::Masker;
    }

    pub mod query {
        pub mod checks {
            pub use crate::query::checks::{checks, ChecksOptions};
        }

        pub mod dependents {
            pub use crate::query::dependents::{Builder, Changes, Dependents};
        }

        pub mod drift {
            pub use crate::query::drift::{drift, DriftOptions};
        }

        pub mod gate {
            pub use crate::query::gate::{evaluate, evaluate_with, DriftPolicy, GateAction, Policy};
        }

        pub mod intent {
            pub use crate::query::intent::{canonical_bytes, compare, intent_of, DiffReport, Intent};

            pub mod streamed {
                pub use crate::query::intent::streamed::ORDER_BUDGET;
            }
        }

        pub mod moves {
            pub use crate::query::moves::{find_moves, MovesOptions};
        }

        pub mod outputs {
            pub use crate::query::outputs::outputs;
        }

        pub mod replace {
            pub use crate::query::replace::replace;
        }

        pub mod show {
            pub use crate::query::show::ShowOptions;
        }

        pub mod summary {
            pub use crate::query::summary::summarize;
        }

        pub mod values {
            pub use crate::query::values::Visibility;
        }
    }
}
