" The agents' instruction files that are Markdown without a Markdown name
" (Cursor's .mdc rules, .cursorrules, .windsurfrules): Markdown, so that
" ALE's markdown linter memory_lsp, and vim-lsp's registration, reach them.
autocmd BufNewFile,BufRead */.cursor/rules/*.mdc,.cursorrules,.windsurfrules setfiletype markdown
