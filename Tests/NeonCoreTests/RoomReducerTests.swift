import Testing
@testable import NeonCore

/// Helpers to read outputs.
extension Array where Element == RoomOutput {
    var broadcasts: [ServerMessage] {
        compactMap { if case let .broadcast(m, _, _) = $0 { m } else { nil } }
    }
    func sent(to id: ClientID) -> [ServerMessage] {
        compactMap { if case let .send(m, to) = $0, to == id { m } else { nil } }
    }
    var logs: [LogRecord] { compactMap { if case let .log(r) = $0 { r } else { nil } } }
    var errorCodes: [ErrorCode] {
        compactMap {
            if case let .send(m, _) = $0, case let .error(e) = m.payload { e.code } else { nil }
        }
    }
}

let ada = ClientID("c1"), bob = ClientID("c2"), eve = ClientID("c3")
let sampleMarkdown = """
# One
First paragraph.

# Two
Second paragraph with more words.

# Three
Third.
"""

func room(with members: [(ClientID, String, Role)] = [(ada, "ada", .reader), (bob, "bob", .reader)],
          document: Bool = true) -> RoomState {
    var r = RoomState(name: "notes")
    for (id, name, role) in members { _ = r.apply(.joined(id, name: name, role: role), at: .zero) }
    if document, let first = members.first(where: { $0.2 != .observer }) {
        _ = r.apply(.documentPublished(first.0, DocumentInfo(title: "Notes", format: .markdown, text: sampleMarkdown)), at: .zero)
    }
    return r
}

@Suite("Room reducer: membership")
struct RoomMembershipTests {
    @Test("a join broadcasts joined to the others, then welcomes the joiner with the room")
    func join() {
        var r = RoomState(name: "notes")
        let first = r.apply(.joined(ada, name: "ada", role: .reader), at: .zero)
        #expect(first.count == 3)
        #expect(first[0] == .broadcast(ServerMessage(seq: 1, .joined(ReaderInfo(id: ada, name: "ada", role: .reader))), room: "notes", except: ada))
        let welcome = Welcome(you: ada, room: "notes", document: nil,
                              readers: [ReaderInfo(id: ada, name: "ada", role: .reader)], presenter: nil,
                              draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
        #expect(first[1] == .send(ServerMessage(seq: 1, .welcome(welcome)), to: ada))
        #expect(first.logs.map(\.event) == ["join"])
        let second = r.apply(.joined(bob, name: "bob", role: .presenter), at: .zero)
        guard case let .welcome(w) = second.sent(to: bob).first?.payload else {
            Issue.record("no welcome"); return
        }
        #expect(w.readers.map(\.name) == ["ada", "bob"])
        #expect(w.presenter == bob)
        #expect(r.seq == 2 && r.presenter == bob && r.order == [ada, bob])
    }

    @Test("a second presenter is refused and the room is unchanged")
    func secondPresenter() {
        var r = room(with: [(ada, "ada", .presenter)])
        let before = r
        let out = r.apply(.joined(bob, name: "bob", role: .presenter), at: .zero)
        #expect(out.errorCodes == [.presenterTaken])
        #expect(r == before)
        #expect(out.broadcasts.isEmpty)
    }

    @Test("leaving broadcasts left with the reader and frees the presenter seat")
    func leave() {
        var r = room(with: [(ada, "ada", .presenter), (bob, "bob", .reader)])
        let out = r.apply(.left(ada), at: .zero)
        guard case let .left(info) = out.broadcasts.first?.payload else { Issue.record("no left"); return }
        #expect(info.id == ada && info.role == .presenter)
        #expect(r.presenter == nil && r.order == [bob])
        #expect(r.apply(.joined(eve, name: "eve", role: .presenter), at: .zero).errorCodes.isEmpty)
    }

    @Test("the room refuses members over its limit")
    func full() {
        var r = RoomState(name: "small", limits: RoomLimits(maxMembers: 1))
        _ = r.apply(.joined(ada, name: "ada", role: .reader), at: .zero)
        #expect(r.apply(.joined(bob, name: "bob", role: .reader), at: .zero).errorCodes == [.roomFull])
    }
}

@Suite("Room reducer: documents and reading")
struct RoomReadingTests {
    @Test("publishing parses the document, broadcasts it and logs its size, not its text")
    func publish() {
        let r = room()
        #expect(r.sectionCount == 3)
        #expect(r.document?.title == "Notes")
        var fresh = room(document: false)
        let out = fresh.apply(.documentPublished(ada, DocumentInfo(title: "Notes", format: .markdown, text: sampleMarkdown)), at: .zero)
        #expect(out.first == .persist(.documentSet(room: "notes", DocumentInfo(title: "Notes", format: .markdown, text: sampleMarkdown))))
        guard case let .document(d) = out.broadcasts.first?.payload else { Issue.record("no document"); return }
        #expect(d.by == ada && d.text == sampleMarkdown)
        let log = out.logs.first
        #expect(log?["sections"] == .int(3))
        #expect(log?.fields.contains { $0.value == .string(sampleMarkdown) } == false)
    }

