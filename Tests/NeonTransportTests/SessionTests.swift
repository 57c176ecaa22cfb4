@testable import NeonTransport
@testable import NeonTransportCore
import Testing

/// A connection's session (its state, its outbound queue and the close it
/// sends) without a socket: the parts of ``Session`` that need no lws call.
@Suite("Session: backlog, queue after a close, close reasons")
struct SessionTests {
    private static func peer(_ code: UInt16?, _ reason: String = "") -> WebSocketClose {
        WebSocketClose(code: code, reason: reason, initiatedByPeer: true)
    }

    @Test("A session whose backlog passes the limit drops it at once and closes with 4008; nothing more is queued")
    func sessionDropsBacklog() {
        let session = Session(id: ConnectionID(rawValue: 1), maxMessageSize: 100, maxBacklog: 10)
        session.enqueue(OutboundFrame(text: String(repeating: "x", count: 40)))
        #expect(session.queue.count == 1)
        session.enqueue(OutboundFrame(text: "y"))
        #expect(session.queue.isEmpty)
        #expect(session.closeOutcome.code == CloseCode.tooSlow && !session.closeOutcome.initiatedByPeer)
        session.enqueue(OutboundFrame(text: "z"))
        #expect(session.queue.isEmpty)
    }

    @Test("A session's queue goes when the peer's close arrives, and stays behind a close this side asked for")
    func sessionQueueAfterClose() {
        let asked = Session(id: ConnectionID(rawValue: 1), maxMessageSize: 100)
        asked.enqueue(OutboundFrame(text: "before"))
        asked.requestClose(code: 1000, reason: "bye")
        asked.enqueue(OutboundFrame(text: "after"))
        #expect(asked.queue.count == 1)
        #expect(asked.apply(.peerClosed(.valid(Self.peer(1000)))) == .echoPeerClose)
        #expect(asked.queue.isEmpty)
    }

    @Test("Close reasons are cut to 123 bytes at a character boundary")
    func closeReasonLimit() {
        #expect(Session.closeReasonBytes("short") == Array("short".utf8))
        let long = String(repeating: "é", count: 100)
        let cut = Session.closeReasonBytes(long)
        #expect(cut.count == 122)
        #expect(String(validating: cut, as: UTF8.self) == String(repeating: "é", count: 61))
    }
}
