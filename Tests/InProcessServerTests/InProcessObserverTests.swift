import Foundation
import NeonCore
@testable import NeonServer
import NeonServerTestSupport
import NeonTransportCore
import Testing

@Suite("In-process server: observers of every room")
struct InProcessObserverTests {
    @Test("an observer of \"*\" gets an overview, then every room's broadcasts byte for byte in room envelopes")
    func watchEveryRoom() throws {
        let server = try InProcessServer()
        let (ada, adaWelcome) = try server.join("notes", as: "ada", role: .presenter)
        server.send(.document(title: "Notes", format: .markdown, text: notes), from: ada)

        let ops = server.connect()
        server.send(.hello(room: "*", name: "ops", role: .observer), from: ops)
        guard case let .overview(overview)? = server.take(ops).first?.payload else {
            throw InProcessFailure("expected an overview: \(server.messages(of: ops))")
        }
        #expect(overview.rooms.map(\.room) == ["notes"])
        #expect(overview.rooms[0].readers.map(\.name) == ["ada"] && overview.rooms[0].presenter == adaWelcome.you)
        #expect(overview.rooms[0].document?.sections == ["Intro", "Usage", "Details"])

        // A room that appears after the overview comes in envelopes too.
        let (_, bobWelcome) = try server.join("draft-room", as: "bob")
        guard case let .room(envelope)? = server.take(ops).first?.payload, case let .joined(reader) = envelope.message.payload else {
            throw InProcessFailure("expected bob's join in a room envelope: \(server.messages(of: ops))")
        }
        #expect(envelope.room == "draft-room" && reader.id == bobWelcome.you && envelope.to == nil)

        _ = server.take(ada)
        let (cy, _) = try server.join("notes", as: "cy")
        let cyJoinedForAda = try #require(server.transport.connections[ada]?.texts.last)
        let cyJoinedForOps = try #require(server.transport.connections[ops]?.texts.last)
        let seq = try ServerMessage.seq(of: cyJoinedForAda)
        #expect(cyJoinedForOps == #"{"type":"room","seq":\#(seq),"room":"notes","message":\#(cyJoinedForAda)}"#,
                "the envelope carries the members' frame unchanged")

        let doc = try Document.parse(title: "Notes", format: .markdown, text: notes)
        _ = server.take(ops)
        server.send(.scroll(top: 29, viewport: 20, content: 120, anchor: Anchor(block: doc.sections[1].firstBlock, offset: 0)),
                    from: ada)
        let forCy = try #require(server.transport.connections[cy]?.texts.suffix(2))
        let forOps = try #require(server.transport.connections[ops]?.texts.suffix(2))
        #expect(forCy.count == 2 && forOps.count == 2)
        for (member, observer) in zip(forCy, forOps) {
            #expect(observer.hasSuffix(#","room":"notes","message":\#(member)}"#), "the progress and the tab it changed")
        }

        // The watcher cannot take part; its error is not relayed back to it.
        server.send(.tab(section: 1), from: ops)
        let answer = server.take(ops)
        #expect(answer.map(\.type) == ["room", "room", "error"], "the progress and its tab change, then the error")
        guard case let .error(error)? = answer.last?.payload else { throw InProcessFailure("no error: \(answer)") }
        #expect(error.code == .notAllowed)

        let relayed = server.messages(of: ops).filter { $0.type == "room" }.count
        let metrics = String(decoding: server.get("/metrics").body, as: UTF8.self)
        #expect(metrics.contains(#"neonsync_messages_out_total{type="room"} \#(relayed)"#), "every relayed message is counted")
        #expect(metrics.contains(#"neonsync_readers{role="observer"} 1"#))
        #expect(server.events("watch").contains { $0["name"] as? String == "ops" && $0["rooms"] as? Int == 1 })
    }

    @Test("an error the server sends to one reader reaches the observers, naming whom it went to")
    func errorsReachObservers() throws {
        let server = try InProcessServer()
        let (bob, bobWelcome) = try server.join("talk", as: "bob")
        let (roomObserver, _) = try server.join("talk", as: "watch", role: .observer)
        let ops = server.connect()
        server.send(.hello(room: "*", name: "ops", role: .observer), from: ops)
        _ = server.take(ops)
        _ = server.take(roomObserver)

        server.send(#"{"type":"tab","section":"two"}"#, from: bob)
        let bobsError = try #require(only("error", server.take(bob)).first)
        for observer in [ops, roomObserver] {
            let relayed = server.take(observer)
            guard relayed.count == 1, case let .room(envelope) = relayed[0].payload,
                  case let .error(error) = envelope.message.payload else {
                Issue.record("expected one error envelope, got \(relayed)")
                continue
            }
            #expect(envelope.room == "talk" && envelope.to == bobWelcome.you && error.code == .invalidMessage)
            #expect(bobsError == envelope.message)
        }
    }
}

extension ServerMessage {
    /// The `seq` of an encoded server message.
    static func seq(of text: String) throws -> Int {
        try WireCodec().decodeServer(Array(text.utf8)).seq
    }
}
