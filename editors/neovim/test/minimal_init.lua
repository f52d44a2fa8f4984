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

-- screen_line reads what row `lnum` of buffer `buf` shows in its window,
-- virtual text included (the headless grid is drawn like a terminal's).
local function screen_line(buf, lnum)
  local win = vim.fn.bufwinid(buf)
  if win == -1 then
    return ''
  end
  vim.cmd('redraw!')
  local row = vim.fn.screenpos(win, lnum, 1).row
  if row == 0 then
    return ''
  end
  local s = {}
  for c = 1, vim.o.columns do
    table.insert(s, vim.fn.screenstring(row, c))
  end
  return table.concat(s)
end

-- lens_texts lists the code lens virtual texts of a buffer's line (0-based).
local function lens_texts(buf, line)
  local out = {}
  for name, ns in pairs(vim.api.nvim_get_namespaces()) do
    if name:find('codelens') then
      for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, { line, 0 }, { line, -1 }, { details = true })) do
        for _, chunk in ipairs((m[4] or {}).virt_text or {}) do
          table.insert(out, chunk[1])
        end
      end
    end
  end
  return table.concat(out, ' | ')
end

-- Messages the plugin shows (vim.notify), for assertions.
local notes, levels = {}, {}
local real_notify = vim.notify
vim.notify = function(msg, level, opts)
  table.insert(notes, tostring(msg))
  table.insert(levels, level or vim.log.levels.INFO)
  return real_notify(msg, level, opts)
end
-- noted returns the first message matching pattern, and its level.
local function noted(pattern)
  for i, n in ipairs(notes) do
    if n:find(pattern) then
      return n, levels[i]
    end
  end
end

-- pick_code_action runs vim.lsp.buf.code_action() as a user does and
-- chooses the action whose title starts with title from the menu
-- (vim.ui.select), the way both 0.7 and 0.11 present it. It returns the
-- menu's titles.
local function pick_code_action(title)
  local offered
  local real_select = vim.ui.select
  vim.ui.select = function(items, opts, on_choice)
    offered = {}
    local chosen
    for i, it in ipairs(items) do
      local t = opts.format_item(it)
      table.insert(offered, t)
      if not chosen and t:sub(1, #title) == title then
        chosen = i
      end
    end
    vim.ui.select = real_select
    on_choice(chosen and items[chosen] or nil, chosen)
  end
  vim.lsp.buf.code_action()
  vim.wait(10000, function() return offered ~= nil end, 20)
  vim.ui.select = real_select
  return offered or {}
end

local function hover_text(buf, line, col)
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = line, character = col } }
  local got
  for _, c in ipairs(require('clew').get_clients(buf)) do
    local function on(err, result)
      got = (result and result.contents and result.contents.value) or ('(no hover: ' .. vim.inspect(err) .. ')')
    end
    if vim.fn.has('nvim-0.11') == 1 then
      c:request('textDocument/hover', params, on, buf)
    else
      c.request('textDocument/hover', params, on, buf)
    end
  end
  vim.wait(10000, function() return got ~= nil end, 20)
  return got or '(no answer)'
end

local function diagnostic_on(buf, lnum, code)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.lnum == lnum and d.code == code then
      return d
    end
  end
end

local real = os.getenv('CLEW_MARKER_EDIT') ~= '1' -- the real server, not the test server
local proj = os.getenv('CLEW_PROJECT')
if proj == '' then proj = nil end -- a git project without config whose code is stale

local extra = os.getenv('CLEW_EXPECT')
if extra and extra ~= '' then
  for _, e in ipairs(vim.fn.json_decode(extra)) do
    table.insert(EXPECT, e)
  end
end

