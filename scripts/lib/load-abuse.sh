# Sourced by scripts/load for --scenario abuse, after its set-up (start, run, settle, cleanup, $dir,
# $work, $report_tool). Can a stranger with nothing but the public port hurt everyone else? The
# gateway runs with -Xmx512m (and exits on OutOfMemoryError); ordinary traffic is wrk at c=500 on a
# route with a 20 ms upstream, first alone, then again: once wrk holds its connections (3 s in),
# io.loomgate.load.Attacker opens 20,000
# connections that send half a request head and wait, and sends 200,000 requests that each carry a
# new 1,000-byte value of the header another route is rate limited by (pipelined, 8 at a time, on 16
# connections). Targets: the ordinary
# traffic keeps at least 0.8 of its throughput with 0 errors, and the gateway's peak RSS stays under
# the heap it was given.

abuse_c=500
abuse_seconds=36; [ "$duration_given" = 1 ] && abuse_seconds=$duration
abuse_stalled=20000; abuse_keys=200000
if [ "$quick" = 1 ]; then abuse_seconds=5; abuse_stalled=5000; abuse_keys=20000; fi
abuse_heap_mb=512
cat >"$work/abuse-routes.json" <<JSON
{"upstreams": [{"id": "work", "kind": "simulated", "service": "cache", "latency": "20ms"},
               {"id": "fast", "kind": "simulated", "service": "cache", "latency": "0ms"}],
 "routes": [{"path": "/ordinary", "policy": "single", "upstreams": ["work"]},
            {"path": "/keyed", "policy": "single", "upstreams": ["fast"],
             "rateLimit": {"perSecond": 1, "burst": 5, "by": "header.X-Key"}}]}
JSON
LOOMGATE_JAVA_OPTS="-Xmx${abuse_heap_mb}m -XX:+ExitOnOutOfMemoryError -Dloomgate.harness=$run_id" \
  start gateway "$root/scripts/run" --port 0 --routes "$work/abuse-routes.json"
url[baseline]=${url[gateway]}; pid[baseline]=${pid[gateway]}
url[attack]=${url[gateway]}; pid[attack]=${pid[gateway]}

echo "loomgate: warming up (5 s)"
wrk -t"$threads" -c"$abuse_c" -d5s --timeout 10s "${url[gateway]}/ordinary" >/dev/null 2>&1 || true

echo "loomgate: ordinary traffic alone (${abuse_seconds} s, c=$abuse_c)"
run baseline /ordinary "$abuse_c" "$abuse_seconds"

echo "loomgate: the same traffic while the attacker opens $abuse_stalled stalled connections and sends $abuse_keys new keys"
# wrk connects first (run settles for about a second, then starts it); the attacker waits 3 s, so the
# ordinary clients hold their connections when the stalled ones arrive, as established clients do.
# The attacker runs at nice 19: on these 2 cores it stands for a client on another machine, whose own
# CPU is not the gateway's; what the gateway spends on the attack is still taken from the same cores.
nice -n 19 "$JAVA_HOME/bin/java" -cp "$LOOMGATE_TOOLS_CP" io.loomgate.load.Attacker --url "${url[gateway]}" --delay 3 \
  --stalled "$abuse_stalled" --keys "$abuse_keys" --key-path /keyed --key-header X-Key --key-bytes 1000 \
  --seconds $((abuse_seconds - 2)) >"$dir/attacker.json" 2>"$work/attacker.err" &
attacker_pid=$!
server_pids+=("$attacker_pid")
run attack /ordinary "$abuse_c" "$abuse_seconds"
wait "$attacker_pid" || { echo "loomgate: the attacker failed:" >&2; cat "$work/attacker.err" >&2; exit 1; }
kill -0 "${pid[gateway]}" 2>/dev/null || { echo "loomgate: the gateway died under the attack:" >&2; tail -5 "$work/gateway.err" >&2; exit 1; }

duration=$abuse_seconds
write_machine_json "\"heapMb\":$abuse_heap_mb,\"stalled\":$abuse_stalled,\"keys\":$abuse_keys,"
echo
"${report_tool[@]}" --abuse "$dir"
record_run abuse-latest
