#!/usr/bin/env bash
# Runs the test suite tier by tier (docs/ARCHITECTURE.md, "Tests, in tiers")
# and prints how long each took. The README's test command and CI run it.
#
#   scripts/test-tiers.sh              every tier, in order, then the table
#   scripts/test-tiers.sh TIER...      only those tiers (names below)
#   scripts/test-tiers.sh --list       the tiers and the swift test filter of each
#
# Each tier is one `swift test --skip-build` run; a failing tier does not stop
# the next, and the script exits 1 if any failed. The churn (100,000 rooms
# through one cluster node) and the Debian packages each run alone, after the
# rest: each takes both cores for minutes, which would starve the servers and
# terminals that the other tests time. The tsan tier, last, is scripts/tsan.sh:
# a -sanitize=thread build of its own (9 minutes from scratch here), then
# the threaded tests under ThreadSanitizer.
set -uo pipefail
cd "$(dirname "$0")/.."

# name|--filter|--skip (empty: none)|environment (empty: none)|what it holds
TIERS=(
    "pure|^Neon|||the modules' own tests: no socket, no service thread, no child process"
    "in-process|^InProcess|||the server and the transport in this process, on real sockets and threads"
    "threads|^InProcessTransportTests||NEONSYNC_TEST_THREADS=3 NEONSYNC_TEST_EVENT_LOOP=poll|the transport's tests again, every server on 3 service threads and lws's own poll() loop"
    "processes|^Process|^ProcessServerTests\.ClusterChurn||neonsyncd (3 service threads), neonsync, redis-server and python3 as processes"
    "churn|^ProcessServerTests\.ClusterChurn|||100,000 rooms through one cluster node (alone)"
    "terminal|^Terminal|||neonsync in tmux, read back with capture-pane"
    "deploy|^Deploy|^DeployTests\.Debian||systemd, nginx, logrotate, Prometheus and Grafana, deploy/"
    "debian|^DeployTests\.Debian|||the Debian packages: built, linted, installed, their man pages (alone)"
    "tsan|scripts/tsan.sh|||the transport's and the in-process server's tests under ThreadSanitizer, 3 service threads, in a build of their own; any report fails it (last)"
)

usage() {
    sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
    echo
    list
}

list() {
    printf '%-11s %-40s %s\n' TIER FILTER HOLDS
    for tier in "${TIERS[@]}"; do
        IFS='|' read -r name filter skip environment holds <<<"$tier"
        if [[ $name == tsan ]]; then
            printf '%-11s %-40s %s\n' "$name" "$filter" "$holds"
        else
            printf '%-11s %-40s %s\n' "$name" "${environment:+$environment }--filter '$filter'${skip:+ --skip '$skip'}" "$holds"
        fi
    done
}

wanted=()
for argument in "$@"; do
    case "$argument" in
        -h|--help) usage; exit 0 ;;
        --list) list; exit 0 ;;
        -*) echo "test-tiers.sh: unknown option $argument; see scripts/test-tiers.sh --help" >&2; exit 2 ;;
        *)
            known=no
            for tier in "${TIERS[@]}"; do [[ "${tier%%|*}" == "$argument" ]] && known=yes; done
            if [[ $known == no ]]; then
                echo "test-tiers.sh: no tier named '$argument'; the tiers are: $(for t in "${TIERS[@]}"; do printf '%s ' "${t%%|*}"; done)" >&2
                exit 2
            fi
            wanted+=("$argument") ;;
    esac
done

echo "test-tiers.sh: building the tests (swift build --build-tests)"
swift build --build-tests || { echo "test-tiers.sh: the build failed; nothing was tested" >&2; exit 1; }

summary=()
failed=0
for tier in "${TIERS[@]}"; do
    IFS='|' read -r name filter skip environment holds <<<"$tier"
    if (( ${#wanted[@]} > 0 )) && [[ ! " ${wanted[*]} " == *" $name "* ]]; then continue; fi
    arguments=(--skip-build --filter "$filter")
    [[ -n "$skip" ]] && arguments+=(--skip "$skip")
    log=$(mktemp)
    start=$(date +%s.%N)
    if [[ $name == tsan ]]; then
        echo "test-tiers.sh: tier tsan: scripts/tsan.sh"
        scripts/tsan.sh 2>&1 | tee "$log"
        status=${PIPESTATUS[0]}
    else
        echo "test-tiers.sh: tier $name: ${environment:+$environment }swift test ${arguments[*]}"
        read -r -a variables <<<"$environment"
        env "${variables[@]}" swift test "${arguments[@]}" 2>&1 | tee "$log"
        status=${PIPESTATUS[0]}
    fi
    seconds=$(echo "$(date +%s.%N) - $start" | bc)
    counted=$(grep -oE 'Test run with [0-9]+ tests? in [0-9]+ suites?' "$log" | tail -1 | sed 's/Test run with //')
    rm -f "$log"
    if (( status != 0 )); then
        result="FAILED (exit $status)"; failed=1
    elif [[ -z "$counted" ]]; then
        result="FAILED: its filter matched no test"; failed=1
    else
        result=passed
    fi
    summary+=("$(printf '%-11s %8.1f s   %-26s %s' "$name" "$seconds" "${counted:-no test}" "$result")")
done

echo
echo "test-tiers.sh: time per tier"
printf '%-11s %10s   %-26s %s\n' TIER TIME TESTS RESULT
for line in "${summary[@]}"; do echo "$line"; done
exit $failed
