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

local function check_layout(fname, layout)
  if not layouts[layout] then
    error(("bad argument #1 to '%s' (layout must be one of 'odd-r', "
      .. "'even-r', 'odd-q', 'even-q', got %s)"):format(fname,
      type(layout) == "string" and ("'" .. layout .. "'") or type(layout)),
      3)
  end
end

local function check_int(fname, n, name, v)
  if type(v) ~= "number" or v ~= v or v ~= floor(v) or abs(v) > 2 ^ 31 then
    error(("bad argument #%d to '%s' (%s must be an integer, got %s)")
      :format(n, fname, name, tostring(v)), 3)
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
  local dq, dr = q1 - q2, r1 - r2
  return max(abs(dq), abs(dr), abs(dq + dr))
end

local Map = {}
Map.__index = Map

--- An axial grid covering a cols x rows offset map: returns a table with
--- `width`, `height` (the axial grid's size), `layout`, `cols`, `rows` and
--- the methods below.
function hex.map(layout, cols, rows)
  check_layout("map", layout)
  check_int("map", 2, "cols", cols)
  check_int("map", 3, "rows", rows)
  if cols < 1 or rows < 1 then
    error("bad argument #2 to 'map' (cols and rows must be >= 1)", 2)
  end
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
  return setmetatable({
    layout = layout, cols = cols, rows = rows,
    width = qmax - qmin + 1, height = rmax - rmin + 1,
    dq = 1 - qmin, dr = 1 - rmin, -- grid (x, y) = axial (q + dq, r + dr)
  }, Map)
end

--- Grid tile of the hex at offset (col, row).
---@return integer x, integer y
function Map:to_grid(col, row)
  local q, r = hex.from_offset(self.layout, col, row)
  return q + self.dq, r + self.dr
end

--- Offset coordinates of grid tile (x, y), or nil when it is not on the map.
---@return integer|nil col, integer row
function Map:to_offset(x, y)
  local col, row = hex.to_offset(self.layout, x - self.dq, y - self.dr)
  if col < 1 or row < 1 or col > self.cols or row > self.rows then
    return nil
  end
  return col, row
end

--- Is grid tile (x, y) a hex of the map?
function Map:contains(x, y)
  return self:to_offset(x, y) ~= nil
end

--- A new astar grid for the map: `diagonals = "hex"` (plus `options`, the
--- options of astar.new), the tiles outside the map blocked.  Block and
--- unblock tiles of the map only: opening a tile outside it would add a
--- hex the map does not have.
function Map:new_grid(options)
  local astar = require("astar")
  local opts = {}
  for k, v in pairs(options or {}) do opts[k] = v end
  opts.diagonals = "hex"
  local grid = astar.new(self.width, self.height, opts)
  local w = self.width
  local tiles = {}
  for y = 1, self.height do
    for x = 1, w do
      local c = grid:get_cost(x, y)
      tiles[(y - 1) * w + x] = self:contains(x, y) and c or false
    end
  end
  grid:load(tiles)
  return grid
end

--- A flat path of grid tiles {x1, y1, ...} as offset coordinates
--- {col1, row1, ...} (a new table).
function Map:path_to_offset(path)
  local out = {}
  for i = 1, #path - 1, 2 do
    out[i], out[i + 1] = self:to_offset(path[i], path[i + 1])
  end
  return out
end

return hex
