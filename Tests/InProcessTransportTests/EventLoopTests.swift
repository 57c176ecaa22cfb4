import Foundation
import Glibc
import NeonLock
@testable import NeonTransport
import NeonTransportCore
import NeonTestSupport
import Testing

/// The service threads' event loop: libev on epoll by default, lws's own
/// poll() on request; both serve the same way.
@Suite("Event loops: epoll by default, poll on request, the same service", .ownThreads)
struct EventLoopTests {
    @Test("A server reports the loop it runs on and delivers 40 broadcasts to 10 connections in order",
          arguments: [(ServiceLoop.epoll, 1), (.epoll, 2), (.poll, 1), (.poll, 2)])
    func serves(loop: ServiceLoop, threads: Int) async throws {
        let hub = TestHub(echo: false) { hub, context, event in
            guard case .received(.text("go"), _) = event else { return }
            for number in 0..<40 { context.send(OutboundFrame(text: "\(number)"), to: hub.connected) }
        }
        let server = WebSocketServer(configuration: .init(threads: threads, eventLoop: loop), delegate: hub)
        #expect(server.eventLoop == nil)
        try server.start()
        defer { server.stop() }
        #expect(server.eventLoop == loop)

        let context = try WebSocketClientContext()
        defer { context.stop() }
        let inbox = Received()
        let url = try WebSocketURL(parsing: "ws://127.0.0.1:\(server.port!)/")
        let connections = try (0..<10).map { _ in
            try context.connect(to: url, subprotocol: "neonsync.v1") { connection, event in
                if case .received(let message) = event {
                    inbox.storage.withLock { $0[connection.id, default: []].append(message) }
                }
            }
        }
        #expect(await eventually { hub.connected.count == 10 })
        connections[3].send(text: "go")
        #expect(await eventually { inbox.storage.withLock { $0.values.reduce(0) { $0 + $1.count } } == 10 * 40 })
        let expected = (0..<40).map { WebSocketMessage.text("\($0)") }
        for connection in connections {
            #expect(inbox.storage.withLock { $0[connection.id] } == expected)
        }
    }

    @Test("lws's timers fire: a connection's timer set for 300 ms reaches the delegate once, after at least 250 ms",
          arguments: ServiceLoop.allCases)
    func timersFire(loop: ServiceLoop) async throws {
        let fired = Locked(0)
        let hub = TestHub(echo: false) { _, context, event in
            switch event {
            case .connected(let id, _, _): context.setTimer(for: id, after: .milliseconds(300))
            case .timer: fired.withLock { $0 += 1 }
            default: break
            }
        }
        let server = WebSocketServer(configuration: .init(eventLoop: loop), delegate: hub)
        try server.start()
        defer { server.stop() }
        let context = try WebSocketClientContext()
        defer { context.stop() }
        let started = ContinuousClock.now
        _ = try context.connect(to: try WebSocketURL(parsing: "ws://127.0.0.1:\(server.port!)/"),
                                subprotocol: "neonsync.v1") { _, _ in }
        #expect(await eventually { fired.withLock { $0 } == 1 })
        #expect(ContinuousClock.now - started >= .milliseconds(250))
        try await Task.sleep(for: .milliseconds(500))
        #expect(fired.withLock { $0 } == 1)
    }
}
