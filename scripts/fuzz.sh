#!/usr/bin/env bash
# Fuzzes the server's message handling (NeonCore's WireCodec + Hub) with
# libFuzzer under AddressSanitizer and LeakSanitizer, for a fixed number of
# executions, starting from the JSON examples of docs/PROTOCOL.md.
#
#   scripts/fuzz.sh [RUNS]        (default 100000 executions)
#
# Environment: FUZZ_WORK (default /tmp/neonsync-fuzz) holds the binary, the
# corpus and any crash inputs; FUZZ_SECONDS caps the wall time (default 1800).
# Exit status: 0 when every input ran clean, non-zero with the finding's
# input saved under $FUZZ_WORK/findings otherwise.
set -euo pipefail

cd "$(dirname "$0")/.."
runs="${1:-100000}"
work="${FUZZ_WORK:-/tmp/neonsync-fuzz}"
seconds="${FUZZ_SECONDS:-1800}"
mkdir -p "$work/corpus" "$work/findings"

echo "== building fuzz/FuzzMessages.swift + Sources/NeonCore with -sanitize=fuzzer,address"
# The linker warns about every sanitizer helper it cannot export; keep that
# noise in build.log unless the build fails.
if ! swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name NeonFuzz \
    $(find Sources/NeonCore -name '*.swift' | sort) fuzz/FuzzMessages.swift \
    -o "$work/fuzz-messages" >"$work/build.log" 2>&1; then
    grep -v "Cannot export local symbol" "$work/build.log"
    exit 1
fi

echo "== seeding the corpus from the JSON examples in docs/PROTOCOL.md"
python3 - "$work/corpus" <<'PY'
import json, re, sys, hashlib, pathlib
out = pathlib.Path(sys.argv[1])
text = pathlib.Path("docs/PROTOCOL.md").read_text()
examples = [line.strip() for block in re.findall(r"```json\n(.*?)```", text, re.S)
            for line in block.splitlines() if line.strip().startswith("{")]
for line in examples:
    json.loads(line)  # the documented examples must stay valid JSON
client = [e for e in examples if json.loads(e)["type"] in
          ("hello", "document", "scroll", "tab", "follow", "edit", "cursor")]
hello = [e for e in client if json.loads(e)["type"] == "hello"]
seeds = examples + [
    # every client message after a hello from each of the three clients
    "\n".join(hello * 3 + client),
    "\n".join(hello * 3 + client + [""] + client),
    # presenter + readers, then the same session replayed from client 2
    "\n".join([hello[0].replace('"reader"', '"presenter"')] + hello * 2 + client * 2),
]
for seed in seeds:
    name = hashlib.sha1(seed.encode()).hexdigest()[:16]
    (out / f"seed-{name}").write_text(seed)
print(f"{len(examples)} examples from docs/PROTOCOL.md ({len(client)} client messages), {len(seeds)} seed sessions")
PY

echo "== running $runs executions (AddressSanitizer, LeakSanitizer: detect_leaks=1)"
log="$work/fuzz.log"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
set +e
"$work/fuzz-messages" "$work/corpus" -runs="$runs" -max_len=4096 -timeout=10 \
    -max_total_time="$seconds" -detect_leaks=1 -use_value_profile=1 \
    -artifact_prefix="$work/findings/" -print_final_stats=1 >"$log" 2>&1
status=$?
set -e
grep -E "INITED|DONE|stat::number_of_executed_units|stat::peak_rss_mb|stat::new_units_added" "$log" || true
if [ "$status" -ne 0 ]; then
    echo "FAILED (status $status): a crash, hang or leak; input and report in $work/findings and $log"
    grep -E "ERROR|SUMMARY|Fatal error" "$log" | head -20
    exit "$status"
fi
executed=$(grep -oE "stat::number_of_executed_units: [0-9]+" "$log" | grep -oE "[0-9]+$")
corpus=$(ls "$work/corpus" | wc -l)
echo "held: $executed inputs ran with no crash, no hang (10 s per input), no leak; corpus now $corpus inputs"
