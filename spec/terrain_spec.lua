-- Terrain classes, unit classes (cost tables), the weight layer and heights,
-- against the reference Dijkstra of spec/helpers.lua.
--
-- Each random case keeps a plain Lua model of the grid (weights, walls,
-- terrain, heights, unit tables) and derives from it, for every unit class,
-- a description the reference understands: a tile's cost is
-- table[terrain] * weight (false when walled or impassable to the unit), and
-- a step pays climb * rise or descend * drop on top, or is banned past
-- max_climb / max_drop.  Values are chosen so every product is exact in a
-- 32-bit float, so costs must agree to rounding of the sums.
local astar = require("astar")
local helpers = require("helpers")

local REL = 1e-9

local function new_model(rng, opts)
  opts = opts or {}
  local w = opts.width or rng:int(1, 22)
  local h = opts.height or rng:int(1, 22)
  local m = {
    width = w, height = h,
    rule = opts.rule or rng:pick(helpers.RULES),
    lengths = rng:pick(helpers.LENGTHS),
    weight = {}, wall = {}, terrain = {}, hgt = {},
    terrains = {}, units = {},
  }
  local nt = rng:int(1, 4)
  for t = 1, nt do m.terrains[t] = "t" .. (t - 1) end
  local wall = rng:int(0, 40) / 100
  local real = rng:chance(0.5)
  local hilly = rng:chance(0.6)
  for i = 1, w * h do
    m.weight[i] = real and rng:int(1, 36) / 4 or rng:int(1, 4)
    m.wall[i] = rng:chance(wall)
    m.terrain[i] = rng:int(0, nt - 1)
    m.hgt[i] = hilly and rng:int(0, 4) or 0
  end
  return m
end

-- A random unit class: its cost table (terrain name -> multiplier or
-- false), as set_unit takes it, and its height rule.
local function random_unit(rng, m)
  local costs, mult = {}, {}
  local star
  if rng:chance(0.3) then
    star = rng:pick({ false, 1, 2, 0.5 })
    costs["*"] = star
  end
  for t = 0, #m.terrains - 1 do
    local v
    if rng:chance(0.6) then
      local r = rng:int(1, 10)
      if r <= 2 then
        v = false
      elseif r <= 5 then
        v = rng:int(1, 5)
      elseif r <= 8 then
        v = rng:int(1, 40) / 8
      else
        v = 1
      end
      -- names or ids as keys
      if rng:chance(0.5) then costs[m.terrains[t + 1]] = v else costs[t] = v end
      mult[t] = v
    elseif star ~= nil then
      mult[t] = star
    else
      mult[t] = 1
    end
  end
  local rule = {}
  if rng:chance(0.5) then
    rule.climb = rng:pick({ 0, 0.5, 1, 3 })
    rule.descend = rng:pick({ 0, 0.25, 1 })
  end
  if rng:chance(0.4) then rule.max_climb = rng:int(0, 3) end
  if rng:chance(0.3) then rule.max_drop = rng:int(0, 3) end
  return { costs = costs, mult = mult, rule = rule }
end

local IDENTITY = { costs = {}, mult = setmetatable({}, {
  __index = function() return 1 end }), rule = {} }

local function unit_of(m, name)
  return m.units[name] or IDENTITY
end

-- The reference description of the model for one unit class.
local function desc_for(m, name)
  local u = unit_of(m, name)
  local w = m.width
  local rule = u.rule
  local climb, descend = rule.climb or 0, rule.descend or 0
  local max_climb = rule.max_climb or math.huge
  local max_drop = rule.max_drop or math.huge
  local desc = {
    width = m.width, height = m.height,
    diagonals = m.rule, cardinal = m.lengths.cardinal,
    diagonal = m.lengths.diagonal,
    cost = function(x, y)
      local i = (y - 1) * w + x
      if m.wall[i] then return false end
      local k = u.mult[m.terrain[i]]
      if not k then return false end
      return k * m.weight[i]
    end,
  }
  desc.extra = function(x, y, nx, ny)
    local dh = m.hgt[(ny - 1) * w + nx] - m.hgt[(y - 1) * w + x]
    if dh > max_climb or -dh > max_drop then return false end
    if dh > 0 then return climb * dh end
    return descend * -dh
  end
  return desc
end

