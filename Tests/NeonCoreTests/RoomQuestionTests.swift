import Foundation
import Testing
@testable import NeonCore

@Suite("Room reducer: questions on a passage")
struct RoomQuestionTests {
    let pat = ClientID("c9")

    /// pat presents `sampleMarkdown`, ada and bob read (blocks: 1 "First
    /// paragraph.", 3 "Second paragraph with more words.", 5 "Third.").
    func talk() -> RoomState {
        room(with: [(pat, "pat", .presenter), (ada, "ada", .reader), (bob, "bob", .reader)])
    }

    var persisted: (RoomOutput) -> [QuestionInfo]? {
        { if case let .persist(.questionsKept(_, questions)) = $0 { questions } else { nil } }
    }

    @Test("a question is kept first, then told to everyone with the next seq, the asker too, and logged without its text")
    func ask() {
        var r = talk()
        let seq = r.seq
        let out = r.apply(.asked(bob, anchor: Anchor(block: 3, offset: 7), length: 9, text: "why this paragraph?"), at: .zero)
        let question = QuestionInfo(number: 1, by: bob, name: "bob", text: "why this paragraph?",
                                    anchor: Anchor(block: 3, offset: 7), length: 9)
        #expect(out.first.flatMap(persisted) == [question], "kept before anything is sent")
        #expect(out.broadcasts == [ServerMessage(seq: seq + 1, .question(question))])
        guard case let .broadcast(_, _, except)? = out.dropFirst().first else { Issue.record("no broadcast"); return }
        #expect(except == nil, "the asker hears it too: that says it is kept")
        #expect(out.logs.map(\.event) == ["question"])
        #expect(out.logs.first?["number"] == .int(1) && out.logs.first?["answered"] == .bool(false))
        #expect(out.logs.first?.content == [LogField("text", .string("why this paragraph?"))])
        #expect(r.questions == [question])
        #expect(ServerMessage.Payload.question(question).coalescingKey == nil, "a question is never skipped")
        _ = r.apply(.asked(ada, anchor: Anchor(block: 1, offset: 0), length: 16, text: "and this?"), at: .zero)
        #expect(r.questions.map(\.number) == [1, 2])
    }

