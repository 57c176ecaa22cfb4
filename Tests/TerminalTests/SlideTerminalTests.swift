import Foundation
import NeonClientTestSupport
import NeonTestSupport
import Testing

/// samples/deck.md presented as slides in real terminals: followers of
/// other sizes on the same slide and step, through a reconnect, with tail
/// and the monitor saying where the room is.
@Suite("Slides in tmux", .serialized, .ownThreads)
struct SlideTerminalTests {
    static let client = TerminalEndToEndTests.client
    static let deck = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples/deck.md").path

    func launch(_ tmux: Tmux, _ name: String, columns: Int, rows: Int, _ args: String, server: ServerProcess) throws {
        try tmux.start(name, columns: columns, rows: rows, command: "\(Self.client) \(args) --server \(server.url)",
                       environment: ["NO_COLOR": "1"])
    }

    /// The rows inside the document box, as drawn.
    func slideRows(_ screen: [String]) -> String {
        guard let top = screen.firstIndex(where: { $0.hasPrefix("╭") }) else { return "" }
        return screen[(top + 1)...].prefix { $0.hasPrefix("│") }.joined(separator: "\n")
    }

    func waitForSlide(_ tmux: Tmux, _ names: [String], _ what: String, _ check: @escaping (String, String) -> Bool) throws {
        for name in names {
            try tmux.waitUntil(name, what) { screen in check(screen.prefix(3).joined(separator: "\n"), slideRows(screen)) }
        }
    }

    @Test("a deck is followed slide by slide and step by step at 60x20 and 80x24, through a follower's reconnect; tail and the monitor show slide n of N")
    func followedAcrossSizes() throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        let tail = try TailProcess(["tail", "deck", "--name", "watch", "--server", server.url])
        defer { _ = tail.exitStatus(after: SIGTERM) }
        _ = try tail.waitForLines(1)
        try launch(tmux, "pat", columns: 120, rows: 40, "present \(Self.deck) --room deck --name pat", server: server)
        try tmux.waitFor("pat", "Slide 1 of 6 · Reading together, live")
        try launch(tmux, "fay", columns: 60, rows: 20, "follow deck --name fay", server: server)
        try launch(tmux, "gus", columns: 80, rows: 24, "follow deck --name gus", server: server)
        try launch(tmux, "mon", columns: 100, rows: 30, "monitor deck --name mon", server: server)
        let everyone = ["pat", "fay", "gus"]
        try waitForSlide(tmux, everyone, "the intro slide") { header, slide in
            header.contains("Slide 1 of 6") && slide.contains("Reading together, live") && slide.contains("The NeonSync team")
        }

        try tmux.sendKeys("pat", "Right")
        try waitForSlide(tmux, everyone, "slide 2, its first step") { header, slide in
            header.contains("Slide 2 of 6 · Why read together?") && slide.contains("Everyone in the room")
                && !slide.contains("Followers land") && !slide.contains("The rest of this deck")
        }
        try tmux.sendKeys("pat", "Space")
        try waitForSlide(tmux, everyone, "slide 2, its second step") { header, slide in
            header.contains("● ● ○") && slide.contains("Followers land") && !slide.contains("The rest of this deck")
        }
        _ = try tail.waitUntil("the slide and step") { $0.contains { $0.contains("pat slide 2 of 6, step 2 of 3") } }
        try tmux.waitFor("mon", "pat slide 2 of 6, step 2 of 3")

        try tmux.sendKeys("pat", "3", "Enter")
        try waitForSlide(tmux, everyone, "slide 3") { header, slide in
            header.contains("Slide 3 of 6 · Pointing at things") && slide.contains("Press")
        }

        // The follower reconnects: the welcome puts it on the presenter's slide at once.
        try tmux.run(["kill-session", "-t", "fay"])
        try launch(tmux, "fay", columns: 60, rows: 20, "follow deck --name fay", server: server)
        try waitForSlide(tmux, ["fay"], "slide 3 after the reconnect") { header, slide in
            header.contains("Slide 3 of 6") && slide.contains("Press")
        }
        try tmux.sendKeys("pat", "Right", "Right")
        try waitForSlide(tmux, everyone, "slide 5, drawn as text") { header, slide in
            header.contains("Slide 5 of 6") && slide.contains("a diagram of the room") && slide.contains("graph LR")
        }
        try tmux.sendKeys("pat", "G")
        try waitForSlide(tmux, everyone, "the last slide") { header, slide in header.contains("Slide 6 of 6") && slide.contains("The end") }
        _ = try tail.waitUntil("the last slide") { $0.contains { $0.contains("pat slide 6 of 6") } }
        #expect(server.events("slide").contains { $0["slide"] as? Int == 5 && $0["slides"] as? Int == 6 })
        #expect(server.events("error").isEmpty, "the deck presents without errors: \(server.events("error"))")
        #expect(server.stop() == 0)
    }

    @Test("a slide taller than the screen scrolls within itself at 60x20 and 80x16, the bar showing the deck's progress (slide 3 of 6: 50%) as on any terminal", arguments: [(60, 20), (80, 16)])
    func tallSlideScrolls(columns: Int, rows: Int) throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        try launch(tmux, "pat", columns: columns, rows: rows, "present \(Self.deck) --room tall --name pat", server: server)
        try tmux.waitFor("pat", "Slide 1 of 6")
        try tmux.sendKeys("pat", "3", "Enter")
        let first = try tmux.waitUntil("pat", "the table slide at its top, the bar at 50%") { screen in
            slideRows(screen).contains("Press") && screen.suffix(4).contains { $0.contains("50%") }
        }
        #expect(!slideRows(first).contains("go to the presenter's pointer"), "the slide goes on below the screen")
        for _ in 0..<12 { try tmux.sendKeys("pat", "j") }
        try tmux.waitUntil("pat", "the end of the slide, the bar still at 50%") { screen in
            slideRows(screen).contains("go to the presenter's pointer") && screen.suffix(4).contains { $0.contains("50%") }
                && screen.prefix(3).joined().contains("Slide 3 of 6")
        }
        #expect(server.stop() == 0)
    }
}
