-- Cost callbacks (issue 3): the `tile_cost`, `move_cost` and `min_cost`
-- options of find_path / next_step, and grid:fill(function).  The contract
-- is docs/api.md, "Cost callbacks" and the `fill` row of "Reading and
-- editing tiles":
--   * results equal the reference Dijkstra of spec/helpers.lua run on a
--     description whose costs / move hook mirror the callbacks;
--   * tile_cost runs at most once per tile and move_cost at most once per
--     step per search, and never on tiles blocked for the unit;
--   * a result below the heuristic's bound is an error naming the tile or
--     step; so is a result that is not a positive finite number or false;
--   * a callback's own error reaches the caller unchanged, the grid stays
--     unchanged and usable, memory() does not move; editing the grid from a
--     callback is "busy"; yielding is an error.
-- Random cases name their seed so they can be replayed.
local astar = require("astar")
local helpers = require("helpers")

local REL = 1e-9
local NAN = 0 / 0
local SRC = debug.getinfo(1, "S").short_src

local function key2(x, y) return x .. "," .. y end
local function key4(x1, y1, x2, y2) return x1 .. "," .. y1 .. ">" .. x2 .. "," .. y2 end

-- The message of a callback error as find_path reports it (no position:
-- the binding's errors name the argument, #6 = options).
local function opt_error(fname, what)
  return ("bad argument #6 to '%s' (%s)"):format(fname, what)
end

-- A passable tile of a case (or any tile when there is none).
local function passable_tile(rng, case)
  for _ = 1, 40 do
    local x, y = rng:int(1, case.width), rng:int(1, case.height)
    if case.costs[(y - 1) * case.width + x] then return x, y end
  end
  return rng:int(1, case.width), rng:int(1, case.height)
end

-- Tile costs as the callbacks of the differential make them.  Everything is
-- a multiple of 1/1024 at most, so products stay exact in doubles.
local function tile_factor(x, y) return 1 + ((x * 7 + y * 13) % 5) / 4 end
local function tile_closed(x, y, salt) return (x * 3 + y * 5 + salt) % 7 == 0 end

-- One-way traffic: a step going west costs 3 times as much and is refused
-- out of every fourth column; a step going north costs 1.5 times as much.
local function one_way(x1, y1, x2, y2, c)
  if x2 < x1 then
    if x1 % 4 == 0 then return false end
    c = c * 3
  end
  if y2 < y1 then c = c * 1.5 end
  return c
end

-- Compares find_path (and next_step) with the reference on desc; fails
-- with ctx on any difference.  Returns the cost found (or nil).
local function compare(ctx, grid, desc, opts, sx, sy, gx, gy)
  local want, want_reason = helpers.dijkstra(desc, sx, sy, gx, gy)
  local path, cost, third = grid:find_path(sx, sy, gx, gy, opts)
  if want == nil then
    assert(path == nil, ("%s: found a path (cost %s), reference says %s")
      :format(ctx, tostring(cost), want_reason))
    assert(cost == want_reason, ("%s: reason %s, reference %s")
      :format(ctx, tostring(cost), want_reason))
    assert(type(third) == "number", ctx .. ": no expanded count")
    return nil
  end
  assert(path ~= nil, ("%s: %s, reference finds cost %s")
    :format(ctx, tostring(cost), tostring(want)))
  assert(helpers.close(cost, want, REL), ("%s: cost %.17g, reference %.17g")
    :format(ctx, cost, want))
  local sum, why = helpers.check_path(desc, path, sx, sy, gx, gy)
  assert(sum, ("%s: bad path %s: %s"):format(ctx, helpers.path_string(path),
                                              tostring(why)))
  assert(helpers.close(sum, cost, REL), ("%s: path sums to %.17g, cost %.17g")
    :format(ctx, sum, cost))
  local nx, ny, ncost = grid:next_step(sx, sy, gx, gy, opts)
  assert(ncost ~= nil and helpers.close(ncost, cost, REL),
    ("%s: next_step cost %s, find_path %.17g"):format(ctx, tostring(ncost), cost))
  if #path >= 4 then
    assert(nx == path[3] and ny == path[4], ctx .. ": next_step is not path[2]")
  else
    assert(nx == gx and ny == gy, ctx .. ": next_step at the goal")
  end
  return cost
end

---------------------------------------------------------------------------
-- Differential
---------------------------------------------------------------------------

describe("cost callbacks, differential against the reference Dijkstra", function()
  -- Builds the three option sets of one case and their descriptions.
  -- `problems` collects what the callbacks saw that they should not have.
  local function variants(case, salt, sx, sy, problems, scale)
    scale = scale or 1
    local w, costs = case.width, case.costs
    local card = case.lengths.cardinal or 1
    local diag = case.lengths.diagonal or helpers.SQRT2
    local function base(x, y) return costs[(y - 1) * w + x] end
    local function tile_cb(x, y, c)
      local b = base(x, y)
      if b == false then
        problems[#problems + 1] = ("tile_cost called on blocked (%d,%d)"):format(x, y)
        return false
      end
      if c ~= b then
        problems[#problems + 1] = ("tile_cost(%d,%d) got cost %s, the tile's is %s")
          :format(x, y, tostring(c), tostring(b))
      end
      if not (x == sx and y == sy) and tile_closed(x, y, salt) then return false end
      return c * tile_factor(x, y) * scale
    end
    -- the tile costs the search should see with tile_cb
    local function tile_desc_cost(x, y)
      local b = base(x, y)
      if b == false then return false end
      if not (x == sx and y == sy) and tile_closed(x, y, salt) then return false end
      return b * tile_factor(x, y) * scale
    end
    -- move_cost checks the cost it is given against the description's
    local function checking_move(tile_of)
      return function(x1, y1, x2, y2, c)
        local t = tile_of(x2, y2)
        local len = (x1 == x2 or y1 == y2) and card or diag
        if t == false then
          problems[#problems + 1] = ("move_cost called into a closed tile (%d,%d)")
            :format(x2, y2)
        elseif not helpers.close(c, len * t, REL) then
          problems[#problems + 1] = ("move_cost(%d,%d,%d,%d) got cost %.17g, expected %.17g")
            :format(x1, y1, x2, y2, c, len * t)
        end
        return one_way(x1, y1, x2, y2, c)
      end
    end
    local function desc_with(cost, move)
      return { width = case.width, height = case.height, cost = cost,
               move = move, diagonals = case.rule,
               cardinal = case.lengths.cardinal, diagonal = case.lengths.diagonal }
    end
    return {
      { name = "tile_cost", opts = { tile_cost = tile_cb },
        desc = desc_with(tile_desc_cost, nil) },
      { name = "move_cost", opts = { move_cost = checking_move(base) },
        desc = desc_with(base, one_way) },
      { name = "tile_cost+move_cost",
        opts = { tile_cost = tile_cb, move_cost = checking_move(tile_desc_cost) },
        desc = desc_with(tile_desc_cost, one_way) },
    }
  end

  for _, rule in ipairs(helpers.RULES) do
    it("tile_cost and move_cost give optimal paths, diagonals = " .. rule, function()
      local found, seeds = 0, helpers.cases(70)
      for seed = 1, seeds do
        local rng = helpers.rng(seed * 31 + #rule)
        local case = helpers.random_case(rng, astar,
          { rule = rule, width = rng:int(1, 14), height = rng:int(1, 14),
            wall = rng:int(0, 35) / 100 })
        for q = 1, 2 do
          local sx, sy = passable_tile(rng, case)
          local gx, gy = passable_tile(rng, case)
          local problems = {}
          for _, v in ipairs(variants(case, seed + q, sx, sy, problems)) do
            local ctx = helpers.describe_case(seed * 31 + #rule, case,
              (" %s query %d (%d,%d)->(%d,%d)"):format(v.name, q, sx, sy, gx, gy))
            if compare(ctx, case.grid, v.desc, v.opts, sx, sy, gx, gy) then
              found = found + 1
            end
            assert(#problems == 0, ctx .. ": " .. tostring(problems[1]))
          end
        end
      end
      -- the cases are not all trivial
      assert.is_true(found > 150 * seeds / 70,
                     "only " .. found .. " paths found")
    end)
  end

  it("a stated min_cost lets callbacks go below the unit's cheapest tile,"
     .. " and the paths stay optimal", function()
    local found, below, seeds = 0, 0, helpers.cases(120)
    for seed = 1, seeds do
      local rng = helpers.rng(5000 + seed)
      local case = helpers.random_case(rng, astar,
        { width = rng:int(2, 14), height = rng:int(2, 14),
          wall = rng:int(0, 30) / 100 })
      local cheapest = math.huge
      for _, c in ipairs(case.costs) do
        if c and c < cheapest then cheapest = c end
      end
      if cheapest < math.huge then
        local sx, sy = passable_tile(rng, case)
        local gx, gy = passable_tile(rng, case)
        -- tile costs down to cheapest / 8, east steps at half price:
        -- every step costs at least length * cheapest / 16
        local problems = {}
        local vs = variants(case, seed, sx, sy, problems, 1 / 8)
        local function cheap_east(x1, y1, x2, y2, c)
          if x2 > x1 then return c / 2 end
          return one_way(x1, y1, x2, y2, c)
        end
        local tile_cb, tile_desc = vs[1].opts.tile_cost, vs[1].desc.cost
        local min_cost = cheapest / 16
        if seed % 3 == 0 then min_cost = cheapest / 1000 end -- a loose bound
        local opts = { tile_cost = tile_cb, move_cost = cheap_east,
                       min_cost = min_cost }
        local desc = vs[1].desc
        desc.move = cheap_east
        local ctx = helpers.describe_case(5000 + seed, case,
          (" min_cost=%.17g (%d,%d)->(%d,%d)"):format(min_cost, sx, sy, gx, gy))
        local cost = compare(ctx, case.grid, desc, opts, sx, sy, gx, gy)
        if cost then found = found + 1 end
        assert(#problems == 0, ctx .. ": " .. tostring(problems[1]))
        -- the same with a zero heuristic (Dijkstra) agrees
        opts.heuristic = "zero"
        local _, cost2 = case.grid:find_path(sx, sy, gx, gy, opts)
        if cost then
          assert(helpers.close(cost, cost2, REL), ctx .. ": zero heuristic differs")
        end
        for y = 1, case.height do
          for x = 1, case.width do
            local t = tile_desc(x, y)
            if t and t < cheapest then below = below + 1 end
          end
        end
      end
    end
    assert.is_true(found > 40 * seeds / 120, "only " .. found .. " paths found")
    assert.is_true(below > 100 * seeds / 120,
                   "callbacks rarely went below the cheapest tile")
  end)

  -- BUG (src/astar_loop.c, astar__loop_start / astar__key_scale): inv_q = 2^24 / (bound *
  -- min_step) overflows for a tiny stated min_cost, every key becomes inf
  -- (or NaN at f = 0), and the heap pops the largest g first: costs far above
  -- the optimum.  min_cost is documented as any number in [0, 3.4e+38].
  for _, mc in ipairs({ 1e-30, 1e-200, 1e-300, 5e-324 }) do
    it(("a tiny min_cost (%g) still gives optimal paths"):format(mc), function()
      local case = helpers.random_case(helpers.rng(198), astar,
        { width = 20, height = 20, wall = 0.1, weights = "int" })
      local want = helpers.dijkstra(case.desc, 1, 1, 20, 20)
      assert.are.equal(115, want)
      local _, plain = case.grid:find_path(1, 1, 20, 20, { min_cost = mc })
      local _, with_cb = case.grid:find_path(1, 1, 20, 20, { min_cost = mc,
        tile_cost = function(_, _, c) return c end })
      assert.are.same({ want, want }, { plain, with_cb })
    end)
  end

  it("heights: move_cost gets length * tile cost + height cost, and paths"
     .. " stay optimal", function()
    for seed = 1, helpers.cases(40) do
      local rng = helpers.rng(7000 + seed)
      local case = helpers.random_case(rng, astar,
        { width = rng:int(2, 12), height = rng:int(2, 12),
          wall = rng:int(0, 25) / 100, weights = "int" })
      local w, h = case.width, case.height
      local heights = {}
      for i = 1, w * h do heights[i] = rng:int(0, 4) end
      case.grid:load_heights(heights)
      local climb, descend = rng:int(0, 3) / 2, rng:int(0, 2) / 4
      local max_climb = rng:chance(0.5) and 2 or math.huge
      case.grid:set_unit("climber", {}, { climb = climb, descend = descend,
                                          max_climb = max_climb })
      local function hgt(x, y) return heights[(y - 1) * w + x] end
      local function extra(x1, y1, x2, y2)
        local dh = hgt(x2, y2) - hgt(x1, y1)
        if dh > max_climb then return false end
        if dh > 0 then return climb * dh end
        return -descend * dh
      end
      local card = case.lengths.cardinal or 1
      local diag = case.lengths.diagonal or helpers.SQRT2
      local problems = {}
      local function move(x1, y1, x2, y2, c)
        local len = (x1 == x2 or y1 == y2) and card or diag
        local e = extra(x1, y1, x2, y2)
        if e == false then
          problems[#problems + 1] = ("move_cost(%d,%d,%d,%d): a step past max_climb")
            :format(x1, y1, x2, y2)
          return false
        end
        local want = len * case.costs[(y2 - 1) * w + x2] + e
        if not helpers.close(c, want, REL) then
          problems[#problems + 1] = ("move_cost(%d,%d,%d,%d) got %.17g, want %.17g")
            :format(x1, y1, x2, y2, c, want)
        end
        return one_way(x1, y1, x2, y2, c)
      end
      local desc = { width = w, height = h, cost = case.desc.cost, extra = extra,
                     move = one_way, diagonals = case.rule,
                     cardinal = case.lengths.cardinal,
                     diagonal = case.lengths.diagonal }
      for q = 1, 3 do
        local sx, sy = passable_tile(rng, case)
        local gx, gy = passable_tile(rng, case)
        local ctx = helpers.describe_case(7000 + seed, case,
          (" climb=%g descend=%g max_climb=%g q%d"):format(climb, descend, max_climb, q))
        compare(ctx, case.grid, desc, { unit = "climber", move_cost = move },
                sx, sy, gx, gy)
        assert(#problems == 0, ctx .. ": " .. tostring(problems[1]))
        -- with an identity tile_cost too (with max_climb, see the test
        -- "a step banned by height ..." below)
        if max_climb == math.huge then
          compare(ctx .. " +tile_cost", case.grid, desc, { unit = "climber",
            move_cost = move, tile_cost = function(_, _, c) return c end },
            sx, sy, gx, gy)
          assert(#problems == 0, ctx .. ": " .. tostring(problems[1]))
        end
      end
    end
  end)

  -- BUG (src/astar_loop.c, callback_moves): the corner rule there reads the
  -- cardinal moves that survived, so a side tile the unit may not step onto
  -- because of max_climb counts as a wall once a tile_cost is given; without
  -- tile_cost it does not ("the corner rule still looks at walls only").
  for _, rule in ipairs({ "no_corner_cut", "one_free" }) do
    it("a step banned by height does not make its tile a wall for the corner"
       .. " rule when tile_cost is given (" .. rule .. ")", function()
      local g = astar.new(2, 2, { diagonals = rule })
      g:set_height(2, 1, 5) -- passable, but too high to step onto
      if rule == "one_free" then g:set_blocked(1, 2) end
      g:set_unit("u", {}, { max_climb = 1 })
      local path, cost = g:find_path(1, 1, 2, 2, { unit = "u" })
      assert.are.same({ 1, 1, 2, 2 }, path)
      assert.are.equal(math.sqrt(2), cost)
      local path2, cost2 = g:find_path(1, 1, 2, 2, { unit = "u",
        tile_cost = function(_, _, c) return c end })
      assert.are.same({ path, cost }, { path2, cost2 })
    end)
  end
end)

---------------------------------------------------------------------------
-- Memoization
---------------------------------------------------------------------------

describe("cost callbacks are memoized per search", function()
  it("tile_cost at most once per tile, move_cost at most once per step", function()
    local calls_seen, seeds = 0, helpers.cases(60)
    for seed = 1, seeds do
      local rng = helpers.rng(9000 + seed)
      local case = helpers.random_case(rng, astar,
        { width = rng:int(2, 20), height = rng:int(2, 20),
          wall = rng:int(0, 30) / 100 })
      local sx, sy = passable_tile(rng, case)
      local gx, gy = passable_tile(rng, case)
      local tiles, steps = {}, {}
      local opts = {
        heuristic = rng:pick({ "default", "zero" }),
        tile_cost = function(x, y, c)
          local k = key2(x, y)
          tiles[k] = (tiles[k] or 0) + 1
          return c * tile_factor(x, y)
        end,
        move_cost = function(x1, y1, x2, y2, c)
          local k = key4(x1, y1, x2, y2)
          steps[k] = (steps[k] or 0) + 1
          return one_way(x1, y1, x2, y2, c)
        end,
      }
      local ctx = helpers.describe_case(9000 + seed, case)
      case.grid:find_path(sx, sy, gx, gy, opts)
      for k, n in pairs(tiles) do
        assert(n == 1, ("%s: tile_cost called %d times on tile %s"):format(ctx, n, k))
        calls_seen = calls_seen + 1
      end
      for k, n in pairs(steps) do
        assert(n == 1, ("%s: move_cost called %d times on step %s"):format(ctx, n, k))
      end
    end
    assert.is_true(calls_seen > 500 * seeds / 60,
                   "few callback calls: " .. calls_seen)
  end)

  it("the memo starts afresh with every search", function()
    local grid = astar.from_string([[
..........
.####.....
....#..3..
.##.#.....
....#..2..]])
    local tiles, steps = {}, {}
    local opts = {
      tile_cost = function(x, y, c)
        local k = key2(x, y)
        tiles[k] = (tiles[k] or 0) + 1
        return c
      end,
      move_cost = function(x1, y1, x2, y2, c)
        local k = key4(x1, y1, x2, y2)
        steps[k] = (steps[k] or 0) + 1
        return c
      end,
    }
    local p1, c1 = grid:find_path(1, 5, 10, 5, opts)
    local n1 = 0
    for _ in pairs(tiles) do n1 = n1 + 1 end
    assert.is_true(n1 > 5)
    local p2, c2 = grid:find_path(1, 5, 10, 5, opts)
    assert.are.same(p1, p2)
    assert.are.equal(c1, c2)
    -- the same search again: every tile and step exactly once more
    for k, n in pairs(tiles) do
      assert(n == 2, ("tile %s: %d calls over two searches"):format(k, n))
    end
    for k, n in pairs(steps) do
      assert(n == 2, ("step %s: %d calls over two searches"):format(k, n))
    end
    -- a third search with another tile_cost must not see the memo of the
    -- others: making every tile cost 2 doubles the cost
    local _, c3 = grid:find_path(1, 5, 10, 5,
      { tile_cost = function(_, _, c) return 2 * c end })
    assert.are.equal(2 * c1, c3)
  end)

  it("a tile closed by tile_cost is a wall for the corner rule", function()
    -- (2,1) is closed by the callback: the diagonal (1,1)->(2,2) cuts its
    -- corner under no_corner_cut, is fine under one_free
    local grid = astar.new(2, 2)
    local closed = function(x, y, c)
      if x == 2 and y == 1 then return false end
      return c
    end
    local path, cost = grid:find_path(1, 1, 2, 2, { tile_cost = closed })
    assert.are.same({ 1, 1, 1, 2, 2, 2 }, path)
    assert.are.equal(2, cost)
    grid:set_movement({ diagonals = "one_free" })
    path, cost = grid:find_path(1, 1, 2, 2, { tile_cost = closed })
    assert.are.same({ 1, 1, 2, 2 }, path)
    assert.are.equal(math.sqrt(2), cost)
    -- and a goal it closes is goal_blocked
    local none, reason = grid:find_path(1, 1, 2, 1, { tile_cost = closed })
    assert.is_nil(none)
    assert.are.equal("goal_blocked", reason)
  end)
end)

---------------------------------------------------------------------------
-- Lower bound
---------------------------------------------------------------------------

describe("the lower bound of callback costs", function()
  it("tile_cost below the cheapest tile, without min_cost, is an error naming"
     .. " the tile", function()
    local grid = astar.new(5, 1)
    local msg = helpers.error_of(grid.find_path, grid, 1, 1, 5, 1, {
      tile_cost = function(x, _, c)
        if x == 3 then return 0.5 end
        return c
      end })
    assert.are.equal(opt_error("find_path", "tile_cost returned 0.5 for tile"
      .. " (3, 1), below the lower bound 1 that the heuristic assumes (set"
      .. " min_cost to at most 0.5)"), msg)
    -- with the bound stated, the same callback is fine
    local path, cost = grid:find_path(1, 1, 5, 1, { min_cost = 0.5,
      tile_cost = function(x, _, c)
        if x == 3 then return 0.5 end
        return c
      end })
    assert.are.same({ 1, 1, 2, 1, 3, 1, 4, 1, 5, 1 }, path)
    assert.are.equal(3.5, cost)
  end)

  it("the bound is the unit's cheapest tile, and a stated min_cost is checked",
     function()
    local grid = astar.new(5, 1)
    grid:set_cost(5, 1, 4)
    grid:set_cost(2, 1, 2)
    -- cheapest tile 1: 1.5 is fine
    local _, cost = grid:find_path(1, 1, 5, 1,
      { tile_cost = function(_, _, c) return c * 1.5 end })
    assert.are.equal(1.5 * (2 + 1 + 1 + 4), cost)
    -- a stated bound above what is returned is an error too
    local msg = helpers.error_of(grid.find_path, grid, 1, 1, 5, 1, {
      min_cost = 2, tile_cost = function(_, _, c) return c end })
    assert.is_truthy(msg:find("^bad argument #6 to 'find_path' %(tile_cost returned 1"
      .. " for tile %(%d, 1%), below the lower bound 2 "), msg)
    -- the goal is checked too
    msg = helpers.error_of(grid.next_step, grid, 1, 1, 5, 1, {
      tile_cost = function(x, _, c) if x == 5 then return 0.25 end return c end })
    assert.are.equal(opt_error("next_step", "tile_cost returned 0.25 for tile"
      .. " (5, 1), below the lower bound 1 that the heuristic assumes (set"
      .. " min_cost to at most 0.25)"), msg)
  end)

  it("move_cost below length * bound is an error naming the step", function()
    local grid = astar.new(5, 1)
    local function cheap(x1, _, x2, _, c)
      if x1 == 2 and x2 == 3 then return 0.75 end
      return c
    end
    local msg = helpers.error_of(grid.find_path, grid, 1, 1, 5, 1,
                                 { move_cost = cheap })
    assert.are.equal(opt_error("find_path", "move_cost returned 0.75 for the"
      .. " step (2, 1) -> (3, 1), below the lower bound 1 that the heuristic"
      .. " assumes (min_cost times the step's length; lower min_cost)"), msg)
    local _, cost = grid:find_path(1, 1, 5, 1, { move_cost = cheap, min_cost = 0.75 })
    assert.are.equal(3.75, cost)
    -- a diagonal step's bound is its length times the bound
    local sq = astar.new(3, 3, { cardinal = 2, diagonal = 3 })
    msg = helpers.error_of(sq.find_path, sq, 1, 1, 3, 3, { move_cost =
      function(x1, y1, x2, y2, c)
        if x1 ~= x2 and y1 ~= y2 then return 2.5 end
        return c
      end })
    assert.is_truthy(msg:find("move_cost returned 2.5 for the step %(%d, %d%) %->"
      .. " %(%d, %d%), below the lower bound 3 ", 1), msg)
  end)
end)

---------------------------------------------------------------------------
-- Safety
---------------------------------------------------------------------------

local MAZE = [[
............
.##########.
.#........#.
.#.######.#.
.#.#....#.#.
.#.#.##.#.#.
...#..#...#.
...####.....]]
local MW, MH = 12, 8

-- A grid, the reference answer of a fixed query on it, and a check that it
-- still gives exactly that answer and still has its tiles.
local function sample()
  local grid = astar.from_string(MAZE)
  grid:set_cost(5, 1, 3)
  local before = helpers.tiles(grid)
  local path, cost = grid:find_path(1, 7, 5, 7)
  assert.is_table(path)
  local function still_fine()
    assert.are.same(before, helpers.tiles(grid))
    local p, c = grid:find_path(1, 7, 5, 7)
    assert.are.same(path, p)
    assert.are.equal(cost, c)
    local want = helpers.dijkstra(helpers.desc_of_grid(grid), 1, 7, 5, 7)
    assert.are.equal(want, c)
    -- and callbacks work again at once
    local p2, c2 = grid:find_path(1, 7, 5, 7, { tile_cost = function(_, _, t)
      return t end, move_cost = function(_, _, _, _, t) return t end })
    assert.are.same(path, p2)
    assert.are.equal(cost, c2)
    -- editing works
    assert.are.equal(0, grid:get_terrain(1, 1))
    assert.are.equal(0, grid:get_height(1, 1))
    assert.are.equal("no_corner_cut", grid:get_movement().diagonals)
    grid:set_cost(MW, MH, 2)
    assert.are.equal(2, grid:get_cost(MW, MH))
    grid:set_cost(MW, MH, before[MW * MH])
  end
  return grid, still_fine
end

-- Options that make a search fail somewhere in its middle.
local function failing(kind, raise)
  local n = 0
  local after = (kind == "late" or kind == "late_move") and 50 or 1
  local function hit()
    n = n + 1
    return n >= after
  end
  if kind == "move" or kind == "late_move" then
    return { move_cost = function(_, _, _, _, c)
      if hit() then raise() end
      return c
    end }, function() return n end
  end
  return { tile_cost = function(_, _, c)
    if hit() then raise() end
    return c
  end }, function() return n end
end

describe("a callback that raises", function()
  for _, kind in ipairs({ "tile", "move", "late", "late_move" }) do
    it(("(%s) a string error reaches the caller with its position"):format(kind),
       function()
      local grid, still_fine = sample()
      local line
      local opts, count = failing(kind, function()
        line = debug.getinfo(1, "l").currentline; error("boom: tile on fire")
      end)
      local ok, err = pcall(grid.find_path, grid, 1, 7, 5, 7, opts)
      assert.is_false(ok)
      assert.are.equal(SRC .. ":" .. line .. ": boom: tile on fire", err)
      assert.is_truthy(err:find("callbacks_spec.lua:" .. line .. ": boom", 1, true))
      if kind:sub(1, 4) == "late" then assert.are.equal(50, count()) end
      still_fine()
    end)

    it(("(%s) an error value that is a table comes back as that very table")
       :format(kind), function()
      local grid, still_fine = sample()
      local value = { code = 42 }
      local opts = (failing(kind, function() error(value) end))
      local ok, err = pcall(grid.find_path, grid, 1, 7, 5, 7, opts)
      assert.is_false(ok)
      assert.are.equal(value, err) -- the same table, not a copy
      assert.are.equal(42, err.code)
      local ok2, err2 = pcall(grid.next_step, grid, 1, 7, 5, 7,
                              (failing(kind, function() error(value) end)))
      assert.is_false(ok2)
      assert.are.equal(value, err2)
      still_fine()
    end)

    it(("(%s) error values false and 0 come back unchanged"):format(kind),
       function()
      local grid, still_fine = sample()
      for _, v in ipairs({ false, 0 }) do
        local ok, err = pcall(grid.find_path, grid, 1, 7, 5, 7,
                              (failing(kind, function() error(v, 0) end)))
        assert.is_false(ok)
        assert.are.equal(v, err)
      end
      still_fine()
    end)
  end

  it("a failed search changes neither memory() nor the next search", function()
    local grid, still_fine = sample()
    local cb = { tile_cost = function(_, _, c) return c end,
                 move_cost = function(_, _, _, _, c) return c end }
    grid:find_path(1, 7, 5, 7, cb) -- the memo and scratch exist now
    local m = grid:memory()
    for _, kind in ipairs({ "tile", "move", "late", "late_move" }) do
      local opts = (failing(kind, function() error("stop") end))
      assert.is_false(pcall(grid.find_path, grid, 1, 7, 5, 7, opts))
      assert.are.equal(m, grid:memory())
    end
    still_fine()
    assert.are.equal(m, grid:memory())
  end)

  it("a first search that fails holds what a first search that succeeds"
     .. " holds", function()
    local a, b = astar.from_string(MAZE), astar.from_string(MAZE)
    assert.are.equal(a:memory(), b:memory())
    assert.is_false(pcall(a.find_path, a, 1, 7, 5, 7,
      (failing("late", function() error("stop") end))))
    b:find_path(1, 7, 5, 7, { tile_cost = function(_, _, c) return c end })
    assert.are.equal(b:memory(), a:memory())
  end)
end)

describe("a callback that returns a bad value", function()
  local BAD = {
    { "nil", nil, "nil" }, { "a string", "cheap", "'cheap'" }, { "'3'", "3", "'3'" },
    { "NaN", NAN, "nan" }, { "-1", -1, "-1" }, { "0", 0, "0" },
    { "math.huge", math.huge, "inf" }, { "-math.huge", -math.huge, "-inf" },
    { "true", true, "true" }, { "a table", {}, "table" },
    { "1e39 (past a float)", 1e39, "1e+39" },
  }
  for _, b in ipairs(BAD) do
    it("tile_cost returning " .. b[1] .. " is an error naming the tile", function()
      local grid, still_fine = sample()
      local msg = helpers.error_of(grid.find_path, grid, 1, 7, 5, 7, {
        tile_cost = function(x, y, c)
          if x == 2 and y == 7 then return b[2] end
          return c
        end })
      assert.are.equal(opt_error("find_path", "tile_cost returned " .. b[3]
        .. " for tile (2, 7); expected a positive finite number or false"), msg)
      still_fine()
    end)

    it("move_cost returning " .. b[1] .. " is an error naming the step", function()
      local grid, still_fine = sample()
      local msg = helpers.error_of(grid.next_step, grid, 1, 7, 5, 7, {
        move_cost = function(x1, y1, x2, y2, c)
          if x1 == 1 and y1 == 7 and x2 == 2 and y2 == 7 then return b[2] end
          return c
        end })
      assert.are.equal(opt_error("next_step", "move_cost returned " .. b[3]
        .. " for the step (1, 7) -> (2, 7); expected a positive finite number"
        .. " or false"), msg)
      still_fine()
    end)
  end

  it("an integer-valued return is fine, false closes the tile", function()
    local grid = sample()
    local _, c1 = grid:find_path(1, 7, 5, 7)
    local _, c2 = grid:find_path(1, 7, 5, 7, { tile_cost = function(_, _, c)
      return math.floor(c) end })
    assert.are.equal(c1, c2)
    local none, reason = grid:find_path(1, 7, 5, 7, { tile_cost = function(x, y, c)
      if (x == 5 and y == 6) or (x == 6 and y == 7) then return false end
      return c
    end })
    assert.is_nil(none)
    assert.are.equal("no_path", reason)
  end)
end)

describe("a callback that uses the grid being searched", function()
  local EDITS = {
    { "set_cost", function(g) g:set_cost(3, 1, 9) end },
    { "set_blocked", function(g) g:set_blocked(2, 1) end },
    { "find_path", function(g) g:find_path(1, 1, 2, 1) end },
    { "next_step", function(g) g:next_step(1, 1, 2, 1) end },
    { "fill", function(g) g:fill(2) end },
    { "fill (function)", function(g) g:fill(function() return 2 end) end },
    { "load", function(g) g:load({}) end },
    { "set_terrain", function(g) g:set_terrain(1, 1, 1) end },
    { "set_unit", function(g) g:set_unit("x", { [0] = 2 }) end },
    { "set_height", function(g) g:set_height(1, 1, 3) end },
    { "set_movement", function(g) g:set_movement({ diagonals = "never" }) end },
  }
  for _, e in ipairs(EDITS) do
    for _, where in ipairs({ "tile_cost", "move_cost" }) do
      it(("%s from %s: 'busy', grid unchanged and usable"):format(e[1], where),
         function()
        local grid, still_fine = sample()
        local opts = {}
        opts[where] = function(...)
          e[2](grid)
          return select(where == "tile_cost" and 3 or 5, ...)
        end
        local ok, err = pcall(grid.find_path, grid, 1, 7, 5, 7, opts)
        assert.is_false(ok)
        assert.is_string(err)
        local fname = e[1]:match("^%S+")
        assert.is_truthy(err:find(fname .. ": the grid is busy with a search", 1, true),
          err)
        still_fine()
      end)
    end
  end

  it("a busy error caught inside the callback lets the search finish", function()
    local grid, still_fine = sample()
    local caught = 0
    local path, cost = grid:find_path(1, 7, 5, 7, { tile_cost = function(_, _, c)
      local ok, err = pcall(grid.set_cost, grid, 10, 1, 7)
      if not ok and err:find("busy", 1, true) then caught = caught + 1 end
      return c
    end })
    assert.is_true(caught > 0)
    local want = helpers.dijkstra(helpers.desc_of_grid(grid), 1, 7, 5, 7)
    assert.are.equal(want, cost)
    assert.is_table(path)
    still_fine()
  end)

  it("a callback may search another grid, even with callbacks", function()
    local grid, still_fine = sample()
    local other = astar.from_string(MAZE)
    local inner_ok = 0
    local path, cost = grid:find_path(1, 7, 5, 7, { tile_cost = function(x, y, c)
      local p, ic = other:find_path(1, 7, x, y, { tile_cost = function(_, _, t)
        return t end })
      if p then
        assert(ic == helpers.dijkstra(helpers.desc_of_grid(other), 1, 7, x, y))
        inner_ok = inner_ok + 1
      end
      other:set_cost(10, 1, 2) -- editing the other grid is allowed
      return c * 2
    end })
    assert.is_true(inner_ok > 3)
    local _, plain = grid:find_path(1, 7, 5, 7)
    assert.are.equal(2 * plain, cost)
    assert.is_table(path)
    assert.are.equal(2, other:get_cost(10, 1))
    still_fine()
  end)
end)

describe("a callback that yields", function()
  for _, where in ipairs({ "tile_cost", "move_cost" }) do
    it("from " .. where .. " is an error, and the grid is usable", function()
      local grid, still_fine = sample()
      local opts = {}
      opts[where] = function()
        coroutine.yield("out")
        return 1
      end
      local co = coroutine.create(function()
        return grid:find_path(1, 7, 5, 7, opts)
      end)
      local ok, err = coroutine.resume(co)
      assert.is_false(ok)
      assert.is_string(err)
      assert.is_truthy(err:find("yield", 1, true), err)
      assert.are.equal("dead", coroutine.status(co))
      still_fine()
      -- searches with callbacks inside a coroutine that does not yield are fine
      local co2 = coroutine.wrap(function()
        local _, c = grid:find_path(1, 7, 5, 7, { [where] = function(...)
          return select(where == "tile_cost" and 3 or 5, ...) end })
        coroutine.yield(c)
      end)
      local _, want = grid:find_path(1, 7, 5, 7)
      assert.are.equal(want, co2())
    end)
  end
end)

---------------------------------------------------------------------------
-- grid:fill(function)
---------------------------------------------------------------------------

describe("grid:fill(function)", function()
  local W, H = 7, 5
  local function fresh()
    local g = astar.new(W, H)
    g:set_cost(2, 2, 3)
    g:set_cost(6, 4, 0.5)
    g:set_blocked(4, 3)
    g:set_cost(5, 5, 2)
    g:set_blocked(5, 5)
    return g
  end

  it("calls the function once per tile with its cost and bakes the results",
     function()
    local g = fresh()
    local before = helpers.tiles(g)
    local calls, args = {}, {}
    local function f(x, y, c)
      local k = key2(x, y)
      calls[k] = (calls[k] or 0) + 1
      args[k] = c
      if (x * 3 + y) % 7 == 0 then return false end
      if c == false then return 4 end
      return c * x + y / 4
    end
    g:fill(f)
    local n = 0
    for y = 1, H do
      for x = 1, W do
        local k = key2(x, y)
        n = n + 1
        assert.are.equal(1, calls[k])
        assert.are.equal(before[(y - 1) * W + x], args[k])
        local want
        if (x * 3 + y) % 7 == 0 then
          want = false
        elseif args[k] == false then
          want = 4
        else
          want = args[k] * x + y / 4
        end
        assert.are.equal(want, g:get_cost(x, y))
      end
    end
    local total = 0
    for _ in pairs(calls) do total = total + 1 end
    assert.are.equal(W * H, total)
    -- the baked grid searches like one loaded from the same costs
    local desc = helpers.desc_of_grid(g)
    local path, cost = g:find_path(1, 1, W, H)
    assert.is_table(path)
    local want = helpers.dijkstra(desc, 1, 1, W, H)
    assert.is_true(helpers.close(want, cost, REL), tostring(want) .. " vs " .. tostring(cost))
  end)

  it("false keeps the stored cost, like set_cost(false)", function()
    local g = fresh()
    g:fill(function(x, y, c) if x == 2 and y == 2 then return false end return c end)
    assert.is_false(g:get_cost(2, 2))
    g:set_blocked(2, 2, false)
    assert.are.equal(3, g:get_cost(2, 2))
  end)

  it("a bad result anywhere leaves every tile unchanged", function()
    for _, b in ipairs({ { nil, "nil" }, { 0, "0" }, { -1, "-1" }, { NAN, "nan" },
                         { math.huge, "inf" }, { "1", "'1'" }, { true, "true" },
                         { {}, "table" } }) do
      local g = fresh()
      local before = helpers.tiles(g)
      local calls = 0
      local msg = helpers.error_of(g.fill, g, function(x, y, c)
        calls = calls + 1
        if x == W and y == H then return b[1] end
        return 9
      end)
      assert.are.equal(("bad argument #2 to 'fill' (the function returned %s"
        .. " for tile (%d, %d); expected a positive finite number or false)")
        :format(b[2], W, H), msg)
      assert.are.equal(W * H, calls)
      assert.are.same(before, helpers.tiles(g))
      assert.are.equal(3, select(2, g:find_path(1, 2, 2, 2)))
    end
  end)

  it("an error raised by the function leaves every tile unchanged and comes"
     .. " back as raised", function()
    local g = fresh()
    local before = helpers.tiles(g)
    local value = {}
    local ok, err = pcall(g.fill, g, function(x, y)
      if x == 3 and y == 4 then error(value) end
      return 2
    end)
    assert.is_false(ok)
    assert.are.equal(value, err)
    local line
    ok, err = pcall(g.fill, g, function(x, y)
      if x == W and y == H then line = debug.getinfo(1, "l").currentline; error("no") end
      return 2
    end)
    assert.is_false(ok)
    assert.are.equal(SRC .. ":" .. line .. ": no", err)
    assert.are.same(before, helpers.tiles(g))
    g:fill(function() return 2 end)
    assert.are.equal(2, g:get_cost(4, 3))
    assert.are.equal(2 * (W - 1), select(2, g:find_path(1, 1, W, 1)))
  end)

  it("the function may not use the grid: 'busy', nothing changes", function()
    for _, e in ipairs({
      { "set_cost", function(g) g:set_cost(1, 1, 5) end },
      { "set_blocked", function(g) g:set_blocked(1, 1) end },
      { "find_path", function(g) g:find_path(1, 1, 2, 2) end },
      { "fill", function(g) g:fill(7) end },
      { "get_cost", function(g) return g:get_cost(1, 1) end },
    }) do
      local g = fresh()
      local before = helpers.tiles(g)
      local ok, err = pcall(g.fill, g, function(x, y, c)
        if x == 2 and y == 3 then e[2](g) end
        return 6
      end)
      assert.is_false(ok)
      assert.is_truthy(err:find(e[1] .. ": the grid is busy", 1, true), err)
      assert.are.same(before, helpers.tiles(g))
      local p = g:find_path(1, 1, W, H)
      assert.is_table(p)
    end
  end)

  it("a yield from the function is an error and changes nothing", function()
    local g = fresh()
    local before = helpers.tiles(g)
    local co = coroutine.create(function()
      g:fill(function() coroutine.yield() return 2 end)
    end)
    local ok, err = coroutine.resume(co)
    assert.is_false(ok)
    assert.is_truthy(tostring(err):find("yield", 1, true), tostring(err))
    assert.are.same(before, helpers.tiles(g))
    g:set_cost(1, 1, 2)
    assert.are.equal(2, g:get_cost(1, 1))
  end)
end)

---------------------------------------------------------------------------
-- Unit classes with callbacks
---------------------------------------------------------------------------

describe("unit classes with callbacks", function()
  local MAP = [[
..~~~..,
..~~~..,
.,,~,,.#
~~~~~...
..#~~~,,]]
  local LEGEND = { ["."] = "grass", ["~"] = "water", [","] = "bush", ["#"] = false }
  local function make()
    local g = astar.from_string(MAP, LEGEND, { terrains = { "grass", "water", "bush" } })
    g:set_unit("walker", { water = false, bush = 3 })
    g:set_unit("boat", { water = 1, ["*"] = false })
    g:set_unit("hover", { water = 0.5, bush = 2 })
    g:set_cost(4, 4, 2) -- a weight: every unit pays it
    g:set_cost(3, 1, 4)
    return g
  end

  for _, unit in ipairs({ "boat", "walker", "hover" }) do
    it(unit .. ": tile_cost sees the unit's costs, never its impassable tiles",
       function()
      local g = make()
      local w, h = g:size()
      local ucost = {}
      for y = 1, h do
        for x = 1, w do ucost[key2(x, y)] = g:get_cost(x, y, unit) end
      end
      local desc = { width = w, height = h,
                     cost = function(x, y)
                       local c = ucost[key2(x, y)]
                       if c and (x * y) % 4 == 1 and not (x == 4 and y == 1)
                         and not (x == 1 and y == 1) then
                         return c * 2
                       end
                       return c
                     end }
      local seen, problems = 0, {}
      local opts = { unit = unit, tile_cost = function(x, y, c)
        seen = seen + 1
        local want = ucost[key2(x, y)]
        if want == false then
          problems[#problems + 1] = ("called on (%d,%d), impassable to %s")
            :format(x, y, unit)
        elseif c ~= want then
          problems[#problems + 1] = ("(%d,%d): cost %s, get_cost says %s")
            :format(x, y, tostring(c), tostring(want))
        end
        return desc.cost(x, y)
      end }
      local starts = { boat = { 4, 1 }, walker = { 1, 1 }, hover = { 1, 1 } }
      local sx, sy = starts[unit][1], starts[unit][2]
      for gy = 1, h do
        for gx = 1, w do
          compare(("%s (%d,%d)->(%d,%d)"):format(unit, sx, sy, gx, gy), g, desc,
                  opts, sx, sy, gx, gy)
        end
      end
      assert.are.same({}, problems)
      assert.is_true(seen > 10)
    end)
  end

  it("boat: tile_cost's and move_cost's cost arguments come from"
     .. " get_cost(x, y, 'boat')", function()
    local g = make()
    local w, h = g:size()
    local boat = {}
    for y = 1, h do
      for x = 1, w do boat[key2(x, y)] = g:get_cost(x, y, "boat") end
    end
    local problems, calls = {}, 0
    local function expect(x, y, got, want)
      calls = calls + 1
      if boat[key2(x, y)] == false then
        problems[#problems + 1] = ("callback on (%d,%d), impassable to the boat")
          :format(x, y)
      elseif not helpers.close(got, want, REL) then
        problems[#problems + 1] = ("(%d,%d): cost %.17g, expected %.17g")
          :format(x, y, got, want)
      end
    end
    local _, cost = g:find_path(4, 1, 5, 5, { unit = "boat",
      tile_cost = function(x, y, c)
        expect(x, y, c, boat[key2(x, y)] or 0)
        return c
      end,
      move_cost = function(x1, y1, x2, y2, c)
        local len = (x1 == x2 or y1 == y2) and 1 or math.sqrt(2)
        expect(x2, y2, c, len * (boat[key2(x2, y2)] or 0))
        return c
      end })
    assert.are.same({}, problems)
    assert.is_true(calls > 10)
    local _, plain = g:find_path(4, 1, 5, 5, { unit = "boat" })
    assert.are.equal(plain, cost)
  end)
end)
