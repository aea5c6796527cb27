-- Graph and state-space search speed (issue 17's targets), printed:
--
--  1. A random geometric graph of 100,000 nodes and about 400,000 edges
--     (directed edge records; each road both ways): A* through
--     g:find_path(a, b, nil, out) with the default euclidean heuristic,
--     ns per expansion with the Lua call included (target <= 250 ns), and
--     the garbage a query leaves with `out` (target: none).
--  2. The 8-puzzle through astar.search (examples/puzzle8.lua): us per
--     expansion (target <= 1.5 us under LuaJIT) against the same A*
--     written in plain Lua (below), run interleaved in this process
--     (target: astar.search >= 10x faster).
--
--   lua5.4 bench/graphs.lua [--quick]      luajit bench/graphs.lua
local quick = arg and arg[1] == "--quick"

local dir = (arg and arg[0] or ""):match("^(.*)bench[/\\][^/\\]*$") or ""
local ver = jit and "jit" or _VERSION:match("%d+%.%d+")
package.path = dir .. "lua/?.lua;" .. dir .. "lua/?/init.lua;" .. dir ..
  "examples/?.lua;" .. package.path
package.cpath = dir .. "build/" .. ver .. "/?.so;" .. package.cpath
local astar = require("astar")
local puzzle = require("puzzle8")

local clock = os.clock

-- Park-Miller, as in spec/helpers.lua: the same graph on every runtime
local seed = 42
local function rnd()
  seed = seed * 16807 % 2147483647
  return seed / 2147483647
end

---------------------------------------------------------------------------
-- 1. random geometric graph
---------------------------------------------------------------------------

local function geometric(n, degree)
  local g = astar.graph(n)
  local side = math.sqrt(n)
  local xs, ys = {}, {}
  local cells = {}
  for i = 1, n do
    local x, y = rnd() * side, rnd() * side
    xs[i], ys[i] = x, y
    assert(g:add_node(x, y) == i)
    local key = math.floor(x) * 100000 + math.floor(y)
    local c = cells[key]
    if not c then
      c = {}
      cells[key] = c
    end
    c[#c + 1] = i
  end
  -- radius for the wanted mean degree: pi r^2 (n / side^2) = degree
  local r = math.sqrt(degree / math.pi)
  local r2 = r * r
  for i = 1, n do
    local cx, cy = math.floor(xs[i]), math.floor(ys[i])
    for dx = -2, 2 do
      for dy = -2, 2 do
        local c = cells[(cx + dx) * 100000 + (cy + dy)]
        if c then
          for _, j in ipairs(c) do
            if j > i then
              local ex, ey = xs[i] - xs[j], ys[i] - ys[j]
              local d2 = ex * ex + ey * ey
              if d2 <= r2 then
                g:add_edge(i, j, math.sqrt(d2) * (1 + rnd() * 0.25), true)
              end
            end
          end
        end
      end
    end
  end
  return g
end

local function bench_graph()
  local n = quick and 20000 or 100000
  local t0 = clock()
  local g = geometric(n, 4)
  local built = clock() - t0
  print(("graph: %d nodes, %d edges, %d zones, built in %.2f s, %.1f MB")
    :format(g:node_count(), g:edge_count(), g:zone_count(), built,
      g:memory() / 1048576))
  local pairs_ = {}
  local queries = quick and 100 or 300
  while #pairs_ < 2 * queries do
    local a, b = math.floor(rnd() * n) + 1, math.floor(rnd() * n) + 1
    if g:connected(a, b) then
      pairs_[#pairs_ + 1] = a
      pairs_[#pairs_ + 1] = b
    end
  end
  local out = {}
  for _, algorithm in ipairs { "astar", "dijkstra" } do
    local o = { algorithm = algorithm }
    for _ = 1, 2 do -- warm the context, grow out to its longest
      for q = 1, queries do
        g:find_path(pairs_[2 * q - 1], pairs_[2 * q], o, out)
      end
    end
    local expanded, found = 0, 0
    t0 = clock()
    for q = 1, queries do
      local path, _, e = g:find_path(pairs_[2 * q - 1], pairs_[2 * q], o, out)
      if path then found = found + 1 end
      expanded = expanded + e
    end
    local t = clock() - t0
    -- the garbage, in a pass of its own with LuaJIT's compiler off: its
    -- traces of a new loop are memory the collector counts too
    if jit then jit.off() end
    collectgarbage()
    collectgarbage("stop")
    local kb0 = collectgarbage("count")
    for q = 1, queries do
      g:find_path(pairs_[2 * q - 1], pairs_[2 * q], o, out)
    end
    local garbage = (collectgarbage("count") - kb0) * 1024
    collectgarbage("restart")
    if jit then jit.on() end
    print(("  %-8s %d queries (%d found): %8.1f us/query, %8.0f expanded/q, "
      .. "%6.1f ns/expansion (target <= 250 for astar), %.0f bytes of "
      .. "garbage per query with out (target 0)"):format(algorithm, queries,
      found, t / queries * 1e6, expanded / queries, t / expanded * 1e9,
      garbage / queries))
  end
  g:close()
end

---------------------------------------------------------------------------
-- 2. the 8-puzzle: astar.search against plain-Lua A*
---------------------------------------------------------------------------

-- The same A* in plain Lua: a binary heap of (f, g, state) with lazy
-- deletion, tables for g and parents, the same neighbors and heuristic.
local function lua_astar(start, goal, neighbors, heuristic)
  local hf, hg, hs, size = {}, {}, {}, 0
  local best, parent, closed = { [start] = 0 }, {}, {}
  local function push(f, g, s)
    size = size + 1
    local i = size
    while i > 1 do
      local p = (i - i % 2) / 2
      local pf = hf[p]
      if pf < f or (pf == f and hg[p] >= g) then break end
      hf[i], hg[i], hs[i] = pf, hg[p], hs[p]
      i = p
    end
    hf[i], hg[i], hs[i] = f, g, s
  end
  local function pop()
    local f, g, s = hf[1], hg[1], hs[1]
    local lf, lg, ls = hf[size], hg[size], hs[size]
    hf[size], hg[size], hs[size] = nil, nil, nil
    size = size - 1
    if size > 0 then
      local i = 1
      while true do
        local c = 2 * i
        if c > size then break end
        if c < size and (hf[c + 1] < hf[c] or
            (hf[c + 1] == hf[c] and hg[c + 1] > hg[c])) then
          c = c + 1
        end
        if hf[c] > lf or (hf[c] == lf and hg[c] <= lg) then break end
        hf[i], hg[i], hs[i] = hf[c], hg[c], hs[c]
        i = c
      end
      hf[i], hg[i], hs[i] = lf, lg, ls
    end
    return f, g, s
  end
  local current, gcur
  local function emit(t, cost)
    local ng = gcur + cost
    local old = best[t]
    if not closed[t] and (old == nil or ng < old) then
      best[t] = ng
      parent[t] = current
      push(ng + heuristic(t), ng, t)
    end
  end
  push(heuristic(start), 0, start)
  local expanded = 0
  while size > 0 do
    local _, g, s = pop()
    if not closed[s] then
      if s == goal then
        local path = {}
        while s ~= nil do
          table.insert(path, 1, s)
          s = parent[s]
        end
        return path, g, expanded
      end
      closed[s] = true
      expanded = expanded + 1
      current, gcur = s, g
      neighbors(s, emit)
    end
  end
  return nil, "no_path", expanded
end

local function bench_puzzle()
  local P = puzzle.new(3, 3)
  -- starts 18..24 moves away: a few thousand expansions each
  local starts = {}
  for _ = 1, quick and 10 or 40 do
    local s, prev = P.goal, nil
    for _ = 1, 60 do
      local list = {}
      P.neighbors(s, function(t) if t ~= prev then list[#list + 1] = t end end)
      prev, s = s, list[math.floor(rnd() * #list) + 1]
    end
    starts[#starts + 1] = s
  end
  local opts = { goal = P.goal, neighbors = P.neighbors,
    heuristic = P.heuristic }
  local t_c, t_lua, e_c, e_lua = 0, 0, 0, 0
  for round = 1, 3 do
    for i, s in ipairs(starts) do
      -- interleaved: one start with each, in alternating order
      local first_c = (i + round) % 2 == 0
      for pass = 1, 2 do
        if (pass == 1) == first_c then
          opts.start = s
          local t0 = clock()
          local _, cost, e = astar.search(opts)
          t_c = t_c + clock() - t0
          e_c = e_c + e
          assert(type(cost) == "number")
        else
          local t0 = clock()
          local _, cost, e = lua_astar(s, P.goal, P.neighbors, P.heuristic)
          t_lua = t_lua + clock() - t0
          e_lua = e_lua + e
          assert(type(cost) == "number")
        end
      end
    end
  end
  -- the callbacks alone: what the user's Lua costs per expansion
  local t0, calls = clock(), 0
  local function sink() calls = calls + 1 end
  for _ = 1, 3 do
    for _, s in ipairs(starts) do
      for _ = 1, 200 do
        P.neighbors(s, sink)
        P.heuristic(s)
      end
    end
  end
  local t_cb = (clock() - t0) / (3 * #starts * 200)
  print(("8-puzzle (%s): astar.search %.3f us/expansion (target <= 1.5 under "
    .. "LuaJIT), plain-Lua A* %.3f us/expansion: %.1fx (target >= 10x); "
    .. "neighbors + heuristic alone %.3f us per state")
    :format(jit and jit.version or _VERSION, t_c / e_c * 1e6,
      t_lua / e_lua * 1e6, (t_lua / e_lua) / (t_c / e_c), t_cb * 1e6))
  print(("  %d searches each, %.0f expansions per search"):format(
    3 * #starts, e_c / (3 * #starts)))
end

print(("bench/graphs.lua on %s"):format(jit and jit.version or _VERSION))
bench_graph()
bench_puzzle()
