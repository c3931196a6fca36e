-- wrk reporter for loomgate's load harness: done() prints one JSON object on one line.
--   wrk -t2 -c100 -d10s --timeout 10s -s load/report.lua http://127.0.0.1:8080/block
-- Latencies are wrk's, in microseconds. "errors" are wrk's own kinds: connect, read, write,
-- timeout (no response within --timeout) and status (answers that were not 2xx or 3xx).

done = function(summary, latency, requests)
  local e = summary.errors
  local seconds = summary.duration / 1000000
  io.write(string.format(
    '{"requests":%d,"durationUs":%d,"rps":%.2f,"bytes":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latencyUs":{"mean":%.1f,"stdev":%.1f,"min":%d,"p50":%d,"p90":%d,"p99":%d,"p999":%d,"max":%d}}\n',
    summary.requests, summary.duration, summary.requests / seconds, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency.mean, latency.stdev, latency.min,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9),
    latency.max))
end
