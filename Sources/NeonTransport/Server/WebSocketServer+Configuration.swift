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
        /// TLS settings. Reserved: this build refuses to start with TLS.
        public var tls: TLSConfiguration?
        /// A connection silent this long is pinged at half of it and closed
        /// when no valid frame (a pong included) arrived for all of it; nil
        /// keeps idle connections open forever. Whole seconds, 2…65535.
        public var idleTimeout: Duration?

        public init(
            host: String = "127.0.0.1",
            port: Int = 0,
            subprotocol: String = "neonsync.v1",
            maxMessageSize: Int = 1 << 20,
            shutdownGracePeriod: Duration = .seconds(1),
            tls: TLSConfiguration? = nil,
            idleTimeout: Duration? = nil
        ) {
            self.idleTimeout = idleTimeout
            self.host = host
            self.port = port
            self.subprotocol = subprotocol
            self.maxMessageSize = maxMessageSize
            self.shutdownGracePeriod = shutdownGracePeriod
            self.tls = tls
        }
    }
}

/// Certificate and key for serving `wss://`. Kept in the configuration
/// types so TLS can be wired without changing them; not supported yet.
public struct TLSConfiguration: Sendable, Equatable {
    /// PEM certificate chain file.
    public var certificatePath: String
    /// PEM private key file.
    public var privateKeyPath: String

    public init(certificatePath: String, privateKeyPath: String) {
        self.certificatePath = certificatePath
        self.privateKeyPath = privateKeyPath
    }
}
