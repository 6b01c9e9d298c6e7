" memory-lsp for Vim: the shared helpers of the ALE linter, the vim-lsp
" registration and the :Memory… commands (plugin/memory_lsp.vim).
"
" Everything here runs on Debian's Vim 9.0 and needs no Python or Lua.

" The folder that holds `.memory` when path is a file <root>/.memory/<name>.md
" (exactly one level inside .memory), else ''. The server applies the same
" rule; this keeps it from even being started for other Markdown.
function! memory_lsp#RootFor(path) abort
  if a:path is# '' || a:path =~# '^\a[[:alnum:]+.-]*://'
    return ''
  endif
  let l:path = substitute(fnamemodify(a:path, ':p'), '\\', '/', 'g')
  let l:m = matchlist(l:path, '^\(.*\)/\.memory/\([^/]\+\)\.md$')
  if empty(l:m)
    return ''
  endif
  return l:m[1] is# '' ? '/' : l:m[1]
endfunction

" The agents' instruction files the server judges when attached to them
" (the reference rules on their bullets, their load budgets), by their path
" from a workspace root; * stands for any name. The server's list
" (core/budget), which clients/agentfiles_test.go keeps this equal to.
" agent-files:start
let s:agent_files = [
\ 'CLAUDE.md', '.claude/CLAUDE.md', 'CLAUDE.local.md', '.claude/rules/*.md',
\ 'AGENTS.override.md', 'AGENTS.md',
\ '.github/copilot-instructions.md', '.github/instructions/*.instructions.md',
\ '.cursor/rules/*.mdc', '.cursorrules',
\ '.windsurf/rules/*.md', '.devin/rules/*.md', '.windsurfrules',
\ 'GEMINI.md',
\ '.kiro/steering/*.md',
\ ]
" agent-files:end

" Each of s:agent_files as a regexp matching the end of a path.
let s:agent_patterns = map(copy(s:agent_files),
\ {_, g -> '/' . substitute(substitute(g, '\.', '\\.', 'g'), '\*', '[^/]*', 'g') . '$'})

" The workspace of an agent's instruction file (AGENTS.md, CLAUDE.md,
" .cursor/rules/x.mdc, …): the nearest folder at or above the one it names
" a root file of that holds .memory or .git, else that folder; '' for any
" other file. The server finds the workspace itself; this picks the server
" (one per project root) and its root.
function! memory_lsp#AgentRootFor(path) abort
  if a:path is# '' || a:path =~# '^\a[[:alnum:]+.-]*://' || memory_lsp#RootFor(a:path) isnot# ''
    return ''
  endif
  let l:path = substitute(fnamemodify(a:path, ':p'), '\\', '/', 'g')
  for l:re in s:agent_patterns
    let l:at = match(l:path, l:re)
    if l:at < 0
      continue
    endif
    let l:named = l:at == 0 ? '/' : l:path[: l:at - 1]
    let l:dir = l:named
    while 1
      if isdirectory(l:dir . '/.memory') || getftype(l:dir . '/.git') isnot# ''
        return l:dir
      endif
      let l:up = fnamemodify(l:dir, ':h')
      if l:up is# l:dir
        return l:named
      endif
      let l:dir = l:up
    endwhile
  endfor
  return ''
endfunction

" The project root of a buffer: RootFor for a memory file, AgentRootFor for
" an agent's file, '' for any other and for special buffers (help,
" terminal, …).
function! memory_lsp#Root(buffer) abort
  if getbufvar(a:buffer, '&buftype') isnot# ''
    return ''
  endif
  let l:root = memory_lsp#RootFor(bufname(a:buffer))
  return l:root isnot# '' ? l:root : memory_lsp#AgentRootFor(bufname(a:buffer))
endfunction

" The executable: g:memory_lsp_executable, else memory-lsp on the PATH.
function! memory_lsp#Executable(...) abort
  return get(g:, 'memory_lsp_executable', 'memory-lsp')
endfunction

" The settings sent as initializationOptions (the JSON of `--config`).
function! memory_lsp#Settings(...) abort
  return get(g:, 'memory_lsp_settings', {})
endfunction

" The root the commands act on: the current buffer's, else the nearest
" folder holding .memory above the working directory, else the top of
" the git repository (as the CLI decides itself with no --root).
function! s:CommandRoot() abort
  let l:root = memory_lsp#Root(bufnr(''))
  return l:root
