import NeonTransportCore

/// The server as a delegate call sees it: handed to each
/// ``WebSocketServerDelegate`` call (and to work run with
/// ``WebSocketServer/execute(_:)``) instead of a reference the delegate
/// keeps. Valid only during that call, on the server's gateway thread.
/// What it is asked to do reaches each service thread when the call's
/// gateway round ends, in the order asked, all of a round's commands for
/// one service thread together.
public struct ServiceContext {
    unowned let fanOut: FanOut

    init(_ fanOut: FanOut) {
        self.fanOut = fanOut
    }

    /// The server's configuration.
    public var configuration: WebSocketServer.Configuration { fanOut.configuration }

    /// Queues `frame` to one connection; unknown or closing ones ignore it.
    public func send(_ frame: OutboundFrame, to connection: ConnectionID) {
        fanOut.send(frame, to: connection)
    }

    /// Queues the same `frame` object to every listed connection, each
    /// service thread getting its own connections' share.
    public func send(_ frame: OutboundFrame, to connections: [ConnectionID]) {
        fanOut.send(frame, to: connections)
    }

    /// Closes a connection after the frames already queued to it.
    public func close(_ connection: ConnectionID, code: UInt16 = CloseCode.normal, reason: String = "") {
        fanOut.post(.close(connection, code: code, reason: reason), to: connection)
    }

    /// Sets (or with nil cancels) the connection's one timer.
    public func setTimer(for connection: ConnectionID, after delay: Duration?) {
        fanOut.post(.timer(connection, delay), to: connection)
    }

    /// The proxy headers of `connection`'s handshake; nil without any.
    /// Known while its ``ServerEvent/connected(_:peer:peerUID:)`` event is
    /// handled (lws lets go of a handshake's headers after it).
    public func forwardingHeaders(of connection: ConnectionID) -> ForwardingHeaders? {
        guard let connecting = fanOut.connecting, connecting.id == connection else { return nil }
        return connecting.forwarding
    }

    /// What waits unsent on every connection of every service thread, and
    /// the frames coalesced since start: gathered from each service thread
    /// when an HTTP request arrives, for ``WebSocketServerDelegate/respond(to:in:)``;
    /// empty in other calls.
    /// Sockets each service thread serves now (connections and HTTP
    /// requests); empty with one thread.
    public var socketsPerThread: [Int] {
        fanOut.socketsPerThread
    }

    public var backlog: Backlog {
        fanOut.backlog
    }
}
