#!/usr/bin/env bash
# Installs what codeserver-test.sh needs, with no downloads but the npm
# registry and Debian's archive (see ../shared/design/vscode-in-ci.md, beside the clone):
#   - Debian's chromium and ripgrep (apt, when run as root and missing);
#   - code-server 4.99.4 (VS Code 1.99, the last line on Node 20) from
#     codeserver/server/package-lock.json into a cache folder (codeserver/env.sh),
#     its VS Code dependencies from their shrinkwrap, and only the native
#     modules the server needs built from source (their install scripts would
#     download prebuilt binaries from GitHub);
#   - the driver, puppeteer-core, from codeserver/package-lock.json
#     (PUPPETEER_SKIP_DOWNLOAD: it drives Debian's Chromium).
# A second run with nothing changed does nothing. Prints how long each step took.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=codeserver/env.sh
. "$here/codeserver/env.sh"
export PUPPETEER_SKIP_DOWNLOAD=1 npm_config_audit=false npm_config_fund=false npm_config_loglevel=error

step() {
  local t=$SECONDS
  echo "install-code-server: $1" >&2
  shift
  "$@"
  echo "install-code-server:   took $((SECONDS - t))s" >&2
}
start=$SECONDS

# 1. Debian packages. build-essential and python3 are node-gyp's.
debs=(chromium ripgrep build-essential python3)
missing=()
for d in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$d" 2>/dev/null | grep -q '^install ok installed' || missing+=("$d")
done
apt_install() {
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
apt_install_twice() {
  # dpkg has been seen to lose a downloaded .deb here once; a second try works.
  apt_install || { echo "install-code-server: retrying the install" >&2; sleep 5; apt_install; }
}
if ((${#missing[@]} > 0)); then
  if [[ $(id -u) != 0 ]] || ! command -v apt-get >/dev/null; then
    echo "install-code-server: install ${missing[*]} (Debian packages) first" >&2
    exit 1
  fi
  step "apt-get install ${missing[*]}" apt_install_twice
fi

# 2. The driver, in the repository (gitignored node_modules).
driver=$here/codeserver
driver_want=$(sha256sum <"$driver/package-lock.json" | cut -d' ' -f1)
if [[ $(cat "$driver/node_modules/.installed" 2>/dev/null) != "$driver_want" ]]; then
  step "npm ci (puppeteer-core)" npm ci --prefix "$driver" --ignore-scripts
  echo "$driver_want" >"$driver/node_modules/.installed"
fi

# 3. code-server, unless this very install is done already.
want=$(cat "$here/codeserver/server/package-lock.json" "$here/install-code-server.sh" | sha256sum | cut -d' ' -f1)
if [[ -f "$CODE_SERVER_STAMP" && $(cat "$CODE_SERVER_STAMP") == "$want" ]]; then
  echo "install-code-server: code-server $CODE_SERVER_VERSION is installed in $CODE_SERVER_HOME" >&2
  exit 0
fi
rm -rf "$CODE_SERVER_HOME"
mkdir -p "$CODE_SERVER_HOME"
cp "$here/codeserver/server/package.json" "$here/codeserver/server/package-lock.json" "$CODE_SERVER_HOME/"
cd "$CODE_SERVER_HOME"
# --ignore-scripts: code-server's postinstall refuses root and its inner
# install downloads ripgrep from GitHub; what it does is done below.
step "npm ci (code-server $CODE_SERVER_VERSION)" npm ci --ignore-scripts
# argon2 (password auth, loaded at startup even with --auth none): its
# install script tries GitHub, then builds.
step "build argon2" env npm_config_yes=true npm rebuild argon2

vscode=$CODE_SERVER_HOME/node_modules/code-server/lib/vscode
cd "$vscode"
# npm install, not ci: its npm-shrinkwrap.json misses a package (tslib), which
# npm ci refuses; install keeps every version the shrinkwrap names.
step "npm install (VS Code's server dependencies)" npm install --omit=dev --ignore-scripts
# @vscode/ripgrep's postinstall would download rg; quick open and search use it.
mkdir -p node_modules/@vscode/ripgrep/bin
cp "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
# Native modules the server loads: logging (spdlog), the terminal (node-pty,
# whose script runs npx node-gyp), the extension host watchdog, the machine
# id, the file watcher (a prebuilt npm package). Not kerberos (proxy
# authentication only) nor the Windows-only ones.
step "build native modules" env npm_config_yes=true npm rebuild \
  @vscode/spdlog node-pty native-watchdog @vscode/deviceid @parcel/watcher
# What code-server's postinstall does besides installing.
ln -sfn node_modules node_modules.asar
(cd bin/remote-cli && ln -sfn code-linux.sh code-server)
(cd bin/helpers && ln -sfn browser-linux.sh browser.sh)
# Not installed: lib/vscode/extensions' shared typescript, used only by the
# built-in TypeScript/JavaScript language features.

node "$CODE_SERVER_ENTRY" --version >/dev/null
echo "$want" >"$CODE_SERVER_STAMP"
echo "install-code-server: installed code-server $CODE_SERVER_VERSION in $CODE_SERVER_HOME in $((SECONDS - start))s" >&2
