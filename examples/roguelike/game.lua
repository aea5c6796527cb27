--- The rules of the roguelike example: guards chase a thief through a house.
---
---   local game = require("roguelike.game")
---   local state = game.new({ seed = 7 })      -- the house of level.lua
---   game.turn(state, 1, 0)                    -- thief steps east; guards act
---   game.turn(state, game.plan_thief(state))  -- or the demo thief chooses
---   print(game.render(state, true))           -- map and status, in colour
---   print(game.summary(state))                -- one line about the turn
---
--- Every turn the thief takes one step (or waits), then each guard in turn
--- grabs the thief if it can step onto its tile, or else steps down one
--- field toward it: all guards share one distance field (grid:field), built
--- once a turn, and each takes field:next_step with a seed of its own. A
--- guard the thief is out of reach of (the thief swims the moat) goes as
--- near as it can (grid:next_step with closest). While the thief's lamp
--- burns, the guards flee its glare along a flee map (field:flee). The
--- thief wins on reaching a getaway spot (>), the guards when one of them
--- grabs it.
local astar = require("astar")
local level = require("roguelike.level")

local game = {}

-- Largest game seed: the tie-break seeds made from it (actor_seed) must
-- stay below 2^53.
game.MAX_SEED = 2147483647

-- A tile another guard stands on costs this much more, so a guard walks
-- around a colleague when the detour is short and queues behind him in a
-- doorway; its own step onto an occupied tile is a wait.
local CROWD = 8

-- The demo thief's fear of a tile, by its Chebyshev distance to a guard:
-- it never steps onto or next to a guard (who would grab it at once) and
-- pays extra to come within 2 or 3 tiles.
local DANGER = { [0] = false, [1] = false, [2] = 12, [3] = 4 }
local DANGER_RADIUS = 3

-- Turns the lamp burns once the thief picks it up.
local LAMP_TURNS = 6

-- What a guard did in its last act (guard.mode), for the status lines.
local MODE_WORDS = {
  chase = "chases the thief",
  closest = "cannot reach the thief, goes as near as it can",
  catch = "grabs the thief!",
  flee = "flees the lamp's glare",
}

---------------------------------------------------------------------------
-- Setting up
---------------------------------------------------------------------------

local function terrain_names()
  local names = {}
  for i, terrain in ipairs(level.terrains) do names[i] = terrain.name end
  return names
end

local function tile_key(state, x, y)
  return (y - 1) * state.width + x
end

-- The grid of the map text, with its unit classes. Roguelike step lengths
-- (2 straight, 3 diagonal) keep every path cost an integer.
local function build_grid(text)
  local grid = astar.from_string(text, level.legend,
    { terrains = terrain_names(), cardinal = 2, diagonal = 3 })
  grid:define_terrain(level.broken.name)
  for name, costs in pairs(level.units) do
    grid:set_unit(name, costs)
  end
  return grid
end

-- Reads the markers of the map text into the state: the thief, the guards
-- (sorted by letter), the loot and the getaway spots.
local function read_markers(state, text)
  local y = 0
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    y = y + 1
    for x = 1, #line do
      local char = line:sub(x, x)
      if char == "@" then
        state.thief = { x = x, y = y }
      elseif char == "$" then
        state.loot[tile_key(state, x, y)] = true
        state.loot_total = state.loot_total + 1
      elseif char == ">" then
        state.exits[tile_key(state, x, y)] = true
      elseif char == "*" then
        state.lamps[tile_key(state, x, y)] = true
      elseif char:match("%u") then
        table.insert(state.guards, { name = char, x = x, y = y })
      end
    end
  end
  table.sort(state.guards, function(a, b) return a.name < b.name end)
  assert(state.thief, "the map has no thief (@)")
end

--- A new game. `opts.map`: map text (default: the house of level.lua);
--- `opts.seed`: an integer 0..game.MAX_SEED for the random tie-breaks of
--- the guards and the demo thief (default 1).
function game.new(opts)
  opts = opts or {}
  local text = opts.map or level.map
  local grid = build_grid(text)
  local state = {
    grid = grid, width = grid:width(), height = grid:height(),
    seed = opts.seed or 1, turn = 0,
    guards = {}, loot = {}, loot_total = 0, loot_taken = 0, exits = {},
    lamps = {}, lamp = 0, events = {},
  }
  read_markers(state, text)
  return state
end

