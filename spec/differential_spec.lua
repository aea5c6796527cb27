-- Differential tests: grid:find_path and grid:next_step against the plain
-- reference Dijkstra of spec/helpers.lua, on thousands of random grids
-- (1x1 to 40x40, every diagonal rule, several step lengths, uniform, integer
-- and real weights, 0-60% walls, random start and goal, sometimes blocked
-- or equal).  Every case is built from its own seed; a failure message
-- names the seed and the case, and dumps the map, so it can be replayed:
--   helpers.random_case(helpers.rng(seed), astar, <the block's fixed opts>)
local astar = require("astar")
local helpers = require("helpers")

local REL = 1e-9

-- The map of a case as text (# blocked, digits/. for integer costs, ~ other).
local function dump(case)
  local rows = {}
  for y = 1, case.height do
    local row = {}
    for x = 1, case.width do
      local c = case.costs[(y - 1) * case.width + x]
      if c == false then
        row[x] = "#"
      elseif c == 1 then
        row[x] = "."
      elseif c == math.floor(c) and c <= 9 then
        row[x] = string.char(48 + c)
      else
        row[x] = "~"
      end
    end
    rows[y] = table.concat(row)
  end
  return table.concat(rows, "\n")
end

local function fail(ctx, case, msg)
  error(("%s\n  %s\n  map:\n%s"):format(ctx, msg, dump(case)), 0)
end

local function options_string(opts)
  if opts == nil then return "nil" end
  local keys = {}
  for k, v in pairs(opts) do keys[#keys + 1] = k .. "=" .. tostring(v) end
  table.sort(keys)
  return "{" .. table.concat(keys, ", ") .. "}"
end

-- A tile of the case: passable with probability ~0.8 when any is, so that
-- most queries have a path to find; otherwise anywhere.
local function pick_tile(rng, case)
  if rng:chance(0.8) then
    for _ = 1, 30 do
      local x, y = rng:int(1, case.width), rng:int(1, case.height)
      if case.costs[(y - 1) * case.width + x] then return x, y end
    end
  end
  return rng:int(1, case.width), rng:int(1, case.height)
end

local function pick_query(rng, case)
  local sx, sy = pick_tile(rng, case)
  if rng:chance(0.06) then return sx, sy, sx, sy end
  local gx, gy = pick_tile(rng, case)
  return sx, sy, gx, gy
end

local function same_cost(case, a, b)
  if case.integer then return a == b end
  return helpers.close(a, b, REL)
end

-- Every tile of the grid reads back as the model says.
local function check_tiles(case, ctx)
  local grid, w = case.grid, case.width
  local gw, gh = grid:size()
  if gw ~= case.width or gh ~= case.height then
    fail(ctx, case, ("size() = %s, %s"):format(tostring(gw), tostring(gh)))
  end
  for y = 1, case.height do
    for x = 1, w do
      local want = case.costs[(y - 1) * w + x]
      local got = grid:get_cost(x, y)
      if got ~= want then
        fail(ctx, case, ("get_cost(%d, %d) = %s, expected %s"):format(
          x, y, tostring(got), tostring(want)))
      end
      if grid:is_blocked(x, y) ~= (want == false) then
        fail(ctx, case, ("is_blocked(%d, %d) = %s"):format(
          x, y, tostring(grid:is_blocked(x, y))))
      end
    end
  end
end

-- The state shared by the queries of one block: one `out` table reused
-- across queries, and the longest path it ever held (to check the tail is
-- cleared when a shorter path follows a longer one).
local function new_state()
  return { out = {}, longest = 0 }
end

-- One query.  mode: "optimal" (the cost must equal the reference), or
-- { weight = w } (at most w times the optimum), or "legal" (any legal path;
-- at least the optimum).
local function check_query(case, state, rng, ctx, opts, mode, sx, sy, gx, gy)
  local grid, desc = case.grid, case.desc
  ctx = ("%s query=(%d,%d)->(%d,%d) options=%s"):format(
    ctx, sx, sy, gx, gy, options_string(opts))

  local use_out = rng:chance(0.5)
  local path, cost, expanded
  if use_out then
    path, cost, expanded = grid:find_path(sx, sy, gx, gy, opts, state.out)
  else
    path, cost, expanded = grid:find_path(sx, sy, gx, gy, opts)
  end
  local ref, reason = helpers.dijkstra(desc, sx, sy, gx, gy)

  if type(expanded) ~= "number" or not helpers.is_int(expanded)
      or expanded < 0 then
    fail(ctx, case, "expanded is not a non-negative integer: "
      .. tostring(expanded))
  end

  if ref == nil then
    if path ~= nil or cost ~= reason then
      fail(ctx, case, ("expected nil, %q; got %s, %s (path %s)"):format(
        reason, tostring(path), tostring(cost), helpers.path_string(path)))
    end
    if reason == "start_blocked" and expanded ~= 0 then
      fail(ctx, case, "start_blocked but expanded = " .. tostring(expanded))
    end
    -- no_path expands nothing exactly when the zones tell the two tiles
    -- apart (spec/zones_spec.lua); else the search ran and found nothing
    local apart = not grid:connected(sx, sy, gx, gy, opts and opts.unit)
    if reason == "no_path" and (expanded == 0) ~= apart then
      fail(ctx, case, ("no_path, expanded = %s, zones %s"):format(
        tostring(expanded), apart and "apart" or "joined"))
    end
  else
    if type(path) ~= "table" then
      fail(ctx, case, ("expected a path of cost %.17g; got %s, %s"):format(
        ref, tostring(path), tostring(cost)))
    end
    if use_out and not rawequal(path, state.out) then
      fail(ctx, case, "find_path did not return the `out` table it was given")
    end
    local pcost, err = helpers.check_path(desc, path, sx, sy, gx, gy)
    if not pcost then
      fail(ctx, case, err .. "\n  path: " .. helpers.path_string(path))
    end
    if type(cost) ~= "number" or not same_cost(case, pcost, cost) then
      fail(ctx, case, ("returned cost %s but the path's steps sum to %.17g"
        .. "\n  path: %s"):format(tostring(cost), pcost,
          helpers.path_string(path)))
    end
    if mode == "optimal" then
      if not same_cost(case, cost, ref) then
        fail(ctx, case, ("cost %.17g, reference optimum %.17g\n  path: %s")
          :format(cost, ref, helpers.path_string(path)))
      end
    else
      local upper = mode == "legal" and math.huge or mode.weight * ref
      if cost < ref * (1 - REL) - REL or cost > upper * (1 + REL) + REL then
        fail(ctx, case, ("cost %.17g outside [%.17g, %.17g]\n  path: %s")
          :format(cost, ref, upper, helpers.path_string(path)))
      end
    end
    local n = #path
    if sx == gx and sy == gy then
      if n ~= 2 or cost ~= 0 then
        fail(ctx, case, ("start == goal: got %s, cost %s"):format(
          helpers.path_string(path), tostring(cost)))
      end
    elseif expanded < 1 then
      fail(ctx, case, "a path was found with expanded = " .. expanded)
    end
    if use_out then
      for k = n + 1, state.longest + 2 do
        if path[k] ~= nil then
          fail(ctx, case, ("out[%d] = %s left over past the %d-number path")
            :format(k, tostring(path[k]), n))
        end
      end
      if n > state.longest then state.longest = n end
    end
  end

  -- next_step: the first step of the same path, and the same cost (not
  -- remembered: a path remembered from an earlier call may be another of
  -- the equally cheap ones; paths_spec.lua checks remembering)
  local fresh = { remember = false }
  for k, v in pairs(opts or {}) do fresh[k] = v end
  local x, y, c = grid:next_step(sx, sy, gx, gy, fresh)
  if ref == nil or path == nil then
    if x ~= nil or y ~= reason then
      fail(ctx, case, ("next_step: expected nil, %q; got %s, %s"):format(
        tostring(reason), tostring(x), tostring(y)))
    end
  else
    local n = #path
    local wx, wy = path[1], path[2]
    if n >= 4 then wx, wy = path[3], path[4] end
    if x ~= wx or y ~= wy or c ~= cost then
      fail(ctx, case, ("next_step returned %s, %s, %s; find_path's path %s"
        .. " costs %.17g"):format(tostring(x), tostring(y), tostring(c),
          helpers.path_string(path), cost))
    end
  end
  return ref ~= nil
end

-- Options for a query that must still be optimal: nil, the explicit
-- defaults, Dijkstra, or a named heuristic that is admissible (and, being
-- a norm, consistent) for the case's movement.
local function admissible_options(rng, case)
  local c = case.lengths.cardinal or 1
  local d = case.lengths.diagonal or helpers.SQRT2
  local four = case.rule == "never"
  local list = { false, false, false, { heuristic = "default" },
                 { weight = 1 }, { heuristic = "zero" } }
  if four or d >= 2 * c then list[#list + 1] = { heuristic = "manhattan" } end
  if four or d >= c then list[#list + 1] = { heuristic = "chebyshev" } end
  if d <= 2 * c and (four or d >= c) then
    list[#list + 1] = { heuristic = "octile" }
  end
  -- sqrt 2 itself would be borderline (ties decided by rounding)
  if four or d >= 1.5 * c then list[#list + 1] = { heuristic = "euclidean" } end
  return rng:pick(list) or nil
end

local function case_context(seed, case)
  return helpers.describe_case(seed, case)
end

-- Runs `count` cases seeded first_seed, first_seed + 1, ...
local function run_block(first_seed, count, fixed, queries, per_case)
  local state = new_state()
  count = helpers.cases(count)
  local found, none = 0, 0
  for i = 0, count - 1 do
    local seed = first_seed + i
    local rng = helpers.rng(seed)
    local case = helpers.random_case(rng, astar, fixed)
    local ctx = case_context(seed, case)
    check_tiles(case, ctx)
    for _ = 1, queries do
      local sx, sy, gx, gy = pick_query(rng, case)
      local opts, mode = per_case(rng, case)
      if check_query(case, state, rng, ctx, opts, mode, sx, sy, gx, gy) then
        found = found + 1
      else
        none = none + 1
      end
    end
  end
  return found, none
end

local function optimal(rng, case)
  return admissible_options(rng, case), "optimal"
end

describe("differential: find_path equals the reference Dijkstra", function()
  -- 4 rules x 500 grids x 3 queries, default and admissible options
  for r, rule in ipairs(helpers.RULES) do
    it(("rule %s: 500 random grids"):format(rule), function()
      local found, none = run_block(100000 * r, 500, { rule = rule }, 3,
                                    optimal)
      -- the generator must produce both outcomes in quantity, or the block
      -- tests less than it claims
      local share = helpers.cases(500) / 500
      assert.is_true(found > 600 * share,
                     "only " .. found .. " queries had a path")
      assert.is_true(none > 100 * share,
                     "only " .. none .. " queries had no path")
    end)
  end

  it("every weight kind and step length on small grids: 300 grids", function()
    -- small sizes make 1xN, Nx1 and 1x1 grids frequent
    local state = new_state()
    local n, count = 0, helpers.cases(300)
    for i = 0, count - 1 do
      local seed = 700000 + i
      local rng = helpers.rng(seed)
      local len = helpers.LENGTHS[i % #helpers.LENGTHS + 1]
      local weights = helpers.WEIGHTS[math.floor(i / 5) % 4 + 1]
      local case = helpers.random_case(rng, astar, {
        width = rng:int(1, 6), height = rng:int(1, 6),
        lengths = len, weights = weights })
      local ctx = case_context(seed, case)
      check_tiles(case, ctx)
      for _ = 1, 4 do
        local sx, sy, gx, gy = pick_query(rng, case)
        check_query(case, state, rng, ctx, admissible_options(rng, case),
                    "optimal", sx, sy, gx, gy)
        n = n + 1
      end
    end
    assert.are.equal(4 * count, n)
  end)

  it("edits and set_movement between queries: 300 grids", function()
    local state = new_state()
    for i = 0, helpers.cases(300) - 1 do
      local seed = 800000 + i
      local rng = helpers.rng(seed)
      local case = helpers.random_case(rng, astar)
      local ctx = case_context(seed, case)
      local grid, w, h = case.grid, case.width, case.height
      for round = 1, 4 do
        -- a few edits through every editing method
        local edits = {}
        for _ = 1, rng:int(1, 8) do
          local x, y = rng:int(1, w), rng:int(1, h)
          local k = (y - 1) * w + x
          local kind = rng:int(1, 4)
          if kind == 1 then
            local c = rng:chance(0.5) and rng:int(1, 9) or rng:int(1, 2559) / 256
            grid:set_cost(x, y, c)
            case.costs[k] = c
            if c ~= math.floor(c) then case.integer = false end
            edits[#edits + 1] = ("set_cost(%d,%d,%s)"):format(x, y, c)
          elseif kind == 2 then
            grid:set_cost(x, y, false)
            case.costs[k] = false
            edits[#edits + 1] = ("set_cost(%d,%d,false)"):format(x, y)
          elseif kind == 3 then
            grid:set_blocked(x, y)
            case.costs[k] = false
            edits[#edits + 1] = ("set_blocked(%d,%d)"):format(x, y)
          else
            -- block then unblock a tile of known cost: the cost comes back
            local c = rng:int(1, 9)
            grid:set_cost(x, y, c)
            grid:set_blocked(x, y, true)
            grid:set_blocked(x, y, false)
            case.costs[k] = c
            edits[#edits + 1] = ("set_cost(%d,%d,%d)+set_blocked true/false")
              :format(x, y, c)
          end
        end
        if round == 3 then
          local len = rng:pick(helpers.LENGTHS)
          local rule = rng:pick(helpers.RULES)
          -- spell out the default lengths: omitted fields keep their values
          grid:set_movement({ diagonals = rule, cardinal = len.cardinal or 1,
                              diagonal = len.diagonal or math.sqrt(2) })
          case.rule, case.lengths = rule, len
          case.desc.diagonals = rule
          case.desc.cardinal, case.desc.diagonal = len.cardinal, len.diagonal
          case.integer = false -- recomputed below
          edits[#edits + 1] = ("set_movement(%s, %s)"):format(rule, len.name)
        end
        local all_int = case.lengths.integer
        for k = 1, w * h do
          local c = case.costs[k]
          if c and c ~= math.floor(c) then all_int = false end
        end
        case.integer = all_int
        local rctx = ("%s round=%d edits: %s"):format(
          ctx, round, table.concat(edits, " "))
        check_tiles(case, rctx)
        for _ = 1, 3 do
          local sx, sy, gx, gy = pick_query(rng, case)
          check_query(case, state, rng, rctx, admissible_options(rng, case),
                      "optimal", sx, sy, gx, gy)
        end
      end
    end
  end)

  it("weighted A* stays within weight * optimum: 300 grids", function()
    local weights = { 1.25, 1.5, 2, 3, 10 }
    run_block(900000, 300, nil, 3, function(rng)
      local wt = rng:pick(weights)
      return { weight = wt }, { weight = wt }
    end)
  end)

  it("any heuristic finds a legal path exactly when one exists: 300 grids",
     function()
    local names = { "default", "manhattan", "chebyshev", "octile",
                    "euclidean", "zero" }
    run_block(1000000, 300, nil, 3, function(rng)
      local opts = { heuristic = rng:pick(names) }
      if rng:chance(0.3) then opts.weight = rng:pick({ 1, 1.5, 4 }) end
      return opts, "legal"
    end)
  end)
end)
