-- Jump point search: the same costs as A* on every grid it applies to,
-- legal paths with every tile, automatic selection only where it is right,
-- and clear errors when it is forced where it does not apply.
local astar = require("astar")
local movingai = require("astar.movingai")
local helpers = require("helpers")

-- find_path, plus the algorithm that ran (from the stats option) as a 4th
-- value
local function find(g, sx, sy, gx, gy, opts, out)
  local o, st = {}, {}
  for k, v in pairs(opts or {}) do o[k] = v end
  o.stats = st
  local a, b, c = g:find_path(sx, sy, gx, gy, o, out)
  return a, b, c, st.algorithm
end

local REL = 1e-9 -- JPS and A* sum the same steps in other orders

-- The step lengths JPS applies to (cardinal <= diagonal <= 2 cardinal).
local JPS_LENGTHS = { helpers.LENGTHS[1], helpers.LENGTHS[2],
                      helpers.LENGTHS[3] }

local function run(grid, sx, sy, gx, gy, algorithm, out)
  return find(grid, sx, sy, gx, gy, { algorithm = algorithm }, out)
end

-- JPS against A* on one query of a case; returns nil or a message.
local function compare(case, sx, sy, gx, gy, out)
  local ap, ac, _, aalg = run(case.grid, sx, sy, gx, gy, "astar")
  local jp, jc, jexp, jalg = run(case.grid, sx, sy, gx, gy, "jps", out)
  local where = ("(%d,%d)->(%d,%d)"):format(sx, sy, gx, gy)
  if aalg ~= "astar" or jalg ~= "jps" then
    return where .. ": ran " .. tostring(aalg) .. " and " .. tostring(jalg)
  end
  if not ap then
    if jp or jc ~= ac then
      return where .. ": A* says " .. tostring(ac) .. ", JPS "
        .. tostring(jp and jc or jc)
    end
    return nil
  end
  if not jp then return where .. ": JPS found nothing: " .. tostring(jc) end
  if not helpers.close(ac, jc, REL) then
    return ("%s: A* cost %.17g, JPS %.17g"):format(where, ac, jc)
  end
  local walked, why = helpers.check_path(case.desc, jp, sx, sy, gx, gy)
  if not walked then return where .. ": illegal JPS path: " .. why end
  if not helpers.close(walked, jc, REL) then
    return ("%s: JPS cost %.17g, its steps sum to %.17g"):format(
      where, jc, walked)
  end
  if not (helpers.is_int(jexp) and jexp >= 1) then
    return where .. ": expanded = " .. tostring(jexp)
  end
  -- auto picks JPS here and gives the same answer
  local p2, c2, _, alg2 = find(case.grid, sx, sy, gx, gy)
  if alg2 ~= "jps" or c2 ~= jc or #p2 ~= #jp then
    return where .. ": auto ran " .. tostring(alg2) .. " with cost "
      .. tostring(c2)
  end
  return nil
end

