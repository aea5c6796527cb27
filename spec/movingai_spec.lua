-- MovingAI files: astar.parse_movingai / astar.load_movingai (maps),
-- astar.read_scenarios (scenarios) and astar.movingai.tolerance.
local astar = require("astar")
local movingai = require("astar.movingai")
local helpers = require("helpers")

-- 4 wide, 3 high; every character of the format once.
local ROWS = { ".G@O", "TSW.", "...." }
local PASSABLE = {
  ["."] = true, G = true, S = true,
  ["@"] = false, O = false, T = false, W = false,
}

local function map_text(rows, nl, final)
  local h, w = #rows, #rows[1]
  local lines = { "type octile", "height " .. h, "width " .. w, "map" }
  for i = 1, #rows do lines[#lines + 1] = rows[i] end
  local text = table.concat(lines, nl)
  if final then text = text .. nl end
  return text
end

local function check_map(grid, rows)
  assert.is_not_nil(grid)
  local w, h = grid:size()
  assert.are.equal(#rows[1], w)
  assert.are.equal(#rows, h)
  for y = 1, h do
    for x = 1, w do
      local ch = rows[y]:sub(x, x)
      if PASSABLE[ch] then
        assert.are.equal(1, grid:get_cost(x, y))
      else
        assert.are.equal(false, grid:get_cost(x, y))
      end
    end
  end
end

local VARIANTS = {
  { "LF with final newline", "\n", true },
  { "LF without final newline", "\n", false },
  { "CRLF with final newline", "\r\n", true },
  { "CRLF without final newline", "\r\n", false },
}

describe("astar.parse_movingai", function()
  for _, v in ipairs(VARIANTS) do
    it("reads " .. v[1], function()
      local grid = astar.parse_movingai(map_text(ROWS, v[2], v[3]))
      check_map(grid, ROWS)
    end)
  end

  it("uses the MovingAI movement by default", function()
    local grid = astar.parse_movingai(map_text(ROWS, "\n", true))
    assert.are.same({ diagonals = "no_corner_cut", cardinal = 1,
                      diagonal = math.sqrt(2) }, grid:get_movement())
  end)

  it("takes movement options", function()
    local grid = astar.parse_movingai(map_text(ROWS, "\n", true),
      { diagonals = "never", cardinal = 2, diagonal = 3 })
    assert.are.same({ diagonals = "never", cardinal = 2, diagonal = 3 },
                    grid:get_movement())
  end)

  it("finds paths on what it read, with the benchmark's corner rule", function()
    -- (1,1) -> (2,2) would cut the corner of T at (1,2)
    local rows = { "..", "T." }
    local grid = astar.parse_movingai(map_text(rows, "\n", true))
    local path, cost = grid:find_path(1, 1, 2, 2)
    assert.are.same({ 1, 1, 2, 1, 2, 2 }, path)
    assert.are.equal(2, cost)
  end)

  it("reads a 1x1 map", function()
    check_map(astar.parse_movingai(map_text({ "." }, "\n", true)), { "." })
    check_map(astar.parse_movingai(map_text({ "@" }, "\n", false)), { "@" })
  end)

  local malformed = {
    { "empty text", "" },
    { "no header", "....\n....\n" },
    { "missing type line", "height 1\nwidth 2\nmap\n..\n" },
    { "height and width swapped", "type octile\nwidth 2\nheight 1\nmap\n..\n" },
    { "missing map line", "type octile\nheight 1\nwidth 2\n..\n" },
    { "height not a number", "type octile\nheight x\nwidth 2\nmap\n..\n" },
    { "zero width", "type octile\nheight 1\nwidth 0\nmap\n\n" },
    { "too few rows", "type octile\nheight 3\nwidth 2\nmap\n..\n..\n" },
    { "too many rows", "type octile\nheight 1\nwidth 2\nmap\n..\n..\n" },
    { "short row", "type octile\nheight 2\nwidth 3\nmap\n...\n..\n" },
    { "long row", "type octile\nheight 2\nwidth 2\nmap\n..\n...\n" },
    { "unknown character", "type octile\nheight 1\nwidth 3\nmap\n.X.\n" },
    { "header only", "type octile\nheight 1\nwidth 1\nmap\n" },
  }
  for _, m in ipairs(malformed) do
    it("returns nil and a message for malformed text: " .. m[1], function()
      local grid, msg = astar.parse_movingai(m[2])
      assert.is_nil(grid)
      assert.are.equal("string", type(msg))
      assert.is_true(#msg > 0)
    end)
  end
  -- The rows are checked before the grid is allocated: a file of a few
  -- bytes that announces 16000 x 65534 tiles (5.4 GB of grid) costs what
  -- the file costs and gets the usual nil plus a message.
  local huge = {
    { "no rows", "type octile\nheight 16000\nwidth 65534\nmap\n",
      "expected 16000 rows, got 0" },
    { "one short row", "type octile\nheight 16000\nwidth 65534\nmap\n.\n",
      "line 5 has 1 characters, expected 65534" },
    { "CRLF, no final newline",
      "type octile\r\nheight 65534\r\nwidth 16000\r\nmap\r\n" .. ("."):rep(16000),
      "expected 65534 rows, got 1" },
  }
  for _, c in ipairs(huge) do
    it("checks the rows before allocating a huge announced map: " .. c[1],
       function()
      local grid, msg = astar.parse_movingai(c[2])
      assert.is_nil(grid)
      assert.are.equal(c[3], msg)
    end)
  end

  it("reports row errors with file line numbers (LF or CRLF)", function()
    for _, nl in ipairs({ "\n", "\r\n" }) do
      local head = table.concat({ "type octile", "height 3", "width 2", "map" },
                                nl) .. nl
      local _, msg = astar.parse_movingai(head .. ".." .. nl .. "..." .. nl)
      assert.are.equal("line 6 has 3 characters, expected 2", msg)
      _, msg = astar.parse_movingai(head .. ".." .. nl .. ".." .. nl)
      assert.are.equal("expected 3 rows, got 2", msg)
      _, msg = astar.parse_movingai(head .. (".." .. nl):rep(4))
      assert.are.equal("expected 3 rows, got at least 4", msg)
      assert.is_truthy(astar.parse_movingai(head .. (".." .. nl):rep(2) .. ".."))
    end
  end)
end)

describe("astar.load_movingai", function()
  for _, v in ipairs(VARIANTS) do
    it("reads a file with " .. v[1], function()
      local name = helpers.temp_file(map_text(ROWS, v[2], v[3]))
      local grid, msg = astar.load_movingai(name)
      os.remove(name)
      assert(grid, msg)
      check_map(grid, ROWS)
    end)
  end

  it("takes movement options", function()
    local name = helpers.temp_file(map_text(ROWS, "\n", true))
    local grid = astar.load_movingai(name, { diagonals = "always" })
    os.remove(name)
    assert.are.equal("always", grid:get_movement().diagonals)
  end)

  it("returns nil and a message for a missing file", function()
    local grid, msg = astar.load_movingai("/nonexistent/dir/none.map")
    assert.is_nil(grid)
    assert.are.equal("string", type(msg))
    assert.truthy(msg:find("none.map", 1, true))
  end)

  it("passes an error its options raise through unchanged, as parse_movingai",
     function()
    local E = {}
    local opts = setmetatable({}, { __index = function() error(E) end })
    for _, f in ipairs({ astar.load_movingai, astar.parse_movingai }) do
      local ok, err = pcall(f, "none.map", opts)
      assert.is_false(ok)
      assert.are.equal(E, err)
    end
  end)

  it("returns nil and a message for a malformed file", function()
    local name = helpers.temp_file("type octile\nheight 2\nwidth 2\nmap\n..\n")
    local grid, msg = astar.load_movingai(name)
    os.remove(name)
    assert.is_nil(grid)
    assert.are.equal("string", type(msg))
  end)
end)

describe("astar.read_scenarios", function()
  local SCEN_2018 = "version 1\n"
    .. "0\tarena.map\t49\t49\t19\t26\t19\t29\t3.00000000\n"
    .. "12\tarena.map\t49\t49\t0\t0\t48\t48\t51.84000000\n"
  local SCEN_2011 = "version 1.0\r\n"
    .. "1\tmaps/mazes/maze512-4-0.map\t512\t512\t399\t461\t403\t465\t5.65685\r\n"
    .. "2\tmaps/mazes/maze512-4-0.map\t512\t512\t0\t1\t0\t13\t12"

  it("returns 1-based coordinates and the printed length", function()
    local name = helpers.temp_file(SCEN_2018)
    local list, msg = astar.read_scenarios(name)
    os.remove(name)
    assert(list, msg)
    assert.are.same({
      { bucket = 0, map = "arena.map", width = 49, height = 49,
        sx = 20, sy = 27, gx = 20, gy = 30, length = 3,
        length_text = "3.00000000" },
      { bucket = 12, map = "arena.map", width = 49, height = 49,
        sx = 1, sy = 1, gx = 49, gy = 49, length = 51.84,
        length_text = "51.84000000" },
    }, list)
  end)

  it("reads the 2011 format with CRLF and no final newline", function()
    local name = helpers.temp_file(SCEN_2011)
    local list, msg = astar.read_scenarios(name)
    os.remove(name)
    assert(list, msg)
    assert.are.equal(2, #list)
    assert.are.equal("maps/mazes/maze512-4-0.map", list[1].map)
    assert.are.same({ 400, 462, 404, 466 },
                    { list[1].sx, list[1].sy, list[1].gx, list[1].gy })
    assert.are.equal("5.65685", list[1].length_text)
    assert.are.equal(5.65685, list[1].length)
    assert.are.equal("12", list[2].length_text)
    assert.are.equal(12, list[2].length)
  end)

  it("returns nil and a message for a missing file", function()
    local list, msg = astar.read_scenarios("/nonexistent/dir/none.map.scen")
    assert.is_nil(list)
    assert.are.equal("string", type(msg))
  end)

  it("returns nil and a message for malformed files", function()
    local bad = {
      "",
      "0\tarena.map\t49\t49\t19\t26\t19\t29\t3.0\n",          -- no version
      "version 1\n0\tarena.map\t49\t49\t19\t26\t19\t3.0\n",    -- 8 fields
      "version 1\n0\tarena.map\t49\t49\t19\t-1\t19\t29\t3.0\n", -- negative
      "version 1\n0\tarena.map\t49\t49\t19\t26\t19\t29\tfar\n", -- length
      "version 1\n0\tarena.map\t49\t49\t49\t26\t19\t29\t3.0\n", -- outside
    }
    for i, text in ipairs(bad) do
      local name = helpers.temp_file(text)
      local list, msg = astar.read_scenarios(name)
      os.remove(name)
      assert.is_nil(list, "malformed scenario text #" .. i .. " was accepted")
      assert.are.equal("string", type(msg))
    end
  end)
end)

describe("astar.movingai.tolerance", function()
  local function near(want, got)
    assert.is_true(math.abs(got - want) <= 1e-12 * want,
      ("tolerance %.17g, expected %.17g"):format(got, want))
  end

  it("is half a unit in the last printed digit plus 1e-6 relative",
     function()
    -- 8 decimals (2018 files)
    near(0.5e-8 + 3e-6, movingai.tolerance("3.00000000"))
    near(0.5e-8 + 51.84e-6, movingai.tolerance("51.84000000"))
    -- %g with 6 significant digits (2011 file)
    near(0.5e-5 + 5.65685e-6, movingai.tolerance("5.65685"))
    near(0.5e-3 + 297.764e-6, movingai.tolerance("297.764"))
    near(0.005 + 3895.15e-6, movingai.tolerance("3895.15"))
    -- a %g integer still had 6 significant digits
    near(0.5e-4 + 12e-6, movingai.tolerance("12"))
    near(0.5e-2 + 1141e-6, movingai.tolerance("1141"))
    near(0.5e-5, movingai.tolerance("0"))
  end)

  it("accepts the maze file's worst rounding, 297.764 for 297.7645019...",
     function()
    local exact = 162 + 96 * math.sqrt(2)
    assert.is_true(math.abs(exact - 297.764) <= movingai.tolerance("297.764"))
    -- and still tells a path one diagonal-vs-straight swap away apart
    local worse = exact + (2 - math.sqrt(2))
    assert.is_false(math.abs(worse - 297.764) <= movingai.tolerance("297.764"))
  end)
end)

describe("parse_movingai on hostile headers", function()
  -- sizes past the limits are results (nil, message), refused before any
  -- allocation
  local cases = {
    { "height 70000", "type octile\nheight 70000\nwidth 4\nmap\n", "map too big" },
    { "65534 x 65534", "type octile\nheight 65534\nwidth 65534\nmap\n", "map too big" },
    { "width 0", "type octile\nheight 4\nwidth 0\nmap\n", "line 3: malformed" },
    { "negative height", "type octile\nheight -4\nwidth 4\nmap\n", "line 2: malformed" },
    { "a huge number", "type octile\nheight 99999999999999999999\nwidth 4\nmap\n", "map too big" },
    { "no map line", "type octile\nheight 1\nwidth 1\n", "line 4: malformed" },
  }
  for _, c in ipairs(cases) do
    it(c[1], function()
      local grid, msg = astar.parse_movingai(c[2])
      assert.is_nil(grid)
      assert.is_truthy(msg:find(c[3], 1, true), msg)
    end)
  end
end)
