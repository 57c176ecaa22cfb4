#!/usr/bin/env bash
# What acking only what a replica has costs, in one run: builds release,
# starts a real Redis master with one replica (temporary directories,
# appendonly yes, appendfsync always, min-replicas-to-write 1) and three
# Sentinels, and two neonsyncd nodes on the same master: "plain" through
# redis://MASTER (--redis-replicas 0: acked once the master has it), and
# "replica" through sentinel://… (the default, --redis-replicas 1: acked once
# WAIT finds it on the replica). Then, REPEAT times in turn, the same draft
# load against each: at RATE edits a second (EDITORS editors), and saturated
# (SATURATED editors, each as fast as its one edit in flight allows). Prints
# edit → broadcast latency (p50, p99), edits a second, and the replica's
# cost over plain. Last, FAILOVER=1 (default) SIGKILLs the master under the
# saturated load and prints how long the room went without an edit.
#
#   scripts/bench-replicas.sh
#
# Knobs (environment): EDITORS (2), RATE (30 a second each: 60 in all),
# SATURATED (20), DURATION (s, default 10), REPEAT (3), PORT (first of
# seven ports, default 17840), BIN (a directory holding release builds of
# neonsyncd and neonsync-bench: no build), FAILOVER (1). Raw output goes to
# $OUT (default a temporary directory, printed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
EDITORS=${EDITORS:-2}
RATE=${RATE:-30}
SATURATED=${SATURATED:-20}
DURATION=${DURATION:-10}
REPEAT=${REPEAT:-3}
PORT=${PORT:-17840}
FAILOVER=${FAILOVER:-1}
OUT=${OUT:-$(mktemp -d /tmp/neonsync-replica-bench.XXXXXX)}
mkdir -p "$OUT"
say() { printf 'bench-replicas: %s\n' "$*" >&2; }
command -v redis-server >/dev/null || { say "redis-server is missing; run ./deploy/setup.sh"; exit 1; }

if [ -n "${BIN:-}" ]; then
  bin=$BIN
else
  say "building release"
  nice -n 10 swift build -c release --product neonsyncd >/dev/null
  nice -n 10 swift build -c release --product neonsync-bench >/dev/null
  bin=$(swift build -c release --show-bin-path)
fi
for tool in neonsyncd neonsync-bench; do
  [ -x "$bin/$tool" ] || { say "$bin holds no $tool; build release first (swift build -c release)"; exit 1; }
done
ulimit -n "$(ulimit -Hn)"

