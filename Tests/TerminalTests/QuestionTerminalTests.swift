import Foundation
import NeonTestSupport
import Testing

/// Questions on a passage in real terminals: asked by a follower at 80x24,
/// seen by the presenter at 120x40 and by a reader who joins later, and
/// again after the server was killed and restarted on its data (SQLite).
@Suite("Questions on a passage, in tmux", .serialized, .ownThreads)
struct QuestionTerminalTests {
    static let client = TerminalEndToEndTests.client
    static let question = "Why two passes?"
    static let listed = "#1 bob: Why two passes?"

    func launch(_ tmux: Tmux, _ name: String, columns: Int, rows: Int, _ args: String, server: ServerProcess) throws {
        try tmux.start(name, columns: columns, rows: rows, command: "\(Self.client) \(args) --server \(server.url)",
                       environment: ["NO_COLOR": "1"])
    }

    /// Whether the document box of `name` marks the row that starts with
    /// `text` with `mark` in its gutter.
    func marks(_ tmux: Tmux, _ name: String, _ mark: Character, beside text: String) throws -> [String] {
        try tmux.waitUntil(name, "\(mark) beside \"\(text)\"") { _ in
            guard let screen = try? PointerTerminalTests.styledScreen(tmux, name) else { return false }
            return PointerTerminalTests.gutter(screen).contains { $0.mark == mark && $0.row.hasPrefix(text) }
        }
    }

    @Test("a follower's question on the search match is seen by the presenter and a late joiner, marked answered by the presenter, and is still there after a restart")
    func askedSeenAnsweredKept() throws {
        let data = NSTemporaryDirectory() + "neonsync-question-data-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: data) }
        let flags = ["--port", "\(try RedisProcess.freePort())", "--data", data]
        let tmux = try Tmux()
        let file = try ReadingTogetherTerminalTests.file(PointerTerminalTests.talk, "question")
        defer { unlink(file) }
        let passage = "Middle paragraph 5"
        do {
            let server = try ServerProcess(flags)
            try launch(tmux, "pat", columns: 120, rows: 40, "present \(file) --room qa --name pat", server: server)
            try tmux.waitFor("pat", "Opening words")
            try launch(tmux, "bob", columns: 80, rows: 24, "follow qa --name bob", server: server)
            try tmux.waitFor("bob", "following pat")

            // bob finds the passage and asks about it: the prompt counts as the draft does.
            try tmux.sendKeys("bob", "/")
            try tmux.sendLiteral("bob", passage)
            try tmux.sendKeys("bob", "Enter")
            try tmux.waitFor("bob", "detached")
            try tmux.waitUntilStill("bob")
            try tmux.sendKeys("bob", "c")
            try tmux.waitFor("bob", "ask: ▏")
            try tmux.sendLiteral("bob", Self.question)
            let prompt = try tmux.waitFor("bob", "15/280")
            #expect(prompt.last?.contains("ask: \(Self.question)▏") == true, "\(prompt.joined(separator: "\n"))")
            try tmux.sendKeys("bob", "Enter")
            try tmux.waitFor("bob", "your question #1 is kept")
            try marks(tmux, "bob", "?", beside: passage)

            // The presenter is told who asks what, lists it and goes there.
            try tmux.waitFor("pat", "bob asks: \(Self.question) — C lists the questions")
            try tmux.sendKeys("pat", "C")
            try tmux.waitFor("pat", Self.listed)
            try tmux.sendKeys("pat", "Enter")
            try marks(tmux, "pat", "?", beside: passage)
            #expect(server.waitForLog { $0["event"] as? String == "question" && $0["number"] as? Int == 1 && $0["name"] as? String == "bob" } != nil)

            // A reader who joins later sees it, and sees the presenter mark it answered.
            try launch(tmux, "eve", columns: 80, rows: 24, "join qa --name eve", server: server)
            try tmux.waitFor("eve", "Opening words")
            try tmux.sendKeys("eve", "C")
            try tmux.waitFor("eve", Self.listed)
            try tmux.sendKeys("pat", "C")
            try tmux.waitFor("pat", Self.listed)
            try tmux.sendKeys("pat", "a")
            try tmux.waitFor("eve", "\(Self.listed) (answered by pat)")
            try tmux.sendKeys("eve", "Enter")
            try marks(tmux, "eve", "✓", beside: passage)
            #expect(server.stop(signal: SIGKILL) == SIGKILL)
        }
        // Killed and restarted on its data: the question and its answer are kept.
        let server = try ServerProcess(flags)
        try launch(tmux, "zed", columns: 80, rows: 24, "join qa --name zed", server: server)
        try tmux.waitFor("zed", "Opening words")
        try tmux.sendKeys("zed", "C")
        try tmux.waitFor("zed", "\(Self.listed) (answered by pat)")
        try tmux.sendKeys("zed", "Enter")
        try marks(tmux, "zed", "✓", beside: passage)
        #expect(server.stop() == 0)
    }
}
