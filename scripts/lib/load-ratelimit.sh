# Sourced by scripts/load for --scenario ratelimit, after its set-up (start, run, settle, cleanup,
# $dir, $work, $report_tool). Does a rate limit hold under load? One route limited to 100 requests a
# second (burst 10, one bucket: every request comes from 127.0.0.1) in front of a 1 ms simulated
# upstream; wrk at c=200 for 20 s (--duration when given; --quick: 5 s). What passes (2xx) should
# stay within a few percent of 100 a second, the rest get 429 at once.

limit_c=200
limit_seconds=20; [ "$duration_given" = 1 ] && limit_seconds=$duration; [ "$quick" = 1 ] && limit_seconds=5
cat >"$work/limit-routes.json" <<JSON
{"upstreams": [{"id": "fast", "kind": "simulated", "service": "cache", "latency": "1ms"}],
 "routes": [{"path": "/limited", "policy": "single", "upstreams": ["fast"],
             "rateLimit": {"perSecond": 100, "burst": 10, "by": "ip"}}]}
JSON
LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start gateway "$root/scripts/run" --port 0 --routes "$work/limit-routes.json"

echo "loomgate: warming up (3 s)"
wrk -t"$threads" -c"$limit_c" -d3s --timeout 10s "${url[gateway]}/limited" >/dev/null 2>&1 || true
sleep 1   # the bucket refills: the run starts from a full one, as a new client would

echo "loomgate: running the ratelimit scenario (${limit_seconds} s, c=$limit_c, 100/s burst 10)"
run gateway /limited "$limit_c" "$limit_seconds"

write_machine_json "\"limitPerSecond\":100,\"limitBurst\":10,\"limitConnections\":$limit_c,"
echo
"${report_tool[@]}" --ratelimit "$dir"
record_run ratelimit-latest
