import NeonClient
import NeonCore
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
/// `@unchecked Sendable`: its state is touched by the fleet's handler on
/// the client context's service thread, and read by the main thread only
/// after the fleet stopped (which joins that thread), as in `BenchFleet`.
final class RoomsBench: @unchecked Sendable {
    private let options: BenchOptions
    private let fleet: BenchFleet
    private let prefix: String
    private let rooms: Int
    private let perRoom: Int
    private let blocks: Int
    private let document: DocumentInfo
    private let baselineRSS: Int?
    /// Send times per sender (every connection), appended before each send.
    private let sendTimes: Mutex<[[Int64]]>
    /// Rooms whose first member has its document back.
    private let published = Atomic<Int>(0)
    private let measuring = Atomic<Bool>(false)
    /// Scrolls sent, and scrolls whose sender read their progress back.
    private let sent = Atomic<Int>(0)
    private let completed = Atomic<Int>(0)
    private let coalesced = Atomic<Int>(0)

    // Service thread only.
    private var senderIndex: [Substring: Int] = [:]
    private var welcomed: [Bool]
    /// The last scroll number matched, per receiver and sender in its room.
    private var received: [Int]
    /// --rate 0: each room's next turn (its member turn % P sends next);
    /// taken by the main thread for the first turns, then the service thread.
    private let turns: Mutex<[Int]>
    private var mismatched = 0

    /// A scroll's anchor moves one block every `rowsPerBlock` events.
    private static let rowsPerBlock = 10

    init(options: BenchOptions, fleet: BenchFleet, room: String, baselineRSS: Int?) {
        self.options = options
        self.fleet = fleet
        self.baselineRSS = baselineRSS
        prefix = room
        rooms = options.rooms
        perRoom = options.perRoom
        (document, blocks) = benchDocument(title: "Rooms", sections: 10) { paragraph, section in
            "Paragraph \(paragraph) of section \(section), which the room's readers scroll through."
        }
        let total = options.rooms * options.perRoom
        sendTimes = Mutex(Array(repeating: [], count: total))
        welcomed = Array(repeating: false, count: total)
        received = Array(repeating: -1, count: total * options.perRoom)
        turns = Mutex(Array(repeating: 0, count: options.rooms))
    }

    private func name(ofRoom room: Int) -> String { "\(prefix)-\(room)" }

    func run() throws(NeonError) -> BenchReport {
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
        let measure = BenchMeasure(fleet: fleet, serverPIDs: options.serverPIDs, baselineRSS: baselineRSS,
                                   redisPIDs: options.redisPIDs)
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
        report.add("mismatched", .int(mismatched))
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
        let block = (sequence / Self.rowsPerBlock) % blocks
        let offset = sequence % Self.rowsPerBlock
        let top = sequence % 1_000
        let text = #"{"type":"scroll","top":\#(top),"viewport":20,"content":1020,"anchor":{"block":\#(block),"offset":\#(offset)}}"#
        sendTimes.withLock { $0[sender].append(monotonicNanoseconds()) }
        sent.add(1, ordering: .relaxed)
        connection.send(text: text)
    }

    /// One text message on connection `index`; service thread.
    private func receive(_ scan: JSONScan, index: Int, connection: ClientConnection, publish: String) {
        if scan.hasType(BenchWire.progress) {
            guard let id = scan.string(BenchWire.idKey), let sender = senderIndex[id],
                  let block = scan.int(BenchWire.blockKey), let offset = scan.int(BenchWire.offsetKey) else { return }
            let slot = index * perRoom + sender % perRoom
            let cycle = blocks * Self.rowsPerBlock
            let remainder = block * Self.rowsPerBlock + offset
            let last = received[slot]
            let sequence = last + 1 + ((remainder - (last + 1)) % cycle + cycle) % cycle
            received[slot] = sequence
            if sequence > last + 1 { coalesced.add(sequence - last - 1, ordering: .relaxed) }
            let sentAt = sendTimes.withLock { sequence < $0[sender].count ? $0[sender][sequence] : nil }
            if let sentAt { fleet.record(sentAt: sentAt) } else { mismatched += 1 }
            if sender == index {
                completed.add(1, ordering: .relaxed)
                if options.rate == 0, measuring.load(ordering: .relaxed) {
                    nextTurn(of: index / perRoom, connections: fleet.connections)
                }
            }
            return
        }
        if !welcomed[index], scan.hasType(BenchWire.welcome) {
            welcomed[index] = true
            if let you = scan.string(BenchWire.youKey) { senderIndex[you] = index }
            if index % perRoom == 0 {
                connection.send(text: publish)
            } else {
                fleet.markReady()
            }
            return
        }
        if index % perRoom == 0, scan.hasType(BenchWire.document) {
            guard welcomed[index] else { return }
            published.add(1, ordering: .relaxed)
            fleet.markReady()
        } else if scan.hasType(BenchWire.error) {
            fleet.serverError(scan)
        }
    }

}
