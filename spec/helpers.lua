-- Test helpers for the astar specs.  Plain Lua that runs unchanged on Lua
-- 5.1, 5.2, 5.3, 5.4 and LuaJIT: no integer division, no goto, no utf8, no
-- bit operators.
--
--   helpers.dijkstra(desc, sx, sy, gx, gy)   reference optimal cost
--   helpers.check_path(desc, path, sx, sy, gx, gy)   move-by-move check
--   helpers.bfs_steps(desc, sx, sy, gx, gy)  reference fewest steps
--   helpers.finalizer(f)                     an object whose __gc calls f
--   helpers.rng(seed)                        portable random numbers
--   helpers.random_case(rng, astar [, opts]) random grid + its description
--   helpers.pick_tile(rng, case)             a (passable) tile of a case
--   helpers.maps_dir()                       "../shared/maps" or nil
--   helpers.cases(n)                         n, or n / 10 under ASTAR_LIGHT=1
--   helpers.same_list(a, b)                  two flat lists equal, in order
--   helpers.scenario_step()                  1, or 7 on 5.1-5.3: scenarios run
--   helpers.unique_tag()                     a name no other busted process has
--   helpers.xvfb_run()                       xvfb-run prefix with its own display
--   helpers.error_of(f, ...)                 the message f raised
--   helpers.missing(it, pending, r)          fail or pend without a resource
--
-- A grid description ("desc") is a plain table:
--   { width = W, height = H,
--     cost = function(x, y) return number or false end,   -- 1-based
--     diagonals = "no_corner_cut" | "one_free" | "always" | "never" | "hex",
--     cardinal = number, diagonal = number,
--     extra = function(x, y, nx, ny) return number or false end,  -- optional
--     move = function(x, y, nx, ny, cost) return number or false end }
-- Missing diagonals/cardinal/diagonal mean the astar defaults.  `extra` adds
-- a cost to a legal step (heights), or bans it with false; `move` then
-- replaces the step's cost, or bans it (a move callback).
-- "hex" is a hex grid in axial coordinates (x, y) = (q, r): the neighbours
-- are N E S W and the diagonals NE (+1, -1) and SW (-1, +1), with no corner
-- rule, every step of the cardinal length.

local helpers = {}

local floor, sqrt, abs = math.floor, math.sqrt, math.abs

helpers.SQRT2 = sqrt(2)

---------------------------------------------------------------------------
-- Movement rules of the description, written out plainly.
---------------------------------------------------------------------------

-- The eight directions in astar's generation order: N E S W NE SE SW NW.
helpers.DIRS = {
  { 0, -1 }, { 1, 0 }, { 0, 1 }, { -1, 0 },
  { 1, -1 }, { 1, 1 }, { -1, 1 }, { -1, -1 },
}

local function lengths(desc)
  local c = desc.cardinal
  if c == nil then c = 1 end
  local d = desc.diagonal
  if d == nil then d = helpers.SQRT2 end
  return c, d
end

local function rule(desc)
  return desc.diagonals or "no_corner_cut"
end

-- Cost of tile (x, y), or false when it is blocked or outside the grid.
local function tile(desc, x, y)
  if x < 1 or y < 1 or x > desc.width or y > desc.height then
    return false
  end
  local c = desc.cost(x, y)
  if c == nil then
    error(("description: cost(%d, %d) returned nil"):format(x, y))
  end
  return c
end
helpers.tile = tile

-- Cost of the single step (x, y) -> (x + dx, y + dy), |dx|, |dy| <= 1, not
-- both 0; or nil and why it is illegal.
local plain_step_cost

local function step_cost(desc, x, y, dx, dy)
  local c, why = plain_step_cost(desc, x, y, dx, dy)
  if not c then return nil, why end
  local nx, ny = x + dx, y + dy
  if desc.extra then
    local e = desc.extra(x, y, nx, ny)
    if not e then
      return nil, ("step (%d,%d)->(%d,%d) is banned (height)"):format(
        x, y, nx, ny)
    end
    c = c + e
  end
  if desc.move then
    c = desc.move(x, y, nx, ny, c)
    if not c then
      return nil, ("step (%d,%d)->(%d,%d) is refused by move"):format(
        x, y, nx, ny)
    end
  end
  return c
end

