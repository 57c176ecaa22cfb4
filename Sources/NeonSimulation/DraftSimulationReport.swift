/// What one run of the simulation did, and what it found wrong.
package struct DraftSimulationReport: Sendable {
    package let seed: UInt64
    package let mode: DraftSimulation.Mode
    package let writers: Int
    /// Whether writers typed before their first welcome.
    package let typesEarly: Bool
    /// Empty when the run held every promise.
    package var failures: [String] = []
    package var events = 0
    /// Characters typed, pasted ones included.
    package var keystrokes = 0
    package var pastes = 0
    /// Connections opened (the first ones included) and cut.
    package var connections = 0
    package var cuts = 0
    /// Cluster: a writer's connection opened on another node than its
    /// previous one (its node died, or refused it): the room taken up there.
    package var failovers = 0
    /// Writers typing into the reader's draft panel.
    package var readers = 0
    /// Node processes killed and started again.
    package var crashes = 0
    package var restarts = 0
    /// Reconnects a program asked for itself, after an error.
    package var resyncs = 0
    /// Keystrokes typed between connections.
    package var offlineKeystrokes = 0
    /// The final draft, once quiet (the first writer's, which the checks
    /// compare everyone's with).
    package var finalText = ""
    package var finalLength: Int { finalText.unicodeScalars.count }

    package var passed: Bool { failures.isEmpty }

    /// How to run this seed again.
    package var replay: String {
        "swift run neonsync-draft-sim --mode \(mode.rawValue) --replay \(seed)"
    }
}
