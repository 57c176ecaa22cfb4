/// Where one WebSocket connection is in its life, and what each thing that
/// happens to it asks of libwebsockets: a pure state machine (RFC 6455
/// §5.5.1 and §7), tested without a socket.
///
/// | from | event | to | action |
/// |---|---|---|---|
/// | connecting | closeRequested | connecting (holding the close) | none |
/// | connecting | established | open, or closeRequested | requestWritable if anything waits |
/// | open | closeRequested | closeRequested | requestWritable |
/// | open | backlogOverflowed | closeRequested (tooSlow) | requestWritableOrCutOff |
/// | open | pingDue, then writable | open | requestWritable, then writePing |
/// | open, closeRequested | writable | (same) | writeQueue |
/// | closeRequested | queueFlushed | closeSent, or failed | sendClose, or failConnection |
/// | open, closeRequested | peer's valid close | peerClosed | echoPeerClose |
/// | open, closeRequested | peer's invalid close | failed | writeCloseAndDisconnect |
/// | closeSent, libraryFailing, failed, dropped | peer's close | (same) | disconnect |
/// | open, closeRequested (not tooSlow) | lws closing with its close | libraryFailing | none |
/// | open, closeRequested (not tooSlow) | lws closing without, peer listening | failed | writeCloseAndDisconnect |
/// | libraryFailing | writable | failed | endTCP |
/// | any but connecting, closed | idleTimedOut, writeFailed | dropped | disconnect |
/// | dropped | writable | dropped | disconnect |
/// | any | closed | closed | none |
///
/// Anything else changes nothing and asks for nothing: a second close
/// request, a ping on a closing connection, a second close from the peer.
///
/// Every state past `open` knows how the connection ended (``outcome``),
/// for the closed event. A ``Session`` holds one and performs the
/// ``Action`` each ``apply(_:)`` returns on its lws connection.
package enum ConnectionState: Equatable, Sendable {
    /// Client only: lws is connecting. Frames and a close asked for
    /// meanwhile wait for the handshake.
    case connecting(closeRequest: CloseRequest?)
    /// Messages flow both ways. `pingDue`: the idle sweep wants a ping
    /// sent at the next WRITEABLE.
    case open(pingDue: Bool)
    /// This side asked to close; the close frame follows the frames
    /// already queued. Nothing more is queued or delivered.
    case closeRequested(CloseRequest)
    /// This side's close frame went to lws, which sends it and waits for
    /// the peer's (RFC 6455 §7.1.2); the peer's close then ends TCP.
    case closeSent(WebSocketClose)
    /// libwebsockets failed the connection itself (a frame broke the
    /// protocol) and is sending its own close frame, with this payload;
    /// the WRITEABLE after that frame ends TCP.
    case libraryFailing(WebSocketClose)
    /// This side failed the connection (RFC 6455 §7.1.7): its close frame
    /// is written and TCP is ending without waiting for an answer.
    case failed(WebSocketClose)
    /// The peer's close came first; lws answers it with the same payload
    /// (§5.5.1) and closes TCP. `outcome` is the peer's close, or the
    /// too-slow close that was waiting to be sent.
    case peerClosed(outcome: WebSocketClose)
    /// Cut off: nothing more is written (not even a close frame) and lws
    /// closes TCP at the first chance.
    case dropped(outcome: WebSocketClose)
    /// lws closed the connection.
    case closed(outcome: WebSocketClose)

    /// A close this side asked for and has not sent yet.
    package struct CloseRequest: Equatable, Sendable {
        package var code: UInt16
        package var reason: String
        package var kind: Kind

        package enum Kind: Equatable, Sendable {
            /// Sent after the queue; lws then waits up to 5 s for the
            /// peer's close frame, as RFC 6455 §7.1.2 asks.
            case orderly
            /// Fails the connection (RFC 6455 §7.1.7): TCP ends right after
            /// the close frame, because a peer that broke the protocol (a
            /// message too big, text that is not UTF-8) may never send a
            /// close the parser can find.
            case failing
            /// The peer read too slowly and its backlog was dropped: the
            /// connection ended with this close (``CloseCode/tooSlow``)
            /// whether or not the peer ever reads the frame.
            case tooSlow
        }
    }

    /// Things that happen to a connection, as the engines see them.
    package enum Event: Equatable, Sendable {
        /// Client: the handshake completed. `framesWaiting`: frames were
        /// queued while connecting.
        case established(framesWaiting: Bool)
        /// The owner (or the transport, for a message it rejected) asks to
        /// close with `code` and `reason` after the queued frames. A code
        /// no endpoint may put in a close frame (RFC 6455 §7.4: 1005, 1006
        /// and 1015 are only for reporting, 1004 and the unassigned codes
        /// are reserved) is a mistake of the owner's: the close goes out
        /// as 1011 (internal error) with the same reason.
        case closeRequested(code: UInt16, reason: String, failing: Bool)
        /// More than the allowed backlog waited unsent; the queue is
        /// already dropped.
        case backlogOverflowed(reason: String)
        /// The idle sweep: nothing arrived for half the idle timeout.
        case pingDue
        /// The idle sweep: nothing arrived for the whole idle timeout.
        case idleTimedOut
        /// A write to the socket failed.
        case writeFailed
        /// A WRITEABLE callback, before the queue is written.
        case writable
        /// The same callback wrote every queued frame.
        case queueFlushed
        /// The peer's close frame (LWS_CALLBACK_WS_PEER_INITIATED_CLOSE).
        case peerClosed(PeerClose)
        /// lws is closing the connection (LWS_CALLBACK_WS_SERVER_DROP_PROTOCOL).
        case libraryClosing(LibraryClose)
        /// lws closed the connection (CLOSED, CLIENT_CLOSED or the client's
        /// end of connection).
        case closed
    }

    /// The peer's close frame as this side judges it.
    package enum PeerClose: Equatable, Sendable {
        /// A close the peer may send (see ``PeerClosePayload``).
        case valid(WebSocketClose)
        /// A close that breaks the protocol: the connection is failed with
        /// `code` and `reason`.
        case invalid(code: UInt16, reason: String)
    }

    /// How lws is closing a connection, when this side did not ask it to.
    package enum LibraryClose: Equatable, Sendable {
        /// Its frame parser failed the connection and it sends this close
        /// frame next.
        case sendingClose(WebSocketClose)
        /// It closes TCP without a close frame (a frame length it cannot
        /// parse). `peerListening`: the peer's end is still open and
        /// could read a close frame written now.
        case withoutClose(peerListening: Bool)
    }

    /// What the engine does with libwebsockets after a transition.
    package enum Action: Equatable, Sendable {
        /// Nothing.
        case none
        /// Ask for a WRITEABLE callback (`lws_callback_on_writable`).
        case requestWritable
        /// Ask for WRITEABLE, and have lws close TCP if the socket does not
        /// take the close frame within `seconds` (PENDING_TIMEOUT_CLOSE_SEND).
        case requestWritableOrCutOff(seconds: Int32)
        /// In WRITEABLE: write a ping, then the queued frames.
        case writePing
        /// In WRITEABLE: write the queued frames (then apply `queueFlushed`).
        case writeQueue
        /// Hand lws this close frame (`lws_close_reason`) and return -1:
        /// lws sends it and waits for the peer's close.
        case sendClose(code: UInt16, reason: String)
        /// Write this close frame now, then end TCP without waiting for
        /// the peer's answer (shut down writing, drain, close: ``Session/drop(_:)``).
        case failConnection(code: UInt16, reason: String)
        /// Write this close frame now and return -1: lws closes TCP at
        /// once, sending nothing of its own.
        case writeCloseAndDisconnect(code: UInt16, reason: String)
        /// Return 0 from PEER_INITIATED_CLOSE: lws answers with the same
        /// payload, then closes TCP.
        case echoPeerClose
        /// lws sent its own close frame: end TCP now (``Session/drop(_:)``).
        case endTCP
        /// Close TCP without a (further) close frame: return -1 from the
        /// connection's callback, or have lws kill it from elsewhere.
        case disconnect
    }

    /// Moves to the state `event` leads to and says what lws must do.
    package mutating func apply(_ event: Event) -> Action {
        switch event {
        case .established(let framesWaiting):
            return established(framesWaiting: framesWaiting)
        case .closeRequested(let code, let reason, let failing):
            let code = PeerClosePayload.mayBeSent(code) ? code : CloseCode.internalError
            return requestClose(CloseRequest(code: code, reason: reason, kind: failing ? .failing : .orderly))
        case .backlogOverflowed(let reason):
            let request = CloseRequest(code: CloseCode.tooSlow, reason: reason, kind: .tooSlow)
            switch self {
            case .open:
                self = .closeRequested(request)
                return .requestWritableOrCutOff(seconds: Self.abandonedCloseTimeout)
            case .connecting(nil):
                self = .connecting(closeRequest: request)
                return .none
            default:
                return .none
            }
        case .pingDue:
            guard self == .open(pingDue: false) else { return .none }
            self = .open(pingDue: true)
            return .requestWritable
        case .idleTimedOut, .writeFailed:
            switch self {
            case .connecting, .closed:
                return .none
            default:
                self = .dropped(outcome: outcome)
                return .disconnect
            }
        case .writable:
            return writable()
        case .queueFlushed:
            return queueFlushed()
        case .peerClosed(let close):
            return peerClosed(close)
        case .libraryClosing(let close):
            return libraryClosing(close)
        case .closed:
            self = .closed(outcome: outcome)
            return .none
        }
    }

    /// Seconds a connection whose backlog was dropped gets to take its
    /// close frame before lws closes TCP without one.
    package static let abandonedCloseTimeout: Int32 = 5

    private mutating func established(framesWaiting: Bool) -> Action {
        guard case .connecting(let request) = self else { return .none }
        if let request {
            self = .closeRequested(request)
            return .requestWritable
        }
        self = .open(pingDue: false)
        return framesWaiting ? .requestWritable : .none
    }

    /// The first close asked for wins; later ones are ignored.
    private mutating func requestClose(_ request: CloseRequest) -> Action {
        switch self {
        case .connecting(nil):
            self = .connecting(closeRequest: request)
            return .none
        case .open:
            self = .closeRequested(request)
            return .requestWritable
        default:
            return .none
        }
    }

    private mutating func writable() -> Action {
        switch self {
        case .open(pingDue: true):
            self = .open(pingDue: false)
            return .writePing
        case .open, .closeRequested:
            return .writeQueue
        case .libraryFailing(let close):
            self = .failed(close)
            return .endTCP
        case .dropped:
            return .disconnect
        case .connecting, .closeSent, .failed, .peerClosed, .closed:
            return .none
        }
    }

    private mutating func queueFlushed() -> Action {
        guard case .closeRequested(let request) = self else { return .none }
        let close = WebSocketClose(code: request.code, reason: request.reason, initiatedByPeer: false)
        if request.kind == .failing {
            self = .failed(close)
            return .failConnection(code: request.code, reason: request.reason)
        }
        self = .closeSent(close)
        return .sendClose(code: request.code, reason: request.reason)
    }

    /// A valid close is answered once with its own payload; an invalid one
    /// fails the connection. Once this side sent its close frame, the
    /// peer's is the answer: TCP closes.
    private mutating func peerClosed(_ close: PeerClose) -> Action {
        switch self {
        case .closeSent, .libraryFailing, .failed, .dropped:
            return .disconnect
        case .peerClosed, .closed:
            return .none
        case .connecting, .open, .closeRequested:
            switch close {
            case .valid(let peer):
                if case .closeRequested(let request) = self, request.kind == .tooSlow {
                    self = .peerClosed(outcome: outcome)
                } else {
                    self = .peerClosed(outcome: peer)
                }
                return .echoPeerClose
            case .invalid(let code, let reason):
                self = .failed(WebSocketClose(code: code, reason: reason, initiatedByPeer: false))
                return .writeCloseAndDisconnect(code: code, reason: reason)
            }
        }
    }

    /// Nothing to do when this side or the peer sent a close frame, or the
    /// connection was cut off or is too slow. Otherwise lws's parser failed
    /// it: with a close frame of its own, which this side records and ends
    /// TCP after (instead of lws waiting 5 s for an answer); or without
    /// one, when a peer that still listens gets 1002 written now.
    private mutating func libraryClosing(_ close: LibraryClose) -> Action {
        switch self {
        case .open:
            break
        case .closeRequested(let request) where request.kind != .tooSlow:
            break
        default:
            return .none
        }
        switch close {
        case .sendingClose(let close):
            self = .libraryFailing(close)
            return .none
        case .withoutClose(peerListening: true):
            let reason = "invalid frame length"
            self = .failed(WebSocketClose(code: CloseCode.protocolError, reason: reason, initiatedByPeer: false))
            return .writeCloseAndDisconnect(code: CloseCode.protocolError, reason: reason)
        case .withoutClose(peerListening: false):
            return .none
        }
    }
}
