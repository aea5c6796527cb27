-- Heuristics and weights: every named heuristic, the scaling by the
-- cheapest tile cost (optimal paths with costs below 1), weighted A*.
local astar = require("astar")
local helpers = require("helpers")

-- The cost find_path returns (nil and the reason when there is no path).
local function cost_of(g, ...)
  local _, cost = g:find_path(...)
  return cost
end

local S2 = math.sqrt(2)
local NAMES = { "default", "manhattan", "chebyshev", "octile", "euclidean",
                "zero" }

-- Nodes A* expands (forced: on uniform grids "auto" would run JPS, whose
-- count is of jump points).
local function expanded_of(g, sx, sy, gx, gy, opts)
  local o = { algorithm = "astar" }
  for k, v in pairs(opts or {}) do o[k] = v end
  local path, _, expanded = g:find_path(sx, sy, gx, gy, o)
  assert.is_table(path)
  assert.is_true(helpers.is_int(expanded) and expanded > 0)
  return expanded
end

-- A small maze with weights (8-way paths go through a gap and around 9s).
local MAZE = table.concat({
  "........#.....",
  ".######.#.###.",
  ".#....#...#...",
  ".#.##.#####.#.",
  ".#.#9.....#.#.",
  "...#9####.#.#.",
  "####......#...",
}, "\n")

describe("named heuristics", function()
  -- movement settings and the heuristics admissible (and consistent) there
  local settings = {
    { m = {}, ok = { "default", "chebyshev", "octile", "euclidean", "zero" } },
    { m = { diagonals = "never" }, ok = NAMES },
    { m = { cardinal = 2, diagonal = 3 },
      ok = { "default", "chebyshev", "octile", "euclidean", "zero" } },
    { m = { cardinal = 1, diagonal = 1 },
      ok = { "default", "chebyshev", "octile", "zero" } },
    { m = { cardinal = 1, diagonal = 3 }, ok = NAMES },
    { m = { cardinal = 3, diagonal = 2 }, ok = { "default", "zero" } },
  }

  for _, s in ipairs(settings) do
    local label = ("%s %s/%s"):format(s.m.diagonals or "no_corner_cut",
      tostring(s.m.cardinal or 1), s.m.diagonal and tostring(s.m.diagonal)
      or "sqrt2")
    it("admissible ones give the optimal cost (" .. label .. ")", function()
      local g = astar.from_string(MAZE, nil, s.m)
      local desc = helpers.desc_of_grid(g)
      local queries = { { 1, 1, 14, 7 }, { 14, 7, 1, 1 }, { 5, 5, 13, 1 },
                        { 3, 3, 12, 4 } }
      for _, name in ipairs(s.ok) do
        for _, q in ipairs(queries) do
          local path, cost = g:find_path(q[1], q[2], q[3], q[4],
                                         { heuristic = name })
          local ref = helpers.dijkstra(desc, q[1], q[2], q[3], q[4])
          local ctx = ("heuristic %s, %s, (%d,%d)->(%d,%d)"):format(
            name, label, q[1], q[2], q[3], q[4])
          assert.is_table(path, ctx)
          assert.is_true(helpers.close(ref, cost, 1e-12),
            ("%s: cost %.17g, optimum %.17g"):format(ctx, cost, ref))
          local pc, err = helpers.check_path(desc, path, q[1], q[2], q[3], q[4])
          assert(pc, err)
        end
      end
    end)
  end

  it("each guides the search: far fewer nodes than Dijkstra", function()
    -- open 20x20 grids where the heuristic is exact along the path
    local eight = astar.new(20, 20)
    local zero8 = expanded_of(eight, 1, 1, 20, 20, { heuristic = "zero" })
    assert.is_true(zero8 >= 300, "zero expanded " .. zero8)
    for _, name in ipairs({ "default", "octile", "euclidean" }) do
      local e = expanded_of(eight, 1, 1, 20, 20, { heuristic = name })
      assert.is_true(e <= 25, name .. " expanded " .. e)
    end
    local four = astar.new(20, 20, { diagonals = "never" })
    local zero4 = expanded_of(four, 1, 1, 20, 1, { heuristic = "zero" })
    assert.is_true(zero4 >= 150, "zero expanded " .. zero4)
    for _, name in ipairs({ "default", "manhattan", "euclidean" }) do
      local e = expanded_of(four, 1, 1, 20, 1, { heuristic = name })
      assert.is_true(e <= 25, name .. " expanded " .. e)
    end
    local king = astar.new(20, 20, { cardinal = 1, diagonal = 1 })
    local e = expanded_of(king, 1, 1, 20, 20, { heuristic = "chebyshev" })
    assert.is_true(e <= 25, "chebyshev expanded " .. e)
  end)

  it("a weaker admissible heuristic expands more nodes", function()
    -- with diagonal sqrt 2, chebyshev underestimates a diagonal run
    local g = astar.new(20, 20)
    local oct = expanded_of(g, 1, 1, 20, 20, { heuristic = "octile" })
    local cheb = expanded_of(g, 1, 1, 20, 20, { heuristic = "chebyshev" })
    assert.is_true(cheb > oct, ("chebyshev %d, octile %d"):format(cheb, oct))
  end)

  it("inadmissible ones still find a legal path", function()
    -- manhattan on 8-way movement overestimates diagonal runs
    local g = astar.from_string(MAZE)
    local desc = helpers.desc_of_grid(g)
    local ref = helpers.dijkstra(desc, 1, 1, 14, 7)
    local path, cost = g:find_path(1, 1, 14, 7, { heuristic = "manhattan" })
    local pc, err = helpers.check_path(desc, path, 1, 1, 14, 7)
    assert(pc, err)
    assert.is_true(helpers.close(pc, cost, 1e-12))
    assert.is_true(cost >= ref - 1e-9)
  end)

  it("agree on start == goal and on blocked ends", function()
    local g = astar.from_string(".#\n..")
    for _, name in ipairs(NAMES) do
      local opts = { heuristic = name }
      local path, cost = g:find_path(1, 2, 1, 2, opts)
      assert.are.same({ 1, 2 }, path)
      assert.are.equal(0, cost)
      local p, reason = g:find_path(1, 1, 2, 1, opts)
      assert.is_nil(p)
      assert.are.equal("goal_blocked", reason)
    end
  end)
end)

