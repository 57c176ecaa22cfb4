import CLibWebSockets
import Glibc
import NeonLock
import NeonTransportCore

/// The listening sockets of a server with several service threads, opened
/// by ``WebSocketServer/start()`` before any of them starts: shard 0
/// watches them and hands what it accepts to the shard with the fewest
/// sockets, TCP and Unix alike.
final class Listeners: Sendable {
    struct Sockets: Sendable {
        let tcp: Int32
        let unix: Int32?
        /// The bound TCP port.
        let port: Int
        /// lws holds them (they close with shard 0's context).
        var adopted = false

        /// Every descriptor to watch.
        var all: [Int32] {
            [tcp] + (unix.map { [$0] } ?? [])
        }
    }

    private let sockets = Locked<Sockets?>(nil)

    /// Opens the TCP listener (`SO_REUSEPORT` only with `sharesPort`) and
    /// the Unix one when configured.
    func open(_ configuration: WebSocketServer.Configuration) throws(TransportError) {
        let listening = try SharedPort.listen(ListenAddress(host: configuration.host), host: configuration.host,
                                              port: configuration.port, reusePort: configuration.sharesPort)
        var unix: Int32?
        if let path = configuration.unixSocketPath {
            do {
                unix = try SharedPort.listenUnix(path)
            } catch {
                Glibc.close(listening.fd)
                throw error
            }
        }
        sockets.withLock { $0 = Sockets(tcp: listening.fd, unix: unix, port: listening.port) }
    }

    /// The open sockets; nil before ``open(_:)``.
    var current: Sockets? {
        sockets.withLock { $0 }
    }

    /// lws holds them now.
    func markAdopted() {
        sockets.withLock { $0?.adopted = true }
    }

    /// Closes them unless lws holds them (a start that failed).
    func closeUnlessAdopted() {
        let open = sockets.withLock { sockets -> [Int32] in
            defer { sockets = nil }
            guard let current = sockets, !current.adopted else { return [] }
            return current.all
        }
        for fd in open { Glibc.close(fd) }
    }
}

extension ServerEngine {
    /// Called by the acceptor's callback: accepts what waits on `listener`
    /// (at most 64, so that a burst of connects cannot starve the open
    /// connections) and serves each socket here or on the shard with the
    /// fewest, one post per shard.
    func accept(from listener: Int32) {
        let unix = listeners?.current?.unix == listener
        var handed = [[ServerCommand]](repeating: [], count: ring.count)
        for _ in 0..<64 {
            // accept4 needs _GNU_SOURCE to import.
            let fd = Glibc.accept(listener, nil, nil)
            guard fd >= 0 else { break }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            if !unix {
                var one: Int32 = 1
                setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            let target = ring.count == 1 ? shard : ring.claimLeastLoaded()
            if target == shard {
                adopt(fd, unix: unix)
            } else {
                handed[target].append(.adopt(fd, unix: unix))
            }
        }
        for (target, commands) in handed.enumerated() where !commands.isEmpty {
            guard !ring.queues[target].post(contentsOf: commands) else { continue }
            // That shard has stopped: the sockets close unserved.
            for case .adopt(let fd, _) in commands {
                Glibc.close(fd)
                ring.released(from: target)
            }
        }
    }

    /// Serves an accepted socket on this shard's WebSocket vhost (a Unix
    /// one on the plain vhost). lws closes it when it cannot.
    func adopt(_ fd: Int32, unix: Bool) {
        guard let context = serviceState.value.context,
              let vhost = lws_get_vhost_by_name(context, unix ? Self.unixVhostName : Self.vhostName) else {
            Glibc.close(fd)
            if ring.count > 1 { ring.released(from: shard) }
            return
        }
        _ = lws_adopt_socket_vhost(vhost, fd)
    }

    /// The gateway's answer to an HTTP request of this shard.
    func answer(_ token: UInt64, _ response: HTTPResponse) {
        guard let wsi = serviceState.value.waitingHTTP.removeValue(forKey: token) else { return }
        http.answer(response, wsi)
    }
}
