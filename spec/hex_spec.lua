-- Hex grids (diagonals = "hex"): costs equal the reference Dijkstra of
-- spec/helpers.lua on hex neighbours, for weights, unit classes, heights and
-- callbacks; BFS counts hex steps; the offset conversions of astar.hex
-- round-trip; a hand-drawn map.
local astar = require("astar")
local helpers = require("helpers")

local REL = 1e-9
local CASES = 150

-- A random hex case: grid, description, costs (flat list, false = wall).
local function hex_case(rng, opts)
  opts = opts or {}
  local w, h = rng:int(1, 16), rng:int(1, 16)
  local card = rng:pick({ 1, 2, 3 })
  local wall = rng:int(0, 45) / 100
  local kind = rng:pick({ "uniform", "int", "real" })
  local costs = {}
  for i = 1, w * h do
    if rng:chance(wall) then
      costs[i] = false
    elseif kind == "uniform" then
      costs[i] = 1
    elseif kind == "int" then
      costs[i] = rng:int(1, 9)
    else
      costs[i] = rng:int(1, 2559) / 256
    end
  end
  -- the diagonal length is ignored on a hex grid: give a silly one
  local grid = astar.new(w, h, { diagonals = "hex", cardinal = card,
                                 diagonal = 100 })
  grid:load(costs)
  local desc = helpers.describe(w, h, costs,
    { diagonals = "hex", cardinal = card, diagonal = 100 })
  return { grid = grid, desc = desc, costs = costs, w = w, h = h,
           integer = kind ~= "real",
           name = ("%dx%d cardinal=%d wall=%.2f %s"):format(w, h, card,
                                                              wall, kind) }
end

local function pick(rng, c)
  for _ = 1, 30 do
    local x, y = rng:int(1, c.w), rng:int(1, c.h)
    if c.costs[(y - 1) * c.w + x] then return x, y end
  end
  return rng:int(1, c.w), rng:int(1, c.h)
end

local function same(integer, a, b)
  if integer then return a == b end
  return helpers.close(a, b, REL)
end

-- Runs query(case, sx, sy, gx, gy) -> path, cost against ref(...) over
-- random cases.
local function against_reference(base, desc_of, query)
  for k = 1, CASES do
    local seed = base + k
    local rng = helpers.rng(seed)
    local c = hex_case(rng)
    local desc = desc_of and desc_of(c, rng) or c.desc
    local sx, sy = pick(rng, c)
    local gx, gy = pick(rng, c)
    local ctx = ("seed=%d %s (%d,%d)->(%d,%d)"):format(seed, c.name, sx, sy,
                                                       gx, gy)
    local ref, reason = helpers.dijkstra(desc, sx, sy, gx, gy)
    local path, cost = query(c, sx, sy, gx, gy)
    if ref == nil then
      assert(path == nil and cost == reason, ctx .. ": expected " .. reason
        .. ", got " .. tostring(cost))
    else
      assert(path, ctx .. ": no path (" .. tostring(cost) .. "), expected "
        .. ref)
      local sum, why = helpers.check_path(desc, path, sx, sy, gx, gy)
      assert(sum, ctx .. ": " .. tostring(why))
      assert(same(c.integer, sum, cost), ctx .. ": cost " .. cost
        .. " but the path sums to " .. sum)
      assert(same(c.integer, cost, ref), ctx .. ": cost " .. cost
        .. ", optimal " .. ref)
    end
  end
end

