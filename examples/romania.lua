-- The Romania road map (Russell & Norvig, "Artificial Intelligence: A
-- Modern Approach", chapter 3) as an explicit graph: 20 towns, 23 roads in
-- km.  A* with the straight-line distances to Bucharest finds the 418 km
-- route through Sibiu, Rimnicu Vilcea and Pitesti; so does Dijkstra.
--
--   lua examples/romania.lua            (from the repository root)
-- The module `romania` (this file, required) returns the data and a
-- function that builds the graph, for the specs.
if ... ~= "romania" then -- run as a program: find the module `make` built
  local ver = jit and "jit" or _VERSION:match("%d+%.%d+")
  package.path = "lua/?.lua;lua/?/init.lua;" .. package.path
  package.cpath = "build/" .. ver .. "/?.so;" .. package.cpath
end
local astar = require("astar")

local towns = {
  "Arad", "Bucharest", "Craiova", "Drobeta", "Eforie", "Fagaras",
  "Giurgiu", "Hirsova", "Iasi", "Lugoj", "Mehadia", "Neamt", "Oradea",
  "Pitesti", "Rimnicu Vilcea", "Sibiu", "Timisoara", "Urziceni", "Vaslui",
  "Zerind",
}

local roads = {
  {"Arad", "Zerind", 75}, {"Arad", "Sibiu", 140}, {"Arad", "Timisoara", 118},
  {"Zerind", "Oradea", 71}, {"Oradea", "Sibiu", 151},
  {"Timisoara", "Lugoj", 111}, {"Lugoj", "Mehadia", 70},
  {"Mehadia", "Drobeta", 75}, {"Drobeta", "Craiova", 120},
  {"Craiova", "Rimnicu Vilcea", 146}, {"Craiova", "Pitesti", 138},
  {"Sibiu", "Fagaras", 99}, {"Sibiu", "Rimnicu Vilcea", 80},
  {"Rimnicu Vilcea", "Pitesti", 97}, {"Fagaras", "Bucharest", 211},
  {"Pitesti", "Bucharest", 101}, {"Bucharest", "Giurgiu", 90},
  {"Bucharest", "Urziceni", 85}, {"Urziceni", "Hirsova", 98},
  {"Hirsova", "Eforie", 86}, {"Urziceni", "Vaslui", 142},
  {"Vaslui", "Iasi", 92}, {"Iasi", "Neamt", 87},
}

-- straight-line distance to Bucharest (the book's h_SLD)
local to_bucharest = {
  Arad = 366, Bucharest = 0, Craiova = 160, Drobeta = 242, Eforie = 161,
  Fagaras = 176, Giurgiu = 77, Hirsova = 151, Iasi = 226, Lugoj = 244,
  Mehadia = 241, Neamt = 234, Oradea = 380, Pitesti = 100,
  ["Rimnicu Vilcea"] = 193, Sibiu = 253, Timisoara = 329, Urziceni = 80,
  Vaslui = 199, Zerind = 374,
}

local M = { towns = towns, roads = roads, to_bucharest = to_bucharest }

-- Builds the graph with the table constructor: node i is towns[i].
function M.build()
  local id = {}
  for i, name in ipairs(towns) do id[name] = i end
  local edges = {}
  for i, r in ipairs(roads) do
    edges[i] = { id[r[1]], id[r[2]], r[3], true } -- roads go both ways
  end
  local nodes = {}
  for i = 1, #towns do nodes[i] = {} end -- no coordinates: h from a table
  return astar.graph { nodes = nodes, edges = edges }, id
end

-- The heuristic for the goal Bucharest: h(node, goal) in km.
function M.sld(node)
  return to_bucharest[towns[node]]
end

if ... ~= "romania" then -- run as a program
  local g, id = M.build()
  for _, how in ipairs { "astar", "dijkstra" } do
    local stats = {}
    local path, km = g:find_path(id.Arad, id.Bucharest, {
      algorithm = how,
      heuristic = how == "astar" and M.sld or nil,
      stats = stats,
    })
    local names = {}
    for i, node in ipairs(path) do names[i] = towns[node] end
    print(("%-8s %d km, %d towns expanded: %s"):format(how, km,
      stats.expanded, table.concat(names, " -> ")))
  end
end

return M
