//! Queries: pure functions from a parsed document to a report struct.

pub(crate) mod address;
pub(crate) mod attr;
pub mod checks;
pub(crate) mod collapse;
pub mod dependents;
pub(crate) mod diff;
pub mod drift;
pub mod gate;
pub mod intent;
pub mod moves;
pub mod noise;
pub mod outputs;
pub(crate) mod path;
pub mod replace;
pub(crate) mod review;
pub(crate) mod roots;
pub mod schema;
pub mod show;
pub(crate) mod state;
pub mod summary;
pub(crate) mod type_expr;
pub mod values;
