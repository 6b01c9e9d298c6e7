-- memory-lsp user commands (:MemoryStore, :MemoryQuery, :MemoryFixAll),
-- defined whenever this folder is on the runtimepath, on Neovim 0.7+.
-- They talk to whichever memory_lsp client is running: the one started by
-- vim.lsp.enable('memory_lsp') (0.11+) or by require('memory_lsp').setup() (0.7–0.10).
if vim.g.loaded_memory_lsp or vim.fn.has('nvim-0.7') == 0 then
  return
end
vim.g.loaded_memory_lsp = true
require('memory_lsp').create_commands()

-- The agents' files that are Markdown without a Markdown name, so that the
-- 0.11+ config (filetypes = { 'markdown' }) is started for them. Neovim 0.7
-- reads these only with g:do_filetype_lua; its legacy setup attaches by
-- file name instead.
if vim.filetype and vim.filetype.add then
  vim.filetype.add({
    filename = { ['.cursorrules'] = 'markdown', ['.windsurfrules'] = 'markdown' },
    pattern = { ['.*/%.cursor/rules/[^/]*%.mdc'] = 'markdown' },
  })
end
