-- clew.nvim: starts `clew-lsp serve` for Markdown docs and the code they
-- describe, keeps the code lenses fresh, and shows what the server's
-- commands answer (:ClewContext, :ClewVerify, :ClewExplain, :ClewConfirm,
-- :ClewShowChange).
--
-- Neovim 0.11+: the bundled lsp/clew.lua and vim.lsp.enable('clew') (setup()
-- does exactly that, with your options). Neovim 0.7–0.10: setup() starts the
-- client itself from a FileType autocmd.
--
--   require('clew').setup({
--     cmd = { 'clew-lsp', 'serve' },
--     settings = { anchors = { blocking = { 'stale', 'lost' } } }, -- .clew.yml keys
--   })
local M = {}

local root = require('clew.root')
local lens = require('clew.lens')
local ui = require('clew.ui')
local change = require('clew.change')

local function has(v)
  return vim.fn.has('nvim-' .. v) == 1
end

M.defaults = {
  cmd = { 'clew-lsp', 'serve' },
  -- Markdown docs, every language clew has declaration tables for, and the
  -- configuration formats whose keys anchors can name.
  filetypes = {
    'markdown', 'markdown.mdx', 'mdx',
    'go', 'typescript', 'typescriptreact', 'javascript', 'javascriptreact',
    'python', 'rust', 'java', 'kotlin', 'swift', 'c', 'cpp', 'cs',
    'yaml', 'json', 'jsonc', 'toml', 'proto', 'sql', 'terraform', 'hcl',
  },
  -- Start only in projects that use clew: a .clew.yml or .multivac/ above
  -- the file, an @code/@anchor comment in the buffer, or one in the
  -- project's Markdown. false: start in every git repository.
  require_config = true,
  -- The "clew" settings section (the .clew.yml keys, see docs/config.md),
  -- sent as initializationOptions and answered to workspace/configuration.
  settings = {},
  on_attach = nil,
  capabilities = nil,
}

M.config = vim.deepcopy(M.defaults)

-- Per-root client ids, for Neovim before 0.8 where nothing reuses clients.
local clients = {}

-- What the server reported, per client id: the snapshot of the last
-- $/clew/diagnosed, and the last clew/status.
M.diagnosed = {}
M.status = {}

function M.root_for(bufnr)
  return root.root_for(bufnr, M.config.require_config)
end

-- request sends a request through a client (method or field call).
local function request(client, method, params, handler, bufnr)
  if has('0.11') then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

local function handlers()
  return {
    -- A finished diagnosis pass: scripts wait on it, and the lenses of the
    -- visible buffers are refreshed (the pass may have changed them).
    ['$/clew/diagnosed'] = function(_, result, ctx)
      M.diagnosed[ctx.client_id] = result and result.snapshot or 0
      lens.refresh_visible(ctx.client_id)
      pcall(vim.api.nvim_exec_autocmds, 'User', { pattern = 'ClewDiagnosed', modeline = false })
    end,
    ['clew/status'] = function(_, result, ctx)
      M.status[ctx.client_id] = result
      pcall(vim.api.nvim_exec_autocmds, 'User', { pattern = 'ClewStatus', modeline = false })
    end,
  }
end

local function on_attach(client, bufnr)
  if not has('0.8') then
    lens.attach(client, bufnr) -- later versions: the LspAttach autocmd below
  end
  if M.config.on_attach then
    M.config.on_attach(client, bufnr)
  end
end

-- capabilities are Neovim's client capabilities (with the user's on top),
-- plus what the plugin tells the server about itself: its command for
-- showing what changed, which stale anchors' hovers then name.
function M.capabilities()
  local caps = vim.tbl_deep_extend('force', vim.lsp.protocol.make_client_capabilities(), M.config.capabilities or {})
  caps.experimental = vim.tbl_deep_extend('force', caps.experimental or {}, { clew = { showChangeCommand = ':ClewShowChange' } })
  return caps
end

-- lsp_config is the configuration vim.lsp.enable('clew') uses (lsp/clew.lua
-- returns it): the root comes from root_for, so code buffers of a project
-- whose docs hold anchors attach too.
function M.lsp_config()
  return {
    cmd = M.config.cmd,
    filetypes = M.config.filetypes,
    root_dir = function(bufnr, on_dir)
      local r = M.root_for(bufnr)
      if r then
        on_dir(r)
      end
    end,
    init_options = M.config.settings,
    settings = { clew = M.config.settings },
    handlers = handlers(),
    on_attach = on_attach,
    capabilities = M.capabilities(),
  }
end

function M.client_config(r)
  return {
    name = 'clew',
    cmd = M.config.cmd,
    root_dir = r,
    workspace_folders = { { uri = vim.uri_from_fname(r), name = vim.fn.fnamemodify(r, ':t') } },
    init_options = M.config.settings,
    settings = { clew = M.config.settings },
    handlers = handlers(),
    on_attach = on_attach,
    capabilities = M.capabilities(),
    on_exit = function()
      clients[r] = nil
    end,
  }
