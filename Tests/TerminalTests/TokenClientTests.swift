import Foundation
import NeonClientTestSupport
import NeonCore
import NeonTestSupport
import Testing

/// Clients against a server that requires room tokens: the token comes from
/// `neonsyncd token`, goes in with --token, and a refused one ends the client.
@Suite("neonsync with room tokens", .serialized, .ownThreads)
struct TokenClientTests {
    static let client = ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("neonsync").path

    @Test("tail with a minted token watches the room; without one, or with a bad one, it exits 3 naming why")
    func tail() async throws {
        let secret = try TestSecret()
        let server = try ServerProcess(["--secret-file", secret.path])
        let token = try secret.mint(room: "talk", role: "observer")
        let watching = try TailProcess(["tail", "talk", "--server", server.url, "--token", token])
        let lines = try watching.waitForLines(1)
        #expect(lines[0].contains("watching talk"))
        #expect(watching.exitStatus(after: SIGTERM) == 0)

        let missing = try TailProcess(["tail", "talk", "--server", server.url])
        #expect(missing.exitStatus() == 3)
        try missing.waitForError(containing: "requires a room token")
        let wrongRoom = try TailProcess(["tail", "other", "--server", server.url, "--token", token])
        #expect(wrongRoom.exitStatus() == 3)
        try wrongRoom.waitForError(containing: "unauthorized")
        #expect(server.stop() == 0)
    }

    @Test("the reader sends the token from NEONSYNC_TOKEN and joins; a refused token ends it with status 3 and the sentence")
    func reader() async throws {
        let secret = try TestSecret()
        let server = try ServerProcess(["--secret-file", secret.path])
        let token = try secret.mint(room: "talk", role: "reader")
        let tmux = try Tmux()
        try tmux.start("ok", columns: 80, rows: 24, command: "\(Self.client) join talk --name ada --server \(server.url)",
                       environment: ["NEONSYNC_TOKEN": token])
        _ = try tmux.waitUntil("ok", "the reader to join") { _ in !server.events("join").isEmpty }
        #expect(server.events("join").first?["name"] as? String == "ada")
        try tmux.start("bad", columns: 80, rows: 24,
                       command: "\(Self.client) present talk --name eve --server \(server.url) --token \(token)")
        _ = try tmux.waitUntil("bad", "the presenter to be refused") { _ in (try? tmux.exitStatus("bad")) == 3 }
        let screen = try tmux.capture("bad").joined(separator: "\n")
        #expect(screen.contains("the server refused this client") && screen.contains("as presenter"), "\(screen)")
        // The join's log line may follow what the client shows.
        #expect(server.waitForLog { $0["event"] as? String == "join" } != nil && server.events("join").count == 1)
        #expect(server.stop() == 0)
    }
}
