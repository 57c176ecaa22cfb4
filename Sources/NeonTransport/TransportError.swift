import Glibc
import NeonTransportCore

/// Errors thrown by NeonTransport, each with a message a user can act on.
public enum TransportError: Error, Equatable, CustomStringConvertible {
    /// The server could not listen on `host:port`; `errno` is the bind or
    /// listen error when known.
    case cannotListen(host: String, port: Int, errno: Int32?)
    /// The Unix domain socket could not be bound at `path`.
    case cannotListenOnUnixSocket(path: String)
    /// libwebsockets refused to create a context (out of memory, bad options).
    case contextCreationFailed(String)
    /// The service thread could not be started.
    case threadStartFailed(errno: Int32)
    /// `start()` was called on a server that was already started (a server
    /// starts once).
    case alreadyRunning
    /// The server or client context is not running (never started or stopped).
    case notRunning
    /// A WebSocket URL could not be parsed.
    case invalidURL(String, reason: String)
    /// The TLS certificate file cannot be used (missing, unreadable, no
    /// PEM certificate in it).
    case tlsCertificate(path: String, reason: String)
    /// The TLS private key file cannot be used (missing, unreadable, no
    /// PEM key in it, protected by a passphrase).
    case tlsPrivateKey(path: String, reason: String)
    /// The private key does not belong to the certificate.
    case tlsKeyMismatch(certificate: String, key: String)
    /// A `wss://` URL was given to a client context made without a
    /// ``ServerTrust`` (a context for `ws://` only).
    case tlsNotConfigured(String)
    /// The file of trusted CA certificates cannot be used.
    case tlsTrustFile(path: String, reason: String)
    /// The server's certificate failed verification, so the TLS handshake
    /// was abandoned (trying again will not help).
    case untrustedServer(url: String, CertificateRejection)
    /// A client connection failed before the WebSocket handshake completed.
    case connectFailed(url: String, reason: String)
    /// An operation did not complete within its time limit.
    case timedOut(String)
    /// The connection is closed; carries how it closed.
    case closed(WebSocketClose)

    public var description: String {
        switch self {
        case .cannotListen(let host, let port, let code):
            let reason: String
            switch code {
            case EADDRINUSE?: reason = "address already in use — choose another port or stop the other server"
            case EACCES?: reason = "permission denied — ports below 1024 need privileges; choose a port of 1024 or more"
            case EADDRNOTAVAIL?: reason = "no local interface has that address — use 127.0.0.1 or 0.0.0.0"
            case let code?: reason = String(cString: strerror(code))
            case nil: reason = "libwebsockets could not open the listening socket (see its log above)"
            }
            return "cannot listen on \(host):\(port): \(reason)"
        case .cannotListenOnUnixSocket(let path):
            return "cannot listen on the Unix socket \(path): check that its directory exists and this user may write there, and that the path is under 108 bytes"
        case .contextCreationFailed(let what):
            return "cannot create the libwebsockets context: \(what)"
        case .threadStartFailed(let code):
            return "cannot start the service thread: \(String(cString: strerror(code)))"
        case .alreadyRunning:
            return "this server was already started; a WebSocketServer starts once, so make a new one to listen again"
        case .notRunning:
            return "the transport is not running (not started yet, or already stopped)"
        case .invalidURL(let url, let reason):
            return "invalid WebSocket URL \"\(url)\": \(reason)"
        case .tlsCertificate(let path, let reason):
            return "cannot use the TLS certificate \(path): \(reason)"
        case .tlsPrivateKey(let path, let reason):
            return "cannot use the TLS private key \(path): \(reason)"
        case .tlsKeyMismatch(let certificate, let key):
            return "the TLS private key \(key) does not belong to the certificate \(certificate); give the key that was made together with that certificate"
        case .tlsNotConfigured(let url):
            return "cannot open \(url): this client context was made for ws:// only; give its configuration a serverTrust (.systemStore checks against the system's CA store)"
        case .tlsTrustFile(let path, let reason):
            return "cannot use the CA file \(path): \(reason)"
        case .untrustedServer(let url, let rejection):
            return "cannot connect to \(url): \(rejection)"
        case .connectFailed(let url, let reason):
            return "cannot connect to \(url): \(reason)"
        case .timedOut(let what):
            return "timed out: \(what)"
        case .closed(let close):
            return "connection \(close)"
        }
    }
}
