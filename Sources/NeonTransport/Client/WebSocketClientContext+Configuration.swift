import NeonTransportCore

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
        /// How `wss://` connections check the server's certificate; `nil`
        /// makes a context for `ws://` only, which refuses `wss://` URLs.
        ///
        /// libwebsockets 4.1 re-registers its OpenSSL bookkeeping whenever
        /// a TLS-capable context is created, which fails TLS handshakes then
        /// in progress in other contexts of the process. So TLS is opt-in:
        /// a process should make its TLS-capable contexts before it starts
        /// connecting (one per process is the usual case).
        public var serverTrust: ServerTrust?
        /// A pause after each service round, so that the next round finds
        /// more sockets ready: fewer poll calls per message for a context
        /// holding thousands of busy connections (a load generator), at the
        /// cost of up to this much added latency. Zero (the default) for
        /// interactive clients.
        public var servicePause: Duration = .zero

        public init(
            maxMessageSize: Int = 16 << 20,
            connectTimeoutSeconds: Int = 10,
            shutdownGracePeriod: Duration = .seconds(1),
            serverTrust: ServerTrust? = nil
        ) {
            self.maxMessageSize = maxMessageSize
            self.connectTimeoutSeconds = connectTimeoutSeconds
            self.shutdownGracePeriod = shutdownGracePeriod
            self.serverTrust = serverTrust
        }
    }
}

/// How a client context's `wss://` connections check the server's
/// certificate. In every mode the connection is encrypted; only
/// ``insecureAcceptAnything`` skips checking who is at the other end.
public enum ServerTrust: Sendable, Equatable {
    /// The certificate must chain to a CA in the system's store
    /// (`/etc/ssl/certs`) and name the host connected to. The default.
    case systemStore
    /// The certificate must chain to a certificate in this PEM file (a
    /// private CA, or the server's own self-signed certificate) and name
    /// the host connected to. The system's store is not consulted.
    case certificates(path: String)
    /// No check at all: anyone on the path can pose as the server and read
    /// and change the traffic. For testing only.
    case insecureAcceptAnything
}
