-- Zones (docs/api.md, "Zones") against a flood fill written here in plain
-- Lua: after every build and after every edit, for every unit class, the
-- grid's zones must be the same partition of the tiles as the reference's
-- (ids may differ), with the same count and sizes; find_path between two
-- zones must expand nothing.
--
-- The model of a grid (weights, walls, terrain, heights, unit tables) is
-- the one of spec/terrain_spec.lua.  Two tiles are joined when a legal
-- move leads from one to the other in either direction: a height limit can
-- make a move one-way, and zones are then the weakly connected regions.
local astar = require("astar")
local helpers = require("helpers")

local floor = math.floor

---------------------------------------------------------------------------
-- The model (as in terrain_spec.lua)
---------------------------------------------------------------------------

local function new_model(rng, opts)
  opts = opts or {}
  local w = opts.width or rng:int(1, 16)
  local h = opts.height or rng:int(1, 16)
  local m = {
    width = w, height = h,
    rule = opts.rule or rng:pick(helpers.RULES),
    weight = {}, wall = {}, terrain = {}, hgt = {},
    terrains = {}, units = {},
  }
  local nt = rng:int(1, 4)
  for t = 1, nt do m.terrains[t] = "t" .. (t - 1) end
  local wall = opts.wall or rng:int(0, 50) / 100
  local hilly = opts.hilly
  if hilly == nil then hilly = rng:chance(0.5) end
  for i = 1, w * h do
    m.weight[i] = rng:int(1, 4)
    m.wall[i] = rng:chance(wall)
    m.terrain[i] = rng:int(0, nt - 1)
    m.hgt[i] = hilly and rng:int(0, 4) or 0
  end
  return m
end

local function random_unit(rng, m)
  local costs, mult = {}, {}
  local star
  if rng:chance(0.3) then
    star = rng:pick({ false, 1, 2 })
    costs["*"] = star
  end
  for t = 0, #m.terrains - 1 do
    local v
    if rng:chance(0.7) then
      v = rng:pick({ false, false, 1, 2, 0.5 })
      if rng:chance(0.5) then costs[m.terrains[t + 1]] = v else costs[t] = v end
      mult[t] = v
    elseif star ~= nil then
      mult[t] = star
    else
      mult[t] = 1
    end
  end
  local rule = {}
  if rng:chance(0.3) then rule.climb = rng:pick({ 0, 1 }) end
  if rng:chance(0.4) then rule.max_climb = rng:int(0, 2) end
  if rng:chance(0.3) then rule.max_drop = rng:int(0, 2) end
  return { costs = costs, mult = mult, rule = rule }
end

local IDENTITY = { costs = {}, mult = setmetatable({}, {
  __index = function() return 1 end }), rule = {} }

local UNITS = { "default", "walker", "boat" }

local function build(rng, m)
  local w, h = m.width, m.height
  local g = astar.new(w, h, { diagonals = m.rule, terrains = m.terrains })
  if rng:chance(0.5) then
    local cw, ct, ch = {}, {}, {}
    for y = 1, h do
      cw[y], ct[y], ch[y] = {}, {}, {}
      for x = 1, w do
        local i = (y - 1) * w + x
        if m.wall[i] then cw[y][x] = false else cw[y][x] = m.weight[i] end
        ct[y][x] = m.terrains[m.terrain[i] + 1]
        ch[y][x] = m.hgt[i]
      end
    end
    g:load(cw)
    g:load_terrain(ct)
    g:load_heights(ch)
  else
    for y = 1, h do
      for x = 1, w do
        local i = (y - 1) * w + x
        g:set_cost(x, y, m.weight[i])
        if m.wall[i] then g:set_blocked(x, y, true) end
        g:set_terrain(x, y, m.terrain[i])
        g:set_height(x, y, m.hgt[i])
      end
    end
  end
  return g
end

local function define_units(rng, m, g)
  for _, name in ipairs({ "walker", "boat" }) do
    local u = random_unit(rng, m)
    m.units[name] = u
    g:set_unit(name, u.costs, u.rule)
  end
end

