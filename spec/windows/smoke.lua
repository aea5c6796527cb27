-- Smoke spec of a shipped binary, in plain Lua with TAP output (no busted:
-- it runs where busted does not, e.g. the Windows luajit.exe under Wine).
--
--   wine build/win64/luajit.exe spec/windows/smoke.lua 'build/win64/?.dll'
--   luajit spec/windows/smoke.lua 'build/jit/?.so'        (the same here)
--
-- From the repository root.  Grids of every kind, every algorithm against
-- the reference Dijkstra of spec/helpers.lua, terrain and unit classes,
-- zones, hex, callbacks and their errors, a MovingAI map (and its
-- scenarios when ../shared/maps is there; ASTAR_REQUIRE_MAPS=1 makes their
-- absence a failure), bad input with the messages of every other platform.
local cpath = arg and arg[1] or "build/jit/?.so"
package.path = "lua/?.lua;lua/?/init.lua;spec/?.lua;" .. package.path
package.cpath = cpath .. ";" .. package.cpath

local n, failed = 0, 0
local function test(name, fn)
  n = n + 1
  local ok, err = pcall(fn)
  if ok then
    print(("ok %d - %s"):format(n, name))
  else
    failed = failed + 1
    print(("not ok %d - %s"):format(n, name))
    for line in (tostring(err) .. "\n"):gmatch("([^\n]*)\n") do
      print("#   " .. line)
    end
  end
end

local function eq(want, got, what)
  if want ~= got then
    error(("%s: expected %s, got %s"):format(what or "value", tostring(want),
      tostring(got)), 2)
  end
end

local function near(want, got, what)
  if type(got) ~= "number" or math.abs(want - got) > 1e-9 * (1 + math.abs(want)) then
    error(("%s: expected %.9g, got %s"):format(what or "cost", want,
      tostring(got)), 2)
  end
end

-- the message an error carries, without the "file:line: " in front
local function err_of(f, ...)
  local ok, err = pcall(f, ...)
  if ok then error("expected an error", 2) end
  err = tostring(err)
  if err:sub(1, 13) ~= "bad argument " then
    err = err:match("^[^\n]-:%d+: (.*)$") or err
  end
  return err
end

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end

local astar, helpers

test("require('astar') loads the binary from " .. cpath, function()
  astar = require("astar")
  helpers = require("helpers")
  eq("string", type(astar.version), "astar.version")
  local ext = cpath:match("%.(%w+)$")
  if package.searchpath then
    local found = package.searchpath("astar.core", package.cpath)
    eq(ext, found and found:match("%.(%w+)$"), "the module's file "
      .. tostring(found))
  end
  print("# astar " .. astar.version .. " on " .. (jit and jit.version or _VERSION)
    .. (jit and (" " .. jit.os .. " " .. jit.arch) or ""))
end)
if not astar then
  print("1.." .. n)
  os.exit(1)
end

