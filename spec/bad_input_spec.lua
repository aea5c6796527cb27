-- Every bad input and what it gets (the hostile-input list of issue 7; it
-- grows with every feature).  Bad *results* of Lua cost callbacks, and
-- callbacks that raise, yield or edit the grid, are in callbacks_spec.lua.  The contract (docs/api.md): a wrong
-- argument raises `bad argument #N to 'name' (what was wrong)`, N counting
-- the grid as #1 for methods, with the same text on every Lua version; after
-- the error the grid is unchanged and usable.
--
-- An expected message is either exact (the templates docs/api.md gives:
-- "x must be an integer, got 1.5", "x out of range 1..10, got 11",
-- "cost must be a positive finite number or false, got 0", "unknown option
-- 'wieght'", "width out of range 1..65534, got 0"), or, where the docs give no
-- wording, a pattern (starting with ^) that pins the argument number, the
-- function name and the name of what was wrong.
--
-- Every case runs against a 10 x 8 grid (not square, so x and y cannot be
-- swapped unnoticed) with named terrains, unit classes and heights, and then
-- checks that grid's tiles, terrains, heights, unit costs, movement and
-- searches (plain and per unit) are as before.
local astar = require("astar")
local helpers = require("helpers")

local unpack = table.unpack or unpack
local NAN, INF = 0 / 0, 1 / 0
local W, H = 10, 8

local UNITS = { "boat", "walker" }

local function fresh()
  local g = astar.new(W, H, { terrains = { "grass", "water" } })
  g:set_cost(5, 5, 3)
  g:set_cost(2, 7, 0.5)
  g:set_blocked(3, 3)
  g:fill_rect(6, 1, 1, 4, false)
  assert(g:define_terrain("rock") == 2)
  g:fill_terrain("water", 2, 4, 3, 3)
  g:set_terrain(8, 6, "rock")
  g:set_terrain(9, 7, 7) -- an unnamed id
  g:set_unit("boat", { water = 1, ["*"] = false })
  g:set_unit("walker", { water = false, rock = 3 }, { climb = 1, max_climb = 2 })
  g:set_height(7, 7, 2)
  g:set_height(9, 2, -1.5)
  g:set_height(4, 8, 5)
  return g
end

local function snapshot(g)
  local t, terrain, height, units = {}, {}, {}, {}
  for y = 1, H do
    for x = 1, W do
      t[#t + 1] = g:get_cost(x, y)
      terrain[#terrain + 1] = g:get_terrain(x, y)
      height[#height + 1] = g:get_height(x, y)
      for _, u in ipairs(UNITS) do
        units[#units + 1] = g:get_cost(x, y, u)
      end
    end
  end
  local path, cost = g:find_path(1, 1, W, H)
  local wpath, wcost = g:find_path(1, 1, W, H, { unit = "walker" })
  local bpath, bcost = g:find_path(2, 4, 4, 6, { unit = "boat" })
  return { tiles = t, movement = g:get_movement(), path = path, cost = cost,
           size = { g:size() }, terrain = terrain, height = height,
           units = units, walker = { wpath, wcost }, boat = { bpath, bcost },
           ids = { g:define_terrain("grass"), g:define_terrain("water"),
                   g:define_terrain("rock") } }
end

local function pattern_escape(s)
  return (s:gsub("[%^%$%(%)%%%.%[%]%*%+%-%?]", "%%%0"))
end

-- Runs one case: f(g) must raise `expected` and leave g as it was.
local function check(f, expected)
  local g = fresh()
  local before = snapshot(g)
  local msg = helpers.error_of(f, g)
  if expected:sub(1, 1) == "^" then
    assert.is_truthy(msg:find(expected),
      ("message %q does not match %q"):format(msg, expected))
  else
    assert.are.equal(expected, msg)
  end
  assert.are.same(before, snapshot(g))
end

local CASES = {}
local function case(name, f, expected)
  CASES[#CASES + 1] = { name = name, f = f, expected = expected }
end

local function prefix(n, fname)
  return ("^bad argument #%d to '%s' %%("):format(n, fname)
end

local function exact(n, fname, what)
  return ("bad argument #%d to '%s' (%s)"):format(n, fname, what)
end

---------------------------------------------------------------------------
-- Coordinates: every function that takes them.
---------------------------------------------------------------------------

-- fname: method name; names: its coordinate parameters in order, each with
-- its range; base: valid arguments; extra: arguments after them; lead:
-- arguments before them (fill_terrain's terrain).
local COORD_FUNCS = {
  { "get_cost", { "x", "y" }, { 1, 1 }, {} },
  { "set_cost", { "x", "y" }, { 1, 1 }, { 2 } },
  { "is_blocked", { "x", "y" }, { 1, 1 }, {} },
  { "set_blocked", { "x", "y" }, { 1, 1 }, { false } },
  { "fill_rect", { "x", "y" }, { 1, 1 }, { 1, 1, 2 } },
  { "find_path", { "sx", "sy", "gx", "gy" }, { 1, 1, 2, 2 }, {} },
  { "next_step", { "sx", "sy", "gx", "gy" }, { 1, 1, 2, 2 }, {} },
  { "query", { "sx", "sy", "gx", "gy" }, { 1, 1, 2, 2 }, {} },
  { "get_cost (with a unit)", { "x", "y" }, { 1, 1 }, { "boat" } },
  { "set_terrain", { "x", "y" }, { 1, 1 }, { "water" } },
  { "get_terrain", { "x", "y" }, { 1, 1 }, {} },
  { "set_height", { "x", "y" }, { 1, 1 }, { 2 } },
  { "get_height", { "x", "y" }, { 1, 1 }, {} },
  -- fill_terrain(terrain, x, y, w, h); only fill_terrain(terrain) alone
  -- fills the whole grid: a nil x (a variable not set) is an error
  { "fill_terrain", { "x", "y" }, { 1, 1 }, { 1, 1 }, { "water" } },
}

local function max_of(name)
  if name:sub(-1) == "x" then return W end
  return H
end

for _, spec in ipairs(COORD_FUNCS) do
  local label_name, names, base, extra = spec[1], spec[2], spec[3], spec[4]
  local lead = spec[5] or {}
  local fname = label_name:match("^%S+")
  for k, name in ipairs(names) do
    local n = #lead + k + 1 -- argument number: the grid is #1
    local max = max_of(name)
    local function call_with(v)
      return function(g)
        local args = {}
        for i = 1, #lead do args[i] = lead[i] end
        local total = #lead
        for i = 1, #base do args[total + i] = base[i] end
        args[total + k] = v
        total = total + #base
        for i = 1, #extra do args[total + i] = extra[i] end
        total = total + #extra
        return g[fname](g, unpack(args, 1, total))
      end
    end
    local label = ("%s: %s = "):format(label_name, name)
    local int_msg = name .. " must be an integer, got "
    case(label .. "1.5", call_with(1.5), exact(n, fname, int_msg .. "1.5"))
    case(label .. "-2.25", call_with(-2.25),
         exact(n, fname, int_msg .. "-2.25"))
    case(label .. "NaN", call_with(NAN), exact(n, fname, int_msg .. "nan"))
    case(label .. "inf", call_with(INF), exact(n, fname, int_msg .. "inf"))
    case(label .. "-inf", call_with(-INF), exact(n, fname, int_msg .. "-inf"))
    case(label .. "'3' (a string)", call_with("3"),
         prefix(n, fname) .. pattern_escape(int_msg))
    case(label .. "nil", call_with(nil),
         prefix(n, fname) .. pattern_escape(int_msg))
    case(label .. "true", call_with(true),
         prefix(n, fname) .. pattern_escape(int_msg))
    case(label .. "{}", call_with({}),
         prefix(n, fname) .. pattern_escape(int_msg))
    local range = ("%s out of range 1..%d, got "):format(name, max)
    case(label .. "0", call_with(0), exact(n, fname, range .. "0"))
    case(label .. "-1", call_with(-1), exact(n, fname, range .. "-1"))
    case(label .. (max + 1), call_with(max + 1),
         exact(n, fname, range .. (max + 1)))
    case(label .. "2^40", call_with(2 ^ 40),
         prefix(n, fname) .. pattern_escape(range))
  end
end

---------------------------------------------------------------------------
-- Costs: set_cost, fill, fill_rect, new's cost option.
---------------------------------------------------------------------------

local COST = "cost must be a positive finite number or false, got "
local BAD_COSTS = {
  { "0", 0, "0" }, { "-1", -1, "-1" }, { "-0.5", -0.5, "-0.5" },
  { "NaN", NAN, "nan" }, { "inf", INF, "inf" }, { "-inf", -INF, "-inf" },
  { "true", true }, { "'1' (a string)", "1" }, { "{}", {} },
}
local COST_FUNCS = {
  { "set_cost", 4, function(g, c) return g:set_cost(2, 2, c) end },
  { "fill", 2, function(g, c) return g:fill(c) end },
  { "fill_rect", 6, function(g, c) return g:fill_rect(1, 1, 2, 2, c) end },
}
for _, cf in ipairs(COST_FUNCS) do
  local fname, n, call = cf[1], cf[2], cf[3]
  for _, bc in ipairs(BAD_COSTS) do
    local want
    if bc[3] then
      want = exact(n, fname, COST .. bc[3])
    else
      want = prefix(n, fname) .. pattern_escape(COST)
    end
    case(("%s: cost = %s"):format(fname, bc[1]),
         function(g) return call(g, bc[2]) end, want)
  end
  case(fname .. ": cost = nil", function(g) return call(g, nil) end,
       prefix(n, fname) .. pattern_escape(COST))
end

---------------------------------------------------------------------------
-- Everything else, function by function.
---------------------------------------------------------------------------

-- astar.new: sizes.  docs/api.md: "width out of range 1..65534, got 0".
local SIZE_MSG = "%s out of range 1..65534, got %s"
local SIZE_BAD = {
  { "0", 0, "0" }, { "-1", -1, "-1" }, { "65535", 65535, "65535" },
  { "70000", 70000, "70000" }, { "2^40", 2 ^ 40, nil }, { "1e300", 1e300, nil },
}
for _, dim in ipairs({ { "width", 1 }, { "height", 2 } }) do
  local name, n = dim[1], dim[2]
  local function new_with(v)
    return function()
      if n == 1 then return astar.new(v, 5) end
      return astar.new(5, v)
    end
  end
  for _, s in ipairs(SIZE_BAD) do
    local want
    if s[3] then
      want = exact(n, "new", SIZE_MSG:format(name, s[3]))
    else
      want = prefix(n, "new") .. pattern_escape(SIZE_MSG:format(name, ""))
    end
    case(("new: %s = %s"):format(name, s[1]), new_with(s[2]), want)
  end
  local int_msg = name .. " must be an integer, got "
  case(("new: %s = 2.5"):format(name), new_with(2.5),
       exact(n, "new", int_msg .. "2.5"))
  case(("new: %s = 0/0"):format(name), new_with(NAN),
       exact(n, "new", int_msg .. "nan"))
  case(("new: %s = inf"):format(name), new_with(INF),
       exact(n, "new", int_msg .. "inf"))
  case(("new: %s = '5' (a string)"):format(name), new_with("5"),
       prefix(n, "new") .. pattern_escape(int_msg))
  case(("new: %s = nil"):format(name), new_with(nil),
       prefix(n, "new") .. pattern_escape(int_msg))
end
case("new: 65534 x 65534 is over the tile limit",
     function() return astar.new(65534, 65534) end, "^bad argument #[12] to 'new' %(")
case("new: 40000 x 40000 is over the tile limit",
     function() return astar.new(40000, 40000) end, "^bad argument #[12] to 'new' %(")
-- the limit: (width + 2) * (height + 2) <= 2^30; just over it, both ways
case("new: 32767 x 32767 is just over the tile limit",
     function() return astar.new(32767, 32767) end, "^bad argument #[12] to 'new' %(")
case("new: 65534 x 16383 is just over the tile limit",
     function() return astar.new(65534, 16383) end, "^bad argument #[12] to 'new' %(")

-- Movement options, shared by new (#3), set_movement (#2), from_string (#3),
-- from_table (#2), parse_movingai (#2), load_movingai (#2).
local MOVEMENT_BAD = {
  { "diagonals = 'sideways'", { diagonals = "sideways" }, "diagonals",
    "'sideways'" },
  { "diagonals = 5", { diagonals = 5 }, "diagonals" },
  { "cardinal = 0", { cardinal = 0 }, "cardinal", "0" },
  { "cardinal = -1", { cardinal = -1 }, "cardinal", "-1" },
  { "cardinal = NaN", { cardinal = NAN }, "cardinal", "nan" },
  { "cardinal = inf", { cardinal = INF }, "cardinal", "inf" },
  { "cardinal = 1e10", { cardinal = 1e10 }, "cardinal" },
  { "cardinal = 1e-10", { cardinal = 1e-10 }, "cardinal" },
  { "cardinal = '1'", { cardinal = "1" }, "cardinal" },
  { "diagonal = 0", { diagonal = 0 }, "diagonal", "0" },
  { "diagonal = NaN", { diagonal = NAN }, "diagonal", "nan" },
  { "diagonal = -inf", { diagonal = -INF }, "diagonal", "-inf" },
  { "diagonal = 2e9", { diagonal = 2e9 }, "diagonal" },
  { "diagonal = true", { diagonal = true }, "diagonal" },
  -- a good option with a bad one: nothing may be applied
  { "diagonals = 'never', cardinal = 0", { diagonals = "never", cardinal = 0 },
    "cardinal", "0" },
}
local function movement_cases(fname, n, call)
  for _, mb in ipairs(MOVEMENT_BAD) do
    local want = prefix(n, fname) .. mb[3] .. " "
    if mb[4] then want = want .. ".*got " .. pattern_escape(mb[4]) .. "%)$" end
    case(("%s: options %s"):format(fname, mb[1]),
         function(g) return call(g, mb[2]) end, want)
  end
  case(fname .. ": unknown option", function(g) return call(g, { wieght = 2 }) end,
       exact(n, fname, "unknown option 'wieght'"))
  case(fname .. ": options not a table", function(g) return call(g, "never") end,
       prefix(n, fname) .. "options")
end
movement_cases("new", 3, function(_, o) return astar.new(3, 3, o) end)
movement_cases("set_movement", 2, function(g, o) return g:set_movement(o) end)
movement_cases("from_string", 3,
               function(_, o) return astar.from_string("..", nil, o) end)
movement_cases("from_table", 2,
               function(_, o) return astar.from_table({ { 1 } }, o) end)
movement_cases("parse_movingai", 2, function(_, o)
  return astar.parse_movingai("type octile\nheight 1\nwidth 1\nmap\n.\n", o)
end)
local arena = helpers.maps_dir() and helpers.maps_dir() .. "/arena.map"
case("load_movingai: unknown option (names load_movingai, #2)", function()
  local name = arena or helpers.temp_file("type octile\nheight 1\nwidth 1\nmap\n.\n")
  local ok, err = pcall(astar.load_movingai, name, { wieght = 2 })
  if not arena then os.remove(name) end
  if not ok then error(err, 0) end
end, exact(2, "load_movingai", "unknown option 'wieght'"))
case("new: option cost = 0", function() return astar.new(3, 3, { cost = 0 }) end,
     exact(3, "new", COST .. "0"))
case("new: option cost = NaN", function()
  return astar.new(3, 3, { cost = NAN })
end, exact(3, "new", COST .. "nan"))
case("new: option cost = '1'", function()
  return astar.new(3, 3, { cost = "1" })
end, prefix(3, "new") .. pattern_escape(COST))

-- find_path / next_step options (#6) and out (#7)
for _, fname in ipairs({ "find_path", "next_step" }) do
  local function call(g, o) return g[fname](g, 1, 1, 2, 2, o) end
  case(fname .. ": unknown option", function(g)
    return call(g, { wieght = 2 })
  end, exact(6, fname, "unknown option 'wieght'"))
  case(fname .. ": movement option", function(g)
    return call(g, { diagonals = "never" })
  end, exact(6, fname, "unknown option 'diagonals'"))
  case(fname .. ": heuristic = 'foo'", function(g)
    return call(g, { heuristic = "foo" })
  end, prefix(6, fname) .. "heuristic .*'foo'%)$")
  case(fname .. ": heuristic = 5", function(g)
    return call(g, { heuristic = 5 })
  end, prefix(6, fname) .. "heuristic ")
  for _, wb in ipairs({ { "0.5", 0.5 }, { "0", 0 }, { "-1", -1 },
                        { "NaN", NAN, "nan" }, { "inf", INF, "inf" },
                        { "'2'", "2" } }) do
    local want = prefix(6, fname) .. "weight "
    if wb[3] then want = want .. ".*got " .. wb[3] .. "%)$" end
    case(fname .. ": weight = " .. wb[1], function(g)
      return call(g, { weight = wb[2] })
    end, want)
  end
  case(fname .. ": options not a table", function(g) return call(g, "zero") end,
       prefix(6, fname) .. "options")
  case(fname .. ": algorithm = 'a*'", function(g)
    return call(g, { algorithm = "a*" })
  end, exact(6, fname, "algorithm must be one of 'auto', 'astar', 'jps', "
    .. "'dijkstra', 'bfs', 'greedy', 'weighted', 'beam', 'ida', "
    .. "'bidirectional', 'bidirectional_bfs', 'theta', 'lazy_theta', got 'a*'"))
  case(fname .. ": algorithm = 2", function(g)
    return call(g, { algorithm = 2 })
  end, exact(6, fname, "algorithm must be one of 'auto', 'astar', 'jps', "
    .. "'dijkstra', 'bfs', 'greedy', 'weighted', 'beam', 'ida', "
    .. "'bidirectional', 'bidirectional_bfs', 'theta', 'lazy_theta', got 2"))
  case(fname .. ": algorithm = 'JPS'", function(g)
    return call(g, { algorithm = "JPS" })
  end, prefix(6, fname) .. "algorithm .*'JPS'%)$")
  -- the test grid has tiles of cost 3 and 0.5: JPS does not apply
  case(fname .. ": algorithm = 'jps' on weighted tiles", function(g)
    return call(g, { algorithm = "jps" })
  end, exact(6, fname, "algorithm 'jps' needs uniform tile costs"))
end
case("find_path: out = 5", function(g)
  return g:find_path(1, 1, 2, 2, nil, 5)
end, prefix(7, "find_path") .. "out")
case("find_path: out = 'x'", function(g)
  return g:find_path(1, 1, 2, 2, {}, "x")
end, prefix(7, "find_path") .. "out")

-- set_blocked's flag (#4)
for _, v in ipairs({ { "1", 1 }, { "'yes'", "yes" }, { "{}", {} } }) do
  case("set_blocked: blocked = " .. v[1], function(g)
    return g:set_blocked(1, 1, v[2])
  end, prefix(4, "set_blocked") .. "blocked")
end

-- fill_rect sizes (#4 w, #5 h): 0..(room left), integers
local RECT = {
  { "w = -1", function(g) return g:fill_rect(1, 1, -1, 1, 2) end, 4, "w" },
  { "w = 1.5", function(g) return g:fill_rect(1, 1, 1.5, 1, 2) end, 4, "w" },
  { "w = NaN", function(g) return g:fill_rect(1, 1, NAN, 1, 2) end, 4, "w" },
  { "w past the right edge", function(g)
      return g:fill_rect(9, 1, 3, 1, 2)
    end, 4, "w" },
  { "h = -1", function(g) return g:fill_rect(1, 1, 1, -1, 2) end, 5, "h" },
  { "h past the bottom edge", function(g)
      return g:fill_rect(1, 8, 1, 2, 2)
    end, 5, "h" },
  { "h = 'x'", function(g) return g:fill_rect(1, 1, 1, "x", 2) end, 5, "h" },
}
for _, r in ipairs(RECT) do
  case("fill_rect: " .. r[1], r[2], prefix(r[3], "fill_rect") .. r[4] .. " ")
end
case("fill_rect: w = 1.5 (exact)", function(g)
  return g:fill_rect(1, 1, 1.5, 1, 2)
end, exact(4, "fill_rect", "w must be an integer, got 1.5"))

-- load (#2): nothing changes unless everything is right; the bad entry is
-- the last one, after every tile before it would already have been written
local function flat_tiles(n, last)
  local t = {}
  for i = 1, n do t[i] = 2 end
  t[n] = last
  return t
end
local function row_tiles(w, h, last)
  local rows = {}
  for y = 1, h do
    rows[y] = {}
    for x = 1, w do rows[y][x] = 2 end
  end
  rows[h][w] = last
  return rows
end
case("load: not a table", function(g) return g:load("x") end,
     prefix(2, "load"))
case("load: flat, one entry short", function(g)
  return g:load(flat_tiles(W * H - 1, 2))
end, prefix(2, "load"))
case("load: flat, one entry too many", function(g)
  return g:load(flat_tiles(W * H + 1, 2))
end, prefix(2, "load"))
case("load: flat, last cost 0", function(g)
  return g:load(flat_tiles(W * H, 0))
end, prefix(2, "load") .. ".*" .. pattern_escape(COST .. "0"))
case("load: flat, last cost NaN", function(g)
  return g:load(flat_tiles(W * H, NAN))
end, prefix(2, "load") .. ".*" .. pattern_escape(COST .. "nan"))
case("load: flat, last cost '1'", function(g)
  return g:load(flat_tiles(W * H, "1"))
end, prefix(2, "load") .. ".*" .. pattern_escape(COST))
case("load: flat, last cost true", function(g)
  return g:load(flat_tiles(W * H, true))
end, prefix(2, "load") .. ".*" .. pattern_escape(COST))
case("load: rows, last cost -1", function(g)
  return g:load(row_tiles(W, H, -1))
end, prefix(2, "load") .. ".*" .. pattern_escape(COST .. "-1"))
case("load: rows, one row short", function(g)
  local rows = row_tiles(W, H, 2)
  rows[H] = nil
  return g:load(rows)
end, prefix(2, "load"))
case("load: rows, last row one entry short", function(g)
  local rows = row_tiles(W, H, 2)
  rows[H][W] = nil
  return g:load(rows)
end, prefix(2, "load"))
case("load: rows, a row that is not a table", function(g)
  local rows = row_tiles(W, H, 2)
  rows[H] = 5
  return g:load(rows)
end, prefix(2, "load"))

-- load_string (#2 text, #3 legend)
local function text_of(w, h, last)
  local rows = {}
  for y = 1, h do rows[y] = string.rep("2", w) end
  rows[h] = string.rep("2", w - 1) .. last
  return table.concat(rows, "\n")
end
case("load_string: not a string", function(g) return g:load_string(5) end,
     prefix(2, "load_string") .. "text")
case("load_string: one row short", function(g)
  return g:load_string(text_of(W, H - 1, "2"))
end, prefix(2, "load_string"))
case("load_string: one row too many", function(g)
  return g:load_string(text_of(W, H + 1, "2"))
end, prefix(2, "load_string"))
case("load_string: last row one column short", function(g)
  return g:load_string(text_of(W, H, ""))
end, prefix(2, "load_string"))
case("load_string: unknown character last", function(g)
  return g:load_string(text_of(W, H, "x"))
end, prefix(2, "load_string") .. ".*line 8.*column 10")
case("load_string: legend not a table", function(g)
  return g:load_string(text_of(W, H, "2"), "x")
end, prefix(3, "load_string") .. "legend")
case("load_string: legend cost 0", function(g)
  return g:load_string(text_of(W, H, "2"), { ["2"] = 0 })
end, prefix(3, "load_string") .. "legend")

-- from_string (#1 text, #2 legend)
local LEGEND_BAD = {
  { "key '..'", { [".."] = 1 } },
  { "key ''", { [""] = 1 } },
  { "key 1 (a number)", { [1] = 1 } },
  { "cost 0", { ["."] = 0 } },
  { "cost -1", { ["."] = -1 } },
  { "cost NaN", { ["."] = NAN } },
  { "cost inf", { ["."] = INF } },
  { "cost '1'", { ["."] = "1" } },
  { "cost true", { ["."] = true } },
}
for _, lb in ipairs(LEGEND_BAD) do
  case("from_string: legend " .. lb[1], function()
    return astar.from_string("..", lb[2])
  end, prefix(2, "from_string") .. "legend")
end
case("from_string: legend not a table", function()
  return astar.from_string("..", "x")
end, prefix(2, "from_string") .. "legend")
case("from_string: text not a string", function()
  return astar.from_string(5)
end, prefix(1, "from_string") .. "text")
case("from_string: nil", function() return astar.from_string() end,
     prefix(1, "from_string") .. "text")
case("from_string: empty text", function() return astar.from_string("") end,
     prefix(1, "from_string"))
case("from_string: only a newline", function()
  return astar.from_string("\n")
end, prefix(1, "from_string"))
case("from_string: rows of different lengths", function()
  return astar.from_string("...\n..\n...")
end, prefix(1, "from_string") .. ".*line 2")
case("from_string: an empty row in the middle", function()
  return astar.from_string("..\n\n..")
end, prefix(1, "from_string") .. ".*line 2")
case("from_string: two final newlines", function()
  return astar.from_string("..\n..\n\n")
end, prefix(1, "from_string") .. ".*line 3")
case("from_string: character not in the legend names line and column",
     function() return astar.from_string("...\n...\n.x.") end,
     prefix(1, "from_string") .. ".*line 3.*column 2")
case("from_string: character not in a given legend", function()
  return astar.from_string("ab", { a = 1 })
end, prefix(1, "from_string") .. ".*line 1.*column 2")
case("from_string: a lone CR inside a row", function()
  return astar.from_string(".\r.\n...")
end, prefix(1, "from_string"))

-- from_table (#1 rows)
local TABLE_BAD = {
  { "not a table", 5 },
  { "no rows", {} },
  { "an empty row", { {} } },
  { "a row that is not a table", { { 1, 1 }, 5 } },
  { "rows of different lengths", { { 1, 1 }, { 1 } } },
  { "a longer second row", { { 1, 1 }, { 1, 1, 1 } } },
  { "cost 0 last", { { 1, 1 }, { 1, 0 } } },
  { "cost NaN", { { NAN } } },
  { "cost '1'", { { "1" } } },
  { "cost true", { { 1, true } } },
}
for _, tb in ipairs(TABLE_BAD) do
  case("from_table: " .. tb[1], function() return astar.from_table(tb[2]) end,
       prefix(1, "from_table"))
end
case("from_table: cost 0 names row and column", function()
  return astar.from_table({ { 1, 1 }, { 1, 0 } })
end, prefix(1, "from_table") .. ".*row 2.*column 2.*" .. pattern_escape(COST .. "0"))

-- MovingAI loaders: the path / text must be a string (#1); malformed
-- content is a result (movingai_spec.lua), not an error
case("parse_movingai: text not a string", function()
  return astar.parse_movingai(5)
end, prefix(1, "parse_movingai") .. "text")
case("load_movingai: path not a string", function()
  return astar.load_movingai(5)
end, prefix(1, "load_movingai") .. "path")
case("load_movingai: path nil", function() return astar.load_movingai() end,
     prefix(1, "load_movingai") .. "path")
case("read_scenarios: path not a string", function()
  return astar.read_scenarios(5)
end, prefix(1, "read_scenarios") .. "path")
case("load_movingai: path 5, exact", function()
  return astar.load_movingai(5)
end, exact(1, "load_movingai", "path must be a string, got 5"))
case("load_movingai: options 5, exact", function()
  return astar.load_movingai("none.map", 5)
end, exact(2, "load_movingai", "options must be a table, got 5"))

---------------------------------------------------------------------------
-- The Lua half (lua/astar/): render, hex.  Same contract and wording as the
-- binding: values described as it describes them (numbers by value,
-- strings quoted, others by type), methods counting their object as #1.
---------------------------------------------------------------------------

-- astar.render(grid [, path]): the grid (#1)
for _, b in ipairs({ { "nil", nil, "nil" }, { "'text'", "text", "'text'" },
                     { "5", 5, "5" }, { "{}", {}, "table" },
                     { "io.stdout", io.stdout, "userdata" },
                     { "true", true, "true" } }) do
  case("render: grid = " .. b[1], function() return astar.render(b[2]) end,
       exact(1, "render", "grid expected, got " .. b[3]))
end
-- the path (#2): a flat table of x, y pairs on the grid (10 x 8)
local RENDER_PATHS = {
  { "5", 5, "path must be a table, got 5" },
  { "'1,1'", "1,1", "path must be a table, got '1,1'" },
  { "false", false, "path must be a table, got false" },
  { "odd length", { 1, 1, 2 }, "path must hold x, y pairs, got 3 values" },
  { "one value", { 1 }, "path must hold x, y pairs, got 1 values" },
  { "x 1.5", { 1, 1, 1.5, 2 }, "path[3] must be an integer, got 1.5" },
  { "y '2'", { 1, 1, 2, "2" }, "path[4] must be an integer, got '2'" },
  { "x NaN", { NAN, 1 }, "path[1] must be an integer, got nan" },
  { "a hole", { nil, 1 }, "path[1] must be an integer, got nil" },
  { "y a table", { 1, {} }, "path[2] must be an integer, got table" },
  { "x 0", { 1, 1, 0, 1 }, "path[3] out of range 1..10, got 0" },
  { "x 11", { 1, 1, 11, 1 }, "path[3] out of range 1..10, got 11" },
  { "y 9", { 1, 1, 1, 9 }, "path[4] out of range 1..8, got 9" },
  { "y -1", { 1, -1 }, "path[2] out of range 1..8, got -1" },
  { "x inf", { INF, 1 }, "path[1] must be an integer, got inf" },
  { "y -inf", { 1, -INF }, "path[2] must be an integer, got -inf" },
}
for _, b in ipairs(RENDER_PATHS) do
  case("render: path " .. b[1], function(g) return astar.render(g, b[2]) end,
       exact(2, "render", b[3]))
end

-- astar.hex: functions count from #1, a map's methods count the map as #1
local hex = astar.hex
local HEX_INT = {
  { "nil", nil, "must be an integer, got nil" },
  { "'x'", "x", "must be an integer, got 'x'" },
  { "1.5", 1.5, "must be an integer, got 1.5" },
  { "NaN", NAN, "must be an integer, got nan" },
  { "inf", INF, "must be an integer, got inf" },
  { "{}", {}, "must be an integer, got table" },
  { "2^40", 2 ^ 40,
    "out of range -2147483648..2147483648, got 1099511627776" },
}
local HEX_FUNCS = {
  -- name, argument names in order, valid arguments, first argument number
  { "distance", { "q1", "r1", "q2", "r2" }, { 1, 1, 2, 2 }, 1,
    function(...) return hex.distance(...) end },
  { "from_offset", { "col", "row" }, { 1, 1 }, 2,
    function(...) return hex.from_offset("odd-r", ...) end },
  { "to_offset", { "q", "r" }, { 1, 1 }, 2,
    function(...) return hex.to_offset("odd-r", ...) end },
  { "to_grid", { "col", "row" }, { 1, 1 }, 2,
    function(...) return hex.map("odd-r", 5, 4):to_grid(...) end },
  { "to_offset", { "x", "y" }, { 1, 1 }, 2,
    function(...) return hex.map("odd-r", 5, 4):to_offset(...) end },
  { "contains", { "x", "y" }, { 1, 1 }, 2,
    function(...) return hex.map("odd-r", 5, 4):contains(...) end },
}
for _, f in ipairs(HEX_FUNCS) do
  local fname, names, base, first, call = f[1], f[2], f[3], f[4], f[5]
  for k, name in ipairs(names) do
    for _, b in ipairs(HEX_INT) do
      case(("hex %s: %s = %s"):format(fname, name, b[1]), function()
        local args = { unpack(base) }
        args[k] = b[2]
        return call(unpack(args, 1, #base))
      end, exact(first + k - 1, fname, name .. " " .. b[3]))
    end
  end
end
local LAYOUT_RULE = "layout must be one of 'odd-r', 'even-r', 'odd-q', "
  .. "'even-q', got "
for _, fname in ipairs({ "from_offset", "to_offset", "map" }) do
  for _, b in ipairs({ { "'odd'", "odd", "'odd'" }, { "nil", nil, "nil" },
                       { "1", 1, "1" } }) do
    case(("hex %s: layout %s"):format(fname, b[1]), function()
      return hex[fname](b[2], 1, 1)
    end, exact(1, fname, LAYOUT_RULE .. b[3]))
  end
end
-- hex.map(layout, cols, rows): sizes as astar.new takes them, and the axial
-- grid that covers the map within astar.new's limits
local MAP_SIZES = {
  { "cols 0", { 0, 3 }, 2, "cols out of range 1..65534, got 0" },
  { "rows -1", { 5, -1 }, 3, "rows out of range 1..65534, got -1" },
  { "cols 65535", { 65535, 1 }, 2, "cols out of range 1..65534, got 65535" },
  { "rows 2^31", { 1, 2 ^ 31 }, 3,
    "rows out of range 1..65534, got 2147483648" },
  { "rows 1.5", { 5, 1.5 }, 3, "rows must be an integer, got 1.5" },
  { "cols nil", { nil, 3 }, 2, "cols must be an integer, got nil" },
  { "40000 x 40000", { 40000, 40000 }, 2, "grid too large: a 40000 x 40000"
    .. " odd-r map needs a 59999 x 40000 axial grid (at most 65534 tiles a"
    .. " side and 1073741824 tiles with a one-tile border)" },
  { "65534 x 65534 (a side over the limit)", { 65534, 65534 }, 2,
    "grid too large: a 65534 x 65534 odd-r map needs a 98300 x 65534 axial"
    .. " grid (at most 65534 tiles a side and 1073741824 tiles with a"
    .. " one-tile border)" },
}
for _, b in ipairs(MAP_SIZES) do
  case("hex map: " .. b[1], function()
    return hex.map("odd-r", b[2][1], b[2][2])
  end, exact(b[3], "map", b[4]))
end
case("hex map 40000 x 40000 never reaches new_grid's 'new'", function()
  return hex.map("odd-q", 40000, 40000):new_grid()
end, "^bad argument #2 to 'map' %(grid too large: ")
-- the methods' own arguments (#2) and their object (#1)
for _, b in ipairs({ { "5", 5, "5" }, { "'never'", "never", "'never'" },
                     { "true", true, "true" } }) do
  case("hex new_grid: options " .. b[1], function()
    return hex.map("odd-r", 5, 4):new_grid(b[2])
  end, exact(2, "new_grid", "options must be a table, got " .. b[3]))
end
case("hex new_grid: unknown option", function()
  return hex.map("odd-r", 5, 4):new_grid({ wieght = 2 })
end, exact(2, "new_grid", "unknown option 'wieght'"))
case("hex new_grid: cardinal = 0", function()
  return hex.map("odd-r", 5, 4):new_grid({ cardinal = 0 })
end, prefix(2, "new_grid") .. "cardinal .*got 0%)$")
local HEX_PATHS = {
  { "nil", nil, "path must be a table, got nil" },
  { "'1,1'", "1,1", "path must be a table, got '1,1'" },
  { "odd length", { 1, 1, 2 }, "path must hold x, y pairs, got 3 values" },
  { "x 1.5", { 1, 1, 1.5, 2 }, "path[3] must be an integer, got 1.5" },
  { "y nil", { 1, nil, 2, 2 }, "path[2] must be an integer, got nil" },
  { "y 'a'", { 1, "a" }, "path[2] must be an integer, got 'a'" },
}
for _, b in ipairs(HEX_PATHS) do
  case("hex path_to_offset: path " .. b[1], function()
    return hex.map("odd-r", 5, 4):path_to_offset(b[2])
  end, exact(2, "path_to_offset", b[3]))
end
for _, m in ipairs({ "to_grid", "to_offset", "contains", "new_grid",
                    "path_to_offset" }) do
  for _, b in ipairs({ { "nil", nil, "nil" }, { "{}", {}, "table" },
                       { "a grid", astar.new(2, 2), "userdata" } }) do
    case(("hex %s on %s"):format(m, b[1]), function()
      local map = hex.map("odd-r", 5, 4)
      return map[m](b[2], 1, 1)
    end, exact(1, m, "hex map expected, got " .. b[3]))
  end
end

-- Huge and hostile text: sizes past the limits are refused before anything
-- is allocated; bytes outside the legend are named, NUL included.
case("from_string: a row longer than 65534", function()
  return astar.from_string(string.rep(".", 65535))
end, prefix(1, "from_string") .. "map too big")
case("from_string: more than 65534 rows", function()
  return astar.from_string(string.rep(".\n", 65535))
end, prefix(1, "from_string") .. "map too big")
case("from_string: 40000 x 40000 (past 2^30 tiles)", function()
  -- only the first row is long; the shape check stops at the second row
  return astar.from_string(string.rep(".", 40000) .. "\n.")
end, prefix(1, "from_string") .. "line 2 has 1 characters, expected 40000")
case("from_string: a NUL byte", function()
  return astar.from_string("..\0..")
end, prefix(1, "from_string") .. "line 1, column 3: byte 0 is not in the legend")
case("load_string: 4 MB of text of the wrong shape", function(g)
  return g:load_string(string.rep(string.rep(".", W) .. "\n", 400000))
end, prefix(2, "load_string") .. "expected 8 rows, got at least 9")
case("new: 40000 x 40000 (past 2^30 tiles with the border)", function()
  return astar.new(40000, 40000)
end, prefix(1, "new") .. "grid too large: 40000 x 40000 tiles")

---------------------------------------------------------------------------
-- Terrain and unit classes, heights, cost callbacks (docs/api.md, "Terrain
-- and unit classes, weights, heights" and "Cost callbacks").
---------------------------------------------------------------------------

local TERRAIN_RULE = "terrain must be a defined terrain name or an integer"
  .. " 0..255, got "
local NAME_RULE = "must be a non-empty string other than '*', got "
local HEIGHT_RULE = "height must be a finite number, at most 1e+15 in size, got "

-- Names of terrain and unit classes
local BAD_NAMES = {
  { "5", 5, "5" }, { "''", "", "''" }, { "'*'", "*", "'*'" },
  { "true", true, "true" }, { "{}", {}, "table" }, { "nil", nil, "nil" },
}
for _, b in ipairs(BAD_NAMES) do
  case("define_terrain: name = " .. b[1], function(g)
    return g:define_terrain(b[2])
  end, exact(2, "define_terrain", "name " .. NAME_RULE .. b[3]))
  case("set_unit: name = " .. b[1], function(g)
    return g:set_unit(b[2], { water = 2 })
  end, exact(2, "set_unit", "name " .. NAME_RULE .. b[3]))
end
case("define_terrain: a 257th name", function()
  local g2 = astar.new(2, 2)
  for i = 1, 256 do assert(g2:define_terrain("t" .. i) == i - 1) end
  return g2:define_terrain("one more")
end, exact(2, "define_terrain", "all 256 terrain classes have names"))

-- A terrain argument: set_terrain (#4), fill_terrain (#2)
local BAD_TERRAINS = {
  { "'lava' (undefined)", "lava", "'lava'" }, { "''", "", "''" },
  { "'*'", "*", "'*'" }, { "-1", -1, "-1" }, { "256", 256, "256" },
  { "1.5", 1.5, "1.5" }, { "NaN", NAN, "nan" }, { "inf", INF, "inf" },
  { "true", true, "true" }, { "{}", {}, "table" },
  { "'1' (a string, not an id)", "1", "'1'" },
}
for _, b in ipairs(BAD_TERRAINS) do
  case("set_terrain: terrain = " .. b[1], function(g)
    return g:set_terrain(4, 2, b[2])
  end, exact(4, "set_terrain", TERRAIN_RULE .. b[3]))
  case("fill_terrain: terrain = " .. b[1], function(g)
    return g:fill_terrain(b[2])
  end, exact(2, "fill_terrain", TERRAIN_RULE .. b[3]))
  case("fill_terrain (a rectangle): terrain = " .. b[1], function(g)
    return g:fill_terrain(b[2], 1, 1, 2, 2)
  end, exact(2, "fill_terrain", TERRAIN_RULE .. b[3]))
end
case("set_terrain: terrain missing", function(g) return g:set_terrain(1, 1) end,
     prefix(4, "set_terrain") .. pattern_escape(TERRAIN_RULE))
case("fill_terrain: terrain missing", function(g) return g:fill_terrain() end,
     prefix(2, "fill_terrain") .. pattern_escape(TERRAIN_RULE))

-- fill_terrain rectangles (#5 w, #6 h): 0..(room left), integers
local TRECT = {
  { "w = -1", function(g) return g:fill_terrain("water", 1, 1, -1, 1) end,
    5, "w out of range 0..10, got -1" },
  { "w past the right edge", function(g)
      return g:fill_terrain("water", 9, 1, 3, 1)
    end, 5, "w out of range 0..2, got 3" },
  { "w = 1.5", function(g) return g:fill_terrain("water", 1, 1, 1.5, 1) end,
    5, "w must be an integer, got 1.5" },
  { "w = NaN", function(g) return g:fill_terrain("water", 1, 1, NAN, 1) end,
    5, "w must be an integer, got nan" },
  { "w missing", function(g) return g:fill_terrain("water", 1, 1) end,
    5, "^w must be an integer" },
  { "h = -1", function(g) return g:fill_terrain("water", 1, 1, 1, -1) end,
    6, "h out of range 0..8, got -1" },
  { "h past the bottom edge", function(g)
      return g:fill_terrain("water", 1, 8, 1, 2)
    end, 6, "h out of range 0..1, got 2" },
  { "h = 'x'", function(g) return g:fill_terrain("water", 1, 1, 1, "x") end,
    6, "h must be an integer, got 'x'" },
  { "h = inf", function(g) return g:fill_terrain("water", 1, 1, 1, INF) end,
    6, "h must be an integer, got inf" },
  { "the whole grid and one more column", function(g)
      return g:fill_terrain("water", 1, 1, W + 1, H)
    end, 5, "w out of range 0..10, got 11" },
}
for _, r in ipairs(TRECT) do
  local want = exact(r[3], "fill_terrain", r[4])
  if r[4]:sub(1, 1) == "^" then
    want = prefix(r[3], "fill_terrain") .. r[4]:sub(2)
  end
  case("fill_terrain: " .. r[1], r[2], want)
end

-- set_height (#4)
local BAD_HEIGHTS = {
  { "NaN", NAN, "nan" }, { "inf", INF, "inf" }, { "-inf", -INF, "-inf" },
  { "1e16", 1e16, "1e+16" }, { "-1e16", -1e16, "-1e+16" },
  { "1.1e15", 1.1e15, "1.1e+15" },
  { "'1' (a string)", "1", "'1'" }, { "true", true, "true" },
  { "false", false, "false" }, { "{}", {}, "table" }, { "nil", nil, "nil" },
}
for _, b in ipairs(BAD_HEIGHTS) do
  case("set_height: h = " .. b[1], function(g)
    return g:set_height(7, 7, b[2])
  end, exact(4, "set_height", HEIGHT_RULE .. b[3]))
end

-- load_terrain / load_heights (#2 rows or text, #3 legend): nothing changes
-- unless everything is right; the bad entry comes last
for _, layer in ipairs({ { "load_terrain", "water" }, { "load_heights", 2 } }) do
  local fname, good = layer[1], layer[2]
  local function flat(n, last)
    local t = {}
    for i = 1, n do t[i] = good end
    t[n] = last
    return t
  end
  local function rows(w, h, last)
    local r = {}
    for y = 1, h do
      r[y] = {}
      for x = 1, w do r[y][x] = good end
    end
    r[h][w] = last
    return r
  end
  case(fname .. ": not a table or string", function(g)
    return g[fname](g, 5)
  end, exact(2, fname, "expected a table of rows or a string, got 5"))
  case(fname .. ": nil", function(g) return g[fname](g) end,
       prefix(2, fname) .. "expected a table of rows or a string, got ")
  case(fname .. ": one row short", function(g)
    return g[fname](g, rows(W, H - 1, good))
  end, exact(2, fname, "expected 8 rows, got 7"))
  case(fname .. ": one row too many", function(g)
    return g[fname](g, rows(W, H + 1, good))
  end, exact(2, fname, "expected 8 rows, got 9"))
  case(fname .. ": last row one entry short", function(g)
    local r = rows(W, H, good)
    r[H][W] = nil
    return g[fname](g, r)
  end, exact(2, fname, "row 8 has 9 entries, expected 10"))
  case(fname .. ": a row that is not a table", function(g)
    local r = rows(W, H, good)
    r[H] = 5
    return g[fname](g, r)
  end, exact(2, fname, "row 8 must be a table, got 5"))
  case(fname .. ": flat, one entry short", function(g)
    return g[fname](g, flat(W * H - 1, good))
  end, exact(2, fname, "expected 8 rows or 80 flat entries (10 x 8), got 79"))
  case(fname .. ": flat, one entry too many", function(g)
    return g[fname](g, flat(W * H + 1, good))
  end, exact(2, fname, "expected 8 rows or 80 flat entries (10 x 8), got 81"))
  case(fname .. ": an empty table", function(g) return g[fname](g, {}) end,
       exact(2, fname, "expected 8 rows or 80 flat entries (10 x 8), got 0"))
end
for _, b in ipairs(BAD_TERRAINS) do
  case("load_terrain: flat, last entry " .. b[1], function(g)
    local t = {}
    for i = 1, W * H do t[i] = "grass" end
    t[W * H] = b[2]
    return g:load_terrain(t)
  end, exact(2, "load_terrain", "row 8, column 10: " .. TERRAIN_RULE .. b[3]))
end
case("load_terrain: rows, last entry 'lava'", function(g)
  local r = {}
  for y = 1, H do
    r[y] = {}
    for x = 1, W do r[y][x] = 1 end
  end
  r[H][W] = "lava"
  return g:load_terrain(r)
end, exact(2, "load_terrain", "row 8, column 10: " .. TERRAIN_RULE .. "'lava'"))
for _, b in ipairs(BAD_HEIGHTS) do
  if b[2] ~= nil then
    case("load_heights: flat, last entry " .. b[1], function(g)
      local t = {}
      for i = 1, W * H do t[i] = 1 end
      t[W * H] = b[2]
      return g:load_heights(t)
    end, exact(2, "load_heights", "row 8, column 10: " .. HEIGHT_RULE .. b[3]))
    case("load_heights: rows, last entry " .. b[1], function(g)
      local r = {}
      for y = 1, H do
        r[y] = {}
        for x = 1, W do r[y][x] = -3 end
      end
      r[H][W] = b[2]
      return g:load_heights(r)
    end, exact(2, "load_heights", "row 8, column 10: " .. HEIGHT_RULE .. b[3]))
  end
end

-- ... from text: the digits by default, a legend char -> terrain
local function digits(w, h, last, digit)
  local r = {}
  for y = 1, h do r[y] = string.rep(digit or "1", w) end
  r[h] = string.rep(digit or "1", w - 1) .. last
  return table.concat(r, "\n")
end
for _, fname in ipairs({ "load_terrain", "load_heights" }) do
  case(fname .. ": text, one row short", function(g)
    return g[fname](g, digits(W, H - 1, "1"))
  end, prefix(2, fname))
  case(fname .. ": text, one row too many", function(g)
    return g[fname](g, digits(W, H + 1, "1"))
  end, prefix(2, fname))
  case(fname .. ": text, last row one column short", function(g)
    return g[fname](g, digits(W, H, ""))
  end, prefix(2, fname))
  case(fname .. ": text, last row one column long", function(g)
    return g[fname](g, digits(W, H, "11"))
  end, prefix(2, fname))
  case(fname .. ": text, a letter last", function(g)
    return g[fname](g, digits(W, H, "a"))
  end, exact(2, fname, "line 8, column 10: character 'a' is not in the legend"))
  case(fname .. ": text, '#' last", function(g)
    return g[fname](g, digits(W, H, "#"))
  end, exact(2, fname, "line 8, column 10: character '#' is not in the legend"))
  case(fname .. ": text, '-' (no signs) last", function(g)
    return g[fname](g, digits(W, H, "-"))
  end, prefix(2, fname) .. "line 8, column 10: ")
  case(fname .. ": empty text", function(g) return g[fname](g, "") end,
       prefix(2, fname))
end
case("load_terrain: text, legend not a table", function(g)
  return g:load_terrain(digits(W, H, "1"), "x")
end, exact(3, "load_terrain", "legend must be a table, got 'x'"))
case("load_terrain: text, legend key '..'", function(g)
  return g:load_terrain(digits(W, H, "1"), { [".."] = "water" })
end, exact(3, "load_terrain", "legend keys must be single characters, got '..'"))
case("load_terrain: text, legend key 1 (a number)", function(g)
  return g:load_terrain(digits(W, H, "1"), { [1] = "water" })
end, exact(3, "load_terrain", "legend keys must be single characters, got 1"))
for _, b in ipairs(BAD_TERRAINS) do
  case("load_terrain: text, legend value " .. b[1], function(g)
    return g:load_terrain(digits(W, H, "1"), { ["1"] = b[2] })
  end, exact(3, "load_terrain", "legend['1'] must be a defined terrain name or an"
    .. " integer 0..255, got " .. b[3]))
end
case("load_terrain: text with a character not in a given legend", function(g)
  return g:load_terrain(digits(W, H, "w", "g"), { g = "grass" })
end, exact(2, "load_terrain", "line 8, column 10: character 'w' is not in the legend"))
case("load_terrain: a given legend replaces the digits", function(g)
  return g:load_terrain(digits(W, H, "1", "g"), { g = "grass" })
end, exact(2, "load_terrain", "line 8, column 10: character '1' is not in the legend"))

-- set_unit: costs (#3) and options (#4)
case("set_unit: costs not a table", function(g)
  return g:set_unit("boat", "water")
end, exact(3, "set_unit", "costs must be a table, got 'water'"))
case("set_unit: costs nil", function(g) return g:set_unit("ship") end,
     prefix(3, "set_unit") .. "costs must be a table, got ")
local KEY_RULE = "costs keys must be a defined terrain name or an integer"
  .. " 0..255 or '*', got "
for _, b in ipairs({ { "'lava' (undefined)", "lava", "'lava'" },
                     { "''", "", "''" }, { "-1", -1, "-1" },
                     { "256", 256, "256" }, { "1.5", 1.5, "1.5" },
                     { "true", true, "true" }, { "{}", {}, "table" } }) do
  case("set_unit: costs key " .. b[1] .. " (redefining boat)", function(g)
    return g:set_unit("boat", { [b[2]] = 2, water = 3 })
  end, exact(3, "set_unit", KEY_RULE .. b[3]))
end
local UCOST = "must be a positive finite number or false, got "
for _, b in ipairs({ { "0", 0, "0" }, { "-1", -1, "-1" }, { "NaN", NAN, "nan" },
                     { "inf", INF, "inf" }, { "'1'", "1", "'1'" },
                     { "true", true, "true" }, { "{}", {}, "table" },
                     { "1e39", 1e39, "1e+39" } }) do
  case("set_unit: costs.water = " .. b[1] .. " (redefining boat)", function(g)
    return g:set_unit("boat", { water = b[2], grass = 2 })
  end, exact(3, "set_unit", "costs['water'] " .. UCOST .. b[3]))
  case("set_unit: costs[1] = " .. b[1] .. " (a new unit)", function(g)
    return g:set_unit("ship", { [1] = b[2] })
  end, exact(3, "set_unit", "costs[1] " .. UCOST .. b[3]))
  case("set_unit: costs['*'] = " .. b[1], function(g)
    return g:set_unit("walker", { ["*"] = b[2], water = 1 })
  end, exact(3, "set_unit", "costs['*'] " .. UCOST .. b[3]))
end
local UNIT_OPTS = {
  { "climb = -1", { climb = -1 }, "climb must be a number in [0, 1e+15], got -1" },
  { "climb = NaN", { climb = NAN }, "climb must be a number in [0, 1e+15], got nan" },
  { "climb = '1'", { climb = "1" }, "climb must be a number in [0, 1e+15], got '1'" },
  { "descend = 2e15", { descend = 2e15 },
    "descend must be a number in [0, 1e+15], got 2e+15" },
  { "descend = inf", { descend = INF }, "descend must be a number in [0, 1e+15], got inf" },
  { "max_climb = NaN", { max_climb = NAN },
    "max_climb must be a number >= 0 (math.huge: no limit), got nan" },
  { "max_climb = -1", { max_climb = -1 },
    "max_climb must be a number >= 0 (math.huge: no limit), got -1" },
  { "max_drop = -inf", { max_drop = -INF },
    "max_drop must be a number >= 0 (math.huge: no limit), got -inf" },
  { "max_drop = true", { max_drop = true },
    "max_drop must be a number >= 0 (math.huge: no limit), got true" },
  { "unknown option", { speed = 2 }, "unknown option 'speed'" },
  { "a good option and an unknown one", { climb = 1, maxclimb = 2 },
    "unknown option 'maxclimb'" },
  { "options not a table", "fast", "options must be a table, got 'fast'" },
}
for _, o in ipairs(UNIT_OPTS) do
  case("set_unit: options " .. o[1] .. " (redefining walker)", function(g)
    return g:set_unit("walker", { water = 1 }, o[2])
  end, exact(4, "set_unit", o[3]))
  case("set_unit: options " .. o[1] .. " (a new unit)", function(g)
    return g:set_unit("ship", { water = 1 }, o[2])
  end, exact(4, "set_unit", o[3]))
end
case("set_unit: a 33rd unit class", function()
  local g2 = astar.new(3, 3)
  for i = 1, 31 do g2:set_unit("u" .. i, { [0] = i }) end -- with "default": 32
  return g2:set_unit("one more", {})
end, exact(2, "set_unit", "a grid holds at most 32 unit classes"))

-- a unit class name where one is expected: get_cost (#4), find_path /
-- next_step options (#6)
local UNIT_RULE = "unit must be the name of a unit class defined with"
  .. " set_unit, got "
local BAD_UNITS = {
  { "'plane' (undefined)", "plane", "'plane'" }, { "5", 5, "5" },
  { "0 (the default's id)", 0, "0" }, { "true", true, "true" },
  { "{}", {}, "table" }, { "'' ", "", "''" },
}
for _, b in ipairs(BAD_UNITS) do
  -- BUG (src/lua_grid.c g_get_cost): the message says #5 (the index of a
  -- temporary options table), the unit is argument #4
  case("get_cost: unit = " .. b[1], function(g)
    return g:get_cost(1, 1, b[2])
  end, exact(4, "get_cost", UNIT_RULE .. b[3]))
  for _, fname in ipairs({ "find_path", "next_step" }) do
    case(fname .. ": option unit = " .. b[1], function(g)
      return g[fname](g, 1, 1, 2, 2, { unit = b[2] })
    end, exact(6, fname, UNIT_RULE .. b[3]))
  end
end

-- cost callbacks and their bound (#6)
for _, fname in ipairs({ "find_path", "next_step" }) do
  local function call(g, o) return g[fname](g, 1, 1, W, H, o) end
  for _, opt in ipairs({ "tile_cost", "move_cost" }) do
    for _, b in ipairs({ { "5", 5, "5" }, { "'f'", "f", "'f'" },
                         { "true", true, "true" }, { "{}", {}, "table" },
                         { "false", false, "false" } }) do
      case(("%s: %s = %s"):format(fname, opt, b[1]), function(g)
        return call(g, { [opt] = b[2] })
      end, exact(6, fname, opt .. " must be a function, got " .. b[3]))
    end
  end
  local MIN = "min_cost must be a number in [0, 3.4e+38], got "
  for _, b in ipairs({ { "-1", -1, "-1" }, { "NaN", NAN, "nan" },
                       { "'1'", "1", "'1'" }, { "inf", INF, "inf" },
                       { "1e39", 1e39, "1e+39" }, { "-0.5", -0.5, "-0.5" },
                       { "true", true, "true" } }) do
    case(("%s: min_cost = %s"):format(fname, b[1]), function(g)
      return call(g, { min_cost = b[2], tile_cost = function(_, _, c) return c end })
    end, exact(6, fname, MIN .. b[3]))
    case(("%s: min_cost = %s, no callbacks"):format(fname, b[1]), function(g)
      return call(g, { min_cost = b[2] })
    end, exact(6, fname, MIN .. b[3]))
  end
end

-- The constructors' terrains option: new (#3), from_string (#3),
-- from_table (#2), parse_movingai (#2)
local many = {}
for i = 1, 257 do many[i] = "t" .. i end
local TERRAINS_BAD = {
  { "not a table", "grass", "terrains must be a list of names, got 'grass'" },
  { "a number", 5, "terrains must be a list of names, got 5" },
  { "a non-string entry", { "grass", 5 }, "terrains[2] " .. NAME_RULE .. "5" },
  { "a table entry", { {} }, "terrains[1] " .. NAME_RULE .. "table" },
  { "an empty name", { "grass", "" }, "terrains[2] " .. NAME_RULE .. "''" },
  { "'*'", { "*" }, "terrains[1] " .. NAME_RULE .. "'*'" },
  { "a duplicate", { "grass", "water", "grass" }, "terrains[3] repeats 'grass'" },
  { "257 names", many, "terrains has 257 names, at most 256" },
}
local CONSTRUCTORS = {
  { "new", 3, function(o) return astar.new(3, 3, o) end },
  { "from_string", 3, function(o) return astar.from_string("..", nil, o) end },
  { "from_table", 2, function(o) return astar.from_table({ { 1 } }, o) end },
  { "parse_movingai", 2, function(o)
      return astar.parse_movingai("type octile\nheight 1\nwidth 1\nmap\n.\n", o)
    end },
}
for _, c in ipairs(CONSTRUCTORS) do
  for _, t in ipairs(TERRAINS_BAD) do
    case(("%s: terrains option, %s"):format(c[1], t[1]), function()
      return c[3]({ terrains = t[2] })
    end, exact(c[2], c[1], t[3]))
  end
end

-- Legend values naming terrains: from_string (#2), load_string (#3)
case("from_string: legend names an undefined terrain", function()
  return astar.from_string("..", { ["."] = "lava" }, { terrains = { "grass" } })
end, exact(2, "from_string", "legend['.'] names terrain 'lava', which is not"
  .. " defined (add it to the terrains option or define_terrain)"))
case("from_string: legend names a terrain with no terrains option", function()
  return astar.from_string("..", { ["."] = "grass" })
end, exact(2, "from_string", "legend['.'] names terrain 'grass', which is not"
  .. " defined (add it to the terrains option or define_terrain)"))
case("load_string: legend names an undefined terrain", function(g)
  return g:load_string(text_of(W, H, "2"), { ["2"] = "lava" })
end, exact(3, "load_string", "legend['2'] names terrain 'lava', which is not"
  .. " defined (add it to the terrains option or define_terrain)"))
case("load_string: legend names '' ", function(g)
  return g:load_string(text_of(W, H, "2"), { ["2"] = "" })
end, prefix(3, "load_string") .. "legend%['2'%] ")

-- A method called on something that is not a grid
for _, m in ipairs({ "get_cost", "find_path", "size", "load", "fill",
                    "define_terrain", "set_terrain", "get_terrain",
                    "fill_terrain", "load_terrain", "set_height", "get_height",
                    "load_heights", "set_unit" }) do
  case(m .. " on a table instead of a grid", function(g)
    return g[m]({}, 1, 1, 2, 2)
  end, prefix(1, m))
  case(m .. " on nil", function(g) return g[m](nil, 1, 1, 2, 2) end,
       prefix(1, m))
end

---------------------------------------------------------------------------
-- Paths that stay valid (issue 20): path_ok, path_cost, repair, and the
-- avoid / extra_cost / remember options.
---------------------------------------------------------------------------

local PATH = { 1, 1, 2, 2, 3, 2 }
for _, fname in ipairs({ "path_ok", "path_cost", "repair" }) do
  local function call(g, p, ...)
    if fname == "repair" then return g:repair(p, 1, ...) end
    if fname == "path_ok" then return g:path_ok(p, 1, ...) end
    return g:path_cost(p, ...)
  end
  local oarg = fname == "path_cost" and 3 or 4
  case(fname .. ": path = nil", function(g) return call(g, nil) end,
    exact(2, fname, "path must be a table {x1, y1, x2, y2, ...}, got nil"))
  case(fname .. ": path of 3 numbers", function(g) return call(g, { 1, 1, 2 }) end,
    exact(2, fname, "path must hold x, y pairs (a positive even count of numbers), got 3 numbers"))
  case(fname .. ": an empty path", function(g) return call(g, {}) end,
    exact(2, fname, "path must hold x, y pairs (a positive even count of numbers), got 0 numbers"))
  case(fname .. ": x out of range", function(g) return call(g, { 1, 1, 11, 1 }) end,
    exact(2, fname, "path[3] (x of tile 2) must be an integer in 1..10, got 11"))
  case(fname .. ": y not an integer", function(g) return call(g, { 1, 1.5 }) end,
    exact(2, fname, "path[2] (y of tile 1) must be an integer in 1..8, got 1.5"))
  case(fname .. ": y a string", function(g) return call(g, { 1, "2" }) end,
    exact(2, fname, "path[2] (y of tile 1) must be an integer in 1..8, got '2'"))
  case(fname .. ": y NaN", function(g) return call(g, { 1, NAN }) end,
    exact(2, fname, "path[2] (y of tile 1) must be an integer in 1..8, got nan"))
  case(fname .. ": options = 5", function(g) return call(g, PATH, 5) end,
    exact(oarg, fname, "options must be a table, got 5"))
  case(fname .. ": unknown option", function(g) return call(g, PATH, { wieght = 1 }) end,
    exact(oarg, fname, "unknown option 'wieght'"))
  case(fname .. ": avoid = 5", function(g) return call(g, PATH, { avoid = 5 }) end,
    exact(oarg, fname, "avoid must be a table, got 5"))
  case(fname .. ": avoid of odd length", function(g) return call(g, PATH, { avoid = { 1, 2, 3 } }) end,
    exact(oarg, fname, "avoid must hold x, y pairs (an even count of numbers), got 3 numbers"))
  case(fname .. ": avoid y out of range", function(g) return call(g, PATH, { avoid = { 1, 9 } }) end,
    exact(oarg, fname, "avoid[2] (y of tile 1) must be an integer in 1..8, got 9"))
  case(fname .. ": extra_cost of 4 numbers", function(g) return call(g, PATH, { extra_cost = { 1, 1, 1, 1 } }) end,
    exact(oarg, fname, "extra_cost must hold x, y, cost triples (a count of numbers divisible by 3), got 4 numbers"))
  case(fname .. ": extra_cost negative", function(g) return call(g, PATH, { extra_cost = { 1, 1, -1 } }) end,
    exact(oarg, fname, "extra_cost[3] (cost of tile 1) must be a finite number >= 0, got -1"))
  case(fname .. ": extra_cost inf", function(g) return call(g, PATH, { extra_cost = { 1, 1, INF } }) end,
    exact(oarg, fname, "extra_cost[3] (cost of tile 1) must be a finite number >= 0, got inf"))
  case(fname .. ": extra_cost x 0", function(g) return call(g, PATH, { extra_cost = { 0, 1, 1 } }) end,
    exact(oarg, fname, "extra_cost[1] (x of tile 1) must be an integer in 1..10, got 0"))
  case(fname .. ": unknown unit", function(g) return call(g, PATH, { unit = "ghost" }) end,
    prefix(oarg, fname) .. "unit")
  case(fname .. ": size 0", function(g) return call(g, PATH, { size = 0 }) end,
    exact(oarg, fname, "size out of range 1..8, got 0"))
  case(fname .. ": size bigger than the grid", function(g) return call(g, PATH, { size = 9 }) end,
    exact(oarg, fname, "size out of range 1..8, got 9"))
  case(fname .. ": size 1.5", function(g) return call(g, PATH, { size = 1.5 }) end,
    exact(oarg, fname, "size must be an integer, got 1.5"))
  case(fname .. ": size '2'", function(g) return call(g, PATH, { size = "2" }) end,
    exact(oarg, fname, "size must be an integer, got '2'"))
  case(fname .. ": size inf", function(g) return call(g, PATH, { size = INF }) end,
    exact(oarg, fname, "size must be an integer, got inf"))
  case(fname .. " on a table instead of a grid", function(g)
    return g[fname]({}, PATH, 1)
  end, prefix(1, fname))
end
case("path_ok: from_index 0", function(g) return g:path_ok(PATH, 0) end,
  exact(3, "path_ok", "from_index must be an integer >= 1, got 0"))
case("path_ok: from_index 1.5", function(g) return g:path_ok(PATH, 1.5) end,
  exact(3, "path_ok", "from_index must be an integer >= 1, got 1.5"))
case("path_ok: from_index past the end", function(g) return g:path_ok(PATH, 4) end,
  exact(3, "path_ok", "from_index out of range 1..3, got 4"))
case("path_ok: stats is no option of it", function(g) return g:path_ok(PATH, 1, { stats = {} }) end,
  exact(4, "path_ok", "unknown option 'stats'"))
case("repair: at_index nil", function(g) return g:repair(PATH) end,
  exact(3, "repair", "at_index must be an integer >= 1, got nil"))
case("repair: at_index past the end", function(g) return g:repair(PATH, 5) end,
  exact(3, "repair", "at_index out of range 1..3, got 5"))
case("repair: out = 5", function(g) return g:repair(PATH, 1, nil, 5) end,
  exact(5, "repair", "out must be a table, got 5"))
case("repair: max_nodes 0", function(g) return g:repair(PATH, 1, { max_nodes = 0 }) end,
  exact(4, "repair", "max_nodes must be an integer in [1, 2147483647], got 0"))
case("repair: zones = 1", function(g) return g:repair(PATH, 1, { zones = 1 }) end,
  exact(4, "repair", "zones must be a boolean, got 1"))
case("repair: goals is no option of it", function(g) return g:repair(PATH, 1, { goals = { 1, 1 } }) end,
  exact(4, "repair", "unknown option 'goals'"))
for _, fname in ipairs({ "find_path", "next_step" }) do
  case(fname .. ": avoid = 'x'", function(g) return g[fname](g, 1, 1, 2, 2, { avoid = "x" }) end,
    exact(6, fname, "avoid must be a table, got 'x'"))
  case(fname .. ": avoid of odd length", function(g) return g[fname](g, 1, 1, 2, 2, { avoid = { 1 } }) end,
    exact(6, fname, "avoid must hold x, y pairs (an even count of numbers), got 1 numbers"))
  case(fname .. ": avoid x a boolean", function(g) return g[fname](g, 1, 1, 2, 2, { avoid = { true, 1 } }) end,
    exact(6, fname, "avoid[1] (x of tile 1) must be an integer in 1..10, got true"))
  case(fname .. ": extra_cost of 2 numbers", function(g) return g[fname](g, 1, 1, 2, 2, { extra_cost = { 1, 1 } }) end,
    exact(6, fname, "extra_cost must hold x, y, cost triples (a count of numbers divisible by 3), got 2 numbers"))
  case(fname .. ": extra_cost NaN", function(g) return g[fname](g, 1, 1, 2, 2, { extra_cost = { 1, 1, NAN } }) end,
    exact(6, fname, "extra_cost[3] (cost of tile 1) must be a finite number >= 0, got nan"))
  case(fname .. ": avoid with ida", function(g)
    return g[fname](g, 1, 1, 2, 2, { avoid = { 1, 2 }, algorithm = "ida" })
  end, prefix(6, fname) .. "algorithm 'ida' needs none of the options")
end
case("next_step: remember = 1", function(g) return g:next_step(1, 1, 2, 2, { remember = 1 }) end,
  exact(6, "next_step", "remember must be a boolean, got 1"))
case("find_path: remember is next_step's", function(g) return g:find_path(1, 1, 2, 2, { remember = true }) end,
  exact(6, "find_path", "unknown option 'remember'"))
-- Query objects and the pathfinder pool (sliced_spec.lua has the rest):
-- budgets that are not positive numbers, closed objects, unknown options.
---------------------------------------------------------------------------

local function query(g, ...) return g:query(1, 1, W, H, ...) end
local function pool(g, ...) return astar.pathfinder(g, ...) end
local BUDGET = "max_nodes must be a positive integer, got "
for _, b in ipairs({ { 0, "0" }, { -1, "-1" }, { 1.5, "1.5" },
                     { NAN, "nan" }, { INF, "inf" }, { 2 ^ 32, "4294967296" },
                     { "3", "'3'" }, { true, "true" }, { {}, "table" } }) do
  case("step: max_nodes = " .. b[2], function(g)
    local q = query(g)
    return q:step(b[1])
  end, exact(2, "step", BUDGET .. b[2]))
end
case("query: unknown option", function(g) return query(g, { wieght = 2 }) end,
     exact(6, "query", "unknown option 'wieght'"))
case("query: options not a table", function(g) return query(g, 5) end,
     prefix(6, "query"))
case("query: a bad option value", function(g)
  return query(g, { algorithm = "jump" })
end, prefix(6, "query") .. "algorithm must be one of")
case("query: jps refused", function(g)
  return query(g, { algorithm = "jps", closest = true })
end, prefix(6, "query") .. "algorithm 'jps' needs")
case("request: jps refused", function(g)
  return pool(g):request(1, 1, 2, 2, { algorithm = "jps", closest = true })
end, prefix(6, "request") .. "algorithm 'jps' needs")
-- avoid, extra_cost and size: read as find_path reads them
for _, mk in ipairs({
  { "query", function(g, o) return query(g, o) end },
  { "request", function(g, o) return pool(g):request(1, 1, 2, 2, o) end },
}) do
  local fname, call = mk[1], mk[2]
  case(fname .. ": avoid = 5", function(g) return call(g, { avoid = 5 }) end,
    exact(6, fname, "avoid must be a table, got 5"))
  case(fname .. ": avoid of odd length", function(g) return call(g, { avoid = { 1, 2, 3 } }) end,
    exact(6, fname, "avoid must hold x, y pairs (an even count of numbers), got 3 numbers"))
  case(fname .. ": avoid y out of range", function(g) return call(g, { avoid = { 1, 9 } }) end,
    exact(6, fname, "avoid[2] (y of tile 1) must be an integer in 1..8, got 9"))
  case(fname .. ": extra_cost of 4 numbers", function(g) return call(g, { extra_cost = { 1, 1, 1, 1 } }) end,
    exact(6, fname, "extra_cost must hold x, y, cost triples (a count of numbers divisible by 3), got 4 numbers"))
  case(fname .. ": extra_cost NaN", function(g) return call(g, { extra_cost = { 1, 1, NAN } }) end,
    exact(6, fname, "extra_cost[3] (cost of tile 1) must be a finite number >= 0, got nan"))
  case(fname .. ": avoid with jps", function(g)
    return call(g, { avoid = { 1, 2 }, algorithm = "jps" })
  end, prefix(6, fname) .. "algorithm 'jps' needs none of the options")
  case(fname .. ": extra_cost with bidirectional", function(g)
    return call(g, { extra_cost = { 1, 2, 1 }, algorithm = "bidirectional" })
  end, prefix(6, fname) .. "algorithm 'bidirectional' needs none of the options")
  case(fname .. ": size 9", function(g) return call(g, { size = 9 }) end,
    exact(6, fname, "size out of range 1..8, got 9"))
  case(fname .. ": size 2.5", function(g) return call(g, { size = 2.5 }) end,
    exact(6, fname, "size must be an integer, got 2.5"))
end
case("query on a table instead of a grid", function(g)
  return g.query({}, 1, 1, 2, 2)
end, exact(1, "query", "grid expected, got table"))
for _, m in ipairs({ "step", "result", "partial", "expanded", "state",
                    "restart" }) do
  case(m .. " on a closed query", function(g)
    local q = query(g)
    q:close()
    return q[m](q)
  end, exact(1, m, "the query is closed"))
  case(m .. " on a grid instead of a query", function(g)
    local q = query(g)
    return q[m](g)
  end, exact(1, m, "query expected, got userdata"))
end
for _, m in ipairs({ "result", "partial" }) do
  case(m .. ": out = 5", function(g)
    local q = query(g)
    q:step()
    return q[m](q, 5)
  end, exact(2, m, "out must be a table, got 5"))
end
case("step on a query of a closed grid", function()
  local g2 = astar.new(4, 4)
  local q = g2:query(1, 1, 4, 4)
  g2:close()
  return q:step(1)
end, "step: the grid is closed")

case("pathfinder: grid = nil", function() return astar.pathfinder(nil) end,
     exact(1, "pathfinder", "grid expected, got nil"))
case("pathfinder: unknown option", function(g)
  return pool(g, { search = 2 })
end, exact(2, "pathfinder", "unknown option 'search'"))
for _, o in ipairs({ { "searches", 0 }, { "searches", 65 },
                     { "searches", 1.5 }, { "searches", NAN },
                     { "max_pending", 0 }, { "max_pending", 2.5 },
                     { "slice", 0 }, { "slice", -3 }, { "slice", "8" } }) do
  case(("pathfinder: %s = %s"):format(o[1], tostring(o[2])), function(g)
    return pool(g, { [o[1]] = o[2] })
  end, prefix(2, "pathfinder") .. o[1] .. " must be ")
end
case("pathfinder on a closed grid", function()
  local g2 = astar.new(4, 4)
  g2:close()
  return astar.pathfinder(g2)
end, "pathfinder: the grid is closed")
local UPDATE = "budget must be a table {nodes = N} or {seconds = s}, got "
for _, b in ipairs({ { nil, "nil" }, { 5, "5" }, { "fast", "'fast'" } }) do
  case("update: budget = " .. b[2], function(g)
    return pool(g):update(b[1])
  end, exact(2, "update", UPDATE .. b[2]))
end
case("update: budget = {}", function(g) return pool(g):update({}) end,
     exact(2, "update", UPDATE .. "table"))
case("update: unknown budget key", function(g)
  return pool(g):update({ frames = 1 })
end, exact(2, "update", "unknown option 'frames'"))
for _, b in ipairs({ { "nodes", 0 }, { "nodes", -5 }, { "nodes", 1.5 },
                     { "nodes", NAN }, { "nodes", INF }, { "nodes", "9" },
                     { "seconds", 0 }, { "seconds", -0.001 },
                     { "seconds", NAN }, { "seconds", INF },
                     { "seconds", "0.001" } }) do
  case(("update: %s = %s"):format(b[1], tostring(b[2])), function(g)
    return pool(g):update({ [b[1]] = b[2] })
  end, prefix(2, "update") .. b[1] .. " must be ")
end
case("request: unknown option", function(g)
  return pool(g):request(1, 1, 2, 2, { wieght = 2 })
end, exact(6, "request", "unknown option 'wieght'"))
case("request: sx = 0", function(g)
  return pool(g):request(0, 1, 2, 2)
end, exact(2, "request", "sx out of range 1..10, got 0"))
case("request: gy = 1.5", function(g)
  return pool(g):request(1, 1, 2, 1.5)
end, exact(5, "request", "gy must be an integer, got 1.5"))
case("request: tag = NaN", function(g)
  return pool(g):request(1, 1, 2, 2, nil, NAN)
end, exact(7, "request", "tag must not be NaN"))
case("request: out = 5", function(g)
  return pool(g):request(1, 1, 2, 2, nil, nil, 5)
end, exact(8, "request", "out must be a table, got 5"))
case("request on a closed grid", function()
  local g2 = astar.new(4, 4)
  local pf = astar.pathfinder(g2)
  g2:close()
  return pf:request(1, 1, 2, 2)
end, "request: the grid is closed")
case("cancel: id = 'x'", function(g) return pool(g):cancel("x") end,
     exact(2, "cancel", "id must be a number, got 'x'"))
case("partial: id = nil", function(g) return pool(g):partial() end,
     exact(2, "partial", "id must be a number, got nil"))
case("partial: out = 5", function(g) return pool(g):partial(1, 5) end,
     exact(3, "partial", "out must be a table, got 5"))
case("stats: t = 5", function(g) return pool(g):stats(5) end,
     exact(2, "stats", "t must be a table, got 5"))
for _, m in ipairs({ "request", "update", "done", "cancel", "partial",
                    "pending", "stats" }) do
  case(m .. " on a closed pathfinder", function(g)
    local pf = pool(g)
    pf:close()
    return pf[m](pf, 1, 1, 2, 2)
  end, exact(1, m, "the pathfinder is closed"))
  case(m .. " on a grid instead of a pathfinder", function(g)
    local pf = pool(g)
    return pf[m](g, 1, 1, 2, 2)
  end, exact(1, m, "pathfinder expected, got userdata"))
end

describe("bad input", function()
  for _, c in ipairs(CASES) do
    it(c.name, function() check(c.f, c.expected) end)
  end

  it("lists at least 900 cases", function()
    assert.is_true(#CASES >= 900, #CASES .. " cases")
  end)
end)

describe("where the messages point", function()
  -- Every bad-argument message carries the caller's "file:line: " when the
  -- call is not a tail call: the binding's (luaL_error) and the Lua half's
  -- alike, on every runtime.
  local CALLS = {
    { "new (the binding)", function() local r = astar.new(0, 1) return r end },
    { "parse_movingai", function()
        local r = astar.parse_movingai(5) return r end },
    { "load_movingai", function() local r = astar.load_movingai(5) return r end },
    { "load_movingai options", function()
        local r = astar.load_movingai("none.map", { wieght = 1 }) return r end },
    { "read_scenarios", function()
        local r = astar.read_scenarios(5) return r end },
    { "render", function() local r = astar.render(5) return r end },
    { "render path", function()
        local r = astar.render(astar.new(2, 2), { 3, 1 }) return r end },
    { "hex.distance", function()
        local r = astar.hex.distance(nil, 1, 1, 1) return r end },
    { "hex map method", function()
        local r = astar.hex.map("odd-r", 2, 2):contains(nil, 1) return r end },
    { "hex.map size", function()
        local r = astar.hex.map("odd-r", 40000, 40000) return r end },
  }
  for _, c in ipairs(CALLS) do
    it(c[1], function()
      local ok, err = pcall(c[2])
      assert.is_false(ok)
      assert.is_truthy(err:find("^[^\n]*bad_input_spec%.lua:%d+: bad argument #"),
                       err)
    end)
  end
end)

describe("good input near the bad", function()
  it("integer-valued floats are integers", function()
    local g = fresh()
    assert.are.equal(3, g:get_cost(5.0, 5.0))
    local path, cost = g:find_path(1.0, 1.0, 2.0, 1.0)
    assert.are.same({ 1, 1, 2, 1 }, path)
    assert.are.equal(1, cost)
    local a = astar.new(3.0, 2.0)
    assert.are.same({ 3, 2 }, { a:size() })
    a:fill_rect(1.0, 1.0, 3.0, 2.0, 4)
    assert.are.equal(4, a:get_cost(3, 2))
  end)

  it("the extreme coordinates are accepted", function()
    local g = fresh()
    assert.are.equal(1, g:get_cost(W, H))
    assert.are.equal(1, g:get_cost(1, H))
    assert.are.equal(1, g:get_cost(W, 1))
    g:fill_rect(W, H, 1, 1, 4)
    assert.are.equal(4, g:get_cost(W, H))
  end)

  it("costs too large or too small for a 32-bit float are refused or kept"
     .. " finite and positive", function()
    for _, c in ipairs({ 1e39, 1e300, 1e-50, 1e-300 }) do
      local g = astar.new(2, 1)
      if pcall(g.set_cost, g, 1, 1, c) then
        local got = g:get_cost(1, 1)
        assert.is_true(type(got) == "number" and got > 0 and got < math.huge,
          ("set_cost(%g) stored %s"):format(c, tostring(got)))
      else
        local msg = helpers.error_of(g.set_cost, g, 1, 1, c)
        assert.is_truthy(msg:find(prefix(4, "set_cost")
          .. pattern_escape(COST)), msg)
        assert.are.equal(1, g:get_cost(1, 1))
      end
    end
  end)

  it("fill_rect with w or h 0 is allowed anywhere inside", function()
    local g = fresh()
    local before = snapshot(g)
    g:fill_rect(W, H, 0, 0, 5)
    g:fill_rect(1, 1, 0, H, 5)
    g:fill_rect(1, 1, W, 0, 5)
    assert.are.same(before, snapshot(g))
  end)

  it("terrain ids 0 and 255, heights of +-1e15, min_cost = 0 are accepted",
     function()
    local g = fresh()
    g:set_terrain(1, 1, 255)
    assert.are.equal(255, g:get_terrain(1, 1))
    g:set_terrain(1, 1, 0)
    assert.are.equal("grass", g:get_terrain(1, 1))
    g:fill_terrain(255, W, H, 0, 0) -- an empty rectangle in the corner
    assert.are.equal("grass", g:get_terrain(W, H))
    g:set_height(1, 1, 1e15)
    g:set_height(2, 1, -1e15)
    -- stored as 32-bit floats, like costs
    assert.is_true(helpers.close(1e15, g:get_height(1, 1), 1e-7))
    assert.is_true(helpers.close(-1e15, g:get_height(2, 1), 1e-7))
    local _, cost = g:find_path(1, 2, 2, 2, { min_cost = 0 })
    assert.are.equal(1, cost)
  end)

  it("a full set of 32 unit classes may still be redefined", function()
    local g = astar.new(3, 1)
    for i = 1, 31 do g:set_unit("u" .. i, { [0] = i }) end
    g:set_unit("u5", { [0] = 2 })
    g:set_unit("default", { [0] = 4 })
    assert.are.equal(2, g:get_cost(1, 1, "u5"))
    assert.are.equal(4, g:get_cost(1, 1, "default"))
    assert.are.equal(1, g:get_cost(1, 1)) -- the weight
    assert.are.equal(31, g:get_cost(1, 1, "u31"))
    assert.are.equal(2, select(2, g:find_path(1, 1, 2, 1, { unit = "u5" })))
  end)

  it("set_blocked's flag may be omitted or nil", function()
    local g = fresh()
    g:set_blocked(1, 1)
    assert.is_true(g:is_blocked(1, 1))
    g:set_blocked(1, 1, false)
    g:set_blocked(1, 1, nil)
    assert.is_true(g:is_blocked(1, 1))
  end)
end)

-- Query options of issue 5 (lua_query_options.c): every bad value, its message,
-- and the grid unchanged and usable afterwards.
describe("bad query options", function()
  local function msg(opts)
    local g = astar.new(W, H)
    local m = helpers.error_of(g.find_path, g, 1, 1, W, H, opts)
    assert.is_table(g:find_path(1, 1, W, H)) -- still usable
    return m
  end
  local function arg6(text) return "bad argument #6 to 'find_path' (" .. text .. ")" end

  local CASES = {
    { { algorithm = "jump" }, "algorithm must be one of 'auto', 'astar', "
      .. "'jps', 'dijkstra', 'bfs', 'greedy', 'weighted', 'beam', 'ida', "
    .. "'bidirectional', 'bidirectional_bfs', 'theta', 'lazy_theta', got 'jump'" },
    { { algorithm = 1 }, "algorithm must be one of 'auto', 'astar', 'jps', "
      .. "'dijkstra', 'bfs', 'greedy', 'weighted', 'beam', 'ida', "
    .. "'bidirectional', 'bidirectional_bfs', 'theta', 'lazy_theta', got 1" },
    { { ties = "smaller_g" }, "ties must be one of 'larger_g', 'straight', "
      .. "'random', got 'smaller_g'" },
    { { seed = -1 }, "seed must be an integer in [0, 9007199254740991], got -1" },
    { { seed = 1.5 }, "seed must be an integer in [0, 9007199254740991], got 1.5" },
    { { seed = "1" }, "seed must be an integer in [0, 9007199254740991], got '1'" },
    { { beam_width = 0 }, "beam_width must be an integer in [1, 2147483647], got 0" },
    { { beam_width = NAN }, "beam_width must be an integer in [1, 2147483647], got nan" },
    { { max_cost = 0 }, "max_cost must be a positive number, got 0" },
    { { max_cost = -1 }, "max_cost must be a positive number, got -1" },
    { { max_cost = NAN }, "max_cost must be a positive number, got nan" },
    { { max_length = 0 }, "max_length must be an integer in [1, 2147483647], got 0" },
    { { max_length = 2.5 }, "max_length must be an integer in [1, 2147483647], got 2.5" },
    { { max_nodes = INF }, "max_nodes must be an integer in [1, 2147483647], got inf" },
    { { closest = 1 }, "closest must be a boolean, got 1" },
    { { leave_blocked_start = "yes" }, "leave_blocked_start must be a boolean, got 'yes'" },
    { { next_to_blocked_goal = {} }, "next_to_blocked_goal must be a boolean, got table" },
    { { goals = 5 }, "goals must be a table {x1, y1, x2, y2, ...}, got 5" },
    { { goals = {} }, "goals must hold x, y pairs (a positive even count of numbers), got 0 numbers" },
    { { goals = { 1, 2, 3 } }, "goals must hold x, y pairs (a positive even count of numbers), got 3 numbers" },
    { { goals = { 1, 1, 11, 1 } }, "goals[3] (x of goal 2) must be an integer in 1..10, got 11" },
    { { goals = { 1, 0 } }, "goals[2] (y of goal 1) must be an integer in 1..8, got 0" },
    { { goals = { 1, 1.5 } }, "goals[2] (y of goal 1) must be an integer in 1..8, got 1.5" },
    { { goals = { "1", 1 } }, "goals[1] (x of goal 1) must be an integer in 1..10, got '1'" },
    { { stats = true }, "stats must be a table, got true" },
    { { explored = true }, "explored must be a table, got true" },
    { { explored = "closed" }, "explored must be a table, got 'closed'" },
    { { explored = 0 }, "explored must be a table, got 0" },
    { { algorithm = "bidirectional", tile_cost = function(_, _, c) return c end },
      "algorithm 'bidirectional' needs no cost callbacks (tile_cost, move_cost)" },
    { { algorithm = "ida", move_cost = function(_, _, _, _, c) return c end },
      "algorithm 'ida' needs no cost callbacks (tile_cost, move_cost)" },
    { { algorithm = "bidirectional_bfs", goals = { 2, 2 } },
      "algorithm 'bidirectional_bfs' needs none of the options ties, goals, "
      .. "max_cost, max_length, closest, leave_blocked_start, "
      .. "next_to_blocked_goal, avoid, extra_cost or a heuristic function (max_nodes is fine)" },
    { { algorithm = "bidirectional", closest = true },
      "algorithm 'bidirectional' needs none of the options ties, goals, "
      .. "max_cost, max_length, closest, leave_blocked_start, "
      .. "next_to_blocked_goal, avoid, extra_cost or a heuristic function (max_nodes is fine)" },
    { { algorithm = "ida", weight = 2 }, "algorithm 'ida' needs weight 1" },
    { { heuristic = true }, "heuristic must be one of 'default', 'manhattan', "
      .. "'chebyshev', 'octile', 'euclidean', 'zero' or a function, got true" },
    { { heuristic = function() return "near" end },
      "heuristic returned 'near' for (1, 1) -> (10, 8); expected a finite number >= 0" },
    { { heuristic = function() return 0 / 0 end },
      "heuristic returned nan for (1, 1) -> (10, 8); expected a finite number >= 0" },
    { { heuristic = function() return 1 / 0 end },
      "heuristic returned inf for (1, 1) -> (10, 8); expected a finite number >= 0" },
  }
  for _, c in ipairs(CASES) do
    it(c[2], function()
      assert.are.equal(arg6(c[2]), msg(c[1]))
    end)
  end

  it("gx, gy may be nil only with goals", function()
    local g = astar.new(W, H)
    assert.are.equal("bad argument #4 to 'find_path' (gx must be an integer, got nil)",
      helpers.error_of(g.find_path, g, 1, 1, nil, nil))
    assert.are.equal("bad argument #4 to 'next_step' (gx must be an integer, got nil)",
      helpers.error_of(g.next_step, g, 1, 1, nil, nil, { closest = true }))
    assert.is_table(g:find_path(1, 1, nil, nil, { goals = { 2, 2 } }))
  end)

  it("next_step checks the same options", function()
    local g = astar.new(W, H)
    assert.are.equal("bad argument #6 to 'next_step' (ties must be one of "
      .. "'larger_g', 'straight', 'random', got 'x')",
      helpers.error_of(g.next_step, g, 1, 1, 2, 2, { ties = "x" }))
    assert.are.equal("bad argument #6 to 'next_step' (explored must be a "
      .. "table, got false)",
      helpers.error_of(g.next_step, g, 1, 1, 2, 2, { explored = false }))
  end)

  it("explored may not be the path table; both are left as they were",
    function()
      local g = fresh()
      local before = snapshot(g)
      local t = { 7, 7, open = { 3 } }
      assert.are.equal("bad argument #6 to 'find_path' (explored must not be "
        .. "the path table (argument 7))",
        helpers.error_of(g.find_path, g, 1, 1, W, H, { explored = t }, t))
      assert.are.same({ 7, 7, open = { 3 } }, t)
      assert.are.same(before, snapshot(g))
    end)
end)

---------------------------------------------------------------------------
-- Zones (docs/api.md, "Zones"): kept in a block of its own.  Each case must
-- raise its message and leave the grid as it was, like the cases above.
---------------------------------------------------------------------------

describe("bad input: zones", function()
  local ZCASES = {}
  local function zcase(name, f, expected)
    ZCASES[#ZCASES + 1] = { name = name, f = f, expected = expected }
  end
  local BAD_COORDS = {
    { "0", 0, "out of range" }, { "nan", NAN, "must be an integer" },
    { "1.5", 1.5, "must be an integer" }, { "'1'", "1", "must be an integer" },
    { "nil", nil, "must be an integer" }, { "inf", INF, "must be an integer" },
  }
  local ZFUNCS = {
    { "zone", { "x", "y" }, { 1, 1 }, { W, H } },
    { "connected", { "x1", "y1", "x2", "y2" }, { 1, 1, 2, 2 }, { W, H, W, H } },
  }
  for _, f in ipairs(ZFUNCS) do
    local fname, names, base, hi = f[1], f[2], f[3], f[4]
    for k, name in ipairs(names) do
      for _, b in ipairs(BAD_COORDS) do
        zcase(("%s: %s = %s"):format(fname, name, b[1]), function(g)
          local args = { unpack(base) }
          args[k] = b[2]
          return g[fname](g, unpack(args, 1, #base))
        end, prefix(k + 1, fname) .. pattern_escape(name .. " " .. b[3]))
      end
      zcase(("%s: %s one past the end"):format(fname, name), function(g)
        local args = { unpack(base) }
        args[k] = hi[k] + 1
        return g[fname](g, unpack(args, 1, #base))
      end, exact(k + 1, fname, ("%s out of range 1..%d, got %d"):format(
        name, hi[k], hi[k] + 1)))
    end
  end
  -- unit classes: names only, and only defined ones
  local UNIT_MSG = "unit must be the name of a unit class defined with "
    .. "set_unit, got "
  local BAD_UNITS = { { "'ship'", "ship", "'ship'" }, { "1", 1, "1" },
                      { "true", true, "true" }, { "{}", {}, "table" } }
  for _, b in ipairs(BAD_UNITS) do
    zcase("zone: unit = " .. b[1], function(g) return g:zone(1, 1, b[2]) end,
          exact(4, "zone", UNIT_MSG .. b[3]))
    zcase("connected: unit = " .. b[1], function(g)
      return g:connected(1, 1, 2, 2, b[2])
    end, exact(6, "connected", UNIT_MSG .. b[3]))
    zcase("zone_count: unit = " .. b[1], function(g)
      return g:zone_count(b[2])
    end, exact(2, "zone_count", UNIT_MSG .. b[3]))
    zcase("zone_size: unit = " .. b[1], function(g)
      return g:zone_size(1, b[2])
    end, exact(3, "zone_size", UNIT_MSG .. b[3]))
  end
  local BAD_IDS = { { "nil", nil, "id must be an integer, got nil" },
                    { "nan", NAN, "id must be an integer, got nan" },
                    { "1.5", 1.5, "id must be an integer, got 1.5" },
                    { "'1'", "1", "id must be an integer, got '1'" },
                    { "inf", INF, "id must be an integer, got inf" },
                    { "-1", -1, "id must be >= 0, got -1" } }
  for _, b in ipairs(BAD_IDS) do
    zcase("zone_size: id = " .. b[1], function(g) return g:zone_size(b[2]) end,
          exact(2, "zone_size", b[3]))
  end
  for _, fname in ipairs({ "zone", "connected", "zone_count", "zone_size" }) do
    zcase(fname .. ": not a grid", function()
      return astar.new(2, 2)[fname]("grid", 1, 1, 1, 1)
    end, exact(1, fname, "grid expected, got 'grid'"))
  end
  zcase("find_path: zones = 1", function(g)
    return g:find_path(1, 1, 2, 2, { zones = 1 })
  end, exact(6, "find_path", "zones must be a boolean, got 1"))
  zcase("find_path: zones = 'no'", function(g)
    return g:find_path(1, 1, 2, 2, { zones = "no" })
  end, exact(6, "find_path", "zones must be a boolean, got 'no'"))

  for _, c in ipairs(ZCASES) do
    it(c.name, function() check(c.f, c.expected) end)
  end

  it("good input near the bad: id 0 and unknown ids have size 0",
     function()
    local g = fresh()
    assert.are.equal(0, g:zone_size(0))
    assert.are.equal(0, g:zone_size(2 ^ 40))
    assert.are.equal(0, g:zone(3, 3)) -- blocked
    assert.is_false(g:connected(3, 3, 3, 3))
    assert.is_true(g:zone_count("boat") >= 1)
    assert.is_true(g:zone_count(nil) >= 1)
    local path = g:find_path(1, 1, 2, 2, { zones = false })
    assert.is_truthy(path)
  end)
end)

describe("bad input: snapshots, tokens and workers", function()
  local TCASES = {}
  local function tcase(name, f, expected)
    TCASES[#TCASES + 1] = { name = name, f = f, expected = expected }
  end
  -- each f(g) makes what it needs from the fresh grid g and must leave g
  -- as it was
  tcase("snapshot: units = 5", function(g) return g:snapshot(5) end,
    exact(2, "snapshot", "units must be a list of unit class names, got 5"))
  tcase("snapshot: an unknown unit", function(g)
    return g:snapshot({ "boat", "tank" })
  end, exact(2, "snapshot", "unit must be the name of a unit class defined "
    .. "with set_unit, got 'tank'"))
  tcase("snapshot: not a grid", function(g)
    return g.snapshot({})
  end, exact(1, "snapshot", "grid expected, got table"))
  tcase("snap:find_path: sx out of range", function(g)
    return g:snapshot():find_path(W + 1, 1, 1, 1)
  end, exact(2, "find_path", ("sx out of range 1..%d, got %d"):format(W,
    W + 1)))
  tcase("snap:next_step: gy nan", function(g)
    return g:snapshot():next_step(1, 1, 1, NAN)
  end, exact(5, "next_step", "gy must be an integer, got nan"))
  tcase("snap:find_path: a tile_cost function", function(g)
    return g:snapshot():find_path(1, 1, 2, 2, { tile_cost = print })
  end, exact(6, "find_path", "tile_cost: a snapshot takes no Lua functions "
    .. "(they cannot run on another thread); bake the costs into the grid, "
    .. "or search the grid itself"))
  tcase("snap:find_path: a unit left out", function(g)
    return g:snapshot({ "boat" }):find_path(1, 1, 2, 2, { unit = "walker" })
  end, exact(6, "find_path", "unit 'walker' is not in this snapshot "
    .. "(grid:snapshot(units) left it out)"))
  tcase("snap:find_path: weight 0", function(g)
    return g:snapshot():find_path(1, 1, 2, 2, { weight = 0 })
  end, prefix(6, "find_path") .. "weight must be")
  tcase("attach: a forged token", function()
    return astar.attach("astar-snapshot:00000000:0:1x")
  end, exact(1, "attach", "not a snapshot token: "
    .. "'astar-snapshot:00000000:0:1x'"))
  tcase("attach: a table", function() return astar.attach({}) end,
    exact(1, "attach", "token must be a string, got table"))
  for _, n in ipairs({ 0, 257 }) do
    tcase("workers: n = " .. n, function() return astar.workers(n) end,
      exact(1, "workers", "n must be an integer in 1..256, got " .. n))
  end
  tcase("workers: n = 1.5", function() return astar.workers(1.5) end,
    exact(1, "workers", "n must be an integer, got 1.5"))
  tcase("workers: n = '2'", function() return astar.workers("2") end,
    exact(1, "workers", "n must be an integer, got '2'"))
  local pool
  local function a_pool()
    pool = pool or astar.workers(1)
    return pool
  end
  tcase("submit: a query off the map", function(g)
    return a_pool():submit(g:snapshot(), { 1, 1, 2, 2, 1, 1, 2, H + 1 })
  end, exact(3, "submit", ("query 2: gy must be an integer in 1..%d, got %d")
    :format(H, H + 1)))
  tcase("submit: 5 numbers", function(g)
    return a_pool():submit(g:snapshot(), { 1, 1, 2, 2, 1 })
  end, exact(3, "submit", "queries must hold sx, sy, gx, gy per query (a "
    .. "multiple of 4 numbers), got 5 numbers"))
  tcase("submit: a grid for the snapshot", function(g)
    return a_pool():submit(g, {})
  end, exact(2, "submit", "snapshot expected, got userdata"))
  tcase("submit: stats", function(g)
    return a_pool():submit(g:snapshot(), {}, { stats = {} })
  end, exact(4, "submit", "stats: not for batches (find_path on the "
    .. "snapshot gives it)"))
  tcase("results: an unknown batch", function()
    return a_pool():results(12345)
  end, exact(2, "results", "no batch 12345 in this pool (never submitted "
    .. "here, or its results were read already)"))
  tcase("results: a closed pool", function()
    local w = astar.workers(1)
    w:close()
    return w:results(1)
  end, "results: the worker pool is closed")
  tcase("find_paths: a query off the map", function(g)
    return g:snapshot():find_paths({ 0, 1, 1, 1 })
  end, exact(2, "find_paths", ("query 1: sx must be an integer in 1..%d, "
    .. "got 0"):format(W)))
  tcase("unpack_paths: a string it did not make", function()
    return astar.unpack_paths("ASP1....")
  end, exact(1, "unpack_paths", "not a string made by find_paths"))

  for _, c in ipairs(TCASES) do
    it(c.name, function() check(c.f, c.expected) end)
  end

  it("leaves the pool usable", function()
    local g = fresh()
    local w = a_pool()
    local r = w:results(w:submit(g:snapshot(), { 1, 1, W, H }))
    assert.are.equal(select(2, g:find_path(1, 1, W, H)), r.cost[1])
    w:close()
  end)
end)

describe("bad input: fields", function()
  -- each case gets the grid and a field of it (the `reuse` candidate):
  -- both must be as before after the error
  local FCASES = {}
  local function fcase(name, f, expected)
    FCASES[#FCASES + 1] = { name = name, f = f, expected = expected }
  end
  local function values_of(f)
    local t = {}
    for y = 1, H do
      for x = 1, W do t[#t + 1] = f:get(x, y) or false end
    end
    return t
  end
  local function fcheck(f, expected)
    local g = fresh()
    local field = g:field(1, 1)
    local before, fbefore = snapshot(g), values_of(field)
    local msg = helpers.error_of(f, g, field)
    if expected:sub(1, 1) == "^" then
      assert.is_truthy(msg:find(expected),
        ("message %q does not match %q"):format(msg, expected))
    else
      assert.are.equal(expected, msg)
    end
    assert.are.same(before, snapshot(g))
    assert.are.same(fbefore, values_of(field))
    assert.are.equal(0, field:get(1, 1))
  end

  fcase("no goals", function(g) return g:field() end,
        exact(2, "field", "goals must be x, y or a table {x1, y1, x2, y2, " ..
              "...}, got nil"))
  fcase("empty goal list", function(g) return g:field({}) end,
        exact(2, "field", "goals must hold x, y pairs (a positive even " ..
              "count of numbers), got 0 numbers"))
  fcase("odd goal list", function(g) return g:field({ 1, 2, 3 }) end,
        exact(2, "field", "goals must hold x, y pairs (a positive even " ..
              "count of numbers), got 3 numbers"))
  fcase("goal x off the map", function(g) return g:field(W + 1, 1) end,
        exact(2, "field", ("x out of range 1..%d, got %d"):format(W, W + 1)))
  fcase("goal y off the map", function(g) return g:field(1, 0) end,
        exact(3, "field", ("y out of range 1..%d, got 0"):format(H)))
  fcase("goal y nan", function(g) return g:field(1, NAN) end,
        exact(3, "field", "y must be an integer, got nan"))
  fcase("goal in a list off the map", function(g)
    return g:field({ 1, 1, 2, H + 1 })
  end, exact(2, "field", ("goals[4] (y of goal 2) must be an integer in " ..
                          "1..%d, got %d"):format(H, H + 1)))
  fcase("goal in a list not a number", function(g)
    return g:field({ "1", 1 })
  end, exact(2, "field", ("goals[1] (x of goal 1) must be an integer in " ..
                          "1..%d, got '1'"):format(W)))
  fcase("blocked goal", function(g) return g:field(3, 3) end,
        exact(2, "field", "goal (3, 3) is blocked"))
  fcase("blocked goal in a list", function(g)
    return g:field({ 1, 1, 6, 2 })
  end, exact(2, "field", "goal 2 at (6, 2) is blocked"))
  fcase("goal blocked for the unit", function(g)
    return g:field(1, 1, { unit = "boat" })
  end, exact(2, "field", "goal (1, 1) is blocked for the unit"))
  fcase("values of the wrong length", function(g)
    return g:field({ 1, 1, 2, 2 }, { values = { 0 } })
  end, exact(3, "field", "values must hold one number per goal (2), got 1"))
  fcase("values with nan", function(g)
    return g:field({ 1, 1, 2, 2 }, { values = { 0, NAN } })
  end, exact(3, "field", "values[2] must be a finite number, got nan"))
  fcase("values not a table", function(g)
    return g:field(1, 1, { values = 0 })
  end, exact(4, "field", "values must be a table, got 0"))
  fcase("unknown option", function(g)
    return g:field(1, 1, { max_cots = 3 })
  end, exact(4, "field", "unknown option 'max_cots'"))
  fcase("bad direction", function(g)
    return g:field(1, 1, { direction = "away" })
  end, exact(4, "field", "direction must be one of 'to', 'from', got 'away'"))
  fcase("max_cost nan", function(g)
    return g:field(1, 1, { max_cost = NAN })
  end, exact(4, "field", "max_cost must be a number, got nan"))
  fcase("unknown unit", function(g)
    return g:field(1, 1, { unit = "ship" })
  end, exact(4, "field", "unit must be the name of a unit class defined " ..
             "with set_unit, got 'ship'"))
  fcase("tile_cost not a function", function(g)
    return g:field(1, 1, { tile_cost = 1 })
  end, exact(4, "field", "tile_cost must be a function, got 1"))
  fcase("size 0", function(g) return g:field(1, 1, { size = 0 }) end,
        exact(4, "field", "size out of range 1..8, got 0"))
  fcase("size not an integer", function(g)
    return g:field(1, 1, { size = 1.5 })
  end, exact(4, "field", "size must be an integer, got 1.5"))
  fcase("goal blocked for the size", function(g)
    return g:field(W, H, { size = 2 })
  end, exact(2, "field", ("goal (%d, %d) is blocked for a unit of that " ..
                          "size"):format(W, H)))
  fcase("avoid of odd length", function(g)
    return g:field(1, 1, { avoid = { 1 } })
  end, exact(4, "field", "avoid must hold x, y pairs (an even count of " ..
                         "numbers), got 1 numbers"))
  fcase("avoid off the map", function(g)
    return g:field(1, 1, { avoid = { 1, H + 1 } })
  end, exact(4, "field", ("avoid[2] (y of tile 1) must be an integer in " ..
                          "1..%d, got %d"):format(H, H + 1)))
  fcase("avoid not a table", function(g)
    return g:field(1, 1, { avoid = 5 })
  end, exact(4, "field", "avoid must be a table, got 5"))
  fcase("extra_cost not triples", function(g)
    return g:field(1, 1, { extra_cost = { 1, 1 } })
  end, exact(4, "field", "extra_cost must hold x, y, cost triples (a count " ..
                         "of numbers divisible by 3), got 2 numbers"))
  fcase("extra_cost negative", function(g, f)
    return g:field(1, 1, { extra_cost = { 1, 1, -1 } }, f)
  end, exact(4, "field", "extra_cost[3] (cost of tile 1) must be a finite " ..
                         "number >= 0, got -1"))
  fcase("reuse of another size", function(g)
    return g:field(1, 1, nil, astar.new(3, 3):field(1, 1))
  end, exact(5, "field", ("reuse must be a field of %d x %d tiles, got " ..
                          "one of 3 x 3"):format(W, H)))
  fcase("reuse not a field", function(g)
    return g:field(1, 1, nil, {})
  end, exact(5, "field", "reuse must be a field, got table"))
  fcase("reuse closed", function(g)
    local f = g:field(2, 2)
    f:close()
    return g:field(1, 1, nil, f)
  end, exact(5, "field", "reuse: the field is closed"))
  fcase("reuse with a bad goal", function(g, f)
    return g:field(3, 3, nil, f)
  end, exact(2, "field", "goal (3, 3) is blocked"))
  fcase("reuse with bad values", function(g, f)
    return g:field({ 1, 1 }, { values = { 1 / 0 } }, f)
  end, exact(3, "field", "values[1] must be a finite number, got inf"))
  fcase("get: x off the field", function(_, f) return f:get(0, 1) end,
        exact(2, "get", ("x out of range 1..%d, got 0"):format(W)))
  fcase("get: not a field", function(_, f) return f.get("f", 1, 1) end,
        exact(1, "get", "field expected, got 'f'"))
  fcase("next_step: y off the field", function(_, f)
    return f:next_step(1, H + 1)
  end, exact(3, "next_step", ("y out of range 1..%d, got %d"):format(H, H + 1)))
  fcase("next_step: bad seed", function(_, f)
    return f:next_step(1, 1, -1)
  end, exact(4, "next_step", "seed must be an integer in [0, " ..
             "9007199254740991], got -1"))
  fcase("path: out not a table", function(_, f) return f:path(1, 1, 5) end,
        exact(4, "path", "out must be a table, got 5"))
  fcase("within: nan", function(_, f) return f:within(NAN) end,
        exact(2, "within", "max_cost must be a number, got nan"))
  fcase("steps: odd positions", function(_, f) return f:steps({ 1 }, {}) end,
        exact(2, "steps", "positions must hold x, y pairs, got 1 numbers"))
  fcase("steps: a position off the field", function(_, f)
    return f:steps({ 1, 1, W + 1, 1 }, {})
  end, exact(2, "steps", ("positions[3] (x of unit 2) must be an integer in " ..
                          "1..%d, got %d"):format(W, W + 1)))
  fcase("steps: positions not a table", function(_, f) return f:steps(5) end,
        exact(2, "steps", "positions must be a table, got 5"))
  fcase("flee: nan", function(_, f) return f:flee(NAN) end,
        exact(2, "flee", "k must be a finite number, got nan"))
  fcase("flee: inf", function(_, f) return f:flee(1 / 0) end,
        exact(2, "flee", "k must be a finite number, got inf"))
  fcase("combine: empty", function() return astar.combine({}) end,
        exact(1, "combine", "fields must hold field, weight pairs (a " ..
              "positive even count of values), got 0 values"))
  fcase("combine: nan weight", function(_, f)
    return astar.combine({ f, NAN })
  end, exact(1, "combine", "fields[2] (weight 1) must be a finite number, " ..
             "got nan"))
  fcase("combine: not a field", function(_, f)
    return astar.combine({ f, 1, "x", 1 })
  end, exact(1, "combine", "fields[3] must be a field, got 'x'"))
  fcase("combine: sizes differ", function(_, f)
    return astar.combine({ f, 1, astar.new(2, 2):field(1, 1), 1 })
  end, exact(1, "combine", ("fields[3] is 2 x 2, not %d x %d like fields[1]")
             :format(W, H)))
  fcase("combine: a closed field", function(g, f)
    local c = g:field(2, 2)
    c:close()
    return astar.combine({ f, 1, c, 1 })
  end, exact(1, "combine", "fields[3]: the field is closed"))
  fcase("combine: rescan not a boolean", function(_, f)
    return astar.combine({ f, 1 }, { rescan = 1 })
  end, exact(2, "combine", "rescan must be a boolean, got 1"))
  fcase("a closed field", function(g)
    local f = g:field(1, 1)
    f:close()
    return f:get(1, 1)
  end, "get: the field is closed")

  for _, c in ipairs(FCASES) do
    it(c.name, function() fcheck(c.f, c.expected) end)
  end
end)

describe("bad input: graph fields", function()
  local function graph()
    local g = astar.graph()
    for _ = 1, 3 do g:add_node() end
    g:add_edge(1, 2, 1, true)
    g:disable(3)
    return g
  end
  local CASES = {
    { "no goals", function(g) return g:field() end,
      exact(2, "field", "goals must be a node id or a table of node ids, " ..
                        "got nil") },
    { "goal out of range", function(g) return g:field(4) end,
      exact(2, "field", "goal must be a node id in 1..3, got 4") },
    { "empty goal list", function(g) return g:field({}) end,
      exact(2, "field", "goals must hold at least one node id") },
    { "goal list with a string", function(g) return g:field({ 1, "x" }) end,
      exact(2, "field", "goals[2] must be a node id in 1..3, got 'x'") },
    { "disabled goal", function(g) return g:field(3) end,
      exact(2, "field", "goal (node 3) is disabled") },
    { "disabled goal in a list", function(g) return g:field({ 1, 3 }) end,
      exact(2, "field", "goals[2] (node 3) is disabled") },
    { "bad direction", function(g)
      return g:field(1, { direction = "up" })
    end, exact(3, "field", "direction must be one of 'to', 'from', got 'up'") },
    { "values of the wrong length", function(g)
      return g:field(1, { values = { 1, 2 } })
    end, exact(3, "field", "values must hold one number per goal (1), got 2") },
    { "values with nan", function(g)
      return g:field(1, { values = { 0 / 0 } })
    end, exact(3, "field", "values[1] must be a finite number, got nan") },
    { "unknown option", function(g) return g:field(1, { max_cots = 1 }) end,
      exact(3, "field", "unknown option 'max_cots'") },
    { "reuse not a graph field", function(g, f)
      return g:field(1, nil, {})
    end, exact(4, "field", "reuse must be a graph field, got table") },
    { "get: id out of range", function(_, f) return f:get(0) end,
      exact(2, "get", "id must be a node id in 1..3, got 0") },
    { "next_step: id not an integer", function(_, f)
      return f:next_step(1.5)
    end, exact(2, "next_step", "id must be a node id in 1..3, got 1.5") },
    { "path: out not a table", function(_, f) return f:path(1, 5) end,
      exact(3, "path", "out must be a table, got 5") },
    { "within: nan", function(_, f) return f:within(0 / 0) end,
      exact(2, "within", "max_cost must be a number, got nan") },
    { "get: not a graph field", function(_, f) return f.get("x", 1) end,
      exact(1, "get", "graph field expected, got 'x'") },
  }
  for _, c in ipairs(CASES) do
    it(c[1] .. ": a clear error, the graph and the field unchanged",
       function()
      local g = graph()
      local f = g:field(2)
      local version = g:version()
      assert.are.equal(c[3], helpers.error_of(c[2], g, f))
      assert.are.equal(version, g:version())
      assert.are.equal(1, f:get(1))
      assert.are.equal(0, f:get(2))
      assert.is_nil(f:get(3))
    end)
  end

  it("a closed reuse field, a closed field", function()
    local g = graph()
    local f = g:field(2)
    f:close()
    assert.are.equal(exact(4, "field", "reuse: the field is closed"),
                     helpers.error_of(g.field, g, 1, nil, f))
    assert.are.equal("get: the field is closed", helpers.error_of(f.get, f, 1))
  end)
end)
