//! The configuration, expression and block-expressions representations.

use serde::Deserialize;
use serde_json::value::RawValue;
use std::collections::BTreeMap;

/// The plan's `configuration`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Configuration<'a> {
    #[serde(borrow)]
    pub provider_config: BTreeMap<String, ProviderConfig<'a>>,
    #[serde(borrow)]
    pub root_module: ModuleConfig<'a>,
}

/// One entry of `provider_config`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ProviderConfig<'a> {
    pub name: String,
    pub full_name: Option<String>,
    pub alias: Option<String>,
    pub module_address: Option<String>,
    pub version_constraint: Option<String>,
    #[serde(borrow)]
    pub expressions: BlockExpressions<'a>,
}

/// A module in the configuration tree.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ModuleConfig<'a> {
    #[serde(borrow)]
    pub outputs: BTreeMap<String, OutputConfig<'a>>,
    #[serde(borrow)]
    pub resources: Vec<ResourceConfig<'a>>,
    #[serde(borrow)]
    pub module_calls: BTreeMap<String, ModuleCall<'a>>,
    #[serde(borrow)]
    pub variables: BTreeMap<String, VariableConfig<'a>>,
    /// Terraform 1.14+: the module's `action` blocks.
    pub actions: Vec<ActionConfig>,
}

/// An `action` block (Terraform 1.14+ `configuration`'s `actions`;
/// internal/command/jsonconfig/config.go, hashicorp/terraform 883c7221ee2e).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ActionConfig {
    pub address: String,
    #[serde(rename = "type")]
    pub type_: String,
    pub name: String,
    pub provider_config_key: Option<String>,
}

impl ModuleConfig<'_> {
    /// True when this module or one below it declares a managed resource.
    pub fn declares_managed(&self) -> bool {
        self.resources.iter().any(|r| r.mode == super::Mode::Managed) || self.module_calls.values().any(|c| c.module.declares_managed())
    }
}

/// An `output` block.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct OutputConfig<'a> {
    #[serde(borrow)]
    pub expression: Expression<'a>,
    pub sensitive: bool,
    pub description: Option<String>,
    pub depends_on: Vec<String>,
    /// OpenTofu: the output's `ephemeral` flag.
    #[serde(deserialize_with = "super::plan::lenient_true")]
    pub ephemeral: bool,
    /// OpenTofu: the output's deprecation message (internal/command/jsonconfig
    /// config.go, opentofu/opentofu f831fa1aa4b9); anything but a string is none.
    #[serde(deserialize_with = "super::plan::lenient_string")]
    pub deprecated: Option<String>,
}

/// A `variable` block.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct VariableConfig<'a> {
    #[serde(borrow)]
    pub default: Option<&'a RawValue>,
    pub description: Option<String>,
    pub sensitive: bool,
    /// OpenTofu: the declared type constraint, as written.
    #[serde(rename = "type", borrow)]
    pub type_: Option<&'a RawValue>,
    /// OpenTofu: the variable has no default.
    #[serde(deserialize_with = "super::plan::lenient_true")]
    pub required: bool,
    /// OpenTofu: an ephemeral variable (its value is never printed).
    #[serde(deserialize_with = "super::plan::lenient_true")]
    pub ephemeral: bool,
    /// OpenTofu: the variable's deprecation message.
    #[serde(deserialize_with = "super::plan::lenient_string")]
    pub deprecated: Option<String>,
}

/// A `resource` or `data` block.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ResourceConfig<'a> {
    pub address: String,
    pub mode: super::Mode,
    #[serde(rename = "type")]
    pub type_: String,
    pub name: String,
    pub provider_config_key: Option<String>,
    #[serde(borrow)]
    pub provisioners: Vec<Provisioner<'a>>,
    #[serde(borrow)]
    pub expressions: BlockExpressions<'a>,
    pub schema_version: Option<u64>,
    #[serde(borrow)]
    pub count_expression: Option<Expression<'a>>,
    #[serde(borrow)]
    pub for_each_expression: Option<Expression<'a>>,
    pub depends_on: Vec<String>,
}

/// A provisioner inside a resource block.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Provisioner<'a> {
    #[serde(rename = "type")]
    pub type_: String,
    #[serde(borrow)]
    pub expressions: BlockExpressions<'a>,
}

/// A `module` block.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ModuleCall<'a> {
    pub source: Option<String>,
    pub resolved_source: Option<String>,
    pub version_constraint: Option<String>,
    #[serde(borrow)]
    pub expressions: BlockExpressions<'a>,
    #[serde(borrow)]
    pub count_expression: Option<Expression<'a>>,
    #[serde(borrow)]
    pub for_each_expression: Option<Expression<'a>>,
    #[serde(borrow)]
    pub module: ModuleConfig<'a>,
    pub depends_on: Vec<String>,
}

/// An unevaluated expression: a constant, or the references it makes.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Expression<'a> {
    #[serde(borrow)]
    pub constant_value: Option<&'a RawValue>,
    pub references: Vec<String>,
}

/// The block-expressions representation: argument name to an expression, a
/// nested block, a list/set of blocks, or a map of blocks. Which one depends
/// on the provider schema, so entries stay raw; [`BlockExpressions::node`]
/// classifies one.
#[derive(Debug, Default, Deserialize)]
#[serde(transparent)]
pub struct BlockExpressions<'a>(#[serde(borrow)] pub BTreeMap<String, &'a RawValue>);

