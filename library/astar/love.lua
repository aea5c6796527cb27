---@meta astar.love
-- Editor definitions of astar.love, the LÖVE helper (lua/astar/love.lua).

---Makes `require("astar")` work in a LÖVE game as shipped.
---@class astar.love
---@field SAVE_FOLDER string the save-directory folder a binary found inside the game is copied to (`"astar_native"`)
local love_helper = {}

---Puts the folder holding astar's binary (`astar/core.so`, `astar/core.dll`
---on Windows) on `package.cpath`: the game's folder when it runs unpacked,
---beside the `.love` file or the fused executable, or else, when the binary
---is inside the game, a copy in the save directory (LÖVE cannot load a C
---module from inside a zip). Call it before the first `require("astar")`,
---and in each `love.thread` thread after `require("love.filesystem")`.
---Harmless to call twice.
---@return string|nil folder the folder put on `package.cpath`
---@return string? message where it looked, when it found nothing
function love_helper.setup() end

return love_helper
