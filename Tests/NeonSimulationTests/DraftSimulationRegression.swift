import NeonSimulation
import Testing

/// A seed the simulation once failed, and what it found; it must pass now.
/// docs/RELIABILITY.md ("The draft's simulation") tells each story.
struct DraftSimulationRegression: Sendable, CustomTestStringConvertible {
    let mode: DraftSimulation.Mode
    let seed: UInt64
    let found: String

    var testDescription: String { "\(mode.rawValue) seed \(seed): \(found)" }

    static let all: [DraftSimulationRegression] = []
}
