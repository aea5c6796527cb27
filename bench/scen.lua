-- MovingAI scenario benchmark through the Lua API.
--
--   lua5.4 bench/scen.lua [options] FILE.map.scen|DIR ...
--   luajit bench/scen.lua ../shared/maps
--
-- Run after `make`, from the repository root (or from anywhere: paths are
-- taken relative to this script).  Needs no environment variables: it points
-- package.path at lua/ and package.cpath at build/<ver>/ itself, where <ver>
-- is 5.1 .. 5.4, or jit under LuaJIT.
--
-- Options:
--   --algorithm LIST   searches to run, comma-separated: astar, jps, auto,
--                      dijkstra, bfs, greedy, weighted, beam, ida,
--                      bidirectional, bidirectional_bfs (default
--                      astar); each file runs under each in turn;
--                      non-optimal ones report mismatches
--   --every N          run every Nth scenario of each file (1st, N+1th, ...)
--   --repeat N         time each file's loop N times and report the fastest
--
-- Prints one line per scenario file and a TOTAL line; see bench/README.md.
-- Exit status: 0 all costs match, 1 some cost mismatched, 2 usage or
-- load error.

local USAGE = [[
usage: bench/scen.lua [--algorithm LIST] [--every N] [--repeat N] FILE.map.scen|DIR ...
  --algorithm LIST  comma-separated: astar (default), jps, auto, dijkstra,
                    bfs, greedy, weighted, beam, ida, bidirectional,
                    bidirectional_bfs
  --every N         run every Nth scenario of each file (default 1: all)
  --repeat N        time each file N times, report the fastest (default 1)]]

-- Searches the benchmark knows: name -> options table for find_path.
local ALGORITHMS = {
  astar = { algorithm = "astar" },
  jps = { algorithm = "jps" },
  auto = false, -- no options: what a plain find_path call gets
}
for _, name in ipairs({ "dijkstra", "bfs", "greedy", "weighted", "beam",
                        "ida", "bidirectional", "bidirectional_bfs" }) do
  ALGORITHMS[name] = { algorithm = name }
end

local function die(msg, status)
  io.stderr:write("scen.lua: ", msg, "\n")
  os.exit(status or 2)
end

---------------------------------------------------------------------------
-- Module paths: lua/ and build/<ver>/ beside this script, nothing else.

local script = (arg and arg[0]) or "bench/scen.lua"
local root = script:match("^(.-)bench[/\\][^/\\]*$") or ""
local ver = jit and "jit" or (_VERSION:match("(%d+%.%d+)") or "?")
local so = root .. "build/" .. ver .. "/astar/core.so"
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua"
package.cpath = root .. "build/" .. ver .. "/?.so"

do
  local f = io.open(so, "rb")
  if not f then
    die(so .. " not found: run `make` first (it builds one module per Lua)")
  end
  f:close()
end

local astar = require("astar")
local movingai = require("astar.movingai")

---------------------------------------------------------------------------
-- Command line.

local algorithm, every, repeats = "astar", 1, 1
local algos = {}
local inputs = {}

local function count_arg(name, value)
  local n = tonumber(value)
  if not value or not n or n < 1 or n ~= math.floor(n) then
    die(name .. " needs a positive integer, got " .. tostring(value))
  end
  return n
end

