import NeonClient
import NeonCore
import Testing

@Suite("Refusals end the client")
struct RefusalTests {
    let taken = ProtocolError(.presenterTaken,
                              "room \"talk\" already has a presenter (pat); join as a reader or follow them")

    @Test("presenter_taken names the presenter and the command that follows them")
    func presenterTaken() throws {
        let refusal = try #require(Refusal(taken, room: "talk"))
        #expect(refusal.sentence == "cannot present in room talk: pat is already presenting there (presenter_taken); to follow them instead: neonsync follow talk")
        let odd = try #require(Refusal(ProtocolError(.presenterTaken, "room \"it's\" already has a presenter (Dr. (Who)); join"), room: "it's"))
        #expect(odd.sentence.contains("Dr. (Who) is already presenting") && odd.sentence.hasSuffix("neonsync follow 'it'\\''s'"))
        let unknown = try #require(Refusal(ProtocolError(.presenterTaken, "taken"), room: "talk"))
        #expect(unknown.sentence.contains("someone else is already presenting there"))
    }

    @Test("every final code ends the client with the server's sentence; other errors do not", arguments: [
        (ErrorCode.unauthorized, true), (.tokenExpired, true), (.roomFull, true), (.serverFull, true),
        (.invalidRoom, true), (.invalidName, true), (.rateLimited, false), (.editRejected, false),
        (.tabOutOfRange, false), (.unavailable, false), (.alreadyJoined, false),
    ])
    func finalCodes(code: ErrorCode, final: Bool) {
        let refusal = Refusal(ProtocolError(code, "the reason"), room: "talk")
        #expect((refusal != nil) == final)
        if let refusal { #expect(refusal.sentence == "the server refused this client: the reason (\(code.rawValue))") }
    }

    @Test("the reader, the draft editor and the monitor turn a refusal into one command, and stay quiet otherwise")
    func models() throws {
        let full = ServerMessage(seq: 0, .error(ProtocolError(.roomFull, "room \"talk\" is full (2 members)")))
        let expected = ClientCommand.refused(try #require(Refusal(ProtocolError(.roomFull, "room \"talk\" is full (2 members)"), room: "talk")))
        var reader = ReaderModel(mode: .present, room: "talk", name: "ada", columns: 80, rows: 24, at: .zero)
        _ = reader.connected(at: .zero)
        #expect(reader.receive(ServerMessage(seq: 0, .error(taken)), at: .zero)
            == [.refused(try #require(Refusal(taken, room: "talk")))])
        var draft = DraftModel(room: "talk", name: "ada", profile: nil, columns: 60, rows: 12)
        _ = draft.connected(at: .zero)
        #expect(draft.receive(full, at: .zero) == [expected])
        var monitor = MonitorModel(room: "talk", name: "ada", columns: 80, rows: 24)
        #expect(monitor.receive(full, at: .zero) == [expected])
        #expect(monitor.receive(ServerMessage(seq: 0, .error(ProtocolError(.rateLimited, "slow down"))), at: .zero).isEmpty)
    }

    @Test("shell words are quoted only when a shell would read them otherwise", arguments: [
        ("talk", "talk"), ("team-notes_2.v1", "team-notes_2.v1"), ("été", "été"), ("a$b", "'a$b'"),
        ("it's", "'it'\\''s'"), ("*", "'*'"), ("", "''"),
    ])
    func shellWords(word: String, quoted: String) {
        #expect(ShellWord.quoted(word) == quoted)
    }
}
