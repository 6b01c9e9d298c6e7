-- Headless end-to-end test of the Neovim client against the real server.
-- Run by run.sh (which creates the workspace); every step waits with a
-- deadline, and any failure ends Neovim with exit code 1 and a message on
-- stderr. Works on Neovim 0.7.2.

local api = vim.api
local root = assert(os.getenv('MEMORY_LSP_TEST_ROOT'), 'MEMORY_LSP_TEST_ROOT is not set')
local client_dir = assert(os.getenv('MEMORY_LSP_CLIENT_DIR'), 'MEMORY_LSP_CLIENT_DIR is not set')
local memory_lsp = require('memory_lsp')
local has_011 = vim.fn.has('nvim-0.11') == 1

local WAIT = 15000 -- ms; a passing run never waits this long
local t0 = vim.loop.hrtime()

local function log(msg)
  io.stderr:write(string.format('[%6.2fs] %s\n', (vim.loop.hrtime() - t0) / 1e9, msg))
  io.stderr:flush()
end

local function fail(msg)
  error({ msg = msg }, 2)
end

local function check(cond, msg)
  if not cond then
    fail(msg)
  end
end

local function eq(got, want, what)
  if not vim.deep_equal(got, want) then
    fail(string.format('%s:\n  got:  %s\n  want: %s', what, vim.inspect(got), vim.inspect(want)))
  end
end

local function wait_for(what, cond, timeout)
  local last
  local ok = vim.wait(timeout or WAIT, function()
    local r, extra = cond()
    last = extra
    return r
  end, 20)
  if not ok then
    fail(string.format('timed out after %d ms waiting for %s%s', timeout or WAIT, what, last and (': ' .. tostring(last)) or ''))
  end
end

local function read_file(path)
  local f = assert(io.open(path, 'rb'))
  local s = f:read('*a')
  f:close()
  return s
end

local function lines(bufnr)
  return api.nvim_buf_get_lines(bufnr, 0, -1, false)
end

local function split(s)
  local t = vim.split(s, '\n', { plain = true })
  if t[#t] == '' then
    table.remove(t)
  end
  return t
end

-- Messages the user would see: vim.notify, and the server's showMessage.
local notes = {}
vim.notify = function(msg, level)
  table.insert(notes, { msg = msg, level = level or vim.log.levels.INFO })
  log('notify: ' .. tostring(msg))
end
local server_messages = {}
vim.lsp.handlers['window/showMessage'] = function(_, result)
  table.insert(server_messages, result)
  log('server showMessage: ' .. vim.inspect(result))
end

local log_messages = {}
local default_log_message = vim.lsp.handlers['window/logMessage']
vim.lsp.handlers['window/logMessage'] = function(err, result, ctx, cfg)
  table.insert(log_messages, result)
  if result and result.type <= 2 then
    log('server logMessage: ' .. vim.inspect(result))
  end
  return default_log_message(err, result, ctx, cfg)
end

-- vim.ui stubs: answers queued by the test, taken in order.
local answers = {}
vim.ui.select = function(items, opts, on_choice)
  local a = table.remove(answers, 1)
  check(a ~= nil, 'unexpected vim.ui.select: ' .. tostring(opts and opts.prompt))
  check(vim.tbl_contains(items, a), string.format('vim.ui.select offers %s, not %q', vim.inspect(items), a))
  on_choice(a)
end
vim.ui.input = function(opts, on_confirm)
  local a = table.remove(answers, 1)
  check(a ~= nil, 'unexpected vim.ui.input: ' .. tostring(opts and opts.prompt))
  on_confirm(a)
end

local function codes(bufnr)
  local t = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
    table.insert(t, string.format('%s@%d', tostring(code), d.lnum + 1))
  end
  table.sort(t)
  return t
end

local function has_code(bufnr, code, line)
  for _, c in ipairs(codes(bufnr)) do
    if c == string.format('%s@%d', code, line) then
      return true
    end
  end
  return false
end

local function clients_of(bufnr)
  local t = {}
  local all = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr }) or vim.lsp.buf_get_clients(bufnr)
  for _, c in pairs(all) do
    table.insert(t, c)
  end
  return t