do
  local i, args = 1, arg or {}
  while i <= #args do
    local a = args[i]
    local opt, val = a:match("^(%-%-[%w-]+)=(.*)$")
    if not opt then opt = a end
    local function value()
      if val then return val end
      i = i + 1
      return args[i]
    end
    if opt == "--help" or opt == "-h" then
      print(USAGE)
      os.exit(0)
    elseif opt == "--algorithm" then
      algorithm = value()
      if not algorithm then die("--algorithm needs a name") end
    elseif opt == "--every" then
      every = count_arg("--every", value())
    elseif opt == "--repeat" then
      repeats = count_arg("--repeat", value())
    elseif opt:sub(1, 1) == "-" and opt ~= "-" then
      die("unknown option '" .. a .. "'\n" .. USAGE)
    else
      inputs[#inputs + 1] = a
    end
    i = i + 1
  end
end
if #inputs == 0 then die("no scenario file or directory given\n" .. USAGE) end
for name in (algorithm .. ","):gmatch("([^,]*),") do
  if ALGORITHMS[name] == nil then
    die(("unknown algorithm '%s' (known: astar, jps, auto, dijkstra, bfs, greedy, weighted, beam, ida, bidirectional, bidirectional_bfs)"):format(name))
  end
  algos[#algos + 1] = name
end

---------------------------------------------------------------------------
-- Files: a directory stands for every *.map.scen in it, sorted by name.

local windows = package.config:sub(1, 1) == "\\"

local function is_dir(p)
  local f = io.open(p, "rb")
  if not f then return false end
  local ok, err, code = f:read(1)
  f:close()
  return ok == nil and err ~= nil
    and (code == 21 or tostring(err):find("[Dd]irectory") ~= nil)
end

local function list_dir(dir)
  local cmd
  if windows then
    cmd = 'dir /b "' .. dir .. '"'
  else
    cmd = "ls -1A '" .. dir:gsub("'", "'\\''") .. "'"
  end
  local p = io.popen(cmd)
  if not p then die("cannot list directory " .. dir) end
  local names = {}
  for name in p:lines() do
    name = name:gsub("\r$", "")
    if name:match("%.map%.scen$") then names[#names + 1] = name end
  end
  p:close()
  table.sort(names)
  local sep = (dir:match("[/\\]$") and "") or (windows and "\\" or "/")
  for k, name in ipairs(names) do names[k] = dir .. sep .. name end
  return names
end

local files = {}
for _, p in ipairs(inputs) do
  if is_dir(p) then
    local list = list_dir(p)
    if #list == 0 then die("no *.map.scen file in " .. p) end
    for _, f in ipairs(list) do files[#files + 1] = f end
  else
    files[#files + 1] = p
  end
end

---------------------------------------------------------------------------
-- The benchmark.

local clock = os.clock
local fmt = string.format

local function runtime()
  if jit then
    return fmt("%s (%s API, JIT %s, %s %s)", jit.version, _VERSION,
               jit.status() and "on" or "off", jit.os, jit.arch)
  end
  return _VERSION
end

print(fmt("# runtime: %s; module %s; astar %s", runtime(), so,
          tostring(astar._VERSION or astar.VERSION or astar.version or "?")))
print(fmt("# algorithm=%s every=%d repeat=%d clock=cpu", algorithm, every, repeats))
io.stdout:flush()

local total_queries, total_mismatches, total_time = {}, {}, {}
for a = 1, #algos do
  total_queries[a], total_mismatches[a], total_time[a] = 0, 0, 0
end
local any_mismatch = false

for _, path in ipairs(files) do
  local name = path:match("([^/\\]+)$") or path
  local entries, err = movingai.read_scenarios(path)
  if not entries then die(err) end
  if #entries == 0 then die(path .. ": no scenarios") end
  local map_path, merr = movingai.map_path_for(path, entries[1])
  if not map_path then die(merr) end
  for k = 2, #entries do
    if movingai.map_path_for(path, entries[k]) ~= map_path then
      die(("%s: scenario %d names another map (%s)"):format(
        path, k, entries[k].map))
    end
  end
  local grid, gerr = astar.load_movingai(map_path)
  if not grid then die(tostring(gerr)) end
  local w, h = grid:size()

  -- The selected scenarios, as flat arrays, and their tolerances.
  local SX, SY, GX, GY, LEN, TOL, idx = {}, {}, {}, {}, {}, {}, {}
  local n = 0
  for k = 1, #entries, every do
    local e = entries[k]
    if e.width ~= w or e.height ~= h then
      die(("%s: scenario %d is for a %dx%d map, %s is %dx%d (scaling is not supported)")
        :format(path, k, e.width, e.height, map_path, w, h))
    end
    n = n + 1
    SX[n], SY[n], GX[n], GY[n] = e.sx, e.sy, e.gx, e.gy
    LEN[n], TOL[n], idx[n] = e.length, movingai.tolerance(e.length_text), k
  end

  local costs, out = {}, {}
  for a, aname in ipairs(algos) do
    -- one options table per algorithm, its stats table reused: stats.algorithm
    -- names what ran (auto picks per query)
    local stats = {}
    local options = { stats = stats }
    for key, v in pairs(ALGORITHMS[aname] or {}) do options[key] = v end
    local ran = "?"
    for k = 1, n do costs[k] = false end
    local best, expanded = math.huge, 0
    -- One untimed query first: the grid allocates its search scratch on its
    -- first search, a one-off cost that is not a query's.
    grid:find_path(SX[1], SY[1], GX[1], GY[1], options, out)
    for _ = 1, repeats do
      collectgarbage()
      local exp_sum = 0
      local t0 = clock()
      for k = 1, n do
        local p, cost, exp = grid:find_path(SX[k], SY[k], GX[k], GY[k], options, out)
        costs[k] = p and cost or false
        ran = stats.algorithm or ran
        exp_sum = exp_sum + (exp or 0)
      end
      local t = clock() - t0
      if t < best then best = t end
      expanded = exp_sum
    end

    local mismatches = 0
    for k = 1, n do
      local c = costs[k]
      if not c or math.abs(c - LEN[k]) > TOL[k] then
        mismatches = mismatches + 1
        if mismatches <= 5 then
          local e = entries[idx[k]]
          io.stderr:write(fmt("MISMATCH %s #%d (%d,%d)->(%d,%d): expected %s, got %s\n",
            name, idx[k], e.sx, e.sy, e.gx, e.gy, e.length_text,
            c and fmt("%.8f", c) or "no path"))
        end
      end
    end

    local tiles = w * h
    print(fmt("%-24s algorithm=%-5s queries=%-6d mismatches=%-3d mean_us=%-9.3f expanded=%-9.1f nodes_per_s=%-10.0f bytes_per_tile=%.2f",
      name, ran, n, mismatches, best / n * 1e6, expanded / n,
      best > 0 and expanded / best or 0, grid:memory() / tiles))
    io.stdout:flush()
    total_queries[a] = total_queries[a] + n
    total_mismatches[a] = total_mismatches[a] + mismatches
    total_time[a] = total_time[a] + best
    if mismatches > 0 then any_mismatch = true end
  end
end

for a, aname in ipairs(algos) do
  print(fmt("TOTAL algorithm=%s queries=%d mismatches=%d mean_us=%.3f", aname,
            total_queries[a], total_mismatches[a], total_queries[a] > 0
              and total_time[a] / total_queries[a] * 1e6 or 0))
end
os.exit(any_mismatch and 1 or 0)
