-- The A* loop's open list, heap against bucket queue, in one process.
--
--   lua5.4 bench/queue.lua [--every N] [--rounds N] [FILE.map.scen ...]
--   luajit bench/queue.lua
--
-- Without files: brc202d, maze512-4-0, 32room_000 and Berlin_0_512 from
-- ../shared/maps (the maps of issue 19).  Each round times every selected
-- scenario of a map with `open_list = "heap"` and then with the default
-- (the bucket queue, stats.open_list says which ran), the order swapping
-- from round to round; the best round of each is kept.  Prints per map
-- µs per query for both, their ratio (bucket / heap: below 1 is faster),
-- mean expansions of both, how many paths differ in tiles (equal cost:
-- only ties among nodes of equal f and g are taken in another order) and
-- how many costs miss the scenario's optimal length (must be 0).
-- Exit status 1 when a cost misses, or heap and bucket costs differ.

local script = (arg and arg[0]) or "bench/queue.lua"
local root = script:match("^(.-)bench[/\\][^/\\]*$") or ""
local ver = jit and "jit" or (_VERSION:match("(%d+%.%d+)") or "?")
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua"
package.cpath = root .. "build/" .. ver .. "/?.so"

local astar = require("astar")
local movingai = require("astar.movingai")
local fmt = string.format
local clock = os.clock

local every, rounds, files = 1, 3, {}
do
  local args, i = arg or {}, 1
  while i <= #args do
    local a = args[i]
    if a == "--every" or a == "--rounds" then
      local n = tonumber(args[i + 1])
      if not n or n < 1 or n ~= math.floor(n) then
        io.stderr:write(a, " needs a positive integer\n")
        os.exit(2)
      end
      if a == "--every" then every = n else rounds = n end
      i = i + 1
    elseif a:sub(1, 1) == "-" then
      io.stderr:write("usage: bench/queue.lua [--every N] [--rounds N] [FILE.map.scen ...]\n")
      os.exit(2)
    else
      files[#files + 1] = a
    end
    i = i + 1
  end
end
if #files == 0 then
  for _, m in ipairs({ "brc202d", "maze512-4-0", "32room_000", "Berlin_0_512" }) do
    files[#files + 1] = root .. "../shared/maps/" .. m .. ".map.scen"
  end
end

print(fmt("# runtime: %s; every=%d rounds=%d clock=cpu (heap and bucket interleaved)",
          jit and jit.version or _VERSION, every, rounds))
print(fmt("%-22s %7s %10s %10s %6s %10s %10s %9s %9s",
          "map", "queries", "heap_us", "bucket_us", "ratio", "heap_exp",
          "bucket_exp", "path_diff", "mismatch"))

local bad = false
local HEAP = { algorithm = "astar", open_list = "heap" }
local AUTO = { algorithm = "astar" }
for _, path in ipairs(files) do
  local entries = assert(movingai.read_scenarios(path))
  local map_path = assert(movingai.map_path_for(path, entries[1]))
  local grid = assert(astar.load_movingai(map_path))
  local S = {}
  for k = 1, #entries, every do S[#S + 1] = entries[k] end
  local n = #S
  local cost = { heap = {}, bucket = {} }
  local best = { heap = math.huge, bucket = math.huge }
  local exp = { heap = 0, bucket = 0 }
  local stats = {}
  -- warm: the grid's search scratch (both queues) is made once
  grid:find_path(S[1].sx, S[1].sy, S[1].gx, S[1].gy, HEAP)
  grid:find_path(S[1].sx, S[1].sy, S[1].gx, S[1].gy, AUTO)
  local function run(which)
    local opt = which == "heap" and HEAP or AUTO
    local c, e = cost[which], 0
    collectgarbage()
    local t0 = clock()
    for k = 1, n do
      local s = S[k]
      local p, cst, ex = grid:find_path(s.sx, s.sy, s.gx, s.gy, opt)
      c[k] = p and cst or false
      e = e + (ex or 0)
    end
    local t = clock() - t0
    if t < best[which] then best[which] = t end
    exp[which] = e
  end
  for r = 1, rounds do
    if r % 2 == 1 then run("heap"); run("bucket") else run("bucket"); run("heap") end
  end
  local diff, miss = 0, 0
  for k = 1, n do
    local e = S[k]
    local cb, ch = cost.bucket[k], cost.heap[k]
    if cb ~= ch then
      bad = true
      io.stderr:write(fmt("COST DIFFERS %s #%d: heap %s, bucket %s\n", path,
                          k, tostring(ch), tostring(cb)))
    end
    if not cb or math.abs(cb - e.length) > movingai.tolerance(e.length_text) then
      miss = miss + 1
      bad = true
    end
  end
  for k = 1, n do -- untimed: the paths tile by tile
    local e = S[k]
    local p1 = grid:find_path(e.sx, e.sy, e.gx, e.gy, HEAP) or {}
    local p2 = grid:find_path(e.sx, e.sy, e.gx, e.gy,
                              { algorithm = "astar", stats = stats }) or {}
    if stats.expanded > 0 and stats.open_list ~= "bucket" then
      error("the bucket queue did not run")
    end
    local same = #p1 == #p2
    for i = 1, #p1 do
      if not same then break end
      same = p1[i] == p2[i]
    end
    if not same then diff = diff + 1 end
  end
  local name = path:match("([^/\\]+)%.map%.scen$") or path
  print(fmt("%-22s %7d %10.1f %10.1f %6.3f %10.1f %10.1f %9d %9d", name, n,
            best.heap / n * 1e6, best.bucket / n * 1e6,
            best.bucket / best.heap, exp.heap / n, exp.bucket / n, diff, miss))
  io.stdout:flush()
end
os.exit(bad and 1 or 0)
