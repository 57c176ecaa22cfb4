import Foundation
import NeonTestSupport
import Testing

/// A file of NUL bytes is valid UTF-8, and no text document.
@Suite("A binary file, in tmux", .serialized, .ownThreads)
struct BinaryFileTerminalTests {
    @Test("read and present refuse a file of NUL bytes with status 2 and a sentence saying what is wrong and what to give; nothing reaches the server")
    func nulBytes() throws {
        let path = NSTemporaryDirectory() + "neonsync-nul-\(getpid()).md"
        try Data(count: 4096).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let server = try ServerProcess()
        let tmux = try Tmux()
        let steps = FirstStepsTerminalTests()
        for command in ["read", "present"] {
            try steps.launch(tmux, command, columns: 100, rows: 20, "\(command) \(path) --name ada", url: server.url)
            try steps.exited(tmux, command, with: 2)
            let screen = steps.squeezed(try tmux.capture(command))
            let expected = "neonsync \(command): \(path) holds a NUL byte (at byte 1), so it is a binary file, not a text document; give a Markdown, text or catalog JSON file"
            #expect(screen.contains(expected.filter { $0 != " " }), "\(screen)")
        }
        #expect(server.events("join").isEmpty)
        #expect(server.stop() == 0)
    }

    @Test("a watched file that turns binary keeps its last good version, and the status line says why")
    func turnsBinary() async throws {
        let path = try ReadingTogetherTerminalTests.file("# Talk\n\nHello there.", "turns")
        defer { unlink(path) }
        let server = try ServerProcess()
        let tmux = try Tmux()
        let name = URL(fileURLWithPath: path).lastPathComponent
        try tmux.start("ada", columns: 160, rows: 20, command: "\(TerminalEndToEndTests.client) read \(path) --name ada --server \(server.url)")
        try tmux.waitFor("ada", "Hello there.")
        try Data([0x23, 0x20, 0x00, 0x00]).write(to: URL(fileURLWithPath: path))
        let screen = try tmux.waitFor("ada", "\(name) holds a NUL byte (at byte 3), so it is a binary file, not a text document; showing its last good version")
        #expect(screen.joined().contains("Hello there."))
        // The reader shows its file before the server has it; the server's
        // log line comes when the document reaches the room.
        #expect(await server.log(timeout: 10) { $0["event"] as? String == "document" } != nil)
        #expect(server.events("document").count == 1, "the binary version was never sent")
        #expect(server.stop() == 0)
    }
}
