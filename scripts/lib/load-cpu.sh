# Sourced by scripts/load for --scenario cpu, after its set-up (start, stop, cpu_ms, $dir, $work,
# $root). What one proxied request costs the front end in CPU, side by side with nginx, the way
# issue #44 measures it on 2 cores: every front end pinned to core 0 (taskset; nginx with one
# worker, the JVM seeing one CPU), and wrk and a backend that answers at once (nginx's `return 200`)
# pinned to core 1. The three front ends (nginx, loomgate's server, the JDK's) run at once, each idle
# while another is measured; at c=256 and then c=2000 each is warmed, then measured in rounds, one
# window each in turn (nginx, loomgate, the JDK's), so that a slow spell of the machine falls on
# neighbouring windows of each rather than on one front end's only run (one JVM measured in four
# windows in a row once cost 31.0, 27.7, 29.6 and 23.2 µs a request). A window's CPU per request is
# the front end's user + system CPU over it divided by the answers it gave; a front end's figure is
# the median of its rounds, and a ratio the median of the rounds' ratios, each round's shown too.
# On a machine with other cores than 0 and 1 the same pins hold; on one core it says so and stops.
# Then the HTTP /aggregate against a Go errgroup BFF the same way, in alternated rounds, each over a
# bundled backend of its own (8 to 13 minutes in all).

if [ "$(nproc)" -lt 2 ]; then echo "loomgate: --scenario cpu needs 2 cores (front end on one, wrk and the backend on the other)" >&2; exit 2; fi
command -v nginx >/dev/null 2>&1 || { echo "loomgate: --scenario cpu needs nginx: sudo apt-get install nginx-light" >&2; exit 2; }
command -v taskset >/dev/null 2>&1 || { echo "loomgate: --scenario cpu needs taskset: sudo apt-get install util-linux" >&2; exit 2; }

cpu_warm=10; cpu_warm_window=5; cpu_warm_max=120; cpu_run=10; cpu_rounds=3
[ "$quick" = 1 ] && { cpu_warm=3; cpu_warm_window=3; cpu_warm_max=6; cpu_run=3; cpu_rounds=1; }
cpu_conns=(256 2000)

. "$root/scripts/lib/load-nginx.sh"

backend_port=$("$JAVA_HOME/bin/java" "$root/load/FreePort.java")
nginx_on backend "$backend_port" 1 "server { listen 127.0.0.1:$backend_port backlog=4096; keepalive_requests 100000;
    location /api/ { default_type application/json; return 200 '{\"ok\":true,\"items\":[1,2,3]}'; } }"

front_port=$("$JAVA_HOME/bin/java" "$root/load/FreePort.java")
sed "s/127\.0\.0\.1:9090/127.0.0.1:$backend_port/g" "$root/examples/proxy.json" >"$work/proxy.json"

. "$root/scripts/lib/load-warm.sh"
# wrk_count SECONDS C URL: wrk (core 1) for SECONDS at c=C; prints how many requests completed.
wrk_count() {
  taskset -c 1 wrk -t2 -c"$2" -d"${1}s" --timeout 10s "$3" 2>/dev/null | awk '/requests in/ { print $1 }'
}
declare -A warm_s

