-- grid:find_path and grid:next_step: results, reasons, the `out` table,
-- the expanded count, tie-breaking and determinism.
local astar = require("astar")
local helpers = require("helpers")

local S2 = math.sqrt(2)

-- See "returns the same paths on every runtime" below.
local PINNED_FINGERPRINT = 410760823

-- A serpentine of 51 one-tile corridors (odd columns of a 101x101 grid),
-- joined by gaps alternately at the bottom and the top.  From (1,1) the
-- only way to (101,101) runs down, across, up, ...: 51 * 100 vertical and
-- 100 horizontal steps.
local function serpentine(movement)
  local g = astar.new(101, 101, movement)
  for x = 2, 100, 2 do
    g:fill_rect(x, 1, 1, 101, false)
    if x % 4 == 2 then g:set_cost(x, 101, 1) else g:set_cost(x, 1, 1) end
  end
  return g
end

describe("find_path results", function()
  it("returns a flat path from start to goal, its cost and expanded", function()
    local g = astar.from_string("...\n.#.\n...", nil, { diagonals = "never" })
    local path, cost, expanded = g:find_path(1, 1, 3, 3)
    assert.are.equal(4, cost)
    assert.are.equal(10, #path)   -- 5 tiles
    local pc, err = helpers.check_path(helpers.desc_of_grid(g), path,
                                       1, 1, 3, 3)
    assert(pc, err)
    assert.are.equal(4, pc)
    assert.is_true(helpers.is_int(expanded) and expanded >= 1,
                   "expanded = " .. tostring(expanded))
  end)

  it("start == goal gives {sx, sy} and cost 0", function()
    local g = astar.new(5, 5)
    g:set_cost(3, 4, 7)
    for _, q in ipairs({ { 1, 1 }, { 3, 4 }, { 5, 5 } }) do
      local path, cost, expanded = g:find_path(q[1], q[2], q[1], q[2])
      assert.are.same({ q[1], q[2] }, path)
      assert.are.equal(0, cost)
      assert.is_true(helpers.is_int(expanded) and expanded >= 0)
    end
    local path, cost = astar.new(1, 1):find_path(1, 1, 1, 1)
    assert.are.same({ 1, 1 }, path)
    assert.are.equal(0, cost)
  end)

  it("blocked start: nil, 'start_blocked', 0 expanded", function()
    local g = astar.from_string("#.\n.#")
    assert.are.same({ nil, "start_blocked", 0 },
                    { g:find_path(1, 1, 2, 1) })
    -- the start is checked first, also when both ends are blocked, and
    -- when start == goal
    assert.are.same({ nil, "start_blocked", 0 },
                    { g:find_path(1, 1, 2, 2) })
    assert.are.same({ nil, "start_blocked", 0 },
                    { g:find_path(1, 1, 1, 1, { algorithm = "astar" }) })
  end)

  it("blocked goal: nil, 'goal_blocked'", function()
    local g = astar.from_string("#.\n.#")
    local path, reason, expanded = g:find_path(2, 1, 2, 2)
    assert.is_nil(path)
    assert.are.equal("goal_blocked", reason)
    assert.is_true(helpers.is_int(expanded) and expanded >= 0)
  end)

  it("no path: nil, 'no_path', every reachable tile expanded once", function()
    local g = astar.from_string("...#...\n...#...")
    local path, reason, expanded = g:find_path(1, 1, 7, 1,
      { zones = false, algorithm = "astar" })
    assert.is_nil(path)
    assert.are.equal("no_path", reason)
    assert.are.equal(6, expanded)
    -- with zones (the default) nothing is expanded: the goal is in another
    assert.are.equal(0, select(3, g:find_path(1, 1, 7, 1)))
    -- diagonal squeeze under the default rule: no path either
    path, reason = astar.from_string(".#\n#."):find_path(1, 1, 2, 2)
    assert.is_nil(path)
    assert.are.equal("no_path", reason)
  end)

  it("finds a 5201-tile path through a serpentine", function()
    for _, rule in ipairs({ "no_corner_cut", "never" }) do
      local g = serpentine({ diagonals = rule })
      local path, cost = g:find_path(1, 1, 101, 101)
      assert.are.equal(5200, cost)
      assert.are.equal(2 * 5201, #path)
      local pc, err = helpers.check_path(helpers.desc_of_grid(g), path,
                                         1, 1, 101, 101)
      assert(pc, err)
      assert.are.equal(5200, pc)
    end
  end)

  it("finds changed paths after edits (no stale search state)", function()
    local g = astar.new(5, 3, { diagonals = "never" })
    local a = g:find_path(1, 2, 5, 2)
    assert.are.same({ 1, 2, 2, 2, 3, 2, 4, 2, 5, 2 }, a)
    g:set_blocked(3, 2)
    local b, cost = g:find_path(1, 2, 5, 2)
    assert.are.equal(6, cost)
    assert.are.equal(14, #b)
    g:set_blocked(3, 1)
    g:set_blocked(3, 3)
    assert.are.same({ nil, "no_path" }, { (g:find_path(1, 2, 5, 2)),
                                          (select(2, g:find_path(1, 2, 5, 2))) })
    g:set_cost(3, 3, 2)
    local c
    c, cost = g:find_path(1, 2, 5, 2)
    assert.are.equal(7, cost)
    -- the only way is through (3,3); several paths of cost 7 go there
    assert.are.equal(7, helpers.check_path(helpers.desc_of_grid(g), c,
                                           1, 2, 5, 2))
  end)

  it("runs many queries on one grid, each as if alone", function()
    local rng = helpers.rng(4242)
    local case = helpers.random_case(rng, astar, { width = 30, height = 30,
      wall = 0.25, weights = "int", rule = "no_corner_cut",
      lengths = helpers.LENGTHS[2] })
    local fresh = {}
    for i = 1, 60 do
      local q = { rng:int(1, 30), rng:int(1, 30), rng:int(1, 30), rng:int(1, 30) }
      local p, c = case.grid:find_path(q[1], q[2], q[3], q[4])
      fresh[i] = { q = q, p = p, c = c }
    end
    -- the same queries on a new grid with the same tiles, in reverse order
    local g2 = astar.new(30, 30, { cardinal = 2, diagonal = 3 })
    g2:load(case.costs)
    for i = 60, 1, -1 do
      local f = fresh[i]
      local p, c = g2:find_path(f.q[1], f.q[2], f.q[3], f.q[4])
      assert.are.same(f.p, p)
      assert.are.equal(f.c, c)
    end
  end)
end)

describe("find_path's out table", function()
  it("is filled and returned", function()
    local g = astar.new(4, 4)
    local out = {}
    local path, cost = g:find_path(1, 1, 4, 4, nil, out)
    assert.is_true(rawequal(out, path))
    assert.are.same({ 1, 1, 2, 2, 3, 3, 4, 4 }, out)
    assert.are.equal(3 * S2, cost)
  end)

  it("has its old tail cleared when the options hold callbacks", function()
    -- the callbacks sit on the Lua stack during the call: clearing must
    -- address the out table itself, not a slot below it
    local g = astar.new(5, 5, { diagonals = "never" })
    local out = {}
    for i = 1, 40 do out[i] = "old" end
    local same = function(_, _, c) return c end
    local moved = function(_, _, _, _, c) return c end
    local path = g:find_path(1, 1, 2, 1, { tile_cost = same,
                                           move_cost = moved }, out)
    assert.is_true(rawequal(out, path))
    assert.are.same({ 1, 1, 2, 1 }, out)
    for i = 5, 40 do assert.is_nil(out[i], "out[" .. i .. "]") end
  end)

  it("has its old tail cleared", function()
    local g = astar.new(5, 5, { diagonals = "never" })
    local out = {}
    for i = 1, 100 do out[i] = "old" end
    local path = g:find_path(1, 1, 2, 1, {}, out)
    assert.is_true(rawequal(out, path))
    assert.are.equal(4, #out)
    for i = 5, 100 do assert.is_nil(out[i], "out[" .. i .. "]") end
    -- longer, then shorter again
    g:find_path(1, 1, 5, 5, nil, out)
    assert.are.equal(18, #out)
    g:find_path(3, 3, 3, 3, nil, out)
    assert.are.same({ 3, 3 }, out)
  end)

  it("has its old tail cleared through its length, then to the first nil",
     function()
    local g = astar.new(5, 5, { diagonals = "never" })
    -- a border of the table at 60, a hole at 61, then more
    local out = {}
    for i = 1, 60 do out[i] = "old" end
    out[62], out[63] = "past", "the hole"
    local path = g:find_path(1, 1, 3, 1, nil, out)
    assert.is_true(rawequal(out, path))
    for i = 1, 6 do assert.are.equal(({ 1, 1, 2, 1, 3, 1 })[i], out[i]) end
    for i = 7, 61 do assert.is_nil(out[i], "out[" .. i .. "]") end
    -- (62 and 63 go too when the table's length is a border past the
    -- hole, as Lua may answer for such a table: its # is any border)
  end)

  it("gives the same path as a fresh table", function()
    local g = astar.from_string(".....\n.###.\n...#.\n.#...")
    local out = { 9, 9, 9 }
    local a = g:find_path(1, 4, 5, 1)
    local b = g:find_path(1, 4, 5, 1, nil, out)
    assert.are.same(a, b)
  end)

  it("makes repeated queries allocate nothing", function()
    local g = serpentine()
    local out = {}
    g:find_path(1, 1, 101, 101, nil, out)   -- scratch and out at full size
    local x, y, c = g:next_step(1, 1, 101, 101)
    assert.are.same({ 1, 2, 5200 }, { x, y, c })
    collectgarbage("collect")
    collectgarbage("stop")
    local before = collectgarbage("count")
    for _ = 1, 20 do
      g:find_path(1, 1, 101, 101, nil, out)
      g:find_path(1, 1, 31, 101, nil, out)
      g:next_step(1, 1, 101, 101)
    end
    local grown = collectgarbage("count") - before
    collectgarbage("restart")
    -- a new path table per query would be 20 * 80 KB here
    assert.is_true(grown < 16, ("%.1f KB allocated by 60 queries"):format(grown))
  end)
end)

describe("next_step", function()
  it("returns the first step of find_path's path and its whole cost", function()
    local g = astar.from_string("..#..\n..#..\n.....", nil,
                                { cardinal = 2, diagonal = 3 })
    local path, cost = g:find_path(1, 1, 5, 1)
    local x, y, c = g:next_step(1, 1, 5, 1)
    assert.are.same({ path[3], path[4], cost }, { x, y, c })
    assert.are.equal(14, c)
  end)

  it("at the goal returns the goal and 0", function()
    local g = astar.new(3, 3)
    assert.are.same({ 2, 3, 0 }, { g:next_step(2, 3, 2, 3) })
  end)

  it("returns nil and the reason when there is no path", function()
    local g = astar.from_string("#..\n.#.\n..#")
    assert.are.same({ nil, "start_blocked" }, { g:next_step(1, 1, 2, 1) })
    assert.are.same({ nil, "goal_blocked" }, { g:next_step(2, 1, 3, 3) })
    assert.are.same({ nil, "no_path" }, { g:next_step(2, 1, 1, 2) })
  end)

  it("takes the same options as find_path", function()
    local g = astar.new(4, 4)
    local path, cost = g:find_path(1, 1, 4, 3, { heuristic = "zero" })
    local x, y, c = g:next_step(1, 1, 4, 3, { heuristic = "zero" })
    assert.are.same({ path[3], path[4], cost }, { x, y, c })
    path, cost = g:find_path(1, 1, 4, 3, { weight = 3 })
    x, y, c = g:next_step(1, 1, 4, 3, { weight = 3 })
    assert.are.same({ path[3], path[4], cost }, { x, y, c })
  end)
end)

describe("tie-breaking and determinism", function()
  it("prefers the larger g among equal f (8-way)", function()
    -- (1,1) -> (3,2): E then SE, or SE then E, both 1 + sqrt 2.  After the
    -- start, SE (2,2) has g = sqrt 2 and E (2,1) g = 1, the same f: SE wins.
    local g = astar.new(3, 3)
    assert.are.same({ 1, 1, 2, 2, 3, 2 }, (g:find_path(1, 1, 3, 2)))
  end)

  it("among equal f and g, still returns one of the optimal paths", function()
    -- 4-way 3x3, (1,1) -> (3,3): six paths of cost 4 tie completely
    local g = astar.new(3, 3, { diagonals = "never" })
    local desc = helpers.desc_of_grid(g)
    for _, q in ipairs({ { 1, 1, 3, 3 }, { 3, 3, 1, 1 }, { 3, 1, 1, 3 } }) do
      local path, cost = g:find_path(q[1], q[2], q[3], q[4])
      assert.are.equal(4, cost)
      assert.are.equal(4, helpers.check_path(desc, path, q[1], q[2], q[3], q[4]))
    end
  end)

  it("returns the same paths on every runtime (pinned fingerprint)", function()
    -- docs/api.md: "the same query on the same grid returns the same path
    -- on every runtime and platform".  This folds the paths of 400 queries
    -- on random grids full of ties into one number and compares it with the
    -- value every runtime gave when the test was written.  If the tie rule
    -- is changed on purpose, print the new value and update it here.
    local M31 = 2147483647
    local h = 0
    local function fold(v) h = (h * 31 + v) % M31 end
    local rng = helpers.rng(31337)
    for _ = 1, 40 do
      local case = helpers.random_case(rng, astar, {
        weights = rng:pick({ "uniform", "uniform_k", "int" }), wall = 0.15,
        lengths = rng:pick({ helpers.LENGTHS[1], helpers.LENGTHS[2],
                             helpers.LENGTHS[3] }) })
      for _ = 1, 10 do
        local path, r = case.grid:find_path(
          rng:int(1, case.width), rng:int(1, case.height),
          rng:int(1, case.width), rng:int(1, case.height),
          { algorithm = "astar" })
        if path then
          fold(#path)
          for i = 1, #path do fold(path[i]) end
        else
          fold(#r)
        end
      end
    end
    assert.are.equal(PINNED_FINGERPRINT, h)
  end)

  it("gives the same path for the same query, every time", function()
    local rng = helpers.rng(99)
    for _ = 1, 20 do
      local case = helpers.random_case(rng, astar, { wall = 0.2 })
      local w, h = case.width, case.height
      local sx, sy, gx, gy = rng:int(1, w), rng:int(1, h), rng:int(1, w),
                             rng:int(1, h)
      local a = { case.grid:find_path(sx, sy, gx, gy) }
      local b = { case.grid:find_path(sx, sy, gx, gy) }
      assert.are.same(a, b)
      -- also on a second grid built the same way
      local g2 = astar.new(w, h, case.grid:get_movement())
      g2:load(case.costs)
      assert.are.same(a, { g2:find_path(sx, sy, gx, gy) })
    end
  end)
end)

describe("costs at the edge of the float range", function()
  it("sums past the float maximum without trouble", function()
    -- each step costs ~3e38 (just under the 32-bit float maximum): the
    -- path's cost goes past what a float holds, so the search must sum in
    -- double and still order its open list sensibly
    local g = astar.new(5, 1, { cost = 3e38 })
    local path, cost = g:find_path(1, 1, 5, 1)
    assert.are.same({ 1, 1, 2, 1, 3, 1, 4, 1, 5, 1 }, path)
    local step = g:get_cost(2, 1)
    assert.are.equal(4 * step, cost)
    assert.is_true(cost > 1e39)
  end)
end)
