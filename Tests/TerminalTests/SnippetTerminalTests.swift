import Foundation
import NeonTestSupport
import Testing

/// Snippets run by the presenter (`present -x`, Ctrl-E) in real terminals:
/// the output reaches followers and late joiners; nothing runs without
/// -x, nor on a follower's machine.
@Suite("Snippets that run for everyone, in tmux", .serialized, .ownThreads)
struct SnippetTerminalTests {
    static let client = TerminalEndToEndTests.client

    /// A deck whose snippet computes EXECOUT42 (the literal is not in the
    /// source) and leaves `marker` behind when it runs.
    static func deck(marker: String) -> String {
        """
        # Demo

        The snippet below runs on the presenter's machine.

        ```bash +exec
        echo "EXECOUT$((6*7))"; touch \(marker)
        ```

        <!-- end_slide -->

        # Next

        The second slide.
        """
    }

    func launch(_ tmux: Tmux, _ name: String, columns: Int, rows: Int, _ args: String, server: ServerProcess) throws {
        try tmux.start(name, columns: columns, rows: rows, command: "\(Self.client) \(args) --server \(server.url)",
                       environment: ["NO_COLOR": "1"])
    }

    func files() throws -> (deck: String, marker: String) {
        let marker = NSTemporaryDirectory() + "neonsync-snippet-ran-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        return (try ReadingTogetherTerminalTests.file(Self.deck(marker: marker), "snippet"), marker)
    }

    /// A server, ada presenting the snippet deck at 120x40 (with
    /// `flags`) and fay following her at 80x24; the deck's file and the
    /// marker its snippet would create.
    private func presenterAndFollower(room: String, presenting flags: String) throws
        -> (server: ServerProcess, tmux: Tmux, deck: String, marker: String) {
        let server = try ServerProcess()
        let tmux = try Tmux()
        let (deck, marker) = try files()
        try launch(tmux, "ada", columns: 120, rows: 40, "present \(deck) --room \(room) --name ada \(flags)", server: server)
        try tmux.waitFor("ada", "The snippet below runs")
        try launch(tmux, "fay", columns: 80, rows: 24, "follow \(room) --name fay", server: server)
        try tmux.waitFor("fay", "following ada")
        return (server, tmux, deck, marker)
    }

    @Test("the presenter's Ctrl-E with -x runs the snippet once, on its machine: EXECOUT42 shows under the block at 120x40, on a follower at 80x24 and for a late joiner")
    func outputReachesTheRoom() throws {
        let (server, tmux, deck, marker) = try presenterAndFollower(room: "demo", presenting: "-x")
        defer { unlink(deck); unlink(marker) }
        try tmux.waitFor("fay", "The snippet below runs")

        try tmux.sendKeys("fay", "C-e")
        try tmux.waitFor("fay", "only the presenter runs snippets")
        try tmux.sendKeys("ada", "C-e")
        for name in ["ada", "fay"] {
            try tmux.waitUntil(name, "the output under the snippet") { screen in
                guard let code = screen.firstIndex(where: { $0.contains("echo \"EXECOUT$((6*7))\"") }) else { return false }
                let below = screen[(code + 1)...].prefix(2)
                return below.first?.contains("▶ output of ada's run · exit 0") == true && below.last?.contains("EXECOUT42") == true
            }
        }
        #expect(FileManager.default.fileExists(atPath: marker), "the snippet ran on the presenter's machine")

        try launch(tmux, "gus", columns: 120, rows: 40, "follow demo --name gus", server: server)
        try tmux.waitFor("gus", "EXECOUT42")
        try tmux.waitFor("gus", "output of ada's run")
        let logged = server.waitForLog { $0["event"] as? String == "output" && $0["state"] as? String == "exited" }
        #expect(logged?["exit"] as? Int == 0, "the server logs the run's end")
    }

    @Test("without -x Ctrl-E says how to enable it and runs nothing; a follower's Ctrl-E runs nothing either, at 120x40 and 80x24")
    func nothingRunsWithoutPermission() throws {
        let (server, tmux, deck, marker) = try presenterAndFollower(room: "plain", presenting: "")
        defer { unlink(deck); unlink(marker) }

        try tmux.sendKeys("ada", "C-e")
        try tmux.waitFor("ada", "snippets run only when enabled: start neonsync present FILE -x")
        try tmux.sendKeys("fay", "C-e")
        try tmux.waitFor("fay", "only the presenter runs snippets")
        Thread.sleep(forTimeInterval: 1)
        #expect(!FileManager.default.fileExists(atPath: marker), "nothing ran")
        for name in ["ada", "fay"] {
            let screen = try tmux.capture(name).joined(separator: "\n")
            #expect(!screen.contains("EXECOUT42") && !screen.contains("output of"), "\(name) shows no output:\n\(screen)")
        }
    }
}

/// The presenter's F in real terminals.
@Suite("Summon, in tmux", .serialized, .ownThreads)
struct SummonTerminalTests {
    static let client = TerminalEndToEndTests.client

    func launch(_ tmux: Tmux, _ name: String, columns: Int, rows: Int, _ args: String, server: ServerProcess) throws {
        try tmux.start(name, columns: columns, rows: rows, command: "\(Self.client) \(args) --server \(server.url)",
                       environment: ["NO_COLOR": "1"])
    }

    @Test("F brings a detached follower at 80x24 back to the presenter's slide and step with a notice; a reader who joined at 120x40 stays")
    func summonBringsBack() throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        let deck = try ReadingTogetherTerminalTests.file("""
            # First

            The first slide.

            <!-- end_slide -->

            # Second

            The second slide.

            <!-- pause -->

            Its second step.

            <!-- end_slide -->

            # Third

            The third slide.
            """, "summon")
        defer { unlink(deck) }
        try launch(tmux, "ada", columns: 120, rows: 40, "present \(deck) --room sum --name ada", server: server)
        try tmux.waitFor("ada", "The first slide.")
        try launch(tmux, "fay", columns: 80, rows: 24, "follow sum --name fay", server: server)
        try launch(tmux, "rob", columns: 120, rows: 40, "join sum --name rob", server: server)
        try tmux.waitFor("fay", "following ada")
        try tmux.waitFor("rob", "The first slide.")

        try tmux.sendKeys("fay", "Tab")
        try tmux.sendKeys("fay", "Tab")
        try tmux.waitFor("fay", "The third slide.")
        try tmux.waitFor("fay", "detached")
        try tmux.sendKeys("ada", "Right")
        try tmux.sendKeys("ada", "Space")
        try tmux.waitFor("ada", "Its second step.")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try tmux.capture("fay").joined().contains("The third slide."), "a detached follower stays where it went")

        try tmux.sendKeys("ada", "F")
        try tmux.waitFor("ada", "1 follower brought back")
        try tmux.waitUntil("fay", "the presenter's slide and step, and the notice") { screen in
            let text = screen.joined(separator: "\n")
            return text.contains("The second slide.") && text.contains("Its second step.") && !text.contains("The third slide.")
                && text.contains("ada brought everyone back")
        }
        let reader = try tmux.capture("rob").joined(separator: "\n")
        #expect(reader.contains("The first slide.") && !reader.contains("brought everyone back"), "a reader who joined is not moved:\n\(reader)")
        let logged = server.waitForLog { $0["event"] as? String == "summon" }
        #expect(logged?["members"] as? Int == 1)
    }
}
