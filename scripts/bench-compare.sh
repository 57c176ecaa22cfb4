#!/usr/bin/env bash
# NeonSync against what a user would pick instead, on this machine, in one
# run: builds release, then runs neonsyncd, libwebsockets' own C server
# (libwebsockets-test-server, lws-mirror-protocol) and a Python websockets
# broadcast server (bench/broadcast_server.py) back to back under the same
# load from `neonsync bench`, and prints ratios.
#
#   scripts/bench-compare.sh            # everything (about 4 minutes)
#   scripts/bench-compare.sh relay      # one part: relay, follow, connect
#
# Each follow round also measures the floor in the same minutes: bench/floor.c
# writes FLOOR_BYTES to each of FOLLOWERS loopback sockets RATE times a second,
# and its CPU per write is what a delivery cannot cost less than; the table
# gives neonsyncd's CPU per delivery as a ratio to it.
#
# Relay runs twice per server: saturating (each sender keeps RELAY_WINDOW
# messages in flight; gives delivered msg/s and server CPU per delivery) and
# at a fixed RELAY_RATE that every server sustains (gives latency: under
# saturation latency only measures the window's queue).
#
# Knobs (environment): DURATION (s, default 10), REPEAT (relay runs per
# server, interleaved; the median is reported, default 3), RELAY_CONNECTIONS
# (500), RELAY_SENDERS (1), RELAY_WINDOW (32), RELAY_RATE (100 msg/s),
# PAUSE (the load generator's --service-pause in µs for saturating runs,
# default 300), SIZE (64 B), FOLLOWERS (1000),
# RATE (60 scrolls/s), FLOOR_BYTES (150: the floor's write size, about a
# follower's progress message), IDLE_CONNECTIONS (10000), HOLD (s the idle
# connections are held, default 35: past neonsyncd's first idle ping round at
# half its --idle-timeout of 60 s), IDLE_PEERS (1: also hold them on the two
# other servers), SCRATCH (the build's --scratch-path),
# PORT (first of three ports, default 17780), THREADS (neonsyncd's --threads,
# default 1; the floor then writes from as many threads), EVENT_LOOP
# (neonsyncd's --event-loop, epoll or poll, default epoll). Raw JSON lines go to
# $OUT (default a temporary directory, printed at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
parts=${1:-all}
DURATION=${DURATION:-10}
REPEAT=${REPEAT:-3}
RELAY_CONNECTIONS=${RELAY_CONNECTIONS:-500}
RELAY_SENDERS=${RELAY_SENDERS:-1}
RELAY_WINDOW=${RELAY_WINDOW:-32}
RELAY_RATE=${RELAY_RATE:-100}
PAUSE=${PAUSE:-300}
SIZE=${SIZE:-64}
FOLLOWERS=${FOLLOWERS:-1000}
EVENT_LOOP=${EVENT_LOOP:-epoll}
RATE=${RATE:-60}
FLOOR_BYTES=${FLOOR_BYTES:-150}
IDLE_CONNECTIONS=${IDLE_CONNECTIONS:-10000}
IDLE_PEERS=${IDLE_PEERS:-1}
HOLD=${HOLD:-35}
PORT=${PORT:-17780}
THREADS=${THREADS:-1}
OUT=${OUT:-$(mktemp -d /tmp/neonsync-bench.XXXXXX)}
mkdir -p "$OUT"

say() { printf 'bench-compare: %s\n' "$*" >&2; }

command -v libwebsockets-test-server >/dev/null || { say "libwebsockets-test-server is missing; run ./deploy/setup.sh"; exit 1; }
python3 -c 'import websockets' 2>/dev/null || { say "Python websockets is missing; run ./deploy/setup.sh"; exit 1; }

build=(swift build -c release)
[ -n "${SCRATCH:-}" ] && build+=(--scratch-path "$SCRATCH")
say "building release"
"${build[@]}" --product neonsyncd >/dev/null
"${build[@]}" --product neonsync >/dev/null
"${build[@]}" --product neonsync-bench >/dev/null   # what `neonsync bench` runs
bin=$("${build[@]}" --show-bin-path)
clang -O2 -pthread bench/floor.c -o "$OUT/floor"

# Both the servers and the load generator hold every connection open.
source scripts/bench-lib.sh
raise_fd_limit $((IDLE_CONNECTIONS + 256)) "$IDLE_CONNECTIONS idle connections (IDLE_CONNECTIONS)"
trap stop_server EXIT

