#!/usr/bin/env bash
# Install planview for the GitHub Action: the release asset of the action's
# version, verified by its SHA-256, when the release has one for this runner;
# else `cargo install --locked` from the action's own checkout.
#
# env: PLANVIEW_VERSION   a release tag (v0.1.0); empty: the action's ref when it is one
#      PLANVIEW_REPO      owner/name of the action's repository
#      ACTION_PATH        the action's checkout
#      RUNNER_TEMP, GITHUB_PATH (set by the runner)
set -euo pipefail
dest="${RUNNER_TEMP:-/tmp}/planview-bin"
mkdir -p "$dest/bin"
version=${PLANVIEW_VERSION:-}
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) target=x86_64-unknown-linux-gnu ;;
  Linux-aarch64) target=aarch64-unknown-linux-gnu ;;
  Darwin-arm64) target=aarch64-apple-darwin ;;
  Darwin-x86_64) target=x86_64-apple-darwin ;;
  *) target="" ;;
esac
installed=""
if [ -n "$version" ] && [ -n "$target" ] && [ -n "${PLANVIEW_REPO:-}" ]; then
  asset="planview-$version-$target.tar.gz"
  base="https://github.com/$PLANVIEW_REPO/releases/download/$version"
  tmp=$(mktemp -d)
  if curl -fsSL -o "$tmp/$asset" "$base/$asset" && curl -fsSL -o "$tmp/$asset.sha256" "$base/$asset.sha256"; then
    expected=$(cut -d ' ' -f 1 <"$tmp/$asset.sha256")
    actual=$(sha256sum "$tmp/$asset" 2>/dev/null | cut -d ' ' -f 1 || shasum -a 256 "$tmp/$asset" | cut -d ' ' -f 1)
    if [ -n "$expected" ] && [ "$expected" = "$actual" ]; then
      tar -xzf "$tmp/$asset" -C "$tmp"
      find "$tmp" -type f -name planview -exec cp {} "$dest/bin/planview" \;
      chmod +x "$dest/bin/planview"
      installed="release $version ($target), SHA-256 verified"
    else
      echo "::error::planview: $asset does not match its SHA-256 ($actual, expected $expected)"
      exit 1
    fi
  fi
  rm -rf "$tmp"
fi
if [ -z "$installed" ]; then
  cargo install --locked --path "${ACTION_PATH:?ACTION_PATH is not set}" --root "$dest" --quiet
  installed="built from the action's checkout"
fi
echo "$dest/bin" >>"${GITHUB_PATH:-/dev/null}"
"$dest/bin/planview" --version
echo "planview: $installed"
