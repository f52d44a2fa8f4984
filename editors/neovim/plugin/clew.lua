-- Loaded once per Neovim. Defines the :Clew commands and sets clew up with
-- defaults unless the user calls require('clew').setup() themselves or sets
-- vim.g.clew_disable_autosetup (say, to use vim.lsp.enable('clew') alone).
if vim.g.loaded_clew then
  return
end
vim.g.loaded_clew = true

local clew = require('clew')

local function command(name, fn, desc)
  vim.api.nvim_create_user_command(name, fn, { desc = desc })
end

command('ClewInfo', function()
  local lines = {}
  for _, c in ipairs(clew.get_clients()) do
    local s = clew.status[c.id]
    table.insert(lines, string.format('clew client %d: root %s — %s', c.id, c.config.root_dir or '?',
      s and (s.state .. (s.message ~= '' and (', ' .. s.message) or '')) or 'no status yet'))
  end
  if #lines == 0 then
    lines = { 'clew: no client running (this project has no .clew.yml, .multivac/ or anchor comment; see :checkhealth clew)' }
  end
  vim.notify(table.concat(lines, '\n'))
end, 'Show the running clew clients and their state')

command('ClewRestart', function()
  clew.stop()
  vim.defer_fn(function()
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(b) and vim.tbl_contains(clew.config.filetypes, vim.bo[b].filetype) then
        if vim.fn.has('nvim-0.11') == 1 and vim.lsp.enable then
          vim.api.nvim_exec_autocmds('FileType', { buffer = b, modeline = false })
        else
          clew.start(b)
        end
      end
    end
  end, 200)
end, 'Restart the clew language server')

command('ClewVerify', clew.verify, 'Check every anchor and claim; fill the quickfix list')
command('ClewConfirm', clew.confirm, 'Confirm the anchor under the cursor as reviewed')
command('ClewContext', clew.context, 'Open the dev context of the cursor as Markdown')
command('ClewExplain', clew.explain, 'Say why an entry is (or is not) in the cursor\'s dev context')
command('ClewShowChange', clew.show_change, 'Diff the stale anchor\'s code as reviewed against now')

if not vim.g.clew_disable_autosetup then
  vim.schedule(function()
    if not clew.did_setup then
      clew.setup()
    end
  end)
end
