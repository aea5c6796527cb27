-- Clearance and large units (docs/api.md, "Large units"), against brute
-- force written here in plain Lua:
--  * grid:clearance(x, y [, unit]) equals the side of the largest square
--    of enterable tiles anchored there, computed square by square, after
--    every one of thousands of random edits;
--  * find_path with size = 2, 3, 4 costs what a Dijkstra over footprints
--    costs (a state is the top-left tile of an s x s square that lies on
--    tiles the unit can enter; a diagonal step obeys the grid's rule on
--    the two orthogonal footprints; a step costs what the anchor tile
--    costs), with unit classes, every diagonal rule, A* and JPS;
--  * zones with a size agree with it (different zones: no path).
local astar = require("astar")
local helpers = require("helpers")

local SQRT2 = math.sqrt(2)
local RULES = { "no_corner_cut", "one_free", "always", "never" }

local function new_model(rng, w, h)
  local m = { w = w, h = h, wall = {}, weight = {}, terrain = {} }
  local density = rng:int(0, 25) / 100
  for i = 1, w * h do
    m.wall[i] = rng:chance(density)
    m.weight[i] = rng:chance(0.7) and 1 or rng:int(1, 3)
    m.terrain[i] = rng:int(0, 2)
  end
  return m
end

local MULT = { -- unit -> terrain -> multiplier (false: impassable)
  default = { [0] = 1, 1, 1 },
  boat = { [0] = 1, false, 2 },
}

local function build(m, rule)
  local g = astar.new(m.w, m.h, { diagonals = rule,
                                  terrains = { "t0", "t1", "t2" } })
  for y = 1, m.h do
    for x = 1, m.w do
      local i = (y - 1) * m.w + x
      g:set_cost(x, y, m.weight[i])
      g:set_terrain(x, y, m.terrain[i])
      if m.wall[i] then g:set_blocked(x, y, true) end
    end
  end
  g:set_unit("boat", { t1 = false, t2 = 2 })
  return g
end

-- The unit's cost on tile (x, y), or nil when it cannot enter it.
local function cost(m, unit, x, y)
  if x < 1 or y < 1 or x > m.w or y > m.h then return nil end
  local i = (y - 1) * m.w + x
  if m.wall[i] then return nil end
  local k = MULT[unit][m.terrain[i]]
  if not k then return nil end
  return m.weight[i] * k
end

local function fits(m, unit, x, y, s)
  for dy = 0, s - 1 do
    for dx = 0, s - 1 do
      if not cost(m, unit, x + dx, y + dy) then return false end
    end
  end
  return true
end

local function clearance(m, unit, x, y)
  local s = 0
  while s < 255 and fits(m, unit, x, y, s + 1) do s = s + 1 end
  return s
end

local DIRS = { { 0, -1 }, { 1, 0 }, { 0, 1 }, { -1, 0 },
               { 1, -1 }, { 1, 1 }, { -1, 1 }, { -1, -1 } }

-- Dijkstra over footprints: the cheapest cost from (sx, sy) to (gx, gy)
-- of an s x s unit's top-left tile, or nil.
local function footprint_dijkstra(m, unit, rule, s, sx, sy, gx, gy, blocked)
  local function ok(x, y)
    if not fits(m, unit, x, y, s) then return false end
    if blocked then -- avoided tiles: no footprint covers one
      for dy = 0, s - 1 do
        for dx = 0, s - 1 do
          if blocked(x + dx, y + dy) then return false end
        end
      end
    end
    return true
  end
  if not ok(sx, sy) or not ok(gx, gy) then return nil end
  local dist, done = {}, {}
  local function key(x, y) return (y - 1) * m.w + x end
  dist[key(sx, sy)] = 0
  while true do
    local best, bx, by
    for y = 1, m.h do
      for x = 1, m.w do
        local d = dist[key(x, y)]
        if d and not done[key(x, y)] and (not best or d < best) then
          best, bx, by = d, x, y
        end
      end
    end
    if not best then return nil end
    if bx == gx and by == gy then return best end
    done[key(bx, by)] = true
    local ndirs = rule == "never" and 4 or 8
    for d = 1, ndirs do
      local dx, dy = DIRS[d][1], DIRS[d][2]
      local nx, ny = bx + dx, by + dy
      local legal = ok(nx, ny)
      if legal and d > 4 then
        local a, b = ok(bx + dx, by), ok(bx, by + dy)
        if rule == "no_corner_cut" then legal = a and b
        elseif rule == "one_free" then legal = a or b end
      end
      if legal then
        local c = best + (d > 4 and SQRT2 or 1) * cost(m, unit, nx, ny)
        local k = key(nx, ny)
        if not dist[k] or c < dist[k] then dist[k] = c end
      end
    end
  end
