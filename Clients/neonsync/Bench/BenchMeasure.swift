import NeonClient

/// The measured window of a run: when it started and ended, deliveries in
/// it, and (with --server-pid) the server's CPU time and memory, plus the
/// load generator's own CPU time, so a reader can see which side was busy.
struct BenchMeasure {
    struct Mark {
        var time: Int64
        var delivered: Int
        var serverCPU: Double?
        var ownCPU: Double
        /// With --redis-pid: the cluster's Redis CPU seconds so far.
        var redisCPU: Double? = nil
    }

    let fleet: BenchFleet
    let sampler: ServerSampler?
    let redisSampler: ServerSampler?
    let start: Mark
    /// The server's RSS before the run opened its connections.
    let baselineRSS: Int?

    init(fleet: BenchFleet, serverPID: Int32?, baselineRSS: Int?, redisPID: Int32? = nil) {
        self.fleet = fleet
        sampler = serverPID.map(ServerSampler.init)
        redisSampler = redisPID.map(ServerSampler.init)
        self.baselineRSS = baselineRSS
        start = Mark(time: monotonicNanoseconds(), delivered: fleet.delivered.load(ordering: .relaxed),
                     serverCPU: sampler?.cpuSeconds(), ownCPU: ServerSampler.ownCPUSeconds(),
                     redisCPU: redisSampler?.cpuSeconds())
    }

    func mark() -> Mark {
        Mark(time: monotonicNanoseconds(), delivered: fleet.delivered.load(ordering: .relaxed),
             serverCPU: sampler?.cpuSeconds(), ownCPU: ServerSampler.ownCPUSeconds(),
             redisCPU: redisSampler?.cpuSeconds())
    }

    /// The end of the sending window.
    func endWindow() -> Mark { mark() }

    /// After the last deliveries arrived (or the drain timed out).
    func endDrain() -> Mark { mark() }

    /// The figures every scenario reports. Rates are over the sending
    /// window; CPU covers window and drain, since the server still works
    /// on what was sent in the window.
    func report(options: BenchOptions, connections: Int, window: Mark, drained: Mark,
                broadcasts: Int? = nil) -> BenchReport {
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
        if let sampler {
            if let before = start.serverCPU, let after = drained.serverCPU {
                let cpu = after - before
                report.add("server_cpu_s", .number(cpu, decimals: 2), unit: "s")
                if delivered > 0 {
                    report.add("server_cpu_s_per_million", .number(cpu / Double(delivered) * 1e6, decimals: 2), unit: "s")
                }
            }
            if let rss = sampler.residentKiB() {
                report.add("server_rss_kib", .int(rss), unit: "KiB")
                if let baselineRSS, connections > 0 {
                    report.add("server_rss_baseline_kib", .int(baselineRSS), unit: "KiB")
                    report.add("server_rss_per_connection_kib",
                               .number(Double(rss - baselineRSS) / Double(connections), decimals: 2), unit: "KiB")
                }
            }
        }
        if let before = start.redisCPU, let after = drained.redisCPU {
            let cpu = after - before
            report.add("redis_cpu_s", .number(cpu, decimals: 3), unit: "s")
            if let broadcasts, broadcasts > 0 {
                report.add("redis_cpu_us_per_broadcast", .number(cpu / Double(broadcasts) * 1e6, decimals: 1), unit: "µs")
            }
        }
        return report
    }
}
