import Testing
@testable import NeonCore

@Suite("Room reducer: summon")
struct RoomSummonTests {
    let pat = ClientID("c9")

    @Test("the presenter's summon makes every detached follower follow again, not readers who never followed, and says whom")
    func summon() {
        var r = room(with: [(pat, "pat", .presenter), (ada, "ada", .reader), (bob, "bob", .reader), (eve, "eve", .reader)])
        _ = r.apply(.followChanged(ada, on: true), at: .zero)
        _ = r.apply(.followChanged(ada, on: false), at: .zero)
        _ = r.apply(.followChanged(eve, on: true), at: .zero)
        let seq = r.seq
        let out = r.apply(.summoned(pat), at: .seconds(1))
        #expect(out.broadcasts == [
            ServerMessage(seq: seq + 1, .follow(FollowInfo(id: ada, on: true))),
            ServerMessage(seq: seq + 2, .summon(SummonInfo(by: pat, name: "pat", members: [ada]))),
        ], "bob never followed and eve still follows: neither moves")
        #expect(r.members[ada]?.following == true && r.members[bob]?.following == false)
        #expect(out.logs.map(\.event) == ["summon"])
        #expect(out.logs.first?.fields.contains(LogField("members", .int(1))) == true)
        #expect(RoomState(image: r.image).members[ada]?.followed == true, "a cluster's room image keeps who followed")
        let again = r.apply(.summoned(pat), at: .seconds(2))
        #expect(again.broadcasts.map(\.payload) == [.summon(SummonInfo(by: pat, name: "pat", members: []))])
    }

    @Test("only the presenter summons; a reader's summon is refused and changes nothing; the message reads back as sent")
    func onlyThePresenter() throws {
        var r = room(with: [(pat, "pat", .presenter), (ada, "ada", .reader)])
        _ = r.apply(.followChanged(ada, on: true), at: .zero)
        _ = r.apply(.followChanged(ada, on: false), at: .zero)
        let before = r
        #expect(r.apply(.summoned(ada), at: .zero).errorCodes == [.notAllowed])
        #expect(r == before)
        let codec = WireCodec()
        #expect(try codec.decodeClient(codec.encode(ClientMessage.summon)).get() == .summon)
        let message = ServerMessage(seq: 3, .summon(SummonInfo(by: pat, name: "pat", members: [ada])))
        #expect(try codec.decodeServer(codec.encode(message)) == message)
    }
}
