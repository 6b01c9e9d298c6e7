-- memory-lsp for Neovim: shared helpers, the user commands, and the legacy
-- (Neovim 0.7–0.10) client setup.
--
--   Neovim 0.11+: use lsp/memory_lsp.lua with vim.lsp.enable('memory_lsp');
--                 the user commands come from plugin/memory_lsp.lua.
--   Neovim 0.7–0.10: require('memory_lsp').setup({ ... }) (see README.md).
--
-- Everything here runs on Neovim 0.7.2 (no vim.fs, no vim.lsp.start, no
-- vim.lsp.get_clients) and on 0.11+ (client:request method calls).

local M = {}

local api = vim.api

--- The client name, in both setups (lsp/memory_lsp.lua is named after it).
M.name = 'memory_lsp'

--- HackLM's five categories, in HackLM's order.
M.categories = { 'Instruction', 'Quirk', 'Preference', 'Decision', 'Security' }

local has_011 = vim.fn.has('nvim-0.11') == 1

local function notify(msg, level)
  vim.notify('memory-lsp: ' .. msg, level or vim.log.levels.INFO)
end

-- ---------------------------------------------------------------------------
-- Paths

--- The folder that holds `.memory` when `path` is a file `<root>/.memory/<name>.md`
--- (exactly one level inside `.memory`), else nil. The server applies the same
--- rule; this keeps it from even being started for other Markdown.
function M.root_for(path)
  if type(path) ~= 'string' or path == '' then
    return nil
  end
  if path:match('^%a[%w+.-]*://') and not path:match('^file://') then
    return nil -- oil://, fugitive://, term://, …
  end
  if path:match('^file://') then
    path = vim.uri_to_fname(path)
  end
  path = vim.fn.fnamemodify(path, ':p'):gsub('\\', '/')
  local root, name = path:match('^(.*)/%.memory/([^/]+)%.md$')
  if not root or name == '' then
    return nil
  end
  if root == '' then
    root = '/'
  elseif root:match('^%a:$') then
    root = root .. '/' -- C:/.memory/x.md
  end
  return root
end

--- The agents' instruction files the server judges when attached to them
--- (the reference rules on their bullets, their load budgets), by their
--- path from a workspace root; `*` stands for any name. The server's list
--- (core/budget), which clients/agentfiles_test.go keeps this equal to.
M.agent_files = {
  -- agent-files:start
  'CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md', '.claude/rules/*.md',
  'AGENTS.override.md', 'AGENTS.md',
  '.github/copilot-instructions.md', '.github/instructions/*.instructions.md',
  '.cursor/rules/*.mdc', '.cursorrules',
  '.windsurf/rules/*.md', '.devin/rules/*.md', '.windsurfrules',
  'GEMINI.md',
  '.kiro/steering/*.md',
  -- agent-files:end
}

-- Each of agent_files as a Lua pattern matching the end of a path.
local agent_patterns = {}
for _, glob in ipairs(M.agent_files) do
  local pat = glob:gsub('[%^%$%(%)%%%.%[%]%+%-%?]', '%%%0'):gsub('%*', '[^/]*')
  table.insert(agent_patterns, '/' .. pat .. '$')
end

local function is_dir(p)
  return vim.fn.isdirectory(p) == 1
end

--- The workspace of an agent's instruction file (AGENTS.md, CLAUDE.md,
--- .cursor/rules/x.mdc, …): the nearest folder at or above the one it names
--- a root file of that holds `.memory` or `.git`, else that folder; nil for
--- any other file. The server finds the workspace itself; this picks the
--- client (one per workspace) and its folder.
function M.agent_root(path)
  if type(path) ~= 'string' or path == '' or path:match('^%a[%w+.-]*://') then
    return nil
  end
  path = vim.fn.fnamemodify(path, ':p'):gsub('\\', '/')
  if M.root_for(path) then
    return nil -- a memory file
  end
  for _, pat in ipairs(agent_patterns) do
    local s = path:find(pat)
    if s then
      local named = s == 1 and '/' or path:sub(1, s - 1)
      local dir = named
      while true do
        if is_dir(dir .. '/.memory') or vim.fn.getftype(dir .. '/.git') ~= '' then
          return dir
        end
        local up = vim.fn.fnamemodify(dir, ':h')
        if up == dir then
          return named
        end
        dir = up
      end
    end
  end
  return nil
end

--- The folder a client serves a file from: root_for for a memory file,
--- agent_root for an agent's file, else nil.
function M.attach_root(path)
  return M.root_for(path) or M.agent_root(path)
