//! Queries: pure functions from a parsed document to a report struct.

pub mod summary;
pub mod values;
pub mod address;
pub mod moves;
