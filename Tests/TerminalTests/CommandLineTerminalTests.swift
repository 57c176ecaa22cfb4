import Foundation
import NeonClientTestSupport
import NeonCore
import NeonTestSupport
import Testing

/// Issue 13 in real terminals: refusals end the client, small terminals,
/// the draft editor's keys, per-command help, TERM=dumb and piped output, the
/// default name and the room rule.
@Suite("neonsync command line, refusals and small terminals in tmux", .serialized, .ownThreads)
struct CommandLineTerminalTests {
    static let client = TerminalEndToEndTests.client

    func launch(_ tmux: Tmux, _ name: String, columns: Int, rows: Int, _ args: String, server: ServerProcess,
                environment: [String: String] = [:]) throws {
        try tmux.start(name, columns: columns, rows: rows,
                       command: "\(Self.client) \(args) --server \(server.url)", environment: environment)
    }

    func exited(_ tmux: Tmux, _ name: String, with status: Int) throws {
        try tmux.waitUntil(name, "exit status \(status)") { _ in (try? tmux.exitStatus(name)) == status }
    }

    /// The screen as one string without spaces: a sentence wrapped by the
    /// terminal still matches.
    func squeezed(_ screen: [String]) -> String {
        screen.joined().filter { $0 != " " }
    }

    @Test("someone else presenting: a second presenter ends at once with status 3, naming them and the follow command",
          arguments: [(100, 30), (44, 12)])
    func presenterTaken(columns: Int, rows: Int) throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        let talk = try TerminalEndToEndTests.talk()
        defer { unlink(talk) }
        try launch(tmux, "pat", columns: 100, rows: 30, "present \(talk) --room talk --name pat", server: server)
        try tmux.waitFor("pat", "Opening paragraph 1")
        try launch(tmux, "eve", columns: columns, rows: rows, "present talk --name eve", server: server)
        try exited(tmux, "eve", with: 3)
        let screen = try tmux.capture("eve")
        let expected = "neonsync present: cannot present in room talk: pat is already presenting there (presenter_taken); to follow them instead: neonsync follow talk"
        #expect(squeezed(screen).contains(expected.filter { $0 != " " }), "\(screen.joined(separator: "\n"))")
        #expect(!screen.joined().contains("reconnecting") && !screen.contains { $0.contains("╭") })
        // The join's log line may follow what the client shows.
        #expect(server.waitForLog { $0["event"] as? String == "join" } != nil && server.events("join").count == 1)
        #expect(server.stop() == 0)
    }

    @Test("a full room refuses a reader at once with status 3 and the server's sentence, not a reconnecting spinner",
          arguments: [(80, 24), (30, 8)])
    func roomFull(columns: Int, rows: Int) throws {
        let server = try ServerProcess(["--max-members", "1"])
        let tmux = try Tmux()
        try launch(tmux, "ada", columns: 80, rows: 24, "read \(TerminalEndToEndTests.guide) --room full --name ada", server: server)
        try tmux.waitFor("ada", "Welcome to NeonSync")
        try launch(tmux, "bob", columns: columns, rows: rows, "join full --name bob", server: server)
        try exited(tmux, "bob", with: 3)
        let screen = squeezed(try tmux.capture("bob"))
        #expect(screen.contains("neonsyncjoin:theserverrefusedthisclient:room\"full\"isfull(1members)"), "\(screen)")
        #expect(screen.contains("(room_full)") && !screen.contains("reconnecting"))
        #expect(server.stop() == 0)
    }

    /// The document's rows: inside the border, or (without one) between
    /// the title row and the status line.
    func documentRows(_ screen: [String]) -> [String] {
        if let top = screen.firstIndex(where: { $0.hasPrefix("╭") }) {
            return screen[(top + 1)...].prefix { $0.hasPrefix("│") }.map { String($0) }
        }
        return Array(screen.dropFirst().dropLast())
    }

    static let hints = ["? keys", "j/k scroll", "Tab sections", "/ search", "q quit", "t back to top"]

    @Test("a small terminal keeps most rows for the document, folds the progress into the status line and drops whole hints",
          arguments: [(40, 12, 7), (20, 5, 3), (80, 15, 9)])
    func smallTerminal(columns: Int, rows: Int, documentRows expected: Int) throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        try launch(tmux, "ada", columns: columns, rows: rows, "read \(TerminalEndToEndTests.guide) --room small --name ada",
                   server: server)
        let screen = try tmux.waitUntil("ada", "the document and the percent") { screen in
            screen.joined().contains("Welcome") && screen.last?.contains(" 0%") == true
        }
        #expect(screen.count == rows)
        #expect(documentRows(screen).count == expected, "\(screen.joined(separator: "\n"))")
        #expect(!screen.contains { $0.hasPrefix("╭") && $0.contains("%") }, "no progress box")
        let status = screen.last!.trimmingCharacters(in: .whitespaces)
        let left = status.components(separatedBy: "  ").first!.components(separatedBy: " · ")
        #expect(left.allSatisfy { $0.hasSuffix("%") || $0.hasSuffix(" here") || Self.hints.contains($0) }, "\(status)")
        try tmux.sendKeys("ada", "G")
        try tmux.waitUntil("ada", "100% in the status line") { $0.last?.contains("100%") == true }
        try tmux.sendKeys("ada", "q")
        try exited(tmux, "ada", with: 0)
        #expect(server.stop() == 0)
    }

    @Test("the help overlay scrolls with j and k on a short terminal and says what lies beyond; Escape closes it",
          arguments: [(50, 10), (34, 8)])
    func helpScrolls(columns: Int, rows: Int) throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        try launch(tmux, "ada", columns: columns, rows: rows, "read \(TerminalEndToEndTests.guide) --room help --name ada",
                   server: server)
        try tmux.waitFor("ada", "Welcome")
        try tmux.sendKeys("ada", "?")
        let first = try tmux.waitFor("ada", "more below j")
        #expect(first.joined().contains("j k ↓ ↑") && !first.joined().contains("more above k"))
        try tmux.sendKeys("ada", "G")
        let last = try tmux.waitFor("ada", "more above k")
        #expect(last.joined().contains("Tab S-Tab g G") && !last.joined().contains("more below j"), "\(last.joined(separator: "\n"))")
        try tmux.sendKeys("ada", "k")
        try tmux.waitFor("ada", "more below j")
        try tmux.sendKeys("ada", "Escape")
        try tmux.waitUntil("ada", "the help to close") { !$0.joined().contains("Keys") }
        #expect(server.stop() == 0)
    }

    @Test("the draft editor opens with the cursor at the end, F1 shows its keys without typing, and Ctrl-Z takes back a word",
          arguments: [(70, 12), (40, 10)])
    func draftEditor(columns: Int, rows: Int) async throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        try launch(tmux, "bob", columns: 60, rows: 10, "draft post --name bob", server: server)
        try tmux.waitFor("bob", "1 here")
        try tmux.sendLiteral("bob", "Hello")
        try await waitForDraft("Hello", server: server)
        try tmux.sendKeys("bob", "Escape")
        try exited(tmux, "bob", with: 0)
        try launch(tmux, "ada", columns: columns, rows: rows, "draft post --name ada", server: server)
        try tmux.waitFor("ada", "Hello")
        try tmux.waitFor("ada", "1 here")
        try tmux.sendLiteral("ada", " world")
        try await waitForDraft("Hello world", server: server)
        try tmux.sendKeys("ada", "F1")
        let help = try tmux.waitFor("ada", "Draft keys")
        #expect(squeezed(help).contains("typing") && squeezed(help).contains("morebelowj"))
        try tmux.sendKeys("ada", "Escape")
        try tmux.waitUntil("ada", "the help to close") { !$0.joined().contains("Draft keys") }
        #expect(try tmux.exitStatus("ada") == nil, "Escape closed the help, not the draft editor")
        try tmux.sendLiteral("ada", " one two three")
        try await waitForDraft("Hello world one two three", server: server)
        try tmux.sendKeys("ada", "C-z")
        try await waitForDraft("Hello world one two ", server: server)
        try tmux.sendKeys("ada", "C-z")
        try await waitForDraft("Hello world one ", server: server)
        try tmux.sendKeys("ada", "Escape")
        try exited(tmux, "ada", with: 0)
        #expect(server.stop() == 0)
    }

    @Test("e in the reader opens the draft with the cursor at its end", arguments: [(100, 30), (60, 20)])
    func readerDraftAtEnd(columns: Int, rows: Int) async throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        try launch(tmux, "bob", columns: 60, rows: 10, "draft notes --name bob", server: server)
        try tmux.waitFor("bob", "1 here")
        try tmux.sendLiteral("bob", "Seen so far")
        try await waitForDraft("Seen so far", room: "notes", server: server)
        try launch(tmux, "ada", columns: columns, rows: rows, "read \(TerminalEndToEndTests.guide) --room notes --name ada",
                   server: server)
        try tmux.waitFor("ada", "Welcome to NeonSync")
        try tmux.sendKeys("ada", "e")
        try tmux.waitFor("ada", "Seen so far")
        try tmux.sendLiteral("ada", "!")
        try await waitForDraft("Seen so far!", room: "notes", server: server)
        #expect(server.stop() == 0)
    }

    /// Waits (bounded) until the room's draft on the server is `text`.
    func waitForDraft(_ text: String, room: String = "post", server: ServerProcess) async throws {
        let deadline = Date().addingTimeInterval(10)
        var seen = ""
        repeat {
            seen = try await TerminalEndToEndTests.draftText(room: room, server: server)
            if seen == text { return }
            try await Task.sleep(for: .milliseconds(100))
        } while Date() < deadline
        Issue.record("the draft is \"\(seen)\", not \"\(text)\"")
    }

    @Test("TERM=dumb ends a screen command with status 2 and one sentence saying why and what to use",
          arguments: [(80, 24), (40, 12)])
    func dumbTerminal(columns: Int, rows: Int) throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        try launch(tmux, "ada", columns: columns, rows: rows, "join talk --name ada", server: server,
                   environment: ["TERM": "dumb"])
        try exited(tmux, "ada", with: 2)
        let screen = try tmux.capture("ada")
        #expect(squeezed(screen).contains("neonsyncjoin:drawsascreen,butTERM=dumbsaysthisterminalcannotmoveitscursor"))
        #expect(squeezed(screen).contains("neonsynctailROOM"))
        #expect(!squeezed(screen).contains("neonsync:neonsync"))
        #expect(server.events("join").isEmpty)
        #expect(server.stop() == 0)
    }

    @Test("without --name the title shows the login name; a room name with punctuation is taken as the server takes it",
          arguments: [(80, 24), (40, 12)])
    func loginNameAndRoomRule(columns: Int, rows: Int) throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        var names: [String] = []
        if let login = getlogin() { names.append(String(cString: login)) }
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name { names.append(String(cString: name)) }
        try tmux.start("ada", columns: columns, rows: rows,
                       command: "env -u USER \(Self.client) join 'notes(1)' --server \(server.url)")
        let screen = try tmux.waitFor("ada", "notes(1) · ")
        #expect(names.contains { screen[0].contains("notes(1) · \($0)") }, "\(screen[0]) should show one of \(names)")
        #expect(!screen[0].contains("· reader"))
        let joined = try #require(server.waitForLog { $0["event"] as? String == "join" })
        #expect(joined["room"] as? String == "notes(1)" && names.contains(joined["name"] as? String ?? ""))
        #expect(server.stop() == 0)
    }

    @Test("each command's --help names its arguments, options and an example, with status 0")
    func perCommandHelp() throws {
        let commands: [(String, [String])] = [
            ("read", ["FILE", "--room R", "KEYS:", "neonsync read notes.md"]),
            ("join", ["ROOM", "1–64 characters without spaces or control characters", "KEYS:"]),
            ("present", ["FILE|ROOM", "EXIT STATUS:", "  3  the server refused"]),
            ("follow", ["ROOM", "neonsync follow talk"]),
            ("draft", ["--profile P", "F1 Ctrl-G", "undo / redo a word or burst"]),
            ("tail", ["--json", "  4  the server"]),
            ("monitor", ["[ROOM]", "scroll the feed"]),
            ("replay", ["LOGFILE", "--speed X", "--summary"]),
        ]
        for (command, expected) in commands {
            for form in [[command, "--help"], [command, "-h"], ["help", command]] {
                let help = try TailProcess(form)
                #expect(help.exitStatus() == 0)
                let text = help.lines.joined(separator: "\n")
                #expect(text.hasPrefix("USAGE: neonsync \(command)"), "\(form)")
                for part in expected + ["OPTIONS:", "EXAMPLE"] { #expect(text.contains(part), "\(part) in \(form)") }
                #expect(help.errorLines.isEmpty)
            }
        }
        let bench = try TailProcess(["bench", "--help"])
        #expect(bench.exitStatus() == 0)
        #expect(bench.lines.contains { $0.hasPrefix("EXAMPLE") })
        let top = try TailProcess(["--help"])
        #expect(top.exitStatus() == 0)
        #expect(top.lines.contains("EXIT STATUS:") && top.lines.contains { $0.contains("COMMAND --help") })
    }

    @Test("errors name the argument the command takes, and piped output gets one clean sentence with status 2")
    func errors() throws {
        let cases: [([String], String)] = [
            (["join", "a b"], "neonsync join: the room name \"a b\" contains spaces or control characters; a room name is 1–64 characters without spaces or control characters; choose another room: neonsync join ROOM"),
            (["follow", "my", "talk"], "neonsync follow: takes exactly one ROOM, got 2: \"my\", \"talk\" (a room name has no spaces); see neonsync follow --help"),
            (["read", "notes.md", "--room", ""], "neonsync read: the room name is empty; a room name is 1–64 characters without spaces or control characters, such as \"team-notes\"; choose another with --room R"),
            (["follow", "talk", "--room", "deck"], "neonsync follow: the room is given twice, as --room \"deck\" and as \"talk\"; give one: neonsync follow ROOM; see neonsync follow --help"),
            (["follow", "--room", "a b"], "neonsync follow: the room name \"a b\" contains spaces or control characters; a room name is 1–64 characters without spaces or control characters; choose another with --room R"),
            // --room R is the ROOM, as present and read take it: parsed, the
            // command only refuses to draw without a terminal.
            (["follow", "--room", "deck"], "neonsync follow: draws a screen, but standard input and output are not terminals; run it in a terminal window or tmux, without redirecting it (neonsync tail ROOM prints a room's events as lines without one)"),
            (["join", "talk", "--profile", "twitter"], "neonsync join: --profile belongs to neonsync draft, not to neonsync join; see neonsync join --help"),
            (["join", "talk"], "neonsync join: draws a screen, but standard input and output are not terminals; run it in a terminal window or tmux, without redirecting it (neonsync tail ROOM prints a room's events as lines without one)"),
            (["replay", "x.log", "--speed", "0"], "neonsync replay: --speed needs a number above 0, e.g. --speed 10; see neonsync replay --help"),
            (["frobnicate"], "neonsync: unknown command frobnicate; use read, join, present, follow, draft, tail, monitor, replay, notes, rooms or bench (see neonsync --help)"),
        ]
        for (arguments, sentence) in cases {
            let connects = !["replay", "frobnicate"].contains(arguments[0])
            let process = try TailProcess(arguments + (connects ? ["--server", "ws://127.0.0.1:1/"] : []))
            #expect(process.exitStatus() == 2, "\(arguments)")
            try process.waitForError(containing: sentence, timeout: 5)
            #expect(process.errorLines == [sentence])
            #expect(process.lines.isEmpty)
        }
    }
}
