-- Landmarks on a weighted map: a 256 x 256 map of grass (1), forest (2)
-- and swamp (3) with a few walls, landmarks prepared once, then the same
-- 200 queries with and without them (same costs, fewer tiles searched),
-- an edit that makes them stale, and a prepare that makes them ready.
--
--   lua5.4 examples/landmarks.lua            (from the repository root)
local ver = jit and "jit" or _VERSION:match("%d+%.%d+")
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/" .. ver .. "/?.so;" .. package.cpath
local astar = require("astar")

local N = 256
local grid = astar.new(N, N)
local seed = 42
local function rand(n) -- the same map on every runtime
  seed = (seed * 16807) % 2147483647
  return seed % n
end
for y = 1, N do
  for x = 1, N do
    local r = rand(100)
    if r < 8 then grid:set_blocked(x, y, true)
    else grid:set_cost(x, y, 1 + r % 3) end
  end
end

local t = grid:prepare("landmarks", 8)
print(("prepared 8 landmarks in %.1f ms, %.1f MB (%.2f bytes per tile each)")
  :format(t.ms, t.bytes / 2 ^ 20, t.bytes / (N * N * 8)))

local stats = {}
local sum = { [true] = { exp = 0, t = 0 }, [false] = { exp = 0, t = 0 } }
for _ = 1, 200 do
  local sx, sy, gx, gy = rand(N) + 1, rand(N) + 1, rand(N) + 1, rand(N) + 1
  local costs = {}
  for _, on in ipairs({ true, false }) do
    local t0 = os.clock()
    local path, cost = grid:find_path(sx, sy, gx, gy,
                                      { landmarks = on, stats = stats })
    sum[on].t = sum[on].t + os.clock() - t0
    sum[on].exp = sum[on].exp + stats.expanded
    costs[on] = path and cost or "none"
  end
  assert(costs[true] == costs[false] or
         math.abs(costs[true] - costs[false]) < 1e-9 * costs[false],
         ("the same cost either way: %s, %s"):format(costs[true], costs[false]))
end
for _, on in ipairs({ false, true }) do
  print(("%-16s %8.0f tiles expanded, %7.0f us per query"):format(
    on and "with landmarks" or "without", sum[on].exp / 200,
    sum[on].t / 200 * 1e6))
end

grid:find_path(1, 1, N, N, { stats = stats })
print("heuristic:", stats.heuristic, grid:prepared("landmarks"))
grid:set_cost(10, 10, 3)                 -- any edit: stale, not used
grid:find_path(1, 1, N, N, { stats = stats })
print("after an edit:", stats.heuristic, grid:prepared("landmarks"))
grid:prepare("landmarks", 8)
grid:find_path(1, 1, N, N, { stats = stats })
print("prepared again:", stats.heuristic, grid:prepared("landmarks"))
grid:close()
