#!/usr/bin/env bash
# Runs the server's threaded tests under ThreadSanitizer and fails on any
# report (docs/RELIABILITY.md, "ThreadSanitizer over the threaded transport"):
# the transport's tests and the server's in-process tests with every server on
# TSAN_THREADS service threads, and the transport's vocabulary.
#
#   scripts/tsan.sh            build (9 minutes from scratch here, 1–2 after a change), then run
#   scripts/tsan.sh --no-build run what the last build left
#
# Environment: TSAN_SCRATCH (the build's --scratch-path, default
# /tmp/neonsync-tsan: a build of its own, apart from .build), TSAN_THREADS
# (service threads per test server, default 3), TSAN_FILTER (the swift test
# --filter, default the three targets below), TSAN_LOG (where the run's output
# goes, default $TSAN_SCRATCH/tsan.log).
# Exit status: 0 when every test passed and TSan printed no report; 1 with the
# number of reports and the first one's summary lines otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."
scratch=${TSAN_SCRATCH:-/tmp/neonsync-tsan}
threads=${TSAN_THREADS:-3}
filter=${TSAN_FILTER:-"^(InProcessTransportTests|NeonTransportCoreTests|InProcessServerTests)\."}
log=${TSAN_LOG:-$scratch/tsan.log}
build=yes
for argument in "$@"; do
    case "$argument" in
        --no-build) build=no ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "tsan.sh: unknown argument $argument; see scripts/tsan.sh --help" >&2; exit 2 ;;
    esac
done
mkdir -p "$scratch"
if [ "$build" = yes ]; then
    echo "tsan.sh: building the tests with -sanitize=thread in $scratch (9 minutes from scratch here, 1–2 after a change)"
    swift build --build-tests --sanitize=thread --scratch-path "$scratch" 2>&1 | grep -E "error|Compiling|Build complete" | grep -v "^warning" | tail -n 3
    [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "tsan.sh: the build failed; run swift build --build-tests --sanitize=thread --scratch-path $scratch to see why" >&2; exit 1; }
fi
echo "tsan.sh: running --filter '$filter' with $threads service threads; output in $log"
# halt_on_error=0: see every report of the run, not only the first.
NEONSYNC_TEST_THREADS=$threads TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
    swift test --skip-build --sanitize=thread --scratch-path "$scratch" --filter "$filter" >"$log" 2>&1
status=$?
reports=$(grep -c "WARNING: ThreadSanitizer" "$log")
summary=$(grep -E "Test run with .* (passed|failed)|✘ Test run" "$log" | tail -n 1)
echo "tsan.sh: ${summary:-no test summary (see $log)}"
if [ "$reports" -gt 0 ]; then
    echo "tsan.sh: $reports ThreadSanitizer report(s); the first:" >&2
    grep -m 1 -A 30 "WARNING: ThreadSanitizer" "$log" | grep -E "WARNING|^    #0 |SUMMARY" | head -n 8 >&2
    exit 1
fi
if [ "$status" -ne 0 ]; then
    echo "tsan.sh: swift test exited $status; see $log" >&2
    exit 1
fi
echo "tsan.sh: clean: no ThreadSanitizer report"
