-- Drawing for the PathDemo: the map (kept in a canvas, redrawn when it
-- changes), the explored tiles, zones, the path and the side panel.
local scene = require("scene")

local view = {}

view.WIDTH, view.HEIGHT, view.PANEL = 1280, 800, 320

local TERRAIN_COLOURS = {
  road = { 0.86, 0.78, 0.60 },
  grass = { 0.55, 0.73, 0.42 },
  forest = { 0.24, 0.47, 0.29 },
  swamp = { 0.46, 0.45, 0.30 },
  water = { 0.27, 0.50, 0.78 },
}
local WALL = { 0.22, 0.22, 0.27 }
local BACKGROUND = { 0.11, 0.11, 0.14 }
local CLOSED = { 1.00, 0.42, 0.28, 0.45 }
local OPEN = { 0.30, 0.90, 1.00, 0.85 }
local TEXT, DIM, WARN = { 0.92, 0.92, 0.95 }, { 0.62, 0.63, 0.70 },
  { 1.00, 0.45, 0.40 }

-- The brushes, in key order 1..6: a terrain name or "wall".
view.BRUSHES = { "road", "grass", "forest", "swamp", "water", "wall" }

local fonts = {}

function view.init()
  fonts.small = love.graphics.newFont(13)
  fonts.body = love.graphics.newFont(15)
  fonts.title = love.graphics.newFont(22)
  fonts.marker = love.graphics.newFont(12)
end

-- Where the map goes: tile size and offset, fitted into the map area.
function view.layout(map)
  local w, h = map.grid:size()
  local area_w = view.WIDTH - view.PANEL
  local size = math.floor(math.min(area_w / w, view.HEIGHT / h))
  return {
    size = size,
    x = math.floor((area_w - w * size) / 2),
    y = math.floor((view.HEIGHT - h * size) / 2),
  }
end

-- The tile under screen point (px, py), or nil.
function view.tile_at(map, lay, px, py)
  local w, h = map.grid:size()
  local x = math.floor((px - lay.x) / lay.size) + 1
  local y = math.floor((py - lay.y) / lay.size) + 1
  if x >= 1 and y >= 1 and x <= w and y <= h then return x, y end
end

local function set(c, a)
  love.graphics.setColor(c[1], c[2], c[3], a or c[4] or 1)
end

-- A little decoration per terrain, varied by position so a field of it
-- does not look stamped.
local function decorate(name, px, py, s, x, y)
  local v = ((x * 7 + y * 13) % 5) / 5
  if name == "forest" then
    love.graphics.setColor(0.15, 0.33, 0.19)
    love.graphics.circle("fill", px + s * (0.35 + 0.3 * v), py + s * 0.45,
      s * 0.3)
  elseif name == "swamp" then
    love.graphics.setColor(0.33, 0.36, 0.22)
    love.graphics.rectangle("fill", px + s * 0.2, py + s * (0.3 + 0.4 * v),
      s * 0.45, s * 0.12)
  elseif name == "water" then
    love.graphics.setColor(0.40, 0.62, 0.88)
    love.graphics.rectangle("fill", px + s * (0.15 + 0.3 * v), py + s * 0.45,
      s * 0.4, math.max(1, s * 0.08))
  elseif name == "grass" and v < 0.3 then
    love.graphics.setColor(0.49, 0.67, 0.37)
    love.graphics.rectangle("fill", px + s * 0.5, py + s * 0.3, 1, s * 0.3)
  end
end

-- Paints the terrain and walls of map into a canvas: `canvas` when it
-- has the right size (painting redraws into the same one), else a new one.
function view.terrain_canvas(map, lay, canvas)
  local w, h = map.grid:size()
  local s = lay.size
  if not canvas or canvas:getWidth() ~= w * s or canvas:getHeight() ~= h * s then
    canvas = love.graphics.newCanvas(w * s, h * s)
  end
  love.graphics.setCanvas(canvas)
  love.graphics.clear(BACKGROUND)
  for y = 1, h do
    for x = 1, w do
      local px, py = (x - 1) * s, (y - 1) * s
      if map.grid:is_blocked(x, y) then
        set(WALL)
        love.graphics.rectangle("fill", px, py, s, s)
        love.graphics.setColor(0.32, 0.32, 0.38)
        love.graphics.rectangle("fill", px, py, s, math.max(1, s * 0.2))
      else
        local name = map.grid:get_terrain(x, y)
        set(TERRAIN_COLOURS[name])
        love.graphics.rectangle("fill", px, py, s, s)
        decorate(name, px, py, s, x, y)
      end
    end
  end
  love.graphics.setCanvas()
  return canvas
end

