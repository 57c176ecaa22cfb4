#!/usr/bin/env bash
# What one neonsyncd carries, for docs/PERFORMANCE.md ("What a node carries"):
#
#   follow  one presenter scrolling RATE times a second to FOLLOWERS followers
#           (default 10,000 at 10/s), at each --threads in THREADS_LIST:
#           deliveries/s, p99, server CPU and RSS
#   relay   one sender keeping RELAY_WINDOW messages of SIZE bytes in flight to
#           RELAY_CONNECTIONS connections (saturating), at each --threads:
#           delivered messages/s and server CPU per million
#
#   scripts/bench-scale.sh [follow|relay|all]
#
# Knobs (environment): FOLLOWERS (10000), RATE (10), DURATION (s, 30),
# THREADS_LIST ("1 2"), RELAY_CONNECTIONS (500), RELAY_WINDOW (32), SIZE (64),
# RELAY_DURATION (s, 8), PAUSE (the generator's --service-pause in µs for
# relay, 300), REPEAT (runs per setting, 2), PORT (17790), EVENT_LOOP (epoll),
# BIN (the release binaries' directory; default: build them), OUT (where the
# JSON lines and the server logs go; default a temporary directory).
# Every run starts a fresh neonsyncd on its own data directory and stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
parts=${1:-all}
FOLLOWERS=${FOLLOWERS:-10000}
RATE=${RATE:-10}
DURATION=${DURATION:-30}
THREADS_LIST=${THREADS_LIST:-"1 2"}
RELAY_CONNECTIONS=${RELAY_CONNECTIONS:-500}
RELAY_WINDOW=${RELAY_WINDOW:-32}
RELAY_DURATION=${RELAY_DURATION:-8}
SIZE=${SIZE:-64}
PAUSE=${PAUSE:-300}
REPEAT=${REPEAT:-2}
PORT=${PORT:-17790}
EVENT_LOOP=${EVENT_LOOP:-epoll}
OUT=${OUT:-$(mktemp -d /tmp/neonsync-scale.XXXXXX)}
mkdir -p "$OUT"
say() { printf 'bench-scale: %s\n' "$*" >&2; }
case "$parts" in follow|relay|all) ;; *) say "no part named '$parts'; the parts are follow, relay and all"; exit 2 ;; esac

if [ -z "${BIN:-}" ]; then
  say "building release"
  swift build -c release --product neonsyncd >/dev/null
  swift build -c release --product neonsync >/dev/null
  swift build -c release --product neonsync-bench >/dev/null
  BIN=$(swift build -c release --show-bin-path)
fi
source scripts/bench-lib.sh
raise_fd_limit $((FOLLOWERS + 512)) "$FOLLOWERS followers (FOLLOWERS)"
trap stop_server EXIT

# run FILE THREADS SCENARIO ARGS...: one run on a fresh server; appends its JSON line to FILE.
run() {
  local file=$1 threads=$2 scenario=$3; shift 3
  rm -rf "$OUT/data"
  "$BIN/neonsyncd" --port "$PORT" --data "$OUT/data" --log "$OUT/neonsyncd.log" \
    --max-connections-per-ip 0 --max-rate 0 --max-members $((FOLLOWERS + 100)) --threads "$threads" \
    --event-loop "$EVENT_LOOP" & server_pid=$!
  wait_port "$PORT"
  sleep 0.3
  say "$scenario, --threads $threads: $*"
  "$BIN/neonsync" bench "$scenario" --server "ws://127.0.0.1:$PORT/" --server-pid "$server_pid" "$@" >"$OUT/last.txt"
  tail -1 "$OUT/last.txt" | python3 -c 'import json,sys; r=json.loads(sys.stdin.read()); r["threads"]='"$threads"'; print(json.dumps(r))' >>"$OUT/$file"
  tail -1 "$OUT/$file" >&2
  stop_server
}

if [ "$parts" = all ] || [ "$parts" = follow ]; then
  for _ in $(seq "$REPEAT"); do
    for t in $THREADS_LIST; do
      run follow.jsonl "$t" follow --followers "$FOLLOWERS" --rate "$RATE" --duration "$DURATION" --ramp 256
    done
  done
fi
if [ "$parts" = all ] || [ "$parts" = relay ]; then
  for _ in $(seq "$REPEAT"); do
    for t in $THREADS_LIST; do
      run relay.jsonl "$t" relay --connections "$RELAY_CONNECTIONS" --senders 1 --window "$RELAY_WINDOW" \
        --size "$SIZE" --duration "$RELAY_DURATION" --service-pause "$PAUSE"
    done
  done
fi

python3 - "$OUT" <<'PY'
import json, os, sys
out = sys.argv[1]
def load(name):
    path = os.path.join(out, name)
    return [json.loads(l) for l in open(path)] if os.path.exists(path) else []
follow, relay = load("follow.jsonl"), load("relay.jsonl")
if follow:
    print("follow: threads | deliveries/s | p50 ms | p99 ms | max ms | server CPU s (per million) | CPU % of one core | RSS MiB (per connection KiB) | coalesced | dropped")
    for r in follow:
        cpu_pct = 100 * r["server_cpu_s"] / r["duration_s"]
        print(f'  {r["threads"]} | {r["msgs_per_s"]:,} | {r["p50_ms"]:.2f} | {r["p99_ms"]:.2f} | {r["max_ms"]:.2f} | '
              f'{r["server_cpu_s"]:.2f} ({r["server_cpu_s_per_million"]:.2f}) | {cpu_pct:.0f}% | '
              f'{r["server_rss_kib"] / 1024:.1f} ({r.get("server_rss_per_connection_kib", 0):.2f}) | {r["coalesced"]:,} | {r["dropped_connections"]}')
if relay:
    print("relay (saturating): threads | delivered msg/s | server CPU s per million | CPU % of one core | p99 ms")
    for r in relay:
        cpu_pct = 100 * r["server_cpu_s"] / r["duration_s"]
        print(f'  {r["threads"]} | {r["msgs_per_s"]:,} | {r["server_cpu_s_per_million"]:.2f} | {cpu_pct:.0f}% | {r["p99_ms"]:.2f}')
print(f"JSON lines in {out}")
PY
