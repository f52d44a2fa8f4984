-- Code lenses ("1 doc · 1 stale") that keep themselves up to date, and kept
-- visible: clew's hints in code say what the lens says, so their virtual
-- text is left out instead of pushing the lens off-screen.
local M = {}

local codelens = vim.lsp.codelens

-- refresh re-requests the lenses of one buffer.
function M.refresh(bufnr)
  if not vim.api.nvim_buf_is_loaded(bufnr) then
    return
  end
  if vim.fn.has('nvim-0.10') == 1 then
    pcall(codelens.refresh, { bufnr = bufnr })
  else
    -- Before 0.10, refresh() works on the current buffer only.
    pcall(vim.api.nvim_buf_call, bufnr, function()
      codelens.refresh()
    end)
  end
end

-- refresh_visible refreshes every buffer shown in a window and attached to
-- the client: a diagnosis pass may change the lens of code not being edited.
function M.refresh_visible(client_id)
  local seen = {}
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    local b = vim.api.nvim_win_get_buf(win)
    if not seen[b] and vim.lsp.buf_is_attached(b, client_id) then
      seen[b] = true
      M.refresh(b)
    end
  end
end

local group = vim.api.nvim_create_augroup('clew_lens', { clear = true })

-- attach turns automatic lenses on for a buffer: vim.lsp.codelens.enable
-- where Neovim has it, else autocmds (the server's diagnosis passes refresh
-- visible buffers too, see init.lua).
function M.attach(client, bufnr)
  if type(codelens.enable) == 'function' then
    pcall(codelens.enable, true, { bufnr = bufnr })
  else
    vim.api.nvim_clear_autocmds({ group = group, buffer = bufnr })
    vim.api.nvim_create_autocmd({ 'BufEnter', 'CursorHold', 'InsertLeave', 'BufWritePost' }, {
      group = group,
      buffer = bufnr,
      callback = function()
        M.refresh(bufnr)
      end,
    })
    M.refresh(bufnr)
  end
  M.hide_hint_text(client)
end

-- hide_hint_text keeps clew's hints as signs and underlines but drops their
-- virtual text, which sits at the end of the same line as the lens. It only
-- narrows what the user's configuration shows.
function M.hide_hint_text(client)
  local ok, ns = pcall(vim.lsp.diagnostic.get_namespace, client.id)
  if not ok or not ns then
    return
  end
  local vt = vim.diagnostic.config().virtual_text
  if not vt then
    return -- no virtual text at all: nothing hides the lens
  end
  local narrowed = type(vt) == 'table' and vim.deepcopy(vt) or {}
  narrowed.severity = { min = vim.diagnostic.severity.INFO }
  vim.diagnostic.config({ virtual_text = narrowed }, ns)
end

return M
