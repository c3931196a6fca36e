# Sourced by scripts/load for --scenario h2, after its set-up (start, stop, cpu_ms, $dir, $work, $root).
# HTTP/2 with prior knowledge (h2c), the way issue #45 measures it: h2load (nghttp2) at c=100
# connections x 10 streams each against loomgate's server and nginx (`listen ... http2`), each front
# end pinned to core 0 (nginx one worker, the JVM seeing one CPU), h2load and a backend that answers
# at once (nginx's `return 200`, HTTP/1.1) on core 1: the proxy route, and a route answered by the
# front end itself (loomgate's /health, nginx's `return 200`). A warm-up until steady, then a measured run;
# the front end's user + system CPU over the measured run divided by the requests it answered is
# its CPU per request; then the proxy again with an h2c backend, HTTP/2 on both sides (about 3
# minutes; --quick: 3 s runs).

if [ "$(nproc)" -lt 2 ]; then echo "loomgate: --scenario h2 needs 2 cores (front end on one, h2load and the backend on the other)" >&2; exit 2; fi
command -v nginx >/dev/null 2>&1 || { echo "loomgate: --scenario h2 needs nginx: sudo apt-get install nginx-light" >&2; exit 2; }
command -v h2load >/dev/null 2>&1 || { echo "loomgate: --scenario h2 needs h2load: sudo apt-get install nghttp2-client" >&2; exit 2; }
command -v taskset >/dev/null 2>&1 || { echo "loomgate: --scenario h2 needs taskset: sudo apt-get install util-linux" >&2; exit 2; }

. "$root/scripts/lib/load-nginx.sh"

h2_warm=10; h2_warm_window=5; h2_warm_max=120; h2_run=10
[ "$quick" = 1 ] && { h2_warm=3; h2_warm_window=3; h2_warm_max=6; h2_run=3; }
h2_conns=100; h2_streams=10

backend_port=$("$JAVA_HOME/bin/java" "$root/load/FreePort.java")
nginx_on backend "$backend_port" 1 "server { listen 127.0.0.1:$backend_port backlog=4096; keepalive_requests 100000;
    location /api/ { default_type application/json; return 200 '{\"ok\":true,\"items\":[1,2,3]}'; } }"
front_port=$("$JAVA_HOME/bin/java" "$root/load/FreePort.java")
sed "s/127\.0\.0\.1:9090/127.0.0.1:$backend_port/g" "$root/examples/proxy.json" >"$work/proxy.json"

. "$root/scripts/lib/load-warm.sh"
# h2load_count SECONDS URL: h2load (core 1) for SECONDS; prints how many requests succeeded.
h2load_count() {
  taskset -c 1 h2load -c "$h2_conns" -m "$h2_streams" -t 1 -D "$1" "$2" 2>/dev/null \
    | awk '/^requests:/ { for (i = 1; i <= NF; i++) if ($(i + 1) ~ /^succeeded/) print $i }'
}

