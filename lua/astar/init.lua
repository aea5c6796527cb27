--- astar: grid pathfinding with the hot loop in C.
-- The C module `astar.core` does the work; this file re-exports it and adds
-- what is simpler in Lua (reading files, drawing paths as text).
-- API reference: docs/api.md.
local core = require("astar.core")
local movingai = require("astar.movingai")

---@class astar
local astar = {}

local floor = math.floor

-- the metatable of grids (the binding protects it: this is its
-- __metatable value), to tell a grid from other values
local GRID_MT = getmetatable(core.new(1, 1))

-- reads one path of results with kept paths (astar.path_of)
local packed_path

-- LuaJIT: field:next_step and field:steps through the ffi when nothing is
-- out of the ordinary (no seed, plain tables, numbers, a field the module
-- made); anything else, errors included, goes to the methods themselves
-- (src/lua_field_read.c explains the C side).  A Lua API call from LuaJIT
-- costs tens of nanoseconds, an ffi call a few.
do
  local api, known, methods = core._ffi, core._fields, core._field_methods
  core._ffi, core._fields, core._field_methods = nil, nil, nil
  packed_path, core._packed_path = core._packed_path, nil
  local has_ffi, ffi = false, nil
  if jit and api and known and methods then has_ffi, ffi = pcall(require, "ffi") end
  astar._ffi_fields = has_ffi and pcall(function()
    local declared, size = pcall(ffi.sizeof, "struct astar_ffi_field")
    if not (declared and size) then -- (a second load finds it declared)
      ffi.cdef([[struct astar_ffi_field {
        int (*next_step)(void *, double, double, double *);
        int (*steps)(void *, double *, int);
      };]])
    end
    local fns = ffi.cast("struct astar_ffi_field *", api)
    local ffi_next, ffi_steps = fns.next_step, fns.steps
    local c_next, c_steps = methods.next_step, methods.steps
    local res = ffi.new("double[3]")
    local cap = 256
    local buf = ffi.new("double[?]", cap)
    local busy = false -- a finalizer calling steps while we copy out
    local ok_new, table_new = pcall(require, "table.new")
    if not ok_new then table_new = function() return {} end end

    methods.next_step = function(f, x, y, seed)
      if seed == nil and type(x) == "number" and type(y) == "number"
          and known[f] then
        local r = ffi_next(f, x, y, res)
        if r == 1 then return res[0], res[1], res[2] end
        if r == 0 then return nil, "goal" end
        if r == -1 then return nil, "no_path" end
      end
      return c_next(f, x, y, seed)
    end

    methods.steps = function(f, pos, out, seed)
      if seed == nil and not busy and known[f] and type(pos) == "table"
          and getmetatable(pos) == nil and (out == nil or
          (type(out) == "table" and getmetatable(out) == nil)) then
        local n = #pos
        if n % 2 == 0 and n <= 0x40000000 then
          if n > cap then
            while cap < n do cap = cap * 2 end
            buf = ffi.new("double[?]", cap)
          end
          local b, numbers = buf, true
          for k = 1, n do
            local v = pos[k]
            if type(v) ~= "number" then numbers = false; break end
            b[k - 1] = v
          end
          if numbers and ffi_steps(f, b, n / 2) == 1 then
            busy = true
            out = out or table_new(n, 0)
            for k = 1, n do out[k] = b[k - 1] end
            local i = n + 1
            while out[i] ~= nil do
              out[i] = nil
              i = i + 1
            end
            busy = false
            return out
          end
        end
      end
      return c_steps(f, pos, out, seed)
    end
  end)
end

for name, fn in pairs(core) do
  astar[name] = fn
end

--- Flow-field codes (field:directions()): code 0 is "stay" (a goal, or no
-- value), 1..8 the directions N E S W NE SE SW NW.  x + FLOW_DX[code],
-- y + FLOW_DY[code] is the tile a unit moves to.
astar.FLOW_DX = { [0] = 0, 0, 1, 0, -1, 1, 1, -1, -1 }
astar.FLOW_DY = { [0] = 0, -1, 0, 1, 0, -1, 1, 1, -1 }

local function read_file(path)
  local f, err = io.open(path, "rb")
  if not f then return nil, err end
  local text = f:read("*a")
  f:close()
  if not text then return nil, path .. ": could not be read" end
  return text
end

-- hex grids: axial <-> offset coordinates, grids for offset maps
astar.hex = require("astar.hex")

-- Bad arguments raise `bad argument #N to 'name' (...)` with our own text,
-- the value described as the binding describes it, at level 2 (the
-- caller's "file:line: " in front, like the binding's messages).
local describe = astar.hex._describe

