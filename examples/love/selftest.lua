-- `love examples/love --selftest [file.png]`: the scripted check CI runs
-- under xvfb.  Runs every algorithm on every map and prints one line each
-- (`selftest <map> <algorithm> cost=<c> expanded=<n> ...`), checks what
-- must hold between them, draws the A* scene, saves a screenshot, and
-- quits with status 0 only if everything held.
local scene = require("scene")

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
                 "d", "d", "e" }
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
  hooks.use_map(1)
  check_zones(state, hooks)
  exercise(state)

  -- back to the valley as it ships
  state.maps = scene.load_maps(hooks.read_map)
  state.diagonals = "no_corner_cut"
  state.show_zones = false
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

return selftest
