import Foundation
import NeonCore
import NeonTestSupport
import Testing

/// `neonsync monitor` in a real terminal (tmux) against the real server,
/// with two readers driven over WebSockets.
@Suite("neonsync monitor in tmux", .serialized, .ownThreads)
struct MonitorTerminalTests {
    static let client = ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("neonsync").path

    @Test("monitor shows two readers with their percents and a limit event when one types past the warning level, and replay of the log shows the same events")
    func twoReadersAndALimit() async throws {
        let server = try ServerProcess(["--draft-limit", "25"])
        let tmux = try Tmux()
        try tmux.start("mon", columns: 100, rows: 30, command: "\(Self.client) monitor talk --name mon --server \(server.url)")
        try tmux.waitFor("mon", "watching talk")
        let ada = try await join("ada", server: server)
        ada.send(.document(title: "Guide", format: .markdown, text: "# Intro\nHello there.\n\n# Usage\nRun it."))
        _ = try await ada.next("document")
        let bob = try await join("bob", server: server)
        ada.send(.scroll(top: 50, viewport: 10, content: 110, anchor: Anchor(block: 1, offset: 0)))
        _ = try await ada.next("progress")
        bob.send(.edit(rev: 0, ops: TextOperation([.insert("Past the warning")])))
        _ = try await bob.next("ack")
        let screen = try tmux.waitUntil("mon", "both readers and the limit event") { screen in
            screen.contains { $0.contains("ada") && $0.contains("50%") }
                && screen.contains { $0.contains("bob") && $0.contains("0%") && $0.contains("reader") }
                && screen.contains { $0.contains("limit warning 16/25 by bob") }
        }
        #expect(screen.contains { $0.contains("Readers (2)") })
        #expect(screen.contains { $0.contains("draft 16/25 warning") })
        #expect(screen.contains { $0.contains("ada 50% step") })
        try tmux.sendKeys("mon", "q")
        try tmux.waitUntil("mon", "the monitor to exit") { _ in (try? tmux.exitStatus("mon")) == 0 }
        #expect(server.events("error").isEmpty)
        ada.close()
        bob.close()
        #expect(server.stop() == 0)

        let file = NSTemporaryDirectory() + "neonsync-monitor-\(UUID().uuidString).jsonl"
        try (server.logLines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        try tmux.start("replay", columns: 100, rows: 30, command: "\(Self.client) replay \(file) --speed 50")
        let replayed = try tmux.waitFor("replay", "end of log")
        for line in ["ada 50% step (50%, tab 1)", "limit warning 16/25 by bob", "ada left at 50%", "draft 16/25 warning"] {
            #expect(replayed.contains { $0.contains(line) }, "\(line)")
        }
        try tmux.sendKeys("replay", "q")
        try tmux.waitUntil("replay", "the replay to exit") { _ in (try? tmux.exitStatus("replay")) == 0 }
    }

    @Test("monitor without a room lists every room, shows the selected room's readers, every room's events and another reader's error; Tab switches rooms")
    func everyRoom() async throws {
        let server = try ServerProcess(["--draft-limit", "25"])
        let ada = try await join("ada", server: server, room: "alpha")
        let tmux = try Tmux()
        try tmux.start("ops", columns: 100, rows: 30, command: "\(Self.client) monitor --name ops --server \(server.url)")
        try tmux.waitFor("ops", "watching every room: 1 room")
        let bob = try await join("bob", server: server, room: "beta")
        bob.send(.edit(rev: 0, ops: TextOperation([.insert("Past the warning")])))
        _ = try await bob.next("ack")
        ada.sendRaw(#"{"type":"tab","section":"two"}"#)
        _ = try await ada.error()
        let screen = try tmux.waitUntil("ops", "both rooms, bob's limit event and ada's error") { screen in
            screen.contains { $0.contains("Rooms (2)") }
                && screen.contains { $0.contains("[beta] limit warning 16/25 by bob") }
                && screen.contains { $0.contains("[alpha] error to ada invalid_message") }
        }
        #expect(screen.contains { $0.contains("▸ alpha") && $0.contains("1 reader") })
        #expect(screen.contains { $0.contains("beta") && $0.contains("draft 16/25 warning") })
        #expect(screen.contains { $0.contains("Readers · alpha (1)") })
        #expect(screen.contains { $0.contains("[beta] bob joined as reader") })
        try tmux.sendKeys("ops", "Tab")
        let switched = try tmux.waitFor("ops", "Readers · beta (1)")
        #expect(switched.contains { $0.contains("bob") && $0.contains("0%") && $0.contains("reader · tab 1") })
        try tmux.sendKeys("ops", "q")
        try tmux.waitUntil("ops", "the monitor to exit") { _ in (try? tmux.exitStatus("ops")) == 0 }
        ada.close()
        bob.close()
        #expect(server.stop() == 0)
    }
}

extension MonitorTerminalTests {
    /// A reader in the test's room, welcomed.
    private func join(_ name: String, server: ServerProcess, room: String = "talk") async throws -> TestPeer {
        let peer = try await TestPeer.connect(server)
        _ = try await peer.hello(room: room, name: name, role: .reader)
        return peer
    }
}
