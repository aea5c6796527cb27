-- What a big map costs the first time it is used: astar.new(n, n), its
-- first JPS query (corner to corner: the zone labels and the search's
-- stamps are made on the way), an A* query after it, and snapshot().
-- Each round runs in a fresh process (this script, with --one), so every
-- array is new memory, as in a game that loads a level: in one process
-- the allocator would hand back pages already faulted in.
--
--   lua5.4 bench/firstuse.lua [--rounds N] [SIDE ...]   (default 1024 2048)
--   luajit bench/firstuse.lua ...
--
-- Prints per side the fastest and the slowest round, CPU ms (os.clock: the
-- kernel's page faults included). Figures only, never pass/fail.

local script = (arg and arg[0]) or "bench/firstuse.lua"
local root = script:match("^(.-)bench[/\\][^/\\]*$") or ""
local ver = jit and "jit" or (_VERSION:match("(%d+%.%d+)") or "?")
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua"
package.cpath = root .. "build/" .. ver .. "/?.so"

local function die(msg)
  io.stderr:write("firstuse.lua: ", msg, "\n")
  os.exit(2)
end

local rounds, sides, one = 3, {}, nil
local i = 1
while arg and arg[i] do
  if arg[i] == "--rounds" then
    rounds = tonumber(arg[i + 1]) or die("--rounds needs a number")
    i = i + 1
  elseif arg[i] == "--one" then
    one = tonumber(arg[i + 1]) or die("--one needs a side")
    i = i + 1
  else
    sides[#sides + 1] = tonumber(arg[i]) or die("not a side: " .. arg[i])
  end
  i = i + 1
end
if #sides == 0 then sides = { 1024, 2048 } end

if one then -- a child: one round on fresh memory, four numbers out
  local ok, astar = pcall(require, "astar")
  if not ok then die("cannot load astar: run `make` first\n" .. astar) end
  local n = one
  local c = os.clock()
  local g = astar.new(n, n)
  local t_new = os.clock() - c
  c = os.clock()
  local p = g:find_path(1, 1, n, n, { algorithm = "jps" })
  local t_jps = os.clock() - c
  c = os.clock()
  local q = g:find_path(n, 1, 1, n, { algorithm = "astar" })
  local t_astar = os.clock() - c
  c = os.clock()
  local s = g:snapshot()
  local t_snap = os.clock() - c
  if not (p and q and s) then die("a query found no path") end
  io.write(string.format("%.3f %.3f %.3f %.3f\n", t_new * 1e3, t_jps * 1e3,
                         t_astar * 1e3, t_snap * 1e3))
  os.exit(0)
end

-- the interpreter that runs this script (and its options), for the children
local k = -1
while arg[k - 1] do k = k - 1 end
local interp = arg[k] or "lua5.4"
for j = k + 1, -1 do interp = interp .. " " .. arg[j] end

print(("%-6s %-24s %-24s %-24s %-24s"):format("side", "astar.new ms",
      "first jps ms", "astar after ms", "snapshot ms"))
for _, n in ipairs(sides) do
  local lo, hi = {}, {}
  for _ = 1, rounds do
    local h = io.popen(interp .. " " .. script .. " --one " .. n)
    local out = h:read("*a")
    h:close()
    local v = {}
    for x in out:gmatch("%S+") do v[#v + 1] = tonumber(x) end
    if #v ~= 4 then die("a child printed: " .. out) end
    for j = 1, 4 do
      lo[j] = math.min(lo[j] or math.huge, v[j])
      hi[j] = math.max(hi[j] or 0, v[j])
    end
  end
  local cells = {}
  for j = 1, 4 do
    cells[j] = ("%.1f-%.1f"):format(lo[j], hi[j])
  end
  print(("%-6d %-24s %-24s %-24s %-24s"):format(n, cells[1], cells[2],
        cells[3], cells[4]))
end
