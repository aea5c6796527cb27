-- Every algorithm of find_path's `algorithm` option (and the tie rules and
-- heuristic function that go with them) against the reference Dijkstra of
-- spec/helpers.lua on random grids: the optimal ones return its cost, the
-- others legal paths costing at least as much (weighted A* at most `weight`
-- times as much; BFS the fewest steps).  Every case is built from its own
-- seed, named in a failure message.
local astar = require("astar")
local helpers = require("helpers")

local REL = 1e-9
local CASES = 120

local function same(case, a, b)
  if case.integer then return a == b end
  return helpers.close(a, b, REL)
end

-- The fewest steps from start to goal (every passable tile costs 1, every
-- legal step has length 1), by the reference Dijkstra.
local function fewest_steps(case, sx, sy, gx, gy)
  local d = case.desc
  local unit = {
    width = d.width, height = d.height, diagonals = d.diagonals,
    cardinal = 1, diagonal = 1,
    cost = function(x, y) return d.cost(x, y) and 1 or false end,
  }
  return helpers.dijkstra(unit, sx, sy, gx, gy)
end

-- Runs fn(case, sx, sy, gx, gy, ref, reason, ctx) over CASES random cases
-- (or n), cycling through every diagonal rule, hex included; grids up to
-- size x size.
local function each_case(base_seed, fn, n, size)
  size = size or 18
  for k = 1, n or CASES do
    local seed = base_seed + k
    local rng = helpers.rng(seed)
    local case = helpers.random_case(rng, astar, {
      width = rng:int(1, size), height = rng:int(1, size),
      rule = helpers.ALL_RULES[k % #helpers.ALL_RULES + 1] })
    local sx, sy = helpers.pick_tile(rng, case)
    local gx, gy = helpers.pick_tile(rng, case)
    local ref, reason = helpers.dijkstra(case.desc, sx, sy, gx, gy)
    local ctx = helpers.describe_case(seed, case,
      (" query=(%d,%d)->(%d,%d)"):format(sx, sy, gx, gy))
    fn(case, sx, sy, gx, gy, ref, reason, ctx)
  end
end

local function check(case, path, cost, sx, sy, gx, gy, ctx)
  local sum, why = helpers.check_path(case.desc, path, sx, sy, gx, gy)
  if not sum then error(ctx .. ": " .. why, 0) end
  if not same(case, sum, cost) then
    error(("%s: returned cost %.17g, the path sums to %.17g"):format(
      ctx, cost, sum), 0)
  end
  return sum
end

local OPTIMAL = {
  { name = "astar", opts = { algorithm = "astar" } },
  { name = "dijkstra", opts = { algorithm = "dijkstra" } },
  { name = "astar, ties = straight", opts = { ties = "straight" } },
  { name = "astar, ties = random", opts = { ties = "random", seed = 7 } },
  { name = "dijkstra, ties = random",
    opts = { algorithm = "dijkstra", ties = "random", seed = 99 } },
  { name = "heuristic function returning 0",
    opts = { heuristic = function() return 0 end } },
  { name = "bidirectional", opts = { algorithm = "bidirectional" } },
  { name = "bidirectional, heuristic zero (bidirectional Dijkstra)",
    opts = { algorithm = "bidirectional", heuristic = "zero" } },
}

describe("optimal algorithms equal the reference Dijkstra", function()
  for i, a in ipairs(OPTIMAL) do
    it(a.name, function()
      each_case(1000 * i, function(case, sx, sy, gx, gy, ref, reason, ctx)
        local stats = {}
        a.opts.stats = stats
        local path, cost = case.grid:find_path(sx, sy, gx, gy, a.opts)
        a.opts.stats = nil
        if ref == nil then
          assert(path == nil and cost == reason, ctx .. ": expected "
            .. reason .. ", got " .. tostring(cost))
          assert.are.equal(reason, stats.status)
          return
        end
        assert(path, ctx .. ": no path, expected cost " .. ref)
        check(case, path, cost, sx, sy, gx, gy, ctx)
        if not same(case, cost, ref) then
          error(("%s: cost %.17g, optimal %.17g"):format(ctx, cost, ref), 0)
        end
        assert.are.equal("found", stats.status)
      end, nil, a.size)
    end)
  end
end)

describe("ida", function()
  -- IDA* re-expands tiles every round, and real-valued costs make many
  -- rounds: small grids; a search over its node cap says "cutoff" (rare
  -- here), any other answer is the reference's
  it("equals the reference Dijkstra, or stops at its node cap", function()
    local finished, total = 0, 0
    each_case(9000, function(case, sx, sy, gx, gy, ref, reason, ctx)
      local stats = {}
      local path, cost = case.grid:find_path(sx, sy, gx, gy,
        { algorithm = "ida", stats = stats, max_nodes = 200000 })
      total = total + 1
      assert.are.equal("ida", stats.algorithm)
      if cost == "cutoff" then
        assert.are.equal(200000, stats.expanded, ctx)
        return
      end
      finished = finished + 1
      if ref == nil then
        assert(path == nil and cost == reason, ctx .. ": expected "
          .. reason .. ", got " .. tostring(cost))
        return
      end
      assert(path, ctx .. ": no path, expected cost " .. ref)
      check(case, path, cost, sx, sy, gx, gy, ctx)
      if not same(case, cost, ref) then
        error(("%s: cost %.17g, optimal %.17g"):format(ctx, cost, ref), 0)
      end
    end, 300, 7)
    assert.is_true(finished >= 0.9 * total, finished .. " of " .. total)
  end)

  it("has a default node cap", function()
    -- an open 60x60 grid with real costs: far too many rounds
    local g = astar.new(60, 60)
    local rng = helpers.rng(5)
    for y = 1, 60 do
      for x = 1, 60 do g:set_cost(x, y, rng:int(256, 2559) / 256) end
    end
    local stats = {}
    local path, why = g:find_path(1, 1, 60, 60,
                                  { algorithm = "ida", stats = stats })
    assert.is_nil(path)
    assert.are.equal("cutoff", why)
    assert.are.equal(1000000, stats.expanded)
    -- usable at once, and A* still answers
    assert.is_table(g:find_path(1, 1, 60, 60))
  end)
end)

describe("other algorithms return legal paths", function()
  it("bfs: the fewest steps, cost at least optimal", function()
    each_case(20000, function(case, sx, sy, gx, gy, ref, reason, ctx)
      local path, cost = case.grid:find_path(sx, sy, gx, gy,
                                             { algorithm = "bfs" })
      if ref == nil then
        assert(path == nil and cost == reason, ctx)
        return
      end
      assert(path, ctx .. ": bfs found no path")
      local sum = check(case, path, cost, sx, sy, gx, gy, ctx)
      assert(sum >= ref * (1 - REL), ctx .. ": cheaper than optimal")
      local steps = fewest_steps(case, sx, sy, gx, gy)
      assert.are.equal(steps, #path / 2 - 1, ctx)
    end)
  end)

  for _, w in ipairs({ 1.5, 3 }) do
    it("weighted " .. w .. ": cost within weight * optimal", function()
      each_case(21000 + 100 * w, function(case, sx, sy, gx, gy, ref,
                                          reason, ctx)
        local path, cost = case.grid:find_path(sx, sy, gx, gy,
          { algorithm = "weighted", weight = w })
        if ref == nil then
          assert(path == nil and cost == reason, ctx)
          return
        end
        local sum = check(case, path, cost, sx, sy, gx, gy, ctx)
        assert(sum >= ref * (1 - REL), ctx .. ": cheaper than optimal")
        assert(sum <= w * ref * (1 + REL) + 1e-9,
          ("%s: cost %.17g > %g * %.17g"):format(ctx, sum, w, ref))
      end)
    end)
  end

  it("bidirectional_bfs: the fewest steps, like bfs", function()
    each_case(24000, function(case, sx, sy, gx, gy, ref, reason, ctx)
      local stats = {}
      local path, cost = case.grid:find_path(sx, sy, gx, gy,
        { algorithm = "bidirectional_bfs", stats = stats })
      if ref == nil then
        assert(path == nil and cost == reason, ctx)
        return
      end
      assert(path, ctx .. ": bidirectional_bfs found no path")
      local sum = check(case, path, cost, sx, sy, gx, gy, ctx)
      assert(sum >= ref * (1 - REL), ctx .. ": cheaper than optimal")
      local steps = fewest_steps(case, sx, sy, gx, gy)
      assert.are.equal(steps, #path / 2 - 1, ctx)
      assert.are.equal("bidirectional_bfs", stats.algorithm)
    end)
  end)

  it("greedy: a path whenever one exists, cost at least optimal", function()
    each_case(22000, function(case, sx, sy, gx, gy, ref, reason, ctx)
      local path, cost = case.grid:find_path(sx, sy, gx, gy,
                                             { algorithm = "greedy" })
      if ref == nil then
        assert(path == nil and cost == reason, ctx)
        return
      end
      local sum = check(case, path, cost, sx, sy, gx, gy, ctx)
      assert(sum >= ref * (1 - REL), ctx .. ": cheaper than optimal")
    end)
  end)

  it("beam: legal paths, at least optimal; a wide beam is A*", function()
    each_case(23000, function(case, sx, sy, gx, gy, ref, reason, ctx)
      for _, width in ipairs({ 1, 4, 16 }) do
        local path, cost = case.grid:find_path(sx, sy, gx, gy,
          { algorithm = "beam", beam_width = width })
        if ref == nil then
          assert(path == nil and cost == reason, ctx)
        elseif path then
          local sum = check(case, path, cost, sx, sy, gx, gy, ctx)
          assert(sum >= ref * (1 - REL), ctx .. ": cheaper than optimal")
        else
          assert(cost == "no_path", ctx .. " beam_width=" .. width)
        end
      end
      -- a beam wider than the grid never drops a node
      local path, cost = case.grid:find_path(sx, sy, gx, gy,
        { algorithm = "beam", beam_width = 400 })
      if ref ~= nil then
        assert(path and same(case, cost, ref), ctx .. ": wide beam")
      end
    end)
  end)
end)

describe("algorithms on a known map", function()
  local map = [[
..........
.########.
.#......#.
.#.####.#.
...#..#...]]

  it("every name finds the way round; stats name the algorithm", function()
    local g = astar.from_string(map)
    for _, name in ipairs({ "astar", "dijkstra", "bfs", "greedy",
                            "weighted", "beam", "ida", "bidirectional",
                            "bidirectional_bfs" }) do
      local stats = {}
      local path, cost, expanded = g:find_path(1, 5, 10, 5,
        { algorithm = name, stats = stats })
      assert.is_table(path, name)
      assert.are.equal(name, stats.algorithm)
      assert.are.equal("found", stats.status)
      assert.are.equal(expanded, stats.expanded)
      assert.is_true(stats.generated >= stats.expanded - 1, name)
      assert.is_true(stats.peak_open >= 1, name)
      assert.are.equal(10, stats.end_x)
      assert.are.equal(5, stats.end_y)
      assert.is_true(cost >= 9, name)
    end
  end)

  it("dijkstra expands at least as much as A*, greedy at most", function()
    local g = astar.new(40, 40)
    local _, _, ea = g:find_path(1, 1, 40, 30, { algorithm = "astar" })
    local _, _, ed = g:find_path(1, 1, 40, 30, { algorithm = "dijkstra" })
    local _, _, eg = g:find_path(1, 1, 40, 30, { algorithm = "greedy" })
    assert.is_true(ed > ea)
    assert.is_true(eg <= ea)
  end)

  it("the default tie rule is larger_g: same path and expansions", function()
    local g = astar.from_string(map)
    local p1, c1, e1 = g:find_path(1, 1, 10, 5)
    local p2, c2, e2 = g:find_path(1, 1, 10, 5, { ties = "larger_g" })
    assert.are.same(p1, p2)
    assert.are.equal(c1, c2)
    assert.are.equal(e1, e2)
  end)

  it("straight ties follow the line start-goal on an open grid", function()
    local g = astar.new(9, 9, { diagonals = "never" })
    local p = g:find_path(1, 1, 9, 9, { ties = "straight" })
    -- a staircase: never more than one tile off the diagonal
    for i = 1, #p, 2 do
      assert.is_true(math.abs(p[i] - p[i + 1]) <= 1, helpers.path_string(p))
    end
    local plain = g:find_path(1, 1, 9, 9)
    local off = 0
    for i = 1, #plain, 2 do
      off = math.max(off, math.abs(plain[i] - plain[i + 1]))
    end
    assert.is_true(off > 1) -- larger_g alone hugs an edge
  end)

  it("a heuristic function is called with 1-based tiles and the goal",
     function()
    local g = astar.new(6, 4)
    local seen = 0
    local path, cost = g:find_path(2, 1, 6, 4, { heuristic =
      function(x, y, gx, gy)
        assert(gx == 6 and gy == 4)
        assert(x >= 1 and x <= 6 and y >= 1 and y <= 4)
        seen = seen + 1
        return math.max(math.abs(x - gx), math.abs(y - gy))
      end })
    assert.is_table(path)
    assert.is_true(seen > 0)
    assert.is_true(helpers.close(cost, 1 + 3 * helpers.SQRT2, 1e-12))
  end)

  it("a heuristic function's error reaches the caller", function()
    local g = astar.new(6, 4)
    local ok, err = pcall(g.find_path, g, 1, 1, 6, 4,
      { heuristic = function() error({ code = 42 }) end })
    assert.is_false(ok)
    assert.are.equal(42, err.code)
    assert.is_table(g:find_path(1, 1, 6, 4)) -- usable at once
    local msg = helpers.error_of(g.find_path, g, 1, 1, 6, 4,
      { heuristic = function() return -1 end })
    assert.are.equal("bad argument #6 to 'find_path' (heuristic returned -1 "
      .. "for (1, 1) -> (6, 4); expected a finite number >= 0)", msg)
  end)
end)

describe("ida and bidirectional with unit classes and heights", function()
  -- height limits make moves one-way: the backward search must read them
  -- as the forward one does
  local function with_heights(case, rng)
    local w, h = case.width, case.height
    local hs, terr, mult = {}, {}, {}
    for i = 1, w * h do
      hs[i] = rng:int(0, 3)
      terr[i] = rng:int(0, 2)
    end
    case.grid:load_heights(hs)
    case.grid:load_terrain(terr)
    local unit = {}
    for t = 0, 2 do
      mult[t] = rng:chance(0.15) and false or rng:int(1, 3)
      unit[t] = mult[t]
    end
    local climb, descend = rng:int(0, 2), rng:int(0, 1)
    local max_climb = rng:pick({ 1, 2, math.huge })
    local max_drop = rng:pick({ 1, math.huge })
    case.grid:set_unit("hiker", unit, { climb = climb, descend = descend,
      max_climb = max_climb, max_drop = max_drop })
    local d = case.desc
    local desc = {
      width = w, height = h, diagonals = d.diagonals,
      cardinal = d.cardinal, diagonal = d.diagonal,
      cost = function(x, y)
        local i = (y - 1) * w + x
        local c, m = case.costs[i], mult[terr[i]]
        if not c or not m then return false end
        return c * m
      end,
      extra = function(x, y, nx, ny)
        local dh = hs[(ny - 1) * w + nx] - hs[(y - 1) * w + x]
        if dh > max_climb or -dh > max_drop then return false end
        return dh > 0 and climb * dh or -descend * dh
      end,
    }
    return desc
  end

  for _, name in ipairs({ "bidirectional", "bidirectional_bfs", "ida" }) do
    it(name, function()
      for k = 1, 150 do
        local seed = 31000 + k
        local rng = helpers.rng(seed)
        local size = name == "ida" and 6 or 14
        local case = helpers.random_case(rng, astar, {
          width = rng:int(1, size), height = rng:int(1, size),
          rule = helpers.ALL_RULES[k % #helpers.ALL_RULES + 1],
          weights = name == "ida" and "int" or nil })
        local desc = with_heights(case, rng)
        local sx, sy = helpers.pick_tile(rng, case)
        local gx, gy = helpers.pick_tile(rng, case)
        local ctx = helpers.describe_case(seed, case,
          (" %s (%d,%d)->(%d,%d)"):format(name, sx, sy, gx, gy))
        local ref, reason = helpers.dijkstra(desc, sx, sy, gx, gy)
        local path, cost = case.grid:find_path(sx, sy, gx, gy,
          { algorithm = name, unit = "hiker" })
        if cost ~= "cutoff" then
          if ref == nil then
            assert(path == nil and cost == reason, ctx .. ": expected "
              .. reason .. ", got " .. tostring(cost))
          else
            assert(path, ctx .. ": no path (" .. tostring(cost) .. ")")
            local sum, why = helpers.check_path(desc, path, sx, sy, gx, gy)
            assert(sum, ctx .. ": " .. tostring(why))
            assert(helpers.close(sum, cost, REL), ctx .. ": cost " .. cost
              .. ", path sums to " .. sum)
            if name == "bidirectional_bfs" then
              local steps = helpers.dijkstra({
                width = desc.width, height = desc.height,
                diagonals = desc.diagonals, cardinal = 1, diagonal = 1,
                cost = function(x, y) return desc.cost(x, y) and 1 or false end,
                extra = function(...) return desc.extra(...) and 0 end,
              }, sx, sy, gx, gy)
              assert.are.equal(steps, #path / 2 - 1, ctx)
            else
              assert(helpers.close(cost, ref, REL), ctx .. ": cost " .. cost
                .. ", optimal " .. ref)
            end
          end
        end
      end
    end)
  end
end)
