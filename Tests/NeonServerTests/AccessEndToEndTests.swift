import Foundation
import NeonCore
@testable import NeonServer
import NeonTransport
import Testing
import NeonTestSupport

extension TestSecret {
    /// A token signed in-process, with any expiry (an expired one included).
    func token(_ room: String, _ role: Role, expires: Int64 = Int64(Date().timeIntervalSince1970) + 3600) throws -> String {
        RoomToken(room: room, role: role, expires: expires).signed(with: try TokenSecret(Array(text.utf8)))
    }
}

@Suite("neonsyncd: room tokens and limits", .serialized, .ownThreads)
struct AccessEndToEndTests {
    @Test("with a secret every hello needs a token for its room and role; refusals close 1008 and change nothing")
    func tokens() async throws {
        let secret = try TestSecret()
        let server = try ServerProcess(["--secret-file", secret.path])
        #expect(server.events("start").first?["tokens"] as? Bool == true)

        let cases: [(ClientMessage, ErrorCode, String)] = [
            (.hello(room: "talk", name: "eve", role: .reader), .unauthorized, "requires a room token"),
            (.hello(room: "talk", name: "eve", role: .reader, token: "nst1.garbage"), .unauthorized, "not a NeonSync room token"),
            (.hello(room: "talk", name: "eve", role: .presenter, token: try secret.token("talk", .reader)), .unauthorized, "not room \"talk\" as presenter"),
            (.hello(room: "other", name: "eve", role: .reader, token: try secret.token("talk", .reader)), .unauthorized, "not room \"other\""),
            (.hello(room: "talk", name: "eve", role: .reader, token: try secret.token("talk", .reader, expires: 1_000)), .tokenExpired, "expired"),
            (.hello(room: "*", name: "eve", role: .reader, token: try secret.token("talk", .presenter)), .unauthorized, "not room \"*\""),
        ]
        for (hello, code, mention) in cases {
            let eve = try await TestPeer.connect(server)
            eve.send(hello)
            let error = try await eve.error()
            #expect(error.code == code && error.message.contains(mention), "\(error)")
            let close = try await eve.client.waitForClose()
            #expect(close.code == CloseCode.policyViolation)
        }

        let ada = try await TestPeer.connect(server)
        ada.send(.hello(room: "talk", name: "ada", role: .presenter, token: try secret.token("talk", .presenter)))
        _ = try await ada.next("welcome")
        let bob = try await TestPeer.connect(server)
        bob.send(.hello(room: "talk", name: "bob", role: .observer, token: try secret.token("talk", .reader)))
        guard case let .welcome(welcome) = try await bob.next("welcome").payload else { return }
        #expect(welcome.readers.map(\.name) == ["ada", "bob"], "no refused hello joined or created anything")
        let ops = try await TestPeer.connect(server)
        ops.send(.hello(room: "*", name: "ops", role: .observer, token: try secret.token("*", .observer)))
        guard case let .overview(overview) = try await ops.next("overview").payload else { return }
        #expect(overview.rooms.map(\.room) == ["talk"])
        #expect(server.events("join").count == 2 && server.events("error").count == cases.count)
        #expect(server.stop() == 0)
    }

