import Foundation
import Testing
@testable import NeonCore

@Suite("Room reducer: pointers")
struct RoomPointerTests {
    let pat = ClientID("c9")

    /// ada and bob read, pat presents `sampleMarkdown` (blocks: 0 "One",
    /// 1 "First paragraph.", 2 "Two", 3 "Second paragraph with more words.",
    /// 4 "Three", 5 "Third.").
    func talk() -> RoomState {
        var r = room(with: [(pat, "pat", .presenter), (ada, "ada", .reader), (bob, "bob", .reader)])
        _ = r.apply(.scrolled(pat, top: 0, viewport: 10, content: 20, anchor: .top), at: .zero)
        return r
    }

    @Test("the presenter's point is the room's lead pointer: everyone is told, with its seq, and it is logged")
    func presenterPoints() throws {
        var r = talk()
        let seq = r.seq
        let out = r.apply(.pointed(pat, anchor: Anchor(block: 3, offset: 0), length: 33), at: .seconds(1))
        let lead = PointerInfo(id: pat, name: "pat", lead: true, anchor: Anchor(block: 3, offset: 0), length: 33)
        #expect(out.broadcasts == [ServerMessage(seq: seq + 1, .pointer(lead))])
        #expect(out.logs.map(\.event) == ["point"])
        #expect(r.pointers == [lead])
        #expect(ServerMessage.Payload.pointer(lead).coalescingKey == "pointer:lead")
        let moved = r.apply(.pointed(pat, anchor: Anchor(block: 1, offset: 6), length: 9), at: .seconds(2))
        #expect(moved.broadcasts.count == 1)
        #expect(r.pointers == [PointerInfo(id: pat, name: "pat", lead: true, anchor: Anchor(block: 1, offset: 6), length: 9)],
                "pointing again moves it")
    }

    @Test("readers point too, each their own, after the lead pointer; unpoint clears only the sender's")
    func readersPoint() {
        var r = talk()
        _ = r.apply(.pointed(bob, anchor: Anchor(block: 5, offset: 0), length: 6), at: .zero)
        _ = r.apply(.pointed(pat, anchor: Anchor(block: 3, offset: 0), length: 33), at: .zero)
        _ = r.apply(.pointed(ada, anchor: Anchor(block: 1, offset: 0), length: 16), at: .zero)
        #expect(r.pointers.map(\.name) == ["pat", "bob", "ada"])
        #expect(ServerMessage.Payload.pointer(r.pointers[1]).coalescingKey == "pointer:c2")
        let out = r.apply(.unpointed(bob), at: .zero)
        #expect(out.broadcasts.map(\.payload) == [.pointer(PointerInfo(id: bob, name: "bob", lead: false))])
        #expect(r.pointers.map(\.name) == ["pat", "ada"])
        #expect(r.apply(.unpointed(bob), at: .zero).isEmpty, "nothing to clear is nothing to say")
    }

    @Test("a reader's pointer goes when they leave; the presenter's stays for their reconnect and is in every welcome")
    func pointersAndMembership() throws {
        var r = talk()
        _ = r.apply(.pointed(pat, anchor: Anchor(block: 3, offset: 0), length: 33), at: .zero)
        _ = r.apply(.pointed(bob, anchor: Anchor(block: 5, offset: 0), length: 6), at: .zero)
        _ = r.apply(.left(bob), at: .zero)
        _ = r.apply(.left(pat), at: .zero)
        #expect(r.pointers.map(\.name) == ["pat"])
        let joined = r.apply(.joined(eve, name: "eve", role: .presenter), at: .zero)
        guard case let .welcome(welcome)? = joined.sent(to: eve).first?.payload else {
            Issue.record("no welcome"); return
        }
        #expect(welcome.pointers == [PointerInfo(id: pat, name: "pat", lead: true, anchor: Anchor(block: 3, offset: 0), length: 33)])
        let json = String(decoding: WireCodec().encode(ServerMessage(seq: 1, .welcome(welcome))), as: UTF8.self)
        #expect(json.contains(#""pointers":[{"#))
        _ = r.apply(.unpointed(eve), at: .zero)
        #expect(r.pointers.isEmpty, "the new presenter clears the lead pointer")
    }

    @Test("bad pointing is refused and changes nothing: observers, no document, outside a block, a reader where only the presenter points")
    func refusals() {
        var r = talk()
        _ = r.apply(.joined(eve, name: "eve", role: .observer), at: .zero)
        let before = r
        #expect(r.apply(.pointed(eve, anchor: .top, length: 1), at: .zero).errorCodes == [.notAllowed])
        #expect(r.apply(.pointed(ada, anchor: Anchor(block: 9, offset: 0), length: 1), at: .zero).errorCodes == [.invalidAnchor])
        #expect(r.apply(.pointed(ada, anchor: Anchor(block: 1, offset: 10), length: 7), at: .zero).errorCodes == [.invalidAnchor])
        #expect(r.apply(.pointed(ada, anchor: Anchor(block: 1, offset: 0), length: -1), at: .zero).errorCodes == [.invalidAnchor])
        #expect(r.apply(.pointingChanged(ada, .presenter), at: .zero).errorCodes == [.notAllowed])
        #expect(r == before)
        let rule = r.apply(.pointingChanged(pat, .presenter), at: .zero)
        #expect(rule.logs.map(\.event) == ["pointing"] && rule.broadcasts.isEmpty)
        #expect(r.apply(.pointed(ada, anchor: Anchor(block: 1, offset: 0), length: 16), at: .zero).errorCodes == [.notAllowed])
        #expect(r.apply(.pointed(pat, anchor: Anchor(block: 1, offset: 0), length: 16), at: .zero).errorCodes == [])
        var empty = room(with: [(pat, "pat", .presenter)], document: false)
        #expect(empty.apply(.pointed(pat, anchor: .top, length: 0), at: .zero).errorCodes == [.noDocument])
    }

    @Test("a new document takes every pointer away; a cluster node's image keeps pointers and the rule")
    func documentAndImage() throws {
        var r = talk()
        _ = r.apply(.pointingChanged(pat, .presenter), at: .zero)
        _ = r.apply(.pointed(pat, anchor: Anchor(block: 3, offset: 0), length: 33), at: .zero)
        let data = try JSONEncoder().encode(r.image)
        let back = RoomState(image: try JSONDecoder().decode(RoomImage.self, from: data))
        #expect(back == r)
        #expect(back.pointers.count == 1 && back.pointing == .presenter)
        _ = r.apply(.documentPublished(pat, DocumentInfo(title: "New", format: .markdown, text: "# New\n\nText.")), at: .zero)
        #expect(r.pointers.isEmpty)
    }

    @Test("point, unpoint and pointing cross the wire as documented; a bad point names its field")
    func wire() throws {
        let codec = WireCodec()
        #expect(codec.decodeClient(Array(#"{"type":"point","anchor":{"block":3,"offset":0},"length":33}"#.utf8))
                == .success(.point(anchor: Anchor(block: 3, offset: 0), length: 33)))
        #expect(codec.decodeClient(Array(#"{"type":"unpoint"}"#.utf8)) == .success(.unpoint))
        #expect(codec.decodeClient(Array(#"{"type":"pointing","who":"presenter"}"#.utf8)) == .success(.pointing(who: .presenter)))
        guard case let .failure(error) = codec.decodeClient(Array(#"{"type":"point","anchor":{"block":3,"offset":0}}"#.utf8)) else {
            Issue.record("a point without length decoded"); return
        }
        #expect(error.code == .invalidMessage && error.message.contains("\"length\""))
        guard case let .failure(who) = codec.decodeClient(Array(#"{"type":"pointing","who":"all"}"#.utf8)) else {
            Issue.record("a bad rule decoded"); return
        }
        #expect(who.message.contains("\"everyone\", \"presenter\""))
        let cleared = ServerMessage(seq: 7, .pointer(PointerInfo(id: ClientID("c9"), name: "pat", lead: true)))
        let object = try JSONSerialization.jsonObject(with: Data(codec.encode(cleared))) as? NSDictionary
        #expect(object == ["type": "pointer", "seq": 7, "id": "c9", "name": "pat", "lead": true] as NSDictionary,
                "a cleared pointer has no anchor and no length")
    }
}

