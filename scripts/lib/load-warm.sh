# Sourced by the scenarios that measure a front end's CPU per request (cpu, h2), after scripts/load's
# set-up (cpu_ms). A JVM pinned to one core compiles on the core that serves, so how long it takes to
# warm depends on the machine: 10 s were enough on one day's 2-core machine and half-way on
# another's, whose first 18 s ran at three times the warmed cost.
#
# warm_until_steady PID MIN MAX WINDOW RUNNER ARGS...: runs `RUNNER WINDOW ARGS...` (load for WINDOW
# seconds; it prints how many requests completed) again and again until the CPU per request PID
# spent in one window is within 5% of the window before, after at least MIN seconds and at most MAX;
# prints the seconds it took (a line on stderr when MAX stopped it).
warm_until_steady() {
  local pid=$1 min=$2 max=$3 window=$4 runner=$5 c0 c1 n us prev="" spent=0
  shift 5
  while :; do
    c0=$(cpu_ms "$pid")
    n=$("$runner" "$window" "$@" || true)
    c1=$(cpu_ms "$pid")
    spent=$((spent + window))
    us=$(awk -v c="$((c1 - c0))" -v n="${n:-0}" 'BEGIN { if (n > 0) printf "%.1f", c * 1000 / n; else print 0 }')
    if [ "$spent" -ge "$min" ] && [ -n "$prev" ] \
       && awk -v a="$us" -v b="$prev" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 0.05 * b) }'; then
      break
    fi
    if [ "$spent" -ge "$max" ]; then
      echo "  (warm-up stopped at $max s, not steady: $prev then $us µs a request)" >&2
      break
    fi
    prev=$us
  done
  echo "$spent"
}