    @Test("only the presenter may replace a document; a replacement resets places")
    func replace() {
        var r = room(with: [(ada, "ada", .reader), (bob, "bob", .presenter)])
        _ = r.apply(.scrolled(ada, top: 5, viewport: 5, content: 10, anchor: Anchor(block: 2, offset: 0)), at: .zero)
        let before = r
        let refused = r.apply(.documentPublished(ada, DocumentInfo(title: "X", format: .text, text: "x")), at: .zero)
        #expect(refused.errorCodes == [.documentExists])
        #expect(r == before)
        let replaced = r.apply(.documentPublished(bob, DocumentInfo(title: "X", format: .text, text: "x")), at: .zero)
        #expect(replaced.errorCodes.isEmpty)
        #expect(r.members[ada]?.percent == 0 && r.members[ada]?.position == nil)
    }

    @Test("a malformed catalog is refused with the parser's reason and nothing changes")
    func badCatalog() {
        var r = room(document: false)
        let before = r
        let out = r.apply(.documentPublished(ada, DocumentInfo(title: "Animals", format: .catalog, text: "[{\"type\": 3}]")), at: .zero)
        #expect(out.errorCodes == [.invalidDocument])
        #expect(r == before)
    }

    @Test("a document over the size limit is refused naming both sizes")
    func tooLarge() {
        var r = RoomState(name: "n", limits: RoomLimits(maxDocumentBytes: 10))
        _ = r.apply(.joined(ada, name: "ada", role: .reader), at: .zero)
        let out = r.apply(.documentPublished(ada, DocumentInfo(title: "t", format: .text, text: String(repeating: "a", count: 11))), at: .zero)
        #expect(out.errorCodes == [.documentTooLarge])
        guard case let .error(e) = out.sent(to: ada).first?.payload else { return }
        #expect(e.message.contains("11 bytes") && e.message.contains("10 bytes"))
    }

