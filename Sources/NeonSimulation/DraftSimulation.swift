import NeonCore
import NeonServer

/// A deterministic simulation of the shared draft, in the manner of
/// FoundationDB's and TigerBeetle's simulators: writers typing into one
/// room through the product's own code, a network, and server nodes that
/// crash, all in one thread, every choice taken from one seeded generator,
/// so a seed replays its run exactly.
///
/// What is real: each writer's `DraftModel` (its `DraftEditor` and
/// `OTClient`), the wire codec, and on each node the gateway, hub and room
/// reducer (`SyncServer.gateway`), the `Executor` with the commands it
/// holds behind commits, the one-node committer's batch (`CommitWork
/// .perform`) over an `InMemoryStore`, and the restart from that store.
/// What is simulated: the client runtime's connection handling
/// (`SimulatedClient`, after `Runtime+Connection`), the sockets
/// (`SimulatedNetwork`), when the committer and the service thread run
/// (`SimulatedLocalSequencer`), and a cluster's Redis as a shared log with
/// its writer and reader (`SimulatedClusterLog`), since a real
/// `ClusterLink` needs Redis and threads.
///
/// A run: `steps` events chosen from the seed (typing, pastes, deletes,
/// moves; frames delivered in any order the sockets allow; connections cut
/// and opened again; commits; crashes and restarts; in a cluster, a node
/// dying and its writers moving to another), then quiet: no more typing or
/// failures, every writer reconnects and everything in flight is delivered.
/// Then the checks: every writer, every node (through a fresh client's
/// welcome) and the store hold the same text; every keystroke is there
/// once unless someone deleted it; each writer's characters keep the order
/// its own screen gave them. During the run: after a crash, no writer
/// holds a revision the restarted node does not have ("acked means kept").
package final class DraftSimulation {
    /// One node with its store, or a cluster of nodes on one log.
    package enum Mode: String, Sendable, CaseIterable {
        case node
        case cluster
    }

    package static let room = "sim"

    let seed: UInt64
    let mode: Mode
    var random: SplitMix64
    let clock = SimulatedClock()
    let network = SimulatedNetwork()
    let store = InMemoryStore()
    let log: SimulatedClusterLog?
    let logger: LogWriter
    let configuration: SyncServer.Configuration
    var nodes: [SimulatedNode] = []
    var clients: [SimulatedClient] = []
    var ledger: KeystrokeLedger
    /// The events before quiet.
    let steps: Int
    /// Whether writers type before the draft first reached their screen
    /// (a third of the runs); otherwise each waits for its first welcome,
    /// as someone who sees the draft before typing into it does.
    let typesEarly: Bool
    package internal(set) var report: DraftSimulationReport
    /// Each event as a line, kept when asked (`replay`).
    let tracing: Bool
    package internal(set) var trace: [String] = []

    /// A run of `mode` from `seed`; `tracing` keeps every event as a line.
    package init(seed: UInt64, mode: Mode, tracing: Bool = false) {
        self.seed = seed
        self.mode = mode
        self.tracing = tracing
        random = SplitMix64(seed: seed)
        let writers = Int.random(in: 2...4, using: &random)
        steps = Int.random(in: 100...400, using: &random)
        typesEarly = Int.random(in: 0..<3, using: &random) == 0
        log = mode == .cluster ? SimulatedClusterLog() : nil
        logger = Self.quietLog
        // No rate limits and no hello timeout: the simulation's clock runs
        // as fast as its events, and neither is what it tries.
        configuration = SyncServer.Configuration(gateway: .init(policy: AccessPolicy(rate: 0, helloTimeout: nil, maxConnectionsPerAddress: 0)))
        ledger = KeystrokeLedger(clients: writers)
        report = DraftSimulationReport(seed: seed, mode: mode, writers: writers, typesEarly: typesEarly)
        let nodeCount = mode == .cluster ? 2 : 1
        for index in 0..<nodeCount { nodes.append(SimulatedNode(index: index)) }
        for index in 0..<writers {
            let first = index % nodeCount
            clients.append(SimulatedClient(index: index, room: Self.room,
                                           servers: (0..<nodeCount).map { (first + $0) % nodeCount },
                                           keyPrefix: "w\(index)", resume: "resume-writer-\(index)-\(seed)",
                                           inReader: Int.random(in: 0..<4, using: &random) == 0))
        }
        report.readers = clients.filter(\.inReader).count
    }

    /// The log of every node: nowhere, and only errors.
    static let quietLog: LogWriter = {
        do {
            return try LogWriter(destination: .file("/dev/null"), minimumLevel: .error)
        } catch {
            preconditionFailure("/dev/null cannot be opened for the simulation's log: \(error)")
        }
    }()

    /// Runs the simulation and checks what it left; the report says what
    /// failed, if anything, and what happened.
    package func run() -> DraftSimulationReport {
        for node in nodes { start(node) }
        for client in clients { connect(client) }
        for _ in 0..<steps {
            guard report.failures.isEmpty else { return report }
            step(quiet: false)
        }
        var quietSteps = 0
        while report.failures.isEmpty, step(quiet: true) {
            quietSteps += 1
            if quietSteps > 20_000 {
                fail("the run did not settle within 20,000 events after the failures stopped")
            }
        }
        if report.failures.isEmpty { check() }
        return report
    }

    /// One event; returns false when nothing was left to do.
    @discardableResult
    func step(quiet: Bool) -> Bool {
        let actions = enabled(quiet: quiet)
        let total = actions.reduce(0) { $0 + $1.weight }
        guard total > 0 else { return false }
        var pick = Int.random(in: 0..<total, using: &random)
        let action = actions.first { pick -= $0.weight; return pick < 0 }!.action
        clock.advance(by: .milliseconds(Int.random(in: 0...25, using: &random)))
        if tracing { trace.append("\(clock.now.inNanoseconds / 1_000_000) ms: \(action)") }
        report.events += 1
        perform(action)
        return true
    }

    func fail(_ problem: String) {
        report.failures.append(problem)
    }

    func start(_ node: SimulatedNode) {
        do {
            try node.start(configuration: configuration, store: store, log: log, network: network, clock: clock,
                           logger: logger)
        } catch {
            fail("node\(node.index) could not start: \(error)")
        }
    }

    /// The runtime's `connect()` for `client`.
    func connect(_ client: SimulatedClient) {
        let node = nodes[client.node]
        client.connect(on: network, incarnation: node.run?.incarnation ?? 0, at: clock.now)
        report.connections += 1
    }
}
