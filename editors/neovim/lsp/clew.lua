-- Neovim 0.11+: vim.lsp.enable('clew') reads this file from the runtimepath.
-- The root is found by require('clew').root_for: a .clew.yml or .multivac/
-- above the file, else the git checkout (or the directory with a docs/
-- folder) when the buffer or the project's Markdown holds an @code/@anchor
-- comment. Override anything with vim.lsp.config('clew', {...}).
return require('clew').lsp_config()
