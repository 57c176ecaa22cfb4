import Foundation
import Testing
@testable import NeonCore

/// A presenter's speaker notes screen joins as an observer marked `notes`.
@Suite("Hub: a presenter's notes screen")
struct NotesScreenMemberTests {
    @Test("an observer's hello with notes is marked in its reader object, its joined and its log line; the mark travels in the image; any other role with notes is refused")
    func marked() throws {
        var hub = Hub()
        let pat = ClientID("c1"), notes = ClientID("c2"), bob = ClientID("c3")
        _ = hub.apply(.received(pat, .hello(room: "talk", name: "pat", role: .presenter)), at: .zero)
        let out = hub.apply(.received(notes, .hello(room: "talk", name: "pat-notes", role: .observer, notes: true)), at: .zero)
        guard case let .joined(info)? = out.broadcasts.first?.payload else { Issue.record("no joined: \(out)"); return }
        #expect(info.isNotesScreen && info.role == .observer)
        #expect(out.logs.first { $0.event == "join" }?["notes"] == .bool(true))
        let json = String(decoding: WireCodec().encode(out.broadcasts[0]), as: UTF8.self)
        #expect(json.contains(#""notes":true"#))
        let image = try JSONDecoder().decode(RoomImage.self, from: JSONEncoder().encode(hub.rooms["talk"]!.image))
        #expect(RoomState(image: image).members[notes]?.isNotesScreen == true)
        let refused = hub.apply(.received(bob, .hello(room: "talk", name: "bob", role: .reader, notes: true)), at: .zero)
        #expect(refused.errorCodes == [.invalidMessage] && hub.rooms["talk"]?.members[bob] == nil)
        #expect(WireCodec().decodeClient(Array(#"{"type":"hello","room":"talk","name":"pat","role":"observer","notes":true}"#.utf8))
                == .success(.hello(room: "talk", name: "pat", role: .observer, notes: true)))
    }
}
