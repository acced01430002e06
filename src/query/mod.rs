//! Queries: pure functions from a parsed document to a report struct.

pub mod summary;
pub mod values;
