-- scripts/soak's workload: mixed and fault-injected, reproducible per thread.
--   file-flaky fails 30% of the time (loomgate's default), so /aggregate-with-fallback degrades;
--   random short deadlines end in 504s; first-success races cancel their losers; some calls fail.
-- done() prints one JSON line: wrk's totals and errors, and every status code seen with its count.

local paths = {
  "/aggregate-with-fallback?delay=db:%dms",
  "/aggregate-with-fallback?timeout=%dms",
  "/aggregate?timeout=%dms",
  "/aggregate?fail=file&delay=file:%dms",
  "/first-success",
  "/first-success?delay=cache-1:%dms",
  "/first-success?fail=cache-2&timeout=%dms",
  "/multi-aggregate?timeout=%dms",
  "/block?timeout=%dms",
  "/cache?delay=cache:%dms",
}
local threads = {}
local counter = 0

setup = function(thread)
  counter = counter + 1
  thread:set("id", counter)
  table.insert(threads, thread)
end

init = function(args)
  math.randomseed(1000 + id)
  statuses = {}
end

request = function()
  local path = string.format(paths[math.random(#paths)], math.random(1, 400))
  return wrk.format("GET", path)
end

response = function(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end

done = function(summary, latency, requests)
  local all = {}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("statuses")) do
      all[status] = (all[status] or 0) + n
    end
  end
  local parts = {}
  for status, n in pairs(all) do
    table.insert(parts, string.format('"%d":%d', status, n))
  end
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"statuses":{%s},"latencyUs":{"p50":%d,"p99":%d,"max":%d}}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    table.concat(parts, ","), latency:percentile(50), latency:percentile(99), latency.max))
end
