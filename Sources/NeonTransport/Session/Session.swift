import CLibWebSockets
import Glibc
import NeonTransportCore

/// One WebSocket connection on the service thread: its outbound queue, its
/// reassembly buffer and where it is in its life (``ConnectionState``),
/// and the lws calls that carry out what the state machine decides.
///
/// Not `Sendable`: only the service thread of the context that owns the
/// connection touches it. lws reaches it through a retained pointer (server:
/// per-session data; client: the wsi's opaque user data).
final class Session {
    let id: ConnectionID
    /// The lws connection while this side may call lws on it: `nil` until
    /// the client connection exists, and again once lws has closed it or
    /// the context is being destroyed.
    var wsi: OpaquePointer?
    /// Where the connection is in its life; changed only by ``apply(_:)``.
    private(set) var state: ConnectionState
    var queue = OutboundQueue()
    var assembler: MessageAssembler
    /// Most bytes that may wait unsent in `queue` (see ``enqueue(_:)``).
    let maxBacklog: Int
    /// Server connections: where a connection whose queue stops being empty
    /// registers, so the service loop writes it right after the current
    /// round (see ``WriteRound``) instead of after a poll round for
    /// writability. Clients (nil) always wait for the WRITEABLE callback.
    var writeRound: WriteRound?
    /// A message it sent broke the limits: nothing more it sends is read
    /// while the gateway answers and fails it (server only).
    var rejected = false
    /// The write round in which this connection last wrote a frame at once
    /// (see ``writeAtOnce(_:round:)``).
    private var writtenInRound = -1
    /// How many more of its rounds with frames the connection's frames
    /// wait for the round's end, to leave in one corked write: set to
    /// ``batchingSpan`` by a round that brought it more than one frame,
    /// counted down by rounds that bring one. While it is above 0 nothing
    /// is written at once (see ``writeAtOnce(_:round:)``).
    private var batchingLeft = 0
    /// What the next busy round sets ``batchingLeft`` to: doubled by each
    /// busy round up to ``batchingRounds``, halved by each frame written at
    /// once. A connection busy round after round (a relay's) soon batches
    /// for ``batchingRounds``; one that gets a second frame in a round only
    /// now and then (a follower whose service thread fell one scroll
    /// behind) batches for a round or two and then writes at once again,
    /// instead of sending its next 16 frames through the queue one by one.
    private var batchingSpan = 1
    /// The last busy round, so that it counts once.
    private var busyRound = -1
    /// Rounds of one frame each after which a busy connection writes at
    /// once again: a relay whose rounds bring one frame now and then stays
    /// corked, rather than paying a second write in each busy round.
    static let batchingRounds = 16
    /// The most bytes of one write ``writeFramed(_:_:_:)`` sends itself:
    /// what lws 4.1.6 sends of a write in one piece (its
    /// `pt_serv_buf_size`, 4096 unless set, which this transport does
    /// not). lws writes a longer write's rest 4 KiB at a time as the socket
    /// polls writable, between other connections' work, so a document to a
    /// hundred readers does not hold the service thread while the kernel
    /// copies megabytes, and a reader that stalls backs up into the queue
    /// (``maxBacklog``) once a third of its socket's buffer is taken. Every
    /// follow and relay frame is far under it, and so are most corked
    /// rounds.
    static let directLimit = 4096
    /// Server: the idle sweep when something last arrived (a message or a
    /// pong); see ``IdleSweep``.
    var heardAt = 0
    /// Server connections over plain TCP (not TLS): the socket, which
    /// ``writeFramed(_:_:_:)`` writes directly; -1 otherwise.
    var plainSocket: Int32 = -1
    /// Whether lws may hold bytes of this connection unsent: what
    /// `lws_partial_buffered` said after this side's last `lws_write`, or
    /// when lws last called back WRITEABLE (which it does only once it has
    /// written what it held). Kept here so that a delivery does not read
    /// lws's connection structure (a cache miss per recipient of a
    /// broadcast) to learn it. lws writes nothing of its own on an open
    /// connection but control frames (a pong, the echo of a peer's close,
    /// a close asked for with `lws_close_reason`), and those only in its
    /// POLLOUT handling (4.1.6 `rops_handle_POLLOUT_ws`), when the socket
    /// polls writable with a third or more of its send buffer free, so a
    /// pong always goes out whole; after a close nothing more is written.
    var lwsHoldsBytes = false

