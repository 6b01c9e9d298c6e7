" The Vim client's end-to-end test, run by run.sh in a real Vim with ALE
" against the built server. Each step writes a line to $TEST_LOG; a failure
" quits with an error status and says why.
let s:log = $TEST_LOG
let s:ws = $TEST_WS

function! s:Log(msg) abort
  call writefile([a:msg], s:log, 'a')
endfunction

function! s:Fail(msg) abort
  call s:Log('FAIL: ' . a:msg)
  cquit 1
endfunction

" Waits up to ms milliseconds for Cond() to hold, letting ALE's jobs and
" timers run.
function! s:WaitFor(Cond, ms) abort
  let l:t = 0
  while l:t < a:ms
    if a:Cond()
      return 1
    endif
    sleep 100m
    let l:t += 100
  endwhile
  return a:Cond()
endfunction

function! s:Codes(buf) abort
  return map(filter(copy(ale#engine#GetLoclist(a:buf)), 'get(v:val, "linter_name", "") is# "memory_lsp"'), 'get(v:val, "code", "")')
endfunction

function! s:Run() abort
  " 1. diagnostics from the server, by code, on a memory file
  execute 'edit ' . fnameescape(s:ws . '/.memory/decisions.md')
  let l:buf = bufnr('')
  call s:Log('filetype ' . &filetype . ', root ' . memory_lsp#Root(l:buf))
  if memory_lsp#Root(l:buf) isnot# s:ws
    call s:Fail('root ' . memory_lsp#Root(l:buf) . ', want ' . s:ws)
  endif
  ALELint
  if !s:WaitFor({-> index(s:Codes(l:buf), 'bullet-marker') >= 0 && index(s:Codes(l:buf), 'duplicate-slug') >= 0}, 30000)
    call s:Fail('no bullet-marker and duplicate-slug diagnostics; got ' . string(ale#engine#GetLoclist(l:buf)))
  endif
  call s:Log('diagnostics: ' . join(sort(s:Codes(l:buf)), ' '))
  if index(s:Codes(l:buf), 'slug-format') < 0
    call s:Fail('no slug-format diagnostic: ' . string(s:Codes(l:buf)))
  endif

  " 2. diagnostics follow an edit before it is saved (didChange)
  call append(line('$'), '- [db] Use MySQL for reporting.')
  ALELint
  if !s:WaitFor({-> count(s:Codes(l:buf), 'duplicate-slug') >= 2}, 20000)
    call s:Fail('an unsaved edit brought no new duplicate-slug: ' . string(s:Codes(l:buf)))
  endif
  call s:Log('unsaved edit: ' . count(s:Codes(l:buf), 'duplicate-slug') . ' duplicate-slug')
  silent! undo
  write

  " 3. README.md is Markdown, not memory: no server for it
  execute 'edit ' . fnameescape(s:ws . '/README.md')
  let l:readme = bufnr('')
  if memory_lsp#Root(l:readme) isnot# ''
    call s:Fail('README.md has a root')
  endif
  ALELint
  sleep 2
  if !empty(s:Codes(l:readme))
    call s:Fail('README.md got memory-lsp diagnostics: ' . string(ale#engine#GetLoclist(l:readme)))
  endif
  call s:Log('README.md: no diagnostics')

  " 3b. AGENTS.md, an agent's file: the reference rules on its bullets,
  "     following an unsaved edit, and no memory rule (its * line is no
  "     bullet-marker)
  execute 'edit ' . fnameescape(s:ws . '/AGENTS.md')
  let l:agents = bufnr('')
  if memory_lsp#Root(l:agents) isnot# s:ws
    call s:Fail('AGENTS.md: root ' . memory_lsp#Root(l:agents) . ', want ' . s:ws)
  endif
  ALELint
  if !s:WaitFor({-> s:Codes(l:agents) == ['stale-path']}, 20000)
    call s:Fail('AGENTS.md: want one stale-path, got ' . string(ale#engine#GetLoclist(l:agents)))
  endif
  call setline(4, '- Handlers live in src/main.go.')
  ALELint
  if !s:WaitFor({-> empty(s:Codes(l:agents))}, 20000)
    call s:Fail('AGENTS.md fixed in the buffer: ' . string(ale#engine#GetLoclist(l:agents)))
  endif
  call s:Log('AGENTS.md: stale-path, gone once fixed in the buffer')
  silent! undo
  write

  " 4. :MemoryStore into a closed file, and into the open one
  execute 'buffer ' . l:buf
  MemoryStore Quirk The e2e suite fails once in twenty runs; rerun it.
  if match(readfile(s:ws . '/.memory/quirks.md'), 'rerun it') < 0
    call s:Fail(':MemoryStore did not reach quirks.md: ' . string(readfile(s:ws . '/.memory/quirks.md')))
  endif
  MemoryStore Decision Cache invoices for ten minutes.
  if match(getbufline(l:buf, 1, '$'), 'Cache invoices') < 0
    call s:Fail(':MemoryStore into the open file did not reach the buffer: ' . string(getbufline(l:buf, 1, '$')))
  endif
  call s:Log(':MemoryStore: on disk and in the open buffer')

  " 5. :MemoryQuery fills the quickfix list, stale hits marked
  MemoryQuery sessions
  let l:qf = getqflist()
  if empty(l:qf) || l:qf[0].text !~# '^\[Decision\] Sessions live in src/auth/session.go\. (stale: '
    call s:Fail(':MemoryQuery: ' . string(l:qf))
  endif
  if bufname(l:qf[0].bufnr) !~# '\.memory/decisions\.md$' || l:qf[0].lnum < 1
    call s:Fail(':MemoryQuery item does not lead to the entry: ' . string(l:qf[0]))
  endif
  call s:Log(':MemoryQuery: ' . l:qf[0].text)
  cclose

  " 6. :MemoryFixAll applies the safe fixes ([flaky]Retry gets its space)
  execute 'buffer ' . l:buf
  MemoryFixAll
  if match(getbufline(l:buf, 1, '$'), '^- \[flaky\] Retry') < 0
    call s:Fail(':MemoryFixAll did not fix [flaky]Retry: ' . string(getbufline(l:buf, 1, '$')))
  endif
  call s:Log(':MemoryFixAll: fixed')

  call s:Log('PASS')
  qall!
endfunction

try
  call s:Run()
catch
  call s:Fail(v:exception . ' at ' . v:throwpoint)
endtry
