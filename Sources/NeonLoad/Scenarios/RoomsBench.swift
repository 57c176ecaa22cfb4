import NeonClient
import NeonCore
import NeonLock
import NeonTransport
import Synchronization

/// `bench rooms`: many small rooms at once, N rooms of P readers, every
/// event a scroll by one member that the server broadcasts to its room
/// (the member included): the load of co-reading, where events, not
/// deliveries, are what a cluster's Redis carries. With --rate R the
/// scrolls go out at R a second in all, dealt over the rooms in turn and
/// over each room's members in turn; with --rate 0 each room keeps
/// --window scrolls in flight (its next one leaves when the sender reads
/// the progress of an earlier one), which finds the most events a second
/// the servers and their store carry. With a --server list each room is
/// placed whole on one server (room k on server k mod count), as a proxy
/// that routes on the room does.
///
/// Latency: a scroll queued → each member reads the progress it caused,
/// matched as in `ScrollBench` (the scroll's number rides in its anchor).
final class RoomsBench: FleetScenario {
    let setup: FleetSetup
    private let rooms: Int
    private let perRoom: Int
    private let blocks: Int
    private let document: DocumentInfo
    /// Send times per sender (every connection), appended before each send.
    private let sendTimes: Locked<[[Int64]]>
    /// Rooms whose first member has its document back.
    private let published = Atomic<Int>(0)
    private let measuring = Atomic<Bool>(false)
    /// Scrolls sent, and scrolls whose sender read their progress back.
    private let sent = Atomic<Int>(0)
    private let completed = Atomic<Int>(0)
    private let coalesced = Atomic<Int>(0)

    /// What the members have seen, taken by the thread that reads their messages.
    private let seen: Locked<Seen>
    /// --rate 0: each room's next turn (its member turn % P sends next);
    /// taken by the main thread for the first turns, then the context's.
    private let turns: Locked<[Int]>

    private struct Seen {
        var senderIndex: [Substring: Int] = [:]
        var welcomed: [Bool]
        /// The scrolls matched, per receiver and sender in its room.
        var numbers: ScrollNumbers
        /// Matched scrolls whose send time was not recorded (should stay 0).
        var mismatched = 0
    }

    init(_ options: BenchOptions, display: BenchDisplay) throws(NeonError) {
        setup = try FleetSetup(options, display: display, connections: options.rooms * options.perRoom)
        rooms = options.rooms
        perRoom = options.perRoom
        (document, blocks) = benchDocument(title: "Rooms", sections: 10) { paragraph, section in
            "Paragraph \(paragraph) of section \(section), which the room's readers scroll through."
        }
        let total = options.rooms * options.perRoom
        sendTimes = Locked(Array(repeating: [], count: total))
        seen = Locked(Seen(welcomed: Array(repeating: false, count: total),
                          numbers: ScrollNumbers(blocks: blocks, slots: total * options.perRoom)))
        turns = Locked(Array(repeating: 0, count: options.rooms))
    }

    private func name(ofRoom room: Int) -> String { "\(setup.room)-\(room)" }

