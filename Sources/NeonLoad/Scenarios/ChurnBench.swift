import Glibc
import NeonClient
import NeonCore
import NeonLock
import NeonTransportCore
import Synchronization

/// `bench churn`: rooms that come and go. N rooms, one after another, each
/// joined by one reader who leaves as soon as it is welcomed; --ramp of
/// them at once. Every room is new to the server, so it takes each one
/// up and, after its --room-release, lets it go: the run shows whether a
/// server's memory and held rooms go back down once the rooms are gone
/// (with --server-pid its RSS before and after), and how many rooms a
/// second it takes up. Latency: connect call → welcome.
final class ChurnBench: FleetScenario {
    let setup: FleetSetup
    private let opened = Atomic<Int>(0)
    private let welcomed = Atomic<Int>(0)
    private let finished = Atomic<Int>(0)
    private let failures = Atomic<Int>(0)
    private let problem = Locked<String?>(nil)
    private let codec = WireCodec()

    init(_ options: BenchOptions, display: BenchDisplay) throws(NeonError) {
        setup = try FleetSetup(options, display: display, connections: options.ramp)
    }

    func measure() throws(NeonError) -> BenchReport {
        let measure = BenchMeasure(setup)
        let total = options.rooms
        let started = monotonicNanoseconds()
        var last: Int64 = 0
        while finished.load(ordering: .relaxed) < total {
            if let problem = problem.withLock({ $0 }) { throw NeonError(problem) }
            if fleet.display.interrupted { throw NeonError("interrupted after \(finished.load(ordering: .relaxed)) rooms") }
            var started = false
            while opened.load(ordering: .relaxed) < total,
                  opened.load(ordering: .relaxed) - finished.load(ordering: .relaxed) < options.ramp {
                try open(opened.load(ordering: .relaxed))
                started = true
            }
            let now = monotonicNanoseconds()
            if now - last > 100_000_000 {
                last = now
                let done = finished.load(ordering: .relaxed)
                fleet.display.update(phase: "churning", fraction: Double(done) / Double(total),
                                     detail: "\(BenchReport.groupedDigits(done))/\(BenchReport.groupedDigits(total)) rooms")
            }
            if !started { usleep(2_000) }
        }
        let window = measure.endWindow()
        fleet.stop()
        let seconds = Double(monotonicNanoseconds() - started) / 1e9
        var report = measure.report(options: options, connections: total, window: window, drained: window)
        report.add("rooms", .int(total))
        report.add("welcomed", .int(welcomed.load(ordering: .relaxed)))
        report.add("failures", .int(failures.load(ordering: .relaxed)))
        report.add("rooms_per_s", .number(Double(total) / max(seconds, 1e-9), decimals: 0), unit: "rooms/s")
        report.addLatency(LatencySummary(nanoseconds: fleet.latencies))
        return report
    }

    /// Opens connection `index`, which joins room `index` and leaves once welcomed.
    private func open(_ index: Int) throws(NeonError) {
        let room = "\(setup.room)-\(index)"
        let url = BenchFleet.url(fleet.servers.all[index % fleet.servers.count], naming: room)
        let hello = String(decoding: codec.encode(ClientMessage.hello(room: room, name: "c\(index)", role: .reader,
                                                                       token: options.token)), as: UTF8.self)
        let openedAt = monotonicNanoseconds()
        opened.add(1, ordering: .relaxed)
        do {
            _ = try fleet.context.connect(to: url, subprotocol: "neonsync.v1") { [self] connection, event in
                switch event {
                case .connected:
                    connection.send(text: hello)
                case let .received(.text(text)):
                    var text = text
                    let (welcome, error) = text.withUTF8 { (JSONScan($0).hasType(BenchWire.welcome), JSONScan($0).hasType(BenchWire.error)) }
                    if welcome {
                        fleet.sample(monotonicNanoseconds() - openedAt)
                        welcomed.add(1, ordering: .relaxed)
                        connection.close()
                    } else if error {
                        fail("room \(room) was refused: \(text)")
                        connection.close()
                    }
                case .closed:
                    finished.add(1, ordering: .relaxed)
                case let .failed(reason):
                    fail("connection \(index) could not open: \(reason)")
                    finished.add(1, ordering: .relaxed)
                default:
                    break
                }
            }
        } catch {
            throw NeonError(error).at("cannot open connection \(index)")
        }
    }

    private func fail(_ reason: String) {
        failures.add(1, ordering: .relaxed)
        problem.withLock { if $0 == nil { $0 = reason } }
    }
}