end

--- root_for (or, with agents, attach_root) for a buffer; nil for special
--- buffers (help, terminal, …).
function M.buf_root(bufnr, agents)
  bufnr = (bufnr == nil or bufnr == 0) and api.nvim_get_current_buf() or bufnr
  if not api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].buftype ~= '' then
    return nil
  end
  local name = api.nvim_buf_get_name(bufnr)
  return agents and M.attach_root(name) or M.root_for(name)
end

-- ---------------------------------------------------------------------------
-- JSON: an empty Lua table is encoded as [] — and the server rejects settings
-- that are not objects. Settings and init_options are objects: mark every
-- empty table in them as a dictionary.

local function objectify(t)
  if type(t) ~= 'table' then
    return t
  end
  if next(t) == nil then
    return vim.empty_dict()
  end
  for k, v in pairs(t) do
    if type(v) == 'table' then
      t[k] = objectify(v)
    end
  end
  return t
end
M.objectify = objectify

-- ---------------------------------------------------------------------------
-- Clients

local function all_clients()
  if vim.lsp.get_clients then
    return vim.lsp.get_clients()
  end
  return vim.lsp.get_active_clients()
end

local function stopped(client)
  if has_011 then
    return client:is_stopped()
  end
  return client.is_stopped()
end

local function is_ours(client)
  return client ~= nil and client.name == M.name and not stopped(client)
end

local function attached(client, bufnr)
  return vim.lsp.buf_is_attached(bufnr, client.id)
end

--- The workspace folder (the folder holding .memory) a client serves.
function M.client_root(client)
  local root = client.root_dir or (client.config and client.config.root_dir)
  if not root and client.workspace_folders and client.workspace_folders[1] then
    root = vim.uri_to_fname(client.workspace_folders[1].uri)
  end
  return root
end

