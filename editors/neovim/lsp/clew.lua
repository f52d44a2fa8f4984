-- Neovim 0.11+: vim.lsp.enable('clew') picks this up from the runtimepath.
-- (Older versions: use require('clew').setup().)
return {
  cmd = { 'clew-lsp', 'serve' },
  filetypes = {
    'markdown', 'markdown.mdx', 'mdx',
    'go', 'typescript', 'typescriptreact', 'javascript', 'javascriptreact',
    'python', 'rust', 'java', 'kotlin', 'swift', 'c', 'cpp', 'cs',
  },
  root_markers = { '.clew.yml', '.multivac', '.git' },
  settings = { clew = {} },
}
