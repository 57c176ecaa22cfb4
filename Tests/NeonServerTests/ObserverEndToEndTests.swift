import Foundation
import NeonCore
import NeonTransport
import Testing
import NeonTestSupport

@Suite("neonsyncd: observers of every room", .serialized, .ownThreads)
struct ObserverEndToEndTests {
    @Test("an observer of \"*\" gets an overview, then every room's broadcasts byte for byte in room envelopes")
    func watchEveryRoom() async throws {
        let server = try ServerProcess()
        let ada = try await TestPeer.connect(server)
        let bob = try await TestPeer.connect(server)
        let cy = try await TestPeer.connect(server)
        let ops = try await TestPeer.connect(server)
        let adaWelcome = try await ada.hello(room: "notes", name: "ada", role: .presenter)
        ada.send(.document(title: "Notes", format: .markdown, text: notes))
        _ = try await ada.next("document")

        ops.send(.hello(room: "*", name: "ops", role: .observer))
        let first = try await ops.next()
        guard case let .overview(overview) = first.payload else {
            Issue.record("expected an overview, got \(first.type)")
            return
        }
        #expect(overview.rooms.map(\.room) == ["notes"])
        #expect(overview.rooms[0].readers.map(\.name) == ["ada"] && overview.rooms[0].presenter == adaWelcome.you)
        #expect(overview.rooms[0].document?.sections == ["Intro", "Usage", "Details"])

        // A room that appears after the overview comes in envelopes too.
        let bobWelcome = try await bob.hello(room: "draft-room", name: "bob", role: .reader)
        let joined = try await ops.next()
        guard case let .room(envelope) = joined.payload, case let .joined(reader) = envelope.message.payload else {
            Issue.record("expected bob's join in a room envelope, got \(joined)")
            return
        }
        #expect(envelope.room == "draft-room" && reader.id == bobWelcome.you && envelope.to == nil)

        _ = try await cy.hello(room: "notes", name: "cy", role: .reader)
        let cyJoinedForAda = try await ada.nextText()
        let cyJoinedForOps = try await ops.nextText()
        let seq = try ServerMessage.seq(of: cyJoinedForAda)
        #expect(cyJoinedForOps == #"{"type":"room","seq":\#(seq),"room":"notes","message":\#(cyJoinedForAda)}"#,
                "the envelope carries the members' frame unchanged")

        let doc = try Document.parse(title: "Notes", format: .markdown, text: notes)
        ada.send(.scroll(top: 29, viewport: 20, content: 120, anchor: Anchor(block: doc.sections[1].firstBlock, offset: 0)))
        let progressForCy = try await cy.nextText()
        let progressForOps = try await ops.nextText()
        #expect(progressForOps.hasSuffix(#","room":"notes","message":\#(progressForCy)}"#))

        // The watcher cannot take part; its error is not relayed back to it.
        ops.send(.tab(section: 1))
        var relayed = 3
        while true {
            let message = try await ops.next()
            if case let .error(error) = message.payload {
                #expect(error.code == .notAllowed)
                break
            }
            #expect(message.type == "room", "the scroll's tab change is relayed too")
            relayed += 1
        }

        let metrics = try httpGet(port: server.port, path: "/metrics")
        #expect(metrics.contains(#"neonsync_messages_out_total{type="room"} \#(relayed)"#), "every relayed message is counted")
        #expect(metrics.contains(#"neonsync_readers{role="observer"} 1"#))
        #expect(server.waitForLog { $0["event"] as? String == "watch" && $0["name"] as? String == "ops" && $0["rooms"] as? Int == 1 } != nil)
        #expect(server.stop() == 0)
    }

    @Test("an error the server sends to one reader reaches the observers, naming whom it went to")
    func errorsReachObservers() async throws {
        let server = try ServerProcess()
        let bob = try await TestPeer.connect(server)
        let roomObserver = try await TestPeer.connect(server)
        let ops = try await TestPeer.connect(server)
        let bobWelcome = try await bob.hello(room: "talk", name: "bob", role: .reader)
        _ = try await roomObserver.hello(room: "talk", name: "watch", role: .observer)
        ops.send(.hello(room: "*", name: "ops", role: .observer))
        _ = try await ops.next("overview")

        bob.sendRaw(#"{"type":"tab","section":"two"}"#)
        let bobsError = try await bob.next("error")
        for observer in [ops, roomObserver] {
            let relayed = try await observer.next("room")
            guard case let .room(envelope) = relayed.payload, case let .error(error) = envelope.message.payload else {
                Issue.record("expected an error envelope, got \(relayed)")
                continue
            }
            #expect(envelope.room == "talk" && envelope.to == bobWelcome.you && error.code == .invalidMessage)
            #expect(bobsError == envelope.message)
        }
        #expect(server.stop() == 0)
    }
}

extension ServerMessage {
    /// The `seq` of an encoded server message.
    static func seq(of text: String) throws -> Int {
        try WireCodec().decodeServer(Array(text.utf8)).seq
    }
}
