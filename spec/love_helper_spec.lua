-- astar.love (lua/astar/love.lua) against a stand-in for LÖVE's
-- love.filesystem over real folders: the unpacked game, a .love with the
-- binary beside it, a fused game with the binary inside (copied to the save
-- directory), threads, Windows.  The real LÖVE runs it in `make
-- love-packed` (CI).

local function sh(cmd)
  assert(os.execute(cmd .. " > /dev/null 2>&1"))
end

local function write(path, data)
  sh("mkdir -p '" .. path:match("^(.*)/") .. "'")
  local f = assert(io.open(path, "wb"))
  f:write(data)
  f:close()
end

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end

-- A fake `love` whose filesystem is: the game (a table of files, as inside
-- a .love), its folder on disk (source, when unpacked), the base folder
-- and the save folder (both on disk).
local function fake_love(o)
  local fs = {}
  fs.writes = 0
  function fs.isFused() return o.fused or false end
  function fs.getSource() return o.source end
  function fs.getSourceBaseDirectory() return o.base end
  function fs.getSaveDirectory() return o.save end
  function fs.getInfo(name)
    -- the save directory first, then the game, as LÖVE looks
    if read(o.save .. "/" .. name) or (o.game or {})[name] then
      return { type = "file" }
    end
  end
  function fs.read(name)
    return read(o.save .. "/" .. name) or (o.game or {})[name]
  end
  function fs.createDirectory(name)
    if o.no_save then return false end
    sh("mkdir -p '" .. o.save .. "/" .. name .. "'")
    return true
  end
  function fs.write(name, data)
    fs.writes = fs.writes + 1
    write(o.save .. "/" .. name, data)
    return true
  end
  local l = { filesystem = fs }
  if o.os then l.system = { getOS = function() return o.os end } end
  return l
end

describe("astar.love.setup", function()
  local helper = require("astar.love")
  local root, saved_love, saved_cpath, saved_fs

  before_each(function()
    root = os.tmpname()
    os.remove(root)
    sh("mkdir -p '" .. root .. "'")
    saved_love, saved_cpath = rawget(_G, "love"), package.cpath
    saved_fs = package.loaded["love.filesystem"]
  end)
  after_each(function()
    rawset(_G, "love", saved_love)
    package.cpath = saved_cpath
    package.loaded["love.filesystem"] = saved_fs
    sh("rm -rf '" .. root .. "'")
  end)

  local function entries(dir, ext)
    local n, entry = 0, dir .. "/?." .. ext
    for e in package.cpath:gmatch("[^;]+") do
      if e == entry then n = n + 1 end
    end
    return n
  end

  it("says so outside LÖVE", function()
    rawset(_G, "love", nil)
    local dir, msg = helper.setup()
    assert.is_nil(dir)
    assert.are.equal("astar.love: not running inside LÖVE", msg)
  end)

  it("finds the binary beside a .love file, once on package.cpath", function()
    write(root .. "/dist/astar/core.so", "ELF")
    rawset(_G, "love", fake_love{ source = root .. "/dist/game.love",
      base = root .. "/dist", save = root .. "/save", os = "Linux" })
    assert.are.equal(root .. "/dist", helper.setup())
    assert.are.equal(root .. "/dist", helper.setup())
    assert.are.equal(1, entries(root .. "/dist", "so"))
    assert.are.equal(root .. "/dist/?.so", package.cpath:match("^[^;]+"))
    assert.are.equal(0, love.filesystem.writes)
  end)

  it("finds it in the game's folder when the game runs unpacked", function()
    write(root .. "/mygame/astar/core.so", "ELF")
    write(root .. "/astar/core.so", "ELF") -- beside: the folder wins
    rawset(_G, "love", fake_love{ source = root .. "/mygame", base = root,
      save = root .. "/save", os = "Linux" })
    assert.are.equal(root .. "/mygame", helper.setup())
    assert.are.equal(1, entries(root .. "/mygame", "so"))
  end)

  it("copies a binary inside a fused game to the save directory", function()
    local game = { ["astar/core.so"] = "ELF binary v1" }
    local l = fake_love{ fused = true, source = root .. "/bin/game",
      base = root .. "/bin", save = root .. "/save", game = game,
      os = "Linux" }
    rawset(_G, "love", l)
    local dir = helper.setup()
    assert.are.equal(root .. "/save/astar_native", dir)
    assert.are.equal("ELF binary v1", read(dir .. "/astar/core.so"))
    assert.are.equal(1, entries(dir, "so"))
    assert.are.equal(1, l.filesystem.writes)
    -- the next start: the copy is the same, nothing is written
    assert.are.equal(dir, helper.setup())
    assert.are.equal(1, l.filesystem.writes)
    -- an update of the game: the copy is replaced
    game["astar/core.so"] = "ELF binary v2"
    assert.are.equal(dir, helper.setup())
    assert.are.equal("ELF binary v2", read(dir .. "/astar/core.so"))
    assert.are.equal(2, l.filesystem.writes)
    assert.are.equal(1, entries(dir, "so"))
  end)

  it("copies from inside an unfused .love too, beside it first", function()
    rawset(_G, "love", fake_love{ source = root .. "/game.love", base = root,
      save = root .. "/save", game = { ["astar/core.so"] = "ELF" },
      os = "Linux" })
    assert.are.equal(root .. "/save/astar_native", helper.setup())
    write(root .. "/astar/core.so", "ELF")
    assert.are.equal(root, helper.setup())
  end)

  it("looks for astar/core.dll on Windows", function()
    write(root .. "/astar/core.so", "ELF")
    write(root .. "/astar/core.dll", "MZ")
    rawset(_G, "love", fake_love{ fused = true, source = root .. "/game.exe",
      base = root, save = root .. "/save", os = "Windows" })
    assert.are.equal(root, helper.setup())
    assert.are.equal(root .. "/?.dll", package.cpath:match("^[^;]+"))
    assert.are.equal(0, entries(root, "so"))
  end)

  it("loads love.filesystem in a thread that has not yet", function()
    write(root .. "/astar/core.so", "ELF")
    local l = fake_love{ source = root .. "/g.love", base = root,
      save = root .. "/save" } -- no love.system in a thread
    local fs = l.filesystem
    l.filesystem = nil
    package.loaded["love.filesystem"] = fs
    rawset(_G, "love", l)
    assert.are.equal(root, helper.setup())
  end)

  it("returns nil and where it looked when there is no binary", function()
    rawset(_G, "love", fake_love{ source = root .. "/g.love", base = root,
      save = root .. "/save", os = "Linux" })
    local cpath = package.cpath
    local dir, msg = helper.setup()
    assert.is_nil(dir)
    assert.are.equal("astar.love: astar/core.so not found (looked at " .. root
      .. "/g.love/astar/core.so, " .. root
      .. "/astar/core.so and inside the game)", msg)
    assert.are.equal(cpath, package.cpath)
  end)

  it("says why when the save directory cannot be written", function()
    rawset(_G, "love", fake_love{ fused = true, source = root .. "/g",
      base = root, save = root .. "/save", no_save = true,
      game = { ["astar/core.so"] = "ELF" }, os = "Linux" })
    local dir, msg = helper.setup()
    assert.is_nil(dir)
    assert.is_truthy(msg:find("could not create astar_native/astar in the "
      .. "save directory", 1, true), msg)
  end)
end)
