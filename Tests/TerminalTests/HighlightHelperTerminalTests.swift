import Foundation
import NeonTestSupport
import Testing

/// Highlighted code in tmux from Debian's `highlight` run as a helper
/// process: a client whose plug-in is not there (NEONSYNC_HIGHLIGHT_PLUGIN
/// names no file) colours Rust's keywords, strings and comments the way the
/// plug-in does, and says which highlighter it uses.
@Suite("Highlighted code from the helper process in tmux", .serialized, .ownThreads)
struct HighlightHelperTerminalTests {
    static let client = ScreenLookTerminalTests.client
    static let noPlugin = ["NEONSYNC_HIGHLIGHT_PLUGIN": "/nonexistent/libNeonSyntax.so", "TERM": "xterm-256color", "COLORTERM": ""]
    static let markdown = """
        # Code

        ```rust
        let greeting = "hello"; // say it
        ```

        ```no-such-language
        let plain = 1
        ```
        """

    @Test("without the plug-in, highlight colours the keyword, the string and the comment in the dark theme's colours; an unknown language stays plain; --version names it")
    func helper() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/highlight"), "apt install highlight")
        let file = NSTemporaryDirectory() + "neonsync-helper-\(UUID().uuidString).md"
        try Self.markdown.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let server = try ServerProcess()
        let tmux = try Tmux()
        try tmux.start("helper", columns: 80, rows: 24,
                       command: "env -u NO_COLOR \(Self.client) read \(file) --room helper --name ada --server \(server.url)",
                       environment: Self.noPlugin)
        try tmux.waitFor("helper", "let greeting", timeout: 20)
        let look = HighlightTerminalTests.look
        _ = try tmux.waitUntil("helper", "the keyword highlighted") { _ in
            let escaped = (try? tmux.run(["capture-pane", "-p", "-e", "-t", "helper"])) ?? ""
            return look("let", escaped, "greeting")?.fg == "38;5;212"
        }
        let escaped = try tmux.run(["capture-pane", "-p", "-e", "-t", "helper"])
        let keyword = look("let", escaped, "greeting")?.fg
        let name = look("greeting", escaped, "greeting")?.fg
        let string = look("\"hello\"", escaped, "greeting")?.fg
        let comment = look("// say it", escaped, "greeting")?.fg
        #expect(string != nil && string != keyword && string != name, "\(escaped)")
        #expect(comment != nil && comment != keyword && comment != string && comment != name, "\(escaped)")
        #expect(look("let", escaped, "plain")?.fg != keyword, "an unknown language stays plain")
        #expect(server.stop() == 0)

        try tmux.start("version", columns: 160, rows: 10, command: "\(Self.client) --version; sleep 30", environment: Self.noPlugin)
        try tmux.waitFor("version", "as a helper process (/usr/bin/highlight); plug-in not installed")
    }
}
