import Foundation
import NeonCore
@testable import NeonServer
import NeonTransport
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

    @Test("service-thread state touched from another thread than the one that first touched it stops the process")
    func offThreadAccessTraps() async {
        await #expect(processExitsWith: .failure) {
            let bound = ServiceThreadBound(0)
            bound.withValue { $0 += 1 }
            let done = DispatchSemaphore(value: 0)
            Thread {
                bound.withValue { $0 += 1 }
                done.signal()
            }.start()
            done.wait()
        }
    }
}
