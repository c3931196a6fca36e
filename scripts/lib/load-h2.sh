# Sourced by scripts/load for --scenario h2, after its set-up (start, stop, cpu_ms, $dir, $work, $root).
# HTTP/2 with prior knowledge (h2c), the way issue #45 measures it: h2load (nghttp2) at c=100
# connections x 10 streams each against loomgate's server and nginx (`listen ... http2`), each front
# end pinned to core 0 (nginx one worker, the JVM seeing one CPU), h2load and a backend that answers
# at once (nginx's `return 200`, HTTP/1.1) on core 1: the proxy route, and a route answered by the
# front end itself (loomgate's /health, nginx's `return 200`); then the proxy again with an h2c
# backend, HTTP/2 on both sides. loomgate and nginx run at once, each idle while the other is
# measured: for each endpoint a warm-up of each until steady, then three rounds of one 10 s window
# each in turn, as the cpu scenario does (load-cpu.sh says why). A window's CPU per request is the
# front end's user + system CPU over it divided by the requests it answered; a figure is the median
# of the rounds, a ratio the median of the rounds' ratios (5 to 9 minutes; --quick: one round of 3 s).

if [ "$(nproc)" -lt 2 ]; then echo "loomgate: --scenario h2 needs 2 cores (front end on one, h2load and the backend on the other)" >&2; exit 2; fi
command -v nginx >/dev/null 2>&1 || { echo "loomgate: --scenario h2 needs nginx: sudo apt-get install nginx-light" >&2; exit 2; }
command -v h2load >/dev/null 2>&1 || { echo "loomgate: --scenario h2 needs h2load: sudo apt-get install nghttp2-client" >&2; exit 2; }
command -v taskset >/dev/null 2>&1 || { echo "loomgate: --scenario h2 needs taskset: sudo apt-get install util-linux" >&2; exit 2; }

. "$root/scripts/lib/load-nginx.sh"

h2_warm=10; h2_warm_window=5; h2_warm_max=120; h2_run=10; h2_rounds=3
[ "$quick" = 1 ] && { h2_warm=3; h2_warm_window=3; h2_warm_max=6; h2_run=3; h2_rounds=1; }
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

