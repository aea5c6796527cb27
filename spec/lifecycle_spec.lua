-- Grids as Lua objects: garbage collection, __close, closed grids.
local astar = require("astar")
local helpers = require("spec.helpers")

describe("grid lifecycle", function()
  it("makes the collector reclaim dropped big grids as it goes", function()
    -- A grid's arrays are invisible to collectgarbage("count"); creating
    -- one makes the collector do the work their size would have caused, so
    -- dropped grids are reclaimed without any explicit collect.
    local keep = astar.new(50, 50)
    local alive = setmetatable({}, {__mode = "v"})  -- weak values drop at once
    collectgarbage("collect")
    for i = 1, 40 do
      local g = astar.new(500 + i, 400)     -- ~2.7 MB each with scratch
      assert.is_table(g:find_path(1, 1, 500 + i, 400))
      alive[i] = g
    end
    local left = 0
    for _ in pairs(alive) do left = left + 1 end
    assert.is_true(left < 20, left .. " of 40 dropped grids still alive")
    local path, cost = keep:find_path(1, 1, 50, 50)
    assert.are.equal(100, #path)
    assert.is_true(math.abs(cost - 49 * math.sqrt(2)) < 1e-9)
  end)

  it("holds little memory for dropped grids, without collectgarbage()",
     function()
    -- the issue's case, smaller: grids searched once (scratch and zone
    -- labels grown after creation) and dropped; the memory of those not
    -- yet collected stays a few grids' worth on every runtime
    collectgarbage("collect")
    local alive = setmetatable({}, { __mode = "v" })
    local one
    for i = 1, 20 do
      local g = astar.new(400, 400)
      assert.is_table(g:find_path(1, 1, 400, 400, { algorithm = "astar" }))
      assert.is_number(g:zone(1, 1))
      one = one or g:memory()
      alive[i] = g
    end
    local held, left = 0, 0
    for _, g in pairs(alive) do
      left = left + 1
      if not g:is_closed() then held = held + g:memory() end
    end
    assert.is_true(held <= 4 * one,
      ("%d of 20 grids alive, %.1f MB held (one grid: %.1f MB)"):format(
        left, held / 1e6, one / 1e6))
  end)

  it("searches, copies, edits and frees grids whose arrays are big blocks "
     .. "(huge pages where the system has them)", function()
    -- 800 x 800: the costs, the zone labels, their flood's queue and the
    -- search's stamps are 2.6 MB each, past the 2 MB where they are
    -- asked for in huge pages; a snapshot copies the costs and labels
    local n = 800
    local g = astar.new(n, n)
    for y = 2, n - 1, 4 do
      for x = 1, n - 2 do g:set_blocked(x, y, true) end -- a comb
    end
    local path, cost = g:find_path(1, 1, 1, n, { algorithm = "astar" })
    assert.is_table(path)
    local jps_path, jps_cost = g:find_path(1, 1, 1, n, { algorithm = "jps" })
    assert.is_table(jps_path)
    assert.is_true(math.abs(cost - jps_cost) < 1e-6)
    assert.are.equal(g:zone(1, 1), g:zone(1, n))
    local snap = g:snapshot()
    local s_path, s_cost = snap:find_path(1, 1, 1, n)
    assert.is_table(s_path)
    assert.is_true(math.abs(s_cost - cost) < 1e-6)
    g:set_blocked(n - 1, 2, true) -- the corridor's end: the two halves part
    g:set_blocked(n, 2, true)
    assert.is_nil(g:find_path(1, 1, 1, n))
    assert.are_not.equal(g:zone(1, 1), g:zone(1, n))
    local again = snap:find_path(1, 1, 1, n) -- the copy keeps its map
    assert.is_table(again)
    snap:close()
    g:close()
    local freed = false
    do
      local h = astar.new(n, n)
      assert.is_table(h:find_path(1, 1, n, n))
      local _ = helpers.finalizer(function() freed = true end)
    end
    collectgarbage()
    collectgarbage()
    assert.is_true(freed) -- the collector ran: h's arrays went with it
  end)

  it("close frees at once; the grid is then closed", function()
    local g = astar.new(100, 100)
    assert.is_table(g:find_path(1, 1, 100, 100))
    assert.is_true(g:memory() > 100 * 100 * 13)
    g:close()
    assert.is_true(g:is_closed())
    assert.are.equal("astar.Grid (closed)", tostring(g))
    assert.are.equal("memory: the grid is closed",
                     select(2, pcall(g.memory, g)))
    assert.are.equal("version: the grid is closed",
                     select(2, pcall(g.version, g)))
  end)

  it("counts edits in version()", function()
    local g = astar.new(6, 6)
    local v = g:version()
    assert.is_number(v)
    local function moved(f)
      local before = g:version()
      f()
      local after = g:version()
      assert.is_true(after > before)
    end
    moved(function() g:set_cost(2, 2, 3) end)
    moved(function() g:set_blocked(3, 3) end)
    moved(function() g:fill(2) end)
    moved(function() g:fill_rect(1, 1, 2, 2, false) end)
    moved(function() g:set_movement({ diagonals = "never" }) end)
    moved(function() g:define_terrain("mud"); g:set_terrain(4, 4, "mud") end)
    moved(function() g:set_height(5, 5, 3) end)
    moved(function() g:set_unit("u", { mud = 3 }) end)
    moved(function() g:load_string("......\n......\n......\n......\n......\n......") end)
    -- reading and searching do not
    local before = g:version()
    g:find_path(1, 1, 6, 6)
    g:get_cost(1, 1)
    g:zone(1, 1)
    assert.are.equal(before, g:version())
    -- a refused edit does not either
    pcall(g.set_cost, g, 1, 1, -1)
    pcall(g.set_movement, g, { diagonals = "nope" })
    assert.are.equal(before, g:version())
    assert.is_true(g:version() > v)
  end)

  it("can be collected with a path table still alive", function()
    local path
    do
      local g = astar.new(10, 10)
      path = g:find_path(1, 1, 10, 10)
    end
    collectgarbage("collect")
    collectgarbage("collect")
    assert.are.same({1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10}, path)
  end)

  it("hides its metatable", function()
    assert.are.equal("astar.Grid", getmetatable(astar.new(2, 2)))
  end)

  if _VERSION == "Lua 5.4" then
    it("is released by <close>, and a closed grid refuses to work", function()
      local chunk = assert(load([[
        local astar = ...
        local outer
        do
          local g <close> = astar.new(4, 4)
          outer = g
          assert(g:find_path(1, 1, 4, 4))
        end
        return outer
      ]]))
      local g = chunk(astar)
      assert.are.equal("astar.Grid (closed)", tostring(g))
      local ok, err = pcall(g.find_path, g, 1, 1, 2, 2)
      assert.is_false(ok)
      assert.are.equal("find_path: the grid is closed", err)
      ok, err = pcall(g.set_cost, g, 1, 1, 2)
      assert.is_false(ok)
      assert.are.equal("set_cost: the grid is closed", err)
      -- the later __gc of a closed grid is harmless
      g = nil
      collectgarbage("collect")
    end)
  end
end)
