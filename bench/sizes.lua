-- Large units: what a query with size = 2, 3, 4 costs against size 1, on
-- the same map and the same start/goal pairs, A* and JPS, through the Lua
-- API; and what clearance and each size's layer cost in memory.
--
--   lua5.4 bench/sizes.lua [--pairs N] [--rounds N] [MAP ...]
--   (default maps: ../shared/maps/brc202d.map ../shared/maps/32room_000.map)
--
-- Pairs are drawn (fixed seed) among tiles where a 4 x 4 unit fits, with
-- start and goal in one size-4 zone, so every size finds a path; half of
-- the goals within 30 tiles of their start (on a room map with one-tile
-- doors, no big unit leaves its room).  Each
-- round runs every size over all pairs in turn (interleaved); the figure
-- is the fastest round.  Target (issue 18): size 2..4 <= 1.1 x size 1;
-- clearance <= 1 byte per tile per unit class.

local script = (arg and arg[0]) or "bench/sizes.lua"
local root = script:match("^(.-)bench[/\\][^/\\]*$") or ""
local ver = jit and "jit" or (_VERSION:match("(%d+%.%d+)") or "?")
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua"
package.cpath = root .. "build/" .. ver .. "/?.so"
local astar = require("astar")

local npairs, rounds, maps = 300, 5, {}
local i = 1
while arg and arg[i] do
  if arg[i] == "--pairs" then npairs = tonumber(arg[i + 1]); i = i + 1
  elseif arg[i] == "--rounds" then rounds = tonumber(arg[i + 1]); i = i + 1
  else maps[#maps + 1] = arg[i] end
  i = i + 1
end
if #maps == 0 then
  maps = { root .. "../shared/maps/brc202d.map",
           root .. "../shared/maps/32room_000.map" }
end

local seed = 18
local function rand(n) -- a small LCG: the same pairs on every runtime
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n + 1
end

print(("%-14s %-6s %5s %6s %10s %8s"):format("map", "algo", "size", "pairs",
  "mean_us", "vs_1"))
for _, path in ipairs(maps) do
  local g = astar.load_movingai(path)
  local name = path:match("([^/\\]+)%.map$") or path
  local w, h = g:size()
  local tiles = w * h
  g:find_path(1, 1, 1, 1) -- the one-tile layer, its zones and the context
  local m0 = g:memory()
  g:clearance(1, 1)
  local m1 = g:memory()
  local layer = {}
  for s = 2, 4 do
    local before = g:memory()
    g:find_path(1, 1, 1, 1, { size = s })
    g:zone_count(nil, s)
    layer[s] = (g:memory() - before) / tiles
  end
  -- the largest size (4 down to 2) that joins enough pairs
  local pairs_, smax = {}, 4
  while smax >= 2 do
    pairs_ = {}
    local tries = 0
    while #pairs_ < npairs and tries < 20 * npairs do
      tries = tries + 1
      local sx, sy, gx, gy = rand(w), rand(h), rand(w), rand(h)
      if tries % 2 == 0 then -- a near goal (in the same room on room maps)
        gx = math.max(1, math.min(w, sx + rand(61) - 31))
        gy = math.max(1, math.min(h, sy + rand(61) - 31))
      end
      if g:clearance(sx, sy) >= smax and g:clearance(gx, gy) >= smax and
         g:connected(sx, sy, gx, gy, nil, smax) then
        pairs_[#pairs_ + 1] = { sx, sy, gx, gy }
      end
    end
    if #pairs_ >= npairs / 3 then break end
    print(("%-14s size %d: only %d of %d random pairs joined, trying %d")
      :format(name, smax, #pairs_, tries, smax - 1))
    smax = smax - 1
  end
  local out = {}
  for _, algo in ipairs({ "astar", "jps" }) do
    local best = {}
    for _ = 1, rounds do
      for s = 1, smax do
        local opts = { size = s, algorithm = algo }
        local t0 = os.clock()
        for _, p in ipairs(pairs_) do
          local ok = g:find_path(p[1], p[2], p[3], p[4], opts, out)
          if not ok then error(name .. ": no path for size " .. s) end
        end
        local t = (os.clock() - t0) / #pairs_ * 1e6
        if not best[s] or t < best[s] then best[s] = t end
      end
    end
    for s = 1, smax do
      print(("%-14s %-6s %5d %6d %10.2f %8.3f"):format(name, algo, s,
        #pairs_, best[s], best[s] / best[1]))
    end
  end
  print(("%-14s memory: clearance %.3f B/tile per unit class; each size's "
    .. "layer (masks, bits, JPS columns, zones) %.3f / %.3f / %.3f B/tile "
    .. "(sizes 2 / 3 / 4); grid before %.2f B/tile"):format(name,
    (m1 - m0) / tiles, layer[2], layer[3], layer[4], m0 / tiles))
end
