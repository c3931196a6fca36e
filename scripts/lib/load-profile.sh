# Sourced by scripts/load for --scenario profile, after its set-up (start, run, settle, cpu_ms, $dir,
# $work, $report_tool). Where the proxy's CPU goes, on each server: examples/proxy.json over the
# bundled backend's 100 ms /api/data at c=2000, warmed for 15 s, then loaded for 12 s while Linux
# perf samples the gateway's every thread (kernel included) for 10 s. The JVM names its JIT-compiled
# frames in a perf map (jcmd PID Compiler.perfmap), and io.loomgate.load.PerfBreakdown sorts the
# samples: by thread (request threads, GC, JIT), by whose work (the HTTP client, the server, the
# pipeline, virtual-thread scheduling), by what ran (kernel, JVM, Java) and by system call.
# Writes profile-KIND.md for each server, each share also in µs of one request's CPU.

if ! command -v perf >/dev/null 2>&1; then
  echo "loomgate: --scenario profile needs Linux perf; installing it (apt-get install linux-perf)" >&2
  { apt-get install -y -q linux-perf >/dev/null 2>&1 || sudo -n apt-get install -y -q linux-perf >/dev/null 2>&1; } || true
  command -v perf >/dev/null 2>&1 || { echo "loomgate: perf is missing: sudo apt-get install linux-perf" >&2; exit 2; }
fi

prof_warm=15; prof_run=12; prof_sample=10
[ "$quick" = 1 ] && { prof_warm=3; prof_run=5; prof_sample=3; }

LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start backend "$root/scripts/run" backend --port 0
backend_port=${url[backend]##*:}
sed "s/127\.0\.0\.1:9090/127.0.0.1:$backend_port/g" "$root/examples/proxy.json" >"$work/proxy.json"

for kind in loomgate jdk; do
  name="proxy-$kind"
  LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id -XX:+UnlockDiagnosticVMOptions -XX:+PreserveFramePointer" \
    start "$name" "$root/scripts/run" --port 0 --server "$kind" --routes "$work/proxy.json"
  wrk -t"$threads" -c2000 -d"${prof_warm}s" --timeout 10s "${url[$name]}/api/data" >/dev/null 2>&1 || true
  settle "$name"
  c0=$(cpu_ms "${pid[$name]}")
  ( sleep 1; perf record -q -F 499 -g -p "${pid[$name]}" -o "$work/perf-$kind.data" -- sleep "$prof_sample" \
      >"$work/perf-$kind.out" 2>&1 ) &
  perf_pid=$!
  run "$name" /api/data 2000 "$prof_run"
  wait "$perf_pid" || true
  cpu=$(( $(cpu_ms "${pid[$name]}") - c0 ))
  "$JAVA_HOME/bin/jcmd" "${pid[$name]}" Compiler.perfmap >/dev/null
  requests=$(grep -o '"requests":[0-9]*' "$dir"/run-*"-$name"*.json | tail -1 | cut -d: -f2)
  per_request=$(awk -v c="$cpu" -v r="${requests:-0}" 'BEGIN { if (r > 0) printf "%.1f", c * 1000 / r; else print 0 }')
  {
    echo "# Where the proxy's CPU goes: $kind's server"
    echo
    echo "$requests requests in ${prof_run} s at c=2000 (perf sampling $prof_sample s of them at 499 Hz, so a little slower than an"
    echo "unprofiled run); the gateway's CPU over the run: $cpu ms, $per_request µs per request."
    echo
    perf script -i "$work/perf-$kind.data" 2>/dev/null \
      | "$JAVA_HOME/bin/java" --enable-preview -cp "$LOOMGATE_TOOLS_CP" io.loomgate.load.PerfBreakdown "$per_request"
  } >"$dir/profile-$kind.md"
  echo "  $kind: $(sed -n 3p "$dir/profile-$kind.md")"
  stop "$name"
  rm -f "/tmp/perf-${pid[$name]}.map"
done

write_machine_json ""
echo
for kind in loomgate jdk; do sed -n '1,/^| request threads in the kernel/p' "$dir/profile-$kind.md" | head -n -1; done
record_run profile-latest
