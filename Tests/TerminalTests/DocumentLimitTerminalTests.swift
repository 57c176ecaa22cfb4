import Foundation
import NeonTestSupport
import Testing

/// A document larger than the server takes, known before it is sent.
@Suite("Documents over the server's limits, in tmux", .serialized, .ownThreads)
struct DocumentLimitTerminalTests {
    let steps = FirstStepsTerminalTests()

    /// `text` as `name` in a directory of its own; the caller removes it.
    func file(_ name: String, _ text: String) throws -> (directory: String, path: String) {
        let directory = NSTemporaryDirectory() + "neonsync-limits-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        try text.write(toFile: directory + "/" + name, atomically: true, encoding: .utf8)
        return (directory, directory + "/" + name)
    }

    @Test("an 11 MB document on a server of default limits ends `read` with status 3 and a sentence naming the limit and --max-document; nothing is sent")
    func elevenMegabytes() throws {
        let line = "A line of the huge document, one of many, long enough to fill it up quickly.\n\n"
        let huge = "# Huge\n\n" + String(repeating: line, count: 11 * 1024 * 1024 / line.utf8.count + 1)
        let (directory, path) = try file("huge.md", huge)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ServerProcess()
        let tmux = try Tmux()
        try steps.launch(tmux, "ada", columns: 100, rows: 30, "read \(path) --name ada", url: server.url)
        // A debug build reads and lays out 11 MB in seconds alone, but in
        // over 20 s at the suite's load (the loading bar stood full).
        try steps.exited(tmux, "ada", with: 3, timeout: 90)
        let screen = try tmux.capture("ada")
        let expected = "neonsync read: cannot publish “huge.md” in room huge: the document is \(huge.utf8.count) bytes, over this server's limit of 4194304 bytes; split it or ask the operator to raise --max-document (document_too_large)"
        #expect(steps.squeezed(screen).contains(expected.filter { $0 != " " }), "\(screen.joined(separator: "\n"))")
        #expect(!screen.joined().contains("no document yet"))
        #expect(server.events("error").isEmpty, "known before sending: \(server.events("error"))")
        #expect(!server.events("disconnect").contains { $0["code"] as? Int == 1009 })
        #expect(try server.metric("neonsync_messages_in_total", labels: #"type="document""#) == 0)
        #expect(server.stop() == 0)
    }

    @Test("a document under --max-document whose message is over --max-message ends with status 3 and a sentence naming --max-message")
    func overTheMessageLimit() throws {
        let quoted = "# Quotes\n\n" + String(repeating: "\"quoted\" ", count: 6000)
        let (directory, path) = try file("quotes.md", quoted)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try ServerProcess(["--max-message", "64K", "--max-document", "64K"])
        let tmux = try Tmux()
        try steps.launch(tmux, "ada", columns: 100, rows: 30, "read \(path) --name ada", url: server.url)
        try steps.exited(tmux, "ada", with: 3)
        let screen = steps.squeezed(try tmux.capture("ada"))
        #expect(quoted.utf8.count < 65536)
        #expect(screen.contains("neonsyncread:cannotpublish“quotes.md”inroomquotes:thedocumentis"), "\(screen)")
        #expect(screen.contains("bytesasamessage,overthisserver'slimitof65536bytesforonemessage;splititoraskthe"
            + "operatortoraise--max-message(message_too_large)"), "\(screen)")
        #expect(!server.events("disconnect").contains { $0["code"] as? Int == 1009 }, "nothing was cut off")
        #expect(server.stop() == 0)
    }
}
