--- Walking a path: the flat lists find_path returns, {x1, y1, x2, y2, ...},
--- read without hand-indexing.  Re-exported by astar: astar.steps,
--- astar.path_length, astar.reverse, astar.points.
local path = {}

local floor, huge = math.floor, math.huge
local describe -- set by astar (the binding's way of describing values)

function path._set_describe(f) describe = f end

local function raise(n, fname, what)
  error(("bad argument #%d to '%s' (%s)"):format(n, fname, what), 3)
end

-- A flat list of x, y pairs: a table of even length (its entries are
-- checked as they are read: every one an integer >= 1).
local function check(p, fname, n)
  if type(p) ~= "table" then
    raise(n, fname, "path must be a table {x1, y1, x2, y2, ...}, got "
      .. describe(p))
  end
  local len = #p
  if len % 2 ~= 0 then
    raise(n, fname, ("path must hold x, y pairs (an even count of numbers), "
      .. "got %d numbers"):format(len))
  end
  return len
end

local function coord(p, i, fname, n)
  local v = p[i]
  if type(v) ~= "number" or v ~= floor(v) or v < 1 or v == huge then
    raise(n, fname, ("path[%d] (%s of tile %d) must be an integer >= 1, got %s")
      :format(i, i % 2 == 1 and "x" or "y", floor((i + 1) / 2), describe(v)))
  end
  return v
end

--- Iterates over the tiles of a path: `for i, x, y in astar.steps(path)`
--- (i counts tiles from 1).  Checks the list as it goes.
---@param p table flat {x1, y1, ..., xn, yn}
---@return function, table, integer
function path.steps(p)
  local len = check(p, "steps", 1)
  return function(t, i)
    i = i + 1
    if 2 * i > len then return nil end
    return i, coord(t, 2 * i - 1, "steps", 1), coord(t, 2 * i, "steps", 1)
  end, p, 0
end

--- The number of tiles on a path (start and goal included).
---@param p table
---@return integer
function path.path_length(p)
  return check(p, "path_length", 1) / 2
end

--- The path from its end back to its start, into `out` (reused: what is
--- left of an older, longer list is cleared) or a new table.  `out` may
--- be `p` itself.
---@param p table
---@param out? table
---@return table
function path.reverse(p, out)
  local len = check(p, "reverse", 1)
  if out ~= nil and type(out) ~= "table" then
    raise(2, "reverse", "out must be a table, got " .. describe(out))
  end
  for i = 1, len do coord(p, i, "reverse", 1) end
  out = out or {}
  if out == p then
    local n = len / 2
    for i = 1, floor(n / 2) do
      local j = n + 1 - i
      p[2 * i - 1], p[2 * j - 1] = p[2 * j - 1], p[2 * i - 1]
      p[2 * i], p[2 * j] = p[2 * j], p[2 * i]
    end
    return p
  end
  local n = len / 2
  for i = 1, n do
    local j = n + 1 - i
    out[2 * i - 1], out[2 * i] = p[2 * j - 1], p[2 * j]
  end
  local k = len + 1
  while out[k] ~= nil do
    out[k] = nil
    k = k + 1
  end
  return out
end

--- The tiles as tables {{x = x1, y = y1}, ...}, for code that wants them
--- (a table per tile: slower, and garbage; prefer astar.steps).
---@param p table
---@return table
function path.points(p)
  local len = check(p, "points", 1)
  local out = {}
  for i = 1, len / 2 do
    out[i] = { x = coord(p, 2 * i - 1, "points", 1),
               y = coord(p, 2 * i, "points", 1) }
  end
  return out
end

return path