# h2_us, h2_rps: keyed LABEL-ENDPOINT-ROUND for one window, LABEL-ENDPOINT for the median of the rounds.
declare -A h2_us h2_rps h2_max h2_warm_s h2_failed
# window_h2 NAME LABEL ENDPOINT ROUND: one measured run of h2load (core 1) against NAME.
window_h2() {
  local name=$1 label=$2 endpoint=$3 r=$4 c0 c1 done_n ok file=${2//, /_}
  sleep 1
  c0=$(cpu_ms "${pid[$name]}")
  taskset -c 1 h2load -c "$h2_conns" -m "$h2_streams" -t 1 -D "$h2_run" "${url[$name]}$endpoint" >"$work/h2load.out" 2>&1 || true
  c1=$(cpu_ms "${pid[$name]}")
  cp "$work/h2load.out" "$dir/h2load-${file// /_}-${endpoint//\//_}-r$r.txt"
  ok=$(awk '/^requests:/ { for (i = 1; i <= NF; i++) if ($(i + 1) ~ /^succeeded/) print $i }' "$work/h2load.out")
  done_n=$(awk '/^requests:/ { for (i = 1; i <= NF; i++) if ($(i + 1) ~ /^done/) print $i }' "$work/h2load.out")
  [ -n "$ok" ] || { echo "loomgate: h2load gave no count for $label $endpoint:" >&2; cat "$work/h2load.out" >&2; exit 1; }
  h2_rps[$label-$endpoint-$r]=$(awk -v n="$ok" -v s="$h2_run" 'BEGIN { printf "%.0f", n / s }')
  h2_us[$label-$endpoint-$r]=$(awk -v c="$((c1 - c0))" -v n="$ok" 'BEGIN { if (n > 0) printf "%.1f", c * 1000 / n; else print 0 }')
  h2_max[$label-$endpoint-$r]=$(awk '/^time for request:/ { print $5 }' "$work/h2load.out")
  h2_failed[$label-$endpoint]=$(( ${h2_failed[$label-$endpoint]:-0} + done_n - ok ))
  echo "  $label $endpoint round $r: ${h2_rps[$label-$endpoint-$r]} answers/s, ${h2_us[$label-$endpoint-$r]} µs of CPU each," \
    "mean $(awk '/^time for request:/ { print $6 }' "$work/h2load.out"), max ${h2_max[$label-$endpoint-$r]}"
}
# compare_h2 NGINX-NAME NGINX-LABEL LOOMGATE-NAME LOOMGATE-LABEL ENDPOINT: both warmed, then the rounds,
# nginx's window first in each; both rows in table.md.
compare_h2() {
  local names=("$1" "$3") labels=("$2" "$4") endpoint=$5 i r us rps max
  for i in 0 1; do
    h2_warm_s[${labels[$i]}-$endpoint]=$(warm_until_steady "${pid[${names[$i]}]}" "$h2_warm" "$h2_warm_max" "$h2_warm_window" h2load_count "${url[${names[$i]}]}$endpoint")
  done
  for r in $(seq "$h2_rounds"); do
    for i in 0 1; do window_h2 "${names[$i]}" "${labels[$i]}" "$endpoint" "$r"; done
  done
  for i in 0 1; do
    us=(); rps=(); max=()
    for r in $(seq "$h2_rounds"); do
      us+=("${h2_us[${labels[$i]}-$endpoint-$r]}"); rps+=("${h2_rps[${labels[$i]}-$endpoint-$r]}"); max+=("${h2_max[${labels[$i]}-$endpoint-$r]}")
    done
    h2_us[${labels[$i]}-$endpoint]=$(median "${us[@]}"); h2_rps[${labels[$i]}-$endpoint]=$(median "${rps[@]}")
    echo "| ${labels[$i]} | \`$endpoint\` | ${h2_warm_s[${labels[$i]}-$endpoint]} | ${h2_rps[${labels[$i]}-$endpoint]} | ${h2_us[${labels[$i]}-$endpoint]} | $(IFS=/; echo "${us[*]}") | $(IFS=/; echo "${max[*]}") | ${h2_failed[${labels[$i]}-$endpoint]} |" >>"$dir/table.md"
  done
}
echo "| front end (core 0) | endpoint | warm-up s | answers/s | CPU per answer µs | each round µs | slowest request, each round | not succeeded |" >"$dir/table.md"
echo "|---|---|---:|---:|---:|---|---|---:|" >>"$dir/table.md"
nginx_probe=(--http2-prior-knowledge)
nginx_on front-nginx "$front_port" 0 "upstream backend { server 127.0.0.1:$backend_port; keepalive 1024; }
  server { listen 127.0.0.1:$front_port http2 backlog=4096; keepalive_requests 100000; http2_max_concurrent_streams 128;
    location /api/ { proxy_pass http://backend/api/; proxy_http_version 1.1; proxy_set_header Connection \"\"; }
    location = /health { default_type application/json; return 200 '{\"status\":\"UP\"}'; } }"
nginx_front_pid=${server_pids[-1]}
LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start front-loomgate taskset -c 0 "$root/scripts/run" --port 0 --routes "$work/proxy.json"
compare_h2 front-nginx nginx front-loomgate loomgate /api/data
compare_h2 front-nginx nginx front-loomgate loomgate /health
kill "$nginx_front_pid" 2>/dev/null; wait "$nginx_front_pid" 2>/dev/null || true
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
nginx_front_pid=${server_pids[-1]}
LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start front-loomgate-h2 taskset -c 0 "$root/scripts/run" --port 0 --routes "$work/proxy-h2c.json"
compare_h2 front-nginx-h2 "nginx, h2c upstream" front-loomgate-h2 "loomgate, h2c upstream" /api/data
kill "$nginx_front_pid" 2>/dev/null; wait "$nginx_front_pid" 2>/dev/null || true
stop front-loomgate-h2

write_machine_json "\"nginx\":\"$(nginx -v 2>&1 | sed 's/^nginx version: //')\",\"h2load\":\"$(h2load --version 2>&1 | head -1)\","
{
  echo "# loomgate h2 scenario: HTTP/2 (h2c) CPU per request against nginx's, each on one core"
  echo
  echo "Machine: $(nproc) cores, $(date -u +%Y-%m-%dT%H:%M:%SZ), $("$JAVA_HOME/bin/java" -version 2>&1 | sed -n 2p), $(nginx -v 2>&1 | sed 's/^nginx version: //')."
  echo "Each front end on core 0 (\`taskset -c 0\`), h2load (one thread, $h2_conns connections x $h2_streams streams) and the backend"
  echo "(nginx's \`return 200\` over HTTP/1.1, one worker) on core 1; a warm-up in ${h2_warm_window} s windows until one's CPU"
  echo "per request is within 5% of the one before and the JVM's JIT compilers used at most 2% of it (${h2_warm} to"
  echo "${h2_warm_max} s; \"not steady\" when the limit stopped it), then ${h2_rounds} round(s) of ${h2_run} s measured, one"
  echo "window each in turn (nginx, then loomgate; both running, each idle while the other is measured); a"
  echo "figure is the median of the rounds, a ratio the median of the rounds' ratios."
  echo "Command: \`scripts/load $args_given\`"
  echo
  cat "$dir/table.md"
  echo
  echo "## Target (issue #45)"
  echo
  for endpoint in /api/data /health; do
    ratio=$(round_ratios h2_us loomgate nginx "$endpoint" "$h2_rounds")
    verdict=$(awk -v r="${ratio%% *}" 'BEGIN { print (r != "n/a" && r + 0 <= 2.0) ? "met" : "missed" }')
    echo "- **$verdict**: \`$endpoint\`: CPU per request ≤ 2.0x nginx's: ${ratio%% *}x (rounds ${ratio#* }; medians ${h2_us[loomgate-$endpoint]} against ${h2_us[nginx-$endpoint]} µs)"
  done
  ratio=$(round_ratios h2_us "loomgate, h2c upstream" "nginx, h2c upstream" /api/data "$h2_rounds")
  verdict=$(awk -v r="${ratio%% *}" 'BEGIN { print (r != "n/a" && r + 0 <= 2.0) ? "met" : "missed" }')
  echo "- **$verdict**: \`/api/data\` with an h2c upstream on both: CPU per request ≤ 2.0x nginx's: ${ratio%% *}x (rounds ${ratio#* }; medians ${h2_us[loomgate, h2c upstream-/api/data]} against ${h2_us[nginx, h2c upstream-/api/data]} µs)"
} >"$dir/report.md"
echo; cat "$dir/report.md"
record_run h2-latest
