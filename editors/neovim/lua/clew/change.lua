-- "Show what changed since review" in Neovim: clew.showChange's answer as a
-- diff in a new tab page. Left: a read-only scratch buffer
-- clew://reviewed/<path> holding the file as it was reviewed (the current
-- file with the reviewed version of the declaration, range or doc in
-- place); right: the real file. Both windows are in diff mode, so only the
-- change is highlighted and the rest folds away. q in the left window
-- closes the tab.
local M = {}

local function lines_of(s)
  local out = vim.split(s or '', '\n', { plain = true })
  if out[#out] == '' then
    table.remove(out)
  end
  for i, l in ipairs(out) do
    out[i] = l:gsub('\r$', '')
  end
  return out
end

-- first_difference is the first 1-based line where a and b differ.
local function first_difference(a, b)
  for i = 1, math.max(#a, #b) do
    if a[i] ~= b[i] then
      return i
    end
  end
  return 1
end

-- show opens the diff of a clew.showChange answer; root is the workspace
-- folder the answer's path is relative to. It returns the scratch buffer
-- and the file's buffer.
function M.show(result, root)
  if type(result) ~= 'table' or type(result.before_file) ~= 'string' or type(result.path) ~= 'string' then
    vim.notify('clew: the server sent no change to show', vim.log.levels.WARN)
    return nil
  end
  local file = root .. '/' .. result.path
  vim.cmd('tabedit ' .. vim.fn.fnameescape(file))
  local file_buf = vim.api.nvim_get_current_buf()
  local file_win = vim.api.nvim_get_current_win()
  local filetype = vim.bo[file_buf].filetype
  vim.cmd('diffthis')

  vim.cmd('leftabove vnew')
  local buf = vim.api.nvim_get_current_buf()
  local name = 'clew://reviewed/' .. result.path
  local old = vim.fn.bufnr(name)
  if old > 0 and old ~= buf then
    vim.api.nvim_buf_delete(old, { force = true })
  end
  vim.api.nvim_buf_set_name(buf, name)
  local bo = vim.bo[buf]
  bo.buftype = 'nofile'
  bo.bufhidden = 'wipe'
  bo.swapfile = false
  local before = lines_of(result.before_file)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, before)
  bo.modifiable = false
  bo.readonly = true
  bo.filetype = filetype
  vim.cmd('diffthis')
  vim.api.nvim_buf_set_keymap(buf, 'n', 'q', '<cmd>tabclose<cr>', { noremap = true, silent = true, desc = 'close the diff' })

  -- The cursor on the first changed line of the real file.
  vim.api.nvim_set_current_win(file_win)
  local now = vim.api.nvim_buf_get_lines(file_buf, 0, -1, false)
  vim.api.nvim_win_set_cursor(file_win, { math.min(first_difference(before, now), #now), 0 })

  local commit = (result.reviewed_commit or ''):sub(1, 7)
  vim.notify(string.format('clew: %s: reviewed (%s) on the left ↔ now on the right; q there closes',
    result.subject or result.path, commit))
  return buf, file_buf
end

return M
