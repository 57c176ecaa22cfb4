import Foundation
import NeonCore
@testable import NeonServer
import NeonServerTestSupport
import NeonTestSupport
import NeonTransport
import NeonTransportCore
import Testing

/// Room tokens and the per-connection limits, through the whole server
/// in-process; its clocks move only when the test says, so rates and
/// timeouts are exact.
@Suite("In-process server: room tokens and limits")
struct InProcessAccessTests {
    @Test("with a secret every hello needs a token for its room and role; refusals close 1008 and change nothing")
    func tokens() throws {
        let secret = try TestSecret()
        let server = try InProcessServer(.init(gateway: .init(policy: AccessPolicy(secret: try TokenSecret.load(path: secret.path)))))
        let cases: [(ClientMessage, ErrorCode, String)] = [
            (.hello(room: "talk", name: "eve", role: .reader), .unauthorized, "requires a room token"),
            (.hello(room: "talk", name: "eve", role: .reader, token: "nst1.garbage"), .unauthorized, "not a NeonSync room token"),
            (.hello(room: "talk", name: "eve", role: .presenter, token: try secret.token("talk", .reader)), .unauthorized, "not room \"talk\" as presenter"),
            (.hello(room: "other", name: "eve", role: .reader, token: try secret.token("talk", .reader)), .unauthorized, "not room \"other\""),
            (.hello(room: "talk", name: "eve", role: .reader, token: try secret.token("talk", .reader, expires: 1_000)), .tokenExpired, "expired"),
            (.hello(room: "*", name: "eve", role: .reader, token: try secret.token("talk", .presenter)), .unauthorized, "not room \"*\""),
        ]
        for (hello, code, mention) in cases {
            let eve = server.connect()
            server.send(hello, from: eve)
            let errors = server.takeErrors(eve)
            #expect(errors.map(\.code) == [code] && errors.first?.message.contains(mention) == true, "\(errors)")
            #expect(server.closeOf(eve)?.code == CloseCode.policyViolation)
        }

        let ada = server.connect()
        server.send(.hello(room: "talk", name: "ada", role: .presenter, token: try secret.token("talk", .presenter)), from: ada)
        #expect(server.take(ada).first?.type == "welcome")
        let bob = server.connect()
        server.send(.hello(room: "talk", name: "bob", role: .observer, token: try secret.token("talk", .reader)), from: bob)
        guard case let .welcome(welcome)? = server.take(bob).first?.payload else { throw InProcessFailure("no welcome for bob") }
        #expect(welcome.readers.map(\.name) == ["ada", "bob"], "no refused hello joined or created anything")
        let ops = server.connect()
        server.send(.hello(room: "*", name: "ops", role: .observer, token: try secret.token("*", .observer)), from: ops)
        guard case let .overview(overview)? = server.take(ops).first?.payload else { throw InProcessFailure("no overview") }
        #expect(overview.rooms.map(\.room) == ["talk"])
        #expect(server.events("join").count == 2 && server.events("error").count == cases.count)
    }