-- Builds the astar grid from the model, one of several ways.
local function build(rng, m)
  local w, h = m.width, m.height
  local movement = { diagonals = m.rule, cardinal = m.lengths.cardinal,
                     diagonal = m.lengths.diagonal, terrains = m.terrains }
  local how = rng:int(1, 3)
  local g
  if how == 1 then -- bulk: rows of weights, names, heights
    g = astar.new(w, h, movement)
    local cw, ct, ch = {}, {}, {}
    for y = 1, h do
      cw[y], ct[y], ch[y] = {}, {}, {}
      for x = 1, w do
        local i = (y - 1) * w + x
        cw[y][x] = m.wall[i] and false or m.weight[i]
        ct[y][x] = m.terrains[m.terrain[i] + 1]
        ch[y][x] = m.hgt[i]
      end
    end
    g:load(cw)
    g:load_terrain(ct)
    g:load_heights(ch)
    -- a wall keeps the weight the model has for it
    for i = 1, w * h do
      if m.wall[i] then
        local x, y = (i - 1) % w + 1, math.floor((i - 1) / w) + 1
        g:set_cost(x, y, m.weight[i])
        g:set_blocked(x, y, true)
      end
    end
  elseif how == 2 then -- tile by tile, terrain ids
    g = astar.new(w, h, movement)
    for y = 1, h do
      for x = 1, w do
        local i = (y - 1) * w + x
        g:set_cost(x, y, m.weight[i])
        if m.wall[i] then g:set_blocked(x, y, true) end
        g:set_terrain(x, y, m.terrain[i])
        g:set_height(x, y, m.hgt[i])
      end
    end
  else -- text: terrain from a legend, heights from digits, then weights
    local chars = { "a", "b", "c", "d" }
    local legend, lines, hl = {}, {}, {}
    for t = 1, #m.terrains do legend[chars[t]] = m.terrains[t] end
    legend["#"] = false
    for y = 1, h do
      local row, hrow = {}, {}
      for x = 1, w do
        local i = (y - 1) * w + x
        row[x] = chars[m.terrain[i] + 1]
        hrow[x] = tostring(m.hgt[i])
      end
      lines[y] = table.concat(row)
      hl[y] = table.concat(hrow)
    end
    g = astar.from_string(table.concat(lines, "\n"), legend, movement)
    g:load_heights(table.concat(hl, "\n"))
    for y = 1, h do
      for x = 1, w do
        local i = (y - 1) * w + x
        g:set_cost(x, y, m.weight[i])
        if m.wall[i] then g:set_blocked(x, y, true) end
      end
    end
  end
  return g, how
end

