@testable import NeonTransportCore
import Testing

/// The close rules of RFC 6455 (§5.5.1, §7.1.1–§7.1.7, §7.4) as the
/// connection state machine applies them, without a socket: each test feeds
/// events and checks every action and the state it ends in.
@Suite("Connection state: RFC 6455 close rules without a socket")
struct ConnectionStateTests {
    private static let open = ConnectionState.open(pingDue: false)

    private static func local(_ code: UInt16, _ reason: String = "") -> WebSocketClose {
        WebSocketClose(code: code, reason: reason, initiatedByPeer: false)
    }

    private static func peer(_ code: UInt16?, _ reason: String = "") -> WebSocketClose {
        WebSocketClose(code: code, reason: reason, initiatedByPeer: true)
    }

    private static let withoutFrame = WebSocketClose(code: nil, initiatedByPeer: true)

    @Test("§7.1.2: a close this side starts follows the queued frames, then lws waits for the peer's close, which ends TCP")
    func localCloseWaitsForThePeer() {
        var state = Self.open
        #expect(state.apply(.closeRequested(code: 1000, reason: "bye", failing: false)) == .requestWritable)
        #expect(state.closePending)
        #expect(state.apply(.writable) == .writeQueue)
        #expect(state.apply(.queueFlushed) == .sendClose(code: 1000, reason: "bye"))
        #expect(state == .closeSent(Self.local(1000, "bye")))
        #expect(state.apply(.writable) == .none)
        #expect(state.apply(.peerClosed(.valid(Self.peer(1000)))) == .disconnect)
        #expect(state.apply(.closed) == .none)
        #expect(state == .closed(outcome: Self.local(1000, "bye")))
    }

    @Test("§5.5.1: a peer's close is answered once, with its own code, and reported as the peer's")
    func peerCloseIsEchoedOnce() {
        var state = Self.open
        #expect(state.apply(.peerClosed(.valid(Self.peer(1001, "away")))) == .echoPeerClose)
        #expect(state == .peerClosed(outcome: Self.peer(1001, "away")))
        #expect(state.apply(.peerClosed(.valid(Self.peer(1000)))) == .none)
        #expect(state.apply(.closeRequested(code: 1000, reason: "", failing: false)) == .none)
        #expect(state.apply(.writable) == .none)
        #expect(state.discardsQueue)
        #expect(state.outcome == Self.peer(1001, "away"))
    }

    @Test("§5.5.1: a peer's close that comes while this side's close waits in the queue is answered instead; the queue goes")
    func peerCloseWinsOverAPendingClose() {
        var state = Self.open
        _ = state.apply(.closeRequested(code: 4013, reason: "rejoin", failing: false))
        #expect(state.apply(.peerClosed(.valid(Self.peer(nil)))) == .echoPeerClose)
        #expect(state == .peerClosed(outcome: Self.peer(nil)))
        #expect(state.apply(.queueFlushed) == .none)
    }

    @Test("§5.5.1: no data frame after a close frame; nothing is queued or delivered once a close is asked for, sent or received")
    func noDataAfterClose() {
        let closing: [ConnectionState] = [
            .closeRequested(.init(code: 1000, reason: "", kind: .orderly)),
            .closeSent(Self.local(1000)),
            .libraryFailing(Self.local(1002)),
            .failed(Self.local(1009)),
            .peerClosed(outcome: Self.peer(1000)),
            .dropped(outcome: Self.withoutFrame),
            .closed(outcome: Self.withoutFrame),
        ]
        for state in closing {
            #expect(!state.acceptsFrames, "\(state)")
            #expect(!state.isOpen, "\(state)")
        }
        #expect(Self.open.acceptsFrames && Self.open.isOpen)
        var sent = ConnectionState.closeSent(Self.local(1000))
        #expect(sent.apply(.writable) == .none)
        #expect(sent.apply(.queueFlushed) == .none)
        #expect(sent.apply(.pingDue) == .none)
    }

    @Test("§7.1.2: a second close request is ignored; the first close's code and reason go out")
    func secondCloseRequestIsIgnored() {
        var state = Self.open
        _ = state.apply(.closeRequested(code: 1008, reason: "first", failing: false))
        #expect(state.apply(.closeRequested(code: 1001, reason: "second", failing: true)) == .none)
        #expect(state.apply(.queueFlushed) == .sendClose(code: 1008, reason: "first"))
        #expect(state.apply(.closeRequested(code: 1001, reason: "third", failing: false)) == .none)
        #expect(state == .closeSent(Self.local(1008, "first")))
    }

