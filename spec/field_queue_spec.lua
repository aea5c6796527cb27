-- Fields: the bucket ring and the radix heap (the default queues) give
-- exactly the values of the binary heap (queue = "heap"), bit for bit, on
-- random grids of every rule and hex, step lengths, weights, heights with
-- asymmetric climb and descend, start values, max_cost, both directions,
-- avoid and extra_cost, links, sizes and tile callbacks; and so do flee
-- and combine's rescans.  (field_spec checks the values against the
-- reference Dijkstra.)
local astar = require("astar")
local helpers = require("helpers")

-- Every tile of a and b: the same value, or no value in both.
local function same(a, b, w, h, what)
  for y = 1, h do
    for x = 1, w do
      local va, vb = a:get(x, y), b:get(x, y)
      assert(va == vb, ("%s: (%d,%d) %s with the default queue, %s with " ..
        "the heap"):format(what, x, y, tostring(va), tostring(vb)))
    end
  end
  assert(a:count() == b:count(), what .. ": counts differ")
end

local function case_of(seed)
  local rng = helpers.rng(seed * 104729)
  local hex = rng:chance(0.15)
  local case = helpers.random_case(rng, astar, {
    width = rng:int(1, 22), height = rng:int(1, 22),
    rule = hex and "hex" or nil, wall = rng:int(0, 35) / 100 })
  local g, w, h = case.grid, case.width, case.height
  local function open(x, y) return case.costs[(y - 1) * w + x] end
  local opts = { direction = rng:pick({ "to", "from" }) }
  if rng:chance(0.25) then -- a unit with heights (asymmetric costs)
    for y = 1, h do
      for x = 1, w do g:set_height(x, y, rng:int(0, 3)) end
    end
    g:set_unit("walker", {}, { climb = rng:pick({ 0, 0.5, 2 }),
                               descend = rng:pick({ 0, 0.25, 1 }),
                               max_climb = rng:chance(0.3) and 1 or nil })
    opts.unit = "walker"
  end
  local goals = {}
  for _ = 1, rng:int(1, 3) do
    local x, y = helpers.pick_tile(rng, case)
    if open(x, y) then
      goals[#goals + 1] = x
      goals[#goals + 1] = y
    end
  end
  if #goals == 0 then return nil end
  if rng:chance(0.3) then
    opts.values = {}
    for k = 1, #goals / 2 do opts.values[k] = rng:int(-40, 40) / 8 end
  end
  if rng:chance(0.2) then opts.max_cost = rng:int(0, 30) end
  if rng:chance(0.15) then
    opts.avoid = { rng:int(1, w), rng:int(1, h) }
    opts.extra_cost = { rng:int(1, w), rng:int(1, h), 2.5 }
  end
  if rng:chance(0.15) then
    local x1, y1 = helpers.pick_tile(rng, case)
    local x2, y2 = helpers.pick_tile(rng, case)
    if (x1 ~= x2 or y1 ~= y2) and open(x1, y1) and open(x2, y2) then
      g:link(x1, y1, x2, y2, rng:int(0, 6), rng:chance(0.5))
    end
  end
  if rng:chance(0.1) then
    opts.tile_cost = function(x, y, c)
      if (x * 7 + y * 3) % 11 == 0 then return false end
      return c * (1 + (x + y) % 3)
    end
  end
  if rng:chance(0.1) and not opts.unit then opts.size = 2 end
  return g, w, h, goals, opts
end

local function heap_opts(opts)
  local o = { queue = "heap" }
  for k, v in pairs(opts) do o[k] = v end
  return o
end

describe("field queues", function()
  it("the default queues give the binary heap's values, bit for bit " ..
     "(builds, flee, combine)", function()
    local n = helpers.cases(300)
    local built = 0
    for seed = 1, n do
      local g, w, h, goals, opts = case_of(seed)
      if g then
        local what = ("seed=%d %dx%d"):format(seed, w, h)
        local ok, a = pcall(g.field, g, goals, opts)
        if ok then
          local b = g:field(goals, heap_opts(opts))
          same(a, b, w, h, what)
          same(a:flee(), b:flee(), w, h, what .. " flee")
          same(a:flee(1.5), b:flee(1.5), w, h, what .. " flee(1.5)")
          local a2 = g:field(goals[1], goals[2], { unit = opts.unit,
                                                  direction = opts.direction })
          local b2 = g:field(goals[1], goals[2], { unit = opts.unit,
            direction = opts.direction, queue = "heap" })
          same(astar.combine({ a, 1, a2, -0.5 }, { rescan = true }),
               astar.combine({ b, 1, b2, -0.5 }, { rescan = true }), w, h,
               what .. " combine")
          built = built + 1
        end
      end
    end
    assert(built > n / 3, "too few fields built: " .. built)
  end)

  it("a 200 x 200 map: the ring, a reused field and the heap agree",
     function()
    local rng = helpers.rng(4242)
    local case = helpers.random_case(rng, astar, { width = 200, height = 200,
      rule = "no_corner_cut", weights = "int", wall = 0.2 })
    local g = case.grid
    local x, y = helpers.pick_tile(rng, case)
    local a = g:field(x, y)
    local b = g:field(x, y, { queue = "heap" })
    same(a, b, 200, 200, "200x200")
    g:field(x, y, nil, b) -- the heap's field reused by the default queue
    same(a, b, 200, 200, "200x200 reused")
    same(a:flee(), b:flee(), 200, 200, "200x200 flee")
  end)

  it("rejects an unknown queue", function()
    local g = astar.new(4, 4)
    local ok, err = pcall(g.field, g, 1, 1, { queue = "bucket" })
    assert.is_false(ok)
    assert.matches("queue must be one of 'auto', 'heap'", err, 1, true)
  end)
end)
