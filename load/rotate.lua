-- wrk script for loomgate's reload scenario: each thread's requests go round the paths in
-- LOOMGATE_PATHS (comma-separated), and done() prints report.lua's one JSON line.
--   LOOMGATE_PATHS=/api/data,/aggregate wrk -t2 -c500 -d30s -s load/rotate.lua http://127.0.0.1:8080
dofile(os.getenv("LOOMGATE_REPORT_LUA") or "load/report.lua")

local paths = {}
for p in string.gmatch(os.getenv("LOOMGATE_PATHS") or "/", "[^,]+") do
  paths[#paths + 1] = p
end
local i = 0

request = function()
  i = i + 1
  return wrk.format(nil, paths[(i % #paths) + 1])
end
