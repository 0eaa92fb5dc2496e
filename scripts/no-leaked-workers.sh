#!/usr/bin/env bash
# Runs a test command (`npm test`), its output shown as it comes, and fails it when Jest had to force a
# worker to exit: Jest only warns when a worker is still alive half a second after the run ("force
# exited"), which is a leaked handle or work the worker's V8 had not finished. The command's own
# failure is passed on. Used by .ci/run and ci.yml alike. Usage: no-leaked-workers.sh npm test
set -uo pipefail
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
[ "$status" -eq 0 ] || exit "$status"
if grep -q 'force exited' "$log"; then
  echo "no-leaked-workers: a Jest worker did not exit by itself (see 'force exited' above): a test left something running" >&2
  exit 1
fi