    @Test("a scroll broadcasts NeonCore's numbers with the anchor's section, seq + 1")
    func scroll() throws {
        var r = room()
        let seq = r.seq
        let anchor = Anchor(block: 3, offset: 4)
        let out = r.apply(.scrolled(bob, top: 29, viewport: 20, content: 120, anchor: anchor), at: .seconds(1))
        let expectedSection = r.parsed!.blocks[3].section
        #expect(out.broadcasts.first == ServerMessage(seq: seq + 1, .progress(ProgressInfo(
            id: bob, progress: 0.29, percent: 29, atBottom: false, section: expectedSection, anchor: anchor))))
        #expect(r.members[bob]?.percent == 29)
    }

    @Test("bad positions and anchors are refused, state unchanged", arguments: [
        (-1, 20, 100, Anchor(block: 0, offset: 0), ErrorCode.invalidPosition),
        (0, -20, 100, Anchor(block: 0, offset: 0), .invalidPosition),
        (200, 20, 100, Anchor(block: 0, offset: 0), .invalidPosition),
        (0, 20, 100, Anchor(block: 99, offset: 0), .invalidAnchor),
        (0, 20, 100, Anchor(block: -1, offset: 0), .invalidAnchor),
        (0, 20, 100, Anchor(block: 0, offset: 500), .invalidAnchor),
    ])
    func badScroll(top: Int, viewport: Int, content: Int, anchor: Anchor, code: ErrorCode) {
        var r = room()
        let before = r
        let out = r.apply(.scrolled(ada, top: top, viewport: viewport, content: content, anchor: anchor), at: .zero)
        #expect(out.errorCodes == [code])
        #expect(r == before)
    }

    @Test("observers cannot scroll, choose tabs or edit")
    func observer() {
        var r = room(with: [(ada, "ada", .reader), (eve, "eve", .observer)])
        let before = r
        #expect(r.apply(.scrolled(eve, top: 0, viewport: 1, content: 9, anchor: .top), at: .zero).errorCodes == [.notAllowed])
        #expect(r.apply(.tabSelected(eve, section: 1), at: .zero).errorCodes == [.notAllowed])
        #expect(r.apply(.draftEdited(eve, rev: 0, ops: TextOperation([.insert("x")])), at: .zero).errorCodes == [.notAllowed])
        #expect(r == before)
    }

    @Test("a relay goes to the whole room, sender included, with the next seq; nothing is logged or kept")
    func relay() {
        var r = room(with: [(ada, "ada", .reader), (bob, "bob", .reader), (eve, "eve", .observer)], document: false)
        let seq = r.seq
        let before = r
        let out = r.apply(.relayed(bob, data: "hello room"), at: .zero)
        #expect(out == [.broadcast(ServerMessage(seq: seq + 1, .relay(RelayInfo(id: bob, data: "hello room"))), room: "notes", except: nil)])
        #expect(r.seq == seq + 1)
        var unchanged = r
        unchanged.seq = before.seq
        #expect(unchanged == before)
        #expect(r.apply(.relayed(eve, data: "x"), at: .zero).errorCodes == [.notAllowed])
    }

    @Test("scrolling without a document is refused")
    func noDocument() {
        var r = room(document: false)
        #expect(r.apply(.scrolled(ada, top: 0, viewport: 1, content: 9, anchor: .top), at: .zero).errorCodes == [.noDocument])
        #expect(r.apply(.tabSelected(ada, section: 0), at: .zero).errorCodes == [.noDocument])
    }

    @Test("a progress log line comes every 10% crossed, not every row")
    func progressSteps() {
        var r = room()
        var steps: [LogValue?] = []
        for top in 0...100 {
            let out = r.apply(.scrolled(ada, top: top, viewport: 0, content: 100, anchor: .top), at: .zero)
            steps += out.logs.filter { $0.event == "progress" }.map { $0["step"] }
        }
        #expect(steps == [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100].map { .int($0) })
    }

    @Test("a tab out of range names the number of sections")
    func tabRange() {
        var r = room()
        let before = r
        let out = r.apply(.tabSelected(ada, section: 3), at: .zero)
        #expect(out.errorCodes == [.tabOutOfRange])
        guard case let .error(e) = out.sent(to: ada).first?.payload else { return }
        #expect(e.message.contains("3 sections"))
        #expect(r == before)
    }

    @Test("a chosen tab does not bounce back while its animation scrolls past other sections")
    func tabHold() {
        var r = room()
        let doc = r.parsed!
        let sectionTwoBlock = doc.sections[2].firstBlock
        let sectionOneBlock = doc.sections[1].firstBlock
        let chosen = r.apply(.tabSelected(ada, section: 2), at: .seconds(10))
        #expect(chosen.broadcasts.first?.payload == .tab(TabInfo(id: ada, section: 2, source: .selected)))
        let passing = r.apply(.scrolled(ada, top: 3, viewport: 2, content: 12, anchor: Anchor(block: sectionOneBlock, offset: 0)), at: .milliseconds(10_500))
        #expect(passing.broadcasts.count == 1)
        guard case let .progress(p) = passing.broadcasts.first?.payload else { Issue.record("no progress"); return }
        #expect(p.section == 2)
        _ = r.apply(.scrolled(ada, top: 8, viewport: 2, content: 12, anchor: Anchor(block: sectionTwoBlock, offset: 0)), at: .milliseconds(11_500))
        let back = r.apply(.scrolled(ada, top: 3, viewport: 2, content: 12, anchor: Anchor(block: sectionOneBlock, offset: 0)), at: .seconds(14))
        #expect(back.broadcasts.contains { $0.payload == .tab(TabInfo(id: ada, section: 1, source: .scrolled)) })
        #expect(back.logs.contains { $0.event == "tab" && $0["source"] == .string("scrolled") })
    }

    @Test("follow toggles broadcast once; the presenter cannot follow")
    func follow() {
        var r = room(with: [(ada, "ada", .presenter), (bob, "bob", .reader)])
        #expect(r.apply(.followChanged(bob, on: true), at: .zero).broadcasts.first?.payload == .follow(FollowInfo(id: bob, on: true)))
        #expect(r.apply(.followChanged(bob, on: true), at: .zero).isEmpty)
        #expect(r.members[bob]?.following == true)
        #expect(r.apply(.followChanged(ada, on: true), at: .zero).errorCodes == [.notAllowed])
    }
}

