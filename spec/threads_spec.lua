-- Snapshots, tokens and the worker pool (issue 16): grid:snapshot,
-- snapshot:find_path / next_step / find_paths / token, astar.attach,
-- astar.workers and astar.unpack_paths.  The many-states stress run is
-- spec/c/threads_host.c (make tsan); this file stays in one state.
local astar = require("astar")
local helpers = require("helpers")

local error_of = helpers.error_of

-- grid:find_path's answer for one query, as the results table says it.
-- (a partial path, with `closest`, has the reason as its status)
local function expected(grid, sx, sy, gx, gy, options)
  local path, cost, _, reason = grid:find_path(sx, sy, gx, gy, options)
  if type(path) == "table" then return path, cost, reason or "found" end
  return nil, nil, cost
end

-- grid:find_path's answers to a query list: {path, cost, status} each.
local function expect_all(grid, queries, options)
  local want = {}
  for i = 1, #queries / 4 do
    local q = (i - 1) * 4
    want[i] = { expected(grid, queries[q + 1], queries[q + 2],
      queries[q + 3], queries[q + 4], options) }
  end
  return want
end

-- Every query of a results table equals grid:find_path's (want: from
-- expect_all, or the grid to ask).
local function check_results(want, queries, r, options, what)
  if type(want) ~= "table" then want = expect_all(want, queries, options) end
  assert.are.equal(#queries / 4, r.n, what)
  for i = 1, r.n do
    local path, cost, status = want[i][1], want[i][2], want[i][3]
    if status ~= r.status[i] then
      error(("%s: query %d: status %s, grid says %s"):format(what, i,
        tostring(r.status[i]), tostring(status)), 0)
    end
    if path then
      assert.are.equal(cost, r.cost[i], what)
      assert.are.equal(#path / 2, r.length[i], what)
      for k = 1, #path do
        if path[k] ~= r.path[r.start[i] + k - 1] then
          error(("%s: query %d: path differs at %d"):format(what, i, k), 0)
        end
      end
    else
      assert.are.equal(false, r.cost[i], what)
      assert.are.equal(0, r.length[i], what)
    end
  end
end

local function random_queries(rng, w, h, n)
  local q = {}
  for i = 1, n * 4, 4 do
    q[i], q[i + 1] = rng:int(1, w), rng:int(1, h)
    q[i + 2], q[i + 3] = rng:int(1, w), rng:int(1, h)
  end
  return q
end

local MAZE = [[
..........
.####.###.
.#......#.
.#.#..#.#.
...#..#...
####..####
..........
]]

describe("grid:snapshot", function()
  it("answers as the grid did when it was made, whatever is edited later",
    function()
      local g = astar.from_string(MAZE)
      local s = g:snapshot()
      local before = { g:find_path(1, 1, 10, 7) }
      assert.are.equal(g:version(), s:version())
      g:set_blocked(5, 7, true)
      g:set_blocked(1, 5, true)
      g:fill_rect(7, 7, 4, 1, false)
      local after = { s:find_path(1, 1, 10, 7) }
      assert.are.same(before, after)
      assert.is_table(before[1])
      assert.are.same({ nil, "goal_blocked", 0 }, { g:find_path(1, 1, 10, 7) })
      assert.are.same({ 10, 7 }, { s:size() })
      assert.is_true(s:memory() > 0)
    end)

  it("equals grid:find_path and next_step on random grids", function()
    local rng = helpers.rng(16)
    for _ = 1, 40 do
      local case = helpers.random_case(rng, astar, { width = rng:int(1, 16),
        height = rng:int(1, 16) })
      local s = case.grid:snapshot()
      for _ = 1, 4 do
        local sx, sy = helpers.pick_tile(rng, case)
        local gx, gy = helpers.pick_tile(rng, case)
        assert.are.same({ case.grid:find_path(sx, sy, gx, gy) },
          { s:find_path(sx, sy, gx, gy) })
        assert.are.same({ case.grid:next_step(sx, sy, gx, gy) },
          { s:next_step(sx, sy, gx, gy) })
      end
      s:close()
    end
  end)

  it("takes the grid's options: algorithms, goals, cutoffs, stats, explored",
    function()
      local g = astar.from_string(MAZE)
      local s = g:snapshot()
      local opts = {
        { algorithm = "astar" }, { algorithm = "jps" },
        { algorithm = "dijkstra" }, { algorithm = "bidirectional" },
        { algorithm = "ida" }, { heuristic = "manhattan", weight = 2 },
        { goals = { 10, 1, 1, 7 } }, { max_cost = 5, closest = true },
        { max_length = 4 }, { ties = "random", seed = 3 },
      }
      for _, o in ipairs(opts) do
        assert.are.same({ g:find_path(1, 1, 10, 7, o) },
          { s:find_path(1, 1, 10, 7, o) })
      end
      local st1, st2, ex1, ex2 = {}, {}, {}, {}
      g:find_path(1, 1, 10, 7, { stats = st1, explored = ex1 })
      s:find_path(1, 1, 10, 7, { stats = st2, explored = ex2 })
      assert.are.same(st1, st2)
      assert.are.same(ex1, ex2)
      local out = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                    17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30 }
      local p = s:find_path(1, 1, 3, 1, nil, out)
      assert.are.equal(out, p)
      assert.are.same({ 1, 1, 2, 1, 3, 1 }, p)
    end)

  it("keeps the listed unit classes, by name", function()
    local g = astar.from_string(".~.\n.~.\n...", { ["."] = "grass",
      ["~"] = "water" }, { terrains = { "grass", "water" } })
    g:set_unit("boat", { water = 1, grass = false })
    g:set_unit("walker", { water = false, grass = 1 })
    g:set_unit("swimmer", { water = 3, grass = 1 })
    local all = g:snapshot()
    local some = g:snapshot({ "walker" })
    local walked = { g:find_path(1, 1, 3, 1, { unit = "walker" }) }
    for _, u in ipairs({ "walker", "swimmer" }) do
      assert.are.same({ g:find_path(1, 1, 3, 1, { unit = u }) },
        { all:find_path(1, 1, 3, 1, { unit = u }) })
    end
    assert.are.same({ g:find_path(1, 1, 3, 1, { unit = "walker" }) },
      { some:find_path(1, 1, 3, 1, { unit = "walker" }) })
    assert.are.same({ g:find_path(1, 1, 3, 1) }, { some:find_path(1, 1, 3, 1) })
    assert.are.equal("bad argument #6 to 'find_path' (unit 'swimmer' is not "
      .. "in this snapshot (grid:snapshot(units) left it out))",
      error_of(some.find_path, some, 1, 1, 3, 1, { unit = "swimmer" }))
    assert.are.equal("bad argument #6 to 'find_path' (unit must be the name "
      .. "of a unit class defined with set_unit, got 'tank')",
      error_of(all.find_path, all, 1, 1, 3, 1, { unit = "tank" }))
    assert.are.equal("bad argument #2 to 'snapshot' (unit must be the name "
      .. "of a unit class defined with set_unit, got 'tank')",
      error_of(g.snapshot, g, { "tank" }))
    -- a unit redefined later: the snapshot keeps the old table
    g:set_unit("walker", { water = 1, grass = 1 })
    assert.are_not.same(walked, { g:find_path(1, 1, 3, 1, { unit = "walker" }) })
    assert.are.same(walked, { some:find_path(1, 1, 3, 1, { unit = "walker" }) })
  end)

  it("refuses Lua callbacks, naming the option", function()
    local s = astar.new(3, 3):snapshot()
    for _, name in ipairs({ "tile_cost", "move_cost", "heuristic" }) do
      local msg = error_of(s.find_path, s, 1, 1, 3, 3,
        { [name] = function() return 1 end })
      assert.are.equal("bad argument #6 to 'find_path' (" .. name
        .. ": a snapshot takes no Lua functions (they cannot run on another "
        .. "thread); bake the costs into the grid, or search the grid "
        .. "itself)", msg)
    end
  end)

  it("raises for a closed grid, a closed snapshot and bad arguments",
    function()
      local g = astar.new(4, 4)
      local s = g:snapshot()
      g:close()
      assert.are.equal("snapshot: the grid is closed", error_of(g.snapshot, g))
      -- the snapshot outlives its grid
      assert.are.same({ 4, 4 }, { s:size() })
      assert.is_table(s:find_path(1, 1, 4, 4))
      assert.are.equal("bad argument #2 to 'snapshot' (units must be a list "
        .. "of unit class names, got 5)",
        error_of(astar.new(2, 2).snapshot, astar.new(2, 2), 5))
      assert.are.equal("bad argument #2 to 'find_path' (sx out of range "
        .. "1..4, got 5)", error_of(s.find_path, s, 5, 1, 1, 1))
      assert.is_false(s:is_closed())
      s:close()
      s:close() -- twice is fine
      assert.is_true(s:is_closed())
      assert.are.equal("astar.Snapshot (closed)", tostring(s))
      for _, m in ipairs({ "find_path", "next_step", "find_paths", "token",
                           "size", "version", "memory" }) do
        assert.are.equal(m .. ": the snapshot is closed",
          error_of(s[m], s, 1, 1, 1, 1))
      end
      assert.are.equal("bad argument #1 to 'find_path' (snapshot expected, "
        .. "got 'x')", error_of(s.find_path, "x", 1, 1, 1, 1))
    end)

  it("can be closed by an option's metamethod in the middle of a query",
    function()
      local s = astar.from_string(MAZE):snapshot()
      local opts = setmetatable({}, { __index = function(_, k)
        if k == "weight" then s:close() end
      end })
      assert.are.equal("find_path: the snapshot is closed",
        error_of(s.find_path, s, 1, 1, 10, 7, opts))
    end)
end)

describe("tokens and astar.attach", function()
  it("give another holder of the same snapshot", function()
    local g = astar.from_string(MAZE)
    local s = g:snapshot()
    local tok = s:token()
    assert.are.equal(tok, s:token())
    assert.is_truthy(tok:match("^astar%-snapshot:%x+:%d+:%d+$"))
    local a = astar.attach(tok)
    assert.are_not.equal(s, a)
    assert.are.same({ s:find_path(1, 1, 10, 7) }, { a:find_path(1, 1, 10, 7) })
    s:close() -- the other holder keeps it
    assert.are.same({ g:find_path(1, 1, 10, 7) }, { a:find_path(1, 1, 10, 7) })
    local b = astar.attach(tok)
    a:close()
    b:close()
    collectgarbage()
    collectgarbage()
    assert.are.equal("bad argument #1 to 'attach' (the snapshot of this "
      .. "token was released (no state holds it any more))",
      error_of(astar.attach, tok))
  end)

  it("are refused when forged", function()
    local s = astar.new(2, 2):snapshot()
    local tok = s:token()
    local key, slot, serial = tok:match("^astar%-snapshot:(%x+):(%d+):(%d+)$")
    local forged = {
      "", "astar-snapshot:", "astar-snapshot:zz:0:1", tok .. "0", tok .. " ",
      " " .. tok, "astar-snapshot:" .. key .. ":" .. slot .. ":0",
      "astar-snapshot:" .. key .. ":" .. slot .. ":99999999999",
      "astar-snapshot:" .. key .. ":" .. slot .. ":" .. serial .. "\0",
      "astar-snapshot:" .. key .. ":0" .. slot .. ":" .. serial,
      "astar-snapshot:" .. key .. ":99999999999999999999999:" .. serial,
      ("x"):rep(1000),
    }
    for _, f in ipairs(forged) do
      local msg = error_of(astar.attach, f)
      assert.is_truthy(msg:match("^bad argument #1 to 'attach' %(not a "
        .. "snapshot token: "), msg)
    end
    assert.are.equal("bad argument #1 to 'attach' (token must be a string, "
      .. "got no value)", error_of(astar.attach))
    assert.are.equal("bad argument #1 to 'attach' (token must be a string, "
      .. "got 12)", error_of(astar.attach, 12))
    -- a token of a slot that a later snapshot took: stale, not aliased
    s:close()
    collectgarbage()
    local t = astar.new(3, 3):snapshot()
    local tok2 = t:token()
    assert.are_not.equal(tok, tok2)
    assert.is_truthy(error_of(astar.attach, tok):match("released"))
    t:close()
  end)

  it("of another process are refused", function()
    local s = astar.new(2, 2):snapshot()
    local key = s:token():match("^astar%-snapshot:(%x+):")
    local other = ("%08x"):format((tonumber(key, 16) + 1) % 4294967296)
    assert.are.equal("bad argument #1 to 'attach' (a token of another "
      .. "process (or of another copy of the module))",
      error_of(astar.attach, "astar-snapshot:" .. other .. ":0:1"))
    -- a real token from a child process of the same runtime
    local lua = jit and "luajit" or ("lua" .. _VERSION:match("%d+%.%d+"))
    local dir = jit and "jit" or _VERSION:match("%d+%.%d+")
    local code = ("package.cpath='build/%s/?.so' package.path="
      .. "'lua/?.lua;lua/?/init.lua' local a=require('astar') "
      .. "io.write(a.new(2,2):snapshot():token())"):format(dir)
    local p = io.popen(lua .. " -e \"" .. code .. "\" 2>&1")
    local child = p:read("*a")
    p:close()
    assert.is_truthy(child:match("^astar%-snapshot:"), child)
    local msg = error_of(astar.attach, child)
    -- the child's key differs from ours (or by a 2^-32 chance equals it:
    -- then its slot and serial are unknown here)
    assert.is_truthy(msg:match("another process") or msg:match("released")
      or msg:match("not a snapshot token"), msg)
    s:close()
  end)

  it("attach and release many times leaving one holder", function()
    local s = astar.from_string(MAZE):snapshot()
    local tok = s:token()
    for _ = 1, 200 do
      local a = astar.attach(tok)
      if a:find_path(1, 1, 10, 7) == nil then error("no path") end
      if _ % 2 == 0 then a:close() end
    end
    collectgarbage()
    s:close()
    collectgarbage()
    assert.is_truthy(error_of(astar.attach, tok):match("released"))
  end)
end)

