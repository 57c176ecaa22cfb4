import Glibc
import NeonClient
import NeonCore
import NeonLock
import NeonTransport

/// What other threads deliver to the runtime's loop: the lws service
/// thread a connection's events, the signal queue the signals.
enum Delivery: Sendable {
    /// An event of the connection opened as number `generation`.
    case network(generation: Int, ClientEvent)
    /// SIGWINCH: the terminal changed size.
    case resized
    /// SIGINT, SIGTERM or SIGHUP: end with status 0.
    case stop
    /// A snippet the program had run printed more, or ended (`SnippetRunner`).
    case snippet(SnippetProgress)
}

/// The runtime loop's mailbox: other threads post deliveries into a locked
/// queue and a self-pipe wakes the loop's poll(), which drains it.
final class RuntimeMailbox: Sendable {
    private let queue = Locked<[Delivery]>([])
    let readFD: Int32
    private let writeFD: Int32
    /// The client context connections are opened on; `nil` for programs
    /// that never connect (replay).
    private let network: WebSocketClientContext?

    init(network: WebSocketClientContext? = nil) throws(NeonError) {
        self.network = network
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw NeonError("cannot create a wake-up pipe: \(String(cString: strerror(errno)))")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    func post(_ delivery: Delivery) {
        queue.withLock { $0.append(delivery) }
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    /// Opens a neonsync.v1 connection whose events are posted here, tagged
    /// with `generation` so the events of a replaced connection can be told
    /// apart and dropped.
    func connect(to url: WebSocketURL, generation: Int) throws(TransportError) -> ClientConnection {
        guard let network else { throw .notRunning }
        return try network.connect(to: url, subprotocol: "neonsync.v1") { [self] _, event in
            post(.network(generation: generation, event))
        }
    }

    /// Everything posted so far; empties the pipe too.
    func drain() -> [Delivery] {
        var sink = [UInt8](repeating: 0, count: 256)
        while read(readFD, &sink, sink.count) > 0 {}
        return queue.withLock { deliveries in
            defer { deliveries.removeAll() }
            return deliveries
        }
    }
}
