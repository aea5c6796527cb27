-- busted helper that runs the suite under an aggressive collector, so a
-- grid collected mid-call, or while a path or a search still refers to it,
-- shows up as a failure or a crash instead of hiding behind a lazy GC:
--
--   lua5.4 /usr/bin/busted --run=lua54 --helper=spec/c/gc_stress.lua
--   luajit /usr/bin/busted --run=luajit --helper=spec/c/gc_stress.lua
--
-- Lua 5.4, incremental (default): pause 0 (a new cycle starts as soon as
-- one ends: the collector never rests), step multiplier 1000 and a step
-- every 2^10 bytes allocated, so each step does a lot of work: a whole
-- mark, sweep and finalize often fits between two allocations of a single
-- C call.  (Tiny steps, 2^1 bytes, looked harsher but never finished a
-- cycle inside a call: a planted "grid collected mid-call" bug went
-- unnoticed with them and is caught at once with these; see README.md.)
-- ASTAR_GC_STEPSIZE=k changes the step to 2^k bytes.
-- Lua 5.4 with ASTAR_GC_STRESS=generational: a minor collection each time
-- the heap grows by 1%, a major one when it grows by 10%.
-- LuaJIT (and 5.1-5.3): pause 0, step multiplier 10000.
--
-- Before every test the helper checks that the setting is still in force
-- (a spec may stop and restart the collector: that keeps the parameters,
-- but a spec that stopped it and then failed would leave it stopped, so the
-- helper restarts it), and it prints one TAP comment line at the start and
-- one at the end with what it checked.

local busted = require("busted")

local is54 = _VERSION == "Lua 5.4" and rawget(_G, "jit") == nil
local mode = os.getenv("ASTAR_GC_STRESS") or "incremental"
-- 5.4 keeps stepmul in a byte (at most 1023); LuaJIT takes any size
local PAUSE, STEPMUL = 0, is54 and 1000 or 10000
local STEPSIZE = tonumber(os.getenv("ASTAR_GC_STEPSIZE") or "") or 10

local function apply()
  if is54 and mode == "generational" then
    collectgarbage("generational", 1, 10)
  else
    if is54 then collectgarbage("incremental", 0, 0, STEPSIZE) end
    collectgarbage("setpause", PAUSE)
    collectgarbage("setstepmul", STEPMUL)
  end
  collectgarbage("restart")
end

-- Raises unless the stress setting is what this helper set.
local function verify(where)
  if collectgarbage("isrunning") == false then
    error("gc_stress: the collector is stopped " .. where, 0)
  end
  if is54 and mode == "generational" then
    -- switching to the mode it is in returns that mode and changes nothing
    local was = collectgarbage("generational", 1, 10)
    if was ~= "generational" then
      error("gc_stress: collector in " .. tostring(was) .. " mode " .. where, 0)
    end
    return
  end
  if is54 then
    local was = collectgarbage("incremental", 0, 0, STEPSIZE)
    if was ~= "incremental" then
      error("gc_stress: collector in " .. tostring(was) .. " mode " .. where, 0)
    end
  end
  -- setpause/setstepmul return the previous value: set again and compare
  local pause = collectgarbage("setpause", PAUSE)
  local stepmul = collectgarbage("setstepmul", STEPMUL)
  if pause ~= PAUSE or stepmul ~= STEPMUL then
    error(("gc_stress: pause %s, stepmul %s %s (expected %d, %d)"):format(
      tostring(pause), tostring(stepmul), where, PAUSE, STEPMUL), 0)
  end
end

local desc
if is54 and mode == "generational" then
  desc = "Lua 5.4 generational, minor multiplier 1%, major 10%"
else
  desc = ("%s %s, pause %d, stepmul %d%s"):format(
    rawget(_G, "jit") and jit.version or _VERSION,
    is54 and "incremental" or "collector", PAUSE, STEPMUL,
    is54 and (", a step every 2^%d bytes"):format(STEPSIZE) or "")
end

apply()
verify("right after setting it")
io.stdout:write("# gc_stress: on: ", desc, "\n")

local checked, restarted = 0, 0
busted.subscribe({ "test", "start" }, function()
  if collectgarbage("isrunning") == false then
    restarted = restarted + 1
    apply()
  end
  verify("at the start of a test")
  checked = checked + 1
  return nil, true
end)

busted.subscribe({ "exit" }, function()
  io.stdout:write(("# gc_stress: setting verified before %d tests (%d "
    .. "times the collector was found stopped and restarted)\n"):format(
    checked, restarted))
  return nil, true
end)