    @Test("§7.4: codes only for reporting (1005, 1006, 1015) or reserved never go on the wire; a close asked for with one goes out as 1011")
    func reportingCodesAreNotSent() {
        for code: UInt16 in [1005, 1006, 1015, 1004, 999, 2000, 5000] {
            var state = Self.open
            _ = state.apply(.closeRequested(code: code, reason: "why", failing: false))
            #expect(state.apply(.queueFlushed) == .sendClose(code: CloseCode.internalError, reason: "why"), "\(code)")
        }
        for code: UInt16 in [1000, 1001, 1002, 1007, 1008, 1009, 1011, 1012, 3000, 4008, 4013, 4999] {
            var state = Self.open
            _ = state.apply(.closeRequested(code: code, reason: "", failing: false))
            #expect(state.apply(.queueFlushed) == .sendClose(code: code, reason: ""), "\(code)")
        }
    }

    @Test("§7.4: a peer's close carrying 1005, 1006 or 1015 is not echoed: it fails the connection with 1002")
    func reportingCodesFromThePeerFail() {
        for code: UInt16 in [1005, 1006, 1015] {
            let payload = [UInt8(code >> 8), UInt8(code & 0xFF)]
            let judged = payload.withUnsafeBytes { PeerClosePayload($0) }
            guard case .invalid(let answer, let reason) = judged else {
                Issue.record("\(code) was accepted")
                continue
            }
            var state = Self.open
            #expect(state.apply(.peerClosed(.invalid(code: answer, reason: reason)))
                == .writeCloseAndDisconnect(code: CloseCode.protocolError, reason: reason))
            #expect(state.outcome == Self.local(CloseCode.protocolError, reason))
        }
    }

    @Test("§7.1.5: a connection that ends without a close frame reports no code (not 1005 or 1006), as the peer's doing")
    func noFrameReportsNoCode() {
        var state = Self.open
        #expect(state.apply(.closed) == .none)
        #expect(state.outcome == Self.withoutFrame)
        var empty = Self.open
        #expect(empty.apply(.peerClosed(.valid(Self.peer(nil)))) == .echoPeerClose)
        #expect(empty.outcome.code == nil)
    }

    @Test("§7.1.7: a failing close (a message too big, text not UTF-8) follows the queue, then TCP ends without waiting for an answer")
    func failingCloseEndsTCP() {
        var state = Self.open
        #expect(state.apply(.closeRequested(code: 1009, reason: "too big", failing: true)) == .requestWritable)
        #expect(state.apply(.writable) == .writeQueue)
        #expect(state.apply(.queueFlushed) == .failConnection(code: 1009, reason: "too big"))
        #expect(state == .failed(Self.local(1009, "too big")))
        #expect(state.apply(.writable) == .none)
        #expect(state.apply(.peerClosed(.valid(Self.peer(1009)))) == .disconnect)
    }

    @Test("§7.1.7: after lws fails a connection with its own close frame, the next WRITEABLE ends TCP and the close counts as this side's")
    func libraryFailureEndsTCP() {
        var state = Self.open
        #expect(state.apply(.libraryClosing(.sendingClose(Self.local(1002, "bad opcode")))) == .none)
        #expect(state == .libraryFailing(Self.local(1002, "bad opcode")))
        #expect(state.discardsQueue)
        #expect(state.apply(.writable) == .endTCP)
        #expect(state == .failed(Self.local(1002, "bad opcode")))
        #expect(state.apply(.writable) == .none)
    }

    @Test("§7.1.7: a frame length lws cannot parse gets 1002 written only when the peer still listens")
    func unparsableLengthGets1002() {
        var listening = Self.open
        #expect(listening.apply(.libraryClosing(.withoutClose(peerListening: true)))
            == .writeCloseAndDisconnect(code: CloseCode.protocolError, reason: "invalid frame length"))
        #expect(listening.outcome == Self.local(CloseCode.protocolError, "invalid frame length"))
        var gone = Self.open
        #expect(gone.apply(.libraryClosing(.withoutClose(peerListening: false))) == .none)
        #expect(gone == Self.open)
    }

    @Test("lws closing a connection after a close frame went either way, or after a cut-off, asks nothing of this side")
    func libraryClosingAfterACloseDoesNothing() {
        let states: [ConnectionState] = [
            .closeSent(Self.local(1000)), .failed(Self.local(1002)), .libraryFailing(Self.local(1002)),
            .peerClosed(outcome: Self.peer(1000)), .dropped(outcome: Self.withoutFrame),
            .closeRequested(.init(code: CloseCode.tooSlow, reason: "slow", kind: .tooSlow)),
        ]
        for start in states {
            var state = start
            #expect(state.apply(.libraryClosing(.sendingClose(Self.local(1002)))) == .none, "\(start)")
            #expect(state.apply(.libraryClosing(.withoutClose(peerListening: true))) == .none, "\(start)")
            #expect(state == start)
        }
    }

    @Test("A too-slow connection closes with 4008 and is cut off without a frame if the socket takes nothing within 5 s")
    func tooSlowIsCutOff() {
        var state = Self.open
        #expect(state.apply(.backlogOverflowed(reason: "too slow")) == .requestWritableOrCutOff(seconds: 5))
        #expect(!state.acceptsFrames)
        #expect(state.outcome == Self.local(CloseCode.tooSlow, "too slow"))
        #expect(state.apply(.closeRequested(code: 1000, reason: "", failing: false)) == .none)
        var silent = state
        #expect(silent.apply(.idleTimedOut) == .disconnect)
        #expect(silent == .dropped(outcome: Self.local(CloseCode.tooSlow, "too slow")))
        #expect(silent.apply(.writable) == .disconnect)
        var answered = state
        #expect(answered.apply(.peerClosed(.valid(Self.peer(1000)))) == .echoPeerClose)
        #expect(answered.outcome == Self.local(CloseCode.tooSlow, "too slow"))
        #expect(state.apply(.queueFlushed) == .sendClose(code: CloseCode.tooSlow, reason: "too slow"))
    }

    @Test("A connection silent for the whole idle timeout, or whose write failed, is dropped without a frame, keeping how it was closing")
    func droppedWithoutFrame() {
        var idle = Self.open
        #expect(idle.apply(.idleTimedOut) == .disconnect)
        #expect(idle == .dropped(outcome: Self.withoutFrame))
        #expect(idle.apply(.writable) == .disconnect)
        #expect(idle.apply(.peerClosed(.valid(Self.peer(1000)))) == .disconnect)
        #expect(idle.apply(.peerClosed(.invalid(code: 1002, reason: "x"))) == .disconnect)
        #expect(idle.apply(.closeRequested(code: 1000, reason: "", failing: false)) == .none)
        #expect(idle.apply(.pingDue) == .none)
        #expect(idle.apply(.idleTimedOut) == .disconnect)
        #expect(!idle.discardsQueue)

        var sent = ConnectionState.closeSent(Self.local(1001, "stopping"))
        #expect(sent.apply(.writeFailed) == .disconnect)
        #expect(sent.outcome == Self.local(1001, "stopping"))
    }

    @Test("A ping is due only on an open connection, once, and goes out before the queue")
    func pingDue() {
        var state = Self.open
        #expect(state.apply(.pingDue) == .requestWritable)
        #expect(state.apply(.pingDue) == .none)
        #expect(state.afterRound == .waitForWritable)
        #expect(state.apply(.writable) == .writePing)
        #expect(state == Self.open)
        #expect(state.afterRound == .write)
        var closing = Self.open
        _ = closing.apply(.pingDue)
        _ = closing.apply(.closeRequested(code: 1000, reason: "", failing: false))
        #expect(closing.apply(.writable) == .writeQueue)
        #expect(closing.apply(.pingDue) == .none)
    }

    @Test("Client: frames and a close asked for while connecting go out once the handshake completes")
    func connectingHoldsFramesAndClose() {
        var idle = ConnectionState.connecting(closeRequest: nil)
        #expect(idle.acceptsFrames && !idle.isEstablished)
        #expect(idle.apply(.established(framesWaiting: false)) == .none)
        #expect(idle == Self.open)
        var queued = ConnectionState.connecting(closeRequest: nil)
        #expect(queued.apply(.established(framesWaiting: true)) == .requestWritable)
        var closing = ConnectionState.connecting(closeRequest: nil)
        #expect(closing.apply(.closeRequested(code: 1000, reason: "bye", failing: false)) == .none)
        #expect(!closing.acceptsFrames)
        #expect(closing.apply(.closeRequested(code: 1001, reason: "later", failing: false)) == .none)
        #expect(closing.apply(.established(framesWaiting: false)) == .requestWritable)
        #expect(closing.apply(.queueFlushed) == .sendClose(code: 1000, reason: "bye"))
    }

    @Test("After a round, only an open connection with no ping due writes at once; a closing one waits for WRITEABLE, a peer-closed one does nothing")
    func afterRound() {
        #expect(Self.open.afterRound == .write)
        #expect(ConnectionState.closeRequested(.init(code: 1000, reason: "", kind: .orderly)).afterRound == .waitForWritable)
        #expect(ConnectionState.closeSent(Self.local(1000)).afterRound == .waitForWritable)
        #expect(ConnectionState.dropped(outcome: Self.withoutFrame).afterRound == .waitForWritable)
        #expect(ConnectionState.peerClosed(outcome: Self.peer(1000)).afterRound == .nothing)
    }
}
