-- Natural paths: Theta*, Lazy Theta* and smoothing against the published
-- any-angle optima of ../shared/maps-anyangle (its README: the scenarios
-- are those of ../maps/NAME.map.scen, the optimum between tile centres is
-- the published length / 2), and their time against our A*; then the
-- time of `smooth` on a path of about 450 tiles.
--
--   lua5.4 bench/anyangle.lua [--rounds N] [--list] [--every N] [--dev-only]
--                             [ANYANGLE_DIR]
--
-- Per map: mean microseconds per query of A*, Theta*, Lazy Theta* (each
-- round runs the three over all scenarios in turn; the fastest round
-- counts), and for the 8-way path, its smoothed version, Theta* and Lazy
-- Theta*: the gap to the optimum ((length - optimum) / optimum) as mean,
-- max, and the share of scenarios within 0.1% and 1%; then the same gaps
-- by bucket of optimum length.  --list prints one line per scenario.
-- Then the issue's time target on the dev maps (brc202d, maze512-4-0,
-- 32room_000, Berlin_0_512; every Nth MovingAI scenario, default 16): A*
-- as users run it (the default open list), A* on the binary heap
-- (open_list = "heap", for information), Lazy Theta* and Theta*, each
-- round running the four over the scenarios in turn (fastest round).
-- --dev-only runs that part alone (a minute or two instead of eight).
-- Targets (issue 18): Lazy Theta* <= 1.5 x A* time, within 1% of the
-- optimum on >= 95% of scenarios; smooth of a 450-tile path <= 20 us.

local script = (arg and arg[0]) or "bench/anyangle.lua"
local root = script:match("^(.-)bench[/\\][^/\\]*$") or ""
local ver = jit and "jit" or (_VERSION:match("(%d+%.%d+)") or "?")
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua"
package.cpath = root .. "build/" .. ver .. "/?.so"
local astar = require("astar")

local rounds, list, dir = 3, false, root .. "../shared/maps-anyangle"
local every, dev_only = 16, false
local i = 1
while arg and arg[i] do
  if arg[i] == "--rounds" then rounds = tonumber(arg[i + 1]); i = i + 1
  elseif arg[i] == "--every" then every = tonumber(arg[i + 1]); i = i + 1
  elseif arg[i] == "--list" then list = true
  elseif arg[i] == "--dev-only" then dev_only = true
  else dir = arg[i] end
  i = i + 1
end
local maps_dir = dir .. "/../maps"

local function length(p)
  local s = 0
  for k = 3, #p, 2 do
    s = s + math.sqrt((p[k] - p[k - 2]) ^ 2 + (p[k + 1] - p[k - 1]) ^ 2)
  end
  return s
end

-- The problems of NAME_scale2.map.scen as tile-centre problems.
local function problems(name)
  local f = io.open(dir .. "/" .. name .. "_scale2.map.scen", "rb")
  if not f then return nil end
  local list_ = {}
  for line in f:lines() do
    local sx, sy, gx, gy, len = line:match(
      "^%S+%s+%S+%s+%S+%s+%S+%s+(%d+)%s+(%d+)%s+(%d+)%s+(%d+)%s+(%S+)")
    if sx then
      list_[#list_ + 1] = { (sx - 1) / 2 + 1, (sy - 1) / 2 + 1,
                            (gx - 1) / 2 + 1, (gy - 1) / 2 + 1,
                            opt = tonumber(len) / 2 }
    end
  end
  f:close()
  return list_
end

local function stats(gaps)
  local n, sum, max, w01, w1 = #gaps, 0, 0, 0, 0
  for _, g in ipairs(gaps) do
    sum = sum + g
    if g > max then max = g end
    if g <= 0.001 then w01 = w01 + 1 end
    if g <= 0.01 then w1 = w1 + 1 end
  end
  if n == 0 then return "-" end
  return ("mean %6.3f%%  max %6.3f%%  <=0.1%% %5.1f%%  <=1%% %5.1f%%"):format(
    100 * sum / n, 100 * max, 100 * w01 / n, 100 * w1 / n)
end

local BUCKETS = { 16, 64, 128, 256, math.huge }

