#!/usr/bin/env bash
# The extension in a real VS Code: code-server 4.99.4 (VS Code 1.99) with the
# packaged .vsix installed, driven in Debian's headless Chromium by
# codeserver/drive.js (puppeteer-core). It opens .memory/decisions.md in a git
# repository, reads the diagnostics and their codes from the editor and the
# Problems panel, applies a quick fix, and runs Memory: Store from the command
# palette; the files on disk must change accordingly. Then F12 on a path an
# entry cites opens that file at the cited line, and AGENTS.md, opened last,
# shows the stale path its bullet cites and no memory rule.
#
#   clients/vscode/test/install-code-server.sh     # once; .ci/run does it
#   go build -o $TMPDIR/memory-lsp ./cmd/memory-lsp
#   MEMORY_LSP_BIN=$TMPDIR/memory-lsp clients/vscode/test/codeserver-test.sh
#
# Exits 0 on success, 77 when something it needs is not installed (the Go
# test skips then), anything else on failure, with a screenshot, the
# extension's log and a DOM excerpt. KEEP_TMP=1 keeps the temporary folder.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
client_dir=$(cd "$here/.." && pwd)
# shellcheck source=codeserver/env.sh
. "$here/codeserver/env.sh"

if [[ -z "${MEMORY_LSP_BIN:-}" || ! -x "${MEMORY_LSP_BIN:-}" ]]; then
  echo "codeserver-test.sh: set MEMORY_LSP_BIN to the memory-lsp binary (go build -o "$TMPDIR"/memory-lsp ./cmd/memory-lsp)" >&2
  exit 2
fi
bin=$(cd "$(dirname "$MEMORY_LSP_BIN")" && pwd)/$(basename "$MEMORY_LSP_BIN")

skip() {
  echo "$1; .ci/run installs it (clients/vscode/test/install-code-server.sh)" >&2
  exit 77
}
[[ -f "$CODE_SERVER_STAMP" ]] || skip "code-server $CODE_SERVER_VERSION is not installed in $CODE_SERVER_HOME"
command -v chromium >/dev/null || skip "chromium is not installed"
[[ -d "$here/codeserver/node_modules/puppeteer-core" ]] || skip "puppeteer-core is not installed in clients/vscode/test/codeserver"
[[ -d "$client_dir/node_modules" ]] || skip "clients/vscode/node_modules is missing (npm ci)"