plain_step_cost = function(desc, x, y, dx, dy)
  local nx, ny = x + dx, y + dy
  local c = tile(desc, nx, ny)
  if not c then
    return nil, ("(%d,%d) is blocked or outside the grid"):format(nx, ny)
  end
  local card, diag = lengths(desc)
  if dx == 0 or dy == 0 then
    return card * c
  end
  local r = rule(desc)
  if r == "hex" then
    if dx == dy then
      return nil, ("(%d,%d)->(%d,%d) is not a hex neighbour"):format(
        x, y, nx, ny)
    end
    return card * c
  end
  local side1 = tile(desc, nx, y) and true or false
  local side2 = tile(desc, x, ny) and true or false
  if r == "never" then
    return nil, "diagonal step under rule 'never'"
  elseif r == "no_corner_cut" then
    if not (side1 and side2) then
      return nil, ("diagonal (%d,%d)->(%d,%d) cuts a corner"):format(
        x, y, nx, ny)
    end
  elseif r == "one_free" then
    if not (side1 or side2) then
      return nil, ("diagonal (%d,%d)->(%d,%d) squeezes between two walls")
        :format(x, y, nx, ny)
    end
  elseif r ~= "always" then
    error("description: unknown diagonal rule " .. tostring(r))
  end
  return diag * c
end
helpers.step_cost = step_cost

---------------------------------------------------------------------------
-- Reference Dijkstra: binary heap keyed on the cost so far, nothing clever.
---------------------------------------------------------------------------

-- Returns the optimal cost from (sx, sy) to (gx, gy), or nil and the reason
-- astar gives for the same query ("start_blocked" before "goal_blocked",
-- then "no_path").  The start tile's own cost never counts.
function helpers.dijkstra(desc, sx, sy, gx, gy)
  local w, h = desc.width, desc.height
  if not tile(desc, sx, sy) then return nil, "start_blocked" end
  if not tile(desc, gx, gy) then return nil, "goal_blocked" end
  if sx == gx and sy == gy then return 0 end

  local dist, done = {}, {}
  local heap_d, heap_n, size = {}, {}, 0

  local function push(d, n)
    size = size + 1
    local i = size
    while i > 1 do
      local p = floor(i / 2)
      if heap_d[p] <= d then break end
      heap_d[i], heap_n[i] = heap_d[p], heap_n[p]
      i = p
    end
    heap_d[i], heap_n[i] = d, n
  end

  local function pop()
    local d, n = heap_d[1], heap_n[1]
    local ld, ln = heap_d[size], heap_n[size]
    heap_d[size], heap_n[size] = nil, nil
    size = size - 1
    if size > 0 then
      local i = 1
      while true do
        local c = 2 * i
        if c > size then break end
        if c < size and heap_d[c + 1] < heap_d[c] then c = c + 1 end
        if heap_d[c] >= ld then break end
        heap_d[i], heap_n[i] = heap_d[c], heap_n[c]
        i = c
      end
      heap_d[i], heap_n[i] = ld, ln
    end
    return d, n
  end

  local start = (sy - 1) * w + sx
  local goal = (gy - 1) * w + gx
  dist[start] = 0
  push(0, start)
  while size > 0 do
    local d, n = pop()
    if not done[n] then
      done[n] = true
      if n == goal then return d end
      local x = (n - 1) % w + 1
      local y = floor((n - 1) / w) + 1
      for k = 1, 8 do
        local dx, dy = helpers.DIRS[k][1], helpers.DIRS[k][2]
        local nx, ny = x + dx, y + dy
        if nx >= 1 and ny >= 1 and nx <= w and ny <= h then
          local c = step_cost(desc, x, y, dx, dy)
          if c then
            local m = (ny - 1) * w + nx
            local nd = d + c
            if not done[m] and (dist[m] == nil or nd < dist[m]) then
              dist[m] = nd
              push(nd, m)
            end
          end
        end
      end
      -- grid links: desc.links[n] = { {m, cost}, ... } (ends open)
      for _, l in ipairs(desc.links and desc.links[n] or {}) do
        local m, nd = l[1], d + l[2]
        if not done[m] and (dist[m] == nil or nd < dist[m]) then
          dist[m] = nd
          push(nd, m)
        end
      end
    end
  end
  return nil, "no_path"
end

---------------------------------------------------------------------------
-- Path checking.
---------------------------------------------------------------------------

local function is_int(v)
  return type(v) == "number" and v == v and v == floor(v)
    and v > -2 ^ 53 and v < 2 ^ 53
end
helpers.is_int = is_int