---------------------------------------------------------------------------
-- Asking the grid
---------------------------------------------------------------------------

-- The guard on tile (x, y) other than `except`, or nil.
local function guard_at(state, x, y, except)
  for _, guard in ipairs(state.guards) do
    if guard ~= except and guard.x == x and guard.y == y then return guard end
  end
end

local function inside(state, x, y)
  return x >= 1 and y >= 1 and x <= state.width and y <= state.height
end

-- Whether `unit` may step from (x, y) onto the neighbouring tile (nx, ny).
-- The library decides, corner rule included: a path of at most one step
-- exists exactly when the step is legal.
local function can_step(state, unit, x, y, nx, ny)
  if not inside(state, nx, ny) or math.abs(nx - x) > 1
      or math.abs(ny - y) > 1 or (nx == x and ny == y) then
    return false
  end
  return state.grid:find_path(x, y, nx, ny,
    { unit = unit, max_length = 1 }) ~= nil
end

-- The tie-break seed of actor number `index` this turn (0: the demo thief,
-- 1..26: the guards): different for every actor and turn of a game, the
-- same for the same game seed.
local function actor_seed(state, index)
  return (state.seed * 65536 + state.turn) * 32 + index
end

---------------------------------------------------------------------------
-- A turn
---------------------------------------------------------------------------

local function say(state, text)
  table.insert(state.events, text)
end

-- The thief arrives on (x, y): windows break, loot is taken, a getaway
-- spot ends the game.
local function enter_tile(state, x, y)
  local thief, key = state.thief, tile_key(state, x, y)
  thief.x, thief.y = x, y
  if state.grid:get_terrain(x, y) == "window" then
    state.grid:set_terrain(x, y, level.broken.name)
    say(state, "crash! a window breaks")
  end
  if state.loot[key] then
    state.loot[key] = nil
    state.loot_taken = state.loot_taken + 1
    say(state, ("loot %d/%d"):format(state.loot_taken, state.loot_total))
  end
  if state.lamps[key] then
    state.lamps[key] = nil
    state.lamp = LAMP_TURNS
    say(state, "the thief lights a lamp")
  end
  if state.exits[key] then
    state.over = "escaped"
    say(state, "the thief escapes")
  end
end

-- The guards' shared field toward the thief, rebuilt every turn into the
-- same field (no allocation): every guard's tile costs CROWD more, so
-- guards walk around colleagues. Nil when guards cannot stand on the
-- thief's tile (the moat). With the lamp lit, the flee map of it.
local function guard_fields(state)
  local thief = state.thief
  if not state.grid:get_cost(thief.x, thief.y, "guard") then return nil end
  state.chase_options = state.chase_options or {
    unit = "guard",
    tile_cost = function(x, y, cost)
      if guard_at(state, x, y) then return cost + CROWD end
      return cost
    end,
  }
  state.chase = state.grid:field(thief.x, thief.y, state.chase_options,
    state.chase)
  if state.lamp > 0 then
    state.flee = state.chase:flee(-1.2, state.flee)
    return state.chase, state.flee
  end
  return state.chase
end

-- Query options for a guard's step: random ties from its own seed, the
-- closest reachable tile when the thief is out of reach, and a detour
-- around the other guards.
local function chase_options(state, guard, index)
  return {
    unit = "guard", ties = "random", seed = actor_seed(state, index),
    closest = true,
    tile_cost = function(x, y, cost)
      if guard_at(state, x, y, guard) then return cost + CROWD end
      return cost
    end,
  }
end

-- Guard number `index` acts: grab the thief when it can step onto its tile,
-- else take the first step toward it, or with closest = true toward the
-- nearest tile it can reach (next_step then always has a step, maybe its
-- own tile). `guard.mode` says which; `guard.reason` is next_step's 4th
-- value, the reason it fell back to the closest tile.
local function guard_act(state, guard, index, chase, flee)
  local thief = state.thief
  local x, y, reason
  if flee then -- the lamp: away from the thief, never toward it
    guard.mode, guard.reason = "flee", nil
    x, y = flee:next_step(guard.x, guard.y, actor_seed(state, index))
    if x and not guard_at(state, x, y, guard) then guard.x, guard.y = x, y end
    return
  end
  if can_step(state, "guard", guard.x, guard.y, thief.x, thief.y) then
    guard.mode, guard.reason = "catch", nil
    state.over = "caught"
    say(state, guard.name .. " grabs the thief")
    return
  end
  if chase and chase:get(guard.x, guard.y) then
    x, y = chase:next_step(guard.x, guard.y, actor_seed(state, index))
    x, y = x or guard.x, y or guard.y
  else
    x, y, _, reason = state.grid:next_step(guard.x, guard.y,
      thief.x, thief.y, chase_options(state, guard, index))
  end
  guard.mode, guard.reason = reason and "closest" or "chase", reason
  if not guard_at(state, x, y, guard) then
    guard.x, guard.y = x, y
  end
