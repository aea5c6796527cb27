-- Run by spec/c/oom_host.c (Lua 5.4) with an allocator that fails at the
-- N-th allocation.  It exercises every entry point of the module; the host
-- checks that whatever fails surfaces as "not enough memory" and that
-- nothing leaks.  Each part runs in `part(name, f)`: when an allocation
-- fails inside it, the error is re-raised unchanged (so the host sees it),
-- but first, in "once" mode (only one allocation fails, later ones
-- succeed), every grid made before the failure must still work exactly as
-- it did.  A failed check raises "OOM-CHECK FAILED: ...".
--
-- OOM_MODE ("once" or "from") and OOM_SECTION are globals the host sets.

local MODE = OOM_MODE

local made = {}      -- grids made so far and what they answered then
local nmade = 0

local function fail(msg)
  error("OOM-CHECK FAILED: " .. msg, 0)
end

-- Each grid in `made` still answers its recorded query with the recorded
-- path and cost, and still prints the same.
local function check_made(after)
  for i = 1, nmade do
    local m = made[i]
    local ok, path, cost = pcall(m.grid.find_path, m.grid, m.q[1], m.q[2],
                                 m.q[3], m.q[4])
    if not ok then
      fail(m.name .. " after a failure in " .. after .. ": " .. tostring(path))
    end
    if cost ~= m.cost or #path ~= #m.path then
      fail(m.name .. " after a failure in " .. after .. ": cost " ..
           tostring(cost) .. ", expected " .. tostring(m.cost))
    end
    for k = 1, #path do
      if path[k] ~= m.path[k] then
        fail(m.name .. " after a failure in " .. after .. ": path differs")
      end
    end
    if tostring(m.grid) ~= m.text then
      fail(m.name .. " after a failure in " .. after .. ": tostring differs")
    end
  end
end

