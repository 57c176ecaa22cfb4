#!/usr/bin/env bash
# Slow-reader benchmark (release build): one reader stops reading for 60 s
# while others scroll and type at full speed; prints the server's RSS and
# backlog every 5 s and the other readers' latency with and without it.
# Usage: scripts/slow-reader-bench.sh [slow_reader_bench.py options]
#   e.g. scripts/slow-reader-bench.sh --stall 60 --max-outbound 8M
# SWIFT_SCRATCH names the build directory (default .build).
set -euo pipefail
cd "$(dirname "$0")/.."
scratch="${SWIFT_SCRATCH:-.build}"
swift build -c release --scratch-path "$scratch" --product neonsyncd >/dev/null
exec python3 scripts/slow_reader_bench.py "$scratch/release/neonsyncd" "$@"