    @Test("monitoring every room with a token for one room watches that room only: its overview, its broadcasts, its members' errors")
    func scopedWatch() throws {
        let secret = try TestSecret()
        let server = try InProcessServer(.init(gateway: .init(policy: AccessPolicy(secret: try TokenSecret.load(path: secret.path)))))
        let ada = server.connect()
        server.send(.hello(room: "talk", name: "ada", role: .reader, token: try secret.token("talk", .reader)), from: ada)
        let bob = server.connect()
        server.send(.hello(room: "other", name: "bob", role: .reader, token: try secret.token("other", .reader)), from: bob)
        #expect(server.take(ada).first?.type == "welcome" && server.take(bob).first?.type == "welcome")

        let ops = server.connect()
        server.send(.hello(room: "*", name: "ops", role: .observer, token: try secret.token("talk", .observer)), from: ops)
        guard case let .overview(overview)? = server.take(ops).first?.payload else { throw InProcessFailure("no overview") }
        #expect(overview.rooms.map(\.room) == ["talk"], "only the room the token allows")
        #expect(server.events("watch").contains { $0["scope"] as? String == "talk" && $0["rooms"] as? Int == 1 })

        for reader in [bob, ada] {
            server.send(.follow(on: true), from: reader)
            server.send(#"{"type":"tab","section":"x"}"#, from: reader)
            #expect(server.take(reader).map(\.type) == ["follow", "error"])
        }
        let seen = server.take(ops).compactMap { message -> String? in
            guard case let .room(envelope) = message.payload else { return nil }
            return "\(envelope.room ?? "-") \(envelope.message.type)"
        }
        #expect(seen == ["talk follow", "talk error"], "nothing from room other reached it")
    }

    @Test("over --max-rate messages are dropped with one rate_limited error; a long run closes 1008; others are unaffected")
    func rateLimit() throws {
        let server = try InProcessServer(.init(gateway: .init(policy: AccessPolicy(rate: 5, burst: 5))))
        let (ada, _) = try server.join("r", as: "ada")
        let (bob, _) = try server.join("r", as: "bob")
        _ = server.take(ada)
        for _ in 0..<8 { server.send(.edit(rev: 0, ops: TextOperation([.insert("x")])), from: ada) }
        let answers = server.take(ada)
        #expect(only("ack", answers).count == 4, "4 more edits fit the burst of 5 after the hello; the clock does not move")
        let errors = answers.compactMap { if case let .error(error) = $0.payload { error } else { nil } }
        #expect(errors.map(\.code) == [.rateLimited])
        #expect(errors.first?.message.contains("more than 5 messages a second") == true)
        for _ in 0..<40 where server.closeOf(ada) == nil { server.send(.follow(on: false), from: ada) }
        #expect(server.closeOf(ada)?.code == CloseCode.policyViolation)
        server.send(.follow(on: true), from: bob)
        #expect(server.take(bob).map(\.type).contains("follow"), "the other reader is served")
    }

    @Test("--max-connections-per-ip refuses the connection over the cap with an error and close 1008; a closed one makes room")
    func perAddress() throws {
        let server = try InProcessServer(.init(gateway: .init(policy: AccessPolicy(maxConnectionsPerAddress: 2))))
        let first = server.connect()
        let second = server.connect()
        let third = server.connect()
        let errors = server.takeErrors(third)
        #expect(errors.map(\.code) == [.tooManyConnections])
        #expect(errors.first?.message.contains("127.0.0.1 already has 2 connections") == true)
        #expect(server.closeOf(third)?.code == CloseCode.policyViolation)
        server.send(.hello(room: "r", name: "ada", role: .reader), from: first)
        server.close(second)
        #expect(server.events("disconnect").count == 2, "the refused third's and the second's")
        let (_, welcome) = try server.join("r", as: "bob")
        #expect(welcome.readers.map(\.name) == ["ada", "bob"])
        #expect(server.closeOf(server.connect()) != nil, "two are open again: the next is over the cap")
    }

    @Test("a connection that sends no hello within --hello-timeout gets hello_timeout and close 1008; a joined one's timer is stopped")
    func helloTimeout() throws {
        let server = try InProcessServer(.init(gateway: .init(policy: AccessPolicy(helloTimeout: .seconds(1)))))
        let joined = server.connect()
        #expect(server.transport.connections[joined]?.timer == .seconds(1))
        server.send(.hello(room: "r", name: "ada", role: .reader), from: joined)
        #expect(server.transport.connections[joined]?.timer == nil)
        let silent = server.connect()
        server.advance(by: .seconds(1))
        server.fireTimer(of: silent)
        let errors = server.takeErrors(silent)
        #expect(errors.map(\.code) == [.helloTimeout] && errors.first?.message.contains("no hello within 1 s") == true)
        #expect(server.closeOf(silent)?.code == CloseCode.policyViolation)
        server.send(.follow(on: true), from: joined)
        #expect(server.take(joined).map(\.type).contains("follow"), "the joined reader was not timed out")
    }

    @Test("behind a trusted proxy the client's address from X-Forwarded-For or Forwarded is logged and counted per address; a forged header from an untrusted peer is ignored and said so")
    func trustedProxy() throws {
        let proxies = ProxyTrust([try #require(AddressRange("127.0.0.1"))])
        let server = try InProcessServer(.init(gateway: .init(policy: AccessPolicy(maxConnectionsPerAddress: 1, proxies: proxies))))
        _ = server.connect(forwarding: ForwardingHeaders(forwardedFor: "198.51.100.9, 203.0.113.7"))
        _ = server.connect(forwarding: ForwardingHeaders(forwarded: #"for="[2001:db8::17]:4711";proto=https"#))
        _ = server.connect(peer: "127.0.0.2", forwarding: ForwardingHeaders(forwardedFor: "203.0.113.99"))
        let lines = server.events("connect")
        #expect(lines.contains { $0["peer"] as? String == "203.0.113.7" && $0["proxy"] as? String == "127.0.0.1" })
        #expect(lines.contains { $0["peer"] as? String == "2001:db8::17" && $0["proxy"] as? String == "127.0.0.1" })
        #expect(lines.contains { $0["peer"] as? String == "127.0.0.2" && $0["forwardedIgnored"] as? Bool == true && $0["proxy"] == nil })
        #expect(!server.logLines.contains { $0.contains("203.0.113.99") }, "the forged address appears nowhere")

        let again = server.connect(forwarding: ForwardingHeaders(forwardedFor: "203.0.113.7"))
        #expect(server.closeOf(again)?.code == CloseCode.policyViolation, "the cap counts the client behind the proxy")
        #expect(server.takeErrors(again).first?.message.contains("203.0.113.7 already has 1") == true)
    }
}
