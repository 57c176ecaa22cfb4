import Foundation
import NeonCore
import NeonLock
import NeonServer
import NeonTestSupport
import NeonTransport
import NeonTransportCore

/// One node of the server in the test's process, without a socket (what
/// Hummingbird's in-process test client and swift-nio's `EmbeddedChannel`
/// give): the real gateway and `Executor`, the real `LocalSequencer` on an
/// `InMemoryStore` (its committer thread commits as in the server), and a
/// `RecordingTransport` where libwebsockets would be. The test's thread is
/// the service thread: every transport event and everything the committer
/// hands back runs on it, and each call here returns once the server has
/// settled (its commits done, their acks out). Time moves only by
/// `advance(by:)`.
package final class InProcessServer {
    package let transport = RecordingTransport()
    /// What the committer thread kept.
    package let store = InMemoryStore()
    private let executor: Executor
    private let sequencer: LocalSequencer
    private let handedBack = Mailbox()
    private let time: ManualTime
    private let logPath: String
    private var lastConnection: UInt64 = 0
    /// How many of each connection's messages `take` has returned.
    private var taken: [ConnectionID: Int] = [:]

    /// A server configured as `neonsyncd` would be with the same flags (the
    /// socket's settings aside) and `--log-content` when `logContent`, over
    /// an empty store.
    package init(_ configuration: SyncServer.Configuration = .init(), logContent: Bool = false) throws {
        let logPath = NSTemporaryDirectory() + "neonsync-inprocess-\(UUID().uuidString).log"
        self.logPath = logPath
        let time = ManualTime()
        self.time = time
        let logger = try LogWriter(destination: .file(logPath), minimumLevel: .debug, includeContent: logContent)
        let gateway = SyncServer.gateway(configuration, mode: .single(RestingRooms()), stored: [],
                                         incarnation: try store.countStart())
        sequencer = LocalSequencer(store: store, logger: logger, limits: configuration.limits)
        executor = Executor(gateway: gateway, logger: logger, sequencer: .committer(sequencer), clock: time.clock)
        sequencer.start { [handedBack] in handedBack.post($0) }
    }

    deinit {
        sequencer.stop()
        try? FileManager.default.removeItem(atPath: logPath)
    }

    /// A WebSocket handshake completes from `peer`, with a proxy's headers.
    package func connect(peer: String = "127.0.0.1", forwarding: ForwardingHeaders? = nil) -> ConnectionID {
        lastConnection += 1
        let connection = ConnectionID(rawValue: lastConnection)
        transport.open(connection, forwarding: forwarding)
        event(.connected(connection, peer: peer))
        return connection
    }

    /// `connection` sends one text frame, and the server settles.
    package func send(_ text: String, from connection: ConnectionID) {
        arrive(text, from: connection)
        settle()
    }

    package func send(_ message: ClientMessage, from connection: ConnectionID) {
        send(String(decoding: WireCodec().encode(message), as: UTF8.self), from: connection)
    }

    /// `message` from `connection` reaches the executor, and nothing more:
    /// what waits for the committer (acks, rooms read back) waits until
    /// `settle()`, as if the frames that follow arrived first.
    package func arrive(_ message: ClientMessage, from connection: ConnectionID) {
        arrive(String(decoding: WireCodec().encode(message), as: UTF8.self), from: connection)
    }

    private func arrive(_ text: String, from connection: ConnectionID) {
        precondition(transport.connections[connection]?.isOpen == true, "\(connection) is not open")
        executor.handle(.received(.text(text), from: connection), through: transport)
    }

    /// Connects and says hello; returns the connection and its welcome.
    package func join(_ room: String, as name: String, role: Role = .reader) throws -> (ConnectionID, Welcome) {
        let connection = connect()
        send(.hello(room: room, name: name, role: role), from: connection)
        guard case let .welcome(welcome)? = take(connection).first(where: { $0.type == "welcome" })?.payload else {
            throw InProcessFailure("\(name) got no welcome to room \(room): \(messages(of: connection))")
        }
        return (connection, welcome)
    }

    /// The peer of `connection` closes it (1000 unless said otherwise).
    package func close(_ connection: ConnectionID, code: UInt16? = CloseCode.normal) {
        transport.leave(connection)
        event(.disconnected(connection, WebSocketClose(code: code, initiatedByPeer: true)))
    }

    /// `connection`'s timer runs out (it must be set).
    package func fireTimer(of connection: ConnectionID) {
        transport.runOut(timerOf: connection)
        event(.timer(connection))
    }

    /// The sweep timer ticks (`--room-ttl`, `--room-release`, the room quota).
    package func sweep() {
        executor.apply(.event(.sweep), through: transport)
        settle()
    }

    /// Moves the server's clocks, monotonic and wall, on by `duration`.
    package func advance(by duration: Duration) {
        time.advance(by: duration)
    }

    /// A plain HTTP GET on the WebSocket port.
    package func get(_ path: String) -> HTTPResponse {
        executor.respond(to: HTTPRequest(method: "GET", path: path), through: transport)
    }

    /// The value of an unlabelled metric in `GET /metrics`; nil when absent.
    package func metric(_ name: String) -> Double? {
        let text = String(decoding: get("/metrics").body, as: UTF8.self)
        return text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.dropFirst(name.count + 1)) }
    }

    /// Every message `connection` got, in order.
    package func messages(of connection: ConnectionID) -> [ServerMessage] {
        transport.connections[connection]?.messages ?? []
    }

    /// The messages `connection` got since the last `take` of it.
    package func take(_ connection: ConnectionID) -> [ServerMessage] {
        let all = messages(of: connection)
        defer { taken[connection] = all.count }
        return Array(all.dropFirst(taken[connection, default: 0]))
    }

    /// The error codes among the messages `connection` got since the last `take`.
    package func takeErrors(_ connection: ConnectionID) -> [ProtocolError] {
        take(connection).compactMap { if case let .error(error) = $0.payload { error } else { nil } }
    }

    /// How the server closed `connection`; nil while it has not.
    package func closeOf(_ connection: ConnectionID) -> RecordingTransport.Close? {
        transport.connections[connection]?.close
    }

    /// Every log line so far.
    package var logLines: [String] {
        ((try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The log records whose `event` is `name`.
    package func events(_ name: String) -> [[String: Any]] {
        logLines.compactMap(ServerProcess.json).filter { $0["event"] as? String == name }
    }

    /// One transport event, then whatever follows from it.
    private func event(_ event: ServerEvent) {
        executor.handle(event, through: transport)
        settle()
    }

    /// Lets the server settle: the connections it closed are reported gone
    /// (as the transport does once their close is sent), and what was handed
    /// to the committer is committed and what it hands back (acks released,
    /// rooms read back) run here; again until nothing is left to do.
    package func settle() {
        while true {
            let closed = transport.takeUnreportedCloses()
            for (connection, close) in closed {
                executor.handle(.disconnected(connection, WebSocketClose(code: close.code, reason: close.reason,
                                                                         initiatedByPeer: false)),
                                through: transport)
            }
            sequencer.flush()
            let deliveries = handedBack.take()
            if closed.isEmpty && deliveries.isEmpty { return }
            for delivery in deliveries { executor.apply(delivery, through: transport) }
        }
    }
}

/// What the committer thread hands the service thread, waiting until the
/// test's thread takes it.
private final class Mailbox: Sendable {
    private let waiting = Locked<[SequencerDelivery]>([])

    package func post(_ delivery: SequencerDelivery) {
        waiting.withLock { $0.append(delivery) }
    }

    package func take() -> [SequencerDelivery] {
        waiting.withLock { waiting in
            defer { waiting.removeAll() }
            return waiting
        }
    }
}

/// The in-process server's clocks: they start at the real time and move
/// only when the test says.
private final class ManualTime: Sendable {
    private let start = ContinuousClock.now
    private let startWall = WallClock.nanoseconds()
    private let elapsed = Locked<Duration>(.zero)

    package func advance(by duration: Duration) {
        elapsed.withLock { $0 += duration }
    }

    package var clock: ServerClock {
        ServerClock(now: { [self] in start + elapsed.withLock { $0 } },
                    wallNanoseconds: { [self] in
                        let (seconds, attoseconds) = elapsed.withLock { $0 }.components
                        return startWall + seconds * 1_000_000_000 + attoseconds / 1_000_000_000
                    })
    }
}

package struct InProcessFailure: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
