//! The texts of `--help`: each command's examples and exit codes (clap's
//! `after_help`), and the longer argument helps.

/// The help of FILE for the commands that read plans only.
pub(super) const PLAN_FILES: &str = "Plan JSON files, or saved plans (`-` for stdin; stdin when none is given and it is piped)";

pub(super) const CHECKS_FORMAT_HELP: &str = "Output format: `github` prints workflow commands (annotations), `sarif` SARIF 2.1.0 (code scanning), `gitlab-codequality` GitLab's Code Quality report";

pub(super) const EXIT_CODES: &str = "\
Exit codes:
  0  success (also when the reader of the output goes away, e.g. `| head`)
  1  a gate or check failed (`gate`: a plan broke a rule; `checks`: a check failed or errored, unless --no-fail;
     `diff`: the two plans would do something different)
  2  usage error, unreadable or invalid input, unsupported format_version";

pub(super) const SUMMARY_EXIT_CODES: &str = "\
Exit codes:
  0  every input was read (whatever the plan does: `summary` never exits 1; use `gate` to fail a build)
  2  usage error, unreadable or invalid input, unsupported format_version (the other inputs are still reported)";

pub(super) const READ_EXIT_CODES: &str = "\
Exit codes:
  0  every input was read (never 1)
  2  usage error, unreadable or invalid input, unsupported format_version";

pub(super) const PLAN_EXIT_CODES: &str = "\
Exit codes:
  0  every input was read (never 1)
  2  usage error, unreadable or invalid input, a state instead of a plan, unsupported format_version";

pub(super) const STATE_EXIT_CODES: &str = "\
Exit codes:
  0  every input was read (never 1)
  2  usage error, unreadable or invalid input, a plan without --prior, unsupported format_version";

pub(super) const CHECKS_EXIT_CODES: &str = "\
Exit codes:
  0  every input was read and no listed check failed or errored (or --no-fail)
  1  a listed check instance failed or errored (after the filters), unless --no-fail
  2  usage error, unreadable or invalid input, unsupported format_version (wins over 1)";

pub(super) const MOVES_EXIT_CODES: &str = "\
Exit codes:
  0  the plan was read, whether or not moves were found (never 1)
  2  usage error, unreadable or invalid input, a state instead of a plan, unsupported format_version";

pub(super) const EXAMPLES: &str = "\
Examples:
  planview summary plan.json
  tofu show -json plan.out | planview summary
  planview summary --format json plan.json | jq .totals
  planview summary --format markdown */plan.json > comment.md";

pub(super) const DIFF_EXAMPLES: &str = "\
Compared: per resource change (by address, following moves) its actions, reason,
replace paths, import and before/after values; drift; output changes; check
statuses; errored and complete. Values unknown until apply are equal to each
other whatever the JSON holds there; timestamp, terraform_version and key order
never count. Secrets are compared (by a hash) and never printed.

Examples:
  planview diff reviewed.json applied.json
  planview diff --format markdown reviewed.json applied.json > comment.md
  planview diff --format json reviewed.json applied.json | jq '.entries[].address'";

pub(super) const DIFF_EXIT_CODES: &str = "\
Exit codes:
  0  both plans were read and would do the same
  1  they would do something different (each difference is listed)
  2  usage error, unreadable or invalid input, a state instead of a plan, unsupported format_version";

pub(super) const FINGERPRINT_EXAMPLES: &str = "\
Examples:
  planview fingerprint plan.json
  planview fingerprint --format json plan.json | jq .canonical.resources
  planview gate --expect-fingerprint \"$(planview fingerprint reviewed.json)\" plan.json";

pub(super) const FINGERPRINT_EXIT_CODES: &str = "\
Exit codes:
  0  the plan was read (never 1)
  2  usage error, unreadable or invalid input, a state instead of a plan, unsupported format_version";

pub(super) const MOVES_EXAMPLES: &str = "\
A delete and a create are paired when both are managed, of the same type and
provider, and every attribute known in the created object's `after` equals the
deleted object's `before` (values known only after apply and --ignore'd ones are
left out). Only one-to-one pairs are suggested; the others are listed in comments.

