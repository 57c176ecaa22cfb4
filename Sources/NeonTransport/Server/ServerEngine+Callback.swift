import CLibWebSockets

/// The lws protocol callback of every server context. A C function pointer
/// cannot capture anything, so it finds its engine through the context user
/// pointer and hands each reason to one method.
func serverCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi,
          let context = lws_get_context(wsi),
          let engine = lws_context_user(context)
    else { return 0 }
    return Unmanaged<ServerEngine>.fromOpaque(engine).takeUnretainedValue()
        .handle(wsi, reason, user, input, length)
}

extension ServerEngine {
    /// Dispatches one lws callback on the service thread.
    func handle(
        _ wsi: OpaquePointer, _ reason: lws_callback_reasons,
        _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?, _ length: Int
    ) -> Int32 {
        switch reason {
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            for command in inbox.drain() {
                perform(command)
            }
            return 0
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
            return shuttingDown ? 1 : 0
        case LWS_CALLBACK_ESTABLISHED:
            guard let user else { return -1 }
            opened(wsi, slot: user)
            return 0
        case LWS_CALLBACK_RECEIVE:
            guard let session = RetainedSlot<Session>.load(user) else { return 0 }
            received(UnsafeRawBufferPointer(start: input, count: length), on: session, wsi)
            return 0
        case LWS_CALLBACK_SERVER_WRITEABLE:
            guard let session = RetainedSlot<Session>.load(user) else { return 0 }
            return session.flush(wsi, scratch: nil)
        case LWS_CALLBACK_TIMER:
            if let session = RetainedSlot<Session>.load(user), session.isEstablished, !session.isClosing {
                delegate?.handle(.timer(session.id))
            }
            return 0
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            RetainedSlot<Session>.load(user)?.recordPeerClose(UnsafeRawBufferPointer(start: input, count: length))
            return 0
        case LWS_CALLBACK_CLOSED:
            if let session = RetainedSlot<Session>.take(user) {
                closed(session)
            }
            return 0
        case LWS_CALLBACK_HTTP:
            return httpRequest(wsi, slot: user, path: UnsafeRawBufferPointer(start: input, count: length))
        case LWS_CALLBACK_HTTP_WRITEABLE:
            return httpWriteable(wsi, slot: user)
        case LWS_CALLBACK_CLOSED_HTTP:
            _ = RetainedSlot<PendingHTTPResponse>.take(user)
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
    }

    private func opened(_ wsi: OpaquePointer, slot: UnsafeMutableRawPointer) {
        lastID += 1
        let session = Session(id: ConnectionID(rawValue: lastID), maxMessageSize: configuration.maxMessageSize)
        session.wsi = wsi
        session.isEstablished = true
        RetainedSlot.store(session, in: slot)
        sessions[session.id] = session
        var peer = [CChar](repeating: 0, count: 64)
        let name = lws_get_peer_simple(wsi, &peer, peer.count).map { String(cString: $0) } ?? ""
        delegate?.handle(.connected(session.id, peer: name))
        if shuttingDown {
            session.requestClose(code: CloseCode.goingAway, reason: "server shutting down")
        }
    }

    private func received(_ chunk: UnsafeRawBufferPointer, on session: Session, _ wsi: OpaquePointer) {
        guard !session.isClosing else { return }
        let outcome = session.assembler.consume(
            chunk,
            isBinary: lws_frame_is_binary(wsi) != 0,
            isFinal: lws_is_final_fragment(wsi) != 0,
            remainingInFrame: lws_remaining_packet_payload(wsi))
        switch outcome {
        case .incomplete:
            break
        case .message(let message):
            delegate?.handle(.received(message, from: session.id))
        case .rejected(let rejection):
            delegate?.handle(.rejected(rejection, from: session.id))
            session.requestClose(code: rejection.closeCode, reason: rejection.closeReason)
        }
    }

    private func closed(_ session: Session) {
        session.wsi = nil
        session.isEstablished = false
        session.queue.removeAll()
        sessions[session.id] = nil
        delegate?.handle(.disconnected(session.id, session.closeOutcome))
        if shuttingDown, sessions.isEmpty {
            exitRequested = true
        }
    }
}
