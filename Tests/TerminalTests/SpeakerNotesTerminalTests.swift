import Foundation
import NeonClientTestSupport
import NeonTestSupport
import Testing

/// Speaker notes in real terminals: the presenter sees them in a panel and
/// on `neonsync notes`; the followers' screens, the frames the room gets
/// and the server's store never hold their text.
@Suite("Speaker notes in tmux", .serialized, .ownThreads)
struct SpeakerNotesTerminalTests {
    static let client = TerminalEndToEndTests.client

    static let talk = """
        # Opening

        Welcome to the notes talk.

        <!-- speaker_note: NOTE-ALPHA thank the organisers -->

        # Results

        The numbers went up this year.

        <!--
        speaker_note: |
          NOTE-BETA mention the baseline
          NOTE-GAMMA then the chart
        -->

        # Questions

        Any questions for us?
        """

    static let secrets = ["NOTE-ALPHA", "NOTE-BETA", "NOTE-GAMMA", "speaker_note", "organisers"]

    func launch(_ tmux: Tmux, _ name: String, columns: Int, rows: Int, _ args: String, server: ServerProcess) throws {
        try tmux.start(name, columns: columns, rows: rows, command: "\(Self.client) \(args) --server \(server.url)",
                       environment: ["NO_COLOR": "1"])
    }

    func holdsNoNote(_ screen: [String]) -> Bool {
        let text = screen.joined(separator: "\n")
        return !Self.secrets.contains { text.contains($0) }
    }

    @Test("the presenter's panel and neonsync notes show the notes of the presenter's section; followers, frames and the store never hold them",
          arguments: [(120, 30, 80, 24), (80, 24, 60, 20)])
    func notesForThePresenterOnly(sizes: (Int, Int, Int, Int)) throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        let file = try ReadingTogetherTerminalTests.file(Self.talk, "notes")
        defer { unlink(file) }
        let tail = try TailProcess(["tail", "notes", "--json", "--name", "watch", "--server", server.url])
        defer { _ = tail.exitStatus(after: SIGTERM) }
        _ = try tail.waitForLines(1)

        try launch(tmux, "pat", columns: sizes.0, rows: sizes.1, "present \(file) --room notes --name pat", server: server)
        let presenter = try tmux.waitUntil("pat", "the first note in the panel") { screen in
            screen.joined(separator: "\n").contains("NOTE-ALPHA thank the organisers")
                && screen.joined(separator: "\n").contains("Welcome to the notes talk.")
        }
        #expect(presenter.joined(separator: "\n").contains("Notes · §1 Opening"))
        try launch(tmux, "fay", columns: sizes.2, rows: sizes.3, "follow notes --name fay", server: server)
        try tmux.waitFor("fay", "following pat")
        try launch(tmux, "notes", columns: 64, rows: 16, "notes \(file) --room notes --name pat", server: server)
        try tmux.waitUntil("notes", "the notes screen on the first section") { screen in
            let text = screen.joined(separator: "\n")
            return text.contains("§1 Opening · following pat") && text.contains("NOTE-ALPHA") && text.contains("next: Results")
                && text.contains("since the start")
        }
        #expect(holdsNoNote(try tmux.capture("fay")))

        try tmux.sendKeys("pat", "2")
        try tmux.waitUntil("pat", "the second section's notes") { screen in
            let text = screen.joined(separator: "\n")
            return text.contains("NOTE-BETA mention the baseline") && text.contains("NOTE-GAMMA then the chart")
                && !text.contains("NOTE-ALPHA")
        }
        try tmux.waitUntil("notes", "the notes screen on the second section") { screen in
            let text = screen.joined(separator: "\n")
            return text.contains("§2 Results") && text.contains("NOTE-BETA") && !text.contains("NOTE-ALPHA")
                && text.contains("next: Questions")
        }
        let follower = try tmux.waitUntil("fay", "the follower on the second section") { screen in
            screen.joined(separator: "\n").contains("The numbers went up this year.")
        }
        #expect(holdsNoNote(follower), "\(follower.joined(separator: "\n"))")

        try tmux.sendKeys("pat", "s")
        try tmux.waitUntil("pat", "the panel hidden") { !$0.joined(separator: "\n").contains("NOTE-BETA") }

        // What the room got: every frame an observer received, and the
        // server's store on disk.
        let frames = tail.lines.joined(separator: "\n")
        #expect(frames.contains("The numbers went up this year."), "the document went to the room")
        #expect(!Self.secrets.contains { frames.contains($0) }, "\(frames)")
        #expect(server.waitForLog { $0["event"] as? String == "document" } != nil)
        let store = try storeBytes(server.dataDirectory)
        #expect(store.contains("The numbers went up this year."), "the store holds the published document")
        #expect(!Self.secrets.contains { store.contains($0) })
        #expect(server.stop() == 0)
        #expect(!Self.secrets.contains { (try? storeBytes(server.dataDirectory))?.contains($0) ?? false },
                "nor after the server closed its store")
    }

    /// Every file of the store directory as text (the database, its WAL).
    func storeBytes(_ directory: String) throws -> String {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory)
        return try files.map { String(decoding: try Data(contentsOf: URL(fileURLWithPath: directory + "/" + $0)), as: UTF8.self) }
            .joined(separator: "\n")
    }
}
