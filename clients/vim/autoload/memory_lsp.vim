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

" RootFor for a buffer; '' for special buffers (help, terminal, …).
function! memory_lsp#Root(buffer) abort
  if getbufvar(a:buffer, '&buftype') isnot# ''
    return ''
  endif
  return memory_lsp#RootFor(bufname(a:buffer))
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
