-- Prepared static maps: JPS against the subgoal graph and the jump table
-- (grid:prepare), on every scenario of every MovingAI map, through the Lua
-- API.
--
--   lua5.4 bench/static.lua [--rounds N] [--every N] [DIR|FILE.map.scen ...]
--   (default: ../shared/maps)
--
-- Per map: preprocessing ms and bytes per tile of the graph (mode
-- "always") and of the jump table (mode "jumps"), subgoals, then for each
-- mode the mean µs per query (fastest of the rounds; the modes alternate
-- round by round in the same process) and the mean expansions.  "jps" is
-- find_path with algorithm = "jps" (what a plain find_path ran before
-- prepare), "sub" a plain find_path with the graph, "plus" one with the
-- jump table (JPS+); "sub_c" and "plus_c" the same queries with
-- path = "corners" (only the path's turns come back, as GPPC entries and
-- Warthog return waypoints: the like-for-like figure with them); "auto"
-- what prepare's default mode keeps on the map, "ratio" its time over
-- JPS's, "auto_c" its µs per query with corners.
-- "short_jps" and "short_sub": 1,000 short queries per map (start and
-- goal open, at most 64 tiles apart on each axis, drawn by a fixed
-- generator), plain JPS (algorithm = "jps") against a plain find_path
-- on the graph (which tries JPS first where prepare's jps_first says so),
-- alternating in the same process; their costs must agree.
-- "sliced_jps" and "sliced_sub": the same short queries as query objects
-- (grid:query, stepped in slices of 10 expansions, as a pathfinder or a
-- frame budget runs them), plain JPS against the graph's grid (which
-- probes with JPS too since session 16), in the same rounds.
-- Every cost is checked against the scenario's optimal length: a mismatch
-- is printed and makes the exit status 1.

local script = (arg and arg[0]) or "bench/static.lua"
local root = script:match("^(.-)bench[/\\][^/\\]*$") or ""
local ver = jit and "jit" or (_VERSION:match("(%d+%.%d+)") or "?")
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua"
package.cpath = root .. "build/" .. ver .. "/?.so"

local astar = require("astar")
local movingai = require("astar.movingai")
local fmt = string.format