# start_server NAME: a fresh server of that kind; sets server_pid and url.
start_server() {
  case $1 in
    neonsync)
      rm -rf "$OUT/data"
      # One address opens every connection and the senders exceed a person's
      # typing rate: lift the per-address and per-connection limits.
      "$bin/neonsyncd" --port "$PORT" --data "$OUT/data" --log "$OUT/neonsyncd.log" \
        --max-connections-per-ip 0 --max-rate 0 --threads "$THREADS" \
        --event-loop "$EVENT_LOOP" & server_pid=$!
      url="ws://127.0.0.1:$PORT/"; wait_port "$PORT" ;;
    lws-mirror)
      libwebsockets-test-server --port=$((PORT + 1)) --interface=127.0.0.1 >"$OUT/lws.log" 2>&1 & server_pid=$!
      url="ws://127.0.0.1:$((PORT + 1))/"; wait_port $((PORT + 1)) ;;
    raw)
      python3 bench/broadcast_server.py --port $((PORT + 2)) >"$OUT/python.log" 2>&1 & server_pid=$!
      url="ws://127.0.0.1:$((PORT + 2))/"; wait_port $((PORT + 2)) ;;
  esac
  sleep 0.3
}

# bench FILE SERVER SCENARIO ARGS...: one run on a fresh server; appends its JSON line to FILE.
bench() {
  local file=$1 server=$2 scenario=$3; shift 3
  start_server "$server"
  say "$scenario on $server: $*"
  "$bin/neonsync" bench "$scenario" --server "$url" --peer "$server" --server-pid "$server_pid" \
    --duration "$DURATION" "$@" >"$OUT/last.txt"
  cat "$OUT/last.txt" >&2
  tail -1 "$OUT/last.txt" >>"$OUT/$file"
  stop_server
}

servers=(neonsync lws-mirror raw)
if [ "$parts" = all ] || [ "$parts" = relay ]; then
  : >"$OUT/relay.jsonl"
  : >"$OUT/relay-rate.jsonl"
  for round in $(seq "$REPEAT"); do
    for s in "${servers[@]}"; do
      bench relay.jsonl "$s" relay --connections "$RELAY_CONNECTIONS" --senders "$RELAY_SENDERS" \
        --window "$RELAY_WINDOW" --size "$SIZE" --service-pause "$PAUSE"
    done
  done
  for s in "${servers[@]}"; do
    bench relay-rate.jsonl "$s" relay --connections "$RELAY_CONNECTIONS" --senders "$RELAY_SENDERS" \
      --rate "$RELAY_RATE" --size "$SIZE"
  done
fi
if [ "$parts" = all ] || [ "$parts" = follow ]; then
  : >"$OUT/follow.jsonl"
  : >"$OUT/floor.jsonl"
  : >"$OUT/follow-peers.jsonl"
  for round in $(seq "$REPEAT"); do
    say "floor: $FOLLOWERS sockets, $FLOOR_BYTES B at $RATE/s for $DURATION s, $THREADS writer thread(s)"
    "$OUT/floor" -n "$FOLLOWERS" -r "$RATE" -d "$DURATION" -b "$FLOOR_BYTES" -t "$THREADS" | tee -a "$OUT/floor.jsonl" >&2
    bench follow.jsonl neonsync follow --followers "$FOLLOWERS" --rate "$RATE"
    # The same fan-out on the peers, which have no presenter: one sender
    # relaying FLOOR_BYTES RATE times a second to FOLLOWERS others.
    for s in lws-mirror raw; do
      bench follow-peers.jsonl "$s" relay --connections $((FOLLOWERS + 1)) --senders 1 --rate "$RATE" --size "$FLOOR_BYTES"
    done
  done
fi
if [ "$parts" = all ] || [ "$parts" = connect ]; then
  : >"$OUT/connect.jsonl"
  peers=(neonsync); [ "$IDLE_PEERS" = 1 ] && peers=("${servers[@]}")
  for s in "${peers[@]}"; do
    DURATION=$HOLD bench connect.jsonl "$s" connect --connections "$IDLE_CONNECTIONS"
  done
fi