end

--- Plays one turn: the thief steps by (dx, dy) (0, 0 waits), then every
--- guard acts. An illegal step (a wall, a guard, the map's edge) or a game
--- that is over plays nothing and returns false and why; else true.
function game.turn(state, dx, dy)
  if state.over then return false, "the game is over" end
  local thief = state.thief
  local x, y = thief.x + dx, thief.y + dy
  if dx ~= 0 or dy ~= 0 then
    if guard_at(state, x, y) then return false, "a guard is in the way" end
    if not can_step(state, "thief", thief.x, thief.y, x, y) then
      return false, "you cannot go that way"
    end
  end
  state.turn = state.turn + 1
  state.events = {}
  enter_tile(state, x, y)
  local chase, flee
  if not state.over then chase, flee = guard_fields(state) end
  for index, guard in ipairs(state.guards) do
    if state.over then break end
    guard_act(state, guard, index, chase, flee)
  end
  if state.lamp > 0 then
    state.lamp = state.lamp - 1
    if state.lamp == 0 then say(state, "the lamp goes out") end
  end
  if state.over == "caught" then state.caught_turn = state.turn end
  return true
end

---------------------------------------------------------------------------
-- The demo thief
---------------------------------------------------------------------------

-- The more dangerous of two fears (false: deadly, else an extra cost).
local function worse(a, b)
  if a == false or b == false then return false end
  return math.max(a or 0, b)
end

-- The demo thief's fear of the tiles around the guards, by tile key (see
-- DANGER). Tiles no guard can enter, the moat, are safe.
local function danger_map(state)
  local danger = {}
  for _, guard in ipairs(state.guards) do
    for y = guard.y - DANGER_RADIUS, guard.y + DANGER_RADIUS do
      for x = guard.x - DANGER_RADIUS, guard.x + DANGER_RADIUS do
        if inside(state, x, y) and state.grid:get_cost(x, y, "guard") then
          local key = tile_key(state, x, y)
          danger[key] = worse(danger[key], DANGER[math.max(
            math.abs(x - guard.x), math.abs(y - guard.y))])
        end
      end
    end
  end
  return danger
end

-- The tile of a key made by tile_key.
local function key_tile(state, key)
  return (key - 1) % state.width + 1, math.floor((key - 1) / state.width) + 1
end

-- The tiles of a set of keys (state.loot, state.exits) as a flat list
-- {x1, y1, ...}, sorted: pairs() order may vary, the game may not.
local function tile_list(state, set)
  local keys, tiles = {}, {}
  for key in pairs(set) do
    table.insert(keys, key)
  end
  table.sort(keys)
  for _, key in ipairs(keys) do
    local x, y = key_tile(state, key)
    table.insert(tiles, x)
    table.insert(tiles, y)
  end
  return tiles
end

-- The thief's next step toward the nearest of the tiles in `targets`, by
-- its cheapest safe path: the tiles next to guards closed, those a bit
-- farther dearer (`danger`, from danger_map).
-- `closest`: when no target is reachable, the step toward the nearest tile
-- it can reach. Nil without a step.
local function step_toward(state, danger, targets, closest)
  if not next(targets) then return nil end
  local thief = state.thief
  return state.grid:next_step(thief.x, thief.y, nil, nil, {
    unit = "thief", goals = tile_list(state, targets), closest = closest,
    ties = "random", seed = actor_seed(state, 0),
    tile_cost = function(x, y, cost)
      local fear = danger[tile_key(state, x, y)]
      if fear == false then return false end
      return cost + (fear or 0)
    end,
  })
end

