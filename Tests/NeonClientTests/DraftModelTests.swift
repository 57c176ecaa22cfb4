import NeonClient
import NeonCore
import NeonTUI
import Testing

func joinedDraft(limit: Int = 280, profile: CountingProfile = .graphemes, text: String = "", rev: Int = 0) -> DraftModel {
    var m = DraftModel(room: "post", name: "ada", profile: nil, columns: 60, rows: 12)
    _ = m.connected(at: .zero)
    let status = try! DraftCounter(limit: limit, profile: profile).status(of: text)
    let w = Welcome(you: ClientID("c1"), room: "post", document: nil,
                    readers: [ReaderInfo(id: ClientID("c1"), name: "ada", role: .reader),
                              ReaderInfo(id: ClientID("c2"), name: "bob", role: .reader)],
                    presenter: nil, draft: DraftInfo(text: text, rev: rev, status: status, profile: profile))
    _ = m.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero)
    return m
}

@Suite("Draft model")
struct DraftModelTests {
    @Test("hello asks for the chosen profile; the welcome's draft and limit are loaded")
    func join() {
        var m = DraftModel(room: "post", name: "ada", profile: .twitter, columns: 60, rows: 12)
        #expect(m.connected(at: .zero) == [.send(.hello(room: "post", name: "ada", role: .reader, profile: .twitter))])
        let loaded = joinedDraft(limit: 500, profile: .mastodon, text: "hi", rev: 7)
        #expect(loaded.editor.text == "hi" && loaded.editor.revision == 7)
        #expect(loaded.counter.limit == 500 && loaded.counter.profile == .mastodon)
    }

    @Test("typing sends one edit at once, buffers the next until the ack, then sends it")
    func typing() {
        var m = joinedDraft()
        let first = m.handle(.key(.character("a")), at: .zero)
        #expect(first.map(\.withoutKey) == [.send(.edit(rev: 0, ops: TextOperation([.insert("a")])))])
        #expect(m.handle(.key(.character("b")), at: .zero).isEmpty)
        let next = m.receive(ServerMessage(seq: 2, .ack(rev: 1)), at: .zero)
        #expect(next.map(\.withoutKey) == [.send(.edit(rev: 1, ops: TextOperation([.retain(1), .insert("b")])))])
        #expect(m.editor.text == "ab")
    }

    @Test("a remote edit lands in the text and a pure cursor move is shared")
    func remote() {
        var m = joinedDraft(text: "world", rev: 3)
        _ = m.receive(ServerMessage(seq: 2, .edit(EditInfo(rev: 4, ops: TextOperation([.insert("hello "), .retain(5)]), by: ClientID("c2")))), at: .zero)
        #expect(m.editor.text == "hello world")
        let moved = m.handle(.key(.end), at: .zero)
        #expect(moved == [.send(.cursor(position: m.editor.cursor, rev: 4))])
    }

    @Test("reaching the limit pulses the ring once, and the screen shows the negative count over it")
    func limit() {
        var m = joinedDraft(limit: 10, text: String(repeating: "x", count: 25), rev: 1)
        _ = m.receive(ServerMessage(seq: 2, .limit(LimitInfo(status: try! DraftCounter(limit: 10).status(forCount: 10), by: ClientID("c2")))), at: .seconds(1))
        #expect(m.pulseUntil == .seconds(1) + DraftModel.pulseDuration)
        _ = m.tick(at: .seconds(2))
        #expect(m.pulseUntil == nil)
        let screen = m.view(at: .seconds(2), theme: .neon).lines().joined(separator: "\n")
        #expect(screen.contains("-15"))
    }

    @Test("Escape quits; an edit the server rejects resyncs")
    func quitAndResync() {
        var m = joinedDraft()
        #expect(m.handle(.key(.escape), at: .zero) == [.quit])
        #expect(m.receive(ServerMessage(seq: 1, .error(ProtocolError(.editRejected, "too old"))), at: .zero) == [.reconnect])
    }
}

