import Foundation
import NeonCore
@testable import NeonServer
import NeonTransportCore
import Testing
import NeonTestSupport

@Suite("neonsyncd: room tokens and limits", .serialized, .ownThreads)
struct AccessEndToEndTests {
    @Test("neonsyncd token mints a token on its last line that the server takes; bad flags and loose secrets exit 2")
    func tokenCommand() async throws {
        let secret = try TestSecret()
        let minted = try runDaemon(["token", "--secret-file", secret.path, "--room", "talk", "--role", "reader", "--ttl", "2h"])
        #expect(minted.status == 0)
        let token = try #require(minted.out.split(separator: "\n").last.map(String.init))
        #expect(minted.out.contains("valid for 7200 s"))
        let server = try ServerProcess(["--secret-file", secret.path])
        #expect(server.events("start").first?["tokens"] as? Bool == true)
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
