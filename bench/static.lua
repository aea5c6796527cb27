-- Prepared static maps: JPS against the subgoal graph (grid:prepare), on
-- every scenario of every MovingAI map, through the Lua API.
--
--   lua5.4 bench/static.lua [--rounds N] [--every N] [DIR|FILE.map.scen ...]
--   (default: ../shared/maps)
--
-- Per map: preprocessing ms, bytes per tile the graph holds, subgoals, then
-- for each mode the mean µs per query (fastest of the rounds; the modes
-- alternate round by round in the same process) and the mean expansions.
-- "jps" is find_path with algorithm = "jps" (what a plain find_path ran
-- before prepare), "subgoal" a plain find_path on the prepared grid.
-- Every cost is checked against the scenario's optimal length: a mismatch
-- is printed and makes the exit status 1.

local script = (arg and arg[0]) or "bench/static.lua"
local root = script:match("^(.-)bench[/\\][^/\\]*$") or ""
local ver = jit and "jit" or (_VERSION:match("(%d+%.%d+)") or "?")
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua"
package.cpath = root .. "build/" .. ver .. "/?.so"

local astar = require("astar")
local movingai = require("astar.movingai")
local fmt = string.format

local rounds, every, inputs = 5, 1, {}
do
  local i = 1
  while arg and i <= #arg do
    local a = arg[i]
    if a == "--rounds" then
      i = i + 1
      rounds = assert(tonumber(arg[i]), "--rounds N")
    elseif a == "--every" then
      i = i + 1
      every = assert(tonumber(arg[i]), "--every N")
    else
      inputs[#inputs + 1] = a
    end
    i = i + 1
  end
end
if #inputs == 0 then inputs[1] = root .. "../shared/maps" end

local files = {}
for _, p in ipairs(inputs) do
  if p:match("%.scen$") then
    files[#files + 1] = p
  else
    local h = io.popen("ls -1 '" .. p .. "'")
    local names = {}
    for n in h:lines() do
      if n:match("%.map%.scen$") then names[#names + 1] = p .. "/" .. n end
    end
    h:close()
    table.sort(names)
    for _, n in ipairs(names) do files[#files + 1] = n end
  end
end

local clock = os.clock
local MODES = { { "jps", { algorithm = "jps" } }, { "subgoal", nil } }
local bad = false

print(fmt("# %s; %d rounds, modes alternate round by round; every %d",
  jit and jit.version or _VERSION, rounds, every))
print(fmt("%-22s %7s %6s %8s %7s %10s %9s %10s %9s %6s", "map", "prep_ms",
  "B/tile", "subgoals", "edges", "jps_us", "jps_exp", "sub_us", "sub_exp", "ratio"))

for _, path in ipairs(files) do
  local name = path:match("([^/\\]+)%.map%.scen$") or path
  local entries = assert(movingai.read_scenarios(path))
  local map_path = assert(movingai.map_path_for(path, entries[1]))
  local grid = assert(astar.load_movingai(map_path))
  local w, h = grid:size()
  local S = {}
  for k = 1, #entries, every do S[#S + 1] = entries[k] end
  local n = #S
  -- preprocessing: the best of three builds
  local prep = math.huge
  local info
  for _ = 1, 3 do
    info = grid:prepare("subgoal", nil, "always")
    if info.ms < prep then prep = info.ms end
  end
  local best, exp = {}, {}
  for m = 1, #MODES do best[m], exp[m] = math.huge, 0 end
  local out = {}
  for m = 1, #MODES do grid:find_path(S[1].sx, S[1].sy, S[1].gx, S[1].gy, MODES[m][2], out) end
  for r = 1, rounds do
    for m = 1, #MODES do
      local opts = MODES[m][2]
      local e, mism = 0, 0
      collectgarbage()
      local t0 = clock()
      for k = 1, n do
        local s = S[k]
        local p, cost, ex = grid:find_path(s.sx, s.sy, s.gx, s.gy, opts, out)
        e = e + (ex or 0)
        if r == 1 and (not p or math.abs(cost - s.length) > movingai.tolerance(s.length_text)) then
          mism = mism + 1
          if mism <= 3 then
            io.stderr:write(fmt("MISMATCH %s %s (%d,%d)->(%d,%d): expected %s got %s\n",
              name, MODES[m][1], s.sx, s.sy, s.gx, s.gy, s.length_text, tostring(cost)))
          end
        end
      end
      local t = clock() - t0
      if mism > 0 then bad = true end
      if t < best[m] then best[m] = t end
      exp[m] = e / n
    end
  end
  local _, stats = grid:find_path(S[1].sx, S[1].sy, S[1].gx, S[1].gy, nil, out)
  print(fmt("%-22s %7.2f %6.2f %8s %7s %10.2f %9.1f %10.2f %9.1f %6.3f", name,
    prep, info.bytes / (w * h), info.subgoals or "-", info.edges or "-", best[1] / n * 1e6,
    exp[1], best[2] / n * 1e6, exp[2], best[2] / best[1]))
  io.stdout:flush()
  grid:close()
end
os.exit(bad and 1 or 0)
