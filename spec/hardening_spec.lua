-- A hostile script: grids closed or searched by the Lua code one of their
-- own methods runs (metamethods of option and cost tables, stats tables,
-- callbacks, finalizers), strings with NUL bytes, and the max_length and
-- blocked start/goal rules.  Under the ASan build a crash here is a
-- failure of the run.
local astar = require("astar")
local helpers = require("helpers")

local is54 = _VERSION == "Lua 5.4"

-- The three ways Lua code can close a grid: close(), the finalizer called
-- by hand, and <close> (5.4).
local routes = {
  close = function(g) g:close() end,
  __gc = function(g) debug.getmetatable(g).__gc(g) end,
}
if is54 then
  routes["<close>"] = assert(load([[
    return function(g)
      local c <close> = g
    end
  ]]))()
end

local function route_names()
  local names = {}
  for name in pairs(routes) do names[#names + 1] = name end
  table.sort(names)
  return names
end

-- A table whose reads of key `key` run f first (the key stays absent).
local function trap(key, f)
  return setmetatable({}, { __index = function(_, k)
    if k == key then f() end
    return nil
  end })
end

-- Runs f with an eager collector (a new cycle as soon as one ends, big
-- steps), then puts the collector back as it was (mode and parameters:
-- the GC stress run sets its own).  Pause 0 on 5.4 only: 5.1-5.3 then
-- collect at every allocation, which in a full test run (a big heap)
-- takes minutes; 100 starts each cycle as the last one ends.
local function eager(f)
  collectgarbage("collect")
  local mode = is54 and collectgarbage("incremental") -- the previous mode
  local pause = collectgarbage("setpause", is54 and 0 or 100)
  local stepmul = collectgarbage("setstepmul", 400)
  local ok, err = pcall(f)
  collectgarbage("setpause", pause)
  collectgarbage("setstepmul", stepmul)
  if mode == "generational" then collectgarbage("generational") end
  collectgarbage("collect")
  if not ok then error(err, 0) end
end

local function closed_error(fname)
  return fname .. ": the grid is closed"
end

describe("a grid closed by Lua code its own method runs", function()
  for _, route in ipairs(route_names()) do
    local close = routes[route]

    it(route .. " from the options of find_path and next_step", function()
      for _, fname in ipairs({ "find_path", "next_step" }) do
        for _, key in ipairs({ "heuristic", "unit", "algorithm", "stats",
                               "goals", "tile_cost", "max_cost" }) do
          local g = astar.new(8, 8)
          local opts = trap(key, function() close(g) end)
          local ok, err = pcall(g[fname], g, 1, 1, 8, 8, opts)
          assert.is_false(ok)
          assert.are.equal(closed_error(fname), err)
          assert.are.equal("astar.Grid (closed)", tostring(g))
          assert.are.equal(closed_error("width"),
                           select(2, pcall(g.width, g)))
        end
      end
    end)

    it(route .. " from the options, before goals that need the grid's size",
       function()
      local g = astar.new(8, 8)
      local opts = setmetatable({ goals = { 8, 8 } }, { __index = function(_, k)
        if k == "heuristic" then close(g) end
      end })
      local ok, err = pcall(g.find_path, g, 1, 1, nil, nil, opts)
      assert.is_false(ok)
      assert.are.equal(closed_error("find_path"), err)
    end)

    it(route .. " from the cost table and the options of set_unit",
       function()
      local g = astar.new(8, 8)
      local costs = trap("*", function() close(g) end)
      local ok, err = pcall(g.set_unit, g, "tank", costs)
      assert.is_false(ok)
      assert.are.equal(closed_error("set_unit"), err)
      g = astar.new(8, 8)
      local opts = trap("climb", function() close(g) end)
      ok, err = pcall(g.set_unit, g, "tank", { ["*"] = 2 }, opts)
      assert.is_false(ok)
      assert.are.equal(closed_error("set_unit"), err)
    end)

    it(route .. " from the options of set_movement", function()
      local g = astar.new(8, 8)
      local opts = trap("cardinal", function() close(g) end)
      local ok, err = pcall(g.set_movement, g, opts)
      assert.is_false(ok)
      assert.are.equal(closed_error("set_movement"), err)
    end)

    it(route .. " from a callback: the search ends, then the grid is closed",
       function()
      for _, key in ipairs({ "tile_cost", "move_cost", "heuristic" }) do
        local g = astar.new(10, 10)
        local done = false
        local function once()
          if not done then
            done = true
            close(g)
          end
        end
        local opts = {
          tile_cost = key == "tile_cost"
            and function(_, _, c) once() return c end or nil,
          move_cost = key == "move_cost"
            and function(_, _, _, _, c) once() return c end or nil,
          heuristic = key == "heuristic"
            and function() once() return 0 end or nil,
        }
        local path, cost = g:find_path(1, 1, 10, 10, opts)
        assert.are.equal(20, #path)
        assert.is_true(math.abs(cost - 9 * math.sqrt(2)) < 1e-9)
        assert.is_true(done)
        assert.are.equal("astar.Grid (closed)", tostring(g))
        assert.are.equal(closed_error("find_path"),
                         select(2, pcall(g.find_path, g, 1, 1, 2, 2)))
      end
    end)

    it(route .. " from a fill function", function()
      local g = astar.new(6, 6)
      local ok, err = pcall(g.fill, g, function(x, y)
        if x == 3 and y == 2 then close(g) end
        return 2
      end)
      assert.is_false(ok)
      assert.are.equal(closed_error("fill"), err)
      assert.are.equal("astar.Grid (closed)", tostring(g))
    end)

    it(route .. " from a stats table: the answer is the search's own",
       function()
      local g = astar.new(20, 20)
      local stats = setmetatable({}, { __newindex = function(t, k, v)
        rawset(t, k, v)
        close(g)
      end })
      local path = g:find_path(1, 1, 20, 20, { stats = stats })
      assert.are.equal(40, #path)
      assert.are.same({ 1, 1 }, { path[1], path[2] })
      assert.are.same({ 20, 20 }, { path[39], path[40] })
      assert.are.equal("found", rawget(stats, "status"))
      local x, y = astar.new(5, 5):next_step(1, 1, 5, 5, { stats = stats })
      assert.are.same({ 2, 2 }, { x, y })
    end)
  end

  -- #slow: the eager collector makes these long under valgrind; the GC
  -- stress run (which skips #slow too) is an eager collector of its own
  it("a finalizer may close any grid at any allocation #slow", function()
    -- each round: a finalizer that closes the grid, a method on it with
    -- the collector so eager that the finalizer runs at the method's
    -- first allocation (or before, or after: all are fine)
    local methods = {
      function(g) return g:get_cost(2, 2, "default") end,
      function(g) return g:find_path(1, 1, 12, 12, { unit = "default" }) end,
      function(g) return g:next_step(1, 1, 12, 12) end,
      function(g) return g:zone(3, 3, "default") end,
      function(g) return g:get_terrain(3, 3) end,
      function(g) return g:get_movement() end,
      function(g) return tostring(g) end,
      function(g) return g:set_unit("u", { ["*"] = 2 }) end,
      function(g) return g:define_terrain("sand") end,
      function(g) return g:find_path(1, 1, 12, 12, { stats = {},
                                                    explored = {} }) end,
    }
    local outcomes = { ok = 0, closed = 0 }
    eager(function()
      for round = 1, 100 do
        for m, method in ipairs(methods) do
          local g = astar.new(12, 12)
          helpers.finalizer(function() g:close() end)
          local ok, err = pcall(method, g)
          if ok then
            outcomes.ok = outcomes.ok + 1
          else
            assert.is_truthy(tostring(err):find("the grid is closed", 1, true),
                             "round " .. round .. ", method " .. m .. ": "
                             .. tostring(err))
            outcomes.closed = outcomes.closed + 1
          end
        end
      end
    end)
    -- (when a finalizer runs is the collector's choice: before the
    -- method, inside it or after it, all three are fine; what may not
    -- happen is a crash or another error)
    assert.are.equal(1000, outcomes.ok + outcomes.closed)
  end)

  it("close is idempotent, and a closed grid says so", function()
    local g = astar.new(4, 4)
    assert.is_false(g:is_closed())
    g:close()
    g:close()
    assert.is_true(g:is_closed())
    debug.getmetatable(g).__gc(g)
    assert.are.equal(closed_error("find_path"),
                     select(2, pcall(g.find_path, g, 1, 1, 2, 2)))
    assert.are.equal("bad argument #1 to 'close' (grid expected, got nil)",
                     select(2, pcall(g.close, nil)))
  end)
end)

describe("searches started from inside another search's read-out", function()
  it("a search started by a stats table keeps the outer answer", function()
    local g = astar.new(20, 20)
    local inner
    local stats = setmetatable({}, { __newindex = function(t, k, v)
      rawset(t, k, v)
      if not inner then inner = g:find_path(20, 20, 1, 1) end
    end })
    local path = g:find_path(1, 1, 20, 20, { stats = stats })
    assert.are.same({ 1, 1 }, { path[1], path[2] })
    assert.are.same({ 20, 20 }, { path[#path - 1], path[#path] })
    assert.are.same({ 20, 20 }, { inner[1], inner[2] })
    local x, y = g:next_step(1, 1, 20, 20, { stats = setmetatable({}, {
      __newindex = function(t, k, v)
        rawset(t, k, v)
        g:find_path(20, 20, 15, 1)
      end }) })
    assert.are.same({ 2, 2 }, { x, y })
  end)

  it("finalizers that search the same grid never change the outer answer "
     .. "#slow", function()
    local g = astar.from_string(table.concat({
      "..........", ".########.", "..........", ".########.",
      "..........", }, "\n"))
    local want = g:find_path(1, 1, 10, 5)
    local inner = { ok = 0, busy = 0 }
    local wrong = 0
    eager(function()
      for i = 1, 1000 do -- 2,000 queries, a finalizer searching among them
        helpers.finalizer(function()
          local ok, p = pcall(g.find_path, g, 10, 5, 1, 1)
          if ok then
            assert(p[1] == 10 and p[2] == 5)
            inner.ok = inner.ok + 1
          else
            assert(tostring(p):find("busy", 1, true), tostring(p))
            inner.busy = inner.busy + 1
          end
        end)
        local path = g:find_path(1, 1, 10, 5, nil, (i % 2 == 0) and {} or nil)
        local x, y = g:next_step(1, 1, 10, 5)
        if #path ~= #want or x ~= want[3] or y ~= want[4] then
          wrong = wrong + 1
        else
          for k = 1, #want do
            if path[k] ~= want[k] then
              wrong = wrong + 1
              break
            end
          end
        end
      end
    end)
    assert.are.equal(0, wrong)
    assert.is_true(inner.ok + inner.busy > 0)
  end)
end)

describe("strings are compared with their length", function()
  local g = astar.new(5, 5)
  local function err(f, ...)
    return select(2, pcall(f, ...))
  end
  it("an option key with a NUL byte is unknown", function()
    assert.are.equal("bad argument #6 to 'find_path' (unknown option "
      .. "'max_nodes\\0')",
      err(g.find_path, g, 1, 1, 5, 5, { ["max_nodes\0"] = 1 }))
  end)
  it("names with a NUL byte match no name", function()
    assert.are.equal("bad argument #2 to 'set_movement' (diagonals must be "
      .. "one of 'no_corner_cut', 'one_free', 'always', 'never', 'hex', got "
      .. "'hex\\0!!')",
      err(g.set_movement, g, { diagonals = "hex\0!!" }))
    assert.are.equal("bad argument #6 to 'find_path' (algorithm must be one "
      .. "of 'auto', 'astar', 'jps', 'dijkstra', 'bfs', 'greedy', "
      .. "'weighted', 'beam', 'ida', 'bidirectional', 'bidirectional_bfs', "
      .. "'theta', 'lazy_theta', got 'ida\\0x')",
      err(g.find_path, g, 1, 1, 5, 5, { algorithm = "ida\0x" }))
    assert.are.equal("bad argument #6 to 'find_path' (ties must be one of "
      .. "'larger_g', 'straight', 'random', got 'random\\0')",
      err(g.find_path, g, 1, 1, 5, 5, { ties = "random\0" }))
  end)
  it("a cost table key '*' with a NUL byte is no '*'", function()
    assert.are.equal("bad argument #3 to 'set_unit' (costs keys must be a "
      .. "defined terrain name or an integer 0..255 or '*', got '*\\0')",
      err(g.set_unit, g, "u", { ["*\0"] = 2 }))
  end)
end)

describe("max_length", function()
  it("finds a path within the length when one exists", function()
    local g = astar.from_string(".999.\n.....", nil, { diagonals = "never" })
    local path, cost = g:find_path(1, 1, 5, 1, { max_length = 4 })
    assert.are.same({ 1, 1, 2, 1, 3, 1, 4, 1, 5, 1 }, path)
    assert.are.equal(28, cost)
    local none, why = g:find_path(1, 1, 5, 1, { max_length = 3 })
    assert.is_nil(none)
    assert.are.equal("cutoff", why)
    -- without the limit the cheaper, longer way round
    assert.are.equal(6, select(2, g:find_path(1, 1, 5, 1)))
  end)

  it("answers cutoff only when no path of that many steps exists",
     function()
    local rng = helpers.rng(20261124)
    local checked, found = 0, 0
    for _ = 1, 300 do
      local w, h = rng:int(3, 9), rng:int(3, 9)
      local diag = ({ "never", "no_corner_cut", "always" })[rng:int(1, 3)]
      local g = astar.new(w, h, { diagonals = diag })
      for y = 1, h do
        for x = 1, w do
          local r = rng:int(1, 10)
          if r <= 2 then g:set_blocked(x, y)
          elseif r <= 5 then g:set_cost(x, y, rng:int(2, 9)) end
        end
      end
      local sx, sy, gx, gy = rng:int(1, w), rng:int(1, h), rng:int(1, w),
                             rng:int(1, h)
      local desc = helpers.desc_of_grid(g)
      local steps = helpers.bfs_steps(desc, sx, sy, gx, gy)
      if steps and steps > 0 then
        for _, limit in ipairs({ steps - 1, steps, steps + 2 }) do
          if limit >= 1 then
            local path, why = g:find_path(sx, sy, gx, gy,
                                          { max_length = limit })
            checked = checked + 1
            if limit < steps then
              assert.is_nil(path)
              assert.are.equal("cutoff", why)
            else
              assert.is_table(path, "a path of " .. steps .. " steps exists")
              assert.is_true(#path / 2 - 1 <= limit)
              assert.is_truthy(helpers.check_path(desc, path, sx, sy, gx, gy))
              found = found + 1
            end
          end
        end
      end
    end
    assert.is_true(checked > 200 and found > 100)
  end)
end)