end

describe("clearance", function()
  it("is the side of the largest free square anchored at the tile", function()
    local g = astar.from_string([[
.....
.#...
.....
...#.
]])
    assert.are.equal(1, g:clearance(1, 1))
    assert.are.equal(0, g:clearance(2, 2))
    assert.are.equal(3, g:clearance(3, 1))
    assert.are.equal(2, g:clearance(1, 3))
    assert.are.equal(1, g:clearance(5, 4))
    assert.are.equal(0, g:clearance(4, 4))
  end)

  it("equals brute force after thousands of random edits, per unit", function()
    local rng = helpers.rng(1801)
    local edits = 0
    for case = 1, 12 do
      local m = new_model(rng, rng:int(3, 12), rng:int(3, 12))
      local g = build(m, RULES[rng:int(1, 4)])
      local function compare(when)
        for _, unit in ipairs({ "default", "boat" }) do
          for y = 1, m.h do
            for x = 1, m.w do
              local want = clearance(m, unit, x, y)
              local got = g:clearance(x, y, unit)
              if got ~= want then
                error(("case %d %s: clearance(%d, %d, %s) = %d, want %d")
                  :format(case, when, x, y, unit, got, want))
              end
            end
          end
        end
      end
      compare("built")
      for e = 1, 250 do
        local x, y = rng:int(1, m.w), rng:int(1, m.h)
        local i = (y - 1) * m.w + x
        local kind = rng:int(1, 10)
        if kind <= 6 then
          m.wall[i] = not m.wall[i]
          g:set_blocked(x, y, m.wall[i])
        elseif kind <= 8 then
          m.terrain[i] = rng:int(0, 2)
          g:set_terrain(x, y, m.terrain[i])
        elseif kind == 9 then
          local c = rng:int(1, 3)
          m.weight[i], m.wall[i] = c, false
          g:set_cost(x, y, c)
        else -- a bulk edit: everything is recomputed
          local v = rng:chance(0.5)
          if v then g:fill_rect(x, y, 1, 1, false)
          else g:fill_rect(x, y, 1, 1, 1) end
          m.wall[i] = v
          if not v then m.weight[i] = 1 end
        end
        edits = edits + 1
        -- the incremental update is checked after every edit on some
        -- cases, every 25 edits on the others
        if case <= 3 or e % 25 == 0 then compare("after edit " .. e) end
      end
    end
    assert.is_true(edits >= 3000)
  end)

  it("caps at 255 and reads 0 on blocked tiles", function()
    local g = astar.new(300, 300)
    assert.are.equal(255, g:clearance(1, 1))
    assert.are.equal(46, g:clearance(255, 255))
    g:set_blocked(10, 10, true)
    assert.are.equal(0, g:clearance(10, 10))
    assert.are.equal(9, g:clearance(1, 1))
    assert.are.equal(1, g:clearance(9, 10))
  end)
end)