# cpu_us, cpu_rps, cpu_p99, cpu_errors, cpu_n: keyed LABEL-C-ROUND for one window, LABEL-C for the
# front end's median (cpu_errors and cpu_n summed over its rounds).
declare -A cpu_us cpu_rps cpu_p99 cpu_errors cpu_n
# verdict LABEL-C REF-C RATIO-OK: met or missed, or "not valid" when either run had errors on more
# than 1% of its requests (a reference that failed is no reference: a Go BFF whose calls timed out
# once gave 791 answers, every one a 502, at 12.5 ms of CPU each).
valid() {
  awk -v e="${cpu_errors[$1]:-0}" -v n="${cpu_n[$1]:-0}" 'BEGIN { exit !(n > 0 && e <= 0.01 * n) }'
}
verdict() {
  if ! valid "$1" || ! valid "$2"; then echo "not valid (errors: ${cpu_errors[$1]:-?} of ${cpu_n[$1]:-?}, ${cpu_errors[$2]:-?} of ${cpu_n[$2]:-?})"
  elif [ "$3" = 1 ]; then echo met; else echo missed; fi
}
# warm NAME C ENDPOINT: NAME's warm-up at c=C, its seconds in warm_s[NAME-C].
warm() {
  warm_s[$1-$2]=$(warm_until_steady "${pid[$1]}" "$cpu_warm" "$cpu_warm_max" "$cpu_warm_window" wrk_count "$2" "${url[$1]}$3")
}
# window NAME LABEL C ENDPOINT ROUND: one measured run of wrk (core 1) against NAME at c=C, kept as
# cpu-LABEL-cC-rROUND.json; sets the LABEL-C-ROUND figures.
window() {
  local name=$1 label=$2 c=$3 endpoint=$4 r=$5 c0 c1 json n
  sleep 1
  c0=$(cpu_ms "${pid[$name]}")
  taskset -c 1 wrk -t2 -c"$c" -d"${cpu_run}s" --timeout 10s -s "$root/load/report.lua" "${url[$name]}$endpoint" >"$work/wrk.out" 2>&1 || true
  c1=$(cpu_ms "${pid[$name]}")
  json=$(grep '^{"requests"' "$work/wrk.out" | tail -1)
  [ -n "$json" ] || { echo "loomgate: wrk gave no report for $label c=$c:" >&2; cat "$work/wrk.out" >&2; exit 1; }
  echo "{\"front\":\"$label\",\"connections\":$c,\"round\":$r,\"cpuMs\":$((c1 - c0)),\"wrk\":$json}" >"$dir/cpu-$label-c$c-r$r.json"
  n=$(echo "$json" | grep -o '"requests":[0-9]*' | cut -d: -f2)
  cpu_n[$label-$c-$r]=$n
  cpu_us[$label-$c-$r]=$(awk -v t="$((c1 - c0))" -v n="$n" 'BEGIN { if (n > 0) printf "%.1f", t * 1000 / n; else print 0 }')
  cpu_rps[$label-$c-$r]=$(echo "$json" | grep -o '"rps":[0-9.]*' | cut -d: -f2 | awk '{ printf "%.0f", $1 }')
  cpu_p99[$label-$c-$r]=$(echo "$json" | grep -o '"p99":[0-9]*' | head -1 | cut -d: -f2 | awk '{ printf "%.1f", $1 / 1000 }')
  cpu_errors[$label-$c-$r]=$(echo "$json" | grep -o '"errors":{[^}]*}' | grep -o '[0-9]\+' | awk '{ s += $1 } END { print s + 0 }')
  echo "  $label $endpoint c=$c round $r: ${cpu_rps[$label-$c-$r]} answers/s, ${cpu_us[$label-$c-$r]} µs of CPU each, p99 ${cpu_p99[$label-$c-$r]} ms"
}
# summarise NAME LABEL C ENDPOINT ROUNDS: LABEL-C's medians over rounds 1..ROUNDS, and its row in table.md.
summarise() {
  local name=$1 label=$2 c=$3 endpoint=$4 rounds=$5 r us=() rps=() p99=() errors=0 n=0
  for r in $(seq "$rounds"); do
    us+=("${cpu_us[$label-$c-$r]}"); rps+=("${cpu_rps[$label-$c-$r]}"); p99+=("${cpu_p99[$label-$c-$r]}")
    errors=$((errors + ${cpu_errors[$label-$c-$r]})); n=$((n + ${cpu_n[$label-$c-$r]}))
  done
  cpu_us[$label-$c]=$(median "${us[@]}"); cpu_rps[$label-$c]=$(median "${rps[@]}"); cpu_p99[$label-$c]=$(median "${p99[@]}")
  cpu_errors[$label-$c]=$errors; cpu_n[$label-$c]=$n
  echo "| $label | \`$endpoint\` | $c | ${warm_s[$name-$c]} | ${cpu_rps[$label-$c]} | ${cpu_us[$label-$c]} | $(IFS=/; echo "${us[*]}") | ${cpu_p99[$label-$c]} | $errors |" >>"$dir/table.md"
}
echo "| front end (core 0) | endpoint | connections | warm-up s | answers/s | CPU per answer µs | each round µs | p99 ms | errors |" >"$dir/table.md"
echo "|---|---|---:|---:|---:|---:|---|---:|---:|" >>"$dir/table.md"
fronts=(nginx loomgate jdk)
nginx_on front-nginx "$front_port" 0 "upstream backend { server 127.0.0.1:$backend_port; keepalive 1024; }
  server { listen 127.0.0.1:$front_port backlog=4096; keepalive_requests 100000;
    location /api/ { proxy_pass http://backend/api/; proxy_http_version 1.1; proxy_set_header Connection \"\"; } }"
nginx_front_pid=${server_pids[-1]}
for front in loomgate jdk; do
  LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start "front-$front" taskset -c 0 "$root/scripts/run" --port 0 \
    --server "$front" --routes "$work/proxy.json"
done
for c in "${cpu_conns[@]}"; do
  for front in "${fronts[@]}"; do warm "front-$front" "$c" /api/data; done
  for r in $(seq "$cpu_rounds"); do
    for front in "${fronts[@]}"; do window "front-$front" "$front" "$c" /api/data "$r"; done
  done
  for front in "${fronts[@]}"; do summarise "front-$front" "$front" "$c" /api/data "$cpu_rounds"; done
done
kill "$nginx_front_pid" 2>/dev/null; wait "$nginx_front_pid" 2>/dev/null || true
for front in loomgate jdk; do stop "front-$front"; done

# The HTTP /aggregate (examples/http-aggregate.json) against a Go errgroup BFF doing the same two
# calls (load/bff), each on core 0, over the bundled backend on core 1.
agg_c=1000
go_built=0
if command -v go >/dev/null 2>&1 && ( cd "$root/load/bff" && GOFLAGS=-p=1 go build -o "$work/bff" . ); then
  go_built=1
else
  echo "loomgate: the Go BFF (load/bff) could not be built: install Go (https://go.dev/dl/; it fetches golang.org/x/sync from the module proxy); its row and ratio are SKIPPED"
fi
# Each front end gets a bundled backend of its own: after loomgate's run a shared one once timed out
# every call of the Go BFF's (791 answers, each a 502), and then there is no reference. Both front
# ends run at once, each idle while the other is measured, in rounds as the proxy's are: measured one
# window each, loomgate's /aggregate once cost 158.1 and once 133.8 µs a request against the Go
# BFF's 134.9 and 124.7, where the runs around them gave 0.93x and 0.98x.
# agg_start NAME COMMAND...: a bundled backend on core 1, then COMMAND on core 0, with {backend} in
# it the backend's port and {routes} a copy of examples/http-aggregate.json that calls it.
agg_start() {
  local name=$1 port
  shift
  LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start "$name-backend" taskset -c 1 "$root/scripts/run" backend --port 0
  port=${url[$name-backend]##*:}
  sed "s/127\.0\.0\.1:9090/127.0.0.1:$port/g" "$root/examples/http-aggregate.json" >"$work/$name-routes.json"
  local cmd=("${@//\{backend\}/$port}")
  LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start "$name" taskset -c 0 "${cmd[@]//\{routes\}/$work/$name-routes.json}"
}
agg_names=(agg-loomgate); agg_labels=(loomgate-aggregate)
agg_start agg-loomgate "$root/scripts/run" --port 0 --routes "{routes}"
if [ "$go_built" = 1 ]; then
  agg_start agg-go "$work/bff" -listen 127.0.0.1:0 -backend "http://127.0.0.1:{backend}"
  agg_names+=(agg-go); agg_labels+=(go-errgroup)
fi
for name in "${agg_names[@]}"; do warm "$name" "$agg_c" /aggregate; done
for r in $(seq "$cpu_rounds"); do
  for i in "${!agg_names[@]}"; do window "${agg_names[$i]}" "${agg_labels[$i]}" "$agg_c" /aggregate "$r"; done
done
for i in "${!agg_names[@]}"; do
  summarise "${agg_names[$i]}" "${agg_labels[$i]}" "$agg_c" /aggregate "$cpu_rounds"
  stop "${agg_names[$i]}"
  stop "${agg_names[$i]}-backend"
done

write_machine_json "\"nginx\":\"$(nginx -v 2>&1 | sed 's/^nginx version: //')\","
{
  echo "# loomgate cpu scenario: CPU per proxied request against nginx's, each on one core"
  echo
  echo "Machine: $(nproc) cores, $(date -u +%Y-%m-%dT%H:%M:%SZ), $("$JAVA_HOME/bin/java" -version 2>&1 | sed -n 2p). Each front end on core 0"
  echo "(\`taskset -c 0\`), wrk (2 threads) and the backend (nginx's \`return 200\`, one worker) on core 1;"
  echo "a warm-up in ${cpu_warm_window} s windows until one's CPU per request is within 5% of the one before and"
  echo "the JVM's JIT compilers used at most 2% of it (${cpu_warm} to ${cpu_warm_max} s; \"not steady\" when the limit"
  echo "stopped it), then ${cpu_rounds} round(s) of ${cpu_run} s measured, one window per front end in turn (nginx,"
  echo "loomgate, the JDK's; the three running at once, each idle while another is measured); a figure is"
  echo "the median of the rounds, a ratio the median of the rounds' ratios. The Go BFF and loomgate's"
  echo "\`/aggregate\` the same way, in their own rounds. Command: \`scripts/load $args_given\`"
  echo
  cat "$dir/table.md"
  echo
  echo "## Targets (issue #44)"
  echo
  for c in "${cpu_conns[@]}"; do
    for front in loomgate jdk; do
      ratio=$(round_ratios cpu_us "$front" nginx "$c" "$cpu_rounds"); share=$(round_ratios cpu_rps "$front" nginx "$c" "$cpu_rounds")
      verdict=$(verdict "$front-$c" "nginx-$c" "$(awk -v r="${ratio%% *}" 'BEGIN { print (r != "n/a" && r + 0 <= 2.0) ? 1 : 0 }')")
      verdict1=$(verdict "$front-$c" "nginx-$c" "$(awk -v r="${share%% *}" 'BEGIN { print (r != "n/a" && r + 0 >= 0.4) ? 1 : 0 }')")
      echo "- **$verdict**: $front's server c=$c: CPU per request ≤ 2.0x nginx's: ${ratio%% *}x (rounds ${ratio#* }; medians ${cpu_us[$front-$c]} against ${cpu_us[nginx-$c]} µs)"
      echo "- **$verdict1**: $front's server c=$c on one core: ≥ 0.4x nginx's answers/s: ${share%% *}x (rounds ${share#* }; medians ${cpu_rps[$front-$c]} against ${cpu_rps[nginx-$c]})"
    done
  done
  if [ "$go_built" = 1 ]; then
    ratio=$(round_ratios cpu_us loomgate-aggregate go-errgroup "$agg_c" "$cpu_rounds")
    verdict=$(verdict "loomgate-aggregate-$agg_c" "go-errgroup-$agg_c" "$(awk -v r="${ratio%% *}" 'BEGIN { print (r != "n/a" && r + 0 <= 1.0) ? 1 : 0 }')")
    echo "- **$verdict**: HTTP \`/aggregate\` c=$agg_c: CPU per request ≤ a Go errgroup BFF's: ${ratio%% *}x (rounds ${ratio#* }; medians ${cpu_us[loomgate-aggregate-$agg_c]} against ${cpu_us[go-errgroup-$agg_c]} µs)"
  else
    echo "- **skipped**: HTTP \`/aggregate\` against a Go errgroup BFF: Go was not available"
  fi
} >"$dir/report.md"
echo; cat "$dir/report.md"
record_run cpu-latest
