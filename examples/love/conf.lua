-- LÖVE 11 settings for the PathDemo.
function love.conf(t)
  t.identity = "astar-pathdemo"
  t.version = "11.0"
  t.window.title = "astar PathDemo"
  t.window.width = 1280
  t.window.height = 800
  t.window.vsync = 1
  -- no sound, joysticks, physics or video: nothing to open on a headless box
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
end
