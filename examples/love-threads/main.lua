-- An army planned on a worker thread: 60 units on the MovingAI arena map
-- get their paths to a rally point from a love.thread, as one batch,
-- while the main thread keeps drawing.  Click to move the rally point;
-- right-click to add or remove a wall (the grid changes, a new snapshot
-- goes to the planner).  The main thread never searches.
--
--   make build/jit/astar/core.so && love examples/love-threads
--   love examples/love-threads --selftest shot.png    (CI, under xvfb)
--
-- How it works: grid:snapshot() makes an immutable copy of the grid;
-- snap:token() is a string naming it; the planner thread (planner.lua)
-- calls astar.attach(token), snap:find_paths(queries) and sends back one
-- string, which astar.unpack_paths reads here.  The main thread keeps its
-- snapshot until the answer comes, so the planner can always attach it.

-- lua/ and build/jit/ of the repository this example sits in (a shipped
-- game puts astar/ in the game and astar/core.so beside it instead)
do
  local root = love.filesystem.getSource() .. "/../.."
  package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;"
    .. package.path
  package.cpath = root .. "/build/jit/?.so;"
    .. love.filesystem.getSourceBaseDirectory() .. "/?.so;" .. package.cpath
end
local astar = require("astar")

-- In a scripted run an error ends the program (status 1) instead of
-- showing LÖVE's error screen forever.
for _, a in ipairs(arg or {}) do
  if a == "--selftest" then
    function love.errorhandler(msg)
      print("selftest FAIL error: " .. tostring(msg))
      print(debug.traceback())
      io.stdout:flush()
      os.exit(1)
    end
  end
end

local TILE = 16
local UNITS = 60
local state = { units = {}, paths = {}, pending = {}, batch = 0 }

