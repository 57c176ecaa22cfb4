import Foundation
import Glibc
import NeonLock
@testable import NeonTransport
@testable import NeonTransportCore
import NeonTestSupport
import Testing

/// A server with several service threads: the acceptor spreads connections
/// over them, each owns its connections' ids, a broadcast reaches every
/// thread's share in order, and the delegate runs on one thread of its own.
@Suite("Several service threads: connections spread, one frame to all, one delegate thread", .ownThreads)
struct ServiceThreadsTests {
    /// Opens `count` connections to `url`; each records what it receives and how it closed.
    private func connect(_ count: Int, to url: String, context: WebSocketClientContext,
                         inbox: Received, closes: Closes? = nil) throws -> [ClientConnection] {
        let url = try WebSocketURL(parsing: url)
        return try (0..<count).map { _ in
            try context.connect(to: url, subprotocol: "neonsync.v1") { connection, event in
                switch event {
                case .received(let message): inbox.storage.withLock { $0[connection.id, default: []].append(message) }
                case .closed(let close): closes?.storage.withLock { $0[connection.id] = close }
                default: break
                }
            }
        }
    }

    @Test("9 connections over 3 threads: 3 each, ids 1…9, each id naming its thread (id − 1 mod 3)")
    func spread() async throws {
        let hub = TestHub(echo: true)
        let (server, port) = try hub.startServer(.init(threads: 3))
        defer { server.stop() }
        let context = try WebSocketClientContext()
        defer { context.stop() }
        let inbox = Received()
        let connections = try connect(9, to: "ws://127.0.0.1:\(port)/", context: context, inbox: inbox)
        #expect(await eventually { hub.connected.count == 9 })
        #expect(Set(hub.connected.map(\.rawValue)) == Set(1...9))
        #expect(server.socketsPerThread == [3, 3, 3])
        let map = ShardMap(count: 3)
        let perThread = Dictionary(grouping: hub.connected, by: map.shard(of:)).mapValues(\.count)
        #expect(perThread == [0: 3, 1: 3, 2: 3])

        // Each thread serves its own: every echo comes back to its sender.
        for (index, connection) in connections.enumerated() { connection.send(text: "echo \(index)") }
        #expect(await eventually { inbox.storage.withLock { $0.values.reduce(0) { $0 + $1.count } } == 9 })
        for (index, connection) in connections.enumerated() {
            #expect(inbox.storage.withLock { $0[connection.id] } == [.text("echo \(index)")])
        }
    }

    @Test("30 broadcasts from the delegate reach 12 connections on 3 threads, each in the order sent")
    func broadcastsInOrder() async throws {
        let hub = TestHub(echo: false) { hub, context, event in
            guard case .received(.text("go"), _) = event else { return }
            for number in 0..<30 { context.send(OutboundFrame(text: "\(number)"), to: hub.connected) }
        }
        let (server, port) = try hub.startServer(.init(threads: 3))
        defer { server.stop() }
        let context = try WebSocketClientContext()
        defer { context.stop() }
        let inbox = Received()
        let connections = try connect(12, to: "ws://127.0.0.1:\(port)/", context: context, inbox: inbox)
        #expect(await eventually { hub.connected.count == 12 })

        connections[5].send(text: "go")
        #expect(await eventually { inbox.storage.withLock { $0.values.reduce(0) { $0 + $1.count } } == 12 * 30 })
        let expected = (0..<30).map { WebSocketMessage.text("\($0)") }
        for connection in connections {
            #expect(inbox.storage.withLock { $0[connection.id] } == expected)
        }
    }

    @Test("The delegate is called on the gateway thread alone, never on a service thread")
    func oneDelegateThread() async throws {
        let threads = Locked<Set<String>>([])
        let hub = TestHub(echo: true) { _, _, _ in
            let text = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
            threads.withLock { _ = $0.insert(text) }
        }
        let (server, port) = try hub.startServer(.init(threads: 3))
        defer { server.stop() }
        let context = try WebSocketClientContext()
        defer { context.stop() }
        let inbox = Received()
        let connections = try connect(6, to: "ws://127.0.0.1:\(port)/", context: context, inbox: inbox)
        for connection in connections { connection.send(text: "hi") }
        #expect(await eventually { inbox.storage.withLock { $0.values.reduce(0) { $0 + $1.count } } == 6 })
        #expect(threads.withLock { $0 } == ["neon-gateway"])
    }

    @Test("A message over the limit on any thread: the delegate's answer arrives first, then the 1009 close")
    func rejectionAnsweredBeforeClose() async throws {
        let hub = TestHub(echo: false) { _, context, event in
            guard case .rejected(_, let id) = event else { return }
            context.send(OutboundFrame(text: "too big, closing"), to: id)
        }
        let (server, port) = try hub.startServer(.init(maxMessageSize: 100, threads: 3))
        defer { server.stop() }
        let context = try WebSocketClientContext()
        defer { context.stop() }
        let inbox = Received()
        let closes = Closes()
        let connections = try connect(3, to: "ws://127.0.0.1:\(port)/", context: context, inbox: inbox, closes: closes)
        #expect(await eventually { hub.connected.count == 3 })
        for connection in connections { connection.send(text: String(repeating: "x", count: 200)) }
        #expect(await eventually { closes.storage.withLock { $0.count } == 3 })
        for connection in connections {
            #expect(inbox.storage.withLock { $0[connection.id] } == [.text("too big, closing")])
            #expect(closes.storage.withLock { $0[connection.id]?.code } == CloseCode.messageTooBig)
        }
    }

    @Test("Unix socket connections are spread over the threads too, as plain ws://")
    func unixSocketSpread() async throws {
        let path = NSTemporaryDirectory() + "neonsync-shards-\(UUID().uuidString.prefix(8)).sock"
        defer { unlink(path) }
        let hub = TestHub(echo: true)
        let (server, _) = try hub.startServer(.init(unixSocketPath: path, threads: 2))
        defer { server.stop() }
        let context = try WebSocketClientContext()
        defer { context.stop() }
        let inbox = Received()
        let connections = try connect(4, to: "unix:\(path)", context: context, inbox: inbox)
        #expect(await eventually { hub.connected.count == 4 })
        #expect(server.socketsPerThread == [2, 2])
        #expect(hub.events.allSatisfy { if case .connected(_, "unix", .some) = $0 { true } else if case .connected = $0 { false } else { true } })
        for connection in connections { connection.send(text: "over unix") }
        #expect(await eventually { inbox.storage.withLock { $0.values.reduce(0) { $0 + $1.count } } == 4 })
    }
}

/// How each client connection closed.
final class Closes: Sendable {
    let storage = Locked<[ConnectionID: WebSocketClose]>([:])
}
