import Foundation
import NeonCore
import NeonServerTestSupport
import NeonTestSupport
import NeonTransportCore
import Testing

@Suite("neonsyncd end to end", .serialized, .ownThreads)
struct EndToEndTests {
    @Test("GET /healthz answers 200 ok on the WebSocket port, GET / one line naming the product and how to connect, other paths 404")
    func healthz() throws {
        let server = try ServerProcess()
        let ok = try httpGet(port: server.port, path: "/healthz")
        #expect(ok.hasPrefix("HTTP/1.1 200"))
        #expect(ok.hasSuffix("\r\n\r\nok\n"))
        let root = try httpGet(port: server.port, path: "/")
        #expect(root.hasPrefix("HTTP/1.1 200"))
        let body = root.components(separatedBy: "\r\n\r\n").last ?? ""
        #expect(body.hasPrefix("NeonSync server (neonsyncd") && body.hasSuffix("\n"), "\(root)")
        #expect(body.contains("neonsync join ROOM --server ws://HOST:PORT/"))
        #expect(body.filter { $0 == "\n" }.count == 1)
        let missing = try httpGet(port: server.port, path: "/nope")
        #expect(missing.hasPrefix("HTTP/1.1 404") && missing.hasSuffix("\r\n\r\nnot found\n"))
        #expect(server.stop() == 0)
    }

    @Test("a frame over the message limit gets message_too_large, then close 1009")
    func tooLarge() async throws {
        let server = try ServerProcess(["--max-message", "4K", "--max-document", "2K"])
        let peer = try await TestPeer.connect(server)
        _ = try await peer.hello(room: "r", name: "ada", role: .reader)
        peer.send(.document(title: "Huge", format: .text, text: String(repeating: "y", count: 10_000)))
        let e = try await peer.error()
        #expect(e.code == .messageTooLarge)
        let close = try await peer.client.waitForClose(timeout: .seconds(5))
        #expect(close.code == 1009)
        let other = try await TestPeer.connect(server)
        _ = try await other.hello(room: "r", name: "bob", role: .reader)
        #expect(server.stop() == 0)
    }

    @Test("every log line is one JSON object with ts, level and event; progress logs every 10%")
    func logs() async throws {
        let server = try ServerProcess()
        let peer = try await TestPeer.connect(server)
        _ = try await peer.hello(room: "log", name: "ada", role: .reader)
        peer.send(.document(title: "Secret title", format: .markdown, text: "# A\nsecret body text"))
        _ = try await peer.next("document")
        for top in 0...50 {
            peer.send(.scroll(top: top, viewport: 50, content: 100, anchor: .top))
        }
        // Echoes sent in one burst may coalesce (latest wins): wait for the last.
        for _ in 0...50 {
            guard case let .progress(info) = try await peer.next("progress").payload else { continue }
            if info.percent == 100 { break }
        }
        peer.close()
        #expect(server.waitForLog { $0["event"] as? String == "leave" } != nil)
        #expect(server.stop() == 0)
        let records = server.logLines.map { ServerProcess.json($0) }
        #expect(records.allSatisfy { $0 != nil })
        for r in records.compactMap({ $0 }) {
            #expect(r["ts"] is String && r["level"] is String && r["event"] is String)
        }
        let steps = server.events("progress").compactMap { $0["step"] as? Int }
        #expect(steps == [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100])
        #expect(!server.logLines.contains { $0.contains("secret body text") })
        let seen = Set(server.logLines.compactMap { ServerProcess.json($0)?["event"] as? String })
        #expect(seen.isSuperset(of: ["start", "connect", "join", "document", "progress", "leave", "disconnect", "stop"]))
    }

    @Test("SIGTERM closes every client with 1001 and exits 0")
    func gracefulStop() async throws {
        let server = try ServerProcess()
        let peer = try await TestPeer.connect(server)
        _ = try await peer.hello(room: "r", name: "ada", role: .reader)
        #expect(server.stop(signal: SIGTERM) == 0)
        let close = try await peer.client.waitForClose(timeout: .seconds(5))
        #expect(close.code == 1001)
        #expect(server.events("stop").first?["reason"] as? String == "SIGTERM")
    }

    @Test("bad flags are refused with a sentence and exit status 2")
    func badFlags() throws {
        for (args, mention) in [(["--port", "99999"], "--port"), (["--bogus"], "unknown option"),
                                (["--log-level", "loud"], "debug, info, warn or error"),
                                (["--max-document", "9M", "--max-message", "1M"], "--max-message")] {
            let result = try runDaemon(args)
            #expect(result.status == 2)
            #expect(result.err.contains(mention), "stderr was: \(result.err)")
        }
    }
}

@Suite("neonsyncd durability", .serialized, .ownThreads)
struct DurabilityTests {
    @Test("after kill -9 the restarted server restores the room's document and every acked revision")
    func killNine() async throws {
        let data = NSTemporaryDirectory() + "neonsync-durability-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: data) }
        var acked = 0
        var expected = ""
        do {
            let server = try ServerProcess(["--data", data])
            let ada = try await TestPeer.connect(server)
            _ = try await ada.hello(room: "keep", name: "ada", role: .reader)
            ada.send(.document(title: "Kept", format: .markdown, text: notes))
            _ = try await ada.next("document")
            for n in 0..<200 {
                let piece = "w\(n) "
                ada.send(.edit(rev: n, ops: TextOperation(n == 0 ? [.insert(piece)] : [.retain(expected.unicodeScalars.count), .insert(piece)])))
                guard case let .ack(rev) = try await ada.next("ack").payload else { Issue.record("no ack"); return }
                expected += piece
                acked = rev
            }
            #expect(server.stop(signal: SIGKILL) == SIGKILL)
        }
        let restarted = try ServerProcess(["--data", data])
        #expect(restarted.events("start").first?["restoredRooms"] as? Int == 1)
        let bob = try await TestPeer.connect(restarted)
        let welcome = try await bob.hello(room: "keep", name: "bob", role: .reader)
        #expect(welcome.document?.title == "Kept")
        #expect(welcome.draft.rev == acked)
        #expect(welcome.draft.text == expected)
        bob.send(.edit(rev: acked, ops: TextOperation([.retain(expected.unicodeScalars.count), .insert("more")])))
        guard case let .ack(next) = try await bob.next("ack").payload else { Issue.record("no ack"); return }
        #expect(next == acked + 1)
        #expect(restarted.stop() == 0)
    }

    @Test("a data directory that cannot be created stops the start with a sentence naming it")
    func badDataDirectory() throws {
        let p = Process()
        p.executableURL = ServerProcess.binary
        p.arguments = ["--port", "0", "--data", "/proc/neonsync-cannot-be-here"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = Pipe()
        try p.runUnblocked()
        p.waitForExit()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(p.finalStatus == 1)
        #expect(text.contains("/proc/neonsync-cannot-be-here"), "stderr was: \(text)")
    }
}
