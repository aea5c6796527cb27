-- Paths that stay valid (issue 20), on brc202d, through Lua:
--   lua5.4 bench/paths.lua [DIR]      (luajit too; DIR: ../shared/maps)
-- Prints, each against the issue's target:
--   path_ok on a 450-tile path (µs per call; target <= 12 µs)
--   repair after one random wall across a path: expansions of a fresh A*
--     over the repair's, median over the cases (target >= 10x)
--   avoid with 50 tiles on A* queries, interleaved with the same queries
--     without it (target: <= 5% more time per query)
--   a remembered next_step (µs per call; target <= 1 µs)
-- Figures only: nothing here passes or fails on time.
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
local version = _VERSION:match("%d%.%d")
if jit then version = "jit" end
package.cpath = "build/" .. version .. "/?.so;" .. package.cpath
local astar = require("astar")

local dir = arg[1] or "../shared/maps"
local map = dir .. "/brc202d.map"
local g = assert(astar.load_movingai(map))
local scen = assert(astar.read_scenarios(map .. ".scen"))
local clock = os.clock

print(("# %s, %s"):format(jit and jit.version or _VERSION, map))

-- a portable generator (the same cases on every runtime)
local seed = 12345
local function rand(n)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n + 1
end

local function median(t)
  table.sort(t)
  local n = #t
  if n == 0 then return 0 end
  if n % 2 == 1 then return t[(n + 1) / 2] end
  return (t[n / 2] + t[n / 2 + 1]) / 2
end

-- the paths of the scenarios, once
local paths = {}
for i = 1, #scen, 4 do
  local s = scen[i]
  local p = g:find_path(s.sx, s.sy, s.gx, s.gy)
  if p then paths[#paths + 1] = p end
end

-- 1. path_ok on a path of about 450 tiles
local p450
for _, p in ipairs(paths) do
  if not p450 or math.abs(#p / 2 - 450) < math.abs(#p450 / 2 - 450) then
    p450 = p
  end
end
do
  local n, t0 = 20000, clock()
  for _ = 1, n do g:path_ok(p450) end
  local us = (clock() - t0) / n * 1e6
  local t1 = clock()
  for _ = 1, n do g:path_cost(p450) end
  local us2 = (clock() - t1) / n * 1e6
  print(("path_ok   %d tiles: %.2f us per call (path_cost %.2f us); "
    .. "target <= 12 us: %s"):format(#p450 / 2, us, us2,
    us <= 12 and "met" or "not met"))
end

-- 2. repair after one random wall across a path
do
  local ratios, rexp, fexp, how, excess = {}, {}, {}, {}, {}
  local cases = 0
  for _, p in ipairs(paths) do
    local n = #p / 2
    if n >= 40 and cases < 200 then
      local i = rand(n - 20) + 10
      local x, y = p[2 * i - 1], p[2 * i]
      -- the wall runs across the path's direction there
      local dx, dy = p[2 * i + 1] - x, p[2 * i + 2] - y
      local wx, wy = -dy, dx
      if wx == 0 and wy == 0 then wx = 1 end
      local walls = {}
      for k = -3, 3 do
        local ax, ay = x + k * wx, y + k * wy
        if ax >= 1 and ay >= 1 and ax <= g:width() and ay <= g:height()
           and not g:is_blocked(ax, ay) then
          g:set_blocked(ax, ay)
          walls[#walls + 1] = { ax, ay }
        end
      end
      local rs, fs = {}, {}
      local q, c, h = g:repair(p, 1, { stats = rs })
      local fp, fc = g:find_path(p[1], p[2], p[#p - 1], p[#p],
        { algorithm = "astar", stats = fs })
      if q and fp then
        cases = cases + 1
        ratios[#ratios + 1] = fs.expanded / math.max(1, rs.expanded)
        rexp[#rexp + 1] = rs.expanded
        fexp[#fexp + 1] = fs.expanded
        excess[#excess + 1] = c / fc - 1
        how[h] = (how[h] or 0) + 1
      end
      for _, w in ipairs(walls) do g:set_cost(w[1], w[2], 1) end
    end
  end
  local r = median(ratios)
  print(("repair    %d cases: median expansions repair %.0f, fresh A* %.0f; "
    .. "median fresh/repair %.1fx; target >= 10x: %s"):format(cases,
    median(rexp), median(fexp), r, r >= 10 and "met" or "not met"))
  print(("          kept %d, rejoined %d, searched %d; cost over a fresh "
    .. "search: median %.2f%%, worst %.2f%%"):format(how.kept or 0,
    how.rejoined or 0, how.searched or 0, median(excess) * 100,
    (excess[#excess] or 0) * 100))
end

-- 3. avoid with 50 tiles, interleaved with the same queries without it
do
  local w, h = g:size()
  local avoid = {}
  while #avoid < 100 do
    local x, y = rand(w), rand(h)
    if not g:is_blocked(x, y) then
      avoid[#avoid + 1], avoid[#avoid + 2] = x, y
    end
  end
  -- no stats table: it would add the open list's peak to both loops
  local plain_opts = { algorithm = "astar" }
  local avoid_opts = { algorithm = "astar", avoid = avoid }
  local tp, ta, ep, ea, nq = 0, 0, 0, 0, 0
  for round = 1, 3 do
    for i = 1, #scen, 8 do
      local s = scen[i]
      local first, second = plain_opts, avoid_opts
      if (i + round) % 2 == 0 then first, second = avoid_opts, plain_opts end
      local t0 = clock()
      local _, _, e1 = g:find_path(s.sx, s.sy, s.gx, s.gy, first)
      local t1 = clock()
      local _, _, e2 = g:find_path(s.sx, s.sy, s.gx, s.gy, second)
      local t2 = clock()
      if first == plain_opts then
        tp, ta = tp + (t1 - t0), ta + (t2 - t1)
        ep, ea = ep + e1, ea + e2
      else
        ta, tp = ta + (t1 - t0), tp + (t2 - t1)
        ea, ep = ea + e1, ep + e2
      end
      nq = nq + 1
    end
  end
  local more = (ta / tp - 1) * 100
  local per = ((ta / ea) / (tp / ep) - 1) * 100
  print(("avoid     %d queries: A* %.1f us, with 50 avoided tiles %.1f us "
    .. "(%+.1f%%; per expansion %+.1f%%); target <= 5%%: %s"):format(nq,
    tp / nq * 1e6, ta / nq * 1e6, more, per, more <= 5 and "met" or "not met"))
end

-- 4. a remembered next_step: a unit walking a 450-tile path
do
  local gx, gy = p450[#p450 - 1], p450[#p450]
  local n, calls = #p450 / 2, 0
  g:next_step(p450[1], p450[2], gx, gy) -- the one search
  local t0 = clock()
  for _ = 1, 50 do
    for i = 1, n do
      g:next_step(p450[2 * i - 1], p450[2 * i], gx, gy)
      calls = calls + 1
    end
  end
  local us = (clock() - t0) / calls * 1e6
  local st = {}
  g:next_step(p450[3], p450[4], gx, gy, { stats = st })
  local t1 = clock()
  for _ = 1, 20 do g:next_step(p450[3], p450[4], gx, gy, { remember = false }) end
  local us_search = (clock() - t1) / 20 * 1e6
  print(("next_step remembered: %.3f us per call (searching: %.0f us; "
    .. "remembered: %s); target <= 1 us: %s"):format(us, us_search,
    tostring(st.remembered), us <= 1 and "met" or "not met"))
end
