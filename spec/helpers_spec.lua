-- The test helpers themselves: the reference Dijkstra and check_path on
-- hand-computed cases and against an even plainer Bellman-Ford, and the
-- portable random generator.  Needs no astar module.
local helpers = require("helpers")

local S2 = math.sqrt(2)

local function desc(text, movement)
  return helpers.desc_from_text(text, movement)
end

describe("helpers.dijkstra", function()
  it("tells the four diagonal rules apart on 2x2 maps", function()
    local corner = "..\n#."   -- one tile beside the diagonal is a wall
    local squeeze = ".#\n#."  -- both are
    local open = "..\n.."
    local want = {
      no_corner_cut = { 2, nil, S2 },
      one_free = { S2, nil, S2 },
      always = { S2, S2, S2 },
      never = { 2, nil, 2 },
    }
    for rule, w in pairs(want) do
      local m = { diagonals = rule }
      assert.are.equal(w[1], helpers.dijkstra(desc(corner, m), 1, 1, 2, 2))
      assert.are.equal(w[2], helpers.dijkstra(desc(squeeze, m), 1, 1, 2, 2))
      assert.are.equal(w[3], helpers.dijkstra(desc(open, m), 1, 1, 2, 2))
    end
  end)

  it("charges the tile entered, never the start", function()
    local d = desc("9.5")
    assert.are.equal(6, helpers.dijkstra(d, 1, 1, 3, 1))
    assert.are.equal(10, helpers.dijkstra(d, 3, 1, 1, 1))
    assert.are.equal(0, helpers.dijkstra(d, 1, 1, 1, 1))
  end)

  it("uses the step lengths", function()
    local open = "....\n....\n...."
    assert.are.equal(8, helpers.dijkstra(
      desc(open, { cardinal = 2, diagonal = 3 }), 1, 1, 4, 3))
    assert.are.equal(3, helpers.dijkstra(
      desc(open, { cardinal = 1, diagonal = 1 }), 1, 1, 4, 3))
    assert.are.equal(5, helpers.dijkstra(
      desc(open, { cardinal = 1, diagonal = 3 }), 1, 1, 4, 3))
    -- diagonal shorter than cardinal: zig-zag along two rows
    assert.are.equal(6, helpers.dijkstra(
      desc(open, { cardinal = 3, diagonal = 2 }), 1, 1, 4, 2))
    assert.is_true(helpers.close(2 * S2 + 1,
                                 helpers.dijkstra(desc(open), 1, 1, 4, 3),
                                 1e-15))
  end)

  it("returns the reasons astar gives", function()
    local d = desc(".#.\n##.\n#..")
    assert.are.same({ nil, "start_blocked" },
                    { helpers.dijkstra(d, 2, 1, 2, 1) })
    assert.are.same({ nil, "start_blocked" },
                    { helpers.dijkstra(d, 2, 1, 1, 2) })
    assert.are.same({ nil, "goal_blocked" },
                    { helpers.dijkstra(d, 1, 1, 2, 2) })
    assert.are.same({ nil, "no_path" }, { helpers.dijkstra(d, 1, 1, 3, 3) })
    assert.are.equal(3, helpers.dijkstra(d, 3, 1, 2, 3))
  end)

  it("agrees with a Bellman-Ford relaxation on 300 random small grids",
     function()
    for seed = 1, helpers.cases(300) do
      local rng = helpers.rng(seed)
      local w, h = rng:int(1, 7), rng:int(1, 7)
      local costs = {}
      for i = 1, w * h do
        costs[i] = rng:chance(0.3) and false or rng:int(1, 9)
      end
      local len = rng:pick(helpers.LENGTHS)
      local d = helpers.describe(w, h, costs, {
        diagonals = rng:pick(helpers.RULES),
        cardinal = len.cardinal, diagonal = len.diagonal })
      local sx, sy = rng:int(1, w), rng:int(1, h)
      -- Bellman-Ford from the start over every legal step
      local dist = {}
      if costs[(sy - 1) * w + sx] then dist[(sy - 1) * w + sx] = 0 end
      for _ = 1, w * h do
        for y = 1, h do
          for x = 1, w do
            local dv = dist[(y - 1) * w + x]
            if dv then
              for _, dir in ipairs(helpers.DIRS) do
                local c = helpers.step_cost(d, x, y, dir[1], dir[2])
                if c then
                  local k = (y + dir[2] - 1) * w + x + dir[1]
                  if dist[k] == nil or dv + c < dist[k] then
                    dist[k] = dv + c
                  end
                end
              end
            end
          end
        end
      end
      for gy = 1, h do
        for gx = 1, w do
          local ref = helpers.dijkstra(d, sx, sy, gx, gy)
          local bf = dist[(gy - 1) * w + gx]
          if not costs[(gy - 1) * w + gx] then bf = nil end
          if bf == nil then
            assert.is_nil(ref, "seed " .. seed)
          else
            assert.is_true(helpers.close(ref, bf, 1e-12), "seed " .. seed)
          end
        end
      end
    end
  end)
end)

describe("helpers.check_path", function()
  local d = desc("..\n#.")

  it("sums a legal path", function()
    assert.are.equal(2, helpers.check_path(d, { 1, 1, 2, 1, 2, 2 },
                                           1, 1, 2, 2))
    assert.are.equal(0, helpers.check_path(d, { 1, 1 }, 1, 1, 1, 1))
  end)

  it("rejects illegal paths", function()
    local bad = {
      { 1, 1, 2, 2 },             -- cuts the corner of (1,2)
      { 1, 1, 1, 2, 2, 2 },       -- enters a wall
      { 1, 1, 2, 1 },             -- ends elsewhere
      { 2, 1, 2, 2 },             -- starts elsewhere
      { 1, 1, 2, 1, 2, 1, 2, 2 }, -- a step that does not move
      { 1, 1, 2, 1, 2, 3 },       -- jumps / leaves the grid
      { 1, 1, 2, 1, 2 },          -- odd length
      { 1, 1, 1.5, 1, 2, 2 },     -- not an integer
      {},
    }
    for i, p in ipairs(bad) do
      local c, msg = helpers.check_path(d, p, 1, 1, 2, 2)
      assert.is_nil(c, "bad path #" .. i .. " accepted")
      assert.are.equal("string", type(msg))
    end
    local c = helpers.check_path(desc("..\n#.", { diagonals = "one_free" }),
                                 { 1, 1, 2, 2 }, 1, 1, 2, 2)
    assert.are.equal(S2, c)
  end)
end)

describe("helpers.rng", function()
  it("gives the same sequence on every runtime", function()
    -- Park-Miller minimal standard: 16807^n mod (2^31 - 1) from seed 1;
    -- the generator skips three values after seeding.
    local r = helpers.rng(1)
    assert.are.equal(984943658, r:next())
    assert.are.equal(1144108930, r:next())
    local a, b = helpers.rng(42), helpers.rng(42)
    for _ = 1, 100 do assert.are.equal(a:next(), b:next()) end
  end)

  it("keeps int() in range and reaches both ends", function()
    local r = helpers.rng(7)
    local seen = {}
    for _ = 1, 2000 do
      local v = r:int(1, 9)
      assert.is_true(v >= 1 and v <= 9 and v == math.floor(v))
      seen[v] = true
    end
    for v = 1, 9 do assert.is_true(seen[v]) end
  end)
end)
