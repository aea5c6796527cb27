-- The algorithms of find_path's `algorithm` option side by side on
-- MovingAI maps (default: brc202d and maze512-4-0 from ../shared/maps).
--
--   lua5.4 bench/algorithms.lua [--every N] [MAP.map.scen ...]
--   luajit bench/algorithms.lua --every 8
--
-- For each map and algorithm: µs per query (Lua call included, CPU time),
-- nodes expanded, peak open list, mean cost over the optimal (1.000 for
-- the optimal ones) and queries without a path.  Figures only: it never
-- fails on time.

local script = (arg and arg[0]) or "bench/algorithms.lua"
local root = script:match("^(.-)bench[/\\][^/\\]*$") or ""
local ver = jit and "jit" or (_VERSION:match("(%d+%.%d+)") or "?")
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua"
package.cpath = root .. "build/" .. ver .. "/?.so"

local astar = require("astar")
local movingai = require("astar.movingai")

local RUNS = {
  { "astar", {} },
  { "dijkstra", { algorithm = "dijkstra" } },
  { "bfs", { algorithm = "bfs" } },
  { "greedy", { algorithm = "greedy" } },
  { "weighted 1.5", { algorithm = "weighted", weight = 1.5 } },
  { "weighted 3", { algorithm = "weighted", weight = 3 } },
  { "beam 1000", { algorithm = "beam", beam_width = 1000 } },
  { "beam 100", { algorithm = "beam", beam_width = 100 } },
  { "astar straight", { ties = "straight" } },
  { "astar random", { ties = "random", seed = 1 } },
  { "bidirectional", { algorithm = "bidirectional" } },
  { "bidir dijkstra", { algorithm = "bidirectional", heuristic = "zero" } },
  { "bidirectional_bfs", { algorithm = "bidirectional_bfs" } },
  -- IDA* stops at its node cap (1e6 expansions by default) on these maps
  -- except for short paths: it is for small searches; "no_path" counts the
  -- cutoffs
  { "ida", { algorithm = "ida" } },
}

local every, files = 4, {}
local i = 1
while arg and i <= #arg do
  if arg[i] == "--every" then
    every = tonumber(arg[i + 1]) or every
    i = i + 1
  else
    files[#files + 1] = arg[i]
  end
  i = i + 1
end
if #files == 0 then
  files = { root .. "../shared/maps/brc202d.map.scen",
            root .. "../shared/maps/maze512-4-0.map.scen" }
end

local fmt = string.format
print(fmt("# %s; every %d-th scenario; clock=cpu", jit and jit.version
  or _VERSION, every))
print(fmt("%-20s %-15s %8s %10s %10s %9s %6s", "map", "algorithm", "queries",
  "mean_us", "expanded", "peak_open", "cost/opt"), "no_path")
for _, scen in ipairs(files) do
  local entries = assert(movingai.read_scenarios(scen))
  local grid = assert(astar.load_movingai(
    assert(movingai.map_path_for(scen, entries[1]))))
  local name = scen:match("([^/\\]+)%.map%.scen$") or scen
  local sel = {}
  for k = 1, #entries, every do sel[#sel + 1] = entries[k] end
  grid:find_path(sel[1].sx, sel[1].sy, sel[1].gx, sel[1].gy)
  for _, run in ipairs(RUNS) do
    local opts, stats, out = run[2], {}, {}
    local t, expanded, peak, ratio, missing = 0, 0, 0, 0, 0
    for _, e in ipairs(sel) do
      opts.stats = nil
      local t0 = os.clock()
      local p, cost = grid:find_path(e.sx, e.sy, e.gx, e.gy, opts, out)
      t = t + (os.clock() - t0)
      opts.stats = stats -- a second, counted run for the statistics
      grid:find_path(e.sx, e.sy, e.gx, e.gy, opts, out)
      expanded = expanded + stats.expanded
      peak = peak + stats.peak_open
      if p then
        ratio = ratio + (e.length > 0 and cost / e.length or 1)
      else
        missing = missing + 1
      end
    end
    opts.stats = nil
    local n = #sel
    print(fmt("%-20s %-15s %8d %10.1f %10.0f %9.0f %6.3f", name, run[1], n,
      t / n * 1e6, expanded / n, peak / n,
      n > missing and ratio / (n - missing) or 0), missing)
    io.stdout:flush()
  end
end
