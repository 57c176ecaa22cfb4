import Foundation
import NeonTestSupport
import Testing

/// Lines lit step by step in real terminals, read back with `capture-pane
/// -e` so a dimmed line can be told from a lit one.
@Suite("Lines lit step by step, in tmux", .serialized, .ownThreads)
struct LitLinesTerminalTests {
    static let client = TerminalEndToEndTests.client

    static let deck = """
    # Walking through code

    ```rust {1|3|all} +line_numbers
    fn main() {
        let x = 1;
        println!("{x}");
    }
    ```

    <!-- end_slide -->

    # After the code

    The last slide.
    """

    static let lines = ["fn main() {", "let x = 1;", "println!(\"{x}\");", "}"]

    func launch(_ tmux: Tmux, _ name: String, columns: Int, rows: Int, _ args: String, server: ServerProcess) throws {
        try tmux.start(name, columns: columns, rows: rows, command: "\(Self.client) \(args) --server \(server.url)",
                       environment: ["NO_COLOR": "1"])
    }

    /// The screen of `name` as rows of (character, dim), from `capture-pane
    /// -e` (SGR 0 resets, 2 is dim, 22 ends it).
    static func dimScreen(_ tmux: Tmux, _ name: String) throws -> [[(character: Character, dim: Bool)]] {
        let text = try tmux.run(["capture-pane", "-p", "-e", "-t", name])
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var row: [(character: Character, dim: Bool)] = []
            var dim = false
            var rest = Substring(line)
            while let character = rest.first {
                if character == "\u{1B}", rest.dropFirst().first == "[", let end = rest.firstIndex(of: "m") {
                    for parameter in rest[rest.index(rest.startIndex, offsetBy: 2)..<end].split(separator: ";", omittingEmptySubsequences: false) {
                        switch parameter {
                        case "", "0", "22": dim = false
                        case "2": dim = true
                        default: break
                        }
                    }
                    rest = rest[rest.index(after: end)...]
                    continue
                }
                row.append((character, dim))
                rest = rest.dropFirst()
            }
            return row
        }
    }

    /// Each code line's number as drawn before it and whether its text is
    /// dim; nil when a line is not on screen.
    static func code(_ tmux: Tmux, _ name: String) throws -> [(number: String, dim: Bool)]? {
        let screen = try dimScreen(tmux, name)
        var found: [(number: String, dim: Bool)] = []
        for line in lines {
            guard let row = screen.first(where: { String($0.map(\.character)).contains(" " + line) }) else { return nil }
            let text = String(row.map(\.character))
            let start = text.distance(from: text.startIndex, to: text.range(of: " " + line)!.lowerBound) + 1
            let number = String(text.prefix(start)).split(separator: " ").last.map(String.init) ?? ""
            found.append((number, row[start].dim))
        }
        return found
    }

    /// Waits until `name` shows the code with `dims` (line by line) and the
    /// numbers 1 to 4 before it.
    func waitForLit(_ tmux: Tmux, _ name: String, _ dims: [Bool], step: String) throws {
        let deadline = Date().addingTimeInterval(20)
        var seen: [(number: String, dim: Bool)]?
        repeat {
            seen = try Self.code(tmux, name)
            if let seen, seen.map(\.dim) == dims, seen.map(\.number) == ["1", "2", "3", "4"] { return }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        Issue.record("\(name) at \(step): expected dims \(dims), saw \(String(describing: seen)):\n\(try tmux.capture(name).joined(separator: "\n"))")
    }

    @Test("followers at 80x24 and 120x40 light the presenter's group at each step, the other lines dim, with line numbers; then the next slide")
    func stepping() throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        let deck = try ReadingTogetherTerminalTests.file(Self.deck, "lit")
        defer { unlink(deck) }
        try launch(tmux, "ada", columns: 120, rows: 40, "present \(deck) --room lit --name ada", server: server)
        try tmux.waitFor("ada", "fn main() {")
        try launch(tmux, "fay", columns: 80, rows: 24, "follow lit --name fay", server: server)
        try launch(tmux, "gus", columns: 120, rows: 40, "follow lit --name gus", server: server)
        try tmux.waitFor("fay", "following ada")
        try tmux.waitFor("gus", "following ada")

        let steps: [(key: String, dims: [Bool])] = [
            ("", [false, true, true, true]), ("Right", [true, true, false, true]), ("Space", [false, false, false, false]),
            ("Left", [true, true, false, true]), ("Right", [false, false, false, false]),
        ]
        for (number, step) in steps.enumerated() {
            if !step.key.isEmpty { try tmux.sendKeys("ada", step.key) }
            for name in ["ada", "fay", "gus"] {
                try waitForLit(tmux, name, step.dims, step: "step \(number) (\(step.key))")
            }
        }
        try tmux.sendKeys("ada", "Right")
        for name in ["fay", "gus"] {
            try tmux.waitFor(name, "The last slide.")
        }
        let logged = server.waitForLog { $0["event"] as? String == "slide" && $0["step"] as? Int == 2 && $0["steps"] as? Int == 3 }
        #expect(logged != nil, "the server counts the block's groups as the slide's steps")
    }
}
