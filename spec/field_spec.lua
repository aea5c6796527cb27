-- Fields (grid:field): values against a reference Dijkstra run from the
-- goals over reversed steps, on random grids of every diagonal rule, hex,
-- step lengths, weights, unit classes with heights (asymmetric climb and
-- descend, limits), tile callbacks, start values, max_cost and both
-- directions; next_step, path, within, steps, directions, flee, combine,
-- reuse and the lifecycle.  Values are 32-bit floats: compared to 1e-5.
local astar = require("astar")
local helpers = require("helpers")

local REL = 1e-5
local floor = math.floor
local close = helpers.close
local DIRS = helpers.DIRS

-- ---- the reference: a multi-source Dijkstra in plain Lua ----

-- dist[i] (i = (y - 1) * w + x) from the sources {x, y, value} under
-- desc; "to": the cost from each tile to a source, "from": from a source.
local function reference(desc, sources, direction, max_cost, start_ok)
  start_ok = start_ok or helpers.tile
  local w, h = desc.width, desc.height
  local dist, done = {}, {}
  local hd, hn, size = {}, {}, 0
  local function push(d, n)
    size = size + 1
    local i = size
    while i > 1 do
      local p = floor(i / 2)
      if hd[p] <= d then break end
      hd[i], hn[i] = hd[p], hn[p]
      i = p
    end
    hd[i], hn[i] = d, n
  end
  local function pop()
    local d, n = hd[1], hn[1]
    local ld, ln = hd[size], hn[size]
    hd[size], hn[size] = nil, nil
    size = size - 1
    if size > 0 then
      local i = 1
      while true do
        local c = 2 * i
        if c > size then break end
        if c < size and hd[c + 1] < hd[c] then c = c + 1 end
        if hd[c] >= ld then break end
        hd[i], hn[i] = hd[c], hn[c]
        i = c
      end
      hd[i], hn[i] = ld, ln
    end
    return d, n
  end
  for _, s in ipairs(sources) do
    local n = (s[2] - 1) * w + s[1]
    if s[3] <= max_cost and (dist[n] == nil or s[3] < dist[n]) then
      dist[n] = s[3]
      push(s[3], n)
    end
  end
  while size > 0 do
    local d, n = pop()
    if not done[n] then
      done[n] = true
      local x, y = (n - 1) % w + 1, floor((n - 1) / w) + 1
      for k = 1, 8 do
        local dx, dy = DIRS[k][1], DIRS[k][2]
        local ox, oy = x + dx, y + dy
        if ox >= 1 and oy >= 1 and ox <= w and oy <= h then
          local c
          if direction == "to" then -- the step (ox, oy) -> (x, y)
            if start_ok(desc, ox, oy) then
              c = helpers.step_cost(desc, ox, oy, -dx, -dy)
            end
          else
            c = helpers.step_cost(desc, x, y, dx, dy)
          end
          local m = (oy - 1) * w + ox
          if c and not done[m] and d + c <= max_cost and
             (dist[m] == nil or d + c < dist[m]) then
            dist[m] = d + c
            push(d + c, m)
          end
        end
      end
    end
  end
  local out = {}
  for n in pairs(done) do out[n] = dist[n] end
  return out
end

-- ---- random cases: weights, walls, terrain, heights, a unit class ----

