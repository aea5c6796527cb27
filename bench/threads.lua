-- Worker threads (issue 16): throughput of the worker pool against one
-- thread, the main thread's cost of submit + results, and snapshot().
--
--   lua5.4 bench/threads.lua [--repeat N] [--algorithm astar,jps] [DIR]
--                                                    (DIR: ../shared/maps)
--   luajit bench/threads.lua ...
--   make bench-threads                               (both)
--
-- 1. All scenarios of brc202d (2,550), A* then JPS, in the same process,
--    interleaved, best of --repeat rounds (default 3):
--      grid      grid:find_path per query (one thread, a Lua call each,
--                the path read into a reused table)
--      1 thread  snap:find_paths (one batch on the calling thread),
--                unpack_paths with paths = false
--      pool N    astar.workers(N): submit, wait, results with paths =
--                false (N = 1, 2, 4)
--    Printed: ms for all, queries per second, and the speed-up over the
--    one-thread batch.  Targets (issue 16): 2 workers on a 2-core machine
--    >= 1.8x the one-thread throughput.  Every cost is checked against
--    the grid's.
-- 2. The main thread's share of a pool batch: submit (reading the query
--    list, queueing) and results (building the results table with every
--    path), in µs per query, the wait excluded.  Target: <= 3 µs.
-- 3. snapshot() of a 512 x 512 map (prepared; then after one edit each
--    time), in ms.  Target: <= 2 ms.
-- Benchmarks print figures; they fail only on a wrong cost.

