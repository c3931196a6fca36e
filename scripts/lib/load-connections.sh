# Sourced by scripts/load for --scenario connections, after its set-up ($dir, $root, JAVA_HOME). What
# one connection costs the gateway at each point a client may stall (load/StalledConnections.java:
# nothing sent, part of a head, idle after a request, part of a TLS ClientHello, a whole ClientHello
# and silence; on loomgate's server also an HTTP/2 connection idle after one stream, one with four
# proxied requests running, and one at its worst: its receive window full of request bodies the
# upstream (load/ClosedWindowUpstream.java) will not take, its HPACK table full and a header block
# stopped 59 KB in), on loomgate's server and on the JDK's: 2,000 connections of one kind (500 of the
# last two), the heap after
# two full GCs (jcmd) before and while they are held, and the RSS. What --max-connections auto prices
# a connection at (config/ConnectionBudget) comes from this table. Light on CPU: nothing is sent but
# the connections' first bytes.

conn_n=2000
keystore="$dir/gateway.p12"
"$JAVA_HOME/bin/keytool" -genkeypair -keyalg EC -groupname secp256r1 -alias gateway -dname CN=127.0.0.1 \
  -keystore "$keystore" -storetype PKCS12 -storepass harness -keypass harness -validity 2 >/dev/null 2>&1

heap_kb() {   # heap used after two full collections, in KB
  "$JAVA_HOME/bin/jcmd" "$1" GC.run >/dev/null; sleep 1; "$JAVA_HOME/bin/jcmd" "$1" GC.run >/dev/null; sleep 1
  "$JAVA_HOME/bin/jcmd" "$1" GC.heap_info | grep -o 'used [0-9]*K' | head -1 | grep -o '[0-9]*'
}
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

# The h2-busy and h2-full kinds' upstream: it takes streams and lets no body in.
"$JAVA_HOME/bin/java" "$root/load/ClosedWindowUpstream.java" >"$dir/sink.out" 2>&1 &
sink=$!
server_pids+=("$sink")
for _ in $(seq 600); do grep -q '^port ' "$dir/sink.out" && break; sleep 0.1; done
cat >"$dir/sink.json" <<EOF
{"upstreams": [{"id": "sink", "kind": "http", "url": "http://127.0.0.1:$(awk '/^port / {print $2}' "$dir/sink.out")/", "protocol": "h2c", "timeout": "120s"}],
 "routes": [{"path": "/sink/*", "policy": "proxy", "upstreams": ["sink"], "timeout": "120s"}]}
EOF

echo "| server | a connection that | heap per connection | RSS per connection |" >"$dir/table.md"
echo "|---|---|---:|---:|" >>"$dir/table.md"
for server in loomgate jdk; do
  kinds="nothing head idle hello-part hello"
  [ "$server" = loomgate ] && kinds="$kinds h2-idle h2-busy h2-full"   # the JDK's server speaks HTTP/1.1 only
  for kind in $kinds; do
    tls=()
    case "$kind" in hello*) tls=(--tls-keystore "$keystore") ;; esac
    routes=()
    case "$kind" in h2-busy|h2-full) routes=(--routes "$dir/sink.json" --max-timeout 120s) ;; esac
    places=20000 n=$conn_n
    [ "$kind" = h2-idle ] && places=60000   # an HTTP/2 connection takes 22 places under --max-connections
    case "$kind" in h2-busy|h2-full) places=60000 n=500 ;; esac
    LOOMGATE_TLS_KEYSTORE_PASSWORD=harness LOOMGATE_JAVA_OPTS="-Xmx1g -Dloomgate.harness=$run_id" \
      start "$server-$kind" "$root/scripts/run" --port 0 --server "$server" --max-connections "$places" \
      --max-connections-per-address 0 --read-timeout 120s ${tls[@]+"${tls[@]}"} ${routes[@]+"${routes[@]}"}
    p=${pid[$server-$kind]}
    gw_port=${url[$server-$kind]##*:}
    for _ in $(seq 20); do curl -sk -o /dev/null "${url[$server-$kind]}/health"; done
    before=$(heap_kb "$p"); rss_before=$(rss_kb "$p")
    "$JAVA_HOME/bin/java" "$root/load/StalledConnections.java" "$gw_port" "$n" "$kind" 60000 \
      >"$dir/stall-$server-$kind.out" 2>&1 &
    holder=$!
    for _ in $(seq 600); do grep -q holding "$dir/stall-$server-$kind.out" && break; sleep 0.1; done
    sleep 2
    after=$(heap_kb "$p"); rss_after=$(rss_kb "$p")
    kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null || true
    stop "$server-$kind"
    awk -v s="$server" -v k="$kind" -v h=$((after - before)) -v r=$((rss_after - rss_before)) -v n="$n" \
      'BEGIN { printf "| %s | %s | %.1f KB | %.1f KB |\n", s, k, h / n, r / n }' >>"$dir/table.md"
  done
done

{
  echo "# loomgate connections scenario: what a stalled connection costs"
  echo
  echo "Machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo) RAM, $("$JAVA_HOME/bin/java" -version 2>&1 | sed -n 2p); $(date -u +%Y-%m-%dT%H:%M:%SZ). $conn_n connections of each kind (500 of h2-busy and h2-full), heap after two full GCs. Command: \`scripts/load --scenario connections\`"
  echo
  cat "$dir/table.md"
} >"$dir/report.md"
cat "$dir/report.md"
kill "$sink" 2>/dev/null || true
record_run connections-latest "$dir/report.md"
