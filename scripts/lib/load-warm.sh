# Sourced by the scenarios that measure a front end's CPU per request (cpu, h2), after scripts/load's
# set-up (cpu_ms); they take their rounds' medians and ratios with median and round_ratios below.
# A JVM pinned to one core compiles on the core that serves, so how long it takes to warm depends on
# the machine: 10 s were enough on one day's 2-core machine and half-way on
# another's, whose first 18 s ran at three times the warmed cost.
#
# Two windows alike are not enough: a JVM whose JIT compiler spent seconds of a window compiling ran
# two windows at 2.5 times its warmed cost, within 5% of each other (2026-11-28: 275 µs a proxied
# request over HTTP/2 where the same jar warmed costs 107), so a window also counts as warm only
# when the JVM's compiler threads spent at most 2% of it compiling.
#
# warm_until_steady PID MIN MAX WINDOW RUNNER ARGS...: runs `RUNNER WINDOW ARGS...` (load for WINDOW
# seconds; it prints how many requests completed) again and again until the CPU per request PID
# spent in one window is within 5% of the window before and its JIT compilers were nearly idle in
# it, after at least MIN seconds and at most MAX; prints the seconds it took, followed by " (not
# steady)" when MAX stopped it (and a line on stderr saying why).
warm_until_steady() {
  local pid=$1 min=$2 max=$3 window=$4 runner=$5 c0 c1 j0 j1 n us prev="" spent=0
  shift 5
  while :; do
    c0=$(cpu_ms "$pid"); j0=$(jit_ms "$pid")
    n=$("$runner" "$window" "$@" || true)
    c1=$(cpu_ms "$pid"); j1=$(jit_ms "$pid")
    spent=$((spent + window))
    us=$(awk -v c="$((c1 - c0))" -v n="${n:-0}" 'BEGIN { if (n > 0) printf "%.1f", c * 1000 / n; else print 0 }')
    if [ "$spent" -ge "$min" ] && [ -n "$prev" ] && [ $((j1 - j0)) -le $((window * 20)) ] \
       && awk -v a="$us" -v b="$prev" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 0.05 * b) }'; then
      break
    fi
    if [ "$spent" -ge "$max" ]; then
      echo "  (warm-up stopped at $max s, not steady: $prev then $us µs a request, the JIT $((j1 - j0)) ms of the last window)" >&2
      echo "$spent (not steady)"
      return
    fi
    prev=$us
  done
  echo "$spent"
}

# median VALUES...: the middle one (the lower middle of an even count).
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# round_ratios FIGURES A B KEY ROUNDS: each round's FIGURES[A-KEY-r] / FIGURES[B-KEY-r] (FIGURES the
# name of an associative array), as "median r1, r2, ...".
round_ratios() {
  local -n figures=$1
  local r all=()
  for r in $(seq "$5"); do
    all+=("$(awk -v a="${figures[$2-$4-$r]}" -v b="${figures[$3-$4-$r]}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')")
  done
  echo "$(median "${all[@]}") $(IFS=,; echo "${all[*]}" | sed 's/,/, /g')"
}

# jit_ms PID: the CPU milliseconds PID's JIT compiler threads have used (0 for a process without them).
jit_ms() {
  local t total=0
  for t in /proc/"$1"/task/*; do
    case "$(cat "$t/comm" 2>/dev/null)" in
      C1\ CompilerThre* | C2\ CompilerThre*) total=$((total + $(cpu_ms_of "$t/stat"))) ;;
    esac
  done
  echo "$total"
}