local MAP = [[
..........
..####....
.....#....
..22.#....
.....#....]]

test("grids: new, from_string, from_table, tostring, size, edits", function()
  local g = astar.new(12, 7)
  eq(12, (g:size()), "width")
  eq(7, g:height(), "height")
  g:set_cost(3, 4, 2.5)
  near(2.5, g:get_cost(3, 4))
  g:set_blocked(5, 5)
  eq(true, g:is_blocked(5, 5))
  g:fill_rect(1, 1, 2, 2, false)
  eq(false, g:get_cost(2, 2), "blocked tile")
  local s = astar.from_string(MAP)
  eq(MAP, tostring(s), "tostring round trip")
  local t = astar.from_table({ { 1, 1, false }, { 1, 5, 1 } })
  eq("..#\n.5.", tostring(t), "from_table")
  local v = g:version()
  g:fill(function(x, y, c) return c and x % 3 + 1 or false end)
  if not (g:version() > v) then error("version did not grow") end
  near(3, g:get_cost(2, 3))
  if g:memory() < 12 * 7 then error("memory " .. g:memory()) end
  g:close()
  g:close()
  eq(true, g:is_closed())
  eq("size: the grid is closed", err_of(g.size, g))
end)

local ALGORITHMS = { "auto", "astar", "jps", "dijkstra", "bfs", "greedy",
  "weighted", "beam", "ida", "bidirectional", "bidirectional_bfs" }
local OPTIMAL = { auto = true, astar = true, jps = true, dijkstra = true,
  beam = true, ida = true, bidirectional = true }

do
  local uniform = MAP:gsub("2", ".")
  local g = astar.from_string(uniform)
  local desc = helpers.desc_from_text(uniform)
  local ref = helpers.dijkstra(desc, 2, 5, 9, 4)
  for _, a in ipairs(ALGORITHMS) do
    test("algorithm '" .. a .. "' against the reference", function()
      local stats = {}
      local path, cost = g:find_path(2, 5, 9, 4, { algorithm = a,
        stats = stats })
      if not path then error(a .. ": " .. tostring(cost)) end
      helpers.check_path(desc, path, 2, 5, 9, 4)
      if OPTIMAL[a] then near(ref, cost, a) end
      if cost < ref - 1e-9 then error(a .. " beat the optimum") end
      eq(a == "auto" and "jps" or a, stats.algorithm, "stats.algorithm")
    end)
  end
end

test("weighted costs: A* and Dijkstra optimal, JPS refused", function()
  local g = astar.from_string(MAP)
  local ref = helpers.dijkstra(helpers.desc_from_text(MAP), 1, 4, 9, 4)
  near(ref, select(2, g:find_path(1, 4, 9, 4)), "auto")
  near(ref, select(2, g:find_path(1, 4, 9, 4, { algorithm = "dijkstra" })))
  eq("bad argument #6 to 'find_path' (algorithm 'jps' needs uniform tile "
    .. "costs)", err_of(g.find_path, g, 1, 4, 9, 4, { algorithm = "jps" }))
  local x, y, c = g:next_step(1, 4, 9, 4)
  eq(true, x ~= nil and y ~= nil, "next_step")
  near(ref, c, "next_step cost")
end)

test("results: no_path, blocked goal, cutoff, closest, goals, out", function()
  local g = astar.from_string("..#..\n..#..\n..#..")
  local p, why, expanded = g:find_path(1, 1, 5, 1)
  eq(nil, p)
  eq("no_path", why)
  eq(0, expanded, "zones answer at once")
  eq("goal_blocked", select(2, g:find_path(1, 1, 3, 1)))
  eq("cutoff", select(2, astar.new(20, 20):find_path(1, 1, 20, 20,
    { max_nodes = 3, algorithm = "astar" })))
  local part, _, _, reason = g:find_path(1, 1, 5, 3, { closest = true })
  eq("no_path", reason)
  eq(2, part[#part - 1], "closest x")
  local out = { 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9 }
  local open = astar.new(5, 1)
  local q = open:find_path(1, 1, 3, 1, nil, out)
  eq(out, q, "out table reused")
  eq(6, #out, "out cleared past the path")
  local stats = {}
  open:find_path(1, 1, nil, nil, { goals = { 5, 1, 2, 1 }, stats = stats })
  eq(2, stats.goal, "nearest of the goals")
end)

test("terrain, unit classes and heights", function()
  local g = astar.from_string("..~~~..\n..~~~..\n.,,,,,.",
    { ["."] = "grass", ["~"] = "water", [","] = "bush" },
    { terrains = { "grass", "water", "bush" } })
  g:set_unit("walker", { water = false, bush = 3 })
  g:set_unit("boat", { water = 1, ["*"] = false })
  eq("water", g:get_terrain(3, 1))
  eq(false, g:get_cost(3, 1, "walker"))
  local walker = { ["."] = 1, ["~"] = false, [","] = 3 }
  local rows = { "..~~~..", "..~~~..", ".,,,,,." }
  local desc = helpers.describe(7, 3, {}, {})
  desc.cost = function(x, y) return walker[rows[y]:sub(x, x)] end
  local _, cost = g:find_path(1, 1, 7, 1, { unit = "walker" })
  near(helpers.dijkstra(desc, 1, 1, 7, 1), cost, "walker around the water")
  eq("start_blocked", select(2, g:find_path(1, 1, 7, 1, { unit = "boat" })))
  near(2, select(2, g:find_path(3, 1, 5, 1, { unit = "boat" })), "boat")
  local h = astar.new(5, 1)
  h:set_height(3, 1, 4)
  h:set_unit("climber", {}, { climb = 1, descend = 0.5 })
  near(4 + 4 + 2, select(2, h:find_path(1, 1, 5, 1, { unit = "climber" })))
  h:set_unit("low", {}, { max_climb = 1 })
  eq("no_path", select(2, h:find_path(1, 1, 5, 1, { unit = "low",
    zones = false })))
end)

test("zones", function()
  local g = astar.from_string("..#..\n..#..\n#####\n.....")
  eq(3, g:zone_count())
  eq(true, g:connected(1, 1, 2, 2))
  eq(false, g:connected(1, 1, 4, 1))
  eq(0, g:zone(3, 1))
  eq(5, g:zone_size(g:zone(1, 4)))
  g:set_cost(3, 2, 1)
  eq(true, g:connected(1, 1, 5, 1), "an opened wall merges")
end)

test("hex grids and astar.hex", function()
  local m = astar.hex.map("odd-r", 8, 6)
  local grid = m:new_grid()
  local sx, sy = m:to_grid(1, 1)
  local gx, gy = m:to_grid(8, 6)
  local path, cost = grid:find_path(sx, sy, gx, gy)
  near(10, cost, "hex cost")
  local off = m:path_to_offset(path)
  eq(8, off[#off - 1])
  eq(10, astar.hex.distance(sx, sy, gx, gy))
end)

test("callbacks, their errors and a busy grid", function()
  local g = astar.new(6, 6)
  local calls = 0
  local _, cost = g:find_path(1, 1, 6, 1, { tile_cost = function(x, y, c)
    calls = calls + 1
    return y == 1 and 2 or c
  end, algorithm = "astar" })
  near(3 + 3 * math.sqrt(2), cost, "tile_cost (row 1 costs 2)")
  if calls == 0 then error("tile_cost never called") end
  local boom = setmetatable({}, { __tostring = function() return "boom" end })
  local ok, err = pcall(g.find_path, g, 1, 1, 6, 6,
    { tile_cost = function() error(boom) end })
  eq(false, ok)
  eq(boom, err, "the callback's own error value")
  eq("set_cost: the grid is busy with a search (called from inside a "
    .. "search on the same grid)", err_of(g.find_path, g, 1, 1, 6, 6,
    { tile_cost = function() g:set_cost(1, 1, 1) end }))
  near(5 * math.sqrt(2), select(2, g:find_path(1, 1, 6, 6)), "usable after")
  local seen = {}
  g:find_path(1, 1, 6, 6, { algorithm = "dijkstra", explored = seen })
  if #seen < 2 or #seen % 2 ~= 0 then error("explored: " .. #seen) end
end)

test("a MovingAI map: load_movingai and parse_movingai agree with the "
  .. "reference", function()
  local g = assert(astar.load_movingai("examples/maps/arena.map"))
  local p = assert(astar.parse_movingai(read("examples/maps/arena.map")))
  eq(tostring(g), tostring(p), "the same map")
  local desc = helpers.desc_of_grid(g)
  for _, q in ipairs({ { 4, 4, 46, 46 }, { 10, 40, 40, 10 }, { 2, 25, 48, 25 } }) do
    if not g:is_blocked(q[1], q[2]) and not g:is_blocked(q[3], q[4]) then
      local ref = helpers.dijkstra(desc, q[1], q[2], q[3], q[4])
      for _, a in ipairs({ "astar", "jps", "bidirectional" }) do
        local _, c = g:find_path(q[1], q[2], q[3], q[4], { algorithm = a })
        if ref then near(ref, c, a) else eq(nil, c, a) end
      end
    end
  end
  local missing, err = astar.load_movingai("no/such.map")
  eq(nil, missing)
  eq("string", type(err))
end)

local maps = helpers.maps_dir()
if maps or os.getenv("ASTAR_REQUIRE_MAPS") == "1" then
  test("MovingAI scenarios of arena.map: optimal lengths", function()
    if not maps then error("../shared/maps not found (ASTAR_REQUIRE_MAPS=1)") end
    local g = assert(astar.load_movingai(maps .. "/arena.map"))
    local list = assert(astar.read_scenarios(maps .. "/arena.map.scen"))
    local tol = require("astar.movingai").tolerance
    local count = 0
    for i = 1, #list, 4 do
      local s = list[i]
      for _, a in ipairs({ "astar", "jps" }) do
        local _, c = g:find_path(s.sx, s.sy, s.gx, s.gy, { algorithm = a })
        if math.abs(c - s.length) > tol(s.length_text) then
          error(("scenario %d (%s): %s, expected %s"):format(i, a,
            tostring(c), s.length_text))
        end
      end
      count = count + 1
    end
    print("# " .. count .. " scenarios")
  end)
else
  print("# ../shared/maps not found: MovingAI scenarios skipped")
end

do
  local g = astar.new(10, 5)
  local cases = {
    { "bad argument #1 to 'new' (width out of range 1..65534, got 0)",
      astar.new, 0, 5 },
    { "bad argument #1 to 'new' (width out of range 1..65534, got 1e+20)",
      astar.new, 1e20, 5 },
    { "bad argument #2 to 'get_cost' (x must be an integer, got 1.5)",
      g.get_cost, g, 1.5, 1 },
    { "bad argument #2 to 'get_cost' (x out of range 1..10, got 11)",
      g.get_cost, g, 11, 1 },
    { "bad argument #4 to 'set_cost' (cost must be a positive finite number "
      .. "or false, got 0)", g.set_cost, g, 1, 1, 0 },
    { "bad argument #6 to 'find_path' (unknown option 'wieght')",
      g.find_path, g, 1, 1, 2, 2, { wieght = 2 } },
    { "bad argument #6 to 'find_path' (max_nodes must be an integer in [1, "
      .. "2147483647], got 0)", g.find_path, g, 1, 1, 2, 2, { max_nodes = 0 } },
    { "bad argument #6 to 'find_path' (weight must be a number in [1, "
      .. "1e+09], got 1e+300)", g.find_path, g, 1, 1, 2, 2, { weight = 1e300 } },
    { "bad argument #1 to 'render' (grid expected, got 'text')",
      astar.render, "text" },
    { "bad argument #1 to 'from_string' (line 2 has 3 characters, expected 2)",
      astar.from_string, "..\n...\n" },
  }
  for _, c in ipairs(cases) do
    test("bad input: " .. c[1], function()
      eq(c[1], err_of(select(2, unpack(c))), "message")
    end)
  end
  test("bad input leaves the grid as it was", function()
    eq(("..........\n"):rep(4) .. "..........", tostring(g), "the grid")
    near(9 + 4 * math.sqrt(2) - 4, select(2, g:find_path(1, 1, 10, 5)))
  end)
end

print("1.." .. n)
os.exit(failed == 0 and 0 or 1)