@Suite("Room reducer: draft and limit events")
struct RoomDraftTests {
    @Test("an edit is acked to its author and broadcast transformed to the others")
    func edit() {
        var r = room()
        let seq = r.seq
        let out = r.apply(.draftEdited(ada, rev: 0, ops: TextOperation([.insert("hello")])), at: .zero)
        #expect(out.first == .persist(.revisionAcked(room: "notes", revision: 1, operation: TextOperation([.insert("hello")]), text: "hello", by: ada, key: nil)))
        #expect(out[1] == .broadcast(ServerMessage(seq: seq + 1, .edit(EditInfo(rev: 1, ops: TextOperation([.insert("hello")]), by: ada))), room: "notes", except: ada))
        #expect(out[2] == .send(ServerMessage(seq: seq + 1, .ack(rev: 1)), to: ada))
        let concurrent = r.apply(.draftEdited(bob, rev: 0, ops: TextOperation([.insert("world")])), at: .zero)
        #expect(concurrent.errorCodes.isEmpty)
        #expect(r.draft.text == "hello" + "world" || r.draft.text == "world" + "hello")
        #expect(r.draft.revision == 2 && r.draftCount == 10)
    }

    @Test("a stale or malformed edit is refused and the draft is unchanged")
    func refused() {
        var r = room()
        _ = r.apply(.draftEdited(ada, rev: 0, ops: TextOperation([.insert("abc")])), at: .zero)
        let before = r
        #expect(r.apply(.draftEdited(ada, rev: 5, ops: TextOperation([.retain(3), .insert("x")])), at: .zero).errorCodes == [.editRejected])
        #expect(r.apply(.draftEdited(ada, rev: 1, ops: TextOperation([.retain(9), .insert("x")])), at: .zero).errorCodes == [.editRejected])
        #expect(r == before)
    }