describe("scaling by the cheapest tile", function()
  -- Row 1 costs 1/8, row 2 costs 1.  From (1,2) to (10,2) the straight
  -- run costs 9; the detour through row 1 costs 10/8 + 1 = 2.25 (4-way).
  -- A heuristic not scaled by 1/8 would see f = 9 on the straight run and
  -- f > 10 on the first detour tile, and return the straight run.
  local function cheap_row_grid(movement)
    local top, mid = {}, {}
    for x = 1, 10 do top[x], mid[x] = 0.125, 1 end
    return astar.from_table({ top, mid }, movement)
  end

  it("keeps the default 4-way search optimal with costs below 1", function()
    local g = cheap_row_grid({ diagonals = "never" })
    local path, cost = g:find_path(1, 2, 10, 2)
    assert.are.equal(2.25, cost)
    assert.are.same({ 1, 2, 1, 1, 2, 1, 3, 1, 4, 1, 5, 1, 6, 1, 7, 1, 8, 1,
                      9, 1, 10, 1, 10, 2 }, path)
  end)

  it("keeps the default 8-way search optimal with costs below 1", function()
    local g = cheap_row_grid()
    local path, cost = g:find_path(1, 2, 10, 2)
    -- diagonal up into row 1, eight 1/8 steps along it, straight down
    local want = S2 * 0.125 + 8 * 0.125 + 1
    assert.is_true(helpers.close(want, cost, 1e-12),
      ("cost %.17g, expected %.17g"):format(cost, want))
    local pc = helpers.check_path(helpers.desc_of_grid(g), path, 1, 2, 10, 2)
    assert.is_true(helpers.close(want, pc, 1e-12))
  end)

  it("scales every named heuristic", function()
    local g = cheap_row_grid({ diagonals = "never" })
    for _, name in ipairs(NAMES) do
      local _, cost = g:find_path(1, 2, 10, 2, { heuristic = name })
      assert.are.equal(2.25, cost, name)
    end
  end)

  it("follows edits that lower and raise the cheapest cost", function()
    local g = astar.new(10, 2, { diagonals = "never" })
    local _, cost, e_plain = g:find_path(1, 2, 10, 2)
    assert.are.equal(9, cost)
    -- lower: the search must now find the cheap detour
    g:fill_rect(1, 1, 10, 1, 0.125)
    _, cost = g:find_path(1, 2, 10, 2)
    assert.are.equal(2.25, cost)
    -- raise again: back to the straight run, searched as before
    g:fill_rect(1, 1, 10, 1, 1)
    local e_again
    _, cost, e_again = g:find_path(1, 2, 10, 2)
    assert.are.equal(9, cost)
    assert.are.equal(e_plain, e_again)
    -- one cheap tile anywhere weakens the heuristic (more nodes expanded),
    -- and raising it restores the search exactly
    local open = astar.new(30, 30)
    local e0 = expanded_of(open, 1, 1, 30, 30)
    open:set_cost(30, 1, 0.125)
    local e1 = expanded_of(open, 1, 1, 30, 30)
    assert.is_true(e1 > e0, ("expanded %d with a cheap tile, %d without")
      :format(e1, e0))
    open:set_cost(30, 1, 2)
    assert.are.equal(e0, expanded_of(open, 1, 1, 30, 30))
    -- a blocked cheap tile still counts (the stored cost is kept)
    open:set_cost(30, 1, 0.125)
    open:set_blocked(30, 1)
    local e2 = expanded_of(open, 1, 1, 30, 30)
    assert.is_true(e2 >= e0)
  end)

  it("lowers the bound through set_cost, load, load_string and fill", function()
    local function check(g)
      local _, cost = g:find_path(1, 2, 10, 2)
      assert.are.equal(2.25, cost)
    end
    local top, mid = {}, {}
    for x = 1, 10 do top[x], mid[x] = 0.125, 1 end
    local g = astar.new(10, 2, { diagonals = "never" })
    assert.are.equal(9, cost_of(g, 1, 2, 10, 2))
    for x = 1, 10 do g:set_cost(x, 1, 0.125) end
    check(g)
    g = astar.new(10, 2, { diagonals = "never" })
    assert.are.equal(9, cost_of(g, 1, 2, 10, 2))
    g:load({ top, mid })
    check(g)
    g = astar.new(10, 2, { diagonals = "never" })
    assert.are.equal(9, cost_of(g, 1, 2, 10, 2))
    g:load_string("cccccccccc\n..........", { c = 0.125, ["."] = 1 })
    check(g)
    g = astar.new(10, 2, { diagonals = "never" })
    assert.are.equal(9, cost_of(g, 1, 2, 10, 2))
    g:fill(0.125)
    g:fill_rect(1, 2, 10, 1, 1)
    check(g)
  end)
end)

