import Foundation
import NeonClient
import NeonCore
import Testing

@Suite("A document over the server's limits, in the reader model")
struct DocumentLimitTests {
    let big = DocumentInfo(title: "big.md", format: .markdown, text: "# Big\n\n" + String(repeating: "word ", count: 40))

    func welcome(document: DocumentInfo? = nil, limits: ServerLimits?) -> ServerMessage {
        ServerMessage(seq: 1, .welcome(Welcome(you: me, room: "big", document: document,
                                               readers: [ReaderInfo(id: me, name: "ada", role: .reader)], presenter: nil,
                                               draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)),
                                               limits: limits)))
    }

    func refusal(_ commands: [ClientCommand]) -> String? {
        commands.lazy.compactMap { if case let .refused(refusal) = $0 { refusal.sentence } else { nil } }.first
    }

    func sentDocument(_ commands: [ClientCommand]) -> Bool {
        commands.contains { if case .send(.document) = $0 { true } else { false } }
    }

    @Test("a welcome's limits refuse a document over --max-document, and one whose message is over --max-message, before it is sent")
    func knownBeforeSending() throws {
        var m = ReaderModel(mode: .read, room: "big", name: "ada", columns: 80, rows: 24, document: big, at: .zero)
        _ = m.connected(at: .zero)
        let out = m.receive(welcome(limits: ServerLimits(message: 8 * 1024 * 1024, document: 100, draft: 20_000)), at: .zero)
        #expect(!sentDocument(out))
        #expect(refusal(out) == "cannot publish “big.md” in room big: the document is \(big.text.utf8.count) bytes, over this server's limit of 100 bytes; split it or ask the operator to raise --max-document (document_too_large)")

        var n = ReaderModel(mode: .read, room: "big", name: "ada", columns: 80, rows: 24, document: big, at: .zero)
        _ = n.connected(at: .zero)
        let tight = n.receive(welcome(limits: ServerLimits(message: 300, document: 300, draft: 20_000)), at: .zero)
        #expect(!sentDocument(tight))
        let sentence = try #require(refusal(tight))
        #expect(sentence.hasPrefix("cannot publish “big.md” in room big: the document is ")
            && sentence.hasSuffix(" bytes as a message, over this server's limit of 300 bytes for one message; split it or ask the operator to raise --max-message (message_too_large)"))

        var o = ReaderModel(mode: .read, room: "big", name: "ada", columns: 80, rows: 24, document: big, at: .zero)
        _ = o.connected(at: .zero)
        #expect(sentDocument(o.receive(welcome(limits: ServerLimits(message: 8 * 1024 * 1024, document: 4 * 1024 * 1024, draft: 20_000)), at: .zero)))
    }

    @Test("the server's message_too_large ends the client with status 3; a connection lost before the document came back sends it again, or refuses it")
    func refusedOnTheWire() {
        var m = ReaderModel(mode: .read, room: "big", name: "ada", columns: 80, rows: 24, document: big, at: .zero)
        _ = m.connected(at: .zero)
        #expect(sentDocument(m.receive(welcome(limits: nil), at: .zero)))
        let error = ProtocolError(.messageTooLarge, "a frame was larger than this server's limit of 8388608 bytes; the connection will close (1009)")
        #expect(refusal(m.receive(ServerMessage(seq: 1, .error(error)), at: .zero))
                == "cannot publish “big.md” in room big: a frame was larger than this server's limit of 8388608 bytes; the connection will close (1009) (message_too_large)")

        var n = ReaderModel(mode: .read, room: "big", name: "ada", columns: 80, rows: 24, document: big, at: .zero)
        _ = n.connected(at: .zero)
        #expect(sentDocument(n.receive(welcome(limits: nil), at: .zero)))
        _ = n.disconnected("connection closed (1009)", at: .seconds(1))
        _ = n.connected(at: .seconds(2))
        let again = n.receive(welcome(limits: ServerLimits(message: 100, document: 100, draft: 20_000)), at: .seconds(2))
        #expect(refusal(again)?.contains("over this server's limit of 100 bytes") == true, "\(again)")
        #expect(!again.contains { if case .send(.scroll) = $0 { true } else { false } }, "no place in a room without its document")
    }

    @Test("a new version of FILE over the limits is not sent; the room keeps the version it has and the status line says why")
    func versionOverTheLimit() {
        let file = DocumentInfo(title: "talk.md", format: .markdown, text: "# Talk\n\nHello.")
        var m = ReaderModel(mode: .read, room: "talk", name: "ada", columns: 80, rows: 24, document: file, at: .zero)
        _ = m.connected(at: .zero)
        _ = m.receive(welcome(document: file, limits: ServerLimits(message: 1000, document: 60, draft: 20_000)), at: .zero)
        let out = m.fileChanged("# Talk\n\n" + String(repeating: "Hello again. ", count: 10), at: .seconds(1))
        #expect(!sentDocument(out))
        #expect(m.notices.current?.text.hasPrefix("talk.md changed, but the room keeps the version it has: the document is ") == true)
    }
}
