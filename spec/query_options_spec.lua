-- Query options of find_path / next_step (issue 5): goal sets, cutoffs
-- (max_cost, max_length, max_nodes), closest reachable tile, a blocked
-- start or goal, statistics and seeded random ties.  Hand-built cases pin
-- the documented behaviour; random cases check it against the reference
-- Dijkstra of spec/helpers.lua.  Seeds are fixed: every run is the same.
local astar = require("astar")
local helpers = require("helpers")

local REL = 1e-9
local CASES = 100

local function same(case, a, b)
  if case.integer then return a == b end
  return helpers.close(a, b, REL)
end

local function each_case(base, fn)
  for k = 1, CASES do
    local seed = base + k
    local rng = helpers.rng(seed)
    local case = helpers.random_case(rng, astar, {
      width = rng:int(1, 14), height = rng:int(1, 14) })
    fn(case, rng, helpers.describe_case(seed, case))
  end
end

local function legal(case, path, sx, sy, ex, ey, cost, ctx)
  local sum, why = helpers.check_path(case.desc, path, sx, sy, ex, ey)
  if not sum then error(ctx .. ": " .. why, 0) end
  if not same(case, sum, cost) then
    error(("%s: cost %.17g but the path sums to %.17g"):format(ctx, cost,
      sum), 0)
  end
end

-- The distance astar's `closest` uses: the default heuristic of the
-- movement, in cardinal steps (the same arithmetic as the C core).
local function distance(desc, dx, dy)
  local c = desc.cardinal or 1
  local d = desc.diagonal or helpers.SQRT2
  dx, dy = math.abs(dx), math.abs(dy)
  local A, B
  if desc.diagonals == "never" or d >= 2 * c then
    A, B = c, c
  elseif d < c then
    A, B = d, 0
  else
    A, B = c, d - c
  end
  if dx > dy then return A * dx + B * dy end
  return A * dy + B * dx
end

