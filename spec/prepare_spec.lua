-- Preprocessed static maps (grid:prepare("subgoal")): the same costs as A*
-- on random grids through edits and prepare/stale cycles, legal paths with
-- every tile, automatic use only where it is right, the states, the
-- figures, and clear errors.
local astar = require("astar")
local movingai = require("astar.movingai")
local helpers = require("helpers")

local REL = 1e-9

local function find(g, sx, sy, gx, gy, opts, out)
  local o, st = {}, {}
  for k, v in pairs(opts or {}) do o[k] = v end
  o.stats = st
  local p, c = g:find_path(sx, sy, gx, gy, o, out)
  return p, c, st
end

-- A plain query (the subgoal graph when ready) against A* and against the
-- path's own steps; returns nil or a message.
local function compare(case, sx, sy, gx, gy, want_alg)
  local ap, ac = find(case.grid, sx, sy, gx, gy, { algorithm = "astar" })
  local p, c, st = find(case.grid, sx, sy, gx, gy)
  local where = ("(%d,%d)->(%d,%d)"):format(sx, sy, gx, gy)
  if want_alg and st.algorithm ~= want_alg then
    return where .. ": ran " .. tostring(st.algorithm) .. ", not " .. want_alg
  end
  if not ap then
    if p or c ~= ac then
      return where .. ": A* says " .. tostring(ac) .. ", got " .. tostring(c)
    end
    return nil
  end
  if not p then return where .. ": found nothing: " .. tostring(c) end
  if not helpers.close(ac, c, REL) then
    return ("%s: A* cost %.17g, %s %.17g"):format(where, ac, st.algorithm, c)
  end
  local walked, why = helpers.check_path(case.desc, p, sx, sy, gx, gy)
  if not walked then return where .. ": illegal path: " .. why end
  if not helpers.close(walked, c, REL) then
    return ("%s: cost %.17g, its steps sum to %.17g"):format(where, c, walked)
  end
  return nil
end

local JPS_LENGTHS = { helpers.LENGTHS[1], helpers.LENGTHS[2],
                      helpers.LENGTHS[3] }

-- prepare's modes and what find_path then runs
local MODES = { { "always", "subgoal", 260, 3900 },
                { "jumps", "jps_plus", 130, 1950 } }

