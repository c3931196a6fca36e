# Sourced by scripts/run: JDK 25's ahead-of-time cache (JEP 483/514/515), which keeps the classes
# loomgate loads and links at startup, and the method profiles of a short training run, ready in a
# file, so a start takes about half as long and the JIT compiles sooner. loomgate_aot_flags sets
# LOOMGATE_AOT_FLAGS to use target/loomgate.aot, first making it when it is missing or older than
# the jar or the JDK: a training run of the jar on a free port serving scripts/lib/aot-training.json
# (the demo's routes beside a proxy route, an HTTP fan-out and a composed route that call the
# process itself, so the HTTP client and the proxy are in the cache too), a few thousand requests,
# then SIGTERM, and the JVM writes the cache as it exits (about 13 s on a 2-core machine, once per
# build). Anything that goes wrong leaves the flags empty: loomgate then starts without the cache,
# as before, and says so in one line on stderr, keeping the training run's output in
# target/loomgate.aot.log (removed when a training succeeds).
# LOOMGATE_AOT=off skips it all, and LOOMGATE_AOT_CACHE puts the cache elsewhere (the tests do).

LOOMGATE_AOT_FLAGS=()

loomgate_aot_flags() {
  local jar=$1 cache="${LOOMGATE_AOT_CACHE:-${1%.jar}.aot}" stamp jdk
  stamp="$cache.jdk"
  [ "${LOOMGATE_AOT:-on}" = off ] && return 0
  # The JDK's identity without starting it: its path and its release file, read with bash's own
  # builtins (each program started here cost every start 3 to 6 ms on a 2-core machine).
  local java="$JAVA_HOME/bin/java" release="" line was=""
  [ -L "$java" ] && java=$(readlink -f "$java")
  if [ -r "$JAVA_HOME/release" ]; then
    while IFS= read -r line || [ -n "$line" ]; do release+="$line;"; done <"$JAVA_HOME/release"
  fi
  jdk="$java $release"
  [ -r "$stamp" ] && { IFS= read -r was <"$stamp" || true; }
  if [ ! -f "$cache" ] || [ ! -s "$cache" ] || [ "$jar" -nt "$cache" ] || [ "$was" != "$jdk" ]; then
    if ! loomgate_aot_train "$jar" "$cache"; then
      rm -f "$cache" "$stamp" 2>/dev/null || true
      if [ -s "$cache.log" ]; then
        echo "loomgate: the AOT cache could not be made (the training run's output: ${cache#"$PWD/"}.log); starting without it" >&2
      else
        echo "loomgate: the AOT cache could not be made (cannot write beside ${cache#"$PWD/"}); starting without it" >&2
      fi
      return 0
    fi
    echo "$jdk" >"$stamp"
  fi
  # -Xlog off for aot and cds: a cache the JVM cannot use is skipped without a word on stdout.
  LOOMGATE_AOT_FLAGS=("-XX:AOTCache=$cache" "-Xlog:aot=off" "-Xlog:cds=off")
}

# loomgate_aot_train JAR CACHE: the training run, quiet but for one line; each step is bounded (the
# start by 30 s, each curl by its --max-time, the exit by 60 s and then SIGKILL).
loomgate_aot_train() {
  local jar=$1 cache=$2 out="$2.log" pid url="" i port
  local routes
  routes="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/aot-training.json"
  echo "loomgate: making the AOT cache ${cache#"$PWD/"} (once per build; LOOMGATE_AOT=off skips it)" >&2
  rm -f "$cache" 2>/dev/null || true
  : >"$out" 2>/dev/null || return 1
  # Its routes call the process itself, so it needs its port before it starts: a free one, by asking,
  # below the kernel's ephemeral range (so no outgoing connection takes it meanwhile); if the port
  # is taken all the same before the JVM binds it, one more try on another.
  local low=32768 try
  [ -r /proc/sys/net/ipv4/ip_local_port_range ] && read -r low _ </proc/sys/net/ipv4/ip_local_port_range
  [ "$low" -gt 11024 ] 2>/dev/null || low=32768
  for try in 1 2; do
    for i in $(seq 20); do
      port=$((10000 + RANDOM % (low - 10000)))
      (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || break
    done
    LOOMGATE_TRAIN_ORIGIN="127.0.0.1:$port" "$JAVA_HOME/bin/java" --enable-preview \
      ${LOOMGATE_JVM_FLAGS[@]+"${LOOMGATE_JVM_FLAGS[@]}"} -XX:AOTCacheOutput="$cache" -Xlog:aot=off -Xlog:cds=off \
      -jar "$jar" --port "$port" --routes "$routes" >>"$out" 2>&1 &
    pid=$!
    for i in $(seq 300); do
      url=$(grep -o 'listening on http://[^ ]*' "$out" 2>/dev/null | cut -d' ' -f3 || true)
      [ -n "$url" ] && break
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    [ -n "$url" ] && break
    kill -0 "$pid" 2>/dev/null && break   # alive but silent: ended below
    wait "$pid" 2>/dev/null || true
    [ "$try" = 1 ] && grep -qi 'address already in use' "$out" 2>/dev/null || break
    echo "loomgate: port $port was taken before the training run could listen on it; trying another" >>"$out"
  done
  if [ -n "$url" ] && command -v curl >/dev/null 2>&1; then
    for i in 1 2 3; do
      for p in /health /livez /readyz /block?delay=db:1ms '/aggregate?delay=db:1ms' '/aggregate?fail=file' \
               '/first-success?delay=cache-2:1ms' /aggregate-with-fallback /aggregate-old /cache?delay=cache:1ms \
               /metrics '/metrics?format=json' '/metrics?format=prometheus' /dashboard /debug/requests / /no-such-path; do
        curl -s -o /dev/null --max-time 5 "$url$p" || true
      done
    done
    # Enough calls for the JIT's profiles of the paths a gateway lives on (one connection each):
    # the proxy, an HTTP fan-out, a composed route, and the proxy over h2c.
    curl -s --max-time 30 "$url/api/health?i=[1-1500]" >/dev/null 2>&1 || true
    curl -s --max-time 30 "$url/http-aggregate?i=[1-400]" >/dev/null 2>&1 || true
    curl -s --max-time 30 "$url/composed/[1-400]" >/dev/null 2>&1 || true
    curl -s --max-time 30 --http2-prior-knowledge "$url/api/file?i=[1-300]" >/dev/null 2>&1 || true
  fi
  kill -TERM "$pid" 2>/dev/null || true
  for i in $(seq 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "loomgate: the training run had not exited 60 s after SIGTERM, so it was killed" >>"$out"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || true
  [ -n "$url" ] || echo "loomgate: the training run never said it was listening (it waits 30 s)" >>"$out"
  [ -f "$cache" ] && [ -s "$cache" ] || echo "loomgate: the training run left no cache at $cache" >>"$out"
  [ -n "$url" ] && [ -f "$cache" ] && [ -s "$cache" ] && rm -f "$out"
}
