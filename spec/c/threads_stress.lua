-- The script of spec/c/threads_host.c: one "main" state edits a grid and
-- publishes a snapshot token per round; every "worker" state attaches
-- them (some are released before it gets there), checks a pool's results
-- against find_paths and find_path on the same snapshot, edits and
-- snapshots a grid of its own, and lets go of snapshots in turns.  Pools
-- are closed with work queued, dropped to the collector, and left open
-- for lua_close.  Any mismatch raises; the host reports it.
local astar = require("astar")

local seed = INDEX * 7919
local function rand(lo, hi)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return lo + seed % (hi - lo + 1)
end

local function queries(w, h, n)
  local q = {}
  for i = 1, 4 * n, 4 do
    q[i], q[i + 1], q[i + 2], q[i + 3] = rand(1, w), rand(1, h), rand(1, w),
      rand(1, h)
  end
  return q
end

local function same_results(a, b, what)
  assert(a.n == b.n, what .. ": counts differ")
  for i = 1, a.n do
    if a.status[i] ~= b.status[i] or a.cost[i] ~= b.cost[i]
        or a.length[i] ~= b.length[i] then
      error(("%s: query %d differs (%s %s / %s %s)"):format(what, i,
        tostring(a.status[i]), tostring(a.cost[i]), tostring(b.status[i]),
        tostring(b.cost[i])))
    end
    for k = 0, 2 * a.length[i] - 1 do
      assert(a.path[a.start[i] + k] == b.path[b.start[i] + k],
        what .. ": paths differ")
    end
  end
end

local ALGOS = {
  {}, { algorithm = "astar" }, { algorithm = "jps" }, { algorithm = "bfs" },
  { algorithm = "bidirectional" }, { algorithm = "ida", max_nodes = 20000 },
  { algorithm = "dijkstra", zones = false }, { unit = "heavy" },
}

-- find_path on the snapshot agrees with a batch's results
local function agrees(s, q, r, what, o)
  for i = 1, r.n do
    local k = (i - 1) * 4
    local path, cost = s:find_path(q[k + 1], q[k + 2], q[k + 3], q[k + 4], o)
    if type(path) == "table" then
      assert(r.cost[i] == cost and r.length[i] == #path / 2, what)
    else
      assert(r.status[i] == cost, what .. ": " .. tostring(cost))
    end
  end
end

local function edit(g, n)
  local w, h = g:size()
  for _ = 1, n do g:set_blocked(rand(1, w), rand(1, h), rand(0, 9) < 6) end
end

if ROLE == "main" then
  local g = astar.new(48, 48, { terrains = { "road", "mud" } })
  edit(g, 500)
  g:fill_terrain("mud", 10, 10, 20, 20)
  g:set_unit("heavy", { mud = 4 }) -- a unit class with layers of its own
  local pool = astar.workers(2)
  local live, acks = {}, 0
  for round = 1, ROUNDS do
    edit(g, 30)
    local s = g:snapshot()
    send(s:token())
    -- mostly let the workers keep up (they attach before the snapshot is
    -- let go of); now and then run ahead, so some tokens are released
    -- before a worker gets to them
    acks = acks + STATES - 1
    if rand(0, 3) > 0 then
      while acks > 2 * (STATES - 1) do
        receive()
        acks = acks - 1
      end
    end
    local q = queries(48, 48, 12)
    local id = pool:submit(s, q)
    -- the grid's answers now, before the next edits
    local want = {}
    for i = 1, 12 do
      local k = (i - 1) * 4
      want[i] = { g:find_path(q[k + 1], q[k + 2], q[k + 3], q[k + 4]) }
    end
    local r = pool:results(id)
    for i = 1, 12 do
      local path, cost = want[i][1], want[i][2]
      if type(path) == "table" then
        assert(r.cost[i] == cost, "main: cost differs from the grid's")
      else
        assert(r.status[i] == cost, "main: status differs from the grid's")
      end
    end
    live[#live + 1] = s
    if #live > 3 then table.remove(live, 1):close() end
    if round % 5 == 0 then collectgarbage() end
  end
  send("stop")
  -- odd runs leave the pool and the snapshots to lua_close
  if INDEX % 2 == 0 then pool:close() end
  return ("%d rounds"):format(ROUNDS)
end

local pool = astar.workers(rand(1, 3))
local own = astar.new(32, 32)
local held, attached, released = {}, 0, 0
while true do
  local tok = receive()
  if tok == "stop" then break end
  local ok, s = pcall(astar.attach, tok)
  if ok then
    attached = attached + 1
    local w, h = s:size()
    local q = queries(w, h, 8)
    -- every engine reads the shared copy: A*, JPS, bidirectional, IDA*
    local o = ALGOS[rand(1, #ALGOS)]
    local id = pool:submit(s, q, o)
    local packed = astar.unpack_paths(s:find_paths(q, o))
    same_results(pool:results(id), packed, "worker " .. INDEX)
    if o.algorithm ~= "bfs" then agrees(s, q, packed, "worker " .. INDEX, o) end
    held[#held + 1] = s
    if #held > rand(1, 5) then
      local old = table.remove(held, 1)
      if rand(0, 1) == 0 then old:close() end -- else the collector's
    end
  else
    assert(tostring(s):match("released"), s)
    released = released + 1
  end
  send("ack")
  -- a grid of its own: edits, snapshots, a pool closed with work queued
  edit(own, 20)
  local mine = own:snapshot()
  local p = astar.workers(2)
  for _ = 1, 3 do p:submit(mine, queries(32, 32, 30)) end
  if rand(0, 1) == 0 then p:close() end
  p = nil
  mine = nil
  if rand(0, 3) == 0 then collectgarbage() end
end
-- left for lua_close: a pool with a batch running on a held snapshot
if held[1] then
  local w, h = held[1]:size()
  pool:submit(held[1], queries(w, h, 200))
end
return ("%d attached, %d released before attach"):format(attached, released)
