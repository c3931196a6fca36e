# Sourced by scripts/load's scenarios that run nginx beside loomgate. start_nginx (proxy, server) and
# nginx_on (cpu, h2), after scripts/load's set-up ($work, $root, url, pid, server_pids).
#
# start_nginx BACKEND_PORT: nginx with 1 worker
# on a free loopback port, proxying /api/ to the backend with keep-alive, as url[nginx] and pid[nginx]
# (its worker); sets nginx_version. Without nginx it says so, and the nginx rows are skipped.
start_nginx() {
  local backend_port=$1
  nginx_version="no nginx"
  if ! command -v nginx >/dev/null 2>&1; then
    echo "loomgate: nginx is not installed (Debian: apt-get install nginx-light): the nginx row and the ratios against it are SKIPPED"
    return 0
  fi
  local nginx_port
  nginx_port=$("$JAVA_HOME/bin/java" "$root/load/FreePort.java")
  mkdir -p "$work/loomgate-nginx"
  cat >"$work/loomgate-nginx/nginx.conf" <<CONF
worker_processes 1;
error_log $work/loomgate-nginx/error.log warn;
pid $work/loomgate-nginx/nginx.pid;
worker_rlimit_nofile 20000;
events { worker_connections 10000; }
http {
  access_log off;
  client_body_temp_path $work/loomgate-nginx/body; proxy_temp_path $work/loomgate-nginx/proxy;
  fastcgi_temp_path $work/loomgate-nginx/fcgi; uwsgi_temp_path $work/loomgate-nginx/uwsgi; scgi_temp_path $work/loomgate-nginx/scgi;
  upstream backend { server 127.0.0.1:$backend_port; keepalive 1024; }
  server {
    listen 127.0.0.1:$nginx_port backlog=4096;
    location /api/ { proxy_pass http://backend/api/; proxy_http_version 1.1; proxy_set_header Connection ""; }
  }
}
CONF
  nginx -c "$work/loomgate-nginx/nginx.conf" -g 'daemon off;' 2>"$work/loomgate-nginx.err" &
  server_pids+=("$!")
  for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$nginx_port/api/data" && break; sleep 0.1; done
  url[nginx]="http://127.0.0.1:$nginx_port"
  pid[nginx]=$(pgrep -P "${server_pids[-1]}" | head -1); pid[nginx]=${pid[nginx]:-${server_pids[-1]}}
  nginx_version=$(nginx -v 2>&1 | sed 's/^nginx version: //')
  echo "loomgate: nginx listening on ${url[nginx]} (worker pid ${pid[nginx]})"
}

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

