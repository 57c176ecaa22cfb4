import Glibc
import NeonClient
import NeonCore
import NeonTUI

/// The client's cost per frame after one scroll step: update the model,
/// draw the whole screen into a cell buffer, diff it against the previous
/// frame into ANSI bytes. The terminal write itself is not included.
func runRenderBenchmark(columns: Int = 200, rows: Int = 60, steps: Int = 2_000) -> [String] {
    let steps = Int(ProcessInfoLite.environment("NEONSYNC_BENCH_STEPS") ?? "") ?? steps
    let text = benchmarkMarkdown(bytes: 1_000_000)
    var model = ReaderModel(mode: .join, room: "bench", name: "bench", columns: columns, rows: rows, at: .zero)
    _ = model.connected(at: .zero)
    let me = ClientID("c1")
    let others = (2...6).map { ReaderInfo(id: ClientID("c\($0)"), name: "reader \($0)", role: .reader, percent: $0 * 10) }
    let welcome = Welcome(you: me, room: "bench", document: DocumentInfo(title: "Benchmark", format: .markdown, text: text),
                          readers: [ReaderInfo(id: me, name: "bench", role: .reader)] + others, presenter: nil,
                          draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
    _ = model.receive(ServerMessage(seq: 1, .welcome(welcome)), at: .zero)
    let (samples, bytes) = scrollFrames(of: &model, steps: steps)
    return [
        "render: \(columns)×\(rows), 1 MB document, \(steps) single-row scroll steps (update + view + diff)",
        "render: median \(ms(samples[steps / 2])) ms, p99 \(ms(samples[steps * 99 / 100])) ms, max \(ms(samples[steps - 1])) ms, \(bytes / steps) bytes of ANSI per frame",
    ]
}

/// Environment lookups without Foundation.
enum ProcessInfoLite {
    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

/// Scrolls `model` one row `steps` times, each step timed as the client's
/// frame is made: update, settle, draw, diff against the previous frame.
/// Returns the step times, sorted, and the ANSI bytes of all the diffs.
func scrollFrames(of model: inout ReaderModel, steps: Int) -> (samples: [Duration], bytes: Int) {
    let theme = Theme.neon
    let clock = ContinuousClock()
    var previous = model.view(at: .zero, theme: theme)
    var samples: [Duration] = []
    samples.reserveCapacity(steps)
    var bytes = 0
    for step in 1...steps {
        let time = Duration.milliseconds(step * 16)
        let start = clock.now
        _ = model.scroll(by: 1, at: time)
        model.settle()
        let frame = model.view(at: time, theme: theme)
        let diff = FrameWriter.diff(from: previous, to: frame)
        samples.append(clock.now - start)
        bytes += diff.utf8.count
        previous = frame
    }
    samples.sort()
    return (samples, bytes)
}

/// A duration in milliseconds with two decimals ("1.71").
func ms(_ d: Duration) -> String {
    let v = d.inSeconds * 1000
    return String(Int(v)) + "." + String(Int((v * 1000).rounded()) % 1000 / 10 + 100).dropFirst()
}
