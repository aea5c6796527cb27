-- Time-sliced searches and the pathfinder pool on brc202d (the issue's
-- two targets), figures only: it never fails on time.
--
--   lua5.4 bench/sliced.lua [--every N] [--requests N] [MAP.map.scen]
--   luajit bench/sliced.lua
--
-- 1. Per-slice overhead: the same scenarios as one-shot find_path and as
--    a query stepped in slices of 100 expansions (q:step(100) until it
--    ends, then q:result(out)), alternating query by query in the same
--    process; CPU time of each side, and the overhead of slicing over the
--    one-shot time (target: at most 3% at 100-node slices).  A* (the
--    target) and JPS.
-- 2. The pool: N (default 500) A* requests made at once, then
--    pf:update{seconds = 0.001} once per simulated frame until every
--    request is done: frames used, p50 / p99 / max of the update's own
--    wall-clock time (pf:stats().seconds; target: p99 at most 1.1 ms), and
--    whether every request finished with find_path's cost.

local script = (arg and arg[0]) or "bench/sliced.lua"
local root = script:match("^(.-)bench[/\\][^/\\]*$") or ""
local ver = jit and "jit" or (_VERSION:match("(%d+%.%d+)") or "?")
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua"
package.cpath = root .. "build/" .. ver .. "/?.so"

local astar = require("astar")

local every, requests, file = 4, 500, nil
local i = 1
while arg and i <= #arg do
  if arg[i] == "--every" then
    every = tonumber(arg[i + 1]) or every
    i = i + 1
  elseif arg[i] == "--requests" then
    requests = tonumber(arg[i + 1]) or requests
    i = i + 1
  else
    file = arg[i]
  end
  i = i + 1
end
file = file or (root .. "../shared/maps/brc202d.map.scen")

local fmt = string.format
local clock = os.clock
local scen = assert(astar.read_scenarios(file))
local grid = assert(astar.load_movingai((file:gsub("%.scen$", ""))))
print(fmt("# %s; %s; %d scenarios, every %d-th", jit and jit.version
  or _VERSION, file:match("[^/\\]+$"), #scen, every))

-- ---- 1. per-slice overhead ----

local SLICE = tonumber(os.getenv("SLICE") or 100)
local function overhead(label, opts)
  local out = {}
  local one, sliced, n, steps, expanded = 0, 0, 0, 0, 0
  for round = 1, 2 do -- the first round warms contexts and caches
    one, sliced, n, steps, expanded = 0, 0, 0, 0, 0
    for k = every, #scen, every do
      local s = scen[k]
      local t0 = clock()
      local _, c1, e1 = grid:find_path(s.sx, s.sy, s.gx, s.gy, opts, out)
      local t1 = clock()
      local q = grid:query(s.sx, s.sy, s.gx, s.gy, opts)
      local t2 = clock()
      local st
      repeat
        st = q:step(SLICE)
        steps = steps + 1
      until st ~= "running"
      local _, c2 = q:result(out)
      local t3 = clock()
      q:close()
      if c1 ~= c2 then error(fmt("scenario %d: cost %s vs %s", k,
        tostring(c1), tostring(c2))) end
      one = one + (t1 - t0)
      sliced = sliced + (t3 - t2)
      n = n + 1
      expanded = expanded + e1
      if round == 1 and n >= 50 then break end
    end
  end
  print(fmt("%-6s queries %5d  expanded/q %8.1f  slices/q %6.1f  one-shot "
    .. "%8.1f us/q  sliced %8.1f us/q  overhead %+6.2f%%  (target <= 3%%)",
    label, n, expanded / n, steps / n, one / n * 1e6, sliced / n * 1e6,
    (sliced / one - 1) * 100))
  io.stdout:flush()
end

print("## per-slice overhead, slices of " .. SLICE .. " expansions "
  .. "(CPU time, alternating)")
overhead("astar", { algorithm = "astar" })
overhead("jps", { algorithm = "jps" })

-- ---- 2. the pool ----

print(fmt("## pool: %d A* requests at once, update{seconds = 0.001} per "
  .. "frame (wall clock of each update)", requests))
local pf = astar.pathfinder(grid, { max_pending = requests })
local want, outs = {}, {}
local total = 0
for k = 1, requests do
  local s = scen[#scen - (k - 1) % #scen] -- the longest first
  local _, cost = grid:find_path(s.sx, s.sy, s.gx, s.gy,
                                 { algorithm = "astar" })
  outs[k] = {}
  local id = assert(pf:request(s.sx, s.sy, s.gx, s.gy,
                               { algorithm = "astar" }, nil, outs[k]))
  want[id] = cost
end
local times, frames, done, wrong = {}, 0, 0, 0
local stats = {}
local expansions = 0
while pf:pending() > 0 do
  pf:update({ seconds = 0.001 })
  frames = frames + 1
  pf:stats(stats)
  times[#times + 1] = stats.seconds
  expansions = expansions + stats.expansions
  for id, status, _, cost in pf:done() do
    done = done + 1
    if status ~= "found" or cost ~= want[id] then wrong = wrong + 1 end
  end
end
table.sort(times)
local function pct(p)
  return times[math.max(1, math.ceil(#times * p))] * 1e3
end
print(fmt("requests %d  done %d  wrong %d  frames %d  expansions/frame %.0f",
  requests, done, wrong, frames, expansions / frames))
print(fmt("update ms: p50 %.3f  p99 %.3f  max %.3f  (target p99 <= 1.1)",
  pct(0.5), pct(0.99), times[#times] * 1e3))
