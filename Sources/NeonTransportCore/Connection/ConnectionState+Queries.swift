/// What the engines ask of a connection's state besides its transitions.
extension ConnectionState {
    /// How the connection ended, for the closed event: the close frame
    /// this side sent, the too-slow close, or the peer's close; a close
    /// without a frame counts as the peer's doing.
    package var outcome: WebSocketClose {
        switch self {
        case .connecting, .open:
            WebSocketClose(code: nil, initiatedByPeer: true)
        case .closeRequested(let request):
            request.kind == .tooSlow
                ? WebSocketClose(code: request.code, reason: request.reason, initiatedByPeer: false)
                : WebSocketClose(code: nil, initiatedByPeer: true)
        case .closeSent(let close), .libraryFailing(let close), .failed(let close):
            close
        case .peerClosed(let outcome), .dropped(let outcome), .closed(let outcome):
            outcome
        }
    }

    /// Frames may still be queued: open, or still connecting without a
    /// close asked for.
    package var acceptsFrames: Bool {
        switch self {
        case .open, .connecting(nil): true
        default: false
        }
    }

    /// Messages that arrive are delivered, and the owner's timer fires.
    package var isOpen: Bool {
        if case .open = self { return true }
        return false
    }

    /// The handshake is done and lws has not closed the connection.
    package var isEstablished: Bool {
        switch self {
        case .connecting, .closed: false
        default: true
        }
    }

    /// A close frame waits for the queue to drain.
    package var closePending: Bool {
        if case .closeRequested = self { return true }
        return false
    }

    /// What a connection whose queue filled during a service round does
    /// when the round ends, outside any callback.
    package enum AfterRound: Equatable {
        /// Write the queued frames now (open, no ping waiting).
        case write
        /// Leave it to the WRITEABLE callback: a ping, a close or a
        /// failure goes first there.
        case waitForWritable
        /// Nothing: the peer's close came and lws answers it.
        case nothing
    }

    /// See ``AfterRound``.
    package var afterRound: AfterRound {
        switch self {
        case .open(pingDue: false): .write
        case .peerClosed, .closed: .nothing
        default: .waitForWritable
        }
    }

    /// No queued frame will be written any more: the queue may go.
    package var discardsQueue: Bool {
        switch self {
        case .closeSent, .libraryFailing, .failed, .peerClosed, .closed: true
        case .connecting, .open, .closeRequested, .dropped: false
        }
    }
}
