-- path = "corners": only the tiles where the path turns (and its ends).
-- On random grids with unit classes, hex grids included, for every
-- algorithm, grids, snapshots, batches and query objects (finished and
-- partial paths): the corners are exactly the default tile path's turns
-- (so they expand back to it, step by step), the cost is the same; the
-- prepared subgoal graph's corners (written without unfolding) on
-- MovingAI scenarios; and bad values.
local astar = require("astar")
local movingai = require("astar.movingai")
local helpers = require("helpers")

local ALGORITHMS = { "auto", "astar", "jps", "dijkstra", "bfs", "greedy",
                     "weighted", "beam", "ida", "bidirectional",
                     "bidirectional_bfs", "theta", "lazy_theta" }
local ANY_ANGLE = { theta = true, lazy_theta = true }

local function sign(v) return v > 0 and 1 or v < 0 and -1 or 0 end
local function gcd(a, b)
  while b ~= 0 do a, b = b, a % b end
  return a
end

-- The direction from (x1, y1) to (x2, y2), reduced, as one string.
local function direction(x1, y1, x2, y2)
  local dx, dy = x2 - x1, y2 - y1
  local k = gcd(math.abs(dx), math.abs(dy))
  if k > 1 then dx, dy = math.floor(dx / k + 0.5), math.floor(dy / k + 0.5) end
  return ("%d,%d"):format(dx, dy)
end

