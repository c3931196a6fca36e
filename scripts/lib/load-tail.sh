# Sourced by scripts/load for --scenario tail, after its set-up (start, run, settle, cleanup, $dir,
# $work, $report_tool). "The tail at scale": the bundled backend's /api takes 10 ms, except that 1
# call in 100 takes 1 s (--latency api=10ms,p99=1s). loomgate (examples/tail.json) calls it through
# four routes, each loaded the same way, one after another:
#   /tail/none      no hedge
#   /tail/fixed     a backup after 20 ms
#   /tail/adaptive  a backup after the primary's recent p95 (floor 5 ms)
#   /tail/twice     two copies of every request at once (KrakenD's concurrent_calls: 2)
# For each it records wrk's latencies and how many requests the backend received for how many the
# route answered (from both sides' /metrics), which is the extra upstream load.

tail_c=20
tail_latency="api=10ms,p99=1s"
warm_each=5; [ "$quick" = 1 ] && warm_each=1

LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start backend "$root/scripts/run" backend --port 0 --latency "$tail_latency"
backend_port=${url[backend]##*:}
sed "s/127\.0\.0\.1:9090/127.0.0.1:$backend_port/g" "$root/examples/tail.json" >"$work/tail.json"
LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start gateway "$root/scripts/run" --port 0 --routes "$work/tail.json"

# requests_of URL ROUTE: the route's request count in that server's /metrics.
requests_of() {
  curl -s "$1/metrics?format=json" | grep -o "\"$2\":{\"requests\":[0-9]*" | grep -o '[0-9]*$'
}

routes=(/tail/none /tail/fixed /tail/adaptive /tail/twice)
echo "loomgate: warming up (${warm_each} s per route)"
for r in "${routes[@]}"; do
  wrk -t"$threads" -c"$tail_c" -d"${warm_each}s" --timeout 10s "${url[gateway]}$r" >/dev/null 2>&1 || true
done

echo "loomgate: running the tail scenario (${duration} s per route, c=$tail_c, backend --latency $tail_latency)"
for r in "${routes[@]}"; do
  settle gateway
  g0=$(requests_of "${url[gateway]}" "$r"); u0=$(requests_of "${url[backend]}" /api)
  run gateway "$r" "$tail_c" "$duration"
  settle gateway
  sleep 1   # a backup the gateway abandoned may still be asleep in the backend; it was counted on arrival
  g1=$(requests_of "${url[gateway]}" "$r"); u1=$(requests_of "${url[backend]}" /api)
  printf '{"route":"%s","gatewayRequests":%d,"upstreamRequests":%d}\n' "$r" $((g1 - g0)) $((u1 - u0)) \
    >"$dir/upstream$(echo "$r" | tr '/' '-').json"
  echo "    backend received $((u1 - u0)) requests for $((g1 - g0)) answered"
done

write_machine_json "\"backendLatency\":\"$tail_latency\",\"tailConnections\":$tail_c,"
echo
"${report_tool[@]}" --tail "$dir"
record_run tail-latest