end

-- start attaches the buffer to the clew client of its root, starting one if
-- needed (Neovim before 0.11; later versions go through vim.lsp.enable). It
-- returns the client id, or nil when the buffer is not in a clew workspace.
function M.start(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local r = M.root_for(bufnr)
  if not r then
    return nil
  end
  local cfg = M.client_config(r)
  if has('0.8') then
    return vim.lsp.start(cfg, { bufnr = bufnr })
  end
  local id = clients[r]
  if not id or not vim.lsp.get_client_by_id(id) then
    id = vim.lsp.start_client(cfg)
    if not id then
      ui.notify('could not start ' .. table.concat(cfg.cmd, ' '), vim.log.levels.ERROR)
      return nil
    end
    clients[r] = id
  end
  vim.lsp.buf_attach_client(bufnr, id)
  return id
end

function M.get_clients(bufnr)
  local all = (vim.lsp.get_clients or vim.lsp.get_active_clients)(bufnr and { bufnr = bufnr } or nil)
  local out = {}
  for _, c in ipairs(all) do
    if c.name == 'clew' and (not bufnr or vim.lsp.buf_is_attached(bufnr, c.id)) then
      table.insert(out, c)
    end
  end
  return out
end

function M.stop()
  for _, c in ipairs(M.get_clients()) do
    if has('0.11') then
      c:stop()
    else
      vim.lsp.stop_client(c.id)
    end
  end
  clients = {}
  root.forget()
end

-- position is the cursor as LSP wants it (UTF-16 columns).
function M.position()
  local ok, p = pcall(vim.lsp.util.make_position_params, 0, 'utf-16')
  if ok then
    return { textDocument = p.textDocument, position = p.position }
  end
  local pos = vim.api.nvim_win_get_cursor(0)
  return { textDocument = { uri = vim.uri_from_bufnr(0) }, position = { line = pos[1] - 1, character = pos[2] } }
end

-- execute runs a server command (workspace/executeCommand) for the current
-- buffer and hands the answer to on_result(result, client). Errors are said
-- in one line.
-- With any_client, a buffer without a clew client (the quickfix list, the
-- context split) uses the first running one: for commands about the
-- workspace, not the cursor.
function M.execute(command, arguments, on_result, any_client)
  local bufnr = vim.api.nvim_get_current_buf()
  local c = M.get_clients(bufnr)[1] or (any_client and M.get_clients()[1])
  if not c then
    ui.notify('no clew server for this buffer (see :checkhealth clew)', vim.log.levels.WARN)
    return
  end
  request(c, 'workspace/executeCommand', { command = command, arguments = arguments }, function(err, result)
    if err then
      ui.notify(command .. ': ' .. tostring(err.message or err), vim.log.levels.ERROR)
    elseif on_result then
      on_result(result, c)
    end
  end, bufnr)
end

-- context opens the dev context of the cursor as a Markdown split.
function M.context()
  M.execute('clew.compileContextMarkdown', { M.position() }, ui.context)
end

-- verify fills the quickfix list with what needs attention.
function M.verify()
  M.execute('clew.verifyWorkspace', {}, ui.verify, true)
end

-- explain picks an entry of the cursor's context (or one it left out) and
-- says why it stands where it does.
function M.explain()
  local at = M.position()
  M.execute('clew.compileContext', { at }, function(compiled)
    local entries = ui.entries(compiled or {})
    if #entries == 0 then
      ui.notify('the context is empty')
      return
    end
    vim.ui.select(entries, {
      prompt = 'clew: explain which entry?',
      format_item = function(e)
        return e.label
      end,
    }, function(choice)
      if not choice then
        return
      end
      M.execute('clew.explainContext', { vim.tbl_extend('force', at, { uri = choice.uri }) }, function(e)
        ui.notify(ui.explanation(e))
      end)
    end)
  end)
end

-- confirm pins or confirms the anchor under the cursor.
function M.confirm()
  M.execute('clew.confirm', { M.position() }, function(r)
    ui.notify(ui.confirmed(r))
  end)
end

-- status_line is the health of the current buffer's workspace for a
-- statusline: "clew: 2 anchors: 1 fresh · 1 stale", "" without a client.
function M.status_line()
  local c = M.get_clients(vim.api.nvim_get_current_buf())[1]
  local s = c and M.status[c.id]
  if not s then
    return c and 'clew: starting' or ''
  end
  if s.state ~= 'ready' then
    return 'clew: ' .. s.state .. (s.message ~= '' and (' — ' .. s.message) or '')
  end
  return 'clew: ' .. s.message
end

-- show_locations puts the locations a server command returned (the code
-- lens "2 docs · 1 stale" answers with the passages) in the quickfix list.
function M.show_locations(result, title)
  if type(result) ~= 'table' or vim.tbl_isempty(result) then
    ui.notify('nothing to show')
    return
  end
  local ok, items = pcall(vim.lsp.util.locations_to_items, result, 'utf-16')
  if not ok then
    items = vim.lsp.util.locations_to_items(result)
  end
  vim.fn.setqflist({}, ' ', { title = title or 'clew', items = items })
  vim.cmd('copen')
end

-- run_command runs a server command a lens or code action carries
-- (client-side handler: Neovim calls it instead of sending the command
-- itself) and hands a successful answer to on_result, a failure to
-- on_error (default: an error message).
local function run_command(command, ctx, on_result, on_error)
  local c = vim.lsp.get_client_by_id(ctx.client_id)
  if not c then
    return
  end
  request(c, 'workspace/executeCommand', { command = command.command, arguments = command.arguments },
    function(err, result)
      if err then
        if on_error then
          on_error(err)
        else
          ui.notify(tostring(err.message or err), vim.log.levels.ERROR)
        end
      else
        on_result(result, c)
      end
    end, ctx.bufnr)
end

-- show_anchors lists a lens's passages (clew.showAnchors) in the quickfix list.
local function show_anchors(command, ctx)
  run_command(command, ctx, function(result)
    M.show_locations(result, 'clew: anchors')
  end)
end

-- copy_anchor runs clew.copyAnchor ("Copy anchor for …" code action) and
-- puts the answered anchor line in the unnamed and + registers.
local function copy_anchor(command, ctx)
  run_command(command, ctx, function(result)
    if type(result) == 'table' and type(result.anchor) == 'string' then
      vim.fn.setreg('"', result.anchor)
      pcall(vim.fn.setreg, '+', result.anchor) -- no clipboard provider: the unnamed register still has it
      ui.notify('copied the anchor for ' .. tostring(result.kind) .. ' ' .. tostring(result.qualified_name))
    end
  end)
end

-- change_failed says why no change can be shown. "The history does not
-- hold it" (and "unpinned: nothing to compare with") are answers, not
-- errors: RequestFailed (-32803) comes as information.
local function change_failed(err)
  local level = err.code == -32803 and vim.log.levels.INFO or vim.log.levels.ERROR
  ui.notify(tostring(err.message or err), level)
end

-- show_change runs clew.showChange ("Show what changed since review", the
-- quick fix on a stale anchor) and opens the diff.
local function show_change(command, ctx)
  run_command(command, ctx, function(result, c)
    change.show(result, c.config.root_dir)
  end, change_failed)
end

-- M.show_change is :ClewShowChange: the stale anchor on the cursor's line,
-- or the one of the passage the cursor is in.
function M.show_change()
  local bufnr = vim.api.nvim_get_current_buf()
  local c = M.get_clients(bufnr)[1]
  if not c then
    ui.notify('no clew server for this buffer (see :checkhealth clew)', vim.log.levels.WARN)
    return
  end
  show_change({ command = 'clew.showChange', arguments = { M.position() } }, { client_id = c.id, bufnr = bufnr })
end

-- Loading the module is enough for a client started by vim.lsp.enable:
-- the lens command and automatic lenses do not depend on setup().
vim.lsp.commands['clew.showAnchors'] = show_anchors
vim.lsp.commands['clew.copyAnchor'] = copy_anchor
vim.lsp.commands['clew.showChange'] = show_change
if has('0.8') then
  vim.api.nvim_create_autocmd('LspAttach', {
    group = vim.api.nvim_create_augroup('clew_attach', { clear = true }),
    callback = function(args)
      local c = vim.lsp.get_client_by_id(args.data and args.data.client_id or -1)
      if c and c.name == 'clew' then
        lens.attach(c, args.buf)
      end
    end,
  })
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(M.defaults), opts or {})
  M.did_setup = true
  if has('0.11') and vim.lsp.enable then
    -- lsp/clew.lua gives the defaults. Only the options given here are
    -- passed on, so a vim.lsp.config('clew', …) of the user's survives the
    -- plugin's own setup() call.
    opts = opts or {}
    local full, over = M.lsp_config(), {}
    for _, k in ipairs({ 'cmd', 'filetypes', 'capabilities' }) do
      if opts[k] ~= nil then
        over[k] = full[k]
      end
    end
    if opts.settings ~= nil then
      over.settings, over.init_options = full.settings, full.init_options
    end
    if next(over) then
      vim.lsp.config('clew', over)
    end
    vim.lsp.enable('clew')
    return
  end
  local group = vim.api.nvim_create_augroup('clew', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = M.config.filetypes,
    callback = function(args)
      M.start(args.buf)
    end,
  })
  -- Buffers already open when setup runs.
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.tbl_contains(M.config.filetypes, vim.bo[b].filetype) then
      M.start(b)
    end
  end
end

return M
