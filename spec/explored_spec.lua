-- The `explored` option of find_path / next_step (issue 8): the tiles a
-- search expanded (the table's array part, x, y pairs) and the ones it
-- reached but never expanded (`explored.open`).  Counted against the
-- search's own stats, and checked against the reference Dijkstra of
-- spec/helpers.lua on random grids.  Seeds are fixed: every run is the
-- same.
local astar = require("astar")
local helpers = require("helpers")

local CASES = 60
local EPS = 1e-9

-- The pairs of a flat x, y list as a set "x,y" -> true; fails on a
-- repeated tile or a coordinate off the grid.
local function tile_set(list, w, h, ctx)
  local set, n = {}, 0
  assert(#list % 2 == 0, ctx .. ": odd length " .. #list)
  for i = 1, #list, 2 do
    local x, y = list[i], list[i + 1]
    assert(x >= 1 and x <= w and y >= 1 and y <= h,
      ("%s: (%s, %s) off the %dx%d grid"):format(ctx, x, y, w, h))
    local k = x .. "," .. y
    assert(not set[k], ctx .. ": (" .. k .. ") listed twice")
    set[k] = true
    n = n + 1
  end
  return set, n
end

local function each_case(base, opts, fn)
  for k = 1, CASES do
    local seed = base + k
    local rng = helpers.rng(seed)
    local o = { width = rng:int(1, 12), height = rng:int(1, 12) }
    for key, v in pairs(opts) do o[key] = v end
    local case = helpers.random_case(rng, astar, o)
    local sx, sy = helpers.pick_tile(rng, case)
    local gx, gy = helpers.pick_tile(rng, case)
    local ctx = helpers.describe_case(seed, case,
      (" (%d,%d)->(%d,%d)"):format(sx, sy, gx, gy))
    fn(case, sx, sy, gx, gy, ctx)
  end
end

-- Runs one search with explored and stats; checks what holds for every
-- algorithm: tiles on the grid, passable, listed once, closed and open
-- apart, and the start expanded whenever anything was.
local function explore(case, sx, sy, gx, gy, opts, ctx)
  local e, st = {}, {}
  opts.explored, opts.stats = e, st
  local path, cost = case.grid:find_path(sx, sy, gx, gy, opts)
  local closed, nc = tile_set(e, case.width, case.height, ctx .. " closed")
  local open, no = tile_set(e.open, case.width, case.height, ctx .. " open")
  for k in pairs(closed) do
    assert(not open[k], ctx .. ": (" .. k .. ") both closed and open")
  end
  for _, set in ipairs({ closed, open }) do
    for k in pairs(set) do
      local x, y = k:match("(%d+),(%d+)")
      assert(case.costs[(tonumber(y) - 1) * case.width + tonumber(x)],
        ctx .. ": blocked tile (" .. k .. ") explored")
    end
  end
  if nc > 0 then
    assert(closed[sx .. "," .. sy], ctx .. ": the start is not expanded")
  end
  return {
    path = path, cost = cost, closed = closed, open = open, nc = nc,
    no = no, stats = st,
  }
end

describe("explored", function()
  it("lists each expanded node once, and every node generated", function()
    for _, algorithm in ipairs({ "astar", "dijkstra", "bfs", "greedy",
                                 "weighted", "beam" }) do
      each_case(8100, {}, function(case, sx, sy, gx, gy, ctx)
        ctx = ctx .. " " .. algorithm
        local r = explore(case, sx, sy, gx, gy,
          { algorithm = algorithm, beam_width = 4 }, ctx)
        assert.are.equal(r.stats.expanded, r.nc, ctx)
        if algorithm == "beam" then -- it forgets the nodes it drops
          assert(r.nc + r.no <= r.stats.generated, ctx)
        else
          assert.are.equal(r.stats.generated, r.nc + r.no, ctx)
        end
        if r.path then -- the engine closes every tile on its path
          for i = 1, #r.path, 2 do
            local k = r.path[i] .. "," .. r.path[i + 1]
            assert(r.closed[k], ctx .. ": path tile " .. k .. " not expanded")
          end
        end
      end)
    end
  end)

  it("Dijkstra expands every tile nearer than the goal and none farther",
    function()
      each_case(8200, {}, function(case, sx, sy, gx, gy, ctx)
        local r = explore(case, sx, sy, gx, gy, { algorithm = "dijkstra" },
          ctx)
        if not r.path then return end
        for y = 1, case.height do
          for x = 1, case.width do
            local d = helpers.dijkstra(case.desc, sx, sy, x, y)
            local k = x .. "," .. y
            if d and d < r.cost - EPS * (1 + r.cost) then
              assert(r.closed[k], ctx .. ": (" .. k .. ") at " .. d
                .. " not expanded before the goal at " .. r.cost)
            elseif r.closed[k] then
              assert(d and d <= r.cost + EPS * (1 + r.cost),
                ctx .. ": (" .. k .. ") expanded, farther than the goal")
            end
          end
        end
      end)
    end)

  it("A* expands a subset of what Dijkstra does, each no farther than the"
    .. " goal", function()
    each_case(8300, {}, function(case, sx, sy, gx, gy, ctx)
      local r = explore(case, sx, sy, gx, gy, {}, ctx)
      local rd = explore(case, sx, sy, gx, gy, { algorithm = "dijkstra" }, ctx)
      if not r.path then return end
      assert(r.nc <= rd.nc, ctx .. ": A* expanded more than Dijkstra")
      for k in pairs(r.closed) do
        local x, y = k:match("(%d+),(%d+)")
        local d = helpers.dijkstra(case.desc, sx, sy, tonumber(x), tonumber(y))
        assert(d and d <= r.cost + EPS * (1 + r.cost),
          ctx .. ": (" .. k .. ") expanded, farther than the goal")
      end
    end)
  end)

  it("JPS lists its jump points; bidirectional search both sides",
    function()
      each_case(8400, { rule = "no_corner_cut", weights = "uniform",
                        lengths = helpers.LENGTHS[1] },
        function(case, sx, sy, gx, gy, ctx)
          local r = explore(case, sx, sy, gx, gy, { algorithm = "jps" }, ctx)
          assert.are.equal(r.stats.expanded, r.nc, ctx)
          assert.are.equal(r.stats.generated, r.nc + r.no, ctx)
          if r.path and (sx ~= gx or sy ~= gy) then
            assert(r.closed[gx .. "," .. gy], ctx .. ": goal not expanded")
          end
          for _, algorithm in ipairs({ "bidirectional", "bidirectional_bfs" }) do
            local b = explore(case, sx, sy, gx, gy, { algorithm = algorithm },
              ctx .. " " .. algorithm)
            -- a tile both sides expanded is listed once
            assert(b.nc <= b.stats.expanded, ctx .. " " .. algorithm)
            if b.path and b.nc > 0 then
              assert(b.closed[gx .. "," .. gy] or b.open[gx .. "," .. gy],
                ctx .. " " .. algorithm .. ": the goal side is missing")
            end
          end
        end)
    end)

  it("bidirectional search lists what each side expanded", function()
    local grid = astar.new(9, 9)
    for _, algorithm in ipairs({ "bidirectional", "bidirectional_bfs" }) do
      local e, st = {}, {}
      grid:find_path(1, 5, 9, 5, { algorithm = algorithm, explored = e,
                                   stats = st })
      local closed, n = tile_set(e, 9, 9, algorithm)
      local open = tile_set(e.open, 9, 9, algorithm)
      -- the sides meet at (5, 5), which neither expands
      assert.are.equal(st.expanded, n)
      assert.is_true(open["5,5"], algorithm)
      assert.is_true(closed["1,5"] and closed["4,5"], algorithm)
      assert.is_true(closed["6,5"] and closed["9,5"], algorithm)
      if algorithm == "bidirectional_bfs" then -- two layers of 4 columns
        assert.are.equal(56, n)
        assert.is_true(closed["2,2"] and closed["8,8"] and not closed["5,2"])
      end
    end
  end)

  it("grows with max_nodes one expansion at a time (animation)", function()
    local grid = astar.from_string([[
..........
.######...
......#...
..##..#...
......#...]])
    local prev = {}
    local _, _, full = grid:find_path(1, 1, 10, 5)
    for k = 1, full do
      local e = {}
      local path, reason, expanded = grid:find_path(1, 1, 10, 5,
        { max_nodes = k, explored = e })
      local set, n = tile_set(e, 10, 5, "max_nodes " .. k)
      assert.are.equal(k, n)
      assert.are.equal(k, expanded)
      if k < full then
        assert.is_nil(path)
        assert.are.equal("cutoff", reason)
      end
      for key in pairs(prev) do
        assert(set[key], "max_nodes " .. k .. " lost " .. key)
      end
      prev = set
    end
  end)

  it("reuses the table and its open list, clearing what is left", function()
    local grid = astar.new(20, 20)
    local e = {}
    for i = 1, 500 do e[i] = i end
    local open = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }
    for i = 11, 900 do open[i] = i end
    e.open = open
    grid:find_path(1, 1, 3, 3, { explored = e, algorithm = "astar" })
    assert.are.equal(open, e.open)
    local _, n = tile_set(e, 20, 20, "closed")
    local _, m = tile_set(e.open, 20, 20, "open")
    assert.is_true(n >= 3 and n < 250)
    assert.is_true(m >= 1 and m < 450)
    assert.is_nil(e[2 * n + 1])
    assert.is_nil(open[2 * m + 1])
    e.open = "not a table" -- replaced by a fresh one
    grid:find_path(1, 1, 3, 3, { explored = e, algorithm = "astar" })
    assert.is_table(e.open)
    assert.are.equal(m, #e.open / 2)
  end)

  it("fills the table raw: its metatable is not consulted", function()
    local grid = astar.new(6, 6)
    local function refuse() error("metamethod called", 0) end
    local e = setmetatable({}, { __index = refuse, __newindex = refuse })
    grid:find_path(1, 1, 6, 6, { explored = e, algorithm = "astar" })
    local _, n = tile_set(e, 6, 6, "closed")
    assert.are.equal(6, n)
    assert.is_table(rawget(e, "open"))
  end)

  it("is empty when no search ran, and next_step fills it too", function()
    local grid = astar.from_string([[
..#..
..#..
###..
.....]], nil, { diagonals = "never" })
    local e = {}
    grid:find_path(1, 1, 2, 2, { explored = e })
    assert.is_true(#e > 0 and #e.open > 0)
    local path, reason = grid:find_path(3, 1, 1, 1, { explored = e })
    assert.is_nil(path)
    assert.are.equal("start_blocked", reason)
    assert.are.same({ open = {} }, e)
    grid:find_path(1, 1, 2, 2, { explored = e })
    -- goal in another zone: answered from the labels, nothing expanded
    path, reason = grid:find_path(1, 1, 5, 4, { explored = e })
    assert.are.equal("no_path", reason)
    assert.are.same({ open = {} }, e)
    -- without the zones the search floods the start's whole region
    grid:find_path(1, 1, 5, 4, { explored = e, zones = false })
    assert.are.equal(grid:zone_size(grid:zone(1, 1)), #e / 2)
    local x, y = grid:next_step(4, 1, 4, 4, { explored = e })
    assert.are.equal(4, x)
    assert.are.equal(2, y)
    local set = tile_set(e, 5, 4, "next_step")
    assert.is_true(set["4,1"] and set["4,2"] and set["4,4"] and true)
  end)

  it("IDA* lists the tiles of its path", function()
    local grid = astar.from_string([[
.....
.###.
.....]])
    local e = {}
    local path = grid:find_path(1, 2, 5, 2, { algorithm = "ida", explored = e })
    local set, n = tile_set(e, 5, 3, "ida")
    assert.are.equal(#path / 2, n)
    for i = 1, #path, 2 do
      assert.is_true(set[path[i] .. "," .. path[i + 1]])
    end
  end)

  it("leaves out tiles a tile_cost callback closes", function()
    local grid = astar.from_string([[
.....
.999.
.....]])
    local e = {}
    local _, cost = grid:find_path(1, 2, 5, 2, { explored = e,
      tile_cost = function(x, y, c)
        if y == 2 and x > 1 and x < 5 then return false end
        return c
      end })
    assert.is_true(cost > 4)
    local closed = tile_set(e, 5, 3, "closed")
    local open = tile_set(e.open, 5, 3, "open")
    for x = 2, 4 do
      assert.is_nil(closed[x .. ",2"])
      assert.is_nil(open[x .. ",2"])
    end
  end)
end)
