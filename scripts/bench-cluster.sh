#!/usr/bin/env bash
# Follow through the cluster against one node, in one run: builds release,
# starts a real redis-server (temporary directory, appendonly yes,
# appendfsync always) and nginx (deploy/nginx/neonsync.conf as render.sh
# makes it, plain ws:// on loopback: its TLS lines taken out, NGINX_WORKERS
# workers),
# then, REPEAT times interleaved, with the same follow load each time:
#   single:  one neonsyncd (embedded SQLite), presenter and followers on it;
#   split:   two cluster nodes on that Redis, the presenter on node A and the
#            followers split over A and B (neonsync bench --server A,B);
#   proxied: nginx in front of one neonsyncd (embedded SQLite): what the
#            proxy alone adds;
#   routed:  nginx in front of two cluster nodes, routing on the room named
#            in the URL (hash $arg_room consistent): the room's members all
#            meet on one node, every event crossing Redis once;
# and prints the p99s, their differences (target: routed within 1 ms of
# one node; split as it is) and Redis CPU per broadcast (target: under
# 30 µs, sampled with --redis-pid).
#
#   scripts/bench-cluster.sh
#
# Knobs (environment): FOLLOWERS (1000), RATE (60 scrolls/s), DURATION (s,
# default 10), REPEAT (3; the medians are compared), APPENDFSYNC (Redis's,
# default always; everysec shows what the fsync costs), PORT (first of four
# ports, default 17790), NGINX_WORKERS (nginx's worker_processes: auto, one
# per core, as Debian's nginx.conf has it), SCRATCH (the build's
# --scratch-path), BIN (a
# directory holding release builds of neonsyncd, neonsync and
# neonsync-bench: no build, e.g. to compare two commits' binaries in turn).
# Raw JSON lines go to $OUT (default a temporary directory, printed at the
# end).
set -euo pipefail
cd "$(dirname "$0")/.."
FOLLOWERS=${FOLLOWERS:-1000}
RATE=${RATE:-60}
DURATION=${DURATION:-10}
REPEAT=${REPEAT:-3}
APPENDFSYNC=${APPENDFSYNC:-always}
NGINX_WORKERS=${NGINX_WORKERS:-auto}
PORT=${PORT:-17790}
OUT=${OUT:-$(mktemp -d /tmp/neonsync-cluster-bench.XXXXXX)}
mkdir -p "$OUT"

say() { printf 'bench-cluster: %s\n' "$*" >&2; }
for tool in redis-server nginx; do
  command -v "$tool" >/dev/null || { say "$tool is missing; run ./deploy/setup.sh"; exit 1; }
done

if [ -n "${BIN:-}" ]; then
  bin=$BIN
  for tool in neonsyncd neonsync neonsync-bench; do
    [ -x "$bin/$tool" ] || { say "BIN=$bin holds no $tool; build release first (swift build -c release)"; exit 1; }
  done
else
  build=(nice -n 10 swift build -c release)
  [ -n "${SCRATCH:-}" ] && build+=(--scratch-path "$SCRATCH")
  say "building release"
  "${build[@]}" --product neonsyncd >/dev/null
  "${build[@]}" --product neonsync >/dev/null
  "${build[@]}" --product neonsync-bench >/dev/null   # what `neonsync bench` runs
  bin=$("${build[@]}" --show-bin-path)
fi
ulimit -n "$(ulimit -Hn)"

pids=()
stop_all() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
}
# Redis is waited for too: a run started right after this one binds its port.
trap 'stop_all; if [ -n "${redis_pid:-}" ]; then kill "$redis_pid" 2>/dev/null; wait "$redis_pid" 2>/dev/null; fi; true' EXIT

source scripts/bench-lib.sh   # wait_port

a_port=$PORT b_port=$((PORT + 1)) redis_port=$((PORT + 2)) nginx_port=$((PORT + 3))
mkdir -p "$OUT/redis"
redis-server --port "$redis_port" --bind 127.0.0.1 --dir "$OUT/redis" --appendonly yes \
  --appendfsync "$APPENDFSYNC" --save '' --logfile "$OUT/redis/redis.log" & redis_pid=$!
wait_port "$redis_port"

# nginx NODE…: the shipped configuration for these nodes, plain ws:// on
# $nginx_port, NGINX_WORKERS workers, in $OUT/nginx; its pid in $nginx_pid.
nginx_for() {
  local ngx="$OUT/nginx" args=() node
  rm -rf "$ngx"; mkdir -p "$ngx"
  for node in "$@"; do args+=(--node "127.0.0.1:$node"); done
  deploy/nginx/render.sh --listen "127.0.0.1:$nginx_port" --server-name localhost --cert unused.pem --key unused.pem \
    --logs "$ngx" "${args[@]}" | sed -E 's/^([[:space:]]*listen .*) ssl;/\1;/; /^[[:space:]]*ssl_/d' >"$ngx/site.conf"
  cat >"$ngx/nginx.conf" <<CONF
daemon off;
worker_processes $NGINX_WORKERS;
worker_rlimit_nofile 16384;
pid $ngx/nginx.pid;
error_log $ngx/error.log;
events { worker_connections 8192; }
http {
    client_body_temp_path $ngx/body;
    proxy_temp_path $ngx/proxy;
    fastcgi_temp_path $ngx/fastcgi;
    uwsgi_temp_path $ngx/uwsgi;
    scgi_temp_path $ngx/scgi;
    include $ngx/site.conf;
}
CONF
  nginx -t -q -p "$ngx" -c "$ngx/nginx.conf" -e "$ngx/error.log"
  nginx -p "$ngx" -c "$ngx/nginx.conf" -e "$ngx/error.log" & nginx_pid=$!
  pids+=("$nginx_pid")
  wait_port "$nginx_port"
}

