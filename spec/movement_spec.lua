-- Movement: the four diagonal rules and the step lengths, on tiny hand-made
-- maps whose answers differ between the rules.
local astar = require("astar")
local helpers = require("helpers")

-- The cost find_path returns (nil and the reason when there is no path).
local function cost_of(g, ...)
  local _, cost = g:find_path(...)
  return cost
end

local S2 = math.sqrt(2)

local function grid(text, movement)
  return astar.from_string(text, nil, movement)
end

-- path, cost from (sx, sy) to (gx, gy), or nil, reason
local function route(g, sx, sy, gx, gy, opts)
  local path, cost = g:find_path(sx, sy, gx, gy, opts)
  return path, cost
end

describe("diagonal rules", function()
  -- From (1,1) to (2,2) on three 2x2 maps:
  local CORNER = "..\n#."   -- one tile beside the diagonal is blocked
  local SQUEEZE = ".#\n#."  -- both are
  local OPEN = "..\n.."

  it("no_corner_cut: the step needs both tiles beside it", function()
    local m = { diagonals = "no_corner_cut" }
    assert.are.same({ { 1, 1, 2, 1, 2, 2 }, 2 },
                    { route(grid(CORNER, m), 1, 1, 2, 2) })
    assert.are.same({ nil, "no_path" }, { route(grid(SQUEEZE, m), 1, 1, 2, 2) })
    assert.are.same({ { 1, 1, 2, 2 }, S2 }, { route(grid(OPEN, m), 1, 1, 2, 2) })
  end)

  it("is the default", function()
    assert.are.same({ { 1, 1, 2, 1, 2, 2 }, 2 },
                    { route(grid(CORNER), 1, 1, 2, 2) })
    assert.are.same({ nil, "no_path" }, { route(grid(SQUEEZE), 1, 1, 2, 2) })
  end)

  it("one_free: the step needs one of the two tiles beside it", function()
    local m = { diagonals = "one_free" }
    assert.are.same({ { 1, 1, 2, 2 }, S2 }, { route(grid(CORNER, m), 1, 1, 2, 2) })
    -- the other corner too (the free tile on the other side)
    assert.are.same({ { 1, 1, 2, 2 }, S2 },
                    { route(grid(".#\n..", m), 1, 1, 2, 2) })
    assert.are.same({ nil, "no_path" }, { route(grid(SQUEEZE, m), 1, 1, 2, 2) })
    assert.are.same({ { 1, 1, 2, 2 }, S2 }, { route(grid(OPEN, m), 1, 1, 2, 2) })
  end)

  it("always: the step needs only the tile entered", function()
    local m = { diagonals = "always" }
    assert.are.same({ { 1, 1, 2, 2 }, S2 }, { route(grid(CORNER, m), 1, 1, 2, 2) })
    assert.are.same({ { 1, 1, 2, 2 }, S2 }, { route(grid(SQUEEZE, m), 1, 1, 2, 2) })
    assert.are.same({ nil, "goal_blocked" },
                    { route(grid(".#\n##", m), 1, 1, 2, 2) })
  end)

  it("never: 4-way movement", function()
    local m = { diagonals = "never" }
    assert.are.same({ { 1, 1, 2, 1, 2, 2 }, 2 },
                    { route(grid(CORNER, m), 1, 1, 2, 2) })
    assert.are.same({ nil, "no_path" }, { route(grid(SQUEEZE, m), 1, 1, 2, 2) })
    local path, cost = route(grid(OPEN, m), 1, 1, 2, 2)
    assert.are.equal(2, cost)
    assert.are.equal(6, #path)
  end)

  it("apply to all four diagonal directions", function()
    -- the centre of a 3x3 map, each diagonal neighbour in turn, with one
    -- tile beside that diagonal blocked
    local cases = {
      { 3, 1, 2, 1 }, -- NE, N side blocked
      { 3, 3, 3, 2 }, -- SE, E side blocked
      { 1, 3, 2, 3 }, -- SW, S side blocked
      { 1, 1, 1, 2 }, -- NW, W side blocked
    }
    for _, c in ipairs(cases) do
      for _, rule in ipairs(helpers.RULES) do
        local g = astar.new(3, 3, { diagonals = rule })
        g:set_blocked(c[3], c[4])
        local _, cost = g:find_path(2, 2, c[1], c[2])
        local want = (rule == "one_free" or rule == "always") and S2 or 2
        assert.are.equal(want, cost,
          ("rule %s, from (2,2) to (%d,%d)"):format(rule, c[1], c[2]))
      end
    end
  end)

  it("follow edits of the tiles beside a diagonal", function()
    local g = astar.new(2, 2)
    assert.are.equal(S2, cost_of(g, 1, 1, 2, 2))
    g:set_blocked(1, 2)
    assert.are.equal(2, cost_of(g, 1, 1, 2, 2))
    g:set_cost(2, 1, false)
    assert.are.equal("no_path", cost_of(g, 1, 1, 2, 2))
    g:set_blocked(1, 2, false)
    g:set_cost(2, 1, 1)
    assert.are.equal(S2, cost_of(g, 1, 1, 2, 2))
    g:fill_rect(2, 1, 1, 1, false)
    assert.are.equal(2, cost_of(g, 1, 1, 2, 2))
    g:fill(1)
    assert.are.equal(S2, cost_of(g, 1, 1, 2, 2))
  end)

  it("treat the grid's edge as blocked beside a diagonal", function()
    -- a diagonal step along the edge has both side tiles inside; this
    -- checks the search never steps outside
    for _, rule in ipairs(helpers.RULES) do
      local g = astar.new(3, 1, { diagonals = rule })
      assert.are.same({ { 1, 1, 2, 1, 3, 1 }, 2 },
                      { route(g, 1, 1, 3, 1) })
    end
  end)
end)

describe("step lengths", function()
  it("default: 1 and sqrt 2", function()
    local g = astar.new(5, 5)
    local path, cost = g:find_path(1, 1, 5, 3)
    assert.is_true(helpers.close(2 + 2 * S2, cost, 1e-15))
    assert.are.equal(10, #path)
  end)

  it("integers 2 and 3 give exact integer costs", function()
    local g = astar.new(5, 5, { cardinal = 2, diagonal = 3 })
    local _, cost = g:find_path(1, 1, 5, 3)
    assert.are.equal(10, cost)            -- 2 diagonals, 2 straight
    g:set_cost(3, 3, 5)
    g:set_cost(2, 2, 7)
    g:set_cost(2, 1, 4)
    local path
    path, cost = g:find_path(1, 1, 5, 3)
    local ref = helpers.dijkstra(helpers.desc_of_grid(g), 1, 1, 5, 3)
    assert.are.equal(ref, cost)
    assert.are.equal(cost, math.floor(cost))
    assert.are.equal(cost, helpers.check_path(helpers.desc_of_grid(g), path,
                                              1, 1, 5, 3))
    for _, rule in ipairs(helpers.RULES) do
      g:set_movement({ diagonals = rule })
      local _, c = g:find_path(5, 5, 1, 1)
      assert.are.equal(helpers.dijkstra(helpers.desc_of_grid(g), 5, 5, 1, 1), c)
      assert.are.equal(c, math.floor(c))
    end
  end)

  it("1 and 1: a diagonal costs as much as a straight step", function()
    local g = astar.new(5, 5, { cardinal = 1, diagonal = 1 })
    assert.are.equal(4, cost_of(g, 1, 1, 5, 3))
    assert.are.equal(4, cost_of(g, 5, 5, 1, 1))
  end)

  it("a diagonal of twice the cardinal or more is never worth it", function()
    local g = astar.new(5, 5, { cardinal = 1, diagonal = 3 })
    local path, cost = g:find_path(1, 1, 5, 3)
    assert.are.equal(6, cost)
    assert.are.equal(14, #path)   -- 7 tiles: every step straight
  end)

  it("a diagonal shorter than the cardinal makes zig-zags pay", function()
    -- 5x2 open: straight along row 1 costs 4 * 3; four diagonals 4 * 2
    local g = astar.new(5, 2, { cardinal = 3, diagonal = 2 })
    local path, cost = g:find_path(1, 1, 5, 1)
    assert.are.equal(8, cost)
    assert.are.same({ 1, 1, 2, 2, 3, 1, 4, 2, 5, 1 }, path)
    g:set_movement({ diagonals = "never" })
    assert.are.equal(12, cost_of(g, 1, 1, 5, 1))
  end)

  it("multiply the cost of the tile entered", function()
    local g = astar.from_string("1.9\n...", nil, { cardinal = 2, diagonal = 3 })
    -- into the 9 straight: 2 * 9; the start's own cost does not count
    assert.are.equal(2 + 18, cost_of(g, 1, 1, 3, 1, nil))
    assert.are.equal(2 + 2, cost_of(g, 3, 1, 1, 1))
  end)

  it("extreme but allowed lengths 1e-9 and 1e9", function()
    local g = astar.new(3, 3, { cardinal = 1e-9, diagonal = 1e9 })
    local function rel(want, got)
      assert.is_true(math.abs(got - want) <= 1e-12 * want,
        ("cost %.17g, expected %.17g"):format(got, want))
    end
    rel(4e-9, cost_of(g, 1, 1, 3, 3))
    g:set_movement({ cardinal = 1e9, diagonal = 1e-9 })
    rel(2e-9, cost_of(g, 1, 1, 3, 3))
    local row = astar.new(3, 1, { cardinal = 1e9, diagonal = 1e-9 })
    rel(2e9, cost_of(row, 1, 1, 3, 1))
  end)
end)
