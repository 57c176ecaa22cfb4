import NeonClient
import NeonCore
import NeonLock
import NeonTransport
import Synchronization

/// `bench follow` (one presenter scrolls, N followers) and `bench coread`
/// (N readers all scroll). Every scroll becomes a `progress` broadcast to
/// the whole room; a delivery's latency is the time from the sender's
/// scroll being queued to a receiver reading the progress it caused.
///
/// Matching: each progress is matched to the scroll that caused it by the
/// number its anchor carries (`ScrollNumbers`), and that scroll to the send
/// time this process recorded (one monotonic clock). A progress the server
/// skipped for a slow receiver (a newer one replaced it) is counted as
/// coalesced.
final class ScrollBench: FleetScenario {
    let setup: FleetSetup
    private let follow: Bool
    /// Connections: follow 1 + N (the presenter first), coread N.
    private let total: Int
    private let senders: Int
    private let blocks: Int
    private let document: DocumentInfo
    /// Send times per sender, appended by the pacer before each send.
    private let sendTimes: Locked<[[Int64]]>
    /// follow broadcasts (follow) or joined broadcasts (coread) seen by
    /// connection 0: the room is set up when all have arrived.
    private let setupSeen = Atomic<Int>(0)

    /// What the receivers have seen, taken by the thread that reads their messages.
    private let seen: Locked<Seen>
    /// Progress messages skipped for a slow receiver.
    private let coalesced = Atomic<Int>(0)

    private struct Seen {
        var welcomed: [Bool]
        var senderIndex: [Substring: Int] = [:]
        /// The scrolls matched, per receiver and sender.
        var numbers: ScrollNumbers
        /// Matched scrolls whose send time was not recorded (should stay 0).
        var mismatched = 0
    }

    init(_ options: BenchOptions, display: BenchDisplay) throws(NeonError) {
        follow = options.scenario == .follow
        total = follow ? options.count + 1 : options.count
        setup = try FleetSetup(options, display: display, connections: total, presenterFirst: follow)
        senders = follow ? 1 : options.count
        (document, blocks) = benchDocument(title: "Benchmark", sections: 60) { paragraph, section in
            "Paragraph \(paragraph) of section \(section): text that readers scroll through while the room watches where everyone is."
        }
        sendTimes = Locked(Array(repeating: [], count: senders))
        seen = Locked(Seen(welcomed: Array(repeating: false, count: total), numbers: ScrollNumbers(blocks: blocks, slots: total * senders)))
    }

