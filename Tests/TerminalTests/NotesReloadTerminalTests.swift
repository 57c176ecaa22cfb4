import Foundation
import NeonTestSupport
import Testing

/// `neonsync notes FILE` beside `present FILE`: while FILE is edited, and
/// as the audience (does not) see it.
@Suite("The notes screen, in tmux", .serialized, .ownThreads)
struct NotesReloadTerminalTests {
    static let client = TerminalEndToEndTests.client

    func launch(_ tmux: Tmux, _ name: String, columns: Int, rows: Int, _ args: String, server: ServerProcess) throws {
        try tmux.start(name, columns: columns, rows: rows, command: "\(Self.client) \(args) --server \(server.url)",
                       environment: ["NO_COLOR": "1"])
    }

    /// The notes talk, with a last section long enough for §2 to reach the top.
    static let talk = SpeakerNotesTerminalTests.talk + "\n\n"
        + (1...30).map { "Answer \($0) to a question." }.joined(separator: "\n\n")

    @Test("a note edited in FILE shows on the notes screen as in the presenter's panel; an edited passage shows its notes, with no warning")
    func editsReachTheNotesScreen() throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        let file = try ReadingTogetherTerminalTests.file(Self.talk, "reload")
        defer { unlink(file) }
        try launch(tmux, "pat", columns: 120, rows: 30, "present \(file) --room reload --name pat", server: server)
        try tmux.waitFor("pat", "NOTE-ALPHA thank the organisers")
        try launch(tmux, "notes", columns: 64, rows: 16, "notes \(file) --room reload --name pat", server: server)
        try tmux.waitUntil("notes", "the first section's note") { $0.joined().contains("§1 Opening · following pat") && $0.joined().contains("NOTE-ALPHA") }
        try tmux.sendKeys("pat", "2")
        try tmux.waitFor("notes", "NOTE-BETA mention the baseline")
        try tmux.waitUntil("pat", "§2 at the top") { screen in
            screen.first { $0.hasPrefix("╭") }.flatMap { top in screen.drop { $0 != top }.dropFirst().first }?.hasPrefix("│Results") == true
        }

        let editedNote = Self.talk.replacingOccurrences(of: "NOTE-BETA mention the baseline",
                                                                            with: "NOTE-DELTA start from last year")
        try editedNote.write(toFile: file, atomically: true, encoding: .utf8)
        try tmux.waitFor("pat", "NOTE-DELTA start from last year")
        let notes = try tmux.waitFor("notes", "NOTE-DELTA start from last year")
        #expect(!notes.joined().contains("NOTE-BETA"))

        let editedPassage = editedNote.replacingOccurrences(of: "The numbers went up this year.",
                                                            with: "A new opening line.\n\nThe numbers went up again this year.")
            .replacingOccurrences(of: "NOTE-GAMMA then the chart", with: "NOTE-EPSILON then the new chart")
        try editedPassage.write(toFile: file, atomically: true, encoding: .utf8)
        try tmux.waitFor("pat", "A new opening line.")
        let after = try tmux.waitFor("notes", "NOTE-EPSILON then the new chart")
        #expect(after.joined().contains("§2 Results") && after.joined().contains("NOTE-DELTA"))
        _ = try tmux.waitUntilStill("notes")
        #expect(!(try tmux.capture("notes")).joined().contains("is not"), "no warning: the room has FILE as it is now")
        #expect(server.stop() == 0)
    }

    @Test("the audience never sees the presenter's notes screen join, watch or leave; the monitor shows it as the presenter's notes")
    func audienceDoesNotSeeIt() throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        let file = try ReadingTogetherTerminalTests.file(Self.talk, "aside")
        defer { unlink(file) }
        try launch(tmux, "pat", columns: 120, rows: 30, "present \(file) --room aside --name pat", server: server)
        try tmux.waitFor("pat", "NOTE-ALPHA thank the organisers")
        try launch(tmux, "fay", columns: 80, rows: 24, "follow aside --name fay", server: server)
        try tmux.waitFor("fay", "following pat")
        try launch(tmux, "mon", columns: 120, rows: 30, "monitor aside --name mon", server: server)
        try tmux.waitFor("mon", "watching aside")
        let before = try tmux.capture("fay").joined()
        try launch(tmux, "notes", columns: 64, rows: 16, "notes \(file) --room aside --name pat-notes", server: server)
        try tmux.waitFor("notes", "following pat")
        try tmux.waitFor("mon", "pat-notes opened the presenter's notes")
        var audience: [String] = []
        for _ in 0..<20 { audience.append(try tmux.capture("fay").joined(separator: "\n")) }
        try tmux.sendKeys("notes", "q")
        try tmux.waitFor("mon", "pat-notes closed the presenter's notes")
        for _ in 0..<10 { audience.append(try tmux.capture("fay").joined(separator: "\n")) }
        // The monitor watches; the notes screen is not counted with it.
        #expect(before.contains("1 watching"))
        let seen = audience.first { $0.contains("pat-notes") || $0.contains("2 watching") }
        #expect(seen == nil, "\(seen ?? "")")
        #expect(server.stop() == 0)
    }
}
