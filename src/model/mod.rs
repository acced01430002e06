//! Serde models of every representation in the `show -json` format, lenient on input.
//!
//! Unknown fields are ignored and absent ones take defaults. Values that queries
//! rarely need (before/after, sensitivity markers, configuration expressions) are
//! kept as borrowed [`RawValue`]s pointing into the input buffer, so reading a
//! 100 MB plan never builds a `serde_json::Value` tree of it.

pub(crate) mod action;
pub(crate) mod checks;
pub(crate) mod config;
pub(crate) mod document;
pub(crate) mod location;
pub(crate) mod markers;
pub(crate) mod plan;
pub(crate) mod text;
pub(crate) mod values;
pub(crate) mod visit;

pub(crate) use action::{Action, ActionReason, ChangeKind, Mode, ReplaceOrder};
pub(crate) use checks::{CheckKind, CheckObject, CheckStatus};
pub(crate) use config::Configuration;
pub use document::Document;
pub(crate) use document::{RawDocument, StateDoc};
pub use location::Location;
pub use plan::Plan;
pub(crate) use plan::{ActionInvocation, Change, OnFailure, PathStep, ResourceChange, TriggerEvent};
pub(crate) use values::{Module, OutputValue, ResourceValue, State, Values};

pub(crate) use serde_json::value::RawValue;