    /// A server connection starts open (its session is made at
    /// ESTABLISHED); a client connection starts connecting.
    init(id: ConnectionID, maxMessageSize: Int, maxBacklog: Int = .max,
         state: ConnectionState = .open(pingDue: false)) {
        self.id = id
        self.maxBacklog = maxBacklog
        self.state = state
        assembler = MessageAssembler(limit: maxMessageSize)
    }

    /// The lws connection once the handshake is done and until it closes.
    var establishedWSI: OpaquePointer? {
        state.isEstablished ? wsi : nil
    }

    /// Frames wait in the queue. Read from the queue's stored count in
    /// place: a computed property of `OutboundQueue` (another module's
    /// `package` type, whose bodies are not inlined here) is a call that
    /// first copies the whole queue out of the session, retaining its
    /// storage, on every delivery.
    private var hasQueued: Bool {
        queue.count > 0
    }

    /// How the connection ended, for the closed event.
    var closeOutcome: WebSocketClose {
        state.outcome
    }

    /// Moves the state machine on; the queue goes once none of it will be
    /// written. Returns what lws must do (see ``perform(_:_:)``).
    @discardableResult
    func apply(_ event: ConnectionState.Event) -> ConnectionState.Action {
        let action = state.apply(event)
        if state.discardsQueue, hasQueued {
            queue.removeAll()
        }
        return action
    }

