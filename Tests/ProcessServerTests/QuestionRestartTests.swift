import Foundation
import NeonCore
@testable import NeonServer
import NeonTestSupport
import Testing
import NeonServerTestSupport

@Suite("Questions kept across restarts and nodes", .serialized, .ownThreads)
struct QuestionRestartTests {
    /// pat presents the deck; bob asks on its second block and pat marks it
    /// answered; bob asks again. Each `question` bob hears says it is kept.
    func ask(_ url: String) async throws -> (pat: TestPeer, bob: TestPeer) {
        let pat = try await TestPeer.connect(url: url)
        _ = try await pat.hello(room: "d", name: "pat", role: .presenter)
        pat.send(.document(title: "deck.md", format: .markdown, text: PresenterPlaceDeck.text))
        _ = try await pat.next("document")
        let bob = try await TestPeer.connect(url: url)
        _ = try await bob.hello(room: "d", name: "bob", role: .reader)
        bob.send(.ask(anchor: Anchor(block: 1, offset: 0), length: 3, text: "why so?"))
        guard case let .question(first) = try await bob.next("question").payload else { throw InProcessFailure("no question") }
        #expect(first.number == 1 && first.name == "bob" && !first.answered)
        pat.send(.answered(question: 1))
        guard case let .question(answered) = try await bob.next("question").payload else { throw InProcessFailure("no answer") }
        #expect(answered.answered && answered.answeredBy == "pat")
        bob.send(.ask(anchor: Anchor(block: 1, offset: 0), length: 3, text: "and then?"))
        _ = try await bob.next("question")
        return (pat, bob)
    }

    static let expected = [("bob", "why so?", true), ("bob", "and then?", false)]

    func check(_ welcome: Welcome) {
        let questions = welcome.questions ?? []
        #expect(questions.map(\.number) == [1, 2])
        #expect(questions.map(\.name) == Self.expected.map(\.0) && questions.map(\.text) == Self.expected.map(\.1))
        #expect(questions.map(\.answered) == Self.expected.map(\.2))
        #expect(questions.allSatisfy { $0.anchor == Anchor(block: 1, offset: 0) && $0.length == 3 })
    }

    @Test("neonsyncd killed with SIGKILL and restarted on its data: a late joiner is welcomed with every question, answered or not; the log has them")
    func afterKill() async throws {
        let directory = try TemporaryDirectory()
        do {
            let server = try ServerProcess(["--data", directory.path])
            _ = try await ask(server.url)
            #expect(await server.events("question", count: 3).count == 3)
            #expect(server.stop(signal: SIGKILL) == SIGKILL)
        }
        let server = try ServerProcess(["--data", directory.path])
        let eve = try await TestPeer.connect(server)
        check(try await eve.hello(room: "d", name: "eve", role: .reader))
        let bob = try await TestPeer.connect(server)
        _ = try await bob.hello(room: "d", name: "bob", role: .reader)
        bob.send(.answered(question: 2))
        guard case let .question(mine) = try await eve.next("question").payload else { Issue.record("no question"); return }
        #expect(mine.answered && mine.answeredBy == "bob", "the asker, on a new connection after the restart, marks its own")
        #expect(server.stop() == 0)
    }

    @Test("cluster: the asker's node dies; on another node, and after every node restarted, a late joiner is welcomed with the questions")
    func cluster() async throws {
        let redis = try RedisProcess()
        let a = try clusterNode(redis, "a")
        let b = try clusterNode(redis, "b")
        _ = try await ask(a.url)
        #expect(a.stop(signal: SIGKILL) == SIGKILL)
        let eve = try await TestPeer.connect(url: b.url)
        check(try await eve.hello(room: "d", name: "eve", role: .reader, timeout: .seconds(30)))
        eve.close()
        #expect(b.stop() == 0)
        let c = try clusterNode(redis, "c")
        let late = try await TestPeer.connect(url: c.url)
        check(try await late.hello(room: "d", name: "fay", role: .reader, timeout: .seconds(30)))
        #expect(c.stop() == 0)
    }
}
