import Dispatch
import Glibc
import NeonClient
import Synchronization

/// The progress line on standard error, and SIGINT/SIGTERM turned into an
/// "interrupted" flag so a run stops early and still reports what it
/// measured. On a terminal the line redraws in place ten times a second;
/// otherwise one line is written per phase.
///
/// `@unchecked Sendable`: the drawing state (`lastPhase`, `lastDraw`,
/// `frame`, `signalSources`) belongs to the main thread that runs the bench;
/// the signal handlers only raise `stop`, an atomic flag.
final class BenchDisplay: @unchecked Sendable {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private final class Flag: Sendable { let raised = Atomic<Bool>(false) }
    private let stop = Flag()
    private var signalSources: [any DispatchSourceSignal] = []
    private var lastPhase = ""
    private var lastDraw: Int64 = 0
    private var frame = 0
    private let scenario: String

    init(scenario: String) {
        self.scenario = scenario
        let queue = DispatchQueue(label: "neonsync.bench.signals")
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler { [stop] in stop.raised.store(true, ordering: .relaxed) }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Set by SIGINT or SIGTERM.
    var interrupted: Bool { stop.raised.load(ordering: .relaxed) }

    /// Shows `phase` with its fraction done (nil: a spinner) and detail.
    /// Main thread only.
    func update(phase: String, fraction: Double?, detail: String) {
        let now = monotonicNanoseconds()
        if isTerminal {
            guard phase != lastPhase || now - lastDraw >= 100_000_000 else { return }
            frame += 1
            let line = BenchProgressLine.render(phase: "\(scenario) \(phase)", fraction: fraction, detail: detail, frame: frame)
            write("\r\u{1B}[K" + line)
        } else if phase != lastPhase {
            write("neonsync bench \(scenario): \(phase)\n")
        }
        lastPhase = phase
        lastDraw = now
    }

    /// Clears the progress line before the results are printed.
    func finish() {
        if isTerminal, !lastPhase.isEmpty { write("\r\u{1B}[K") }
        for source in signalSources { source.cancel() }
    }

    private func write(_ text: String) {
        var text = text
        text.withUTF8 { _ = Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