@Suite("Draft model: resuming after a reconnect")
struct DraftResumeTests {
    func welcome(text: String, rev: Int, missed: [EditInfo]?) -> ServerMessage {
        let status = try! DraftCounter().status(of: text)
        return ServerMessage(seq: 1, .welcome(Welcome(you: ClientID("c9"), room: "post", document: nil,
            readers: [], presenter: nil, draft: DraftInfo(text: text, rev: rev, status: status, missed: missed))))
    }

    func sentEdit(_ commands: [ClientCommand]) -> (rev: Int, ops: TextOperation, key: String?)? {
        for case let .send(.edit(rev, ops, key)) in commands { return (rev, ops, key) }
        return nil
    }

    @Test("after a reconnect hello carries the revision, and an edit the server applied before dying is not sent again")
    func appliedBeforeCrash() throws {
        var m = joinedDraft(text: "ab", rev: 2)
        _ = m.handle(.key(.end), at: .zero)
        let typed = try #require(sentEdit(m.handle(.key(.character("c")), at: .zero)))
        _ = m.handle(.key(.character("d")), at: .zero)
        _ = m.disconnected("server gone", at: .zero)
        #expect(m.connected(at: .zero) == [.send(.hello(room: "post", name: "ada", role: .reader, profile: nil, draftRev: 2))])
        let replay = [EditInfo(rev: 3, ops: typed.ops, by: ClientID("c1"), key: typed.key)]
        let out = m.receive(welcome(text: "abc", rev: 3, missed: replay), at: .zero)
        let next = try #require(sentEdit(out))
        #expect(next.rev == 3 && next.ops == TextOperation([.retain(3), .insert("d")]) && next.key != typed.key)
        #expect(m.editor.text == "abcd")
    }

    @Test("an edit the server never got is resent with the same key, transformed past what others did meanwhile")
    func lostBeforeCrash() throws {
        var m = joinedDraft(text: "ab", rev: 2)
        _ = m.handle(.key(.end), at: .zero)
        let typed = try #require(sentEdit(m.handle(.key(.character("c")), at: .zero)))
        _ = m.disconnected("server gone", at: .zero)
        _ = m.connected(at: .zero)
        let other = EditInfo(rev: 3, ops: TextOperation([.insert("X"), .retain(2)]), by: ClientID("c2"), key: "other-1")
        let out = m.receive(welcome(text: "Xab", rev: 3, missed: [other]), at: .zero)
        let resent = try #require(sentEdit(out))
        #expect(resent.rev == 3 && resent.key == typed.key)
        #expect(resent.ops == TextOperation([.retain(3), .insert("c")]))
        #expect(m.editor.text == "Xabc")
    }

    @Test("without a replay (first join, or history too old) the server's text is taken as it is")
    func hardResync() {
        var m = joinedDraft(text: "ab", rev: 2)
        _ = m.disconnected("gone", at: .zero)
        _ = m.connected(at: .zero)
        #expect(m.receive(welcome(text: "new text", rev: 1500, missed: nil), at: .zero).isEmpty)
        #expect(m.editor.text == "new text" && m.editor.revision == 1500)
    }
}

@Suite("Draft model: edits wait for the welcome")
struct DraftWelcomeTests {
    func welcome(text: String, rev: Int, missed: [EditInfo]?) -> ServerMessage {
        DraftResumeTests().welcome(text: text, rev: rev, missed: missed)
    }

    func sentEdit(_ commands: [ClientCommand]) -> (rev: Int, ops: TextOperation, key: String?)? {
        DraftResumeTests().sentEdit(commands)
    }

    @Test("a key typed while the connection opens goes out once, after its welcome, against the welcome's revision")
    func typedWhileConnecting() throws {
        var m = joinedDraft(text: "ab", rev: 2)
        _ = m.handle(.key(.end), at: .zero)
        _ = m.disconnected("server gone", at: .zero)
        _ = m.connected(at: .zero)
        // Sent now, it would reach the server after the hello and be
        // applied, and the welcome would resend it under the same key: two
        // acks for one edit, the second taken as the next edit's.
        #expect(m.handle(.key(.character("x")), at: .zero).isEmpty)
        #expect(m.handle(.key(.character("y")), at: .zero).isEmpty)
        let other = EditInfo(rev: 3, ops: TextOperation([.insert("B"), .retain(2)]), by: ClientID("c2"), key: "bob-1")
        let sent = try #require(sentEdit(m.receive(welcome(text: "Bab", rev: 3, missed: [other]), at: .zero)))
        #expect(sent.rev == 3 && sent.ops == TextOperation([.retain(3), .insert("x")]))
        #expect(m.editor.text == "Babxy")
        let next = try #require(sentEdit(m.receive(ServerMessage(seq: 2, .ack(rev: 4)), at: .zero)))
        #expect(next.rev == 4 && next.ops == TextOperation([.retain(4), .insert("y")]))
    }

