#!/usr/bin/env bash
# Headless end-to-end test of the Neovim client (runs on Debian's Neovim 0.7.2
# and later): the legacy setup (lua/memory_lsp) starts the real server for a
# .memory/ file, and test_spec.lua checks diagnostics, a quick fix, fix-all,
# :MemoryStore (closed and open file), :MemoryQuery, a held write approved
# by its code action, a stale-path warning, a load-budget warning with the
# file's size in the hover on its first line, AGENTS.md's stale-path as it
# is edited, and
# go-to-definition on a cited path, and that README.md gets
# no client.
#
#   go build -o $TMPDIR/memory-lsp ./cmd/memory-lsp
#   MEMORY_LSP_BIN=$TMPDIR/memory-lsp bash clients/nvim/test/run.sh
#
# Exits 0 on success; on failure prints the reason and the logs to stderr.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
client_dir=$(cd "$here/.." && pwd)

if [[ -z "${MEMORY_LSP_BIN:-}" ]]; then
  echo "run.sh: set MEMORY_LSP_BIN to the memory-lsp binary (go build -o "$TMPDIR"/memory-lsp ./cmd/memory-lsp)" >&2
  exit 2
fi
bin=$(cd "$(dirname "$MEMORY_LSP_BIN")" && pwd)/$(basename "$MEMORY_LSP_BIN")
if [[ ! -x "$bin" ]]; then
  echo "run.sh: MEMORY_LSP_BIN=$MEMORY_LSP_BIN is not an executable file" >&2
  exit 2
fi
if ! command -v nvim >/dev/null; then
  echo "run.sh: nvim is not installed (apt-get install -y neovim)" >&2
  exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/memory-lsp-nvim.XXXXXX")
trap '[[ -n "${KEEP_TMP:-}" ]] && echo "kept $tmp" >&2 || rm -rf "$tmp"' EXIT

# An isolated Neovim: no user config, plugins, shada or state.
export XDG_CONFIG_HOME="$tmp/xdg/config" XDG_DATA_HOME="$tmp/xdg/data" \
  XDG_STATE_HOME="$tmp/xdg/state" XDG_CACHE_HOME="$tmp/xdg/cache"
mkdir -p "$XDG_CONFIG_HOME" "$XDG_DATA_HOME" "$XDG_STATE_HOME" "$XDG_CACHE_HOME"

ws="$tmp/workspace"
mkdir -p "$ws/.memory/archive"
# Users work in git repositories: so does the test.
git init -q "$ws"
# Known problems: a "* " bullet (bullet-marker), [My Slug] (slug-format),
# [db] twice, the second reversing the first (duplicate-slug and conflict), [flaky]Retry (slug-malformed, safely fixable).
cat >"$ws/.memory/decisions.md" <<'MD'
# Decisions

* Use Postgres for the ledger.
- [My Slug] Deploy the API before the web app.
- [db] Use Redis for caching.
- [db] Never use Redis for caching.
- [flaky]Retry the e2e suite once before reporting.
MD
cat >"$ws/.memory/quirks.md" <<'MD'
# Quirks

- [gradle-leak] The Gradle daemon leaks memory after about 20 builds.
MD
# One finding each of two rules that are on by default: bullet-marker (line 3)
# and long-entry (line 4, over 300 UTF-16 units). minimal_init.lua turns
# long-entry off in settings; the spec checks it is absent here and present
# in $plain, which gets the same file and no such setting.
prefs='# Preferences

* Prefer small pull requests.
- [review-order] Review the migration files first, then the API handlers, then the web app, because a wrong migration is the costliest mistake to undo and the web app changes are usually the easiest ones to check by running the app locally, while the API handlers need the migrations applied before their tests can start on a fresh database.
'
printf '%s' "$prefs" >"$ws/.memory/preferences.md"
# A team that uses Claude Code (CLAUDE.md) and keeps a security.md of 2,001
# lines: Claude Code's Read tool returns 2,000, so load-budget warns on the
# 2,001st (a heading, blank lines, then the one entry).
printf '# Team\n\nRead .memory/ before answering.\n' >"$ws/CLAUDE.md"
{ printf '# Security\n'; for _ in $(seq 1999); do printf '\n'; done; printf -- '- [no-token-logs] Never log access tokens.\n'; } >"$ws/.memory/security.md"
# Code the memory cites (committed, as in a user's repository): an entry
# citing src/auth/session.ts at line 2 (a go-to-definition target) and ones
# citing the legacy handlers, which a later commit moved: a path the
# history shows moved is a stale-path warning (one it shows deleted or
# never shows is only information, and :MemoryQuery marks no hit stale
# for it).
mkdir -p "$ws/src/auth" "$ws/src/legacy"
printf 'export const a = 1;\nexport function session() {}\n' >"$ws/src/auth/session.ts"
printf 'export {};\n' >"$ws/src/legacy/handler.ts"
printf 'export {};\n' >"$ws/src/legacy/agents.ts"
commit() { git -C "$ws" -c user.name=test -c user.email=test@example.com -c commit.gpgsign=false commit -q -m "$1"; }
git -C "$ws" add src
commit code
git -C "$ws" mv src/legacy src/old
commit 'move the legacy handlers to src/old'
cat >"$ws/.memory/instructions.md" <<'MD'
# Instructions

- [auth-file] Sessions are created in `src/auth/session.ts:2`.
- [handler] Requests go through `src/legacy/handler.ts`.
MD
# A second workspace that is not a git repository.
plain="$tmp/plain"
mkdir -p "$plain/.memory"
printf '%s' "$prefs" >"$plain/.memory/preferences.md"
if git -C "$plain" rev-parse --git-dir >/dev/null 2>&1; then
  echo "run.sh: $plain is inside a git repository; set TMPDIR elsewhere" >&2
  exit 2
fi
# Not memory files: the server must never be attached to these.
printf '* not a memory file\n- [Bad Slug] nor this\n' >"$ws/README.md"
printf '* x\n- [Bad Slug] archived\n' >"$ws/.memory/archive/old.md"

export MEMORY_LSP_BIN="$bin" MEMORY_LSP_TEST_ROOT="$ws" MEMORY_LSP_CLIENT_DIR="$client_dir" \
  MEMORY_LSP_PLAIN_ROOT="$plain" \
  MEMORY_LSP_SERVER_LOG="$tmp/server.log"

start=$(date +%s.%N)
rc=0
(cd "$ws" && timeout -k 5 120 nvim --headless -n -i NONE -u "$here/minimal_init.lua" \
  -c "luafile $here/test_spec.lua" </dev/null) || rc=$?
elapsed=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')

if [[ $rc -ne 0 ]]; then
  if [[ $rc -eq 124 || $rc -eq 137 ]]; then
    echo "nvim test: TIMED OUT after 120 s (exit $rc)" >&2
  fi
  echo "nvim test: FAILED (exit $rc, ${elapsed}s)" >&2
  echo "--- server log (last 60 lines) ---" >&2
  tail -n 60 "$tmp/server.log" >&2 2>/dev/null || true
  for f in "$XDG_CACHE_HOME/nvim/lsp.log" "$XDG_STATE_HOME/nvim/lsp.log"; do
    if [[ -f "$f" ]]; then
      echo "--- $f (last 40 lines) ---" >&2
      tail -n 40 "$f" >&2
    fi
  done
  exit 1
fi
echo "nvim test: ok ($(nvim --version | head -n 1), ${elapsed}s)"
