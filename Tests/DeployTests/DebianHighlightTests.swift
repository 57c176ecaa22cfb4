import Foundation
import NeonTestSupport
import Testing

/// The highlighting plug-in as Debian ships it (docs/PACKAGING.md): the
/// neonsync package alone reads code unhighlighted, with Debian's
/// `highlight` (its Recommends) through the helper process, and with
/// neonsync-highlight beside it through the plug-in, and the plug-in without its libraries changes
/// nothing but the colours. Each client runs from packages unpacked into a
/// temporary root with the toolchain hidden, as in DebianInstallTests, so
/// nothing of the development tree or of the machine's own installs is
/// found (neonsync looks for the plug-in beside its own /usr/bin only).
@Suite("the highlighting plug-in, installed and not", .serialized, .ownThreads)
struct DebianHighlightTests {
    static let markdown = """
        # Packaged code

        ```swift
        let answer = 42 // the answer
        ```

        ```no-such-language
        let plain = 1
        ```

        """

    /// The foreground tmux has for each character of the first row that
    /// contains `text`, from `capture-pane -e`: nil for the default, else
    /// the SGR parameters that set it ("38;5;212", "35").
    static func foregrounds(_ screen: String, row text: String) -> [(character: Character, fg: String?)] {
        let plain = { (line: Substring) in String(line).replacing(/\x1B\[[0-9;]*m/, with: "") }
        guard let line = screen.split(separator: "\n").first(where: { plain($0).contains(text) }) else { return [] }
        var out: [(Character, String?)] = []
        var fg: String?
        var rest = Substring(line)
        while let first = rest.first {
            if first == "\u{1B}", rest.dropFirst().first == "[", let end = rest.firstIndex(of: "m") {
                let parameters = rest[rest.index(rest.startIndex, offsetBy: 2)..<end].split(separator: ";", omittingEmptySubsequences: false).map(String.init)
                var index = 0
                while index < parameters.count {
                    switch parameters[index] {
                    case "0", "", "39": fg = nil
                    case "38":
                        let count = index + 1 < parameters.count && parameters[index + 1] == "5" ? 3 : 5
                        fg = parameters[index..<min(index + count, parameters.count)].joined(separator: ";")
                        index += count - 1
                    case "48": index += index + 1 < parameters.count && parameters[index + 1] == "5" ? 2 : 4
                    case let p where (30...37).contains(Int(p) ?? 0) || (90...97).contains(Int(p) ?? 0): fg = p
                    default: break
                    }
                    index += 1
                }
                rest = rest[rest.index(after: end)...]
            } else {
                out.append((first, fg))
                rest = rest.dropFirst()
            }
        }
        return out
    }

    /// The cells of `word`, the first time it is on the row that contains
    /// `row`; empty when it is not there.
    static func cells(of word: String, in screen: String, row: String) -> [(character: Character, fg: String?)] {
        let cells = foregrounds(screen, row: row)
        let text = String(cells.map(\.character))
        guard let range = text.range(of: word) else { return [] }
        let start = text.distance(from: text.startIndex, to: range.lowerBound)
        return Array(cells[start..<start + word.count])
    }

    /// The foreground of the first character of `word` on the row that
    /// contains `row`; .none when the word is not there.
    static func foreground(of word: String, in screen: String, row: String) -> String?? {
        cells(of: word, in: screen, row: row).first.map { .some($0.fg) } ?? .none
    }

    /// The packaged client's `--version` lines with the toolchain (and
    /// `hiding`) hidden.
    static func version(_ root: URL, hiding: [String] = []) throws -> [String] {
        let client = root.appendingPathComponent("usr/bin/neonsync").path
        let run = try runProgram(URL(fileURLWithPath: "/usr/bin/unshare"), Array(DebianPackages.hidingToolchain(
            ["/usr/bin/env", "-u", DebianPackages.pluginVariable, client, "--version"], files: hiding).dropFirst()))
        #expect(run.status == 0, "neonsync --version: \(run.err)")
        return run.out.split(separator: "\n").map(String.init)
    }

    /// The packaged client reading the document in tmux (80×24, 256
    /// colours, the dark theme) against a packaged server, with the
    /// toolchain (and `hiding`) hidden; returns the screen with its
    /// escapes once the document is on it and a later frame was drawn.
    static func read(_ root: URL, room: String, hiding: [String] = [],
                     until: ((String) -> Bool)? = nil) throws -> String {
        let bin = root.appendingPathComponent("usr/bin")
        let server = try ServerProcess([], launcher: DebianPackages.hidingToolchain([bin.appendingPathComponent("neonsyncd").path]))
        defer { _ = server.stop() }
        let document = root.appendingPathComponent("code.md")
        try markdown.write(to: document, atomically: true, encoding: .utf8)
        let tmux = try Tmux()
        try tmux.start("reader", columns: 80, rows: 24, command: DebianPackages.hidingToolchainLine(
            ["/usr/bin/env", "-u", DebianPackages.pluginVariable, "-u", "NO_COLOR", bin.appendingPathComponent("neonsync").path,
             "read", document.path, "--room", room, "--name", "ada", "--server", server.url], files: hiding),
            environment: ["TERM": "xterm-256color", "COLORTERM": ""])
        try tmux.waitFor("reader", "let answer", timeout: 30)
        try tmux.waitFor("reader", "let plain", timeout: 30)
        // The runtime highlights in the tick before the document's first
        // frame; a frame drawn after a key that came later (the key list
        // opened, then closed) shows whatever highlighting there is.
        try tmux.sendKeys("reader", "?")
        try tmux.waitFor("reader", "scroll a row", timeout: 20)
        try tmux.sendKeys("reader", "Escape")
        _ = try tmux.waitUntil("reader", timeout: 20, "the key list closed over the document") { lines in
            !lines.contains { $0.contains("scroll a row") } && lines.contains { $0.contains("let answer") }
        }
        if let until {
            _ = try tmux.waitUntil("reader", timeout: 20, "the code highlighted") { _ in
                until((try? tmux.run(["capture-pane", "-p", "-e", "-t", "reader"])) ?? "")
            }
        }
        let screen = try tmux.run(["capture-pane", "-p", "-e", "-t", "reader"])
        try tmux.sendKeys("reader", "q")
        return screen
    }

    static let swiftLine = "let answer = 42 // the answer"

    /// Code in one colour: every character of the Swift line has the
    /// foreground the unknown language's code has.
    static func expectUnhighlighted(_ screen: String) {
        let code = foreground(of: "let", in: screen, row: "let plain")
        #expect(code != nil, "the unknown language's code is on screen:\n\(screen)")
        let swift = cells(of: swiftLine, in: screen, row: "let answer")
        #expect(swift.count == swiftLine.count, "the Swift line:\n\(screen)")
        let colours = Set(swift.map { $0.fg ?? "default" })
        #expect(colours.count == 1 && colours.first == (code ?? nil) ?? "default",
                "the Swift row is in the code colour alone (\(colours)):\n\(screen)")
    }

