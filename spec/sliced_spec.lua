-- Time-sliced searches (grid:query) and the pathfinder pool
-- (astar.pathfinder): a sliced query answers exactly as find_path does at
-- any slice size, with every option family; queries interleave on one grid;
-- edits make them stale; partial paths are legal and optimal to their end;
-- the pool's done() order follows from its round-robin rule alone (so it is
-- the same on every runtime); full, tags, cancel, close and collection.
local astar = require("astar")
local helpers = require("helpers")

local unpack = table.unpack or unpack
local SLICES = { 1, 7, 100, false } -- false: q:step() with no limit

-- Runs q to its end in slices of n (false: one unlimited step).
local function finish(q, n)
  local st, steps = q:state(), 0
  repeat
    if n then st = q:step(n) else st = q:step() end
    steps = steps + 1
    assert(steps < 1e6, "the query never ends")
  until st ~= "running"
  return st, steps
end

local function same_answer(ctx, want, got)
  local n = math.max(want.n, got.n)
  for i = 1, n do
    local a, b = want[i], got[i]
    if type(a) == "table" and type(b) == "table" then
      assert(#a == #b, ctx .. ": path lengths " .. #a .. " vs " .. #b)
      for k = 1, #a do
        assert(a[k] == b[k], ctx .. ": paths differ at " .. k)
      end
    else
      assert(a == b, ("%s: value %d: find_path %s, query %s"):format(
        ctx, i, tostring(a), tostring(b)))
    end
  end
end

local function pack(...) return { n = select("#", ...), ... } end

-- Strips the function's name: find_path and step raise the same words.
local function words(msg)
  msg = tostring(msg):gsub("^[^\n]-:%d+: ", "")
  return (msg:gsub("to '[%w_]+'", "to 'f'"):gsub("^[%w_]+: ", ""))
end

---------------------------------------------------------------------------
-- Random grids, every option family
---------------------------------------------------------------------------

local ALGOS = { "auto", "astar", "jps", "dijkstra", "bfs", "greedy",
                "weighted", "beam", "ida", "bidirectional",
                "bidirectional_bfs" }

-- A random options table (nil sometimes): one or two option families.
local function random_options(rng, case, calls)
  local o = {}
  local w, h = case.width, case.height
  -- a few tiles of the grid as a flat list (per: numbers per tile)
  local function tiles(k, per)
    local t = {}
    for _ = 1, k do
      t[#t + 1] = rng:int(1, w)
      t[#t + 1] = rng:int(1, h)
      if per == 3 then t[#t + 1] = rng:pick({ 0, 0.5, 1, 2, 7 }) end
    end
    return t
  end
  local function family()
    local f = rng:int(1, 15)
    if f == 1 then o.algorithm = rng:pick(ALGOS)
    elseif f == 2 then
      o.heuristic = rng:pick({ "manhattan", "chebyshev", "octile",
                               "euclidean", "zero" })
      o.weight = rng:pick({ 1, 1.5, 3 })
    elseif f == 3 then
      o.ties = rng:pick({ "straight", "random" })
      o.seed = rng:int(0, 1000)
    elseif f == 4 then
      o.goals = { rng:int(1, w), rng:int(1, h), rng:int(1, w), rng:int(1, h) }
    elseif f == 5 then o.max_cost = rng:int(1, 20)
    elseif f == 6 then o.max_length = rng:int(1, 12)
    elseif f == 7 then o.max_nodes = rng:int(1, 40)
    elseif f == 8 then o.closest = true
    elseif f == 9 then
      o.leave_blocked_start = true
      o.next_to_blocked_goal = true
    elseif f == 10 then
      o.tile_cost = function(x, y, c)
        calls.n = calls.n + 1
        if (x * 7 + y * 3) % 11 == 0 then return false end
        return c
      end
    elseif f == 11 then
      o.move_cost = function(x1, y1, x2, y2, c)
        calls.n = calls.n + 1
        return c * (1 + ((x1 + y2) % 3) / 2)
      end
    elseif f == 12 then
      o.heuristic = function(x, y, gx, gy)
        calls.n = calls.n + 1
        return math.abs(x - gx) + math.abs(y - gy) > 3 and 0.5 or 0
      end
      o.zones = false
    elseif f == 13 then
      o.unit = "walker"
    elseif f == 14 then
      o.avoid = tiles(rng:int(0, 12), 2)
    else
      o.extra_cost = tiles(rng:int(1, 12), 3)
    end
  end
  family()
  if rng:chance(0.4) then family() end
  if o.algorithm == "beam" then o.beam_width = rng:int(1, 20) end
  return o
end

local function random_grid(rng, wall)
  local case = helpers.random_case(rng, astar, {
    width = rng:int(1, 14), height = rng:int(1, 14), wall = wall,
  })
  local g = case.grid
  g:define_terrain("mud")
  for _ = 1, rng:int(0, 10) do
    g:set_terrain(rng:int(1, case.width), rng:int(1, case.height), "mud")
  end
  g:set_unit("walker", { mud = 3 })
  return case
end

describe("grid:query", function()
  it("returns find_path's answer at slices 1, 7, 100 and unlimited, "
    .. "every option family", function()
    local ran, raised = 0, 0
    for seed = 1, 300 do
      local rng = helpers.rng(seed * 7919)
      local case = random_grid(rng)
      local g = case.grid
      local sx, sy = helpers.pick_tile(rng, case)
      local gx, gy = helpers.pick_tile(rng, case)
      local calls = { n = 0 }
      local o = random_options(rng, case, calls)
      local ctx = ("seed %d, %dx%d %s, (%d,%d)->(%d,%d)"):format(seed,
        case.width, case.height, case.rule, sx, sy, gx, gy)
      local ok, a, b, c, d = pcall(g.find_path, g, sx, sy, gx, gy, o)
      if not ok then -- a query refused: grid:query raises the same words
        raised = raised + 1
        local qok, qerr = pcall(g.query, g, sx, sy, gx, gy, o)
        assert(not qok, ctx .. ": find_path raised, grid:query did not")
        assert.are.equal(words(a), words(qerr))
        local pf = astar.pathfinder(g)
        local rok, rerr = pcall(pf.request, pf, sx, sy, gx, gy, o)
        assert(not rok, ctx .. ": find_path raised, request did not")
        assert.are.equal(words(a), words(rerr))
        assert.are.equal(0, pf:pending())
        pf:close()
      else
        ran = ran + 1
        local want = pack(a, b, c, d)
        for _, n in ipairs(SLICES) do
          local q = g:query(sx, sy, gx, gy, o)
          local st = finish(q, n)
          local got = pack(q:result())
          same_answer(ctx .. ", slice " .. tostring(n), want, got)
          if a == nil then
            assert.are.equal(b, st)
          elseif d ~= nil then
            assert.are.equal(d, st) -- partial (closest): the reason
          else
            assert.are.equal("found", st)
          end
          assert.are.equal(c, q:expanded())
          q:close()
        end
      end
    end
    assert.is_true(ran > 200, "only " .. ran .. " queries ran")
    assert.is_true(raised > 5, "only " .. raised .. " queries were refused")
  end)

  it("fills stats and explored as find_path does, when it ends", function()
    local g = astar.from_string("....#\n.##.#\n.#...\n...#.")
    local s1, e1, s2, e2 = {}, {}, {}, {}
    local p1 = g:find_path(1, 1, 5, 4, { stats = s1, explored = e1,
                                        algorithm = "astar" })
    local q = g:query(1, 1, 5, 4, { stats = s2, explored = e2,
                                   algorithm = "astar" })
    assert.are.equal("running", q:step(2))
    assert.is_nil(s2.status)
    finish(q, 3)
    assert.are.same(p1, (q:result()))
    assert.are.same(s1, s2)
    assert.are.same(e1, e2)
  end)

  it("reuses the out table of result and partial", function()
    local g = astar.new(20, 3)
    local q = g:query(1, 1, 20, 3, { algorithm = "astar" })
    local out = { 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
                  9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
                  9, 9, 9, 9, 9, 9, 9, 9, 9, 9 }
    q:step(5)
    local p = q:partial(out)
    assert.are.equal(out, p)
    assert.is_true(#p < 20)
    finish(q, 100)
    p = q:result(out)
    assert.are.equal(out, p)
    assert.are.same((g:find_path(1, 1, 20, 3, { algorithm = "astar" })), p)
  end)

  it("gives partial paths that are legal and optimal to their end",
    function()
    for seed = 1, 60 do
      local rng = helpers.rng(seed * 104729)
      local case = helpers.random_case(rng, astar, {
        width = rng:int(2, 16), height = rng:int(2, 16),
      })
      local g = case.grid
      local sx, sy = helpers.pick_tile(rng, case)
      local gx, gy = helpers.pick_tile(rng, case)
      local o = rng:chance(0.5) and { algorithm = "astar" } or nil
      local q = g:query(sx, sy, gx, gy, o)
      assert.is_nil((q:partial())) -- nothing expanded yet
      local st, last = "running", nil
      while st == "running" do
        st = q:step(rng:int(1, 5))
        local p, cost = q:partial()
        if p then
          local ex, ey = p[#p - 1], p[#p]
          local sum, why = helpers.check_path(case.desc, p, sx, sy, ex, ey)
          assert(sum, ("seed %d: %s"):format(seed, tostring(why)))
          assert.is_true(helpers.close(sum, cost, 1e-9))
          local _, best = g:find_path(sx, sy, ex, ey, o)
          assert.is_true(helpers.close(best, cost, 1e-9),
            ("seed %d: partial cost %s, optimal %s"):format(seed,
              tostring(cost), tostring(best)))
          last = p
        end
      end
      if st == "found" then
        assert.are.same((q:result()), (q:partial()))
      elseif st == "no_path" and last then
        -- after the end: the closest tile the search reached
        assert.are.same(last, (q:partial()))
      end
    end
  end)

  it("advances many queries on one grid in any order", function()
    local rng = helpers.rng(4242)
    local case = helpers.random_case(rng, astar, {
      width = 30, height = 30, wall = 0.25, weights = "int",
    })
    local g = case.grid
    local qs, want = {}, {}
    for i = 1, 40 do
      local sx, sy = helpers.pick_tile(rng, case)
      local gx, gy = helpers.pick_tile(rng, case)
      local o = ({ nil, { algorithm = "dijkstra" },
                   { ties = "random", seed = i } })[i % 3 + 1]
      qs[i] = g:query(sx, sy, gx, gy, o)
      want[i] = pack(g:find_path(sx, sy, gx, gy, o))
    end
    local live = #qs
    while live > 0 do
      local i = rng:int(1, #qs)
      local q = qs[i]
      if q:state() == "running" then
        if q:step(rng:int(1, 30)) ~= "running" then live = live - 1 end
        if rng:chance(0.1) then -- the grid's own searches meanwhile
          g:find_path(1, 1, 30, 30)
        end
      end
    end
    for i, q in ipairs(qs) do
      same_answer("query " .. i, want[i], pack(q:result()))
    end
  end)

  it("turns stale on an edit; restart answers on the new grid", function()
    local g = astar.new(30, 30)
    local q = g:query(1, 1, 30, 30, { algorithm = "astar" })
    assert.are.equal("running", q:step(10))
    local v = g:version()
    g:fill_rect(1, 15, 29, 1, false)
    assert.is_true(g:version() > v)
    assert.are.equal("stale", q:step(10))
    assert.are.equal("stale", q:state())
    local p, why = q:result()
    assert.is_nil(p)
    assert.are.equal("stale", why)
    q:restart()
    assert.are.equal("running", q:state())
    assert.are.equal(0, q:expanded())
    assert.are.equal("found", (finish(q, 50)))
    local want = pack(g:find_path(1, 1, 30, 30, { algorithm = "astar" }))
    same_answer("restarted", want, pack(q:result()))
    -- a finished query keeps its answer through later edits
    g:set_blocked(5, 5)
    assert.are.equal("found", q:step(5))
  end)

  it("keeps its own avoid and extra_cost lists: other calls, edits and "
    .. "restarts do not change them", function()
    local stale = 0
    for seed = 1, 40 do
      local rng = helpers.rng(seed * 6151)
      local case = helpers.random_case(rng, astar, {
        width = rng:int(6, 16), height = rng:int(6, 16), wall = 0.15,
        weights = "int",
      })
      local g, w, h = case.grid, case.width, case.height
      local function list(k, per)
        local t = {}
        for _ = 1, k do
          t[#t + 1] = rng:int(1, w)
          t[#t + 1] = rng:int(1, h)
          if per == 3 then t[#t + 1] = rng:int(0, 5) end
        end
        return t
      end
      local ctx = "seed " .. seed
      local sx, sy = helpers.pick_tile(rng, case)
      local gx, gy = helpers.pick_tile(rng, case)
      local o = { avoid = list(rng:int(1, 10), 2),
                  extra_cost = list(rng:int(1, 10), 3) }
      local keep = { avoid = { unpack(o.avoid) },
                     extra_cost = { unpack(o.extra_cost) } }
      local q = g:query(sx, sy, gx, gy, o)
      -- the tables it read are the caller's again
      for i = 1, #o.avoid do o.avoid[i] = 1 end
      o.extra_cost[3] = 1000
      -- the grid's buffers get other lists between its steps
      local other = { avoid = list(20, 2), extra_cost = list(20, 3) }
      local st = "running"
      while st == "running" do
        st = q:step(rng:int(1, 5))
        g:find_path(gx, gy, sx, sy, other)
        g:path_ok({ sx, sy }, 1, other)
        g:query(1, 1, w, h, other):step(3)
      end
      local want = pack(g:find_path(sx, sy, gx, gy, keep))
      same_answer(ctx, want, pack(q:result()))
      -- stale after an edit; restarted, it still has its lists
      q = g:query(sx, sy, gx, gy, keep)
      if q:step(1) == "running" then
        stale = stale + 1
        local x, y = helpers.pick_tile(rng, case)
        if (x ~= sx or y ~= sy) and (x ~= gx or y ~= gy) then
          g:set_blocked(x, y)
        else
          g:set_cost(x, y, 3)
        end
        assert.are.equal("stale", q:step(1))
        g:find_path(gx, gy, sx, sy, other)
        q:restart()
        finish(q, 3)
        same_answer(ctx .. ", restarted",
          pack(g:find_path(sx, sy, gx, gy, keep)), pack(q:result()))
      end
      q:close()
    end
    assert.is_true(stale > 20, "only " .. stale .. " went stale")
  end)

  it("takes size as find_path does (sizes 2 and 3), with units and "
    .. "overlays", function()
    local ran, raised, sized = 0, 0, 0
    for seed = 1, 120 do
      local rng = helpers.rng(seed * 3571)
      local case = random_grid(rng, rng:int(0, 20) / 100)
      local g, w, h = case.grid, case.width, case.height
      local size = rng:int(2, 3)
      if size <= math.min(w, h) then
        local o = { size = size }
        if rng:chance(0.3) then o.unit = "walker" end
        if rng:chance(0.4) then
          o.algorithm = rng:pick({ "astar", "jps", "dijkstra", "greedy" })
        end
        if rng:chance(0.3) then
          o.avoid = { rng:int(1, w), rng:int(1, h), rng:int(1, w),
                      rng:int(1, h) }
        end
        if rng:chance(0.2) then o.closest = true end
        -- mostly tiles where the unit fits
        local function tile()
          local x, y = rng:int(1, w), rng:int(1, h)
          for _ = 1, 20 do
            if g:clearance(x, y, o.unit) >= size then break end
            x, y = rng:int(1, w), rng:int(1, h)
          end
          return x, y
        end
        local sx, sy = tile()
        local gx, gy = tile()
        local ctx = ("seed %d, size %d, %dx%d %s"):format(seed, size, w, h,
          case.rule)
        local ok, a, b, c, d = pcall(g.find_path, g, sx, sy, gx, gy, o)
        if not ok then
          raised = raised + 1
          local qok, qerr = pcall(g.query, g, sx, sy, gx, gy, o)
          assert(not qok, ctx .. ": find_path raised, grid:query did not")
          assert.are.equal(words(a), words(qerr))
        else
          ran = ran + 1
          if a then sized = sized + 1 end
          local want = pack(a, b, c, d)
          for _, n in ipairs(SLICES) do
            local q = g:query(sx, sy, gx, gy, o)
            finish(q, n)
            same_answer(ctx .. ", slice " .. tostring(n), want,
              pack(q:result()))
            q:close()
          end
          local pf = astar.pathfinder(g, { searches = 2, slice = 5 })
          local id = pf:request(sx, sy, gx, gy, o)
          pf:request(gx, gy, sx, sy, o) -- a neighbour on the other slot
          while pf:pending() > 0 do pf:update({ nodes = 7 }) end
          for rid, status, path, cost in pf:done() do
            if rid == id then
              assert.are.equal(a and (d or "found") or b, status)
              if a then
                same_answer(ctx .. ", pool", pack(a, b), pack(path, cost))
              else
                assert.is_nil(path)
              end
            end
          end
          pf:close()
        end
      end
    end
    assert.is_true(ran > 60, "only " .. ran .. " queries ran")
    assert.is_true(sized > 30, "only " .. sized .. " paths found")
  end)

  it("pool requests keep their avoid and extra_cost through restarts",
    function()
    local rng = helpers.rng(777)
    local case = helpers.random_case(rng, astar, {
      width = 30, height = 30, wall = 0.15, weights = "int",
      rule = "no_corner_cut",
    })
    local g = case.grid
    local pf = astar.pathfinder(g, { searches = 3, slice = 9 })
    local opts, ends = {}, {}
    for i = 1, 24 do
      local o = { avoid = {}, extra_cost = {} }
      for _ = 1, rng:int(1, 15) do
        local x, y = helpers.pick_tile(rng, case)
        o.avoid[#o.avoid + 1] = x
        o.avoid[#o.avoid + 1] = y
        x, y = helpers.pick_tile(rng, case)
        o.extra_cost[#o.extra_cost + 1] = x
        o.extra_cost[#o.extra_cost + 1] = y
        o.extra_cost[#o.extra_cost + 1] = rng:int(1, 6)
      end
      if i % 4 == 0 then o.size = 2 end
      local sx, sy = helpers.pick_tile(rng, case)
      local gx, gy = helpers.pick_tile(rng, case)
      local id = pf:request(sx, sy, gx, gy, o)
      -- what the request read is a copy: the caller's tables are free
      opts[id] = { avoid = { unpack(o.avoid) },
                   extra_cost = { unpack(o.extra_cost) }, size = o.size }
      ends[id] = { sx, sy, gx, gy }
      o.avoid[1], o.extra_cost[3] = 1, 100
    end
    local seen, frames, found = 0, 0, 0
    while pf:pending() > 0 do
      pf:update({ nodes = 60 })
      frames = frames + 1
      assert(frames < 10000, "the pool never finishes")
      for id, status, path, cost in pf:done() do
        seen = seen + 1
        local e = ends[id]
        local want = pack(g:find_path(e[1], e[2], e[3], e[4], opts[id]))
        assert.are.equal(want[1] and "found" or want[2], status)
        if want[1] then
          found = found + 1
          same_answer("request " .. id, pack(want[1], want[2]),
            pack(path, cost))
        else
          assert.is_nil(path)
        end
      end
      if frames == 2 or frames == 5 then -- running requests begin again
        local x, y = helpers.pick_tile(rng, case)
        g:set_cost(x, y, rng:int(1, 9))
      end
      g:find_path(1, 1, 30, 30, { avoid = { 2, 2, 3, 3, 4, 4 },
                                  extra_cost = { 5, 5, 1 } })
    end
    assert.are.equal(24, seen)
    assert.is_true(found > 12, "only " .. found .. " paths found")
    assert.is_true(pf:stats().restarts > 0)
  end)

  it("reports its copies to the collector: dropped queries are reclaimed",
    function()
    -- one shared list of 22500 tiles: each query's copy (180 kB) is
    -- memory the collector cannot see, but is told of
    local g = astar.new(150, 150)
    local avoid = {}
    for y = 1, 150, 2 do
      for x = 1, 150 do
        avoid[#avoid + 1] = x
        avoid[#avoid + 1] = y
      end
    end
    collectgarbage("collect")
    -- the module collects when the memory it reported since its last full
    -- collection exceeds what was alive then (the Lua heap and the grids):
    -- enough queries to pass that bar several times over
    local per = 22500 * 8
    local bar = collectgarbage("count") * 1024 + g:memory()
    local n = math.max(60, 4 * math.ceil(bar / per))
    local alive = setmetatable({}, { __mode = "v" })
    for i = 1, n do
      alive[i] = g:query(1, 2, 150, 150, { avoid = avoid })
    end
    local left = 0
    for _ in pairs(alive) do left = left + 1 end
    assert.is_true(left < n / 2, left .. " of " .. n ..
      " dropped queries still alive")
    -- and requests a full pool refuses, or forgets, free theirs at once
    local pf = astar.pathfinder(g, { max_pending = 1 })
    assert.is_number(pf:request(1, 2, 150, 150, { avoid = avoid }))
    for _ = 1, 5 do
      assert.are.same({ nil, "full" },
        { pf:request(1, 2, 150, 150, { avoid = avoid }) })
    end
    pf:update({ nodes = 100000 })
    local n = 0
    for _, status in pf:done() do -- every other row avoided: no way down
      n = n + 1
      assert.are.equal("no_path", status)
    end
    assert.are.equal(1, n)
    assert.are.equal("no_path",
      select(2, g:find_path(1, 2, 150, 150, { avoid = avoid })))
  end)

  it("runs IDA* and bidirectional search whole in their first step",
    function()
    local g = astar.new(12, 12)
    g:fill_rect(3, 6, 9, 1, false)
    for _, algo in ipairs({ "ida", "bidirectional", "bidirectional_bfs" }) do
      local o = { algorithm = algo }
      local q = g:query(1, 1, 12, 12, o)
      assert.is_nil((q:partial()))
      local want = pack(g:find_path(1, 1, 12, 12, o))
      local st = q:step(1)
      assert.are_not.equal("running", st)
      assert.are.equal(want[1] and "found" or want[2], st)
      same_answer(algo, want, pack(q:result()))
    end
  end)

  it("keeps its callbacks between steps, and its grid alive", function()
    local seen = 0
    local function make()
      local g = astar.new(12, 12)
      return g:query(1, 1, 12, 12, {
        tile_cost = function(x, y, c) seen = seen + 1; return c end,
      })
    end
    local q = make()
    collectgarbage()
    collectgarbage()
    assert.are.equal("running", q:step(3))
    collectgarbage()
    assert.are.equal("found", (finish(q, 4)))
    assert.is_true(seen > 0)
    local p = q:result()
    assert.are.equal(24, #p)
  end)

  it("raises clearly when a callback edits the grid, and stays usable",
    function()
    local g = astar.new(10, 10)
    local edit = true
    local q = g:query(1, 1, 10, 10, {
      tile_cost = function(x, y, c)
        if edit then g:set_blocked(5, 5) end
        return c
      end,
    })
    local err = helpers.error_of(q.step, q, 10)
    assert.matches("busy", err)
    assert.are.equal("running", q:state())
    edit = false
    assert.are.equal("found", (finish(q, 10)))
    assert.is_true(g:find_path(1, 1, 10, 10) ~= nil)
  end)

  it("passes a callback's error through, and begins again after it",
    function()
    local g = astar.new(10, 10)
    local fail = true
    local q = g:query(1, 1, 10, 10, {
      move_cost = function(_, _, _, _, c)
        if fail then error({ code = 7 }) end
        return c
      end,
    })
    local ok, e = pcall(q.step, q, 10)
    assert.is_false(ok)
    assert.are.equal(7, e.code)
    fail = false
    assert.are.equal("found", (finish(q, 10)))
  end)

  it("raises on a closed grid or query, never crashes", function()
    local g = astar.new(10, 10)
    local q = g:query(1, 1, 10, 10)
    q:step(2)
    g:close()
    assert.matches("the grid is closed", helpers.error_of(q.step, q, 1))
    q:close()
    q:close()
    assert.are.equal("bad argument #1 to 'step' (the query is closed)",
      helpers.error_of(q.step, q, 1))
    assert.are.equal("bad argument #1 to 'result' (the query is closed)",
      helpers.error_of(q.result, q))
    assert.is_true(q:is_closed())
    assert.are.equal("astar.Query (closed)", tostring(q))
  end)

  it("survives a callback that closes its query, its grid or steps it",
    function()
    local g = astar.new(10, 10)
    local q
    q = g:query(1, 1, 10, 10, {
      tile_cost = function(_, _, c) q:close(); return c end,
    })
    q:step(5) -- the close waits for the step to end
    assert.is_true(q:is_closed())
    local g2 = astar.new(10, 10)
    local q2
    q2 = g2:query(1, 1, 10, 10, {
      tile_cost = function(_, _, c) g2:close(); return c end,
    })
    q2:step(5)
    assert.matches("the grid is closed", helpers.error_of(q2.step, q2, 5))
    local g3 = astar.new(10, 10)
    local q3
    q3 = g3:query(1, 1, 10, 10, {
      tile_cost = function(_, _, c) q3:step(1); return c end,
    })
    assert.matches("busy", helpers.error_of(q3.step, q3, 5))
    assert.are.equal("running", q3:state()) -- back at its beginning
    assert.are.equal("found", (finish(g3:query(1, 1, 10, 10), 3)))
  end)

  it("is closed by __close on 5.4", function()
    if not _VERSION:match("5%.4") then return end
    local g = astar.new(5, 5)
    local run = assert(load([[
      local g = ...
      local q <close> = g:query(1, 1, 5, 5)
      q:step()
      return q
    ]]))
    local q = run(g)
    assert.is_true(q:is_closed())
  end)
end)

---------------------------------------------------------------------------
-- Real maps
---------------------------------------------------------------------------

describe("grid:query on the MovingAI maps", function()
  local dir = helpers.maps_dir()
  if not dir then
    helpers.missing_maps(it, pending, "sliced query scenarios")
    return
  end
  it("returns find_path's path and cost on sampled scenarios of every map #slow",
    function()
    local p = io.popen('ls "' .. dir .. '"')
    local maps = {}
    for name in p:lines() do
      if name:match("%.map$") then maps[#maps + 1] = name end
    end
    p:close()
    assert.is_true(#maps >= 10)
    for _, name in ipairs(maps) do
      local g = astar.load_movingai(dir .. "/" .. name)
      local scen = astar.read_scenarios(dir .. "/" .. name .. ".scen")
      for k = 1, 2 do
        local s = scen[math.floor(#scen * k / 3)]
        for _, o in ipairs({ { algorithm = "astar" }, {} }) do
          local want = pack(g:find_path(s.sx, s.sy, s.gx, s.gy, o))
          for _, n in ipairs({ 1, 7, 100, false }) do
            if n ~= 1 or (want[3] or 0) < 3000 then
              local q = g:query(s.sx, s.sy, s.gx, s.gy, o)
              finish(q, n)
              same_answer(("%s #%d slice %s"):format(name, k, tostring(n)),
                want, pack(q:result()))
              q:close()
            end
          end
        end
      end
    end
  end)
end)

---------------------------------------------------------------------------
-- The pool
---------------------------------------------------------------------------

-- The pool's rule, written out: slots take queued requests in order; turns
-- go round the slots; a turn gives a running request min(slice, what is
-- left of the budget) expansions; a request ends in the turn that reaches
-- its expansion count (find_path's), and its slot takes the next request
-- at once.  Returns the ids in the order they finish.
local function model(costs, searches, slice, budget)
  local queue, slots, order, turn = {}, {}, {}, 0
  for id = 1, #costs do queue[#queue + 1] = id end
  local left = {}
  local function fill()
    for i = 1, searches do
      if not slots[i] and #queue > 0 then
        slots[i] = table.remove(queue, 1)
        left[slots[i]] = costs[slots[i]]
      end
    end
  end
  local guard = 0
  while #order < #costs do
    guard = guard + 1
    assert(guard < 1e6)
    fill()
    local spent = 0
    local running = 0
    for i = 1, searches do if slots[i] then running = running + 1 end end
    while running > 0 and spent < budget do
      local slot = turn % searches + 1
      turn = (turn + 1) % searches
      local id = slots[slot]
      if id then
        local b = math.min(slice, budget - spent)
        if left[id] <= b then
          spent = spent + left[id]
          order[#order + 1] = id
          slots[slot] = nil
          fill()
        else
          left[id] = left[id] - b
          spent = spent + b
        end
        running = 0
        for i = 1, searches do if slots[i] then running = running + 1 end end
      end
    end
  end
  return order
end

describe("astar.pathfinder", function()
  local function scene()
    local rng = helpers.rng(99)
    local case = helpers.random_case(rng, astar, {
      width = 40, height = 30, wall = 0.2, weights = "int",
      rule = "no_corner_cut",
    })
    local reqs = {}
    for i = 1, 30 do
      local sx, sy = helpers.pick_tile(rng, case)
      local gx, gy = helpers.pick_tile(rng, case)
      reqs[i] = { sx, sy, gx, gy }
    end
    return case, reqs
  end

  it("finishes requests in the order its round-robin rule gives, with "
    .. "find_path's answers", function()
    local case, reqs = scene()
    local g = case.grid
    for _, cfg in ipairs({ { 4, 128, 500 }, { 3, 16, 77 }, { 1, 50, 1000 },
                           { 8, 1, 31 } }) do
      local searches, slice, budget = unpack(cfg)
      local pf = astar.pathfinder(g, { searches = searches, slice = slice,
                                       max_pending = 100 })
      local costs, want = {}, {}
      for i, r in ipairs(reqs) do
        local o = i % 2 == 0 and { algorithm = "astar" } or nil
        want[i] = pack(g:find_path(r[1], r[2], r[3], r[4], o))
        costs[i] = want[i][3] -- expansions (0: known at once)
        assert.are.equal(i, pf:request(r[1], r[2], r[3], r[4], o, nil))
      end
      local order = {}
      local updates = 0
      while pf:pending() > 0 do
        pf:update({ nodes = budget })
        updates = updates + 1
        for id, status, path, cost, tag in pf:done() do
          order[#order + 1] = id
          local w = want[id]
          assert.is_nil(tag)
          if w[1] then
            assert.are.equal("found", status)
            assert.are.same(w[1], path)
            assert.are.equal(w[2], cost)
          else
            assert.are.equal(w[2], status)
            assert.is_nil(path)
            assert.is_nil(cost)
          end
        end
      end
      assert.are.same(model(costs, searches, slice, budget), order)
      local s = pf:stats()
      assert.are.equal(#reqs, s.requests)
      assert.are.equal(#reqs, s.finished)
      assert.are.equal(0, s.pending + s.running + s.done)
      assert.is_true(s.worst >= s.seconds)
      pf:close()
    end
  end)

  it("says full at max_pending, replaces by tag, cancels", function()
    local g = astar.new(50, 50)
    local pf = astar.pathfinder(g, { searches = 2, max_pending = 3 })
    local A = { algorithm = "astar" }
    local a = pf:request(1, 1, 50, 50, A, "a")
    local b = pf:request(1, 1, 40, 50, A, "b")
    local c = pf:request(1, 1, 30, 50, A)
    assert.are.same({ nil, "full" }, { pf:request(1, 1, 20, 50, A) })
    assert.are.equal(3, pf:pending())
    -- a new request of tag "a" replaces the pending one (never full)
    local a2 = pf:request(1, 1, 10, 10, nil, "a")
    assert.is_true(a2 > c)
    assert.are.equal(3, pf:pending())
    assert.is_false(pf:cancel(a))
    pf:update({ nodes = 20 }) -- b and c run, a2 waits
    local s = pf:stats()
    assert.are.equal(2, s.running)
    assert.are.equal(1, s.pending)
    assert.is_true(pf:cancel(b)) -- a running one
    assert.is_true(pf:cancel(a2)) -- a pending one
    assert.is_false(pf:cancel(a2))
    assert.are.equal(1, pf:pending())
    while pf:pending() > 0 do pf:update({ nodes = 1000 }) end
    local got = {}
    for id, status, _, _, tag in pf:done() do
      got[#got + 1] = { id, status, tag }
    end
    assert.are.same({ { c, "found", nil } }, got)
    -- a finished, undrained request keeps its tag's answer
    local d = pf:request(1, 1, 5, 5, nil, "d")
    pf:update({ nodes = 1000 })
    local d2 = pf:request(1, 1, 6, 6, nil, "d")
    pf:update({ nodes = 1000 })
    got = {}
    for id in pf:done() do got[#got + 1] = id end
    assert.are.same({ d, d2 }, got)
  end)

  it("gives a running request's best path so far", function()
    local g = astar.new(40, 40)
    local pf = astar.pathfinder(g, { searches = 1, slice = 10 })
    local a = pf:request(1, 1, 40, 40, { algorithm = "astar" })
    local b = pf:request(1, 40, 40, 1, { algorithm = "astar" })
    assert.are.same({ nil, "pending" }, { pf:partial(a) })
    pf:update({ nodes = 25 })
    local out = {}
    local p, cost = pf:partial(a, out)
    assert.are.equal(out, p)
    local ones = {}
    for i = 1, 40 * 40 do ones[i] = 1 end
    local sum = helpers.check_path(helpers.describe(40, 40, ones), p, 1, 1,
      p[#p - 1], p[#p])
    assert.is_true(helpers.close(sum, cost, 1e-12))
    assert.is_true(#p >= 4)
    assert.are.same({ nil, "pending" }, { pf:partial(b) })
    assert.are.same({ nil, "unknown" }, { pf:partial(99) })
    while pf:pending() > 0 do pf:update({ nodes = 1000 }) end
    assert.are.same({ nil, "found" }, { pf:partial(a) })
    for _ in pf:done() do end
    assert.are.same({ nil, "unknown" }, { pf:partial(a) })
  end)

  it("reuses out tables: the path comes back in them", function()
    local g = astar.new(20, 20)
    local pf = astar.pathfinder(g)
    local out = {}
    local id = pf:request(1, 1, 20, 20, nil, nil, out)
    pf:update({ nodes = 1000 })
    local n = 0
    for rid, status, path, cost in pf:done() do
      n = n + 1
      assert.are.equal(id, rid)
      assert.are.equal("found", status)
      assert.are.equal(out, path)
      assert.are.equal(40, #out)
      assert.is_true(helpers.close(cost, 19 * math.sqrt(2), 1e-12))
    end
    assert.are.equal(1, n)
  end)

  it("restarts requests whose grid changed, and counts them", function()
    local g = astar.new(60, 60)
    local pf = astar.pathfinder(g, { searches = 2, slice = 10 })
    pf:request(1, 1, 60, 60, { algorithm = "astar" })
    pf:request(60, 1, 1, 60, { algorithm = "astar" })
    pf:update({ nodes = 40 })
    g:fill_rect(1, 30, 59, 1, false)
    while pf:pending() > 0 do pf:update({ nodes = 500 }) end
    assert.are.equal(2, pf:stats().restarts)
    for id, status, path, cost in pf:done() do
      local want = id == 1 and { g:find_path(1, 1, 60, 60) }
                            or { g:find_path(60, 1, 1, 60) }
      assert.are.equal("found", status)
      assert.are.same(want[1], path)
      assert.are.equal(want[2], cost)
    end
  end)

  it("spends a seconds budget and finishes everything", function()
    local g = astar.new(64, 64)
    local pf = astar.pathfinder(g)
    for i = 1, 20 do pf:request(1, i, 64, 65 - i) end
    local frames = 0
    while pf:pending() > 0 do
      pf:update({ seconds = 0.0005 })
      frames = frames + 1
      assert.is_true(frames < 10000)
    end
    local n = 0
    for _ in pf:done() do n = n + 1 end
    assert.are.equal(20, n)
  end)

  it("raises a callback's error from update and drops that request",
    function()
    local g = astar.new(10, 10)
    local pf = astar.pathfinder(g)
    pf:request(1, 1, 10, 10, { tile_cost = function() error("boom") end })
    local ok = pf:request(1, 1, 5, 5)
    assert.matches("boom", helpers.error_of(pf.update, pf, { nodes = 100 }))
    assert.are.equal(1, pf:pending())
    pf:update({ nodes = 100 })
    local ids = {}
    for id in pf:done() do ids[#ids + 1] = id end
    assert.are.same({ ok }, ids)
  end)

  it("survives a callback that closes the pool or calls it", function()
    local g = astar.new(10, 10)
    local pf
    pf = astar.pathfinder(g)
    pf:request(1, 1, 10, 10, { tile_cost = function(_, _, c)
      pf:close()
      return c
    end })
    pf:update({ nodes = 5 }) -- the close waits for the update to end
    assert.is_true(pf:is_closed())
    local pf2
    pf2 = astar.pathfinder(g)
    pf2:request(1, 1, 10, 10, { tile_cost = function(_, _, c)
      assert(pf2:pending() == 1) -- reading is fine
      pf2:request(1, 1, 2, 2)    -- busy
      return c
    end })
    assert.matches("busy", helpers.error_of(pf2.update, pf2, { nodes = 5 }))
    assert.are.equal(0, pf2:pending())
    pf2:request(1, 1, 3, 3)
    pf2:update({ nodes = 100 })
    assert.are.equal(0, pf2:pending())
  end)

  it("frees everything when a pool with running searches is collected",
    function()
    local g = astar.new(80, 80)
    do
      local pf = astar.pathfinder(g, { searches = 3 })
      for i = 1, 10 do
        pf:request(1, i, 80, 80, { tile_cost = function(_, _, c) return c end })
      end
      pf:update({ nodes = 50 })
    end
    collectgarbage()
    collectgarbage()
    -- and a closed one
    local pf = astar.pathfinder(g)
    pf:request(1, 1, 80, 80)
    pf:update({ nodes = 10 })
    pf:close()
    pf:close()
    assert.is_true(pf:is_closed())
    assert.are.equal("bad argument #1 to 'update' (the pathfinder is closed)",
      helpers.error_of(pf.update, pf, { nodes = 1 }))
    assert.are.equal("bad argument #1 to 'request' (the pathfinder is "
      .. "closed)", helpers.error_of(pf.request, pf, 1, 1, 2, 2))
    assert.are.equal("astar.Pathfinder (closed)", tostring(pf))
    assert.is_true(g:find_path(1, 1, 80, 80) ~= nil)
  end)

  it("raises on a closed grid, and after a grid's collection keeps it",
    function()
    local g = astar.new(10, 10)
    local pf = astar.pathfinder(g)
    pf:request(1, 1, 10, 10)
    g:close()
    assert.matches("the grid is closed",
      helpers.error_of(pf.update, pf, { nodes = 10 }))
    assert.matches("the grid is closed",
      helpers.error_of(pf.request, pf, 1, 1, 2, 2))
    local function make()
      local p = astar.pathfinder(astar.new(12, 12))
      p:request(1, 1, 12, 12)
      return p
    end
    local p2 = make()
    collectgarbage()
    collectgarbage()
    p2:update({ nodes = 1000 })
    local n = 0
    for _, status in p2:done() do
      n = n + 1
      assert.are.equal("found", status)
    end
    assert.are.equal(1, n)
  end)
end)
