-- Explicit graphs (docs/api.md, "Graphs"): the Romania map, random graphs
-- against a reference Dijkstra written here in plain Lua (directed and
-- undirected, disabled nodes, several goals, every algorithm), zones
-- against a flood fill, edits, bad inputs and the lifecycle.
local astar = require("astar")
local helpers = require("helpers")

local romania = assert(loadfile("examples/romania.lua"))("romania")

---------------------------------------------------------------------------
-- The reference: a model of the graph and Dijkstra over it
---------------------------------------------------------------------------

-- model: n, out[a] = {[b] = cost}, disabled[v], pos[v] = {x, y}
local function ref_dijkstra(m, start, goals, by_edges)
  local goal = {}
  for _, v in ipairs(goals) do
    if not m.disabled[v] then goal[v] = true end
  end
  if m.disabled[start] then return nil, "start_blocked" end
  if next(goal) == nil then return nil, "goal_blocked" end
  local dist, done = { [start] = 0 }, {}
  while true do
    local u, best = nil, math.huge
    for v, d in pairs(dist) do
      if not done[v] and (d < best or (d == best and v < u)) then
        u, best = v, d
      end
    end
    if u == nil then return nil, "no_path" end
    if goal[u] then return best, u end
    done[u] = true
    for v, c in pairs(m.out[u]) do
      if not m.disabled[v] then
        local nd = best + (by_edges and 1 or c)
        if dist[v] == nil or nd < dist[v] then dist[v] = nd end
      end
    end
  end
end

local function random_model(rng, opts)
  local n = rng:int(1, opts.max_n or 30)
  local m = { n = n, out = {}, disabled = {}, pos = {} }
  for v = 1, n do
    m.out[v] = {}
    m.pos[v] = { rng:int(0, 20), rng:int(0, 20) }
  end
  local edges = rng:int(0, 3 * n)
  for _ = 1, edges do
    local a, b = rng:int(1, n), rng:int(1, n)
    local cost
    if opts.placed then -- at least the straight-line length
      local dx, dy = m.pos[a][1] - m.pos[b][1], m.pos[a][2] - m.pos[b][2]
      cost = math.sqrt(dx * dx + dy * dy) * (1 + rng:int(0, 3) / 2)
    else
      cost = rng:int(0, 9)
    end
    m.out[a][b] = cost
    if opts.undirected then m.out[b][a] = cost end
  end
  for v = 1, n do
    if rng:chance(opts.disabled or 0) then m.disabled[v] = true end
  end
  return m
end

local function build(m, placed)
  local g = astar.graph(m.n)
  for v = 1, m.n do
    if placed then
      assert(g:add_node(m.pos[v][1], m.pos[v][2]) == v)
    else
      assert(g:add_node() == v)
    end
  end
  for a = 1, m.n do
    for b, c in pairs(m.out[a]) do g:add_edge(a, b, c) end
  end
  for v in pairs(m.disabled) do g:disable(v) end
  return g
end

