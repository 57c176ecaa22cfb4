extension WebSocketClientContext {
    /// Settings shared by every connection of one client context.
    public struct Configuration: Sendable, Equatable {
        /// Largest inbound message in bytes; larger ones are rejected and
        /// the connection closed with 1009.
        public var maxMessageSize: Int
        /// How long a connection may take to connect and finish the
        /// handshake before it fails.
        public var connectTimeoutSeconds: Int
        /// How long ``WebSocketClientContext/stop()`` waits for connections
        /// to close after sending them 1001.
        public var shutdownGracePeriod: Duration
        /// CA bundle for `wss://`. Reserved: this build refuses `wss://`.
        public var trustedCertificatesPath: String?

        public init(
            maxMessageSize: Int = 16 << 20,
            connectTimeoutSeconds: Int = 10,
            shutdownGracePeriod: Duration = .seconds(1),
            trustedCertificatesPath: String? = nil
        ) {
            self.maxMessageSize = maxMessageSize
            self.connectTimeoutSeconds = connectTimeoutSeconds
            self.shutdownGracePeriod = shutdownGracePeriod
            self.trustedCertificatesPath = trustedCertificatesPath
        }
    }
}