-- Grids a part is working on when an allocation fails: in "once" mode
-- each must still search (not stuck "busy", not half-made).
local live = {}
local function track(g)
  live[#live + 1] = g
  return g
end

local function check_live(after)
  for i = 1, #live do
    local g = live[i]
    local w, h = g:size()
    local ok, err = pcall(g.find_path, g, 1, 1, w, h)
    if not ok then
      fail("a grid in use when " .. after .. " failed: " .. tostring(err))
    end
  end
end

-- Runs f.  A memory error is re-raised as it is (after the recovery check
-- in "once" mode); any other error is a violation, which the host reports
-- because its message lacks "not enough memory".
local function part(name, f)
  OOM_SECTION = name
  local ok, err = pcall(f)
  if ok then return end
  if MODE == "once" and type(err) == "string"
      and err:find("not enough memory", 1, true) then
    check_made(name)
    check_live(name)
  end
  live = {}
  error(err, 0)
end

-- Records a grid and its answer to one query, for check_made.
local function remember(name, grid, sx, sy, gx, gy)
  local path, cost = grid:find_path(sx, sy, gx, gy)
  if not path then fail(name .. ": no path") end
  local entry = { name = name, grid = grid, q = { sx, sy, gx, gy },
                  path = path, cost = cost, text = tostring(grid) }
  made[nmade + 1] = entry -- may fail: count it only once it is in
  nmade = nmade + 1
end

-- Calls f, which must raise a non-memory error containing `want`; a memory
-- error is passed on (formatting the message may be what failed).
local function must_raise(want, f, ...)
  local ok, err = pcall(f, ...)
  if ok then fail("expected an error containing '" .. want .. "'") end
  if type(err) == "string" and err:find("not enough memory", 1, true) then
    error(err, 0)
  end
  if type(err) ~= "string" or not err:find(want, 1, true) then
    fail("expected an error containing '" .. want .. "', got " ..
         tostring(err))
  end
end

local astar
part("require", function()
  astar = require("astar")
end)

local base
part("new", function()
  base = track(astar.new(12, 8))
  base:fill_rect(4, 2, 1, 6, false)
  base:set_cost(8, 4, 3)
  remember("base", base, 1, 1, 12, 8)
end)

part("new with options", function()
  local g = track(astar.new(20, 15, { diagonals = "always", cost = 2,
                                      cardinal = 2, diagonal = 3 }))
  remember("new with options", g, 1, 15, 20, 1)
  must_raise("width out of range", astar.new, 0, 3)
  must_raise("grid too large", astar.new, 65534, 65534)
  must_raise("unknown option", astar.new, 3, 3, { nope = 1 })
end)

local text = table.concat({
  "..........",
  ".####.~~..",
  ".#....~~..",
  ".#.####...",
  "..........",
}, "\n")

local sgrid
part("from_string", function()
  sgrid = track(astar.from_string(text,
    { ["."] = 1, ["#"] = false, ["~"] = 3 }, { diagonals = "one_free" }))
  remember("from_string", sgrid, 1, 1, 10, 5)
  local d = track(astar.from_string("..#\n...\n#..\n"))
  remember("from_string default legend", d, 1, 1, 3, 3)
  must_raise("not in the legend", astar.from_string, "..x\n...")
  must_raise("expected", astar.from_string, "...\n..")
end)

part("from_table", function()
  local g = track(astar.from_table({ { 1, 1, false, 1 }, { 1, 2, 1, 1 },
                               { 1, 1, 1, 5 } }, { diagonals = "never" }))
  remember("from_table", g, 1, 1, 4, 1)
  must_raise("row 2", astar.from_table, { { 1, 1 }, { 1 } })
end)

part("load", function()
  local g = track(astar.new(4, 3))
  g:load({ { 1, 1, 1, 1 }, { false, false, 1, false }, { 1, 1, 1, 1 } })
  g:load({ 1, 2, 3, 4, 1, false, false, 1, 1, 1, 1, 1 }) -- flat
  remember("load", g, 1, 1, 1, 3)
  must_raise("cost must be", g.load, g, { { 1, 1, 1, 1 }, { 1, "x", 1, 1 },
                                        { 1, 1, 1, 1 } })
end)

part("load_string", function()
  local g = track(astar.new(10, 5))
  g:load_string(text, { ["."] = 1, ["#"] = false, ["~"] = 2 })
  remember("load_string", g, 10, 5, 1, 1)
  must_raise("not in the legend", g.load_string, g, text)
end)

part("parse_movingai", function()
  local g = track(astar.parse_movingai(table.concat({
    "type octile", "height 4", "width 6", "map",
    "......", ".@@@T.", "..W...", "G.S...", "" }, "\n")))
  remember("parse_movingai", g, 1, 1, 6, 4)
  local bad, msg = astar.parse_movingai("type octile\nheight x\n")
  if bad ~= nil or type(msg) ~= "string" then fail("bad header accepted") end
  bad, msg = astar.parse_movingai(
    "type octile\nheight 2\nwidth 2\nmap\n..\n.?\n")
  if bad ~= nil or not msg:find("legend", 1, true) then
    fail("bad map accepted")
  end
end)

part("load_movingai", function()
  local g = track(assert(astar.load_movingai("examples/maps/arena.map")))
  remember("load_movingai", g, 4, 4, 45, 45)
end)

part("find_path", function()
  local g = track(astar.new(100, 100))
  g:fill_rect(5, 1, 1, 99, false)
  g:fill_rect(15, 2, 1, 99, false)
  -- Dijkstra order keeps a wide open list: the heap grows past its
  -- initial 256 entries (reallocs that can fail mid-search)
  local p, c = g:find_path(1, 1, 100, 100, { heuristic = "zero" })
  if not p then fail("find_path found nothing") end
  local p2, c2 = g:find_path(1, 1, 100, 100, { heuristic = "manhattan",
                                            weight = 1.5 })
  if not p2 or c2 < c then fail("weighted search") end
  local none, why = g:find_path(1, 1, 1, 1, nil)
  if not none then fail("start == goal") end
  remember("find_path", g, 1, 1, 100, 100)
  local walled = track(astar.new(6, 6))
  walled:fill_rect(1, 3, 6, 1, false)
  none, why = walled:find_path(1, 1, 6, 6)
  if none ~= nil or why ~= "no_path" then fail("expected no_path") end
  none, why = walled:find_path(1, 3, 6, 6)
  if none ~= nil or why ~= "start_blocked" then fail("expected start_blocked") end
end)

part("find_path with out", function()
  local g = track(astar.new(25, 4))
  local out = {}
  local p = g:find_path(1, 1, 25, 4, nil, out)
  if p ~= out or #out ~= 50 then fail("out not filled") end
  p = g:find_path(1, 1, 3, 1, {}, out)       -- shorter: the rest is cleared
  if p ~= out or #out ~= 6 or out[7] ~= nil then fail("out not cleared") end
  remember("find_path with out", g, 25, 4, 1, 1)
end)

part("find_path with explored", function()
  local g = track(astar.new(30, 20))
  g:fill_rect(10, 1, 1, 15, false)
  local seen, st = {}, {}
  local p = g:find_path(1, 1, 20, 1, { algorithm = "dijkstra",
    explored = seen, stats = st }, nil)
  if not p or #seen / 2 ~= st.expanded or #seen.open == 0 then
    fail("explored not filled")
  end
  g:find_path(1, 1, 2, 1, { explored = seen }) -- fewer: the rest is cleared
  if #seen / 2 > 4 or seen[9] ~= nil then fail("explored not cleared") end
  remember("find_path with explored", g, 1, 1, 30, 20)
end)

part("next_step", function()
  local x, y, c = base:next_step(1, 1, 12, 8)
  if not x or not y or not c then fail("next_step found nothing") end
  local g = track(astar.new(5, 5))
  g:fill_rect(1, 3, 5, 1, false)
  local none, why = g:next_step(1, 1, 5, 5)
  if none ~= nil or why ~= "no_path" then fail("next_step: expected no_path") end
end)

part("tostring", function()
  for i = 1, nmade do
    if tostring(made[i].grid) ~= made[i].text then fail("tostring differs") end
  end
  local big = track(astar.new(300, 40)) -- a buffer that grows several times
  if #tostring(big) ~= 300 * 40 + 39 then fail("tostring length") end
end)

part("set_movement and get_movement", function()
  local g = track(astar.from_string(text,
    { ["."] = 1, ["#"] = false, ["~"] = 3 }))
  g:set_movement({ diagonals = "always", cardinal = 2, diagonal = 3 })
  local m = g:get_movement()
  if m.diagonals ~= "always" or m.cardinal ~= 2 or m.diagonal ~= 3 then
    fail("get_movement")
  end
  must_raise("diagonals must be one of", g.set_movement, g,
             { diagonals = "sideways" })
  remember("set_movement", g, 1, 5, 10, 1)
end)

part("terrain, units, heights, callbacks", function()
  local g = track(astar.from_string(text,
    { ["."] = "grass", ["#"] = false, ["~"] = "water" },
    { terrains = { "grass", "water" } }))
  g:define_terrain("mud")
  g:set_terrain(3, 3, "mud")
  g:fill_terrain("mud", 9, 1, 2, 2)
  g:load_terrain({ { "grass", "grass", "grass", "grass", "grass", "grass",
                     "water", "water", "grass", "grass" },
                   { 0, 0, 0, 0, 0, 0, 1, 1, 0, 0 },
                   { 0, 0, 0, 0, 0, 0, 1, 1, 0, 0 },
                   { 0, 0, 0, 0, 0, 0, 0, 2, 0, 0 },
                   { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 } })
  g:load_terrain("0000000000\n0000001100\n0000001100\n0000000200\n0000000000")
  g:set_unit("walker", { water = false, mud = 3 })
  g:set_unit("boat", { water = 1, ["*"] = false })
  g:set_unit("goat", {}, { climb = 1, max_climb = 2 })
  g:load_heights("0123456789\n0000000000\n0000000000\n0000000000\n0000000000")
  g:set_height(1, 5, 3)
  local p = g:find_path(1, 1, 10, 5, { unit = "walker" })
  if not p then fail("walker found nothing") end
  p = g:find_path(1, 1, 10, 1, { unit = "goat" })
  if not p then fail("goat found nothing") end
  p = g:find_path(7, 2, 8, 3, { unit = "boat" })
  if not p then fail("boat found nothing") end
  g:set_terrain(1, 5, "water") -- an edit with live unit layers
  g:set_cost(2, 5, 2)
  g:set_blocked(3, 5, true)
  local calls = 0
  p = g:find_path(1, 1, 10, 5, { tile_cost = function(_, _, c)
    calls = calls + 1
    return c
  end, move_cost = function(_, _, _, _, c) return c end })
  if not p or calls == 0 then fail("callbacks") end
  must_raise("boom", g.find_path, g, 1, 1, 10, 5,
             { tile_cost = function() error("boom") end })
  must_raise("returned nil", g.find_path, g, 1, 1, 10, 5,
             { tile_cost = function() return nil end })
  g:fill(function(x, _, c) if c and x == 10 then return 2 end return c end)
  remember("terrain and units", g, 1, 1, 10, 5)
end)

part("query options", function()
  -- each option's scratch (goal set, steps, path counts) is allocated on
  -- first use; the open list of BFS grows past its first 256 entries
  local g = track(astar.new(60, 60))
  g:fill_rect(30, 1, 1, 59, false)
  local stats = {}
  local p = g:find_path(1, 1, nil, nil, { goals = { 60, 60, 59, 1, 1, 60 },
                                          stats = stats })
  if not p or stats.status ~= "found" then fail("goals") end
  p = g:find_path(1, 1, 60, 60, { max_length = 200, ties = "random",
                                  seed = 3 })
  if not p then fail("max_length with random ties") end
  p = g:find_path(1, 1, 60, 60, { algorithm = "bfs" })
  if not p then fail("bfs") end
  p = g:find_path(1, 1, 60, 60, { algorithm = "beam", beam_width = 50,
                                  ties = "straight" })
  local none, why = g:find_path(1, 1, 60, 60, { max_nodes = 10 })
  if none ~= nil or why ~= "cutoff" then fail("expected cutoff") end
  p = g:find_path(1, 1, 30, 30, { closest = true, next_to_blocked_goal = false })
  if not p then fail("closest") end
  p = g:find_path(1, 1, 30, 30, { next_to_blocked_goal = true,
    heuristic = function(x, y, gx, gy) return math.abs(x - gx) end })
  if not p then fail("next_to_blocked_goal") end
  remember("query options", g, 60, 60, 1, 1)
end)

part("zones", function()
  local g = track(astar.from_string(text,
    { ["."] = "grass", ["#"] = false, ["~"] = "water" },
    { terrains = { "grass", "water" } }))
  g:set_unit("boat", { water = 1, ["*"] = false })
  g:set_unit("goat", {}, { max_climb = 0 })
  g:load_heights("0123456789\n0000000000\n0000000000\n0000000000\n0000000000")
  if g:zone_count() < 1 or g:zone(1, 1) == 0 then fail("zones") end
  if not g:connected(1, 1, 10, 5) then fail("connected") end
  if g:zone_size(g:zone(1, 1)) < 2 then fail("zone_size") end
  local n = g:zone_count("boat") + g:zone_count("goat")
  if n < 2 then fail("unit zones") end
  -- edits that merge and split (incremental) and bulk ones (relabel)
  for x = 1, 10 do g:set_blocked(x, 3, true) end
  g:zone_count()
  g:set_blocked(5, 3, false)
  g:set_blocked(5, 3, true)
  g:set_terrain(1, 1, "water")
  g:set_height(2, 1, 0)
  g:fill_rect(1, 4, 3, 1, 2)
  if g:connected(1, 1, 1, 5) then fail("a wall row still connects") end
  local p, why, expanded = g:find_path(1, 1, 1, 5)
  if p or why ~= "no_path" or expanded ~= 0 then fail("early exit") end
  p = g:find_path(1, 1, 10, 2, { unit = "goat" })
  g:set_blocked(9, 3, false)
  if not g:connected(1, 1, 1, 5) then fail("an opened wall joins") end
  remember("zones", g, 1, 1, 10, 5)
end)

part("ida and bidirectional", function()
  local g = track(astar.new(60, 60))
  g:fill_rect(30, 1, 1, 59, false)
  for _, name in ipairs({ "bidirectional", "bidirectional_bfs" }) do
    local p = g:find_path(1, 1, 60, 60, { algorithm = name })
    if not p then fail(name .. " found nothing") end
  end
  local p = g:find_path(1, 1, 20, 12, { algorithm = "ida" })
  if not p then fail("ida found nothing") end
  -- a long path: IDA*'s path buffer grows
  local long = track(astar.new(200, 3, { diagonals = "never" }))
  p = long:find_path(1, 2, 200, 2, { algorithm = "ida" })
  if not p or #p ~= 400 then fail("ida: long path") end
  remember("ida and bidirectional", g, 1, 1, 60, 60)
end)

part("queries and the pathfinder", function()
  local g = track(astar.new(40, 30))
  g:fill_rect(20, 1, 1, 25, false)
  local q = g:query(1, 1, 40, 30, { algorithm = "astar",
    tile_cost = function(_, _, c) return c end })
  while q:step(50) == "running" do
    local part_path = q:partial()
    if part_path and #part_path < 2 then fail("query: partial") end
  end
  local p = q:result({})
  if not p then fail("query: no path") end
  q:close()
  local pf = astar.pathfinder(g, { searches = 2, slice = 30 })
  for i = 1, 6 do
    if not pf:request(1, i, 40, 30 - i, { algorithm = "astar" }, i % 4) then
      fail("pathfinder: full")
    end
  end
  while pf:pending() > 0 do
    pf:update({ nodes = 200 })
    pf:partial(6)
  end
  local n = 0
  for _, status in pf:done() do
    if status ~= "found" then fail("pathfinder: " .. status) end
    n = n + 1
  end
  if n ~= 4 then fail("pathfinder: " .. n .. " done, expected 4") end
  pf:stats()
  pf:close()
  remember("queries", g, 1, 1, 40, 30)
end)

part("hex", function()
  local m = astar.hex.map("odd-q", 12, 9)
  local g = track(m:new_grid({ cost = 2 }))
  local sx, sy = m:to_grid(1, 1)
  local gx, gy = m:to_grid(12, 9)
  if not g:find_path(sx, sy, gx, gy) then fail("hex: no path") end
  remember("hex", g, sx, sy, gx, gy)
end)

part("render", function()
  local p = sgrid:find_path(1, 1, 10, 5)
  local r = astar.render(sgrid, p)
  if not r:find("S", 1, true) or not r:find("G", 1, true) then
    fail("render")
  end
  if astar.render(sgrid) ~= tostring(sgrid) then fail("render without path") end
end)

part("close and collect", function()
  do
    local g <close> = astar.new(8, 8)
    g:find_path(1, 1, 8, 8)
  end
  local g = astar.new(40, 40) -- dropped and collected below
  g:find_path(1, 1, 40, 40)
  g = nil
  collectgarbage("collect")
end)

part("fields and landmarks", function()
  -- the bucket ring, the radix heap (avoid), the binary heap, rescans,
  -- a reused field; then landmarks (the weight table, the bucket queue;
  -- the edge bytes of a one-cost grid)
  local g = astar.new(24, 24)
  for k = 1, 24, 3 do g:set_cost(k, 12, false) end
  g:set_cost(5, 5, 3)
  local f = g:field(2, 2)
  local r = g:field(2, 2, { avoid = { 6, 6 } })
  local h = g:field({ 2, 2, 20, 20 }, { queue = "heap", values = { 0, 3 } })
  f:flee()
  r:flee(-2)
  astar.combine({ f, 1, h, -0.5 }, { rescan = true })
  g:field(20, 20, nil, f)
  g:prepare("landmarks", 4)
  g:find_path(1, 1, 24, 24)
  g:set_cost(3, 3, 2)
  g:prepare("landmarks", 4) -- rebuilt in its own memory: a failure frees it
  g:find_path(1, 1, 24, 24)
  local u = astar.new(16, 16) -- one cost everywhere: the edge bytes
  for k = 1, 16, 3 do u:set_cost(k, 8, false) end
  u:prepare("landmarks", 2)
  u:find_path(1, 1, 16, 16, { algorithm = "astar" })
end)

part("prepared maps: subgoal graphs and jump tables", function()
  -- rooms with doors: subgoals to contract (witness searches, shortcuts,
  -- the contraction's priority queue), queries over the graph, then a
  -- jump table after an edit
  local g = track(astar.new(40, 40))
  for x = 1, 40 do
    if x % 10 ~= 5 then
      g:set_cost(x, 13, false)
      g:set_cost(x, 27, false)
    end
  end
  for y = 1, 40 do
    if y % 10 ~= 5 then g:set_cost(20, y, false) end
  end
  g:prepare("subgoal", nil, "always")
  g:find_path(1, 1, 40, 40)
  g:find_path(1, 1, 40, 40, { path = "corners" })
  g:set_cost(2, 2, false)
  g:prepare("subgoal", nil, "jumps")
  g:find_path(1, 1, 40, 40)
end)

part("wrong types", function()
  must_raise("grid expected", base.find_path, {}, 1, 1, 2, 2)
  must_raise("sx out of range", base.find_path, base, 0, 1, 2, 2)
  must_raise("out must be a table", base.find_path, base, 1, 1, 2, 2, nil, 5)
  must_raise("weight must be", base.find_path, base, 1, 1, 2, 2,
             { weight = 0 / 0 })
end)

OOM_SECTION = "(end of script)"
check_made("nothing")
