-- Every search mode on every dev map, in one table (issue 19): mean µs per
-- query through Lua and on the C core alone, mean expansions, the
-- preprocessing it needs (ms) and the bytes per tile that preprocessing
-- holds.  Rows:
--   astar_heap   A* on the binary heap (open_list = "heap"), as it ran before
--                the bucket queue
--   astar        A* as find_path runs it today (the bucket queue)
--   jps          jump point search (algorithm = "jps")
--   subgoal      a plain find_path after grid:prepare("subgoal", nil, "always")
--   jps_plus     a plain find_path after grid:prepare("subgoal", nil, "jumps")
--   subgoal_corners, jps_plus_corners   the same two with path = "corners"
--                (the path's turns only, as GPPC entries return waypoints)
--   landmarks    A* after grid:prepare("landmarks", 8), the map's own costs
--   w:astar      the map with weights 1..3 (bench/landmarks.lua's seed), A*
--   w:landmarks  the same with 8 landmarks
-- The Lua modes of one map alternate round by round in one process (the
-- order rotating), fastest round of each; the C figures come from
-- build/bench/cdriver run on the same scenarios (no C driver for landmarks:
-- "-").  Uniform rows are checked against the scenarios' optimal lengths,
-- weighted rows against each other; a mismatch is printed and makes the
-- exit status 1.
--
--   lua5.4 bench/modes.lua [--every N] [--rounds N] [--no-c] [FILE.map.scen ...]
--   (default: every 10th scenario of brc202d, maze512-4-0, 32room_000 and
--   Berlin_0_512 in ../shared/maps; 3 rounds)

local script = (arg and arg[0]) or "bench/modes.lua"
local root = script:match("^(.-)bench[/\\][^/\\]*$") or ""
local ver = jit and "jit" or (_VERSION:match("(%d+%.%d+)") or "?")
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua"
package.cpath = root .. "build/" .. ver .. "/?.so"

local function die(msg)
  io.stderr:write("modes.lua: ", msg, "\n")
  os.exit(2)
end

local ok, astar = pcall(require, "astar")
if not ok then die("cannot load astar: run `make` first\n" .. astar) end
local movingai = require("astar.movingai")
local fmt = string.format

local every, rounds, with_c, files = 10, 3, true, {}
do
  local i = 1
  while arg and arg[i] do
    local a = arg[i]
    if a == "--every" or a == "--rounds" then
      local n = tonumber(arg[i + 1])
      if not n or n < 1 or n % 1 ~= 0 then die(a .. " needs a positive integer") end
      if a == "--every" then every = n else rounds = n end
      i = i + 2
    elseif a == "--no-c" then
      with_c, i = false, i + 1
    elseif a:sub(1, 1) == "-" then
      die("unknown option " .. a)
    else
      files[#files + 1] = a
      i = i + 1
    end
  end
end
if #files == 0 then
  for _, m in ipairs({ "brc202d", "maze512-4-0", "32room_000", "Berlin_0_512" }) do
    files[#files + 1] = root .. "../shared/maps/" .. m .. ".map.scen"
  end
end

local clock = os.clock
local cdriver = root .. "build/bench/cdriver"

-- C figures: mean µs per query by algorithm name, from the C driver
local function c_figures(file)
  local found = {}
  if not with_c then return found end
  local p = io.popen(fmt("'%s' --algorithm astar_heap,astar,jps,subgoal,jps_plus,"
    .. "subgoal_corners,jps_plus_corners "
    .. "--every %d --repeat %d '%s' 2>/dev/null", cdriver, every, rounds, file))
  if not p then return found end
  for line in p:lines() do
    local alg, us = line:match("algorithm=(%S+).-mean_us=([%d.]+)")
    if alg and not line:match("^TOTAL") then found[alg] = tonumber(us) end
  end
  p:close()
  return found
end

-- Times every mode of `modes` on the scenarios, alternating round by round.
-- A mode: {name, grid, options, stats}; fills mode.us, mode.exp, mode.cost.
local function run_modes(modes, S)
  for _, m in ipairs(modes) do -- untimed first query: scratch allocation
    local q = S[1]
    m.out = {} -- one reused path table per mode
    m.grid:find_path(q.sx, q.sy, q.gx, q.gy, m.options, m.out)
    m.best, m.cost = math.huge, {}
  end
  for r = 1, rounds do
    for j = 1, #modes do
      local m = modes[(j + r - 2) % #modes + 1]
      local g, o, st, cost, out = m.grid, m.options, m.options.stats,
                                  m.cost, m.out
      local exp, t0 = 0, clock()
      for k = 1, #S do
        local q = S[k]
        local p, c = g:find_path(q.sx, q.sy, q.gx, q.gy, o, out)
        cost[k] = p and c or false
        exp = exp + st.expanded
        if m.expect and st.algorithm ~= m.expect then
          die(fmt("%s: mode %s ran %s", m.map, m.name, tostring(st.algorithm)))
        end
        if m.heuristic and st.heuristic == m.heuristic then
          m.used = (m.used or 0) + 1 -- counted over every round
        end
      end
      local t = clock() - t0
      if t < m.best then m.best = t end
      m.exp = exp / #S
    end
  end
  for _, m in ipairs(modes) do m.us = m.best / #S * 1e6 end
end

local failed = false
print(fmt("# %s; every %d-th scenario, %d rounds, fastest round; C: %s",
  jit and jit.version or _VERSION, every, rounds,
  with_c and "build/bench/cdriver" or "not run"))
print("| map | mode | C µs | Lua µs | expansions | prep ms | B/tile held | off |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")

for _, file in ipairs(files) do
  local name = file:match("([^/\\]+)%.map%.scen$") or file
  local entries, err = movingai.read_scenarios(file)
  if not entries then die(err) end
  local map_path = assert(movingai.map_path_for(file, entries[1]))
  local S = {}
  for k = 1, #entries, every do S[#S + 1] = entries[k] end

  local g = assert(astar.load_movingai(map_path))
  local wg = assert(astar.load_movingai(map_path))
  local jg = assert(astar.load_movingai(map_path))
  local w, h = g:size()
  local tiles = w * h
  local seed = 777
  for y = 1, h do
    for x = 1, w do
      seed = (seed * 16807) % 2147483647
      if not wg:is_blocked(x, y) then wg:set_cost(x, y, 1 + seed % 3) end
    end
  end
  local sg = g:prepare("subgoal", nil, "always")
  local lm = g:prepare("landmarks", 8)
  local jt = jg:prepare("subgoal", nil, "jumps")
  local wlm = wg:prepare("landmarks", 8)

  local function mode(mname, grid, options, extra)
    options.stats = {}
    local m = { name = mname, grid = grid, options = options, map = name }
    for k, v in pairs(extra or {}) do m[k] = v end
    return m
  end
  local modes = {
    mode("astar_heap", g, { algorithm = "astar", open_list = "heap", landmarks = false }),
    mode("astar", g, { algorithm = "astar", landmarks = false }),
    mode("jps", g, { algorithm = "jps" }),
    mode("subgoal", g, {}, { expect = "subgoal", prep = sg }),
    mode("jps_plus", jg, {}, { expect = "jps_plus", prep = jt }),
    mode("subgoal_corners", g, { path = "corners" },
         { expect = "subgoal", prep = sg }),
    mode("jps_plus_corners", jg, { path = "corners" },
         { expect = "jps_plus", prep = jt }),
    mode("landmarks", g, { algorithm = "astar" }, { heuristic = "landmarks", prep = lm }),
    mode("w:astar", wg, { algorithm = "astar", landmarks = false }, { weighted = true }),
    mode("w:landmarks", wg, { algorithm = "astar" },
         { weighted = true, heuristic = "landmarks", prep = wlm }),
  }
  run_modes(modes, S)
  local C = c_figures(file)

  local reference = modes[9].cost -- w:astar, the weighted rows' reference
  for _, m in ipairs(modes) do
    local off = 0
    for k = 1, #S do
      local c = m.cost[k]
      if m.weighted then
        local r = reference[k]
        if c ~= r and not (c and r and math.abs(c - r) <= 1e-9 * r) then off = off + 1 end
      elseif not c or math.abs(c - S[k].length) > movingai.tolerance(S[k].length_text) then
        off = off + 1
      end
    end
    if off > 0 then failed = true end
    local c_us = C[m.name]
    print(fmt("| %s | %s | %s | %.1f | %.0f | %s | %s | %d |", name, m.name,
      c_us and fmt("%.1f", c_us) or "-", m.us, m.exp,
      m.prep and fmt("%.1f", m.prep.ms) or "-",
      m.prep and fmt("%.2f", m.prep.bytes / tiles) or "-", off))
    if m.heuristic and (m.used or 0) < rounds * #S then
      -- landmarks are skipped where they cannot help (docs/api.md)
      print(fmt("  (%s: landmarks read in %d of %d queries)", m.name,
                math.floor((m.used or 0) / rounds), #S))
    end
    io.stdout:flush()
  end
  g:close()
  wg:close()
  jg:close()
end
os.exit(failed and 1 or 0)
