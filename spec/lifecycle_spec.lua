-- Grids as Lua objects: garbage collection, __close, closed grids.
local astar = require("astar")

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
