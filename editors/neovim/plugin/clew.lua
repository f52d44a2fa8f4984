-- Loaded once per Neovim. Sets clew up with defaults unless the user calls
-- require('clew').setup() themselves or sets vim.g.clew_disable_autosetup.
if vim.g.loaded_clew then
  return
end
vim.g.loaded_clew = true

local clew = require('clew')

local function text_document_position()
  local pos = vim.api.nvim_win_get_cursor(0)
  return {
    textDocument = { uri = vim.uri_from_bufnr(0) },
    position = { line = pos[1] - 1, character = pos[2] }, -- byte column; fine for ASCII
  }
end

vim.api.nvim_create_user_command('ClewInfo', function()
  local lines = {}
  for _, c in ipairs(clew.get_clients()) do
    table.insert(lines, string.format('clew client %d: root %s, last diagnosed snapshot %s',
      c.id, c.config.root_dir or '?', tostring(clew.diagnosed[c.id])))
  end
  if #lines == 0 then
    lines = { 'clew: no client running (is there a .clew.yml or .multivac/ above this file?)' }
  end
  vim.notify(table.concat(lines, '\n'))
end, { desc = 'Show running clew clients' })

vim.api.nvim_create_user_command('ClewRestart', function()
  clew.stop()
  vim.defer_fn(function()
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(b) and vim.tbl_contains(clew.config.filetypes, vim.bo[b].filetype) then
        clew.start(b)
      end
    end
  end, 200)
end, { desc = 'Restart the clew language server' })

vim.api.nvim_create_user_command('ClewVerify', function()
  clew.execute('clew.verifyWorkspace', {})
end, { desc = 'Check every anchor and claim in the workspace' })

vim.api.nvim_create_user_command('ClewConfirm', function()
  clew.execute('clew.confirm', { text_document_position() })
end, { desc = 'Confirm the anchor under the cursor as reviewed' })

vim.api.nvim_create_user_command('ClewContext', function()
  clew.execute('clew.compileContext', { text_document_position() })
end, { desc = 'Compile the dev context for the cursor' })

if not vim.g.clew_disable_autosetup then
  vim.schedule(function()
    if not clew.did_setup then
      clew.setup()
    end
  end)
end
