--- astar: grid pathfinding with the hot loop in C.
-- The C module `astar.core` does the work; this file re-exports it and adds
-- what is simpler in Lua (reading files, drawing paths as text).
-- API reference: docs/api.md.
local core = require("astar.core")
local movingai = require("astar.movingai")

---@class astar
local astar = {}

for name, fn in pairs(core) do
  astar[name] = fn
end

local function read_file(path)
  local f, err = io.open(path, "rb")
  if not f then return nil, err end
  local text = f:read("*a")
  f:close()
  if not text then return nil, path .. ": could not be read" end
  return text
end

--- Loads a MovingAI `.map` file into a grid.
---@param path string
---@param options? table same options as astar.new
---@return userdata|nil grid, string? message
function astar.load_movingai(path, options)
  if type(path) ~= "string" then
    error("bad argument #1 to 'load_movingai' (path must be a string, got "
      .. type(path) .. ")", 0)
  end
  -- parse_movingai checks the options before the text: check them before
  -- touching the file, and name this function in the message.
  local ok, err = pcall(core.parse_movingai, "", options)
  if not ok then
    error((tostring(err):gsub("'parse_movingai'", "'load_movingai'", 1)), 0)
  end
  local text, rerr = read_file(path)
  if not text then return nil, rerr end
  local grid, perr = core.parse_movingai(text, options)
  if not grid then return nil, path .. ": " .. perr end
  return grid
end

astar.read_scenarios = movingai.read_scenarios

-- hex grids: axial <-> offset coordinates, grids for offset maps
astar.hex = require("astar.hex")

--- Draws a grid as text with a path on it: `S` start, `G` goal, `*` the
--- tiles between (the rest as in tostring(grid)).
---@param grid userdata
---@param path? table flat {x1, y1, ..., xn, yn}
---@return string
function astar.render(grid, path)
  local rows = {}
  for line in (tostring(grid) .. "\n"):gmatch("([^\n]*)\n") do
    rows[#rows + 1] = line
  end
  if path and #path >= 2 then
    local marks = {}
    local n = #path / 2
    for i = 1, n do
      local x, y = path[2 * i - 1], path[2 * i]
      local ch = (i == 1 and "S") or (i == n and "G") or "*"
      marks[y] = marks[y] or {}
      marks[y][x] = ch
    end
    for y, cols in pairs(marks) do
      local row = rows[y]
      local out = {}
      for x = 1, #row do
        out[x] = cols[x] or row:sub(x, x)
      end
      rows[y] = table.concat(out)
    end
  end
  return table.concat(rows, "\n")
end

return astar