-- Checks a flat path {x1, y1, ..., xn, yn}: it starts at the start, ends at
-- the goal, and every step is a legal move of the description.  Returns the
-- summed cost, or nil and a message saying what is wrong.
function helpers.check_path(desc, path, sx, sy, gx, gy)
  if type(path) ~= "table" then
    return nil, "path is a " .. type(path) .. ", not a table"
  end
  local n = #path
  if n < 2 or n % 2 ~= 0 then
    return nil, ("path has %d numbers, expected a positive even count"):format(n)
  end
  for i = 1, n do
    if not is_int(path[i]) then
      return nil, ("path[%d] = %s is not an integer"):format(i, tostring(path[i]))
    end
  end
  if path[1] ~= sx or path[2] ~= sy then
    return nil, ("path starts at (%d,%d), not at the start (%d,%d)"):format(
      path[1], path[2], sx, sy)
  end
  if path[n - 1] ~= gx or path[n] ~= gy then
    return nil, ("path ends at (%d,%d), not at the goal (%d,%d)"):format(
      path[n - 1], path[n], gx, gy)
  end
  if not tile(desc, sx, sy) then
    return nil, "the start is blocked"
  end
  local total = 0
  for i = 3, n - 1, 2 do
    local x, y = path[i - 2], path[i - 1]
    local nx, ny = path[i], path[i + 1]
    local dx, dy = nx - x, ny - y
    if abs(dx) > 1 or abs(dy) > 1 or (dx == 0 and dy == 0) then
      return nil, ("step %d: (%d,%d)->(%d,%d) is not a move to a neighbour")
        :format((i - 1) / 2, x, y, nx, ny)
    end
    local c, why = step_cost(desc, x, y, dx, dy)
    if not c then
      return nil, ("step %d: %s"):format((i - 1) / 2, why)
    end
    total = total + c
  end
  return total
end

-- An object whose finalizer calls f: a table with __gc on 5.2+, a
-- newproxy() userdata on 5.1 and LuaJIT (whose tables take no __gc).
-- Nothing keeps it: the next collection runs f.
function helpers.finalizer(f)
  if newproxy then
    local p = newproxy(true)
    getmetatable(p).__gc = function() f() end
    return p
  end
  return setmetatable({}, { __gc = function() f() end })
end

