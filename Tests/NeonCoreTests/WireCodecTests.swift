import Testing
@testable import NeonCore

@Suite("Wire codec")
struct WireCodecTests {
    let codec = WireCodec()

    func decode(_ json: String) -> Result<ClientMessage, ProtocolError> {
        codec.decodeClient(Array(json.utf8))
    }

    func failure(_ json: String) -> ProtocolError? {
        if case let .failure(e) = decode(json) { return e }
        return nil
    }

    @Test("every client type of protocol v1 decodes from its documented example")
    func examples() throws {
        #expect(try decode(#"{"type":"hello","room":"team-notes","name":"ada","role":"reader"}"#).get()
            == .hello(room: "team-notes", name: "ada", role: .reader))
        #expect(try decode(##"{"type":"document","title":"Notes","format":"markdown","text":"# Intro\nHello"}"##).get()
            == .document(title: "Notes", format: .markdown, text: "# Intro\nHello"))
        #expect(try decode(#"{"type":"scroll","top":12,"viewport":40,"content":300,"anchor":{"block":7,"offset":0}}"#).get()
            == .scroll(top: 12, viewport: 40, content: 300, anchor: Anchor(block: 7, offset: 0)))
        #expect(try decode(#"{"type":"tab","section":2}"#).get() == .tab(section: 2))
        #expect(try decode(#"{"type":"follow","on":true}"#).get() == .follow(on: true))
        #expect(try decode(#"{"type":"edit","rev":3,"ops":[5,"hello ",-2,10]}"#).get()
            == .edit(rev: 3, ops: TextOperation([.retain(5), .insert("hello "), .delete(2), .retain(10)])))
    }

    @Test("hello may name a counting profile; an unknown one is refused naming the choices")
    func helloProfile() throws {
        #expect(try decode(#"{"type":"hello","room":"r","name":"a","role":"reader","profile":"bluesky"}"#).get()
            == .hello(room: "r", name: "a", role: .reader, profile: .bluesky))
        let e = failure(#"{"type":"hello","room":"r","name":"a","role":"reader","profile":"myspace"}"#)
        #expect(e?.code == .invalidMessage && e?.message.contains("\"twitter\"") == true)
    }

    @Test("unknown fields are ignored for forward compatibility")
    func extraFields() throws {
        #expect(try decode(#"{"type":"tab","section":1,"token":"x","future":[1,2]}"#).get() == .tab(section: 1))
    }

    @Test("bad frames get a stable code and a message naming the problem", arguments: [
        ("not json", ErrorCode.invalidJSON, "not valid JSON"),
        ("[1,2]", .invalidMessage, "JSON object"),
        (#"{"room":"x"}"#, .invalidMessage, "\"type\""),
        (#"{"type":"dance"}"#, .unknownType, "\"dance\""),
        (#"{"type":7}"#, .invalidMessage, "\"type\" must be a string"),
        (#"{"type":"hello","name":"ada","role":"reader"}"#, .invalidMessage, "\"hello\" needs a field \"room\""),
        (#"{"type":"hello","room":"r","name":"ada","role":"boss"}"#, .invalidMessage, "\"role\" in \"hello\" must be one of"),
        (#"{"type":"scroll","top":"12","viewport":1,"content":2,"anchor":{"block":0,"offset":0}}"#, .invalidMessage, "\"top\" in \"scroll\" must be a whole number"),
        (#"{"type":"scroll","top":1.5,"viewport":1,"content":2,"anchor":{"block":0,"offset":0}}"#, .invalidMessage, "\"top\" in \"scroll\" must be a whole number"),
        (#"{"type":"scroll","top":1,"viewport":1,"content":2,"anchor":{"block":0.5,"offset":0}}"#, .invalidMessage, "\"anchor.block\""),
        (#"{"type":"scroll","top":1,"viewport":1,"content":2,"anchor":{"block":0}}"#, .invalidMessage, "anchor.offset"),
        (#"{"type":"tab","section":null}"#, .invalidMessage, "null"),
        (#"{"type":"follow","on":"yes"}"#, .invalidMessage, "true or false"),
        (#"{"type":"edit","rev":0,"ops":[1,{"x":1}]}"#, .invalidMessage, "item 1"),
        (#"{"type":"document","title":"t","format":"pdf","text":""}"#, .invalidMessage, "\"format\""),
    ])
    func refusals(json: String, code: ErrorCode, mention: String) {
        let e = failure(json)
        #expect(e?.code == code)
        #expect(e?.message.contains(mention) == true, "message was: \(e?.message ?? "none")")
    }

    @Test("server messages round-trip and carry type and seq on the wire")
    func serverRoundTrip() throws {
        let messages: [ServerMessage] = [
            ServerMessage(seq: 4, .progress(ProgressInfo(id: ClientID("c3"), progress: 0.29, percent: 29, atBottom: false, section: 1, anchor: Anchor(block: 7, offset: 0)))),
            ServerMessage(seq: 5, .tab(TabInfo(id: ClientID("c3"), section: 2, source: .selected))),
            ServerMessage(seq: 5, .ack(rev: 9)),
            ServerMessage(seq: 6, .limit(LimitInfo(status: try DraftCounter().status(forCount: 260), by: ClientID("c4")))),
            ServerMessage(seq: 0, .error(ProtocolError(.notJoined, "send hello first"))),
            ServerMessage(seq: 7, .joined(ReaderInfo(id: ClientID("c9"), name: "ꙮ 漢字", role: .observer))),
            ServerMessage(seq: 8, .edit(EditInfo(rev: 2, ops: TextOperation([.retain(1), .insert("👨‍👩‍👧")]), by: ClientID("c1")))),
        ]
        for m in messages {
            let bytes = codec.encode(m)
            #expect(try codec.decodeServer(bytes) == m)
        }
        let limit = String(decoding: codec.encode(messages[3]), as: UTF8.self)
        for piece in [#""type":"limit""#, #""seq":6"#, #""level":"warning""#, #""count":260"#, #""remaining":20"#, #""limit":280"#, #""by":"c4""#] {
            #expect(limit.contains(piece), "\(limit) lacks \(piece)")
        }
    }

    @Test("unavailable carries retryAfter in seconds, other errors none; both round-trip")
    func retryAfter() throws {
        let unavailable = ServerMessage(seq: 3, .error(ProtocolError(.unavailable, "try again", retryAfter: 1)))
        let text = String(decoding: codec.encode(unavailable), as: UTF8.self)
        #expect(text.contains(#""retryAfter":1"#), "\(text)")
        #expect(try codec.decodeServer(codec.encode(unavailable)) == unavailable)
        let other = ServerMessage(seq: 3, .error(ProtocolError(.notJoined, "send hello first")))
        #expect(!String(decoding: codec.encode(other), as: UTF8.self).contains("retryAfter"))
        #expect(try codec.decodeServer(codec.encode(other)) == other)
    }

    @Test("relay carries its data both ways unchanged, with the sender's id and the room's seq")
    func relay() throws {
        #expect(try decode(#"{"type":"relay","data":"any text"}"#).get() == .relay(data: "any text"))
        let e = failure(#"{"type":"relay","data":7}"#)
        #expect(e?.code == .invalidMessage && e?.message.contains("\"data\" in \"relay\" must be a string") == true, "\(e?.message ?? "none")")
        let message = ServerMessage(seq: 12, .relay(RelayInfo(id: ClientID("c3"), data: "b0.1.99;xx \"quoted\"")))
        let text = String(decoding: codec.encode(message), as: UTF8.self)
        #expect(text.contains(#""type":"relay""#) && text.contains(#""seq":12"#) && text.contains(#""id":"c3""#))
        #expect(try codec.decodeServer(Array(text.utf8)) == message)
    }

    @Test("a reader object carries \"verified\": true only when the server vouches for the name, and reads back either way")
    func verifiedReader() throws {
        let plain = ReaderInfo(id: ClientID("c1"), name: "ada", role: .reader)
        let vouched = ReaderInfo(id: ClientID("c2"), name: "bob", role: .reader, verified: true)
        let w = Welcome(you: ClientID("c1"), room: "r", document: nil, readers: [plain, vouched], presenter: nil,
                        draft: DraftInfo(text: "", rev: 0, status: try DraftCounter().status(forCount: 0)))
        let message = ServerMessage(seq: 0, .welcome(w))
        let text = String(decoding: codec.encode(message), as: UTF8.self)
        #expect(text.components(separatedBy: #""verified":true"#).count == 2)
        #expect(!text.contains(#""verified":false"#))
        #expect(try codec.decodeServer(Array(text.utf8)) == message)
    }

    @Test("a welcome writes null for a missing document and presenter")
    func welcomeNulls() throws {
        let w = Welcome(you: ClientID("c1"), room: "r", document: nil, readers: [], presenter: nil,
                        draft: DraftInfo(text: "", rev: 0, status: try DraftCounter().status(forCount: 0)))
        let text = String(decoding: codec.encode(ServerMessage(seq: 0, .welcome(w))), as: UTF8.self)
        #expect(text.contains(#""document":null"#))
        #expect(text.contains(#""presenter":null"#))
        #expect(text.contains(#""draft":{"#))
    }
}

@Suite("Wire: observer messages")
struct WireObserverTests {
    let codec = WireCodec()

    @Test("a room envelope spliced around encoded bytes decodes to the same message in a room envelope")
    func splicedEnvelope() throws {
        let inner = ServerMessage(seq: 7, .progress(ProgressInfo(id: ClientID("c2"), progress: 0.5, percent: 50, atBottom: false,
                                                                 section: 1, anchor: Anchor(block: 3, offset: 0))))
        let bytes = codec.envelope(room: "talk \"α\"", seq: 7, message: codec.encode(inner))
        #expect(try codec.decodeServer(bytes) == ServerMessage(seq: 7, .room(RoomEnvelope(room: "talk \"α\"", message: inner))))
        let error = ServerMessage(seq: 0, .error(ProtocolError(.notJoined, "send hello first")))
        let toClient = codec.envelope(room: nil, to: ClientID("c5"), seq: 0, message: codec.encode(error))
        #expect(String(decoding: toClient, as: UTF8.self).hasPrefix(#"{"type":"room","seq":0,"room":null,"to":"c5","message":{"#))
        #expect(try codec.decodeServer(toClient) == ServerMessage(seq: 0, .room(RoomEnvelope(room: nil, to: ClientID("c5"), message: error))))
        #expect(try codec.decodeServer(codec.encode(ServerMessage(seq: 0, .room(RoomEnvelope(room: "r", to: ClientID("c5"), message: error)))))
                == ServerMessage(seq: 0, .room(RoomEnvelope(room: "r", to: ClientID("c5"), message: error))))
    }

    @Test("an overview round-trips, writing null for a room without document or presenter")
    func overviewRoundTrip() throws {
        let summary = RoomSummary(room: "r", seq: 3, readers: [ReaderInfo(id: ClientID("c1"), name: "ada", role: .reader, percent: 40)],
                                  presenter: nil, document: nil,
                                  draft: DraftCount(rev: 2, status: DraftCounter.standard.status(forCount: 12)))
        let message = ServerMessage(seq: 0, .overview(Overview(you: ClientID("c9"), rooms: [summary])))
        let text = String(decoding: codec.encode(message), as: UTF8.self)
        #expect(text.contains(#""presenter":null"#) && text.contains(#""document":null"#))
        #expect(try codec.decodeServer(Array(text.utf8)) == message)
    }
}
