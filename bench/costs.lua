-- What terrain weights cost per query: plain costs, a unit class's cost
-- table, weights and terrain together, heights, a tile callback and a move
-- callback, all on the same map and queries, in one process, under A*
-- (and the uniform ones under JPS too).
--
--   lua5.4 bench/costs.lua [--every N] [--repeat N] [FILE.map.scen]
--   luajit bench/costs.lua ...
--
-- Default file: ../shared/maps/brc202d.map.scen.  Prints one line per mode:
-- queries, mismatches (against the scenario's optimal length, for the modes
-- whose costs equal the map's), mean µs per query (CPU time, the Lua call
-- and the path table included), expansions per query, and the ratio to the
-- plain mode.  Figures, never pass/fail on time.

local script = (arg and arg[0]) or "bench/costs.lua"
local root = script:match("^(.-)bench[/\\][^/\\]*$") or ""
local ver = jit and "jit" or (_VERSION:match("(%d+%.%d+)") or "?")
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua"
package.cpath = root .. "build/" .. ver .. "/?.so"

local function die(msg)
  io.stderr:write("costs.lua: ", msg, "\n")
  os.exit(2)
end

local ok, astar = pcall(require, "astar")
if not ok then die("cannot load astar: run `make` first\n" .. astar) end
local movingai = require("astar.movingai")

local every, repeats = 1, 1
local file = root .. "../shared/maps/brc202d.map.scen"
local i = 1
while arg and arg[i] do
  local a = arg[i]
  if a == "--every" then
    every = tonumber(arg[i + 1]) or die("--every needs a number")
    i = i + 2
  elseif a == "--repeat" then
    repeats = tonumber(arg[i + 1]) or die("--repeat needs a number")
    i = i + 2
  elseif a == "-h" or a == "--help" then
    print("usage: bench/costs.lua [--every N] [--repeat N] [FILE.map.scen]")
    os.exit(0)
  else
    file = a
    i = i + 1
  end
end

local scen, err = movingai.read_scenarios(file)
if not scen then die(err) end
local map_path = movingai.map_path_for(file, scen[1])
local grid, gerr = astar.load_movingai(map_path)
if not grid then die(gerr) end
local w, h = grid:size()

local queries = {}
for k = 1, #scen, every do queries[#queries + 1] = scen[k] end

-- Terrain for the table modes: terrain 1 ("mud") on a scattered fifth of
-- the tiles.  The "table" unit prices both at 1 but cannot enter terrain 2
-- (used nowhere): its table is not all 1, so it runs on its own baked
-- layers, with costs equal to the map's.
grid:define_terrain("ground")
grid:define_terrain("mud")
grid:define_terrain("lava")
local seed = 12345
for y = 1, h do
  for x = 1, w do
    seed = (seed * 16807) % 2147483647
    if seed % 5 == 0 then grid:set_terrain(x, y, "mud") end
  end
end
grid:set_unit("table", { ground = 1, mud = 1, lava = false })
grid:set_unit("muddy", { ground = 1, mud = 2, lava = false })
grid:set_unit("climber", { lava = false }, { climb = 0.5, descend = 0.25 })

-- a copy of the map with weights 1..3 for the "weights" mode
local weighted = astar.load_movingai(map_path)
weighted:define_terrain("ground")
weighted:define_terrain("mud")
seed = 777
for y = 1, h do
  for x = 1, w do
    seed = (seed * 16807) % 2147483647
    if not weighted:is_blocked(x, y) then
      weighted:set_cost(x, y, 1 + seed % 3)
      if seed % 7 == 0 then weighted:set_terrain(x, y, "mud") end
    end
  end
end
weighted:set_unit("muddy", { ground = 1, mud = 2 })

local hills = astar.load_movingai(map_path)
local rows = {}
for y = 1, h do
  local row = {}
  for x = 1, w do row[x] = math.floor(4 + 3 * math.sin(x / 17) * math.cos(y / 23)) end
  rows[y] = row
end
hills:load_heights(rows)
hills:set_unit("climber", {}, { climb = 0.5, descend = 0.25 })

local function same(x1, y1, x2, y2, c) return c end
local function same_tile(x, y, c) return c end

-- Every mode runs A* (the loop these costs feed); the last two lines show
-- what jump point search makes of the uniform ones.
local MODES = {
  { name = "plain", grid = grid, opts = { algorithm = "astar" },
    exact = true },
  { name = "cost table", grid = grid,
    opts = { unit = "table", algorithm = "astar" }, exact = true },
  { name = "weights x table", grid = weighted,
    opts = { unit = "muddy", algorithm = "astar" } },
  { name = "heights (climb)", grid = hills,
    opts = { unit = "climber", algorithm = "astar" } },
  { name = "tile callback", grid = grid, opts = { tile_cost = same_tile },
    exact = true },
  { name = "move callback", grid = grid, opts = { move_cost = same },
    exact = true },
  { name = "plain, jps", grid = grid, opts = { algorithm = "jps" },
    exact = true },
  { name = "cost table, jps", grid = grid,
    opts = { unit = "table", algorithm = "jps" }, exact = true },
}

local clock = os.clock
local out = {}
local plain_us
print(("# %s, %s: %d queries (every %d), best of %d"):format(
  jit and jit.version or _VERSION, file:match("[^/\\]*$"), #queries, every,
  repeats))
print(("%-16s %8s %10s %10s %12s %7s"):format("mode", "queries", "mismatches",
  "mean_us", "expanded", "ratio"))
for _, mode in ipairs(MODES) do
  local g, opts = mode.grid, mode.opts
  g:find_path(queries[1].sx, queries[1].sy, queries[1].gx, queries[1].gy,
              opts, out) -- warm: scratch and baked layers
  local best, mismatches, expanded = math.huge, 0, 0
  for _ = 1, repeats do
    mismatches, expanded = 0, 0
    local t0 = clock()
    for k = 1, #queries do
      local q = queries[k]
      local p, cost, exp = g:find_path(q.sx, q.sy, q.gx, q.gy, opts, out)
      if p then
        expanded = expanded + exp
        if mode.exact and
           math.abs(cost - q.length) > movingai.tolerance(q.length_text) then
          mismatches = mismatches + 1
        end
      elseif mode.exact then
        mismatches = mismatches + 1
      end
    end
    local t = clock() - t0
    if t < best then best = t end
  end
  local us = best * 1e6 / #queries
  plain_us = plain_us or us
  io.stdout:flush()
  print(("%-16s %8d %10s %10.1f %12.0f %7.2f"):format(mode.name, #queries,
    mode.exact and tostring(mismatches) or "-", us, expanded / #queries,
    us / plain_us))
end