    func measure() throws(NeonError) -> BenchReport {
        let codec = WireCodec()
        let publish = String(decoding: codec.encode(ClientMessage.document(
            title: document.title, format: document.format, text: document.text)), as: UTF8.self)
        let handler: BenchFleet.Handler = { [self] index, connection, event in
            switch event {
            case .connected:
                let hello = ClientMessage.hello(room: name(ofRoom: index / perRoom), name: "b\(index)", role: .reader,
                                                token: options.token)
                connection.send(text: String(decoding: codec.encode(hello), as: UTF8.self))
            case let .received(.text(text)):
                var text = text
                text.withUTF8 { receive(JSONScan($0), index: index, connection: connection, publish: publish) }
            default:
                break
            }
        }
        let total = rooms * perRoom
        try fleet.open(total, inFlight: options.ramp, phase: "connecting", timeout: max(60, Double(total) / 100),
                       server: { [perRoom, fleet] index in (index / perRoom) % fleet.servers.count },
                       room: { [self] index in name(ofRoom: index / perRoom) }, handler: handler)
        try fleet.wait("every room's document (\(rooms))", timeout: 120) {
            published.load(ordering: .relaxed) >= rooms
        }
        try fleet.settle()
        let connections = fleet.connections
        let measure = BenchMeasure(setup)
        let startCompleted = completed.load(ordering: .relaxed)
        measuring.store(true, ordering: .relaxed)
        let detail = { [self] in
            "\(BenchReport.groupedDigits(completed.load(ordering: .relaxed) - startCompleted)) events"
        }
        if options.rate > 0 {
            _ = fleet.pace(rate: options.rate, duration: options.duration, detail: detail) { k in
                let room = k % rooms
                let member = (k / rooms) % perRoom
                scroll(from: room * perRoom + member, sequence: k / (rooms * perRoom), on: connections[room * perRoom + member])
            }
        } else {
            // Each room's first `window` turns; the rest follow as they come back.
            for room in 0..<rooms {
                for _ in 0..<options.window { nextTurn(of: room, connections: connections) }
            }
            _ = fleet.pace(rate: 0, duration: options.duration, detail: detail) { _ in }
        }
        measuring.store(false, ordering: .relaxed)
        let window = measure.endWindow()
        let events = completed.load(ordering: .relaxed) - startCompleted
        try? fleet.wait("the last deliveries", timeout: 5) {
            fleet.delivered.load(ordering: .relaxed) + coalesced.load(ordering: .relaxed)
                >= sent.load(ordering: .relaxed) * perRoom
        }
        let drained = measure.endDrain()
        fleet.stop()

        let seconds = Double(window.time - measure.start.time) / 1e9
        var report = measure.report(options: options, connections: total, window: window, drained: drained,
                                    broadcasts: completed.load(ordering: .relaxed) - startCompleted, per: "event")
        report.add("rooms", .int(rooms))
        report.add("per_room", .int(perRoom))
        report.add("rate", .number(options.rate, decimals: 0), unit: options.rate > 0 ? "events/s" : "(0: saturate)")
        if options.rate == 0 { report.add("window", .int(options.window)) }
        report.add("events", .int(events))
        report.add("events_per_s", .number(Double(events) / max(seconds, 1e-9), decimals: 0), unit: "events/s")
        report.add("sent", .int(sent.load(ordering: .relaxed)))
        report.add("expected", .int(sent.load(ordering: .relaxed) * perRoom))
        report.add("coalesced", .int(coalesced.load(ordering: .relaxed)))
        report.add("mismatched", .int(seen.withLock { $0.mismatched }))
        report.addLatency(LatencySummary(nanoseconds: fleet.latencies))
        return report
    }

    /// Sends `room`'s next turn (--rate 0): its members scroll in turn.
    private func nextTurn(of room: Int, connections: [ClientConnection]) {
        let turn = turns.withLock { turns in
            defer { turns[room] += 1 }
            return turns[room]
        }
        let sender = room * perRoom + turn % perRoom
        scroll(from: sender, sequence: turn / perRoom, on: connections[sender])
    }

    private func scroll(from sender: Int, sequence: Int, on connection: ClientConnection) {
        let (block, offset) = ScrollNumbers.anchor(of: sequence, blocks: blocks)
        let top = sequence % 1_000
        let text = #"{"type":"scroll","top":\#(top),"viewport":20,"content":1020,"anchor":{"block":\#(block),"offset":\#(offset)}}"#
        sendTimes.withLock { $0[sender].append(monotonicNanoseconds()) }
        sent.add(1, ordering: .relaxed)
        connection.send(text: text)
    }

    /// One text message on connection `index`, on the context's thread.
    private func receive(_ scan: JSONScan, index: Int, connection: ClientConnection, publish: String) {
        if scan.hasType(BenchWire.progress) {
            guard let id = scan.string(BenchWire.idKey),
                  let block = scan.int(BenchWire.blockKey), let offset = scan.int(BenchWire.offsetKey) else { return }
            let matched: (sender: Int, sequence: Int, skipped: Int)? = seen.withLock { seen in
                guard let sender = seen.senderIndex[id] else { return nil }
                let slot = index * perRoom + sender % perRoom
                let (sequence, skipped) = seen.numbers.match(block: block, offset: offset, slot: slot)
                return (sender, sequence, skipped)
            }
            guard case let (sender, sequence, skipped)? = matched else { return }
            if skipped > 0 { coalesced.add(skipped, ordering: .relaxed) }
            let sentAt = sendTimes.withLock { sequence < $0[sender].count ? $0[sender][sequence] : nil }
            if let sentAt { fleet.record(sentAt: sentAt) } else { seen.withLock { $0.mismatched += 1 } }
            if sender == index {
                completed.add(1, ordering: .relaxed)
                if options.rate == 0, measuring.load(ordering: .relaxed) {
                    nextTurn(of: index / perRoom, connections: fleet.connections)
                }
            }
            return
        }
        if scan.hasType(BenchWire.welcome) {
            let first = seen.withLock { seen in
                guard !seen.welcomed[index] else { return false }
                seen.welcomed[index] = true
                if let you = scan.string(BenchWire.youKey) { seen.senderIndex[you] = index }
                return true
            }
            if first {
                if index % perRoom == 0 {
                    connection.send(text: publish)
                } else {
                    fleet.markReady()
                }
                return
            }
        }
        if index % perRoom == 0, scan.hasType(BenchWire.document) {
            guard seen.withLock({ $0.welcomed[index] }) else { return }
            published.add(1, ordering: .relaxed)
            fleet.markReady()
        } else if scan.hasType(BenchWire.error) {
            fleet.serverError(scan)
        }
    }
}
