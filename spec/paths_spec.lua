-- Paths that stay valid (issue 20): grid:path_ok and grid:path_cost
-- against a step-by-step reference after random edits, the avoid and
-- extra_cost options against the reference Dijkstra on a copy of the grid
-- with those tiles blocked or dearer, grid:repair, next_step that
-- remembers, and the Lua path helpers.
local astar = require("astar")
local helpers = require("helpers")

local REL = 1e-9
local abs = math.abs

local function close(a, b)
  return abs(a - b) <= REL * math.max(1, abs(a), abs(b))
end

-- A random model: weights or walls, heights, and a unit class "climber"
-- with a height rule.  desc(unit, avoid, extra) is the reference's view
-- of it for the unit (nil: the grid's own rules), with the tiles of avoid
-- blocked (but those in keep) and extra's costs added.
local function new_case(rng, opts)
  opts = opts or {}
  local w, h = rng:int(2, 12), rng:int(2, 12)
  local lengths = rng:pick(helpers.LENGTHS)
  local m = {
    width = w, height = h, rule = opts.rule or rng:pick(helpers.ALL_RULES),
    lengths = lengths, wall = {}, weight = {}, hgt = {},
  }
  local wall = rng:int(0, 35) / 100
  local hilly = rng:chance(0.5)
  for i = 1, w * h do
    m.wall[i] = rng:chance(wall)
    m.weight[i] = rng:int(1, 4)
    m.hgt[i] = hilly and rng:int(0, 3) or 0
  end
  m.climb = { climb = rng:pick({ 0, 0.5, 1 }), descend = rng:pick({ 0, 0.25 }),
              max_climb = rng:int(1, 2) }
  local g = astar.new(w, h, { diagonals = m.rule, cardinal = lengths.cardinal,
                              diagonal = lengths.diagonal })
  for y = 1, h do
    for x = 1, w do
      local i = (y - 1) * w + x
      if m.wall[i] then g:set_blocked(x, y) else g:set_cost(x, y, m.weight[i]) end
      if m.hgt[i] ~= 0 then g:set_height(x, y, m.hgt[i]) end
    end
  end
  g:set_unit("climber", {}, m.climb)
  m.grid = g
  return m
end

local function set_wall(m, x, y, on)
  m.wall[(y - 1) * m.width + x] = on
  if on then m.grid:set_blocked(x, y) else
    m.grid:set_cost(x, y, m.weight[(y - 1) * m.width + x])
  end
end

local function desc(m, unit, avoid, extra, keep)
  local w = m.width
  local blocked, add = {}, {}
  for i = 1, #(avoid or {}), 2 do
    blocked[(avoid[i + 1] - 1) * w + avoid[i]] = true
  end
  for _, k in ipairs(keep or {}) do blocked[(k[2] - 1) * w + k[1]] = nil end
  for i = 1, #(extra or {}), 3 do
    local j = (extra[i + 1] - 1) * w + extra[i]
    add[j] = (add[j] or 0) + extra[i + 2]
  end
  local d = {
    width = m.width, height = m.height, diagonals = m.rule,
    cardinal = m.lengths.cardinal, diagonal = m.lengths.diagonal,
    cost = function(x, y)
      local i = (y - 1) * w + x
      if m.wall[i] or blocked[i] then return false end
      return m.weight[i] + (add[i] or 0)
    end,
  }
  if unit == "climber" then
    local r = m.climb
    d.extra = function(x, y, nx, ny)
      local dh = m.hgt[(ny - 1) * w + nx] - m.hgt[(y - 1) * w + x]
      if dh > r.max_climb then return false end
      if dh > 0 then return r.climb * dh end
      return r.descend * -dh
    end
  else
    -- the grid's own rules ignore heights (no unit pays for them)
  end
  return d
end

local function random_tile(rng, m)
  return rng:int(1, m.width), rng:int(1, m.height)
end

-- A path to check: a search's path, or a random walk (sometimes with a
-- jump, a standstill or a step no rule allows).
local function some_path(rng, m, unit)
  local sx, sy = random_tile(rng, m)
  local gx, gy = random_tile(rng, m)
  if rng:chance(0.6) then
    local p = m.grid:find_path(sx, sy, gx, gy, { unit = unit })
    if p then return p end
  end
  local p, x, y = { sx, sy }, sx, sy
  for _ = 1, rng:int(0, 20) do
    local d = helpers.DIRS[rng:int(1, 8)]
    local nx, ny = x + d[1], y + d[2]
    if rng:chance(0.05) then nx, ny = x + 2 * d[1], y end
    if rng:chance(0.03) then nx, ny = x, y end
    if nx >= 1 and ny >= 1 and nx <= m.width and ny <= m.height then
      x, y = nx, ny
      p[#p + 1], p[#p + 2] = x, y
    end
  end
  return p
end

-- The reference: the first illegal tile from tile `from` on (or nil) and
-- the cost up to the end.
local function reference(d, p, from)
  local n = #p / 2
  if not helpers.tile(d, p[2 * from - 1], p[2 * from]) then return from end
  local total = 0
  for i = from + 1, n do
    local x, y, nx, ny = p[2 * i - 3], p[2 * i - 2], p[2 * i - 1], p[2 * i]
    local dx, dy = nx - x, ny - y
    if abs(dx) > 1 or abs(dy) > 1 or (dx == 0 and dy == 0) then return i end
    local c = helpers.step_cost(d, x, y, dx, dy)
    if not c then return i end
    total = total + c
  end
  return nil, total
end

local function random_edits(rng, m)
  for _ = 1, rng:int(0, 4) do
    local x, y = random_tile(rng, m)
    set_wall(m, x, y, not m.wall[(y - 1) * m.width + x])
  end
  if rng:chance(0.3) then
    local x, y = random_tile(rng, m)
    local i = (y - 1) * m.width + x
    m.hgt[i] = rng:int(0, 3)
    m.grid:set_height(x, y, m.hgt[i])
  end
end

local function random_avoid(rng, m, k)
  local a = {}
  for i = 1, k do
    a[2 * i - 1], a[2 * i] = random_tile(rng, m)
  end
  return a
end

local function random_extra(rng, m, k)
  local e = {}
  for i = 1, k do
    e[3 * i - 2], e[3 * i - 1] = random_tile(rng, m)
    e[3 * i] = rng:pick({ 0, 0.5, 1, 3 })
  end
  return e
end

describe("path_ok and path_cost", function()
  it("agree with a step-by-step reference after random edits", function()
    local rng = helpers.rng(2001)
    for seed = 1, 250 do
      local m = new_case(rng)
      local unit = rng:chance(0.5) and "climber" or nil
      local p = some_path(rng, m, unit)
      random_edits(rng, m)
      local n = #p / 2
      local from = rng:int(1, n)
      local opts = { unit = unit }
      local keep = { { p[2 * from - 1], p[2 * from] }, { p[#p - 1], p[#p] } }
      if rng:chance(0.4) then opts.avoid = random_avoid(rng, m, rng:int(0, 6)) end
      if rng:chance(0.4) then opts.extra_cost = random_extra(rng, m, rng:int(0, 6)) end
      local d = desc(m, unit, opts.avoid, opts.extra_cost, keep)
      local bad, cost = reference(d, p, from)
      local ok, idx = m.grid:path_ok(p, from, opts)
      local label = ("seed %d rule %s path %s from %d"):format(seed, m.rule,
        helpers.path_string(p), from)
      if bad then
        assert.is_false(ok, label)
        assert.are.equal(bad, idx, label)
      else
        assert.is_true(ok, label)
        assert.is_nil(idx, label)
      end
      if from == 1 then
        local c, i = m.grid:path_cost(p, opts)
        if bad then
          assert.is_nil(c, label)
          assert.are.equal(bad, i, label)
        else
          assert.is_true(close(cost, c), label .. (" %s vs %s"):format(cost, c))
        end
      end
    end
  end)

  it("a search's path costs what the search said, under every option", function()
    local rng = helpers.rng(77)
    for _ = 1, 60 do
      local m = new_case(rng)
      local sx, sy = random_tile(rng, m)
      local gx, gy = random_tile(rng, m)
      local opts = { unit = rng:chance(0.5) and "climber" or nil,
                     avoid = random_avoid(rng, m, 3),
                     extra_cost = random_extra(rng, m, 3) }
      local p, c = m.grid:find_path(sx, sy, gx, gy, opts)
      if p then
        assert.is_true(m.grid:path_ok(p, 1, opts))
        assert.is_true(close(c, m.grid:path_cost(p, opts)))
      end
    end
  end)

  it("a one-tile path: open or not", function()
    local g = astar.new(3, 3)
    assert.is_true(g:path_ok({ 2, 2 }))
    assert.are.equal(0, g:path_cost({ 2, 2 }))
    g:set_blocked(2, 2)
    assert.are.same({ false, 1 }, { g:path_ok({ 2, 2 }) })
    assert.are.same({ nil, 1 }, { g:path_cost({ 2, 2 }) })
  end)

  it("the corner rule and the avoided tiles beside a diagonal", function()
    local g = astar.new(3, 3)
    local p = { 1, 1, 2, 2, 3, 3 }
    assert.is_true(g:path_ok(p))
    assert.are.same({ false, 2 }, { g:path_ok(p, 1, { avoid = { 2, 1 } }) })
    g:set_movement({ diagonals = "one_free" })
    assert.is_true(g:path_ok(p, 1, { avoid = { 2, 1 } }))
    assert.are.same({ false, 2 }, { g:path_ok(p, 1, { avoid = { 2, 1, 1, 2 } }) })
    -- the tile a unit stands on and the last tile are never avoided
    assert.is_true(g:path_ok(p, 1, { avoid = { 1, 1, 3, 3 } }))
    assert.are.same({ false, 2 }, { g:path_ok(p, 1, { avoid = { 2, 2 } }) })
    assert.is_true(g:path_ok(p, 2, { avoid = { 2, 2 } }))
  end)
end)

describe("avoid and extra_cost", function()
  it("equal the reference on a copy with those tiles blocked or dearer", function()
    local rng = helpers.rng(3003)
    for seed = 1, 200 do
      local m = new_case(rng)
      local unit = rng:chance(0.4) and "climber" or nil
      local sx, sy = random_tile(rng, m)
      local gx, gy = random_tile(rng, m)
      local opts = { unit = unit, stats = {} }
      if rng:chance(0.8) then opts.avoid = random_avoid(rng, m, rng:int(0, 10)) end
      if rng:chance(0.5) then opts.extra_cost = random_extra(rng, m, rng:int(0, 8)) end
      if rng:chance(0.2) then opts.zones = false end
      if rng:chance(0.2) then opts.algorithm = rng:pick({ "dijkstra", "astar" }) end
      local before, version = tostring(m.grid), m.grid:version()
      local d = desc(m, unit, opts.avoid, opts.extra_cost, { { sx, sy }, { gx, gy } })
      local want, why = helpers.dijkstra(d, sx, sy, gx, gy)
      local p, c = m.grid:find_path(sx, sy, gx, gy, opts)
      local label = ("seed %d rule %s (%d,%d)->(%d,%d)"):format(seed, m.rule, sx, sy, gx, gy)
      if want then
        assert.is_table(p, label)
        assert.is_true(close(want, c), label .. (" %s vs %s"):format(want, c))
        assert.is_truthy(helpers.check_path(d, p, sx, sy, gx, gy), label)
        assert.are.equal(opts.algorithm or "astar", opts.stats.algorithm)
      else
        assert.is_nil(p, label)
        assert.are.equal(why, c, label)
      end
      -- the grid is as it was, and a plain search sees no overlay
      assert.are.equal(before, tostring(m.grid))
      assert.are.equal(version, m.grid:version())
      local d0 = desc(m, unit)
      local w0 = helpers.dijkstra(d0, sx, sy, gx, gy)
      local _, c0 = m.grid:find_path(sx, sy, gx, gy, { unit = unit })
      if w0 then assert.is_true(close(w0, c0), label) end
    end
  end)

  it("a goal that avoid cuts off answers no_path, zones or not", function()
    local g = astar.new(40, 40)
    -- a ring of other units around the goal (20, 20)
    local ring = {}
    for dy = -1, 1 do
      for dx = -1, 1 do
        if dx ~= 0 or dy ~= 0 then
          ring[#ring + 1], ring[#ring + 2] = 20 + dx, 20 + dy
        end
      end
    end
    for _, zones in ipairs({ true, false }) do
      local p, why = g:find_path(1, 1, 20, 20, { avoid = ring, zones = zones })
      assert.is_nil(p)
      assert.are.equal("no_path", why)
      assert.is_nil(g:next_step(1, 1, 20, 20, { avoid = ring, zones = zones }))
    end
    -- the start and the goal may be in the list
    ring[#ring + 1], ring[#ring + 2] = 20, 20
    local p = g:find_path(20, 19, 20, 20, { avoid = ring })
    assert.are.same({ 20, 19, 20, 20 }, p)
    -- but the corner rule sees the others: no diagonal between two of them
    assert.is_nil(g:find_path(19, 19, 20, 20, { avoid = ring }))
    -- zones still answer at once between real regions
    g:fill_rect(30, 1, 1, 40, false)
    local q, why, expanded = g:find_path(1, 1, 35, 5, { avoid = ring })
    assert.are.same({ nil, "no_path", 0 }, { q, why, expanded })
  end)

  it("JPS takes no overlay: auto runs A*, 'jps' says why", function()
    local g = astar.new(20, 20)
    local st = {}
    g:find_path(1, 1, 20, 20, { stats = st })
    assert.are.equal("jps", st.algorithm)
    g:find_path(1, 1, 20, 20, { stats = st, avoid = { 5, 5 } })
    assert.are.equal("astar", st.algorithm)
    local msg = helpers.error_of(g.find_path, g, 1, 1, 20, 20,
      { algorithm = "jps", extra_cost = { 5, 5, 1 } })
    assert.is_truthy(msg:find("needs none of the options", 1, true))
    assert.is_truthy(msg:find("avoid, extra_cost", 1, true))
  end)

  it("tile_cost callbacks see avoided tiles as blocked, and extra costs add", function()
    local rng = helpers.rng(55)
    for _ = 1, 40 do
      local m = new_case(rng)
      local sx, sy = random_tile(rng, m)
      local gx, gy = random_tile(rng, m)
      local avoid, extra = random_avoid(rng, m, 5), random_extra(rng, m, 4)
      local a, ca = m.grid:find_path(sx, sy, gx, gy, { avoid = avoid, extra_cost = extra })
      local b, cb = m.grid:find_path(sx, sy, gx, gy, { avoid = avoid, extra_cost = extra,
        tile_cost = function(_, _, c) return c end })
      assert.are.equal(a == nil, b == nil)
      if a then assert.is_true(close(ca, cb)) end
    end
  end)
end)

describe("repair", function()
  it("is legal, and optimal when it searched afresh", function()
    local rng = helpers.rng(4004)
    local hows = {}
    for seed = 1, 200 do
      local m = new_case(rng, { rule = rng:pick(helpers.RULES) })
      local unit = rng:chance(0.3) and "climber" or nil
      local sx, sy = random_tile(rng, m)
      local gx, gy = random_tile(rng, m)
      local p = m.grid:find_path(sx, sy, gx, gy, { unit = unit })
      if p then
        local n = #p / 2
        -- walls on the path and around it
        for _ = 1, rng:int(0, 3) do
          local k = rng:int(1, n)
          local x, y = p[2 * k - 1], p[2 * k]
          if rng:chance(0.5) then x = math.min(m.width, x + 1) end
          set_wall(m, x, y, true)
        end
        if rng:chance(0.3) then random_edits(rng, m) end
        local at = rng:int(1, n)
        local opts = { unit = unit, stats = {} }
        if rng:chance(0.3) then opts.avoid = random_avoid(rng, m, 3) end
        local ax, ay = p[2 * at - 1], p[2 * at]
        local d = desc(m, unit, opts.avoid, nil, { { ax, ay }, { gx, gy } })
        local want, why = helpers.dijkstra(d, ax, ay, gx, gy)
        local out = rng:chance(0.5) and { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 } or nil
        local q, c, how = m.grid:repair(p, at, opts, out)
        local label = ("seed %d rule %s at %d path %s"):format(seed, m.rule, at,
          helpers.path_string(p))
        if q == nil then
          assert.is_nil(want, label)
          assert.are.equal(why, c, label)
          assert.are.equal("searched", opts.stats.how, label)
        else
          hows[how] = (hows[how] or 0) + 1
          if out then assert.are.equal(out, q) end
          local cost = helpers.check_path(d, q, ax, ay, gx, gy)
          assert.is_truthy(cost, label)
          assert.is_true(close(cost, c), label)
          assert.is_true(m.grid:path_ok(q, 1, { unit = unit, avoid = opts.avoid }), label)
          assert.is_truthy(want, label)
          assert.is_true(c >= want - 1e-9 * math.max(1, want), label)
          if how == "searched" then assert.is_true(close(want, c), label) end
          if how == "kept" then
            for i = 1, #q do assert.are.equal(p[2 * at - 2 + i], q[i], label) end
          end
          if how == "rejoined" then
            -- the end of the new path is the old path from the rejoin tile
            local r = opts.stats.rejoin
            local tail = #p - 2 * r
            for i = 0, tail - 1 do assert.are.equal(p[#p - i], q[#q - i], label) end
          end
          assert.are.equal(how, opts.stats.how)
        end
      end
    end
    assert.is_truthy(hows.kept and hows.rejoined, "kept and rejoined both seen")
  end)

  it("a repair costs the least of rejoining the window of the old path", function()
    -- an open room: a wall across the path; the detour rejoins it and the
    -- result is as cheap as a fresh search (the room has room to go round)
    local g = astar.new(30, 30)
    local p = g:find_path(2, 15, 29, 15)
    g:fill_rect(15, 10, 1, 11, false)
    local st = {}
    local q, c, how = g:repair(p, 1, { stats = st, max_nodes = 10000 })
    assert.are.equal("rejoined", how)
    local _, fresh, fresh_expanded = g:find_path(2, 15, 29, 15, { algorithm = "astar" })
    assert.is_true(close(fresh, c))
    assert.is_true(g:path_ok(q))
    assert.are.equal(14, st.bad)
    assert.is_true(st.expanded <= fresh_expanded)
  end)

  it("falls back to a fresh search past its budget, and says so", function()
    local g = astar.new(30, 30)
    local p = g:find_path(2, 15, 29, 15)
    g:fill_rect(15, 2, 1, 28, false)
    local st = {}
    local q, c, how = g:repair(p, 1, { max_nodes = 5, stats = st })
    assert.are.equal("searched", how)
    assert.are.equal("searched", st.how)
    local _, fresh = g:find_path(2, 15, 29, 15)
    assert.is_true(close(fresh, c))
    assert.is_true(g:path_ok(q))
  end)

  local dir = helpers.maps_dir()
  if not dir then
    helpers.missing_maps(it, pending, "the brc202d repair spec")
    return
  end
  it("brc202d: after a wall across a path, repairs are legal and never beat a fresh search #slow", function()
    local g = assert(astar.load_movingai(dir .. "/brc202d.map"))
    local scen = astar.read_scenarios(dir .. "/brc202d.map.scen")
    local rng = helpers.rng(9)
    for k = 1, 20 do
      local s = scen[rng:int(1, #scen)]
      local p = g:find_path(s.sx, s.sy, s.gx, s.gy)
      if p and #p > 20 then
        local n = #p / 2
        local i = rng:int(2, n - 1)
        local cx, cy = p[2 * i - 1], p[2 * i]
        local horizontal = rng:chance(0.5)
        local walls = {}
        for d = -3, 3 do
          local x, y = cx, cy
          if horizontal then x = x + d else y = y + d end
          if x >= 1 and y >= 1 and x <= g:width() and y <= g:height()
             and not g:is_blocked(x, y) then
            g:set_blocked(x, y)
            walls[#walls + 1] = { x, y }
          end
        end
        local q, c = g:repair(p, 1)
        local fp, fresh = g:find_path(p[1], p[2], p[#p - 1], p[#p])
        if q then
          assert.is_table(fp)
          assert.is_true(g:path_ok(q), "case " .. k)
          assert.is_true(c >= fresh - 1e-6, "case " .. k)
          assert.is_true(close(c, g:path_cost(q)), "case " .. k)
        else
          assert.is_nil(fp)
        end
        for _, w in ipairs(walls) do g:set_cost(w[1], w[2], 1) end
      end
    end
  end)
end)

describe("next_step remembers", function()
  it("follows its path on an unchanged grid, searches after an edit", function()
    local rng = helpers.rng(5005)
    for seed = 1, 40 do
      local m = new_case(rng, { rule = rng:pick(helpers.RULES) })
      local unit = rng:chance(0.3) and "climber" or nil
      local x, y = random_tile(rng, m)
      local gx, gy = random_tile(rng, m)
      local remembered = 0
      for step = 1, 40 do
        if step % 7 == 0 then random_edits(rng, m) end
        local version = m.grid:version()
        local st = {}
        local nx, ny, cost = m.grid:next_step(x, y, gx, gy, { unit = unit, stats = st })
        local fx, fy, fcost = m.grid:next_step(x, y, gx, gy,
          { unit = unit, remember = false })
        local label = ("seed %d step %d (%d,%d)->(%d,%d)"):format(seed, step, x, y, gx, gy)
        assert.are.equal(version, m.grid:version())
        if nx == nil then
          assert.is_nil(fx, label)
          assert.are.equal(ny, fy, label)
          break
        end
        assert.is_truthy(fx, label)
        assert.is_true(close(cost, fcost), label)
        if st.remembered then
          remembered = remembered + 1
        else
          -- a step that searched is the very step a search gives
          assert.are.equal(fx, nx, label)
          assert.are.equal(fy, ny, label)
        end
        -- the step is legal and leads on along a cheapest path
        local d = desc(m, unit)
        if nx ~= x or ny ~= y then
          local c = helpers.step_cost(d, x, y, nx - x, ny - y)
          assert.is_truthy(c, label)
          local rest = helpers.dijkstra(d, nx, ny, gx, gy)
          assert.is_true(close(c + rest, cost), label)
        else
          assert.are.equal(0, cost)
          break
        end
        x, y = nx, ny
      end
      assert.is_true(remembered >= 0)
    end
  end)

  it("the same moves as without remembering where paths are unique, edits between steps", function()
    -- real weights: equal-cost paths (ties) are next to impossible, so a
    -- search from any tile of a cheapest path follows that path
    local rng = helpers.rng(6006)
    local steps, from_memory = 0, 0
    for _ = 1, 30 do
      local w, h = rng:int(4, 12), rng:int(4, 12)
      local g1 = astar.new(w, h)
      local g2 = astar.new(w, h)
      local function edit(x, y, c)
        g1:set_cost(x, y, c)
        g2:set_cost(x, y, c)
      end
      for y = 1, h do
        for x = 1, w do
          local c = rng:int(256, 2559) / 256
          if rng:chance(0.15) then c = false end
          edit(x, y, c)
        end
      end
      local x1, y1 = rng:int(1, w), rng:int(1, h)
      local x2, y2 = x1, y1
      local gx, gy = rng:int(1, w), rng:int(1, h)
      for step = 1, 30 do
        if step % 6 == 0 then
          local c = 1.5
          if rng:chance(0.5) then c = false end
          edit(rng:int(1, w), rng:int(1, h), c)
        end
        local st = {}
        local a, b, c = g1:next_step(x1, y1, gx, gy, { stats = st })
        local d, e, f = g2:next_step(x2, y2, gx, gy, { remember = false })
        assert.are.same({ d, e, f }, { a, b, c })
        if a == nil or (a == x1 and b == y1) then break end
        steps = steps + 1
        if st.remembered then from_memory = from_memory + 1 end
        x1, y1, x2, y2 = a, b, d, e
      end
    end
    assert.is_true(from_memory > steps / 2, from_memory .. " of " .. steps)
  end)

  it("answers from memory only on the path, for the same goal and options", function()
    local g = astar.new(20, 20)
    local st = {}
    local p = g:find_path(1, 1, 20, 10)
    g:next_step(1, 1, 20, 10, { stats = st })
    assert.is_false(st.remembered)
    g:next_step(p[3], p[4], 20, 10, { stats = st })
    assert.is_true(st.remembered)
    assert.are.equal(0, st.expanded)
    g:next_step(p[5], p[6], 20, 10, { stats = st, weight = 2 })
    assert.is_false(st.remembered) -- other options
    g:next_step(p[5], p[6], 20, 10, { stats = st, weight = 2 })
    assert.is_true(st.remembered)
    g:next_step(p[5], p[6], 20, 11, { stats = st, weight = 2 })
    assert.is_false(st.remembered) -- another goal
    g:next_step(1, 20, 20, 11, { stats = st })
    assert.is_false(st.remembered) -- off the path
    g:next_step(1, 20, 20, 11, { stats = st, remember = false })
    assert.is_false(st.remembered)
    g:next_step(1, 20, 20, 11, { stats = st, avoid = { 2, 2 } })
    assert.is_false(st.remembered)
    g:next_step(1, 20, 20, 11, { stats = st })
    assert.is_true(st.remembered)
    g:set_cost(5, 5, 2)
    g:next_step(1, 20, 20, 11, { stats = st })
    assert.is_false(st.remembered) -- an edit
    local x, y, c = g:next_step(20, 11, 20, 11)
    assert.are.same({ 20, 11, 0 }, { x, y, c })
  end)
end)

describe("path helpers", function()
  local p = { 1, 1, 2, 2, 3, 2, 4, 3 }

  it("steps, path_length, reverse, points", function()
    local seen = {}
    for i, x, y in astar.steps(p) do seen[#seen + 1] = { i, x, y } end
    assert.are.same({ { 1, 1, 1 }, { 2, 2, 2 }, { 3, 3, 2 }, { 4, 4, 3 } }, seen)
    for _ in astar.steps({}) do error("no steps in an empty path") end
    assert.are.equal(4, astar.path_length(p))
    assert.are.equal(0, astar.path_length({}))
    assert.are.same({ 4, 3, 3, 2, 2, 2, 1, 1 }, astar.reverse(p))
    local out = { 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9 }
    assert.are.equal(out, astar.reverse(p, out))
    assert.are.same({ 4, 3, 3, 2, 2, 2, 1, 1 }, out)
    local q = { 1, 1, 2, 2, 3, 2 }
    assert.are.equal(q, astar.reverse(q, q))
    assert.are.same({ 3, 2, 2, 2, 1, 1 }, q)
    assert.are.same({ { x = 1, y = 1 }, { x = 2, y = 2 }, { x = 3, y = 2 },
                      { x = 4, y = 3 } }, astar.points(p))
  end)

  it("name the argument when a path is not a flat list of pairs", function()
    local function msg(f, ...) return helpers.error_of(f, ...) end
    assert.are.equal("bad argument #1 to 'steps' (path must be a table {x1, y1, x2, y2, ...}, got nil)",
      msg(astar.steps, nil))
    assert.are.equal("bad argument #1 to 'path_length' (path must hold x, y pairs (an even count of numbers), got 3 numbers)",
      msg(astar.path_length, { 1, 2, 3 }))
    assert.are.equal("bad argument #1 to 'reverse' (path[2] (y of tile 1) must be an integer >= 1, got 1.5)",
      msg(astar.reverse, { 1, 1.5 }))
    assert.are.equal("bad argument #2 to 'reverse' (out must be a table, got 5)",
      msg(astar.reverse, { 1, 1 }, 5))
    assert.are.equal("bad argument #1 to 'points' (path[1] (x of tile 1) must be an integer >= 1, got 'a')",
      msg(astar.points, { "a", 1 }))
    assert.are.equal("bad argument #1 to 'steps' (path[3] (x of tile 2) must be an integer >= 1, got 0)",
      msg(function() for _ in astar.steps({ 1, 1, 0, 1 }) do end end))
  end)
end)
