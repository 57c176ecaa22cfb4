import Glibc
import NeonClient
import NeonCore
import NeonTransport

/// `neonsync bench SCENARIO`: options → descriptor limit → one client context
/// of connections → the scenario → a table and a JSON line on standard
/// output.
enum BenchCommand {
    /// Runs the scenario and prints its table and JSON line; 1 when a
    /// connection failed along the way. The error it ends with otherwise:
    /// 2 for bad usage, 1 when the run could not finish.
    static func run(_ options: BenchOptions) throws(NeonError) -> Int32 {
        if options.tokenOnCommandLine {
            Client.standardError(TokenFile.commandLineWarning + "\n")
        }
        let servers = try ServerList.webSockets(options.server)
        let connections = options.scenario == .draft ? options.count + options.editors
            : options.scenario == .follow ? options.count + 1
            : options.scenario == .rooms ? options.rooms * options.perRoom
            : options.scenario == .churn ? options.ramp : options.count
        if let problem = raiseDescriptorLimit(to: connections + 64) {
            throw NeonError.usage(problem)
        }
        signal(SIGPIPE, SIG_IGN)
        for (flag, pids) in [("--server-pid", options.serverPIDs), ("--redis-pid", options.redisPIDs)] {
            if let pid = pids.first(where: { ServerSampler(pid: $0).residentKiB() == nil }) {
                throw NeonError.usage("no process \(pid) to sample (/proc/\(pid)/status is not readable); check \(flag)")
            }
        }
        let baselineRSS = options.serverPIDs.isEmpty ? nil
            : options.serverPIDs.compactMap { ServerSampler(pid: $0).residentKiB() }.reduce(0, +)
        let display = BenchDisplay(scenario: options.scenario.rawValue)
        let fleet: BenchFleet
        do {
            fleet = try BenchFleet(servers: servers, presenterFirst: options.scenario == .follow, peer: options.peer,
                                   servicePause: .microseconds(options.servicePause), display: display)
        } catch {
            throw NeonError(error)
        }
        let room = options.room ?? "bench-\(getpid())"
        let report: BenchReport
        do throws(NeonError) {
            switch options.scenario {
            case .follow, .coread:
                report = try ScrollBench(options: options, fleet: fleet, room: room, baselineRSS: baselineRSS).run()
            case .draft:
                report = try DraftBench(options: options, fleet: fleet, room: room, baselineRSS: baselineRSS).run()
            case .relay:
                report = try RelayBench(options: options, fleet: fleet, room: room, baselineRSS: baselineRSS).run()
            case .churn:
                report = try ChurnBench(options: options, fleet: fleet, room: room, baselineRSS: baselineRSS).run()
            case .rooms:
                report = try RoomsBench(options: options, fleet: fleet, room: room, baselineRSS: baselineRSS).run()
            case .connect:
                report = try ConnectBench(options: options, fleet: fleet, room: room, baselineRSS: baselineRSS).run()
            }
        } catch {
            fleet.stop()
            display.finish()
            throw error.at(options.scenario.rawValue).advising(question(options, servers))
        }
        display.finish()
        print("neonsync bench \(options.scenario.rawValue) → \(options.server) (\(options.peer.rawValue))")
        print(report.table)
        print(report.json)
        return fleet.problem == nil ? 0 : 1
    }

    /// What to check after a failed run. Every scenario but connect needs
    /// one room that all its connections share, so the URLs of a list must
    /// lead to the same rooms (nodes of one cluster, or one server).
    private static func question(_ options: BenchOptions, _ servers: ServerList<WebSocketURL>) -> String {
        guard servers.isFailover else {
            return "is the server at \(options.server) running and speaking \(options.peer.rawValue)?"
        }
        let shared = [.connect, .rooms, .churn].contains(options.scenario) ? ""
            : "; \(options.scenario.rawValue) puts every connection in one room, so every URL must reach the same rooms: nodes of one cluster (neonsyncd --redis), or one server's addresses"
        return "are the servers at \(servers.listed) running and speaking \(options.peer.rawValue)\(shared)?"
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
