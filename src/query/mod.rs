//! Queries: pure functions from a parsed document to a report struct.

pub(crate) mod address;
pub(crate) mod attr;
pub(crate) mod checks;
pub(crate) mod collapse;
pub(crate) mod dependents;
pub(crate) mod diff;
pub(crate) mod drift;
pub(crate) mod gate;
pub(crate) mod intent;
pub(crate) mod listed;
pub(crate) mod moves;
pub(crate) mod moves_stream;
pub(crate) mod noise;
pub(crate) mod outputs;
pub(crate) mod path;
pub(crate) mod replace;
pub(crate) mod review;
pub(crate) mod roots;
pub(crate) mod schema;
pub(crate) mod show;
pub(crate) mod state;
pub(crate) mod state_rows;
pub(crate) mod summary;
pub(crate) mod type_expr;
pub(crate) mod values;
