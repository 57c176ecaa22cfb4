import Foundation
import NeonClient
import NeonCore
import NeonTestSupport
import Testing

@Suite("neonsync replay", .serialized, .ownThreads)
struct ReplayTests {
    static let client = ServerProcess.binary.deletingLastPathComponent().appendingPathComponent("neonsync").path

    /// Log lines in the shapes of docs/LOGS.md.
    static let log = """
    {"ts":"2026-11-29T23:14:20.041Z","level":"info","event":"start","host":"127.0.0.1","port":7791,"protocol":"neonsync.v1","version":"0.1.0","restoredRooms":0}
    {"ts":"2026-11-29T23:14:21.045Z","level":"info","event":"join","room":"talk","client":"c1","name":"ada","role":"reader","members":1}
    {"ts":"2026-11-29T23:14:21.500Z","level":"info","event":"join","room":"talk","client":"c2","name":"bob","role":"reader","members":2}
    {"ts":"2026-11-29T23:14:22.185Z","level":"info","event":"document","room":"talk","client":"c1","title":"Notes","format":"markdown","bytes":28,"sections":2,"blocks":4}
    {"ts":"2026-11-29T23:14:24.045Z","level":"info","event":"progress","room":"talk","client":"c1","step":20,"percent":29,"atBottom":false,"section":1}
    {"ts":"2026-11-29T23:14:24.045Z","level":"info","event":"tab","room":"talk","client":"c1","section":1,"title":"Usage","source":"scrolled"}
    {"ts":"2026-11-29T23:14:25.540Z","level":"warn","event":"limit","room":"talk","client":"c2","draftLevel":"limit","fromLevel":"ok","count":282,"remaining":-2,"limit":280}
    {"ts":"2026-11-29T23:14:26.045Z","level":"info","event":"leave","room":"talk","client":"c1","name":"ada","role":"reader","percent":29,"members":1}
    {"ts":"2026-11-29T23:14:27.500Z","level":"info","event":"join","room":"other","client":"c3","name":"cy","role":"observer","members":1}
    """

