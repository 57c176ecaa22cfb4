import Foundation
import NeonCore
import NeonServerTestSupport
import NeonTestSupport
import Testing

@Suite("Metrics end to end", .serialized, .ownThreads)
struct MetricsEndToEndTests {
    @Test("GET /metrics on the server port reports two readers, every scroll, the bad frame and both latencies")
    func scrape() async throws {
        let server = try ServerProcess()
        let ada = try await TestPeer.connect(server)
        let bob = try await TestPeer.connect(server)
        _ = try await ada.hello(room: "notes", name: "ada", role: .reader)
        ada.send(.document(title: "Notes", format: .markdown, text: notes))
        _ = try await ada.next("document")
        _ = try await bob.hello(room: "notes", name: "bob", role: .reader)
        _ = try await ada.next("joined")
        let scrolls = 5
        for step in 1...scrolls {
            ada.send(.scroll(top: step * 10, viewport: 20, content: 120, anchor: .top))
            _ = try await bob.next("progress")
        }
        ada.sendRaw("{not json")
        #expect(try await ada.error().code == .invalidJSON)

        let response = try httpGet(port: server.port, path: "/metrics")
        let parts = response.components(separatedBy: "\r\n\r\n")
        let head = try #require(parts.first)
        #expect(head.hasPrefix("HTTP/1.1 200"))
        #expect(head.lowercased().contains("content-type: text/plain; version=0.0.4; charset=utf-8"))
        let metrics = try Exposition(parts.dropFirst().joined(separator: "\r\n\r\n"))

        #expect(metrics.value("neonsync_connections_open") == 2)
        #expect(metrics.value("neonsync_connections_total") == 2)
        // Three service threads: the two members and this request, spread by the acceptor.
        let perThread = (0..<ServerProcess.threads).map { metrics.value("neonsync_service_thread_sockets", ["thread": "\($0)"]) }
        #expect(perThread.allSatisfy { $0 != nil }, "\(perThread)")
        #expect(perThread.compactMap { $0 }.reduce(0, +) == (ServerProcess.threads > 1 ? 3 : 2))
        #expect(metrics.value("neonsync_rooms") == 1)
        #expect(metrics.value("neonsync_readers", ["role": "reader"]) == 2)
        #expect(metrics.value("neonsync_readers", ["role": "presenter"]) == 0)
        #expect(metrics.value("neonsync_messages_in_total", ["type": "hello"]) == 2)
        #expect(metrics.value("neonsync_messages_in_total", ["type": "document"]) == 1)
        #expect(metrics.value("neonsync_messages_in_total", ["type": "scroll"]) == Double(scrolls))
        #expect(metrics.value("neonsync_messages_in_total", ["type": "invalid"]) == 1)
        #expect(metrics.value("neonsync_errors_total", ["code": "invalid_json"]) == 1)
        #expect(metrics.value("neonsync_messages_out_total", ["type": "error"]) == 1)
        #expect(metrics.value("neonsync_messages_out_total", ["type": "welcome"]) == 2)
        // Each progress broadcast reaches both members of the room: one delivery each.
        #expect(metrics.value("neonsync_messages_out_total", ["type": "progress"]) == Double(2 * scrolls))
        #expect((metrics.value("neonsync_received_bytes_total") ?? 0) > Double(notes.utf8.count))
        #expect((metrics.value("neonsync_sent_bytes_total") ?? 0) > 0)
        #expect((metrics.value("neonsync_broadcasts_total") ?? 0) >= Double(scrolls + 2))
        #expect(metrics.value("neonsync_broadcast_fanout_seconds_count") == metrics.value("neonsync_broadcasts_total"))
        #expect((metrics.value("neonsync_store_commit_seconds_count") ?? 0) > 0)
        #expect(metrics.value("neonsync_outbound_queue_frames") != nil)
        #expect(try httpGet(port: server.port, path: "/metrics").hasPrefix("HTTP/1.1 200"))
        #expect(server.stop() == 0)
    }
}
