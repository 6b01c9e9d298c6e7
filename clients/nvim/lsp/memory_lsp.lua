-- memory-lsp for Neovim 0.11+ (vim.lsp.config).
--
-- Put this folder (clients/nvim) on the runtimepath, or copy this file to
-- ~/.config/nvim/lsp/memory_lsp.lua, then:
--
--   vim.lsp.enable('memory_lsp')
--
-- Override any field with vim.lsp.config('memory_lsp', { ... }), e.g. the
-- binary: vim.lsp.config('memory_lsp', { cmd = { '/path/to/memory-lsp', 'serve', '--stdio' } })
--
-- The server is started only for files `<folder>/.memory/<name>.md` (exactly
-- one level inside a `.memory` folder) and, with the plugin (lua/memory_lsp)
-- on the runtimepath, the agents' instruction files (AGENTS.md, CLAUDE.md,
-- .cursor/rules/*.mdc, …): root_dir calls on_dir for those and for nothing
-- else, and workspace_required forbids a single-file fallback. One client
-- per folder holding `.memory`.

--- The folder holding `.memory` for `<folder>/.memory/<name>.md`, else nil.
local function memory_root(path)
  if type(path) ~= 'string' or path == '' or path:match('^%a[%w+.-]*://') then
    return nil -- no name, or oil://, fugitive://, term://, …
  end
  path = vim.fn.fnamemodify(path, ':p'):gsub('\\', '/')
  local root = path:match('^(.*)/%.memory/[^/]+%.md$')
  if not root then
    return nil
  end
  if root == '' then
    return '/'
  end
  if root:match('^%a:$') then
    return root .. '/'
  end
  return root
end

-- An empty Lua table is sent as the JSON array [], which the server rejects
-- as settings: mark empty tables in settings and init_options as objects.
local function objectify(t)
  if type(t) ~= 'table' then
    return t
  end
  if next(t) == nil then
    return vim.empty_dict()
  end
  for k, v in pairs(t) do
    t[k] = objectify(v)
  end
  return t
end

---@type vim.lsp.Config
return {
  -- The server on stdio. Add '--log-file', 'memory-lsp.log',
  -- '--log-level', 'debug' to log elsewhere than the LSP log (stderr).
  cmd = { 'memory-lsp', 'serve', '--stdio' },

  -- Start trigger only: root_dir below decides whether the buffer qualifies.
  -- plugin/memory_lsp.lua makes Cursor's .mdc rules and the bare
  -- .cursorrules and .windsurfrules Markdown, so that they qualify too.
  filetypes = { 'markdown' },

  -- Calls on_dir(<folder holding .memory>) only for `.memory/<name>.md`
  -- and, through the plugin, an agent's instruction file; for any other
  -- buffer on_dir is never called and no server starts.
  root_dir = function(bufnr, on_dir)
    if vim.bo[bufnr].buftype ~= '' then
      return
    end
    local name = vim.api.nvim_buf_get_name(bufnr)
    local root = memory_root(name)
    local ok, plugin = pcall(require, 'memory_lsp')
    if not root and ok and plugin.agent_root then
      root = plugin.agent_root(name)
    end
    if root then
      on_dir(root)
    end
  end,

  -- The server writes each change to disk and sends it to the open buffer
  -- too; memory_lsp.apply_edit_handler (when the plugin is on the
  -- runtimepath) then marks a buffer equal to its file unmodified, so that
  -- :w asks nothing. Without the plugin, Neovim's own handler is used.
  handlers = {
    ['workspace/applyEdit'] = function(...)
      local ok, plugin = pcall(require, 'memory_lsp')
      if ok and plugin.apply_edit_handler then
        return plugin.apply_edit_handler(...)
      end
      return vim.lsp.handlers['workspace/applyEdit'](...)
    end,
  },

  -- No single-file mode: without a root the server is not started.
  workspace_required = true,

  -- The answer to the server's workspace/configuration pull for section
  -- "memory" (keys: categoryLimit, skipThreshold, updateThreshold,
  -- mergeThreshold, longEntry, maxContent, rules, historyDepth, review, agents; see the
  -- server README).
  -- Example: settings = { memory = { longEntry = 300, rules = { ['missing-slug'] = true } } }
  settings = { memory = vim.empty_dict() },

  -- initializationOptions: the same keys, flat or under "memory"; read once
  -- at startup (settings above win key by key).
  init_options = vim.empty_dict(),

  -- Ensure user-supplied empty tables are sent as JSON objects, not [].
  before_init = function(params, config)
    if config.settings then
      objectify(config.settings)
      if config.settings.memory ~= nil then
        config.settings.memory = objectify(config.settings.memory)
      end
    end
    if type(params.initializationOptions) == 'table' then
      params.initializationOptions = objectify(params.initializationOptions)
    end
  end,
}
