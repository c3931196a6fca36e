# Sourced by scripts/load for --scenario proxy, after its set-up (start, run, settle, cleanup, $dir,
# $work, $report_tool). The classic "virtual-thread proxy in front of a 100 ms backend" benchmark,
# with loomgate on both sides: the bundled backend's /api/data (100 ms), wrk at c=2000 against
#   backend         the backend itself,
#   proxy-virtual   loomgate's proxy route (examples/proxy.json) on virtual threads,
#   proxy-platform  the same on a platform pool of 200,
#   nginx           nginx 1 worker, keep-alive to the backend (skipped, saying why, without nginx);
# then the HTTP /aggregate (examples/http-aggregate.json) at c=1000 against its Little's-law bound,
# and the JDK HttpClient against loomgate's own client on the backend (ClientBench).

proxy_c=2000
aggregate_c=1000
# The proxy path needs more warm-up than the matrix's endpoints: measured here, throughput climbed
# for 15 to 40 s of load (the JIT shares 2 cores with wrk and the backend) before it levelled off.
warm_each=20; [ "$quick" = 1 ] && warm_each=1

LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start backend "$root/scripts/run" backend --port 0
backend_port=${url[backend]##*:}
for f in proxy http-aggregate; do
  sed "s/127\.0\.0\.1:9090/127.0.0.1:$backend_port/g" "$root/examples/$f.json" >"$work/$f.json"
done
LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start proxy-virtual "$root/scripts/run" --port 0 --routes "$work/proxy.json"
LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start proxy-platform "$root/scripts/run" --port 0 --routes "$work/proxy.json" \
  --threads platform --pool 200
LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start http-aggregate "$root/scripts/run" --port 0 --routes "$work/http-aggregate.json"

nginx_version="no nginx"
if command -v nginx >/dev/null 2>&1; then
  nginx_port=$("$JAVA_HOME/bin/java" "$root/load/FreePort.java")
  mkdir -p "$work/loomgate-nginx"
  cat >"$work/loomgate-nginx/nginx.conf" <<CONF
worker_processes 1;
error_log $work/loomgate-nginx/error.log warn;
pid $work/loomgate-nginx/nginx.pid;
worker_rlimit_nofile 20000;
events { worker_connections 10000; }
http {
  access_log off;
  client_body_temp_path $work/loomgate-nginx/body; proxy_temp_path $work/loomgate-nginx/proxy;
  fastcgi_temp_path $work/loomgate-nginx/fcgi; uwsgi_temp_path $work/loomgate-nginx/uwsgi; scgi_temp_path $work/loomgate-nginx/scgi;
  upstream backend { server 127.0.0.1:$backend_port; keepalive 1024; }
  server {
    listen 127.0.0.1:$nginx_port backlog=4096;
    location /api/ { proxy_pass http://backend/api/; proxy_http_version 1.1; proxy_set_header Connection ""; }
  }
}
CONF
  nginx -c "$work/loomgate-nginx/nginx.conf" -g 'daemon off;' 2>"$work/loomgate-nginx.err" &
  server_pids+=("$!")
  for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$nginx_port/api/data" && break; sleep 0.1; done
  url[nginx]="http://127.0.0.1:$nginx_port"
  pid[nginx]=$(pgrep -P "${server_pids[-1]}" | head -1); pid[nginx]=${pid[nginx]:-${server_pids[-1]}}
  nginx_version=$(nginx -v 2>&1 | sed 's/^nginx version: //')
  echo "loomgate: nginx listening on ${url[nginx]} (worker pid ${pid[nginx]})"
else
  echo "loomgate: nginx is not installed (Debian: apt-get install nginx-light): the nginx row and the ratios against it are SKIPPED"
fi

targets=(backend proxy-virtual proxy-platform)
[ -n "${url[nginx]:-}" ] && targets+=(nginx)
echo "loomgate: warming up (${warm_each} s each)"
for name in "${targets[@]}"; do
  wrk -t"$threads" -c"$proxy_c" -d"${warm_each}s" --timeout 10s "${url[$name]}/api/data" >/dev/null 2>&1 || true
done
wrk -t"$threads" -c"$aggregate_c" -d"${warm_each}s" --timeout 10s "${url[http-aggregate]}/aggregate" >/dev/null 2>&1 || true

echo "loomgate: running the proxy scenario (${duration} s per run)"
for name in "${targets[@]}"; do run "$name" /api/data "$proxy_c" "$duration"; done
run http-aggregate /aggregate "$aggregate_c" "$duration"

echo "loomgate: the JDK HttpClient against loomgate's client, c=1000 on the backend"
"$JAVA_HOME/bin/java" --enable-preview -cp "$LOOMGATE_TOOLS_CP" io.loomgate.upstream.http.ClientBench \
  "${url[backend]}/api/data" 1000 "$duration" | tee "$dir/client-bench.jsonl"

write_machine_json "\"nginx\":\"$nginx_version\","
echo
"${report_tool[@]}" --proxy "$dir"
record_run proxy-latest
echo
echo "loomgate: report in $dir/report.md"
