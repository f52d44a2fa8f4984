-- Where a buffer's clew workspace is, and whether it has one at all.
--
-- A project takes part when it says so (.clew.yml or .multivac/ at or above
-- the file), when the buffer itself holds an @code/@anchor comment, or when
-- its Markdown holds one: the project (the nearest directory with .git, else
-- with a docs/ folder) is scanned once, bounded, for anchor comments. So a code file of a
-- project whose docs carry anchors attaches without any config file.
local M = {}

local uv = vim.uv or vim.loop

M.config_markers = { '.clew.yml', '.multivac' }
-- The project is the nearest git checkout, else the nearest directory with
-- a docs/ folder.
M.project_markers = { { '.git' }, { 'docs' } }

-- Scan bounds: a huge monorepo costs at most this much, once per root.
local MAX_DIRS, MAX_DOCS, MAX_BYTES = 2000, 400, 65536
local SKIP = { ['.git'] = true, node_modules = true, vendor = true, third_party = true }

local cache = {} -- root → true/false: does its Markdown hold an anchor?

local function exists(path)
  return uv.fs_stat(path) ~= nil
end

-- find_up returns the nearest directory at or above dir holding one of names.
function M.find_up(dir, names)
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

local function has_anchor_text(s)
  return s:find('<!%-%-%s*@code[%s%-]') ~= nil or s:find('<!%-%-%s*@anchor[%s%-]') ~= nil
end

-- buffer_has_anchor: the buffer's own (possibly unsaved) text opts in.
function M.buffer_has_anchor(bufnr)
  local n = math.min(vim.api.nvim_buf_line_count(bufnr), 5000)
  for _, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, n, false)) do
    if has_anchor_text(line) then
      return true
    end
  end
  return false
end

local function file_has_anchor(path)
  local f = io.open(path, 'rb')
  if not f then
    return false
  end
  local s = f:read(MAX_BYTES) or ''
  f:close()
  return has_anchor_text(s)
end

local function is_doc(name)
  return name:match('%.md$') or name:match('%.mdx$') or name:match('%.markdown$')
end

-- project_has_anchors walks root breadth-first (hidden directories and
-- vendored trees skipped) until a Markdown file holds an anchor comment.
function M.project_has_anchors(root)
  if cache[root] ~= nil then
    return cache[root]
  end
  local queue, dirs, docs, found = { root }, 0, 0, false
  while #queue > 0 and not found and dirs < MAX_DIRS and docs < MAX_DOCS do
    local dir = table.remove(queue, 1)
    dirs = dirs + 1
    local h = uv.fs_scandir(dir)
    while h do
      local name, typ = uv.fs_scandir_next(h)
      if not name then
        break
      end
      local path = dir .. '/' .. name
      if typ == nil then -- some file systems do not say; ask (links are not followed)
        local st = uv.fs_lstat(path)
        typ = st and st.type
      end
      if typ == 'directory' then
        if (not SKIP[name] and name:sub(1, 1) ~= '.') or name == '.multivac' then
          table.insert(queue, path)
        end
      elseif is_doc(name) then
        docs = docs + 1
        if file_has_anchor(path) then
          found = true
          break
        end
      end
    end
  end
  cache[root] = found
  return found
end

-- forget drops the scan results (after :ClewRestart, or when docs change).
function M.forget()
  cache = {}
end

-- root_for returns the workspace root of a buffer, or nil when clew should
-- not start for it. require_config = false starts in every project.
function M.root_for(bufnr, require_config)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name == '' or name:match('^%a[%w+.-]*://') then
    return nil -- unnamed buffers and non-file URIs are not workspace files
  end
  local dir = vim.fn.fnamemodify(name, ':p:h')
  local configured = M.find_up(dir, M.config_markers)
  if configured then
    return configured
  end
  local project
  for _, markers in ipairs(M.project_markers) do
    project = project or M.find_up(dir, markers)
  end
  if not project then
    return nil
  end
  if require_config == false or M.buffer_has_anchor(bufnr) or M.project_has_anchors(project) then
    return project
  end
  return nil
end

return M
