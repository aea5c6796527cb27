-- The PathDemo's model, without LÖVE: maps, terrain classes, unit classes,
-- the algorithms it offers, and one search with everything a frame draws.
-- Plain Lua (5.1-5.4, LuaJIT), so the specs can load it too.
local astar = require("astar")

local scene = {}

-- Terrain classes in id order (grid:set_terrain takes the names), with the
-- text character each one has in a map file.  Walls are not a terrain:
-- they are blocked tiles, closed to every unit.
scene.TERRAINS = { "road", "grass", "forest", "swamp", "water" }
scene.LEGEND = {
  ["="] = "road", ["."] = "grass", ["T"] = "forest", ["%"] = "swamp",
  ["~"] = "water", ["#"] = false,
}

-- Unit classes: what a step onto each terrain costs (false: closed).
scene.UNITS = {
  { name = "walker", costs = { road = 1, grass = 2, forest = 4, swamp = 8,
                               water = false } },
  { name = "ranger", costs = { road = 1, grass = 1.5, forest = 1.5,
                               swamp = 3, water = false } },
  { name = "boat", costs = { water = 1, ["*"] = false } },
}

-- The algorithms, in the order the demo cycles through them.
scene.ALGORITHMS = {
  { name = "bfs", label = "Breadth-first" },
  { name = "dijkstra", label = "Dijkstra" },
  { name = "greedy", label = "Best-first (greedy)" },
  { name = "astar", label = "A*" },
  { name = "weighted", label = "Weighted A*" },
  { name = "jps", label = "Jump point search" },
  { name = "bidirectional", label = "Bidirectional A*" },
}

scene.HEURISTICS = { "default", "octile", "manhattan", "chebyshev", "euclidean",
                     "zero" }
