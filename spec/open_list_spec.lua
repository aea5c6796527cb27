-- The A* loop's open list (issue 19 part 3): the bucket queue runs where
-- its order is the heap's (the default heuristic, weight 1, no callbacks,
-- no key rules of the options) and gives exactly the heap's answers:
-- the same costs, and mostly the same paths (they may differ only among
-- nodes of equal f and g, so paths of equal cost); `open_list = "heap"` keeps the heap; sliced
-- queries resume it; stats.open_list says which ran.  Every MovingAI
-- scenario runs through it in maps_spec.lua (#slow); a sample runs here.
local astar = require("astar")
local helpers = require("helpers")

local same_path = helpers.same_list

-- A random small grid with a terrain and a unit class, any rule (hex too).
local function random_grid(rng)
  local case = helpers.random_case(rng, astar, {
    width = rng:int(1, 16), height = rng:int(1, 16),
    rule = rng:pick(helpers.ALL_RULES),
  })
  local g = case.grid
  g:define_terrain("mud")
  for _ = 1, rng:int(0, 12) do
    g:set_terrain(rng:int(1, case.width), rng:int(1, case.height), "mud")
  end
  g:set_unit("walker", { mud = 3 })
  return case
end

-- Options under which the bucket queue runs (nil: none).
local function bucket_options(rng, case)
  local w, h = case.width, case.height
  local o = { algorithm = rng:pick({ "astar", "auto" }) }
  local f = rng:int(1, 5)
  local function tiles(k, per)
    local t = {}
    for _ = 1, k do
      t[#t + 1] = rng:int(1, w)
      t[#t + 1] = rng:int(1, h)
      if per == 3 then t[#t + 1] = rng:pick({ 0, 0.5, 1, 2, 7 }) end
    end
    return t
  end
  if f == 1 then o.unit = "walker"
  elseif f == 2 then o.avoid = tiles(rng:int(0, 10), 2)
  elseif f == 3 then o.extra_cost = tiles(rng:int(1, 10), 3)
  elseif f == 4 then o.heuristic = "default"
  end
  if rng:chance(0.3) then o.zones = false end
  return o
end

describe("open_list", function()
  it("bucket and heap give the same costs and paths on random grids, "
    .. "against the reference", function()
    local bucket_runs, seeds = 0, helpers.cases(300)
    for seed = 1, seeds do
      local rng = helpers.rng(seed * 104729)
      local case = random_grid(rng)
      local g = case.grid
      for _ = 1, 4 do
        local sx, sy = helpers.pick_tile(rng, case)
        local gx, gy = helpers.pick_tile(rng, case)
        local o = bucket_options(rng, case)
        local sb, sh = {}, {}
        o.stats = sb
        local p1, c1 = g:find_path(sx, sy, gx, gy, o)
        o.stats, o.open_list = sh, "heap"
        local p2, c2 = g:find_path(sx, sy, gx, gy, o)
        local ctx = helpers.describe_case(seed, case,
          ("(%d,%d)->(%d,%d)"):format(sx, sy, gx, gy))
        assert.are.equal(c2, c1, ctx)
        assert.are.equal("heap", sh.open_list, ctx)
        if sb.algorithm == "astar" and sb.expanded > 0 then
          assert.are.equal("bucket", sb.open_list, ctx)
          bucket_runs = bucket_runs + 1
        end
        if p1 then
          -- paths of equal cost may differ (ties of equal f and g: on
          -- these small integer-cost grids about one in eight)
          if o.unit == nil and o.avoid == nil and o.extra_cost == nil
             and case.rule ~= "hex" then
            local want = helpers.dijkstra(case.desc, sx, sy, gx, gy)
            assert.is_true(helpers.close(want, c1, 1e-9), ctx)
            local walked, why = helpers.check_path(case.desc, p1, sx, sy,
                                                   gx, gy)
            assert(walked, ctx .. ": " .. tostring(why))
            assert.is_true(helpers.close(want, walked, 1e-9), ctx)
          end
        else
          assert.is_nil(p2, ctx)
        end
      end
    end
    assert.is_true(bucket_runs > seeds, "the bucket queue ran " .. bucket_runs)
  end)

  it("keeps the heap where the queue could not be exact", function()
    local g = astar.new(12, 12)
    g:set_blocked(5, 2, true)
    local function which(o)
      local s = {}
      o.stats = s
      g:find_path(1, 1, 12, 12, o)
      return s.open_list
    end
    assert.are.equal("bucket", which({ algorithm = "astar" }))
    assert.are.equal("heap", which({ algorithm = "astar", open_list = "heap" }))
    assert.are.equal("heap", which({ algorithm = "astar", weight = 1.5 }))
    assert.are.equal("heap", which({ algorithm = "astar", heuristic = "octile" }))
    assert.are.equal("heap", which({ algorithm = "astar", ties = "straight" }))
    assert.are.equal("heap", which({ algorithm = "dijkstra" }))
    assert.are.equal("heap", which({ algorithm = "astar",
      tile_cost = function(_, _, c) return c end }))
    assert.are.equal("heap", which({ algorithm = "astar", max_cost = 100 }))
    assert.are.equal("heap", which({ algorithm = "jps" }))
  end)

  it("refuses an unknown open list, naming the argument", function()
    local g = astar.new(4, 4)
    local msg = helpers.error_of(g.find_path, g, 1, 1, 4, 4,
                                 { open_list = "fast" })
    assert.matches("bad argument #6 to 'find_path' (open_list must be one of 'auto', 'heap', got 'fast')",
                   msg, 1, true)
    assert.is_truthy(g:find_path(1, 1, 4, 4, { open_list = "auto" }))
    assert.is_truthy(g:find_path(1, 1, 4, 4, { open_list = "heap" }))
  end)

  it("resumes across slices: a sliced query answers as one-shot find_path",
    function()
    for seed = 1, helpers.cases(120) do
      local rng = helpers.rng(seed * 15485863)
      local case = random_grid(rng)
      local g = case.grid
      local sx, sy = helpers.pick_tile(rng, case)
      local gx, gy = helpers.pick_tile(rng, case)
      local o = bucket_options(rng, case)
      local want, wc = g:find_path(sx, sy, gx, gy, o)
      local slice = rng:pick({ 1, 3, 17 })
      local q = g:query(sx, sy, gx, gy, o)
      local steps = 0
      while q:step(slice) == "running" do
        steps = steps + 1
        -- another search on the same grid between slices
        if steps % 3 == 0 then g:find_path(gx, gy, sx, sy, o) end
        assert(steps < 1e5, "the query never ends")
      end
      local got, gc = q:result()
      local ctx = helpers.describe_case(seed, case, "slice " .. slice)
      assert.are.equal(wc, gc, ctx)
      if want then assert.is_true(same_path(want, got), ctx) end
      q:close()
    end
  end)

  it("costs match the optimal lengths on a sample of every MovingAI map",
    function()
    local dir = helpers.maps_dir()
    if not dir then
      pending("../shared/maps not found")
      return
    end
    local movingai = require("astar.movingai")
    for _, name in ipairs({ "arena", "brc202d", "maze512-4-0", "32room_000",
                            "Berlin_0_512", "random512-10-0", "lak303d" }) do
      local scen = dir .. "/" .. name .. ".map.scen"
      local entries = assert(movingai.read_scenarios(scen))
      local grid = assert(astar.load_movingai(
        assert(movingai.map_path_for(scen, entries[1]))))
      local stats = {}
      for k = #entries, 1, -math.floor(#entries / 6) do -- the longest first
        local e = entries[k]
        local p, c = grid:find_path(e.sx, e.sy, e.gx, e.gy,
                                    { algorithm = "astar", stats = stats })
        local ctx = ("%s #%d"):format(name, k)
        assert.is_truthy(p, ctx)
        assert.are.equal("bucket", stats.open_list, ctx)
        assert.is_true(math.abs(c - e.length)
                       <= movingai.tolerance(e.length_text), ctx)
        local _, ch = grid:find_path(e.sx, e.sy, e.gx, e.gy,
                                     { algorithm = "astar", open_list = "heap" })
        assert.are.equal(ch, c, ctx)
      end
    end
  end)

  it("reports its memory in the grid's", function()
    local g = astar.new(64, 64)
    g:find_path(1, 1, 64, 64, { algorithm = "astar", open_list = "heap" })
    local before = g:memory()
    g:find_path(1, 1, 64, 64, { algorithm = "astar" })
    local after = g:memory()
    assert.is_true(after >= before + 64 * 64 * 8, before .. " -> " .. after)
    g:find_path(1, 1, 64, 64, { algorithm = "astar" })
    assert.are.equal(after, g:memory()) -- warm: nothing more
  end)
  it("holds what the largest one search needed, not more as searches go by",
    function()
    -- The buckets share one pool of blocks that every search takes back
    -- whole, so a grid that ran many searches holds exactly what the
    -- neediest of them alone makes it hold (separate arrays per bucket
    -- grew to the sum of each one's own largest instead).
    local rng, W = helpers.rng(4242), 64
    local blocked = {}
    for k = 1, math.floor(W * W / 5) do
      blocked[k] = { rng:int(1, W), rng:int(1, W) }
    end
    local function make()
      local g = astar.new(W, W)
      for _, t in ipairs(blocked) do g:set_blocked(t[1], t[2], true) end
      g:find_path(1, 1, 1, 1, { algorithm = "astar" }) -- the context
      return g
    end
    local queries = {}
    for k = 1, helpers.cases(60) do
      queries[k] = { rng:int(1, W), rng:int(1, W), rng:int(1, W), rng:int(1, W) }
    end
    local all, out, found, neediest = make(), {}, 0, 0
    local base = all:memory()
    for _, q in ipairs(queries) do
      if all:find_path(q[1], q[2], q[3], q[4], { algorithm = "astar" }, out) then
        found = found + 1
      end
      local one = make()
      one:find_path(q[1], q[2], q[3], q[4], { algorithm = "astar" }, out)
      neediest = math.max(neediest, one:memory())
    end
    assert.is_true(found >= #queries / 2, found)
    assert.is_true(neediest > base, "the searches used the queue")
    assert.are.equal(neediest, all:memory())
  end)
end)
