#!/usr/bin/env bash
# Follow through the cluster against one node, in one run: builds release,
# starts a real redis-server (temporary directory, appendonly yes,
# appendfsync always), then, REPEAT times interleaved,
#   single:  one neonsyncd (embedded SQLite), presenter and followers on it;
#   cluster: two neonsyncd nodes on that Redis, the presenter on node A and
#            the followers split over A and B (neonsync bench --server A,B);
# and prints both p99s, their difference (target: within 1 ms) and Redis CPU
# per broadcast (target: under 30 µs, sampled with --redis-pid).
#
#   scripts/bench-cluster.sh
#
# Knobs (environment): FOLLOWERS (1000), RATE (60 scrolls/s), DURATION (s,
# default 10), REPEAT (3; the medians are compared), PORT (first of three
# ports, default 17790), SCRATCH (the build's --scratch-path). Raw JSON lines
# go to $OUT (default a temporary directory, printed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
FOLLOWERS=${FOLLOWERS:-1000}
RATE=${RATE:-60}
DURATION=${DURATION:-10}
REPEAT=${REPEAT:-3}
PORT=${PORT:-17790}
OUT=${OUT:-$(mktemp -d /tmp/neonsync-cluster-bench.XXXXXX)}
mkdir -p "$OUT"

say() { printf 'bench-cluster: %s\n' "$*" >&2; }
command -v redis-server >/dev/null || { say "redis-server is missing; run ./deploy/setup.sh"; exit 1; }

build=(swift build -c release)
[ -n "${SCRATCH:-}" ] && build+=(--scratch-path "$SCRATCH")
say "building release"
"${build[@]}" --product neonsyncd >/dev/null
"${build[@]}" --product neonsync >/dev/null
bin=$("${build[@]}" --show-bin-path)
ulimit -n "$(ulimit -Hn)"

pids=()
stop_all() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
}
trap 'stop_all; [ -n "${redis_pid:-}" ] && kill "$redis_pid" 2>/dev/null; true' EXIT

wait_port() {
  for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.05
  done
  say "nothing listens on port $1"; exit 1
}

redis_port=$((PORT + 2))
mkdir -p "$OUT/redis"
redis-server --port "$redis_port" --bind 127.0.0.1 --dir "$OUT/redis" --appendonly yes \
  --appendfsync always --save '' --logfile "$OUT/redis/redis.log" & redis_pid=$!
wait_port "$redis_port"

limits=(--max-connections-per-ip 0 --max-rate 0)
: >"$OUT/single.jsonl"
: >"$OUT/cluster.jsonl"
for round in $(seq "$REPEAT"); do
  rm -rf "$OUT/data"
  "$bin/neonsyncd" --port "$PORT" --data "$OUT/data" --log "$OUT/single.log" "${limits[@]}" & pids+=($!)
  wait_port "$PORT"
  say "round $round: follow on one node"
  "$bin/neonsync" bench follow --server "ws://127.0.0.1:$PORT/" --followers "$FOLLOWERS" --rate "$RATE" \
    --duration "$DURATION" --server-pid "${pids[0]}" >"$OUT/last.txt"
  cat "$OUT/last.txt" >&2; tail -1 "$OUT/last.txt" >>"$OUT/single.jsonl"
  stop_all

  "$bin/neonsyncd" --port "$PORT" --redis "redis://127.0.0.1:$redis_port" --node a --log "$OUT/a.log" "${limits[@]}" & pids+=($!)
  "$bin/neonsyncd" --port $((PORT + 1)) --redis "redis://127.0.0.1:$redis_port" --node b --log "$OUT/b.log" "${limits[@]}" & pids+=($!)
  wait_port "$PORT"; wait_port $((PORT + 1))
  say "round $round: follow through the cluster (presenter on a, followers on a and b)"
  "$bin/neonsync" bench follow --server "ws://127.0.0.1:$PORT/,ws://127.0.0.1:$((PORT + 1))/" \
    --followers "$FOLLOWERS" --rate "$RATE" --duration "$DURATION" --server-pid "${pids[0]}" \
    --redis-pid "$redis_pid" --room "cluster-$round" >"$OUT/last.txt"
  cat "$OUT/last.txt" >&2; tail -1 "$OUT/last.txt" >>"$OUT/cluster.jsonl"
  stop_all
done

python3 - "$OUT" <<'PY'
import json, statistics, sys
out = sys.argv[1]
load = lambda name: [json.loads(l) for l in open(f"{out}/{name}") if l.strip()]
single, cluster = load("single.jsonl"), load("cluster.jsonl")
print(f"\nfollow, {single[0]['connections'] - 1} followers, {len(single)} round(s) each")
print(f"{'run':>5} {'single p99 ms':>14} {'cluster p99 ms':>15} {'redis µs/broadcast':>19} {'load':>6}")
for i, (s, c) in enumerate(zip(single, cluster), 1):
    print(f"{i:>5} {s['p99_ms']:>14.2f} {c['p99_ms']:>15.2f} {c.get('redis_cpu_us_per_broadcast', float('nan')):>19.1f} {c.get('load_average', 0):>6.2f}")
sp = statistics.median(r["p99_ms"] for r in single)
cp = statistics.median(r["p99_ms"] for r in cluster)
redis = statistics.median(r.get("redis_cpu_us_per_broadcast", float("nan")) for r in cluster)
print(f"\nmedian p99: single {sp:.2f} ms, cluster {cp:.2f} ms, difference {cp - sp:+.2f} ms (target within 1 ms): {'met' if cp - sp <= 1 else 'missed'}")
print(f"median Redis CPU per broadcast: {redis:.1f} µs (target under 30 µs): {'met' if redis < 30 else 'missed'}")
PY
say "raw results in $OUT"
