# Sourced by scripts/load for --scenario compose, after its set-up (start, run, settle, cleanup, $dir,
# $work, $report_tool). One graph over the bundled backend's JSON API (load/compose.json): user
# (60 ms), then team (60 ms), beside orders (100 ms). Its critical path is 120 ms; run level by level
# it takes 160 ms, as a chain 220 ms. The same three calls are served three ways, with their needs
# made to force each schedule:
#   /critical-path/7   team needs user only: the critical path, 120 ms
#   /by-level/7        team also needs orders: level by level, 160 ms
#   /chain/7           orders needs team: a chain, 220 ms
# Runs: each at c=1; the critical path at c=500 and c=1000; the HTTP /aggregate (db 300 ms and the
# file, over the same backend) at c=500, for the CPU each request costs loomgate. Each run records
# the gateway's and the backend's CPU time.

compose_seconds=$duration
warm_each=10; [ "$quick" = 1 ] && warm_each=2

LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start backend "$root/scripts/run" backend --port 0
backend_port=${url[backend]##*:}
sed "s/127\.0\.0\.1:9090/127.0.0.1:$backend_port/g" "$root/load/compose.json" >"$work/compose.json"
LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start gateway "$root/scripts/run" --port 0 --routes "$work/compose.json"

# measured ENDPOINT C: one run on the gateway, with both processes' CPU time beside it.
measured() {
  local endpoint=$1 c=$2 g0 b0
  settle gateway
  g0=$(cpu_ms "${pid[gateway]}"); b0=$(cpu_ms "${pid[backend]}")
  run gateway "$endpoint" "$c" "$compose_seconds"
  printf '{"endpoint":"%s","connections":%d,"gatewayCpuMs":%d,"backendCpuMs":%d}\n' "$endpoint" "$c" \
    $(( $(cpu_ms "${pid[gateway]}") - g0 )) $(( $(cpu_ms "${pid[backend]}") - b0 )) \
    >"$dir/cpu-$(printf %03d "$runs").json"
}

echo "loomgate: warming up (${warm_each} s per route)"
for r in /critical-path/7 /by-level/7 /chain/7 /aggregate; do
  wrk -t"$threads" -c200 -d"${warm_each}s" --timeout 10s "${url[gateway]}$r" >/dev/null 2>&1 || true
done
wrk -t"$threads" -c1000 -d"${warm_each}s" --timeout 10s "${url[gateway]}/critical-path/7" >/dev/null 2>&1 || true

echo "loomgate: running the compose scenario (${compose_seconds} s per run)"
for r in /critical-path/7 /by-level/7 /chain/7; do measured "$r" 1; done
measured /critical-path/7 500
measured /critical-path/7 1000
measured /aggregate 500

write_machine_json "\"criticalPathMs\":120,"
echo
"${report_tool[@]}" --compose "$dir"
record_run compose-latest