    /// Performs `action` on `wsi` on the service thread; returns what the
    /// connection's callback returns (-1 tells lws to close TCP).
    /// ``ConnectionState/Action/writePing`` and
    /// ``ConnectionState/Action/writeQueue`` are ``flush(_:scratch:cork:)``'s.
    @discardableResult
    func perform(_ action: ConnectionState.Action, _ wsi: OpaquePointer) -> Int32 {
        switch action {
        case .none, .echoPeerClose, .writePing, .writeQueue:
            return 0
        case .requestWritable:
            lws_callback_on_writable(wsi)
            return 0
        case .requestWritableOrCutOff(let seconds):
            lws_callback_on_writable(wsi)
            lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, seconds)
            return 0
        case .sendClose(let code, let reason):
            var reason = Self.closeReasonBytes(reason)
            lws_close_reason(wsi, lws_close_status(rawValue: UInt32(code)), &reason, reason.count)
            return -1
        case .failConnection(let code, let reason):
            writeCloseFrame(wsi, code: code, reason: reason)
            drop(wsi)
            return 0
        case .writeCloseAndDisconnect(let code, let reason):
            writeCloseFrame(wsi, code: code, reason: reason)
            return -1
        case .endTCP:
            drop(wsi)
            return 0
        case .disconnect:
            return -1
        }
    }

    /// Queues `frame`; when the queue was empty, registers with the write
    /// round (server) or arms a WRITEABLE callback (client). A server
    /// connection with nothing waiting writes the round's first frame at
    /// once instead (``writeAtOnce(_:round:)``).
    ///
    /// A frame always joins an empty queue, however large. When it would
    /// take a non-empty backlog past `maxBacklog` bytes the peer is not
    /// reading fast enough: the backlog is dropped and the connection
    /// closes with ``CloseCode/tooSlow``, whether or not the peer ever
    /// reads that close frame; a peer that still reads nothing is cut off
    /// after ``ConnectionState/abandonedCloseTimeout``.
    func enqueue(_ frame: OutboundFrame) {
        guard state.acceptsFrames else { return }
        if let writeRound {
            if writeAtOnce(frame, round: writeRound) { return }
            if writtenInRound == writeRound.number { noteBusyRound(writeRound.number) }
        }
        let wasEmpty = !hasQueued
        queue.append(frame)
        if queue.bytes > maxBacklog, queue.count > 1 {
            queue.removeAll()
            let reason = "too slow: more than \(maxBacklog) bytes waited unsent; reconnect and resync"
            let action = apply(.backlogOverflowed(reason: reason))
            if let wsi = establishedWSI {
                perform(action, wsi)
            }
            return
        }
        guard wasEmpty, let wsi = establishedWSI else { return }
        if let writeRound {
            writeRound.sessions.append(self)
        } else {
            lws_callback_on_writable(wsi)
        }
    }

    /// Server connections: writes `frame` now instead of queuing it, when
    /// nothing may go before it: the queue is empty, lws holds no unsent
    /// bytes, no ping or close is waiting, and the connection wrote no
    /// frame at once yet in this service round. Returns false, writing
    /// nothing, otherwise. A second frame in the same round is queued, and
    /// the connection batches from then on (``batchingLeft``): a busy
    /// connection's frames (a relay's) leave in one corked write when the
    /// round ends (``WriteRound``), as before, while a follower sent one
    /// frame per round gets it without the queue, the round's list, or a
    /// second pass over the connections.
    private func writeAtOnce(_ frame: OutboundFrame, round: WriteRound) -> Bool {
        guard batchingLeft == 0, !hasQueued, writtenInRound != round.number, state.afterRound == .write,
              !lwsHoldsBytes, let wsi else { return false }
        writtenInRound = round.number
        if batchingSpan > 1 { batchingSpan /= 2 }
        let framed = frame.framed
        let start = UnsafeMutableRawPointer(mutating: framed.baseAddress!).assumingMemoryBound(to: UInt8.self)
        if !writeFramed(wsi, start, framed.count) {
            // The WRITEABLE callback then disconnects.
            apply(.writeFailed)
            lws_callback_on_writable(wsi)
        }
        return true
    }

    /// A round brought this connection more than one frame: it batches for
    /// the next ``batchingSpan`` rounds, and the span doubles.
    private func noteBusyRound(_ number: Int) {
        guard busyRound != number else { return }
        busyRound = number
        batchingLeft = batchingSpan
        batchingSpan = min(batchingSpan * 2, Self.batchingRounds)
    }

    /// Asks for a close frame with `code` and `reason` after the queued
    /// frames; a `failing` close ends TCP right after it (see
    /// ``ConnectionState/CloseRequest/Kind/failing``). Later requests are
    /// ignored: the first close wins.
    func requestClose(code: UInt16, reason: String, failing: Bool = false) {
        let action = apply(.closeRequested(code: code, reason: reason, failing: failing))
        if let wsi = establishedWSI {
            perform(action, wsi)
        }
    }

    /// Writes the queue now, outside any callback (the service loop calls
    /// it after a round): the frames queued during the round go out corked
    /// together while the socket takes them; the rest, a ping, a close, or
    /// a failure wait for the WRITEABLE callback.
    func flushAfterRound(_ wsi: OpaquePointer, cork: FrameCork) {
        if let writeRound {
            if queue.count > 1 || writtenInRound == writeRound.number {
                noteBusyRound(writeRound.number)
            } else if batchingLeft > 0 {
                batchingLeft -= 1
            }
        }
        switch state.afterRound {
        case .nothing:
            return
        case .waitForWritable:
            lws_callback_on_writable(wsi)
            return
        case .write:
            guard !lwsHoldsBytes else {
                lws_callback_on_writable(wsi)
                return
            }
        }
        while hasQueued {
            guard writeNext(wsi, scratch: nil, cork: cork) else {
                // The WRITEABLE callback then disconnects.
                apply(.writeFailed)
                lws_callback_on_writable(wsi)
                return
            }
            if !hasQueued { return }
            if lws_send_pipe_choked(wsi) != 0 {
                lws_callback_on_writable(wsi)
                return
            }
        }
    }

    /// Writes a close frame with `code` and `reason` now, from inside any
    /// callback on the service thread (failing the connection, RFC 6455
    /// §7.1.7).
    private func writeCloseFrame(_ wsi: OpaquePointer, code: UInt16, reason: String) {
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
        lwsHoldsBytes = lws_partial_buffered(wsi) != 0
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
    private func drop(_ wsi: OpaquePointer) {
        if lws_partial_buffered(wsi) == 0 {
            _ = shutdown(lws_get_socket_fd(wsi), Int32(SHUT_WR))
        }
        lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_ACK, Self.drainSeconds)
    }

    /// A peer's close frame payload (2-byte code, UTF-8 reason) as the
    /// close it reports; shorter than 2 bytes, a close without a code.
    static func peerClose(_ payload: UnsafeRawBufferPointer) -> WebSocketClose {
        guard payload.count >= 2 else { return WebSocketClose(code: nil, initiatedByPeer: true) }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        return WebSocketClose(code: code, reason: String(decoding: payload[2...], as: UTF8.self), initiatedByPeer: true)
    }

    /// The payload of the close frame libwebsockets sends when it fails a
    /// connection, as this side's close (1002 when it carries no code).
    static func libraryClose(_ payload: UnsafeRawBufferPointer) -> WebSocketClose {
        let code = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : CloseCode.protocolError
        let reason = payload.count > 2 ? String(decoding: payload[2...], as: UTF8.self) : ""
        return WebSocketClose(code: code, reason: reason, initiatedByPeer: false)
    }

    /// Drains the queue from a WRITEABLE callback while the socket accepts
    /// more, with a due ping first and the pending close last. Returns the
    /// callback's result: -1 tells lws to close (after sending the close
    /// frame, when there is one).
    ///
    /// - Parameters:
    ///   - scratch: client connections pass a buffer to copy each frame
    ///     into, because lws masks client payloads in place; server
    ///     connections write shared frames directly.
    ///   - cork: server connections pass it to write several queued frames
    ///     with one call (see ``FrameCork``).
    func flush(_ wsi: OpaquePointer, scratch: WriteScratch?, cork: FrameCork? = nil) -> Int32 {
        lwsHoldsBytes = lws_partial_buffered(wsi) != 0
        switch apply(.writable) {
        case .writePing:
            guard writePing(wsi) else { return perform(apply(.writeFailed), wsi) }
            if let stop = pause(wsi) { return stop }
        case .writeQueue:
            break
        case let action:
            return perform(action, wsi)
        }
        while hasQueued {
            guard writeNext(wsi, scratch: scratch, cork: cork) else { return perform(apply(.writeFailed), wsi) }
            if let stop = pause(wsi) { return stop }
        }
        return perform(apply(.queueFlushed), wsi)
    }

    /// Writes a ping with a one-byte payload: libwebsockets 4.1 reports a
    /// pong to the protocol (RECEIVE_PONG) only when it carries one.
    private func writePing(_ wsi: OpaquePointer) -> Bool {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: OutboundFrame.headroom + 1)
        defer { buffer.deallocate() }
        buffer[OutboundFrame.headroom] = 0x70
        let written = lws_write(wsi, buffer + OutboundFrame.headroom, 1, LWS_WRITE_PING) >= 0
        lwsHoldsBytes = lws_partial_buffered(wsi) != 0
        return written
    }
}