    @Test("monitoring every room with a token for one room watches that room only: its overview, its broadcasts, its members' errors")
    func scopedWatch() async throws {
        let secret = try TestSecret()
        let server = try ServerProcess(["--secret-file", secret.path])
        let ada = try await TestPeer.connect(server)
        ada.send(.hello(room: "talk", name: "ada", role: .reader, token: try secret.token("talk", .reader)))
        _ = try await ada.next("welcome")
        let bob = try await TestPeer.connect(server)
        bob.send(.hello(room: "other", name: "bob", role: .reader, token: try secret.token("other", .reader)))
        _ = try await bob.next("welcome")

        let ops = try await TestPeer.connect(server)
        ops.send(.hello(room: "*", name: "ops", role: .observer, token: try secret.token("talk", .observer)))
        guard case let .overview(overview) = try await ops.next("overview").payload else { return }
        #expect(overview.rooms.map(\.room) == ["talk"], "only the room the token allows")
        #expect(server.waitForLog { $0["event"] as? String == "watch" && $0["scope"] as? String == "talk" && $0["rooms"] as? Int == 1 } != nil)

        bob.send(.follow(on: true))
        _ = try await bob.next("follow")
        bob.sendRaw(#"{"type":"tab","section":"x"}"#)
        _ = try await bob.error()
        ada.send(.follow(on: true))
        _ = try await ada.next("follow")
        ada.sendRaw(#"{"type":"tab","section":"x"}"#)
        _ = try await ada.error()
        var seen: [String] = []
        while seen.count < 2 {
            guard case let .room(envelope) = try await ops.next("room").payload else { continue }
            seen.append("\(envelope.room ?? "-") \(envelope.message.type)")
        }
        #expect(seen == ["talk follow", "talk error"], "nothing from room other reached it")
        #expect(server.stop() == 0)
    }

    @Test("neonsyncd token mints a token on its last line that the server takes; bad flags and loose secrets exit 2")
    func tokenCommand() async throws {
        let secret = try TestSecret()
        let minted = try runDaemon(["token", "--secret-file", secret.path, "--room", "talk", "--role", "reader", "--ttl", "2h"])
        #expect(minted.status == 0)
        let token = try #require(minted.out.split(separator: "\n").last.map(String.init))
        #expect(minted.out.contains("valid for 7200 s"))
        let server = try ServerProcess(["--secret-file", secret.path])
        let bob = try await TestPeer.connect(server)
        bob.send(.hello(room: "talk", name: "bob", role: .reader, token: token))
        _ = try await bob.next("welcome")
        #expect(server.stop() == 0)

        for (args, mention) in [(["--room", "talk", "--role", "reader"], "--secret-file is required"),
                                (["--secret-file", secret.path, "--role", "reader"], "--room is required"),
                                (["--secret-file", secret.path, "--room", "talk", "--role", "admin"], "not a role"),
                                (["--secret-file", secret.path, "--room", "a b", "--role", "reader"], "not a room name"),
                                (["--secret-file", secret.path, "--room", "t", "--role", "reader", "--ttl", "5y"], "not a duration")] {
            let result = try runDaemon(["token"] + args)
            #expect(result.status == 2 && result.err.contains(mention), "\(args): \(result.err)")
        }
        chmod(secret.path, 0o640)
        let loose = try runDaemon(["token", "--secret-file", secret.path, "--room", "t", "--role", "reader"])
        #expect(loose.status == 2 && loose.err.contains("chmod 600"))
        let serve = try runDaemon(["--port", "0", "--secret-file", secret.path])
        #expect(serve.status == 2 && serve.err.contains("chmod 600"))
        // Whoever may write the secret chooses it: group-writable is refused too.
        chmod(secret.path, 0o620)
        let writable = try runDaemon(["--port", "0", "--secret-file", secret.path])
        #expect(writable.status == 2 && writable.err.contains(
            "the secret file \(secret.path) can be written by its group (mode 620); run chmod 600 \(secret.path)"), "\(writable.err)")
    }

    @Test("without a secret a non-loopback host is refused unless --insecure-open says so")
    func openHost() throws {
        let refused = try runDaemon(["--host", "0.0.0.0", "--port", "0"])
        #expect(refused.status == 2 && refused.err.contains("--secret-file FILE") && refused.err.contains("--insecure-open"))
        let server = try ServerProcess(["--host", "0.0.0.0", "--insecure-open"])
        #expect(server.events("start").first?["host"] as? String == "0.0.0.0")
        #expect(server.stop() == 0)
    }