-- A colour per zone id, spread round the colour wheel.
local function zone_colour(id)
  local hue = (id * 0.618034) % 1
  local i = math.floor(hue * 6)
  local f = hue * 6 - i
  local q, t = 1 - f, f
  local rgb = ({ { 1, t, 0 }, { q, 1, 0 }, { 0, 1, t }, { 0, q, 1 },
                 { t, 0, 1 }, { 1, 0, q } })[i + 1]
  return { 0.25 + 0.7 * rgb[1], 0.25 + 0.7 * rgb[2], 0.25 + 0.7 * rgb[3] }
end

local function fill_tiles(list, lay, inset)
  local s = lay.size
  for i = 1, #list, 2 do
    love.graphics.rectangle("fill", lay.x + (list[i] - 1) * s + inset,
      lay.y + (list[i + 1] - 1) * s + inset, s - 2 * inset, s - 2 * inset)
  end
end

local function draw_zones(state, lay)
  local grid, s = state.map.grid, lay.size
  local w, h = grid:size()
  for y = 1, h do
    for x = 1, w do
      local id = state.zones[(y - 1) * w + x]
      if id ~= 0 then
        set(zone_colour(id), 0.55)
        love.graphics.rectangle("fill", lay.x + (x - 1) * s,
          lay.y + (y - 1) * s, s, s)
      end
    end
  end
end

-- A field as a heat map (near: warm, far: cool), the flow arrows of its
-- directions() on top, and a movement range as a bright outline.
local FLOW_DX = { 0, 1, 0, -1, 1, 1, -1, -1 }
local FLOW_DY = { -1, 0, 1, 0, -1, 1, 1, -1 }

local function draw_field(state, lay)
  local F, s = state.field, lay.size
  local f = F.field
  local w, h = f:size()
  local span = F.high - F.low
  if not (span > 0) then span = 1 end
  for y = 1, h do
    for x = 1, w do
      local v = f:get(x, y)
      if v then
        local t = (v - F.low) / span
        love.graphics.setColor(0.95 - 0.75 * t, 0.35 + 0.3 * (1 - math.abs(
          2 * t - 1)), 0.2 + 0.7 * t, 0.6)
        love.graphics.rectangle("fill", lay.x + (x - 1) * s,
          lay.y + (y - 1) * s, s, s)
      end
    end
  end
  if s >= 6 then
    love.graphics.setColor(0.05, 0.05, 0.08, 0.75)
    love.graphics.setLineWidth(1)
    local flow = F.flow
    for y = 1, h do
      for x = 1, w do
        local code = flow:byte((y - 1) * w + x)
        if code > 0 then
          local cx, cy = lay.x + (x - 0.5) * s, lay.y + (y - 0.5) * s
          local dx, dy = FLOW_DX[code] * s * 0.4, FLOW_DY[code] * s * 0.4
          love.graphics.line(cx - dx * 0.5, cy - dy * 0.5, cx + dx, cy + dy)
          love.graphics.circle("fill", cx + dx, cy + dy, math.max(1, s * 0.08))
        end
      end
    end
  end
  if F.range then
    love.graphics.setColor(1, 1, 0.6, 0.9)
    for i = 1, #F.range, 2 do
      love.graphics.rectangle("line", lay.x + (F.range[i] - 1) * s + 1,
        lay.y + (F.range[i + 1] - 1) * s + 1, s - 2, s - 2)
    end
  end
end

local function centre(lay, x, y)
  return lay.x + (x - 0.5) * lay.size, lay.y + (y - 0.5) * lay.size
end

