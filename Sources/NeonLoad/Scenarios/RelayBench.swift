import NeonClient
import NeonCore
import NeonLock
import NeonTransport
import Synchronization

/// `bench relay`: N connections in one room (one mirror instance), S of
/// them sending B-byte messages that the server passes to all N, senders
/// included. The same bytes go to every server: for neonsyncd the frame is
/// a `relay` message padded to B bytes, for the others the payload alone,
/// padded to B. Each payload carries its send time, so every delivery's
/// latency is measured without any lookup.
///
/// With --rate 0 each sender keeps --window messages in flight: it sends
/// the next when its own copy of an earlier one comes back, which measures
/// the most a server delivers without letting its queues grow without end.
final class RelayBench: FleetScenario {
    let setup: FleetSetup
    private let measuring = Atomic<Bool>(false)
    /// Connection 0's joined broadcasts (neonsync): the room is set up when
    /// it has seen everyone after it join.
    private let joinsSeen = Atomic<Int>(0)
    private let sentTotal = Atomic<Int>(0)

    /// Each sender's next message number, past its window (--rate 0).
    private let nextSequence: Locked<[Int]>
    /// Messages that were neither a relayed payload nor the room's setup.
    private let malformed = Atomic<Int>(0)

    init(_ options: BenchOptions, display: BenchDisplay) throws(NeonError) {
        setup = try FleetSetup(options, display: display, connections: options.count)
        nextSequence = Locked(Array(repeating: 0, count: options.senders))
    }

    func measure() throws(NeonError) -> BenchReport {
        let neonsync = options.peer == .neonsync
        let hello = String(decoding: WireCodec().encode(ClientMessage.hello(room: setup.room, name: "relay", role: .reader, token: options.token)), as: UTF8.self)
        let handler: BenchFleet.Handler = { [self] index, connection, event in
            switch event {
            case .connected:
                if neonsync { connection.send(text: hello) } else { fleet.markReady() }
            case let .received(message):
                switch message {
                case let .text(text):
                    var text = text
                    text.withUTF8 { receive($0, index: index, connection: connection, neonsync: neonsync) }
                case let .binary(bytes):
                    bytes.withUnsafeBufferPointer { receive($0, index: index, connection: connection, neonsync: neonsync) }
                }
            default:
                break
            }
        }
        // Connection 0 joins first and counts the others' joins: on a server
        // with several service threads, hellos sent together may be taken
        // in any order.
        try fleet.open(1, inFlight: 1, phase: "connecting", handler: handler)
        try fleet.open(options.count - 1, inFlight: options.ramp, phase: "connecting", handler: handler)
        if neonsync {
            try fleet.wait("the room to settle (\(options.count - 1) joins)", timeout: 120) {
                joinsSeen.load(ordering: .relaxed) >= options.count - 1
            }
        }
        try fleet.settle()
        let connections = fleet.connections
        let measure = BenchMeasure(setup)
        measuring.store(true, ordering: .relaxed)
        let detail = { [fleet] in "\(BenchReport.groupedDigits(fleet.delivered.load(ordering: .relaxed))) delivered" }
        if options.rate > 0 {
            _ = fleet.pace(rate: options.rate, duration: options.duration, detail: detail) { k in
                let sender = k % options.senders
                connections[sender].send(text: frame(sender: sender, sequence: k / options.senders, neonsync: neonsync))
                sentTotal.add(1, ordering: .relaxed)
            }
        } else {
            for sender in 0..<options.senders {
                for sequence in 0..<options.window {
                    connections[sender].send(text: frame(sender: sender, sequence: sequence, neonsync: neonsync))
                    sentTotal.add(1, ordering: .relaxed)
                }
            }
            _ = fleet.pace(rate: 0, duration: options.duration, detail: detail) { _ in }
        }
        measuring.store(false, ordering: .relaxed)
        let window = measure.endWindow()
        try? fleet.wait("the last deliveries", timeout: 5) {
            fleet.delivered.load(ordering: .relaxed) >= sentTotal.load(ordering: .relaxed) * options.count
        }
        let drained = measure.endDrain()
        fleet.stop()

        let sent = sentTotal.load(ordering: .relaxed)
        var report = measure.report(options: options, connections: options.count, window: window, drained: drained)
        report.add("senders", .int(options.senders))
        report.add("size_bytes", .int(options.size), unit: "B")
        report.add("rate", .number(options.rate, decimals: 0), unit: options.rate > 0 ? "msg/s" : "(0: saturate)")
        report.add("window", .int(options.window))
        report.add("sent", .int(sent))
        report.add("expected", .int(sent * options.count))
        report.add("malformed", .int(malformed.load(ordering: .relaxed)))
        report.addLatency(LatencySummary(nanoseconds: fleet.latencies))
        return report
    }

    private func frame(sender: Int, sequence: Int, neonsync: Bool) -> String {
        let payload = RelayPayload(sender: sender, sequence: sequence, sentAt: monotonicNanoseconds())
        return neonsync ? payload.neonSyncFrame(size: options.size) : payload.text(size: options.size)
    }

    /// One message on connection `index`, on the context's thread.
    private func receive(_ bytes: UnsafeBufferPointer<UInt8>, index: Int, connection: ClientConnection, neonsync: Bool) {
        let now = monotonicNanoseconds()
        let payload = neonsync ? RelayPayload.parseNeonSync(bytes) : RelayPayload.parse(bytes)
        guard let payload else {
            if neonsync { settle(JSONScan(bytes), index: index) } else { malformed.add(1, ordering: .relaxed) }
            return
        }
        fleet.record(sentAt: payload.sentAt, now: now)
        guard payload.sender == index, options.rate == 0, measuring.load(ordering: .relaxed) else { return }
        // A sender's own message came back: one fewer in flight, send the next.
        let sequence = nextSequence.withLock { next in
            defer { next[index] += 1 }
            return next[index] + options.window
        }
        connection.send(text: frame(sender: index, sequence: sequence, neonsync: neonsync))
        sentTotal.add(1, ordering: .relaxed)
    }

    /// A message of the room's setup (neonsync).
    private func settle(_ scan: JSONScan, index: Int) {
        if scan.hasType(BenchWire.welcome) {
            fleet.markReady()
        } else if index == 0, scan.hasType(BenchWire.joined) {
            joinsSeen.add(1, ordering: .relaxed)
        } else if scan.hasType(BenchWire.error) {
            fleet.serverError(scan)
        } else if !scan.hasType(BenchWire.joined) {
            malformed.add(1, ordering: .relaxed)
        }
    }
}
