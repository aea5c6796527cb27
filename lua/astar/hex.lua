--- astar.hex: hex grids in axial coordinates, and the common offset layouts.
--
-- A hex grid is an ordinary astar grid made with `diagonals = "hex"`: tile
-- (x, y) is the hex with axial coordinates (q, r) = (x, y), and its six
-- neighbours are
--
--            N (q, r-1)    NE (q+1, r-1)
--     W (q-1, r)     (q, r)      E (q+1, r)
--            SW (q-1, r+1)  S (q, r+1)
--
-- (pointy-top hexes drawn with each row half a hex to the right of the one
-- above; for flat-top hexes turn the picture a sixth of a turn).  Every
-- step has the cardinal length; costs, unit classes, heights, callbacks and
-- query options work as on square grids.
--
-- Offset layouts ("odd-r", "even-r": rows of pointy-top hexes, odd or even
-- rows pushed half a hex right; "odd-q", "even-q": columns of flat-top
-- hexes, odd or even columns pushed half a hex down; "odd"/"even" counted
-- 0-based, as in the usual references) convert to axial here.  Everything is
-- 1-based like the rest of the API: offset (1, 1) is axial (1, 1).  A
-- rectangular offset map does not fill a rectangle of axial coordinates (it
-- is a parallelogram-ish band), so `hex.map` sizes an axial grid that
-- covers it, blocks the tiles outside the map, and converts both ways.
-- API reference: docs/api.md, "Hex grids".
local hex = {}

local floor, abs, max = math.floor, math.abs, math.max

hex.LAYOUTS = { "odd-r", "even-r", "odd-q", "even-q" }

-- The six neighbour steps in astar's generation order: N E S W NE SW.
hex.DIRECTIONS = {
  { 0, -1 }, { 1, 0 }, { 0, 1 }, { -1, 0 }, { 1, -1 }, { -1, 1 },
}

local layouts = { ["odd-r"] = true, ["even-r"] = true, ["odd-q"] = true,
                  ["even-q"] = true }

