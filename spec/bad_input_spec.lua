-- Every bad input and what it gets (the hostile-input list of issue 7; it
-- grows with every feature: Lua callbacks, when they come, add theirs).  The contract (docs/api.md): a wrong
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
-- swapped unnoticed) and then checks that grid's tiles, movement and a
-- search are as before.
local astar = require("astar")
local helpers = require("helpers")

local unpack = table.unpack or unpack
local NAN, INF = 0 / 0, 1 / 0
local W, H = 10, 8

local function fresh()
  local g = astar.new(W, H)
  g:set_cost(5, 5, 3)
  g:set_cost(2, 7, 0.5)
  g:set_blocked(3, 3)
  g:fill_rect(6, 1, 1, 4, false)
  return g
end

local function snapshot(g)
  local t = {}
  for y = 1, H do
    for x = 1, W do t[#t + 1] = g:get_cost(x, y) end
  end
  local path, cost = g:find_path(1, 1, W, H)
  return { tiles = t, movement = g:get_movement(), path = path, cost = cost,
           size = { g:size() } }
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
-- its range; base: valid arguments; extra: arguments after them.
local COORD_FUNCS = {
  { "get_cost", { "x", "y" }, { 1, 1 }, {} },
  { "set_cost", { "x", "y" }, { 1, 1 }, { 2 } },
  { "is_blocked", { "x", "y" }, { 1, 1 }, {} },
  { "set_blocked", { "x", "y" }, { 1, 1 }, { false } },
  { "fill_rect", { "x", "y" }, { 1, 1 }, { 1, 1, 2 } },
  { "find_path", { "sx", "sy", "gx", "gy" }, { 1, 1, 2, 2 }, {} },
  { "next_step", { "sx", "sy", "gx", "gy" }, { 1, 1, 2, 2 }, {} },
}

local function max_of(name)
  if name:sub(-1) == "x" then return W end
  return H
end

for _, spec in ipairs(COORD_FUNCS) do
  local fname, names, base, extra = spec[1], spec[2], spec[3], spec[4]
  for k, name in ipairs(names) do
    local n = k + 1 -- argument number: the grid is #1
    local max = max_of(name)
    local function call_with(v)
      return function(g)
        local args = {}
        for i = 1, #base do args[i] = base[i] end
        args[k] = v
        local total = #base
        for i = 1, #extra do args[total + i] = extra[i] end
        total = total + #extra
        return g[fname](g, unpack(args, 1, total))
      end
    end
    local label = ("%s: %s = "):format(fname, name)
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
  case(fname .. ": algorithm = 'bfs'", function(g)
    return call(g, { algorithm = "bfs" })
  end, exact(6, fname, "algorithm must be one of 'auto', 'astar', 'jps', "
    .. "got 'bfs'"))
  case(fname .. ": algorithm = 2", function(g)
    return call(g, { algorithm = 2 })
  end, exact(6, fname, "algorithm must be one of 'auto', 'astar', 'jps', "
    .. "got 2"))
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

-- A method called on something that is not a grid
for _, m in ipairs({ "get_cost", "find_path", "size", "load", "fill" }) do
  case(m .. " on a table instead of a grid", function(g)
    return g[m]({}, 1, 1, 2, 2)
  end, prefix(1, m))
  case(m .. " on nil", function(g) return g[m](nil, 1, 1, 2, 2) end,
       prefix(1, m))
end

describe("bad input", function()
  for _, c in ipairs(CASES) do
    it(c.name, function() check(c.f, c.expected) end)
  end

  it("lists at least 300 cases", function()
    assert.is_true(#CASES >= 300, #CASES .. " cases")
  end)
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

  it("set_blocked's flag may be omitted or nil", function()
    local g = fresh()
    g:set_blocked(1, 1)
    assert.is_true(g:is_blocked(1, 1))
    g:set_blocked(1, 1, false)
    g:set_blocked(1, 1, nil)
    assert.is_true(g:is_blocked(1, 1))
  end)
end)