t0=$SECONDS
step() { local t=$SECONDS what=$1; shift; "$@"; echo "codeserver-test: $what took $((SECONDS - t))s" >&2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/memory-lsp-codeserver.XXXXXX")
server_pid= driver_pid=
cleanup() {
  local rc=$?
  set +e
  # The driver closes Chromium itself; after a crash or a signal, end it here
  # (puppeteer starts it in a process group of its own and drive.js writes
  # its pid), and code-server's process group (setsid).
  [[ -n "$driver_pid" ]] && kill -TERM "$driver_pid" 2>/dev/null
  local groups=()
  [[ -s "$tmp/chromium.pid" ]] && groups+=("$(cat "$tmp/chromium.pid")")
  [[ -n "$server_pid" ]] && groups+=("$server_pid")
  local g
  for g in "${groups[@]}"; do kill -TERM -- "-$g" 2>/dev/null; done
  for _ in $(seq 1 20); do
    local alive=
    for g in "${groups[@]}"; do kill -0 -- "-$g" 2>/dev/null && alive=1; done
    [[ -z "$alive" ]] && break
    sleep 0.25
  done
  for g in "${groups[@]}"; do kill -KILL -- "-$g" 2>/dev/null; done
  if [[ -n "${KEEP_TMP:-}" || $rc != 0 ]]; then
    echo "codeserver-test: kept $tmp" >&2
  else
    rm -rf "$tmp"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

# The extension as users install it: the packaged .vsix of this source.
# (vsce's advice to bundle is not for this test: its output is shown on failure only.)
package() { npm run --silent package >"$tmp/package.log" 2>&1 || { cat "$tmp/package.log" >&2; return 1; }; }
(cd "$client_dir" && step "compile" npm run --silent compile && step "package" package)

# Nothing in the user's home: code-server writes its config, Chromium and
# VS Code their caches, under HOME and XDG_*.
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/home/.config" XDG_DATA_HOME="$tmp/home/.local/share" \
  XDG_CACHE_HOME="$tmp/home/.cache"
mkdir -p "$HOME" "$tmp/user/User" "$tmp/extensions"
cs=(node "$CODE_SERVER_ENTRY" --config "$tmp/config.yaml" --user-data-dir "$tmp/user" --extensions-dir "$tmp/extensions")
printf 'auth: none\n' >"$tmp/config.yaml"
install_vsix() {
  "${cs[@]}" --install-extension "$client_dir/memory-lsp.vsix" >"$tmp/install-extension.log" 2>&1 ||
    { cat "$tmp/install-extension.log" >&2; return 1; }
}
step "install the .vsix" install_vsix

# Quiet: no welcome page, trust prompt, telemetry, update checks,
# recommendations, or git extension. The client traces the JSON-RPC messages
# (MEMORY_LSP_TRACE=verbose: with their contents) into its log, at trace
# level, which code-server's --log trace turns on; drive.js prints it on failure.
cat >"$tmp/user/User/settings.json" <<JSON
{
  "memoryLsp.path": "$bin",
  "memoryLsp.trace.server": "${MEMORY_LSP_TRACE:-messages}",
  "security.workspace.trust.enabled": false,
  "telemetry.telemetryLevel": "off",
  "workbench.startupEditor": "none",
  "workbench.welcomePage.walkthroughs.openOnInstall": false,
  "workbench.tips.enabled": false,
  "workbench.enableExperiments": false,
  "extensions.ignoreRecommendations": true,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "update.mode": "none",
  "git.enabled": false,
  "chat.commandCenter.enabled": false,
  "files.autoSave": "off",
  "remote.autoForwardPorts": false
}
JSON

# The workspace: a git repository with .memory/decisions.md. Line 4 reuses
# the slug "db" (duplicate-slug, an error) and reverses line 3 (conflict), line 5 has a "* "
# bullet (bullet-marker, quick-fixable), line 6 a slug that is not kebab-case
# (slug-format).
ws="$tmp/workspace"
mkdir -p "$ws/.memory"
git init -q "$ws"
cat >"$ws/.memory/decisions.md" <<'MD'
# Decisions

- [db] Use Postgres for the main database.
- [db] Never use Postgres for the main database.
* [api-style] Expose the public API as REST over HTTPS.
- [Bad_Slug] Deploy with blue-green releases.
MD

# Code that memory will cite: drive.js writes instructions.md, citing
# src/auth/session.ts at line 2 (F12 goes there) and, last, a legacy
# handler that a commit moved (AGENTS.md cites the legacy router): a
# missing path the history shows moved is a stale-path warning, one it
# shows deleted or no commit ever had only information.
mkdir -p "$ws/src/auth" "$ws/src/legacy"
printf 'export const a = 1;\nexport function session() {}\n' >"$ws/src/auth/session.ts"
printf 'export {};\n' >"$ws/src/legacy/handler.ts"
printf 'export {};\n' >"$ws/src/legacy/router.ts"
commit() { git -C "$ws" -c user.name=test -c user.email=test@example.com -c commit.gpgsign=false commit -q -m "$1"; }
git -C "$ws" add src
commit code
git -C "$ws" mv src/legacy src/old
commit 'move the legacy handlers to src/old'
# code-server on a port the kernel picks, 127.0.0.1 only, in its own process group.
# The log exists before the server starts: the background job's redirect
# may come after the first read below, which set -e would end the test on.
: >"$tmp/code-server.log"
setsid "${cs[@]}" --bind-addr 127.0.0.1:0 --disable-telemetry --disable-update-check \
  --disable-workspace-trust --disable-getting-started-override --log trace "$ws" >>"$tmp/code-server.log" 2>&1 &
server_pid=$!
url=
for _ in $(seq 1 120); do
  url=$(sed -n 's|.*HTTP server listening on \(http://127\.0\.0\.1:[0-9]*/\).*|\1|p' "$tmp/code-server.log" | head -n 1)
  [[ -n "$url" ]] && break
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.25
done
if [[ -z "$url" ]]; then
  echo "codeserver-test: code-server did not start:" >&2
  cat "$tmp/code-server.log" >&2
  exit 1
fi
echo "codeserver-test: code-server at $url ($((SECONDS - t0))s)" >&2

export PUPPETEER_SKIP_DOWNLOAD=1
rc=0
# In the background, so that a TERM (the Go test's timeout) runs the trap now.
node "$here/codeserver/drive.js" --url "$url" --workspace "$ws" --user-data-dir "$tmp/user" --out "$tmp" &
driver_pid=$!
wait "$driver_pid" || rc=$?
driver_pid=
if [[ $rc != 0 ]]; then
  echo "--- code-server log (last 40 lines but the file watcher's)" >&2
  grep -v 'File Watcher\|File action' "$tmp/code-server.log" | tail -n 40 >&2
fi
echo "codeserver-test: done in $((SECONDS - t0))s" >&2
exit "$rc"