local function map_file()
  local f = assert(io.open(love.filesystem.getSource()
    .. "/../maps/arena.map", "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

-- A batch for every unit towards the rally point, on a fresh snapshot.
local function plan()
  local snap = state.grid:snapshot()
  local q = {}
  for _, u in ipairs(state.units) do
    q[#q + 1], q[#q + 2], q[#q + 3], q[#q + 4] = u.x, u.y, state.rally.x,
      state.rally.y
  end
  state.batch = state.batch + 1
  -- kept until the answer comes: the planner must find it alive
  state.pending[state.batch] = { snap = snap, queries = q }
  state.inbox:push(("%d %s %s"):format(state.batch, snap:token(),
    table.concat(q, " ")))
  return state.batch
end

-- One answer from the planner, if any; returns the batch id.
local function receive(wait)
  local msg = wait and state.outbox:demand(wait) or state.outbox:pop()
  if not msg then return nil end
  local id, rest = msg:match("^(%d+) (.*)$")
  id = tonumber(id)
  local p = state.pending[id]
  state.pending[id] = nil
  if rest == "released" then return id, nil end
  local ms, packed = rest:match("^([%d.]+) (.*)$")
  local r = astar.unpack_paths(packed)
  p.snap:close()
  if id == state.batch then -- the latest plan wins
    state.result, state.ms = r, tonumber(ms)
  end
  return id, r, p
end

local function passable(x, y)
  return not state.grid:is_blocked(x, y)
end

function love.load(args)
  state.grid = assert(astar.parse_movingai(map_file()))
  local w, h = state.grid:size()
  state.w, state.h = w, h
  -- the units: passable tiles along the left side, spread out
  local k = 0
  for y = 1, h do
    for x = 1, w do
      if k < UNITS and passable(x, y) and (x * 7 + y * 13) % 11 == 0
          and x < w / 3 then
        k = k + 1
        state.units[k] = { x = x, y = y }
      end
    end
  end
  state.rally = { x = 40, y = 40 }
  state.thread = love.thread.newThread("planner.lua")
  state.inbox = love.thread.getChannel("planner-in")
  state.outbox = love.thread.getChannel("planner-out")
  state.thread:start(package.path, package.cpath)
  for i, a in ipairs(args or {}) do
    if a == "--selftest" then
      return state.selftest(args[i + 1] or "threads-selftest.png")
    end
  end
  plan()
end

function love.update()
  local err = state.thread:getError()
  if err then error("planner thread: " .. err) end
  while receive() do end
end

function love.mousepressed(px, py, button)
  local x, y = math.floor(px / TILE) + 1, math.floor(py / TILE) + 1
  if x < 1 or y < 1 or x > state.w or y > state.h then return end
  if button == 1 and passable(x, y) then
    state.rally = { x = x, y = y }
  elseif button == 2 then
    state.grid:set_blocked(x, y, passable(x, y))
  end
  plan()
end

function love.draw()
  local g = love.graphics
  for y = 1, state.h do
    for x = 1, state.w do
      if passable(x, y) then
        g.setColor(0.85, 0.82, 0.72)
      else
        g.setColor(0.18, 0.2, 0.24)
      end
      g.rectangle("fill", (x - 1) * TILE, (y - 1) * TILE, TILE, TILE)
    end
  end
  local r = state.result
  if r then
    g.setLineWidth(2)
    for i = 1, r.n do
      local n = r.length[i]
      if n > 1 then
        local pts, first = {}, r.start[i]
        for k = 0, 2 * n - 1, 2 do
          pts[#pts + 1] = (r.path[first + k] - 0.5) * TILE
          pts[#pts + 1] = (r.path[first + k + 1] - 0.5) * TILE
        end
        g.setColor(0.2 + (i % 5) * 0.15, 0.35, 0.9 - (i % 4) * 0.15, 0.8)
        g.line(pts)
      end
    end
  end
  g.setColor(0.8, 0.15, 0.1)
  for _, u in ipairs(state.units) do
    g.circle("fill", (u.x - 0.5) * TILE, (u.y - 0.5) * TILE, TILE * 0.35)
  end
  g.setColor(0.1, 0.6, 0.2)
  g.circle("fill", (state.rally.x - 0.5) * TILE, (state.rally.y - 0.5) * TILE,
    TILE * 0.6)
  g.setColor(0, 0, 0)
  g.print(("batch %d: %d paths in %.2f ms on the planner thread; click: "
    .. "rally point, right-click: wall"):format(state.batch,
      r and r.n or 0, state.ms or 0), 6, 6)
end

-- `--selftest file.png`: three batches (one after a wall edit) through
-- the planner thread, each checked against grid:find_path on the main
-- thread for the grid as it was; a screenshot; exit status 0 when all held.
function state.selftest(png)
  local failures = 0
  local function fail(fmt, ...)
    failures = failures + 1
    print("selftest FAIL " .. fmt:format(...))
  end
  local rallies = { { 40, 40 }, { 25, 25 }, { 45, 25 } }
  for b, rp in ipairs(rallies) do
    if b == 3 then -- an edit: the next snapshot must see it, the old ones not
      for y = 20, 30 do state.grid:set_blocked(30, y, true) end
    end
    state.rally = { x = rp[1], y = rp[2] }
    -- the grid's own answers now, before anything else changes
    local want = {}
    for i, u in ipairs(state.units) do
      local path, cost = state.grid:find_path(u.x, u.y, rp[1], rp[2])
      want[i] = type(path) == "table" and cost or false
    end
    local id = plan()
    local got, r
    repeat
      got, r = receive(10)
      if not got then fail("batch %d: no answer in 10 s", id) break end
    until got == id
    if r then
      local found, total = 0, 0
      for i = 1, r.n do
        if r.cost[i] ~= want[i] then
          fail("batch %d, unit %d: cost %s, grid %s", id, i,
            tostring(r.cost[i]), tostring(want[i]))
        end
        if r.cost[i] then found, total = found + 1, total + r.cost[i] end
      end
      if found == 0 then fail("batch %d: no path found", id) end
      print(("selftest batch %d: %d queries, %d found, total cost %.6f, "
        .. "%.3f ms on the planner"):format(id, r.n, found, total, state.ms))
    elseif got then
      fail("batch %d: the snapshot was released before the planner "
        .. "attached it", id)
    end
  end
  if #state.units ~= UNITS then fail("%d units placed", #state.units) end
  local frames = 0
  function love.update()
    frames = frames + 1
    if frames == 3 then
      love.graphics.captureScreenshot(function(img)
        local data = img:encode("png"):getString()
        local f = io.open(png, "wb")
        if f then
          f:write(data)
          f:close()
        else
          fail("cannot write %s", png)
        end
        print(("selftest screenshot %s %dx%d bytes=%d"):format(png,
          img:getWidth(), img:getHeight(), #data))
        state.inbox:push("quit")
        state.thread:wait()
        if state.thread:getError() then
          fail("planner thread: %s", state.thread:getError())
        end
        print(failures == 0 and "selftest ok"
          or ("selftest failed: %d checks"):format(failures))
        io.stdout:flush()
        love.event.quit(failures == 0 and 0 or 1)
      end)
    end
  end
end