--- The memory-lsp client for a buffer: the one attached to it, else the one
--- whose folder holds the buffer's file or the current directory, else any.
function M.get_client(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and api.nvim_get_current_buf() or bufnr
  local ours = {}
  for _, c in ipairs(all_clients()) do
    if is_ours(c) then
      if attached(c, bufnr) then
        return c
      end
      table.insert(ours, c)
    end
  end
  local here = M.buf_root(bufnr)
  local cwd = vim.fn.getcwd():gsub('\\', '/')
  for _, c in ipairs(ours) do
    local root = M.client_root(c)
    if root and (root == here or cwd == root or cwd:sub(1, #root + 1) == root .. '/') then
      return c
    end
  end
  return ours[1]
end

local function request(client, method, params, handler, bufnr)
  if has_011 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

local function client_notify(client, method, params)
  if has_011 then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

local function request_sync(client, method, params, timeout_ms, bufnr)
  if has_011 then
    return client:request_sync(method, params, timeout_ms, bufnr)
  end
  return client.request_sync(method, params, timeout_ms, bufnr)
end

local function need_client(bufnr)
  local client = M.get_client(bufnr)
  if not client then
    notify('not running: open a file in a .memory/ folder first', vim.log.levels.ERROR)
  end
  return client
end

--- Runs a memory-lsp command (workspace/executeCommand) with one argument
--- object; `root` defaults to the client's folder. callback(err, result).
function M.exec(command, args, callback, bufnr)
  local client = need_client(bufnr)
  if not client then
    return
  end
  args = args or {}
  if args.root == nil then
    args.root = M.client_root(client)
  end
  request(client, 'workspace/executeCommand', {
    command = command,
    arguments = { objectify(args) },
  }, function(err, result)
    if callback then
      callback(err, result, client)
    end
  end, nil) -- nil: first send the pending changes of every buffer
end

-- ---------------------------------------------------------------------------
-- Commands

--- :MemoryStore — category, content and optional slug, then memory.storeMemory.
--- opts: { category?, content?, slug? } skips the matching prompts.
function M.store(opts)
  opts = opts or {}
  local bufnr = api.nvim_get_current_buf()
  if not need_client(bufnr) then
    return
  end
  local function run(category, content, slug)
    local args = { category = category, content = content }
    if slug and slug ~= '' then
      args.slug = slug
    end
    M.exec('memory.storeMemory', args, function(err, result)
      if err then
        notify(err.message or vim.inspect(err), vim.log.levels.ERROR)
      else
        notify(result and result.message or 'no answer')
      end
    end, bufnr)
  end
  local function ask_slug(category, content)
    if opts.slug ~= nil or opts.content ~= nil then
      return run(category, content, opts.slug)
    end
    vim.ui.input({ prompt = 'Slug (optional, kebab-case): ' }, function(slug)
      if slug == nil then
        return
      end
      run(category, content, vim.trim(slug))
    end)
  end
  local function ask_content(category)
    if opts.content then
      return ask_slug(category, opts.content)
    end
    vim.ui.input({ prompt = category .. ' to remember: ' }, function(content)
      if content == nil or vim.trim(content) == '' then
        return
      end
      ask_slug(category, content)
    end)
  end
  if opts.category then
    return ask_content(opts.category)
  end
  vim.ui.select(M.categories, { prompt = 'Memory category' }, function(choice)
    if choice then
      ask_content(choice)
    end
  end)
end

--- :MemoryQuery — memory.queryMemory; the hits go to the quickfix list.
--- opts: { query?, category?, limit? }
function M.query(opts)
  opts = opts or {}
  local bufnr = api.nvim_get_current_buf()
  if not need_client(bufnr) then
    return
  end
  local function run(q)
    M.exec('memory.queryMemory', { query = q, category = opts.category, limit = opts.limit }, function(err, result)
      if err then
        notify(err.message or vim.inspect(err), vim.log.levels.ERROR)
        return
      end
      local items = {}
      for _, hit in ipairs(result and result.results or {}) do
        local slug = (hit.slug and hit.slug ~= '') and ('[' .. hit.slug .. '] ') or ''
        -- What the repository contradicts in the entry, as the CLI prints it.
        local stale = (type(hit.stale) == 'table' and #hit.stale > 0) and (' (stale: ' .. table.concat(hit.stale, '; ') .. ')') or ''
        table.insert(items, {
          filename = hit.path or hit.file,
          lnum = hit.line,
          col = 1,
          text = string.format('[%s] %s%s%s', hit.category or '?', slug, hit.content or '', stale),
        })
      end
      vim.fn.setqflist({}, ' ', { title = 'Memory: ' .. q, items = items })
      if #items == 0 then
        notify(result and result.message or 'nothing found')
        return
      end
      if opts.open ~= false then
        vim.cmd('copen')
      end
    end, bufnr)
  end
  if opts.query and opts.query ~= '' then
    return run(opts.query)
  end
  vim.ui.input({ prompt = 'Search memories: ' }, function(q)
    if q and vim.trim(q) ~= '' then
      run(vim.trim(q))
    end
  end)
end

local function apply_action(client, action, bufnr)
  if action.edit then
    vim.lsp.util.apply_workspace_edit(action.edit, client.offset_encoding or 'utf-16')
  end
  local cmd = action.command
  if type(cmd) == 'table' then
    -- A CodeAction's command is a Command; a bare Command has a string command.
    if type(cmd.command) == 'string' then
      request(client, 'workspace/executeCommand', { command = cmd.command, arguments = cmd.arguments }, function() end, bufnr)
    end
  elseif type(cmd) == 'string' then
    request(client, 'workspace/executeCommand', { command = cmd, arguments = action.arguments }, function() end, bufnr)
  end
end
M.apply_action = apply_action

local function fix_all_params(bufnr)
  local n = api.nvim_buf_line_count(bufnr)
  return {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = { start = { line = 0, character = 0 }, ['end'] = { line = n, character = 0 } },
    context = { diagnostics = {}, only = { 'source.fixAll.memory' } },
  }
end

--- :MemoryFixAll — the code action of kind source.fixAll.memory, applied.
--- opts.sync (for BufWritePre): wait at most opts.timeout_ms (1000).
function M.fix_all(opts)
  opts = opts or {}
  local bufnr = (opts.bufnr == nil or opts.bufnr == 0) and api.nvim_get_current_buf() or opts.bufnr
  local client = M.get_client(bufnr)
  if not client or not attached(client, bufnr) then
    if not opts.sync then
      notify('no memory-lsp client is attached to this buffer', vim.log.levels.WARN)
    end
    return
  end
  local function handle(actions)
    local n = 0
    for _, action in ipairs(actions or {}) do
      if action.kind == nil or action.kind:sub(1, #'source.fixAll') == 'source.fixAll' then
        apply_action(client, action, bufnr)
        n = n + 1
      end
    end
    if n == 0 and not opts.sync then
      notify('nothing to fix')
    end
  end
  if opts.sync then
    local res = request_sync(client, 'textDocument/codeAction', fix_all_params(bufnr), opts.timeout_ms or 1000, bufnr)
    if res and not res.err then
      handle(res.result)
    end
    return
  end
  request(client, 'textDocument/codeAction', fix_all_params(bufnr), function(err, actions)
    if err then
      notify(err.message or vim.inspect(err), vim.log.levels.ERROR)
      return
    end
    handle(actions)
  end, bufnr)
end

--- Defines :MemoryStore, :MemoryQuery and :MemoryFixAll (idempotent).
---   :MemoryStore                      prompts for category, content, slug
---   :MemoryStore {Category} {content} stores without prompts (no slug)
---   :MemoryQuery [query]              prompts when no query is given
---   :MemoryFixAll                     applies every safe fix of the buffer
function M.create_commands()
  api.nvim_create_user_command('MemoryStore', function(a)
    local args = vim.trim(a.args or '')
    if args == '' then
      return M.store()
    end
    local category, content = args:match('^(%S+)%s+(.+)$')
    if not category then
      notify('usage: :MemoryStore [Category content]', vim.log.levels.ERROR)
      return
    end
    M.store({ category = category, content = content })
  end, {
    nargs = '*',
    desc = 'memory-lsp: store a memory',
    complete = function(lead, line)
      if line:match('^%S+%s+%S*$') then
        return vim.tbl_filter(function(c)
          return c:lower():sub(1, #lead) == lead:lower()
        end, M.categories)
      end
      return {}
    end,
  })
  api.nvim_create_user_command('MemoryQuery', function(a)
    M.query({ query = vim.trim(a.args or '') })
  end, { nargs = '*', desc = 'memory-lsp: search memories into the quickfix list' })
  api.nvim_create_user_command('MemoryFixAll', function()
    M.fix_all()
  end, { nargs = 0, desc = 'memory-lsp: apply every safe fix of this memory file' })
end

-- ---------------------------------------------------------------------------
-- Legacy setup (Neovim 0.7–0.10; also works on 0.11+)

local defaults = {
  -- The server command; `binary` replaces only its first word.
  cmd = { 'memory-lsp', 'serve', '--stdio' },
  binary = nil,
  -- Extra server arguments, e.g. { '--log-file', 'memory-lsp.log', '--log-level', 'debug' }.
  args = nil,
  -- Sent to the server after start (workspace/didChangeConfiguration), and
  -- the answer to its workspace/configuration pull for section "memory".
  settings = { memory = {} },
  -- Sent as initializationOptions (flat or nested under "memory").
  init_options = nil,
  cmd_env = nil,
  capabilities = nil,
  handlers = nil,
  on_attach = nil,
  -- Called as on_init(client, initialize_result) once the server is initialized.
  on_init = nil,
  -- Run :MemoryFixAll before each write of a memory file.
  fix_on_save = false,
  -- Show the most severe finding of a line in its sign and virtual text
  -- (vim.diagnostic's severity_sort, for this server's diagnostics only).
  severity_sort = true,
  -- Show every finding of a line in its virtual text, most severe first:
  -- vim.diagnostic's own virtual text shows one message a line (a warning
  -- beside an error was a mark without words). false keeps Neovim's.
  virtual_text_all = true,
  -- Buffer-local keymaps, e.g. { fix_all = '<leader>mf', store = '<leader>ms', query = '<leader>mq' }.
  keymaps = nil,
}

M.config = nil
local root_clients = {} -- root -> client id

-- The extmarks of virtual_text_all, one namespace for every client.
M.virtual_text_ns = api.nvim_create_namespace('memory_lsp_virtual_text')

local severity_hl = { 'DiagnosticVirtualTextError', 'DiagnosticVirtualTextWarn', 'DiagnosticVirtualTextInfo', 'DiagnosticVirtualTextHint' }

-- The diagnostic namespaces of this server's clients that show every
-- finding of a line (virtual_text_all).
local all_text_namespaces = {}

-- A vim.diagnostic handler, on only for this server's namespaces
-- (virtual_text_all): each line's messages side by side, most severe first.
vim.diagnostic.handlers.memory_lsp_virtual_text = {
  show = function(namespace, bufnr, diagnostics)
    if not all_text_namespaces[namespace] then
      return
    end
    api.nvim_buf_clear_namespace(bufnr, M.virtual_text_ns, 0, -1)
    local by_line = {}
    for _, d in ipairs(diagnostics) do
      by_line[d.lnum] = by_line[d.lnum] or {}
      table.insert(by_line[d.lnum], d)
    end
    local last = api.nvim_buf_line_count(bufnr) - 1
    for lnum, ds in pairs(by_line) do
      table.sort(ds, function(a, b)
        return a.severity < b.severity or a.severity == b.severity and a.col < b.col
      end)
      local chunks = {}
      for i, d in ipairs(ds) do
        local msg = d.message:gsub('\n.*', '')
        table.insert(chunks, { (i == 1 and '■ ' or '  ■ ') .. msg, severity_hl[d.severity] or severity_hl[1] })
      end
      pcall(api.nvim_buf_set_extmark, bufnr, M.virtual_text_ns, math.min(lnum, last), 0, { virt_text = chunks, hl_mode = 'combine' })
    end
  end,
  hide = function(namespace, bufnr)
    if all_text_namespaces[namespace] and api.nvim_buf_is_valid(bufnr) then
      api.nvim_buf_clear_namespace(bufnr, M.virtual_text_ns, 0, -1)
    end
  end,
}
-- A handler registered is on for every namespace by default: off, but
-- where on_attach turns it on.
vim.diagnostic.config({ memory_lsp_virtual_text = false })

-- The server writes every change to disk first, where other agents read it,
-- and then sends the same change to the open buffer (or an edit that
-- brings another writer's entries in). Either way the file is newer than
-- what Neovim read, so :w would ask "The file has been changed since
-- reading it" (even :w! asks), although the edit has just brought the
-- buffer in step with the file. Neovim records a file's time only when it
-- reads or writes it, so once the edit has been reported to the server the
-- buffer is re-read from disk (which records the time) and its text, with
-- any unsaved edits of its own, put back; a buffer that equals its file is
-- left unmodified. Only memory buffers are touched.
local settle_delay = 300 -- ms: after Neovim has sent the edit as didChange

local function settle_edited(bufnr)
  local name = api.nvim_buf_get_name(bufnr)
  if not api.nvim_buf_is_loaded(bufnr) or not M.root_for(name) then
    return
  end
  vim.defer_fn(function()
    if not api.nvim_buf_is_loaded(bufnr) then
      return
    end
    local text = api.nvim_buf_get_lines(bufnr, 0, -1, false)
    api.nvim_buf_call(bufnr, function()
      local view = vim.fn.winsaveview()
      vim.cmd('silent! edit!')
      if not vim.deep_equal(api.nvim_buf_get_lines(bufnr, 0, -1, false), text) then
        api.nvim_buf_set_lines(bufnr, 0, -1, false, text)
      end
      vim.fn.winrestview(view)
    end)
    vim.b[bufnr].memory_lsp_settled = (vim.b[bufnr].memory_lsp_settled or 0) + 1
  end, settle_delay)
end

local function edited_buffers(edit)
  local out = {}
  for uri in pairs(edit.changes or {}) do
    table.insert(out, vim.uri_to_bufnr(uri))
  end
  for _, dc in ipairs(edit.documentChanges or {}) do
    if dc.textDocument and dc.textDocument.uri then
      table.insert(out, vim.uri_to_bufnr(dc.textDocument.uri))
    end
  end
  return out
end

--- The workspace/applyEdit handler of memory-lsp clients: Neovim's own,
--- then settle_edited on each memory buffer it changed.
function M.apply_edit_handler(err, result, ctx, config)
  local default = vim.lsp.handlers['workspace/applyEdit']
  local reply = default(err, result, ctx, config)
  if result and result.edit and reply and reply.applied then
    for _, b in ipairs(edited_buffers(result.edit)) do
      settle_edited(b)
    end
  end
  return reply
end

local function set_keymaps(bufnr, keymaps)
  if type(keymaps) ~= 'table' then
    return
  end
  local fns = { fix_all = M.fix_all, store = M.store, query = M.query }
  for what, lhs in pairs(keymaps) do
    if fns[what] and lhs then
      vim.keymap.set('n', lhs, function()
        fns[what]()
      end, { buffer = bufnr, desc = 'memory-lsp: ' .. what })
    end
  end
end

--- Starts (or reuses) the client of the buffer's folder and attaches it.
--- Returns the client id, or nil when the buffer is neither a memory file
--- nor an agent's instruction file.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and api.nvim_get_current_buf() or bufnr
  local cfg = M.config or M.setup_config({})
  local root = M.buf_root(bufnr, true)
  if not root then
    return nil
  end
  local cmd = vim.deepcopy(cfg.cmd)
  if cfg.binary then
    cmd[1] = cfg.binary
  end
  vim.list_extend(cmd, cfg.args or {})
  local config = {
    name = M.name,
    cmd = cmd,
    cmd_cwd = root,
    cmd_env = cfg.cmd_env,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    settings = objectify(vim.deepcopy(cfg.settings or {})),
    init_options = cfg.init_options and objectify(vim.deepcopy(cfg.init_options)) or nil,
    capabilities = cfg.capabilities,
    handlers = vim.tbl_extend('keep', cfg.handlers or {}, { ['workspace/applyEdit'] = M.apply_edit_handler }),
    -- The server decides by path; tell it Markdown whatever the filetype.
    get_language_id = function()
      return 'markdown'
    end,
    -- Neovim 0.7 does not advertise workspace/configuration, so the server
    -- cannot pull `settings`: push them, as Neovim's documentation of
    -- on_init advises. on_init runs before any didOpen is sent, so the first
    -- diagnostics already follow the settings. The server takes the
    -- `memory` object of the notification from a client it cannot ask, and
    -- pulls again from one it can (0.11+), which answers the same.
    on_init = function(c, result)
      local settings = c.config and c.config.settings
      if type(settings) == 'table' and next(settings) ~= nil then
        client_notify(c, 'workspace/didChangeConfiguration', { settings = settings })
      end
      if cfg.on_init then
        cfg.on_init(c, result)
      end
    end,
    on_attach = function(c, b)
      set_keymaps(b, cfg.keymaps)
      -- One sign and one virtual text per line: let the most severe
      -- finding of a line show, never a hint over a warning (the server
      -- also sends a line's findings most severe last, for clients that
      -- show the last). Only this client's namespace is configured.
      local ns = vim.lsp.diagnostic.get_namespace(c.id)
      if cfg.severity_sort ~= false then
        vim.diagnostic.config({ severity_sort = true }, ns)
      end
      if cfg.virtual_text_all ~= false then
        all_text_namespaces[ns] = true
        vim.diagnostic.config({ virtual_text = false, memory_lsp_virtual_text = true }, ns)
      end
      if cfg.on_attach then
        cfg.on_attach(c, b)
      end
    end,
  }
  local id
  if has_011 then
    -- vim.lsp.start_client is deprecated from 0.11; vim.lsp.start reuses
    -- the client with the same name and root_dir.
    id = vim.lsp.start(config, { bufnr = bufnr })
  else
    -- 0.7 has no vim.lsp.start: one client per root, kept here.
    id = root_clients[root]
    local client = id and vim.lsp.get_client_by_id(id)
    if not client or stopped(client) then
      config.on_exit = function(_, _, client_id)
        if root_clients[root] == client_id then
          root_clients[root] = nil
        end
      end
      id = vim.lsp.start_client(config)
      if not id then
        notify('could not start ' .. tostring(cmd[1]), vim.log.levels.ERROR)
        return nil
      end
      root_clients[root] = id
    end
    vim.lsp.buf_attach_client(bufnr, id)
  end
  if not id then
    return nil
  end
  if cfg.fix_on_save and M.buf_root(bufnr) then
    api.nvim_create_autocmd('BufWritePre', {
      group = api.nvim_create_augroup('memory_lsp_fix_on_save_' .. bufnr, { clear = true }),
      buffer = bufnr,
      callback = function()
        M.fix_all({ bufnr = bufnr, sync = true })
      end,
    })
  end
  return id
end

function M.setup_config(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  if opts and opts.cmd then
    M.config.cmd = opts.cmd -- lists replace, not merge
  end
  return M.config
end

--- Legacy setup: attach memory-lsp to every `.memory/<name>.md` buffer and
--- every agent's instruction file, one client per folder holding `.memory`
--- (or `.git`). See README.md for the options.
function M.setup(opts)
  M.setup_config(opts)
  M.create_commands()
  local group = api.nvim_create_augroup('memory_lsp', { clear = true })
  local patterns = { '*/.memory/*.md' }
  for _, glob in ipairs(M.agent_files) do
    table.insert(patterns, glob:find('/', 1, true) and ('*/' .. glob) or glob)
  end
  api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile' }, {
    group = group,
    pattern = patterns,
    callback = function(a)
      M.attach(a.buf)
    end,
  })
  -- Buffers already loaded when setup runs (e.g. `nvim .memory/x.md` with a
  -- lazy plugin manager).
  for _, b in ipairs(api.nvim_list_bufs()) do
    if api.nvim_buf_is_loaded(b) and M.buf_root(b, true) then
      M.attach(b)
    end
  end
end

return M