extension Session {
    /// Writes the first queued frame, or with a cork several, and removes
    /// them from the queue; false when lws could not write.
    private func writeNext(_ wsi: OpaquePointer, scratch: WriteScratch?, cork: FrameCork?) -> Bool {
        // One frame (the common case) skips the cork: handing it the queue
        // would copy the queue out of the session.
        if let cork, queue.count >= 2 {
            let (frames, bytes) = cork.fill(from: queue)
            if frames > 0 {
                guard writeFramed(wsi, cork.start, bytes) else { return false }
                for _ in 0..<frames { queue.removeFirst() }
                return true
            }
        }
        // Taken off first (in place): reading `queue.first` would copy the
        // queue. A write that fails ends the connection, and its queue.
        guard let frame = queue.removeFirst() else { return true }
        if let scratch {
            // A client's frame: lws masks it, in a copy.
            let opcode = frame.kind == .text ? LWS_WRITE_TEXT : LWS_WRITE_BINARY
            let written = lws_write(wsi, scratch.copy(frame).assumingMemoryBound(to: UInt8.self), frame.count, opcode)
            lwsHoldsBytes = lws_partial_buffered(wsi) != 0
            guard written >= Int32(clamping: frame.count) else { return false }
        } else {
            // A server's frame goes out as framed once, untouched: shareable
            // by every connection and thread it is queued on.
            let framed = frame.framed
            let start = UnsafeMutableRawPointer(mutating: framed.baseAddress!).assumingMemoryBound(to: UInt8.self)
            guard writeFramed(wsi, start, framed.count) else { return false }
        }
        return true
    }

