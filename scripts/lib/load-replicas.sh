# Sourced by scripts/load for --scenario replicas, after its set-up (start, stop, settle, cleanup,
# $dir, $work, $report_tool). What a dying replica costs: three bundled backends behind one upstream,
# and io.loomgate.load.SecondsLoad (wrk's closed loop, counted second by second) at c=1000 for 30 s
# against each of
#   proxy      loomgate's proxy route to the backends' /api/data (100 ms),
#   fan-out    loomgate's /aggregate: db and file, each an upstream of the three backends,
#   nginx      nginx with the same three servers in one upstream block (max_fails, proxy_next_upstream),
# while the second backend is killed (SIGKILL) at 5 s and started again on its port at 15 s. The
# report has rps, failures and p99 per second, a chart, and the targets: fewer failed requests than
# nginx, and the p99 after the kill back within 1.2x of before in under 5 s.

# Loomgate's proxy path climbs for 15 to 40 s of load before it levels off (the JIT shares 2 cores
# with the load and the backends), so it warms for 30 s: the p99 "before the kill" is then its own.
# The load client warms its own JIT for client_warm seconds (counted nowhere) before its 30.
replicas_c=1000; replicas_s=30; kill_at=5; back_at=15; warm_s=30; client_warm=5
[ "$quick" = 1 ] && { replicas_c=300; replicas_s=12; kill_at=3; back_at=7; warm_s=3; client_warm=1; }

ports=()
for i in 1 2 3; do
  LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start "backend$i" "$root/scripts/run" backend --port 0
  ports+=("${url[backend$i]##*:}")
done

# endpoints PATH: the three backends' URLs for PATH, as a JSON array.
endpoints() {
  printf '["http://127.0.0.1:%s%s", "http://127.0.0.1:%s%s", "http://127.0.0.1:%s%s"]' \
    "${ports[0]}" "$1" "${ports[1]}" "$1" "${ports[2]}" "$1"
}
# LOOMGATE_SLOW_START=10s gives the fleet a slowStart (recorded as replicas-slowstart-latest), to
# compare the p99 after backend2 comes back with and without it.
slow_start=${LOOMGATE_SLOW_START:-}
fleet='"retry": {"attempts": 2, "backoff": "1ms"},
    "outliers": {"consecutiveFailures": 3, "baseEjection": "10s"},
    "health": {"path": "/health", "every": "1s", "timeout": "500ms", "unhealthyAfter": 2, "healthyAfter": 2}'
[ -n "$slow_start" ] && fleet="$fleet, \"slowStart\": \"$slow_start\""
cat >"$work/replicas.json" <<JSON
{"upstreams": [
   {"id": "api", "kind": "http", "endpoints": $(endpoints /api/), $fleet},
   {"id": "db", "kind": "http", "endpoints": $(endpoints /db), $fleet},
   {"id": "file", "kind": "http", "endpoints": $(endpoints /file), $fleet}],
 "routes": [
   {"path": "/api/*", "policy": "proxy", "upstreams": ["api"]},
   {"path": "/aggregate", "policy": "all", "upstreams": ["db", "file"]}]}
JSON
LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start gateway "$root/scripts/run" --port 0 --routes "$work/replicas.json"

nginx_version="no nginx"
if command -v nginx >/dev/null 2>&1; then
  nginx_port=$("$JAVA_HOME/bin/java" "$root/load/FreePort.java")
  mkdir -p "$work/nginx"
  cat >"$work/nginx/nginx.conf" <<CONF
worker_processes 1;
error_log $work/nginx/error.log warn;
pid $work/nginx/nginx.pid;
worker_rlimit_nofile 20000;
events { worker_connections 10000; }
http {
  access_log off;
  client_body_temp_path $work/nginx/body; proxy_temp_path $work/nginx/proxy;
  fastcgi_temp_path $work/nginx/fcgi; uwsgi_temp_path $work/nginx/uwsgi; scgi_temp_path $work/nginx/scgi;
  upstream backends {
    server 127.0.0.1:${ports[0]} max_fails=3 fail_timeout=10s;
    server 127.0.0.1:${ports[1]} max_fails=3 fail_timeout=10s;
    server 127.0.0.1:${ports[2]} max_fails=3 fail_timeout=10s;
    keepalive 1024;
  }
  server {
    listen 127.0.0.1:$nginx_port backlog=4096;
    location /api/ {
      proxy_pass http://backends/api/; proxy_http_version 1.1; proxy_set_header Connection "";
      proxy_next_upstream error timeout http_502 http_503 http_504; proxy_next_upstream_tries 2;
    }
  }
}
CONF
  nginx -c "$work/nginx/nginx.conf" -g 'daemon off;' 2>"$work/nginx.err" &
  server_pids+=("$!")
  for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$nginx_port/api/data" && break; sleep 0.1; done
  url[nginx]="http://127.0.0.1:$nginx_port"
  nginx_version=$(nginx -v 2>&1 | sed 's/^nginx version: //')
  echo "loomgate: nginx listening on ${url[nginx]}"
else
  echo "loomgate: nginx is not installed (Debian: apt-get install nginx-light): the nginx run is SKIPPED"
fi

# one NAME URL: warms, then runs SecondsLoad against URL while backend2 is killed and restarted.
one() {
  local name=$1 target=$2
  echo "loomgate: $name: warming up (${warm_s} s), then ${replicas_s} s at c=$replicas_c; backend2 killed at ${kill_at} s, back at ${back_at} s"
  wrk -t"$threads" -c"$replicas_c" -d"${warm_s}s" --timeout 10s "$target" >/dev/null 2>&1 || true
  settle gateway
  "$JAVA_HOME/bin/java" --enable-preview -cp "$LOOMGATE_TOOLS_CP" io.loomgate.load.SecondsLoad \
    "$target" "$replicas_c" "$replicas_s" "$dir/replicas-$name.json" "$client_warm" >"$work/seconds.out" &
  local load=$!
  for _ in $(seq 600); do grep -q recording "$work/seconds.out" 2>/dev/null && break; sleep 0.1; done
  sleep "$kill_at"
  kill -KILL "${pid[backend2]}"
  sleep $((back_at - kill_at))
  LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start backend2 "$root/scripts/run" backend --port "${ports[1]}"
  wait "$load"
  echo "  $name: $(tr -d '\n' <"$dir/replicas-$name.json" | grep -o '"ok":[0-9]*,"notOk":[0-9]*,"errors":[0-9]*}$')"
  sleep 3   # backend2's health checks pass (healthyAfter 2, every 1 s) before the next run
}

one proxy "${url[gateway]}/api/data"
one fan-out "${url[gateway]}/aggregate"
[ -n "${url[nginx]:-}" ] && one nginx "${url[nginx]}/api/data"

duration=$replicas_s
write_machine_json "\"nginx\":\"$nginx_version\",\"killAt\":$kill_at,\"backAt\":$back_at,\"warmup\":$warm_s,\"slowStart\":\"${slow_start:-none}\","
echo
"${report_tool[@]}" --replicas "$dir"
record_run "replicas${slow_start:+-slowstart}-latest"
echo
echo "loomgate: report in $dir/report.md and $dir/report.svg"
