//! Serde models of every representation in the `show -json` format, lenient on input.
//!
//! Unknown fields are ignored and absent ones take defaults. Values that queries
//! rarely need (before/after, sensitivity markers, configuration expressions) are
//! kept as borrowed [`RawValue`]s pointing into the input buffer, so reading a
//! 100 MB plan never builds a `serde_json::Value` tree of it.

pub mod action;
pub mod checks;
pub mod config;
pub mod document;
pub mod location;
pub mod markers;
pub mod plan;
pub(crate) mod text;
pub mod values;
pub mod visit;

pub use action::{Action, ActionReason, ChangeKind, Mode, ReplaceOrder};
pub use checks::{CheckInstance, CheckKind, CheckObject, CheckStatus};
pub use config::{BlockExpressions, Configuration, Expression, ModuleCall, ModuleConfig};
pub use document::{Document, RawDocument, StateDoc};
pub use location::Location;
pub use plan::{
    ActionInvocation, Change, DeferredChange, Importing, InvokeActionTrigger, LifecycleActionTrigger, OnFailure, PathStep, Plan,
    RelevantAttribute, ResourceChange, TriggerEvent, Unreadable,
};
pub use values::{Module, OutputValue, ResourceValue, State, Values};

pub use serde_json::value::RawValue;
