#!/usr/bin/env bash
# Batch test of clients/emacs/memory-lsp.el against a real memory-lsp binary.
#
#   go build -o /tmp/memory-lsp ./cmd/memory-lsp
#   MEMORY_LSP_BIN=/tmp/memory-lsp bash clients/emacs/test/run.sh
#
# Needs Emacs >= 28 with Eglot (Debian/Ubuntu: apt-get install -y emacs-nox
# elpa-eglot; Emacs 29+ has Eglot built in). EMACS picks the binary (default:
# emacs). Exits 0 on success; never runs longer than TIMEOUT seconds (120).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
emacs=${EMACS:-emacs}
limit=${TIMEOUT:-120}

if [[ -z "${MEMORY_LSP_BIN:-}" ]]; then
	echo "run.sh: set MEMORY_LSP_BIN to a memory-lsp binary (go build -o /tmp/memory-lsp ./cmd/memory-lsp)" >&2
	exit 2
fi
if [[ ! -x "$MEMORY_LSP_BIN" ]]; then
	echo "run.sh: MEMORY_LSP_BIN=$MEMORY_LSP_BIN is not an executable file" >&2
	exit 2
fi
MEMORY_LSP_BIN=$(cd "$(dirname "$MEMORY_LSP_BIN")" && pwd)/$(basename "$MEMORY_LSP_BIN")
export MEMORY_LSP_BIN
if ! command -v "$emacs" >/dev/null; then
	echo "run.sh: no $emacs on PATH (apt-get install -y emacs-nox elpa-eglot)" >&2
	exit 2
fi

# -Q skips site-start, which is where Debian would activate its ELPA packages
# (elpa-eglot and the newer project/xref it needs): put them on load-path
# first, so they win over Emacs 28's built-in project.el and xref.el.
elpa=(/usr/share/emacs/site-lisp/elpa/*/)
load=()
for d in "${elpa[@]}"; do
	[[ -d "$d" ]] && load+=(-L "$d")
done

if ! "$emacs" --batch -Q "${load[@]}" --eval "(require 'eglot)" >/dev/null 2>&1; then
	echo "run.sh: $emacs has no Eglot (Emacs >= 29, or apt-get install -y elpa-eglot on Emacs 28)" >&2
	exit 2
fi

start=$(date +%s.%N)
status=0
# Standard input from /dev/null: a question asked by mistake fails at once
# instead of waiting for an answer.
timeout -k 5 "$limit" "$emacs" --batch -Q "${load[@]}" -L "$here/.." \
	-l "$here/memory-lsp-test.el" -f memory-lsp-test-run </dev/null || status=$?
end=$(date +%s.%N)
elapsed=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')

case $status in
0) echo "memory-lsp Emacs test: PASS (${elapsed}s)" ;;
124 | 137) echo "memory-lsp Emacs test: FAIL: timed out after ${limit}s" >&2 ;;
*) echo "memory-lsp Emacs test: FAIL (exit $status, ${elapsed}s)" >&2 ;;
esac
exit "$status"
