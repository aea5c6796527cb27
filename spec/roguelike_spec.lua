-- The roguelike example (examples/roguelike): its rules, checked from
-- outside. Guard moves are checked against the grid's own answers (unit
-- costs, find_path) and an independent corner rule; the command line is
-- run as a child process of the same Lua runtime.
local saved_path = package.path
package.path = "examples/?.lua;" .. package.path
local game = require("roguelike.game")
local level = require("roguelike.level")
package.path = saved_path   -- leave no trace in the other specs' runs
local helpers = require("helpers")

---------------------------------------------------------------------------
-- Helpers
---------------------------------------------------------------------------

local function guard_tiles(state)
  local tiles = {}
  for i, guard in ipairs(state.guards) do
    tiles[i] = { x = guard.x, y = guard.y }
  end
  return tiles
end

local function open_for_guard(grid, x, y)
  local w, h = grid:size()
  return x >= 1 and y >= 1 and x <= w and y <= h
    and grid:get_cost(x, y, "guard") ~= false
end

-- Whether a guard may step from (x, y) to (nx, ny) on a no_corner_cut
-- grid: one tile away, onto a tile it can enter, and a diagonal only when
-- both tiles beside it are open to it too.
local function legal_guard_step(grid, x, y, nx, ny)
  local dx, dy = nx - x, ny - y
  if math.max(math.abs(dx), math.abs(dy)) ~= 1 then return false end
  if not open_for_guard(grid, nx, ny) then return false end
  if dx ~= 0 and dy ~= 0 then
    return open_for_guard(grid, x + dx, y) and open_for_guard(grid, x, y + dy)
  end
  return true
end

-- After a turn: every guard waited or took one legal step, and no two of
-- them (nor a guard and the thief) share a tile.
local function check_turn(state, before)
  local taken = { [state.thief.x .. "," .. state.thief.y] = "thief" }
  for i, guard in ipairs(state.guards) do
    local old = before[i]
    local moved = guard.x ~= old.x or guard.y ~= old.y
    assert(not moved or legal_guard_step(state.grid, old.x, old.y, guard.x,
      guard.y), ("turn %d: guard %s stepped from %d,%d to %d,%d")
      :format(state.turn, guard.name, old.x, old.y, guard.x, guard.y))
    local key = guard.x .. "," .. guard.y
    assert(not taken[key], ("turn %d: guard %s on the tile of %s")
      :format(state.turn, guard.name, tostring(taken[key])))
    taken[key] = guard.name
  end
end

-- Plays up to `turns` turns (fewer when the game ends), the thief moved by
-- `act(state)` (which plays the turn), checking every turn.
local function play(state, turns, act)
  while state.turn < turns and not state.over do
    local before, turn = guard_tiles(state), state.turn
    act(state)
    assert.are.equal(turn + 1, state.turn)
    check_turn(state, before)
  end
end

local function demo_thief(state)
  assert.is_true((game.turn(state, game.plan_thief(state))))
end

local function waiting_thief(state)
  assert.is_true((game.turn(state, 0, 0)))
end

-- A thief that tries random directions until one is legal (waiting always
-- is), from a helpers.rng.
local function random_thief(rng)
  return function(state)
    repeat
      local dx, dy = rng:int(-1, 1), rng:int(-1, 1)
    until game.turn(state, dx, dy)
  end
end

-- A thief that plays the moves of a string of keys, then waits.
local MOVES = { h = { -1, 0 }, l = { 1, 0 }, j = { 0, 1 }, k = { 0, -1 } }
local function scripted_thief(keys)
  return function(state)
    local move = MOVES[keys:sub(state.turn + 1, state.turn + 1)]
      or { 0, 0 }
    assert.is_true((game.turn(state, move[1], move[2])))
  end
end

-- The demo's lines for `turns` turns of the scripted thief.
local function demo_lines(seed, turns)
  local state = game.new({ seed = seed })
  local lines = { game.render(state, false) }
  play(state, turns, function(s)
    demo_thief(s)
    table.insert(lines, game.summary(s))
  end)
  table.insert(lines, game.render(state, false))
  return lines, state
end

---------------------------------------------------------------------------
-- The command line, in a child process of this runtime
---------------------------------------------------------------------------

local LUA = jit and "luajit" or "lua" .. _VERSION:match("%d+%.%d+")
local MAIN = LUA .. " examples/roguelike/main.lua"

-- The exit status of a shell command (os.execute differs: 5.1 and LuaJIT
-- give the raw wait status, 5.2+ true/nil, "exit", code).
local function exit_status(command)
  local a, _, code = os.execute(command)
  if type(a) == "number" then return math.floor(a / 256) end
  return code
end

local function output_of(command)
  local pipe = assert(io.popen(command))
  local text = pipe:read("*a")
  pipe:close()
  return text
end

---------------------------------------------------------------------------
-- Specs
---------------------------------------------------------------------------

