#!/usr/bin/env bash
# The shared draft's deterministic simulation (NeonSimulation, run by
# neonsync-draft-sim) for many seeds: writers typing, pasting and deleting
# through the real DraftModel, the real gateway, room reducer and executor,
# over sockets that deliver in any order a connection allows, connections
# cut, nodes killed and restarted from their store, and in a cluster of two
# nodes on one log, a node dying and its writers moving to the other. Each
# run is checked once quiet: one draft everywhere, every keystroke once, in
# order. Prints each failing seed with its replay command, then the totals
# and the event mix per run (docs/RELIABILITY.md, "The draft's simulation").
#
#   scripts/draft-sim.sh [SEEDS [FROM]]    (default 1000000 seeds from 1, in each mode)
#
# Environment: DRAFT_SIM_MODE (node, cluster or both, the default),
# DRAFT_SIM_JOBS (runs at once; default one per processor). Runs at nice 19.
# Exit status: 0 when every seed passed, 1 when one failed, 2 on bad usage.
set -euo pipefail

cd "$(dirname "$0")/.."
seeds="${1:-1000000}"
from="${2:-1}"
mode="${DRAFT_SIM_MODE:-both}"
jobs=()
if [[ -n "${DRAFT_SIM_JOBS:-}" ]]; then jobs=(--jobs "$DRAFT_SIM_JOBS"); fi
swift build -c release --product neonsync-draft-sim >&2
exec nice -n 19 .build/release/neonsync-draft-sim --mode "$mode" --seeds "$seeds" --from "$from" "${jobs[@]}"
