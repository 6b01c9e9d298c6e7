#!/usr/bin/env bash
# The VS Code client's tests without network: compile and run `npm test`
# against $MEMORY_LSP_BIN, using the node_modules that `npm ci` installed
# (.ci/run does that; clients/editors_test.go calls this script).
set -euo pipefail
if [[ -z "${MEMORY_LSP_BIN:-}" || ! -x "$MEMORY_LSP_BIN" ]]; then
  echo "node-test.sh: set MEMORY_LSP_BIN to the memory-lsp binary" >&2
  exit 2
fi
MEMORY_LSP_BIN="$(cd "$(dirname "$MEMORY_LSP_BIN")" && pwd)/$(basename "$MEMORY_LSP_BIN")"
export MEMORY_LSP_BIN
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [[ ! -d node_modules ]]; then
  echo "node-test.sh: run npm ci in clients/vscode first (or test/run.sh, which does everything)" >&2
  exit 2
fi
npm run --silent compile
npm test
