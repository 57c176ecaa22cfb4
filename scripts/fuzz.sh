#!/usr/bin/env bash
# Fuzzes the decoders of untrusted or stored bytes with libFuzzer under
# AddressSanitizer and LeakSanitizer, for a fixed number of executions per
# target, each starting from a corpus of real data:
#
#   messages  client frames through WireCodec and the Hub (docs/PROTOCOL.md examples)
#   images    a room's image JSON as read back from Redis, then a session on it
#   entries   a room's log as read back from Redis (RESP through hiredis, ClusterEntry)
#   markdown  cmark-gfm, MarkdownReader and Layout at a width from 1 to 240 (docs/*.md, samples/)
#   tokens    room tokens verified with a fixed secret (tokens minted by RoomToken)
#   headers   X-Forwarded-For, Forwarded, Origin, Host and Sec-WebSocket-* of a handshake
#   pictures  PNG/JPEG decoding and the server's check of a travelling image
#   screens   the client's screens (reader, slides, follow, notes): Markdown, a size and
#             events through update and view (samples/, Tests/Fixtures/documents/)
#
#   scripts/fuzz.sh [TARGET|all] [RUNS]     (default: all, 100000 executions each)
#
# The targets are fuzz/Fuzz*.swift, compiled with the product's own source
# files (not `swift build`, see build() below). swiftc refuses
# -sanitize=undefined on Linux; Swift's own checks (overflow, bounds,
# unwrapping, preconditions) stay on in these -O builds and trap, which
# libFuzzer reports as a crash.
#
# Environment: FUZZ_WORK (default /tmp/neonsync-fuzz) holds the binary and,
# per target, the corpus, the log and any finding; FUZZ_SECONDS caps each
# target's wall time (default 1800).
# Exit status: 0 when every input ran clean, non-zero with the finding's
# input saved under $FUZZ_WORK/TARGET/findings otherwise.
set -euo pipefail

cd "$(dirname "$0")/.."
targets=(messages images entries markdown tokens headers pictures screens)
which="${1:-all}"
runs="${2:-100000}"
work="${FUZZ_WORK:-/tmp/neonsync-fuzz}"
seconds="${FUZZ_SECONDS:-1800}"
if [ "$which" = all ]; then
    selected=("${targets[@]}")
elif [[ " ${targets[*]} " == *" $which "* ]]; then
    selected=("$which")
else
    echo "unknown target '$which'; use one of: ${targets[*]} all" >&2
    exit 2
fi
mkdir -p "$work"
flags=(-sanitize=fuzzer,address -parse-as-library -package-name neonsync -O -g)

# One binary holds every target (fuzz/FuzzMain.swift picks one by
# NEON_FUZZ_TARGET): fuzz/*.swift compiled in one module with NeonCore's
# sources, the pure client's (NeonTUI, NeonClient: the screens target) and
# the few NeonServer/NeonTransport files the targets test, so that the
# optimizer specializes NeonCore's generics for the targets as it does for
# the server. The module is named NeonCore: those files' `import NeonCore`
# then names the module itself, which swiftc ignores; `import NeonTUI` and
# `import NeonClient` find empty stand-in modules ($work/stub), since their
# code is in this module too.
# C libraries are linked as the product links them (cmark-gfm, libyaml,
# hiredis, libcrypto; not libwebsockets: no file here needs it).
product_files=(
    Sources/NeonServer/Cluster/ClusterEntry.swift Sources/NeonServer/Cluster/ClusterKeys.swift
    Sources/NeonServer/Cluster/RedisReply.swift Sources/NeonServer/Gateway/RoomEntry.swift
    Sources/NeonServer/Auth/RoomToken.swift Sources/NeonServer/Auth/SystemdCredential.swift
    Sources/NeonServer/Auth/ProxyTrust.swift Sources/NeonServer/Auth/IPAddress.swift
    Sources/NeonTransport/Server/OriginPolicy.swift Sources/NeonTransport/Server/HandshakeRefusal.swift
    Sources/NeonRender/Picture.swift
)
binary="$work/neonsync-fuzz"

