import Foundation
import NeonCore
import NeonTestSupport
import Testing

/// `neonsync draft` in a real terminal (tmux) against the real server.
@Suite("neonsync draft in tmux", .serialized, .ownThreads)
struct DraftTerminalTests {
    static let client = ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("neonsync").path

    func start(_ tmux: Tmux, _ name: String, room: String, server: ServerProcess, columns: Int = 80, rows: Int = 24,
               environment: [String: String] = [:]) throws {
        try tmux.start(name, columns: columns, rows: rows,
                       command: "\(Self.client) draft \(room) --name \(name) --server \(server.url)", environment: environment)
    }

    /// The draft's text rows inside the border, trimmed and joined.
    static func draftText(_ screen: [String]) -> String {
        screen.filter { $0.hasPrefix("│") }.map { $0.dropFirst().prefix { $0 != "│" }.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
    }

    @Test("two bursts of typing a pause apart are two undo steps, even inside one word")
    func undoAfterPause() throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        try start(tmux, "ada", room: "bursts", server: server)
        try tmux.waitFor("ada", "1 here", timeout: 20)
        try tmux.sendLiteral("ada", "alpha")
        try tmux.waitFor("ada", "alpha")
        // The pause is the input under test: the user stops typing for longer than a second.
        Thread.sleep(forTimeInterval: 1.5)
        try tmux.sendLiteral("ada", "beta")
        try tmux.waitFor("ada", "alphabeta")
        try tmux.sendKeys("ada", "C-z")
        try tmux.waitUntil("ada", "only the second burst undone") { screen in
            Self.draftText(screen).hasPrefix("alpha") && !Self.draftText(screen).contains("beta")
        }
        try tmux.sendKeys("ada", "C-z")
        try tmux.waitUntil("ada", "the first burst undone") { screen in !Self.draftText(screen).contains("alpha") }
        #expect(server.stop() == 0)
    }

    @Test("the count and the limit stay on screen at every level, past ten over too")
    func countAtEveryLevel() throws {
        let server = try ServerProcess(["--draft-limit", "25"])
        let tmux = try Tmux()
        try start(tmux, "ada", room: "levels", server: server, columns: 60, rows: 12)
        try tmux.waitFor("ada", "1 here", timeout: 20)
        for (text, count) in [("abc", 3), ("defghijklmnopqrstuv", 22), ("wxyz", 26), (String(repeating: "o", count: 14), 40)] {
            try tmux.sendLiteral("ada", text)
            let screen = try tmux.waitFor("ada", "\(count)/25")
            if count > 35 { #expect(screen.contains { $0.contains("\(25 - count)") }) }
        }
        try tmux.sendLiteral("ada", "!")
        try tmux.waitFor("ada", "41/25")
        #expect(server.stop() == 0)
    }
}