    @Test("each level crossing is one limit broadcast and one log line, both ways")
    func crossings() {
        var r = room()
        var levels: [LimitLevel] = []
        var logged: [String] = []
        func type(_ n: Int, by id: ClientID) {
            let ops = TextOperation([.retain(r.draft.length), .insert(String(repeating: "é", count: n))])
            let out = r.apply(.draftEdited(id, rev: r.draft.revision, ops: ops), at: .zero)
            for m in out.broadcasts { if case let .limit(l) = m.payload { levels.append(l.level) } }
            logged += out.logs.filter { $0.event == "limit" }.compactMap { if case let .string(s) = $0["draftLevel"] { s } else { nil } }
        }
        type(259, by: ada)
        #expect(levels.isEmpty)
        type(1, by: bob)
        #expect(levels == [.warning])
        type(19, by: ada)
        #expect(levels == [.warning])
        type(1, by: ada)
        type(9, by: ada)
        #expect(levels == [.warning, .limit])
        type(1, by: bob)
        #expect(levels == [.warning, .limit, .over])
        let wipe = TextOperation([.delete(r.draft.length)])
        let out = r.apply(.draftEdited(ada, rev: r.draft.revision, ops: wipe), at: .zero)
        guard case let .limit(l) = out.broadcasts.last?.payload else { Issue.record("no limit event"); return }
        #expect(l == LimitInfo(status: try! DraftCounter().status(forCount: 0), by: ada))
        #expect(logged == ["warning", "limit", "over"])
    }

    @Test("a draft over the size limit is refused")
    func tooLong() {
        var r = RoomState(name: "n", limits: RoomLimits(maxDraftScalars: 5))
        _ = r.apply(.joined(ada, name: "ada", role: .reader), at: .zero)
        #expect(r.apply(.draftEdited(ada, rev: 0, ops: TextOperation([.insert("123456")])), at: .zero).errorCodes == [.draftTooLarge])
        #expect(r.draft.text.isEmpty)
    }
}

@Suite("Room reducer: durability")
struct RoomDurabilityTests {
    @Test("an acked revision is persisted before its ack and broadcast, with the whole text")
    func persistFirst() {
        var r = room()
        let out = r.apply(.draftEdited(bob, rev: 0, ops: TextOperation([.insert("draft")])), at: .zero)
        let persist = out.firstIndex { if case .persist = $0 { true } else { false } }
        let ack = out.firstIndex { if case let .send(m, _) = $0, case .ack = m.payload { true } else { false } }
        #expect(persist != nil && ack != nil && persist! < ack!)
        #expect(out.first == .persist(.revisionAcked(room: "notes", revision: 1, operation: TextOperation([.insert("draft")]), text: "draft", by: bob, key: nil)))
    }

    @Test("a refused edit persists nothing")
    func refusedNothing() {
        var r = room()
        let out = r.apply(.draftEdited(bob, rev: 7, ops: TextOperation([.insert("x")])), at: .zero)
        #expect(!out.contains { if case .persist = $0 { true } else { false } })
    }

    @Test("a room restored from a snapshot has its document and draft, and edits continue by revision")
    func restore() {
        let snapshot = RoomSnapshot(name: "notes", document: DocumentInfo(title: "Notes", format: .markdown, text: sampleMarkdown),
                                    draftText: "kept text", draftRevision: 41)
        var hub = Hub(restoring: [snapshot])
        let out = hub.apply(.received(ada, .hello(room: "notes", name: "ada", role: .reader)), at: .zero)
        guard case let .welcome(w) = out.sent(to: ada).first?.payload else { Issue.record("no welcome"); return }
        #expect(w.document?.title == "Notes")
        #expect(w.draft.text == "kept text" && w.draft.rev == 41 && w.draft.count == 9)
        #expect(!out.contains { if case .persist(.roomCreated) = $0 { true } else { false } })
        let edit = hub.apply(.received(ada, .edit(rev: 41, ops: TextOperation([.retain(9), .insert("!")]))), at: .zero)
        #expect(edit.sent(to: ada).contains { $0.payload == .ack(rev: 42) })
        #expect(hub.rooms["notes"]?.draft.text == "kept text!")
    }