    /// Writes `count` bytes of server frames, framed already, from `start`
    /// (which has lws headroom before it); false when the connection cannot
    /// be written.
    ///
    /// Over plain TCP, while lws holds none of the connection's bytes
    /// unsent (``lwsHoldsBytes``), this is what `lws_write(…,
    /// LWS_WRITE_HTTP)` does, without its trip through the library (lws
    /// 4.1.6 `lws_issue_raw`: one `send` with `MSG_NOSIGNAL` of at most its
    /// 4 KiB): the session `send`s up to ``directLimit`` bytes itself and
    /// hands lws the rest, and whatever part the socket did not take, which
    /// lws sends as it would have (4 KiB now, the rest kept and written
    /// first as the socket drains). TLS connections, and any connection
    /// whose bytes lws holds, go through `lws_write`, which keeps the
    /// order.
    private func writeFramed(_ wsi: OpaquePointer, _ start: UnsafeMutablePointer<UInt8>, _ count: Int) -> Bool {
        var sent = 0
        if plainSocket >= 0, !lwsHoldsBytes {
            let n = send(plainSocket, start, min(count, Self.directLimit), Int32(MSG_NOSIGNAL))
            if n == count { return true }
            if n >= 0 {
                sent = n
            } else if errno != EAGAIN, errno != EINTR {
                return false
            }
        }
        let rest = count - sent
        let written = lws_write(wsi, start + sent, rest, LWS_WRITE_HTTP)
        lwsHoldsBytes = lws_partial_buffered(wsi) != 0
        return written >= Int32(clamping: rest)
    }

    /// After a write: 0 when the socket is full and the rest must wait for
    /// the next WRITEABLE, nil to go on. Nothing left to write needs no
    /// check (`lws_send_pipe_choked` is a poll system call of its own).
    private func pause(_ wsi: OpaquePointer) -> Int32? {
        guard hasQueued || state.closePending else { return nil }
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
/// round; the service loop writes them when the round ends, so the frames
/// a connection gets in a round after its first (written at once,
/// ``Session/writeAtOnce(_:round:)``) leave in one corked write. Service
/// thread only.
final class WriteRound {
    var sessions: [Session] = []
    /// Which round this is: a connection writes at most one frame at once
    /// per round, the rest wait for the round's end.
    private(set) var number = 0

    /// Writes every registered connection that is still open; the next
    /// round begins.
    func flush(cork: FrameCork) {
        defer { number &+= 1 }
        guard !sessions.isEmpty else { return }
        let due = sessions
        sessions.removeAll(keepingCapacity: true)
        for session in due {
            if let wsi = session.establishedWSI {
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
