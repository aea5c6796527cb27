-- Line of sight, smoothing and any-angle search (docs/api.md, "Natural
-- paths"), against references written here in plain Lua:
--  * line_of_sight against exact rational geometry: the segment between
--    tile centres (in doubled, integer coordinates) is clipped against
--    every tile it could cross, and every grid vertex it passes through is
--    judged by the corner rule; symmetric; sizes through brute-force
--    clearance;
--  * smooth: every leg in line of sight, never longer, never dearer;
--  * Theta* and Lazy Theta*: every leg in line of sight, never shorter
--    than the exact any-angle optimum (a visibility graph over convex
--    corners), never longer than the 8-way optimum.
local astar = require("astar")
local helpers = require("helpers")

local sqrt, abs = math.sqrt, math.abs
local RULES = { "no_corner_cut", "one_free", "always", "never" }

local function random_walls(rng, w, h, density)
  local wall = {}
  for i = 1, w * h do wall[i] = rng:chance(density) end
  return wall
end

local function make_grid(w, h, wall, rule, weight)
  local g = astar.new(w, h, { diagonals = rule })
  for y = 1, h do
    for x = 1, w do
      local i = (y - 1) * w + x
      if weight then g:set_cost(x, y, weight[i]) end
      if wall[i] then g:set_blocked(x, y, true) end
    end
  end
  return g
end

-- free(x, y): the tile (1-based) exists and is open.
local function free_fn(w, h, wall)
  return function(x, y)
    return x >= 1 and y >= 1 and x <= w and y <= h and
           not wall[(y - 1) * w + x]
  end
end

-- Exact line of sight between the centres of (x0, y0) and (x1, y1).
-- Doubled coordinates: centre of tile x is 2x - 1, tile x spans
-- [2x - 2, 2x].  Returns true, or false and the set of blocking reasons.
local function ref_los(free, rule, x0, y0, x1, y1)
  local px, py, qx, qy = 2 * x0 - 1, 2 * y0 - 1, 2 * x1 - 1, 2 * y1 - 1
  local dx, dy = qx - px, qy - py
  local xlo, xhi = math.min(x0, x1), math.max(x0, x1)
  local ylo, yhi = math.min(y0, y1), math.max(y0, y1)
  -- does the segment cross the open square of tile (cx, cy)?  Liang-
  -- Barsky on t in [0, 1], comparing fractions n/d with d > 0.
  local function crosses(cx, cy)
    local lo_n, lo_d, hi_n, hi_d = 0, 1, 1, 1
    local function clip(p, d, a, b) -- a < p + t d < b
      if d == 0 then return p > a and p < b end
      local n1, n2 = a - p, b - p
      local dd = d
      if dd < 0 then n1, n2, dd = -n2, -n1, -dd end
      -- t in (n1/dd, n2/dd)
      if n1 * lo_d > lo_n * dd then lo_n, lo_d = n1, dd end
      if n2 * hi_d < hi_n * dd then hi_n, hi_d = n2, dd end
      return true
    end
    if not clip(px, dx, 2 * cx - 2, 2 * cx) then return false end
    if not clip(py, dy, 2 * cy - 2, 2 * cy) then return false end
    return lo_n * hi_d < hi_n * lo_d
  end
  for cy = ylo, yhi do
    for cx = xlo, xhi do
      if crosses(cx, cy) and not free(cx, cy) then return false end
    end
  end
  -- vertices on the segment: (2vx, 2vy) with zero cross product
  for vy = ylo, yhi - 1 do
    for vx = xlo, xhi - 1 do
      local ex, ey = 2 * vx - px, 2 * vy - py
      if ex * dy - ey * dx == 0 then
        -- grazed tiles: the two the segment does not enter
        local a, b
        if (dx > 0) == (dy > 0) then
          a, b = free(vx + 1, vy), free(vx, vy + 1)
        else
          a, b = free(vx, vy), free(vx + 1, vy + 1)
        end
        if rule == "one_free" then
          if not (a or b) then return false end
        elseif rule ~= "always" then
          if not (a and b) then return false end
        end
      end
    end
  end
  return true
end

local function seg_len(x0, y0, x1, y1)
  return sqrt((x1 - x0) ^ 2 + (y1 - y0) ^ 2)
end

local function path_length(p)
  local s = 0
  for k = 3, #p, 2 do s = s + seg_len(p[k - 2], p[k - 1], p[k], p[k + 1]) end
  return s
end

---------------------------------------------------------------------------
-- The exact any-angle optimum (the convention of
-- ../shared/maps-anyangle/README.md): bends at convex corners; a segment
-- may touch a blocked tile's corner or run along its edge, but not cross
-- its inside, run between two blocked tiles, or squeeze through a point
-- where two blocked tiles touch diagonally.  All in doubled coordinates.
---------------------------------------------------------------------------

local function vg_visible(free, ax, ay, bx, by)
  local dx, dy = bx - ax, by - ay
  local x0, x1 = math.min(ax, bx), math.max(ax, bx)
  local y0, y1 = math.min(ay, by), math.max(ay, by)
  for cy = math.floor(y0 / 2) + 1, math.floor((y1 - 1) / 2) + 1 do
    for cx = math.floor(x0 / 2) + 1, math.floor((x1 - 1) / 2) + 1 do
      if not free(cx, cy) then
        -- open square (2cx-2, 2cx) x (2cy-2, 2cy)
        local lo_n, lo_d, hi_n, hi_d = 0, 1, 1, 1
        local ok = true
        local function clip(p, d, a, b)
          if d == 0 then
            if not (p > a and p < b) then ok = false end
            return
          end
          local n1, n2, dd = a - p, b - p, d
          if dd < 0 then n1, n2, dd = -n2, -n1, -dd end
          if n1 * lo_d > lo_n * dd then lo_n, lo_d = n1, dd end
          if n2 * hi_d < hi_n * dd then hi_n, hi_d = n2, dd end
        end
        clip(ax, dx, 2 * cx - 2, 2 * cx)
        clip(ay, dy, 2 * cy - 2, 2 * cy)
        if ok and lo_n * hi_d < hi_n * lo_d then return false end
      end
    end
  end
  -- along a grid line: not between two blocked tiles
  if dx == 0 and ax % 2 == 0 then
    local vx = ax / 2
    for cy = y0 / 2 + 1, y1 / 2 do
      if cy == math.floor(cy) and not free(vx, cy) and not free(vx + 1, cy) then
        return false
      end
    end
  end
  if dy == 0 and ay % 2 == 0 then
    local vy = ay / 2
    for cx = x0 / 2 + 1, x1 / 2 do
      if cx == math.floor(cx) and not free(cx, vy) and not free(cx, vy + 1) then
        return false
      end
    end
  end
  -- through a vertex where two blocked tiles touch only diagonally
  for vy = math.ceil(y0 / 2), math.floor(y1 / 2) do
    for vx = math.ceil(x0 / 2), math.floor(x1 / 2) do
      local px, py = 2 * vx, 2 * vy
      if (px - ax) * dy - (py - ay) * dx == 0 and
         not (px == ax and py == ay) and not (px == bx and py == by) then
        local nw, ne = free(vx, vy), free(vx + 1, vy)
        local sw, se = free(vx, vy + 1), free(vx + 1, vy + 1)
        if (not nw and not se and ne and sw) or
           (not ne and not sw and nw and se) then
          return false
        end
      end
    end
  end
  return true
end

local function any_angle_optimum(w, h, free, sx, sy, gx, gy)
  local pts = { { 2 * sx - 1, 2 * sy - 1 }, { 2 * gx - 1, 2 * gy - 1 } }
  for vy = 0, h do
    for vx = 0, w do
      local n = 0
      for _, c in ipairs({ { vx, vy }, { vx + 1, vy }, { vx, vy + 1 },
                           { vx + 1, vy + 1 } }) do
        if not free(c[1], c[2]) then n = n + 1 end
      end
      if n == 1 then pts[#pts + 1] = { 2 * vx, 2 * vy } end
    end
  end
  local dist, done = { [1] = 0 }, {}
  while true do
    local best, bi
    for i = 1, #pts do
      if dist[i] and not done[i] and (not best or dist[i] < best) then
        best, bi = dist[i], i
      end
    end
    if not best then return nil end
    if bi == 2 then return best / 2 end
    done[bi] = true
    local a = pts[bi]
    for j = 1, #pts do
      if not done[j] then
        local b = pts[j]
        local d = best + seg_len(a[1], a[2], b[1], b[2])
        if (not dist[j] or d < dist[j]) and
           vg_visible(free, a[1], a[2], b[1], b[2]) then
          dist[j] = d
        end
      end
    end
  end
end

---------------------------------------------------------------------------

describe("line_of_sight", function()
  it("equals exact rational geometry on random segments, both ways", function()
    local rng = helpers.rng(1811)
    local n, blocked = 0, 0
    for case = 1, 60 do
      local w, h = rng:int(2, 14), rng:int(2, 14)
      local wall = random_walls(rng, w, h, rng:int(0, 40) / 100)
      local rule = RULES[rng:int(1, 4)]
      local g = make_grid(w, h, wall, rule)
      local free = free_fn(w, h, wall)
      for _ = 1, 40 do
        local x0, y0 = rng:int(1, w), rng:int(1, h)
        local x1, y1 = rng:int(1, w), rng:int(1, h)
        local want = ref_los(free, rule == "always" and "always" or "one_free",
                             x0, y0, x1, y1)
        local got, bx, by = g:line_of_sight(x0, y0, x1, y1)
        local back = g:line_of_sight(x1, y1, x0, y0)
        local where = ("case %d %s (%d,%d)->(%d,%d)"):format(case, rule, x0, y0, x1, y1)
        assert(got == want, where .. ": got " .. tostring(got))
        assert(back == got, where .. ": not symmetric")
        if not got then
          -- the blocking tile is blocked, or grazed at a corner
          assert(bx >= 1 and by >= 1 and bx <= w and by <= h, where)
          assert(not free(bx, by), where .. ": blocking tile is free")
          blocked = blocked + 1
        end
        n = n + 1
      end
    end
    assert.is_true(n == 2400 and blocked > 300 and blocked < 2200)
  end)

  it("may touch a blocked corner, never squeeze between two", function()
    local text = [[
.#.
...
...
]]
    for _, rule in ipairs({ "no_corner_cut", "one_free", "always", "never" }) do
      local g = astar.from_string(text, nil, { diagonals = rule })
      -- (1,2) -> (2,1) enters (2,1): blocked for every rule
      assert.same({ false, 2, 1 }, { g:line_of_sight(1, 2, 2, 1) })
      -- (1,1) -> (2,2) and on to (3,3) touch the corner of (2,1)
      assert.is_true(g:line_of_sight(1, 1, 2, 2))
      assert.is_true(g:line_of_sight(3, 3, 1, 1))
    end
    local squeeze = [[
.#.
#..
...
]]
    for _, rule in ipairs({ "no_corner_cut", "one_free", "never" }) do
      local g = astar.from_string(squeeze, nil, { diagonals = rule })
      assert.same({ false, 2, 1 }, { g:line_of_sight(1, 1, 2, 2) })
      assert.same({ false, 1, 2 }, { g:line_of_sight(3, 3, 1, 1) })
    end
    local g3 = astar.from_string(squeeze, nil, { diagonals = "always" })
    assert.is_true(g3:line_of_sight(1, 1, 3, 3))
    -- every legal step is in line of sight
    for _, rule in ipairs(RULES) do
      local rng = helpers.rng(7)
      local wall = random_walls(rng, 8, 8, 0.3)
      local gg = make_grid(8, 8, wall, rule)
      for y = 1, 8 do
        for x = 1, 8 do
          for dy = -1, 1 do
            for dx = -1, 1 do
              local nx, ny = x + dx, y + dy
              if nx >= 1 and ny >= 1 and nx <= 8 and ny <= 8 and
                 not wall[(y - 1) * 8 + x] then
                local p = gg:find_path(x, y, nx, ny, { max_length = 1 })
                if p and #p == 4 then
                  assert.is_true(gg:line_of_sight(x, y, nx, ny))
                end
              end
            end
          end
        end
      end
    end
  end)

  it("for a size, is the line of sight over clearance >= size", function()
    local rng = helpers.rng(1812)
    for case = 1, 30 do
      local w, h = rng:int(4, 12), rng:int(4, 12)
      local wall = random_walls(rng, w, h, rng:int(0, 20) / 100)
      local rule = RULES[rng:int(1, 3)]
      local g = make_grid(w, h, wall, rule)
      local s = rng:int(2, 3)
      local function fits(x, y)
        for dy = 0, s - 1 do
          for dx = 0, s - 1 do
            local xx, yy = x + dx, y + dy
            if xx > w or yy > h or wall[(yy - 1) * w + xx] then return false end
          end
        end
        return x >= 1 and y >= 1 and x <= w and y <= h
      end
      for _ = 1, 30 do
        local x0, y0 = rng:int(1, w), rng:int(1, h)
        local x1, y1 = rng:int(1, w), rng:int(1, h)
        local want = ref_los(fits, rule == "always" and "always" or "one_free",
                             x0, y0, x1, y1)
        local got = g:line_of_sight(x0, y0, x1, y1, nil, s)
        assert(got == want, ("case %d size %d (%d,%d)->(%d,%d)"):format(case, s, x0, y0, x1, y1))
      end
    end
  end)

  it("rejects bad arguments", function()
    local g = astar.new(5, 5)
    assert.are.equal("bad argument #4 to 'line_of_sight' (x2 out of range 1..5, got 6)",
      helpers.error_of(function() g:line_of_sight(1, 1, 6, 1) end))
    assert.are.equal("bad argument #7 to 'line_of_sight' (size out of range 1..5, got 9)",
      helpers.error_of(function() g:line_of_sight(1, 1, 2, 1, nil, 9) end))
    assert.are.equal("bad argument #7 to 'line_of_sight' (size must be an integer, got 2.5)",
      helpers.error_of(function() g:line_of_sight(1, 1, 2, 1, nil, 2.5) end))
    local hex = astar.new(5, 5, { diagonals = "hex" })
    assert.are.equal("line_of_sight: not available on a hex grid",
      helpers.error_of(function() hex:line_of_sight(1, 1, 2, 1) end))
  end)
end)

-- The cost of a leg by the documented rule (docs/api.md): one step what
-- the search pays; longer: Euclidean length times the dearest tile
-- entered (the start tile not counted).
local function leg_cost(w, weight, rule, x0, y0, x1, y1)
  local dx, dy = x1 - x0, y1 - y0
  if dx == 0 and dy == 0 then return 0 end
  local c = weight[(y1 - 1) * w + x1]
  if abs(dx) <= 1 and abs(dy) <= 1 then
    return (dx ~= 0 and dy ~= 0) and sqrt(2) * c or c
  end
  -- the dearest tile entered: tiles whose inside the segment crosses
  local top = 0
  local px, py, qx, qy = 2 * x0 - 1, 2 * y0 - 1, 2 * x1 - 1, 2 * y1 - 1
  for cy = math.min(y0, y1), math.max(y0, y1) do
    for cx = math.min(x0, x1), math.max(x0, x1) do
      if not (cx == x0 and cy == y0) and
         ref_los(function(x, y) return not (x == cx and y == cy) end,
                 "always", x0, y0, x1, y1) == false then
        top = math.max(top, weight[(cy - 1) * w + cx])
      end
    end
  end
  local _ = px + py + qx + qy
  return seg_len(x0, y0, x1, y1) * top
end

describe("smooth", function()
  it("keeps legs in sight, never longer, never dearer (random grids)", function()
    local rng = helpers.rng(1813)
    local smoothed = 0
    for case = 1, 80 do
      local w, h = rng:int(3, 14), rng:int(3, 14)
      local wall = random_walls(rng, w, h, rng:int(0, 30) / 100)
      local weighted = rng:chance(0.5)
      local weight = {}
      for i = 1, w * h do weight[i] = weighted and rng:int(1, 4) or 1 end
      local rule = RULES[rng:int(1, 4)]
      local g = make_grid(w, h, wall, rule, weight)
      local sx, sy, gx, gy = rng:int(1, w), rng:int(1, h), rng:int(1, w), rng:int(1, h)
      local path, cost = g:find_path(sx, sy, gx, gy)
      if path then
        local s = g:smooth(path)
        local where = ("case %d %s"):format(case, rule)
        assert.are.equal(path[1], s[1])
        assert.are.equal(path[2], s[2])
        assert.are.equal(path[#path - 1], s[#s - 1])
        assert.are.equal(path[#path], s[#s])
        assert(path_length(s) <= path_length(path) + 1e-9, where)
        local c = 0
        for k = 3, #s, 2 do
          assert(g:line_of_sight(s[k - 2], s[k - 1], s[k], s[k + 1]), where)
          c = c + leg_cost(w, weight, rule, s[k - 2], s[k - 1], s[k], s[k + 1])
        end
        assert(c <= cost * (1 + 1e-9) + 1e-12, where .. ": dearer " .. c .. " > " .. cost)
        if #s < #path then smoothed = smoothed + 1 end
        -- in place, and into a reused table
        local copy = { (table.unpack or unpack)(path) }
        assert.are.equal(copy, g:smooth(copy, copy))
        assert.same(s, copy)
        local out = { 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9 }
        assert.same(s, g:smooth(path, out))
      end
    end
    assert.is_true(smoothed > 20)
  end)

  it("straightens an open room to one leg", function()
    local g = astar.new(20, 10)
    local path = g:find_path(1, 1, 20, 7)
    assert.same({ 1, 1, 20, 7 }, g:smooth(path))
    -- a wall in the way: one bend
    for y = 1, 8 do g:set_blocked(10, y, true) end
    path = g:find_path(1, 1, 20, 1)
    local s = g:smooth(path)
    assert.is_true(#s >= 6 and #s < #path)
  end)

  it("respects the size of a unit", function()
    local g = astar.from_string([[
........
........
...#....
........
........
]])
    local path = g:find_path(1, 1, 7, 4, { size = 2 })
    local s = g:smooth(path, nil, { size = 2 })
    for k = 3, #s, 2 do
      assert.is_true(g:line_of_sight(s[k - 2], s[k - 1], s[k], s[k + 1], nil, 2))
    end
    -- the 2 x 2 unit must go round the pillar; a one-tile unit need not
    assert.is_false(g:line_of_sight(1, 1, 7, 4, nil, 2))
    assert.is_true(#s > 4)
    assert.same({ 1, 1, 7, 1 }, g:smooth((g:find_path(1, 1, 7, 1))))
  end)

  it("rejects bad paths", function()
    local g = astar.from_string([[
.....
.###.
.....
]])
    local function err(f) return helpers.error_of(f) end
    assert.are.equal("bad argument #2 to 'smooth' (path crosses a blocked tile at (3, 2) between waypoints 1 and 2)",
      err(function() g:smooth({ 3, 1, 3, 3 }) end))
    assert.are.equal("bad argument #2 to 'smooth' (path must be a flat list of x, y pairs, got 3 numbers)",
      err(function() g:smooth({ 1, 1, 2 }) end))
    assert.are.equal("bad argument #2 to 'smooth' (path[3] (x of waypoint 2) out of range 1..5, got 6)",
      err(function() g:smooth({ 1, 1, 6, 1 }) end))
    assert.are.equal("bad argument #2 to 'smooth' (path[2] must be an integer, got 'a')",
      err(function() g:smooth({ 1, "a" }) end))
    assert.are.equal("bad argument #2 to 'smooth' (path must be a table, got nil)",
      err(function() g:smooth(nil) end))
    assert.are.equal("bad argument #3 to 'smooth' (out must be a table, got 5)",
      err(function() g:smooth({ 1, 1 }, 5) end))
    assert.are.equal("bad argument #4 to 'smooth' (unknown option 'sizes')",
      err(function() g:smooth({ 1, 1 }, nil, { sizes = 2 }) end))
    assert.are.equal("bad argument #2 to 'smooth' (path crosses a blocked tile at (2, 2) between waypoints 1 and 2)",
      err(function() g:smooth({ 1, 1, 2, 2 }) end))
    -- still usable
    assert.same({ 1, 1, 5, 1 }, g:smooth({ 1, 1, 2, 1, 3, 1, 4, 1, 5, 1 }))
    assert.same({}, g:smooth({}))
    assert.same({ 2, 3 }, g:smooth({ 2, 3 }))
  end)
end)

describe("any-angle search", function()
  it("stays between the exact optimum and the 8-way optimum", function()
    local rng = helpers.rng(1814)
    local n, shorter = 0, 0
    for case = 1, 70 do
      local w, h = rng:int(3, 11), rng:int(3, 11)
      local wall = random_walls(rng, w, h, rng:int(0, 30) / 100)
      local rule = RULES[rng:int(1, 4)]
      local g = make_grid(w, h, wall, rule)
      local free = free_fn(w, h, wall)
      local sx, sy, gx, gy = rng:int(1, w), rng:int(1, h), rng:int(1, w), rng:int(1, h)
      local p8, eight = g:find_path(sx, sy, gx, gy, { algorithm = "astar" })
      if not p8 then eight = nil end
      local best = (eight and rule ~= "always") and
        any_angle_optimum(w, h, free, sx, sy, gx, gy) or nil
      for _, algorithm in ipairs({ "theta", "lazy_theta" }) do
        local where = ("case %d %s %s (%d,%d)->(%d,%d)"):format(case, rule, algorithm, sx, sy, gx, gy)
        local p, c = g:find_path(sx, sy, gx, gy, { algorithm = algorithm })
        assert((p ~= nil) == (eight ~= nil), where)
        if p then
          assert.are.equal(sx, p[1])
          assert.are.equal(gy, p[#p])
          for k = 3, #p, 2 do
            assert(g:line_of_sight(p[k - 2], p[k - 1], p[k], p[k + 1]), where)
          end
          assert(helpers.close(c, path_length(p), 1e-9), where)
          assert(c <= eight * (1 + 1e-12), where .. ": longer than 8-way")
          if best then
            assert(c >= best * (1 - 1e-12), where .. (": %.9f below optimum %.9f"):format(c, best))
          end
          if c < eight - 1e-9 then shorter = shorter + 1 end
          n = n + 1
        end
      end
    end
    assert.is_true(n > 60 and shorter > 20)
  end)

  it("keeps every long leg in sight on larger grids (legs taken as seen)", function()
    -- Theta* takes a leg as in sight, without walking it, when the two
    -- tiles just behind its end are seen from its start: each leg against
    -- the exact reference (steep legs by column bits under the default
    -- rule, by the walk under the others)
    local rng = helpers.rng(1827)
    local legs = 0
    for case = 1, 60 do
      local w, h = rng:int(12, 40), rng:int(12, 40)
      local wall = random_walls(rng, w, h, rng:int(0, 35) / 100)
      local rule = RULES[rng:int(1, 4)]
      local g = make_grid(w, h, wall, rule)
      local free = free_fn(w, h, wall)
      for _ = 1, 6 do
        local sx, sy, gx, gy = rng:int(1, w), rng:int(1, h), rng:int(1, w), rng:int(1, h)
        for _, algorithm in ipairs({ "theta", "lazy_theta" }) do
          local p = g:find_path(sx, sy, gx, gy, { algorithm = algorithm })
          for k = 3, p and #p or 0, 2 do
            local x0, y0, x1, y1 = p[k - 2], p[k - 1], p[k], p[k + 1]
            assert(ref_los(free, rule == "always" and "always" or "one_free",
                           x0, y0, x1, y1),
              ("case %d %s %s: leg (%d,%d)->(%d,%d)"):format(case, rule, algorithm, x0, y0, x1, y1))
            if math.abs(x1 - x0) > 1 or math.abs(y1 - y0) > 1 then legs = legs + 1 end
          end
        end
      end
    end
    assert.is_true(legs > 200)
  end)

  it("keeps its bounds when steps differ widely in length", function()
    -- a long diagonal step: legs beat it, the bounds hold
    local rng = helpers.rng(1816)
    for case = 1, 30 do
      local w, h = rng:int(6, 16), rng:int(6, 16)
      local wall = random_walls(rng, w, h, rng:int(0, 25) / 100)
      local diag = ({ 1, 3, 20 })[rng:int(1, 3)]
      local g = astar.new(w, h, { diagonal = diag })
      for i = 1, w * h do
        if wall[i] then g:set_blocked((i - 1) % w + 1, math.floor((i - 1) / w) + 1, true) end
      end
      local sx, sy, gx, gy = rng:int(1, w), rng:int(1, h), rng:int(1, w), rng:int(1, h)
      local p8, eight = g:find_path(sx, sy, gx, gy, { algorithm = "astar" })
      if not p8 then eight = nil end
      for _, algorithm in ipairs({ "theta", "lazy_theta" }) do
        local where = ("case %d diagonal %g %s"):format(case, diag, algorithm)
        local p, c = g:find_path(sx, sy, gx, gy, { algorithm = algorithm })
        assert((p ~= nil) == (eight ~= nil), where)
        if p then
          assert(c <= eight * (1 + 1e-12), where .. ": longer than 8-way")
          for k = 3, #p, 2 do
            assert(g:line_of_sight(p[k - 2], p[k - 1], p[k], p[k + 1]), where)
          end
        end
      end
    end
  end)

  it("is never dearer than 8-way on weighted grids; takes size", function()
    local rng = helpers.rng(1815)
    for case = 1, 40 do
      local w, h = rng:int(4, 12), rng:int(4, 12)
      local wall = random_walls(rng, w, h, rng:int(0, 20) / 100)
      local weight = {}
      for i = 1, w * h do weight[i] = rng:int(1, 4) end
      local rule = RULES[rng:int(1, 4)]
      local g = make_grid(w, h, wall, rule, weight)
      local size = rng:int(1, 2)
      local sx, sy, gx, gy = rng:int(1, w), rng:int(1, h), rng:int(1, w), rng:int(1, h)
      local p8, eight = g:find_path(sx, sy, gx, gy, { algorithm = "astar", size = size })
      if not p8 then eight = nil end
      for _, algorithm in ipairs({ "theta", "lazy_theta" }) do
        local where = ("case %d %s %s"):format(case, rule, algorithm)
        local p, c = g:find_path(sx, sy, gx, gy, { algorithm = algorithm, size = size })
        assert((p ~= nil) == (eight ~= nil), where)
        if p then
          assert(c <= eight * (1 + 1e-12), where)
          local lc = 0
          for k = 3, #p, 2 do
            assert(g:line_of_sight(p[k - 2], p[k - 1], p[k], p[k + 1], nil, size), where)
            lc = lc + leg_cost(w, weight, rule, p[k - 2], p[k - 1], p[k], p[k + 1])
          end
          if size == 1 then assert(helpers.close(lc, c, 1e-9), where) end
        end
      end
    end
  end)

  it("next_step gives the first waypoint; refusals are worded", function()
    local g = astar.new(10, 10)
    local x, y, c = g:next_step(1, 1, 10, 4, { algorithm = "theta" })
    assert.are.equal(10, x)
    assert.are.equal(4, y)
    assert.is_true(helpers.close(c, sqrt(81 + 9), 1e-12))
    local function err(f) return helpers.error_of(f) end
    assert.are.equal("bad argument #6 to 'find_path' (algorithm 'theta' needs no cost callbacks (tile_cost, move_cost))",
      err(function() g:find_path(1, 1, 2, 2, { algorithm = "theta", tile_cost = function() return 1 end }) end))
    assert.are.equal("bad argument #6 to 'find_path' (algorithm 'lazy_theta' needs the default heuristic)",
      err(function() g:find_path(1, 1, 2, 2, { algorithm = "lazy_theta", heuristic = "manhattan" }) end))
    local hex = astar.new(5, 5, { diagonals = "hex" })
    assert.are.equal("bad argument #6 to 'find_path' (algorithm 'theta' needs a square grid (not hex))",
      err(function() hex:find_path(1, 1, 2, 2, { algorithm = "theta" }) end))
    for _, algorithm in ipairs({ "theta", "lazy_theta" }) do
      local p, why = g:find_path(1, 1, 10, 10, { algorithm = algorithm, max_nodes = 2 })
      assert.is_nil(p)
      assert.are.equal("cutoff", why)
      -- the budget spent on the last open tile: nothing left, no path
      local walled = astar.new(3, 3)
      for y = 1, 3 do walled:set_blocked(2, y, true) end
      walled:set_blocked(2, 2, false)
      walled:set_blocked(3, 2, true)
      p, why = walled:find_path(1, 1, 3, 3, { algorithm = algorithm, max_nodes = 4, zones = false })
      assert.is_nil(p)
      assert.are.equal("no_path", why)
    end
  end)
end)