Examples:
  planview moves plan.json > moved.tf.json
  planview moves --format hcl --ignore tags --ignore tags_all plan.json
  planview moves --format commands plan.out --chdir infra/   # a saved plan
  planview moves --format json plan.json | jq '.pairs[]'";

pub(super) const SHOW_EXAMPLES: &str = "\
Examples:
  planview show plan.json
  planview show --address 'module.net.*' --action replace plan.json
  planview show --format markdown plan.json > comment.md
  planview show --format json plan.json | jq '.resources[].changes[].path_text'";

pub(super) const GATE_EXAMPLES: &str = "\
Examples:
  planview gate plan.json                              # no destruction (the default)
  planview gate --allow 'aws_instance.tmp[*]' plan.json   # ... except these
  planview gate --max delete=3 --protect 'module.db' plan.json
  planview gate --deny forget --deny import --fail-on-checks plan.json
  planview gate --policy .planview-policy.json */plan.json
  planview gate --format github plan.json              # GitHub Actions annotations
  planview gate --format junit plan.json > gate.xml    # GitLab, Jenkins, Azure DevOps";

pub(super) const GATE_EXIT_CODES: &str = "\
Exit codes:
  0  every plan passed
  1  a plan broke a rule (each violation is listed)
  2  usage error, unreadable policy or input (never a pass)";

pub(super) const COMPLETION_HELP: &str = "\
Install:
  bash:       planview completions bash > ~/.local/share/bash-completion/completions/planview
  zsh:        planview completions zsh > \"${fpath[1]}/_planview\"
  fish:       planview completions fish > ~/.config/fish/completions/planview.fish
  powershell: planview completions powershell | Out-String | Invoke-Expression";

pub(super) const DRIFT_EXAMPLES: &str = "\
Examples:
  planview drift plan.json
  planview drift --all plan.json              # every drifted object and attribute
  planview drift --address 'module.net.*' --format markdown plan.json";

pub(super) const REPLACE_EXAMPLES: &str = "\
Examples:
  planview replace plan.json
  planview replace --type aws_instance --format json plan.json | jq '.replacements[].paths'";

pub(super) const CHECKS_EXAMPLES: &str = "\
Examples:
  planview checks plan.json                   # failures only; exit 1 if any
  planview checks --all plan.json             # pass and unknown too
  planview checks --no-fail --format markdown plan.json > checks.md";

pub(super) const OUTPUTS_EXAMPLES: &str = "\
Examples:
  planview outputs plan.json
  planview outputs --format json state.json";

pub(super) const STATE_EXAMPLES: &str = "\
Examples:
  planview state state.json
  planview state --prior plan.json            # the state the plan was made against
  planview state --module module.platform --type aws_db_instance state.json";

/// `comment`: what the body holds, and examples.
pub(super) const COMMENT_EXAMPLES: &str = "\
The body: the gate's verdict and policy first, the Plan: line(s) (a row per
input when there are several), the changes grouped destructive-first with their
reasons and `show`'s diffs in <details>, failing checks, relevant drift, output
changes. It fits the platform's limit: when it would not, diffs of changes that
change nothing go first, then the other diffs, then list rows, and a closing
line says what was left out. It starts with a hidden marker,
<!-- planview:ID -->, by which a poster finds and updates its own comment.

Examples:
  planview comment plan.json > comment.md
  planview comment --platform gitlab --protect 'module.db' */plan.json
  planview comment --skip-unchanged --outputs-file out.env --summary-file summary.md plan.json
  (GitHub Actions: --summary-file and --outputs-file default to $GITHUB_STEP_SUMMARY and $GITHUB_OUTPUT)";

pub(super) const COMMENT_EXIT_CODES: &str = "\
Exit codes:
  0  every plan passed, as `gate` (also: --skip-unchanged and nothing changes)
  1  a plan broke a rule (the body says which)
  2  usage error, unreadable policy or input (the body says which; never a pass)";
