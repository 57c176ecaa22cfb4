import CLibWebSockets
import Glibc
import NeonTransportCore

/// The lws protocol callback of every server context. A C function pointer
/// cannot capture anything, so it finds its engine through the context user
/// pointer and hands each reason to one method.
func serverCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let engine = ServerEngine.owner(of: wsi) else { return 0 }
    return engine.handle(wsi, reason, user, input, length)
}

extension ServerEngine {
    /// Dispatches one lws callback on the service thread.
    func handle(
        _ wsi: OpaquePointer, _ reason: lws_callback_reasons,
        _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?, _ length: Int
    ) -> Int32 {
        switch reason {
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            performPosted()
            return 0
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            return confirmUpgrade(wsi)
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
            return shuttingDown ? 1 : 0
        case LWS_CALLBACK_ESTABLISHED:
            guard let user else { return -1 }
            opened(wsi, slot: user)
            return 0
        case LWS_CALLBACK_RECEIVE:
            guard let session = connections.session(in: user) else { return 0 }
            session.heardAt = idle.tick
            received(UnsafeRawBufferPointer(start: input, count: length), on: session, wsi)
            return 0
        case LWS_CALLBACK_RECEIVE_PONG:
            connections.session(in: user)?.heardAt = idle.tick
            return 0
        case LWS_CALLBACK_SERVER_WRITEABLE:
            guard let session = connections.session(in: user) else { return 0 }
            return session.flush(wsi, scratch: nil, cork: cork)
        case LWS_CALLBACK_WS_SERVER_DROP_PROTOCOL:
            if let session = connections.session(in: user) {
                closing(session, wsi)
            }
            return 0
        case LWS_CALLBACK_TIMER:
            if let session = connections.session(in: user), session.establishedWSI != nil, session.state.isOpen {
                post(.timer(session.id))
            }
            return 0
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            guard let session = connections.session(in: user) else { return 0 }
            return peerClosed(session, wsi, payload: UnsafeRawBufferPointer(start: input, count: length))
        case LWS_CALLBACK_CLOSED:
            if let session = connections.close(slot: user) {
                closed(session)
            }
            return 0
        case LWS_CALLBACK_HTTP:
            return http.request(wsi, slot: user, path: UnsafeRawBufferPointer(start: input, count: length)) { request in
                let token = gateway.nextToken()
                guard gateway.post(.http(request, shard: shard, token: token)) else { return nil }
                serviceState.value.waitingHTTP[token] = wsi
                return token
            }
        case LWS_CALLBACK_HTTP_WRITEABLE:
            return http.writeable(wsi, slot: user)
        case LWS_CALLBACK_CLOSED_HTTP:
            if let token = http.closed(slot: user) {
                serviceState.value.waitingHTTP[token] = nil
            }
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        case LWS_CALLBACK_WSI_DESTROY:
            if ring.count > 1 {
                ring.released(from: shard)
            }
            return 0
        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
    }

    private func opened(_ wsi: OpaquePointer, slot: UnsafeMutableRawPointer) {
        let session = connections.open(in: slot, maxMessageSize: configuration.maxMessageSize,
                                       maxBacklog: configuration.maxOutboundBytes)
        session.writeRound = writeRound
        session.heardAt = idle.tick
        session.wsi = wsi
        if lws_is_ssl(wsi) == 0 {
            session.plainSocket = lws_get_socket_fd(wsi)
        }
        // The handshake's answer, written whole into a new socket.
        session.lwsHoldsBytes = lws_partial_buffered(wsi) != 0
        let uid = Self.unixPeerUID(of: wsi)
        post(.connected(session.id, peer: uid == nil ? RequestHeaders.peer(of: wsi) : "unix", peerUID: uid),
             forwarding: ForwardingHeaders(of: wsi))
        if shuttingDown {
            session.requestClose(code: CloseCode.goingAway, reason: "server shutting down")
        }
    }

    private func received(_ chunk: UnsafeRawBufferPointer, on session: Session, _ wsi: OpaquePointer) {
        guard session.state.isOpen, !session.rejected else { return }
        let outcome = session.assembler.consume(
            chunk,
            isBinary: lws_frame_is_binary(wsi) != 0,
            isFinal: lws_is_final_fragment(wsi) != 0,
            remainingInFrame: lws_remaining_packet_payload(wsi))
        switch outcome {
        case .incomplete:
            break
        case .message(let message):
            post(.received(message, from: session.id))
        case .rejected(let rejection):
            // The gateway answers it, then fails the connection after its
            // answer (`.fail`); nothing more is read from it meanwhile.
            session.rejected = true
            post(.rejected(rejection, from: session.id))
        }
    }

    private func closed(_ session: Session) {
        session.wsi = nil
        session.apply(.closed)
        post(.disconnected(session.id, session.closeOutcome))
        if shuttingDown, connections.isEmpty {
            exitRequested = true
        }
    }
}

extension ServerEngine {
    /// The user id of the peer of a Unix domain socket connection, from the
    /// kernel (`SO_PEERCRED`); nil for any other socket.
    static func unixPeerUID(of wsi: OpaquePointer) -> UInt32? {
        let fd = lws_get_socket_fd(wsi)
        guard fd >= 0 else { return nil }
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0, Int32(address.ss_family) == AF_UNIX else { return nil }
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; } needs
        // _GNU_SOURCE to import; its layout is three 32-bit fields.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var size = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0,
              size == socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size) else { return nil }
        return credentials.uid
    }
}
