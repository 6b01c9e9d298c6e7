#!/usr/bin/env bash
# Batch test of clients/emacs/memory-lsp.el against a real memory-lsp binary.
#
#   go build -o $TMPDIR/memory-lsp ./cmd/memory-lsp
#   MEMORY_LSP_BIN=$TMPDIR/memory-lsp bash clients/emacs/test/run.sh
#
# Needs Emacs >= 28 with Eglot (Debian/Ubuntu: apt-get install -y emacs-nox
# elpa-eglot; Emacs 29+ has Eglot built in). EMACS picks the binary (default:
# emacs). Exits 0 on success; never runs longer than TIMEOUT seconds (120).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
emacs=${EMACS:-emacs}
limit=${TIMEOUT:-120}

if [[ -z "${MEMORY_LSP_BIN:-}" ]]; then
	echo "run.sh: set MEMORY_LSP_BIN to a memory-lsp binary (go build -o "$TMPDIR"/memory-lsp ./cmd/memory-lsp)" >&2
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

# The client is loaded as README.md tells users to: its "Plain" setup block
# (the elisp block after the marker comment) becomes setup.el, with its two
# example paths replaced by this checkout's client folder and MEMORY_LSP_BIN,
# and runs in `emacs -Q`, which skips site-lisp and package activation. So a
# README setup that fails under -Q (no Eglot on load-path on Emacs 28) fails
# here.
readme="$here/../README.md"
client_dir=$(cd "$here/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/memory-lsp-emacs-setup.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
awk '/<!-- test\/run.sh runs the next elisp block/ { armed = 1; next }
	armed && /^```elisp$/ { inblock = 1; next }
	inblock && /^```$/ { exit }
	inblock { print }' "$readme" >"$tmp/setup.el"
for example in '"~/src/memory-lsp/clients/emacs"' '"~/go/bin/memory-lsp"'; do
	if ! grep -qF "$example" "$tmp/setup.el"; then
		echo "run.sh: the setup block of $readme (after the test/run.sh marker) has no $example to replace" >&2
		exit 1
	fi
done
sed -i -e "s|\"~/src/memory-lsp/clients/emacs\"|\"$client_dir\"|" \
	-e "s|\"~/go/bin/memory-lsp\"|\"$MEMORY_LSP_BIN\"|" "$tmp/setup.el"

if ! out=$("$emacs" --batch -Q -l "$tmp/setup.el" 2>&1 </dev/null); then
	echo "run.sh: README.md's setup fails under $emacs -Q (no Eglot? Emacs >= 29, or apt-get install -y elpa-eglot on Emacs 28):" >&2
	echo "$out" >&2
	echo "--- setup.el ---" >&2
	cat "$tmp/setup.el" >&2
	exit 1
fi

start=$(date +%s.%N)
status=0
# Standard input from /dev/null: a question asked by mistake fails at once
# instead of waiting for an answer.
MEMORY_LSP_SETUP="$tmp/setup.el" timeout -k 5 "$limit" "$emacs" --batch -Q -l "$tmp/setup.el" \
	-l "$here/memory-lsp-test.el" -f memory-lsp-test-run </dev/null || status=$?
end=$(date +%s.%N)
elapsed=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')

case $status in
0) echo "memory-lsp Emacs test: PASS (${elapsed}s)" ;;
124 | 137) echo "memory-lsp Emacs test: FAIL: timed out after ${limit}s" >&2 ;;
*) echo "memory-lsp Emacs test: FAIL (exit $status, ${elapsed}s)" >&2 ;;
esac
exit "$status"
