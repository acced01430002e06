//! Where a block is declared in the configuration (found by [`crate::locate`]):
//! plain data the model's findings carry.

use serde::Serialize;

/// A block's place, for output: the file as a path relative to the current
/// directory (`/`-separated; absolute only when it is outside it), lines 1-based.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Location {
    pub file: String,
    pub line: u32,
    pub end_line: u32,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}