describe("hex grids", function()
  it("report their movement; the diagonal length is kept, unused", function()
    local g = astar.new(4, 3, { diagonals = "hex", cardinal = 2 })
    local m = g:get_movement()
    assert.are.equal("hex", m.diagonals)
    assert.are.equal(2, m.cardinal)
    -- six neighbours, every step of the cardinal length
    local _, cost = g:find_path(1, 2, 2, 1) -- NE
    assert.are.equal(2, cost)
    assert.is_nil((g:find_path(1, 1, 2, 2, { max_length = 1 }))) -- no SE
    g:set_movement({ diagonals = "no_corner_cut" }) -- back to squares
    assert.is_true(helpers.close(helpers.SQRT2,
                                 select(2, g:find_path(1, 1, 2, 2)), 1e-12))
  end)

  it("costs equal the reference Dijkstra on hex neighbours", function()
    against_reference(50000, nil, function(c, sx, sy, gx, gy)
      return c.grid:find_path(sx, sy, gx, gy)
    end)
  end)

  it("zones follow the six neighbours, through wall edits", function()
    for seed = 1, helpers.cases(40) do
      local rng = helpers.rng(seed * 7907)
      local case = helpers.random_case(rng, astar, { rule = "hex",
        width = rng:int(2, 16), height = rng:int(2, 16) })
      local g, w, h = case.grid, case.width, case.height
      for step = 1, 12 do
        -- every pair of open tiles: same zone exactly when reachable
        local sx, sy = rng:int(1, w), rng:int(1, h)
        for gy = 1, h do
          for gx = 1, w do
            local ref, why = helpers.dijkstra(case.desc, sx, sy, gx, gy)
            local ctx = ("seed=%d step=%d (%d,%d)->(%d,%d)"):format(
              seed, step, sx, sy, gx, gy)
            if why ~= "start_blocked" and why ~= "goal_blocked" then
              assert.are.equal(ref ~= nil, g:connected(sx, sy, gx, gy), ctx)
            end
          end
        end
        -- a wall opened or closed, mirrored in the case's cost list
        local x, y = rng:int(1, w), rng:int(1, h)
        local i = (y - 1) * w + x
        if case.costs[i] then
          g:set_blocked(x, y, true)
          case.costs[i] = false
        else
          g:set_cost(x, y, 1)
          case.costs[i] = 1
        end
      end
    end
  end)

  it("dijkstra and other heuristics agree (chebyshev is admissible)",
     function()
    against_reference(51000, nil, function(c, sx, sy, gx, gy)
      local p1, c1 = c.grid:find_path(sx, sy, gx, gy,
                                      { algorithm = "dijkstra" })
      local p2, c2 = c.grid:find_path(sx, sy, gx, gy,
                                      { heuristic = "chebyshev" })
      if p1 then assert(same(c.integer, c1, c2), c.name) end
      return p1, c1
    end)
  end)

  it("unit classes: costs per terrain", function()
    against_reference(52000, function(c, rng)
      -- terrain by tile, then a unit that pays 1..5 per terrain or not at
      -- all
      local terr, table_ = {}, { [0] = 1 }
      for i = 1, c.w * c.h do terr[i] = rng:int(0, 3) end
      c.grid:load_terrain(terr)
      local unit = {}
      for t = 0, 3 do
        if rng:chance(0.2) then table_[t] = false
        else table_[t] = rng:int(1, 5) end
        unit[t] = table_[t]
      end
      c.grid:set_unit("u", unit)
      return {
        width = c.w, height = c.h, diagonals = "hex",
        cardinal = c.desc.cardinal, diagonal = 100,
        cost = function(x, y)
          local i = (y - 1) * c.w + x
          local w, m = c.costs[i], table_[terr[i]]
          if not w or not m then return false end
          return w * m
        end,
      }
    end, function(c, sx, sy, gx, gy)
      return c.grid:find_path(sx, sy, gx, gy, { unit = "u" })
    end)
  end)

  it("heights: climb and descend costs, climb and drop limits", function()
    against_reference(53000, function(c, rng)
      local hs = {}
      for i = 1, c.w * c.h do hs[i] = rng:int(0, 4) end
      c.grid:load_heights(hs)
      local climb, descend = rng:int(0, 3), rng:int(0, 1)
      local max_climb = rng:pick({ 1, 2, math.huge })
      local max_drop = rng:pick({ 2, math.huge })
      c.grid:set_unit("climber", {}, { climb = climb, descend = descend,
        max_climb = max_climb, max_drop = max_drop })
      local desc = helpers.describe(c.w, c.h, c.costs, c.desc)
      desc.extra = function(x, y, nx, ny)
        local dh = hs[(ny - 1) * c.w + nx] - hs[(y - 1) * c.w + x]
        if dh > max_climb or -dh > max_drop then return false end
        return dh > 0 and climb * dh or -descend * dh
      end
      return desc
    end, function(c, sx, sy, gx, gy)
      return c.grid:find_path(sx, sy, gx, gy, { unit = "climber" })
    end)
  end)

  it("tile and move callbacks", function()
    against_reference(54000, function(c)
      local desc = helpers.describe(c.w, c.h, c.costs, c.desc)
      local base = desc.cost
      desc.cost = function(x, y)
        local v = base(x, y)
        if v and (x + 2 * y) % 7 == 0 then return 3 * v end
        return v
      end
      desc.move = function(x, y, nx, ny, cost)
        if nx < x and ny > y and x % 3 == 0 then return false end -- no SW
        if nx > x and ny < y then return cost * 2 end -- NE costs double
        return cost
      end
      return desc
    end, function(c, sx, sy, gx, gy)
      return c.grid:find_path(sx, sy, gx, gy, {
        tile_cost = function(x, y, cost)
          if (x + 2 * y) % 7 == 0 then return 3 * cost end
          return cost
        end,
        move_cost = function(x, y, nx, ny, cost)
          if nx < x and ny > y and x % 3 == 0 then return false end
          if nx > x and ny < y then return cost * 2 end
          return cost
        end })
    end)
  end)

  it("bfs: the fewest hex steps", function()
    for k = 1, CASES do
      local seed = 55000 + k
      local rng = helpers.rng(seed)
      local c = hex_case(rng)
      local sx, sy = pick(rng, c)
      local gx, gy = pick(rng, c)
      local unit = helpers.describe(c.w, c.h, c.costs,
                                    { diagonals = "hex", cardinal = 1 })
      unit.cost = function(x, y) return c.costs[(y - 1) * c.w + x] and 1 end
      local steps = helpers.dijkstra(unit, sx, sy, gx, gy)
      local path = c.grid:find_path(sx, sy, gx, gy, { algorithm = "bfs" })
      if steps then
        assert(path, "seed " .. seed)
        assert(helpers.check_path(c.desc, path, sx, sy, gx, gy))
        assert.are.equal(steps, #path / 2 - 1, "seed " .. seed)
      else
        assert.is_nil(path)
      end
    end
  end)

  it("a hand-drawn map", function()
    -- axial grid; '#' walls.  From (1, 3) to (5, 1): the wall in column 3
    -- leaves the gap at its top, reached by NE steps.
    local g = astar.from_string([[
.....
..#..
..#..]], nil, { diagonals = "hex" })
    local path, cost = g:find_path(1, 3, 5, 1)
    assert.are.equal(4, cost)
    assert.are.same({ 1, 3, 2, 2, 3, 1, 4, 1, 5, 1 }, path)
    -- the straight line NE is 4 steps on an open hex grid
    local open = astar.new(5, 5, { diagonals = "hex" })
    assert.are.equal(4, select(2, open:find_path(1, 5, 5, 1)))
    -- and SE is two steps each way (E then S)
    assert.are.equal(8, select(2, open:find_path(1, 1, 5, 5)))
    -- no SE neighbour: next_to_blocked_goal stops E or S of ... the six
    open:set_blocked(3, 3)
    local p2 = open:find_path(1, 1, 3, 3, { next_to_blocked_goal = true })
    local ex, ey = p2[#p2 - 1], p2[#p2]
    assert.are.equal(1, astar.hex.distance(ex, ey, 3, 3))
  end)

  it("jps does not run on hex grids; auto runs A*", function()
    local g = astar.new(6, 6, { diagonals = "hex" })
    local stats = {}
    g:find_path(1, 1, 6, 6, { stats = stats })
    assert.are.equal("astar", stats.algorithm)
    local msg = helpers.error_of(g.find_path, g, 1, 1, 6, 6,
                                 { algorithm = "jps" })
    assert.truthy(msg:find("algorithm 'jps' needs 8-way movement", 1, true))
  end)
end)

describe("astar.hex", function()
  local hex = astar.hex

  it("offset <-> axial round-trips in every layout", function()
    for _, layout in ipairs(hex.LAYOUTS) do
      for row = -4, 9 do
        for col = -4, 9 do
          local q, r = hex.from_offset(layout, col, row)
          local c2, r2 = hex.to_offset(layout, q, r)
          assert.are.equal(col, c2, layout)
          assert.are.equal(row, r2, layout)
        end
      end
      local q, r = hex.from_offset(layout, 1, 1)
      assert.are.equal(1, q)
      assert.are.equal(1, r)
    end
  end)

  it("offset neighbours are axial neighbours", function()
    -- odd-r: an odd (0-based) row is pushed right, so the hex below-right
    -- of (col, row) is (col + 1, row + 1) on such rows
    local function adjacent(layout, c1, r1, c2, r2)
      local q1, s1 = hex.from_offset(layout, c1, r1)
      local q2, s2 = hex.from_offset(layout, c2, r2)
      return hex.distance(q1, s1, q2, s2) == 1
    end
    -- row 2 is 0-based row 1 (odd): pushed right under odd-r
    assert.is_true(adjacent("odd-r", 3, 2, 4, 1))
    assert.is_true(adjacent("odd-r", 3, 2, 4, 3))
    assert.is_false(adjacent("odd-r", 3, 2, 2, 1))
    assert.is_true(adjacent("even-r", 3, 2, 2, 1))
    assert.is_false(adjacent("even-r", 3, 2, 4, 1))
    -- column 2 is 0-based column 1 (odd): pushed down under odd-q
    assert.is_true(adjacent("odd-q", 2, 3, 1, 4))
    assert.is_false(adjacent("odd-q", 2, 3, 1, 2))
    assert.is_true(adjacent("even-q", 2, 3, 1, 2))
    -- every layout: six neighbours per inner hex
    for _, layout in ipairs(hex.LAYOUTS) do
      local n = 0
      for r = 1, 7 do
        for c = 1, 7 do
          if (c ~= 4 or r ~= 4) and adjacent(layout, 4, 4, c, r) then
            n = n + 1
          end
        end
      end
      assert.are.equal(6, n, layout)
    end
  end)

  it("map: a grid covering an offset map, the rest blocked", function()
    for _, layout in ipairs(hex.LAYOUTS) do
      for _, size in ipairs({ { 1, 1 }, { 6, 5 }, { 5, 6 }, { 2, 9 } }) do
        local cols, rows = size[1], size[2]
        local m = hex.map(layout, cols, rows)
        local g = m:new_grid({ cost = 2 })
        local w, h = g:size()
        assert.are.equal(m.width, w)
        assert.are.equal(m.height, h)
        assert.are.equal("hex", g:get_movement().diagonals)
        local open = 0
        for y = 1, h do
          for x = 1, w do
            if not g:is_blocked(x, y) then
              open = open + 1
              assert.are.equal(2, g:get_cost(x, y))
              local c, r = m:to_offset(x, y)
              assert.is_number(c)
              local x2, y2 = m:to_grid(c, r)
              assert.are.equal(x, x2)
              assert.are.equal(y, y2)
            else
              assert.is_nil(m:to_offset(x, y))
            end
          end
        end
        assert.are.equal(cols * rows, open, layout)
      end
    end
  end)

  it("map: paths between offset tiles, converted back", function()
    local m = hex.map("odd-r", 8, 6)
    local g = m:new_grid()
    local sx, sy = m:to_grid(1, 1)
    local gx, gy = m:to_grid(8, 6)
    local path, cost = g:find_path(sx, sy, gx, gy)
    local q1, r1 = hex.from_offset("odd-r", 1, 1)
    local q2, r2 = hex.from_offset("odd-r", 8, 6)
    assert.are.equal(hex.distance(q1, r1, q2, r2), cost)
    local off = m:path_to_offset(path)
    assert.are.same({ 1, 1 }, { off[1], off[2] })
    assert.are.same({ 8, 6 }, { off[#off - 1], off[#off] })
    for i = 1, #off do assert.is_number(off[i]) end
  end)

  it("bad arguments", function()
    local msg = helpers.error_of(hex.from_offset, "odd", 1, 1)
    assert.are.equal("bad argument #1 to 'from_offset' (layout must be one "
      .. "of 'odd-r', 'even-r', 'odd-q', 'even-q', got 'odd')", msg)
    msg = helpers.error_of(hex.to_offset, "odd-r", 1.5, 1)
    assert.are.equal("bad argument #2 to 'to_offset' (q must be an integer, "
      .. "got 1.5)", msg)
    msg = helpers.error_of(hex.map, "odd-r", 0, 3)
    assert.are.equal("bad argument #2 to 'map' (cols out of range 1..65534,"
      .. " got 0)", msg)
    -- the rest of the bad arguments: spec/bad_input_spec.lua, "hex"
  end)
end)
