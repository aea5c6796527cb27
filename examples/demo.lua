-- The README demo: a path across the bundled MovingAI map, drawn in ASCII
-- with its cost, nodes expanded and time per query; then the same trip with
-- a band of mud (cost 4) in the way, and on a 4-way grid.
--
--   make demo          (or: lua5.4 examples/demo.lua, after make)
--
-- Legend: # wall, . floor, 4 mud, S start, G goal, * path.

-- Find the module built by `make` for this runtime when run from the repo.
local ver = jit and "jit" or _VERSION:match("%d+%.%d+")
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/" .. ver .. "/?.so;" .. package.cpath

local astar = require("astar")

local map = arg and arg[1] or "examples/maps/arena.map"
local grid = assert(astar.load_movingai(map))
local width, height = grid:size()

-- Time one query: repeat it until 0.1 s of CPU time has passed.
local function timed(sx, sy, gx, gy, options)
  local out = {}
  local path, cost, expanded = grid:find_path(sx, sy, gx, gy, options, out)
  local runs, t0 = 0, os.clock()
  repeat
    grid:find_path(sx, sy, gx, gy, options, out)
    runs = runs + 1
  until os.clock() - t0 > 0.1
  return path, cost, expanded, (os.clock() - t0) / runs * 1e6
end

local function show(title, sx, sy, gx, gy, options)
  local path, cost, expanded, us = timed(sx, sy, gx, gy, options)
  print(("== %s: (%d,%d) -> (%d,%d)"):format(title, sx, sy, gx, gy))
  if not path then
    print("no path: " .. tostring(cost))
    return
  end
  print(astar.render(grid, path))
  print(("cost %.4f, %d tiles, %d nodes expanded, %.1f us per query")
    :format(cost, #path / 2, expanded, us))
  print()
end

print(("astar %s on %s (%s): %d x %d"):format(astar.version, map,
  jit and jit.version or _VERSION, width, height))
print()

local sx, sy, gx, gy = 4, 4, 46, 46
show("8-way, no corner cutting", sx, sy, gx, gy)

-- A band of mud across the middle: each step into it costs 4.
for y = 20, 28 do
  for x = 1, width do
    if not grid:is_blocked(x, y) then grid:set_cost(x, y, 4) end
  end
end
show("mud (cost 4) across rows 20-28", sx, sy, gx, gy)

grid:set_movement({ diagonals = "never" })
show("4-way", sx, sy, gx, gy)
