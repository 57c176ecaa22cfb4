#!/usr/bin/env bash
# What one Redis carries, measured (docs/CLUSTER.md, "Capacity"). Builds
# release, starts real redis-servers in a temporary directory and runs:
#
#   saturate  neonsync-bench redis (the nodes' own writer and reader, no
#             WebSockets) with more and more events in flight: one Redis,
#             then two shards; events/s, Redis CPU % and µs per event.
#   nodes     neonsync bench rooms through two real nodes (each room whole
#             on one, as the routing proxy places them), and through one
#             node on its own (SQLite) for comparison: what the whole path
#             carries here, node and Redis CPU per event.
#   rates     neonsync-bench redis at 60, 600, 2,000, 6,000 and 20,000
#             events/s (200 rooms): Redis CPU per event as events start to
#             share its wake-ups and fsyncs.
#   low       60 events/s: Redis CPU per event with appendfsync always,
#             everysec and no AOF, a PING alone at the same rate (what a
#             wake-up costs), and strace -c of Redis (calls per event).
#
#   scripts/bench-rooms.sh [saturate|nodes|rates|low]...   (default: all four)
#
# Every Redis runs with --appendonly yes --appendfsync always --save '' but
# where `low` says otherwise. Knobs (environment): DURATION (s, default
# 10), ROOMS (saturate: 2000), WINDOWS (saturate: "1 4 16"), PORT (first
# of ten ports, default 17840), SCRATCH (the build's --scratch-path). Raw
# JSON lines go to $OUT (default a temporary directory, printed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-10}
ROOMS=${ROOMS:-2000}
WINDOWS=${WINDOWS:-1 4 16}
PORT=${PORT:-17840}
OUT=${OUT:-$(mktemp -d /tmp/neonsync-rooms-bench.XXXXXX)}
mkdir -p "$OUT"
parts=("$@")
[ ${#parts[@]} -eq 0 ] && parts=(saturate nodes rates low)
for part in "${parts[@]}"; do
  case "$part" in saturate|nodes|rates|low) ;; *) echo "bench-rooms: unknown part $part; choose saturate, nodes, rates or low" >&2; exit 2 ;; esac
done

say() { printf 'bench-rooms: %s\n' "$*" >&2; }
command -v redis-server >/dev/null || { say "redis-server is missing; run ./deploy/setup.sh"; exit 1; }

build=(nice -n 10 swift build -c release)
[ -n "${SCRATCH:-}" ] && build+=(--scratch-path "$SCRATCH")
say "building release"
for product in neonsyncd neonsync neonsync-bench; do "${build[@]}" --product "$product" >/dev/null; done
bin=$("${build[@]}" --show-bin-path)
ulimit -n "$(ulimit -Hn)"

pids=()
stop_all() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
}
trap stop_all EXIT

source scripts/bench-lib.sh   # wait_port

# redis PORT NAME [redis-server settings…]: a fresh Redis in $OUT/NAME; its pid in $redis_pid.
redis() {
  local port=$1 name=$2; shift 2
  rm -rf "$OUT/$name"; mkdir -p "$OUT/$name"
  redis-server --port "$port" --bind 127.0.0.1 --dir "$OUT/$name" --save '' --logfile "$OUT/$name/redis.log" \
    --appendonly yes --appendfsync always "$@" & redis_pid=$!
  pids+=("$redis_pid")
  wait_port "$port"
}

field() { python3 -c "import json,sys; print(json.loads(open(sys.argv[1]).read().splitlines()[-1]).get(sys.argv[2], ''))" "$1" "$2"; }

if [[ " ${parts[*]} " == *" saturate "* ]]; then
  : >"$OUT/saturate.jsonl"
  for shards in 1 2; do
    list=""
    for i in $(seq "$shards"); do
      redis $((PORT + i)) "shard$i"
      list+="${list:+,}redis://127.0.0.1:$((PORT + i))"
    done
    for window in $WINDOWS; do
      say "saturate: $shards Redis, $ROOMS rooms, $window in flight per room"
      "$bin/neonsync-bench" redis --redis "$list" --rooms "$ROOMS" --window "$window" --duration "$DURATION" >"$OUT/last.txt"
      cat "$OUT/last.txt" >&2; tail -1 "$OUT/last.txt" >>"$OUT/saturate.jsonl"
    done
    stop_all
  done
fi

