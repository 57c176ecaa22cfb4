/// The measured window of a run: when it started and ended, deliveries in
/// it, and (with --server-pid) the servers' CPU time and memory, (with
/// --redis-pid) the cluster's redis-servers' CPU time, plus the load
/// generator's own CPU time, so a reader can see which side was busy.
struct BenchMeasure {
    struct Mark {
        var time: Int64
        var delivered: Int
        /// With --server-pid: each server's CPU seconds so far.
        var serverCPU: [Double]?
        var ownCPU: Double
        /// With --redis-pid: each Redis's CPU seconds so far.
        var redisCPU: [Double]? = nil
    }

    let fleet: BenchFleet
    let samplers: [ServerSampler]
    let redisSamplers: [ServerSampler]
    let start: Mark
    /// The servers' RSS (summed) before the run opened its connections.
    let baselineRSS: Int?

    /// Starts measuring now: the first mark.
    init(_ setup: FleetSetup) {
        fleet = setup.fleet
        samplers = setup.options.serverPIDs.map(ServerSampler.init)
        redisSamplers = setup.options.redisPIDs.map(ServerSampler.init)
        baselineRSS = setup.baselineRSS
        start = Self.mark(fleet, samplers, redisSamplers)
    }

    func mark() -> Mark { Self.mark(fleet, samplers, redisSamplers) }

    private static func mark(_ fleet: BenchFleet, _ samplers: [ServerSampler], _ redisSamplers: [ServerSampler]) -> Mark {
        Mark(time: monotonicNanoseconds(), delivered: fleet.delivered.load(ordering: .relaxed),
             serverCPU: cpu(samplers), ownCPU: ServerSampler.ownCPUSeconds(), redisCPU: cpu(redisSamplers))
    }

    /// Each process's CPU seconds; nil when none is sampled or one is gone.
    private static func cpu(_ samplers: [ServerSampler]) -> [Double]? {
        guard !samplers.isEmpty else { return nil }
        let seconds = samplers.compactMap { $0.cpuSeconds() }
        return seconds.count == samplers.count ? seconds : nil
    }

    /// The end of the sending window.
    func endWindow() -> Mark { mark() }

    /// After the last deliveries arrived (or the drain timed out).
    func endDrain() -> Mark { mark() }

    /// The figures every scenario reports. Rates are over the sending
    /// window; CPU covers window and drain, since the server still works
    /// on what was sent in the window. `broadcasts` (named `per` in the
    /// figures' keys) divides Redis's CPU time.
    func report(options: BenchOptions, connections: Int, window: Mark, drained: Mark,
                broadcasts: Int? = nil, per: String = "broadcast") -> BenchReport {
        var report = BenchReport()
        let seconds = Double(window.time - start.time) / 1e9
        let delivered = drained.delivered - start.delivered
        report.add("scenario", .text(options.scenario.rawValue))
        report.add("peer", .text(options.peer.rawValue))
        report.add("server", .text(options.server))
        report.add("connections", .int(connections))
        if fleet.servers.isFailover {
            for (offset, count) in fleet.perServer.enumerated() {
                report.add("server_\(offset + 1)_connections", .int(count))
            }
        }
        report.add("duration_s", .number(seconds, decimals: 2), unit: "s")
        report.add("delivered", .int(delivered))
        report.add("msgs_per_s", .number(Double(window.delivered - start.delivered) / max(seconds, 1e-9), decimals: 0), unit: "msg/s")
        report.add("dropped_connections", .int(fleet.dropped.load(ordering: .relaxed)))
        report.add("server_errors", .int(fleet.serverErrors.load(ordering: .relaxed)))
        report.add("client_cpu_s", .number(drained.ownCPU - start.ownCPU, decimals: 2), unit: "s")
        if let load = ServerSampler.loadAverage() {
            report.add("load_average", .number(load, decimals: 2), unit: "(1 min, whole machine)")
        }
        if !samplers.isEmpty {
            if let before = start.serverCPU, let after = drained.serverCPU {
                let each = zip(before, after).map { $1 - $0 }
                let cpu = each.reduce(0, +)
                report.add("server_cpu_s", .number(cpu, decimals: 2), unit: "s")
                if each.count > 1 {
                    for (offset, seconds) in each.enumerated() {
                        report.add("server_\(offset + 1)_cpu_s", .number(seconds, decimals: 2), unit: "s")
                    }
                }
                if delivered > 0 {
                    report.add("server_cpu_s_per_million", .number(cpu / Double(delivered) * 1e6, decimals: 2), unit: "s")
                }
            }
            let resident = samplers.compactMap { $0.residentKiB() }
            if resident.count == samplers.count {
                let rss = resident.reduce(0, +)
                report.add("server_rss_kib", .int(rss), unit: "KiB")
                if let baselineRSS, connections > 0 {
                    report.add("server_rss_baseline_kib", .int(baselineRSS), unit: "KiB")
                    report.add("server_rss_per_connection_kib",
                               .number(Double(rss - baselineRSS) / Double(connections), decimals: 2), unit: "KiB")
                }
            }
        }
        if let before = start.redisCPU, let after = drained.redisCPU {
            let each = zip(before, after).map { $1 - $0 }
            let cpu = each.reduce(0, +)
            report.add("redis_cpu_s", .number(cpu, decimals: 3), unit: "s")
            if each.count > 1 {
                for (offset, seconds) in each.enumerated() {
                    report.add("redis_\(offset + 1)_cpu_s", .number(seconds, decimals: 3), unit: "s")
                }
            }
            if let broadcasts, broadcasts > 0 {
                report.add("redis_cpu_us_per_\(per)", .number(cpu / Double(broadcasts) * 1e6, decimals: 1), unit: "µs")
            }
        }
        return report
    }
}