describe("subgoal graphs (grid:prepare)", function()
  for _, m in ipairs(MODES) do
  local mode, ran, grids, least = m[1], m[2], m[3], m[4]
  it("cost what A* costs on random grids, through edits and prepare cycles ("
     .. mode .. ")", function()
    local rng = helpers.rng(mode == "always" and 2013 or 2014)
    local queries = 0
    for i = 1, grids do
      local case = helpers.random_case(rng, astar, {
        rule = "no_corner_cut", lengths = rng:pick(JPS_LENGTHS),
        weights = rng:pick({ "uniform", "uniform_k" }),
        width = rng:int(1, 24), height = rng:int(1, 24),
        wall = rng:int(0, 45) / 100 })
      local g, w, h = case.grid, case.width, case.height
      local info = g:prepare("subgoal", nil, mode)
      assert.are.equal("ready", g:prepared("subgoal"))
      assert.is_true(info.ms >= 0 and info.bytes > 0)
      assert.are.equal(ran, info.algorithm)
      for cycle = 1, 3 do
        for _ = 1, 5 do
          local sx, sy = helpers.pick_tile(rng, case)
          local gx, gy = helpers.pick_tile(rng, case)
          local ready = g:prepared("subgoal") == "ready"
          local err = compare(case, sx, sy, gx, gy,
                              ready and ran or "jps")
          queries = queries + 1
          if err then
            error(helpers.describe_case(i, case, " cycle " .. cycle) .. ": "
              .. err, 0)
          end
        end
        -- edits: stale until the next prepare (every other cycle)
        for _ = 1, rng:int(1, 3) do
          local x, y = rng:int(1, w), rng:int(1, h)
          if rng:chance(0.5) then
            g:set_blocked(x, y)
            case.costs[(y - 1) * w + x] = false
          else
            local c = 1
            for k = 1, w * h do
              if case.costs[k] then
                c = case.costs[k]
                break
              end
            end
            g:set_cost(x, y, c)
            case.costs[(y - 1) * w + x] = c
          end
        end
        assert.are.equal("stale", g:prepared("subgoal"))
        if cycle % 2 == 0 then g:prepare("subgoal", nil, mode) end
      end
      g:close()
    end
    assert.is_true(queries >= least)
  end)

  it("walks long corridors, rooms and open fields (" .. mode .. ")",
     function()
    -- widths around the 64-bit words of the scans, and past the 255
    -- steps a jump table entry holds (chained)
    for _, w in ipairs({ 62, 63, 64, 65, 66, 127, 128, 129, 150, 254, 255,
                         256, 257, 511, 520 }) do
      for _, tall in ipairs({ false, true }) do
        local g = tall and astar.new(7, w) or astar.new(w, 7)
        local function rect(x, y, rw, rh)
          if tall then g:fill_rect(y, x, rh, rw, false)
          else g:fill_rect(x, y, rw, rh, false) end
        end
        local function q(a, b, c, d)
          if tall then return { b, a, d, c } end
          return { a, b, c, d }
        end
        rect(5, 2, 1, 5) -- a wall with gaps
        rect(w - 3, 1, 1, 6)
        rect(math.floor(w / 2), 4, 1, 1)
        local case = { grid = g, desc = helpers.desc_of_grid(g) }
        g:prepare("subgoal", nil, mode)
        for _, t in ipairs({ q(1, 4, w, 4), q(w, 7, 1, 1), q(1, 1, w, 7),
                             q(2, 7, w - 1, 1), q(6, 1, 6, 7),
                             q(1, 1, w - 4, 1), q(w - 4, 7, 1, 7) }) do
          local err = compare(case, t[1], t[2], t[3], t[4], ran)
          assert(err == nil, w .. (tall and " tall: " or " wide: ")
            .. tostring(err))
        end
        g:close()
      end
    end
  end)
  end

  it("says ready, stale or nil; unprepare frees; memory counts it", function()
    local g = astar.new(40, 40)
    g:fill_rect(10, 10, 20, 1, false)
    g:fill_rect(20, 15, 1, 20, false)
    assert.is_nil(g:prepared("subgoal"))
    find(g, 1, 1, 40, 40) -- JPS's own data made first
    local before = g:memory()
    local info = g:prepare("subgoal", nil, "always")
    assert.is_true(info.subgoals >= 4 and info.edges >= 4)
    assert.are.equal(before + info.bytes, g:memory())
    local _, _, st = find(g, 1, 1, 40, 40)
    assert.are.equal("subgoal", st.algorithm)
    -- the old code path stays reachable
    _, _, st = find(g, 1, 1, 40, 40, { algorithm = "jps" })
    assert.are.equal("jps", st.algorithm)
    g:set_blocked(1, 40)
    assert.are.equal("stale", g:prepared("subgoal"))
    _, _, st = find(g, 1, 1, 40, 40)
    assert.are.equal("jps", st.algorithm)
    info = g:prepare("subgoal", nil, "always")
    assert.are.equal("ready", g:prepared("subgoal"))
    before = g:memory()
    g:unprepare("subgoal")
    assert.is_nil(g:prepared("subgoal"))
    assert.are.equal(before - info.bytes, g:memory())
    _, _, st = find(g, 1, 1, 40, 40)
    assert.are.equal("jps", st.algorithm)
    g:unprepare("subgoal") -- twice is fine
    g:close()
  end)

  it("jump tables cost what A* costs on open fields with long diagonals",
     function()
    local rng = helpers.rng(2015)
    for i = 1, 24 do
      local case = helpers.random_case(rng, astar, {
        rule = "no_corner_cut", lengths = rng:pick(JPS_LENGTHS),
        weights = "uniform", width = rng:int(30, 90),
        height = rng:int(30, 90), wall = rng:int(0, 6) / 100 })
      local g, w, h = case.grid, case.width, case.height
      g:prepare("subgoal", nil, "jumps")
      for k = 1, 12 do
        local sx, sy = helpers.pick_tile(rng, case)
        local gx, gy = helpers.pick_tile(rng, case)
        if k <= 4 then -- corners and edges: the longest runs
          sx, sy = rng:pick({ 1, w }), rng:pick({ 1, h })
        end
        local err = compare(case, sx, sy, gx, gy, "jps_plus")
        if err then error(helpers.describe_case(i, case, "") .. ": " .. err, 0) end
      end
      g:close()
    end
  end)

  it("keeps jump tables (mode 'jumps'): ready, stale, memory, sliced",
     function()
    local g = astar.new(300, 40)
    g:fill_rect(10, 10, 280, 1, false)
    g:fill_rect(150, 12, 1, 28, false)
    find(g, 1, 1, 300, 40) -- JPS's own data made first
    local before = g:memory()
    local info = g:prepare("subgoal", nil, "jumps")
    assert.are.equal("jps_plus", info.algorithm)
    assert.is_nil(info.skipped)
    assert.is_true(info.bytes >= 4 * 300 * 40)
    assert.are.equal(before + info.bytes, g:memory())
    local p, c, st = find(g, 1, 1, 300, 40)
    assert.are.equal("jps_plus", st.algorithm)
    local p2, c2, st2 = find(g, 1, 1, 300, 40, { algorithm = "jps" })
    assert.are.equal("jps", st2.algorithm)
    assert.are.equal(c2, c)
    assert.are.equal(st2.expanded, st.expanded) -- the same search
    assert.are.same(p2, p)
    -- time-sliced: the same engine, step by step
    local q = g:query(1, 1, 300, 40, { stats = st })
    local state = q:step(1)
    while state == "running" do state = q:step(1) end
    assert.are.equal("found", state)
    assert.are.equal(c, select(2, q:result()))
    assert.are.equal("jps_plus", st.algorithm)
    q:close()
    -- a running query goes stale when the data it reads is rebuilt or
    -- freed (never reads freed memory)
    for _, change in ipairs({ "unprepare", "jumps", "always" }) do
      q = g:query(1, 1, 300, 40)
      assert.are.equal("running", q:step(1))
      if change == "unprepare" then g:unprepare("subgoal")
      else g:prepare("subgoal", nil, change) end
      assert.are.equal("stale", q:step(1))
      q:close()
      g:prepare("subgoal", nil, "jumps")
    end
    g:set_blocked(150, 40)
    assert.are.equal("stale", g:prepared("subgoal"))
    _, _, st = find(g, 1, 1, 300, 40)
    assert.are.equal("jps", st.algorithm)
    g:prepare("subgoal", nil, "jumps")
    local p3, c3, st3 = find(g, 1, 1, 300, 40)
    local _, c4 = find(g, 1, 1, 300, 40, { algorithm = "astar" })
    assert.are.equal("jps_plus", st3.algorithm)
    assert.is_true(p3 ~= nil and helpers.close(c3, c4, REL))
    -- a graph replaces the table and back
    g:prepare("subgoal", nil, "always")
    _, _, st = find(g, 1, 1, 300, 40)
    assert.are.equal("subgoal", st.algorithm)
    before = g:memory()
    info = g:prepare("subgoal", nil, "jumps")
    g:unprepare("subgoal")
    assert.is_nil(g:prepared("subgoal"))
    assert.is_true(g:memory() < before)
    _, _, st = find(g, 1, 1, 300, 40)
    assert.are.equal("jps", st.algorithm)
    g:close()
  end)

  it("is used only by queries it answers exactly", function()
    local g = astar.new(30, 30)
    g:fill_rect(5, 5, 20, 1, false)
    g:prepare("subgoal", nil, "always")
    local function alg(opts)
      local _, _, st = find(g, 1, 1, 30, 30, opts)
      return st.algorithm
    end
    assert.are.equal("subgoal", alg())
    assert.are.equal("astar", alg({ algorithm = "astar" }))
    assert.are.equal("jps", alg({ algorithm = "jps" }))
    assert.are.equal("astar", alg({ tile_cost = function() return 1 end }))
    assert.are.equal("jps", alg({ size = 2 })) -- big units: JPS
    -- a path walked tile by tile: next_step and path iteration agree
    local p = g:find_path(1, 1, 30, 30)
    assert.is_true(#p >= 2 * 30)
    g:close()
  end)

  it("answers time-sliced queries and fills explored", function()
    local g = astar.new(50, 40)
    for k = 0, 5 do g:fill_rect(5 + 7 * k, 3 + (k % 2) * 5, 2, 30, false) end
    g:prepare("subgoal", nil, "always")
    local _, want = find(g, 1, 1, 50, 40, { algorithm = "astar" })
    local st = {}
    local q = g:query(1, 1, 50, 40, { stats = st })
    local steps = 0
    local state = q:step(1)
    while state == "running" do
      -- a slice of one node that leaves it running has spent that node
      -- (the pool's node budgets count on it)
      steps = steps + 1
      assert.are.equal(steps, q:expanded())
      state = q:step(1)
    end
    assert.are.equal("found", state)
    assert.is_true(steps >= 2)
    local p, c = q:result()
    assert.is_true(p ~= nil and helpers.close(c, want, REL))
    assert.are.equal("subgoal", st.algorithm)
    q:close()
    local seen = {}
    local path, _, exp = g:find_path(1, 1, 50, 40, { explored = seen })
    assert.is_true(path ~= nil and exp >= 2)
    assert.are.equal(2 * exp, #seen) -- the graph nodes expanded
    g:close()
  end)

  it("prepares unit classes, each with its own graph", function()
    local rows = {}
    for y = 1, 20 do
      rows[y] = (y == 10 and ("~"):rep(14) .. "." .. ("~"):rep(15))
        or ("."):rep(30)
    end
    local g = astar.from_string(table.concat(rows, "\n"),
      { ["."] = "grass", ["~"] = "water" }, { terrains = { "grass", "water" } })
    g:set_unit("default", { water = 2 })
    g:set_unit("boat", { grass = false, water = 1 })
    g:set_unit("walker", { water = false })
    assert.is_true(g:prepare("subgoal", { "walker", "boat" }, "always").bytes > 0)
    assert.are.equal("ready", g:prepared("subgoal", "walker"))
    assert.are.equal("ready", g:prepared("subgoal", "boat"))
    assert.is_nil(g:prepared("subgoal"))
    local p, c, st = find(g, 1, 1, 30, 20, { unit = "walker" })
    assert.are.equal("subgoal", st.algorithm)
    local _, c2 = find(g, 1, 1, 30, 20, { unit = "walker",
                                           algorithm = "astar" })
    assert.is_true(p ~= nil and helpers.close(c, c2, REL))
    _, _, st = find(g, 1, 1, 30, 20)
    assert.are.equal("astar", st.algorithm) -- terrain costs 1 and 2
    g:close()
  end)

  it("refuses kinds and maps it cannot serve, with clear errors", function()
    local g = astar.new(10, 10)
    assert.are.equal(
      "bad argument #2 to 'prepare' (kind must be one of 'subgoal', "
      .. "'landmarks', got 'sub')",
      helpers.error_of(g.prepare, g, "sub"))
    assert.are.equal(
      "bad argument #2 to 'prepared' (kind must be one of 'subgoal', "
      .. "'landmarks', got 3)",
      helpers.error_of(g.prepared, g, 3))
    assert.are.equal(
      "bad argument #2 to 'unprepare' (kind must be one of 'subgoal', "
      .. "'landmarks', got no value)",
      helpers.error_of(g.unprepare, g))
    assert.are.equal(
      "bad argument #4 to 'prepare' (mode must be 'auto', 'always' or "
      .. "'jumps')",
      helpers.error_of(g.prepare, g, "subgoal", nil, "sometimes"))
    assert.are.equal(
      "bad argument #3 to 'prepare' (units must not be an empty list)",
      helpers.error_of(g.prepare, g, "subgoal", {}))
    assert.matches("unit", helpers.error_of(g.prepare, g, "subgoal", "ghost"))
    g:set_cost(3, 3, 2)
    assert.are.equal(
      "bad argument #2 to 'prepare' (kind 'subgoal' needs uniform tile costs)",
      helpers.error_of(g.prepare, g, "subgoal"))
    assert.is_nil(g:prepared("subgoal"))
    local h = astar.new(10, 10, { diagonals = "always" })
    assert.matches("needs 8%-way movement",
                   helpers.error_of(h.prepare, h, "subgoal"))
    g:close()
    h:close()
    assert.matches("closed", helpers.error_of(g.prepare, g, "subgoal"))
  end)
end)

-- A 400 x 400 map, open but for a walled box (x and y 10..70) holding a
-- serpentine: walls on every other row, open at alternate ends, its one
-- way out at the box's bottom left.  From inside its first row to just
-- above the box is 3 tiles as the crow flies and over 1,800 by the
-- serpentine, which plain JPS takes 62 expansions to find.
local function serpentine()
  local g = astar.new(400, 400)
  g:fill_rect(10, 10, 61, 1, false)
  g:fill_rect(10, 70, 61, 1, false)
  g:fill_rect(10, 10, 1, 61, false)
  g:fill_rect(70, 10, 1, 61, false)
  for y = 12, 68, 2 do
    if y % 4 == 0 then
      g:fill_rect(11, y, 58, 1, false)
    else
      g:fill_rect(12, y, 58, 1, false)
    end
  end
  g:set_blocked(10, 69, false)
  return g
end

describe("short queries on a prepared graph", function()
  it("try plain JPS first, the graph when JPS does not end soon", function()
    local g, plain = serpentine(), serpentine()
    local info = g:prepare("subgoal", nil, "always")
    assert.is_true(info.jps_first)
    -- out of the serpentine: near, but JPS gives up: the graph answers
    local p, c, st = find(g, 11, 11, 11, 8)
    assert.are.equal("subgoal", st.algorithm)
    local _, want = plain:find_path(11, 11, 11, 8)
    assert.is_true(want > 1800)
    assert.is_true(helpers.close(want, c, REL))
    assert.is_true(helpers.check_path(helpers.desc_of_grid(plain), p, 11, 11,
                                      11, 8) ~= false)
    -- in the open: JPS answers
    _, _, st = find(g, 200, 200, 230, 180)
    assert.are.equal("jps", st.algorithm)
    _, _, st = find(g, 200, 200, 264, 136) -- 64 apart on both axes
    assert.are.equal("jps", st.algorithm)
    -- farther: the graph
    _, _, st = find(g, 200, 200, 265, 200)
    assert.are.equal("subgoal", st.algorithm)
    -- a query object probes as find_path does
    local qst = {}
    local q = g:query(200, 200, 230, 180, { stats = qst })
    assert.are.equal("found", q:step())
    local _, cost = q:result()
    assert.are.equal("jps", qst.algorithm)
    assert.is_true(helpers.close(cost, 10 + 20 * math.sqrt(2), REL))
    q:close()
    g:close()
    plain:close()
  end)

  it("in slices: JPS first, the graph when the probe is spent, counts as find_path's", function()
    local g, plain = serpentine(), serpentine()
    g:prepare("subgoal", nil, "always")
    local _, want = plain:find_path(11, 11, 11, 8)
    local wst = {}
    local wp, wc = g:find_path(11, 11, 11, 8, { stats = wst })
    assert.are.equal("subgoal", wst.algorithm)
    assert.is_true(helpers.close(want, wc, REL))
    assert.is_true(wst.expanded > 32) -- the probe's 32, then the graph's
    for _, k in ipairs({ 1, 5, 31, 32, 33, 100 }) do
      local st = {}
      local q = g:query(11, 11, 11, 8, { stats = st })
      local outcome, steps = "running", 0
      while outcome == "running" do
        outcome = q:step(k)
        steps = steps + 1
        if k == 5 and outcome == "running" then
          -- JPS's best path while the probe runs, none from the graph
          local pp = q:partial()
          if steps * k <= 32 then
            assert.is_table(pp)
          else
            assert.is_nil(pp)
          end
        end
      end
      assert.are.equal("found", outcome)
      local p, c = q:result()
      assert.are.equal("subgoal", st.algorithm)
      -- every slice but the last spends all of its k expansions, across
      -- the change from the probe to the graph too
      assert.are.equal(math.ceil(wst.expanded / k), steps, "k = " .. k)
      assert.are.equal(wc, c)
      assert.are.equal(wst.expanded, st.expanded)
      assert.are.equal(wst.generated, st.generated)
      assert.are.same(wp, p)
      q:close()
    end
    g:close()
    plain:close()
  end)

  it("the build's sample runs in the grid's own context, a search in it before", function()
    -- the sample's searches reuse what find_path allocated: whatever that
    -- context last ran (another size, a query paused on a spare), the
    -- sample and the searches after it answer as on a fresh grid
    local g, fresh = serpentine(), serpentine()
    local p0, c0 = g:find_path(200, 200, 300, 250, { size = 2 })
    local q = g:query(11, 11, 11, 8)
    assert.are.equal("running", q:step(5))
    local info = g:prepare("subgoal", nil, "always")
    assert.are.equal(fresh:prepare("subgoal", nil, "always").jps_first,
                     info.jps_first)
    assert.is_true(info.jps_first)
    local p, c, st = find(g, 200, 200, 230, 180)
    assert.are.equal("jps", st.algorithm)
    assert.is_true(helpers.close(c, 10 + 20 * math.sqrt(2), REL))
    assert.are.equal(31, #p / 2) -- 30 steps
    local _, c1 = g:find_path(200, 200, 300, 250, { size = 2 })
    assert.is_truthy(p0)
    assert.are.equal(c0, c1)
    assert.are.equal("found", q:step())
    local _, qc = q:result()
    local _, want = fresh:find_path(11, 11, 11, 8)
    assert.is_true(want > 1800)
    assert.is_true(helpers.close(want, qc, REL))
    q:close()
    g:close()
    fresh:close()
  end)

  it("cost what the unprepared map's queries cost", function()
    local g, plain = serpentine(), serpentine()
    local desc = helpers.desc_of_grid(plain)
    local rng = helpers.rng(15)
    -- rubble, so that some short ways are long
    for _ = 1, 4000 do
      local x, y = rng:int(1, 400), rng:int(1, 400)
      g:set_blocked(x, y, true)
      plain:set_blocked(x, y, true)
    end
    desc = helpers.desc_of_grid(plain)
    local info = g:prepare("subgoal", nil, "always")
    assert.is_true(info.jps_first)
    local seen, out = {}, {}
    local n = 0
    while n < helpers.cases(400) do
      local sx, sy = rng:int(1, 400), rng:int(1, 400)
      if n % 4 == 0 then sx, sy = rng:int(11, 69), rng:int(11, 69) end
      local gx, gy = sx + rng:int(-64, 64), sy + rng:int(-64, 64)
      if gx >= 1 and gy >= 1 and gx <= 400 and gy <= 400
         and not plain:is_blocked(sx, sy) and not plain:is_blocked(gx, gy) then
        n = n + 1
        local found, want = plain:find_path(sx, sy, gx, gy)
        local p, c, st = find(g, sx, sy, gx, gy, nil, out)
        local where = ("(%d,%d)->(%d,%d)"):format(sx, sy, gx, gy)
        seen[st.algorithm] = true
        if not found then
          assert(p == nil and c == want, where .. ": " .. tostring(c))
        else
          assert(p and helpers.close(want, c, REL),
                 where .. ": cost " .. tostring(c) .. ", want " .. want)
          local walked, why = helpers.check_path(desc, p, sx, sy, gx, gy)
          assert(walked, where .. ": " .. tostring(why))
        end
      end
    end
    assert.is_true(seen.jps)
    if helpers.cases(10) == 10 then assert.is_true(seen.subgoal) end
    g:close()
    plain:close()
  end)

  it("are not tried below 128 x 128 tiles (the maze: see above)", function()
    local g = astar.new(100, 100)
    assert.is_false(g:prepare("subgoal", nil, "always").jps_first)
    local _, _, st = find(g, 10, 10, 20, 20)
    assert.are.equal("subgoal", st.algorithm)
    g:close()
  end)
end)

describe("subgoal graphs on MovingAI maps", function()
  local dir = helpers.maps_dir()
  if not dir then
    helpers.missing_maps(it, pending, "subgoal scenario sample")
    return
  end
  -- Every step-th scenario of a map, over the subgoal graph and then over
  -- the jump table (the map and its scenarios read once).
  local function check(name, step)
    local entries = assert(movingai.read_scenarios(dir .. "/" .. name
                                                   .. ".map.scen"))
    local grid = assert(astar.load_movingai(dir .. "/" .. name .. ".map"))
    local out, st = {}, {}
    local desc = helpers.desc_of_grid(grid)
    for _, mode in ipairs({ { "always", "subgoal" }, { "jumps", "jps_plus" } }) do
      local info = grid:prepare("subgoal", nil, mode[1])
      for k = 1, #entries, step do
        local e = entries[k]
        local p, c = grid:find_path(e.sx, e.sy, e.gx, e.gy, { stats = st }, out)
        if mode[2] == "subgoal" then
          assert(helpers.graph_answer(info, st.algorithm, e.sx, e.sy, e.gx,
                                      e.gy), st.algorithm)
        else
          assert.are.equal(mode[2], st.algorithm)
        end
        if not p or math.abs(c - e.length)
                     > movingai.tolerance(e.length_text) then
          error(("%s (%s) #%d (%d,%d)->(%d,%d): expected %s, got %s"):format(
            name, mode[1], k, e.sx, e.sy, e.gx, e.gy, e.length_text,
            tostring(c)), 0)
        end
        -- every step a legal move, the steps summing to the cost (on
        -- every 8th path when every scenario runs: the walk is in Lua)
        local walked, why = true, nil
        if step > 1 or k % 8 == 1 then
          walked, why = helpers.check_path(desc, p, e.sx, e.sy, e.gx, e.gy)
        end
        if not walked or (walked ~= true and math.abs(walked - c)
                            > movingai.tolerance(e.length_text)) then
          error(("%s (%s) #%d (%d,%d)->(%d,%d): %s"):format(name, mode[1], k,
            e.sx, e.sy, e.gx, e.gy, why or ("walked " .. tostring(walked))),
            0)
        end
      end
    end
    grid:close()
  end
  it("are kept where the documented rule says they beat JPS", function()
    -- short queries try JPS first on the two maps where it answers them
    -- within its few expansions, not in the maze
    local jps_first = { ["32room_000"] = true, brc202d = true,
                        ["maze512-4-0"] = false }
    for _, name in ipairs({ "32room_000", "brc202d", "maze512-4-0" }) do
      local g = assert(astar.load_movingai(dir .. "/" .. name .. ".map"))
      local w, h = g:size()
      local info = g:prepare("subgoal")
      assert.is_nil(info.skipped)
      assert.are.equal("subgoal", info.algorithm)
      assert.are.equal(jps_first[name], info.jps_first)
      -- contracted: at most one tile in 1000 holds a global subgoal
      assert.is_true(info.global < 0.1 * info.subgoals)
      assert.is_true(info.global <= 0.001 * w * h)
      assert.are.equal("ready", g:prepared("subgoal"))
      local _, _, st = find(g, 2, 2, 2, 2)
      assert.are.equal(info.jps_first and "jps" or "subgoal", st.algorithm)
      g:close()
    end
    for _, name in ipairs({ "Berlin_0_512", "arena" }) do
      local g = assert(astar.load_movingai(dir .. "/" .. name .. ".map"))
      local w, h = g:size()
      local info = g:prepare("subgoal")
      assert.matches("JPS is faster here, precomputed jumps", info.skipped)
      assert.are.equal("jps_plus", info.algorithm)
      assert.is_true(info.bytes >= 4 * w * h
                     and info.bytes < 4.1 * (w + 2) * (h + 2))
      assert.are.equal("ready", g:prepared("subgoal"))
      g:close()
    end
  end)
  it("keep optimal costs on a sample of every map's scenarios", function()
    local names = { "arena", "32room_000", "brc202d", "maze512-4-0",
                    "Berlin_0_512", "nighthaven", "lak303d", "AR0011SR",
                    "Archipelago", "random512-10-0" }
    local step = 97
    if helpers.cases(10) < 10 then
      -- the light runs (GC stress, valgrind) look for memory faults: three
      -- maps, every 970th scenario (reading a big scenario file under the
      -- stressed collector costs more than the searches)
      names, step = { "arena", "32room_000", "brc202d" }, 970
    end
    for _, name in ipairs(names) do
      check(name, step)
    end
  end)
  it("keep optimal costs on every scenario of every map #slow", function()
    for _, name in ipairs({ "arena", "32room_000", "brc202d",
                            "maze512-4-0", "Berlin_0_512", "nighthaven",
                            "lak303d", "AR0011SR", "Archipelago",
                            "random512-10-0" }) do
      check(name, helpers.scenario_step())
    end
  end)
end)
