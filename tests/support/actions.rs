// The action lists planview (and the CLI) recognise, shared by the generators
// of `plan_gen.rs` and `gate_props.rs` through `include!`.

/// The action lists planview (and the CLI) recognise.
const RECOGNISED: &[&[&str]] = &[
    &["no-op"],
    &["create"],
    &["read"],
    &["update"],
    &["delete"],
    &["delete", "create"],
    &["create", "delete"],
    &["forget"],
    &["forget", "create"],
    &["create", "forget"],
];
