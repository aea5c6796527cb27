-- The planner thread: it receives a snapshot token and a list of queries,
-- attaches the snapshot, runs the whole batch with snap:find_paths and
-- sends back one string.  The main thread keeps drawing meanwhile.
--
-- A love.thread is a new Lua state: it has not seen the main thread's
-- package.path and package.cpath, so the main thread passes them to
-- thread:start and they are set again here before require("astar").
local path, cpath = ...
package.path, package.cpath = path, cpath
require("love.timer")
local astar = require("astar")

local inbox = love.thread.getChannel("planner-in")
local outbox = love.thread.getChannel("planner-out")

while true do
  local msg = inbox:demand()
  if msg == "quit" then break end
  -- "<batch id> <token> sx sy gx gy ...": plain text crosses any channel
  local id, token, rest = msg:match("^(%d+) (%S+) ?(.*)$")
  local queries = {}
  for n in rest:gmatch("%d+") do queries[#queries + 1] = tonumber(n) end
  local ok, snap = pcall(astar.attach, token)
  if ok then
    local t0 = love.timer.getTime()
    local packed = snap:find_paths(queries)
    snap:close() -- this thread's hold; the main thread keeps its own
    outbox:push(("%s %.3f "):format(id, (love.timer.getTime() - t0) * 1e3)
      .. packed)
  else -- released before we got here: the main thread asks again
    outbox:push(id .. " released")
  end
end
