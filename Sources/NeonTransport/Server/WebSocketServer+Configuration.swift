import CLibWebSockets
import Glibc
import NeonTransportCore

extension WebSocketServer {
    /// Where and how a ``WebSocketServer`` listens.
    public struct Configuration: Sendable, Equatable {
        /// IP address to bind: `127.0.0.1` (default), `0.0.0.0` for every
        /// IPv4 interface, or another local address. `localhost` means
        /// `127.0.0.1`.
        public var host: String
        /// TCP port; 0 picks a free ephemeral port (see
        /// ``WebSocketServer/port``).
        public var port: Int
        /// The WebSocket subprotocol (`Sec-WebSocket-Protocol`) served.
        /// Clients that name no subprotocol are served by it too; clients
        /// that ask only for other subprotocols fail the handshake.
        public var subprotocol: String
        /// Largest inbound message in bytes, after reassembly; larger ones
        /// are rejected and their connection closed with 1009.
        public var maxMessageSize: Int
        /// How long ``WebSocketServer/stop()`` waits for connections to
        /// flush and acknowledge their 1001 close frames.
        public var shutdownGracePeriod: Duration
        /// Certificate and key to serve `wss://` (and HTTPS for the plain
        /// HTTP endpoints) on the same port; `nil` serves `ws://`.
        public var tls: TLSConfiguration?
        /// A connection silent this long is pinged at half of it and closed
        /// when no frame (a pong included) arrived for all of it, each within
        /// a quarter of it after its due time; nil keeps idle connections
        /// open forever. A timeout under 2 s counts as 2 s.
        public var idleTimeout: Duration?
        /// Which browser pages may open WebSocket connections; handshakes
        /// from other origins are answered 403.
        public var origins: OriginPolicy
        /// Most bytes of messages that may wait unsent to one connection.
        /// A message always goes into an empty backlog; one that would take
        /// a backlog past this closes the connection with
        /// ``CloseCode/tooSlow`` and frees the backlog. Frames with a
        /// ``OutboundFrame/coalescingKey`` replace their waiting
        /// predecessor, so position updates alone never reach it.
        public var maxOutboundBytes: Int
        /// A Unix domain socket to listen on as well (plain `ws://`, no TLS),
        /// or nil. The socket file is replaced when it exists: check first
        /// that nothing listens on it. Its connections report the peer's
        /// user id (`SO_PEERCRED`) in ``ServerEvent/connected(_:peer:peerUID:)``.
        public var unixSocketPath: String?
        /// Let other sockets (other processes, each with this set) listen
        /// on the same address and port (`SO_REUSEPORT`, set on a listening
        /// socket the server opens itself, see `SharedPort`): the kernel
        /// hands each new connection to one of them.
        public var sharesPort: Bool
        /// Service threads that read and write the connections, at least 1.
        /// With more than one, the first accepts every connection (TCP and
        /// Unix) and hands it to the thread with the fewest; a broadcast is
        /// framed once and each thread writes its own connections' copies.
        /// The delegate is called on one thread of its own whatever the count.
        public var threads: Int
        /// How each service thread waits for its sockets.
        public var eventLoop: ServiceLoop

        public init(
            host: String = "127.0.0.1",
            port: Int = 0,
            subprotocol: String = "neonsync.v1",
            maxMessageSize: Int = 1 << 20,
            shutdownGracePeriod: Duration = .seconds(1),
            tls: TLSConfiguration? = nil,
            idleTimeout: Duration? = nil,
            origins: OriginPolicy = .noBrowsers,
            maxOutboundBytes: Int = 8 << 20,
            unixSocketPath: String? = nil,
            sharesPort: Bool = false,
            threads: Int = 1,
            eventLoop: ServiceLoop = .epoll
        ) {
            self.eventLoop = eventLoop
            self.threads = max(threads, 1)
            self.unixSocketPath = unixSocketPath
            self.sharesPort = sharesPort
            self.idleTimeout = idleTimeout
            self.host = host
            self.port = port
            self.subprotocol = subprotocol
            self.maxMessageSize = maxMessageSize
            self.shutdownGracePeriod = shutdownGracePeriod
            self.tls = tls
            self.origins = origins
            self.maxOutboundBytes = maxOutboundBytes
        }

        /// The CPUs this process may run on (its affinity mask, which a
        /// container's or `taskset`'s limits narrow), at least 1: a
        /// server's natural number of ``threads``.
        public static let availableCores: Int = {
            let cores = Int(neon_available_cores())
            return cores > 0 ? cores : max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)
        }()
    }
}

/// Certificate and key for serving `wss://` and HTTPS. Only TLS 1.2 and
/// later are offered.
public struct TLSConfiguration: Sendable, Equatable {
    /// PEM certificate chain file: the server's certificate first, then
    /// any intermediate CA certificates.
    public var certificatePath: String
    /// PEM private key file, unencrypted (a passphrase cannot be asked for).
    public var privateKeyPath: String

    public init(certificatePath: String, privateKeyPath: String) {
        self.certificatePath = certificatePath
        self.privateKeyPath = privateKeyPath
    }

    /// Checks that both files can be read, hold a PEM certificate and an
    /// unencrypted PEM private key, and that the key belongs to the
    /// certificate. ``WebSocketServer/start()`` runs the same check.
    ///
    /// - Throws: ``TransportError/tlsCertificate(path:reason:)``,
    ///   ``TransportError/tlsPrivateKey(path:reason:)``,
    ///   ``TransportError/tlsKeyMismatch(certificate:key:)``.
    func validate() throws(TransportError) {
        try TLSFiles.checkServer(self)
    }
}
