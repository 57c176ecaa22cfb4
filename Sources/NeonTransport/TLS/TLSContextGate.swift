import Foundation
import NeonTransportCore

/// Keeps a new lws context from breaking client TLS handshakes in flight.
///
/// libwebsockets 4.1.6 keeps the OpenSSL ex-data index under which each
/// `SSL` finds its connection in one process-wide variable, and takes a new
/// index every time a context is created with SSL global init
/// (`lws_context_init_ssl_library`; later lws versions take it once). A
/// handshake that began before another context was created then looks its
/// connection up under the new index, finds nothing, and its certificate
/// check fails ("can't get wsi from ssl privdata"): the client sees an SSL
/// error with no certificate verdict, which reads as "did not answer TLS".
/// One process with several contexts at once meets it (the test suite;
/// `neonsync bench` makes its two before it connects). So a context is
/// created only while no client handshake is in flight, and a handshake
/// waits for a creation under way to end.
enum TLSContextGate {
    private static let condition = NSCondition()
    // Guarded by `condition`.
    nonisolated(unsafe) private static var creating = 0
    nonisolated(unsafe) private static var handshakes = 0

    /// Runs `create` (an `lws_create_context`) once no client handshake is
    /// in flight; waits at most 10 s for them, then creates all the same.
    static func creatingContext<T, E: Error>(_ create: () throws(E) -> T) throws(E) -> T {
        condition.lock()
        creating += 1
        let deadline = Date().addingTimeInterval(10)
        while handshakes > 0, condition.wait(until: deadline) {}
        condition.unlock()
        defer {
            condition.lock()
            creating -= 1
            condition.broadcast()
            condition.unlock()
        }
        return try create()
    }

    /// A client TLS handshake begins (waits, at most 10 s, while a context
    /// is being created).
    static func beginHandshake() {
        condition.lock()
        let deadline = Date().addingTimeInterval(10)
        while creating > 0, condition.wait(until: deadline) {}
        handshakes += 1
        condition.unlock()
    }

    /// The handshake begun ended: established, failed or abandoned.
    static func endHandshake() {
        condition.lock()
        handshakes -= 1
        condition.broadcast()
        condition.unlock()
    }
}