    @Test("an ack of a revision already counted (a resent edit acked again) does not acknowledge the next edit")
    func repeatedAck() throws {
        var m = joinedDraft(text: "ab", rev: 2)
        _ = m.handle(.key(.end), at: .zero)
        _ = m.handle(.key(.character("x")), at: .zero)
        _ = m.handle(.key(.character("y")), at: .zero)
        let next = try #require(sentEdit(m.receive(ServerMessage(seq: 2, .ack(rev: 3)), at: .zero)))
        #expect(m.receive(ServerMessage(seq: 2, .ack(rev: 3)), at: .zero).isEmpty)
        #expect(m.editor.revision == 3)
        #expect(m.editor.ot.state == .awaitingConfirm(outstanding: next.ops))
    }

    @Test("an ack past the next revision means this terminal missed something: it says so and starts over")
    func ackOutOfStep() {
        var m = joinedDraft(text: "ab", rev: 2)
        _ = m.handle(.key(.character("x")), at: .zero)
        #expect(m.receive(ServerMessage(seq: 2, .ack(rev: 5)), at: .seconds(1)) == [.reconnect])
        #expect(m.notices.current?.text == "the server acknowledged revision 5 while this terminal is at 2; resyncing")
        #expect(m.connected(at: .seconds(2)) == [.send(.hello(room: "post", name: "ada", role: .reader, profile: nil))])
    }

    @Test("what was typed before the first welcome is kept, after the draft's text, and sent once")
    func typedBeforeFirstWelcome() throws {
        var m = DraftModel(room: "post", name: "ada", profile: nil, columns: 60, rows: 12)
        _ = m.connected(at: .zero)
        #expect(m.handle(.key(.character("h")), at: .zero).isEmpty)
        #expect(m.handle(.key(.character("i")), at: .zero).isEmpty)
        let sent = try #require(sentEdit(m.receive(welcome(text: "Notes ", rev: 5, missed: nil), at: .zero)))
        #expect(sent.rev == 5 && sent.ops == TextOperation([.retain(6), .insert("hi")]))
        #expect(m.editor.text == "Notes hi" && m.editor.cursor == 8)
    }

    @Test("after an edit the server rejects, the next hello starts over and what was typed is kept and sent again")
    func rejectedStartsOver() throws {
        var m = joinedDraft(text: "ab", rev: 2)
        _ = m.handle(.key(.end), at: .zero)
        _ = m.handle(.key(.character("x")), at: .zero)
        #expect(m.receive(ServerMessage(seq: 2, .error(ProtocolError(.editRejected, "does not fit"))), at: .zero) == [.reconnect])
        _ = m.disconnected("resync", at: .zero)
        // Resuming from revision 2 would resend the same edit, rejected
        // again, for ever.
        #expect(m.connected(at: .zero) == [.send(.hello(room: "post", name: "ada", role: .reader, profile: nil))])
        let sent = try #require(sentEdit(m.receive(welcome(text: "abc", rev: 3, missed: nil), at: .zero)))
        #expect(sent.rev == 3 && sent.ops == TextOperation([.retain(3), .insert("x")]))
        #expect(m.editor.text == "abcx")
    }
}

extension ClientCommand {
    /// The command with an edit's key left out, for comparing edits whose
    /// keys are random per process.
    var withoutKey: ClientCommand {
        if case let .send(.edit(rev, ops, _)) = self { return .send(.edit(rev: rev, ops: ops)) }
        return self
    }
}
