#!/usr/bin/env bash
# Soak and churn: builds neonsyncd in release and runs scripts/soak.py on it.
#   scripts/soak.sh [--cluster] [--duration S] [soak.py flags...]   (soak.py --help)
# 30 minutes on one node:        scripts/soak.sh --duration 1800 --csv soak-one.csv
# 30 minutes on a cluster of two: scripts/soak.sh --cluster --duration 1800 --csv soak-cluster.csv
# Loopback only; every server, Redis and temporary directory it starts goes
# when it ends. Exit 1 when a check fails.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product neonsyncd >&2
# A storm holds 5,000 sockets in the soak and 5,000 in the server.
ulimit -n "$(ulimit -Hn)"
exec python3 scripts/soak.py .build/release/neonsyncd "$@"
