//! Secrets: masking by marker and by value, in one place. Depends on
//! `model` (what is marked) and the escaping leaves only; readers hand
//! their documents here, never the other way round.

mod collect;
mod scrub;
mod visibility;

pub use collect::Masker;
pub(crate) use collect::MASK;
pub(crate) use scrub::Scrubber;
pub use visibility::Visibility;

use std::sync::Arc;

/// The secrets handed to every reader of a run (`ReadOptions::seed`), when a
/// first pass collected them ([`Masker::seed`]). Not part of the options'
/// value: any two compare equal.
#[derive(Clone, Default)]
pub struct Seed(pub Option<Arc<Masker>>);

impl std::fmt::Debug for Seed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() { "Seed(..)" } else { "Seed(None)" })
    }
}

impl PartialEq for Seed {
    fn eq(&self, _: &Seed) -> bool {
        true
    }
}

impl Eq for Seed {}