master=$PORT replica=$((PORT + 1)) s1=$((PORT + 2)) s2=$((PORT + 3)) s3=$((PORT + 4))
plain=$((PORT + 5)) held=$((PORT + 6))
for p in $master $replica $s1 $s2 $s3 $plain $held; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then say "port $p is taken; choose another PORT"; exit 1; fi
done
pids=()
cleanup() { for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

redis() { # PORT [flags…]
  local port=$1; shift
  mkdir -p "$OUT/redis-$port"
  redis-server --port "$port" --bind 127.0.0.1 --dir "$OUT/redis-$port" --appendonly yes --appendfsync always --save "" \
    --min-replicas-to-write 1 --min-replicas-max-lag 10 --protected-mode no --logfile "$OUT/redis-$port/log" "$@" & pids+=($!)
}
redis "$master"; redis "$replica" --replicaof 127.0.0.1 "$master"
master_pid=${pids[0]}
for s in $s1 $s2 $s3; do
  mkdir -p "$OUT/sentinel-$s"
  printf 'port %s\nbind 127.0.0.1\nprotected-mode no\ndir %s\nlogfile %s/log\nsentinel monitor neon1 127.0.0.1 %s 2\nsentinel down-after-milliseconds neon1 1000\nsentinel failover-timeout neon1 5000\n' \
    "$s" "$OUT/sentinel-$s" "$OUT/sentinel-$s" "$master" >"$OUT/sentinel-$s/sentinel.conf"
  redis-server "$OUT/sentinel-$s/sentinel.conf" --sentinel & pids+=($!)
done
for _ in $(seq 200); do
  [ "$(redis-cli -p "$s1" sentinel master neon1 2>/dev/null | grep -A1 -x num-other-sentinels | tail -1)" = 2 ] && break
  sleep 0.1
done
for _ in $(seq 200); do
  redis-cli -p "$master" info replication 2>/dev/null | grep -q '^min_slaves_good_slaves:1' && break
  sleep 0.1
done
sentinels="sentinel://127.0.0.1:$s1,127.0.0.1:$s2,127.0.0.1:$s3/neon1"
"$bin/neonsyncd" --port "$plain" --redis "redis://127.0.0.1:$master" --redis-replicas 0 --node plain --log "$OUT/plain.log" \
  --max-rate 0 --max-connections-per-ip 0 & pids+=($!)
"$bin/neonsyncd" --port "$held" --redis "$sentinels" --node replica --log "$OUT/replica.log" \
  --max-rate 0 --max-connections-per-ip 0 & pids+=($!)
for p in $plain $held; do
  for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && break; sleep 0.1; done
done

# draft MODE LOAD PORT [bench flags…]: one run, its JSON line appended to $OUT/MODE-LOAD.jsonl.
draft() {
  local mode=$1 load=$2 port=$3; shift 3
  say "round $round: $mode, $load"
  "$bin/neonsync-bench" draft --server "ws://127.0.0.1:$port/" --duration "$DURATION" --room "$mode-$load-$round" "$@" \
    >"$OUT/last.txt"
  tail -1 "$OUT/last.txt" >>"$OUT/$mode-$load.jsonl"
}
for round in $(seq "$REPEAT"); do
  draft plain rate "$plain" --editors "$EDITORS" --watchers 2 --rate "$RATE"
  draft replica rate "$held" --editors "$EDITORS" --watchers 2 --rate "$RATE"
  draft plain saturated "$plain" --editors "$SATURATED" --watchers 2 --rate 1000
  draft replica saturated "$held" --editors "$SATURATED" --watchers 2 --rate 1000
done

python3 - "$OUT" "$EDITORS" "$RATE" "$SATURATED" <<'PY'
import json, statistics, sys
out, editors, rate, saturated = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
def runs(name):
    return [json.loads(line) for line in open(f"{out}/{name}.jsonl") if line.strip()]
for load, title in [("rate", f"{editors} editors x {rate}/s"), ("saturated", f"{saturated} editors, one edit in flight each")]:
    print(f"\ndraft, {title} (median of {len(runs('plain-' + load))} rounds)")
    med = {}
    for mode in ["plain", "replica"]:
        r = runs(f"{mode}-{load}")
        med[mode] = {k: statistics.median(x[k] for x in r) for k in ["p50_ms", "p99_ms", "msgs_per_s"]}
        print(f"  {mode:<8} p50 {med[mode]['p50_ms']:7.2f} ms  p99 {med[mode]['p99_ms']:7.2f} ms  {med[mode]['msgs_per_s']:9.0f} deliveries/s")
    p, h = med["plain"], med["replica"]
    print(f"  WAIT costs: p50 +{h['p50_ms'] - p['p50_ms']:.2f} ms, p99 +{h['p99_ms'] - p['p99_ms']:.2f} ms, "
          f"throughput {h['msgs_per_s'] / p['msgs_per_s']:.2f}x")
PY

if [ "$FAILOVER" = 1 ]; then
  say "failover: SIGKILL of the master under $SATURATED editors; the Sentinels promote the replica"
  "$bin/neonsync-bench" draft --server "ws://127.0.0.1:$held/" --duration 20 --room failover --editors "$SATURATED" \
    --watchers 2 --rate 1000 >"$OUT/failover.txt" &
  bench=$!
  sleep 5
  killed=$(date +%s.%N)
  kill -9 "$master_pid"
  # Once the Sentinels promote the replica, the killed master comes back,
  # as systemd would start it, and the Sentinels make it the new master's
  # replica: until then the new master has no replica and refuses writes.
  for _ in $(seq 300); do
    [ "$(redis-cli -p "$s2" sentinel get-master-addr-by-name neon1 2>/dev/null | tail -1)" = "$replica" ] && break
    sleep 0.1
  done
  promoted=$(date +%s.%N)
  redis "$master"
  wait "$bench" || true
  python3 - "$OUT/replica.log" "$killed" "$promoted" "$OUT/failover.txt" <<'PY'
import json, sys, datetime
killed = float(sys.argv[2])
print(f"\nfailover under load: the Sentinels named the replica master {float(sys.argv[3]) - killed:.2f} s after the kill")
events = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
def at(e): return datetime.datetime.fromisoformat(e["ts"].replace("Z", "+00:00")).timestamp()
for name in ["redis_down", "redis_failover", "redis_up"]:
    seen = [at(e) - killed for e in events if e["event"] == name and at(e) >= killed - 0.5]
    print(f"  {name}: {seen[0]:.2f} s after the kill" if seen else f"  {name}: not seen")
run = json.loads(open(sys.argv[4]).read().strip().splitlines()[-1])
print(f"  the longest an edit waited to be seen: {run['max_ms'] / 1000:.2f} s (p99 {run['p99_ms']:.1f} ms over the 20 s run;"
      f" {run['server_errors']} unavailable answers)")
PY
fi
say "raw output in $OUT"
