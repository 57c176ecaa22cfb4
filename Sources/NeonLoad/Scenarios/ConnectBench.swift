import Glibc
import NeonClient
import NeonCore
import NeonLock
import NeonTransportCore

/// `bench connect`: opens N connections (for neonsyncd each joins a room
/// as a reader, P to a room), then holds them idle for the duration.
/// Latency: a connection's connect call → its welcome (or, for other
/// servers, the completed handshake). With --server-pid it reports the
/// server's memory per connection above its RSS before the run, and its
/// CPU while the connections sit idle.
final class ConnectBench: FleetScenario {
    let setup: FleetSetup
    private let openedAt = Locked<[Int64]>([])
    private let codec = WireCodec()

    init(_ options: BenchOptions, display: BenchDisplay) throws(NeonError) {
        setup = try FleetSetup(options, display: display, connections: options.count)
    }

    func measure() throws(NeonError) -> BenchReport {
        let room = setup.room
        let neonsync = options.peer == .neonsync
        let handler: BenchFleet.Handler = { [self] index, connection, event in
            switch event {
            case .connected:
                if neonsync {
                    let hello = ClientMessage.hello(room: "\(room)-\(index / options.perRoom)", name: "c\(index)", role: .reader,
                                                    token: options.token)
                    connection.send(text: String(decoding: codec.encode(hello), as: UTF8.self))
                } else {
                    ready(index)
                }
            case let .received(.text(text)) where neonsync:
                var text = text
                if text.withUTF8({ JSONScan($0).hasType(BenchWire.welcome) }) { ready(index) }
            default:
                break
            }
        }
        let started = monotonicNanoseconds()
        try fleet.open(options.count, inFlight: options.ramp, perSecond: options.rate, phase: "connecting",
                       timeout: max(60, Double(options.count) / 100), willOpen: { _ in
            openedAt.withLock { $0.append(monotonicNanoseconds()) }
        }, room: { [room, options] index in options.peer == .neonsync ? "\(room)-\(index / options.perRoom)" : nil },
        handler: handler)
        let ramp = Double(monotonicNanoseconds() - started) / 1e9
        try fleet.settle()
        let measure = BenchMeasure(setup)
        _ = fleet.pace(rate: 0, duration: options.duration, detail: { [fleet] in
            "holding \(BenchReport.groupedDigits(fleet.ready.load(ordering: .relaxed) - fleet.dropped.load(ordering: .relaxed))) connections"
        }) { _ in }
        let window = measure.endWindow()
        var report = measure.report(options: options, connections: options.count, window: window, drained: window)
        fleet.stop()

        let held = options.count - fleet.dropped.load(ordering: .relaxed)
        report.add("held", .int(held))
        report.add("ramp_s", .number(ramp, decimals: 2), unit: "s")
        report.add("connects_per_s", .number(Double(options.count) / max(ramp, 1e-9), decimals: 0), unit: "conn/s")
        if let before = measure.start.serverCPU, let after = window.serverCPU {
            let seconds = Double(window.time - measure.start.time) / 1e9
            report.add("server_idle_cpu_pct", .number((after.reduce(0, +) - before.reduce(0, +)) / max(seconds, 1e-9) * 100, decimals: 2), unit: "%")
        }
        report.addLatency(LatencySummary(nanoseconds: fleet.latencies))
        return report
    }

    /// Connection `index` is ready (on the context's thread); its latency is from its connect call.
    private func ready(_ index: Int) {
        if let opened = openedAt.withLock({ index < $0.count ? $0[index] : nil }) {
            fleet.sample(monotonicNanoseconds() - opened)
        }
        fleet.markReady()
    }
}
