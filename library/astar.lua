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

---------------------------------------------------------------------------
-- Results
---------------------------------------------------------------------------

---What `stats = t` fills in (other keys of `t` are left alone).
---@class astar.Stats
---@field expanded integer nodes expanded (JPS: jump points)
---@field generated integer nodes put on the open list
---@field peak_open integer the open list's largest size (`"ida"`: the deepest path)
---@field status astar.Status `"found"` or the reason
---@field algorithm astar.Algorithm the search that ran (`"auto"` says `"jps"` or `"astar"`)
---@field partial boolean a partial path (`closest`)
---@field goal? integer with `goals`: the index of the goal reached (0: gx, gy)
---@field end_x? integer the tile the path ends at (nil without a path)
---@field end_y? integer

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
---@param options? astar.FindPathOptions
---@return integer|nil x
---@return integer|astar.Reason y the step's y, or the reason there is none
---@return number? cost
---@return astar.Reason? reason why a `closest` path is partial
function Grid:next_step(sx, sy, gx, gy, options) end

---The zone of a tile for a unit class (`"default"` when absent): 0 when
---impassable to it.
---@param x integer
---@param y integer
---@param unit? string
---@return integer id
function Grid:zone(x, y, unit) end

---Whether two tiles are in the same zone (O(1)).
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param unit? string
---@return boolean
function Grid:connected(x1, y1, x2, y2, unit) end

---@param unit? string
---@return integer
function Grid:zone_count(unit) end

---Tiles in zone `id` (0 for an id that is not a zone now).
---@param id integer
---@param unit? string
---@return integer
function Grid:zone_size(id, unit) end

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

return astar
