-- The 8-puzzle through astar.search: states are never stored as a graph,
-- a neighbors function makes them as the search goes.  A state is one
-- integer (tile i in decimal digit i, 0 the blank), so states are keys as
-- they are and an expansion makes no table.  The same code solves any
-- w x h sliding puzzle small enough for the digits (w * h <= 9).
--
--   lua examples/puzzle8.lua [tiles]     e.g.  lua examples/puzzle8.lua 867254301
-- Required as the module `puzzle8` it returns its functions (the specs
-- and bench/graphs.lua use them).
if ... ~= "puzzle8" then -- run as a program: find the module `make` built
  local ver = jit and "jit" or _VERSION:match("%d+%.%d+")
  package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
  package.cpath = "build/" .. ver .. "/?.so;" .. package.cpath
end
local astar = require("astar")

local M = {}

-- A puzzle of w x h tiles: its goal (1 2 3 / 4 5 6 / 7 8 _), neighbors
-- and Manhattan-distance heuristic.
function M.new(w, h)
  local n = w * h
  local pow, moves, home = {}, {}, {}
  for i = 0, n - 1 do pow[i] = math.floor(10 ^ i + 0.5) end
  for i = 0, n - 1 do
    local x, y, list = i % w, math.floor(i / w), {}
    if y > 0 then list[#list + 1] = i - w end
    if x < w - 1 then list[#list + 1] = i + 1 end
    if y < h - 1 then list[#list + 1] = i + w end
    if x > 0 then list[#list + 1] = i - 1 end
    moves[i] = list
  end
  local P = { w = w, h = h }
  local goal = 0
  for i = 0, n - 2 do goal = goal + (i + 1) * pow[i] end
  P.goal = goal
  for t = 1, n - 1 do home[t] = t - 1 end

  local floor = math.floor
  local function digit(s, i) return floor(s / pow[i]) % 10 end
  P.digit = digit

  -- the blank's square
  local function blank(s)
    for i = 0, n - 1 do
      if digit(s, i) == 0 then return i end
    end
  end

  function P.neighbors(s, emit)
    local b = blank(s)
    for _, j in ipairs(moves[b]) do
      local t = digit(s, j) -- slide tile t from j into the blank at b
      emit(s + t * (pow[b] - pow[j]), 1)
    end
  end

  function P.heuristic(s)
    local sum = 0
    for i = 0, n - 1 do
      local t = digit(s, i)
      if t ~= 0 then
        local g = home[t]
        local dx, dy = i % w - g % w, floor(i / w) - floor(g / w)
        sum = sum + (dx < 0 and -dx or dx) + (dy < 0 and -dy or dy)
      end
    end
    return sum
  end

  -- state from a list of tiles, row by row (0: the blank)
  function P.state(tiles)
    local s = 0
    for i = 0, n - 1 do s = s + tiles[i + 1] * pow[i] end
    return s
  end

  function P.text(s)
    local rows = {}
    for y = 0, h - 1 do
      local row = {}
      for x = 0, w - 1 do
        local t = digit(s, y * w + x)
        row[#row + 1] = t == 0 and "_" or ("%d"):format(t)
      end
      rows[#rows + 1] = table.concat(row, " ")
    end
    return table.concat(rows, "\n")
  end

  function P.solve(start, options)
    local o = { start = start, goal = goal, neighbors = P.neighbors,
      heuristic = P.heuristic }
    for k, v in pairs(options or {}) do o[k] = v end
    return astar.search(o)
  end
  return P
end

if ... ~= "puzzle8" then -- run as a program
  local P = M.new(3, 3)
  local tiles = {}
  for c in (arg and arg[1] or "867254301"):gmatch("%d") do
    tiles[#tiles + 1] = tonumber(c)
  end
  local start = P.state(tiles)
  local path, moves, expanded = P.solve(start)
  if not path then
    print(("no solution (%s, %d states expanded): half of all starts "
      .. "cannot reach the goal"):format(moves, expanded))
  else
    print(("%d moves, %d states expanded"):format(moves, expanded))
    for i, s in ipairs(path) do
      print(("move %d\n%s\n"):format(i - 1, P.text(s)))
    end
  end
end

return M
