-- clew.nvim: starts `clew-lsp serve` for Markdown docs and the code they
-- describe. Works on Neovim 0.7 (vim.lsp.start_client + buf_attach_client)
-- and newer (vim.lsp.start). On 0.11+ you may instead use the bundled
-- lsp/clew.lua with vim.lsp.enable('clew').
--
--   require('clew').setup({
--     cmd = { 'clew-lsp', 'serve' },
--     settings = { anchors = { blocking = { 'stale', 'lost' } } }, -- SPEC §7 keys
--   })
local M = {}

local uv = vim.uv or vim.loop

local function has(v)
  return vim.fn.has('nvim-' .. v) == 1
end

M.defaults = {
  cmd = { 'clew-lsp', 'serve' },
  -- Markdown docs plus every language clew indexes (SPEC §2.2).
  filetypes = {
    'markdown', 'markdown.mdx', 'mdx',
    'go', 'typescript', 'typescriptreact', 'javascript', 'javascriptreact',
    'python', 'rust', 'java', 'kotlin', 'swift', 'c', 'cpp', 'cs',
  },
  -- The workspace root is the nearest directory holding one of these.
  root_markers = { '.clew.yml', '.multivac', '.git' },
  -- Only start where the project opted in: a .clew.yml or .multivac/ at or
  -- above the file. Set to false to start in every git repository.
  require_config = true,
  config_markers = { '.clew.yml', '.multivac' },
  -- The "clew" settings section (SPEC §7 keys), sent as initializationOptions
  -- and answered to workspace/configuration.
  settings = {},
  on_attach = nil,
  capabilities = nil,
}

M.config = vim.deepcopy(M.defaults)

-- Per-root client ids, for Neovim 0.7 where nothing reuses clients for us.
local clients = {}

-- State the server reports through $/clew/diagnosed, per client id.
M.diagnosed = {}

local function exists(path)
  return uv.fs_stat(path) ~= nil
end

-- find_up returns the nearest directory at or above dir holding one of names.
local function find_up(dir, names)
  while dir and dir ~= '' do
    for _, name in ipairs(names) do
      if exists(dir .. '/' .. name) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      return nil
    end
    dir = parent
  end
  return nil
end

-- has_anchor reports whether a buffer holds an @code or @anchor comment: a
-- doc that writes anchors opts its project in even without a config file.
local function has_anchor(bufnr)
  local n = math.min(vim.api.nvim_buf_line_count(bufnr), 5000)
  for _, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, n, false)) do
    if line:find('<!%-%-%s*@code[%s%-]') or line:find('<!%-%-%s*@anchor[%s%-]') then
      return true
    end
  end
  return false
end

function M.root_for(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' or name:match('^%a[%w+.-]*://') then
    return nil -- unnamed buffers and non-file URIs are not workspace files
  end
  local dir = vim.fn.fnamemodify(name, ':p:h')
  if M.config.require_config and not find_up(dir, M.config.config_markers) and not has_anchor(bufnr) then
    return nil
  end
  return find_up(dir, M.config.root_markers)
end

local function handlers()
  return {
    -- Counts finished diagnosis passes so scripts can wait instead of sleeping.
    ['$/clew/diagnosed'] = function(_, result, ctx)
      M.diagnosed[ctx.client_id] = result and result.snapshot or 0
      pcall(vim.api.nvim_exec_autocmds, 'User', { pattern = 'ClewDiagnosed', modeline = false })
    end,
  }
end

function M.client_config(root)
  return {
    name = 'clew',
    cmd = M.config.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = vim.fn.fnamemodify(root, ':t') } },
    init_options = M.config.settings,
    settings = { clew = M.config.settings },
    handlers = handlers(),
    on_attach = M.config.on_attach,
    capabilities = M.config.capabilities,
    on_exit = function()
      clients[root] = nil
    end,
  }
end

-- start attaches the buffer to the clew client of its root, starting one if
-- needed. It returns the client id, or nil when the buffer is not in a clew
-- workspace.
function M.start(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local root = M.root_for(bufnr)
  if not root then
    return nil
  end
  local cfg = M.client_config(root)
  if has('0.8') then
    return vim.lsp.start(cfg, { bufnr = bufnr })
  end
  local id = clients[root]
  if not id or not vim.lsp.get_client_by_id(id) then
    id = vim.lsp.start_client(cfg)
    if not id then
      vim.notify('clew: could not start ' .. table.concat(cfg.cmd, ' '), vim.log.levels.ERROR)
      return nil
    end
    clients[root] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

local function get_clients(bufnr)
  local all = (vim.lsp.get_clients or vim.lsp.get_active_clients)(bufnr and { bufnr = bufnr } or nil)
  local out = {}
  for _, c in ipairs(all) do
    if c.name == 'clew' and (not bufnr or vim.lsp.buf_is_attached(bufnr, c.id)) then
      table.insert(out, c)
    end
  end
  return out
end
M.get_clients = get_clients

function M.stop()
  for _, c in ipairs(get_clients()) do
    if has('0.11') then
      c:stop()
    else
      vim.lsp.stop_client(c.id)
    end
  end
  clients = {}
end

-- execute runs a server command (workspace/executeCommand) such as
-- clew.verifyWorkspace; the server lists the ones it supports.
function M.execute(command, arguments)
  local bufnr = vim.api.nvim_get_current_buf()
  local c = get_clients(bufnr)[1]
  if not c then
    vim.notify('clew: no clew server attached to this buffer', vim.log.levels.WARN)
    return
  end
  local params = { command = command, arguments = arguments }
  c.request('workspace/executeCommand', params, function(err, result)
    if err then
      vim.notify('clew: ' .. command .. ': ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    elseif command == 'clew.showAnchors' then
      M.show_locations(result, 'clew: anchors')
    elseif result ~= nil then
      vim.notify(vim.inspect(result), vim.log.levels.INFO)
    end
  end, bufnr)
end

-- show_locations puts the locations a server command returned (the code
-- lens "2 docs · 1 stale" answers with the passages) in the quickfix list.
function M.show_locations(result, title)
  if type(result) ~= 'table' or vim.tbl_isempty(result) then
    vim.notify('clew: nothing to show', vim.log.levels.INFO)
    return
  end
  local ok, items = pcall(vim.lsp.util.locations_to_items, result, 'utf-16')
  if not ok then
    items = vim.lsp.util.locations_to_items(result)
  end
  vim.fn.setqflist({}, ' ', { title = title or 'clew', items = items })
  vim.cmd('copen')
end

-- show_anchors runs clew.showAnchors on the server for a lens (client-side
-- handler: Neovim calls it instead of sending the command itself).
local function show_anchors(command, ctx)
  local c = vim.lsp.get_client_by_id(ctx.client_id)
  if not c then
    return
  end
  c.request('workspace/executeCommand', { command = command.command, arguments = command.arguments },
    function(err, result)
      if err then
        vim.notify('clew: ' .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      else
        M.show_locations(result, 'clew: anchors')
      end
    end, ctx.bufnr)
end

local group

function M.setup(opts)
  vim.lsp.commands['clew.showAnchors'] = show_anchors
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts or {})
  group = vim.api.nvim_create_augroup('clew', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = M.config.filetypes,
    callback = function(args)
      M.start(args.buf)
    end,
  })
  M.did_setup = true
  -- Buffers already open when setup runs.
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.tbl_contains(M.config.filetypes, vim.bo[b].filetype) then
      M.start(b)
    end
  end
end

return M
