#!/usr/bin/env bash
# A NeonSync cluster on this machine in one command: Redis (append-only file,
# fsync always) in a temporary directory, NODES neonsyncd nodes on free
# loopback ports, and nginx in front of them on one port (deploy/nginx,
# rendered by render.sh), serving wss:// with a throwaway CA made for the
# occasion. It prints the neonsync command that joins through nginx; Ctrl-C,
# or any other end of this script, stops everything it started and removes
# the directory. A node that stops (kill -9 one to see clients fail over)
# leaves the others serving; type `restart N` and Enter to start node
# local-N again on its port, `status` to list the processes.
#
# With --sentinel the shard is as Redis Sentinel runs it: a master (redis-1,
# with min-replicas-to-write 1 and min-replicas-max-lag 10), its replica
# (redis-2) and three Sentinels (sentinel-1 to 3, `redis-server --sentinel`)
# watching it as neonsync1; the nodes are given its sentinel:// address.
# kill -9 the master (the script prints its pid) and the Sentinels promote
# the replica within seconds: `status` lists each process with its role,
# `restart redis-N` starts a stopped one again as a replica of the master,
# `restart sentinel-N` a stopped Sentinel.
#
#   deploy/cluster/run-local.sh [--sentinel] [NODES]   1 to 16 nodes, default 3
#
# NEONSYNC_PORT: nginx's port (default 8443). NEONSYNCD: the neonsyncd to run
# (default .build/release/neonsyncd, then .build/debug/neonsyncd, then the
# one on PATH). Needs redis-server, nginx and openssl: deploy/setup.sh.
set -euo pipefail
PATH=$PATH:/usr/sbin:/sbin