describe("astar.workers", function()
  local function every_thread_count(f)
    for _, n in ipairs({ 1, 2, 4 }) do
      local w = astar.workers(n)
      assert.are.equal(n, w:threads())
      f(w, n)
      w:close()
    end
  end

  it("equals grid:find_path on random grids with 1, 2 and 4 threads",
    function()
      local rng = helpers.rng(1616)
      local cases = {}
      for i = 1, 10 do
        local case = helpers.random_case(rng, astar, { width = rng:int(1, 24),
          height = rng:int(1, 24) })
        local q = random_queries(rng, case.width, case.height, rng:int(0, 30))
        cases[i] = { snap = case.grid:snapshot(), queries = q,
                     want = expect_all(case.grid, q) }
      end
      every_thread_count(function(w, n)
        local ids = {}
        for i, c in ipairs(cases) do ids[i] = w:submit(c.snap, c.queries) end
        for i = #cases, 1, -1 do -- read in another order than submitted
          local c = cases[i]
          check_results(c.want, c.queries, w:results(ids[i]), nil,
            ("case %d, %d threads"):format(i, n))
        end
      end)
    end)

  it("takes options per batch", function()
    local g = astar.from_string(MAZE)
    local s = g:snapshot()
    local q = { 1, 1, 10, 7, 10, 1, 1, 7, 5, 3, 6, 5, 1, 1, 1, 1 }
    local w = astar.workers(2)
    for _, o in ipairs({ { algorithm = "astar" }, { algorithm = "jps" },
                         { algorithm = "bfs" }, { max_cost = 6 },
                         { max_cost = 6, closest = true },
                         { goals = { 10, 1 } }, { heuristic = "zero" },
                         { zones = false }, { weight = 3 } }) do
      check_results(g, q, w:results(w:submit(s, q, o)), o, "options")
      check_results(g, q, astar.unpack_paths(s:find_paths(q, o)), o,
        "find_paths options")
    end
    w:close()
  end)

  it("reuses the results table", function()
    local g = astar.from_string(MAZE)
    local s = g:snapshot()
    local w = astar.workers(1)
    local r = w:results(w:submit(s, { 1, 1, 10, 7, 1, 1, 10, 1 }))
    local path, status = r.path, r.status
    local r2 = w:results(w:submit(s, { 1, 1, 2, 1 }), r)
    assert.are.equal(r, r2)
    assert.are.equal(path, r2.path)
    assert.are.equal(status, r2.status)
    assert.are.same({ 1, 1, 2, 1 }, r2.path)
    assert.are.same({ "found" }, r2.status)
    assert.are.same({ 2 }, r2.length)
    assert.are.equal(1, r2.n)
    local r3 = astar.unpack_paths(s:find_paths({ 10, 7, 9, 7 }), r)
    assert.are.equal(r, r3)
    assert.are.same({ 10, 7, 9, 7 }, r3.path)
    -- paths = false: status, cost and length only
    local r4 = w:results(w:submit(s, { 1, 1, 3, 1, 1, 1, 2, 2 }), r,
      { paths = false })
    assert.are.equal(r, r4)
    assert.is_nil(r4.path)
    assert.is_nil(r4.start)
    assert.are.same({ 3, 0 }, r4.length)
    assert.are.same({ "found", "goal_blocked" }, r4.status)
    assert.are.same({ 2, false }, r4.cost)
    local r5 = astar.unpack_paths(s:find_paths({ 1, 1, 3, 1 }), nil,
      { paths = false })
    assert.are.same({ n = 1, status = { "found" }, cost = { 2 },
                      length = { 3 } }, r5)
    assert.are.equal("bad argument #4 to 'results' (paths must be true, "
      .. "false or 'kept', got 1)", error_of(w.results, w, w:submit(s, {}),
        nil, { paths = 1 }))
    assert.are.equal("bad argument #3 to 'unpack_paths' (unknown option "
      .. "'path')", error_of(astar.unpack_paths, s:find_paths({}), nil,
        { path = false }))
    w:close()
  end)

  it("keeps the paths in one string with paths = 'kept'", function()
    local g = astar.from_string(MAZE)
    local s = g:snapshot()
    local w = astar.workers(2)
    local q = random_queries(helpers.rng(11), 10, 7, 300)
    local full = w:results(w:submit(s, q))
    local r = w:results(w:submit(s, q), nil, { paths = "kept" })
    assert.is_nil(r.path)
    assert.are.equal("string", type(r.paths))
    assert.are.same(full.status, r.status)
    assert.are.same(full.cost, r.cost)
    assert.are.same(full.length, r.length)
    assert.are.same(full.start, r.start)
    local out = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }
    local found = 0
    for i = 1, r.n do
      local want = astar.path_of(full, i)
      local got = astar.path_of(r, i, out)
      if want == nil then
        assert.is_nil(got)
      else
        found = found + 1
        assert.are.equal(out, got)
        assert.are.same(want, got)
        assert.are.same(want, astar.path_of(r, i))
      end
    end
    assert.is_true(found > 100)
    -- from a find_paths string: r.paths is that string
    local packed = s:find_paths(q)
    local u = astar.unpack_paths(packed, nil, { paths = "kept" })
    assert.are.equal(packed, u.paths)
    assert.are.same(full.start, u.start)
    for i = 1, u.n, 7 do
      assert.are.same(astar.path_of(full, i), astar.path_of(u, i))
    end
    -- a reused table lets go of what it held
    local again = w:results(w:submit(s, { 1, 1, 2, 1 }), r)
    assert.are.equal(r, again)
    assert.is_nil(again.paths)
    assert.are.same({ 1, 1, 2, 1 }, again.path)
    w:results(w:submit(s, { 1, 1, 2, 1 }), r, { paths = false })
    assert.is_nil(r.paths)
    assert.is_nil(r.start)
    -- a table whose kept paths were tampered with: an error, no crash
    local t = w:results(w:submit(s, { 1, 1, 10, 7 }), nil, { paths = "kept" })
    t.start[1] = 1e9
    assert.are.equal("bad argument #1 to 'path_of' (r.start and r.length "
      .. "do not match r.paths)", error_of(astar.path_of, t, 1))
    t.start[1] = 1
    t.paths = "not a batch"
    assert.are.equal("bad argument #1 to 'path_of' (r.paths is not a string "
      .. "made by find_paths)", error_of(astar.path_of, t, 1))
    w:close()
  end)

  it("waits, tells done, and forgets a batch once read", function()
    local s = astar.new(64, 64):snapshot()
    local w = astar.workers(2)
    local q = random_queries(helpers.rng(3), 64, 64, 200)
    local id = w:submit(s, q)
    w:wait(id)
    assert.is_true(w:done(id))
    local r = w:results(id)
    assert.are.equal(200, r.n)
    for _, m in ipairs({ "done", "wait", "results" }) do
      assert.are.equal("bad argument #2 to '" .. m .. "' (no batch " .. id
        .. " in this pool (never submitted here, or its results were read "
        .. "already))", error_of(w[m], w, id))
    end
    assert.are.equal("bad argument #2 to 'results' (id must be a batch id "
      .. "(an integer), got 'x')", error_of(w.results, w, "x"))
    assert.are.equal("bad argument #3 to 'results' (out must be a table, "
      .. "got 5)", error_of(w.results, w, id, 5))
    -- an empty batch is done at once
    local e = w:submit(s, {})
    assert.is_true(w:done(e))
    assert.are.equal(0, w:results(e).n)
    w:close()
  end)

  it("raises for bad input, naming the query", function()
    local g = astar.from_string(MAZE)
    local s = g:snapshot()
    local w = astar.workers(1)
    assert.are.equal("bad argument #3 to 'submit' (query 2: gy must be an "
      .. "integer in 1..7, got 8)",
      error_of(w.submit, w, s, { 1, 1, 2, 2, 1, 1, 1, 8 }))
    assert.are.equal("bad argument #3 to 'submit' (query 1: sx must be an "
      .. "integer in 1..10, got 1.5)", error_of(w.submit, w, s, { 1.5, 1, 1, 1 }))
    assert.are.equal("bad argument #3 to 'submit' (query 1: sy must be an "
      .. "integer in 1..7, got 'a')", error_of(w.submit, w, s, { 1, "a", 1, 1 }))
    assert.are.equal("bad argument #3 to 'submit' (queries must hold sx, sy, "
      .. "gx, gy per query (a multiple of 4 numbers), got 3 numbers)",
      error_of(w.submit, w, s, { 1, 1, 1 }))
    assert.are.equal("bad argument #3 to 'submit' (queries must be a table, "
      .. "got nil)", error_of(w.submit, w, s))
    assert.are.equal("bad argument #2 to 'submit' (snapshot expected, got "
      .. "table)", error_of(w.submit, w, {}, {}))
    assert.are.equal("bad argument #2 to 'submit' (snapshot expected, got "
      .. "userdata)", error_of(w.submit, w, g, {}))
    assert.are.equal("bad argument #4 to 'submit' (tile_cost: a snapshot "
      .. "takes no Lua functions (they cannot run on another thread); bake "
      .. "the costs into the grid, or search the grid itself)",
      error_of(w.submit, w, s, {}, { tile_cost = function() end }))
    assert.are.equal("bad argument #4 to 'submit' (stats: not for batches "
      .. "(find_path on the snapshot gives it))",
      error_of(w.submit, w, s, {}, { stats = {} }))
    assert.are.equal("bad argument #4 to 'submit' (unknown option 'colour')",
      error_of(w.submit, w, s, {}, { colour = 1 }))
    assert.are.equal("bad argument #3 to 'find_paths' (explored: not for "
      .. "batches (find_path on the snapshot gives it))",
      error_of(s.find_paths, s, {}, { explored = {} }))
    assert.are.equal("bad argument #2 to 'find_paths' (query 1: gx must be "
      .. "an integer in 1..10, got 0)", error_of(s.find_paths, s, { 1, 1, 0, 1 }))
    assert.are.equal("bad argument #4 to 'submit' (algorithm 'jps' needs "
      .. "uniform tile costs)", error_of(w.submit, w,
        astar.from_string("12\n21"):snapshot(), {}, { algorithm = "jps" }))
    -- the pool still works after each of them
    check_results(g, { 1, 1, 10, 7 }, w:results(w:submit(s, { 1, 1, 10, 7 })),
      nil, "after errors")
    s:close()
    assert.are.equal("submit: the snapshot is closed",
      error_of(w.submit, w, s, {}))
    w:close()
    w:close()
    assert.is_true(w:is_closed())
    assert.are.equal("astar.Workers (closed)", tostring(w))
    for _, m in ipairs({ "submit", "done", "wait", "results", "threads" }) do
      assert.are.equal(m .. ": the worker pool is closed", error_of(w[m], w, 1))
    end
  end)

  it("checks n", function()
    for _, n in ipairs({ 0, -1, 257, 1e9 }) do
      assert.are.equal(("bad argument #1 to 'workers' (n must be an integer "
        .. "in 1..256, got %s)"):format(("%.14g"):format(n)),
        error_of(astar.workers, n))
    end
    for _, n in ipairs({ 1.5, "2", 0 / 0, 1 / 0 }) do
      assert.is_truthy(error_of(astar.workers, n):match(
        "^bad argument #1 to 'workers' %(n must be an integer"))
    end
    local w = astar.workers()
    assert.is_true(w:threads() >= 1)
    w:close()
  end)

  it("closes with batches queued and running, and when collected", function()
    local s = astar.new(128, 128):snapshot()
    local q = random_queries(helpers.rng(7), 128, 128, 300)
    for round = 1, 6 do
      local w = astar.workers(round % 3 + 1)
      for _ = 1, 4 do w:submit(s, q) end
      if round % 2 == 0 then w:close() end
      w = nil -- luacheck: ignore (collected with its batches)
      collectgarbage()
    end
    -- the snapshot is still whole, and the only holder now
    local tok = s:token()
    assert.are.equal(2 * 128, #s:find_path(1, 1, 128, 128)) -- 128 tiles
    s:close()
    collectgarbage()
    assert.is_truthy(error_of(astar.attach, tok):match("released"))
  end)

  it("survives edits and new snapshots between batches", function()
    local rng = helpers.rng(99)
    local g = astar.new(40, 40)
    local w = astar.workers(3)
    local pending = {}
    for round = 1, 12 do
      for _ = 1, 30 do
        g:set_blocked(rng:int(1, 40), rng:int(1, 40), rng:chance(0.6))
      end
      local s = g:snapshot()
      local q = random_queries(rng, 40, 40, 12)
      -- the grid's answers now, before the next edits
      local want = {}
      for i = 1, 12 do
        local k = (i - 1) * 4
        want[i] = { g:find_path(q[k + 1], q[k + 2], q[k + 3], q[k + 4]) }
      end
      pending[#pending + 1] = { id = w:submit(s, q), want = want }
      s:close() -- the batch keeps its own hold
      if round % 4 == 0 then
        for _, p in ipairs(pending) do
          local r = w:results(p.id)
          for i = 1, r.n do
            local path, cost = p.want[i][1], p.want[i][2]
            if type(path) == "table" then
              assert.are.equal(cost, r.cost[i])
              assert.are.equal(#path / 2, r.length[i])
            else
              assert.are.equal(cost, r.status[i])
            end
          end
        end
        pending = {}
      end
    end
    w:close()
  end)
end)

describe("snapshot:find_paths and astar.unpack_paths", function()
  it("pack what a pool would return", function()
    local rng = helpers.rng(5)
    for _ = 1, 12 do
      local case = helpers.random_case(rng, astar, { width = rng:int(1, 20),
        height = rng:int(1, 20) })
      local s = case.grid:snapshot()
      local q = random_queries(rng, case.width, case.height, rng:int(0, 20))
      local packed = s:find_paths(q)
      assert.is_string(packed)
      check_results(case.grid, q, astar.unpack_paths(packed), nil, "packed")
    end
  end)

  it("refuses strings it did not make", function()
    local s = astar.from_string(MAZE):snapshot()
    local good = s:find_paths({ 1, 1, 10, 7, 1, 1, 2, 1 })
    local bad = { "", "ASP1", good:sub(1, -2), good .. "x",
                  "XSP1" .. good:sub(5), good:sub(1, 4) .. "\255" .. good:sub(6) }
    for _, b in ipairs(bad) do
      assert.are.equal("bad argument #1 to 'unpack_paths' (not a string "
        .. "made by find_paths)", error_of(astar.unpack_paths, b))
    end
    assert.are.equal("bad argument #1 to 'unpack_paths' (expected the string "
      .. "of find_paths, got no value)", error_of(astar.unpack_paths))
    assert.are.equal("bad argument #2 to 'unpack_paths' (out must be a table, "
      .. "got 1)", error_of(astar.unpack_paths, good, 1))
  end)

  it("reads one query's path with astar.path_of", function()
    local s = astar.from_string(MAZE):snapshot()
    local r = astar.unpack_paths(s:find_paths({ 1, 1, 3, 1, 1, 1, 1, 1,
                                                1, 1, 2, 2 }))
    assert.are.same({ 1, 1, 2, 1, 3, 1 }, astar.path_of(r, 1))
    assert.are.same({ 1, 1 }, astar.path_of(r, 2))
    assert.is_nil(astar.path_of(r, 3))
    local out = { 9, 9, 9, 9, 9, 9, 9, 9 }
    assert.are.equal(out, astar.path_of(r, 1, out))
    assert.are.same({ 1, 1, 2, 1, 3, 1 }, out)
  end)
end)

describe("workers on the MovingAI maps #slow", function()
  local dir = helpers.maps_dir()
  if not dir then
    helpers.missing_maps(it, pending, "worker spec on real maps")
    return
  end
  local names = { "arena.map", "brc202d.map", "32room_000.map",
                  "AR0011SR.map", "Archipelago.map", "Berlin_0_512.map",
                  "lak303d.map", "maze512-4-0.map", "nighthaven.map",
                  "random512-10-0.map" }
  it("equal grid:find_path for sampled scenarios of every map, 1, 2 and 4 "
    .. "threads", function()
      local pools = { astar.workers(1), astar.workers(2), astar.workers(4) }
      for _, name in ipairs(names) do
        local grid = assert(astar.load_movingai(dir .. "/" .. name))
        local list = assert(astar.read_scenarios(dir .. "/" .. name
          .. ".scen"))
        local q = {}
        local step = math.max(1, math.floor(#list / 12))
        for i = step, #list, step do
          local sc = list[i]
          q[#q + 1], q[#q + 2], q[#q + 3], q[#q + 4] = sc.sx, sc.sy, sc.gx,
            sc.gy
        end
        local s = grid:snapshot()
        local ids = {}
        for k, w in ipairs(pools) do ids[k] = w:submit(s, q) end
        local want = expect_all(grid, q)
        for k, w in ipairs(pools) do
          check_results(want, q, w:results(ids[k]), nil,
            name .. ", " .. w:threads() .. " threads")
        end
        s:close()
        grid:close()
      end
      for _, w in ipairs(pools) do w:close() end
    end)
end)

describe("snapshots and the options of main's issues (merge)", function()
  -- a 12 x 8 map with a wall down x = 6, open at y = 8 only
  local function walled()
    local g = astar.new(12, 8)
    for y = 1, 7 do g:set_blocked(6, y, true) end
    return g
  end

  it("follows the grid's links, and a later unlink leaves the copy alone", function()
    local g = walled()
    g:link(2, 2, 10, 2, 1)
    local snap = g:snapshot()
    local path, cost = g:find_path(1, 1, 11, 1)
    local spath, scost = snap:find_path(1, 1, 11, 1)
    assert.are.equal(cost, scost)
    assert.are.same(path, spath)
    g:unlink(2, 2, 10, 2)
    assert.is_true(select(2, g:find_path(1, 1, 11, 1)) > cost)
    assert.are.equal(cost, select(2, snap:find_path(1, 1, 11, 1)))
    local r = astar.unpack_paths(snap:find_paths({ 1, 1, 11, 1 }))
    assert.are.equal(cost, r.cost[1])
    snap:close()
  end)

  it("takes avoid and extra_cost on find_path and next_step, as the grid does", function()
    local g = walled()
    local snap = g:snapshot()
    local opts = { avoid = { 6, 8 }, extra_cost = { 3, 3, 5, 4, 4, 2 } }
    local want = { g:find_path(1, 1, 11, 1, opts) }
    local got = { snap:find_path(1, 1, 11, 1, opts) }
    assert.are.same(want, got)
    assert.are.equal("no_path", got[2])
    opts.avoid = { 5, 8 }
    local path, cost = g:find_path(1, 1, 11, 1, opts)
    local spath, scost = snap:find_path(1, 1, 11, 1, opts)
    assert.are.same(path, spath)
    assert.are.equal(cost, scost)
    local x, y = g:next_step(1, 1, 11, 1, opts)
    local sx, sy = snap:next_step(1, 1, 11, 1, opts)
    assert.are.same({ x, y }, { sx, sy })
    -- the overlays were this query's only
    assert.are.equal(select(2, g:find_path(1, 1, 11, 1)),
      select(2, snap:find_path(1, 1, 11, 1)))
    assert.is_truthy(error_of(snap.find_path, snap, 1, 1, 11, 1,
      { avoid = { 1 } }):find("avoid must hold x, y pairs", 1, true))
    snap:close()
  end)

  it("refuses what a snapshot or a batch cannot do, naming the option", function()
    local g = walled()
    local snap = g:snapshot()
    local pool = astar.workers(1)
    assert.are.equal("bad argument #6 to 'find_path' (size: a snapshot "
      .. "holds the layers of one-tile units only (size 1), got 2; search "
      .. "the grid itself for bigger units)",
      error_of(snap.find_path, snap, 1, 1, 4, 4, { size = 2 }))
    assert.is_truthy(g:find_path(1, 1, 4, 4, { size = 2 })) -- the grid takes it
    assert.is_truthy(snap:find_path(1, 1, 4, 4, { size = 1 }))
    assert.are.equal("bad argument #6 to 'next_step' (unknown option "
      .. "'remember')", error_of(snap.next_step, snap, 1, 1, 4, 4,
        { remember = false }))
    for _, k in ipairs({ "avoid", "extra_cost" }) do
      local msg = ("%s: not for batches (the same tiles for every query: "
        .. "put them in the grid before the snapshot, or use find_path on "
        .. "the snapshot)"):format(k)
      assert.are.equal("bad argument #3 to 'find_paths' (" .. msg .. ")",
        error_of(snap.find_paths, snap, { 1, 1, 4, 4 }, { [k] = {} }))
      assert.are.equal("bad argument #4 to 'submit' (" .. msg .. ")",
        error_of(pool.submit, pool, snap, { 1, 1, 4, 4 }, { [k] = {} }))
    end
    assert.is_truthy(error_of(pool.submit, pool, snap, { 1, 1, 4, 4 },
      { size = 3 }):find("size: a snapshot holds", 1, true))
    -- everything still works
    local r = pool:results(pool:submit(snap, { 1, 1, 11, 1 }))
    assert.are.equal(select(2, g:find_path(1, 1, 11, 1)), r.cost[1])
    pool:close()
    snap:close()
  end)

  it("is made from a grid with clearance and big units' layers", function()
    local g = walled()
    assert.is_truthy(g:find_path(1, 1, 4, 6, { size = 2 }))
    g:link(1, 1, 12, 1, 3)
    local snap = g:snapshot()
    g:close() -- the copy owns nothing of the grid's
    collectgarbage()
    assert.are.equal(3, select(2, snap:find_path(1, 1, 12, 1)))
    snap:close()
  end)
end)