describe("jump point search", function()
  it("costs what A* costs on thousands of random uniform grids", function()
    local rng = helpers.rng(2011)
    local out = {}
    local grids, queries = 0, 0
    local function one(opts, seed)
      local case = helpers.random_case(rng, astar, opts)
      grids = grids + 1
      local w, h = case.width, case.height
      for q = 1, 4 do
        local err = compare(case, rng:int(1, w), rng:int(1, h),
                            rng:int(1, w), rng:int(1, h), out)
        queries = queries + 1
        if err then
          error(helpers.describe_case(seed, case, " query " .. q) .. ": "
            .. err, 0)
        end
      end
      -- edits need no preprocessing: block and open a few tiles, ask again
      for _ = 1, rng:int(1, 4) do
        local x, y = rng:int(1, w), rng:int(1, h)
        if rng:chance(0.5) then
          case.grid:set_blocked(x, y)
          case.costs[(y - 1) * w + x] = false
        else
          local c = case.weights == "uniform" and 1
            or case.grid:get_cost(1, 1) or nil
          if c then
            case.grid:set_cost(x, y, c)
            case.costs[(y - 1) * w + x] = c
          end
        end
      end
      local err = compare(case, rng:int(1, w), rng:int(1, h),
                          rng:int(1, w), rng:int(1, h), out)
      queries = queries + 1
      if err then
        error(helpers.describe_case(seed, case, " after edits") .. ": " .. err,
              0)
      end
    end
    -- every size from 1x1 to 8x8, walls 0-60 %
    for w = 1, 8 do
      for h = 1, 8 do
        for k = 0, 6 do
          one({ width = w, height = h, wall = k / 10, rule = "no_corner_cut",
                weights = "uniform", lengths = helpers.LENGTHS[1] },
              w * 100 + h * 10 + k)
        end
      end
    end
    -- random sizes up to 40x40, uniform costs 1 or k, every length JPS
    -- takes
    local random = helpers.cases(1600)
    for i = 1, random do
      one({ rule = "no_corner_cut", lengths = rng:pick(JPS_LENGTHS),
            weights = rng:pick({ "uniform", "uniform_k" }) }, i)
    end
    -- 448 fixed and the random grids, each with 5 to 8 queries
    assert.is_true(grids == 448 + random and queries >= 5 * grids)
  end)

  it("walks long corridors and open fields (bit scans across words)",
     function()
    -- widths around the 63-tile scan window and the 64-bit words
    for _, w in ipairs({ 61, 62, 63, 64, 65, 126, 127, 128, 129, 200 }) do
      local g = astar.new(w, 5)
      local desc = helpers.desc_of_grid(g)
      local case = { grid = g, desc = desc }
      for _, q in ipairs({ { 1, 3, w, 3 }, { w, 3, 1, 3 }, { 1, 1, w, 5 },
                           { w, 5, 1, 1 }, { 2, 1, w - 1, 1 } }) do
        local err = compare(case, q[1], q[2], q[3], q[4])
        assert(err == nil, w .. " wide: " .. tostring(err))
      end
      -- a wall with one gap at the far end
      g:fill_rect(1, 3, w, 1, false)
      g:set_cost(w, 3, 1)
      desc = helpers.desc_of_grid(g)
      case.desc = desc
      local err = compare(case, 1, 1, 1, 5)
      assert(err == nil, w .. " wide, wall: " .. tostring(err))
    end
  end)

  it("returns every tile of the path, also into a reused table", function()
    local g = astar.new(20, 20)
    local out = {}
    local path, cost, expanded, alg = find(g, 1, 1, 20, 20, nil, out)
    assert.are.equal("jps", alg)
    assert.are.equal(out, path)
    assert.are.equal(40, #path) -- 20 tiles, x and y each
    assert.is_true(helpers.close(19 * helpers.SQRT2, cost, REL))
    assert.is_true(expanded <= 3)
    -- a shorter path into the same table leaves nothing behind
    path = g:find_path(5, 5, 7, 5, nil, out)
    assert.are.same({ 5, 5, 6, 5, 7, 5 }, path)
    -- next_step: the first tile after the start
    local x, y, c = g:next_step(1, 1, 20, 20, { algorithm = "jps" })
    assert.are.same({ 2, 2 }, { x, y })
    assert.are.equal(cost, c)
  end)

  it("reports the same outcomes as A* when there is no path", function()
    local g = astar.from_string(".#.\n#..\n...")
    -- zones answer first: nothing expanded; without them JPS expands the
    -- start's region (one jump point here)
    assert.are.same({ nil, "no_path", 0, "jps" }, { find(g, 1, 1, 3, 3) })
    assert.are.same({ nil, "no_path", 1, "jps" },
                    { find(g, 1, 1, 3, 3, { zones = false }) })
    assert.are.same({ nil, "start_blocked", 0, "jps" },
                    { find(g, 2, 1, 3, 3) })
    local path, reason, _, alg = find(g, 1, 1, 1, 2, { algorithm = "jps" })
    assert.is_nil(path)
    assert.are.equal("goal_blocked", reason)
    assert.are.equal("jps", alg)
    assert.are.same({ { 1, 1 }, 0 }, { (g:find_path(1, 1, 1, 1)), 0 })
  end)
end)

describe("automatic selection", function()
  local function algorithm_of(g, opts)
    local w, h = g:size()
    local _, _, _, alg = find(g, 1, 1, w, h, opts)
    return alg
  end

  it("picks JPS on uniform 8-way no-corner-cut grids", function()
    assert.are.equal("jps", algorithm_of(astar.new(10, 10)))
    assert.are.equal("jps", algorithm_of(astar.new(10, 10, { cost = 3 })))
    assert.are.equal("jps", algorithm_of(astar.new(10, 10,
      { cardinal = 2, diagonal = 3 })))
    assert.are.equal("jps", algorithm_of(astar.new(10, 10,
      { cardinal = 1, diagonal = 1 })))
    assert.are.equal("jps", algorithm_of(astar.new(10, 10,
      { cardinal = 1, diagonal = 2 })))
    assert.are.equal("jps", algorithm_of(astar.new(10, 10),
      { heuristic = "default", weight = 1, algorithm = "auto" }))
  end)

  it("never picks JPS for options it does not support", function()
    local g = astar.new(10, 10)
    for _, opts in ipairs({ { weight = 1.5 }, { weight = 2 },
                            { heuristic = "zero" }, { heuristic = "octile" },
                            { heuristic = "manhattan" },
                            { heuristic = "euclidean" },
                            { heuristic = "chebyshev" } }) do
      assert.are.equal("astar", algorithm_of(g, opts))
    end
    assert.are.equal("astar", algorithm_of(g, { algorithm = "astar" }))
  end)

  it("never picks JPS for other movement rules or step lengths", function()
    for _, rule in ipairs({ "never", "one_free", "always" }) do
      assert.are.equal("astar",
        algorithm_of(astar.new(10, 10, { diagonals = rule })), rule)
    end
    -- diagonal longer than two cardinals, or shorter than one
    for _, len in ipairs({ { 1, 3 }, { 3, 2 }, { 1, 0.5 }, { 1, 2.0001 } }) do
      assert.are.equal("astar", algorithm_of(astar.new(10, 10,
        { cardinal = len[1], diagonal = len[2] })))
    end
  end)

  it("follows edits: weighted tiles turn it off, uniform ones on", function()
    local g = astar.new(10, 10)
    g:set_cost(5, 5, 2)
    assert.are.equal("astar", algorithm_of(g))
    g:set_cost(5, 5, 1)
    assert.are.equal("jps", algorithm_of(g))
    -- only passable tiles count: a blocked tile keeps its stored cost
    g:set_cost(3, 3, 7)
    assert.are.equal("astar", algorithm_of(g))
    g:set_blocked(3, 3)
    assert.are.equal("jps", algorithm_of(g))
    g:set_blocked(3, 3, false)
    assert.are.equal("astar", algorithm_of(g))
    g:fill(4)
    assert.are.equal("jps", algorithm_of(g))
    g:fill_rect(2, 2, 3, 3, 0.5)
    assert.are.equal("astar", algorithm_of(g))
    g:fill_rect(2, 2, 3, 3, false)
    assert.are.equal("jps", algorithm_of(g))
    g:load_string(("2.........\n"):rep(10))
    assert.are.equal("astar", algorithm_of(g))
    g:load_string(("##........\n"):rep(10))
    assert.are.equal("jps", algorithm_of(g, nil))
    -- a movement change turns it off and on again
    g:set_movement({ diagonals = "always" })
    assert.are.equal("astar", algorithm_of(g))
    g:set_movement({ diagonals = "no_corner_cut" })
    assert.are.equal("jps", algorithm_of(g))
  end)

  it("raises a clear error when 'jps' is forced where it does not apply",
     function()
    local function err_of(g, opts)
      return helpers.error_of(g.find_path, g, 1, 1, 2, 2, opts)
    end
    local pre = "bad argument #6 to 'find_path' (algorithm 'jps' needs "
    local g = astar.new(4, 4)
    g:set_cost(2, 2, 5)
    assert.are.equal(pre .. "uniform tile costs)",
                     err_of(g, { algorithm = "jps" }))
    assert.are.equal(pre .. "weight 1)",
                     err_of(astar.new(4, 4), { algorithm = "jps", weight = 2 }))
    assert.are.equal(pre .. "the default heuristic)",
                     err_of(astar.new(4, 4),
                            { algorithm = "jps", heuristic = "octile" }))
    assert.are.equal(pre .. "8-way movement with no corner cutting "
      .. "(diagonals = 'no_corner_cut'))",
      err_of(astar.new(4, 4, { diagonals = "never" }), { algorithm = "jps" }))
    assert.are.equal(pre .. "a diagonal step length between 1 and 2 "
      .. "cardinal lengths)",
      err_of(astar.new(4, 4, { cardinal = 1, diagonal = 3 }),
             { algorithm = "jps" }))
    -- next_step says the same, with its own name
    local msg = helpers.error_of(g.next_step, g, 1, 1, 2, 2,
                                 { algorithm = "jps" })
    assert.are.equal("bad argument #6 to 'next_step' (algorithm 'jps' needs "
      .. "uniform tile costs)", msg)
  end)
end)

-- Reads a .map on its own: width, height, flat costs (1 or false).
local function read_map(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  local lines = helpers.lines(text)
  local h = tonumber(lines[2]:match("^height (%d+)"))
  local w = tonumber(lines[3]:match("^width (%d+)"))
  assert(w and h and lines[4] == "map", path .. ": bad header")
  local costs = {}
  for y = 1, h do
    local row = lines[4 + y]
    for x = 1, w do
      local ch = row:sub(x, x)
      costs[(y - 1) * w + x] = (ch == "." or ch == "G" or ch == "S") and 1
        or false
    end
  end
  return w, h, costs
end

describe("jump point search on the MovingAI maps #slow", function()
  local dir = helpers.maps_dir()
  if not dir then
    helpers.missing_maps(it, pending, "JPS scenario specs")
    return
  end

  local names = {}
  local p = io.popen('ls "' .. dir .. '" 2>/dev/null')
  if p then
    for line in p:lines() do
      if line:match("%.map$") then names[#names + 1] = line end
    end
    p:close()
  end
  table.sort(names)
  it("finds the maps", function() assert.is_true(#names >= 10) end)

  for _, name in ipairs(names) do
    it(name .. ": every scenario, optimal, legal, as A*", function()
      local map_path = dir .. "/" .. name
      local w, h, costs = read_map(map_path)
      local desc = helpers.describe(w, h, costs)
      local grid = assert(astar.load_movingai(map_path))
      local list = assert(astar.read_scenarios(map_path .. ".scen"))
      assert.is_true(#list > 0)
      local out = {}
      local nfail, failures = 0, {}
      for i = 1, #list, helpers.scenario_step() do
        local s = list[i]
        local path, cost, _, alg = find(grid, s.sx, s.sy, s.gx, s.gy,
          { algorithm = "jps" }, out)
        local msg
        if alg ~= "jps" then
          msg = "ran " .. tostring(alg)
        elseif not path then
          msg = "no path: " .. tostring(cost)
        elseif math.abs(cost - s.length) > movingai.tolerance(s.length_text)
        then
          msg = ("cost %.10f, published %s"):format(cost, s.length_text)
        else
          local walked, why = helpers.check_path(desc, path, s.sx, s.sy,
                                                 s.gx, s.gy)
          if not walked then
            msg = "illegal path: " .. why
          elseif not helpers.close(walked, cost, REL) then
            msg = ("cost %.12f, steps sum to %.12f"):format(cost, walked)
          elseif i % 10 == 1 then -- A* on a tenth of them: same cost
            local _, acost = grid:find_path(s.sx, s.sy, s.gx, s.gy,
                                            { algorithm = "astar" })
            if not helpers.close(acost, cost, REL) then
              msg = ("A* cost %.17g, JPS %.17g"):format(acost, cost)
            end
          end
        end
        if msg then
          nfail = nfail + 1
          if nfail <= 10 then
            failures[#failures + 1] = ("  #%d (%d,%d)->(%d,%d): %s"):format(
              i, s.sx, s.sy, s.gx, s.gy, msg)
          end
        end
      end
      if nfail > 0 then
        error(("%s: %d of %d scenarios failed:\n%s"):format(name, nfail,
          #list, table.concat(failures, "\n")), 0)
      end
    end)
  end
end)
