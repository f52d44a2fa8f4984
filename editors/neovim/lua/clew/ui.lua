-- What the server commands' answers look like in Neovim: the dev context as
-- a read-only Markdown split, verify as the quickfix list, explain through
-- vim.ui.select, confirm as one message. Never a Lua table dump.
local M = {}

local function notify(msg, level)
  vim.notify('clew: ' .. msg, level or vim.log.levels.INFO)
end
M.notify = notify

-- scratch shows lines in a read-only split named name, reusing the window
-- (and buffer) of an earlier call with the same name.
function M.scratch(name, lines, filetype)
  local buf = vim.fn.bufnr(name)
  local win = buf > 0 and vim.fn.bufwinid(buf) or -1
  if win > 0 then
    vim.api.nvim_set_current_win(win)
  else
    vim.cmd('vertical new')
    buf = vim.api.nvim_get_current_buf()
    local stale = vim.fn.bufnr(name)
    if stale > 0 and stale ~= buf then
      vim.api.nvim_buf_delete(stale, { force = true })
    end
    vim.api.nvim_buf_set_name(buf, name)
  end
  local bo = vim.bo[buf]
  bo.buftype = 'nofile'
  bo.bufhidden = 'wipe'
  bo.swapfile = false
  bo.modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  bo.modifiable = false
  bo.readonly = true
  bo.filetype = filetype
  vim.api.nvim_buf_set_keymap(buf, 'n', 'q', '<cmd>close<cr>', { noremap = true, silent = true, desc = 'close' })
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  return buf
end

local function split_lines(s)
  local out = vim.split(s or '', '\n', { plain = true })
  if out[#out] == '' then
    table.remove(out)
  end
  return out
end

-- context opens clew.compileContextMarkdown's answer ({title, markdown}).
function M.context(result)
  if type(result) ~= 'table' or type(result.markdown) ~= 'string' then
    notify('the server sent no context', vim.log.levels.WARN)
    return
  end
  local title = result.title ~= '' and result.title or 'context'
  M.scratch('clew://context/' .. title, split_lines(result.markdown), 'markdown')
end

local severity_type = { [1] = 'E', [2] = 'W', [3] = 'I', [4] = 'N' }

-- messages indexes the diagnostics the server published, by file and
-- 0-based line, so the quickfix text is the server's words.
local function messages(client_id)
  local ok, ns = pcall(vim.lsp.diagnostic.get_namespace, client_id)
  local out = {}
  if not ok then
    return out
  end
  for _, d in ipairs(vim.diagnostic.get(nil, { namespace = ns })) do
    local file = vim.api.nvim_buf_get_name(d.bufnr)
    out[file .. ':' .. d.lnum] = out[file .. ':' .. d.lnum] or d
  end
  return out
end

local function subject(a)
  if a.kind == 'lines' or a.kind == 'doc' or a.kind == '' then
    return a.path or a.id
  end
  return (a.kind or '') .. ' ' .. (a.qualified_name or '')
end

-- verify_items turns one folder's report (verify --json's object) into
-- quickfix items: every anchor that is not fresh, every claim leg that
-- does not hold, every diagnostic (parse and config errors).
function M.verify_items(root, report, client_id)
  local said = messages(client_id)
  local items = {}
  local function add(doc, line, type, text)
    local file = root .. '/' .. doc
    local d = said[file .. ':' .. (line - 1)]
    table.insert(items, {
      filename = file,
      lnum = line,
      col = d and d.col + 1 or 1,
      type = d and severity_type[d.severity] or type,
      text = d and d.message or text,
    })
  end
  for _, d in ipairs(report.diagnostics or {}) do
    add(d.doc, d.line, d.severity == 'error' and 'E' or 'W', d.code .. ': ' .. d.message)
  end
  for _, a in ipairs(report.anchors or {}) do
    if a.state ~= 'fresh' then
      local t = (a.state == 'stale' or a.state == 'lost') and 'E' or (a.state == 'moved-renamed' and 'W' or 'I')
      add(a.doc, a.line, t, subject(a) .. ': ' .. a.state)
    end
  end
  for _, c in ipairs(report.claims or {}) do
    for _, leg in ipairs(c.legs or {}) do
      if leg.state ~= 'ok' then
        add(leg.doc, leg.line, leg.gating and 'E' or 'W', 'claim ' .. c.id .. ': leg ' .. leg.state)
      end
    end
  end
  return items
