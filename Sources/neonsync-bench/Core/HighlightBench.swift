import NeonClient
import NeonCore
import NeonRender
import NeonTUI

/// What highlighting adds to opening a document and to a frame: a 1 MB
/// Markdown document of which a third is fenced code (seven languages,
/// and the Swift of the layout benchmark), parsed and laid out as today,
/// then highlighted (KSyntaxHighlighting,
/// through NeonRender), and the frame after one scroll step with the
/// tokens drawn.
func runHighlightBenchmark(columns: Int = 200, rows: Int = 60, steps: Int = 2_000, rounds: Int = 5) -> [String] {
    let steps = Int(ProcessInfoLite.environment("NEONSYNC_BENCH_STEPS") ?? "") ?? steps
    let text = highlightBenchmarkMarkdown(bytes: 1_000_000)
    let clock = ContinuousClock()
    var open: [Duration] = []
    var highlight: [Duration] = []
    var document: Document?
    var highlights = CodeHighlights.none
    let loadStart = clock.now
    let highlighter = CodeHighlighter()
    _ = highlighter.runs(of: "let x = 1", language: "swift")
    let load = clock.now - loadStart
    for _ in 0..<rounds {
        var start = clock.now
        let parsed = try! Document.parse(title: "Benchmark", format: .markdown, text: text)
        _ = Layout(document: parsed, width: columns)
        open.append(clock.now - start)
        start = clock.now
        highlights = highlighter.highlights(of: parsed)
        highlight.append(clock.now - start)
        document = parsed
    }
    let codeBytes = CodeHighlights.requests(in: document!).reduce(0) { $0 + $1.code.utf8.count }
    let tokens = highlights.runs.values.reduce(0) { $0 + $1.count }

    var model = ReaderModel(mode: .join, room: "bench", name: "bench", columns: columns, rows: rows, at: .zero)
    _ = model.connected(at: .zero)
    let me = ClientID("c1")
    let welcome = Welcome(you: me, room: "bench", document: DocumentInfo(title: "Benchmark", format: .markdown, text: text),
                          readers: [ReaderInfo(id: me, name: "bench", role: .reader)], presenter: nil,
                          draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
    _ = model.receive(ServerMessage(seq: 1, .welcome(welcome)), at: .zero)
    for command in model.update(.tick, at: .zero) {
        if case let .highlight(shown, version) = command {
            _ = model.update(.highlighted(highlighter.highlights(of: shown), version: version), at: .zero)
        }
    }
    let (samples, bytes) = scrollFrames(of: &model, steps: steps)
    open.sort()
    highlight.sort()
    return [
        "highlight: \(CodeHighlighter.summary())",
        "highlight: \(text.utf8.count / 1000) kB document, \(codeBytes / 1000) kB of it code in \(document!.blocks.filter { if case .codeBlock = $0.kind { true } else { false } }.count) fenced blocks, \(tokens) tokens",
        "highlight: loading the definitions once: \(ms(load)) ms",
        "highlight: open today (parse + layout at \(columns) columns): best \(ms(open[0])) ms, median \(ms(open[rounds / 2])) ms",
        "highlight: highlighting its code: best \(ms(highlight[0])) ms, median \(ms(highlight[rounds / 2])) ms (\(rounds) rounds)",
        "highlight: frame after one scroll step at \(columns)×\(rows), code highlighted: median \(ms(samples[steps / 2])) ms, p99 \(ms(samples[steps * 99 / 100])) ms, \(bytes / steps) bytes of ANSI per frame",
    ]
}

/// A Markdown document of about `bytes` bytes, a third of it fenced code in
/// Swift, Python, C, JavaScript, shell, JSON and YAML.
func highlightBenchmarkMarkdown(bytes: Int) -> String {
    let prose = benchmarkMarkdown(bytes: bytes * 4 / 5)
    let snippets: [(String, [String])] = [
        ("swift", ["// Counts the readers of a room.", "func count(_ readers: [Reader], in room: String) -> Int {",
                   "    let here = readers.filter { $0.room == room && !$0.isObserver }", "    return here.count + 0x1F // \"slack\"", "}"]),
        ("python", ["def parse(line: str) -> dict:", "    \"\"\"Reads one log line.\"\"\"", "    import json",
                    "    return {k: v for k, v in json.loads(line).items() if v is not None}  # 3.14"]),
        ("c", ["#include <stdio.h>", "static int total(const int *xs, size_t n) {", "    int sum = 0; /* the sum */",
               "    for (size_t i = 0; i < n; i++) sum += xs[i];", "    return printf(\"%d\\n\", sum);", "}"]),
        ("js", ["const ws = new WebSocket('ws://127.0.0.1:7681/');", "ws.onmessage = (event) => {",
                "  const msg = JSON.parse(event.data); // 1 message", "  if (msg.type === 'progress') console.log(msg.percent, 42);", "};"]),
        ("sh", ["#!/bin/sh", "for f in docs/*.md; do", "  neonsync read \"$f\" --room \"${f%.md}\" || exit 1", "done"]),
        ("json", ["{", "  \"type\": \"hello\",", "  \"room\": \"team-notes\",", "  \"draftRev\": 12,", "  \"follow\": true", "}"]),
        ("yaml", ["services:", "  neonsyncd:", "    image: neonsync:latest  # pinned", "    ports: [\"7681:7681\"]", "    restart: true"]),
    ]
    var out = ""
    out.reserveCapacity(bytes + 4_096)
    var index = 0
    let paragraphs = prose.components(separatedBy: "\n\n")
    var code = 0
    for paragraph in paragraphs {
        out += paragraph + "\n\n"
        while code * 100 < out.utf8.count * 22 {
            let (language, lines) = snippets[index % snippets.count]
            let block = "```\(language)\n" + lines.joined(separator: "\n") + "\n```\n\n"
            out += block
            code += block.utf8.count
            index += 1
        }
        if out.utf8.count >= bytes { break }
    }
    return out
}