python3 - "$OUT" <<'PY'
import json, os, statistics, sys
out = sys.argv[1]
def load(name):
    path = os.path.join(out, name)
    return [json.loads(l) for l in open(path)] if os.path.exists(path) else []
names = {"neonsync": "neonsyncd", "lws-mirror": "lws C mirror", "raw": "Python websockets"}
relay, follow, connect = load("relay.jsonl"), load("follow.jsonl"), load("connect.jsonl")
relay_rate = load("relay-rate.jsonl")
def median(runs, peer, key):
    values = [r[key] for r in runs if r["peer"] == peer and key in r]
    return statistics.median(values) if values else None
def fmt(v, d=1):
    return "—" if v is None else f"{v:,.{d}f}"
def ratio(a, b):
    return "—" if a is None or b in (None, 0) else f"{a / b:.2f}×"
rows = []
if relay:
    r0 = relay[0]
    print(f"\nrelay: {r0['connections']} connections, {r0['senders']} sender(s), {r0['size_bytes']} B, "
          f"{'rate %d/s' % r0['rate'] if r0['rate'] else 'saturating with %d in flight per sender' % r0['window']}, {r0['duration_s']} s, median of {len(relay) // 3} run(s) per server")
    print(f"{'':26}{'msgs/s':>12}{'server CPU s/M':>16}{'client CPU s':>14}")
    for p in names:
        print(f"{names[p]:26}{fmt(median(relay, p, 'msgs_per_s'), 0):>12}{fmt(median(relay, p, 'server_cpu_s_per_million'), 2):>16}"
              f"{fmt(median(relay, p, 'client_cpu_s'), 2):>14}")
    n, c, py = (median(relay, p, "msgs_per_s") for p in names)
    rows.append(("relay delivered msg/s vs C mirror", ratio(n, c), "≥ 1.0×", n and c and n >= c))
    rows.append(("relay delivered msg/s vs Python", ratio(n, py), "≥ 3×", n and py and n >= 3 * py))
    nc, cc, pc = (median(relay, p, "server_cpu_s_per_million") for p in names)
    rows.append(("server CPU s per million deliveries, C mirror / neonsyncd", ratio(cc, nc), "", None))
    rows.append(("server CPU s per million deliveries, Python / neonsyncd", ratio(pc, nc), "", None))
if relay_rate:
    r0 = relay_rate[0]
    print(f"\nrelay at {r0['rate']:.0f} msg/s ({r0['rate'] * r0['connections']:,.0f} deliveries/s), {r0['connections']} connections, {r0['size_bytes']} B")
    print(f"{'':26}{'delivered':>12}{'p50 ms':>9}{'p90 ms':>9}{'p99 ms':>9}{'max ms':>9}{'server CPU s/M':>16}")
    for p in names:
        print(f"{names[p]:26}{fmt(median(relay_rate, p, 'delivered'), 0):>12}{fmt(median(relay_rate, p, 'p50_ms'), 2):>9}"
              f"{fmt(median(relay_rate, p, 'p90_ms'), 2):>9}{fmt(median(relay_rate, p, 'p99_ms'), 2):>9}"
              f"{fmt(median(relay_rate, p, 'max_ms'), 2):>9}{fmt(median(relay_rate, p, 'server_cpu_s_per_million'), 2):>16}")
    n99, c99, p99 = (median(relay_rate, p, "p99_ms") for p in names)
    rows.append(("relay p99 latency, C mirror / neonsyncd", ratio(c99, n99), "", None))
    rows.append(("relay p99 latency, Python / neonsyncd", ratio(p99, n99), "", None))
