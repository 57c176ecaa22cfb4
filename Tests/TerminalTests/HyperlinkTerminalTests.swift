import Foundation
import NeonTestSupport
import Testing

/// What the real client writes to a terminal for links: OSC 8 pairs with
/// `--hyperlinks always`, the publisher's relative links resolved beside
/// its file, none with `never` (read from a pseudo-terminal: tmux 3.3 drops
/// OSC 8, so capture-pane cannot show them).
@Suite("Hyperlinks from the client", .serialized, .ownThreads)
struct HyperlinkTerminalTests {
    static let client = ScreenLookTerminalTests.client
    static let capture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/pty_capture.py")

    func run(_ arguments: [String], marker: String) throws -> String {
        let result = try runProgram(URL(fileURLWithPath: "/usr/bin/env"),
                                    ["NO_COLOR=1", "TERM=xterm-256color", "python3", Self.capture.path, "100", "20", marker, "--",
                                     Self.client] + arguments)
        #expect(result.status == 0, "\(marker) never showed: \(result.err)")
        // Colours and attributes left out: what is left is text, moves and OSC 8.
        return result.out.replacing(/\x1B\[[0-9;]*m/, with: "")
    }

    @Test("the publisher's screen opens and closes each link with OSC 8, relative ones resolved beside the file; a joiner's keeps relative ones as text; never writes none")
    func links() throws {
        let directory = NSTemporaryDirectory() + "neonsync-links-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/links.md"
        try "# Links\n\nSee [the spec](https://example.com/spec) and [notes](notes.md) here.\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let server = try ServerProcess()
        // The presenter keeps the room and its document while the others look.
        let tmux = try Tmux()
        try tmux.start("pat", columns: 100, rows: 20,
                       command: "\(Self.client) present \(file) --room links --name pat --server \(server.url)")
        try tmux.waitFor("pat", "1 here", timeout: 30)
        let mine = try run(["read", file, "--room", "links", "--name", "ada", "--server", server.url, "--hyperlinks", "always"],
                           marker: "here.")
        #expect(mine.contains("\u{1B}]8;id=neonsync-1-") && mine.contains(";https://example.com/spec\u{1B}\\the spec (https://example.com/spec)\u{1B}]8;;\u{1B}\\"),
                "\(mine.debugDescription)")
        let real = try #require(URL(fileURLWithPath: directory).resolvingSymlinksInPath().path as String?)
        #expect(mine.contains("file://") && mine.contains(real + "/notes.md\u{1B}\\notes (notes.md)\u{1B}]8;;\u{1B}\\ here."), "\(mine.debugDescription)")
        let theirs = try run(["join", "links", "--name", "bob", "--server", server.url, "--hyperlinks", "always"], marker: "here.")
        #expect(theirs.contains(";https://example.com/spec\u{1B}\\"))
        #expect(!theirs.contains("notes.md\u{1B}\\"), "a joiner has no file beside the document")
        let never = try run(["join", "links", "--name", "cy", "--server", server.url, "--hyperlinks", "never"], marker: "here.")
        #expect(!never.contains("\u{1B}]8;"))
        #expect(server.stop() == 0)
    }
}
