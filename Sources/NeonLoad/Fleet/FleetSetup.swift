import Glibc
import NeonClient
import NeonCore
import NeonTransport

/// A scenario over WebSocket connections: it starts from a `FleetSetup`,
/// and running it is its measurement, through the setup, which stops the
/// fleet and adds what to check when it fails.
protocol FleetScenario: LoadScenario {
    var setup: FleetSetup { get }
    /// Drives the load through the fleet and measures it.
    func measure() throws(NeonError) -> BenchReport
}

extension FleetScenario {
    func run() throws(NeonError) -> LoadResult {
        try setup.measure(measure)
    }

    var options: BenchOptions { setup.options }
    var fleet: BenchFleet { setup.fleet }
}

/// What every scenario over WebSocket connections starts with: its options,
/// its fleet of connections, the room it names, and the servers' memory
/// before anything connected. Made before the scenario sends anything:
/// the server list is checked, the descriptor limit raised to what the
/// scenario opens and every --server-pid and --redis-pid found.
struct FleetSetup: Sendable {
    let options: BenchOptions
    let fleet: BenchFleet
    /// The room, or the prefix of the rooms, the connections join.
    let room: String
    /// The servers' RSS (summed) before the run opened its connections.
    let baselineRSS: Int?

    /// `connections`: how many the scenario holds open at once at most.
    init(_ options: BenchOptions, display: BenchDisplay, connections: Int, presenterFirst: Bool = false) throws(NeonError) {
        let servers = try ServerList.parse(options.server) { entry in try WebSocketURL(parsing: entry) }
        if let problem = Self.raiseDescriptorLimit(to: connections + 64) {
            throw NeonError.usage(problem)
        }
        signal(SIGPIPE, SIG_IGN)
        for (flag, pids) in [("--server-pid", options.serverPIDs), ("--redis-pid", options.redisPIDs)] {
            if let pid = pids.first(where: { ServerSampler(pid: $0).residentKiB() == nil }) {
                throw NeonError.usage("no process \(pid) to sample (/proc/\(pid)/status is not readable); check \(flag)")
            }
        }
        baselineRSS = options.serverPIDs.isEmpty ? nil
            : options.serverPIDs.compactMap { ServerSampler(pid: $0).residentKiB() }.reduce(0, +)
        do {
            fleet = try BenchFleet(servers: servers, presenterFirst: presenterFirst, peer: options.peer,
                                   servicePause: .microseconds(options.servicePause), display: display)
        } catch {
            throw NeonError(error)
        }
        self.options = options
        room = options.room ?? "bench-\(getpid())"
    }

    /// Runs the scenario's measurement `body`. When it fails, the fleet
    /// stops and the error says what to check.
    func measure(_ body: () throws(NeonError) -> BenchReport) throws(NeonError) -> LoadResult {
        do {
            let report = try body()
            return LoadResult(target: "\(options.server) (\(options.peer.rawValue))", report: report, problem: fleet.problem)
        } catch {
            fleet.stop()
            throw error.advising(question)
        }
    }

    /// What to check after a failed run. Every scenario but connect, rooms
    /// and churn needs one room that all its connections share, so the URLs
    /// of a list must lead to the same rooms (nodes of one cluster, or one
    /// server).
    private var question: String {
        let servers = fleet.servers
        guard servers.isFailover else {
            return "is the server at \(options.server) running and speaking \(options.peer.rawValue)?"
        }
        let scenario = options.scenario
        let shared = [.connect, .rooms, .churn].contains(scenario) ? ""
            : "; \(scenario.rawValue) puts every connection in one room, so every URL must reach the same rooms: nodes of one cluster (neonsyncd --redis), or one server's addresses"
        let listed = servers.all.map(\.description).joined(separator: ", ")
        return "are the servers at \(listed) running and speaking \(options.peer.rawValue)\(shared)?"
    }

    /// Raises this process's soft limit on open descriptors to what
    /// `needed` connections take (up to the hard limit); a sentence when
    /// the hard limit is too low.
    private static func raiseDescriptorLimit(to needed: Int) -> String? {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0 else { return nil }
        if limit.rlim_cur >= rlim_t(needed) { return nil }
        guard limit.rlim_max >= rlim_t(needed) else {
            return "\(needed) descriptors are needed but the hard limit is \(limit.rlim_max); raise it (ulimit -Hn, or LimitNOFILE for a service) or use fewer connections"
        }
        limit.rlim_cur = limit.rlim_max
        if setrlimit(RLIMIT_NOFILE_VALUE, &limit) != 0 {
            return "cannot raise the descriptor limit to \(limit.rlim_max): \(String(cString: strerror(errno)))"
        }
        return nil
    }

    private static let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
}