end

local function our_clients()
  local t = {}
  local all = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
  for _, c in ipairs(all) do
    if c.name == 'memory_lsp' then
      table.insert(t, c)
    end
  end
  return t
end

local function request_sync(client, method, params, bufnr)
  local res, err
  if has_011 then
    res, err = client:request_sync(method, params, WAIT, bufnr)
  else
    res, err = client.request_sync(method, params, WAIT, bufnr)
  end
  check(res, string.format('%s: no answer (%s)', method, tostring(err)))
  check(not res.err, string.format('%s: error %s', method, vim.inspect(res.err)))
  return res.result
end

local function edit(path)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  return api.nvim_get_current_buf()
end

local decisions_path = root .. '/.memory/decisions.md'
local quirks_path = root .. '/.memory/quirks.md'
local decisions_on_disk = read_file(decisions_path)
local quirks_on_disk = read_file(quirks_path)

local function main()
  log(string.format('%s, workspace %s', vim.split(api.nvim_exec('version', true), '\n')[2], root))

  -- 1. The path rule, in the legacy module and in lsp/memory_lsp.lua.
  eq(memory_lsp.root_for('/p/.memory/decisions.md'), '/p', 'root_for(/p/.memory/decisions.md)')
  eq(memory_lsp.root_for('/.memory/decisions.md'), '/', 'root_for(/.memory/decisions.md)')
  eq(memory_lsp.root_for('file:///p/.memory/a.md'), '/p', 'root_for(file:///p/.memory/a.md)')
  for _, p in ipairs({ '/p/README.md', '/p/.memory/sub/x.md', '/p/.memory/x.txt', '/p/x.memory/y.md',
    '/p/.memory/', '/p/.memory/.md.bak', 'oil:///p/.memory/a.md', '' }) do
    eq(memory_lsp.root_for(p), nil, 'root_for(' .. p .. ')')
  end
  eq(memory_lsp.agent_root('/p/AGENTS.md'), '/p', 'agent_root(/p/AGENTS.md)')
  eq(memory_lsp.agent_root('/p/.cursor/rules/style.mdc'), '/p', 'agent_root(/p/.cursor/rules/style.mdc)')
  eq(memory_lsp.agent_root('/p/.github/copilot-instructions.md'), '/p', 'agent_root(/p/.github/copilot-instructions.md)')
  for _, p in ipairs({ '/p/README.md', '/p/.memory/AGENTS.md', '/p/.cursor/rules/x.md', '/p/xAGENTS.md', 'oil:///p/AGENTS.md' }) do
    eq(memory_lsp.agent_root(p), nil, 'agent_root(' .. p .. ')')
  end
  eq(memory_lsp.agent_root(root .. '/docs/AGENTS.md'), root, 'agent_root of a nested AGENTS.md')
  local config = dofile(client_dir .. '/lsp/memory_lsp.lua')
  eq(config.cmd, { 'memory-lsp', 'serve', '--stdio' }, 'lsp/memory_lsp.lua cmd')
  eq(config.filetypes, { 'markdown' }, 'lsp/memory_lsp.lua filetypes')
  eq(config.workspace_required, true, 'lsp/memory_lsp.lua workspace_required')
  eq(vim.json.encode(config.settings), '{"memory":{}}', 'lsp/memory_lsp.lua settings as JSON')
  local function config_root(path)
    local b = vim.fn.bufadd(path)
    local got
    config.root_dir(b, function(dir)
      got = dir
    end)
    return got
  end
  eq(config_root(decisions_path), root, 'lsp/memory_lsp.lua root_dir for decisions.md')
  eq(config_root(root .. '/README.md'), nil, 'lsp/memory_lsp.lua root_dir for README.md')
  eq(config_root(root .. '/AGENTS.md'), root, 'lsp/memory_lsp.lua root_dir for AGENTS.md')
  eq(config_root(root .. '/.memory/archive/old.md'), nil, 'lsp/memory_lsp.lua root_dir for .memory/archive/old.md')
  local p = { initializationOptions = { memory = { rules = {} } } }
  local c = { settings = { memory = {} } }
  config.before_init(p, c)
  eq(vim.json.encode(p.initializationOptions), '{"memory":{"rules":{}}}', 'before_init: initializationOptions as JSON')
  eq(vim.json.encode(c.settings), '{"memory":{}}', 'before_init: settings as JSON')
  eq(#our_clients(), 0, 'memory_lsp clients before any memory file is opened')

  -- 2. Opening a memory file starts the server; its diagnostics arrive.
  local buf = edit(decisions_path)
  wait_for('a memory_lsp client attached to decisions.md', function()
    local cs = clients_of(buf)
    return #cs == 1 and cs[1].name == 'memory_lsp' and cs[1].initialized ~= false, #cs .. ' clients'
  end)
  local client = clients_of(buf)[1]
  eq(memory_lsp.client_root(client), root, 'client root')
  wait_for('diagnostics bullet-marker@3, slug-format@4, duplicate-slug@6, slug-malformed@7', function()
    return has_code(buf, 'bullet-marker', 3) and has_code(buf, 'slug-format', 4)
      and has_code(buf, 'duplicate-slug', 6) and has_code(buf, 'slug-malformed', 7), vim.inspect(codes(buf))
  end)
  log('diagnostics: ' .. table.concat(codes(buf), ' '))
  -- Line 6 has an error (duplicate-slug: two texts under [db]) and a
  -- warning (conflict: it reverses line 5): its virtual text shows both
  -- messages, the error first.
  wait_for('both findings of line 6 in its virtual text', function()
    local marks = vim.api.nvim_buf_get_extmarks(buf, memory_lsp.virtual_text_ns, { 5, 0 }, { 5, -1 }, { details = true })
    local text = ''
    for _, m in ipairs(marks) do
      for _, chunk in ipairs(m[4].virt_text or {}) do
        text = text .. chunk[1]
      end
    end
    local e, w = text:find('holds a different text', 1, true), text:find('reverses line 5', 1, true)
    return e ~= nil and w ~= nil and e < w, text
  end)
  eq(vim.diagnostic.config(nil, vim.lsp.diagnostic.get_namespace(client.id)).severity_sort, true,
    'severity_sort for the server\'s diagnostics (a hint never hides a warning)')
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    eq(d.source, 'memory-lsp', 'diagnostic source')
  end

  -- 2b. The settings of setup() reach the server: minimal_init.lua turns
  --     long-entry off, so preferences.md has its bullet-marker finding and
  --     not its long-entry one (which step 11 shows is on by default).
  local prefs = edit(root .. '/.memory/preferences.md')
  wait_for('bullet-marker@3 without long-entry in preferences.md (long-entry off in settings)', function()
    return has_code(prefs, 'bullet-marker', 3) and not has_code(prefs, 'long-entry', 4), vim.inspect(codes(prefs))
  end)
  -- A round trip: a later publish that brought long-entry back is here now.
  request_sync(client, 'workspace/executeCommand', { command = 'memory.stats', arguments = { { root = root } } }, prefs)
  vim.wait(200)
  check(not has_code(prefs, 'long-entry', 4), 'long-entry came back in preferences.md: ' .. vim.inspect(codes(prefs)))
  api.nvim_set_current_buf(buf)

  -- 2c. References to the code: a cited path that is missing is a
  --     stale-path warning, and go-to-definition on one that exists opens
  --     it at the cited line.
  local instr = edit(root .. '/.memory/instructions.md')
  wait_for('stale-path@4 and none @3 in instructions.md', function()
    return has_code(instr, 'stale-path', 4) and not has_code(instr, 'stale-path', 3), vim.inspect(codes(instr))
  end)
  local cited = api.nvim_buf_get_lines(instr, 2, 3, false)[1]
  local at = assert(cited:find('src/auth/session.ts', 1, true), 'the cited path is not on line 3')
  api.nvim_win_set_cursor(0, { 3, at + 3 })
  vim.lsp.buf.definition()
  wait_for('go-to-definition to open src/auth/session.ts at line 2', function()
    local name = api.nvim_buf_get_name(0)
    return name:sub(-#'src/auth/session.ts') == 'src/auth/session.ts' and api.nvim_win_get_cursor(0)[1] == 2,
      name .. ':' .. api.nvim_win_get_cursor(0)[1]
  end)
  api.nvim_set_current_buf(buf)

  -- 3. The quick fix for [My Slug], requested and applied as an editor does.
  local diag
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.code == 'slug-format' then
      diag = d
    end
  end
  local range = { start = { line = diag.lnum, character = diag.col }, ['end'] = { line = diag.end_lnum, character = diag.end_col } }
  local actions = request_sync(client, 'textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = range,
    context = { diagnostics = { { range = range, message = diag.message, severity = diag.severity, code = diag.code, source = diag.source } } },
  }, buf)
  local fix
  for _, a in ipairs(actions or {}) do
    if a.kind == 'quickfix' and a.title == 'Rename slug to my-slug' then
      fix = a
    end
  end
  check(fix and fix.edit, 'no quick fix "Rename slug to my-slug" with an edit among ' .. vim.inspect(actions))
  vim.lsp.util.apply_workspace_edit(fix.edit, 'utf-16')
  eq(lines(buf)[4], '- [my-slug] Deploy the API before the web app.', 'line 4 after the quick fix')
  wait_for('slug-format@4 to go away after the quick fix', function()
    return not has_code(buf, 'slug-format', 4) and has_code(buf, 'bullet-marker', 3), vim.inspect(codes(buf))
  end)

  -- 4. :MemoryFixAll applies the safe fixes (source.fixAll.memory).
  vim.cmd('MemoryFixAll')
  wait_for(':MemoryFixAll to insert the space after [flaky]', function()
    return lines(buf)[7] == '- [flaky] Retry the e2e suite once before reporting.', lines(buf)[7]
  end)
  local fixed = split(decisions_on_disk)
  fixed[4] = '- [my-slug] Deploy the API before the web app.'
  fixed[7] = '- [flaky] Retry the e2e suite once before reporting.'
  eq(lines(buf), fixed, 'decisions.md after the quick fix and :MemoryFixAll')
  wait_for('slug-malformed@7 to go away after :MemoryFixAll', function()
    return not has_code(buf, 'slug-malformed', 7) and has_code(buf, 'duplicate-slug', 6), vim.inspect(codes(buf))
  end)
  vim.cmd('write')
  eq(read_file(decisions_path), table.concat(fixed, '\n') .. '\n', 'decisions.md on disk after :write')

  -- 5. :MemoryStore into a closed file (prompts answered by the stubs): the
  --    server writes quirks.md on disk.
  answers = { 'Quirk', 'The CI cache is keyed on the lock file only.', 'ci-cache' }
  vim.cmd('MemoryStore')
  eq(#answers, 0, 'unanswered prompts of :MemoryStore')
  local want_quirks = quirks_on_disk .. '- [ci-cache] The CI cache is keyed on the lock file only.\n'
  wait_for('quirks.md on disk to hold the stored entry', function()
    local got = read_file(quirks_path)
    return got == want_quirks, vim.inspect(got)
  end)
  wait_for('the storeMemory message', function()
    local last = notes[#notes]
    return last and last.msg:find('Stored in quirks.md', 1, true) ~= nil, last and last.msg
  end)

  -- 6. :MemoryStore {Category} {content} into the open (saved) file: the
  --    server writes the entry on disk, where other agents read it, and
  --    sends the same change as workspace/applyEdit; the buffer then equals
  --    the file, so the plugin marks it unmodified (:w would ask nothing).
  local disk_before = read_file(decisions_path)
  vim.cmd('MemoryStore Decision Run database migrations before deploying.')
  wait_for('the stored entry in the decisions.md buffer', function()
    return lines(buf)[#lines(buf)] == '- Run database migrations before deploying.', lines(buf)[#lines(buf)]
  end)
  eq(lines(buf), vim.list_extend(vim.deepcopy(fixed), { '- Run database migrations before deploying.' }), 'decisions.md buffer after storing into it (disk: ' .. read_file(decisions_path) .. ')')
  eq(read_file(decisions_path), disk_before .. '- Run database migrations before deploying.\n', 'decisions.md on disk after storing into the open buffer')
  eq(lines(buf), split(read_file(decisions_path)), 'the buffer after the store, against the file')
  wait_for('the buffer to be unmodified, as it equals its file', function()
    return not api.nvim_buf_get_option(buf, 'modified')
  end)
  wait_for('the plugin to record the stored file', function()
    return (vim.b[buf].memory_lsp_settled or 0) > 0
  end)
  wait_for('the storeMemory message for decisions.md', function()
    local last = notes[#notes]
    return last and last.msg:find('Stored in decisions.md', 1, true) ~= nil, last and last.msg
  end)

  -- 6b. An agent stores into decisions.md on disk (the CLI, as an agent
  --     runs it) while the buffer has unsaved edits: the server brings the
  --     agent's entry into the buffer, and saving keeps every entry once.
  local mine = '- [review] Review schema changes with a second person.'
  api.nvim_buf_set_lines(buf, -1, -1, false, { mine })
  local agent_line = '- Tag every release from the main branch.'
  local out = vim.fn.system({ os.getenv('MEMORY_LSP_BIN'), 'store', '--root', root, '--category', 'Decision',
    'Tag every release from the main branch.' })
  eq(vim.v.shell_error, 0, 'agent store exit code (' .. out .. ')')
  check(read_file(decisions_path):find(agent_line, 1, true), 'the agent entry is on disk')
  local settled = vim.b[buf].memory_lsp_settled or 0
  wait_for('the agent entry in the open buffer', function()
    return vim.tbl_contains(lines(buf), agent_line), table.concat(lines(buf), '\n')
  end)
  wait_for('the plugin to record the reconciled file', function()
    return (vim.b[buf].memory_lsp_settled or 0) > settled
  end)
  check(api.nvim_buf_get_option(buf, 'modified'), 'the buffer keeps its unsaved line as unsaved')
  check(not read_file(decisions_path):find(mine, 1, true), 'the unsaved line is not on disk before the save')
  local buffer_now = lines(buf)
  -- A plain :w, as a person saves: it must not ask whether to overwrite a
  -- file changed since reading (the plugin recorded the reconciled file).
  api.nvim_buf_call(buf, function()
    vim.cmd('silent write')
  end)
  local saved = split(read_file(decisions_path))
  eq(saved, buffer_now, 'decisions.md after saving the reconciled buffer')
  local count = 0
  for _, l in ipairs(saved) do
    if l == agent_line then
      count = count + 1
    end
  end
  eq(count, 1, 'times the agent entry is in the saved file')
  check(vim.tbl_contains(saved, '- Run database migrations before deploying.'), 'the stored entry survives the save')
  check(vim.tbl_contains(saved, mine), 'the user line is saved')

  -- 6c. Two stores back to back into the open category once it is full
  --     (Neovim 0.7 applies unversioned edits): both reply "stored", and
  --     each stored entry is in the buffer and on disk unless the other's
  --     reply says it evicted it.
  local entries = 0
  for _, l in ipairs(lines(buf)) do
    if l:match('^%- ') then
      entries = entries + 1
    end
  end
  client.config.settings = { memory = { rules = vim.empty_dict(), categoryLimit = { Decision = entries } } }
  client.notify('workspace/didChangeConfiguration', { settings = client.config.settings })
  local replies = {}
  local contents = { 'Cache rendered invoices for ten minutes.', 'Sign webhooks with a rotating shared secret.' }
  vim.wait(300)
  for i, content in ipairs(contents) do
    memory_lsp.exec('memory.storeMemory', { category = 'Decision', content = content }, function(err, result)
      replies[i] = err and { error = err } or result
    end)
  end
  wait_for('both store replies', function()
    return replies[1] ~= nil and replies[2] ~= nil, vim.inspect(replies)
  end)
  local disk_lines = {}
  wait_for('the buffer and the disk to agree', function()
    disk_lines = split(read_file(decisions_path))
    return vim.deep_equal(lines(buf), disk_lines), table.concat(lines(buf), '\n') .. '\n---\n' .. table.concat(disk_lines, '\n')
  end)
  -- The limit took effect: the category was full, so each store evicted.
  check(replies[1].evicted and replies[2].evicted, 'both stores evicted an entry (the limit set through settings): ' .. vim.inspect(replies))
  for i, r in ipairs(replies) do
    eq(r.action, 'stored', 'reply ' .. i .. ' (' .. vim.inspect(r) .. ')')
    local evicted = false
    for _, other in ipairs(replies) do
      evicted = evicted or (other.evicted and other.evicted.content == r.content)
    end
    if not evicted then
      check(vim.tbl_contains(disk_lines, '- ' .. r.content) or vim.tbl_contains(disk_lines, '- [' .. (r.slug or '') .. '] ' .. r.content),
        'stored entry ' .. r.content .. ' is on disk and in the buffer: ' .. table.concat(disk_lines, '\n'))
    end
  end

  -- 7. :MemoryQuery fills and opens the quickfix list.
  answers = { 'CI cache' }
  vim.cmd('MemoryQuery')
  local items
  wait_for('the quickfix list of :MemoryQuery', function()
    local qf = vim.fn.getqflist({ title = 1, items = 1 })
    items = qf.items
    return qf.title == 'Memory: CI cache' and #items > 0, qf.title
  end)
  local first = items[1]
  eq(vim.fn.fnamemodify(vim.fn.bufname(first.bufnr), ':p'), vim.fn.fnamemodify(quirks_path, ':p'), 'first hit file')
  eq(first.lnum, 4, 'first hit line')
  check(first.text:find('The CI cache is keyed on the lock file only.', 1, true), 'first hit text: ' .. first.text)
  check(vim.fn.getqflist({ winid = 1 }).winid ~= 0, 'the quickfix window is open')
  vim.cmd('cclose')
  -- A hit citing a path the repository does not have carries the stale
  -- mark the CLI prints.
  answers = { 'legacy handler' }
  vim.cmd('MemoryQuery')
  wait_for('the stale mark in the quickfix list of :MemoryQuery', function()
    local qf = vim.fn.getqflist({ title = 1, items = 1 })
    return qf.title == 'Memory: legacy handler' and #qf.items > 0 and qf.items[1].text:find('(stale: ', 1, true) ~= nil,
      vim.inspect(qf.items[1] and qf.items[1].text)
  end)
  vim.cmd('cclose')
  api.nvim_set_current_buf(buf)

  -- 8. A second memory file of the same folder reuses the client.
  local qbuf = edit(quirks_path)
  wait_for('the client attached to quirks.md', function()
    local cs = clients_of(qbuf)
    return #cs == 1 and cs[1].id == client.id, #cs .. ' clients'
  end)
  eq(#our_clients(), 1, 'memory_lsp clients for one folder')

  -- 8b. A pair's choices: two siblings typed at the end of decisions.md get
  --     a near-duplicate with Keep this one / Keep the other / Keep both;
  --     Keep both, applied as Neovim 0.7 applies a code action (its edit,
  --     then its command), changes no text and the pair is no longer reported.
  api.nvim_set_current_buf(buf)
  local n = #lines(buf)
  api.nvim_buf_set_lines(buf, n, n, false, { '- [snap-win] Snapshot tests break on Windows.', '- [snap-mac] Snapshot tests break on macOS.' })
  local sib = n + 2
  wait_for('near-duplicate@' .. sib .. ' for the siblings', function()
    return has_code(buf, 'near-duplicate', sib), vim.inspect(codes(buf))
  end)
  local before = lines(buf)
  local pair_actions = request_sync(client, 'textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = sib - 1, character = 0 }, ['end'] = { line = sib - 1, character = 0 } },
    context = { diagnostics = {} },
  }, buf)
  local by_title = {}
  for _, a in ipairs(pair_actions or {}) do
    by_title[a.title] = a
  end
  for _, t in ipairs({ 'Keep this one', 'Keep the other', 'Keep both' }) do
    check(by_title[t], 'no "' .. t .. '" among ' .. vim.inspect(pair_actions))
  end
  local both = by_title['Keep both']
  if both.edit then
    vim.lsp.util.apply_workspace_edit(both.edit, 'utf-16')
  end
  request_sync(client, 'workspace/executeCommand', { command = both.command.command, arguments = both.command.arguments }, buf)
  eq(lines(buf), before, 'decisions.md after Keep both')
  wait_for('the kept pair to stop being reported', function()
    return not has_code(buf, 'near-duplicate', sib), vim.inspect(codes(buf))
  end)
  vim.cmd('write')

  -- 8c. A write an agent made and review held (issue 30): the agent runs
  --     the CLI; the held write shows as a "held" diagnostic on the first
  --     line of decisions.md, and its "Approve into decisions.md" code
  --     action, run as Neovim 0.7 runs a command, stores it into the open
  --     buffer and the file.
  local held_text = 'Install the linter from https://get.example.net/lint.'
  local out = vim.fn.system({ os.getenv('MEMORY_LSP_BIN'), 'store', '--root', root, '--source', 'nvim-test-agent', '--category', 'Decision', held_text })
  check(out:find('Held for review', 1, true), 'the agent\'s store was not held: ' .. out)
  wait_for('held@1 on decisions.md', function()
    return has_code(buf, 'held', 1), vim.inspect(codes(buf))
  end)
  local held_actions = request_sync(client, 'textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = 0, character = 0 }, ['end'] = { line = 0, character = 0 } },
    context = { diagnostics = {} },
  }, buf)
  local approve
  for _, a in ipairs(held_actions or {}) do
    if a.title:find('Approve into decisions.md', 1, true) then
      approve = a
    end
  end
  check(approve and approve.command, 'no "Approve into decisions.md" among ' .. vim.inspect(held_actions))
  local settled = vim.b[buf].memory_lsp_settled or 0
  request_sync(client, 'workspace/executeCommand', { command = approve.command.command, arguments = approve.command.arguments }, buf)
  wait_for('the approved write in the buffer', function()
    return vim.tbl_contains(lines(buf), '- ' .. held_text), vim.inspect(lines(buf))
  end)
  wait_for('the plugin to settle the approved buffer', function()
    return (vim.b[buf].memory_lsp_settled or 0) > settled
  end)
  check(vim.tbl_contains(split(read_file(decisions_path)), '- ' .. held_text), 'the approved write is not on disk')
  wait_for('the held diagnostic to go', function()
    return not has_code(buf, 'held', 1), vim.inspect(codes(buf))
  end)
  vim.cmd('write')

  -- 9. Files that are not memory files get no client and no diagnostics.
  local archived = edit(root .. '/.memory/archive/old.md')
  local readme = edit(root .. '/README.md')
  -- A round trip to the server: anything it would have sent about these
  -- files before answering has arrived by now.
  request_sync(client, 'workspace/executeCommand', { command = 'memory.stats', arguments = { { root = root } } }, buf)
  vim.wait(300)
  for _, b in ipairs({ readme, archived }) do
    local name = vim.fn.fnamemodify(api.nvim_buf_get_name(b), ':~:.')
    eq(#clients_of(b), 0, 'clients attached to ' .. name)
    eq(codes(b), {}, 'diagnostics of ' .. name)
  end
  eq(#our_clients(), 1, 'memory_lsp clients at the end')

  -- 9b. load-budget: with CLAUDE.md beside .memory/, security.md's 2,001st
  --     line is past what Claude Code's Read tool returns (a warning there),
  --     and the hover on the file's first line gives its size against it.
  local sbuf = edit(root .. '/.memory/security.md')
  wait_for('load-budget@2001 in security.md', function()
    return has_code(sbuf, 'load-budget', 2001), vim.inspect(codes(sbuf))
  end)
  local h = request_sync(client, 'textDocument/hover',
    { textDocument = { uri = vim.uri_from_bufnr(sbuf) }, position = { line = 0, character = 2 } }, sbuf)
  local hv = h and h.contents and h.contents.value or ''
  check(hv:find('2,001 lines', 1, true) and hv:find('Claude Code reads the first 2,000 lines', 1, true),
    'hover on security.md\'s first line: ' .. vim.inspect(h))

  -- 9c. An agent's instruction file: AGENTS.md gets the reference rules on
  --     its bullets from the buffer as it is edited, the same client as the
  --     memory files, and no memory rule (its `* ` line is no bullet-marker).
  local agents_path = root .. '/AGENTS.md'
  local af = assert(io.open(agents_path, 'wb'))
  af:write('# Agents\n\n* Read .memory/ first.\n- Sessions are created in `src/auth/session.ts`.\n- Handlers live in `src/legacy/agents.ts`.\n')
  af:close()
  local abuf = edit(agents_path)
  wait_for('stale-path@5 in AGENTS.md', function()
    return has_code(abuf, 'stale-path', 5), vim.inspect(codes(abuf))
  end)
  eq(codes(abuf), { 'stale-path@5' }, 'diagnostics of AGENTS.md')
  eq(#clients_of(abuf), 1, 'clients attached to AGENTS.md')
  eq(clients_of(abuf)[1].id, client.id, 'the client of AGENTS.md')
  api.nvim_buf_set_lines(abuf, 4, 5, false, { '- Handlers live in `src/auth/session.ts`.' })
  wait_for('stale-path in AGENTS.md to go once fixed in the buffer', function()
    return #codes(abuf) == 0, vim.inspect(codes(abuf))
  end)
  check(vim.bo[abuf].modified, 'AGENTS.md was saved')
  vim.cmd('bwipeout! ' .. abuf)

  -- 10. Nothing went wrong on the server's side (e.g. settings sent as []).
  -- (The server reports each store by an Info showMessage too.)
  for _, m in ipairs(server_messages) do
    check(m.type > 2, 'the server showed an error or warning: ' .. vim.inspect(m))
  end
  for _, m in ipairs(log_messages) do
    check(m.type > 2, 'the server logged an error or warning: ' .. vim.inspect(m))
  end
  for _, n in ipairs(notes) do
    check(n.level < vim.log.levels.WARN, 'a warning or error was shown: ' .. n.msg)
  end

  -- Shut the server down cleanly.
  vim.lsp.stop_client(client.id)
  wait_for('the server to stop', function()
    return vim.lsp.get_client_by_id(client.id) == nil
  end, 5000)

  -- 11. A folder that is not a git repository, with a configuration that
  --     does not turn long-entry off but turns bullet-marker off through
  --     init_options: the same preferences.md has its long-entry finding
  --     (on by default) and not its bullet-marker one.
  local plain = assert(os.getenv('MEMORY_LSP_PLAIN_ROOT'), 'MEMORY_LSP_PLAIN_ROOT is not set')
  memory_lsp.setup_config({
    binary = os.getenv('MEMORY_LSP_BIN'),
    args = { '--log-file', os.getenv('MEMORY_LSP_SERVER_LOG') or '/dev/null', '--log-level', 'debug' },
    init_options = { rules = { ['bullet-marker'] = false } },
  })
  local pbuf = edit(plain .. '/.memory/preferences.md')
  wait_for('a memory_lsp client attached to the plain folder\'s preferences.md', function()
    local cs = clients_of(pbuf)
    return #cs == 1 and cs[1].name == 'memory_lsp' and cs[1].initialized ~= false, #cs .. ' clients'
  end)
  local pclient = clients_of(pbuf)[1]
  eq(memory_lsp.client_root(pclient), plain, 'client root of the plain folder')
  wait_for('long-entry@4 without bullet-marker (bullet-marker off in init_options)', function()
    return has_code(pbuf, 'long-entry', 4) and not has_code(pbuf, 'bullet-marker', 3), vim.inspect(codes(pbuf))
  end)
  vim.lsp.stop_client(pclient.id)
  wait_for('the plain folder\'s server to stop', function()
    return vim.lsp.get_client_by_id(pclient.id) == nil
  end, 5000)
end

local ok, err = xpcall(main, function(e)
  if type(e) == 'table' and e.msg then
    return e.msg .. '\n' .. debug.traceback('', 2)
  end
  return tostring(e) .. '\n' .. debug.traceback('', 2)
end)
if ok then
  log('PASS')
  vim.cmd('qa!')
else
  io.stderr:write('FAIL: ' .. err .. '\n')
  io.stderr:flush()
  vim.cmd('cquit 1')
end
