---@meta astar
-- Editor definitions of astar for the Lua language server (LuaLS, the
-- "Lua" extension of VS Code, and any editor using it): completion,
-- signatures and type checks of the whole public API.  Point the
-- extension at this folder ("Lua.workspace.library": [".../library"]);
-- see "Editor support" in the README.  Never loaded at run time.
--
-- Conventions of the whole API (docs/api.md has the full reference):
--  * Coordinates are 1-based: x is the column, y the row.  Coordinates and
--    sizes are numbers with an integer value.
--  * A wrong argument raises `bad argument #N to 'name' (what was wrong)`,
--    the same text on every Lua version (a method counts the object as
--    #1); the object is unchanged and usable afterwards.
--  * Expected outcomes are results, not errors: `nil` and a reason string
--    (`"no_path"`, `"goal_blocked"`, ...).
--  * A cost is a positive finite number; `false` means blocked.
--
-- `make lint` (scripts/check-library) compares this file with the module:
-- every function, method and option key it exports must be here, and
-- nothing else.

---@class astar
---@field version string the module's version, e.g. `"0.1.0"`
---@field hex astar.hex hex grids: offset <-> axial coordinates
---@field FLOW_DX integer[] x move of a `field:directions()` code 0..8 (N E S W NE SE SW NW; 0: none)
---@field FLOW_DY integer[] y move of a `field:directions()` code 0..8
local astar = {}

---------------------------------------------------------------------------
-- Names and small types
---------------------------------------------------------------------------

---@alias astar.Diagonals
---| "no_corner_cut" # a diagonal step needs both tiles beside it open (default; MovingAI's rule)
---| "one_free"      # at least one of the two tiles beside it open
---| "always"        # only the tile entered must be open
---| "never"         # 4-way movement
---| "hex"           # a hex grid in axial coordinates (six neighbours)

---@alias astar.Algorithm
---| "auto"              # JPS when the query qualifies, else A* (default)
---| "astar"             # A*: optimal with the default heuristic
---| "jps"               # jump point search: uniform costs, 8-way no corner cut
---| "dijkstra"          # the zero heuristic
---| "bfs"               # breadth-first: fewest steps
---| "greedy"            # the heuristic alone: fast, not optimal
---| "weighted"          # A* with weight (default 1.5)
---| "beam"              # open list capped at beam_width: not optimal
---| "ida"               # IDA*: memory for one path only
---| "bidirectional"     # bidirectional A* (zero heuristic: bidirectional Dijkstra)
---| "bidirectional_bfs" # bidirectional breadth-first: fewest steps
---| "theta"             # Theta*: any-angle waypoints (never dearer than the 8-way optimum)
---| "lazy_theta"        # Lazy Theta*: the same paths, one line-of-sight test per expansion

---@alias astar.HeuristicName
---| "default"   # the admissible one for the movement (octile, Manhattan or hex)
---| "manhattan"
---| "chebyshev"
---| "octile"
---| "euclidean"
---| "zero"      # Dijkstra's algorithm

---@alias astar.Ties
---| "larger_g" # the node with the larger g first (default)
---| "straight" # the node nearest the straight line start-goal, then larger g
---| "random"   # a uniformly random optimal path, from `seed`

---@alias astar.OpenList
---| "auto" # the bucket queue where its order is the heap's (default)
---| "heap" # the binary heap always

---@alias astar.PathForm
---| "tiles"   # every tile of the path (default)
---| "corners" # the start, every tile where the path turns, the goal

---@alias astar.Reason
---| "no_path"       # no goal can be reached
---| "start_blocked" # the start is blocked (for the unit class)
---| "goal_blocked"  # the goal (every goal) is blocked
---| "cutoff"        # max_cost, max_length or max_nodes stopped the search

---@alias astar.Status astar.Reason|"found"

---A tile's cost (a positive finite number) or `false` (blocked).
---@alias astar.Cost number|false

---A terrain class: a name given to `terrains` or `define_terrain`, or an
---id 0..255.
---@alias astar.Terrain string|integer

---A path: one flat array `{x1, y1, x2, y2, ..., xn, yn}`, start to goal.
---@alias astar.Path integer[]

---`legend` of text maps: a character -> a cost, `false` (wall) or a
---terrain name.
---@alias astar.Legend table<string, number|false|string>

---@alias astar.TileCostFunction fun(x: integer, y: integer, cost: number): number|false
---@alias astar.MoveCostFunction fun(x1: integer, y1: integer, x2: integer, y2: integer, cost: number): number|false
---@alias astar.HeuristicFunction fun(x: integer, y: integer, gx: integer, gy: integer): number

---------------------------------------------------------------------------
-- Options
---------------------------------------------------------------------------

---Options of the grid constructors (`astar.new`, `from_string`,
---`from_table`, `parse_movingai`, `load_movingai`).
---@class astar.GridOptions
---@field diagonals? astar.Diagonals the diagonal rule (default `"no_corner_cut"`)
---@field cardinal? number length of a N/E/S/W step, in [1e-9, 1e9] (default 1)
---@field diagonal? number length of a diagonal step, in [1e-9, 1e9] (default `math.sqrt(2)`)
---@field cost? number|false initial cost of every tile (default 1; `false`: all blocked)
---@field terrains? string[] names of terrain classes 0, 1, 2, ... in order; every tile starts as terrain 0

---Options of `grid:set_movement` (the same names as `astar.new`'s).
---@class astar.MovementOptions
---@field diagonals? astar.Diagonals the diagonal rule (default: unchanged)
---@field cardinal? number length of a N/E/S/W step (default: unchanged)
---@field diagonal? number length of a diagonal step (default: unchanged)

---Options of `grid:set_unit`: height costs and limits of a unit class.
---@class astar.UnitOptions
---@field climb? number cost per unit of height gained on a step (>= 0, default 0)
---@field descend? number cost per unit of height lost on a step (>= 0, default 0)
---@field max_climb? number highest rise of one step (>= 0, default `math.huge`)
---@field max_drop? number deepest fall of one step (>= 0, default `math.huge`)

---Options of `grid:find_path` and `grid:next_step`.
---@class astar.FindPathOptions
---@field heuristic? astar.HeuristicName|astar.HeuristicFunction a built-in name (default `"default"`) or a function `(x, y, gx, gy) -> estimate >= 0`
---@field weight? number multiplies the heuristic, in [1, 1e9] (default 1; above 1: weighted A*, cost up to weight x optimal)
---@field unit? string the unit class whose costs the search uses (default `"default"`)
---@field tile_cost? astar.TileCostFunction the cost of entering a tile, or `false` (impassable); called at most once per tile per search
---@field move_cost? astar.MoveCostFunction the cost of a step, or `false` (not allowed); called at most once per step per search
---@field min_cost? number a lower bound of every tile cost the callbacks return, in [0, 3.4e38] (the search checks it)
---@field algorithm? astar.Algorithm the search (default `"auto"`)
---@field ties? astar.Ties the tie rule among equal f (default `"larger_g"`)
---@field seed? integer 0..2^53-1, for `ties = "random"` (default 0)
---@field beam_width? integer most nodes on the open list for `"beam"` (default 1000)
---@field open_list? astar.OpenList the A* loop's open list (default `"auto"`: the bucket queue where it is exact)
---@field goals? integer[] more goal tiles, flat `{x1, y1, x2, y2, ...}`; gx, gy may then be nil
---@field max_cost? number no path costing more is followed (`"cutoff"`)
---@field max_length? integer no path of more steps is followed (`"cutoff"`)
---@field max_nodes? integer at most this many expansions (`"cutoff"`)
---@field closest? boolean when no goal is reached, the path to the reachable tile closest to the goal (a 4th result: the reason)
---@field leave_blocked_start? boolean a blocked start is left as if it were open
---@field next_to_blocked_goal? boolean a blocked goal: stop on a tile next to it
---@field stats? astar.Stats a table filled with the search's statistics
---@field explored? astar.Explored a table filled with the tiles the search expanded (and `.open`: reached, not expanded)
---@field zones? boolean `false`: neither consult nor build the zones (default `true`)
---@field size? integer the side s of an s x s unit (1 .. min(width, height, 255), default 1): the path of its top-left tile
---@field avoid? integer[] tiles blocked for this query only, flat `{x1, y1, x2, y2, ...}` (the start and goals never are)
---@field extra_cost? number[] costs added to tiles for this query only, flat `{x1, y1, c1, x2, y2, c2, ...}` (c finite, >= 0)
---@field landmarks? boolean `false`: do not use the grid's landmarks (`grid:prepare("landmarks", k)`) for this query (default `true`)
---@field path? astar.PathForm `"corners"`: only the path's turns (same route and cost; each leg a straight or diagonal run); default `"tiles"`

---Options of `grid:next_step`: those of `find_path`, and `remember`.
---@class astar.NextStepOptions: astar.FindPathOptions
---@field remember? boolean `false`: neither answer from nor update the grid's remembered path for this call (default `true`)

---------------------------------------------------------------------------
-- Results
---------------------------------------------------------------------------

---What `stats = t` fills in (other keys of `t` are left alone).
---@class astar.Stats
---@field expanded integer nodes expanded (JPS: jump points)
---@field generated integer nodes put on the open list
---@field peak_open integer the open list's largest size (`"ida"`: the deepest path)
---@field status astar.Status `"found"` or the reason
---@field heuristic string `"landmarks"` when the search read the grid's landmarks, else the `heuristic` option's name (`"function"` for a callback)
---@field algorithm astar.Algorithm|"subgoal"|"jps_plus" the search that ran (`"auto"` says `"subgoal"` (a prepared subgoal graph), `"jps_plus"` (JPS over a prepared jump table), `"jps"` or `"astar"`)
---@field partial boolean a partial path (`closest`)
---@field open_list "bucket"|"heap" the open list A* ran on
---@field goal? integer with `goals`: the index of the goal reached (0: gx, gy)
---@field end_x? integer the tile the path ends at (nil without a path)
---@field end_y? integer
---@field remembered? boolean `next_step` only: `true` when the answer came from the remembered path (`expanded` is then 0)

---What `explored = t` fills in: the expanded tiles as `x, y` pairs in
---row order, and `open`, the tiles reached but never expanded.
---@class astar.Explored: integer[]
---@field open integer[]

---What `grid:get_movement()` returns.
---@class astar.Movement
---@field diagonals astar.Diagonals
---@field cardinal number
---@field diagonal number

---One scenario of a MovingAI `.map.scen` file, 1-based.
---@class astar.Scenario
---@field bucket integer
---@field map string the map's file name as written in the scenario file
---@field width integer
---@field height integer
---@field sx integer
---@field sy integer
---@field gx integer
---@field gy integer
---@field length number the optimal length
---@field length_text string the optimal length as printed in the file

---------------------------------------------------------------------------
-- The module's functions
---------------------------------------------------------------------------

---A `width` x `height` grid, every tile passable with cost 1. Sizes are
---1..65534, and `(width + 2) * (height + 2)` at most 2^30 tiles.
---@param width integer
---@param height integer
---@param options? astar.GridOptions
---@return astar.Grid grid
function astar.new(width, height, options) end

---A grid from text, one row per line (LF or CRLF, every row the same
---length). The default legend: `.` cost 1, `#` wall, `1`..`9` those costs;
---a legend you pass replaces it.
---@param text string
---@param legend? astar.Legend
---@param options? astar.GridOptions
---@return astar.Grid grid
function astar.from_string(text, legend, options) end

---A grid from rows of costs or `false`: `astar.from_table{{1, 1, false}, {1, 5, 1}}`.
---@param rows (number|false)[][]
---@param options? astar.GridOptions
---@return astar.Grid grid
function astar.from_table(rows, options) end

---A grid from the text of a MovingAI `.map` file (`.`, `G`, `S` cost 1;
---`@`, `O`, `T`, `W` walls). Malformed text: `nil` and a message.
---@param text string
---@param options? astar.GridOptions
---@return astar.Grid|nil grid
---@return string? message
function astar.parse_movingai(text, options) end

---Reads a MovingAI `.map` file into a grid. A missing or malformed file:
---`nil` and a message (like `io.open`).
---@param path string
---@param options? astar.GridOptions
---@return astar.Grid|nil grid
---@return string? message
function astar.load_movingai(path, options) end

---Reads a MovingAI `.map.scen` file (1-based coordinates). A missing or
---malformed file: `nil` and a message.
---@param path string
---@return astar.Scenario[]|nil scenarios
---@return string? message
function astar.read_scenarios(path) end

---`tostring(grid)` with a path drawn on it: `S` start, `G` goal, `*` between.
---@param grid astar.Grid
---@param path? astar.Path
---@return string
function astar.render(grid, path) end

---------------------------------------------------------------------------
-- astar.Grid
---------------------------------------------------------------------------

---A grid of tiles (userdata). Methods raise `"<method>: the grid is
---closed"` after `close`, and `"<method>: the grid is busy with a search
---..."` when called from inside a search on the same grid.
---@class astar.Grid
local Grid = {}

---@return integer width
---@return integer height
function Grid:size() end

---@return integer
function Grid:width() end

---@return integer
function Grid:height() end

---The tile's cost (its weight), or `false` when blocked; with a unit class,
---that unit's cost there (`false`: impassable to it).
---@param x integer
---@param y integer
---@param unit? string
---@return number|false cost
function Grid:get_cost(x, y, unit) end

---Sets the cost and opens the tile; `false` blocks it (keeping the cost).
---@param x integer
---@param y integer
---@param cost astar.Cost
function Grid:set_cost(x, y, cost) end

---@param x integer
---@param y integer
---@return boolean
function Grid:is_blocked(x, y) end

---Blocks (default) or unblocks a tile, keeping its cost.
---@param x integer
---@param y integer
---@param blocked? boolean
function Grid:set_blocked(x, y, blocked) end

---Every tile: a cost (like `set_cost`), or a function called once per tile
---(`cost` is `false` for a blocked tile) whose results are baked in; every
---result is checked before anything changes.
---@param cost astar.Cost|fun(x: integer, y: integer, cost: number|false): number|false
function Grid:fill(cost) end

---The `w` x `h` rectangle whose top-left tile is (x, y); it must lie
---inside the grid (`w` or `h` may be 0).
---@param x integer
---@param y integer
---@param w integer
---@param h integer
---@param cost astar.Cost
function Grid:fill_rect(x, y, w, h, cost) end

---Every tile from rows (`t[y][x]`) or a flat table (`t[(y-1)*width + x]`)
---of costs or `false`; checked before anything changes.
---@param t (number|false)[][]|(number|false)[]
function Grid:load(t) end

---Every tile from text of exactly the grid's size (see `astar.from_string`).
---@param text string
---@param legend? astar.Legend
function Grid:load_string(text, legend) end

---Changes the diagonal rule and step lengths; O(tiles).
---@param options astar.MovementOptions
function Grid:set_movement(options) end

---@return astar.Movement
function Grid:get_movement() end

---Bytes the grid holds now (tiles, derived data, its search context).
---@return integer
function Grid:memory() end

---The edit counter: grows with every edit of the grid.
---@return integer
function Grid:version() end

---Frees the grid's memory now; later methods raise. Safe twice (also
---`__gc` and `__close`).
function Grid:close() end

---@return boolean
function Grid:is_closed() end

---Names the lowest unnamed terrain id (or returns the id the name has).
---@param name string
---@return integer id
function Grid:define_terrain(name) end

---@param x integer
---@param y integer
---@param terrain astar.Terrain
function Grid:set_terrain(x, y, terrain) end

---The terrain's name, or its id when it has none.
---@param x integer
---@param y integer
---@return string|integer terrain
function Grid:get_terrain(x, y) end

---The whole grid (terrain alone) or a rectangle (all four of x, y, w, h).
---@param terrain astar.Terrain
---@param x? integer
---@param y? integer
---@param w? integer
---@param h? integer
function Grid:fill_terrain(terrain, x, y, w, h) end

---Terrain from rows (`t[y][x]`), a flat table, or text through a legend
---`char -> terrain` (default: the digits are ids 0..9). Costs and walls stay.
---@param rows astar.Terrain[][]|astar.Terrain[]|string
---@param legend? table<string, astar.Terrain>
function Grid:load_terrain(rows, legend) end

---@param x integer
---@param y integer
---@param h number a finite number, at most 1e15 in size (stored as a 32-bit float)
function Grid:set_height(x, y, h) end

---@param x integer
---@param y integer
---@return number
function Grid:get_height(x, y) end

---Heights from rows, a flat table of numbers, or text of digits 0..9.
---@param rows number[][]|number[]|string
function Grid:load_heights(rows) end

---Defines or redefines unit class `name` (at most 32 per grid, `"default"`
---included). `costs`: terrain name or id -> multiplier or `false`
---(impassable); `"*"` for every terrain not listed (default 1).
---@param name string
---@param costs table<string|integer, number|false>
---@param options? astar.UnitOptions
function Grid:set_unit(name, costs, options) end

---The path from (sx, sy) to (gx, gy): `path, cost, expanded`, or
---`nil, reason, expanded`; with `closest = true` a partial path adds a 4th
---value, the reason. `out`: a table to fill instead of a new one (no
---garbage per query).
---@param sx integer
---@param sy integer
---@param gx? integer may be nil with the `goals` option
---@param gy? integer
---@param options? astar.FindPathOptions
---@param out? astar.Path
---@return astar.Path|nil path
---@return number|astar.Reason cost the path's cost, or the reason there is none
---@return integer expanded
---@return astar.Reason? reason why a `closest` path is partial
function Grid:find_path(sx, sy, gx, gy, options, out) end

---The first step of the path `find_path` would return, and the whole
---path's cost: `x, y, cost`, or `nil, reason`. Creates no table.
---@param sx integer
---@param sy integer
---@param gx? integer
---@param gy? integer
---@param options? astar.NextStepOptions
---@return integer|nil x
---@return integer|astar.Reason y the step's y, or the reason there is none
---@return number? cost
---@return astar.Reason? reason why a `closest` path is partial
function Grid:next_step(sx, sy, gx, gy, options) end

---@alias astar.PrepareKind
---| "subgoal" # subgoal graphs or jump tables (JPS+) for static maps: find_path uses them on its own (uniform costs, no_corner_cut)
---| "landmarks" # ALT distance fields for weighted maps: A* to one goal reads them on its own

---Figures of `grid:prepare`.
---@class astar.PrepareInfo
---@field ms number build time in milliseconds
---@field bytes number bytes the data holds
---@field algorithm? "subgoal"|"jps_plus" "subgoal": what find_path runs for the (first) unit class: the graph or JPS over the jump table
---@field subgoals? number "subgoal": subgoals of the (first) unit class
---@field edges? number "subgoal": edges of its graph
---@field skipped? string "subgoal" in mode `"auto"`: why the graph was not kept (the jump table was kept instead)

---Builds preprocessed data for the grid as it is now. `"subgoal"`:
---`grid:prepare("subgoal" [, units [, mode]])`, units a unit class name or a
---list of names (default `"default"`), mode `"auto"` (default: a graph where
---the documented rule says it pays, else precomputed jumps), `"always"` (the
---graph) or `"jumps"` (the jump table, 4 bytes per tile). Any edit
---makes the data stale until the next prepare (queries fall back to JPS).
---`"landmarks"`: `grid:prepare("landmarks", k [, units])`, `k` (1..32) ALT
---distance fields per unit class listed (4 bytes per tile per landmark); A*
---to one goal then reads them by itself (optimal costs); stale after any
---edit until the next prepare.
---@param kind astar.PrepareKind
---@param units? string|string[]
---@param mode? "auto"|"always"
---@return astar.PrepareInfo info
---@overload fun(self: astar.Grid, kind: "landmarks", k: integer, units?: string|string[]): astar.PrepareInfo
function Grid:prepare(kind, units, mode) end

---`"ready"`, `"stale"` (an edit since the last prepare) or nil (never
---prepared, skipped or unprepared), for a unit class (default `"default"`;
---`"landmarks"` has one state for every class it serves).
---@param kind astar.PrepareKind
---@param unit? string
---@return "ready"|"stale"|nil state
function Grid:prepared(kind, unit) end

---Frees the kind's data (every unit class's).
---@param kind astar.PrepareKind
function Grid:unprepare(kind) end

