-- Headless Neovim test of the clew plugin against a real server binary.
--   CLEW_LSP=/path/to/clew-lsp CLEW_WORKSPACE=/tmp/ws nvim --headless -u minimal_init.lua -i NONE -n
-- Exit status 0 on PASS, 1 on FAIL; a step log goes to stderr and $CLEW_OUT.
--
-- EXPECT lists diagnostics that must appear, one line each:
--   { file = 'docs/guide.md', line = 5, code = 'anchor/stale' },  -- line is 1-based
-- CLEW_EXPECT (a JSON list of the same objects) adds more from the shell.
local EXPECT = {
}

local bin = assert(os.getenv('CLEW_LSP'), 'set CLEW_LSP to the server binary')
local ws = assert(os.getenv('CLEW_WORKSPACE'), 'set CLEW_WORKSPACE to a copy of the fixture')
local out_path = os.getenv('CLEW_OUT') or (vim.fn.tempname() .. '.txt')
local uv = vim.uv or vim.loop

local script_dir = debug.getinfo(1, 'S').source:sub(2):match('(.*)/')
local plugin_dir = vim.fn.fnamemodify(script_dir .. '/..', ':p')
vim.opt.runtimepath:prepend(plugin_dir)

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

local extra = os.getenv('CLEW_EXPECT')
if extra and extra ~= '' then
  for _, e in ipairs(vim.fn.json_decode(extra)) do
    table.insert(EXPECT, e)
  end
end

local ok, err = pcall(function()
  log('nvim %s', tostring(vim.version and vim.version().minor and ('0.' .. vim.version().minor) or '?'))
  vim.cmd('filetype on')
  if vim.lsp.log and vim.lsp.log.set_level then vim.lsp.log.set_level('warn') else vim.lsp.set_log_level('warn') end
  vim.g.clew_disable_autosetup = true
  vim.cmd('runtime plugin/clew.lua')
  check(vim.fn.exists(':ClewInfo') == 2, 'plugin commands defined')

  local clew = require('clew')
  clew.setup({ cmd = { bin, 'serve' }, settings = { hints_in_code = true } })

  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/docs/guide.md'))
  local bufnr = vim.api.nvim_get_current_buf()
  check(vim.bo[bufnr].filetype == 'markdown', 'filetype is markdown')

  local client
  check(vim.wait(10000, function()
    client = clew.get_clients(bufnr)[1]
    return client ~= nil and client.initialized == true
  end, 20), 'client started, attached and initialized')

  local caps = client.server_capabilities or client.resolved_capabilities
  check(caps ~= nil, 'server capabilities received')
  local sync = client.server_capabilities and client.server_capabilities.textDocumentSync
  check(type(sync) == 'table' and sync.openClose == true and sync.change == 2, 'incremental text sync advertised')
  check(client.config.root_dir == ws, 'workspace root is the fixture (' .. tostring(client.config.root_dir) .. ')')

  -- The first diagnosis pass after didOpen.
  check(vim.wait(10000, function() return clew.diagnosed[client.id] ~= nil end, 20), 'server finished a diagnosis pass')

  -- A code file in the same workspace shares the client.
  vim.cmd('edit ' .. vim.fn.fnameescape(ws .. '/src/lang.go'))
  local gobuf = vim.api.nvim_get_current_buf()
  check(vim.wait(5000, function() return vim.lsp.buf_is_attached(gobuf, client.id) end, 20), 'code file attached to the same client')
  vim.cmd('buffer ' .. bufnr)

  for _, e in ipairs(EXPECT) do
    local path = ws .. '/' .. e.file
    local b = vim.fn.bufadd(path)
    vim.fn.bufload(b)
    local found = vim.wait(10000, function()
      for _, d in ipairs(vim.diagnostic.get(b)) do
        if d.lnum == e.line - 1 and (e.code == nil or d.code == e.code) then
          return true
        end
      end
      return false
    end, 20)
    if not found then
      log('diagnostics in %s: %s', e.file, vim.inspect(vim.diagnostic.get(b)))
    end
    check(found, string.format('diagnostic %s at %s:%d', tostring(e.code), e.file, e.line))
  end

  -- With the test server (CLEW_MARKER_EDIT=1): type its marker after the
  -- emoji on line 1 and check the diagnostic lands on it. This crosses
  -- Neovim's UTF-16 incremental sync and the server's conversion both ways.
  if os.getenv('CLEW_MARKER_EDIT') == '1' then
    local line = vim.api.nvim_buf_get_lines(bufnr, 0, 1, false)[1]
    local col = #line -- byte column at the end of "# Guide — résumé 😀"
    vim.api.nvim_buf_set_text(bufnr, 0, col, 0, col, { ' CLEW-TEST-DIAGNOSTIC' })
    local found = vim.wait(10000, function()
      for _, d in ipairs(vim.diagnostic.get(bufnr)) do
        if d.lnum == 0 and d.col == col + 1 and d.end_col == col + 1 + #'CLEW-TEST-DIAGNOSTIC' then
          return true
        end
      end
      return false
    end, 20)
    if not found then
      log('diagnostics: %s', vim.inspect(vim.diagnostic.get(bufnr)))
    end
    check(found, 'diagnostic follows an unsaved edit after non-ASCII text (byte col ' .. (col + 1) .. ')')
  end

  -- With the real server: the lens command on the anchored declaration
  -- fills the quickfix list with the passage that binds it.
  if os.getenv('CLEW_MARKER_EDIT') ~= '1' then
    vim.fn.setqflist({}, 'r')
    vim.lsp.commands['clew.showAnchors']({
      command = 'clew.showAnchors',
      arguments = { { textDocument = { uri = vim.uri_from_bufnr(gobuf) }, position = { line = 3, character = 6 } } },
    }, { client_id = client.id, bufnr = gobuf })
    local shown = vim.wait(10000, function()
      local qf = vim.fn.getqflist()
      return #qf == 1 and vim.api.nvim_buf_get_name(qf[1].bufnr):sub(-#'docs/guide.md') == 'docs/guide.md' and qf[1].lnum == 5
    end, 20)
    if not shown then
      log('quickfix: %s', vim.inspect(vim.fn.getqflist()))
    end
    check(shown, 'clew.showAnchors lists the passage in the quickfix list')
  end

  -- Opting in: outside a .clew.yml/.multivac project, a doc that holds an
  -- anchor comment gets a root; one that does not, none.
  local tmp = vim.fn.tempname()
  vim.fn.mkdir(tmp .. '/.git', 'p')
  vim.fn.writefile({ '# Notes', '<!-- @code function F a.go -->' }, tmp .. '/with.md')
  vim.fn.writefile({ '# Notes', 'no anchors here' }, tmp .. '/without.md')
  local with = vim.fn.bufadd(tmp .. '/with.md')
  vim.fn.bufload(with)
  local without = vim.fn.bufadd(tmp .. '/without.md')
  vim.fn.bufload(without)
  check(clew.root_for(with) == vim.fn.resolve(tmp) or clew.root_for(with) == tmp, 'a doc with an anchor comment opts its project in')
  check(clew.root_for(without) == nil, 'a doc without anchors and without config starts nothing')

  vim.lsp.stop_client(client.id)
  check(vim.wait(5000, function() return vim.lsp.get_client_by_id(client.id) == nil end, 20), 'client stopped')
end)
if not ok then
  log('ERROR: %s', tostring(err))
  finish(1)
else
  log('PASS')
  finish(0)
end
