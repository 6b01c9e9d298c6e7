-- Minimal init for the headless test: only $VIMRUNTIME and clients/nvim on
-- the runtimepath, and the legacy setup pointed at $MEMORY_LSP_BIN.
local dir = assert(os.getenv('MEMORY_LSP_CLIENT_DIR'), 'MEMORY_LSP_CLIENT_DIR is not set')
vim.opt.runtimepath = { dir, vim.env.VIMRUNTIME }
vim.opt.packpath = {}
vim.opt.swapfile = false
vim.opt.more = false
vim.lsp.set_log_level('warn')

require('memory_lsp').setup({
  binary = assert(os.getenv('MEMORY_LSP_BIN'), 'MEMORY_LSP_BIN is not set'),
  args = { '--log-file', os.getenv('MEMORY_LSP_SERVER_LOG') or '/dev/null', '--log-level', 'debug' },
  -- Neovim 0.7 does not advertise workspace/configuration, so the plugin
  -- must push these (workspace/didChangeConfiguration): the test checks
  -- long-entry findings are gone in the first workspace.
  -- An empty table must reach the server as {} (not []): the test checks
  -- that the server reports no settings error.
  settings = { memory = { rules = { ['long-entry'] = false }, categoryLimit = {} } },
  init_options = {},
})
