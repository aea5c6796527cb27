--- The house of the roguelike example: the map, what its characters mean,
--- and what each kind of unit pays to cross each terrain.
local level = {}

-- The estate. A moat (~) rings the garden, where bushes (&) grow and
-- flagstones (.) lead to the front door; the house has five rooms, doors
-- (+), windows (=) and tables (n). Markers: @ the thief (on grass), A-D the
-- guards (on floor), $ loot, * a lamp (on floor: the thief lights it and
-- the guards flee its glare for a few turns), > the getaway spots on the
-- far bank.
level.map = [[
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
~~,,,&&,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,&&&,,,~~
~~,,,&&,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,&&,,,~~
~~,,,,,,,#########=###########=#########,,,,,,,,,,~~
~~,,,,&,,#.....$..#...........#..n.....#,,,,&,,,,,~~
~~,,,,&&,=..nn....+...........+..n..$..=,,,,&&,,,,~~
~~,,,,,,,#..nn....#...........#..n..A..#,,,,,,,,,,~~
~~,,&&,,,###+######....nnn....####+#####,,,,,,,,,,~~
~~,,&&,,,#........+....nnn....+.D......=,,,,,,,,,,~~
~~,@,,,,,=....*...#...........#........#,,,&&,,,,,~~
~~,,,,,,,#....$...#...........#....B...#,,,&&,,,,,~~
~~,,,,,,,####=#########+#########=######,,,,,,,,,,~~
~~,,,&&&,,,,,,,,,,,,,,,.,,,,,,.C.,,,,,,,,,,,&&,,,,~~
~~,,,,&&,,,,,,,,&&&,,,,.,,,,,,,,,,,&&&,,,,,,,,,,,,~~
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
,,,>,,,,,,,,,,,>,,,,,,,,,,,,,>,,,,,,,,,,,,,>,,,,,,,,]]

-- Terrain classes in id order (the grid's `terrains` option): the map
-- character of each and its ANSI colour.
level.terrains = {
  { name = "floor",  glyph = ".", color = "2" },
  { name = "door",   glyph = "+", color = "33" },
  { name = "grass",  glyph = ",", color = "32" },
  { name = "bush",   glyph = "&", color = "1;32" },
  { name = "window", glyph = "=", color = "1;36" },
  { name = "table",  glyph = "n", color = "33" },
  { name = "water",  glyph = "~", color = "34" },
}

-- A window the thief climbed through: not on the map, the game defines it
-- with grid:define_terrain and puts it down with grid:set_terrain.
level.broken = { name = "broken", glyph = "'", color = "36" }

level.wall = { glyph = "#", color = "37" }

-- The terrain under each marker; the game reads what the markers stand
-- for (@ the thief, $ loot, > a getaway spot, a capital letter a guard).
level.markers = { ["@"] = "grass", ["$"] = "floor", [">"] = "grass",
                  ["*"] = "floor" }
for code = ("A"):byte(), ("Z"):byte() do
  level.markers[string.char(code)] = "floor"   -- a guard
end

-- Cost multipliers per unit class (terrain not listed: 1). The thief
-- climbs and swims; guards in armour climb badly and sink in the moat.
level.units = {
  thief = { window = 2, table = 2, bush = 2, water = 3, broken = 1 },
  guard = { window = 5, table = 3, bush = 2, water = false, broken = 2 },
}

-- The legend for astar.from_string: every map character to a terrain
-- name, walls to false.
level.legend = { [level.wall.glyph] = false }
for char, terrain in pairs(level.markers) do
  level.legend[char] = terrain
end
for _, terrain in ipairs(level.terrains) do
  level.legend[terrain.glyph] = terrain.name
end

return level
