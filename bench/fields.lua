-- Fields: what a Dijkstra map costs, through Lua, against the issue's
-- targets (issue 14).  A 512 x 512 map with 20% random walls (seeded), one
-- goal near the middle:
--   build, default costs (8-way, 1 and sqrt 2: the bucket ring) target <= 15 ms
--     and the same with queue = "heap" (the binary heap of 0.x), interleaved
--   build, uniform steps (8-way, diagonal 1: breadth-first) target <=  6 ms
--   build, 4-way (breadth-first), and reused (no allocation)
--   flee() of the default field (and of the heap's)         target <= 2 builds
--   f:next_step(x, y)                                       target <= 60 ns (LuaJIT)
--   1,000 units stepped by one f:steps call                  target <= 40 us
--     twice: the first call after a build (the field's arrays out of the
--     cache: the map is 4 MB of them) and the mean of 19 more (in cache)
--   memory: bytes per tile of the values (4) and of the rest
--   the options of other issues, against the default build: avoid (50
--   tiles) and extra_cost (50), 20 links, size = 2; a graph field on the
--   map as a graph (passable tiles, 8-way edges)
-- Everything in one process, the variants interleaved round by round; the
-- figure is the median of the rounds (CPU time).  Figures, never pass/fail.
--
--   lua5.4 bench/fields.lua [--rounds N] [--size N]
--   luajit bench/fields.lua ...

local script = (arg and arg[0]) or "bench/fields.lua"
local root = script:match("^(.-)bench[/\\][^/\\]*$") or ""
local ver = jit and "jit" or (_VERSION:match("(%d+%.%d+)") or "?")
package.path = root .. "lua/?.lua;" .. root .. "lua/?/init.lua"
package.cpath = root .. "build/" .. ver .. "/?.so"

local ok, astar = pcall(require, "astar")
if not ok then
  io.stderr:write("fields.lua: cannot load astar: run `make` first\n", astar)
  os.exit(2)
end

local rounds, size = 15, 512
local i = 1
while arg and arg[i] do
  if arg[i] == "--rounds" then rounds = tonumber(arg[i + 1]); i = i + 2
  elseif arg[i] == "--size" then size = tonumber(arg[i + 1]); i = i + 2
  else io.stderr:write("fields.lua: unknown argument ", arg[i], "\n"); os.exit(2)
  end
end

-- the same walls on every runtime (Park-Miller)
local state = 12345
local function rand()
  state = (state * 16807) % 2147483647
  return state / 2147483647
end
local costs = {}
for k = 1, size * size do costs[k] = rand() >= 0.2 and 1 or false end
local gx, gy = size / 2, size / 2
costs[(gy - 1) * size + gx] = 1

local function grid(movement)
  local g = astar.new(size, size, movement)
  g:load(costs)
  return g
end
local octile = grid()
local chebyshev = grid({ diagonal = 1 })
local four = grid({ diagonals = "never" })

local clock = os.clock
local function median(t)
  table.sort(t)
  return t[math.floor((#t + 1) / 2)]
end

-- warm every grid (prepare) and every field once
local f_oct = octile:field(gx, gy)
local f_cheb = chebyshev:field(gx, gy)
local f_four = four:field(gx, gy)
local reused = octile:field(gx, gy)
local reused_cheb = chebyshev:field(gx, gy)
local fled = f_oct:flee()

-- overlays, links, size, a graph
local avoid, extra = {}, {}
for k = 1, 50 do
  avoid[2 * k - 1], avoid[2 * k] = math.floor(rand() * size) + 1,
                                   math.floor(rand() * size) + 1
  extra[3 * k - 2], extra[3 * k - 1], extra[3 * k] =
    math.floor(rand() * size) + 1, math.floor(rand() * size) + 1, 2
end
local over = { avoid = avoid, extra_cost = extra }
local linked = grid()
do
  local n = 0
  while n < 20 do
    local x1, y1 = math.floor(rand() * size) + 1, math.floor(rand() * size) + 1
    local x2, y2 = math.floor(rand() * size) + 1, math.floor(rand() * size) + 1
    if costs[(y1 - 1) * size + x1] and costs[(y2 - 1) * size + x2] and
       (x1 ~= x2 or y1 ~= y2) then
      linked:link(x1, y1, x2, y2, 50)
      n = n + 1
    end
  end
end
local graph = astar.graph()
do
  for _ = 1, size * size do graph:add_node() end
  for y = 1, size do
    for x = 1, size do
      local a = (y - 1) * size + x
      if costs[a] then
        if x < size and costs[a + 1] then graph:add_edge(a, a + 1, 1, true) end
        if y < size and costs[a + size] then
          graph:add_edge(a, a + size, 1, true)
        end
        if x < size and y < size and costs[a + size + 1] and costs[a + 1] and
           costs[a + size] then
          graph:add_edge(a, a + size + 1, math.sqrt(2), true)
        end
        if x > 1 and y < size and costs[a + size - 1] and costs[a - 1] and
           costs[a + size] then
          graph:add_edge(a, a + size - 1, math.sqrt(2), true)
        end
      end
    end
  end
end
local ggoal = (gy - 1) * size + gx
local sx, sy = gx, gy -- a goal the 2 x 2 unit fits on, near the middle
while octile:clearance(sx, sy) < 2 do sx = sx + 1 end
local f_over = octile:field(gx, gy, over)
local f_link = linked:field(gx, gy)
local f_size = octile:field(sx, sy, { size = 2 })
local f_graph = graph:field(ggoal)

-- units on tiles with a value
local units, out = {}, {}
do
  local n = 0
  while n < 1000 do
    local x, y = math.floor(rand() * size) + 1, math.floor(rand() * size) + 1
    if f_oct:get(x, y) then
      units[2 * n + 1], units[2 * n + 2] = x, y
      n = n + 1
    end
  end
end
f_oct:steps(units, out)

local f_heap = octile:field(gx, gy, { queue = "heap" })
local fled_heap = f_heap:flee()
local t = { oct = {}, cheb = {}, four = {}, reuse = {}, flee = {}, fleer = {},
            steps = {}, next = {}, over = {}, link = {}, size = {},
            graph = {}, heap = {}, fleeh = {}, cold = {}, chebr = {} }
local NEXT = 200000
for _ = 1, rounds do
  local c = clock(); local f = octile:field(gx, gy); t.oct[#t.oct + 1] = clock() - c
  f:close()
  c = clock(); f = chebyshev:field(gx, gy); t.cheb[#t.cheb + 1] = clock() - c
  f:close()
  c = clock(); f = four:field(gx, gy); t.four[#t.four + 1] = clock() - c
  f:close()
  c = clock(); octile:field(gx, gy, nil, reused); t.reuse[#t.reuse + 1] = clock() - c
  c = clock(); chebyshev:field(gx, gy, nil, reused_cheb)
  t.chebr[#t.chebr + 1] = clock() - c
  c = clock(); f = f_oct:flee(); t.flee[#t.flee + 1] = clock() - c
  f:close()
  c = clock(); f_oct:flee(-1.2, fled); t.fleer[#t.fleer + 1] = clock() - c
  c = clock(); octile:field(gx, gy, { queue = "heap" }, f_heap)
  t.heap[#t.heap + 1] = clock() - c
  c = clock(); f_heap:flee(-1.2, fled_heap); t.fleeh[#t.fleeh + 1] = clock() - c
  octile:field(gx, gy, nil, f_oct) -- just built: steps on a cold cache
  c = clock(); f_oct:steps(units, out); t.cold[#t.cold + 1] = clock() - c
  c = clock()
  for _ = 1, 19 do f_oct:steps(units, out) end
  t.steps[#t.steps + 1] = (clock() - c) / 19
  c = clock(); octile:field(gx, gy, over, f_over)
  t.over[#t.over + 1] = clock() - c
  c = clock(); linked:field(gx, gy, nil, f_link)
  t.link[#t.link + 1] = clock() - c
  c = clock(); octile:field(sx, sy, { size = 2 }, f_size)
  t.size[#t.size + 1] = clock() - c
  c = clock(); graph:field(ggoal, nil, f_graph)
  t.graph[#t.graph + 1] = clock() - c
  local ux, uy = units[1], units[2]
  c = clock()
  for _ = 1, NEXT do f_oct:next_step(ux, uy) end
  t.next[#t.next + 1] = (clock() - c) / NEXT
end

local function ms(v) return v * 1e3 end
local runtime = jit and jit.version or _VERSION
print(("fields on a %d x %d map, 20%% walls, one goal; %s, median of %d " ..
       "rounds"):format(size, size, runtime, rounds))
print(("  tiles with a value: %d"):format(f_oct:count()))
local oct = median(t.oct)
print(("  build, default costs (bucket ring) %7.2f ms   target <= 15 ms")
      :format(ms(oct)))
print(("  build, default costs, queue=heap   %7.2f ms   (ring / heap %.2f, " ..
       "reused fields both)"):format(ms(median(t.heap)),
       median(t.reuse) / median(t.heap)))
print(("  build, uniform 8-way (BFS)         %7.2f ms   target <=  6 ms")
      :format(ms(median(t.cheb))))
print(("  build, uniform 8-way (BFS), reused %7.2f ms   (a field rebuilt each turn)")
      :format(ms(median(t.chebr))))
print(("  build, 4-way (BFS)                 %7.2f ms"):format(ms(median(t.four))))
print(("  build, default costs, reused       %7.2f ms"):format(ms(median(t.reuse))))
print(("  flee(), new field                  %7.2f ms   = %.2f builds   " ..
       "target <= 2"):format(ms(median(t.flee)), median(t.flee) / oct))
print(("  flee(), reused                     %7.2f ms   = %.2f builds")
      :format(ms(median(t.fleer)), median(t.fleer) / oct))
print(("  flee(), reused, queue=heap         %7.2f ms   = %.2f heap builds")
      :format(ms(median(t.fleeh)), median(t.fleeh) / median(t.heap)))
print(("  f:next_step(x, y)                  %7.1f ns   target <= 60 ns " ..
       "(LuaJIT)"):format(median(t.next) * 1e9))
print(("  f:steps, 1,000 units, in cache     %7.1f us   target <= 40 us")
      :format(median(t.steps) * 1e6))
print(("  f:steps, 1,000 units, just built   %7.1f us   (the first call " ..
       "after a build)"):format(median(t.cold) * 1e6))
local tiles = (size + 2) * (size + 2)
print(("  memory: %.2f bytes per tile in all (values 4, order 4, stamps 4, " ..
       "heap positions 4, the queue's buckets)"):format(f_oct:memory() / tiles))
print(("  reused, avoid 50 + extra_cost 50   %7.2f ms   = %.2f default builds")
      :format(ms(median(t.over)), median(t.over) / median(t.reuse)))
print(("  reused, 20 links                   %7.2f ms   = %.2f default builds")
      :format(ms(median(t.link)), median(t.link) / median(t.reuse)))
print(("  reused, size = 2                   %7.2f ms   (%d tiles with a " ..
       "value: 20%% random walls leave 2 x 2 units little room)")
      :format(ms(median(t.size)), f_size:count()))
print(("  graph field, the map as a graph    %7.2f ms   (%d nodes with a value)")
      :format(ms(median(t.graph)), f_graph:count()))

