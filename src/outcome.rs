//! What a run yields per input and overall: [`PerFile`] and [`Status`], a
//! leaf every layer may use (so nothing imports the crate root).

use crate::error::InputError;
use crate::mask;

/// One input's result.
#[derive(Debug)]
pub struct PerFile<T> {
    pub file: String,
    pub result: Result<T, InputError>,
    /// The secrets of this input (empty when it could not be read).
    pub masker: mask::Masker,
}

/// How a run that produced its output ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Everything read, nothing failed.
    Success,
    /// A gate or check failed (exit 1).
    Failed,
}