-- size: an s x s unit's path is its top-left tile's; drawn through the
-- middle of its footprint.
local function draw_path(path, lay, size, thin)
  if not path or #path < 4 then return end
  local pts, off = {}, ((size or 1) - 1) / 2
  for i = 1, #path, 2 do
    local cx, cy = centre(lay, path[i] + off, path[i + 1] + off)
    pts[#pts + 1], pts[#pts + 2] = cx, cy
  end
  love.graphics.setLineJoin("bevel")
  if thin then -- the search's own tiles under a smoothed path
    love.graphics.setColor(1, 1, 1, 0.45)
    love.graphics.setLineWidth(math.max(1, lay.size * 0.1))
    love.graphics.line(pts)
    love.graphics.setLineWidth(1)
    return
  end
  love.graphics.setColor(0.05, 0.05, 0.08, 0.8)
  love.graphics.setLineWidth(lay.size * 0.45)
  love.graphics.line(pts)
  love.graphics.setColor(1, 1, 1)
  love.graphics.setLineWidth(lay.size * 0.22)
  love.graphics.line(pts)
  love.graphics.setLineWidth(1)
end

-- Several paths in their own colours (the README's picture):
-- list of { path = ..., colour = { r, g, b } }.
function view.draw_paths(list, lay)
  love.graphics.setLineJoin("bevel")
  for _, p in ipairs(list) do
    local pts = {}
    for i = 1, #p.path, 2 do
      local cx, cy = centre(lay, p.path[i], p.path[i + 1])
      pts[#pts + 1], pts[#pts + 2] = cx, cy
    end
    love.graphics.setColor(0.05, 0.05, 0.08, 0.8)
    love.graphics.setLineWidth(lay.size * 0.4)
    love.graphics.line(pts)
    set(p.colour)
    love.graphics.setLineWidth(lay.size * 0.2)
    love.graphics.line(pts)
  end
  love.graphics.setLineWidth(1)
end

-- The footprint of an s x s unit whose top-left tile is t.
local function draw_footprint(lay, t, size, colour)
  if size <= 1 then return end
  set(colour)
  love.graphics.setLineWidth(2)
  love.graphics.rectangle("line", lay.x + (t[1] - 1) * lay.size,
    lay.y + (t[2] - 1) * lay.size, size * lay.size, size * lay.size)
  love.graphics.setLineWidth(1)
end

local function draw_marker(lay, tile, colour, letter)
  local cx, cy = centre(lay, tile[1], tile[2])
  local r = lay.size * 0.7
  love.graphics.setColor(0.05, 0.05, 0.08, 0.8)
  love.graphics.circle("fill", cx, cy + 1, r + 2)
  set(colour)
  love.graphics.circle("fill", cx, cy, r)
  love.graphics.setColor(1, 1, 1)
  love.graphics.setFont(fonts.marker)
  love.graphics.printf(letter, cx - r, cy - fonts.marker:getHeight() / 2,
    2 * r, "center")
end

-- Crowd mode: each unit a dot, yellow while it walks a partial path,
-- grey while it waits for its first one, white on its final path.
local function draw_crowd(c, lay)
  local r = math.max(2, lay.size * 0.35)
  for _, u in ipairs(c.units) do
    local cx, cy = centre(lay, u.px, u.py)
    if u.partial then
      love.graphics.setColor(1.0, 0.85, 0.2)
    elseif u.path then
      love.graphics.setColor(1, 1, 1)
    else
      love.graphics.setColor(0.6, 0.6, 0.65)
    end
    love.graphics.circle("fill", cx, cy, r)
  end
end

function view.draw_map(state, lay)
  love.graphics.clear(BACKGROUND)
  love.graphics.setColor(1, 1, 1)
  love.graphics.draw(state.canvas, lay.x, lay.y)
  if state.crowd then
    draw_crowd(state.crowd, lay)
    draw_marker(lay, state.crowd.goal or state.map.goal,
      { 0.90, 0.25, 0.25 }, "G")
    return
  end
  if state.show_zones then draw_zones(state, lay) end
  if state.field then draw_field(state, lay) end
  local r = state.result
  if state.show_explored and r.explored then
    set(CLOSED)
    fill_tiles(r.explored, lay, 1)
    set(OPEN)
    fill_tiles(r.explored.open or {}, lay, math.floor(lay.size * 0.3))
  end
  local size = state.query.size or 1
  if not state.field then
    draw_path(r.tiles, lay, size, true)
    draw_path(r.path, lay, size)
  end
  draw_footprint(lay, state.map.start, size, { 0.20, 0.75, 0.35 })
  draw_footprint(lay, state.map.goal, size, { 0.90, 0.25, 0.25 })
  draw_marker(lay, state.map.start, { 0.20, 0.75, 0.35 }, "S")
  draw_marker(lay, state.map.goal, { 0.90, 0.25, 0.25 }, "G")
end

-- The side panel: settings, results, brushes and keys.
local function line(text, colour, font)
  return { text = text, colour = colour or TEXT, font = font or "body" }
end

local function unit_cost(unit, terrain)
  local c = unit.costs[terrain]
  if c == nil then c = unit.costs["*"] end
  if c == nil then c = 1 end
  return c and ("%g"):format(c) or "-"
end

function view.draw_panel(state)
  local x0 = view.WIDTH - view.PANEL
  love.graphics.setColor(0.15, 0.15, 0.19)
  love.graphics.rectangle("fill", x0, 0, view.PANEL, view.HEIGHT)
  local q, r = state.query, state.result
  local lines = {
    line("astar PathDemo", TEXT, "title"),
    line(state.map.name, DIM, "small"),
    line(""),
  }
  for _, a in ipairs(scene.ALGORITHMS) do
    local on = a.name == q.algorithm
    local label = a.label
    if a.name == "weighted" then label = ("%s (w = %g)"):format(label, q.weight) end
    lines[#lines + 1] = line((on and "> " or "   ") .. label,
      on and TEXT or DIM)
  end
  lines[#lines + 1] = line("")
  lines[#lines + 1] = line("heuristic  " .. q.heuristic)
  lines[#lines + 1] = line("diagonals  " .. state.diagonals)
  lines[#lines + 1] = line("unit  " .. q.unit .. (state.show_zones
    and ("    zones  %d"):format(state.zone_count or 0) or ""))
  lines[#lines + 1] = line("size  " .. (q.size or 1) .. "    path  "
    .. (q.shape or "grid"))
  if state.field then
    local F = state.field
    local words = { field = "field to G", flee = "flee map from G",
                    range = ("range of S within %g"):format(scene.RANGE) }
    lines[#lines + 1] = line(("%s  %d tiles"):format(words[F.mode],
      F.field:count()))
  end
  lines[#lines + 1] = line("")
  if r.error then
    lines[#lines + 1] = line(r.error, WARN, "small")
  elseif r.path then
    lines[#lines + 1] = line(("cost  %.2f   (%d %s)"):format(r.cost,
      #r.path / 2, (q.shape or "grid") == "grid" and "tiles" or "waypoints"))
  else
    lines[#lines + 1] = line("no path: " .. tostring(r.reason), WARN)
  end
  if not r.error then
    lines[#lines + 1] = line(("expanded  %d    generated  %d"):format(
      r.expanded or 0, r.generated or 0))
    if r.us then
      lines[#lines + 1] = line(("time  %.1f us per search"):format(r.us))
    end
  end
  if state.anim then lines[#lines + 1] = line("animating...", DIM) end
  if state.crowd then
    local c = state.crowd
    local served, arrived = c:progress()
    local p50, p99, max = c:percentiles()
    lines[#lines + 1] = line("")
    lines[#lines + 1] = line(("crowd: %d units, %g ms of search a frame")
      :format(#c.units, (c.budget.seconds or 0) * 1e3))
    lines[#lines + 1] = line(("served %d   arrived %d   frames %d"):format(
      served, arrived, c.frames))
    lines[#lines + 1] = line(("update ms  p50 %.2f  p99 %.2f  max %.2f")
      :format(p50 * 1e3, p99 * 1e3, max * 1e3), DIM, "small")
    lines[#lines + 1] = line("click: order every unit there;  o: leave",
      DIM, "small")
  end
  if r.note then lines[#lines + 1] = line(r.note, DIM, "small") end
  lines[#lines + 1] = line("")
  local y = 18
  for _, l in ipairs(lines) do
    love.graphics.setFont(fonts[l.font])
    set(l.colour)
    love.graphics.printf(l.text, x0 + 18, y, view.PANEL - 30)
    local _, wrapped = fonts[l.font]:getWrap(l.text, view.PANEL - 30)
    y = y + fonts[l.font]:getHeight() * math.max(1, #wrapped) + 4
  end
  y = y + 8
  view.draw_brushes(state, x0 + 18, y)
end

function view.draw_brushes(state, x, y)
  local unit
  for _, u in ipairs(scene.UNITS) do
    if u.name == state.query.unit then unit = u end
  end
  love.graphics.setFont(fonts.small)
  for i, b in ipairs(view.BRUSHES) do
    local yy = y + (i - 1) * 22
    set(b == "wall" and WALL or TERRAIN_COLOURS[b])
    love.graphics.rectangle("fill", x, yy, 16, 16)
    if b == state.brush then
      love.graphics.setColor(1, 1, 1)
      love.graphics.rectangle("line", x - 2, yy - 2, 20, 20)
    end
    set(b == state.brush and TEXT or DIM)
    local cost = b == "wall" and "closed" or "cost " .. unit_cost(unit, b)
    love.graphics.print(("%d  %s  (%s)"):format(i, b, cost), x + 26, yy)
  end
  local ly = y + #view.BRUSHES * 22 + 10
  set(CLOSED)
  love.graphics.rectangle("fill", x, ly, 16, 16)
  set(OPEN)
  love.graphics.rectangle("fill", x + 130 + 5, ly + 5, 6, 6)
  set(DIM)
  love.graphics.print("expanded", x + 26, ly)
  love.graphics.print("frontier", x + 156, ly)
  local help = {
    "left drag: paint, or move S / G",
    "right drag: grass     c: clear",
    "a / tab: algorithm    h: heuristic",
    "d: diagonals   u: unit   [ ]: weight",
    "s: unit size   n: path grid/smoothed/any-angle",
    "e: explored   z: zones   space: animate   o: crowd",
    "f: field / flee map / movement range",
    "m: next map   r: reset   p: screenshot",
  }
  set(DIM)
  for i, text in ipairs(help) do
    love.graphics.print(text, x, view.HEIGHT - 20 - (#help - i + 1) * 19)
  end
end

return view
