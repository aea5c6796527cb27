-- Grids: construction, sizes, reading and editing tiles, loads, movement
-- settings, memory.  (Text in and out: text_spec.lua; bad arguments:
-- bad_input_spec.lua.)
local astar = require("astar")
local helpers = require("helpers")

-- The cost find_path returns (nil and the reason when there is no path).
local function cost_of(g, ...)
  local _, cost = g:find_path(...)
  return cost
end

local tiles = helpers.tiles

-- A flat list of w*h copies of v, with some entries replaced.
local function flat(w, h, v, changes)
  local t = {}
  for i = 1, w * h do t[i] = v end
  for k, c in pairs(changes or {}) do t[k] = c end
  return t
end

describe("astar.new", function()
  it("makes a 1x1 grid", function()
    local g = astar.new(1, 1)
    assert.are.same({ 1, 1 }, { g:size() })
    assert.are.equal(1, g:width())
    assert.are.equal(1, g:height())
    assert.are.equal(1, g:get_cost(1, 1))
    assert.is_false(g:is_blocked(1, 1))
  end)

  it("gives width first, height second", function()
    local g = astar.new(7, 3)
    assert.are.same({ 7, 3 }, { g:size() })
    assert.are.equal(7, g:width())
    assert.are.equal(3, g:height())
    -- (7, 3) is the bottom-right tile; x = 7 exists only on the width axis
    g:set_cost(7, 3, 4)
    assert.are.equal(4, g:get_cost(7, 3))
  end)

  it("makes every tile passable with cost 1 and the documented movement",
     function()
    local g = astar.new(5, 4)
    assert.are.same(flat(5, 4, 1), tiles(g))
    assert.are.same({ diagonals = "no_corner_cut", cardinal = 1,
                      diagonal = math.sqrt(2) }, g:get_movement())
  end)

  it("takes an initial cost, or false for all blocked", function()
    assert.are.same(flat(3, 2, 5), tiles(astar.new(3, 2, { cost = 5 })))
    assert.are.same(flat(3, 2, 0.25), tiles(astar.new(3, 2, { cost = 0.25 })))
    local g = astar.new(3, 2, { cost = false })
    assert.are.same(flat(3, 2, false), tiles(g))
    assert.is_true(g:is_blocked(2, 2))
  end)

  it("takes movement options", function()
    local g = astar.new(3, 3, { diagonals = "always", cardinal = 2,
                                diagonal = 3 })
    assert.are.same({ diagonals = "always", cardinal = 2, diagonal = 3 },
                    g:get_movement())
    assert.are.equal(3, cost_of(g, 1, 1, 2, 2))
  end)

  it("makes a 4096x4096 grid whose corners can be read and set", function()
    local g = astar.new(4096, 4096)
    assert.are.same({ 4096, 4096 }, { g:size() })
    local corners = { { 1, 1 }, { 4096, 1 }, { 1, 4096 }, { 4096, 4096 } }
    for _, c in ipairs(corners) do
      assert.are.equal(1, g:get_cost(c[1], c[2]))
    end
    for i, c in ipairs(corners) do g:set_cost(c[1], c[2], i + 1) end
    for i, c in ipairs(corners) do
      assert.are.equal(i + 1, g:get_cost(c[1], c[2]))
    end
    -- neighbours of the corners are untouched
    assert.are.equal(1, g:get_cost(4095, 4096))
    assert.are.equal(1, g:get_cost(4096, 4095))
    assert.are.equal(1, g:get_cost(2, 1))
    g:set_blocked(4096, 4096)
    assert.is_true(g:is_blocked(4096, 4096))
    -- a short search in a far corner: cost what it touches
    local path, cost = g:find_path(4094, 4094, 4095, 4095)
    assert.are.same({ 4094, 4094, 4095, 4095 }, path)
    assert.are.equal(math.sqrt(2), cost)
    local none, reason = g:find_path(4094, 4094, 4096, 4096)
    assert.is_nil(none)
    assert.are.equal("goal_blocked", reason)
  end)

  it("makes the longest allowed side, 65534, in both directions", function()
    local g = astar.new(65534, 1)
    assert.are.same({ 65534, 1 }, { g:size() })
    g:set_cost(65534, 1, 2)
    assert.are.equal(2, g:get_cost(65534, 1))
    local path, cost = g:find_path(1, 1, 65534, 1)
    assert.are.equal(2 * 65534, #path)
    assert.are.equal(65532 + 2, cost)
    assert.are.same({ 65533, 1, 65534, 1 }, { path[#path - 3], path[#path - 2],
                                            path[#path - 1], path[#path] })
    local v = astar.new(1, 65534)
    assert.are.same({ 1, 65534 }, { v:size() })
    v:set_cost(1, 65534, 3)
    assert.are.equal(3, v:get_cost(1, 65534))
    assert.are.equal(65532 + 3, cost_of(v, 1, 1, 1, 65534))
  end)
end)

describe("grid tiles", function()
  it("set_cost / get_cost round-trip costs exact in 32-bit floats", function()
    local g = astar.new(4, 4)
    local values = { 1, 2, 9, 0.5, 0.25, 2.5, 1000, 1e6, 16777216, 2 ^ -20 }
    for i, v in ipairs(values) do
      local x, y = (i - 1) % 4 + 1, math.floor((i - 1) / 4) + 1
      g:set_cost(x, y, v)
      assert.are.equal(v, g:get_cost(x, y))
      assert.is_false(g:is_blocked(x, y))
    end
  end)

  it("stores costs as 32-bit floats", function()
    local g = astar.new(2, 1)
    g:set_cost(1, 1, 0.1)
    assert.are.equal(0.10000000149011612, g:get_cost(1, 1))
    g:set_cost(2, 1, 16777217)
    assert.are.equal(16777216, g:get_cost(2, 1))
    -- the path cost uses the stored value
    assert.are.equal(0.10000000149011612, cost_of(g, 2, 1, 1, 1))
  end)

  it("set_cost(false) blocks and keeps the stored cost", function()
    local g = astar.new(3, 3)
    g:set_cost(2, 2, 7)
    g:set_cost(2, 2, false)
    assert.are.equal(false, g:get_cost(2, 2))
    assert.is_true(g:is_blocked(2, 2))
    g:set_blocked(2, 2, false)
    assert.are.equal(7, g:get_cost(2, 2))
    assert.is_false(g:is_blocked(2, 2))
  end)

  it("set_blocked blocks by default and unblocks with false", function()
    local g = astar.new(3, 3)
    g:set_cost(1, 3, 4)
    g:set_blocked(1, 3)
    assert.is_true(g:is_blocked(1, 3))
    assert.are.equal(false, g:get_cost(1, 3))
    g:set_blocked(1, 3, true)
    assert.is_true(g:is_blocked(1, 3))
    g:set_blocked(1, 3, false)
    assert.are.equal(4, g:get_cost(1, 3))
    -- unblocking a passable tile changes nothing
    g:set_blocked(2, 3, false)
    assert.are.equal(1, g:get_cost(2, 3))
    -- only the one tile changed
    assert.are.same(flat(3, 3, 1, { [7] = 4 }), tiles(g))
  end)

  it("set_cost on a blocked tile makes it passable", function()
    local g = astar.new(2, 2, { cost = false })
    g:set_cost(2, 1, 3)
    assert.are.same({ false, 3, false, false }, tiles(g))
  end)

  it("fill sets every tile like set_cost", function()
    local g = astar.new(3, 2)
    g:set_blocked(1, 1)
    g:fill(3)
    assert.are.same(flat(3, 2, 3), tiles(g))
    g:fill(false)
    assert.are.same(flat(3, 2, false), tiles(g))
    g:set_blocked(3, 2, false)
    assert.are.equal(3, g:get_cost(3, 2))
    g:fill(0.5)
    assert.are.same(flat(3, 2, 0.5), tiles(g))
  end)

  it("fill_rect fills the rectangle with top-left (x, y) and nothing else",
     function()
    local g = astar.new(5, 4)
    g:fill_rect(2, 2, 3, 2, 9)
    assert.are.same({
      1, 1, 1, 1, 1,
      1, 9, 9, 9, 1,
      1, 9, 9, 9, 1,
      1, 1, 1, 1, 1,
    }, tiles(g))
    g:fill_rect(4, 3, 2, 2, false)   -- reaches the bottom-right corner
    assert.are.same({
      1, 1, 1, 1, 1,
      1, 9, 9, 9, 1,
      1, 9, 9, false, false,
      1, 1, 1, false, false,
    }, tiles(g))
    g:fill_rect(1, 1, 5, 4, 2)       -- the whole grid
    assert.are.same(flat(5, 4, 2), tiles(g))
  end)

  it("fill_rect with w or h 0 changes nothing", function()
    local g = astar.new(3, 3)
    g:fill_rect(2, 2, 0, 2, 5)
    g:fill_rect(2, 2, 2, 0, 5)
    g:fill_rect(1, 1, 0, 0, false)
    assert.are.same(flat(3, 3, 1), tiles(g))
  end)

  it("fill_rect(false) keeps the stored costs", function()
    local g = astar.new(3, 1)
    g:load({ 4, 5, 6 })
    g:fill_rect(1, 1, 3, 1, false)
    assert.are.same({ false, false, false }, tiles(g))
    g:set_blocked(2, 1, false)
    assert.are.same({ false, 5, false }, tiles(g))
  end)
end)

describe("grid:load", function()
  it("loads a flat table", function()
    local g = astar.new(3, 2)
    g:load({ 1, 2, false, 4, 0.5, 6 })
    assert.are.same({ 1, 2, false, 4, 0.5, 6 }, tiles(g))
  end)

  it("loads rows", function()
    local g = astar.new(3, 2)
    g:load({ { 9, false, 3 }, { false, 2, 1 } })
    assert.are.same({ 9, false, 3, false, 2, 1 }, tiles(g))
  end)

  it("replaces every tile, unblocking what it gives a cost", function()
    local g = astar.new(2, 2, { cost = false })
    g:load({ 1, 2, 3, false })
    assert.are.same({ 1, 2, 3, false }, tiles(g))
    g:load({ { 5, 5 }, { 5, 5 } })
    assert.are.same({ 5, 5, 5, 5 }, tiles(g))
  end)

  it("loads a 1x1 grid both ways", function()
    local g = astar.new(1, 1)
    g:load({ 3 })
    assert.are.equal(3, g:get_cost(1, 1))
    g:load({ { false } })
    assert.are.equal(false, g:get_cost(1, 1))
  end)

  it("changes the paths found", function()
    local g = astar.new(3, 3, { diagonals = "never" })
    assert.are.equal(4, cost_of(g, 1, 1, 3, 3))
    g:load({ { 1, 9, 9 }, { 1, 9, 9 }, { 1, 1, 1 } })
    assert.are.same({ 1, 1, 1, 2, 1, 3, 2, 3, 3, 3 }, (g:find_path(1, 1, 3, 3)))
    assert.are.equal(4, cost_of(g, 1, 1, 3, 3))
  end)
end)

describe("grid:load_string", function()
  it("loads text of the grid's size with the default legend", function()
    local g = astar.new(3, 2)
    g:load_string("1.#\n9.2")
    assert.are.same({ 1, 1, false, 9, 1, 2 }, tiles(g))
  end)

  it("accepts CRLF and a final newline", function()
    for _, text in ipairs({ "#..\n..5\n", "#..\r\n..5", "#..\r\n..5\r\n" }) do
      local g = astar.new(3, 2)
      g:load_string(text)
      assert.are.same({ false, 1, 1, 1, 1, 5 }, tiles(g))
    end
  end)

  it("takes a legend", function()
    local g = astar.new(4, 1)
    g:load_string("a~bw", { a = 1, ["~"] = 0.5, b = false, w = 7 })
    assert.are.same({ 1, 0.5, false, 7 }, tiles(g))
  end)
end)

describe("grid movement", function()
  it("set_movement changes what get_movement returns", function()
    local g = astar.new(3, 3)
    g:set_movement({ diagonals = "one_free", cardinal = 2, diagonal = 3 })
    assert.are.same({ diagonals = "one_free", cardinal = 2, diagonal = 3 },
                    g:get_movement())
  end)

  it("set_movement leaves the fields it is not given", function()
    local g = astar.new(3, 3, { cardinal = 2, diagonal = 3 })
    g:set_movement({ diagonals = "never" })
    assert.are.same({ diagonals = "never", cardinal = 2, diagonal = 3 },
                    g:get_movement())
    g:set_movement({ diagonal = 5 })
    assert.are.same({ diagonals = "never", cardinal = 2, diagonal = 5 },
                    g:get_movement())
  end)

  it("set_movement changes the paths found, tiles unchanged", function()
    local g = astar.new(3, 3)
    g:set_cost(2, 2, 4)
    assert.is_true(helpers.close(1 + math.sqrt(2),
      cost_of(g, 1, 1, 3, 2), 1e-15))
    g:set_movement({ diagonals = "never" })
    assert.are.equal(3, cost_of(g, 1, 1, 3, 2))
    g:set_movement({ diagonals = "always", cardinal = 2, diagonal = 3 })
    assert.are.equal(5, cost_of(g, 1, 1, 3, 2))
    assert.are.same({ 1, 1, 1, 1, 4, 1, 1, 1, 1 }, tiles(g))
  end)

  it("get_movement returns a fresh table each time", function()
    local g = astar.new(2, 2)
    local m = g:get_movement()
    m.diagonals = "never"
    assert.are.equal("no_corner_cut", g:get_movement().diagonals)
  end)
end)

describe("grid:memory", function()
  it("counts at least the documented bytes per tile", function()
    local g = astar.new(100, 50)
    local m = g:memory()
    assert.is_true(helpers.is_int(m))
    -- cost (4 bytes) + move mask (1 byte) per tile
    assert.is_true(m >= 100 * 50 * 5, "memory() = " .. tostring(m))
    local big = astar.new(400, 200)
    assert.is_true(big:memory() > m)
  end)

  it("includes the search scratch once a search has run", function()
    local g = astar.new(100, 50)
    local before = g:memory()
    assert.is_truthy(g:find_path(1, 1, 100, 50))
    local after = g:memory()
    assert.is_true(helpers.is_int(after))
    -- README: 8 bytes of search scratch per tile (stamp + heap position)
    assert.is_true(after >= before + 100 * 50 * 8,
      ("memory() %s before the first search, %s after"):format(
        tostring(before), tostring(after)))
  end)
end)
