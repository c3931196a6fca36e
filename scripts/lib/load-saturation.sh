# Sourced by scripts/load for --scenario saturation, after its set-up (start, run, settle, $dir,
# $work, $report_tool). loomgate on virtual threads against the bare JDK server, both with the heap
# capped at 512 MB, at saturation: /block (300 ms) at c=1000, 4000 and 10,000 on both, and
# /aggregate at c=10,000 on loomgate. Halfway through each run the server is made to collect
# (jcmd GC.run) and its heap after that GC is read; against the heap after a GC at rest, that gives
# the heap each request in flight holds. loomgate's own /metrics says how many were in flight, and
# the slowest /aggregate answer it wrote (its deadline is 2 s).

heap_cap=512m
sat_c=(1000 4000 10000); [ "$quick" = 1 ] && sat_c=(1000 4000)
warm_each=10; [ "$quick" = 1 ] && warm_each=3
# c=10,000 at -Xmx512m is within the connection cap such a heap gets by default (10,922: a third of
# the heap at 16 KB a connection), so the cap is left as it is (it was raised to 12,000 while it was 4,096).
LOOMGATE_JAVA_OPTS="-Xmx$heap_cap -Dloomgate.harness=$run_id" start virtual "$root/scripts/run" --port 0
start bare "$JAVA_HOME/bin/java" ${LOOMGATE_JVM_FLAGS[@]+"${LOOMGATE_JVM_FLAGS[@]}"} "-Xmx$heap_cap" \
  -Dloomgate.harness="$run_id" "$root/load/Bare.java" 0

# heap_after_gc NAME: the heap in use, in KB, right after a full collection the harness asks for.
heap_after_gc() {
  jcmd "${pid[$1]}" GC.run >/dev/null 2>&1 || { echo 0; return; }
  jcmd "${pid[$1]}" GC.heap_info 2>/dev/null | grep -o 'used [0-9]*K' | head -1 | grep -o '[0-9]*' || echo 0
}

# in_flight: requests loomgate's server was handling, by its /metrics.
in_flight() {
  curl -s --max-time 5 "${url[virtual]}/metrics?format=json" | grep -o '"inFlight":[0-9]*' | head -1 | cut -d: -f2
}

echo "loomgate: warming up (${warm_each} s each at c=2000)"
wrk -t"$threads" -c2000 -d"${warm_each}s" --timeout 10s "${url[virtual]}/block" >/dev/null 2>&1 || true
wrk -t"$threads" -c2000 -d"${warm_each}s" --timeout 10s "${url[virtual]}/aggregate" >/dev/null 2>&1 || true
wrk -t"$threads" -c2000 -d"${warm_each}s" --timeout 10s "${url[bare]}/block?ms=300" >/dev/null 2>&1 || true
settle virtual; settle bare
rest_virtual=$(heap_after_gc virtual); rest_bare=$(heap_after_gc bare)

# sat NAME ENDPOINT C: one run, with the heap after a GC taken halfway through.
sat() {
  local name=$1 endpoint=$2 c=$3 heap=0 flight=0
  settle "$name"
  ( sleep $((duration / 2)); heap_after_gc "$name" >"$work/heap"; [ "$name" = virtual ] && in_flight >"$work/flight" || echo "$c" >"$work/flight" ) &
  local probe=$!
  run "$name" "$endpoint" "$c" "$duration"
  wait "$probe" || true
  heap=$(cat "$work/heap" 2>/dev/null || echo 0); flight=$(cat "$work/flight" 2>/dev/null || echo 0)
  local rest=$rest_virtual; [ "$name" = bare ] && rest=$rest_bare
  local file; file=$(ls "$dir"/run-*.json | sort | tail -1)
  local slowest=0
  [ "$name" = virtual ] && slowest=$(curl -s "${url[virtual]}/metrics?format=json" \
    | grep -o "\"$endpoint\":{[^}]*}[^}]*}" | grep -o '"max":[0-9.]*' | head -1 | cut -d: -f2)
  # Adds the saturation figures to the run file: heap after GC under load and at rest, in flight, the slowest answer.
  sed -i "s/^{\"endpoint\"/{\"heapCap\":\"$heap_cap\",\"heapAfterGcKb\":${heap:-0},\"heapAtRestKb\":${rest:-0},\"inFlight\":${flight:-0},\"serverMaxMs\":${slowest:-0},\"endpoint\"/" "$file"
}

echo "loomgate: running the saturation scenario (${duration} s per run, heap capped at $heap_cap)"
for c in "${sat_c[@]}"; do
  sat virtual /block "$c"
  sat bare "/block?ms=300" "$c"
done
sat virtual /aggregate "${sat_c[-1]}"

write_machine_json "\"scenario\":\"saturation\",\"heapCap\":\"$heap_cap\","
echo
"${report_tool[@]}" --saturation "$dir"
record_run saturation-latest
