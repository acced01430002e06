//! Queries: pure functions from a parsed document to a report struct.

pub mod gate;
pub mod summary;
pub mod values;
