import CLibWebSockets
import Glibc
import NeonTransportCore
import Synchronization

/// Commands other threads send to a client context's service thread.
enum ClientCommand: LifecycleCommand {
    case connect(ClientConnection, ClientConnection.Handler)
    case send(OutboundFrame, ConnectionID)
    case close(ConnectionID, code: UInt16, reason: String)
    /// Close every connection with 1001, then leave the service loop.
    case shutdown
    /// Leave the service loop now (the grace period is over).
    case exitNow
}

/// One client connection on the service thread: the shared session state
/// plus the handler and the C strings lws was given. Not `Sendable`.
final class ClientSession {
    let connection: ClientConnection
    let handler: ClientConnection.Handler
    let session: Session
    /// Address, path and headers handed to `lws_client_connect_via_info`.
    let memory = CMemory()
    /// `true` while lws holds our +1 reference as the wsi's opaque user data.
    var retainedByLWS = false
    /// Set once the final event (`.closed`/`.failed`/`.untrusted`) was
    /// delivered.
    var finished = false
    /// The first reason the server's certificate was refused, if it was.
    var certificateRejection: CertificateRejection?
    /// This connection's TLS handshake is counted in `TLSContextGate`.
    var countsTLSHandshake = false

    /// Its TLS handshake ended (once; a plain connection has none).
    func endTLSHandshake() {
        guard countsTLSHandshake else { return }
        countsTLSHandshake = false
        TLSContextGate.endHandshake()
    }

    init(connection: ClientConnection, handler: @escaping ClientConnection.Handler, maxMessageSize: Int) {
        self.connection = connection
        self.handler = handler
        session = Session(id: connection.id, maxMessageSize: maxMessageSize, state: .connecting(closeRequest: nil))
    }
}

/// A client context's lws context, service thread and connections.
///
/// `@unchecked Sendable`: what the service thread alone reads and mutates,
/// inside lws callbacks and the service loop, is ``ThreadState``, bound to
/// that thread through `serviceState` (pinned as the thread starts, every
/// access checked). Other threads touch only `configuration` (immutable),
/// `lifecycle` (locks and atomics), which is how their commands reach the
/// service thread, and `lastID` (an atomic).
final class ClientEngine: ServiceEngine, @unchecked Sendable {
    let configuration: WebSocketClientContext.Configuration
    let lifecycle = ServiceLifecycle<ClientCommand>()
    let lastID = Atomic<UInt64>(0)

    /// What only the service thread touches.
    final class ThreadState: ServiceFlags {
        var context: OpaquePointer?
        var sessions: [ConnectionID: ClientSession] = [:]
        let scratch = WriteScratch()
        var shuttingDown = false
        var exitRequested = false
        /// The name of the one local protocol every client wsi binds to.
        var protocolName: UnsafeMutablePointer<CChar>?
    }

    let serviceState = ServiceThreadBound(ThreadState())

    init(configuration: WebSocketClientContext.Configuration) {
        self.configuration = configuration
    }

    // The service-thread state by name; each access checks the thread.
    var context: OpaquePointer? {
        _read { yield serviceState.value.context }
        set { serviceState.value.context = newValue }
    }
    var sessions: [ConnectionID: ClientSession] {
        _read { yield serviceState.value.sessions }
        _modify { yield &serviceState.value.sessions }
    }
    var scratch: WriteScratch {
        _read { yield serviceState.value.scratch }
    }
    var protocolName: UnsafeMutablePointer<CChar>? {
        _read { yield serviceState.value.protocolName }
        set { serviceState.value.protocolName = newValue }
    }

    /// A context that listens nowhere, with the one protocol every client
    /// connection binds to and the trust settings of `wss://` connections.
    /// Clients hold a few sockets: lws's own poll() loop serves them.
    var eventLoopKind: EventLoop.Kind { .poll }

    func createContext(memory: CMemory, loop: EventLoop) throws(TransportError) -> (context: OpaquePointer, port: Int) {
        var entry = lws_protocols()
        protocolName = memory.string("neonsync-client")
        entry.name = UnsafePointer(protocolName)
        entry.callback = clientCallback
        var info = lws_context_creation_info()
        info.port = CONTEXT_PORT_NO_LISTEN
        info.protocols = memory.protocols(entry)
        info.user = contextUser
        info.connect_timeout_secs = UInt32(clamping: configuration.connectTimeoutSeconds)
        if configuration.serverTrust != nil {
            info.options = neon_lws_option_do_ssl_global_init()
        }
        if case .certificates(let path) = configuration.serverTrust {
            info.client_ssl_ca_filepath = UnsafePointer(memory.string(path))
            info.options |= neon_lws_option_disable_os_ca_certs()
        }
        guard let context = TLSContextGate.creatingContext({ lws_create_context(&info) }) else {
            throw .contextCreationFailed("lws_create_context returned NULL for a client context")
        }
        return (context, 0)
    }

    func serviceStarted(_ context: OpaquePointer) {
        self.context = context
    }

    /// Sleeps ``WebSocketClientContext/Configuration/servicePause`` when
    /// one is set.
    func serviceRoundEnded() {
        guard configuration.servicePause > .zero else { return }
        let pause = configuration.servicePause.components
        var pauseTime = timespec(tv_sec: Int(pause.seconds), tv_nsec: Int(pause.attoseconds / 1_000_000_000))
        nanosleep(&pauseTime, nil)
    }

    func contextWillBeDestroyed() {
        // lws closes every connection now: no more calls on their wsis.
        for client in sessions.values {
            client.session.wsi = nil
        }
    }

    /// Every connection still open gets its final event.
    func serviceEnded() {
        context = nil
        for client in Array(sessions.values) {
            if client.retainedByLWS {
                client.retainedByLWS = false
                Unmanaged.passUnretained(client).release()
            }
            finish(client, .failed("the client context stopped"))
        }
    }

    /// Runs one command on the service thread.
    func perform(_ command: ClientCommand) {
        switch command {
        case .connect(let connection, let handler):
            open(connection, handler: handler)
        case .send(let frame, let id):
            sessions[id]?.session.enqueue(frame)
        case .close(let id, let code, let reason):
            sessions[id]?.session.requestClose(code: code, reason: reason)
        case .shutdown:
            guard !shuttingDown else { return }
            shuttingDown = true
            for client in sessions.values {
                client.session.requestClose(code: CloseCode.goingAway, reason: "client shutting down")
            }
            if sessions.isEmpty {
                exitRequested = true
            }
        case .exitNow:
            exitRequested = true
        }
    }

    /// Delivers a connection's final event once and forgets it.
    func finish(_ client: ClientSession, _ event: ClientEvent) {
        guard !client.finished else { return }
        client.finished = true
        client.endTLSHandshake()
        client.session.wsi = nil
        client.session.apply(.closed)
        sessions[client.session.id] = nil
        client.handler(client.connection, event)
        if shuttingDown, sessions.isEmpty {
            exitRequested = true
        }
    }
}
