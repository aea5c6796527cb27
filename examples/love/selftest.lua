-- `love examples/love --selftest [file.png]`: the scripted check CI runs
-- under xvfb.  Runs every algorithm on every map and prints one line each
-- (`selftest <map> <algorithm> cost=<c> expanded=<n> ...`), checks what
-- must hold between them, draws the A* scene, saves a screenshot, and
-- quits with status 0 only if everything held.
local scene = require("scene")
local crowd = require("crowd")

local selftest = {}

local OPTIMAL = { dijkstra = true, astar = true, jps = true,
                  bidirectional = true }
local WEIGHT = 2

local failures = 0
local function fail(fmt, ...)
  failures = failures + 1
  print("selftest FAIL " .. fmt:format(...))
end

local function close(a, b) return math.abs(a - b) <= 1e-9 * (1 + math.abs(b)) end

-- Every algorithm on one map; returns the optimal cost.
local function run_map(map)
  local results, best = {}, nil
  for _, a in ipairs(scene.ALGORITHMS) do
    local explored = {}
    local r = scene.search(map, { algorithm = a.name, heuristic = "default",
      weight = WEIGHT, unit = "walker" }, explored)
    results[a.name] = r
    if r.error then
      print(("selftest %s %s unsupported: %s"):format(map.key, a.name, r.error))
      if a.name ~= "jps" or not r.error:find("uniform tile costs", 1, true) then
        fail("%s %s: %s", map.key, a.name, r.error)
      end
    elseif not r.path then
      fail("%s %s: no path (%s)", map.key, a.name, tostring(r.reason))
    else
      print(("selftest %s %s cost=%.6f expanded=%d generated=%d tiles=%d")
        :format(map.key, a.name, r.cost, r.expanded, r.generated, #r.path / 2))
      if OPTIMAL[a.name] then best = best or r.cost end
      if a.name ~= "bidirectional" and #explored / 2 ~= r.expanded then
        fail("%s %s: %d tiles explored, %d expanded", map.key, a.name,
          #explored / 2, r.expanded)
      end
    end
  end
  for name, r in pairs(results) do
    if r.cost and OPTIMAL[name] and not close(r.cost, best) then
      fail("%s %s: cost %.9f, optimal %.9f", map.key, name, r.cost, best)
    elseif r.cost and r.cost < best - 1e-9 * best then
      fail("%s %s: cost %.9f below the optimum %.9f", map.key, name, r.cost, best)
    end
  end
  local w = results.weighted
  if w.cost and w.cost > WEIGHT * best * (1 + 1e-9) then
    fail("%s weighted: cost %.9f above %g x optimal", map.key, w.cost, WEIGHT)
  end
  return best
end

-- The animation's premise: a cap of k expansions explores k tiles, each
-- run a superset of the one before.
local function check_animation(map)
  local seen = {}
  for k = 1, 60 do
    local explored = {}
    scene.search(map, { algorithm = "astar", heuristic = "default",
      unit = "walker", max_nodes = k }, explored)
    if #explored / 2 ~= k then
      fail("%s: max_nodes %d explored %d tiles", map.key, k, #explored / 2)
      return
    end
    local now = {}
    for i = 1, #explored, 2 do now[explored[i] .. "," .. explored[i + 1]] = true end
    for t in pairs(seen) do
      if not now[t] then fail("%s: max_nodes %d lost %s", map.key, k, t) return end
    end
    seen = now
  end
  print(("selftest %s animation ok"):format(map.key))
end

-- Crowd mode: a hundred units ordered at once, served by the pool; with a
-- budget of nodes (the same frames on every run) and then of 1 ms (the
-- demo's, timing printed).  Every unit gets find_path's cost, and on the
-- valley some walk a partial path before their search ends.
local function check_crowd(map)
  for _, budget in ipairs({ { nodes = 2000 }, { seconds = 0.001 } }) do
    local c = crowd.new(map, crowd.UNITS, "walker", budget)
    c:order(map.goal[1], map.goal[2])
    local frames = 0
    repeat
      c:update(1 / 60)
      frames = frames + 1
      local _, arrived = c:progress()
    until arrived == #c.units or frames > 20000
    local served, arrived = c:progress()
    local p50, p99, max = c:percentiles()
    print(("selftest crowd %s %s units=%d served=%d arrived=%d frames=%d "
      .. "partial=%d p50=%.3f p99=%.3f max=%.3f"):format(map.key,
      budget.nodes and "nodes" or "seconds", #c.units, served, arrived,
      c.frames, c.started_partial, p50 * 1e3, p99 * 1e3, max * 1e3))
    if #c.units ~= crowd.UNITS then
      fail("crowd %s: %d units placed", map.key, #c.units)
    end
    if served ~= #c.units or arrived ~= #c.units then
      fail("crowd %s: %d served, %d arrived", map.key, served, arrived)
    end
    for i, u in ipairs(c.units) do
      local _, cost = map.grid:find_path(u.x, u.y, map.goal[1], map.goal[2],
        { unit = "walker" })
      if u.cost ~= cost then
        fail("crowd %s unit %d: cost %s, find_path %s", map.key, i,
          tostring(u.cost), tostring(cost))
        break
      end
    end
    if budget.nodes and map.key == "valley" and c.started_partial == 0 then
      fail("crowd valley: no unit walked a partial path")
    end
    c:close()
  end
end

local function check_zones(state, hooks)
  state.query.unit = "boat"
  hooks.refresh_zones()
  local ids, n = {}, 0
  for _, id in ipairs(state.zones) do
    if id ~= 0 and not ids[id] then ids[id], n = true, n + 1 end
  end
  print(("selftest %s zones boat=%d"):format(state.map.key, n))
  if n < 2 then fail("%s: %d zones for boats, expected the river and the lake", state.map.key, n) end
  state.query.unit = "walker"
end

-- Unit sizes and path shapes: for each size, the grid path's tiles all
-- fit the unit (clearance), the smoothed path keeps every leg in sight and
-- is not longer, and the any-angle path costs no more than the grid one.
local function length(p)
  local n = 0
  for i = 3, #p, 2 do
    n = n + math.sqrt((p[i] - p[i - 2]) ^ 2 + (p[i + 1] - p[i - 1]) ^ 2)
  end
  return n
end

local function check_natural(map)
  local grid = map.grid
  for _, size in ipairs(scene.SIZES) do
    local q = { algorithm = "astar", heuristic = "default", unit = "walker",
                size = size }
    local r = {}
    for _, shape in ipairs(scene.SHAPES) do
      q.shape = shape
      r[shape] = scene.search(map, q, {})
      if r[shape].error then
        fail("%s size %d %s: %s", map.key, size, shape, r[shape].error)
        return
      end
    end
    local g, sm, aa = r.grid, r.smoothed, r["any-angle"]
    if not g.path then
      print(("selftest %s size %d: no path (%s)"):format(map.key, size,
        tostring(g.reason)))
      if size == 1 then fail("%s: no path for size 1", map.key) end
    else
      for i = 1, #g.path, 2 do
        if grid:clearance(g.path[i], g.path[i + 1], "walker") < size then
          fail("%s size %d: tile (%d, %d) too narrow", map.key, size,
            g.path[i], g.path[i + 1])
        end
      end
      for i = 3, #sm.path, 2 do
        if not grid:line_of_sight(sm.path[i - 2], sm.path[i - 1], sm.path[i],
                                  sm.path[i + 1], "walker", size) then
          fail("%s size %d: smoothed leg %d out of sight", map.key, size, i)
        end
      end
      if length(sm.path) > length(g.path) + 1e-9 then
        fail("%s size %d: smoothing made the path longer", map.key, size)
      end
      if not aa.path or aa.cost > g.cost * (1 + 1e-9) then
        fail("%s size %d: any-angle cost %s above the grid's %.6f", map.key,
          size, tostring(aa.cost), g.cost)
      end
      print(("selftest %s size %d grid=%.3f/%d smoothed=%d any-angle=%.3f/%d")
        :format(map.key, size, g.cost, #g.path / 2, #sm.path / 2,
          aa.cost or -1, aa.path and #aa.path / 2 or 0))
    end
  end
end

-- The field modes on the valley: the field toward G agrees with find_path
-- from S, the flee map is negative and runs downhill away from G, the
-- movement range lists only tiles within reach, each reachable.
local function check_fields(state, hooks)
  local map, q = state.map, state.query
  local grid = map.grid
  for _, mode in ipairs({ "field", "flee", "range", "off" }) do
    state.field_mode = mode
    hooks.refresh(false)
    local F = state.field
    if mode == "off" then
      if F then fail("field mode off still shows a field") end
    elseif not F then
      fail("field mode %s shows nothing", mode)
    else
      local w, h = grid:size()
      if #F.flow ~= w * h then fail("%s: flow of %d codes", mode, #F.flow) end
      local f = F.field
      if mode == "field" then
        local _, cost = grid:find_path(map.start[1], map.start[2],
          map.goal[1], map.goal[2], { unit = q.unit })
        if not close(cost, f:get(map.start[1], map.start[2])) then
          fail("field at S %s, find_path %s", tostring(f:get(
            map.start[1], map.start[2])), tostring(cost))
        end
      elseif mode == "flee" then
        if not (F.high <= 0) then fail("flee map above 0: %g", F.high) end
        local x, y = map.goal[1], map.goal[2]
        local nx, ny = f:next_step(x, y)
        if not nx or not (f:get(nx, ny) < f:get(x, y)) then
          fail("the flee map does not lead away from G")
        end
      else
        local n = #F.range / 2
        if n < 2 then fail("range: %d tiles", n) end
        for i = 1, #F.range, 2 do
          local v = f:get(F.range[i], F.range[i + 1])
          if not (v and v <= scene.RANGE) then fail("range tile beyond") end
        end
      end
      print(("selftest field %s tiles=%d low=%.4g high=%.4g"):format(mode,
        f:count(), F.low, F.high))
      local ok, err = pcall(love.draw)
      if not ok then fail("draw %s: %s", mode, tostring(err)) end
    end
  end
end

-- Drives the demo's own input handlers as a player would (every key,
-- painting with every brush, dragging the start, an animation), drawing
-- after each step; any Lua error is a failure.
local function exercise(state)
  local function tile_point(x, y)
    local lay = state.layout
    return lay.x + (x - 0.5) * lay.size, lay.y + (y - 0.5) * lay.size
  end
  local function step(what, f, ...)
    local ok, err = pcall(f, ...)
    if ok then ok, err = pcall(love.draw) end
    if not ok then fail("%s: %s", what, tostring(err)) end
  end
  local keys = { "a", "a", "tab", "h", "h", "d", "d", "u", "u", "u", "e",
                 "z", "[", "]", "3", "space", "m", "z", "m", "2", "c", "r",
                 "d", "d", "e", "s", "n", "space", "z", "s", "n", "space",
                 "z", "s", "n", "f", "u", "f", "m", "f", "u", "m", "f",
                 "o", "o" }
  for _, k in ipairs(keys) do
    step("key " .. k, love.keypressed, k)
    for _ = 1, 3 do step("update after " .. k, love.update, 0.25) end
  end
  -- a replay under every algorithm on the arena, with the settings JPS
  -- takes: no error on the way that the search itself does not give
  step("map", love.keypressed, "m")
  for _, s in ipairs({ { "h", "heuristic", "default" },
                       { "d", "diagonals", "no_corner_cut" } }) do
    for _ = 1, 8 do
      if (state.query[s[2]] or state[s[2]]) == s[3] then break end
      step("key " .. s[1], love.keypressed, s[1])
    end
  end
  for _ = 1, #scene.ALGORITHMS do
    step("next algorithm", love.keypressed, "a")
    step("replay", love.keypressed, "space")
    local plain = state.result.error -- as the search itself answers
    for _ = 1, 10 do
      step("replay frame", love.update, 0.25)
      if state.result.error and not plain then
        fail("replay of %s: %s", state.query.algorithm, state.result.error)
        break
      end
    end
  end
  step("map", love.keypressed, "m")
  for i = 1, 6 do
    step("brush " .. i, love.keypressed, tostring(i))
    local px, py = tile_point(10 + i, 20)
    step("paint " .. i, love.mousepressed, px, py, 1)
    step("paint drag " .. i, love.mousemoved, px + state.layout.size, py)
    step("paint release", love.mousereleased, px, py, 1)
  end
  local start = { state.map.start[1], state.map.start[2] }
  local sx, sy = tile_point(start[1], start[2])
  local tx, ty = tile_point(start[1] + 3, start[2] - 2)
  step("grab the start", love.mousepressed, sx, sy, 1)
  step("drag the start", love.mousemoved, tx, ty)
  step("drop the start", love.mousereleased, tx, ty, 1)
  if state.map.start[1] ~= start[1] + 3 or state.map.start[2] ~= start[2] - 2 then
    fail("dragging the start left it at (%d, %d)", state.map.start[1],
      state.map.start[2])
  end
  step("right-drag", love.mousepressed, tx, ty, 2)
  step("right-drag release", love.mousereleased, tx, ty, 2)
  -- crowd mode: orders, a new order by a click, frames, leaving it
  step("crowd on", love.keypressed, "o")
  for _ = 1, 5 do step("crowd frame", love.update, 1 / 60) end
  step("crowd order", love.mousepressed, tx, ty, 1)
  for _ = 1, 5 do step("crowd frame", love.update, 1 / 60) end
  if not state.crowd or state.crowd.goal[1] ~= start[1] + 3 then
    fail("a click in crowd mode gave no order there")
  end
  step("crowd off", love.keypressed, "o")
  print(("selftest input ok: %d keys, 6 brushes, a drag"):format(#keys))
end

-- Distinct colours over a sample of the image: a blank frame has one.
local function colours(img)
  local seen, n = {}, 0
  local w, h = img:getDimensions()
  for y = 0, h - 1, 3 do
    for x = 0, w - 1, 3 do
      local r, g, b = img:getPixel(x, y)
      local k = math.floor(r * 255) * 65536 + math.floor(g * 255) * 256
        + math.floor(b * 255)
      if not seen[k] then seen[k], n = true, n + 1 end
    end
  end
  return n, w, h
end

local function save(img, path)
  local data = img:encode("png"):getString()
  local f = io.open(path, "wb")
  if not f then return false end
  f:write(data)
  f:close()
  return #data
end

-- A love.thread thread starts with a fresh package.cpath: astar.love's
-- setup() there too, then a search.  Run from the repository, the
-- repository's paths are passed in; a shipped game's thread starts afresh
-- and finds astar/ inside the game.
local THREAD = [[
  local path, cpath = ...
  if path then package.path, package.cpath = path, cpath end
  require("love.filesystem")
  local ok, where = pcall(function() return require("astar.love").setup() end)
  local astar = require("astar")
  local _, cost = astar.new(10, 10):find_path(1, 1, 10, 10)
  love.thread.getChannel("astar-selftest"):push(
    ("cost=%.6f binary=%s"):format(cost, tostring(ok and where)))
]]

local function check_thread(from_repository)
  local channel = love.thread.getChannel("astar-selftest")
  local thread = love.thread.newThread(THREAD)
  if from_repository then
    thread:start(package.path, package.cpath)
  else
    thread:start()
  end
  local answer = channel:demand(20)
  thread:wait()
  if thread:getError() then fail("thread: %s", thread:getError()) end
  print(("selftest thread %s"):format(tostring(answer)))
  local cost = answer and tonumber(answer:match("cost=([%d.]+)"))
  if not (cost and math.abs(cost - 9 * math.sqrt(2)) < 1e-5) then
    fail("thread: no search result (%s)", tostring(answer))
  end
end

function selftest.start(state, hooks)
  print(("selftest binary %s"):format(tostring(hooks.binary)))
  check_thread(hooks.from_repository)
  for i, map in ipairs(state.maps) do
    state.map_index = i
    run_map(map)
  end
  if #state.maps < 2 then fail("the arena map did not load") end
  check_animation(state.maps[1])
  for _, map in ipairs(state.maps) do check_natural(map) end
  for _, map in ipairs(state.maps) do check_crowd(map) end
  hooks.use_map(1)
  check_zones(state, hooks)
  check_fields(state, hooks)
  exercise(state)

  -- back to the valley as it ships
  state.maps = scene.load_maps(hooks.read_map)
  state.diagonals = "no_corner_cut"
  state.show_zones = false
  state.field_mode = "off"
  state.query.unit, state.query.heuristic = "walker", "default"
  hooks.use_map(1)

  -- the front-page scene: A* on the valley, explored tiles and path
  state.query.algorithm = "astar"
  state.show_explored = true
  hooks.refresh(true)
  local frames, started = 0, love.timer.getTime()
  function love.update()
    frames = frames + 1
    if frames == 3 then
      love.graphics.captureScreenshot(function(img)
        local n, w, h = colours(img)
        local bytes = save(img, hooks.png)
        print(("selftest screenshot %s %dx%d colours=%d bytes=%s"):format(
          hooks.png, w, h, n, tostring(bytes)))
        if not bytes then fail("cannot write %s", hooks.png) end
        if n < 32 then fail("the screenshot has %d colours: blank?", n) end
        -- then the field mode: the heat map with its flow arrows
        state.field_mode = "field"
        state.show_explored = false
        hooks.refresh(false)
      end)
    elseif frames == 6 then
      love.graphics.captureScreenshot(function(img)
        local png = hooks.png:gsub("%.png$", "") .. "-field.png"
        local n, w, h = colours(img)
        local bytes = save(img, png)
        print(("selftest screenshot %s %dx%d colours=%d bytes=%s"):format(
          png, w, h, n, tostring(bytes)))
        if not bytes then fail("cannot write %s", png) end
        if n < 32 then fail("the field screenshot has %d colours", n) end
        print(failures == 0 and "selftest ok"
          or ("selftest failed: %d checks"):format(failures))
        io.stdout:flush()
        love.event.quit(failures == 0 and 0 or 1)
      end)
    elseif love.timer.getTime() - started > 20 then
      fail("no screenshot after 20 s")
      love.event.quit(1)
    end
  end
end

-- `love examples/love --paths file.png`: the README's picture, the three
-- paths of one query on the valley (uniform ground: every land tile
-- road): 8-way A*, the same smoothed, and Lazy Theta*.
function selftest.paths(state, hooks, view)
  local map = state.maps[1]
  local grid = map.grid
  local w, h = grid:size()
  for y = 1, h do -- uniform ground: all road, water and walls kept
    for x = 1, w do
      if not grid:is_blocked(x, y) and grid:get_terrain(x, y) ~= "water" then
        grid:set_terrain(x, y, "road")
      end
    end
  end
  hooks.use_map(1)
  local q = { algorithm = "astar", heuristic = "default", unit = "walker",
              size = 1 }
  local list, text = {}, {}
  local styles = {
    { "grid", { 0.95, 0.85, 0.30 }, "8-way A*" },
    { "smoothed", { 0.35, 0.80, 1.00 }, "smoothed" },
    { "any-angle", { 1.00, 0.40, 0.60 }, "Lazy Theta*" },
  }
  for _, st in ipairs(styles) do
    q.shape = st[1]
    local r = scene.search(map, q, {})
    if not r.path then fail("paths: no %s path", st[1]) return end
    list[#list + 1] = { path = r.path, colour = st[2] }
    text[#text + 1] = { st[2], ("%s  length %.2f, %d waypoints"):format(
      st[3], length(r.path), #r.path / 2) }
  end
  local frames = 0
  function love.draw()
    love.graphics.clear(0.11, 0.11, 0.14)
    love.graphics.setColor(1, 1, 1)
    love.graphics.draw(state.canvas, state.layout.x, state.layout.y)
    view.draw_paths(list, state.layout)
    local x = view.WIDTH - view.PANEL + 16
    for i, t in ipairs(text) do
      love.graphics.setColor(t[1])
      love.graphics.rectangle("fill", x, 40 + i * 30, 18, 18)
      love.graphics.setColor(0.9, 0.9, 0.9)
      love.graphics.print(t[2], x + 28, 40 + i * 30)
    end
  end
  function love.update()
    frames = frames + 1
    if frames == 3 then
      love.graphics.captureScreenshot(function(img)
        local bytes = save(img, hooks.png)
        print(("paths %s bytes=%s"):format(hooks.png, tostring(bytes)))
        love.event.quit(bytes and failures == 0 and 0 or 1)
      end)
    end
  end
end

return selftest
