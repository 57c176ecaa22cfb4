import Foundation
import NeonCore
@testable import NeonServer
import NeonServerTestSupport
import NeonTransportCore
import Testing

/// The messages of `type` among `messages`.
func only(_ type: String, _ messages: [ServerMessage]) -> [ServerMessage] {
    messages.filter { $0.type == type }
}

/// What readers see of each other, through the whole server in-process:
/// transport events, executor, gateway, sequencer, the frames each
/// connection gets.
@Suite("In-process server: reading together, bad input, drafts")
struct InProcessEndToEndTests {
    @Test("two readers co-read: each sees the other's exact numbers, seq rises by one per broadcast")
    func coRead() throws {
        let server = try InProcessServer()
        let (ada, w1) = try server.join("notes", as: "ada")
        #expect(w1.document == nil && w1.readers.map(\.name) == ["ada"])
        server.send(.document(title: "Notes", format: .markdown, text: notes), from: ada)
        let published = try #require(only("document", server.take(ada)).first)
        let (bob, w2) = try server.join("notes", as: "bob")
        #expect(w2.document?.title == "Notes" && w2.readers.map(\.name) == ["ada", "bob"])
        let joined = try #require(only("joined", server.take(ada)).first)
        #expect(joined.seq == published.seq + 1)

        let doc = try Document.parse(title: "Notes", format: .markdown, text: notes)
        let usage = doc.sections[1].firstBlock
        server.send(.scroll(top: 29, viewport: 20, content: 120, anchor: Anchor(block: usage, offset: 0)), from: ada)
        let seen = server.take(bob)
        #expect(seen.map(\.type) == ["progress", "tab"])
        #expect(seen.first?.seq == joined.seq + 1)
        #expect(seen.first?.payload == .progress(ProgressInfo(id: w1.you, progress: 0.29, percent: 29, atBottom: false,
                                                              section: 1, anchor: Anchor(block: usage, offset: 0))))
        #expect(seen.last?.seq == joined.seq + 2)
        #expect(seen.last?.payload == .tab(TabInfo(id: w1.you, section: 1, source: .scrolled)))

        server.send(.scroll(top: 100, viewport: 20, content: 120, anchor: Anchor(block: doc.blocks.count - 1, offset: 0)),
                    from: ada)
        guard case let .progress(end)? = only("progress", server.take(bob)).last?.payload else {
            throw InProcessFailure("no progress")
        }
        #expect(end.percent == 100 && end.atBottom && end.progress == 1)

        server.close(bob)
        guard case let .left(info)? = only("left", server.take(ada)).first?.payload else { throw InProcessFailure("no left") }
        #expect(info.name == "bob")
    }

    @Test("a follower receives the presenter's tab choice and anchor")
    func follow() throws {
        let server = try InProcessServer()
        let (presenter, _) = try server.join("talk", as: "pat", role: .presenter)
        server.send(.document(title: "Talk", format: .markdown, text: notes), from: presenter)
        let (follower, w) = try server.join("talk", as: "fay")
        #expect(w.presenter != nil)
        server.send(.follow(on: true), from: follower)
        guard case let .follow(f)? = only("follow", server.take(follower)).first?.payload else {
            throw InProcessFailure("no follow")
        }
        #expect(f.on && f.id == w.you)
        server.send(.tab(section: 2), from: presenter)
        guard case let .tab(t)? = only("tab", server.take(follower)).first?.payload else { throw InProcessFailure("no tab") }
        #expect(t.section == 2 && t.source == .selected && t.id == w.presenter)
        server.send(.scroll(top: 7, viewport: 10, content: 30, anchor: Anchor(block: 6, offset: 3)), from: presenter)
        guard case let .progress(p)? = only("progress", server.take(follower)).first?.payload else {
            throw InProcessFailure("no progress")
        }
        #expect(p.anchor == Anchor(block: 6, offset: 3) && p.id == w.presenter && p.section == 2)
    }

    @Test("bad input gets a stable error code and the connection stays usable")
    func badInput() throws {
        let server = try InProcessServer(.init(limits: RoomLimits(maxDocumentBytes: 1024)))
        let peer = server.connect()
        server.send("hello?", from: peer)
        #expect(server.takeErrors(peer).map(\.code) == [.invalidJSON])
        server.send(.tab(section: 0), from: peer)
        let early = server.takeErrors(peer)
        #expect(early.map(\.code) == [.notJoined] && early.first?.message.contains("hello") == true)
        server.send(#"{"type":"wave"}"#, from: peer)
        #expect(server.takeErrors(peer).map(\.code) == [.unknownType])
        server.send(#"{"type":"hello","room":"r","role":"reader"}"#, from: peer)
        let missing = server.takeErrors(peer)
        #expect(missing.map(\.code) == [.invalidMessage] && missing.first?.message.contains("\"name\"") == true)
        server.send(.hello(room: "r", name: "ada", role: .presenter), from: peer)
        #expect(server.take(peer).map(\.type) == ["welcome"])
        server.send(.document(title: "Big", format: .text, text: String(repeating: "x", count: 2000)), from: peer)
        #expect(server.takeErrors(peer).map(\.code) == [.documentTooLarge])
        server.send(.document(title: "Small", format: .markdown, text: notes), from: peer)
        #expect(server.take(peer).map(\.type) == ["document"])
        server.send(.tab(section: 9), from: peer)
        #expect(server.takeErrors(peer).map(\.code) == [.tabOutOfRange])
        server.send(.scroll(top: -3, viewport: 10, content: 30, anchor: .top), from: peer)
        let negative = server.takeErrors(peer)
        #expect(negative.map(\.code) == [.invalidPosition] && negative.first?.message.contains("\"top\"") == true)
        let rival = server.connect()
        server.send(.hello(room: "r", name: "eve", role: .presenter), from: rival)
        #expect(server.takeErrors(rival).map(\.code) == [.presenterTaken])
        server.send(.scroll(top: 3, viewport: 10, content: 30, anchor: .top), from: peer)
        #expect(server.take(peer).map(\.type).contains("progress"))
        #expect(server.events("error").count == 8)
        #expect(server.closeOf(peer) == nil && server.closeOf(rival) == nil, "bad input closes nothing")
    }

    @Test("concurrent draft edits converge, authors are acked only once the revision is committed, limit events reach everyone")
    func draft() throws {
        let server = try InProcessServer(.init(limits: RoomLimits(draftLimit: 40)))
        let (ada, _) = try server.join("d", as: "ada")
        let (bob, _) = try server.join("d", as: "bob")
        let edits = ["Hello from ada. ", "Bob says hi!"]
        // Both edit revision 0: bob's edit crosses ada's and is transformed.
        server.send(.edit(rev: 0, ops: TextOperation([.insert(edits[0])])), from: ada)
        server.send(.edit(rev: 0, ops: TextOperation([.insert(edits[1])])), from: bob)
        var texts = ["", ""]
        for (i, peer) in [ada, bob].enumerated() {
            var client = OTClient(revision: 0)
            let mine = TextOperation([.insert(edits[i])])
            _ = try client.applyLocal(mine)
            var text = try mine.apply(to: "")
            var limits: [LimitInfo] = []
            var acks = 0
            for message in server.take(peer) {
                switch message.payload {
                case .ack:
                    _ = try client.serverAck()
                    acks += 1
                case let .edit(e): text = try client.applyServer(e.ops).apply(to: text)
                case let .limit(l): limits.append(l)
                default: break
                }
            }
            texts[i] = text
            #expect(acks == 1)
            #expect(limits.count == 1)
            #expect(limits.first?.level == .warning && limits.first?.count == 28)
            #expect(limits.first?.remaining == 12 && limits.first?.limit == 40)
        }
        #expect(texts[0] == texts[1])
        #expect(texts[0].count == 28)
        #expect(try server.store.loadRoom("d")?.draftText == texts[0], "what was acked is in the store")
        #expect(server.events("limit").contains { $0["draftLevel"] as? String == "warning" && $0["count"] as? Int == 28 })
    }
}

@Suite("In-process server: log privacy")
struct InProcessLogPrivacyTests {
    @Test("document and draft text reach the log only with --log-content")
    func logContent() throws {
        for shown in [false, true] {
            let server = try InProcessServer(.init(limits: RoomLimits(draftLimit: 25)), logContent: shown)
            let (peer, _) = try server.join("private", as: "ada")
            server.send(.document(title: "Diary", format: .text, text: "secret document words"), from: peer)
            server.send(.edit(rev: 0, ops: TextOperation([.insert("secret draft words")])), from: peer)
            #expect(server.take(peer).map(\.type).contains("ack"))
            #expect(!server.events("limit").isEmpty)
            let log = server.logLines.joined(separator: "\n")
            #expect(log.contains("secret document words") == shown, "--log-content \(shown): \(log)")
            #expect(log.contains("secret draft words") == shown)
            #expect(log.contains("\"title\":\"Diary\""))
        }
    }
}
