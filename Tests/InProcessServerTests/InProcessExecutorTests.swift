import Foundation
import NeonCore
@testable import NeonServer
import NeonServerTestSupport
import NeonTransportCore
import Testing

/// The executor itself: what it holds behind commits, and whose thread its
/// state belongs to.
@Suite("In-process server: the executor")
struct InProcessExecutorTests {
    @Test("an edit's ack, and everything its room's members get after it, goes out only once the committer reports the revision kept; another room is not held up")
    func acksWaitForTheirCommit() throws {
        let server = try InProcessServer()
        let (ada, _) = try server.join("d", as: "ada")
        let (bob, _) = try server.join("d", as: "bob")
        let (cy, _) = try server.join("e", as: "cy")
        _ = (server.take(ada), server.take(bob))
        server.arrive(.edit(rev: 0, ops: TextOperation([.insert("kept")]), key: "k"), from: ada)
        server.arrive(.follow(on: true), from: ada)
        server.arrive(.follow(on: true), from: cy)
        #expect(server.take(ada).isEmpty && server.take(bob).isEmpty, "held behind the commit")
        #expect(server.take(cy).map(\.type) == ["follow"], "room e has nothing to wait for")
        server.settle()
        #expect(server.take(ada).map(\.type) == ["ack", "follow"])
        #expect(server.take(bob).map(\.type) == ["edit", "follow"])
        #expect(try server.store.loadRoom("d")?.draftText == "kept")
    }

    @Test("GET /healthz answers ok, GET / names the product, other paths 404")
    func http() throws {
        let server = try InProcessServer()
        #expect(server.get("/healthz") == .text("ok\n"))
        #expect(server.get("/") == .text(Executor.greeting))
        #expect(server.get("/nope").status == 404)
    }
}