local rounds, every, inputs = 5, 1, {}
do
  local i = 1
  while arg and i <= #arg do
    local a = arg[i]
    if a == "--rounds" then
      i = i + 1
      rounds = assert(tonumber(arg[i]), "--rounds N")
    elseif a == "--every" then
      i = i + 1
      every = assert(tonumber(arg[i]), "--every N")
    else
      inputs[#inputs + 1] = a
    end
    i = i + 1
  end
end
if #inputs == 0 then inputs[1] = root .. "../shared/maps" end

local files = {}
for _, p in ipairs(inputs) do
  if p:match("%.scen$") then
    files[#files + 1] = p
  else
    local h = io.popen("ls -1 '" .. p .. "'")
    local names = {}
    for n in h:lines() do
      if n:match("%.map%.scen$") then names[#names + 1] = p .. "/" .. n end
    end
    h:close()
    table.sort(names)
    for _, n in ipairs(names) do files[#files + 1] = n end
  end
end

local clock = os.clock
-- mode name, the grid it runs on (1: prepared with the graph, 2: with the
-- jump table), find_path options
local MODES = { { "jps", 2, { algorithm = "jps" } }, { "subgoal", 1, nil },
                { "jps_plus", 2, nil },
                { "subgoal_corners", 1, { path = "corners" } },
                { "jps_plus_corners", 2, { path = "corners" } } }
local bad = false

print(fmt("# %s; %d rounds, modes alternate round by round; every %d",
  jit and jit.version or _VERSION, rounds, every))
print(fmt("%-16s %8s %6s %8s %6s %8s %8s %7s %8s %7s %8s %7s %8s %8s %8s %6s %8s %9s %9s %10s %10s",
  "map", "graph_ms", "B/tile", "jumps_ms", "B/tile", "subgoals", "jps_us",
  "jps_exp", "sub_us", "sub_exp", "plus_us", "plus_ex", "sub_c", "plus_c",
  "auto", "ratio", "auto_c", "short_jps", "short_sub", "sliced_jps",
  "sliced_sub"))

-- n short queries on grid (start and goal open, at most 64 tiles apart
-- on each axis), from a fixed generator (Park-Miller): the same on every
-- runtime
local function short_queries(grid, n)
  local w, h = grid:size()
  local state, list = 12345, {}
  local function int(lo, hi)
    state = (state * 16807) % 2147483647
    return lo + state % (hi - lo + 1)
  end
  while #list < n do
    local sx, sy = int(1, w), int(1, h)
    local gx, gy = sx + int(-64, 64), sy + int(-64, 64)
    if gx >= 1 and gy >= 1 and gx <= w and gy <= h
       and not grid:is_blocked(sx, sy) and not grid:is_blocked(gx, gy) then
      list[#list + 1] = { sx, sy, gx, gy }
    end
  end
  return list
end

-- the best of three builds: ms and the figures table
local function build(grid, mode)
  local best, info = math.huge, nil
  for _ = 1, 3 do
    info = grid:prepare("subgoal", nil, mode)
    if info.ms < best then best = info.ms end
  end
  return best, info
end

for _, path in ipairs(files) do
  local name = path:match("([^/\\]+)%.map%.scen$") or path
  local entries = assert(movingai.read_scenarios(path))
  local map_path = assert(movingai.map_path_for(path, entries[1]))
  local grids = { assert(astar.load_movingai(map_path)),
                  assert(astar.load_movingai(map_path)) }
  local w, h = grids[1]:size()
  local S = {}
  for k = 1, #entries, every do S[#S + 1] = entries[k] end
  local n = #S
  local gms, ginfo = build(grids[1], "always")
  local jms, jinfo = build(grids[2], "jumps")
  local best, exp = {}, {}
  for m = 1, #MODES do best[m], exp[m] = math.huge, 0 end
  local outs = {} -- one reused path table per mode
  for m = 1, #MODES do
    outs[m] = {}
    grids[MODES[m][2]]:find_path(S[1].sx, S[1].sy, S[1].gx, S[1].gy,
                                 MODES[m][3], outs[m])
  end
  for r = 1, rounds do
    for m = 1, #MODES do
      local grid, opts, out = grids[MODES[m][2]], MODES[m][3], outs[m]
      local e, mism = 0, 0
      collectgarbage()
      local t0 = clock()
      for k = 1, n do
        local s = S[k]
        local p, cost, ex = grid:find_path(s.sx, s.sy, s.gx, s.gy, opts, out)
        e = e + (ex or 0)
        if r == 1 and (not p or math.abs(cost - s.length) > movingai.tolerance(s.length_text)) then
          mism = mism + 1
          if mism <= 3 then
            io.stderr:write(fmt("MISMATCH %s %s (%d,%d)->(%d,%d): expected %s got %s\n",
              name, MODES[m][1], s.sx, s.sy, s.gx, s.gy, s.length_text, tostring(cost)))
          end
        end
      end
      local t = clock() - t0
      if mism > 0 then bad = true end
      if t < best[m] then best[m] = t end
      exp[m] = e / n
    end
  end
  -- short queries: plain JPS (by name, on the jump table's grid, as the
  -- "jps" mode), the graph's grid
  local plain = grids[2]
  local Q = short_queries(plain, 1000)
  local short = { math.huge, math.huge, math.huge, math.huge }
  local jps_opts = { algorithm = "jps" }
  -- the pairs swap places round by round: whichever of a pair runs
  -- second was measured up to a fifth slower in its slices (the other's
  -- garbage), so each gets both places and the fastest round counts
  local orders = { { 1, 2, 3, 4 }, { 2, 1, 4, 3 } }
  for r = 1, rounds do
    for _, m in ipairs(orders[(r - 1) % 2 + 1]) do
      local grid = m % 2 == 1 and plain or grids[1]
      local opts = m % 2 == 1 and jps_opts or nil
      local out = outs[1]
      collectgarbage()
      local t0 = clock()
      if m <= 2 then
        for k = 1, #Q do
          local q = Q[k]
          local _, cost = grid:find_path(q[1], q[2], q[3], q[4], opts, out)
          if r == 1 then Q[k][4 + m] = cost end
        end
      else -- query objects in slices of 10
        for k = 1, #Q do
          local q = Q[k]
          local o = grid:query(q[1], q[2], q[3], q[4], opts)
          while o:step(10) == "running" do end
          local _, cost = o:result(out)
          o:close()
          if r == 1 then Q[k][4 + m] = cost end
        end
      end
      local t = clock() - t0
      if t < short[m] then short[m] = t end
    end
  end
  for k = 1, #Q do
    local a = Q[k][5]
    for m = 2, 4 do
      local b = Q[k][4 + m]
      if a ~= b and not (type(a) == "number" and type(b) == "number"
                         and math.abs(a - b) <= 1e-9 * math.max(1, a)) then
        bad = true
        io.stderr:write(fmt("MISMATCH %s short %d (%d,%d)->(%d,%d): %s / %s\n",
          name, m, Q[k][1], Q[k][2], Q[k][3], Q[k][4], tostring(a),
          tostring(b)))
      end
    end
  end
  -- what prepare's default ("auto") keeps on this map
  local auto = grids[1]:prepare("subgoal").algorithm
  local chosen = auto == "subgoal" and best[2] or best[3]
  local chosen_c = auto == "subgoal" and best[4] or best[5]
  print(fmt("%-16s %8.2f %6.2f %8.2f %6.2f %8s %8.2f %7.1f %8.2f %7.1f %8.2f %7.1f %8.2f %8.2f %8s %6.3f %8.2f %9.2f %9.2f %10.2f %10.2f",
    name, gms, ginfo.bytes / (w * h), jms, jinfo.bytes / (w * h),
    ginfo.subgoals or "-", best[1] / n * 1e6, exp[1], best[2] / n * 1e6,
    exp[2], best[3] / n * 1e6, exp[3], best[4] / n * 1e6, best[5] / n * 1e6,
    auto, chosen / best[1], chosen_c / n * 1e6, short[1] / #Q * 1e6,
    short[2] / #Q * 1e6, short[3] / #Q * 1e6, short[4] / #Q * 1e6))
  io.stdout:flush()
  grids[1]:close()
  grids[2]:close()
end
os.exit(bad and 1 or 0)