---The zone of a tile for a unit class (`"default"` when absent): 0 when
---impassable to it. With `size`: the zones of an s x s unit's top-left tile.
---@param x integer
---@param y integer
---@param unit? string
---@param size? integer
---@return integer id
function Grid:zone(x, y, unit, size) end

---Whether two tiles are in the same zone (O(1)); `false` when either is
---impassable.
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param unit? string
---@param size? integer
---@return boolean
function Grid:connected(x1, y1, x2, y2, unit, size) end

---The number of zones (ids are not consecutive after edits).
---@param unit? string
---@param size? integer
---@return integer
function Grid:zone_count(unit, size) end

---Tiles in zone `id` (0 for an id that is not a zone now).
---@param id integer
---@param unit? string
---@param size? integer
---@return integer
function Grid:zone_size(id, unit, size) end

---------------------------------------------------------------------------
-- Large units and natural paths
---------------------------------------------------------------------------

---Options of `grid:smooth`.
---@class astar.SmoothOptions
---@field unit? string the unit class whose open tiles the legs must stay on (default `"default"`)
---@field size? integer the side s of an s x s unit (default 1): the legs of its top-left tile

---The side of the largest square open to the unit class whose top-left
---tile is (x, y): 0 when the tile is closed to it, at most 255.
---@param x integer
---@param y integer
---@param unit? string
---@return integer side
function Grid:clearance(x, y, unit) end

