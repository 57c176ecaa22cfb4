import Dispatch
import Glibc
import NeonLock
import Synchronization

/// The progress line on standard error, and SIGINT/SIGTERM turned into an
/// "interrupted" flag so a run stops early and still reports what it
/// measured. On a terminal the line redraws in place ten times a second;
/// otherwise one line is written per phase.
final class BenchDisplay: Sendable {
    /// What was drawn last, and the signal sources to cancel at the end.
    private struct Drawing {
        var lastPhase = ""
        var lastDraw: Int64 = 0
        var frame = 0
        let signalSources: [any DispatchSourceSignal]
    }

    /// Raised by the signal handlers.
    private final class Flag: Sendable {
        let raised = Atomic<Bool>(false)
    }

    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let stop = Flag()
    private let drawing: Locked<Drawing>
    private let scenario: String
    /// `neonsync bench`, or `neonsync-bench`: how lines off a terminal start.
    private let program: String

    init(scenario: String, program: String) {
        self.scenario = scenario
        self.program = program
        let queue = DispatchQueue(label: "neonsync.bench.signals")
        let sources = [SIGINT, SIGTERM].map { [stop] sig in
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler { stop.raised.store(true, ordering: .relaxed) }
            source.resume()
            return source
        }
        drawing = Locked(Drawing(signalSources: sources))
    }

    /// Set by SIGINT or SIGTERM.
    var interrupted: Bool { stop.raised.load(ordering: .relaxed) }

    /// Shows `phase` with its fraction done (nil: a spinner) and detail.
    func update(phase: String, fraction: Double?, detail: String) {
        let now = monotonicNanoseconds()
        let line: String? = drawing.withLock { drawing in
            var line: String?
            if isTerminal {
                guard phase != drawing.lastPhase || now - drawing.lastDraw >= 100_000_000 else { return nil }
                drawing.frame += 1
                line = "\r\u{1B}[K" + BenchProgressLine.render(phase: "\(scenario) \(phase)", fraction: fraction,
                                                             detail: detail, frame: drawing.frame)
            } else if phase != drawing.lastPhase {
                line = "\(program) \(scenario): \(phase)\n"
            }
            drawing.lastPhase = phase
            drawing.lastDraw = now
            return line
        }
        if let line { write(line) }
    }

    /// Clears the progress line before the results are printed.
    func finish() {
        drawing.withLock { drawing in
            if isTerminal, !drawing.lastPhase.isEmpty { write("\r\u{1B}[K") }
            for source in drawing.signalSources { source.cancel() }
        }
    }

    private func write(_ text: String) {
        var text = text
        text.withUTF8 { _ = Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