-- Reference breadth-first search: the fewest legal steps from (sx, sy) to
-- (gx, gy) under the description's rules (costs ignored), or nil when no
-- path exists (a blocked start or goal included).
function helpers.bfs_steps(desc, sx, sy, gx, gy)
  if not tile(desc, sx, sy) or not tile(desc, gx, gy) then return nil end
  local w = desc.width
  local seen = { [(sy - 1) * w + sx] = 0 }
  local queue, head = { sx, sy }, 1
  while head < #queue do
    local x, y = queue[head], queue[head + 1]
    head = head + 2
    local d = seen[(y - 1) * w + x]
    if x == gx and y == gy then return d end
    for _, dir in ipairs(helpers.DIRS) do
      local nx, ny = x + dir[1], y + dir[2]
      local key = (ny - 1) * w + nx
      if seen[key] == nil and step_cost(desc, x, y, dir[1], dir[2]) then
        seen[key] = d + 1
        queue[#queue + 1] = nx
        queue[#queue + 1] = ny
      end
    end
  end
  return nil
end

-- a == b exactly, or within relative tolerance rel (absolute below 1).
function helpers.close(a, b, rel)
  if a == b then return true end
  if type(a) ~= "number" or type(b) ~= "number" then return false end
  local scale = math.max(1, abs(a), abs(b))
  return abs(a - b) <= rel * scale
end

---------------------------------------------------------------------------
-- Portable random numbers.
---------------------------------------------------------------------------

-- Park-Miller "minimal standard" generator: state = state * 16807 mod
-- (2^31 - 1).  The product stays below 2^46, so it is exact in doubles and
-- in 5.3+ integers alike: every runtime sees the same sequence.
local M31 = 2147483647

local Rng = {}
Rng.__index = Rng

function helpers.rng(seed)
  local s = floor(seed) % M31
  if s == 0 then s = 1 end
  local r = setmetatable({ state = s, seed = seed }, Rng)
  -- mix the seed a little: nearby seeds give unrelated first values
  for _ = 1, 3 do r:next() end
  return r
end

function Rng:next()
  self.state = (self.state * 16807) % M31
  return self.state
end

-- A real number in [0, 1).
function Rng:real()
  return (self:next() - 1) / (M31 - 1)
end

-- An integer in [lo, hi] (or [1, lo] with one argument).
function Rng:int(lo, hi)
  if hi == nil then lo, hi = 1, lo end
  return lo + floor(self:real() * (hi - lo + 1))
end

-- true with probability p.
function Rng:chance(p)
  return self:real() < p
end

-- One element of a list.
function Rng:pick(list)
  return list[self:int(1, #list)]
end

---------------------------------------------------------------------------
-- Random grids.
---------------------------------------------------------------------------

helpers.RULES = { "no_corner_cut", "one_free", "always", "never" }
-- The square rules and the hex one (random_case picks from RULES only).
helpers.ALL_RULES = { "no_corner_cut", "one_free", "always", "never", "hex" }

-- Step lengths used by the random cases: the default {1, sqrt 2}, the
-- roguelike {2, 3}, Chebyshev-like {1, 1}, a diagonal of at least twice the
-- cardinal (the default heuristic is then Manhattan) and a diagonal shorter
-- than the cardinal.
helpers.LENGTHS = {
  { name = "default", cardinal = nil, diagonal = nil, integer = false },
  { name = "2/3", cardinal = 2, diagonal = 3, integer = true },
  { name = "1/1", cardinal = 1, diagonal = 1, integer = true },
  { name = "1/3", cardinal = 1, diagonal = 3, integer = true },
  { name = "3/2", cardinal = 3, diagonal = 2, integer = true },
}

-- Weight kinds: "uniform" (every passable tile 1), "uniform_k" (every tile
-- the same random integer 1..9), "int" (random integers 1..9), "real"
-- (random multiples of 1/256 in (0, 10), exact as 32-bit floats, many below
-- 1).
helpers.WEIGHTS = { "uniform", "uniform_k", "int", "real" }

-- Makes a random case.  opts may fix any of: width, height, rule, lengths
-- (an entry of helpers.LENGTHS), weights, wall (probability 0..0.6), build
-- ("load_flat" | "load_rows" | "set_cost").  Returns a table:
--   { grid = <astar grid>, desc = <description>, width, height, rule,
--     lengths, weights, wall, build, integer = <costs are exact integers>,
--     costs = <flat list of cost or false> }
function helpers.random_case(rng, astar, opts)
  opts = opts or {}
  local w = opts.width or rng:int(1, 40)
  local h = opts.height or rng:int(1, 40)
  local r = opts.rule or rng:pick(helpers.RULES)
  local len = opts.lengths or rng:pick(helpers.LENGTHS)
  local weights = opts.weights or rng:pick(helpers.WEIGHTS)
  local wall = opts.wall or (rng:int(0, 60) / 100)
  local build = opts.build or rng:pick({ "load_flat", "load_rows", "set_cost" })

  local k = rng:int(1, 9)
  local costs = {}
  for i = 1, w * h do
    if rng:chance(wall) then
      costs[i] = false
    elseif weights == "uniform" then
      costs[i] = 1
    elseif weights == "uniform_k" then
      costs[i] = k
    elseif weights == "int" then
      costs[i] = rng:int(1, 9)
    else
      costs[i] = rng:int(1, 2559) / 256
    end
  end

  local movement = { diagonals = r, cardinal = len.cardinal,
                     diagonal = len.diagonal }
  local grid = astar.new(w, h, movement)
  if build == "load_flat" then
    grid:load(costs)
  elseif build == "load_rows" then
    local rows = {}
    for y = 1, h do
      local row = {}
      for x = 1, w do row[x] = costs[(y - 1) * w + x] end
      rows[y] = row
    end
    grid:load(rows)
  else
    for y = 1, h do
      for x = 1, w do
        local c = costs[(y - 1) * w + x]
        if c ~= 1 then grid:set_cost(x, y, c) end
      end
    end
  end

  local desc = {
    width = w, height = h,
    cost = function(x, y) return costs[(y - 1) * w + x] end,
    diagonals = r, cardinal = len.cardinal, diagonal = len.diagonal,
  }
  return {
    grid = grid, desc = desc, costs = costs,
    width = w, height = h, rule = r, lengths = len, weights = weights,
    wall = wall, build = build,
    integer = len.integer and weights ~= "real",
  }
end

-- A tile of a random case, passable when one of 30 random draws finds
-- one (else any tile: the case may be all walls).
function helpers.pick_tile(rng, case)
  for _ = 1, 30 do
    local x, y = rng:int(1, case.width), rng:int(1, case.height)
    if case.costs[(y - 1) * case.width + x] then return x, y end
  end
  return rng:int(1, case.width), rng:int(1, case.height)
end

-- A description of an astar grid built from a flat cost list.
function helpers.describe(w, h, costs, movement)
  movement = movement or {}
  return {
    width = w, height = h,
    cost = function(x, y) return costs[(y - 1) * w + x] end,
    diagonals = movement.diagonals, cardinal = movement.cardinal,
    diagonal = movement.diagonal,
  }
end

-- A description read from rows of text: "." = 1, "#" = blocked, "1".."9".
function helpers.desc_from_text(text, movement)
  local rows = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    if line ~= "" then rows[#rows + 1] = line end
  end
  local w, h = #rows[1], #rows
  local costs = {}
  for y = 1, h do
    for x = 1, w do
      local ch = rows[y]:sub(x, x)
      if ch == "#" then
        costs[(y - 1) * w + x] = false
      elseif ch == "." then
        costs[(y - 1) * w + x] = 1
      else
        costs[(y - 1) * w + x] = assert(tonumber(ch), "bad map char " .. ch)
      end
    end
  end
  return helpers.describe(w, h, costs, movement)
end

-- The astar description of an existing grid, read through get_cost (for
-- checks that trust the grid's own tiles, e.g. on big maps).
function helpers.desc_of_grid(grid)
  local w, h = grid:size()
  local m = grid:get_movement()
  return {
    width = w, height = h,
    cost = function(x, y) return grid:get_cost(x, y) end,
    diagonals = m.diagonals, cardinal = m.cardinal, diagonal = m.diagonal,
  }
end

-- "seed=.. 12x7 rule=.. lengths=.. weights=.. wall=.. build=.."
function helpers.describe_case(seed, case, extra)
  return ("seed=%d %dx%d rule=%s lengths=%s weights=%s wall=%.2f build=%s%s")
    :format(seed, case.width, case.height, case.rule, case.lengths.name,
            case.weights, case.wall, case.build, extra or "")
end

---------------------------------------------------------------------------
-- Misc.
---------------------------------------------------------------------------

-- The shared MovingAI maps, seen from the repository root (where busted
-- runs), or nil when this checkout has no ../shared.
function helpers.maps_dir()
  local dir = "../shared/maps"
  local f = io.open(dir .. "/arena.map", "rb")
  if not f then return nil end
  f:close()
  return dir
end

-- Whether stats.algorithm may have answered a plain find_path from (sx,
-- sy) to (gx, gy) on a grid prepared with a subgoal graph (info: what
-- prepare returned): the graph always may; plain JPS may only where the
-- build chose it for short queries (info.jps_first) and start and goal
-- are at most 64 tiles apart on each axis.
function helpers.graph_answer(info, algorithm, sx, sy, gx, gy)
  if algorithm == "subgoal" then return true end
  return algorithm == "jps" and info.jps_first == true
    and math.abs(gx - sx) <= 64 and math.abs(gy - sy) <= 64
end

-- Whether two flat lists (paths) hold the same values in the same order.
function helpers.same_list(a, b)
  if #a ~= #b then return false end
  for i = 1, #a do
    if a[i] ~= b[i] then return false end
  end
  return true
end

-- How many random cases a heavy property test runs: all of them, or a
-- tenth in the runs where every step is slow (make gcstress and make
-- valgrind set ASTAR_LIGHT=1).  Those runs look for memory and collector
-- faults, which a tenth of the cases still reaches; the plain runs on
-- every runtime, and ASan, keep every case.
function helpers.cases(n)
  if os.getenv("ASTAR_LIGHT") == "1" then
    return math.max(1, math.ceil(n / 10))
  end
  return n
end

-- Which MovingAI scenarios a spec runs on this runtime: every one on Lua
-- 5.4 and LuaJIT (the runtimes games use most), every 7th elsewhere (CI
-- time: the maps are the slowest specs), or every one anywhere when
-- ASTAR_ALL_SCENARIOS=1.  Returns the step between scenarios run.
function helpers.scenario_step()
  if os.getenv("ASTAR_ALL_SCENARIOS") == "1" then return 1 end
  -- make asan samples too (ASTAR_SCENARIO_STEP=7): the plain 5.4 run has
  -- checked every scenario's cost, the sanitizers look for memory faults
  local step = tonumber(os.getenv("ASTAR_SCENARIO_STEP") or "")
  if step and step >= 1 and step == floor(step) then return step end
  if _VERSION == "Lua 5.4" or rawget(_G, "jit") ~= nil then return 1 end
  return 7
end

-- For a describe block whose resource is missing: a failing test when the
-- environment variable r.env is "1" (CI sets it), else a visible pending
-- note.  busted's `it` and `pending` are passed in: a module does not see
-- them.  r: env, finds (what the test looks for), failure (why it failed),
-- needs (what env says is required), skipped (what the note says).
function helpers.missing(it, pending, r)
  if os.getenv(r.env) == "1" then
    it("finds " .. r.finds .. " (" .. r.env .. "=1)", function()
      error(r.failure .. ", and " .. r.env .. "=1 says " .. r.needs
        .. " required", 0)
    end)
  else
    pending(r.skipped .. " (set " .. r.env .. "=1 to make this a failure)")
  end
end

-- helpers.missing for a block that needs ../shared/maps; what: the specs
-- skipped ("MovingAI scenario specs").
function helpers.missing_maps(it, pending, what)
  helpers.missing(it, pending, {
    env = "ASTAR_REQUIRE_MAPS", finds = "../shared/maps",
    failure = "../shared/maps/arena.map not found",
    needs = "the MovingAI maps are",
    skipped = "../shared/maps not found: " .. what .. " skipped",
  })
end

-- Calls f(...) and returns the message of the error it raised, with a
-- leading "chunk:line: " location removed if there is one.  Fails the test
-- if f does not raise, or raises a non-string.
function helpers.error_of(f, ...)
  local ok, err = pcall(f, ...)
  if ok then
    error("expected an error, but the call succeeded", 2)
  end
  if type(err) ~= "string" then
    error("expected a string error, got a " .. type(err), 2)
  end
  -- Lua puts the caller's "chunk:line: " in front of errors raised by C
  -- functions (luaL_error); the message proper follows it.
  if err:sub(1, 13) ~= "bad argument " then
    local stripped = err:match("^[^\n]-:%d+: (.*)$")
    if stripped then return stripped end
  end
  return err
end

-- Splits text into lines (LF or CRLF), dropping one final newline.
function helpers.lines(text)
  local out = {}
  if text == "" then return out end
  if text:sub(-1) == "\n" then text = text:sub(1, -2) end
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    if line:sub(-1) == "\r" then line = line:sub(1, -2) end
    out[#out + 1] = line
  end
  return out
end

-- A name of this process's own: `make test` runs two runtimes at once, and
-- `make gcstress` two side by side, so files and X displays the specs make
-- outside os.tmpname (the LÖVE selftests' screenshots) carry it.  Made
-- from a fresh os.tmpname, which the system makes unique.
local tag
function helpers.unique_tag()
  if not tag then
    local name = os.tmpname()
    os.remove(name)
    tag = name:match("([%w_%-]+)$") or tostring(os.time())
  end
  return tag
end

-- `xvfb-run -a` takes the first free display from 99 up, and two runs
-- starting at once may both pick the same one: each process starts its
-- search at a number of its own (from its tag), 100..29,999.
function helpers.xvfb_run()
  local name, h = helpers.unique_tag(), 0
  for i = 1, #name do h = (h * 31 + name:byte(i)) % 29900 end
  return ("xvfb-run -a -n %d -s '-screen 0 1280x800x24' "):format(100 + h)
end

-- Writes text to a fresh temporary file and returns its name.
function helpers.temp_file(text)
  local name = os.tmpname()
  local f = assert(io.open(name, "wb"))
  f:write(text)
  f:close()
  return name
end

-- A compact printable form of a flat path.
function helpers.path_string(path)
  if type(path) ~= "table" then return tostring(path) end
  local parts = {}
  for i = 1, #path - 1, 2 do
    parts[#parts + 1] = ("(%s,%s)"):format(tostring(path[i]),
                                           tostring(path[i + 1]))
  end
  return table.concat(parts, " ")
end

-- Every tile of a grid as a flat list of get_cost results (cost or false).
function helpers.tiles(grid)
  local w, h = grid:size()
  local t = {}
  for y = 1, h do
    for x = 1, w do t[(y - 1) * w + x] = grid:get_cost(x, y) end
  end
  return t
end

return helpers