-- One random edit, applied to the grid and mirrored in the model.  Walls
-- opened and closed are the most frequent.
local function random_edit(rng, m, g)
  local w, h = m.width, m.height
  local x, y = rng:int(1, w), rng:int(1, h)
  local i = (y - 1) * w + x
  local kind = rng:int(1, 20)
  if kind <= 8 then
    local b = not m.wall[i]
    g:set_blocked(x, y, b)
    m.wall[i] = b
  elseif kind <= 10 then
    local c = rng:int(1, 4)
    g:set_cost(x, y, c)
    m.weight[i], m.wall[i] = c, false
  elseif kind == 11 then
    g:set_cost(x, y, false)
    m.wall[i] = true
  elseif kind <= 14 then
    local t = rng:int(0, #m.terrains - 1)
    g:set_terrain(x, y, rng:chance(0.5) and m.terrains[t + 1] or t)
    m.terrain[i] = t
  elseif kind <= 16 then
    local v = rng:int(0, 4)
    g:set_height(x, y, v)
    m.hgt[i] = v
  elseif kind == 17 then
    local rw, rh = rng:int(0, w - x + 1), rng:int(0, h - y + 1)
    local t = rng:int(0, #m.terrains - 1)
    g:fill_terrain(t, x, y, rw, rh)
    for yy = y, y + rh - 1 do
      for xx = x, x + rw - 1 do m.terrain[(yy - 1) * w + xx] = t end
    end
  elseif kind == 18 then
    local rw, rh = rng:int(0, w - x + 1), rng:int(0, h - y + 1)
    local c = rng:chance(0.5) and false or rng:int(1, 4)
    g:fill_rect(x, y, rw, rh, c)
    for yy = y, y + rh - 1 do
      for xx = x, x + rw - 1 do
        local j = (yy - 1) * w + xx
        if c then m.weight[j], m.wall[j] = c, false else m.wall[j] = true end
      end
    end
  elseif kind == 19 then
    local name = rng:pick({ "walker", "boat", "default" })
    local u = random_unit(rng, m)
    m.units[name] = u
    g:set_unit(name, u.costs, u.rule)
  else
    m.rule = rng:pick(helpers.RULES)
    g:set_movement({ diagonals = m.rule })
  end
end

---------------------------------------------------------------------------
-- The reference: a flood fill over the model's moves
---------------------------------------------------------------------------

local DIRS = helpers.DIRS

-- Reference zones of the model for one unit: a flat list, 0 for a tile the
-- unit cannot enter, else a component number 1..n; and n, and the sizes.
local function reference(m, name)
  local u = m.units[name] or IDENTITY
  local w, h = m.width, m.height
  local max_climb = u.rule.max_climb or math.huge
  local max_drop = u.rule.max_drop or math.huge
  local open = {}
  for i = 1, w * h do
    open[i] = not m.wall[i] and u.mult[m.terrain[i]] and true or false
  end
  local function pass(x, y)
    return x >= 1 and y >= 1 and x <= w and y <= h and open[(y - 1) * w + x]
  end
  -- a legal move from (x, y) (passable) by (dx, dy)
  local function legal(x, y, dx, dy)
    local nx, ny = x + dx, y + dy
    if not pass(nx, ny) then return false end
    if dx ~= 0 and dy ~= 0 then
      local a, b = pass(nx, y), pass(x, ny)
      if m.rule == "never" then return false end
      if m.rule == "no_corner_cut" and not (a and b) then return false end
      if m.rule == "one_free" and not (a or b) then return false end
    end
    local dh = m.hgt[(ny - 1) * w + nx] - m.hgt[(y - 1) * w + x]
    return not (dh > max_climb or -dh > max_drop)
  end
  local zone, sizes, n = {}, {}, 0
  for i = 1, w * h do zone[i] = 0 end
  for i = 1, w * h do
    if open[i] and zone[i] == 0 then
      n = n + 1
      zone[i] = n
      local queue, head = { i }, 1
      while queue[head] do
        local j = queue[head]
        head = head + 1
        local x, y = (j - 1) % w + 1, floor((j - 1) / w) + 1
        for k = 1, 8 do
          local dx, dy = DIRS[k][1], DIRS[k][2]
          local nx, ny = x + dx, y + dy
          if pass(nx, ny) then
            local v = (ny - 1) * w + nx
            if zone[v] == 0
                and (legal(x, y, dx, dy) or legal(nx, ny, -dx, -dy)) then
              zone[v] = n
              queue[#queue + 1] = v
            end
          end
        end
      end
      sizes[n] = #queue
    end
  end
  return zone, n, sizes
end

-- The grid's zones equal the reference's for every unit: same partition,
-- same count, same sizes.
local function check_zones(m, g, label, units)
  local w, h = m.width, m.height
  for _, name in ipairs(units or UNITS) do
    local ref, n, sizes = reference(m, name)
    local to_ref, from_ref = {}, {}
    for y = 1, h do
      for x = 1, w do
        local i = (y - 1) * w + x
        local got, want = g:zone(x, y, name), ref[i]
        local where = ("%s unit=%s tile (%d,%d)"):format(label, name, x, y)
        if (got == 0) ~= (want == 0) then
          error(("%s: zone %d, but the reference says %s"):format(where, got,
            want == 0 and "impassable" or "passable"), 0)
        end
        if got ~= 0 then
          if to_ref[got] == nil and from_ref[want] == nil then
            to_ref[got], from_ref[want] = want, got
          elseif to_ref[got] ~= want or from_ref[want] ~= got then
            error(("%s: zone %d; the partition differs from the reference's")
              :format(where, got), 0)
          end
        end
      end
    end
    local count = g:zone_count(name)
    if count ~= n then
      error(("%s unit=%s: zone_count %d, reference %d"):format(label, name,
        count, n), 0)
    end
    for id, r in pairs(to_ref) do
      local size = g:zone_size(id, name)
      if size ~= sizes[r] then
        error(("%s unit=%s: zone_size(%d) = %d, reference %d"):format(label,
          name, id, size, sizes[r]), 0)
      end
    end
  end
end

-- Random pairs: connected() agrees with the reference, and a search
-- between two zones returns no_path having expanded nothing.
local function check_queries(rng, m, g, label, count)
  local w, h = m.width, m.height
  for _, name in ipairs(UNITS) do
    local ref = reference(m, name)
    for _ = 1, count do
      local sx, sy, gx, gy = rng:int(1, w), rng:int(1, h), rng:int(1, w),
                             rng:int(1, h)
      local a, b = ref[(sy - 1) * w + sx], ref[(gy - 1) * w + gx]
      local want = a ~= 0 and a == b
      local where = ("%s unit=%s (%d,%d)-(%d,%d)"):format(label, name, sx, sy,
                                                        gx, gy)
      if g:connected(sx, sy, gx, gy, name) ~= want then
        error(where .. ": connected() disagrees with the reference", 0)
      end
      if a ~= 0 and b ~= 0 and a ~= b then
        local path, why, expanded = g:find_path(sx, sy, gx, gy, { unit = name })
        if path ~= nil or why ~= "no_path" or expanded ~= 0 then
          error(("%s: between zones find_path gave %s, %s, %s"):format(where,
            tostring(path), tostring(why), tostring(expanded)), 0)
        end
      end
    end
  end
end

---------------------------------------------------------------------------
-- Specs
---------------------------------------------------------------------------

describe("zones against a plain Lua flood fill", function()
  it("random grids, every movement rule, three unit classes", function()
    for seed = 1, 120 do
      local rng = helpers.rng(seed * 7177)
      local m = new_model(rng, { rule = helpers.RULES[seed % 4 + 1] })
      local g = build(rng, m)
      define_units(rng, m, g)
      local label = ("seed=%d %dx%d rule=%s"):format(seed, m.width, m.height,
                                                      m.rule)
      check_zones(m, g, label)
      check_queries(rng, m, g, label, 6)
    end
  end)

  it("stay right through thousands of edits (walls, terrain, heights, "
     .. "tables, movement)", function()
    local edits, seeds = 0, helpers.cases(24)
    for seed = 1, seeds do
      local rng = helpers.rng(seed * 15485863)
      local m = new_model(rng, { width = rng:int(3, 12),
                                 height = rng:int(3, 12),
                                 rule = helpers.RULES[seed % 4 + 1] })
      local g = build(rng, m)
      define_units(rng, m, g)
      local label = ("seed=%d %dx%d"):format(seed, m.width, m.height)
      check_zones(m, g, label) -- labels built: edits now repair them
      for step = 1, 90 do
        random_edit(rng, m, g)
        edits = edits + 1
        check_zones(m, g, ("%s rule=%s after edit %d"):format(label, m.rule,
                                                             step))
        if step % 10 == 0 then check_queries(rng, m, g, label, 2) end
      end
    end
    assert.are.equal(90 * seeds, edits)
  end)

  it("walls opened and closed one by one on larger grids: merges and splits",
     function()
    for _, rule in ipairs(helpers.RULES) do
      local rng = helpers.rng(#rule * 1009)
      local m = new_model(rng, { width = 24, height = 20, rule = rule,
                                 wall = 0.3, hilly = false })
      m.terrains = { "t0" }
      for i = 1, m.width * m.height do m.terrain[i] = 0 end
      local g = build(rng, m)
      -- a class that cannot enter a terrain painted in stripes
      g:define_terrain("mud")
      m.terrains[2] = "mud"
      for x = 3, m.width, 5 do
        g:fill_terrain("mud", x, 1, 1, m.height)
        for y = 1, m.height do m.terrain[(y - 1) * m.width + x] = 1 end
      end
      m.units.walker = { costs = { mud = false }, mult = { [0] = 1 },
                         rule = {} }
      g:set_unit("walker", { mud = false })
      local units = { "default", "walker" }
      check_zones(m, g, rule, units)
      for step = 1, helpers.cases(400) do
        local x, y = rng:int(1, m.width), rng:int(1, m.height)
        local i = (y - 1) * m.width + x
        m.wall[i] = not m.wall[i]
        g:set_blocked(x, y, m.wall[i])
        check_zones(m, g, ("rule=%s step %d"):format(rule, step), units)
      end
    end
  end)

  it("one-way height limits: zones are joined by a move either way",
     function()
    local g = astar.new(5, 1)
    g:load_heights("01234")
    g:set_unit("crab", {}, { max_climb = 0 })
    -- the crab can only walk down, but all five tiles are one zone
    assert.are.equal(1, g:zone_count("crab"))
    assert.is_true(g:connected(1, 1, 5, 1, "crab"))
    assert.is_nil((g:find_path(1, 1, 5, 1, { unit = "crab" })))
    assert.is_truthy(g:find_path(5, 1, 1, 1, { unit = "crab" }))
    -- a climb of two bans the step both ways for a unit limited both ways
    g:set_unit("ant", {}, { max_climb = 1, max_drop = 1 })
    g:set_height(3, 1, 5)
    assert.are.equal(3, g:zone_count("ant"))
    g:set_height(3, 1, 2)
    assert.are.equal(1, g:zone_count("ant"))
  end)
end)

describe("zones: API", function()
  it("ids, sizes and counts on a small map; 0 for impassable", function()
    local g = astar.from_string([[
..#..
..#..
###..
.#...]])
    assert.are.equal(3, g:zone_count())
    local a, b, c = g:zone(1, 1), g:zone(4, 1), g:zone(1, 4)
    assert.are.equal(0, g:zone(3, 1))
    assert.are.same({ 4, 9, 1 }, { g:zone_size(a), g:zone_size(b),
                                   g:zone_size(c) })
    assert.is_true(a ~= b and b ~= c and a ~= c)
    assert.is_true(g:connected(1, 1, 2, 2))
    assert.is_false(g:connected(1, 1, 5, 4))
    assert.is_false(g:connected(3, 1, 3, 1)) -- impassable: not even itself
    -- opening a wall merges
    g:set_blocked(2, 4, false)
    assert.are.equal(2, g:zone_count())
    assert.are.equal(11, g:zone_size(g:zone(1, 4)))
    assert.is_true(g:connected(1, 4, 5, 1))
  end)

  it("a diagonal that may not be taken does not connect", function()
    local g = astar.from_string(".#\n#.")
    for _, rule in ipairs({ "no_corner_cut", "one_free", "never" }) do
      g:set_movement({ diagonals = rule })
      assert.are.equal(2, g:zone_count(), rule)
      assert.is_false(g:connected(1, 1, 2, 2), rule)
    end
    g:set_movement({ diagonals = "always" })
    assert.are.equal(1, g:zone_count())
    assert.is_true(g:connected(1, 1, 2, 2))
  end)

  it("ids are stable between queries when nothing is edited", function()
    local rng = helpers.rng(42)
    local g = astar.new(30, 30)
    for _ = 1, 300 do g:set_blocked(rng:int(1, 30), rng:int(1, 30), true) end
    local first = {}
    for y = 1, 30 do for x = 1, 30 do first[#first + 1] = g:zone(x, y) end end
    g:find_path(1, 1, 30, 30)
    g:zone_count()
    local again = {}
    for y = 1, 30 do for x = 1, 30 do again[#again + 1] = g:zone(x, y) end end
    assert.are.same(first, again)
  end)

  it("classes whose table is all 1 share the default zones; others have "
     .. "their own", function()
    local g = astar.from_string("..~~..\n..~~..",
      { ["."] = "land", ["~"] = "water" }, { terrains = { "land", "water" } })
    g:set_unit("plain", { ["*"] = 1 })
    g:set_unit("walker", { water = false })
    g:set_unit("boat", { land = false })
    assert.are.equal(1, g:zone_count())
    assert.are.equal(1, g:zone_count("plain"))
    assert.are.equal(2, g:zone_count("walker"))
    assert.are.equal(1, g:zone_count("boat"))
    assert.are.equal(0, g:zone(1, 1, "boat"))
    assert.are.equal(4, g:zone_size(g:zone(3, 1, "boat"), "boat"))
    -- changing one class's table leaves the others' answers alone
    g:set_unit("boat", {})
    assert.are.equal(1, g:zone_count("boat"))
    assert.are.equal(2, g:zone_count("walker"))
    -- a bridge of land across the water
    g:set_terrain(3, 2, "land")
    g:set_terrain(4, 2, "land")
    assert.are.equal(1, g:zone_count("walker"))
  end)

  it("thousands of toggles on a small grid: slots are recycled, memory "
     .. "stays bounded", function()
    local g = astar.new(4, 3)
    assert.are.equal(1, g:zone_count())
    local peak = 0
    for i = 1, 3000 do
      local x = i % 2 == 0 and 2 or 3
      g:set_blocked(x, 2, i % 4 < 2)
      if i % 100 == 0 then
        assert.are.equal(1, g:zone_count())
        if g:memory() > peak then peak = g:memory() end
      end
    end
    local base = astar.new(4, 3)
    base:zone_count()
    assert.is_true(peak <= base:memory() + 8192, peak - base:memory())
  end)

  it("a split too far from the edit to race: relabelled at the next query",
     function()
    -- a serpentine corridor of about 5000 tiles in a 100x100 grid
    local N = 100
    local g = astar.new(N, N)
    for y = 2, N, 2 do
      g:fill_rect(1, y, N, 1, false)
      g:set_blocked(y % 4 == 2 and N or 1, y, false)
    end
    assert.are.equal(1, g:zone_count())
    local total = g:zone_size(g:zone(1, 1))
    g:set_blocked(50, 51, true) -- the middle of the corridor
    assert.are.equal(2, g:zone_count())
    local a, b = g:zone_size(g:zone(1, 1)), g:zone_size(g:zone(1, N))
    assert.are.equal(total - 1, a + b)
    assert.is_false(g:connected(1, 1, 1, N))
    g:set_blocked(50, 51, false)
    assert.are.equal(1, g:zone_count())
    assert.are.equal(total, g:zone_size(g:zone(1, N)))
  end)

  it("memory counts the labels: 4 bytes per tile per labelled layer",
     function()
    local g = astar.new(50, 40)
    g:find_path(1, 1, 2, 2, { zones = false })
    local base = g:memory()
    g:zone_count()
    local tiles = 52 * 42
    assert.is_true(g:memory() - base >= tiles * 4, g:memory() - base)
    assert.is_true(g:memory() - base <= tiles * 4 + 4096, g:memory() - base)
  end)
end)

describe("zones in find_path", function()
  local MAP = [[
....#....
....#....
....#....]]

  it("between zones: no_path, nothing expanded; zones = false floods",
     function()
    local g = astar.from_string(MAP)
    local path, why, expanded = g:find_path(1, 1, 9, 3)
    assert.is_nil(path)
    assert.are.equal("no_path", why)
    assert.are.equal(0, expanded)
    local _, why2, flooded = g:find_path(1, 1, 9, 3, { zones = false,
                                                     algorithm = "astar" })
    assert.are.equal("no_path", why2)
    assert.are.equal(12, flooded)
    -- open the wall: a path at once, without a relabel of the map
    g:set_blocked(5, 2, false)
    local p = g:find_path(1, 1, 9, 3)
    assert.is_truthy(p)
    g:set_blocked(5, 2, true)
    assert.are.equal(0, select(3, g:find_path(1, 1, 9, 3)))
  end)

  it("start or goal blocked still say so; next_step too", function()
    local g = astar.from_string(MAP)
    assert.are.equal("start_blocked", select(2, g:find_path(5, 1, 9, 3)))
    assert.are.equal("goal_blocked", select(2, g:find_path(1, 1, 5, 3)))
    local x, why = g:next_step(1, 1, 9, 3)
    assert.is_nil(x)
    assert.are.equal("no_path", why)
  end)

  it("callbacks: zones ignore them, the early exit still holds", function()
    local g = astar.from_string(MAP)
    local calls = 0
    local function tile_cost(_, _, c)
      calls = calls + 1
      return c
    end
    local path, why, expanded = g:find_path(1, 1, 9, 3,
                                            { tile_cost = tile_cost })
    assert.is_nil(path)
    assert.are.equal("no_path", why)
    assert.are.equal(0, expanded)
    assert.is_true(calls <= 1) -- the goal's own check
    -- a callback that closes the goal: goal_blocked comes first
    local _, why2 = g:find_path(1, 1, 9, 3, { tile_cost = function(x, y, c)
      if x == 9 and y == 3 then return false end
      return c
    end })
    assert.are.equal("goal_blocked", why2)
    -- same zone, but a callback walls the way: the search finds that out
    local _, why3, exp3 = g:find_path(1, 1, 4, 3, { tile_cost = function(x, _, c)
      if x == 3 then return false end
      return c
    end })
    assert.are.equal("no_path", why3)
    assert.is_true(exp3 > 0)
  end)

  it("agrees with the reference Dijkstra on random grids and units",
     function()
    for seed = 1, 40 do
      local rng = helpers.rng(seed * 911)
      local m = new_model(rng, { hilly = false })
      local g = build(rng, m)
      define_units(rng, m, g)
      for _, name in ipairs(UNITS) do
        local u = m.units[name] or IDENTITY
        local desc = {
          width = m.width, height = m.height, diagonals = m.rule,
          cost = function(x, y)
            local i = (y - 1) * m.width + x
            if m.wall[i] then return false end
            local k = u.mult[m.terrain[i]]
            if not k then return false end
            return k * m.weight[i]
          end,
        }
        for _ = 1, 5 do
          local sx, sy = rng:int(1, m.width), rng:int(1, m.height)
          local gx, gy = rng:int(1, m.width), rng:int(1, m.height)
          local want, why = helpers.dijkstra(desc, sx, sy, gx, gy)
          local path, got = g:find_path(sx, sy, gx, gy, { unit = name })
          if want then
            assert.is_truthy(path)
            assert.is_true(helpers.close(got, want, 1e-9))
          else
            assert.is_nil(path)
            assert.are.equal(why, got)
          end
        end
      end
    end
  end)
end)

---------------------------------------------------------------------------
-- The MovingAI maps: zone counts and largest zones of ../shared/maps/README.md
---------------------------------------------------------------------------

-- The README's table, as it stood when this spec was written; the spec
-- also reads the README itself and checks the two agree.
local KNOWN = {
  ["arena.map"] = { 1, 2054 }, ["lak303d.map"] = { 1, 14784 },
  ["brc202d.map"] = { 1, 43151 }, ["AR0011SR.map"] = { 2, 115148 },
  ["Archipelago.map"] = { 2, 130977 }, ["nighthaven.map"] = { 1, 123895 },
  ["maze512-4-0.map"] = { 1, 209263 }, ["random512-10-0.map"] = { 1, 235900 },
  ["32room_000.map"] = { 1, 240671 }, ["Berlin_0_512.map"] = { 28, 187175 },
}

-- Rows "| `name` | set | W x H | passable | zones (largest) | ...".
local function readme_zones(dir)
  local f = io.open(dir .. "/README.md", "rb")
  if not f then return nil end
  local text = f:read("*a")
  f:close()
  local out = {}
  for name, zones, largest in text:gmatch(
      "\n| `([%w_%-]+%.map)` |[^|\n]*|[^|\n]*|[^|\n]*| (%d+) %(([%d,]+)%) |") do
    out[name] = { tonumber(zones), tonumber((largest:gsub(",", ""))) }
  end
  return out
end

describe("zones on the MovingAI maps #slow", function()
  local dir = helpers.maps_dir()
  if not dir then
    helpers.missing_maps(it, pending, "MovingAI zone specs")
    return
  end

  it("the README lists the zones of every map", function()
    assert.are.same(KNOWN, readme_zones(dir))
  end)

  local names = {}
  for name in pairs(KNOWN) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    it(name .. ": zone count and largest zone as in the README", function()
      local want = readme_zones(dir)[name] or KNOWN[name]
      local g = assert(astar.load_movingai(dir .. "/" .. name))
      local function largest()
        local w, h = g:size()
        local seen, best = {}, 0
        for y = 1, h do
          for x = 1, w do
            local id = g:zone(x, y)
            if id ~= 0 and not seen[id] then
              seen[id] = true
              local s = g:zone_size(id)
              if s > best then best = s end
            end
          end
        end
        return best
      end
      assert.are.same(want, { g:zone_count(), largest() })
      -- the README: with no corner cutting, zones are the 4-connected ones
      g:set_movement({ diagonals = "never" })
      assert.are.same(want, { g:zone_count(), largest() })
    end)
  end
end)