-- The corners of a flat path: its first point, every point where the
-- direction changes, its last point.
local function compress(p)
  local n = math.floor(#p / 2)
  if n <= 1 then return { p[1], p[2] } end
  local out = { p[1], p[2] }
  for i = 2, n - 1 do
    local x0, y0 = p[2 * i - 3], p[2 * i - 2]
    local x, y = p[2 * i - 1], p[2 * i]
    local x1, y1 = p[2 * i + 1], p[2 * i + 2]
    if direction(x0, y0, x, y) ~= direction(x, y, x1, y1) then
      out[#out + 1] = x
      out[#out + 1] = y
    end
  end
  out[#out + 1] = p[2 * n - 1]
  out[#out + 1] = p[2 * n]
  return out
end

-- Corners back into tiles: one step of sign(dx), sign(dy) at a time; nil
-- and a message when a leg is neither straight nor diagonal.
local function expand(c)
  local out = { c[1], c[2] }
  for i = 3, #c - 1, 2 do
    local x, y, tx, ty = c[i - 2], c[i - 1], c[i], c[i + 1]
    local dx, dy = tx - x, ty - y
    if dx ~= 0 and dy ~= 0 and math.abs(dx) ~= math.abs(dy) then
      return nil, ("leg (%d,%d)->(%d,%d) is not a run"):format(x, y, tx, ty)
    end
    if dx == 0 and dy == 0 then
      return nil, ("corner (%d,%d) repeated"):format(x, y)
    end
    local sx, sy = sign(dx), sign(dy)
    while x ~= tx or y ~= ty do
      x, y = x + sx, y + sy
      out[#out + 1] = x
      out[#out + 1] = y
    end
  end
  return out
end

local same = helpers.same_list

local function show(p)
  if type(p) ~= "table" then return tostring(p) end
  local t = {}
  for i = 1, #p, 2 do t[#t + 1] = ("(%s,%s)"):format(p[i], p[i + 1]) end
  return table.concat(t, " ")
end

-- Checks corners c against the tile path p; nil or a message.
local function check(p, c, any_angle)
  local want = compress(p)
  if not same(c, want) then
    return "corners " .. show(c) .. ", want " .. show(want) .. " of "
      .. show(p)
  end
  for i = 5, #c - 1, 2 do -- no three in line in the same direction
    if direction(c[i - 4], c[i - 3], c[i - 2], c[i - 1])
       == direction(c[i - 2], c[i - 1], c[i], c[i + 1]) then
      return "three corners in line: " .. show(c)
    end
  end
  if not any_angle then
    local e, why = expand(c)
    if not e then return why end
    if not same(e, p) then
      return "expands to " .. show(e) .. ", not " .. show(p)
    end
  end
  return nil
end

local function with(opts, k, v)
  local o = {}
  for key, val in pairs(opts) do o[key] = val end
  o[k] = v
  return o
end

-- A random grid with a terrain class (1) and two unit classes over it.
local function random_grid(rng, rule)
  local case = helpers.random_case(rng, astar, {
    rule = rule, width = rng:int(1, 14), height = rng:int(1, 14),
    wall = rng:int(0, 40) / 100,
    weights = rng:chance(0.5) and "uniform" or nil })
  local g = case.grid
  for y = 1, case.height do
    for x = 1, case.width do
      if rng:chance(0.2) then g:set_terrain(x, y, 1) end
    end
  end
  g:set_unit("walker", { [1] = false })
  g:set_unit("wader", { [1] = 3 })
  return case
end

describe("path = \"corners\"", function()
  it("gives the tile path's turns, same cost, for every algorithm "
     .. "(random grids, unit classes, hex)", function()
    local rng = helpers.rng(1919)
    local compared = 0
    for i = 1, helpers.cases(80) do
      local rule = rng:pick(helpers.ALL_RULES)
      local case = random_grid(rng, rule)
      local g = case.grid
      if rule == "no_corner_cut" and rng:chance(0.6) then
        -- the subgoal graph or the jump table where they can be built
        -- (uniform costs): "auto" then runs over them
        pcall(g.prepare, g, "subgoal", nil, rng:pick({ "always", "jumps" }))
      end
      for _ = 1, 2 do
        local sx, sy = helpers.pick_tile(rng, case)
        local gx, gy = helpers.pick_tile(rng, case)
        local opts = { unit = rng:pick({ "default", "walker", "wader" }) }
        if rng:chance(0.3) then opts.closest = true end
        for _, alg in ipairs(ALGORITHMS) do
          local o = with(opts, "algorithm", alg)
          if alg == "ida" or alg == "beam" then o.closest = nil end
          local ok1, p, c1, e1, r1 = pcall(g.find_path, g, sx, sy, gx, gy, o)
          local ok2, q, c2, e2, r2 = pcall(g.find_path, g, sx, sy, gx, gy,
                                           with(o, "path", "corners"))
          local where = helpers.describe_case(i, case, (" %s %s (%d,%d)->(%d,%d)")
            :format(alg, opts.unit, sx, sy, gx, gy))
          assert(ok1 == ok2, where .. ": " .. tostring(p) .. " / " .. tostring(q))
          if not ok1 then
            assert(p == q, where .. ": " .. tostring(p) .. " / " .. tostring(q))
          elseif not p then
            assert(q == nil and c1 == c2, where .. ": " .. tostring(c2))
          else
            assert(q, where .. ": no corners: " .. tostring(c2))
            assert(c1 == c2 and e1 == e2 and r1 == r2, where .. ": cost "
              .. tostring(c1) .. " / " .. tostring(c2))
            local err = check(p, q, ANY_ANGLE[alg])
            assert(err == nil, where .. ": " .. tostring(err))
            compared = compared + 1
          end
        end
      end
      g:close()
    end
    assert.is_true(compared >= helpers.cases(80) * 4)
  end)

  it("comes straight from the prepared subgoal graph and jump table "
     .. "(random grids)", function()
    local rng = helpers.rng(2119)
    local seen = {}
    for i = 1, helpers.cases(40) do
      local case = helpers.random_case(rng, astar, {
        rule = "no_corner_cut", weights = rng:pick({ "uniform", "uniform_k" }),
        lengths = rng:pick({ helpers.LENGTHS[1], helpers.LENGTHS[2],
                             helpers.LENGTHS[3] }),
        width = rng:int(8, 28), height = rng:int(8, 28),
        wall = rng:int(5, 45) / 100 })
      local g = case.grid
      local mode = rng:pick({ "always", "jumps" })
      g:prepare("subgoal", nil, mode)
      for _ = 1, 6 do
        local sx, sy = helpers.pick_tile(rng, case)
        local gx, gy = helpers.pick_tile(rng, case)
        local st = {}
        local p, c = g:find_path(sx, sy, gx, gy)
        local q, d = g:find_path(sx, sy, gx, gy, { path = "corners",
                                                   stats = st })
        local where = helpers.describe_case(i, case, (" %s (%d,%d)->(%d,%d)")
          :format(mode, sx, sy, gx, gy))
        seen[st.algorithm] = true
        assert(c == d, where .. ": cost " .. tostring(c) .. " / "
               .. tostring(d))
        if p then
          local err = check(p, q)
          assert(err == nil, where .. ": " .. tostring(err))
        end
      end
      g:close()
    end
    assert.is_true(seen.subgoal and seen.jps_plus)
  end)

  it("works on snapshots, in batches and in query objects (partial paths "
     .. "too)", function()
    local rng = helpers.rng(2019)
    for i = 1, helpers.cases(30) do
      local case = random_grid(rng, rng:pick(helpers.RULES))
      local g = case.grid
      local sx, sy = helpers.pick_tile(rng, case)
      local gx, gy = helpers.pick_tile(rng, case)
      local opts = { unit = rng:pick({ "default", "walker" }),
                     algorithm = rng:pick({ "auto", "astar", "jps",
                                            "dijkstra" }) }
      local where = helpers.describe_case(i, case, (" %s (%d,%d)->(%d,%d)")
        :format(opts.algorithm, sx, sy, gx, gy))
      local ok, p, c = pcall(g.find_path, g, sx, sy, gx, gy, opts)
      if ok then
        local co = with(opts, "path", "corners")
        -- a snapshot, and a batch of one query
        local snap = g:snapshot()
        local q, d = snap:find_path(sx, sy, gx, gy, co)
        assert.are.equal(c, d)
        if p then assert(check(p, q) == nil, where .. ": snapshot") end
        local r = astar.unpack_paths(snap:find_paths({ sx, sy, gx, gy }, co))
        if p then
          local bp = {}
          for k = r.start[1], r.start[1] + 2 * r.length[1] - 1 do
            bp[#bp + 1] = r.path[k]
          end
          assert(check(p, bp) == nil, where .. ": batch " .. show(bp))
        end
        snap:close()
        -- query objects stepped side by side: partial paths, then the
        -- result
        local qt = g:query(sx, sy, gx, gy, opts)
        local qc = g:query(sx, sy, gx, gy, co)
        local budget = rng:int(1, 4)
        repeat
          local st1 = qt:step(budget)
          local st2 = qc:step(budget)
          assert.are.equal(st1, st2)
          local pp, pc = qt:partial()
          local cp, cc = qc:partial()
          assert.are.equal(pc, cc)
          if pp then
            assert(check(pp, cp) == nil, where .. ": partial "
              .. show(cp) .. " of " .. show(pp))
          end
        until st1 ~= "running"
        local rp, rc = qt:result()
        local cp, cc = qc:result()
        assert.are.equal(rc, cc)
        if rp then assert(check(rp, cp) == nil, where .. ": result") end
        qt:close()
        qc:close()
      end
      g:close()
    end
  end)

  it("works in the pathfinder pool and the worker pool", function()
    local g = astar.new(20, 20)
    g:fill_rect(10, 2, 1, 19, false)
    local tiles, cost = g:find_path(1, 1, 20, 20)
    local want = compress(tiles)
    local pf = astar.pathfinder(g)
    local id = pf:request(1, 1, 20, 20, { path = "corners" })
    pf:update({ nodes = 5 })
    local part = pf:partial(id)
    if part then
      assert.is_true(#part >= 2)
      assert.is_truthy(expand(part)) -- legs that are runs
    end
    pf:update({ nodes = 100000 })
    local seen = 0
    for got, status, path, c in pf:done() do
      assert.are.equal(id, got)
      assert.are.equal("found", status)
      assert.are.equal(cost, c)
      assert.are.same(want, path)
      seen = seen + 1
    end
    assert.are.equal(1, seen)
    pf:close()
    local snap = g:snapshot()
    local pool = astar.workers(1)
    local job = pool:submit(snap, { 1, 1, 20, 20, 3, 3, 3, 3 },
                            { path = "corners" })
    pool:wait(job)
    local r = pool:results(job)
    assert.are.same(want, astar.path_of(r, 1))
    assert.are.same({ 3, 3 }, astar.path_of(r, 2))
    pool:close()
    snap:close()
    g:close()
  end)

  it("reuses the out table and clears what an older, longer path left",
     function()
    local g = astar.new(12, 12)
    local out = {}
    local p = g:find_path(1, 1, 12, 12, nil, out)
    assert.are.equal(24, #p)
    local c = g:find_path(1, 1, 12, 12, { path = "corners" }, out)
    assert.are.equal(out, c)
    assert.are.same({ 1, 1, 12, 12 }, c)
    c = g:find_path(3, 3, 3, 3, { path = "corners" }, out)
    assert.are.same({ 3, 3 }, c)
    g:fill_rect(4, 1, 1, 11, false) -- a wall with a gap at the bottom
    local tiles = g:find_path(1, 1, 6, 1)
    local turns = g:find_path(1, 1, 6, 1, { path = "corners" })
    assert.is_nil(check(tiles, turns))
    assert.is_true(#turns >= 8 and #turns < #tiles)
    -- next_step answers a step whatever `path` says
    local x, y = g:next_step(1, 1, 12, 12, { path = "corners" })
    assert.are.same({ 2, 2 }, { x, y })
    g:close()
  end)

  it("rejects bad values, naming the argument", function()
    local g = astar.new(4, 4)
    local snap = g:snapshot()
    local rule = "path must be one of 'tiles', 'corners', got "
    for _, v in ipairs({ { "corner", "'corner'" }, { 1, "1" },
                         { true, "true" }, { {}, "table" } }) do
      local o = { path = v[1] }
      assert.are.equal("bad argument #6 to 'find_path' (" .. rule .. v[2]
                       .. ")", helpers.error_of(g.find_path, g, 1, 1, 4, 4, o))
      assert.are.equal("bad argument #6 to 'query' (" .. rule .. v[2] .. ")",
                       helpers.error_of(g.query, g, 1, 1, 4, 4, o))
      assert.are.equal("bad argument #6 to 'next_step' (" .. rule .. v[2]
                       .. ")", helpers.error_of(g.next_step, g, 1, 1, 4, 4, o))
      assert.are.equal("bad argument #6 to 'find_path' (" .. rule .. v[2]
                       .. ")",
                       helpers.error_of(snap.find_path, snap, 1, 1, 4, 4, o))
      assert.are.equal("bad argument #3 to 'find_paths' (" .. rule .. v[2]
                       .. ")",
                       helpers.error_of(snap.find_paths, snap, { 1, 1, 4, 4 },
                                        o))
    end
    -- the grid is still usable
    assert.are.same({ 1, 1, 4, 4 }, g:find_path(1, 1, 4, 4,
                                                { path = "corners" }))
    snap:close()
    g:close()
  end)
end)

describe("path = \"corners\" over prepared MovingAI maps", function()
  local dir = helpers.maps_dir()
  if not dir then
    helpers.missing_maps(it, pending, "corners scenario sample")
    return
  end
  -- every step-th scenario: the graph's corners (written without
  -- unfolding) against its own tile path, and the optimal length
  local function sample(name, step, ran)
    local entries = assert(movingai.read_scenarios(dir .. "/" .. name
                                                   .. ".map.scen"))
    local g = assert(astar.load_movingai(dir .. "/" .. name .. ".map"))
    local info = g:prepare("subgoal")
    local tiles, corners, st = {}, {}, {}
    local co = { path = "corners", stats = st }
    for k = 1, #entries, step do
      local e = entries[k]
      local p, c = g:find_path(e.sx, e.sy, e.gx, e.gy, nil, tiles)
      local q, d = g:find_path(e.sx, e.sy, e.gx, e.gy, co, corners)
      if ran == "subgoal" then
        assert(helpers.graph_answer(info, st.algorithm, e.sx, e.sy, e.gx,
                                    e.gy), st.algorithm)
      else
        assert.are.equal(ran, st.algorithm)
      end
      local where = ("%s #%d (%d,%d)->(%d,%d)"):format(name, k, e.sx, e.sy,
                                                      e.gx, e.gy)
      assert(p and q, where .. ": no path")
      assert(c == d, where .. ": cost " .. c .. " / " .. d)
      assert(math.abs(c - e.length) <= movingai.tolerance(e.length_text),
             where .. ": cost " .. c .. ", want " .. e.length_text)
      local err = check(p, q)
      assert(err == nil, where .. ": " .. tostring(err))
    end
    g:close()
  end
  it("equal the tile path's turns on a sample of scenarios", function()
    local step = helpers.cases(10) < 10 and 640 or 64
    sample("32room_000", step, "subgoal")
    sample("maze512-4-0", step, "subgoal")
  end)
  it("equal the tile path's turns on every 8th scenario #slow", function()
    sample("brc202d", 8, "subgoal")
    sample("maze512-4-0", 8, "subgoal")
    sample("32room_000", 8, "subgoal")
    sample("Berlin_0_512", 8, "jps_plus")
  end)
end)
