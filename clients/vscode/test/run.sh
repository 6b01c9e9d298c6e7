#!/usr/bin/env bash
# CI entry point for the VS Code client: install exactly the locked
# dependencies, compile, run the Node tests against $MEMORY_LSP_BIN, and
# package the .vsix. Usage (from anywhere):
#   MEMORY_LSP_BIN=/abs/path/to/memory-lsp clients/vscode/test/run.sh
set -euo pipefail

if [[ -z "${MEMORY_LSP_BIN:-}" ]]; then
  echo "run.sh: set MEMORY_LSP_BIN to the memory-lsp binary (go build -o "$TMPDIR"/memory-lsp ./cmd/memory-lsp)" >&2
  exit 2
fi
if [[ ! -x "$MEMORY_LSP_BIN" ]]; then
  echo "run.sh: MEMORY_LSP_BIN=$MEMORY_LSP_BIN is not an executable file" >&2
  exit 2
fi
# The tests spawn the binary from a temporary directory: make the path absolute.
MEMORY_LSP_BIN="$(cd "$(dirname "$MEMORY_LSP_BIN")" && pwd)/$(basename "$MEMORY_LSP_BIN")"
export MEMORY_LSP_BIN

cd "$(dirname "${BASH_SOURCE[0]}")/.."
step() { local t=$SECONDS; echo "run.sh: $*" >&2; "$@"; echo "run.sh: $* took $((SECONDS - t))s" >&2; }
# --ignore-scripts: nothing here needs an install script (they belong to
# vsce's optional publishing helpers, keytar and vsce-sign).
step npm ci --no-audit --no-fund --ignore-scripts
step npm run compile
step npm test
step npm run package