    @Test("a new room is persisted once, when its first member joins")
    func roomCreated() {
        var hub = Hub()
        let first = hub.apply(.received(ada, .hello(room: "fresh", name: "ada", role: .reader)), at: .zero)
        #expect(first.first == .persist(.roomCreated(room: "fresh", profile: "graphemes", limit: 280)))
        let second = hub.apply(.received(bob, .hello(room: "fresh", name: "bob", role: .reader)), at: .zero)
        #expect(!second.contains { if case .persist = $0 { true } else { false } })
    }
}

@Suite("Room reducer: draft cursors")
struct RoomCursorTests {
    @Test("a cursor move at the current revision goes to the others, not stored, seq + 1")
    func broadcast() {
        var r = room()
        _ = r.apply(.draftEdited(ada, rev: 0, ops: TextOperation([.insert("abc")])), at: .zero)
        let seq = r.seq
        let before = r
        let out = r.apply(.cursorMoved(bob, position: 2, rev: 1), at: .zero)
        #expect(out == [.broadcast(ServerMessage(seq: seq + 1, .cursor(CursorInfo(id: bob, position: 2, rev: 1))), room: "notes", except: bob)])
        #expect(r.draft == before.draft && r.members == before.members)
    }

    @Test("a stale cursor is dropped; one past the end or in the future is refused")
    func refused() {
        var r = room()
        _ = r.apply(.draftEdited(ada, rev: 0, ops: TextOperation([.insert("abc")])), at: .zero)
        #expect(r.apply(.cursorMoved(bob, position: 1, rev: 0), at: .zero).isEmpty)
        #expect(r.apply(.cursorMoved(bob, position: 9, rev: 1), at: .zero).errorCodes == [.invalidMessage])
        #expect(r.apply(.cursorMoved(bob, position: 1, rev: 5), at: .zero).errorCodes == [.editRejected])
    }

    @Test("the cursor message decodes from the wire and round-trips from the server")
    func wire() throws {
        let codec = WireCodec()
        #expect(try codec.decodeClient(Array(#"{"type":"cursor","position":4,"rev":2}"#.utf8)).get() == .cursor(position: 4, rev: 2))
        let m = ServerMessage(seq: 3, .cursor(CursorInfo(id: ada, position: 4, rev: 2)))
        #expect(try codec.decodeServer(codec.encode(m)) == m)
    }
}

@Suite("Room reducer: resync by revision")
struct RoomResyncTests {
    @Test("a resent edit with the same key is acked with its first revision and applied once")
    func idempotent() {
        var r = room()
        let first = r.apply(.draftEdited(ada, rev: 0, ops: TextOperation([.insert("once")]), key: "k-1"), at: .zero)
        #expect(first.sent(to: ada).contains { $0.payload == .ack(rev: 1) })
        let seq = r.seq
        let again = r.apply(.draftEdited(ada, rev: 0, ops: TextOperation([.insert("once")]), key: "k-1"), at: .zero)
        #expect(again == [.send(ServerMessage(seq: seq, .ack(rev: 1)), to: ada)])
        #expect(r.draft.text == "once" && r.draft.revision == 1)
    }

    @Test("a hello with draftRev gets the edits it missed, in order, with authors and keys")
    func missed() {
        var hub = Hub()
        _ = hub.apply(.received(ada, .hello(room: "d", name: "ada", role: .reader)), at: .zero)
        _ = hub.apply(.received(ada, .edit(rev: 0, ops: TextOperation([.insert("a")]), key: "a1")), at: .zero)
        _ = hub.apply(.received(ada, .edit(rev: 1, ops: TextOperation([.retain(1), .insert("b")]), key: "a2")), at: .zero)
        let out = hub.apply(.received(bob, .hello(room: "d", name: "bob", role: .reader, draftRev: 1)), at: .zero)
        guard case let .welcome(w) = out.sent(to: bob).first?.payload else { Issue.record("no welcome"); return }
        #expect(w.draft.missed == [EditInfo(rev: 2, ops: TextOperation([.retain(1), .insert("b")]), by: ada, key: "a2")])
        let current = hub.apply(.received(eve, .hello(room: "d", name: "eve", role: .reader, draftRev: 2)), at: .zero)
        guard case let .welcome(w2) = current.sent(to: eve).first?.payload else { return }
        #expect(w2.draft.missed == [])
        var fresh = Hub()
        _ = fresh.apply(.received(ada, .hello(room: "d", name: "ada", role: .reader)), at: .zero)
        let ahead = fresh.apply(.received(bob, .hello(room: "d", name: "bob", role: .reader, draftRev: 9)), at: .zero)
        guard case let .welcome(w3) = ahead.sent(to: bob).first?.payload else { return }
        #expect(w3.draft.missed == nil)
    }

