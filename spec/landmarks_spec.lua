-- Landmarks (ALT): grid:prepare("landmarks", k [, units]), the heuristic
-- they give A*, staleness under edits, bad inputs and memory.
local astar = require("astar")
local helpers = require("spec.helpers")

local TERRAINS = { "ground", "mud" }

-- A random model: weights, walls, terrain, heights, and three unit
-- classes: the default one, "mud" (mud costs more, or is impassable) and
-- "climber" (a height rule).
local function random_model(rng)
  local m = {
    width = rng:int(2, 14), height = rng:int(2, 14),
    rule = rng:pick(helpers.ALL_RULES),
    lengths = rng:pick(helpers.LENGTHS),
    wall = {}, weight = {}, terrain = {}, hgt = {},
  }
  local real = rng:chance(0.3)
  local wall = rng:int(0, 35) / 100
  -- one cost on every tile a third of the time: the build's one-cost
  -- path (a byte of edges per tile), which A* must be asked for (auto
  -- would run JPS there)
  if rng:chance(0.35) then
    m.uniform = real and rng:int(1, 2559) / 256 or rng:int(1, 9)
    m.algorithm = "astar"
  end
  for i = 1, m.width * m.height do
    m.wall[i] = rng:chance(wall)
    m.weight[i] = m.uniform or (real and rng:int(1, 2559) / 256 or rng:int(1, 9))
    m.terrain[i] = rng:chance(0.3) and 1 or 0
    m.hgt[i] = rng:int(0, 4)
  end
  m.mud = rng:chance(0.3) and false or rng:int(2, 4)
  m.climb, m.descend = rng:int(0, 8) / 4, rng:int(0, 8) / 4
  m.max_climb = rng:chance(0.3) and 2 or nil
  return m
end

local function desc_for(m, unit)
  local w = m.width
  local desc = {
    width = m.width, height = m.height, diagonals = m.rule,
    cardinal = m.lengths.cardinal, diagonal = m.lengths.diagonal,
    cost = function(x, y)
      local i = (y - 1) * w + x
      if m.wall[i] then return false end
      if unit == "mud" and m.terrain[i] == 1 then
        if not m.mud then return false end
        return m.weight[i] * m.mud
      end
      return m.weight[i]
    end,
  }
  if unit == "climber" then
    desc.extra = function(x, y, nx, ny)
      local dh = m.hgt[(ny - 1) * w + nx] - m.hgt[(y - 1) * w + x]
      if m.max_climb and dh > m.max_climb then return false end
      if dh > 0 then return m.climb * dh end
      return m.descend * -dh
    end
  end
  return desc
end

local function build(m)
  local g = astar.new(m.width, m.height, {
    diagonals = m.rule, cardinal = m.lengths.cardinal,
    diagonal = m.lengths.diagonal })
  for _, t in ipairs(TERRAINS) do g:define_terrain(t) end
  for y = 1, m.height do
    for x = 1, m.width do
      local i = (y - 1) * m.width + x
      g:set_cost(x, y, m.weight[i])
      if m.wall[i] then g:set_blocked(x, y, true) end
      if m.terrain[i] == 1 then g:set_terrain(x, y, "mud") end
      g:set_height(x, y, m.hgt[i])
    end
  end
  g:set_unit("mud", { ground = 1, mud = m.mud })
  g:set_unit("climber", {}, { climb = m.climb, descend = m.descend,
                              max_climb = m.max_climb })
  return g
end

-- One random edit of model and grid alike.
local function edit(rng, m, g)
  local x, y = rng:int(1, m.width), rng:int(1, m.height)
  local i = (y - 1) * m.width + x
  local what = rng:int(1, 4)
  if what == 1 then
    m.wall[i] = not m.wall[i]
    g:set_blocked(x, y, m.wall[i])
  elseif what == 2 then
    m.weight[i] = m.uniform or rng:int(1, 9)
    g:set_cost(x, y, m.weight[i]) -- opens the tile: walls stay walls
    if m.wall[i] then g:set_blocked(x, y, true) end
  elseif what == 3 then
    m.hgt[i] = rng:int(0, 4)
    g:set_height(x, y, m.hgt[i])
  else
    m.terrain[i] = 1 - m.terrain[i]
    g:set_terrain(x, y, TERRAINS[m.terrain[i] + 1])
  end
