import NeonClient
import NeonLoad
import Testing

/// How neonsync-bench deals its connections over a `--server` list.
@Suite("the bench's spread over a server list")
struct ServerSpreadTests {
    @Test("bench follow puts the presenter on the first server and deals the followers evenly over all")
    func spreadWithPresenter() {
        let list = ServerList("A", ["B"])
        let assigned = (0..<9).map { list.server(forConnection: $0, presenterFirst: true) }
        #expect(assigned == ["A", "A", "B", "A", "B", "A", "B", "A", "B"])
        let followers = assigned.dropFirst()
        #expect(followers.filter { $0 == "A" }.count == 4 && followers.filter { $0 == "B" }.count == 4)
        #expect((0..<4).map { ServerList("only").server(forConnection: $0, presenterFirst: true) } == ["only", "only", "only", "only"])
    }

    @Test("the other bench scenarios deal every connection round-robin")
    func spreadRoundRobin() {
        let list = ServerList("A", ["B", "C"])
        #expect((0..<7).map { list.server(forConnection: $0) } == ["A", "B", "C", "A", "B", "C", "A"])
        #expect((0..<7).map { list.position(forConnection: $0) } == [0, 1, 2, 0, 1, 2, 0])
    }
}