    @Test("the asker, under the same name on another connection, or the presenter marks a question answered; nobody else")
    func answer() {
        var r = talk()
        _ = r.apply(.asked(bob, anchor: Anchor(block: 3, offset: 0), length: 33, text: "why?"), at: .zero)
        _ = r.apply(.asked(ada, anchor: Anchor(block: 5, offset: 0), length: 6, text: "how?"), at: .zero)
        let before = r
        #expect(r.apply(.questionAnswered(ada, question: 1), at: .zero).errorCodes == [.notAllowed])
        #expect(r.apply(.questionAnswered(ada, question: 7), at: .zero).errorCodes == [.invalidMessage])
        #expect(r == before, "refusals change nothing")
        let byPresenter = r.apply(.questionAnswered(pat, question: 1), at: .zero)
        #expect(byPresenter.broadcasts.map(\.payload) == [.question(QuestionInfo(
            number: 1, by: bob, name: "bob", text: "why?", anchor: Anchor(block: 3, offset: 0), length: 33,
            answered: true, answeredBy: "pat"))])
        #expect(byPresenter.first.flatMap(persisted)?.map(\.answered) == [true, false])
        #expect(r.apply(.questionAnswered(pat, question: 1), at: .zero).isEmpty, "answered twice says nothing")
        _ = r.apply(.left(ada), at: .zero)
        let again = ClientID("c7")
        _ = r.apply(.joined(again, name: "ada", role: .reader), at: .zero)
        let byAsker = r.apply(.questionAnswered(again, question: 2), at: .zero)
        #expect(byAsker.errorCodes.isEmpty && r.questions[1].answeredBy == "ada")
    }

    @Test("bad questions are refused with a sentence and change nothing: observers, no document, outside a block, empty, two lines, over the room's limit")
    func refusals() throws {
        var r = talk()
        _ = r.apply(.joined(eve, name: "eve", role: .observer), at: .zero)
        let before = r
        let ok = Anchor(block: 1, offset: 0)
        #expect(r.apply(.asked(eve, anchor: ok, length: 1, text: "hi?"), at: .zero).errorCodes == [.notAllowed])
        #expect(r.apply(.asked(ada, anchor: Anchor(block: 9, offset: 0), length: 1, text: "hi?"), at: .zero).errorCodes == [.invalidAnchor])
        #expect(r.apply(.asked(ada, anchor: Anchor(block: 1, offset: 10), length: 7, text: "hi?"), at: .zero).errorCodes == [.invalidAnchor])
        #expect(r.apply(.asked(ada, anchor: ok, length: 1, text: "  "), at: .zero).errorCodes == [.invalidMessage])
        #expect(r.apply(.asked(ada, anchor: ok, length: 1, text: "one\ntwo"), at: .zero).errorCodes == [.invalidMessage])
        let long = r.apply(.asked(ada, anchor: ok, length: 1, text: String(repeating: "é", count: 281)), at: .zero)
        #expect(long.errorCodes == [.invalidMessage])
        let sentence = try #require(long.sent(to: ada).first.flatMap { if case let .error(e) = $0.payload { e.message } else { nil } })
        #expect(sentence.contains("281 characters") && sentence.contains("280") && sentence.contains("shorten it"))
        #expect(r == before)
        #expect(r.apply(.asked(ada, anchor: ok, length: 1, text: String(repeating: "é", count: 280)), at: .zero).errorCodes == [])
        #expect(r.questions.count == 1)
        var empty = room(with: [(pat, "pat", .presenter)], document: false)
        #expect(empty.apply(.asked(pat, anchor: .top, length: 0, text: "hi?"), at: .zero).errorCodes == [.noDocument])
    }

    @Test("a room holds at most maxQuestions questions; the next is refused")
    func cap() {
        var r = talk()
        for index in 0..<RoomState.maxQuestions {
            _ = r.apply(.asked(ada, anchor: Anchor(block: 1, offset: 0), length: 1, text: "q\(index)"), at: .zero)
        }
        #expect(r.questions.count == RoomState.maxQuestions)
        #expect(r.apply(.asked(ada, anchor: Anchor(block: 1, offset: 0), length: 1, text: "one more"), at: .zero).errorCodes == [.roomFull])
    }

    @Test("questions follow their text onto a new version, as pointers do; one whose text is gone stays nearby; a replacing document takes them away")
    func versions() {
        var r = talk()
        _ = r.apply(.asked(bob, anchor: Anchor(block: 3, offset: 7), length: 9, text: "why?"), at: .zero)
        _ = r.apply(.asked(ada, anchor: Anchor(block: 5, offset: 0), length: 6, text: "gone?"), at: .zero)
        let next = sampleMarkdown.replacingOccurrences(of: "# One\n", with: "# One\nA new line.\n\n")
            .replacingOccurrences(of: "Third.", with: "Completely different words here.")
        let out = r.apply(.documentPublished(pat, DocumentInfo(title: "Notes", format: .markdown, text: next), revises: 1), at: .zero)
        let moved = r.questions
        #expect(moved[0].anchor == Anchor(block: 4, offset: 7) && moved[0].length == 9, "\(moved[0])")
        #expect(moved[1].length == 0 && moved[1].anchor.block >= 5, "\(moved[1])")
        #expect(out.broadcasts.compactMap { if case let .question(q) = $0.payload { q } else { nil } } == moved)
        #expect(out.compactMap(persisted).last == moved)
        #expect(out.logs.filter { $0.event == "question" }.allSatisfy { $0["moved"] == .bool(true) })
        let replaced = r.apply(.documentPublished(pat, DocumentInfo(title: "Other", format: .markdown, text: "# Other\n\nText.")), at: .zero)
        #expect(r.questions.isEmpty)
        #expect(replaced.compactMap(persisted) == [[]])
    }

    @Test("late joiners get the questions in their welcome; a restored room and a cluster node's image keep them")
    func keptAndWelcomed() throws {
        var r = talk()
        _ = r.apply(.asked(bob, anchor: Anchor(block: 3, offset: 0), length: 33, text: "why?"), at: .zero)
        let joined = r.apply(.joined(eve, name: "eve", role: .reader), at: .zero)
        guard case let .welcome(welcome)? = joined.sent(to: eve).first?.payload else { Issue.record("no welcome"); return }
        #expect(welcome.questions == r.questions)
        let json = String(decoding: WireCodec().encode(ServerMessage(seq: 1, .welcome(welcome))), as: UTF8.self)
        #expect(json.contains(#""questions":[{"#))
        let back = RoomState(image: try JSONDecoder().decode(RoomImage.self, from: try JSONEncoder().encode(r.image)))
        #expect(back == r)
        let restored = RoomState(restoring: RoomSnapshot(name: "notes", document: r.document, draftText: "", draftRevision: 0,
                                                         questions: r.questions))
        #expect(restored.questions == r.questions)
        #expect(RoomState(name: "empty").welcome(for: ada).questions == nil, "absent when nobody asked")
    }

    @Test("ask, answered and question cross the wire as documented; a bad ask names its field")
    func wire() throws {
        let codec = WireCodec()
        #expect(codec.decodeClient(Array(#"{"type":"ask","anchor":{"block":3,"offset":0},"length":33,"text":"why?"}"#.utf8))
                == .success(.ask(anchor: Anchor(block: 3, offset: 0), length: 33, text: "why?")))
        #expect(codec.decodeClient(Array(#"{"type":"answered","question":2}"#.utf8)) == .success(.answered(question: 2)))
        guard case let .failure(error) = codec.decodeClient(Array(#"{"type":"answered","question":"two"}"#.utf8)) else {
            Issue.record("a bad number decoded"); return
        }
        #expect(error.code == .invalidMessage && error.message.contains("\"question\"") && error.message.contains("whole number"))
        let question = QuestionInfo(number: 2, by: ClientID("c2"), name: "bob", text: "why?", anchor: Anchor(block: 3, offset: 0),
                                    length: 33, answered: true, answeredBy: "pat")
        let object = try JSONSerialization.jsonObject(with: Data(codec.encode(ServerMessage(seq: 9, .question(question))))) as? NSDictionary
        #expect(object == ["type": "question", "seq": 9, "number": 2, "by": "c2", "name": "bob", "text": "why?",
                           "anchor": ["block": 3, "offset": 0], "length": 33, "answered": true, "answeredBy": "pat"] as NSDictionary)
        #expect(try codec.decodeServer(codec.encode(ServerMessage(seq: 9, .question(question)))).payload == .question(question))
    }
}
