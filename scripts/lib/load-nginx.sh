# Sourced by the scenarios that run nginx beside loomgate (cpu, h2), after scripts/load's set-up ($work, url, pid,
# server_pids).

# nginx_on NAME PORT CORE HTTP-BLOCK: one nginx with one worker pinned to CORE, serving HTTP-BLOCK (its
# servers), once it answers /api/data (with curl's options in nginx_probe, if set: --http2-prior-knowledge).
nginx_on() {
  local name=$1 port=$2 core=$3 location=$4 d="$work/nginx-$1"
  mkdir -p "$d"
  cat >"$d/nginx.conf" <<CONF
worker_processes 1;
error_log $d/error.log warn;
pid $d/nginx.pid;
worker_rlimit_nofile 20000;
events { worker_connections 10000; }
http {
  access_log off;
  client_body_temp_path $d/body; proxy_temp_path $d/proxy;
  fastcgi_temp_path $d/fcgi; uwsgi_temp_path $d/uwsgi; scgi_temp_path $d/scgi;
  $location
}
CONF
  taskset -c "$core" nginx -c "$d/nginx.conf" -g 'daemon off;' 2>"$d/stderr" &
  server_pids+=("$!")
  for _ in $(seq 50); do curl -s -o /dev/null ${nginx_probe[@]+"${nginx_probe[@]}"} "http://127.0.0.1:$port/api/data" && break; sleep 0.1; done
  url[$name]="http://127.0.0.1:$port"
  pid[$name]=$(pgrep -P "${server_pids[-1]}" | head -1)
  echo "loomgate: $name (nginx, core $core) on ${url[$name]}, worker pid ${pid[$name]}"
}