end

-- counts says a report's anchors by state: "7 anchors: 3 fresh · 2 stale".
function M.counts(report)
  local by, order = {}, { 'fresh', 'stale', 'moved-renamed', 'lost', 'unpinned', 'unchecked' }
  local n = 0
  for _, a in ipairs(report.anchors or {}) do
    by[a.state] = (by[a.state] or 0) + 1
    n = n + 1
  end
  local parts = {}
  for _, s in ipairs(order) do
    if by[s] then
      table.insert(parts, by[s] .. ' ' .. s)
    end
  end
  local s = n .. (n == 1 and ' anchor' or ' anchors')
  if #parts > 0 then
    s = s .. ': ' .. table.concat(parts, ' · ')
  end
  local legs = 0
  for _, c in ipairs(report.claims or {}) do
    legs = legs + #(c.legs or {})
  end
  if #(report.claims or {}) > 0 then
    s = s .. string.format('; %d claims, %d legs', #report.claims, legs)
  end
  return s .. '; exit ' .. tostring(report.exit)
end

-- verify fills the quickfix list from clew.verifyWorkspace's answer (one
-- report, or a list of {root, report} for several folders).
function M.verify(result, client)
  local folders = result
  if type(result) == 'table' and result.anchors then
    folders = { { root = client.config.root_dir, report = result } }
  end
  if type(folders) ~= 'table' then
    notify('the server sent no report', vim.log.levels.WARN)
    return
  end
  local items, summary = {}, {}
  for _, f in ipairs(folders) do
    vim.list_extend(items, M.verify_items(f.root, f.report, client.id))
    table.insert(summary, M.counts(f.report))
  end
  local title = 'clew verify: ' .. table.concat(summary, ' | ')
  vim.fn.setqflist({}, ' ', { title = title, items = items })
  if #items > 0 then
    vim.cmd('copen')
  end
  notify(title:sub(#'clew verify: ' + 1) .. (#items > 0 and '' or ' — nothing to fix'))
end

-- entries lists what a compiled context holds and left out, for a picker.
function M.entries(compiled)
  local out = {}
  for _, e in ipairs(compiled.selected or {}) do
    table.insert(out, { uri = e.uri, label = string.format('selected · %s · %s', e.tier, e.title or e.uri) })
  end
  for _, x in ipairs(compiled.excluded or {}) do
    table.insert(out, { uri = x.uri, label = string.format('excluded · %s · %s', x.reason, x.uri) })
  end
  return out
end

-- explanation says an explain answer in one line.
function M.explanation(e)
  if type(e) ~= 'table' then
    return 'no answer'
  end
  return string.format('%s is %s: %s', e.uri or '?', (e.standing or '?'):gsub('_', ' '), e.detail or '')
end

-- confirmed says what clew.confirm did.
function M.confirmed(r)
  if type(r) ~= 'table' then
    return 'nothing confirmed'
  end
  local parts = {}
  if r.confirmed and #r.confirmed > 0 then
    table.insert(parts, 'confirmed ' .. table.concat(r.confirmed, ', '))
  end
  if r.refused and #r.refused > 0 then
    table.insert(parts, 'refused: ' .. table.concat(r.refused, '; '))
  end
  if r.message and r.message ~= '' then
    table.insert(parts, r.message)
  end
  if #parts == 0 then
    return 'nothing to confirm here'
  end
  return table.concat(parts, ' — ')
end

return M
