import CLibWebSockets
import Glibc

/// One WebSocket connection's state on the service thread: its outbound
/// queue, its reassembly buffer and how it is closing.
///
/// Not `Sendable`: only the service thread of the context that owns the
/// connection touches it. lws reaches it through a retained pointer (server:
/// per-session data; client: the wsi's opaque user data).
final class Session {
    let id: ConnectionID
    /// The lws connection; `nil` until the client connection exists and
    /// again once lws has closed it.
    var wsi: OpaquePointer?
    /// `true` between ESTABLISHED (or CLIENT_ESTABLISHED) and CLOSED.
    var isEstablished = false
    var queue = OutboundQueue()
    var assembler: MessageAssembler
    /// A close asked for by the owner, sent once the queue has been flushed;
    /// `failing` closes end TCP right after the close frame (see
    /// ``requestClose(code:reason:failing:)``).
    private(set) var pendingClose: (code: UInt16, reason: String, failing: Bool)?
    /// The close frame this side sent.
    private(set) var localClose: WebSocketClose?
    /// The close frame the peer sent first.
    var peerClose: WebSocketClose?
    /// Most bytes that may wait unsent in `queue` (see ``enqueue(_:)``).
    let maxBacklog: Int
    /// Set when the backlog went past `maxBacklog` and was dropped: the
    /// connection is closing with ``CloseCode/tooSlow``, whether or not the
    /// peer ever reads that close frame.
    private(set) var abandoned: WebSocketClose?
    /// Server connections: where a connection whose queue stops being empty
    /// registers, so the service loop writes it right after the current
    /// round (see ``WriteRound``) instead of after a poll round for
    /// writability. Clients (nil) always wait for the WRITEABLE callback.
    var writeRound: WriteRound?
    /// A write failed (the next WRITEABLE closes), or the idle sweep cut
    /// the connection off: it ends without a close frame on purpose.
    var droppedWithoutFrame = false
    /// Server: libwebsockets failed the connection itself (a frame broke
    /// the protocol) and is sending its own close frame; the WRITEABLE
    /// that follows that frame ends TCP (see ``libraryFailed(_:)`` and
    /// ``drop(_:)``).
    private(set) var dropAfterLibraryClose = false
    /// Server: the idle sweep when something last arrived (a message or a
    /// pong), and whether a ping waits for the next WRITEABLE.
    var heardAt = 0
    var pingDue = false

    init(id: ConnectionID, maxMessageSize: Int, maxBacklog: Int = .max) {
        self.id = id
        self.maxBacklog = maxBacklog
        assembler = MessageAssembler(limit: maxMessageSize)
    }

    /// Once a close is requested or received, inbound messages are dropped
    /// and nothing more is queued.
    var isClosing: Bool { pendingClose != nil || localClose != nil || peerClose != nil }

    /// How the connection ended, for the closed event.
    var closeOutcome: WebSocketClose {
        localClose ?? abandoned ?? peerClose ?? WebSocketClose(code: nil, initiatedByPeer: true)
    }

    /// Queues `frame`; when the queue was empty, registers with the write
    /// round (server) or arms a WRITEABLE callback (client).
    ///
    /// A frame always joins an empty queue, however large. When it would
    /// take a non-empty backlog past `maxBacklog` bytes the peer is not
    /// reading fast enough: the backlog is dropped and the connection
    /// closes with ``CloseCode/tooSlow`` (see ``abandonBacklog()``).
    func enqueue(_ frame: OutboundFrame) {
        guard !isClosing else { return }
        let wasEmpty = queue.isEmpty
        queue.append(frame)
        if queue.bytes > maxBacklog, queue.count > 1 {
            abandonBacklog()
            return
        }
        guard wasEmpty, isEstablished, let wsi else { return }
        if let writeRound {
            writeRound.sessions.append(self)
        } else {
            lws_callback_on_writable(wsi)
        }
    }

    /// Writes the queue now, outside any callback (the service loop calls
    /// it after a round): the frames queued during the round go out corked
    /// together while the socket takes them; the rest, a close, or a
    /// failure wait for the WRITEABLE callback.
    func flushAfterRound(_ wsi: OpaquePointer, cork: FrameCork) {
        guard !droppedWithoutFrame, !pingDue, pendingClose == nil, localClose == nil, lws_partial_buffered(wsi) == 0 else {
            lws_callback_on_writable(wsi)
            return
        }
        while !queue.isEmpty {
            guard writeNext(wsi, scratch: nil, cork: cork) else {
                droppedWithoutFrame = true
                lws_callback_on_writable(wsi)
                return
            }
            if queue.isEmpty { return }
            if lws_send_pipe_choked(wsi) != 0 {
                lws_callback_on_writable(wsi)
                return
            }
        }
    }

    /// Seconds a connection whose backlog was dropped gets to take its
    /// close frame before the socket is closed without one.
    static let abandonedCloseTimeout: Int32 = 5