    @Test("log records drive the monitor to the same feed lines the live room would")
    func replayIntoMonitor() throws {
        let entries = try ServerLogEntry.parse(Self.log, file: "sample.jsonl")
        #expect(LogReplay.rooms(in: entries) == ["talk", "other"])
        var m = MonitorModel(room: "talk", name: "replay", columns: 100, rows: 30, source: "replay")
        m.watchWithoutConnection()
        let start = entries[0].milliseconds!
        for entry in entries { LogReplay.apply(entry, to: &m, at: .milliseconds(entry.milliseconds! - start)) }
        #expect(m.feed.lines.map(\.text) == [
            "ada joined as reader",
            "bob joined as reader",
            "ada published \"Notes\"",
            "ada 20% step (29%, tab 2)",
            "ada scrolled into tab 2 \"Usage\"",
            "limit reached 282/280 by bob",
            "ada left at 29%",
        ])
        #expect(m.feed.lines.map { MonitorModel.clock($0.time) } == ["00:01", "00:01", "00:02", "00:04", "00:04", "00:05", "00:06"])
        #expect(m.draft.level == .limit && m.readers.map(\.name) == ["bob"])
    }

    @Test("a replayed log shows the document's versions and the presenter's slides")
    func versionsAndSlides() throws {
        let log = """
        {"ts":"2026-12-03T10:00:00.000Z","level":"info","event":"join","room":"deck","client":"c1","name":"pat","role":"presenter","members":1}
        {"ts":"2026-12-03T10:00:01.000Z","level":"info","event":"document","room":"deck","client":"c1","title":"deck.md","format":"markdown","bytes":90,"sections":3,"blocks":9,"version":1}
        {"ts":"2026-12-03T10:00:02.000Z","level":"info","event":"document","room":"deck","client":"c1","title":"deck.md","format":"markdown","bytes":95,"sections":3,"blocks":10,"version":2,"revises":1}
        {"ts":"2026-12-03T10:00:03.000Z","level":"info","event":"slide","room":"deck","client":"c1","slide":1,"slides":3,"step":0,"steps":2}
        {"ts":"2026-12-03T10:00:04.000Z","level":"info","event":"slide","room":"deck","client":"c1","slide":1,"slides":3,"step":1,"steps":2}
        """
        var m = MonitorModel(room: "deck", name: "replay", columns: 100, rows: 30, source: "replay")
        m.watchWithoutConnection()
        for entry in try ServerLogEntry.parse(log, file: "deck.jsonl") { LogReplay.apply(entry, to: &m, at: .zero) }
        #expect(m.feed.lines.map(\.text) == ["pat joined as presenter", "pat published \"deck.md\"", "pat published version 2 of \"deck.md\"",
                                             "pat slide 2 of 3, step 1 of 2", "pat slide 2 of 3, step 2 of 2"])
        #expect(m.readers.first?.percent == 66)
    }

    @Test("the summary gives each reader's furthest percent, time per section and the limit events")
    func summaryOfSample() throws {
        let summary = ReplaySummary(entries: try ServerLogEntry.parse(Self.log, file: "sample.jsonl"))
        #expect(summary.text == """
        room talk
          readers (furthest read):
            ada  29%
            bob  0%
          time per section (reader time):
            tab 1: 9.0 s
            tab 2 "Usage": 2.0 s
          limit events:
            23:14:25.540 limit 282/280 by bob
        room other
          readers (furthest read):
            none
          time per section (reader time):
            none
          limit events:
            none

        """)
    }

    @Test("a file that is not a server log is refused with a sentence naming it and its line")
    func badFile() {
        #expect(throws: NeonError.usage("notes.txt line 2 is not a neonsyncd log record (one JSON object with ts, level and event; see docs/LOGS.md)")) {
            try ServerLogEntry.parse(Self.log.split(separator: "\n")[0] + "\nhello\n", file: "notes.txt")
        }
        let missing = run(["replay", "/nonexistent/neonsync.jsonl", "--summary"])
        #expect(missing.status == 2)
        #expect(missing.error.contains("/nonexistent/neonsync.jsonl"))
    }

    @Test("replay --summary of a real session's log: two readers, how far each read, and the limit event")
    func summaryOfRealSession() async throws {
        let server = try ServerProcess(["--draft-limit", "25"])
        let ada = try await join("ada", server: server)
        ada.send(.document(title: "Guide", format: .markdown, text: "# Intro\nHello there.\n\n# Usage\nRun it."))
        _ = try await ada.next("document")
        let bob = try await join("bob", server: server)
        ada.send(.scroll(top: 55, viewport: 10, content: 110, anchor: Anchor(block: 1, offset: 0)))
        _ = try await ada.next("progress")
        ada.send(.scroll(top: 100, viewport: 10, content: 110, anchor: Anchor(block: 3, offset: 0)))
        _ = try await ada.next("progress")
        bob.send(.scroll(top: 20, viewport: 10, content: 110, anchor: Anchor(block: 0, offset: 0)))
        _ = try await bob.next("progress")
        bob.send(.edit(rev: 0, ops: TextOperation([.insert("Seven c")])))
        _ = try await bob.next("ack")
        ada.close()
        _ = server.waitForLog { $0["event"] as? String == "leave" }
        bob.close()
        _ = server.waitForLog { _ in server.events("leave").count == 2 }
        #expect(server.stop() == 0)
        let file = NSTemporaryDirectory() + "neonsync-replay-\(UUID().uuidString).jsonl"
        try (server.logLines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = run(["replay", file, "--summary"])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.first == "room guide")
        #expect(lines.contains("ada  100%"))
        #expect(lines.contains("bob  20%"))
        #expect(lines.contains { $0.hasPrefix("tab 1 ") || $0.hasPrefix("tab 1:") })
        #expect(lines.contains { $0.hasPrefix("tab 2 \"Usage\": ") })
        #expect(lines.contains { $0.hasSuffix(" warning 7/25 by bob") })
    }




    /// Runs the neonsync binary to its end.
    private func run(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.client)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        guard (try? process.runUnblocked()) != nil else { return (-1, "", "cannot start \(Self.client)") }
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitForExit()
        return (process.finalStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
    }
}

extension ReplayTests {
    /// A reader in the test's room, welcomed.
    private func join(_ name: String, server: ServerProcess) async throws -> TestPeer {
        let peer = try await TestPeer.connect(server)
        _ = try await peer.hello(room: "guide", name: name, role: .reader)
        return peer
    }
}
