-- Every scenario of every MovingAI map in ../shared/maps under A* (forced:
-- jps_spec.lua does the same for JPS, which "auto" would pick): the default
-- settings (8-way, no corner cutting, lengths 1 and sqrt 2) must return the
-- published optimal length within the printed precision, along a legal path.
--
-- Slow (about a minute on 5.4 and LuaJIT, which run every scenario; 5.1-5.3
-- run every 7th: helpers.scenario_step): tagged #slow so the valgrind run can
-- leave it out.  Without ../shared/maps the block is pending with a visible
-- message, unless ASTAR_REQUIRE_MAPS=1 (set by CI) makes that a failure.
local astar = require("astar")
local movingai = require("astar.movingai")
local helpers = require("helpers")

local SQRT2 = math.sqrt(2)

-- The maps the shared README lists, with their scenario counts; used when
-- the directory cannot be listed, and to check nothing was lost on reading.
local KNOWN = {
  ["arena.map"] = 130, ["lak303d.map"] = 1040, ["brc202d.map"] = 2550,
  ["AR0011SR.map"] = 2180, ["Archipelago.map"] = 2310,
  ["nighthaven.map"] = 1420, ["maze512-4-0.map"] = 9730,
  ["random512-10-0.map"] = 1780, ["32room_000.map"] = 2130,
  ["Berlin_0_512.map"] = 1870,
}

local function list_maps(dir)
  local names, seen = {}, {}
  local p = io.popen('ls "' .. dir .. '" 2>/dev/null')
  if p then
    for line in p:lines() do
      if line:match("%.map$") and not seen[line] then
        seen[line] = true
        names[#names + 1] = line
      end
    end
    p:close()
  end
  if #names == 0 then
    for name in pairs(KNOWN) do names[#names + 1] = name end
  end
  table.sort(names)
  return names
end

-- Reads a .map file on its own (not through astar): width, height and a
-- flat list of booleans, true = passable (. G S).
local function read_map(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  local lines = helpers.lines(text)
  assert(lines[1]:match("^type "), path .. ": no 'type' line")
  local h = tonumber(lines[2]:match("^height (%d+)"))
  local w = tonumber(lines[3]:match("^width (%d+)"))
  assert(w and h and lines[4] == "map", path .. ": bad header")
  local pass = {}
  for y = 1, h do
    local row = lines[4 + y]
    assert(row and #row == w, path .. ": bad row " .. y)
    for x = 1, w do
      local ch = row:sub(x, x)
      pass[(y - 1) * w + x] = ch == "." or ch == "G" or ch == "S"
    end
  end
  return w, h, pass
end

-- Checks a path move by move under the MovingAI rules with the map's own
-- passability; returns the summed length or nil and a message.
local function walk(w, h, pass, path, sx, sy, gx, gy)
  local n = #path
  if n < 2 or n % 2 == 1 then return nil, "path has " .. n .. " numbers" end
  if path[1] ~= sx or path[2] ~= sy then return nil, "does not start at start" end
  if path[n - 1] ~= gx or path[n] ~= gy then return nil, "does not end at goal" end
  local straight, diagonal = 0, 0
  local x, y = sx, sy
  for i = 3, n - 1, 2 do
    local nx, ny = path[i], path[i + 1]
    local dx, dy = nx - x, ny - y
    if nx < 1 or ny < 1 or nx > w or ny > h or not pass[(ny - 1) * w + nx] then
      return nil, ("step to (%s,%s): blocked or outside"):format(
        tostring(nx), tostring(ny))
    end
    if (dx == 0 and (dy == 1 or dy == -1))
        or (dy == 0 and (dx == 1 or dx == -1)) then
      straight = straight + 1
    elseif (dx == 1 or dx == -1) and (dy == 1 or dy == -1) then
      if not (pass[(y - 1) * w + nx] and pass[(ny - 1) * w + x]) then
        return nil, ("diagonal (%d,%d)->(%d,%d) cuts a corner"):format(
          x, y, nx, ny)
      end
      diagonal = diagonal + 1
    else
      return nil, ("(%s,%s)->(%s,%s) is not a move"):format(
        tostring(x), tostring(y), tostring(nx), tostring(ny))
    end
    x, y = nx, ny
  end
  return straight + diagonal * SQRT2
end

describe("MovingAI maps #slow", function()
  local dir = helpers.maps_dir()
  if not dir then
    helpers.missing_maps(it, pending, "MovingAI scenario specs")
    return
  end

  for _, name in ipairs(list_maps(dir)) do
    it(name .. ": every scenario has the published optimal length", function()
      local map_path = dir .. "/" .. name
      local w, h, pass = read_map(map_path)

      local grid, err = astar.load_movingai(map_path)
      assert(grid, "load_movingai failed: " .. tostring(err))
      local gw, gh = grid:size()
      assert.are.same({ w, h }, { gw, gh })
      local m = grid:get_movement()
      assert.are.equal("no_corner_cut", m.diagonals)
      assert.are.equal(1, m.cardinal)
      assert.are.equal(SQRT2, m.diagonal)
      -- the loader agrees with an independent reading of the file
      for y = 1, h do
        for x = 1, w do
          local p = pass[(y - 1) * w + x]
          local c = grid:get_cost(x, y)
          if (p and c ~= 1) or (not p and c ~= false) then
            error(("%s: tile (%d,%d) reads %s, file says %s"):format(
              name, x, y, tostring(c), p and "passable" or "blocked"), 0)
          end
        end
      end

      local list, serr = astar.read_scenarios(map_path .. ".scen")
      assert(list, "read_scenarios failed: " .. tostring(serr))
      if KNOWN[name] then assert.are.equal(KNOWN[name], #list) end
      assert.is_true(#list > 0)

      local out = {}
      local failures, nfail = {}, 0
      local function bad(i, s, msg)
        nfail = nfail + 1
        if nfail <= 10 then
          failures[#failures + 1] = ("  #%d (%d,%d)->(%d,%d) length %s: %s")
            :format(i, s.sx, s.sy, s.gx, s.gy, s.length_text, msg)
        end
      end
      for i = 1, #list, helpers.scenario_step() do
        local s = list[i]
        if s.width ~= w or s.height ~= h then
          bad(i, s, ("scenario says %dx%d"):format(s.width, s.height))
        else
          local path, cost = grid:find_path(s.sx, s.sy, s.gx, s.gy,
            { algorithm = "astar" }, out)
          if not path then
            bad(i, s, "no path: " .. tostring(cost))
          else
            local tol = movingai.tolerance(s.length_text)
            local len, why = walk(w, h, pass, path, s.sx, s.sy, s.gx, s.gy)
            if not len then
              bad(i, s, "illegal path: " .. why)
            elseif math.abs(cost - s.length) > tol then
              bad(i, s, ("cost %.10f, off by %.3g (tolerance %.3g)"):format(
                cost, cost - s.length, tol))
            elseif not helpers.close(len, cost, 1e-9) then
              bad(i, s, ("returned cost %.12f, the path's steps sum to %.12f")
                :format(cost, len))
            end
          end
        end
      end
      if nfail > 0 then
        error(("%s: %d of %d scenarios failed; first ones:\n%s"):format(
          name, nfail, #list, table.concat(failures, "\n")), 0)
      end
    end)
  end
end)