--- The demo thief's move, (dx, dy): toward the nearest loot (or lamp) until a guard
--- comes within 3 tiles or no safe path to loot is left; from then on
--- (state.fleeing) toward the nearest getaway spot, or as near as it can
--- get. Always a legal move for game.turn.
function game.plan_thief(state)
  local thief, danger = state.thief, danger_map(state)
  if danger[tile_key(state, thief.x, thief.y)] ~= nil then
    state.fleeing = true
  end
  local x, y
  if not state.fleeing then
    local wanted = {} -- the loot, and a lamp to light on the way
    for key in pairs(state.loot) do wanted[key] = true end
    for key in pairs(state.lamps) do wanted[key] = true end
    x, y = step_toward(state, danger, wanted, false)
    state.fleeing = not x
  end
  if not x then x, y = step_toward(state, danger, state.exits, true) end
  if not x then return 0, 0 end
  return x - thief.x, y - thief.y
end

---------------------------------------------------------------------------
-- Drawing
---------------------------------------------------------------------------

local LOOKS = {
  thief = { glyph = "@", color = "1;35" },
  caught = { glyph = "@", color = "1;37;41" },
  loot = { glyph = "$", color = "1;33" },
  exit = { glyph = ">", color = "1;37" },
  lamp = { glyph = "*", color = "1;33" },
}
for _, terrain in ipairs(level.terrains) do LOOKS[terrain.name] = terrain end
LOOKS[level.broken.name] = level.broken

-- Guards are red while they can reach the thief, blue while they cannot.
local GUARD_COLORS = { chase = "1;31", catch = "1;31", closest = "1;34",
                       flee = "1;33" }

-- Glyph and colour of tile (x, y): units, then items, then the ground.
local function look(state, x, y)
  local thief, key = state.thief, tile_key(state, x, y)
  if thief.x == x and thief.y == y then
    return LOOKS[state.over == "caught" and "caught" or "thief"]
  end
  local guard = guard_at(state, x, y)
  if guard then
    return { glyph = guard.name, color = GUARD_COLORS[guard.mode or "chase"] }
  end
  if state.loot[key] then return LOOKS.loot end
  if state.lamps[key] then return LOOKS.lamp end
  if state.exits[key] then return LOOKS.exit end
  if state.grid:is_blocked(x, y) then return level.wall end
  return LOOKS[state.grid:get_terrain(x, y)]
end

local function paint(tile, color)
  if color and tile.color then
    return "\27[" .. tile.color .. "m" .. tile.glyph .. "\27[0m"
  end
  return tile.glyph
end

-- The status under the map: turn, loot, what happened, what guards do.
local function status_lines(state)
  local head = ("turn %d   loot %d/%d"):format(state.turn, state.loot_taken,
    state.loot_total)
  if state.lamp > 0 then
    head = head .. ("   lamp lit (%d)"):format(state.lamp)
  end
  if #state.events > 0 then
    head = head .. "   " .. table.concat(state.events, ", ")
  end
  local lines = { head }
  for _, guard in ipairs(state.guards) do
    if guard.mode then
      table.insert(lines, ("  %s %s%s"):format(guard.name,
        MODE_WORDS[guard.mode],
        guard.reason and " (" .. guard.reason .. ")" or ""))
    end
  end
  return lines
end

--- The map with the thief, guards and items on it, then the status lines;
--- with ANSI colours when `color` is true.
function game.render(state, color)
  local rows = {}
  for y = 1, state.height do
    local cells = {}
    for x = 1, state.width do
      cells[x] = paint(look(state, x, y), color)
    end
    rows[y] = table.concat(cells)
  end
  for _, line in ipairs(status_lines(state)) do
    table.insert(rows, line)
  end
  return table.concat(rows, "\n")
end

--- One line about the last turn: its number, the thief's tile, each
--- guard's tile and mode (chase, catch, or closest when it could not reach
--- the thief, next_step's reasons in brackets), then what happened.
function game.summary(state)
  local parts = {
    ("turn %3d  thief %2d,%-2d "):format(state.turn, state.thief.x,
      state.thief.y),
  }
  local reasons, seen = {}, {}
  for _, guard in ipairs(state.guards) do
    table.insert(parts, ("%s %2d,%-2d %-7s"):format(guard.name, guard.x,
      guard.y, guard.mode or "-"))
    if guard.reason and not seen[guard.reason] then
      seen[guard.reason] = true
      table.insert(reasons, guard.reason)
    end
  end
  if #reasons > 0 then
    table.insert(parts, "(" .. table.concat(reasons, ", ") .. ")")
  end
  for _, event in ipairs(state.events) do
    table.insert(parts, event)
  end
  return (table.concat(parts, " "):gsub("%s+$", ""))
end

return game
