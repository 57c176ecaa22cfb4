import NeonClient
import NeonCore
import NeonLock
import NeonTransportCore
import Synchronization

/// `bench draft`: E editors edit the shared draft, W readers watch. Each
/// editor sends an edit R times a second when it has none in flight (the
/// server acks before the next; a tick that finds one in flight is counted
/// as skipped), inserting two characters at the start and deleting them
/// again so the draft stays short. Every edit carries a key naming its
/// editor and number; a delivery's latency is the time from the edit being
/// queued to another member reading the `edit` broadcast with that key.
final class DraftBench: FleetScenario {
    /// One editor's view of the draft: its OT client and the draft's length
    /// in scalars. Locked: the pacer makes edits, the service thread applies
    /// the server's.
    struct Editor {
        var client = OTClient(revision: 0)
        var length = 0
        var welcomed = false
    }

    let setup: FleetSetup
    private let total: Int
    private let editors: Locked<[Editor]>
    private let sendTimes: Locked<[[Int64]]>
    private let joinsSeen = Atomic<Int>(0)
    private let skipped = Atomic<Int>(0)
    private let codec = WireCodec()

    init(_ options: BenchOptions, display: BenchDisplay) throws(NeonError) {
        total = options.editors + options.count
        setup = try FleetSetup(options, display: display, connections: total)
        editors = Locked(Array(repeating: Editor(), count: options.editors))
        sendTimes = Locked(Array(repeating: [], count: options.editors))
    }

    func measure() throws(NeonError) -> BenchReport {
        let room = setup.room
        let handler: BenchFleet.Handler = { [self] index, connection, event in
            switch event {
            case .connected:
                let name = index < options.editors ? "editor\(index)" : "watcher\(index)"
                connection.send(text: String(decoding: codec.encode(ClientMessage.hello(room: room, name: name, role: .reader, token: options.token)), as: UTF8.self))
            case let .received(.text(text)):
                receive(text, index: index)
            default:
                break
            }
        }
        // Connection 0 joins first and counts the others' joins: on a server
        // with several service threads, hellos sent together may be taken
        // in any order.
        try fleet.open(1, inFlight: 1, phase: "connecting", room: { [room] _ in room }, handler: handler)
        try fleet.open(total - 1, inFlight: options.ramp, phase: "connecting", room: { [room] _ in room }, handler: handler)
        try fleet.wait("the room to settle (\(total - 1) joins)", timeout: 120) {
            joinsSeen.load(ordering: .relaxed) >= total - 1
        }
        try fleet.settle()
        let connections = fleet.connections
        let measure = BenchMeasure(setup)
        let sent = Atomic<Int>(0)
        _ = fleet.pace(rate: options.rate * Double(options.editors), duration: options.duration, detail: { [fleet] in
            "\(BenchReport.groupedDigits(fleet.delivered.load(ordering: .relaxed))) delivered"
        }) { k in
            let index = k % options.editors
            let message = editors.withLock { editors -> ClientMessage? in
                var editor = editors[index]
                defer { editors[index] = editor }
                guard editor.welcomed, case .synchronized = editor.client.state else { return nil }
                var operation = TextOperation()
                if editor.length < 40 {
                    operation.insert("ab")
                    operation.retain(editor.length)
                } else {
                    operation.delete(2)
                    operation.retain(editor.length - 2)
                }
                guard let outgoing = try? editor.client.applyLocal(operation) else { return nil }
                editor.length = operation.targetLength
                let sequence = sendTimes.withLock { times in
                    times[index].append(monotonicNanoseconds())
                    return times[index].count - 1
                }
                return .edit(rev: editor.client.revision, ops: outgoing, key: "e\(index).\(sequence)")
            }
            guard let message else {
                skipped.add(1, ordering: .relaxed)
                return
            }
            connections[index].send(text: String(decoding: codec.encode(message), as: UTF8.self))
            sent.add(1, ordering: .relaxed)
        }
        let window = measure.endWindow()
        let expected = sent.load(ordering: .relaxed) * (total - 1)
        try? fleet.wait("the last deliveries", timeout: 5) {
            fleet.delivered.load(ordering: .relaxed) >= expected
        }
        let drained = measure.endDrain()
        fleet.stop()

        var report = measure.report(options: options, connections: total, window: window, drained: drained)
        report.add("editors", .int(options.editors))
        report.add("watchers", .int(options.count))
        report.add("sent", .int(sent.load(ordering: .relaxed)))
        report.add("skipped", .int(skipped.load(ordering: .relaxed)))
        report.add("expected", .int(expected))
        report.addLatency(LatencySummary(nanoseconds: fleet.latencies))
        return report
    }

    /// One text message on connection `index`, on the context's thread.
    private func receive(_ text: String, index: Int) {
        let now = monotonicNanoseconds()
        var text = text
        let (isEdit, key, isJoined, isError, isWelcome) = text.withUTF8 { bytes in
            let scan = JSONScan(bytes)
            let isEdit = scan.hasType(BenchWire.edit)
            return (isEdit, isEdit ? scan.string(BenchWire.keyKey) : nil, scan.hasType(BenchWire.joined),
                    scan.hasType(BenchWire.error), scan.hasType(BenchWire.welcome))
        }
        if isEdit, let key, let sentAt = sendTime(key) {
            fleet.record(sentAt: sentAt, now: now)
        }
        if index == 0, isJoined { joinsSeen.add(1, ordering: .relaxed) }
        if isError {
            fleet.serverErrors.add(1, ordering: .relaxed)
            fleet.note("the server sent an error: \(text)")
        }
        if index >= options.editors {
            if isWelcome { fleet.markReady() }
            return
        }
        guard isEdit || isWelcome || text.contains(#""type":"ack""#) else { return }
        guard let message = try? codec.decodeServer(Array(text.utf8)) else { return }
        editors.withLock { editors in
            var editor = editors[index]
            defer { editors[index] = editor }
            do {
                switch message.payload {
                case let .welcome(welcome):
                    editor.client = OTClient(revision: welcome.draft.rev)
                    editor.length = welcome.draft.text.unicodeScalars.count
                    editor.welcomed = true
                    fleet.markReady()
                case let .edit(edit):
                    editor.length = try editor.client.applyServer(edit.ops).targetLength
                case .ack:
                    _ = try editor.client.serverAck()
                default:
                    break
                }
            } catch {
                fleet.note("editor \(index) lost track of the draft: \(error)")
            }
        }
    }

    /// The send time of the edit with key `e<editor>.<sequence>`.
    private func sendTime(_ key: Substring) -> Int64? {
        guard key.first == "e", let dot = key.firstIndex(of: "."),
              let editor = Int(key[key.index(after: key.startIndex)..<dot]),
              let sequence = Int(key[key.index(after: dot)...]) else { return nil }
        return sendTimes.withLock { times in
            editor < times.count && sequence < times[editor].count ? times[editor][sequence] : nil
        }
    }
}
