" ALE's linter for memory files: memory-lsp's language server, started only
" for .md files directly inside a .memory/ folder (the project root is the
" folder holding .memory; for any other file it is '' and ALE does not start
" the server).
call ale#linter#Define('markdown', {
\   'name': 'memory_lsp',
\   'lsp': 'stdio',
\   'executable': function('memory_lsp#Executable'),
\   'command': '%e serve --stdio',
\   'project_root': function('memory_lsp#Root'),
\   'initialization_options': function('memory_lsp#Settings'),
\})