local function random_case(rng, opts)
  opts = opts or {}
  local w, h = opts.width or rng:int(1, 13), opts.height or rng:int(1, 13)
  local rule = opts.rule or rng:pick(helpers.ALL_RULES)
  local len = rng:pick(helpers.LENGTHS)
  local wall = rng:int(0, 40) / 100
  local real = rng:chance(0.4)
  local uniform = rng:chance(0.3)
  local cost, terrain, hgt = {}, {}, {}
  for i = 1, w * h do
    cost[i] = not rng:chance(wall) and
      (uniform and 1 or real and rng:int(1, 36) / 4 or rng:int(1, 4))
    terrain[i] = rng:int(0, 1)
    hgt[i] = 0
  end
  local g = astar.new(w, h, { diagonals = rule, cardinal = len.cardinal,
                              diagonal = len.diagonal })
  g:load(cost)
  local unit, mult, climb, descend, max_climb, max_drop
  if opts.unit ~= false and rng:chance(0.4) then
    unit = "walker"
    for i = 1, w * h do
      terrain[i] = rng:int(0, 1)
      hgt[i] = rng:int(0, 3)
      local x, y = (i - 1) % w + 1, floor((i - 1) / w) + 1
      g:set_terrain(x, y, terrain[i])
      g:set_height(x, y, hgt[i])
    end
    mult = { [0] = 1, [1] = rng:pick({ false, 2, 0.5 }) }
    climb = rng:pick({ 0, 0.5, 2 })
    descend = rng:pick({ 0, 0.25, 1 })
    max_climb = rng:chance(0.4) and rng:int(0, 2) or math.huge
    max_drop = rng:chance(0.3) and rng:int(0, 2) or math.huge
    g:set_unit(unit, { [0] = 1, [1] = mult[1] }, {
      climb = climb, descend = descend,
      max_climb = max_climb < math.huge and max_climb or nil,
      max_drop = max_drop < math.huge and max_drop or nil })
  end
  local desc = {
    width = w, height = h, diagonals = rule, cardinal = len.cardinal,
    diagonal = len.diagonal,
    cost = function(x, y)
      local i = (y - 1) * w + x
      local c = cost[i]
      if not c then return false end
      if unit then
        local k = mult[terrain[i]]
        if not k then return false end
        c = c * k
      end
      return c
    end,
  }
  if unit then
    desc.extra = function(x, y, nx, ny)
      local dh = hgt[(ny - 1) * w + nx] - hgt[(y - 1) * w + x]
      if dh > max_climb or -dh > max_drop then return false end
      if dh > 0 then return climb * dh end
      return descend * -dh
    end
  end
  return { grid = g, desc = desc, w = w, h = h, unit = unit, rule = rule,
           len = len, cost = cost }
end

