//! Queries: pure functions from a parsed document to a report struct.

pub mod address;
pub mod attr;
pub mod checks;
pub mod diff;
pub mod drift;
pub mod gate;
pub mod intent;
pub mod moves;
pub mod outputs;
pub mod path;
pub mod replace;
pub mod review;
pub mod roots;
pub mod show;
pub mod state;
pub mod summary;
pub mod type_expr;
pub mod values;
