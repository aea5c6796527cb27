-- A dungeon of two levels joined by stairs, on one grid: level 1 on the
-- left, level 2 on the right, a wall between them, and grid:link for the
-- stairs (each flight both ways, 3 moves' worth of cost) and one trapdoor
-- (one way, down only).  The hero on level 1 finds the way to the
-- treasure on level 2; then the near stairs collapse and the route changes;
-- then only the trapdoor is left, which leads down but never back up.
--
--   lua5.4 examples/dungeon.lua            (from the repository root)
--
-- Legend: # wall, . floor, > stairs down, < stairs up, v trapdoor,
-- @ hero, $ treasure, * path (on both levels).
local ver = jit and "jit" or _VERSION:match("%d+%.%d+")
package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
package.cpath = "build/" .. ver .. "/?.so;" .. package.cpath
local astar = require("astar")

-- two 16 x 8 levels, side by side (x 1..16 and 18..33), wall column 17
local level1 = {
  "################",
  "#@...........v.#",
  "#..>...........#",
  "#..............#",
  "#......####....#",
  "#..............#",
  "#.............>#",
  "################",
}
local level2 = {
  "################",
  "#..<...........#",
  "#..............#",
  "#######.########",
  "#..............#",
  "#.o..........$.#",
  "#.............<#",
  "################",
}
local rows = {}
for y = 1, #level1 do rows[y] = level1[y] .. "#" .. level2[y] end
local W = 17 -- level 2's x offset

local grid = astar.from_string(table.concat(rows, "\n"), {
  ["#"] = false, ["."] = 1, [">"] = 1, ["<"] = 1, ["v"] = 1,
  ["o"] = 1, ["@"] = 1, ["$"] = 1 })

-- where a mark is (the first one, or the nth)
local function find(mark, n)
  n = n or 1
  for y, row in ipairs(rows) do
    local x = 0
    while true do
      x = row:find(mark, x + 1, true)
      if not x then break end
      n = n - 1
      if n == 0 then return x, y end
    end
  end
end

local hx, hy = find("@")
local tx, ty = find("$")
-- stairs: the first '>' of level 1 leads to the first '<' of level 2
local a1x, a1y = find(">", 1)
local b1x, b1y = find("<", 1)
local a2x, a2y = find(">", 2)
local b2x, b2y = find("<", 2)
local vx, vy = find("v")
local ox, oy = find("o")
grid:link(a1x, a1y, b1x, b1y, 3)       -- stairs, both ways
grid:link(a2x, a2y, b2x, b2y, 3)       -- more stairs
grid:link(vx, vy, ox, oy, 1, true)     -- the trapdoor: down only

local function show(title, path, cost)
  local marks = {}
  for y = 1, #rows do
    marks[y] = {}
    for x = 1, #rows[y] do marks[y][x] = rows[y]:sub(x, x) end
  end
  if path then
    for i = 3, #path - 2, 2 do
      local x, y = path[i], path[i + 1]
      if marks[y][x] == "." then marks[y][x] = "*" end
    end
  end
  print(title)
  for y = 1, #rows do
    local line = table.concat(marks[y])
    print("  " .. line:sub(1, W - 1) .. "   " .. line:sub(W + 1))
  end
  if path then
    local changes = 0
    for i = 3, #path, 2 do
      if (path[i] > W) ~= (path[i - 2] > W) then changes = changes + 1 end
    end
    print(("  cost %.1f, %d tiles, %d level change(s)\n"):format(cost,
      #path / 2, changes))
  else
    print("  no way: " .. tostring(cost) .. "\n")
  end
end

local path, cost = grid:find_path(hx, hy, tx, ty)
show("To the treasure (level 1 left, level 2 right):", path, cost)

grid:unlink(a1x, a1y, b1x, b1y)        -- the near stairs collapse
path, cost = grid:find_path(hx, hy, tx, ty)
show("The near stairs collapsed:", path, cost)

grid:unlink(a2x, a2y, b2x, b2y)        -- and the far ones
path, cost = grid:find_path(hx, hy, tx, ty)
show("Only the trapdoor is left:", path, cost)

local _, why, expanded = grid:find_path(tx, ty, hx, hy)
print(("And back up from the treasure? %s after %d tiles: the trapdoor is "
  .. "one way (zones join what a link joins either way, so only the search "
  .. "can tell)"):format(why, expanded))
