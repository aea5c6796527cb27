--- astar.love: makes `require("astar")` work in a LÖVE game as shipped.
--
-- LÖVE finds the Lua half of astar inside the game by itself, but loads a
-- C module only from a real folder on disk: never from inside a `.love`
-- file or a fused executable.  setup() finds the binary (`astar/core.so`,
-- or `astar/core.dll` on Windows) and puts its folder on package.cpath:
--
--  1. in the game's folder, when the game runs unpacked (`love mygame/`);
--  2. beside the `.love` file or the fused executable;
--  3. inside the game (the `.love` or the fused executable): copied first
--     to `astar_native/astar/` in the save directory, where it can load
--     (copied again only when the game's copy differs).
--
-- A love.thread thread starts with a fresh package.cpath: call setup() in
-- the thread too, after `require("love.filesystem")` (the game's Lua
-- files are found through it).  Calling setup() again is harmless.
-- Reference: docs/api.md ("Using astar in LÖVE").

local M = {}

-- where a copy of a binary found inside the game goes in the save directory
M.SAVE_FOLDER = "astar_native"

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

local function read_file(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local data = f:read("*a")
  f:close()
  return data
end

-- "Windows", "OSX", "Linux", ... (love.system is absent in threads)
local function os_name()
  if love.system and love.system.getOS then return love.system.getOS() end
  if jit and jit.os then return jit.os end
  return package.config:sub(1, 1) == "\\" and "Windows" or "Linux"
end

local function add_cpath(dir, ext)
  local entry = dir .. "/?." .. ext
  local cpath = package.cpath
  if (";" .. cpath .. ";"):find(";" .. entry .. ";", 1, true) == nil then
    package.cpath = entry .. ";" .. cpath
  end
end

-- The binary inside the game, copied into the save directory unless an
-- identical copy is there; returns that folder, or nil and why not.
local function copy_to_save(fs, rel)
  local data = fs.read(rel)
  if type(data) ~= "string" or #data == 0 then
    return nil, "could not read " .. rel .. " inside the game"
  end
  local save = fs.getSaveDirectory()
  local dir = save .. "/" .. M.SAVE_FOLDER
  if read_file(dir .. "/" .. rel) ~= data then
    local folder = M.SAVE_FOLDER .. "/" .. rel:match("^(.*)/")
    if not fs.createDirectory(folder) then
      return nil, "could not create " .. folder .. " in the save directory "
        .. save .. " (is t.identity set in conf.lua?)"
    end
    local ok, err = fs.write(M.SAVE_FOLDER .. "/" .. rel, data)
    if not ok then
      return nil, "could not write " .. rel .. " to the save directory "
        .. save .. ": " .. tostring(err)
    end
  end
  return dir
end

--- Puts the folder holding astar's binary on package.cpath (see above).
--- Returns that folder, or nil and a message saying where it looked.
---@return string|nil folder, string? message
function M.setup()
  if type(love) ~= "table" then
    return nil, "astar.love: not running inside LÖVE"
  end
  local fs = love.filesystem
  if fs == nil then -- a thread that has not loaded it yet
    local ok, mod = pcall(require, "love.filesystem")
    fs = ok and mod or nil
  end
  if type(fs) ~= "table" then
    return nil, "astar.love: love.filesystem is not available"
  end
  local ext = os_name() == "Windows" and "dll" or "so"
  local rel = "astar/core." .. ext
  local looked = {}
  local function try(dir)
    if dir == nil then return nil end
    looked[#looked + 1] = dir .. "/" .. rel
    if exists(dir .. "/" .. rel) then
      add_cpath(dir, ext)
      return dir
    end
  end
  -- 1. the game's own folder, when it runs unpacked
  local fused = fs.isFused()
  local found = (not fused) and try(fs.getSource())
  -- 2. beside the .love file or the fused executable
  found = found or try(fs.getSourceBaseDirectory())
  if found then return found end
  -- 3. inside the game: through the save directory
  if fs.getInfo(rel, "file") then
    local dir, err = copy_to_save(fs, rel)
    if not dir then return nil, "astar.love: " .. err end
    add_cpath(dir, ext)
    return dir
  end
  return nil, "astar.love: " .. rel .. " not found (looked at "
    .. table.concat(looked, ", ") .. " and inside the game)"
end

return M