    @Test("neonsync installed without neonsync-highlight reads a document with a swift fence and draws its code unhighlighted, in the one colour of code in an unknown language; --version says how to install the plug-in")
    func withoutThePlugin() async throws {
        let root = try await DebianPackages.unpacked { [$0.client, $0.server] }
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("usr/lib/neonsync").path))
        #expect(try Self.version(root, hiding: [Self.helper])
            .contains("highlighting: not installed (apt install neonsync-highlight); no highlight in PATH (apt install highlight)"))
        Self.expectUnhighlighted(try Self.read(root, room: "no-plugin", hiding: [Self.helper]))
    }

    /// Debian's `highlight`, the client's helper program without the plug-in.
    static let helper = "/usr/bin/highlight"

    @Test("neonsync with highlight (its Recommends) and without neonsync-highlight highlights the Swift through the helper process: the keyword, the number and the comment each in a colour of its own; --version names highlight")
    func withTheHelper() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.helper), "apt install highlight")
        let root = try await DebianPackages.unpacked { [$0.client, $0.server] }
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try Self.version(root).contains { $0.wholeMatch(of:
            /highlighting: highlight [0-9.]+ as a helper process \(\/usr\/bin\/highlight\); plug-in not installed \(apt install neonsync-highlight\)/) != nil })
        let screen = try Self.read(root, room: "helper") { screen in
            Self.foreground(of: "let", in: screen, row: "let answer") != Self.foreground(of: "let", in: screen, row: "let plain")
        }
        let keyword = Self.foreground(of: "let", in: screen, row: "let answer")
        let number = Self.foreground(of: "42", in: screen, row: "let answer")
        let comment = Self.foreground(of: "//", in: screen, row: "let answer")
        #expect(keyword != nil && number != nil && comment != nil, "\(screen)")
        #expect(Set([keyword, number, comment].map { "\(String(describing: $0))" }).count == 3, "\(screen)")
    }

    @Test("with neonsync-highlight installed beside it, the same document's Swift is highlighted: the keyword, the number and the comment each in a colour of its own, the rest and code in an unknown language in the code colour; --version names KSyntaxHighlighting")
    func withThePlugin() async throws {
        let root = try await DebianPackages.unpacked()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try Self.version(root).contains { $0.wholeMatch(of: /highlighting: KSyntaxHighlighting 5\.[0-9]+\.[0-9]+/) != nil })
        let screen = try Self.read(root, room: "plugin") { screen in
            Self.foreground(of: "let", in: screen, row: "let answer") != Self.foreground(of: "let", in: screen, row: "let plain")
        }
        let keyword = Self.foreground(of: "let", in: screen, row: "let answer")
        let number = Self.foreground(of: "42", in: screen, row: "let answer")
        let comment = Self.foreground(of: "//", in: screen, row: "let answer")
        let operation = Self.foreground(of: "=", in: screen, row: "let answer")
        let plain = Self.foreground(of: "let", in: screen, row: "let plain")
        #expect(keyword != nil && number != nil && comment != nil && operation != nil, "\(screen)")
        #expect(Set([keyword, number, comment, operation].map { "\(String(describing: $0))" }).count == 4,
                "keyword \(String(describing: keyword)), number \(String(describing: number)), comment \(String(describing: comment)), = \(String(describing: operation)):\n\(screen)")
        #expect(plain == operation, "what is not a token, and code in an unknown language, keep the code colour:\n\(screen)")
    }

    @Test("with neonsync-highlight installed but its library gone (libKF5SyntaxHighlighting.so.5 an empty file), the client reads as without the plug-in and --version says the plug-in could not be loaded and why")
    func withoutItsLibraries() async throws {
        let root = try await DebianPackages.unpacked()
        defer { try? FileManager.default.removeItem(at: root) }
        let plugin = root.appendingPathComponent("usr/lib/neonsync/libNeonSyntax.so").path
        let libraries = try runProgram(URL(fileURLWithPath: "/usr/bin/ldd"), [plugin]).out
        guard let library = libraries.split(separator: "\n").first(where: { $0.contains("libKF5SyntaxHighlighting.so.5 => ") })?
            .split(separator: " ").dropFirst(2).first.map(String.init) else {
            Issue.record("the plug-in does not link libKF5SyntaxHighlighting:\n\(libraries)")
            return
        }
        let version = try Self.version(root, hiding: [library, Self.helper])
        #expect(version.contains { $0.hasPrefix("highlighting: off: ") && $0.contains("/usr/lib/neonsync/libNeonSyntax.so could not be loaded: ")
            && $0.contains("libKF5SyntaxHighlighting.so.5") }, "\(version)")
        Self.expectUnhighlighted(try Self.read(root, room: "no-library", hiding: [library, Self.helper]))
    }
}
