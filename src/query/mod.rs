//! Queries: pure functions from a parsed document to a report struct.

pub mod attr;
pub mod checks;
pub mod drift;
pub mod gate;
pub mod outputs;
pub mod replace;
pub mod state;
pub mod diff;
pub mod show;
pub mod summary;
pub mod values;
pub mod address;
pub mod moves;
