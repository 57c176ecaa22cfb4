import CLibWebSockets
import Glibc
import NeonTransportCore

/// Failing a connection the way RFC 6455 §7.1.7 asks: a close frame with
/// the reason, then TCP dropped at once, reading nothing more.
///
/// libwebsockets 4.1.6 fails a connection itself when a frame breaks the
/// protocol (reserved bits, opcodes, continuation order: lib/roles/ws/
/// ops-ws.c, lws_ws_rx_sm, lines 150–239), but then sends its close frame
/// and waits up to 5 s for the peer to answer it (ops-ws.c:1514 and 1277)
/// while parsing whatever the peer sends meanwhile. And it answers a close
/// frame that breaks the rules with the same payload (ops-ws.c:483–511).
/// The callbacks here close those gaps; docs/RELIABILITY.md has the cases.
extension ServerEngine {
    /// LWS_CALLBACK_WS_PEER_INITIATED_CLOSE: a valid close is recorded and
    /// lws echoes it, then drops TCP; an invalid one (1-byte payload, a code
    /// a peer may not send, a reason that is not UTF-8) fails the connection
    /// with 1002 or 1007 instead. After this side failed the connection
    /// (the socket is draining, see ``Session/drop(_:)``) any close is the
    /// peer's answer: TCP closes now.
    func peerClosed(_ session: Session, _ wsi: OpaquePointer, payload: UnsafeRawBufferPointer) -> Int32 {
        let close: ConnectionState.PeerClose = switch PeerClosePayload(payload) {
        case .valid(let code, let reason): .valid(WebSocketClose(code: code, reason: reason, initiatedByPeer: true))
        case .invalid(let code, let reason): .invalid(code: code, reason: reason)
        }
        return session.perform(session.apply(.peerClosed(close)), wsi)
    }

    /// LWS_CALLBACK_WS_SERVER_DROP_PROTOCOL: lws is closing the connection
    /// (lib/core-net/close.c:421, before it sends a close frame of its own
    /// at close.c:440, or at close.c:481 when it sends none). Nothing to do
    /// when this side sent its close frame or the peer did, or the
    /// transport cut the connection off. Otherwise lws's frame parser
    /// failed it:
    ///
    /// - with a close reason (lws_get_close_length > 0): lws sends that
    ///   close frame next and leaves POLLOUT armed (it returns
    ///   LWS_HP_RET_BAIL_OK, ops-ws.c:1281), so a WRITEABLE callback follows
    ///   the frame; that callback ends TCP (``Session/drop(_:)``) instead of
    ///   lws waiting 5 s for an answer;
    /// - without one (a 64-bit length with the top bit set, ops-ws.c:297;
    ///   a control frame longer than 125 bytes, ops-ws.c:746): lws would
    ///   drop TCP without a close frame, which RFC 6455 allows but does
    ///   not prefer. The callback carries no reason, so a peer that still
    ///   holds its end open (not at end of stream, plain TCP, nothing
    ///   buffered) gets 1002 written now; one that went away gets nothing.
    ///
    /// ``ConnectionState`` decides which; lws closes TCP whatever this
    /// callback returns.
    func closing(_ session: Session, _ wsi: OpaquePointer) {
        guard session.establishedWSI != nil else { return }
        let length = Int(lws_get_close_length(wsi))
        let close: ConnectionState.LibraryClose
        if length > 0, let payload = lws_get_close_payload(wsi) {
            close = .sendingClose(Session.libraryClose(UnsafeRawBufferPointer(start: payload, count: length)))
        } else {
            close = .withoutClose(peerListening: lws_is_ssl(wsi) == 0 && lws_partial_buffered(wsi) == 0
                && Self.peerHoldsOpen(wsi))
        }
        if case .sendingClose = close, session.state.isOpen {
            Self.discardUnread(wsi)
        }
        session.perform(session.apply(.libraryClosing(close)), wsi)
    }

    /// Reads and discards what the peer sent that lws has not read yet
    /// (at most 256 KiB: a peer that keeps sending is cut off by
    /// ``Session/drop(_:)``'s drain timeout instead).
    ///
    /// lws 4.1.6 surprise (issue 24): when its parser fails a frame while
    /// more of the peer's bytes wait unread in the kernel (a hello and 4 KiB
    /// of garbage in one segment: lws reads 4096 bytes, 72 stay), the close
    /// frame it queues never reaches the peer and no WRITEABLE follows: lws
    /// closes the socket with those bytes unread (seen, not traced in its
    /// source; most likely the next POLLIN fails the connection again), and
    /// Linux answers a close with unread data with a reset, which also
    /// discards what the peer had not read yet. With nothing unread, lws
    /// sends its close frame and the WRITEABLE after it ends TCP.
    static func discardUnread(_ wsi: OpaquePointer) {
        let fd = lws_get_socket_fd(wsi)
        guard fd >= 0 else { return }
        var sink = [UInt8](repeating: 0, count: 16384)
        var reads = 0
        while reads < 16, recv(fd, &sink, sink.count, Int32(MSG_DONTWAIT)) > 0 {
            reads += 1
        }
    }

    /// `true` when the peer's end of the socket is still open: a peek finds
    /// data or nothing yet, not the end of the stream or an error.
    private static func peerHoldsOpen(_ wsi: OpaquePointer) -> Bool {
        let fd = lws_get_socket_fd(wsi)
        guard fd >= 0 else { return false }
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count > 0 || (count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
    }
}