limits=(--max-connections-per-ip 0 --max-rate 0)
single() { "$bin/neonsyncd" --port "$a_port" --data "$OUT/data" --log "$OUT/single.log" "${limits[@]}" "$@" & pids+=($!); }
cluster() {
  "$bin/neonsyncd" --port "$a_port" --redis "redis://127.0.0.1:$redis_port" --node a --log "$OUT/a.log" "${limits[@]}" "$@" & pids+=($!)
  "$bin/neonsyncd" --port "$b_port" --redis "redis://127.0.0.1:$redis_port" --node b --log "$OUT/b.log" "${limits[@]}" "$@" & pids+=($!)
}
# follow MODE SERVERS SERVER_PIDS [bench flags…]: one run, its JSON line appended to $OUT/MODE.jsonl.
follow() {
  local mode=$1 servers=$2 spids=$3; shift 3
  say "round $round: $mode"
  "$bin/neonsync" bench follow --server "$servers" --followers "$FOLLOWERS" --rate "$RATE" --duration "$DURATION" \
    --server-pid "$spids" --room "$mode-$round" "$@" >"$OUT/last.txt"
  cat "$OUT/last.txt" >&2; tail -1 "$OUT/last.txt" >>"$OUT/$mode.jsonl"
}

for mode in single split proxied routed; do : >"$OUT/$mode.jsonl"; done
for round in $(seq "$REPEAT"); do
  rm -rf "$OUT/data"; single; wait_port "$a_port"
  follow single "ws://127.0.0.1:$a_port/" "${pids[0]}"
  stop_all

  cluster; wait_port "$a_port"; wait_port "$b_port"
  follow split "ws://127.0.0.1:$a_port/,ws://127.0.0.1:$b_port/" "${pids[0]},${pids[1]}" --redis-pid "$redis_pid"
  stop_all

  rm -rf "$OUT/data"; single --trust-proxy 127.0.0.1; wait_port "$a_port"; node=${pids[0]}
  nginx_for "$a_port"
  follow proxied "ws://127.0.0.1:$nginx_port/" "$node"
  stop_all

  cluster --trust-proxy 127.0.0.1; wait_port "$a_port"; wait_port "$b_port"; nodes="${pids[0]},${pids[1]}"
  nginx_for "$a_port" "$b_port"
  follow routed "ws://127.0.0.1:$nginx_port/" "$nodes" --redis-pid "$redis_pid"
  stop_all
done

python3 - "$OUT" "$APPENDFSYNC" <<'PY'
import json, statistics, sys
out = sys.argv[1]
load = lambda name: [json.loads(l) for l in open(f"{out}/{name}.jsonl") if l.strip()]
runs = {mode: load(mode) for mode in ("single", "split", "proxied", "routed")}
print(f"\nfollow, {runs['single'][0]['connections'] - 1} followers, {len(runs['single'])} round(s) each (p99 ms; Redis appendfsync {sys.argv[2]})")
print(f"{'round':>5} {'single':>8} {'split':>8} {'proxied':>8} {'routed':>8} {'Redis µs/bc split':>18} {'routed':>8} {'load':>6}")
for i, rows in enumerate(zip(*runs.values()), 1):
    s, sp, px, ro = rows
    print(f"{i:>5} {s['p99_ms']:>8.2f} {sp['p99_ms']:>8.2f} {px['p99_ms']:>8.2f} {ro['p99_ms']:>8.2f}"
          f" {sp.get('redis_cpu_us_per_broadcast', float('nan')):>18.1f} {ro.get('redis_cpu_us_per_broadcast', float('nan')):>8.1f}"
          f" {max(r.get('load_average', 0) for r in rows):>6.2f}")
med = {mode: statistics.median(r["p99_ms"] for r in rs) for mode, rs in runs.items()}
print("\nmedian p99: " + ", ".join(f"{mode} {value:.2f} ms" for mode, value in med.items()))
print(f"routed − single:  {med['routed'] - med['single']:+.2f} ms (target within 1 ms): {'met' if med['routed'] - med['single'] <= 1 else 'missed'}")
print(f"routed − proxied: {med['routed'] - med['proxied']:+.2f} ms (the cluster behind the same proxy)")
print(f"split − single:   {med['split'] - med['single']:+.2f} ms (followers split over two nodes)")
for mode in ("split", "routed"):
    redis = statistics.median(r.get("redis_cpu_us_per_broadcast", float("nan")) for r in runs[mode])
    print(f"median Redis CPU per broadcast, {mode}: {redis:.1f} µs (target under 30 µs): {'met' if redis < 30 else 'missed'}")
PY
say "raw results in $OUT"
