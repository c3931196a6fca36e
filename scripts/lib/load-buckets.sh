# Sourced by scripts/load for --scenario buckets, after its set-up (start, run, settle, $dir, $work,
# $report_tool). How close Prometheus's histogram_quantile(0.99, ...) over loomgate's buckets comes to
# the p99 wrk measured, for the /block and /aggregate loads of docs/performance.md: c=100 and c=1000 on virtual
# threads, and /block at c=1000 on the platform pool (whose p99 is queueing, about 1.6 s).
# For each load it scrapes /metrics (Prometheus format) before and after the wrk run, so the
# estimate covers the same requests as wrk's figure, as increase(...[run]) would in PromQL. The
# gateways run with --access-log; each run's server-side latencies are kept too (latencies-NNN.txt),
# the raw data the unit test's recorded samples come from.

warm_each=5; [ "$quick" = 1 ] && warm_each=1
LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start virtual "$root/scripts/run" --port 0 --access-log
LOOMGATE_JAVA_OPTS="-Dloomgate.harness=$run_id" start platform "$root/scripts/run" --port 0 --threads platform --pool 200 --access-log

loads=("virtual /block 100" "virtual /block 1000" "virtual /aggregate 100" "virtual /aggregate 1000" "platform /block 1000")
echo "loomgate: warming up (${warm_each} s per load)"
for l in "${loads[@]}"; do
  read -r mode endpoint c <<<"$l"
  wrk -t"$threads" -c"$c" -d"${warm_each}s" --timeout 10s "${url[$mode]}$endpoint" >/dev/null 2>&1 || true
done

echo "loomgate: running the buckets scenario (${duration} s per load)"
for l in "${loads[@]}"; do
  read -r mode endpoint c <<<"$l"
  settle "$mode"
  n=$(printf %03d $((runs + 1)))
  curl -s "${url[$mode]}/metrics?format=prometheus" >"$dir/prom-before-$n.txt"
  lines=$(wc -l <"$work/$mode.err")
  run "$mode" "$endpoint" "$c" "$duration"
  settle "$mode"
  curl -s "${url[$mode]}/metrics?format=prometheus" >"$dir/prom-after-$n.txt"
  tail -n +"$((lines + 1))" "$work/$mode.err" | grep -F " GET $endpoint 200 " \
    | sed -E 's/.* ([0-9.]+)ms id=.*/\1/' >"$dir/latencies-$n.txt" || true
done

write_machine_json '"scenario":"buckets",'
"${report_tool[@]}" --buckets "$dir"
echo "loomgate: results in $dir"
record_run buckets-latest "$dir"/report.md "$dir"/machine.json "$dir"/run-*.json