-- the path is a walk of the model's edges from start to a goal, of cost
local function check_path(m, path, cost, start, goals, by_edges)
  assert.are.equal(start, path[1])
  local is_goal = false
  for _, v in ipairs(goals) do
    if v == path[#path] then is_goal = true end
  end
  assert.is_true(is_goal)
  local sum = 0
  for i = 2, #path do
    local c = m.out[path[i - 1]][path[i]]
    assert.is_not_nil(c, "no edge " .. path[i - 1] .. " -> " .. path[i])
    assert.is_nil(m.disabled[path[i]])
    sum = sum + c
  end
  assert.is_true(helpers.close(sum, cost, 1e-9))
  if by_edges then return #path - 1 end
  return sum
end

---------------------------------------------------------------------------

describe("astar.graph: the Romania map", function()
  local g, id = romania.build()

  it("A* on straight-line distances: Arad -> Bucharest costs 418", function()
    local stats = {}
    local path, km = g:find_path(id.Arad, id.Bucharest,
      { heuristic = romania.sld, stats = stats })
    assert.are.equal(418, km)
    assert.are.same({ id.Arad, id.Sibiu, id["Rimnicu Vilcea"], id.Pitesti,
      id.Bucharest }, path)
    assert.are.equal("astar", stats.algorithm)
    assert.are.equal(id.Bucharest, stats.end_node)
  end)

  it("Dijkstra and bidirectional find the same 418 km route", function()
    for _, algorithm in ipairs { "dijkstra", "bidirectional" } do
      local path, km = g:find_path(id.Arad, id.Bucharest,
        { algorithm = algorithm })
      assert.are.equal(418, km)
      assert.are.same({ id.Arad, id.Sibiu, id["Rimnicu Vilcea"], id.Pitesti,
        id.Bucharest }, path)
    end
  end)

  it("A* expands fewer towns than Dijkstra", function()
    local sa, sd = {}, {}
    g:find_path(id.Arad, id.Bucharest, { heuristic = romania.sld, stats = sa })
    g:find_path(id.Arad, id.Bucharest, { algorithm = "dijkstra", stats = sd })
    assert.is_true(sa.expanded < sd.expanded)
  end)

  it("greedy best-first takes the 450 km route through Fagaras", function()
    local path, km = g:find_path(id.Arad, id.Bucharest,
      { algorithm = "greedy", heuristic = romania.sld })
    assert.are.equal(450, km)
    assert.are.same({ id.Arad, id.Sibiu, id.Fagaras, id.Bucharest }, path)
  end)

  it("bfs takes the fewest roads", function()
    local path = g:find_path(id.Arad, id.Bucharest, { algorithm = "bfs" })
    assert.are.equal(4, #path)
  end)

  it("a closed road (a disabled town) reroutes", function()
    local h = romania.build()
    h:disable(id["Rimnicu Vilcea"])
    local _, km = h:find_path(id.Arad, id.Bucharest, { heuristic = romania.sld })
    assert.are.equal(450, km)
    h:disable(id["Rimnicu Vilcea"], false)
    _, km = h:find_path(id.Arad, id.Bucharest, { heuristic = romania.sld })
    assert.are.equal(418, km)
  end)
end)

describe("astar.graph against a reference Dijkstra", function()
  local algorithms = { "astar", "dijkstra", "bidirectional", "bfs" }

  local function run_cases(seed, opts, count)
    local rng = helpers.rng(seed)
    for case = 1, helpers.cases(count) do
      local m = random_model(rng, opts)
      local g = build(m, opts.placed)
      local start = rng:int(1, m.n)
      local goals = { rng:int(1, m.n) }
      if rng:chance(0.3) then goals[2] = rng:int(1, m.n) end
      for _, algorithm in ipairs(algorithms) do
        local by_edges = algorithm == "bfs"
        local want, why = ref_dijkstra(m, start, goals, by_edges)
        local o = { algorithm = algorithm, goals = goals }
        local path, cost = g:find_path(start, nil, o)
        if want == nil then
          assert.is_nil(path, "case " .. case)
          assert.are.equal(why, cost, "case " .. case .. " " .. algorithm)
        else
          assert.is_table(path, "case " .. case .. " " .. algorithm)
          local got = check_path(m, path, cost, start, goals, by_edges)
          assert.is_true(helpers.close(want, got, 1e-9),
            ("case %d %s: %s vs %s"):format(case, algorithm, want, got))
        end
      end
      g:close()
    end
  end

  it("directed graphs with disabled nodes and several goals", function()
    run_cases(1701, { disabled = 0.15 }, 200)
  end)

  it("undirected graphs", function()
    run_cases(1702, { undirected = true, disabled = 0.1 }, 150)
  end)

  it("placed nodes: the default euclidean heuristic stays optimal", function()
    run_cases(1703, { placed = true, undirected = true }, 150)
  end)

  it("a Lua heuristic is called once per node reached", function()
    local rng = helpers.rng(1704)
    for _ = 1, 50 do
      local m = random_model(rng, { placed = true })
      local g = build(m, true)
      local calls, seen = 0, {}
      local start, goal = rng:int(1, m.n), rng:int(1, m.n)
      local path, cost = g:find_path(start, goal, { heuristic = function(v, t)
        assert.are.equal(goal, t)
        assert.is_nil(seen[v])
        seen[v] = true
        calls = calls + 1
        return 0
      end })
      local want = ref_dijkstra(m, start, { goal })
      if want then
        assert.is_true(helpers.close(want, cost, 1e-9))
        assert.is_table(path)
      end
      assert.is_true(calls <= m.n)
    end
  end)

  it("max_cost, max_nodes and closest", function()
    local g = astar.graph()
    for i = 1, 5 do g:add_node(i, 0) end
    for i = 1, 4 do g:add_edge(i, i + 1, 1, true) end
    local none, cut = g:find_path(1, 5, { max_cost = 2 })
    assert.is_nil(none)
    assert.are.equal("cutoff", cut)
    local p, why = g:find_path(1, 5, { max_nodes = 2 })
    assert.is_nil(p)
    assert.are.equal("cutoff", why)
    local path, cost, _, reason = g:find_path(1, 5,
      { max_cost = 2.5, closest = true })
    assert.are.same({ 1, 2, 3 }, path)
    assert.are.equal(2, cost)
    assert.are.equal("cutoff", reason)
  end)

  it("seeded random ties give equal costs, the same for the same seed",
    function()
      local g = astar.graph()
      local w = 6
      for y = 1, w do for x = 1, w do g:add_node(x, y) end end
      for y = 1, w do
        for x = 1, w do
          local v = (y - 1) * w + x
          if x < w then g:add_edge(v, v + 1, 1, true) end
          if y < w then g:add_edge(v, v + w, 1, true) end
        end
      end
      local paths = {}
      for seed = 1, 8 do
        local p, c = g:find_path(1, w * w, { ties = "random", seed = seed })
        assert.are.equal(2 * (w - 1), c)
        local again = g:find_path(1, w * w, { ties = "random", seed = seed })
        assert.are.same(p, again)
        paths[table.concat(p, ",")] = true
      end
      local kinds = 0
      for _ in pairs(paths) do kinds = kinds + 1 end
      assert.is_true(kinds > 1)
    end)
end)

describe("astar.graph: zones", function()
  local function flood(m, a, b)
    local seen, stack = { [a] = true }, { a }
    local undirected = {}
    for v = 1, m.n do undirected[v] = {} end
    for u = 1, m.n do
      for v in pairs(m.out[u]) do
        undirected[u][v] = true
        undirected[v][u] = true
      end
    end
    while #stack > 0 do
      local u = table.remove(stack)
      for v in pairs(undirected[u]) do
        if not seen[v] then
          seen[v] = true
          stack[#stack + 1] = v
        end
      end
    end
    return seen[b] == true
  end

  it("zones are the weakly connected components, also after removals",
    function()
      local rng = helpers.rng(1710)
      for _ = 1, helpers.cases(60) do
        local m = random_model(rng, { max_n = 15 })
        local g = build(m)
        for _ = 1, 4 do
          for _ = 1, 10 do
            local a, b = rng:int(1, m.n), rng:int(1, m.n)
            assert.are.equal(flood(m, a, b), g:connected(a, b))
            assert.are.equal(flood(m, a, b), g:zone(a) == g:zone(b))
          end
          -- an edit: remove or add an edge
          local a, b = rng:int(1, m.n), rng:int(1, m.n)
          if m.out[a][b] then
            m.out[a][b] = nil
            g:set_edge(a, b, false)
          else
            m.out[a][b] = 1
            g:add_edge(a, b, 1)
          end
        end
      end
    end)

  it("a query between zones expands nothing", function()
    local g = astar.graph()
    for _ = 1, 4 do g:add_node() end
    g:add_edge(1, 2, 1, true)
    g:add_edge(3, 4, 1, true)
    assert.are.equal(2, g:zone_count())
    local path, why, expanded = g:find_path(1, 4)
    assert.is_nil(path)
    assert.are.equal("no_path", why)
    assert.are.equal(0, expanded)
  end)
end)

describe("astar.graph: building and editing", function()
  it("add_node, add_edge, set_edge, edge, neighbors, counts", function()
    local g = astar.graph()
    assert.are.equal(1, g:add_node(0, 0))
    assert.are.equal(2, g:add_node(3, 4, 1))
    assert.are.equal(3, g:add_node())
    g:add_edge(1, 2, 5)
    g:add_edge(2, 3, 2, true)
    assert.are.equal(3, g:edge_count())
    assert.are.equal(5, g:edge(1, 2))
    assert.is_nil(g:edge(2, 1))
    g:set_edge(1, 2, 7)
    assert.are.equal(7, g:edge(1, 2))
    assert.are.same({ 3, 2 }, g:neighbors(2, { 9, 9, 9, 9 }))
    g:set_edge(2, 3, false)
    assert.are.same({}, g:neighbors(2))
    assert.are.equal(2, g:edge_count())
    local x, y, z = g:position(2)
    assert.are.same({ 3, 4, 1 }, { x, y, z })
    assert.is_nil(g:position(3))
    assert.are.equal(3, g:node_count())
  end)

  it("the table constructor", function()
    local g = astar.graph { nodes = { { 0, 0 }, { x = 1, y = 0 }, {} },
      edges = { { 1, 2, 1 }, { 2, 3, 2, true } } }
    assert.are.equal(3, g:node_count())
    assert.are.equal(3, g:edge_count())
    local path, cost = g:find_path(1, 3)
    assert.are.same({ 1, 2, 3 }, path)
    assert.are.equal(3, cost)
  end)

  it("many edges on one node and many edits keep the edges right", function()
    local rng = helpers.rng(1720)
    local g, m = astar.graph(), {}
    local n = 40
    for v = 1, n do
      g:add_node()
      m[v] = {}
    end
    for _ = 1, 4000 do
      local a, b = rng:int(1, 3), rng:int(1, n) -- a few busy nodes
      if rng:chance(0.4) then
        g:set_edge(a, b, false)
        m[a][b] = nil
      else
        local c = rng:int(0, 20)
        g:set_edge(a, b, c)
        m[a][b] = c
      end
    end
    for a = 1, n do
      local got, list = {}, g:neighbors(a)
      for i = 1, #list, 2 do got[list[i]] = list[i + 1] end
      assert.are.same(m[a], got)
      for b = 1, n do assert.are.equal(m[a][b], g:edge(a, b)) end
    end
  end)

  it("the out table gets the path and loses what was left", function()
    local g = astar.graph()
    for _ = 1, 3 do g:add_node() end
    g:add_edge(1, 2, 1)
    g:add_edge(2, 3, 1)
    local out = { 7, 7, 7, 7, 7 }
    local path = g:find_path(1, 3, nil, out)
    assert.are.equal(out, path)
    assert.are.same({ 1, 2, 3 }, out)
  end)

  it("the start is a goal: a path of one node, cost 0", function()
    local g = astar.graph()
    g:add_node()
    local path, cost = g:find_path(1, 1)
    assert.are.same({ 1 }, path)
    assert.are.equal(0, cost)
  end)

  -- found by fuzz/fuzz_graph.c: the start kept the goal mark the query
  -- before had left on it, so the search "arrived" at once (path {b},
  -- cost 0)
  it("a search from the last search's goal walks on", function()
    for _, algorithm in ipairs { "astar", "dijkstra", "bfs", "greedy",
                                 "bidirectional" } do
      local g = astar.graph()
      local a, b, c = g:add_node(0, 0), g:add_node(3, 4), g:add_node(6, 8)
      g:add_edge(a, b, 5, true)
      g:add_edge(b, c, 5, true)
      local o = { algorithm = algorithm }
      local function go(s, t) -- path and cost
        local path, cost = g:find_path(s, t, o)
        return { path, cost }
      end
      assert.are.same({ { a, b }, 5 }, go(a, b), algorithm)
      assert.are.same({ { b, c }, 5 }, go(b, c), algorithm)
      assert.are.same({ { c, b, a }, 10 }, go(c, a), algorithm)
      o.goals = { b, c }
      assert.are.same({ { a, b }, 5 }, go(a, nil), algorithm)
      g:close()
    end
  end)

  it("disabled start and goal", function()
    local g = astar.graph()
    g:add_node()
    g:add_node()
    g:add_edge(1, 2, 1)
    g:disable(1)
    assert.is_true(g:is_disabled(1))
    assert.are.equal("start_blocked", select(2, g:find_path(1, 2)))
    g:disable(1, false)
    g:disable(2)
    assert.are.equal("goal_blocked", select(2, g:find_path(1, 2)))
  end)
end)

describe("astar.graph: bad input", function()
  local function err(f, ...)
    local ok, e = pcall(f, ...)
    assert.is_false(ok)
    return (tostring(e):gsub("^[^:]*:%d+: ", ""))
  end

  it("names the argument", function()
    local g = astar.graph()
    g:add_node()
    g:add_node()
    assert.are.equal("bad argument #3 to 'add_edge' (b out of range 1..2, got 3)",
      err(g.add_edge, g, 1, 3, 1))
    assert.are.equal("bad argument #4 to 'add_edge' (cost must be a finite "
      .. "number >= 0, got -1)", err(g.add_edge, g, 1, 2, -1))
    assert.are.equal("bad argument #4 to 'add_edge' (cost must be a finite "
      .. "number >= 0, got nan)", err(g.add_edge, g, 1, 2, 0 / 0))
    assert.are.equal("bad argument #4 to 'add_edge' (cost must be a finite "
      .. "number >= 0, got inf)", err(g.add_edge, g, 1, 2, math.huge))
    assert.are.equal("bad argument #2 to 'add_edge' (a must be a node id, "
      .. "got 'x')", err(g.add_edge, g, "x", 2, 1))
    assert.are.equal("bad argument #5 to 'add_edge' (both_ways must be a "
      .. "boolean, got 1)", err(g.add_edge, g, 1, 2, 1, 1))
    assert.are.equal("bad argument #2 to 'add_node' (x must be a finite "
      .. "number, got nan)", err(g.add_node, g, 0 / 0, 1))
    assert.are.equal("bad argument #1 to 'graph' (edges[1][2] out of range "
      .. "1..1, got 2)", err(astar.graph, { nodes = { {} },
        edges = { { 1, 2, 1 } } }))
    assert.are.equal("bad argument #1 to 'graph' (n must be an integer in "
      .. "[0, 2147483632] or a table, got -1)", err(astar.graph, -1))
    assert.are.equal("bad argument #4 to 'find_path' (algorithm must be one "
      .. "of 'astar', 'dijkstra', 'bfs', 'greedy', 'weighted', "
      .. "'bidirectional', got 'jps')",
      err(g.find_path, g, 1, 2, { algorithm = "jps" }))
    assert.are.equal("bad argument #3 to 'find_path' (b must be a node id, "
      .. "got nil)", err(g.find_path, g, 1))
    assert.are.equal("bad argument #1 to 'neighbors' (graph expected, got "
      .. "1)", err(g.neighbors, 1, 1))
    -- the graph is still usable
    g:add_edge(1, 2, 1)
    assert.are.equal(1, select(2, g:find_path(1, 2)))
  end)

  it("add_edge on a closed graph", function()
    local g = astar.graph()
    g:add_node()
    g:close()
    assert.are.equal("add_edge: the graph is closed", err(g.add_edge, g, 1, 1, 1))
  end)

  it("a heuristic's error reaches the caller with its own message", function()
    local g = romania.build()
    local e = err(g.find_path, g, 1, 2, { heuristic = function()
      error("my heuristic broke", 0)
    end })
    assert.are.equal("my heuristic broke", e)
    assert.are.equal("find_path: heuristic returned -1 for 1 -> 2; expected "
      .. "a finite number >= 0",
      err(g.find_path, g, 1, 2, { heuristic = function() return -1 end }))
    -- usable afterwards
    assert.are.equal(418, select(2, g:find_path(1, 2)))
  end)

  it("a heuristic that edits or closes its graph", function()
    local g = romania.build()
    local e = err(g.find_path, g, 1, 2, { heuristic = function()
      g:add_edge(1, 2, 1)
      return 0
    end })
    assert.matches("busy", e)
    e = err(g.find_path, g, 1, 2, { heuristic = function()
      g:close()
      return 0
    end })
    assert.are.equal("find_path: the graph was closed during the search", e)
    assert.is_true(g:is_closed())
  end)
end)

describe("astar.graph: lifecycle", function()
  it("close is idempotent; tostring; memory and version", function()
    local g = astar.graph(100)
    assert.is_true(g:memory() > 0)
    local v = g:version()
    g:add_node()
    assert.is_true(g:version() > v)
    assert.are.equal("astar.Graph (1 nodes, 0 edges)", tostring(g))
    g:close()
    g:close()
    assert.are.equal("astar.Graph (closed)", tostring(g))
    assert.is_true(g:is_closed())
  end)
end)
