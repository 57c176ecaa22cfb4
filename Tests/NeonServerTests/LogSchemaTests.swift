import Foundation
import NeonCore
import NeonTestSupport
import NeonTransport
import Testing

/// The documented log schema (docs/LOGS.md) as a table: every event, its
/// levels, whether it names a room and a client, and its fields with types.
struct LogSchema {
    enum Kind: String { case string, int, bool }
    enum Presence { case required, optional, absent }

    let levels: Set<String>
    let room: Presence
    let client: Presence
    let fields: [String: Kind]
    var optional: [String: Kind] = [:]

    static let events: [String: LogSchema] = [
        "start": LogSchema(levels: ["info"], room: .absent, client: .absent,
                           fields: ["host": .string, "port": .int, "protocol": .string, "version": .string, "restoredRooms": .int,
                                    "tokens": .bool, "tls": .bool, "origins": .string],
                           optional: ["redis": .string, "generation": .int]),
        "start_failed": LogSchema(levels: ["error"], room: .absent, client: .absent, fields: ["error": .string]),
        "stop": LogSchema(levels: ["info"], room: .absent, client: .absent, fields: ["reason": .string]),
        "connect": LogSchema(levels: ["info"], room: .absent, client: .required, fields: ["peer": .string],
                             optional: ["proxy": .string, "forwardedIgnored": .bool]),
        "disconnect": LogSchema(levels: ["info"], room: .absent, client: .required, fields: ["initiatedByPeer": .bool],
                                optional: ["code": .int]),
        "too_slow": LogSchema(levels: ["warn"], room: .absent, client: .required,
                              fields: ["code": .int, "maxOutbound": .int]),
        "join": LogSchema(levels: ["info"], room: .required, client: .required,
                          fields: ["name": .string, "role": .string, "members": .int]),
        "watch": LogSchema(levels: ["info"], room: .absent, client: .required,
                           fields: ["name": .string, "scope": .string, "rooms": .int, "watchers": .int]),
        "leave": LogSchema(levels: ["info"], room: .required, client: .required,
                           fields: ["name": .string, "role": .string, "percent": .int, "members": .int]),
        "document": LogSchema(levels: ["info"], room: .required, client: .required,
                              fields: ["title": .string, "format": .string, "bytes": .int, "sections": .int, "blocks": .int]),
        "progress": LogSchema(levels: ["info"], room: .required, client: .required,
                              fields: ["step": .int, "percent": .int, "atBottom": .bool, "section": .int]),
        "tab": LogSchema(levels: ["info"], room: .required, client: .required,
                         fields: ["section": .int, "title": .string, "source": .string]),
        "follow": LogSchema(levels: ["info"], room: .required, client: .required, fields: ["on": .bool]),
        "limit": LogSchema(levels: ["info", "warn"], room: .required, client: .required,
                           fields: ["draftLevel": .string, "fromLevel": .string, "count": .int, "remaining": .int, "limit": .int]),
        "error": LogSchema(levels: ["warn"], room: .optional, client: .required, fields: ["code": .string, "message": .string]),
        "store_failed": LogSchema(levels: ["error"], room: .absent, client: .absent, fields: ["error": .string]),
        "redis_down": LogSchema(levels: ["error"], room: .absent, client: .absent,
                                fields: ["redis": .string, "reason": .string]),
        "redis_up": LogSchema(levels: ["info"], room: .absent, client: .absent,
                              fields: ["redis": .string, "reason": .string]),
        "membership_lost": LogSchema(levels: ["warn"], room: .absent, client: .absent, fields: ["connections": .int]),
        "room_reset": LogSchema(levels: ["warn"], room: .required, client: .required, fields: ["code": .int]),
        "room_expired": LogSchema(levels: ["info"], room: .required, client: .absent,
                                  fields: ["idleSeconds": .int, "ttlSeconds": .int]),
        "lws": LogSchema(levels: ["debug"], room: .absent, client: .absent, fields: ["severity": .string, "line": .string]),
        "origin_refused": LogSchema(levels: ["warn"], room: .absent, client: .absent,
                                    fields: ["peer": .string, "origin": .string],
                                    optional: ["proxy": .string, "forwardedIgnored": .bool]),
    ]

