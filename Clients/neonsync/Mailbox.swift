import Glibc
import NeonTransport
import Synchronization

/// What other threads tell the main loop: network events and signals.
enum AppEvent: Sendable {
    case network(generation: Int, ClientEvent)
    case resized
    case terminate
}

/// A locked queue plus a self-pipe that wakes the main loop's poll().
final class Mailbox: Sendable {
    private let queue = Mutex<[AppEvent]>([])
    let readFD: Int32
    private let writeFD: Int32
    /// The client context connections are opened on; `nil` for commands
    /// that never connect (replay).
    private let network: WebSocketClientContext?

    init(network: WebSocketClientContext? = nil) throws(ClientError) {
        self.network = network
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw ClientError("cannot create a wake-up pipe: \(String(cString: strerror(errno)))")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readFD = fds[0]
        writeFD = fds[1]
    }

    func post(_ event: AppEvent) {
        queue.withLock { $0.append(event) }
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
    func drain() -> [AppEvent] {
        var sink = [UInt8](repeating: 0, count: 256)
        while read(readFD, &sink, sink.count) > 0 {}
        return queue.withLock { events in
            defer { events.removeAll() }
            return events
        }
    }
}
