import NeonClient
import NeonClientTestSupport
import NeonCore
import Testing

/// Readable `tail` prints the draft's text whole once nobody has typed for
/// `DraftSettling.quiet`; `--json` does not.
@Suite("tail prints the draft when it settles")
struct DraftSettlingTests {
    let ada = ClientID("c1")

    func welcomed(json: Bool = false, text: String = "Hi") throws -> TailProgram {
        var program = TailProgram(room: "talk", name: "watcher", json: json, servers: ["ws://a/"], timeOfDay: { "12:00:00" })
        let welcome = Welcome(you: ClientID("c9"), room: "talk", document: nil, readers: [ReaderInfo(id: ada, name: "ada", role: .reader)],
                              presenter: nil, draft: DraftInfo(text: text, rev: 4, status: try DraftCounter().status(of: text)))
        _ = program.update(.received(ServerMessage(seq: 1, .welcome(welcome)), text: ""), at: .zero)
        return program
    }

    func edit(_ seq: Int, rev: Int, _ ops: [TextOperation.Component]) -> ProgramEvent {
        .received(ServerMessage(seq: seq, .edit(EditInfo(rev: rev, ops: TextOperation(ops), by: ada))), text: "")
    }

    @Test("edits in a burst give one print of the whole text, two seconds after the last, each line indented")
    func settles() throws {
        var program = try welcomed()
        #expect(program.update(edit(2, rev: 5, [.retain(2), .insert(" all")]), at: .seconds(1)) == [.print("12:00:00 draft rev 5 by ada (+4 −0)")])
        _ = program.update(edit(3, rev: 6, [.retain(6), .insert("\nsee you")]), at: .seconds(2))
        #expect(program.nextWake(after: .seconds(2)) == .seconds(2) + DraftSettling.quiet)
        #expect(program.update(.tick, at: .seconds(3)) == [])
        #expect(program.update(.tick, at: .seconds(4))
                == [.print("12:00:00 draft rev 6 settled at 14/280:"), .print("  Hi all"), .print("  see you")])
        #expect(program.update(.tick, at: .seconds(9)) == [], "printed once")
        #expect(program.nextWake(after: .seconds(9)) == nil)
    }

    @Test("an edit that does not fit the text tail has prints nothing until the next welcome; --json prints no text")
    func gapsAndJSON() throws {
        var program = try welcomed()
        _ = program.update(edit(2, rev: 5, [.retain(9), .insert("x")]), at: .zero)
        #expect(program.update(.tick, at: .seconds(5)).allSatisfy { if case let .print(line) = $0 { !line.contains("settled") } else { true } })
        var json = try welcomed(json: true)
        _ = json.update(edit(2, rev: 5, [.retain(2), .insert("!")]), at: .zero)
        #expect(json.update(.tick, at: .seconds(5)) == [])
    }
}
