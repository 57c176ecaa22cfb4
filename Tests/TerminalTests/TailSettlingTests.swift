import Foundation
import NeonClient
import NeonClientTestSupport
import NeonCore
import NeonTestSupport
import Testing

/// Readable `tail` prints where a reader settles, not every frame of an
/// eased scroll; `--json` still has every frame.
@Suite("tail prints where readers settle", .serialized, .ownThreads)
struct TailSettlingTests {
    let ada = ClientID("c1")

    func progress(_ seq: Int, _ percent: Int, section: Int = 2) -> ProgramEvent {
        let info = ProgressInfo(id: ada, progress: Double(percent) / 100, percent: percent, atBottom: false, section: section,
                                anchor: Anchor(block: 0, offset: 0))
        let message = ServerMessage(seq: seq, .progress(info))
        return .received(message, text: "")
    }

    func welcomed() throws -> TailProgram {
        var program = TailProgram(room: "talk", name: "watcher", json: false, servers: ["ws://a/"], timeOfDay: { "12:00:00" })
        let welcome = Welcome(you: ClientID("c9"), room: "talk", document: nil,
                              readers: [ReaderInfo(id: ada, name: "ada", role: .reader)], presenter: nil,
                              draft: DraftInfo(text: "", rev: 0, status: try DraftCounter().status(forCount: 0)))
        _ = program.update(.received(ServerMessage(seq: 1, .welcome(welcome)), text: ""), at: .zero)
        return program
    }

    @Test("frames of an easing give one line once the reader is still for half a second, and the same place again none")
    func oneLinePerSettle() throws {
        var program = try welcomed()
        for (index, percent) in [1, 2, 5, 9, 14, 20, 26].enumerated() {
            #expect(program.update(progress(2 + index, percent), at: .milliseconds(16 * index)) == [])
        }
        let last = Duration.milliseconds(16 * 6)
        #expect(program.nextWake(after: last) == last + ProgressSettling.quiet)
        #expect(program.update(.tick, at: last + .milliseconds(400)) == [])
        #expect(program.update(.tick, at: last + ProgressSettling.quiet) == [.print("12:00:00 ada 26% §3 (untitled)")])
        #expect(program.nextWake(after: last + ProgressSettling.quiet) == nil)
        _ = program.update(progress(20, 27), at: .seconds(2))
        _ = program.update(progress(21, 26), at: .seconds(2) + .milliseconds(16))
        #expect(program.update(.tick, at: .seconds(3)) == [])
    }

    @Test("a held place is printed before the next line about the room, so the order stays the server's")
    func heldBeforeNextLine() throws {
        var program = try welcomed()
        _ = program.update(progress(2, 40), at: .zero)
        let left = ServerMessage(seq: 3, .left(ReaderInfo(id: ada, name: "ada", role: .reader, percent: 40)))
        #expect(program.update(.received(left, text: ""), at: .milliseconds(50))
                == [.print("12:00:00 ada 40% §3 (untitled)"), .print("12:00:00 ada left at 40%")])
    }

    @Test("a reader's eased tab switch in tmux: readable tail prints one place, --json every frame")
    func easedTabSwitch() throws {
        let server = try ServerProcess()
        let readable = try TailProcess(["tail", "ease", "--name", "watcher", "--server", server.url])
        let json = try TailProcess(["tail", "ease", "--json", "--name", "raw", "--server", server.url])
        _ = try readable.waitForLines(1)
        _ = try json.waitForLines(1)
        let tmux = try Tmux()
        let client = TailProcess.binary.path
        let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("samples/guide.md").path
        try tmux.start("ada", columns: 80, rows: 24, command: "\(client) read \(guide) --room ease --name ada --server \(server.url)")
        try tmux.waitFor("ada", "Welcome", timeout: 20)
        _ = try readable.waitUntil(timeout: 20, "the published document") { $0.contains { $0.contains("published") } }
        try tmux.sendKeys("ada", "6")
        let lines = try readable.waitUntil(timeout: 20, "ada settled on tab 6") { $0.contains { $0.contains("ada") && $0.contains("§6") } }
        let after = lines.drop { !$0.contains("chose tab 6") }.dropFirst()
        let places = after.filter { $0.contains("ada ") && $0.contains("% §") }
        #expect(places.count == 1, "readable tail printed \(places)")
        let frames = try json.waitUntil(timeout: 20, "the json frames up to tab 6") { lines in
            lines.contains { $0.contains("\"progress\"") && $0.contains("\"section\":5") }
        }
        let progressFrames = frames.filter { $0.contains("\"type\":\"progress\"") }
        #expect(progressFrames.count > 3, "--json keeps every frame: \(progressFrames.count)")
        #expect(readable.exitStatus(after: SIGINT) == 0)
        #expect(json.exitStatus(after: SIGINT) == 0)
        #expect(server.stop() == 0)
    }
}
