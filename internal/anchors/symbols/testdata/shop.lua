local M = {}
function M.add(a, b) return a + b end
function M:method(x) return self.v + x end
local function helper(x) return x * 2 end
function global_fn() return 1 end
function a.b.c(x) end
local f = function(x) return x end
M.g = function(x) return x end
return M
