" memory-lsp for Vim: the :Memory… commands, and the vim-lsp registration
" when vim-lsp is installed (ALE finds ale_linters/markdown/memory_lsp.vim
" on the runtimepath by itself).
if exists('g:loaded_memory_lsp')
  finish
endif
let g:loaded_memory_lsp = 1

command! -nargs=+ -complete=customlist,memory_lsp#CompleteCategory MemoryStore call memory_lsp#Store(<q-args>)
command! -nargs=+ MemoryQuery call memory_lsp#Query(<q-args>)
command! -nargs=0 MemoryFixAll call memory_lsp#FixAll()

" vim-lsp (prabirshrestha/vim-lsp): the same server, the same rule for
" which files it serves. Not run in CI here (Debian has no vim-lsp
" package); written against vim-lsp's documented lsp#register_server.
function! s:RegisterVimLsp() abort
  call lsp#register_server({
  \   'name': 'memory-lsp',
  \   'cmd': {server_info -> [memory_lsp#Executable(), 'serve', '--stdio']},
  \   'root_uri': {server_info -> lsp#utils#path_to_uri(memory_lsp#Root(bufnr('%')))},
  \   'initialization_options': memory_lsp#Settings(),
  \   'allowlist': ['markdown'],
  \   'blocklist': [],
  \})
endfunction

augroup memory_lsp
  autocmd!
  autocmd User lsp_setup if get(g:, 'memory_lsp_vim_lsp', 1) | call s:RegisterVimLsp() | endif
augroup END
