-- The benchmark suite: every map of a directory under each algorithm, through
-- the C driver, Lua 5.4 and LuaJIT, as one table.
--
--   lua5.4 bench/suite.lua [--algorithm LIST] [--every N] [--repeat N] [DIR]
--   make bench                     (the same on ../shared/maps)
--
-- DIR defaults to ../shared/maps.  It runs, one after the other,
--   build/bench/cdriver  --algorithm LIST ... DIR
--   lua5.4 bench/scen.lua --algorithm LIST ... DIR
--   luajit bench/scen.lua --algorithm LIST ... DIR
-- (each times every algorithm in the same process, file by file) and prints
-- one row per map, algorithm and runtime:
--   map, algorithm, runtime, queries, mismatches, mean µs per query,
--   expansions per query, bytes per tile, and Lua/C (the runtime's mean
--   over the C driver's for the same map and algorithm: the binding's
--   share).  A runtime whose interpreter or module is missing is skipped
--   with a note.  Exit status 1 when any cost mismatched.

local script = (arg and arg[0]) or "bench/suite.lua"
local root = script:match("^(.-)bench[/\\][^/\\]*$") or ""

local algorithm, dir, pass = "astar,jps", nil, {}
do
  local i, args = 1, arg or {}
  while i <= #args do
    local a = args[i]
    if a == "-h" or a == "--help" then
      print("usage: bench/suite.lua [--algorithm LIST] [--every N] "
        .. "[--repeat N] [DIR]")
      os.exit(0)
    elseif a == "--algorithm" or a == "--every" or a == "--repeat" then
      if not args[i + 1] then
        io.stderr:write("suite.lua: ", a, " needs a value\n")
        os.exit(2)
      end
      if a == "--algorithm" then
        algorithm = args[i + 1]
      else
        pass[#pass + 1] = a .. " " .. args[i + 1]
      end
      i = i + 1
    elseif a:sub(1, 1) == "-" then
      io.stderr:write("suite.lua: unknown option '", a, "'\n")
      os.exit(2)
    else
      dir = a
    end
    i = i + 1
  end
end
dir = dir or (root .. "../shared/maps")

local function quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local function exists(p)
  local f = io.open(p, "rb")
  if f then f:close() end
  return f ~= nil
end

local function have(cmd)
  local p = io.popen("command -v " .. cmd .. " 2>/dev/null")
  local out = p and p:read("*a") or ""
  if p then p:close() end
  return out ~= ""
end

local opts = "--algorithm " .. quote(algorithm) .. " " .. table.concat(pass, " ")
local runs = {
  { name = "C", need = root .. "build/bench/cdriver",
    cmd = quote(root .. "build/bench/cdriver") },
  { name = "Lua 5.4", need = root .. "build/5.4/astar/core.so", exe = "lua5.4",
    cmd = "lua5.4 " .. quote(root .. "bench/scen.lua") },
  { name = "LuaJIT", need = root .. "build/jit/astar/core.so", exe = "luajit",
    cmd = "luajit " .. quote(root .. "bench/scen.lua") },
}

local rows, mismatched = {}, false
local c_mean = {} -- "map/algorithm" -> C mean µs
for _, r in ipairs(runs) do
  if not exists(r.need) or (r.exe and not have(r.exe)) then
    io.stderr:write(("suite.lua: %s skipped (%s missing: run `make`)\n")
      :format(r.name, r.exe and not have(r.exe) and r.exe or r.need))
  else
    local cmd = r.cmd .. " " .. opts .. " " .. quote(dir)
    io.stderr:write("# ", cmd, "\n")
    local p = assert(io.popen(cmd))
    for line in p:lines() do
      local file, alg, q, mm, us, exp, bpt = line:match(
        "^(%S+)%s+algorithm=(%S+)%s+queries=(%d+)%s+mismatches=(%d+)%s+"
        .. "mean_us=(%S+)%s+expanded=(%S+)%s+nodes_per_s=%S+%s+"
        .. "bytes_per_tile=(%S+)")
      if file then
        local map = file:gsub("%.map%.scen$", "")
        local row = { map = map, alg = alg, runtime = r.name, q = tonumber(q),
                      mm = tonumber(mm), us = tonumber(us),
                      exp = tonumber(exp), bpt = tonumber(bpt) }
        if r.name == "C" then c_mean[map .. "/" .. alg] = row.us end
        if row.mm > 0 then mismatched = true end
        rows[#rows + 1] = row
      elseif line:match("^# runtime") then
        io.stderr:write(line, "\n")
      end
    end
    p:close()
  end
end

table.sort(rows, function(a, b)
  if a.map ~= b.map then return a.map < b.map end
  if a.alg ~= b.alg then return a.alg < b.alg end
  return a.runtime < b.runtime
end)

local fmt = string.format
print(fmt("%-20s %-6s %-8s %8s %10s %11s %12s %8s %6s", "map", "algo",
  "runtime", "queries", "mismatches", "mean_us", "expanded/q", "B/tile",
  "Lua/C"))
for _, r in ipairs(rows) do
  local c = c_mean[r.map .. "/" .. r.alg]
  local share = (r.runtime ~= "C" and c and c > 0) and fmt("%.2f", r.us / c)
    or ""
  print(fmt("%-20s %-6s %-8s %8d %10d %11.2f %12.1f %8.2f %6s", r.map, r.alg,
    r.runtime, r.q, r.mm, r.us, r.exp, r.bpt, share))
end
os.exit(mismatched and 1 or 0)
