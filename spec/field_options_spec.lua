-- Field options that came with other issues: grid links (fields follow
-- them, next_step takes them as a step), `size` (an s x s unit: the field
-- of its top-left tile on the sized layer), and the per-query overlays
-- `avoid` and `extra_cost` (copied by the field: reuse, flee and later
-- calls keep working).  Links and overlays against a reference Dijkstra
-- over the grid's explicit edges; sizes against find_path with the same
-- size (itself checked against a footprint reference in clearance_spec).
local astar = require("astar")
local helpers = require("helpers")

local REL = 1e-5
local floor = math.floor
local close = helpers.close
local DIRS = helpers.DIRS

-- ---- the reference ----

-- Every forward edge of desc (avoid, extra and links applied): edges[n] =
-- { {m, cost}, ... }.  avoid[n], extra[n] by tile index; links = list of
-- {a, b, cost} (directed).  Goals are never avoided.
local function edges_of(desc, avoid, extra, links, goals)
  local w, h = desc.width, desc.height
  local keep = {}
  for _, n in ipairs(goals) do keep[n] = true end
  local base = desc.cost
  local d = {}
  for k, v in pairs(desc) do d[k] = v end
  d.cost = function(x, y)
    local n = (y - 1) * w + x
    local c = base(x, y)
    if not c then return false end
    if avoid[n] and not keep[n] then return false end
    return c + (extra[n] or 0)
  end
  local edges = {}
  for n = 1, w * h do edges[n] = {} end
  for y = 1, h do
    for x = 1, w do
      local n = (y - 1) * w + x
      if d.cost(x, y) then
        for k = 1, 8 do
          local dx, dy = DIRS[k][1], DIRS[k][2]
          local nx, ny = x + dx, y + dy
          if nx >= 1 and ny >= 1 and nx <= w and ny <= h then
            local c = helpers.step_cost(d, x, y, dx, dy)
            if c then
              local list = edges[n]
              list[#list + 1] = { (ny - 1) * w + nx, c }
            end
          end
        end
      end
    end
  end
  for _, l in ipairs(links) do
    local a, b = l[1], l[2]
    local ax, ay = (a - 1) % w + 1, floor((a - 1) / w) + 1
    local bx, by = (b - 1) % w + 1, floor((b - 1) / w) + 1
    if d.cost(ax, ay) and d.cost(bx, by) then
      local list = edges[a]
      list[#list + 1] = { b, l[3] + (extra[b] or 0) }
    end
  end
  return edges
end

-- Multi-source Dijkstra (plain, O(n^2): the grids are small); "to"
-- follows the edges backwards.
local function reference(n_tiles, edges, sources, direction)
  local adj = edges
  if direction == "to" then
    adj = {}
    for n = 1, n_tiles do adj[n] = {} end
    for n = 1, n_tiles do
      for _, e in ipairs(edges[n]) do
        local list = adj[e[1]]
        list[#list + 1] = { n, e[2] }
      end
    end
  end
  local dist, done = {}, {}
  for _, s in ipairs(sources) do dist[s] = 0 end
  while true do
    local best, bn = math.huge, nil
    for n, v in pairs(dist) do
      if not done[n] and v < best then best, bn = v, n end
    end
    if not bn then break end
    done[bn] = true
    for _, e in ipairs(adj[bn]) do
      local nd = best + e[2]
      if not done[e[1]] and (dist[e[1]] == nil or nd < dist[e[1]]) then
        dist[e[1]] = nd
      end
    end
  end
  return dist
end

local function random_grid(rng)
  local w, h = rng:int(1, 9), rng:int(1, 9)
  local rule = rng:pick(helpers.RULES)
  local len = rng:pick(helpers.LENGTHS)
  local wall = rng:int(0, 35) / 100
  local cost = {}
  for i = 1, w * h do
    cost[i] = not rng:chance(wall) and rng:int(1, 4)
  end
  local g = astar.new(w, h, { diagonals = rule, cardinal = len.cardinal,
                              diagonal = len.diagonal })
  g:load(cost)
  local desc = helpers.describe(w, h, cost, { diagonals = rule,
    cardinal = len.cardinal, diagonal = len.diagonal })
  return g, desc, cost, w, h
end

local function open_tiles(cost)
  local t = {}
  for i = 1, #cost do if cost[i] then t[#t + 1] = i end end
  return t
end

-- The field's walk from every tile: each step is an edge of the
-- reference whose cost plus the next value is this value; it ends at a
-- goal with the field's value as its cost.
local function check_walks(f, edges, dist, w, h, goal_set, what)
  for n = 1, w * h do
    local x, y = (n - 1) % w + 1, floor((n - 1) / w) + 1
    local v = f:get(x, y)
    if dist[n] == nil then
      assert(v == nil, what .. (" (%d,%d) has a value"):format(x, y))
    else
      assert(v and close(v, dist[n], REL), what ..
        (" (%d,%d): %s, reference %s"):format(x, y, tostring(v),
                                              tostring(dist[n])))
      local path, cost = f:path(x, y)
      local total, steps = 0, #path / 2 - 1
      local gx, gy = path[#path - 1], path[#path]
      if f:direction() == "from" then gx, gy = path[1], path[2] end
      assert(goal_set[(gy - 1) * w + gx], what .. " walk ends at a goal: " .. table.concat(path, ",") .. " from " .. x .. "," .. y .. " v=" .. v)
      for k = 1, steps do
        local ax, ay, bx, by = path[2 * k - 1], path[2 * k],
                               path[2 * k + 1], path[2 * k + 2]
        local a, b = (ay - 1) * w + ax, (by - 1) * w + bx
        local c
        for _, e in ipairs(edges[a]) do
          if e[1] == b and (c == nil or e[2] < c) then c = e[2] end
        end
        assert(c, what .. (" step (%d,%d)->(%d,%d) is no edge"):format(
          ax, ay, bx, by))
        total = total + c
      end
      assert(close(total, cost, REL) and close(cost, v, 1e-4),
             what .. (" walk from (%d,%d) costs %s / %s, value %s"):format(
               x, y, tostring(total), tostring(cost), tostring(v)))
    end
  end
end

describe("field options", function()
  it("fields follow grid links (one-way and two-way), next_step and path " ..
     "take a link as a step", function()
    local rng = helpers.rng(1417)
    for case = 1, helpers.cases(90) do
      local g, desc, cost, w, h = random_grid(rng)
      local open = open_tiles(cost)
      if #open >= 1 then
        local links = {}
        for _ = 1, rng:int(1, 5) do
          local a, b = rng:pick(open), rng:pick(open)
          if a ~= b then
            local c = rng:int(0, 12) / 2
            local one_way = rng:chance(0.5)
            g:link((a - 1) % w + 1, floor((a - 1) / w) + 1,
                   (b - 1) % w + 1, floor((b - 1) / w) + 1, c, one_way)
            -- a later link between the same tiles replaces the earlier
            for i = #links, 1, -1 do
              local l = links[i]
              if (l[1] == a and l[2] == b) or
                 (not one_way and l[1] == b and l[2] == a) then
                table.remove(links, i)
              end
            end
            links[#links + 1] = { a, b, c }
            if not one_way then links[#links + 1] = { b, a, c } end
          end
        end
        local goals, flat, set = {}, {}, {}
        for _ = 1, rng:int(1, 2) do
          local n = rng:pick(open)
          goals[#goals + 1] = n
          set[n] = true
          flat[#flat + 1] = (n - 1) % w + 1
          flat[#flat + 1] = floor((n - 1) / w) + 1
        end
        local edges = edges_of(desc, {}, {}, links, goals)
        for _, direction in ipairs({ "to", "from" }) do
          local f = g:field(flat, { direction = direction })
          local dist = reference(w * h, edges, goals, direction)
          check_walks(f, edges, dist, w, h, set,
                      ("case %d %s"):format(case, direction))
          local dirs = f:directions()
          for n = 1, w * h do
            local x, y = (n - 1) % w + 1, floor((n - 1) / w) + 1
            local nx, ny = f:next_step(x, y)
            local code = dirs:byte(n)
            if nx and (math.abs(nx - x) > 1 or math.abs(ny - y) > 1) then
              assert.equals(9, code) -- a link: no neighbour
            end
          end
          f:close()
        end
      end
    end
  end)

  it("a link is reported as a step to its far end, with its cost",
     function()
    local g = astar.new(7, 1)
    g:link(1, 1, 7, 1, 2, true) -- one way, 1 -> 7
    local f = g:field(7, 1)
    assert.equals(2, f:get(1, 1))
    local x, y, c = f:next_step(1, 1)
    assert.same({ 7, 1, 2 }, { x, y, c })
    assert.equals(1, f:get(6, 1)) -- the link is one way: 6 walks
    assert.equals(9, f:directions():byte(1))
    local p, cost = f:path(1, 1)
    assert.same({ 1, 1, 7, 1 }, p)
    assert.equals(2, cost)
    local back = g:field(1, 1) -- nothing enters 1 through the link
    assert.equals(6, back:get(7, 1))
  end)

  it("avoid and extra_cost: avoided tiles have no value (goals excepted), " ..
     "extra costs add to entering; reuse, flee and a rescan keep them",
     function()
    local rng = helpers.rng(2020)
    local reuse
    for case = 1, helpers.cases(90) do
      local g, desc, cost, w, h = random_grid(rng)
      local open = open_tiles(cost)
      if #open >= 1 then
        local avoid, alist, extra, elist = {}, {}, {}, {}
        for _ = 1, rng:int(0, 5) do
          local n = rng:int(1, w * h)
          avoid[n] = true
          alist[#alist + 1] = (n - 1) % w + 1
          alist[#alist + 1] = floor((n - 1) / w) + 1
        end
        for _ = 1, rng:int(0, 5) do
          local n = rng:int(1, w * h)
          local c = rng:int(0, 8) / 2
          extra[n] = (extra[n] or 0) + c
          elist[#elist + 1] = (n - 1) % w + 1
          elist[#elist + 1] = floor((n - 1) / w) + 1
          elist[#elist + 1] = c
        end
        local goals, flat, set = {}, {}, {}
        local n = rng:pick(open)
        goals[1] = n
        set[n] = true
        flat[1], flat[2] = (n - 1) % w + 1, floor((n - 1) / w) + 1
        if rng:chance(0.5) and #alist > 0 then -- a goal in the avoid list
          local m = (alist[2] - 1) * w + alist[1]
          if cost[m] and not set[m] then
            goals[2] = m
            set[m] = true
            flat[3], flat[4] = alist[1], alist[2]
          end
        end
        local links = {}
        if rng:chance(0.3) and #open > 1 then
          local a, b = rng:pick(open), rng:pick(open)
          if a ~= b then
            g:link((a - 1) % w + 1, floor((a - 1) / w) + 1,
                   (b - 1) % w + 1, floor((b - 1) / w) + 1, 1, true)
            links[1] = { a, b, 1 }
          end
        end
        local edges = edges_of(desc, avoid, extra, links, goals)
        local direction = rng:pick({ "to", "from" })
        local what = ("case %d %s"):format(case, direction)
        local opts = { direction = direction, avoid = alist,
                       extra_cost = elist }
        local f
        if reuse and rng:chance(0.5) and reuse:size() == w then
          local wr, hr = reuse:size()
          if hr == h then f = g:field(flat, opts, reuse) end
        end
        f = f or g:field(flat, opts)
        reuse = f
        -- the grid's overlay buffers are overwritten by another query
        g:find_path(flat[1], flat[2], flat[1], flat[2],
                    { avoid = { 1, 1, 1, 1 }, extra_cost = { 1, 1, 5 } })
        local dist = reference(w * h, edges, goals, direction)
        check_walks(f, edges, dist, w, h, set, what)
        -- find_path with the same overlays agrees from tiles not avoided
        if direction == "to" then
          for k = 1, 4 do
            local m = rng:pick(open)
            if not avoid[m] and dist[m] then
              local x, y = (m - 1) % w + 1, floor((m - 1) / w) + 1
              local _, c = g:find_path(x, y, flat[1], flat[2],
                { avoid = alist, extra_cost = elist,
                  goals = #flat > 2 and { flat[3], flat[4] } or nil })
              assert(c and close(c, dist[m], 1e-4), what .. " find_path " ..
                     tostring(c) .. " vs " .. tostring(dist[m]) .. " " .. k)
            end
          end
        end
        -- a flee map rescans under the same overlays: avoided tiles keep
        -- no value, goals excepted
        local fl = f:flee()
        for m = 1, w * h do
          if avoid[m] and not set[m] then
            assert.is_nil(fl:get((m - 1) % w + 1, floor((m - 1) / w) + 1))
          end
        end
        fl:close()
      end
    end
  end)

  it("size: the field of an s x s unit's top-left tile, next_step on the " ..
     "sized layer", function()
    local rng = helpers.rng(1818)
    for case = 1, helpers.cases(60) do
      local w, h = rng:int(2, 10), rng:int(2, 10)
      local rule = rng:pick(helpers.RULES)
      local cost = {}
      for i = 1, w * h do
        cost[i] = not rng:chance(rng:int(0, 25) / 100) and rng:int(1, 3)
      end
      local g = astar.new(w, h, { diagonals = rule })
      g:load(cost)
      local s = rng:int(2, 3)
      local gx, gy
      for _ = 1, 30 do
        local x, y = rng:int(1, w), rng:int(1, h)
        if g:clearance(x, y) >= s then gx, gy = x, y break end
      end
      if gx then
        local direction = rng:pick({ "to", "from" })
        local f = g:field(gx, gy, { size = s, direction = direction })
        for y = 1, h do
          for x = 1, w do
            local v = f:get(x, y)
            local p, c
            if direction == "to" then
              p, c = g:find_path(x, y, gx, gy, { size = s })
            else
              p, c = g:find_path(gx, gy, x, y, { size = s })
            end
            local what = ("case %d s=%d %s (%d,%d)"):format(case, s,
                                                           direction, x, y)
            if p then
              assert(v and close(v, c, REL), what .. ": " .. tostring(v) ..
                     " vs " .. tostring(c))
              local fp, fc = f:path(x, y)
              assert(close(fc, c, 1e-4), what .. " path cost")
              -- each tile of the walk fits the unit
              for k = 1, #fp, 2 do
                assert(g:clearance(fp[k], fp[k + 1]) >= s, what)
              end
            else
              assert(v == nil, what .. " has a value " .. tostring(v))
            end
          end
        end
      end
    end
  end)

  it("graph fields equal a reference Dijkstra on random graphs (directed " ..
     "and undirected, disabled nodes, several goals, start values, " ..
     "max_cost); next_step and path follow edges down to a goal",
     function()
    local rng = helpers.rng(1717)
    local reuse
    for case = 1, helpers.cases(120) do
      local n = rng:int(1, 25)
      local g = astar.graph()
      for _ = 1, n do g:add_node() end
      local edges = {} -- edges[a][b] = cost (the last set wins)
      for a = 1, n do edges[a] = {} end
      for _ = 1, rng:int(0, 3 * n) do
        local a, b = rng:int(1, n), rng:int(1, n)
        local c = rng:int(0, 20) / 4
        local both = rng:chance(0.4)
        g:add_edge(a, b, c, both)
        edges[a][b] = c
        if both then edges[b][a] = c end
      end
      local disabled = {}
      for v = 1, n do
        if rng:chance(0.1) then
          disabled[v] = true
          g:disable(v)
        end
      end
      local goals, values, sources = {}, {}, {}
      for _ = 1, rng:int(1, 3) do
        local v = rng:int(1, n)
        if not disabled[v] then
          local s = rng:chance(0.3) and rng:int(-8, 8) / 2 or 0
          goals[#goals + 1] = v
          values[#values + 1] = s
          if sources[v] == nil or s < sources[v] then sources[v] = s end
        end
      end
      if #goals > 0 then
        local direction = rng:pick({ "to", "from" })
        local max_cost = rng:chance(0.3) and rng:int(0, 10) or math.huge
        -- the reference: O(n^2) Dijkstra
        local dist, done = {}, {}
        for v, s in pairs(sources) do
          if s <= max_cost then dist[v] = s end
        end
        while true do
          local best, u = math.huge, nil
          for v, d in pairs(dist) do
            if not done[v] and d < best then best, u = d, v end
          end
          if not u then break end
          done[u] = true
          for w = 1, n do
            local c
            if direction == "to" then c = edges[w][u] else c = edges[u][w] end
            if c and not disabled[w] and not done[w] and best + c <= max_cost
               and (dist[w] == nil or best + c < dist[w]) then
              dist[w] = best + c
            end
          end
        end
        local opts = { direction = direction,
                       max_cost = max_cost < math.huge and max_cost or nil,
                       values = values }
        local f
        if reuse and rng:chance(0.5) then
          f = g:field(goals, opts, reuse)
          assert.equals(reuse, f)
        else
          f = g:field(goals, opts)
        end
        reuse = f
        local what = ("case %d %s"):format(case, direction)
        local count = 0
        for v = 1, n do
          local got = f:get(v)
          if dist[v] == nil then
            assert(got == nil, what .. " node " .. v .. " has a value")
          else
            count = count + 1
            assert(got and close(got, dist[v], 1e-9), what .. " node " .. v ..
                   ": " .. tostring(got) .. " vs " .. tostring(dist[v]))
            local path, cost = f:path(v)
            local total = 0
            for k = 1, #path - 1 do
              local c = edges[path[k]][path[k + 1]]
              assert(c, what .. " path step is no edge")
              total = total + c
            end
            local goal = direction == "to" and path[#path] or path[1]
            local here = direction == "to" and path[1] or path[#path]
            assert.equals(v, here)
            assert(sources[goal] ~= nil, what .. " path ends at a goal")
            assert(close(total, cost, 1e-9) and
                   close(cost + sources[goal], dist[v], 1e-9), what ..
                   " path cost " .. cost)
            local nx, c = f:next_step(v)
            if nx then
              assert(close(c + f:get(nx), got, 1e-9), what .. " next_step")
            else
              assert.equals("goal", c)
            end
          end
        end
        assert.equals(count, f:count())
        local inside = f:within(2)
        local prev = -math.huge
        for _, v in ipairs(inside) do
          assert(f:get(v) <= 2 and f:get(v) >= prev, what .. " within")
          prev = f:get(v)
        end
      end
    end
  end)

  it("graph fields: lifecycle and version", function()
    local g = astar.graph()
    for _ = 1, 3 do g:add_node() end
    g:add_edge(1, 2, 1)
    local f = g:field(2)
    assert.equals(g:version(), f:version())
    assert.equals(1, f:get(1))
    assert.is_nil(f:get(3))
    assert.same({ nil, "no_path" }, { f:next_step(3) })
    assert.same({ nil, "goal" }, { f:next_step(2) })
    assert.matches("astar.GraphField 3 nodes to, 2 with a value",
                   tostring(f))
    assert.is_true(f:memory() > 0)
    g:close() -- the field reads only itself
    assert.equals(1, f:get(1))
    f:close()
    f:close()
    assert.is_true(f:is_closed())
    assert.equals("astar.GraphField (closed)", tostring(f))
    assert.matches("the field is closed", helpers.error_of(f.get, f, 1))
  end)
end)

