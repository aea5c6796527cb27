-- The PathDemo's crowd mode, without LÖVE: a hundred units get orders at
-- once, an astar.pathfinder serves them within a budget per frame, and
-- each unit walks its best path so far (pf:partial) until its own search
-- ends, then its whole path.  Plain Lua, so the selftest and the specs can
-- drive it frame by frame.
local astar = require("astar")

local crowd = {}
crowd.__index = crowd

crowd.UNITS = 100
crowd.SPEED = 6          -- tiles per second
crowd.BUDGET = 0.001     -- seconds of search per frame (update's budget)

-- A crowd of n units on map (a scene map: grid, start) for unit class
-- unit, standing on the passable tiles nearest the start.
function crowd.new(map, n, unit, budget)
  local self = setmetatable({}, crowd)
  local grid = map.grid
  local w, h = grid:size()
  self.grid, self.unit = grid, unit or "walker"
  self.budget = budget or { seconds = crowd.BUDGET }
  -- the unit's layers and zones made now, not in the first frame
  grid:find_path(map.start[1], map.start[2], map.start[1], map.start[2],
    { unit = self.unit })
  self.pf = astar.pathfinder(grid, { searches = 4, max_pending = 256 })
  self.units = {}
  self.stats = {}
  self.frames, self.times = 0, {}
  local sx, sy = map.start[1], map.start[2]
  -- rings around the start, nearest first
  for r = 0, math.max(w, h) do
    for y = sy - r, sy + r do
      for x = sx - r, sx + r do
        local ring = math.max(math.abs(x - sx), math.abs(y - sy)) == r
        if ring and x >= 1 and y >= 1 and x <= w and y <= h
            and grid:get_cost(x, y, self.unit) and #self.units < n then
          self.units[#self.units + 1] = { x = x, y = y, px = x, py = y }
        end
      end
    end
    if #self.units >= n then break end
  end
  return self
end

-- Every unit is ordered to (gx, gy) at once: one request each, tagged by
-- the unit (a new order replaces one still pending).
function crowd:order(gx, gy)
  self.ordered = 0
  for i, u in ipairs(self.units) do
    u.out = u.out or {}
    u.path, u.partial, u.at, u.status = nil, false, 1, nil
    u.started = false
    u.x, u.y = math.floor(u.px + 0.5), math.floor(u.py + 0.5)
    u.id = assert(self.pf:request(u.x, u.y, gx, gy, { unit = self.unit },
      i, u.out))
    u.waiting = true
    self.ordered = self.ordered + 1
  end
  self.goal = { gx, gy }
  self.started_partial = 0
end

-- Moves u along its path by dist tiles; returns the distance left over.
local function walk(u, dist)
  local p = u.path
  while p and dist > 0 and u.at * 2 < #p do
    local nx, ny = p[u.at * 2 + 1], p[u.at * 2 + 2]
    local dx, dy = nx - u.px, ny - u.py
    local len = math.sqrt(dx * dx + dy * dy)
    if len <= dist then
      u.px, u.py, u.at = nx, ny, u.at + 1
      dist = dist - len
    else
      u.px, u.py = u.px + dx / len * dist, u.py + dy / len * dist
      dist = 0
    end
  end
  return dist
end

-- How many tiles p and q share from their start (both begin at the
-- unit's own tile), at most n.
local function common(p, q, n)
  local k = 0
  while k < n and 2 * k + 2 <= #p and 2 * k + 2 <= #q
      and p[2 * k + 1] == q[2 * k + 1] and p[2 * k + 2] == q[2 * k + 2] do
    k = k + 1
  end
  return k
end

-- Switches u to path p when p holds the tile u last reached (u.at) and
-- the one it walks to, so it walks on without a jump; returns whether it
-- did.  A unit not yet moving always switches.
local function switch(u, p, partial)
  if u.path then
    local need = u.at
    local on_tile = u.px == u.path[2 * u.at - 1]
      and u.py == u.path[2 * u.at]
    if not on_tile and u.path[2 * u.at + 1] then need = u.at + 1 end
    if common(u.path, p, need) < need then return false end
  end
  u.path, u.partial = p, partial
  return true
end

-- One frame: the pool's budget, finished paths taken, the best path so
-- far for units still waiting, movement.
function crowd:update(dt)
  local pf = self.pf
  if pf:pending() > 0 then
    pf:update(self.budget)
    pf:stats(self.stats)
    self.frames = self.frames + 1
    self.times[#self.times + 1] = self.stats.seconds
  end
  for id, status, path, cost, tag in pf:done() do
    local u = self.units[tag]
    if u and u.id == id then
      u.waiting, u.status, u.cost = false, status, cost
      if path and not switch(u, path, false) then
        -- it walked off the final path (a partial path turned away): it
        -- steps back to where the two part and takes the final one
        local k = math.max(1, common(u.path, path, u.at))
        u.px, u.py, u.at = path[2 * k - 1], path[2 * k], k
        u.path, u.partial = path, false
      end
    end
  end
  for _, u in ipairs(self.units) do
    if u.waiting then
      -- two tables in turn: the new best path is read next to the one
      -- being walked
      u.spare = u.spare or {}
      local p = pf:partial(u.id, u.spare)
      if p and #p >= 4 then
        local old = u.path
        if switch(u, p, true) then
          if not u.started then
            u.started = true
            self.started_partial = self.started_partial + 1
          end
          u.spare = old ~= u.out and old or {}
        end
      end
    end
    walk(u, crowd.SPEED * dt)
  end
end

-- Units with their full path, and those that arrived.
function crowd:progress()
  local served, arrived = 0, 0
  for _, u in ipairs(self.units) do
    if not u.waiting then served = served + 1 end
    if u.path and not u.partial and u.at * 2 >= #u.path then
      arrived = arrived + 1
    end
  end
  return served, arrived
end

-- p50, p99 and max of the update times so far (seconds).
function crowd:percentiles()
  local t = {}
  for i, v in ipairs(self.times) do t[i] = v end
  table.sort(t)
  if #t == 0 then return 0, 0, 0 end
  local function at(p) return t[math.max(1, math.ceil(#t * p))] end
  return at(0.5), at(0.99), t[#t]
end

function crowd:close()
  self.pf:close()
end

return crowd
