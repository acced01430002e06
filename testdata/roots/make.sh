#!/usr/bin/env bash
# Writes the many-roots fixtures from the real plans in testdata/real/ (run from
# the repository root: bash testdata/roots/make.sh). See README.md here.
set -euo pipefail
cd "$(dirname "$0")"
R=../real
# Terragrunt < 0.67 (`run-all show -json`, logrus key-value logs on stderr, 2>&1).
{
  echo 'time=2024-05-14T09:12:01Z level=info msg=The stack at /work/live will be processed in the following order for command show:'
  echo 'Group 1'
  echo '- Module /work/live/network'
  echo '- Module /work/live/app'
  echo
  echo 'time=2024-05-14T09:12:02Z level=info msg=Executing hook: tflint prefix=[/work/live/network]'
  echo 'time=2024-05-14T09:12:03Z level=info msg=Running command: terraform show -json tfplan prefix=[/work/live/network]'
  cat $R/replace/plan.json
  echo 'time=2024-05-14T09:12:04Z level=info msg=Running command: terraform show -json tfplan prefix=[/work/live/app]'
  cat $R/basic/plan.json
  echo 'time=2024-05-14T09:12:05Z level=info msg=Running command: terraform show -json tfplan prefix=[/work/live/dns]'
  cat $R/noop/plan.json
} > terragrunt-run-all.log
# Terragrunt >= 0.67 (`run --all show -json --tf-forward-stdout`, pretty logs, 2>&1).
{
  echo '09:12:01.123 INFO   The runner at . will be processed in the following order for command show:'
  echo 'Group 1'
  echo '- Unit network'
  echo '- Unit app'
  echo
  echo '09:12:02.456 INFO   [network] Running command: tofu show -json tfplan'
  cat $R/destroy/plan.json
  echo '09:12:02.789 INFO   [app] Running command: tofu show -json tfplan'
  cat $R/checks/plan.json
} > terragrunt-run.log
# Terragrunt >= 0.67 by default (`run --all -- show -json`, pretty logs, 2>&1): the
# JSON is not forwarded as it is, each line of it is prefixed `HH:MM:SS.mmm STDOUT [unit] tofu: `.
{
  echo '08:00:01.000 INFO   The runner at . will be processed in the following order for command show:'
  echo 'Group 1'
  echo '- Unit live/app'
  echo '- Unit live/db'
  echo
  echo '08:00:01.500 INFO   [live/app] Running command: tofu show -json tfplan'
  printf '08:00:01.800 STDOUT [live/app] tofu: '; cat $R/noop/plan.json
  echo '08:00:02.000 INFO   [live/db] Running command: tofu show -json tfplan'
  printf '08:00:02.000 STDOUT [live/db] tofu: '; cat $R/destroy/plan.json
} > terragrunt-stdout.log
# A prefixed plan between two clean ones.
{
  cat $R/noop/plan.json
  printf '08:00:02.000 STDOUT [live/db] tofu: '; cat $R/destroy/plan.json
  cat $R/basic/plan.json
} > prefixed-between.ndjson
# A plan behind a prefix planview does not know (not Terragrunt's): never skipped.
{
  cat $R/noop/plan.json
  printf '[live/db] stdout | '; cat $R/destroy/plan.json
  cat $R/noop/plan.json
} > hidden-between.ndjson
# Plans joined by lines only (`run --all show -json` with logs disabled).
cat $R/basic/plan.json $R/noop/plan.json > joined.ndjson
# The last document cut short (a killed process).
{ cat $R/basic/plan.json; head -c 300 $R/replace/plan.json; echo; } > truncated-last.ndjson
# A directory tree: nested roots, caches that are skipped, JSON that is not a plan.
rm -rf tree
mkdir -p tree/prod/network tree/prod/app tree/staging/app/.terragrunt-cache/abc/app tree/staging/db tree/.terraform/modules
cp $R/replace/plan.json tree/prod/network/plan.json
cp $R/basic/plan.json tree/prod/app/plan.json
echo '{"name": "not-a-plan", "version": "1.0.0"}' > tree/prod/app/package.json
cp $R/noop/plan.json tree/staging/app/plan.json
cp $R/destroy/plan.json tree/staging/app/.terragrunt-cache/abc/app/plan.json
cp $R/destroy/plan.json tree/.terraform/modules/plan.json
cp $R/checks/plan.json tree/staging/db/plan.json
