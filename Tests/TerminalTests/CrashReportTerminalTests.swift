import Foundation
import NeonTestSupport
import Testing

/// No silent death (issue 35): a client that dies of a trap in a real
/// terminal restores it, says so in one sentence, and leaves a report.
@Suite("A crash in tmux: the terminal restored, one sentence, a report", .serialized, .ownThreads)
struct CrashReportTerminalTests {
    static let client = ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("neonsync").path
    static let deck = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples/deck.md").path

    @Test("a presenter whose client fails a runtime check (SIGILL, exit 132) gets the terminal back cooked, off the alternate screen and with its cursor, one sentence naming the signal and the report, and a report with the version, the command (its token hidden), the backtrace and the runtime's own message")
    func trap() throws {
        let state = NSTemporaryDirectory() + "neonsync-crash-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: state) }
        try crash(environment: ["XDG_STATE_HOME": state], reports: state + "/neonsync", state: state)
    }

    @Test("without XDG_STATE_HOME the report goes to ~/.local/state/neonsync, made on the way (mode 700)")
    func defaultDirectory() throws {
        let home = NSTemporaryDirectory() + "neonsync-home-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        try crash(environment: ["HOME": home, "XDG_STATE_HOME": ""], reports: home + "/.local/state/neonsync", state: home)
        let mode = try #require(FileManager.default.attributesOfItem(atPath: home + "/.local/state/neonsync")[.posixPermissions] as? Int)
        #expect(mode == 0o700)
    }

    /// Presents the deck with the trap armed, presses →, and checks the
    /// terminal, the sentence and the report in `reports`; `state` holds the
    /// shell's notes (the exit status, `stty -a` after it).
    func crash(environment: [String: String], reports directory: String, state: String) throws {
        let port = try RedisProcess.freePort()
        let tmux = try Tmux()
        // Offline: no server answers on the port, as when the issue's deck died.
        try tmux.start("ada", columns: 80, rows: 16,
                       command: "\(Self.client) present \(Self.deck) --room d --server ws://127.0.0.1:\(port)/ --token sekrit; "
                           + "echo $? > \(state)/status; stty -a > \(state)/stty",
                       environment: environment.merging(["NEONSYNC_DEBUG_TRAP": "key"]) { $1 })
        _ = try tmux.waitFor("ada", "Slide 1 of 6")
        try tmux.sendKeys("ada", "Right")
        let screen = try tmux.waitUntil("ada", "the client's exit") { _ in (try? tmux.exitStatus("ada")) != nil }
        let status = try String(contentsOfFile: state + "/status", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(status == "132", "SIGILL: 128 + 4")

        let reports = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("crash-") }
        #expect(reports.count == 1)
        let name = try #require(reports.first)
        let path = "\(directory)/\(name)"
        let sentence = "neonsync: stopped by an internal error (SIGILL, a failed runtime check); the terminal is restored and a report "
            + "with the backtrace is in \(path): please send it to NeonSync's maintainers with the document and the keys that led there"
        let squeezed = screen.joined().filter { $0 != " " }
        #expect(squeezed.contains(sentence.filter { $0 != " " }), "\(screen.joined(separator: "\n"))")
        #expect(!screen.contains { $0.contains("Slide 1 of 6") }, "the alternate screen is gone")
        let modes = try tmux.run(["display-message", "-p", "-t", "ada", "#{alternate_on} #{cursor_flag}"])
        #expect(modes.trimmingCharacters(in: .whitespacesAndNewlines) == "0 1", "off the alternate screen, the cursor shown")
        let stty = try String(contentsOfFile: state + "/stty", encoding: .utf8)
        #expect(stty.contains(" icanon") && stty.contains(" echo ") && !stty.contains("-icanon"), "cooked mode: \(stty)")

        let report = try String(contentsOfFile: path, encoding: .utf8)
        let mode = try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        #expect(report.hasPrefix("neonsync crash report\nneonsync development\ncommit: "), "\(report)")
        #expect(report.contains("command: neonsync present \(Self.deck) --room d --server ws://127.0.0.1:\(port)/ --token (hidden)\n"))
        #expect(!report.contains("sekrit"))
        #expect(report.contains("executable: \(Self.client)\n"))
        #expect(report.contains("signal: SIGILL, a runtime check failed"))
        let frames = report.components(separatedBy: "\n").filter { $0.hasPrefix(Self.client + "(+0x") }
        #expect(frames.count >= 5, "the backtrace names the executable's frames with their offsets: \(report)")
        // The offsets are real: they name the code that trapped and its callers.
        let offsets = frames.compactMap { $0.split(separator: "+").dropFirst().first?.split(separator: ")").first.map(String.init) }
        let named = try runProgram(URL(fileURLWithPath: "/usr/bin/addr2line"), ["-e", Self.client] + offsets).out
        #expect(named.contains("Runtime/DebugTrap.swift:") && named.contains("Runtime/Runtime.swift:"), "\(named)")
        #expect(report.contains("standard error before the crash:\n") && report.contains("Fatal error: Index out of range"),
                "what the Swift runtime said before it trapped, which the alternate screen would have hidden")
    }
}