end

local UNITS = { "default", "mud", "climber" }

-- Queries of every unit against the reference; returns how many used the
-- landmarks.
local function check_queries(rng, m, g, seed, n)
  local used = 0
  local stats = {}
  for _ = 1, n do
    local unit = rng:pick(UNITS)
    local desc = desc_for(m, unit)
    local sx, sy = rng:int(1, m.width), rng:int(1, m.height)
    local gx, gy = rng:int(1, m.width), rng:int(1, m.height)
    local want = helpers.dijkstra(desc, sx, sy, gx, gy)
    local opts = { unit = unit ~= "default" and unit or nil, stats = stats,
                   algorithm = m.algorithm }
    local path, cost = g:find_path(sx, sy, gx, gy, opts)
    local where = ("seed %d, unit %s, %d,%d -> %d,%d"):format(
      seed, unit, sx, sy, gx, gy)
    if want == nil then
      assert(path == nil, where .. ": a path where the reference has none")
    else
      assert(path ~= nil, where .. ": no path, reference " .. want)
      assert(helpers.close(cost, want, 1e-9),
             where .. (": cost %.17g, reference %.17g"):format(cost, want))
      helpers.check_path(desc, path, sx, sy, gx, gy)
    end
    if stats.heuristic == "landmarks" then
      used = used + 1
      -- the landmark bound is consistent: the bucket queue runs, and the
      -- heap (asked for) finds the same cost with the same heuristic
      assert.are.equal("bucket", stats.open_list, where)
      local ph, ch = g:find_path(sx, sy, gx, gy,
        { unit = opts.unit, open_list = "heap", stats = stats,
          algorithm = m.algorithm })
      assert.are.equal("landmarks", stats.heuristic, where)
      assert.are.equal("heap", stats.open_list, where)
      assert((ph == nil) == (path == nil), where)
      if ph then assert(helpers.close(ch, cost, 1e-9), where) end
    end
    -- the same query without them: the same cost
    local p2, c2 = g:find_path(sx, sy, gx, gy,
      { unit = opts.unit, landmarks = false, stats = stats,
        algorithm = m.algorithm })
    assert(stats.heuristic ~= "landmarks", where)
    assert((p2 == nil) == (path == nil), where)
    if p2 then assert(helpers.close(c2, cost, 1e-9), where) end
  end
  return used
end

