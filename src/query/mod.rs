//! Queries: pure functions from a parsed document to a report struct.

pub mod diff;
pub mod show;
pub mod summary;
pub mod values;