describe("weighted search", function()
  it("weight 1 is the default search", function()
    local g = astar.from_string(MAZE)
    local a, ca, ea = g:find_path(1, 1, 14, 7)
    local b, cb, eb = g:find_path(1, 1, 14, 7, { weight = 1 })
    assert.are.same(a, b)
    assert.are.equal(ca, cb)
    assert.are.equal(ea, eb)
  end)

  it("returns a legal path within weight times the optimum", function()
    for _, m in ipairs({ {}, { diagonals = "never" },
                         { cardinal = 2, diagonal = 3 } }) do
      local g = astar.from_string(MAZE, nil, m)
      local desc = helpers.desc_of_grid(g)
      for _, w in ipairs({ 1.5, 2, 5, 100 }) do
        for _, q in ipairs({ { 1, 1, 14, 7 }, { 14, 1, 1, 6 } }) do
          local ref = helpers.dijkstra(desc, q[1], q[2], q[3], q[4])
          local path, cost = g:find_path(q[1], q[2], q[3], q[4], { weight = w })
          local pc, err = helpers.check_path(desc, path, q[1], q[2], q[3], q[4])
          assert(pc, err)
          assert.is_true(helpers.close(pc, cost, 1e-12))
          assert.is_true(cost >= ref - 1e-9 and cost <= w * ref + 1e-9,
            ("weight %s: cost %.17g, optimum %.17g"):format(w, cost, ref))
        end
      end
    end
  end)

  it("expands no more nodes than Dijkstra on an open grid", function()
    local g = astar.new(30, 30)
    local zero = expanded_of(g, 1, 1, 30, 17, { heuristic = "zero" })
    local heavy = expanded_of(g, 1, 1, 30, 17, { weight = 3 })
    assert.is_true(heavy < zero, ("weight 3: %d, zero: %d"):format(heavy, zero))
  end)
end)