    /// Frees the backlog at once and closes with ``CloseCode/tooSlow``: the
    /// close frame goes out as soon as the socket takes it, and a peer that
    /// still reads nothing is cut off after ``abandonedCloseTimeout``.
    private func abandonBacklog() {
        queue.removeAll()
        let reason = "too slow: more than \(maxBacklog) bytes waited unsent; reconnect and resync"
        abandoned = WebSocketClose(code: CloseCode.tooSlow, reason: reason, initiatedByPeer: false)
        pendingClose = (CloseCode.tooSlow, reason, false)
        if isEstablished, let wsi {
            lws_callback_on_writable(wsi)
            lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, Self.abandonedCloseTimeout)
        }
    }

    /// Asks for a close frame with `code` and `reason` after the queued
    /// frames. Later requests are ignored: the first close wins.
    ///
    /// A `failing` close fails the connection (RFC 6455 §7.1.7): right
    /// after the close frame TCP ends (``drop(_:)``), without waiting for
    /// the peer to answer, because a peer that broke the protocol (a
    /// message too big, text that is not UTF-8) may never send a close the
    /// parser can find. Other closes wait up to 5 s for the peer's close
    /// frame, as libwebsockets does.
    func requestClose(code: UInt16, reason: String, failing: Bool = false) {
        guard !isClosing else { return }
        pendingClose = (code, reason, failing)
        if isEstablished, let wsi {
            lws_callback_on_writable(wsi)
        }
    }

    /// Fails the connection (RFC 6455 §7.1.7) from inside any callback on
    /// the service thread: drops whatever is queued and writes a close
    /// frame with `code` and `reason` now. The caller then returns -1 (lws
    /// closes TCP at once, sending no close frame of its own) or calls
    /// ``drop(_:)``.
    func fail(_ wsi: OpaquePointer, code: UInt16, reason: String) {
        queue.removeAll()
        pendingClose = nil
        localClose = WebSocketClose(code: code, reason: reason, initiatedByPeer: false)
        // Framed here and written raw, like FrameCork's frames: lws 4.1
        // keeps LWS_WRITE_CLOSE private (it sends close frames only after
        // lws_close_reason, and then waits for the answer). A server frame
        // is not masked: FIN + opcode 8, the length (at most 125), the
        // payload.
        let payload = [UInt8(code >> 8), UInt8(code & 0xFF)] + Self.closeReasonBytes(reason)
        let frame = [0x88, UInt8(payload.count)] + payload
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: OutboundFrame.headroom + frame.count)
        defer { buffer.deallocate() }
        (buffer + OutboundFrame.headroom).initialize(from: frame, count: frame.count)
        _ = lws_write(wsi, buffer + OutboundFrame.headroom, frame.count, LWS_WRITE_HTTP)
    }

    /// Seconds a failed connection's half-closed socket keeps reading (and
    /// discarding) what the peer still sends before it is closed.
    static let drainSeconds: Int32 = 1

    /// Ends TCP after this side's close frame without waiting for the
    /// peer's: sends FIN now, so the peer reads the end of the stream at
    /// once, and leaves lws reading and discarding what the peer still
    /// sends until it closes its end, answers the close, or
    /// ``drainSeconds`` pass. Closing the socket outright would answer
    /// bytes still in flight with a reset, which can cost the peer the
    /// close frame (lws 4.1.6 closes right after its shutdown:
    /// lib/core-net/close.c:556–583 sets socket_is_permanently_unusable
    /// before the test that would wait for the peer).
    func drop(_ wsi: OpaquePointer) {
        dropAfterLibraryClose = false
        if lws_partial_buffered(wsi) == 0 {
            _ = shutdown(lws_get_socket_fd(wsi), Int32(SHUT_WR))
        }
        lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_ACK, Self.drainSeconds)
    }

    /// libwebsockets failed the connection and is about to send its own
    /// close frame, whose payload is `payload`: records it as this side's
    /// close; the WRITEABLE callback after that frame calls ``drop(_:)``.
    func libraryFailed(_ payload: UnsafeRawBufferPointer) {
        queue.removeAll()
        pendingClose = nil
        let code = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : CloseCode.protocolError
        let reason = payload.count > 2 ? String(decoding: payload[2...], as: UTF8.self) : ""
        localClose = WebSocketClose(code: code, reason: reason, initiatedByPeer: false)
        dropAfterLibraryClose = true
    }

    /// Records the peer's close frame payload (2-byte code, UTF-8 reason).
    func recordPeerClose(_ payload: UnsafeRawBufferPointer) {
        guard localClose == nil else { return }
        pendingClose = nil
        queue.removeAll()
        guard payload.count >= 2 else {
            peerClose = WebSocketClose(code: nil, initiatedByPeer: true)
            return
        }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        let reason = String(decoding: payload[2...], as: UTF8.self)
        peerClose = WebSocketClose(code: code, reason: reason, initiatedByPeer: true)
    }

    /// Drains the queue from a WRITEABLE callback while the socket accepts
    /// more, then sends the pending close. Returns the callback's result:
    /// -1 tells lws to close (after sending the close frame).
    ///
    /// - Parameters:
    ///   - scratch: client connections pass a buffer to copy each frame
    ///     into, because lws masks client payloads in place; server
    ///     connections write shared frames directly.
    ///   - cork: server connections pass it to write several queued frames
    ///     with one call (see ``FrameCork``).
    func flush(_ wsi: OpaquePointer, scratch: WriteScratch?, cork: FrameCork? = nil) -> Int32 {
        if droppedWithoutFrame { return -1 }
        if dropAfterLibraryClose {
            drop(wsi)
            return 0
        }
        if pingDue, !isClosing {
            pingDue = false
            // A one-byte payload: libwebsockets 4.1 reports a pong to the
            // protocol (RECEIVE_PONG) only when it carries one.
            let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: OutboundFrame.headroom + 1)
            defer { buffer.deallocate() }
            buffer[OutboundFrame.headroom] = 0x70
            if lws_write(wsi, buffer + OutboundFrame.headroom, 1, LWS_WRITE_PING) < 0 {
                droppedWithoutFrame = true
                return -1
            }
            if let stop = pause(wsi) { return stop }
        }
        while !queue.isEmpty {
            guard writeNext(wsi, scratch: scratch, cork: cork) else {
                droppedWithoutFrame = true
                return -1
            }
            if let stop = pause(wsi) { return stop }
        }
        guard let close = pendingClose else { return 0 }
        if close.failing {
            fail(wsi, code: close.code, reason: close.reason)
            drop(wsi)
            return 0
        }
        pendingClose = nil
        var reason = Self.closeReasonBytes(close.reason)
        lws_close_reason(wsi, lws_close_status(rawValue: UInt32(close.code)), &reason, reason.count)
        localClose = WebSocketClose(code: close.code, reason: close.reason, initiatedByPeer: false)
        return -1
    }
}