-- Tiles reachable from (sx, sy) (the start counts even when blocked).
local function reachable(desc, sx, sy)
  local w = desc.width
  local seen, list = { [(sy - 1) * w + sx] = true }, { { sx, sy } }
  local i = 1
  while i <= #list do
    local x, y = list[i][1], list[i][2]
    for _, d in ipairs(helpers.DIRS) do
      local nx, ny = x + d[1], y + d[2]
      if helpers.step_cost(desc, x, y, d[1], d[2]) then
        local k = (ny - 1) * w + nx
        if not seen[k] then
          seen[k] = true
          list[#list + 1] = { nx, ny }
        end
      end
    end
    i = i + 1
  end
  return list
end

-- The optimal cost when the start may be blocked (it is left anyway).
local function leave_cost(desc, sx, sy, gx, gy)
  if sx == gx and sy == gy then return 0 end
  local best
  for _, d in ipairs(helpers.DIRS) do
    local c = helpers.step_cost(desc, sx, sy, d[1], d[2])
    if c then
      local rest = helpers.dijkstra(desc, sx + d[1], sy + d[2], gx, gy)
      if rest and (best == nil or c + rest < best) then best = c + rest end
    end
  end
  return best
end

describe("goals", function()
  it("stops at the cheapest goal and says which", function()
    local g = astar.from_string([[
..........
..........
..........]])
    local stats = {}
    local path, cost = g:find_path(5, 2, nil, nil,
      { goals = { 10, 2, 1, 1, 10, 3 }, stats = stats })
    assert.are.same({ 1, 1 }, { path[#path - 1], path[#path] })
    assert.is_true(helpers.close(3 + helpers.SQRT2, cost, 1e-12))
    assert.are.equal(2, stats.goal)
    assert.are.equal(1, stats.end_x)
    assert.are.equal(1, stats.end_y)
    -- with gx, gy too: that goal is index 0
    g:find_path(5, 2, 6, 2, { goals = { 10, 2 }, stats = stats })
    assert.are.equal(0, stats.goal)
    g:find_path(5, 2, 10, 2, { goals = { 6, 2 }, stats = stats })
    assert.are.equal(1, stats.goal)
  end)

  it("blocked goals are skipped; all blocked is goal_blocked", function()
    local g = astar.from_string("...#.\n.....")
    local path = g:find_path(1, 1, nil, nil, { goals = { 4, 1, 5, 2 } })
    assert.are.equal(5, path[#path - 1])
    assert.are.same({ nil, "goal_blocked", 0 },
      { g:find_path(1, 1, nil, nil, { goals = { 4, 1 } }) })
  end)

  it("a goal at the start is reached at once", function()
    local g = astar.new(5, 5)
    local path, cost = g:find_path(3, 3, nil, nil, { goals = { 1, 1, 3, 3 } })
    assert.are.same({ 3, 3 }, path)
    assert.are.equal(0, cost)
  end)

  it("random grids: the cost is the least over the goals", function()
    each_case(31000, function(case, rng, ctx)
      local sx, sy = helpers.pick_tile(rng, case)
      local goals, best, many = {}, nil, rng:int(1, 25)
      for i = 1, many do
        local gx, gy = helpers.pick_tile(rng, case)
        goals[2 * i - 1], goals[2 * i] = gx, gy
        local c = helpers.dijkstra(case.desc, sx, sy, gx, gy)
        if c and (best == nil or c < best) then best = c end
      end
      local stats = {}
      local path, cost = case.grid:find_path(sx, sy, nil, nil,
        { goals = goals, stats = stats })
      ctx = ctx .. (" start=(%d,%d) goals=%d"):format(sx, sy, many)
      if best == nil then
        assert(path == nil, ctx .. ": expected no path")
        return
      end
      assert(path, ctx .. ": no path, expected " .. best)
      local gx, gy = goals[2 * stats.goal - 1], goals[2 * stats.goal]
      legal(case, path, sx, sy, gx, gy, cost, ctx)
      assert(same(case, cost, best), ctx .. (": cost %.17g, best %.17g")
        :format(cost, best))
    end)
  end)
end)

describe("cutoffs", function()
  local map = "..........\n.########.\n.........."

  it("max_cost: a path within it, else cutoff", function()
    local g = astar.from_string(map)
    local _, cost = g:find_path(1, 3, 10, 3)
    assert.are.equal(9, cost)
    assert.is_table(g:find_path(1, 3, 10, 3, { max_cost = 9 }))
    local stats = {}
    local p, why, expanded = g:find_path(1, 3, 10, 3,
      { max_cost = 8.5, stats = stats })
    assert.is_nil(p)
    assert.are.equal("cutoff", why)
    assert.is_true(expanded > 0)
    assert.are.equal("cutoff", stats.status)
  end)

  it("max_length: steps, not cost", function()
    local g = astar.from_string(map, nil, { diagonals = "never" })
    assert.is_table(g:find_path(1, 3, 10, 3, { max_length = 9 }))
    assert.are.equal("cutoff",
      select(2, g:find_path(1, 3, 10, 3, { max_length = 8 })))
    -- a costly short way and a cheap long one: the long one is too long
    local g2 = astar.from_string("1991\n1111", nil, { diagonals = "never" })
    local p, cost = g2:find_path(1, 1, 4, 1)
    assert.are.equal(5, #p / 2 - 1)
    p, cost = g2:find_path(1, 1, 4, 1, { max_length = 3 })
    assert.are.equal(3, #p / 2 - 1)
    assert.are.equal(19, cost)
  end)

  it("max_nodes: expansions", function()
    local g = astar.from_string(map)
    -- A*'s expansions: cutoffs run A* (a plain query may run JPS)
    local _, _, expanded = g:find_path(1, 1, 10, 3, { algorithm = "astar" })
    assert.is_table(g:find_path(1, 1, 10, 3, { max_nodes = expanded }))
    local p, why, e = g:find_path(1, 1, 10, 3, { max_nodes = expanded - 1 })
    assert.is_nil(p)
    assert.are.equal("cutoff", why)
    assert.are.equal(expanded - 1, e)
  end)

  it("a cutoff with closest returns the best partial path", function()
    local g = astar.new(20, 1)
    local path, cost, _, why = g:find_path(1, 1, 20, 1,
      { max_cost = 5, closest = true })
    assert.are.same({ 1, 1, 2, 1, 3, 1, 4, 1, 5, 1, 6, 1 }, path)
    assert.are.equal(5, cost)
    assert.are.equal("cutoff", why)
    local x, y, c, why2 = g:next_step(1, 1, 20, 1,
      { max_nodes = 3, closest = true })
    assert.are.same({ 2, 1, 2, "cutoff" }, { x, y, c, why2 })
  end)

  it("random grids: generous cutoffs change nothing, tight ones cut",
     function()
    each_case(32000, function(case, rng, ctx)
      local sx, sy = helpers.pick_tile(rng, case)
      local gx, gy = helpers.pick_tile(rng, case)
      local ref = helpers.dijkstra(case.desc, sx, sy, gx, gy)
      ctx = ctx .. (" (%d,%d)->(%d,%d)"):format(sx, sy, gx, gy)
      if not ref or ref == 0 then return end
      -- the heap, as under the cutoffs: the bucket queue may expand other
      -- nodes of equal f and g (docs/api.md, open_list)
      local _, _, expanded = case.grid:find_path(sx, sy, gx, gy,
        { algorithm = "astar", open_list = "heap" })
      local p, c = case.grid:find_path(sx, sy, gx, gy,
        { max_cost = ref * (1 + 1e-9), max_nodes = expanded })
      assert(p and same(case, c, ref), ctx .. ": generous cutoffs")
      local p2, why = case.grid:find_path(sx, sy, gx, gy,
        { max_cost = ref * (1 - 1e-6) })
      assert(p2 == nil and why == "cutoff", ctx .. ": max_cost below")
      p2, why = case.grid:find_path(sx, sy, gx, gy,
        { max_nodes = expanded - 1 })
      assert(p2 == nil and why == "cutoff", ctx .. ": max_nodes below")
      local steps = #p / 2 - 1
      local p3, c3 = case.grid:find_path(sx, sy, gx, gy,
        { max_length = steps })
      if p3 then
        assert(#p3 / 2 - 1 <= steps, ctx .. ": too long")
        legal(case, p3, sx, sy, gx, gy, c3, ctx)
      end
    end)
  end)
end)

describe("closest", function()
  it("a walled-in goal: the nearest reachable tile, then the cheapest",
     function()
    local g = astar.from_string([[
.......
...###.
...#.#.
...###.]])
    local stats = {}
    local path, cost, _, why = g:find_path(1, 1, 5, 3,
      { closest = true, stats = stats })
    assert.are.equal("no_path", why)
    assert.is_true(stats.partial)
    assert.are.equal("no_path", stats.status)
    -- at distance 2: (3, 3), (5, 1), (7, 3); (3, 3) is the cheapest
    assert.are.same({ 3, 3 }, { stats.end_x, stats.end_y })
    assert.are.same({ 1, 1, 2, 2, 3, 3 }, path)
    assert.is_true(helpers.close(2 * helpers.SQRT2, cost, 1e-12))
    -- without closest: nothing
    local p, why2 = g:find_path(1, 1, 5, 3)
    assert.is_nil(p)
    assert.are.equal("no_path", why2)
  end)

  it("a blocked goal: goal_blocked and a path next to it", function()
    local g = astar.from_string(".....\n....#")
    local path, _, _, why = g:find_path(1, 1, 5, 2, { closest = true })
    assert.are.equal("goal_blocked", why)
    assert.are.same({ 4, 2 }, { path[#path - 1], path[#path] })
  end)

  it("random grids: the reachable tile nearest the goal, then the cheapest,"
     .. " then the lowest row and column", function()
    each_case(33000, function(case, rng, ctx)
      local sx, sy = helpers.pick_tile(rng, case)
      local gx, gy = rng:int(1, case.width), rng:int(1, case.height)
      ctx = ctx .. (" (%d,%d)->(%d,%d)"):format(sx, sy, gx, gy)
      local desc = case.desc
      if not helpers.tile(desc, sx, sy) then return end
      local ref = helpers.dijkstra(desc, sx, sy, gx, gy)
      local stats = {}
      local path, cost, _, why = case.grid:find_path(sx, sy, gx, gy,
        { closest = true, stats = stats })
      assert(path, ctx .. ": closest returned no path")
      if ref then
        assert(why == nil and same(case, cost, ref), ctx .. ": reachable")
        return
      end
      -- the best candidates by distance, then cost, then index
      local best
      for _, t in ipairs(reachable(desc, sx, sy)) do
        local d = distance(desc, t[1] - gx, t[2] - gy)
        local c = helpers.dijkstra(desc, sx, sy, t[1], t[2])
        local better = best == nil or d < best.d
          or (d == best.d and (c < best.c - 1e-9 * math.max(1, c)
            or (math.abs(c - best.c) <= 1e-9 * math.max(1, c)
              and (t[2] < best.y or (t[2] == best.y and t[1] < best.x)))))
        if better then best = { d = d, c = c, x = t[1], y = t[2] } end
      end
      assert.are.equal(helpers.tile(desc, gx, gy) and "no_path"
        or "goal_blocked", why, ctx)
      assert(stats.end_x == best.x and stats.end_y == best.y,
        ("%s: ended at (%d,%d), expected (%d,%d)"):format(ctx, stats.end_x,
          stats.end_y, best.x, best.y))
      legal(case, path, sx, sy, best.x, best.y, cost, ctx)
      assert(same(case, cost, best.c), ctx .. ": not the cheapest way there")
    end)
  end)
end)

describe("start and goal", function()
  it("start == goal: the start alone, cost 0", function()
    local g = astar.new(3, 3)
    local p, c = g:find_path(2, 2, 2, 2)
    assert.are.same({ 2, 2 }, p)
    assert.are.equal(0, c)
    assert.are.same({ 2, 2, 0 }, { g:next_step(2, 2, 2, 2) })
    g:set_blocked(2, 2)
    assert.are.equal("start_blocked", select(2, g:find_path(2, 2, 2, 2)))
    -- the documented order: a blocked start is left open, a blocked goal
    -- is still a blocked goal, even where it is that start
    local p2, why = g:find_path(2, 2, 2, 2, { leave_blocked_start = true })
    assert.is_nil(p2)
    assert.are.equal("goal_blocked", why)
    assert.are.same({ nil, "goal_blocked" },
      { g:next_step(2, 2, 2, 2, { leave_blocked_start = true }) })
    -- with closest the search runs, and the start is the closest tile
    local p3, c3, _, why3 = g:find_path(2, 2, 2, 2,
      { leave_blocked_start = true, closest = true })
    assert.are.same({ 2, 2 }, p3)
    assert.are.equal(0, c3)
    assert.are.equal("goal_blocked", why3)
  end)

  it("leave_blocked_start: a unit in the door it just closed", function()
    local g = astar.from_string("#.#\n.#.\n#.#")
    assert.are.same({ nil, "start_blocked", 0 }, { g:find_path(2, 2, 2, 1) })
    local path, cost = g:find_path(2, 2, 2, 1, { leave_blocked_start = true })
    assert.are.same({ 2, 2, 2, 1 }, path)
    assert.are.equal(1, cost)
    -- diagonals out of it follow the corner rule
    g = astar.from_string("#.\n##")
    local p2, why = g:find_path(1, 1, 2, 1, { leave_blocked_start = true })
    assert.are.same({ 1, 1, 2, 1 }, p2)
    g = astar.from_string("##\n#.")
    p2, why = g:find_path(1, 1, 2, 2, { leave_blocked_start = true })
    assert.is_nil(p2)
    assert.are.equal("no_path", why)
  end)

  it("next_to_blocked_goal: stop beside a unit to attack it", function()
    local g = astar.new(7, 3)
    g:set_blocked(6, 2)
    local stats = {}
    local path, cost = g:find_path(1, 2, 6, 2,
      { next_to_blocked_goal = true, stats = stats })
    assert.are.same({ 1, 2, 2, 2, 3, 2, 4, 2, 5, 2 }, path)
    assert.are.equal(4, cost)
    assert.are.equal("found", stats.status)
    -- already beside it: stay
    assert.are.same({ 5, 2 },
      (g:find_path(5, 2, 6, 2, { next_to_blocked_goal = true })))
    -- a passable goal is still reached
    local p2 = g:find_path(1, 2, 7, 2, { next_to_blocked_goal = true })
    assert.are.same({ 7, 2 }, { p2[#p2 - 1], p2[#p2] })
    -- no_corner_cut: a diagonal neighbour whose corner is walled is not
    -- "next to" the goal
    local g3 = astar.from_string("...\n.#.\n..#")
    local p3 = g3:find_path(1, 1, 3, 3, { next_to_blocked_goal = true })
    local ex, ey = p3[#p3 - 1], p3[#p3]
    assert.is_true((ex == 3 and ey == 2) or (ex == 2 and ey == 3))
  end)

  it("random grids: leave_blocked_start and next_to_blocked_goal",
     function()
    each_case(34000, function(case, rng, ctx)
      local desc = case.desc
      local sx, sy = rng:int(1, case.width), rng:int(1, case.height)
      local gx, gy = helpers.pick_tile(rng, case)
      ctx = ctx .. (" (%d,%d)->(%d,%d)"):format(sx, sy, gx, gy)
      -- leave_blocked_start
      local ref = leave_cost(desc, sx, sy, gx, gy)
      local path, cost = case.grid:find_path(sx, sy, gx, gy,
        { leave_blocked_start = true })
      if not helpers.tile(desc, gx, gy) and not (sx == gx and sy == gy) then
        ref = nil
      end
      if ref == nil then
        assert(path == nil, ctx .. ": leave: expected no path")
      else
        assert(path and same(case, cost, ref), ctx .. ": leave: cost "
          .. tostring(cost) .. ", expected " .. ref)
      end
      -- next_to_blocked_goal, with a goal anywhere
      local bx, by = rng:int(1, case.width), rng:int(1, case.height)
      if not helpers.tile(desc, sx, sy) then return end
      local want
      if helpers.tile(desc, bx, by) or (bx == sx and by == sy) then
        want = helpers.dijkstra(desc, sx, sy, bx, by)
      else
        local open = {
          width = desc.width, height = desc.height,
          diagonals = desc.diagonals, cardinal = desc.cardinal,
          diagonal = desc.diagonal,
          cost = function(x, y)
            if x == bx and y == by then return 1 end
            return desc.cost(x, y)
          end,
        }
        for _, d in ipairs(helpers.DIRS) do
          local nx, ny = bx - d[1], by - d[2]
          if (helpers.tile(desc, nx, ny) or (nx == sx and ny == sy))
              and helpers.step_cost(open, nx, ny, d[1], d[2]) then
            local c = helpers.dijkstra(desc, sx, sy, nx, ny)
            if c and (want == nil or c < want) then want = c end
          end
        end
      end
      local p2, c2 = case.grid:find_path(sx, sy, bx, by,
        { next_to_blocked_goal = true })
      if want == nil then
        assert(p2 == nil, ctx .. (": next_to (%d,%d): expected no path")
          :format(bx, by))
      else
        assert(p2 and same(case, c2, want), ctx .. (": next_to (%d,%d): "
          .. "cost %s, expected %.17g"):format(bx, by, tostring(c2), want))
      end
    end)
  end)
end)

describe("statistics", function()
  it("are filled in place and match the plain returns", function()
    local g = astar.new(30, 30)
    local stats = { old = true }
    local p1, c1, e1 = g:find_path(1, 1, 30, 20, { algorithm = "astar" })
    local p2, c2, e2 = g:find_path(1, 1, 30, 20, { algorithm = "astar",
                                                   stats = stats })
    assert.are.same(p1, p2)
    assert.are.equal(c1, c2)
    assert.are.equal(e1, e2)
    assert.are.equal(e1, stats.expanded)
    assert.is_true(stats.generated >= stats.expanded)
    assert.is_true(stats.peak_open >= 1
      and stats.peak_open <= stats.generated)
    assert.are.equal("found", stats.status)
    assert.are.equal("astar", stats.algorithm)
    assert.is_false(stats.partial)
    assert.is_true(stats.old)
    g:set_blocked(30, 20)
    g:find_path(1, 1, 30, 20, { stats = stats })
    assert.are.equal("goal_blocked", stats.status)
    assert.is_nil(stats.end_x)
  end)
end)

describe("random ties", function()
  -- chi-square statistic of the counts against a uniform distribution
  local function chi2(counts, total, k)
    local e, s = total / k, 0
    for _, n in pairs(counts) do s = s + (n - e) ^ 2 / e end
    return s + (k - (function()
      local m = 0
      for _ in pairs(counts) do m = m + 1 end
      return m
    end)()) * e
  end

  local function distribution(g, sx, sy, gx, gy, seeds)
    local counts, opt = {}, select(2, g:find_path(sx, sy, gx, gy))
    for seed = 1, seeds do
      local p, c = g:find_path(sx, sy, gx, gy, { ties = "random",
                                                 seed = seed })
      assert.is_true(helpers.close(c, opt, 1e-12))
      local key = table.concat(p, ",")
      counts[key] = (counts[key] or 0) + 1
    end
    return counts
  end

  it("4-way 4x4: uniform over the 20 shortest paths", function()
    local g = astar.new(4, 4, { diagonals = "never" })
    local counts = distribution(g, 1, 1, 4, 4, 2000)
    local k = 0
    for _ in pairs(counts) do k = k + 1 end
    assert.are.equal(20, k)
    -- 19 degrees of freedom: 43.8 is the 0.1% tail
    assert.is_true(chi2(counts, 2000, 20) < 43.8)
  end)

  it("8-way 5x3: uniform over the 6 paths of 2 diagonals and 2 steps",
     function()
    local g = astar.new(5, 3)
    local counts = distribution(g, 1, 1, 5, 3, 1200)
    local k = 0
    for _ in pairs(counts) do k = k + 1 end
    assert.are.equal(6, k)
    assert.is_true(chi2(counts, 1200, 6) < 20.5) -- 5 dof, 0.1% tail
  end)

  it("uniform over paths, not over parents", function()
    -- from (1,1) to (3,3) on 4-way: 6 paths; the goal's two parents carry
    -- 3 paths each, but (2,1)'s side has 1 + 2 ... every path ~ 1/6
    local g = astar.new(3, 3, { diagonals = "never" })
    local counts = distribution(g, 1, 1, 3, 3, 1200)
    for _, n in pairs(counts) do
      assert.is_true(n > 140 and n < 260, tostring(n))
    end
  end)

  it("the same seed gives the same path on every runtime", function()
    local g = astar.new(4, 4, { diagonals = "never" })
    local p = g:find_path(1, 1, 4, 4, { ties = "random", seed = 12345 })
    assert.are.equal("1,1,2,1,3,1,3,2,3,3,3,4,4,4", table.concat(p, ","))
    local g2 = astar.new(5, 3)
    p = g2:find_path(1, 1, 5, 3, { ties = "random", seed = 12345 })
    assert.are.equal("1,1,2,2,3,3,4,3,5,3", table.concat(p, ","))
    -- and again, after other searches
    g:find_path(4, 4, 1, 1)
    p = g:find_path(1, 1, 4, 4, { ties = "random", seed = 12345 })
    assert.are.equal("1,1,2,1,3,1,3,2,3,3,3,4,4,4", table.concat(p, ","))
  end)
end)

-- Options are read only when the table holds them (a table with a
-- metatable is read name by name, as before): every option a metatable's
-- __index gives must still count, and an absent one keeps its default.
describe("options from a metatable", function()
  local function open_grid()
    local g = astar.new(8, 8)
    g:set_cost(4, 1, 9)
    return g
  end

  it("__index options are honoured like the table's own", function()
    local g = open_grid()
    local own = { path = "corners", max_nodes = 3, closest = true,
                  stats = {} }
    local p1, c1, e1, r1 = g:find_path(1, 1, 8, 8, own)
    local inherited = setmetatable({}, { __index = {
      path = "corners", max_nodes = 3, closest = true, stats = {} } })
    local p2, c2, e2, r2 = g:find_path(1, 1, 8, 8, inherited)
    assert.are.same(p1, p2)
    assert.are.equal(c1, c2)
    assert.are.equal(e1, e2)
    assert.are.equal(r1, r2)
    assert.are.equal(3, e2) -- max_nodes came through __index
    local corners = g:find_path(1, 1, 8, 8,
      setmetatable({}, { __index = { path = "corners" } }))
    assert.are.same({ 1, 1, 8, 8 }, corners) -- and path = "corners"
    assert.are.equal(16, #g:find_path(1, 1, 8, 8))
  end)

  it("a bad option from __index raises as the table's own does", function()
    local g = open_grid()
    local ok1, e1 = pcall(g.find_path, g, 1, 1, 8, 8, { ties = "sideways" })
    local ok2, e2 = pcall(g.find_path, g, 1, 1, 8, 8,
      setmetatable({}, { __index = { ties = "sideways" } }))
    assert.is_false(ok1)
    assert.is_false(ok2)
    assert.are.equal(e1, e2)
    assert.truthy(e2:find("ties must be one of", 1, true))
  end)

  it("absent options keep their defaults beside present ones", function()
    local g = open_grid()
    local full = { path = "tiles", ties = "larger_g", open_list = "auto",
                   max_cost = math.huge, closest = false, zones = true,
                   landmarks = true, weight = 1, heuristic = "default" }
    for name in pairs(full) do
      local one = { [name] = full[name] }
      local p1, c1, e1 = g:find_path(1, 1, 8, 8, one)
      local p2, c2, e2 = g:find_path(1, 1, 8, 8)
      assert.are.same(p2, p1, name)
      assert.are.equal(c2, c1, name)
      assert.are.equal(e2, e1, name)
    end
    local s = {}
    local _, _, e = g:find_path(1, 1, 8, 8, { algorithm = "beam", stats = s })
    local _, _, e2 = g:find_path(1, 1, 8, 8, { algorithm = "beam",
      beam_width = 1000 })
    assert.are.equal(e2, e) -- beam_width's default is 1000 when absent
  end)
end)
