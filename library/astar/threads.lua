---@meta
-- Editor definitions of astar's threads (issue 16): grid:snapshot, the
-- Snapshot type, tokens (astar.attach), the worker pool (astar.workers)
-- and batch results (astar.unpack_paths, astar.path_of).  The rest of the
-- API is in ../astar.lua; docs/api.md, "Threads", is the full reference.

---@class astar
local astar = {}

---@class astar.Grid
local Grid = {}

---An immutable, reference-counted copy of the grid as it is now (its
---layers, zones, JPS bits and links; every unit class, or the default one
---and those listed). Later edits of the grid never touch it; closing the
---grid leaves it usable. One-tile units only (no clearance is copied).
---@param units? string[] the unit classes to copy (default: every defined one)
---@return astar.Snapshot
function Grid:snapshot(units) end

---Gives another Lua state of this process (a `love.thread`) a snapshot:
---a new holder of the copy named by `snap:token()`. Forged tokens, tokens
---of released snapshots and of other processes are errors.
---@param token string
---@return astar.Snapshot
function astar.attach(token) end

---A pool of `n` C threads (default: one per processor online, 1..256),
---each with its own search context, running batches of snapshot queries.
---@param n? integer
---@return astar.Workers
function astar.workers(n) end

---Reads a string made by `snap:find_paths` (in this process) into a
---results table (`out` reused when given).
---@param s string
---@param out? astar.Results
---@param options? astar.ResultsOptions
---@return astar.Results
function astar.unpack_paths(s, out, options) end

---Query `i`'s path of a results table as a flat `{x1, y1, x2, y2, ...}`
---(into `out` when given), or `nil` when it has none.
---@param r astar.Results
---@param i integer
---@param out? integer[]
---@return integer[]|nil path
function astar.path_of(r, i, out) end

