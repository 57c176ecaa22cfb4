import Foundation
import NeonCore
import NeonServerTestSupport
import NeonTestSupport
import NeonTransportCore
import Testing

private let secretBody = "Nobody outside this room may read this sentence."
private let secretDraft = "A private draft line for the log"
private let secretOutput = "A private snippet output line"
private let guide = """
# Intro
\(secretBody)

# Usage
Start the server.

# Details
The end.

```bash +exec
echo private
```
"""

@Suite("the server log matches docs/LOGS.md", .serialized, .ownThreads)
struct LogSchemaTests {
    let codec = WireCodec()

    @Test("a session exercising every event writes only documented lines, with no draft or document text")
    func everyLineFitsTheSchema() async throws {
        let server = try ServerProcess(["--draft-limit", "25"])
        let ada = try await TestPeer.connect(server)
        let bob = try await TestPeer.connect(server)
        bob.send(.tab(section: 0))
        _ = try await bob.error()
        _ = try await ada.hello(room: "guide", name: "ada", role: .reader)
        ada.send(.document(title: "Guide", format: .markdown, text: guide))
        _ = try await ada.next("document")
        let document = try Document.parse(title: "Guide", format: .markdown, text: guide)
        ada.send(.scroll(top: 50, viewport: 20, content: 120, anchor: Anchor(block: document.sections[1].firstBlock, offset: 0)))
        _ = try await ada.next("tab")
        ada.send(.tab(section: 2))
        _ = try await ada.next("tab")
        ada.send(.tab(section: 9))
        _ = try await ada.error()
        ada.send(.scroll(top: 0, viewport: 20, content: 4, anchor: Anchor(block: document.sections[1].firstBlock, offset: 0), step: 0))
        _ = try await ada.next("progress")
        ada.send(.point(anchor: Anchor(block: 1, offset: 0), length: 6))
        _ = try await ada.next("pointer")
        ada.send(.unpoint)
        _ = try await ada.next("pointer")
        ada.send(.ask(anchor: Anchor(block: 1, offset: 0), length: 6, text: "private draft: why?"))
        _ = try await ada.next("question")
        let pat = try await TestPeer.connect(server)
        _ = try await pat.hello(room: "guide", name: "pat", role: .presenter)
        pat.send(.pointing(who: .presenter))
        _ = try await ada.next("joined")
        #expect(server.waitForLog { $0["event"] as? String == "pointing" } != nil)
        pat.send(.output(block: 6, text: secretOutput, state: .exited, exit: 0))
        _ = try await ada.next("output")
        let ops = try await TestPeer.connect(server)
        ops.send(.hello(room: "*", name: "ops", role: .observer))
        _ = try await ops.next("overview")
        _ = try await bob.hello(room: "guide", name: "bob", role: .reader)
        bob.send(.follow(on: true))
        _ = try await bob.next("follow")
        bob.send(.follow(on: false))
        _ = try await bob.next("follow")
        pat.send(.summon)
        _ = try await bob.next("summon")
        ada.send(.edit(rev: 0, ops: TextOperation([.insert(secretDraft)])))
        _ = try await ada.next("limit")
        bob.close()
        _ = try await ada.next("left")
        #expect(server.stop() == 0)
        #expect(server.waitForLog { $0["event"] as? String == "stop" } != nil)
        let failed = try startOnTakenPort()

        let lines = server.logLines + failed
        let events = Set(lines.compactMap { ServerProcess.json($0)?["event"] as? String })
        // origin_refused lines are checked against the table in TLSEndToEndTests,
        // too_slow lines in SlowReaderTests, room_expired and room_dropped in RoomTTLEndToEndTests, room_released in ClusterReleaseTests, entry_undecodable in ClusterUndecodableTests, redis_failover in ClusterSentinelTests, the cluster's events (and every
        // line with its node field) in ClusterEndToEndTests.
        #expect(events == Set(LogEvent.all.map(\.name)).subtracting(["store_failed", "origin_refused", "too_slow", "redis_down", "redis_up", "redis_failover", "membership_lost", "room_reset", "entry_undecodable", "lws", "room_expired", "room_dropped", "room_released", "room_restored", "log_reopened"]))
        for line in lines {
            for problem in LogSchema.problems(of: line) { Issue.record(Comment(rawValue: problem)) }
            #expect(!line.contains("Nobody outside") && !line.contains("private draft") && !line.contains("private snippet"),
                    "content leaked: \(line)")
        }
        #expect(server.events("tab").contains { $0["title"] as? String == "Details" }, "titles are logged")
    }

    @Test("docs/LOGS.md documents exactly NeonCore's LogEvent: every event with its levels, every field with its type and whether it is optional")
    func docsMatchTheDefinition() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/LOGS.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        // "### `name` (levels…)" then a "| `field` | type[, optional] | …" table.
        var documented: [String: (levels: Set<LogRecord.Level>, fields: [String: (String, Bool)])] = [:]
        var current: String?
        var inEvents = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { inEvents = line == "## Events"; current = nil; continue }
            guard inEvents else { continue }
            if line.hasPrefix("### `") {
                let name = String(line.dropFirst(5).prefix { $0 != "`" })
                let afterName = line.dropFirst(5).drop { $0 != "`" }
                let words = afterName.split(whereSeparator: { !$0.isLetter }).map(String.init)
                let levels = Set(words.compactMap(LogRecord.Level.init(rawValue:)))
                documented[name] = (levels, [:])
                current = name
            } else if let name = current, line.hasPrefix("| `") {
                let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                guard cells.count >= 2 else { continue }
                let key = String(cells[0].dropFirst().prefix { $0 != "`" })
                let type = cells[1].split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
                documented[name]?.fields[key] = (type, cells[1].contains("optional"))
            }
        }
        #expect(Set(documented.keys) == Set(LogEvent.all.map(\.name)), "events in docs/LOGS.md and in LogEvent")
        for event in LogEvent.all {
            guard let doc = documented[event.name] else { continue }
            #expect(doc.levels == event.levels, "\(event.name): levels \(doc.levels) in the docs, \(event.levels) defined")
            #expect(Set(doc.fields.keys) == Set(event.fields.map(\.key)), "\(event.name): fields in the docs \(doc.fields.keys.sorted()), defined \(event.fields.map(\.key))")
            for field in event.fields {
                guard let (type, optional) = doc.fields[field.key] else { continue }
                #expect(type == field.kind.rawValue, "\(event.name).\(field.key): \(type) in the docs, \(field.kind.rawValue) defined")
                #expect(optional == field.isOptional, "\(event.name).\(field.key): optional in the docs \(optional), defined \(field.isOptional)")
            }
        }
    }

    @Test("the schema check refuses unknown events, unknown fields, wrong types and a timestamp without milliseconds")
    func schemaCatchesMistakes() {
        #expect(!LogSchema.problems(of: #"{"ts":"2026-11-29T21:41:54.046Z","level":"info","event":"teleport"}"#).isEmpty)
        #expect(!LogSchema.problems(of: #"{"ts":"2026-11-29T21:41:54.046Z","level":"info","event":"follow","room":"r","client":"c1","on":1}"#).isEmpty)
        #expect(!LogSchema.problems(of: #"{"ts":"2026-11-29T21:41:54.046Z","level":"info","event":"follow","room":"r","client":"c1","on":true,"text":"x"}"#).isEmpty)
        #expect(!LogSchema.problems(of: #"{"ts":"2026-11-29T21:41:54Z","level":"info","event":"follow","room":"r","client":"c1","on":true}"#).isEmpty)
        #expect(LogSchema.problems(of: #"{"ts":"2026-11-29T21:41:54.046Z","level":"info","event":"follow","room":"r","client":"c1","on":true}"#).isEmpty)
    }

    /// A second neonsyncd on a port another one holds; returns the lines it
    /// logged (its start_failed) once it exited 1.
    private func startOnTakenPort() throws -> [String] {
        let holder = try ServerProcess()
        let process = Process()
        process.executableURL = ServerProcess.binary
        process.arguments = ["--port", "\(holder.port)", "--log", "-", "--data", holder.dataDirectory + "-second"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.runUnblocked()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitForExit()
        try? FileManager.default.removeItem(atPath: holder.dataDirectory + "-second")
        #expect(process.finalStatus == 1)
        #expect(holder.stop() == 0)
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
