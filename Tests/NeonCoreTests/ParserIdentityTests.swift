import Testing
@testable import NeonCore

@Suite("Parser identity on the wire")
struct ParserIdentityTests {
    @Test("the identity names cmark-gfm's version, its extensions and the block numbering")
    func identity() {
        #expect(Document.parserIdentity.hasPrefix("cmark-gfm/0.29.0.gfm."))
        #expect(Document.parserIdentity.contains("table,strikethrough,autolink,tasklist"))
        #expect(Document.parserIdentity.hasSuffix(";blocks/1"))
    }

    @Test("welcome and document broadcasts carry the identity; documents compare by content only")
    func onTheWire() throws {
        let codec = WireCodec()
        let info = DocumentInfo(title: "T", format: .markdown, text: "# A")
        let published = ServerMessage(seq: 3, .document(DocumentPublished(info, by: ClientID("c1-1"))))
        let json = String(decoding: codec.encode(published), as: UTF8.self)
        #expect(json.contains(#""parser":"\#(Document.parserIdentity)""#))
        let foreign = ##"{"type":"document","seq":3,"title":"T","format":"markdown","text":"# A","by":"c1-1","parser":"x/1"}"##
        guard case let .document(back) = try codec.decodeServer(Array(foreign.utf8)).payload else {
            Issue.record("not a document")
            return
        }
        #expect(back.parser == "x/1" && back.info.numbersBlocksDifferently)
        #expect(back.info == info, "the same document, whoever parsed it")
        let old = ##"{"type":"document","seq":3,"title":"T","format":"markdown","text":"# A","by":"c1-1"}"##
        guard case let .document(older) = try codec.decodeServer(Array(old.utf8)).payload else { return }
        #expect(older.parser.isEmpty && !older.info.numbersBlocksDifferently, "a sender that states nothing is not called different")
    }

    @Test("a document from a client that numbers blocks another way is published, and its sender told")
    func mismatchTold() {
        var hub = Hub()
        let ada = ClientID("c1-1")
        _ = hub.apply(.received(ada, .hello(room: "r", name: "ada", role: .presenter)), at: .zero)
        let out = hub.apply(.received(ada, .document(title: "T", format: .markdown, text: "# A", parser: "other/2")), at: .zero)
        #expect(hub.rooms["r"]?.document?.text == "# A")
        #expect(out.errorCodes == [.parserMismatch])
        let same = hub.apply(.received(ada, .document(title: "T", format: .markdown, text: "# B", parser: Document.parserIdentity)),
                             at: .zero)
        #expect(same.errorCodes.isEmpty)
    }
}