    @Test("after a restart the kept edits still transform old edits and recognise resent keys")
    func restored() {
        let edits = [EditInfo(rev: 1, ops: TextOperation([.insert("ab")]), by: ada, key: "k1"),
                     EditInfo(rev: 2, ops: TextOperation([.retain(2), .insert("c")]), by: bob, key: "k2")]
        var hub = Hub(restoring: [RoomSnapshot(name: "d", document: nil, draftText: "abc", draftRevision: 2, recentEdits: edits)])
        _ = hub.apply(.received(eve, .hello(room: "d", name: "eve", role: .reader)), at: .zero)
        let resent = hub.apply(.received(eve, .edit(rev: 1, ops: TextOperation([.retain(2), .insert("c")]), key: "k2")), at: .zero)
        #expect(resent.sent(to: eve).contains { $0.payload == .ack(rev: 2) })
        let old = hub.apply(.received(eve, .edit(rev: 1, ops: TextOperation([.insert("X"), .retain(2)]), key: "k3")), at: .zero)
        #expect(old.sent(to: eve).contains { $0.payload == .ack(rev: 3) })
        #expect(hub.rooms["d"]?.draft.text == "Xabc")
    }
}

@Suite("Room reducer: sequence numbers and latest-wins updates")
struct RoomSequenceTests {
    @Test("progress, tab, follow and cursor carry a coalescing key per reader; ordered messages have none")
    func keys() {
        let anchor = Anchor(block: 0, offset: 0)
        #expect(ServerMessage.Payload.progress(ProgressInfo(id: bob, progress: 0, percent: 0, atBottom: false, section: 0, anchor: anchor)).coalescingKey == "progress:c2")
        #expect(ServerMessage.Payload.tab(TabInfo(id: bob, section: 1, source: .selected)).coalescingKey == "tab:c2")
        #expect(ServerMessage.Payload.follow(FollowInfo(id: ada, on: true)).coalescingKey == "follow:c1")
        #expect(ServerMessage.Payload.cursor(CursorInfo(id: ada, position: 0, rev: 0)).coalescingKey == "cursor:c1")
        #expect(ServerMessage.Payload.edit(EditInfo(rev: 1, ops: TextOperation([.insert("a")]), by: ada)).coalescingKey == nil)
        #expect(ServerMessage.Payload.ack(rev: 1).coalescingKey == nil)
        #expect(ServerMessage.Payload.joined(ReaderInfo(id: ada, name: "ada", role: .reader)).coalescingKey == nil)
    }

    @Test("every broadcast advances seq by one, latest-wins ones included (protocol v1)")
    func seqCountsEveryBroadcast() {
        var r = room()
        let seq = r.seq
        var stamped: [Int] = []
        for top in 0 ..< 5 {
            let out = r.apply(.scrolled(bob, top: top * 20, viewport: 20, content: 120, anchor: Anchor(block: 0, offset: 0)), at: .seconds(1))
            stamped += out.broadcasts.map(\.seq)
        }
        let out = r.apply(.draftEdited(ada, rev: 0, ops: TextOperation([.insert("x")])), at: .seconds(2))
        stamped += out.broadcasts.map(\.seq)
        #expect(stamped == Array(seq + 1 ... seq + stamped.count))
        #expect(r.seq == seq + stamped.count)
    }
}