scene.DIAGONALS = { "no_corner_cut", "one_free", "always", "never" }
-- Unit sizes (an s x s unit: the path is its top-left tile's) and path
-- shapes: the search's own tiles, those smoothed (grid:smooth), or an
-- any-angle search (Lazy Theta*) instead of the chosen algorithm.
scene.SIZES = { 1, 2, 3 }
scene.SHAPES = { "grid", "smoothed", "any-angle" }

-- A new grid of the scene's terrain classes and units, w x h, all grass.
local function new_grid(w, h, movement)
  local grid = astar.new(w, h, { terrains = scene.TERRAINS,
    diagonals = movement or "no_corner_cut" })
  grid:fill_terrain("grass")
  for _, u in ipairs(scene.UNITS) do grid:set_unit(u.name, u.costs) end
  return grid
end

-- A map from text in scene.LEGEND's characters.
function scene.from_text(name, text, start, goal)
  local probe = astar.from_string(text, scene.LEGEND,
    { terrains = scene.TERRAINS })
  local w, h = probe:size()
  local grid = new_grid(w, h)
  for y = 1, h do
    for x = 1, w do
      if probe:is_blocked(x, y) then
        grid:set_blocked(x, y)
      else
        grid:set_terrain(x, y, probe:get_terrain(x, y))
      end
    end
  end
  return { name = name, grid = grid, text = text, start = start, goal = goal }
end

-- A MovingAI benchmark map (the text of a .map file): its open tiles
-- become road (cost 1 for a walker, so costs match the benchmark's), its
-- walls walls.
function scene.from_movingai(name, text, start, goal)
  local probe, err = astar.parse_movingai(text)
  if not probe then return nil, err end
  local w, h = probe:size()
  local grid = new_grid(w, h)
  grid:fill_terrain("road")
  for y = 1, h do
    for x = 1, w do
      if probe:is_blocked(x, y) then grid:set_blocked(x, y) end
    end
  end
  return { name = name, grid = grid, start = start, goal = goal }
end

-- The demo's maps; read(name) returns the text of maps/<name> (or nil).
function scene.load_maps(read)
  local maps = {}
  local text = assert(read("valley.txt"))
  maps[1] = scene.from_text("Valley", text, { 2, 30 }, { 49, 5 })
  maps[1].key = "valley"
  local arena_text = read("arena.map")
  local arena = arena_text and scene.from_movingai(
    "Arena (Dragon Age: Origins)", arena_text, { 4, 4 }, { 46, 46 })
  if arena then
    arena.key = "arena"
    maps[#maps + 1] = arena
  end
  return maps
end

-- One search with everything the demo shows.  q: { algorithm, heuristic,
-- weight, unit, size, shape, max_nodes }.  Returns a table: path (or nil,
-- waypoints when smoothed or any-angle), tiles (the search's own path
-- when smoothed), cost,
-- expanded, generated, reason, explored (the explored table), us (time
-- per query, when timing is asked for), error (a message when the search
-- cannot run as asked, as with JPS on mixed costs).
function scene.search(map, q, explored, timing)
  local opts = {
    algorithm = q.algorithm, heuristic = q.heuristic, unit = q.unit,
    max_nodes = q.max_nodes, explored = explored, stats = {},
  }
  if q.algorithm == "weighted" then opts.weight = q.weight end
  if q.size and q.size > 1 then opts.size = q.size end
  if q.shape == "any-angle" then
    opts.algorithm, opts.heuristic, opts.weight = "lazy_theta", nil, nil
  end
  local sx, sy, gx, gy = map.start[1], map.start[2], map.goal[1], map.goal[2]
  local ok, path, cost = pcall(map.grid.find_path, map.grid,
    sx, sy, gx, gy, opts)
  if not ok then
    return { error = tostring(path):gsub("^.-%((.*)%)$", "%1"),
             explored = explored }
  end
  local r = { path = path, expanded = opts.stats.expanded,
              generated = opts.stats.generated, explored = explored }
  if path then r.cost = cost else r.reason = cost end
  if path and q.shape == "smoothed" then
    r.tiles = path
    r.path = map.grid:smooth(path, nil, { unit = q.unit, size = opts.size })
  end
  if timing then
    opts.explored, opts.stats = nil, nil
    local runs, t0, now = 0, timing(), nil
    repeat
      map.grid:find_path(sx, sy, gx, gy, opts)
      runs = runs + 1
      now = timing()
    until now - t0 > 0.004 or runs >= 2000
    r.us = (now - t0) / runs * 1e6
  end
  return r
end

-- Field modes, in the order the demo cycles through them (key f): off;
-- the field toward the goal G (a heat map with flow arrows); the flee map
-- of it (units run from G, round corners); the movement range of S (every
-- tile the unit reaches from S within RANGE).
scene.FIELD_MODES = { "off", "field", "flee", "range" }
scene.RANGE = 24

-- The field a mode shows, for the query's unit, rebuilt into the map's
-- own fields (map.fields: no allocation once warm).  Returns { mode, field, flow (the flow
-- codes, field:directions()), range (tiles within RANGE, mode range),
-- low, high (the extreme values, for the colours) }, or nil for "off".
function scene.field(map, q, mode)
  if mode == "off" then return nil end
  map.fields = map.fields or {}
  local old = map.fields
  local grid, unit = map.grid, q.unit
  local r = { mode = mode }
  if mode == "range" then
    if not grid:get_cost(map.start[1], map.start[2], unit) then return nil end
    old.from = grid:field(map.start[1], map.start[2],
      { unit = unit, direction = "from", max_cost = scene.RANGE }, old.from)
    r.field = old.from
    r.range = old.from:within(scene.RANGE, old.range)
    old.range = r.range
  else
    if not grid:get_cost(map.goal[1], map.goal[2], unit) then return nil end
    old.to = grid:field(map.goal[1], map.goal[2], { unit = unit }, old.to)
    r.field = old.to
    if mode == "flee" then
      old.flee = old.to:flee(-1.2, old.flee)
      r.field = old.flee
    end
  end
  r.flow = r.field:directions()
  local w, h = grid:size()
  local low, high = math.huge, -math.huge
  for y = 1, h do
    for x = 1, w do
      local v = r.field:get(x, y)
      if v then
        if v < low then low = v end
        if v > high then high = v end
      end
    end
  end
  r.low, r.high = low, high
  return r
end

return scene