/// One classified entry of a block-expressions representation.
#[derive(Debug)]
pub enum ExpressionNode<'a> {
    Expression(Expression<'a>),
    Block(BlockExpressions<'a>),
    Blocks(Vec<BlockExpressions<'a>>),
}

impl<'a> BlockExpressions<'a> {
    /// Classify the entry `name`: an array is a list/set of blocks; an object
    /// whose keys are only `constant_value`/`references` is an expression; any
    /// other object is a nested block (single or map nesting).
    pub fn node(&self, name: &str) -> Option<serde_json::Result<ExpressionNode<'a>>> {
        let raw: &'a RawValue = self.0.get(name)?;
        Some(classify(raw))
    }
}

fn classify<'a>(raw: &'a RawValue) -> serde_json::Result<ExpressionNode<'a>> {
    let text = raw.get().trim_start();
    if text.starts_with('[') {
        return Ok(ExpressionNode::Blocks(serde_json::from_str(raw.get())?));
    }
    let keys: BTreeMap<String, serde::de::IgnoredAny> = serde_json::from_str(raw.get())?;
    if keys.keys().all(|k| k == "constant_value" || k == "references") {
        Ok(ExpressionNode::Expression(serde_json::from_str(raw.get())?))
    } else {
        Ok(ExpressionNode::Block(serde_json::from_str(raw.get())?))
    }
}

impl<'a> ModuleConfig<'a> {
    /// Names of variables declared `sensitive = true` in this module.
    pub fn sensitive_variables(&self) -> impl Iterator<Item = &str> {
        // An ephemeral variable's value (OpenTofu) is never printed either.
        self.variables.iter().filter(|(_, v)| v.sensitive || v.ephemeral).map(|(k, _)| k.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_expressions_are_classified() {
        let json = r#"{"root_module":{"resources":[{"address":"aws_instance.a","expressions":{
            "ami":{"constant_value":"ami-1"},
            "subnet":{"references":["aws_subnet.s.id","aws_subnet.s"]},
            "root_block_device":{"volume_size":{"constant_value":8}},
            "ebs":[{"size":{"constant_value":1}}]}}],
          "variables":{"pw":{"sensitive":true},"name":{"default":"x"}},
          "module_calls":{"net":{"source":"./net","module":{"outputs":{"id":{"expression":{"references":["a.b"]},"sensitive":true}}}}}}}"#;
        let c: Configuration = serde_json::from_str(json).unwrap();
        let r = &c.root_module.resources[0];
        assert!(
            matches!(r.expressions.node("ami"), Some(Ok(ExpressionNode::Expression(e))) if e.constant_value.unwrap().get() == "\"ami-1\"")
        );
        assert!(matches!(r.expressions.node("subnet"), Some(Ok(ExpressionNode::Expression(e))) if e.references.len() == 2));
        assert!(matches!(r.expressions.node("root_block_device"), Some(Ok(ExpressionNode::Block(_)))));
        assert!(matches!(r.expressions.node("ebs"), Some(Ok(ExpressionNode::Blocks(b))) if b.len() == 1));
        assert!(r.expressions.node("missing").is_none());
        assert_eq!(c.root_module.sensitive_variables().collect::<Vec<_>>(), vec!["pw"]);
        assert!(c.root_module.module_calls["net"].module.outputs["id"].sensitive);
    }

    #[test]
    fn opentofu_variable_and_output_fields_and_terraform_actions_are_read_never_an_error() {
        // internal/command/jsonconfig/config.go: OpenTofu f831fa1aa4b9 (variable
        // type/required/ephemeral/deprecated, output ephemeral/deprecated),
        // Terraform 883c7221ee2e (module `actions`).
        let json = r#"{"root_module":{
            "variables":{"tok":{"type":"string","required":true,"ephemeral":true,"deprecated":"use x"},
                         "odd":{"type":["list","string"],"required":"yes","ephemeral":null,"deprecated":42}},
            "outputs":{"o":{"deprecated":"gone soon","ephemeral":false,"expression":{"references":["var.tok"]}}},
            "actions":[{"address":"action.aws_lambda_invoke.n","type":"aws_lambda_invoke","name":"n","provider_config_key":"aws"}]}}"#;
        let c: Configuration = serde_json::from_str(json).unwrap();
        let m = &c.root_module;
        let tok = &m.variables["tok"];
        assert!(tok.required && tok.ephemeral);
        assert_eq!(tok.deprecated.as_deref(), Some("use x"));
        assert_eq!(tok.type_.map(|t| t.get()), Some(r#""string""#));
        let odd = &m.variables["odd"];
        assert!(!odd.required && !odd.ephemeral && odd.deprecated.is_none(), "odd values read as absent, not as errors");
        assert_eq!(m.outputs["o"].deprecated.as_deref(), Some("gone soon"));
        assert_eq!(m.actions[0].address, "action.aws_lambda_invoke.n");
        assert_eq!(m.sensitive_variables().collect::<Vec<_>>(), vec!["tok"], "an ephemeral value is masked like a sensitive one");
    }
}
