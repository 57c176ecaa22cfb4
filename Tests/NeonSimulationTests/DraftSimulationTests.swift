import NeonCore
import NeonSimulation
import Testing

/// The draft's deterministic simulation (NeonSimulation) in the suite:
/// 1,000 seeds of each mode, in parallel parts, every seed that ever
/// failed, and the replay of a seed. `neonsync-draft-sim` (scripts/
/// draft-sim.sh) runs millions the same way.
@Suite("Draft simulation")
struct DraftSimulationTests {
    /// Seeds per part; the parts run in parallel.
    static let part: UInt64 = 100

    func run(_ mode: DraftSimulation.Mode, part: UInt64) {
        for seed in (part * Self.part + 1)...((part + 1) * Self.part) {
            let report = DraftSimulation(seed: seed, mode: mode).run()
            #expect(report.passed, "seed \(seed) (\(mode.rawValue)): \(report.failures.prefix(3).joined(separator: "; ")); replay: \(report.replay)")
        }
    }

    @Test("one node with its store, seeds 1 to 1,000: every writer, the node and the store hold one draft, with every keystroke once and in order",
          arguments: 0..<UInt64(10))
    func oneNode(part: UInt64) {
        run(.node, part: part)
    }

    @Test("two cluster nodes on one log, seeds 1 to 1,000: every writer and both nodes hold one draft, with every keystroke once and in order",
          arguments: 0..<UInt64(10))
    func cluster(part: UInt64) {
        run(.cluster, part: part)
    }

    @Test("every seed that ever failed passes", arguments: DraftSimulationRegression.all)
    func regression(_ regression: DraftSimulationRegression) {
        let report = DraftSimulation(seed: regression.seed, mode: regression.mode).run()
        #expect(report.passed, "\(report.failures.prefix(3).joined(separator: "; ")); replay: \(report.replay)")
    }

    @Test("a seed replays exactly: the same events in the same order and the same draft")
    func replay() {
        for mode in DraftSimulation.Mode.allCases {
            let first = DraftSimulation(seed: 36, mode: mode, tracing: true)
            let second = DraftSimulation(seed: 36, mode: mode, tracing: true)
            let reports = (first.run(), second.run())
            // Frames are left out: JSON objects' keys come in any order.
            let events = { (simulation: DraftSimulation) in simulation.trace.filter { !$0.hasPrefix(" ") } }
            #expect(events(first).count > 100)
            #expect(events(first) == events(second))
            #expect(!reports.0.finalText.isEmpty && reports.0.finalText == reports.1.finalText)
        }
    }
}
