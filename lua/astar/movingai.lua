-- MovingAI benchmark files: scenario (.map.scen) reader, the tolerance with
-- which a computed path cost matches a printed optimal length, and the map
-- that goes with a scenario file.  Plain Lua: 5.1, 5.2, 5.3, 5.4, LuaJIT.
--
-- Scenario format (see movingai.com/benchmarks/formats.html): a first line
-- `version X`, then one problem per line with 9 whitespace-separated fields
--   bucket  map  map_width  map_height  start_x  start_y  goal_x  goal_y  length
-- Coordinates in the file are 0-based; read_scenarios returns them 1-based.

local M = {}

local tonumber, abs = tonumber, math.abs

local LABELS = { "bucket", "map", "map width", "map height", "start x",
                 "start y", "goal x", "goal y" }

local function is_uint(s)
  return s:match("^%d+$") ~= nil
end

-- A decimal number as the benchmark prints it: digits, an optional fraction,
-- an optional exponent (%g may print one).  No sign, no hex, no inf/nan.
local function is_length_text(s)
  return (s:match("^%d+%.?%d*$") or s:match("^%.%d+$")
          or s:match("^%d+%.?%d*[eE][%+%-]?%d+$")
          or s:match("^%.%d+[eE][%+%-]?%d+$")) ~= nil
end

-- Parses the text of a .map.scen file.  `name` is used in messages.
-- Returns the list of problems, or nil and a message.
function M.parse_scenarios(text, name)
  name = name or "scenarios"
  if type(text) ~= "string" then
    return nil, name .. ": expected a string"
  end
  local list, n = {}, 0
  local lineno = 0
  local seen_version = false
  local pos, len = 1, #text
  while pos <= len do
    local nl = text:find("\n", pos, true)
    local line
    if nl then
      line = text:sub(pos, nl - 1)
      pos = nl + 1
    else
      line = text:sub(pos)
      pos = len + 1
    end
    lineno = lineno + 1
    if line:sub(-1) == "\r" then line = line:sub(1, -2) end
    if not seen_version then
      if not line:match("^version%s+%S+%s*$") then
        return nil, ("%s:%d: expected 'version ...' as the first line"):format(
          name, lineno)
      end
      seen_version = true
    elseif line:match("%S") then
      local f, k = {}, 0
      for field in line:gmatch("%S+") do
        k = k + 1
        f[k] = field
      end
      if k ~= 9 then
        return nil, ("%s:%d: expected 9 fields, got %d"):format(name, lineno, k)
      end
      for i = 1, 8 do
        if i ~= 2 and not is_uint(f[i]) then
          return nil, ("%s:%d: %s is not a non-negative integer: '%s'"):format(
            name, lineno, LABELS[i], f[i])
        end
      end
      if not is_length_text(f[9]) then
        return nil, ("%s:%d: optimal length is not a number: '%s'"):format(
          name, lineno, f[9])
      end
      local w, h = tonumber(f[3]), tonumber(f[4])
      local sx, sy = tonumber(f[5]), tonumber(f[6])
      local gx, gy = tonumber(f[7]), tonumber(f[8])
      if w < 1 or h < 1 then
        return nil, ("%s:%d: map size %dx%d is empty"):format(name, lineno, w, h)
      end
      if sx >= w or gx >= w or sy >= h or gy >= h then
        return nil, ("%s:%d: start or goal outside the %dx%d map"):format(
          name, lineno, w, h)
      end
      n = n + 1
      list[n] = {
        bucket = tonumber(f[1]),
        map = f[2],
        width = w,
        height = h,
        sx = sx + 1,
        sy = sy + 1,
        gx = gx + 1,
        gy = gy + 1,
        length = tonumber(f[9]),
        length_text = f[9],
      }
    end
  end
  if not seen_version then
    return nil, name .. ": empty file (expected 'version ...')"
  end
  return list
end

-- Reads a .map.scen file.  Returns the list of problems, each
-- {bucket=, map=, width=, height=, sx=, sy=, gx=, gy=, length=, length_text=}
-- with 1-based coordinates, or nil and a message (like io.open).
function M.read_scenarios(path)
  if type(path) ~= "string" then
    -- a wrong argument is a mistake, not an outcome: raise, like the C side
    -- (with the caller's "file:line: " in front, as the C side has it)
    error("bad argument #1 to 'read_scenarios' (path must be a string, got "
      .. type(path) .. ")", 2)
  end
  local f, err = io.open(path, "rb")
  if not f then return nil, err end
  local text, rerr = f:read("*a")
  f:close()
  if not text then
    return nil, path .. ": " .. tostring(rerr)
  end
  return M.parse_scenarios(text, path)
end

-- Absolute tolerance for comparing a computed cost with a printed length:
-- half a unit in the last printed digit (the printing's rounding) plus
-- 1e-6 * length (the generator's own arithmetic error).  A number printed
-- without a decimal point and with fewer than 6 digits comes from %g (6
-- significant digits, trailing zeros dropped), so it counts as having 6
-- significant digits: "12" -> 0.5e-4 + 12e-6, not 0.5.
--
-- Why a sum and not the larger of the two: when the exact length sits on a
-- rounding boundary, the generator's slightly-off value can round the other
-- way.  maze512-4-0.map.scen prints 162 + 96*sqrt(2) = 297.764501987... as
-- "297.764" (23 such lines in that file): 0.000502 away, just over half a
-- unit (0.0005), so "the larger of" would call 23 optimal paths mismatches.
function M.tolerance(length_text)
  local s = tostring(length_text)
  local mant, expo = s:match("^([%d%.]+)[eE]([%+%-]?%d+)$")
  if not mant then mant, expo = s, "0" end
  local int, frac = mant:match("^(%d*)%.(%d*)$")
  local decimals
  if int then
    decimals = #frac
  else
    int = mant:match("^%d+$")
    if not int then
      error("tolerance: not a printed length: '" .. s .. "'", 2)
    end
    decimals = 0
    if #int < 6 then decimals = 6 - #int end
  end
  local e = tonumber(expo)
  local half_unit = 0.5 * 10 ^ (e - decimals)
  local value = tonumber(s)
  return half_unit + 1e-6 * abs(value)
end

-- The .map file that goes with a scenario file: X.map for X.map.scen;
-- otherwise the base name of the entry's map field (which may carry a
-- directory, as in the 2011 files: "maps/mazes/maze512-4-0.map"), looked up
-- in the scenario file's directory.  Returns the path, or nil and a message.
function M.map_path_for(scen_path, scen_entry)
  local stem = scen_path:match("^(.*%.map)%.scen$")
  if stem then return stem end
  local map = type(scen_entry) == "table" and scen_entry.map or nil
  if type(map) ~= "string" or map == "" then
    return nil, scen_path .. ": cannot tell which map goes with it"
  end
  local dir = scen_path:match("^(.*[/\\])") or ""
  local base = map:match("([^/\\]+)$")
  if not base then
    return nil, scen_path .. ": bad map name '" .. map .. "'"
  end
  return dir .. base
end

return M
