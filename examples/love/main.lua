-- astar PathDemo: watch each search at work on the same map (after Bryan
-- Stout's PathDemo).  Paint walls and terrain, drag the start and goal,
-- switch algorithm, heuristic, diagonal rule, unit class and size, smooth
-- the path or search any-angle, and see the explored tiles, the path, the
-- zones and the statistics.
--
--   make && love examples/love                 (from the repository root)
--   love examples/love --selftest shot.png     scripted check, used by CI
--
-- Keys are listed in the panel and in the README.

-- Find the module.  From the repository: lua/ and build/jit/ of the
-- repository this demo sits in.  Shipped (a .love or a fused game): astar/
-- inside the game, and its binary where astar.love finds it (beside the
-- .love or the executable, or inside the game: see the README).
local function find_astar()
  local source = love.filesystem.getSource()
  local root = source .. "/../.."
  local probe = io.open(root .. "/lua/astar/init.lua", "r")
  if probe then
    probe:close()
    package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;"
      .. package.path
    package.cpath = root .. "/build/jit/?.so;" .. package.cpath
  end
  local binary, err = require("astar.love").setup()
  if not binary and not probe then error(err) end
  return binary, source .. "/..", probe ~= nil
end

local binary, examples, from_repository = find_astar()

-- The text of maps/<name>: inside the game (a .love carries both maps),
-- else the repository's examples/maps/.
local function read_map(name)
  local text = love.filesystem.read("maps/" .. name)
  if text then return text end
  local f = io.open(examples .. "/maps/" .. name, "rb")
  if not f then return nil end
  text = f:read("*a")
  f:close()
  return text
end

local scene = require("scene")
local view = require("view")
local crowd = require("crowd")

local state = {
  query = { algorithm = "astar", heuristic = "default", weight = 2,
            unit = "walker", size = 1, shape = "grid" },
  diagonals = "no_corner_cut",
  brush = "wall",
  show_explored = true,
  show_zones = false,
  field_mode = "off",
}

-- The next entry after current in list (step -1: the one before).
local function cycle(list, current, step)
  for i, v in ipairs(list) do
    if v == current then return list[(i - 1 + (step or 1)) % #list + 1] end
  end
  return list[1]
end

local function names(list)
  local out = {}
  for i, v in ipairs(list) do out[i] = v.name end
  return out
end

-- Zone ids of every tile for the current unit (0: closed to it).
local function refresh_zones()
  local grid = state.map.grid
  local w, h = grid:size()
  state.zones = state.zones or {}
  for y = 1, h do
    for x = 1, w do
      state.zones[(y - 1) * w + x] = grid:zone(x, y, state.query.unit,
        state.query.size)
    end
  end
  state.zone_count = grid:zone_count(state.query.unit, state.query.size)
end

-- Runs the search again; terrain: the map's tiles changed too.
local function refresh(terrain)
  if terrain or not state.canvas then
    state.canvas = view.terrain_canvas(state.map, state.layout, state.canvas)
  end
  state.explored = state.explored or {}
  state.anim = nil
  state.result = scene.search(state.map, state.query, state.explored,
    love.timer.getTime)
  if state.show_zones then refresh_zones() end
  state.field = scene.field(state.map, state.query, state.field_mode)
end

local function use_map(i)
  if state.crowd then
    state.crowd:close()
    state.crowd = nil
  end
  state.map_index = i
  state.map = state.maps[i]
  state.map.grid:set_movement({ diagonals = state.diagonals })
  state.layout = view.layout(state.map)
  state.zones = nil
  refresh(true)
end

local function paint(x, y, brush)
  local grid = state.map.grid
  if brush == "wall" then
    if grid:is_blocked(x, y) then return end
    grid:set_blocked(x, y)
  else
    if not grid:is_blocked(x, y) and grid:get_terrain(x, y) == brush then
      return
    end
    grid:set_blocked(x, y, false)
    grid:set_terrain(x, y, brush)
  end
  refresh(true)
end

local function pointer_at(px, py)
  local x, y = view.tile_at(state.map, state.layout, px, py)
  if not x then return end
  if state.drag == "start" or state.drag == "goal" then
    local t = state.map[state.drag]
    if t[1] ~= x or t[2] ~= y then
      t[1], t[2] = x, y
      refresh(false)
    end
  elseif state.drag then
    paint(x, y, state.drag)
  end
end

function love.mousepressed(px, py, button)
  local x, y = view.tile_at(state.map, state.layout, px, py)
  if not x then return end
  if state.crowd then -- crowd mode: a new order for every unit
    state.crowd:order(x, y)
    return
  end
  local s, g = state.map.start, state.map.goal
  if button == 1 and x == s[1] and y == s[2] then
    state.drag = "start"
  elseif button == 1 and x == g[1] and y == g[2] then
    state.drag = "goal"
  else
    state.drag = button == 1 and state.brush or "grass"
    pointer_at(px, py)
  end
end

function love.mousemoved(px, py)
  if state.drag then pointer_at(px, py) end
end

function love.mousereleased()
  state.drag = nil
end

local function reset_map()
  local fresh = scene.load_maps(read_map)[state.map_index]
  state.maps[state.map_index] = fresh
  use_map(state.map_index)
end

local KEYS = {
  a = function(shift)
    state.query.algorithm = cycle(names(scene.ALGORITHMS),
      state.query.algorithm, shift and -1 or 1)
  end,
  h = function() state.query.heuristic = cycle(scene.HEURISTICS,
    state.query.heuristic) end,
  d = function()
    state.diagonals = cycle(scene.DIAGONALS, state.diagonals)
    state.map.grid:set_movement({ diagonals = state.diagonals })
  end,
  u = function() state.query.unit = cycle(names(scene.UNITS),
    state.query.unit) end,
  s = function() state.query.size = cycle(scene.SIZES, state.query.size) end,
  n = function() state.query.shape = cycle(scene.SHAPES, state.query.shape) end,
  e = function() state.show_explored = not state.show_explored end,
  z = function() state.show_zones = not state.show_zones end,
  f = function() state.field_mode = cycle(scene.FIELD_MODES,
    state.field_mode) end,
  ["["] = function() state.query.weight = math.max(1, state.query.weight - 0.25) end,
  ["]"] = function() state.query.weight = math.min(10, state.query.weight + 0.25) end,
  m = function() use_map(state.map_index % #state.maps + 1) end,
  r = reset_map,
  c = function()
    state.map.grid:fill(1)
    state.map.grid:fill_terrain("grass")
    refresh(true)
  end,
  space = function()
    local total = state.result.expanded or 0
    refresh(false)
    if state.query.algorithm == "jps" and state.query.shape ~= "any-angle" then
      -- it takes no max_nodes
      state.result.note = "JPS cannot be cut short: nothing to replay"
    elseif total > 0 then
      state.anim = { k = 0, total = total }
    end
  end,
  o = function() -- crowd mode: a hundred units ordered to the goal at once
    if state.crowd then
      state.crowd:close()
      state.crowd = nil
    else
      state.crowd = crowd.new(state.map, crowd.UNITS, state.query.unit)
      state.crowd:order(state.map.goal[1], state.map.goal[2])
    end
  end,
  p = function()
    love.graphics.captureScreenshot("pathdemo-" .. os.time() .. ".png")
  end,
  escape = function() love.event.quit() end,
}
KEYS.tab = KEYS.a
for i, b in ipairs(view.BRUSHES) do
  KEYS[tostring(i)] = function() state.brush = b end
end
local REDRAW_ONLY = { e = true, p = true, escape = true, space = true,
                      m = true, r = true, c = true, o = true }

function love.keypressed(key)
  local action = KEYS[key]
  if not action then return end
  action(love.keyboard.isDown("lshift", "rshift"))
  if not REDRAW_ONLY[key] and not tonumber(key) then refresh(false) end
end

-- The animation: the same search cut off after k expansions, k growing
-- over about two seconds (the expansion order does not depend on the cap).
function love.update(dt)
  if state.crowd then state.crowd:update(dt) end
  local a = state.anim
  if not a then return end
  a.k = math.min(a.total, a.k + math.max(1, a.total * dt / 2))
  local q = {}
  for k, v in pairs(state.query) do q[k] = v end
  q.max_nodes = math.max(1, math.floor(a.k))
  local r = scene.search(state.map, q, state.explored)
  if a.k >= a.total then
    state.anim = nil
    r = scene.search(state.map, state.query, state.explored,
      love.timer.getTime)
  elseif r.reason == "cutoff" then
    r.path = nil
  end
  state.result = r
end

function love.draw()
  view.draw_map(state, state.layout)
  view.draw_panel(state)
end

function love.load(args)
  view.init()
  love.graphics.setBackgroundColor(0.11, 0.11, 0.14)
  state.maps = scene.load_maps(read_map)
  for i, a in ipairs(args or {}) do
    if a == "--selftest" then
      local selftest = require("selftest")
      selftest.start(state, {
        use_map = use_map, refresh = refresh, refresh_zones = refresh_zones,
        png = args[i + 1] or "pathdemo-selftest.png", read_map = read_map,
        binary = binary, from_repository = from_repository,
      })
      return
    elseif a == "--paths" then
      require("selftest").paths(state, {
        use_map = use_map, png = args[i + 1] or "paths.png" }, view)
      return
    end
  end
  use_map(1)
end
