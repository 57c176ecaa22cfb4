import NeonCore
import NeonServer
import NeonTransportCore

/// One server node of the simulation: a run of the real server's gateway
/// and executor (`SyncServer.gateway`, `Executor`, its held commands) over
/// a simulated sequencer, or nothing while the node is down. A crash drops
/// the run with everything in its memory; a restart builds a new one from
/// what the store (one node) or the cluster's log kept, as `neonsyncd` does.
final class SimulatedNode {
    /// What a running node holds.
    struct Run {
        let incarnation: Int
        let executor: Executor
        let transport: SimulatedTransport
        let sequencer: Sequencer
    }

    /// The node's sequencer, of one node or of a cluster node.
    enum Sequencer {
        case local(SimulatedLocalSequencer)
        case cluster(SimulatedClusterSequencer)
    }

    let index: Int
    private(set) var run: Run?

    init(index: Int) {
        self.index = index
    }

    var isUp: Bool { run != nil }

    /// Starts a run: one node restores its rooms from `store`; a cluster
    /// node (`log`) starts empty and takes its rooms up from the log.
    func start(configuration: SyncServer.Configuration, store: InMemoryStore, log: SimulatedClusterLog?,
               network: SimulatedNetwork, clock: SimulatedClock, logger: LogWriter) throws(NeonError) {
        let incarnation: Int
        let sequencer: Sequencer
        let gateway: Gateway
        if let log {
            incarnation = log.register()
            sequencer = .cluster(SimulatedClusterSequencer(log: log))
            gateway = SyncServer.gateway(configuration, mode: .cluster(ClusterRooms(snapshotEvery: 1000)), stored: [],
                                         incarnation: incarnation)
        } else {
            incarnation = try store.countStart()
            sequencer = .local(SimulatedLocalSequencer(store: store, limits: configuration.limits))
            gateway = SyncServer.gateway(configuration, mode: .single(RestingRooms()), stored: try store.loadRooms(),
                                         incarnation: incarnation)
        }
        let roomSequencer: RoomSequencer = switch sequencer {
        case let .local(local): .committer(local)
        case let .cluster(cluster): .log(cluster)
        }
        run = Run(incarnation: incarnation,
                  executor: Executor(gateway: gateway, logger: logger, sequencer: roomSequencer, clock: clock.serverClock),
                  transport: SimulatedTransport(network: network, node: index, incarnation: incarnation),
                  sequencer: sequencer)
    }

    /// The process is killed: everything in its memory is gone.
    func crash() {
        run = nil
    }

    /// A transport event on the node's service thread.
    func handle(_ event: ServerEvent) {
        guard let run else { return }
        run.executor.handle(event, through: run.transport)
    }

    /// Something the sequencer hands the service thread.
    func apply(_ delivery: SequencerDelivery) {
        guard let run else { return }
        run.executor.apply(delivery, through: run.transport)
    }
}