local ok, err = pcall(function()
  local v = vim.version and vim.version()
  log('nvim %s', v and string.format('%d.%d.%d', v.major, v.minor, v.patch) or '?')
  vim.cmd('filetype on')
  -- Diagnostics as virtual text, so the test sees whether hints push the
  -- lens off-screen (0.11 has it off by default).
  vim.diagnostic.config({ virtual_text = true })
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

  if real then
    -- :ClewContext opens the Markdown rendering of the cursor's context in
    -- a read-only scratch split whose first line names the seed.
    vim.cmd('buffer ' .. gobuf)
    vim.api.nvim_win_set_cursor(0, { 4, 6 })
    local wins = #vim.api.nvim_list_wins()
    vim.cmd('ClewContext')
    local cbuf
    check(vim.wait(10000, function()
      cbuf = vim.fn.bufnr('clew://context/')
      return cbuf > 0 and vim.api.nvim_buf_line_count(cbuf) > 3
    end, 20), ':ClewContext opened a context buffer')
    local first = vim.api.nvim_buf_get_lines(cbuf, 0, 1, false)[1]
    check(first:find('^# Context for `clew://symbol/.*languageForPath`$') ~= nil, ':ClewContext first line names the seed: ' .. first)
    check(vim.bo[cbuf].filetype == 'markdown' and vim.bo[cbuf].buftype == 'nofile' and not vim.bo[cbuf].modifiable,
      'the context is a read-only markdown scratch buffer')
    check(vim.fn.bufwinid(cbuf) ~= -1 and #vim.api.nvim_list_wins() == wins + 1, 'the context is shown in a new split')
    local body = table.concat(vim.api.nvim_buf_get_lines(cbuf, 0, -1, false), '\n')
    check(body:find('## Seeds', 1, true) ~= nil and body:find('func languageForPath', 1, true) ~= nil and body:find('## Budget', 1, true) ~= nil,
      'the context lists seeds, the declaration\'s text and the budget')
    check(screen_line(cbuf, 1):find('# Context for', 1, true) ~= nil, 'the context is on screen')
    vim.cmd('close')

    -- :ClewVerify fills the quickfix list with what needs attention, in
    -- the server's words (the message names the anchor's subject).
    vim.fn.setqflist({}, 'r')
    vim.cmd('ClewVerify')
    local qf
    check(vim.wait(10000, function()
      qf = vim.fn.getqflist({ title = 1, items = 1 })
      return qf.title:find('^clew verify:') ~= nil and #qf.items > 0
    end, 20), ':ClewVerify filled the quickfix list')
    local item = qf.items[1]
    check(vim.api.nvim_buf_get_name(item.bufnr):sub(-#'docs/guide.md') == 'docs/guide.md' and item.lnum == 5
      and item.text:find('^function languageForPath: never reviewed') ~= nil,
      'quickfix item docs/guide.md:5 says what is wrong: ' .. item.text)
    check(qf.title:find('1 anchor: 1 unpinned', 1, true) ~= nil, 'quickfix title counts the anchors: ' .. qf.title)
    check(noted('1 anchor: 1 unpinned') ~= nil, ':ClewVerify says the counts')
    -- Run again from the quickfix window itself (no client attached there).
    vim.cmd('copen')
    vim.fn.setqflist({}, 'r', { title = 'cleared', items = {} })
    vim.cmd('ClewVerify')
    check(vim.wait(10000, function()
      local q = vim.fn.getqflist({ title = 1, size = 1 })
      return q.title:find('^clew verify:') ~= nil and q.size > 0
    end, 20), ':ClewVerify works from the quickfix window too')
    vim.cmd('cclose')

    -- :ClewExplain offers the context's entries through vim.ui.select and
    -- says in one line why the chosen one stands where it does.
    vim.cmd('buffer ' .. gobuf)
    vim.api.nvim_win_set_cursor(0, { 4, 6 })
    local offered
    local real_select = vim.ui.select
    vim.ui.select = function(items, opts, on_choice)
      offered = {}
      for _, it in ipairs(items) do
        table.insert(offered, opts.format_item(it))
      end
      on_choice(items[1], 1)
    end
    vim.cmd('ClewExplain')
    check(vim.wait(10000, function() return noted(' is selected: ') ~= nil end, 20), ':ClewExplain explained the picked entry')
    vim.ui.select = real_select
    check(offered and offered[1]:find('^selected · task · languageForPath') ~= nil, ':ClewExplain offered the entries: ' .. tostring(offered and offered[1]))
    check(noted('^clew: clew://symbol/.*languageForPath is selected: selected in the task tier') ~= nil, 'the explanation is one line of words')

    -- :checkhealth clew names the binary, its version, the client and root.
    vim.cmd('checkhealth clew')
    local health = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
    for _, want in ipairs({ 'binary: ' .. bin, 'version: clew-lsp ', 'client ' .. client.id .. ': root ' .. ws, 'lang.go' }) do
      if not health:find(want, 1, true) then
        log('checkhealth:\n%s', health)
      end
      check(health:find(want, 1, true) ~= nil, ':checkhealth clew reports ' .. want)
    end
    vim.cmd(vim.fn.tabpagenr('$') > 1 and 'tabclose' or 'bdelete')

    -- :ClewConfirm on the unpinned anchor pins it through an edit of the
    -- buffer (never a write behind the editor's back) and says so; the
    -- unpinned diagnostic goes away.
    vim.cmd('buffer ' .. bufnr)
    vim.api.nvim_win_set_cursor(0, { 5, 0 })
    vim.cmd('ClewConfirm')
    check(vim.wait(10000, function()
      return vim.api.nvim_buf_get_lines(bufnr, 4, 5, false)[1]:find('sha=[%w:]-%x%x%x%x%x%x%x%x%x%x%x%x') ~= nil
    end, 20), ':ClewConfirm wrote the hashes into the buffer: ' .. vim.api.nvim_buf_get_lines(bufnr, 4, 5, false)[1])
    check(vim.wait(5000, function() return noted('^clew: confirmed docs/guide.md:5') ~= nil end, 20), ':ClewConfirm says what it pinned')
    check(vim.bo[bufnr].modified and vim.fn.readfile(ws .. '/docs/guide.md')[5]:find('sha=') == nil, 'the file on disk is untouched until the user saves')
    check(vim.wait(10000, function()
      for _, d in ipairs(vim.diagnostic.get(bufnr)) do
        if d.code == 'anchor/unpinned' then
          return false
        end
      end
      return true
    end, 20), 'the unpinned diagnostic is gone after the pin')
  end

  -- A project without config whose docs hold an anchor: opening its code
  -- file first attaches, and the lens of the stale declaration is on the
  -- screen, not pushed off it by the hint.
  if real and proj then
    vim.cmd('edit ' .. vim.fn.fnameescape(proj .. '/src/calc.go'))
    local cb = vim.api.nvim_get_current_buf()
    local pc
    check(vim.wait(10000, function()
      pc = clew.get_clients(cb)[1]
      return pc ~= nil and pc.initialized == true
    end, 20), 'a code file opened first attaches without any config file')
    check(pc.config.root_dir == proj, 'its root is the git checkout (' .. tostring(pc.config.root_dir) .. ')')
    local want = '1 doc · 1 stale'
    local shown = vim.wait(15000, function()
      return lens_texts(cb, 3) == want and screen_line(cb, 4):find(want, 1, true) ~= nil
    end, 50)
    if not shown then
      log('lens %q; screen %q; diagnostics %s', lens_texts(cb, 3), screen_line(cb, 4), vim.inspect(vim.diagnostic.get(cb)))
    end
    check(shown, 'the lens "' .. want .. '" refreshed on its own and is on screen: ' .. screen_line(cb, 4))
    local hint
    for _, d in ipairs(vim.diagnostic.get(cb)) do
      if d.lnum == 3 and d.severity == vim.diagnostic.severity.HINT then
        hint = d
      end
    end
    check(hint ~= nil, 'the stale hint is there')
    check(screen_line(cb, 4):find(hint.message:sub(1, 20), 1, true) == nil, 'the hint\'s text does not sit before the lens')

    -- Show what changed since review: the quick fix on the stale anchor
    -- opens a tab with two windows in diff mode, the reviewed file
    -- (clew://reviewed/src/calc.go, read-only scratch) and the real file.
    vim.cmd('edit ' .. vim.fn.fnameescape(proj .. '/docs/notes.md'))
    local nb = vim.api.nvim_get_current_buf()
    check(vim.wait(10000, function() return clew.get_clients(nb)[1] == pc end, 20), 'the doc attached to the project\'s client')
    check(vim.wait(10000, function() return diagnostic_on(nb, 5, 'anchor/stale') ~= nil end, 20), 'docs/notes.md:6 is stale')
    local hover = hover_text(nb, 5, 8)
    check(hover:find('Show what changed since review: `:ClewShowChange` on this line', 1, true) ~= nil,
      'the stale anchor\'s hover names :ClewShowChange: ' .. hover:gsub('\n', ' | '))
    vim.api.nvim_win_set_cursor(0, { 6, 0 })
    local tabs = vim.fn.tabpagenr('$')
    local offered = pick_code_action('Show what changed since review')
    check(offered[1] == 'Show what changed since review' and (offered[2] or ''):find('^Confirm reviewed') ~= nil,
      'the quick fixes on the stale anchor: ' .. table.concat(offered, ' | '))
    local rb
    check(vim.wait(10000, function()
      rb = vim.fn.bufnr('clew://reviewed/src/calc.go')
      return rb > 0 and vim.fn.tabpagenr('$') == tabs + 1
    end, 20), 'the quick fix opened clew://reviewed/src/calc.go in a new tab')
    local wins = vim.api.nvim_tabpage_list_wins(0)
    local by_buf = {}
    for _, w in ipairs(wins) do
      by_buf[vim.api.nvim_win_get_buf(w)] = w
    end
    local fb = vim.fn.bufnr(proj .. '/src/calc.go')
    check(#wins == 2 and by_buf[rb] ~= nil and by_buf[fb] ~= nil, 'the tab shows the reviewed file and the real file')
    check(vim.wo[by_buf[rb]].diff and vim.wo[by_buf[fb]].diff, 'both windows are in diff mode')
    check(vim.bo[rb].buftype == 'nofile' and vim.bo[rb].readonly and not vim.bo[rb].modifiable and vim.bo[rb].filetype == 'go',
      'the reviewed side is a read-only Go scratch buffer')
    local before = vim.api.nvim_buf_get_lines(rb, 0, -1, false)
    local after = vim.api.nvim_buf_get_lines(fb, 0, -1, false)
    check(before[5] == '\tt := 0' and after[5] == '\tt := 1' and #before == #after,
      'line 5 is "t := 0" as reviewed and "t := 1" now: ' .. tostring(before[5]) .. ' / ' .. tostring(after[5]))
    -- Neovim's diff marks exactly that line as changed, on both sides.
    local changed = function(w, lnum)
      return vim.api.nvim_win_call(w, function() return vim.fn.diff_hlID(lnum, 2) ~= 0 end)
    end
    check(changed(by_buf[rb], 5) and changed(by_buf[fb], 5) and not changed(by_buf[rb], 4) and not changed(by_buf[fb], 6),
      'the diff highlights line 5 only')
    check(vim.api.nvim_get_current_win() == by_buf[fb] and vim.api.nvim_win_get_cursor(0)[1] == 5, 'the cursor is on the change in the real file')
    check(noted('^clew: function Sum: reviewed %(%x%x%x%x%x%x%x%) on the left') ~= nil, 'a message names the subject and the reviewed commit')
    check(screen_line(rb, 5):find('t := 0', 1, true) ~= nil, 'the reviewed line is on screen: ' .. screen_line(rb, 5))
    vim.api.nvim_set_current_win(by_buf[rb])
    vim.cmd('normal q')
    check(vim.fn.tabpagenr('$') == tabs and vim.fn.bufnr('clew://reviewed/src/calc.go') == -1, 'q closes the diff tab')
    vim.cmd('buffer ' .. nb)

    -- A pin no commit holds: :ClewShowChange says so, as information.
    local anchor_line = vim.api.nvim_buf_get_lines(nb, 5, 6, false)[1]
    local bogus = anchor_line:gsub('sha=v2:%x+', 'sha=v2:0123456789ab')
    vim.api.nvim_buf_set_lines(nb, 5, 6, false, { bogus })
    check(vim.wait(10000, function()
      local d = diagnostic_on(nb, 5, 'anchor/stale')
      return d ~= nil and d.message:find('0123456789ab', 1, true) == nil and clew.diagnosed[client.id] ~= nil
    end, 20), 'the edited pin is stale')
    vim.api.nvim_win_set_cursor(0, { 4, 0 }) -- in the passage's prose: its one stale anchor is meant
    vim.cmd('ClewShowChange')
    local msg, level
    check(vim.wait(10000, function()
      msg, level = noted('the history does not hold it')
      return msg ~= nil
    end, 20), ':ClewShowChange says the history does not hold the reviewed version: ' .. tostring(msg))
    check(level == vim.log.levels.INFO and msg:find('^clew: docs/notes.md:6: the reviewed version %(hash 0123456789ab%)') ~= nil
      and vim.fn.tabpagenr('$') == tabs, 'as information, naming the anchor and the hash, with no diff opened')

    -- Copy anchor then paste: the code action on Sum puts the pinned
    -- anchor line in the unnamed register; pasted over the stale anchor,
    -- the passage is fresh.
    vim.cmd('buffer ' .. cb)
    vim.api.nvim_win_set_cursor(0, { 4, 6 })
    vim.fn.setreg('"', '')
    offered = pick_code_action('Copy anchor for function Sum')
    check(vim.wait(10000, function() return vim.fn.getreg('"'):find('^<!%-%- @code function Sum') ~= nil end, 20),
      'Copy anchor for function Sum filled the unnamed register (menu: ' .. table.concat(offered, ' | ') .. ')')
    local copied = vim.fn.getreg('"')
    check(copied:find('^<!%-%- @code function Sum src/calc.go sha=v2:%x+,%x+ %-%->$') ~= nil, 'the register holds the pinned anchor: ' .. copied)
    check(noted('^clew: copied the anchor for function Sum') ~= nil, 'and says so')
    vim.cmd('buffer ' .. nb)
    vim.api.nvim_win_set_cursor(0, { 6, 0 })
    vim.cmd('normal! 0"_D""p')
    check(vim.api.nvim_buf_get_lines(nb, 5, 6, false)[1] == copied, 'the pasted line is the copied anchor')
    check(screen_line(nb, 6):find(copied:sub(1, 40), 1, true) ~= nil, 'and it is on screen: ' .. screen_line(nb, 6))
    check(vim.wait(10000, function() return diagnostic_on(nb, 5, 'anchor/stale') == nil and #vim.diagnostic.get(nb) == 0 end, 20),
      'the passage has no diagnostic left: ' .. vim.inspect(vim.diagnostic.get(nb)))
    local fresh = hover_text(nb, 5, 8)
    check(fresh:find('**function Sum** · fresh', 1, true) ~= nil, 'its hover says fresh: ' .. fresh:gsub('\n', ' | '))
  end

  -- Opting in: outside a .clew.yml/.multivac project, a doc that holds an
  -- anchor comment gets a root; one in a project without anchors, none.
  local tmp = vim.fn.tempname()
  vim.fn.mkdir(tmp .. '/.git', 'p')
  vim.fn.writefile({ '# Notes', '<!-- @code function F a.go -->' }, tmp .. '/with.md')
  local tmp2 = vim.fn.tempname()
  vim.fn.mkdir(tmp2 .. '/.git', 'p')
  vim.fn.writefile({ '# Notes', 'no anchors here' }, tmp2 .. '/without.md')
  vim.fn.writefile({ 'package a' }, tmp2 .. '/a.go')
  local with = vim.fn.bufadd(tmp .. '/with.md')
  vim.fn.bufload(with)
  local without = vim.fn.bufadd(tmp2 .. '/without.md')
  vim.fn.bufload(without)
  local code_without = vim.fn.bufadd(tmp2 .. '/a.go')
  vim.fn.bufload(code_without)
  check(clew.root_for(with) == vim.fn.resolve(tmp) or clew.root_for(with) == tmp, 'a doc with an anchor comment opts its project in')
  check(clew.root_for(without) == nil, 'a doc without anchors and without config starts nothing')
  check(clew.root_for(code_without) == nil, 'a code file of a project without anchors and without config starts nothing')
  local code_with = vim.fn.bufadd(tmp .. '/b.go')
  check(clew.root_for(code_with) == vim.fn.resolve(tmp) or clew.root_for(code_with) == tmp, 'a code file of a project whose Markdown holds an anchor opts in')

  clew.stop()
  check(vim.wait(5000, function() return vim.lsp.get_client_by_id(client.id) == nil end, 20), 'client stopped')
end)
if not ok then
  log('ERROR: %s', tostring(err))
  finish(1)
else
  log('PASS')
  finish(0)
end