    @Test("over --max-rate messages are dropped with one rate_limited error; a long run closes 1008; others are unaffected")
    func rateLimit() async throws {
        let server = try ServerProcess(["--max-rate", "5", "--max-burst", "5"])
        let ada = try await TestPeer.connect(server)
        let bob = try await TestPeer.connect(server)
        _ = try await ada.hello(room: "r", name: "ada", role: .reader)
        _ = try await bob.hello(room: "r", name: "bob", role: .reader)
        _ = try await ada.next("joined")
        // Edits, because each accepted one is acked; follow broadcasts sent
        // in one burst coalesce (latest wins) and would not count them.
        for _ in 0..<8 { ada.send(.edit(rev: 0, ops: TextOperation([.insert("x")]))) }
        var acks = 0
        var errors: [ProtocolError] = []
        while errors.isEmpty {
            let message = try await ada.next()
            if case let .error(error) = message.payload { errors.append(error) }
            if message.type == "ack" { acks += 1 }
        }
        #expect((4...5).contains(acks), "4 more edits fit the burst of 5 after the hello (5 if a token came back meanwhile)")
        #expect(errors.map(\.code) == [.rateLimited])
        #expect(errors.first?.message.contains("more than 5 messages a second") == true)
        for _ in 0..<40 { ada.send(.follow(on: false)) }
        let close = try await ada.client.waitForClose()
        #expect(close.code == CloseCode.policyViolation)
        bob.send(.follow(on: true))
        #expect(try await bob.next("follow").type == "follow", "the other reader is served")
        #expect(server.stop() == 0)
    }

    @Test("--max-connections-per-ip refuses the connection over the cap with an error and close 1008")
    func perAddress() async throws {
        let server = try ServerProcess(["--max-connections-per-ip", "2"])
        let first = try await TestPeer.connect(server)
        let second = try await TestPeer.connect(server)
        let third = try await TestPeer.connect(server)
        let error = try await third.error()
        #expect(error.code == .tooManyConnections && error.message.contains("127.0.0.1 already has 2 connections"))
        #expect(try await third.client.waitForClose().code == CloseCode.policyViolation)
        _ = try await first.hello(room: "r", name: "ada", role: .reader)
        second.close()
        _ = try await second.client.waitForClose()
        // The server counts the address down when it logs the disconnect
        // (the refused third's and the second's).
        #expect(await server.events("disconnect", count: 2).count == 2)
        let again = try await TestPeer.connect(server)
        _ = try await again.hello(room: "r", name: "bob", role: .reader)
        #expect(server.stop() == 0)
    }

    @Test("a connection that sends no hello within --hello-timeout gets hello_timeout and close 1008; a joined one stays")
    func helloTimeout() async throws {
        let server = try ServerProcess(["--hello-timeout", "1"])
        let joined = try await TestPeer.connect(server)
        _ = try await joined.hello(room: "r", name: "ada", role: .reader)
        let silent = try await TestPeer.connect(server)
        let started = ContinuousClock.now
        let error = try await silent.error(timeout: .seconds(5))
        #expect(error.code == .helloTimeout && error.message.contains("no hello within 1 s"))
        #expect(try await silent.client.waitForClose().code == CloseCode.policyViolation)
        #expect(started.duration(to: .now) < .seconds(4))
        // The joined reader outlives the timeout: the condition is time.
        try await Task.sleep(until: started + .milliseconds(1200))
        joined.send(.follow(on: true))
        #expect(try await joined.next("follow").type == "follow", "the joined reader was not timed out")
        #expect(server.stop() == 0)
    }

    @Test("with --idle-timeout a quiet client that answers pings stays; a socket that never answers is closed")
    func idleTimeout() async throws {
        let server = try ServerProcess(["--idle-timeout", "2"])
        let quiet = try await TestPeer.connect(server)
        _ = try await quiet.hello(room: "r", name: "ada", role: .reader)
        let mute = try RawWebSocket(port: server.port)
        let started = Date()
        let closedAfter = mute.socket.secondsUntilClosed(timeout: 8)
        #expect(closedAfter != nil, "the silent socket was never closed")
        #expect(Date().timeIntervalSince(started) >= 1.5)
        quiet.send(.follow(on: true))
        #expect(try await quiet.next("follow").type == "follow", "the client that answered pings is still connected")
        #expect(server.stop() == 0)
    }
}