-- find_path's answer (path, cost) against the reference's cost (nil: no
-- path): true when there is a path (its cost checked), false when none
local function answers(where, path, got, want)
  if want == nil then
    assert(path == nil, where .. ": found a path, want none")
    return false
  end
  assert(path, where .. ": no path, want " .. want)
  assert(helpers.close(got, want, 1e-9), where .. ": cost " ..
         tostring(got) .. ", want " .. want)
  return true
end

describe("find_path with size", function()
  it("equals a Dijkstra over footprints (sizes 2-4, units, rules)", function()
    local rng = helpers.rng(1802)
    local checked, found = 0, 0
    for case = 1, 120 do
      local m = new_model(rng, rng:int(4, 10), rng:int(4, 10))
      local rule = RULES[rng:int(1, 4)]
      local g = build(m, rule)
      for _ = 1, 4 do
        local s = rng:int(2, 4)
        local unit = rng:chance(0.5) and "boat" or "default"
        -- mostly anchors where the unit fits
        local fit = {}
        for y = 1, m.h do
          for x = 1, m.w do
            if fits(m, unit, x, y, s) then fit[#fit + 1] = { x, y } end
          end
        end
        local function anchor()
          if #fit > 0 and rng:chance(0.9) then
            local a = fit[rng:int(1, #fit)]
            return a[1], a[2]
          end
          return rng:int(1, m.w), rng:int(1, m.h)
        end
        local sx, sy = anchor()
        local gx, gy = anchor()
        local want = footprint_dijkstra(m, unit, rule, s, sx, sy, gx, gy)
        for _, algorithm in ipairs({ "auto", "astar", "dijkstra" }) do
          local path, got = g:find_path(sx, sy, gx, gy,
            { size = s, unit = unit, algorithm = algorithm })
          local where = ("case %d %s size %d %s %s (%d,%d)->(%d,%d)")
            :format(case, rule, s, unit, algorithm, sx, sy, gx, gy)
          if answers(where, path, got, want) then
            -- every tile of the path is a footprint that fits
            for k = 1, #path, 2 do
              assert(fits(m, unit, path[k], path[k + 1], s), where)
            end
            found = found + 1
          end
          checked = checked + 1
        end
        -- zones: different zones mean no path
        local apart = not g:connected(sx, sy, gx, gy, unit, s)
        if want ~= nil then
          assert(not apart, ("case %d %s size %d %s (%d,%d)->(%d,%d): zones apart, path %s")
            :format(case, rule, s, unit, sx, sy, gx, gy, want))
        end
        if fits(m, unit, sx, sy, s) and fits(m, unit, gx, gy, s) and
           want == nil then
          assert(apart, ("case %d %s size %d %s (%d,%d)->(%d,%d): zones together, no path\n%s")
            :format(case, rule, s, unit, sx, sy, gx, gy, tostring(g)))
        end
      end
    end
    assert.is_true(found > 100 and checked > 1000)
  end)

  it("path_ok, path_cost and repair take size: brute-force footprint "
    .. "steps, after random edits", function()
    -- the first illegal tile of path from `from` on for an s x s unit
    -- (nil: none) and the cost from there to the end
    local function ref_check(m, unit, rule, s, path, from)
      local function ok(x, y) return fits(m, unit, x, y, s) end
      local x, y = path[2 * from - 1], path[2 * from]
      if not ok(x, y) then return from, 0 end
      local sum = 0
      for i = from + 1, #path / 2 do
        local nx, ny = path[2 * i - 1], path[2 * i]
        local dx, dy = nx - x, ny - y
        local diag = dx ~= 0 and dy ~= 0
        local legal = math.abs(dx) <= 1 and math.abs(dy) <= 1 and
                      (dx ~= 0 or dy ~= 0) and ok(nx, ny) and
                      not (diag and rule == "never")
        if legal and diag then
          local a, b = ok(x + dx, y), ok(x, y + dy)
          if rule == "no_corner_cut" then legal = a and b
          elseif rule == "one_free" then legal = a or b end
        end
        if not legal then return i, sum end
        sum = sum + (diag and SQRT2 or 1) * cost(m, unit, nx, ny)
        x, y = nx, ny
      end
      return nil, sum
    end
    local rng = helpers.rng(2018)
    local checks, bad_seen, repairs, hows = 0, 0, 0, {}
    for case = 1, 150 do
      local m = new_model(rng, rng:int(5, 10), rng:int(5, 10))
      local rule = RULES[rng:int(1, 4)]
      local g = build(m, rule)
      local s = rng:int(2, 3)
      local unit = rng:chance(0.5) and "boat" or "default"
      local o = { size = s, unit = unit }
      local fit = {}
      for y = 1, m.h do
        for x = 1, m.w do
          if fits(m, unit, x, y, s) then fit[#fit + 1] = { x, y } end
        end
      end
      local function anchor()
        if #fit > 0 and rng:chance(0.9) then
          local a = fit[rng:int(1, #fit)]
          return a[1], a[2]
        end
        return rng:int(1, m.w), rng:int(1, m.h)
      end
      local function edit()
        local x, y = rng:int(1, m.w), rng:int(1, m.h)
        local i = (y - 1) * m.w + x
        m.wall[i] = not m.wall[i]
        g:set_blocked(x, y, m.wall[i])
      end
      for _ = 1, 6 do
        -- a found path (legal until edits) or a random walk
        local sx, sy = anchor()
        local gx, gy = anchor()
        local path = g:find_path(sx, sy, gx, gy, o)
        if not path or rng:chance(0.2) then
          path = { sx, sy }
          for _ = 1, rng:int(0, 12) do
            local d = DIRS[rng:int(1, 8)]
            local x = math.max(1, math.min(m.w, path[#path - 1] + d[1]))
            local y = math.max(1, math.min(m.h, path[#path] + d[2]))
            path[#path + 1] = x
            path[#path + 1] = y
          end
        end
        for _ = 1, rng:pick({ 0, 0, 1, 2 }) do edit() end
        local n = #path / 2
        local where = ("case %d %s size %d %s, %d tiles"):format(case, rule,
          s, unit, n)
        local from = rng:int(1, n)
        local bad, sum = ref_check(m, unit, rule, s, path, from)
        local ok, at = g:path_ok(path, from, o)
        if bad then
          bad_seen = bad_seen + 1
          assert(ok == false and at == bad, where .. ": path_ok says " ..
            tostring(ok) .. ", " .. tostring(at) .. ", want false, " .. bad)
        else
          assert(ok == true, where .. ": path_ok false at " .. tostring(at))
        end
        bad, sum = ref_check(m, unit, rule, s, path, 1)
        local c, idx = g:path_cost(path, o)
        if bad then
          assert(c == nil and idx == bad, where .. ": path_cost")
        else
          assert(helpers.close(c, sum, 1e-9), where .. ": cost " ..
            tostring(c) .. ", want " .. sum)
        end
        checks = checks + 1
        -- repair from a tile of the path: legal, ends where the path
        -- ends, optimal when it searched afresh
        local ro = { size = s, unit = unit }
        if rng:chance(0.3) then ro.max_nodes = 1 end -- then afresh
        local p2, c2, how = g:repair(path, from, ro)
        local tx, ty = path[2 * n - 1], path[2 * n]
        local fx, fy = path[2 * from - 1], path[2 * from]
        local best = footprint_dijkstra(m, unit, rule, s, fx, fy, tx, ty)
        if p2 then
          repairs = repairs + 1
          hows[how] = true
          assert.are.equal(fx, p2[1])
          assert.are.equal(fy, p2[2])
          assert.are.equal(tx, p2[#p2 - 1])
          assert.are.equal(ty, p2[#p2])
          local b2, s2 = ref_check(m, unit, rule, s, p2, 1)
          assert(b2 == nil, where .. ": repair (" .. how ..
            ") gave an illegal step at " .. tostring(b2))
          assert(helpers.close(c2, s2, 1e-9), where .. ": repair cost")
          assert(best and s2 >= best - 1e-9, where .. ": beats Dijkstra")
          if how == "searched" then
            assert(helpers.close(c2, best, 1e-9), where ..
              ": a fresh search costs " .. c2 .. ", want " .. best)
          end
        else
          assert(best == nil, where .. ": repair found no path, want " ..
            tostring(best))
        end
      end
    end
    assert.is_true(bad_seen > 100 and checks - bad_seen > 100, checks ..
      " checks, " .. bad_seen .. " illegal")
    assert.is_true(repairs > 150, repairs .. " repairs")
    assert.is_true(hows.kept and hows.rejoined and hows.searched and true
      or false)
  end)

  it("next_step with a size never follows a one-tile unit's path",
    function()
    local g = astar.from_string([[
..........
..........
####.###..
..........
..........
]])
    -- the one-tile unit takes the gap at x = 5; a 2 x 2 unit goes round
    local x1, y1, c1 = g:next_step(1, 1, 1, 4)
    assert.are.same({ 2, 2 }, { x1, y1 })
    local st = {}
    local x, y, c = g:next_step(1, 1, 1, 4, { size = 2, stats = st })
    local _, want = g:find_path(1, 1, 1, 4, { size = 2 })
    assert.is_false(st.remembered)
    assert.is_true(helpers.close(want, c, 1e-12))
    assert.is_true(c > c1)
    assert.is_true(g:clearance(x, y) >= 2)
  end)

  it("runs JPS on the sized layer when the costs are uniform", function()
    local g = astar.from_string([[
..........
..........
....##....
..........
..........
##......##
..........
]])
    local stats = {}
    local p1, c1 = g:find_path(1, 1, 7, 6, { size = 2, stats = stats })
    assert.are.equal("jps", stats.algorithm)
    local p2, c2 = g:find_path(1, 1, 7, 6, { size = 2, algorithm = "astar" })
    assert.truthy(p1 and p2)
    assert.is_true(helpers.close(c1, c2, 1e-12))
    -- a 2 x 2 unit cannot take the 1-tile gap at the right of row 3
    assert.is_nil((g:find_path(1, 1, 1, 6, { size = 3 })))
  end)

  it("sees edits made after a search (incremental sized layers)", function()
    local g = astar.new(8, 5)
    assert.truthy(g:find_path(1, 1, 7, 1, { size = 2 }))
    for y = 1, 5 do g:set_blocked(4, y, true) end
    assert.is_nil((g:find_path(1, 1, 7, 1, { size = 2 })))
    assert.is_false(g:connected(1, 1, 7, 1, nil, 2))
    g:set_blocked(4, 3, false)
    -- a one-tile gap: fine for size 1, not for size 2
    assert.truthy(g:find_path(1, 1, 7, 1))
    assert.is_nil((g:find_path(1, 1, 7, 1, { size = 2 })))
    g:set_blocked(4, 4, false)
    local path = g:find_path(1, 1, 7, 1, { size = 2 })
    assert.truthy(path)
    assert.are.equal(1, g:zone_count(nil, 2))
    assert.is_true(g:connected(1, 1, 7, 1, nil, 2))
  end)

  it("next_step takes size", function()
    local g = astar.from_string([[
......
.#....
......
......
]])
    local x, y = g:next_step(1, 3, 5, 1, { size = 2 })
    assert.truthy(x)
    assert.is_true(g:clearance(x, y) >= 2)
  end)

  it("avoid keeps a big unit's whole footprint off; extra_cost is read at "
     .. "its top-left tile (docs/api.md)", function()
    local g = astar.from_string("......\n......\n......\n......")
    local straight = { 1, 1, 2, 1, 3, 1, 4, 1, 5, 1 }
    local function covers(p, x, y)
      for k = 1, #p - 1, 2 do
        if p[k] <= x and x <= p[k] + 1 and p[k + 1] <= y and y <= p[k + 1] + 1 then
          return true
        end
      end
      return false
    end
    -- (3, 2) lies under the straight path's footprints: the path goes round
    local p, c = g:find_path(1, 1, 5, 1, { size = 2, avoid = { 3, 2 } })
    assert.truthy(p)
    assert.is_false(covers(p, 3, 2))
    assert.is_true(c > 4)
    assert.are.equal(5, p[#p - 1])
    assert.are.equal(1, p[#p])
    -- listing every top-left position that covers it (the way before
    -- session 16) gives the same
    local cover = {}
    for j = 0, 1 do
      for i = 0, 1 do
        cover[#cover + 1] = 3 - i
        cover[#cover + 1] = 2 - j
      end
    end
    local p2, c2 = g:find_path(1, 1, 5, 1, { size = 2, avoid = cover })
    assert.are.same(p, p2)
    assert.are.equal(c, c2)
    -- the same rule in path_ok and path_cost
    assert.is_false((g:path_ok(straight, 1, { size = 2, avoid = { 3, 2 } })))
    assert.is_nil((g:path_cost(straight, { size = 2, avoid = { 3, 2 } })))
    assert.is_true(g:path_ok(p, 1, { size = 2, avoid = { 3, 2 } }))
    -- the unit's own tiles at the start and at the goal are never avoided
    p, c = g:find_path(1, 1, 5, 1, { size = 2,
      avoid = { 1, 1, 2, 1, 1, 2, 2, 2, 5, 1, 6, 1, 5, 2, 6, 2 } })
    assert.are.same(straight, p)
    assert.are.equal(4, c)
    -- extra_cost: a dearer tile, read where the unit's step costs are
    p, c = g:find_path(1, 1, 5, 1, { size = 2, extra_cost = { 3, 2, 10 } })
    assert.are.same(straight, p)
    assert.are.equal(4, c)
    p, c = g:find_path(1, 1, 5, 1, { size = 2, extra_cost = { 3, 1, 10 } })
    assert.is_true(c < 14)
    assert.is_false(p[5] == 3 and p[6] == 1)
  end)

  it("with avoid equals a Dijkstra over footprints kept off the avoided "
     .. "tiles (sizes 1-3)", function()
    local rng = helpers.rng(1603)
    local checked, found, diverted = 0, 0, 0
    for case = 1, 80 do
      local m = new_model(rng, rng:int(4, 9), rng:int(4, 9))
      local rule = RULES[rng:int(1, 4)]
      local g = build(m, rule)
      for _ = 1, 4 do
        local s = rng:int(1, 3)
        local unit = rng:chance(0.5) and "boat" or "default"
        local sx, sy = rng:int(1, m.w), rng:int(1, m.h)
        local gx, gy = rng:int(1, m.w), rng:int(1, m.h)
        local avoid, set = {}, {}
        for _ = 1, rng:int(1, 10) do
          local x, y = rng:int(1, m.w), rng:int(1, m.h)
          if rng:chance(0.2) then -- under the start's footprint
            x = math.min(m.w, sx + rng:int(0, s - 1))
            y = math.min(m.h, sy + rng:int(0, s - 1))
          end
          avoid[#avoid + 1] = x
          avoid[#avoid + 1] = y
          set[(y - 1) * m.w + x] = true
        end
        local function under(ax, ay, x, y)
          return x >= ax and x < ax + s and y >= ay and y < ay + s
        end
        local function blocked(x, y)
          return set[(y - 1) * m.w + x] and not under(sx, sy, x, y)
                 and not under(gx, gy, x, y)
        end
        local want = footprint_dijkstra(m, unit, rule, s, sx, sy, gx, gy,
                                        blocked)
        if fits(m, unit, gx, gy, s) then
          -- a field has no start: only the goal's footprint is kept
          local fwant = footprint_dijkstra(m, unit, rule, s, sx, sy, gx, gy,
            function(x, y)
              return set[(y - 1) * m.w + x] and not under(gx, gy, x, y)
            end)
          local f = g:field(gx, gy, { size = s, unit = unit, avoid = avoid })
          local v = f:get(sx, sy)
          local where = ("case %d field size %d (%d,%d)->(%d,%d)")
            :format(case, s, sx, sy, gx, gy)
          if fwant == nil then
            assert(v == nil, where)
          else
            assert(v and helpers.close(v, fwant, 1e-6), where .. ": " ..
                   tostring(v) .. ", want " .. fwant)
          end
          local r = f:flee() -- keeps the build's avoided tiles
          for k = 1, #avoid, 2 do
            local x, y = avoid[k], avoid[k + 1]
            if not under(gx, gy, x, y) then
              for dy = 0, s - 1 do
                for dx = 0, s - 1 do
                  if x - dx >= 1 and y - dy >= 1 then
                    assert(f:get(x - dx, y - dy) == nil, where)
                    assert(r:get(x - dx, y - dy) == nil, where)
                  end
                end
              end
            end
          end
          f:close()
          r:close()
        end
        local free = footprint_dijkstra(m, unit, rule, s, sx, sy, gx, gy)
        if free and want ~= free then diverted = diverted + 1 end
        for _, algorithm in ipairs({ "auto", "dijkstra" }) do
          local opts = { size = s, unit = unit, algorithm = algorithm,
                         avoid = avoid }
          local path, got = g:find_path(sx, sy, gx, gy, opts)
          local where = ("case %d %s size %d %s %s (%d,%d)->(%d,%d) avoid %s")
            :format(case, rule, s, unit, algorithm, sx, sy, gx, gy,
                    table.concat(avoid, ","))
          if answers(where, path, got, want) then
            for k = 1, #path, 2 do -- no footprint on an avoided tile
              for dy = 0, s - 1 do
                for dx = 0, s - 1 do
                  assert(not blocked(path[k] + dx, path[k + 1] + dy), where)
                end
              end
            end
            local popts = { size = s, unit = unit, avoid = avoid }
            assert(g:path_ok(path, 1, popts), where)
            assert(helpers.close(g:path_cost(path, popts), want, 1e-9), where)
            found = found + 1
          end
          checked = checked + 1
        end
      end
    end
    assert.is_true(found > 80 and checked > 500 and diverted > 10,
      ("found %d checked %d diverted %d"):format(found, checked, diverted))
  end)

  it("rejects bad sizes", function()
    local g = astar.new(10, 6)
    local function err(f) return helpers.error_of(f) end
    assert.are.equal("bad argument #6 to 'find_path' (size out of range 1..6, got 7)",
      err(function() g:find_path(1, 1, 2, 2, { size = 7 }) end))
    assert.are.equal("bad argument #6 to 'find_path' (size must be an integer, got 1.5)",
      err(function() g:find_path(1, 1, 2, 2, { size = 1.5 }) end))
    assert.are.equal("bad argument #6 to 'next_step' (size out of range 1..6, got 0)",
      err(function() g:next_step(1, 1, 2, 2, { size = 0 }) end))
    assert.are.equal("bad argument #6 to 'find_path' (size must be an integer, got '2')",
      err(function() g:find_path(1, 1, 2, 2, { size = "2" }) end))
    assert.are.equal("bad argument #5 to 'zone' (size out of range 1..6, got -1)",
      err(function() g:zone(1, 1, nil, -1) end))
    assert.are.equal("bad argument #7 to 'connected' (size must be an integer, got nan)",
      err(function() g:connected(1, 1, 2, 2, nil, 0 / 0) end))
    -- the grid is still usable
    assert.truthy(g:find_path(1, 1, 5, 5, { size = 2 }))
  end)
end)
