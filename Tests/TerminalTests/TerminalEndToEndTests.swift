import Foundation
import NeonCore
import NeonTestSupport
import Testing

/// The real client in real terminals (tmux) against the real server: what a
/// person sees, read back with capture-pane.
@Suite("neonsync in tmux", .serialized, .ownThreads)
struct TerminalEndToEndTests {
    static let client = ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("neonsync").path
    static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("samples")
    static var guide: String { samples.appendingPathComponent("guide.md").path }

    func launch(_ tmux: Tmux, _ name: String, columns: Int, rows: Int, _ args: String, server: ServerProcess,
                environment: [String: String] = [:]) throws {
        try tmux.start(name, columns: columns, rows: rows,
                       command: "\(Self.client) \(args) --server \(server.url)", environment: environment)
    }

    /// The document box's rows (inside the border, without the readers'
    /// marker gutter), trimmed.
    func documentRows(_ screen: [String]) -> [String] {
        guard let top = screen.firstIndex(where: { $0.hasPrefix("╭") }) else { return [] }
        return screen[(top + 1)...].prefix { $0.hasPrefix("│") }.map { line in
            let inner = line.dropFirst().prefix { $0 != "│" }.dropLast()
            return inner.trimmingCharacters(in: .whitespaces)
        }
    }