if [[ " ${parts[*]} " == *" nodes "* ]]; then
  : >"$OUT/nodes.jsonl"
  redis $((PORT + 1)) nodes-redis; rp=$redis_pid
  limits=(--max-connections-per-ip 0 --max-rate 0 --max-new-rooms-per-ip 0)
  "$bin/neonsyncd" --port $((PORT + 5)) --redis "redis://127.0.0.1:$((PORT + 1))" --node a --log "$OUT/a.log" "${limits[@]}" & a=$!
  "$bin/neonsyncd" --port $((PORT + 6)) --redis "redis://127.0.0.1:$((PORT + 1))" --node b --log "$OUT/b.log" "${limits[@]}" & b=$!
  pids+=("$a" "$b")
  wait_port $((PORT + 5)); wait_port $((PORT + 6))
  for window in 1 4; do
    say "nodes: two nodes, 400 rooms of 2, $window in flight per room"
    "$bin/neonsync" bench rooms --server "ws://127.0.0.1:$((PORT + 5))/,ws://127.0.0.1:$((PORT + 6))/" --rooms 400 \
      --per-room 2 --window "$window" --duration "$DURATION" --server-pid "$a,$b" --redis-pid "$rp" \
      --room "rooms-$window" >"$OUT/last.txt"
    cat "$OUT/last.txt" >&2; tail -1 "$OUT/last.txt" >>"$OUT/nodes.jsonl"
  done
  stop_all
  : >"$OUT/single.jsonl"
  rm -rf "$OUT/single-data"
  "$bin/neonsyncd" --port $((PORT + 5)) --data "$OUT/single-data" --log "$OUT/single.log" "${limits[@]}" & s=$!
  pids+=("$s")
  wait_port $((PORT + 5))
  for window in 1 4; do
    say "nodes: one node on its own, 400 rooms of 2, $window in flight per room"
    "$bin/neonsync" bench rooms --server "ws://127.0.0.1:$((PORT + 5))/" --rooms 400 --per-room 2 --window "$window" \
      --duration "$DURATION" --server-pid "$s" --room "single-$window" >"$OUT/last.txt"
    cat "$OUT/last.txt" >&2; tail -1 "$OUT/last.txt" >>"$OUT/single.jsonl"
  done
  stop_all
fi

if [[ " ${parts[*]} " == *" rates "* ]]; then
  : >"$OUT/rates.jsonl"
  redis $((PORT + 1)) rates-redis
  for rate in 60 600 2000 6000 20000; do
    say "rates: $rate events/s over 200 rooms"
    "$bin/neonsync-bench" redis --redis "redis://127.0.0.1:$((PORT + 1))" --rooms 200 --rate "$rate" --duration "$DURATION" >"$OUT/last.txt"
    cat "$OUT/last.txt" >&2; tail -1 "$OUT/last.txt" >>"$OUT/rates.jsonl"
  done
  stop_all
fi

if [[ " ${parts[*]} " == *" low "* ]]; then
  : >"$OUT/low.jsonl"
  low=$((DURATION * 2))
  for setting in always everysec no; do
    if [ "$setting" = no ]; then redis $((PORT + 1)) "low-$setting" --appendonly no
    else redis $((PORT + 1)) "low-$setting" --appendfsync "$setting"; fi
    say "low: 60 events/s, appendfsync $setting"
    "$bin/neonsync-bench" redis --redis "redis://127.0.0.1:$((PORT + 1))" --rooms 1 --rate 60 --duration "$low" >"$OUT/last.txt"
    cat "$OUT/last.txt" >&2
    python3 -c "import json,sys; d=json.loads(open(sys.argv[1]).read().splitlines()[-1]); d['setting']=sys.argv[2]; print(json.dumps(d))" \
      "$OUT/last.txt" "$setting" >>"$OUT/low.jsonl"
    if [ "$setting" = always ] && command -v strace >/dev/null; then
      # A run of its own: strace slows Redis, so it only counts the calls.
      say "low: strace -c of Redis at 60 events/s"
      strace -c -f -p "$redis_pid" -o "$OUT/strace-always.txt" & tracer=$!
      sleep 0.5
      "$bin/neonsync-bench" redis --redis "redis://127.0.0.1:$((PORT + 1))" --rooms 1 --rate 60 --duration "$DURATION" \
        >"$OUT/traced.txt"
      kill -INT "$tracer"; wait "$tracer" 2>/dev/null || true
    fi
    if [ "$setting" = always ]; then
      say "low: PING alone at 60/s"
      python3 - "$((PORT + 1))" "$redis_pid" "$low" >"$OUT/ping.txt" <<'PY'
