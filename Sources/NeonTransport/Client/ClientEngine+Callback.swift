import CLibWebSockets
import NeonTransportCore

/// The lws protocol callback of every client context; finds its engine
/// through the context user pointer.
func clientCallback(
    _ wsi: OpaquePointer?, _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?, _ length: Int
) -> Int32 {
    guard let wsi, let engine = ClientEngine.owner(of: wsi) else { return 0 }
    return engine.handle(wsi, reason, user, input, length)
}

extension ClientEngine {
    /// Starts connecting on the service thread.
    func open(_ connection: ClientConnection, handler: @escaping ClientConnection.Handler) {
        let client = ClientSession(
            connection: connection, handler: handler, maxMessageSize: configuration.maxMessageSize)
        sessions[connection.id] = client
        guard !shuttingDown, let context else {
            finish(client, .failed("the client context is stopping"))
            return
        }
        let url = connection.url
        let memory = client.memory
        var info = lws_client_connect_info()
        info.context = context
        // lws 4.x (LWS_WITH_UNIX_SOCK) takes an address starting with + as
        // the path of a Unix domain socket.
        info.address = UnsafePointer(memory.string(url.unixSocket.map { "+" + $0 } ?? url.host))
        info.port = Int32(url.port)
        info.path = UnsafePointer(memory.string(url.path))
        info.host = UnsafePointer(memory.string(url.hostHeader))
        if url.isSecure {
            info.ssl_connection = Self.tlsFlags(configuration.serverTrust)
            TLSContextGate.beginHandshake()
            client.countsTLSHandshake = true
        }
        info.protocol = connection.subprotocol.map { UnsafePointer(memory.string($0)) }
        info.local_protocol_name = UnsafePointer(protocolName)
        info.ietf_version_or_minus_one = -1
        info.opaque_user_data = Unmanaged.passRetained(client).toOpaque()
        client.retainedByLWS = true
        let wsi = lws_client_connect_via_info(&info)
        if wsi == nil {
            if client.retainedByLWS {
                client.retainedByLWS = false
                Unmanaged.passUnretained(client).release()
            }
            finish(client, .failed("libwebsockets could not start connecting to \(url)"))
        } else if !client.finished {
            client.session.wsi = wsi
        }
    }

    /// Dispatches one lws callback on the service thread.
    func handle(
        _ wsi: OpaquePointer, _ reason: lws_callback_reasons,
        _ user: UnsafeMutableRawPointer?, _ input: UnsafeMutableRawPointer?, _ length: Int
    ) -> Int32 {
        if reason == LWS_CALLBACK_EVENT_WAIT_CANCELLED {
            performPosted()
            return 0
        }
        guard let raw = lws_get_opaque_user_data(wsi) else { return 0 }
        let client = Unmanaged<ClientSession>.fromOpaque(raw).takeUnretainedValue()
        let session = client.session
        switch reason {
        case LWS_CALLBACK_OPENSSL_PERFORM_SERVER_CERT_VERIFICATION:
            return verifyServerCertificate(client, store: user.map(OpaquePointer.init), preverified: length != 0)
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            client.endTLSHandshake()
            session.wsi = wsi
            let action = session.apply(.established(framesWaiting: !session.queue.isEmpty))
            client.handler(client.connection, .connected)
            session.perform(action, wsi)
        case LWS_CALLBACK_CLIENT_RECEIVE:
            guard session.state.isOpen else { return 0 }
            let outcome = session.assembler.consume(
                UnsafeRawBufferPointer(start: input, count: length),
                isBinary: lws_frame_is_binary(wsi) != 0,
                isFinal: lws_is_final_fragment(wsi) != 0,
                remainingInFrame: lws_remaining_packet_payload(wsi))
            switch outcome {
            case .incomplete:
                break
            case .message(let message):
                client.handler(client.connection, .received(message))
            case .rejected(let rejection):
                client.handler(client.connection, .rejected(rejection))
                session.requestClose(code: rejection.closeCode, reason: rejection.closeReason)
            }
        case LWS_CALLBACK_CLIENT_WRITEABLE:
            return session.flush(wsi, scratch: scratch)
        case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
            let close = Session.peerClose(UnsafeRawBufferPointer(start: input, count: length))
            return session.perform(session.apply(.peerClosed(.valid(close))), wsi)
        case LWS_CALLBACK_CLIENT_CLOSED:
            release(client, wsi)
            finish(client, .closed(session.closeOutcome))
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            let detail = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
            release(client, wsi)
            if let rejection = client.certificateRejection {
                finish(client, .untrusted(rejection))
            } else {
                finish(client, .failed(Self.failureSentence(detail.flatMap { $0.isEmpty ? nil : $0 } ?? "connection failed",
                                                            url: client.connection.url)))
            }
        case LWS_CALLBACK_WSI_DESTROY:
            release(client, wsi)
            if session.establishedWSI != nil {
                finish(client, .closed(session.closeOutcome))
            } else if let rejection = client.certificateRejection {
                finish(client, .untrusted(rejection))
            } else {
                finish(client, .failed("connection closed before the handshake"))
            }
        default:
            break
        }
        return 0
    }