extension Session {
    /// Writes the first queued frame, or with a cork several, and removes
    /// them from the queue; false when lws could not write.
    private func writeNext(_ wsi: OpaquePointer, scratch: WriteScratch?, cork: FrameCork?) -> Bool {
        if let cork {
            let (frames, bytes) = cork.fill(from: queue)
            if frames > 0 {
                guard lws_write(wsi, cork.start, bytes, LWS_WRITE_HTTP) >= Int32(clamping: bytes) else { return false }
                for _ in 0..<frames { queue.removeFirst() }
                return true
            }
        }
        guard let frame = queue.first else { return true }
        let opcode = frame.kind == .text ? LWS_WRITE_TEXT : LWS_WRITE_BINARY
        let start = scratch?.copy(frame) ?? frame.payloadStart
        guard lws_write(wsi, start.assumingMemoryBound(to: UInt8.self), frame.count, opcode)
            >= Int32(clamping: frame.count) else { return false }
        queue.removeFirst()
        return true
    }

    /// After a write: 0 when the socket is full and the rest must wait for
    /// the next WRITEABLE, nil to go on. Nothing left to write needs no
    /// check (`lws_send_pipe_choked` is a poll system call of its own).
    private func pause(_ wsi: OpaquePointer) -> Int32? {
        guard !queue.isEmpty || pendingClose != nil else { return nil }
        guard lws_send_pipe_choked(wsi) != 0 else { return nil }
        lws_callback_on_writable(wsi)
        return 0
    }

    /// A close frame holds at most 125 bytes: the 2-byte code and 123 bytes
    /// of reason, cut at a UTF-8 character boundary.
    static func closeReasonBytes(_ reason: String) -> [UInt8] {
        let utf8 = Array(reason.utf8)
        guard utf8.count > 123 else { return utf8 }
        var end = 123
        while end > 0, utf8[end] & 0xC0 == 0x80 {
            end -= 1
        }
        return Array(utf8[..<end])
    }
}

/// The server connections whose queues filled during the current service
/// round; the service loop writes them when the round ends, so a round's
/// broadcasts leave in one corked write per connection. Service thread only.
final class WriteRound {
    var sessions: [Session] = []

    /// Writes every registered connection that is still open.
    func flush(cork: FrameCork) {
        guard !sessions.isEmpty else { return }
        let due = sessions
        sessions.removeAll(keepingCapacity: true)
        for session in due {
            if session.isEstablished, let wsi = session.wsi {
                session.flushAfterRound(wsi, cork: cork)
            }
        }
    }
}

/// A reusable write buffer with lws headroom, for client frames that lws
/// masks in place. Service thread only.
final class WriteScratch {
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int

    init() {
        capacity = 4096
        storage = .allocate(byteCount: OutboundFrame.headroom + capacity, alignment: 16)
    }

    deinit {
        storage.deallocate()
    }

    /// Copies `frame`'s payload after the headroom; returns the payload start.
    func copy(_ frame: OutboundFrame) -> UnsafeMutableRawPointer {
        if frame.count > capacity {
            storage.deallocate()
            capacity = max(frame.count, capacity * 2)
            storage = .allocate(byteCount: OutboundFrame.headroom + capacity, alignment: 16)
        }
        let start = storage + OutboundFrame.headroom
        if frame.count > 0 {
            start.copyMemory(from: frame.payloadStart, byteCount: frame.count)
        }
        return start
    }
}
