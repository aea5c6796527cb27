-- The LÖVE PathDemo (examples/love, issue 8), run headless: `love
-- examples/love --selftest <png>` under xvfb-run.  Checks the exit status,
-- the costs it printed against the reference Dijkstra of spec/helpers.lua
-- on the same maps, and the screenshot it saved (a PNG of the window's
-- size, not blank).  The demo runs on the LuaJIT build (build/jit) whatever
-- runtime runs this spec.
--
-- Without `love` or `xvfb-run` the spec is pending, unless
-- ASTAR_REQUIRE_LOVE=1 (set by CI) makes that a failure.
local helpers = require("helpers")

-- one per process: two runtimes may run this spec at once
local PNG = "build/love/selftest-" .. helpers.unique_tag() .. ".png"
local LEGEND = { -- examples/love/maps/valley.txt: char -> walker cost
  ["="] = 1, ["."] = 2, ["T"] = 4, ["%"] = 8, ["~"] = false, ["#"] = false,
}

local function have(cmd)
  local p = io.popen("command -v " .. cmd .. " 2>/dev/null")
  local out = p:read("*a")
  p:close()
  return out ~= ""
end

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end

-- Rows of a text map after `skip` header lines.
local function rows_of(text, skip)
  local rows, n = {}, 0
  for line in text:gmatch("[^\r\n]+") do
    n = n + 1
    if n > skip then rows[#rows + 1] = line end
  end
  return rows
end

-- A reference description of a map, from its rows and a char -> cost.
local function map_desc(rows, cost_of)
  local w, h = #rows[1], #rows
  local costs = {}
  for y = 1, h do
    for x = 1, w do costs[(y - 1) * w + x] = cost_of(rows[y]:sub(x, x)) end
  end
  return helpers.describe(w, h, costs, { diagonals = "no_corner_cut" })
end

local function valley()
  return map_desc(rows_of(assert(read("examples/love/maps/valley.txt")), 0),
    function(c) return LEGEND[c] end)
end

local function arena() -- MovingAI: '.', 'G' and 'S' are passable
  return map_desc(rows_of(assert(read("examples/maps/arena.map")), 4),
    function(c) return (c == "." or c == "G" or c == "S") and 1 or false end)
end

-- Runs the selftest once; returns its output and exit status.
local run_output, run_status
local function selftest()
  if run_output then return run_output, run_status end
  os.remove(PNG)
  os.execute("mkdir -p build/love")
  local p = io.popen(helpers.xvfb_run() .. "love "
    .. "examples/love --selftest " .. PNG .. " 2>&1; echo \"exit=$?\"")
  run_output = p:read("*a")
  p:close()
  run_status = tonumber(run_output:match("exit=(%d+)%s*$"))
  return run_output, run_status
end

-- cost printed for map/algorithm
local function printed(out, map, algorithm)
  return tonumber(out:match("selftest " .. map .. " " .. algorithm
    .. " cost=([%d.]+)"))
end

describe("LÖVE PathDemo --selftest", function()
  teardown(function() -- the demo also saves its field view beside PNG
    os.remove(PNG)
    os.remove((PNG:gsub("%.png$", "-field.png")))
  end)
  if not (have("love") and have("xvfb-run")) then
    helpers.missing(it, pending, {
      env = "ASTAR_REQUIRE_LOVE", finds = "love and xvfb-run",
      failure = "love or xvfb-run not installed",
      needs = "the LÖVE demo is",
      skipped = "love or xvfb-run not installed: LÖVE demo spec skipped",
    })
    return
  end

  it("exits 0 after every check passed", function()
    local out, status = selftest()
    assert.are.equal(0, status, out)
    assert.is_truthy(out:find("\nselftest ok\n", 1, true), out)
    assert.is_falsy(out:find("selftest FAIL", 1, true), out)
  end)

  it("prints the optimal costs the reference finds", function()
    local out = selftest()
    for _, m in ipairs({ { "valley", valley(), { 2, 30, 49, 5 } },
                         { "arena", arena(), { 4, 4, 46, 46 } } }) do
      local key, desc, q = m[1], m[2], m[3]
      local ref = helpers.dijkstra(desc, q[1], q[2], q[3], q[4])
      assert.is_number(ref)
      local optimal = { "dijkstra", "astar", "bidirectional" }
      if key == "arena" then optimal[#optimal + 1] = "jps" end
      for _, a in ipairs(optimal) do
        local c = printed(out, key, a)
        assert(c, key .. " " .. a .. ": no cost printed\n" .. out)
        assert(math.abs(c - ref) < 1e-5, ("%s %s: printed %.6f, reference %.6f")
          :format(key, a, c, ref))
      end
      for _, a in ipairs({ "bfs", "greedy", "weighted" }) do
        local c = printed(out, key, a)
        assert(c and c >= ref - 1e-5, key .. " " .. a)
      end
      assert(printed(out, key, "weighted") <= 2 * ref + 1e-5)
    end
    -- JPS refuses the valley's mixed costs, and says why
    assert.is_truthy(out:find("selftest valley jps unsupported: algorithm "
      .. "'jps' needs uniform tile costs", 1, true), out)
  end)

  it("serves a crowd of a hundred units with the pool, partial paths "
    .. "first", function()
    local out = selftest()
    for _, key in ipairs({ "valley", "arena" }) do
      for _, budget in ipairs({ "nodes", "seconds" }) do
        local line = out:match("selftest crowd " .. key .. " " .. budget
          .. " [^\n]*")
        assert(line, key .. " " .. budget .. ": no crowd line\n" .. out)
        assert.is_truthy(line:find("units=100 served=100 arrived=100", 1,
          true), line)
      end
    end
    -- on the valley's mixed costs A* takes frames: units walk partial
    -- paths meanwhile (the node budget makes the frames the same each run)
    local partial = tonumber(out:match("selftest crowd valley nodes [^\n]*"
      .. "partial=(%d+)"))
    assert.is_true(partial and partial > 0, out)
  end)

  it("saves a screenshot the size of the window, not blank", function()
    local out = selftest()
    local png = read(PNG)
    assert(png, PNG .. " not written\n" .. out)
    assert.are.equal("\137PNG\r\n\26\n", png:sub(1, 8))
    assert.are.equal("IHDR", png:sub(13, 16))
    local function u32(i)
      local a, b, c, d = png:byte(i, i + 3)
      return ((a * 256 + b) * 256 + c) * 256 + d
    end
    assert.are.equal(1280, u32(17))
    assert.are.equal(800, u32(21))
    -- a frame of one colour compresses to a few hundred bytes
    assert.is_true(#png > 20000, "PNG of " .. #png .. " bytes")
    local colours = tonumber(out:match("colours=(%d+)"))
    assert.is_true(colours and colours >= 32, out)
  end)
end)
