#!/usr/bin/env bash
# A NeonSync cluster on this machine in one command: Redis (append-only file,
# fsync always) in a temporary directory, NODES neonsyncd nodes on free
# loopback ports, and nginx in front of them on one port (deploy/nginx,
# rendered by render.sh), serving wss:// with a throwaway CA made for the
# occasion. It prints the neonsync command that joins through nginx; Ctrl-C,
# or any other end of this script, stops everything it started and removes
# the directory.
#
#   deploy/cluster/run-local.sh [NODES]        1 to 16 nodes, default 3
#
# NEONSYNC_PORT: nginx's port (default 8443). NEONSYNCD: the neonsyncd to run
# (default .build/release/neonsyncd, then .build/debug/neonsyncd, then the
# one on PATH). Needs redis-server, nginx and openssl: deploy/setup.sh.
set -euo pipefail
PATH=$PATH:/usr/sbin:/sbin

say() { printf 'run-local: %s\n' "$*" >&2; }
nodes=${1:-3}
if ! [[ "$nodes" =~ ^[0-9]+$ ]] || [ "$nodes" -lt 1 ] || [ "$nodes" -gt 16 ]; then
  say "usage: run-local.sh [NODES] (1 to 16 neonsyncd nodes, default 3)"
  exit 2
fi
port=${NEONSYNC_PORT:-8443}
repo=$(cd "$(dirname "$0")/../.." && pwd)

daemon=${NEONSYNCD:-}
if [ -z "$daemon" ]; then
  for candidate in "$repo/.build/release/neonsyncd" "$repo/.build/debug/neonsyncd" "$(command -v neonsyncd || true)"; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then daemon=$candidate; break; fi
  done
fi
[ -n "$daemon" ] && [ -x "$daemon" ] || { say "no neonsyncd to run: swift build -c release, or set NEONSYNCD"; exit 1; }
for tool in redis-server redis-cli nginx openssl; do
  command -v "$tool" >/dev/null || { say "$tool is missing: run deploy/setup.sh"; exit 1; }
done
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
  say "port $port is taken; choose another: NEONSYNC_PORT=18443 $0 $nodes"
  exit 1
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/neonsync-cluster.XXXXXX")
chmod 700 "$dir"
pids=() names=() redis_pid="" node_pids=() nginx_pid=""

