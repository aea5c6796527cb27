-- Guards chase a thief through a house: the astar roguelike example.
--
--   lua5.4 examples/roguelike/main.lua              play (after make)
--   lua5.4 examples/roguelike/main.lua --demo 40    40 scripted turns
--
-- Run it from anywhere with any of Lua 5.1-5.4 or LuaJIT: the repository is
-- found from this script's path, the module from the runtime's build dir.

-- The repository root, from the path of this script
-- (<root>/examples/roguelike/main.lua).
local function repo_root()
  local dir = (arg and arg[0] or ""):match("^(.*)[/\\]")
  return (dir and dir .. "/" or "") .. "../../"
end

local function use_repo_modules()
  local root = repo_root()
  local version = jit and "jit" or _VERSION:match("%d+%.%d+")
  package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua;"
    .. root .. "examples/?.lua;" .. package.path
  package.cpath = root .. "build/" .. version .. "/?.so;" .. package.cpath
end

use_repo_modules()
local game = require("roguelike.game")

local USAGE = ([[
usage: main.lua [--demo N] [--seed S] [--color | --no-color]

  --demo N      play N turns with a scripted thief, then exit
  --seed S      seed of the random tie-breaks, an integer 0..%d (default 1)
  --color       ANSI colours on
  --no-color    ANSI colours off (default: on for a terminal that is not
                "dumb" when NO_COLOR is unset and not in --demo mode)
  --help        this text]]):format(game.MAX_SEED)

local HELP = [[
Steal the loot ($) and swim the moat (~) to a getaway spot (>).
A lamp (*) makes the guards flee its glare for a few turns.
Guards (A, B, ...) grab you when they can step onto your tile.
Windows (=) and tables (n) are cheap for you to climb, dear for guards;
guards cannot swim. Red guards chase you, blue ones cannot reach you,
yellow ones flee your lamp.
Keys, one or more per line, then Enter:
  y k u    q w e
  h . l    a . d     (. waits)
  b j n    z s c     Q quits, ? shows this]]

-- Moves (dx, dy) by key: vi keys, and w a s d with q e z c diagonals.
local KEYS = {
  h = { -1, 0 }, j = { 0, 1 }, k = { 0, -1 }, l = { 1, 0 },
  y = { -1, -1 }, u = { 1, -1 }, b = { -1, 1 }, n = { 1, 1 },
  a = { -1, 0 }, s = { 0, 1 }, w = { 0, -1 }, d = { 1, 0 },
  q = { -1, -1 }, e = { 1, -1 }, z = { -1, 1 }, c = { 1, 1 },
  ["."] = { 0, 0 },
}

---------------------------------------------------------------------------
-- Command line
---------------------------------------------------------------------------

local function usage_error(message)
  io.stderr:write("main.lua: ", message, "\n", USAGE, "\n")
  os.exit(2)
end

-- The integer value of `text` within [low, high], or a usage error.
local function integer_arg(flag, text, low, high)
  local n = tonumber(text)
  if not n or n ~= math.floor(n) or n < low or n > high then
    usage_error(("%s needs an integer in %d..%d, got %s")
      :format(flag, low, high, text or "nothing"))
  end
  return n
end

local function default_color(demo)
  local term = os.getenv("TERM")
  return not demo and term ~= nil and term ~= "" and term ~= "dumb"
    and os.getenv("NO_COLOR") == nil
end

local function parse_args(args)
  local opts = { seed = 1 }
  local i = 1
  while i <= #args do
    local flag = args[i]
    if flag == "--demo" then
      opts.demo = integer_arg(flag, args[i + 1], 1, 1000000)
      i = i + 1
    elseif flag == "--seed" then
      opts.seed = integer_arg(flag, args[i + 1], 0, game.MAX_SEED)
      i = i + 1
    elseif flag == "--color" or flag == "--no-color" then
      opts.color = flag == "--color"
    elseif flag == "--help" or flag == "-h" then
      print(USAGE)
      os.exit(0)
    else
      usage_error("unknown argument '" .. flag .. "'")
    end
    i = i + 1
  end
  if opts.color == nil then opts.color = default_color(opts.demo) end
  return opts
end

---------------------------------------------------------------------------
-- Playing
---------------------------------------------------------------------------

local function outcome(state)
  if state.over == "caught" then
    return "caught on turn " .. state.caught_turn
  elseif state.over == "escaped" then
    return ("thief escaped on turn %d with %d/%d loot"):format(state.turn,
      state.loot_taken, state.loot_total)
  end
  return ("thief still at large after turn %d (%d/%d loot)"):format(
    state.turn, state.loot_taken, state.loot_total)
end

-- N turns of the scripted thief: the map, a line per turn, the map again.
local function run_demo(state, turns, color)
  print(game.render(state, color))
  print()
  while state.turn < turns and not state.over do
    assert(game.turn(state, game.plan_thief(state)))
    print(game.summary(state))
  end
  print()
  print(game.render(state, color))
  print(("demo: %d turns, %s"):format(turns, outcome(state)))
end

-- Plays the keys of one input line, one turn each; false on Q.
local function play_line(state, line)
  for key in line:gmatch("%S") do
    if key == "Q" then return false end
    if key == "?" then
      print(HELP)
    elseif not KEYS[key] then
      print("unknown key '" .. key .. "' (? for help)")
      return true
    else
      local ok, why = game.turn(state, KEYS[key][1], KEYS[key][2])
      if not ok then print(why) return true end
      if state.over then return true end
    end
  end
  return true
end

local function run_interactive(state, color)
  print(HELP)
  print()
  print(game.render(state, color))
  while not state.over do
    io.write("> ")
    io.flush()
    local line = io.read("*l")
    if not line or not play_line(state, line) then break end
    print(game.render(state, color))
  end
  print(outcome(state))
end

local opts = parse_args(arg or {})
local state = game.new({ seed = opts.seed })
if opts.demo then
  run_demo(state, opts.demo, opts.color)
else
  run_interactive(state, opts.color)
end
