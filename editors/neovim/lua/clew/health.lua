-- :checkhealth clew — the binary, its version, the running clients and
-- their roots.
local M = {}

-- report picks the health API of this Neovim (vim.health.start on 0.10+,
-- report_start before, the 'health' module on 0.7).
local function report()
  local h = vim.health or require('health')
  return {
    start = h.start or h.report_start,
    ok = h.ok or h.report_ok,
    warn = h.warn or h.report_warn,
    error = h.error or h.report_error,
    info = h.info or h.report_info,
  }
end

function M.check()
  local r = report()
  local clew = require('clew')
  r.start('clew-lsp binary')
  local cmd = clew.config.cmd or {}
  local bin = cmd[1] and vim.fn.exepath(cmd[1]) or ''
  if bin == '' then
    r.error(string.format('%s not found', tostring(cmd[1])), {
      'go install github.com/clew-lsp/clew-lsp/cmd/clew-lsp@latest (needs a C compiler), or a release binary on PATH',
      "or set cmd in require('clew').setup({ cmd = { '/path/to/clew-lsp', 'serve' } })",
    })
  else
    r.ok('binary: ' .. bin)
    local out = vim.fn.system({ bin, 'version' })
    if vim.v.shell_error == 0 then
      r.ok('version: ' .. vim.trim(out))
    else
      r.error('`' .. bin .. ' version` failed: ' .. vim.trim(out))
    end
  end

  r.start('clients')
  local cs = clew.get_clients()
  if #cs == 0 then
    r.warn('no clew client is running', {
      'open a file of a project with a .clew.yml, a .multivac/ folder, or Markdown holding <!-- @code … --> anchors',
    })
  end
  for _, c in ipairs(cs) do
    local s = clew.status[c.id]
    local bufs = {}
    for b in pairs(c.attached_buffers or {}) do
      table.insert(bufs, vim.fn.fnamemodify(vim.api.nvim_buf_get_name(b), ':~:.'))
    end
    table.sort(bufs)
    r.ok(string.format('client %d: root %s', c.id, c.config.root_dir or '?'))
    r.info(string.format('  server %s, state %s%s', s and s.version or '?', s and s.state or 'unknown',
      s and s.message ~= '' and (' — ' .. s.message) or ''))
    r.info('  attached: ' .. (#bufs > 0 and table.concat(bufs, ', ') or 'no buffers'))
  end

  r.start('this buffer')
  -- :checkhealth shows its report in a buffer of its own: the file the user
  -- was in is the alternate one.
  local b = vim.api.nvim_get_current_buf()
  if vim.bo[b].filetype == 'checkhealth' or vim.api.nvim_buf_get_name(b) == '' then
    b = vim.fn.bufnr('#')
  end
  if b <= 0 then
    r.info('no file buffer')
    return
  end
  local root = clew.root_for(b)
  if root then
    r.ok('root: ' .. root)
  else
    r.info('not in a clew project: no .clew.yml, .multivac/ or anchor comment found for this file')
  end
end

return M
