import Foundation
import NeonClient
import NeonClientTestSupport
import NeonCore
import Testing

@Suite("A reader's place is state: the latest goes, paced")
struct PlacePacingTests {
    /// A reader of `manySections`, welcomed, as `read FILE` is.
    func reader() -> ReaderModel {
        var m = ReaderModel(mode: .read, room: "big", name: "ada", columns: 80, rows: 24, at: .zero)
        _ = m.connected(at: .zero)
        let w = Welcome(you: me, room: "big", document: DocumentInfo(title: "big.md", format: .markdown, text: manySections),
                        readers: [ReaderInfo(id: me, name: "ada", role: .reader)], presenter: nil,
                        draft: DraftInfo(text: "", rev: 0, status: try! DraftCounter().status(forCount: 0)))
        _ = m.receive(ServerMessage(seq: 1, .welcome(w)), at: .zero)
        return m
    }

    /// Runs the model as the runtime does for `duration` after `start`: a
    /// tick after every batch of events and at every wake it asks for; each
    /// place it sends comes back as the room's `progress` 1 ms later (a
    /// loopback server), itself an event followed by a tick. Returns the
    /// places sent, with their times.
    func run(_ m: inout ReaderModel, from start: Duration, for duration: Duration) -> [(Duration, ClientMessage)] {
        var sent: [(Duration, ClientMessage)] = []
        var echoes: [Duration] = []
        var now = start
        var seq = 2
        func perform(_ commands: [ClientCommand], at time: Duration) {
            for case let .send(message) in commands {
                guard case .scroll = message else { continue }
                sent.append((time, message))
                echoes.append(time + .milliseconds(1))
            }
        }
        perform(m.update(.tick, at: now), at: now)
        while now < start + duration {
            let wake = m.nextWake(after: now) ?? start + duration
            let next = ([wake] + echoes).min() ?? wake
            now = max(min(next, start + duration), now + .microseconds(1))
            if let index = echoes.firstIndex(where: { $0 <= now }) {
                echoes.remove(at: index)
                seq += 1
                let progress = ProgressInfo(id: me, progress: 0.5, percent: 50, atBottom: false, section: 0, anchor: .top)
                perform(m.update(.received(ServerMessage(seq: seq, .progress(progress)), text: ""), at: now), at: now)
            }
            perform(m.update(.tick, at: now), at: now)
        }
        return sent
    }

    @Test("an eased jump to tab 9 of 480 sections sends at most 20 places a second, never one per frame, and ends on the reader's last place")
    func easedJump() throws {
        var m = reader()
        let start = Duration.seconds(10)
        let pressed = m.update(.input(.key(.character("9"))), at: start)
        #expect(pressed.contains(.send(.tab(section: 8))))
        let sent = run(&m, from: start, for: .seconds(3))
        #expect(m.pane.animation == nil, "the jump ended")
        #expect(sent.count >= 10 && sent.count <= 40, "\(sent.count) places for a jump of about 1.5 s")
        for (index, first) in sent.enumerated() {
            let within = sent[index...].prefix { $0.0 < first.0 + .milliseconds(500) }.count
            #expect(within <= 11, "\(within) places in the half second from \(first.0)")
        }
        guard case let .scroll(top, _, _, anchor, _)? = sent.last?.1 else { Issue.record("nothing sent"); return }
        #expect(top == m.pane.top && anchor == m.pane.layout?.anchor(forRow: m.pane.top), "the last place sent is where it stopped")
        #expect(m.currentSection == 8)
    }

    @Test("keys pressed one after another go at once, up to a burst; after it the latest waits for its turn, and goes")
    func burstOfKeys() throws {
        var m = reader()
        let start = Duration.seconds(10)
        var at = start
        var immediate = 0
        for _ in 0..<14 {
            at += .milliseconds(1)
            immediate += scrolls(m.update(.input(.key(.character("j"))), at: at)).count
        }
        #expect(immediate == 10, "ten at once, the rest wait")
        let wake = try #require(m.nextWake(after: at))
        #expect(wake > at && wake <= at + .milliseconds(50))
        let late = scrolls(m.update(.tick, at: wake))
        guard case let .scroll(top, _, _, _, _)? = late.first else { Issue.record("the latest did not go"); return }
        #expect(late.count == 1 && top == m.pane.top && top == 14)
    }
}
