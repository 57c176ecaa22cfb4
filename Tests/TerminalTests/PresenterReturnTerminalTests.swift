import Foundation
import NeonClientTestSupport
import NeonTestSupport
import Testing

/// A presenter killed mid-talk and started again, `f` in slides, and an
/// eased jump through a long document, in real terminals on a real server.
@Suite("Presenting through a crash, following again, pacing, in tmux", .serialized, .ownThreads)
struct PresenterReturnTerminalTests {
    static let client = TerminalEndToEndTests.client

    func launch(_ tmux: Tmux, _ name: String, columns: Int, rows: Int, _ args: String, server: ServerProcess) throws {
        try tmux.start(name, columns: columns, rows: rows, command: "\(Self.client) \(args) --server \(server.url)",
                       environment: ["NO_COLOR": "1"])
    }

    /// `text` as `name` in a directory of its own; the caller removes it.
    static func scratch(_ name: String, _ text: String) throws -> (directory: String, file: String) {
        let directory = NSTemporaryDirectory() + "neonsync-return-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        return (directory, directory + "/" + name)
    }

    /// The header rows and the slide's rows of a screen, as one text each.
    func header(_ screen: [String]) -> String { screen.prefix(3).joined(separator: "\n") }

    func body(_ screen: [String]) -> String {
        guard let top = screen.firstIndex(where: { $0.hasPrefix("╭") }) else { return "" }
        return screen[(top + 1)...].prefix { $0.hasPrefix("│") }.joined(separator: "\n")
    }

    /// On slide 4 at its second step: its second point shown, not its third.
    func onSlideFourStepTwo(_ screen: [String]) -> Bool {
        header(screen).contains("Slide 4 of 6 · Fourth") && body(screen).contains("Point two")
            && !body(screen).contains("Point three")
    }

    @Test("a presenter killed with SIGKILL on slide 4, step 2 and started again comes back there; its follower never shows slide 1")
    func killedAndStartedAgain() throws {
        let (directory, deck) = try Self.scratch("deck.md", stepDeck)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ServerProcess()
        let tmux = try Tmux()
        try launch(tmux, "pat", columns: 100, rows: 30, "present \(deck) --room d --name pat", server: server)
        try tmux.waitFor("pat", "Slide 1 of 6")
        try launch(tmux, "fay", columns: 80, rows: 24, "follow d --name fay", server: server)
        try tmux.waitFor("fay", "Slide 1 of 6")
        try tmux.sendKeys("pat", "4", "Enter", "Right")
        for name in ["pat", "fay"] { try tmux.waitUntil(name, "slide 4, step 2", onSlideFourStepTwo) }

        let shell = try #require(pid_t(try tmux.run(["list-panes", "-t", "pat", "-F", "#{pane_pid}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(try TerminalEndToEndTests().childPID(of: shell), SIGKILL)
        #expect(server.waitForLog { $0["event"] as? String == "leave" && $0["name"] as? String == "pat" } != nil)
        let slidesBefore = server.events("slide").count
        try launch(tmux, "pat2", columns: 120, rows: 40, "present \(deck) --room d --name pat", server: server)
        // The follower is watched the whole time the presenter comes back.
        var followerScreens: [[String]] = []
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            followerScreens.append(try tmux.capture("fay"))
            if let screen = try? tmux.capture("pat2"), onSlideFourStepTwo(screen), screen.joined().contains("back where you left") { break }
        }
        let back = try tmux.waitUntil("pat2", "back on slide 4, step 2", onSlideFourStepTwo)
        #expect(back.joined().contains("back where you left: slide 4 of 6, step 2 of 3"))
        for _ in 0..<20 { followerScreens.append(try tmux.capture("fay")) }
        #expect(followerScreens.allSatisfy(onSlideFourStepTwo),
                "the follower left slide 4, step 2:\n\(followerScreens.first { !onSlideFourStepTwo($0) }?.joined(separator: "\n") ?? "")")
        #expect(!server.events("slide").dropFirst(slidesBefore).contains { $0["slide"] as? Int != 3 },
                "nobody's place went to another slide: \(server.events("slide").dropFirst(slidesBefore))")
        #expect(server.events("join").contains { $0["name"] as? String == "pat" && $0["resumed"] as? Bool == true })

        try tmux.sendKeys("pat2", "Right")
        try tmux.waitUntil("fay", "the third point, from where it left") { body($0).contains("Point three") }
        #expect(server.stop() == 0)
    }

    @Test("f in slides brings a follower who stepped away back to the presenter's slide and step at once")
    func followAgain() throws {
        let (directory, deck) = try Self.scratch("deck.md", stepDeck)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ServerProcess()
        let tmux = try Tmux()
        try launch(tmux, "pat", columns: 100, rows: 30, "present \(deck) --room f --name pat", server: server)
        try tmux.waitFor("pat", "Slide 1 of 6")
        try launch(tmux, "fay", columns: 80, rows: 24, "follow f --name fay", server: server)
        try tmux.waitFor("fay", "Slide 1 of 6")
        try tmux.sendKeys("pat", "4", "Enter", "Right")
        try tmux.waitUntil("fay", "slide 4, step 2", onSlideFourStepTwo)
        try tmux.sendKeys("fay", "Right", "Right")
        try tmux.waitUntil("fay", "its own slide 5") { header($0).contains("Slide 5 of 6") && $0.joined().contains("detached") }
        try tmux.sendKeys("fay", "f")
        let screen = try tmux.waitUntil("fay", timeout: 5, "the presenter's slide and step", onSlideFourStepTwo)
        #expect(screen.joined().contains("Following pat"))
        #expect(server.stop() == 0)
    }

    @Test("9 in a document of 480 sections: an eased jump sends a few dozen places and draws no rate_limited error")
    func easedJumpOnTheWire() throws {
        let (directory, file) = try Self.scratch("big.md", manySections)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ServerProcess()
        let tmux = try Tmux()
        try launch(tmux, "ada", columns: 100, rows: 30, "read \(file) --room big --name ada", server: server)
        try tmux.waitFor("ada", "Part 1")
        _ = try tmux.waitUntilStill("ada")
        let before = try server.metric("neonsync_messages_in_total", labels: #"type="scroll""#) ?? 0
        try tmux.sendKeys("ada", "9")
        try tmux.waitUntil("ada", "the jump to part 9") { screen in
            body(screen).split(separator: "\n").first?.contains("Part 9") == true
        }
        _ = try tmux.waitUntilStill("ada")
        let after = try server.metric("neonsync_messages_in_total", labels: #"type="scroll""#) ?? 0
        #expect(after - before >= 1 && after - before <= 40, "\(after - before) places for one eased jump")
        #expect(!server.events("error").contains { $0["code"] as? String == "rate_limited" }, "\(server.events("error"))")
        #expect(!(try tmux.capture("ada")).joined().contains("more than 100 messages"))
        #expect(server.stop() == 0)
    }
}