-- walking paths: astar.steps, path_length, reverse, points
local path = require("astar.path")
path._set_describe(describe)
astar.steps = path.steps
astar.path_length = path.path_length
astar.reverse = path.reverse
astar.points = path.points

local function raise(n, fname, what)
  error(("bad argument #%d to '%s' (%s)"):format(n, fname, what), 3)
end

--- Loads a MovingAI `.map` file into a grid.
---@param path string
---@param options? astar.GridOptions same options as astar.new
---@return astar.Grid|nil grid, string? message
function astar.load_movingai(path, options)
  if type(path) ~= "string" then
    raise(1, "load_movingai", "path must be a string, got " .. describe(path))
  end
  -- parse_movingai checks the options before the text: check them before
  -- touching the file, and name this function in the message.  Anything
  -- else the check raises (an __index that raises) passes through as it is.
  local ok, err = pcall(core.parse_movingai, "", options)
  if not ok then
    local what = type(err) == "string"
      and err:match("^bad argument #2 to 'parse_movingai' %((.*)%)$")
    if what then raise(2, "load_movingai", what) end
    error(err, 0)
  end
  local text, rerr = read_file(path)
  if not text then return nil, rerr end
  local grid, perr = core.parse_movingai(text, options)
  if not grid then return nil, path .. ": " .. perr end
  return grid
end

astar.read_scenarios = movingai.read_scenarios

--- Draws a grid as text with a path on it: `S` start, `G` goal, `*` the
--- tiles between (the rest as in tostring(grid)).
---@param grid astar.Grid
---@param path? table flat {x1, y1, ..., xn, yn}
---@return string
function astar.render(grid, path)
  if type(grid) ~= "userdata" or getmetatable(grid) ~= GRID_MT then
    raise(1, "render", "grid expected, got " .. describe(grid))
  end
  local text = tostring(grid)
  if text == "astar.Grid (closed)" then
    error("render: the grid is closed", 2)
  end
  local rows = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    rows[#rows + 1] = line
  end
  if path == nil then return text end
  if type(path) ~= "table" then
    raise(2, "render", "path must be a table, got " .. describe(path))
  end
  local len = #path
  if len % 2 ~= 0 then
    raise(2, "render", ("path must hold x, y pairs, got %d values"):format(len))
  end
  local w, h = #rows[1], #rows
  for i = 1, len do
    local v, hi = path[i], (i % 2 == 1) and w or h
    if type(v) ~= "number" or v ~= floor(v) or v ~= v or v == math.huge
       or v == -math.huge then
      raise(2, "render", ("path[%d] must be an integer, got %s"):format(i,
        describe(v)))
    end
    if v < 1 or v > hi then
      raise(2, "render", ("path[%d] out of range 1..%d, got %s"):format(i, hi,
        describe(v)))
    end
  end
  if len >= 2 then
    local marks = {}
    local n = len / 2
    for i = 1, n do
      local x, y = path[2 * i - 1], path[2 * i]
      local ch = (i == 1 and "S") or (i == n and "G") or "*"
      marks[y] = marks[y] or {}
      marks[y][x] = ch
    end
    for y, cols in pairs(marks) do
      local row = rows[y]
      local out = {}
      for x = 1, #row do
        out[x] = cols[x] or row:sub(x, x)
      end
      rows[y] = table.concat(out)
    end
  end
  return table.concat(rows, "\n")
end

--- The path of query i of a batch's results table (pool:results,
--- astar.unpack_paths) as a flat {x1, y1, ...}, or nil when it has none.
---@param r table a results table
---@param i integer the query's number, 1..r.n
---@param out? table reused for the path (cleared past its end)
---@return table|nil path
function astar.path_of(r, i, out)
  if type(r) ~= "table" or type(r.length) ~= "table" then
    raise(1, "path_of", "results table expected, got " .. describe(r))
  end
  if type(i) ~= "number" or i ~= floor(i) or i < 1 or i > (r.n or 0) then
    raise(2, "path_of", ("i must be an integer in 1..%d, got %s"):format(
      r.n or 0, describe(i)))
  end
  if out ~= nil and type(out) ~= "table" then
    raise(3, "path_of", "out must be a table, got " .. describe(out))
  end
  local n = r.length[i]
  if n == 0 then return nil end
  out = out or {}
  if r.path == nil and r.paths ~= nil then -- paths = "kept": one string
    return packed_path(r.paths, r.start and r.start[i], n, out)
  end
  local path, first = r.path, r.start[i] - 1
  for k = 1, 2 * n do out[k] = path[first + k] end
  for k = #out, 2 * n + 1, -1 do out[k] = nil end
  return out
end

return astar