say() { printf 'run-local: %s\n' "$*" >&2; }
sentinel=""
if [ "${1:-}" = --sentinel ]; then sentinel=1; shift; fi
nodes=${1:-3}
if [ $# -gt 1 ] || ! [[ "$nodes" =~ ^[0-9]+$ ]] || [ "$nodes" -lt 1 ] || [ "$nodes" -gt 16 ]; then
  say "usage: run-local.sh [--sentinel] [NODES] (1 to 16 neonsyncd nodes, default 3; --sentinel: Redis as a master, a replica and three Sentinels)"
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
  say "port $port is taken; choose another: NEONSYNC_PORT=18443 $0 ${sentinel:+--sentinel }$nodes"
  exit 1
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/neonsync-cluster.XXXXXX")
chmod 700 "$dir"
node_pids=() nginx_pid="" redis_url=""
# shellcheck source=deploy/cluster/redis.sh
. "$repo/deploy/cluster/redis.sh"

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
  # gracefully: close frames, its last writes to Redis), then the
  # Sentinels (no failover while the data nodes stop), then Redis.
  [ -n "$nginx_pid" ] && stop "$nginx_pid"
  [ ${#node_pids[@]} -gt 0 ] && stop "${node_pids[@]}"
  [ ${#sentinel_pids[@]} -gt 0 ] && stop "${sentinel_pids[@]}"
  [ ${#data_pids[@]} -gt 0 ] && stop "${data_pids[@]}"
  wait 2>/dev/null
  rm -rf "$dir"
  say "stopped everything and removed $dir"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Redis: one data node, or with --sentinel a master, a replica and three
# Sentinels (deploy/cluster/redis.sh).
start_redis || exit 1

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

# Starts node local-$1 on port $2 (0: a port of its choosing, read back from
# its first line into node_port); its pid goes to node_pids[$1].
start_node() {
  local i=$1
  "$daemon" --host 127.0.0.1 --port "$2" --redis "$redis_url" --node "local-$i" \
    --trust-proxy 127.0.0.1 --log "$dir/node-$i.jsonl" 2>"$dir/node-$i.err" &
  node_pids[i]=$!
  # Out of the job table: bash would print the job's whole command line
  # when one is killed; the loop below says it in a sentence.
  disown "${node_pids[i]}"
  node_port=""
  for _ in $(seq 200); do
    node_port=$(sed -n 's|.*listening on ws://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$dir/node-$i.err")
    [ -n "$node_port" ] && return 0
    running "${node_pids[i]}" || break
    sleep 0.05
  done
  return 1
}

# Starts node local-$1 again on its port. A node killed a moment ago is
# still alive in Redis until its heartbeat expires (6 s): the new one is
# refused that long, so it is tried again, for up to 20 s.
restart_node() {
  local i=$1 said=""
  for _ in $(seq 40); do
    start_node "$i" "${ports[i]}" && return 0
    grep -q 'another live node is already named' "$dir/node-$i.err" || break
    [ -n "$said" ] || { say "node local-$i is still alive in Redis until its heartbeat expires (up to 6 s); trying again"; said=1; }
    sleep 0.5
  done
  say "node local-$i did not start: $(cat "$dir/node-$i.err")"
  return 1
}

# The nodes, each on a port of its choosing; a node started again later
# takes the same port, the one nginx knows.
upstreams=() ports=()
for i in $(seq "$nodes"); do
  start_node "$i" 0 || { say "node local-$i did not start: $(cat "$dir/node-$i.err")"; exit 1; }
  upstreams+=(--node "127.0.0.1:$node_port")
  ports[i]=$node_port
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
nginx_pid=$!
for _ in $(seq 200); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  running "$nginx_pid" || { say "nginx did not start: $(tail -3 "$ngx/error.log")"; exit 1; }
  sleep 0.05
done

say "$nodes node(s) on ports ${ports[*]} (logs $dir/node-N.jsonl), Redis at $redis_url, nginx on port $port"
describe_redis
echo "neonsync join ROOM --server wss://localhost:$port/ --ca $tls/ca.pem"
say "Ctrl-C stops everything; type 'restart N' and Enter to start node local-N again${sentinel:+ (restart redis-N, restart sentinel-N: a Redis process)}, 'status' to list the processes"

status() {
  local i state
  for i in $(seq "$nodes"); do
    if running "${node_pids[i]}"; then state="running (pid ${node_pids[i]})"; else state="stopped"; fi
    say "node local-$i on port ${ports[i]}: $state"
  done
  redis_status
  say "nginx on port $port (pid $nginx_pid)"
}

# One line typed on standard input.
command_line() {
  local words
  read -r -a words <<< "$1"
  if [ "${words[0]:-}:${#words[@]}" = restart:2 ] && [[ "${words[1]}" =~ ^(redis|sentinel)- ]]; then
    restart_redis "${words[1]}" || true
    return 0
  fi
  case "${words[0]:-}:${#words[@]}" in
    :0) ;;
    status:1) status ;;
    restart:2)
      local i=${words[1]}
      if ! [[ "$i" =~ ^[0-9]+$ ]] || [ "$i" -lt 1 ] || [ "$i" -gt "$nodes" ]; then
        say "there is no node local-$i: restart takes 1 to $nodes"
      elif running "${node_pids[i]}"; then
        say "node local-$i is running (pid ${node_pids[i]}); stop it first (kill ${node_pids[i]})"
      elif restart_node "$i"; then
        down[i]=""
        say "node local-$i started again on port ${ports[i]} (pid ${node_pids[i]})"
      fi ;;
    *) say "unknown command '$1': type 'restart N' (N from 1 to $nodes)${sentinel:+, 'restart redis-N', 'restart sentinel-N'} or 'status'" ;;
  esac
}

# Wait, reading commands. nginx, or Redis without Sentinels, ending by
# itself ends the whole cluster (and says which); a Redis process of a
# Sentinel group ending is noted (a failover follows, or not); a node
# ending leaves the others serving through nginx, and can be started again.
# From here Ctrl-C and SIGTERM only note the request; the loop ends the
# script. Exiting from the trap itself, while `read -t` is interrupted,
# crashed bash 5.2 ("Segmentation fault") and left everything running.
stopping=""
trap 'stopping=130' INT
trap 'stopping=143' TERM
down=() typing=1
while true; do
  [ -z "$stopping" ] || exit "$stopping"
  watch_redis
  running "$nginx_pid" || { say "nginx stopped by itself; stopping the rest"; exit 1; }
  for i in $(seq "$nodes"); do
    if [ -z "${down[i]:-}" ] && ! running "${node_pids[i]}"; then
      down[i]=1
      left=0
      for j in $(seq "$nodes"); do running "${node_pids[j]}" && left=$((left + 1)); done
      say "node local-$i stopped by itself; $left other node(s) keep serving through nginx; type 'restart $i' and Enter to start it again"
    fi
  done
  if [ "$typing" = 1 ]; then
    if read -r -t 0.5 line; then
      command_line "$line"
    elif [ $? -le 128 ]; then
      typing=0
    fi
  else
    sleep 0.5
  fi
done
