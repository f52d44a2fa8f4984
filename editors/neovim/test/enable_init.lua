-- Headless test of the Neovim 0.11+ path: no setup(), only the bundled
-- lsp/clew.lua picked up by vim.lsp.enable('clew') from the runtimepath.
--   CLEW_LSP=… CLEW_PROJECT=… nvim --headless -u enable_init.lua -i NONE -n
-- CLEW_PROJECT is a git checkout without config whose docs/notes.md anchors
-- src/calc.go's Sum, pinned, with Sum changed since (run.sh builds it).
local bin = assert(os.getenv('CLEW_LSP'), 'set CLEW_LSP to the server binary')
local proj = assert(os.getenv('CLEW_PROJECT'), 'set CLEW_PROJECT')
local out_path = os.getenv('CLEW_OUT') or (vim.fn.tempname() .. '.txt')
local uv = vim.uv or vim.loop

local script_dir = debug.getinfo(1, 'S').source:sub(2):match('(.*)/')
vim.opt.runtimepath:prepend(vim.fn.fnamemodify(script_dir .. '/..', ':p'))

local lines_out, t0 = {}, uv.hrtime()
local function log(fmt, ...)
  local s = string.format('[%5d ms] ' .. fmt, math.floor((uv.hrtime() - t0) / 1e6), ...)
  table.insert(lines_out, s)
  io.stderr:write(s .. '\n')
end
local function finish(code)
  vim.fn.writefile(lines_out, out_path)
  vim.cmd(code == 0 and 'qall!' or ('cquit! ' .. code))
end
local function check(ok, what)
  if not ok then
    log('FAIL: %s', what)
    finish(1)
    error('unreachable')
  end
  log('ok: %s', what)
end

local function screen_line(buf, lnum)
  local win = vim.fn.bufwinid(buf)
  if win == -1 then
    return ''
  end
  vim.cmd('redraw!')
  local row = vim.fn.screenpos(win, lnum, 1).row
  local s = {}
  for c = 1, row > 0 and vim.o.columns or 0 do
    table.insert(s, vim.fn.screenstring(row, c))
  end
  return table.concat(s)
end

local ok, err = pcall(function()
  local v = vim.version()
  log('nvim %d.%d.%d', v.major, v.minor, v.patch)
  vim.cmd('filetype on')
  vim.diagnostic.config({ virtual_text = true })
  vim.g.clew_disable_autosetup = true
  vim.cmd('runtime plugin/clew.lua')

  -- What a user writes in init.lua: point cmd at the binary, enable.
  vim.lsp.config('clew', { cmd = { bin, 'serve' } })
  vim.lsp.enable('clew')
  -- The plugin's own setup() (autosetup) must not undo the user's config.
  require('clew').setup()
  check(vim.lsp.config.clew.cmd[1] == bin, "setup() keeps the user's vim.lsp.config cmd")
  check(vim.lsp.config.clew ~= nil and type(vim.lsp.config.clew.root_dir) == 'function',
    'lsp/clew.lua is on the runtimepath with a root_dir function')

  -- The code file first, in a project without .clew.yml.
  vim.cmd('edit ' .. vim.fn.fnameescape(proj .. '/src/calc.go'))
  local buf = vim.api.nvim_get_current_buf()
  local client
  check(vim.wait(10000, function()
    client = vim.lsp.get_clients({ bufnr = buf, name = 'clew' })[1]
    return client ~= nil and client.initialized == true
  end, 20), "vim.lsp.enable('clew') attached the code file")
  check(client.config.root_dir == proj, 'root is the git checkout: ' .. tostring(client.config.root_dir))

  local want = '1 doc · 1 stale'
  local shown = vim.wait(15000, function()
    return screen_line(buf, 4):find(want, 1, true) ~= nil
  end, 50)
  check(shown, 'the lens is on screen without any refresh call: ' .. screen_line(buf, 4))

  -- :ClewContext works on a client started by vim.lsp.enable.
  vim.api.nvim_win_set_cursor(0, { 4, 5 })
  vim.cmd('ClewContext')
  local cbuf
  check(vim.wait(10000, function()
    cbuf = vim.fn.bufnr('clew://context/Sum')
    return cbuf > 0 and vim.api.nvim_buf_line_count(cbuf) > 3
  end, 20), ':ClewContext opened clew://context/Sum')
  local first = vim.api.nvim_buf_get_lines(cbuf, 0, 1, false)[1]
  check(first:find('^# Context for `clew://symbol/.*Sum`$') ~= nil and vim.bo[cbuf].filetype == 'markdown',
    'the context names the seed and is markdown: ' .. first)
  local body = table.concat(vim.api.nvim_buf_get_lines(cbuf, 0, -1, false), '\n')
  check(body:find('docs/notes.md', 1, true) ~= nil, 'the context names the stale passage of docs/notes.md')

  client:stop()
  check(vim.wait(5000, function() return vim.lsp.get_client_by_id(client.id) == nil end, 20), 'client stopped')
end)
if not ok then
  log('ERROR: %s', tostring(err))
  finish(1)
else
  log('PASS')
  finish(0)
end
