-- field:next_step and field:steps take a shortcut through LuaJIT's ffi when
-- nothing is out of the ordinary (lua/astar/init.lua, src/lua_field_read.c):
-- under LuaJIT these check that the shortcut gives exactly what the
-- methods give, that anything unusual reaches the methods (their errors
-- included), and that the shortcut is really installed.  On the other
-- runtimes the same checks run against the methods alone.
local astar = require("astar")
local helpers = require("helpers")

-- A table with a metatable is "out of the ordinary": steps then runs the
-- method itself (the Lua API path), the reference here.
local function plain(t)
  local copy = {}
  for k, v in pairs(t) do copy[k] = v end
  return copy
end

local function c_steps(f, pos, out)
  return f:steps(setmetatable(plain(pos), {}),
    out and setmetatable(out, {}) or nil)
end

local function random_field(rng)
  local case = helpers.random_case(rng, astar, {
    width = rng:int(1, 16), height = rng:int(1, 16),
  })
  local g = case.grid
  local gx, gy = helpers.pick_tile(rng, case)
  local opts = {}
  if rng:chance(0.3) then opts.direction = "from" end
  if rng:chance(0.2) then
    opts.avoid = { rng:int(1, case.width), rng:int(1, case.height) }
  end
  if rng:chance(0.2) then opts.size = 2 end
  if rng:chance(0.2) then
    local ax, ay = helpers.pick_tile(rng, case)
    local bx, by = helpers.pick_tile(rng, case)
    if (ax ~= bx or ay ~= by) and not g:is_blocked(ax, ay)
        and not g:is_blocked(bx, by) then
      g:link(ax, ay, bx, by, rng:int(0, 5))
    end
  end
  if g:is_blocked(gx, gy) then return case, nil end -- all walls
  local ok, f = pcall(g.field, g, gx, gy, opts)
  if not ok then -- e.g. a goal a 2 x 2 unit cannot stand on
    f = g:field(gx, gy)
  end
  return case, f
end

describe("field shortcuts (LuaJIT's ffi)", function()
  it("are installed under LuaJIT, and only there", function()
    assert.are.equal(jit ~= nil, astar._ffi_fields)
  end)

  it("give what the methods give, on random fields of every kind", function()
    local rng = helpers.rng(20261124)
    local tested = 0
    local cases = helpers.cases(120)
    for _ = 1, cases do
      local case, f = random_field(rng)
      if f then
        tested = tested + 1
        local pos = {}
        for y = 1, case.height do
          for x = 1, case.width do
            pos[#pos + 1] = x
            pos[#pos + 1] = y
          end
        end
        local fast = f:steps(pos)
        local slow = c_steps(f, pos)
        assert.are.same(plain(slow), fast)
        for k = 1, #pos, 2 do
          local x, y = pos[k], pos[k + 1]
          local nx, ny, cost = f:next_step(x, y)
          local here = f:get(x, y)
          if here == nil then
            assert.are.same({ nil, "no_path" }, { nx, ny })
            assert.are.same({ x, y }, { fast[k], fast[k + 1] })
          elseif nx == nil then
            assert.are.equal("goal", ny)
            assert.are.same({ x, y }, { fast[k], fast[k + 1] })
          else
            -- the first of the best steps, as steps without a seed takes
            assert.are.same({ fast[k], fast[k + 1] }, { nx, ny })
            assert.is_true(helpers.close(cost + f:get(nx, ny), here, 1e-5))
          end
        end
      end
      case.grid:close()
    end
    assert.is_true(tested > cases * 2 / 3)
  end)

  it("fill out as the method does: in place, a longer old list cleared",
    function()
      local g = astar.new(8, 8)
      local f = g:field(8, 8)
      local pos = { 1, 1, 2, 2, 8, 8 }
      local out = { 0, 0, 0, 0, 0, 0, 7, 7, 7 }
      assert.are.equal(out, f:steps(pos, out))
      assert.are.same({ 2, 2, 3, 3, 8, 8 }, out)
      assert.are.equal(pos, f:steps(pos, pos)) -- each unit moves once
      assert.are.same({ 2, 2, 3, 3, 8, 8 }, pos)
      assert.are.same({}, f:steps({}))
      local grown = {}
      for k = 1, 1200 do grown[k] = (k % 8) + 1 end
      local slow = c_steps(f, grown)
      assert.are.same(plain(slow), f:steps(grown))
      g:close()
    end)

  it("leave errors to the methods, with the methods' words", function()
    local g = astar.new(5, 5)
    local f = g:field(3, 3)
    assert.are.equal("bad argument #2 to 'next_step' (x must be an integer, "
      .. "got 1.5)", helpers.error_of(f.next_step, f, 1.5, 1))
    assert.are.equal("bad argument #3 to 'next_step' (y out of range 1..5, "
      .. "got 6)", helpers.error_of(f.next_step, f, 1, 6))
    assert.are.equal("bad argument #2 to 'steps' (positions[3] (x of unit 2) "
      .. "must be an integer in 1..5, got 0)",
      helpers.error_of(f.steps, f, { 1, 1, 0, 1 }))
    assert.are.equal("bad argument #2 to 'steps' (positions[2] (y of unit 1) "
      .. "must be an integer in 1..5, got '2')",
      helpers.error_of(f.steps, f, { 1, "2" }))
    assert.matches("field expected", helpers.error_of(f.next_step, g, 1, 1))
    assert.matches("field expected", helpers.error_of(f.steps, {}, {}))
    -- and the objects still work
    assert.are.same({ 2, 2 }, f:steps({ 1, 1 }))
    g:close()
    assert.matches("closed", helpers.error_of(f.next_step, f, 1, 1))
    assert.matches("closed", helpers.error_of(f.steps, f, { 1, 1 }))
    f:close()
    assert.matches("closed", helpers.error_of(f.next_step, f, 1, 1))
  end)

  it("see edits and reuse: the field read is the one of the moment", function()
    local g = astar.new(6, 1)
    local f = g:field(6, 1)
    assert.are.same({ 2, 1, 1 }, { f:next_step(1, 1) })
    g:set_cost(1, 1, 5) -- an edit: the field keeps its values
    local nx, ny = f:next_step(1, 1)
    assert.are.same({ 2, 1 }, { nx, ny })
    g:field(1, 1, nil, f) -- rebuilt in place toward the other end
    assert.are.same({ nil, "goal" }, { f:next_step(1, 1) })
    assert.are.same({ 1, 1, 5, 1 }, f:steps({ 1, 1, 6, 1 }))
    g:close()
  end)

  it("answer a field's own build callback with the method's error", function()
    local g = astar.new(4, 4)
    local f = g:field(4, 4)
    local err
    g:field(1, 1, { tile_cost = function()
      if err == nil then
        err = helpers.error_of(f.next_step, f, 2, 2)
      end
      return 1
    end }, f)
    assert.matches("busy", err)
    local nx, ny = f:next_step(3, 3)
    assert.are.same({ 2, 2 }, { nx, ny })
    g:close()
  end)
end)