    /// Every problem of one log line against the table; empty when it fits.
    static func problems(of line: String) -> [String] {
        guard let object = ServerProcess.json(line) else { return ["not a JSON object: \(line)"] }
        guard let event = object["event"] as? String else { return ["no event: \(line)"] }
        guard let schema = events[event] else { return ["unknown event \(event): \(line)"] }
        var problems: [String] = []
        let ts = object["ts"] as? String ?? ""
        if ts.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$"#, options: .regularExpression) == nil {
            problems.append("ts \(ts) is not RFC 3339 UTC with milliseconds")
        }
        if !schema.levels.contains(object["level"] as? String ?? "") {
            problems.append("level \(object["level"] ?? "none") is not one of \(schema.levels.sorted())")
        }
        for (key, presence) in [("room", schema.room), ("client", schema.client)] {
            let value = object[key]
            switch presence {
            case .required where kind(of: value) != .string: problems.append("\(key) missing or not a string")
            case .optional where value != nil && kind(of: value) != .string: problems.append("\(key) is not a string")
            case .absent where value != nil: problems.append("\(key) should be absent")
            default: break
            }
        }
        for (key, expected) in schema.fields where kind(of: object[key]) != expected {
            problems.append("field \(key) missing or not \(expected.rawValue)")
        }
        for (key, expected) in schema.optional where object[key] != nil && kind(of: object[key]) != expected {
            problems.append("field \(key) is not \(expected.rawValue)")
        }
        if let node = object["node"], kind(of: node) != .string { problems.append("node is not a string") }
        let known = Set(schema.fields.keys).union(schema.optional.keys).union(["ts", "level", "event", "node", "room", "client"])
        for key in object.keys where !known.contains(key) {
            problems.append("unknown field \(key)")
        }
        return problems.map { "\(event): \($0) in \(line)" }
    }

    /// JSONSerialization gives booleans as their own NSNumber class.
    static func kind(of value: Any?) -> Kind? {
        guard let value else { return nil }
        if value is String { return .string }
        guard let number = value as? NSNumber else { return nil }
        if String(describing: type(of: value)).contains("Boolean") { return .bool }
        let type = String(cString: number.objCType)
        return type == "d" || type == "f" ? nil : .int
    }
}

private let secretBody = "Nobody outside this room may read this sentence."
private let secretDraft = "A private draft line for the log"
private let guide = """
# Intro
\(secretBody)

# Usage
Start the server.

# Details
The end.
"""

@Suite("the server log matches docs/LOGS.md", .serialized)
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
        let ops = try await TestPeer.connect(server)
        ops.send(.hello(room: "*", name: "ops", role: .observer))
        _ = try await ops.next("overview")
        _ = try await bob.hello(room: "guide", name: "bob", role: .reader)
        bob.send(.follow(on: true))
        _ = try await bob.next("follow")
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
        // too_slow lines in SlowReaderTests, room_expired in RoomTTLEndToEndTests, the cluster's events (and every
        // line with its node field) in ClusterEndToEndTests.
        #expect(events == Set(LogSchema.events.keys).subtracting(["store_failed", "origin_refused", "too_slow", "redis_down", "redis_up", "membership_lost", "room_reset", "lws", "room_expired"]))
        for line in lines {
            for problem in LogSchema.problems(of: line) { Issue.record(Comment(rawValue: problem)) }
            #expect(!line.contains("Nobody outside") && !line.contains("private draft"), "content leaked: \(line)")
        }
        #expect(server.events("tab").contains { $0["title"] as? String == "Details" }, "titles are logged")
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
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: holder.dataDirectory + "-second")
        #expect(process.terminationStatus == 1)
        #expect(holder.stop() == 0)
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