# Is pid running (not gone, not a zombie waiting to be reaped)?
running() {
  local stat
  read -r stat 2>/dev/null < "/proc/$1/stat" || return 1
  stat=${stat##*) }
  [ "${stat%% *}" != Z ]
}

# SIGTERM to each pid given, then up to 10 s for all of them to end; SIGKILL
# for whatever is left.
stop() {
  local pid
  for pid in "$@"; do kill -TERM "$pid" 2>/dev/null || true; done
  for _ in $(seq 200); do
    local left=0
    for pid in "$@"; do running "$pid" && left=1; done
    [ "$left" = 0 ] && return 0
    sleep 0.05
  done
  for pid in "$@"; do
    running "$pid" && { say "process $pid did not stop within 10 s; killing it"; kill -KILL "$pid" 2>/dev/null || true; }
  done
}

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  set +e
  # nginx first (no new connections), then every node (each stops
  # gracefully: close frames, its last writes to Redis), then Redis.
  [ -n "$nginx_pid" ] && stop "$nginx_pid"
  [ ${#node_pids[@]} -gt 0 ] && stop "${node_pids[@]}"
  [ -n "$redis_pid" ] && stop "$redis_pid"
  wait 2>/dev/null
  rm -rf "$dir"
  say "stopped everything and removed $dir"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

started() { pids+=("$1"); names+=("$2"); }

# Redis on a free port: a random one, tried until our own server answers on it.
mkdir "$dir/redis"
redis_port=""
for _ in $(seq 20); do
  candidate=$(( 20000 + RANDOM % 40000 ))
  redis-server --port "$candidate" --bind 127.0.0.1 --dir "$dir/redis" --appendonly yes --appendfsync always \
    --save '' --logfile "$dir/redis/redis.log" &
  pid=$!
  for _ in $(seq 100); do
    if redis-cli -p "$candidate" info server 2>/dev/null | grep -q "^process_id:$pid"; then redis_port=$candidate; break; fi
    running "$pid" || break
    sleep 0.05
  done
  if [ -n "$redis_port" ]; then started "$pid" "redis-server"; redis_pid=$pid; break; fi
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
done
[ -n "$redis_port" ] || { say "Redis did not start: $(tail -3 "$dir/redis/redis.log")"; exit 1; }

# A throwaway CA and a certificate for localhost signed by it.
tls="$dir/tls"
mkdir "$tls"
curve=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes)
{
  openssl req -x509 "${curve[@]}" -days 2 -subj "/CN=NeonSync run-local CA" -keyout "$tls/ca.key" -out "$tls/ca.pem" \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign &&
  openssl req "${curve[@]}" -subj "/CN=localhost" -keyout "$tls/server.key" -out "$tls/server.csr" &&
  printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' > "$tls/server.ext" &&
  openssl x509 -req -in "$tls/server.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial -days 2 \
    -out "$tls/server.pem" -extfile "$tls/server.ext"
} >/dev/null 2>"$tls/openssl.log" || { say "openssl failed: $(cat "$tls/openssl.log")"; exit 1; }

# The nodes, each on a port of its choosing (read back from its first line).
upstreams=() ports=()
for i in $(seq "$nodes"); do
  "$daemon" --host 127.0.0.1 --port 0 --redis "redis://127.0.0.1:$redis_port" --node "local-$i" \
    --trust-proxy 127.0.0.1 --log "$dir/node-$i.jsonl" 2>"$dir/node-$i.err" &
  started "$!" "node local-$i"
  node_pids+=("$!")
  node_port=""
  for _ in $(seq 200); do
    node_port=$(sed -n 's|.*listening on ws://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$dir/node-$i.err")
    [ -n "$node_port" ] && break
    running "${pids[-1]}" || break
    sleep 0.05
  done
  [ -n "$node_port" ] || { say "node local-$i did not start: $(cat "$dir/node-$i.err")"; exit 1; }
  upstreams+=(--node "127.0.0.1:$node_port")
  ports+=("$node_port")
done

# nginx in front, in the foreground of its own prefix directory.
ngx="$dir/nginx"
mkdir "$ngx"
"$repo/deploy/nginx/render.sh" --listen "127.0.0.1:$port" --server-name localhost \
  --cert "$tls/server.pem" --key "$tls/server.key" --logs "$ngx" "${upstreams[@]}" > "$ngx/neonsync.conf"
cat > "$ngx/nginx.conf" <<CONF
daemon off;
master_process on;
worker_processes 1;
pid $ngx/nginx.pid;
error_log $ngx/error.log notice;
events { worker_connections 4096; }
http {
    client_body_temp_path $ngx/client_body;
    proxy_temp_path $ngx/proxy;
    fastcgi_temp_path $ngx/fastcgi;
    uwsgi_temp_path $ngx/uwsgi;
    scgi_temp_path $ngx/scgi;
    include $ngx/neonsync.conf;
}
CONF
nginx -t -q -p "$ngx" -c "$ngx/nginx.conf" -e "$ngx/error.log" || { say "nginx refused the configuration above"; exit 1; }
nginx -p "$ngx" -c "$ngx/nginx.conf" -e "$ngx/error.log" &
started "$!" "nginx"
nginx_pid=$!
for _ in $(seq 200); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  running "${pids[-1]}" || { say "nginx did not start: $(tail -3 "$ngx/error.log")"; exit 1; }
  sleep 0.05
done

say "$nodes node(s) on ports ${ports[*]} (logs $dir/node-N.jsonl), Redis on port $redis_port, nginx on port $port"
echo "neonsync join ROOM --server wss://localhost:$port/ --ca $tls/ca.pem"
say "Ctrl-C stops everything"

# Wait; a process that ends by itself ends the whole cluster (and says which).
while true; do
  wait -n || true
  for i in "${!pids[@]}"; do
    if ! running "${pids[i]}"; then say "${names[i]} stopped by itself; stopping the rest"; exit 1; fi
  done
done