@Suite("Room reducer: new versions of the document")
struct RoomVersionTests {
    let pat = ClientID("c9")
    static let second = """
    # Zero
    A new section at the top.

    # One
    First paragraph.

    # Two
    Second paragraph with more words.

    # Three
    Third.
    """

    func talk() -> RoomState {
        var r = room(with: [(pat, "pat", .presenter), (ada, "ada", .reader), (bob, "bob", .reader)])
        _ = r.apply(.scrolled(ada, top: 4, viewport: 10, content: 20, anchor: Anchor(block: 3, offset: 7)), at: .zero)
        _ = r.apply(.pointed(pat, anchor: Anchor(block: 3, offset: 0), length: 6), at: .zero)
        _ = r.apply(.pointed(bob, anchor: Anchor(block: 5, offset: 0), length: 6), at: .zero)
        return r
    }

    @Test("the presenter's next version keeps everyone's place and carries the pointers, told after the document with the next seqs")
    func presenterVersion() throws {
        var r = talk()
        let seq = r.seq
        let out = r.apply(.documentPublished(pat, DocumentInfo(title: "Notes", format: .markdown, text: Self.second), revises: 1),
                          at: .zero)
        #expect(r.documentVersion == 2 && r.document?.version == 2)
        guard case let .document(published)? = out.broadcasts.first?.payload else { Issue.record("no document"); return }
        #expect(published.version == 2 && published.revises == 1 && out.broadcasts.first?.seq == seq + 1)
        #expect(out.broadcasts.dropFirst().map(\.payload) == [
            .pointer(PointerInfo(id: pat, name: "pat", lead: true, anchor: Anchor(block: 5, offset: 0), length: 6)),
            .pointer(PointerInfo(id: bob, name: "bob", lead: false, anchor: Anchor(block: 7, offset: 0), length: 6)),
        ])
        #expect(out.broadcasts.map(\.seq) == [seq + 1, seq + 2, seq + 3])
        #expect(r.members[ada]?.anchor == Anchor(block: 5, offset: 7), "ada reads the same words")
        #expect(r.members[ada]?.spy.current == 2, "in section Two, now the third")
        let log = try #require(out.logs.first { $0.event == "document" })
        #expect(log.fields.contains(LogField("version", .int(2))) && log.fields.contains(LogField("revises", .int(1))))
        #expect(r.apply(.documentPublished(pat, DocumentInfo(title: "Notes", format: .markdown, text: Self.second), revises: 2),
                        at: .zero).isEmpty, "the same version again changes nothing")
    }

    @Test("a pointer whose text is gone is cleared; a replacement (no revises) starts everyone over")
    func goneAndReplaced() {
        var r = talk()
        let without = Self.second.replacingOccurrences(of: "Third.", with: "Another ending.")
        let out = r.apply(.documentPublished(pat, DocumentInfo(title: "Notes", format: .markdown, text: without), revises: 1), at: .zero)
        #expect(out.broadcasts.last?.payload == .pointer(PointerInfo(id: bob, name: "bob", lead: false)))
        #expect(r.pointers.map(\.name) == ["pat"])
        _ = r.apply(.documentPublished(pat, DocumentInfo(title: "Other", format: .markdown, text: "# Other\n\nText."), revises: nil), at: .zero)
        #expect(r.pointers.isEmpty && r.members[ada]?.anchor == .top && r.documentVersion == 3)
    }

    @Test("whoever published the document may publish its next version, even on a new connection of the same session; others may not")
    func whoMayRevise() {
        var r = RoomState(name: "notes")
        _ = r.apply(.joined(ada, name: "ada", role: .reader, resume: "ada-session-secret-1"), at: .zero)
        _ = r.apply(.joined(bob, name: "bob", role: .reader), at: .zero)
        _ = r.apply(.documentPublished(ada, DocumentInfo(title: "Notes", format: .markdown, text: sampleMarkdown)), at: .zero)
        #expect(r.apply(.documentPublished(bob, DocumentInfo(title: "Notes", format: .markdown, text: Self.second), revises: 1),
                        at: .zero).errorCodes == [.documentExists])
        _ = r.apply(.left(ada), at: .zero)
        _ = r.apply(.joined(eve, name: "ada", role: .reader, resume: "ada-session-secret-1"), at: .zero)
        let out = r.apply(.documentPublished(eve, DocumentInfo(title: "Notes", format: .markdown, text: Self.second), revises: 1), at: .zero)
        #expect(out.errorCodes.isEmpty && r.documentVersion == 2)
        #expect(r.apply(.documentPublished(bob, DocumentInfo(title: "Notes", format: .markdown, text: "# X"), revises: nil),
                        at: .zero).errorCodes == [.documentExists])
    }
}