import socket, sys, time
port, pid, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
def cpu():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100.0
s = socket.create_connection(("127.0.0.1", port))
s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
n = int(seconds * 60)
before, start = cpu(), time.time()
for i in range(n):
    s.sendall(b"PING\r\n"); s.recv(64)
    delay = start + (i + 1) / 60 - time.time()
    if delay > 0: time.sleep(delay)
print((cpu() - before) / n * 1e6)
PY
    fi
    stop_all
  done
fi

python3 - "$OUT" <<'PY'
import json, os, sys
out = sys.argv[1]
def load(name):
    path = f"{out}/{name}"
    return [json.loads(l) for l in open(path) if l.strip()] if os.path.exists(path) else []
sat = load("saturate.jsonl")
if sat:
    print("\nsaturate: neonsync-bench redis, appendfsync always")
    print(f"{'shards':>6} {'window':>6} {'events/s':>9} {'Redis CPU %':>12} {'µs/event':>9} {'p50 ms':>8} {'load':>5}")
    for r in sat:
        print(f"{r['shards']:>6} {r['window']:>6} {r['events_per_s']:>9.0f} {r['redis_cpu_pct']:>12.1f} {r['redis_cpu_us_per_event']:>9.1f} {r['p50_ms']:>8.1f} {float(r['load_average']):>5.2f}")
        for i in range(1, r['shards'] + 1 if r['shards'] > 1 else 1):
            print(f"{'':>6} shard {i}: {r[f'redis_{i}_events_per_s']:.0f} events/s, {r[f'redis_{i}_cpu_pct']:.1f} % CPU, {r[f'redis_{i}_cpu_us_per_event']:.1f} µs/event")
    for shards in (1, 2):
        best = max((r for r in sat if r['shards'] == shards), key=lambda r: r['events_per_s'], default=None)
        if best:
            per = best['events_per_s'] / shards
            print(f"most with {shards} Redis: {best['events_per_s']:.0f} events/s ({per:.0f} per Redis), {best['redis_cpu_us_per_event']:.1f} µs of Redis CPU per event"
                  f" — target ≥ 30,000 events/s per Redis at ≤ 30 µs: {'met' if per >= 30000 and best['redis_cpu_us_per_event'] <= 30 else 'missed'}")
nodes = load("nodes.jsonl")
if nodes:
    print("\nnodes: neonsync bench rooms, 400 rooms of 2; two nodes on one Redis (always), then one node on its own")
    for r in nodes:
        node_us = r['server_cpu_s'] / max(r['events'], 1) * 1e6
        print(f"two nodes, window {r['window']}: {r['events_per_s']:.0f} events/s, node CPU {node_us:.0f} µs/event (both nodes), Redis {r['redis_cpu_us_per_event']:.1f} µs/event, p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, load {r['load_average']:.2f}")
    for r in load("single.jsonl"):
        node_us = r['server_cpu_s'] / max(r['events'], 1) * 1e6
        print(f"one node,  window {r['window']}: {r['events_per_s']:.0f} events/s, node CPU {node_us:.0f} µs/event, p50 {r['p50_ms']:.1f} ms, p99 {r['p99_ms']:.1f} ms, load {r['load_average']:.2f}")
rates = load("rates.jsonl")
if rates:
    print("\nrates: neonsync-bench redis, 200 rooms, appendfsync always")
    for r in rates:
        print(f"{r['rate']:>6.0f} events/s asked, {r['events_per_s']:>6.0f} carried: {r['redis_cpu_us_per_event']:6.1f} µs of Redis CPU per event, p50 {r['p50_ms']:.2f} ms, p99 {r['p99_ms']:.2f} ms, load {float(r['load_average']):.2f}")
low = load("low.jsonl")
if low:
    print("\nlow: 60 events/s, one room, Redis CPU per event")
    for r in low:
        print(f"appendfsync {r['setting']:>8}: {r['redis_cpu_us_per_event']:.0f} µs/event (p50 {r['p50_ms']:.2f} ms, load {float(r['load_average']):.2f})")
    if os.path.exists(f"{out}/ping.txt"):
        print(f"PING alone at 60/s: {float(open(f'{out}/ping.txt').read()):.0f} µs of Redis CPU per PING")
    if os.path.exists(f"{out}/strace-always.txt"):
        events = json.loads(open(f"{out}/traced.txt").read().splitlines()[-1])['events']
        print("strace -c of Redis, appendfsync always (calls per event):")
        for line in open(f"{out}/strace-always.txt"):
            parts = line.split()
            if len(parts) >= 5 and parts[-1].isidentifier() and parts[3].isdigit():
                print(f"  {parts[-1]:>14}: {int(parts[3]) / max(events, 1):.2f}")
PY
say "raw results in $OUT"
