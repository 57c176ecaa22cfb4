import Foundation
import NeonCore
import Testing
import NeonTestSupport

/// cmark's own pathological inputs, sent as documents to a running
/// neonsyncd: each is answered (published to the room) within a second, and
/// meanwhile a member of another room gets its relay answered too.
@Suite("Pathological Markdown against a running server", .serialized)
struct PathologicalMarkdownTests {
    static let inputs: [(name: String, text: String)] = [
        ("65,000 nested emphasis markers (cmark's \"nested strong emph\", 21,667 deep)",
         String(repeating: "*a **a ", count: 21_667) + "b" + String(repeating: " a** a*", count: 21_667)),
        ("65,000 emphasis closers with no openers", String(repeating: "a_ ", count: 65_000)),
        ("65,000 emphasis openers with no closers", String(repeating: "_a ", count: 65_000)),
        ("65,000 link closers with no openers", String(repeating: "a]", count: 65_000)),
        ("65,000 link openers with no closers", String(repeating: "[a", count: 65_000)),
        ("50,000 mismatched openers and closers", String(repeating: "*a_ ", count: 50_000)),
        ("50,000 nested brackets", String(repeating: "[", count: 50_000) + "a" + String(repeating: "]", count: 50_000)),
        ("50,000 nested block quotes", String(repeating: "> ", count: 50_000) + "a"),
        ("1,000-deep nested lists", (0..<1_000).map { String(repeating: "  ", count: $0) + "* a\n" }.joined()),
        ("1,000 runs of backticks", (1..<1_000).map { "e" + String(repeating: "`", count: $0) }.joined()),
        ("10,000 table rows of 20 columns",
         "|" + String(repeating: " h |", count: 20) + "\n|" + String(repeating: "---|", count: 20) + "\n"
            + String(repeating: "|" + String(repeating: " x |", count: 20) + "\n", count: 10_000)),
    ]

    @Test("each pathological document is published within 1 s, and another room is answered meanwhile")
    func pathological() async throws {
        let server = try ServerProcess()
        let presenter = try await TestPeer.connect(server)
        let other = try await TestPeer.connect(server)
        _ = try await presenter.hello(room: "pathological", name: "ada", role: .presenter)
        _ = try await other.hello(room: "calm", name: "bob", role: .reader)
        for input in Self.inputs {
            let start = ContinuousClock.now
            presenter.send(.document(title: input.name, format: .markdown, text: input.text))
            other.send(.relay(data: input.name))
            guard case let .document(published) = try await presenter.next("document", timeout: .seconds(10)).payload else {
                Issue.record("\(input.name): no document")
                continue
            }
            let answered = start.duration(to: .now)
            guard case let .relay(relay) = try await other.next("relay", timeout: .seconds(10)).payload else {
                Issue.record("\(input.name): the other room got no relay")
                continue
            }
            let otherRoom = start.duration(to: .now)
            print("\(input.name) (\(input.text.utf8.count) bytes): published in \(answered), other room answered in \(otherRoom)")
            #expect(published.title == input.name && relay.data == input.name)
            #expect(answered < .seconds(1), "\(input.name): published after \(answered)")
            #expect(otherRoom < .seconds(1), "\(input.name): the other room waited \(otherRoom)")
        }
        // The last document is the room's: a late joiner gets it whole.
        let late = try await TestPeer.connect(server)
        let welcome = try await late.hello(room: "pathological", name: "cy", role: .reader)
        #expect(welcome.document?.text == Self.inputs.last?.text)
        #expect(server.stop() == 0)
    }
}