-- Bad arguments raise `bad argument #N to 'name' (...)` with our own text,
-- the same on every Lua version (as the C binding does): numbers printed
-- with %.14g, strings quoted, other values by type.  Methods count the map
-- as argument #1, like the grid methods.  The level points at the caller
-- of the public function (see `raise`), so the message carries its
-- "file:line: " like the binding's messages.
local function describe(v)
  local t = type(v)
  if t == "number" then
    if v ~= v then return "nan" end
    if v == math.huge then return "inf" end
    if v == -math.huge then return "-inf" end
    return ("%.14g"):format(v)
  elseif t == "string" then
    return "'" .. v:sub(1, 40) .. (#v > 40 and "..." or "") .. "'"
  elseif t == "boolean" then
    return tostring(v)
  end
  return t
end
hex._describe = describe -- shared with astar.render (init.lua)

-- level: as error() would take it in the function that calls raise (2:
-- that function's caller).
local function raise(level, n, fname, what)
  error(("bad argument #%d to '%s' (%s)"):format(n, fname, what), level + 1)
end

local function check_layout(fname, layout)
  if not layouts[layout] then
    raise(3, 1, fname, "layout must be one of 'odd-r', "
      .. "'even-r', 'odd-q', 'even-q', got " .. describe(layout))
  end
end

-- the limits of astar.new (ASTAR_MAX_SIDE, ASTAR_MAX_PADDED_TILES)
local MAX_SIDE, MAX_PADDED_TILES = 65534, 2 ^ 30

-- An integer in lo..hi (default: at most 2^31 in size; coordinates beyond
-- that cannot be on any grid, and their arithmetic would lose precision).
local function check_int(fname, n, name, v, lo, hi)
  if type(v) ~= "number" or v ~= v or v ~= floor(v) or v == math.huge
     or v == -math.huge then
    raise(3, n, fname, ("%s must be an integer, got %s"):format(name,
      describe(v)))
  end
  lo, hi = lo or -2 ^ 31, hi or 2 ^ 31
  if v < lo or v > hi then
    raise(3, n, fname, ("%s out of range %.0f..%.0f, got %s"):format(name,
      lo, hi, describe(v)))
  end
end

local Map = {}
Map.__index = Map

local function check_map(fname, m)
  if getmetatable(m) ~= Map then
    raise(3, 1, fname, "hex map expected, got " .. describe(m))
  end
end

--- Axial coordinates of the hex at offset (col, row) in a layout.
---@return integer q, integer r
function hex.from_offset(layout, col, row)
  check_layout("from_offset", layout)
  check_int("from_offset", 2, "col", col)
  check_int("from_offset", 3, "row", row)
  local c, w = col - 1, row - 1
  if layout == "odd-r" then
    return c - floor(w / 2) + 1, row
  elseif layout == "even-r" then
    return c - floor((w + 1) / 2) + 1, row
  elseif layout == "odd-q" then
    return col, w - floor(c / 2) + 1
  else
    return col, w - floor((c + 1) / 2) + 1
  end
end

--- Offset coordinates of the hex at axial (q, r) in a layout.
---@return integer col, integer row
function hex.to_offset(layout, q, r)
  check_layout("to_offset", layout)
  check_int("to_offset", 2, "q", q)
  check_int("to_offset", 3, "r", r)
  local a, b = q - 1, r - 1
  if layout == "odd-r" then
    return a + floor(b / 2) + 1, r
  elseif layout == "even-r" then
    return a + floor((b + 1) / 2) + 1, r
  elseif layout == "odd-q" then
    return q, b + floor(a / 2) + 1
  else
    return q, b + floor((a + 1) / 2) + 1
  end
end

--- Steps between two hexes in axial coordinates.
function hex.distance(q1, r1, q2, r2)
  check_int("distance", 1, "q1", q1)
  check_int("distance", 2, "r1", r1)
  check_int("distance", 3, "q2", q2)
  check_int("distance", 4, "r2", r2)
  local dq, dr = q1 - q2, r1 - r2
  return max(abs(dq), abs(dr), abs(dq + dr))
end

--- An axial grid covering a cols x rows offset map: returns a table with
--- `width`, `height` (the axial grid's size), `layout`, `cols`, `rows` and
--- the methods below.  cols and rows are 1..65534, and the axial grid that
--- covers the map must fit the limits of astar.new (65534 tiles a side,
--- 2^30 tiles with a one-tile border).
function hex.map(layout, cols, rows)
  check_layout("map", layout)
  check_int("map", 2, "cols", cols, 1, MAX_SIDE)
  check_int("map", 3, "rows", rows, 1, MAX_SIDE)
  -- the axial bounding box of the map: its extremes lie on the border
  local qmin, qmax, rmin, rmax = math.huge, -math.huge, math.huge, -math.huge
  local function see(c, w)
    local q, r = hex.from_offset(layout, c, w)
    if q < qmin then qmin = q end
    if q > qmax then qmax = q end
    if r < rmin then rmin = r end
    if r > rmax then rmax = r end
  end
  for w = 1, rows do see(1, w); see(cols, w) end
  for c = 1, cols do see(c, 1); see(c, rows) end
  local width, height = qmax - qmin + 1, rmax - rmin + 1
  if width > MAX_SIDE or height > MAX_SIDE
     or (width + 2) * (height + 2) > MAX_PADDED_TILES then
    raise(2, 2, "map", ("grid too large: a %d x %d %s map needs a %d x %d "
      .. "axial grid (at most %d tiles a side and %d tiles with a one-tile "
      .. "border)"):format(cols, rows, layout, width, height, MAX_SIDE,
      MAX_PADDED_TILES))
  end
  return setmetatable({
    layout = layout, cols = cols, rows = rows,
    width = width, height = height,
    dq = 1 - qmin, dr = 1 - rmin, -- grid (x, y) = axial (q + dq, r + dr)
  }, Map)
end

--- Grid tile of the hex at offset (col, row).
---@return integer x, integer y
function Map:to_grid(col, row)
  check_map("to_grid", self)
  check_int("to_grid", 2, "col", col)
  check_int("to_grid", 3, "row", row)
  local q, r = hex.from_offset(self.layout, col, row)
  return q + self.dq, r + self.dr
end

-- offset coordinates of grid tile (x, y) of map m (checked), or nil
local function offset_of(m, x, y)
  local col, row = hex.to_offset(m.layout, x - m.dq, y - m.dr)
  if col < 1 or row < 1 or col > m.cols or row > m.rows then
    return nil
  end
  return col, row
end

--- Offset coordinates of grid tile (x, y), or nil when it is not on the map.
---@return integer|nil col, integer row
function Map:to_offset(x, y)
  check_map("to_offset", self)
  check_int("to_offset", 2, "x", x)
  check_int("to_offset", 3, "y", y)
  return offset_of(self, x, y)
end

--- Is grid tile (x, y) a hex of the map?
function Map:contains(x, y)
  check_map("contains", self)
  check_int("contains", 2, "x", x)
  check_int("contains", 3, "y", y)
  return offset_of(self, x, y) ~= nil
end

--- A new astar grid for the map: `diagonals = "hex"` (plus `options`, the
--- options of astar.new), the tiles outside the map blocked.  Block and
--- unblock tiles of the map only: opening a tile outside it would add a
--- hex the map does not have.
function Map:new_grid(options)
  check_map("new_grid", self)
  if options ~= nil and type(options) ~= "table" then
    raise(2, 2, "new_grid", "options must be a table, got "
      .. describe(options))
  end
  local astar = require("astar")
  local opts = {}
  for k, v in pairs(options or {}) do opts[k] = v end
  opts.diagonals = "hex"
  -- astar.new checks the options (its #3): name this method and its #2
  local ok, grid = pcall(astar.new, self.width, self.height, opts)
  if not ok then
    local what = type(grid) == "string"
      and grid:match("^bad argument #3 to 'new' %((.*)%)$")
    if what then raise(2, 2, "new_grid", what) end
    error(grid, 0) -- anything else as raised (not enough memory, ...)
  end
  local w = self.width
  local tiles = {}
  for y = 1, self.height do
    for x = 1, w do
      local c = grid:get_cost(x, y)
      tiles[(y - 1) * w + x] = offset_of(self, x, y) and c or false
    end
  end
  grid:load(tiles)
  return grid
end

--- A flat path of grid tiles {x1, y1, ...} as offset coordinates
--- {col1, row1, ...} (a new table; a tile off the map gives nil, nil).
function Map:path_to_offset(path)
  check_map("path_to_offset", self)
  if type(path) ~= "table" then
    raise(2, 2, "path_to_offset", "path must be a table, got "
      .. describe(path))
  end
  local n = #path
  if n % 2 ~= 0 then
    raise(2, 2, "path_to_offset", ("path must hold x, y pairs, got %d "
      .. "values"):format(n))
  end
  for i = 1, n do
    check_int("path_to_offset", 2, ("path[%d]"):format(i), path[i])
  end
  local out = {}
  for i = 1, n - 1, 2 do
    out[i], out[i + 1] = offset_of(self, path[i], path[i + 1])
  end
  return out
end

return hex
