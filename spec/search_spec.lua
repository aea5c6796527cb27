-- astar.search (docs/api.md, "State-space search"): the 8-puzzle and a
-- 2 x 3 puzzle (solvable and unsolvable starts) against a breadth-first
-- reference, a maze given only as a neighbors function against Dijkstra,
-- keys, cutoffs, and errors from the callbacks and from bad options.
local astar = require("astar")
local helpers = require("helpers")

local puzzle = assert(loadfile("examples/puzzle8.lua"))("puzzle8")

-- breadth-first over the same neighbors: the fewest moves, or nil
local function bfs(start, goal, neighbors)
  local dist, queue, head = { [start] = 0 }, { start }, 1
  while head <= #queue do
    local s = queue[head]
    head = head + 1
    if s == goal then return dist[s] end
    neighbors(s, function(t)
      if dist[t] == nil then
        dist[t] = dist[s] + 1
        queue[#queue + 1] = t
      end
    end)
  end
  return nil
end

-- the number of inversions decides which half of the starts is solvable
local function random_start(rng, P)
  local n = P.w * P.h
  local tiles = {}
  for i = 1, n do tiles[i] = i - 1 end
  for i = n, 2, -1 do
    local j = rng:int(1, i)
    tiles[i], tiles[j] = tiles[j], tiles[i]
  end
  return P.state(tiles)
end

local function check_moves(P, path)
  for i = 2, #path do
    local ok = false
    P.neighbors(path[i - 1], function(t) if t == path[i] then ok = true end end)
    assert.is_true(ok)
  end
end

describe("astar.search: sliding puzzles", function()
  it("the 8-puzzle's hardest start takes 31 moves", function()
    local P = puzzle.new(3, 3)
    local start = P.state { 8, 6, 7, 2, 5, 4, 3, 0, 1 }
    local path, moves = P.solve(start)
    assert.are.equal(31, moves)
    assert.are.equal(32, #path)
    assert.are.equal(start, path[1])
    assert.are.equal(P.goal, path[#path])
    check_moves(P, path)
  end)

  it("random 8-puzzle starts: optimal against breadth-first", function()
    local P = puzzle.new(3, 3)
    local rng = helpers.rng(1730)
    local solved = 0
    for _ = 1, 6 do
      local start = random_start(rng, P)
      -- a short walk from the goal keeps the reference quick
      local s = P.goal
      for _ = 1, rng:int(0, 14) do
        local list = {}
        P.neighbors(s, function(t) list[#list + 1] = t end)
        s = list[rng:int(1, #list)]
      end
      start = s
      local want = bfs(start, P.goal, P.neighbors)
      local path, moves = P.solve(start)
      assert.are.equal(want, moves)
      check_moves(P, path)
      solved = solved + 1
    end
    assert.are.equal(6, solved)
  end)

  it("every 2 x 3 start: solved in the fewest moves, or no_path", function()
    local P = puzzle.new(3, 2)
    local rng = helpers.rng(1731)
    local none = 0
    for _ = 1, 40 do
      local start = random_start(rng, P)
      local want = bfs(start, P.goal, P.neighbors)
      local path, moves, expanded = P.solve(start)
      if want == nil then
        none = none + 1
        assert.is_nil(path)
        assert.are.equal("no_path", moves)
        assert.are.equal(360, expanded) -- the whole half it lives in
      else
        assert.are.equal(want, moves)
        check_moves(P, path)
      end
    end
    assert.is_true(none > 0)
  end)

  it("an unsolvable 8-puzzle start explores its 181440 states #slow",
    function()
      local P = puzzle.new(3, 3)
      local path, why, expanded = P.solve(P.state { 1, 2, 3, 4, 5, 6, 8, 7, 0 })
      assert.is_nil(path)
      assert.are.equal("no_path", why)
      assert.are.equal(181440, expanded)
    end)

  it("max_nodes: cutoff", function()
    local P = puzzle.new(3, 3)
    local path, why, expanded = P.solve(P.state { 8, 6, 7, 2, 5, 4, 3, 0, 1 },
      { max_nodes = 100 })
    assert.is_nil(path)
    assert.are.equal("cutoff", why)
    assert.are.equal(100, expanded)
  end)
end)

describe("astar.search: a maze given as a neighbors function", function()
  -- states are strings "x,y"; costs from the tile digits
  local function maze(rng, w, h)
    local cost = {}
    for y = 1, h do
      cost[y] = {}
      for x = 1, w do
        cost[y][x] = rng:chance(0.25) and false or rng:int(1, 5)
      end
    end
    cost[1][1] = 1
    local function neighbors(s, emit)
      local x, y = s:match("(%d+),(%d+)")
      x, y = tonumber(x), tonumber(y)
      for _, d in ipairs { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } } do
        local nx, ny = x + d[1], y + d[2]
        if nx >= 1 and ny >= 1 and nx <= w and ny <= h and cost[ny][nx] then
          emit(nx .. "," .. ny, cost[ny][nx])
        end
      end
    end
    return neighbors, cost
  end

  local function dijkstra(start, goal, neighbors)
    local dist, done = { [start] = 0 }, {}
    while true do
      local u, best = nil, math.huge
      for s, d in pairs(dist) do
        if not done[s] and d < best then u, best = s, d end
      end
      if u == nil then return nil end
      if u == goal then return best end
      done[u] = true
      neighbors(u, function(t, c)
        if dist[t] == nil or best + c < dist[t] then dist[t] = best + c end
      end)
    end
  end

  it("costs equal Dijkstra's; a goal function works as a goal value",
    function()
      local rng = helpers.rng(1740)
      for _ = 1, 30 do
        local w, h = rng:int(2, 8), rng:int(2, 8)
        local neighbors = maze(rng, w, h)
        local goal = w .. "," .. h
        local want = dijkstra("1,1", goal, neighbors)
        local path, cost = astar.search { start = "1,1", goal = goal,
          neighbors = neighbors }
        local path2, cost2 = astar.search { start = "1,1",
          goal = function(s) return s == goal end, neighbors = neighbors }
        if want == nil then
          assert.is_nil(path)
          assert.is_nil(path2)
        else
          assert.are.equal(want, cost)
          assert.are.equal(want, cost2)
          assert.are.equal("1,1", path[1])
          assert.are.equal(goal, path[#path])
        end
      end
    end)

  it("table states through key", function()
    local function neighbors(s, emit)
      if s.n < 10 then
        emit({ n = s.n + 1 }, 1)
        emit({ n = s.n + 3 }, 2)
      end
    end
    local path, cost = astar.search { start = { n = 0 }, goal = { n = 10 },
      neighbors = neighbors, key = function(s) return s.n end }
    assert.are.equal(7, cost) -- 3 + 3 + 3 + 1: 2 + 2 + 2 + 1
    assert.are.equal(0, path[1].n)
    assert.are.equal(10, path[#path].n)
  end)
end)

describe("astar.search: errors", function()
  local function err(f, ...)
    local ok, e = pcall(f, ...)
    assert.is_false(ok)
    return (tostring(e):gsub("^[^:]*:%d+: ", ""))
  end
  local function nothing() end

  it("bad options name the argument", function()
    assert.are.equal("bad argument #1 to 'search' (neighbors must be a "
      .. "function, got nil)", err(astar.search, { start = 1, goal = 2 }))
    assert.are.equal("bad argument #1 to 'search' (start is {}: states "
      .. "other than numbers and strings need a key function)",
      err(astar.search, { start = {}, goal = 1, neighbors = nothing }):gsub(
        "table", "{}"))
    assert.are.equal("bad argument #1 to 'search' (key(start) returned nil; "
      .. "expected a number or a string)", err(astar.search, { start = 1,
        goal = 2, neighbors = nothing, key = function() end }))
    assert.are.equal("bad argument #1 to 'search' (goal must be given (a "
      .. "state or a function))", err(astar.search, { start = 1,
        neighbors = nothing }))
    assert.are.equal("bad argument #1 to 'search' (max_nodes must be an "
      .. "integer in [1, 2147483647], got 0)", err(astar.search, { start = 1,
        goal = 2, neighbors = nothing, max_nodes = 0 }))
    assert.matches("unknown option 'heuristics'", err(astar.search, {
      start = 1, goal = 2, neighbors = nothing, heuristics = nothing }), 1,
      true)
  end)

  it("emit checks its arguments", function()
    assert.are.equal("bad argument #2 to 'emit' (cost must be a finite "
      .. "number >= 0, got -1)", err(astar.search, { start = 1, goal = 2,
        neighbors = function(_, emit) emit(2, -1) end }))
    assert.are.equal("bad argument #2 to 'emit' (cost must be a finite "
      .. "number >= 0, got nan)", err(astar.search, { start = 1, goal = 2,
        neighbors = function(_, emit) emit(2, 0 / 0) end }))
    assert.are.equal("bad argument #1 to 'emit' (state is true: states "
      .. "other than numbers and strings need a key function)",
      err(astar.search, { start = 1, goal = 2,
        neighbors = function(_, emit) emit(true, 1) end }))
    local kept
    astar.search { start = 1, goal = 2,
      neighbors = function(_, emit) kept = emit; emit(2, 1) end }
    assert.are.equal("emit: called outside its search's neighbors callback",
      err(kept, 3, 1))
  end)

  it("a callback's error reaches the caller with its own message", function()
    assert.are.equal("neighbors broke", err(astar.search, { start = 1,
      goal = 2, neighbors = function() error("neighbors broke", 0) end }))
    assert.are.equal("heuristic broke", err(astar.search, { start = 1,
      goal = 2, neighbors = nothing,
      heuristic = function() error("heuristic broke", 0) end }))
    assert.are.equal("search: heuristic returned -2; expected a finite "
      .. "number >= 0", err(astar.search, { start = 1, goal = 2,
        neighbors = nothing, heuristic = function() return -2 end }))
    local e = { "a table error" }
    local ok, got = pcall(astar.search, { start = 1, goal = 2,
      neighbors = function() error(e) end })
    assert.is_false(ok)
    assert.are.equal(e, got)
  end)

  it("a callback that yields gets Lua's own error", function()
    local co = coroutine.create(function()
      return astar.search { start = 1, goal = 2,
        neighbors = function() coroutine.yield() end }
    end)
    local ok, e = coroutine.resume(co)
    assert.is_false(ok)
    assert.matches("yield", tostring(e))
  end)

  it("a search inside a callback runs on its own", function()
    local path, cost = astar.search { start = 1, goal = 3,
      neighbors = function(s, emit)
        local _, inner = astar.search { start = 10, goal = 12,
          neighbors = function(t, e2) e2(t + 1, 1) end }
        emit(s + 1, inner)
      end }
    assert.are.equal(4, cost)
    assert.are.same({ 1, 2, 3 }, path)
  end)
end)