---Whether the straight line between the two tiles' centres stays on open
---tiles (corner rule: no squeeze between two blocked tiles meeting at a
---corner): `true`, or `false` and the first blocking tile. Not on hex grids.
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param unit? string
---@param size? integer
---@return boolean clear
---@return integer? bx the first tile from (x1, y1) that blocks
---@return integer? by
function Grid:line_of_sight(x1, y1, x2, y2, unit, size) end

---String pulling: the path's waypoints with every one dropped that a leg
---in line of sight, costing no more, may skip; first and last kept. Fills
---`out` (it may be `path` itself) or a new table. A path crossing a wall
---is an error.
---@param path astar.Path
---@param out? table
---@param options? astar.SmoothOptions
---@return astar.Path waypoints
function Grid:smooth(path, out, options) end

---------------------------------------------------------------------------
-- Paths that stay valid
---------------------------------------------------------------------------

---Options of `grid:path_ok` and `grid:path_cost` (as in `find_path`).
---@class astar.PathCheckOptions
---@field unit? string the unit class whose costs and height rules apply (default `"default"`)
---@field avoid? integer[] tiles that count as blocked, flat `{x1, y1, ...}` (never the unit's own tile nor the last one)
---@field extra_cost? number[] costs added to tiles, flat `{x1, y1, c1, ...}`
---@field size? integer the side of a square unit (its top-left tile's steps, the whole footprint open; default 1)

---Options of `grid:repair`.
---@class astar.RepairOptions
---@field unit? string the unit class (default `"default"`)
---@field avoid? integer[] tiles blocked for this repair only, flat `{x1, y1, ...}`
---@field extra_cost? number[] costs added to tiles for this repair only, flat `{x1, y1, c1, ...}`
---@field size? integer the side of a square unit, as for `find_path` (default 1)
---@field max_nodes? integer the mending search's budget (default: twice the tiles left on the path, plus 64)
---@field stats? astar.RepairStats a table filled with what the repair did
---@field zones? boolean `false`: neither consult nor build the zones (default `true`)

---@alias astar.RepairHow
---| "kept"     # the path is still legal from at_index: its rest, nothing searched
---| "rejoined" # a search from before the break rejoined the old path after it
---| "searched" # no rejoin: a plain (optimal) search from at_index to the last tile

---What `repair`'s `stats = t` fills in.
---@class astar.RepairStats
---@field expanded integer nodes expanded, both searches together
---@field how astar.RepairHow what happened (`"searched"` also when the plain search found nothing)
---@field status astar.Status `"found"` or the reason
---@field bad? integer the first illegal tile of the old path (an index), nil when none
---@field rejoin? integer the old path's tile the mending search reached (an index)
---@field leave? integer the old path's tile the mending search left from (an index)

---Whether the path is legal from its tile `from_index` (default 1) to its
---end under the rules a search uses now: `true`, or `false` and the index
---of the first tile that is not (a tile index: the pair
---`path[2i - 1], path[2i]`).
---@param path astar.Path
---@param from_index? integer
---@param options? astar.PathCheckOptions
---@return boolean ok
---@return integer? index
function Grid:path_ok(path, from_index, options) end

---The path's cost under the grid's rules now, or `nil` and the index of
---the first illegal tile. A one-tile path costs 0.
---@param path astar.Path
---@param options? astar.PathCheckOptions
---@return number|nil cost
---@return integer? index
function Grid:path_cost(path, options) end

---A path from the path's tile `at_index` to its last tile after edits,
---mending the old one: `path, cost, how` (the whole new path's cost), or
---`nil, reason`. `out` may be the old path itself.
---@param path astar.Path
---@param at_index integer
---@param options? astar.RepairOptions
---@param out? table
---@return astar.Path|nil path
---@return number|astar.Reason cost the new path's cost, or the reason there is none
---@return astar.RepairHow? how
function Grid:repair(path, at_index, options, out) end

---Iterates over a path's tiles: `for i, x, y in astar.steps(path)`, `i`
---counting tiles from 1.
---@param path astar.Path
---@return fun(path: astar.Path, i: integer): integer?, integer?, integer? iterator
---@return astar.Path state
---@return integer start 0
function astar.steps(path) end

---The number of tiles of a path (`#path / 2`).
---@param path astar.Path
---@return integer
function astar.path_length(path) end

---The path from end to start, into `out` (it may be `path` itself) or a
---new table.
---@param path astar.Path
---@param out? table
---@return astar.Path
function astar.reverse(path, out) end

---A table `{x = x, y = y}` per tile (garbage: prefer `steps` or the flat list).
---@param path astar.Path
---@return {x: integer, y: integer}[]
function astar.points(path) end

---------------------------------------------------------------------------
-- Time-sliced searches: astar.Query, astar.Pathfinder
---------------------------------------------------------------------------

---@alias astar.QueryState
---| "running"       # not finished yet
---| "found"
---| "no_path"
---| "start_blocked"
---| "goal_blocked"
---| "cutoff"
---| "stale"         # the grid was edited since the search began: restart it

---A search that runs a little per call (`step`). Arguments are checked
---now; the search begins at the first step. Holds its grid alive.
---@param sx integer
---@param sy integer
---@param gx? integer may be nil with the `goals` option
---@param gy? integer
---@param options? astar.FindPathOptions
---@return astar.Query query
function Grid:query(sx, sy, gx, gy, options) end

---A time-sliced search of one path (userdata). Methods raise `bad
---argument #1 to '<method>' (the query is closed)` after `close`.
---@class astar.Query
local Query = {}

---Runs at most `max_nodes` expansions (absent: to the end). IDA* and the
---bidirectional searches run whole in their first step.
---@param max_nodes? integer
---@return astar.QueryState state
function Query:step(max_nodes) end

---Once ended, what `find_path` returns; before, `nil, state, expanded`.
---@param out? table a table to fill instead of a new one
---@return astar.Path|nil path
---@return number|astar.QueryState cost the path's cost, or the state
---@return integer expanded
---@return astar.Reason? reason why a `closest` path is partial
function Query:result(out) end

---The best path so far, to the expanded tile closest to the goal (once
---found: the path), or `nil` and the state when there is none yet.
---@param out? table
---@return astar.Path|nil path
---@return number|astar.QueryState cost
function Query:partial(out) end

---@return integer expansions so far
function Query:expanded() end

---The state, as `step` returns it (`"running"` before the first step).
---@return astar.QueryState
function Query:state() end

---Back to the beginning: the next step searches the grid as it is now.
function Query:restart() end

---Frees the search context now; safe twice (also `__gc`, `__close`).
function Query:close() end

---@return boolean
function Query:is_closed() end

---Options of `astar.pathfinder`.
---@class astar.PathfinderOptions
---@field searches? integer requests searched at once, 1..64 (default 4)
---@field max_pending? integer most requests queued plus running (default 256)
---@field slice? integer expansions per turn of a search (default 128)

---The budget of `pathfinder:update`: nodes, seconds, or both (whichever
---comes first).
---@class astar.BudgetOptions
---@field nodes? integer expansions (a positive integer): deterministic on every runtime
---@field seconds? number wall-clock time (monotonic); the update stops after the turn that reaches it

---What `pathfinder:stats()` returns.
---@class astar.PathfinderStats
---@field pending integer requests queued (not started)
---@field running integer requests being searched
---@field done integer finished requests waiting in `done()`
---@field expansions integer expansions of the last update
---@field seconds number time of the last update
---@field worst number the longest update so far, in seconds
---@field restarts integer running requests begun again after an edit of the grid
---@field requests integer requests accepted
---@field finished integer requests finished

---A pool of search contexts serving a queue of path requests on a grid,
---a budget per `update` (once per frame). Holds its grid alive.
---@param grid astar.Grid
---@param options? astar.PathfinderOptions
---@return astar.Pathfinder
function astar.pathfinder(grid, options) end

---A queue of time-sliced path requests (userdata). Methods raise `bad
---argument #1 to '<method>' (the pathfinder is closed)` after `close`.
---@class astar.Pathfinder
local Pathfinder = {}

---Queues a request: its id (counting from 1), or `nil, "full"` when
---`max_pending` requests are waiting. A request with the `tag` of one
---still queued or running replaces it. The path is written into `out`
---when given.
---@param sx integer
---@param sy integer
---@param gx? integer
---@param gy? integer
---@param options? astar.FindPathOptions
---@param tag? any any value but nil and NaN
---@param out? table
---@return integer|nil id
---@return "full"? reason
function Pathfinder:request(sx, sy, gx, gy, options, tag, out) end

---Advances the running searches, `slice` expansions a turn, within the
---budget; a callback's error is raised from here and drops its request.
---@param budget astar.BudgetOptions
---@return integer expansions made
function Pathfinder:update(budget) end

---Iterates over the finished requests, in the order they finished, each
---once: `for id, status, path, cost, tag in pf:done() do ... end` (`path`
---and `cost` nil when there is none).
---@return fun(): integer?, astar.Status?, astar.Path?, number?, any
function Pathfinder:done() end

---Drops a request; `true` when it was queued, running or finished and
---not yet drained.
---@param id integer
---@return boolean
function Pathfinder:cancel(id) end

---A running request's best path so far (as `query:partial`); else `nil`
---and `"pending"`, its status, or `"unknown"`.
---@param id integer
---@param out? table
---@return astar.Path|nil path
---@return number|string cost the cost, or why there is no path
function Pathfinder:partial(id, out) end

---@return integer requests queued or running
function Pathfinder:pending() end

---The pool's counters, into `t` when given.
---@param t? table
---@return astar.PathfinderStats
function Pathfinder:stats(t) end

---Frees the contexts now; safe twice (also `__gc`, `__close`).
function Pathfinder:close() end

---@return boolean
function Pathfinder:is_closed() end

---------------------------------------------------------------------------
-- Fields: astar.Field
---------------------------------------------------------------------------

---@alias astar.FieldDirection
---| "to"   # the cost from each tile to a goal (default)
---| "from" # the cost from a goal to each tile (movement range)

---Options of `grid:field`.
---@class astar.FieldOptions
---@field unit? string the unit class (default `"default"`)
---@field direction? astar.FieldDirection `"to"` (default) or `"from"`
---@field values? number[] a start value per goal (finite, negative too): a tile's value is the least value + cost
---@field max_cost? number only tiles whose value is at most this get one (the rest are nil)
---@field tile_cost? astar.TileCostFunction as in `find_path`, called at most once per tile per build (the field keeps its answers)
---@field size? integer the side of a square unit: the field of its top-left tile, every footprint open (default 1)
---@field avoid? integer[] tiles with no value (blocked for this build; goals never are), flat `{x1, y1, ...}`
---@field extra_cost? number[] costs added to entering tiles for this build, flat `{x1, y1, c1, ...}`
---@field queue? "auto"|"heap" "auto" (default): the bucket ring or radix heap; "heap": the binary heap, for comparisons (same values)

---Options of `astar.combine`.
---@class astar.CombineOptions
---@field rescan? boolean rescan the sum under the first field's grid and rules, so that its values are path costs (default `false`)

---A field (Dijkstra map, flow field) of the goals: for every tile the
---cost of the cheapest path between it and the nearest goal. `goals`:
---one tile `x, y` or a flat list `{x1, y1, ...}`; a blocked goal is an
---error. `reuse`: a field of the same size rebuilt in place.
---@param x integer
---@param y integer
---@param options? astar.FieldOptions
---@param reuse? astar.Field
---@return astar.Field
---@overload fun(self: astar.Grid, goals: integer[], options?: astar.FieldOptions, reuse?: astar.Field): astar.Field
function Grid:field(x, y, options, reuse) end

---A weighted sum of fields of one size, `{f1, w1, f2, w2, ...}` (weights
---finite): a tile has a value where every field has one.
---@param fields (astar.Field|number)[]
---@param options? astar.CombineOptions
---@return astar.Field
function astar.combine(fields, options) end

---A field of path costs (userdata) with its own memory. Methods raise
---`"<method>: the field is closed"` after `close`; following it needs its
---grid open.
---@class astar.Field
local Field = {}

---The tile's value, or `nil` when no goal is reachable (or beyond `max_cost`).
---@param x integer
---@param y integer
---@return number|nil
function Field:get(x, y) end

---The best step downhill and its own cost: `nx, ny, cost`; `nil, "goal"`
---on a goal (or a local minimum of a plain sum); `nil, "no_path"` on a
---tile without a value. A `seed` picks among equal steps.
---@param x integer
---@param y integer
---@param seed? integer 0..2^53-1
---@return integer|nil nx
---@return integer|"goal"|"no_path" ny the step's y, or why there is none
---@return number? cost
function Field:next_step(x, y, seed) end

---The path downhill from (x, y) (a `"from"` field: from the goal to
---(x, y)), as `find_path` returns it, or `nil, "no_path"`.
---@param x integer
---@param y integer
---@param out? table
---@return astar.Path|nil path
---@return number|"no_path" cost
function Field:path(x, y, out) end

---The tiles whose value is at most `max_cost`, cheapest first, as a flat
---list `{x1, y1, ...}`, and their number.
---@param max_cost number
---@param out? table
---@return integer[] tiles
---@return integer n
function Field:within(max_cost, out) end

---For each unit `x, y` of the flat list `positions`, its next tile (the
---tile itself on a goal or without a value), in one call.
---@param positions integer[]
---@param out? table
---@param seed? integer
---@return integer[] out
function Field:steps(positions, out, seed) end

---`width * height` bytes, row by row: 0 for no step, else the direction
---code 1..8 (N E S W NE SE SW NW; see `astar.FLOW_DX`, `astar.FLOW_DY`).
---@return string
function Field:directions() end

---A flee map: every value times `k` (default -1.2), rescanned under the
---same rules. `reuse` may be the field itself.
---@param k? number
---@param reuse? astar.Field
---@return astar.Field
function Field:flee(k, reuse) end

---@return integer width
---@return integer height
function Field:size() end

---@return integer tiles with a value
function Field:count() end

---@return astar.FieldDirection
function Field:direction() end

---Bytes the field holds.
---@return integer
function Field:memory() end

---The grid's `version()` when the field was built.
---@return integer
function Field:version() end

---Frees the field's memory now; safe twice (also `__gc`, `__close`).
function Field:close() end

---@return boolean
function Field:is_closed() end

---------------------------------------------------------------------------
-- Links
---------------------------------------------------------------------------

---One link as `grid:links()` lists it: `{x1, y1, x2, y2, cost, one_way}`.
---@alias astar.Link {[1]: integer, [2]: integer, [3]: integer, [4]: integer, [5]: number, [6]: boolean}

---Adds a link (stairs, ladder, teleport) from (x1, y1) to (x2, y2), and
---back unless `one_way`; linking the same tiles again replaces the cost.
---Both ends open and different. Edits the grid.
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param cost number finite, >= 0: what taking it costs
---@param one_way? boolean
function Grid:link(x1, y1, x2, y2, cost, one_way) end

---Removes the link between the two tiles, both directions.
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@return boolean removed `true` when there was one
function Grid:unlink(x1, y1, x2, y2) end

---Every link: a two-way link once, one-way links as made.
---@return astar.Link[]
function Grid:links() end

---------------------------------------------------------------------------
-- Graphs: astar.Graph
---------------------------------------------------------------------------

---@alias astar.GraphAlgorithm
---| "astar"         # A* (default)
---| "weighted"      # A* with weight (default 1.5)
---| "dijkstra"
---| "bfs"           # fewest edges (the cost returned is the path's cost)
---| "greedy"        # the heuristic alone: not optimal
---| "bidirectional" # Dijkstra from both ends

---@alias astar.GraphHeuristicName
---| "euclidean" # straight-line distance between positions, scaled to stay admissible (default)
---| "zero"      # Dijkstra

---@alias astar.GraphTies
---| "larger_g" # default
---| "random"   # a seeded random order among nodes of equal f

---A node's position: `{x, y [, z]}`, `{x = , y = [, z = ]}`, or `{}` for none.
---@alias astar.GraphNode {[1]: number?, [2]: number?, [3]: number?, x: number?, y: number?, z: number?}

---An edge: `{a, b, cost [, both_ways]}`.
---@alias astar.GraphEdge {[1]: integer, [2]: integer, [3]: number, [4]: boolean?}

---The table form of `astar.graph`.
---@class astar.GraphOptions
---@field nodes? astar.GraphNode[] nodes 1..#nodes, each a position or `{}`
---@field edges? astar.GraphEdge[] edges `{a, b, cost [, both_ways]}`

---Options of `graph:find_path`.
---@class astar.GraphPathOptions
---@field algorithm? astar.GraphAlgorithm the search (default `"astar"`)
---@field heuristic? astar.GraphHeuristicName|fun(node: integer, goal: integer): number a name (default `"euclidean"`) or a function returning a finite estimate >= 0
---@field weight? number multiplies the heuristic, >= 1 (default 1)
---@field goals? integer[] goal node ids: the search stops at the cheapest it reaches (`b` may then be nil)
---@field max_cost? number cutoff: no path costing more is followed (`"cutoff"`)
---@field max_nodes? integer cutoff: at most this many expansions (`"cutoff"`)
---@field closest? boolean no goal reached: the path to the expanded node nearest a goal (a 4th result: the reason)
---@field ties? astar.GraphTies the tie rule (default `"larger_g"`)
---@field seed? integer for `ties = "random"`
---@field stats? astar.GraphStats a table filled with the search's statistics

---What `graph:find_path`'s `stats = t` fills in.
---@class astar.GraphStats
---@field expanded integer
---@field generated integer
---@field status astar.Status
---@field algorithm astar.GraphAlgorithm
---@field partial boolean
---@field end_node? integer the node the path ends at (nil without a path)
---@field goal? integer with `goals`: the index of the goal reached

---A graph of numbered nodes and weighted edges: empty, with room for `n`
---nodes (a hint), or from `{nodes = {...}, edges = {...}}`.
---@param spec? integer|astar.GraphOptions
---@return astar.Graph
function astar.graph(spec) end

---An explicit graph (userdata). Methods raise `"<method>: the graph is
---closed"` after `close`.
---@class astar.Graph
local Graph = {}

---A new node, numbered from 1 in order; the position feeds the heuristic.
---@param x? number
---@param y? number
---@param z? number default 0
---@return integer id
function Graph:add_node(x, y, z) end

---An edge a -> b (and b -> a with `both_ways`); adding it again sets its cost.
---@param a integer
---@param b integer
---@param cost number finite, >= 0
---@param both_ways? boolean
function Graph:add_edge(a, b, cost, both_ways) end

---Sets an edge's cost, or removes it with `false`.
---@param a integer
---@param b integer
---@param cost number|false
---@param both_ways? boolean
function Graph:set_edge(a, b, cost, both_ways) end

---The cost of the edge a -> b, or nil.
---@param a integer
---@param b integer
---@return number|nil
function Graph:edge(a, b) end

---The edges out of `id`, flat `{b1, cost1, b2, cost2, ...}` (into `out`).
---@param id integer
---@param out? table
---@return number[]
function Graph:neighbors(id, out) end

---Disables a node (never entered, started from or reached) or, with
---`false`, enables it again. O(1).
---@param id integer
---@param disabled? boolean default `true`
function Graph:disable(id, disabled) end

---@param id integer
---@return boolean
function Graph:is_disabled(id) end

---The node's position, or nil when it has none.
---@param id integer
---@return number|nil x
---@return number? y
---@return number? z
function Graph:position(id) end

---@return integer
function Graph:node_count() end

---@return integer directed edges
function Graph:edge_count() end

---The node's zone (connected component, edges taken either way).
---@param id integer
---@return integer
function Graph:zone(id) end

---Whether two nodes are in the same zone (O(1)).
---@param a integer
---@param b integer
---@return boolean
function Graph:connected(a, b) end

---@return integer
function Graph:zone_count() end

---The path from node `a` to `b`: `path, cost, expanded` (a flat list of
---node ids), or `nil, reason, expanded`; with `closest` a partial path
---adds a 4th value, the reason.
---@param a integer
---@param b? integer may be nil with the `goals` option
---@param options? astar.GraphPathOptions
---@param out? table
---@return integer[]|nil path
---@return number|astar.Reason cost the path's cost, or the reason there is none
---@return integer expanded
---@return astar.Reason? reason why a `closest` path is partial
function Graph:find_path(a, b, options, out) end

---A graph field: for every node the cost of the cheapest path between it
---and the nearest goal (a multi-source Dijkstra over the edges). `reuse`
---is an old graph field rebuilt in place.
---@param goals integer|integer[] a node id or a list of ids (a disabled goal is an error)
---@param options? astar.GraphFieldOptions
---@param reuse? astar.GraphField
---@return astar.GraphField
function Graph:field(goals, options, reuse) end

---Bytes the graph holds.
---@return integer
function Graph:memory() end

---The edit counter.
---@return integer
function Graph:version() end

---Frees the graph's memory now; safe twice (also `__gc`, `__close`).
function Graph:close() end

---@return boolean
function Graph:is_closed() end

---------------------------------------------------------------------------
-- State-space search
---------------------------------------------------------------------------

---The table of `astar.search`.
---@class astar.SearchOptions
---@field start any the first state (a number or string is its own key; other states need `key`)
---@field neighbors fun(state: any, emit: fun(next: any, cost: number)) calls `emit(next, cost)` for each successor (cost finite, >= 0)
---@field goal any|fun(state: any): boolean a state (compared by key) or a test
---@field heuristic? fun(state: any): number an estimate >= 0, finite (keep it admissible for optimal answers)
---@field key? fun(state: any): number|string the key of a state that is not a number or string
---@field max_nodes? integer at most this many expansions, then `nil, "cutoff"`

---A* over states a function makes as the search goes: the states from
---`start` to the goal, the cost and the expansions, or `nil, reason,
---expanded` (`"no_path"`, `"cutoff"`). A callback's error reaches the
---caller unchanged.
---@param spec astar.SearchOptions
---@return any[]|nil states
---@return number|astar.Reason cost the cost, or the reason there is none
---@return integer expanded
function astar.search(spec) end

---------------------------------------------------------------------------
-- astar.hex
---------------------------------------------------------------------------

---@alias astar.HexLayout "odd-r"|"even-r"|"odd-q"|"even-q"

---Hex grids: conversions between offset layouts and the axial coordinates
---of a `diagonals = "hex"` grid, 1-based.
---@class astar.hex
---@field LAYOUTS astar.HexLayout[] the four layout names
---@field DIRECTIONS integer[][] the six `{dq, dr}` in search order N E S W NE SW
local hex = {}

---@param layout astar.HexLayout
---@param col integer
---@param row integer
---@return integer q
---@return integer r
function hex.from_offset(layout, col, row) end

---@param layout astar.HexLayout
---@param q integer
---@param r integer
---@return integer col
---@return integer row
function hex.to_offset(layout, q, r) end

---Steps between two hexes.
---@param q1 integer
---@param r1 integer
---@param q2 integer
---@param r2 integer
---@return integer
function hex.distance(q1, r1, q2, r2) end

---An axial grid covering a `cols` x `rows` offset map.
---@param layout astar.HexLayout
---@param cols integer
---@param rows integer
---@return astar.hex.Map
function hex.map(layout, cols, rows) end

---@class astar.hex.Map
---@field layout astar.HexLayout
---@field cols integer the offset map's size
---@field rows integer
---@field width integer the axial grid's size
---@field height integer
local Map = {}

---A new grid `width` x `height` with `diagonals = "hex"`, the tiles
---outside the map blocked.
---@param options? astar.GridOptions
---@return astar.Grid
function Map:new_grid(options) end

---The grid tile of an offset hex.
---@param col integer
---@param row integer
---@return integer x
---@return integer y
function Map:to_grid(col, row) end

---The offset hex of a grid tile, or `nil` outside the map.
---@param x integer
---@param y integer
---@return integer|nil col
---@return integer? row
function Map:to_offset(x, y) end

---Whether a grid tile is a hex of the map.
---@param x integer
---@param y integer
---@return boolean
function Map:contains(x, y) end

---A flat path of grid tiles as offset coordinates (a new table).
---@param path astar.Path
---@return integer[]
function Map:path_to_offset(path) end


---Options of `g:field`.
---@class astar.GraphFieldOptions
---@field direction? astar.FieldDirection `"to"` (default): the cost from each node to a goal; `"from"`: from a goal to each node
---@field values? number[] a start value per goal (finite, negative too)
---@field max_cost? number only nodes whose value is at most this get one

---A graph's distance field (`g:field`). Reading it never reads the graph:
---it keeps the step its build took at each node.
---@class astar.GraphField
local GraphField = {}

---The node's value, or nil when no goal is reachable (or beyond `max_cost`).
---@param id integer
---@return number?
function GraphField:get(id) end

---The next node toward the goal and that edge's cost; `nil, "goal"` at a
---goal, `nil, "no_path"` without a value.
---@param id integer
---@return integer|nil next
---@return number|string cost_or_reason
function GraphField:next_step(id) end

---The node ids from `id` to its goal ("to"; from the goal to `id` on a
---"from" field) and the cost, or `nil, "no_path"`.
---@param id integer
---@param out? table reused
---@return integer[]|nil ids
---@return number|string cost_or_reason
function GraphField:path(id, out) end

---The nodes whose value is at most `max_cost`, cheapest first, and their count.
---@param max_cost number
---@param out? table reused
---@return integer[] ids
---@return integer n
function GraphField:within(max_cost, out) end

---How many nodes have a value.
---@return integer
function GraphField:count() end

---`"to"` or `"from"`.
---@return astar.FieldDirection
function GraphField:direction() end

---The graph's `version()` when the field was built.
---@return integer
function GraphField:version() end

---Bytes the field holds.
---@return integer
function GraphField:memory() end

---Frees the field's memory now (idempotent; also `__gc` and `__close`).
function GraphField:close() end

---Whether `close` was called.
---@return boolean
function GraphField:is_closed() end

return astar