endfunction

function! s:Run(args, input) abort
  let l:cmd = [memory_lsp#Executable()] + a:args
  let l:root = s:CommandRoot()
  if l:root isnot# ''
    let l:cmd += ['--root', l:root]
  endif
  " Vim 9.0's system() takes a string: each argument is quoted for the shell.
  let l:line = join(map(l:cmd, 'shellescape(v:val)'), ' ')
  let l:out = a:input is v:null ? system(l:line) : system(l:line, a:input)
  return [v:shell_error, l:out]
endfunction

function! s:Say(msg, error) abort
  let l:msg = substitute(a:msg, '\n\+$', '', '')
  if a:error
    echohl ErrorMsg | echomsg 'memory-lsp: ' . l:msg | echohl None
  else
    echomsg 'memory-lsp: ' . l:msg
  endif
endfunction

" The categories HackLM knows, in its order, for completion.
function! memory_lsp#CompleteCategory(arglead, cmdline, cursorpos) abort
  if a:cmdline =~# '^\S\+\s\+\S\+\s'
    return []
  endif
  return filter(['Instruction', 'Quirk', 'Preference', 'Decision', 'Security'],
  \ 'v:val =~? "^" . a:arglead')
endfunction

" :MemoryStore {category} {content}: HackLM's storeMemory through the CLI,
" which takes .memory/.lock as every writer does; open buffers of the file
" are reloaded (or Vim asks, when they hold unsaved changes: the language
" server keeps both, see README.md).
function! memory_lsp#Store(args) abort
  let l:m = matchlist(a:args, '^\s*\(\S\+\)\s\+\(.\{-}\)\s*$')
  if empty(l:m) || l:m[2] is# ''
    call s:Say('usage: :MemoryStore {category} {content}', 1)
    return
  endif
  let [l:code, l:out] = s:Run(['store', '--category', l:m[1], '-'], l:m[2])
  call s:Say(l:out, l:code != 0)
  if l:code == 0
    call s:Reload()
  endif
endfunction

" s:Reload reads again the buffers whose files a command wrote: silently
" where they hold no unsaved change; Vim asks where they do (the language
" server, attached through ALE, keeps the entries of both sides on save).
function! s:Reload() abort
  let l:autoread = &autoread
  set autoread
  try
    checktime
  finally
    let &autoread = l:autoread
  endtry
endfunction

" :MemoryQuery {query}: HackLM's queryMemory; the hits go to the quickfix
" list, best first, each at its file and line, stale ones marked.
function! memory_lsp#Query(args) abort
  if a:args =~# '^\s*$'
    call s:Say('usage: :MemoryQuery {query}', 1)
    return
  endif
  let [l:code, l:out] = s:Run(['query', '--json', '--', a:args], v:null)
  if l:code != 0
    call s:Say(l:out, 1)
    return
  endif
  let l:items = []
  for l:r in get(json_decode(l:out), 'results', [])
    let l:text = '[' . l:r.category . '] ' . l:r.content
    if has_key(l:r, 'stale') && !empty(l:r.stale)
      let l:text .= ' (stale: ' . join(map(copy(l:r.stale), 'type(v:val) == v:t_dict ? get(v:val, "message", string(v:val)) : v:val'), '; ') . ')'
    endif
    call add(l:items, {'filename': l:r.path, 'lnum': l:r.line, 'text': l:text})
  endfor
  call setqflist([], ' ', {'title': 'memory: ' . a:args, 'items': l:items})
  call s:Say(len(l:items) == 1 ? 'Found 1 memory' : 'Found ' . len(l:items) . ' memories', 0)
  if !empty(l:items)
    copen
  endif
endfunction

" :MemoryFixAll: every safe fix of the current memory file, as `check
" --fix` and the server's fix-all do; the buffer is saved first (the fixes
" are written to disk) and reloaded after.
function! memory_lsp#FixAll() abort
  if memory_lsp#Root(bufnr('')) is# ''
    call s:Say('not a memory file (a .md file directly inside .memory/)', 1)
    return
  endif
  if &modified
    write
  endif
  let [l:code, l:out] = s:Run(['check', '--fix', expand('%:p')], v:null)
  call s:Reload()
  call s:Say(l:code == 0 ? 'fixed what is safe to fix' : l:out, 0)
endfunction
