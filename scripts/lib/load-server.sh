# Sourced by scripts/load for --scenario server, after its set-up (start, run, settle, cpu_ms, $dir,
# $work, $report_tool). loomgate's own server against the JDK's, each serving the same routes in
# turn (one at a time, so neither shares the 2 cores with the other), beside nginx:
#   bare-KIND       load/Bare.java on that server (-Dcom.sun.net.httpserver.HttpServerProvider):
#                   /hello at c=100, the server's own CPU per request
#   proxy-KIND      examples/proxy.json over the bundled backend's 100 ms /api/data at c=2000,
#                   after a 2 s warm-up, then again after the long one
#   restart-KIND    the same, restarted and loaded at once for 5 s (its CPU by thread kind
#                   recorded), then in 2 s windows while it warms
#   aggregate-KIND  examples/http-aggregate.json's /aggregate at c=1000
#   compose-KIND    load/compose.json's /critical-path/7 (a 120 ms critical path) at c=1000
#   demo-KIND       the built-in /block (300 ms) at c=10,000
#   idle-KIND       a fresh gateway, its RSS at rest and holding 10,000 idle keep-alive
#                   connections (load/IdleClients)
#   nginx           the proxy at c=2000, 1 worker
# Each run records the server process's CPU time; the report divides it by the requests.

srv_seconds=$duration
long_warm=15; block_c=10000; idle_n=10000
[ "$quick" = 1 ] && { long_warm=5; block_c=4000; idle_n=2000; }

LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start backend "$root/scripts/run" backend --port 0
backend_port=${url[backend]##*:}
for f in proxy http-aggregate; do
  sed "s/127\.0\.0\.1:9090/127.0.0.1:$backend_port/g" "$root/examples/$f.json" >"$work/$f.json"
done
sed "s/127\.0\.0\.1:9090/127.0.0.1:$backend_port/g" "$root/load/compose.json" >"$work/compose.json"

# measured NAME ENDPOINT C WARMED [SECONDS [nosettle]]: one run, with the server's CPU time over it.
measured() {
  local name=$1 endpoint=$2 c=$3 warmed=$4 seconds=${5:-$srv_seconds} c0
  [ "$warmed" -gt 0 ] && [ "${6:-}" != nosettle ] && settle "$name"
  c0=$(cpu_ms "${pid[$name]}")
  run "$name" "$endpoint" "$c" "$seconds" ${6:-}
  printf '{"name":"%s","cpuMs":%d,"warmSeconds":%d}\n' "$name" $(( $(cpu_ms "${pid[$name]}") - c0 )) "$warmed" \
    >"$dir/cpu-$(printf %03d "$runs").json"
}

warm() { wrk -t"$threads" -c"$2" -d"$3s" --timeout 10s "$1" >/dev/null 2>&1 || true; }

# thread_cpu PID SERVER: the process's CPU so far by kind of thread, as JSON (from /proc, in ms).
thread_cpu() {
  local t comm ticks jit=0 gc=0 all=0
  for t in /proc/"$1"/task/*; do
    comm=$(cat "$t/comm" 2>/dev/null) || continue
    ticks=$(awk '{print $14 + $15}' "$t/stat" 2>/dev/null) || continue
    all=$((all + ticks))
    case $comm in
      C1\ Compiler* | C2\ Compiler*) jit=$((jit + ticks)) ;;
      GC\ Thread* | G1\ *) gc=$((gc + ticks)) ;;
    esac
  done
  local hz; hz=$(getconf CLK_TCK)
  printf '{"server":"%s","jitMs":%d,"gcMs":%d,"totalMs":%d}\n' "$2" $((jit * 1000 / hz)) $((gc * 1000 / hz)) $((all * 1000 / hz))
}

rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

for kind in loomgate jdk; do
  provider=()
  [ "$kind" = loomgate ] && provider=(--enable-preview --source 25 -cp "$root/target/loomgate.jar"
    -Dcom.sun.net.httpserver.HttpServerProvider=io.loomgate.edge.server.LoomgateServers)
  start "bare-$kind" "$JAVA_HOME/bin/java" ${LOOMGATE_JVM_FLAGS[@]+"${LOOMGATE_JVM_FLAGS[@]}"} ${provider[@]+"${provider[@]}"} \
    -Dloomgate.harness="$run_id" "$root/load/Bare.java" 0
  warm "${url[bare-$kind]}/hello" 100 "$long_warm"
  measured "bare-$kind" /hello 100 "$long_warm"
  stop "bare-$kind"

  LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start "proxy-$kind" "$root/scripts/run" --port 0 --server "$kind" \
    --routes "$work/proxy.json"
  warm "${url[proxy-$kind]}/api/data" 2000 2
  measured "proxy-$kind" /api/data 2000 2
  warm "${url[proxy-$kind]}/api/data" 2000 $((long_warm - 2))
  measured "proxy-$kind" /api/data 2000 "$long_warm"
  stop "proxy-$kind"
  # A restart: loaded from its first moment, for 5 s (with the AOT cache scripts/run makes); where
  # its CPU went in them (the JIT's compiler threads, the collector's, the rest); then 2 s windows
  # back to back while it warms, each labelled with the seconds since it said it was listening.
  LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start "restart-$kind" "$root/scripts/run" --port 0 --server "$kind" \
    --routes "$work/proxy.json"
  listened=$SECONDS
  measured "restart-$kind" /api/data 2000 0 5
  thread_cpu "${pid[restart-$kind]}" "$kind" >"$dir/restart-$kind.json"
  for _ in 1 2 3 4 5; do
    measured "restart-$kind" /api/data 2000 $((SECONDS - listened)) 2 nosettle
  done
  stop "restart-$kind"

  LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start "aggregate-$kind" "$root/scripts/run" --port 0 --server "$kind" \
    --routes "$work/http-aggregate.json"
  warm "${url[aggregate-$kind]}/aggregate" 1000 "$long_warm"
  measured "aggregate-$kind" /aggregate 1000 "$long_warm"
  stop "aggregate-$kind"

  LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start "compose-$kind" "$root/scripts/run" --port 0 --server "$kind" \
    --routes "$work/compose.json"
  warm "${url[compose-$kind]}/critical-path/7" 1000 "$long_warm"
  measured "compose-$kind" /critical-path/7 1000 "$long_warm"
  stop "compose-$kind"

  LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start "demo-$kind" "$root/scripts/run" --port 0 --server "$kind" \
    --max-connections $((block_c + idle_n + 1000))
  warm "${url[demo-$kind]}/block" 2000 "$long_warm"
  measured "demo-$kind" /block "$block_c" "$long_warm"
  stop "demo-$kind"

  # A fresh process, so the idle connections' cost is not hidden in a heap the load above grew.
  LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start "idle-$kind" "$root/scripts/run" --port 0 --server "$kind" \
    --max-connections $((idle_n + 1000))
  for _ in $(seq 20); do curl -s -o /dev/null "${url[idle-$kind]}/health"; done
  sleep 3
  before=$(rss_kb "${pid[idle-$kind]}")
  "$JAVA_HOME/bin/java" --enable-preview -cp "$LOOMGATE_TOOLS_CP" io.loomgate.load.IdleClients \
    --url "${url[idle-$kind]}/health" --connections "$idle_n" --hold 8 >"$work/idle.out" 2>&1 &
  idle_pid=$!
  held=0
  while kill -0 "$idle_pid" 2>/dev/null; do
    r=$(rss_kb "${pid[idle-$kind]}"); [ -n "$r" ] && [ "$r" -gt "$held" ] && held=$r
    sleep 0.5
  done
  answered=$(grep -o '"answered":[0-9]*' "$work/idle.out" | head -1 | cut -d: -f2)
  printf '{"server":"%s","connections":%d,"answered":%d,"rssBeforeKb":%d,"rssHeldKb":%d}\n' \
    "$kind" "$idle_n" "${answered:-0}" "$before" "$held" >"$dir/idle-$kind.json"
  echo "  $kind: $idle_n idle connections: RSS $((before / 1024)) MB at rest, $((held / 1024)) MB holding them"
  stop "idle-$kind"
done

. "$root/scripts/lib/load-nginx.sh"
start_nginx "$backend_port"
if [ -n "${url[nginx]:-}" ]; then
  warm "${url[nginx]}/api/data" 2000 "$long_warm"
  measured nginx /api/data 2000 "$long_warm"
fi

write_machine_json "\"nginx\":\"$nginx_version\","
echo
"${report_tool[@]}" --server "$dir"
record_run server-latest
