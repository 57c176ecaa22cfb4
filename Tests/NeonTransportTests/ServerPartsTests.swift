@testable import NeonTransport
@testable import NeonTransportCore
import Testing

/// The server engine's parts that decide without a socket: the connection
/// table, the idle sweep's timing, the handshake gate, the HTTP body rule.
@Suite("Server engine parts without sockets")
struct ServerPartsTests {
    /// A pointer-sized slot like lws's per-session data.
    private final class Slot {
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<UnsafeMutableRawPointer?>.size,
                                                      alignment: MemoryLayout<UnsafeMutableRawPointer?>.alignment)
        init() {
            pointer.storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
        }

        deinit {
            pointer.deallocate()
        }
    }

    private static func keyed(_ key: String) -> OutboundFrame {
        Array(key.utf8).withUnsafeBytes { OutboundFrame(kind: .text, copying: $0, coalescingKey: key) }
    }

    @Test("Connection ids count up from 1; a session is found by its id and by its lws slot until it closes")
    func tableBookkeeping() {
        var table = ConnectionTable()
        let first = Slot(), second = Slot()
        let a = table.open(in: first.pointer, maxMessageSize: 100, maxBacklog: 1000)
        let b = table.open(in: second.pointer, maxMessageSize: 100, maxBacklog: 1000)
        #expect(a.id == ConnectionID(rawValue: 1) && b.id == ConnectionID(rawValue: 2))
        #expect(a.maxBacklog == 1000 && a.state == .open(pingDue: false))
        #expect(table[a.id] === a && table.session(in: first.pointer) === a && table.session(in: second.pointer) === b)
        #expect(table.close(slot: first.pointer) === a)
        #expect(table[a.id] == nil && table.session(in: first.pointer) == nil && table.all.count == 1)
        #expect(table.close(slot: first.pointer) == nil)
        #expect(table.close(slot: second.pointer) === b)
        #expect(table.isEmpty)
        let third = Slot()
        #expect(table.open(in: third.pointer, maxMessageSize: 100, maxBacklog: 1000).id == ConnectionID(rawValue: 3))
        _ = table.close(slot: third.pointer)
    }

    @Test("Frames coalesced on a connection still count after it closes")
    func tableKeepsCoalescedCount() {
        var table = ConnectionTable()
        let open = Slot(), closing = Slot()
        let a = table.open(in: open.pointer, maxMessageSize: 100, maxBacklog: 1000)
        let b = table.open(in: closing.pointer, maxMessageSize: 100, maxBacklog: 1000)
        for _ in 0..<3 { a.enqueue(Self.keyed("position")) }
        for _ in 0..<5 { b.enqueue(Self.keyed("position")) }
        #expect(table.coalescedFrames == 2 + 4)
        _ = table.close(slot: closing.pointer)
        #expect(table.coalescedFrames == 6)
        _ = table.close(slot: open.pointer)
        #expect(table.coalescedFrames == 6)
    }

    @Test("An HTTP request's slot holds no session: the table neither finds nor frees it")
    func tableLeavesOtherSlotsAlone() {
        let table = ConnectionTable()
        let slot = Slot()
        RetainedSlot.store(PendingHTTPResponse(token: 1, method: "GET"), in: slot.pointer)
        #expect(table.session(in: slot.pointer) == nil)
        #expect(table.session(in: nil) == nil)
        #expect(RetainedSlot<PendingHTTPResponse>.take(slot.pointer) != nil)
    }

    @Test("The idle sweep runs four times per timeout, as often as for 2 s under 2 s, and not at all without a timeout")
    func idlePeriod() {
        #expect(IdleSweep(idleTimeout: .seconds(60)).period == .seconds(15))
        #expect(IdleSweep(idleTimeout: .seconds(1)).period == .milliseconds(500))
        #expect(IdleSweep(idleTimeout: nil).period == nil)
        #expect(IdleSweep(idleTimeout: .zero).period == nil)
    }

    @Test("A connection silent for more than half the idle timeout gets a ping; for more than all of it, it is cut off")
    func idleVerdicts() {
        var sweep = IdleSweep(idleTimeout: .seconds(8))
        var verdicts: [IdleSweep.Verdict] = []
        for _ in 1...5 {
            sweep.advance()
            verdicts.append(sweep.verdict(heardAt: 0))
        }
        #expect(verdicts == [.none, .none, .ping, .ping, .cutOff])
        #expect(sweep.verdict(heardAt: sweep.tick) == .none)
        #expect(sweep.verdict(heardAt: sweep.tick - 2) == .none)
    }

    private static let valid = HandshakeGate.Request(host: "localhost", key: "dGhlIHNhbXBsZSBub25jZQ==", version: "13", origin: nil)

    @Test("An upgrade RFC 6455 refuses gets 400 or 426 first, even while stopping, and the delegate is not asked")
    func gateRefusesMalformedFirst() {
        let gate = HandshakeGate(origins: .noBrowsers)
        var request = Self.valid
        request.version = "8"
        request.origin = "https://evil.example"
        var asked = false
        let decision = gate.decide(request, stopping: true) { asked = true; return "no" }
        #expect(decision == .malformed(HandshakeRefusal.check(host: "localhost", key: Self.valid.key, version: "8")!))
        guard case .malformed(let refusal) = decision else { return }
        #expect(refusal.status == 426)
        #expect(!asked)
    }

    @Test("A stopping server, or one whose delegate gives a reason, answers 503 with retry-after before looking at Origin")
    func gateAnswers503() {
        let gate = HandshakeGate(origins: .noBrowsers)
        var request = Self.valid
        request.origin = "https://evil.example"
        var asked = false
        #expect(gate.decide(request, stopping: true) { asked = true; return nil }
            == .unavailable(HandshakeRefusal(status: 503, phrase: "Service Unavailable", headers: ["retry-after: 1"],
                                             body: "this server is stopping; connect again\n")))
        #expect(!asked)
        #expect(gate.decide(request, stopping: false) { "Redis is unreachable" }
            == .unavailable(HandshakeGate.unavailable("Redis is unreachable")))
    }

    @Test("An Origin the policy does not allow is refused 403 and reported; no Origin, or an allowed one, proceeds")
    func gateChecksOrigin() {
        let gate = HandshakeGate(origins: OriginPolicy(allowing: ["https://app.example"]))
        var request = Self.valid
        #expect(gate.decide(request, stopping: false) { nil } == .proceed)
        request.origin = "https://APP.example:443/"
        #expect(gate.decide(request, stopping: false) { nil } == .proceed)
        request.origin = "https://evil.example"
        #expect(gate.decide(request, stopping: false) { nil } == .originRefused(origin: "https://evil.example"))
        request.origin = ""
        #expect(gate.decide(request, stopping: false) { nil } == .originRefused(origin: ""))
    }

    @Test("HEAD and empty responses get headers only; other responses their body")
    func httpBody() {
        #expect(HTTPResponder.body(of: .text("ok\n"), method: "HEAD") == nil)
        #expect(HTTPResponder.body(of: HTTPResponse(status: 204, contentType: "text/plain", body: []), method: "GET") == nil)
        #expect(HTTPResponder.body(of: .text("ok\n"), method: "GET")?.withPayload { Array($0) } == Array("ok\n".utf8))
    }
}
