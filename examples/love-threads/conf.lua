-- LÖVE 11 settings for the army planner (paths on a love.thread).
function love.conf(t)
  t.identity = "astar-threads"
  t.version = "11.0"
  t.window.title = "astar: an army planned on a worker thread"
  t.window.width = 784
  t.window.height = 784
  t.window.vsync = 1
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
end
