-- Grid links (docs/api.md, "Links"): random grids with random links
-- against the reference Dijkstra of spec/helpers.lua with the links as
-- edges (every algorithm of the A* family, cheap links included, so the
-- heuristic's scaling is put to the test), zones with links against a
-- flood fill, JPS giving way to A*, listing, unlinking, bad input.
local astar = require("astar")
local helpers = require("helpers")

-- n = (y - 1) * w + x
local function add_links(rng, case, count)
  local w, list, by_tile = case.width, {}, {}
  for _ = 1, count do
    local x1, y1 = helpers.pick_tile(rng, case)
    local x2, y2 = helpers.pick_tile(rng, case)
    local open1 = case.costs[(y1 - 1) * w + x1]
    local open2 = case.costs[(y2 - 1) * w + x2]
    if open1 and open2 and (x1 ~= x2 or y1 ~= y2) then
      local cost = rng:pick { 0, 0.5, 1, 3, rng:int(1, 40) }
      local one_way = rng:chance(0.4)
      case.grid:link(x1, y1, x2, y2, cost, one_way)
      list[#list + 1] = { x1, y1, x2, y2, cost, one_way }
    end
  end
  -- the model: the last link between two tiles wins, per direction
  case.link_model = case.link_model or {}
  local model = case.link_model
  for _, l in ipairs(list) do
    local a, b = (l[2] - 1) * w + l[1], (l[4] - 1) * w + l[3]
    model[a .. ">" .. b] = { a, b, l[5] }
    if l[6] then
      -- one way: nothing back (a two-way link made before stays as it is,
      -- now one-way of its own: same cost back)
    else
      model[b .. ">" .. a] = { b, a, l[5] }
    end
  end
  for _, e in pairs(model) do
    by_tile[e[1]] = by_tile[e[1]] or {}
    table.insert(by_tile[e[1]], { e[2], e[3] })
  end
  case.desc.links = by_tile
  return model
end

describe("grid links against a reference Dijkstra", function()
  it("every algorithm of the A* family, random links", function()
    local rng = helpers.rng(1750)
    local algorithms = { "auto", "astar", "dijkstra", "jps" }
    for case_no = 1, helpers.cases(250) do
      local case = helpers.random_case(rng, astar, { width = rng:int(2, 12),
        height = rng:int(2, 12), wall = rng:int(0, 40) / 100 })
      add_links(rng, case, rng:int(1, 5))
      for _ = 1, 3 do
        local sx, sy = helpers.pick_tile(rng, case)
        local gx, gy = helpers.pick_tile(rng, case)
        local want, why = helpers.dijkstra(case.desc, sx, sy, gx, gy)
        for _, algorithm in ipairs(algorithms) do
          local stats = {}
          local ok, path, cost = pcall(case.grid.find_path, case.grid, sx, sy,
            gx, gy, { algorithm = algorithm, stats = stats })
          if algorithm == "jps" and not ok then
            -- jps refuses this movement or these costs: not about links
            assert.matches("algorithm 'jps' needs", path)
          else
            assert.is_true(ok, path)
            local what = ("case %d %s (%d,%d)->(%d,%d)"):format(case_no,
              algorithm, sx, sy, gx, gy)
            if want == nil then
              assert.is_nil(path, what)
              assert.are.equal(why, cost, what)
            else
              assert.is_table(path, what)
              assert.is_true(helpers.close(want, cost, 1e-6),
                what .. (": %s vs %s"):format(want, cost))
              assert.are.equal(sx, path[1])
              assert.are.equal(gy, path[#path])
              assert.are_not.equal("jps", stats.algorithm)
            end
          end
        end
      end
    end
  end)

  it("next_step takes the stairs", function()
    local g = astar.from_string("..#..\n..#..")
    g:link(2, 2, 4, 2, 1)
    local x, y, cost = g:next_step(1, 1, 5, 1)
    assert.are.same({ 2, 2 }, { x, y })
    assert.is_true(helpers.close(cost, 1 + 2 * math.sqrt(2), 1e-9))
    local path = g:find_path(1, 1, 5, 1)
    assert.are.same({ 1, 1, 2, 2, 4, 2, 5, 1 }, path)
  end)

  it("a unit that cannot enter a link's end does not take it", function()
    local g = astar.from_string("..#..\n..#..")
    g:link(1, 1, 5, 1, 1)
    assert.are.equal(1, select(2, g:find_path(1, 1, 5, 1)))
    g:set_blocked(5, 1, true)
    local p, why = g:find_path(1, 1, 5, 2)
    assert.is_nil(p)
    assert.are.equal("no_path", why)
  end)
end)

describe("grid links and zones", function()
  local function flood(case, sx, sy)
    local w, h, seen = case.width, case.height, {}
    local desc = case.desc
    local back = {}
    for a, list in pairs(desc.links or {}) do
      for _, l in ipairs(list) do
        back[l[1]] = back[l[1]] or {}
        table.insert(back[l[1]], { a })
      end
    end
    local start = (sy - 1) * w + sx
    if not case.costs[start] then return seen end
    local stack = { start }
    seen[start] = true
    while #stack > 0 do
      local n = table.remove(stack)
      local x, y = (n - 1) % w + 1, math.floor((n - 1) / w) + 1
      local function visit(m)
        if not seen[m] then
          seen[m] = true
          stack[#stack + 1] = m
        end
      end
      for k = 1, 8 do
        local dx, dy = helpers.DIRS[k][1], helpers.DIRS[k][2]
        local nx, ny = x + dx, y + dy
        if nx >= 1 and ny >= 1 and nx <= w and ny <= h and
            helpers.step_cost(desc, x, y, dx, dy) then
          visit((ny - 1) * w + nx)
        end
      end
      for _, l in ipairs(desc.links and desc.links[n] or {}) do visit(l[1]) end
      for _, l in ipairs(back[n] or {}) do visit(l[1]) end
    end
    return seen
  end

  it("connected() agrees with a flood fill, after links and edits", function()
    local rng = helpers.rng(1760)
    for _ = 1, helpers.cases(80) do
      local case = helpers.random_case(rng, astar, { width = rng:int(2, 10),
        height = rng:int(2, 10), wall = rng:int(20, 50) / 100 })
      add_links(rng, case, rng:int(1, 4))
      for round = 1, 3 do
        local sx, sy = helpers.pick_tile(rng, case)
        local seen = flood(case, sx, sy)
        for _ = 1, 10 do
          local x, y = rng:int(1, case.width), rng:int(1, case.height)
          if case.costs[(sy - 1) * case.width + sx] and
              case.costs[(y - 1) * case.width + x] then
            assert.are.equal(seen[(y - 1) * case.width + x] == true,
              case.grid:connected(sx, sy, x, y))
          end
        end
        if round < 3 then -- an edit: a wall, or a new link
          if rng:chance(0.5) then
            local x, y = helpers.pick_tile(rng, case)
            local n = (y - 1) * case.width + x
            if case.costs[n] and not (case.desc.links and
                case.desc.links[n]) then
              case.costs[n] = false
              case.grid:set_blocked(x, y, true)
              -- links into it stay in the model but cannot be entered:
              -- remove those from the model for the flood
              for _, list in pairs(case.desc.links or {}) do
                for i = #list, 1, -1 do
                  if list[i][1] == n then table.remove(list, i) end
                end
              end
              for k, e in pairs(case.link_model or {}) do
                if e[2] == n then case.link_model[k] = nil end
              end
            end
          else
            add_links(rng, case, 1)
          end
        end
      end
    end
  end)
end)

describe("grid links: the API", function()
  local function err(f, ...)
    local ok, e = pcall(f, ...)
    assert.is_false(ok)
    return (tostring(e):gsub("^[^:]*:%d+: ", ""))
  end

  it("links() lists them; unlink removes them", function()
    local g = astar.new(5, 5)
    local v = g:version()
    g:link(1, 1, 5, 5, 2)
    g:link(2, 1, 3, 1, 1, true)
    assert.is_true(g:version() > v)
    local list = g:links()
    table.sort(list, function(a, b) return a[1] < b[1] end)
    assert.are.same({ { 1, 1, 5, 5, 2, false }, { 2, 1, 3, 1, 1, true } }, list)
    assert.is_true(g:unlink(5, 5, 1, 1))
    assert.is_false(g:unlink(5, 5, 1, 1))
    assert.are.equal(1, #g:links())
  end)

  it("JPS gives way to A*; IDA* and bidirectional refuse", function()
    local g = astar.new(8, 8)
    local stats = {}
    g:find_path(1, 1, 8, 8, { stats = stats })
    assert.are.equal("jps", stats.algorithm)
    g:link(1, 1, 8, 8, 1)
    local _, cost = g:find_path(1, 1, 8, 8, { stats = stats })
    assert.are.equal(1, cost)
    assert.are.equal("astar", stats.algorithm)
    _, cost = g:find_path(1, 1, 8, 8, { algorithm = "jps", stats = stats })
    assert.are.equal(1, cost)
    assert.are.equal("astar", stats.algorithm)
    assert.are.equal("bad argument #6 to 'find_path' (algorithm 'ida' needs "
      .. "a grid without links)",
      err(g.find_path, g, 1, 1, 8, 8, { algorithm = "ida" }))
    assert.are.equal("bad argument #6 to 'find_path' (algorithm "
      .. "'bidirectional' needs a grid without links)",
      err(g.find_path, g, 1, 1, 8, 8, { algorithm = "bidirectional" }))
  end)

  it("bad input names the argument", function()
    local g = astar.from_string("..#\n...")
    assert.are.equal("bad argument #4 to 'link' (x2 out of range 1..3, got 4)",
      err(g.link, g, 1, 1, 4, 1, 1))
    assert.are.equal("bad argument #4 to 'link' (tile (3, 1) is blocked: a "
      .. "link must start and end on open tiles)",
      err(g.link, g, 1, 1, 3, 1, 1))
    assert.are.equal("bad argument #6 to 'link' (cost must be a finite "
      .. "number >= 0, got -1)", err(g.link, g, 1, 1, 2, 2, -1))
    assert.are.equal("bad argument #6 to 'link' (cost must be a finite "
      .. "number >= 0, got nan)", err(g.link, g, 1, 1, 2, 2, 0 / 0))
    assert.are.equal("bad argument #4 to 'link' (a link joins two different "
      .. "tiles, got (1, 1) twice)", err(g.link, g, 1, 1, 1, 1, 1))
    assert.are.equal("bad argument #7 to 'link' (one_way must be a boolean, "
      .. "got 'yes')", err(g.link, g, 1, 1, 2, 2, 1, "yes"))
    assert.are.equal(0, #g:links())
  end)
end)
