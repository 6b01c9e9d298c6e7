# Sourced by install-code-server.sh and codeserver-test.sh: where code-server
# is installed. A cache folder outside the repository, so that a fresh clone
# on the same machine reuses it and `go vet ./...` never walks its thousands
# of files. MEMORY_LSP_CODE_SERVER overrides it.
CODE_SERVER_VERSION=4.99.4
CODE_SERVER_HOME=${MEMORY_LSP_CODE_SERVER:-${XDG_CACHE_HOME:-$HOME/.cache}/memory-lsp/code-server-$CODE_SERVER_VERSION}
CODE_SERVER_ENTRY=$CODE_SERVER_HOME/node_modules/code-server/out/node/entry.js
# Written last by a successful install: the hash of what was installed, so a
# changed lockfile or install script installs again.
CODE_SERVER_STAMP=$CODE_SERVER_HOME/.installed