    /// lws's words for a failed connection, with what they mean when the
    /// scheme does not match the port: OpenSSL's bare error from a plain
    /// port for `wss://`; a close before any HTTP answer (what a TLS port
    /// does with a plain request) for `ws://`.
    static func failureSentence(_ detail: String, url connected: WebSocketURL) -> String {
        // The URL to suggest is the one the user wrote: without the room
        // a client adds for a routing proxy (`?room=`).
        let url = connected.removingQueryParameter("room")
        if url.isSecure, detail.hasPrefix("connect SSL err") || detail.contains("SSL routines") {
            var plain = url
            plain.isSecure = false
            return "\(url.hostHeader) did not answer TLS; if it serves plain WebSocket, try \(plain)"
        }
        if !url.isSecure, url.unixSocket == nil, detail == "read failed" {
            var secure = url
            secure.isSecure = true
            return "\(url.hostHeader) closed the connection without an HTTP answer; if it serves TLS, try \(secure)"
        }
        return detail
    }

    /// The `LCCSCF_*` flags of a `wss://` connection. With verification
    /// off, lws is told to accept what it would otherwise refuse, and
    /// ``verifyServerCertificate(_:store:preverified:)`` accepts the rest.
    static func tlsFlags(_ trust: ServerTrust?) -> Int32 {
        var flags = LCCSCF_USE_SSL.rawValue
        if trust == .insecureAcceptAnything {
            flags |= LCCSCF_ALLOW_SELFSIGNED.rawValue | LCCSCF_SKIP_SERVER_CERT_HOSTNAME_CHECK.rawValue
                | LCCSCF_ALLOW_EXPIRED.rawValue | LCCSCF_ALLOW_INSECURE.rawValue
        }
        return Int32(bitPattern: flags)
    }

    /// LWS_CALLBACK_OPENSSL_PERFORM_SERVER_CERT_VERIFICATION, once per
    /// certificate of the server's chain: `store` is OpenSSL's
    /// X509_STORE_CTX, `preverified` OpenSSL's own verdict. Returns 0 to
    /// accept, 1 to abandon the handshake (remembering why, for the
    /// connection's `.untrusted` event).
    private func verifyServerCertificate(_ client: ClientSession, store: OpaquePointer?, preverified: Bool) -> Int32 {
        guard !preverified, let store else { return 0 }
        let code = X509_STORE_CTX_get_error(store)
        if code == X509_V_OK {
            return 0
        }
        if configuration.serverTrust == .insecureAcceptAnything {
            X509_STORE_CTX_set_error(store, X509_V_OK)
            return 0
        }
        if client.certificateRejection == nil {
            client.certificateRejection = CertificateRejection(code: code)
        }
        return 1
    }

    /// Drops the +1 reference lws held through the opaque user data.
    private func release(_ client: ClientSession, _ wsi: OpaquePointer) {
        lws_set_opaque_user_data(wsi, nil)
        if client.retainedByLWS {
            client.retainedByLWS = false
            Unmanaged.passUnretained(client).release()
        }
    }
}
