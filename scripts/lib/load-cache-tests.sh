# Sourced by scripts/load for --scenario cache-tests, after its set-up (start, stop, record_run,
# $dir, $work, $root). Not a load: the HTTP caching test suite that cache-tests.fyi publishes (Mark
# Nottingham's http-cache-tests, the newest npm has: 0.4.5), run against a proxy route whose upstream
# has "cache": {"maxBytes": "64MB"}, in front of the suite's own origin server. report.md counts the
# results as cache-tests.fyi shows them, beside the results the package carries for nginx, Squid,
# Varnish, Apache, Traffic Server, Fastly, nuster and three browsers. load/cache-tests/summary.mjs counts.
# Needs node and npm (sudo apt-get install nodejs npm); the suite goes to ~/.cache/loomgate.

ct_version=0.4.5
ct_home="$HOME/.cache/loomgate/http-cache-tests-$ct_version"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "loomgate: --scenario cache-tests needs node and npm: sudo apt-get install nodejs npm" >&2; exit 2
fi
# LOOMGATE_CACHE_TESTS: another copy of the suite instead (a clone of github.com/http-tests/cache-tests, after npm i)
suite=${LOOMGATE_CACHE_TESTS:-"$ct_home/node_modules/http-cache-tests"}
if [ ! -f "$suite/cli.mjs" ]; then
  echo "loomgate: installing http-cache-tests $ct_version in $ct_home (npm)"
  mkdir -p "$ct_home" && (cd "$ct_home" && npm install --silent --no-audit --no-fund "http-cache-tests@$ct_version" >/dev/null) \
    || { echo "loomgate: npm could not install http-cache-tests@$ct_version" >&2; exit 1; }
fi

origin_port=$("$JAVA_HOME/bin/java" "$root/load/FreePort.java")
(cd "$suite" && exec env npm_package_config_protocol=http npm_config_port="$origin_port" npm_config_pidfile="$work/origin.pid" \
  node server/server.mjs) >"$work/origin.out" 2>&1 &
server_pids+=("$!")
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$origin_port/" && break; sleep 0.1; done
curl -s -o /dev/null "http://127.0.0.1:$origin_port/" || { echo "loomgate: the suite's origin did not start:" >&2; cat "$work/origin.out" >&2; exit 1; }

cat >"$work/routes.json" <<JSON
{"upstreams": [{"id": "origin", "kind": "http", "url": "http://127.0.0.1:$origin_port", "cache": {"maxBytes": "64MB"}}],
 "routes": [{"path": "/*", "policy": "proxy", "upstreams": ["origin"]}]}
JSON
start gate "$root/scripts/run" --port 0 --routes "$work/routes.json"
echo "loomgate: running the suite through loomgate (about 15 s)"
(cd "$suite" && npm_config_base="${url[gate]}" npm_package_config_id="" node --no-warnings cli.mjs) >"$dir/loomgate.json" 2>"$work/cli.err" \
  || { echo "loomgate: the suite failed to run:" >&2; cat "$work/cli.err" >&2; exit 1; }
stop gate

{
  echo "# http-cache-tests $ct_version through loomgate ($(date -u +%Y-%m-%d), $(nproc) cores)"
  echo
  echo "A proxy route in front of the suite's origin, the upstream with \`\"cache\": {\"maxBytes\": \"64MB\"}\`;"
  echo "the other rows are the results the package carries. \`fail\` counts required behaviours failed;"
  echo "\`optional_fail\` an optimal one (a stored answer not used when it could be); \`yes\`/\`no\` the checks."
  echo
  (cd "$suite" && CACHE_TESTS_DIR="$suite" node "$root/load/cache-tests/summary.mjs" results/*.json "$dir/loomgate.json")
} >"$dir/report.md"
cat "$dir/report.md"
record_run cache-tests-latest
echo
echo "loomgate: report in $dir/report.md"