local script = (arg and arg[0]) or "bench/threads.lua"
local root = script:match("^(.-)bench[/\\][^/\\]*$") or ""
local dir, rounds = nil, 3
local ALGOS = { "astar", "jps" }
do
  local i, args = 1, arg or {}
  while i <= #args do
    if args[i] == "--repeat" then
      rounds = tonumber(args[i + 1]) or rounds
      i = i + 1
    elseif args[i] == "--algorithm" then -- astar,jps (the default)
      ALGOS = {}
      for a in (args[i + 1] or ""):gmatch("[^,]+") do ALGOS[#ALGOS + 1] = a end
      i = i + 1
    else
      dir = args[i]
    end
    i = i + 1
  end
end
dir = dir or (root .. "../shared/maps")
local rt = jit and "jit" or _VERSION:match("%d+%.%d+")
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua;"
  .. package.path
package.cpath = root .. "build/" .. rt .. "/?.so;" .. package.cpath
local astar = require("astar")
-- A wall clock: luasocket's, or clock_gettime through LuaJIT's ffi.  Plain
-- Lua has none finer than a second (os.clock is the CPU time of every
-- thread of the process): then only what runs on the main thread alone is
-- timed (the results read-out, with os.clock), and the rest is skipped.
local now
do
  local ok, socket = pcall(require, "socket")
  if ok and socket.gettime then
    now = socket.gettime
  else
    local ffi_ok, ffi = pcall(require, "ffi")
    if ffi_ok then
      ffi.cdef [[
        typedef struct { long tv_sec; long tv_nsec; } astar_timespec;
        int clock_gettime(int clk, astar_timespec *ts);
      ]]
      local ts = ffi.new("astar_timespec")
      now = function()
        ffi.C.clock_gettime(1, ts) -- CLOCK_MONOTONIC
        return tonumber(ts.tv_sec) + tonumber(ts.tv_nsec) * 1e-9
      end
    end
  end
end

local name = dir .. "/brc202d.map"
local grid = assert(astar.load_movingai(name))
local list = assert(astar.read_scenarios(name .. ".scen"))
local q = {}
for _, sc in ipairs(list) do
  q[#q + 1], q[#q + 2], q[#q + 3], q[#q + 4] = sc.sx, sc.sy, sc.gx, sc.gy
end
local nq = #list
local NOPATHS = { paths = false }
local snap = grid:snapshot()
local cores = astar.workers():threads()

print(("brc202d: %d scenarios; %s; %d cores online; best of %d rounds")
  :format(nq, jit and jit.version or _VERSION, cores, rounds))

local function check(r, costs, what)
  for i = 1, r.n do
    if r.cost[i] ~= costs[i] then
      error(("%s: query %d: cost %s, grid %s"):format(what, i,
        tostring(r.cost[i]), tostring(costs[i])))
    end
  end
end

if not now then
  print("no wall clock (run under LuaJIT, or install luasocket): the "
    .. "throughput and submit figures are skipped")
end
for _, algo in ipairs(now and ALGOS or {}) do
  local opts = { algorithm = algo }
  local costs = {}
  local pools = { astar.workers(1), astar.workers(2), astar.workers(4) }
  local best = {}
  local function keep(k, t)
    if not best[k] or t < best[k] then best[k] = t end
  end
  for _ = 1, rounds do
    local t0 = now()
    local out = {}
    for i = 1, nq do
      local k = (i - 1) * 4
      local _, c = grid:find_path(q[k + 1], q[k + 2], q[k + 3], q[k + 4],
        opts, out)
      costs[i] = c or false
    end
    keep("grid", now() - t0)
    -- the batches' results without the paths: what is timed is the
    -- search (the read-out of paths is part 2's figure)
    t0 = now()
    local r = astar.unpack_paths(snap:find_paths(q, opts), nil, NOPATHS)
    keep("one", now() - t0)
    check(r, costs, "find_paths")
    for p, w in ipairs(pools) do
      t0 = now()
      r = w:results(w:submit(snap, q, opts), nil, NOPATHS)
      keep(p, now() - t0)
      check(r, costs, w:threads() .. " workers")
    end
  end
  print(("\n%s            ms all   queries/s   vs 1 thread"):format(algo))
  local function row(label, t)
    print(("  %-12s %9.1f %11.0f   %6.2fx"):format(label, t * 1e3, nq / t,
      best.one / t))
  end
  row("grid", best.grid)
  row("1 thread", best.one)
  for p, w in ipairs(pools) do row("pool " .. w:threads(), best[p]) end
  for _, w in ipairs(pools) do w:close() end
end

-- 2. main thread: submit + results per query, the wait excluded (without
-- a wall clock: results alone, timed by os.clock while the workers idle);
-- with every path read into r.path, with paths = "kept" (one string,
-- read a path at a time by astar.path_of: timed apart below), and with
-- paths = false
do
  local clock = now or os.clock
  local w = astar.workers(2)
  for _, paths in ipairs({ true, "kept", false }) do
    local best_s, best_r, out, tiles = math.huge, math.huge, {}, 0
    local ro = { paths = paths }
    for _ = 1, rounds + 2 do
      local t0 = clock()
      local id = w:submit(snap, q, { algorithm = "jps" })
      local t1 = clock()
      w:wait(id)
      local t2 = clock()
      local r = w:results(id, out, ro)
      local t3 = clock()
      tiles = 0
      for i = 1, r.n do tiles = tiles + r.length[i] end
      best_s = math.min(best_s, t1 - t0)
      best_r = math.min(best_r, t3 - t2)
    end
    local what = paths == true and ("every path read (%.0f tiles per query)")
      :format(tiles / nq) or ("paths = " .. tostring(paths))
    if paths == "kept" then
      -- what reading each path later costs (astar.path_of into one table)
      local r = w:results(w:submit(snap, q, { algorithm = "jps" }), nil, ro)
      local path = {}
      local t0 = clock()
      for i = 1, r.n do astar.path_of(r, i, path) end
      what = what .. (", then astar.path_of %.2f us per path"):format(
        (clock() - t0) / r.n * 1e6)
    end
    if now then
      print(("main thread per query, %s: submit %.2f us + results %.2f us "
        .. "= %.2f us (target <= 3)"):format(what, best_s / nq * 1e6,
          best_r / nq * 1e6, (best_s + best_r) / nq * 1e6))
    else
      print(("main thread per query, %s: results %.2f us (submit not "
        .. "timed without a wall clock)"):format(what, best_r / nq * 1e6))
    end
  end
  w:close()
end

-- 3. snapshot() of a 512 x 512 map
do
  local clock = now or os.clock -- one thread: CPU time is wall time
  local big = assert(astar.load_movingai(dir .. "/random512-10-0.map"))
  big:find_path(1, 1, 2, 2) -- prepared (zones, JPS bits)
  local n, t = 20, math.huge
  for _ = 1, n do
    local t0 = clock()
    local s = big:snapshot()
    t = math.min(t, clock() - t0)
    s:close()
  end
  local te = math.huge
  for i = 1, n do
    big:set_blocked(1 + i, 1, i % 2 == 0) -- one edit: zones repaired
    local t0 = clock()
    local s = big:snapshot()
    te = math.min(te, clock() - t0)
    s:close()
  end
  print(("snapshot() of 512 x 512 (%d bytes): %.3f ms prepared, %.3f ms "
    .. "after one edit (target <= 2 ms)"):format(big:snapshot():memory(),
      t * 1e3, te * 1e3))
end