    @Test("two terminals co-read: each sees the other with a percent, and End shows 100% with back-to-top")
    func coRead() throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        try launch(tmux, "ada", columns: 100, rows: 30, "read \(Self.guide) --room guide --name ada", server: server)
        try tmux.waitFor("ada", "Welcome to NeonSync")
        try launch(tmux, "bob", columns: 100, rows: 30, "join guide --name bob", server: server)
        try tmux.waitFor("bob", "Readers (2)")
        try tmux.waitFor("ada", "Readers (2)")
        try tmux.sendKeys("ada", "G")
        let ada = try tmux.waitFor("ada", "100%")
        #expect(ada.contains { $0.contains("↑ top [t]") })
        let bob = try tmux.waitUntil("bob", "ada at 100% in bob's presence list") { screen in
            screen.contains { $0.contains("ada") && $0.contains("100%") }
        }
        #expect(bob.contains { $0.contains("Readers (2)") })
        try tmux.sendKeys("ada", "q")
        try tmux.waitUntil("ada", "the client to exit") { _ in (try? tmux.exitStatus("ada")) == 0 }
        try tmux.waitFor("bob", "ada left")
        #expect(server.stop() == 0)
    }

    @Test("after 3 s without scrolling the bar becomes the wheel, and a scroll brings the bar back")
    func wheel() throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        try launch(tmux, "ada", columns: 90, rows: 24, "read \(Self.guide) --room wheel --name ada", server: server)
        try tmux.waitFor("ada", "Welcome to NeonSync")
        try tmux.sendKeys("ada", "j", "j", "j")
        let bar = try tmux.waitUntil("ada", "the reading bar") { screen in
            screen.suffix(4).contains { $0.contains("╭──") }
        }
        #expect(bar.suffix(4).contains { $0.contains("%") })
        let wheel = try tmux.waitUntil("ada", timeout: 8, "the wheel (3 s after the last scroll)") {
            !$0.suffix(4).contains { $0.contains("╭──") }
        }
        #expect(wheel.suffix(4).contains { $0.contains("%") })
        try tmux.sendKeys("ada", "k")
        try tmux.waitUntil("ada", "the bar again") { $0.suffix(4).contains { $0.contains("╭──") } }
        #expect(server.stop() == 0)
    }

    @Test("choosing a tab eases the document to the section and moves the header's underline")
    func chooseTab() throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        try launch(tmux, "ada", columns: 100, rows: 30, "read \(Self.guide) --room tabs --name ada", server: server)
        try tmux.waitFor("ada", "Welcome to NeonSync")
        try tmux.sendKeys("ada", "3")
        let screen = try tmux.waitUntil("ada", "the Presenting section at the top") { screen in
            documentRows(screen).first == "Presenting"
        }
        let header = screen[1], underline = screen[2]
        let start = header.range(of: "Presenting")!
        let column = header.distance(from: header.startIndex, to: start.lowerBound)
        let under = Array(underline)
        #expect(under.count > column && under[column] == "━", "underline row: \(underline)")
        #expect(under.first != "━")
        #expect(server.stop() == 0)
    }

    /// A long talk: eight sections of several paragraphs, so no section's
    /// top is clamped by the end of the document on either terminal.
    static func talk() throws -> String {
        let words = "each section of this talk holds enough sentences to fill several rows on a narrow terminal and a few on a wide one"
        let sections = ["Opening", "Context", "Problem", "Drafting", "Design", "Results", "Questions", "Closing"]
        let text = sections.map { title in
            "# \(title)\n\n" + (1...6).map { "\(title) paragraph \($0): \(words)." }.joined(separator: "\n\n")
        }.joined(separator: "\n\n")
        let path = NSTemporaryDirectory() + "neonsync-talk-\(getpid())-\(UUID().uuidString.prefix(8)).md"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a follower on a smaller terminal lands on the presenter's section and text")
    func follow() throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        let talk = try Self.talk()
        defer { unlink(talk) }
        try launch(tmux, "pat", columns: 110, rows: 32, "present \(talk) --room talk --name pat", server: server)
        try tmux.waitFor("pat", "Opening paragraph 1")
        try launch(tmux, "fay", columns: 56, rows: 18, "follow talk --name fay", server: server,
                   environment: ["NO_COLOR": "1"])
        try tmux.waitFor("fay", "following pat")
        try tmux.sendKeys("pat", "4")
        let fay = try tmux.waitUntil("fay", "the Drafting section") { documentRows($0).first == "Drafting" }
        #expect(fay[1].contains("Drafting") || fay[1].contains("›"))
        try tmux.waitUntil("pat", "the presenter's jump to end") { documentRows($0).first == "Drafting" }
        try tmux.waitUntilStill("pat")
        try tmux.sendKeys("pat", "j", "j")
        let pat = try tmux.waitUntil("pat", "the presenter two rows further") { documentRows($0).first?.hasPrefix("Drafting paragraph 1") == true }
        #expect(documentRows(pat).first?.hasPrefix("Drafting paragraph 1") == true)
        let follower = try tmux.waitUntil("fay", "the follower on the presenter's paragraph") { screen in
            documentRows(screen).first?.hasPrefix("Drafting paragraph 1") == true
        }
        #expect(documentRows(follower).count < documentRows(pat).count)
        try tmux.sendKeys("fay", "k")
        try tmux.waitFor("fay", "f follows again")
        try tmux.sendKeys("fay", "f")
        try tmux.waitFor("fay", "Following pat")
        #expect(server.stop() == 0)
    }

    @Test("search highlights matches and jumps; ? shows the keys; resizing keeps the place")
    func searchHelpResize() throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        let talk = try Self.talk()
        defer { unlink(talk) }
        try launch(tmux, "ada", columns: 100, rows: 24, "read \(talk) --room search --name ada", server: server)
        try tmux.waitFor("ada", "Opening paragraph 1")
        try tmux.sendKeys("ada", "/")
        try tmux.sendLiteral("ada", "results paragraph 3")
        try tmux.sendKeys("ada", "Enter")
        let found = try tmux.waitFor("ada", "match 1 of 1")
        #expect(documentRows(found).contains { $0.hasPrefix("Results paragraph 3") })
        try tmux.sendKeys("ada", "6")
        try tmux.waitUntil("ada", "Results at the top") { documentRows($0).first == "Results" }
        try tmux.sendKeys("ada", "j", "j")
        try tmux.waitUntil("ada", "the first Results paragraph at the top") { documentRows($0).first?.hasPrefix("Results paragraph 1") == true }
        try tmux.resize("ada", columns: 50, rows: 24)
        let narrow = try tmux.waitUntil("ada", "the narrow layout") { $0[3].count <= 50 }
        #expect(documentRows(narrow).first?.hasPrefix("Results paragraph 1") == true,
                "the place should survive the resize:\n\(narrow.joined(separator: "\n"))")
        try tmux.sendKeys("ada", "?")
        try tmux.waitFor("ada", "back to top (eased)")
        try tmux.sendKeys("ada", "Escape")
        try tmux.waitUntil("ada", "the help to close") { !$0.joined().contains("back to top (eased)") }
        try tmux.sendKeys("ada", "q")
        try tmux.waitUntil("ada", "exit") { _ in (try? tmux.exitStatus("ada")) == 0 }
        #expect(server.stop() == 0)
    }

    @Test("the terminal is restored when the client is killed by SIGTERM or crashes with SIGSEGV", arguments: [
        ("TERM", SIGTERM, 0), ("SEGV", SIGSEGV, 128 + Int(SIGSEGV)),
    ])
    func restoredOnSignal(name: String, signal: Int32, status: Int) throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        let room = "signal-\(name.lowercased())-\(getpid())"
        try launch(tmux, "ada", columns: 80, rows: 20, "read \(Self.guide) --room \(room) --name ada", server: server)
        try tmux.waitFor("ada", "Welcome to NeonSync")
        let pids = try tmux.run(["list-panes", "-t", "ada", "-F", "#{pane_pid}"])
        let shell = pid_t(pids.trimmingCharacters(in: .whitespacesAndNewlines))!
        let client = try childPID(of: shell)
        kill(client, signal)
        try tmux.waitUntil("ada", "exit status \(status)") { _ in (try? tmux.exitStatus("ada")) == status }
        let screen = try tmux.capture("ada")
        #expect(!screen.contains { $0.contains("╭") || $0.contains("Welcome to NeonSync") },
                "the alternate screen should be gone:\n\(screen.joined(separator: "\n"))")
        #expect(server.stop() == 0)
    }

    /// The room's draft as a fresh observer is welcomed with it.
    static func draftText(room: String, server: ServerProcess) async throws -> String {
        try await draft(room: room, server: server).text
    }

    /// The room's draft as a newcomer's welcome gives it.
    static func draft(room: String, server: ServerProcess) async throws -> DraftInfo {
        let probe = try await TestPeer.connect(server)
        defer { probe.close() }
        return try await probe.hello(room: room, name: "probe", role: .observer).draft
    }

    /// The first child of `parent` (the client under tmux's `sh -c`).
    func childPID(of parent: pid_t) throws -> pid_t {
        let text = try String(contentsOfFile: "/proc/\(parent)/task/\(parent)/children", encoding: .utf8)
        guard let pid = text.split(separator: " ").first.flatMap({ pid_t($0) }) else {
            throw TmuxError("no child process under \(parent)")
        }
        return pid
    }

    @Test("two draft editors type into one draft, both screens converge, and past the limit the count goes negative")
    func draft() throws {
        let server = try ServerProcess(["--draft-limit", "25"])
        let tmux = try Tmux()
        try launch(tmux, "ada", columns: 70, rows: 12, "draft post --name ada", server: server)
        try launch(tmux, "bob", columns: 50, rows: 12, "draft post --name bob", server: server)
        try tmux.waitFor("ada", "2 here")
        try tmux.waitFor("bob", "2 here")
        try tmux.sendLiteral("ada", "Shipping the reader today. ")
        try tmux.sendLiteral("bob", "Big news: ")
        let expectedLength = "Shipping the reader today. ".count + "Big news: ".count
        let ada = try tmux.waitUntil("ada", "both edits") { $0.joined().contains("Big news") && $0.joined().contains("today.") }
        let bob = try tmux.waitUntil("bob", "both edits") { $0.joined().contains("Big news") && $0.joined().contains("today.") }
        func draftText(_ screen: [String]) -> String {
            screen.filter { $0.hasPrefix("│") }.map { $0.dropFirst().prefix { $0 != "│" }.trimmingCharacters(in: .whitespaces) }
                .joined(separator: " ").trimmingCharacters(in: .whitespaces)
        }
        #expect(draftText(ada).hasPrefix(draftText(bob).prefix(20)))
        let remaining = 25 - expectedLength
        try tmux.waitUntil("ada", "the negative remaining count \(remaining)") { $0.joined().contains("\(remaining)") }
        #expect(server.waitForLog { $0["event"] as? String == "limit" && $0["draftLevel"] as? String == "over" } != nil)
        try tmux.sendKeys("ada", "Escape")
        try tmux.waitUntil("ada", "exit") { _ in (try? tmux.exitStatus("ada")) == 0 }
        #expect(server.stop() == 0)
    }

    @Test("a reader types in the draft panel and a draft editor in another terminal sees it")
    func draftPanel() throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        try launch(tmux, "ada", columns: 100, rows: 30, "read \(Self.guide) --room panel --name ada", server: server)
        try tmux.waitFor("ada", "Welcome to NeonSync")
        try launch(tmux, "bob", columns: 60, rows: 10, "draft panel --name bob", server: server)
        try tmux.waitFor("bob", "2 here")
        try tmux.sendKeys("ada", "e")
        try tmux.waitFor("ada", "Draft · graphemes, limit 280")
        try tmux.sendLiteral("ada", "Notes from the reading")
        try tmux.waitFor("bob", "Notes from the reading")
        try tmux.sendKeys("ada", "Escape")
        try tmux.waitFor("ada", "e edits")
        #expect(server.stop() == 0)
    }

    /// What a draft editor's screen shows: the text of its rows inside the
    /// box (the footer with the count and ring left out), each row's words
    /// joined by single spaces, and the revision in its status line.
    static func shownDraft(_ screen: [String]) -> (text: String, rev: Int?) {
        let rows = screen.filter { $0.hasPrefix("│") }.dropLast().map { $0.dropFirst().prefix { $0 != "│" } }
        let text = rows.joined(separator: " ").split(separator: " ").joined(separator: " ")
        let rev = screen.last.flatMap { line in
            line.firstRange(of: "rev ").flatMap { Int(line[$0.upperBound...].prefix { $0.isNumber }) }
        }
        return (text, rev)
    }

    @Test("kill -9 of the server during a typing storm: after the restart every word is there exactly once, and each screen shows the server's draft and revision",
          arguments: [3, 15, 27])
    func typingStormCrash(killAfter: Int) async throws {
        let data = NSTemporaryDirectory() + "neonsync-storm-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: data) }
        var server = try ServerProcess(["--data", data])
        let port = server.port
        let tmux = try Tmux()
        try launch(tmux, "ada", columns: 80, rows: 16, "draft storm --name ada", server: server)
        try launch(tmux, "bob", columns: 80, rows: 16, "draft storm --name bob", server: server)
        try tmux.waitFor("ada", "2 here")
        try tmux.waitFor("bob", "2 here")
        let words = 30
        for i in 1...words {
            try tmux.sendLiteral("ada", "a\(i) ")
            try tmux.sendLiteral("bob", "b\(i) ")
            // The pace of two people typing, not a wait for anything.
            try await Task.sleep(for: .milliseconds(20))
            if i == killAfter {
                #expect(server.stop(signal: SIGKILL) == SIGKILL)
                server = try ServerProcess(["--data", data, "--port", String(port)])
            }
        }
        // Wait for the last word of each, whole (a count of words is reached
        // while "a30 " is still on its way as "a").
        let typed = Set((1...words).flatMap { ["a\($0)", "b\($0)"] })
        var draft = DraftInfo(text: "", rev: 0, status: try DraftCounter().status(forCount: 0))
        let deadline = Date().addingTimeInterval(20)
        repeat {
            draft = try await Self.draft(room: "storm", server: server)
            if typed.isSubset(of: draft.text.split(separator: " ").map(String.init)) { break }
            try await Task.sleep(for: .milliseconds(200))
        } while Date() < deadline
        let tokens = draft.text.split(separator: " ").map(String.init)
        for who in ["a", "b"] {
            for i in 1...words {
                #expect(tokens.filter { $0 == "\(who)\(i)" }.count == 1, "\(who)\(i) in: \(draft.text)")
            }
        }
        #expect(tokens.count == 2 * words, "the draft holds exactly the typed words: \(draft.text)")
        let expected = tokens.joined(separator: " ")
        for name in ["ada", "bob"] {
            let screen = try tmux.waitUntil(name, "\(name)'s screen equal to the server's draft at revision \(draft.rev)") {
                Self.shownDraft($0) == (expected, draft.rev)
            }
            #expect(Self.shownDraft(screen) == (expected, draft.rev))
        }
        #expect(server.stop() == 0)
    }

    @Test("a file that cannot be read is named with the reason, and the terminal is left as it was")
    func badFile() throws {
        let server = try ServerProcess()
        let tmux = try Tmux()
        try launch(tmux, "ada", columns: 80, rows: 10, "read /nonexistent/notes.md --name ada", server: server)
        let screen = try tmux.waitFor("ada", "cannot read /nonexistent/notes.md: No such file or directory")
        try tmux.waitUntil("ada", "exit status 2") { _ in (try? tmux.exitStatus("ada")) == 2 }
        #expect(!screen.contains { $0.contains("╭") })
        #expect(server.stop() == 0)
    }
}
