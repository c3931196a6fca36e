# Sourced by scripts/load for --scenario reload, after its set-up (start, stop, settle, $dir, $work,
# $threads). Does a reload drop anything? wrk at c=500 goes round a proxy route, a fan-out and a
# composed route (load/rotate.lua) for 30 s while the route file is rewritten and reloaded 20 times,
# every 1.2 s from the 3rd second: a route added and the last one removed each time, the upstreams'
# URLs switched between 127.0.0.1 and localhost (a changed upstream: fresh state), and a bad file
# at the 10th. Half the reloads come through POST /admin/reload, half through SIGHUP. The verdict:
# no answer but 2xx, no connection error (a reset shows as a read error), 19 reloads ok, 1 refused.

reload_seconds=30; reload_n=20; reload_c=500
[ "$quick" = 1 ] && { reload_seconds=8; reload_n=6; reload_c=200; }
every_ms=$(( (reload_seconds - 5) * 1000 / reload_n ))

LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start backend "$root/scripts/run" backend --port 0
backend_port=${url[backend]##*:}

# routes N HOST [bad]: the route file of the Nth reload, its upstreams at HOST.
routes() {
  local n=$1 host=$2
  if [ "${3:-}" = bad ]; then echo '{"upstreams": [], "routes": [{"path": "/broken", "policy": "al"}]}'; return; fi
  cat <<JSON
{"upstreams": [
   {"id": "api",   "kind": "http", "url": "http://$host:$backend_port/api/"},
   {"id": "db",    "kind": "http", "url": "http://$host:$backend_port/db"},
   {"id": "file",  "kind": "http", "url": "http://$host:$backend_port/file"},
   {"id": "users", "kind": "http", "url": "http://$host:$backend_port"},
   {"id": "orders","kind": "http", "url": "http://$host:$backend_port"}],
 "routes": [
   {"path": "/api/*", "policy": "proxy", "upstreams": ["api"]},
   {"path": "/aggregate", "policy": "all", "upstreams": ["db", "file"]},
   {"path": "/users/{id}/summary", "policy": "compose", "timeout": "2s",
    "calls": {"user": {"upstream": "users", "path": "/users/{id}"},
              "team": {"upstream": "users", "path": "/teams/{user.teamId}"},
              "orders": {"upstream": "orders", "path": "/orders?userId={id}"}},
    "answer": {"name": "{user.name}", "team": "{team.name}", "orders": "{orders.items}"}},
   {"path": "/extra-$n", "policy": "all", "upstreams": ["db"]}]}
JSON
}

routes 0 127.0.0.1 >"$work/routes.json"
# env --default-signal: SIGHUP must reach the gateway even when this script runs under nohup.
LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start gateway env --default-signal=HUP "$root/scripts/run" --port 0 \
  --admin-port 0 --routes "$work/routes.json"
admin=$(grep -o 'admin on http://[^ )]*' "$work/gateway.out" | head -1 | cut -d' ' -f3)
paths="/api/data,/aggregate,/users/7/summary"

echo "loomgate: warming up (5 s)"
LOOMGATE_PATHS=$paths LOOMGATE_REPORT_LUA="$root/load/report.lua" \
  wrk -t"$threads" -c"$reload_c" -d5s --timeout 10s -s "$root/load/rotate.lua" "${url[gateway]}" >/dev/null 2>&1 || true
settle gateway

echo "loomgate: running the reload scenario ($reload_seconds s at c=$reload_c, $reload_n reloads)"
LOOMGATE_PATHS=$paths LOOMGATE_REPORT_LUA="$root/load/report.lua" \
  wrk -t"$threads" -c"$reload_c" -d"${reload_seconds}s" --timeout 10s -s "$root/load/rotate.lua" "${url[gateway]}" \
  >"$work/wrk.out" 2>&1 &
wrk_pid=$!
sleep 3
ok=0; refused=0
for i in $(seq "$reload_n"); do
  host=127.0.0.1; [ $((i % 2)) = 1 ] && host=localhost
  bad=""; [ "$i" = $((reload_n / 2)) ] && bad=bad
  routes "$i" "$host" $bad >"$work/routes.next" && mv "$work/routes.next" "$work/routes.json"
  if [ $((i % 2)) = 0 ]; then
    code=$(curl -s -o "$work/reload.out" -w '%{http_code}' -X POST "$admin/admin/reload")
  else
    seen=$(wc -l <"$work/gateway.err")
    kill -HUP "${pid[gateway]}"
    line=""
    for _ in $(seq 100); do
      line=$(tail -n +"$((seen + 1))" "$work/gateway.err" | grep -m1 'reloaded \|reload (SIGHUP) refused' || true)
      [ -n "$line" ] && break
      sleep 0.1
    done
    case "$line" in *reloaded*) code=200 ;; *) code=400 ;; esac
  fi
  if [ "$code" = 200 ]; then ok=$((ok + 1)); else refused=$((refused + 1)); fi
  sleep "$(awk -v ms="$every_ms" 'BEGIN { printf "%.2f", ms / 1000 }')"
done
wait "$wrk_pid" || true
wrk_pid=""
json=$(grep '^{"requests"' "$work/wrk.out" | tail -1)
[ -n "$json" ] || { echo "loomgate: wrk gave no report:" >&2; cat "$work/wrk.out" >&2; exit 1; }
reloads_metric=$(curl -s "$admin/metrics?format=prometheus" | grep '^loomgate_config_reloads_total' | tr '\n' ' ')
printf '{"reloads":%d,"ok":%d,"refused":%d,"connections":%d,"seconds":%d,"wrk":%s}\n' \
  "$reload_n" "$ok" "$refused" "$reload_c" "$reload_seconds" "$json" >"$dir/reload.json"

errors=$(echo "$json" | grep -o '"errors":{[^}]*}')
non2xx=$(echo "$errors" | grep -o '"status":[0-9]*' | cut -d: -f2)
sockets=$(echo "$errors" | grep -o '"\(connect\|read\|write\|timeout\)":[0-9]*' | cut -d: -f2 | awk '{ n += $1 } END { print n + 0 }')
requests=$(echo "$json" | grep -o '"requests":[0-9]*' | cut -d: -f2)
verdict=met; { [ "$non2xx" != 0 ] || [ "$sockets" != 0 ] || [ "$refused" != 1 ]; } && verdict=missed
write_machine_json "\"reloadConnections\":$reload_c,\"reloads\":$reload_n,"
{
  echo "# The reload scenario"
  echo
  echo "| requests | answers not 2xx | connection errors (connect, read, write, timeout) | reloads ok | reloads refused | verdict |"
  echo "|---:|---:|---:|---:|---:|---|"
  echo "| $requests | $non2xx | $sockets | $ok | $refused | $verdict |"
  echo
  echo "wrk: \`$errors\`; the gateway's own count: \`$reloads_metric\`"
} >"$dir/report.md"
echo
cat "$dir/report.md"
record_run reload-latest
