# Sourced by scripts/load for --scenario startup, after its set-up ($dir, $root, JAVA_HOME). How long
# loomgate takes from its start to the first 200 on /health, five times each: the JVM with the jar
# and no AOT cache, the same with the cache scripts/run makes (target/loomgate.aot), and scripts/run
# itself (which finds the JDK, checks the build and the cache, then starts the JVM with it). The
# clock starts just before the command and stops when curl, asking every millisecond, gets the 200.

runs_each=5
"$root/scripts/run" --version >/dev/null   # builds the jar and makes the cache when they are stale
cache="$root/target/loomgate.aot"
[ -s "$cache" ] || echo "loomgate: no AOT cache could be made; the cache rows will be missing" >&2
port=$("$JAVA_HOME/bin/java" "$root/load/FreePort.java")

# startup_ms COMMAND...: starts it, waits for the first 200 on /health, stops it; prints milliseconds.
startup_ms() {
  local t0 t1 p
  t0=$(date +%s%N)
  "$@" --port "$port" >/dev/null 2>&1 &
  p=$!
  for _ in $(seq 20000); do
    if curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/health" 2>/dev/null | grep -q 200; then
      t1=$(date +%s%N)
      break
    fi
    sleep 0.001
  done
  kill -TERM "$p" 2>/dev/null; wait "$p" 2>/dev/null || true
  echo $(( (t1 - t0) / 1000000 ))
}

declare -A results
java_cmd=("$JAVA_HOME/bin/java" --enable-preview -jar "$root/target/loomgate.jar")
for i in $(seq "$runs_each"); do
  results[jar]+="$(startup_ms "${java_cmd[@]}") "
  [ -s "$cache" ] && results[cache]+="$(startup_ms "$JAVA_HOME/bin/java" --enable-preview "-XX:AOTCache=$cache" \
    -Xlog:aot=off -Xlog:cds=off -jar "$root/target/loomgate.jar") "
  results[run]+="$(startup_ms "$root/scripts/run") "
done

{
  echo "# loomgate startup: to the first 200 on /health"
  echo
  echo "Machine: $(nproc) cores, $("$JAVA_HOME/bin/java" -version 2>&1 | sed -n 2p), $(date -u +%Y-%m-%d); $runs_each runs each, in turns; \`scripts/load --scenario startup\`"
  echo
  echo "| how | runs (ms) | median ms | target 200 ms |"
  echo "|---|---|---:|---|"
  for k in jar cache run; do
    [ -n "${results[$k]:-}" ] || continue
    median=$(echo "${results[$k]}" | tr ' ' '\n' | grep . | sort -n | sed -n "$(( (runs_each + 1) / 2 ))p")
    case $k in
      jar) how="\`java --enable-preview -jar target/loomgate.jar\`, no AOT cache" ;;
      cache) how="the same with \`-XX:AOTCache=target/loomgate.aot\`" ;;
      run) how="\`scripts/run\` (JDK lookup, build check, then the JVM with the cache)" ;;
    esac
    echo "| $how | ${results[$k]% } | $median | $([ "$median" -le 200 ] && echo met || echo '**missed**') |"
  done
} >"$dir/report.md"
cat "$dir/report.md"
record_run startup-latest "$dir/report.md"