# measure NAME LABEL ENDPOINT: h2load on core 1 against NAME, a warm-up then a measured run; appends
# LABEL's row to table.md and sets h2_us[LABEL-ENDPOINT].
declare -A h2_us h2_rps
measure_h2() {
  local name=$1 label=$2 endpoint=$3 c0 c1 done_n ok rps us mean max warm
  warm=$(warm_until_steady "${pid[$name]}" "$h2_warm" "$h2_warm_max" "$h2_warm_window" h2load_count "${url[$name]}$endpoint")
  sleep 1
  c0=$(cpu_ms "${pid[$name]}")
  taskset -c 1 h2load -c "$h2_conns" -m "$h2_streams" -t 1 -D "$h2_run" "${url[$name]}$endpoint" >"$work/h2load.out" 2>&1 || true
  c1=$(cpu_ms "${pid[$name]}")
  local file=${label//, /_}
  cp "$work/h2load.out" "$dir/h2load-${file// /_}-${endpoint//\//_}.txt"
  ok=$(awk '/^requests:/ { for (i = 1; i <= NF; i++) if ($(i + 1) ~ /^succeeded/) print $i }' "$work/h2load.out")
  done_n=$(awk '/^requests:/ { for (i = 1; i <= NF; i++) if ($(i + 1) ~ /^done/) print $i }' "$work/h2load.out")
  [ -n "$ok" ] || { echo "loomgate: h2load gave no count for $label $endpoint:" >&2; cat "$work/h2load.out" >&2; exit 1; }
  rps=$(awk -v n="$ok" -v s="$h2_run" 'BEGIN { printf "%.0f", n / s }')
  us=$(awk -v c="$((c1 - c0))" -v n="$ok" 'BEGIN { if (n > 0) printf "%.1f", c * 1000 / n; else print 0 }')
  mean=$(awk '/^time for request:/ { print $6 }' "$work/h2load.out")
  max=$(awk '/^time for request:/ { print $5 }' "$work/h2load.out")
  h2_us[$label-$endpoint]=$us; h2_rps[$label-$endpoint]=$rps
  echo "| $label | \`$endpoint\` | $warm | $rps | $us | $mean | $max | $((done_n - ok)) |" >>"$dir/table.md"
  echo "  $label $endpoint: $rps answers/s, $us µs of CPU each, mean $mean, max $max"
}

echo "| front end (core 0) | endpoint | warm-up s | answers/s | CPU per answer µs | mean | max | not succeeded |" >"$dir/table.md"
echo "|---|---|---:|---:|---:|---:|---:|---:|" >>"$dir/table.md"
nginx_probe=(--http2-prior-knowledge)
nginx_on front-nginx "$front_port" 0 "upstream backend { server 127.0.0.1:$backend_port; keepalive 1024; }
  server { listen 127.0.0.1:$front_port http2 backlog=4096; keepalive_requests 100000; http2_max_concurrent_streams 128;
    location /api/ { proxy_pass http://backend/api/; proxy_http_version 1.1; proxy_set_header Connection \"\"; }
    location = /health { default_type application/json; return 200 '{\"status\":\"UP\"}'; } }"
measure_h2 front-nginx nginx /api/data
measure_h2 front-nginx nginx /health
kill "${server_pids[-1]}" 2>/dev/null; wait "${server_pids[-1]}" 2>/dev/null || true
LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start front-loomgate taskset -c 0 "$root/scripts/run" --port 0 --routes "$work/proxy.json"
measure_h2 front-loomgate loomgate /api/data
measure_h2 front-loomgate loomgate /health
stop front-loomgate

# HTTP/2 on both sides: the backend speaks h2c too (nginx, `listen ... http2`), nginx's front reaching
# it with grpc_pass (its only HTTP/2 upstream client; it carries plain requests as well) and
# loomgate's with an upstream that says "protocol": "h2c".
backend_h2_port=$("$JAVA_HOME/bin/java" "$root/load/FreePort.java")
nginx_on backend-h2 "$backend_h2_port" 1 "server { listen 127.0.0.1:$backend_h2_port http2 backlog=4096; keepalive_requests 100000;
    http2_max_concurrent_streams 1024;
    location /api/ { default_type application/json; return 200 '{\"ok\":true,\"items\":[1,2,3]}'; } }"
sed -e "s/127\.0\.0\.1:9090/127.0.0.1:$backend_h2_port/g" -e 's/"kind": "http"/"kind": "http", "protocol": "h2c"/' \
  "$root/examples/proxy.json" >"$work/proxy-h2c.json"
nginx_on front-nginx-h2 "$front_port" 0 "server { listen 127.0.0.1:$front_port http2 backlog=4096; keepalive_requests 100000;
    http2_max_concurrent_streams 128; location /api/ { grpc_pass grpc://127.0.0.1:$backend_h2_port; } }"
measure_h2 front-nginx-h2 "nginx, h2c upstream" /api/data
kill "${server_pids[-1]}" 2>/dev/null; wait "${server_pids[-1]}" 2>/dev/null || true
LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start front-loomgate-h2 taskset -c 0 "$root/scripts/run" --port 0 --routes "$work/proxy-h2c.json"
measure_h2 front-loomgate-h2 "loomgate, h2c upstream" /api/data
stop front-loomgate-h2

write_machine_json "\"nginx\":\"$(nginx -v 2>&1 | sed 's/^nginx version: //')\",\"h2load\":\"$(h2load --version 2>&1 | head -1)\","
{
  echo "# loomgate h2 scenario: HTTP/2 (h2c) CPU per request against nginx's, each on one core"
  echo
  echo "Machine: $(nproc) cores, $(date -u +%Y-%m-%dT%H:%M:%SZ), $("$JAVA_HOME/bin/java" -version 2>&1 | sed -n 2p), $(nginx -v 2>&1 | sed 's/^nginx version: //')."
  echo "Each front end on core 0 (\`taskset -c 0\`), h2load (one thread, $h2_conns connections x $h2_streams streams) and the backend"
  echo "(nginx's \`return 200\` over HTTP/1.1, one worker) on core 1; a warm-up in ${h2_warm_window} s windows until one's CPU"
  echo "per request is within 5% of the one before and the JVM's JIT compilers used at most 2% of it (${h2_warm} to"
  echo "${h2_warm_max} s; \"not steady\" when the limit stopped it), then ${h2_run} s measured."
  echo "Command: \`scripts/load $args_given\`"
  echo
  cat "$dir/table.md"
  echo
  echo "## Target (issue #45)"
  echo
  for endpoint in /api/data /health; do
    ratio=$(awk -v a="${h2_us[loomgate-$endpoint]}" -v b="${h2_us[nginx-$endpoint]}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')
    verdict=$(awk -v r="$ratio" 'BEGIN { print (r + 0 <= 2.0 && r != "n/a") ? "met" : "missed" }')
    echo "- **$verdict**: \`$endpoint\`: CPU per request ≤ 2.0x nginx's: ${ratio}x (${h2_us[loomgate-$endpoint]} against ${h2_us[nginx-$endpoint]} µs)"
  done
  a=${h2_us[loomgate, h2c upstream-/api/data]}; b=${h2_us[nginx, h2c upstream-/api/data]}
  ratio=$(awk -v a="$a" -v b="$b" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')
  verdict=$(awk -v r="$ratio" 'BEGIN { print (r + 0 <= 2.0 && r != "n/a") ? "met" : "missed" }')
  echo "- **$verdict**: \`/api/data\` with an h2c upstream on both: CPU per request ≤ 2.0x nginx's: ${ratio}x ($a against $b µs)"
} >"$dir/report.md"
echo; cat "$dir/report.md"
record_run h2-latest
