#!/usr/bin/env bash
# Measures the CPU a connected, idle neonsync client uses: starts neonsyncd
# on a free loopback port and a client in a detached tmux window, waits for
# the wheel (3 s idle), then samples the client's CPU time over a window.
# Usage: scripts/client-idle-cpu.sh [seconds]   (release build, default 10 s)
set -euo pipefail
cd "$(dirname "$0")/.."
window=${1:-10}
swift build -c release --product neonsyncd >/dev/null
swift build -c release --product neonsync >/dev/null
bin=.build/release
log=$(mktemp); sock="neonsync-idle-$$"
"$bin/neonsyncd" --port 0 --log "$log" & server=$!
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; kill $server 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 50); do grep -q '"event":"start"' "$log" 2>/dev/null && break; sleep 0.1; done
port=$(grep -o '"port":[0-9]*' "$log" | head -1 | cut -d: -f2)
tmux -L "$sock" -f /dev/null new-session -d -s idle -x 200 -y 60 \
  "env TERM=xterm-256color $bin/neonsync read samples/guide.md --room idle --name idle --server ws://127.0.0.1:$port/"
sleep 4
pid=$(pgrep -f "neonsync read samples/guide.md --room idle" | head -1)
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
hz=$(getconf CLK_TCK)
before=$(ticks); sleep "$window"; after=$(ticks)
echo "idle client: $((after - before)) ticks of CPU in ${window} s at $hz ticks/s = $(awk -v t=$((after - before)) -v w="$window" -v hz="$hz" 'BEGIN { printf "%.2f", 100 * t / hz / w }')% CPU"