    func measure() throws(NeonError) -> BenchReport {
        let room = setup.room
        let codec = WireCodec()
        let publish = String(decoding: codec.encode(ClientMessage.document(
            title: document.title, format: document.format, text: document.text)), as: UTF8.self)
        let handler: BenchFleet.Handler = { [self] index, connection, event in
            switch event {
            case .connected:
                let role: Role = follow && index == 0 ? .presenter : .reader
                connection.send(text: String(decoding: codec.encode(ClientMessage.hello(room: room, name: "b\(index)", role: role, token: options.token)), as: UTF8.self))
            case let .received(.text(text)):
                var text = text
                text.withUTF8 { receive(JSONScan($0), index: index, connection: connection, publish: publish) }
            default:
                break
            }
        }
        fleet.display.update(phase: "connecting", fraction: nil, detail: "publishing the document")
        // The presenter (follow) has a thread of its own, like its own process;
        // in coread every reader sends and reads, so all share one.
        try fleet.open(1, inFlight: 1, phase: "connecting", onSenders: follow, room: { [room] _ in room }, handler: handler)
        // Filling one room costs the square of its size: each joiner's
        // `joined` goes to everyone already there and its welcome lists them
        // all (docs/PERFORMANCE.md, "What a node carries"): 1,000 members fill
        // in seconds, 10,000 in minutes. The waits grow with it.
        let filling = Self.fillTimeout(members: total)
        let fillStarted = monotonicNanoseconds()
        try fleet.open(total - 1, inFlight: options.ramp, perSecond: 0, phase: "connecting", timeout: filling,
                       room: { [room] _ in room }, handler: handler)
        let expected = follow ? total - 1 : total - 1
        try fleet.wait("the room to settle (\(expected) \(follow ? "follows" : "joins"))", timeout: max(120, filling)) {
            setupSeen.load(ordering: .relaxed) >= expected
        }
        let fillSeconds = Double(monotonicNanoseconds() - fillStarted) / 1e9

        try fleet.settle()
        let connections = fleet.connections
        let measure = BenchMeasure(setup)
        let rate = follow ? options.rate : options.rate * Double(senders)
        let receivers = follow ? total - 1 : total
        let sent = fleet.pace(rate: rate, duration: options.duration, detail: { [fleet] in
            "\(BenchReport.groupedDigits(fleet.delivered.load(ordering: .relaxed))) delivered"
        }) { k in
            let sender = k % senders
            let sequence = k / senders
            let (block, offset) = ScrollNumbers.anchor(of: sequence, blocks: blocks)
            let top = sequence % 9_000
            let scroll = #"{"type":"scroll","top":\#(top),"viewport":40,"content":9040,"anchor":{"block":\#(block),"offset":\#(offset)}}"#
            sendTimes.withLock { $0[sender].append(monotonicNanoseconds()) }
            connections[sender].send(text: scroll)
        }
        let window = measure.endWindow()
        let expectedDeliveries = sent * receivers
        try? fleet.wait("the last deliveries", timeout: 5) {
            fleet.delivered.load(ordering: .relaxed) + coalesced.load(ordering: .relaxed) >= expectedDeliveries
        }
        let drained = measure.endDrain()
        fleet.stop()

        var report = measure.report(options: options, connections: total, window: window, drained: drained,
                                    broadcasts: sent)
        report.add("fill_s", .number(fillSeconds, decimals: 1), unit: "s")
        report.add("sent", .int(sent))
        report.add("expected", .int(expectedDeliveries))
        report.add("coalesced", .int(coalesced.load(ordering: .relaxed)))
        report.add("mismatched", .int(seen.withLock { $0.mismatched }))
        report.addLatency(LatencySummary(nanoseconds: fleet.latencies))
        return report
    }

    /// Seconds allowed for `members` to join one room: 60, or the square
    /// of the room's size over 150,000 when that is more (10,000 members:
    /// 667 s; this machine filled 3,000 in 57 s).
    static func fillTimeout(members: Int) -> Double {
        max(60, Double(members) * Double(members) / 150_000)
    }

    /// One text message on connection `index`, on its context's thread.
    private func receive(_ scan: JSONScan, index: Int, connection: ClientConnection, publish: String) {
        if scan.hasType(BenchWire.progress) {
            let isReceiver = !follow || index > 0
            guard isReceiver, let id = scan.string(BenchWire.idKey),
                  let block = scan.int(BenchWire.blockKey), let offset = scan.int(BenchWire.offsetKey) else { return }
            let matched: (sender: Int, sequence: Int, skipped: Int)? = seen.withLock { seen in
                guard let sender = seen.senderIndex[id] else { return nil }
                let slot = index * senders + sender
                let (sequence, skipped) = seen.numbers.match(block: block, offset: offset, slot: slot)
                return (sender, sequence, skipped)
            }
            guard case let (sender, sequence, skipped)? = matched else { return }
            if skipped > 0 { coalesced.add(skipped, ordering: .relaxed) }
            let sentAt = sendTimes.withLock { sequence < $0[sender].count ? $0[sender][sequence] : nil }
            if let sentAt { fleet.record(sentAt: sentAt) } else { seen.withLock { $0.mismatched += 1 } }
            return
        }
        if scan.hasType(BenchWire.welcome) {
            let first = seen.withLock { seen in
                guard !seen.welcomed[index] else { return false }
                seen.welcomed[index] = true
                if let you = scan.string(BenchWire.youKey), index < senders { seen.senderIndex[you] = index }
                return true
            }
            if first {
                if index == 0 {
                    connection.send(text: publish)
                } else {
                    if follow { connection.send(text: #"{"type":"follow","on":true}"#) }
                    fleet.markReady()
                }
                return
            }
        }
        if index == 0, scan.hasType(BenchWire.document) {
            fleet.markReady()
        } else if index == 0, scan.hasType(follow ? BenchWire.follow : BenchWire.joined) {
            setupSeen.add(1, ordering: .relaxed)
        } else if scan.hasType(BenchWire.error) {
            fleet.serverError(scan)
        }
    }
}