for _, name in ipairs(dev_only and {} or { "arena", "32room_000" }) do
  local probs = problems(name)
  if not probs then
    io.stderr:write("anyangle.lua: ", dir, "/", name,
                    "_scale2.map.scen not found: skipped\n")
  else
    local g = astar.load_movingai(maps_dir .. "/" .. name .. ".map")
    local algos = { "astar", "theta", "lazy_theta" }
    local best, out = {}, {}
    local res = { astar = {}, theta = {}, lazy_theta = {}, smooth = {} }
    for _ = 1, rounds do
      for _, a in ipairs(algos) do
        local opts = { algorithm = a }
        local t0 = os.clock()
        for k, p in ipairs(probs) do
          local path = g:find_path(p[1], p[2], p[3], p[4], opts, out)
          if not path then error(name .. ": no path for problem " .. k) end
          res[a][k] = length(path)
          if a == "astar" then res.smooth[k] = length(g:smooth(path)) end
        end
        local t = (os.clock() - t0) / #probs * 1e6
        if not best[a] or t < best[a] then best[a] = t end
      end
    end
    print(("%s: %d problems; mean us per query: A* %.1f, Theta* %.1f (%.2fx), "
      .. "Lazy Theta* %.1f (%.2fx)"):format(name, #probs, best.astar,
      best.theta, best.theta / best.astar, best.lazy_theta,
      best.lazy_theta / best.astar))
    local gaps = { astar = {}, smooth = {}, theta = {}, lazy_theta = {} }
    local by = {}
    for k, p in ipairs(probs) do
      local b = 1
      while p.opt > BUCKETS[b] do b = b + 1 end
      by[b] = by[b] or { astar = {}, smooth = {}, theta = {}, lazy_theta = {} }
      for what, t in pairs(gaps) do
        local gap = (res[what][k] - p.opt) / p.opt
        if gap < -1e-9 then
          error(("%s problem %d: %s %.9f below the optimum %.9f"):format(
            name, k, what, res[what][k], p.opt))
        end
        t[#t + 1] = gap
        table.insert(by[b][what], gap)
      end
      if list then
        print(("  %s #%-5d (%d,%d)->(%d,%d) optimum %9.4f  8-way %+7.3f%%  "
          .. "smoothed %+7.3f%%  theta %+7.3f%%  lazy %+7.3f%%"):format(name, k,
          p[1], p[2], p[3], p[4], p.opt,
          100 * gaps.astar[k], 100 * gaps.smooth[k], 100 * gaps.theta[k],
          100 * gaps.lazy_theta[k]))
      end
    end
    for _, what in ipairs({ "astar", "smooth", "theta", "lazy_theta" }) do
      print(("  %-11s %s"):format(what == "astar" and "8-way A*" or what,
        stats(gaps[what])))
    end
    local lo = 0
    for b, hi in ipairs(BUCKETS) do
      if by[b] then
        print(("  optimum %g..%g tiles, %d problems:"):format(lo, hi,
          #by[b].theta))
        print(("    theta       %s"):format(stats(by[b].theta)))
        print(("    lazy_theta  %s"):format(stats(by[b].lazy_theta)))
      end
      lo = hi
    end
  end
end

-- the time target on the dev maps
do
  local dev = { "brc202d", "maze512-4-0", "32room_000", "Berlin_0_512" }
  local variants = {
    { "astar", { algorithm = "astar" } },
    { "heap", { algorithm = "astar", open_list = "heap" } },
    { "lazy_theta", { algorithm = "lazy_theta" } },
    { "theta", { algorithm = "theta" } },
  }
  local out = {}
  print(("dev maps, every %dth scenario, mean us per query (fastest of %d "
    .. "rounds); target: Lazy Theta* <= 1.5 x A*"):format(every, rounds))
  for _, name in ipairs(dev) do
    local file = maps_dir .. "/" .. name .. ".map"
    local f = io.open(file .. ".scen", "rb")
    if not f then
      io.stderr:write("anyangle.lua: ", file, ".scen not found: skipped\n")
    else
      f:close()
      local g = astar.load_movingai(file)
      local scen = astar.read_scenarios(file .. ".scen")
      local probs = {}
      for k = 1, #scen, every do probs[#probs + 1] = scen[k] end
      local best = {}
      for _ = 1, rounds do
        for _, v in ipairs(variants) do
          local t0 = os.clock()
          for k, p in ipairs(probs) do
            if not g:find_path(p.sx, p.sy, p.gx, p.gy, v[2], out) then
              error(name .. ": no path for scenario " .. k)
            end
          end
          local t = (os.clock() - t0) / #probs * 1e6
          if not best[v[1]] or t < best[v[1]] then best[v[1]] = t end
        end
      end
      print(("  %-13s %4d queries: A* %8.1f  A* heap %8.1f  Lazy Theta* "
        .. "%8.1f (%.2fx A*, %.2fx heap)  Theta* %8.1f (%.2fx)  %s"):format(
        name, #probs, best.astar, best.heap, best.lazy_theta,
        best.lazy_theta / best.astar, best.lazy_theta / best.heap,
        best.theta, best.theta / best.astar,
        best.lazy_theta <= 1.5 * best.astar and "met" or "not met"))
    end
  end
end

-- smooth on a path of about 450 tiles (brc202d)
if not dev_only then
  local g = astar.load_movingai(maps_dir .. "/brc202d.map")
  local path, best
  local w, h = g:size()
  local seed = 7
  for _ = 1, 20000 do
    seed = (seed * 1103515245 + 12345) % 2147483648
    local sx, sy = seed % w + 1, math.floor(seed / w) % h + 1
    seed = (seed * 1103515245 + 12345) % 2147483648
    local gx, gy = seed % w + 1, math.floor(seed / w) % h + 1
    local p = g:find_path(sx, sy, gx, gy)
    if p and math.abs(#p / 2 - 450) < 15 then path = p; break end
  end
  if path then
    local out = {}
    local n = 2000
    for _ = 1, 5 do
      local t0 = os.clock()
      for _ = 1, n do g:smooth(path, out) end
      local t = (os.clock() - t0) / n * 1e6
      if not best or t < best then best = t end
    end
    print(("smooth: a %d-tile path of brc202d -> %d waypoints, %.2f us per "
      .. "call; target <= 20 us: %s"):format(#path / 2, #out / 2, best,
      best <= 20 and "met" or "not met"))
  end
end
