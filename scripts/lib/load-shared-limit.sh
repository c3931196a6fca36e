# Sourced by scripts/load for --scenario shared-limit, after its set-up (start, run, settle, cleanup,
# $dir, $work, $report_tool). Does a limit shared on Redis hold across a fleet? One redis-server,
# three loomgates with --redis, HAProxy round-robin in front, and wrk at c=300 for 20 s (--duration
# when given; --quick: 5 s) against
#   /shared  limited to 1,000 a second for the whole fleet ("shared": true, one key: every request
#            comes from 127.0.0.1), and
#   /local   the same limit kept by each instance alone, for contrast (the fleet passes three times it).
# What passes /shared should stay within 10% of 1,000 a second. The report also has each instance's
# Redis command latency (p50, p99) and the requests that fell back (no answer within --redis-timeout).

shared_c=300
shared_s=20; [ "$duration_given" = 1 ] && shared_s=$duration; [ "$quick" = 1 ] && shared_s=5
redis_timeout=${LOOMGATE_LOAD_REDIS_TIMEOUT:-20ms}

for program in redis-server haproxy; do
  command -v "$program" >/dev/null 2>&1 || [ -x "/usr/sbin/$program" ] || {
    echo "loomgate: the shared-limit scenario needs $program (Debian: sudo apt-get install $program)" >&2
    exit 2
  }
done
haproxy_bin=$(command -v haproxy || echo /usr/sbin/haproxy)

redis_port=$("$JAVA_HOME/bin/java" "$root/load/FreePort.java")
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --daemonize no --logfile "$work/redis.log" \
  --dir "$work" >/dev/null 2>&1 &
pid[redis]=$!
server_pids+=("$!")
for _ in $(seq 100); do redis-cli -p "$redis_port" PING 2>/dev/null | grep -q PONG && break; sleep 0.1; done
echo "loomgate: redis-server $(redis-server --version | grep -o 'v=[0-9.]*' | cut -d= -f2) on 127.0.0.1:$redis_port"

cat >"$work/shared-routes.json" <<JSON
{"upstreams": [{"id": "fast", "kind": "simulated", "service": "cache", "latency": "1ms"}],
 "routes": [
   {"path": "/shared", "policy": "single", "upstreams": ["fast"],
    "rateLimit": {"perSecond": 1000, "burst": 100, "by": "ip", "shared": true}},
   {"path": "/local", "policy": "single", "upstreams": ["fast"],
    "rateLimit": {"perSecond": 1000, "burst": 100, "by": "ip"}}]}
JSON
gate_ports=()
# LOOMGATE_LOAD_JFR=1: the first loomgate records a JFR profile (profile settings) into the results.
jfr_opts=""
[ "${LOOMGATE_LOAD_JFR:-0}" = 1 ] && jfr_opts="-XX:StartFlightRecording=settings=profile,filename=$dir/gate1.jfr,dumponexit=true"
for i in 1 2 3; do
  opts="-Dloomgate.harness=$run_id"; [ "$i" = 1 ] && opts="$opts $jfr_opts"
  LOOMGATE_JAVA_OPTS="$opts" start "gate$i" "$root/scripts/run" --port 0 --routes "$work/shared-routes.json" \
    --redis "redis://127.0.0.1:$redis_port" --redis-timeout "$redis_timeout" --trusted-proxies 127.0.0.1
  gate_ports+=("${url[gate$i]##*:}")
done

lb_port=$("$JAVA_HOME/bin/java" "$root/load/FreePort.java")
cat >"$work/haproxy.cfg" <<CFG
global
    maxconn 4000
defaults
    mode http
    option http-keep-alive
    timeout connect 2s
    timeout client 60s
    timeout server 35s
frontend fleet
    bind 127.0.0.1:$lb_port
    option forwardfor
    default_backend gates
backend gates
    balance roundrobin
    server g1 127.0.0.1:${gate_ports[0]}
    server g2 127.0.0.1:${gate_ports[1]}
    server g3 127.0.0.1:${gate_ports[2]}
CFG
"$haproxy_bin" -db -f "$work/haproxy.cfg" >"$work/haproxy.out" 2>&1 &
pid[fleet]=$!
server_pids+=("$!")
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$lb_port/health" && break; sleep 0.1; done
url[fleet]="http://127.0.0.1:$lb_port"
echo "loomgate: haproxy $("$haproxy_bin" -v | head -1 | grep -o 'version [0-9.]*' | cut -d' ' -f2) round-robin over three loomgates on ${url[fleet]}"

echo "loomgate: warming up (5 s each route)"
for route in /shared /local; do
  wrk -t"$threads" -c"$shared_c" -d5s --timeout 10s "${url[fleet]}$route" >/dev/null 2>&1 || true
done
sleep 1   # the buckets refill: each run starts from full ones

# The Redis counters start from here: the report's latency and fallbacks are the measured run's.
for i in 1 2 3; do curl -s "${url[gate$i]}/metrics?format=prometheus" >"$dir/metrics-before-gate$i.txt"; done
echo "loomgate: running the shared-limit scenario (${shared_s} s each, c=$shared_c, 1,000/s for the fleet; --redis-timeout $redis_timeout)"
run fleet /shared "$shared_c" "$shared_s"
for i in 1 2 3; do curl -s "${url[gate$i]}/metrics?format=prometheus" >"$dir/metrics-after-gate$i.txt"; done
sleep 1
run fleet /local "$shared_c" "$shared_s"

duration=$shared_s
write_machine_json "\"limitPerSecond\":1000,\"limitBurst\":100,\"instances\":3,\"redisTimeout\":\"$redis_timeout\",\"redis\":\"$(redis-server --version | grep -o 'v=[0-9.]*' | cut -d= -f2)\",\"haproxy\":\"$("$haproxy_bin" -v | head -1 | grep -o 'version [0-9.]*' | cut -d' ' -f2)\","
echo
"${report_tool[@]}" --shared-limit "$dir"
record_run shared-limit-latest