describe("landmarks", function()
  it("give optimal costs on random weighted grids with units and heights, "
     .. "through edits and prepare/stale cycles", function()
    local used, stale_used = 0, 0
    for seed = 1, 120 do
      local rng = helpers.rng(seed * 7919)
      local m = random_model(rng)
      local g = build(m)
      local k = rng:int(1, 6)
      local t = g:prepare("landmarks", k, UNITS)
      assert.are.equal("ready", g:prepared("landmarks"))
      assert.are.equal("number", type(t.ms))
      assert.are.equal(m.width * m.height * k * 4 * 3 > 0, t.bytes > 0)
      assert.is_true(t.bytes >= m.width * m.height * k * 4 * 3)
      used = used + check_queries(rng, m, g, seed, 8)
      for _ = 1, 2 do
        edit(rng, m, g)
        assert.are.equal("stale", g:prepared("landmarks"))
        local before = used
        stale_used = stale_used + check_queries(rng, m, g, seed, 4)
        assert.are.equal(before, used)
        g:prepare("landmarks", k, UNITS)
        assert.are.equal("ready", g:prepared("landmarks"))
        used = used + check_queries(rng, m, g, seed, 4)
      end
      g:close()
    end
    assert.are.equal(0, stale_used) -- stale landmarks are never read
    assert.is_true(used > 400, "landmarks used in " .. used .. " queries")
  end)

  it("are used only for the units prepared, and replaced by the next "
     .. "prepare", function()
    local g = astar.new(20, 20)
    g:set_unit("boat", {})
    g:fill(1, 1, 20, 20, 2)
    g:set_cost(5, 5, 3) -- not uniform: find_path runs A*, not JPS
    local stats = {}
    g:prepare("landmarks", 2, "boat")
    g:find_path(1, 1, 20, 20, { unit = "boat", stats = stats })
    assert.are.equal("landmarks", stats.heuristic)
    g:find_path(1, 1, 20, 20, { stats = stats })
    assert.are.equal("default", stats.heuristic)
    g:prepare("landmarks", 2)
    g:find_path(1, 1, 20, 20, { stats = stats })
    assert.are.equal("landmarks", stats.heuristic)
    g:find_path(1, 1, 20, 20, { unit = "boat", stats = stats })
    assert.are.equal("default", stats.heuristic)
    -- queries they do not serve fall back
    for _, o in ipairs({ { heuristic = "manhattan" }, { weight = 2 },
                         { algorithm = "dijkstra" },
                         { goals = { 3, 3 } },
                         { tile_cost = function(_, _, c) return c end } }) do
      o.stats = stats
      g:find_path(1, 1, 20, 20, o)
      assert.are_not.equal("landmarks", stats.heuristic)
    end
    g:link(1, 2, 19, 19, 1)
    g:prepare("landmarks", 2)
    g:find_path(1, 1, 20, 20, { stats = stats }) -- links: not with them
    assert.are.equal("default", stats.heuristic)
    g:close()
  end)

  it("agree with the MovingAI optimal lengths on a sample of scenarios",
     function()
    local dir = helpers.maps_dir()
    if not dir then return helpers.missing_maps(it, pending, "landmarks") end
    local movingai = require("astar.movingai")
    local file = dir .. "/arena.map.scen"
    local scen = assert(movingai.read_scenarios(file))
    local g = assert(astar.load_movingai(movingai.map_path_for(file, scen[1])))
    g:prepare("landmarks", 4)
    local stats, used = {}, 0
    for i = 1, #scen, 3 do
      local s = scen[i]
      local _, cost = g:find_path(s.sx, s.sy, s.gx, s.gy,
                                  { algorithm = "astar", stats = stats })
      assert(math.abs(cost - s.length) <= movingai.tolerance(s.length_text),
             ("scenario %d: %.6f, optimal %s"):format(i, cost, s.length_text))
      if stats.heuristic == "landmarks" then used = used + 1 end
    end
    assert.is_true(used > 0)
    g:close()
  end)

  it("give the optimal lengths of the MovingAI scenarios on every map "
     .. "(every 20th; ASTAR_ALL_SCENARIOS=1: all) #slow", function()
    local dir = helpers.maps_dir()
    if not dir then return helpers.missing_maps(it, pending, "landmarks") end
    local movingai = require("astar.movingai")
    local step = os.getenv("ASTAR_ALL_SCENARIOS") == "1" and 1
                 or 20 * helpers.scenario_step()
    local names = { "32room_000", "AR0011SR", "Archipelago", "Berlin_0_512",
                    "arena", "brc202d", "lak303d", "maze512-4-0",
                    "nighthaven", "random512-10-0" }
    local stats, used, n = {}, 0, 0
    for _, name in ipairs(names) do
      local file = dir .. "/" .. name .. ".map.scen"
      local scen = assert(movingai.read_scenarios(file))
      local g = assert(astar.load_movingai(movingai.map_path_for(file,
                                                                 scen[1])))
      g:prepare("landmarks", 8)
      for i = 1, #scen, step do
        local s = scen[i]
        local _, cost = g:find_path(s.sx, s.sy, s.gx, s.gy,
                                    { algorithm = "astar", stats = stats })
        assert(math.abs(cost - s.length) <= movingai.tolerance(s.length_text),
               ("%s scenario %d: %.6f, optimal %s"):format(name, i, cost,
                                                          s.length_text))
        if stats.heuristic == "landmarks" then used = used + 1 end
        n = n + 1
      end
      g:close()
    end
    assert.is_true(used > n / 2)
  end)

  it("make a sliced query begun before a prepare or unprepare stale, "
     .. "not read freed or rewritten data", function()
    local g = astar.new(40, 40)
    for x = 1, 40 do g:set_cost(x, 20, 3) end
    g:prepare("landmarks", 4)
    local stats = {}
    for _, again in ipairs({ function() g:unprepare("landmarks") end,
                             function() g:prepare("landmarks", 4) end,
                             function() g:prepare("landmarks", 2) end,
                             function() g:prepare("landmarks", 8) end }) do
      g:prepare("landmarks", 4)
      local q = g:query(1, 1, 40, 40, { stats = stats })
      assert.are.equal("running", q:step(5))
      again()
      assert.are.equal("stale", q:step())
      q:restart()
      assert.are.equal("found", q:step())
      q:close()
    end
    -- a pathfinder begins again by itself
    g:prepare("landmarks", 4)
    local pf = astar.pathfinder(g)
    local id = pf:request(1, 1, 40, 40)
    pf:update({ nodes = 5 })
    g:prepare("landmarks", 3)
    for _ = 1, 100 do pf:update({ nodes = 50 }) end
    local got
    for rid, status, path in pf:done() do
      assert.are.equal(id, rid)
      assert.are.equal("found", status)
      got = path
    end
    assert.is_truthy(got)
    assert.is_true(pf:stats().restarts >= 1)
    pf:close()
    g:close()
  end)

  it("give A*'s costs on a grid whose fields and weight table are big "
     .. "blocks (huge pages where the system has them), rebuilt in place",
     function()
    -- 400 x 400, k = 4: a 2.56 MB field and a 2.6 MB weight table, both
    -- at or past 2 MB, where the build asks for them in huge pages
    local w = 400
    local g = astar.new(w, w)
    local rng = helpers.rng(4242)
    for y = 1, w do
      for x = 1, w do
        if rng:chance(0.2) then g:set_blocked(x, y, true)
        else g:set_cost(x, y, rng:int(1, 3)) end
      end
    end
    local function check(n)
      local stats, used = {}, 0
      for _ = 1, n do
        local sx, sy, gx, gy = rng:int(1, w), rng:int(1, w), rng:int(1, w),
                               rng:int(1, w)
        local p1, with = g:find_path(sx, sy, gx, gy,
                                     { algorithm = "astar", stats = stats })
        if stats.heuristic == "landmarks" then used = used + 1 end
        local p2, without = g:find_path(sx, sy, gx, gy,
                                        { algorithm = "astar",
                                          landmarks = false })
        assert.are.equal(p2 == nil, p1 == nil)
        if p1 then
          assert(helpers.close(with, without, 1e-9),
                 ("%d,%d -> %d,%d: %.17g, without %.17g"):format(
                   sx, sy, gx, gy, with, without))
        end
      end
      return used
    end
    local t = g:prepare("landmarks", 4)
    -- the bytes held: the address space a block reserves past them is
    -- never touched, and not counted
    assert.is_true(t.bytes >= w * w * 4 * 4 and t.bytes < w * w * 4 * 4 + 1024)
    assert.is_true(check(12) > 0)
    for _ = 1, 50 do
      g:set_cost(rng:int(1, w), rng:int(1, w), rng:int(1, 3))
    end
    g:prepare("landmarks", 4) -- the same k: the same memory
    assert.is_true(check(12) > 0)
    g:close()
  end)

  it("report their memory and free it (unprepare, close, gc)", function()
    local g = astar.new(64, 64)
    local t = g:prepare("landmarks", 8)
    local with = g:memory()
    assert.is_true(t.bytes >= 64 * 64 * 8 * 4 and t.bytes < 64 * 64 * 8 * 4 + 1024)
    g:unprepare("landmarks")
    assert.is_nil(g:prepared("landmarks"))
    assert.are.equal(with - t.bytes, g:memory())
    g:unprepare("landmarks") -- twice: nothing
    g:prepare("landmarks", 3)
    g:close()
    g:close()
    local freed = false
    do
      local h = astar.new(32, 32)
      h:prepare("landmarks", 2)
      local _ = helpers.finalizer(function() freed = true end)
    end
    collectgarbage()
    collectgarbage()
    assert.is_true(freed)
  end)

  it("reject bad arguments, naming them, and leave the grid usable",
     function()
    local g = astar.new(8, 8)
    g:set_unit("boat", {})
    local function err(...)
      return helpers.error_of(g.prepare, g, ...)
    end
    assert.are.equal("bad argument #2 to 'prepare' (kind must be one of "
      .. "'subgoal', 'landmarks', got 'nope')", err("nope", 4))
    assert.are.equal("bad argument #2 to 'prepare' (kind must be one of "
      .. "'subgoal', 'landmarks', got no value)", err())
    local K = "bad argument #3 to 'prepare' (k must be an integer in 1..32, "
    assert.are.equal(K .. "got no value)", err("landmarks"))
    assert.are.equal(K .. "got 0)", err("landmarks", 0))
    assert.are.equal(K .. "got 1.5)", err("landmarks", 1.5))
    assert.are.equal(K .. "got 33)", err("landmarks", 33))
    assert.are.equal(K .. "got -1)", err("landmarks", -1))
    assert.are.equal(K .. "got '8')", err("landmarks", "8"))
    assert.are.equal(K .. "got nan)", err("landmarks", 0 / 0))
    assert.are.equal("bad argument #4 to 'prepare' (unit must be the name "
      .. "of a unit class defined with set_unit, got 'ghost')",
      err("landmarks", 2, "ghost"))
    assert.are.equal("bad argument #4 to 'prepare' (unit must be the name "
      .. "of a unit class defined with set_unit, got 'ghost')",
      err("landmarks", 2, { "boat", "ghost" }))
    assert.are.equal("bad argument #4 to 'prepare' (units must be a unit "
      .. "class name or a list of unit class names, got 5)",
      err("landmarks", 2, 5))
    assert.are.equal("bad argument #4 to 'prepare' (units must be a unit "
      .. "class name or a list of unit class names, got an empty list)",
      err("landmarks", 2, {}))
    assert.are.equal("bad argument #4 to 'prepare' (units[1] must be a "
      .. "unit class name, got 3)", err("landmarks", 2, { 3 }))
    assert.are.equal("bad argument #2 to 'prepared' (kind must be one of "
      .. "'subgoal', 'landmarks', got 1)", helpers.error_of(g.prepared, g, 1))
    assert.are.equal("bad argument #2 to 'unprepare' (kind must be one of "
      .. "'subgoal', 'landmarks', got true)", helpers.error_of(g.unprepare, g, true))
    assert.are.equal("bad argument #6 to 'find_path' (landmarks must be a "
      .. "boolean, got 1)", helpers.error_of(g.find_path, g, 1, 1, 8, 8,
                                              { landmarks = 1 }))
    assert.is_nil(g:prepared("landmarks"))
    g:prepare("landmarks", 32, { "boat", "default", "boat" })
    assert.are.equal("ready", g:prepared("landmarks"))
    local p = g:find_path(1, 1, 8, 8)
    assert.are.equal(16, #p)
    g:close()
    assert.are.equal("prepare: the grid is closed",
                     helpers.error_of(g.prepare, g, "landmarks", 2))
  end)
end)