---What `pool:results` and `astar.unpack_paths` return for a batch of `n`
---queries: query `i`'s path is `r.path[r.start[i]]` .. `r.path[r.start[i]
---+ 2 * r.length[i] - 1]`.
---@class astar.Results
---@field n integer the number of queries
---@field status astar.Status[] `"found"` or why not, per query
---@field cost (number|false)[] the path's cost, `false` without a path
---@field length integer[] tiles on the path, start and goal included (0: none)
---@field start? integer[] where each path starts in `path` (nil with `paths = false`)
---@field path? integer[] every path's x, y pairs one after the other (nil with `paths = false` or `"kept"`)
---@field paths? string with `paths = "kept"`: every path in one string, read with `astar.path_of`

---@class astar.ResultsOptions
---@field paths? boolean|"kept" `false`: statuses, costs and lengths only; `"kept"`: the paths in one string (`r.paths`) for `astar.path_of` (default `true`: `r.path`)

---The options of a query on a snapshot (`find_path`, `next_step`) and of a
---batch (`find_paths`, `pool:submit`): those of `grid:find_path` except
---Lua functions (an error names the option), `size` above 1 and
---`remember`. Batches also refuse `stats`, `explored`, `avoid` and
---`extra_cost`.
---@class astar.SnapshotOptions
---@field heuristic? astar.HeuristicName a built-in name (default `"default"`); no function on a snapshot
---@field weight? number multiplies the heuristic, in [1, 1e9] (default 1)
---@field unit? string a unit class the snapshot holds (default `"default"`)
---@field tile_cost? nil not on a snapshot (Lua functions cannot run on another thread)
---@field move_cost? nil not on a snapshot (Lua functions cannot run on another thread)
---@field min_cost? number a lower bound of every tile cost, in [0, 3.4e38]
---@field algorithm? astar.Algorithm the search (default `"auto"`)
---@field ties? astar.Ties the tie rule among equal f (default `"larger_g"`)
---@field seed? integer 0..2^53-1, for `ties = "random"` (default 0)
---@field beam_width? integer most nodes on the open list for `"beam"` (default 1000)
---@field open_list? astar.OpenList the A* loop's open list (default `"auto"`)
---@field goals? integer[] more goal tiles, flat `{x1, y1, x2, y2, ...}`
---@field max_cost? number no path costing more is followed (`"cutoff"`)
---@field max_length? integer no path of more steps is followed (`"cutoff"`)
---@field max_nodes? integer at most this many expansions (`"cutoff"`)
---@field closest? boolean when no goal is reached, the path to the reachable tile closest to the goal
---@field leave_blocked_start? boolean a blocked start is left as if it were open
---@field next_to_blocked_goal? boolean a blocked goal: stop on a tile next to it
---@field stats? astar.Stats `find_path`/`next_step` only: filled with the search's statistics
---@field explored? astar.Explored `find_path`/`next_step` only: filled with the tiles expanded
---@field zones? boolean `false`: do not consult the zones (default `true`)
---@field size? integer 1 only: a snapshot holds one-tile units' layers
---@field avoid? integer[] `find_path`/`next_step` only: tiles blocked for this query, flat `{x1, y1, ...}`
---@field extra_cost? number[] `find_path`/`next_step` only: costs added for this query, flat `{x1, y1, c1, ...}`
---@field landmarks? boolean accepted for symmetry with `find_path`; a snapshot holds no landmarks
---@field path? astar.PathForm `"corners"`: only the path's turns (batches: `r.length[i]` counts corners); default `"tiles"`

---A snapshot (userdata): a holder of an immutable copy of a grid. Methods
---raise `"<method>: the snapshot is closed"` after `close`.
---@class astar.Snapshot
local Snapshot = {}

---As `grid:find_path`, on the copy.
---@param sx integer
---@param sy integer
---@param gx integer|nil
---@param gy integer|nil
---@param options? astar.SnapshotOptions
---@param out? integer[] a table to fill with the path (reused)
---@return integer[]|nil path flat `{x1, y1, x2, y2, ...}`, or nil
---@return number|astar.Status cost the cost, or why there is no path
---@return integer expanded
---@return astar.Status? reason with `closest`: why the goal was not reached
function Snapshot:find_path(sx, sy, gx, gy, options, out) end

---As `grid:next_step` (without memory), on the copy.
---@param sx integer
---@param sy integer
---@param gx integer|nil
---@param gy integer|nil
---@param options? astar.SnapshotOptions
---@return integer|nil x the next tile, or nil
---@return integer|astar.Status y or why there is no path
---@return number? cost of the whole path
---@return astar.Status? reason with `closest`
function Snapshot:next_step(sx, sy, gx, gy, options) end

---Runs a batch on the calling thread and packs its results into one
---string (for a channel; read it with `astar.unpack_paths`).
---@param queries integer[] flat `{sx1, sy1, gx1, gy1, sx2, ...}`
---@param options? astar.SnapshotOptions
---@return string
function Snapshot:find_paths(queries, options) end

---The snapshot's token, for `astar.attach` in another state of this
---process. Keep the snapshot until the other side has attached it.
---@return string
function Snapshot:token() end

---@return integer width
---@return integer height
function Snapshot:size() end

---The grid's `version()` when the snapshot was made.
---@return integer
function Snapshot:version() end

---Bytes of the copy plus this holder's search context.
---@return integer
function Snapshot:memory() end

---Lets go of this holder (idempotent; also `__gc`, `__close`).
function Snapshot:close() end

---@return boolean
function Snapshot:is_closed() end

---A worker pool (userdata) of C threads.
---@class astar.Workers
local Workers = {}

---Queues a batch of queries on the snapshot (the batch holds it) and
---returns at once.
---@param snap astar.Snapshot
---@param queries integer[] flat `{sx1, sy1, gx1, gy1, sx2, ...}`
---@param options? astar.SnapshotOptions
---@return integer id
function Workers:submit(snap, queries, options) end

---@param id integer
---@return boolean
function Workers:done(id) end

---Blocks until the batch is done.
---@param id integer
function Workers:wait(id) end

---Waits if needed, returns the batch's results and forgets the batch.
---@param id integer
---@param out? astar.Results a results table to fill again
---@param options? astar.ResultsOptions
---@return astar.Results
function Workers:results(id, out, options) end

---@return integer
function Workers:threads() end

---Cancels batches not started, joins every thread (idempotent; also
---`__gc`, `__close`).
function Workers:close() end

---@return boolean
function Workers:is_closed() end
