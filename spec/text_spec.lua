-- Grids from and to text and tables: astar.from_string, astar.from_table,
-- tostring(grid) and the round trip between them.
local astar = require("astar")
local helpers = require("helpers")

local tiles = helpers.tiles

describe("astar.from_string", function()
  it("takes its size from the text", function()
    local g = astar.from_string("....\n....\n....")
    assert.are.same({ 4, 3 }, { g:size() })
    g = astar.from_string(".")
    assert.are.same({ 1, 1 }, { g:size() })
    g = astar.from_string("..........")
    assert.are.same({ 10, 1 }, { g:size() })
    g = astar.from_string(".\n.\n.\n.\n")
    assert.are.same({ 1, 4 }, { g:size() })
  end)

  it("uses the default legend: . 1, # blocked, 1..9 their costs", function()
    local g = astar.from_string(".#123\n45678\n9....")
    assert.are.same({ 1, false, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 1, 1, 1 },
                    tiles(g))
  end)

  it("reads LF and CRLF, with or without a final newline", function()
    for _, text in ipairs({ "#.\n.9", "#.\n.9\n", "#.\r\n.9",
                            "#.\r\n.9\r\n" }) do
      local g = astar.from_string(text)
      assert.are.same({ 2, 2 }, { g:size() })
      assert.are.same({ false, 1, 1, 9 }, tiles(g))
    end
  end)

  it("takes a legend of single characters", function()
    local g = astar.from_string("~~w\nT.x", { ["~"] = 0.5, w = 3, T = false,
                                             ["."] = 1, x = 1e6 })
    assert.are.same({ 0.5, 0.5, 3, false, 1, 1e6 }, tiles(g))
  end)

  it("takes movement options after the legend", function()
    local g = astar.from_string("...\n...", nil, { diagonals = "never",
                                                   cardinal = 2 })
    assert.are.same({ diagonals = "never", cardinal = 2,
                      diagonal = math.sqrt(2) }, g:get_movement())
    local _, cost = g:find_path(1, 1, 2, 2)
    assert.are.equal(4, cost)
  end)
end)

describe("astar.from_table", function()
  it("reads rows of costs and false", function()
    local g = astar.from_table({ { 1, 1, false }, { 1, 5, 1 } })
    assert.are.same({ 3, 2 }, { g:size() })
    assert.are.same({ 1, 1, false, 1, 5, 1 }, tiles(g))
  end)

  it("reads a single tile, a single row and a single column", function()
    assert.are.same({ 7 }, tiles(astar.from_table({ { 7 } })))
    local row = astar.from_table({ { 1, 2, 3, 4 } })
    assert.are.same({ 4, 1 }, { row:size() })
    local col = astar.from_table({ { 1 }, { false }, { 3 } })
    assert.are.same({ 1, 3 }, { col:size() })
    assert.are.same({ 1, false, 3 }, tiles(col))
  end)

  it("takes movement options", function()
    local g = astar.from_table({ { 1, 1 }, { 1, 1 } }, { diagonals = "always",
                                                          diagonal = 1 })
    assert.are.same({ diagonals = "always", cardinal = 1, diagonal = 1 },
                    g:get_movement())
  end)

  it("does not keep a reference to the table", function()
    local rows = { { 1, 2 }, { 3, 4 } }
    local g = astar.from_table(rows)
    rows[1][1] = false
    assert.are.equal(1, g:get_cost(1, 1))
  end)
end)

describe("tostring(grid)", function()
  it("writes # blocked, . cost 1, 2..9 and ~ for other costs", function()
    local g = astar.from_table({
      { 1, false, 2, 3, 4 },
      { 5, 6, 7, 8, 9 },
      { 0.5, 2.5, 10, 1e6, 1 },
    })
    assert.are.same({ ".#234", "56789", "~~~~." }, helpers.lines(tostring(g)))
  end)

  it("writes one line per row", function()
    local g = astar.new(3, 4)
    local text = tostring(g)
    assert.are.same({ "...", "...", "...", "..." }, helpers.lines(text))
    assert.is_nil(text:find("\r", 1, true))
    assert.are.same({ "." }, helpers.lines(tostring(astar.new(1, 1))))
  end)

  it("round-trips through from_string", function()
    local rng = helpers.rng(2024)
    for _ = 1, 50 do
      local w, h = rng:int(1, 30), rng:int(1, 30)
      local costs = {}
      for i = 1, w * h do
        costs[i] = rng:chance(0.3) and false or rng:int(1, 9)
      end
      local g = astar.new(w, h)
      g:load(costs)
      local text = tostring(g)
      local back = astar.from_string(text)
      assert.are.same({ w, h }, { back:size() })
      assert.are.same(costs, tiles(back))
      assert.are.equal(text, tostring(back))
    end
  end)

  it("round-trips through load_string", function()
    local g = astar.from_string("#.9\n3#.")
    local h = astar.new(3, 2)
    h:load_string(tostring(g))
    assert.are.same(tiles(g), tiles(h))
  end)
end)