describe("roguelike example", function()
  it("builds the house from level.lua and draws it back unchanged", function()
    local state = game.new()
    local movement = state.grid:get_movement()
    assert.are.equal("no_corner_cut", movement.diagonals)
    assert.are.same({ 2, 3 }, { movement.cardinal, movement.diagonal })
    local map = game.render(state, false)
    assert.are.equal(level.map, map:sub(1, #level.map))
    assert.is_nil(map:find("\27[", 1, true))
    assert.truthy(game.render(state, true):find("\27[", 1, true))
    assert.are.same({ "A", "B", "C", "D" }, {
      state.guards[1].name, state.guards[2].name,
      state.guards[3].name, state.guards[4].name })
  end)

  it("prices terrain per unit class", function()
    local grid = game.new().grid
    local x, y = 10, 6   -- a window in the west wall
    assert.are.equal("window", grid:get_terrain(x, y))
    assert.are.equal(2, grid:get_cost(x, y, "thief"))
    assert.are.equal(5, grid:get_cost(x, y, "guard"))
    assert.are.equal(3, grid:get_cost(1, 1, "thief"))   -- the moat
    assert.is_false(grid:get_cost(1, 1, "guard"))
  end)

  it("breaks a window the thief climbs through (set_terrain)", function()
    local state = game.new({ map = "@=.A" })
    assert.is_true((game.turn(state, 1, 0)))
    assert.are.equal("broken", state.grid:get_terrain(2, 1))
    assert.are.equal(2, state.grid:get_cost(2, 1, "guard"))
    assert.are.equal(1, state.grid:get_cost(2, 1, "thief"))
    assert.are.same({ "crash! a window breaks" }, state.events)
  end)

  it("refuses illegal thief moves without playing a turn", function()
    local state = game.new({ map = "#@A\n,,." })
    local cases = { { -1, 0 }, { 1, 0 }, { 0, -1 }, { -1, 1 } }
    for _, move in ipairs(cases) do
      assert.is_false((game.turn(state, move[1], move[2])))
    end
    assert.are.equal(0, state.turn)
    assert.are.same({ x = 2, y = 1 }, state.thief)
  end)

  it("takes loot, then escapes at a getaway spot", function()
    local state = game.new({ map = "@$>\n~~~\nA.." })
    assert.is_true((game.turn(state, 1, 0)))
    assert.are.equal(1, state.loot_taken)
    assert.is_nil(state.over)
    assert.is_true((game.turn(state, 1, 0)))
    assert.are.equal("escaped", state.over)
    assert.is_false((game.turn(state, 0, 0)))
  end)

  describe("guards", function()
    it("share one field, and flee the lamp's glare while it burns",
       function()
      local state = game.new({ map = "..........\n.@*....A..\n.........." })
      local function dist(s)
        local _, c = s.grid:find_path(s.guards[1].x, s.guards[1].y,
          s.thief.x, s.thief.y, { unit = "guard" })
        return c
      end
      local before = dist(state)
      assert.is_true((game.turn(state, 1, 0))) -- onto the lamp
      assert.are.equal("flee", state.guards[1].mode)
      assert.are.equal(9, state.guards[1].x) -- a step away, not toward
      assert.is_true(dist(state) >= before)
      assert.is_true(state.lamp > 0)
      while state.lamp > 0 do
        before = dist(state)
        assert.is_true((game.turn(state, 0, 0)))
        assert.are.equal("flee", state.guards[1].mode)
        assert.is_true(dist(state) >= before)
      end
      -- the lamp is out: the field toward the thief again
      before = dist(state)
      assert.is_true((game.turn(state, 0, 0)))
      assert.are.equal("chase", state.guards[1].mode)
      assert.is_true(dist(state) < before)
      assert.are.equal(state.chase:get(state.guards[1].x, state.guards[1].y)
        ~= nil, true)
    end)

    it("grab a thief they can step onto", function()
      for _, map in ipairs({ ".A@", "A..\n.@,", "@..\n.A." }) do
        local state = game.new({ map = map })
        local gx, gy = state.guards[1].x, state.guards[1].y
        assert.is_true((game.turn(state, 0, 0)))
        assert.are.equal("caught", state.over)
        assert.are.equal(1, state.caught_turn)
        assert.are.equal("catch", state.guards[1].mode)
        assert.are.same({ gx, gy }, { state.guards[1].x, state.guards[1].y })
      end
    end)

    it("cannot grab across a wall corner or into the water", function()
      local state = game.new({ map = "A#\n.@" })
      assert.is_true((game.turn(state, 0, 0)))
      assert.is_nil(state.over)
      assert.are.same({ 1, 2 }, { state.guards[1].x, state.guards[1].y })
      assert.is_true((game.turn(state, 0, 0)))
      assert.are.equal("caught", state.over)

      state = game.new({ map = "A~@" })
      assert.is_true((game.turn(state, -1, 0)))   -- swims next to the guard
      assert.is_nil(state.over)
      assert.are.equal("closest", state.guards[1].mode)
      assert.are.equal("goal_blocked", state.guards[1].reason)
    end)

    it("go to the reachable tile nearest an unreachable thief", function()
      local map = [[
A,,,,,,,
,,,,,,,,
,,,,,,,,
~~~~~~~~
~~~~~~~~
,,,,@,,,]]
      local state = game.new({ map = map })
      local want, cost, _, why = state.grid:find_path(1, 1, 5, 6,
        { unit = "guard", closest = true })
      assert.are.equal("no_path", why)
      assert.are.same({ 5, 3 }, { want[#want - 1], want[#want] })
      play(state, 12, function(s)
        waiting_thief(s)
        assert.are.equal("closest", s.guards[1].mode)
        assert.are.equal("no_path", s.guards[1].reason)
      end)
      assert.are.same({ 5, 3 }, { state.guards[1].x, state.guards[1].y })
      assert.are.equal(2 * 2 + 2 * 3, cost)   -- 2 straight, 2 diagonal steps
      -- Settled: the nearest tile from there is where it stands.
      local x, y = state.grid:next_step(5, 3, 5, 6,
        { unit = "guard", closest = true })
      assert.are.same({ 5, 3 }, { x, y })
    end)

    it("walk optimal paths, different ones for different seeds", function()
      local rows = {}
      for y = 1, 12 do rows[y] = ("."):rep(32) end
      rows[2] = ".A" .. ("."):rep(30)
      rows[10] = (","):rep(5) .. "@" .. (","):rep(26)
      local map = table.concat(rows, "\n")
      local thief = scripted_thief(("l"):rep(20))
      local function route(seed)
        local state, tiles = game.new({ map = map, seed = seed }), {}
        play(state, 20, function(s)
          local guard = s.guards[1]
          local x, y = guard.x, guard.y
          thief(s)
          -- The step is the first of an optimal path to the thief.
          local tx, ty = s.thief.x, s.thief.y
          local _, before = s.grid:find_path(x, y, tx, ty, { unit = "guard" })
          local _, after = s.grid:find_path(guard.x, guard.y, tx, ty,
            { unit = "guard" })
          local step = (guard.x ~= x and guard.y ~= y) and 3 or 2
          assert.are.equal(before, after + step)
          table.insert(tiles, guard.x .. "," .. guard.y)
        end)
        return table.concat(tiles, " ")
      end
      assert.are.equal(route(1), route(1))
      assert.are_not.equal(route(1), route(2))
    end)

    it("queue in a corridor instead of sharing a tile", function()
      local state = game.new({ map = "#########\nABC.....@\n#########" })
      play(state, 20, function(s)
        waiting_thief(s)
        for _, guard in ipairs(s.guards) do
          assert.are_not.equal("closest", guard.mode)
        end
      end)
      assert.are.equal("caught", state.over)
      -- C, first in line, grabs the thief; A and B wait behind it.
      local a, b, c = state.guards[1], state.guards[2], state.guards[3]
      assert.are.equal("catch", c.mode)
      assert.are.equal(8, c.x)
      assert.is_true(a.x < b.x and b.x < c.x)
    end)

    it("move legally and never share a tile in the house", function()
      for seed = 1, 6 do
        play(game.new({ seed = seed }), 60, demo_thief)
        play(game.new({ seed = seed }), 80,
          random_thief(helpers.rng(seed)))
      end
    end)
  end)

  describe("demo", function()
    it("is deterministic and shows the closest fallback", function()
      local first, state = demo_lines(1, 60)
      assert.are.same(first, demo_lines(1, 60))
      assert.truthy(state.over)
      assert.truthy(table.concat(first, "\n"):find("closest", 1, true))
    end)

    it("runs from the command line, the same every time", function()
      local command = MAIN .. " --demo 30 --seed 2"
      local out = output_of(command)
      assert.are.equal(out, output_of(command))
      assert.truthy(out:find("\ndemo: 30 turns, [^\n]+\n$"))
      assert.is_nil(out:find("\27[", 1, true))
      assert.are.equal(0, exit_status(command .. " >/dev/null"))
    end)

    it("plays keys read from stdin and quits on Q", function()
      local out = output_of("printf 'll\\nx\\nQ\\n' | " .. MAIN
        .. " --no-color")
      assert.truthy(out:find("turn 2   loot 0/3", 1, true))
      assert.truthy(out:find("unknown key 'x'", 1, true))
    end)

    it("rejects bad arguments with usage and status 2", function()
      local bad = { "--demo", "--demo 0", "--demo x", "--demo 2.5",
        "--seed -1", "--seed", "--bogus", "extra" }
      for _, args in ipairs(bad) do
        local command = MAIN .. " " .. args
        assert.are.equal(2, exit_status(command .. " >/dev/null 2>&1"), args)
        assert.truthy(output_of(command .. " 2>&1 >/dev/null")
          :find("usage:", 1, true), args)
      end
    end)
  end)
end)
