-- The rock is "astar-grid" (the LuaRocks names "astar" and "jps" belong to
-- other projects); the module is still require("astar").
rockspec_format = "3.0"
package = "astar-grid"
version = "scm-1"
-- source.url: the project's repository once it is public (git+https://...
-- here, the tag's archive in a release's rockspec).  Until then a release's
-- source is the tarball `make dist` writes: its rockspec
-- (build/dist/astar-grid-<version>-1.rockspec, made from this one) names
-- astar-<version>.tar.gz beside it.  This development rockspec is for
-- `luarocks make` in a clone, which reads no URL.
source = {
  url = "git+https://example.invalid/astar-grid.git",
}
description = {
  summary = "Grid pathfinding (optimal A*) in C for Lua 5.1-5.4 and LuaJIT",
  detailed = [[
    Grids as userdata, tile costs and walls set from Lua, and an A* search
    whose hot loop stays in C: flat arrays, no allocation per query,
    optimal paths by default.
  ]],
  license = "MIT",
  -- the repository's page once public; until then the README of a release
  homepage = "https://example.invalid/astar-grid",
}
dependencies = {
  "lua >= 5.1, < 5.5",
}
build = {
  type = "builtin",
  modules = {
    ["astar.core"] = {
      sources = {
        "src/pages.c", "src/context.c", "src/zones.c", "src/links.c", "src/layer.c", "src/clearance.c", "src/units.c", "src/landmarks.c", "src/landmarks_query.c", "src/grid.c", "src/text.c", "src/engine.c", "src/sight.c", "src/astar_loop.c", "src/jps.c", "src/jps_table.c", "src/subgoal_levels.c", "src/subgoal.c", "src/subgoal_search.c", "src/ida.c", "src/bidir.c", "src/theta.c", "src/find_path.c", "src/field.c", "src/field_follow.c", "src/overlay.c", "src/path_check.c", "src/graph.c", "src/graph_search.c", "src/graph_field.c", "src/state_search.c", "src/snapshot.c", "src/workers.c",
        "src/lua_module.c", "src/lua_grid.c", "src/lua_query.c", "src/lua_query_options.c", "src/lua_terrain.c", "src/lua_zones.c", "src/lua_sliced.c", "src/lua_pathfinder.c", "src/lua_sight.c", "src/lua_args.c", "src/lua_field.c", "src/lua_field_build.c", "src/lua_field_read.c", "src/lua_path.c", "src/lua_graph.c", "src/lua_graph_query.c", "src/lua_graph_field.c", "src/lua_search.c", "src/lua_links.c",
        "src/lua_snapshot.c", "src/lua_tokens.c", "src/lua_workers.c", "src/lua_prepare.c", "src/lua_landmarks.c" },
      incdirs = { "src" },
    },
    ["astar"] = "lua/astar/init.lua",
    ["astar.movingai"] = "lua/astar/movingai.lua",
    ["astar.hex"] = "lua/astar/hex.lua",
    ["astar.path"] = "lua/astar/path.lua",
    ["astar.love"] = "lua/astar/love.lua",
  },
  -- the worker pool (src/workers.c) runs POSIX threads (merged into the
  -- module above on unix; MinGW-w64 links its winpthreads the same way)
  platforms = {
    unix = { modules = { ["astar.core"] = { libraries = { "pthread" } } } },
  },
}