if follow:
    f = follow[0]
    followers, rate = f["connections"] - 1, f["sent"] / f["duration_s"]
    print(f"\nfollow: {followers} followers at {rate:.0f} scrolls/s, {len(follow)} run(s)")
    print(f"{'':26}{'p50 ms':>9}{'p90 ms':>9}{'p99 ms':>9}{'max ms':>9}{'delivered':>12}{'server CPU s/M':>16}{'load':>6}")
    for r in follow:
        print(f"{'neonsyncd':26}{r['p50_ms']:>9.2f}{r['p90_ms']:>9.2f}{r['p99_ms']:>9.2f}{r['max_ms']:>9.2f}"
              f"{r['delivered']:>12,}{r['server_cpu_s_per_million']:>16.2f}{r.get('load_average', 0):>6.2f}")
    p99 = median(follow, "neonsync", "p99_ms")
    rows.append((f"follow p99, median of {len(follow)} ({followers} followers, {rate:.0f}/s)", f"{p99:.2f} ms", "< 10 ms", p99 < 10))
    coalesced = sum(r.get("coalesced", 0) for r in follow)
    rows.append(("follow: positions coalesced away (followers fell behind), all runs", f"{coalesced:,}", "0", coalesced == 0))
    peers = load("follow-peers.jsonl")
    if peers:
        print(f"\nthe same fan-out on the peers (relay, 1 sender to {followers} at {rate:.0f}/s), {len(peers) // 2} run(s) each")
        print(f"{'':26}{'p50 ms':>9}{'p90 ms':>9}{'p99 ms':>9}{'max ms':>9}{'delivered':>12}{'server CPU s/M':>16}")
        for r in peers:
            print(f"{names[r['peer']]:26}{r['p50_ms']:>9.2f}{r['p90_ms']:>9.2f}{r['p99_ms']:>9.2f}{r['max_ms']:>9.2f}"
                  f"{r['delivered']:>12,}{r['server_cpu_s_per_million']:>16.2f}")
        best = min(v for v in (median(peers, p, "p99_ms") for p in ("lws-mirror", "raw")) if v is not None)
        rows.append(("follow p99 / the best peer's p99 (medians)", ratio(p99, best), "≤ 0.8×", p99 <= 0.8 * best))
    floor = load("floor.jsonl")
    if floor:
        # Server CPU s per million deliveries is µs per delivery: the floor's unit.
        print(f"\nfloor: a raw write of {floor[0]['bytes']} B to each of {floor[0]['n']} loopback sockets at {floor[0]['rate']}/s")
        print(f"{'':26}{'writer µs/write':>16}{'drain µs/write':>16}{'all arrived':>13}{'neonsyncd µs/delivery':>23}{'ratio':>7}")
        ratios = []
        for f, r in zip(floor, follow):
            ratio_ = r["server_cpu_s_per_million"] / f["writer_cpu_us_per_write"]
            ratios.append(ratio_)
            print(f"{'round':26}{f['writer_cpu_us_per_write']:>16.2f}{f['drain_cpu_us_per_write']:>16.2f}"
                  f"{str(f['received_ok']).lower():>13}{r['server_cpu_s_per_million']:>23.2f}{ratio_:>6.2f}x")
        rows.append((f"follow: neonsyncd CPU per delivery / a raw write's, median of {len(ratios)}",
                     f"{statistics.median(ratios):.2f}x", "", None))
if connect:
    print(f"\nconnect: {connect[0]['connections']:,} connections held idle {connect[0]['duration_s']} s")
    print(f"{'':26}{'held':>8}{'RSS KiB/conn':>14}{'idle CPU %':>12}{'ramp s':>8}")
    for r in connect:
        print(f"{names[r['peer']]:26}{r['held']:>8,}{fmt(r.get('server_rss_per_connection_kib'), 2):>14}"
              f"{fmt(r.get('server_idle_cpu_pct'), 2):>12}{fmt(r.get('ramp_s'), 2):>8}")
    by = {r["peer"]: r for r in connect}
    n = by.get("neonsync")
    if n:
        rows.append((f"idle connections held ({n['connections']:,})", f"{n['held']:,}", f"{n['connections']:,}", n["held"] == n["connections"]))
        rss = n.get("server_rss_per_connection_kib")
        rows.append(("server RSS per idle connection above baseline", f"{fmt(rss, 2)} KiB", "< 16 KiB", rss is not None and rss < 16))
        idle = n.get("server_idle_cpu_pct")
        rows.append(("idle server CPU", f"{fmt(idle, 2)} %", "0 %", idle is not None and idle < 0.5))
        for p in ("lws-mirror", "raw"):
            if p in by and by[p].get("server_rss_per_connection_kib"):
                rows.append((f"RSS per connection, {names[p]} / neonsyncd", ratio(by[p]["server_rss_per_connection_kib"], rss), "", None))
print("\nratios and targets")
for name, value, target, met in rows:
    mark = "" if met is None else ("  met" if met else "  MISSED")
    print(f"  {name:62}{value:>12}  {target:8}{mark}")
PY
say "raw figures (one JSON line per run): $OUT"
