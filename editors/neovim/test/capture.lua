-- Prints what headless Neovim shows on examples/tour (the README's
-- captures): the code file with its lenses and the status line, then the
-- same with :ClewVerify's quickfix list. Run through capture.sh.
local bin = assert(os.getenv('CLEW_LSP'))
local out_path = assert(os.getenv('CLEW_OUT'))
local script_dir = debug.getinfo(1, 'S').source:sub(2):match('(.*)/')
vim.opt.runtimepath:prepend(vim.fn.fnamemodify(script_dir .. '/..', ':p'))
vim.o.columns = tonumber(os.getenv('CLEW_COLUMNS') or '100')
vim.o.lines = 22
vim.cmd('filetype on')
vim.diagnostic.config({ virtual_text = true })
vim.g.clew_disable_autosetup = true
vim.cmd('runtime plugin/clew.lua')
require('clew').setup({ cmd = { bin, 'serve' } })
vim.o.laststatus = 2
vim.o.statusline = "%f  %{v:lua.require'clew'.status_line()}"

local function screen()
  vim.cmd('redraw!')
  local rows = {}
  for r = 1, vim.o.lines - 1 do
    local s = {}
    for c = 1, vim.o.columns do
      table.insert(s, vim.fn.screenstring(r, c))
    end
    table.insert(rows, (table.concat(s):gsub('%s+$', '')))
  end
  return rows
end

vim.cmd('edit resolver/resolve.go')
vim.wait(10000, function()
  for name, ns in pairs(vim.api.nvim_get_namespaces()) do
    if name:find('codelens') and #vim.api.nvim_buf_get_extmarks(0, ns, 0, -1, {}) > 1 then
      return true
    end
  end
end, 50)
vim.wait(10000, function() return require('clew').status_line():find('anchors') ~= nil end, 50)
vim.cmd('normal! 18Gzt')
local out = screen()
table.insert(out, '')
vim.cmd('normal! 21Gzt')
vim.notify = function() end -- keep the message row out of the capture
vim.cmd('ClewVerify')
vim.wait(10000, function() return #vim.fn.getqflist() > 0 end, 50)
vim.cmd('wincmd k')
vim.list_extend(out, screen())
vim.fn.writefile(out, out_path)
vim.cmd('qa!')
