#!/usr/bin/env bash
# Headless end-to-end test of the Vim client in Debian's Vim 9 with ALE
# (apt-get install vim vim-ale): the ALE linter starts the real server for a
# .memory/ file and for AGENTS.md, not for README.md; test.vim checks
# diagnostics by code, that they follow an unsaved edit, AGENTS.md's
# stale-path as it is edited, :MemoryStore (closed and open file),
# :MemoryQuery with its stale mark, and :MemoryFixAll.
#
#   go build -o $TMPDIR/memory-lsp ./cmd/memory-lsp
#   MEMORY_LSP_BIN=$TMPDIR/memory-lsp bash clients/vim/test/run.sh
#
# Exits 0 on success, 77 when ALE is not installed; on failure prints the
# reason and the log to stderr.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

if [[ -z "${MEMORY_LSP_BIN:-}" ]]; then
  echo "run.sh: set MEMORY_LSP_BIN to the memory-lsp binary (go build -o \$TMPDIR/memory-lsp ./cmd/memory-lsp)" >&2
  exit 2
fi
bin=$(cd "$(dirname "$MEMORY_LSP_BIN")" && pwd)/$(basename "$MEMORY_LSP_BIN")
if ! command -v vim >/dev/null; then
  echo "run.sh: vim is not installed (apt-get install -y vim vim-ale)" >&2
  exit 2
fi
if [[ -z "${ALE_DIR:-}" && ! -d /usr/share/vim/vimfiles/pack/dist-bundle/opt/ale ]]; then
  echo "ALE is not installed (apt-get install -y vim-ale, or set ALE_DIR to a clone of dense-analysis/ale)"
  exit 77
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/memory-lsp-vim.XXXXXX")
trap '[[ -n "${KEEP_TMP:-}" ]] && echo "kept $tmp" >&2 || rm -rf "$tmp"' EXIT

ws="$tmp/workspace"
mkdir -p "$ws/.memory" "$ws/src"
git init -q "$ws"
# Known problems: a "* " bullet (bullet-marker), [My Slug] (slug-format),
# [db] twice (duplicate-slug), [flaky]Retry (slug-malformed, safely fixable),
# and a path that does not exist (stale-path).
cat >"$ws/.memory/decisions.md" <<'MD'
# Decisions

* Use Postgres for the ledger.
- [My Slug] Deploy the API before the web app.
- [db] Use Postgres 16.
- [db] Use Postgres 16 for reports.
- [flaky]Retry the e2e suite once.
- Sessions live in src/auth/session.go.
MD
printf '# Quirks\n\n' >"$ws/.memory/quirks.md"
printf '* not a memory file\n' >"$ws/README.md"
# An agent's file whose last bullet cites a path that does not exist.
printf '# Agents\n\n* Read .memory/ first.\n- Handlers live in src/legacy/handler.go.\n' >"$ws/AGENTS.md"
printf 'package main\n' >"$ws/src/main.go"
# The paths cited above were committed once and moved since: the history
# shows where they went, which makes stale-path a warning and
# :MemoryQuery's hit stale (a path deleted, or one no commit ever had, is
# only information).
mkdir -p "$ws/src/auth" "$ws/src/legacy"
printf 'package auth\n' >"$ws/src/auth/session.go"
printf 'package legacy\n' >"$ws/src/legacy/handler.go"
commit() { git -C "$ws" -c user.email=t@example.com -c user.name=t -c commit.gpgsign=false commit -qm "$1"; }
git -C "$ws" add -A
commit init
mkdir -p "$ws/internal"
git -C "$ws" mv src/auth internal/auth
git -C "$ws" mv src/legacy internal/legacy
commit 'move the old session and handler code to internal/'

log="$tmp/test.log"
: >"$log"
export TEST_LOG="$log" TEST_WS="$ws" MEMORY_LSP_BIN="$bin" HOME="$tmp/home"
mkdir -p "$HOME"
status=0
(cd "$ws" && timeout 150 vim -N -u "$here/vimrc" -i NONE -n --not-a-term -S "$here/test.vim" </dev/null >"$tmp/vim.out" 2>&1) || status=$?
cat "$log"
if [[ $status -ne 0 ]] || ! grep -q '^PASS$' "$log"; then
  echo "vim test failed (exit $status)" >&2
  # the screen, without the terminal's control sequences
  sed 's/\x1b\[[0-9;?>=]*[a-zA-Z]//g; s/\x1b[=>]//g' "$tmp/vim.out" | tail -n 40 >&2 || true
  exit 1
fi
