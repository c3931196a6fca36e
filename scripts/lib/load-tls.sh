# Sourced by scripts/load for --scenario tls, after its set-up (start, run, settle, cleanup, $dir,
# $work, $report_tool). What TLS costs: the same loomgate twice, plain HTTP and HTTPS (a demo
# certificate made by scripts/demo-certs), each serving the built-in /block (one 300 ms call) and a
# proxy route to the bundled backend's /api/data (100 ms); wrk (which speaks TLS, keeping its
# connections alive) at c=1000 on each, one after the other.

tls_c=1000
warm_each=10; [ "$quick" = 1 ] && warm_each=2

"$root/scripts/demo-certs" "$work/certs" >/dev/null
LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start backend "$root/scripts/run" backend --port 0
backend_port=${url[backend]##*:}
cat >"$work/tls-routes.json" <<JSON
{"upstreams": [{"id": "db", "kind": "simulated", "service": "db", "latency": "300ms"},
               {"id": "api", "kind": "http", "url": "http://127.0.0.1:$backend_port/api/"}],
 "routes": [{"path": "/block", "policy": "single", "upstreams": ["db"]},
            {"path": "/api/*", "policy": "proxy", "upstreams": ["api"]}]}
JSON
LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start plain "$root/scripts/run" --port 0 --routes "$work/tls-routes.json"
LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start tls "$root/scripts/run" --port 0 --routes "$work/tls-routes.json" \
  --tls-cert "$work/certs/localhost.pem" --tls-key "$work/certs/localhost-key.pem"

echo "loomgate: warming up (${warm_each} s per endpoint per server)"
for name in plain tls; do
  for e in /block /api/data; do
    wrk -t"$threads" -c"$tls_c" -d"${warm_each}s" --timeout 10s "${url[$name]}$e" >/dev/null 2>&1 || true
    settle "$name"
  done
done

echo "loomgate: running the tls scenario (${duration} s per run, c=$tls_c)"
for e in /block /api/data; do
  for name in plain tls; do run "$name" "$e" "$tls_c" "$duration"; done
done

write_machine_json "\"tlsConnections\":$tls_c,"
echo
"${report_tool[@]}" --tls "$dir"
record_run tls-latest