-- A few passable goals (for the unit), or nil.
local function random_goals(rng, case, n)
  local goals = {}
  for _ = 1, 40 do
    local x, y = rng:int(1, case.w), rng:int(1, case.h)
    if case.desc.cost(x, y) then
      goals[#goals + 1] = x
      goals[#goals + 1] = y
      if #goals >= 2 * n then break end
    end
  end
  if #goals == 0 then return nil end
  return goals
end

local function label(seed, case, extra)
  return ("seed=%d %dx%d rule=%s lengths=%s unit=%s %s"):format(seed, case.w,
    case.h, case.rule, case.len.name, tostring(case.unit), extra or "")
end

-- The checks of one field against the reference.
local function check_field(f, case, sources, direction, max_cost, what,
                           start_ok)
  local ref = reference(case.desc, sources, direction, max_cost or math.huge,
                        start_ok)
  local w = case.w
  local goal_value = {}
  for _, s in ipairs(sources) do
    local n = (s[2] - 1) * w + s[1]
    if goal_value[n] == nil or s[3] < goal_value[n] then goal_value[n] = s[3] end
  end
  for y = 1, case.h do
    for x = 1, w do
      local n = (y - 1) * w + x
      local v = f:get(x, y)
      if ref[n] == nil then
        assert(v == nil, ("%s: (%d,%d) has %s, reference none"):format(
          what, x, y, tostring(v)))
      else
        assert(v ~= nil and close(v, ref[n], REL), ("%s: (%d,%d) = %s, " ..
          "reference %.9g"):format(what, x, y, tostring(v), ref[n]))
        -- the step downhill: legal, and it accounts for the value
        local nx, ny, step = f:next_step(x, y)
        if nx == nil then
          assert(ny == "goal", what .. ": reason " .. tostring(ny))
          assert(goal_value[n] ~= nil and close(v, goal_value[n], REL),
            ("%s: (%d,%d) stops but is no goal at its value"):format(what, x, y))
        else
          local c
          if direction == "to" then
            c = helpers.step_cost(case.desc, x, y, nx - x, ny - y)
          else
            c = helpers.step_cost(case.desc, nx, ny, x - nx, y - ny)
          end
          assert(c, ("%s: next_step (%d,%d) -> (%d,%d) is no legal move")
            :format(what, x, y, nx, ny))
          assert(close(c, step, REL), what .. ": step cost")
          assert(close(c + f:get(nx, ny), v, REL), ("%s: (%d,%d) -> (%d,%d)" ..
            ": %.9g + %.9g ~= %.9g"):format(what, x, y, nx, ny, c,
            f:get(nx, ny), v))
        end
        -- the path: legal moves to a goal, costing the difference
        local path, pcost = f:path(x, y)
        local m = #path
        local ex, ey = path[m - 1], path[m]
        if direction == "from" then ex, ey = path[1], path[2] end
        local en = (ey - 1) * w + ex
        assert(goal_value[en], what .. ": path ends at no goal")
        local sum = 0
        for k = 1, m - 2, 2 do
          local c = helpers.step_cost(case.desc, path[k], path[k + 1],
            path[k + 2] - path[k], path[k + 3] - path[k + 1])
          assert(c, what .. ": path makes an illegal move")
          sum = sum + c
        end
        assert(close(sum, pcost, REL), what .. ": path cost")
        assert(close(pcost, v - f:get(ex, ey), REL), what ..
          ": path cost is not the difference of the values")
      end
    end
  end
end

describe("fields", function()
  it("equal the reference Dijkstra (to and from, every rule, units, " ..
     "heights, values, max_cost) #slow", function()
    for seed = 1, 220 do
      local rng = helpers.rng(seed * 7919)
      local case = random_case(rng)
      local goals = random_goals(rng, case, rng:int(1, 3))
      if goals then
        local direction = rng:pick({ "to", "from" })
        local opts = { unit = case.unit, direction = direction }
        local sources = {}
        local values
        if rng:chance(0.3) then
          values = {}
          for k = 1, #goals / 2 do values[k] = rng:int(-4, 4) end
          opts.values = values
        end
        if rng:chance(0.25) then opts.max_cost = rng:int(0, 12) end
        for k = 1, #goals, 2 do
          sources[#sources + 1] = { goals[k], goals[k + 1],
                                    values and values[(k + 1) / 2] or 0 }
        end
        local f
        if #goals == 2 and rng:chance(0.5) then
          f = case.grid:field(goals[1], goals[2], opts)
        else
          f = case.grid:field(goals, opts)
        end
        check_field(f, case, sources, direction, opts.max_cost,
                    label(seed, case, direction))
      end
    end
  end)

  it("with a tile callback: its costs and closed tiles, the corner rule " ..
     "with them", function()
    for seed = 1, 40 do
      local rng = helpers.rng(seed * 104729)
      local case = random_case(rng, { unit = false })
      local goals = random_goals(rng, case, 2)
      if goals then
        local closed, factor = {}, {}
        for i = 1, case.w * case.h do
          closed[i] = rng:chance(0.15)
          factor[i] = rng:pick({ 1, 2, 0.5 })
        end
        -- the goals stay open (a goal the callback closes is still a goal)
        local base = case.desc.cost
        local calls = {}
        local function tile_cost(x, y, c)
          local i = (y - 1) * case.w + x
          calls[i] = (calls[i] or 0) + 1
          if closed[i] then return false end
          return c * factor[i]
        end
        case.desc.cost = function(x, y)
          local c = base(x, y)
          if not c then return false end
          local i = (y - 1) * case.w + x
          if closed[i] then return false end
          return c * factor[i]
        end
        for k = 1, #goals, 2 do
          closed[(goals[k + 1] - 1) * case.w + goals[k]] = false
        end
        local direction = rng:pick({ "to", "from" })
        local f = case.grid:field(goals, { tile_cost = tile_cost,
                                           direction = direction })
        for _, n in pairs(calls) do assert.are.equal(1, n) end
        local sources = {}
        for k = 1, #goals, 2 do sources[#sources + 1] = { goals[k], goals[k + 1], 0 } end
        -- a tile the callback closes is still a start (as for find_path)
        check_field(f, case, sources, direction, nil,
                    label(seed, case, direction .. " tile_cost"),
                    function(_, x, y) return base(x, y) end)
      end
    end
  end)

  it("match find_path's cost from every tile #slow", function()
    for seed = 1, 30 do
      local rng = helpers.rng(seed * 31337)
      local case = random_case(rng)
      local goals = random_goals(rng, case, 1)
      if goals then
        local gx, gy = goals[1], goals[2]
        local f = case.grid:field(gx, gy, { unit = case.unit })
        local t = case.grid:field(gx, gy, { unit = case.unit,
                                            direction = "from" })
        for y = 1, case.h do
          for x = 1, case.w do
            local p1, cost = case.grid:find_path(x, y, gx, gy,
                                                 { unit = case.unit })
            local p2, back = case.grid:find_path(gx, gy, x, y,
                                                 { unit = case.unit })
            if not p1 then cost = nil end
            if not p2 then back = nil end
            local v, u = f:get(x, y), t:get(x, y)
            assert(cost == v or close(cost, v, REL), ("seed %d (%d,%d) -> " ..
              "(%d,%d): find_path %s, field %s %s"):format(seed, x, y, gx, gy,
              tostring(cost), tostring(v), label(seed, case)))
            assert(back == u or close(back, u, REL), ("seed %d (%d,%d) -> " ..
              "(%d,%d): find_path %s, field %s"):format(seed, gx, gy, x, y,
              tostring(back), tostring(u)))
          end
        end
      end
    end
  end)

  it("are breadth-first on uniform steps and agree with the heap", function()
    for _, rule in ipairs({ "never", "hex", "always" }) do
      local g = astar.new(30, 20, { diagonals = rule, diagonal = 1 })
      local rng = helpers.rng(5)
      for y = 1, 20 do
        for x = 1, 30 do
          if rng:chance(0.25) then g:set_blocked(x, y, true) end
        end
      end
      g:set_blocked(1, 1, false)
      g:set_cost(30, 20, 1) -- still uniform
      local f = g:field(1, 1)
      -- a callback that changes nothing forces the heap
      local h = g:field(1, 1, { tile_cost = function(_, _, c) return c end })
      for y = 1, 20 do
        for x = 1, 30 do assert.are.equal(h:get(x, y), f:get(x, y)) end
      end
      local w = f:within(5)
      for k = 1, #w, 2 do assert.is_true(f:get(w[k], w[k + 1]) <= 5) end
    end
  end)
end)

describe("field reading", function()
  local g
  before_each(function()
    g = astar.from_string([[
..........
.####.###.
.#......#.
.#.####.#.
...#....#.
]])
  end)

  it("within lists the tiles within a cost, cheapest first", function()
    local f = g:field(1, 1, { direction = "from" })
    local out = { "old", "old", "old", "old", "old", "old", "old", "old",
                  "old", "old", "old", "old", "old", "old", "old", "old",
                  "old", "old", "old", "old", "old", "old", "old", "old" }
    local t, n = f:within(3, out)
    assert.are.equal(out, t)
    local want = 0
    for y = 1, 5 do
      for x = 1, 10 do
        local v = f:get(x, y)
        if v and v <= 3 then want = want + 1 end
      end
    end
    assert.are.equal(want, n)
    assert.are.equal(2 * n, #t)
    local last = -1
    for k = 1, #t, 2 do
      local v = f:get(t[k], t[k + 1])
      assert.is_true(v >= last and v <= 3)
      last = v
    end
    assert.are.equal(0, select(2, f:within(-1)))
  end)

  it("within misses no tile on an octile field (the bucket ring closes " ..
     "a bucket's tiles in any order)", function()
    -- 1 and sqrt 2 share a bucket: order was 0 1 1 1.41 2 2.41 2 ...,
    -- and within stopped at the first value past the cost (fuzz_field)
    local f = astar.new(3, 5):field(1, 1)
    for _, c in ipairs({ 1.2, 2.2, 2.5, 3.1 }) do
      local want = 0
      for y = 1, 5 do
        for x = 1, 3 do
          if f:get(x, y) <= c then want = want + 1 end
        end
      end
      local t, n = f:within(c)
      assert.are.equal(want, n)
      for k = 1, #t, 2 do assert.is_true(f:get(t[k], t[k + 1]) <= c) end
    end
  end)

  it("next_step leaves no tile of a flee map stuck near 0", function()
    -- (6, 7) is worth -0.0426, reached from (6, 6) at -1.0426 + 1: the
    -- tolerance, a few float units of -0.0426, was below -1.0426's own
    -- rounding, so next_step answered "goal" (fuzz_field)
    local m = astar.from_string([[
........
########
........
........
........
.####..#
#.#.....
##......
]])
    m:set_movement({ diagonals = "one_free" })
    local f = m:field({ 1, 1, 8, 8, 8, 1 }, { values = { 1, -3, 0 } })
    local flee = f:flee(-1.2)
    assert.are.same({ 6, 6, 1 }, { flee:next_step(6, 7) })
    for y = 1, 8 do
      for x = 1, 8 do
        local v = flee:get(x, y)
        if v and not flee:next_step(x, y) then -- only at its seed value
          assert.is_true(close(v, -1.2 * f:get(x, y), REL))
        end
      end
    end
  end)

  it("directions: one code per tile, the step next_step takes", function()
    local f = g:field(10, 5)
    local s = f:directions()
    assert.are.equal(50, #s)
    for y = 1, 5 do
      for x = 1, 10 do
        local code = s:byte((y - 1) * 10 + x)
        local nx, ny = f:next_step(x, y)
        if nx then
          assert.are.equal(nx, x + astar.FLOW_DX[code])
          assert.are.equal(ny, y + astar.FLOW_DY[code])
        else
          assert.are.equal(0, code)
        end
      end
    end
  end)

  it("next_step with a seed spreads over equal-best steps", function()
    local open = astar.new(9, 9, { diagonals = "never" })
    local f = open:field(5, 1)
    local seen = {}
    for seed = 1, 60 do
      local x, y = f:next_step(1, 9, seed)
      seen[x .. "," .. y] = true
      assert.is_true((x == 2 and y == 9) or (x == 1 and y == 8))
    end
    assert.is_true(seen["2,9"] and seen["1,8"])
    -- the same seed, the same step
    assert.are.same({ f:next_step(1, 9, 42) }, { f:next_step(1, 9, 42) })
    -- no seed: the first in direction order (N E S W ...)
    local x, y = f:next_step(1, 9)
    assert.are.same({ 1, 8 }, { x, y })
  end)

  it("steps moves every unit one tile; units at a goal or without a " ..
     "value stay", function()
    local f = g:field(3, 3)
    local pos = { 1, 1, 3, 3, 10, 5, 7, 5 }
    local out = f:steps(pos, {})
    assert.are.equal(8, #out)
    for k = 1, #pos, 2 do
      local nx, ny = f:next_step(pos[k], pos[k + 1])
      if not nx then nx, ny = pos[k], pos[k + 1] end
      assert.are.equal(nx, out[k])
      assert.are.equal(ny, out[k + 1])
    end
    assert.are.same({ 3, 3 }, { out[3], out[4] })
    local g2 = astar.from_string("..#..")
    local f2 = g2:field(1, 1)
    assert.are.same({ 5, 1, 1, 1 }, f2:steps({ 5, 1, 2, 1 }))
    assert.is_nil(f2:get(5, 1))
    assert.are.same({ nil, "no_path" }, { f2:next_step(5, 1) })
    assert.are.same({ nil, "no_path" }, { f2:path(4, 1) })
    assert.are.same({ nil, "goal" }, { f2:next_step(1, 1) })
    local p, c = f2:path(1, 1)
    assert.are.same({ 1, 1 }, p)
    assert.are.equal(0, c)
  end)

  it("flee: units never end next to the threat while a far tile is " ..
     "reachable #slow", function()
    for seed = 1, 60 do
      local rng = helpers.rng(seed * 65537)
      local w, h = rng:int(3, 14), rng:int(3, 14)
      local rule = rng:pick(helpers.RULES)
      local grid = astar.new(w, h, { diagonals = rule })
      for y = 1, h do
        for x = 1, w do
          if rng:chance(0.3) then grid:set_blocked(x, y, true) end
        end
      end
      local tx, ty = rng:int(1, w), rng:int(1, h)
      grid:set_blocked(tx, ty, false)
      local f = grid:field(tx, ty)
      local flee = f:flee()
      local far = 0
      for y = 1, h do
        for x = 1, w do far = math.max(far, f:get(x, y) or 0) end
      end
      for y = 1, h do
        for x = 1, w do
          if f:get(x, y) then
            local cx, cy, n = x, y, 0
            while true do
              local nx, ny = flee:next_step(cx, cy)
              if not nx then break end
              assert.is_true(flee:get(nx, ny) < flee:get(cx, cy))
              cx, cy, n = nx, ny, n + 1
              assert.is_true(n <= w * h)
            end
            local near = math.abs(cx - tx) <= 1 and math.abs(cy - ty) <= 1
            -- a tile at threat distance d has a flee value of at most
            -- d_E + d - 1.2 d through the threat: any reachable tile
            -- farther than 11 times the end's distance beats staying
            if near then
              assert(far <= 11 * f:get(cx, cy) + 1e-9, ("seed %d: ended at " ..
                "(%d,%d) next to the threat (%d,%d), a tile %.3g away is " ..
                "reachable"):format(seed, cx, cy, tx, ty, far))
            end
          end
        end
      end
    end
  end)

  it("flee: the rescanned field of k times the values", function()
    for seed = 1, 30 do
      local rng = helpers.rng(seed * 7907)
      local case = random_case(rng)
      local goals = random_goals(rng, case, 1)
      if goals then
        local direction = rng:pick({ "to", "from" })
        local f = case.grid:field(goals, { unit = case.unit,
                                           direction = direction })
        local k = rng:pick({ -1.2, -2, -0.5, 1 })
        local flee = f:flee(k)
        local sources = {}
        for y = 1, case.h do
          for x = 1, case.w do
            local v = f:get(x, y)
            if v then sources[#sources + 1] = { x, y, k * v } end
          end
        end
        check_field(flee, case, sources, direction, nil,
                    label(seed, case, "flee " .. k))
        -- in place, with reuse
        f:flee(k, f)
        for y = 1, case.h do
          for x = 1, case.w do assert.are.equal(flee:get(x, y), f:get(x, y)) end
        end
      end
    end
  end)

  it("combine: weighted sums, rescanned when asked", function()
    local a = g:field(1, 1)
    local b = g:field(10, 5)
    local s = astar.combine({ a, 1, b, 2 })
    for y = 1, 5 do
      for x = 1, 10 do
        local va, vb = a:get(x, y), b:get(x, y)
        if va and vb then
          assert.is_true(close(s:get(x, y), va + 2 * vb, REL))
        else
          assert.is_nil(s:get(x, y))
        end
      end
    end
    local r = astar.combine({ a, 1, b, -1.2 }, { rescan = true })
    for y = 1, 5 do
      for x = 1, 10 do
        local v = r:get(x, y)
        if s:get(x, y) then
          assert.is_true(v <= a:get(x, y) - 1.2 * b:get(x, y) + 1e-4)
        end
        local nx, ny, c = r:next_step(x, y)
        if nx then assert.is_true(close(c + r:get(nx, ny), v, REL)) end
      end
    end
  end)

  it("reuse overwrites in place; reuse and steps make no Lua garbage",
     function()
    local big = astar.new(60, 60)
    big:set_cost(5, 5, 3) -- not uniform: the heap build
    local f = big:field(1, 1)
    local goals, opts = { 30, 30, 2, 59 }, nil
    local pos, out = {}, {}
    for k = 1, 200 do pos[k] = (k % 60) + 1 end
    f:steps(pos, out)
    assert.are.equal(f, big:field(goals, opts, f))
    collectgarbage()
    collectgarbage("stop")
    -- LuaJIT's trace compiler allocates memory the count includes, at
    -- moments of its own: measured with it off, this counts only what the
    -- calls make
    local jit = rawget(_G, "jit")
    if jit then jit.off(); jit.flush() end
    -- one warm-up round: after a full collection Lua 5.2 regrows the
    -- stack and its call frames once
    big:field(goals, opts, f)
    big:field(7, 7, nil, f)
    f:steps(pos, out)
    local before = collectgarbage("count")
    for _ = 1, 50 do
      big:field(goals, opts, f)
      big:field(7, 7, nil, f)
      f:steps(pos, out)
      f:next_step(40, 40)
      f:get(3, 3)
    end
    local grown = collectgarbage("count") - before
    collectgarbage("restart")
    if jit then jit.on() end
    -- Lua 5.2 under busted shows about 60 bytes per round here (not in a
    -- plain script, where it is 0 as on every other runtime): not
    -- explained yet, bounded, and far below one table per call
    local limit = _VERSION == "Lua 5.2" and 4 or 1
    assert.is_true(grown < limit, ("%.2f KB of garbage"):format(grown))
    assert.are.equal(0, f:get(7, 7))
  end)

  it("builds leave the grid's last path alone", function()
    local path = g:find_path(1, 1, 10, 5)
    local before = g:memory()
    g:field(10, 5)
    assert.are.equal(before, g:memory())
    assert.are.same(path, (g:find_path(1, 1, 10, 5)))
  end)

  it("lifecycle: close is idempotent, tostring, memory, version, size",
     function()
    local f = g:field(1, 1)
    assert.are.same({ 10, 5 }, { f:size() })
    assert.matches("^astar%.Field 10x5 to", tostring(f))
    assert.is_true(f:memory() >= 4 * 50)
    assert.are.equal(g:version(), f:version())
    g:set_cost(2, 1, 3)
    assert.is_true(g:version() > f:version())
    f:close()
    f:close()
    assert.is_true(f:is_closed())
    assert.are.equal("astar.Field (closed)", tostring(f))
    assert.matches("the field is closed", helpers.error_of(f.get, f, 1, 1))
    assert.matches("the field is closed",
                   helpers.error_of(g.field, g, 1, 1, nil, f))
    -- a closed grid: values still read, following needs the grid
    local h = g:field(1, 1)
    g:close()
    assert.are.equal(0, h:get(1, 1))
    assert.matches("the grid is closed", helpers.error_of(h.next_step, h, 2, 1))
  end)

  it("a callback that edits the grid or rebuilds the field gets a clear " ..
     "error, and both stay usable", function()
    local f = g:field(1, 1)
    local err = helpers.error_of(g.field, g, 10, 5, { tile_cost = function()
      g:set_cost(1, 1, 2)
      return 1
    end })
    assert.matches("busy", err)
    err = helpers.error_of(g.field, g, 10, 5, { tile_cost = function()
      f:get(1, 1)
      return 1
    end }, f)
    assert.matches("the field is busy", err)
    err = helpers.error_of(g.field, g, 10, 5, { tile_cost = function()
      error("boom")
    end })
    assert.matches("boom", err)
    assert.are.equal(0, g:field(1, 1, nil, f):get(1, 1))
    g:set_cost(1, 1, 2)
  end)

  it("a callback that closes the field being rebuilt, or the grid, " ..
     "crashes nothing", function()
    local f = g:field(1, 1)
    local r = g:field(10, 5, { tile_cost = function(_, _, c)
      f:close()
      return c
    end }, f)
    assert.are.equal(f, r)
    assert.is_true(f:is_closed())
    assert.matches("the field is closed", helpers.error_of(f.get, f, 1, 1))
    local h = g:field(10, 5, { tile_cost = function(_, _, c)
      g:close()
      return c
    end })
    assert.are.equal(0, h:get(10, 5))
    assert.is_true(g:is_closed())
    assert.matches("the grid is closed", helpers.error_of(h.path, h, 1, 1))
    assert.matches("the grid is closed", helpers.error_of(h.flee, h))
    h:close()
  end)
end)
