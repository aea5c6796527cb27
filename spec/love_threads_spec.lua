-- The LÖVE army planner (examples/love-threads, issue 16), run headless:
-- `love examples/love-threads --selftest <png>` under xvfb-run.  Its
-- planner runs on a love.thread with a snapshot token; the selftest
-- checks every cost against grid:find_path on the main thread.  Here:
-- the exit status, the batch lines and the screenshot.  Without `love`
-- or `xvfb-run` the spec is pending, unless ASTAR_REQUIRE_LOVE=1.
local helpers = require("helpers")

-- one per process: two runtimes may run this spec at once
local PNG = "build/love/threads-selftest-" .. helpers.unique_tag() .. ".png"

local function have(cmd)
  local p = io.popen("command -v " .. cmd .. " 2>/dev/null")
  local out = p:read("*a")
  p:close()
  return out ~= ""
end

local run_output, run_status
local function selftest()
  if run_output then return run_output, run_status end
  os.remove(PNG)
  os.execute("mkdir -p build/love")
  local p = io.popen("timeout 120 " .. helpers.xvfb_run()
    .. "love examples/love-threads --selftest " .. PNG
    .. " 2>&1; echo \"exit=$?\"")
  run_output = p:read("*a")
  p:close()
  run_status = tonumber(run_output:match("exit=(%d+)%s*$"))
  return run_output, run_status
end

describe("LÖVE army planner (love.thread) --selftest", function()
  teardown(function() os.remove(PNG) end)
  if not (have("love") and have("xvfb-run")) then
    helpers.missing(it, pending, {
      env = "ASTAR_REQUIRE_LOVE", finds = "love and xvfb-run",
      failure = "love or xvfb-run not installed",
      needs = "the LÖVE thread example is",
      skipped = "love or xvfb-run not installed: LÖVE thread example "
        .. "spec skipped",
    })
    return
  end

  it("plans three batches on the thread, each equal to the grid's", function()
    local out, status = selftest()
    assert.are.equal(0, status, out)
    assert.is_truthy(out:find("\nselftest ok\n", 1, true), out)
    assert.is_falsy(out:find("selftest FAIL", 1, true), out)
    local n = 0
    for id, q, found in out:gmatch("selftest batch (%d+): (%d+) queries, "
        .. "(%d+) found") do
      n = n + 1
      assert.are.equal(n, tonumber(id))
      assert.are.equal(60, tonumber(q))
      assert.are.equal(60, tonumber(found), out)
    end
    assert.are.equal(3, n, out)
    -- the wall added before batch 3 lengthens some paths
    local c1 = tonumber(out:match("batch 1: .- total cost ([%d.]+)"))
    local c3 = tonumber(out:match("batch 3: .- total cost ([%d.]+)"))
    assert.is_true(c3 > c1, out)
  end)

  it("saves a screenshot of the window", function()
    local out = selftest()
    local f = io.open(PNG, "rb")
    assert(f, PNG .. " not written\n" .. out)
    local png = f:read("*a")
    f:close()
    assert.are.equal("\137PNG\r\n\26\n", png:sub(1, 8))
    local function u32(i)
      local a, b, c, d = png:byte(i, i + 3)
      return ((a * 256 + b) * 256 + c) * 256 + d
    end
    assert.are.equal(784, u32(17))
    assert.are.equal(784, u32(21))
    assert.is_true(#png > 10000, "PNG of " .. #png .. " bytes")
  end)
end)
