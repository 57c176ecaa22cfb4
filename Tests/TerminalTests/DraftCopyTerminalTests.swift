import Foundation
import NeonTestSupport
import Testing

/// Ctrl-O in `neonsync draft` inside a real tmux with `set-clipboard on`:
/// tmux takes the OSC 52 copy into its paste buffer.
@Suite("The draft copied with Ctrl-O, in tmux", .serialized, .ownThreads)
struct DraftCopyTerminalTests {
    static let client = DraftTerminalTests.client

    @Test("Ctrl-O puts the whole draft, several lines and non-ASCII, into tmux's paste buffer at 120x40 and 80x24, and the notice says so")
    func copyReachesTmux() throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        for (name, columns, rows) in [("ada", 120, 40), ("bob", 80, 24)] {
            try tmux.start(name, columns: columns, rows: rows,
                           command: "\(Self.client) draft copy --name \(name) --server \(server.url)", environment: ["NO_COLOR": "1"])
        }
        try tmux.run(["set-option", "-g", "set-clipboard", "on"])
        try tmux.waitFor("ada", "2 here")
        try tmux.sendLiteral("ada", "Ship it: naïve café")
        try tmux.sendKeys("ada", "Enter")
        try tmux.sendLiteral("ada", "second line")
        try tmux.waitFor("bob", "second line")
        let text = "Ship it: naïve café\nsecond line"
        func buffers() -> Int {
            ((try? tmux.run(["list-buffers", "-F", "#{buffer_name}"])) ?? "").split(separator: "\n").count
        }
        for name in ["ada", "bob"] {
            let before = buffers()
            try tmux.sendKeys(name, "C-o")
            try tmux.waitFor(name, "copied the draft (31 characters)")
            let deadline = Date().addingTimeInterval(10)
            var buffer = ""
            repeat {
                buffer = buffers() > before ? (try? tmux.run(["show-buffer"])) ?? "" : ""
                if buffer == text { break }
                Thread.sleep(forTimeInterval: 0.05)
            } while Date() < deadline
            #expect(buffer == text, "\(name)'s copy is tmux's newest buffer: \(buffer.debugDescription)")
        }
        #expect(server.stop() == 0)
    }
}