# Rebuilt when a source is newer; a lock lets two runs start at once.
build() {
    local sources=($(find Sources/NeonCore Sources/NeonTUI Clients/NeonClient -name '*.swift' | sort) "${product_files[@]}" fuzz/*.swift)
    mkdir -p "$work/stub"
    : >"$work/stub/empty.h"
    printf 'module NeonTUI { header "empty.h" export * }\nmodule NeonClient { header "empty.h" export * }\nmodule NeonTransportCore { header "empty.h" export * }\n' >"$work/stub/module.modulemap"
    exec 9>"$work/build.lock"
    flock 9
    if [ ! -x "$binary" ] || [ -n "$(find "${sources[@]}" -newer "$binary")" ]; then
        echo "== building ${#sources[@]} files (fuzz/, NeonCore, ${#product_files[@]} of NeonServer/NeonTransport) with ${flags[*]}"
        # The linker warns about every sanitizer helper it cannot export;
        # keep that noise in build.log unless the build fails.
        if ! swiftc "${flags[@]}" -module-name NeonCore -I Sources/CCmarkGFM -I Sources/CHiredis -I Sources/CCrypto \
            -I Sources/CPNG -I Sources/CTurboJPEG -I Sources/CYAML -I "$work/stub" \
            "${sources[@]}" -lcmark-gfm -lcmark-gfm-extensions -lhiredis -lcrypto -lpng16 -lturbojpeg -lyaml \
            -o "$binary.new" >"$work/build.log" 2>&1; then
            grep -v "Cannot export local symbol" "$work/build.log" >&2
            exit 1
        fi
        mv "$binary.new" "$binary"
    fi
    flock -u 9
}

# The client sessions of docs/PROTOCOL.md: the messages corpus, and what the
# images and entries targets make their seeds from.
write_sessions() {
    python3 - "$1" <<'PY'
import json, re, sys, hashlib, pathlib
out = pathlib.Path(sys.argv[1])
text = pathlib.Path("docs/PROTOCOL.md").read_text()
examples = [line.strip() for block in re.findall(r"```json\n(.*?)```", text, re.S)
            for line in block.splitlines() if line.strip().startswith("{")]
for line in examples:
    json.loads(line)  # the documented examples must stay valid JSON
# Server messages carry "seq"; some share a client message's type.
client = [e for e in examples if "seq" not in json.loads(e) and json.loads(e)["type"] in
          ("hello", "document", "scroll", "tab", "follow", "edit", "cursor", "ask", "answered", "output", "summon")]
hello = [e for e in client if json.loads(e)["type"] == "hello"]
document = next(e for e in client if json.loads(e)["type"] == "document")
ask = '{"type":"ask","anchor":{"block":1,"offset":0},"length":5,"text":"why hello?"}'
answered = '{"type":"answered","question":1}'

def snippet_session():
    # line i comes from client i % 3: c1 presents, c2 and c3 read
    presenter = hello[0].replace('"reader"', '"presenter"')
    deck = json.dumps({"type": "document", "title": "Demo", "format": "markdown",
                       "text": "# Demo\n\n```bash +exec +id:a\necho $((6*7))\n```\n\n<!-- snippet_output: a -->\n"})
    run = json.dumps({"type": "output", "block": 1, "text": "", "state": "running"})
    done = json.dumps({"type": "output", "block": 1, "text": "EXECOUT42", "state": "exited", "exit": 0})
    bad = json.dumps({"type": "output", "block": 1, "text": "x\ty", "state": "running"})
    summon = json.dumps({"type": "summon"})
    on, off = json.dumps({"type": "follow", "on": True}), json.dumps({"type": "follow", "on": False})
    return ([presenter, hello[0], hello[0], deck, run, run, run, done, "", done, bad, hello[0], bad, run, deck]
            + [summon, on, on, summon, off, off, summon])
def late_joiner_session():
    # line i comes from client i % 3: c1 presents a deck whose snippet also
    # lights its lines in groups (three steps); c2 asks and marks answered;
    # c3 joins late (its welcome carries the outputs and the questions),
    # then summons, steps through the groups (one step past the slide's),
    # a second question and a disconnection
    presenter = hello[0].replace('"reader"', '"presenter"')
    deck = json.dumps({"type": "document", "title": "Lit", "format": "markdown",
                       "text": "# Lit\n\n```bash +exec +id:a {1|2|all} +line_numbers\necho $((6*7))\necho two\n```\n\n"
                               "<!-- snippet_output: a -->\n\n<!-- end_slide -->\n\n# Next\n\nEnd.\n"})
    done = json.dumps({"type": "output", "block": 1, "text": "EXECOUT42", "state": "exited", "exit": 0})
    summon = json.dumps({"type": "summon"})
    on = json.dumps({"type": "follow", "on": True})
    def step(n):
        return json.dumps({"type": "scroll", "top": 0, "viewport": 20, "content": 9, "anchor": {"block": 1, "offset": 0},
                           "step": n})
    return [presenter, hello[0], "", deck, ask, "", done, answered, hello[0], summon, on, ask, step(1), "", on,
            step(2), step(3), on, answered.replace("1", "2"), "", summon, step(0)]

seeds = examples + [
    # every client message after a hello from each of the three clients
    "\n".join(hello * 3 + client),
    "\n".join(hello * 3 + client + [""] + client),
    # presenter + readers, then the same session replayed from client 2
    "\n".join([hello[0].replace('"reader"', '"presenter"')] + hello * 2 + client * 2),
    # questions on the example document's paragraph: asked by two readers,
    # answered by the presenter and by an asker, then a replacing document
    "\n".join([hello[0].replace('"reader"', '"presenter"')] + hello * 2
              + [document, ask, ask, answered, answered.replace("1", "2"), "", answered.replace("1", "9"), ask, answered,
                 document.replace("Hello", "Bye")]),
    # a presenter's snippet outputs (refused from readers, streamed, a bad
    # one refused), a late joiner's welcome with them, a new document, then
    # summons with followers attached and detached
    "\n".join(snippet_session()),
    # outputs and questions in a late joiner's welcome, question broadcasts,
    # and slide steps counted with a code block's lit groups
    "\n".join(late_joiner_session()),
]
for seed in seeds:
    name = hashlib.sha1(seed.encode()).hexdigest()[:16]
    (out / f"seed-{name}").write_text(seed)
print(f"{len(examples)} examples from docs/PROTOCOL.md ({len(client)} client messages), {len(seeds)} seed sessions")
PY
}

# Header sets a browser, a proxy chain and a plain client send, one header
# a line in the target's order.
write_headers() {
    python3 - "$1" <<'PY'
import pathlib, sys
out = pathlib.Path(sys.argv[1])
key = "dGhlIHNhbXBsZSBub25jZQ=="
sets = [
    ["", "", "", "localhost:8080", key, "13", "127.0.0.1"],
    ["203.0.113.44", "", "https://app.example.com", "sync.example.com", key, "13", "10.0.0.1"],
    ["203.0.113.44, 10.0.0.7", "", "", "sync.example.com", key, "13", "10.0.0.1"],
    ["[2001:db8::17]:4711, 10.0.0.7:8080", "", "", "sync.example.com", key, "13", "::1"],
    ["", 'for=192.0.2.60;proto=https;by=203.0.113.43, for="[2001:db8:cafe::17]:4711"', "", "h", key, "13", "10.1.2.3"],
    ["", 'for=unknown, for="_hidden", for=198.51.100.17', "http://localhost:8080/", "h", key, "13", "fd00::5"],
    ["198.51.100.9", "for=192.0.2.1", "HTTPS://APP.EXAMPLE.COM:443", "h", key, "13", "192.0.2.200"],
    ["", "", "null", "h", key, "8", "127.0.0.1"],
    ["", "", "https://[::1]:8443", "", key, "13", "127.0.0.1"],
    ["", "", "file://", "h", "short", "13", "127.0.0.1"],
    ["", "", "", "h", " " + key + "\t", " 13 ", "::ffff:10.0.0.1"],
]
for i, headers in enumerate(sets):
    (out / f"seed-{i}").write_text("\n".join(headers))
print(f"{len(sets)} header sets")
PY
}

seed() {
    local target="$1" corpus="$work/$1/corpus"
    case "$target" in
        messages) write_sessions "$corpus" ;;
        images|entries|tokens|pictures)
            if [ "$target" = images ] || [ "$target" = entries ]; then
                mkdir -p "$work/sessions"
                write_sessions "$work/sessions" >/dev/null
            fi
            NEON_FUZZ_TARGET="$target" NEON_FUZZ_SESSIONS="$work/sessions" NEON_FUZZ_SEEDS="$corpus" "$binary" 2>/dev/null | tail -1 ;;
        markdown)
            # The first byte is the width less one: each file at 1, 20, 80 and 200 columns.
            local n=0
            for file in docs/*.md samples/*.md README.md; do
                [ -f "$file" ] || continue
                for width in 1 20 80 200; do
                    { printf "\\$(printf '%03o' $((width - 1)))"; cat "$file"; } >"$corpus/seed-$width-$(basename "$file")"
                done
                n=$((n + 1))
            done
            echo "$n Markdown files from docs/, samples/ and README.md, each at widths 1, 20, 80 and 200" ;;
        headers) write_headers "$corpus" ;;
        screens)
            # Four header bytes (width − 1, height − 1, the screen: read,
            # present, follow, notes; how many event bytes follow), the
            # events, then the document: each file at the sizes that broke
            # (80x16, 50x16, 20x3, 40x12) and 120x40, on every screen, with
            # eight → (event 0) and eight presenter moves (event 130); the
            # fuzzer keeps the first 2 KiB of the longer ones.
            local n=0
            for file in samples/*.md Tests/Fixtures/documents/*; do
                [ -f "$file" ] || continue
                for size in "80 16" "50 16" "20 3" "40 12" "120 40"; do
                    set -- $size
                    for screen in 0 1 2 3; do
                        {
                            printf "\\$(printf '%03o' $(($1 - 1)))\\$(printf '%03o' $(($2 - 1)))\\$(printf '%03o' "$screen")\\020"
                            printf '\000\000\000\000\000\000\000\000\202\202\202\202\202\202\202\202'
                            cat "$file"
                        } >"$corpus/seed-$1x$2-$screen-$(basename "$file")"
                    done
                done
                n=$((n + 1))
            done
            echo "$n documents from samples/ and Tests/Fixtures/documents/, each at 5 sizes on 4 screens" ;;
    esac
}

# Two frames of allocation stack instead of 30 (unwinding on every malloc
# halves the speed; with fewer than two, LeakSanitizer misses a planted
# leak) and a small quarantine; replay a finding with plain
# ASAN_OPTIONS=detect_leaks=1 for the full report. Swift's backtracer is
# off: reading the crashed stack, it trips AddressSanitizer itself.
asan="detect_leaks=1:abort_on_error=1:malloc_context_size=2:quarantine_size_mb=16"
declare -A max_len=([messages]=4096 [images]=4096 [entries]=4096 [markdown]=2048 [tokens]=1024 [headers]=1024 [pictures]=8192 [screens]=2048)
build
status=0
for target in "${selected[@]}"; do
    dir="$work/$target"
    mkdir -p "$dir/corpus" "$dir/findings"
    echo "== seeding the $target corpus"
    seed "$target"
    echo "== running $target: $runs executions (AddressSanitizer, LeakSanitizer: detect_leaks=1)"
    log="$dir/fuzz.log"
    set +e
    NEON_FUZZ_TARGET="$target" ASAN_OPTIONS="$asan" SWIFT_BACKTRACE=enable=no "$binary" "$dir/corpus" -runs="$runs" \
        -max_len="${max_len[$target]}" -timeout=10 -max_total_time="$seconds" -detect_leaks=1 -use_value_profile=1 \
        -artifact_prefix="$dir/findings/" -print_final_stats=1 >"$log" 2>&1
    result=$?
    set -e
    grep -E "INITED|DONE|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb|stat::new_units_added" "$log" || true
    if [ "$result" -ne 0 ]; then
        echo "$target FAILED (status $result): a crash, hang or leak; input and report in $dir/findings and $log"
        grep -E "ERROR|SUMMARY|Fatal error" "$log" | head -20
        status=$result
        continue
    fi
    executed=$(grep -oE "stat::number_of_executed_units: [0-9]+" "$log" | grep -oE "[0-9]+$")
    echo "$target held: $executed inputs ran with no crash, no hang (10 s per input), no leak; corpus now $(ls "$dir/corpus" | wc -l) inputs"
done
exit "$status"
