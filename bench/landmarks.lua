-- Landmarks (ALT) on weighted maps: A* with and without them on the same
-- queries, interleaved query by query in one process (the order flips at
-- every query), for k = 4, 8 and 16.
--
--   lua5.4 bench/landmarks.lua [--every N] [--k LIST] [--uniform] [FILE.map.scen ...]
--   luajit bench/landmarks.lua ...
--
-- Default: every *.map.scen of ../shared/maps.  Each map gets the weights
-- 1..3 of bench/costs.lua's "weights" mode (seed 777; --uniform keeps the
-- map's own costs and checks the published optimal lengths instead).
-- Prints per map and k: prepare time (wall ms and CPU ms), bytes per tile
-- per landmark, expansions per query without / with and their ratio, mean
-- µs per query (CPU time, the Lua call and the path table included)
-- without / with and their ratio, and mismatches (a cost with landmarks
-- that differs from the cost without, or from the optimal length with
-- --uniform).  Figures, never pass/fail on time; exit 1 on a mismatch.

local script = (arg and arg[0]) or "bench/landmarks.lua"
local root = script:match("^(.-)bench[/\\][^/\\]*$") or ""
local ver = jit and "jit" or (_VERSION:match("(%d+%.%d+)") or "?")
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua"
package.cpath = root .. "build/" .. ver .. "/?.so"

local function die(msg)
  io.stderr:write("landmarks.lua: ", msg, "\n")
  os.exit(2)
end

local ok, astar = pcall(require, "astar")
if not ok then die("cannot load astar: run `make` first\n" .. astar) end
local movingai = require("astar.movingai")

local every, ks, uniform, files = 1, { 4, 8, 16 }, false, {}
local i = 1
while arg and arg[i] do
  local a = arg[i]
  if a == "--every" then
    every = tonumber(arg[i + 1]) or die("--every needs a number")
    i = i + 2
  elseif a == "--k" then
    ks = {}
    for n in (arg[i + 1] or ""):gmatch("%d+") do ks[#ks + 1] = tonumber(n) end
    if #ks == 0 then die("--k needs a list such as 4,8,16") end
    i = i + 2
  elseif a == "--uniform" then
    uniform = true
    i = i + 1
  elseif a == "-h" or a == "--help" then
    print("usage: bench/landmarks.lua [--every N] [--k LIST] [--uniform] "
          .. "[FILE.map.scen ...]")
    os.exit(0)
  else
    files[#files + 1] = a
    i = i + 1
  end
end
if #files == 0 then
  local dir = root .. "../shared/maps"
  local p = io.popen('ls "' .. dir .. '"/*.map.scen 2>/dev/null')
  if p then
    for line in p:lines() do files[#files + 1] = line end
    p:close()
  end
  if #files == 0 then die("no *.map.scen in " .. dir) end
end

local clock = os.clock

local failed = false
print(("# %s, %s weights, every %d-th scenario; the machine may be shared: "
  .. "compare the ratios"):format(jit and jit.version or _VERSION,
  uniform and "the maps'" or "1..3", every))
print(("%-16s %3s %8s %8s %6s %9s %9s %6s %9s %9s %6s %5s"):format(
  "map", "k", "prep_ms", "prep_cpu", "B/t/L", "exp_off", "exp_on", "ratio",
  "us_off", "us_on", "ratio", "bad"))
for _, file in ipairs(files) do
  local scen, err = movingai.read_scenarios(file)
  if not scen then die(err) end
  local g, gerr = astar.load_movingai(movingai.map_path_for(file, scen[1]))
  if not g then die(gerr) end
  local w, h = g:size()
  if not uniform then
    local seed = 777
    for y = 1, h do
      for x = 1, w do
        seed = (seed * 16807) % 2147483647
        if not g:is_blocked(x, y) then g:set_cost(x, y, 1 + seed % 3) end
      end
    end
  end
  local queries = {}
  for k = 1, #scen, every do queries[#queries + 1] = scen[k] end
  local name = file:match("([^/\\]*)%.map%.scen$") or file
  local out, stats = {}, {}
  local off = { algorithm = "astar", landmarks = false, stats = stats }
  local on = { algorithm = "astar", stats = stats }
  for _, k in ipairs(ks) do
    local c0 = clock()
    local t = g:prepare("landmarks", k)
    local prep_cpu = (clock() - c0) * 1000
    local exp_off, exp_on, t_off, t_on, bad, used = 0, 0, 0, 0, 0, 0
    g:find_path(queries[1].sx, queries[1].sy, queries[1].gx, queries[1].gy,
                on, out) -- warm
    for n = 1, #queries do
      local q = queries[n]
      local cost_off, cost_on
      for turn = 1, 2 do
        local with = (turn == 1) == (n % 2 == 0)
        local t0 = clock()
        local p, c = g:find_path(q.sx, q.sy, q.gx, q.gy,
                                 with and on or off, out)
        local dt = clock() - t0
        local cost = p and c or nil
        if with then
          t_on, exp_on, cost_on = t_on + dt, exp_on + stats.expanded, cost
          if stats.heuristic == "landmarks" then used = used + 1 end
        else
          t_off, exp_off, cost_off = t_off + dt, exp_off + stats.expanded, cost
        end
      end
      if uniform then
        if not cost_on or math.abs(cost_on - q.length) >
                          movingai.tolerance(q.length_text) then
          bad = bad + 1
        end
      elseif cost_off ~= cost_on and
             not (cost_off and cost_on and
                  math.abs(cost_off - cost_on) <= 1e-9 * cost_off) then
        bad = bad + 1
      end
    end
    if bad > 0 then failed = true end
    local nq = #queries
    print(("%-16s %3d %8.1f %8.1f %6.2f %9.0f %9.0f %6.2f %9.1f %9.1f %6.2f %5d%s")
      :format(name, k, t.ms, prep_cpu, t.bytes / (w * h * k),
              exp_off / nq, exp_on / nq, exp_off / exp_on,
              t_off * 1e6 / nq, t_on * 1e6 / nq, t_off / t_on, bad,
              used < nq and (" (landmarks in %d of %d)"):format(used, nq) or ""))
    io.stdout:flush()
  end
  g:close()
end
if failed then os.exit(1) end