local function define_units(rng, m, g)
  local names = { "walker", "boat" }
  if rng:chance(0.3) then names[#names + 1] = "default" end
  for _, name in ipairs(names) do
    local u = random_unit(rng, m)
    m.units[name] = u
    g:set_unit(name, u.costs, u.rule)
  end
end

local UNITS = { "default", "walker", "boat" }

-- Every tile's cost for every unit, then random queries for every unit.
local function check_model(rng, m, g, label, queries)
  local w, h = m.width, m.height
  for _, name in ipairs(UNITS) do
    local desc = desc_for(m, name)
    for y = 1, h do
      for x = 1, w do
        local want = desc.cost(x, y)
        local got = g:get_cost(x, y, name)
        if want ~= got then
          error(("%s unit=%s: get_cost(%d, %d) = %s, expected %s"):format(
            label, name, x, y, tostring(got), tostring(want)), 0)
        end
      end
    end
    for _ = 1, queries do
      local sx, sy = rng:int(1, w), rng:int(1, h)
      local gx, gy = rng:int(1, w), rng:int(1, h)
      local want, why = helpers.dijkstra(desc, sx, sy, gx, gy)
      local path, cost = g:find_path(sx, sy, gx, gy, { unit = name })
      local where = ("%s unit=%s (%d,%d)->(%d,%d)"):format(
        label, name, sx, sy, gx, gy)
      if want == nil then
        if path ~= nil or cost ~= why then
          error(("%s: expected nil, %s; got %s, %s"):format(
            where, why, tostring(path), tostring(cost)), 0)
        end
      else
        if not path then
          error(("%s: expected cost %.9g, got nil, %s"):format(
            where, want, tostring(cost)), 0)
        end
        if not helpers.close(cost, want, REL) then
          error(("%s: cost %.12g, expected %.12g"):format(where, cost, want),
                0)
        end
        local walked, bad = helpers.check_path(desc, path, sx, sy, gx, gy)
        if not walked then error(where .. ": " .. bad, 0) end
        if not helpers.close(walked, cost, REL) then
          error(("%s: path walks to %.12g, reported %.12g"):format(
            where, walked, cost), 0)
        end
      end
    end
  end
end

-- One random edit, applied to the grid and mirrored in the model.
local function random_edit(rng, m, g)
  local w, h = m.width, m.height
  local x, y = rng:int(1, w), rng:int(1, h)
  local i = (y - 1) * w + x
  local kind = rng:int(1, 9)
  if kind == 1 then
    local c = rng:int(1, 12) / 4
    g:set_cost(x, y, c)
    m.weight[i], m.wall[i] = c, false
  elseif kind == 2 then
    local b = rng:chance(0.5)
    g:set_blocked(x, y, b)
    m.wall[i] = b
  elseif kind == 3 then
    g:set_cost(x, y, false)
    m.wall[i] = true
  elseif kind == 4 or kind == 5 then
    local t = rng:int(0, #m.terrains - 1)
    g:set_terrain(x, y, rng:chance(0.5) and m.terrains[t + 1] or t)
    m.terrain[i] = t
  elseif kind == 6 then
    local v = rng:int(0, 4)
    g:set_height(x, y, v)
    m.hgt[i] = v
  elseif kind == 7 then
    local rw, rh = rng:int(0, w - x + 1), rng:int(0, h - y + 1)
    local t = rng:int(0, #m.terrains - 1)
    g:fill_terrain(t, x, y, rw, rh)
    for yy = y, y + rh - 1 do
      for xx = x, x + rw - 1 do m.terrain[(yy - 1) * w + xx] = t end
    end
  elseif kind == 8 then
    local rw, rh = rng:int(0, w - x + 1), rng:int(0, h - y + 1)
    local c = rng:chance(0.3) and false or rng:int(1, 4)
    g:fill_rect(x, y, rw, rh, c)
    for yy = y, y + rh - 1 do
      for xx = x, x + rw - 1 do
        local j = (yy - 1) * w + xx
        if c then m.weight[j], m.wall[j] = c, false else m.wall[j] = true end
      end
    end
  else
    local name = rng:pick({ "walker", "boat", "default" })
    local u = random_unit(rng, m)
    m.units[name] = u
    g:set_unit(name, u.costs, u.rule)
  end
end

describe("unit classes against the reference Dijkstra", function()
  it("random grids: costs, walls, terrain, heights, three unit classes",
     function()
    for seed = 1, 160 do
      local rng = helpers.rng(seed * 7919)
      local m = new_model(rng)
      local g, how = build(rng, m)
      define_units(rng, m, g)
      local label = ("seed=%d %dx%d rule=%s lengths=%s build=%d"):format(
        seed, m.width, m.height, m.rule, m.lengths.name, how)
      check_model(rng, m, g, label, 4)
    end
  end)

  it("stays right through thousands of edits after the classes are built",
     function()
    for seed = 1, 40 do
      local rng = helpers.rng(seed * 104729)
      local m = new_model(rng, { width = rng:int(2, 14),
                                 height = rng:int(2, 14) })
      local g = build(rng, m)
      define_units(rng, m, g)
      local label = ("seed=%d %dx%d rule=%s"):format(seed, m.width,
                                                     m.height, m.rule)
      check_model(rng, m, g, label, 1)
      for step = 1, 60 do
        random_edit(rng, m, g)
        check_model(rng, m, g, label .. " after edit " .. step, 1)
      end
    end
  end)

  it("every movement rule, with a unit that cannot enter most terrain",
     function()
    for _, rule in ipairs(helpers.RULES) do
      for seed = 1, 15 do
        local rng = helpers.rng(seed * 31 + #rule)
        local m = new_model(rng, { rule = rule })
        local g = build(rng, m)
        m.units.boat = { costs = { ["*"] = false, t0 = 2 },
                         mult = { [0] = 2 }, rule = {} }
        g:set_unit("boat", { ["*"] = false, t0 = 2 })
        m.units.walker = { costs = { [1] = 0.25 }, mult = setmetatable(
          { [1] = 0.25 }, { __index = function() return 1 end }), rule = {} }
        g:set_unit("walker", { [1] = 0.25 })
        check_model(rng, m, g, ("rule=%s seed=%d"):format(rule, seed), 4)
      end
    end
  end)
end)

describe("terrain classes", function()
  it("names the terrains of the option in order, ids from 0", function()
    local g = astar.new(3, 1, { terrains = { "grass", "water" } })
    assert.are.equal("grass", g:get_terrain(1, 1))
    g:set_terrain(2, 1, "water")
    g:set_terrain(3, 1, 7)
    assert.are.equal("water", g:get_terrain(2, 1))
    assert.are.equal(7, g:get_terrain(3, 1))
    assert.are.equal(2, g:define_terrain("lava"))
    assert.are.equal(1, g:define_terrain("water"))
    g:set_terrain(1, 1, 2)
    assert.are.equal("lava", g:get_terrain(1, 1))
  end)

  it("a terrain layer keeps costs and walls; loading terrain keeps them too",
     function()
    local g = astar.from_string(".3#")
    g:load_terrain("012")
    assert.are.same({ 1, 3, false }, { g:get_cost(1, 1), g:get_cost(2, 1),
                                       g:get_cost(3, 1) })
    assert.are.same({ 0, 1, 2 }, { g:get_terrain(1, 1), g:get_terrain(2, 1),
                                   g:get_terrain(3, 1) })
  end)

  it("a legend may name terrain for from_string and load_string", function()
    local opts = { terrains = { "road", "swamp" } }
    local g = astar.from_string("=~=\n#~=", { ["="] = "road", ["~"] = "swamp",
                                              ["#"] = false }, opts)
    assert.are.equal("swamp", g:get_terrain(2, 2))
    assert.are.equal(1, g:get_cost(2, 2))
    assert.is_true(g:is_blocked(1, 2))
    g:load_string("~~~\n~~~", { ["~"] = "swamp" })
    assert.are.equal("swamp", g:get_terrain(1, 2))
    assert.is_false(g:is_blocked(1, 2))
  end)

  it("fill_terrain covers a rectangle or the whole grid", function()
    local g = astar.new(4, 3, { terrains = { "a", "b", "c" } })
    g:fill_terrain("b", 2, 2, 2, 2)
    local got = {}
    for y = 1, 3 do
      for x = 1, 4 do got[#got + 1] = g:get_terrain(x, y) end
    end
    assert.are.same({ "a", "a", "a", "a", "a", "b", "b", "a", "a", "b", "b",
                      "a" }, got)
    g:fill_terrain("c")
    assert.are.equal("c", g:get_terrain(1, 1))
    assert.are.equal("c", g:get_terrain(4, 3))
  end)
end)

describe("unit classes", function()
  local MAP = [[
..~~~..
..~~~..
..~~~..]]
  local function lake()
    return astar.from_string(MAP, { ["."] = "grass", ["~"] = "water" },
                             { terrains = { "grass", "water" } })
  end

  it("walker, boat and hovercraft see the same lake their own way", function()
    local g = lake()
    g:set_unit("walker", { water = false })
    g:set_unit("boat", { water = 1, ["*"] = false })
    g:set_unit("hovercraft", { water = 0.5 })
    local none, why = g:find_path(1, 1, 7, 1, { unit = "walker" })
    assert.is_nil(none)
    assert.are.equal("no_path", why)
    local _, reason = g:find_path(1, 1, 3, 1, { unit = "boat" })
    assert.are.equal("start_blocked", reason)
    local path, cost = g:find_path(3, 1, 5, 3, { unit = "boat" })
    assert.are.same({ 3, 1, 4, 2, 5, 3 }, path)
    assert.is_true(helpers.close(cost, 2 * helpers.SQRT2, 1e-12))
    local _, hc = g:find_path(1, 2, 7, 2, { unit = "hovercraft" })
    assert.are.equal(1 + 3 * 0.5 + 2, hc)
    local _, dc = g:find_path(1, 2, 7, 2)
    assert.are.equal(6, dc)
  end)

  it("a class's table can change at any time, and the default can be redefined",
     function()
    local g = lake()
    local _, c1 = g:find_path(1, 2, 7, 2)
    g:set_unit("default", { water = 4 })
    local _, c2 = g:find_path(1, 2, 7, 2)
    assert.are.equal(6, c1)
    assert.is_true(c2 > c1)
    g:set_unit("default", {})
    local _, c3 = g:find_path(1, 2, 7, 2)
    assert.are.equal(6, c3)
  end)

  it("weights multiply the class cost", function()
    local g = lake()
    g:set_unit("boat", { water = 2 })
    g:set_cost(4, 2, 5)
    assert.are.equal(10, g:get_cost(4, 2, "boat"))
    assert.are.equal(5, g:get_cost(4, 2))
    assert.are.equal(5, g:get_cost(4, 2, "default"))
  end)

  it("a height limit bans steps up a cliff; climb costs are added", function()
    local g = astar.new(5, 1)
    g:load_heights("01234")
    g:set_unit("goat", {}, { max_climb = 1, climb = 2 })
    g:set_unit("crab", {}, { max_climb = 0 })
    local _, cost = g:find_path(1, 1, 5, 1, { unit = "goat" })
    assert.are.equal(4 + 4 * 2, cost)
    local _, back = g:find_path(5, 1, 1, 1, { unit = "goat" })
    assert.are.equal(4, back)
    assert.is_nil((g:find_path(1, 1, 5, 1, { unit = "crab" })))
    assert.is_truthy(g:find_path(5, 1, 1, 1, { unit = "crab" }))
    g:set_unit("faller", {}, { max_drop = 0, descend = 1 })
    assert.is_nil((g:find_path(5, 1, 1, 1, { unit = "faller" })))
  end)

  it("memory grows only for classes whose table is not all 1", function()
    local g = astar.new(50, 40)
    g:find_path(1, 1, 2, 2)
    local base = g:memory()
    g:set_unit("plain", { ["*"] = 1 })
    g:find_path(1, 1, 2, 2, { unit = "plain" })
    local plain = g:memory()
    assert.is_true(plain - base < 2048, plain - base)
    g:set_unit("boat", { [0] = 2 })
    g:find_path(1, 1, 2, 2, { unit = "boat" })
    -- its layers (5 1/8 bytes a tile) and its zone labels (4 bytes a tile,
    -- built by the search; spec/zones_spec.lua)
    local tiles = 52 * 42
    assert.is_true(g:memory() - plain >= tiles * 9, g:memory() - plain)
    assert.is_true(g:memory() - plain <= tiles * 10 + 4096, g:memory() - plain)
  end)
end)

describe("jump point search for unit classes", function()
  local function ran(g, sx, sy, gx, gy, opts)
    local st = {}
    opts.stats = st
    local p, c = g:find_path(sx, sy, gx, gy, opts)
    return p, c, st.algorithm
  end

  it("runs for a class whose passable tiles all cost the same, and agrees"
     .. " with A* through terrain and wall edits", function()
    for seed = 1, 60 do
      local rng = helpers.rng(seed * 2654435761 % 2147483647)
      local w, h = rng:int(1, 30), rng:int(1, 30)
      local g = astar.new(w, h, { terrains = { "land", "water", "reef" } })
      for y = 1, h do
        for x = 1, w do
          local r = rng:int(1, 10)
          if r <= 6 then g:set_terrain(x, y, "water")
          elseif r == 7 then g:set_terrain(x, y, "reef") end
          if rng:chance(0.1) then g:set_blocked(x, y, true) end
        end
      end
      local k = rng:pick({ 1, 2, 0.5 })
      g:set_unit("boat", { water = k, ["*"] = false })
      for step = 1, 40 do
        local sx, sy = rng:int(1, w), rng:int(1, h)
        local gx, gy = rng:int(1, w), rng:int(1, h)
        local p1, c1, alg = ran(g, sx, sy, gx, gy, { unit = "boat" })
        local p2, c2 = g:find_path(sx, sy, gx, gy, { unit = "boat",
                                                     algorithm = "astar" })
        local where = ("seed=%d step=%d (%d,%d)->(%d,%d)"):format(
          seed, step, sx, sy, gx, gy)
        assert.are.equal("jps", alg, where)
        assert.are.equal(p1 == nil, p2 == nil, where)
        if p1 then
          assert.is_true(helpers.close(c1, c2, 1e-9),
                         where .. (": jps %.12g, astar %.12g"):format(c1, c2))
          -- legal for the boat: every tile water and open
          for i = 1, #p1, 2 do
            assert.are.equal("water", g:get_terrain(p1[i], p1[i + 1]), where)
            assert.is_false(g:is_blocked(p1[i], p1[i + 1]), where)
          end
        else
          assert.are.equal(c2, c1, where)
        end
        -- an edit between queries: the boat's own bits and their
        -- column-major copy must follow
        local x, y = rng:int(1, w), rng:int(1, h)
        local e = rng:int(1, 3)
        if e == 1 then
          g:set_terrain(x, y, rng:pick({ "land", "water", "reef" }))
        elseif e == 2 then
          g:set_blocked(x, y, rng:chance(0.5))
        else
          g:set_cost(x, y, 1)
        end
      end
    end
  end)

  it("falls back to A* when the class's costs differ between tiles", function()
    local g = astar.new(6, 3, { terrains = { "land", "water" } })
    g:fill_terrain("water", 1, 2, 6, 1)
    g:set_unit("hover", { water = 0.5 })
    local _, _, alg = ran(g, 1, 1, 6, 3, { unit = "hover" })
    assert.are.equal("astar", alg)
    local msg = helpers.error_of(g.find_path, g, 1, 1, 6, 3,
                                 { unit = "hover", algorithm = "jps" })
    assert.is_truthy(msg:find("algorithm 'jps' needs uniform tile costs", 1,
                              true), msg)
    g:set_unit("hover", { water = 1 })
    _, _, alg = ran(g, 1, 1, 6, 3, { unit = "hover" })
    assert.are.equal("jps", alg)
  end)
end)
