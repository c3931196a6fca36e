# Sourced by scripts/load for --scenario cache, after its set-up (start, run, settle, cleanup, $dir,
# $work, $report_tool). examples/compose.json's /users/{id}/overview over the bundled backend (user,
# then team; orders, then each item), for users 7, 8 and 9 in turn, so the teams and the items repeat
# across users: served by one gateway without a cache and by one whose three upstreams have
# "cache": {"defaultTtl": "30s"} (the backend sends no Cache-Control), each at c=1000 for
# --duration. Recorded per run: rps, p50 and p99, the gateway's CPU per request, and the backend's
# requests per client request.

cache_c=1000
warm_each=15; [ "$quick" = 1 ] && { warm_each=2; cache_c=200; }

LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start backend "$root/scripts/run" backend --port 0
backend_port=${url[backend]##*:}
cp "$root/examples/compose.json" "$work/plain.json"
sed 's|"url": "http://${BACKEND:-127.0.0.1:9090}"}|"url": "http://${BACKEND:-127.0.0.1:9090}", "cache": {"defaultTtl": "30s"}}|' \
  "$root/examples/compose.json" >"$work/cached.json"
grep -q '"cache"' "$work/cached.json" || { echo "loomgate: could not add a cache to examples/compose.json" >&2; exit 1; }
for name in plain cached; do
  BACKEND=127.0.0.1:$backend_port LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" \
    start "$name" "$root/scripts/run" --port 0 --routes "$work/$name.json"
done

paths=/users/7/overview,/users/8/overview,/users/9/overview
backend_requests() { curl -s "${url[backend]}/metrics?format=json" | grep -o '"requests":[0-9]*' | head -1 | cut -d: -f2; }

# measured NAME: one run of the rotation against NAME, with its CPU and the backend's requests beside it.
measured() {
  local name=$1 g0 b0 file json
  settle "$name"
  runs=$((runs + 1))
  file="$dir/run-$(printf %03d "$runs")-$name-c$cache_c.json"
  g0=$(cpu_ms "${pid[$name]}"); b0=$(backend_requests)
  LOOMGATE_PATHS=$paths LOOMGATE_REPORT_LUA="$root/load/report.lua" \
    wrk -t"$threads" -c"$cache_c" -d"${duration}s" --timeout 10s -s "$root/load/rotate.lua" "${url[$name]}" >"$work/wrk.out" 2>&1 || true
  json=$(grep '^{"requests"' "$work/wrk.out" | tail -1 || true)
  [ -n "$json" ] || { echo "loomgate: wrk gave no report for $name:" >&2; cat "$work/wrk.out" >&2; exit 1; }
  printf '{"endpoint":"/users/{id}/overview","mode":"%s","connections":%d,"peakRssKb":0,"wrk":%s}\n' "$name" "$cache_c" "$json" >"$file"
  printf '{"mode":"%s","gatewayCpuMs":%d,"backendRequests":%d}\n' "$name" $(( $(cpu_ms "${pid[$name]}") - g0 )) \
    $(( $(backend_requests) - b0 )) >"$dir/cpu-$name.json"
  echo "  $name: $(echo "$json" | grep -o '"rps":[0-9.]*' | cut -d: -f2) answers/s, backend requests $(( $(backend_requests) - b0 ))"
}

echo "loomgate: warming up (${warm_each} s each)"
for name in plain cached; do
  LOOMGATE_PATHS=$paths LOOMGATE_REPORT_LUA="$root/load/report.lua" \
    wrk -t"$threads" -c"$cache_c" -d"${warm_each}s" --timeout 10s -s "$root/load/rotate.lua" "${url[$name]}" >/dev/null 2>&1 || true
done
echo "loomgate: running the cache scenario (${duration} s per run at c=$cache_c)"
measured plain
measured cached

write_machine_json ""
echo
"${report_tool[@]}" --cache "$dir"
record_run cache-latest
echo
echo "loomgate: report in $dir/report.md"
