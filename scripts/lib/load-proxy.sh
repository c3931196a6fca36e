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

. "$root/scripts/lib/load-nginx.sh"
start_nginx "$backend_port"

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
"$JAVA_HOME/bin/java" --enable-preview -cp "$LOOMGATE_TOOLS_CP" io.loomgate.client.ClientBench \
  "${url[backend]}/api/data" 1000 "$duration" | tee "$dir/client-bench.jsonl"

write_machine_json "\"nginx\":\"$nginx_version\","
echo
"${report_tool[@]}" --proxy "$dir"
record_run proxy-latest
echo
echo "loomgate: report in $dir/report.md"
