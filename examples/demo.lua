-- The README demo: the bundled MovingAI map, one trip searched by A* and by
-- jump point search, then with a band of mud that costs extra, then the
-- map cut in two and drawn by zone, each with its cost, nodes expanded
-- and time per query.  Maps are drawn side by side in ASCII, in colour
-- when standard output is a terminal.
--
--   make demo                       (or: lua5.4 examples/demo.lua, after make)
--   lua5.4 examples/demo.lua [map] [--color | --no-color]
--
-- Legend: # wall, . floor, ~ mud, S start, G goal, * path; zones are
-- letters a, b, c, ... (one per zone).

-- Find the module built by `make` for this runtime when run from the repo.
local ver = jit and "jit" or _VERSION:match("%d+%.%d+")
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/" .. ver .. "/?.so;" .. package.cpath

local astar = require("astar")

local map, colour = "examples/maps/arena.map", nil
for _, a in ipairs(arg or {}) do
  if a == "--color" then
    colour = true
  elseif a == "--no-color" then
    colour = false
  else
    map = a
  end
end
if colour == nil then -- a terminal, and NO_COLOR unset
  local tty = os.execute("test -t 1")
  colour = (tty == true or tty == 0) and os.getenv("NO_COLOR") == nil
    and os.getenv("TERM") ~= "dumb"
end

local grid = assert(astar.load_movingai(map))
local width, height = grid:size()
local SX, SY, GX, GY = 4, 4, 46, 46

-- ANSI colours: 256-colour foregrounds and backgrounds per mark.
local STYLE = {
  ["#"] = "38;5;240", ["."] = "38;5;250", ["~"] = "38;5;136",
  ["*"] = "1;38;5;231;48;5;25", S = "1;38;5;231;48;5;28",
  G = "1;38;5;231;48;5;124",
}
local ZONE_BG = { 24, 94, 29, 90, 30, 130, 61, 58 }

local function paint(ch, style)
  if not colour or not style then return ch end
  return "\27[" .. style .. "m" .. ch .. "\27[0m"
end

-- The map as lines: walls, floor or mud, the path on top; with zones,
-- each passable tile shows its zone's letter.
local function draw(path, zones)
  local marks = {}
  if path then
    local n = #path / 2
    for i = 1, n do
      local ch = (i == 1 and "S") or (i == n and "G") or "*"
      marks[path[2 * i] * 65536 + path[2 * i - 1]] = ch
    end
  end
  local lines = {}
  for y = 1, height do
    local row = {}
    for x = 1, width do
      local ch = marks[y * 65536 + x]
      local style = STYLE[ch]
      if not ch and grid:is_blocked(x, y) then
        ch, style = "#", STYLE["#"]
      elseif not ch and zones then
        local id = grid:zone(x, y)
        ch = string.char(96 + (id - 1) % 26 + 1)
        style = "38;5;231;48;5;" .. ZONE_BG[(id - 1) % #ZONE_BG + 1]
      elseif not ch then
        ch = grid:get_terrain(x, y) == "mud" and "~" or "."
        style = STYLE[ch]
      end
      row[x] = paint(ch, style)
    end
    lines[y] = table.concat(row)
  end
  return lines
end

local function side_by_side(left, right)
  for y = 1, #left do print(left[y] .. "    " .. right[y]) end
  print()
end

-- Time one query: repeat it until 0.05 s of CPU time has passed.
local function timed(sx, sy, gx, gy, options)
  local stats = {}
  options.stats = stats
  local path, cost, expanded = grid:find_path(sx, sy, gx, gy, options)
  options.stats = nil
  local runs, t0 = 0, os.clock()
  repeat
    grid:find_path(sx, sy, gx, gy, options)
    runs = runs + 1
  until os.clock() - t0 > 0.05
  return path, cost, expanded, (os.clock() - t0) / runs * 1e6, stats
end

local function report(label, path, cost, expanded, us, stats)
  if path then
    print(("  %-38s cost %8.4f  %2d tiles  %5d nodes expanded  %8.1f us/query")
      :format(label .. " [" .. stats.algorithm .. "]", cost, #path / 2,
        expanded, us))
  else
    print(("  %-38s %-24s %5d nodes expanded  %8.1f us/query")
      :format(label .. " [" .. stats.algorithm .. "]", "no path (" .. cost
        .. ")", expanded, us))
  end
end

local function title(left, right)
  print(("%-" .. (width + 4) .. "s%s"):format(left, right))
end

print(("astar %s on %s (%s): %d x %d, (%d,%d) -> (%d,%d)"):format(
  astar.version, map, jit and jit.version or _VERSION, width, height,
  SX, SY, GX, GY))
print()

-- 1. The same trip by A* and by jump point search: the same cost, far
-- fewer nodes.
local pa, ca, ea, ua, sa = timed(SX, SY, GX, GY, { algorithm = "astar" })
local pj, cj, ej, uj, sj = timed(SX, SY, GX, GY, { algorithm = "jps" })
title("A*", "jump point search")
side_by_side(draw(pa), draw(pj))
report("A*", pa, ca, ea, ua, sa)
report("jump point search", pj, cj, ej, uj, sj)
print()

-- 2. Terrain classes: a band of mud across the middle costs a walker 4
-- per step (JPS needs uniform costs, so "auto" runs A* for it).
grid:define_terrain("floor") -- id 0, every tile's terrain until changed
grid:define_terrain("mud")
grid:fill_terrain("mud", 1, 20, width, 9)
grid:set_unit("walker", { mud = 4 })
local pm, cm, em, um, sm = timed(SX, SY, GX, GY, { unit = "walker" })
local mud_map = draw(pm)

-- 3. Zones: a wall down column 25 cuts the map in two.  A search between
-- the halves is answered from the zone labels, with nothing expanded.
grid:fill_rect(25, 1, 1, height, false)
local pz, cz, ez, uz, sz = timed(SX, SY, GX, GY, {})
local pf, cf, ef, uf, sf = timed(SX, SY, GX, GY, { zones = false })
title("mud (~) costs a walker 4", ("zones after a wall down column 25: %d")
  :format(grid:zone_count()))
side_by_side(mud_map, draw(nil, true))
report("walker through mud", pm, cm, em, um, sm)
report("across the wall, zones", pz, cz, ez, uz, sz)
report("across the wall, zones = false", pf, cf, ef, uf, sf)
